# KERNEL: histogram_kernel
# SIGNATURE: *i32:16,*i32:16,i32
# CONSTEXPR: NUM_BINS=64, BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# KERNEL: atomic_minmax_kernel
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: spin_lock_accumulate_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: ROWS
#
# Atomics: a histogram of (possibly negative) integers with relaxed
# tl.atomic_add, element-wise and scalar atomic max/min on int32 and fp32,
# and a critical section guarded by a tl.atomic_cas spin lock (released with
# tl.atomic_xchg) in which every program adds its row into a shared
# accumulator.

import triton
import triton.language as tl


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0)
    bins = ((x % NUM_BINS) + NUM_BINS) % NUM_BINS
    tl.atomic_add(hist_ptr + bins, 1, mask=ok, sem="relaxed")


@triton.jit
def atomic_minmax_kernel(x_ptr, imax_ptr, fmax_ptr, fmin_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    tl.atomic_max(imax_ptr + offs % 32, x.to(tl.int32), mask=ok)
    block_max = tl.max(tl.where(ok, x, float("-inf")), axis=0)
    block_min = tl.min(tl.where(ok, x, float("inf")), axis=0)
    tl.atomic_max(fmax_ptr, block_max)
    tl.atomic_min(fmin_ptr, block_min, sem="acq_rel", scope="gpu")


@triton.jit
def spin_lock_accumulate_kernel(x_ptr, acc_ptr, lock_ptr, count_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < N
    x = tl.load(x_ptr + pid * N + cols, mask=ok, other=0.0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    count = tl.load(count_ptr, volatile=True)
    acc = tl.load(acc_ptr + cols, mask=ok, other=0.0, cache_modifier=".cg")
    if count == 0:
        acc = x
    else:
        acc += x
    tl.store(acc_ptr + cols, acc, mask=ok, cache_modifier=".cg")
    tl.store(count_ptr, count + 1)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0)
