# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/row_kernels.py on the CPU, each checked
against torch computing the same thing another way: group norm, batch-norm
column statistics, an online softmax over column blocks, log-softmax
backward (autograd), KL divergence (torch.nn.functional.kl_div), cross
entropy with a z-loss and ignored rows, tl.argmax/tl.argmin on both axes,
scans along axis 0 (reverse cumsum, int cumprod, a tuple scan). Fresh random
inputs, ragged sizes, outputs poisoned first."""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("row_kernels")

GEN = torch.Generator().manual_seed(4321)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def close(got, want, tol, what):
    got, want = got.float(), want.float()
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def check_group_norm():
    for N, C, H, W, G in ((2, 6, 5, 7, 3), (3, 32, 9, 9, 8), (1, 4, 1, 1, 2)):
        x = (randn(N, C, H, W) * 2 + 0.5).half()
        w = randn(C)
        b = randn(C)
        y = torch.full_like(x, float("nan"))
        mean = torch.full((N * G,), float("nan"))
        rstd = torch.full((N * G,), float("nan"))
        K.group_norm_fwd[(N * G,)](x, y, w, b, mean, rstd, C, H * W, G, 1e-5, BLOCK=128)
        ref = torch.nn.functional.group_norm(x.float(), G, w, b, 1e-5)
        close(y, ref, 1e-2, "group norm y (%d,%d,%d,%d,%d)" % (N, C, H, W, G))
        close(mean, x.float().reshape(N * G, -1).mean(1), 1e-5, "group norm mean")


def check_batch_norm_stats():
    for M, N in ((100, 70), (1, 5), (257, 64)):
        x = randn(M, N) + 3.0
        mean = torch.full((N,), float("nan"))
        var = torch.full((N,), float("nan"))
        K.batch_norm_stats[(triton.cdiv(N, 64),)](x, mean, var, M, N, x.stride(0), BLOCK_M=32, BLOCK_N=64)
        close(mean, x.mean(0), 1e-5, "batch norm mean %dx%d" % (M, N))
        close(var, x.var(0, unbiased=False), 1e-4, "batch norm var %dx%d" % (M, N))


def check_online_softmax():
    for M, N in ((7, 1000), (3, 1), (5, 256), (4, 513)):
        x = randn(M, N) * 4
        y = torch.full_like(x, float("nan"))
        K.online_softmax[(M,)](x, y, N, x.stride(0), BLOCK=256)
        close(y, torch.softmax(x, 1), 1e-5, "online softmax %dx%d" % (M, N))


def check_log_softmax_bwd():
    for M, N in ((6, 1000), (2, 17)):
        x = randn(M, N).requires_grad_()
        ls = torch.log_softmax(x, 1)
        dy = randn(M, N)
        ls.backward(dy)
        yb, dyb = ls.detach().bfloat16(), dy.bfloat16()
        dx = torch.full((M, N), float("nan"), dtype=torch.bfloat16)
        K.log_softmax_bwd[(M,)](dyb, yb, dx, N, N, BLOCK=1024)
        close(dx, x.grad, 3e-2, "log softmax bwd %dx%d" % (M, N))


def check_kl_div():
    for M, N in ((5, 700), (3, 9)):
        yp = torch.log_softmax(randn(M, N), 1)
        yt = torch.softmax(randn(M, N), 1)
        loss = torch.full((M,), float("nan"))
        K.kl_div_fwd[(M,)](yp, yt, loss, N, N, LOG_TARGET=False, REDUCTION="batchmean", BLOCK=512)
        ref = torch.nn.functional.kl_div(yp, yt, reduction="none").sum(1)
        close(loss, ref, 1e-5, "kl div rows %dx%d" % (M, N))
        loss2 = torch.full((M, N), float("nan"))
        K.kl_div_fwd[(M,)](yp, yt.log(), loss2, N, N, LOG_TARGET=True, REDUCTION="none")
        ref2 = torch.nn.functional.kl_div(yp, yt.log(), reduction="none", log_target=True)
        close(loss2, ref2, 1e-5, "kl div log target %dx%d" % (M, N))


def check_cross_entropy_zloss():
    for M, N in ((6, 3000), (4, 10)):
        x = randn(M, N) * 3
        y = torch.randint(0, N, (M,), generator=GEN)
        y[2] = -100
        loss, zl, lse = (torch.full((M,), float("nan")) for _ in range(3))
        scale = 1e-4
        K.cross_entropy_zloss[(M,)](x, y, loss, zl, lse, -100, N, x.stride(0), scale, BLOCK=1024)
        ref_lse = torch.logsumexp(x, 1)
        ref = torch.nn.functional.cross_entropy(x, y, reduction="none", ignore_index=-100)
        keep = y != -100
        ref_z = torch.where(keep, scale * ref_lse ** 2, 0.0)
        close(lse, torch.where(keep, ref_lse, 0.0), 1e-5, "lse")
        close(zl, ref_z, 1e-5, "z loss")
        close(loss, ref + ref_z, 1e-5, "cross entropy + z loss")


def check_argmax():
    for M, N in ((37, 50), (16, 64), (3, 1)):
        x = randn(M, N).half()
        x[0, : min(N, 3)] = 5.0  # ties in row 0: the first index wins
        x[:, 0] = torch.where(torch.arange(M) % 4 == 0, 9.0, x[:, 0].float()).half()
        amax = torch.full((M,), -1, dtype=torch.int32)
        amin = torch.full((M, 1), -1, dtype=torch.int32)
        acol = torch.full((N,), -1, dtype=torch.int64)
        K.argmax_rows[(triton.cdiv(M, 16),)](x, amax, amin, acol, M, N, x.stride(0), BM=16, BN=64)
        assert amax.tolist() == x.float().argmax(1).tolist(), "argmax rows %dx%d: %s" % (M, N, amax)
        assert amin[:, 0].tolist() == x.float().argmin(1).tolist(), "argmin rows %dx%d" % (M, N)
        top = x[:16].float()
        # tie_break_left=False leaves the choice among ties open: any row holding the maximum
        for c in range(N):
            r = acol[c].item()
            assert 0 <= r < top.shape[0] and top[r, c] == top[:, c].max(), \
                "argmax axis 0 (tie_break_left=False) %dx%d, column %d: row %d" % (M, N, c, r)


def check_scans():
    for M, N in ((16, 32), (11, 29), (1, 3)):
        x = randn(M, N)
        x[3 % M, :] = x[0, :]  # equal values: the later row wins the running max
        i = torch.randint(-1, 3, (M, N), generator=GEN, dtype=torch.int32)
        outs = [torch.full((M, N), float("nan")), torch.full((M, N), 7, dtype=torch.int32),
                torch.full((M, N), float("nan")), torch.full((M, N), float("nan"))]
        K.scan_ops[(1,)](x, i, *outs, M, N, BM=16, BN=32)
        cs, cp, rmax, ridx = outs
        close(cs, x.flip(0).cumsum(0).flip(0), 1e-5, "reverse cumsum axis 0")
        assert torch.equal(cp, i.cumprod(0).to(torch.int32)), "int cumprod axis 0"
        want_v, want_i = torch.empty(M, N), torch.empty(M, N)
        for c in range(N):
            bv, bi = x[0, c].item(), 0
            for r in range(M):
                if x[r, c].item() >= bv:
                    bv, bi = x[r, c].item(), r
                want_v[r, c], want_i[r, c] = bv, bi
        assert torch.equal(rmax, want_v), "tuple scan values"
        assert torch.equal(ridx, want_i), "tuple scan indices"


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
