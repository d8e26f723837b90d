# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/library_kernels.py on the CPU, each checked
against torch (autograd for the backward kernels) or numpy on ragged sizes,
with poisoned outputs: RMSNorm forward (llama/gemma/none casting) and
backward, in-place cross entropy (label smoothing, ignore_index, mean/sum),
SwiGLU/GeGLU forward and backward, RoPE on q and k, KL divergence, JSD,
fused add + RMSNorm, paged-attention decode, rotary + KV-cache write, top-k /
top-p masking, group norm, embedding backward, int8 per-token quantisation,
linear + bias + activation, a segmented cumsum, online softmax, a Welford
variance, a NaN-aware argmax with ties to the lowest index."""
import math
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

import tritonc as triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("library_kernels")

g = torch.Generator().manual_seed(4321)
NAN = float("nan")


def randn(*shape, dtype=torch.float32, scale=1.0):
    return (torch.randn(*shape, generator=g) * scale).to(dtype)


def close(a, b, atol, rtol=0.0, what=""):
    a = torch.as_tensor(a).double(); b = torch.as_tensor(b).double()
    assert a.shape == b.shape, (what, a.shape, b.shape)
    assert torch.equal(a.isnan(), b.isnan()), (what, "NaN mismatch", a.isnan().sum().item(), b.isnan().sum().item())
    a = torch.nan_to_num(a, 0.0); b = torch.nan_to_num(b, 0.0)
    err = (a - b).abs() - rtol * b.abs()
    assert (err <= atol).all(), (what, err.max().item(), torch.nonzero(err > atol)[:4].tolist())


def check_rms_norm_fwd():
    eps = 1e-6
    for mode, dt, offset, block in (("llama", torch.float16, 0.0, 256), ("gemma", torch.bfloat16, 1.0, 512),
                                    ("none", torch.float32, 0.0, 128)):
        R, N, xs = 9, block - 27, block + 8
        xbuf = randn(R, xs, dtype=dt, scale=2.0)
        x = xbuf[:, :N]
        w = randn(N, dtype=dt) * 0.5 + 1
        y = torch.full((R, N + 3), NAN, dtype=dt)
        rstd = torch.full((R,), NAN)
        K.rms_norm_fwd_kernel[(R,)](y, N + 3, xbuf, xs, w, rstd, N, eps, offset, CASTING_MODE=mode, BLOCK_SIZE=block)
        xf = x.double()
        r = 1 / torch.sqrt(xf.pow(2).mean(1, keepdim=True) + eps)
        close(rstd, r[:, 0], 1e-4, 1e-4, mode + " rstd")
        if mode == "llama":
            ref = (xf * r).to(dt) * (w + offset)
        else:
            ref = (xf * r * (w.double() + offset)).to(dt)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(y[:, :N].float(), ref.float(), tol, tol, mode + " y")
        assert y[:, N:].isnan().all(), mode + " wrote past n_cols"


def check_rms_norm_bwd():
    R, N, rpp, offset = 10, 200, 3, 1.0
    x = randn(R, N, dtype=torch.float16, scale=1.5)
    w = randn(N, dtype=torch.float16) * 0.3
    dy = randn(R, N, dtype=torch.float16)
    xd = x.double().requires_grad_(); wd = w.double().requires_grad_()
    rs = 1 / torch.sqrt(xd.pow(2).mean(1, keepdim=True) + 1e-6)
    ((xd * rs) * (wd + offset)).backward(dy.double())
    rstd = rs.detach()[:, 0].float().contiguous()
    npg = triton.cdiv(R, rpp)
    dx = torch.full((R, N), NAN, dtype=torch.float16)
    dw = torch.full((npg, 256), NAN)
    K.rms_norm_bwd_kernel[(npg,)](dy, N, dx, N, x, N, w, rstd, dw, 256, R, N, offset, rpp, BLOCK_SIZE=256)
    close(dx.float(), xd.grad.float(), 2e-2, 2e-2, "rmsnorm dx")
    close(dw[:, :N].sum(0), wd.grad, 1e-3, 1e-4, "rmsnorm dw")


def check_cross_entropy():
    for red, dt, ls, block in (("mean", torch.float32, 0.1, 128), ("sum", torch.bfloat16, 0.0, 256),
                               ("mean", torch.float32, 0.0, 128)):
        R, V = 7, 1000
        logits = randn(R, V, dtype=dt, scale=3.0)
        labels = torch.randint(0, V, (R,), generator=g)
        labels[2] = -100
        labels[5] = V - 1
        nn = int((labels != -100).sum())
        lf = logits.double().requires_grad_()
        per = F.cross_entropy(lf, labels, ignore_index=-100, label_smoothing=ls, reduction="none")
        if red == "mean":
            per = per / nn
        per.sum().backward()
        loss = torch.full((R,), NAN)
        x = logits.clone()
        K.cross_entropy_kernel[(R,)](x, V, labels, loss, V, nn, -100, ls, REDUCTION=red, BLOCK_SIZE=block)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(loss, per.detach(), tol, tol, "ce loss " + red)
        close(x.float(), lf.grad.to(dt).float(), tol * 1e-2 + 1e-6, tol, "ce grad " + red)


def glu_ref(a, b, act):
    if act == "silu":
        return F.silu(a) * b
    if act == "gelu_tanh":
        return F.gelu(a, approximate="tanh") * b
    return F.gelu(a) * b


def check_glu_fwd():
    for act, dt, block in (("silu", torch.float16, 256), ("gelu_tanh", torch.bfloat16, 128)):
        R, N = 6, block - 5
        a = randn(R, N, dtype=dt, scale=2.0); b = randn(R, N, dtype=dt)
        c = torch.full((R, N), NAN, dtype=dt)
        K.glu_fwd_kernel[(R,)](a, b, c, N, N, ACTIVATION=act, BLOCK_SIZE=block)
        ref = glu_ref(a.double(), b.double(), act)
        close(c.float(), ref.float(), 2e-2, 2e-2, act + " fwd")


def check_glu_bwd():
    for act, dt, block in (("gelu_tanh", torch.float32, 128), ("silu", torch.float16, 256), ("gelu", torch.float32, 64)):
        R, N = 5, block - 3
        a = randn(R, N, dtype=dt, scale=2.5); b = randn(R, N, dtype=dt); dc = randn(R, N, dtype=dt)
        ad = a.double().requires_grad_(); bd = b.double().requires_grad_()
        glu_ref(ad, bd, act).backward(dc.double())
        ka, kb = a.clone(), b.clone()
        K.glu_bwd_kernel[(R,)](dc, ka, kb, N, N, ACTIVATION=act, BLOCK_SIZE=block)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(ka.float(), ad.grad.float(), tol, tol, act + " da")
        close(kb.float(), bd.grad.float(), tol, tol, act + " db")


def check_rope_qk():
    for dt, nqh, nkh, hd, pqh, pkh, phd, bwd in ((torch.float16, 6, 2, 80, 8, 2, 128, False),
                                                  (torch.bfloat16, 4, 4, 64, 4, 4, 64, True)):
        bs, sl = 2, 5
        T = bs * sl
        width = (nqh + 2 * nkh) * hd
        qkv = randn(T, width, dtype=dt)
        q = qkv[:, :nqh * hd].reshape(T, nqh, hd)
        k = qkv[:, nqh * hd:(nqh + nkh) * hd].reshape(T, nkh, hd)
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).double() / hd))
        ang = torch.arange(sl).double()[:, None] * inv[None, :]
        cos, sin = ang.cos().float().contiguous(), ang.sin().float().contiguous()
        q0, k0, v0 = q.double().clone(), k.double().clone(), qkv[:, (nqh + nkh) * hd:].clone()
        K.rope_qk_kernel[(T,)](qkv, width, qkv[:, nqh * hd:], width, cos, sin, hd // 2, sl,
                               N_QH=nqh, N_KH=nkh, HEAD_DIM=hd, PAD_QH=pqh, PAD_KH=pkh, PAD_HD=phd, BACKWARD=bwd)
        pos = torch.arange(T) % sl
        c = torch.cat([cos, cos], 1).double()[pos][:, None, :]
        s = torch.cat([sin, sin], 1).double()[pos][:, None, :]
        if bwd:
            s = -s

        def rot(x):
            x1, x2 = x[..., :hd // 2], x[..., hd // 2:]
            return x * c + torch.cat([-x2, x1], -1) * s
        close(qkv[:, :nqh * hd].reshape(T, nqh, hd).float(), rot(q0).float(), 2e-2, 1e-2, "rope q")
        close(qkv[:, nqh * hd:(nqh + nkh) * hd].reshape(T, nkh, hd).float(), rot(k0).float(), 2e-2, 1e-2, "rope k")
        assert torch.equal(qkv[:, (nqh + nkh) * hd:], v0), "rope touched v"


def check_kl_div():
    R, N = 6, 333
    pred = torch.log_softmax(randn(R, N, scale=2.0), 1)
    for log_target, red, block in ((False, "none", 128), (True, "batchmean", 64)):
        t = torch.softmax(randn(R, N, scale=2.0), 1)
        if not log_target:
            t[1, :10] = 0.0
        else:
            t = t.log()
        ref = F.kl_div(pred.double(), t.double(), reduction=red, log_target=log_target)
        if red == "none":
            out = torch.full((R, N + 5), NAN)
            K.kl_div_kernel[(R,)](pred, N, t, N, out, N + 5, N, 1e-10, LOG_TARGET=log_target, REDUCTION=red,
                                  BLOCK_SIZE=block)
            close(out[:, :N], ref, 1e-6, 1e-5, "kl none")
        else:
            out = torch.full((R,), NAN)
            K.kl_div_kernel[(R,)](pred, N, t, N, out, 1, N, 1e-10, LOG_TARGET=log_target, REDUCTION=red,
                                  BLOCK_SIZE=block)
            close(out.sum() / R, ref, 1e-6, 1e-5, "kl batchmean")


def check_jsd():
    R, V = 6, 300
    for dt, has_label, beta, block in ((torch.float32, True, 0.5, 128), (torch.float32, True, 0.0, 128),
                                       (torch.float32, True, 1.0, 128), (torch.bfloat16, False, 0.3, 256)):
        x = torch.log_softmax(randn(R, V, scale=2.0), 1).to(dt)
        y = torch.log_softmax(randn(R, V, scale=2.0), 1).to(dt)
        labels = torch.randint(0, V, (R,), generator=g)
        if has_label:
            labels[1] = -100
            labels[4] = -100
        keep = labels != -100
        nn = int(keep.sum())
        xd = x.double().requires_grad_(); yd = y.double()
        P, Q = yd.exp(), xd.exp()
        if beta == 0.0:
            rows = (P * (yd - xd)).sum(1)
        elif beta == 1.0:
            rows = (Q * (xd - yd)).sum(1)
        else:
            M = beta * P + (1 - beta) * Q
            rows = beta * (P * (yd - M.log())).sum(1) + (1 - beta) * (Q * (xd - M.log())).sum(1)
        rows = torch.where(keep, rows, torch.zeros_like(rows)) / nn
        rows.sum().backward()
        loss = torch.full((R,), NAN)
        dx = torch.full((R, V), NAN, dtype=dt)
        K.jsd_kernel[(R,)](x, V, y, V, loss, dx, V, labels, beta, -100, nn, V, HAS_LABEL=has_label,
                           BLOCK_SIZE=block)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(loss, rows.detach(), tol, tol, "jsd loss %s" % beta)
        close(dx.float(), xd.grad.to(dt).float(), tol * 1e-2, tol, "jsd dx %s" % beta)


def check_fused_add_rms_norm():
    eps = 1e-5
    for dt, block in ((torch.bfloat16, 128), (torch.float32, 64)):
        R, N = 5, 300
        x = randn(R, N, dtype=dt); r = randn(R, N, dtype=dt); w = randn(N, dtype=dt) * 0.2 + 1
        s = (x.float() + r.float()).to(dt)
        rs = 1 / torch.sqrt(s.double().pow(2).mean(1, keepdim=True) + eps)
        ref = (s.double() * rs).to(dt) * w
        kx, kr = x.clone(), r.clone()
        K.fused_add_rms_norm_kernel[(R,)](kx, kr, w, N, N, eps, BLOCK_SIZE=block)
        assert torch.equal(kr, s), "residual"
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(kx.float(), ref.float(), tol, tol, "fused add rmsnorm")


def check_paged_attention():
    for dt, hkv, grp, hd, phd, bs in ((torch.float16, 2, 3, 80, 128, 16), (torch.bfloat16, 1, 4, 64, 64, 32)):
        B, H = 3, hkv * grp
        seq_lens = torch.tensor([1, 37, 100], dtype=torch.int32)
        max_blocks = triton.cdiv(100, bs) + 1
        nblk = 3 * max_blocks + 2
        perm = torch.randperm(nblk, generator=g)
        table = perm[:B * max_blocks].reshape(B, max_blocks).to(torch.int32).contiguous()
        kc = randn(nblk, bs, hkv, hd, dtype=dt); vc = randn(nblk, bs, hkv, hd, dtype=dt)
        q = randn(B, H, hd, dtype=dt)
        out = torch.full((B, H, hd), NAN, dtype=dt)
        scale = 1 / math.sqrt(hd)
        K.paged_attention_decode_kernel[(B, H)](out, q, kc, vc, table, seq_lens, scale, H * hd, hd,
                                                bs * hkv * hd, hkv * hd, hd, max_blocks, NUM_KV_HEADS=hkv,
                                                QUERY_GROUP=grp, HEAD_DIM=hd, PAD_HD=phd, KV_BLOCK=bs)
        for b in range(B):
            L = int(seq_lens[b])
            t = torch.arange(L)
            phys = table[b].long()[t // bs]
            kk = kc[phys, t % bs].double()          # [L, hkv, hd]
            vv = vc[phys, t % bs].double()
            kk = kk.repeat_interleave(grp, dim=1)   # [L, H, hd]
            vv = vv.repeat_interleave(grp, dim=1)
            att = torch.softmax(torch.einsum("hd,lhd->hl", q[b].double(), kk) * scale, dim=1)
            ref = torch.einsum("hl,lhd->hd", att, vv)
            close(out[b].float(), ref.float(), 2e-2, 2e-2, "paged attention b=%d" % b)


def check_rotary_cache_write():
    for dt, hd, bs, neox in ((torch.float16, 64, 16, True), (torch.bfloat16, 32, 8, False)):
        T, hkv, maxpos, nblk = 7, 2, 40, 4
        key = randn(T, hkv, hd, dtype=dt); value = randn(T, hkv, hd, dtype=dt)
        pos = torch.randint(0, maxpos, (T,), generator=g)
        slots = torch.randperm(nblk * bs, generator=g)[:T].clone()
        slots[3] = -1
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).double() / hd))
        ang = torch.arange(maxpos).double()[:, None] * inv[None, :]
        cs = torch.cat([ang.cos(), ang.sin()], 1).float().contiguous()
        kc = torch.full((nblk, bs, hkv, hd), NAN, dtype=dt); vc = torch.full((nblk, bs, hkv, hd), NAN, dtype=dt)
        K.rotary_cache_write_kernel[(T, hkv)](key, value, pos, slots, cs, kc, vc, hkv * hd, bs * hkv * hd, hkv,
                                              HEAD_DIM=hd, KV_BLOCK=bs, IS_NEOX=neox)
        c = cs[pos, :hd // 2].double()[:, None, :]
        s = cs[pos, hd // 2:].double()[:, None, :]
        kd = key.double()
        if neox:
            x1, x2 = kd[..., :hd // 2], kd[..., hd // 2:]
            rot = torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], -1)
        else:
            x1, x2 = kd[..., 0::2], kd[..., 1::2]
            rot = torch.stack([x1 * c - x2 * s, x2 * c + x1 * s], -1).reshape(T, hkv, hd)
        written = torch.zeros(nblk * bs, dtype=torch.bool)
        for t in range(T):
            sl = int(slots[t])
            if sl < 0:
                continue
            written[sl] = True
            close(kc[sl // bs, sl % bs].float(), rot[t].to(dt).float(), 1e-2, 1e-2, "kv key")
            assert torch.equal(vc[sl // bs, sl % bs], value[t]), "kv value"
        assert kc.reshape(nblk * bs, -1)[~written].isnan().all(), "wrote an unmapped slot"


def check_top_k_top_p():
    B, V = 6, 300
    x = randn(B, 512, scale=2.0)
    top_k = torch.tensor([0, 5, 50, 1, 0, 20], dtype=torch.int32)
    top_p = torch.tensor([1.0, 0.9, 0.5, 1.0, 0.3, 0.95])
    # keep the nucleus boundaries away from rounding
    for b in range(B):
        while True:
            pr = torch.softmax(x[b, :V].double(), 0).sort(descending=True).values.cumsum(0)
            if (pr - top_p[b]).abs().min() > 1e-4 or top_p[b] == 1.0:
                break
            x[b] = randn(512, scale=2.0)
    ref = x.clone()
    for b in range(B):
        row = x[b, :V].double()
        keep = torch.ones(V, dtype=torch.bool)
        if top_k[b] > 0:
            keep &= torch.zeros(V, dtype=torch.bool).index_fill(0, row.topk(int(top_k[b])).indices, True)
        if top_p[b] < 1.0:
            order = row.argsort(descending=True).tolist()
            p = torch.softmax(row, 0)
            nucleus, acc = torch.zeros(V, dtype=torch.bool), 0.0
            for i in order:
                nucleus[i] = True
                acc += float(p[i])
                if acc >= float(top_p[b]):
                    break
            keep &= nucleus
        ref[b, :V] = torch.where(keep, x[b, :V], torch.tensor(-float("inf")))
    out = x.clone()
    K.top_k_top_p_mask_kernel[(B,)](out, 512, top_k, top_p, V, BLOCK_V=512)
    assert torch.equal(out, ref), [(b, int((out[b] != ref[b]).sum())) for b in range(B)]


def check_group_norm():
    N, G, cpg, H, W = 3, 4, 3, 7, 9
    C = G * cpg
    x = randn(N, C, H, W, dtype=torch.float16, scale=2.0) + 0.5
    w = randn(C, dtype=torch.float16); b = randn(C, dtype=torch.float16)
    y = torch.full_like(x, NAN)
    mean = torch.full((N, G), NAN); rstd = torch.full((N, G), NAN)
    K.group_norm_kernel[(N, G)](x, y, w, b, mean, rstd, H * W, G, 1e-5, CHANNELS_PER_GROUP=cpg, BLOCK_SIZE=128)
    ref = F.group_norm(x.double(), G, w.double(), b.double(), 1e-5)
    close(y.float(), ref.float(), 1e-2, 1e-2, "group norm y")
    xg = x.double().reshape(N, G, -1)
    close(mean, xg.mean(2), 1e-5, 1e-5, "group norm mean")
    close(rstd, 1 / torch.sqrt(xg.var(2, unbiased=False) + 1e-5), 1e-4, 1e-4, "group norm rstd")


def check_embedding_bwd():
    T, V, D, pad = 50, 20, 100, 3
    ids = torch.randint(0, V, (T,), generator=g)
    ids[::7] = pad
    go = randn(T, D, dtype=torch.float16)
    wt = torch.zeros(V, D, dtype=torch.float64, requires_grad=True)
    F.embedding(ids, wt, padding_idx=pad).backward(go.double())
    gw = torch.zeros(V, D)
    K.embedding_bwd_kernel[(triton.cdiv(T, 16), triton.cdiv(D, 64))](go, ids, gw, T, D, pad, BLOCK_T=16,
                                                                       BLOCK_D=64)
    close(gw, wt.grad, 1e-4, 1e-5, "embedding grad")


def check_int8_quant():
    for dt, block in ((torch.float16, 256), (torch.bfloat16, 64)):
        M, N = 5, 300
        x = randn(M, N, dtype=dt, scale=3.0)
        x[2] = 0
        x[3, 7] = 100.0
        q = torch.full((M, N), 99, dtype=torch.int8)
        sc = torch.full((M,), NAN)
        K.per_token_quant_int8_kernel[(M,)](x, q, sc, N, N, BLOCK_SIZE=block)
        amax = x.float().abs().amax(1)
        rsc = torch.where(amax == 0, torch.ones_like(amax), amax / 127.0)
        assert torch.equal(sc, rsc), (sc, rsc)
        rq = torch.round(x.float() / rsc[:, None]).clamp(-127, 127).to(torch.int8)
        assert torch.equal(q, rq), int((q != rq).sum())
        out = torch.full((M, N), NAN, dtype=torch.bfloat16)
        K.dequant_int8_kernel[(triton.cdiv(M, 4), triton.cdiv(N, 128))](q, sc, out, M, N, BLOCK_M=4, BLOCK_N=128)
        assert torch.equal(out, (q.double() * sc.double()[:, None]).to(torch.bfloat16)), "dequant"


def check_linear_bias_act():
    for dt, odt, act, bias, bm, bn, bk, trans in (
            (torch.float16, torch.float16, "gelu_tanh", True, 32, 64, 32, False),
            (torch.bfloat16, torch.float32, "silu", False, 64, 32, 16, True),
            (torch.float32, torch.float32, "relu", True, 16, 32, 32, False)):
        M, N, Kd = 70, 100, 45
        a = randn(M, Kd, dtype=dt, scale=0.5); w = randn(N, Kd, dtype=dt, scale=0.5)
        bvec = randn(N, dtype=dt if bias else dt)
        ref = a.double() @ w.double().T
        if bias:
            ref = ref + bvec.double()
        ref = {"gelu_tanh": lambda v: F.gelu(v, approximate="tanh"), "silu": F.silu, "relu": F.relu}[act](ref)
        if trans:
            cbuf = torch.full((N, M), NAN, dtype=odt); c = cbuf.T; scm, scn = 1, M
        else:
            cbuf = torch.full((M, N), NAN, dtype=odt); c = cbuf; scm, scn = N, 1
        K.linear_bias_act_kernel[(triton.cdiv(M, bm), triton.cdiv(N, bn))](
            a, w, bvec, cbuf, M, N, Kd, Kd, Kd, scm, scn, ACTIVATION=act, HAS_BIAS=bias,
            BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        close(c.float(), ref.float(), 2e-2, 2e-2, "linear " + act)


def check_segment_cumsum():
    R, N, thr = 10, 50, 0.1
    v = randn(R, N)
    f = (torch.rand(R, N, generator=g) < 0.2).to(torch.int8)
    out = torch.full((R, N), NAN); tot = torch.full((R,), NAN)
    K.segment_cumsum_kernel[(triton.cdiv(R, 4),)](v, f, out, tot, R, N, thr, ROWS=4, BLOCK_N=64)
    vn, fn = v.cpu().numpy().astype(np.float64), f.cpu().numpy()
    ref = np.zeros((R, N))
    for r in range(R):
        acc = 0.0
        for j in range(N):
            if fn[r, j]:
                acc = 0.0
            if vn[r, j] > thr:
                acc += vn[r, j]
            ref[r, j] = acc
    close(out, torch.from_numpy(ref), 1e-5, 1e-5, "segment cumsum")
    close(tot, torch.from_numpy(ref[:, -1]), 1e-5, 1e-5, "segment totals")


def check_online_softmax():
    for idt, odt, log, block in ((torch.float16, torch.float16, False, 128), (torch.bfloat16, torch.float32, True, 64)):
        R, N, xs = 6, 1000, 1024
        x = randn(R, xs, dtype=idt, scale=3.0)
        x[1] *= 20
        x[2, 500:] = -float("inf")
        y = torch.full((R, N + 1), NAN, dtype=odt)
        K.online_softmax_rows_kernel[(R,)](x, y, xs, N + 1, N, LOG=log, BLOCK_N=block)
        xd = x[:, :N].double()
        ref = torch.log_softmax(xd, 1) if log else torch.softmax(xd, 1)
        close(y[:, :N].float(), ref.to(odt).float(), 1e-3, 1e-2, "softmax log=%s" % log)
        assert y[:, N].isnan().all()


def check_welford_var():
    for dt, corr, block in ((torch.float32, 1, 64), (torch.float16, 0, 128)):
        R, N = 7, 333
        x = randn(R, N, dtype=dt) + (1000.0 if dt == torch.float32 else 3.0)
        mean = torch.full((R,), NAN); var = torch.full((R,), NAN)
        K.welford_var_kernel[(R,)](x, mean, var, N, R, N, CORRECTION=corr, BLOCK_N=block)
        xd = x.double()
        close(mean, xd.mean(1), 1e-4, 1e-6, "welford mean")
        close(var, xd.var(1, correction=corr), 1e-4, 1e-4, "welford var")


def check_argmax_rows():
    for dt, block in ((torch.float32, 64), (torch.bfloat16, 32)):
        R, N = 8, 150
        x = torch.randint(-3, 4, (R, N), generator=g).to(dt)
        x[0, 140] = 9
        x[1, 3] = NAN
        x[1, 100] = NAN
        x[2, 149] = NAN
        x[3] = -float("inf")
        x[4, 0] = 7
        idx = torch.full((R,), -5, dtype=torch.int64)
        val = torch.full((R,), 42.0, dtype=dt)
        K.argmax_rows_kernel[(R,)](x, idx, val, N, R, N, BLOCK_N=block)
        want = x.float().argmax(1)
        assert torch.equal(idx, want), (dt, idx.tolist(), want.tolist())
        close(val.float(), x.float().max(1).values, 0.0, 0.0, "argmax value")


def sparsemax_ref(x):
    # the projection onto the simplex by a scan over the sorted values (numpy, float64)
    out = np.zeros_like(x)
    for r in range(x.shape[0]):
        z = np.sort(x[r])[::-1]
        cs = np.cumsum(z)
        k = np.arange(1, len(z) + 1)
        kk = k[1 + k * z > cs].max()
        tau = (cs[kk - 1] - 1) / kk
        out[r] = np.maximum(x[r] - tau, 0)
    return out


def check_sparsemax():
    for dt, block in ((torch.float32, 256), (torch.bfloat16, 128)):
        R, N = 6, block - 37
        x = randn(R, N, dtype=dt, scale=2.0)
        y = torch.full((R, N), NAN, dtype=dt)
        K.sparsemax_fwd_kernel[(R,)](x, y, N, N, BLOCK=block)
        ref = sparsemax_ref(x.double().cpu().numpy())
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(y.float(), torch.from_numpy(ref).to(dt).float(), tol, tol, "sparsemax")
        if dt == torch.float32:
            dy = randn(R, N)
            dx = torch.full((R, N), NAN)
            K.sparsemax_bwd_kernel[(R,)](y, dy, dx, N, N, BLOCK=block)
            # the Jacobian of sparsemax, diag(s) - s s^T / |s|, applied to dy
            s = torch.from_numpy(ref > 0).double()
            jac = torch.diag_embed(s) - s[:, :, None] * s[:, None, :] / s.sum(1)[:, None, None]
            close(dx, torch.einsum("rij,rj->ri", jac, dy.double()), 1e-5, 1e-5, "sparsemax bwd")
    # a vocabulary-wide row: the sort of a 65536 tile unrolls into ~78 MiB of
    # tiles, more than a pool thread's stack (the CPU runtime starts threads
    # with a stack sized to such a frame)
    R, N = 2, 40000
    x = randn(R, N, scale=3.0)
    y = torch.full((R, N), NAN)
    K.sparsemax_fwd_kernel[(R,)](x, y, N, N, BLOCK=65536)
    close(y, torch.from_numpy(sparsemax_ref(x.double().cpu().numpy())).float(), 1e-5, 1e-5, "sparsemax 65536")


def check_top_p_bisect():
    B, V = 5, 400
    x = randn(B, 512, scale=2.0)
    top_p = torch.tensor([0.9, 0.5, 0.99, 0.1, 0.7])
    ref = x.clone()
    for b in range(B):
        pr = torch.softmax(x[b, :V].double(), 0)
        srt = pr.sort(descending=True).values
        k = int((srt.cumsum(0) < float(top_p[b])).sum()) + 1
        assert srt[k - 1] - srt[k] > 1e-7
        ref[b, :V] = torch.where(pr >= srt[k - 1], x[b, :V], torch.tensor(-float("inf")))
    out = x.clone()
    K.top_p_bisect_kernel[(B,)](out, 512, top_p, V, N_ITERS=32, BLOCK_V=512)
    assert torch.equal(out, ref), [int((out[b] != ref[b]).sum()) for b in range(B)]


def check_dyt():
    R, N = 7, 200
    for dt, beta, block in ((torch.bfloat16, True, 256), (torch.float32, False, 128)):
        N = block - 56
        x = randn(R, N, dtype=dt, scale=2.0); w = randn(N, dtype=dt); b = randn(N, dtype=dt)
        alpha = torch.tensor([0.7])
        y = torch.full((R, N), NAN, dtype=dt)
        K.dyt_fwd_kernel[(R,)](x, alpha, w, b, y, N, N, HAVE_BETA=beta, BLOCK=block)
        ref = torch.tanh(0.7 * x.double()) * w.double() + (b.double() if beta else 0)
        tol = 1e-5 if dt == torch.float32 else 2e-2
        close(y.float(), ref.to(dt).float(), tol, tol, "dyt fwd")
    N = 100
    x = randn(R, N, scale=2.0); w = randn(N); b = randn(N); dy = randn(R, N)
    xd = x.double().requires_grad_(); wd = w.double().requires_grad_(); bd = b.double().requires_grad_()
    ad = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    (torch.tanh(ad * xd) * wd + bd).backward(dy.double())
    rpp = 3
    npg = triton.cdiv(R, rpp)
    dx = torch.full((R, N), NAN); da = torch.full((npg,), NAN)
    dw = torch.full((npg, N), NAN); db = torch.full((npg, N), NAN)
    K.dyt_bwd_kernel[(npg,)](dy, x, torch.tensor([0.7]), w, dx, da, dw, db, N, R, N, rpp, HAVE_BETA=True, BLOCK=128)
    close(dx, xd.grad, 1e-5, 1e-5, "dyt dx")
    close(da.sum(), ad.grad, 1e-3, 1e-5, "dyt dalpha")
    close(dw.sum(0), wd.grad, 1e-4, 1e-5, "dyt dw")
    close(db.sum(0), bd.grad, 1e-4, 1e-5, "dyt db")


def check_ce_ncd():
    N, C, D = 3, 21, 75
    for dt, bc, bd in ((torch.float32, 16, 32), (torch.float16, 8, 64)):
        x = randn(N, C, D, dtype=dt, scale=2.0)
        t = torch.randint(0, C, (N, D), generator=g)
        t[0, :5] = -1
        wt = torch.rand(C, generator=g) + 0.5
        loss = torch.full((N, D), NAN)
        K.ce_ncd_kernel[(N, triton.cdiv(D, bd))](x, t, wt, loss, C, D, -1, BLOCK_C=bc, BLOCK_D=bd)
        ref = F.cross_entropy(x.double(), t, weight=wt.double(), ignore_index=-1, reduction="none")
        close(loss, ref, 1e-4, 1e-4, "ce ncd")
        loss2 = torch.full((N, D), NAN)
        K.ce_ncd_kernel[(N, triton.cdiv(D, bd))](x, t, None, loss2, C, D, -1, BLOCK_C=bc, BLOCK_D=bd)
        ref2 = F.cross_entropy(x.double(), t, ignore_index=-1, reduction="none")
        close(loss2, ref2, 1e-4, 1e-4, "ce ncd unweighted")


def check_lerp_rank3():
    s0, s1, s2 = 3, 37, 29
    a = randn(s0, s2, s1, dtype=torch.float16).transpose(1, 2)    # non-contiguous
    b = randn(1, s1, 1, dtype=torch.float16).expand(s0, s1, s2)   # zero strides
    for weight in (0.25, 0.8):
        out = torch.full((s0, s1, s2), NAN, dtype=torch.float16)
        n = s0 * s1 * s2
        nctas = min(triton.cdiv(n, 256), 8)
        K.lerp_rank3_kernel[(nctas,)](a, b, out, weight, s0, s1, s2, *a.stride(), *b.stride(), n,
                                      triton.cdiv(triton.cdiv(n, 256), nctas), BLOCK=256)
        ref = torch.lerp(a.double(), b.double(), weight)
        close(out.float(), ref.half().float(), 1e-3, 1e-3, "lerp")


def check_dropout_bias_gelu():
    M, N, p, seed = 37, 150, 0.3, 1234
    x = randn(M, N, dtype=torch.float16); bias = randn(N, dtype=torch.float16); dy = randn(M, N, dtype=torch.float16)
    grid = (triton.cdiv(M, 8), triton.cdiv(N, 64))
    y = torch.full((M, N), NAN, dtype=torch.float16)
    K.dropout_bias_gelu_kernel[grid](x, bias, dy, y, M, N, p, seed, BACKWARD=False, BLOCK_M=8, BLOCK_N=64)
    h = (x.float() + bias.float()).double().requires_grad_()
    act = F.gelu(h)
    keep = y != 0
    frac = keep.double().mean().item()
    assert abs(frac - (1 - p)) < 0.03, frac
    close(y.float(), torch.where(keep, act / (1 - p), torch.zeros_like(act)).half().float(), 2e-3, 2e-3, "dropout fwd")
    dx = torch.full((M, N), NAN, dtype=torch.float16)
    K.dropout_bias_gelu_kernel[grid](x, bias, dy, dx, M, N, p, seed, BACKWARD=True, BLOCK_M=8, BLOCK_N=64)
    (torch.where(keep, act / (1 - p), torch.zeros_like(act))).backward(dy.double())
    close(dx.float(), h.grad.float(), 2e-3, 2e-3, "dropout bwd")
    y2 = torch.full((M, N), NAN, dtype=torch.float16)
    K.dropout_bias_gelu_kernel[grid](x, bias, dy, y2, M, N, p, seed + 1, BACKWARD=False, BLOCK_M=8, BLOCK_N=64)
    assert not torch.equal(y2 != 0, keep), "the seed does not change the mask"


def check_ce_chunked():
    R, V = 6, 1000
    for dt, cap, scale, block in ((torch.bfloat16, True, True, 256), (torch.float32, False, False, 128)):
        logits = randn(R, V, dtype=dt, scale=4.0)
        labels = torch.randint(0, V, (R,), generator=g)
        labels[3] = -100
        nch = triton.cdiv(V, block)
        loss = torch.full((R,), NAN); lse_c = torch.full((R, nch), NAN); lse = torch.full((R,), NAN)
        softcap, lscale = 30.0, 1.7
        K.ce_chunk_fwd_kernel[(R, nch)](logits, V, labels, loss, lse_c, nch, V, softcap, lscale,
                                        DO_SOFTCAPPING=cap, DO_LOGIT_SCALING=scale, BLOCK=block)
        K.ce_chunk_combine_kernel[(R,)](loss, lse_c, lse, labels, nch, CHUNKS=16)
        xl = logits.double().requires_grad_()
        z = xl * lscale if scale else xl
        if cap:
            z = softcap * torch.tanh(z / softcap)
        ref = F.cross_entropy(z, labels, ignore_index=-100, reduction="none")
        close(loss, ref.detach(), 1e-4, 1e-4, "ce chunked loss")
        close(lse, torch.logsumexp(z.detach(), 1), 1e-4, 1e-5, "ce chunked lse")
        nn = int((labels != -100).sum())
        (ref.sum() / nn).backward()
        dl = torch.tensor([1.0 / nn])
        grad = logits.clone()
        K.ce_chunk_bwd_kernel[(R, triton.cdiv(V, block))](grad, V, dl, 0, lse, labels, V, softcap, lscale,
                                                            DO_SOFTCAPPING=cap, DO_LOGIT_SCALING=scale, BLOCK=block)
        tol = 1e-7 if dt == torch.float32 else 1e-4
        close(grad.float(), xl.grad.to(dt).float(), tol, 2e-2, "ce chunked grad")


def check_causal_softmax():
    BH, Sq, Sk = 3, 5, 100
    x = randn(BH, Sq, 128, dtype=torch.float16, scale=3.0)
    y = torch.full((BH, Sq, 128), NAN, dtype=torch.float16)
    K.causal_softmax_kernel[(Sq, BH)](x, y, Sq * 128, 128, Sq, Sk, 0.5, BLOCK_K=128)
    xs = x[:, :, :Sk].double() * 0.5
    allowed = torch.ones(Sq, Sk, dtype=torch.bool).tril(Sk - Sq)
    ref = torch.softmax(xs.masked_fill(~allowed, -float("inf")), -1)
    close(y[:, :, :Sk].float(), ref.half().float(), 1e-3, 1e-2, "causal softmax")
    assert y[:, :, Sk:].isnan().all()


def check_prefix_attention():
    for dt, grp, hd, xw, bs, bm, bn in ((torch.float16, 2, 64, 8, 16, 16, 32), (torch.bfloat16, 1, 32, 8, 32, 32, 32)):
        S, HKV, QT = 2, 2, 2
        H = HKV * grp
        ctx = torch.tensor([45, 100], dtype=torch.int32)
        maxb = triton.cdiv(100, bs)
        nb = S * maxb + 3
        table = torch.randperm(nb, generator=g)[:S * maxb].reshape(S, maxb).to(torch.int32).contiguous()
        kc = randn(nb, HKV, hd // xw, bs, xw, dtype=dt)
        vc = randn(nb, HKV, hd, bs, dtype=dt)
        T = S * QT * bm
        q = randn(T, H, hd, dtype=dt)
        out = torch.full((T, H, hd), NAN, dtype=dt)
        scale = hd ** -0.5
        K.prefix_attention_kernel[(S, H, QT)](q, kc, vc, table, ctx, out, scale, H * hd, hd, *kc.stride()[:5],
                                              *vc.stride()[:4], maxb, H * hd, hd, QUERY_GROUP=grp, HEAD_DIM=hd,
                                              X=xw, KV_BLOCK=bs, BLOCK_M=bm, BLOCK_N=bn)
        kf = kc.permute(0, 3, 1, 2, 4).reshape(nb, bs, HKV, hd).double()
        vf = vc.permute(0, 3, 1, 2).double()
        for sq in range(S):
            L = int(ctx[sq])
            t = torch.arange(L)
            phys = table[sq].long()[t // bs]
            kk = kf[phys, t % bs].repeat_interleave(grp, dim=1)     # [L, H, hd]
            vv = vf[phys, t % bs].repeat_interleave(grp, dim=1)
            qq = q[sq * QT * bm:(sq + 1) * QT * bm].double()         # [Mq, H, hd]
            att = torch.softmax(torch.einsum("mhd,lhd->hml", qq, kk) * scale, -1)
            ref = torch.einsum("hml,lhd->mhd", att, vv)
            close(out[sq * QT * bm:(sq + 1) * QT * bm].float(), ref.float(), 2e-2, 2e-2, "prefix attention")


def check_lora_shrink():
    for dt, bn, split in ((torch.float16, 16, 1), (torch.bfloat16, 32, 4)):
        M, Kd, R, L = 60, 100, 16 if bn == 16 else 24, 3
        x = randn(M, Kd, dtype=dt)
        A = randn(L, R, Kd, dtype=dt, scale=0.2)
        tile_lora = [1, -1, 0, 2]
        ids = torch.tensor([tile_lora[m // 16] for m in range(M)], dtype=torch.int32)
        out = torch.full((M, R), NAN) if split == 1 else torch.zeros(M, R)
        K.lora_shrink_kernel[(triton.cdiv(M, 16), split)](x, A, out, ids, M, Kd, R, Kd, R * Kd, Kd, R, 0.5,
                                                          BLOCK_M=16, BLOCK_N=bn, BLOCK_K=32, SPLIT_K=split)
        for m in range(M):
            lo = int(ids[m])
            if lo < 0:
                want = torch.full((R,), NAN) if split == 1 else torch.zeros(R)
            else:
                want = 0.5 * (A[lo].double() @ x[m].double())
            close(out[m], want, 2e-3, 2e-3, "lora row %d" % m)


def check_w8a8_gemm():
    for odt, bias, bm, bn, bk, gm in ((torch.float16, True, 32, 32, 32, 4), (torch.bfloat16, False, 64, 32, 64, 2)):
        M, N, Kd = 70, 50, 100
        a = torch.randint(-128, 128, (M, Kd), generator=g, dtype=torch.int8)
        b = torch.randint(-128, 128, (Kd, N), generator=g, dtype=torch.int8)
        sa = torch.rand(M, generator=g) * 0.01; sb = torch.rand(N, generator=g) * 0.01
        bvec = randn(N, dtype=odt)
        c = torch.full((M, N), NAN, dtype=odt)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        K.w8a8_gemm_kernel[grid](a, b, c, sa, sb, bvec, M, N, Kd, Kd, N, N, HAS_BIAS=bias, BLOCK_M=bm, BLOCK_N=bn,
                                 BLOCK_K=bk, GROUP_M=gm)
        ref = (a.double() @ b.double()) * sa.double()[:, None] * sb.double()[None, :]
        if bias:
            ref = ref + bvec.double()
        close(c.float(), ref.to(odt).float(), 1e-2, 1e-2, "w8a8")


def check_token_bitmask():
    for dt, block in ((torch.float32, 256), (torch.bfloat16, 1024)):
        R, V = 5, 1000
        words = triton.cdiv(V, 32)
        logits = randn(R, V, dtype=dt)
        bm = torch.randint(-2 ** 31, 2 ** 31 - 1, (R, words), generator=g, dtype=torch.int64).to(torch.int32)
        idx = torch.tensor([0, 2, 4], dtype=torch.int32)
        ref = logits.clone()
        bits = ((bm.cpu().numpy().astype(np.int64)[:, :, None] >> np.arange(32)) & 1).reshape(R, -1)[:, :V]
        for r in idx.tolist():
            ref[r][torch.from_numpy(bits[r] == 0)] = -float("inf")
        out = logits.clone()
        K.token_bitmask_kernel[(3, triton.cdiv(V, block))](out, bm, idx, V, V, words, BLOCK=block)
        assert torch.equal(out, ref), int((out != ref).sum())


def check_merge_attn_states():
    for dt, hs, pad, out_lse in ((torch.float16, 80, 128, True), (torch.bfloat16, 64, 64, False)):
        T, H = 7, 3
        p = randn(T, H, hs, dtype=dt); s_ = randn(T, H, hs, dtype=dt)
        pl = randn(H, T, scale=3.0); sl = randn(H, T, scale=3.0)
        pl[0, 1] = float("inf"); sl[2, 5] = float("inf")
        out = torch.full((T, H, hs), NAN, dtype=dt); olse = torch.full((H, T), NAN)
        K.merge_attn_states_kernel[(T, H)](out, olse, p, pl, s_, sl, H, HEAD_SIZE=hs, PAD=pad, OUTPUT_LSE=out_lse)
        a = torch.where(pl == float("inf"), torch.tensor(-float("inf")), pl).double()
        b = torch.where(sl == float("inf"), torch.tensor(-float("inf")), sl).double()
        lse = torch.logaddexp(a, b)
        wa = torch.exp(a - lse).T[:, :, None]; wb = torch.exp(b - lse).T[:, :, None]
        ref = p.double() * wa + s_.double() * wb
        close(out.float(), ref.to(dt).float(), 1e-2, 1e-2, "merge attn")
        if out_lse:
            close(olse, lse, 1e-5, 1e-5, "merge lse")
        else:
            assert olse.isnan().all()


def check_grpo_loss():
    B, L, V = 3, 5, 300
    for beta in (0.04, 0.0):
        logits = randn(B, L, V, dtype=torch.bfloat16, scale=2.0)
        comp = torch.randint(0, V, (B, L), generator=g)
        old = randn(B, L) * 0.1 - 5.0; refl = randn(B, L) * 0.1 - 5.0
        adv = randn(B)
        mask = (torch.rand(B, L, generator=g) > 0.3).to(torch.int32)
        mask[0, 0] = 1
        loss = torch.full((B, L), NAN); kl = torch.full((B, L), NAN); clip = torch.full((B, L), 7, dtype=torch.int8)
        temp, el, eh = 0.9, 0.2, 0.28
        K.grpo_loss_kernel[(B, L)](logits, old, refl, comp, adv, mask, loss, kl, clip, temp, beta, el, eh, L, V,
                                   BLOCK_V=256)
        logp = torch.log_softmax(logits.double() / temp, -1).gather(-1, comp[..., None])[..., 0]
        old = old.double()
        ratio = torch.exp(logp - old)
        clipped = ratio.clamp(1 - el, 1 + eh)
        a = adv.double()[:, None]
        rl = -torch.minimum(ratio * a, clipped * a)
        rkl = torch.exp(refl.double() - logp) - (refl.double() - logp) - 1
        if beta:
            rl = rl + beta * rkl
        m = mask.bool()
        close(loss[m], rl[m], 1e-4, 1e-4, "grpo loss")
        assert loss[~m].isnan().all() and (clip[~m] == 7).all()
        assert torch.equal(clip[m], ((ratio * a) > (clipped * a))[m].to(torch.int8))
        if beta:
            close(kl[m], rkl[m], 1e-4, 1e-4, "grpo kl")
        else:
            assert kl.isnan().all()


def check_top_k_renorm():
    # BLOCK_V=16384: the noinline helper's sort takes ~20 MiB of stack in a
    # frame of its own, which the kernel's frame size has to count (one
    # program runs on the launching thread when the kernel's frame is small)
    for B, V, block in ((3, 1000, 1024), (1, 12000, 16384), (2, 12000, 16384)):
        p = torch.softmax(randn(B, block, scale=2.0), 1)
        top_k = torch.randint(1, 60, (B,), generator=g, dtype=torch.int32)
        ref = p.clone()
        for b in range(B):
            row = p[b, :V].double()
            keep = torch.zeros(V, dtype=torch.bool).index_fill(0, row.topk(int(top_k[b])).indices, True)
            kept = torch.where(keep, row, torch.zeros_like(row))
            ref[b, :V] = (kept / kept.sum()).float()
        out = p.clone()
        K.top_k_renorm_kernel[(B,)](out, block, top_k, V, BLOCK_V=block)
        close(out, ref, 1e-6, 1e-5, "top-k renorm")


if __name__ == "__main__":
    names = sorted(k for k in globals() if k.startswith("check_"))
    for name in names:
        globals()[name]()
        print("ok", name)
    print("ok: %d checks" % len(names))
