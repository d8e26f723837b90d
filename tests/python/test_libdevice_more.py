# RUN: %python %s
# REQUIRES: torch
"""libdevice functions built from others (src/sema/builtins.c,
bi_libdevice_compose): ldexp and scalbn (exact, to overflow and into the
subnormals), norm3d/norm4d and their reciprocals (scaled: no overflow for
1e308), rhypot, rsqrt_rn, rcbrt, sinpi/cospi (exact zeros and ones at the
integers and half-integers, even past 2^53), normcdf and lgamma/tgamma
(poles, the reflection below 1/2, tgamma up to its overflow), in fp32 and
fp64, against Python's math in exact or extended arithmetic."""
import math
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice


@triton.jit
def kern(X, Y, Z, I, O, N: tl.constexpr, FN: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.load(Y + o)
    z = tl.load(Z + o)
    i = tl.load(I + o)
    if FN == "ldexp":
        r = libdevice.ldexp(x, i)
    elif FN == "scalbn":
        r = libdevice.scalbn(x, i)
    elif FN == "norm3d":
        r = libdevice.norm3d(x, y, z)
    elif FN == "rnorm3d":
        r = libdevice.rnorm3d(x, y, z)
    elif FN == "norm4d":
        r = libdevice.norm4d(x, y, z, x)
    elif FN == "rnorm4d":
        r = libdevice.rnorm4d(x, y, z, x)
    elif FN == "rhypot":
        r = libdevice.rhypot(x, y)
    else:
        r = getattr(libdevice, FN)(x)
    tl.store(O + o, r)


def norm(*v):
    m = max(abs(a) for a in v)
    if math.isinf(m):
        return math.inf
    if m == 0:
        return 0.0
    return m * math.sqrt(sum((a / m) ** 2 for a in v))


def ref(fn, x, y, z, i):
    if fn in ("ldexp", "scalbn"):
        try:
            return math.ldexp(x, i)
        except OverflowError:
            return math.copysign(math.inf, x)
    r = {"norm3d": lambda: norm(x, y, z), "norm4d": lambda: norm(x, y, z, x),
         "rhypot": lambda: 1 / norm(x, y) if norm(x, y) else math.inf}
    if fn in r:
        return r[fn]()
    if fn in ("rnorm3d", "rnorm4d"):
        d = ref(fn[1:], x, y, z, i)
        return 1 / d if d else math.inf
    if fn == "rsqrt_rn":
        return 1 / math.sqrt(x) if x else math.inf
    if fn == "rcbrt":
        c = abs(x) ** (1 / 3)
        if c and not math.isinf(c):  # one Newton step: x ** (1/3) is off by an ulp or more
            c = c - (c * c * c - abs(x)) / (3 * c * c)
        c = math.copysign(c, x)
        return 1 / c if c else math.copysign(math.inf, x)
    if fn in ("sinpi", "cospi"):
        r2 = math.fmod(x, 2.0)  # exact
        return math.sin(math.pi * r2) if fn == "sinpi" else math.cos(math.pi * r2)
    if fn == "normcdf":
        return 0.5 * math.erfc(-x / math.sqrt(2))
    if fn == "lgamma":
        try:
            return math.lgamma(x)
        except ValueError:  # the poles
            return math.inf
    if fn == "tgamma":
        if x == 0:
            return math.copysign(math.inf, x)
        try:
            return math.gamma(x)
        except ValueError:  # negative integers, -inf
            return math.nan
        except OverflowError:
            return math.inf
    raise KeyError(fn)


def main():
    fails = 0
    n = 64
    g = torch.Generator().manual_seed(5)
    for dt, rtol, atol, big, tiny in ((torch.float32, 2e-6, 1e-6, 3e38, 1e-30),
                                      (torch.float64, 1e-14, 1e-15, 1e308, 1e-300)):
        # lgamma/tgamma: Lanczos to ~1e-15, its exp(log) form gives up a few digits at large x
        gtol = {"lgamma": (1e-5, 1e-5) if dt == torch.float32 else (1e-13, 1e-13),
                "tgamma": (1e-5, 1e-30) if dt == torch.float32 else (5e-13, 1e-300)}
        x = (torch.randn(n, generator=g, dtype=torch.float64) * 3).to(dt)
        y = torch.randn(n, generator=g, dtype=torch.float64).to(dt)
        z = torch.randn(n, generator=g, dtype=torch.float64).to(dt)
        x[:10] = torch.tensor([0.0, -0.0, 1.0, 2.5, -3.0, tiny, big, 0.5, -1.5, 2.0 ** 60], dtype=torch.float64).to(dt)
        i = torch.randint(-300, 300, (n,), generator=g, dtype=torch.int32)
        i[:4] = torch.tensor([0, 1, -1, 2000 if dt == torch.float64 else 250], dtype=torch.int32)
        for fn in ("ldexp", "scalbn", "norm3d", "rnorm3d", "norm4d", "rnorm4d", "rhypot", "rsqrt_rn", "rcbrt",
                   "sinpi", "cospi", "normcdf", "lgamma", "tgamma"):
            xx = x.abs() if fn == "rsqrt_rn" else x
            if fn in ("lgamma", "tgamma"):  # poles, the reflection, and tgamma's overflow near 171.6
                xx = x.clone()
                xx[:14] = torch.tensor([0.5, 1.0, 2.0, 3.5, -0.5, -2.5, -3.0, 0.0, -0.0, 10.25, 30.0, 1e-8,
                                        -1e-8, 171.0 if dt == torch.float64 else 34.0], dtype=torch.float64).to(dt)
            o = torch.empty(n, dtype=dt)
            kern[(1,)](xx, y, z, i, o, n, fn)
            bad = []
            for a, b, c, d, got in zip(xx.tolist(), y.tolist(), z.tolist(), i.tolist(), o.tolist()):
                want = ref(fn, a, b, c, d)
                want = torch.tensor(want, dtype=torch.float64).to(dt).item()  # rounded to the width
                rt, at = gtol.get(fn, (rtol, atol))
                if not (got == want or abs(got - want) <= at + rt * abs(want) or (got != got and want != want)):
                    bad.append((a, got, want))
            ok = not bad
            print("%s %s: %s" % (str(dt)[6:], fn, "ok" if ok else "FAIL %s" % bad[:3]))
            fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
