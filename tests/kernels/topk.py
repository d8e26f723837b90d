# KERNEL: topk_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: ROWS=4, COLS=64, K=8
# GRID: 1
#
# KERNEL: topk_kernel
# SIGNATURE: *fp16:16,*fp16:16
# CONSTEXPR: ROWS=2, COLS=32, K=32
# GRID: 1
#
# tl.topk (Triton's standard.py): the K largest values of each row, largest
# first, and with descending=False the K smallest, smallest first; K may be
# the whole row.

import triton
import triton.language as tl


@triton.jit
def topk_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, ROWS)[:, None]
    x = tl.load(x_ptr + r * COLS + tl.arange(0, COLS)[None, :])
    o = out_ptr + r * K + tl.arange(0, K)[None, :]
    tl.store(o, tl.topk(x, K))
    tl.store(o + ROWS * K, x.topk(K, dim=1, descending=False))
