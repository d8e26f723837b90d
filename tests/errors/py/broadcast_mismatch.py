# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}broadcast_mismatch.py:10:9: error: Cannot make_shape_compatible: incompatible dimensions at index 0: 128 and 64
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    a = tl.arange(0, 128)
    b = a + tl.arange(0, 64)
    tl.store(x_ptr + b, 1.0)
