# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}builtin_arg_count.py:10:9: error: tl.load() takes from 1 to 8 positional arguments but 9 were given
# CHECK: {{.*}}builtin_arg_count.py:11:26: error: tl.store() got an unexpected keyword argument 'maks'
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    v = tl.load(x_ptr, None, None, (), "", "", "", False, 1)
    tl.store(x_ptr, 1.0, maks=None)
