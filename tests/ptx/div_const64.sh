# A 64-bit division or remainder by a constant is a multiply-high and shifts
# (support/divmagic.h, checked against C's division by test_divmagic):
# ptxas calls a generic division subroutine for div.s64/rem.s64 by an
# immediate. A power of two is shifts (tests/ptx/div_sim.py runs them). A
# divisor known only at run time still divides.
# REQUIRES: ptxas
# RUN: %tritonc compile %S/Inputs/div_const.py --kernel div_const_kernel --signature '*i64:16,*i64:16,*i64:16,*i64:16,i64' -D BLOCK=128 -D D=-7 --emit ptx --target cuda:90 -o %t.s.ptx
# RUN: FileCheck %s --check-prefix=SIGNED < %t.s.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.s.ptx -o %t.s.cubin
# SIGNED-NOT: div.s64 {{.*}}, -7
# SIGNED-NOT: rem.s64
# SIGNED: mul.hi.s64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 0x{{[0-9a-f]+}}U
# SIGNED: neg.s64
# SIGNED: mul.lo.s64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, -7
# SIGNED: div.s64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}
# RUN: %tritonc compile %S/Inputs/div_const.py --kernel div_const_kernel --signature '*u64:16,*u64:16,*u64:16,*u64:16,u64' -D BLOCK=128 -D D=10 --emit ptx --target cuda:80 -o %t.u.ptx
# RUN: FileCheck %s --check-prefix=UNSIGNED < %t.u.ptx
# RUN: ptxas -arch=sm_80 --warning-as-error %t.u.ptx -o %t.u.cubin
# UNSIGNED-NOT: rem.u64
# UNSIGNED: mul.hi.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 0x{{[0-9a-f]+}}U
# UNSIGNED: shr.u64
# UNSIGNED: div.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}
# RUN: %tritonc compile %S/Inputs/div_const.py --kernel div_const_kernel --signature '*i64:16,*i64:16,*i64:16,*i64:16,i64' -D BLOCK=128 -D D=-8 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=POW2
# POW2-NOT: mul.hi
# POW2: shr.s64 [[S:%rd[0-9]+]], [[A:%rd[0-9]+]], 63;
# POW2-NEXT: shr.u64 [[B:%rd[0-9]+]], [[S]], 61;
# POW2-NEXT: add.s64 [[X:%rd[0-9]+]], [[A]], [[B]];
# POW2-NEXT: shr.s64 [[Q:%rd[0-9]+]], [[X]], 3;
# POW2-NEXT: neg.s64 %rd{{[0-9]+}}, [[Q]];
# POW2-NOT: mul.hi
