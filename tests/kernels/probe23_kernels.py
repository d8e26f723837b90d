# KERNEL: rope_cache_kernel
# SIGNATURE: *bf16:16,*fp32:16,*i64:16,i32,i32
# CONSTEXPR: HQ=6, HKV=2, D=64, BLOCK_H=4
# GRID: T
#
# KERNEL: geglu_bwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: M
#
# KERNEL: rms_norm_bwd_atomic_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: OFFSET=1.0, BLOCK_N=256
# GRID: 5
#
# KERNEL: rms_norm_bwd_atomic_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,*fp32:16,i32,i32:16,i32:16
# CONSTEXPR: OFFSET=0.0, BLOCK_N=1024
# GRID: 132
#
# KERNEL: moe_align_stage1
# SIGNATURE: *i32:16,*i32:16,i32,i32
# CONSTEXPR: NUM_EXPERTS=8
# GRID: NUM_EXPERTS
#
# KERNEL: moe_align_stage2
# SIGNATURE: *i32:16
# CONSTEXPR: NUM_EXPERTS=8
# GRID: NUM_EXPERTS
#
# KERNEL: moe_align_stage3
# SIGNATURE: *i32:16,*i32:16,*i32:16
# CONSTEXPR: NUM_EXPERTS=8, BLOCK_SIZE=16
# GRID: 1
#
# KERNEL: moe_align_stage4
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,*i32:16,i32,i32
# CONSTEXPR: NUM_EXPERTS=8, BLOCK_SIZE=16
# GRID: NUM_EXPERTS
#
# KERNEL: grouped_topk_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,*i32:16,fp32
# CONSTEXPR: E=64, G=8, TOPK_GROUP=3, TOPK=8, RENORM=True
# GRID: T
#
# KERNEL: grouped_topk_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,fp32
# CONSTEXPR: E=256, G=8, TOPK_GROUP=4, TOPK=8, RENORM=False
# GRID: T
#
# KERNEL: persistent_desc_matmul_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, NUM_SMS=132, WS=False
# GRID: NUM_SMS
#
# KERNEL: persistent_desc_matmul_kernel
# SIGNATURE: *bf16:16,*bf16:16,*fp32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=4, NUM_SMS=8, WS=True
# GRID: NUM_SMS
#
# KERNEL: desc_nan_pad_kernel
# SIGNATURE: *fp32:16,*i32:16,i32,i32,i32:16
# CONSTEXPR: BM=16, BN=64
# GRID: cdiv(M, BM)
#
# KERNEL: hist_gather_kernel
# SIGNATURE: *i32:16,*fp32:16,*i32:16,*fp32:16,i32
# CONSTEXPR: NUM_BINS=64, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bit_tricks_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: complex_recurrence_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK_T=64, REVERSE=False
# GRID: R
#
# KERNEL: complex_recurrence_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK_T=1024, REVERSE=True
# GRID: R
#
# KERNEL: reduce_dtypes_kernel
# SIGNATURE: *i8:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=512
# GRID: R
#
# KERNEL: min_p_penalty_kernel
# SIGNATURE: *bf16:16,*i32:16,*i32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,fp32,fp32,fp32
# CONSTEXPR: BLOCK_V=512, BLOCK_T=32
# GRID: R
#
# KERNEL: chunk_fwd_o_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*i32:16,*i32:16,fp32,i32
# CONSTEXPR: H=2, K=32, V=32, BT=16, BK=16, BV=16, IS_VARLEN=True
# GRID: cdiv(V, BV), NT, H
#
# KERNEL: chunk_fwd_o_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,*i32:16,*i32:16,fp32,i32
# CONSTEXPR: H=4, K=64, V=64, BT=64, BK=64, BV=64, IS_VARLEN=False
# GRID: cdiv(V, BV), cdiv(T, BT), B * H
#
# KERNEL: unsloth_rms_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16
# CONSTEXPR: Y_row_stride=100, X_row_stride=128, W_row_stride=1, r_row_stride=1, n_cols=100, eps=1e-06, BLOCK_SIZE=128, GEMMA=False
# GRID: M
#
# KERNEL: unsloth_rms_fwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16
# CONSTEXPR: Y_row_stride=4096, X_row_stride=4096, W_row_stride=1, r_row_stride=1, n_cols=4096, eps=1e-05, BLOCK_SIZE=4096, GEMMA=True
# GRID: M
#
# KERNEL: host_desc_matmul_kernel
# SIGNATURE: tensordesc<fp16[64, 32]>,tensordesc<fp16[32, 32]>,tensordesc<fp16[64, 32]>,i32,i32,i32
# CONSTEXPR: BLOCK_M=64, BLOCK_N=32, BLOCK_K=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: kv_cache_write_fp8_kernel
# SIGNATURE: *bf16:16,*bf16:16,*fp8e4nv:16,*fp8e4nv:16,*i64:16,*fp32,*fp32,i32:16,i32:16
# CONSTEXPR: H=2, D=48, PAGE=4
# GRID: T
#
# KERNEL: kv_cache_write_fp8_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*i64:16,*fp32,*fp32,i32:16,i32:16
# CONSTEXPR: H=8, D=128, PAGE=16
# GRID: T
#
# KERNEL: sink_window_attn_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,fp32,i32
# CONSTEXPR: HQ=4, HKV=2, D=32, WINDOW=20, BLOCK_M=16, BLOCK_N=16
# GRID: cdiv(T, BLOCK_M), HQ
#
# KERNEL: sink_window_attn_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16,fp32,i32
# CONSTEXPR: HQ=64, HKV=8, D=64, WINDOW=0, BLOCK_M=64, BLOCK_N=64
# GRID: cdiv(T, BLOCK_M), HQ
#
# KERNEL: mla_decode_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16,*fp32:16,fp32,i32
# CONSTEXPR: H=10, R=64, P=16, PAGE=16, BLOCK_H=16, BLOCK_N=16
# GRID: B, cdiv(H, BLOCK_H)
#
# KERNEL: mla_decode_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*i32:16,*i32:16,*fp32:16,fp32,i32
# CONSTEXPR: H=16, R=512, P=64, PAGE=64, BLOCK_H=16, BLOCK_N=32
# GRID: B, cdiv(H, BLOCK_H)
#
# KERNEL: mxfp4_dequant_kernel
# SIGNATURE: *u8:16,*u8:16,*bf16:16,i32
# CONSTEXPR: K_PACKED=32, GROUP=32, BLOCK_R=8
# GRID: cdiv(n_rows, BLOCK_R)
#
# KERNEL: ssd_state_passing_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: H=3, DS=40, HAS_INIT=True, BLOCK=32
# GRID: B, H, cdiv(DS, BLOCK)
#
# KERNEL: ssd_state_passing_kernel
# SIGNATURE: *bf16:16,*fp32:16,*bf16:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: H=24, DS=8192, HAS_INIT=False, BLOCK=1024
# GRID: B, H, cdiv(DS, BLOCK)
#
# KERNEL: ce_smooth_kernel
# SIGNATURE: *bf16:16,i32:16,*i64:16,*fp32:16,*i32,i32,i32,fp32,fp32
# CONSTEXPR: BLOCK_V=256, HAS_SOFTCAP=True, REDUCTION="mean"
# GRID: N
#
# KERNEL: ce_smooth_kernel
# SIGNATURE: *fp32:16,i64,*i64:16,*fp32:16,*i32,i32,i64,fp32,fp32
# CONSTEXPR: BLOCK_V=4096, HAS_SOFTCAP=False, REDUCTION="sum"
# GRID: N
#
# KERNEL: fused_add_rmsnorm_rows_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32,fp32,i32:16,i32
# CONSTEXPR: BLOCK_N=512, ROWS=4
# GRID: cdiv(M, ROWS)
#
# KERNEL: edges_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i64
# CONSTEXPR: BLOCK=32
# GRID: 1
#
# KERNEL: dot_f16_out_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16
# CONSTEXPR: M=16, N=16, K=32
# GRID: 1
#
# KERNEL: block_ptr_reverse_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=8, BN=32
# GRID: cdiv(M, BM)
#
# KERNEL: asm_unpack_kernel
# SIGNATURE: *u8:16,*u8:16,*u8:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: asm_unpack_kernel
# SIGNATURE: *u8:16,*u8:16,*u8:16,*fp32:16,i32
# CONSTEXPR: BLOCK=2048
# GRID: cdiv(n, BLOCK)
#
# KERNEL: big_offset_kernel
# SIGNATURE: *i32:16,*i64:16,i32,i64,i64
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: strided_copy_kernel
# SIGNATURE: *bf16,*bf16,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BM=16, BN=32
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: mixed_scalar_kernel
# SIGNATURE: *fp64:16,i1,i64,fp32,u64,*i1,i32
# CONSTEXPR: BLOCK=16
# GRID: 1
#
# KERNEL: compact_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,*i32,*i1:16,i32,fp32
# CONSTEXPR: BLOCK=128, ACT="leaky"
# GRID: cdiv(n, BLOCK)
#
# KERNEL: rowmax_keep_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32,i32
# CONSTEXPR: SHAPES=(8, 20, 50), BN=64
# GRID: M
#
# KERNEL: desc3d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32:16,i32:16
# CONSTEXPR: BM=16, BN=32
# GRID: B, cdiv(M, BM)
#
# KERNEL: py_idioms_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: shift=3, BLOCK=32
# GRID: cdiv(n, BLOCK)
#
# A probe of kernels written the way 2025-2026 users write them (Triton
# 3.4-3.6): vLLM/SGLang serving (cached NeoX rope on a fused qkv view, an
# fp8 KV-cache write with padding slots, gpt-oss attention with sinks and a
# sliding window, MLA decode on a paged latent cache, MXFP4 dequantisation,
# moe_align_block_size's four stages, DeepSeek's grouped top-k routing,
# min-p sampling with penalties counted by atomics), training (GeGLU
# backward, RMSNorm backward with a register dW and one atomic add per
# program, Liger's smoothed/softcapped cross entropy, unsloth's constexpr
# strides and eps, fused add + RMSNorm), flash-linear-attention's chunked
# output with cu_seqlens and an autotuned Config({}), mamba2's state
# passing, a complex recurrence as a 4-tensor scan, tutorial 09's
# persistent loop with in-kernel descriptors and tl.range(flatten=,
# warp_specialize=, disallow_acc_multi_buffer=), host descriptors, NaN
# padding, tl.histogram(mask=), tl.gather, bitcasts, tl.fma, tl.clamp,
# tl.sum(dtype=)/tl.cumsum(dtype=), @triton.constexpr_function,
# tl.static_assert, tl.assume, multi-output tl.inline_asm_elementwise
# (pack=4), int64 offsets, strided views and mixed scalar arguments;
# stream compaction by an atomic ticket and a cumsum, a tuple tl.reduce
# with keep_dims over a constexpr tuple, a rank-3 descriptor, a kernel
# body with a docstring, `pass`, `...` and a runtime conditional expression.
# tests/python/test_probe23_kernels.py runs them against torch.

import triton
import triton.language as tl

# flash-linear-attention names its exp through a module alias (a fast one
# under an environment switch; the plain one here)
exp = tl.exp

# Liger-Kernel's import of tanh, where either libdevice path may be missing
try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh


@triton.constexpr_function
def block_for(n, cap):
    b = 16
    while b < n and b < cap:
        b *= 2
    return b



# ==== %s
@triton.jit
def rope_cache_kernel(qkv_ptr, cos_sin_ptr, pos_ptr, stride_t, stride_cs,
                      HQ: tl.constexpr, HKV: tl.constexpr, D: tl.constexpr,
                      BLOCK_H: tl.constexpr):
    # vLLM-style NeoX rope on the q and k heads of a fused qkv row, in place;
    # cos_sin_cache rows hold [cos(D/2) | sin(D/2)], positions are int64
    t = tl.program_id(0)
    pos = tl.load(pos_ptr + t)
    half: tl.constexpr = D // 2
    d = tl.arange(0, half)
    cos = tl.load(cos_sin_ptr + pos * stride_cs + d).to(tl.float32)
    sin = tl.load(cos_sin_ptr + pos * stride_cs + half + d).to(tl.float32)
    row = qkv_ptr + t.to(tl.int64) * stride_t
    for h0 in tl.static_range(0, HQ + HKV, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        hm = (h < HQ + HKV)[:, None]
        p1 = row + h[:, None] * D + d[None, :]
        x1 = tl.load(p1, mask=hm, other=0.0).to(tl.float32)
        x2 = tl.load(p1 + half, mask=hm, other=0.0).to(tl.float32)
        y1 = x1 * cos[None, :] - x2 * sin[None, :]
        y2 = x2 * cos[None, :] + x1 * sin[None, :]
        tl.store(p1, y1.to(qkv_ptr.dtype.element_ty), mask=hm)
        tl.store(p1 + half, y2.to(qkv_ptr.dtype.element_ty), mask=hm)


@triton.jit
def geglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # exact-erf GeGLU backward, bf16 in, gradients written over a and b
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    dc = tl.load(dc_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    SQRT1_2: tl.constexpr = 0.7071067811865476
    cdf = 0.5 * (1.0 + tl.math.erf(a * SQRT1_2))
    pdf = tl.exp(-0.5 * a * a) * 0.3989422804014327
    gelu = a * cdf
    db = dc * gelu
    da = dc * b * tl.fma(a, pdf, cdf)
    tl.store(a_ptr + row * stride + cols, da.to(tl.bfloat16), mask=m)
    tl.store(b_ptr + row * stride + cols, db.to(tl.bfloat16), mask=m)


@triton.jit
def rms_norm_bwd_atomic_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr,
                               M, N, stride, OFFSET: tl.constexpr, BLOCK_N: tl.constexpr):
    # rows strided over the programs, dW kept in registers, one atomic add per program
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cm = cols < N
    w = tl.load(w_ptr + cols, mask=cm, other=0.0).to(tl.float32) + OFFSET
    dw_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for row in tl.range(pid, M, tl.num_programs(0), num_stages=2):
        off = row.to(tl.int64) * stride
        dy = tl.load(dy_ptr + off + cols, mask=cm, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + off + cols, mask=cm, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        xhat = x * rstd
        wdy = w * dy
        c = tl.sum(xhat * wdy, axis=0) / N
        dx = (wdy - xhat * c) * rstd
        tl.store(dx_ptr + off + cols, dx.to(dx_ptr.dtype.element_ty), mask=cm)
        dw_acc += dy * xhat
    tl.atomic_add(dw_ptr + cols, dw_acc, mask=cm, sem="relaxed")


@triton.jit(do_not_specialize=["numel", "tokens_per_thread"])
def moe_align_stage1(topk_ids_ptr, cnts_ptr, numel, tokens_per_thread,
                     NUM_EXPERTS: tl.constexpr):
    # vLLM's moe_align_block_size in four launches: per-program expert
    # counts (scalar loads and stores in a loop), their column prefix sums,
    # the block-padded offsets, then the scatter of token ids by rank
    pid = tl.program_id(0)
    start = pid * tokens_per_thread
    off_c = (pid + 1) * NUM_EXPERTS
    for i in range(tokens_per_thread):
        if start + i < numel:
            e = tl.load(topk_ids_ptr + start + i)
            c = tl.load(cnts_ptr + off_c + e)
            tl.store(cnts_ptr + off_c + e, c + 1)


@triton.jit
def moe_align_stage2(cnts_ptr, NUM_EXPERTS: tl.constexpr):
    pid = tl.program_id(0)
    last = 0
    for i in range(1, NUM_EXPERTS + 1):
        c = tl.load(cnts_ptr + i * NUM_EXPERTS + pid)
        last = last + c
        tl.store(cnts_ptr + i * NUM_EXPERTS + pid, last)


@triton.jit
def moe_align_stage3(total_post_pad_ptr, cnts_ptr, cumsum_ptr,
                     NUM_EXPERTS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    last = 0
    off = NUM_EXPERTS * NUM_EXPERTS
    for i in range(1, NUM_EXPERTS + 1):
        c = tl.load(cnts_ptr + off + i - 1)
        last = last + tl.cdiv(c, BLOCK_SIZE) * BLOCK_SIZE
        tl.store(cumsum_ptr + i, last)
    tl.store(total_post_pad_ptr, last)


@triton.jit(do_not_specialize=["numel", "tokens_per_thread"])
def moe_align_stage4(topk_ids_ptr, sorted_ids_ptr, expert_ids_ptr, cnts_ptr, cumsum_ptr,
                     numel, tokens_per_thread,
                     NUM_EXPERTS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    start = tl.load(cumsum_ptr + pid)
    end = tl.load(cumsum_ptr + pid + 1)
    for i in range(start, end, BLOCK_SIZE):
        tl.store(expert_ids_ptr + i // BLOCK_SIZE, pid)
    start_idx = pid * tokens_per_thread
    off_t = pid * NUM_EXPERTS
    for i in range(start_idx, tl.minimum(start_idx + tokens_per_thread, numel)):
        e = tl.load(topk_ids_ptr + i)
        c = tl.load(cnts_ptr + off_t + e)
        rank = c + tl.load(cumsum_ptr + e)
        tl.store(sorted_ids_ptr + rank, i)
        tl.store(cnts_ptr + off_t + e, c + 1)


@triton.jit
def _top2_sum(x, axis: tl.constexpr):
    m1 = tl.max(x, axis=axis)
    is1 = x == tl.expand_dims(m1, axis)
    # the first maximum removed, ties kept once
    idx = tl.arange(0, x.shape[axis])
    if axis == 1:
        idx2 = tl.broadcast_to(idx[None, :], x.shape)
    else:
        idx2 = tl.broadcast_to(idx[:, None], x.shape)
    first = tl.min(tl.where(is1, idx2, x.shape[axis]), axis=axis)
    rest = tl.where(idx2 == tl.expand_dims(first, axis), float("-inf"), x)
    return m1 + tl.max(rest, axis=axis)


@triton.jit
def grouped_topk_kernel(logits_ptr, bias_ptr, w_out_ptr, id_out_ptr, scale,
                        E: tl.constexpr, G: tl.constexpr, TOPK_GROUP: tl.constexpr,
                        TOPK: tl.constexpr, RENORM: tl.constexpr):
    # DeepSeek-V3 routing: sigmoid scores + correction bias, groups ranked by
    # the sum of their two best, the best TOPK_GROUP groups kept, then top-k
    t = tl.program_id(0)
    EG: tl.constexpr = E // G
    tl.static_assert(E % G == 0, "experts must split into groups")
    offs = tl.arange(0, E)
    s = tl.sigmoid(tl.load(logits_ptr + t * E + offs).to(tl.float32))
    sb = s + tl.load(bias_ptr + offs)
    sb2 = tl.reshape(sb, (G, EG))
    gscore = _top2_sum(sb2, 1)
    gidx = tl.arange(0, G)
    keep = tl.zeros([G], dtype=tl.int1)
    gs = gscore
    for _ in tl.static_range(TOPK_GROUP):
        best = tl.argmax(gs, axis=0)
        keep = keep | (gidx == best)
        gs = tl.where(gidx == best, float("-inf"), gs)
    masked = tl.where(keep[:, None], sb2, float("-inf"))
    flat = tl.reshape(masked, (E,))
    wsum = 0.0
    for k in tl.static_range(TOPK):
        j = tl.argmax(flat, axis=0)
        w = tl.sum(tl.where(offs == j, s, 0.0), axis=0)
        tl.store(id_out_ptr + t * TOPK + k, j.to(tl.int32))
        tl.store(w_out_ptr + t * TOPK + k, w)
        wsum += w
        flat = tl.where(offs == j, float("-inf"), flat)
    if RENORM:
        ko = tl.arange(0, TOPK)
        ws = tl.load(w_out_ptr + t * TOPK + ko)
        tl.store(w_out_ptr + t * TOPK + ko, ws / wsum * scale)


# ==== %s
@triton.jit
def persistent_desc_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                  GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr, WS: tl.constexpr):
    # tutorial-09 style: descriptors made in the kernel, a flattened persistent loop
    tl.assume(M > 0)
    tl.assume(N > 0)
    tl.assume(K > 0)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WS,
                            disallow_acc_multi_buffer=True):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in tl.range(k_tiles, num_stages=3, loop_unroll_factor=1):
            a = a_desc.load([offs_am, ki * BLOCK_K])
            b = b_desc.load([offs_bn, ki * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([offs_am, offs_bn], acc.to(c_desc.dtype))


@triton.jit
def desc_nan_pad_kernel(x_ptr, y_ptr, M, N, stride_m,
                        BM: tl.constexpr, BN: tl.constexpr):
    # a descriptor whose out-of-bounds reads are NaN, its NaNs counted per row
    pid = tl.program_id(0)
    d = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_m, 1],
                                  block_shape=[BM, BN], padding_option="nan")
    t = d.load([pid * BM, 0])
    nan_count = tl.sum(tl.where(t != t, 1, 0), axis=1)
    rows = pid * BM + tl.arange(0, BM)
    tl.store(y_ptr + rows, nan_count, mask=rows < M)


@triton.jit
def hist_gather_kernel(x_ptr, table_ptr, hist_ptr, out_ptr, n, NUM_BINS: tl.constexpr,
                       BLOCK: tl.constexpr):
    # bin ids of a block: a masked histogram added to the global one, and a
    # lookup of each id through tl.gather on a table held in registers
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    ids = tl.load(x_ptr + offs, mask=m, other=0)
    h = tl.histogram(ids, NUM_BINS, mask=m)
    tl.atomic_add(hist_ptr + tl.arange(0, NUM_BINS), h)
    table = tl.load(table_ptr + tl.arange(0, NUM_BINS))
    v = tl.gather(table, ids, 0)
    tl.store(out_ptr + offs, v, mask=m)


@triton.jit
def bit_tricks_kernel(x_ptr, y_ptr, z_ptr, n, lo, hi, BLOCK: tl.constexpr):
    # a fast inverse square root through bitcasts refined by fma, a sign
    # copy, and a clamp between runtime bounds
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    ax = tl.abs(x)
    i = tl.cast(ax, tl.int32, bitcast=True)
    i = 0x5F3759DF - (i >> 1)
    r = tl.cast(i, tl.float32, bitcast=True)
    half = 0.5 * ax
    for _ in tl.static_range(3):
        r = r * tl.fma(-half, r * r, 1.5)
    sign = x.to(tl.uint32, bitcast=True) & 0x80000000
    signed = (r.to(tl.uint32, bitcast=True) | sign).to(tl.float32, bitcast=True)
    tl.store(y_ptr + offs, signed, mask=m)
    tl.store(z_ptr + offs, tl.clamp(x, lo, hi), mask=m)


@triton.jit
def _cmul_add(ar, ai, br, bi, cr, ci, dr, di):
    # (a, b) then (c, d): h -> c (a h + b) + d
    return (cr * ar - ci * ai, cr * ai + ci * ar,
            cr * br - ci * bi + dr, cr * bi + ci * br + di)


@triton.jit
def complex_recurrence_kernel(ar_ptr, ai_ptr, br_ptr, bi_ptr, hr_ptr, hi_ptr, T,
                              BLOCK_T: tl.constexpr, REVERSE: tl.constexpr):
    # h_t = a_t h_{t-1} + b_t over complex numbers (an LRU/S5 layer) as a
    # 4-tensor associative scan, forward or reversed
    row = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    m = t < T
    base = row * T
    ar = tl.load(ar_ptr + base + t, mask=m, other=1.0)
    ai = tl.load(ai_ptr + base + t, mask=m, other=0.0)
    br = tl.load(br_ptr + base + t, mask=m, other=0.0)
    bi = tl.load(bi_ptr + base + t, mask=m, other=0.0)
    _, _, hr, hi = tl.associative_scan((ar, ai, br, bi), 0, _cmul_add, reverse=REVERSE)
    tl.store(hr_ptr + base + t, hr, mask=m)
    tl.store(hi_ptr + base + t, hi, mask=m)


@triton.jit
def reduce_dtypes_kernel(x_ptr, s_ptr, c_ptr, n, BLOCK: tl.constexpr):
    # bf16 rows summed in fp32 (tl.sum dtype=), an int8 column cumsum into int32
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=0)
    s = tl.sum(x.to(tl.bfloat16), axis=0, dtype=tl.float32)
    tl.store(s_ptr + row, s)
    c = tl.cumsum(x, axis=0, dtype=tl.int32)
    tl.store(c_ptr + row * n + offs, c, mask=m)


@triton.jit
def min_p_penalty_kernel(logits_ptr, tokens_ptr, counts_ptr, temps_ptr, min_p_ptr, probs_ptr,
                         V, n_tok, stride_l, rep_pen, freq_pen, pres_pen,
                         BLOCK_V: tl.constexpr, BLOCK_T: tl.constexpr):
    # output-token penalties (counts by atomics), temperature, softmax, min-p filter
    row = tl.program_id(0)
    tt = tl.arange(0, BLOCK_T)
    toks = tl.load(tokens_ptr + row * n_tok + tt, mask=tt < n_tok, other=-1)
    ok = toks >= 0
    tl.atomic_add(counts_ptr + row * V + toks, 1, mask=ok)
    tl.debug_barrier()
    v = tl.arange(0, BLOCK_V)
    vm = v < V
    lg = tl.load(logits_ptr + row * stride_l + v, mask=vm, other=float("-inf")).to(tl.float32)
    cnt = tl.load(counts_ptr + row * V + v, mask=vm, other=0)
    seen = cnt > 0
    lg = tl.where(seen, tl.where(lg > 0, lg / rep_pen, lg * rep_pen), lg)
    lg = lg - freq_pen * cnt.to(tl.float32) - pres_pen * seen.to(tl.float32)
    temp = tl.load(temps_ptr + row)
    lg = lg / temp
    mx = tl.max(lg, axis=0)
    e = tl.exp(lg - mx)
    p = e / tl.sum(e, axis=0)
    min_p = tl.load(min_p_ptr + row)
    p = tl.where(p < min_p * tl.max(p, axis=0), 0.0, p)
    p = p / tl.sum(p, axis=0)
    tl.store(probs_ptr + row * V + v, p, mask=vm)


# ==== %s


@triton.heuristics({"IS_VARLEN": lambda args: args["cu_seqlens"] is not None})
@triton.autotune(configs=[triton.Config({}, num_warps=w, num_stages=s) for w in [2, 4] for s in [2, 3]],
                 key=["H", "K", "V", "BT"])
@triton.jit(do_not_specialize=["T"])
def chunk_fwd_o_kernel(q, k, v, h, g, o, cu_seqlens, chunk_indices, scale, T,
                       H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr,
                       BK: tl.constexpr, BV: tl.constexpr, IS_VARLEN: tl.constexpr):
    # flash-linear-attention's chunked GLA/retention output: inter-chunk q @ h
    # scaled by exp(g), plus the causal intra-chunk (q k^T * exp(g_i - g_j)) @ v
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    if IS_VARLEN:
        i_tg = i_t
        i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        T = eos - bos
        NT = tl.cdiv(T, BT)
    else:
        NT = tl.cdiv(T, BT)
        i_tg = i_b * NT + i_t
        bos, eos = i_b * T, i_b * T + T
    q += (bos * H + i_h) * K
    k += (bos * H + i_h) * K
    v += (bos * H + i_h) * V
    o += (bos * H + i_h) * V
    g += bos * H + i_h
    h += (i_tg * H + i_h).to(tl.int64) * K * V
    b_o = tl.zeros([BT, BV], dtype=tl.float32)
    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_q = tl.make_block_ptr(q, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_k = tl.make_block_ptr(k, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_h = tl.make_block_ptr(h, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_h = tl.load(p_h, boundary_check=(0, 1))
        b_o += tl.dot(b_q, b_h.to(b_q.dtype))
        b_A += tl.dot(b_q, b_k)
    p_g = tl.make_block_ptr(g, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_g = tl.load(p_g, boundary_check=(0,)).to(tl.float32)
    b_o = b_o * exp(b_g)[:, None]
    b_A = b_A * exp(b_g[:, None] - b_g[None, :])
    o_t = i_t * BT + tl.arange(0, BT)
    m_t = o_t < T
    m_A = (o_t[:, None] >= o_t[None, :]) & (m_t[:, None] & m_t)
    b_A = tl.where(m_A, b_A, 0)
    p_v = tl.make_block_ptr(v, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    p_o = tl.make_block_ptr(o, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_o = b_o * scale + tl.dot(b_A.to(b_v.dtype), b_v) * scale
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def unsloth_rms_fwd_kernel(Y, Y_row_stride: tl.constexpr, X, X_row_stride: tl.constexpr,
                           W, W_row_stride: tl.constexpr, r, r_row_stride: tl.constexpr,
                           n_cols: tl.constexpr, eps: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                           GEMMA: tl.constexpr):
    # unsloth's form: strides, sizes and eps as constexprs, pointers bumped in place
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    Y += row_idx * Y_row_stride
    X += row_idx * X_row_stride
    r += row_idx * r_row_stride
    X_row = tl.load(X + col_offsets, mask=mask, other=0).to(tl.float32)
    W_row = tl.load(W + col_offsets, mask=mask, other=0)
    row_var = tl.sum(X_row * X_row, axis=0) / n_cols
    inv_var = tl.math.rsqrt(row_var + eps)
    tl.store(r, inv_var)
    normed = X_row * inv_var
    if GEMMA:
        output = normed * (W_row + 1.0)
    else:
        normed = normed.to(W_row.dtype)
        output = normed * W_row
    tl.store(Y + col_offsets, output, mask=mask)


@triton.jit
def host_desc_matmul_kernel(a_desc, b_desc, c_desc, M, N, K,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # host TensorDescriptors whose block shapes the autotuner's pre_hook sets
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


# ==== %s
@triton.jit
def kv_cache_write_fp8_kernel(k_ptr, v_ptr, kc_ptr, vc_ptr, slot_ptr, k_scale_ptr, v_scale_ptr,
                              stride_kt, stride_cb,
                              H: tl.constexpr, D: tl.constexpr, PAGE: tl.constexpr):
    # vLLM's reshape_and_cache_flash with an fp8 (e4m3) cache: slot -1 is a
    # padding token and is skipped; cache layout [blocks, PAGE, H, D]
    t = tl.program_id(0)
    slot = tl.load(slot_ptr + t)
    if slot < 0:
        return
    blk = slot // PAGE
    off = slot % PAGE
    tl.static_assert(H * D <= 4096)
    HD: tl.constexpr = block_for(H * D, 4096)
    i = tl.arange(0, HD)
    m = i < H * D
    ks = tl.load(k_scale_ptr)
    vs = tl.load(v_scale_ptr)
    k = tl.load(k_ptr + t * stride_kt + i, mask=m).to(tl.float32)
    v = tl.load(v_ptr + t * stride_kt + i, mask=m).to(tl.float32)
    dst = blk * stride_cb + off * (H * D) + i
    tl.store(kc_ptr + dst, (k / ks).to(kc_ptr.dtype.element_ty), mask=m)
    tl.store(vc_ptr + dst, (v / vs).to(vc_ptr.dtype.element_ty), mask=m)


@triton.jit
def sink_window_attn_kernel(q_ptr, k_ptr, v_ptr, sink_ptr, o_ptr, sm_scale, T,
                            HQ: tl.constexpr, HKV: tl.constexpr, D: tl.constexpr,
                            WINDOW: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # gpt-oss style attention: causal, a sliding window (0: none), one learned
    # sink logit per head in the softmax's denominator, GQA; bf16 [T, H, D]
    start_m = tl.program_id(0)
    h = tl.program_id(1)
    hk = h // (HQ // HKV)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + (offs_m[:, None] * HQ + h) * D + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    sink = tl.load(sink_ptr + h).to(tl.float32)
    RCP_LN2: tl.constexpr = 1.4426950408889634
    qk_scale = sm_scale * RCP_LN2
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) + sink * RCP_LN2
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    hi = tl.minimum((start_m + 1) * BLOCK_M, T)
    if WINDOW > 0:
        lo = tl.maximum(start_m * BLOCK_M - WINDOW + 1, 0) // BLOCK_N * BLOCK_N
    else:
        lo = 0
    for start_n in tl.range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_m = offs_n[:, None] < T
        k = tl.load(k_ptr + (offs_n[:, None] * HKV + hk) * D + offs_d[None, :], mask=kv_m, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        ok = offs_m[:, None] >= offs_n[None, :]
        if WINDOW > 0:
            ok = ok & (offs_m[:, None] - offs_n[None, :] < WINDOW)
        qk = tl.where(ok, qk, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + (offs_n[:, None] * HKV + hk) * D + offs_d[None, :], mask=kv_m, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + (offs_m[:, None] * HQ + h) * D + offs_d[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < T)


@triton.jit
def mla_decode_kernel(q_nope_ptr, q_pe_ptr, ckv_ptr, kpe_ptr, block_table_ptr, seq_lens_ptr, o_ptr,
                      sm_scale, stride_bt, H: tl.constexpr, R: tl.constexpr, P: tl.constexpr,
                      PAGE: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr):
    # DeepSeek MLA decode with absorbed weights: all heads of a token at
    # once against a paged latent cache ([pages, PAGE, R]) and its rope keys
    b = tl.program_id(0)
    hb = tl.program_id(1)
    heads = hb * BLOCK_H + tl.arange(0, BLOCK_H)
    hm = heads < H
    r = tl.arange(0, R)
    pp = tl.arange(0, P)
    qn = tl.load(q_nope_ptr + (b * H + heads[:, None]) * R + r[None, :], mask=hm[:, None], other=0.0)
    qp = tl.load(q_pe_ptr + (b * H + heads[:, None]) * P + pp[None, :], mask=hm[:, None], other=0.0)
    L = tl.load(seq_lens_ptr + b)
    m_i = tl.full([BLOCK_H], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, R], dtype=tl.float32)
    for n0 in range(0, L, BLOCK_N):
        n = n0 + tl.arange(0, BLOCK_N)
        nm = n < L
        page = tl.load(block_table_ptr + b * stride_bt + n // PAGE, mask=nm, other=0)
        slot = page.to(tl.int64) * PAGE + n % PAGE
        c = tl.load(ckv_ptr + slot[:, None] * R + r[None, :], mask=nm[:, None], other=0.0)
        kp = tl.load(kpe_ptr + slot[:, None] * P + pp[None, :], mask=nm[:, None], other=0.0)
        s = tl.dot(qn, tl.trans(c)) + tl.dot(qp, tl.trans(kp))
        s = tl.where(nm[None, :], s * sm_scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(c.dtype), c)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + (b * H + heads[:, None]) * R + r[None, :], out, mask=hm[:, None])


@triton.jit
def mxfp4_dequant_kernel(w_ptr, s_ptr, out_ptr, n_rows, K_PACKED: tl.constexpr, GROUP: tl.constexpr,
                         BLOCK_R: tl.constexpr):
    # gpt-oss MXFP4 weights: two e2m1 values per byte (low nibble first) and
    # one e8m0 scale per GROUP values, dequantised to bf16 by bit arithmetic
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    rm = rows < n_rows
    cols = tl.arange(0, K_PACKED)
    packed = tl.load(w_ptr + rows[:, None] * K_PACKED + cols[None, :], mask=rm[:, None], other=0)
    lo = packed & 0xF
    hi = packed >> 4
    nib = tl.reshape(tl.join(lo, hi), (BLOCK_R, 2 * K_PACKED))
    sign = (nib >> 3) & 1
    e = (nib >> 1) & 3
    mant = (nib & 1).to(tl.float32)
    # e2m1: exponent bias 1; e == 0 is subnormal (0 or 0.5)
    mag = tl.where(e == 0, mant * 0.5, (1.0 + mant * 0.5) * tl.exp2((e - 1).to(tl.float32)))
    val = tl.where(sign == 1, -mag, mag)
    NG: tl.constexpr = 2 * K_PACKED // GROUP
    sc = tl.load(s_ptr + rows[:, None] * NG + tl.arange(0, NG)[None, :], mask=rm[:, None], other=127)
    scale = (sc.to(tl.int32) << 23).to(tl.float32, bitcast=True)
    val3 = tl.reshape(val, (BLOCK_R, NG, GROUP)) * scale[:, :, None]
    out = tl.reshape(val3, (BLOCK_R, 2 * K_PACKED)).to(tl.bfloat16)
    oc = tl.arange(0, 2 * K_PACKED)
    tl.store(out_ptr + rows[:, None] * (2 * K_PACKED) + oc[None, :], out, mask=rm[:, None])


@triton.jit
def ssd_state_passing_kernel(states_ptr, dA_last_ptr, init_ptr, out_ptr, final_ptr, nchunks,
                             H: tl.constexpr, DS: tl.constexpr, HAS_INIT: tl.constexpr,
                             BLOCK: tl.constexpr):
    # mamba2's state passing: the state entering chunk c is
    # exp(dA_{c-1}) * (state entering c-1) + state_{c-1}; [B, C, H, DS]
    b = tl.program_id(0)
    h = tl.program_id(1)
    pid_d = tl.program_id(2)
    offs = pid_d * BLOCK + tl.arange(0, BLOCK)
    m = offs < DS
    if HAS_INIT:
        s = tl.load(init_ptr + (b * H + h) * DS + offs, mask=m, other=0.0).to(tl.float32)
    else:
        s = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(nchunks):
        base = ((b * nchunks + c) * H + h).to(tl.int64) * DS
        tl.store(out_ptr + base + offs, s, mask=m)
        new = tl.load(states_ptr + base + offs, mask=m, other=0.0).to(tl.float32)
        dA = tl.load(dA_last_ptr + (b * H + h) * nchunks + c)
        s = tl.exp(dA) * s + new
    tl.store(final_ptr + (b * H + h) * DS + offs, s, mask=m)


# ==== %s


@triton.jit
def ce_smooth_kernel(logits_ptr, stride, target_ptr, loss_ptr, n_non_ignore_ptr, V, ignore_index,
                     label_smoothing, softcap, BLOCK_V: tl.constexpr, HAS_SOFTCAP: tl.constexpr,
                     REDUCTION: tl.constexpr):
    # Liger-style: one row, two passes over the vocabulary (an online
    # logsumexp, then the gradient written over the bf16 logits), label
    # smoothing, tanh softcapping, ignore_index, mean over a device count
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride
    y = tl.load(target_ptr + row)
    if y == ignore_index:
        for i in tl.range(0, V, BLOCK_V):
            cols = i + tl.arange(0, BLOCK_V)
            tl.store(logits_ptr + cols, 0.0, mask=cols < V)
        tl.store(loss_ptr + row, 0.0)
        return
    n_valid = tl.load(n_non_ignore_ptr).to(tl.float32)
    eps = label_smoothing / V
    m = float("-inf")
    d = 0.0
    smooth_sum = 0.0
    for i in tl.range(0, V, BLOCK_V, num_stages=2, loop_unroll_factor=2):
        cols = i + tl.arange(0, BLOCK_V)
        x = tl.load(logits_ptr + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        if HAS_SOFTCAP:
            x = softcap * tanh(x / softcap)
        smooth_sum += tl.sum(tl.where(cols < V, -eps * x, 0.0))
        m_new = tl.maximum(m, tl.max(x))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new))
        m = m_new
    lse = m + tl.log(d)
    x_y = tl.load(logits_ptr + y).to(tl.float32)
    if HAS_SOFTCAP:
        x_y = softcap * tanh(x_y / softcap)
    loss = lse - x_y
    if label_smoothing > 0:
        loss = loss * (1 - label_smoothing) + (smooth_sum + label_smoothing * lse)
    scale = 1.0
    if REDUCTION == "mean":
        scale = 1.0 / n_valid
    for i in tl.range(0, V, BLOCK_V):
        cols = i + tl.arange(0, BLOCK_V)
        xr = tl.load(logits_ptr + cols, mask=cols < V, other=0.0).to(tl.float32)
        x = xr
        if HAS_SOFTCAP:
            x = softcap * tanh(xr / softcap)
        p = tl.exp(x - lse)
        gr = p - eps - tl.where(cols == y, 1 - label_smoothing, 0.0)
        if HAS_SOFTCAP:
            t = tanh(xr / softcap)
            gr = gr * (1 - t * t)
        tl.store(logits_ptr + cols, (gr * scale).to(logits_ptr.dtype.element_ty), mask=cols < V)
    tl.store(loss_ptr + row, loss * scale)


@triton.jit
def fused_add_rmsnorm_rows_kernel(x_ptr, res_ptr, w_ptr, M, N, eps, stride_x, stride_r,
                                  BLOCK_N: tl.constexpr, ROWS: tl.constexpr):
    # vLLM's fused_add_rms_norm: residual += x (kept in the input dtype),
    # x = rmsnorm(residual) * w, both in place; ROWS rows per program
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cm = cols < N
    w = tl.load(w_ptr + cols, mask=cm, other=0.0, eviction_policy="evict_last").to(tl.float32)
    for r in tl.static_range(ROWS):
        row = pid * ROWS + r
        if row < M:
            xp = x_ptr + row.to(tl.int64) * stride_x + cols
            rp = res_ptr + row.to(tl.int64) * stride_r + cols
            s = tl.load(xp, mask=cm, other=0.0) + tl.load(rp, mask=cm, other=0.0)
            tl.store(rp, s, mask=cm)
            sf = s.to(tl.float32)
            rstd = tl.rsqrt(tl.sum(sf * sf, axis=0) / N + eps)
            tl.store(xp, (sf * rstd).to(s.dtype) * w.to(s.dtype), mask=cm)


# ==== %s
@triton.jit
def edges_kernel(x_ptr, o_ptr, n, big_stride, BLOCK: tl.constexpr):
    # Python's abs/max/min on tensors, a runtime tl.range counting down, an
    # empty range, tl.sum of a mask (i1 -> i32), a cumsum of booleans, an
    # int64 product past 2**31
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    a = abs(x)
    b = max(x, 0.5)
    c = min(x, -0.5)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(n - 1, -1, -1):
        acc += tl.where(offs == i, i.to(tl.float32), 0.0)
    for i in range(n, 0):
        acc += 1000.0
    nb = tl.sum(m)  # i1 summed as i32
    cs = tl.cumsum(x > 0, 0)
    s64 = offs.to(tl.int64) * big_stride
    tl.store(o_ptr + offs, a, mask=m)
    tl.store(o_ptr + BLOCK + offs, b, mask=m)
    tl.store(o_ptr + 2 * BLOCK + offs, c, mask=m)
    tl.store(o_ptr + 3 * BLOCK + offs, acc, mask=m)
    tl.store(o_ptr + 4 * BLOCK + offs, nb.to(tl.float32) + cs.to(tl.float32) * 0, mask=m)
    tl.store(o_ptr + 5 * BLOCK + offs, cs.to(tl.float32), mask=m)
    tl.store(o_ptr + 6 * BLOCK + offs, (s64 // 1024).to(tl.float32), mask=m)


@triton.jit
def dot_f16_out_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # an fp16 accumulator (tl.dot out_dtype=tl.float16)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def block_ptr_reverse_kernel(x_ptr, o_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # walks a row's column blocks from the last to the first with a negative
    # advance; the ragged first block reads NaN where it is out of bounds
    row0 = tl.program_id(0) * BM
    nblk = tl.cdiv(N, BN)
    p = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (row0, (nblk - 1) * BN), (BM, BN), (1, 0))
    q = tl.make_block_ptr(o_ptr, (M, N), (N, 1), (row0, 0), (BM, BN), (1, 0))
    for _ in range(nblk):
        t = tl.load(p, boundary_check=(0, 1), padding_option="nan")
        t = tl.where(t != t, -1.0, t)
        tl.store(q, tl.flip(t, 1), boundary_check=(0, 1))
        p = tl.advance(p, (0, -BN))
        q = tl.advance(q, [0, BN])


# ==== %s
@triton.jit
def asm_unpack_kernel(x_ptr, lo_ptr, hi_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # inline PTX, two results from one asm (the bytes of a u8 split into
    # nibbles, four elements a 32-bit register per asm), and a
    # one-result asm on fp32 (a fused multiply-add in the asm's own rounding)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    lo, hi = tl.inline_asm_elementwise(
        asm="""
        and.b32 $0, $2, 0x0F0F0F0F;
        shr.u32 $1, $2, 4;
        and.b32 $1, $1, 0x0F0F0F0F;
        """,
        constraints="=r,=r,r",
        args=[x],
        dtype=(tl.uint8, tl.uint8),
        is_pure=True,
        pack=4,
    )
    tl.store(lo_ptr + offs, lo, mask=m)
    tl.store(hi_ptr + offs, hi, mask=m)
    f = x.to(tl.float32)
    y = tl.inline_asm_elementwise("fma.rn.f32 $0, $1, $2, 0f3F800000;", "=f,f,f", [f, f], dtype=tl.float32,
                                  is_pure=True, pack=1)
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit(do_not_specialize=["n", "off"])
def big_offset_kernel(x_ptr, out_ptr, n, off, stride, BLOCK: tl.constexpr):
    # int64 offsets past 2**31 from an int32 index times an int64 stride,
    # launched with empty grids too
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    big = offs.to(tl.int64) * stride + off
    tl.store(out_ptr + offs, big, mask=offs < n)
    tl.store(x_ptr + offs, (big - off).to(tl.int32), mask=offs < n)


@triton.jit
def strided_copy_kernel(x_ptr, y_ptr, M, N, sxm, sxn, sym, syn, BM: tl.constexpr, BN: tl.constexpr):
    # a 2-D copy between non-contiguous views (transposed, sliced, column-major)
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)[:, None]
    rn = pn * BN + tl.arange(0, BN)[None, :]
    m = (rm < M) & (rn < N)
    v = tl.load(x_ptr + rm * sxm + rn * sxn, mask=m)
    tl.store(y_ptr + rm * sym + rn * syn, v * 3, mask=m)


@triton.jit
def mixed_scalar_kernel(out_ptr, flag, i, f, u, b_ptr, n, BLOCK: tl.constexpr):
    # a bool, an int64 below -2**31, a float, a uint64 past 2**63 and a
    # torch.bool tensor as arguments
    offs = tl.arange(0, BLOCK)
    m = offs < n
    bb = tl.load(b_ptr + offs, mask=m, other=0)
    v = tl.where(bb, i.to(tl.float64) + f, -1.0)
    if flag:
        v = v + u
    tl.store(out_ptr + offs, v, mask=m)


@triton.jit
def _act(x, ACT: tl.constexpr = "relu", alpha=0.01):
    tl.static_assert(ACT in ("relu", "leaky", "none"), f"unknown activation {ACT}")
    if ACT == "relu":
        return tl.maximum(x, 0.0)
    elif ACT == "leaky":
        return tl.where(x >= 0, x, alpha * x)
    else:
        return x


@triton.jit
def compact_kernel(x_ptr, out_ptr, idx_ptr, counter_ptr, flags_ptr, n, thresh,
                   BLOCK: tl.constexpr, ACT: tl.constexpr):
    # stream compaction: a block reserves room with one atomic on a counter
    # (its old value is the base) and writes its survivors at cumsum ranks
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    keep = (x > thresh) & m
    tl.store(flags_ptr + offs, keep, mask=m)
    cnt = tl.sum(keep.to(tl.int32), axis=0)
    base = tl.atomic_add(counter_ptr, cnt)
    rank = tl.cumsum(keep.to(tl.int32), axis=0) - 1 + base
    tl.store(out_ptr + rank, _act(x, ACT), mask=keep)
    tl.store(idx_ptr + rank, offs.to(tl.int64), mask=keep)


@triton.jit
def _pair_max(a, ia, b, ib):
    take = (a > b) | ((a == b) & (ia < ib))
    return tl.where(take, a, b), tl.where(take, ia, ib)


@triton.jit
def rowmax_keep_kernel(x_ptr, v_ptr, i_ptr, M, N, SHAPES: tl.constexpr, BN: tl.constexpr):
    # a tuple tl.reduce with keep_dims, over a constexpr tuple of column
    # windows walked by tl.static_range(len(...))
    row = tl.program_id(0)
    cols = tl.arange(0, BN)
    x = tl.load(x_ptr + row * N + cols[None, :], mask=cols[None, :] < N, other=float("-inf"))
    idx = tl.broadcast_to(cols[None, :], (1, BN))
    for s in tl.static_range(len(SHAPES)):
        w = SHAPES[s]
        xs = tl.where(cols[None, :] < w, x, float("-inf"))
        v, i = tl.reduce((xs, idx), 1, _pair_max, keep_dims=True)
        tl.store(v_ptr + row * len(SHAPES) + s + tl.zeros_like(i), v)
        tl.store(i_ptr + row * len(SHAPES) + s + tl.zeros_like(i), i)


@triton.jit
def desc3d_kernel(x_ptr, y_ptr, B, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # a rank-3 descriptor over [B, M, N] read one [1, BM, BN] box at a time,
    # reshaped to 2-D, scaled and stored through a rank-3 descriptor again
    b = tl.program_id(0)
    pm = tl.program_id(1)
    xd = tl.make_tensor_descriptor(x_ptr, shape=[B, M, N], strides=[M * N, N, 1], block_shape=[1, BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[B, N, M], strides=[M * N, M, 1], block_shape=[1, BN, BM])
    for n0 in range(0, N, BN):
        t = xd.load([b, pm * BM, n0]).reshape(BM, BN)
        yd.store([b, n0, pm * BM], (t.T * 2).reshape(1, BN, BM))


@triton.jit()
def py_idioms_kernel(x_ptr, y_ptr, n, scale=2.0, shift: tl.constexpr = 1, BLOCK: tl.constexpr = 64):
    """A docstring, `pass`, an Ellipsis statement, a backslash continuation,
    a runtime conditional expression on scalars, tensor methods."""
    pass
    ...
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + \
        tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    first = tl.load(x_ptr + pid * BLOCK)
    s = scale if first > 0 else -scale
    t = x.reshape(BLOCK // 8, 8).T
    r = t.sum(0).max(0) + t.sum(axis=1).min()
    assert BLOCK % 8 == 0, "BLOCK must be a multiple of 8"
    y = x * s + shift + r * 0
    tl.store(y_ptr + offs, y, mask=m)
