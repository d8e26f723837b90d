# @jit helpers for test_module_globals.py that read this module's own
# globals: a constexpr, a plain float, a module alias and a builtin alias.
import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice as ld

SCALE = tl.constexpr(3)
OFFSET = 0.5
act = ld.tanh


@triton.jit
def scaled_tanh(x):
    return ld.tanh(x) * SCALE + OFFSET


@triton.jit
def act_twice(x):
    return act(act(x))
