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
# KERNEL: recovered_tokens_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK_V=64
# GRID: T
#
# KERNEL: rejection_sample_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,*fp32:16,i32,i32
# CONSTEXPR:
# GRID: R
#
# KERNEL: add_rmsnorm_fp8_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp8e4nv:16,*fp32:16,i32,fp32
# CONSTEXPR: FP8_MAX=448.0, BLOCK=128
# GRID: M
#
# KERNEL: add_rmsnorm_fp8_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,*fp8e5:16,*fp32:16,i32:16,fp32
# CONSTEXPR: FP8_MAX=57344.0, BLOCK=256
# GRID: M
#
# KERNEL: moe_unpermute_kernel
# SIGNATURE: *bf16:16,*i32:16,*fp32:16,*bf16:16,i32
# CONSTEXPR: TOPK=2, BLOCK_D=64
# GRID: T, cdiv(D, BLOCK_D)
#
# KERNEL: moe_unpermute_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: TOPK=3, BLOCK_D=32
# GRID: T, cdiv(D, BLOCK_D)
#
# KERNEL: rope_gptj_partial_kernel
# SIGNATURE: *fp16:16,*fp16:16,*i64:16,*fp32:16,i32,i32
# CONSTEXPR: NQ=4, NK=2, HEAD=64, ROT=32
# GRID: T
#
# KERNEL: rope_gptj_partial_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,*fp32:16,i32,i32
# CONSTEXPR: NQ=8, NK=8, HEAD=16, ROT=16
# GRID: T
#
# KERNEL: gptq_dequant_kernel
# SIGNATURE: *i32:16,*i32:16,*fp16:16,*i32:16,*fp16:16,i32,i32
# CONSTEXPR: BITS=4, BLOCK_K=32, BLOCK_N=32
# GRID: cdiv(K, BLOCK_K), cdiv(N, BLOCK_N)
#
# KERNEL: gptq_dequant_kernel
# SIGNATURE: *i32:16,*i32:16,*fp16:16,*i32:16,*fp16:16,i32,i32
# CONSTEXPR: BITS=8, BLOCK_K=16, BLOCK_N=64
# GRID: cdiv(K, BLOCK_K), cdiv(N, BLOCK_N)
#
# KERNEL: bce_logits_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: HAS_POS_WEIGHT=True, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bce_logits_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*bf16:16,i32,i32
# CONSTEXPR: HAS_POS_WEIGHT=False, BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: huber_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,fp32,i32,fp32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: cosine_sim_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_D=64
# GRID: M
#
# KERNEL: cosine_sim_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_D=32
# GRID: M
#
# KERNEL: cdist_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32, BLOCK_D=16
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: kmeans_assign_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,*fp32:16,i32,i32
# CONSTEXPR: D=16, BLOCK_M=32, BLOCK_C=16
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: sigmoid_focal_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,fp32,fp32,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: logsumexp_rows_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: M
#
# KERNEL: logsumexp_rows_kernel
# SIGNATURE: *fp16:16,*fp32:16,i32
# CONSTEXPR: BLOCK=32
# GRID: M
#
# KERNEL: special_fns_kernel
# SIGNATURE: *fp64:16,*fp64:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: special_fns_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: hadamard_kernel
# SIGNATURE: *fp32:16,*fp32:16,fp32
# CONSTEXPR: N=64, LOG_N=6
# GRID: R
#
# KERNEL: hadamard_kernel
# SIGNATURE: *bf16:16,*bf16:16,fp32
# CONSTEXPR: N=256, LOG_N=8
# GRID: R
#
# KERNEL: stochastic_round_kernel
# SIGNATURE: *fp32:16,*bf16:16,i32,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: kahan_sum_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: R
#
# KERNEL: fastdiv_gather_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i64,i32,i32,i64,i32,i64,i64,i64
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nf4_double_quant_kernel
# SIGNATURE: *u8:16,*u8:16,*fp32:16,*fp32:16,fp32,*fp32:16,*fp16:16,i32
# CONSTEXPR: BLOCKSIZE=64, BLOCKSIZE2=4, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nf4_double_quant_kernel
# SIGNATURE: *u8:16,*u8:16,*fp32:16,*fp32:16,fp32,*fp32:16,*bf16:16,i32
# CONSTEXPR: BLOCKSIZE=32, BLOCKSIZE2=8, BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: int4_groupwise_kernel
# SIGNATURE: *u8:16,*bf16:16,*bf16:16,*bf16:16,i32,i32
# CONSTEXPR: GROUP=32, BLOCK_N=16, BLOCK_K=64
# GRID: cdiv(N, BLOCK_N), cdiv(K, BLOCK_K)
#
# KERNEL: pixel_unshuffle_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: C=2, H=8, W=8, R=2
# GRID: B
#
# KERNEL: pixel_unshuffle_kernel
# SIGNATURE: *fp16:16,*fp16:16
# CONSTEXPR: C=4, H=4, W=16, R=4
# GRID: B
#
# KERNEL: big_block_ptr_kernel
# SIGNATURE: *u8:16,*i32:16,i64,i64,i64,i32
# CONSTEXPR: BLOCK_R=4, BLOCK_C=64
# GRID: cdiv(rows - row0, BLOCK_R)
#
# KERNEL: early_exit_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=128
# GRID: M + 3
#
# KERNEL: epilogue_dispatch_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp16:16,i32,i32
# CONSTEXPR: KIND="gelu_tanh", HAS_BIAS=True, OUT_DTYPE=tl.float16, BLOCK_M=16, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: epilogue_dispatch_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: KIND="leaky", HAS_BIAS=False, OUT_DTYPE=tl.float32, BLOCK_M=32, BLOCK_N=32
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: epilogue_dispatch_kernel
# SIGNATURE: *fp32:16,*fp32:16,*bf16:16,i32,i32
# CONSTEXPR: KIND=None, HAS_BIAS=True, OUT_DTYPE=tl.bfloat16, BLOCK_M=8, BLOCK_N=128
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: logcumsumexp_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: R
#
# KERNEL: logcumsumexp_kernel
# SIGNATURE: *bf16:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: R
#
# KERNEL: cummin_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32
# CONSTEXPR: BLOCK=128
# GRID: R
#
# KERNEL: histc_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: BINS=32, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bincount_kernel
# SIGNATURE: *i64:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: HAS_W=True, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bincount_kernel
# SIGNATURE: *i32:16,*fp32:16,*i64:16,i32
# CONSTEXPR: HAS_W=False, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: causal_conv1d_varlen_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,*i32:16,*bf16:16,i32,i32
# CONSTEXPR: WIDTH=4, SILU=True, BLOCK_T=16, BLOCK_D=64
# GRID: cdiv(T, BLOCK_T), cdiv(D, BLOCK_D)
#
# KERNEL: causal_conv1d_varlen_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,*fp32:16,i32,i32
# CONSTEXPR: WIDTH=3, SILU=False, BLOCK_T=32, BLOCK_D=16
# GRID: cdiv(T, BLOCK_T), cdiv(D, BLOCK_D)
#
# KERNEL: solve_tril_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: UNIT=False, BLOCK=64
# GRID: B
#
# KERNEL: solve_tril_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,i32
# CONSTEXPR: UNIT=True, BLOCK=16
# GRID: B
#
# KERNEL: weight_norm_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp16:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: O
#
# KERNEL: kron_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: M=2, N=4, P=8, Q=2
# GRID: B
#
# KERNEL: unique_consecutive_kernel
# SIGNATURE: *i32:16,*i32:16,*i64:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: 1
#
# KERNEL: complex_ops_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: sinkhorn_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32,fp32,i32
# CONSTEXPR: BLOCK=16
# GRID: B
#
# KERNEL: radix_pass_kernel
# SIGNATURE: *u32:16,*i32:16,*u32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=128
# GRID: 1
#
# KERNEL: segment_max_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: segment_softmax_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: PASS=0, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: segment_softmax_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: PASS=1, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: lstm_cell_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp32:16,i32,i32
# CONSTEXPR: H=32, BLOCK_B=16, BLOCK_I=32
# GRID: cdiv(B, BLOCK_B)
#
# KERNEL: multi_tensor_scale_kernel
# SIGNATURE: *i64:16,*i64:16,*i64:16,*i32:16,*i32:16,fp32,*i32:16
# CONSTEXPR: CHUNK=1024, BLOCK=256
# GRID: n_chunks
#
# KERNEL: tuple_reduce_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK_M=8, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: fp64_stats_kernel
# SIGNATURE: *fp64:16,*fp64:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# A fourth probe (tests/python/test_probe25_kernels.py runs every kernel on
# the CPU against torch, numpy or mpmath): FlagGems-style ATen operators
# (repeat_interleave by a broadcast compare against a cumsum, masked_fill
# through a stride-0 mask, reflect/circular padding, lerp with torch's
# two-sided formula beside a clamp by tensor bounds, isclose with equal_nan,
# nan_to_num by a dtype `if` chain, Python-sign float floor-div and
# remainder, addr, embedding_bag in sum/mean/max modes with empty bags,
# diagonal with an offset, var over dim 0 with a correction, logcumsumexp
# and cummin as tuple scans, histc by a masked tl.histogram, bincount,
# weight_norm, kron, unique_consecutive); vLLM-style serving (speculative
# decoding's recovered tokens and rejection sampling, add + RMSNorm + fp8
# quantisation, MoE unpermute, partial GPT-J rope); GPTQ act-order, NF4
# double-quant and torchao int4 dequantisation; losses (BCE with
# pos_weight, huber, focal, logsumexp of -inf rows); cdist and k-means on
# tl.dot; libdevice sinpi/cospi/normcdf/tgamma; a Hadamard transform,
# stochastic rounding, a TwoSum tuple reduce, magic-number division by
# umulhi, rank-5 permutes, a block pointer past 2^31 elements, early
# returns, nested helpers with constexpr defaults, varlen causal conv1d,
# forward substitution, complex numbers by split/join, Sinkhorn under a
# while with `and`, a radix pass, scatter softmax by float atomic_max, an
# LSTM cell, multi_tensor_apply over address tables, fp64 atomics.
import triton
import triton.language as tl
from triton.language.extra import libdevice


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


@triton.jit
def recovered_tokens_kernel(target_ptr, draft_ptr, q_ptr, out_ptr, V, BLOCK_V: tl.constexpr):
    # vLLM's sample_recovered_tokens: argmax over the vocabulary of
    # max(p - q, 0) / exponential noise, the lowest index on ties
    t = tl.program_id(0)
    best = tl.full([BLOCK_V], -1.0, tl.float32)
    best_i = tl.zeros([BLOCK_V], tl.int32)
    for v0 in range(0, V, BLOCK_V):
        v = v0 + tl.arange(0, BLOCK_V)
        vm = v < V
        p = tl.load(target_ptr + t * V + v, mask=vm, other=0.0)
        d = tl.load(draft_ptr + t * V + v, mask=vm, other=0.0)
        q = tl.load(q_ptr + t * V + v, mask=vm, other=1.0)
        score = tl.where(vm, tl.maximum(p - d, 0.0) / q, -1.0)
        take = score > best
        best = tl.where(take, score, best)
        best_i = tl.where(take, v, best_i)
    m = tl.max(best, axis=0)
    idx = tl.min(tl.where(best == m, best_i, V), axis=0)
    tl.store(out_ptr + t, idx)


@triton.jit
def rejection_sample_kernel(out_ptr, cu_ptr, draft_ids_ptr, draft_probs_ptr, target_probs_ptr,
                            bonus_ptr, recovered_ptr, uniform_ptr, V, max_spec_len):
    # vLLM's rejection_random_sample_kernel: accept draft tokens while
    # p/q >= u, then the recovered token, or the bonus token when all pass
    req = tl.program_id(0)
    start = tl.load(cu_ptr + req)
    end = tl.load(cu_ptr + req + 1)
    n_draft = end - start
    rejected = False
    for pos in range(n_draft):
        if not rejected:
            tok = tl.load(draft_ids_ptr + start + pos)
            dp = tl.load(draft_probs_ptr + (start + pos) * V + tok)
            tp = tl.load(target_probs_ptr + (start + pos) * V + tok)
            u = tl.load(uniform_ptr + start + pos)
            if dp > 0 and tp / dp >= u:
                token = tok
            else:
                rejected = True
                token = tl.load(recovered_ptr + start + pos)
            tl.store(out_ptr + req * (max_spec_len + 1) + pos, token)
    if not rejected:
        tl.store(out_ptr + req * (max_spec_len + 1) + n_draft, tl.load(bonus_ptr + req))


@triton.jit
def add_rmsnorm_fp8_kernel(x_ptr, res_ptr, w_ptr, out_ptr, scale_ptr, N, eps,
                           FP8_MAX: tl.constexpr, BLOCK: tl.constexpr):
    # fused residual add + RMSNorm + dynamic per-token fp8 (e4m3) quantisation
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
    r = tl.load(res_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
    h = x + r
    tl.store(res_ptr + row * N + cols, h.to(res_ptr.dtype.element_ty), mask=m)
    var = tl.sum(h * h, axis=0) / N
    y = h * tl.rsqrt(var + eps) * tl.load(w_ptr + cols, mask=m, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(y), axis=0)
    scale = tl.maximum(amax / FP8_MAX, 1e-12)
    q = tl.clamp(y / scale, -FP8_MAX, FP8_MAX)
    tl.store(out_ptr + row * N + cols, q.to(out_ptr.dtype.element_ty), mask=m)
    tl.store(scale_ptr + row, scale)


@triton.jit
def moe_unpermute_kernel(y_ptr, inv_ptr, w_ptr, out_ptr, D, TOPK: tl.constexpr, BLOCK_D: tl.constexpr):
    # out[t] = sum_k w[t, k] * y[inv[t * TOPK + k]]: the expert outputs were
    # sorted by expert; inv undoes the permutation (-1: a dropped slot)
    t = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    acc = tl.zeros([BLOCK_D], tl.float32)
    for k in tl.static_range(TOPK):
        src = tl.load(inv_ptr + t * TOPK + k)
        wk = tl.load(w_ptr + t * TOPK + k)
        if src >= 0:
            acc += wk * tl.load(y_ptr + src.to(tl.int64) * D + d, mask=dm, other=0.0).to(tl.float32)
    tl.store(out_ptr + t * D + d, acc.to(out_ptr.dtype.element_ty), mask=dm)


@triton.jit
def rope_gptj_partial_kernel(q_ptr, k_ptr, pos_ptr, cache_ptr, stride_qt, stride_kt,
                             NQ: tl.constexpr, NK: tl.constexpr, HEAD: tl.constexpr, ROT: tl.constexpr):
    # GPT-J (interleaved pairs) rotary embedding on the first ROT of HEAD
    # dimensions, q and k in place; cache rows are [cos(ROT/2) | sin(ROT/2)]
    t = tl.program_id(0)
    pos = tl.load(pos_ptr + t)
    half = tl.arange(0, ROT // 2)
    cos = tl.load(cache_ptr + pos * ROT + half)
    sin = tl.load(cache_ptr + pos * ROT + ROT // 2 + half)
    r = tl.arange(0, ROT)
    qh = tl.arange(0, NQ)
    qp = q_ptr + t * stride_qt + qh[:, None] * HEAD + r[None, :]
    q = tl.reshape(tl.load(qp).to(tl.float32), [NQ, ROT // 2, 2])
    q1, q2 = tl.split(q)
    qo = tl.join(q1 * cos[None, :] - q2 * sin[None, :], q2 * cos[None, :] + q1 * sin[None, :])
    tl.store(qp, tl.reshape(qo, [NQ, ROT]).to(q_ptr.dtype.element_ty))
    kh = tl.arange(0, NK)
    kp = k_ptr + t * stride_kt + kh[:, None] * HEAD + r[None, :]
    k = tl.reshape(tl.load(kp).to(tl.float32), [NK, ROT // 2, 2])
    k1, k2 = k.split()
    ko = tl.join(k1 * cos[None, :] - k2 * sin[None, :], k2 * cos[None, :] + k1 * sin[None, :])
    tl.store(kp, ko.reshape(NK, ROT).to(k_ptr.dtype.element_ty))


@triton.jit
def gptq_dequant_kernel(qw_ptr, qz_ptr, s_ptr, gidx_ptr, out_ptr, K, N,
                        BITS: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    # GPTQ with act-order: weights packed along K (32 // BITS per int32),
    # zeros packed along N, the group of row k read from g_idx
    PER: tl.constexpr = 32 // BITS
    MASK: tl.constexpr = (1 << BITS) - 1
    rk = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    km = rk < K
    nm = rn < N
    m = km[:, None] & nm[None, :]
    words = tl.load(qw_ptr + (rk // PER)[:, None] * N + rn[None, :], mask=m, other=0)
    q = (words >> ((rk % PER) * BITS)[:, None]) & MASK
    g = tl.load(gidx_ptr + rk, mask=km, other=0)
    zw = tl.load(qz_ptr + g[:, None] * (N // PER) + (rn // PER)[None, :], mask=m, other=0)
    z = (zw >> ((rn % PER) * BITS)[None, :]) & MASK
    s = tl.load(s_ptr + g[:, None] * N + rn[None, :], mask=m, other=0.0)
    w = (q - z).to(tl.float16) * s
    tl.store(out_ptr + rk[:, None] * N + rn[None, :], w, mask=m)


@triton.jit
def bce_logits_kernel(x_ptr, y_ptr, pw_ptr, gout_ptr, loss_ptr, dx_ptr, C, n,
                      HAS_POS_WEIGHT: tl.constexpr, BLOCK: tl.constexpr):
    # binary_cross_entropy_with_logits(x, y, pos_weight=pw[c], reduction="none")
    # and its gradient, numerically stable for large |x|
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=m, other=0.0).to(tl.float32)
    go = tl.load(gout_ptr + offs, mask=m, other=0.0)
    log_sig = -(tl.maximum(-x, 0.0) + tl.log(1 + tl.exp(-tl.abs(x))))  # log(sigmoid(x))
    if HAS_POS_WEIGHT:
        pw = tl.load(pw_ptr + offs % C, mask=m, other=1.0)
        lw = 1 + (pw - 1) * y
    else:
        lw = 1.0
    loss = (1 - y) * x - lw * log_sig
    dx = (1 - y) - lw * (1 - tl.sigmoid(x))
    tl.store(loss_ptr + offs, loss, mask=m)
    tl.store(dx_ptr + offs, (dx * go).to(dx_ptr.dtype.element_ty), mask=m)


@triton.jit
def huber_kernel(x_ptr, y_ptr, loss_ptr, grad_ptr, delta, n, inv_n, BLOCK: tl.constexpr):
    # huber_loss(x, y, delta=, reduction="mean") and d/dx, the sum through
    # one atomic per program
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    d = tl.load(x_ptr + offs, mask=m, other=0.0) - tl.load(y_ptr + offs, mask=m, other=0.0)
    ad = tl.abs(d)
    quad = ad <= delta
    l = tl.where(quad, 0.5 * d * d, delta * (ad - 0.5 * delta))
    gr = tl.where(quad, d, delta * tl.where(d > 0, 1.0, -1.0))
    tl.store(grad_ptr + offs, gr * inv_n, mask=m)
    tl.atomic_add(loss_ptr, tl.sum(tl.where(m, l, 0.0), axis=0) * inv_n)


@triton.jit
def cosine_sim_kernel(a_ptr, b_ptr, out_ptr, D, stride_a, stride_b, eps, BLOCK_D: tl.constexpr):
    # F.cosine_similarity(a, b, dim=1, eps): a.b / sqrt(max(|a|^2 |b|^2, eps^2)),
    # b broadcast over rows when stride_b == 0
    row = tl.program_id(0)
    acc_ab = tl.zeros([BLOCK_D], tl.float32)
    acc_aa = tl.zeros([BLOCK_D], tl.float32)
    acc_bb = tl.zeros([BLOCK_D], tl.float32)
    for d0 in tl.range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        a = tl.load(a_ptr + row * stride_a + d, mask=d < D, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + row * stride_b + d, mask=d < D, other=0.0).to(tl.float32)
        acc_ab += a * b
        acc_aa += a * a
        acc_bb += b * b
    ab = tl.sum(acc_ab, 0)
    den = tl.sqrt(tl.maximum(tl.sum(acc_aa, 0) * tl.sum(acc_bb, 0), eps * eps))
    tl.store(out_ptr + row, ab / den)


@triton.jit
def cdist_kernel(a_ptr, b_ptr, out_ptr, M, N, D, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_D: tl.constexpr):
    # torch.cdist(a, b) by |a|^2 + |b|^2 - 2 a.b on tl.dot, clamped at 0
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    na = tl.zeros([BLOCK_M], tl.float32)
    nb = tl.zeros([BLOCK_N], tl.float32)
    for d0 in range(0, D, BLOCK_D):
        rd = d0 + tl.arange(0, BLOCK_D)
        a = tl.load(a_ptr + rm[:, None] * D + rd[None, :], mask=(rm < M)[:, None] & (rd < D)[None, :], other=0.0)
        bt = tl.load(b_ptr + rn[None, :] * D + rd[:, None], mask=(rn < N)[None, :] & (rd < D)[:, None], other=0.0)
        acc = tl.dot(a, bt, acc, input_precision="ieee")
        na += tl.sum(a * a, axis=1)
        nb += tl.sum(bt * bt, axis=0)
    d2 = tl.maximum(na[:, None] + nb[None, :] - 2 * acc, 0.0)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], tl.sqrt(d2), mask=(rm < M)[:, None] & (rn < N)[None, :])


@triton.jit
def kmeans_assign_kernel(x_ptr, c_ptr, assign_ptr, dist_ptr, M, NC, D: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    # nearest centroid per point: a running (min, argmin) over centroid tiles
    # scored by |c|^2 - 2 x.c, the lowest index on ties
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    x = tl.load(x_ptr + rm[:, None] * D + rd[None, :], mask=(rm < M)[:, None], other=0.0)
    best = tl.full([BLOCK_M], float("inf"), tl.float32)
    best_i = tl.full([BLOCK_M], -1, tl.int32)
    for c0 in range(0, NC, BLOCK_C):
        rc = c0 + tl.arange(0, BLOCK_C)
        c = tl.load(c_ptr + rc[:, None] * D + rd[None, :], mask=(rc < NC)[:, None], other=0.0)
        score = tl.sum(c * c, axis=1)[None, :] - 2 * tl.dot(x, tl.trans(c), input_precision="ieee")
        score = tl.where((rc < NC)[None, :], score, float("inf"))
        tmin, targ = tl.min(score, axis=1, return_indices=True, return_indices_tie_break_left=True)
        take = tmin < best
        best = tl.where(take, tmin, best)
        best_i = tl.where(take, c0 + targ, best_i)
    tl.store(assign_ptr + rm, best_i, mask=rm < M)
    tl.store(dist_ptr + rm, best + tl.sum(x * x, axis=1), mask=rm < M)


@triton.jit
def sigmoid_focal_kernel(x_ptr, y_ptr, out_ptr, alpha, gamma, n, BLOCK: tl.constexpr):
    # torchvision.ops.sigmoid_focal_loss(reduction="none"); gamma is a run-time
    # float (pow through exp/log, 0 ** 0 == 1)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    p = tl.sigmoid(x)
    ce = tl.maximum(x, 0.0) - x * y + tl.log(1 + tl.exp(-tl.abs(x)))
    p_t = p * y + (1 - p) * (1 - y)
    base = 1 - p_t
    mod = tl.where(base > 0, tl.exp(gamma * tl.log(tl.maximum(base, 1e-38))), tl.where(gamma == 0, 1.0, 0.0))
    loss = ce * mod
    if alpha >= 0:
        loss = (alpha * y + (1 - alpha) * (1 - y)) * loss
    tl.store(out_ptr + offs, loss, mask=m)


@triton.jit
def logsumexp_rows_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # torch.logsumexp(x, dim=1), one pass with an online max; a row of
    # -inf gives -inf (not NaN), a row holding +inf gives +inf
    row = tl.program_id(0)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + c, mask=c < N, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - safe) + tl.exp(x - safe)
        m = m_new
    mx = tl.max(m, axis=0)
    safe_mx = tl.where((mx == float("-inf")) | (mx == float("inf")), 0.0, mx)
    tot = tl.sum(s * tl.exp(m - safe_mx), axis=0)
    res = tl.where(mx == float("inf"), mx, safe_mx + tl.log(tot))
    tl.store(out_ptr + row, res)


@triton.jit
def special_fns_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # libdevice's sinpi / cospi (a rotation by a fraction of a turn), the
    # exact GELU x * normcdf(x), tgamma and lgamma (a Gamma density's
    # normaliser), one output row each
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    tl.store(out_ptr + offs, libdevice.sinpi(x), mask=m)
    tl.store(out_ptr + n + offs, libdevice.cospi(x), mask=m)
    tl.store(out_ptr + 2 * n + offs, libdevice.normcdf(x), mask=m)
    tl.store(out_ptr + 3 * n + offs, libdevice.tgamma(x), mask=m)
    tl.store(out_ptr + 4 * n + offs, libdevice.lgamma(x), mask=m)


@triton.jit
def _hadamard_stage(x, N: tl.constexpr, H: tl.constexpr):
    # one radix-2 butterfly: elements H apart combined as (a + b, a - b)
    y = tl.permute(tl.reshape(x, [N // (2 * H), 2, H]), (0, 2, 1))
    a, b = tl.split(y)
    return tl.reshape(tl.permute(tl.join(a + b, a - b), (0, 2, 1)), [N])


@triton.jit
def hadamard_kernel(x_ptr, out_ptr, scale, N: tl.constexpr, LOG_N: tl.constexpr):
    # fast Walsh-Hadamard transform of each row (QuaRot / fast_hadamard_transform)
    tl.static_assert(1 << LOG_N == N, "N must be 2 ** LOG_N")
    row = tl.program_id(0).to(tl.int64)
    x = tl.load(x_ptr + row * N + tl.arange(0, N)).to(tl.float32)
    for s in tl.static_range(LOG_N):
        x = _hadamard_stage(x, N, 1 << s)
    tl.store(out_ptr + row * N + tl.arange(0, N), (x * scale).to(out_ptr.dtype.element_ty))


@triton.jit
def stochastic_round_kernel(x_ptr, out_ptr, n, seed, BLOCK: tl.constexpr):
    # fp32 -> bf16 with stochastic rounding: 16 random bits added below the
    # kept mantissa, then truncated (round toward zero of the sum)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    bits = x.to(tl.uint32, bitcast=True)
    r = tl.randint(seed, offs).to(tl.uint32, bitcast=True) & 0xFFFF
    rounded = (bits + r) & 0xFFFF0000
    finite = (bits & 0x7F800000) != 0x7F800000
    y = tl.where(finite, rounded, bits).to(tl.float32, bitcast=True)
    tl.store(out_ptr + offs, y.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=m)


@triton.jit
def _two_sum(s1, c1, s2, c2):
    # (s1 + c1) + (s2 + c2) as a rounded sum and its exact error (Knuth's
    # branch-free TwoSum) plus the compensations
    t = s1 + s2
    bb = t - s1
    e = (s1 - (t - bb)) + (s2 - bb)
    return t, c1 + c2 + e


@triton.jit
def kahan_sum_kernel(x_ptr, out_ptr, naive_ptr, N, BLOCK: tl.constexpr):
    # a compensated sum of each row: TwoSum lane-wise over the column
    # chunks, then across lanes by a tuple tl.reduce of the same combine;
    # the plain fp32 sum beside it
    row = tl.program_id(0).to(tl.int64)
    s = tl.zeros([BLOCK], tl.float32)
    c = tl.zeros([BLOCK], tl.float32)
    plain = tl.zeros([BLOCK], tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
        s, c = _two_sum(s, c, v, tl.zeros_like(v))
        plain += v
    total, comp = tl.reduce((s, c), 0, _two_sum)
    tl.store(out_ptr + row, total + comp)
    tl.store(naive_ptr + row, tl.sum(plain))


@triton.jit
def fastdiv_gather_kernel(x_ptr, out_ptr, n, d1, m1, s1, d2, m2, s2, stride0, stride1, stride2,
                          BLOCK: tl.constexpr):
    # a permuted copy out[i] = x[i0 * stride0 + i1 * stride1 + i2 * stride2]
    # with i unravelled over (., d1, d2) by magic-number division
    # (q = umulhi(n, m) >> s, exact for n < 2^31 with the host's m and s)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    msk = offs < n
    i = offs.to(tl.uint32)
    q2 = tl.umulhi(i, m2.to(tl.uint32)) >> s2
    i2 = i - q2 * d2
    q1 = tl.umulhi(q2, m1.to(tl.uint32)) >> s1
    i1 = q2 - q1 * d1
    src = q1.to(tl.int64) * stride0 + i1.to(tl.int64) * stride1 + i2.to(tl.int64) * stride2
    tl.store(out_ptr + offs, tl.load(x_ptr + src, mask=msk), mask=msk)


@triton.jit
def nf4_double_quant_kernel(packed_ptr, absmax_q_ptr, code_ptr, absmax2_ptr, offset, nf4_ptr, out_ptr, n,
                            BLOCKSIZE: tl.constexpr, BLOCKSIZE2: tl.constexpr, BLOCK: tl.constexpr):
    # bitsandbytes NF4 with double quantisation: two 4-bit codes a byte
    # (high nibble first) into a 16-entry table, each BLOCKSIZE block's absmax
    # an 8-bit code into a 256-entry table times a second-level scale per
    # BLOCKSIZE2 blocks plus an offset
    offs = tl.program_id(0) * (BLOCK // 2) + tl.arange(0, BLOCK // 2)
    m = offs < n // 2
    byte = tl.load(packed_ptr + offs, mask=m, other=0)
    hi = (byte >> 4) & 0xF
    lo = byte & 0xF
    q = tl.interleave(hi, lo)
    v = tl.load(nf4_ptr + q.to(tl.int32))
    e = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    blk = e // BLOCKSIZE
    aq = tl.load(absmax_q_ptr + blk, mask=e < n, other=0)
    absmax = tl.load(code_ptr + aq.to(tl.int32)) * tl.load(absmax2_ptr + blk // BLOCKSIZE2, mask=e < n, other=0.0) + offset
    tl.store(out_ptr + e, (v * absmax).to(out_ptr.dtype.element_ty), mask=e < n)


@triton.jit
def int4_groupwise_kernel(w_ptr, scale_ptr, zero_ptr, out_ptr, N, K,
                          GROUP: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # torchao-style asymmetric int4: w[n, k] packed as uint8 (k even in the
    # low nibble), dequantised (q - zero) * scale per (n, k // GROUP), and
    # written transposed, [K, N], for a following GEMM
    rn = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk2 = tl.program_id(1) * (BLOCK_K // 2) + tl.arange(0, BLOCK_K // 2)
    m2 = (rn < N)[:, None] & (rk2 < K // 2)[None, :]
    b = tl.load(w_ptr + rn[:, None] * (K // 2) + rk2[None, :], mask=m2, other=0)
    q = tl.join(b & 0xF, b >> 4).reshape(BLOCK_N, BLOCK_K)  # [n, k]: low nibble first
    rk = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    m = (rn < N)[:, None] & (rk < K)[None, :]
    g = rk // GROUP
    sc = tl.load(scale_ptr + rn[:, None] * (K // GROUP) + g[None, :], mask=m, other=0.0).to(tl.float32)
    zp = tl.load(zero_ptr + rn[:, None] * (K // GROUP) + g[None, :], mask=m, other=0.0).to(tl.float32)
    w = (q.to(tl.float32) - zp) * sc
    wt = tl.trans(w)
    tl.store(out_ptr + rk[:, None] * N + rn[None, :], wt.to(out_ptr.dtype.element_ty), mask=tl.trans(m))


@triton.jit
def pixel_unshuffle_kernel(x_ptr, out_ptr, C: tl.constexpr, H: tl.constexpr, W: tl.constexpr, R: tl.constexpr):
    # torch.pixel_unshuffle of one image: [C, H, W] -> [C*R*R, H/R, W/R] by a
    # rank-5 reshape and permute
    b = tl.program_id(0)
    x = tl.load(x_ptr + b * C * H * W + tl.arange(0, C * H * W))
    y = tl.reshape(x, [C, H // R, R, W // R, R])
    y = tl.permute(y, (0, 2, 4, 1, 3))
    tl.store(out_ptr + b * C * H * W + tl.arange(0, C * H * W), tl.reshape(y, [C * H * W]))


@triton.jit
def big_block_ptr_kernel(x_ptr, out_ptr, rows, cols, stride_row, row0, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # a block pointer over a byte matrix past 2^31 elements (int64 stride and
    # offsets), its tile summed per row; the last tile ragged in both dims
    r = row0 + tl.program_id(0) * BLOCK_R
    bp = tl.make_block_ptr(x_ptr, (rows, cols), (stride_row, 1), (r, 0), (BLOCK_R, BLOCK_C), (1, 0))
    acc = tl.zeros([BLOCK_R], tl.int32)
    for c in range(0, cols, BLOCK_C):
        t = tl.load(bp, boundary_check=(0, 1), padding_option="zero")
        acc += tl.sum(t.to(tl.int32), axis=1)
        bp = tl.advance(bp, (0, BLOCK_C))
    ob = tl.make_block_ptr(out_ptr, (rows,), (1,), (r,), (BLOCK_R,), (0,))
    tl.store(ob, acc, boundary_check=(0,))


@triton.jit
def early_exit_kernel(x_ptr, out_ptr, flag_ptr, M, N, BLOCK: tl.constexpr):
    # rows past M leave at once; an all-zero row writes a flag and leaves
    # before the normalisation; others are scaled by their max |x|
    row = tl.program_id(0)
    if row >= M:
        return
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
    amax = tl.max(tl.abs(x), axis=0)
    if amax == 0:
        tl.store(flag_ptr + row, 1)
        tl.store(out_ptr + row * N + cols, x, mask=m)
        return
    tl.store(flag_ptr + row, 0)
    tl.store(out_ptr + row * N + cols, x / amax, mask=m)


@triton.jit
def _act(x, KIND: tl.constexpr, ALPHA: tl.constexpr = 0.01):
    if KIND == "relu":
        return tl.maximum(x, 0.0)
    elif KIND == "leaky":
        return tl.where(x >= 0, x, x * ALPHA)
    elif KIND == "gelu_tanh":
        return 0.5 * x * (1 + libdevice.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
    elif KIND is None:
        return x
    else:
        tl.static_assert(False, "unknown activation")


@triton.jit
def _bias_act(x, b_ptr, cols, mask, KIND: tl.constexpr, HAS_BIAS: tl.constexpr = True):
    if HAS_BIAS:
        x = x + tl.load(b_ptr + cols, mask=mask, other=0.0)[None, :]
    return _act(x, KIND, ALPHA=0.2) if KIND == "leaky" else _act(x, KIND)


@triton.jit
def epilogue_dispatch_kernel(x_ptr, b_ptr, out_ptr, M, N, KIND: tl.constexpr, HAS_BIAS: tl.constexpr,
                             OUT_DTYPE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # a GEMM epilogue chosen by constexprs: an activation by name (None: the
    # identity) through nested helpers with constexpr defaults, the output
    # dtype a constexpr dtype
    tl.static_assert(BLOCK_M * BLOCK_N <= 4096, f"tile {BLOCK_M}x{BLOCK_N} too large")
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    m = (rm < M)[:, None] & (rn < N)[None, :]
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=m, other=0.0).to(tl.float32)
    y = _bias_act(x, b_ptr, rn, rn < N, KIND, HAS_BIAS=HAS_BIAS)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], y.to(OUT_DTYPE), mask=m)


@triton.jit
def _lse_combine(m1, s1, m2, s2):
    # (max, sum of exp(x - max)) pairs merged; an all -inf side adds nothing
    m = tl.maximum(m1, m2)
    ms = tl.where(m == float("-inf"), 0.0, m)
    return m, s1 * tl.exp(m1 - ms) + s2 * tl.exp(m2 - ms)


@triton.jit
def logcumsumexp_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # torch.logcumsumexp(x, dim=1): a tuple scan of (max, scaled sum) per
    # chunk, the running pair of the previous chunks folded in
    row = tl.program_id(0).to(tl.int64)
    carry_m = float("-inf")
    carry_s = 0.0
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        m, s = tl.associative_scan((x, tl.where(x == float("-inf"), 0.0, 1.0)), 0, _lse_combine)
        m, s = _lse_combine(carry_m, carry_s, m, s)
        tl.store(out_ptr + row * N + cols, (m + tl.log(s)).to(out_ptr.dtype.element_ty), mask=cols < N)
        carry_m = tl.max(m, 0)
        carry_s = tl.sum(tl.where(cols == tl.minimum(c0 + BLOCK, N) - 1, s, 0.0), 0)


@triton.jit
def _cummin_combine(v1, i1, v2, i2):
    # torch.cummin: the later index on ties; a NaN wins (the latest NaN's index)
    take2 = (v2 != v2) | ((v1 == v1) & (v2 <= v1))
    return tl.where(take2, v2, v1), tl.where(take2, i2, i1)


@triton.jit
def cummin_kernel(x_ptr, v_ptr, i_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=float("inf"))
    idx = tl.broadcast_to(cols.to(tl.int64), [BLOCK])
    v, i = tl.associative_scan((x, idx), 0, _cummin_combine)
    tl.store(v_ptr + row * N + cols, v, mask=cols < N)
    tl.store(i_ptr + row * N + cols, i, mask=cols < N)


@triton.jit
def histc_kernel(x_ptr, hist_ptr, n, lo, hi, BINS: tl.constexpr, BLOCK: tl.constexpr):
    # torch.histc(x, bins=BINS, min=lo, max=hi): a block histogram by
    # tl.histogram (out-of-range masked off, max in the last bin), added to
    # the global one by a vector atomic
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    inside = (offs < n) & (x >= lo) & (x <= hi)
    b = ((x - lo) / (hi - lo) * BINS).to(tl.int32)
    b = tl.minimum(tl.maximum(b, 0), BINS - 1)
    h = tl.histogram(b, BINS, mask=inside)
    tl.atomic_add(hist_ptr + tl.arange(0, BINS), h.to(tl.float32), sem="relaxed")


@triton.jit
def bincount_kernel(idx_ptr, w_ptr, out_ptr, n, HAS_W: tl.constexpr, BLOCK: tl.constexpr):
    # torch.bincount(idx, weights=w): scattered atomics
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx_ptr + offs, mask=m, other=0)
    if HAS_W:
        w = tl.load(w_ptr + offs, mask=m, other=0.0)
    else:
        w = tl.full([BLOCK], 1, tl.int64)
    tl.atomic_add(out_ptr + i, w, mask=m)


@triton.jit
def causal_conv1d_varlen_kernel(x_ptr, w_ptr, b_ptr, seq_idx_ptr, out_ptr, T, D,
                                WIDTH: tl.constexpr, SILU: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    # token-major [T, D] sequences packed back to back; seq_idx[t] names each
    # token's sequence, and a tap reaching into the previous one reads 0
    rt = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    rd = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    tm = rt < T
    dm = rd < D
    sid = tl.load(seq_idx_ptr + rt, mask=tm, other=-1)
    acc = tl.zeros([BLOCK_T, BLOCK_D], tl.float32) + tl.load(b_ptr + rd, mask=dm, other=0.0)[None, :]
    for k in tl.static_range(WIDTH):
        src = rt - (WIDTH - 1 - k)
        ok = tm & (src >= 0)
        sk = tl.load(seq_idx_ptr + src, mask=ok, other=-2)
        ok = ok & (sk == sid)
        xv = tl.load(x_ptr + src[:, None] * D + rd[None, :], mask=ok[:, None] & dm[None, :], other=0.0)
        acc += xv.to(tl.float32) * tl.load(w_ptr + rd * WIDTH + k, mask=dm, other=0.0)[None, :]
    if SILU:
        acc = acc * tl.sigmoid(acc)
    tl.store(out_ptr + rt[:, None] * D + rd[None, :], acc.to(out_ptr.dtype.element_ty), mask=tm[:, None] & dm[None, :])


@triton.jit
def solve_tril_kernel(l_ptr, b_ptr, y_ptr, N, UNIT: tl.constexpr, BLOCK: tl.constexpr):
    # forward substitution L y = b per batch (flash-linear-attention's
    # solve_tril shape of loop): row i needs every y_j, j < i
    bid = tl.program_id(0).to(tl.int64)
    j = tl.arange(0, BLOCK)
    y = tl.zeros([BLOCK], b_ptr.dtype.element_ty)
    for i in range(N):
        row = tl.load(l_ptr + bid * N * N + i * N + j, mask=j < i, other=0.0)
        s = tl.sum(row * y, 0)
        bi = tl.load(b_ptr + bid * N + i)
        if UNIT:
            yi = bi - s
        else:
            yi = (bi - s) / tl.load(l_ptr + bid * N * N + i * N + i)
        y = tl.where(j == i, yi, y)
    tl.store(y_ptr + bid * N + j, y, mask=j < N)


@triton.jit
def weight_norm_kernel(v_ptr, g_ptr, w_ptr, norm_ptr, K, BLOCK: tl.constexpr):
    # torch._weight_norm(v, g, dim=0): each output row scaled to norm g
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], tl.float32)
    for k0 in range(0, K, BLOCK):
        k = k0 + tl.arange(0, BLOCK)
        v = tl.load(v_ptr + row * K + k, mask=k < K, other=0.0).to(tl.float32)
        acc += v * v
    nrm = tl.sqrt(tl.sum(acc, 0))
    scale = tl.load(g_ptr + row).to(tl.float32) / nrm
    for k0 in range(0, K, BLOCK):
        k = k0 + tl.arange(0, BLOCK)
        v = tl.load(v_ptr + row * K + k, mask=k < K, other=0.0).to(tl.float32)
        tl.store(w_ptr + row * K + k, (v * scale).to(w_ptr.dtype.element_ty), mask=k < K)
    tl.store(norm_ptr + row, nrm)


@triton.jit
def kron_kernel(a_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, P: tl.constexpr, Q: tl.constexpr):
    # torch.kron(a, b) of one batch: a rank-4 outer product permuted to
    # [M, P, N, Q] and flattened to [M * P, N * Q]
    bid = tl.program_id(0)
    a = tl.load(a_ptr + bid * M * N + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    b = tl.load(b_ptr + bid * P * Q + tl.arange(0, P)[:, None] * Q + tl.arange(0, Q)[None, :])
    o4 = a[:, :, None, None] * b[None, None, :, :]          # [M, N, P, Q]
    o = tl.reshape(tl.permute(o4, 0, 2, 1, 3), [M * P, N * Q])
    r = tl.arange(0, M * P)
    c = tl.arange(0, N * Q)
    tl.store(out_ptr + bid * M * N * P * Q + r[:, None] * (N * Q) + c[None, :], o)


@triton.jit
def unique_consecutive_kernel(x_ptr, out_ptr, inv_ptr, cnt_ptr, nout_ptr, n, BLOCK: tl.constexpr):
    # torch.unique_consecutive(x, return_inverse=True, return_counts=True)
    # in one program: run starts flagged, numbered by a cumsum, compacted
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    prev = tl.load(x_ptr + offs - 1, mask=m & (offs > 0))
    start = m & ((offs == 0) | (x != prev))
    run = tl.cumsum(start.to(tl.int32), 0) - 1
    tl.store(inv_ptr + offs, run.to(tl.int64), mask=m)
    tl.store(out_ptr + run, x, mask=start)
    nxt = tl.load(x_ptr + offs + 1, mask=offs + 1 < n)
    last = m & ((offs + 1 == n) | (x != nxt))
    # a run's length: (its last position + 1) - its first position
    tl.atomic_add(cnt_ptr + run, tl.where(last, offs + 1, 0) - tl.where(start, offs, 0), mask=start | last)
    tl.store(nout_ptr, tl.sum(start.to(tl.int32), 0))


@triton.jit
def complex_ops_kernel(z_ptr, abs_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # complex64 as [n, 2] floats: |z| by hypot, angle by atan2, exp(z) and
    # z * conj(z) + i written back interleaved
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    two = tl.arange(0, 2)
    zz = tl.load(z_ptr + offs[:, None] * 2 + two[None, :], mask=m[:, None], other=0.0)
    re, im = tl.split(zz)
    tl.store(abs_ptr + offs * 2, libdevice.hypot(re, im), mask=m)
    tl.store(abs_ptr + offs * 2 + 1, libdevice.atan2(im, re), mask=m)
    e = tl.exp(re)
    ez = tl.join(e * tl.cos(im), e * tl.sin(im))
    tl.store(out_ptr + offs[:, None] * 2 + two[None, :], ez, mask=m[:, None])


@triton.jit
def sinkhorn_kernel(x_ptr, out_ptr, iters_ptr, N, tol, max_iter, BLOCK: tl.constexpr):
    # Sinkhorn-Knopp on one exp(x) matrix per program: alternate row and
    # column normalisation until every row sums to 1 within tol (a while
    # loop on a reduced condition and an iteration cap)
    b = tl.program_id(0).to(tl.int64)
    r = tl.arange(0, BLOCK)
    m = (r < N)[:, None] & (r < N)[None, :]
    x = tl.load(x_ptr + b * N * N + r[:, None] * N + r[None, :], mask=m, other=float("-inf"))
    p = tl.exp(x - tl.max(tl.max(x, 1), 0))
    it = 0
    err = float("inf")
    while (err > tol) and (it < max_iter):
        p = p / tl.where(r < N, tl.sum(p, 0), 1.0)[None, :]
        rs = tl.sum(p, 1)
        err = tl.max(tl.where(r < N, tl.abs(rs - 1.0), 0.0), 0)
        p = p / tl.where(r < N, rs, 1.0)[:, None]
        it += 1
    tl.store(out_ptr + b * N * N + r[:, None] * N + r[None, :], p, mask=m)
    tl.store(iters_ptr + b, it)


@triton.jit
def radix_pass_kernel(keys_ptr, vals_ptr, out_keys_ptr, out_vals_ptr, n, shift, BLOCK: tl.constexpr):
    # one stable pass of an LSD radix sort over 4-bit digits, one block:
    # tl.histogram of the digits, an exclusive cumsum of it for the digit
    # offsets, the rank among equal digits from a [BLOCK, BLOCK] compare
    offs = tl.arange(0, BLOCK)
    m = offs < n
    k = tl.load(keys_ptr + offs, mask=m, other=0xFFFFFFFF)
    v = tl.load(vals_ptr + offs, mask=m, other=0)
    d = ((k >> shift) & 15).to(tl.int32)
    hist = tl.histogram(d, 16, mask=m)
    start = tl.cumsum(hist, 0) - hist
    before = (d[None, :] == d[:, None]) & (offs[None, :] < offs[:, None]) & m[None, :]
    rank = tl.sum(before.to(tl.int32), 1)
    base = tl.gather(start, d, 0)
    dst = base + rank
    tl.store(out_keys_ptr + dst, k, mask=m)
    tl.store(out_vals_ptr + dst, v, mask=m)


@triton.jit
def segment_max_kernel(x_ptr, seg_ptr, smax_ptr, n, BLOCK: tl.constexpr):
    # scatter_softmax's first pass: a float atomic_max per segment
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=float("-inf"))
    s = tl.load(seg_ptr + offs, mask=m, other=0)
    tl.atomic_max(smax_ptr + s, x, mask=m)


@triton.jit
def segment_softmax_kernel(x_ptr, seg_ptr, smax_ptr, ssum_ptr, out_ptr, n, PASS: tl.constexpr, BLOCK: tl.constexpr):
    # PASS 0: the sums of exp(x - max) per segment (atomics); PASS 1: divide
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    s = tl.load(seg_ptr + offs, mask=m, other=0)
    e = tl.exp(x - tl.load(smax_ptr + s, mask=m, other=0.0))
    if PASS == 0:
        tl.atomic_add(ssum_ptr + s, e, mask=m)
    else:
        tl.store(out_ptr + offs, e / tl.load(ssum_ptr + s, mask=m, other=1.0), mask=m)


@triton.jit
def lstm_cell_kernel(x_ptr, h_ptr, c_ptr, w_ptr, u_ptr, b_ptr, h_out_ptr, c_out_ptr, B, I, H: tl.constexpr,
                     BLOCK_B: tl.constexpr, BLOCK_I: tl.constexpr):
    # one LSTM step, gates i, f, g, o from x @ W + h @ U + b (W [I, 4H],
    # U [H, 4H], fp16 operands, fp32 accumulation), one gate per tl.dot
    rb = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    rh = tl.arange(0, H)
    bm = rb < B
    h = tl.load(h_ptr + rb[:, None] * H + rh[None, :], mask=bm[:, None], other=0.0)
    gates = ()
    for gi in tl.static_range(4):
        acc = tl.zeros([BLOCK_B, H], tl.float32)
        for i0 in range(0, I, BLOCK_I):
            ri = i0 + tl.arange(0, BLOCK_I)
            xt = tl.load(x_ptr + rb[:, None] * I + ri[None, :], mask=bm[:, None] & (ri < I)[None, :], other=0.0)
            wt = tl.load(w_ptr + ri[:, None] * (4 * H) + gi * H + rh[None, :], mask=(ri < I)[:, None], other=0.0)
            acc = tl.dot(xt, wt, acc)
        ut = tl.load(u_ptr + rh[:, None] * (4 * H) + gi * H + rh[None, :])
        acc = tl.dot(h, ut, acc) + tl.load(b_ptr + gi * H + rh)[None, :]
        gates = gates + (acc,)
    i_g = tl.sigmoid(gates[0])
    f_g = tl.sigmoid(gates[1])
    g_g = 2 * tl.sigmoid(2 * gates[2]) - 1
    o_g = tl.sigmoid(gates[3])
    c = tl.load(c_ptr + rb[:, None] * H + rh[None, :], mask=bm[:, None], other=0.0)
    c_new = f_g * c + i_g * g_g
    h_new = o_g * (2 * tl.sigmoid(2 * c_new) - 1)
    tl.store(c_out_ptr + rb[:, None] * H + rh[None, :], c_new, mask=bm[:, None])
    tl.store(h_out_ptr + rb[:, None] * H + rh[None, :], h_new.to(h_out_ptr.dtype.element_ty), mask=bm[:, None])


@triton.jit
def multi_tensor_scale_kernel(ptrs_ptr, outs_ptr, numels_ptr, chunk_tensor_ptr, chunk_idx_ptr, scale, found_inf_ptr,
                              CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    # apex-style multi_tensor_apply: each program one chunk of one tensor of
    # a list given as int64 address tables; out = in * scale, and a flag set
    # when a non-finite value is seen
    pid = tl.program_id(0)
    t = tl.load(chunk_tensor_ptr + pid)
    ci = tl.load(chunk_idx_ptr + pid)
    src = tl.load(ptrs_ptr + t).to(tl.pointer_type(tl.float32))
    dst = tl.load(outs_ptr + t).to(tl.pointer_type(tl.float16))
    n = tl.load(numels_ptr + t)
    bad = 0
    for b0 in tl.static_range(0, CHUNK, BLOCK):
        offs = ci * CHUNK + b0 + tl.arange(0, BLOCK)
        m = offs < n
        v = tl.load(src + offs, mask=m, other=0.0)
        bad += tl.sum((tl.abs(v) == float("inf")) | (v != v), 0).to(tl.int32)
        tl.store(dst + offs, (v * scale).to(tl.float16), mask=m)
    if bad > 0:
        tl.atomic_xchg(found_inf_ptr, 1)


@triton.jit
def _first_max(v1, i1, c1, v2, i2, c2, COUNT_TIES: tl.constexpr = True):
    # (max, first index of it, how many times it occurs)
    gt = v2 > v1
    eq = v2 == v1
    v = tl.where(gt, v2, v1)
    i = tl.where(gt, i2, tl.where(eq, tl.minimum(i1, i2), i1))
    if COUNT_TIES:
        c = tl.where(gt, c2, tl.where(eq, c1 + c2, c1))
    else:
        c = tl.where(gt, c2, c1)
    return v, i, c


@triton.jit
def tuple_reduce_kernel(x_ptr, v_ptr, i_ptr, c_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # a three-tensor tl.reduce over axis 1 with keep_dims, its combine a
    # helper whose constexpr default decides a branch
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    m = (rm < M)[:, None] & (rn < N)[None, :]
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=m, other=-2147483648)
    idx = tl.broadcast_to(rn[None, :], [BLOCK_M, BLOCK_N])
    one = tl.where(m, 1, 0)
    v, i, c = tl.reduce((x, idx, one), 1, _first_max, keep_dims=True)
    tl.static_assert(v.shape[1] == 1)
    tl.store(v_ptr + rm[:, None], v, mask=(rm < M)[:, None])
    tl.store(i_ptr + rm[:, None], i, mask=(rm < M)[:, None])
    tl.store(c_ptr + rm[:, None], c, mask=(rm < M)[:, None])


@triton.jit
def fp64_stats_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    # sum, sum of squares, min and max of an fp64 vector: fp64 atomics, the
    # partials in fp64 end to end
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(acc_ptr, tl.sum(x, 0))
    tl.atomic_add(acc_ptr + 1, tl.sum(x * x, 0))
    tl.atomic_min(acc_ptr + 2, tl.min(tl.where(m, x, float("inf")), 0))
    tl.atomic_max(acc_ptr + 3, tl.max(tl.where(m, x, float("-inf")), 0))
