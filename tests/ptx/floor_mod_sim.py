# Python's idiom for a non-negative modulo, ((a % C) + C) % C, is a & (C - 1)
# in the PTX for C a power of two (as LLVM folds it for Triton), the add on
# either side; another C keeps its remainders. Run by the CTA simulator
# (Inputs/ptx_sim.py) against Python's own modulo, over negative and
# positive dividends, 8, 16, 32 and 64-bit.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402

TRITONC = sys.argv[1]
BLOCK = 128
rng = np.random.default_rng(7)
fails = []
for ty, dt in (("i8", np.int8), ("i16", np.int16), ("i32", np.int32), ("i64", np.int64)):
    bits = np.iinfo(dt).bits
    for c in (2, 16, 32) if bits == 8 else (2, 64, 1 << (bits - 2)):
        r = subprocess.run([TRITONC, "compile", os.path.join(HERE, "Inputs", "div_const.py"), "--kernel",
                            "floor_mod_kernel", "--signature", "*%s:16,*%s:16,*%s:16" % (ty, ty, ty),
                            "-D", "BLOCK=%d" % BLOCK, "-D", "C=%d" % c, "--emit", "ptx", "--target", "cuda:90"],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(r.stderr)
        rb = "b64" if bits == 64 else "b32"
        if "and.%s" % rb not in r.stdout:
            fails.append("%s C=%d: no and.%s in the PTX" % (ty, c, rb))
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, BLOCK, endpoint=True).astype(dt)
        a[:4] = [info.min, info.max, -1, 0]
        o, q = np.zeros(BLOCK, dt), np.zeros(BLOCK, dt)
        Kernel(r.stdout).run((1,), [a, o, q])
        for i in range(BLOCK):
            want = int(a[i]) % c
            if int(o[i]) != want or int(q[i]) != want:
                fails.append("%s C=%d: %d gives %d, %d; want %d" % (ty, c, int(a[i]), int(o[i]), int(q[i]), want))
                break
for f in fails:
    print("FAIL", f)
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
