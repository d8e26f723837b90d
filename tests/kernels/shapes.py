# KERNEL: shape_ops_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: BLOCK_M=16, BLOCK_N=32
# GRID: 1
#
# Tile shape manipulation on one BLOCK_M x BLOCK_N tile: transpose,
# ravel/reshape, join of two tiles into a trailing axis of 2, permute of a
# 3-D tile, split back into two tiles, expand_dims and broadcast_to, and
# indexing with None to add axes.

import triton
import triton.language as tl


@triton.jit
def shape_ops_kernel(x_ptr, t_ptr, r_ptr, j_ptr, s_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rm[:, None] * BLOCK_N + rn[None, :])
    xt = tl.trans(x)
    tl.store(t_ptr + rn[:, None] * BLOCK_M + rm[None, :], xt)
    flat = tl.ravel(x)
    r = tl.reshape(flat, (BLOCK_N, BLOCK_M))
    tl.store(r_ptr + rn[:, None] * BLOCK_M + rm[None, :], r)
    pair = tl.join(x, x * 2.0)
    planes = tl.permute(pair, (2, 0, 1))
    ri = tl.arange(0, 2)
    j_offs = ri[:, None, None] * (BLOCK_M * BLOCK_N) + rm[None, :, None] * BLOCK_N + rn[None, None, :]
    tl.store(j_ptr + j_offs, planes)
    first, second = tl.split(pair)
    row_sum = tl.expand_dims(tl.sum(first, axis=1), 1)
    spread = tl.broadcast_to(row_sum, (BLOCK_M, BLOCK_N))
    tl.store(s_ptr + rm[:, None] * BLOCK_N + rn[None, :], first + second - spread)
