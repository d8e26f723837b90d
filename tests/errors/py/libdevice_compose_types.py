# RUN: not %tritonc compile %s --kernel k --signature '*i32,*fp32' --emit ttir 2>&1 | FileCheck %s
# The libdevice functions tritonc composes check their operand dtypes at the call.
# CHECK: {{.*}}libdevice_compose_types.py:15:9: error: erfinv() takes fp32 or fp64, got ('int32')
# CHECK: {{.*}}libdevice_compose_types.py:16:9: error: byte_perm() takes three int32 or three uint32, got ('fp32', 'fp32', 'fp32')
# CHECK: {{.*}}libdevice_compose_types.py:17:9: error: remainder() takes two fp32 or two fp64, got ('fp32', 'int32')
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(i_ptr, f_ptr):
    i = tl.load(i_ptr)
    f = tl.load(f_ptr)
    a = libdevice.erfinv(i)
    b = libdevice.byte_perm(f, f, f)
    c = libdevice.remainder(f, i)
    tl.store(f_ptr, a + b + c)
