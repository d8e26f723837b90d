# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/serving.py on the CPU against torch: paged
decode attention (a shuffled block table, ragged sequence lengths, GQA),
fused residual-add + RMSNorm in bf16, MoE top-k gating."""
import importlib.util
import math
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

sys.modules.setdefault("triton", triton)
sys.modules.setdefault("triton.language", tl)
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("serving", os.path.join(HERE, "..", "kernels", "serving.py"))
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)


def check_paged_attention(gen):
    B, H, KVH, D, BS, maxb, nblk = 3, 8, 2, 32, 16, 4, 20
    seq = torch.tensor([5, 40, 17], dtype=torch.int32)
    kc = torch.randn(nblk, KVH, BS, D, generator=gen).half()
    vc = torch.randn(nblk, KVH, BS, D, generator=gen).half()
    table = torch.randperm(nblk, generator=gen)[:B * maxb].view(B, maxb).int()
    q = torch.randn(B, H, D, generator=gen).half()
    out = torch.full_like(q, float("nan"))
    K.paged_decode_attn[(B, H)](q, kc, vc, table, seq, out, 1 / math.sqrt(D), q.stride(0), q.stride(1),
                                kc.stride(0), kc.stride(1), kc.stride(2), table.stride(0), num_kv_heads=KVH,
                                GROUP=H // KVH, HEAD_DIM=D, BLOCK_SIZE=BS, MAX_BLOCKS=maxb)
    for b in range(B):
        L = seq[b].item()
        ks = torch.cat([kc[table[b, i]] for i in range(maxb)], dim=1)[:, :L].float()
        vs = torch.cat([vc[table[b, i]] for i in range(maxb)], dim=1)[:, :L].float()
        for h in range(H):
            s = (ks[h // (H // KVH)] @ q[b, h].float()) / math.sqrt(D)
            ref = torch.softmax(s, 0) @ vs[h // (H // KVH)]
            assert torch.allclose(out[b, h].float(), ref, atol=1e-2), (b, h)


def check_fused_add_rmsnorm(gen):
    R, N = 7, 300
    x = torch.randn(R, N, generator=gen).bfloat16()
    r = torch.randn(R, N, generator=gen).bfloat16()
    w = torch.randn(N, generator=gen).bfloat16()
    y = torch.full_like(x, float("nan"))
    r0 = r.clone()
    K.fused_add_rmsnorm[(R,)](x, r, w, y, x.stride(0), N, 1e-6, BLOCK=512)
    s = x.float() + r0.float()
    assert torch.equal(r, s.bfloat16())
    ref = s * torch.rsqrt(s.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()
    assert torch.allclose(y.float(), ref, atol=5e-2, rtol=2e-2)


def check_topk_gating(gen):
    T, E, k = 10, 16, 2
    lg = torch.randn(T, E, generator=gen)
    wo = torch.full((T, k), float("nan"))
    io = torch.full((T, k), -1, dtype=torch.int32)
    K.topk_gating[(T,)](lg, wo, io, E, k)
    tv = torch.softmax(lg, -1).topk(k, -1)
    assert torch.equal(io.long(), tv.indices)
    assert torch.allclose(wo, tv.values / tv.values.sum(-1, keepdim=True), atol=1e-6)


def main():
    gen = torch.Generator().manual_seed(3)
    for f in (check_paged_attention, check_fused_add_rmsnorm, check_topk_gating):
        f(gen)
        print(f.__name__, "ok")


if __name__ == "__main__":
    main()
