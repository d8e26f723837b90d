# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/fresh_kernels.py on the CPU, each checked
against torch or numpy with fresh random inputs, ragged sizes and poisoned
outputs: fused AdamW (fp32, bf16 + amsgrad + maximize), top-k sampling,
NeoX RoPE, fp8 row-wise quantisation, a sliding-window softcapped GQA
decode step, label-smoothed cross entropy, a segmented suffix scan, a
stable argsort, int4 packing, Welford layer norm, a batched attention tile,
a radix-select histogram, a dot epilogue, a ticketed last-block max,
out-of-range float -> narrow int casts."""
import math
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("fresh_kernels")

g = torch.Generator().manual_seed(1234)
NAN = float("nan")


def close(a, b, atol, rtol=0.0, what=""):
    a = torch.as_tensor(a).double(); b = torch.as_tensor(b).double()
    err = (a - b).abs() - rtol * b.abs()
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert torch.isfinite(a).all() or torch.equal(a.isnan(), b.isnan()), (what, "non-finite values")
    assert (err <= atol).all(), (what, err.max().item())


def check_adamw():
    lr, b1, b2, eps, wd = 1e-2, 0.9, 0.999, 1e-8, 0.1
    for n, dt, ams, maxim, block in ((1000, torch.float32, False, False, 256), (333, torch.bfloat16, True, True, 128)):
        p = torch.randn(n, generator=g).to(dt); gr = torch.randn(n, generator=g).to(dt)
        m = torch.randn(n, generator=g) * 0.1; v = torch.rand(n, generator=g) * 0.01
        vmax = torch.rand(n, generator=g) * 0.02
        step = 7
        rp, rm, rv, rvmax = p.float().clone(), m.clone(), v.clone(), vmax.clone()
        gg = -gr.float() if maxim else gr.float()
        rp = rp * (1 - lr * wd)
        rm = b1 * rm + (1 - b1) * gg
        rv = b2 * rv + (1 - b2) * gg * gg
        bc1 = 1 - b1 ** step; bc2 = 1 - b2 ** step
        if ams:
            rvmax = torch.maximum(rvmax, rv)
            den = rvmax.sqrt() / math.sqrt(bc2) + eps
        else:
            den = rv.sqrt() / math.sqrt(bc2) + eps
        rp = rp - lr / bc1 * rm / den
        K.fused_adamw_kernel[(triton.cdiv(n, block),)](p, gr, m, v, vmax if ams else None, n, step, lr, b1, b2, eps,
                                                       wd, AMSGRAD=ams, MAXIMIZE=maxim, BLOCK=block)
        tol = 1e-5 if dt == torch.float32 else 1e-2
        close(p.float(), rp.to(dt).float(), tol, tol, "adamw p")
        close(m, rm, 1e-6, 1e-5, "adamw m")
        close(v, rv, 1e-7, 1e-5, "adamw v")
        if ams:
            close(vmax, rvmax, 1e-7, 1e-5, "adamw vmax")


def check_topk_sample():
    B, V, TOPK = 5, 200, 8
    stride = 256
    logits = torch.randn(B, stride, generator=g) * 3
    noise = torch.rand(B, stride, generator=g).clamp(1e-6, 1 - 1e-6)
    out = torch.full((B,), -7, dtype=torch.int64); prob = torch.full((B,), NAN)
    temp = 0.7
    K.topk_sample_kernel[(B,)](logits, noise, out, prob, V, stride, temp, TOP_K=TOPK, BLOCK_V=256)
    x = logits[:, :V] / temp
    kth = x.topk(TOPK, dim=1).values[:, -1:]
    xm = torch.where(x >= kth, x, torch.tensor(-float("inf")))
    p = torch.softmax(xm, 1)
    score = torch.where(p > 0, xm - torch.log(-torch.log(noise[:, :V])), torch.tensor(-float("inf")))
    want = score.argmax(1)
    assert torch.equal(out, want), (out, want)
    close(prob, p.gather(1, want[:, None])[:, 0], 1e-5, 1e-5, "topk prob")


def check_rope_neox():
    T, H, D = 6, 4, 64
    q = torch.randn(T, H, D, generator=g).half()
    maxpos = 50
    inv = 1.0 / (10000 ** (torch.arange(0, D, 2).float() / D))
    ang = torch.arange(maxpos).float()[:, None] * inv[None, :]
    cos, sin = ang.cos().contiguous(), ang.sin().contiguous()
    pos = torch.randint(0, maxpos, (T,), generator=g, dtype=torch.int64)
    q0 = q.float().clone()
    K.rope_neox_kernel[(T,)](q, cos, sin, pos, H * D, D // 2, H=H, D=D)
    x1, x2 = q0[..., :D // 2], q0[..., D // 2:]
    c, s = cos[pos][:, None, :], sin[pos][:, None, :]
    ref = torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], -1)
    close(q.float(), ref.half().float(), 2e-3, 1e-3, "rope")


def e4m3_decode(b):
    b = b.astype(np.int64)
    s = np.where(b & 0x80, -1.0, 1.0)
    e = (b >> 3) & 0xF
    m = b & 0x7
    sub = m / 8.0 * 2.0 ** -6
    norm = (1 + m / 8.0) * 2.0 ** (e - 7)
    val = np.where(e == 0, sub, norm)
    val = np.where((e == 15) & (m == 7), np.nan, val)
    return s * val


def check_fp8_quant():
    M, N = 3, 300
    x = torch.randn(M, N, generator=g) * torch.tensor([1.0, 50.0, 1e-3])[:, None]
    x[1, 5] = 0.0
    y = torch.full((M, N), 0x7F, dtype=torch.uint8)   # poison: NaN in e4m3
    sc = torch.full((M,), NAN)
    K.fp8_rowwise_quant_kernel[(M,)](x, triton.reinterpret(y, tl.float8e4nv), sc, N, N, BLOCK_N=128, FP8_MAX=448.0)
    want_sc = x.abs().amax(1) / 448.0
    close(sc, want_sc, 0, 1e-6, "fp8 scale")
    deq = torch.from_numpy(e4m3_decode(y.cpu().numpy())).to(sc.device) * sc.double()[:, None]
    # e4m3 keeps 3 mantissa bits: relative error <= 2^-4, absolute near zero
    err = (deq - x.double()).abs()
    assert (err <= x.double().abs() * 2 ** -4 + sc.double()[:, None] * 2 ** -9 + 1e-30).all(), err.max()
    assert y[1, 5] == 0


def check_window_decode():
    B, HKV, G, D, S = 2, 2, 4, 32, 75
    WINDOW, CAP = 48, 30.0
    q = (torch.randn(B, HKV * G, D, generator=g) * 0.5).half()
    k = (torch.randn(B, S, HKV, D, generator=g) * 0.5).half()
    v = torch.randn(B, S, HKV, D, generator=g).half()
    slopes = torch.tensor([2 ** (-8 * (i + 1) / (HKV * G)) for i in range(HKV * G)])
    o = torch.full((B, HKV * G, D), NAN)
    scale = 1 / math.sqrt(D)
    K.window_softcap_decode_kernel[(B, HKV)](q, k, v, o, slopes, S, S * HKV * D, scale, -1e30, HKV=HKV, G=G, D=D,
                                             BLOCK_S=32, WINDOW=WINDOW, SOFTCAP=CAP)
    ref = torch.empty(B, HKV * G, D)
    pos = torch.arange(S)
    valid = pos >= S - WINDOW
    for b in range(B):
        for h in range(HKV * G):
            kv = h // G
            s = (k[b, :, kv].float() @ q[b, h].float()) * scale
            s = CAP * torch.tanh(s / CAP) + slopes[h] * (pos - (S - 1)).float()
            s = torch.where(valid, s, torch.tensor(-float("inf")))
            p = torch.softmax(s, 0)
            ref[b, h] = p.half().float() @ v[b, :, kv].float()
    close(o, ref, 2e-2, 2e-2, "window decode")


def check_smoothed_ce():
    N, V = 9, 300
    x = torch.randn(N, V, generator=g) * 2
    t = torch.randint(0, V, (N,), generator=g, dtype=torch.int64)
    t[2] = -100; t[7] = -100
    eps = 0.1
    ref = torch.nn.functional.cross_entropy(x, t, ignore_index=-100, label_smoothing=eps, reduction="none")
    loss = torch.full((N,), NAN); tot = torch.zeros(2)
    K.smoothed_ce_kernel[(N,)](x, t, loss, tot, V, V, eps, -100, REDUCTION="none", BLOCK_V=64)
    close(loss, ref, 1e-4, 1e-5, "ce none")
    loss2 = torch.full((N,), NAN)
    K.smoothed_ce_kernel[(N,)](x, t, loss2, tot, V, V, eps, -100, REDUCTION="mean", BLOCK_V=128)
    assert tot[1].item() == N - 2
    close(tot[0] / tot[1], ref.sum() / (N - 2), 1e-4, 1e-5, "ce mean")
    assert loss2.isnan().all()


def check_segmented_suffix():
    R, BLOCK = 7, 64
    x = torch.randn(R, BLOCK, generator=g)
    f = (torch.rand(R, BLOCK, generator=g) < 0.15).to(torch.int8)
    y = torch.full((R, BLOCK), NAN)
    K.segmented_suffix_kernel[(triton.cdiv(R, 4),)](x, f, y, R, ROWS=4, BLOCK=BLOCK)
    ref = torch.empty(R, BLOCK)
    for r in range(R):
        acc = 0.0
        for c in range(BLOCK - 1, -1, -1):
            acc = x[r, c].item() if f[r, c] else acc + x[r, c].item()
            ref[r, c] = acc
    close(y, ref, 1e-4, 1e-5, "segmented suffix")


def check_argsort():
    R, N = 6, 64
    x = torch.randn(R, N, generator=g)
    x[0, :10] = 1.5; x[1, ::3] = -0.0; x[1, 1::3] = 0.0; x[2, 5] = -float("inf")
    y = torch.full((R, N), NAN); idx = torch.full((R, N), -1, dtype=torch.int32)
    K.argsort_rows_kernel[(triton.cdiv(R, 4),)](x, y, idx, R, ROWS=4, N=N)
    # descending and stable; -0.0 sorts below +0.0 by its bits
    key = x.cpu().numpy().view(np.uint32).astype(np.int64)
    key = np.where(key >> 31, ~key & 0xFFFFFFFF, key | 0x80000000)
    for r in range(R):
        order = sorted(range(N), key=lambda c: (-key[r, c], c))
        assert idx[r].tolist() == order, (r, idx[r].tolist()[:12], order[:12])
        assert torch.equal(y[r], x[r][torch.tensor(order)])


def check_int4():
    n, GROUP, BLOCK = 300, 32, 128
    x = torch.randn(n, generator=g)
    x[32:64] = 0.0
    nb = triton.cdiv(n, BLOCK)
    packed = torch.full((nb * BLOCK // 2,), 0xAA, dtype=torch.uint8)
    deq = torch.full((n,), NAN)
    scales = torch.full((nb * BLOCK // GROUP,), NAN)
    K.int4_pack_roundtrip_kernel[(nb,)](x, packed, deq, scales, n, GROUP=GROUP, BLOCK=BLOCK)
    xp = torch.cat([x, torch.zeros(nb * BLOCK - n)]).view(-1, GROUP)
    amax = xp.abs().amax(1, keepdim=True)
    sc = torch.where(amax > 0, amax / 7.0, torch.ones(1))
    q = torch.round(xp / sc).clamp(-8, 7).to(torch.int64).view(-1)
    ng = triton.cdiv(n, GROUP)
    close(scales[:ng], sc[:ng, 0], 0, 1e-6, "int4 scales")
    assert scales[ng:].isnan().all()
    byte = ((q[0::2] & 0xF) | ((q[1::2] & 0xF) << 4)).to(torch.uint8)
    nbytes = triton.cdiv(n, 2)
    assert torch.equal(packed[:nbytes], byte[:nbytes])
    assert (packed[nbytes:] == 0xAA).all()
    close(deq, (q.float() * sc.expand(-1, GROUP).reshape(-1))[:n], 0, 1e-6, "int4 deq")


def check_welford_ln():
    M, N = 5, 100
    x = (torch.randn(M, N, generator=g) * 3 + 1).half()
    w = torch.randn(N, generator=g); b = torch.randn(N, generator=g)
    y = torch.full((M, N), NAN).half()
    K.welford_layernorm_kernel[(triton.cdiv(M, 2),)](x, w, b, y, M, N, 1e-5, ROWS=2, BLOCK_N=128)
    ref = torch.nn.functional.layer_norm(x.float(), (N,), w, b, 1e-5)
    close(y.float(), ref, 1e-2, 1e-2, "welford ln")


def check_batched_attn():
    Z, NB, M, N, D = 3, 2, 16, 32, 16
    q = torch.randn(Z, NB, M, D, generator=g).half()
    k = torch.randn(Z, NB, N, D, generator=g).half()
    v = torch.randn(Z, NB, N, D, generator=g).half()
    o = torch.full((Z, NB, M, D), NAN)
    K.batched_attn_tile_kernel[(Z,)](q, k, v, o, 0.25, NB=NB, M=M, N=N, D=D)
    p = torch.softmax(q.float() @ k.float().transpose(-1, -2) * 0.25, -1)
    close(o, p.half().float() @ v.float(), 2e-2, 2e-2, "batched attn")


def check_radix_threshold():
    n = 200
    x = torch.randint(0, 2 ** 31 - 1, (256,), generator=g, dtype=torch.int32)
    x[n:] = 2 ** 31 - 1          # outside the mask: would land in the top bin
    hist = torch.full((32,), -1, dtype=torch.int32); out = torch.full((2,), -1, dtype=torch.int32)
    k = 37
    K.radix_threshold_kernel[(1,)](x, hist, out, n, k, BLOCK=256, BINS=32)
    b = (x[:n] >> 26).long()
    h = torch.bincount(b, minlength=32)
    assert torch.equal(hist.long(), h)
    top = torch.cumsum(h.flip(0), 0)
    first = int((top >= k).nonzero()[0])
    assert out[0] == 31 - first and out[1] == h.flip(0)[:first].sum(), (out, 31 - first)


def check_dot_epilogue():
    BM = BN = BK = 32
    a = torch.randint(-4, 5, (BM, BK), generator=g).half(); b = torch.randint(-4, 5, (BK, BN), generator=g).half()
    idx = torch.randint(0, BN, (BM, BN), generator=g, dtype=torch.int32)
    o = torch.full((3 * BM * BN + BM,), NAN)
    K.dot_epilogue_kernel[(1,)](a, b, idx, o, BM=BM, BN=BN, BK=BK)
    acc = a.float() @ b.float()
    assert torch.equal(o[:BM * BN].view(BM, BN), acc.flip(1))
    assert torch.equal(o[BM * BN:2 * BM * BN].view(BM, BN), acc.gather(1, idx.long()))
    assert torch.equal(o[2 * BM * BN:3 * BM * BN].view(BM, BN), acc.sort(1).values)
    assert torch.equal(o[3 * BM * BN:], acc.max(1).values - acc.min(1).values)


def check_ticket_max():
    for n in (1, 64, 1000, 2000):
        x = torch.randn(n, generator=g)
        nb = triton.cdiv(n, 64)
        part = torch.full((32,), NAN); tick = torch.zeros(1, dtype=torch.int32); out = torch.full((1,), NAN)
        K.ticket_partial_max_kernel[(nb,)](x, part, tick, out, n, BLOCK=64, MAX_BLOCKS=32)
        assert out.item() == x.max().item() and tick.item() == 0, (n, out, x.max())


def check_narrow_int_cast():
    # float -> 8/16-bit ints: the 32-bit conversion (toward zero, saturated,
    # NaN -> 0), then its low bits, as the PTX backend computes it (out of
    # range is undefined in Triton; both backends agree on this answer)
    n = 100
    x = torch.randn(n, generator=g) * 400
    x[:14] = torch.tensor([300.5, -300.5, 1e10, -1e10, NAN, float("inf"), -float("inf"), 70000.0, -5.7, 255.9,
                           -128.9, 65535.5, 40000.0, 4e9])
    out = torch.full((n, 6), 12345, dtype=torch.int32)
    K.narrow_int_cast_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)

    def conv(v, signed, bits):
        v = np.asarray(v, np.float64)
        t = np.where(np.isnan(v), 0.0, np.trunc(v))
        lo, hi = (-2.0 ** 31, 2.0 ** 31 - 1) if signed else (0.0, 2.0 ** 32 - 1)
        w = np.clip(t, lo, hi).astype(np.int64) & ((1 << bits) - 1)
        if signed:
            w = np.where(w >= 1 << (bits - 1), w - (1 << bits), w)
        return w
    xn = x.cpu().numpy().astype(np.float64)
    hn = x.half().cpu().numpy().astype(np.float64)
    want = [conv(xn, True, 8), conv(xn, False, 8), conv(xn, True, 16), conv(xn, False, 16), conv(hn, True, 16),
            conv(xn, True, 8)]
    for j, w in enumerate(want):
        got = out[:, j].cpu().numpy().astype(np.int64)
        bad = np.nonzero(got != w)[0]
        assert bad.size == 0, (j, bad[:4], xn[bad[:4]], got[bad[:4]], w[bad[:4]])


if __name__ == "__main__":
    names = sorted(k for k in globals() if k.startswith("check_"))
    for name in names:
        globals()[name]()
        print("ok", name)
    print("ok: %d checks" % len(names))
