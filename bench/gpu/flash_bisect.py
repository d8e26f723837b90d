#!/usr/bin/env python3
"""The fused-attention tutorial's forward (tests/kernels/flash_attention.py,
attn_fwd, non-causal, device-side descriptors) written once with constexpr
switches, to find which part of it costs tritonc time: K and V through
pointers instead of descriptors (KV_PTR), the Q load and O store through
pointers (Q_PTR), no M store (M_STORE=0), attention.py's order of the
l_i update (ORDER). Each variant is checked against torch's
scaled_dot_product_attention and timed by CUDA graph replay (20 launches,
median of 5). Found, 2026-12-03: Q_PTR alone took the kernel from 1.22 to
0.76 ms (the descriptor's row checks live through the loop as predicates;
see src/transform/sink_compares.c).

    make -j16 all && python3 bench/gpu/flash_bisect.py [KQMO ...]   (e.g. 0010 0110)
"""
import os
import sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
import torch
import tritonc as triton
import tritonc.language as tl

@triton.jit
def fwd(sm_scale, M, Z, H, Qp, Kp, Vp, Op, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
        KV_PTR: tl.constexpr, Q_PTR: tl.constexpr, M_STORE: tl.constexpr, ORDER: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    y_dim = Z * H * N_CTX
    desc_q = tl.make_tensor_descriptor(Qp, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
    desc_k = tl.make_tensor_descriptor(Kp, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    desc_v = tl.make_tensor_descriptor(Vp, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
    desc_o = tl.make_tensor_descriptor(Op, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
    offset_y = off_z * (N_CTX * H) + off_h * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale
    qk_scale *= 1.44269504
    if Q_PTR:
        q = tl.load(Qp + (qo_offset_y + tl.arange(0, BLOCK_M))[:, None] * HEAD_DIM + offs_d[None, :])
    else:
        q = desc_q.load([qo_offset_y, 0])
    offsetk_y = offset_y
    offsetv_y = offset_y
    for start_n in tl.range(0, N_CTX, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        if KV_PTR:
            k = tl.load(Kp + (offsetk_y + offs_n)[:, None] * HEAD_DIM + offs_d[None, :]).T
        else:
            k = desc_k.load([offsetk_y, 0]).T
        qk = tl.dot(q, k)
        if ORDER:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
            p = tl.math.exp2(qk)
            alpha = tl.math.exp2(m_i - m_ij)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
            p = tl.math.exp2(qk)
            l_ij = tl.sum(p, 1)
            alpha = tl.math.exp2(m_i - m_ij)
            acc = acc * alpha[:, None]
        if KV_PTR:
            v = tl.load(Vp + (offsetv_y + offs_n)[:, None] * HEAD_DIM + offs_d[None, :])
        else:
            v = desc_v.load([offsetv_y, 0])
        p = p.to(tl.float16)
        acc = tl.dot(p, v, acc)
        if not ORDER:
            l_i = l_i * alpha + l_ij
        m_i = m_ij
        offsetk_y += BLOCK_N
        offsetv_y += BLOCK_N
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    if M_STORE:
        tl.store(M + off_hz * N_CTX + offs_m, m_i)
    if Q_PTR:
        tl.store(Op + (qo_offset_y + tl.arange(0, BLOCK_M))[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16))
    else:
        desc_o.store([qo_offset_y, 0], acc.to(tl.float16))

def graph_time(launch, reps=20):
    s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s): launch()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps): launch()
    g.replay(); torch.cuda.synchronize()
    ts = []
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b) / reps)
    return sorted(ts)[2]

Z, H, N = 4, 16, 4096
q, k, v = (torch.randn((Z, H, N, 64), device="cuda", dtype=torch.float16) for _ in range(3))
M = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=0.5)
variants = [(0, 0, 1, 0), (1, 0, 1, 0), (0, 1, 1, 0), (0, 0, 0, 0), (0, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
if len(sys.argv) > 1:
    variants = [tuple(int(c) for c in a) for a in sys.argv[1:]]
for kv, qp, ms, order in variants:
    o = torch.full_like(q, float("nan"))
    f = lambda: fwd[(N // 128, Z * H, 1)](0.5, M, Z, H, q, k, v, o, N, HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, KV_PTR=kv, Q_PTR=qp,
                                         M_STORE=ms, ORDER=order, num_warps=4, num_stages=3)
    f(); torch.cuda.synchronize()
    err = (o.float() - ref.float()).abs().max().item()
    print("KV_PTR=%d Q_PTR=%d M_STORE=%d ORDER=%d: %.4f ms, err %.1e" % (kv, qp, ms, order, graph_time(f), err), flush=True)
