# wgmma on sm_90a (src/target/ptx/ptx_mma.c; the layouts drawn in
# mma_plan.h). An fp16 dot of the corpus matmul's shape, 128x128x64 at 4
# warps: the accumulator layout puts every warp along m (warpsPerCTA [4,
# 1], as Triton's warpsPerTileV3); both cp.async rings hold their operand
# swizzled (`swizzle`: the bytes of an atom's row, then per dimension the
# byte stride of each coordinate bit; A's rows in the instructions' order,
# B as 8-row atoms of 128 bytes of n) at 1024-byte aligned stages, and the
# wait at the loop's top fences the copies for the async proxy. At
# BLOCK_K 32 the rings take one stage more (4: two CTAs a multiprocessor
# either way) and copy one iteration less ahead, so that a dot may stay in
# flight until the next one (the waits deferred, prefix DEF). In the PTX:
# each thread's part of the swizzled addresses in the prologue (shr, and,
# xor); each operand's descriptor (start >> 4 | LBO << 16, then SBO >> 4 |
# the 128-byte mode << 30 above; a k step or an m-block further on: an
# add); one fence, then one wgmma.mma_async.m64n128k16 per m-block and k
# step, reading A and B through descriptors, one commit and the wait.
# Where no stage more defers it, the loop runs in Triton's order (late
# copies, `wgmma_late`): the wait after the commit lets this iteration's
# group run on (wait_group 1: the previous one's is done), a barrier, and
# only then the copies, into the stage that group read; the last group is
# waited for after the loop. Deferred: at the next iteration's dot, and
# after the loop. global_smem
# aligned to 1024. A dot outside a loop stores A and B with st.shared into
# the same layouts and fences them before the barrier; B^T (rows of k,
# attention's K^T) is read K-major (imm-trans-b 0); attention's Q, which
# the loop does not change, is written to shared memory once, before it
# (ttg.local_store), and read by the tensor cores from there (prefix ATT).
# Attention's second dot, `acc = tl.dot(p, v, acc * alpha)`, accumulates
# straight into the loop's registers of acc (the yield copies nothing) and
# stays in flight into the next iteration, whose first dot's wait comes
# before acc is read: its ring takes a stage more (ATT, ATTPTX).
# bf16 picks the bf16
# form; sm_80 keeps mma.sync, and so does TRITONC_WGMMA=0. ptxas assembles
# it for sm_90a. (dot_kernel is tests/ptx/mma.py's.)
# RUN: %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='""' --target cuda:90 --emit ttgir | FileCheck %s --check-prefix=TTGIR
# RUN: %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='""' --target cuda:90 --emit ptx -o %t.mm.ptx
# RUN: FileCheck %s --check-prefix=RING < %t.mm.ptx
# RUN: %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32 -D GROUP_M=8 -D ACTIVATION='""' --target cuda:90 --emit ttgir | FileCheck %s --check-prefix=DEF
# RUN: %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=32 -D GROUP_M=8 -D ACTIVATION='""' --target cuda:90 --emit ptx | FileCheck %s --check-prefix=DEFPTX
# RUN: %tritonc compile %S/../kernels/attention.py --kernel attn_fwd_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D CAUSAL=False --target cuda:90 --emit ttgir | FileCheck %s --check-prefix=ATT
# RUN: %tritonc compile %S/../kernels/attention.py --kernel attn_fwd_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D CAUSAL=False --target cuda:90 --emit ptx -o %t.att.ptx
# RUN: FileCheck %s --check-prefix=ATTPTX < %t.att.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.att.ptx -o %t.att.cubin
# RUN: %tritonc compile %S/mma.py --kernel dot_kernel --signature '*fp16:16,*fp16:16,*fp32:16' -D B_T=False --emit ptx --target cuda:90 -o %t.mn.ptx
# RUN: FileCheck %s --check-prefix=MN < %t.mn.ptx
# RUN: %tritonc compile %S/mma.py --kernel dot_kernel --signature '*bf16:16,*bf16:16,*fp32:16' -D B_T=True --emit ptx --target cuda:90 -o %t.k.ptx
# RUN: FileCheck %s --check-prefix=KM < %t.k.ptx
# RUN: %tritonc compile %S/mma.py --kernel dot_kernel --signature '*fp16:16,*fp16:16,*fp32:16' -D B_T=False --emit ptx --target cuda:80 | FileCheck %s --check-prefix=SM80
# RUN: env TRITONC_WGMMA=0 %tritonc compile %S/mma.py --kernel dot_kernel --signature '*fp16:16,*fp16:16,*fp32:16' -D B_T=False --emit ptx --target cuda:90 | FileCheck %s --check-prefix=SM80
# TTGIR: [[ACC:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
# TTGIR: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 0 : i64, stage_bytes = 16384 : i64, swizzle = array<i64: 128, 7, 128, 256, 512, 2048, 4096, 1024, 8192, 6, 2, 4, 8, 16, 32, 64>, vec = 8 : i64}
# TTGIR: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 49152 : i64, stage_bytes = 16384 : i64, swizzle = array<i64: 128, 6, 128, 256, 512, 2048, 4096, 8192, 7, 2, 4, 8, 16, 32, 64, 1024>, vec = 8 : i64}
# TTGIR: "ttg.async_wait"() {num = 1 : i64, proxy_fence, wgmma_late}
# TTGIR: tt.dot {{.*}} -> tensor<128x128xf32, [[ACC]]>
# TTGIR: gpu.barrier
# TTGIR: "ttg.async_copy_global_to_local"
# TTGIR: "ttg.async_copy_global_to_local"
# TTGIR-NEXT: "ttg.async_commit_group"
# TTGIR: scf.yield
# TTGIR: "ttg.async_wait"() {num = 0 : i64, wgmma_wait = 0 : i64} : () -> ()
# DEF: "ttg.local_alloc"() {size = 65536 : i64}
# DEF: "ttg.async_wait"() {num = 1 : i64, proxy_fence, wgmma_deferred}
# DEF: "ttg.async_wait"() {num = 0 : i64, wgmma_wait = 0 : i64} : () -> ()
# DEFPTX: cp.async.wait_group 1;
# DEFPTX-NEXT: fence.proxy.async.shared::cta;
# DEFPTX-NEXT: bar.sync 0;
# DEFPTX: wgmma.wait_group.sync.aligned 0;
# DEFPTX-NEXT: wgmma.fence.sync.aligned;
# DEFPTX: wgmma.commit_group.sync.aligned;
# DEFPTX-NOT: wgmma.wait_group
# DEFPTX: cp.async.wait_group 0;
# DEFPTX-NEXT: wgmma.wait_group.sync.aligned 0;
# DEFPTX-NEXT: bar.sync 0;
# RING: .target sm_90a
# RING: .extern .shared .align 1024 .b8 global_smem[];
# RING: shr.u32 [[T:%r[0-9]+]], [[L:%r[0-9]+]], 3;
# RING-NEXT: and.b32 [[T]], [[T]], 112;
# RING-NEXT: xor.b32 [[L]], [[L]], [[T]];
# RING: cp.async.wait_group 1;
# RING-NEXT: fence.proxy.async.shared::cta;
# RING-NEXT: bar.sync 0;
# RING: or.b32 [[BLO:%r[0-9]+]], {{%r[0-9]+}}, 4194304;
# RING-NEXT: mov.b32 [[BHI:%r[0-9]+]], 1073741952;
# RING: or.b32 [[ALO:%r[0-9]+]], {{%r[0-9]+}}, 65536;
# RING-NEXT: mov.b32 [[AHI:%r[0-9]+]], 1073741888;
# RING-NEXT: mov.b64 [[B0:%rd[0-9]+]], {[[BLO]], [[BHI]]};
# RING-NEXT: mov.b64 [[A0:%rd[0-9]+]], {[[ALO]], [[AHI]]};
# RING: wgmma.fence.sync.aligned;
# RING-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{(%f[0-9]+, ){63}%f[0-9]+}}}, [[A0]], [[B0]], 1, 1, 1, 0, 1;
# RING-COUNT-7: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
# RING-NEXT: wgmma.commit_group.sync.aligned;
# RING-NEXT: wgmma.wait_group.sync.aligned 1;
# RING-NEXT: bar.sync 0;
# RING: cp.async.cg.shared.global
# RING: cp.async.commit_group;
# RING: bra $L__BB1;
# RING-NEXT: $L__BB2:
# RING-NEXT: cp.async.wait_group 0;
# RING-NEXT: wgmma.wait_group.sync.aligned 0;
# RING-NOT: mma.sync
# RING-NOT: ldmatrix
# ATT: "ttg.local_alloc"() {size = 81920 : i64}
# ATT-NEXT: "ttg.local_store"(%c0_i32, [[Q:%[0-9]+]]) {offset = 65536 : i64, stage_bytes = 16384 : i64, swizzle = array<i64: 128, 7,
# ATT: scf.for
# ATT-NEXT: "ttg.async_wait"() {num = 1 : i64, proxy_fence, wgmma_deferred}
# ATT: [[QS:%[0-9]+]] = "ttg.local_load"(%c0_i32{{(_[0-9]+)?}}) {offset = 65536 : i64, stage_bytes = 16384 : i64}
# ATT-NEXT: tt.dot [[QS]],
# ATT: "ttg.async_wait"() {num = 0 : i64, wgmma_wait = 0 : i64}
# ATTPTX: $L__BB1:
# ATTPTX-NEXT: cp.async.wait_group 1;
# ATTPTX: wgmma.commit_group.sync.aligned;
# ATTPTX-NEXT: wgmma.wait_group.sync.aligned 0;
# ATTPTX-NOT: wgmma.wait_group
# ATTPTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {[[ACC:%f[0-9]+]], {{.*}}}, {%r{{.*}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
# ATTPTX: wgmma.commit_group.sync.aligned;
# ATTPTX-NOT: wgmma.wait_group
# ATTPTX-NOT: mov.f32 [[ACC]],
# ATTPTX: bra $L__BB1;
# ATTPTX-NEXT: $L__BB2:
# ATTPTX-NEXT: cp.async.wait_group 0;
# ATTPTX-NEXT: wgmma.wait_group.sync.aligned 0;
# MN: st.shared.v4.b32
# MN: fence.proxy.async.shared::cta;
# MN-NEXT: bar.sync 0;
# MN: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0, 1;
# MN-NOT: mma.sync
# KM: fence.proxy.async.shared::cta;
# KM: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 0, 0;
# SM80-NOT: wgmma
# SM80: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# REQUIRES: ptxas
# RUN: ptxas -arch=sm_90a --warning-as-error %t.mm.ptx -o %t.mm.cubin
# RUN: ptxas -arch=sm_90a --warning-as-error %t.mn.ptx -o %t.mn.cubin
# RUN: ptxas -arch=sm_90a --warning-as-error %t.k.ptx -o %t.k.cubin
