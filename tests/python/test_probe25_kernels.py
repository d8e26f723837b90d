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
from corpus import load_corpus  # noqa: E402

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


if __name__ == "__main__":
    only = sys.argv[1:]
    names = sorted(k for k in globals() if k.startswith("check_") and (not only or k[6:] in only))
    failed = []
    for name in names:
        try:
            globals()[name]()
            print("ok", name)
        except Exception as ex:  # report every failure, then fail
            import traceback
            traceback.print_exc()
            print("FAIL", name, type(ex).__name__, str(ex)[:2000])
            failed.append(name)
    print("ok: %d checks, %d failed" % (len(names), len(failed)))
    sys.exit(1 if failed else 0)
