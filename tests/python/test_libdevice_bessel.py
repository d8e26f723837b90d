# RUN: %python %s
# REQUIRES: torch, numpy
"""libdevice's Bessel functions (tests/kernels/libdevice_bessel.py: j0, j1,
y0, y1, cyl_bessel_i0, cyl_bessel_i1) on the CPU, fp64 and fp32, against
mpmath at 30 digits: on a grid over [-40, 40], random points out to 1e4,
the forms' seams (5 and 8), the first zeros, tiny and huge arguments, i0/i1
up to and past their overflow, and the special values (0, -0, +-inf, NaN,
negative arguments of y). The error is measured against the envelope of
the function (|f| for i0 and i1; max(|f|, 0.1 sqrt(2 / (pi x))) for the
oscillating ones, whose relative error near a zero is unbounded): at most
8e-15 in fp64 (measured ~2e-15), and in fp32 the correctly rounded value
within an ulp of the envelope."""
import math
import os
import sys

import mpmath as mp
import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("libdevice_bessel")
mp.mp.dps = 30

REF = {"j0": lambda x: mp.besselj(0, x), "j1": lambda x: mp.besselj(1, x),
       "y0": lambda x: mp.bessely(0, x), "y1": lambda x: mp.bessely(1, x),
       "i0": lambda x: mp.besseli(0, x), "i1": lambda x: mp.besseli(1, x)}
ZEROS = [2.404825557695773, 5.520078110286311, 3.8317059702075125, 7.015586669815619,
         0.8935769662791675, 3.957678419314858, 2.197141326031017, 5.429681040794135]


def want(fn, x):
    """The function at the double x, rounded to double (None: NaN)."""
    if math.isnan(x) or (fn[0] == "y" and x < 0):
        return None
    if math.isinf(x):
        return 0.0 if fn[0] in "jy" else (math.inf if fn == "i0" or x > 0 else -math.inf)
    if fn[0] == "y" and x == 0:
        return -math.inf
    v = REF[fn](mp.mpf(x))
    return float(v) if abs(v) < mp.mpf("1.7e308") else math.copysign(math.inf, float(mp.sign(v)))


def envelope(fn, x, w):
    if fn[0] == "i":
        return abs(w)
    return max(abs(w), 0.1 * math.sqrt(2 / (math.pi * max(abs(x), 1e-300))))


def ulp32(v):
    """The spacing of fp32 numbers at |v| (v finite)."""
    return 2.0 ** max(math.frexp(v)[1] - 24, -149) if v else 2.0 ** -149


def main():
    rng = np.random.default_rng(2026)
    xs = np.concatenate([
        np.linspace(-40, 40, 513), rng.uniform(-1e4, 1e4, 64), rng.uniform(-12, 12, 200),
        [z + d for z in ZEROS for d in (-1e-9, 0.0, 1e-9)],
        [0.0, -0.0, 1e-300, 5e-324, 1e-10, 4.999999, 5.0, 5.000001, 7.999999, 8.0, 8.000001, 1e8 + 0.3,
         1e9 + 0.7, 700.0, 713.9, 720.0, -720.0, math.inf, -math.inf, math.nan]])
    fails = []
    for dt, tol in ((torch.float64, 8e-15), (torch.float32, None)):
        x = torch.tensor(xs, dtype=dt)
        xd = x.double().tolist()
        for fn in REF:
            o = torch.full_like(x, 12345.0)
            block = 128 if fn == "i1" else 256
            K.bessel_kernel[(triton.cdiv(len(x), block),)](x, o, len(x), FN=fn, BLOCK=block)
            worst = (0.0, None, None, None)
            for xi, oi in zip(xd, o.tolist()):
                w = want(fn, xi)
                if w is None or math.isinf(w):
                    ok = (w is None and math.isnan(oi)) or (w is not None and (oi == w or (
                        dt == torch.float32 and math.isinf(float(np.float32(w))) and oi == w)))
                    if not ok:
                        fails.append("%s %s(%r) = %r, want %r" % (dt, fn, xi, oi, w))
                    continue
                if dt == torch.float32:
                    w32 = float(np.float32(w)) if abs(w) < 3.4028235e38 else math.copysign(math.inf, w)
                    if math.isinf(w32):
                        if oi != w32:
                            fails.append("%s %s(%r) = %r, want %r" % (dt, fn, xi, oi, w32))
                        continue
                    # within an fp32 ulp of the envelope of the correctly rounded value
                    ulp = ulp32(envelope(fn, xi, w32))
                    if abs(oi - w32) > ulp:
                        fails.append("%s %s(%r) = %r, want %r" % (dt, fn, xi, oi, w32))
                    continue
                env = envelope(fn, xi, w)
                err = abs(oi - w) / env if env else abs(oi - w) / 5e-324
                if err > worst[0]:
                    worst = (err, xi, oi, w)
            if dt == torch.float64:
                print("%s: largest error / envelope %.2e at %r (%r, want %r)" % (fn, *worst))
                if worst[0] > tol:
                    fails.append("fp64 %s: error %.2e > %.0e at %r" % (fn, worst[0], tol, worst[1]))
    for f in fails[:20]:
        print("FAIL:", f)
    if fails:
        sys.exit("%d failures" % len(fails))
    print("ok")


main()
