# KERNEL: bessel_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: FN="j0", BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bessel_kernel
# SIGNATURE: *fp64:16,*fp64:16,i32
# CONSTEXPR: FN="y1", BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bessel_kernel
# SIGNATURE: *fp64:16,*fp64:16,i32
# CONSTEXPR: FN="i1", BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# libdevice's Bessel functions of order 0 and 1 (j0, j1, y0, y1,
# cyl_bessel_i0, cyl_bessel_i1), one picked by a constexpr string; tritonc
# composes them from tl ops in fp64 (src/sema/bessel.c).

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def bessel_kernel(x_ptr, o_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if FN == "j0":
        y = libdevice.j0(x)
    elif FN == "j1":
        y = libdevice.j1(x)
    elif FN == "y0":
        y = libdevice.y0(x)
    elif FN == "y1":
        y = libdevice.y1(x)
    elif FN == "i0":
        y = libdevice.cyl_bessel_i0(x)
    else:
        tl.static_assert(FN == "i1", "FN is one of j0, j1, y0, y1, i0, i1")
        y = libdevice.cyl_bessel_i1(x)
    tl.store(o_ptr + offs, y, mask=m)
