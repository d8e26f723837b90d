# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/probe25_kernels.py on the CPU, each checked
against torch or numpy computed another way, on several sizes including
ragged ones."""
import math
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus, run_checks  # noqa: E402

K = load_corpus("probe25_kernels")
g = torch.Generator().manual_seed(2525)
NAN, INF = float("nan"), float("inf")


def check_repeat_interleave():
    for N, D in ((5, 3), (37, 40), (64, 16)):
        x = torch.randn(N, D, generator=g)
        rep = torch.randint(0, 4, (N,), generator=g)
        rep[0] = 0
        total = int(rep.sum())
        out = torch.full((max(total, 1), D), NAN)
        K.repeat_interleave_kernel[(max(1, triton.cdiv(total, 32)),)](x, rep, out, N, D, total,
                                                                     BLOCK_N=64, BLOCK_O=32, BLOCK_D=16)
        assert torch.equal(out[:total], torch.repeat_interleave(x, rep, dim=0)), (N, D)


def check_masked_fill():
    for B, H, T, per_head in ((2, 3, 100, False), (3, 4, 64, True), (1, 1, 1, False)):
        x = torch.randn(B, H, T, generator=g).half()
        mask = torch.rand(B, H if per_head else 1, T, generator=g) < 0.3
        out = torch.empty_like(x)
        smb, smh = mask.stride(0), (mask.stride(1) if per_head else 0)
        K.masked_fill_kernel[(B * H, triton.cdiv(T, 64))](x, mask, out, -INF, H, T, smb, smh, BLOCK_T=64)
        assert torch.equal(out, x.masked_fill(mask, -INF)), (B, H, T)


def check_pad1d():
    for dt, mode, BL in ((torch.float32, "reflect", 64), (torch.bfloat16, "circular", 32)):
        for R, W, pl, pr in ((3, 10, 3, 9), (2, 70, 1, 0), (4, 5, 4, 4)):
            if mode == "circular":
                pl, pr = min(pl, W), min(pr, W)
            x = torch.randn(R, W, generator=g).to(dt)
            W_out = W + pl + pr
            out = torch.empty(R, W_out, dtype=dt)
            K.pad1d_kernel[(R, triton.cdiv(W_out, BL))](x, out, W, pl, W_out, MODE=mode, BLOCK=BL)
            ref = torch.nn.functional.pad(x.float()[None], (pl, pr), mode=mode)[0].to(dt)
            assert torch.equal(out, ref), (mode, R, W, pl, pr)


def check_lerp_clamp():
    for M, N in ((5, 7), (33, 65)):
        a = torch.randn(M, N, generator=g); b = torch.randn(M, N, generator=g)
        w = torch.rand(M, N, generator=g) * 3 - 1
        a[0, 0] = NAN
        lo = torch.randn(N, generator=g) - 1
        hi = torch.randn(M, generator=g) + 1
        out = torch.empty(M, N)
        K.lerp_clamp_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 32))](a, b, w, lo, hi, out, M, N,
                                                                      BLOCK_M=16, BLOCK_N=32)
        ref = torch.minimum(torch.maximum(torch.lerp(a, b, w), lo[None, :]), hi[:, None])
        torch.testing.assert_close(out, ref, atol=1e-6, rtol=1e-6, equal_nan=True)


def check_isclose():
    for dt, eq, BL in ((torch.float32, True, 128), (torch.float16, False, 64)):
        n = 300
        a = torch.randn(n, generator=g).to(dt)
        b = (a.float() + torch.randn(n, generator=g) * 1e-3).to(dt)
        b[::7] = torch.randn(len(b[::7]), generator=g).to(dt)
        a[:6] = torch.tensor([NAN, NAN, INF, INF, -INF, 1.0]).to(dt)
        b[:6] = torch.tensor([NAN, 1.0, INF, -INF, -INF, INF]).to(dt)
        out = torch.empty(n, dtype=torch.bool)
        K.isclose_kernel[(triton.cdiv(n, BL),)](a, b, out, 1e-3, 1e-4, n, EQUAL_NAN=eq, BLOCK=BL)
        ref = torch.isclose(a.float(), b.float(), rtol=1e-3, atol=1e-4, equal_nan=eq)
        assert torch.equal(out, ref), dt


def check_nan_to_num():
    for dt, BL in ((torch.float16, 128), (torch.bfloat16, 64), (torch.float32, 256)):
        n = 77
        x = torch.randn(n, generator=g).to(dt)
        x[:5] = torch.tensor([NAN, INF, -INF, 0.0, -1.0]).to(dt)
        out = torch.empty_like(x)
        K.nan_to_num_kernel[(triton.cdiv(n, BL),)](x, out, n, BLOCK=BL)
        assert torch.equal(out, torch.nan_to_num(x)), dt


def check_py_div_mod_float():
    n = 333
    a = torch.randn(n, generator=g) * 10
    b = torch.randn(n, generator=g) * 3
    a[:8] = torch.tensor([7.0, -7.0, 7.0, -7.0, 0.0, -0.0, 5.0, INF])
    b[:8] = torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, -3.0, 0.0, 2.0])
    q, r, f = torch.empty(n), torch.empty(n), torch.empty(n)
    K.py_div_mod_float_kernel[(triton.cdiv(n, 128),)](a, b, q, r, f, n, BLOCK=128)
    torch.testing.assert_close(q, torch.floor_divide(a, b), atol=0, rtol=0, equal_nan=True)
    torch.testing.assert_close(r, torch.remainder(a, b), atol=1e-6, rtol=0, equal_nan=True)
    torch.testing.assert_close(f, torch.fmod(a, b), atol=0, rtol=0, equal_nan=True)


def check_addr():
    for M, N, beta, bcast in ((10, 20, 0.5, False), (40, 33, 0.0, True)):
        u = torch.randn(M, generator=g); v = torch.randn(N, generator=g)
        inp = torch.randn(1 if bcast else M, N, generator=g)
        if bcast:
            inp[0, 0] = NAN  # beta == 0 ignores the input, NaN included
        out = torch.empty(M, N)
        K.addr_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](inp, u, v, out, beta, 2.0, M, N,
                                                              0 if bcast else N, BLOCK_M=32, BLOCK_N=32)
        ref = torch.addr(inp.expand(M, N), u, v, beta=beta, alpha=2.0)
        torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-5)


def check_embedding_bag():
    for wdt, idt, mode, has_w, BD in ((torch.float32, torch.int64, "sum", True, 32),
                                      (torch.float32, torch.int32, "max", False, 16),
                                      (torch.float16, torch.int64, "mean", False, 64)):
        V, D = 50, 45
        w = torch.randn(V, D, generator=g).to(wdt)
        lens = [3, 0, 1, 7, 0, 2]
        offsets = torch.tensor([0] + list(np.cumsum(lens)[:-1]), dtype=idt)
        n_idx = sum(lens)
        idx = torch.randint(0, V, (n_idx,), generator=g).to(idt)
        psw = torch.rand(n_idx, generator=g)
        out = torch.empty(len(lens), D, dtype=wdt)
        K.embedding_bag_kernel[(len(lens), triton.cdiv(D, BD))](w, idx, offsets, psw, out, D, n_idx,
                                                                MODE=mode, HAS_WEIGHTS=has_w, BLOCK_D=BD)
        ref = torch.nn.functional.embedding_bag(idx.long(), w.float(), offsets.long(), mode=mode,
                                                per_sample_weights=psw if has_w else None)
        torch.testing.assert_close(out.float(), ref, atol=2e-3, rtol=2e-3)


def check_diagonal():
    for B, R, C, off in ((2, 5, 7, 0), (3, 9, 4, -2), (1, 6, 40, 5)):
        x = torch.randn(B, C, R, generator=g).transpose(1, 2)  # a strided view
        ref = torch.diagonal(x, off, -2, -1)
        L = ref.shape[-1]
        out = torch.empty(B, L)
        K.diagonal_kernel[(B, max(1, triton.cdiv(L, 32)))](x, out, x.stride(0), x.stride(1), x.stride(2),
                                                          off, L, BLOCK=32)
        assert torch.equal(out, ref), (B, R, C, off)


def check_var_dim0():
    for dt, R, C, corr, BR, BC in ((torch.float16, 100, 50, 1, 32, 32), (torch.float32, 7, 130, 0, 8, 64),
                                   (torch.float32, 3, 3, 2, 8, 64)):
        x = (torch.randn(R, C, generator=g) * 2 + 3).to(dt)
        var, mean = torch.empty(C), torch.empty(C)
        K.var_dim0_kernel[(triton.cdiv(C, BC),)](x, var, mean, R, C, corr, BLOCK_R=BR, BLOCK_C=BC)
        rv, rm = torch.var_mean(x.double(), dim=0, correction=corr)
        torch.testing.assert_close(mean.double(), rm, atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(var.double(), rv, atol=1e-4, rtol=1e-4)


def check_spec_decode():
    # recovered tokens, then rejection sampling over ragged drafts
    R, V, max_spec = 5, 100, 4
    lens = [3, 0, 4, 1, 2]
    cu = torch.tensor([0] + list(np.cumsum(lens)), dtype=torch.int32)
    T = int(cu[-1])
    tp = torch.softmax(torch.randn(T, V, generator=g) * 2, 1)
    dp = torch.softmax(torch.randn(T, V, generator=g) * 2, 1)
    dp[0, :] = 0.0; dp[0, 7] = 1.0  # a one-hot draft
    q = -torch.log(torch.rand(T, V, generator=g))
    q[1, 3] = q[1, 4] = 1e-30  # a tie between two huge scores
    tp[1, 3] = tp[1, 4] = 0.5; dp[1, 3] = dp[1, 4] = 0.0
    rec = torch.empty(T, dtype=torch.int32)
    K.recovered_tokens_kernel[(T,)](tp, dp, q, rec, V, BLOCK_V=64)
    ref_rec = ((tp - dp).clamp_min(0) / q).argmax(1)
    assert torch.equal(rec.long(), ref_rec), (rec, ref_rec)
    draft = torch.randint(0, V, (T,), generator=g, dtype=torch.int32)
    draft[0] = 7
    u = torch.rand(T, generator=g)
    u[2] = 0.0  # always accepted
    bonus = torch.randint(0, V, (R,), generator=g, dtype=torch.int32)
    out = torch.full((R, max_spec + 1), -1, dtype=torch.int32)
    K.rejection_sample_kernel[(R,)](out, cu, draft, dp, tp, bonus, rec, u, V, max_spec)
    ref = torch.full((R, max_spec + 1), -1, dtype=torch.int32)
    for r in range(R):
        s, e = int(cu[r]), int(cu[r + 1])
        ok = True
        for p in range(e - s):
            t = s + p
            d = int(draft[t]); dpv = float(dp[t, d]); tpv = float(tp[t, d])
            if dpv > 0 and np.float32(tpv) / np.float32(dpv) >= np.float32(u[t]):
                ref[r, p] = d
            else:
                ref[r, p] = rec[t]; ok = False
                break
        if ok:
            ref[r, e - s] = bonus[r]
    assert torch.equal(out, ref), (out, ref)


def check_add_rmsnorm_fp8():
    # torch 1.13 has no fp8 dtypes: the kernel writes bytes, decoded here
    for xdt, rdt, fmt, fmax, BL, M, N in ((torch.bfloat16, torch.bfloat16, "e4m3", 448.0, 128, 6, 100),
                                          (torch.float16, torch.float32, "e5m2", 57344.0, 256, 3, 256)):
        x = torch.randn(M, N, generator=g).to(xdt)
        res = torch.randn(M, N, generator=g).to(rdt)
        w = (torch.rand(N, generator=g) + 0.5).to(xdt if rdt == xdt else torch.float32)
        res0 = res.clone()
        out = torch.empty(M, N, dtype=torch.uint8)
        scale = torch.empty(M)
        K.add_rmsnorm_fp8_kernel[(M,)](x, res, w, triton.reinterpret(out, tl.float8e4nv if fmt == "e4m3" else tl.float8e5), scale, N, 1e-6, FP8_MAX=fmax, BLOCK=BL)
        h = x.float() + res0.float()
        assert torch.equal(res, h.to(rdt)), "residual"
        y = h * torch.rsqrt(h.pow(2).mean(1, keepdim=True) + 1e-6) * w.float()
        ref_scale = (y.abs().amax(1) / fmax).clamp_min(1e-12)
        torch.testing.assert_close(scale, ref_scale, atol=0, rtol=1e-5)
        qf = (y / ref_scale[:, None]).clamp(-fmax, fmax)
        deq = fp8_decode(out, fmt)
        # each code is the nearest fp8 value: within half an ulp (+ rounding slack)
        bits = 3 if fmt == "e4m3" else 2
        emin = -6 if fmt == "e4m3" else -14
        ulp = 2.0 ** (torch.floor(torch.log2(qf.abs().clamp_min(2.0 ** emin))) - bits)
        err = (deq - qf).abs() / ulp
        assert (err <= 0.5 + 1e-3).all(), err.max()


def fp8_decode(u8, fmt):
    b = u8.long()
    s = torch.where(b >= 128, -1.0, 1.0).double()
    if fmt == "e4m3":
        e = (b >> 3) & 15; mnt = b & 7
        v = torch.where(e == 0, mnt / 8.0 * 2.0 ** -6, (1 + mnt / 8.0) * 2.0 ** (e - 7))
        v = torch.where((e == 15) & (mnt == 7), float("nan"), v)
    else:
        e = (b >> 2) & 31; mnt = b & 3
        v = torch.where(e == 0, mnt / 4.0 * 2.0 ** -14, (1 + mnt / 4.0) * 2.0 ** (e - 15))
        v = torch.where(e == 31, torch.where(mnt == 0, float("inf"), float("nan")), v)
    return (s * v).float()


def check_moe_unpermute():
    for ydt, idt, topk, BD in ((torch.bfloat16, torch.int32, 2, 64), (torch.float32, torch.int64, 3, 32)):
        T, D = 9, 70
        perm = torch.randperm(T * topk, generator=g)
        inv = torch.empty_like(perm); inv[perm] = torch.arange(T * topk)
        inv = inv.to(idt)
        inv[4] = -1  # a dropped slot
        y = torch.randn(T * topk, D, generator=g).to(ydt)
        w = torch.rand(T, topk, generator=g)
        out = torch.empty(T, D, dtype=ydt)
        K.moe_unpermute_kernel[(T, triton.cdiv(D, BD))](y, inv, w, out, D, TOPK=topk, BLOCK_D=BD)
        gathered = torch.where((inv >= 0)[:, None], y.float()[inv.long().clamp_min(0)], 0.0)
        ref = (gathered.view(T, topk, D) * w[:, :, None]).sum(1)
        torch.testing.assert_close(out.float(), ref.to(ydt).float(), atol=1e-2, rtol=1e-2)


def check_rope_gptj_partial():
    for dt, pdt, NQ, NK, HEAD, ROT in ((torch.float16, torch.int64, 4, 2, 64, 32), (torch.float32, torch.int32, 8, 8, 16, 16)):
        T, maxpos = 7, 50
        inv = 1.0 / (10000 ** (torch.arange(0, ROT, 2).float() / ROT))
        ang = torch.arange(maxpos).float()[:, None] * inv[None, :]
        cache = torch.cat([ang.cos(), ang.sin()], 1)
        pos = torch.randint(0, maxpos, (T,), generator=g).to(pdt)
        qkv = torch.randn(T, (NQ + NK + 3) * HEAD, generator=g).to(dt)  # q, k inside a wider row
        q = qkv[:, :NQ * HEAD]; k = qkv[:, NQ * HEAD:(NQ + NK) * HEAD]
        q0, k0 = q.float().clone(), k.float().clone()
        K.rope_gptj_partial_kernel[(T,)](q, k, pos, cache, qkv.stride(0), qkv.stride(0), NQ=NQ, NK=NK, HEAD=HEAD, ROT=ROT)

        def ref(x, nh):
            x = x.view(T, nh, HEAD).clone()
            c = cache[pos.long(), :ROT // 2][:, None, :]; s = cache[pos.long(), ROT // 2:][:, None, :]
            x1 = x[..., 0:ROT:2].clone(); x2 = x[..., 1:ROT:2].clone()
            x[..., 0:ROT:2] = x1 * c - x2 * s
            x[..., 1:ROT:2] = x2 * c + x1 * s
            return x.view(T, nh * HEAD)
        tol = 2e-3 if dt == torch.float16 else 1e-5
        torch.testing.assert_close(q.float(), ref(q0, NQ), atol=tol, rtol=tol)
        torch.testing.assert_close(k.float(), ref(k0, NK), atol=tol, rtol=tol)


def check_gptq_dequant():
    for bits, BK, BN, Kd, N, G in ((4, 32, 32, 96, 72, 4), (8, 16, 64, 40, 64, 5)):
        per = 32 // bits
        q = torch.randint(0, 1 << bits, (Kd, N), generator=g)
        z = torch.randint(0, 1 << bits, (G, N), generator=g)
        s = (torch.rand(G, N, generator=g) * 0.1).half()
        gidx = torch.randint(0, G, (Kd,), generator=g).int()
        qw = torch.zeros(Kd // per, N, dtype=torch.int64)
        for j in range(per):
            qw |= q[j::per] << (bits * j)
        qz = torch.zeros(G, N // per, dtype=torch.int64)
        for j in range(per):
            qz |= z[:, j::per] << (bits * j)
        to32 = lambda t: torch.where(t >= 2 ** 31, t - 2 ** 32, t).int()
        out = torch.empty(Kd, N, dtype=torch.float16)
        K.gptq_dequant_kernel[(triton.cdiv(Kd, BK), triton.cdiv(N, BN))](to32(qw), to32(qz), s, gidx, out, Kd, N,
                                                                       BITS=bits, BLOCK_K=BK, BLOCK_N=BN)
        ref = (q - z[gidx.long()]).half() * s[gidx.long()]
        assert torch.equal(out, ref), bits


def check_bce_logits():
    for xdt, dxdt, hp, BL in ((torch.float32, torch.float32, True, 128), (torch.bfloat16, torch.bfloat16, False, 64)):
        R, C = 13, 11
        n = R * C
        x = (torch.randn(R, C, generator=g) * 8).to(xdt)
        x.view(-1)[:4] = torch.tensor([100.0, -100.0, 0.0, 30.0]).to(xdt)
        y = torch.rand(R, C, generator=g)
        pw = torch.rand(C, generator=g) * 3
        go = torch.randn(R, C, generator=g)
        loss = torch.empty(R, C); dx = torch.empty(R, C, dtype=dxdt)
        K.bce_logits_kernel[(triton.cdiv(n, BL),)](x, y, pw, go, loss, dx, C, n, HAS_POS_WEIGHT=hp, BLOCK=BL)
        xr = x.float().requires_grad_()
        ref = torch.nn.functional.binary_cross_entropy_with_logits(xr, y, pos_weight=pw if hp else None, reduction="none")
        ref.backward(go)
        torch.testing.assert_close(loss, ref.detach(), atol=1e-4, rtol=1e-4)
        torch.testing.assert_close(dx.float(), xr.grad.to(dxdt).float(), atol=1e-2 if dxdt != torch.float32 else 1e-5,
                                   rtol=1e-2 if dxdt != torch.float32 else 1e-5)


def check_huber():
    for n, delta in ((1000, 1.0), (77, 0.25)):
        x = torch.randn(n, generator=g) * 2; y = torch.randn(n, generator=g)
        loss = torch.zeros(1); grad = torch.empty(n)
        K.huber_kernel[(triton.cdiv(n, 128),)](x, y, loss, grad, delta, n, 1.0 / n, BLOCK=128)
        xr = x.clone().requires_grad_()
        ref = torch.nn.functional.huber_loss(xr, y, delta=delta)
        ref.backward()
        torch.testing.assert_close(loss[0], ref.detach(), atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(grad, xr.grad, atol=1e-7, rtol=1e-5)


def check_cosine_sim():
    for dt, M, D, bcast, BD in ((torch.float32, 7, 100, False, 64), (torch.float16, 4, 33, True, 32)):
        a = torch.randn(M, D, generator=g).to(dt)
        b = torch.randn(1 if bcast else M, D, generator=g).to(dt)
        a[0] = 0  # a zero row: 0 / eps
        out = torch.empty(M)
        K.cosine_sim_kernel[(M,)](a, b, out, D, a.stride(0), 0 if bcast else b.stride(0), 1e-8, BLOCK_D=BD)
        ref = torch.nn.functional.cosine_similarity(a.float(), b.float().expand(M, D), dim=1, eps=1e-8)
        torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-4)


def check_cdist():
    for M, N, D in ((20, 33, 7), (64, 40, 48)):
        a = torch.randn(M, D, generator=g); b = torch.randn(N, D, generator=g)
        b[0] = a[0]  # distance 0 exactly would need the clamp
        out = torch.empty(M, N)
        K.cdist_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, out, M, N, D, BLOCK_M=32, BLOCK_N=32, BLOCK_D=16)
        ref = torch.cdist(a.double(), b.double())
        torch.testing.assert_close(out.double(), ref, atol=2e-3, rtol=1e-4)


def check_kmeans_assign():
    for M, NC in ((50, 10), (100, 37)):
        D = 16
        x = torch.randint(-3, 4, (M, D), generator=g).float()
        c = torch.randint(-3, 4, (NC, D), generator=g).float()
        c[NC - 1] = c[1]  # duplicate centroids: the lower index wins
        x[0] = c[1]
        assign = torch.empty(M, dtype=torch.int32); dist = torch.empty(M)
        K.kmeans_assign_kernel[(triton.cdiv(M, 32),)](x, c, assign, dist, M, NC, D=D, BLOCK_M=32, BLOCK_C=16)
        d2 = ((x[:, None, :] - c[None, :, :]) ** 2).sum(2)
        mn = d2.min(1).values
        first = (d2 == mn[:, None]).int().argmax(1)
        assert torch.equal(assign.long(), first), (assign, first)
        torch.testing.assert_close(dist, mn)


def check_sigmoid_focal():
    n = 500
    x = torch.randn(n, generator=g) * 4
    y = (torch.rand(n, generator=g) < 0.3).float()
    for alpha, gamma in ((0.25, 2.0), (-1.0, 0.0), (0.5, 1.5)):
        out = torch.empty(n)
        K.sigmoid_focal_kernel[(triton.cdiv(n, 256),)](x, y, out, alpha, gamma, n, BLOCK=256)
        p = torch.sigmoid(x)
        ce = torch.nn.functional.binary_cross_entropy_with_logits(x, y, reduction="none")
        p_t = p * y + (1 - p) * (1 - y)
        ref = ce * ((1 - p_t) ** gamma)
        if alpha >= 0:
            ref = (alpha * y + (1 - alpha) * (1 - y)) * ref
        torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-4)


def check_logsumexp_rows():
    for dt, N, BL in ((torch.float32, 200, 64), (torch.float16, 31, 32)):
        M = 6
        x = (torch.randn(M, N, generator=g) * 5).to(dt)
        x[1] = -INF
        x[2, 3] = INF
        x[3, :N // 2] = -INF
        out = torch.empty(M)
        K.logsumexp_rows_kernel[(M,)](x, out, N, BLOCK=BL)
        ref = torch.logsumexp(x.float(), 1)
        torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-5, equal_nan=False)


def ulps(got, ref, mant):
    """|got - ref| in units in the last place of ref (mpmath values)."""
    out = []
    for gv, rv in zip(got, ref):
        rf = float(rv)
        if math.isnan(rf) or math.isinf(rf) or math.isnan(gv) or math.isinf(gv):
            out.append(0.0 if (gv == rf or (math.isnan(gv) and math.isnan(rf))) else math.inf)
            continue
        if rf == 0:
            out.append(0.0 if gv == 0 else math.inf)
            continue
        ulp = 2.0 ** max(math.floor(math.log2(abs(rf))) - mant, -1074 if mant == 52 else -149)
        out.append(abs(gv - rf) / ulp)
    return out


def check_special_fns():
    # sinpi/cospi near their zeros, normcdf's far left tail and tgamma up to
    # overflow were hundreds of ulps off (a reduction that cancelled, the
    # rounding of -x/sqrt(2) multiplied by x^2, exp of lgamma)
    import mpmath
    mpmath.mp.prec = 100
    rng = np.random.default_rng(25)
    # (fp32 lgamma was ~100 ulps off near its zeros at 1 and 2; fp64's keeps
    # ~1e-16 absolute there, more ulps of its tiny values)
    for dt, mant, BL, tol in ((torch.float64, 52, 128, (2, 2, 4, 32, 256)), (torch.float32, 23, 256, (2, 2, 8, 1, 2))):
        xs = np.concatenate([rng.uniform(-3, 3, 60), [0.999, -0.999, 1.4999, 0.5001, 2.0, -3.0, 0.5, -1.5, 1e-8]])
        xs = xs.astype(np.float64 if dt == torch.float64 else np.float32)
        cdf = np.concatenate([rng.uniform(-30 if dt == torch.float64 else -12, 8, 60), [-20.0, 0.0, 1.0]])
        gam = np.concatenate([rng.uniform(0.5, 170 if dt == torch.float64 else 34, 50), rng.uniform(-20, 0.5, 20),
                              [1.0, 2.0, 5.0, 10.0, 20.0]])
        lg = lambda v: mpmath.log(abs(mpmath.gamma(v)))
        for fn, vals, ref, t in ((0, xs, mpmath.sinpi, tol[0]), (1, xs, mpmath.cospi, tol[1]),
                                 (2, cdf, mpmath.ncdf, tol[2]), (3, gam, mpmath.gamma, tol[3]),
                                 (4, np.concatenate([gam, [0.93, 1.11, 1.9, 2.05]]), lg, tol[4])):
            x = torch.tensor(np.asarray(vals, dtype=np.float64)).to(dt)  # (the default device, CUDA runs too)
            n = len(x)
            out = torch.empty(5 * n, dtype=dt)
            K.special_fns_kernel[(triton.cdiv(n, BL),)](x, out, n, BLOCK=BL)
            got = out[fn * n:(fn + 1) * n].tolist()
            want = []
            for v in x.tolist():
                if fn >= 3 and v <= 0 and v == int(v):
                    want.append(mpmath.mpf("nan") if fn == 3 else mpmath.mpf("inf"))
                else:
                    want.append(ref(mpmath.mpf(v)))
            if dt == torch.float32:  # the reference rounded to fp32 first
                want = [float(np.float32(float(w))) for w in want]
            e = ulps(got, want, mant)
            worst = max(range(n), key=lambda i: e[i])
            assert e[worst] <= t, (fn, dt, x[worst].item(), got[worst], float(want[worst]), e[worst])


def hadamard_matrix(n):
    h = torch.ones(1, 1, dtype=torch.float64)
    while h.shape[0] < n:
        h = torch.cat([torch.cat([h, h], 1), torch.cat([h, -h], 1)], 0)
    return h


def check_hadamard():
    for dt, N, LOG in ((torch.float32, 64, 6), (torch.bfloat16, 256, 8)):
        R = 5
        x = torch.randn(R, N, generator=g).to(dt)
        out = torch.empty_like(x)
        K.hadamard_kernel[(R,)](x, out, 1 / math.sqrt(N), N=N, LOG_N=LOG)
        ref = x.double() @ hadamard_matrix(N) / math.sqrt(N)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        torch.testing.assert_close(out.double(), ref.to(dt).double(), atol=tol, rtol=tol)


def check_stochastic_round():
    n = 20000
    x = torch.randn(n, generator=g) * 3
    x[:4] = torch.tensor([1.0, -2.5, INF, NAN])  # exact in bf16, inf, NaN
    out = torch.empty(n, dtype=torch.bfloat16)
    K.stochastic_round_kernel[(triton.cdiv(n, 256),)](x, out, n, 1234, BLOCK=256)
    bits = x.view(torch.int32)
    down = (bits & -65536).view(torch.float32)  # toward zero
    up_bits = torch.where((bits & 0xFFFF) != 0, (bits & -65536) + 65536, bits & -65536)
    up = up_bits.view(torch.float32)  # away from zero
    o = out.float()
    assert torch.equal(o[:3], x[:3]) and o[3].isnan()
    ok = (o[4:] == down[4:]) | (o[4:] == up[4:])
    assert ok.all(), (x[4:][~ok][:5], o[4:][~ok][:5])
    # unbiased: P(up) = the fraction below the kept bits
    frac = ((bits & 0xFFFF).float() / 65536.0)[4:]
    went_up = ((o[4:] == up[4:]) & (up[4:] != down[4:])).float()
    has = (up[4:] != down[4:])
    err = (went_up[has] - frac[has]).mean().item()
    assert abs(err) < 0.02, err
    out2 = torch.empty_like(out)
    K.stochastic_round_kernel[(triton.cdiv(n, 256),)](x, out2, n, 1234, BLOCK=256)
    assert torch.equal(out.view(torch.int16), out2.view(torch.int16))  # the same seed, the same bits
    K.stochastic_round_kernel[(triton.cdiv(n, 256),)](x, out2, n, 99, BLOCK=256)
    assert not torch.equal(out.view(torch.int16), out2.view(torch.int16))


def check_kahan_sum():
    # rows with a huge head and many small tails: the plain fp32 sum drops
    # the tails, the compensated one keeps them to fp32's last bit
    for R, N in ((3, 5000), (2, 64), (1, 777)):
        x = torch.rand(R, N, generator=g) * 1e-3
        x[:, 0] = 1e6
        x[:, N // 2] = -1e6 + 0.125
        out = torch.empty(R); naive = torch.empty(R)
        K.kahan_sum_kernel[(R,)](x, out, naive, N, BLOCK=64)
        ref = x.double().sum(1)
        err = (out.double() - ref).abs()
        assert (err <= ref.abs() * 2 ** -23).all(), (out, ref)
        if N >= 5000:  # the naive sum is visibly worse: the compensation was not folded away
            assert ((naive.double() - ref).abs() > 100 * err.clamp_min(1e-9)).all(), (naive, ref, out)


def magic_u32(d):
    # the smallest s with m = ceil(2^(32+s) / d) < 2^32 exact for n < 2^31
    for s in range(0, 32):
        m = -(-(1 << (32 + s)) // d)
        if m < (1 << 32) and m * d - (1 << (32 + s)) <= (1 << s):
            return m, s
    raise ValueError(d)


def check_fastdiv_gather():
    for shape, perm in (((3, 5, 7), (2, 0, 1)), ((6, 1, 33), (1, 2, 0)), ((4, 10, 12), (0, 2, 1))):
        x = torch.randn(*shape, generator=g)
        xp = x.permute(*perm)  # a strided view, read with its strides
        n = xp.numel()
        d1, d2 = xp.shape[1], xp.shape[2]
        m1, s1 = magic_u32(d1); m2, s2 = magic_u32(d2)
        out = torch.empty(n)
        K.fastdiv_gather_kernel[(triton.cdiv(n, 128),)](x, out, n, d1, m1, s1, d2, m2, s2, *xp.stride(), BLOCK=128)
        assert torch.equal(out, xp.reshape(-1)), shape


NF4 = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
       -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
       0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
       0.7229568362236023, 1.0]


def check_nf4_double_quant():
    for odt, bs, bs2, BL in ((torch.float16, 64, 4, 128), (torch.bfloat16, 32, 8, 64)):
        n = 64 * 45
        codes = torch.randint(0, 16, (n,), generator=g)
        packed = (codes[0::2] * 16 + codes[1::2]).to(torch.uint8)
        nblk = n // bs
        aq = torch.randint(0, 256, (nblk,), generator=g).to(torch.uint8)
        code = torch.sort(torch.randn(256, generator=g)).values.abs()
        absmax2 = torch.rand(triton.cdiv(nblk, bs2), generator=g) + 0.5
        off = 0.125
        nf4 = torch.tensor(NF4)
        out = torch.empty(n, dtype=odt)
        K.nf4_double_quant_kernel[(triton.cdiv(n, BL),)](packed, aq, code, absmax2, off, nf4, out, n,
                                                        BLOCKSIZE=bs, BLOCKSIZE2=bs2, BLOCK=BL)
        blk = torch.arange(n) // bs
        absmax = code[aq.long()][blk] * absmax2[blk // bs2] + off
        # (or as one fma, which the GPU makes of it, as Triton does with fp
        # fusion on)
        fused = (code[aq.long()][blk].double() * absmax2[blk // bs2].double() + off).float()
        ref, ref_fma = (nf4[codes] * absmax).to(odt), (nf4[codes] * fused).to(odt)
        assert bool(((out == ref) | (out == ref_fma)).all()), (out[:8], ref[:8])


def check_int4_groupwise():
    N, Kd, G = 40, 192, 32
    q = torch.randint(0, 16, (N, Kd), generator=g)
    w = (q[:, 0::2] | (q[:, 1::2] << 4)).to(torch.uint8)
    scale = (torch.rand(N, Kd // G, generator=g) * 0.1).bfloat16()
    zero = torch.randint(0, 16, (N, Kd // G), generator=g).bfloat16()
    out = torch.empty(Kd, N, dtype=torch.bfloat16)
    K.int4_groupwise_kernel[(triton.cdiv(N, 16), triton.cdiv(Kd, 64))](w, scale, zero, out, N, Kd,
                                                                      GROUP=32, BLOCK_N=16, BLOCK_K=64)
    gi = torch.arange(Kd) // G
    ref = ((q.float() - zero.float()[:, gi]) * scale.float()[:, gi]).bfloat16().t()
    assert torch.equal(out, ref)


def check_pixel_unshuffle():
    for dt, C, H, W, R in ((torch.float32, 2, 8, 8, 2), (torch.float16, 4, 4, 16, 4)):
        B = 3
        x = torch.randn(B, C, H, W, generator=g).to(dt)
        out = torch.empty(B, C * R * R, H // R, W // R, dtype=dt)
        K.pixel_unshuffle_kernel[(B,)](x, out, C=C, H=H, W=W, R=R)
        assert torch.equal(out, torch.nn.functional.pixel_unshuffle(x, R))


def check_big_block_ptr():
    # a 2.1 GB byte matrix (untouched pages cost nothing): rows near its end
    cols = 3000
    rows = (2 ** 31) // cols + 40
    try:
        x = torch.empty(rows * cols, dtype=torch.uint8)
    except RuntimeError:
        print("  (no memory for the 2 GB tensor: skipped)")
        return
    row0 = rows - 37
    tail = torch.randint(0, 256, (37 * cols,), generator=g).to(torch.uint8)
    x[row0 * cols:] = tail
    out = torch.full((rows,), -1, dtype=torch.int32)
    K.big_block_ptr_kernel[(triton.cdiv(rows - row0, 4),)](x, out, rows, cols, cols, row0, BLOCK_R=4, BLOCK_C=64)
    ref = tail.view(37, cols).long().sum(1)
    assert torch.equal(out[row0:].long(), ref), (out[row0:row0 + 4], ref[:4])
    assert (out[:row0] == -1).all()
    del x


def check_early_exit():
    for M, N in ((6, 100), (1, 128)):
        x = torch.randn(M, N, generator=g)
        x[M // 2] = 0
        out = torch.full((M, N), 7.0); flag = torch.full((M + 3,), 5, dtype=torch.int32)
        K.early_exit_kernel[(M + 3,)](x, out, flag, M, N, BLOCK=128)
        amax = x.abs().amax(1, keepdim=True)
        ref = torch.where(amax == 0, x, x / amax.clamp_min(1e-30))
        torch.testing.assert_close(out, ref)
        assert flag[:M].tolist() == [1 if i == M // 2 else 0 for i in range(M)] and flag[M:].tolist() == [5, 5, 5]


def check_epilogue_dispatch():
    cases = ((torch.float32, torch.float16, "gelu_tanh", True, 16, 64),
             (torch.bfloat16, torch.float32, "leaky", False, 32, 32),
             (torch.float32, torch.bfloat16, None, True, 8, 128))
    for xdt, odt, kind, hb, BM, BN in cases:
        M, N = 37, min(BN, 50)
        x = torch.randn(M, N, generator=g).to(xdt)
        b = torch.randn(N, generator=g)
        out = torch.empty(M, N, dtype=odt)
        K.epilogue_dispatch_kernel[(triton.cdiv(M, BM),)](x, b, out, M, N, KIND=kind, HAS_BIAS=hb, OUT_DTYPE=
                                                         {torch.float16: tl.float16, torch.float32: tl.float32,
                                                          torch.bfloat16: tl.bfloat16}[odt], BLOCK_M=BM, BLOCK_N=BN)
        y = x.float() + (b if hb else 0)
        if kind == "gelu_tanh":
            y = torch.nn.functional.gelu(y, approximate="tanh")
        elif kind == "leaky":
            y = torch.nn.functional.leaky_relu(y, 0.2)
        torch.testing.assert_close(out.float(), y.to(odt).float(), atol=1e-2, rtol=1e-2)


def check_logcumsumexp():
    for xdt, N, BL in ((torch.float32, 200, 64), (torch.bfloat16, 37, 256)):
        R = 4
        x = (torch.randn(R, N, generator=g) * 10).to(xdt)
        x[1, :5] = -INF  # a leading -inf run stays -inf
        x[2, 7] = -INF
        out = torch.empty(R, N)
        K.logcumsumexp_kernel[(R,)](x, out, N, BLOCK=BL)
        ref = torch.logcumsumexp(x.double(), 1)
        torch.testing.assert_close(out.double(), ref, atol=1e-5, rtol=1e-5)


def check_cummin():
    R, N = 4, 100
    x = torch.randint(-3, 4, (R, N), generator=g).float()  # ties everywhere
    x[1, 10] = NAN; x[1, 50] = NAN
    v = torch.empty(R, N); i = torch.empty(R, N, dtype=torch.int64)
    K.cummin_kernel[(R,)](x, v, i, N, BLOCK=128)
    rv, ri = torch.cummin(x, 1)
    torch.testing.assert_close(v, rv, equal_nan=True, atol=0, rtol=0)
    assert torch.equal(i, ri), (i[1, 8:14], ri[1, 8:14], i[0, :10], ri[0, :10])


def check_histc():
    for n, lo, hi in ((10000, -2.0, 2.0), (300, 0.0, 1.0)):
        x = torch.randn(n, generator=g)
        x[:3] = torch.tensor([lo, hi, hi + 1])
        hist = torch.zeros(32)
        K.histc_kernel[(triton.cdiv(n, 256),)](x, hist, n, lo, hi, BINS=32, BLOCK=256)
        assert torch.equal(hist, torch.histc(x, 32, lo, hi)), (hist, torch.histc(x, 32, lo, hi))


def check_bincount():
    for idt, hw, BL in ((torch.int64, True, 128), (torch.int32, False, 256)):
        n = 1000
        idx = torch.randint(0, 37, (n,), generator=g).to(idt)
        w = torch.rand(n, generator=g)
        out = torch.zeros(50, dtype=torch.float32 if hw else torch.int64)
        K.bincount_kernel[(triton.cdiv(n, BL),)](idx, w, out, n, HAS_W=hw, BLOCK=BL)
        ref = torch.bincount(idx.long(), weights=w if hw else None, minlength=50)
        if hw:
            torch.testing.assert_close(out, ref.float(), atol=1e-4, rtol=1e-5)
        else:
            assert torch.equal(out, ref)


def check_causal_conv1d_varlen():
    for dt, W, silu, BT, BD in ((torch.bfloat16, 4, True, 16, 64), (torch.float32, 3, False, 32, 16)):
        lens = [5, 1, 20, 2, 9]
        T, D = sum(lens), 40
        seq_idx = torch.cat([torch.full((l,), i, dtype=torch.int32) for i, l in enumerate(lens)])
        x = torch.randn(T, D, generator=g).to(dt)
        w = torch.randn(D, W, generator=g); b = torch.randn(D, generator=g)
        out = torch.empty(T, D, dtype=dt)
        K.causal_conv1d_varlen_kernel[(triton.cdiv(T, BT), triton.cdiv(D, BD))](x, w, b, seq_idx, out, T, D,
                                                                             WIDTH=W, SILU=silu, BLOCK_T=BT, BLOCK_D=BD)
        refs, s = [], 0
        for l in lens:
            seg = x[s:s + l].float().t()[None]  # [1, D, l]
            y = torch.nn.functional.conv1d(torch.nn.functional.pad(seg, (W - 1, 0)), w[:, None, :], b, groups=D)[0].t()
            refs.append(torch.nn.functional.silu(y) if silu else y)
            s += l
        ref = torch.cat(refs).to(dt)
        tol = 2e-2 if dt == torch.bfloat16 else 1e-5
        torch.testing.assert_close(out.float(), ref.float(), atol=tol, rtol=tol)


def check_solve_tril():
    for dt, unit, BL, N in ((torch.float32, False, 64, 50), (torch.float64, True, 16, 16)):
        B = 3
        L = torch.randn(B, N, N, generator=g).to(dt).tril(-1) * 0.3
        L = L + torch.diag_embed(torch.rand(B, N, generator=g).to(dt) + 1.0)
        b = torch.randn(B, N, generator=g).to(dt)
        y = torch.empty(B, N, dtype=dt)
        K.solve_tril_kernel[(B,)](L, b, y, N, UNIT=unit, BLOCK=BL)
        Lr = L.clone()
        if unit:
            Lr.diagonal(dim1=1, dim2=2).fill_(1.0)
        ref = torch.linalg.solve_triangular(Lr.double(), b.double()[:, :, None], upper=False)[:, :, 0]
        torch.testing.assert_close(y.double(), ref, atol=1e-4 if dt == torch.float32 else 1e-10, rtol=1e-4)


def check_weight_norm():
    O, Kd = 7, 300
    v = torch.randn(O, Kd, generator=g).half()
    gg = torch.rand(O, generator=g) + 0.5
    w = torch.empty_like(v); nrm = torch.empty(O)
    K.weight_norm_kernel[(O,)](v, gg, w, nrm, Kd, BLOCK=128)
    ref = torch._weight_norm(v.float(), gg[:, None], 0)
    torch.testing.assert_close(w.float(), ref.half().float(), atol=2e-3, rtol=2e-3)
    torch.testing.assert_close(nrm, v.float().norm(dim=1), atol=1e-4, rtol=1e-5)


def check_kron():
    B = 3
    a = torch.randn(B, 2, 4, generator=g); b = torch.randn(B, 8, 2, generator=g)
    out = torch.empty(B, 16, 8)
    K.kron_kernel[(B,)](a, b, out, M=2, N=4, P=8, Q=2)
    for i in range(B):
        assert torch.equal(out[i], torch.kron(a[i], b[i]))


def check_unique_consecutive():
    for n in (1, 2, 200, 256):
        x = torch.randint(0, 3, (n,), generator=g).int()
        out = torch.full((256,), -7, dtype=torch.int32); inv = torch.empty(n, dtype=torch.int64)
        cnt = torch.zeros(256, dtype=torch.int32); nout = torch.zeros(1, dtype=torch.int32)
        K.unique_consecutive_kernel[(1,)](x, out, inv, cnt, nout, n, BLOCK=256)
        u, ri, rc = torch.unique_consecutive(x, return_inverse=True, return_counts=True)
        k = int(nout)
        assert k == len(u) and torch.equal(out[:k], u) and torch.equal(inv, ri) and torch.equal(cnt[:k].long(), rc), n


def check_complex_ops():
    n = 300
    z = torch.randn(n, generator=g, dtype=torch.complex64)
    z[0] = 0; z[1] = complex(-1.0, 0.0); z[2] = complex(-1.0, -0.0)
    zr = torch.view_as_real(z).contiguous()
    absang = torch.empty(n, 2); ez = torch.empty(n, 2)
    K.complex_ops_kernel[(triton.cdiv(n, 128),)](zr, absang, ez, n, BLOCK=128)
    torch.testing.assert_close(absang[:, 0], z.abs(), atol=1e-6, rtol=1e-6)
    torch.testing.assert_close(absang[:, 1], z.angle(), atol=1e-6, rtol=1e-6)
    torch.testing.assert_close(torch.view_as_complex(ez), torch.exp(z), atol=1e-5, rtol=1e-5)


def check_sinkhorn():
    for N in (5, 16):
        B = 3
        x = torch.randn(B, N, N, generator=g)
        out = torch.empty(B, N, N); iters = torch.empty(B, dtype=torch.int32)
        K.sinkhorn_kernel[(B,)](x, out, iters, N, 1e-5, 500, BLOCK=16)
        p = torch.exp(x.double() - x.double().amax((1, 2), keepdim=True))
        for b in range(B):
            q = p[b]
            for _ in range(int(iters[b])):
                q = q / q.sum(0, keepdim=True)
                q = q / q.sum(1, keepdim=True)
            torch.testing.assert_close(out[b].double(), q, atol=1e-5, rtol=1e-4)
            assert 1 <= int(iters[b]) < 500 and (out[b].sum(1) - 1).abs().max() < 1e-5
        out2 = torch.empty(B, N, N); it2 = torch.empty(B, dtype=torch.int32)
        K.sinkhorn_kernel[(B,)](x, out2, it2, N, 1e-5, 2, BLOCK=16)  # the cap stops it
        assert (it2 == 2).all()


def check_radix_pass():
    for n in (128, 77):
        keys = torch.randint(-2 ** 31, 2 ** 31 - 1, (n,), generator=g, dtype=torch.int64).to(torch.int32)
        keys[:10] = keys[10]  # equal keys keep their order
        vals = torch.arange(n, dtype=torch.int32)
        ku = keys.long() & 0xFFFFFFFF
        k, v = keys.clone(), vals.clone()
        for shift in range(0, 32, 4):
            ok, ov = torch.empty_like(k), torch.empty_like(v)
            K.radix_pass_kernel[(1,)](triton.reinterpret(k, tl.uint32), v, triton.reinterpret(ok, tl.uint32), ov, n, shift,
                                      BLOCK=128)
            k, v = ok, ov
        order = sorted(range(n), key=lambda i: (int(ku[i]), i))
        assert torch.equal(v, torch.tensor(order, dtype=torch.int32))
        assert torch.equal(k, keys[order])


def check_segment_softmax():
    n, S = 1000, 37
    seg = torch.sort(torch.randint(0, S, (n,), generator=g)).values
    x = torch.randn(n, generator=g) * 5 - 20  # all negative: the float atomic max must order them
    smax = torch.full((S,), -INF); ssum = torch.zeros(S); out = torch.empty(n)
    grid = (triton.cdiv(n, 128),)
    K.segment_max_kernel[grid](x, seg, smax, n, BLOCK=128)
    K.segment_softmax_kernel[grid](x, seg, smax, ssum, out, n, PASS=0, BLOCK=128)
    K.segment_softmax_kernel[grid](x, seg, smax, ssum, out, n, PASS=1, BLOCK=128)
    ref = torch.empty(n)
    for s in range(S):
        sel = seg == s
        if sel.any():
            assert smax[s] == x[sel].max()
            ref[sel] = torch.softmax(x[sel], 0)
    torch.testing.assert_close(out, ref, atol=1e-6, rtol=1e-5)


def check_lstm_cell():
    B, I, H = 20, 48, 32
    x = torch.randn(B, I, generator=g).half(); h = torch.randn(B, H, generator=g).half()
    c = torch.randn(B, H, generator=g)
    W = (torch.randn(I, 4 * H, generator=g) * 0.2).half(); U = (torch.randn(H, 4 * H, generator=g) * 0.2).half()
    b = torch.randn(4 * H, generator=g)
    h_out = torch.empty(B, H, dtype=torch.float16); c_out = torch.empty(B, H)
    K.lstm_cell_kernel[(triton.cdiv(B, 16),)](x, h, c, W, U, b, h_out, c_out, B, I, H=H, BLOCK_B=16, BLOCK_I=32)
    gates = x.float() @ W.float() + h.float() @ U.float() + b
    i_g, f_g, g_g, o_g = gates.split(H, 1)
    c_ref = torch.sigmoid(f_g) * c + torch.sigmoid(i_g) * torch.tanh(g_g)
    h_ref = torch.sigmoid(o_g) * torch.tanh(c_ref)
    torch.testing.assert_close(c_out, c_ref, atol=2e-3, rtol=2e-3)
    torch.testing.assert_close(h_out.float(), h_ref, atol=3e-3, rtol=3e-3)


def check_multi_tensor_scale():
    sizes = [100, 3000, 1, 2048]
    for poison in (False, True):
        ins = [torch.randn(s, generator=g) for s in sizes]
        if poison:
            ins[1][2500] = INF
        outs = [torch.empty(s, dtype=torch.float16) for s in sizes]
        chunks = [(t, c) for t, s in enumerate(sizes) for c in range(triton.cdiv(s, 1024))]
        ptrs = torch.tensor([t.data_ptr() for t in ins], dtype=torch.int64)
        optrs = torch.tensor([t.data_ptr() for t in outs], dtype=torch.int64)
        numels = torch.tensor(sizes, dtype=torch.int64)
        ct = torch.tensor([c[0] for c in chunks], dtype=torch.int32)
        ci = torch.tensor([c[1] for c in chunks], dtype=torch.int32)
        found = torch.zeros(1, dtype=torch.int32)
        K.multi_tensor_scale_kernel[(len(chunks),)](ptrs, optrs, numels, ct, ci, 0.5, found, CHUNK=1024, BLOCK=256)
        for a, o in zip(ins, outs):
            assert torch.equal(o, (a * 0.5).half())
        assert int(found) == int(poison)


def check_tuple_reduce():
    for M, N in ((20, 50), (8, 64)):
        x = torch.randint(-5, 5, (M, N), generator=g, dtype=torch.int32)
        v = torch.empty(M, dtype=torch.int32); i = torch.empty(M, dtype=torch.int32); c = torch.empty(M, dtype=torch.int32)
        K.tuple_reduce_kernel[(triton.cdiv(M, 8),)](x, v, i, c, M, N, BLOCK_M=8, BLOCK_N=64)
        mx = x.max(1).values
        assert torch.equal(v, mx)
        assert torch.equal(i.long(), (x == mx[:, None]).int().argmax(1))
        assert torch.equal(c.long(), (x == mx[:, None]).sum(1))


def check_fp64_stats():
    n = 5000
    x = torch.randn(n, generator=g, dtype=torch.float64) * 1e3
    acc = torch.tensor([0.0, 0.0, INF, -INF], dtype=torch.float64)
    K.fp64_stats_kernel[(triton.cdiv(n, 256),)](x, acc, n, BLOCK=256)
    torch.testing.assert_close(acc[0], x.sum(), atol=1e-9, rtol=1e-12)
    torch.testing.assert_close(acc[1], (x * x).sum(), atol=1e-6, rtol=1e-12)
    assert acc[2] == x.min() and acc[3] == x.max()


if __name__ == "__main__":
    run_checks(globals(), sys.argv[1:])
