# scf.for is emitted rotated (the bound tested before the loop and at its
# bottom, one branch per iteration, as LLVM leaves Triton's loops): run by the
# CTA simulator against numpy for zero, one and several trips, a start past
# the end, and steps that do and do not divide the range.
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
cmd = [TRITONC, "compile", os.path.join(HERE, "Inputs", "loop_bounds.py"), "--kernel", "strided_sum_kernel",
       "--signature", "*fp32:16,*fp32:16,i32,i32,i32", "--emit", "ptx", "--target", "cuda:90", "-D",
       "BLOCK=%d" % BLOCK]
r = subprocess.run(cmd, capture_output=True, text=True)
if r.returncode:
    raise SystemExit(r.stderr)
assert "bra.uni $L__BB1;" not in r.stdout, "the loop is not rotated"
k = Kernel(r.stdout)
rng = np.random.default_rng(3)
x = rng.standard_normal((8, BLOCK)).astype(np.float32)
cases = [(0, 0, 1), (0, 1, 1), (0, 8, 1), (2, 7, 2), (1, 8, 3), (5, 3, 1), (7, 8, 4), (3, 4, 1)]
for start, end, step in cases:
    out = np.full(BLOCK, np.nan, np.float32)
    k.run((1,), [x, out, start, end, step])
    ref = np.full(BLOCK, 0.5, np.float32)
    for i in range(start, end, step):
        ref += x[i]
    assert np.allclose(out, ref, atol=1e-5), (start, end, step)
print("ok: %d loops" % len(cases))
