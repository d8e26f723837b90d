# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/aggregates.py on the CPU against torch:
Triton 3.6's `@tl.core._aggregate` classes as loop-carried state (an
online softmax through `for`, a Welford object through `while`, a tile
cursor nested in another aggregate through `for` + `tl.static_range`),
passed to and returned from @jit functions; then aggregates defined in
this file (a method returning a tuple, a constexpr field read in a
helper, a default __init__ argument), and an error from the binding."""
import os
import sys
import tempfile
import importlib.util

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("aggregates")


def check_online_softmax():
    torch.manual_seed(0)
    for rows, cols in ((3, 1), (4, 100), (2, 300), (5, 256)):
        x = torch.randn(rows, cols) * 4
        y = torch.empty_like(x)
        MOD.online_softmax_kernel[(rows,)](x, y, cols, x.stride(0), BLOCK=128)
        ref = torch.softmax(x, dim=1)
        assert torch.allclose(y, ref, rtol=1e-5, atol=1e-6), (rows, cols, (y - ref).abs().max())


def check_welford():
    torch.manual_seed(1)
    for rows, cols in ((2, 1), (3, 64), (4, 200), (2, 1000)):
        x = torch.randn(rows, cols) * 3 + 1.5
        mean = torch.empty(rows)
        var = torch.empty(rows)
        MOD.welford_rows_kernel[(rows,)](x, mean, var, cols, x.stride(0), BLOCK=64)
        assert torch.allclose(mean, x.mean(1), rtol=1e-5, atol=1e-5), (cols, mean, x.mean(1))
        assert torch.allclose(var, x.var(1, unbiased=False), rtol=1e-4, atol=1e-5), (cols, var)


def check_cursor_stats():
    torch.manual_seed(2)
    for (bm, bn, unroll) in ((16, 32, 2), (32, 64, 1)):
        for rows, cols in ((1, 1), (20, 50), (33, 130), (16, 64)):
            x = torch.randn(rows, cols).half()
            s = torch.empty(rows)
            m = torch.empty(rows)
            grid = (triton.cdiv(rows, bm),)
            MOD.cursor_stats_kernel[grid](x, s, m, rows, cols, x.stride(0), BLOCK_M=bm, BLOCK_N=bn, UNROLL=unroll)
            xf = x.float()
            assert torch.allclose(s, xf.sum(1), rtol=1e-4, atol=1e-3), (bm, rows, cols, (s - xf.sum(1)).abs().max())
            assert torch.equal(m, xf.amax(1)), (bm, rows, cols)


@tl.core._aggregate
class MinMax:
    lo: tl.tensor
    hi: tl.tensor
    SCALE: tl.constexpr

    def __init__(self, lo, hi, SCALE: tl.constexpr = 2):
        self.lo = lo
        self.hi = hi
        self.SCALE = SCALE

    @triton.jit
    def widen(self, x):
        return MinMax(tl.minimum(self.lo, x), tl.maximum(self.hi, x), self.SCALE)

    @triton.jit
    def unpack(self):
        return self.lo * self.SCALE, self.hi * self.SCALE


@triton.jit
def _span(mm):
    lo, hi = mm.unpack()
    return hi - lo


@triton.jit
def minmax_kernel(x_ptr, lo_ptr, hi_ptr, span_ptr, n, reps, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    mm = MinMax(x, x, SCALE)
    i = 0
    while i < reps:
        mm = mm.widen(x + i)
        i += 1
    lo, hi = mm.unpack()
    tl.store(lo_ptr + offs, lo, mask=mask)
    tl.store(hi_ptr + offs, hi, mask=mask)
    tl.store(span_ptr + offs, _span(MinMax(lo, hi)), mask=mask)


def check_local_aggregate():
    torch.manual_seed(3)
    n = 100
    x = torch.randn(n)
    lo, hi, span = torch.empty(n), torch.empty(n), torch.empty(n)
    for reps, scale in ((0, 1), (3, 2), (5, 3)):
        minmax_kernel[(1,)](x, lo, hi, span, n, reps, BLOCK=128, SCALE=scale)
        top = x + max(reps - 1, 0)
        assert torch.allclose(lo, x * scale), reps
        assert torch.allclose(hi, top * scale), reps
        # MinMax(lo, hi) takes the default SCALE=2
        assert torch.allclose(span, (top - x) * scale * 2, atol=1e-5), reps


SRC = '''
import triton
import triton.language as tl


@tl.core._aggregate
class Pair:
    first: tl.tensor
    second: tl.tensor

    def __init__(self, first, second):
        self.first = first
        self.second = second


@triton.jit
def k(x_ptr, n):
    p = Pair(tl.load(x_ptr), 1.0)
    p.first = tl.load(x_ptr + 1)
    tl.store(x_ptr, p.first)
'''


def check_error():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tc_agg_err.py")
        with open(path, "w") as f:
            f.write(SRC)
        sys.modules.setdefault("triton", triton)
        sys.modules.setdefault("triton.language", tl)
        spec = importlib.util.spec_from_file_location("tc_agg_err", path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        try:
            m.k[(1,)](torch.zeros(4), 4)
        except Exception as e:
            text = str(e)
            want = "cannot assign to field 'first' of aggregate 'Pair' outside its __init__"
            assert want in text and "tc_agg_err.py:19:5" in text, text
        else:
            raise AssertionError("compiled an assignment to an aggregate's field")


check_online_softmax()
check_welford()
check_cursor_stats()
check_local_aggregate()
check_error()
print("ok")
