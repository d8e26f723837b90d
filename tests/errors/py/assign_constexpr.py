# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}assign_constexpr.py:9:5: error: cannot assign to 'BLOCK': it is a tl.constexpr parameter
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    BLOCK = 32
    tl.store(x_ptr, 1.0)
