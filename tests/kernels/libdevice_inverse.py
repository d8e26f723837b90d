# KERNEL: libdevice_inverse_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16
# CONSTEXPR: BLOCK=128
# GRID: 1
#
# KERNEL: libdevice_inverse_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,*i32:16
# CONSTEXPR: BLOCK=128
# GRID: 1
#
# libdevice's inverse error functions (erfinv, erfcinv, normcdfinv), the
# scaled complementary error function erfcx, logb, ilogb and the IEEE
# remainder and byte_perm, which tritonc composes from tl operations (fp32 and fp64);
# tests/python/test_libdevice_inverse.py checks their values.

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def libdevice_inverse_kernel(x_ptr, y_ptr, out_ptr, iout_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o)
    y = tl.load(y_ptr + o)
    p = x * 0.25 + 0.5
    r = libdevice.erfinv(x * 0.5) + libdevice.erfcinv(p) + libdevice.normcdfinv(p)
    r += libdevice.erfcx(x) + libdevice.logb(x) + libdevice.remainder(x, y)
    tl.store(out_ptr + o, r)
    tl.store(iout_ptr + o, libdevice.ilogb(x) + libdevice.byte_perm(o, o * 3, o + 0x3210))
