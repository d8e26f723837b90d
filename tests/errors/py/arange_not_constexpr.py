# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}arange_not_constexpr.py:9:12: error: arange's arguments must be of type tl.constexpr
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    offs = tl.arange(0, n)
    tl.store(x_ptr + offs, 1.0)
