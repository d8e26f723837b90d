# KERNEL: rounded_arith_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: rounded_arith_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,*fp64:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: convert_kernel
# SIGNATURE: *i32:16,*u32:16,*i64:16,*u64:16,*fp64:16,*fp32:16,*fp64:16,*i64:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: saturate_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# libdevice's arithmetic in a stated rounding mode: add, sub, mul, div, rcp,
# sqrt and fma, each _rn (to nearest even), _rz (toward zero), _rd (down)
# and _ru (up), on fp32 and fp64; and saturatef. Conversions in a rounding
# mode: integers of every width to fp32 and fp64, fp64 to fp32, and fp64 to
# integers. The results of a tuple are stored by a loop over it.

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def rounded_arith_kernel(x_ptr, y_ptr, z_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.load(z_ptr + offs)
    s = tl.abs(x)
    res = (libdevice.add_rn(x, y), libdevice.add_rz(x, y), libdevice.add_rd(x, y), libdevice.add_ru(x, y),
           libdevice.sub_rn(x, z), libdevice.sub_rz(x, z), libdevice.sub_rd(x, z), libdevice.sub_ru(x, z),
           libdevice.mul_rn(x, y), libdevice.mul_rz(x, y), libdevice.mul_rd(x, y), libdevice.mul_ru(x, y),
           libdevice.div_rn(x, y), libdevice.div_rz(x, y), libdevice.div_rd(x, y), libdevice.div_ru(x, y),
           libdevice.rcp_rn(y), libdevice.rcp_rz(y), libdevice.rcp_rd(y), libdevice.rcp_ru(y),
           libdevice.sqrt_rn(s), libdevice.sqrt_rz(s), libdevice.sqrt_rd(s), libdevice.sqrt_ru(s),
           libdevice.fma_rn(x, y, z), libdevice.fma_rz(x, y, z), libdevice.fma_rd(x, y, z), libdevice.fma_ru(x, y, z))
    for i, r in enumerate(res):
        tl.store(out_ptr + i * BLOCK + offs, r)


@triton.jit
def convert_kernel(i_ptr, u_ptr, l_ptr, ul_ptr, d_ptr, f_out, d_out, i_out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    ll = tl.load(l_ptr + offs)
    ull = tl.load(ul_ptr + offs)
    d = tl.load(d_ptr + offs)
    fs = (libdevice.int2float_rn(i), libdevice.int2float_rz(i), libdevice.int2float_rd(i), libdevice.int2float_ru(i),
          libdevice.uint2float_rn(u), libdevice.uint2float_rz(u), libdevice.uint2float_rd(u), libdevice.uint2float_ru(u),
          libdevice.ll2float_rn(ll), libdevice.ll2float_rz(ll), libdevice.ll2float_rd(ll), libdevice.ll2float_ru(ll),
          libdevice.ull2float_rn(ull), libdevice.ull2float_rz(ull), libdevice.ull2float_rd(ull),
          libdevice.ull2float_ru(ull), libdevice.double2float_rn(d), libdevice.double2float_rz(d),
          libdevice.double2float_rd(d), libdevice.double2float_ru(d))
    for k, r in enumerate(fs):
        tl.store(f_out + k * BLOCK + offs, r)
    ds = (libdevice.ll2double_rn(ll), libdevice.ll2double_rz(ll), libdevice.ll2double_rd(ll), libdevice.ll2double_ru(ll),
          libdevice.ull2double_rn(ull), libdevice.ull2double_rz(ull), libdevice.ull2double_rd(ull),
          libdevice.ull2double_ru(ull))
    for k, r in enumerate(ds):
        tl.store(d_out + k * BLOCK + offs, r)
    e = d * 1e-4  # within int32
    ints = (libdevice.double2int_rz(e), libdevice.double2int_rd(e), libdevice.double2int_ru(e),
            libdevice.double2ll_rz(d), libdevice.double2ll_rd(d), libdevice.double2ll_ru(d))
    for k, r in enumerate(ints):
        tl.store(i_out + k * BLOCK + offs, r.to(tl.int64))


@triton.jit
def saturate_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, libdevice.saturatef(tl.load(x_ptr + offs)))
