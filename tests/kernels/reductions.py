# KERNEL: reduce_2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=32, BLOCK_N=64
# GRID: 1
#
# KERNEL: argmax_argmin_kernel
# SIGNATURE: *fp32:16,*i32:16,*i32:16,*fp32:16,*i32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=16, BLOCK_N=128
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: welford_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK_N=256
# GRID: M
#
# Reductions of ragged 2-D tiles: sums, maxima and minima along each axis
# (with and without keep_dims, and over the whole tile), argmax/argmin with
# both tie-breaking rules, max with return_indices, and a custom tl.reduce
# over a tuple (Welford's mean/variance merge).

import triton
import triton.language as tl


@triton.jit
def reduce_2d_kernel(x_ptr, row_sum_ptr, col_max_ptr, row_min_ptr, total_ptr, M, N, stride_m,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    ok = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :], mask=ok, other=0.0)
    row_sum = tl.sum(x, axis=1)
    tl.store(row_sum_ptr + rows, row_sum, mask=rows < M)
    col_max = tl.max(tl.where(ok, x, float("-inf")), axis=0, keep_dims=True)
    tl.store(col_max_ptr + cols[None, :], col_max, mask=cols[None, :] < N)
    row_min = tl.min(tl.where(ok, x, float("inf")), axis=1, keep_dims=True)
    tl.store(row_min_ptr + rows[:, None], row_min, mask=rows[:, None] < M)
    total = tl.sum(x)
    tl.store(total_ptr, total)


@triton.jit
def argmax_argmin_kernel(x_ptr, max_idx_ptr, min_idx_ptr, max_val_ptr, col_idx_ptr, M, N, stride_m,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    ok = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :], mask=ok, other=float("-inf"))
    row_ok = rows < M
    tl.store(max_idx_ptr + rows, tl.argmax(x, axis=1), mask=row_ok)
    x_for_min = tl.where(ok, x, float("inf"))
    tl.store(min_idx_ptr + rows, tl.argmin(x_for_min, axis=1, tie_break_left=False), mask=row_ok)
    best, where_best = tl.max(x, axis=1, return_indices=True)
    tl.store(max_val_ptr + rows, best + where_best.to(tl.float32) * 0.0, mask=row_ok)
    col_best = tl.argmax(x, axis=0, keep_dims=True)
    tl.store(col_idx_ptr + pid * BLOCK_N + cols[None, :], col_best)


@triton.jit
def welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    w_b = tl.where(n == 0, 0.0, n_b / n)
    mean = mean_a + delta * w_b
    m2 = m2_a + m2_b + delta * delta * n_a * w_b
    return mean, m2, n


@triton.jit
def welford_kernel(x_ptr, mean_ptr, var_ptr, N, stride_m, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    ok = cols < N
    x = tl.load(x_ptr + row * stride_m + cols, mask=ok, other=0.0)
    count = ok.to(tl.float32)
    m2 = tl.zeros_like(x)
    mean, m2_total, n = tl.reduce((x, m2, count), 0, welford_combine)
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, m2_total / n)
