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
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402
from torch_checks import close, generators, poison, run_checks, same  # noqa: E402

K = load_corpus("sequence_models")

randn, rand, randint = generators(777)


def dot_tol(tol, dtype, like):
    """fp32 tl.dot is tf32 on the GPU (Triton's default input_precision)."""
    return max(tol, 1e-2) if dtype == torch.float32 and like.device.type == "cuda" else tol


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
            u, delta, A, Bm, Cm, out, L, DIM, DSTATE=N, BLOCK_L=bl, BLOCK_D=bd, num_warps=8)
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
        K.beam_search_step_kernel[(Bsz,)](logits, prev, sc, bm, tk, V, BEAM=BEAM, TOPK=TOPK, BLOCK_V=bv,
                                          num_warps=8)
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
                                    log_probs.stride(0), log_probs.stride(1), BLANK=blank, BLOCK_S=block, num_warps=1)
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
        K.viterbi_decode_kernel[(Bsz,)](emis, trans, start, end, lengths, hist, path, score, T, NT, BLOCK_TAGS=bt,
                                        num_warps=2)
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


def check_segment_cumsum():
    for dtype, N, block in ((torch.float32, 1000, 128), (torch.float32, 77, 32), (torch.float32, 5, 16)):
        x = randn(N, dtype=dtype)
        starts = (rand(N) < 0.08).to(torch.int8)
        starts[0] = 1
        starts[min(block, N - 1)] = 1          # a segment starting exactly at a block boundary
        if N > 2 * block:
            starts[block + 1: 2 * block + 5] = 0   # one crossing a boundary
        nseg = int(starts.sum())
        y = poison((N,), dtype, x)
        tot = poison((nseg,), dtype, x)
        K.segment_cumsum_kernel[(1,)](x, starts, y, tot, N, BLOCK=block, num_warps=1)
        seg = starts.long().cumsum(0) - 1
        want = torch.zeros(N, dtype=torch.float64, device=x.device)
        sums = torch.zeros(nseg, dtype=torch.float64, device=x.device)
        xd = x.double()
        for i in range(N):
            want[i] = xd[i] if starts[i] else want[i - 1] + xd[i]
            sums[seg[i]] = want[i]
        close(y, want, 1e-5, "segmented cumsum N=%d" % N)
        close(tot, sums, 1e-5, "segment totals N=%d" % N)


def check_min_gru_log_scan():
    for Bsz, T, D, bt, bd in ((2, 50, 24, 16, 16), (1, 7, 40, 8, 32), (3, 64, 8, 64, 8)):
        gate = torch.sigmoid(randn(Bsz, T, D))
        hidden = randn(Bsz, T, D)
        log_coeff = torch.log(1 - gate)                     # log(1 - z_t)
        log_values = torch.log(gate) + torch.where(hidden >= 0, torch.log(F.relu(hidden) + 0.5),
                                                   -F.softplus(-hidden))   # log z_t + log g(h~_t)
        log_values[0, 3, :5] = float("-inf")                # a zero input
        h0 = rand(Bsz, D) + 0.1
        out = poison((Bsz, T, D), torch.float32, gate)
        K.min_gru_log_scan_kernel[(Bsz, triton.cdiv(D, bd))](log_coeff, log_values, torch.log(h0), out, T, D,
                                                             BLOCK_T=bt, BLOCK_D=bd, num_warps=2)
        h = h0.double()
        want = []
        for t in range(T):
            h = torch.exp(log_coeff[:, t].double()) * h + torch.exp(log_values[:, t].double())
            want.append(h)
        close(out, torch.stack(want, 1), 1e-5, "minGRU log-space scan T=%d" % T)


def check_delta_rule():
    for dtype, Bsz, T, H, Kd, Vd, BK, BV, l2, init, store, tol in (
            (torch.float32, 2, 30, 2, 32, 48, 32, 16, True, True, True, 1e-5),
            (torch.bfloat16, 1, 20, 3, 16, 16, 16, 16, False, False, True, 2e-2),
            (torch.float16, 2, 9, 1, 24, 40, 32, 64, True, True, False, 3e-3)):
        q, k = randn(Bsz, T, H, Kd, dtype=dtype), randn(Bsz, T, H, Kd, dtype=dtype)
        if not l2:
            k = (k.float() / k.float().norm(dim=-1, keepdim=True)).to(dtype)   # a stable recurrence
        v = randn(Bsz, T, H, Vd, dtype=dtype)
        beta = torch.sigmoid(randn(Bsz, T, H)).to(dtype)
        h0 = randn(Bsz * H, Kd, Vd) * 0.1
        o = poison((Bsz, T, H, Vd), dtype, q)
        ht = poison((Bsz * H, Kd, Vd), torch.float32, q)
        scale = Kd ** -0.5
        K.fused_recurrent_delta_rule_kernel[(triton.cdiv(Vd, BV), Bsz * H)](
            q, k, v, beta, o, h0, ht, scale, T, H=H, K=Kd, V=Vd, BK=BK, BV=BV,
            USE_QK_L2NORM=l2, USE_INITIAL_STATE=init, STORE_FINAL_STATE=store)
        qd, kd, vd, bd = q.double(), k.double(), v.double(), beta.double()
        if l2:
            qd = qd / torch.sqrt((qd * qd).sum(-1, keepdim=True) + 1e-6)
            kd = kd / torch.sqrt((kd * kd).sum(-1, keepdim=True) + 1e-6)
        S = h0.double().view(Bsz, H, Kd, Vd).clone() if init else torch.zeros(Bsz, H, Kd, Vd, dtype=torch.float64,
                                                                               device=q.device)
        want = []
        for t in range(T):
            kt, vt = kd[:, t], vd[:, t]                                   # [B, H, K], [B, H, V]
            u = (vt - torch.einsum("bhkv,bhk->bhv", S, kt)) * bd[:, t, :, None]
            S = S + kt[..., None] * u[..., None, :]
            want.append(torch.einsum("bhkv,bhk->bhv", S, qd[:, t] * scale))
        close(o, torch.stack(want, 1), tol, "delta rule %s" % dtype)
        if store:
            close(ht, S.view(Bsz * H, Kd, Vd), tol, "delta rule final state %s" % dtype)
        else:
            assert torch.isnan(ht).all().item(), "final state written without STORE_FINAL_STATE"


def check_gru_persistent():
    for dtype, dot_dtype, T, B, HID, bb, tol in ((torch.float32, tl.float32, 12, 37, 32, 16, 1e-5),
                                                (torch.bfloat16, tl.bfloat16, 9, 20, 16, 32, 3e-2)):
        gru = torch.nn.GRU(8, HID).double()
        x = randn(T, B, 8).double()
        h0 = randn(1, B, HID).double() * 0.5
        with torch.no_grad():
            want, _ = gru(x, h0)
            xw = (x @ gru.weight_ih_l0.T + gru.bias_ih_l0).to(dtype)
        w_hh, b_hh = gru.weight_hh_l0.float(), gru.bias_hh_l0.float()
        if dtype == torch.bfloat16:
            w_hh = w_hh.to(torch.bfloat16).float()
        out = poison((T, B, HID), dtype, x)
        K.gru_persistent_kernel[(triton.cdiv(B, bb),)](xw, w_hh.contiguous(), b_hh, h0[0].to(dtype), out, T, B,
                                                       HID=HID, BLOCK_B=bb, DOT_DTYPE=dot_dtype)
        close(out, want, tol, "persistent GRU %s" % dtype)


def check_top_p():
    for R, V, bv in ((6, 1000, 1024), (3, 50, 64)):
        logits = randn(R, V) * 3
        top_p = torch.tensor([0.9, 0.5, 0.0, 1.0, 0.99, 0.3][:R])
        temp = torch.tensor([1.0, 0.7, 1.3, 2.0, 0.5, 1.0][:R])
        out = poison((R, V), torch.float32, logits)
        K.top_p_filter_kernel[(R,)](logits, out, top_p, temp, V, V, BLOCK_V=bv, num_warps=8)
        x = logits.double() / temp.double()[:, None]
        p = torch.softmax(x, -1)
        sp, idx = p.sort(-1, descending=True)
        keep_sorted = (sp.cumsum(-1) - sp) < top_p.double()[:, None]
        keep_sorted[:, 0] = True
        keep = torch.zeros_like(keep_sorted).scatter(-1, idx, keep_sorted)
        want = torch.where(keep, x, torch.full_like(x, float("-inf")))
        close(out, want, 1e-5, "top-p filter")


def check_rnnt_loss():
    for Bsz, T, U, C, blank, bu in ((3, 12, 5, 6, 0, 8), (2, 20, 9, 11, 10, 16)):
        logits = torch.log_softmax(randn(Bsz, T, U + 1, C), -1)
        labels = randint(0, C - 1, (Bsz, U), dtype=torch.int32)
        labels = torch.where(labels >= blank, labels + 1, labels)
        in_len = randint(T // 2, T + 1, (Bsz,), dtype=torch.int32)
        in_len[0] = T
        lab_len = randint(1, U + 1, (Bsz,), dtype=torch.int32)
        lab_len[-1] = U
        alpha = poison((Bsz, T, U + 1), torch.float32, logits)
        loss = poison((Bsz,), torch.float32, logits)
        K.rnnt_loss_fwd_kernel[(Bsz,)](logits, labels, in_len, lab_len, alpha, loss, T, U, C, BLANK=blank,
                                       BLOCK_U=bu)
        for b in range(Bsz):
            Tb, Ub = int(in_len[b]), int(lab_len[b])
            lp = logits[b].double()
            a = torch.full((Tb, Ub + 1), float("-inf"), dtype=torch.float64)
            a[0, 0] = 0
            for t in range(Tb):
                for u in range(Ub + 1):
                    if t == 0 and u == 0:
                        continue
                    terms = []
                    if t > 0:
                        terms.append(a[t - 1, u] + lp[t - 1, u, blank])
                    if u > 0:
                        terms.append(a[t, u - 1] + lp[t, u - 1, labels[b, u - 1]])
                    a[t, u] = torch.logsumexp(torch.stack(terms), 0)
            want = -(a[Tb - 1, Ub] + lp[Tb - 1, Ub, blank])
            close(loss[b:b + 1], want.reshape(1), 1e-5, "RNN-T loss b=%d" % b)
            close(alpha[b, :Tb, :Ub + 1], a, 1e-5, "RNN-T alpha b=%d" % b)


def check_selective_state_update():
    for dtype, Bsz, nh, ng, dim, dstate, tie, has, bm, tol in (
            (torch.float32, 2, 4, 2, 40, 16, False, True, 16, 1e-5),
            (torch.bfloat16, 3, 2, 1, 64, 12, False, False, 32, 2e-2),
            (torch.float16, 1, 6, 3, 24, 8, True, True, 8, 3e-3)):
        state = randn(Bsz, nh, dim, dstate)
        x = randn(Bsz, nh, dim, dtype=dtype)
        if tie:
            dt = (randn(Bsz, nh, 1) * 0.5).to(dtype).expand(Bsz, nh, dim)
            dt_bias = (randn(nh, 1) * 0.1).expand(nh, dim)
            A = (-torch.exp(randn(nh, 1, 1))).expand(nh, dim, dstate)
        else:
            dt, dt_bias = (randn(Bsz, nh, dim) * 0.5).to(dtype), randn(nh, dim) * 0.1
            A = -torch.exp(randn(nh, dim, dstate))
        Bm, Cm = randn(Bsz, ng, dstate, dtype=dtype), randn(Bsz, ng, dstate, dtype=dtype)
        D, z = randn(nh, dim), randn(Bsz, nh, dim, dtype=dtype)
        out = poison((Bsz, nh, dim), dtype, x)
        st = state.clone()
        args = [st, x, dt, dt_bias if has else None, A, Bm, Cm, D if has else None, z if has else None, out,
                Bsz, nh, dim, dstate, nh // ng, *st.stride(), *x.stride(), *dt.stride()]
        args += list(dt_bias.stride()) if has else [0, 0]
        args += [*A.stride(), *Bm.stride(), *Cm.stride()]
        args += list(D.stride()) if has else [0, 0]
        args += list(z.stride()) if has else [0, 0, 0]
        args += list(out.stride())
        K.selective_state_update_kernel[(triton.cdiv(dim, bm), Bsz, nh)](*args, DT_SOFTPLUS=True, TIE_HDIM=tie,
                                                                         BLOCK_SIZE_M=bm)
        dtd = dt.double() + (dt_bias.double() if has else 0)
        dtd = F.softplus(dtd)
        rep = nh // ng
        Bd = Bm.double().repeat_interleave(rep, 1)
        Cd = Cm.double().repeat_interleave(rep, 1)
        ws = state.double() * torch.exp(A.double() * dtd[..., None]) + Bd[:, :, None, :] * dtd[..., None] * \
            x.double()[..., None]
        wo = (ws * Cd[:, :, None, :]).sum(-1)
        if has:
            wo = (wo + x.double() * D.double()) * F.silu(z.double())
        close(st, ws, tol, "state update state %s tie=%s" % (dtype, tie))
        close(out, wo, tol, "state update out %s tie=%s" % (dtype, tie))


def check_searchsorted():
    for dtype, R, M, N, right, block in ((torch.float32, 3, 100, 257, False, 64), (torch.float32, 2, 1, 40, True, 16),
                                        (torch.float16, 1, 1000, 77, True, 128), (torch.float32, 2, 37, 5, False, 8)):
        bnd = randn(R, M).sort(-1).values.to(dtype)
        vals = (randn(R, N) * 1.2).to(dtype)
        vals[0, :3] = bnd[0, :3]                                  # exact hits: left and right differ
        out = poison((R, N), torch.int64, vals)
        K.searchsorted_kernel[(triton.cdiv(N, block), R)](bnd, vals, out, M, N, M, N, RIGHT=right, BLOCK=block,
                                                          num_warps=1)
        same(out, torch.searchsorted(bnd, vals, right=right), "searchsorted M=%d right=%s" % (M, right))


def check_vandermonde_complex():
    for H, N, L, bl in ((3, 16, 100, 32), (2, 64, 33, 64)):
        dtA = torch.complex(-rand(H, N) * 0.2 - 0.01, randn(H, N))
        C = torch.complex(randn(H, N), randn(H, N))
        k = torch.full((H, L), complex(float("nan"), float("nan")), dtype=torch.complex64, device=dtA.device)
        K.vandermonde_complex_kernel[(triton.cdiv(L, bl), H)](torch.view_as_real(dtA), torch.view_as_real(C),
                                                              torch.view_as_real(k), L, N=N, BLOCK_L=bl)
        ls = torch.arange(L, dtype=torch.float64, device=dtA.device)
        want = (C.to(torch.complex128)[:, :, None] * torch.exp(dtA.to(torch.complex128)[:, :, None] * ls)).sum(1)
        close(torch.view_as_real(k), torch.view_as_real(want), 1e-4, "complex Vandermonde N=%d" % N)


def check_gae():
    for T, E, bt, be in ((50, 37, 16, 16), (7, 5, 8, 8), (128, 64, 32, 64)):
        r, v = randn(T, E), randn(T + 1, E)
        dones = (rand(T, E) < 0.05).to(torch.uint8)
        gamma, lam = 0.99, 0.95
        adv = poison((T, E), torch.float32, r)
        ret = poison((T, E), torch.float32, r)
        K.gae_kernel[(triton.cdiv(E, be),)](r, v, dones, adv, ret, T, E, gamma, lam, BLOCK_T=bt, BLOCK_E=be)
        rd, vd, nd = r.double(), v.double(), 1 - dones.double()
        a = torch.zeros(E, dtype=torch.float64, device=r.device)
        want = torch.zeros(T, E, dtype=torch.float64, device=r.device)
        for t in reversed(range(T)):
            delta = rd[t] + gamma * vd[t + 1] * nd[t] - vd[t]
            a = delta + gamma * lam * nd[t] * a
            want[t] = a
        close(adv, want, 1e-5, "GAE advantages T=%d" % T)
        close(ret, want + vd[:T], 1e-5, "GAE returns T=%d" % T)


def check_topk_packed_sort():
    for R, N, k, block in ((4, 1000, 8, 1024), (3, 33, 4, 64), (2, 16, 16, 16)):
        x = randn(R, N)
        x[0, :5] = 7.0                     # ties: the lower indices first
        x[1, 3] = float("inf")
        x[1, 4] = -0.0
        x[1, 5] = 0.0
        if R > 2:
            x[2, :] = -x[2, :].abs()       # all negative
        vals = poison((R, k), torch.float32, x)
        idx = poison((R, k), torch.int64, x)
        K.topk_packed_sort_kernel[(R,)](x, vals, idx, N, N, K=k, BLOCK=block)
        # torch.topk does not promise an order among ties: the stable sort does
        want_idx = torch.sort(x, dim=-1, descending=True, stable=True).indices[:, :k]
        same(idx, want_idx, "packed-sort top-k indices N=%d" % N)
        same(vals, x.gather(1, want_idx), "packed-sort top-k values N=%d" % N)


def check_long_conv_toeplitz():
    for dtype, Bsz, T, H, D, BT, BS, tol in ((torch.float16, 2, 100, 3, 32, 32, 32, 5e-3),
                                             (torch.bfloat16, 1, 64, 2, 16, 16, 32, 3e-2),
                                             (torch.float32, 2, 37, 2, 16, 16, 16, 1e-4)):
        u = randn(Bsz, T, H, D, dtype=dtype)
        k = (randn(H, T) * torch.exp(-0.05 * torch.arange(T).float())).contiguous()
        y = poison((Bsz, T, H, D), dtype, u)
        K.long_conv_toeplitz_kernel[(triton.cdiv(T, BT), Bsz * H)](u, k, y, T, H, D=D, BT=BT, BS=BS)
        kk = k.to(dtype).double() if dtype != torch.float32 else k.double()
        tt = torch.arange(T, device=u.device)
        lag = tt[:, None] - tt[None, :]
        toe = torch.where(lag >= 0, kk[:, lag.clamp(min=0)], torch.zeros(1, dtype=torch.float64, device=u.device))
        want = torch.einsum("hts,bshd->bthd", toe, u.double())
        close(y, want, dot_tol(tol, dtype, u), "Toeplitz long conv %s" % dtype)


run_checks(globals(), "sequence_models")
