# RUN: %python %s
# REQUIRES: torch
"""Module globals a kernel reads, as real Triton code defines them: aliases
of builtins (`triton_tanh = libdevice.tanh`, `triton_cast = tl.cast`),
imports under a try/except, constants and @jit helpers defined under an
`if`, and helpers from another module that read that module's constants,
module aliases and builtin aliases. Triton looks these up in the running
module's globals; tritonc's binding writes them out for the C front end.
Kernels whose `def` is not at the top of the file (under an `if` or a
`try`, a static method of a class, made by a factory function that closes
over a value) are compiled from their own text."""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from globals_helpers import act_twice, scaled_tanh  # noqa: E402

triton_tanh = libdevice.tanh
triton_cast = tl.cast

try:
    from tritonc.language.extra.cuda.libdevice import erf as fast_erf
except ImportError:
    fast_erf = tl.math.erf

if torch.__version__ >= "1.0":
    BLOCK_DEFAULT = tl.constexpr(64)
    SHIFT = 2.0

    @triton.jit
    def shifted(x):
        return x + SHIFT
else:
    BLOCK_DEFAULT = tl.constexpr(32)
    SHIFT = 3.0

    @triton.jit
    def shifted(x):
        return x - SHIFT


@triton.jit
def softcap_kernel(x_ptr, y_ptr, n, SOFTCAP: tl.constexpr, BLOCK: tl.constexpr = BLOCK_DEFAULT):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0).to(tl.float32)
    x = SOFTCAP * triton_tanh(x / SOFTCAP)
    tl.store(y_ptr + offs, triton_cast(shifted(x), tl.float16), mask=m)


@triton.jit
def helpers_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, scaled_tanh(x), mask=m)
    tl.store(y_ptr + n + offs, act_twice(x), mask=m)
    tl.store(y_ptr + 2 * n + offs, fast_erf(x), mask=m)


if BLOCK_DEFAULT > 0:
    @triton.jit
    def guarded_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, shifted(tl.load(x_ptr + offs, mask=m)), mask=m)

try:
    @triton.jit
    def tried_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, scaled_tanh(tl.load(x_ptr + offs, mask=m)), mask=m)
except ImportError:
    tried_kernel = None


class Ops:
    @staticmethod
    @triton.jit
    def double_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)


def make_scale_kernel(scale):
    @triton.jit
    def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, triton_tanh(tl.load(x_ptr + offs, mask=m)) * scale, mask=m)
    return scale_kernel


def check_placements():
    x = torch.randn(50)
    y = torch.full((50,), float("nan"))
    guarded_kernel[(1,)](x, y, 50, BLOCK=64)
    assert torch.allclose(y, x + 2.0)
    tried_kernel[(1,)](x, y, 50, BLOCK=64)
    assert torch.allclose(y, torch.tanh(x) * 3 + 0.5, atol=1e-6)
    Ops.double_kernel[(1,)](x, y, 50, BLOCK=64)
    assert torch.allclose(y, 2 * x)
    for s in (2.0, -0.5):
        make_scale_kernel(s)[(1,)](x, y, 50, BLOCK=64)
        assert torch.allclose(y, torch.tanh(x) * s, atol=1e-6), s


# Globals read at the first launch, not at decoration: OFFSET changes after
# the kernel is defined, late_helper and LATE_SCALE are defined after it.
OFFSET = 1.0


@triton.jit
def late_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, late_helper(tl.load(x_ptr + offs, mask=m)) + OFFSET, mask=m)


@triton.jit
def late_helper(x):
    return x * LATE_SCALE


LATE_SCALE = 4.0
OFFSET = 7.0


def check_late_globals():
    x = torch.randn(50)
    y = torch.full((50,), float("nan"))
    late_kernel[(1,)](x, y, 50, BLOCK=64)
    assert torch.allclose(y, x * 4.0 + 7.0), (y[:4], x[:4])
    # the specialisation's key names the globals' values at the first launch
    # (a reading made at decoration must not stand: OFFSET changed since)
    (key,) = late_kernel.cache
    assert dict(key[1]).get("OFFSET") == "7.0", key


def main():
    torch.manual_seed(0)
    n = 200
    x = torch.randn(n) * 50
    y = torch.zeros(n, dtype=torch.float16)
    softcap_kernel[(triton.cdiv(n, 64),)](x, y, n, SOFTCAP=30.0)
    assert torch.allclose(y.float(), (30 * torch.tanh(x / 30) + 2.0).half().float(), atol=1e-2)
    x = torch.randn(n)
    y = torch.full((3 * n,), float("nan"))
    helpers_kernel[(triton.cdiv(n, 64),)](x, y, n, BLOCK=64)
    assert torch.allclose(y[:n], torch.tanh(x) * 3 + 0.5, atol=1e-6)
    assert torch.allclose(y[n:2 * n], torch.tanh(torch.tanh(x)), atol=1e-6)
    assert torch.allclose(y[2 * n:], torch.erf(x), atol=1e-6)
    check_placements()
    check_late_globals()
    print("module globals: ok")


if __name__ == "__main__":
    main()
