# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/sequence_models.py (recurrent and
state-space sequence kernels in the style of mamba, causal-conv1d,
flash-linear-attention and RWKV), each checked against torch computing the
same thing another way, mostly a step-by-step loop in float64: Mamba's
selective scan run sequentially and by chunks with an associative scan;
causal conv1d with initial and final states, and its decoding update;
RWKV-4's WKV in log space; chunked retention and chunked linear attention
with decays against the quadratic form; S4D's Vandermonde kernel against
complex arithmetic; chunk-local cumulative sums (reversed, packed
sequences); Mamba-2's intra-chunk term; a beam-search step against
torch.topk; CTC loss against F.ctc_loss; Viterbi decoding. Fresh random
inputs, ragged sizes, outputs poisoned first. Only torch functions make
the tensors, so the script runs on CUDA too."""
import math
import os
import sys

import torch
import torch.nn.functional as F

import tritonc as triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("sequence_models")

GEN = torch.Generator().manual_seed(777)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def rand(*shape, dtype=torch.float32):
    return torch.rand(*shape, generator=GEN).to(dtype)


def randint(lo, hi, shape, dtype=torch.int64):
    return torch.randint(lo, hi, shape, generator=GEN).to(dtype)


def poison(shape, dtype, like):
    if dtype.is_floating_point:
        return torch.full(shape, float("nan"), dtype=dtype, device=like.device)
    return torch.full(shape, 77, dtype=dtype, device=like.device)


def close(got, want, tol, what):
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    got, want = got.double(), want.double()
    gn, wn = torch.isnan(got), torch.isnan(want)
    assert torch.equal(gn, wn), "%s: NaN at %d places, want %d" % (what, gn.sum().item(), wn.sum().item())
    got, want = torch.where(gn, torch.zeros_like(got), got), torch.where(wn, torch.zeros_like(want), want)
    gi, wi = torch.isinf(got), torch.isinf(want)
    assert torch.equal(gi, wi) and torch.equal(got[gi], want[wi]), "%s: infinities differ" % what
    got, want = torch.where(gi, torch.zeros_like(got), got), torch.where(wi, torch.zeros_like(want), want)
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def dot_tol(tol, dtype, like):
    """fp32 tl.dot is tf32 on the GPU (Triton's default input_precision)."""
    return max(tol, 1e-2) if dtype == torch.float32 and like.device.type == "cuda" else tol


def same(got, want, what):
    assert got.shape == want.shape and got.dtype == want.dtype, \
        "%s: %s %s, want %s %s" % (what, tuple(got.shape), got.dtype, tuple(want.shape), want.dtype)
    bad = (got != want).nonzero()
    assert bad.numel() == 0, "%s: %d differences, first at %s: %s, want %s" % (
        what, bad.shape[0], bad[0].tolist(), got[tuple(bad[0])].item(), want[tuple(bad[0])].item())


def scan_ref(u, dt, A, Bm, Cm, D=None, z=None):
    """u, dt: [b, d, L] float64 (dt already through softplus); A [d, n]; B, C [b, n, L]."""
    b, d, L = u.shape
    h = torch.zeros(b, d, A.shape[1], dtype=torch.float64, device=u.device)
    ys = []
    for t in range(L):
        h = torch.exp(dt[:, :, t, None] * A) * h + (dt[:, :, t] * u[:, :, t])[:, :, None] * Bm[:, None, :, t]
        y = (h * Cm[:, None, :, t]).sum(-1)
        if D is not None:
            y = y + D * u[:, :, t]
        if z is not None:
            y = y * F.silu(z[:, :, t])
        ys.append(y)
    return torch.stack(ys, -1), h


def check_selective_scan():
    for dtype, Bsz, DIM, L, N, has_z, sp, bd, tol in (
            (torch.float32, 2, 37, 29, 16, True, True, 16, 1e-5),
            (torch.bfloat16, 1, 20, 41, 8, False, True, 32, 2e-2),
            (torch.float16, 3, 9, 17, 4, True, False, 8, 3e-3)):
        # u and delta are views into wider buffers: a non-unit time stride
        u = randn(Bsz, L, DIM + 3, dtype=dtype)[:, :, :DIM].transpose(1, 2)
        delta = (rand(Bsz, L, DIM + 3) * (0.5 if sp else 0.3) + (-1.0 if sp else 0.01)).to(dtype)[:, :, :DIM]
        delta = delta.transpose(1, 2)
        A = -torch.exp(randn(DIM, N) * 0.5)
        Bm, Cm = randn(Bsz, N, L, dtype=dtype), randn(Bsz, N, L, dtype=dtype)
        Dv = randn(DIM)
        z = randn(Bsz, L, DIM + 3, dtype=dtype)[:, :, :DIM].transpose(1, 2)
        bias = randn(DIM) * 0.1
        out = poison((Bsz, L, DIM + 3), dtype, u)[:, :, :DIM].transpose(1, 2)
        last = poison((Bsz, DIM, N), torch.float32, u)
        K.selective_scan_fwd_kernel[(Bsz, triton.cdiv(DIM, bd))](
            u, delta, A, Bm, Cm, Dv, z, bias, out, last, L, DIM,
            u.stride(0), u.stride(1), u.stride(2), Bm.stride(0), Bm.stride(1), Bm.stride(2),
            DSTATE=N, HAS_Z=has_z, DELTA_SOFTPLUS=sp, BLOCK_D=bd)
        dt = delta.double() + bias.double()[None, :, None]
        if sp:
            dt = F.softplus(dt)
        want, h = scan_ref(u.double(), dt, A.double(), Bm.double(), Cm.double(), Dv.double(),
                           z.double() if has_z else None)
        close(out, want, tol, "selective scan %s" % dtype)
        close(last, h, tol, "selective scan last state %s" % dtype)


def check_selective_scan_chunked():
    for dtype, Bsz, DIM, L, N, bl, bd, tol in (
            (torch.float32, 2, 24, 45, 16, 16, 16, 1e-5),
            (torch.float16, 1, 40, 70, 8, 32, 16, 3e-3),
            (torch.float32, 2, 7, 8, 4, 8, 8, 1e-5)):
        u = randn(Bsz, L, DIM, dtype=dtype)
        delta = (randn(Bsz, L, DIM) * 0.5 - 1.0).to(dtype)
        A = -torch.exp(randn(DIM, N) * 0.5)
        Bm, Cm = randn(Bsz, L, N, dtype=dtype), randn(Bsz, L, N, dtype=dtype)
        out = poison((Bsz, L, DIM), dtype, u)
        K.selective_scan_chunked_kernel[(Bsz, triton.cdiv(DIM, bd))](
            u, delta, A, Bm, Cm, out, L, DIM, DSTATE=N, BLOCK_L=bl, BLOCK_D=bd)
        want, _ = scan_ref(u.double().transpose(1, 2), F.softplus(delta.double()).transpose(1, 2), A.double(),
                           Bm.double().transpose(1, 2), Cm.double().transpose(1, 2))
        close(out, want.transpose(1, 2), tol, "chunked selective scan %s L=%d" % (dtype, L))


def conv1d_ref(x, w, bias, init, silu):
    Bsz, D, L = x.shape
    W = w.shape[1]
    pre = init if init is not None else torch.zeros(Bsz, D, W - 1, dtype=x.dtype, device=x.device)
    xx = torch.cat([pre, x], -1)
    y = F.conv1d(xx, w[:, None, :], bias, groups=D)
    return (F.silu(y) if silu else y), xx[:, :, -(W - 1):] if W > 1 else xx[:, :, :0]


def check_causal_conv1d():
    for dtype, Bsz, D, L, W, has_init, silu, bd, bl, tol in (
            (torch.float32, 2, 30, 53, 4, True, True, 16, 32, 1e-5),
            (torch.float16, 3, 64, 20, 3, False, False, 32, 16, 2e-3),
            (torch.bfloat16, 1, 17, 2, 4, True, True, 8, 64, 2e-2)):    # L < WIDTH-1: the state reaches back
        x = randn(Bsz, L, D, dtype=dtype).transpose(1, 2)              # channels-last input
        w = randn(D, W, dtype=dtype) * 0.5
        b = randn(D, dtype=dtype)
        init = randn(Bsz, D, W - 1, dtype=dtype)
        out = poison((Bsz, L, D), dtype, x).transpose(1, 2)
        fin = poison((Bsz, D, W - 1), dtype, x)
        K.causal_conv1d_fwd_kernel[(triton.cdiv(L, bl), triton.cdiv(D, bd), Bsz)](
            x, w, b, init, out, fin, D, L, x.stride(0), x.stride(1), x.stride(2),
            WIDTH=W, HAS_INIT=has_init, SILU=silu, BLOCK_D=bd, BLOCK_L=bl)
        want, want_fin = conv1d_ref(x.double(), w.double(), b.double(), init.double() if has_init else None, silu)
        close(out, want, tol, "causal conv1d %s W=%d" % (dtype, W))
        close(fin, want_fin, 0, "causal conv1d final state %s" % dtype)


def check_causal_conv1d_update():
    for dtype, Bsz, D, S, W, silu, bd, tol in (
            (torch.float32, 3, 50, 1, 4, True, 32, 1e-5),
            (torch.float16, 2, 33, 3, 3, False, 16, 2e-3),
            (torch.float32, 1, 20, 5, 2, True, 64, 1e-5)):
        x = randn(Bsz, D, S, dtype=dtype)
        state = randn(Bsz, D, W - 1, dtype=dtype)
        w = randn(D, W, dtype=dtype) * 0.5
        b = randn(D, dtype=dtype)
        out = poison((Bsz, D, S), dtype, x)
        want, want_state = conv1d_ref(x.double(), w.double(), b.double(), state.double(), silu)
        K.causal_conv1d_update_kernel[(Bsz, triton.cdiv(D, bd))](
            x, state, w, b, out, D, S, KERNEL_WIDTH=W, SILU=silu, BLOCK_D=bd)
        close(out, want, tol, "conv1d update %s W=%d" % (dtype, W))
        close(state, want_state, 0, "conv1d update state %s W=%d" % (dtype, W))


def wkv_ref(w, u, k, v, state):
    Bsz, T, C = k.shape
    w = -torch.exp(w)
    aa, bb, pp = state[:, 0], state[:, 1], state[:, 2]
    ys = []
    for t in range(T):
        kk, vv = k[:, t], v[:, t]
        ww = u + kk
        p = torch.maximum(pp, ww)
        e1, e2 = torch.exp(pp - p), torch.exp(ww - p)
        ys.append((e1 * aa + e2 * vv) / (e1 * bb + e2))
        ww = w + pp
        p = torch.maximum(ww, kk)
        e1, e2 = torch.exp(ww - p), torch.exp(kk - p)
        aa, bb, pp = e1 * aa + e2 * vv, e1 * bb + e2, p
    return torch.stack(ys, 1), torch.stack([aa, bb, pp], 1)


def check_wkv():
    for dtype, Bsz, T, C, has_state, bc, tol in (
            (torch.float32, 2, 33, 70, False, 32, 1e-5),
            (torch.bfloat16, 3, 20, 48, True, 64, 2e-2),
            (torch.float16, 1, 64, 17, True, 16, 3e-3)):
        w, u = randn(C) * 0.5, randn(C) * 0.5
        k, v = randn(Bsz, T, C, dtype=dtype) * 3, randn(Bsz, T, C, dtype=dtype)
        state = torch.stack([randn(Bsz, C), rand(Bsz, C) + 0.5, randn(Bsz, C)], 1) if has_state else \
            torch.stack([torch.zeros(Bsz, C), torch.zeros(Bsz, C), torch.full((Bsz, C), -1e38)], 1)
        st = state.clone() if has_state else poison((Bsz, 3, C), torch.float32, k)
        y = poison((Bsz, T, C), dtype, k)
        K.wkv_fwd_kernel[(Bsz, triton.cdiv(C, bc))](w, u, k, v, y, st, T, C, HAS_STATE=has_state, BLOCK_C=bc)
        want, want_st = wkv_ref(w.double(), u.double(), k.double(), v.double(), state.double())
        close(y, want, tol, "wkv %s" % dtype)
        close(st[:, :2], want_st[:, :2] * torch.exp(st[:, 2:] - want_st[:, 2:]).double(), 1e-4,
              "wkv state aa, bb %s" % dtype)
        if not has_state:
            # the quadratic form: y_t = (sum_{i<t} e^{-(t-1-i)e^w + k_i} v_i + e^{u+k_t} v_t) / (same, v = 1)
            kd, vd = k.double(), v.double()
            tt = torch.arange(T, dtype=torch.float64, device=k.device)
            dec = (tt[:, None] - 1 - tt[None, :])[None, :, :, None] * -torch.exp(w.double())
            lw = torch.where((tt[:, None] > tt[None, :])[None, :, :, None], dec + kd[:, None, :, :],
                             torch.full_like(dec, float("-inf")))
            lw = torch.cat([lw, (u.double() + kd)[:, :, None, :]], 2)
            vv = torch.cat([vd[:, None].expand(Bsz, T, T, C), vd[:, :, None]], 2)
            m = lw.amax(2, keepdim=True)
            quad = (torch.exp(lw - m) * vv).sum(2) / torch.exp(lw - m).sum(2)
            close(y, quad, tol, "wkv against the quadratic form")


def retention_ref(q, k, v, scale):
    Bsz, H, T, _ = q.shape
    hs = torch.arange(H, dtype=torch.float64, device=q.device)
    gamma = 1 - 2.0 ** (-5 - hs)
    tt = torch.arange(T, dtype=torch.float64, device=q.device)
    diff = tt[:, None] - tt[None, :]
    D = torch.where(diff >= 0, gamma[:, None, None] ** diff.clamp(min=0), torch.zeros_like(diff))
    return ((q @ k.transpose(-1, -2)) * scale * D) @ v


def check_chunk_retention():
    for dtype, Bsz, H, T, DK, DV, BT, BV, tol in (
            (torch.float16, 2, 3, 100, 32, 64, 32, 32, 5e-3),
            (torch.bfloat16, 1, 4, 64, 16, 40, 16, 16, 3e-2),
            (torch.float32, 1, 2, 37, 16, 16, 16, 16, 1e-4)):
        q, k, v = randn(Bsz, H, T, DK, dtype=dtype), randn(Bsz, H, T, DK, dtype=dtype), randn(Bsz, H, T, DV, dtype=dtype)
        o = poison((Bsz, H, T, DV), dtype, q)
        scale = DK ** -0.5
        K.chunk_retention_fwd_kernel[(triton.cdiv(DV, BV), Bsz * H)](q, k, v, o, T, scale, H=H, DK=DK, DV=DV,
                                                                     BT=BT, BV=BV)
        want = retention_ref(q.double(), k.double(), v.double(), scale)
        close(o, want, dot_tol(tol, dtype, q), "retention %s T=%d" % (dtype, T))


def check_chunk_gla():
    for dtype, BH, T, Kd, Vd, BT, store, tol in (
            (torch.float16, 3, 90, 32, 32, 32, True, 5e-3),
            (torch.bfloat16, 2, 64, 16, 64, 16, True, 3e-2),
            (torch.float32, 2, 50, 16, 16, 16, False, 1e-4)):
        q, k, v = randn(BH, T, Kd, dtype=dtype), randn(BH, T, Kd, dtype=dtype), randn(BH, T, Vd, dtype=dtype)
        g = -rand(BH, T) * 0.3          # log decays in float32
        o = poison((BH, T, Vd), dtype, q)
        ht = poison((BH, Kd, Vd), torch.float32, q)
        scale = Kd ** -0.5
        K.chunk_gla_fwd_kernel[(BH,)](q, k, v, g, o, ht, T, scale, K=Kd, V=Vd, BT=BT, STORE_FINAL_STATE=store)
        gc = g.double().cumsum(1)
        causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
        dec = torch.where(causal, torch.exp(gc[:, :, None] - gc[:, None, :]), torch.zeros(1, dtype=torch.float64,
                                                                                          device=q.device))
        want = ((q.double() @ k.double().transpose(1, 2)) * scale * dec) @ v.double()
        tol = dot_tol(tol, dtype, q)
        close(o, want, tol, "chunked linear attention %s" % dtype)
        if store:
            wh = (k.double() * torch.exp(gc[:, -1:] - gc)[:, :, None]).transpose(1, 2) @ v.double()
            close(ht, wh, tol, "chunked linear attention final state %s" % dtype)
        else:
            assert torch.isnan(ht).all().item(), "final state written without STORE_FINAL_STATE"


def check_s4d_kernel():
    for H, N, L, bl in ((3, 32, 200, 64), (2, 16, 37, 128)):
        log_dt = rand(H) * (math.log(0.1) - math.log(0.001)) + math.log(0.001)
        A_re = torch.full((H, N), -0.5)
        A_im = math.pi * torch.arange(N).float().expand(H, N).contiguous()
        C_re, C_im = randn(H, N) * 0.5, randn(H, N) * 0.5
        kout = poison((H, L), torch.float32, A_re)
        K.s4d_kernel_kernel[(triton.cdiv(L, bl), H)](log_dt, A_re, A_im, C_re, C_im, kout, L, N=N, BLOCK_L=bl)
        A = torch.complex(A_re.double(), A_im.double())
        C = torch.complex(C_re.double(), C_im.double())
        dtA = torch.exp(log_dt.double())[:, None] * A
        Cp = C * (torch.exp(dtA) - 1) / A
        ls = torch.arange(L, dtype=torch.float64, device=A_re.device)
        want = 2 * (Cp[:, :, None] * torch.exp(dtA[:, :, None] * ls)).sum(1).real
        close(kout, want, 2e-4, "S4D kernel N=%d L=%d" % (N, L))


def check_chunk_local_cumsum():
    for dtype, odtype, Bsz, T, H, BT, rev, varlen in (
            (torch.float32, torch.float32, 2, 50, 3, 16, False, False),
            (torch.float16, torch.float32, 3, 33, 2, 8, True, False),
            (torch.float32, torch.float32, 1, 0, 4, 16, True, True),
            (torch.bfloat16, torch.float32, 1, 0, 1, 32, False, True)):
        if varlen:
            lens = [5, 40, 1, 17, 33]
            cu = torch.tensor([0] + lens).cumsum(0)
            T = int(cu[-1])
            chunks = [(i, c) for i, n in enumerate(lens) for c in range(triton.cdiv(n, BT))]
            chunk_idx = torch.tensor(chunks, dtype=torch.int32)
            s = randn(1, T, H, dtype=dtype)
            grid = (len(chunks), H)
            cu_t = cu.to(torch.int32)
        else:
            s = randn(Bsz, T, H, dtype=dtype)
            grid = (triton.cdiv(T, BT), Bsz * H)
            cu_t = chunk_idx = None
        o = poison(tuple(s.shape), odtype, s)
        K.chunk_local_cumsum_kernel[grid](s, o, cu_t, chunk_idx, T, H=H, BT=BT, REVERSE=rev, IS_VARLEN=varlen)
        segs = [(int(cu[i]), int(cu[i + 1])) for i in range(len(lens))] if varlen else [(0, T)]
        want = torch.zeros(s.shape, dtype=torch.float64, device=s.device)
        sd = s.double()
        for bos, eos in segs:
            for c0 in range(bos, eos, BT):
                c1 = min(c0 + BT, eos)
                piece = sd[:, c0:c1]
                want[:, c0:c1] = piece.flip(1).cumsum(1).flip(1) if rev else piece.cumsum(1)
        close(o, want, 1e-5, "chunk-local cumsum reverse=%s varlen=%s" % (rev, varlen))


def check_ssd_intra():
    for dtype, Bsz, T, NH, P, N, BT, tol in (
            (torch.float16, 2, 70, 3, 32, 16, 32, 5e-3),
            (torch.float32, 1, 40, 2, 16, 32, 16, 1e-4),
            (torch.bfloat16, 2, 16, 1, 64, 16, 16, 3e-2)):
        x = randn(Bsz, T, NH, P, dtype=dtype)
        dt = (rand(Bsz, T, NH) * 0.2 + 0.01).to(dtype)
        A = -rand(NH) - 0.5
        Bm, Cm = randn(Bsz, T, N, dtype=dtype), randn(Bsz, T, N, dtype=dtype)
        y = poison((Bsz, T, NH, P), dtype, x)
        K.ssd_chunk_scan_intra_kernel[(triton.cdiv(T, BT), Bsz * NH)](x, dt, A, Bm, Cm, y, T, NHEADS=NH,
                                                                     HEADDIM=P, DSTATE=N, BT=BT)
        want = torch.zeros(Bsz, T, NH, P, dtype=torch.float64, device=x.device)
        for c0 in range(0, T, BT):
            c1 = min(c0 + BT, T)
            dtc = dt[:, c0:c1].double()                                  # [b, l, h]
            cs = (dtc * A.double()).cumsum(1)
            seg = cs[:, :, None, :] - cs[:, None, :, :]                 # [b, i, j, h]
            n = c1 - c0
            causal = torch.ones(n, n, dtype=torch.bool, device=x.device).tril()[None, :, :, None]
            dec = torch.where(causal, torch.exp(seg), torch.zeros_like(seg))
            cb = Cm[:, c0:c1].double() @ Bm[:, c0:c1].double().transpose(1, 2)  # [b, i, j]
            sc = cb[:, :, :, None] * dec * dtc[:, None, :, :]
            want[:, c0:c1] = torch.einsum("bijh,bjhp->bihp", sc, x[:, c0:c1].double())
        close(y, want, dot_tol(tol, dtype, x), "Mamba-2 intra-chunk %s" % dtype)


def check_beam_search_step():
    for dtype, Bsz, BEAM, V, TOPK, bv in (
            (torch.float32, 3, 4, 1000, 8, 1024),
            (torch.float16, 2, 2, 37, 4, 64),
            (torch.bfloat16, 1, 8, 200, 5, 256)):
        logits = randn(Bsz * BEAM, V, dtype=dtype) * 3
        prev = randn(Bsz, BEAM) * 2
        sc = poison((Bsz, TOPK), torch.float32, logits)
        bm = poison((Bsz, TOPK), torch.int32, logits)
        tk = poison((Bsz, TOPK), torch.int64, logits)
        K.beam_search_step_kernel[(Bsz,)](logits, prev, sc, bm, tk, V, BEAM=BEAM, TOPK=TOPK, BLOCK_V=bv)
        lp = torch.log_softmax(logits.double(), -1).view(Bsz, BEAM, V) + prev.double()[:, :, None]
        val, idx = lp.view(Bsz, -1).topk(TOPK, dim=1)
        close(sc, val, 1e-5, "beam scores %s" % dtype)
        same(bm, (idx // V).to(torch.int32), "beam indices %s" % dtype)
        same(tk, idx % V, "beam tokens %s" % dtype)


def check_ctc_loss():
    for T, N, C, S_max, blank, block in ((30, 4, 8, 9, 0, 32), (50, 3, 20, 12, 19, 32), (6, 2, 5, 5, 0, 16)):
        log_probs = torch.log_softmax(randn(T, N, C), -1)
        in_len = randint(T // 2, T + 1, (N,))
        in_len[0] = T
        tg_len = randint(1, S_max + 1, (N,))
        targets = randint(0, C - 1, (N, S_max))
        targets = torch.where(targets >= blank, targets + 1, targets)     # never the blank
        targets[0, :3] = targets[0, 0]                                   # repeats need a blank between
        if T == 6:
            tg_len[1] = 5       # 5 labels with repeats in too few steps: an impossible alignment (inf)
            targets[1] = targets[1, 0]
            in_len[1] = 6
        ws = poison((N, block), torch.float32, log_probs)
        loss = poison((N,), torch.float32, log_probs)
        K.ctc_loss_fwd_kernel[(N,)](log_probs, targets, in_len, tg_len, ws, loss, S_max,
                                    log_probs.stride(0), log_probs.stride(1), BLANK=blank, BLOCK_S=block)
        want = F.ctc_loss(log_probs.double(), targets, in_len, tg_len, blank=blank, reduction="none")
        close(loss, want, 1e-5, "CTC loss T=%d blank=%d" % (T, blank))


def check_viterbi():
    for Bsz, T, NT, bt in ((4, 25, 7, 8), (2, 40, 16, 16), (3, 9, 3, 32)):
        emis = randn(Bsz, T, NT)
        trans, start, end = randn(NT, NT), randn(NT), randn(NT)
        lengths = randint(1, T + 1, (Bsz,), dtype=torch.int32)
        lengths[0] = T
        lengths[-1] = 1
        hist = poison((Bsz, T, NT), torch.int32, emis)
        path = poison((Bsz, T), torch.int64, emis)
        score = poison((Bsz,), torch.float32, emis)
        K.viterbi_decode_kernel[(Bsz,)](emis, trans, start, end, lengths, hist, path, score, T, NT, BLOCK_TAGS=bt)
        for b in range(Bsz):
            n = int(lengths[b])
            s = start.double() + emis[b, 0].double()
            bps = []
            for t in range(1, n):
                cand = s[:, None] + trans.double()
                s, arg = cand.max(0)
                s = s + emis[b, t].double()
                bps.append(arg)
            s = s + end.double()
            best, tag = s.max(0)
            p = [int(tag)]
            for arg in reversed(bps):
                p.append(int(arg[p[-1]]))
            want = torch.tensor(p[::-1], dtype=torch.int64, device=emis.device)
            close(score[b:b + 1], best.reshape(1), 1e-5, "viterbi score b=%d" % b)
            same(path[b, :n], want, "viterbi path b=%d len=%d" % (b, n))
            same(path[b, n:], torch.full((T - n,), 77, dtype=torch.int64, device=emis.device),
                 "viterbi path past the length b=%d" % b)


failed = 0
for name, fn in list(globals().items()):
    if name.startswith("check_"):
        try:
            fn()
            print("ok", name)
        except Exception as e:  # noqa: BLE001  (report every check, then fail)
            failed += 1
            print("FAIL", name, "%s: %s" % (type(e).__name__, e))
print("%d checks failed" % failed if failed else "all sequence_models checks passed")
sys.exit(1 if failed else 0)
