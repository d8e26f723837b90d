# fp64 sin, cos and tan (tl.sin, libdevice.cos, libdevice.tan; tan is sin /
# cos) as expand-f64-math writes them, in the PTX, run by the CTA simulator
# (Inputs/ptx_sim.py) against mpmath: within 2 ulps (tan 4) for every finite
# argument. Below 2^31 the Cody-Waite reduction; past it the exact one
# (Payne-Hanek, 64-bit integer products), behind a branch per element that
# the simulator takes per thread: huge magnitudes up to DBL_MAX, the
# doubles closest to a multiple of pi/2 (0x1.6ac5b262ca1ffp+849 the closest
# of all), the switch at 2^31, signed zeros, subnormals, infinities and NaN.
# Both forms: a tensor (the branch in a tt.map_elementwise) and a scalar
# (a plain scf.if). tests/unit/test_expand_f64_math.c checks the same
# formulas on the CPU.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import math
import os
import re
import subprocess
import sys

import mpmath
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402

TRITONC = sys.argv[1]
SRC = os.path.join(HERE, "Inputs", "f64_math.py")
N = 256
mpmath.mp.prec = 1300  # pi to ~1300 bits: DBL_MAX's reduction keeps ~250
rng = np.random.default_rng(11)
NEAR = ["0x1.ffb04067cd49ep+30", "0x1.ebed74e723d7ap+42", "0x1.5cba89af1f855p+52", "0x1.f737f7ea0987ap+112",
        "0x1.b930d680374c2p+152", "0x1.1bc285fdf5532p+452", "0x1.efe381eed45e5p+652", "0x1.6ac5b262ca1ffp+849",
        "0x1.e1987122b7e06p+952", "0x1.61a3db8c8d129p+1023"]  # continued fractions of 2^E 2/pi
SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -1e-310, 1e-300, 1.0, -1.0, math.pi / 2, 2.0**31,
           -2.0**31, math.nextafter(2.0**31, 0), math.nextafter(2.0**31, math.inf), 1e9, 1e16, 1e17, -1e17, 1e22,
           1e100, -1e200, 1e300, 1e308, sys.float_info.max, -sys.float_info.max, 2.0**63, 2.0**64, 2.0**1000]


def ptx(kernel, sig, target, **cx):
    cmd = [TRITONC, "compile", SRC, "--kernel", kernel, "--signature", sig, "--emit", "ptx", "--target", target]
    for k, v in cx.items():
        cmd += ["-D", "%s=%s" % (k, v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr)
    return r.stdout


def inputs():
    near = [float.fromhex(h) for h in NEAR]
    x = SPECIAL + near + [-v for v in near]
    x += list(rng.uniform(-10, 10, 40))
    mag = np.exp2(rng.uniform(-20, 1024, N - len(x)))  # every binade, either sign
    x += list(np.where(rng.random(mag.size) < 0.5, -mag, mag))
    return np.array(x, np.float64)


def ref(fn, v):
    if not math.isfinite(v):
        return math.nan
    if v == 0:  # (mpmath has no -0)
        return 1.0 if fn == "cos" else v
    return float({"sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan}[fn](mpmath.mpf(v)))


def ulps(got, want):
    if math.isnan(want):
        return 0.0 if math.isnan(got) else math.inf
    if want == 0:
        return 0.0 if got == 0 and math.copysign(1, got) == math.copysign(1, want) else math.inf
    return abs(got - want) / math.ulp(want)


def rng_name(v):
    a = abs(v)
    return "below 2^31" if a < 2.0**31 else "2^31 .. 1e17" if a < 1e17 else "1e17 .. DBL_MAX"


fails = []
x = inputs()
refs = {fn: [ref(fn, v) for v in x] for fn in ("sin", "cos", "tan")}
for target in ("cuda:90", "cuda:80"):
    text = ptx("k_trig", "*fp64:16,*fp64:16,*fp64:16,*fp64:16", target, N=N)
    if "mul.hi.u64" not in text or not re.search(r"@!?%p\d+ bra ", text):
        fails.append("%s: no exact reduction behind a branch in the PTX" % target)
    out = {fn: np.full(N, np.nan) for fn in ("sin", "cos", "tan")}
    Kernel(text).run((1,), [x, out["sin"], out["cos"], out["tan"]])
    for fn, tol in (("sin", 2), ("cos", 2), ("tan", 4)):
        worst = {}
        for xi, gi, wi in zip(x, out[fn], refs[fn]):
            u = ulps(float(gi), wi)
            if math.isfinite(xi):
                worst[rng_name(xi)] = max(worst.get(rng_name(xi), 0.0), u)
            if u > tol:
                fails.append("%s %s(%r): got %r, want %r (%.3g ulps)" % (target, fn, float(xi), float(gi), wi, u))
        print("%s %s: %s" % (target, fn, ", ".join("%s %.2f ulps" % kv for kv in sorted(worst.items()))))
# the scalar form: one argument a launch
text = ptx("k_trig_scalar", "fp64,*fp64:16", "cuda:90")
k = Kernel(text)
for v in SPECIAL[:5] + [1.0, 2.0**31, 1e17, -1e300, sys.float_info.max, float.fromhex(NEAR[7])]:
    o = np.full(2, np.nan)
    k.run((1,), [v, o])
    for fn, g in (("sin", o[0]), ("cos", o[1])):
        if ulps(float(g), ref(fn, v)) > 2:
            fails.append("scalar %s(%r): got %r, want %r" % (fn, v, float(g), ref(fn, v)))
for f in fails[:20]:
    print("FAIL", f)
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
