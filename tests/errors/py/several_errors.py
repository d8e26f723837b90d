# Several mistakes, several diagnostics in one run.
# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}several_errors.py:11:9: error: name 'y' is not defined
# CHECK: {{.*}}several_errors.py:12:9: error: dict displays are not supported in Triton kernels
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    a = y + 1
    b = {1: 2}
    tl.store(x_ptr, 1.0)
