# libdevice's fp32 functions as the PTX emitter writes them (ptx_libm.c:
# sin, cos with the exact reduction of large arguments behind a branch,
# log, log2 with their special cases, tanh, erf) run by the CTA simulator
# (Inputs/ptx_sim.py) against fp64 references: within a few ulp over
# ordinary, tiny, huge and special inputs (subnormal results are zeros of
# their sign, as libdevice's with Triton's flush-to-zero). The simulator takes
# ex2.approx and rcp.approx as exact, so this checks the formulas, not the
# hardware's last bits. Also: the .approx instructions are gone from these
# functions, and libdevice's fast_* still are them.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402

TRITONC = sys.argv[1]
SRC = os.path.join(HERE, "Inputs", "libm_kernels.py")
BLOCK = 256
rng = np.random.default_rng(7)


def ptx(fn):
    cmd = [TRITONC, "compile", SRC, "--kernel", "libm_kernel", "--signature", "*fp32:16,*fp32:16,i32",
           "--emit", "ptx", "--target", "cuda:90", "-D", "FN=%r" % fn, "-D", "BLOCK=%d" % BLOCK]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr)
    return r.stdout


def f32(v):
    return np.array(v, np.float32)


def inputs(fn):
    special = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e-40, -1e-40, 1e-45, 3.4e38, -3.4e38]
    if fn in ("log", "log2"):
        body = [np.exp(rng.uniform(-80, 80, 120)), 1 + rng.uniform(-1e-3, 1e-3, 60), rng.uniform(0.5, 2, 40)]
    elif fn in ("sin", "cos"):  # past 105615 the exact reduction
        body = [rng.uniform(-10, 10, 100), rng.uniform(-2e5, 2e5, 40),
                np.exp(rng.uniform(11.6, 88, 80)) * rng.choice([-1, 1], 80), np.arange(1, 21) * (math.pi / 2)]
    else:
        body = [rng.uniform(-4, 4, 150), rng.uniform(-0.7, 0.7, 60), rng.uniform(-12, 12, 20)]
    x = np.concatenate([f32(special)] + [f32(b) for b in body])
    return x[:BLOCK] if x.size >= BLOCK else np.concatenate([x, f32(rng.uniform(-3, 3, BLOCK - x.size))])


REF = {"sin": math.sin, "cos": math.cos, "log": math.log, "log2": math.log2, "erf": math.erf, "tanh": math.tanh}


def ref(fn, v):
    v = float(v)
    if math.isnan(v):
        return math.nan
    if fn in ("log", "log2"):
        return math.nan if v < 0 else -math.inf if v == 0 else math.inf if v == math.inf else REF[fn](v)
    if fn in ("sin", "cos") and math.isinf(v):
        return math.nan
    return REF[fn](v)


def ulp(w):
    w = abs(np.float32(w))
    return float(np.spacing(w)) if w >= np.float32(1.1754944e-38) else 2.0 ** -149


fails = []
for fn, tol in (("sin", 2), ("cos", 2), ("log", 2), ("log2", 2), ("erf", 4), ("tanh", 4)):
    text = ptx(fn)
    for bad in ("sin.approx", "cos.approx", "lg2.approx", "tanh.approx"):
        if bad in text:
            fails.append("%s: %s in its PTX (not libdevice's function)" % (fn, bad))
    x = inputs(fn)
    out = np.full(BLOCK, np.nan, np.float32)
    Kernel(text).run((1,), [x, out, BLOCK])
    bad = 0
    for xi, gi in zip(x, out):
        w = ref(fn, xi)
        g = float(gi)
        if 0 < abs(w) < 2.0 ** -126:  # libdevice with flush-to-zero: a zero of the sign
            ok = g == 0 and math.copysign(1, g) == math.copysign(1, w)
        elif math.isnan(w) or math.isinf(w):
            ok = (math.isnan(g) if math.isnan(w) else g == w)
        else:
            # sin, cos near their zeros: ulps of the argument's reduction (|t| ~ 2^-25 x ulp)
            slack = ulp(xi) * 2.0 ** -24 if fn in ("sin", "cos") else 0.0
            ok = abs(g - w) <= tol * ulp(w) + slack
        if not ok:
            bad += 1
            if bad <= 4:
                fails.append("%s(%r): got %r, want %r" % (fn, float(xi), g, w))
    print("%-5s %d inputs, %d off" % (fn, BLOCK, bad))
for fn, ins in (("fast_sinf", "sin.approx.ftz.f32"), ("fast_logf", "lg2.approx.ftz.f32")):
    if ins not in ptx(fn):
        fails.append("libdevice.%s: no %s" % (fn, ins))
for f in fails:
    print("FAIL", f)
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
