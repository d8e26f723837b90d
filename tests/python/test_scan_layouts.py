# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/scan_layouts.py on the CPU, against torch:
cumsums of 1-D and 2-D tiles along either axis and reversed, the linear
recurrence as a two-operand scan (a combine that is not commutative), and
scans of i8, i16, i64, fp64, bf16 and i1 values. (The same kernels' PTX is
run by tests/ptx/scan_sim.py; bench/gpu/vs_triton.py runs them on a GPU.)"""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("scan_layouts")

GEN = torch.Generator().manual_seed(5)


def cumsum(x, dim):
    # fp16: exact in fp32 for the quarters used here, and torch has no fp16 cumsum on the CPU
    return x.float().cumsum(dim) if x.dtype == torch.float16 else x.cumsum(dim)


def rcumsum(x, dim):
    return cumsum(x.flip(dim), dim).flip(dim)


def linrec(a, b, dim, reverse):
    """h[t] = a[t] * h[t-1] + b[t] (h[t+1] when reversed), in float64."""
    a, b = a.double().movedim(dim, -1), b.double().movedim(dim, -1)
    h = torch.zeros_like(a)
    prev = torch.zeros(a.shape[:-1], dtype=torch.float64)
    n = a.shape[-1]
    for t in (range(n - 1, -1, -1) if reverse else range(n)):
        prev = a[..., t] * prev + b[..., t]
        h[..., t] = prev
    return h.movedim(-1, dim)


def check_cumsum_1d():
    for block, rev, dt, n in ((1024, False, torch.float32, 1000), (32, True, torch.float32, 32),
                              (4096, False, torch.float32, 4096), (2048, True, torch.int32, 1999),
                              (512, False, torch.float16, 512)):
        if dt == torch.int32:
            x = torch.randint(-1000, 1000, (n,), generator=GEN, dtype=torch.int32)
        elif dt == torch.float16:
            x = (torch.randint(-4, 5, (n,), generator=GEN) / 4).half()  # sums of quarters: exact
        else:
            x = torch.randn(n, generator=GEN)
        y = torch.full((n,), 7, dtype=dt)
        K.cumsum_1d_kernel[(1,)](x, y, n, BLOCK=block, REVERSE=rev)
        want = (rcumsum(x, 0) if rev else cumsum(x, 0)).to(dt)
        if dt == torch.float32:
            assert torch.allclose(y, want, rtol=1e-4, atol=1e-3), ("cumsum_1d", block, rev)
        else:
            assert torch.equal(y, want), ("cumsum_1d", block, rev, dt)


def check_scan_2d():
    for bm, bn, axis, rev, dt in ((32, 64, 0, False, torch.int32), (32, 64, 1, True, torch.float32),
                                  (64, 16, 0, True, torch.float16), (4, 256, 1, False, torch.float32)):
        M, N = bm - 3, bn - 5
        if dt == torch.int32:
            x = torch.randint(-1000, 1000, (M, N), generator=GEN, dtype=torch.int32)
        elif dt == torch.float16:
            x = (torch.randint(-4, 5, (M, N), generator=GEN) / 4).half()
        else:
            x = torch.randn(M, N, generator=GEN)
        y = torch.zeros(M, N, dtype=dt)
        K.scan_2d_kernel[(1,)](x, y, M, N, BM=bm, BN=bn, AXIS=axis, REVERSE=rev)
        want = (rcumsum(x, axis) if rev else cumsum(x, axis)).to(dt)
        if dt == torch.float32:
            assert torch.allclose(y, want, rtol=1e-4, atol=1e-4), ("scan_2d", bm, bn, axis, rev)
        else:
            assert torch.equal(y, want), ("scan_2d", bm, bn, axis, rev, dt)


def check_linrec():
    for block, rev, rows, T in ((4096, False, 2, 4000), (1024, True, 3, 1024)):
        a = torch.rand(rows, block, generator=GEN) * 0.5 + 0.5
        b = torch.randn(rows, block, generator=GEN)
        h = torch.zeros(rows, block)
        K.linrec_kernel[(rows,)](a, b, h, T, block, BLOCK_T=block, REVERSE=rev)
        want = linrec(a[:, :T], b[:, :T], 1, rev).float()
        assert torch.allclose(h[:, :T], want, rtol=1e-4, atol=1e-4), ("linrec", block, rev)
    for bm, bn, axis, rev in ((64, 32, 0, False), (16, 128, 1, True)):
        M, N = bm - 1, bn - 2
        a = torch.rand(M, N, generator=GEN) * 0.5 + 0.5
        b = torch.randn(M, N, generator=GEN)
        h = torch.zeros(M, N)
        K.linrec_2d_kernel[(1,)](a, b, h, M, N, BM=bm, BN=bn, AXIS=axis, REVERSE=rev)
        assert torch.allclose(h, linrec(a, b, axis, rev).float(), rtol=1e-4, atol=1e-4), ("linrec_2d", axis, rev)


def check_dtypes():
    for block, rev, n in ((256, False, 256), (64, True, 60)):
        x8 = torch.randint(-128, 128, (n,), generator=GEN, dtype=torch.int8)
        x16 = torch.randint(-3, 4, (n,), generator=GEN, dtype=torch.int16)
        x64 = torch.randint(-(1 << 40), 1 << 40, (n,), generator=GEN, dtype=torch.int64)
        xd = torch.randn(n, generator=GEN, dtype=torch.float64)
        xb = torch.randn(n, generator=GEN).bfloat16()
        xp = torch.randn(n, generator=GEN)
        y8, y16, y64 = torch.zeros_like(x8), torch.zeros_like(x16), torch.zeros_like(x64)
        yd, yb, yp = torch.zeros_like(xd), torch.zeros_like(xb), torch.zeros(n, dtype=torch.int32)
        K.dtypes_kernel[(1,)](x8, y8, x16, y16, x64, y64, xd, yd, xb, yb, xp, yp, n, BLOCK=block, REVERSE=rev)

        def fwd(f, x):
            return f(x.flip(0), 0).flip(0) if rev else f(x, 0)

        assert torch.equal(y8, fwd(lambda v, d: v.cummax(d).values, x8)), "i8 max"
        assert torch.equal(y16, fwd(lambda v, d: v.cumsum(d), x16).to(torch.int16)), "i16 add"
        assert torch.equal(y64, fwd(lambda v, d: v.cumsum(d), x64)), "i64 cumsum"
        assert torch.allclose(yd, fwd(lambda v, d: v.cumsum(d), xd), rtol=1e-12, atol=1e-12), "fp64 cumsum"
        assert torch.equal(yb, fwd(lambda v, d: v.cummax(d).values, xb)), "bf16 max"
        parity = fwd(lambda v, d: v.cumsum(d), (xp > 0).int()) % 2
        assert torch.equal(yp, parity.int()), "i1 xor"


def main():
    for f in (check_cumsum_1d, check_scan_2d, check_linrec, check_dtypes):
        f()
        print(f.__name__, "ok")


if __name__ == "__main__":
    main()
