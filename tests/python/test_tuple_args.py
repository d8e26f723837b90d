# RUN: %python %s
# REQUIRES: torch
"""Tuple arguments, as Triton 3 takes them: a kernel parameter may be a
(nested) tuple of tensors, ints, floats and None; the kernel unpacks or
indexes it and may hand it to a @jit helper. Each leaf is specialised like a
top-level argument (alignment, an int equal to 1 or divisible by 16, None a
constant), repeated launches use the new values, and a change of dtype
compiles again."""
import collections
import sys

import torch

import tritonc as triton
import tritonc.language as tl

Pair = collections.namedtuple("Pair", "x y")


@triton.jit
def _axpy(ptrs, a, offs):
    x, y = ptrs
    return a * tl.load(x + offs) + tl.load(y + offs)


@triton.jit
def tuple_kernel(ptrs, params, out, N: tl.constexpr):
    offs = tl.arange(0, N)
    a, (stride, bias) = params
    v = _axpy(ptrs, a, offs * stride)
    if bias is not None:
        v += tl.load(bias + offs)
    tl.store(out + offs, v)


@triton.jit
def strides_kernel(x, shape_strides, out, BLOCK: tl.constexpr):
    m, n = shape_strides[0]
    sm, sn = shape_strides[1]
    rm = tl.arange(0, BLOCK)[:, None]
    rn = tl.arange(0, BLOCK)[None, :]
    mask = (rm < m) & (rn < n)
    tl.store(out + rn * m + rm, tl.load(x + rm * sm + rn * sn, mask=mask), mask=mask)


def main():
    fails = 0

    def check(ok, what):
        nonlocal fails
        print("%s: %s" % (what, "ok" if ok else "FAIL"))
        fails += not ok

    n = 16
    x, y, b = torch.randn(2 * n), torch.randn(2 * n), torch.randn(n)
    out = torch.empty(n)
    tuple_kernel[(1,)]((x, y), (2.0, (1, None)), out, n)
    check(torch.allclose(out, 2 * x[:n] + y[:n]), "tensors, a float, stride 1 (a constant), None")
    tuple_kernel[(1,)]((x, y), (0.5, (2, b)), out, n)
    check(torch.allclose(out, 0.5 * x[::2] + y[::2] + b), "stride 2, a bias tensor")
    tuple_kernel[(1,)](Pair(y, x), (3.0, (2, b)), out, n)
    check(torch.allclose(out, 3 * y[::2] + x[::2] + b), "a namedtuple (its own specialisation: fields by name)")
    xh, yh = x.half(), y.half()
    out_h = torch.empty(n, dtype=torch.float16)
    tuple_kernel[(1,)]((xh, yh), (2.0, (1, None)), out_h, n)
    check(torch.allclose(out_h.float(), (2 * xh[:n].float() + yh[:n].float()), atol=1e-2), "fp16 leaves")
    sigs = sorted(k.signature for k in tuple_kernel.cache.values())
    print("signatures:", sigs)
    check("(*fp32:16,*fp32:16),(fp32,(i32:1,none)),*fp32:16" in sigs, "the tuples' signature")
    check("(x=*fp32:16,y=*fp32:16),(fp32,(i32,*fp32:16)),*fp32:16" in sigs, "the namedtuple's signature names its fields")
    check(len(tuple_kernel.cache) == 4, "4 specialisations (%d)" % len(tuple_kernel.cache))

    a = torch.randn(5, 7)
    o = torch.zeros(7, 5)
    strides_kernel[(1,)](a, (a.shape, a.stride()), o, BLOCK=8)
    check(torch.equal(o, a.t()), "shape and strides as nested tuples of ints")
    at = a.t()
    o2 = torch.zeros(5, 7)
    strides_kernel[(1,)](at, (at.shape, at.stride()), o2, BLOCK=8)
    check(torch.equal(o2, a), "a transposed view's strides")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
