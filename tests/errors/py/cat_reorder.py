# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# tl.cat exists only in the form that may reorder elements (as in Triton).
# CHECK: {{.*}}cat_reorder.py:11:9: error: current implementation of `cat` always may reorder elements: pass can_reorder=True
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tl.cat(x, x)
    tl.store(x_ptr + tl.arange(0, 2 * BLOCK), y)
