# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/api_audit.py (Triton 3.6 API that an audit
of triton.language found missing or wrong in tritonc) on the CPU, each
checked against torch computing the same thing another way: dtype facts
known at compile time, dispatch over fp8 formats, PropagateNan.ALL in
clamp/maximum/minimum (fp16 to fp64), fma on fp16/bf16, cumsum/cumprod
result types, tensor descriptor atomics, atomic_cas on computed values,
tensor methods (cdiv, logical_and/or, item), bitonic_merge, tl.range /
tl.condition with disable_licm, tl.target_info, device_print(hex=True).
Fresh random inputs, ragged sizes, outputs poisoned with NaN (or a
sentinel) first. Only torch functions make the tensors, so the script runs
on CUDA too."""
import os
import subprocess
import sys

import torch

import tritonc as triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

import tritonc.language as tl  # noqa: E402

K = load_corpus("api_audit")
GEN = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))
DEVICE = torch.empty(0).device.type


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def randint(lo, hi, shape, dtype=torch.int32):
    return torch.randint(lo, hi, shape, generator=GEN).to(dtype)


def nan_like(x):
    return torch.full_like(x, float("nan"))


def same(got, want, what):
    """Equal, NaN where NaN is wanted."""
    got, want = got.double(), want.double()
    ok = (got == want) | (got.isnan() & want.isnan())
    assert got.shape == want.shape and bool(ok.all()), "%s: got %s, want %s" % (
        what, got[~ok][:6].tolist(), want[~ok][:6].tolist())


def close(got, want, tol, what):
    got, want = got.double(), want.double()
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    nan_ok = got.isnan() == want.isnan()
    assert bool(nan_ok.all()), "%s: NaN where none is wanted, or none where one is" % what
    err = (got - want).abs().nan_to_num(0).max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().nan_to_num(0).max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def check_dtype_api():
    # (dtype, torch dtype, bits, is_floating, signed, unsigned, standard float,
    #  mantissa or int max, exponent bias or int min, is_* bits, is_* bits 2, bytes, name code)
    cases = ((tl.float16, torch.float16, 16, 1, 0, 0, 1, 10, 15, 1, 0, 2, 1),
             (tl.bfloat16, torch.bfloat16, 16, 1, 0, 0, 1, 7, 127, 2, 0, 2, 2),
             (tl.int8, torch.int8, 8, 0, 1, 0, 0, 127, -128, 4, 0, 1, 3),
             (tl.uint8, torch.uint8, 8, 0, 0, 1, 0, 255, 0, 0, 2, 1, 4))
    for dt, tdt, *want in cases:
        x = randint(-20 * (tdt != torch.uint8), 20, (16,)).to(tdt) if not tdt.is_floating_point else randn(16, dtype=tdt)
        o = torch.full((16,), -777, dtype=torch.int64)
        K.dtype_api_kernel[(1,)](x, o, N=16, DT=dt)
        xs = x.float() if tdt.is_floating_point else x.to(torch.int64)
        want = want + [1 + 2 + 4, 15 + 100 * 16, 7 + 16, int(xs.sum().item()), 0]
        assert o.tolist() == want, "%s: %s, want %s" % (dt, o.tolist(), want)


def check_fp8_dispatch():
    for f8, tdt in ((tl.float8e5, torch.float8_e5m2 if hasattr(torch, "float8_e5m2") else None),
                    (tl.float8e4nv, torch.float8_e4m3fn if hasattr(torch, "float8_e4m3fn") else None)):
        n = 333
        x = randn(n) * 50
        y = nan_like(x)
        K.fp8_dispatch_kernel[(triton.cdiv(n, 64),)](x, y, n, BLOCK=64, F8=f8)
        if tdt is not None:
            xc = x.clamp(-448, 448) if f8 == tl.float8e4nv else x
            same(y, xc.to(tdt).float(), "fp8 %s" % f8)
        else:  # an old torch: within the format's rounding
            rel = 2.0 ** -(3 if f8 == tl.float8e5 else 4)
            assert bool(((y - x).abs() <= x.abs() * rel + 1e-3).all()), "fp8 %s" % f8


def check_nan_minmax():
    nan = float("nan")
    for dtype, nan_all in ((torch.float32, True), (torch.float32, False), (torch.float64, True),
                           (torch.float16, True), (torch.bfloat16, True)):
        n = 201
        x = randn(n) * 2
        lo = -randn(n).abs() - 0.1
        hi = randn(n).abs() + 0.1
        x[3] = nan
        lo[7] = nan
        hi[11] = nan
        x[13] = lo[13] = nan
        x[17] = -0.0
        lo[17] = 0.0
        x, lo, hi = x.to(dtype), lo.to(dtype), hi.to(dtype)
        y = torch.full((3 * n,), 12345.0, dtype=dtype)
        K.nan_minmax_kernel[(triton.cdiv(n, 64),)](x, lo, hi, y, n, BLOCK=64, NAN_ALL=nan_all)
        xd, lod, hid = x.double(), lo.double(), hi.double()
        if nan_all:  # maximum / minimum: NaN if either is NaN
            want_c = torch.minimum(torch.maximum(xd, lod), hid)
            want_mx, want_mn = torch.maximum(xd, lod), torch.minimum(xd, hid)
        else:  # maxnum / minnum: the other operand
            want_c = torch.fmin(torch.fmax(xd, lod), hid)
            want_mx, want_mn = torch.fmax(xd, lod), torch.fmin(xd, hid)
        got = y.double()
        for k, (w, what) in enumerate(((want_c, "clamp"), (want_mx, "maximum"), (want_mn, "minimum"))):
            g = got[k * n:(k + 1) * n]
            # (-0.0 against 0.0 may come out either way: compare values, NaN where NaN)
            same(g, w, "%s %s nan_all=%s" % (what, dtype, nan_all))


def check_fma():
    for dtype in (torch.float16, torch.bfloat16):
        n = 1000
        a, b, c = randn(n, dtype=dtype), randn(n, dtype=dtype), randn(n, dtype=dtype)
        d = nan_like(a)
        K.fma_kernel[(triton.cdiv(n, 128),)](a, b, c, d, n, BLOCK=128)
        d1 = (a.double() * b.double() + c.double()).to(dtype)  # one rounding
        want = (d1.double() * 0.5 + c.double()).to(dtype)
        same(d, want, "fma %s" % dtype)


def check_scan_dtypes():
    rows, n = 3, 29
    x = randint(-3, 4, (rows, n), dtype=torch.int8)
    s = torch.full((rows, n), -1, dtype=torch.int32)
    p = torch.full((rows, n), -1, dtype=torch.int8)
    K.scan_dtypes_kernel[(rows,)](x, s, p, n, BLOCK=32)
    same(s, x.to(torch.int64).cumsum(1).to(torch.int32), "cumsum int8 -> int32")
    # int8 products wrap: the product mod 256, as int8
    wrapped = x.to(torch.int64).cumprod(1) % 256
    same(p.to(torch.int64) % 256, wrapped, "cumprod int8 stays int8")
    xb = (1 + randn(rows, n) * 0.05).to(torch.bfloat16)
    sf = torch.full((rows, n), float("nan"))
    pf = torch.full((rows, n), float("nan"))
    K.scan_dtypes_kernel[(rows,)](xb, sf, pf, n, BLOCK=32)
    close(sf, xb.double().cumsum(1), 1e-5, "cumsum bf16 in fp32")
    close(pf, xb.double().cumprod(1), 1e-5, "cumprod bf16 in fp32")


def check_desc_atomics():
    M, N = 45, 48
    x = randn(M, N)
    y = randn(M, N)
    y0 = y.clone()
    K.desc_atomic_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](x, y, M, N, BM=16, BN=16, OP="add")
    close(y, y0 + 2 * x, 1e-6, "desc.atomic_add")
    xi = randint(-1000, 1000, (M, N))
    yi = randint(-1000, 1000, (M, N))
    yi0 = yi.clone()
    K.desc_atomic_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](xi, yi, M, N, BM=16, BN=16, OP="max")
    same(yi, torch.maximum(xi, yi0), "desc.atomic_max")
    yi = yi0.clone()
    K.desc_atomic_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](xi, yi, M, N, BM=16, BN=16, OP="xor")
    same(yi, xi ^ yi0, "desc.atomic_xor")


def check_cas_computed():
    n = 150
    for dtype in (torch.int32, torch.float32, torch.int16, torch.float64):
        p = randint(-100, 100, (n + 1,)).to(dtype)  # p[n]: the masked lanes' scratch slot
        p0 = p.clone()
        r = torch.zeros(n, dtype=dtype)
        K.cas_computed_kernel[(triton.cdiv(n, 64),)](p, r, n, BLOCK=64)
        same(r, p0[:n], "atomic_cas old values %s" % dtype)
        same(p[:n], p0[:n] + 1, "atomic_cas swapped %s" % dtype)


def check_tensor_methods():
    n = 77
    x = randn(n) * 2
    i = randint(-50, 50, (n,))
    y = nan_like(x)
    j = torch.full((n,), -12345, dtype=torch.int32)
    K.tensor_methods_kernel[(triton.cdiv(n, 32),)](x, i, y, j, n, BLOCK=32)
    first = x[(torch.arange(n) // 32) * 32]
    want = ((x > 0) & (x < 1)).float() + ((x < -1) | (x > 1)).float() * 10 + first
    close(y, want, 1e-6, "logical_and / logical_or / item")

    def cdiv(a, b):  # Triton's (a + b - 1) // b with C's truncating division
        return torch.div(a + b - 1, b, rounding_mode="trunc")

    same(j, cdiv(i, 3) + cdiv(i, 5), "tensor.cdiv")


def check_bitonic_merge():
    rows, n = 4, 32
    up = randn(rows, n // 2).sort(1).values
    down = randn(rows, n // 2).sort(1, descending=True).values
    x = torch.cat([up, down], 1).contiguous()
    y = torch.full((2 * rows, n), float("nan"))
    K.bitonic_merge_kernel[(1,)](x, y, ROWS=rows, N=n)
    srt = x.sort(1).values
    same(y[:rows], srt, "bitonic_merge ascending")
    same(y[rows:], srt.flip(1), "bitonic_merge descending")


def check_loop_hints():
    for rows, n in ((5, 50), (1, 64), (0, 33)):
        x = randn(max(rows, 1), n)
        y = nan_like(x[0])
        K.loop_hints_kernel[(1,)](x, y, n, rows, BLOCK=64)
        close(y, 0.5 * x[:rows].sum(0), 1e-5, "tl.range / tl.condition rows=%d" % rows)


def check_target_info():
    y = torch.full((1,), -1, dtype=torch.int32)
    K.target_info_kernel[(1,)](y)
    if DEVICE == "cuda":
        major, minor = torch.cuda.get_device_capability()
        sm = min(major * 10 + minor, 90)  # tritonc builds sm_90 code for newer GPUs
        want = 1 + 4 * (sm >= 80) + 8 * (sm >= 90)
    else:
        want = 0  # the CPU is neither CUDA nor HIP
    assert y.item() == want, "target_info flags %d, want %d" % (y.item(), want)


def check_print_hex():
    child = ("import sys, torch; sys.path.insert(0, %r); from corpus import load_corpus; "
             "K = load_corpus('api_audit'); x = torch.zeros(2); x[0] = 1.0; x[1] = -2.0; "
             "K.print_hex_kernel[(1,)](x, N=2); "
             "torch.cuda.synchronize() if x.device.type == 'cuda' else None") % os.path.join(HERE, "Inputs")
    r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-2000:]
    for want in ("f32: 0x3f800000", "f32: 0xc0000000", "f16: 0x3c00", "f16: 0xc000", "i8: 0x01", "i8: 0xfe",
                 "idx () sum: 0xffffffffffffffff"):
        assert want in out, "device_print(hex=True): no %r in\n%s" % (want, out)


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
