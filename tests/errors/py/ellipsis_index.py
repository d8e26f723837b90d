# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}ellipsis_index.py:11:27: error: '...' (Ellipsis) is not supported in Triton kernels; a tensor index takes only None and ':', one per dimension
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr):
    o = tl.arange(0, 16)
    v = tl.load(x_ptr + o)
    tl.store(y_ptr + o, v[..., None].reshape(16))
