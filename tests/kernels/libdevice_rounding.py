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
# KERNEL: saturate_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# libdevice's arithmetic in a stated rounding mode: add, sub, mul, div, rcp,
# sqrt and fma, each _rn (to nearest even), _rz (toward zero), _rd (down)
# and _ru (up), on fp32 and fp64; and saturatef. The results of a tuple
# are stored by a loop over it.

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
def saturate_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, libdevice.saturatef(tl.load(x_ptr + offs)))
