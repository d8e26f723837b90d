# The contracted kernel of tests/ptx/fp_contract.sh run by the CTA simulator
# against numpy (fp32 and fp64): the fmas compute z + x * y, y * z - x and
# x - 2 y, the product read twice still feeds both its uses.
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
rng = np.random.default_rng(11)
for ty, dt, tol in (("fp32", np.float32, 1e-6), ("fp64", np.float64, 1e-14)):
    sig = ",".join(["*%s:16" % ty] * 7)
    r = subprocess.run([TRITONC, "compile", os.path.join(HERE, "Inputs", "fp_contract.py"), "--kernel",
                        "contract_kernel", "--signature", sig, "-D", "BLOCK=%d" % BLOCK, "--emit", "ptx",
                        "--target", "cuda:90"], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr)
    assert "fma.rn" in r.stdout
    x, y, z = (rng.standard_normal(BLOCK).astype(dt) for _ in range(3))
    o, q, d, e = (np.full(BLOCK, np.nan, dt) for _ in range(4))
    Kernel(r.stdout).run((1,), [x, y, z, o, q, d, e])
    assert np.allclose(o, z + x * y, rtol=tol, atol=tol), ty
    assert np.allclose(q, (x * z + y) * (x * z), rtol=10 * tol, atol=10 * tol), ty
    assert np.allclose(d, y * z - x, rtol=tol, atol=tol), ty
    assert np.allclose(e, x - y * 2, rtol=tol, atol=tol), ty
print("ok")
