# KERNEL: layer_norm_fwd_fused
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32
# CONSTEXPR: BLOCK_SIZE=1024
# GRID: M
#
# KERNEL: layer_norm_bwd_dx_fused
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*i32:16,i32,i32
# CONSTEXPR: GROUP_SIZE_M=64, BLOCK_SIZE_N=1024
# GRID: M
#
# KERNEL: layer_norm_bwd_dwdb
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: BLOCK_SIZE_M=32, BLOCK_SIZE_N=128
# GRID: cdiv(N, BLOCK_SIZE_N)
#
# KERNEL: rms_norm_fwd
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*bf16:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: BLOCK_SIZE=4096
# GRID: n_rows
#
# KERNEL: rms_norm_bwd
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: X_DTYPE=tl.float32, ROWS_PER_PROGRAM=8, BLOCK_SIZE=1024
# GRID: cdiv(n_rows, ROWS_PER_PROGRAM)
#
# KERNEL: cross_entropy_fwd_bwd
# SIGNATURE: *fp32:16,i32,*i64:16,*fp32:16,i32,i32,i32
# CONSTEXPR: LABEL_SMOOTHING=0.1, REDUCTION="mean", BLOCK_SIZE=2048
# GRID: n_rows
#
# KERNEL: cross_entropy_fwd_bwd
# SIGNATURE: *bf16:16,i32,*i64:16,*fp32:16,i32,i32,i32
# CONSTEXPR: LABEL_SMOOTHING=0.0, REDUCTION="sum", BLOCK_SIZE=4096
# GRID: n_rows
#
# KERNEL: swiglu_fwd
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: BLOCK_SIZE=2048
# GRID: n_rows
#
# KERNEL: swiglu_bwd
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: geglu_fwd
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32
# CONSTEXPR: APPROXIMATE="tanh", BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: geglu_fwd
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: APPROXIMATE="none", BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: rope_fwd
# SIGNATURE: *fp16:16,i32,*fp16:16,i32,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: N_QH=32, N_KH=8, HEAD_DIM=128, PAD_QH=32, PAD_KH=8, PAD_HD=128
# GRID: bsz * seq_len
#
# KERNEL: rope_fwd
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: N_QH=3, N_KH=1, HEAD_DIM=12, PAD_QH=4, PAD_KH=1, PAD_HD=16, BACKWARD=True
# GRID: bsz * seq_len
#
# KERNEL: quantize_int8_rowwise
# SIGNATURE: *fp16:16,*i8:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK=1024
# GRID: n_rows
#
# KERNEL: dequantize_int8_rowwise
# SIGNATURE: *i8:16,*fp32:16,*bf16:16,i32
# CONSTEXPR: BLOCK=1024
# GRID: n_rows
#
# Normalisation layers, losses and activations as training libraries write
# them (Triton's layer-norm tutorial; the Liger-Kernel / unsloth style of
# one program per row): layer norm backward with per-group partial sums
# behind an atomic_cas spin lock and a counter (atomic_xchg, tl.debug_barrier),
# RMSNorm forward/backward with several rows per program, `min()` on
# runtime bounds and a dtype passed as a constexpr, a fused cross entropy
# (online logsumexp, label smoothing, ignore_index early exit, gradient
# written in place, `.cast()`), SwiGLU and GeGLU (tanh and erf), rotary
# embeddings on q and k at once (2-D tiles, `tl.arange(0, N)[:, None]`
# padding masks), int8 row-wise quantisation (`libdevice.rint`, tl.clamp).
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.)
        acc += d * d
    var = tl.sum(acc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                            GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # dx for one row; the row's dw/db contributions are added to one of
    # GROUP_SIZE_M partial buffers, which a spin lock guards
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.)
    wdy = tl.where(mask, w * dy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N,
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0), mask=cols < N)


@triton.jit
def rms_norm_fwd(Y, y_row_stride, X, x_row_stride, W, RSTD, n_cols, eps, offset,
                 BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(X + row * x_row_stride + cols, mask=mask, other=0)
    x_dtype = x.dtype
    w = tl.load(W + cols, mask=mask, other=0)
    x = x.to(tl.float32)
    rstd = tl.math.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(RSTD + row, rstd)
    y = (x * rstd).to(x_dtype) * (offset + w)
    tl.store(Y + row * y_row_stride + cols, y, mask=mask)


@triton.jit
def rms_norm_bwd(DY, dy_row_stride, DX, dx_row_stride, X, x_row_stride, W, RSTD, DW, dw_row_stride,
                 n_rows, n_cols, offset, X_DTYPE: tl.constexpr, ROWS_PER_PROGRAM: tl.constexpr,
                 BLOCK_SIZE: tl.constexpr):
    # each program walks ROWS_PER_PROGRAM rows and writes one partial dW row
    pid = tl.program_id(0).to(tl.int64)
    row_start = pid * ROWS_PER_PROGRAM
    row_end = min((pid + 1) * ROWS_PER_PROGRAM, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dw_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0) + offset
    for row in range(row_start, row_end):
        dy = tl.load(DY + row * dy_row_stride + cols, mask=mask, other=0.0)
        x = tl.load(X + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD + row)
        m = (dy * w).to(tl.float32)
        dx = rstd * m - rstd * (rstd * rstd / n_cols) * tl.sum(m * x, axis=0) * x
        dw_acc += dy * (x * rstd).to(X_DTYPE)
        tl.store(DX + row * dx_row_stride + cols, dx.to(X_DTYPE), mask=mask)
    tl.store(DW + pid * dw_row_stride + cols, dw_acc, mask=mask)


@triton.jit
def cross_entropy_fwd_bwd(X, x_row_stride, Y, LOSS, n_cols, n_non_ignore, ignore_index,
                          LABEL_SMOOTHING: tl.constexpr, REDUCTION: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # loss of one row, and d loss / d logits written over the logits
    row = tl.program_id(0).to(tl.int64)
    X += row * x_row_stride
    y = tl.load(Y + row)
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            offs = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X + offs, 0.0, mask=offs < n_cols)
        tl.store(LOSS + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    x_y = tl.load(X + y).cast(tl.float32)
    smooth_sum = 0.0
    eps = LABEL_SMOOTHING / n_cols
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        xb = tl.load(X + offs, mask=offs < n_cols, other=float("-inf")).cast(tl.float32)
        if LABEL_SMOOTHING > 0:
            smooth_sum += tl.sum(tl.where(offs < n_cols, -eps * xb, 0.0))
        m_new = tl.maximum(m, tl.max(xb))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(xb - m_new))
        m = m_new
    lse = m + tl.log(d)
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        xb = tl.load(X + offs, mask=offs < n_cols, other=float("-inf")).cast(tl.float32)
        g = tl.exp(xb - m) / d - eps
        g = tl.where(offs != y, g, g - (1 - LABEL_SMOOTHING))
        if REDUCTION == "mean":
            g = g / n_non_ignore
        tl.store(X + offs, g, mask=offs < n_cols)
    tl.debug_barrier()
    loss = lse - x_y
    if LABEL_SMOOTHING > 0:
        loss = loss * (1 - LABEL_SMOOTHING) + smooth_sum + LABEL_SMOOTHING * lse
    if REDUCTION == "mean":
        loss = loss / n_non_ignore
    tl.store(LOSS + row, loss)


@triton.jit
def swiglu_fwd(A, B, C, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    A += row * row_stride
    B += row * row_stride
    C += row * row_stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(A + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0)
    c = (a * tl.sigmoid(a)).cast(b.dtype) * b
    tl.store(C + cols, c, mask=mask)


@triton.jit
def swiglu_bwd(DC, A, B, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    # dA and dB overwrite A and B
    row = tl.program_id(0).to(tl.int64)
    DC += row * row_stride
    A += row * row_stride
    B += row * row_stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dc = tl.load(DC + cols, mask=mask, other=0)
    a = tl.load(A + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0)
    sig = tl.sigmoid(a)
    silu = a * sig
    db = dc * silu
    da = dc * (silu * (1 - sig) + sig) * b
    tl.store(A + cols, da, mask=mask)
    tl.store(B + cols, db, mask=mask)


@triton.jit
def _gelu(a, APPROXIMATE: tl.constexpr):
    if APPROXIMATE == "tanh":
        k: tl.constexpr = 0.7978845608028654  # sqrt(2 / pi)
        t = libdevice.tanh(k * (a + 0.044715 * a * a * a))
        return 0.5 * a * (1 + t)
    else:
        return 0.5 * a * (1.0 + tl.math.erf(a * 0.7071067811865476))


@triton.jit
def geglu_fwd(A, B, C, stride, n_cols, APPROXIMATE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(A + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0)
    c = _gelu(a, APPROXIMATE).to(b.dtype) * b
    tl.store(C + row * stride + cols, c, mask=mask)


@triton.jit
def rope_fwd(Q, q_row_stride, K, k_row_stride, COS, SIN, seq_len, bsz,
             N_QH: tl.constexpr, N_KH: tl.constexpr, HEAD_DIM: tl.constexpr,
             PAD_QH: tl.constexpr, PAD_KH: tl.constexpr, PAD_HD: tl.constexpr,
             BACKWARD: tl.constexpr = False):
    # q: (bsz * seq_len, N_QH * HEAD_DIM) rows, rotated in place with the
    # "rotate half" convention; cos/sin: (seq_len, HEAD_DIM)
    pid = tl.program_id(0)
    Q = Q + pid * q_row_stride
    K = K + pid * k_row_stride
    pos = pid % seq_len
    half = tl.arange(0, PAD_HD // 2)
    hmask = half < HEAD_DIM // 2
    cos = tl.load(COS + pos * HEAD_DIM + half, mask=hmask, other=0)
    sin = tl.load(SIN + pos * HEAD_DIM + half, mask=hmask, other=0)
    if BACKWARD:
        sin = -sin
    q_off = tl.arange(0, PAD_QH)[:, None] * HEAD_DIM + half[None, :]
    q_mask = (tl.arange(0, PAD_QH)[:, None] < N_QH) & hmask[None, :]
    q1 = tl.load(Q + q_off, mask=q_mask, other=0).to(cos.dtype)
    q2 = tl.load(Q + q_off + HEAD_DIM // 2, mask=q_mask, other=0).to(cos.dtype)
    tl.store(Q + q_off, q1 * cos - q2 * sin, mask=q_mask)
    tl.store(Q + q_off + HEAD_DIM // 2, q2 * cos + q1 * sin, mask=q_mask)
    k_off = tl.arange(0, PAD_KH)[:, None] * HEAD_DIM + half[None, :]
    k_mask = (tl.arange(0, PAD_KH)[:, None] < N_KH) & hmask[None, :]
    k1 = tl.load(K + k_off, mask=k_mask, other=0).to(cos.dtype)
    k2 = tl.load(K + k_off + HEAD_DIM // 2, mask=k_mask, other=0).to(cos.dtype)
    tl.store(K + k_off, k1 * cos - k2 * sin, mask=k_mask)
    tl.store(K + k_off + HEAD_DIM // 2, k2 * cos + k1 * sin, mask=k_mask)


@triton.jit
def quantize_int8_rowwise(X, Q, SCALE, x_stride, q_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row.to(tl.int64) * x_stride + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.max(tl.abs(x), axis=0)
    scale = tl.where(absmax == 0, 1.0, absmax / 127.0)
    q = libdevice.rint(x / scale)
    q = tl.clamp(q, -127.0, 127.0).to(tl.int8)
    tl.store(Q + row * q_stride + cols, q, mask=mask)
    tl.store(SCALE + row, scale)


@triton.jit
def dequantize_int8_rowwise(Q, SCALE, Y, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    q = tl.load(Q + row * n_cols + cols, mask=mask, other=0)
    s = tl.load(SCALE + row)
    tl.store(Y + row * n_cols + cols, (q.to(tl.float32) * s).to(Y.dtype.element_ty), mask=mask)
