# KERNEL: paged_attn_decode_partition
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16,fp32,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16
# CONSTEXPR: QUERY_GROUP=4, QG_PAD=16, HEAD_DIM=128, KV_BLOCK=16, PARTITION=256
# GRID: num_seqs, num_kv_heads, cdiv(max_context, PARTITION)
#
# KERNEL: paged_attn_reduce
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16
# CONSTEXPR: HEAD_DIM=128, PARTITION=256, MAX_PARTS=16
# GRID: num_seqs, num_heads
#
# KERNEL: fused_moe_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,*i32:16,*i32:16,*i32:16,i32:16,i32:16,i32,i32,i32:16,constexpr,i32:16,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_ak=1, stride_bn=1, stride_cn=1, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, MUL_ROUTED_WEIGHT=True, top_k=2, compute_type=tl.float16
# GRID: cdiv(EM, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)
#
# KERNEL: moe_expert_histogram
# SIGNATURE: *i32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=1024
# GRID: cdiv(numel, BLOCK)
#
# KERNEL: moe_align_offsets
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK_M=64, E_PAD=64
# GRID: 1
#
# KERNEL: moe_align_scatter
# SIGNATURE: *i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=1024
# GRID: cdiv(numel, BLOCK)
#
# KERNEL: per_token_quant_int8
# SIGNATURE: *bf16:16,*i8:16,*fp32:16,i32:16,i32:16,i32
# CONSTEXPR: BLOCK=4096
# GRID: num_tokens
#
# KERNEL: int8_scaled_mm
# SIGNATURE: *i8:16,*i8:16,*fp32:16,*fp32:16,*bf16:16,*bf16:16,i32,i32,i32,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_ak=1, stride_bn=1, stride_cn=1, BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, HAS_BIAS=True
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: scaled_fp8_quant
# SIGNATURE: *fp16:16,*fp8e4nv:16,*fp32:16,i64
# CONSTEXPR: BLOCK=1024, FP8_MAX=448.0
# GRID: cdiv(n, BLOCK)
#
# KERNEL: per_token_group_quant_fp8
# SIGNATURE: *bf16:16,*fp8e4nv:16,*fp32:16,i32:16,i32:16,i32:16,fp32,fp32,fp32
# CONSTEXPR: BLOCK=128, SCALE_UE8M0=False
# GRID: num_groups
#
# KERNEL: per_token_group_quant_fp8
# SIGNATURE: *fp16:16,*fp8e4nv:16,*fp32:16,i32:16,i32:16,i32:16,fp32,fp32,fp32
# CONSTEXPR: BLOCK=128, SCALE_UE8M0=True
# GRID: num_groups
#
# KERNEL: w4a16_matmul
# SIGNATURE: *fp16:16,*u8:16,*fp16:16,*u8:16,*fp16:16,i32,i32:16,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_ak=1, stride_bn=1, stride_sn=1, stride_cn=1, GROUP_K=128, BLOCK_M=32, BLOCK_N=64, BLOCK_K=64, HAS_ZERO=True
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: w4a16_matmul
# SIGNATURE: *fp16:16,*u8:16,*fp16:16,*u8:16,*fp16:16,i32,i32:16,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_ak=1, stride_bn=1, stride_sn=1, stride_cn=1, GROUP_K=64, BLOCK_M=16, BLOCK_N=128, BLOCK_K=32, HAS_ZERO=False
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: chunk_simple_gla_fwd
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp32:16,fp32,i32
# CONSTEXPR: H=4, K=64, V=64, BT=32, BV=32, USE_INITIAL_STATE=True, STORE_FINAL_STATE=True
# GRID: cdiv(V, BV), B * H
#
# KERNEL: causal_conv1d_fwd
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,constexpr,i32,i32,i32,i32,constexpr
# CONSTEXPR: stride_xl=1, stride_ol=1, KW=4, BLOCK_D=32, BLOCK_L=64, HAS_BIAS=True, HAS_STATE=True, SILU=True
# GRID: batch, cdiv(dim, BLOCK_D), cdiv(seqlen, BLOCK_L)
#
# KERNEL: sample_tokens
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,*fp32:16,i64,i32,i32:16
# CONSTEXPR: BLOCK_V=1024
# GRID: num_rows
#
# KERNEL: segment_mean_pool
# SIGNATURE: *bf16:16,*i32:16,*fp32:16,i32,i32:16,i32:16
# CONSTEXPR: BLOCK_T=32, BLOCK_D=128
# GRID: num_segments, cdiv(D, BLOCK_D)
#
# KERNEL: linear_recurrence_fwd
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16,i32:16
# CONSTEXPR: BLOCK_T=64, BLOCK_D=32
# GRID: batch, cdiv(D, BLOCK_D)
#
# KERNEL: fused_recurrent_gla_fwd
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16,*fp32:16,*fp32:16,*bf16:16,*i32:16,fp32,i32
# CONSTEXPR: H=4, K=64, V=64, BK=64, BV=32, USE_INITIAL_STATE=True, STORE_FINAL_STATE=True, IS_VARLEN=False
# GRID: cdiv(V, BV), cdiv(K, BK), B * H
#
# KERNEL: fused_recurrent_gla_fwd
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*fp16:16,*i32:16,fp32,i32
# CONSTEXPR: H=2, K=128, V=64, BK=64, BV=64, USE_INITIAL_STATE=False, STORE_FINAL_STATE=False, IS_VARLEN=True
# GRID: cdiv(V, BV), cdiv(K, BK), N * H
#
# KERNEL: w8a8_block_fp8_matmul
# SIGNATURE: *fp8e4nv:16,*fp8e4nv:16,*bf16:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr,i32,i32,i32,i32
# CONSTEXPR: stride_ak=1, stride_bn=1, stride_cn=1, BLOCK_M=64, BLOCK_N=128, BLOCK_K=128
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: awq_dequantize
# SIGNATURE: *i32:16,*fp16:16,*i32:16,*fp16:16,i32,i32
# CONSTEXPR: GROUP=128, BLOCK_K=32, BLOCK_N8=8
# GRID: cdiv(K, BLOCK_K), cdiv(N8, BLOCK_N8)
#
# KERNEL: nf4_dequantize
# SIGNATURE: *u8:16,*fp32:16,*fp32:16,*bf16:16,i32
# CONSTEXPR: BLOCKSIZE=64, BLOCK=512
# GRID: cdiv(n_bytes, BLOCK)
#
# Kernels in the style of LLM inference and quantisation libraries (vLLM,
# SGLang, flash-linear-attention, bitsandbytes/AWQ). Paged-attention decode
# split over context partitions (physical KV blocks gathered through a block
# table, grouped-query heads padded to a tl.dot tile, an online softmax, an
# early return for empty partitions) and the kernel that merges the
# partitions; a fused-MoE grouped GEMM over sorted token ids (GROUP_SIZE_M
# swizzle, per-block expert ids with a -1 "not local" expert, gathered A
# rows, routed weights, a dtype constexpr) with the three kernels that align
# tokens to experts (histogram by tl.atomic_add, padded offsets by
# tl.cumsum, a scatter through the old values atomic_add returns); per-token
# int8 quantisation (libdevice.round) and an int8 x int8 -> int32 GEMM with
# block pointers and per-row / per-column scales; fp8 e4m3 quantisation per
# tensor and per token group (power-of-two scales under a flag); a w4a16
# matmul unpacking two 4-bit weights per byte (shifts, masks, tl.join,
# tl.permute, tl.reshape) with group scales and zero points; a chunked
# linear-attention forward with a scalar gate (tl.cumsum of log decays,
# intra-chunk tl.dot with a causal decay mask, a carried [K, V] state);
# a causal depthwise conv1d over a sequence with an initial and a final
# state (a 3-D grid, tl.static_range over taps); temperature + Gumbel
# sampling over vocabulary chunks (tl.rand, running argmax, online
# logsumexp, a runtime if on a loaded scalar); a mean pool over ragged
# segments given by cu_seqlens; a chunked linear recurrence by
# tl.associative_scan with a @jit combine function and a carried state;
# a token-by-token gated linear attention under @triton.heuristics (None
# pointers for optional states, variable-length batches through
# cu_seqlens, a parameter reassigned, do_not_specialize); a block-scaled
# fp8 GEMM (fp8 x fp8 tl.dot, per-group scales of A and B); AWQ int32
# dequantisation (tl.interleave, a reordered shift table); bitsandbytes
# NF4 dequantisation (a 16-entry codebook gathered by nibble, per-block
# absmax, tl.interleave).
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def paged_attn_decode_partition(
        tmp_out_ptr, max_logits_ptr, exp_sums_ptr,
        q_ptr, k_cache_ptr, v_cache_ptr, block_tables_ptr, context_lens_ptr, scale,
        stride_qs, stride_qh, stride_kb, stride_kh, stride_kt, stride_bt,
        stride_ts, stride_th, stride_tp, stride_ms, stride_mh,
        QUERY_GROUP: tl.constexpr, QG_PAD: tl.constexpr, HEAD_DIM: tl.constexpr,
        KV_BLOCK: tl.constexpr, PARTITION: tl.constexpr):
    seq = tl.program_id(0)
    kv_head = tl.program_id(1)
    part = tl.program_id(2)
    context_len = tl.load(context_lens_ptr + seq)
    start = part * PARTITION
    if start >= context_len:
        return
    end = tl.minimum(start + PARTITION, context_len)

    g = tl.arange(0, QG_PAD)
    d = tl.arange(0, HEAD_DIM)
    t = tl.arange(0, KV_BLOCK)
    heads = kv_head * QUERY_GROUP + g
    g_mask = g < QUERY_GROUP
    q = tl.load(q_ptr + seq * stride_qs + heads[:, None] * stride_qh + d[None, :],
                mask=g_mask[:, None], other=0.0)
    q = (q * scale).to(k_cache_ptr.dtype.element_ty)

    m_i = tl.full([QG_PAD], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([QG_PAD], dtype=tl.float32)
    acc = tl.zeros([QG_PAD, HEAD_DIM], dtype=tl.float32)
    for blk_start in range(start, end, KV_BLOCK):
        phys = tl.load(block_tables_ptr + seq * stride_bt + blk_start // KV_BLOCK).to(tl.int64)
        tok = blk_start + t
        t_mask = tok < end
        kv_off = phys * stride_kb + kv_head * stride_kh + t[:, None] * stride_kt + d[None, :]
        k = tl.load(k_cache_ptr + kv_off, mask=t_mask[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k))
        s = tl.where(t_mask[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        v = tl.load(v_cache_ptr + kv_off, mask=t_mask[:, None], other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        m_i = m_new

    acc = acc / l_i[:, None]
    o_ptrs = tmp_out_ptr + seq * stride_ts + heads[:, None] * stride_th + part * stride_tp + d[None, :]
    tl.store(o_ptrs, acc, mask=g_mask[:, None])
    ml_off = seq * stride_ms + heads * stride_mh + part
    tl.store(max_logits_ptr + ml_off, m_i, mask=g_mask)
    tl.store(exp_sums_ptr + ml_off, l_i, mask=g_mask)


@triton.jit
def paged_attn_reduce(out_ptr, tmp_out_ptr, max_logits_ptr, exp_sums_ptr, context_lens_ptr,
                      stride_os, stride_oh, stride_ts, stride_th, stride_tp, stride_ms, stride_mh,
                      HEAD_DIM: tl.constexpr, PARTITION: tl.constexpr, MAX_PARTS: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    context_len = tl.load(context_lens_ptr + seq)
    num_parts = tl.cdiv(context_len, PARTITION)
    p = tl.arange(0, MAX_PARTS)
    p_mask = p < num_parts
    ml_off = seq * stride_ms + head * stride_mh + p
    m = tl.load(max_logits_ptr + ml_off, mask=p_mask, other=float("-inf"))
    global_max = tl.max(m, axis=0)
    l = tl.load(exp_sums_ptr + ml_off, mask=p_mask, other=0.0)
    w = l * tl.exp(m - global_max)
    w = w / tl.sum(w, axis=0)
    d = tl.arange(0, HEAD_DIM)
    o = tl.load(tmp_out_ptr + seq * stride_ts + head * stride_th + p[:, None] * stride_tp + d[None, :],
                mask=p_mask[:, None], other=0.0)
    out = tl.sum(o * w[:, None], axis=0)
    tl.store(out_ptr + seq * stride_os + head * stride_oh + d, out.to(out_ptr.dtype.element_ty))


@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
                     num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens,
                     stride_am, stride_ak, stride_be, stride_bk, stride_bn, stride_cm, stride_cn,
                     BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                     GROUP_SIZE_M: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr, top_k: tl.constexpr,
                     compute_type: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)

    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    if off_experts == -1:
        # the expert lives on another rank: its rows are zero here
        tl.store(c_ptrs, tl.zeros([BLOCK_SIZE_M, BLOCK_SIZE_N], dtype=compute_type), mask=c_mask)
        return

    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_token[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + off_experts * stride_be + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_SIZE_K), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        accumulator = accumulator * moe_weight[:, None]
    accumulator = accumulator.to(compute_type)
    tl.store(c_ptrs, accumulator, mask=c_mask)


@triton.jit
def moe_expert_histogram(topk_ids_ptr, counts_ptr, numel, num_experts, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < numel
    expert = tl.load(topk_ids_ptr + offs, mask=in_range, other=-1)
    valid = in_range & (expert >= 0) & (expert < num_experts)
    tl.atomic_add(counts_ptr + expert, 1, mask=valid, sem="relaxed")


@triton.jit
def moe_align_offsets(counts_ptr, cursor_ptr, expert_ids_ptr, total_ptr, num_experts,
                      BLOCK_M: tl.constexpr, E_PAD: tl.constexpr):
    e = tl.arange(0, E_PAD)
    e_mask = e < num_experts
    counts = tl.load(counts_ptr + e, mask=e_mask, other=0)
    padded = tl.cdiv(counts, BLOCK_M) * BLOCK_M
    starts = tl.cumsum(padded, axis=0) - padded
    tl.store(cursor_ptr + e, starts, mask=e_mask)
    tl.store(total_ptr, tl.sum(padded, axis=0))
    for i in range(num_experts):
        first = tl.sum(tl.where(e == i, starts, 0), axis=0) // BLOCK_M
        nblk = tl.sum(tl.where(e == i, padded, 0), axis=0) // BLOCK_M
        for j in range(nblk):
            tl.store(expert_ids_ptr + first + j, i)


@triton.jit
def moe_align_scatter(topk_ids_ptr, cursor_ptr, sorted_token_ids_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < numel
    expert = tl.load(topk_ids_ptr + offs, mask=in_range, other=0)
    pos = tl.atomic_add(cursor_ptr + expert, 1, mask=in_range)
    tl.store(sorted_token_ids_ptr + pos, offs, mask=in_range)


@triton.jit
def per_token_quant_int8(x_ptr, xq_ptr, scale_ptr, stride_x, stride_xq, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(x)), 1e-10)
    scale_x = absmax / 127
    x_q = libdevice.round(x * (127 / absmax))
    x_q = tl.clamp(x_q, -127.0, 127.0).to(tl.int8)
    tl.store(xq_ptr + row * stride_xq + cols, x_q, mask=mask)
    tl.store(scale_ptr + row, scale_x)


@triton.jit
def int8_scaled_mm(a_ptr, b_ptr, scale_a_ptr, scale_b_ptr, bias_ptr, c_ptr, M, N, K,
                   stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   HAS_BIAS: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                             offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                             offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        a_bp = tl.advance(a_bp, (0, BLOCK_K))
        b_bp = tl.advance(b_bp, (BLOCK_K, 0))
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    scale_a = tl.load(scale_a_ptr + offs_m, mask=offs_m < M, other=0.0)
    scale_b = tl.load(scale_b_ptr + offs_n, mask=offs_n < N, other=0.0)
    c = acc.to(tl.float32) * scale_a[:, None] * scale_b[None, :]
    if HAS_BIAS:
        c += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    c_bp = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                             offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N),
                             order=(1, 0))
    tl.store(c_bp, c.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def scaled_fp8_quant(x_ptr, y_ptr, scale_ptr, n, BLOCK: tl.constexpr, FP8_MAX: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    inv_scale = 1.0 / tl.load(scale_ptr)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.clamp(x * inv_scale, -FP8_MAX, FP8_MAX).to(y_ptr.dtype.element_ty)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def per_token_group_quant_fp8(y_ptr, y_q_ptr, y_s_ptr, group_size, y_num_columns, y_row_stride,
                              eps, fp8_min, fp8_max, BLOCK: tl.constexpr, SCALE_UE8M0: tl.constexpr):
    groups_per_row = y_num_columns // group_size
    g_id = tl.program_id(0)
    row = g_id // groups_per_row
    row_g_id = g_id % groups_per_row
    y_ptr += (row * y_row_stride + row_g_id * group_size).to(tl.int64)
    y_q_ptr += g_id.to(tl.int64) * group_size
    y_s_ptr += g_id

    cols = tl.arange(0, BLOCK)
    mask = cols < group_size
    y = tl.load(y_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    _absmax = tl.maximum(tl.max(tl.abs(y)), eps)
    y_s = _absmax / fp8_max
    if SCALE_UE8M0:
        y_s = tl.exp2(tl.ceil(tl.log2(tl.abs(y_s))))
    y_q = tl.clamp(y / y_s, fp8_min, fp8_max).to(y_q_ptr.dtype.element_ty)
    tl.store(y_q_ptr + cols, y_q, mask=mask)
    tl.store(y_s_ptr, y_s)


@triton.jit
def _unpack_int4_rows(packed, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    # byte i of a column holds rows 2i (low nibble) and 2i+1 (high nibble)
    lo = packed & 0xF
    hi = (packed >> 4) & 0xF
    w = tl.join(lo, hi)
    w = tl.permute(w, (0, 2, 1))
    return tl.reshape(w, (BLOCK_K, BLOCK_N))


@triton.jit
def w4a16_matmul(a_ptr, b_ptr, scales_ptr, zeros_ptr, c_ptr, M, N, K,
                 stride_am, stride_ak, stride_bk, stride_bn, stride_sg, stride_sn, stride_cm, stride_cn,
                 GROUP_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                 HAS_ZERO: tl.constexpr):
    tl.static_assert(GROUP_K % BLOCK_K == 0)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kp = tl.arange(0, BLOCK_K // 2)
    m_mask = offs_m < M
    n_mask = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None].to(tl.int64) * stride_am + (k0 + offs_k)[None, :] * stride_ak,
                    mask=m_mask[:, None] & ((k0 + offs_k)[None, :] < K), other=0.0)
        kp = k0 // 2 + offs_kp
        packed = tl.load(b_ptr + kp[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                         mask=(kp[:, None] < K // 2) & n_mask[None, :], other=0)
        w = _unpack_int4_rows(packed, BLOCK_K, BLOCK_N)
        grp = k0 // GROUP_K
        s = tl.load(scales_ptr + grp * stride_sg + offs_n * stride_sn, mask=n_mask, other=0.0).to(tl.float32)
        if HAS_ZERO:
            z = tl.load(zeros_ptr + grp * stride_sg + offs_n * stride_sn, mask=n_mask, other=0).to(tl.float32)
            b = (w.to(tl.float32) - z[None, :]) * s[None, :]
        else:
            b = (w.to(tl.float32) - 8.0) * s[None, :]
        acc = tl.dot(a, b.to(a_ptr.dtype.element_ty), acc)
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn, c,
             mask=m_mask[:, None] & n_mask[None, :])


@triton.jit
def chunk_simple_gla_fwd(q, k, v, g, h0, o, ht, scale, T,
                         H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr,
                         BV: tl.constexpr, USE_INITIAL_STATE: tl.constexpr, STORE_FINAL_STATE: tl.constexpr):
    # q, k: [B, T, H, K]; v, o: [B, T, H, V]; g: [B, T, H] log decays; h0, ht: [B, H, K, V]
    i_v, i_bh = tl.program_id(0), tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    o_t = tl.arange(0, BT)
    o_k = tl.arange(0, K)
    o_v = i_v * BV + tl.arange(0, BV)
    b_h = tl.zeros([K, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        b_h += tl.load(h0 + i_bh * K * V + o_k[:, None] * V + o_v[None, :])
    causal = o_t[:, None] >= o_t[None, :]
    for i_t in range(0, tl.cdiv(T, BT)):
        t = i_t * BT + o_t
        m_t = t < T
        row = (i_b * T + t).to(tl.int64) * H + i_h
        b_q = tl.load(q + row[:, None] * K + o_k[None, :], mask=m_t[:, None], other=0.0)
        b_k = tl.load(k + row[:, None] * K + o_k[None, :], mask=m_t[:, None], other=0.0)
        b_v = tl.load(v + row[:, None] * V + o_v[None, :], mask=m_t[:, None], other=0.0)
        b_g = tl.cumsum(tl.load(g + row, mask=m_t, other=0.0), axis=0)
        b_g_last = tl.sum(tl.where(o_t == BT - 1, b_g, 0.0), axis=0)

        b_o = tl.dot(b_q, b_h.to(b_q.dtype)) * tl.exp(b_g)[:, None]
        b_s = tl.dot(b_q, tl.trans(b_k))
        b_s = b_s * tl.exp(tl.where(causal, b_g[:, None] - b_g[None, :], float("-inf")))
        b_o = (b_o + tl.dot(b_s.to(b_v.dtype), b_v)) * scale
        tl.store(o + row[:, None] * V + o_v[None, :], b_o.to(o.dtype.element_ty), mask=m_t[:, None])

        b_kd = (b_k * tl.exp(b_g_last - b_g)[:, None]).to(b_k.dtype)
        b_h = b_h * tl.exp(b_g_last) + tl.dot(tl.trans(b_kd), b_v)
    if STORE_FINAL_STATE:
        tl.store(ht + i_bh * K * V + o_k[:, None] * V + o_v[None, :], b_h)


@triton.jit
def causal_conv1d_fwd(x_ptr, w_ptr, bias_ptr, state_ptr, final_state_ptr, out_ptr, dim, seqlen,
                      stride_xb, stride_xd, stride_xl, stride_sb, stride_sd, stride_ob, stride_od, stride_ol,
                      KW: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr,
                      HAS_BIAS: tl.constexpr, HAS_STATE: tl.constexpr, SILU: tl.constexpr):
    # x, out: [batch, dim, seqlen]; w: [dim, KW]; state: [batch, dim, KW - 1], the inputs before x
    b = tl.program_id(0)
    pid_d = tl.program_id(1)
    pid_l = tl.program_id(2)
    d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    pos = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    d_mask = d < dim
    x_base = x_ptr + b.to(tl.int64) * stride_xb + d[:, None] * stride_xd
    s_base = state_ptr + b.to(tl.int64) * stride_sb + d[:, None] * stride_sd
    acc = tl.zeros([BLOCK_D, BLOCK_L], dtype=tl.float32)
    if HAS_BIAS:
        acc += tl.load(bias_ptr + d, mask=d_mask, other=0.0).to(tl.float32)[:, None]
    for j in tl.static_range(KW):
        w = tl.load(w_ptr + d * KW + j, mask=d_mask, other=0.0).to(tl.float32)
        src = pos - (KW - 1) + j
        xv = tl.load(x_base + src[None, :] * stride_xl,
                     mask=d_mask[:, None] & (src[None, :] >= 0) & (src[None, :] < seqlen), other=0.0)
        if HAS_STATE:
            sv = tl.load(s_base + (src + KW - 1)[None, :],
                         mask=d_mask[:, None] & (src[None, :] < 0), other=0.0)
            xv = tl.where(src[None, :] < 0, sv, xv)
        acc += xv.to(tl.float32) * w[:, None]
    if SILU:
        acc = acc * tl.sigmoid(acc)
    tl.store(out_ptr + b.to(tl.int64) * stride_ob + d[:, None] * stride_od + pos[None, :] * stride_ol,
             acc.to(out_ptr.dtype.element_ty), mask=d_mask[:, None] & (pos[None, :] < seqlen))
    if HAS_STATE:
        if pid_l == tl.num_programs(2) - 1:
            # the last KW - 1 inputs become the next call's state
            s = tl.arange(0, KW)
            last = seqlen - (KW - 1) + s
            s_ok = d_mask[:, None] & (s[None, :] < KW - 1)
            x_tail = tl.load(x_base + last[None, :] * stride_xl, mask=s_ok & (last[None, :] >= 0), other=0.0)
            s_tail = tl.load(s_base + (last + KW - 1)[None, :], mask=s_ok & (last[None, :] < 0), other=0.0)
            tl.store(final_state_ptr + b.to(tl.int64) * stride_sb + d[:, None] * stride_sd + s[None, :],
                     tl.where(last[None, :] < 0, s_tail, x_tail), mask=s_ok)


@triton.jit
def sample_tokens(logits_ptr, temperature_ptr, out_token_ptr, out_logprob_ptr, seed, vocab, stride_l,
                  BLOCK_V: tl.constexpr):
    row = tl.program_id(0)
    temp = tl.load(temperature_ptr + row)
    row_ptr = logits_ptr + row.to(tl.int64) * stride_l
    best_val = float("-inf")
    best_idx = 0
    m_run = float("-inf")
    s_run = 0.0
    for start in range(0, vocab, BLOCK_V):
        offs = start + tl.arange(0, BLOCK_V)
        mask = offs < vocab
        x = tl.load(row_ptr + offs, mask=mask, other=float("-inf")).to(tl.float32)
        if temp > 0.0:
            u = tl.rand(seed, row * vocab + offs)
            score = x / temp - tl.log(-tl.log(tl.maximum(u, 1e-20)))
        else:
            score = x
        score = tl.where(mask, score, float("-inf"))
        blk_max, blk_idx = tl.max(score, axis=0, return_indices=True)
        if blk_max > best_val:
            best_val = blk_max
            best_idx = start + blk_idx
        m_new = tl.maximum(m_run, tl.max(x, axis=0))
        s_run = s_run * tl.exp(m_run - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m_run = m_new
    chosen = tl.load(row_ptr + best_idx).to(tl.float32)
    tl.store(out_token_ptr + row, best_idx)
    tl.store(out_logprob_ptr + row, chosen - m_run - tl.log(s_run))


@triton.jit
def segment_mean_pool(x_ptr, cu_seqlens_ptr, out_ptr, D, stride_x, stride_o,
                      BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    seg = tl.program_id(0)
    pid_d = tl.program_id(1)
    start = tl.load(cu_seqlens_ptr + seg)
    end = tl.load(cu_seqlens_ptr + seg + 1)
    d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    d_mask = d < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for t0 in range(start, end, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        x = tl.load(x_ptr + t[:, None].to(tl.int64) * stride_x + d[None, :],
                    mask=(t[:, None] < end) & d_mask[None, :], other=0.0)
        acc += tl.sum(x.to(tl.float32), axis=0)
    n = tl.maximum(end - start, 1)
    tl.store(out_ptr + seg * stride_o + d, acc / n.to(tl.float32), mask=d_mask)


@triton.jit
def _linrec_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_recurrence_fwd(a_ptr, x_ptr, h0_ptr, out_ptr, hT_ptr, T, D, stride_b, stride_t,
                          BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    # h[t] = a[t] * h[t - 1] + x[t] along t, per channel, from h0; hT is the last h
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    d_mask = d < D
    h = tl.load(h0_ptr + pid_b * D + d, mask=d_mask, other=0.0)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        mask = (t[:, None] < T) & d_mask[None, :]
        off = pid_b.to(tl.int64) * stride_b + t[:, None] * stride_t + d[None, :]
        a = tl.load(a_ptr + off, mask=mask, other=1.0)
        x = tl.load(x_ptr + off, mask=mask, other=0.0)
        a_cum, x_cum = tl.associative_scan((a, x), axis=0, combine_fn=_linrec_combine)
        hs = a_cum * h[None, :] + x_cum
        tl.store(out_ptr + off, hs, mask=mask)
        h = tl.sum(tl.where(t[:, None] == t0 + BLOCK_T - 1, hs, 0.0), axis=0)
    tl.store(hT_ptr + pid_b * D + d, h, mask=d_mask)


@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["h0"] is not None,
                    "STORE_FINAL_STATE": lambda args: args["ht"] is not None,
                    "IS_VARLEN": lambda args: args["cu_seqlens"] is not None})
@triton.jit(do_not_specialize=["T"])
def fused_recurrent_gla_fwd(q, k, v, g, h0, ht, o, cu_seqlens, scale, T,
                            H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BK: tl.constexpr,
                            BV: tl.constexpr, USE_INITIAL_STATE: tl.constexpr, STORE_FINAL_STATE: tl.constexpr,
                            IS_VARLEN: tl.constexpr):
    # q, k: [B, T, H, K]; v: [B, T, H, V]; g: [B, T, H]; o: [NK, B, T, H, V] (one slice per K block)
    i_v, i_k, i_nh = tl.program_id(0).to(tl.int64), tl.program_id(1).to(tl.int64), tl.program_id(2).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        all = T
        T = eos - bos
    else:
        bos, eos = i_n * T, i_n * T + T
        all = T * (tl.num_programs(2) // H)
    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    p_q = q + (bos * H + i_h) * K + o_k
    p_k = k + (bos * H + i_h) * K + o_k
    p_v = v + (bos * H + i_h) * V + o_v
    p_g = g + bos * H + i_h
    p_o = o + ((i_k * all + bos) * H + i_h) * V + o_v
    mask_k = o_k < K
    mask_v = o_v < V
    mask_h = mask_k[:, None] & mask_v[None, :]
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = h0 + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        b_h += tl.load(p_h0, mask=mask_h, other=0).to(tl.float32)
    for _ in range(0, T):
        b_q = tl.load(p_q, mask=mask_k, other=0).to(tl.float32) * scale
        b_k = tl.load(p_k, mask=mask_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=mask_v, other=0).to(tl.float32)
        b_g = tl.load(p_g).to(tl.float32)
        b_h = b_h * tl.exp(b_g)
        b_h += b_k[:, None] * b_v[None, :]
        b_o = tl.sum(b_h * b_q[:, None], 0)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=mask_v)
        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_g += H
        p_o += H * V
    if STORE_FINAL_STATE:
        p_ht = ht + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), mask=mask_h)


@triton.jit
def w8a8_block_fp8_matmul(A, B, C, As, Bs, M, N, K, group_n, group_k,
                          stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                          stride_As_m, stride_As_k, stride_Bs_k, stride_Bs_n,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # A: [M, K] fp8 with scales As [M, K / group_k]; B: [K, N] fp8 with scales Bs [K / group_k, N / group_n]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = B + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    As_ptrs = As + offs_am * stride_As_m
    Bs_ptrs = Bs + (offs_bn // group_n) * stride_Bs_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        offs_ks = k * BLOCK_K // group_k
        a_s = tl.load(As_ptrs + offs_ks * stride_As_k)
        b_s = tl.load(Bs_ptrs + offs_ks * stride_Bs_k)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(C.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(C + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :], c,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def awq_dequantize(qweight_ptr, scales_ptr, zeros_ptr, out_ptr, K, N8,
                   GROUP: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N8: tl.constexpr):
    # qweight, zeros: int32 words of eight 4-bit values, column c of a word in nibble
    # AWQ_ORDER[c] = [0, 4, 1, 5, 2, 6, 3, 7][c]; scales and out: [.., N8 * 8]
    pid_k = tl.program_id(0)
    pid_n = tl.program_id(1)
    ok = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    on = pid_n * BLOCK_N8 + tl.arange(0, BLOCK_N8)
    m = (ok[:, None] < K) & (on[None, :] < N8)
    iw = tl.load(qweight_ptr + ok[:, None] * N8 + on[None, :], mask=m, other=0)
    iw = tl.interleave(iw, iw)
    iw = tl.interleave(iw, iw)
    iw = tl.interleave(iw, iw)
    order = ((tl.arange(0, 2) * 4)[None, :] + tl.arange(0, 4)[:, None]).reshape(8)
    shifts = tl.broadcast_to((order * 4)[None, :], (BLOCK_K * BLOCK_N8, 8)).reshape(BLOCK_K, BLOCK_N8 * 8)
    w = (iw >> shifts) & 0xF
    iz = tl.load(zeros_ptr + (ok[:, None] // GROUP) * N8 + on[None, :], mask=m, other=0)
    iz = tl.interleave(iz, iz)
    iz = tl.interleave(iz, iz)
    iz = tl.interleave(iz, iz)
    z = (iz >> shifts) & 0xF
    on8 = pid_n * BLOCK_N8 * 8 + tl.arange(0, BLOCK_N8 * 8)
    m8 = (ok[:, None] < K) & (on8[None, :] < N8 * 8)
    s = tl.load(scales_ptr + (ok[:, None] // GROUP) * N8 * 8 + on8[None, :], mask=m8, other=0.0)
    tl.store(out_ptr + ok[:, None] * N8 * 8 + on8[None, :], ((w - z) * s).to(out_ptr.dtype.element_ty), mask=m8)


@triton.jit
def nf4_dequantize(q_ptr, code_ptr, absmax_ptr, out_ptr, n_bytes, BLOCKSIZE: tl.constexpr, BLOCK: tl.constexpr):
    # byte i holds values 2i (high nibble) and 2i+1 (low nibble); absmax per BLOCKSIZE values
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_bytes
    q = tl.load(q_ptr + offs, mask=m, other=0)
    v_hi = tl.load(code_ptr + (q >> 4))
    v_lo = tl.load(code_ptr + (q & 0xF))
    am = tl.load(absmax_ptr + (offs * 2) // BLOCKSIZE, mask=m, other=0.0)
    out = tl.interleave(v_hi * am, v_lo * am)
    o2 = pid * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(out_ptr + o2, out.to(out_ptr.dtype.element_ty), mask=o2 < 2 * n_bytes)
