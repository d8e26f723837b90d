# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/llm_training.py (Liger-Kernel / unsloth
style training kernels) on the CPU, each checked against torch computing
the same thing another way, mostly through autograd in float64: a fused
cross entropy with label smoothing, z-loss, softcapping and ignored rows;
SwiGLU and GeGLU backward; RoPE on q and k; fused residual add + RMSNorm in
three casting modes and its backward; layer norm backward behind a spin
lock; KL divergence; group norm; dropout + residual; an atomic embedding
backward; a generalised JSD for three betas; a softcap with NaN and inf.
Fresh random inputs, ragged sizes, outputs poisoned with NaN first. Only
torch functions make the tensors, so the script runs on CUDA too."""
import os
import sys

import torch
import torch.nn.functional as F

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402
from torch_checks import run_checks  # noqa: E402

K = load_corpus("llm_training")

GEN = torch.Generator().manual_seed(2024)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def rand(*shape):
    return torch.rand(*shape, generator=GEN)


def randint(lo, hi, shape):
    return torch.randint(lo, hi, shape, generator=GEN)


def nan_like(x, dtype=None):
    return torch.full_like(x, float("nan"), dtype=dtype)


def close(got, want, tol, what):
    got, want = got.double(), want.double()
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    assert not torch.isnan(got).any().item() or torch.isnan(want).any().item(), "%s: NaN in the result" % what
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def num_warps(block):
    """What the training libraries launch a row of this many columns with."""
    return 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4


def check_cross_entropy():
    for dtype, V, ls, zs, cap, red, block, tol in (
            (torch.float32, 3001, 0.1, 1e-3, 0.0, "mean", 1024, 1e-5),
            (torch.float32, 700, 0.0, 0.0, 0.0, "mean", 1024, 1e-5),
            (torch.bfloat16, 5003, 0.05, 1e-4, 30.0, "sum", 2048, 2e-2),
            (torch.float32, 50257, 0.0, 1e-4, 0.0, "sum", 32768, 1e-5),
            (torch.bfloat16, 32000, 0.1, 0.0, 0.0, "mean", 8192, 2e-2)):
        R, ignore = (9 if V < 10000 else 4), -100
        x = (randn(R, V) * 8).to(dtype)
        y = randint(0, V, (R,))
        y[2] = ignore
        y[R - 2] = ignore
        y[0] = V - 1
        n_non_ignore = int((y != ignore).sum().item())
        loss = torch.full((R,), float("nan"), device=x.device)
        zloss = torch.full((R,), float("nan"), device=x.device)
        xin = x.clone()
        softcapping = cap > 0
        K.cross_entropy_online_kernel[(R,)](
            xin, xin.stride(0), y, y.stride(0), loss, zloss, loss.stride(0), V, n_non_ignore, ignore,
            ls, zs, cap if softcapping else 1.0, RETURN_Z_LOSS=not softcapping,
            HAS_SOFTCAPPING=softcapping, REDUCTION=red, BLOCK_SIZE=block, num_warps=num_warps(block))
        # the same loss from torch in float64, its gradient from autograd
        xr = x.double().requires_grad_()
        z = cap * torch.tanh(xr / cap) if softcapping else xr
        lse = torch.logsumexp(z, 1)
        keep = y != ignore
        zy = z.gather(1, y.clamp(min=0)[:, None])[:, 0]
        per_row = (1 - ls) * (lse - zy) + ls * (lse - z.mean(1)) + zs * lse * lse
        per_row = torch.where(keep, per_row, torch.zeros_like(per_row))
        if red == "mean":
            per_row = per_row / n_non_ignore
        per_row.sum().backward()
        what = "cross entropy %s V=%d" % (str(dtype)[6:], V)
        close(loss, per_row.detach(), tol, what + " loss")
        close(xin, xr.grad, tol, what + " gradient")
        if not softcapping:
            zl = torch.where(keep, zs * lse * lse, torch.zeros_like(lse)).detach()
            close(zloss, zl / n_non_ignore if red == "mean" else zl, tol, what + " z-loss")


def check_swiglu():
    for R, N, stride in ((5, 1300, 1400), (3, 17, 32)):
        buf = randn(3, R, stride).bfloat16()
        a, b, c = buf[0, :, :N], buf[1, :, :N], buf[2, :, :N]
        c.fill_(float("nan"))
        K.swiglu_forward_kernel[(R,)](a, b, c, stride, N, BLOCK_SIZE=512, num_warps=2)
        close(c, (F.silu(a.float()).bfloat16() * b), 1e-2, "swiglu forward %dx%d" % (R, N))
        dc = randn(R, stride).bfloat16()[:, :N]
        ar = a.double().requires_grad_()
        br = b.double().requires_grad_()
        (F.silu(ar) * br * dc.double()).sum().backward()
        K.swiglu_backward_kernel[(R,)](dc, a, b, stride, N, BLOCK_SIZE=2048, num_warps=8)
        close(a, ar.grad, 2e-2, "swiglu da %dx%d" % (R, N))
        close(b, br.grad, 2e-2, "swiglu db %dx%d" % (R, N))
        assert torch.isnan(buf[2, :, N:]).sum().item() == 0, "swiglu wrote past n_cols"


def check_geglu_tanh_backward():
    for R, N in ((4, 1000), (2, 33), (3, 9000)):
        a, b, dc = (randn(R, N) * 2).half(), randn(R, N).half(), randn(R, N).half()
        c = nan_like(a)
        ar = a.double().requires_grad_()
        br = b.double().requires_grad_()
        out = F.gelu(ar, approximate="tanh") * br
        (out * dc.double()).sum().backward()
        a_in, b_in = a.clone(), b.clone()
        block = triton.next_power_of_2(N)
        K.geglu_tanh_backward_kernel[(R,)](dc, a_in, b_in, c, N, N, BLOCK_SIZE=block, num_warps=num_warps(block))
        close(c, out.detach(), 5e-3, "geglu recomputed forward")
        close(a_in, ar.grad, 5e-3, "geglu da")
        close(b_in, br.grad, 5e-3, "geglu db")


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), -1)


def check_rope():
    for dtype, n_qh, n_kh, hd, bh, backward, tol in ((torch.float16, 8, 2, 64, 32, False, 2e-3),
                                                     (torch.float32, 5, 1, 24, 16, True, 1e-5)):
        bsz, sl = 3, 7
        q = randn(bsz * sl, n_qh * hd).to(dtype)
        k = randn(bsz * sl, n_kh * hd).to(dtype)
        theta = rand(sl, hd // 2) * 6.3
        cos_half, sin_half = torch.cos(theta), torch.sin(theta)
        cos = torch.cat((cos_half, cos_half), -1).contiguous()
        sin = torch.cat((sin_half, sin_half), -1).contiguous()
        qo, ko = q.clone(), k.clone()
        K.rope_qk_kernel[(bsz * sl,)](qo, qo.stride(0), ko, ko.stride(0), cos, cos.stride(0),
                                      sin, sin.stride(0), sl, bsz, n_qh=n_qh, n_kh=n_kh, hd=hd,
                                      BLOCK_HALF=bh, BACKWARD_PASS=backward)
        c = cos.double().repeat(bsz, 1)[:, None, :]
        s = sin.double().repeat(bsz, 1)[:, None, :] * (-1 if backward else 1)
        for got, x, nh, name in ((qo, q, n_qh, "q"), (ko, k, n_kh, "k")):
            xd = x.double().reshape(bsz * sl, nh, hd)
            ref = (xd * c + rotate_half(xd) * s).reshape(bsz * sl, nh * hd)
            close(got, ref, tol, "rope %s %s backward=%s" % (name, str(dtype)[6:], backward))


def check_fused_add_rms_norm():
    for mode, dtype, N, block, offset in (("llama", torch.bfloat16, 1000, 1024, 0.0),
                                          ("gemma", torch.bfloat16, 777, 1024, 1.0),
                                          ("none", torch.float32, 200, 256, 0.5)):
        R, eps = 6, 1e-6
        x, r, w = randn(R, N).to(dtype), randn(R, N).to(dtype), (randn(N) * 0.1 + 1).to(dtype)
        y, s = nan_like(x), nan_like(x)
        rstd = torch.full((R,), float("nan"), device=x.device)
        K.fused_add_rms_norm_fwd_kernel[(R,)](y, y.stride(0), s, s.stride(0), x, x.stride(0),
                                              r, r.stride(0), w, rstd, N, eps, offset,
                                              CASTING_MODE=mode, BLOCK_SIZE=block, num_warps=num_warps(block))
        s_ref = x + r
        assert torch.equal(s, s_ref), "fused add (%s): residual sum" % mode
        sf = s_ref.double()
        rstd_ref = torch.rsqrt(sf.pow(2).mean(1) + eps)
        close(rstd, rstd_ref, 1e-5, "rms norm rstd (%s)" % mode)
        normed = sf * rstd_ref[:, None]
        if mode == "llama":
            normed = normed.to(dtype).double()
        ref = normed * (offset + w.double())
        close(y, ref, 1e-2 if dtype == torch.bfloat16 else 1e-5, "rms norm y (%s)" % mode)


def check_rms_norm_backward():
    for R, N, rpp in ((10, 1000, 3), (4, 50, 4), (7, 300, 1), (5, 4000, 2)):
        offset, eps = 1.0, 1e-6
        x = randn(R, N).bfloat16()
        w = (randn(N) * 0.1).bfloat16()
        dy = randn(R, N).bfloat16()
        ds_out = randn(R, N).bfloat16()
        rstd = torch.rsqrt(x.float().pow(2).mean(1) + eps)
        n_prog = triton.cdiv(R, rpp)
        dx = nan_like(x)
        dw = torch.full((n_prog, N), float("nan"), device=x.device)
        K.rms_norm_bwd_partial_kernel[(n_prog,)](
            dy, dy.stride(0), ds_out, ds_out.stride(0), dx, dx.stride(0), x, x.stride(0), w, rstd,
            dw, dw.stride(0), R, N, offset, rpp, HAS_DS_OUT=True, BLOCK_SIZE=max(1024, triton.next_power_of_2(N)),
            num_warps=num_warps(N))
        xr = x.double().requires_grad_()
        wr = w.double().requires_grad_()
        yr = xr * torch.rsqrt(xr.pow(2).mean(1, keepdim=True) + eps) * (offset + wr)
        (yr * dy.double()).sum().backward()
        close(dx, xr.grad + ds_out.double(), 2e-2, "rms norm dx R=%d" % R)
        close(dw.sum(0), wr.grad, 1e-3, "rms norm dw R=%d" % R)


def check_layer_norm_backward_locked():
    for R, N, rpp, group in ((37, 200, 3, 4), (5, 256, 1, 4), (64, 17, 2, 4)):
        eps = 1e-5
        x = (randn(R, N) * 2 + 1).bfloat16()
        w = (randn(N) + 1).bfloat16()
        dy = randn(R, N).bfloat16()
        xf = x.float()
        mean = xf.mean(1)
        rstd = torch.rsqrt(xf.var(1, unbiased=False) + eps)
        dx = nan_like(x)
        dw = torch.zeros(group, N, device=x.device)
        db = torch.zeros(group, N, device=x.device)
        lock = torch.zeros(group, dtype=torch.int32, device=x.device)
        n_prog = triton.cdiv(R, rpp)
        K.layer_norm_bwd_locked_kernel[(n_prog,)](x, w, dy, dx, mean, rstd, dw, db, lock, x.stride(0),
                                                  R, N, rpp, GROUP_SIZE=group, BLOCK_SIZE_N=256)
        xr = x.double().requires_grad_()
        wr = w.double().requires_grad_()
        br = torch.zeros(N, dtype=torch.float64, device=x.device, requires_grad=True)
        (F.layer_norm(xr, (N,), wr, br, eps) * dy.double()).sum().backward()
        close(dx, xr.grad, 2e-2, "layer norm dx R=%d" % R)
        close(dw.sum(0), wr.grad, 1e-3, "layer norm dw (locked) R=%d" % R)
        close(db.sum(0), br.grad, 1e-4, "layer norm db (locked) R=%d" % R)
        assert torch.equal(lock, torch.zeros_like(lock)), "locks released"


def check_kl_div():
    for log_target, red in ((False, "batchmean"), (True, "none")):
        R, N = 6, 1111
        y_pred = torch.log_softmax(randn(R, N) * 3, 1)
        p = torch.softmax(randn(R, N) * 3, 1)
        p[:, ::7] = 0.0
        y_true = torch.log_softmax(randn(R, N), 1) if log_target else p
        loss = torch.full((R, N) if red == "none" else (R,), float("nan"), device=y_pred.device)
        grad = nan_like(y_pred)
        scale = 1.0 / R if red == "batchmean" else 1.0
        K.kl_div_fwd_bwd_kernel[(R,)](y_pred, y_pred.stride(0), y_true, y_true.stride(0), loss, grad,
                                      N, scale, LOG_TARGET=log_target, REDUCTION=red, BLOCK_SIZE=512,
                                      num_warps=1 if log_target else 8)
        yr = y_pred.double().requires_grad_()
        ref = F.kl_div(yr, y_true.double(), reduction="none", log_target=log_target)
        if red != "none":
            ref = ref.sum(1)
        (ref.sum() * scale).backward()
        close(loss, ref.detach(), 1e-5, "kl div loss log_target=%s" % log_target)
        close(grad, yr.grad, 1e-6, "kl div grad log_target=%s" % log_target)


def check_group_norm_2d():
    for B, G, cpg, H in ((3, 4, 3, 300), (2, 2, 4, 128), (1, 5, 1, 7)):
        C = G * cpg
        x = randn(B, C, H) * 3 + 1
        w, b = randn(C), randn(C)
        y = nan_like(x)
        mean = torch.full((B * G,), float("nan"), device=x.device)
        rstd = torch.full((B * G,), float("nan"), device=x.device)
        K.group_norm_2d_fwd_kernel[(B * G,)](x, y, w, b, mean, rstd, G, cpg, H, 1e-5, BLOCK_C=4, BLOCK_HW=128)
        close(y, F.group_norm(x.double(), G, w.double(), b.double(), 1e-5), 1e-4,
              "group norm (%d,%d,%d,%d)" % (B, G, cpg, H))
        close(mean, x.double().reshape(B * G, -1).mean(1), 1e-5, "group norm mean")


def check_dropout_add_residual():
    n, p = 5003, 0.3
    x, res = randn(n).half(), randn(n).half()
    outs = []
    for seed in (1234, 1234, 99):
        out = nan_like(x)
        keep = torch.full((n,), 7, dtype=torch.int8, device=x.device)
        K.dropout_add_residual_kernel[(triton.cdiv(n, 1024),)](x, res, out, keep, n, p, seed, BLOCK_SIZE=1024)
        assert ((keep == 0) | (keep == 1)).all().item(), "keep mask is 0/1"
        kept = keep.bool()
        frac = kept.float().mean().item()
        assert abs(frac - (1 - p)) < 0.03, "dropout keeps %.3f, want about %.2f" % (frac, 1 - p)
        ref = res.float() + torch.where(kept, x.float() / (1 - p), torch.zeros_like(x.float()))
        close(out, ref, 2e-3, "dropout + residual")
        outs.append(keep)
    assert torch.equal(outs[0], outs[1]), "same seed, same mask"
    assert not torch.equal(outs[0], outs[2]), "another seed, another mask"


def check_embedding_backward():
    for T, D, V in ((77, 100, 13), (5, 64, 1000)):
        stride = D + 3
        idx = randint(0, V, (T,))
        g = randn(T, D)
        gw = torch.zeros(V, stride, device=g.device)
        K.embedding_backward_kernel[(triton.cdiv(T, 16), triton.cdiv(D, 64))](g, idx, gw, T, D, stride,
                                                                              BLOCK_N=16, BLOCK_D=64)
        ref = torch.zeros(V, D, dtype=torch.float64, device=g.device).index_add_(0, idx, g.double())
        close(gw[:, :D], ref, 1e-5, "embedding backward T=%d" % T)
        assert torch.equal(gw[:, D:], torch.zeros_like(gw[:, D:])), "embedding backward: padding"


def check_jsd():
    R, N, ignore = 7, 1500, -100
    for beta in (0.0, 1.0, 0.5, 0.3):
        x = torch.log_softmax(randn(R, N) * 2, 1)
        y = torch.log_softmax(randn(R, N) * 2, 1)
        label = randint(0, N, (R,))
        label[3] = ignore
        n_non_ignore = int((label != ignore).sum().item())
        loss = nan_like(x)
        dx = nan_like(x)
        K.jsd_kernel[(R,)](x, x.stride(0), y, y.stride(0), loss, loss.stride(0), dx, dx.stride(0), label,
                           beta, n_non_ignore, ignore, N, HAS_LABEL=True, BLOCK_SIZE=1024, num_warps=16)
        xr = x.double().requires_grad_()
        yd = y.double()
        q, pp = xr.exp(), yd.exp()
        if beta == 0.0:
            ref = pp * (yd - xr)
        elif beta == 1.0:
            ref = q * (xr - yd)
        else:
            m = beta * pp + (1 - beta) * q
            ref = beta * pp * (yd - m.log()) + (1 - beta) * q * (xr - m.log())
        keep = (label != ignore)[:, None]
        ref = torch.where(keep, ref, torch.zeros_like(ref)) / n_non_ignore
        ref.sum().backward()
        close(loss, ref.detach(), 1e-5, "jsd loss beta=%g" % beta)
        close(dx, xr.grad, 1e-5, "jsd dx beta=%g" % beta)


def check_softcap():
    n, cap, slope = 1500, 5.0, 0.01
    for mode, dtype, tol in (("tanh", torch.float32, 1e-6), ("clip", torch.bfloat16, 1e-2)):
        x = (randn(n) * 8).to(dtype)
        x[:4] = torch.tensor([float("nan"), float("inf"), float("-inf"), 0.0])
        out, grad = nan_like(x), torch.zeros_like(x)
        K.softcap_where_kernel[(triton.cdiv(n, 512),)](x, out, grad, n, cap, slope, MODE=mode, BLOCK_SIZE=512)
        xd = x.double()
        if mode == "tanh":
            ref = cap * torch.tanh(xd / cap)
            gref = 1 - torch.tanh(xd / cap) ** 2
        else:
            ref = torch.clamp(xd, max=cap)
            ref = torch.where(xd < -cap, -cap + slope * (xd + cap), ref)
            gref = torch.where(xd > cap, 0.0, torch.where(xd < -cap, slope, 1.0))
        assert torch.isnan(out[0]).item() and torch.isnan(grad[0]).item(), "softcap (%s): NaN passes" % mode
        assert out[1].item() == cap, "softcap (%s): +inf -> cap, got %s" % (mode, out[1].item())
        want_ninf = -cap if mode == "tanh" else float("-inf")
        assert out[2].item() == want_ninf, "softcap (%s): -inf -> %s, got %s" % (mode, want_ninf, out[2].item())
        close(out[3:], ref[3:], tol, "softcap (%s)" % mode)
        close(grad[3:], gref[3:], tol, "softcap grad (%s)" % mode)


def check_ce_forward_unsloth_style():
    for V, scale, cap in ((3000, 0.5, 30.0), (5000, 1.0, 0.0)):
        R = 6
        x = (randn(R, V) * 6).bfloat16()
        lab = randint(0, V, (R,))
        lab[1] = -100
        loss = torch.full((R,), float("nan"), device=x.device)
        lse = torch.full((R,), float("nan"), device=x.device)
        block = triton.next_power_of_2(V)
        K.ce_forward_unsloth_style[(R,)](x, x.stride(0), loss, lse, lab, VOCAB_SIZE=V, BLOCK_SIZE=block,
                                         DO_SOFTCAPPING=cap, SOFTCAP=cap, DO_LOGIT_SCALING=scale != 1.0,
                                         LOGIT_SCALE=scale, num_warps=num_warps(block))
        z = x.double() * scale
        if cap:
            z = cap * torch.tanh(z / cap)
        ref = F.cross_entropy(z, lab, ignore_index=-100, reduction="none")
        close(loss, ref, 1e-5, "unsloth-style ce loss V=%d" % V)
        close(lse, torch.logsumexp(z, 1), 1e-5, "unsloth-style ce logsumexp V=%d" % V)


def check_rope_grouped_heads():
    for sl, nh, hd, backward in ((5, 10, 64, False), (3, 4, 32, True), (2, 7, 16, False)):
        bsz = 2
        q = randn(bsz * sl, nh * hd).half()
        theta = rand(sl, hd // 2) * 6.3
        cos, sin = torch.cos(theta), torch.sin(theta)
        qo = q.clone()
        K.rope_grouped_heads[(bsz * sl, triton.cdiv(nh, 4))](qo, qo.stride(0), cos, cos.stride(0), sin, sin.stride(0),
                                                              sl, head_dim=hd, n_heads=nh, BACKWARD_PASS=backward,
                                                              BLOCK_SIZE=max(hd // 2, 16))
        c = torch.cat((cos, cos), -1).double().repeat(bsz, 1)[:, None, :]
        s = torch.cat((sin, sin), -1).double().repeat(bsz, 1)[:, None, :] * (-1 if backward else 1)
        qd = q.double().reshape(bsz * sl, nh, hd)
        close(qo, (qd * c + rotate_half(qd) * s).reshape(bsz * sl, nh * hd), 2e-3,
              "rope by head groups sl=%d nh=%d" % (sl, nh))


def check_lse_matmul():
    for B, V, D, nw in ((37, 1000, 72, 4), (64, 3001, 128, 8), (5, 257, 16, 2)):
        e = randn(B, D) * 0.3
        c = randn(V, D) * 0.3
        t = randint(0, V, (B,))
        lse = torch.full((B,), float("nan"), device=e.device)
        tlog = torch.full((B,), float("nan"), device=e.device)
        K.lse_matmul_fwd[(triton.cdiv(B, 32),)](e, c, lse, t, tlog, B, V, D, e.stride(0), e.stride(1),
                                                c.stride(0), c.stride(1), BLOCK_B=32, BLOCK_V=64, BLOCK_D=32,
                                                HAS_TARGET=True, num_warps=nw)
        logits = e.double() @ c.double().T
        close(lse, torch.logsumexp(logits, 1), 1e-5, "lse of E @ C^T B=%d V=%d" % (B, V))
        close(tlog, logits.gather(1, t[:, None])[:, 0], 1e-5, "target logit B=%d V=%d" % (B, V))


run_checks(globals(), "llm_training")
