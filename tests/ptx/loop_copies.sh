# The copies at the end of an scf.for body (PTX emitter, copy_tiles; the
# loop is rotated: tested before it and at its bottom): a
# carried `reg + constant` is one in-place add; a swap, where each
# destination is read by another copy, goes through temporaries; an FMA
# tt.dot, and an mma.sync one, accumulate straight into the loop-carried
# accumulator they alone use (no copy in, no copy back). The PTX is also
# assembled by ptxas.
# RUN: %tritonc compile %S/Inputs/loop_copies.py --kernel bump_kernel --signature '*fp32:16,*fp32:16,i32' --emit ptx --target cuda:90 | FileCheck %s --check-prefix=BUMP
# RUN: %tritonc compile %S/Inputs/loop_copies.py --kernel swap_kernel --signature '*fp32:16,*fp32:16,i32' --emit ptx --target cuda:90 | FileCheck %s --check-prefix=SWAP
# RUN: %tritonc compile %S/Inputs/loop_copies.py --kernel dot_acc_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' --emit ptx --target cuda:90 | FileCheck %s --check-prefix=DOT
# RUN: %tritonc compile %S/Inputs/loop_copies.py --kernel dot_acc_mma_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' --emit ptx --target cuda:90 | FileCheck %s --check-prefix=MMA
# BUMP: $L__BB1:
# BUMP: ld.global.f32 %f{{[0-9]+}}, {{\[}}[[P:%rd[0-9]+]]{{\]}}
# BUMP-NEXT: add.f32 [[S:%f[0-9]+]], [[ACC:%f[0-9]+]], %f{{[0-9]+}}
# BUMP-NEXT: add.s64 [[P]], [[P]], 512;
# BUMP-NEXT: mov.f32 [[ACC]], [[S]];
# BUMP-NEXT: add.s32 [[I:%r[0-9]+]], [[I]], 1;
# BUMP-NEXT: setp.lt.s32 [[C:%p[0-9]+]], [[I]],
# BUMP-NEXT: @[[C]] bra $L__BB1;
# SWAP: $L__BB1:
# SWAP: add.f32 [[SUM:%f[0-9]+]], [[A:%f[0-9]+]], [[B:%f[0-9]+]];
# SWAP-NEXT: mov.f32 [[T1:%f[0-9]+]], [[B]];
# SWAP-NEXT: mov.f32 [[T2:%f[0-9]+]], [[SUM]];
# SWAP-NEXT: mov.f32 [[A]], [[T1]];
# SWAP-NEXT: mov.f32 [[B]], [[T2]];
# DOT: mov.f32 [[C0:%f[0-9]+]], 0f00000000;
# DOT-NEXT: mov.f32 [[C1:%f[0-9]+]], 0f00000000;
# DOT: $L__BB1:
# DOT-NOT: mov.f32
# DOT: $L__BB3:
# DOT-NOT: mov.f32
# DOT: fma.rn.f32 [[C0]], %f{{[0-9]+}}, %f{{[0-9]+}}, [[C0]];
# DOT-NEXT: fma.rn.f32 [[C1]], %f{{[0-9]+}}, %f{{[0-9]+}}, [[C1]];
# DOT-NOT: mov.f32
# DOT: bra $L__BB1;
# DOT: st.global.v2.f32 [%rd{{[0-9]+}}], {[[C0]], [[C1]]};
# MMA: mov.f32 [[C0:%f[0-9]+]], 0f00000000;
# MMA: $L__BB1:
# MMA-NOT: mov.f32
# MMA: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {[[C0]], [[C1:%f[0-9]+]], [[C2:%f[0-9]+]], [[C3:%f[0-9]+]]}, {{.*}}, {[[C0]], [[C1]], [[C2]], [[C3]]};
# MMA-NOT: mov.f32
# MMA: bra $L__BB1;
