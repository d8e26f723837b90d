# KERNEL: attn_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16
# CONSTEXPR: HEAD_DIM=64, BLOCK_M=64, BLOCK_N=64, CAUSAL=True
# GRID: cdiv(N_CTX, BLOCK_M), 16
#
# KERNEL: attn_fwd_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16
# CONSTEXPR: HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, CAUSAL=False
# GRID: cdiv(N_CTX, BLOCK_M), 16
#
# Fused attention forward, softmax(Q K^T * sm_scale) V, for Q, K, V, Out of
# shape [batch*heads, N_CTX, HEAD_DIM] (contiguous, fp16). One program owns
# BLOCK_M query rows of one head (grid axis 1 = batch*heads) and streams K/V
# in BLOCK_N blocks with the online softmax: running max m_i and running sum
# l_i are loop-carried, exponentials use exp2 with the scale folded into
# log2(e). With CAUSAL the blocks left of the diagonal run unmasked and the
# diagonal block runs masked. N_CTX must be a multiple of BLOCK_M.

import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def attn_inner(acc, l_i, m_i, q, kT_ptrs, v_ptrs, stride_n, lo, hi, offs_m, offs_n, qk_scale,
               BLOCK_N: tl.constexpr, ON_DIAGONAL: tl.constexpr):
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        kT = tl.load(kT_ptrs + start_n * stride_n)
        qk = tl.dot(q, kT)
        if ON_DIAGONAL:
            visible = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(visible, 0.0, -1.0e6)
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_new[:, None]
        else:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_n)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attn_fwd_kernel(Q, K, V, Out, sm_scale, stride_bh, stride_n, N_CTX,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0, "BLOCK_M must be a multiple of BLOCK_N")
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * stride_bh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = Q + base + offs_m[:, None] * stride_n + offs_d[None, :]
    kT_ptrs = K + base + offs_d[:, None] + offs_n[None, :] * stride_n
    v_ptrs = V + base + offs_n[:, None] * stride_n + offs_d[None, :]
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * LOG2E
    q = tl.load(q_ptrs)
    if CAUSAL:
        acc, l_i, m_i = attn_inner(acc, l_i, m_i, q, kT_ptrs, v_ptrs, stride_n, 0, start_m * BLOCK_M,
                                   offs_m, offs_n, qk_scale, BLOCK_N, False)
        acc, l_i, m_i = attn_inner(acc, l_i, m_i, q, kT_ptrs, v_ptrs, stride_n, start_m * BLOCK_M,
                                   (start_m + 1) * BLOCK_M, offs_m, offs_n, qk_scale, BLOCK_N, True)
    else:
        acc, l_i, m_i = attn_inner(acc, l_i, m_i, q, kT_ptrs, v_ptrs, stride_n, 0, N_CTX,
                                   offs_m, offs_n, qk_scale, BLOCK_N, False)
    acc = acc / l_i[:, None]
    o_ptrs = Out + base + offs_m[:, None] * stride_n + offs_d[None, :]
    tl.store(o_ptrs, acc.to(Out.dtype.element_ty))
