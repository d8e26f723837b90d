# An fp16 tl.dot into fp32 (the corpus matmul, 128x128x64) gets the
# mma.sync m16n8 accumulator layout (sizePerThread [1, 2], threadsPerWarp
# [8, 4]) with warps split as Triton's warpsPerTileV2 splits them: 2x2 at 4
# warps, 2x4 at 8. The zero init, the loop-carried accumulator and the
# epilogue keep it; the fp16 result is converted once, to the store's
# coalesced layout. The loads in the loop keep their 16-byte vectors
# (sizePerThread [1, 8]): the loop-carried pointers' contiguity survives
# `ptrs += BLOCK_K * stride`, and nothing is converted inside the loop.
# (TRITONC_ASYNC_COPY=0: the register path; with cp.async, the default,
# the loads become copies into shared rings: tests/ttg/async_copy_matmul.sh.)
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=0 %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='"leaky_relu"' --target cuda:90 --emit ttgir | FileCheck %s
# RUN: env TRITONC_WGMMA=0 TRITONC_ASYNC_COPY=0 %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D ACTIVATION='"leaky_relu"' --target cuda:80 --num-warps 8 --emit ttgir | FileCheck %s --check-prefix=W8
# CHECK-DAG: [[MMA:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
# CHECK-DAG: [[LA:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8]
# CHECK-DAG: [[LB:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16]
# CHECK: arith.constant dense<0.000000e+00> : tensor<128x128xf32, [[MMA]]>
# CHECK: scf.for {{.*}} -> ({{.*}}, tensor<128x128xf32, [[MMA]]>)
# CHECK-NOT: ttg.convert_layout
# CHECK: tt.load {{.*}} : tensor<128x64x!tt.ptr<f16>, [[LA]]>
# CHECK-NOT: ttg.convert_layout
# CHECK: tt.load {{.*}} : tensor<64x128x!tt.ptr<f16>, [[LB]]>
# CHECK-NOT: ttg.convert_layout
# CHECK: tt.dot {{.*}} -> tensor<128x128xf32, [[MMA]]>
# CHECK-NOT: ttg.convert_layout
# CHECK: scf.yield {{.*}}, tensor<128x128xf32, [[MMA]]>
# CHECK: arith.truncf {{.*}} : tensor<128x128xf32, [[MMA]]> to tensor<128x128xf16, [[MMA]]>
# CHECK: ttg.convert_layout {{.*}} : tensor<128x128xf16, [[MMA]]> -> tensor<128x128xf16, [[LB]]>
# CHECK: tt.store {{.*}} : tensor<128x128x!tt.ptr<f16>, [[LB]]>
# W8-DAG: [[MMA:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]}>
# W8: tt.dot {{.*}} -> tensor<128x128xf32, [[MMA]]>
