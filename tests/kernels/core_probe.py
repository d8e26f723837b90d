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
# KERNEL: chained_conditions_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32,i32,i32
# CONSTEXPR: BLOCK=64, CLAMP=True
# GRID: cdiv(n, BLOCK)
#
# KERNEL: chained_conditions_kernel
# SIGNATURE: *fp32:16,*fp32:16,constexpr,i32,i32
# CONSTEXPR: bias_ptr=None, BLOCK=64, CLAMP=False
# GRID: cdiv(n, BLOCK)
#
# KERNEL: rebind_params_kernel
# SIGNATURE: *i32:16,i32,i32
# CONSTEXPR: BLOCK=16
# GRID: 1
#
# KERNEL: rebind_params_kernel
# SIGNATURE: *i32:16,constexpr,i32
# CONSTEXPR: stride=1, BLOCK=16
# GRID: 1
#
# KERNEL: desc_attrs_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32,i32
# CONSTEXPR: MB=8, NB=32
# GRID: cdiv(M, MB), cdiv(N, NB)
#
# KERNEL: namedtuple_tile_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BM=16, BN=32
# GRID: cdiv(M, BM)
#
# KERNEL: const_input_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: single_element_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=32
# GRID: 1
#
# What a walk through Triton's own language tests (test_core.py) found that
# the other corpus files missed, each written anew: a conditional expression
# whose two branches are stores (`tl.store(...) if c else tl.store(...)`, an
# scf.if without results), parameters named like Python builtins the launcher
# uses (`type`, `grid`, `len`), Python's float() spellings of special values
# ("-nan", "Infinity", " 1_000.5 "), and loop bounds given by keyword
# (`tl.static_range(0, N, step=7)`, `tl.range(arg1=n)`); `and`/`or` chains
# of any length that stop at a deciding constexpr before the operands after
# it are built (`p is not None and tl.load(p) > 0` with p None), a parameter
# specialised to 1 (or None) reassigned like any local, and a helper that
# returns an empty tuple, and a tensor descriptor's `shape`, `strides` and
# `block_shape` read in the kernel, typing.NamedTuple and namedtuple() classes built in
# the kernel (by position, by field name, with a default) and returned by a
# helper, and `tl.const` pointer parameters (loads through them, pointer
# arithmetic and a helper keep the constness), and tensors of one element
# as scalars: `tl.reshape(x, [])` and the condition of an `if`, a `while`
# or a conditional expression.
from collections import namedtuple
from typing import NamedTuple

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


@triton.jit
def chained_conditions_kernel(x_ptr, out_ptr, bias_ptr, n, thresh, BLOCK: tl.constexpr, CLAMP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # a None bias_ptr stops the chain before tl.load(None) is built
    if bias_ptr is not None and CLAMP and tl.load(bias_ptr) > 0:
        x = x + tl.load(bias_ptr)
    # three tensors and a constexpr that drops out
    keep = (x > -1.0) and (x < 1.0) and True and (offs % 3 != 0)
    y = tl.where(keep, x, 0.0)
    # `or` chain: a runtime scalar, a falsy constexpr, a tensor
    if pid < thresh or CLAMP or pid == 0:
        y = y * 2.0
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def _empty_like(t):
    return tl.tuple([v + 1 for v in t])


@triton.jit
def rebind_params_kernel(out_ptr, stride, base, BLOCK: tl.constexpr):
    # stride may be specialised to the constant 1: still a local to rebind
    stride = stride * 2 + 1
    base = base - stride
    e = _empty_like(())
    tl.static_assert(len(e) == 0)
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * stride + base + len(e))


@triton.jit
def desc_attrs_kernel(out_ptr, a_ptr, info_ptr, M, N, MB: tl.constexpr, NB: tl.constexpr):
    desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[MB, NB])
    tl.static_assert(desc.block_shape == [MB, NB])
    tl.device_assert(desc.shape[0] == M)
    rows = desc.shape[0]
    cols = desc.shape[1]
    st = desc.strides
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    block = desc.load([pid_m * MB, pid_n * NB])
    offs_m = pid_m * MB + tl.arange(0, MB)[:, None]
    offs_n = pid_n * NB + tl.arange(0, NB)[None, :]
    # the descriptor's own shape bounds the store; its row stride addresses it
    tl.store(out_ptr + offs_m * st[0] + offs_n * st[1], block * 2.0, mask=(offs_m < rows) & (offs_n < cols))
    if pid_m == 0 and pid_n == 0:
        tl.store(info_ptr + 0, rows.to(tl.int64))
        tl.store(info_ptr + 1, cols.to(tl.int64))
        tl.store(info_ptr + 2, st[0])
        tl.store(info_ptr + 3, st[1])


Span = namedtuple("Span", "lo hi")


class Tile(NamedTuple):
    ptr: object
    rows: object
    cols: object
    stride: object
    scale: float = 1.0


@triton.jit
def _make_tile(base, row0, nrows, ncols, stride, BM: tl.constexpr):
    return Tile(base + row0 * stride, tl.minimum(nrows - row0, BM), ncols, stride)


@triton.jit
def _tile_load(t, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.arange(0, BM)[:, None]
    c = tl.arange(0, BN)[None, :]
    return tl.load(t.ptr + r * t.stride + c, mask=(r < t.rows) & (c < t[2]), other=0.0) * t.scale


@triton.jit
def namedtuple_tile_kernel(x_ptr, y_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    row0 = tl.program_id(0) * BM
    src = _make_tile(x_ptr, row0, M, N, stride, BM)
    dst = Tile(scale=2.0, stride=N, cols=N, rows=src.rows, ptr=y_ptr + row0 * N)
    v = _tile_load(src, BM, BN)
    ptr, rows, cols, st, scale = dst
    span = Span(hi=cols, lo=0)
    r = tl.arange(0, BM)[:, None]
    c = tl.arange(0, BN)[None, :]
    tl.store(ptr + r * st + c, v * scale + len(dst), mask=(r < rows) & (c >= span.lo) & (c < span[1]))


@triton.jit
def _pick(p, q, first: tl.constexpr):
    if first:
        return p
    return q


@triton.jit
def const_input_kernel(x_ptr: tl.const, w_ptr: tl.const, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # a const pointer moved, passed through a helper, loaded through
    src = _pick(x_ptr + offs, w_ptr + offs, True)
    x = tl.load(src, mask=mask, other=0.0)
    w = tl.load(_pick(x_ptr, w_ptr, False) + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * w + 1.0, mask=mask)


@triton.jit
def single_element_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    total = tl.sum(x[:, None], axis=0, keep_dims=True)   # [1, 1]
    first = tl.reshape(tl.load(x_ptr + tl.arange(0, 1)), [])
    k = tl.zeros([1], dtype=tl.int32)
    # a [1]-shaped counter as a loop condition: halve until below 1
    mag = tl.abs(total)
    while k * 0 + mag > 1.0:
        mag = mag * 0.5
        k += 1
    if total > 0:
        y = first + 1.0
    else:
        y = first - 1.0
    z = 2.0 if k == 0 else 3.0
    tl.store(out_ptr + tl.arange(0, 1), tl.reshape(total, [1]))
    tl.store(out_ptr + 1, y)
    tl.store(out_ptr + 2 + tl.arange(0, 1), k.to(tl.float32))
    tl.store(out_ptr + 3, z)
