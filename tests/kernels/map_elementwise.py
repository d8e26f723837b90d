# KERNEL: collatz_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: piecewise_kernel
# SIGNATURE: *fp32:16,*fp32:16,fp32
# CONSTEXPR: R=16, C=32
# GRID: 1
#
# tl.map_elementwise: a @jit function applied to each element, with control
# flow per element that tl.where could not express without running both
# sides: a data-dependent while loop (Collatz steps), a function returning
# a tuple (divmod, with a scalar argument broadcast), and an early return
# and a loop in a function over a 2-D tile.

import triton
import triton.language as tl


@triton.jit
def _collatz_steps(x):
    steps = 0
    while x > 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps


@triton.jit
def _divmod(a, b):
    return a // b, a % b


@triton.jit
def collatz_kernel(x_ptr, steps_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=1)
    tl.store(steps_ptr + offs, tl.map_elementwise(_collatz_steps, x), mask=ok)
    q, r = tl.map_elementwise(_divmod, x, 7)
    tl.store(q_ptr + offs, q, mask=ok)
    tl.store(r_ptr + offs, r, mask=ok)


@triton.jit
def _piecewise(x, lo):
    if x < lo:
        return lo * 2.0
    y = x
    for i in range(3):
        y = y * 0.5 + i
    return y


@triton.jit
def piecewise_kernel(x_ptr, out_ptr, lo, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.map_elementwise(_piecewise, x, lo))
