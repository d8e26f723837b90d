# pipeline-async-copy takes a load that reaches the dot through tt.trans:
# the fused-attention tutorial's forward (tests/kernels/flash_attention.py,
# `desc_k.load(...).T`; 128x64 queries, 64-row K/V tiles, head_dim 64).
# K's tile [64 keys x 64 dims] is B^T of `qk = q @ k.T`; B is stored as
# N rows of K (k = head_dim contiguous, 128-byte swizzled rows), so the
# copy of k's (r, c), B's (c, r), goes where the swizzle puts c + 64 r (the
# `swizzle` attribute in the load's coordinates: r's bits 128, 256, ...,
# c's 2, 4, ...), 16-byte vectors along the head dimension (padded rows,
# TRITONC_MMA_SWIZZLE=0: c + 72 r, stride0 = 72, stride1 = 1). The ttg.local_load gives
# the transposed tile (64x64 in the trans result's layout) straight to the
# dot; no tt.trans is left, and V keeps its own ring.
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=1 %tritonc compile %S/../kernels/flash_attention.py --kernel attn_fwd --signature 'fp32,*fp32:16,i32,i32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D FP8_OUTPUT=False -D STAGE=1 -D warp_specialize=False -D IS_HOPPER=True --target cuda:90 --emit ttgir | FileCheck %s
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=1 %tritonc compile %S/../kernels/flash_attention.py --kernel attn_fwd --signature 'fp32,*fp32:16,i32,i32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D FP8_OUTPUT=False -D STAGE=1 -D warp_specialize=False -D IS_HOPPER=True --target cuda:90 --emit ptx | FileCheck %s --check-prefix=PTX
# The register path (TRITONC_ASYNC_COPY=0) keeps the tt.trans.
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=0 %tritonc compile %S/../kernels/flash_attention.py --kernel attn_fwd --signature 'fp32,*fp32:16,i32,i32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D FP8_OUTPUT=False -D STAGE=1 -D warp_specialize=False -D IS_HOPPER=True --target cuda:90 --emit ttgir | FileCheck %s --check-prefix=REG
# CHECK-NOT: tt.trans
# RUN: env TRITONC_MMA_SWIZZLE=0 TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=1 %tritonc compile %S/../kernels/flash_attention.py --kernel attn_fwd --signature 'fp32,*fp32:16,i32,i32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D FP8_OUTPUT=False -D STAGE=1 -D warp_specialize=False -D IS_HOPPER=True --target cuda:90 --emit ttgir | FileCheck %s --check-prefix=PAD
# PAD: "ttg.local_alloc"() {size = 55296 : i64}
# PAD: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 0 : i64, stage_bytes = 9216 : i64, stride0 = 72 : i64, stride1 = 1 : i64, vec = 8 : i64} : (i32, tensor<64x64x!tt.ptr<f16>, [[KL:#blocked[0-9]*]]>
# PAD: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 27648 : i64, stage_bytes = 9216 : i64, stride0 = 72 : i64, stride1 = 1 : i64, vec = 8 : i64}
# CHECK: "ttg.local_alloc"() {size = 49152 : i64}
# CHECK: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 0 : i64, stage_bytes = 8192 : i64, swizzle = array<i64: 128, 6, 128, 256, 512, 1024, 2048, 4096, 6, 2, 4, 8, 16, 32, 64, 3, 112>, vec = 8 : i64} : (i32, tensor<64x64x!tt.ptr<f16>, [[KL:#blocked[0-9]*]]>
# CHECK: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 24576 : i64, stage_bytes = 8192 : i64, swizzle = array<i64: 128, 6, 128, 256, 512, 1024, 2048, 4096, 6, 2, 4, 8, 16, 32, 64, 3, 112>, vec = 8 : i64}
# CHECK-NEXT: "ttg.async_commit_group"()
# CHECK: scf.for {{.*}} iter_args({{.*}}, [[RS:%arg[0-9]+]] = %c0_i32, [[WS:%arg[0-9]+]] = %c2_i32)
# CHECK-NEXT: "ttg.async_wait"() {num = 1 : i64}
# CHECK: "ttg.async_copy_global_to_local"([[WS]], {{.*}}) {offset = 0 : i64,
# CHECK: "ttg.async_copy_global_to_local"([[WS]], {{.*}}) {offset = 24576 : i64,
# CHECK-NEXT: "ttg.async_commit_group"()
# CHECK-NEXT: [[K:%[0-9]+]] = "ttg.local_load"([[RS]]) {offset = 0 : i64, stage_bytes = 8192 : i64} : (i32) -> tensor<64x64xf16, [[TL:#blocked[0-9]*]]>
# CHECK-NEXT: tt.dot {{%[0-9]+}}, [[K]], {{.*}} * tensor<64x64xf16, [[TL]]>
# CHECK: "ttg.local_load"([[RS]]) {offset = 24576 : i64, stage_bytes = 8192 : i64}
# CHECK-NOT: tt.trans
# CHECK: "ttg.async_wait"() {num = 0 : i64}
# CHECK-NEXT: "ttg.local_dealloc"()
# PTX: cp.async.wait_group 1;
# PTX-NEXT: bar.sync 0;
# PTX: cp.async.cg.shared.global [%r{{[0-9]+}}+{{[0-9]+}}], [%rd{{[0-9]+}}+{{[0-9]+}}], 16, %r{{[0-9]+}};
# PTX: cp.async.commit_group;
# PTX-NOT: bar.sync
# PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# PTX: cp.async.wait_group 0;
# REG: tt.load {{.*}} : tensor<64x64x!tt.ptr<f16>
# REG: tt.trans {{.*}} {order = array<i32: 1, 0>} : tensor<64x64xf16, {{#blocked[0-9]*}}> -> tensor<64x64xf16,
# REG-NOT: async
