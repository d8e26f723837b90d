# RUN: %tritonc compile %s --kernel k --signature '*fp32,*fp32' --emit ttir-raw | FileCheck %s
# tl.ravel(x) keeps x's row-major order: Triton 3's can_reorder=False. It
# was taken as free to reorder (Triton 2's view), and on the GPU a permuted
# tensor's elements were then stored out of order. can_reorder=True and
# tl.view still let the layout choose.
# CHECK-LABEL: tt.func public @k
# CHECK: tt.trans
# CHECK-NEXT: tt.reshape %{{[0-9]+}} : tensor<8x4x2xf32> -> tensor<64xf32>
# CHECK: tt.reshape %{{[0-9]+}} allow_reorder : tensor<2x4x8xf32> -> tensor<64xf32>
# CHECK: tt.reshape %{{[0-9]+}} allow_reorder : tensor<2x4x8xf32> -> tensor<64xf32>
# CHECK: tt.reshape %{{[0-9]+}} : tensor<2x4x8xf32> -> tensor<64xf32>
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr):
    i = tl.arange(0, 64)
    x = tl.reshape(tl.load(x_ptr + i), (2, 4, 8))
    tl.store(y_ptr + i, tl.ravel(tl.permute(x, (2, 1, 0))))
    tl.store(y_ptr + 64 + i, tl.ravel(x, can_reorder=True))
    tl.store(y_ptr + 128 + i, tl.view(x, (64,)))
    tl.store(y_ptr + 192 + i, x.ravel())
