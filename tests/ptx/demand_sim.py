# The PTX of tests/ptx/Inputs/demand_kernel.py, whose masks and pointers the
# emitter computes at vector heads only (ptx_demand.c), run by the CTA
# simulator against numpy: ragged M and N (N a multiple of 16, and not),
# 4 and 8 warps, the column block wider than N.
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
RNG = np.random.default_rng(5)


def run(M, N, n_div16, iters, bm, bn, warps):
    sig = "*fp16:16,*fp16:16,i32,%s,i32:16" % ("i32:16" if n_div16 else "i32")
    cmd = [TRITONC, "compile", os.path.join(HERE, "Inputs", "demand_kernel.py"), "--kernel", "masked_tile_copy",
           "--signature", sig, "--emit", "ptx", "--target", "cuda:90", "--num-warps", str(warps),
           "-D", "ITERS=%d" % iters, "-D", "BM=%d" % bm, "-D", "BN=%d" % bn]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    k = Kernel(r.stdout)
    stride = 16 * -(-(bn * iters) // 16)  # rows hold every iteration's columns
    rows = -(-M // bm) * bm
    src = (RNG.standard_normal((rows, stride)) * 0.25).astype(np.float16)
    dst = np.full((rows, stride), 7.0, np.float16)
    k.run((-(-M // bm),), [src, dst, M, N, stride], smem_bytes=1 << 16)
    ref = np.zeros((M, bn), np.float32)
    for it in range(iters):
        ref[:, :N] += src[:M, it * bn:it * bn + N].astype(np.float32)
    got = dst[:M, :bn].astype(np.float32)
    assert np.abs(got[:, :N] - ref[:, :N].astype(np.float16).astype(np.float32)).max() <= 1e-3, (M, N, warps)
    assert (dst[:M, N:] == 7.0).all() and (dst[M:] == 7.0).all(), "stores outside the mask"


cases = [(50, 48, True, 3, 64, 64, 4), (64, 64, True, 2, 64, 64, 4), (37, 32, True, 2, 32, 64, 8),
         (50, 45, False, 3, 64, 64, 4), (10, 16, True, 1, 16, 32, 4)]
for c in cases:
    run(*c)
print("ok: %d cases" % len(cases))
