# FP contraction in the PTX emitter: `a * b + c` becomes one fma.rn when the
# multiply feeds that add alone (`a * b - c` and `c - a * b` an fma of a
# negated operand), as LLVM contracts Triton's arithmetic
# (Triton's default, enable_fp_fusion); a product read twice stays a mul and
# an add; TRITON_DEFAULT_FP_FUSION=0 (Triton's switch) turns contraction off,
# and rounds each mul and add explicitly (.rn) so that ptxas cannot fuse them;
# fp64 contracts too.
# RUN: %tritonc compile %S/Inputs/fp_contract.py --kernel contract_kernel --signature '*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16' -D BLOCK=128 --emit ptx --target cuda:90 | FileCheck %s
# RUN: env TRITON_DEFAULT_FP_FUSION=0 %tritonc compile %S/Inputs/fp_contract.py --kernel contract_kernel --signature '*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16' -D BLOCK=128 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=OFF
# RUN: %tritonc compile %S/Inputs/fp_contract.py --kernel contract_kernel --signature '*fp64:16,*fp64:16,*fp64:16,*fp64:16,*fp64:16,*fp64:16,*fp64:16' -D BLOCK=128 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=F64
# CHECK-NOT: mul.f32
# CHECK: fma.rn.f32 [[R:%f[0-9]+]], [[X:%f[0-9]+]], [[Y:%f[0-9]+]], [[Z:%f[0-9]+]];
# CHECK-NOT: fma.rn.f32
# CHECK: mul.f32 [[XZ:%f[0-9]+]], [[X]], [[Z]];
# CHECK: add.f32 [[S:%f[0-9]+]], [[XZ]], [[Y]];
# CHECK-NEXT: mul.f32 %f{{[0-9]+}}, [[S]], [[XZ]];
# CHECK: neg.f32 [[NX:%f[0-9]+]], [[X]];
# CHECK-NEXT: fma.rn.f32 %f{{[0-9]+}}, [[Y]], [[Z]], [[NX]];
# CHECK: neg.f32 [[NY:%f[0-9]+]], [[Y]];
# CHECK-NEXT: fma.rn.f32 %f{{[0-9]+}}, [[NY]], 0f40000000, [[X]];
# CHECK-NOT: mul.f32
# CHECK-NOT: sub.f32
# OFF-NOT: fma.rn
# OFF: mul.rn.f32
# OFF: add.rn.f32
# OFF-NOT: fma.rn
# OFF-NOT: {{(add|sub|mul)}}.f32
# F64: fma.rn.f64
