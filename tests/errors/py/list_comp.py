# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}list_comp.py:9:10: error: list comprehensions are only supported over tuples in Triton kernels, not over range()
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    xs = [tl.load(x_ptr + i) for i in range(4)]
    tl.store(x_ptr, xs[0])
