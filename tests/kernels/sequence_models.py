# KERNEL: selective_scan_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,constexpr,i32,i32,i32,constexpr
# CONSTEXPR: stride_u_d=1, stride_bc_l=1, DSTATE=16, HAS_Z=True, DELTA_SOFTPLUS=True, BLOCK_D=16
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: selective_scan_fwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,*fp32:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,*fp32:16,*bf16:16,*fp32:16,i32,i32,i32,constexpr,i32,i32,i32,constexpr
# CONSTEXPR: stride_u_d=1, stride_bc_l=1, DSTATE=8, HAS_Z=False, DELTA_SOFTPLUS=True, BLOCK_D=32
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: selective_scan_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp32:16,*fp16:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: DSTATE=4, HAS_Z=True, DELTA_SOFTPLUS=False, BLOCK_D=8
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: selective_scan_chunked_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: DSTATE=16, BLOCK_L=16, BLOCK_D=16
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: selective_scan_chunked_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: DSTATE=8, BLOCK_L=32, BLOCK_D=16
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: causal_conv1d_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,constexpr,i32
# CONSTEXPR: stride_x_d=1, WIDTH=4, HAS_INIT=True, SILU=True, BLOCK_D=16, BLOCK_L=32
# GRID: cdiv(L, BLOCK_L), cdiv(DIM, BLOCK_D), batch
#
# KERNEL: causal_conv1d_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,i32,i32,constexpr,i32:16
# CONSTEXPR: stride_x_d=1, WIDTH=3, HAS_INIT=False, SILU=False, BLOCK_D=32, BLOCK_L=16
# GRID: cdiv(L, BLOCK_L), cdiv(DIM, BLOCK_D), batch
#
# KERNEL: causal_conv1d_fwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16,i32,i32,i32,i32,i32
# CONSTEXPR: WIDTH=4, HAS_INIT=True, SILU=True, BLOCK_D=8, BLOCK_L=64
# GRID: cdiv(L, BLOCK_L), cdiv(DIM, BLOCK_D), batch
#
# KERNEL: causal_conv1d_update_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,constexpr
# CONSTEXPR: SEQLEN=1, KERNEL_WIDTH=4, SILU=True, BLOCK_D=32
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: causal_conv1d_update_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32
# CONSTEXPR: KERNEL_WIDTH=3, SILU=False, BLOCK_D=16
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: causal_conv1d_update_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: KERNEL_WIDTH=2, SILU=True, BLOCK_D=64
# GRID: batch, cdiv(DIM, BLOCK_D)
#
# KERNEL: wkv_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: HAS_STATE=False, BLOCK_C=32
# GRID: batch, cdiv(C, BLOCK_C)
#
# KERNEL: wkv_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,i32,i32:16
# CONSTEXPR: HAS_STATE=True, BLOCK_C=64
# GRID: batch, cdiv(C, BLOCK_C)
#
# KERNEL: chunk_retention_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,fp32
# CONSTEXPR: H=3, DK=32, DV=64, BT=32, BV=32
# GRID: cdiv(DV, BV), batch * H
#
# KERNEL: chunk_retention_fwd_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,i32:16,fp32
# CONSTEXPR: H=4, DK=16, DV=40, BT=16, BV=16
# GRID: cdiv(DV, BV), batch * H
#
# KERNEL: chunk_gla_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp32:16,i32,fp32
# CONSTEXPR: K=32, V=32, BT=32, STORE_FINAL_STATE=True
# GRID: BH
#
# KERNEL: chunk_gla_fwd_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: K=16, V=16, BT=16, STORE_FINAL_STATE=False
# GRID: BH
#
# KERNEL: s4d_kernel_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: N=32, BLOCK_L=64
# GRID: cdiv(L, BLOCK_L), H
#
# KERNEL: chunk_local_cumsum_kernel
# SIGNATURE: *fp16:16,*fp32:16,constexpr,constexpr,i32
# CONSTEXPR: cu_seqlens_ptr=None, chunk_indices_ptr=None, H=2, BT=8, REVERSE=True, IS_VARLEN=False
# GRID: cdiv(T, BT), batch * H
#
# KERNEL: chunk_local_cumsum_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,*i32:16,i32
# CONSTEXPR: H=4, BT=16, REVERSE=True, IS_VARLEN=True
# GRID: num_chunks, H
#
# KERNEL: ssd_chunk_scan_intra_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: NHEADS=3, HEADDIM=32, DSTATE=16, BT=32
# GRID: cdiv(T, BT), batch * NHEADS
#
# KERNEL: ssd_chunk_scan_intra_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: NHEADS=2, HEADDIM=16, DSTATE=32, BT=16
# GRID: cdiv(T, BT), batch * NHEADS
#
# KERNEL: beam_search_step_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,*i64:16,i32
# CONSTEXPR: BEAM=4, TOPK=8, BLOCK_V=1024
# GRID: batch
#
# KERNEL: beam_search_step_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,*i32:16,*i64:16,i32
# CONSTEXPR: BEAM=2, TOPK=4, BLOCK_V=64
# GRID: batch
#
# KERNEL: ctc_loss_fwd_kernel
# SIGNATURE: *fp32:16,*i64:16,*i64:16,*i64:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLANK=0, BLOCK_S=32
# GRID: N
#
# KERNEL: ctc_loss_fwd_kernel
# SIGNATURE: *fp32:16,*i64:16,*i64:16,*i64:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLANK=19, BLOCK_S=32
# GRID: N
#
# KERNEL: viterbi_decode_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,*i64:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_TAGS=8
# GRID: batch
#
# KERNEL: viterbi_decode_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,*i64:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK_TAGS=16
# GRID: batch
#
# KERNEL: segment_cumsum_kernel
# SIGNATURE: *fp32:16,*i8:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: 1
#
# KERNEL: min_gru_log_scan_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_T=16, BLOCK_D=16
# GRID: batch, cdiv(D, BLOCK_D)
#
# KERNEL: min_gru_log_scan_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_T=8, BLOCK_D=32
# GRID: batch, cdiv(D, BLOCK_D)
#
# KERNEL: fused_recurrent_delta_rule_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,fp32,i32
# CONSTEXPR: H=2, K=32, V=48, BK=32, BV=16, USE_QK_L2NORM=True, USE_INITIAL_STATE=True, STORE_FINAL_STATE=True
# GRID: cdiv(V, BV), batch * H
#
# KERNEL: fused_recurrent_delta_rule_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,*fp32:16,fp32,i32
# CONSTEXPR: H=3, K=16, V=16, BK=16, BV=16, USE_QK_L2NORM=False, USE_INITIAL_STATE=False, STORE_FINAL_STATE=True
# GRID: cdiv(V, BV), batch * H
#
# KERNEL: gru_persistent_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: HID=32, BLOCK_B=16, DOT_DTYPE=tl.float32
# GRID: cdiv(B, BLOCK_B)
#
# KERNEL: gru_persistent_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,*bf16:16,*bf16:16,i32,i32
# CONSTEXPR: HID=16, BLOCK_B=32, DOT_DTYPE=tl.bfloat16
# GRID: cdiv(B, BLOCK_B)
#
# KERNEL: top_p_filter_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_V=1024
# GRID: n_rows
#
# KERNEL: rnnt_loss_fwd_kernel
# SIGNATURE: *fp32:16,*i32:16,*i32:16,*i32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLANK=0, BLOCK_U=8
# GRID: batch
#
# KERNEL: selective_state_update_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: DT_SOFTPLUS=True, TIE_HDIM=False, BLOCK_SIZE_M=16, HAS_DT_BIAS=True, HAS_D=True, HAS_Z=True, BLOCK_SIZE_DSTATE=16
# GRID: cdiv(dim, BLOCK_SIZE_M), batch, nheads
#
# KERNEL: selective_state_update_kernel
# SIGNATURE: *fp32:16,*bf16:16,*bf16:16,constexpr,*fp32:16,*bf16:16,*bf16:16,constexpr,constexpr,*bf16:16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: dt_bias_ptr=None, D_ptr=None, z_ptr=None, DT_SOFTPLUS=True, TIE_HDIM=False, BLOCK_SIZE_M=32, HAS_DT_BIAS=False, HAS_D=False, HAS_Z=False, BLOCK_SIZE_DSTATE=16
# GRID: cdiv(dim, BLOCK_SIZE_M), batch, nheads
#
# KERNEL: selective_state_update_kernel
# SIGNATURE: *fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: DT_SOFTPLUS=True, TIE_HDIM=True, BLOCK_SIZE_M=8, HAS_DT_BIAS=True, HAS_D=True, HAS_Z=True, BLOCK_SIZE_DSTATE=8
# GRID: cdiv(dim, BLOCK_SIZE_M), batch, nheads
#
# KERNEL: searchsorted_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32,i32,i32,i32
# CONSTEXPR: RIGHT=False, BLOCK=64
# GRID: cdiv(N, BLOCK), n_rows
#
# KERNEL: searchsorted_kernel
# SIGNATURE: *fp16:16,*fp16:16,*i64:16,i32,i32,i32,i32
# CONSTEXPR: RIGHT=True, BLOCK=128
# GRID: cdiv(N, BLOCK), n_rows
#
# KERNEL: vandermonde_complex_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: N=16, BLOCK_L=32
# GRID: cdiv(L, BLOCK_L), H
#
# KERNEL: gae_kernel
# SIGNATURE: *fp32:16,*fp32:16,*u8:16,*fp32:16,*fp32:16,i32,i32,fp32,fp32
# CONSTEXPR: BLOCK_T=16, BLOCK_E=16
# GRID: cdiv(n_envs, BLOCK_E)
#
# KERNEL: topk_packed_sort_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32,i32
# CONSTEXPR: K=8, BLOCK=1024
# GRID: n_rows
#
# KERNEL: long_conv_toeplitz_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp16:16,i32,i32
# CONSTEXPR: D=32, BT=32, BS=32
# GRID: cdiv(T, BT), batch * H
#
# KERNEL: long_conv_toeplitz_kernel
# SIGNATURE: *bf16:16,*fp32:16,*bf16:16,i32:16,i32
# CONSTEXPR: D=16, BT=16, BS=32
# GRID: cdiv(T, BT), batch * H
#
# Recurrent and state-space sequence kernels as mamba, causal-conv1d,
# flash-linear-attention, RWKV and speech / decoding libraries write them,
# each checked against torch by tests/python/test_sequence_models.py:
# Mamba's selective scan stepped through time inside the kernel (strided
# views, softplus, z gating, the last state) and by chunks with
# `tl.associative_scan` over a 3-D (decay, input) tuple; Mamba's decoding
# state update (heuristics turning None tensors off, TIE_HDIM, grouped B/C,
# pointer arguments advanced in place); causal conv1d with initial and final
# states on a 3-D grid and its decoding update keeping the window in
# registers as columns defined under constexpr `if`s; RWKV-4's WKV in log
# space with the state a tuple carried through the loop and passed to a
# helper with `*state`; chunked retention and chunked linear attention with
# decays (`tl.dot`, `tl.trans`, block pointers, `tl.cumsum`); DeltaNet's
# recurrence with loop-carried pointers; a persistent GRU whose hidden state
# feeds `tl.dot` every step; minGRU's log-space scan and a segmented scan of
# (value, flag) pairs; GAE by a reversed associative scan across chunks;
# S4D's Vandermonde kernel from (re, im) pairs and from complex64 through
# `tl.split`/`tl.join`; a Toeplitz long convolution on `tl.dot`;
# chunk-local cumulative sums (reversed, packed sequences through
# cu_seqlens); Mamba-2's intra-chunk term; beam search and top-p filtering
# (`tl.sort`, `tl.cumsum`), a top-k by sorting packed uint64 keys; CTC and
# RNN-T losses by log-sum-exp recurrences through scratch rows with
# `tl.debug_barrier`; Viterbi decoding with a backtrack loop whose index is
# loaded each step; searchsorted by a `while` loop on a reduced condition.
import triton
import triton.language as tl


@triton.jit
def _softplus(x):
    return tl.where(x <= 20.0, tl.log(1.0 + tl.exp(x)), x)


@triton.jit
def selective_scan_fwd_kernel(
    u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, delta_bias_ptr, out_ptr, last_state_ptr,
    L, DIM,
    stride_u_b, stride_u_d, stride_u_l,
    stride_bc_b, stride_bc_n, stride_bc_l,
    DSTATE: tl.constexpr, HAS_Z: tl.constexpr, DELTA_SOFTPLUS: tl.constexpr, BLOCK_D: tl.constexpr,
):
    # Mamba's selective scan, the recurrence run step by step inside the
    # kernel: h_t = exp(dt_t * A) * h_{t-1} + dt_t * B_t * u_t, y_t = C_t . h_t + D * u_t.
    # u, delta, z, out: [batch, dim, L]; B, C: [batch, dstate, L]; A: [dim, dstate].
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    offs_n = tl.arange(0, DSTATE)
    d_ok = offs_d < DIM
    A = tl.load(A_ptr + offs_d[:, None] * DSTATE + offs_n[None, :], mask=d_ok[:, None], other=0.0).to(tl.float32)
    Dv = tl.load(D_ptr + offs_d, mask=d_ok, other=0.0).to(tl.float32)
    bias = tl.load(delta_bias_ptr + offs_d, mask=d_ok, other=0.0).to(tl.float32)
    u_row = u_ptr + pid_b * stride_u_b + offs_d * stride_u_d
    dt_row = delta_ptr + pid_b * stride_u_b + offs_d * stride_u_d
    z_row = z_ptr + pid_b * stride_u_b + offs_d * stride_u_d
    o_row = out_ptr + pid_b * stride_u_b + offs_d * stride_u_d
    bc = pid_b * stride_bc_b + offs_n * stride_bc_n
    h = tl.zeros((BLOCK_D, DSTATE), dtype=tl.float32)
    for t in range(L):
        u = tl.load(u_row + t * stride_u_l, mask=d_ok, other=0.0).to(tl.float32)
        dt = tl.load(dt_row + t * stride_u_l, mask=d_ok, other=0.0).to(tl.float32) + bias
        if DELTA_SOFTPLUS:
            dt = _softplus(dt)
        Bt = tl.load(B_ptr + bc + t * stride_bc_l).to(tl.float32)
        Ct = tl.load(C_ptr + bc + t * stride_bc_l).to(tl.float32)
        h = tl.exp(dt[:, None] * A) * h + (dt * u)[:, None] * Bt[None, :]
        y = tl.sum(h * Ct[None, :], axis=1) + Dv * u
        if HAS_Z:
            z = tl.load(z_row + t * stride_u_l, mask=d_ok, other=0.0).to(tl.float32)
            y = y * z * tl.sigmoid(z)
        tl.store(o_row + t * stride_u_l, y.to(out_ptr.dtype.element_ty), mask=d_ok)
    state = last_state_ptr + (pid_b * DIM + offs_d)[:, None] * DSTATE + offs_n[None, :]
    tl.store(state, h, mask=d_ok[:, None])


@triton.jit
def _ssm_combine(a_l, b_l, a_r, b_r):
    # (a_l, b_l) then (a_r, b_r): h -> a_r * (a_l * h + b_l) + b_r
    return a_l * a_r, b_l * a_r + b_r


@triton.jit
def selective_scan_chunked_kernel(
    u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, out_ptr, L, DIM,
    DSTATE: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr,
):
    # The same scan over chunks of BLOCK_L steps: inside a chunk the
    # recurrence is an associative scan of (decay, input) pairs over a
    # [BLOCK_L, BLOCK_D, DSTATE] tile; the state crosses chunks in the loop.
    # u, delta, out: [batch, L, dim] (time-major); B, C: [batch, L, dstate].
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    offs_n = tl.arange(0, DSTATE)
    offs_l = tl.arange(0, BLOCK_L)
    d_ok = offs_d < DIM
    A = tl.load(A_ptr + offs_d[:, None] * DSTATE + offs_n[None, :], mask=d_ok[:, None], other=0.0)
    h = tl.zeros((BLOCK_D, DSTATE), dtype=tl.float32)
    for l0 in range(0, L, BLOCK_L):
        ls = l0 + offs_l
        l_ok = ls < L
        m = l_ok[:, None] & d_ok[None, :]
        x_offs = (pid_b * L + ls)[:, None] * DIM + offs_d[None, :]
        u = tl.load(u_ptr + x_offs, mask=m, other=0.0).to(tl.float32)
        dt = _softplus(tl.load(delta_ptr + x_offs, mask=m, other=0.0).to(tl.float32))
        bc_offs = (pid_b * L + ls)[:, None] * DSTATE + offs_n[None, :]
        Bt = tl.load(B_ptr + bc_offs, mask=l_ok[:, None], other=0.0).to(tl.float32)
        Ct = tl.load(C_ptr + bc_offs, mask=l_ok[:, None], other=0.0).to(tl.float32)
        # steps past L decay by 1 and add 0, so the last row is the state at L - 1
        dA = tl.where(l_ok[:, None, None], tl.exp(dt[:, :, None] * A[None, :, :]), 1.0)
        dBu = (dt * u)[:, :, None] * Bt[:, None, :]
        a_cum, b_cum = tl.associative_scan((dA, dBu), axis=0, combine_fn=_ssm_combine)
        hs = a_cum * h[None, :, :] + b_cum
        y = tl.sum(hs * Ct[:, None, :], axis=2)
        tl.store(out_ptr + x_offs, y.to(out_ptr.dtype.element_ty), mask=m)
        h = tl.sum(tl.where((offs_l == BLOCK_L - 1)[:, None, None], hs, 0.0), axis=0)


@triton.jit
def causal_conv1d_fwd_kernel(
    x_ptr, w_ptr, b_ptr, init_ptr, out_ptr, final_ptr,
    DIM, L, stride_x_b, stride_x_d, stride_x_l,
    WIDTH: tl.constexpr, HAS_INIT: tl.constexpr, SILU: tl.constexpr,
    BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr,
):
    # out[b, d, t] = act(bias[d] + sum_w weight[d, w] * x[b, d, t - (WIDTH-1) + w]),
    # positions before 0 read the initial state [batch, dim, WIDTH-1] (or 0).
    # The last WIDTH-1 inputs are written as the final state.
    pid_l = tl.program_id(0)
    pid_d = tl.program_id(1)
    b = tl.program_id(2)
    ds = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    ts = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    d_ok = ds < DIM
    x_b = x_ptr + b * stride_x_b + ds[:, None] * stride_x_d
    acc = tl.zeros((BLOCK_D, BLOCK_L), dtype=tl.float32)
    acc += tl.load(b_ptr + ds, mask=d_ok, other=0.0).to(tl.float32)[:, None]
    for w in tl.static_range(WIDTH):
        src = ts - (WIDTH - 1) + w
        xv = tl.load(x_b + src[None, :] * stride_x_l, mask=d_ok[:, None] & (src >= 0)[None, :] & (src < L)[None, :],
                     other=0.0).to(tl.float32)
        if HAS_INIT:
            # src in [-(WIDTH-1), 0): the initial state's column WIDTH-1+src
            iv = tl.load(init_ptr + (b * DIM + ds)[:, None] * (WIDTH - 1) + (WIDTH - 1 + src)[None, :],
                         mask=d_ok[:, None] & (src < 0)[None, :] & (src >= -(WIDTH - 1))[None, :], other=0.0)
            xv += iv.to(tl.float32)
        wv = tl.load(w_ptr + ds * WIDTH + w, mask=d_ok, other=0.0).to(tl.float32)
        acc += wv[:, None] * xv
    if SILU:
        acc = acc * tl.sigmoid(acc)
    tl.store(out_ptr + b * stride_x_b + ds[:, None] * stride_x_d + ts[None, :] * stride_x_l,
             acc.to(out_ptr.dtype.element_ty), mask=d_ok[:, None] & (ts < L)[None, :])
    if pid_l == tl.num_programs(0) - 1:
        # the program holding the sequence's tail writes the final state
        # (widths are 2 to 4, so 4 columns hold it)
        ks = tl.arange(0, 4)
        k_ok = ks < WIDTH - 1
        tail = L - (WIDTH - 1) + ks
        fv = tl.load(x_b + tail[None, :] * stride_x_l, mask=d_ok[:, None] & (k_ok & (tail >= 0))[None, :], other=0.0)
        if HAS_INIT:
            fv += tl.load(init_ptr + (b * DIM + ds)[:, None] * (WIDTH - 1) + (WIDTH - 1 + tail)[None, :],
                          mask=d_ok[:, None] & (k_ok & (tail < 0))[None, :], other=0.0)
        tl.store(final_ptr + (b * DIM + ds)[:, None] * (WIDTH - 1) + ks[None, :], fv, mask=d_ok[:, None] & k_ok[None, :])


@triton.jit
def causal_conv1d_update_kernel(
    x_ptr, state_ptr, w_ptr, b_ptr, out_ptr, DIM, SEQLEN,
    KERNEL_WIDTH: tl.constexpr, SILU: tl.constexpr, BLOCK_D: tl.constexpr,
):
    # decoding: SEQLEN new tokens per sequence; the conv state (the last
    # KERNEL_WIDTH-1 inputs, [batch, dim, KERNEL_WIDTH-1]) lives in registers
    # as separate columns shifted by one per token, then is written back.
    b = tl.program_id(0)
    ds = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    d_ok = ds < DIM
    st = state_ptr + (b * DIM + ds) * (KERNEL_WIDTH - 1)
    w = w_ptr + ds * KERNEL_WIDTH
    col0 = tl.load(st + 0, mask=d_ok, other=0.0).to(tl.float32)
    w0 = tl.load(w + 0, mask=d_ok, other=0.0).to(tl.float32)
    w1 = tl.load(w + 1, mask=d_ok, other=0.0).to(tl.float32)
    if KERNEL_WIDTH >= 3:
        col1 = tl.load(st + 1, mask=d_ok, other=0.0).to(tl.float32)
        w2 = tl.load(w + 2, mask=d_ok, other=0.0).to(tl.float32)
    if KERNEL_WIDTH >= 4:
        col2 = tl.load(st + 2, mask=d_ok, other=0.0).to(tl.float32)
        w3 = tl.load(w + 3, mask=d_ok, other=0.0).to(tl.float32)
    bias = tl.load(b_ptr + ds, mask=d_ok, other=0.0).to(tl.float32)
    x_b = x_ptr + (b * DIM + ds) * SEQLEN
    o_b = out_ptr + (b * DIM + ds) * SEQLEN
    for t in range(SEQLEN):
        xt = tl.load(x_b + t, mask=d_ok, other=0.0).to(tl.float32)
        if KERNEL_WIDTH == 2:
            acc = bias + w0 * col0 + w1 * xt
            col0 = xt
        elif KERNEL_WIDTH == 3:
            acc = bias + w0 * col0 + w1 * col1 + w2 * xt
            col0 = col1
            col1 = xt
        else:
            acc = bias + w0 * col0 + w1 * col1 + w2 * col2 + w3 * xt
            col0 = col1
            col1 = col2
            col2 = xt
        if SILU:
            acc = acc / (1.0 + tl.exp(-acc))
        tl.store(o_b + t, acc.to(out_ptr.dtype.element_ty), mask=d_ok)
    tl.store(st + 0, col0.to(state_ptr.dtype.element_ty), mask=d_ok)
    if KERNEL_WIDTH >= 3:
        tl.store(st + 1, col1.to(state_ptr.dtype.element_ty), mask=d_ok)
    if KERNEL_WIDTH >= 4:
        tl.store(st + 2, col2.to(state_ptr.dtype.element_ty), mask=d_ok)


@triton.jit
def _wkv_step(aa, bb, pp, kk, vv, w, u):
    # one RWKV-4 step in log space: the output, then the decayed state
    ww = u + kk
    p = tl.maximum(pp, ww)
    e1 = tl.exp(pp - p)
    e2 = tl.exp(ww - p)
    y = (e1 * aa + e2 * vv) / (e1 * bb + e2)
    ww = w + pp
    p = tl.maximum(ww, kk)
    e1 = tl.exp(ww - p)
    e2 = tl.exp(kk - p)
    return y, (e1 * aa + e2 * vv, e1 * bb + e2, p)


@triton.jit
def wkv_fwd_kernel(
    w_ptr, u_ptr, k_ptr, v_ptr, y_ptr, state_ptr, T, C,
    HAS_STATE: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # k, v, y: [batch, T, C]; state: [batch, 3, C] (aa, bb, pp) read and written
    b = tl.program_id(0)
    cs = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    c_ok = cs < C
    w = -tl.exp(tl.load(w_ptr + cs, mask=c_ok, other=0.0).to(tl.float32))
    u = tl.load(u_ptr + cs, mask=c_ok, other=0.0).to(tl.float32)
    s = state_ptr + b * 3 * C + cs
    if HAS_STATE:
        state = (tl.load(s, mask=c_ok, other=0.0), tl.load(s + C, mask=c_ok, other=0.0),
                 tl.load(s + 2 * C, mask=c_ok, other=-1e38))
    else:
        state = (tl.zeros((BLOCK_C,), tl.float32), tl.zeros((BLOCK_C,), tl.float32),
                 tl.full((BLOCK_C,), -1e38, tl.float32))
    base = b * T * C + cs
    for t in range(T):
        kk = tl.load(k_ptr + base + t * C, mask=c_ok, other=0.0).to(tl.float32)
        vv = tl.load(v_ptr + base + t * C, mask=c_ok, other=0.0).to(tl.float32)
        y, state = _wkv_step(*state, kk, vv, w, u)
        tl.store(y_ptr + base + t * C, y.to(y_ptr.dtype.element_ty), mask=c_ok)
    aa, bb, pp = state
    tl.store(s, aa, mask=c_ok)
    tl.store(s + C, bb, mask=c_ok)
    tl.store(s + 2 * C, pp, mask=c_ok)


@triton.jit
def chunk_retention_fwd_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, T, scale,
    H: tl.constexpr, DK: tl.constexpr, DV: tl.constexpr, BT: tl.constexpr, BV: tl.constexpr,
):
    # RetNet's retention by chunks: o = (q k^T * D) v inside a chunk plus q S
    # across chunks, S <- gamma^BT S + k_decayed^T v; gamma = 1 - 2^(-5-h).
    # q, k: [batch, H, T, DK]; v, o: [batch, H, T, DV]. grid (cdiv(DV, BV), batch*H)
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_h = i_bh % H
    b = tl.log2(1.0 - tl.exp2(-5.0 - i_h.to(tl.float32)))   # log2(gamma)
    o_t = tl.arange(0, BT)
    o_k = tl.arange(0, DK)
    o_v = i_v * BV + tl.arange(0, BV)
    v_ok = o_v < DV
    d_q = tl.exp2((o_t + 1).to(tl.float32) * b)
    d_k = tl.exp2((BT - o_t - 1).to(tl.float32) * b)
    d_b = tl.exp2(BT * b)
    diff = (o_t[:, None] - o_t[None, :]).to(tl.float32)
    d_s = tl.where(o_t[:, None] >= o_t[None, :], tl.exp2(diff * b), 0.0)
    S = tl.zeros((DK, BV), dtype=tl.float32)
    qk_base = i_bh.to(tl.int64) * T * DK
    v_base = i_bh.to(tl.int64) * T * DV
    for t0 in range(0, T, BT):
        rows = t0 + o_t
        r_ok = rows < T
        q = tl.load(q_ptr + qk_base + rows[:, None] * DK + o_k[None, :], mask=r_ok[:, None], other=0.0)
        k = tl.load(k_ptr + qk_base + rows[:, None] * DK + o_k[None, :], mask=r_ok[:, None], other=0.0)
        v = tl.load(v_ptr + v_base + rows[:, None] * DV + o_v[None, :], mask=r_ok[:, None] & v_ok[None, :], other=0.0)
        q = (q * scale).to(k.dtype)
        s = tl.dot(q, tl.trans(k)) * d_s
        o = tl.dot(s.to(v.dtype), v)
        o += tl.dot((q * d_q[:, None]).to(q.dtype), S.to(q.dtype))
        S = S * d_b + tl.dot(tl.trans((k * d_k[:, None]).to(k.dtype)), v)
        tl.store(o_ptr + v_base + rows[:, None] * DV + o_v[None, :], o.to(o_ptr.dtype.element_ty),
                 mask=r_ok[:, None] & v_ok[None, :])


@triton.jit
def chunk_gla_fwd_kernel(
    q_ptr, k_ptr, v_ptr, g_ptr, o_ptr, ht_ptr, T, scale,
    K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr, STORE_FINAL_STATE: tl.constexpr,
):
    # chunked linear attention with a per-token scalar log decay g (the
    # Mamba-2 / GLA-with-scalar-gates form): within a chunk the cumulative
    # decay comes from tl.cumsum, across chunks a [K, V] state. Block
    # pointers throughout, as flash-linear-attention writes them.
    # q, k: [BH, T, K]; v, o: [BH, T, V]; g: [BH, T] (log space, <= 0)
    i_bh = tl.program_id(0)
    o_t = tl.arange(0, BT)
    m_causal = o_t[:, None] >= o_t[None, :]
    h = tl.zeros((K, V), dtype=tl.float32)
    for i_t in range(0, tl.cdiv(T, BT)):
        p_q = tl.make_block_ptr(q_ptr + i_bh * T * K, (T, K), (K, 1), (i_t * BT, 0), (BT, K), (1, 0))
        p_k = tl.make_block_ptr(k_ptr + i_bh * T * K, (K, T), (1, K), (0, i_t * BT), (K, BT), (0, 1))
        p_v = tl.make_block_ptr(v_ptr + i_bh * T * V, (T, V), (V, 1), (i_t * BT, 0), (BT, V), (1, 0))
        p_g = tl.make_block_ptr(g_ptr + i_bh * T, (T,), (1,), (i_t * BT,), (BT,), (0,))
        p_o = tl.make_block_ptr(o_ptr + i_bh * T * V, (T, V), (V, 1), (i_t * BT, 0), (BT, V), (1, 0))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        b_g = tl.cumsum(tl.load(p_g, boundary_check=(0,)).to(tl.float32), axis=0)
        b_g_last = tl.sum(tl.where(o_t == BT - 1, b_g, 0.0), axis=0)
        b_qs = (b_q * scale).to(b_q.dtype)
        b_o = tl.dot((b_qs * tl.exp(b_g)[:, None]).to(b_q.dtype), h.to(b_q.dtype))
        b_A = tl.dot(b_qs, b_k)
        b_A = tl.where(m_causal, b_A * tl.exp(b_g[:, None] - b_g[None, :]), 0.0)
        b_o += tl.dot(b_A.to(b_v.dtype), b_v)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))
        b_kd = (b_k * tl.exp(b_g_last - b_g)[None, :]).to(b_k.dtype)
        h = h * tl.exp(b_g_last) + tl.dot(b_kd, b_v)
    if STORE_FINAL_STATE:
        p_h = tl.make_block_ptr(ht_ptr + i_bh * K * V, (K, V), (V, 1), (0, 0), (K, V), (1, 0))
        tl.store(p_h, h.to(p_h.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def s4d_kernel_kernel(
    log_dt_ptr, A_re_ptr, A_im_ptr, C_re_ptr, C_im_ptr, k_ptr, L,
    N: tl.constexpr, BLOCK_L: tl.constexpr,
):
    # S4D's convolution kernel (zero-order hold, Vandermonde form):
    # K[h, l] = 2 Re(sum_n C'_n exp(dt A_n l)), C'_n = C_n (exp(dt A_n) - 1) / A_n,
    # A and C complex, held as (re, im) pairs. grid (cdiv(L, BLOCK_L), H)
    h = tl.program_id(1)
    ls = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    ns = tl.arange(0, N)
    dt = tl.exp(tl.load(log_dt_ptr + h))
    a_re = tl.load(A_re_ptr + h * N + ns)
    a_im = tl.load(A_im_ptr + h * N + ns)
    c_re = tl.load(C_re_ptr + h * N + ns)
    c_im = tl.load(C_im_ptr + h * N + ns)
    dre = dt * a_re
    dim = dt * a_im
    # (exp(dtA) - 1) / A
    e = tl.exp(dre)
    num_re = e * tl.cos(dim) - 1.0
    num_im = e * tl.sin(dim)
    den = a_re * a_re + a_im * a_im
    q_re = (num_re * a_re + num_im * a_im) / den
    q_im = (num_im * a_re - num_re * a_im) / den
    cp_re = c_re * q_re - c_im * q_im
    cp_im = c_re * q_im + c_im * q_re
    lf = ls.to(tl.float32)[:, None]
    mag = tl.exp(dre[None, :] * lf)
    ang = dim[None, :] * lf
    v_re = mag * tl.cos(ang)
    v_im = mag * tl.sin(ang)
    kv = 2.0 * tl.sum(cp_re[None, :] * v_re - cp_im[None, :] * v_im, axis=1)
    tl.store(k_ptr + h * L + ls, kv, mask=ls < L)


@triton.jit
def chunk_local_cumsum_kernel(
    s_ptr, o_ptr, cu_seqlens_ptr, chunk_indices_ptr, T,
    H: tl.constexpr, BT: tl.constexpr, REVERSE: tl.constexpr, IS_VARLEN: tl.constexpr,
):
    # flash-linear-attention's chunk-local cumulative sum of gates [B, T, H]
    # (or packed sequences [1, sum T, H] with cu_seqlens): each BT chunk is
    # scanned on its own, forward or reversed. grid (num_chunks, B*H)
    i_t = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    if IS_VARLEN:
        i_n, i_t = tl.load(chunk_indices_ptr + i_t * 2).to(tl.int32), tl.load(chunk_indices_ptr + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(cu_seqlens_ptr + i_n).to(tl.int32), tl.load(cu_seqlens_ptr + i_n + 1).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = i_b * T, i_b * T + T
    p_s = tl.make_block_ptr(s_ptr + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    p_o = tl.make_block_ptr(o_ptr + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_s = tl.load(p_s, boundary_check=(0,)).to(tl.float32)
    b_o = tl.cumsum(b_s, axis=0, reverse=REVERSE)
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0,))


@triton.jit
def ssd_chunk_scan_intra_kernel(
    x_ptr, dt_ptr, A_ptr, B_ptr, C_ptr, y_ptr, T,
    NHEADS: tl.constexpr, HEADDIM: tl.constexpr, DSTATE: tl.constexpr, BT: tl.constexpr,
):
    # Mamba-2's intra-chunk term: y = ((C B^T) * exp(segsum(dt A)) * dt) x,
    # segsum[i, j] = sum_{j < s <= i} dt_s A (-inf above the diagonal).
    # x, y: [batch, T, NHEADS, HEADDIM]; dt: [batch, T, NHEADS]; B, C:
    # [batch, T, DSTATE] (one group). grid (cdiv(T, BT), batch * NHEADS)
    i_c = tl.program_id(0)
    i_bh = tl.program_id(1)
    b = i_bh // NHEADS
    hd = i_bh % NHEADS
    rows = i_c * BT + tl.arange(0, BT)
    r_ok = rows < T
    A = tl.load(A_ptr + hd)
    dt = tl.load(dt_ptr + (b * T + rows) * NHEADS + hd, mask=r_ok, other=0.0).to(tl.float32)
    dA_cs = tl.cumsum(dt * A, axis=0)
    ns = tl.arange(0, DSTATE)
    Bm = tl.load(B_ptr + (b * T + rows)[:, None] * DSTATE + ns[None, :], mask=r_ok[:, None], other=0.0)
    Cm = tl.load(C_ptr + (b * T + rows)[:, None] * DSTATE + ns[None, :], mask=r_ok[:, None], other=0.0)
    cb = tl.dot(Cm, tl.trans(Bm))
    seg = dA_cs[:, None] - dA_cs[None, :]
    causal = tl.arange(0, BT)[:, None] >= tl.arange(0, BT)[None, :]
    decay = tl.where(causal, tl.exp(seg), 0.0)
    scores = cb * decay * dt[None, :]
    ps = tl.arange(0, HEADDIM)
    x_offs = ((b * T + rows)[:, None] * NHEADS + hd) * HEADDIM + ps[None, :]
    x = tl.load(x_ptr + x_offs, mask=r_ok[:, None], other=0.0)
    y = tl.dot(scores.to(x.dtype), x)
    tl.store(y_ptr + x_offs, y.to(y_ptr.dtype.element_ty), mask=r_ok[:, None])


@triton.jit
def beam_search_step_kernel(
    logits_ptr, beam_scores_ptr, out_scores_ptr, out_beams_ptr, out_tokens_ptr, V,
    BEAM: tl.constexpr, TOPK: tl.constexpr, BLOCK_V: tl.constexpr,
):
    # one decoding step: log_softmax of each beam's logits plus its running
    # score, then the TOPK best (beam, token) pairs over all beams, best
    # first, by repeated arg-max. logits: [batch * BEAM, V]
    b = tl.program_id(0)
    beams = tl.arange(0, BEAM)
    toks = tl.arange(0, BLOCK_V)
    m = (toks < V)[None, :]
    x = tl.load(logits_ptr + (b * BEAM + beams)[:, None] * V + toks[None, :], mask=m,
                other=float("-inf")).to(tl.float32)
    mx = tl.max(x, axis=1)
    lse = mx + tl.log(tl.sum(tl.exp(x - mx[:, None]), axis=1))
    prev = tl.load(beam_scores_ptr + b * BEAM + beams)
    scores = x - lse[:, None] + prev[:, None]
    flat = tl.reshape(scores, (BEAM * BLOCK_V,))
    pos = tl.arange(0, BEAM * BLOCK_V)
    for i in tl.static_range(TOPK):
        best, where = tl.max(flat, axis=0, return_indices=True, return_indices_tie_break_left=True)
        tl.store(out_scores_ptr + b * TOPK + i, best)
        tl.store(out_beams_ptr + b * TOPK + i, where // BLOCK_V)
        tl.store(out_tokens_ptr + b * TOPK + i, (where % BLOCK_V).to(tl.int64))
        flat = tl.where(pos == where, float("-inf"), flat)


@triton.jit
def _logaddexp3(a, b, c):
    m = tl.maximum(tl.maximum(a, b), c)
    m_safe = tl.where(m == float("-inf"), 0.0, m)
    return m_safe + tl.log(tl.exp(a - m_safe) + tl.exp(b - m_safe) + tl.exp(c - m_safe))


@triton.jit
def ctc_loss_fwd_kernel(
    log_probs_ptr, targets_ptr, input_lengths_ptr, target_lengths_ptr, alpha_ws_ptr, loss_ptr,
    S_max, stride_t, stride_n,
    BLANK: tl.constexpr, BLOCK_S: tl.constexpr,
):
    # CTC's forward variable over the blank-extended target (length 2S+1),
    # one program per sequence; log_probs [T, N, C] as torch lays them out.
    # The shifted reads alpha[s-1], alpha[s-2] go through a scratch row.
    n = tl.program_id(0)
    T_n = tl.load(input_lengths_ptr + n).to(tl.int32)
    S_n = tl.load(target_lengths_ptr + n).to(tl.int32)
    NEG: tl.constexpr = float("-inf")
    s = tl.arange(0, BLOCK_S)
    S_ext = 2 * S_n + 1
    s_ok = s < S_ext
    is_label = (s % 2) == 1
    tgt = targets_ptr + n * S_max
    labels = tl.load(tgt + (s - 1) // 2, mask=s_ok & is_label, other=BLANK)
    prev_labels = tl.load(tgt + (s - 3) // 2, mask=s_ok & is_label & (s >= 3), other=BLANK)
    can_skip = is_label & (s >= 3) & (labels != prev_labels)
    lp_n = log_probs_ptr + n * stride_n
    alpha = tl.load(lp_n + labels, mask=s_ok & (s < 2), other=NEG).to(tl.float32)
    ws = alpha_ws_ptr + n * BLOCK_S
    for t in range(1, T_n):
        tl.store(ws + s, alpha)
        tl.debug_barrier()
        a1 = tl.load(ws + s - 1, mask=s >= 1, other=NEG)
        a2 = tl.load(ws + s - 2, mask=can_skip, other=NEG)
        tl.debug_barrier()
        lp = tl.load(lp_n + t * stride_t + labels, mask=s_ok, other=NEG).to(tl.float32)
        alpha = tl.where(s_ok, _logaddexp3(alpha, a1, a2) + lp, NEG)
    last = tl.max(tl.where(s == S_ext - 1, alpha, NEG), axis=0)
    before = tl.max(tl.where(s == S_ext - 2, alpha, NEG), axis=0)
    tl.store(loss_ptr + n, -_logaddexp3(last, before, NEG))


@triton.jit
def viterbi_decode_kernel(
    emis_ptr, trans_ptr, start_ptr, end_ptr, lengths_ptr, history_ptr, path_ptr, score_ptr,
    T, NT,
    BLOCK_TAGS: tl.constexpr,
):
    # the best tag path of a linear-chain CRF: a max-plus recurrence over
    # time that records arg-max back pointers, then a backtrack through
    # them (a scalar loop counting down, each step's index loaded from the
    # last).
    # emis: [batch, T, NT]; trans[i, j]: score of tag i -> tag j
    b = tl.program_id(0)
    length = tl.load(lengths_ptr + b)
    tags = tl.arange(0, BLOCK_TAGS)
    tag_ok = tags < NT
    NEG: tl.constexpr = -1.0e30
    trans = tl.load(trans_ptr + tags[:, None] * NT + tags[None, :], mask=tag_ok[:, None] & tag_ok[None, :], other=NEG)
    e_b = emis_ptr + b * T * NT
    h_b = history_ptr + b * T * NT
    score = tl.load(start_ptr + tags, mask=tag_ok, other=NEG) + tl.load(e_b + tags, mask=tag_ok, other=NEG)
    for t in range(1, length):
        cand = score[:, None] + trans
        best, arg = tl.max(cand, axis=0, return_indices=True)
        score = best + tl.load(e_b + t * NT + tags, mask=tag_ok, other=NEG)
        tl.store(h_b + t * NT + tags, arg.to(tl.int32), mask=tag_ok)
    score += tl.load(end_ptr + tags, mask=tag_ok, other=NEG)
    best_score, best_tag = tl.max(score, axis=0, return_indices=True)
    tl.store(score_ptr + b, best_score)
    tl.debug_barrier()
    p_b = path_ptr + b * T
    tl.store(p_b + length - 1, best_tag)
    cur = best_tag
    for t in range(length - 1, 0, -1):
        cur = tl.load(h_b + t * NT + cur)
        tl.store(p_b + t - 1, cur)


@triton.jit
def _segmented_add(v_l, f_l, v_r, f_r):
    # a segment starts where the flag is set: the sum restarts there
    return tl.where(f_r, v_r, v_l + v_r), f_l | f_r


@triton.jit
def segment_cumsum_kernel(x_ptr, starts_ptr, y_ptr, seg_total_ptr, N, BLOCK: tl.constexpr):
    # an inclusive cumulative sum that restarts at every segment start
    # (packed variable-length sequences), by an associative scan of
    # (value, flag) pairs; the segment sums are scattered to their segment
    # ids. One program; the carry crosses blocks.
    carry = 0.0
    seg_base = tl.full((), -1, tl.int32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < N
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        flag = tl.load(starts_ptr + offs, mask=m, other=0) != 0
        # the carry enters as the first element's left neighbour
        x = tl.where((offs == start) & ~flag, x + carry, x)
        y, _ = tl.associative_scan((x, flag), axis=0, combine_fn=_segmented_add)
        tl.store(y_ptr + offs, y, mask=m)
        seg_id = seg_base + tl.cumsum(flag.to(tl.int32), axis=0)
        ends = m & ((offs == N - 1) | (tl.load(starts_ptr + offs + 1, mask=offs + 1 < N, other=0) != 0))
        tl.store(seg_total_ptr + seg_id, y, mask=ends)
        carry = tl.sum(tl.where(offs == start + BLOCK - 1, y, 0.0), axis=0)
        seg_base = tl.max(tl.where(m, seg_id, -1), axis=0)


@triton.jit
def _logaddexp_combine(a, b):
    mx = tl.maximum(a, b)
    mn = tl.minimum(a, b)
    return tl.where(mx == float("-inf"), mx, mx + tl.log(1.0 + tl.exp(mn - mx)))


@triton.jit
def _pair_logaddexp(a_l, b_l, a_r, b_r):
    # log-space linear recurrence h_t = exp(a_t) h_{t-1} + exp(b_t):
    # (a_l, b_l) then (a_r, b_r) -> (a_l + a_r, logaddexp(b_l + a_r, b_r))
    return a_l + a_r, _logaddexp_combine(b_l + a_r, b_r)


@triton.jit
def min_gru_log_scan_kernel(
    log_coeff_ptr, log_values_ptr, log_h0_ptr, out_ptr, T, D,
    BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr,
):
    # minGRU's parallel mode (Heinsen's log-space scan): log h_t =
    # logaddexp(log_coeff_t + log h_{t-1}, log_value_t), by chunks of
    # BLOCK_T steps scanned along axis 1 of a [BLOCK_D, BLOCK_T] tile.
    # [batch, T, D] inputs; grid (batch, cdiv(D, BLOCK_D))
    b = tl.program_id(0)
    ds = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    d_ok = ds < D
    log_h = tl.load(log_h0_ptr + b * D + ds, mask=d_ok, other=float("-inf"))
    for t0 in tl.range(0, T, BLOCK_T):
        ts = t0 + tl.arange(0, BLOCK_T)
        m = d_ok[:, None] & (ts < T)[None, :]
        offs = (b * T + ts)[None, :] * D + ds[:, None]
        a = tl.load(log_coeff_ptr + offs, mask=m, other=0.0)
        v = tl.load(log_values_ptr + offs, mask=m, other=float("-inf"))
        a_cum, v_cum = tl.associative_scan((a, v), 1, _pair_logaddexp)
        h = _logaddexp_combine(a_cum + log_h[:, None], v_cum)
        tl.store(out_ptr + offs, tl.exp(h), mask=m)
        log_h = tl.max(tl.where((tl.arange(0, BLOCK_T) == BLOCK_T - 1)[None, :], h, float("-inf")), axis=1)


@triton.jit
def fused_recurrent_delta_rule_kernel(
    q_ptr, k_ptr, v_ptr, beta_ptr, o_ptr, h0_ptr, ht_ptr, scale, T,
    H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
    USE_QK_L2NORM: tl.constexpr, USE_INITIAL_STATE: tl.constexpr, STORE_FINAL_STATE: tl.constexpr,
):
    # DeltaNet's recurrence one token at a time, the pointers advanced each
    # step (flash-linear-attention's fused_recurrent style):
    # S <- S + beta_t (v_t - S^T k_t) k_t^T, o_t = S^T q_t.
    # q, k: [B, T, H, K]; v, o: [B, T, H, V]; beta: [B, T, H]; S: [K, V] per (b, h)
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    mask_k = o_k < K
    mask_v = o_v < V
    mask_h = mask_k[:, None] & mask_v[None, :]
    p_q = q_ptr + (i_b * T * H + i_h) * K + o_k
    p_k = k_ptr + (i_b * T * H + i_h) * K + o_k
    p_v = v_ptr + (i_b * T * H + i_h) * V + o_v
    p_beta = beta_ptr + i_b * T * H + i_h
    p_o = o_ptr + (i_b * T * H + i_h) * V + o_v
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        b_h += tl.load(h0_ptr + i_bh * K * V + o_k[:, None] * V + o_v[None, :], mask=mask_h, other=0.0)
    for _ in range(0, T):
        b_q = tl.load(p_q, mask=mask_k, other=0.0).to(tl.float32)
        b_k = tl.load(p_k, mask=mask_k, other=0.0).to(tl.float32)
        b_v = tl.load(p_v, mask=mask_v, other=0.0).to(tl.float32)
        if USE_QK_L2NORM:
            b_q = b_q / tl.sqrt(tl.sum(b_q * b_q) + 1e-6)
            b_k = b_k / tl.sqrt(tl.sum(b_k * b_k) + 1e-6)
        b_q = b_q * scale
        b_beta = tl.load(p_beta).to(tl.float32)
        b_v -= tl.sum(b_h * b_k[:, None], 0)
        b_v *= b_beta
        b_h += b_k[:, None] * b_v[None, :]
        b_o = tl.sum(b_h * b_q[:, None], 0)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=mask_v)
        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_o += H * V
        p_beta += H
    if STORE_FINAL_STATE:
        tl.store(ht_ptr + i_bh * K * V + o_k[:, None] * V + o_v[None, :], b_h.to(ht_ptr.dtype.element_ty),
                 mask=mask_h)


@triton.jit
def _sigmoid(x):
    return 1.0 / (1.0 + tl.exp(-x))


@triton.jit
def _tanh(x):
    return 2.0 * _sigmoid(2.0 * x) - 1.0


@triton.jit
def gru_persistent_kernel(
    xw_ptr, w_hh_ptr, b_hh_ptr, h0_ptr, out_ptr, T, B,
    HID: tl.constexpr, BLOCK_B: tl.constexpr, DOT_DTYPE: tl.constexpr,
):
    # a persistent GRU layer: the recurrent weights stay in registers for
    # the whole sequence and the hidden state feeds tl.dot every step.
    # xw = x W_ih^T + b_ih precomputed: [T, B, 3*HID] in (r, z, n) order;
    # W_hh: [3*HID, HID] as torch stores it; out: [T, B, HID]
    rows = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    r_ok = rows < B
    hs = tl.arange(0, HID)
    # W^T blocks: element [i, j] = W_hh[g*HID + j, i]
    w_t = w_hh_ptr + hs[None, :] * HID + hs[:, None]
    w_r = tl.load(w_t).to(DOT_DTYPE)
    w_z = tl.load(w_t + HID * HID).to(DOT_DTYPE)
    w_n = tl.load(w_t + 2 * HID * HID).to(DOT_DTYPE)
    b_r = tl.load(b_hh_ptr + hs)
    b_z = tl.load(b_hh_ptr + HID + hs)
    b_n = tl.load(b_hh_ptr + 2 * HID + hs)
    m = r_ok[:, None]
    h = tl.load(h0_ptr + rows[:, None] * HID + hs[None, :], mask=m, other=0.0).to(tl.float32)
    for t in range(T):
        xw = xw_ptr + (t * B + rows)[:, None] * (3 * HID) + hs[None, :]
        x_r = tl.load(xw, mask=m, other=0.0).to(tl.float32)
        x_z = tl.load(xw + HID, mask=m, other=0.0).to(tl.float32)
        x_n = tl.load(xw + 2 * HID, mask=m, other=0.0).to(tl.float32)
        hd = h.to(DOT_DTYPE)
        r = _sigmoid(x_r + tl.dot(hd, w_r, input_precision="ieee") + b_r[None, :])
        z = _sigmoid(x_z + tl.dot(hd, w_z, input_precision="ieee") + b_z[None, :])
        n = _tanh(x_n + r * (tl.dot(hd, w_n, input_precision="ieee") + b_n[None, :]))
        h = (1.0 - z) * n + z * h
        tl.store(out_ptr + (t * B + rows)[:, None] * HID + hs[None, :], h.to(out_ptr.dtype.element_ty), mask=m)


@triton.jit
def top_p_filter_kernel(
    logits_ptr, out_ptr, top_p_ptr, temperature_ptr, V, stride,
    BLOCK_V: tl.constexpr,
):
    # nucleus filtering of one row of logits: softmax at the row's
    # temperature, probabilities sorted in descending order, the smallest
    # set whose mass reaches top_p kept (ties at the threshold kept too, and
    # always the most likely token);
    # the rest become -inf.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_V)
    m = cols < V
    temp = tl.load(temperature_ptr + row)
    top_p = tl.load(top_p_ptr + row)
    x = tl.load(logits_ptr + row * stride + cols, mask=m, other=float("-inf")).to(tl.float32) / temp
    p = tl.exp(x - tl.max(x, 0))
    p = p / tl.sum(p, 0)
    sp = tl.sort(p, descending=True)
    before = tl.cumsum(sp, 0) - sp
    # at least the most likely token stays
    thresh = tl.minimum(tl.min(tl.where(before < top_p, sp, 2.0), 0), tl.max(p, 0))
    out = tl.where(p >= thresh, x, float("-inf"))
    tl.store(out_ptr + row * stride + cols, out, mask=m)


@triton.jit
def rnnt_loss_fwd_kernel(
    logits_ptr, labels_ptr, in_len_ptr, lab_len_ptr, alpha_ptr, loss_ptr,
    T_max, U_max, C, BLANK: tl.constexpr, BLOCK_U: tl.constexpr,
):
    # RNN-T's forward variable alpha[t, u] over a [T, U+1] lattice, by
    # anti-diagonals t + u = d: every cell of a diagonal depends only on the
    # previous one, read back from the alpha buffer [B, T_max, U_max+1].
    # logits are log-probabilities [B, T_max, U_max+1, C].
    b = tl.program_id(0)
    Tb = tl.load(in_len_ptr + b)
    Ub = tl.load(lab_len_ptr + b)
    us = tl.arange(0, BLOCK_U)
    u_ok = us <= Ub
    U1 = U_max + 1
    lp = logits_ptr + b.to(tl.int64) * T_max * U1 * C
    al = alpha_ptr + b * T_max * U1
    # labels[u - 1] for the emit arc into (t, u)
    prev_label = tl.load(labels_ptr + b * U_max + us - 1, mask=(us >= 1) & (us <= Ub), other=0)
    tl.store(al + us, tl.where(us == 0, 0.0, float("-inf")), mask=us == 0)
    for d in range(1, Tb + Ub):
        t = d - us
        cell = u_ok & (t >= 0) & (t < Tb)
        # from (t-1, u) by a blank
        from_t = cell & (t >= 1)
        a_t = tl.load(al + (t - 1) * U1 + us, mask=from_t, other=float("-inf"))
        lp_blank = tl.load(lp + ((t - 1) * U1 + us) * C + BLANK, mask=from_t, other=0.0)
        # from (t, u-1) by emitting label u-1
        from_u = cell & (us >= 1)
        a_u = tl.load(al + t * U1 + us - 1, mask=from_u, other=float("-inf"))
        lp_emit = tl.load(lp + (t * U1 + us - 1) * C + prev_label, mask=from_u, other=0.0)
        x1 = a_t + lp_blank
        x2 = a_u + lp_emit
        mx = tl.maximum(x1, x2)
        safe = tl.where(mx == float("-inf"), 0.0, mx)
        a = safe + tl.log(tl.exp(x1 - safe) + tl.exp(x2 - safe))
        tl.debug_barrier()
        tl.store(al + t * U1 + us, a, mask=cell)
        tl.debug_barrier()
    last = tl.load(al + (Tb - 1) * U1 + Ub)
    tl.store(loss_ptr + b, -(last + tl.load(lp + ((Tb - 1) * U1 + Ub) * C + BLANK)))


@triton.heuristics({"HAS_DT_BIAS": lambda args: args["dt_bias_ptr"] is not None})
@triton.heuristics({"HAS_D": lambda args: args["D_ptr"] is not None})
@triton.heuristics({"HAS_Z": lambda args: args["z_ptr"] is not None})
@triton.heuristics({"BLOCK_SIZE_DSTATE": lambda args: triton.next_power_of_2(args["dstate"])})
@triton.jit
def selective_state_update_kernel(
    state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr,
    batch, nheads, dim, dstate, nheads_ngroups_ratio,
    stride_state_batch, stride_state_head, stride_state_dim, stride_state_dstate,
    stride_x_batch, stride_x_head, stride_x_dim,
    stride_dt_batch, stride_dt_head, stride_dt_dim,
    stride_dt_bias_head, stride_dt_bias_dim,
    stride_A_head, stride_A_dim, stride_A_dstate,
    stride_B_batch, stride_B_group, stride_B_dstate,
    stride_C_batch, stride_C_group, stride_C_dstate,
    stride_D_head, stride_D_dim,
    stride_z_batch, stride_z_head, stride_z_dim,
    stride_out_batch, stride_out_head, stride_out_dim,
    DT_SOFTPLUS: tl.constexpr, TIE_HDIM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr,
    HAS_DT_BIAS: tl.constexpr, HAS_D: tl.constexpr, HAS_Z: tl.constexpr, BLOCK_SIZE_DSTATE: tl.constexpr,
):
    # Mamba's decoding step: one token updates the SSM state in place,
    # state = state * exp(dt A) + dt B x, and reads out C . state (+ D x,
    # gated by silu(z)). Optional tensors arrive as None and switch their
    # code off through heuristics; B and C are shared by groups of heads.
    # grid (cdiv(dim, BLOCK_SIZE_M), batch, nheads)
    pid_m = tl.program_id(axis=0)
    pid_b = tl.program_id(axis=1)
    pid_h = tl.program_id(axis=2)
    state_ptr += pid_b * stride_state_batch + pid_h * stride_state_head
    x_ptr += pid_b * stride_x_batch + pid_h * stride_x_head
    dt_ptr += pid_b * stride_dt_batch + pid_h * stride_dt_head
    if HAS_DT_BIAS:
        dt_bias_ptr += pid_h * stride_dt_bias_head
    A_ptr += pid_h * stride_A_head
    B_ptr += pid_b * stride_B_batch + (pid_h // nheads_ngroups_ratio) * stride_B_group
    C_ptr += pid_b * stride_C_batch + (pid_h // nheads_ngroups_ratio) * stride_C_group
    if HAS_Z:
        z_ptr += pid_b * stride_z_batch + pid_h * stride_z_head
    out_ptr += pid_b * stride_out_batch + pid_h * stride_out_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tl.arange(0, BLOCK_SIZE_DSTATE)
    state_ptrs = state_ptr + (offs_m[:, None] * stride_state_dim + offs_n[None, :] * stride_state_dstate)
    x_ptrs = x_ptr + offs_m * stride_x_dim
    dt_ptrs = dt_ptr + offs_m * stride_dt_dim
    if HAS_DT_BIAS:
        dt_bias_ptrs = dt_bias_ptr + offs_m * stride_dt_bias_dim
    if HAS_D:
        D_ptr += pid_h * stride_D_head
    A_ptrs = A_ptr + (offs_m[:, None] * stride_A_dim + offs_n[None, :] * stride_A_dstate)
    B_ptrs = B_ptr + offs_n * stride_B_dstate
    C_ptrs = C_ptr + offs_n * stride_C_dstate
    if HAS_D:
        D_ptrs = D_ptr + offs_m * stride_D_dim
    if HAS_Z:
        z_ptrs = z_ptr + offs_m * stride_z_dim
    out_ptrs = out_ptr + offs_m * stride_out_dim

    state = tl.load(state_ptrs, mask=(offs_m[:, None] < dim) & (offs_n[None, :] < dstate), other=0.0)
    x = tl.load(x_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
    if not TIE_HDIM:
        dt = tl.load(dt_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
        if HAS_DT_BIAS:
            dt += tl.load(dt_bias_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
        if DT_SOFTPLUS:
            dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
        A = tl.load(A_ptrs, mask=(offs_m[:, None] < dim) & (offs_n[None, :] < dstate), other=0.0).to(tl.float32)
        dA = tl.exp(A * dt[:, None])
    else:
        dt = tl.load(dt_ptr).to(tl.float32)
        if HAS_DT_BIAS:
            dt += tl.load(dt_bias_ptr).to(tl.float32)
        if DT_SOFTPLUS:
            dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
        A = tl.load(A_ptr).to(tl.float32)
        dA = tl.exp(A * dt)  # scalar, not a matrix
    B = tl.load(B_ptrs, mask=offs_n < dstate, other=0.0).to(tl.float32)
    C = tl.load(C_ptrs, mask=offs_n < dstate, other=0.0).to(tl.float32)
    if HAS_D:
        D = tl.load(D_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
    if HAS_Z:
        z = tl.load(z_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
    if not TIE_HDIM:
        dB = B[None, :] * dt[:, None]
    else:
        dB = B * dt  # vector of size (dstate,)
    state = state * dA + dB * x[:, None]
    tl.store(state_ptrs, state, mask=(offs_m[:, None] < dim) & (offs_n[None, :] < dstate))
    out = tl.sum(state * C[None, :], axis=1)
    if HAS_D:
        out += x * D
    if HAS_Z:
        out *= z * tl.sigmoid(z)
    tl.store(out_ptrs, out, mask=offs_m < dim)


@triton.jit
def searchsorted_kernel(
    sorted_ptr, values_ptr, out_ptr, M, N, stride_row_s, stride_row_v,
    RIGHT: tl.constexpr, BLOCK: tl.constexpr,
):
    # torch.searchsorted over the rows of a sorted [R, M] tensor: a binary
    # search per element that runs until every element of the block has
    # converged (a while loop on a reduced condition). grid (cdiv(N, BLOCK), R)
    row = tl.program_id(1)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    v = tl.load(values_ptr + row * stride_row_v + offs, mask=m, other=0.0)
    lo = tl.zeros((BLOCK,), dtype=tl.int32)
    hi = tl.where(m, M, 0)
    bounds = sorted_ptr + row * stride_row_s
    while tl.max(hi - lo, axis=0) > 0:
        active = lo < hi
        mid = (lo + hi) // 2
        b = tl.load(bounds + mid, mask=active, other=0.0)
        if RIGHT:
            go_right = b <= v
        else:
            go_right = b < v
        lo = tl.where(active & go_right, mid + 1, lo)
        hi = tl.where(active & ~go_right, mid, hi)
    tl.store(out_ptr + row * stride_row_v + offs, lo.to(tl.int64), mask=m)


@triton.jit
def vandermonde_complex_kernel(
    dtA_ptr, C_ptr, k_ptr, L,
    N: tl.constexpr, BLOCK_L: tl.constexpr,
):
    # the complex S4D kernel K[h, l] = sum_n C[h, n] exp(dtA[h, n] l) with
    # complex64 tensors read through torch.view_as_real: (re, im) pairs
    # split apart on load and joined again for the store. grid (cdiv(L, BLOCK_L), H)
    h = tl.program_id(1)
    ls = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    ns = tl.arange(0, N)
    two = tl.arange(0, 2)
    pair = (h * N + ns)[:, None] * 2 + two[None, :]
    a_re, a_im = tl.split(tl.load(dtA_ptr + pair))
    c_re, c_im = tl.split(tl.load(C_ptr + pair))
    lf = ls.to(tl.float32)[:, None]
    mag = tl.exp(a_re[None, :] * lf)
    ang = a_im[None, :] * lf
    v_re = mag * tl.cos(ang)
    v_im = mag * tl.sin(ang)
    k_re = tl.sum(c_re[None, :] * v_re - c_im[None, :] * v_im, axis=1)
    k_im = tl.sum(c_re[None, :] * v_im + c_im[None, :] * v_re, axis=1)
    out = tl.join(k_re, k_im)
    tl.store(k_ptr + (h * L + ls)[:, None] * 2 + two[None, :], out, mask=(ls < L)[:, None])


@triton.jit
def _affine_rev(a_l, b_l, a_r, b_r):
    # a reversed scan accumulates from the end: the left operand holds the
    # later steps, so x_t = b_t + a_t x_{t+1} composes as below
    return a_l * a_r, b_r + a_r * b_l


@triton.jit
def gae_kernel(
    rewards_ptr, values_ptr, dones_ptr, adv_ptr, ret_ptr, T, n_envs, gamma, lam,
    BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr,
):
    # generalised advantage estimation over a rollout [T, n_envs]:
    # delta_t = r_t + gamma V_{t+1} (1 - done_t) - V_t,
    # A_t = delta_t + gamma lam (1 - done_t) A_{t+1}, a linear recurrence
    # run backwards in time: chunks from the end, each a reversed
    # associative scan, the carry A_{t0} passed down. values has T + 1 rows
    # (the bootstrap value last). grid (cdiv(n_envs, BLOCK_E),)
    es = tl.program_id(0) * BLOCK_E + tl.arange(0, BLOCK_E)
    e_ok = es < n_envs
    carry = tl.zeros((BLOCK_E,), dtype=tl.float32)
    n_chunks = tl.cdiv(T, BLOCK_T)
    for c in range(n_chunks):
        t0 = (n_chunks - 1 - c) * BLOCK_T
        ts = t0 + tl.arange(0, BLOCK_T)
        m = (ts < T)[:, None] & e_ok[None, :]
        offs = ts[:, None] * n_envs + es[None, :]
        r = tl.load(rewards_ptr + offs, mask=m, other=0.0)
        v = tl.load(values_ptr + offs, mask=m, other=0.0)
        v_next = tl.load(values_ptr + offs + n_envs, mask=m, other=0.0)
        notdone = 1.0 - tl.load(dones_ptr + offs, mask=m, other=1).to(tl.float32)
        delta = r + gamma * v_next * notdone - v
        a = gamma * lam * notdone
        # the chunk's last row continues from the carry (A of the next chunk's first step)
        last = (ts == tl.minimum(t0 + BLOCK_T, T) - 1)[:, None]
        delta = tl.where(last, delta + a * carry[None, :], delta)
        a = tl.where(m, a, 1.0)
        _, adv = tl.associative_scan((a, delta), axis=0, combine_fn=_affine_rev, reverse=True)
        tl.store(adv_ptr + offs, adv, mask=m)
        tl.store(ret_ptr + offs, adv + v, mask=m)
        carry = tl.sum(tl.where((ts == t0)[:, None], adv, 0.0), axis=0)


@triton.jit
def _float_key(x):
    # an order-preserving map of float32 to uint32 bits: negative floats
    # have every bit flipped, the others their sign bit set
    bits = x.to(tl.uint32, bitcast=True)
    return tl.where((bits >> 31) != 0, ~bits, bits | 0x80000000)


@triton.jit
def topk_packed_sort_kernel(
    x_ptr, vals_ptr, idx_ptr, N, stride,
    K: tl.constexpr, BLOCK: tl.constexpr,
):
    # top-k of a row by one sort: each value's order-preserving key in the
    # high 32 bits and its column in the low 32 (inverted so that ties
    # prefer the lower index), sorted descending as uint64; the k largest
    # decoded from the front. One program per row.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf"))
    # + 0.0 turns -0.0 into +0.0: the two tie, as torch orders them
    key = _float_key(x + 0.0).to(tl.uint64) << 32
    packed = key | (0xFFFFFFFF - cols.to(tl.uint32)).to(tl.uint64)
    packed = tl.sort(packed, descending=True)
    first = tl.arange(0, K)
    top = tl.sum(tl.where(first[:, None] == cols[None, :], packed[None, :], tl.zeros_like(packed)[None, :]), axis=1)
    idx = 0xFFFFFFFF - (top & 0xFFFFFFFF)
    tl.store(idx_ptr + row * K + first, idx.to(tl.int64))
    tl.store(vals_ptr + row * K + first, tl.load(x_ptr + row * stride + idx.to(tl.int32)))


@triton.jit
def long_conv_toeplitz_kernel(
    u_ptr, k_ptr, y_ptr, T, H,
    D: tl.constexpr, BT: tl.constexpr, BS: tl.constexpr,
):
    # a causal long convolution per head (Hyena / S4's convolution mode),
    # y[b, t, h, :] = sum_{s <= t} k[h, t - s] u[b, s, h, :], as tl.dot of
    # Toeplitz tiles built from the filter by a 2-D gather against input
    # tiles; the input loop stops at the output tile's end (causal).
    # u, y: [B, T, H, D]; k: [H, T]. grid (cdiv(T, BT), B * H)
    i_t = tl.program_id(0)
    i_bh = tl.program_id(1)
    b = i_bh // H
    h = i_bh % H
    ts = i_t * BT + tl.arange(0, BT)
    ds = tl.arange(0, D)
    acc = tl.zeros((BT, D), dtype=tl.float32)
    for s0 in range(0, (i_t + 1) * BT, BS):
        ss = s0 + tl.arange(0, BS)
        lag = ts[:, None] - ss[None, :]
        kt = tl.load(k_ptr + h * T + lag, mask=(lag >= 0) & (ts[:, None] < T), other=0.0)
        u = tl.load(u_ptr + ((b * T + ss)[:, None] * H + h) * D + ds[None, :], mask=(ss < T)[:, None], other=0.0)
        acc = tl.dot(kt.to(u.dtype), u, acc)
    tl.store(y_ptr + ((b * T + ts)[:, None] * H + h) * D + ds[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(ts < T)[:, None])
