# RUN: %python %s
# REQUIRES: torch
"""Kernels from an audit of tritonc against the semantics of Triton 3.6's
language (as python/test/unit/language/test_core.py exercises it), each
checked on the CPU against torch computing what Triton's rules say. One
check per difference that was found and fixed; the kernels are small and
the inputs ragged and random, outputs poisoned first."""
import os

import torch

import tritonc as triton
import tritonc.language as tl

GEN = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))


@triton.jit
def wide_int_arg_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(n.dtype == tl.int64, "an int argument past int32 is int64")
    tl.store(out_ptr + offs, (x - n) // 3)
    tl.store(out_ptr + BLOCK + offs, (x < n).to(tl.int64) + (n - x > 0).to(tl.int64) * 10)


def check_wide_int_arg():
    # Triton types an int argument i32, else i64, else u64 (>= 2**63): one in
    # [2**31, 2**32) is int64, not uint32 as a literal of that value would be,
    # so int32 tensors meet it in signed 64-bit arithmetic. It was uint32:
    # (x - n) wrapped modulo 2**32 and x < n compared unsigned.
    for n in (2**31, 3_000_000_000, 2**32 - 1, 2**32 + 5):
        x = torch.randint(-2**31, 2**31, (64,), generator=GEN, dtype=torch.int32)
        x[0], x[1] = -1, 2**31 - 1
        out = torch.full((128,), -7, dtype=torch.int64)
        wide_int_arg_kernel[(1,)](x, out, n, BLOCK=64)
        d = x.long() - n
        want = torch.where(d < 0, -((-d) // 3), d // 3)  # C's truncating division
        assert torch.equal(out[:64], want), (n, out[:64], want)
        want = (x.long() < n).long() + (n - x.long() > 0).long() * 10
        assert torch.equal(out[64:], want), (n, out[64:], want)


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
