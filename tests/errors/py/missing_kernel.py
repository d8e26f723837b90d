# RUN: not %tritonc compile %s --kernel add_kernal --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: error: no function named 'add_kernal' in {{.*}}missing_kernel.py; did you mean 'add_kernel'?
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr):
    tl.store(x_ptr, 1.0)
