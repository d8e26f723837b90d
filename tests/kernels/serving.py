# KERNEL: paged_decode_attn
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16,*fp16:16,fp32,i32:16,i32:16,i32:16,i32:16,i32:16,i32
# CONSTEXPR: num_kv_heads=8, GROUP=4, HEAD_DIM=128, BLOCK_SIZE=16, MAX_BLOCKS=64
# GRID: batch, num_heads
#
# KERNEL: fused_add_rmsnorm
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,i32:16,i32,fp32
# CONSTEXPR: BLOCK=4096
# GRID: n_rows
#
# KERNEL: topk_gating
# SIGNATURE: *fp32:16,*fp32:16,*i32:16
# CONSTEXPR: E=64, K=2
# GRID: n_tokens
#
# Inference-serving kernels: decode attention over a paged KV cache (block
# indices loaded from a block table and used as int64 offsets, grouped-query
# heads, an online softmax over blocks of a runtime sequence length, the
# score as a broadcast multiply and row sum rather than tl.dot), residual
# add fused with RMSNorm (the residual written back in bf16), and MoE top-k
# gating (tl.softmax, repeated max with return_indices, renormalisation).
import triton
import triton.language as tl


@triton.jit
def paged_decode_attn(Q, K_cache, V_cache, block_tables, seq_lens, Out, scale,
                      stride_qb, stride_qh, stride_kb, stride_kh, stride_kt, stride_bt_b,
                      num_kv_heads: tl.constexpr, GROUP: tl.constexpr, HEAD_DIM: tl.constexpr,
                      BLOCK_SIZE: tl.constexpr, MAX_BLOCKS: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    kvh = h // GROUP
    d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + b * stride_qb + h * stride_qh + d).to(tl.float32)
    seq_len = tl.load(seq_lens + b)
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    nblocks = tl.cdiv(seq_len, BLOCK_SIZE)
    for i in range(0, nblocks):
        blk = tl.load(block_tables + b * stride_bt_b + i).to(tl.int64)
        t = tl.arange(0, BLOCK_SIZE)
        tok = i * BLOCK_SIZE + t
        kp = K_cache + blk * stride_kb + kvh * stride_kh + t[:, None] * stride_kt + d[None, :]
        k = tl.load(kp, mask=(tok < seq_len)[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * scale
        s = tl.where(tok < seq_len, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        v = tl.load(V_cache + blk * stride_kb + kvh * stride_kh + t[:, None] * stride_kt + d[None, :],
                    mask=(tok < seq_len)[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        l_i = l_i * alpha + tl.sum(p, 0)
        m_i = m_new
    tl.store(Out + b * stride_qb + h * stride_qh + d, (acc / l_i).to(Out.dtype.element_ty))


@triton.jit
def fused_add_rmsnorm(X, R, W, Y, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0.).to(tl.float32)
    r = tl.load(R + row * stride + cols, mask=m, other=0.).to(tl.float32)
    x = x + r
    tl.store(R + row * stride + cols, x.to(R.dtype.element_ty), mask=m)
    var = tl.sum(x * x, 0) / N
    y = x * tl.rsqrt(var + eps) * tl.load(W + cols, mask=m).to(tl.float32)
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=m)


@triton.jit
def topk_gating(logits, w_out, idx_out, E: tl.constexpr, K: tl.constexpr):
    t = tl.program_id(0)
    e = tl.arange(0, E)
    x = tl.load(logits + t * E + e).to(tl.float32)
    p = tl.softmax(x)
    tot = 0.0
    for k in tl.static_range(K):
        v, i = tl.max(p, axis=0, return_indices=True)
        tl.store(w_out + t * K + k, v)
        tl.store(idx_out + t * K + k, i)
        p = tl.where(e == i, -1.0, p)
        tot += v
    ws = tl.load(w_out + t * K + tl.arange(0, K))
    tl.store(w_out + t * K + tl.arange(0, K), ws / tot)

