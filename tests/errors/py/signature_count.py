# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}signature_count.py:8:5: error: the signature has 3 entries but 'k' has 2 parameters that are not tl.constexpr
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    tl.store(x_ptr, 1.0)
