# RUN: %python %s
# REQUIRES: numpy
"""tests/kernels/libdevice_compose.py on the CPU against numpy: libdevice's
abs, hadd, rhadd, mulhi, mul24, sad, fma, fdim, nextafter and the fp64 bit
views, each computed here another way (Python integers, numpy's nextafter,
exact fractions); and the error for a dtype outside a function's table."""
import os
import sys
from fractions import Fraction

import numpy as np

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("libdevice_compose")
N = 64


def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def sext24(v):
    v &= 0xffffff
    return v - (1 << 24) if v >= 1 << 23 else v


def check_int():
    rng = np.random.default_rng(2)
    a = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    a[0], b[0] = 2**31 - 1, 2**31 - 1  # hadd without overflow
    a[1], b[1] = -2**31, -2**31
    ua = rng.integers(0, 2**32, N, dtype=np.int64).astype(np.uint32)
    ub = rng.integers(0, 2**32, N, dtype=np.int64).astype(np.uint32)
    ua[0], ub[0] = 2**32 - 1, 2**32 - 1
    out = np.zeros(6 * N, dtype=np.int32)
    uout = np.zeros(5 * N, dtype=np.uint32)
    MOD.libdevice_int_kernel[(1,)](a, b, ua, ub, out, uout, BLOCK=N)
    out, uout = out.reshape(6, N), uout.reshape(5, N)
    for i in range(N):
        x, y, ux, uy = int(a[i]), int(b[i]), int(ua[i]), int(ub[i])
        want = [wrap(abs(x), 32, True), (x + y) >> 1, (x + y + 1) >> 1, (x * y) >> 32,
                wrap(sext24(x) * sext24(y), 32, True), wrap(abs(x - y) + ux, 32, True)]
        got = [int(v) for v in out[:, i]]
        assert got == want, (i, x, y, got, want)
        uwant = [(ux + uy) >> 1, (ux + uy + 1) >> 1, (ux * uy) >> 32, wrap((ux & 0xffffff) * (uy & 0xffffff), 32, False),
                 wrap(abs(ux - uy) + uy, 32, False)]
        ugot = [int(v) for v in uout[:, i]]
        assert ugot == uwant, (i, ux, uy, ugot, uwant)


def check_float(dt):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(N) * 10).astype(dt)
    y = (rng.standard_normal(N) * 10).astype(dt)
    x[0], y[0] = 0, 1          # nextafter from zero: the least subnormal
    x[1], y[1] = -0.0, -1
    x[2], y[2] = 1, 1          # equal: y
    x[3], y[3] = np.nan, 1     # NaN
    x[4], y[4] = 2, np.nan
    x[5], y[5] = np.inf, 0     # the largest finite
    x[6], y[6] = -1.5, 7       # toward +: magnitude shrinks
    out = np.zeros(4 * N, dtype=dt)
    MOD.libdevice_float_kernel[(1,)](x, y, out, BLOCK=N)
    out = out.reshape(4, N)
    assert np.array_equal(out[0], np.abs(x), equal_nan=True)
    fin = np.isfinite(x) & np.isfinite(y)
    fma = [float(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(p))) for p, q in zip(x[fin], y[fin])]
    if dt == np.float64:  # the exact value rounded once
        assert np.array_equal(out[1][fin], np.array(fma))
    else:  # through fp64 it may round twice: within an ulp
        assert np.allclose(out[1][fin], np.array(fma), rtol=2e-7, atol=0)
    fdim = np.where(np.isnan(x) | np.isnan(y), np.nan, np.where(x > y, x - y, 0)).astype(dt)
    assert np.array_equal(out[2], fdim, equal_nan=True), (out[2], fdim)
    want = np.nextafter(x, y)
    assert np.array_equal(out[3], want, equal_nan=True), [(i, out[3][i], want[i]) for i in range(N) if out[3][i] != want[i]]
    assert np.signbit(out[3][1]) and out[3][1] < 0


def check_bits():
    rng = np.random.default_rng(4)
    d = rng.standard_normal(N) * 1e10
    d[0], d[1] = -0.0, np.inf
    hi = np.zeros(N, dtype=np.int32)
    lo = np.zeros(N, dtype=np.int32)
    dout = np.zeros(2 * N, dtype=np.float64)
    f = np.concatenate([rng.standard_normal(N).astype(np.float32), np.zeros(N, dtype=np.float32)])
    u = np.zeros(N, dtype=np.uint32)
    MOD.libdevice_bits_kernel[(1,)](d, hi, lo, dout, f, u, BLOCK=N)
    bits = d.view(np.int64)
    assert np.array_equal(hi, (bits >> 32).astype(np.int32))
    assert np.array_equal(lo, (bits & 0xffffffff).astype(np.uint32).view(np.int32))
    assert np.array_equal(dout[:N].view(np.int64), bits)
    assert np.array_equal(dout[N:], hi.astype(np.float64) + lo.view(np.uint32).astype(np.float64))
    assert np.array_equal(u, f[:N].view(np.uint32))
    assert np.array_equal(f[N:], f[:N])


def check_error():
    x = np.zeros(N, dtype=np.float32)
    try:
        MOD.libdevice_int_kernel[(1,)](x, x, x, x, x, x, BLOCK=N)
    except Exception as e:
        assert "abs() takes int32, int64, fp32 or fp64" not in str(e) and "hadd() takes two int32 or two uint32, got ('fp32', 'fp32')" in str(e), str(e)
    else:
        raise AssertionError("hadd on fp32 compiled")


check_int()
check_float(np.float32)
check_float(np.float64)
check_bits()
check_error()
print("ok")
