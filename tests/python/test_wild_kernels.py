# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/wild_kernels.py on the CPU, each checked
against torch or numpy: a last-block reduction through an atomic ticket,
masked atomics, uint32 arithmetic, block pointers (column-major, NaN
padding, negative advance), constexpr tuple tiles, scalar pointers, a
grid-stride tl.gather, tuple scans and reductions, RNG streams, fp8/bf16
casts, a softcapped cross entropy, integer corners, tuples carried
through loops."""
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("wild_kernels")

g = torch.Generator().manual_seed(0)


def check_last_block_sum():
    n = 1000; B = 128; nb = triton.cdiv(n, B)
    x = torch.randn(n, generator=g)
    part = torch.zeros(16); cnt = torch.zeros(1, dtype=torch.int32); out = torch.zeros(1)
    K.last_block_sum[(nb,)](x, part, cnt, out, n, BLOCK=B, NUM_BLOCKS=16)
    assert abs(out.item() - x.sum().item()) < 1e-3, (out, x.sum())
    assert cnt.item() == 0


def check_masked_atomics():
    n = 500
    x = torch.randn(n, generator=g); x[::7] = 0
    idx = torch.randint(0, 8, (n,), generator=g, dtype=torch.int32)
    fmax = torch.full((8,), -float('inf')); fmin = torch.full((8,), float('inf'))
    bits = torch.zeros(24, dtype=torch.int32); bits[16:] = -1
    K.masked_atomics[(triton.cdiv(n, 64),)](x, idx, fmax, fmin, bits, n, BLOCK=64)
    for j in range(8):
        s = idx == j
        assert fmax[j] == x[s].max(), j
        nz = s & (x != 0)
        assert fmin[j] == x[nz].min(), j
        o = 0; xr = 0; a = -1
        for k in torch.nonzero(s).flatten().tolist():
            o |= 1 << (k % 32)
            xr ^= int((x[k] * 1000.0).to(torch.int32)) & 0xffffffff
            a &= ~(1 << (k % 31))
        assert bits[j].item() & 0xffffffff == o, (j, hex(bits[j].item()), hex(o))
        assert bits[8+j].item() & 0xffffffff == xr, (j,)
        assert bits[16+j].item() & 0xffffffff == a & 0xffffffff, (j,)


def check_unsigned_math():
    n = 300
    a = torch.randint(0, 2**32, (n,), generator=g, dtype=torch.int64); b = torch.randint(0, 2**32, (n,), generator=g, dtype=torch.int64) >> torch.randint(0, 31, (n,), generator=g)
    b[::9] = 0; a[::11] = 2**32-1
    A = a.cpu().numpy().astype(np.uint32); B = b.cpu().numpy().astype(np.uint32)
    out = np.zeros(n*10, np.uint32)
    K.unsigned_math[(triton.cdiv(n, 64),)](A, B, out, n, BLOCK=64)
    o = out.reshape(n, 10).astype(np.uint64)
    an = a.cpu().numpy().astype(np.uint64); bn = b.cpu().numpy().astype(np.uint64); bn = np.where(bn == 0, 1, bn)
    M = 2**32
    want = [an // bn, an % bn, an >> 7, (an < bn).astype(np.uint64),
            (an.astype(np.float32) * np.float32(0.5)).astype(np.uint64),
            (an * bn) >> 32, np.maximum(an, bn), ((an & 0xff) + 200) % 256,
            ((an << 5) | (an >> 27)) % M, (an * bn) >> 32]
    for k, w in enumerate(want):
        bad = np.nonzero(o[:, k] != w)[0]
        assert bad.size == 0, (k, bad[:4], o[bad[:4], k], w[bad[:4]])


def check_block_ptr_colmajor():
    M, N = 37, 45
    a = torch.randn(N, M, generator=g).t()  # column-major view
    o = torch.full((M, N), 7.0)
    K.block_ptr_colmajor[(triton.cdiv(M, 16),)](a, o, M, N, a.stride(0), a.stride(1), BM=16, BN=16)
    assert torch.equal(o, a * 2.0), (o - a*2).abs().max()


def check_block_ptr_rowsum_reverse():
    M, N = 32, 45
    x = torch.randn(M, N, generator=g)
    o = torch.zeros(M)
    K.block_ptr_rowsum_reverse[(M // 8,)](x, o, M, N, BM=8, BN=16)
    nb = triton.cdiv(N, 16)
    xp = torch.nn.functional.pad(x, (0, nb*16 - N))
    acc = torch.zeros(M)
    for j in reversed(range(nb)):
        acc = acc * 0.5 + xp[:, j*16:(j+1)*16].sum(1)
    assert torch.allclose(o, acc, atol=1e-5), (o, acc)


def check_constexpr_tuple_tile():
    for act in ("clip", "zero", "none"):
        x = torch.randn(3*16, 32, generator=g)
        y = torch.zeros(16, 32)
        K.constexpr_tuple_tile[(1,)](x, y, 32, SHAPE=(16, 32), ACT=act)
        ref = x[0:16] + 2*x[16:32] + 3*x[32:48]
        if act == "clip": ref = ref.clamp(-1.0, 4.0)
        if act == "zero": ref = torch.zeros_like(ref)
        ref = torch.where(ref > 100, torch.tensor(-1e30), ref)
        assert torch.allclose(y, ref, atol=1e-5), act


def check_scalar_ptr_ops():
    n = 5
    flags = torch.tensor([0, 1, 2, 3, -1, 4], dtype=torch.int32)
    vals = torch.tensor([1.5, -2.0, 3.0, 4.0, 10.0])
    scale = torch.tensor([0.25])
    out = torch.zeros(12)
    K.scalar_ptr_ops[(6,)](flags, vals, out, scale, n)
    for p in range(6):
        f = flags[p].item(); v = vals[p].item() if p < n else -7.0
        r = v + 0.25 if f > 0 else v - 0.25
        if f == 2: r *= 2
        tot = 0.0; i = 0
        while i < f and tot < 100: tot += v * i; i += 1
        assert abs(out[2*p].item() - r) < 1e-6 and abs(out[2*p+1].item() - tot) < 1e-5, (p, out[2*p:2*p+2], r, tot)


def check_grid_stride_gather():
    R, C = 37, 16
    src = torch.randn(R, C, generator=g)
    idx = torch.randint(0, C, (R, C//2), generator=g, dtype=torch.int32)
    out = torch.zeros(R, C//2)
    K.grid_stride_gather[(3,)](src, idx, out, R, C, ROWS=4, COLS=C)
    assert torch.equal(out, torch.gather(src, 1, idx.long()))


def check_tuple_scan_reduce():
    R, N = 3, 50
    x = torch.randn(R, N, generator=g)
    c = torch.zeros(R, N, dtype=torch.int32); s = torch.zeros(R, N); mm = torch.zeros(R, N); r = torch.zeros(R, 3)
    K.tuple_scan_reduce[(R,)](x, c, s, mm, r, N, BLOCK=64)
    assert torch.equal(c, torch.arange(N, 0, -1, dtype=torch.int32).expand(R, N))
    assert torch.allclose(s, x.flip(1).cumsum(1).flip(1), atol=1e-5)
    assert torch.equal(mm, x.flip(1).cummax(1).values.flip(1))
    assert torch.allclose(r[:, 0], torch.full((R,), float(N))) and torch.allclose(r[:, 1], x.sum(1), atol=1e-5) and torch.equal(r[:, 2], x.max(1).values), r


def check_rng_streams():
    n = 1000
    ou = torch.zeros(2*n); on = torch.zeros(2*n); oi = torch.zeros(4*n, dtype=torch.int32)
    K.rng_streams[(triton.cdiv(n, 128),)](1234, ou, on, oi, n, BLOCK=128, N_ROUNDS=7)
    assert 0 <= ou.min() and ou.max() < 1 and abs(ou.mean() - 0.5) < 0.03
    assert abs(on.mean()) < 0.08 and abs(on.std() - 1) < 0.08
    assert oi.unique().numel() > 3990
    # same stream as the default rounds?
    ou2 = torch.zeros(2*n); on2 = torch.zeros(2*n); oi2 = torch.zeros(4*n, dtype=torch.int32)
    K.rng_streams[(triton.cdiv(n, 256),)](1234, ou2, on2, oi2, n, BLOCK=256, N_ROUNDS=7)
    assert torch.equal(ou, ou2) and torch.equal(oi, oi2) and torch.equal(on, on2)
def fp8_decode(b, E, M, bias):
    b = b.long()
    s = torch.where(b >> 7 == 1, -1.0, 1.0).double()
    e = (b >> M) & ((1 << E) - 1); m = b & ((1 << M) - 1)
    v = torch.where(e == 0, m.double() * 2.0 ** (1 - bias - M), (1 + m.double() / 2**M) * torch.pow(2.0, (e - bias).double()))
    return (s * v).float()
def fp8_round(x, M, emin):
    # round to nearest even with M mantissa bits, subnormals below 2**emin (values in range)
    x = x.double()
    e = torch.floor(torch.log2(x.abs().clamp(min=1e-30))).clamp(min=emin)
    q = 2.0 ** (e - M)
    r = torch.round(x / q) * q  # torch.round: half to even
    return r.float()


M64 = (1 << 64) - 1


def philox64(c, k, rounds=10):
    c = list(c); k = list(k)
    for _ in range(rounds):
        p0 = 0xD2E7470EE14C6C93 * c[0]; p1 = 0xCA5A826395121157 * c[2]
        c = [(p1 >> 64) ^ c[1] ^ k[0], p1 & M64, (p0 >> 64) ^ c[3] ^ k[1], p0 & M64]
        k = [(k[0] + 0x9E3779B97F4A7C15) & M64, (k[1] + 0xBB67AE8584CAA73B) & M64]
    return c


def check_rng_streams_64():
    """Philox 4x64-10 (Random123's constants) for int64 offsets, as random.py."""
    n = 100
    o = np.zeros(4*n, np.uint64); u = np.zeros(n, np.float32)
    seed = 12345
    K.rng_streams_64[(triton.cdiv(n, 64),)](seed, o, u, n, BLOCK=64)
    for i in range(n):
        want = philox64([i + 5000000000, 0, 0, 0], [seed, 0])
        got = [int(v) for v in o[4*i:4*i+4]]
        assert got == want, (i, [hex(g) for g in got], [hex(w) for w in want])
        x = want[0] - (1 << 64) if want[0] >= (1 << 63) else want[0]
        x = -x - 1 if x < 0 else x
        uf = np.float32(np.float32(x) * np.float32(1.0842020432385337e-19))
        assert u[i] == uf, (i, u[i], uf)


def check_fp8_bf16_casts():
    n = 300
    x = torch.randn(n, generator=g) * 4
    e4 = torch.zeros(n, dtype=torch.uint8); e5 = torch.zeros(n, dtype=torch.uint8); bf = torch.zeros(n, dtype=torch.bfloat16); back = torch.zeros(n)
    K.fp8_bf16_casts[(triton.cdiv(n, 128),)](x, triton.reinterpret(e4, tl.float8e4nv), triton.reinterpret(e5, tl.float8e5), bf, back, n, BLOCK=128)
    e4 = fp8_decode(e4, 4, 3, 7); e5 = fp8_decode(e5, 5, 2, 15)
    assert torch.equal(e4, fp8_round(x, 3, -6)), (e4[:8], x[:8])
    assert torch.equal(e5, fp8_round(x, 2, -14))
    # rtz: truncate mantissa
    want_bf = (x.view(torch.int32) & ~0xffff).view(torch.float32)
    assert torch.equal(bf.float(), want_bf)
    assert torch.equal(back, e4.float() + e5.float() + bf.float())


def check_ce_loss_softcap():
    for cap in (0.0, 30.0):
        R, V = 7, 300
        lg = (torch.randn(R, V, generator=g) * 20).half()
        lab = torch.randint(0, V, (R,), generator=g); lab[3] = -100
        loss = torch.full((R,), 5.0); lse = torch.zeros(R)
        K.ce_loss_softcap[(R,)](lg, V, lab, loss, lse, V, cap, IGNORE_INDEX=-100, BLOCK=128)
        z = lg.float()
        if cap > 0: z = cap * torch.tanh(z / cap)
        ref = torch.nn.functional.cross_entropy(z, lab, reduction='none', ignore_index=-100)
        assert torch.allclose(loss, ref, atol=1e-4), (cap, loss, ref)


def check_int_edge_cases():
    n = 400
    a = torch.randint(-2**31, 2**31, (n,), generator=g, dtype=torch.int64).int()
    a[:8] = torch.tensor([0, -1, 1, -7, 7, -128, 2**31-1, -2**31], dtype=torch.int32)
    out = torch.zeros(n, 8, dtype=torch.int64)
    K.int_edge_cases[(triton.cdiv(n, 128),)](a, out, n, DIV=-7, BLOCK=128)
    A = a.long()
    def cdiv_t(x, y): return torch.div(x, y, rounding_mode='trunc')
    want = [cdiv_t(A, -7), A - cdiv_t(A, -7) * -7, A * 3000000000, ((A * 65537 + 2**31) % 2**32) - 2**31,
            a.to(torch.int8).abs().long(),  # abs(-128) wraps to -128 in int8
            (a.to(torch.int16) >> 3).long(), cdiv_t(A + 6, 7),
            cdiv_t(-A, -7)]
    for k, w in enumerate(want):
        bad = torch.nonzero(out[:, k] != w).flatten()
        assert bad.numel() == 0, (k, bad[:4], out[bad[:4], k], w[bad[:4]], A[bad[:4]])


def check_tuple_loops():
    for n, lo in ((5, 0), (2, 0), (6, 2), (3, 3)):
        x = torch.randn(n, 32, generator=g); o = torch.zeros(64)
        K.tuple_state_loops[(1,)](x, o, n, lo, BLOCK=32)
        xs = x[lo:n]
        if xs.shape[0]:
            mn, mx = xs.min(0).values + 1 + 1 + 1, xs.max(0).values * 8
        else:
            mn, mx = torch.full((32,), float('inf')), torch.full((32,), -float('inf'))
        a, b = (mn, mx) if n > 2 else (mx, mn)
        a = a * 0.5 * 0.5; b = b + float(n - lo) + 2.0
        assert torch.equal(o[:32], a) and torch.equal(o[32:], b), (n, lo, o, a, b)



def check_tensor_methods():
    R, B = 4, 16
    x = torch.randn(R, B, generator=g)
    o = torch.zeros(2*R + B + 2*R*B + R*B)
    K.tensor_methods[(1,)](x, o, BLOCK=B, R=R)
    a = x.sum(1)
    assert torch.allclose(o[:R], a, atol=1e-5)
    assert torch.equal(o[R:R+B], x.max(0).values)
    assert torch.allclose(o[R+B:R+B+R*B], x.cumsum(1).flatten(), atol=1e-5)
    d = x.exp().sqrt().abs() + x.flip(0) + x.half().float() + (a.sum()*2 + 1)
    assert torch.allclose(o[R+B+R*B:R+B+2*R*B], d.flatten(), atol=1e-4)
    assert torch.equal(o[R+B+2*R*B:2*R+B+2*R*B], x.argmax(1).float())
    assert torch.equal(o[2*R+B+2*R*B:], x.flatten().sort(descending=True).values)

def check_hints_and_nan_ops():
    for n, kw, to in ((50, dict(BIAS=1.5), torch.half), (100, dict(DT=tl.bfloat16, BLOCK=128), torch.bfloat16)):
        B = kw.get("BLOCK", 64)
        x = torch.randn(n, generator=g)
        x[3] = float('nan')
        b = torch.rand(n, generator=g) > 0.5
        o = torch.full((2 * B + 1,), 9.0)
        K.hints_and_nan_ops[(1,)](x, b, o, n, **kw)
        y = torch.where(b, x, -x) + kw.get("BIAS", 0.0)
        # maximum(y, nan) with PropagateNan.ALL is NaN everywhere
        assert o[:n].isnan().all() and torch.equal(o[n:B], torch.full((B - n,), 9.0)), o[:B]
        v = y.to(to).float()
        assert torch.allclose(o[B:B + n], y / 3.0 + v, equal_nan=True, atol=1e-6)
        xs = 0
        for i in range(B):
            xs ^= i
        s = b.sum() + (y > 0).sum()
        assert o[2 * B].item() == float(s + xs), (o[2 * B], s, xs)


def check_shape_combinators():
    B = 8
    x = torch.randn(2*B, generator=g)
    o = torch.zeros(B*B + 1)
    K.shape_combinators[(1,)](x, o, B=B)
    xx, yy = x[:B], x[B:]
    s = xx[None, :] + yy[:, None]
    il = torch.stack((s, s*2), -1).reshape(B, 2*B)
    lr = il.reshape(B, B, 2)
    assert torch.allclose(o[:B*B], (lr[..., 0] + lr[..., 1]).flatten())
    t = x.sum()
    ref = t + 3 + s.max() + s.flatten().argmax() + s.sum()
    assert abs(o[B*B].item() - ref.item()) < 1e-4, (o[B*B], ref)

for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
