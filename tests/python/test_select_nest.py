# RUN: %python %s
# REQUIRES: torch
"""A compare-and-swap over a [2]*n hypercube, as Triton's bitonic sort and
FlagGems' topk write it (tl.reshape(x, [2] * n_dims), halves picked out by
tl.sum against an indicator, a bit-level swap through tl.where and xor),
on the CPU for every axis of ranks 3 to 8, against torch. GCC 12 at -O3
-mavx2 miscompiled the C of the select in the rank >= 5 nests (masked
loads of a conditionally read array element); the C backend now reads
select operands unconditionally (tests/cpu/select_operands.py). On CUDA
the same kernels run on GPU layouts of up to 8 dimensions."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def _half(x, n_dims: tl.constexpr, axis: tl.constexpr, pos: tl.constexpr):
    y = tl.arange(0, 2)
    if pos == 0:
        y = 1 - y
    for d in tl.static_range(n_dims):
        if d != axis:
            y = tl.expand_dims(y, d)
    return tl.expand_dims(tl.sum(x * y, axis), axis)


@triton.jit
def swap_kernel(x_ptr, o_ptr, N_DIMS: tl.constexpr, AXIS: tl.constexpr):
    offs = tl.arange(0, 2 ** N_DIMS)
    x = tl.reshape(tl.load(x_ptr + offs), [2] * N_DIMS)
    l = _half(x, N_DIMS, AXIS, 0)
    r = _half(x, N_DIMS, AXIS, 1)
    xi = x.to(tl.int32, bitcast=True)
    swap = tl.where(l > r, l.to(tl.int32, bitcast=True) ^ r.to(tl.int32, bitcast=True), tl.zeros_like(xi))
    tl.store(o_ptr + offs, tl.reshape((xi ^ swap).to(tl.float32, bitcast=True), [2 ** N_DIMS]))


gen = torch.Generator().manual_seed(7)
failed = 0
for nd in range(3, 9):
    for axis in range(nd):
        x = torch.randint(-50, 50, (2 ** nd,), generator=gen).float()
        o = torch.full_like(x, float("nan"))
        swap_kernel[(1,)](x, o, N_DIMS=nd, AXIS=axis)
        h = x.view([2] * nd)
        lo, hi = h.narrow(axis, 0, 1), h.narrow(axis, 1, 1)
        want = torch.where(lo > hi, torch.cat((hi, lo), axis), h).reshape(-1)
        if not torch.equal(o, want):
            failed += 1
            print("FAIL rank %d axis %d: %d elements differ" % (nd, axis, (o != want).sum().item()))
print("%d cases failed" % failed if failed else "all hypercube compare-and-swap cases passed")
sys.exit(1 if failed else 0)
