# RUN: not %tritonc compile %s --kernel k --signature '*fp16' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}libdevice_dtype.py:12:9: error: input arg type does not match. Expect one of [('fp32',), ('fp64',)], got ('fp16',)
# CHECK-NEXT: {{ *}}12 |     y = libdevice.tanh(x)
# CHECK-NEXT: {{ *}}|         ^
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr)
    y = libdevice.tanh(x)
    tl.store(x_ptr, y)
