# RUN: %python %s
# REQUIRES: torch
"""tl.dot_scaled, emulated as Triton does on GPUs without block-scaled
tensor cores: e2m1 (two to a byte, low nibble first, packed along K or along
M/N), e4m3 and e5m2 (uint8 bits) and bf16/fp16 operands, e8m0 scales on each
32 elements along K (or none), an accumulator, against a decode in torch
and a float64 matmul."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def mx_kernel(A, AS, B, BS, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, KA: tl.constexpr,
              KB: tl.constexpr, NB: tl.constexpr, MA: tl.constexpr, AF: tl.constexpr, BF: tl.constexpr,
              SCALE_A: tl.constexpr, SCALE_B: tl.constexpr, ACC: tl.constexpr, RK: tl.constexpr, LK: tl.constexpr):
    ra = tl.arange(0, MA)
    a = tl.load(A + ra[:, None] * KA + tl.arange(0, KA)[None, :])
    rb = tl.arange(0, KB)
    b = tl.load(B + rb[:, None] * NB + tl.arange(0, NB)[None, :])
    sa = None
    sb = None
    if SCALE_A:
        sa = tl.load(AS + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    if SCALE_B:
        sb = tl.load(BS + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    om = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    acc = tl.load(C + om) if ACC else None
    c = tl.dot_scaled(a, sa, AF, b, sb, BF, acc=acc, lhs_k_pack=LK, rhs_k_pack=RK)
    tl.store(C + om, c)


E2M1 = torch.tensor([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6], dtype=torch.float64)


def decode(x, fmt, is_rhs, k_pack):
    if fmt in ("bf16", "fp16"):
        return x.double()
    if fmt in ("e4m3", "e5m2"):
        return fp8_decode(x, 3 if fmt == "e4m3" else 2)
    lo, hi = E2M1[(x & 15).long()], E2M1[(x >> 4).long()]
    rows = is_rhs == k_pack
    j = torch.stack([lo, hi], dim=-1)  # [R, C, 2]
    if not rows:
        return j.reshape(x.shape[0], 2 * x.shape[1])
    return j.permute(0, 2, 1).reshape(2 * x.shape[0], x.shape[1])


def fp8_decode(x, mbits):
    """OCP fp8 bits to float64: e4m3 (bias 7, no infinities, S.1111.111
    NaN) or e5m2 (bias 15, IEEE-like)."""
    ebits = 7 - mbits
    bias = (1 << (ebits - 1)) - 1
    v = x.long()
    sign = torch.where((v >> 7) & 1 == 1, -1.0, 1.0).double()
    e = (v >> mbits) & ((1 << ebits) - 1)
    m = (v & ((1 << mbits) - 1)).double()
    val = torch.where(e == 0, m / (1 << mbits) * 2.0 ** (1 - bias),
                      (1 + m / (1 << mbits)) * torch.pow(2.0, (e - bias).double()))
    if mbits == 3:
        val = torch.where((v & 0x7F) == 0x7F, torch.tensor(float("nan"), dtype=torch.float64), val)
    else:
        top = e == (1 << ebits) - 1
        val = torch.where(top & (m == 0), torch.tensor(float("inf"), dtype=torch.float64), val)
        val = torch.where(top & (m != 0), torch.tensor(float("nan"), dtype=torch.float64), val)
    return sign * val


def scale_of(s):
    return torch.pow(2.0, s.double() - 127)


g = torch.Generator().manual_seed(7)


def operand(fmt, shape):
    if fmt == "bf16":
        return torch.randn(shape, generator=g).to(torch.bfloat16)
    if fmt == "fp16":
        return torch.randn(shape, generator=g).to(torch.float16)
    if fmt == "e2m1":
        return torch.randint(0, 256, shape, generator=g, dtype=torch.int32).to(torch.uint8)
    # finite values of the format only: e4m3's 0x7F/0xFF are NaN, e5m2's top exponent inf/NaN
    bits = torch.randint(0, 256, shape, generator=g, dtype=torch.int32)
    if fmt == "e4m3":
        bits = torch.where((bits & 0x7F) == 0x7F, bits - 1, bits)
    else:
        bits = torch.where(((bits >> 2) & 31) == 31, bits - 4, bits)
    return bits.to(torch.uint8)


failures = []
M, N, K = 32, 32, 64
cases = [("e2m1", "e2m1", True, True, False, True, True), ("e4m3", "e5m2", True, True, True, True, True),
         ("bf16", "e2m1", False, True, False, True, True), ("e2m1", "e4m3", True, False, False, True, True),
         ("e2m1", "e2m1", True, True, False, False, False), ("fp16", "fp16", False, False, True, True, True)]
for af, bf, sa_on, sb_on, acc_on, lk, rk in cases:
    ma, ka = (M, K // 2) if af == "e2m1" and lk else (M // 2, K) if af == "e2m1" else (M, K)
    kb, nb = (K // 2, N) if bf == "e2m1" and rk else (K, N // 2) if bf == "e2m1" else (K, N)
    a, b = operand(af, (ma, ka)), operand(bf, (kb, nb))
    sa = torch.randint(120, 134, (M, K // 32), generator=g, dtype=torch.int32).to(torch.uint8)
    sb = torch.randint(120, 134, (N, K // 32), generator=g, dtype=torch.int32).to(torch.uint8)
    c0 = torch.randn(M, N, generator=g)
    c = c0.clone()
    mx_kernel[(1,)](a, sa, b, sb, c, M=M, N=N, K=K, KA=ka, KB=kb, NB=nb, MA=ma, AF=af, BF=bf,
                    SCALE_A=sa_on, SCALE_B=sb_on, ACC=acc_on, RK=rk, LK=lk)
    x = decode(a, af, False, lk)
    y = decode(b, bf, True, rk)
    if sa_on:
        x = x * scale_of(sa).repeat_interleave(32, dim=1)
    if sb_on:
        y = y * scale_of(sb).repeat_interleave(32, dim=1).T
    if af == "fp16" or bf == "fp16":
        x, y = x.half().double(), y.half().double()
    else:
        x, y = x.bfloat16().double(), y.bfloat16().double()
    ref = x @ y + (c0.double() if acc_on else 0)
    err = ((c.double() - ref).abs() / (ref.abs() + 1)).max().item()
    if err > 1e-4:
        failures.append("%s x %s (scales %s %s, acc %s, k_pack %s %s): error %g" % (af, bf, sa_on, sb_on, acc_on,
                                                                                    lk, rk, err))
for f in failures:
    print("FAIL", f)
print("ok" if not failures else "%d failures" % len(failures))
sys.exit(1 if failures else 0)
