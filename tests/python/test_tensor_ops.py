# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/tensor_ops.py on the CPU, each checked
against torch or numpy computing the same thing another way: interleaved
RoPE (reshape/split/interleave), 3-D permutes, selects with scalars, clamp,
fdiv and fmod, i8/u8/u16 arithmetic, rounding-mode casts, fp8 and bitcasts,
an embedding lookup and its atomic backward, a binary search in a while
loop, descending sorts with an argsort, a 3-D grid with many scalar types,
dtype branches. Fresh random inputs, ragged sizes, outputs poisoned first."""
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("tensor_ops")

GEN = torch.Generator().manual_seed(777)
RNG = np.random.default_rng(777)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def close(got, want, tol, what):
    got, want = got.float(), want.float()
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def same(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    bad = np.nonzero(got != want)
    assert got.shape == want.shape and bad[0].size == 0, \
        "%s: %d mismatches, first at %s: got %s, want %s" % (
            what, bad[0].size, [int(b[0]) for b in bad], got[bad][:4], want[bad][:4])


def check_rope_interleaved():
    H = 16
    for T in (8, 21, 3):
        x = randn(T, 2 * H)
        cos, sin = randn(T, H), randn(T, H)
        y = torch.full_like(x, float("nan"))
        K.rope_interleaved[(triton.cdiv(T, 8),)](x, cos, sin, y, T, HALF=H, BLOCK_T=8)
        x0, x1 = x[:, 0::2], x[:, 1::2]
        ref = torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), -1).reshape(T, 2 * H)
        close(y, ref, 1e-6, "interleaved rope T=%d" % T)


def check_permute_3d():
    A, B, C = 2, 4, 8
    x = randn(A, B, C).half()
    p = torch.full((C, A, B), float("nan")).half()
    q = torch.full((B, A, C), float("nan")).half()
    r = torch.full((C, B), float("nan")).half()
    K.permute_3d[(1,)](x, p, q, r, A=A, B=B, C=C)
    assert torch.equal(p, x.permute(2, 0, 1)), "tl.permute (2, 0, 1)"
    assert torch.equal(q, x.permute(1, 0, 2)), "tl.trans(x, 1, 0, 2)"
    assert torch.equal(r, x[0].T), ".T of a 2-D slice"


def check_select_clamp():
    for n in (1000, 5):
        x = randn(n) * 5
        x[::17] = 0.0
        lo = -torch.rand(n, generator=GEN) * 3
        hi = torch.rand(n, generator=GEN) * 3
        sign = torch.full((n,), 9, dtype=torch.int32)
        out = torch.full((n,), float("nan"))
        K.select_clamp[(triton.cdiv(n, 256),)](x, lo, hi, sign, out, n, 3.0, BLOCK=256)
        assert torch.equal(sign, torch.sign(x).to(torch.int32)), "nested tl.where on int scalars"
        big = torch.where(x.abs() > 3.0, 3.0, x)
        ref = (torch.clamp(x, lo, hi) + 4.0) / (big + 8.0) + torch.fmod(x, 1.5) * 100.0
        close(out, ref, 1e-5, "clamp / fdiv / fmod n=%d" % n)


def check_small_int_ops():
    for n in (300, 7):
        a = RNG.integers(-127, 128, n, dtype=np.int8)
        b = RNG.integers(-9, 10, n, dtype=np.int8)
        b[b == 0] = 3
        u8 = RNG.integers(0, 256, n, dtype=np.uint8)
        u16 = RNG.integers(0, 65536, n, dtype=np.uint16)
        fa = RNG.standard_normal(n).astype(np.float32) * 10
        fb = RNG.standard_normal(n).astype(np.float32) + 0.1
        q = np.full(n, 99, np.int8)
        r = np.full(n, 99, np.int8)
        sh8 = np.zeros(n, np.uint8)
        sh16 = np.zeros(n, np.uint16)
        fr = np.full(n, np.nan, np.float32)
        K.small_int_ops[(triton.cdiv(n, 128),)](a, b, u8, u16, q, r, sh8, sh16, fa, fb, fr, n, BLOCK=128)
        ai, bi = a.astype(np.int32), b.astype(np.int32)
        tq = np.trunc(ai / bi).astype(np.int32)
        same(q, tq.astype(np.int8), "i8 // (truncating)")
        same(r, (ai - tq * bi).astype(np.int8), "i8 % (sign of the dividend)")
        same(sh8, (u8 >> 3) ^ (u8 << 5).astype(np.uint8) ^ ~u8, "u8 shifts")
        same(sh16, ((u16 >> 7) | (u16 << 9).astype(np.uint16)) & 0xFFF0, "u16 shifts")
        assert np.allclose(fr, np.fmod(fa, fb), rtol=1e-6, atol=1e-5), "float % is fmod"


def check_rounding_casts():
    n = 2000
    x = (RNG.standard_normal(n) * np.exp2(RNG.integers(-26, 16, n))).astype(np.float32)
    x[:4] = [65504.0, 65519.0, 65520.0, -70000.0]  # fp16 overflow: rtne gives inf, rtz the largest finite
    x[4:8] = [1e-8, -3e-7, 6.2e-5, 0.5]           # fp16 subnormals
    xs = np.clip(x, -50000, 50000).astype(np.float32)
    xt = torch.from_numpy(xs)
    outs = [np.full(n, np.nan, np.float16), np.full(n, np.nan, np.float16),
            torch.full((n,), float("nan"), dtype=torch.bfloat16),
            torch.full((n,), float("nan"), dtype=torch.bfloat16),
            np.zeros(n, np.int16), np.zeros(n, np.uint32),
            triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e5), np.full(n, np.nan, np.float32)]
    for what, data in (("overflowing", x), ("in range", xs)):
        if what == "overflowing":
            h_rtne, h_rtz = outs[0], outs[1]
            K.rounding_casts[(triton.cdiv(n, 256),)](x, *outs, n, BLOCK=256)
            with np.errstate(over="ignore"):
                ref = data.astype(np.float16)
            same(h_rtne, ref, "fp16 rtne")
            rz = ref.copy()
            up = np.abs(rz.astype(np.float64)) > np.abs(data.astype(np.float64))
            rz[up] = np.nextafter(rz[up], np.float16(0))
            same(h_rtz, rz, "fp16 rtz")
            same(outs[4], ref.view(np.int16), "fp16 bitcast to i16")
            same(outs[5], data.view(np.uint32), "fp32 bitcast to u32")
            bits = torch.from_numpy(data.view(np.int32))
            same(outs[3].view(torch.int16).numpy(), ((bits >> 16).to(torch.int16)).numpy(), "bf16 rtz")
            same(outs[2].float().numpy(), torch.from_numpy(data).bfloat16().float().numpy(), "bf16 rtne")
        else:
            K.rounding_casts[(triton.cdiv(n, 256),)](xt, *outs, n, BLOCK=256)
            h = data.astype(np.float16)
            # e5m2 is the high byte of an fp16: round the low byte to nearest even
            hb = h.view(np.uint16).astype(np.int32)
            low, hi = hb & 0xFF, hb >> 8
            f8 = (hi + ((low > 0x80) | ((low == 0x80) & (hi & 1 == 1)))).astype(np.uint8)
            same(outs[6].base.numpy(), f8, "fp16 -> e5m2 rtne")
            back = (f8.astype(np.uint16) << 8).view(np.float16).astype(np.float32)
            same(outs[7], back + h.astype(np.float32), "e5m2 back + bitcast round trip")


def check_embedding():
    V, D, PAD = 50, 100, 28
    for n_tok in (37, 5):
        table_full = randn(V, D + PAD).half()
        ids = torch.randint(0, V, (n_tok,), generator=GEN, dtype=torch.int64)
        ids[0] = V - 1
        out = torch.full((n_tok, D), float("nan")).half()
        K.embedding_fwd[(triton.cdiv(n_tok, 16),)](ids, table_full, out, n_tok, table_full.stride(0), D,
                                                   BLOCK_T=16, BLOCK_D=64)
        assert torch.equal(out, table_full[:, :D][ids]), "embedding rows (i64 ids, row stride %d)" % (D + PAD)
        dout = randn(n_tok, D)
        dtable = torch.zeros(V, D)
        K.embedding_bwd[(triton.cdiv(n_tok, 16),)](ids, dout, dtable, n_tok, D, BLOCK_T=16, BLOCK_D=64)
        ref = torch.zeros(V, D).index_add_(0, ids, dout)
        close(dtable, ref, 1e-5, "embedding backward (atomic index_add)")


def check_segment_lookup():
    for lens in ([3, 0, 5, 1, 0, 0, 7], [1], [0, 4, 0]):
        offsets = torch.tensor([0] + list(np.cumsum(lens)), dtype=torch.int32)
        total = int(offsets[-1])
        seg = torch.full((total,), -1, dtype=torch.int32)
        pos = torch.full((total,), -1, dtype=torch.int32)
        K.segment_lookup[(total,)](offsets, seg, pos, len(lens), total)
        i = torch.arange(total, dtype=torch.int32)
        want = torch.searchsorted(offsets[1:], i, right=True).to(torch.int32)
        assert torch.equal(seg, want), "segments %s: %s, want %s" % (lens, seg, want)
        assert torch.equal(pos, i - offsets[want.long()]), "positions in segments %s" % lens


def check_sort_rows():
    for rows, cols, desc in ((5, 32, True), (4, 19, False), (3, 1, True)):
        x = randn(rows, cols).half()
        if cols > 4:
            x[:, 3] = x[:, 1]  # ties: the earlier column first
        vals = torch.full_like(x, float("nan"))
        idx = torch.full((rows, cols), -1, dtype=torch.int32)
        K.sort_rows[(rows,)](x, vals, idx, cols, BLOCK=32, DESCENDING=desc)
        ref_v, ref_i = torch.sort(x.float(), dim=1, descending=desc, stable=True)
        assert torch.equal(vals.float(), ref_v), "sorted values (%s)" % ("descending" if desc else "ascending")
        assert torch.equal(idx.long(), ref_i), "argsort by packed keys: %s, want %s" % (idx, ref_i)


def check_mixed_args():
    BLOCK = 64
    nprog = 2 * 3 * 4
    out = torch.full((nprog * BLOCK,), float("nan"))
    out64 = torch.zeros(nprog, dtype=torch.int64)
    flags = torch.zeros(nprog, dtype=torch.int8)
    big = 3 * 2 ** 33 + 5
    for flag in (True, False):
        K.mixed_args[(2, 3, 4)](out, out64, flags, flag, 7, 40000, big, -123, 0.25, 1.5, BLOCK=BLOCK)
        lin = torch.arange(nprog)
        ref = ((7 + 40000 - 123) * 0.25 + lin.float() + (1.5 if flag else 0.0))[:, None] + torch.arange(BLOCK)
        close(out, ref.reshape(-1), 1e-6, "3-D grid values (flag=%s)" % flag)
        assert torch.equal(out64, big * lin + nprog), "i64 scalar times program index"
        assert torch.equal(flags, (7 * lin).to(torch.int8)), "i8 store of an i32 product"


def check_dtype_dispatch():
    for n in (1000, 100):
        x = randn(n)
        y = torch.full_like(x, float("nan"))
        K.dtype_dispatch[(triton.cdiv(n, 128),)](x, y, n, BLOCK=128, SCALE=3)
        close(y, x * 3 + 32, 1e-6, "fp32 branch")
        xh = x.half()
        yh = torch.full_like(xh, float("nan"))
        K.dtype_dispatch[(triton.cdiv(n, 128),)](xh, yh, n, BLOCK=128)
        assert torch.equal(yh, (xh.float() * 2).half() + 16), "fp16 branch, default SCALE"


def check_dequant_groups():
    G = 64
    for n_groups in (5, 1):
        q = torch.randint(0, 256, (n_groups, G // 2), generator=GEN, dtype=torch.uint8)
        scale = torch.rand(n_groups, generator=GEN) + 0.1
        zero = torch.randint(0, 16, (n_groups,), generator=GEN).float()
        sz = torch.stack((scale, zero), 1)
        out = torch.full((n_groups, G), float("nan")).half()
        K.dequant_groups[(n_groups,)](q, sz, out, n_groups, GROUP=G)
        nib = torch.stack(((q & 0xF), (q >> 4)), -1).reshape(n_groups, G).float()
        ref = ((nib - sz[:, 1:]) * sz[:, :1]).half()
        assert torch.equal(out, ref), "4-bit dequantisation with a split (scale, zero) pair, %d groups" % n_groups


def check_splitmix64():
    for n in (1000, 3):
        x = RNG.integers(0, 2 ** 64, n, dtype=np.uint64, endpoint=False)
        x[0] = 0
        h = np.zeros(n, np.uint64)
        bucket = np.full(n, -1, np.int32)
        K.splitmix64[(triton.cdiv(n, 256),)](x, h, bucket, n, BLOCK=256)
        with np.errstate(over="ignore"):
            z = x + np.uint64(0x9E3779B97F4A7C15)
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z = z ^ (z >> np.uint64(31))
        same(h, z, "splitmix64 on uint64 with constants above 2**63")
        same(bucket, (z % np.uint64(1000)).astype(np.int32), "unsigned 64-bit modulo")


@triton.jit
def to_fp8(xf, xi, e4f, e5f, e4i, e5i, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    f = tl.load(xf + i, mask=ok)
    k = tl.load(xi + i, mask=ok)
    tl.store(e4f + i, f.to(tl.float8e4nv), mask=ok)
    tl.store(e5f + i, f.to(tl.float8e5), mask=ok)
    tl.store(e4i + i, k.to(tl.float8e4nv), mask=ok)
    tl.store(e5i + i, k.to(tl.float8e5), mask=ok)


def fp8_values(e, m, fn):
    """The finite values of an fp8 format (1 sign, e exponent, m mantissa
    bits, IEEE bias; fn: no infinities, S.1111.111 NaN), by code."""
    bias, vals = (1 << (e - 1)) - 1, {}
    for code in range(256):
        s, ex, man = code >> 7, (code >> m) & ((1 << e) - 1), code & ((1 << m) - 1)
        if (fn and ex == (1 << e) - 1 and man == (1 << m) - 1) or (not fn and ex == (1 << e) - 1):
            continue
        v = man * 2.0 ** (1 - bias - m) if ex == 0 else (man | 1 << m) * 2.0 ** (ex - bias - m)
        vals[code] = -v if s else v
    return vals


def fp8_encode(x, e, m, fn):
    """Round to nearest (ties to the even code) after clamping to the
    largest finite value: what cvt.rn.satfinite gives for non-NaN x."""
    vals = fp8_values(e, m, fn)
    top = max(vals.values())
    out = []
    for v in np.clip(np.asarray(x, np.float64), -top, top):
        best = min(vals.items(), key=lambda cv: (abs(cv[1] - v), cv[0] & 1, cv[0] >> 7 != (v < 0)))
        out.append(best[0])
    return np.array(out, np.uint8)


def check_fp8_saturation():
    """Conversions to fp8 saturate past the largest finite value, as the
    GPU's cvt.rn.satfinite does (and Triton's lowering): 448 for e4m3,
    57344 for e5m2, inf included; NaN stays NaN; in range, nearest even."""
    f = np.array([1000.0, -1e30, np.inf, -np.inf, np.nan, 448.0, 464.0, 57344.0, 61440.0, 1.0, -0.3, 0.0],
                 np.float32)
    k = np.array([1000, -2**31, 2**31 - 1, 500, -470, 448, 60000, 3, -7, 0, 1, 2], np.int32)
    n = len(f)
    outs = [triton.reinterpret(torch.full((n,), 0x55, dtype=torch.uint8), dt)
            for dt in (tl.float8e4nv, tl.float8e5, tl.float8e4nv, tl.float8e5)]
    to_fp8[(1,)](f, k, *outs, n, BLOCK=16)
    nan = np.isnan(f)
    for got, src, (e, m, fn), what in ((outs[0], f, (4, 3, True), "f32 -> e4m3"),
                                       (outs[1], f, (5, 2, False), "f32 -> e5m2"),
                                       (outs[2], k, (4, 3, True), "i32 -> e4m3"),
                                       (outs[3], k, (5, 2, False), "i32 -> e5m2")):
        g = got.base.numpy()
        isnan = nan if src is f else np.zeros(n, bool)
        want = fp8_encode(np.where(isnan, 0, src), e, m, fn)
        assert (g[~isnan] == want[~isnan]).all(), "%s: %s, want %s" % (what, g, want)
        code_nan = (g & 0x7F) == 0x7F if fn else ((g & 0x7C) == 0x7C) & ((g & 3) != 0)
        assert (code_nan[isnan]).all(), "%s: NaN not kept: %s" % (what, g[isnan])


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
