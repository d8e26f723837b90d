# RUN: %python %s
# REQUIRES: torch
"""Triton's whole random API (triton/language/random.py): philox,
philox_impl, randint, randint4x, rand, rand4x, randn, randn4x,
uint_to_uniform_float and pair_uniform_to_normal, each checked against a
Philox 4x32-10 written here in Python integers (bit for bit for the
integers; to float rounding for the floats)."""
import math
import sys

import torch

import tritonc as triton
import tritonc.language as tl

M32 = 0xFFFFFFFF


def philox_ref(seed, c, rounds=10):
    """Philox 4x32 on 32-bit counters c (four lists), keyed by the seed's halves."""
    k0, k1 = seed & M32, (seed >> 32) & M32
    c = [list(x) for x in c]
    for _ in range(rounds):
        out = [[], [], [], []]
        for a, b, cc, d in zip(*c):
            p0, p2 = 0xD2511F53 * a, 0xCD9E8D57 * cc
            out[0].append(((p2 >> 32) ^ b ^ k0) & M32)
            out[1].append(p2 & M32)
            out[2].append(((p0 >> 32) ^ d ^ k1) & M32)
            out[3].append(p0 & M32)
        c = out
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c


def to_i32(u):
    return u - (1 << 32) if u >= 1 << 31 else u


def uniform_ref(u):
    x = to_i32(u)
    x = -x - 1 if x < 0 else x
    return x * 4.6566127342e-10


def normal_ref(u1, u2):
    u1 = max(1.0e-7, u1)
    r = math.sqrt(-2.0 * math.log(u1))
    th = 6.283185307179586 * u2
    return r * math.cos(th), r * math.sin(th)


@triton.jit
def ints(out, seed, N: tl.constexpr, ROUNDS: tl.constexpr):
    o = tl.arange(0, N)
    a, b, c, d = tl.randint4x(seed, o, ROUNDS)
    p0, p1, p2, p3 = tl.philox(seed, o, o * 3, o + 7, o ^ 5, n_rounds=ROUNDS)
    q0, q1, q2, q3 = tl.philox_impl(o.to(tl.uint32), o.to(tl.uint32), o.to(tl.uint32), o.to(tl.uint32),
                                    (seed & 0xffffffff).to(tl.uint32), (seed >> 32).to(tl.uint32), ROUNDS)
    r = tl.randint(seed, o, ROUNDS)
    for i, v in enumerate((a, b, c, d, p0, p1, p2, p3, q0, q1, q2, q3, r)):
        tl.store(out + i * N + o, v.to(tl.int32, bitcast=True))


@triton.jit
def floats(out, seed, N: tl.constexpr):
    o = tl.arange(0, N)
    u0, u1, u2, u3 = tl.rand4x(seed, o)
    n0, n1, n2, n3 = tl.randn4x(seed, o)
    m0, m1 = tl.pair_uniform_to_normal(u0, u1)
    f = tl.uint_to_uniform_float(tl.randint(seed, o))
    for i, v in enumerate((u0, u1, u2, u3, n0, n1, n2, n3, m0, m1, f, tl.rand(seed, o), tl.randn(seed, o))):
        tl.store(out + i * N + o, v)


def main():
    fails = 0
    n, seed = 64, 0x1234_5678_9ABC
    for rounds in (10, 7):
        out = torch.empty(13, n, dtype=torch.int32)
        ints[(1,)](out, seed, n, rounds)
        got = [[v & M32 for v in row] for row in out.tolist()]
        o = list(range(n))
        want = philox_ref(seed, [o, [0] * n, [0] * n, [0] * n], rounds)
        want += philox_ref(seed, [o, [3 * i for i in o], [i + 7 for i in o], [i ^ 5 for i in o]], rounds)
        want += philox_ref(seed, [o, o, o, o], rounds)
        want += [want[0]]
        names = "randint4x[0-3] philox[0-3] philox_impl[0-3] randint".split()
        ok = got == want
        print("integers, %d rounds: %s" % (rounds, "ok" if ok else "FAIL"))
        if not ok:
            for i, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    print("  row %d differs (%s): %s vs %s" % (i, names[min(i // 4, 3)], g[:4], w[:4]))
        fails += not ok
    out = torch.empty(13, n)
    floats[(1,)](out, seed, n)
    r = philox_ref(seed, [list(range(n)), [0] * n, [0] * n, [0] * n])
    u = [[uniform_ref(v) for v in row] for row in r]
    nrm = [list(zip(*[normal_ref(a, b) for a, b in zip(u[0], u[1])])),
           list(zip(*[normal_ref(a, b) for a, b in zip(u[2], u[3])]))]
    want = u + [list(nrm[0][0]), list(nrm[0][1]), list(nrm[1][0]), list(nrm[1][1])]
    want += [list(nrm[0][0]), list(nrm[0][1]), u[0], u[0], list(nrm[0][0])]
    got = torch.tensor(want, dtype=torch.float32)
    ok = torch.allclose(out, got, rtol=1e-5, atol=1e-5)
    print("floats: %s" % ("ok" if ok else "FAIL, max diff %g" % (out - got).abs().max()))
    fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
