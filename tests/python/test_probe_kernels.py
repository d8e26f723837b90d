# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/probe_kernels.py on the CPU, each checked
against torch or numpy: what a probe with fresh user scripts found broken."""
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("probe_kernels")
import probe_ops  # noqa: E402
from probe_ops import _adjust as adjust_a  # noqa: E402
from probe_ops_b import _adjust as adjust_b, adjust_twice, scaled  # noqa: E402
from tritonc import _spec  # noqa: E402

SCALE = tl.constexpr(3)  # (helpers_mod.SCALE too: one value, no clash)

g = torch.Generator().manual_seed(22)


def check_full_uint64_constexpr():
    # a constexpr argument in [2**63, 2**64) was read as a float (2**63)
    for val in (2**63 + 5, 2**64 - 1, 2**63):
        out = np.zeros(4, dtype=np.uint64)
        K.full_dtype_kernel[(1,)](out, N=4, DT=tl.uint64, VAL=val)
        assert (out == np.uint64(val)).all(), (val, out)
    out = torch.zeros(2, dtype=torch.int16)
    K.full_dtype_kernel[(1,)](out, N=2, DT=tl.int16, VAL=-300)
    assert out.tolist() == [-300, -300]


def check_dot_precisions():
    # "bf16x3"/"bf16x6" (and "IEEE" spelled in capitals) were refused
    M, N, Kd = 16, 32, 64
    a = torch.randn(M, Kd, generator=g)
    b = torch.randn(Kd, N, generator=g)
    for prec in ("bf16x3", "bf16x6", "IEEE", "TF32x3"):
        c = torch.full((M, N), float("nan"))
        K.dot_precision_kernel[(1,)](a, b, c, M, N, Kd, PREC=prec)
        torch.testing.assert_close(c, a @ b, atol=1e-4, rtol=1e-4)


@triton.jit
def _module_attrs_kernel(x_ptr, g_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    g = tl.load(g_ptr + offs, mask=m)
    if probe_ops.MODE == "gated":
        y = probe_ops.gated(x, g)
    else:
        y = x
    y += probe_ops.silu(x) * probe_ops.SCALE + probe_ops.helpers_mod.triple(g)
    tl.store(y_ptr + offs, y.to(probe_ops.OUT_DTYPE), mask=m)


def check_module_attributes():
    # a kernel reading a helper module's @jit functions and constants through
    # the module: "name 'probe_ops' is not defined"; and a helper of another
    # module calling a third under an alias: "name '_triple' is not defined"
    n = 300
    x = torch.randn(n, generator=g)
    gt = torch.randn(n, generator=g)
    y = torch.zeros(n, dtype=torch.float16)
    _module_attrs_kernel[(triton.cdiv(n, 128),)](x, gt, y, n, BLOCK=128)
    silu = torch.nn.functional.silu
    ref = silu(gt) * 3 * x + silu(x) * 0.5 + 3 * gt
    torch.testing.assert_close(y.float(), ref.half().float(), atol=1e-2, rtol=1e-2)


def check_jit_call_form():
    # `kernel = triton.jit(fn)` and a helper made so: "'_row_scale' is not a
    # @triton.jit function" (kernels, helpers of the file and of another
    # module, and a kernel made in a function)
    M, N = 5, 50
    for dt, block in ((torch.float32, 64), (torch.float16, 32)):
        x = torch.randn(M, block, generator=g).to(dt)
        s = torch.randn(M, generator=g)
        y = torch.zeros_like(x)
        K.row_scale_kernel[(M,)](x, y, s, N, block, BLOCK_N=block)
        ref = (x[:, :N].float() ** 3 * s[:, None]).to(dt)
        torch.testing.assert_close(y[:, :N], ref, atol=1e-2, rtol=1e-2)
        assert (y[:, N:] == 0).all()

    def factory(factor):
        def body(x_ptr, n, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            m = offs < n
            tl.store(x_ptr + offs, probe_ops.cube_plus(tl.load(x_ptr + offs, mask=m)) * FACTOR, mask=m)
        FACTOR = tl.constexpr(factor)
        return triton.jit(body)

    x = torch.randn(20, generator=g)
    x0 = x.clone()
    factory(3.0)[(1,)](x, 20, BLOCK=32)
    torch.testing.assert_close(x, (x0 ** 3 + 1) * 3)


@triton.jit
def _same_names_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, adjust_a(x) + 100.0 * adjust_b(x), mask=m)


@triton.jit
def _ambiguous_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, adjust_a(x) + adjust_twice(x), mask=offs < n)


@triton.jit
def _shadowed_const_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, scaled(x) * SCALE, mask=offs < n)


def check_same_named_helpers():
    # two modules' helpers of one name, read under two aliases: the second
    # def appended overrode the first, and the kernel computed (x*10) + 100*(x*10)
    n = 40
    x = torch.randn(n, generator=g)
    y = torch.zeros(n)
    _same_names_kernel[(1,)](x, y, n, BLOCK=64)
    torch.testing.assert_close(y, (x + 1) + 100 * (x * 10))
    # where one namespace cannot hold both (a helper reads its own module's
    # _adjust by that name), and where two modules' constexpr globals of one
    # name differ: an error naming them, not a silently wrong kernel
    for kern in (_ambiguous_kernel, _shadowed_const_kernel):
        try:
            kern[(1,)](x, n, BLOCK=64)
        except _spec.ArgumentError as e:
            assert "one namespace" in str(e), e
        else:
            raise AssertionError("%s compiled" % kern)


if __name__ == "__main__":
    names = sorted(k for k in globals() if k.startswith("check_"))
    for name in names:
        globals()[name]()
        print("ok", name)
    print("ok: %d checks" % len(names))
