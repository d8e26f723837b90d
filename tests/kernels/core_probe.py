# KERNEL: select_store_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: shadowing_params_kernel
# SIGNATURE: *i32:16,i32,i32
# CONSTEXPR: type="scaled", BLOCK=32
# GRID: 1
#
# KERNEL: float_literals_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: BLOCK=16
# GRID: 1
#
# KERNEL: keyword_ranges_kernel
# SIGNATURE: *i64:16,i32
# CONSTEXPR: N=20
# GRID: 1
#
# What a walk through Triton's own language tests (test_core.py) found that
# the other corpus files missed, each written anew: a conditional expression
# whose two branches are stores (`tl.store(...) if c else tl.store(...)`, an
# scf.if without results), parameters named like Python builtins the launcher
# uses (`type`, `grid`, `len`), Python's float() spellings of special values
# ("-nan", "Infinity", " 1_000.5 "), and loop bounds given by keyword
# (`tl.static_range(0, N, step=7)`, `tl.range(arg1=n)`).
import triton
import triton.language as tl


@triton.jit
def select_store_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # each program stores x or y through a conditional expression of two
    # stores, chosen by the parity of its id; the last one stores only what
    # its mask keeps
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    a = tl.load(x_ptr + offs, mask=keep)
    b = tl.load(y_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, a * 2.0, mask=keep) if pid % 2 == 0 else tl.store(out_ptr + offs, b - a, mask=keep)


@triton.jit
def _scale(v, len):
    return v * len


@triton.jit
def shadowing_params_kernel(out_ptr, grid, len, type: tl.constexpr, BLOCK: tl.constexpr):
    # `grid`, `len` and `type` are ordinary parameter names here
    offs = tl.arange(0, BLOCK)
    if type == "scaled":
        v = _scale(offs + grid, len)
    else:
        v = offs + grid
    tl.store(out_ptr + offs, v)


@triton.jit
def float_literals_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    NEG_NAN: tl.constexpr = float("-nan")
    BIG: tl.constexpr = float(" 1_000.5 ")
    # where x is negative: -nan; where x > 1: +Infinity; else x + 1000.5
    y = tl.where(x < 0, NEG_NAN, x + BIG)
    y = tl.where(x > 1.0, float("Infinity"), y)
    tl.store(out_ptr + offs, y)


@triton.jit
def keyword_ranges_kernel(out_ptr, n, N: tl.constexpr):
    acc = tl.zeros([1], dtype=tl.int64)
    for i in tl.static_range(0, N, step=7):
        acc += i
    for i in tl.static_range(N, step=-3, arg2=0):
        acc += i * 1000
    for i in tl.range(0, n, step=3, num_stages=1):
        acc += i * 1000000
    for i in tl.range(arg1=n):
        acc += 1
    tl.store(out_ptr + tl.arange(0, 1), acc)
