# A @jit helper with a tuple return becomes a private tt.func and a tt.call.
# RUN: %tritonc compile %S/../kernels/matmul.py --kernel matmul_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr' -D stride_ak=1 -D stride_bn=1 -D stride_cn=1 -D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D GROUP_M=8 -D 'ACTIVATION="leaky_relu"' --emit ttir-raw | FileCheck %s
# CHECK-LABEL: tt.func public @matmul_kernel
# CHECK: %{{.*}}:2 = tt.call @grouped_tile__i32_i32_i32__{{.*}} -> (i32, i32)
# CHECK: tt.dot {{.*}} : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
# CHECK: tt.call @leaky_relu__fp32S128_128S__
# CHECK: arith.truncf
# CHECK: tt.func private @grouped_tile__i32_i32_i32__
# CHECK-SAME: -> (i32, i32)
# CHECK: tt.return {{.*}} : i32, i32
