# KERNEL: rms_norm_fwd_kernel
# SIGNATURE: *fp16:16,i32,*fp16:16,i32,*fp16:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: CASTING_MODE="llama", BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: rms_norm_fwd_kernel
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*bf16:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: CASTING_MODE="gemma", BLOCK_SIZE=512
# GRID: n_rows
#
# KERNEL: rms_norm_fwd_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: CASTING_MODE="none", BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: rms_norm_bwd_kernel
# SIGNATURE: *fp16:16,i32,*fp16:16,i32,*fp16:16,i32,*fp16:16,*fp32:16,*fp32:16,i32,i32,i32,fp32,i32
# CONSTEXPR: BLOCK_SIZE=256
# GRID: cdiv(n_rows, rows_per_program)
#
# KERNEL: cross_entropy_kernel
# SIGNATURE: *fp32:16,i32,*i64:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: REDUCTION="mean", BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: cross_entropy_kernel
# SIGNATURE: *bf16:16,i32,*i64:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: REDUCTION="sum", BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: glu_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: ACTIVATION="silu", BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: glu_fwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32
# CONSTEXPR: ACTIVATION="gelu_tanh", BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: glu_bwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: ACTIVATION="gelu_tanh", BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: glu_bwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: ACTIVATION="silu", BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: glu_bwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: ACTIVATION="gelu", BLOCK_SIZE=64
# GRID: n_rows
#
# KERNEL: rope_qk_kernel
# SIGNATURE: *fp16:16,i32,*fp16:16,i32,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: N_QH=6, N_KH=2, HEAD_DIM=80, PAD_QH=8, PAD_KH=2, PAD_HD=128, BACKWARD=False
# GRID: n_tokens
#
# KERNEL: rope_qk_kernel
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: N_QH=4, N_KH=4, HEAD_DIM=64, PAD_QH=4, PAD_KH=4, PAD_HD=64, BACKWARD=True
# GRID: n_tokens
#
# KERNEL: kl_div_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,i32,i32,fp32
# CONSTEXPR: LOG_TARGET=False, REDUCTION="none", BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: kl_div_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,i32,i32,fp32
# CONSTEXPR: LOG_TARGET=True, REDUCTION="batchmean", BLOCK_SIZE=64
# GRID: n_rows
#
# KERNEL: jsd_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,i32,*i64,fp32,i32,i32,i32
# CONSTEXPR: HAS_LABEL=True, BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: jsd_kernel
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*fp32:16,*bf16:16,i32,*i64,fp32,i32,i32,i32
# CONSTEXPR: HAS_LABEL=False, BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: fused_add_rms_norm_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32,fp32
# CONSTEXPR: BLOCK_SIZE=128
# GRID: n_rows
#
# KERNEL: fused_add_rms_norm_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,fp32
# CONSTEXPR: BLOCK_SIZE=64
# GRID: n_rows
#
# KERNEL: paged_attention_decode_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16,fp32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: NUM_KV_HEADS=2, QUERY_GROUP=3, HEAD_DIM=80, PAD_HD=128, KV_BLOCK=16
# GRID: B, NUM_KV_HEADS * QUERY_GROUP
#
# KERNEL: paged_attention_decode_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*i32:16,*i32:16,fp32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: NUM_KV_HEADS=1, QUERY_GROUP=4, HEAD_DIM=64, PAD_HD=64, KV_BLOCK=32
# GRID: B, NUM_KV_HEADS * QUERY_GROUP
#
# KERNEL: rotary_cache_write_kernel
# SIGNATURE: *fp16:16,*fp16:16,*i64:16,*i64:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,i32
# CONSTEXPR: HEAD_DIM=64, KV_BLOCK=16, IS_NEOX=True
# GRID: n_tokens, num_kv_heads
#
# KERNEL: rotary_cache_write_kernel
# SIGNATURE: *bf16:16,*bf16:16,*i64:16,*i64:16,*fp32:16,*bf16:16,*bf16:16,i32,i32,i32
# CONSTEXPR: HEAD_DIM=32, KV_BLOCK=8, IS_NEOX=False
# GRID: n_tokens, num_kv_heads
#
# KERNEL: top_k_top_p_mask_kernel
# SIGNATURE: *fp32:16,i32,*i32:16,*fp32:16,i32
# CONSTEXPR: BLOCK_V=512
# GRID: B
#
# KERNEL: group_norm_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,fp32
# CONSTEXPR: CHANNELS_PER_GROUP=3, BLOCK_SIZE=128
# GRID: N, num_groups
#
# KERNEL: embedding_bwd_kernel
# SIGNATURE: *fp16:16,*i64:16,*fp32:16,i32,i32,i64
# CONSTEXPR: BLOCK_T=16, BLOCK_D=64
# GRID: cdiv(n_tokens, BLOCK_T), cdiv(D, BLOCK_D)
#
# KERNEL: per_token_quant_int8_kernel
# SIGNATURE: *fp16:16,*i8:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: per_token_quant_int8_kernel
# SIGNATURE: *bf16:16,*i8:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_SIZE=64
# GRID: n_rows
#
# KERNEL: dequant_int8_kernel
# SIGNATURE: *i8:16,*fp32:16,*bf16:16,i32,i32
# CONSTEXPR: BLOCK_M=4, BLOCK_N=128
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: linear_bias_act_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: ACTIVATION="gelu_tanh", HAS_BIAS=True, BLOCK_M=32, BLOCK_N=64, BLOCK_K=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: linear_bias_act_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: ACTIVATION="silu", HAS_BIAS=False, BLOCK_M=64, BLOCK_N=32, BLOCK_K=16
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: linear_bias_act_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: ACTIVATION="relu", HAS_BIAS=True, BLOCK_M=16, BLOCK_N=32, BLOCK_K=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: segment_cumsum_kernel
# SIGNATURE: *fp32:16,*i8:16,*fp32:16,*fp32:16,i32,i32,fp32
# CONSTEXPR: ROWS=4, BLOCK_N=64
# GRID: cdiv(n_rows, ROWS)
#
# KERNEL: online_softmax_rows_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32
# CONSTEXPR: LOG=False, BLOCK_N=128
# GRID: n_rows
#
# KERNEL: online_softmax_rows_kernel
# SIGNATURE: *bf16:16,*fp32:16,i32,i32,i32
# CONSTEXPR: LOG=True, BLOCK_N=64
# GRID: n_rows
#
# KERNEL: welford_var_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: CORRECTION=1, BLOCK_N=64
# GRID: n_rows
#
# KERNEL: welford_var_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: CORRECTION=0, BLOCK_N=128
# GRID: n_rows
#
# KERNEL: argmax_rows_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_N=64
# GRID: n_rows
#
# KERNEL: argmax_rows_kernel
# SIGNATURE: *bf16:16,*i64:16,*bf16:16,i32,i32,i32
# CONSTEXPR: BLOCK_N=32
# GRID: n_rows
#
# KERNEL: sparsemax_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=256
# GRID: n_rows
#
# KERNEL: sparsemax_fwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,i32,i32
# CONSTEXPR: BLOCK=128
# GRID: n_rows
#
# KERNEL: sparsemax_bwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=256
# GRID: n_rows
#
# KERNEL: top_p_bisect_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32
# CONSTEXPR: N_ITERS=32, BLOCK_V=512
# GRID: B
#
# KERNEL: dyt_fwd_kernel
# SIGNATURE: *bf16:16,*fp32,*bf16:16,*bf16:16,*bf16:16,i32,i32
# CONSTEXPR: HAVE_BETA=True, BLOCK=256
# GRID: n_rows
#
# KERNEL: dyt_fwd_kernel
# SIGNATURE: *fp32:16,*fp32,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: HAVE_BETA=False, BLOCK=128
# GRID: n_rows
#
# KERNEL: dyt_bwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32
# CONSTEXPR: HAVE_BETA=True, BLOCK=128
# GRID: cdiv(n_rows, rows_per_program)
#
# KERNEL: ce_ncd_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_C=16, BLOCK_D=32
# GRID: N, cdiv(D, BLOCK_D)
#
# KERNEL: ce_ncd_kernel
# SIGNATURE: *fp16:16,*i64:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_C=8, BLOCK_D=64
# GRID: N, cdiv(D, BLOCK_D)
#
# KERNEL: lerp_rank3_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BLOCK=256
# GRID: min(cdiv(num_tasks, BLOCK), 8)
#
# KERNEL: dropout_bias_gelu_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,fp32,i32
# CONSTEXPR: BACKWARD=False, BLOCK_M=8, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: dropout_bias_gelu_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,fp32,i32
# CONSTEXPR: BACKWARD=True, BLOCK_M=8, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: ce_chunk_fwd_kernel
# SIGNATURE: *bf16:16,i32,*i64:16,*fp32:16,*fp32:16,i32,i32,fp32,fp32
# CONSTEXPR: DO_SOFTCAPPING=True, DO_LOGIT_SCALING=True, BLOCK=256
# GRID: n_rows, n_chunks
#
# KERNEL: ce_chunk_fwd_kernel
# SIGNATURE: *fp32:16,i32,*i64:16,*fp32:16,*fp32:16,i32,i32,fp32,fp32
# CONSTEXPR: DO_SOFTCAPPING=False, DO_LOGIT_SCALING=False, BLOCK=128
# GRID: n_rows, n_chunks
#
# KERNEL: ce_chunk_combine_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i64:16,i32
# CONSTEXPR: CHUNKS=16
# GRID: n_rows
#
# KERNEL: ce_chunk_bwd_kernel
# SIGNATURE: *bf16:16,i32,*fp32,i32,*fp32:16,*i64:16,i32,fp32,fp32
# CONSTEXPR: DO_SOFTCAPPING=True, DO_LOGIT_SCALING=True, BLOCK=256
# GRID: n_rows, cdiv(V, BLOCK)
#
# KERNEL: ce_chunk_bwd_kernel
# SIGNATURE: *fp32:16,i32,*fp32,i32,*fp32:16,*i64:16,i32,fp32,fp32
# CONSTEXPR: DO_SOFTCAPPING=False, DO_LOGIT_SCALING=False, BLOCK=128
# GRID: n_rows, cdiv(V, BLOCK)
#
# KERNEL: causal_softmax_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_K=128
# GRID: Sq, BH
#
# KERNEL: prefix_attention_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16,*fp16:16,fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: QUERY_GROUP=2, HEAD_DIM=64, X=8, KV_BLOCK=16, BLOCK_M=16, BLOCK_N=32
# GRID: S, H, QT
#
# KERNEL: prefix_attention_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*i32:16,*i32:16,*bf16:16,fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: QUERY_GROUP=1, HEAD_DIM=32, X=8, KV_BLOCK=32, BLOCK_M=32, BLOCK_N=32
# GRID: S, H, QT
#
# KERNEL: lora_shrink_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*i32:16,i32,i32,i32,i32,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=16, BLOCK_K=32, SPLIT_K=1
# GRID: cdiv(M, BLOCK_M), SPLIT_K
#
# KERNEL: lora_shrink_kernel
# SIGNATURE: *bf16:16,*bf16:16,*fp32:16,*i32:16,i32,i32,i32,i32,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=32, BLOCK_K=32, SPLIT_K=4
# GRID: cdiv(M, BLOCK_M), SPLIT_K
#
# KERNEL: w8a8_gemm_kernel
# SIGNATURE: *i8:16,*i8:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,i32,i32,i32,i32,i32,i32
# CONSTEXPR: HAS_BIAS=True, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
#
# KERNEL: w8a8_gemm_kernel
# SIGNATURE: *i8:16,*i8:16,*bf16:16,*fp32:16,*fp32:16,*bf16:16,i32,i32,i32,i32,i32,i32
# CONSTEXPR: HAS_BIAS=False, BLOCK_M=64, BLOCK_N=32, BLOCK_K=64, GROUP_M=2
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
#
# KERNEL: token_bitmask_kernel
# SIGNATURE: *fp32:16,*i32:16,*i32:16,i32,i32,i32
# CONSTEXPR: BLOCK=256
# GRID: n_masked, cdiv(V, BLOCK)
#
# KERNEL: token_bitmask_kernel
# SIGNATURE: *bf16:16,*i32:16,*i32:16,i32,i32,i32
# CONSTEXPR: BLOCK=1024
# GRID: n_masked, cdiv(V, BLOCK)
#
# KERNEL: merge_attn_states_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp16:16,*fp32:16,*fp16:16,*fp32:16,i32
# CONSTEXPR: HEAD_SIZE=80, PAD=128, OUTPUT_LSE=True
# GRID: T, n_heads
#
# KERNEL: merge_attn_states_kernel
# SIGNATURE: *bf16:16,*fp32:16,*bf16:16,*fp32:16,*bf16:16,*fp32:16,i32
# CONSTEXPR: HEAD_SIZE=64, PAD=64, OUTPUT_LSE=False
# GRID: T, n_heads
#
# KERNEL: grpo_loss_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,*i64:16,*fp32:16,*i32:16,*fp32:16,*fp32:16,*i8:16,fp32,fp32,fp32,fp32,i32,i32
# CONSTEXPR: BLOCK_V=256
# GRID: B, L
#
# KERNEL: top_k_renorm_kernel
# SIGNATURE: *fp32:16,i32,*i32:16,i32
# CONSTEXPR: BLOCK_V=1024
# GRID: B
#
# Kernels written in the manner of the training and serving libraries
# (Liger-Kernel, Unsloth, FlagGems, vLLM, xformers), fresh: RMSNorm forward
# under three string casting modes and its backward with a partial dW row per
# program; cross entropy with an online logsumexp over vocabulary blocks, the
# gradient written in place over the logits, ignore_index, runtime label
# smoothing and a string reduction; SwiGLU/GeGLU (tanh and erf) forward and
# backward through @jit activation helpers chosen by a string constexpr; RoPE
# on q and k in one program with padded head and head-dim tiles and a
# backward flag; KL divergence (log target, string reduction) and a
# generalised JSD with runtime beta branches and an i64 label mask;
# fused residual add + RMSNorm in two passes with eviction policies; a
# paged-attention decode step with a block table, GQA on grid axis 1, a padded
# head dim and an online softmax; rotary embedding + KV-cache write through a
# slot mapping (NeoX halves or GPT-J pairs); top-k / top-p masking through a
# descending tl.sort and a cumsum; group norm on a 2-D grid; embedding
# backward by 2-D masked atomics with a padding index; int8 per-token
# quantisation (libdevice rint) and dequantisation; a linear layer with bias
# and a string activation through tl.dot with masked K tails and contiguity
# hints; a segmented cumsum through tl.associative_scan with a @jit combine;
# softmax / log-softmax with an online max over column blocks; a Welford
# variance through tl.reduce with a 3-tuple combine; an argmax with NaN as the
# largest value and ties to the lowest index; sparsemax forward and backward
# (a descending sort, a cumsum, the support size); nucleus masking by
# bisecting the probability threshold (a runtime if on a reduced scalar
# inside a loop); dynamic tanh (DyT) with a scalar parameter behind a
# pointer and per-program partial gradients; FlagGems-style cross entropy
# over [N, C, D] with 2-D tiles reduced along axis 0 and an optional (None)
# class weight; a generated-style rank-3 broadcast lerp over grid-stride
# tiles; dropout + bias + GELU whose backward regenerates the tl.rand mask;
# Unsloth-style chunked cross entropy (grid (rows, chunks), softcapping and
# logit scaling, a logsumexp combine, a backward with a stride-0 upstream
# gradient); a bottom-right causal softmax on a 2-D grid; prefix attention
# over vLLM's paged caches (keys split [.., HEAD_DIM // X, KV_BLOCK, X],
# values transposed) through tl.dot on a 3-D grid; a LoRA shrink with one
# adapter per token tile, an early return for none and split-K atomics; a
# w8a8 GEMM (int8 tl.dot into int32, row and column scales, grouped order)
# structured-output masking from packed int32 bitmasks (shifts by a
# broadcast arange, a reshape of a 2-D bit tile); merging two partial
# attention states through their logsumexps (inf lse as empty); a GRPO loss
# per completion token (online logsumexp with temperature, clipped ratio,
# k3 KL under a runtime beta, an early return on the mask); top-k
# renormalisation through a noinline helper that sorts (no Triton dumps
# yet).
import triton
import triton.language as tl
from triton.language.extra import libdevice

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)
INV_SQRT_2 = tl.constexpr(0.7071067811865476)


@triton.jit
def rms_norm_fwd_kernel(Y, y_stride, X, x_stride, W, RSTD, n_cols, eps, offset,
                        CASTING_MODE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(X + row * x_stride + cols, mask=mask, other=0.0, eviction_policy="evict_first")
    x_dtype = x.dtype
    w = tl.load(W + cols, mask=mask, other=0.0, eviction_policy="evict_last")
    if CASTING_MODE == "llama":
        x = x.to(tl.float32)
    elif CASTING_MODE == "gemma":
        x = x.to(tl.float32)
        w = w.to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.math.rsqrt(mean_square + eps)
    tl.store(RSTD + row, rstd)
    x = x * rstd
    if CASTING_MODE == "llama":
        x = x.to(x_dtype)
    y = x * (offset + w)
    if CASTING_MODE == "gemma":
        y = y.to(x_dtype)
    tl.store(Y + row * y_stride + cols, y, mask=mask)


@triton.jit
def rms_norm_bwd_kernel(dY, dy_stride, dX, dx_stride, X, x_stride, W, RSTD, dW, dw_stride, n_rows, n_cols,
                        offset, rows_per_program, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    row_start = pid * rows_per_program
    row_end = min(row_start + rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dw_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32) + offset
    for row in range(row_start, row_end):
        r = row.to(tl.int64)
        x = tl.load(X + r * x_stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dY + r * dy_stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD + r)
        m = dy * w
        dx = rstd * m - rstd * rstd * rstd * (tl.sum(m * x, axis=0) / n_cols) * x
        dw_acc += dy * (x * rstd)
        tl.store(dX + r * dx_stride + cols, dx.to(dX.dtype.element_ty), mask=mask)
    tl.store(dW + pid.to(tl.int64) * dw_stride + cols, dw_acc, mask=mask)


@triton.jit
def cross_entropy_kernel(X, x_stride, Y, loss, n_cols, n_non_ignore, ignore_index, label_smoothing,
                         REDUCTION: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X += row * x_stride
    y = tl.load(Y + row)
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            offs = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X + offs, 0.0, mask=offs < n_cols)
        tl.store(loss + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    x_y = tl.load(X + y).to(tl.float32)
    smooth_sum = 0.0
    eps = label_smoothing / n_cols
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        xb = tl.load(X + offs, mask=offs < n_cols, other=float("-inf"), cache_modifier=".cg").to(tl.float32)
        if label_smoothing > 0:
            smooth_sum += tl.sum(tl.where(offs < n_cols, -eps * xb, 0.0))
        m_new = tl.maximum(m, tl.max(xb))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(xb - m_new))
        m = m_new
    lse = m + tl.log(d)
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        xb = tl.load(X + offs, mask=offs < n_cols, other=float("-inf"), cache_modifier=".cg").to(tl.float32)
        grad = tl.exp(xb - lse) - eps
        grad = tl.where(offs == y, grad - (1.0 - label_smoothing), grad)
        if REDUCTION == "mean":
            grad = grad / n_non_ignore
        tl.store(X + offs, grad.to(X.dtype.element_ty), mask=offs < n_cols)
    tl.debug_barrier()
    row_loss = lse - x_y
    if label_smoothing > 0:
        row_loss = row_loss * (1.0 - label_smoothing) + (smooth_sum + label_smoothing * lse)
    if REDUCTION == "mean":
        row_loss = row_loss / n_non_ignore
    tl.store(loss + row, row_loss)


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def gelu_tanh(x):
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + libdevice.tanh(inner))


@triton.jit
def gelu_erf(x):
    return 0.5 * x * (1.0 + tl.math.erf(x * INV_SQRT_2))


@triton.jit
def activation_grad(x, ACTIVATION: tl.constexpr):
    # d act(x) / dx, x in fp32
    if ACTIVATION == "silu":
        sig = tl.sigmoid(x)
        g = sig + x * sig * (1.0 - sig)
    elif ACTIVATION == "gelu_tanh":
        x2 = x * x
        t = tl.extra.cuda.libdevice.tanh(SQRT_2_OVER_PI * x * (1.0 + 0.044715 * x2))
        g = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * SQRT_2_OVER_PI * (1.0 + 3.0 * 0.044715 * x2)
    else:
        cdf = 0.5 * (1.0 + tl.math.erf(x * INV_SQRT_2))
        pdf = tl.exp(-0.5 * x * x) * 0.3989422804014327
        g = cdf + x * pdf
    return g


@triton.jit
def glu_fwd_kernel(A, B, C, stride, n_cols, ACTIVATION: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(A + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0.0)
    if ACTIVATION == "silu":
        act = silu(a)
    elif ACTIVATION == "gelu_tanh":
        act = gelu_tanh(a)
    else:
        act = gelu_erf(a)
    c = act.cast(b.dtype) * b
    tl.store(C + row * stride + cols, c, mask=mask)


@triton.jit
def glu_bwd_kernel(dC, A, B, stride, n_cols, ACTIVATION: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # gradients written over the inputs: dA into A, dB into B
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dc = tl.load(dC + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(A + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    if ACTIVATION == "silu":
        act = silu(a)
    elif ACTIVATION == "gelu_tanh":
        act = gelu_tanh(a)
    else:
        act = gelu_erf(a)
    db = dc * act
    da = dc * b * activation_grad(a, ACTIVATION)
    tl.store(A + row * stride + cols, da.to(A.dtype.element_ty), mask=mask)
    tl.store(B + row * stride + cols, db.to(B.dtype.element_ty), mask=mask)


@triton.jit
def rope_qk_kernel(q_ptr, q_row_stride, k_ptr, k_row_stride, cos, sin, cos_row_stride, seq_len,
                   N_QH: tl.constexpr, N_KH: tl.constexpr, HEAD_DIM: tl.constexpr, PAD_QH: tl.constexpr,
                   PAD_KH: tl.constexpr, PAD_HD: tl.constexpr, BACKWARD: tl.constexpr):
    # one program per token of a [batch * seq_len, heads, HEAD_DIM] q and k,
    # rotate_half convention; cos/sin are [seq_len, HEAD_DIM // 2]
    pid = tl.program_id(0).to(tl.int64)
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride
    pos = pid % seq_len
    HALF: tl.constexpr = HEAD_DIM // 2
    d = tl.arange(0, PAD_HD // 2)
    d_mask = d < HALF
    c = tl.load(cos + pos * cos_row_stride + d, mask=d_mask, other=0.0)
    s = tl.load(sin + pos * cos_row_stride + d, mask=d_mask, other=0.0)
    if BACKWARD:
        s = -s
    qh = tl.arange(0, PAD_QH)[:, None]
    q_offs = qh * HEAD_DIM + d[None, :]
    q_mask = (qh < N_QH) & d_mask[None, :]
    q1 = tl.load(q_ptr + q_offs, mask=q_mask, other=0.0).to(c.dtype)
    q2 = tl.load(q_ptr + q_offs + HALF, mask=q_mask, other=0.0).to(c.dtype)
    tl.store(q_ptr + q_offs, (q1 * c[None, :] - q2 * s[None, :]).to(q_ptr.dtype.element_ty), mask=q_mask)
    tl.store(q_ptr + q_offs + HALF, (q2 * c[None, :] + q1 * s[None, :]).to(q_ptr.dtype.element_ty), mask=q_mask)
    kh = tl.arange(0, PAD_KH)[:, None]
    k_offs = kh * HEAD_DIM + d[None, :]
    k_mask = (kh < N_KH) & d_mask[None, :]
    k1 = tl.load(k_ptr + k_offs, mask=k_mask, other=0.0).to(c.dtype)
    k2 = tl.load(k_ptr + k_offs + HALF, mask=k_mask, other=0.0).to(c.dtype)
    tl.store(k_ptr + k_offs, (k1 * c[None, :] - k2 * s[None, :]).to(k_ptr.dtype.element_ty), mask=k_mask)
    tl.store(k_ptr + k_offs + HALF, (k2 * c[None, :] + k1 * s[None, :]).to(k_ptr.dtype.element_ty), mask=k_mask)


@triton.jit
def kl_div_kernel(y_pred, pred_stride, y_true, true_stride, loss, loss_stride, n_cols, eps,
                  LOG_TARGET: tl.constexpr, REDUCTION: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_pred += row * pred_stride
    y_true += row * true_stride
    total = 0.0
    for start in tl.range(0, n_cols, BLOCK_SIZE, num_stages=2):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        yp = tl.load(y_pred + offs, mask=mask, other=0.0)
        yt = tl.load(y_true + offs, mask=mask, other=0.0)
        if not LOG_TARGET:
            pointwise = yt * (tl.log(tl.maximum(yt, eps)) - yp)
        else:
            pointwise = tl.exp(yt) * (yt - yp)
        if REDUCTION == "none":
            tl.store(loss + row * loss_stride + offs, pointwise, mask=mask)
        else:
            total += tl.sum(pointwise, axis=0)
    if REDUCTION != "none":
        tl.store(loss + row * loss_stride, total)


@triton.jit
def jsd_kernel(X, x_stride, Y, y_stride, loss, dX, dx_stride, labels, beta, ignore_index, n_non_ignore, n_cols,
               HAS_LABEL: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # X = log Q (student), Y = log P (teacher); the loss is
    # beta * KL(P || M) + (1 - beta) * KL(Q || M), M = beta * P + (1 - beta) * Q,
    # forward KL(P || Q) when beta == 0 and reverse KL(Q || P) when beta == 1
    row = tl.program_id(0).to(tl.int64)
    X += row * x_stride
    dX += row * dx_stride
    Y += row * y_stride
    if HAS_LABEL:
        label = tl.load(labels + row)
        if label == ignore_index:
            for i in range(0, n_cols, BLOCK_SIZE):
                offs = i + tl.arange(0, BLOCK_SIZE)
                tl.store(dX + offs, 0.0, mask=offs < n_cols)
            tl.store(loss + row, 0.0)
            return
    total = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(X + offs, mask=mask, other=float("-inf")).to(tl.float32)
        y = tl.load(Y + offs, mask=mask, other=float("-inf")).to(tl.float32)
        if beta == 0.0:
            y_prob = tl.exp(y)
            pointwise = y_prob * (y - x)
            grad = -y_prob
        elif beta == 1.0:
            x_prob = tl.exp(x)
            pointwise = x_prob * (x - y)
            grad = pointwise + x_prob
        else:
            q = tl.exp(x)
            p = tl.exp(y)
            log_m = tl.math.log(beta * p + (1.0 - beta) * q)
            pointwise = beta * p * (y - log_m) + (1.0 - beta) * q * (x - log_m)
            grad = (1.0 - beta) * q * (x - log_m)
        pointwise = tl.where(mask, pointwise, 0.0)
        total += tl.sum(pointwise, axis=0)
        tl.store(dX + offs, (grad / n_non_ignore).to(dX.dtype.element_ty), mask=mask)
    tl.store(loss + row, total / n_non_ignore)


@triton.jit
def fused_add_rms_norm_kernel(X, Residual, W, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    # X <- rms_norm(X + Residual) * W, Residual <- X + Residual, in two passes
    row = tl.program_id(0).to(tl.int64)
    X += row * stride
    Residual += row * stride
    sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(X + offs, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
        r = tl.load(Residual + offs, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
        s = (x + r).to(Residual.dtype.element_ty)
        tl.store(Residual + offs, s, mask=mask)
        sf = s.to(tl.float32)
        sq += sf * sf
    rstd = 1.0 / tl.sqrt(tl.sum(sq, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        s = tl.load(Residual + offs, mask=mask, other=0.0, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(W + offs, mask=mask, other=0.0)
        y = (s * rstd).to(W.dtype.element_ty) * w
        tl.store(X + offs, y, mask=mask)


@triton.jit
def paged_attention_decode_kernel(Out, Q, K_cache, V_cache, block_tables, seq_lens, scale,
                                  stride_qb, stride_qh, stride_kb, stride_ks, stride_kh, stride_bt,
                                  NUM_KV_HEADS: tl.constexpr, QUERY_GROUP: tl.constexpr, HEAD_DIM: tl.constexpr,
                                  PAD_HD: tl.constexpr, KV_BLOCK: tl.constexpr):
    # q: [B, H, HEAD_DIM]; caches: [num_blocks, KV_BLOCK, NUM_KV_HEADS, HEAD_DIM]
    b = tl.program_id(0)
    h = tl.program_id(1)
    kv_h = h // QUERY_GROUP
    seq_len = tl.load(seq_lens + b)
    d = tl.arange(0, PAD_HD)
    d_mask = d < HEAD_DIM
    q = tl.load(Q + b * stride_qb + h * stride_qh + d, mask=d_mask, other=0.0).to(tl.float32) * scale
    m_i = float("-inf")
    l_i = 0.0
    acc = tl.zeros([PAD_HD], dtype=tl.float32)
    tok = tl.arange(0, KV_BLOCK)
    n_blocks = tl.cdiv(seq_len, KV_BLOCK)
    for blk in range(0, n_blocks):
        phys = tl.load(block_tables + b * stride_bt + blk).to(tl.int64)
        t_mask = blk * KV_BLOCK + tok < seq_len
        offs = phys * stride_kb + tok[:, None] * stride_ks + kv_h * stride_kh + d[None, :]
        kv_mask = t_mask[:, None] & d_mask[None, :]
        k = tl.load(K_cache + offs, mask=kv_mask, other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1)
        s = tl.where(t_mask, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        v = tl.load(V_cache + offs, mask=kv_mask, other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        m_i = m_new
    out = acc / l_i
    tl.store(Out + b * stride_qb + h * stride_qh + d, out.to(Out.dtype.element_ty), mask=d_mask)


@triton.jit
def rotary_cache_write_kernel(Key, Value, positions, slot_mapping, cos_sin_cache, key_cache, value_cache,
                              stride_kt, stride_cache_blk, num_kv_heads,
                              HEAD_DIM: tl.constexpr, KV_BLOCK: tl.constexpr, IS_NEOX: tl.constexpr):
    # key/value: [T, num_kv_heads, HEAD_DIM]; cos_sin_cache: [max_pos, HEAD_DIM]
    # (cos in the first half, sin in the second); caches: [num_blocks,
    # KV_BLOCK, num_kv_heads, HEAD_DIM]; a negative slot is padding
    t = tl.program_id(0)
    h = tl.program_id(1)
    slot = tl.load(slot_mapping + t)
    if slot < 0:
        return
    pos = tl.load(positions + t)
    HALF: tl.constexpr = HEAD_DIM // 2
    j = tl.arange(0, HALF)
    c = tl.load(cos_sin_cache + pos * HEAD_DIM + j)
    s = tl.load(cos_sin_cache + pos * HEAD_DIM + HALF + j)
    src = Key + t.to(tl.int64) * stride_kt + h * HEAD_DIM
    if IS_NEOX:
        i1 = j
        i2 = j + HALF
    else:
        i1 = 2 * j
        i2 = 2 * j + 1
    x1 = tl.load(src + i1).to(tl.float32)
    x2 = tl.load(src + i2).to(tl.float32)
    o1 = x1 * c - x2 * s
    o2 = x2 * c + x1 * s
    blk = slot // KV_BLOCK
    off = slot % KV_BLOCK
    dst = blk * stride_cache_blk + (off * num_kv_heads + h) * HEAD_DIM
    tl.store(key_cache + dst + i1, o1.to(key_cache.dtype.element_ty))
    tl.store(key_cache + dst + i2, o2.to(key_cache.dtype.element_ty))
    dd = tl.arange(0, HEAD_DIM)
    v = tl.load(Value + t.to(tl.int64) * stride_kt + h * HEAD_DIM + dd)
    tl.store(value_cache + dst + dd, v)


@triton.jit
def top_k_top_p_mask_kernel(Logits, stride, top_ks, top_ps, V, BLOCK_V: tl.constexpr):
    # logits below the k-th largest or outside the top-p nucleus become -inf;
    # k == 0 and p == 1.0 disable either rule
    row = tl.program_id(0)
    ptr = Logits + row.to(tl.int64) * stride
    cols = tl.arange(0, BLOCK_V)
    mask = cols < V
    x = tl.load(ptr + cols, mask=mask, other=float("-inf"))
    k = tl.load(top_ks + row)
    p = tl.load(top_ps + row)
    srt = tl.sort(x, descending=True)
    kth = tl.sum(tl.where(cols == k - 1, srt, 0.0), axis=0)
    thresh = tl.where(k > 0, kth, float("-inf"))
    e = tl.exp(srt - tl.max(srt, axis=0))
    probs = e / tl.sum(e, axis=0)
    before = tl.cumsum(probs, axis=0) - probs
    keep = before < p
    nucleus = tl.min(tl.where(keep, srt, float("inf")), axis=0)
    thresh = tl.maximum(thresh, nucleus)
    x = tl.where(x < thresh, float("-inf"), x)
    tl.store(ptr + cols, x, mask=mask)


@triton.jit
def group_norm_kernel(X, Y, W, B, Mean, Rstd, HW, num_groups, eps,
                      CHANNELS_PER_GROUP: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # X: [N, C, HW] contiguous, C = num_groups * CHANNELS_PER_GROUP
    n = tl.program_id(0)
    g = tl.program_id(1)
    group_size = CHANNELS_PER_GROUP * HW
    base = (n * num_groups + g).to(tl.int64) * group_size
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, group_size, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + base + offs, mask=offs < group_size, other=0.0).to(tl.float32)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / group_size
    var = tl.sum(acc2, axis=0) / group_size - mean * mean
    rstd = tl.math.rsqrt(tl.maximum(var, 0.0) + eps)
    tl.store(Mean + n * num_groups + g, mean)
    tl.store(Rstd + n * num_groups + g, rstd)
    for start in range(0, group_size, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < group_size
        ch = g * CHANNELS_PER_GROUP + offs // HW
        w = tl.load(W + ch, mask=mask, other=1.0).to(tl.float32)
        bias = tl.load(B + ch, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(X + base + offs, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + bias
        tl.store(Y + base + offs, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def embedding_bwd_kernel(grad_out, ids, grad_weight, n_tokens, D, padding_idx,
                         BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_d = tl.program_id(1)
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    dd = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    t_mask = t < n_tokens
    idx = tl.load(ids + t, mask=t_mask, other=padding_idx)
    row_mask = t_mask & (idx != padding_idx)
    mask = row_mask[:, None] & (dd[None, :] < D)
    g = tl.load(grad_out + t[:, None].to(tl.int64) * D + dd[None, :], mask=mask, other=0.0)
    tl.atomic_add(grad_weight + idx[:, None] * D + dd[None, :], g.to(tl.float32), mask=mask)


@triton.jit
def per_token_quant_int8_kernel(X, Q, Scale, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    amax = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = tl.max_contiguous(tl.multiple_of(start + cols, BLOCK_SIZE), BLOCK_SIZE)
        x = tl.load(X + row * stride + offs, mask=offs < n_cols, other=0.0)
        amax = tl.maximum(amax, tl.abs(x.to(tl.float32)))
    scale = tl.max(amax, axis=0) / 127.0
    scale = tl.where(scale == 0.0, 1.0, scale)
    tl.store(Scale + row, scale)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = tl.max_contiguous(tl.multiple_of(start + cols, BLOCK_SIZE), BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(X + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
        q = libdevice.rint(x / scale)
        q = tl.clamp(q, -127.0, 127.0)
        tl.store(Q + row * stride + offs, tl.cast(q, tl.int8), mask=mask)


@triton.jit
def dequant_int8_kernel(Q, Scale, Out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None].to(tl.int64) * N + rn[None, :]
    q = tl.load(Q + offs, mask=mask, other=0)
    s = tl.load(Scale + rm, mask=rm < M, other=0.0)
    out = q.to(tl.float32) * s[:, None]
    tl.store(Out + offs, out.to(Out.dtype.element_ty), mask=mask)


@triton.jit
def apply_activation(x, ACTIVATION: tl.constexpr):
    if ACTIVATION == "gelu_tanh":
        x = gelu_tanh(x)
    elif ACTIVATION == "silu":
        x = silu(x)
    elif ACTIVATION == "relu":
        x = tl.maximum(x, 0.0)
    return x


@triton.jit
def linear_bias_act_kernel(A, W, Bias, C, M, N, K, stride_am, stride_wn, stride_cm, stride_cn,
                           ACTIVATION: tl.constexpr, HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = act(A @ W^T + bias), A: [M, K], W: [N, K] (nn.Linear's weight)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.max_contiguous(tl.multiple_of(offs_m, BLOCK_M), BLOCK_M)
    offs_n = tl.max_contiguous(tl.multiple_of(offs_n, BLOCK_N), BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_m[:, None].to(tl.int64) * stride_am + offs_k[None, :]
    w_ptrs = W + offs_n[None, :].to(tl.int64) * stride_wn + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, w, acc)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    if HAS_BIAS:
        bias = tl.load(Bias + offs_n, mask=offs_n < N, other=0.0)
        acc += bias[None, :].to(tl.float32)
    acc = apply_activation(acc, ACTIVATION)
    c_ptrs = C + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def segment_combine(v1, f1, v2, f2):
    # (value, starts-a-segment) pairs: a right operand that opens a segment
    # drops the left sum
    v = tl.where(f2 != 0, v2, v1 + v2)
    return v, f1 | f2


@triton.jit
def segment_cumsum_kernel(Values, Flags, Out, Totals, n_rows, n_cols, threshold,
                          ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    # a running sum of the values above threshold that restarts at each
    # flagged column; Totals gets the sum over the row's last segment
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * n_cols + cols[None, :]
    v = tl.load(Values + offs, mask=mask, other=0.0)
    f = tl.load(Flags + offs, mask=mask, other=0).to(tl.int32)
    v = tl.where(v > threshold, v, 0.0)
    s, _ = tl.associative_scan((v, f), axis=1, combine_fn=segment_combine)
    tl.store(Out + offs, s, mask=mask)
    last = tl.sum(tl.where(cols[None, :] == n_cols - 1, s, 0.0), axis=1)
    tl.store(Totals + rows, last, mask=rows < n_rows)


@triton.jit
def online_softmax_rows_kernel(X, Y, x_stride, y_stride, n_cols, LOG: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X += row * x_stride
    Y += row * y_stride
    m = tl.full([BLOCK_N], float("-inf"), dtype=tl.float32)
    z = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        x = tl.load(X + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((m - m_new) * 1.4426950408889634))
        z = z * alpha + tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((x - m_new) * 1.4426950408889634))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(z * tl.exp(m - row_max), axis=0)
    for start in range(0, n_cols, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        mask = offs < n_cols
        x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
        if LOG:
            y = x - row_max - tl.log(total)
        else:
            y = tl.exp(x - row_max) / total
        tl.store(Y + offs, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def welford_combine(mean1, m2_1, n1, mean2, m2_2, n2):
    n = n1 + n2
    delta = mean2 - mean1
    w2 = tl.where(n == 0.0, 0.0, n2 / tl.where(n == 0.0, 1.0, n))
    return mean1 + delta * w2, m2_1 + m2_2 + delta * delta * n1 * w2, n


@triton.jit
def welford_var_kernel(X, Mean, Var, stride, n_rows, n_cols, CORRECTION: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    if row >= n_rows:
        return
    ptr = X + row.to(tl.int64) * stride
    mean = 0.0
    m2 = 0.0
    count = 0.0
    for start in range(0, n_cols, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        mask = offs < n_cols
        x = tl.load(ptr + offs, mask=mask, other=0.0).to(tl.float32)
        w = mask.to(tl.float32)
        bm, bm2, bn = tl.reduce((x, tl.zeros_like(x), w), 0, welford_combine)
        mean, m2, count = welford_combine(mean, m2, count, bm, bm2, bn)
    tl.store(Mean + row, mean)
    tl.store(Var + row, m2 / tl.maximum(count - CORRECTION, 1.0))


@triton.jit
def argmax_combine(v1, i1, v2, i2):
    # NaN is the largest value; ties go to the lower index
    nan1 = v1 != v1
    nan2 = v2 != v2
    gt = (v1 > v2) | (nan1 & ~nan2)
    eq = (v1 == v2) | (nan1 & nan2)
    pick1 = gt | (eq & (i1 < i2))
    return tl.where(pick1, v1, v2), tl.where(pick1, i1, i2)


@triton.jit
def argmax_rows_kernel(X, Index, Value, stride, n_rows, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    ptr = X + row.to(tl.int64) * stride
    best_v = tl.load(ptr).to(tl.float32)
    best_i = 0
    for start in range(0, n_cols, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        x = tl.load(ptr + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        bv, bi = tl.reduce((x, offs), 0, argmax_combine)
        best_v, best_i = argmax_combine(best_v, best_i, bv, bi)
    tl.store(Index + row, best_i.to(tl.int64))
    tl.store(Value + row, best_v.to(Value.dtype.element_ty))


@triton.jit
def sparsemax_fwd_kernel(X, Y, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=mask, other=float("-inf")).to(tl.float32)
    z = tl.sort(x, descending=True)
    z_cum = tl.cumsum(tl.where(z == float("-inf"), 0.0, z), axis=0)
    k = (cols + 1).to(tl.float32)
    support = (1.0 + k * z > z_cum) & (cols < n_cols)
    k_max = tl.max(tl.where(support, k, 0.0), axis=0)
    tau = (tl.sum(tl.where(support, z, 0.0), axis=0) - 1.0) / k_max
    y = tl.maximum(x - tau, 0.0)
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def sparsemax_bwd_kernel(Y, DY, DX, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    y = tl.load(Y + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    supp = y > 0
    v_hat = tl.sum(tl.where(supp, dy, 0.0), axis=0) / tl.sum(supp.to(tl.float32), axis=0)
    dx = tl.where(supp, dy - v_hat, 0.0)
    tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=mask)


@triton.jit
def top_p_bisect_kernel(Logits, stride, top_ps, V, N_ITERS: tl.constexpr, BLOCK_V: tl.constexpr):
    # nucleus masking without a sort: bisect the probability threshold whose
    # upper set still holds top_p of the mass
    row = tl.program_id(0)
    ptr = Logits + row.to(tl.int64) * stride
    cols = tl.arange(0, BLOCK_V)
    mask = cols < V
    x = tl.load(ptr + cols, mask=mask, other=float("-inf"))
    top_p = tl.load(top_ps + row)
    e = tl.exp(x - tl.max(x, axis=0))
    p = e / tl.sum(e, axis=0)
    lo = 0.0
    hi = tl.max(p, axis=0)
    for _ in range(N_ITERS):
        mid = (lo + hi) * 0.5
        mass = tl.sum(tl.where(p >= mid, p, 0.0), axis=0)
        if mass >= top_p:
            lo = mid
        else:
            hi = mid
    x = tl.where(p >= lo, x, float("-inf"))
    tl.store(ptr + cols, x, mask=mask)


@triton.jit
def dyt_fwd_kernel(X, Alpha, W, B, Y, stride, n_cols, HAVE_BETA: tl.constexpr, BLOCK: tl.constexpr):
    # dynamic tanh: y = tanh(alpha * x) * w (+ b)
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    alpha = tl.load(Alpha)
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.extra.cuda.libdevice.tanh(alpha * x) * w
    if HAVE_BETA:
        y += tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def dyt_bwd_kernel(DY, X, Alpha, W, DX, DAlpha, DW, DB, stride, n_rows, n_cols, rows_per_program,
                   HAVE_BETA: tl.constexpr, BLOCK: tl.constexpr):
    # per program: its rows' dX, and partial dW / dB rows and a partial dalpha
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    alpha = tl.load(Alpha)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    da = 0.0
    start = pid * rows_per_program
    for r in tl.range(start, min(start + rows_per_program, n_rows)):
        off = r.to(tl.int64) * stride + cols
        x = tl.load(X + off, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + off, mask=mask, other=0.0).to(tl.float32)
        t = tl.extra.cuda.libdevice.tanh(alpha * x)
        g = dy * w * (1.0 - t * t)
        tl.store(DX + off, (g * alpha).to(DX.dtype.element_ty), mask=mask)
        da += tl.sum(g * x, axis=0)
        dw += dy * t
        if HAVE_BETA:
            db += dy
    tl.store(DAlpha + pid, da)
    tl.store(DW + pid * n_cols + cols, dw, mask=mask)
    if HAVE_BETA:
        tl.store(DB + pid * n_cols + cols, db, mask=mask)


@triton.jit
def ce_ncd_kernel(X, Target, Weight, Loss, C, D, ignore_index,
                  BLOCK_C: tl.constexpr, BLOCK_D: tl.constexpr):
    # cross entropy over x: [N, C, D] (classes in the middle, as for
    # segmentation), target: [N, D]; an optional class weight (None)
    n = tl.program_id(0).to(tl.int64)
    dd = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    d_mask = dd < D
    t = tl.load(Target + n * D + dd, mask=d_mask, other=0)
    base = X + n * C * D
    m = tl.full([BLOCK_D], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK_D], dtype=tl.float32)
    x_t = tl.zeros([BLOCK_D], dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        cc = c0 + tl.arange(0, BLOCK_C)
        mask = (cc[:, None] < C) & d_mask[None, :]
        x = tl.load(base + cc[:, None] * D + dd[None, :], mask=mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new[None, :]), axis=0)
        m = m_new
        x_t += tl.sum(tl.where(cc[:, None] == t[None, :], x, 0.0), axis=0)
    nll = m + tl.log(s) - x_t
    valid = d_mask & (t != ignore_index)
    if Weight is not None:
        w = tl.load(Weight + t, mask=valid, other=0.0)
        nll = nll * w
    tl.store(Loss + n * D + dd, tl.where(valid, nll, 0.0), mask=d_mask)


@triton.jit
def lerp_rank3_kernel(A, B, Out, weight, s0, s1, s2, a_st0, a_st1, a_st2, b_st0, b_st1, b_st2, num_tasks,
                      tiles_per_cta, BLOCK: tl.constexpr):
    # out = lerp(a, b, weight) over a broadcast rank-3 index space, the way
    # a generated pointwise kernel walks it: grid-stride tiles, the flat
    # index unravelled with // and %
    pid = tl.program_id(0)
    num_ctas = tl.num_programs(0)
    for j in range(0, tiles_per_cta):
        tile_id = pid + j * num_ctas
        tid = tile_id.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = tid < num_tasks
        i2 = tid % s2
        rest = tid // s2
        i1 = rest % s1
        i0 = rest // s1
        a = tl.load(A + i0 * a_st0 + i1 * a_st1 + i2 * a_st2, mask=mask).to(tl.float32)
        b = tl.load(B + i0 * b_st0 + i1 * b_st1 + i2 * b_st2, mask=mask).to(tl.float32)
        diff = b - a
        out = tl.where(weight < 0.5, a + weight * diff, b - diff * (1.0 - weight))
        tl.store(Out + tid, out.to(Out.dtype.element_ty), mask=mask)


@triton.jit
def _gelu_fwd_bwd(x):
    cdf = 0.5 * (1.0 + tl.math.erf(x * INV_SQRT_2))
    return x * cdf, cdf + x * tl.exp(-0.5 * x * x) * 0.3989422804014327


@triton.jit
def dropout_bias_gelu_kernel(X, Bias, DY, Out, M, N, p, seed, BACKWARD: tl.constexpr,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # forward: out = dropout(gelu(x + bias)); backward: out = dx, the same
    # mask regenerated from (seed, element index)
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    x += tl.load(Bias + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :]
    keep = tl.rand(seed, offs) > p
    act, dact = _gelu_fwd_bwd(x)
    if BACKWARD:
        dy = tl.load(DY + offs, mask=mask, other=0.0).to(tl.float32)
        out = tl.where(keep, dy / (1 - p), 0.0) * dact
    else:
        out = tl.where(keep, act / (1 - p), 0.0)
    tl.store(Out + offs, out.to(Out.dtype.element_ty), mask=mask)


@triton.jit
def ce_chunk_fwd_kernel(Logits, stride, Labels, Loss, LSE, n_chunks, V, softcap, logit_scale,
                        DO_SOFTCAPPING: tl.constexpr, DO_LOGIT_SCALING: tl.constexpr, BLOCK: tl.constexpr):
    # grid (rows, chunks): the logsumexp of one vocabulary chunk per program;
    # chunk 0 also stores -logit[label] (0 for an ignored row)
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    ptr = Logits + row.to(tl.int64) * stride
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    label = tl.load(Labels + row).to(tl.int32)
    x = tl.load(ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
    if DO_LOGIT_SCALING:
        x = logit_scale * x
    if DO_SOFTCAPPING:
        x = softcap * libdevice.tanh(x / softcap)
    mx = tl.max(x, axis=0)
    lse = mx + tl.log(tl.sum(tl.exp(x - mx), axis=0))
    if chunk == 0:
        if label != -100:
            xl = tl.load(ptr + label).to(tl.float32)
            if DO_LOGIT_SCALING:
                xl = logit_scale * xl
            if DO_SOFTCAPPING:
                xl = softcap * libdevice.tanh(xl / softcap)
            loss = -1.0 * xl
        else:
            loss = 0.0
        tl.store(Loss + row, loss)
    tl.store(LSE + row * n_chunks + chunk, lse)


@triton.jit
def ce_chunk_combine_kernel(Loss, LSE_chunks, LSE, Labels, n_chunks, CHUNKS: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, CHUNKS)
    part = tl.load(LSE_chunks + row * n_chunks + c, mask=c < n_chunks, other=float("-inf"))
    mx = tl.max(part, axis=0)
    lse = mx + tl.log(tl.sum(tl.exp(part - mx), axis=0))
    tl.store(LSE + row, lse)
    label = tl.load(Labels + row)
    loss = tl.load(Loss + row)
    tl.store(Loss + row, tl.where(label != -100, loss + lse, 0.0))


@triton.jit
def ce_chunk_bwd_kernel(Logits, stride, dLoss, dloss_stride, LSE, Labels, V, softcap, logit_scale,
                        DO_SOFTCAPPING: tl.constexpr, DO_LOGIT_SCALING: tl.constexpr, BLOCK: tl.constexpr):
    # d loss / d logits written over the logits; dloss_stride is 0 when the
    # upstream gradient is one scalar (a mean)
    row = tl.program_id(0)
    ptr = Logits + row.to(tl.int64) * stride
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    label = tl.load(Labels + row)
    if label != -100:
        dloss = tl.load(dLoss + row * dloss_stride)
    else:
        dloss = 0.0
    x = tl.load(ptr + cols, mask=mask, other=0.0).to(tl.float32)
    if DO_LOGIT_SCALING:
        x = x * logit_scale
    partial = x
    if DO_SOFTCAPPING:
        partial = libdevice.tanh(x / softcap)
        x = softcap * partial
    lse = tl.load(LSE + row)
    y = tl.exp(x - lse)
    y = tl.where(cols == label, y - 1.0, y)
    if DO_SOFTCAPPING:
        y = y * (1.0 - partial * partial)
    if DO_LOGIT_SCALING:
        y = y * logit_scale
    tl.store(ptr + cols, (dloss * y).to(Logits.dtype.element_ty), mask=mask)


@triton.jit
def causal_softmax_kernel(X, Y, stride_bh, stride_q, Sq, Sk, scale, BLOCK_K: tl.constexpr):
    # softmax(scale * x) over the keys of x: [BH, Sq, Sk], bottom-right
    # aligned causal mask; grid (Sq, BH)
    q = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    k = tl.arange(0, BLOCK_K)
    limit = q + Sk - Sq
    mask = k < Sk
    x = tl.load(X + bh * stride_bh + q * stride_q + k, mask=mask, other=0.0).to(tl.float32) * scale
    x = tl.where(mask & (k <= limit), x, float("-inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(Y + bh * stride_bh + q * stride_q + k, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def prefix_attention_kernel(Q, K_cache, V_cache, block_table, ctx_lens, Out, scale,
                            stride_qt, stride_qh, stride_kb, stride_kh, stride_kd, stride_kbl, stride_kx,
                            stride_vb, stride_vh, stride_vd, stride_vbl, stride_bt, stride_ot, stride_oh,
                            QUERY_GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, X: tl.constexpr,
                            KV_BLOCK: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # queries of one sequence attend to its cached context through the
    # paged layouts vLLM uses: keys [blocks, heads, HEAD_DIM // X, KV_BLOCK, X],
    # values [blocks, heads, HEAD_DIM, KV_BLOCK]; grid (seqs, q heads, q tiles)
    seq = tl.program_id(0)
    h = tl.program_id(1)
    kv_h = h // QUERY_GROUP
    offs_m = tl.program_id(2) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    ctx = tl.load(ctx_lens + seq)
    q_rows = seq * BLOCK_M * tl.num_programs(2) + offs_m
    q = tl.load(Q + q_rows[:, None] * stride_qt + h * stride_qh + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    for start_n in range(0, ctx, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        tok = start_n + offs_n
        bn = tl.load(block_table + seq * stride_bt + tok // KV_BLOCK, mask=tok < ctx, other=0).to(tl.int64)
        off_k = (bn[None, :] * stride_kb + kv_h * stride_kh + (offs_d[:, None] // X) * stride_kd
                 + (tok[None, :] % KV_BLOCK) * stride_kbl + (offs_d[:, None] % X) * stride_kx)
        k = tl.load(K_cache + off_k, mask=tok[None, :] < ctx, other=0.0)
        qk = tl.dot(q, k) * scale
        qk = tl.where(tok[None, :] < ctx, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        off_v = (bn[:, None] * stride_vb + kv_h * stride_vh + offs_d[None, :] * stride_vd
                 + (tok[:, None] % KV_BLOCK) * stride_vbl)
        v = tl.load(V_cache + off_v, mask=tok[:, None] < ctx, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(Out + q_rows[:, None] * stride_ot + h * stride_oh + offs_d[None, :], acc.to(Out.dtype.element_ty))


@triton.jit
def lora_shrink_kernel(X, LoRA_A, Out, lora_ids, M, K, R, stride_xm, stride_al, stride_ar, stride_om, scaling,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       SPLIT_K: tl.constexpr):
    # out[m, :R] += scaling * x[m] @ A[lora[m]]^T, one LoRA per token tile
    # (tokens are grouped by adapter), -1 for none; split-K through atomics
    pid_m = tl.program_id(0)
    pid_sk = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    lora = tl.load(lora_ids + pid_m * BLOCK_M)
    if lora == -1:
        return
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = pid_sk * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptr = X + offs_m[:, None] * stride_xm + offs_k[None, :]
    b_ptr = LoRA_A + lora.to(tl.int64) * stride_al + offs_n[None, :] * stride_ar + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_rem = K - k * (BLOCK_K * SPLIT_K)
        a = tl.load(a_ptr, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_rem), other=0.0)
        b = tl.load(b_ptr, mask=(offs_k[:, None] < k_rem) & (offs_n[None, :] < R), other=0.0)
        acc += tl.dot(a, b)
        a_ptr += BLOCK_K * SPLIT_K
        b_ptr += BLOCK_K * SPLIT_K
    acc *= scaling
    o_ptr = Out + offs_m[:, None] * stride_om + offs_n[None, :]
    o_mask = (offs_m[:, None] < M) & (offs_n[None, :] < R)
    if SPLIT_K == 1:
        tl.store(o_ptr, acc.to(Out.dtype.element_ty), mask=o_mask)
    else:
        tl.atomic_add(o_ptr, acc.to(Out.dtype.element_ty), mask=o_mask)


@triton.jit
def w8a8_gemm_kernel(A, B, C, scale_a, scale_b, Bias, M, N, K, stride_am, stride_bk, stride_cm,
                     HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     GROUP_M: tl.constexpr):
    # int8 x int8 -> int32 accumulation, per-token (row) and per-channel
    # (column) scales, a grouped launch order
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % size_m
    pid_n = (pid % per_group) // size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = B + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K), other=0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_K) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    sa = tl.load(scale_a + offs_m, mask=offs_m < M, other=0.0)
    sb = tl.load(scale_b + offs_n, mask=offs_n < N, other=0.0)
    out = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    if HAS_BIAS:
        out += tl.load(Bias + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], out.to(C.dtype.element_ty), mask=c_mask)


@triton.jit
def token_bitmask_kernel(Logits, Bitmask, indices, V, logits_stride, bitmask_stride, BLOCK: tl.constexpr):
    # structured output: a token whose bit is 0 in the row's packed int32
    # mask gets -inf; grid (rows to mask, vocabulary blocks)
    row = tl.load(indices + tl.program_id(0))
    start = tl.program_id(1) * BLOCK
    words = start // 32 + tl.arange(0, BLOCK // 32)
    packed = tl.load(Bitmask + row * bitmask_stride + words, mask=words < bitmask_stride, other=-1)
    bits = (packed[:, None] >> tl.arange(0, 32)[None, :]) & 1
    blocked = tl.reshape(bits == 0, (BLOCK,))
    offs = start + tl.arange(0, BLOCK)
    tl.store(Logits + row * logits_stride + offs, -float("inf"), mask=blocked & (offs < V))


@triton.jit
def merge_attn_states_kernel(Out, Out_lse, P, P_lse, S, S_lse, n_heads, HEAD_SIZE: tl.constexpr,
                             PAD: tl.constexpr, OUTPUT_LSE: tl.constexpr):
    # the exact attention over two key sets from the partial outputs and
    # their logsumexps (prefix and suffix); an inf lse (an empty part) counts
    # as -inf; grid (tokens, heads)
    t = tl.program_id(0)
    h = tl.program_id(1)
    p_lse = tl.load(P_lse + h * tl.num_programs(0) + t)
    s_lse = tl.load(S_lse + h * tl.num_programs(0) + t)
    p_lse = tl.where(p_lse == float("inf"), float("-inf"), p_lse)
    s_lse = tl.where(s_lse == float("inf"), float("-inf"), s_lse)
    mx = tl.maximum(p_lse, s_lse)
    p_lse = p_lse - mx
    s_lse = s_lse - mx
    p_se = tl.exp(p_lse)
    s_se = tl.exp(s_lse)
    total = p_se + s_se
    if OUTPUT_LSE:
        tl.store(Out_lse + h * tl.num_programs(0) + t, tl.log(total) + mx)
    d = tl.arange(0, PAD)
    dm = d < HEAD_SIZE
    base = (t * n_heads + h).to(tl.int64) * HEAD_SIZE
    p = tl.load(P + base + d, mask=dm).to(tl.float32)
    s = tl.load(S + base + d, mask=dm).to(tl.float32)
    out = p * (p_se / total) + s * (s_se / total)
    tl.store(Out + base + d, out.to(Out.dtype.element_ty), mask=dm)


@triton.jit
def grpo_loss_kernel(Logits, OldLogp, RefLogp, Completion, Advantages, Mask, Loss, PerTokenKL, Clipped,
                     temperature, beta, eps_low, eps_high, L, V,
                     BLOCK_V: tl.constexpr):
    # one program per completion token (grid (B, L)): the chosen token's
    # log-probability from an online logsumexp over the vocabulary, the
    # clipped PPO ratio and the k3 KL estimate to a reference policy
    b = tl.program_id(0).to(tl.int64)
    l = tl.program_id(1).to(tl.int64)
    tok = b * L + l
    if tl.load(Mask + tok) == 0:
        return
    logits = Logits + tok * V
    m = float("-inf")
    s = 0.0
    for start in range(0, V, BLOCK_V):
        cols = start + tl.arange(0, BLOCK_V)
        x = tl.load(logits + cols, mask=cols < V, other=float("-inf")).to(tl.float32) / temperature
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    idx = tl.load(Completion + tok)
    logp = tl.load(logits + idx).to(tl.float32) / temperature - (m + tl.log(s))
    adv = tl.load(Advantages + b)
    old = tl.load(OldLogp + tok)
    ratio = tl.exp(logp - old)
    clipped = tl.clamp(ratio, 1.0 - eps_low, 1.0 + eps_high)
    loss = -tl.minimum(ratio * adv, clipped * adv)
    is_clipped = (ratio * adv) > (clipped * adv)
    if beta != 0.0:
        ref = tl.load(RefLogp + tok)
        kl = tl.exp(ref - logp) - (ref - logp) - 1.0
        loss += beta * kl
        tl.store(PerTokenKL + tok, kl)
    tl.store(Loss + tok, loss)
    tl.store(Clipped + tok, is_clipped.to(tl.int8))


@triton.jit(noinline=True)
def _kth_largest(ptr, n, k, BLOCK: tl.constexpr):
    # a helper kept out of line (scalar arguments only): its sorted copy
    # of the row lives in a frame of its own
    cols = tl.arange(0, BLOCK)
    x = tl.load(ptr + cols, mask=cols < n, other=-1.0)
    srt = tl.sort(x, descending=True)
    return tl.sum(tl.where(cols == k - 1, srt, 0.0), axis=0)


@triton.jit
def top_k_renorm_kernel(Probs, stride, top_ks, V, BLOCK_V: tl.constexpr):
    # probabilities outside the row's top k become 0 and the rest are
    # renormalised (vLLM / FlashInfer's top_k_renorm_probs)
    row = tl.program_id(0)
    ptr = Probs + row.to(tl.int64) * stride
    cols = tl.arange(0, BLOCK_V)
    mask = cols < V
    p = tl.load(ptr + cols, mask=mask, other=0.0)
    k = tl.load(top_ks + row)
    kth = _kth_largest(ptr, V, k, BLOCK_V)
    p = tl.where(p >= kth, p, 0.0)
    tl.store(ptr + cols, p / tl.sum(p, axis=0), mask=mask)
