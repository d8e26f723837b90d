# RUN: not %tritonc compile %s --kernel k --signature '*fp32:16' --target cuda:90 --emit ttgir 2>&1 | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16' --emit c | FileCheck %s --check-prefix=CPU
# GPU layouts describe at most 4 dimensions. A tensor of rank 5 (the
# hypercube a bitonic network over 32 elements reshapes to) is reported
# where it is made, once; it used to crash the layout pass. The CPU backend
# takes any rank up to 8.
# CHECK: {{.*}}gpu_rank_limit.py:18:9: error: a tensor of rank 5: the GPU backend handles tensors of rank 4 at most
# CHECK-NOT: error
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
