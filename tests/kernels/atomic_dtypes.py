# KERNEL: atomic_rmw_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: OP="add", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32
# CONSTEXPR: OP="add", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: OP="add", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,i32
# CONSTEXPR: OP="add", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: OP="add", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *u64:16,*u64:16,*u64:16,i32
# CONSTEXPR: OP="add", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: OP="max", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,i32
# CONSTEXPR: OP="min", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *i64:16,*i64:16,*i64:16,i32
# CONSTEXPR: OP="max", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *u32:16,*u32:16,*u32:16,i32
# CONSTEXPR: OP="min", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: OP="and", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *u64:16,*u64:16,*u64:16,i32
# CONSTEXPR: OP="or", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *i64:16,*i64:16,*i64:16,i32
# CONSTEXPR: OP="xor", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: OP="xchg", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_rmw_kernel
# SIGNATURE: *i64:16,*i64:16,*i64:16,i32
# CONSTEXPR: OP="xchg", NBINS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_scalar_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16
# CONSTEXPR: OP="add", NBINS=4
# GRID: ROWS
#
# KERNEL: atomic_scalar_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16
# CONSTEXPR: OP="add", NBINS=4
# GRID: ROWS
#
# KERNEL: atomic_scalar_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16
# CONSTEXPR: OP="max", NBINS=4
# GRID: ROWS
#
# KERNEL: atomic_scalar_kernel
# SIGNATURE: *u32:16,*u32:16,*u32:16
# CONSTEXPR: OP="xor", NBINS=4
# GRID: ROWS
#
# KERNEL: atomic_cas_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_cas_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_cas_kernel
# SIGNATURE: *i16:16,*i16:16,*i16:16,*i16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_cas_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,*fp64:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# Every atomic read-modify-write Triton accepts, on each element type it
# accepts it for: add on every 32/64-bit integer and float type and on
# fp16/bf16 (bf16 has no atom.add before sm_90: a compare-and-swap loop
# there), max/min on integers and on fp32/fp64 (Triton's signed-max /
# unsigned-min split), and/or/xor/xchg on 32/64-bit types, atomic_cas on
# 16/32/64-bit types. Tile atomics (NBINS bins shared by the elements) and
# scalar ones (one per program), each returning the old value.

import triton
import triton.language as tl


@triton.jit
def _rmw(ptr, v, mask, OP: tl.constexpr):
    if OP == "add":
        old = tl.atomic_add(ptr, v, mask=mask)
    elif OP == "max":
        old = tl.atomic_max(ptr, v, mask=mask)
    elif OP == "min":
        old = tl.atomic_min(ptr, v, mask=mask)
    elif OP == "and":
        old = tl.atomic_and(ptr, v, mask=mask)
    elif OP == "or":
        old = tl.atomic_or(ptr, v, mask=mask)
    elif OP == "xor":
        old = tl.atomic_xor(ptr, v, mask=mask)
    else:
        tl.static_assert(OP == "xchg")
        old = tl.atomic_xchg(ptr, v, mask=mask)
    return old


@triton.jit
def atomic_rmw_kernel(dst_ptr, val_ptr, old_ptr, n, OP: tl.constexpr, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    v = tl.load(val_ptr + offs, mask=ok)
    old = _rmw(dst_ptr + offs % NBINS, v, ok, OP)
    tl.store(old_ptr + offs, old, mask=ok)


@triton.jit
def atomic_scalar_kernel(dst_ptr, val_ptr, old_ptr, OP: tl.constexpr, NBINS: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(val_ptr + pid)
    old = _rmw(dst_ptr + pid % NBINS, v, True, OP)
    tl.store(old_ptr + pid, old)


@triton.jit
def atomic_cas_kernel(dst_ptr, cmp_ptr, val_ptr, old_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    c = tl.load(cmp_ptr + offs, mask=ok)
    v = tl.load(val_ptr + offs, mask=ok)
    # lanes past n swap at a scratch slot of their own (cas takes no mask)
    old = tl.atomic_cas(dst_ptr + tl.where(ok, offs, n), c, v)
    tl.store(old_ptr + offs, old, mask=ok)
