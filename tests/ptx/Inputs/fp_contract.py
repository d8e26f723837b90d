# Multiplies feeding adds and subtracts, for tests/ptx/fp_contract.sh.

import triton
import triton.language as tl


@triton.jit
def contract_kernel(x_ptr, y_ptr, z_ptr, o_ptr, p_ptr, d_ptr, e_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.load(z_ptr + offs)
    tl.store(o_ptr + offs, z + x * y)  # contracted: one fma
    xy = x * z
    tl.store(p_ptr + offs, (xy + y) * xy)  # xy read twice: a mul and an add
    tl.store(d_ptr + offs, y * z - x)  # fma(y, z, -x)
    tl.store(e_ptr + offs, x - y * 2.0)  # fma(-y, 2, x)
