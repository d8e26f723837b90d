# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/core_probe.py on the CPU, each checked
against torch with random inputs, and what was found beside them in Triton's
own language tests: @jit functions passed as arguments (annotated
tl.constexpr or not, and inside tuple arguments), tuple arguments holding
tl.constexpr leaves, `tl.dtype(name)` and Triton's lists of dtype names,
and an integer argument outside 64 bits raising OverflowError."""
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

K = load_corpus("core_probe")
g = torch.Generator().manual_seed(2026)


def check_select_store():
    for n in (1, 64, 200, 333):
        x = torch.randn(n, generator=g)
        y = torch.randn(n, generator=g)
        out = torch.full((n,), float("nan"))
        K.select_store_kernel[(triton.cdiv(n, 64),)](x, y, out, n, BLOCK=64)
        blk = torch.arange(n) // 64
        ref = torch.where(blk % 2 == 0, x * 2.0, y - x)
        assert torch.equal(out, ref), (n, out, ref)


def check_shadowing_params():
    for kind in ("scaled", "plain"):
        base = int(torch.randint(-50, 50, (1,), generator=g))
        mul = int(torch.randint(2, 9, (1,), generator=g))
        out = torch.zeros(32, dtype=torch.int32)
        K.shadowing_params_kernel[(1,)](out, base, mul, kind, BLOCK=32)
        ref = torch.arange(32, dtype=torch.int32) + base
        if kind == "scaled":
            ref = ref * mul
        assert torch.equal(out, ref), (kind, out, ref)
    # a grid function, which the launcher evaluates beside a `grid` parameter
    out = torch.zeros(32, dtype=torch.int32)
    K.shadowing_params_kernel[lambda meta: (1,)](out, 3, 2, "scaled", BLOCK=32)
    assert torch.equal(out, (torch.arange(32, dtype=torch.int32) + 3) * 2)


def check_float_literals():
    x = torch.randn(16, generator=g) * 2
    x[0], x[1], x[2] = -1.0, 0.5, 3.0
    out = torch.zeros(16)
    K.float_literals_kernel[(1,)](x, out, BLOCK=16)
    neg, big = x < 0, x > 1.0
    mid = ~neg & ~big
    assert torch.isnan(out[neg]).all() and torch.signbit(out[neg]).all(), out
    assert torch.isinf(out[big]).all() and (out[big] > 0).all(), out
    assert torch.equal(out[mid], x[mid] + 1000.5), (out, x)


def check_keyword_ranges():
    for n in (0, 1, 10, 17):
        out = torch.zeros(1, dtype=torch.int64)
        K.keyword_ranges_kernel[(1,)](out, n, N=20)
        ref = (sum(range(0, 20, 7)) + 1000 * sum(range(20, 0, -3)) + 1000000 * sum(range(0, n, 3)) + n)
        assert out.item() == ref, (n, out.item(), ref)


def check_chained_conditions():
    n = 200
    x = torch.randn(n, generator=g)
    bias = torch.tensor([0.25])
    for has_bias, clamp, thresh in ((True, True, 2), (False, False, 2), (False, False, 0)):
        out = torch.full((n,), float("nan"))
        grid = (triton.cdiv(n, 64),)
        K.chained_conditions_kernel[grid](x, out, bias if has_bias else None, n, thresh, BLOCK=64, CLAMP=clamp)
        xx = x + 0.25 if has_bias and clamp else x
        offs = torch.arange(n)
        keep = (xx > -1.0) & (xx < 1.0) & (offs % 3 != 0)
        y = torch.where(keep, xx, torch.zeros(()))
        pid = offs // 64
        y = torch.where((pid < thresh) | torch.tensor(clamp) | (pid == 0), y * 2.0, y)
        assert torch.equal(out, y), (has_bias, clamp, thresh, out, y)


def check_rebind_params():
    for stride in (1, 3):
        base = int(torch.randint(-20, 20, (1,), generator=g))
        out = torch.zeros(16, dtype=torch.int32)
        K.rebind_params_kernel[(1,)](out, stride, base, BLOCK=16)
        s2 = stride * 2 + 1
        assert torch.equal(out, torch.arange(16, dtype=torch.int32) * s2 + base - s2), (stride, out)


@triton.jit
def _relu(x):
    return tl.maximum(x, 0.0)


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def activation_arg_kernel(x_ptr, out_ptr, sum_ptr, ACT: tl.constexpr, COMBINE, BLOCK: tl.constexpr):
    # a @jit function passed as an argument: a constexpr, annotated or not
    offs = tl.arange(0, BLOCK)
    y = ACT(tl.load(x_ptr + offs))
    tl.store(out_ptr + offs, y)
    tl.store(sum_ptr, tl.reduce(y, 0, COMBINE))


@triton.jit
def _neg_abs(x):
    return -tl.abs(x)


def check_function_arguments():
    x = torch.randn(32, generator=g)
    for act, ref in ((_relu, x.clamp(min=0)), (_neg_abs, -x.abs())):
        out = torch.zeros(32)
        s = torch.zeros(1)
        activation_arg_kernel[(1,)](x, out, s, act, _add, BLOCK=32)
        assert torch.equal(out, ref), (act, out, ref)
        assert torch.allclose(s, ref.sum(), atol=1e-5), (s, ref.sum())


def check_desc_attrs():
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    for M, N in ((20, 70), (8, 32), (33, 100)):
        a = torch.randn(M, N, generator=g)
        out = torch.full((M, N), float("nan"))
        info = torch.zeros(4, dtype=torch.int64)
        K.desc_attrs_kernel[(triton.cdiv(M, 8), triton.cdiv(N, 32))](out, a, info, M, N, MB=8, NB=32, debug=True)
        assert torch.equal(out, a * 2.0), (M, N)
        assert info.tolist() == [M, N, N, 1], info


@triton.jit
def tuple_constexpr_kernel(x_ptr, out_ptr, shape, strides, BLOCK_SHAPE, fns):
    # BLOCK_SHAPE: a tuple of tl.constexpr; fns: a tuple of a @jit function and an int
    B0: tl.constexpr = BLOCK_SHAPE[0]
    B1: tl.constexpr = BLOCK_SHAPE[1]
    r = tl.arange(0, B0)[:, None]
    c = tl.arange(0, B1)[None, :]
    m = (r < shape[0]) & (c < shape[1])
    x = tl.load(x_ptr + r * strides[0] + c * strides[1], mask=m, other=0.0)
    act = fns[0]
    tl.store(out_ptr + r * B1 + c, act(x) * fns[1])


def check_tuple_constexprs():
    x = torch.randn(5, 12, generator=g)
    for blk in ((8, 16), (16, 16)):
        out = torch.full(blk, float("nan"))
        shape = tuple(tl.constexpr(v) for v in blk)
        tuple_constexpr_kernel[(1,)](x, out, x.shape, x.stride(), shape, (_relu, 3))
        ref = torch.zeros(blk)
        ref[:5, :12] = x.clamp(min=0) * 3
        assert torch.equal(out, ref), blk


def check_namedtuple_tile():
    for M, N in ((40, 20), (16, 32), (7, 5)):
        x = torch.randn(M, 48, generator=g)
        y = torch.full((M, N), float("nan"))
        K.namedtuple_tile_kernel[(triton.cdiv(M, 16),)](x, y, M, N, 48, BM=16, BN=32)
        assert torch.equal(y, x[:, :N] * 2.0 + 5), (M, N)


def check_const_input():
    n = 150
    x = torch.randn(n, generator=g)
    w = torch.randn(n, generator=g)
    out = torch.full((n,), float("nan"))
    K.const_input_kernel[(triton.cdiv(n, 64),)](x, w, out, n, BLOCK=64)
    # (one rounding apart at most: the GPU fuses x * w + 1.0 into an fma, as Triton's does)
    assert torch.allclose(out, x * w + 1.0, rtol=1e-6, atol=1e-6)
    assert hasattr(tl, "const") and "const" in tl.__all__


def _annotate(**types):
    def deco(fn):
        fn.__annotations__ = dict(types)
        return fn
    return deco


@triton.jit
@_annotate(v="tl.uint1")
def uint1_annotated_kernel(x_ptr, v):
    tl.store(x_ptr, v.to(tl.float32) + 0.5)


def check_uint1_annotation():
    # "tl.uint1" (Triton's other spelling of int1) types the parameter i1
    x = torch.zeros(1)
    h = uint1_annotated_kernel[(1,)](x, 1)
    assert x.item() == 1.5 and "%arg1: i1" in h.asm["ttir"], h.asm["ttir"]


@triton.jit
def _affine(x, *, scale=2.0, shift):
    return x * scale + shift


@triton.jit
def kwonly_kernel(x_ptr, n, *, BLOCK: tl.constexpr, bias=0.5):
    # keyword-only parameters, in the kernel and in a helper
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, _affine(tl.load(x_ptr + offs, mask=m), shift=bias), mask=m)


def check_keyword_only():
    x = torch.randn(20, generator=g)
    y = x.clone()
    kwonly_kernel[(1,)](y, 20, BLOCK=32)
    assert torch.equal(y, x * 2.0 + 0.5)
    y = x.clone()
    kwonly_kernel[(1,)](y, 20, BLOCK=32, bias=-1.0)
    assert torch.equal(y, x * 2.0 - 1.0)
    try:
        @triton.jit
        def bad(x, **kw):
            pass
    except TypeError as e:
        assert "**kwargs" in str(e), e
    else:
        raise AssertionError("**kwargs accepted")


def check_single_element():
    for n in (1, 5, 32):
        x = torch.randn(32, generator=g) * 4
        out = torch.zeros(4)
        K.single_element_kernel[(1,)](x, out, n, BLOCK=32)
        tot = x[:n].sum()
        mag, k = tot.abs(), 0
        while mag > 1.0:
            mag, k = mag * 0.5, k + 1
        ref = torch.tensor([tot.item(), x[0].item() + (1.0 if tot > 0 else -1.0), float(k), 2.0 if k == 0 else 3.0])
        assert torch.allclose(out, ref, atol=1e-5), (n, out, ref)


@triton.jit
def print_unsigned_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("u: ", x, (x >> 24).to(tl.uint8))


def check_print_unsigned():
    # unsigned integers print as their values (Triton's %u), not wrapped negative
    import tempfile
    x = torch.tensor([2 ** 31, 2 ** 32 - 1, 5, 2 ** 31 + 7], dtype=torch.int64).to(torch.int32)
    xu = x.cpu().numpy().view(np.uint32)
    with tempfile.TemporaryFile() as f:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            print_unsigned_kernel[(1,)](xu, BLOCK=4)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        out = f.read().decode()
    for i, v in enumerate(xu.tolist()):
        assert "idx (%d) u: (operand 0) %d" % (i, v) in out, out
        assert "idx (%d) u: (operand 1) %d" % (i, v >> 24) in out, out


def check_host_api():
    # tl.dtype(name) is the dtype of that name; Triton's name lists
    for names in (tl.dtype.SINT_TYPES, tl.dtype.UINT_TYPES, tl.dtype.STANDARD_FP_TYPES, tl.dtype.FP_TYPES):
        for name in names:
            assert tl.dtype(name) == getattr(tl, name if name.startswith(("int", "uint")) else
                                             {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
                                              "fp64": "float64", "fp8e5": "float8e5", "fp8e4nv": "float8e4nv",
                                              "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16",
                                              "fp8e4b15": "float8e4b15"}[name]), name
    try:
        tl.dtype("fp128")
    except ValueError:
        pass
    else:
        raise AssertionError("tl.dtype('fp128') did not raise")
    # num_warps must be a power of 2, as Triton's backends assert (on the CPU too)
    out = torch.zeros(32, dtype=torch.int32)
    try:
        K.shadowing_params_kernel[(1,)](out, 1, 1, "plain", BLOCK=32, num_warps=3)
    except AssertionError as e:
        assert "power of 2" in str(e), e
    else:
        raise AssertionError("num_warps=3 was accepted")
    K.shadowing_params_kernel[(1,)](out, 1, 1, "plain", BLOCK=32, num_warps=2)
    # integers outside [-2**63, 2**64) raise OverflowError, as Triton's launcher does
    out = torch.zeros(32, dtype=torch.int32)
    for bad in (2 ** 64, -2 ** 63 - 1):
        try:
            K.shadowing_params_kernel[(1,)](out, bad, 1, "plain", BLOCK=32)
        except OverflowError as e:
            assert "grid" in str(e), e
        else:
            raise AssertionError("no OverflowError for %d" % bad)


if __name__ == "__main__":
    checks = [v for k, v in sorted(globals().items()) if k.startswith("check_")]
    for c in checks:
        c()
    print("%d passed, 0 failed" % len(checks))
