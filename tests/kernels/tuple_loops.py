# KERNEL: tuple_loop_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=128, SCALES=(1.0, 2.0, 4.0)
# GRID: cdiv(n, BLOCK)
#
# KERNEL: tuple_rows_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=64
# GRID: ROWS
#
# Loops over tuples, which Triton unrolls at compile time: `for s in T:`
# over a constexpr tuple (a literal or a tl.constexpr parameter) and over a
# tuple of tensors, `for i, x in enumerate(T)`, `for a, b in zip(T, U)`,
# tuples made by comprehensions (`tl.tuple([f(v) for v in T])`, with a
# constexpr `if`), a helper's returned tuple iterated, and a tuple loop
# inside a runtime `for`.

import triton
import triton.language as tl


@triton.jit
def _moments(x):
    return x, x * x, x * x * x


@triton.jit
def tuple_loop_kernel(x_ptr, y_ptr, n, reps, BLOCK: tl.constexpr, SCALES: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in (1, 2, 3):
        acc += x * s
    for s in SCALES:
        acc += s
    t = (x, x + 1.0, x * 2.0)
    for v in t:
        acc += v
    for i, v in enumerate(t):
        acc += v * i
    for i, v in enumerate(t, 10):
        acc += i
    for a, b in zip(t, (0.5, 0.25, 0.125)):
        acc += a * b
    u = tl.tuple([v + 1.0 for v in t])
    acc += u[2]
    w = [s * 2 for s in (1, 2, 3, 4) if s % 2 == 0]
    acc += w[1]
    for m in _moments(x):
        acc -= m
    for r in range(reps):
        for v in t:
            acc += v * 0.5
    tl.store(y_ptr + offs, acc, mask=ok)


@triton.jit
def tuple_rows_kernel(a_ptr, b_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < n_cols
    ptrs = (a_ptr + row * stride, b_ptr + row * stride)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for k, p in enumerate(ptrs):
        v = tl.load(p + cols, mask=ok, other=0.0).to(tl.float32)
        total += v * (k + 1)
    tl.store(out_ptr + row * n_cols + cols, total, mask=ok)
