# RUN: %python %s
# REQUIRES: torch
"""fp64 erf, erfc and erfcx (tl.erf, libdevice.erf/erfc/erfcx) against
mpmath at 30 digits (not torch.special: its float64 erfcx is ~490 ulps off
near -25), in ulps of the reference, on inputs that cover each formula's branches: erf's polynomial
below 1 and 1 - erfc above, erfc's 1 - erf below 1/2 and its underflow at
27.3, erfcx over the whole line (its overflow below -26.6), signed zeros,
infinities and NaN. On the GPU these are expand-f64-math's Chebyshev forms
(src/transform/expand_f64_math.c); on the CPU, libm's erf/erfc and the
prelude's erfcx. Run with tensors on CUDA by bench/gpu/python_tests_on_cuda.sh."""
import math
import sys

import mpmath
import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice


@triton.jit
def kern(X, O, N: tl.constexpr, FN: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    if FN == "tl.erf":
        r = tl.erf(x)
    elif FN == "erf":
        r = libdevice.erf(x)
    elif FN == "erfc":
        r = libdevice.erfc(x)
    else:
        r = libdevice.erfcx(x)
    tl.store(O + o, r)


N = 4096
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.49999999999999994, 0.9999999999999999, 1e-300, -1e-310,
           3.0, 6.0, 26.5, 27.29, 27.3, 27.31, -26.5, -26.6, 100.0, 1e8, 1e300, math.inf, -math.inf, math.nan]


def inputs(gen, lo, hi):
    x = torch.empty(N, dtype=torch.float64)
    x[:len(SPECIAL)] = torch.tensor(SPECIAL, dtype=torch.float64)
    x[len(SPECIAL):] = lo + (hi - lo) * torch.rand(N - len(SPECIAL), dtype=torch.float64, generator=gen,
                                                     device="cpu")
    return x


def reference(fn, v):
    """fn(v) in double: mpmath for the finite values in its range, the
    limits (and signed zeros, which mpmath drops) written out."""
    if math.isnan(v):
        return math.nan
    if fn == "erfcx":
        if v < -26.7:
            return math.inf
        if v > 1e4:  # mpmath's exp(v^2) overflows: the asymptotic series, exact to double here
            return 0.0 if math.isinf(v) else (1 - 1 / (2 * v * v)) / (v * math.sqrt(math.pi))
        x = mpmath.mpf(v)
        return float(mpmath.exp(x * x) * mpmath.erfc(x))
    if fn == "erfc":
        if v > 30:
            return 0.0
        return 2.0 if v < -30 else float(mpmath.erfc(mpmath.mpf(v)))
    if v == 0 or abs(v) > 30:
        return v if v == 0 else math.copysign(1.0, v)
    return float(mpmath.erf(mpmath.mpf(v)))


def ulps(got, want):
    """|got - want| in ulps of want (NaN, infinities and zeros must match)."""
    worst = 0.0
    for g, w in zip(got.tolist(), want.tolist()):
        if math.isnan(w) or math.isinf(w) or w == 0:
            same = (math.isnan(g) and math.isnan(w)) or (g == w and math.copysign(1, g) == math.copysign(1, w))
            if not same:
                return math.inf
            continue
        worst = max(worst, abs(g - w) / (math.ulp(abs(w))))
    return worst


def main():
    gen = torch.Generator(device="cpu").manual_seed(1234)
    mpmath.mp.dps = 30
    # (function, input range, ulps allowed)
    cases = [("tl.erf", -7, 7, 2), ("erf", -1.2, 1.2, 2), ("erfc", -6, 6, 4), ("erfc", 0, 28, 4),
             ("erfcx", -26, 30, 4), ("erfcx", 0, 1e5, 4)]
    fails = 0
    device = torch.empty(0).device
    for fn, lo, hi, allowed in cases:
        x = inputs(gen, lo, hi)
        out = torch.full((N,), -12345.0, dtype=torch.float64, device=device)
        kern[(1,)](x.to(device), out, N=N, FN=fn)
        got = out.cpu()
        want = torch.tensor([reference(fn.replace("tl.", ""), v) for v in x.tolist()], dtype=torch.float64)
        err = ulps(got, want)
        ok = err <= allowed
        fails += not ok
        print("%-7s [%g, %g] on %s: %.2f ulps (allowed %d) %s" % (fn, lo, hi, device, err, allowed,
                                                                  "ok" if ok else "FAIL"))
    print("%d cases, %d failures" % (len(cases), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
