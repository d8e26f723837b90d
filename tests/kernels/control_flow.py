# KERNEL: newton_sqrt_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32,fp32
# CONSTEXPR: MAX_ITERS=32, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: poly_branch_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: DEGREE=4, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# Control flow: a data-dependent while loop (Newton's method until the block
# converges or MAX_ITERS), a helper returning a tuple, tl.static_range
# unrolling with a negative step, an if/elif/else on a runtime scalar that
# yields a tile, a branch on a constexpr (folded away), and a nested loop
# whose inner bounds depend on the outer induction variable.

import triton
import triton.language as tl


@triton.jit
def newton_step(y, x):
    # one step of y <- (y + x / y) / 2 towards sqrt(x); also returns |change|
    y_next = 0.5 * (y + x / y)
    return y_next, tl.abs(y_next - y)


@triton.jit
def newton_sqrt_kernel(x_ptr, y_ptr, iters_ptr, n, tol, MAX_ITERS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.maximum(tl.load(x_ptr + offs, mask=ok, other=1.0), 1e-6)
    y = tl.where(x > 1.0, x * 0.5, 1.0)
    err = tol + 1.0
    it = 0
    while (err > tol) & (it < MAX_ITERS):
        y, change = newton_step(y, x)
        err = tl.max(change, axis=0)
        it += 1
    tl.store(y_ptr + offs, y, mask=ok)
    tl.store(iters_ptr + pid, it)


@triton.jit
def poly_branch_kernel(x_ptr, coef_ptr, out_ptr, n, mode, DEGREE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    acc = tl.zeros_like(x)
    for i in tl.static_range(DEGREE, -1, -1):
        acc = acc * x + tl.load(coef_ptr + i)
    if mode == 0:
        out = acc
    elif mode == 1:
        out = tl.abs(acc)
    else:
        out = -acc
    if DEGREE > 2:
        out = out * 2.0
    extra = tl.zeros_like(x)
    for i in range(0, 3):
        for j in range(i, 3):
            extra += (i * j).to(tl.float32)
    tl.store(out_ptr + offs, out + extra, mask=ok)
