# KERNEL: libdevice_int_kernel
# SIGNATURE: *i32:16,*i32:16,*u32:16,*u32:16,*i32:16,*u32:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: libdevice_float_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: libdevice_float_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: libdevice_bits_kernel
# SIGNATURE: *fp64:16,*i32:16,*i32:16,*fp64:16,*fp32:16,*u32:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# libdevice functions tritonc builds from tl operations: abs, hadd, rhadd,
# mulhi, mul24, sad (int32 and uint32), fma, fdim, nextafter (fp32 and
# fp64), and the bit views and exact conversions hiloint2double,
# double2loint, double2hiint, int2double_rn, uint2double_rn,
# uint_as_float, float_as_uint.

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def libdevice_int_kernel(a_ptr, b_ptr, ua_ptr, ub_ptr, out_ptr, uout_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    ua = tl.load(ua_ptr + offs)
    ub = tl.load(ub_ptr + offs)
    res = (libdevice.abs(a), libdevice.hadd(a, b), libdevice.rhadd(a, b), libdevice.mulhi(a, b),
           libdevice.mul24(a, b), libdevice.sad(a, b, ua))
    for i, r in enumerate(res):
        tl.store(out_ptr + i * BLOCK + offs, r)
    ures = (libdevice.hadd(ua, ub), libdevice.rhadd(ua, ub), libdevice.mulhi(ua, ub), libdevice.mul24(ua, ub),
            libdevice.sad(ua, ub, ub))
    for i, r in enumerate(ures):
        tl.store(uout_ptr + i * BLOCK + offs, r)


@triton.jit
def libdevice_float_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    res = (libdevice.abs(x), libdevice.fma(x, y, x), libdevice.fdim(x, y), libdevice.nextafter(x, y))
    for i, r in enumerate(res):
        tl.store(out_ptr + i * BLOCK + offs, r)


@triton.jit
def libdevice_bits_kernel(d_ptr, hi_ptr, lo_ptr, dout_ptr, f_ptr, u_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    d = tl.load(d_ptr + offs)
    hi = libdevice.double2hiint(d)
    lo = libdevice.double2loint(d)
    tl.store(hi_ptr + offs, hi)
    tl.store(lo_ptr + offs, lo)
    tl.store(dout_ptr + offs, libdevice.hiloint2double(hi, lo))
    tl.store(dout_ptr + BLOCK + offs, libdevice.int2double_rn(hi) + libdevice.uint2double_rn(lo.to(tl.uint32, bitcast=True)))
    u = libdevice.float_as_uint(tl.load(f_ptr + offs))
    tl.store(u_ptr + offs, u.to(tl.uint32, bitcast=True))
    tl.store(f_ptr + BLOCK + offs, libdevice.uint_as_float(u.to(tl.uint32, bitcast=True)))
