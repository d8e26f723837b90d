# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/probe_kernels.py on the CPU, each checked
against torch or numpy: what a probe with fresh user scripts found broken."""
import os
import sys

import numpy as np
import torch

import tritonc as triton  # noqa: F401
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("probe_kernels")

g = torch.Generator().manual_seed(22)


def check_full_uint64_constexpr():
    # a constexpr argument in [2**63, 2**64) was read as a float (2**63)
    for val in (2**63 + 5, 2**64 - 1, 2**63):
        out = np.zeros(4, dtype=np.uint64)
        K.full_dtype_kernel[(1,)](out, N=4, DT=tl.uint64, VAL=val)
        assert (out == np.uint64(val)).all(), (val, out)
    out = torch.zeros(2, dtype=torch.int16)
    K.full_dtype_kernel[(1,)](out, N=2, DT=tl.int16, VAL=-300)
    assert out.tolist() == [-300, -300]


def check_dot_precisions():
    # "bf16x3"/"bf16x6" (and "IEEE" spelled in capitals) were refused
    M, N, Kd = 16, 32, 64
    a = torch.randn(M, Kd, generator=g)
    b = torch.randn(Kd, N, generator=g)
    for prec in ("bf16x3", "bf16x6", "IEEE", "TF32x3"):
        c = torch.full((M, N), float("nan"))
        K.dot_precision_kernel[(1,)](a, b, c, M, N, Kd, PREC=prec)
        torch.testing.assert_close(c, a @ b, atol=1e-4, rtol=1e-4)


if __name__ == "__main__":
    names = sorted(k for k in globals() if k.startswith("check_"))
    for name in names:
        globals()[name]()
        print("ok", name)
    print("ok: %d checks" % len(names))
