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
from tritonc.language.extra import libdevice

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


# Triton 3.6's standard.py sorts with a bitonic network whose compare-exchange
# lets each element decide alone: x = where((x > y) != (flip ^ is_right), y, x)
# with y its partner. Two ordered values swap; a pair where neither is greater
# (a NaN, or -0.0 beside 0.0) comes out as two copies of one of them. topk
# sorts log2(k) stages, then halves the dimension with tl.max (NaN-ignoring,
# and widening below 32 bits) and merges again. Below, the same network in
# torch, position by position, is the reference.
def _bitonic_stage(x, stage, order):
    n = x.shape[-1]
    pos = torch.arange(n)
    for k in range(stage - 1, -1, -1):
        partner = x[..., pos ^ (1 << k)]
        right = (pos >> k) & 1 == 1
        flip = ((pos >> stage) & 1 == 1) if order == 2 else torch.full((n,), bool(order))
        x = torch.where((x > partner) != (right ^ flip), partner, x)
    return x


def _triton_topk(x, k, desc=True):
    log_n, log_k = x.shape[-1].bit_length() - 1, k.bit_length() - 1
    for i in range(1, log_k + 1):
        x = _bitonic_stage(x, i, 2 if i < log_n else desc)
    for i in range(log_k + 1, log_n + 1):
        if x.dtype in (torch.float16, torch.bfloat16):
            x = x.float()
        m = x.shape[-1]
        x = x.reshape(*x.shape[:-1], m // (2 * k), 2, k)
        a, b = x[..., 0, :], x[..., 1, :]
        x = (torch.fmax(a, b) if desc else torch.fmin(a, b)).reshape(*x.shape[:-3], m // 2)
        x = _bitonic_stage(x, log_k, 2 if i < log_n else desc)
    return x


@triton.jit
def sort_nan_kernel(x_ptr, out_ptr, top_ptr, DESC: tl.constexpr, R: tl.constexpr, C: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x, descending=DESC))
    top = tl.topk(x, K)
    tl.static_assert(top.dtype == (tl.float32 if K < C else x.dtype), "tl.max widens topk's halvings")
    tl.store(top_ptr + tl.arange(0, R)[:, None] * K + tl.arange(0, K)[None, :], top)


def check_sort_nan():
    # tl.sort used a swap of the pair on one shared comparison (Triton before
    # 3.4), which keeps every value: with NaNs the rows differed from Triton's.
    # tl.topk took the first k of the sorted row, so a NaN could be among them
    # where Triton's tl.max halving drops it, and fp16 stayed fp16.
    for dtype in (torch.float32, torch.float16):
        for desc in (False, True):
            for k in (1, 4, 32):
                x = torch.randn(4, 32, generator=GEN).to(dtype)
                x[torch.rand(4, 32, generator=GEN) < 0.25] = float("nan")
                x[torch.rand(4, 32, generator=GEN) < 0.1] = 0.0
                x[0, 3] = x[1, 5] = float("nan")
                out = torch.full_like(x, 7.0)
                top = torch.full((4, k), 7.0, dtype=torch.float32 if k < 32 else dtype)
                sort_nan_kernel[(1,)](x, out, top, DESC=desc, R=4, C=32, K=k)
                want = _triton_topk(x, 32, desc)
                assert torch.equal(out.isnan(), want.isnan()), (dtype, desc, out, want)
                assert torch.equal(out.nan_to_num(), want.nan_to_num()), (dtype, desc, out, want)
                want = _triton_topk(x, k)
                assert torch.equal(top.isnan(), want.isnan()), (dtype, k, top, want)
                assert torch.equal(top.nan_to_num(), want.nan_to_num()), (dtype, k, top, want)


@triton.jit
def mulhi64_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, libdevice.mulhi(x, y))
    tl.store(out_ptr + BLOCK + offs, libdevice.mulhi(x.to(tl.uint64, bitcast=True), y.to(tl.uint64, bitcast=True))
             .to(tl.int64, bitcast=True))


def check_mulhi_int64():
    # libdevice.mulhi takes int64 and uint64 pairs too (__nv_mul64hi,
    # __nv_umul64hi): it was refused as "not supported yet".
    x = torch.randint(-2**63, 2**63 - 1, (64,), generator=GEN)
    y = torch.randint(-2**63, 2**63 - 1, (64,), generator=GEN)
    x[:4] = torch.tensor([-1, -1, -2**63, 2**63 - 1])
    y[:4] = torch.tensor([-1, 1, -2**63, -2**63])
    out = torch.zeros(128, dtype=torch.int64)
    mulhi64_kernel[(1,)](x, y, out, BLOCK=64)

    def wrap(v):
        v %= 2**64
        return v - 2**64 if v >= 2**63 else v

    want = [wrap((int(a) * int(b)) >> 64) for a, b in zip(x, y)]
    want += [wrap(((int(a) % 2**64) * (int(b) % 2**64)) >> 64) for a, b in zip(x, y)]
    assert out.tolist() == want, (out, want)


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
