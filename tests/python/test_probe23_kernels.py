# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/probe23_kernels.py on the CPU, each checked
against torch computed another way: a probe of kernels written as 2025-2026
code bases write them (vLLM/SGLang serving, Liger/unsloth training,
flash-linear-attention, mamba2, tutorial 09). Also what the probe found
broken in the binding: a module that runs Triton code through
`sys.modules["triton"] = tritonc` loaded `triton.language.extra.libdevice`
(and any triton.X) as a second copy of the package's module, so a builtin
imported from it under a module-level `if` was not recognised ("name 'exp'
is not defined"), and autotuner/heuristics/launch checks of the host API."""
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

K = load_corpus("probe23_kernels")

# flash-linear-attention's switch, read where the module is imported (the
# corpus loader made `triton` this package): the fast exp is a builtin of
# triton.language.extra.libdevice, which must be tritonc's own module
if os.environ.get("TRITONC_PROBE23_SLOW_EXP", "0") == "1":
    fexp = tl.exp
else:
    from triton.language.extra.libdevice import fast_expf as fexp  # noqa: E402

g = torch.Generator().manual_seed(2323)
triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))


def ref_chunk(q, k, v, gc, scale, BT):
    # q,k: [T,H,K], v: [T,H,V], gc: cumulative log decay [T,H] (within chunk)
    T, H, Kd = q.shape
    o = torch.zeros(T, H, v.shape[-1]); hs = []
    S = torch.zeros(H, Kd, v.shape[-1])
    for c0 in range(0, T, BT):
        c1 = min(T, c0 + BT)
        hs.append(S.clone())
        qq, kk, vv, gg = q[c0:c1].float(), k[c0:c1].float(), v[c0:c1].float(), gc[c0:c1]
        inter = torch.einsum("thk,hkv->thv", qq, S) * gg.exp()[..., None]
        A = torch.einsum("thk,shk->hts", qq, kk) * (gg.T[:, :, None] - gg.T[:, None, :]).exp()
        A = A.masked_fill(~torch.ones(c1 - c0, c1 - c0, dtype=torch.bool).tril(), 0)
        o[c0:c1] = (inter + torch.einsum("hts,shv->thv", A, vv)) * scale
        glast = gg[-1]
        S = S * glast.exp()[:, None, None] + torch.einsum("thk,thv->hkv", kk * (glast[None] - gg).exp()[..., None], vv)
    return o, torch.stack(hs)


def check_rope():
    T, HQ, HKV, D = 7, 6, 2, 64
    qkv = torch.randn(T, (HQ + 2 * HKV) * D, generator=g).bfloat16()
    maxp = 50
    inv = 1.0 / (10000 ** (torch.arange(0, D, 2).float() / D))
    fr = torch.arange(maxp).float()[:, None] * inv[None, :]
    cs = torch.cat([fr.cos(), fr.sin()], 1)
    pos = torch.randint(0, maxp, (T,), generator=g)
    ref = qkv.float().clone().view(T, -1, D)
    c = cs[pos, :D // 2][:, None]; s = cs[pos, D // 2:][:, None]
    x1 = ref[:, :HQ + HKV, :D // 2].clone(); x2 = ref[:, :HQ + HKV, D // 2:].clone()
    ref[:, :HQ + HKV, :D // 2] = x1 * c - x2 * s
    ref[:, :HQ + HKV, D // 2:] = x2 * c + x1 * s
    K.rope_cache_kernel[(T,)](qkv, cs, pos, qkv.stride(0), cs.stride(0), HQ=HQ, HKV=HKV, D=D, BLOCK_H=4)
    torch.testing.assert_close(qkv.float().view(T, -1, D), ref.bfloat16().float(), atol=2e-2, rtol=2e-2)

def check_geglu():
    M, N = 5, 100
    dc = torch.randn(M, 128, generator=g).bfloat16(); a = torch.randn(M, 128, generator=g).bfloat16(); b = torch.randn(M, 128, generator=g).bfloat16()
    af = a.float()[:, :N].requires_grad_(); bf = b.float()[:, :N].requires_grad_()
    (torch.nn.functional.gelu(af) * bf).backward(dc.float()[:, :N])
    a0 = a.clone()
    K.geglu_bwd_kernel[(M,)](dc, a, b, 128, N, BLOCK=128)
    torch.testing.assert_close(a[:, :N].float(), af.grad.bfloat16().float(), atol=3e-2, rtol=2e-2)
    torch.testing.assert_close(b[:, :N].float(), bf.grad.bfloat16().float(), atol=3e-2, rtol=2e-2)
    assert torch.equal(a[:, N:], a0[:, N:])

def check_rms_bwd():
    M, N = 37, 200
    for off in (0.0, 1.0):
        x = torch.randn(M, N, generator=g); w = torch.randn(N, generator=g); dy = torch.randn(M, N, generator=g)
        xr = x.clone().requires_grad_(); wr = w.clone().requires_grad_()
        rstd = torch.rsqrt(x.pow(2).mean(1) + 1e-6)
        y = xr * torch.rsqrt(xr.pow(2).mean(1, keepdim=True) + 1e-6) * (wr + off)
        y.backward(dy)
        dx = torch.empty_like(x); dw = torch.zeros(N)
        K.rms_norm_bwd_atomic_kernel[(5,)](dy, x, w, rstd, dx, dw, M, N, N, OFFSET=off, BLOCK_N=256)
        torch.testing.assert_close(dx, xr.grad, atol=1e-4, rtol=1e-4)
        torch.testing.assert_close(dw, wr.grad, atol=1e-4, rtol=1e-4)

def check_moe_align():
    E, BS = 8, 16
    topk = torch.randint(0, E, (45, 2), generator=g, dtype=torch.int32)
    numel = topk.numel()
    tpt = triton.cdiv(numel, E)
    cnts = torch.zeros((E + 1, E), dtype=torch.int32)
    cums = torch.zeros(E + 1, dtype=torch.int32)
    maxpad = numel + E * (BS - 1)
    sorted_ids = torch.full((maxpad,), numel, dtype=torch.int32)
    eids = torch.full((triton.cdiv(maxpad, BS),), -1, dtype=torch.int32)
    tot = torch.zeros(1, dtype=torch.int32)
    K.moe_align_stage1[(E,)](topk, cnts, numel, tpt, NUM_EXPERTS=E)
    K.moe_align_stage2[(E,)](cnts, NUM_EXPERTS=E)
    K.moe_align_stage3[(1,)](tot, cnts, cums, NUM_EXPERTS=E, BLOCK_SIZE=BS)
    K.moe_align_stage4[(E,)](topk, sorted_ids, eids, cnts, cums, numel, tpt, NUM_EXPERTS=E, BLOCK_SIZE=BS)
    flat = topk.flatten()
    counts = torch.bincount(flat.long(), minlength=E)
    padded = (counts + BS - 1) // BS * BS
    assert tot.item() == padded.sum().item()
    start = 0
    for e in range(E):
        seg = sorted_ids[start:start + counts[e]]
        assert torch.equal(seg.long(), (flat == e).nonzero().flatten()), e
        assert (sorted_ids[start + counts[e]:start + padded[e]] == numel).all()
        assert (eids[start // BS:(start + padded[e]) // BS] == e).all()
        start += padded[e].item()

def check_grouped_topk():
    T, E, G, TG, TK = 9, 64, 8, 3, 8
    lg = torch.randn(T, E, generator=g).bfloat16(); bias = torch.randn(E, generator=g) * 0.1
    w = torch.zeros(T, TK); ids = torch.zeros(T, TK, dtype=torch.int32)
    K.grouped_topk_kernel[(T,)](lg, bias, w, ids, 2.5, E=E, G=G, TOPK_GROUP=TG, TOPK=TK, RENORM=True)
    s = lg.float().sigmoid(); sb = s + bias
    gsc = sb.view(T, G, -1).topk(2, -1).values.sum(-1)
    gi = gsc.topk(TG, -1).indices
    gm = torch.zeros(T, G, dtype=torch.bool).scatter_(1, gi, True)
    m = gm[:, :, None].expand(T, G, E // G).reshape(T, E)
    tid = sb.masked_fill(~m, float("-inf")).topk(TK, -1).indices
    tw = s.gather(1, tid); tw = tw / tw.sum(-1, keepdim=True) * 2.5
    assert torch.equal(ids.long(), tid), (ids, tid)
    torch.testing.assert_close(w, tw)


def check_persistent():
    M, N, Kd = 100, 72, 80
    a = torch.randn(M, Kd, generator=g).half(); b = torch.randn(N, Kd, generator=g).half()
    for ws in (False, True):
        c = torch.full((M, N), float("nan")).half()
        K.persistent_desc_matmul_kernel[(3,)](a, b, c, M, N, Kd, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=2, NUM_SMS=3, WS=ws)
        torch.testing.assert_close(c.float(), (a.float() @ b.float().T), atol=2e-2, rtol=2e-3)

def check_nan_pad():
    M, N = 37, 50
    x = torch.randn(M, 64, generator=g)
    y = torch.zeros(M, dtype=torch.int32)
    K.desc_nan_pad_kernel[(triton.cdiv(M, 16),)](x, y, M, N, 64, BM=16, BN=64)
    assert (y == 14).all(), y

def check_hist_gather():
    n, NB = 1000, 64
    x = torch.randint(0, NB, (n,), generator=g, dtype=torch.int32)
    tab = torch.randn(NB, generator=g)
    h = torch.zeros(NB, dtype=torch.int32); out = torch.zeros(n)
    K.hist_gather_kernel[(triton.cdiv(n, 256),)](x, tab, h, out, n, NUM_BINS=NB, BLOCK=256)
    assert torch.equal(h, torch.bincount(x, minlength=NB).int())
    assert torch.equal(out, tab[x.long()])

def check_bits():
    n = 777
    x = torch.randn(n, generator=g) * 10; x[0] = -0.0; x[1] = 3.0
    y = torch.zeros(n); z = torch.zeros(n)
    K.bit_tricks_kernel[(triton.cdiv(n, 128),)](x, y, z, n, -2.0, 5.0, BLOCK=128)
    ref = torch.copysign(x.abs().rsqrt(), x)
    ok = torch.isfinite(ref)
    torch.testing.assert_close(y[ok], ref[ok], rtol=1e-5, atol=0)
    torch.testing.assert_close(z, x.clamp(-2.0, 5.0))

def check_complex_scan():
    R, T = 3, 50
    a = torch.polar(torch.rand(R, T, generator=g) * 0.5 + 0.5, torch.rand(R, T, generator=g) * 6)
    b = torch.complex(torch.randn(R, T, generator=g), torch.randn(R, T, generator=g))
    for rev in (False, True):
        hr = torch.zeros(R, T); hi = torch.zeros(R, T)
        K.complex_recurrence_kernel[(R,)](a.real.contiguous(), a.imag.contiguous(), b.real.contiguous(), b.imag.contiguous(), hr, hi, T, BLOCK_T=64, REVERSE=rev)
        ref = torch.zeros(R, T, dtype=torch.complex64); h = torch.zeros(R, dtype=torch.complex64)
        rng = range(T - 1, -1, -1) if rev else range(T)
        for t in rng:
            h = a[:, t] * h + b[:, t]; ref[:, t] = h
        torch.testing.assert_close(torch.complex(hr, hi), ref, atol=1e-4, rtol=1e-4)

def check_reduce_dtypes():
    R, n = 4, 300
    x = torch.randint(-128, 128, (R, n), generator=g, dtype=torch.int8)
    s = torch.zeros(R); c = torch.zeros(R, n, dtype=torch.int32)
    K.reduce_dtypes_kernel[(R,)](x, s, c, n, BLOCK=512)
    torch.testing.assert_close(s, x.float().bfloat16().float().sum(1))
    assert torch.equal(c, x.int().cumsum(1).int())

def check_min_p():
    R, V, NT = 3, 300, 20
    lg = torch.randn(R, V, generator=g).bfloat16()
    toks = torch.randint(0, V, (R, NT), generator=g, dtype=torch.int32); toks[1, 5:] = -1
    counts = torch.zeros(R, V, dtype=torch.int32)
    temps = torch.tensor([0.7, 1.0, 1.3]); minp = torch.tensor([0.05, 0.1, 0.0])
    probs = torch.zeros(R, V)
    K.min_p_penalty_kernel[(R,)](lg, toks, counts, temps, minp, probs, V, NT, V, 1.2, 0.1, 0.3, BLOCK_V=512, BLOCK_T=32)
    cnt = torch.zeros(R, V, dtype=torch.int32)
    for r in range(R):
        for t in toks[r]:
            if t >= 0: cnt[r, t] += 1
    assert torch.equal(counts, cnt)
    l = lg.float(); seen = cnt > 0
    l = torch.where(seen, torch.where(l > 0, l / 1.2, l * 1.2), l) - 0.1 * cnt - 0.3 * seen.float()
    p = torch.softmax(l / temps[:, None], -1)
    p = torch.where(p < minp[:, None] * p.max(-1, keepdim=True).values, 0.0, p)
    p = p / p.sum(-1, keepdim=True)
    torch.testing.assert_close(probs, p)


def check_chunk_o():
    H, Kd, V, BT = 2, 32, 32, 16
    scale = Kd ** -0.5
    lens = [37, 16, 5, 30]
    Ttot = sum(lens)
    q = torch.randn(Ttot, H, Kd, generator=g).half(); k = torch.randn(Ttot, H, Kd, generator=g).half(); v = torch.randn(Ttot, H, V, generator=g).half()
    graw = -torch.rand(Ttot, H, generator=g) * 0.2
    gcs, os_, hs, cidx = [], [], [], []
    s0 = 0
    for n, L in enumerate(lens):
        gc = graw[s0:s0 + L].clone()
        for c0 in range(0, L, BT):
            gc[c0:c0 + BT] = gc[c0:c0 + BT].cumsum(0)
            cidx.append((n, c0 // BT))
        o, h = ref_chunk(q[s0:s0 + L], k[s0:s0 + L], v[s0:s0 + L], gc, scale, BT)
        gcs.append(gc); os_.append(o); hs.append(h); s0 += L
    gc = torch.cat(gcs); oref = torch.cat(os_); h = torch.cat(hs)  # [NT, H, K, V]
    cu = torch.tensor([0] + list(torch.tensor(lens).cumsum(0)), dtype=torch.int32)
    ci = torch.tensor(cidx, dtype=torch.int32).flatten()
    o = torch.zeros(Ttot, H, V).half()
    K.chunk_fwd_o_kernel[(V // 16, len(cidx), H)](q, k, v, h.contiguous(), gc, o, cu, ci, scale, Ttot, H=H, K=Kd, V=V, BT=BT, BK=16, BV=16)
    torch.testing.assert_close(o.float(), oref, atol=2e-2, rtol=2e-2)
    # fixed length: batch of 2 sequences of 40
    B, T = 2, 40
    q2, k2, v2 = q[:B * T], k[:B * T], v[:B * T]
    gc2 = graw[:B * T].clone().view(B, T, H)
    o2r, h2 = [], []
    for b in range(B):
        for c0 in range(0, T, BT):
            gc2[b, c0:c0 + BT] = gc2[b, c0:c0 + BT].cumsum(0)
        ob, hb = ref_chunk(q2[b * T:(b + 1) * T], k2[b * T:(b + 1) * T], v2[b * T:(b + 1) * T], gc2[b], scale, BT)
        o2r.append(ob); h2.append(hb)
    o2 = torch.zeros(B * T, H, V).half()
    NT = triton.cdiv(T, BT)
    K.chunk_fwd_o_kernel[(V // 16, NT, B * H)](q2, k2, v2, torch.cat(h2).contiguous(), gc2.contiguous(), o2, None, None, scale, T, H=H, K=Kd, V=V, BT=BT, BK=16, BV=16)
    torch.testing.assert_close(o2.float(), torch.cat(o2r), atol=2e-2, rtol=2e-2)

def check_unsloth_rms():
    M, N = 6, 100
    for gemma, dt in ((False, torch.float16), (True, torch.bfloat16)):
        x = torch.randn(M, 128, generator=g).to(dt); w = torch.randn(N, generator=g).to(dt)
        y = torch.zeros(M, N, dtype=dt); r = torch.zeros(M)
        K.unsloth_rms_fwd_kernel[(M,)](y, N, x, 128, w, 1, r, 1, n_cols=N, eps=1e-6, BLOCK_SIZE=128, GEMMA=gemma)
        xf = x[:, :N].float(); rs = torch.rsqrt(xf.pow(2).mean(1) + 1e-6)
        torch.testing.assert_close(r, rs, atol=1e-5, rtol=1e-5)
        if gemma:
            ref = xf * rs[:, None] * (w.float() + 1)
        else:
            ref = (xf * rs[:, None]).to(dt).float() * w.float()
        torch.testing.assert_close(y.float(), ref.to(dt).float(), atol=2e-2, rtol=2e-2)

def check_host_desc():
    from tritonc.tools.tensor_descriptor import TensorDescriptor
    def hook(nargs):
        BM, BN, BK = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["BLOCK_K"]
        nargs["a_desc"].block_shape = [BM, BK]
        nargs["b_desc"].block_shape = [BK, BN]
        nargs["c_desc"].block_shape = [BM, BN]
    kern = triton.autotune([triton.Config({"BLOCK_M": bm, "BLOCK_N": 32, "BLOCK_K": 32}, pre_hook=hook) for bm in (32, 64)], key=["M", "N", "K"])(K.host_desc_matmul_kernel)
    M, N, Kd = 96, 64, 80
    a = torch.randn(M, Kd, generator=g).half(); b = torch.randn(Kd, N, generator=g).half(); c = torch.zeros(M, N).half()
    dummy = [1, 1]
    ad = TensorDescriptor.from_tensor(a, dummy); bd = TensorDescriptor.from_tensor(b, dummy); cd = TensorDescriptor.from_tensor(c, dummy)
    kern[lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))](ad, bd, cd, M, N, Kd)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=2e-2, rtol=2e-3)


def e4m3_table():
    """The value of each e4m3 (fn) code: 4 exponent bits (bias 7), 3 mantissa
    bits, subnormals, S.1111.111 NaN."""
    vals = []
    for code in range(256):
        s, e, m = code >> 7, (code >> 3) & 15, code & 7
        v = float("nan") if (e == 15 and m == 7) else (m * 2.0 ** -9 if e == 0 else (8 + m) * 2.0 ** (e - 10))
        vals.append(-v if s else v)
    return torch.tensor(vals, dtype=torch.float64)


def check_kv_write():
    # fp8 KV-cache write: slot -1 skipped, codes are the nearest e4m3 values
    T, H, D, PAGE, NB = 9, 2, 48, 4, 6
    k = torch.randn(T, H * D, generator=g).bfloat16()
    v = torch.randn(T, H * D, generator=g).bfloat16()
    kc = torch.full((NB, PAGE, H, D), 7, dtype=torch.uint8)
    vc = kc.clone()
    slots = torch.randperm(NB * PAGE, generator=g)[:T]
    slots[3] = -1
    ks, vs = torch.tensor([0.5]), torch.tensor([2.0])
    K.kv_cache_write_fp8_kernel[(T,)](k, v, triton.reinterpret(kc, tl.float8e4nv), triton.reinterpret(vc, tl.float8e4nv),
                                      slots, ks, vs, k.stride(0), kc.stride(0), H=H, D=D, PAGE=PAGE)
    table = e4m3_table()
    finite = torch.isfinite(table)
    for cache, src, sc in ((kc, k, 0.5), (vc, v, 2.0)):
        flat = cache.view(NB * PAGE, H * D)
        written = torch.zeros(NB * PAGE, dtype=torch.bool)
        for t in range(T):
            if slots[t] < 0:
                continue
            written[slots[t]] = True
            want = src[t].double() / sc
            dist = (table[finite][None, :] - want[:, None]).abs()
            best = dist.min(1).values
            got = table[flat[slots[t]].long()]
            assert ((got - want).abs() <= best + 1e-12).all(), t
        assert (flat[~written] == 7).all()


def check_sink_attn():
    T, HQ, HKV, D = 70, 4, 2, 32
    q = torch.randn(T, HQ, D, generator=g).bfloat16(); k = torch.randn(T, HKV, D, generator=g).bfloat16(); v = torch.randn(T, HKV, D, generator=g).bfloat16()
    sinks = torch.randn(HQ, generator=g)
    scale = D ** -0.5
    for W in (0, 20):
        o = torch.zeros(T, HQ, D).bfloat16()
        K.sink_window_attn_kernel[(triton.cdiv(T, 16), HQ)](q, k, v, sinks, o, scale, T, HQ=HQ, HKV=HKV, D=D, WINDOW=W, BLOCK_M=16, BLOCK_N=16)
        kk = k.float().repeat_interleave(HQ // HKV, 1); vv = v.float().repeat_interleave(HQ // HKV, 1)
        s = torch.einsum("thd,shd->hts", q.float(), kk) * scale
        i = torch.arange(T)
        ok = i[:, None] >= i[None, :]
        if W: ok &= (i[:, None] - i[None, :]) < W
        s = s.masked_fill(~ok, float("-inf"))
        s = torch.cat([s, sinks[:, None, None].expand(HQ, T, 1)], -1)
        p = s.softmax(-1)[..., :-1]
        ref = torch.einsum("hts,shd->thd", p, vv)
        torch.testing.assert_close(o.float(), ref, atol=2e-2, rtol=2e-2)

def check_mla():
    B, H, R, P, PAGE = 3, 10, 64, 16, 16
    lens = torch.tensor([5, 40, 33], dtype=torch.int32)
    npages = 12
    ckv = torch.randn(npages * PAGE, R, generator=g).half(); kpe = torch.randn(npages * PAGE, P, generator=g).half()
    bt = torch.randperm(npages, generator=g)[:9].view(3, 3).int()
    qn = torch.randn(B, H, R, generator=g).half(); qp = torch.randn(B, H, P, generator=g).half()
    o = torch.zeros(B, H, R)
    sc = (R + P) ** -0.5
    K.mla_decode_kernel[(B, triton.cdiv(H, 16))](qn, qp, ckv, kpe, bt, lens, o, sc, bt.stride(0), H=H, R=R, P=P, PAGE=PAGE, BLOCK_H=16, BLOCK_N=16)
    for b in range(B):
        L = lens[b].item(); n = torch.arange(L)
        slot = bt[b, n // PAGE].long() * PAGE + n % PAGE
        c = ckv[slot].float(); kp = kpe[slot].float()
        s = (qn[b].float() @ c.T + qp[b].float() @ kp.T) * sc
        ref = s.softmax(-1) @ c
        torch.testing.assert_close(o[b], ref, atol=2e-2, rtol=2e-2)

def check_mxfp4():
    R, KP, GROUP = 13, 32, 32
    w = torch.randint(0, 256, (R, KP), generator=g, dtype=torch.uint8)
    s = torch.randint(118, 136, (R, 2 * KP // GROUP), generator=g, dtype=torch.uint8)
    out = torch.zeros(R, 2 * KP).bfloat16()
    K.mxfp4_dequant_kernel[(triton.cdiv(R, 8),)](w, s, out, R, K_PACKED=KP, GROUP=GROUP, BLOCK_R=8)
    lut = torch.tensor([0, .5, 1, 1.5, 2, 3, 4, 6, -0., -.5, -1, -1.5, -2, -3, -4, -6])
    nib = torch.stack([w & 15, w >> 4], -1).view(R, 2 * KP).long()
    ref = lut[nib] * (2.0 ** (s.float() - 127)).repeat_interleave(GROUP, 1)
    assert torch.equal(out.float(), ref.bfloat16().float())

def check_state_passing():
    B, C, H, DS = 2, 5, 3, 40
    st = torch.randn(B, C, H, DS, generator=g); dA = -torch.rand(B, H, C, generator=g)
    init = torch.randn(B, H, DS, generator=g)
    for has in (False, True):
        out = torch.zeros(B, C, H, DS); fin = torch.zeros(B, H, DS)
        K.ssd_state_passing_kernel[(B, H, triton.cdiv(DS, 32))](st, dA, init if has else None, out, fin, C, H=H, DS=DS, HAS_INIT=has, BLOCK=32)
        s = init.clone() if has else torch.zeros(B, H, DS)
        for c in range(C):
            torch.testing.assert_close(out[:, c], s)
            s = dA[:, :, c].exp()[..., None] * s + st[:, c]
        torch.testing.assert_close(fin, s)


def check_ce():
    N, V = 6, 1000
    for ls, cap, red in ((0.1, 0.0, "mean"), (0.0, 30.0, "sum"), (0.2, 15.0, "mean")):
        lg = (torch.randn(N, V, generator=g) * 4).bfloat16()
        y = torch.randint(0, V, (N,), generator=g); y[2] = -100
        nv = torch.tensor([(y != -100).sum().item()], dtype=torch.int32)
        x = lg.float().requires_grad_()
        xc = cap * torch.tanh(x / cap) if cap else x
        lo = torch.nn.functional.cross_entropy(xc, y, ignore_index=-100, label_smoothing=ls, reduction="none")
        if red == "mean": lo = lo / nv.item()
        lo.sum().backward()
        loss = torch.zeros(N); lgk = lg.clone()
        K.ce_smooth_kernel[(N,)](lgk, V, y, loss, nv, V, -100, ls, cap, BLOCK_V=256, HAS_SOFTCAP=cap > 0, REDUCTION=red)
        torch.testing.assert_close(loss, lo.detach(), atol=1e-4, rtol=1e-4)
        torch.testing.assert_close(lgk.float(), x.grad.bfloat16().float(), atol=1e-3, rtol=1e-2)

def check_add_rms():
    M, N = 11, 300
    x = torch.randn(M, 512, generator=g).bfloat16(); res = torch.randn(M, N, generator=g).bfloat16(); w = torch.randn(N, generator=g).bfloat16()
    s = (x[:, :N] + res)
    sf = s.float(); ref = (sf * torch.rsqrt(sf.pow(2).mean(1, keepdim=True) + 1e-6)).bfloat16() * w
    K.fused_add_rmsnorm_rows_kernel[(triton.cdiv(M, 4),)](x, res, w, M, N, 1e-6, 512, N, BLOCK_N=512, ROWS=4)
    assert torch.equal(res, s)
    torch.testing.assert_close(x[:, :N].float(), ref.float(), atol=2e-2, rtol=1e-2)


def check_edges():
    n, B = 20, 32
    x = torch.randn(n, generator=g)
    o = torch.zeros(7 * B)
    K.edges_kernel[(1,)](x, o, n, 3 * 2**31, BLOCK=B)
    o = o.view(7, B)[:, :n]
    torch.testing.assert_close(o[0], x.abs()); torch.testing.assert_close(o[1], x.clamp(min=0.5)); torch.testing.assert_close(o[2], x.clamp(max=-0.5))
    torch.testing.assert_close(o[3], torch.arange(n).float())
    assert (o[4] == n).all()
    torch.testing.assert_close(o[5], (x > 0).float().cumsum(0))
    torch.testing.assert_close(o[6], (torch.arange(n, dtype=torch.float64) * 3 * 2**31 // 1024).float())

def check_dot_f16():
    a = torch.randn(16, 32, generator=g).half(); b = torch.randn(32, 16, generator=g).half(); c = torch.zeros(16, 16).half()
    K.dot_f16_out_kernel[(1,)](a, b, c, M=16, N=16, K=32)
    torch.testing.assert_close(c.float(), a.float() @ b.float(), atol=3e-2, rtol=1e-2)

def check_bp_reverse():
    M, N = 10, 70
    x = torch.randn(M, N, generator=g); o = torch.full((M, N), 99.0)
    K.block_ptr_reverse_kernel[(triton.cdiv(M, 8),)](x, o, M, N, BM=8, BN=32)
    nb = triton.cdiv(N, 32)
    xp = torch.full((M, nb * 32), -1.0); xp[:, :N] = x
    ref = torch.cat([xp[:, (nb - 1 - j) * 32:(nb - j) * 32].flip(1) for j in range(nb)], 1)[:, :N]
    torch.testing.assert_close(o, ref)


def check_compact():
    n = 1000
    x = torch.randn(n, generator=g)
    for act in ("relu", "leaky", "none"):
        out = torch.full((n,), 99.0); idx = torch.full((n,), -1, dtype=torch.int64); cnt = torch.zeros(1, dtype=torch.int32)
        flags = torch.zeros(n, dtype=torch.bool)
        K.compact_kernel[(triton.cdiv(n, 128),)](x, out, idx, cnt, flags, n, 0.3, BLOCK=128, ACT=act)
        c = cnt.item()
        sel = (x > 0.3)
        assert torch.equal(flags, sel)
        assert c == sel.sum().item()
        order = idx[:c].argsort()
        assert torch.equal(idx[:c][order], sel.nonzero().flatten())
        torch.testing.assert_close(out[:c][order], x[sel])

def check_rowmax():
    M, N = 5, 50
    x = torch.randint(-5, 5, (M, N), generator=g).float()
    shapes = (8, 20, 50)
    v = torch.zeros(M, 3); i = torch.zeros(M, 3, dtype=torch.int32)
    K.rowmax_keep_kernel[(M,)](x, v, i, M, N, SHAPES=shapes, BN=64)
    for s, w in enumerate(shapes):
        vv, ii = x[:, :w].max(1)
        first = (x[:, :w] == vv[:, None]).int().argmax(1)
        assert torch.equal(v[:, s], vv) and torch.equal(i[:, s].long(), first), (s, v[:, s], vv, i[:, s], first)

def check_warmup():
    x = torch.randn(10, generator=g)
    k = K.compact_kernel.warmup(x, x, torch.zeros(10, dtype=torch.int64), torch.zeros(1, dtype=torch.int32),
                                torch.zeros(10, dtype=torch.bool), 10, 0.5, BLOCK=128, ACT="relu", grid=(1,))
    assert "ttir" in k.asm


def check_desc3d():
    B, M, N = 3, 40, 48
    x = torch.randn(B, M, N, generator=g).half()
    y = torch.zeros(B, N, M).half()
    K.desc3d_kernel[(B, triton.cdiv(M, 16))](x, y, B, M, N, BM=16, BN=32)
    assert torch.equal(y, (x * 2).transpose(1, 2))


def check_py_idioms():
    # `...` as a statement was "'...' (Ellipsis) is not supported"
    n = 200
    x = torch.randn(n, generator=g)
    y = torch.zeros(n)
    K.py_idioms_kernel[(triton.cdiv(n, 64),)](x, y, n)
    ref = torch.cat([x[i:i + 64] * (2.0 if x[i] > 0 else -2.0) + 1 for i in range(0, n, 64)])
    torch.testing.assert_close(y, ref)
    K.py_idioms_kernel[(triton.cdiv(n, 32),)](x, y, n, 0.5, shift=3, BLOCK=32)
    ref = torch.cat([x[i:i + 32] * (0.5 if x[i] > 0 else -0.5) + 3 for i in range(0, n, 32)])
    torch.testing.assert_close(y, ref)


@triton.jit
def _fast_exp_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, fexp(tl.load(x_ptr + offs, mask=m)), mask=m)


def check_aliased_triton_modules():
    # `import triton.X` under the alias is tritonc.X itself, not a copy
    import triton.language.extra.libdevice as ld
    import triton.language.core as core
    from triton.runtime.jit import JITFunction
    from tritonc.language.extra import libdevice
    assert ld is libdevice and core is tl.core and JITFunction is triton.JITFunction
    assert ld.__spec__.name == "tritonc.language.extra.libdevice"
    # the builtin bound under a module-level `if`: was "name 'fexp' is not defined"
    x = torch.randn(50, generator=g)
    y = torch.zeros(50)
    _fast_exp_kernel[(1,)](x, y, 50, BLOCK=64)
    torch.testing.assert_close(y, x.exp())


def _prune(configs, named_args, **kwargs):
    n = named_args["n"]
    return [c for c in configs if c.kwargs["BLOCK"] <= max(64, triton.next_power_of_2(n))]


_hooks = []


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w, num_stages=2, pre_hook=lambda nargs, b=b: _hooks.append(b))
             for b, w in ((64, 2), (128, 4), (1024, 8))],
    key=["n"], prune_configs_by={"early_config_prune": _prune}, reset_to_zero=["acc_ptr"], restore_value=["x_ptr"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def _accum_kernel(x_ptr, acc_ptr, n, scale, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(acc_ptr, tl.sum(x, 0) * scale)
    if EVEN:
        tl.store(x_ptr + offs, x * 2)
    else:
        tl.store(x_ptr + offs, x * 2, mask=offs < n)


def check_autotune_host_api():
    # prune_configs_by, reset_to_zero and restore_value around benchmarking
    # runs that accumulate and write in place; heuristics under autotune; a
    # grid lambda over META; pre_hooks
    for n in (100, 1000, 4096):
        x = torch.randn(n, generator=g)
        x0 = x.clone()
        acc = torch.zeros(1)
        _accum_kernel[lambda META: (triton.cdiv(n, META["BLOCK"]),)](x, acc, n, 0.5)
        torch.testing.assert_close(acc, (x0.sum() * 0.5).reshape(1), atol=1e-3, rtol=1e-4)
        torch.testing.assert_close(x, x0 * 2)
        if n == 100:
            assert _accum_kernel.best_config.kwargs["BLOCK"] in (64, 128)
    assert _hooks


def check_big_offsets_and_empty_grids():
    n = 300
    out = torch.zeros(n, dtype=torch.int64)
    x = torch.zeros(n, dtype=torch.int32)
    K.big_offset_kernel[(triton.cdiv(n, 128),)](x, out, n, 3 * 2**31 + 7, 2**20, BLOCK=128)
    assert torch.equal(out, torch.arange(n) * 2**20 + 3 * 2**31 + 7)
    assert torch.equal(x.long(), torch.arange(n) * 2**20)
    e = torch.zeros(0, dtype=torch.int64)
    K.big_offset_kernel[(0,)](x, e, 0, 5, 1, BLOCK=128)
    K.big_offset_kernel[(triton.cdiv(0, 128), 1, 1)](x, e, 0, 5, 1, BLOCK=128)
    K.big_offset_kernel[lambda META: (0,)](x, e, 0, -2**40, 1, BLOCK=128)


def check_strided_views():
    base = torch.randn(40, 90, generator=g).bfloat16()
    for x in (base.t(), base[::3, 1::2], base.t()[5:]):
        y = torch.empty_like(x.t()).t()  # column-major output
        M, N = x.shape
        K.strided_copy_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 32))](x, y, M, N, *x.stride(), *y.stride(),
                                                                           BM=16, BN=32)
        assert torch.equal(y, x * 3)


def check_mixed_scalars():
    n = 10
    bmask = torch.rand(n, generator=g) > 0.5
    out = torch.zeros(n, dtype=torch.float64)
    K.mixed_scalar_kernel[(1,)](out, True, np.int64(-3_000_000_000), np.float32(0.25), 2**63 + 1, bmask, n, BLOCK=16)
    ref = torch.where(bmask, torch.tensor(-3_000_000_000 + 0.25, dtype=torch.float64),
                      torch.tensor(-1.0, dtype=torch.float64)) + float(2**63 + 1)
    torch.testing.assert_close(out, ref)
    K.mixed_scalar_kernel[(1,)](out, False, 7, 0.5, 1, bmask, n, BLOCK=16)
    torch.testing.assert_close(out, torch.where(bmask, 7.5, -1.0).double())


def check_inline_asm_is_gpu_only():
    # the multi-output pack=4 asm compiles to PTX (the ptxas suite); on the
    # CPU it is an error that says so (CPU tensors named as such: the GPU
    # harness, bench/gpu/python_tests_on_cuda.sh, makes tensors on CUDA by
    # default, where the asm runs)
    x = torch.zeros(8, dtype=torch.uint8, device="cpu")
    try:
        K.asm_unpack_kernel[(1,)](x, x, x, torch.zeros(8, device="cpu"), 8, BLOCK=256)
    except triton.CompilationError as e:
        assert "inline" in str(e), e
    else:
        raise AssertionError("inline asm ran on the CPU")


if __name__ == "__main__":
    names = sorted(k for k in globals() if k.startswith("check_"))
    for name in names:
        globals()[name]()
        print("ok", name)
    print("ok: %d checks" % len(names))
