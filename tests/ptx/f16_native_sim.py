# The f16 and bf16 kernel of tests/ptx/f16_native.sh run by the CTA simulator
# (Inputs/ptx_sim.py: each 16-bit op rounded once to its type) against numpy
# computing each result in float64 and rounding it once, on sm_90 (native
# f16 and bf16 ops) and sm_80 (bf16 through fp32): bit-exact but for the
# divide (div.full, within 2 ulp of fp32, then rounded) and the two
# contracted fmas, which the reference rounds once too.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel, bf16_to_f32, f32_to_bf16  # noqa: E402

TRITONC = sys.argv[1]
BLOCK = 128
rng = np.random.default_rng(16)


def to_bits(v, ty):
    return v.astype(np.float16).view(np.uint16) if ty == "fp16" else f32_to_bf16(v.astype(np.float32))


def to_f64(bits, ty):
    return bits.view(np.float16).astype(np.float64) if ty == "fp16" else bf16_to_f32(bits).astype(np.float64)


fails = 0
for ty in ("fp16", "bf16"):
    for target in ("cuda:90", "cuda:80"):
        sig = ",".join(["*%s:16" % ty] * 4)
        r = subprocess.run([TRITONC, "compile", os.path.join(HERE, "Inputs", "f16_arith.py"), "--kernel", "f16_kernel",
                            "--signature", sig, "-D", "BLOCK=%d" % BLOCK, "--emit", "ptx", "--target", target],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(r.stderr)
        vals = [rng.standard_normal(BLOCK) * 4 for _ in range(3)]
        vals[1][:4] = [0.0, -0.0, 1e-3, 65504.0 if ty == "fp16" else 3e38]  # signed zeros, a small one, the largest
        x, y, z = (to_bits(v, ty) for v in vals)
        o = np.full(7 * BLOCK, 0x7E00 if ty == "fp16" else 0x7FC0, np.uint16)  # poisoned: NaN
        Kernel(r.stdout).run((1,), [x, y, z, o])
        X, Y, Z = (to_f64(v, ty) for v in (x, y, z))
        with np.errstate(all="ignore"):
            want = [X + Y, X - Y * 0.5, X * Y + Z, np.fmax(X, Y), np.fmin(-X, np.abs(Y)), X / Y,
                    to_f64(to_bits(X * Z, ty), ty) * to_f64(to_bits(Y * Z, ty), ty)]
        got = o.reshape(7, BLOCK)
        for i, w in enumerate(want):
            wb = to_bits(w, ty)
            if i == 5:  # div.full.f32: compare the values within an ulp of the type
                ok = np.isclose(to_f64(got[i], ty), to_f64(wb, ty), rtol=2 ** -7 if ty == "bf16" else 2 ** -10,
                                equal_nan=True)
            else:
                ok = (got[i] == wb) | (np.isnan(to_f64(got[i], ty)) & np.isnan(to_f64(wb, ty)))
            if not ok.all():
                j = int(np.argmin(ok))
                print("FAIL %s %s result %d at %d: got %r want %r (x %r y %r z %r)" % (
                    ty, target, i, j, to_f64(got[i], ty)[j], to_f64(wb, ty)[j], X[j], Y[j], Z[j]))
                fails += 1
print("%d failed" % fails)
sys.exit(1 if fails else 0)
