# KERNEL: cross_entropy_online_kernel
# SIGNATURE: *fp32:16,i64,*i64:16,i64,*fp32:16,*fp32:16,i64,i32,i32,i64,fp32,fp32,fp32
# CONSTEXPR: RETURN_Z_LOSS=True, HAS_SOFTCAPPING=False, REDUCTION="mean", BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: cross_entropy_online_kernel
# SIGNATURE: *bf16:16,i64,*i64:16,i64,*fp32:16,*fp32:16,i64,i32,i32,i64,fp32,fp32,fp32
# CONSTEXPR: RETURN_Z_LOSS=False, HAS_SOFTCAPPING=True, REDUCTION="sum", BLOCK_SIZE=2048
# GRID: n_rows
#
# KERNEL: swiglu_forward_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i64,i32
# CONSTEXPR: BLOCK_SIZE=512
# GRID: n_rows
#
# KERNEL: swiglu_backward_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i64,i32
# CONSTEXPR: BLOCK_SIZE=512
# GRID: n_rows
#
# KERNEL: geglu_tanh_backward_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: rope_qk_kernel
# SIGNATURE: *fp16:16,i32,*fp16:16,i32,*fp32:16,i32,*fp32:16,i32,i32,i32
# CONSTEXPR: n_qh=8, n_kh=2, hd=64, BLOCK_HALF=32, BACKWARD_PASS=False
# GRID: bsz * seq_len
#
# KERNEL: rope_qk_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,i32,*fp32:16,i32,i32,i32
# CONSTEXPR: n_qh=5, n_kh=1, hd=24, BLOCK_HALF=16, BACKWARD_PASS=True
# GRID: bsz * seq_len
#
# KERNEL: fused_add_rms_norm_fwd_kernel
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*bf16:16,i32,*bf16:16,i32,*bf16:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: CASTING_MODE="llama", BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: fused_add_rms_norm_fwd_kernel
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*bf16:16,i32,*bf16:16,i32,*bf16:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: CASTING_MODE="gemma", BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: fused_add_rms_norm_fwd_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: CASTING_MODE="none", BLOCK_SIZE=256
# GRID: n_rows
#
# KERNEL: rms_norm_bwd_partial_kernel
# SIGNATURE: *bf16:16,i32,*bf16:16,i32,*bf16:16,i32,*bf16:16,i32,*bf16:16,*fp32:16,*fp32:16,i32,i32,i32,fp32,i32
# CONSTEXPR: HAS_DS_OUT=True, BLOCK_SIZE=1024
# GRID: cdiv(n_rows, rows_per_program)
#
# KERNEL: layer_norm_bwd_locked_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32,i32,i32
# CONSTEXPR: GROUP_SIZE=4, BLOCK_SIZE_N=256
# GRID: cdiv(n_rows, rows_per_program)
#
# KERNEL: kl_div_fwd_bwd_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: LOG_TARGET=False, REDUCTION="batchmean", BLOCK_SIZE=512
# GRID: n_rows
#
# KERNEL: kl_div_fwd_bwd_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: LOG_TARGET=True, REDUCTION="none", BLOCK_SIZE=512
# GRID: n_rows
#
# KERNEL: group_norm_2d_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_C=4, BLOCK_HW=128
# GRID: n_batch * n_groups
#
# KERNEL: dropout_add_residual_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*i8:16,i32,fp32,i64
# CONSTEXPR: BLOCK_SIZE=1024
# GRID: cdiv(n_elements, BLOCK_SIZE)
#
# KERNEL: embedding_backward_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_N=16, BLOCK_D=64
# GRID: cdiv(n_tokens, BLOCK_N), cdiv(dim, BLOCK_D)
#
# KERNEL: jsd_kernel
# SIGNATURE: *fp32:16,i32,*fp32:16,i32,*fp32:16,i32,*fp32:16,i32,*i64:16,fp32,i32,i32,i32
# CONSTEXPR: HAS_LABEL=True, BLOCK_SIZE=1024
# GRID: n_rows
#
# KERNEL: softcap_where_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: MODE="tanh", BLOCK_SIZE=512
# GRID: cdiv(n_elements, BLOCK_SIZE)
#
# KERNEL: softcap_where_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,fp32,fp32
# CONSTEXPR: MODE="clip", BLOCK_SIZE=512
# GRID: cdiv(n_elements, BLOCK_SIZE)
#
# KERNEL: ce_forward_unsloth_style
# SIGNATURE: *bf16:16,i64,*fp32:16,*fp32:16,*i64:16
# CONSTEXPR: VOCAB_SIZE=3000, BLOCK_SIZE=4096, DO_SOFTCAPPING=True, SOFTCAP=30.0, DO_LOGIT_SCALING=True, LOGIT_SCALE=0.5
# GRID: n_rows
#
# KERNEL: rope_grouped_heads
# SIGNATURE: *fp16:16,i32,*fp32:16,i32,*fp32:16,i32,i32
# CONSTEXPR: head_dim=64, n_heads=10, BACKWARD_PASS=False, BLOCK_SIZE=32
# GRID: n_rows, cdiv(n_heads, 4)
#
# KERNEL: lse_matmul_fwd
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i64:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BLOCK_B=32, BLOCK_V=64, BLOCK_D=32, HAS_TARGET=True
# GRID: cdiv(B, BLOCK_B)
#
# Training kernels as LLM training libraries write them (the Liger-Kernel /
# unsloth style): a fused cross entropy forward and backward over a large
# vocabulary in chunks (online max and sum, label smoothing and z-loss read
# as runtime floats, an ignore_index early exit, logit softcapping with
# libdevice tanh, the gradient written over the logits, i64 strides);
# SwiGLU forward and backward over column chunks with a @jit silu; GeGLU
# (tanh) backward through a helper returning a tuple; RoPE on q and k in
# the rotate-half layout with a tl.static_range loop over the q heads and a
# runtime loop over the k heads; fused residual add + RMSNorm in three
# casting modes (string constexpr if/elif chains, eviction policies) and its
# backward with a per-program partial dW row and an optional residual
# gradient; layer norm backward over several rows per program that adds
# its dW/dB into GROUP_SIZE buffers behind an atomic_cas spin lock released
# with atomic_xchg; KL divergence forward + backward with a log-target
# flag; group norm over 2-D [channels, spatial] tiles; dropout + residual
# add with tl.rand; an embedding backward with 2-D masked tl.atomic_add; a
# generalised Jensen-Shannon divergence with a runtime beta selecting
# if/elif/else branches over tensors; a softcap with chained tl.where; an
# unsloth-style cross entropy forward (module-level aliases of libdevice.tanh
# and tl.cast, heuristics on constexpr flags, a loss that is a tensor in one
# branch of a runtime `if` and the float 0.0 in the other); RoPE over groups
# of heads on a second grid axis (a plain local constant, `min()` of a
# tensor and a constexpr as a loop bound); a logsumexp over the vocabulary
# of E @ C^T by tiles (tl.dot in a k loop, online max/sum per row, the
# target's logit picked out by a compare), never materialising the logits.
import triton
import triton.language as tl
from triton.language.extra import libdevice

triton_tanh = libdevice.tanh
triton_cast = tl.cast


@triton.jit
def cross_entropy_online_kernel(
    X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, z_loss_ptr, loss_stride,
    n_cols, n_non_ignore, ignore_index, label_smoothing, lse_square_scale, softcap,
    RETURN_Z_LOSS: tl.constexpr, HAS_SOFTCAPPING: tl.constexpr, REDUCTION: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    # one program per row: the loss (and z-loss) of the row, and the
    # gradient of the loss with respect to the logits written over them
    program_id = tl.program_id(0).to(tl.int64)
    Y_ptr += program_id * Y_stride
    y = tl.load(Y_ptr)
    X_ptr += program_id * X_stride
    loss_ptr += program_id * loss_stride
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            X_offsets = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X_ptr + X_offsets, 0.0, mask=X_offsets < n_cols)
        tl.store(loss_ptr, 0.0)
        if RETURN_Z_LOSS:
            tl.store(z_loss_ptr + program_id * loss_stride, 0.0)
        return

    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)
    if HAS_SOFTCAPPING:
        ori_X_y = softcap * libdevice.tanh(ori_X_y / softcap)
    scaled_x_sum = 0.0
    eps = label_smoothing / n_cols

    # pass 1: running max m and running sum d of exp(x - m)
    for i in tl.range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf"),
                          eviction_policy="evict_last").cast(tl.float32)
        if HAS_SOFTCAPPING:
            X_block = softcap * libdevice.tanh(X_block / softcap)
        block_max = tl.max(X_block)
        if label_smoothing > 0:
            scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    lse = m + tl.log(d)

    # pass 2: softmax - smoothed one-hot (+ the z-loss term), in place
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf"),
                          eviction_policy="evict_first").cast(tl.float32)
        if HAS_SOFTCAPPING:
            intermediate = libdevice.tanh(X_block / softcap)
            X_block = softcap * intermediate
        X_block = tl.exp(X_block - m) / d
        X_block += 2 * lse_square_scale * lse * X_block
        X_block += -eps
        X_block = tl.where(X_offsets != y, X_block, X_block - (1 - label_smoothing))
        if REDUCTION == "mean":
            X_block = X_block / n_non_ignore
        if HAS_SOFTCAPPING:
            X_block = X_block * (1 - intermediate * intermediate)
        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)

    tl.debug_barrier()
    loss = lse - ori_X_y
    if label_smoothing > 0:
        smooth_loss = scaled_x_sum + label_smoothing * lse
        loss = loss * (1 - label_smoothing) + smooth_loss
    z_loss = lse_square_scale * lse * lse
    loss += z_loss
    if REDUCTION == "mean":
        z_loss = z_loss / n_non_ignore
        loss = loss / n_non_ignore
    tl.store(loss_ptr, loss)
    if RETURN_Z_LOSS:
        tl.store(z_loss_ptr + program_id * loss_stride, z_loss)


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def swiglu_forward_kernel(a_ptr, b_ptr, c_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    a_ptr += program_id * row_stride
    b_ptr += program_id * row_stride
    c_ptr += program_id * row_stride
    for off in tl.range(0, n_cols, BLOCK_SIZE):
        col_offsets = off + tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        a_row = tl.load(a_ptr + col_offsets, mask=mask, other=0).to(tl.float32)
        b_row = tl.load(b_ptr + col_offsets, mask=mask, other=0)
        c_row = silu(a_row).cast(b_row.dtype) * b_row
        tl.store(c_ptr + col_offsets, c_row, mask=mask)


@triton.jit
def swiglu_backward_kernel(dc_ptr, a_ptr, b_ptr, row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    # recomputes silu(a) and writes da over a and db over b
    program_id = tl.program_id(0).to(tl.int64)
    dc_ptr += program_id * row_stride
    a_ptr += program_id * row_stride
    b_ptr += program_id * row_stride
    for off in range(0, n_cols, BLOCK_SIZE):
        col_offsets = off + tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        dc_row = tl.load(dc_ptr + col_offsets, mask=mask, other=0)
        a_row = tl.load(a_ptr + col_offsets, mask=mask, other=0).to(tl.float32)
        b_row = tl.load(b_ptr + col_offsets, mask=mask, other=0)
        sig_a = tl.sigmoid(a_row)
        silu_a = a_row * sig_a
        db_row = dc_row * silu_a
        da_row = dc_row * (silu_a * (1 - sig_a) + sig_a) * b_row
        tl.store(a_ptr + col_offsets, da_row, mask=mask)
        tl.store(b_ptr + col_offsets, db_row, mask=mask)


@triton.jit
def _gelu_tanh_and_grad(a):
    # gelu(a) with the tanh approximation, and its derivative
    sqrt_2_over_pi: tl.constexpr = 0.7978845608028654
    a_cubed = a * a * a
    tanh_arg = sqrt_2_over_pi * (a + 0.044715 * a_cubed)
    tanh_result = libdevice.tanh(tanh_arg)
    gelu_a = 0.5 * a * (1 + tanh_result)
    term1 = 0.5 * (1 + tanh_result)
    tanh_sq = tanh_result * tanh_result
    term2 = 0.5 * a * (1 - tanh_sq) * (sqrt_2_over_pi * (1 + 3 * 0.044715 * a * a))
    return gelu_a, term1 + term2


@triton.jit
def geglu_tanh_backward_kernel(dc, a, b, c, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    # c = gelu(a) * b is written too (the forward recomputed), da over a, db over b
    program_id = tl.program_id(0).to(tl.int64)
    dc += program_id * stride
    a += program_id * stride
    b += program_id * stride
    c += program_id * stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    dc_row = tl.load(dc + col_offsets, mask=mask, other=0)
    a_row = tl.load(a + col_offsets, mask=mask, other=0).to(tl.float32)
    b_row = tl.load(b + col_offsets, mask=mask, other=0)
    gelu_a, dgelu = _gelu_tanh_and_grad(a_row)
    tl.store(c + col_offsets, gelu_a.to(b_row.dtype) * b_row, mask=mask)
    db_row = dc_row * gelu_a
    da_row = dc_row * b_row * dgelu
    tl.store(a + col_offsets, da_row.to(dc_row.dtype), mask=mask)
    tl.store(b + col_offsets, db_row.to(dc_row.dtype), mask=mask)


@triton.jit
def _rotate_half_inplace(ptr, offs, mask, cos_row, sin_row, hd: tl.constexpr):
    x1 = tl.load(ptr + offs, mask=mask, other=0).to(tl.float32)
    x2 = tl.load(ptr + hd // 2 + offs, mask=mask, other=0).to(tl.float32)
    new_x1 = x1 * cos_row - x2 * sin_row
    new_x2 = x2 * cos_row + x1 * sin_row
    tl.store(ptr + offs, new_x1.to(ptr.dtype.element_ty), mask=mask)
    tl.store(ptr + hd // 2 + offs, new_x2.to(ptr.dtype.element_ty), mask=mask)


@triton.jit
def rope_qk_kernel(q_ptr, q_row_stride, k_ptr, k_row_stride, cos, cos_row_stride,
                   sin, sin_row_stride, sl, bs,
                   n_qh: tl.constexpr, n_kh: tl.constexpr, hd: tl.constexpr,
                   BLOCK_HALF: tl.constexpr, BACKWARD_PASS: tl.constexpr = False):
    # q: (bs * sl, n_qh * hd), k: (bs * sl, n_kh * hd), one program per
    # token, rotated in place; cos/sin: (sl, hd) of which the first half is read
    pid = tl.program_id(0).to(tl.int64)
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride
    cos_row_idx = pid % sl
    offs = tl.arange(0, BLOCK_HALF)
    mask = offs < hd // 2
    cos_row = tl.load(cos + cos_row_idx * cos_row_stride + offs, mask=mask, other=0)
    sin_row = tl.load(sin + cos_row_idx * sin_row_stride + offs, mask=mask, other=0)
    if BACKWARD_PASS:
        sin_row = -sin_row
    for h in tl.static_range(n_qh):
        _rotate_half_inplace(q_ptr + h * hd, offs, mask, cos_row, sin_row, hd)
    for h in range(n_kh):
        _rotate_half_inplace(k_ptr + h * hd, offs, mask, cos_row, sin_row, hd)


@triton.jit
def fused_add_rms_norm_fwd_kernel(Y_ptr, Y_row_stride, S_ptr, S_row_stride, X_ptr, X_row_stride,
                                  R_ptr, R_row_stride, W_ptr, RSTD_ptr, n_cols, eps, offset,
                                  CASTING_MODE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # S = X + R (the new residual stream), Y = rmsnorm(S) * (offset + W)
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0,
                    eviction_policy="evict_first")
    R_row = tl.load(R_ptr + row_idx * R_row_stride + col_offsets, mask=mask, other=0,
                    eviction_policy="evict_first")
    S_row = X_row + R_row
    tl.store(S_ptr + row_idx * S_row_stride + col_offsets, S_row, mask=mask, cache_modifier=".cg")
    S_row_dtype = S_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    if CASTING_MODE == "llama":
        S_row = S_row.to(tl.float32)
    elif CASTING_MODE == "gemma":
        W_row = W_row.to(tl.float32)
        S_row = S_row.to(tl.float32)
    mean_square = tl.sum(S_row * S_row, axis=0) / n_cols
    rstd = tl.math.rsqrt(mean_square + eps)
    tl.store(RSTD_ptr + row_idx, rstd)
    S_row = S_row * rstd
    if CASTING_MODE == "llama":
        S_row = S_row.to(S_row_dtype)
    Y_row = S_row * (offset + W_row)
    if CASTING_MODE == "gemma":
        Y_row = Y_row.to(S_row_dtype)
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row, mask=mask)


@triton.jit
def rms_norm_bwd_partial_kernel(dY_ptr, dY_row_stride, dS_out_ptr, dS_out_row_stride,
                                dX_ptr, dX_row_stride, X_ptr, X_row_stride, W_ptr, RSTD_ptr,
                                dW_ptr, dW_row_stride, n_rows, n_cols, offset, rows_per_program,
                                HAS_DS_OUT: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # rows [start, end) of dX (plus the residual's gradient), and this
    # program's partial sum of dW in row program_id of dW_ptr
    row_block_id = tl.program_id(0).to(tl.int64)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    dW_row = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32) + offset
    for row_idx in range(row_start, row_end):
        dY_row = tl.load(dY_ptr + row_idx * dY_row_stride + col_offsets, mask=mask, other=0.0)
        X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0.0)
        X_dtype = X_row.dtype
        rstd_row = tl.load(RSTD_ptr + row_idx)
        X_row = X_row.to(tl.float32)
        m = dY_row.to(tl.float32) * W_row
        dX_row = rstd_row * m
        dX_row += rstd_row * (-(1 / n_cols) * rstd_row * rstd_row * tl.sum(m * X_row, axis=0) * X_row)
        if HAS_DS_OUT:
            dX_row += tl.load(dS_out_ptr + row_idx * dS_out_row_stride + col_offsets,
                              mask=mask, other=0.0).to(tl.float32)
        dW_row += dY_row.to(tl.float32) * (X_row * rstd_row)
        tl.store(dX_ptr + row_idx * dX_row_stride + col_offsets, dX_row.to(X_dtype), mask=mask)
    tl.store(dW_ptr + row_block_id * dW_row_stride + col_offsets, dW_row, mask=mask)


@triton.jit
def layer_norm_bwd_locked_kernel(X, W, DY, DX, Mean, Rstd, DW, DB, Lock, stride, n_rows, N,
                                 rows_per_program, GROUP_SIZE: tl.constexpr,
                                 BLOCK_SIZE_N: tl.constexpr):
    # dx of rows_per_program rows; their dw/db summed in registers, then
    # added to buffer pid % GROUP_SIZE of DW/DB (zeroed by the caller) while
    # holding that buffer's lock
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw_acc = tl.zeros((BLOCK_SIZE_N,), dtype=tl.float32)
    db_acc = tl.zeros((BLOCK_SIZE_N,), dtype=tl.float32)
    row_start = pid * rows_per_program
    for r in range(rows_per_program):
        row = row_start + r
        if row < n_rows:
            off = row.to(tl.int64) * stride
            x = tl.load(X + off + cols, mask=mask, other=0.0).to(tl.float32)
            dy = tl.load(DY + off + cols, mask=mask, other=0.0).to(tl.float32)
            mean = tl.load(Mean + row)
            rstd = tl.load(Rstd + row)
            xhat = tl.where(mask, (x - mean) * rstd, 0.0)
            wdy = w * dy
            c1 = tl.sum(xhat * wdy, axis=0) / N
            c2 = tl.sum(wdy, axis=0) / N
            dx = (wdy - (xhat * c1 + c2)) * rstd
            tl.store(DX + off + cols, dx.to(DX.dtype.element_ty), mask=mask)
            dw_acc += dy * xhat
            db_acc += dy
    lock_id = pid % GROUP_SIZE
    Lock += lock_id
    DW += lock_id * N + cols
    DB += lock_id * N + cols
    while tl.atomic_cas(Lock, 0, 1) != 0:
        pass
    tl.store(DW, tl.load(DW, mask=mask, other=0.0, volatile=True) + dw_acc, mask=mask)
    tl.store(DB, tl.load(DB, mask=mask, other=0.0, volatile=True) + db_acc, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def kl_div_fwd_bwd_kernel(y_pred_ptr, y_pred_stride, y_true_ptr, y_true_stride, loss_ptr,
                          grad_ptr, n_cols, grad_scale, LOG_TARGET: tl.constexpr,
                          REDUCTION: tl.constexpr, BLOCK_SIZE: tl.constexpr, eps: tl.constexpr = 1e-10):
    # loss of KL(y_true || exp(y_pred)) for one row (summed, or per element
    # when REDUCTION == "none") and its gradient with respect to y_pred
    pid = tl.program_id(0).to(tl.int64)
    y_pred_ptr += pid * y_pred_stride
    y_true_ptr += pid * y_true_stride
    grad_ptr += pid * y_pred_stride
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        y_pred = tl.load(y_pred_ptr + offsets, mask=mask, other=0.0)
        y_true = tl.load(y_true_ptr + offsets, mask=mask, other=0.0)
        if not LOG_TARGET:
            loss = y_true * (tl.log(tl.maximum(y_true, eps)) - y_pred)
            grad = -y_true
        else:
            loss = tl.exp(y_true) * (y_true - y_pred)
            grad = -tl.exp(y_true)
        if REDUCTION == "none":
            tl.store(loss_ptr + pid * n_cols + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(tl.where(mask, loss, 0.0), axis=0)
        tl.store(grad_ptr + offsets, grad * grad_scale, mask=mask)
    if REDUCTION != "none":
        tl.store(loss_ptr + pid, loss_sum)


@triton.jit
def group_norm_2d_fwd_kernel(X_ptr, Y_ptr, W_ptr, B_ptr, Mean_ptr, RSTD_ptr, n_groups,
                             channels_per_group, hidden_size, eps,
                             BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    # X: (n_batch, n_groups * channels_per_group, hidden_size); one program
    # per (batch, group), [channel, spatial] tiles
    pid = tl.program_id(0)
    batch_idx = pid // n_groups
    group_idx = pid % n_groups
    group_size = channels_per_group * hidden_size
    base = (batch_idx.to(tl.int64) * n_groups + group_idx) * group_size
    c_offs = tl.arange(0, BLOCK_C)
    c_mask = c_offs < channels_per_group
    s = tl.zeros((BLOCK_C, BLOCK_HW), dtype=tl.float32)
    sq = tl.zeros((BLOCK_C, BLOCK_HW), dtype=tl.float32)
    for hw in range(0, hidden_size, BLOCK_HW):
        hw_offs = hw + tl.arange(0, BLOCK_HW)
        m2 = c_mask[:, None] & (hw_offs[None, :] < hidden_size)
        x = tl.load(X_ptr + base + c_offs[:, None] * hidden_size + hw_offs[None, :], mask=m2, other=0.0)
        s += x
        sq += x * x
    mean = tl.sum(tl.sum(s, axis=1), axis=0) / group_size
    var = tl.sum(tl.sum(sq, axis=1), axis=0) / group_size - mean * mean
    rstd = tl.rsqrt(var + eps)
    tl.store(Mean_ptr + pid, mean)
    tl.store(RSTD_ptr + pid, rstd)
    ch = group_idx * channels_per_group + c_offs
    w = tl.load(W_ptr + ch, mask=c_mask, other=0.0)
    b = tl.load(B_ptr + ch, mask=c_mask, other=0.0)
    for hw in range(0, hidden_size, BLOCK_HW):
        hw_offs = hw + tl.arange(0, BLOCK_HW)
        m2 = c_mask[:, None] & (hw_offs[None, :] < hidden_size)
        ptrs = base + c_offs[:, None] * hidden_size + hw_offs[None, :]
        x = tl.load(X_ptr + ptrs, mask=m2, other=0.0)
        y = (x - mean) * rstd * w[:, None] + b[:, None]
        tl.store(Y_ptr + ptrs, y, mask=m2)


@triton.jit
def dropout_add_residual_kernel(x_ptr, residual_ptr, out_ptr, keep_ptr, n_elements, p, seed,
                                BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    residual = tl.load(residual_ptr + offsets, mask=mask, other=0.0)
    random = tl.rand(seed, offsets)
    keep = random > p
    scale = 1.0 / (1.0 - p)
    out = residual.to(tl.float32) + tl.where(keep, x.to(tl.float32) * scale, 0.0)
    tl.store(out_ptr + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(keep_ptr + offsets, keep.to(tl.int8), mask=mask)


@triton.jit
def embedding_backward_kernel(grad_out_ptr, indices_ptr, grad_weight_ptr, n_tokens, dim,
                              weight_stride, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    mask_n = offs_n < n_tokens
    mask_d = offs_d < dim
    indices = tl.load(indices_ptr + offs_n, mask=mask_n, other=0)
    mask = mask_n[:, None] & mask_d[None, :]
    grad = tl.load(grad_out_ptr + offs_n[:, None] * dim + offs_d[None, :], mask=mask, other=0.0)
    tl.atomic_add(grad_weight_ptr + indices[:, None] * weight_stride + offs_d[None, :], grad,
                  mask=mask, sem="relaxed")


@triton.jit
def jsd_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, dX_ptr, dX_stride,
               label_ptr, beta, n_non_ignore, ignore_index, n_cols,
               HAS_LABEL: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # generalised JSD between Q = exp(X) (student) and P = exp(Y) (teacher),
    # both given as log-probabilities; beta == 0 is forward KL(P || Q),
    # beta == 1 reverse KL(Q || P)
    pid = tl.program_id(0).to(tl.int64)
    X_ptr += pid * X_stride
    dX_ptr += pid * dX_stride
    Y_ptr += pid * Y_stride
    loss_ptr += pid * loss_stride
    label_ptr += pid
    if HAS_LABEL:
        label = tl.load(label_ptr)
        if label == ignore_index:
            for i in range(0, n_cols, BLOCK_SIZE):
                offsets = i + tl.arange(0, BLOCK_SIZE)
                tl.store(dX_ptr + offsets, 0.0, mask=offsets < n_cols)
                tl.store(loss_ptr + offsets, 0.0, mask=offsets < n_cols)
            return
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        X = tl.load(X_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        Y = tl.load(Y_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        if beta == 0.0:
            Y_max = tl.max(Y, axis=0)
            Y_shifted = Y - Y_max
            Y_prob = tl.exp(Y_shifted) * tl.exp(Y_max)
            loss = Y_prob * (Y - X)
            dX = -Y_prob
        elif beta == 1.0:
            X_max = tl.max(X, axis=0)
            X_shifted = X - X_max
            X_prob = tl.exp(X_shifted) * tl.exp(X_max)
            loss = X_prob * (X - Y)
            dX = loss + X_prob
        else:
            max_val = tl.maximum(tl.max(X, axis=0), tl.max(Y, axis=0))
            X_shifted = X - max_val
            Y_shifted = Y - max_val
            exp_max = tl.exp(max_val)
            Q = tl.exp(X_shifted) * exp_max
            P = tl.exp(Y_shifted) * exp_max
            beta_P = beta * P
            one_minus_beta_Q = (1 - beta) * Q
            M = beta_P + one_minus_beta_Q
            log_M = tl.log(M)
            loss = beta_P * Y + one_minus_beta_Q * X - M * log_M
            dX = one_minus_beta_Q * (X - log_M)
        loss = tl.where(mask, loss, 0.0) / n_non_ignore
        dX = dX / n_non_ignore
        tl.store(loss_ptr + offsets, loss, mask=mask)
        tl.store(dX_ptr + offsets, dX, mask=mask)


@triton.jit
def softcap_where_kernel(x_ptr, out_ptr, grad_ptr, n_elements, cap, slope,
                         MODE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # a capped activation and its derivative; NaN passes through, +-inf
    # saturates, a leaky slope below -cap
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    if MODE == "tanh":
        t = libdevice.tanh(x / cap)
        y = cap * t
        g = 1.0 - t * t
    else:
        y = tl.where(x > cap, cap, tl.where(x < -cap, -cap + slope * (x + cap), x))
        g = tl.where(x > cap, 0.0, tl.where(x < -cap, slope, 1.0))
    y = tl.where(x != x, x, tl.where(x == float("inf"), cap, y))
    g = tl.where(x != x, x, g)
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(grad_ptr + offsets, g.to(grad_ptr.dtype.element_ty), mask=mask)


@triton.heuristics({
    "DO_SOFTCAPPING": lambda args: bool(args["DO_SOFTCAPPING"]),
    "DO_LOGIT_SCALING": lambda args: bool(args["DO_LOGIT_SCALING"]),
})
@triton.jit
def ce_forward_unsloth_style(logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr,
                             VOCAB_SIZE: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                             DO_SOFTCAPPING: tl.constexpr, SOFTCAP: tl.constexpr,
                             DO_LOGIT_SCALING: tl.constexpr, LOGIT_SCALE: tl.constexpr):
    # the whole row in one block: loss = logsumexp(z) - z[label] where
    # z = SOFTCAP * tanh(LOGIT_SCALE * x / SOFTCAP); 0 for an ignored row
    row_idx = tl.program_id(axis=0)
    logits_ptr += row_idx * triton_cast(logits_row_stride, tl.int64)
    loss_ptr += row_idx
    logsumexp_ptr += row_idx
    labels_ptr += row_idx
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < VOCAB_SIZE
    label_idx = tl.load(labels_ptr).to(tl.int32)
    logits = tl.load(logits_ptr + col_offsets, mask=mask, other=-float("inf")).to(tl.float32)
    if DO_LOGIT_SCALING:
        logits = LOGIT_SCALE * logits
    if DO_SOFTCAPPING:
        logits = SOFTCAP * triton_tanh(logits / SOFTCAP)
    c = tl.max(logits, 0)
    logsumexp = c + tl.log(tl.sum(tl.exp(logits - c), 0))
    if label_idx != -100:
        x = tl.load(logits_ptr + label_idx).to(tl.float32)
        if DO_LOGIT_SCALING:
            x = LOGIT_SCALE * x
        if DO_SOFTCAPPING:
            x = SOFTCAP * triton_tanh(x / SOFTCAP)
        loss = logsumexp - x
    else:
        loss = 0.0
    tl.store(logsumexp_ptr, logsumexp)
    tl.store(loss_ptr, loss)


@triton.heuristics({"BACKWARD_PASS": lambda args: bool(args["BACKWARD_PASS"])})
@triton.jit
def rope_grouped_heads(Q, Q_row_stride, cos, cos_row_stride, sin, sin_row_stride, seqlen,
                       head_dim: tl.constexpr, n_heads: tl.constexpr, BACKWARD_PASS: tl.constexpr,
                       BLOCK_SIZE: tl.constexpr):
    # program (token, group of 4 heads); q rotated in place
    GROUP = 4
    row_position = tl.program_id(0)
    group_head_position = tl.program_id(1)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    half_head_dim = head_dim // 2
    mask = col_offsets < half_head_dim
    sin1 = tl.load(sin + (row_position % seqlen) * sin_row_stride + col_offsets, mask=mask, other=0)
    cos1 = tl.load(cos + (row_position % seqlen) * cos_row_stride + col_offsets, mask=mask, other=0)
    if BACKWARD_PASS:
        sin1 = -sin1
    head_start = group_head_position * GROUP
    head_end = min((head_start + GROUP), n_heads)
    for k in range(head_start, head_end):
        offs_q1 = row_position * Q_row_stride + k * head_dim + col_offsets
        offs_q2 = offs_q1 + half_head_dim
        Q1 = tl.load(Q + offs_q1, mask=mask, other=0).to(sin1.dtype)
        Q2 = tl.load(Q + offs_q2, mask=mask, other=0).to(sin1.dtype)
        tl.store(Q + offs_q1, Q1 * cos1 - Q2 * sin1, mask=mask)
        tl.store(Q + offs_q2, Q2 * cos1 + Q1 * sin1, mask=mask)


@triton.jit
def lse_matmul_fwd(E, C, LSE, Targ, TLogit, B, V, D, stride_eb, stride_ed, stride_cv, stride_cd,
                   BLOCK_B: tl.constexpr, BLOCK_V: tl.constexpr, BLOCK_D: tl.constexpr,
                   HAS_TARGET: tl.constexpr):
    # logsumexp over the vocabulary of the logits E @ C^T, by [BLOCK_B, BLOCK_V] tiles
    pid_b = tl.program_id(0)
    offs_b = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    b_mask = offs_b < B
    m_i = tl.full((BLOCK_B,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_B,), dtype=tl.float32)
    if HAS_TARGET:
        targ = tl.load(Targ + offs_b, mask=b_mask, other=0)
        t_logit = tl.zeros((BLOCK_B,), dtype=tl.float32)
    for v0 in tl.range(0, V, BLOCK_V):
        offs_v = v0 + tl.arange(0, BLOCK_V)
        acc = tl.zeros((BLOCK_B, BLOCK_V), dtype=tl.float32)
        for d0 in range(0, D, BLOCK_D):
            offs_d = d0 + tl.arange(0, BLOCK_D)
            e = tl.load(E + offs_b[:, None] * stride_eb + offs_d[None, :] * stride_ed,
                        mask=b_mask[:, None] & (offs_d[None, :] < D), other=0.0)
            c = tl.load(C + offs_v[None, :] * stride_cv + offs_d[:, None] * stride_cd,
                        mask=(offs_v[None, :] < V) & (offs_d[:, None] < D), other=0.0)
            acc = tl.dot(e, c, acc, input_precision="ieee")
        acc = tl.where(offs_v[None, :] < V, acc, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(acc, axis=1))
        l_i = l_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(acc - m_new[:, None]), axis=1)
        m_i = m_new
        if HAS_TARGET:
            hit = offs_v[None, :] == targ[:, None]
            t_logit += tl.sum(tl.where(hit, acc, 0.0), axis=1)
    tl.store(LSE + offs_b, m_i + tl.log(l_i), mask=b_mask)
    if HAS_TARGET:
        tl.store(TLogit + offs_b, t_logit, mask=b_mask)
