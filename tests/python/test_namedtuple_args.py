# RUN: %python %s
# REQUIRES: torch
"""NamedTuple arguments, as Triton 3 takes them: the kernel reads fields by
name (`cfg.scale`), passes the tuple to a @jit helper that does too, and
unpacks or indexes it as a plain tuple. The signature names the fields
(`(scale=fp32,n=i32)`), so two NamedTuple classes whose fields have the
same types in another order compile apart and read the right values."""
import sys
from typing import NamedTuple

import torch

import tritonc as triton
import tritonc.language as tl


class Cfg(NamedTuple):
    scale: float
    n: int
    bias: object


class Swapped(NamedTuple):  # the same types as (scale, n): fields read by name must not mix up
    n: int
    scale: float
    bias: object


@triton.jit
def _affine(x, cfg):
    y = x * cfg.scale
    if cfg.bias is not None:
        y += tl.load(cfg.bias + tl.arange(0, x.shape[0]))
    return y


@triton.jit
def named_kernel(X, Y, cfg, N: tl.constexpr):
    o = tl.arange(0, N)
    m = o < cfg.n
    x = tl.load(X + o, mask=m, other=0.0)
    y = _affine(x, cfg)
    for i in range(2):
        y += cfg[1] * i  # positionally too: 0 + n
    tl.store(Y + o, y, mask=m)


failures = []
N = 64
x = torch.randn(N)
bias = torch.randn(N)
for cfg in (Cfg(2.5, 50, None), Cfg(0.5, 64, bias), Swapped(40, -1.5, None), Swapped(17, 3.0, bias)):
    y = torch.zeros(N)
    named_kernel[(1,)](x, y, cfg, N=N)
    n, scale = cfg.n, cfg.scale
    ref = x * scale + (bias if cfg.bias is not None else 0) + cfg[1]
    ref[n:] = 0
    if not torch.allclose(y, ref, atol=1e-5):
        failures.append("%r: max error %g" % (type(cfg).__name__, (y - ref).abs().max().item()))

try:
    @triton.jit
    def bad_field(X, cfg, N: tl.constexpr):
        tl.store(X + tl.arange(0, N), cfg.missing)
    bad_field[(1,)](torch.zeros(4), Cfg(1.0, 2, None), N=4)
    failures.append("no error for a missing field")
except triton.CompilationError as e:
    if "no field 'missing'" not in str(e):
        failures.append("unexpected error: %s" % e)

for f in failures:
    print("FAIL", f)
print("ok" if not failures else "%d failures" % len(failures))
sys.exit(1 if failures else 0)
