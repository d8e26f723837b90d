# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/matmul_loops.py on the CPU, checked against
torch: a grouped-order matmul with split-K atomics (fp16, fp32 ieee and
tf32, bf16 output), row sums through a column-major block pointer, tile
copies padded with NaN or zeros, a transposed GEMV, batched q @ k^T with
i64 batch strides. Ragged sizes, outputs poisoned first (split-K adds into
zeros)."""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("matmul_loops")

GEN = torch.Generator().manual_seed(99)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def close(got, want, tol, what):
    got, want = got.float(), want.float()
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def check_matmul_splitk():
    cases = ((torch.float16, torch.float32, 4, "ieee", 32, 32, 32, 4, 1e-3),
             (torch.float16, torch.float16, 1, "ieee", 64, 64, 32, 8, 2e-3),
             (torch.float32, torch.float32, 2, "ieee", 32, 32, 16, 2, 1e-5),
             (torch.float32, torch.float32, 1, "tf32", 32, 32, 16, 2, 5e-3),
             (torch.bfloat16, torch.bfloat16, 1, "ieee", 32, 64, 32, 1, 1e-2))
    for (M, N, Kd) in ((70, 90, 130), (16, 16, 16), (1, 100, 33)):
        for dt, cdt, split, prec, BM, BN, BK, G, tol in cases:
            a, b = randn(M, Kd, dtype=dt), randn(Kd, N, dtype=dt)
            if split > 1:
                c = torch.zeros(M, N, dtype=cdt)
            else:
                c = torch.full((M, N), float("nan"), dtype=cdt)
            grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN), split)
            K.matmul_splitk[grid](a, b, c, M, N, Kd, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                  c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK, GROUP_M=G, SPLIT_K=split, PREC=prec)
            close(c, a.float() @ b.float(), tol, "matmul %dx%dx%d %s split %d %s" % (M, N, Kd, dt, split, prec))


def check_colmajor_row_sums():
    for M, N in ((70, 50), (5, 3), (32, 16)):
        at = randn(N, M)  # A = at.T is M x N, column-major
        a = at.T
        out = torch.full((M,), float("nan"))
        K.colmajor_row_sums[(triton.cdiv(M, 32),)](a, out, M, N, a.stride(0), a.stride(1), BM=32, BN=16)
        close(out, a.sum(1), 1e-5, "column-major row sums %dx%d" % (M, N))


def check_padded_tile_copy():
    for M, N, dt, BM, BN, pad in ((20, 40, torch.float16, 16, 32, "nan"), (33, 5, torch.float32, 32, 32, "zero")):
        x = randn(M, N + 3, dtype=dt)[:, :N]
        gm, gn = triton.cdiv(M, BM), triton.cdiv(N, BN)
        y = torch.full((gm * BM, gn * BN), 7.0, dtype=dt)
        K.padded_tile_copy[(gm, gn)](x, y, M, N, x.stride(0), BM=BM, BN=BN, PAD=pad)
        assert torch.equal(y[:M, :N], x), "tile copy: the in-bounds part (%s)" % pad
        rest = torch.ones_like(y, dtype=torch.bool)
        rest[:M, :N] = False
        if pad == "nan":
            assert torch.isnan(y[rest]).all(), "padding_option='nan' outside the matrix"
        else:
            assert (y[rest] == 0).all(), "padding_option='zero' outside the matrix"


def check_gemv_transposed():
    for M, N in ((100, 130), (7, 64), (32, 1)):
        x = randn(M, dtype=torch.float16)
        w = randn(M, N + 5, dtype=torch.float16)[:, :N]
        bias = randn(N)
        y = torch.full((N,), float("nan"))
        K.gemv_transposed[(triton.cdiv(N, 64),)](x, w, bias, y, M, N, w.stride(0), BM=32, BN=64)
        close(y, x.float() @ w.float() + bias, 1e-4, "transposed gemv %dx%d" % (M, N))


def check_batched_dot_rows():
    B, BN, D = 3, 32, 32
    for M in (40, 16):
        q = randn(B, M, D, dtype=torch.float16)
        k = randn(B, BN, D, dtype=torch.float16)
        s = torch.full((B, M, BN), float("nan"))
        K.batched_dot_rows[(triton.cdiv(M, 16), B)](q, k, s, M, q.stride(0), k.stride(0), BM=16, BN=BN, D=D)
        close(s, q.float() @ k.float().transpose(1, 2), 1e-3, "batched q @ k^T M=%d" % M)


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
