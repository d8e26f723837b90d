# Chained dots (attention: P = softmax(Q K^T) in fp16, then P V) put every
# warp along m (Triton's warpsPerTileV2 for chained dots): both results get
# the m16n8 accumulator layout with warpsPerCTA [4, 1], so the row
# statistics m_i and l_i are slices of it and P, cast to fp16 in that same
# layout, is the second dot's A operand as it is (its registers already
# hold the mma.sync A fragments: see src/target/ptx/mma_plan.h). Q, loop
# invariant, is converted to that layout once, right after its load, so
# the loop takes its fragments from registers too (mma.sync: with wgmma
# Q goes to shared memory once instead, tests/ptx/wgmma.py).
# RUN: env TRITONC_WGMMA=0 %tritonc compile %S/../kernels/attention.py --kernel attn_fwd_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=128 -D BLOCK_N=64 -D CAUSAL=False --target cuda:90 --emit ttgir | FileCheck %s
# CHECK-DAG: [[MMA:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
# CHECK-DAG: [[LD:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8]
# CHECK: [[Q:%[0-9]+]] = tt.load {{.*}} : tensor<128x64x!tt.ptr<f16>, [[LD]]>
# CHECK-NEXT: [[QF:%[0-9]+]] = ttg.convert_layout [[Q]] : {{.*}} -> tensor<128x64xf16, [[MMA]]>
# CHECK: scf.for
# CHECK-NOT: ttg.convert_layout
# CHECK: tt.dot [[QF]], {{.*}} -> tensor<128x64xf32, [[MMA]]>
# CHECK: "tt.reduce"
# CHECK: -> tensor<128xf32, #ttg.slice<{dim = 1, parent = [[MMA]]}>>
# CHECK: arith.truncf {{.*}} : tensor<128x64xf32, [[MMA]]> to tensor<128x64xf16, [[MMA]]>
# CHECK-NOT: ttg.convert_layout
# CHECK: tt.dot {{.*}} : tensor<128x64xf16, [[MMA]]> * {{.*}} -> tensor<128x64xf32, [[MMA]]>
