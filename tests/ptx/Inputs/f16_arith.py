# 16-bit float arithmetic for tests/ptx/f16_native.sh and f16_native_sim.py:
# every op the PTX emitter gives a native f16 (and, on sm_90, bf16)
# instruction, with immediates, a contracted multiply-add and a divide
# (which has none, and goes through fp32).

import triton
import triton.language as tl


@triton.jit
def f16_kernel(x_ptr, y_ptr, z_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.load(z_ptr + offs)
    tl.store(o_ptr + offs, x + y)
    tl.store(o_ptr + BLOCK + offs, x - y * 0.5)  # contracted: fma(-y, 0.5, x)
    tl.store(o_ptr + 2 * BLOCK + offs, x * y + z)  # contracted: fma(x, y, z)
    tl.store(o_ptr + 3 * BLOCK + offs, tl.maximum(x, y))
    tl.store(o_ptr + 4 * BLOCK + offs, tl.minimum(-x, tl.abs(y)))
    tl.store(o_ptr + 5 * BLOCK + offs, x / y)
    tl.store(o_ptr + 6 * BLOCK + offs, (x * z) * (y * z))
