# RUN: %tritonc compile %s --kernel k --signature '*fp32:16' --target cuda:90 --emit ttgir | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16' --emit c | FileCheck %s --check-prefix=CPU
# A tensor of rank 5 (the hypercube a bitonic network over 32 elements
# reshapes to) gets a GPU layout, as it compiles for the CPU; GPU layouts describe up to
# 8 dimensions, the most the front end makes (it used to crash the layout
# pass past 4, then was an error). tests/ttg/rank_limit.ttir: past 8, from
# IR text, the error.
# CHECK: tt.reshape {{.*}} -> tensor<2x2x2x2x2xf32, #blocked
# CPU: tc_kernel_k
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 32)
    x = tl.load(x_ptr + offs)
    h = tl.reshape(x, (2, 2, 2, 2, 2))
    h = h + tl.sum(h, 0, keep_dims=True) + tl.zeros_like(h)
    tl.store(x_ptr + offs, tl.reshape(h, (32,)))
