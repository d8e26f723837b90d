# The PTX of the scan kernels, run on the CPU by a lockstep simulator of the
# CTA (Inputs/ptx_sim.py: warp shuffles, shared memory with a race check)
# and compared with numpy: every layout the scan lowering meets (lanes,
# warps and repetitions along the axis, copies of a small tile, 2-D tiles
# along either axis), reversed scans, a two-operand scan whose combine is
# not commutative, and the element types the shuffles move in pieces.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402

KERNELS = os.path.join(HERE, "..", "kernels")
TRITONC = sys.argv[1]
RNG = np.random.default_rng(7)


def compile_ptx(path, kernel, sig, cx, warps, target="cuda:90"):
    cmd = [TRITONC, "compile", os.path.join(KERNELS, path), "--kernel", kernel, "--signature", sig,
           "--emit", "ptx", "--target", target, "--num-warps", str(warps)]
    for k, v in cx.items():
        cmd += ["-D", "%s=%s" % (k, v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    return Kernel(r.stdout)


def cumsum(x, axis, rev):
    if rev:
        return np.flip(np.cumsum(np.flip(x, axis), axis=axis, dtype=x.dtype), axis)
    return np.cumsum(x, axis=axis, dtype=x.dtype)


def scan(x, axis, rev, f):
    """A sequential scan with f(earlier, later), in scan order."""
    x = np.moveaxis(np.array(x), axis, -1)
    out = x.copy()
    idx = range(x.shape[-1] - 1, -1, -1) if rev else range(x.shape[-1])
    prev = None
    for i in idx:
        if prev is not None:
            out[..., i] = f(out[..., prev], x[..., i])
        prev = i
    return np.moveaxis(out, -1, axis)


def linrec(a, b, axis, rev):
    def f(p, q):
        return p * q
    # h[t] = a[t] * h[t-1] + b[t] (h[t+1] when reversed), in float64
    a64, b64 = np.moveaxis(a.astype(np.float64), axis, -1), np.moveaxis(b.astype(np.float64), axis, -1)
    h = np.zeros_like(a64)
    n = a64.shape[-1]
    prev = np.zeros(a64.shape[:-1])
    for t in (range(n - 1, -1, -1) if rev else range(n)):
        prev = a64[..., t] * prev + b64[..., t]
        h[..., t] = prev
    del f
    return np.moveaxis(h, -1, axis)


failures = 0


def check(name, got, want, rtol=0.0, atol=0.0):
    global failures
    if want.dtype.kind == "f":
        ok = np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)
    else:
        ok = np.array_equal(got, want)
    if not ok:
        bad = np.argwhere(~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)
                          if want.dtype.kind == "f" else got != want)
        print("FAIL %s: %d elements differ, first at %s: got %s want %s" %
              (name, len(bad), bad[0], got[tuple(bad[0])], want[tuple(bad[0])]))
        failures += 1
    else:
        print("ok %s" % name)


def run_cumsum_1d(block, rev, dtype, warps, n):
    sig = {np.float32: "*fp32:16,*fp32:16,i32", np.int32: "*i32:16,*i32:16,i32",
           np.float16: "*fp16:16,*fp16:16,i32"}[dtype]
    k = compile_ptx("scan_layouts.py", "cumsum_1d_kernel", sig, dict(BLOCK=block, REVERSE=rev), warps)
    if dtype == np.int32:
        x = RNG.integers(-1000, 1000, n).astype(np.int32)
    elif dtype == np.float16:
        x = RNG.integers(-4, 5, n).astype(np.float16) / 4  # exact in fp16: sums of quarters
    else:
        x = RNG.standard_normal(n).astype(np.float32)
    y = np.full(n + 64, 7, dtype)
    k.run((1,), [x, y, n])
    tol = dict(rtol=1e-4, atol=1e-3) if dtype == np.float32 else {}
    check("cumsum_1d %s BLOCK=%d rev=%s warps=%d n=%d" % (np.dtype(dtype).name, block, rev, warps, n),
          y[:n], cumsum(x, 0, rev), **tol)
    check("cumsum_1d past n untouched", y[n:], np.full(64, 7, dtype))


def run_scan_2d(bm, bn, axis, rev, dtype, warps, m, n):
    sig = {np.float32: "*fp32:16,*fp32:16,i32,i32", np.int32: "*i32:16,*i32:16,i32,i32",
           np.float16: "*fp16:16,*fp16:16,i32,i32"}[dtype]
    k = compile_ptx("scan_layouts.py", "scan_2d_kernel", sig, dict(BM=bm, BN=bn, AXIS=axis, REVERSE=rev), warps)
    if dtype == np.int32:
        x = RNG.integers(-1000, 1000, (m, n)).astype(np.int32)
    elif dtype == np.float16:
        x = (RNG.integers(-4, 5, (m, n)) / 4).astype(np.float16)
    else:
        x = RNG.standard_normal((m, n)).astype(np.float32)
    y = np.zeros((m, n), dtype)
    k.run((1,), [x, y, m, n])
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else {}
    check("scan_2d %s %dx%d axis=%d rev=%s warps=%d (%dx%d)" % (np.dtype(dtype).name, bm, bn, axis, rev, warps, m, n),
          y, cumsum(x, axis, rev), **tol)


def run_linrec(block, rev, warps, rows, t):
    k = compile_ptx("scan_layouts.py", "linrec_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32:16",
                    dict(BLOCK_T=block, REVERSE=rev), warps)
    a = (RNG.random((rows, block)) * 0.5 + 0.5).astype(np.float32)
    b = RNG.standard_normal((rows, block)).astype(np.float32)
    h = np.zeros((rows, block), np.float32)
    k.run((rows,), [a, b, h, t, block])
    check("linrec BLOCK_T=%d rev=%s warps=%d T=%d" % (block, rev, warps, t), h[:, :t],
          linrec(a[:, :t], b[:, :t], 1, rev), rtol=1e-4, atol=1e-4)


def run_linrec_2d(bm, bn, axis, rev, warps, m, n):
    k = compile_ptx("scan_layouts.py", "linrec_2d_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32",
                    dict(BM=bm, BN=bn, AXIS=axis, REVERSE=rev), warps)
    a = (RNG.random((m, n)) * 0.5 + 0.5).astype(np.float32)
    b = RNG.standard_normal((m, n)).astype(np.float32)
    h = np.zeros((m, n), np.float32)
    k.run((1,), [a, b, h, m, n])
    check("linrec_2d %dx%d axis=%d rev=%s warps=%d (%dx%d)" % (bm, bn, axis, rev, warps, m, n), h,
          linrec(a, b, axis, rev), rtol=1e-4, atol=1e-4)


def bf16_bits(x):
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def run_dtypes(block, rev, warps, n):
    k = compile_ptx("scan_layouts.py", "dtypes_kernel",
                    "*i8:16,*i8:16,*i16:16,*i16:16,*i64:16,*i64:16,*fp64:16,*fp64:16,*bf16:16,*bf16:16,"
                    "*fp32:16,*i32:16,i32", dict(BLOCK=block, REVERSE=rev), warps)
    x8 = RNG.integers(-128, 128, n).astype(np.int8)
    x16 = RNG.integers(-3, 4, n).astype(np.int16)
    x64 = RNG.integers(-(1 << 40), 1 << 40, n).astype(np.int64)
    xd = RNG.standard_normal(n)
    xb = bf16_bits(RNG.standard_normal(n).astype(np.float32))  # bf16 values, exact in fp32
    xp = RNG.standard_normal(n).astype(np.float32)
    y8, y16, y64, yd, yb, yp = (np.zeros(n, t) for t in (np.int8, np.int16, np.int64, np.float64, np.uint16, np.int32))
    k.run((1,), [x8, y8, x16, y16, x64, y64, xd, yd, xb, yb, xp, yp, n])
    name = "dtypes BLOCK=%d rev=%s warps=%d n=%d" % (block, rev, warps, n)
    check(name + " i8 max", y8, scan(x8, 0, rev, np.maximum))
    check(name + " i16 add", y16, cumsum(x16, 0, rev))
    check(name + " i64 cumsum", y64, cumsum(x64, 0, rev))
    check(name + " f64 cumsum", yd, cumsum(xd, 0, rev), rtol=1e-12, atol=1e-12)
    xbf = (xb.astype(np.uint32) << 16).view(np.float32)
    check(name + " bf16 max", (yb.astype(np.uint32) << 16).view(np.float32), scan(xbf, 0, rev, np.maximum))
    check(name + " i1 xor", yp, scan((xp > 0).astype(np.int32), 0, rev, np.bitwise_xor))


def run_corpus():
    # tests/kernels/scans.py and lang_features.py's scans, as the corpus compiles them
    k = compile_ptx("scans.py", "scan_kernel", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32,i32:16",
                    dict(BLOCK_M=8, BLOCK_N=64), 4)
    for m, n in ((8, 64), (7, 60)):
        x = RNG.random((8, 64)).astype(np.float32) + 0.5
        cs, rv, cp = (np.zeros((8, 64), np.float32) for _ in range(3))
        cnt = np.zeros((8, 64), np.int32)
        k.run((1,), [x, cs, rv, cp, cnt, m, n, 64])
        xv = x[:m, :n]
        check("scan_kernel csum %dx%d" % (m, n), cs[:m, :n], cumsum(xv, 1, False), rtol=1e-5, atol=1e-5)
        check("scan_kernel rev %dx%d" % (m, n), rv[:m, :n], cumsum(xv, 0, True), rtol=1e-5, atol=1e-5)
        check("scan_kernel cprod %dx%d" % (m, n), cp[:m, :n], np.cumprod(xv, 1), rtol=1e-4)
        check("scan_kernel count %dx%d" % (m, n), cnt[:m, :n], np.cumsum(np.ones((m, n), np.int32), 1, dtype=np.int32))
    k = compile_ptx("lang_features.py", "scan_rows_kernel", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32",
                    dict(BLOCK=64), 4)
    for r, c in ((5, 37), (2, 64)):
        x = (RNG.random((r, c)) + 0.5).astype(np.float32)
        s, p, m = (np.zeros((r, c), np.float32) for _ in range(3))
        k.run((r,), [x, s, p, m, c, c])
        check("scan_rows add %dx%d" % (r, c), s, cumsum(x, 1, False), rtol=1e-5)
        check("scan_rows mul %dx%d" % (r, c), p, np.cumprod(x, 1), rtol=1e-4)
        check("scan_rows max rev %dx%d" % (r, c), m, scan(x, 1, True, np.maximum))


CASES = [
    lambda: run_cumsum_1d(1024, False, np.float32, 4, 1024),
    lambda: run_cumsum_1d(1024, False, np.float32, 4, 1000),
    lambda: run_cumsum_1d(32, True, np.float32, 4, 32),
    lambda: run_cumsum_1d(32, False, np.float32, 4, 30),
    lambda: run_cumsum_1d(4096, False, np.float32, 8, 4096),
    lambda: run_cumsum_1d(4096, True, np.float32, 8, 4000),
    lambda: run_cumsum_1d(2048, True, np.int32, 4, 2048),
    lambda: run_cumsum_1d(512, False, np.float16, 4, 512),
    lambda: run_cumsum_1d(8, False, np.int32, 1, 8),
    lambda: run_cumsum_1d(256, True, np.int32, 2, 200),
    lambda: run_scan_2d(32, 64, 0, False, np.int32, 4, 32, 64),
    lambda: run_scan_2d(32, 64, 1, True, np.float32, 4, 32, 64),
    lambda: run_scan_2d(64, 16, 0, True, np.float16, 4, 64, 16),
    lambda: run_scan_2d(4, 256, 1, False, np.float32, 4, 4, 256),
    lambda: run_scan_2d(128, 8, 0, False, np.int32, 8, 128, 8),
    lambda: run_scan_2d(8, 128, 0, True, np.int32, 8, 8, 128),
    lambda: run_scan_2d(2, 4, 1, True, np.int32, 4, 2, 4),
    lambda: run_linrec(4096, False, 8, 1, 4096),
    lambda: run_linrec(1024, True, 4, 2, 1000),
    lambda: run_linrec(512, True, 1, 1, 512),
    lambda: run_linrec_2d(64, 32, 0, False, 4, 64, 32),
    lambda: run_linrec_2d(16, 128, 1, True, 4, 16, 128),
    lambda: run_linrec_2d(64, 32, 0, True, 2, 64, 32),
    lambda: run_dtypes(256, False, 4, 256),
    lambda: run_dtypes(64, True, 4, 60),
    lambda: run_corpus(),
]
for case in CASES:
    try:
        case()
    except Exception as e:  # noqa: BLE001 (a simulator or compiler error fails the case)
        print("FAIL %s" % e)
        failures += 1
print("%d failed" % failures)
sys.exit(1 if failures else 0)
