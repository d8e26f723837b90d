# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/norms_losses.py on the CPU, each checked
against torch computing the same thing another way (autograd for the
backward passes): layer norm forward and backward (the spin-lock partial
sums), RMSNorm forward and backward, fused cross entropy (loss and the
gradient written in place, label smoothing, ignored rows), SwiGLU forward and
backward, GeGLU (tanh and erf), rotary embeddings on q and k, int8 row-wise
quantisation. Fresh random inputs, ragged sizes, outputs poisoned first."""
import math
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("norms_losses")

GEN = torch.Generator().manual_seed(1234)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def close(got, want, tol, what):
    got, want = got.float(), want.float()
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert got.shape == want.shape and err <= tol * (1 + want.abs().max().item()), \
        "%s: max error %g (tol %g)" % (what, err, tol)


def check_layer_norm():
    for M, N, dtype in ((151, 1000, torch.float16), (37, 129, torch.float32), (300, 8, torch.float16),
                        (3, 2100, torch.float32)):
        eps = 1e-5
        x = (-2.3 + 0.5 * randn(M, N)).to(dtype)
        w = torch.rand(N, generator=GEN).to(dtype)
        b = torch.rand(N, generator=GEN).to(dtype)
        dy = (0.1 * randn(M, N)).to(dtype)
        y = torch.full_like(x, float("nan"))
        mean = torch.full((M,), float("nan"))
        rstd = torch.full((M,), float("nan"))
        BLOCK = min(65536 // x.element_size(), triton.next_power_of_2(N), 1024)
        K.layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=BLOCK)
        xr, wr, br = (t.float().requires_grad_() for t in (x, w, b))
        ref = torch.nn.functional.layer_norm(xr, (N,), wr, br, eps)
        tol = 1e-2 if dtype == torch.float16 else 1e-5
        close(y, ref, tol, "layer norm y")
        close(mean, x.float().mean(1), 1e-5, "layer norm mean")
        ref.backward(dy.float())
        GROUP = 64 if N > 1024 else 128
        BLOCK_N = triton.next_power_of_2(N)
        locks = torch.zeros(2 * GROUP, dtype=torch.int32)
        pdw = torch.zeros((GROUP, N), dtype=dtype)
        pdb = torch.zeros((GROUP, N), dtype=dtype)
        dx = torch.full_like(dy, float("nan"))
        dw = torch.full((N,), float("nan"), dtype=dtype)
        db = torch.full((N,), float("nan"), dtype=dtype)
        K.layer_norm_bwd_dx_fused[(M,)](dx, dy, pdw, pdb, x, w, mean, rstd, locks, x.stride(0), N,
                                        GROUP_SIZE_M=GROUP, BLOCK_SIZE_N=BLOCK_N, num_warps=8)
        assert torch.equal(locks[:GROUP], torch.zeros(GROUP, dtype=torch.int32)), "locks released"
        assert locks[GROUP:].tolist() == [1 if i < M else 0 for i in range(GROUP)], "counters"
        grid = lambda meta: [triton.cdiv(N, meta["BLOCK_SIZE_N"])]
        K.layer_norm_bwd_dwdb[grid](pdw, pdb, dw, db, min(GROUP, M), N, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
        tol = 2e-2 if dtype == torch.float16 else 1e-4
        close(dx, xr.grad, tol, "layer norm dx")
        close(dw, wr.grad, tol, "layer norm dw")
        close(db, br.grad, tol, "layer norm db")


def check_rms_norm():
    for R, C, dtype, offset in ((10, 100, torch.float32, 0.0), (33, 1024, torch.bfloat16, 1.0),
                                (1, 7, torch.float32, 1.0), (70, 3000, torch.float32, 0.0)):
        x = randn(R, C, dtype=dtype)
        w = randn(C, dtype=dtype)
        eps = 1e-6
        y = torch.full_like(x, float("nan"))
        rstd = torch.full((R,), float("nan"))
        BS = triton.next_power_of_2(C)
        K.rms_norm_fwd[(R,)](y, y.stride(0), x, x.stride(0), w, rstd, C, eps, offset, BLOCK_SIZE=BS)
        xf = x.float()
        r = torch.rsqrt(xf.pow(2).mean(-1) + eps)
        close(rstd, r, 1e-5, "rms rstd")
        ref = (xf * r[:, None]).to(dtype).float() * (offset + w.float())
        close(y, ref, 1e-2 if dtype == torch.bfloat16 else 1e-5, "rms y")
        if dtype != torch.float32:
            continue
        xr = x.clone().requires_grad_()
        wr = w.clone().requires_grad_()
        yr = xr * torch.rsqrt(xr.pow(2).mean(-1, keepdim=True) + eps) * (offset + wr)
        dy = randn(R, C)
        yr.backward(dy)
        RPP = 8
        progs = triton.cdiv(R, RPP)
        dx = torch.full_like(x, float("nan"))
        dw = torch.full((progs, C), float("nan"))
        K.rms_norm_bwd[(progs,)](dy, dy.stride(0), dx, dx.stride(0), x, x.stride(0), w, rstd, dw, dw.stride(0),
                                 R, C, offset, X_DTYPE=tl.float32, ROWS_PER_PROGRAM=RPP, BLOCK_SIZE=BS)
        close(dx, xr.grad, 1e-4, "rms dx")
        close(dw.sum(0), wr.grad, 1e-4, "rms dw")


def check_cross_entropy():
    for BT, V, ls, red, dtype in ((5, 1000, 0.1, "mean", torch.float32), (17, 33, 0.0, "sum", torch.float32),
                                  (9, 5000, 0.0, "mean", torch.float32), (4, 300, 0.2, "sum", torch.bfloat16)):
        x = (randn(BT, V) * 3).to(dtype)
        y = torch.randint(0, V, (BT,), generator=GEN)
        y[1] = -100
        g = x.clone()
        loss = torch.full((BT,), float("nan"))
        nni = int((y != -100).sum())
        BLOCK = min(2048 if dtype == torch.float32 else 4096, triton.next_power_of_2(V))
        K.cross_entropy_fwd_bwd[(BT,)](g, g.stride(0), y, loss, V, nni, -100,
                                       LABEL_SMOOTHING=ls, REDUCTION=red, BLOCK_SIZE=BLOCK)
        xr = x.float().requires_grad_()
        lr = torch.nn.functional.cross_entropy(xr, y, ignore_index=-100, label_smoothing=ls, reduction=red)
        lr.backward()
        close(loss.sum(), lr, 1e-5, "cross entropy loss")
        assert loss[1].item() == 0.0
        close(g, xr.grad, 1e-2 if dtype == torch.bfloat16 else 1e-5, "cross entropy grad")


def check_glu():
    for R, C, dtype in ((7, 300, torch.float32), (4, 2000, torch.float16), (3, 1, torch.float32)):
        a = randn(R, C, dtype=dtype)
        b = randn(R, C, dtype=dtype)
        c = torch.full_like(a, float("nan"))
        BS = triton.next_power_of_2(C)
        K.swiglu_fwd[(R,)](a, b, c, c.stride(0), C, BLOCK_SIZE=BS)
        tol = 1e-2 if dtype == torch.float16 else 1e-6
        close(c, torch.nn.functional.silu(a.float()).to(dtype).float() * b.float(), tol, "swiglu")
        for approx in ("tanh", "none"):
            c.fill_(float("nan"))
            K.geglu_fwd[(R,)](a, b, c, c.stride(0), C, APPROXIMATE=approx, BLOCK_SIZE=BS)
            ref = torch.nn.functional.gelu(a.float(), approximate=approx).to(dtype).float() * b.float()
            close(c, ref, tol if approx == "none" else max(tol, 1e-5), "geglu " + approx)
    R, C = 6, 333
    a = randn(R, C)
    b = randn(R, C)
    dc = randn(R, C)
    ar, br = a.clone().requires_grad_(), b.clone().requires_grad_()
    (torch.nn.functional.silu(ar) * br).backward(dc)
    da, db = a.clone(), b.clone()
    K.swiglu_bwd[(R,)](dc, da, db, dc.stride(0), C, BLOCK_SIZE=512)
    close(da, ar.grad, 1e-5, "swiglu da")
    close(db, br.grad, 1e-5, "swiglu db")


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], -1)


def check_rope():
    for bsz, sl, nqh, nkh, hd, dtype in ((2, 5, 3, 1, 12, torch.float32), (1, 9, 32, 8, 128, torch.float16)):
        q = randn(bsz, sl, nqh, hd, dtype=dtype)
        k = randn(bsz, sl, nkh, hd, dtype=dtype)
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        ang = torch.arange(sl).float()[:, None] * inv[None, :]
        cos = torch.cat([ang.cos(), ang.cos()], -1).contiguous()
        sin = torch.cat([ang.sin(), ang.sin()], -1).contiguous()
        qq = q.clone().view(bsz * sl, nqh * hd)
        kk = k.clone().view(bsz * sl, nkh * hd)
        pads = dict(PAD_QH=triton.next_power_of_2(nqh), PAD_KH=triton.next_power_of_2(nkh),
                    PAD_HD=triton.next_power_of_2(hd))
        K.rope_fwd[(bsz * sl,)](qq, qq.stride(0), kk, kk.stride(0), cos, sin, sl, bsz,
                                N_QH=nqh, N_KH=nkh, HEAD_DIM=hd, **pads)
        c, s = cos[None, :, None, :], sin[None, :, None, :]
        tol = 1e-2 if dtype == torch.float16 else 1e-5
        close(qq.view_as(q), q.float() * c + rotate_half(q.float()) * s, tol, "rope q")
        close(kk.view_as(k), k.float() * c + rotate_half(k.float()) * s, tol, "rope k")
        K.rope_fwd[(bsz * sl,)](qq, qq.stride(0), kk, kk.stride(0), cos, sin, sl, bsz,
                                N_QH=nqh, N_KH=nkh, HEAD_DIM=hd, BACKWARD=True, **pads)
        close(qq.view_as(q), q, 2 * tol, "rope round trip q")
        close(kk.view_as(k), k, 2 * tol, "rope round trip k")


def check_quant():
    for R, C, dtype in ((13, 77, torch.float16), (5, 1024, torch.float32), (8, 1000, torch.bfloat16)):
        x = (randn(R, C) * 3).to(dtype)
        x[2] = 0
        q = torch.full((R, C), 99, dtype=torch.int8)
        s = torch.full((R,), float("nan"))
        BLOCK = triton.next_power_of_2(C)
        K.quantize_int8_rowwise[(R,)](x, q, s, x.stride(0), q.stride(0), C, BLOCK=BLOCK)
        xf = x.float()
        am = xf.abs().amax(1)
        sr = torch.where(am == 0, torch.ones_like(am), am / 127.0)
        close(s, sr, 1e-6, "quant scale")
        qr = torch.round(xf / sr[:, None]).clamp(-127, 127)
        # x / scale may land a rounding step away from torch's x / scale
        assert (q.float() - qr).abs().max() <= 1, "quant values"
        assert (q.float() == qr).float().mean() > 0.99, "quant values"
        y = torch.full((R, C), float("nan"), dtype=dtype)
        K.dequantize_int8_rowwise[(R,)](q, s, y, C, BLOCK=BLOCK)
        assert torch.equal(y, (q.float() * s[:, None]).to(dtype)), "dequant"


def main():
    for f in (check_layer_norm, check_rms_norm, check_cross_entropy, check_glu, check_rope, check_quant):
        f()
        print(f.__name__, "ok")


if __name__ == "__main__":
    main()
