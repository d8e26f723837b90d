# RUN: %python %s
# REQUIRES: numpy
"""tests/kernels/libdevice_rounding.py on the CPU: libdevice's add, sub,
mul, div, rcp, sqrt and fma in each rounding mode, fp32 and fp64, against a
reference rounded from the exact result (Python's Fraction): the two
representable neighbours of the exact value, and the mode picks one. And
saturatef, and the error for an integer operand."""
import importlib.util
import math
import os
import sys
from fractions import Fraction

import numpy as np

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("libdevice_rounding")

MODES = ("rn", "rz", "rd", "ru")


def neighbours(dt, below_or_equal):
    """lo, the largest dt value v with below_or_equal(v), and hi, the next one up."""
    def up(v):
        return np.nextafter(v, dt(np.inf), dtype=dt)

    def down(v):
        return np.nextafter(v, dt(-np.inf), dtype=dt)
    return up, down


def round_exact(dt, le, guess, mode, exact_at=None, mid_below=None):
    """The dt value the mode gives for an exact x: le(v) says v <= x, guess
    is close to x, exact_at(v) says v == x, mid_below(lo, hi) says x < the
    midpoint of lo and hi (ties go to the even one)."""
    up, down = neighbours(dt, le)
    v = dt(guess)
    while not le(v):
        v = down(v)
    while le(up(v)):
        v = up(v)
    lo = v
    if exact_at(lo):
        return lo
    hi = up(lo)
    if mode == "rd":
        return lo
    if mode == "ru":
        return hi
    if mode == "rz":
        return lo if lo >= 0 else hi
    m = mid_below(lo, hi)
    if m is None:  # a tie: the even significand
        return lo if int(np.array(lo).view(np.uint32 if dt == np.float32 else np.uint64)) % 2 == 0 else hi
    return lo if m else hi


def rounded(dt, q, mode):
    return round_exact(dt, lambda v: Fraction(float(v)) <= q, float(q), mode,
                       exact_at=lambda v: Fraction(float(v)) == q,
                       mid_below=lambda lo, hi: None if (Fraction(float(lo)) + Fraction(float(hi))) / 2 == q
                       else q < (Fraction(float(lo)) + Fraction(float(hi))) / 2)


def rounded_sqrt(dt, s, mode):
    q = Fraction(float(s))
    return round_exact(dt, lambda v: v <= 0 or Fraction(float(v)) ** 2 <= q, math.sqrt(float(s)), mode,
                       exact_at=lambda v: Fraction(float(v)) ** 2 == q,
                       mid_below=lambda lo, hi: q < ((Fraction(float(lo)) + Fraction(float(hi))) / 2) ** 2)


def check(dt):
    rng = np.random.default_rng(1)
    n = 64
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(dt)
    y = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(dt)
    z = (rng.standard_normal(n) * np.exp2(rng.integers(-40, 20, n))).astype(dt)
    x[0], y[0] = dt(1), dt(3)  # 1/3: inexact in every mode
    x[1], y[1] = dt(-1), dt(3)
    x[2] = dt(2)  # sqrt(2)
    x[3], y[3], z[3] = dt(4), dt(0.5), dt(0)  # exact
    out = np.zeros(28 * n, dtype=dt)
    MOD.rounded_arith_kernel[(1,)](x, y, z, out, BLOCK=n)
    out = out.reshape(28, n)
    X, Y, Z = ([Fraction(float(v)) for v in a] for a in (x, y, z))
    for k, mode in enumerate(MODES):
        for i in range(n):
            want = [rounded(dt, X[i] + Y[i], mode), rounded(dt, X[i] - Z[i], mode), rounded(dt, X[i] * Y[i], mode), rounded(dt, X[i] / Y[i], mode),
                    rounded(dt, 1 / Y[i], mode), rounded_sqrt(dt, abs(x[i]), mode),
                    rounded(dt, X[i] * Y[i] + Z[i], mode)]
            for j, w in enumerate(want):
                got = out[4 * j + k, i]
                assert got == w, (dt.__name__, ("add", "sub", "mul", "div", "rcp", "sqrt", "fma")[j], mode, i, got, w)
    # directed modes really differ: 1/3 rounds down and up to neighbours
    assert out[14, 0] < out[15, 0] and out[13, 0] == out[14, 0] and out[13, 1] == out[15, 1]


def check_convert():
    N = 64
    rng = np.random.default_rng(7)
    i = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    u = rng.integers(0, 2**32, N, dtype=np.int64).astype(np.uint32)
    ll = rng.integers(-2**63, 2**63 - 1, N, dtype=np.int64)
    ull = rng.integers(0, 2**64 - 1, N, dtype=np.uint64)
    d = rng.standard_normal(N) * 1e12
    i[0], u[0], ll[0], ull[0], d[0] = 16777217, 16777217, 2**53 + 1, 2**53 + 1, 1 + 2**-30  # inexact
    i[1], ll[1], d[1] = -16777217, -(2**53 + 1), -(1 + 2**-30)
    i[2], u[2], ll[2], ull[2], d[2] = 7, 7, 7, 7, 0.5  # exact
    fo = np.zeros(20 * N, dtype=np.float32)
    do = np.zeros(8 * N, dtype=np.float64)
    io = np.zeros(6 * N, dtype=np.int64)
    MOD.convert_kernel[(1,)](i, u, ll, ull, d, fo, do, io, BLOCK=N)
    fo, do, io = fo.reshape(20, N), do.reshape(8, N), io.reshape(6, N)
    srcs = (i, u, ll, ull, d)
    for s, src in enumerate(srcs):
        for k, mode in enumerate(MODES):
            want = [rounded(np.float32, Fraction(int(v)) if s < 4 else Fraction(float(v)), mode) for v in src]
            assert np.array_equal(fo[4 * s + k], np.array(want, dtype=np.float32)), (s, mode)
    for s, src in enumerate((ll, ull)):
        for k, mode in enumerate(MODES):
            want = [rounded(np.float64, Fraction(int(v)), mode) for v in src]
            assert np.array_equal(do[4 * s + k], np.array(want)), (s, mode)
    e = d * 1e-4
    for s, x in enumerate((e, d)):
        bad = io[3 * s] != np.trunc(x).astype(np.int64)
        assert not bad.any(), (s, io[3 * s][bad], x[bad])
        assert np.array_equal(io[3 * s + 1], np.floor(x).astype(np.int64))
        assert np.array_equal(io[3 * s + 2], np.ceil(x).astype(np.int64))
    assert fo[1, 0] < fo[3, 0] and fo[2, 1] < fo[1, 1]  # rz/ru differ on 2^24 + 1; rd below rz for negatives


def check_saturate():
    x = np.array([-1.0, -0.0, 0.25, 1.0, 1.5, np.inf, -np.inf, np.nan] * 8, dtype=np.float32)
    out = np.full(64, 7.0, dtype=np.float32)
    MOD.saturate_kernel[(1,)](x, out, BLOCK=64)
    want = np.nan_to_num(np.clip(x, 0.0, 1.0), nan=0.0)
    assert np.array_equal(out, want), out[:8]


def check_error():
    x = np.zeros(64, dtype=np.int32)
    try:
        MOD.saturate_kernel[(1,)](x, x, BLOCK=64)
    except Exception as e:
        assert "saturatef(): input arg type does not match. Expect fp32 operands of one type, got ('int32')" in str(e), str(e)
        assert "libdevice_rounding.py:" in str(e), str(e)
    else:
        raise AssertionError("saturatef on int32 compiled")
    # a libdevice function tritonc lacks is named as such, at its call
    src = "import tritonc as triton\nfrom tritonc.language.extra import libdevice\n\n\n@triton.jit\n" \
          "def k(x_ptr):\n    x = libdevice.rcp64h(1.0)\n"
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tc_ld_missing_{os.getpid()}.py")
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("tc_ld_missing", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    try:
        m.k[(1,)](np.zeros(1, dtype=np.float32))
    except Exception as e:
        assert os.path.basename(path) + ":7:9: error: libdevice.rcp64h is not supported by tritonc yet" in str(e), str(e)
    else:
        raise AssertionError("libdevice.rcp64h compiled")
    finally:
        os.unlink(path)


check(np.float32)
check(np.float64)
check_convert()
check_saturate()
check_error()
print("ok")
