# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# tl.cat exists only in the form that may reorder elements (as in Triton);
# inline PTX has no CPU meaning and is not spliced by the PTX backend.
# CHECK: {{.*}}cat_reorder.py:13:9: error: current implementation of `cat` always may reorder elements: pass can_reorder=True
# CHECK: {{.*}}cat_reorder.py:14:9: error: tl.inline_asm_elementwise is not supported by tritonc
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tl.cat(x, x)
    z = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(x_ptr + tl.arange(0, 2 * BLOCK), y)
