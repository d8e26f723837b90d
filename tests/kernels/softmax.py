# KERNEL: softmax_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32:16,i32:16,i32,i32
# CONSTEXPR: BLOCK_SIZE=1024, NUM_STAGES=2
# GRID: min(n_rows, 132)
#
# KERNEL: softmax_2d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_xn=1, stride_yn=1, BLOCK_M=16, BLOCK_N=256
# GRID: cdiv(M, BLOCK_M)
#
# Row-wise softmax. softmax_kernel is persistent: each program walks rows
# with a pipelined tl.range. softmax_2d_kernel handles a BLOCK_M x BLOCK_N tile
# with explicit 2-D strides; its column strides are specialised to 1 the way
# Triton's JIT specialises integer arguments equal to 1.

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, NUM_STAGES: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_SIZE)
    col_ok = cols < n_cols
    for r in tl.range(first_row, n_rows, row_step, num_stages=NUM_STAGES):
        src = in_ptr + r * in_row_stride + cols
        v = tl.load(src, mask=col_ok, other=-float("inf"))
        shifted = v - tl.max(v, axis=0)
        e = tl.exp(shifted)
        total = tl.sum(e, axis=0)
        tl.store(out_ptr + r * out_row_stride + cols, e / total, mask=col_ok)


@triton.jit
def softmax_2d_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_yn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    tile_ok = (rows[:, None] < M) & (cols[None, :] < N)
    x_ptrs = x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn
    x = tl.load(x_ptrs, mask=tile_ok, other=float("-inf")).to(tl.float32)
    row_max = tl.max(x, axis=1, keep_dims=True)
    e = tl.exp(x - row_max)
    denom = tl.sum(e, axis=1, keep_dims=True)
    y = e / denom
    y_ptrs = y_ptr + rows[:, None] * stride_ym + cols[None, :] * stride_yn
    tl.store(y_ptrs, y.to(tl.float16), mask=tile_ok)
