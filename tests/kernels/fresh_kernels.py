# KERNEL: fused_adamw_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32,i32,i32,fp32,fp32,fp32,fp32,fp32
# CONSTEXPR: AMSGRAD=False, MAXIMIZE=False, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fused_adamw_kernel
# SIGNATURE: *bf16:16,*bf16:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,fp32,fp32,fp32,fp32,fp32
# CONSTEXPR: AMSGRAD=True, MAXIMIZE=True, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: topk_sample_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64,*fp32,i32,i32,fp32
# CONSTEXPR: TOP_K=8, BLOCK_V=256
# GRID: B
#
# KERNEL: rope_neox_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,*i64,i32,i32
# CONSTEXPR: H=4, D=64
# GRID: T
#
# KERNEL: fp8_rowwise_quant_kernel
# SIGNATURE: *fp32:16,*fp8e4nv:16,*fp32,i32,i32
# CONSTEXPR: BLOCK_N=128, FP8_MAX=448.0
# GRID: M
#
# KERNEL: window_softcap_decode_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32,i32,i32,fp32,fp32
# CONSTEXPR: HKV=2, G=4, D=32, BLOCK_S=32, WINDOW=48, SOFTCAP=30.0
# GRID: B, HKV
#
# KERNEL: smoothed_ce_kernel
# SIGNATURE: *fp32:16,*i64,*fp32,*fp32,i32,i32,fp32,i64
# CONSTEXPR: REDUCTION="mean", BLOCK_V=128
# GRID: N
#
# KERNEL: smoothed_ce_kernel
# SIGNATURE: *fp32:16,*i64,*fp32,*fp32,i32,i32,fp32,i64
# CONSTEXPR: REDUCTION="none", BLOCK_V=64
# GRID: N
#
# KERNEL: segmented_suffix_kernel
# SIGNATURE: *fp32:16,*i8,*fp32:16,i32
# CONSTEXPR: ROWS=4, BLOCK=64
# GRID: cdiv(R, ROWS)
#
# KERNEL: argsort_rows_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: ROWS=4, N=64
# GRID: cdiv(R, ROWS)
#
# KERNEL: int4_pack_roundtrip_kernel
# SIGNATURE: *fp32:16,*u8:16,*fp32:16,*fp32,i32
# CONSTEXPR: GROUP=32, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: welford_layernorm_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,*fp16:16,i32,i32,fp32
# CONSTEXPR: ROWS=2, BLOCK_N=128
# GRID: cdiv(M, ROWS)
#
# KERNEL: batched_attn_tile_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,fp32
# CONSTEXPR: NB=2, M=16, N=32, D=16
# GRID: Z
#
# KERNEL: radix_threshold_kernel
# SIGNATURE: *i32:16,*i32:16,*i32,i32,i32
# CONSTEXPR: BLOCK=256, BINS=32
# GRID: 1
#
# KERNEL: dot_epilogue_kernel
# SIGNATURE: *fp16:16,*fp16:16,*i32:16,*fp32:16
# CONSTEXPR: BM=32, BN=32, BK=32
# GRID: 1
#
# KERNEL: ticket_partial_max_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32,*fp32,i32
# CONSTEXPR: BLOCK=64, MAX_BLOCKS=32
# GRID: cdiv(n, BLOCK)
#
# KERNEL: narrow_int_cast_kernel
# SIGNATURE: *fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# Kernels written the way LLM training / inference libraries write them, to
# exercise combinations the rest of the corpus does not: a fused AdamW step
# (bias corrections from libdevice pow on runtime scalars, a None amsgrad
# buffer, bf16 parameters with fp32 state, maximize); top-k sampling
# (tl.topk threshold, temperature, Gumbel noise given as an input, argmax);
# NeoX RoPE through reshape/permute/split/join with int64 positions; fp8
# e4m3 row-wise quantisation (clamp with PropagateNan.ALL, a scalar scale
# store); a sliding-window GQA decode step with tanh softcapping and ALiBi on
# a padded tl.dot; label-smoothed cross entropy with an int64 ignore index
# and a string reduction constexpr (atomic mean); a segmented suffix sum by a
# reversed two-tensor associative scan over axis 1; a stable descending
# argsort of rows through uint64 keys and tl.gather; int4 packing into uint8
# (signed and unsigned shifts, nibble sign extension, group scales); Welford
# layer norm through a 3-tuple tl.reduce with keep_dims; a 3-D batched
# attention tile (tl.dot, tl.softmax over dim 2, a second batched dot);
# a radix-select threshold through a masked tl.histogram and tl.cumsum; a
# dot epilogue that flips, gathers and sorts the accumulator; and a
# last-block reduction with acquire/release atomics (atomic_xchg, acq_rel
# atomic_add, scope="gpu"); float -> i8/u8/i16/u16 casts of values out of
# their range (the low bits of the saturated 32-bit conversion, as the PTX
# computes them) (no Triton dumps yet).
import triton
import triton.language as tl
from triton.language.extra import libdevice

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def fused_adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, vmax_ptr, n, step, lr, beta1, beta2, eps, weight_decay,
                       AMSGRAD: tl.constexpr, MAXIMIZE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    if MAXIMIZE:
        g = -g
    m = tl.load(m_ptr + offs, mask=mask, other=0.0)
    v = tl.load(v_ptr + offs, mask=mask, other=0.0)
    # decoupled weight decay
    p = p * (1.0 - lr * weight_decay)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    t = step.to(tl.float32)
    bc1 = 1.0 - libdevice.pow(beta1, t)
    bc2 = 1.0 - libdevice.pow(beta2, t)
    step_size = lr / bc1
    if AMSGRAD:
        vmax = tl.load(vmax_ptr + offs, mask=mask, other=0.0)
        vmax = tl.maximum(vmax, v)
        tl.store(vmax_ptr + offs, vmax, mask=mask)
        denom = tl.sqrt(vmax) / tl.sqrt(bc2) + eps
    else:
        denom = tl.sqrt(v) / tl.sqrt(bc2) + eps
    p = p - step_size * (m / denom)
    tl.store(p_ptr + offs, p.to(p_ptr.dtype.element_ty), mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


@triton.jit
def topk_sample_kernel(logits_ptr, noise_ptr, out_ptr, prob_ptr, V, stride, temperature,
                       TOP_K: tl.constexpr, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_V)
    mask = cols < V
    x = tl.load(logits_ptr + row * stride + cols, mask=mask, other=float("-inf"))
    x = x / temperature
    top = tl.topk(x, TOP_K)
    kth = tl.min(top, axis=0)
    x = tl.where(x >= kth, x, float("-inf"))
    p = tl.softmax(x)
    u = tl.load(noise_ptr + row * stride + cols, mask=mask, other=0.5)
    gumbel = -tl.log(-tl.log(u))
    score = tl.where(p > 0, x + gumbel, float("-inf"))
    choice = tl.argmax(score, axis=0)
    tl.store(out_ptr + row, choice.to(tl.int64))
    tl.store(prob_ptr + row, tl.sum(tl.where(cols == choice, p, 0.0), axis=0))


@triton.jit
def rope_neox_kernel(q_ptr, cos_ptr, sin_ptr, pos_ptr, stride_t, stride_cos, H: tl.constexpr, D: tl.constexpr):
    t = tl.program_id(0)
    pos = tl.load(pos_ptr + t)
    HALF: tl.constexpr = D // 2
    h = tl.arange(0, H)[:, None]
    d = tl.arange(0, D)[None, :]
    q = tl.load(q_ptr + t * stride_t + h * D + d).to(tl.float32)
    # [H, D] -> [H, 2, HALF] -> [H, HALF, 2]: the two halves as the last dim
    q2 = tl.permute(tl.reshape(q, (H, 2, HALF)), (0, 2, 1))
    x1, x2 = tl.split(q2)
    j = tl.arange(0, HALF)[None, :]
    c = tl.load(cos_ptr + pos * stride_cos + j)
    s = tl.load(sin_ptr + pos * stride_cos + j)
    o1 = x1 * c - x2 * s
    o2 = x2 * c + x1 * s
    out = tl.reshape(tl.permute(tl.join(o1, o2), 0, 2, 1), (H, D))
    tl.store(q_ptr + t * stride_t + h * D + d, out.to(q_ptr.dtype.element_ty))


@triton.jit
def fp8_rowwise_quant_kernel(x_ptr, y_ptr, scale_ptr, N, stride, BLOCK_N: tl.constexpr, FP8_MAX: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    amax = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        m = start + cols < N
        x = tl.load(x_ptr + row * stride + start + cols, mask=m, other=0.0)
        amax = tl.maximum(amax, tl.abs(x))
    a = tl.max(amax, axis=0)
    scale = tl.maximum(a, 1e-12) / FP8_MAX
    tl.store(scale_ptr + row, scale)
    inv = 1.0 / scale
    for start in range(0, N, BLOCK_N):
        m = start + cols < N
        x = tl.load(x_ptr + row * stride + start + cols, mask=m, other=0.0)
        q = tl.clamp(x * inv, -FP8_MAX, FP8_MAX, propagate_nan=tl.PropagateNan.ALL)
        tl.store(y_ptr + row * stride + start + cols, q.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def _softcap(s, cap: tl.constexpr):
    if cap > 0:
        s = cap * libdevice.tanh(s / cap)
    return s


@triton.jit
def window_softcap_decode_kernel(q_ptr, k_ptr, v_ptr, o_ptr, slopes_ptr, S, stride_kb, sm_scale, neg_big,
                                 HKV: tl.constexpr, G: tl.constexpr, D: tl.constexpr, BLOCK_S: tl.constexpr,
                                 WINDOW: tl.constexpr, SOFTCAP: tl.constexpr):
    b = tl.program_id(0)
    kvh = tl.program_id(1)
    GP: tl.constexpr = 16 if G < 16 else G   # tl.dot needs 16 rows
    g = tl.arange(0, GP)
    gm = g < G
    d = tl.arange(0, D)
    head = kvh * G + g
    q = tl.load(q_ptr + (b * HKV * G + head)[:, None] * D + d[None, :], mask=gm[:, None], other=0.0)
    slope = tl.load(slopes_ptr + head, mask=gm, other=0.0)
    m_i = tl.full([GP], neg_big, tl.float32)
    l_i = tl.zeros([GP], tl.float32)
    acc = tl.zeros([GP, D], tl.float32)
    lo = tl.maximum(S - WINDOW, 0)
    lo = (lo // BLOCK_S) * BLOCK_S
    for start in tl.range(lo, S, BLOCK_S):
        s_idx = start + tl.arange(0, BLOCK_S)
        valid = (s_idx < S) & (s_idx >= S - WINDOW)
        kv_off = b * stride_kb + s_idx[:, None] * (HKV * D) + kvh * D + d[None, :]
        k = tl.load(k_ptr + kv_off, mask=valid[:, None], other=0.0)
        v = tl.load(v_ptr + kv_off, mask=valid[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        s = _softcap(s, SOFTCAP)
        s += slope[:, None] * (s_idx[None, :] - (S - 1)).to(tl.float32)
        s = tl.where(valid[None, :], s, neg_big)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2((m_i - m_new) * LOG2E)
        p = tl.math.exp2((s - m_new[:, None]) * LOG2E)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + (b * HKV * G + head)[:, None] * D + d[None, :], out, mask=gm[:, None])


@triton.jit
def smoothed_ce_kernel(logits_ptr, target_ptr, loss_ptr, total_ptr, V, stride, smoothing, ignore_index,
                       REDUCTION: tl.constexpr, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    tgt = tl.load(target_ptr + row)
    if tgt == ignore_index:
        if REDUCTION == "none":
            tl.store(loss_ptr + row, 0.0)
        return
    base = logits_ptr + row * stride
    m = float("-inf")
    l = 0.0
    sum_x = 0.0
    for start in range(0, V, BLOCK_V):
        cols = start + tl.arange(0, BLOCK_V)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, 0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        sum_x += tl.sum(tl.where(cols < V, x, 0.0), 0)
        m = m_new
    lse = m + tl.log(l)
    x_t = tl.load(base + tgt)
    eps_i = smoothing / V
    loss = (1.0 - smoothing) * (lse - x_t) + eps_i * (V * lse - sum_x)
    if REDUCTION == "none":
        tl.store(loss_ptr + row, loss)
    else:
        tl.atomic_add(total_ptr, loss, sem="relaxed")
        tl.atomic_add(total_ptr + 1, 1.0)


@triton.jit
def _seg_add(v1, f1, v2, f2):
    # combine (v1, f1) with a later (v2, f2): a set flag starts a new segment
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


@triton.jit
def segmented_suffix_kernel(x_ptr, flag_ptr, y_ptr, R, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    m = (r < R) & (c < BLOCK)
    x = tl.load(x_ptr + r * BLOCK + c, mask=m, other=0.0)
    # a flag marks the last element of a segment: in the reversed scan it
    # starts a new sum
    f = tl.load(flag_ptr + r * BLOCK + c, mask=m, other=1)
    s, _ = tl.associative_scan((x, f), axis=1, combine_fn=_seg_add, reverse=True)
    tl.store(y_ptr + r * BLOCK + c, s, mask=m)


@triton.jit
def argsort_rows_kernel(x_ptr, y_ptr, idx_ptr, R, ROWS: tl.constexpr, N: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, N)[None, :]
    rm = r < R
    x = tl.load(x_ptr + r * N + c, mask=rm, other=0.0)
    bits = x.to(tl.uint32, bitcast=True)
    # order-preserving map of float bits to uint32
    key = tl.where((bits >> 31) != 0, ~bits, bits | 0x80000000)
    # stable for descending order: a smaller index gets a larger low word
    packed = (key.to(tl.uint64) << 32) | (N - 1 - c).to(tl.uint64)
    srt = tl.sort(packed, dim=1, descending=True)
    idx = (N - 1) - (srt & 0xFFFFFFFF).to(tl.int32)
    vals = tl.gather(x, idx, axis=1)
    tl.store(y_ptr + r * N + c, vals, mask=rm)
    tl.store(idx_ptr + r * N + c, idx, mask=rm)


@triton.jit
def int4_pack_roundtrip_kernel(x_ptr, packed_ptr, deq_ptr, scale_ptr, n, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    HALF: tl.constexpr = BLOCK // 2
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    xg = tl.reshape(x, (BLOCK // GROUP, GROUP))
    amax = tl.max(tl.abs(xg), axis=1, keep_dims=True)
    scale = tl.where(amax > 0, amax / 7.0, 1.0)
    q = libdevice.rint(xg / scale)
    q = tl.clamp(q, -8.0, 7.0).to(tl.int8)
    g_idx = pid * (BLOCK // GROUP) + tl.arange(0, BLOCK // GROUP)
    tl.store(scale_ptr + g_idx, tl.reshape(scale, (BLOCK // GROUP,)), mask=g_idx * GROUP < n)
    q = tl.reshape(q, (HALF, 2))
    lo, hi = tl.split(q)
    byte = (lo & 0xF).to(tl.uint8) | ((hi & 0xF).to(tl.uint8) << 4)
    po = pid * HALF + tl.arange(0, HALF)
    tl.store(packed_ptr + po, byte, mask=po * 2 < n)
    # unpack: sign-extend the nibbles with an arithmetic shift of int8
    lo2 = (byte << 4).to(tl.int8, bitcast=True) >> 4
    hi2 = byte.to(tl.int8, bitcast=True) >> 4
    q2 = tl.reshape(tl.join(lo2, hi2), (BLOCK,)).to(tl.float32)
    s = tl.load(scale_ptr + offs // GROUP, mask=mask, other=1.0)
    tl.store(deq_ptr + offs, q2 * s, mask=mask)


@triton.jit
def _welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    w = tl.where(n > 0, n_b / tl.maximum(n, 1.0), 0.0)
    return mean_a + delta * w, m2_a + m2_b + delta * delta * n_a * w, n


@triton.jit
def welford_layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, eps, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, BLOCK_N)[None, :]
    m = (r < M) & (c < N)
    x = tl.load(x_ptr + r * N + c, mask=m, other=0.0).to(tl.float32)
    cnt = m.to(tl.float32)
    mean, m2, nn = tl.reduce((x, tl.zeros_like(x), cnt), 1, _welford_combine, keep_dims=True)
    var = m2 / nn
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + c, mask=c < N, other=1.0)
    b = tl.load(b_ptr + c, mask=c < N, other=0.0)
    y = (x - mean) * rstd * w + b
    tl.store(y_ptr + r * N + c, y.to(tl.float16), mask=m)


@triton.jit
def batched_attn_tile_kernel(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, NB: tl.constexpr, M: tl.constexpr,
                             N: tl.constexpr, D: tl.constexpr):
    z = tl.program_id(0)
    bb = tl.arange(0, NB)[:, None, None]
    mm = tl.arange(0, M)[None, :, None]
    nn = tl.arange(0, N)[None, :, None]
    dd = tl.arange(0, D)[None, None, :]
    q = tl.load(q_ptr + z * NB * M * D + bb * M * D + mm * D + dd)
    k = tl.load(k_ptr + z * NB * N * D + bb * N * D + nn * D + dd)
    v = tl.load(v_ptr + z * NB * N * D + bb * N * D + nn * D + dd)
    s = tl.dot(q, tl.permute(k, (0, 2, 1))) * sm_scale
    p = tl.softmax(s, dim=2)
    o = tl.dot(p.to(tl.float16), v)
    tl.store(o_ptr + z * NB * M * D + bb * M * D + mm * D + dd, o)


@triton.jit
def radix_threshold_kernel(x_ptr, hist_ptr, out_ptr, n, k, BLOCK: tl.constexpr, BINS: tl.constexpr):
    # the bin (top 5 bits of a non-negative int) holding the k-th largest value
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    bucket = (x >> 26) & (BINS - 1)
    h = tl.histogram(bucket, BINS, mask=mask)
    tl.store(hist_ptr + tl.arange(0, BINS), h)
    from_top = tl.cumsum(tl.flip(h, 0), 0)
    # first bin from the top whose running count reaches k
    reached = from_top >= k
    first = tl.min(tl.where(reached, tl.arange(0, BINS), BINS), 0)
    tl.store(out_ptr, BINS - 1 - first)
    tl.store(out_ptr + 1, tl.sum(tl.where(tl.arange(0, BINS) < first, tl.flip(h, 0), 0), 0))


@triton.jit
def dot_epilogue_kernel(a_ptr, b_ptr, idx_ptr, o_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    acc = tl.dot(a, b)
    off = rm[:, None] * BN + rn[None, :]
    tl.store(o_ptr + off, tl.flip(acc, 1))
    idx = tl.load(idx_ptr + off)
    tl.store(o_ptr + BM * BN + off, tl.gather(acc, idx, axis=1))
    tl.store(o_ptr + 2 * BM * BN + off, tl.sort(acc, dim=1))
    tl.store(o_ptr + 3 * BM * BN + rm, tl.max(acc, 1) - tl.min(acc.T, 0))


@triton.jit
def ticket_partial_max_kernel(x_ptr, part_ptr, ticket_ptr, out_ptr, n, BLOCK: tl.constexpr,
                              MAX_BLOCKS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
    tl.store(part_ptr + pid, tl.max(x, 0))
    nb = tl.num_programs(0)
    # release our partial, take a ticket; the last block sees every partial
    t = tl.atomic_add(ticket_ptr, 1, sem="acq_rel", scope="gpu")
    if t == nb - 1:
        parts = tl.load(part_ptr + tl.arange(0, MAX_BLOCKS), mask=tl.arange(0, MAX_BLOCKS) < nb,
                        other=float("-inf"), volatile=True)
        tl.store(out_ptr, tl.max(parts, 0))
        tl.atomic_xchg(ticket_ptr, 0, sem="release")


@triton.jit
def narrow_int_cast_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    h = x.to(tl.float16)
    tl.store(out_ptr + offs * 6 + 0, x.to(tl.int8).to(tl.int32), mask=mask)
    tl.store(out_ptr + offs * 6 + 1, x.to(tl.uint8).to(tl.int32), mask=mask)
    tl.store(out_ptr + offs * 6 + 2, x.to(tl.int16).to(tl.int32), mask=mask)
    tl.store(out_ptr + offs * 6 + 3, x.to(tl.uint16).to(tl.int32), mask=mask)
    tl.store(out_ptr + offs * 6 + 4, h.to(tl.int16).to(tl.int32), mask=mask)
    tl.store(out_ptr + offs * 6 + 5, x.to(tl.float64).to(tl.int8).to(tl.int32), mask=mask)
