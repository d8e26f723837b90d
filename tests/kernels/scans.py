# KERNEL: scan_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=8, BLOCK_N=64
# GRID: 1
#
# KERNEL: linear_recurrence_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK_T=512
# GRID: ROWS
#
# Prefix scans: inclusive cumsum along rows, reversed cumsum down columns,
# cumprod, an integer running count of valid lanes, and a user-defined
# tl.associative_scan over a pair (a, b) that evaluates the recurrence
# h[t] = a[t] * h[t-1] + b[t] in parallel.

import triton
import triton.language as tl


@triton.jit
def scan_kernel(x_ptr, csum_ptr, rev_ptr, cprod_ptr, count_ptr, M, N, stride_m,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    ok = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * stride_m + cols[None, :]
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    tl.store(csum_ptr + offs, tl.cumsum(x, axis=1), mask=ok)
    tl.store(rev_ptr + offs, tl.cumsum(x, axis=0, reverse=True), mask=ok)
    ones_outside = tl.where(ok, x, 1.0)
    tl.store(cprod_ptr + offs, tl.cumprod(ones_outside, axis=1), mask=ok)
    tl.store(count_ptr + offs, tl.cumsum(ok.to(tl.int32), axis=1), mask=ok)


@triton.jit
def affine_compose(a_left, b_left, a_right, b_right):
    # (h -> a_l h + b_l) followed by (h -> a_r h + b_r)
    return a_left * a_right, b_left * a_right + b_right


@triton.jit
def linear_recurrence_kernel(a_ptr, b_ptr, h_ptr, T, stride_row, BLOCK_T: tl.constexpr):
    row = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    ok = t < T
    a = tl.load(a_ptr + row * stride_row + t, mask=ok, other=1.0)
    b = tl.load(b_ptr + row * stride_row + t, mask=ok, other=0.0)
    _, h = tl.associative_scan((a, b), axis=0, combine_fn=affine_compose)
    tl.store(h_ptr + row * stride_row + t, h, mask=ok)
