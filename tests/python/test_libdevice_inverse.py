# RUN: %python %s
# REQUIRES: torch
"""libdevice's inverse error functions and exponent/remainder functions,
composed in sema (src/sema/builtins.c, bi_libdevice_compose): erfinv,
erfcinv and normcdfinv (Giles' approximation, Halley-refined in fp64; the
tails near 1 and 0 keep their digits), erfcx (exp(x^2) erfc(x) with its
asymptotic series), logb and ilogb (subnormals, zeros, infinities, NaN) and
the IEEE remainder (ties to even), in fp32 and fp64, against Python's math
(bisection on math.erf/erfc for the inverses); byte_perm against its
definition."""
import math
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice


@triton.jit
def kern(X, Y, O, N: tl.constexpr, FN: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    if FN == "remainder":
        r = libdevice.remainder(x, tl.load(Y + o))
    elif FN == "ilogb":
        r = libdevice.ilogb(x)
    else:
        r = getattr(libdevice, FN)(x)
    tl.store(O + o, r)


def inv(f, target, lo, hi, increasing):
    """x in [lo, hi] with f(x) = target, by bisection to the last bit."""
    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if (f(mid) < target) == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def erfcinv_ref(y):
    if y == 0:
        return math.inf
    if y == 2:
        return -math.inf
    if y < 0 or y > 2 or y != y:
        return math.nan
    if y > 1:
        return -erfcinv_ref(2 - y)
    return inv(math.erfc, y, 0.0, 30.0, False)


def erfinv_ref(x):
    if x != x or abs(x) > 1:
        return math.nan
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    a = abs(x)
    z = inv(math.erf, a, 0.0, 10.0, True) if a < 0.5 else erfcinv_ref(1 - a)
    return math.copysign(z, x)


def erfcx_ref(x):
    if x < 25:
        return math.exp(x * x) * math.erfc(x)
    t, s, term = 1 / (x * x), 1.0, 1.0
    for k in range(1, 12):
        term *= -(2 * k - 1) / 2 * t
        s += term
    return s / (x * math.sqrt(math.pi))


def ref(fn, x, y):
    if fn == "erfinv":
        return erfinv_ref(x)
    if fn == "erfcinv":
        return erfcinv_ref(x)
    if fn == "normcdfinv":
        return -math.sqrt(2) * erfcinv_ref(2 * x)
    if fn == "erfcx":
        return erfcx_ref(x)
    if fn in ("logb", "ilogb"):
        if x != x:
            return math.nan if fn == "logb" else -2**31
        if x == 0:
            return -math.inf if fn == "logb" else -2**31
        if math.isinf(x):
            return math.inf if fn == "logb" else 2**31 - 1
        return float(math.frexp(x)[1] - 1)
    if fn == "remainder":
        if y == 0 or math.isinf(x) or x != x or y != y:
            return math.nan
        return math.remainder(x, y)


def close(got, want, tol):
    if want != want:
        return got != got
    if math.isinf(want):
        return got == want
    if abs(want) < 1e-15:  # erfcinv(1): the bisection's zero is 5e-17
        return abs(got) < 1e-15
    return abs(got - want) <= tol * max(abs(want), 1e-300)


CASES = {
    "erfinv": ([0.0, -0.0, 1e-30, 1e-8, 0.1, -0.3, 0.5, 0.75, -0.9, 0.99, 0.999999, -0.9999999, 1.0, -1.0, 1.5, math.nan],
               None, 1e-6, 1e-14),
    "erfcinv": ([1.0, 0.5, 1e-3, 1e-10, 1e-30, 1.5, 1.999, 0.0, 2.0, 2.5, -0.1, 1e-38, 0.9],
                None, 1e-6, 1e-14),
    "normcdfinv": ([0.5, 0.025, 0.975, 1e-6, 1 - 1e-6, 1e-20, 0.0, 1.0, 0.3], None, 1e-6, 1e-14),
    "erfcx": ([0.0, 0.5, -0.5, 1.0, 3.0, 8.0, 12.0, 25.5, 26.5, 100.0, 1e5, -3.0, -9.0, math.inf, -math.inf],
              None, 1e-6, 1e-12),
    "logb": ([1.0, 1.5, 0.75, -8.0, 1e-40, -3e-42, 2.0**-149, 1e30, 3.4e38, 0.0, -0.0, math.inf, -math.inf, math.nan],
             None, 0.0, 0.0),
    "ilogb": ([1.0, 1.5, 0.75, -8.0, 1e-40, -3e-42, 2.0**-149, 1e30, 3.4e38, 0.0, math.inf, math.nan], None, 0.0, 0.0),
    "remainder": ([5.0, 5.5, 6.5, -7.5, 1.0, 10.0, 3.25, -0.75, 1e10, 2.5, math.inf, 3.0],
                  [2.0, 1.0, 1.0, 1.0, 3.0, 4.0, 0.5, 0.5, 3.0, 0.0, 2.0, math.inf], 0.0, 0.0),
}
F64_EXTRA = {"logb": [1e-310, 5e-324, 1e300], "ilogb": [1e-310, 5e-324, 1e300],
             "erfinv": [1 - 1e-15], "erfcinv": [1e-300]}

failures = []
n = 0


@triton.jit
def perm_kernel(X, Y, S, O, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(O + o, libdevice.byte_perm(tl.load(X + o), tl.load(Y + o), tl.load(S + o)))


def byte_perm_ref(x, y, s):
    b = (x & 0xFFFFFFFF) | ((y & 0xFFFFFFFF) << 32)
    r = 0
    for i in range(4):
        r |= ((b >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i)
    return r - (1 << 32) if r >= 1 << 31 else r


g = torch.Generator().manual_seed(3)
xs = torch.randint(-2**31, 2**31 - 1, (64,), generator=g, dtype=torch.int64).to(torch.int32)
ys = torch.randint(-2**31, 2**31 - 1, (64,), generator=g, dtype=torch.int64).to(torch.int32)
ss = torch.randint(0, 2**16, (64,), generator=g, dtype=torch.int32)
ss[0], ss[1], ss[2] = 0x3210, 0x7654, 0x0123  # identity, y, byte reversal
po = torch.empty(64, dtype=torch.int32)
perm_kernel[(1,)](xs, ys, ss, po, N=64)
for i in range(64):
    n += 1
    want = byte_perm_ref(xs[i].item(), ys[i].item(), ss[i].item())
    if po[i].item() != want:
        failures.append("byte_perm(%#x, %#x, %#x): got %#x, want %#x" % (xs[i].item(), ys[i].item(), ss[i].item(),
                                                                        po[i].item(), want))
for fn, (xs, ys, tol32, tol64) in CASES.items():
    for dt in (torch.float32, torch.float64):
        xv = list(xs) + (F64_EXTRA.get(fn, []) if dt == torch.float64 else [])
        yv = list(ys) if ys else [1.0] * len(xv)
        N = 32
        pad = N - len(xv)
        X = torch.tensor(xv + [0.5] * pad, dtype=dt)
        Y = torch.tensor(yv + [1.0] * pad, dtype=dt)
        O = torch.empty(N, dtype=torch.int32 if fn == "ilogb" else dt)
        kern[(1,)](X, Y, O, N=N, FN=fn)
        for i in range(len(xv)):
            x, y = X[i].item(), Y[i].item()  # the values as the kernel saw them (rounded to fp32)
            want = ref(fn, x, y)
            got = O[i].item()
            tol = tol32 if dt == torch.float32 else tol64
            if fn == "ilogb":
                ok = got == want
            else:
                ok = close(got, want, tol) or (want == 0 and got == 0)
            n += 1
            if not ok:
                failures.append("%s(%r%s) %s: got %r, want %r" % (fn, x, ", %r" % y if ys else "", dt, got, want))

for f in failures:
    print("FAIL", f)
print("%d checks, %d failures" % (n, len(failures)))
sys.exit(1 if failures else 0)
