# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}non_jit_call.py:13:9: error: calling a non-jit function 'helper' is not supported in a kernel
# CHECK: note: 'helper' is defined here
import triton
import triton.language as tl


def helper(x):
    return x + 1

@triton.jit
def k(x_ptr):
    v = helper(tl.load(x_ptr))
    tl.store(x_ptr, v)
