# KERNEL: softmax_row_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32:16,i32:16,i32
# CONSTEXPR: BLOCK_SIZE=1024
# GRID: n_rows
#
# One row per program, the tutorial's shape (softmax.py's softmax_kernel is
# persistent: it loops over rows with a tl.num_programs step).
# bench/cpu/vs_interpreter.py times this one on both sides.

import triton
import triton.language as tl


@triton.jit
def softmax_row_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    ok = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=ok, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * out_row_stride + cols, e / tl.sum(e, axis=0), mask=ok)
