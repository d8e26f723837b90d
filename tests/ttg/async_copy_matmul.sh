# pipeline-async-copy (TRITONC_ASYNC_COPY=1) on the corpus matmul,
# 128x128x64 fp16, num_stages 3: both operands get a ring of 3 stages in
# mma.sync's swizzled rows (A: 128 rows of 64 elements = 16384 bytes a
# stage, 16-byte chunks XORed with the rows' bits 0..2, `swizzle` [128, m's
# bits' strides, k's, then the term (x >> 3) & 112]; B: 64 rows of 128 =
# 16384, 256-byte rows, the term (x >> 4) & 112; TRITONC_MMA_SWIZZLE=0:
# padded rows, A 128 rows of 72 elements = 18432 bytes, B 64 rows of 136 =
# 17408), the prologue copies iterations 0 and 1 (one group each), each iteration
# waits for its stage (one group may stay in flight), copies iteration
# i + 2 into stage %ws and reads stage %rs; after the loop everything is
# waited for before the rings are released. In the PTX, 16-byte cp.async.cg
# with a src-size (the k mask), wait_group 1 and one bar.sync at the top of
# the loop, none before the ldmatrix.
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=1 %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='"leaky_relu"' --target cuda:90 --emit ttgir | FileCheck %s
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=1 %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='"leaky_relu"' --target cuda:90 --emit ptx | FileCheck %s --check-prefix=PTX
# RUN: env TRITONC_MMA_SWIZZLE=0 TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=1 %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='"leaky_relu"' --target cuda:90 --emit ttgir | FileCheck %s --check-prefix=PAD
# PAD: "ttg.local_alloc"() {size = 107520 : i64}
# PAD: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 0 : i64, stage_bytes = 18432 : i64, stride0 = 72 : i64, stride1 = 1 : i64, vec = 8 : i64}
# PAD: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 55296 : i64, stage_bytes = 17408 : i64, stride0 = 136 : i64, stride1 = 1 : i64, vec = 8 : i64}
# CHECK: "ttg.local_alloc"() {size = 98304 : i64}
# CHECK: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 0 : i64, stage_bytes = 16384 : i64, swizzle = array<i64: 128, 7, 128, 256, 512, 1024, 2048, 4096, 8192, 6, 2, 4, 8, 16, 32, 64, 3, 112>, vec = 8 : i64}
# CHECK: "ttg.async_copy_global_to_local"(%c0_i32, {{.*}}) {offset = 49152 : i64, stage_bytes = 16384 : i64, swizzle = array<i64: 128, 6, 256, 512, 1024, 2048, 4096, 8192, 7, 2, 4, 8, 16, 32, 64, 128, 4, 112>, vec = 8 : i64}
# CHECK-NEXT: "ttg.async_commit_group"()
# CHECK: "ttg.async_copy_global_to_local"(%c1_i32,
# CHECK: "ttg.async_commit_group"()
# CHECK: scf.for {{.*}} iter_args({{.*}}, [[RS:%arg[0-9]+]] = %c0_i32, [[WS:%arg[0-9]+]] = %c2_i32)
# CHECK-NEXT: "ttg.async_wait"() {num = 1 : i64}
# CHECK: "ttg.async_copy_global_to_local"([[WS]],
# CHECK: "ttg.async_copy_global_to_local"([[WS]],
# CHECK-NEXT: "ttg.async_commit_group"()
# CHECK-NEXT: [[A:%[0-9]+]] = "ttg.local_load"([[RS]]) {offset = 0 : i64, stage_bytes = 16384 : i64}
# CHECK-NEXT: [[B:%[0-9]+]] = "ttg.local_load"([[RS]]) {offset = 49152 : i64, stage_bytes = 16384 : i64}
# CHECK-NEXT: tt.dot [[A]], [[B]]
# CHECK: scf.yield {{.*}}, i32, i32{{$}}
# CHECK-NEXT: }
# CHECK-NEXT: "ttg.async_wait"() {num = 0 : i64}
# CHECK-NEXT: "ttg.local_dealloc"()
# PTX-COUNT-16: cp.async.cg.shared.global [%r{{[0-9]+}}+{{[0-9]+}}], [%rd{{[0-9]+}}+{{[0-9]+}}], 16, %r{{[0-9]+}};
# PTX: cp.async.commit_group;
# PTX: cp.async.commit_group;
# PTX: cp.async.wait_group 1;
# PTX-NEXT: bar.sync 0;
# PTX-NOT: bar.sync
# PTX: cp.async.commit_group;
# PTX-NOT: bar.sync
# PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# PTX-NOT: bar.sync
# PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# PTX-NOT: bar.sync
# PTX: cp.async.wait_group 0;
# PTX-NEXT: bar.sync 0;
