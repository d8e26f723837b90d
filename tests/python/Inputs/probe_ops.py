# @jit helpers and constants a kernel of test_probe_kernels.py reads through
# the module (`probe_ops.silu(x)`, `probe_ops.SCALE`), as Triton lets it.
import tritonc as triton
import tritonc.language as tl

import helpers_mod
from helpers_mod import triple as _triple

SCALE = 0.5                     # a plain float: readable as a module's attribute
OUT_DTYPE = tl.float16
MODE = tl.constexpr("gated")


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def gated(x, g):
    # a helper of another module under another name
    return silu(g) * _triple(x)


def _cube_plus(x):
    return _square(x) * x + 1


def _square(x):
    return x * x


_square = triton.jit(_square)
cube_plus = triton.jit(_cube_plus)


@triton.jit
def _adjust(x):
    # probe_ops_b has another _adjust
    return x + 1.0
