# KERNEL: group_norm_fwd
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: BLOCK=512
# GRID: N * G
#
# KERNEL: batch_norm_stats
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=64
# GRID: cdiv(N, BLOCK_N)
#
# KERNEL: online_softmax
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=256
# GRID: M
#
# KERNEL: log_softmax_bwd
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32
# CONSTEXPR: BLOCK=1024
# GRID: M
#
# KERNEL: kl_div_fwd
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: LOG_TARGET=False, REDUCTION="batchmean", BLOCK=512
# GRID: M
#
# KERNEL: kl_div_fwd
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: LOG_TARGET=True, REDUCTION="none", BLOCK=512
# GRID: M
#
# KERNEL: cross_entropy_zloss
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,*fp32:16,*fp32:16,i64,i32,i32,fp32
# CONSTEXPR: BLOCK=1024
# GRID: M
#
# KERNEL: argmax_rows
# SIGNATURE: *fp16:16,*i32:16,*i32:16,*i64:16,i32,i32,i32
# CONSTEXPR: BM=16, BN=64
# GRID: cdiv(M, BM)
#
# KERNEL: scan_ops
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,*i32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=16, BN=32
# GRID: 1
#
# Kernels written the way users write them (Liger-Kernel, FlagGems, the
# Triton tutorials) and not covered elsewhere in the corpus: group norm (a
# reduction over C/G channels times the spatial size, in chunks), batch-norm
# statistics (sums over axis 0 of 2-D tiles in a loop over rows), an online
# softmax (running max and sum in one pass over column blocks, then a second
# pass), log-softmax backward in bf16, KL divergence (log target or not,
# string reduction), cross entropy with a z-loss term and an i64 ignore
# index, argmax/argmin with tl.argmax/tl.argmin over both axes and
# keep_dims, scans along axis 0 (cumsum, cumprod on ints, a tuple scan with
# a custom combine).
import triton
import triton.language as tl


@triton.jit
def group_norm_fwd(X, Y, W, B, Mean, Rstd, C, HW, G, eps, BLOCK: tl.constexpr):
    # one program per (sample, group); the group is C // G channels of HW values
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    cpg = C // G
    group_size = cpg * HW
    base = n.to(tl.int64) * C * HW + g * group_size
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        x = tl.load(X + base + idx, mask=idx < group_size, other=0.0).to(tl.float32)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / group_size
    var = tl.sum(acc2, axis=0) / group_size - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(Mean + pid, mean)
    tl.store(Rstd + pid, rstd)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < group_size
        ch = g * cpg + idx // HW
        w = tl.load(W + ch, mask=m, other=1.0)
        b = tl.load(B + ch, mask=m, other=0.0)
        x = tl.load(X + base + idx, mask=m, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + base + idx, y.to(Y.dtype.element_ty), mask=m)


@triton.jit
def batch_norm_stats(X, Mean, Var, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # column statistics of an M x N matrix: a sum over axis 0 in a loop over row tiles
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    s2 = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & cmask[None, :]
        x = tl.load(X + rows[:, None] * stride_m + cols[None, :], mask=mask, other=0.0)
        s += tl.sum(x, axis=0)
        s2 += tl.sum(x * x, axis=0)
    mean = s / M
    var = s2 / M - mean * mean
    tl.store(Mean + cols, mean, mask=cmask)
    tl.store(Var + cols, tl.maximum(var, 0.0), mask=cmask)


@triton.jit
def online_softmax(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = X + row * stride
    y_row = Y + row * stride
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    d = tl.zeros([BLOCK], dtype=tl.float32)
    for off in tl.range(0, N, BLOCK, loop_unroll_factor=2):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf"), eviction_policy="evict_last")
        m_new = tl.maximum(m, x)
        # lanes still at -inf keep a zero sum (exp(-inf - -inf) would be nan)
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        d = d * alpha + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    m_row = tl.max(m, axis=0)
    d_row = tl.sum(d * tl.exp(m - m_row), axis=0)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf"), eviction_policy="evict_first")
        tl.store(y_row + cols, tl.exp(x - m_row) / d_row, mask=cols < N)


@triton.jit
def log_softmax_bwd(DY, Y, DX, N, stride, BLOCK: tl.constexpr):
    # y = log_softmax(x); dx = dy - exp(y) * sum(dy)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(Y + row * stride + cols, mask=mask, other=float("-inf")).to(tl.float32)
    dx = dy - tl.exp(y) * tl.sum(dy, axis=0)
    tl.store(DX + row * stride + cols, dx.to(tl.bfloat16), mask=mask)


@triton.jit
def kl_div_fwd(Y_pred, Y_true, Loss, N, stride, LOG_TARGET: tl.constexpr = False,
               REDUCTION: tl.constexpr = "batchmean", BLOCK: tl.constexpr = 1024):
    # Liger's kl_div: y_pred holds log-probabilities, y_true probabilities (or their logs)
    row = tl.program_id(0).to(tl.int64)
    Y_pred += row * stride
    Y_true += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        yp = tl.load(Y_pred + cols, mask=mask, other=0.0)
        yt = tl.load(Y_true + cols, mask=mask, other=0.0)
        if not LOG_TARGET:
            loss = yt * (tl.log(tl.maximum(yt, 1e-10)) - yp)
        else:
            loss = tl.exp(yt) * (yt - yp)
        if REDUCTION == "none":
            tl.store(Loss + row * stride + cols, loss, mask=mask)
        else:
            acc += tl.where(mask, loss, 0.0)
    if REDUCTION != "none":
        tl.store(Loss + row, tl.sum(acc, axis=0))


@triton.jit
def cross_entropy_zloss(X, Y, Loss, ZLoss, Lse, ignore_index, N, stride, lse_square_scale, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y = tl.load(Y + row)
    if y == ignore_index:
        tl.store(Loss + row, 0.0)
        tl.store(ZLoss + row, 0.0)
        tl.store(Lse + row, 0.0)
        return
    X += row * stride
    m = float("-inf")
    d = 0.0
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=float("-inf"))
        blk_max = tl.max(x, axis=0)
        m_new = tl.maximum(m, blk_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    x_y = tl.load(X + y)
    z = lse_square_scale * lse * lse
    tl.store(Loss + row, lse - x_y + z)
    tl.store(ZLoss + row, z)
    tl.store(Lse + row, lse)


@triton.jit
def argmax_rows(X, Amax, Amin, Acol, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=float("-inf"))
    imax = tl.argmax(x, axis=1)
    xm = tl.where(mask, x, float("inf"))
    imin = tl.argmin(xm, axis=1, keep_dims=True)
    tl.store(Amax + rows, imax, mask=rows < M)
    tl.store(Amin + rows[:, None], imin, mask=rows[:, None] < M)
    if pid == 0:
        # the row of each column's maximum, among the first BM rows
        icol = tl.argmax(x, 0, tie_break_left=False)
        tl.store(Acol + cols, icol.to(tl.int64), mask=cols < N)


@triton.jit
def _pair_max(v1, i1, v2, i2):
    # keeps the later index on ties: a running "last max" scan
    take2 = v2 >= v1
    return tl.where(take2, v2, v1), tl.where(take2, i2, i1)


@triton.jit
def scan_ops(X, I, CS, CP, RUNMAX, RUNIDX, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    offs = rows[:, None] * N + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + offs, mask=mask, other=0.0)
    i = tl.load(I + offs, mask=mask, other=1)
    tl.store(CS + offs, tl.cumsum(x, axis=0, reverse=True), mask=mask)
    tl.store(CP + offs, tl.cumprod(i, 0), mask=mask)
    idx = tl.broadcast_to(rows[:, None], (BM, BN))
    vmax, imax = tl.associative_scan((x, idx), 0, _pair_max)
    tl.store(RUNMAX + offs, vmax, mask=mask)
    tl.store(RUNIDX + offs, imax.to(tl.float32), mask=mask)
