# KERNEL: repeat_interleave_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_N=64, BLOCK_O=32, BLOCK_D=16
# GRID: cdiv(total, BLOCK_O)
#
# KERNEL: masked_fill_kernel
# SIGNATURE: *fp16:16,*i1:16,*fp16:16,fp32,i32,i32,i32,i32
# CONSTEXPR: BLOCK_T=64
# GRID: B * H, cdiv(T, BLOCK_T)
#
# KERNEL: pad1d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: MODE="reflect", BLOCK=64
# GRID: R, cdiv(W_out, BLOCK)
#
# KERNEL: pad1d_kernel
# SIGNATURE: *bf16:16,*bf16:16,i32,i32,i32
# CONSTEXPR: MODE="circular", BLOCK=32
# GRID: R, cdiv(W_out, BLOCK)
#
# KERNEL: lerp_clamp_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: isclose_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i1:16,fp32,fp32,i32
# CONSTEXPR: EQUAL_NAN=True, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: isclose_kernel
# SIGNATURE: *fp16:16,*fp16:16,*i1:16,fp32,fp32,i32
# CONSTEXPR: EQUAL_NAN=False, BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_to_num_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_to_num_kernel
# SIGNATURE: *bf16:16,*bf16:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_to_num_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: py_div_mod_float_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: addr_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,fp32,fp32,i32,i32,i32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: embedding_bag_kernel
# SIGNATURE: *fp32:16,*i64:16,*i64:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: MODE="sum", HAS_WEIGHTS=True, BLOCK_D=32
# GRID: n_bags, cdiv(D, BLOCK_D)
#
# KERNEL: embedding_bag_kernel
# SIGNATURE: *fp32:16,*i32:16,*i32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: MODE="max", HAS_WEIGHTS=False, BLOCK_D=16
# GRID: n_bags, cdiv(D, BLOCK_D)
#
# KERNEL: embedding_bag_kernel
# SIGNATURE: *fp16:16,*i64:16,*i64:16,*fp32:16,*fp16:16,i32,i32
# CONSTEXPR: MODE="mean", HAS_WEIGHTS=False, BLOCK_D=64
# GRID: n_bags, cdiv(D, BLOCK_D)
#
# KERNEL: diagonal_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32
# CONSTEXPR: BLOCK=32
# GRID: B, cdiv(L, BLOCK)
#
# KERNEL: var_dim0_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_R=32, BLOCK_C=32
# GRID: cdiv(C, BLOCK_C)
#
# KERNEL: var_dim0_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_R=8, BLOCK_C=64
# GRID: cdiv(C, BLOCK_C)
#
# A fourth probe (tests/python/test_probe25_kernels.py runs every kernel on
# the CPU against torch): FlagGems-style ATen operators (repeat_interleave by a
# broadcast compare against a cumsum, masked_fill through a broadcast bool
# mask, reflect/replicate/circular padding, lerp with torch's two-sided
# formula beside a clamp by tensor bounds, isclose with equal_nan, nan_to_num
# with dtype-dependent limits, Python-sign float floor-div and remainder,
# addr, embedding_bag in sum/mean/max modes with offsets and empty bags,
# diagonal with an offset, variance over dim 0 with a correction); ...
import triton
import triton.language as tl


@triton.jit
def repeat_interleave_kernel(x_ptr, rep_ptr, out_ptr, N, D, total,
                             BLOCK_N: tl.constexpr, BLOCK_O: tl.constexpr, BLOCK_D: tl.constexpr):
    # torch.repeat_interleave(x, repeats, dim=0): an output row's source is
    # the number of inclusive cumsums at or below its index
    pid = tl.program_id(0)
    n = tl.arange(0, BLOCK_N)
    rep = tl.load(rep_ptr + n, mask=n < N, other=0)
    cum = tl.cumsum(rep, axis=0)
    o = pid * BLOCK_O + tl.arange(0, BLOCK_O)
    src = tl.sum((cum[None, :] <= o[:, None]).to(tl.int32), axis=1)
    d = tl.arange(0, BLOCK_D)
    for d0 in range(0, D, BLOCK_D):
        dd = d0 + d
        m = (o < total)[:, None] & (dd < D)[None, :]
        v = tl.load(x_ptr + src[:, None].to(tl.int64) * D + dd[None, :], mask=m)
        tl.store(out_ptr + o[:, None].to(tl.int64) * D + dd[None, :], v, mask=m)


@triton.jit
def masked_fill_kernel(x_ptr, mask_ptr, out_ptr, value, H, T, stride_mb, stride_mh,
                       BLOCK_T: tl.constexpr):
    # x.masked_fill(mask, value) with mask [B, 1 or H, T] broadcast by strides
    row = tl.program_id(0)
    b = row // H
    h = row % H
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    tm = t < T
    x = tl.load(x_ptr + row * T + t, mask=tm)
    mk = tl.load(mask_ptr + b * stride_mb + h * stride_mh + t, mask=tm, other=False)
    tl.store(out_ptr + row * T + t, tl.where(mk, value, x), mask=tm)


@triton.jit
def pad1d_kernel(x_ptr, out_ptr, W, pad_l, W_out, MODE: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = j < W_out
    i = j - pad_l
    if MODE == "reflect":
        i = tl.abs(i)
        i = tl.where(i >= W, 2 * (W - 1) - i, i)
    elif MODE == "replicate":
        i = tl.minimum(tl.maximum(i, 0), W - 1)
    else:
        tl.static_assert(MODE == "circular", "unknown padding mode")
        i = (i % W + W) % W
    v = tl.load(x_ptr + row * W + i, mask=m)
    tl.store(out_ptr + row * W_out + j, v, mask=m)


@triton.jit
def lerp_clamp_kernel(a_ptr, b_ptr, w_ptr, lo_ptr, hi_ptr, out_ptr, M, N,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # out = clamp(lerp(a, b, w), lo[None, :], hi[:, None]): torch's lerp
    # keeps the end point exact with its two-sided formula
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (rm < M)[:, None] & (rn < N)[None, :]
    offs = rm[:, None] * N + rn[None, :]
    a = tl.load(a_ptr + offs, mask=m)
    b = tl.load(b_ptr + offs, mask=m)
    w = tl.load(w_ptr + offs, mask=m)
    diff = b - a
    r = tl.where(tl.abs(w) < 0.5, a + w * diff, b - diff * (1 - w))
    lo = tl.load(lo_ptr + rn, mask=rn < N)
    hi = tl.load(hi_ptr + rm, mask=rm < M)
    r = tl.minimum(tl.maximum(r, lo[None, :], propagate_nan=tl.PropagateNan.ALL), hi[:, None],
                   propagate_nan=tl.PropagateNan.ALL)
    tl.store(out_ptr + offs, r, mask=m)


@triton.jit
def isclose_kernel(a_ptr, b_ptr, out_ptr, rtol, atol, n, EQUAL_NAN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=m).to(tl.float32)
    close = a == b
    if EQUAL_NAN:
        close = close | ((a != a) & (b != b))
    err = tl.abs(a - b)
    finite = err < float("inf")
    close = close | (finite & (err <= atol + tl.abs(rtol * b)))
    tl.store(out_ptr + offs, close, mask=m)


@triton.jit
def nan_to_num_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # torch.nan_to_num's defaults: NaN -> 0, +-inf -> the dtype's finite extremes
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if x.dtype == tl.float16:
        big: tl.constexpr = 65504.0
    elif x.dtype == tl.bfloat16:
        big: tl.constexpr = 3.3895313892515355e38
    else:
        tl.static_assert(x.dtype == tl.float32)
        big: tl.constexpr = 3.4028234663852886e38
    y = tl.where(x != x, 0.0, x)
    y = tl.where(y == float("inf"), big, y)
    y = tl.where(y == float("-inf"), -big, y)
    tl.store(out_ptr + offs, y.to(x.dtype), mask=m)


@triton.jit
def py_div_mod_float_kernel(a_ptr, b_ptr, q_ptr, r_ptr, f_ptr, n, BLOCK: tl.constexpr):
    # torch.floor_divide / torch.remainder (Python signs) and torch.fmod (C's,
    # which Triton's float `%` is)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=1.0)
    b = tl.load(b_ptr + offs, mask=m, other=1.0)
    f = a % b
    fix = (f != 0) & ((f < 0) != (b < 0))
    r = tl.where(fix, f + b, f)
    div = (a - f) / b
    div = tl.where(fix, div - 1, div)
    fl = tl.floor(div)
    fl = tl.where(div - fl > 0.5, fl + 1, fl)
    q = tl.where(div != 0, fl, tl.where(a / b < 0, -0.0, 0.0))
    q = tl.where(b == 0, a / b, q)
    tl.store(q_ptr + offs, q, mask=m)
    tl.store(r_ptr + offs, r, mask=m)
    tl.store(f_ptr + offs, f, mask=m)


@triton.jit
def addr_kernel(inp_ptr, u_ptr, v_ptr, out_ptr, beta, alpha, M, N, stride_inp,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # torch.addr(inp, u, v, beta=, alpha=) with inp broadcast from [1, N]
    # when stride_inp == 0
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mm = rm < M
    mn = rn < N
    u = tl.load(u_ptr + rm, mask=mm, other=0.0)
    v = tl.load(v_ptr + rn, mask=mn, other=0.0)
    m2 = mm[:, None] & mn[None, :]
    c = tl.load(inp_ptr + rm[:, None] * stride_inp + rn[None, :], mask=m2, other=0.0)
    outer = u[:, None] * v[None, :]
    if beta == 0.0:
        r = alpha * outer
    else:
        r = beta * c + alpha * outer
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], r, mask=m2)


@triton.jit
def embedding_bag_kernel(w_ptr, idx_ptr, off_ptr, psw_ptr, out_ptr, D, n_idx,
                         MODE: tl.constexpr, HAS_WEIGHTS: tl.constexpr, BLOCK_D: tl.constexpr):
    # torch.nn.functional.embedding_bag(idx, w, offsets, mode=MODE,
    # per_sample_weights=...): the last bag runs to n_idx; an empty bag is 0
    bag = tl.program_id(0)
    nb = tl.num_programs(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    start = tl.load(off_ptr + bag)
    if bag + 1 < nb:
        end = tl.load(off_ptr + bag + 1)
    else:
        end = n_idx.to(start.dtype)
    if MODE == "max":
        acc = tl.full([BLOCK_D], float("-inf"), tl.float32)
    else:
        acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for i in range(start, end):
        row = tl.load(idx_ptr + i)
        v = tl.load(w_ptr + row * D + d, mask=dm, other=0.0).to(tl.float32)
        if HAS_WEIGHTS:
            v = v * tl.load(psw_ptr + i)
        if MODE == "max":
            acc = tl.maximum(acc, v)
        else:
            acc += v
    cnt = end - start
    if MODE == "mean":
        acc = acc / tl.maximum(cnt, 1).to(tl.float32)
    if MODE == "max":
        acc = tl.where(cnt > 0, acc, 0.0)
    tl.store(out_ptr + bag * D + d, acc, mask=dm)


@triton.jit
def diagonal_kernel(x_ptr, out_ptr, stride_b, stride_r, stride_c, offset, L, BLOCK: tl.constexpr):
    # torch.diagonal(x, offset, dim1=-2, dim2=-1) of a strided batch
    b = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    r = tl.where(offset >= 0, i, i - offset)
    c = tl.where(offset >= 0, i + offset, i)
    v = tl.load(x_ptr + b * stride_b + r * stride_r + c * stride_c, mask=i < L)
    tl.store(out_ptr + b * L + i, v, mask=i < L)


@triton.jit
def var_dim0_kernel(x_ptr, var_ptr, mean_ptr, R, C, correction,
                    BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # torch.var_mean(x, dim=0, correction=c): a two-pass loop over rows
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cm = cols < C
    s = tl.zeros([BLOCK_R, BLOCK_C], tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        m = (rows < R)[:, None] & cm[None, :]
        s += tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(s, axis=0) / R
    ss = tl.zeros([BLOCK_R, BLOCK_C], tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        m = (rows < R)[:, None] & cm[None, :]
        x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=m, other=0.0).to(tl.float32)
        dx = tl.where(m, x - mean[None, :], 0.0)
        ss += dx * dx
    denom = tl.maximum(R - correction, 0).to(tl.float32)
    tl.store(var_ptr + cols, tl.sum(ss, axis=0) / denom, mask=cm)
    tl.store(mean_ptr + cols, mean, mask=cm)
