# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}break_stmt.py:10:9: error: `break` statements are not supported in Triton kernels
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    for i in range(n):
        break
    tl.store(x_ptr, 1.0)
