# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 -D BLOCK=32 --emit ttir 2>&1 | FileCheck %s
# A constexpr given twice is named with both values (the second was
# reported as "-D BLOCK: 'k' has no parameter of that name").
# CHECK: error: constexpr 'BLOCK' is given twice ('16' and '32')
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 1.0)
