# A @jit helper and a constant in another module, for test_binding_units.py.
import tritonc as triton
import tritonc.language as tl

SCALE = tl.constexpr(3)


@triton.jit
def triple(x):
    return x * SCALE
