# RUN: not %tritonc compile %s --kernel Foo --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# A --kernel that names no function is reported at the file (it was at the
# last module global read, `BLOCK = 16`, which has nothing to do with it).
# CHECK: {{.*}}kernel_name_global.py:1:1: error: no function named 'Foo' in {{.*}}kernel_name_global.py
# CHECK-NOT: error:
import triton
import triton.language as tl


class Foo:
    pass


@triton.jit
def k(x, B: tl.constexpr = BLOCK):
    tl.store(x + tl.arange(0, B), 1.0)


BLOCK = 16
