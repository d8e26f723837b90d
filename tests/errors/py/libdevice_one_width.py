# libdevice functions that exist for one width only name that width alone
# (isfinited was said to expect fp32, the dtype it had just rejected).
# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp64' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}libdevice_one_width.py:16:9: error: input arg type does not match. Expect one of [('fp64',)], got ('fp32',)
# CHECK: {{.*}}libdevice_one_width.py:17:9: error: input arg type does not match. Expect one of [('fp32',)], got ('fp64',)
# CHECK-NOT: error:
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(x_ptr, d_ptr):
    x = tl.load(x_ptr)
    d = tl.load(d_ptr)
    a = libdevice.isfinited(x)
    b = libdevice.finitef(d)
    tl.store(x_ptr, (a + b).to(tl.float32))
