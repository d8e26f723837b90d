# Integer division in the PTX emitter run by the CTA simulator
# (Inputs/ptx_sim.py) against C semantics computed in Python (quotients
# rounded toward zero, remainders with the dividend's sign): 64-bit division
# and remainder by a power of two (shifts: signed dividends biased by
# 2^k - 1 when negative; negative divisors; unsigned ones a shift and a
# mask), and a remainder by a run-time divisor computed from the quotient of
# the same operands (a - (a // b) * b), 32 and 64 bits, signed and unsigned.
# (Other constant divisors multiply high, which test_divmagic checks in C.)
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
rng = np.random.default_rng(64)
SRC = os.path.join(HERE, "Inputs", "div_const.py")


def ptx(kernel, sig, *defs):
    cmd = [TRITONC, "compile", SRC, "--kernel", kernel, "--signature", sig, "--emit", "ptx", "--target", "cuda:90"]
    for d in defs:
        cmd += ["-D", d]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr)
    return r.stdout


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


fails = []
for ty, dt in (("i64", np.int64), ("u64", np.uint64)):
    for d in ((8, 1, 2, 64, 1 << 40) if ty == "u64" else (8, -8, 2, -2, 64, -1024, 1 << 40)):
        text = ptx("div_const_kernel", "*%s:16,*%s:16,*%s:16,*%s:16,%s" % (ty, ty, ty, ty, ty), "BLOCK=%d" % BLOCK,
                   "D=%d" % d)
        lim = 1 << 45
        a = rng.integers(0 if ty == "u64" else -lim, lim, BLOCK).astype(dt)
        a[:6] = [0, 1, d - 1, d, d + 1, 7] if ty == "u64" else [0, -1, -d + 1, -d, d - 1, -(1 << 44) - 3]
        q, r, v = (np.zeros(BLOCK, dt) for _ in range(3))
        Kernel(text).run((1,), [a, q, r, v, 3])
        for i in range(BLOCK):
            x = int(a[i])
            wq = c_div(x, d)
            if int(q[i]) != wq or int(r[i]) != x - wq * d:
                fails.append("%s // %d at %d: q %d r %d, want %d %d" % (ty, d, x, int(q[i]), int(r[i]), wq, x - wq * d))
                break
for ty, dt in (("i32", np.int32), ("u32", np.uint32), ("i64", np.int64), ("u64", np.uint64)):
    text = ptx("divmod_kernel", ",".join(["*%s:16" % ty] * 4), "BLOCK=%d" % BLOCK)
    if ("rem." in text):
        fails.append("%s: a rem instruction where the quotient was at hand" % ty)
    signed = ty[0] == "i"
    lim = 1 << (20 if ty[1:] == "32" else 40)
    a = rng.integers(-lim if signed else 0, lim, BLOCK).astype(dt)
    b = rng.integers(1, 1000, BLOCK).astype(dt)
    if signed:
        b[::3] = -b[::3]
    q, r = np.zeros(BLOCK, dt), np.zeros(BLOCK, dt)
    Kernel(text).run((1,), [a, b, q, r])
    for i in range(BLOCK):
        x, y = int(a[i]), int(b[i])
        wq = c_div(x, y)
        if int(q[i]) != wq or int(r[i]) != x - wq * y:
            fails.append("%s %d / %d: q %d r %d, want %d %d" % (ty, x, y, int(q[i]), int(r[i]), wq, x - wq * y))
            break
for f in fails:
    print("FAIL", f)
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
