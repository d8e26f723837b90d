# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/lang_features.py on the CPU, each against
torch or numpy computing the same thing another way; launched the ways host
code does (grid lambdas over META, triton.heuristics over the arguments,
do_not_specialize, numpy arrays and numpy scalars, None for optional
pointers, a grid given as a list)."""
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

K = load_corpus("lang_features")

GEN = torch.Generator().manual_seed(11)


def randn(*s):
    return torch.randn(*s, generator=GEN)


def check_scans():
    for R, C in ((5, 37), (2, 64), (3, 1)):
        x = torch.rand(R, C, generator=GEN) + 0.5
        s, p, m = (torch.full_like(x, float("nan")) for _ in range(3))
        K.scan_rows_kernel[(R,)](x, s, p, m, x.stride(0), C, BLOCK=64)
        assert torch.allclose(s, x.cumsum(1), rtol=1e-5), "associative_scan add"
        assert torch.allclose(p, x.cumprod(1), rtol=1e-4), "associative_scan mul"
        assert torch.equal(m, x.flip(1).cummax(1).values.flip(1)), "reverse max scan"
    M, N = 6, 10
    x = torch.randint(-5, 5, (M, N), dtype=torch.int32, generator=GEN)
    y, z = torch.zeros_like(x), torch.zeros_like(x)
    K.cumsum_2d_kernel[(1,)](x, y, z, M, N, BM=8, BN=16)
    assert torch.equal(y, x.cumsum(1).int()) and torch.equal(z, x.flip(0).cumsum(0).flip(0).int())


def check_reductions():
    R, C = 9, 100
    x = randn(R, C)
    x[3, 10] = x[3, 50] = 100.0  # a tie: the first index wins
    v = torch.full((R,), float("nan"))
    i = torch.full((2 * R,), -1, dtype=torch.int32)
    K.argmax_combine_kernel[(R,)](x, v, i, C, x.stride(0), BLOCK=128)
    assert torch.equal(v, x.max(1).values)
    assert torch.equal(i[:R].long(), x.argmax(1)) and torch.equal(i[R:].long(), x.argmax(1))
    R, C, k = 4, 50, 5
    x = randn(R, C)
    vals = torch.full((R, k), float("nan"))
    idx = torch.full((R, k), -1, dtype=torch.int32)
    K.topk_kernel[(R,)](x, vals, idx, C, K=k, BLOCK=64)
    ref = x.topk(k, dim=1)
    assert torch.equal(vals, ref.values) and torch.equal(idx.long(), ref.indices)
    M, N = 37, 70
    x = randn(M, N)
    y = torch.full_like(x, float("nan"))
    K.softmax_keepdims_kernel[lambda meta: (triton.cdiv(M, meta["BM"]),)](x, y, M, N, BM=16, BN=128)
    assert torch.allclose(y, torch.softmax(x, 1), atol=1e-6)


def check_elementwise():
    n = 1000
    x, y = randn(n), randn(n)
    out = torch.full((9, n), float("nan"))
    K.elementwise_extras_kernel[(triton.cdiv(n, 256),)](x, y, out, n, -0.5, 0.7, BLOCK=256)
    assert torch.equal(out[0], torch.where(x > 0, 1.0, -1.0))
    assert torch.equal(out[1], torch.where(x > 0, x, torch.zeros_like(x)))
    assert torch.equal(out[2], x.clamp(-0.5, 0.7))
    assert torch.allclose(out[3], x * y + 1.0, atol=1e-6)
    assert torch.equal(out[4], torch.full((n,), 3.0)) and torch.equal(out[5], torch.full((n,), 4.0))
    g = out[6]  # round toward zero: never larger in magnitude, within one fp16 step
    assert (g.abs() <= x.abs()).all() and torch.allclose(g, x, rtol=1e-3)
    assert torch.equal(out[7], x.abs())
    assert torch.equal(out[8], x.bfloat16().float())
    n = 300
    a = np.random.RandomState(0).randint(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    b = np.random.RandomState(1).randint(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    o = np.zeros(n, dtype=np.uint32)
    K.umulhi_kernel[(triton.cdiv(n, 128),)](a, b, o, np.int32(n), BLOCK=128)
    assert (o == ((a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(32)).astype(np.uint32)).all()


def check_constexprs_and_grids():
    import contextlib
    import io
    import tempfile
    for mode, f in (("twice", lambda v: v * 2), ("neg", lambda v: -v), ("other", lambda v: v + 8 * 3 + 1)):
        o = torch.full((8,), float("nan"))
        out = io.StringIO()
        saved = os.environ.get("TRITONC_CACHE_DIR")
        with tempfile.TemporaryDirectory() as d, contextlib.redirect_stdout(out):
            os.environ["TRITONC_CACHE_DIR"] = d  # a fresh compile: static_print prints then
            try:
                K.constexpr_kernel[(1,)](o, N=8, MODE=mode)
            finally:
                if saved is None:
                    del os.environ["TRITONC_CACHE_DIR"]
                else:
                    os.environ["TRITONC_CACHE_DIR"] = saved
        assert torch.equal(o, torch.full((8,), float(f(0 + 2)))), (mode, o)
        assert "constexpr_kernel: N = 8 HALF = 4" in out.getvalue(), out.getvalue()
    o = torch.zeros(24 * 4, dtype=torch.int32)
    K.grid3d_kernel[(3, 4, 2)](o, BLOCK=4)
    assert torch.equal(o, torch.tensor([[l * 1000 + 342] * 4 for l in range(24)], dtype=torch.int32).flatten())
    x = randn(12345)
    s = torch.full((1,), float("nan"))
    K.pipelined_sum_kernel[[1]](x, s, x.numel(), BLOCK=512)
    assert torch.allclose(s, x.sum().reshape(1), atol=1e-3)


def check_pointers_and_helpers():
    ts = [randn(n) for n in (5, 100, 1000, 33)]
    ptrs = torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64)
    sizes = torch.tensor([t.numel() for t in ts], dtype=torch.int32)
    out = torch.full((len(ts),), float("nan"))
    K.ptr_array_kernel[(len(ts),)](ptrs, sizes, out, BLOCK=64)
    assert torch.allclose(out, torch.stack([t.sum() for t in ts]), atol=1e-4)

    heur = triton.heuristics({"EVEN_N": lambda args: args["n"] % args["BLOCK"] == 0,
                              "BLOCK2": lambda args: args["BLOCK"] * 2})(
        triton.jit(do_not_specialize=["n"])(K.heuristics_kernel.fn))
    for n in (128, 1000, 16, 1):
        x = randn(n)
        y = torch.full((n,), float("nan"))
        heur[lambda META: (triton.cdiv(n, META["BLOCK"]),)](x, y, n, BLOCK=64)
        assert torch.allclose(y, x * 2 + 128), n

    x = randn(50)
    o = torch.full((4,), float("nan"))
    K.nested_helpers_kernel[(1,)](x, o, 50, BLOCK=64)
    assert torch.allclose(o, torch.stack([x.mean(), x.max(), x.sum(), 2 * (x * x).mean()]), atol=1e-5), o

    x = randn(4, 100)
    y = torch.full((4, 100), float("nan"))
    K.int64_volatile_kernel[(4,)](x, y, x.stride(0), 100, BLOCK=128)
    assert torch.equal(y, x + 1)

    R, N = 6, 45
    x, w, b = randn(R, N), randn(N), randn(N)
    for W, B in ((w, b), (None, b), (w, None), (None, None)):
        y = torch.full((R, N), float("nan"))
        K.optional_args_kernel[(R,)](x, y, W, B, N, 1e-5, BLOCK=64, HAS_BIAS=B is not None)
        assert torch.allclose(y, torch.nn.functional.layer_norm(x, (N,), W, B, 1e-5), atol=1e-5)


def check_python_syntax():
    n = 300
    x = randn(n)
    for k in (-1, 1, 5):
        o = torch.full((9, n), float("nan"))
        K.python_syntax_kernel[(3,)](x, o, n, k, BLOCK=128)
        want = [x, 4 * x, 3 * x, x if k > 0 else -x, torch.exp(x), torch.where(x < 0, torch.tensor(-1e30), x),
                x if not k > 3 else torch.zeros_like(x), x + 32, x.abs() + math.pi]
        for i, w in enumerate(want):
            assert torch.allclose(o[i], w, rtol=1e-5), (k, i)
    vals = torch.tensor([1, 2, 3, 6, 7, 27, 97], dtype=torch.int32)
    out = torch.full_like(vals, -1)
    K.collatz_kernel[(len(vals),)](vals, out)

    def collatz(v):
        s = 0
        while v != 1:
            v, s = (v // 2 if v % 2 == 0 else 3 * v + 1), s + 1
        return s
    assert out.tolist() == [collatz(v) for v in vals.tolist()], out
    n = 333
    x = randn(n)
    keep = torch.rand(n, generator=GEN) > 0.3
    out = torch.zeros(n, dtype=torch.bool)
    for flag in (True, False):
        K.bool_kernel[(triton.cdiv(n, 128),)](x, keep, out, n, 0.5, flag, BLOCK=128)
        want = ((x > 0.5) & keep) | ((x < -0.5) if flag else torch.zeros_like(keep))
        assert torch.equal(out, want), flag


def check_print():
    """device_print and print write one line per element (and per program
    for a scalar): to stderr on the CPU, to stdout (CUDA's printf, at the next
    synchronisation) on the GPU; both are captured."""
    import tempfile
    x = torch.arange(16, dtype=torch.float32) - 3
    with tempfile.TemporaryFile() as f:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = [os.dup(1), os.dup(2)]
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            K.debug_print_kernel[(2,)](x, 10, BLOCK=16)
            if x.is_cuda:
                torch.cuda.synchronize()
        finally:
            for fd, s in zip((1, 2), saved):
                os.dup2(s, fd)
                os.close(s)
        f.seek(0)
        out = f.read().decode()
    lines = out.splitlines()
    assert sum(" x: " in l for l in lines) == 32, out
    assert sum(" n: 10" in l for l in lines) == 2, out
    assert any("pid (1, 0, 0) idx (4) x: 1.000000" in l for l in lines), out
    # hex=True: Triton's 0x%0<bits/4>x (operand 1 is int64)
    assert any("idx (9) bits: (operand 1) 0x0000000000000009" in l for l in lines), out


def check_libdevice_extras():
    n = 300
    rs = np.random.RandomState(5)
    i = rs.randint(-2**31, 2**31, n).astype(np.int32)
    l = rs.randint(-2**63, 2**63 - 1, n, dtype=np.int64)
    i[:3] = [0, 1, -1]
    l[:3] = [0, 1, -1]
    f = (rs.randn(n) * 3).astype(np.float32)
    io = np.full((9, n), 7, np.int32)
    lo = np.full((2, n), 7, np.int64)
    fo = np.full((7, n), np.nan, np.float32)
    K.libdevice_extras_kernel[(triton.cdiv(n, 128),)](i, l, f, io, lo, fo, n, BLOCK=128)
    u = i.astype(np.uint32)
    ul = l.astype(np.uint64)
    popc = np.array([bin(int(v)).count("1") for v in u])
    clz = np.array([32 - int(v).bit_length() for v in u])
    brev = np.array([int(format(int(v), "032b")[::-1], 2) for v in u], dtype=np.uint64).astype(np.uint32).view(np.int32)
    ffs = np.array([(int(v) & -int(v)).bit_length() for v in u])
    popcll = np.array([bin(int(v)).count("1") for v in ul])
    clzll = np.array([64 - int(v).bit_length() for v in ul])
    ffsll = np.array([(int(v) & -int(v)).bit_length() for v in ul])
    want = [popc, clz, brev, ffs, popcll, clzll, ffsll, f.view(np.int32), np.rint(f * 10).astype(np.int32)]
    for r, w in enumerate(want):
        assert (io[r] == w).all(), (r, io[r][:5], w[:5])
    brevll = np.array([int(format(int(v), "064b")[::-1], 2) for v in ul], dtype=np.uint64).view(np.int64)
    assert (lo[0] == brevll).all() and (lo[1] == np.rint(f * 10).astype(np.int64)).all()
    assert np.allclose(fo[0], np.exp(f), rtol=1e-5) and np.allclose(fo[1], np.log(np.abs(f)), rtol=1e-5, atol=1e-6)
    assert np.allclose(fo[2], f / 3, rtol=1e-6) and np.allclose(fo[3], np.abs(f) ** 1.5, rtol=1e-5)
    assert (fo[4] == f).all()
    assert np.allclose(fo[5], np.log1p(np.abs(f)), rtol=1e-5) and (fo[6] == np.maximum(f, 0.5)).all()


def check_pdl_and_asm():
    n = 3000
    x, y = randn(n), randn(n)
    out = torch.full((n,), float("nan"))
    for use_gdc in (True, False):
        K.pdl_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, USE_GDC=use_gdc,
                                                   launch_pdl=use_gdc)
        assert torch.equal(out, x + y)
    b = torch.zeros(n, dtype=torch.int8)
    if x.is_cuda:  # the PTX runs: s + d = 2 offs, b ^ 0x80 = -128, h + h = 2h, tanh.approx
        K.inline_asm_kernel[(triton.cdiv(n, 512),)](x, b, x.half(), out, n, BLOCK=512)
        offs = torch.arange(n, dtype=torch.float32)
        ref = torch.tanh(x) + 2 * offs - 128 + 2 * x.half().float()
        assert torch.allclose(out, ref, rtol=1e-3, atol=1e-2), (out - ref).abs().max()
        return
    try:
        K.inline_asm_kernel[(1,)](x, b, x.half(), out, n, BLOCK=512)
    except triton.CompilationError as e:
        assert "inline_asm_elementwise holds PTX" in str(e), str(e)
    else:
        raise AssertionError("inline asm ran on the CPU")


def main():
    for f in (check_scans, check_reductions, check_elementwise, check_constexprs_and_grids,
              check_pointers_and_helpers, check_python_syntax, check_print, check_libdevice_extras,
              check_pdl_and_asm):
        f()
        print(f.__name__, "ok")


if __name__ == "__main__":
    main()
