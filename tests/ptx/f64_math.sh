# fp64 exp, exp2, log, log2, sin, cos, tanh, erf and rsqrt are fp64 arith
# (expand-f64-math; tests/unit/test_expand_f64_math.c checks the formulas
# against libm): no f32 approximation, no call, and the PTX assembles.
# REQUIRES: ptxas
# RUN: %tritonc compile %S/Inputs/f64_math.py --kernel k_all --signature '*fp64:16,*fp64:16' -D N=256 --emit ptx --target cuda:90 -o %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.ptx -o %t.cubin
# RUN: %tritonc compile %S/Inputs/f64_math.py --kernel k_all --signature '*fp64:16,*fp64:16' -D N=256 --emit ttgir --target cuda:80 | FileCheck %s --check-prefix=TTGIR
# CHECK-NOT: .approx
# CHECK-NOT: cvt.rn.f32.f64
# CHECK-NOT: call
# CHECK: fma.rn.f64
# CHECK: sqrt.rn.f64
# TTGIR-NOT: math.exp
# TTGIR-NOT: math.log
# TTGIR-NOT: math.sin
# TTGIR-NOT: math.erf
# TTGIR-NOT: tt.extern_elementwise
# TTGIR: math.fma
# And fp64 libdevice calls: every one expanded, nothing approximate, ptxas clean.
# RUN: %tritonc compile %S/Inputs/f64_libdevice.py --kernel k_libdevice --signature '*fp64:16,*fp64:16,*fp64:16,*i32:16' -D N=128 --emit ptx --target cuda:80 -o %t.lib.ptx
# RUN: FileCheck %s --check-prefix=LIB < %t.lib.ptx
# RUN: ptxas -arch=sm_80 --warning-as-error %t.lib.ptx -o %t.lib.cubin
# LIB-NOT: .approx
# LIB-NOT: call
# LIB: fma.rn.f64
