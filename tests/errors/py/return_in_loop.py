# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}return_in_loop.py:10:9: error: Cannot have `return` statements inside `while` or `for` statements in triton
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    for i in range(n):
        return
    tl.store(x_ptr, 1.0)
