# Attention whose K tile reaches the first dot through tl.trans
# (`tl.dot(q, tl.trans(k))`, as the fused-attention tutorial writes it),
# with a ragged N_CTX: the masked rows of K and V are zero-filled and the
# masked columns of qk pushed to -1e6. Run by tests/ptx/mma_sim.py.
import triton
import triton.language as tl


@triton.jit
def attn_trans_kernel(Q, K, V, Out, sm_scale, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.full([BLOCK_M], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        n = start_n + offs_n
        k = tl.load(K + n[:, None] * HEAD_DIM + offs_d[None, :], mask=n[:, None] < N_CTX, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * sm_scale
        qk = tl.where(n[None, :] < N_CTX, qk, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + n[:, None] * HEAD_DIM + offs_d[None, :], mask=n[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(Out + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N_CTX)
