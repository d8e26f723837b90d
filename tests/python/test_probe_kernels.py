# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/probe_kernels.py on the CPU, each checked
against torch or numpy: what a probe with fresh user scripts found broken."""
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("probe_kernels")
import probe_ops  # noqa: E402

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


@triton.jit
def _module_attrs_kernel(x_ptr, g_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    g = tl.load(g_ptr + offs, mask=m)
    if probe_ops.MODE == "gated":
        y = probe_ops.gated(x, g)
    else:
        y = x
    y += probe_ops.silu(x) * probe_ops.SCALE + probe_ops.helpers_mod.triple(g)
    tl.store(y_ptr + offs, y.to(probe_ops.OUT_DTYPE), mask=m)


def check_module_attributes():
    # a kernel reading a helper module's @jit functions and constants through
    # the module: "name 'probe_ops' is not defined"; and a helper of another
    # module calling a third under an alias: "name '_triple' is not defined"
    n = 300
    x = torch.randn(n, generator=g)
    gt = torch.randn(n, generator=g)
    y = torch.zeros(n, dtype=torch.float16)
    _module_attrs_kernel[(triton.cdiv(n, 128),)](x, gt, y, n, BLOCK=128)
    silu = torch.nn.functional.silu
    ref = silu(gt) * 3 * x + silu(x) * 0.5 + 3 * gt
    torch.testing.assert_close(y.float(), ref.half().float(), atol=1e-2, rtol=1e-2)


if __name__ == "__main__":
    names = sorted(k for k in globals() if k.startswith("check_"))
    for name in names:
        globals()[name]()
        print("ok", name)
    print("ok: %d checks" % len(names))
