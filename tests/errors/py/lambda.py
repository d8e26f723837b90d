# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}lambda.py:9:9: error: lambda expressions are not supported in Triton kernels
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    f = lambda v: v + 1
    tl.store(x_ptr, 1.0)
