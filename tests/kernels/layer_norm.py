# KERNEL: layer_norm_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32,fp32
# CONSTEXPR: BLOCK_N=1024
# GRID: M
#
# KERNEL: layer_norm_bwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32
# CONSTEXPR: BLOCK_N=1024
# GRID: M
#
# Layer normalisation over the last axis of an M x N fp16 matrix, statistics
# in fp32. The forward pass loops over the columns in BLOCK_N chunks (three
# passes: mean, variance, normalise) and saves mean and 1/std per row. The
# backward pass handles rows of at most BLOCK_N columns; it writes dx and
# accumulates the weight and bias gradients lock-free with fp32 atomic adds.

import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd_kernel(X, Y, W, B, Mean, Rstd, row_stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_row = X + row * row_stride
    y_row = Y + row * row_stride
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x
    mean = tl.sum(acc, axis=0) / N
    sq = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        centred = tl.where(cols < N, x - mean, 0.0)
        sq += centred * centred
    var = tl.sum(sq, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        ok = cols < N
        w = tl.load(W + cols, mask=ok).to(tl.float32)
        b = tl.load(B + cols, mask=ok).to(tl.float32)
        x = tl.load(x_row + cols, mask=ok, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + cols, y.to(tl.float16), mask=ok)


@triton.jit
def layer_norm_bwd_kernel(DX, DY, X, W, Mean, Rstd, DW, DB, row_stride, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    ok = cols < N
    x = tl.load(X + row * row_stride + cols, mask=ok, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * row_stride + cols, mask=ok, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=ok, other=0.0).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(ok, (x - mean) * rstd, 0.0)
    wdy = w * dy
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + row * row_stride + cols, dx.to(tl.float16), mask=ok)
    tl.atomic_add(DW + cols, dy * xhat, mask=ok)
    tl.atomic_add(DB + cols, dy, mask=ok)
