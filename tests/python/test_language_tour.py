# RUN: %python %s
# REQUIRES: torch
"""A tour of the Triton language as kernels in the wild use it, each kernel
checked against torch: bit ops and shifts, broadcasting, reductions (keep_dims,
tl.reduce with a @jit combine, tuple reductions, argmax), casts and bitcasts,
join/interleave/split, permute/reshape/view, sort, flip, histogram, gather,
scans (cumprod, reverse cumsum, tuple associative_scan), tl.range options,
while and static_range loops, early return, @jit helpers with tuple returns
and keyword arguments, block pointers, a math zoo, atomics with sem/scope,
rand, dots (batched 3-D, ieee, fp16 with out_dtype), fp8 round trips,
swizzle2d, unsigned ops, static/device asserts and prints, pointers loaded
from memory, cache modifiers, string/dtype/None constexprs, heuristics,
autotune, tensor methods, libdevice, and the constructs Triton rejects
(recursion, chained comparisons, break), which must fail with Triton's
message at the right line. Runs on the CPU in CI; with tensors on CUDA by
default (bench/gpu/python_tests_on_cuda.sh) it checks the PTX backend."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice

DEVICE = torch.empty(0).device.type
results = []


def case(name, error=None):
    """Runs the decorated check now. `error`: the CompilationError text the
    case must raise instead (a construct Triton rejects too)."""
    def deco(f):
        try:
            f()
            status = "ok" if error is None else "FAIL (compiled; expected error %r)" % error
        except Exception as e:  # noqa: BLE001 - every failure is reported
            text = str(e)
            if error is not None and error in text and type(e).__name__ == "CompilationError":
                status = "ok (error: %s)" % error
            else:
                lines = text.strip().splitlines() or [""]
                status = "FAIL %s: %s" % (type(e).__name__, lines[0][:300])
        results.append((name, status))
        return f
    return deco

@triton.jit
def k_shift(X, Y, Z, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(X + o, mask=m)
    y = tl.load(Y + o, mask=m)
    tl.store(Z + o, (x << (y & 7)) ^ (x >> 3) | (x & y), mask=m)

@case("shift int32")
def _():
    x = torch.randint(-1000, 1000, (100,), dtype=torch.int32); y = torch.randint(0, 100, (100,), dtype=torch.int32)
    z = torch.empty_like(x)
    k_shift[(2,)](x, y, z, 100, BLOCK=64)
    ref = (x << (y & 7)) ^ (x >> 3) | (x & y)
    assert torch.equal(z, ref), (z, ref)

@triton.jit
def k_bcast(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(X + rm)          # (M,1)
    y = tl.load(Y + rn)          # (1,N)
    z = x * y + tl.where(rm > rn, x, -y)
    tl.store(Z + rm * N + rn, z)

@case("broadcast 2d where")
def _():
    x = torch.randn(16); y = torch.randn(32); z = torch.empty(16, 32)
    k_bcast[(1,)](x, y, z, 16, 32)
    rm = torch.arange(16)[:, None]; rn = torch.arange(32)[None, :]
    ref = x[:, None] * y[None, :] + torch.where(rm > rn, x[:, None], -y[None, :])
    assert torch.allclose(z, ref)

@triton.jit
def k_reduce(X, S, MX, AM, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(X + rm * N + rn)
    tl.store(S + tl.arange(0, M), tl.sum(x, axis=1))
    tl.store(MX + tl.arange(0, N), tl.max(x, axis=0))
    tl.store(AM + tl.arange(0, M), tl.argmax(x, axis=1))

@case("reduce sum/max/argmax")
def _():
    x = torch.randn(8, 16); s = torch.empty(8); mx = torch.empty(16); am = torch.empty(8, dtype=torch.int32)
    k_reduce[(1,)](x, s, mx, am, 8, 16)
    assert torch.allclose(s, x.sum(1), atol=1e-5); assert torch.equal(mx, x.max(0).values); assert torch.equal(am.long(), x.argmax(1))

@triton.jit
def k_keep(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)[None, :] + tl.arange(0, 4)[:, None] * N)
    m = tl.max(x, axis=1, keep_dims=True)
    y = x - m
    s = tl.reduce(y, 1, _combine_add, keep_dims=True)
    tl.store(Y + tl.arange(0, N)[None, :] + tl.arange(0, 4)[:, None] * N, y / s)

@triton.jit
def _combine_add(a, b):
    return a + b

@case("keep_dims + tl.reduce with jit combine")
def _():
    x = torch.randn(4, 32); y = torch.empty_like(x)
    k_keep[(1,)](x, y, 32)
    r = x - x.max(1, keepdim=True).values
    assert torch.allclose(y, r / r.sum(1, keepdim=True), atol=1e-4)

@triton.jit
def k_cast(X, Y, Z, W, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    tl.store(Y + o, x.to(tl.float16))
    tl.store(Z + o, x.to(tl.int32))
    tl.store(W + o, x.to(tl.int32, bitcast=True))

@case("casts fp16/int/bitcast")
def _():
    x = torch.randn(64) * 100; y = torch.empty(64, dtype=torch.float16); z = torch.empty(64, dtype=torch.int32); w = torch.empty(64, dtype=torch.int32)
    k_cast[(1,)](x, y, z, w, 64)
    assert torch.equal(y, x.half()); assert torch.equal(z, x.to(torch.int32)); assert torch.equal(w, x.view(torch.int32))

@triton.jit
def k_join(X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o); y = tl.load(Y + o)
    j = tl.join(x, y)               # (N, 2)
    i = tl.interleave(x, y)         # (2N,)
    tl.store(Z + tl.arange(0, 2 * N), i)
    a, b = tl.split(j)
    tl.store(X + o, a + b)

@case("join/interleave/split")
def _():
    x = torch.randn(16); y = torch.randn(16); z = torch.empty(32); x0 = x.clone()
    k_join[(1,)](x, y, z, 16)
    assert torch.equal(z, torch.stack([x0, y], 1).reshape(-1)); assert torch.allclose(x, x0 + y)

@triton.jit
def k_perm(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    x = tl.load(X + tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :])
    y = tl.permute(x, (2, 0, 1))
    y = tl.reshape(y, (C, A * B))
    tl.store(Y + tl.arange(0, C)[:, None] * A * B + tl.arange(0, A * B)[None, :], y)

@case("3d permute + reshape")
def _():
    x = torch.randn(2, 4, 8); y = torch.empty(8, 8)
    k_perm[(1,)](x, y, 2, 4, 8)
    assert torch.equal(y, x.permute(2, 0, 1).reshape(8, 8))

@triton.jit
def k_sort(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.sort(x))
    tl.store(Z + tl.arange(0, N), tl.sort(x, descending=True))

@case("tl.sort")
def _():
    x = torch.randn(128); y = torch.empty_like(x); z = torch.empty_like(x)
    k_sort[(1,)](x, y, z, 128)
    assert torch.equal(y, x.sort().values) and torch.equal(z, x.sort(descending=True).values)

@triton.jit
def k_flip(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.flip(x, 0))

@case("tl.flip")
def _():
    x = torch.randn(64); y = torch.empty_like(x)
    k_flip[(1,)](x, y, 64)
    assert torch.equal(y, x.flip(0))

@triton.jit
def k_hist(X, Y, N: tl.constexpr, B: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, B), tl.histogram(x, B))

@case("tl.histogram")
def _():
    x = torch.randint(0, 16, (256,), dtype=torch.int32); y = torch.empty(16, dtype=torch.int32)
    k_hist[(1,)](x, y, 256, 16)
    assert torch.equal(y, torch.bincount(x, minlength=16).int())

@triton.jit
def k_gather(X, I, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    i = tl.load(I + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.gather(x, i, 0))

@case("tl.gather")
def _():
    x = torch.randn(32); i = torch.randint(0, 32, (32,), dtype=torch.int32); y = torch.empty(32)
    k_gather[(1,)](x, i, y, 32)
    assert torch.equal(y, x[i.long()])

@triton.jit
def k_cumprod(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.cumprod(x, 0))
    tl.store(Z + tl.arange(0, N), tl.cumsum(x, 0, reverse=True))

@case("cumprod / reverse cumsum")
def _():
    x = torch.rand(16) + 0.5; y = torch.empty_like(x); z = torch.empty_like(x)
    k_cumprod[(1,)](x, y, z, 16)
    assert torch.allclose(y, x.cumprod(0), rtol=1e-4); assert torch.allclose(z, x.flip(0).cumsum(0).flip(0), rtol=1e-5)

@triton.jit
def k_loop(X, Y, N, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(0, N, BLOCK, num_stages=2, loop_unroll_factor=2):
        o = i + tl.arange(0, BLOCK)
        acc += tl.load(X + o, mask=o < N, other=0.0)
    i = 0
    while i < 3:
        acc = acc * 1.0
        i += 1
    for j in tl.static_range(2):
        acc += j
    tl.store(Y + tl.arange(0, BLOCK), acc)

@case("tl.range options, while, static_range")
def _():
    x = torch.randn(1000); y = torch.empty(128)
    k_loop[(1,)](x, y, 1000, BLOCK=128)
    xp = torch.cat([x, torch.zeros(24)]).reshape(-1, 128).sum(0) + 1
    assert torch.allclose(y, xp, atol=1e-4)

@triton.jit
def k_early(X, Y, N, FLAG: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= N:
        return
    x = tl.load(X + pid)
    if FLAG:
        x = x * 2
    else:
        x = x * 3
    if x > 0:
        tl.store(Y + pid, x)
    else:
        tl.store(Y + pid, -x)

@case("early return + scalar if")
def _():
    x = torch.randn(10); y = torch.zeros(12)
    k_early[(12,)](x, y, 10, FLAG=True)
    assert torch.allclose(y[:10], (x * 2).abs()) and (y[10:] == 0).all()

@triton.jit
def k_asm(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", [x, x, x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + tl.arange(0, N), y)

@case("inline_asm_elementwise", error=None if DEVICE == "cuda" else "holds PTX, which runs on NVIDIA GPUs only")
def _():
    x = torch.randint(0, 100, (32,), dtype=torch.int32); y = torch.empty_like(x)
    k_asm[(1,)](x, y, 32)
    u = x.long() & 0xffffffff
    r = ((u << (u & 31)) | (u >> (32 - (u & 31)))) & 0xffffffff
    r = torch.where(r >= 2**31, r - 2**32, r).int()
    assert torch.equal(y, r), (y, r)

@triton.jit
def _helper_tuple(a, b, scale: tl.constexpr = 2):
    return a * scale, b + scale

@triton.jit
def k_tuple_ret(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    p, q = _helper_tuple(x, x)
    r, s = _helper_tuple(x, x, scale=3)
    tl.store(Y + tl.arange(0, N), p + q + r + s)

@case("jit helper tuple return, default & kw args")
def _():
    x = torch.randn(16); y = torch.empty_like(x)
    k_tuple_ret[(1,)](x, y, 16)
    assert torch.allclose(y, 2 * x + x + 2 + 3 * x + x + 3)

@triton.jit
def k_blockptr(A, B, M, N, sm, sn, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(A, shape=(M, N), strides=(sm, sn), offsets=(0, 0), block_shape=(BM, BN), order=(1, 0))
    q = tl.make_block_ptr(B, shape=(M, N), strides=(sm, sn), offsets=(0, 0), block_shape=(BM, BN), order=(1, 0))
    for _ in range(0, tl.cdiv(N, BN)):
        x = tl.load(p, boundary_check=(0, 1), padding_option="zero")
        tl.store(q, x + 1, boundary_check=(0, 1))
        p = tl.advance(p, (0, BN))
        q = tl.advance(q, (0, BN))

@case("block ptr advance loop with boundary")
def _():
    a = torch.randn(10, 50); b = torch.zeros(10, 50)
    k_blockptr[(1,)](a, b, 10, 50, 50, 1, 16, 16)
    assert torch.allclose(b, a + 1)

@triton.jit
def k_math(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.exp(x) + tl.log(tl.abs(x) + 1) + tl.sqrt(tl.abs(x)) + tl.sin(x) * tl.cos(x) + tl.sigmoid(x) + tl.math.erf(x) + tl.math.tanh(x) if False else tl.exp(x) + tl.log(tl.abs(x) + 1) + tl.sqrt(tl.abs(x)) + tl.sin(x) * tl.cos(x) + tl.sigmoid(x) + tl.erf(x)
    y = tl.clamp(y, -5.0, 5.0) + tl.fma(x, x, x) + tl.maximum(x, 0.0) + tl.minimum(x, 0.5) + tl.rsqrt(tl.abs(x) + 1) + tl.floor(x) + tl.ceil(x) + tl.exp2(x) + tl.log2(tl.abs(x) + 1) + tl.div_rn(x, 3.0) + tl.fdiv(x, 7.0)
    tl.store(Y + tl.arange(0, N), y + tl.softmax(x, 0) + x % 2)

@case("math zoo")
def _():
    x = torch.randn(64); y = torch.empty_like(x)
    k_math[(1,)](x, y, 64)
    r = torch.exp(x) + torch.log(x.abs() + 1) + x.abs().sqrt() + x.sin() * x.cos() + torch.sigmoid(x) + torch.erf(x)
    r = r.clamp(-5, 5) + (x * x + x) + x.clamp(min=0) + x.clamp(max=0.5) + torch.rsqrt(x.abs() + 1) + x.floor() + x.ceil() + torch.exp2(x) + torch.log2(x.abs() + 1) + x / 3 + x / 7
    r = r + torch.softmax(x, 0) + torch.fmod(x, 2)
    assert torch.allclose(y, r, atol=1e-4), (y - r).abs().max()

@triton.jit
def k_atomic(X, C, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(X + o, mask=m, other=0)
    tl.atomic_add(C, tl.sum(x, 0))
    tl.atomic_max(C + 1, tl.max(x, 0), sem="relaxed", scope="gpu")
    old = tl.atomic_cas(C + 2, 0, 1)
    tl.atomic_xchg(C + 3, old)

@case("atomics scalar with sem/scope")
def _():
    x = torch.randint(0, 10, (1000,), dtype=torch.int32); c = torch.zeros(4, dtype=torch.int32)
    k_atomic[(8,)](x, c, 1000, BLOCK=128)
    assert c[0] == x.sum() and c[1] == x.max() and c[2] == 1

@triton.jit
def k_rand(Y, Z, seed, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(Y + o, tl.rand(seed, o))
    tl.store(Z + o, tl.randint(seed, o))

@case("rand/randint")
def _():
    y = torch.empty(256); z = torch.empty(256, dtype=torch.int32)
    k_rand[(1,)](y, z, 42, 256)
    assert (y >= 0).all() and (y < 1).all() and abs(y.mean().item() - 0.5) < 0.1 and len(set(z.tolist())) > 250

@triton.jit
def k_dot(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(A + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(B + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    acc = tl.zeros((M, N), dtype=tl.float32)
    acc = tl.dot(a, b, acc, input_precision="ieee")
    c = tl.dot(a.to(tl.float16), b.to(tl.float16), out_dtype=tl.float32)
    tl.store(C + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], acc + c)

@case("dot ieee + fp16 out_dtype")
def _():
    a = torch.randn(16, 32); b = torch.randn(32, 16); c = torch.empty(16, 16)
    k_dot[(1,)](a, b, c, 16, 16, 32)
    assert torch.allclose(c, a @ b + (a.half().float() @ b.half().float()), atol=1e-2)

@triton.jit
def k_fp8(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = x.to(tl.float8e4nv).to(tl.float32) + x.to(tl.float8e5).to(tl.float32)
    tl.store(Y + tl.arange(0, N), y)

@case("fp8 round trip")
def _():
    x = torch.randn(32); y = torch.empty_like(x)
    k_fp8[(1,)](x, y, 32)
    assert torch.allclose(y, 2 * x, rtol=0.2, atol=0.05), (y, 2 * x)

@triton.jit
def k_swz(Y, M: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, M)[:, None]
    j = tl.arange(0, N)[None, :]
    a, b = tl.swizzle2d(i, j, M, N, 2)
    tl.store(Y + i * N + j, a * N + b)

@case("swizzle2d")
def _():
    y = torch.empty(4, 4, dtype=torch.int32)
    k_swz[(1,)](y, 4, 4)
    assert sorted(y.flatten().tolist()) == list(range(16))

@triton.jit
def k_uint(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = x.to(tl.uint32) >> 1
    z = tl.umulhi(x.to(tl.uint32), x.to(tl.uint32))
    tl.store(Y + tl.arange(0, N), (y + z).to(tl.int32))

@case("uint ops")
def _():
    x = torch.randint(-2**31, 2**31 - 1, (32,), dtype=torch.int32); y = torch.empty_like(x)
    k_uint[(1,)](x, y, 32)
    u = x.long() & 0xffffffff
    r = ((u >> 1) + ((u * u) >> 32)) & 0xffffffff
    r = torch.where(r >= 2**31, r - 2**32, r).int()
    assert torch.equal(y, r)

@triton.jit
def k_print(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.static_assert(N % 2 == 0, "N must be even")
    tl.static_print("N is", N)
    tl.device_assert(x >= 0, "negative")

@case("static_assert/print, device_assert")
def _():
    x = torch.rand(8)
    k_print[(1,)](x, 8)


@triton.jit
def k_bdot(A, B, C, Bt: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    b_ = tl.arange(0, Bt)[:, None, None]
    a = tl.load(A + b_ * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    b = tl.load(B + b_ * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    c = tl.dot(a, b)
    tl.store(C + b_ * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)

@case("batched 3d dot")
def _():
    a = torch.randn(2, 16, 16); b = torch.randn(2, 16, 16); c = torch.empty(2, 16, 16)
    k_bdot[(1,)](a, b, c, 2, 16, 16, 16)
    assert torch.allclose(c, a @ b, atol=1e-2)

@triton.jit
def k_ptrptr(PTRS, Y, N: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.load(PTRS + pid).to(tl.pointer_type(tl.float32))
    x = tl.load(p + tl.arange(0, N), cache_modifier=".cg", eviction_policy="evict_last", volatile=True)
    tl.store(Y + pid * N + tl.arange(0, N), x, cache_modifier=".cs")

@case("pointer from memory + cache modifiers")
def _():
    a = torch.randn(8); b = torch.randn(8); ptrs = torch.tensor([a.data_ptr(), b.data_ptr()], dtype=torch.int64); y = torch.empty(16)
    k_ptrptr[(2,)](ptrs, y, 8)
    assert torch.equal(y, torch.cat([a, b]))

@triton.jit
def k_act(X, Y, N, ACT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + o, mask=o < N)
    if ACT == "leaky_relu":
        x = tl.where(x >= 0, x, 0.01 * x)
    elif ACT == "relu":
        x = tl.maximum(x, 0)
    tl.store(Y + o, x, mask=o < N)

@case("string constexpr activation, int64 pid")
def _():
    x = torch.randn(100); y = torch.empty_like(x)
    k_act[(triton.cdiv(100, 32),)](x, y, 100, ACT="leaky_relu", BLOCK=32)
    assert torch.allclose(y, torch.nn.functional.leaky_relu(x, 0.01))
    k_act[(triton.cdiv(100, 32),)](x, y, 100, ACT="relu", BLOCK=32)
    assert torch.allclose(y, x.relu())

@triton.heuristics({"EVEN": lambda a: a["N"] % a["BLOCK"] == 0})
@triton.jit
def k_heur(X, Y, N, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(Y + o, tl.load(X + o) + 1)
    else:
        tl.store(Y + o, tl.load(X + o, mask=o < N) + 1, mask=o < N)

@case("heuristics")
def _():
    x = torch.randn(100); y = torch.empty_like(x)
    k_heur[(4,)](x, y, 100, BLOCK=32)
    assert torch.allclose(y, x + 1)

@triton.autotune(configs=[triton.Config({"BLOCK": 32}, num_warps=1), triton.Config({"BLOCK": 64}, num_warps=2)], key=["N"], reset_to_zero=["Y"])
@triton.jit
def k_auto(X, Y, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(Y + o, tl.load(X + o, mask=o < N), mask=o < N)

@case("autotune reset_to_zero, grid lambda")
def _():
    x = torch.randn(100); y = torch.zeros_like(x)
    k_auto[lambda m: (triton.cdiv(100, m["BLOCK"]),)](x, y, 100)
    assert torch.allclose(y, x)

@triton.jit
def k_misc(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :])
    t = x.T
    s = tl.sum(x)            # all axes
    m = tl.max(t, axis=None)
    r = tl.ravel(t)
    e = tl.expand_dims(r, 0)
    v = tl.view(e, (N, N))
    tl.store(Y + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], v + s - m)
    tl.store(Z, s)

@case("x.T, sum all, ravel/view/expand_dims, scalar store")
def _():
    x = torch.randn(8, 8); y = torch.empty_like(x); z = torch.empty(1)
    k_misc[(1,)](x, y, z, 8)
    assert torch.allclose(z, x.sum().reshape(1), atol=1e-4)
    # view may reorder elements in Triton: check the multiset
    ref = (x.T.reshape(-1) + x.sum() - x.max())
    assert torch.allclose(y.reshape(-1).sort().values, ref.sort().values, atol=1e-4)

@triton.jit
def k_intdiv(X, Y, Q, R, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)); y = tl.load(Y + tl.arange(0, N))
    tl.store(Q + tl.arange(0, N), x // y)
    tl.store(R + tl.arange(0, N), x % y)

@case("int // % negatives (Triton: C semantics)")
def _():
    x = torch.randint(-50, 50, (32,), dtype=torch.int32); y = torch.randint(1, 7, (32,), dtype=torch.int32) * torch.where(torch.rand(32) > 0.5, 1, -1).int()
    q = torch.empty_like(x); r = torch.empty_like(x)
    k_intdiv[(1,)](x, y, q, r, 32)
    assert torch.equal(q, torch.div(x, y, rounding_mode="trunc")), (q, x, y)
    assert torch.equal(r, torch.fmod(x, y))

@triton.jit
def k_bool(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), x > 0)

@case("store i1 to bool tensor")
def _():
    x = torch.randn(16); y = torch.empty(16, dtype=torch.bool)
    k_bool[(1,)](x, y, 16)
    assert torch.equal(y, x > 0)

@triton.jit
def _argmin_combine(v1, i1, v2, i2):
    lt = v1 < v2
    eq = v1 == v2
    pick = lt | (eq & (i1 < i2))
    return tl.where(pick, v1, v2), tl.where(pick, i1, i2)

@triton.jit
def k_tred(X, V, I, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    v, i = tl.reduce((x, tl.arange(0, N)), 0, _argmin_combine)
    tl.store(V, v); tl.store(I, i)
    a, b = tl.associative_scan((x, tl.arange(0, N)), 0, _argmin_combine)
    tl.store(X + tl.arange(0, N), a)

@case("tuple reduce / associative_scan")
def _():
    x = torch.randn(64); x0 = x.clone(); v = torch.empty(1); i = torch.empty(1, dtype=torch.int32)
    k_tred[(1,)](x, v, i, 64)
    assert v.item() == x0.min().item() and i.item() == x0.argmin().item()
    assert torch.equal(x, torch.cummin(x0, 0).values)

@triton.jit
def k_bf16(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = x * 2 + x.to(tl.float32).to(tl.bfloat16)
    tl.store(Y + tl.arange(0, N), y)

@case("bf16 arithmetic")
def _():
    x = torch.randn(32).bfloat16(); y = torch.empty_like(x)
    k_bf16[(1,)](x, y, 32)
    assert torch.allclose(y.float(), (x * 2 + x).float(), rtol=1e-2)

@triton.jit
def k_f64(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.exp(x) + tl.sqrt(tl.abs(x)) + x / 3.0)

@case("fp64 math")
def _():
    x = torch.randn(32, dtype=torch.float64); y = torch.empty_like(x)
    k_f64[(1,)](x, y, 32)
    assert torch.allclose(y, x.exp() + x.abs().sqrt() + x / 3, rtol=1e-12)

@triton.jit
def k_pyassert(X, N: tl.constexpr):
    assert N > 0
    x = tl.load(X + tl.arange(0, N))
    print("x", x)
    tl.device_print("dp", x)

@case("python assert / print in kernel")
def _():
    x = torch.rand(2)
    k_pyassert[(1,)](x, 2)

@triton.jit
def k_nested(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    acc = tl.zeros((BM,), tl.float32)
    cnt = 0
    for i in range(0, M, BM):
        for j in range(0, N, BN):
            rm = i + tl.arange(0, BM); rn = j + tl.arange(0, BN)
            x = tl.load(X + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0)
            acc += tl.sum(x, 1)
            cnt += 1
    tl.store(Y + tl.arange(0, BM), acc + cnt)

@case("nested loops carry")
def _():
    x = torch.randn(20, 30); y = torch.empty(8)
    k_nested[(1,)](x, y, 20, 30, 8, 16)
    ref = torch.zeros(8)
    for i in range(0, 20, 8):
        ref += torch.nn.functional.pad(x[i:i+8].sum(1), (0, 8 - x[i:i+8].shape[0]))
    assert torch.allclose(y, ref + 3 * 2, atol=1e-4)

@triton.jit
def k_rec(X, N: tl.constexpr):
    k_rec(X, N)

@case("recursion", error="recursive @jit function k_rec is not supported")
def _():
    k_rec[(1,)](torch.zeros(1), 1)

@triton.jit
def k_full(Y, N: tl.constexpr):
    a = tl.full((N,), 3, tl.int8)
    b = tl.zeros_like(a) + tl.cast(2.7, tl.int8)
    c = tl.abs(tl.full((N,), -5, tl.int32))
    tl.store(Y + tl.arange(0, N), (a + b).to(tl.int32) * c + tl.cdiv(7, 2) + tl.num_programs(0))

@case("full/zeros_like/cast/abs int/cdiv/num_programs")
def _():
    y = torch.empty(8, dtype=torch.int32)
    k_full[(1,)](y, 8)
    assert (y == 5 * 5 + 4 + 1).all(), y


GLOBAL_SCALE: tl.constexpr = 4


@triton.jit
def k_opt(X, Y, B, N, eps: float, FLAG: bool, DT: tl.constexpr, BLOCK: tl.constexpr = 64):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(X + o, mask=m, other=float("-inf"))
    x = tl.where(x == float("-inf"), 0.0, x)
    if B is not None:
        x += tl.load(B + o, mask=m)
    if FLAG:
        x = x + eps
    y = x.to(DT)
    if Y.dtype.element_ty == tl.float16:
        y = y * GLOBAL_SCALE
    tl.store(Y + o, y, mask=m)

@case("None ptr, float/bool args, dtype constexpr, element_ty, global constexpr")
def _():
    x = torch.randn(100); b = torch.randn(100); y = torch.empty(100, dtype=torch.float16)
    k_opt[(2,)](x, y, b, 100, 0.5, True, tl.float16)
    assert torch.allclose(y.float(), ((x + b + 0.5).half() * 4).float(), rtol=1e-3)
    k_opt[(2,)](x, y, None, 100, 0.5, False, DT=tl.float16)
    assert torch.allclose(y.float(), (x.half() * 4).float(), rtol=1e-3)

@triton.jit(do_not_specialize=["N"])
def k_dns(X, N, S):
    pid = tl.program_id(0)
    pid2 = tl.program_id(axis=1)
    tl.store(X + pid * N + pid2 * S, pid * 10 + pid2)

@case("do_not_specialize, 2D grid, stride 1")
def _():
    x = torch.zeros(3, 4, dtype=torch.int32)
    k_dns[(3, 4)](x, 4, 1)
    assert torch.equal(x, (torch.arange(3)[:, None] * 10 + torch.arange(4)[None, :]).int())

@triton.jit
def k_big(X, OFF, N: tl.constexpr):
    tl.store(X + tl.arange(0, N), (OFF + tl.arange(0, N)).to(tl.float32))

@case("int64 scalar argument")
def _():
    x = torch.empty(4)
    k_big[(1,)](x, 2**33, 4)
    assert torch.equal(x, (2**33 + torch.arange(4)).float())

@triton.jit
def k_methods(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :])
    a = x.sum(axis=0)
    b = x.max()
    c = x.reshape(N * N).reshape(N, N).trans().permute(1, 0)
    d = a.expand_dims(0).broadcast_to(N, N)
    tl.store(Y + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], c + d + b)

@case("tensor methods")
def _():
    x = torch.randn(8, 8); y = torch.empty_like(x)
    k_methods[(1,)](x, y, 8)
    assert torch.allclose(y, x + x.sum(0)[None, :] + x.max(), atol=1e-5)

@triton.jit
def k_half_arange(X, BLOCK: tl.constexpr):
    h: tl.constexpr = BLOCK // 2
    o = tl.arange(0, h)
    v = tl.max_contiguous(tl.multiple_of(o, 16), 16)
    tl.debug_barrier()
    tl.store(X + v, (o * 2).to(tl.float32) if h > 4 else o.to(tl.float32))

@case("constexpr arithmetic arange, multiple_of, debug_barrier, ternary")
def _():
    x = torch.zeros(64)
    k_half_arange[(1,)](x, 128)
    assert torch.equal(x, torch.arange(64).float() * 2)

@triton.jit
def k_nan(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    isn = x != x
    tl.store(Y + tl.arange(0, N), tl.where(isn, 1.0, x))

@case("nan check x != x")
def _():
    x = torch.tensor([1.0, float("nan"), 3.0, float("nan")]); y = torch.empty(4)
    k_nan[(1,)](x, y, 4)
    assert torch.equal(y, torch.tensor([1.0, 1.0, 3.0, 1.0]))


@triton.jit
def k_libd(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = libdevice.pow(tl.abs(x), 1.5) + libdevice.tanh(x) + libdevice.isnan(x).to(tl.float32) + libdevice.rint(x) + libdevice.atan2(x, 2.0)
    tl.store(Y + tl.arange(0, N), y)

@case("libdevice pow/tanh/isnan/rint/atan2")
def _():
    x = torch.randn(32); y = torch.empty_like(x)
    k_libd[(1,)](x, y, 32)
    r = x.abs().pow(1.5) + x.tanh() + x.isnan().float() + x.round() + torch.atan2(x, torch.full_like(x, 2.0))
    assert torch.allclose(y, r, atol=1e-5)

@triton.jit
def k_dtype_if(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    if x.dtype == tl.float16:
        x = x + 1
    elif x.dtype.is_int():
        x = x + 2
    else:
        x = x + 3
    tl.store(X + tl.arange(0, N), x)

@case("dtype compare in constexpr if, is_int()")
def _():
    a = torch.zeros(4, dtype=torch.float16); b = torch.zeros(4, dtype=torch.int32); c = torch.zeros(4)
    k_dtype_if[(1,)](a, 4); k_dtype_if[(1,)](b, 4); k_dtype_if[(1,)](c, 4)
    assert (a == 1).all() and (b == 2).all() and (c == 3).all()

@triton.jit
def k_assume(X, N):
    tl.assume(N > 0)
    pid = tl.program_id(0)
    tl.store(X + pid, N.to(tl.float32))

@case("tl.assume")
def _():
    x = torch.zeros(2)
    k_assume[(2,)](x, 5)
    assert (x == 5).all()

@triton.jit
def k_chain(X, N: tl.constexpr):
    o = tl.arange(0, N)
    m = (o > 2) & (o < 6)
    tl.store(X + o, tl.where(m, 1, 0).to(tl.float32))

@case("masks")
def _():
    x = torch.zeros(8)
    k_chain[(1,)](x, 8)
    assert x.tolist() == [0, 0, 0, 1, 1, 1, 0, 0]

@triton.jit
def k_cmp_chain(X, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(X + o, tl.where(2 < o < 6, 1.0, 0.0))

@case("chained comparison", error="simultaneous multiple comparison is not supported")
def _():
    x = torch.zeros(8)
    k_cmp_chain[(1,)](x, 8)
    assert x.tolist() == [0, 0, 0, 1, 1, 1, 0, 0], x

@triton.jit
def k_minmax_builtin(X, A: tl.constexpr, B: tl.constexpr):
    n: tl.constexpr = min(A, B)
    m: tl.constexpr = max(A, B)
    tl.store(X + tl.arange(0, n), tl.full((n,), m, tl.float32))

@case("builtin min/max on constexpr")
def _():
    x = torch.zeros(8)
    k_minmax_builtin[(1,)](x, 4, 16)
    assert x.tolist() == [16] * 4 + [0] * 4

@triton.jit
def k_sliceidx(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = x[None, :] + x[:, None]
    tl.store(Y + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], y)

@case("None indexing")
def _():
    x = torch.randn(4); y = torch.empty(4, 4)
    k_sliceidx[(1,)](x, y, 4)
    assert torch.allclose(y, x[None, :] + x[:, None])

@triton.jit
def k_loop_ret(X, N):
    acc = 0.0
    for i in range(N):
        acc += tl.load(X + i)
        if acc > 100.0:
            break
    tl.store(X, acc)

@case("break in a loop", error="`break` statements are not supported")
def _():
    x = torch.ones(10)
    k_loop_ret[(1,)](x, 10)

@triton.jit
def k_i8(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = (x.to(tl.int16) * 3).to(tl.int8)
    tl.store(Y + tl.arange(0, N), y + x)

@case("int8 / int16 wrap")
def _():
    x = torch.randint(-128, 127, (32,), dtype=torch.int8); y = torch.empty_like(x)
    k_i8[(1,)](x, y, 32)
    assert torch.equal(y, ((x.short() * 3).to(torch.int8) + x))



@triton.jit
def k_misc2(X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    xi = x.to(tl.int32)
    a = tl.xor_sum(xi, 0)
    b = tl.reduce_or(xi, 0)
    c = tl.add(x, x)
    d = tl.sub(x, 1.0)
    e = tl.mul(x, 2.0)
    o2 = tl.max_constancy(o, 1)
    tl.store(Y + o2, c + d + e)
    tl.store(Z, a + b)

@case("xor_sum/reduce_or/add/sub/mul/max_constancy")
def _():
    x = torch.arange(8).float(); y = torch.empty(8); z = torch.empty(1, dtype=torch.int32)
    k_misc2[(1,)](x, y, z, 8)
    import functools
    xi = x.int().tolist()
    assert z.item() == functools.reduce(lambda a, b: a ^ b, xi) + functools.reduce(lambda a, b: a | b, xi), z
    assert torch.allclose(y, x * 2 + x - 1 + x * 2)

@triton.jit
def k_ltd(A, B, M, N, BM: tl.constexpr, BN: tl.constexpr):
    da = tl.make_tensor_descriptor(A, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = tl.load_tensor_descriptor(da, [0, 0])
    tl.store_tensor_descriptor(da, [0, 0], x + 1)

@case("load/store_tensor_descriptor")
def _():
    a = torch.zeros(16, 16)
    k_ltd[(1,)](a, a, 16, 16, 16, 16)
    assert (a == 1).all()

@triton.jit
def k_cst_tuple(Y, SHAPE: tl.constexpr):
    tl.store(Y + tl.arange(0, SHAPE[0]), tl.full((SHAPE[0],), SHAPE[1], tl.float32))

@case("constexpr tuple argument")
def _():
    y = torch.empty(8)
    k_cst_tuple[(1,)](y, (8, 3))
    assert (y == 3).all()

@triton.jit
def k_dtype_arg(Y, DT: tl.constexpr, N: tl.constexpr):
    tl.store(Y + tl.arange(0, N), tl.zeros((N,), DT) + 1)

@case("torch dtype as constexpr? (tl dtype)")
def _():
    y = torch.empty(8, dtype=torch.float16)
    k_dtype_arg[(1,)](y, tl.float16, 8)
    assert (y == 1).all()

@triton.jit
def k_getitem(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(Y + tl.arange(0, N), tl.sum(x * (tl.arange(0, N)[:, None] == tl.arange(0, N)[None, :]), 1))

@case("diag via compare broadcast")
def _():
    x = torch.randn(8, 8); y = torch.empty(8)
    k_getitem[(1,)](x, y, 8)
    assert torch.allclose(y, x.diag())

@triton.jit
def k_i64ptr(X, stride, N: tl.constexpr):
    pid = tl.program_id(0)
    base = X + pid.to(tl.int64) * stride
    tl.store(base + tl.arange(0, N), tl.arange(0, N).to(tl.float32))

@case("int64 stride pointer arithmetic")
def _():
    x = torch.zeros(3, 8)
    k_i64ptr[(3,)](x, 8, 8)
    assert torch.equal(x, torch.arange(8).float().repeat(3, 1))

@triton.jit
def k_while_tensor(X, N):
    i = tl.program_id(0)
    cnt = tl.zeros((1,), tl.int32)
    while i < N:
        cnt += 1
        i += tl.num_programs(0)
    tl.store(X + tl.program_id(0) + tl.arange(0, 1), cnt)

@case("grid-stride while loop")
def _():
    x = torch.zeros(4, dtype=torch.int32)
    k_while_tensor[(4,)](x, 10)
    assert x.tolist() == [3, 3, 2, 2]

@triton.jit
def k_store_scalar_bcast(X, v, N: tl.constexpr):
    tl.store(X + tl.arange(0, N), v)

@case("store scalar arg broadcast")
def _():
    x = torch.zeros(8)
    k_store_scalar_bcast[(1,)](x, 2.5, 8)
    assert (x == 2.5).all()

@triton.jit
def k_cat(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)); y = tl.load(Y + tl.arange(0, N))
    tl.store(Z + tl.arange(0, 2 * N), tl.cat(x, y, can_reorder=True))

@case("cat can_reorder (multiset)")
def _():
    x = torch.randn(8); y = torch.randn(8); z = torch.empty(16)
    k_cat[(1,)](x, y, z, 8)
    assert torch.equal(z.sort().values, torch.cat([x, y]).sort().values)

@triton.jit
def k_api(X, Y, I, S, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(pointer=X + o, mask=o < N, other=0.0, cache_modifier="", eviction_policy="", volatile=False)
    m, i = tl.max(x, axis=0, return_indices=True)
    m2, i2 = tl.min(x, 0, return_indices=True, return_indices_tie_break_left=False)
    a = tl.argmax(x, 0, tie_break_left=True)
    s = tl.sum(x, axis=0, keep_dims=False, dtype=tl.float32)
    c = tl.cumsum(x, axis=0, reverse=False)
    tl.store(S, m + m2 + s)
    tl.store(I, i + i2 + a)
    tl.store(Y + o, c, mask=None)

@case("keyword API forms: max/min return_indices, argmax tie_break_left, sum dtype")
def _():
    x = torch.randn(32); y = torch.empty(32); i = torch.empty(1, dtype=torch.int32); s = torch.empty(1)
    k_api[(1,)](x, y, i, s, 32)
    assert torch.allclose(s, (x.max() + x.min() + x.sum()).reshape(1), atol=1e-5)
    assert i.item() == x.argmax().item() * 2 + x.argmin().item()
    assert torch.allclose(y, x.cumsum(0), atol=1e-5)

@triton.jit
def k_nan_prop(X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.load(Y + o)
    tl.store(Z + o, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL) + tl.minimum(x, y, propagate_nan=tl.PropagateNan.NONE) * 0 + tl.clamp(x, -1.0, 1.0, propagate_nan=tl.PropagateNan.ALL) * 0)

@case("propagate_nan")
def _():
    x = torch.tensor([1.0, float("nan"), 3.0, 0.0]); y = torch.tensor([2.0, 1.0, float("nan"), -1.0]); z = torch.empty(4)
    k_nan_prop[(1,)](x, y, z, 4)
    assert z[0] == 2 and z[1].isnan() and z[2].isnan() and z[3] == 0, z

@triton.jit
def k_cvt(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), x.to(tl.float16, fp_downcast_rounding="rtz"))

@case("fp_downcast_rounding rtz")
def _():
    x = torch.tensor([1.0009765625 + 0.0004, -1.0009765625 - 0.0004, 65519.0, 1e-8]); y = torch.empty(4, dtype=torch.float16)
    k_cvt[(1,)](x, y, 4)
    import numpy as np
    ref = torch.tensor([1.0009765625, -1.0009765625, 65504.0, 0.0], dtype=torch.float16)
    assert torch.equal(y, ref), (y, ref)

@triton.jit
def k_desc(A, B, M, N, BM: tl.constexpr, BN: tl.constexpr):
    da = tl.make_tensor_descriptor(A, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    db = tl.make_tensor_descriptor(B, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    x = da.load([pm, pn])
    db.store([pm, pn], x * 2)

@case("device tensor descriptors")
def _():
    a = torch.randn(40, 48); b = torch.zeros(40, 48)
    k_desc[(3, 3)](a, b, 40, 48, 16, 16)
    assert torch.allclose(b, a * 2)

@triton.jit
def k_rng(Y, Z, seed, N: tl.constexpr):
    o = tl.arange(0, N)
    a, b, c, d = tl.randint4x(seed, o)
    r = tl.randn(seed, o)
    tl.store(Y + o, r)
    tl.store(Z + o, a ^ b ^ c ^ d)

@case("randn, randint4x")
def _():
    y = torch.empty(4096); z = torch.empty(4096, dtype=torch.int32)
    k_rng[(1,)](y, z, 7, 4096)
    assert abs(y.mean().item()) < 0.1 and abs(y.std().item() - 1) < 0.1

@triton.jit
def k_bcast2(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))[:, None]
    y = tl.load(Y + tl.arange(0, N))[None, :]
    a, b = tl.broadcast(x, y)
    c = tl.broadcast_to(x, (N, N))
    tl.store(Z + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], a * b + c)

@case("tl.broadcast / broadcast_to")
def _():
    x = torch.randn(8); y = torch.randn(8); z = torch.empty(8, 8)
    k_bcast2[(1,)](x, y, z, 8)
    assert torch.allclose(z, x[:, None] * y[None, :] + x[:, None])

@triton.jit
def k_softmax_kw(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.softmax(x, ieee_rounding=False))

@case("tl.softmax kw")
def _():
    x = torch.randn(64); y = torch.empty_like(x)
    k_softmax_kw[(1,)](x, y, 64)
    assert torch.allclose(y, x.softmax(0), atol=1e-6)

@triton.jit
def k_reshape_reorder(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.reshape(x, (N // 4, 4), can_reorder=False)
    tl.store(Y + tl.arange(0, N // 4)[:, None] * 4 + tl.arange(0, 4)[None, :], y)

@case("reshape can_reorder kw")
def _():
    x = torch.randn(32); y = torch.empty(8, 4)
    k_reshape_reorder[(1,)](x, y, 32)
    assert torch.equal(y.reshape(-1), x)

@triton.jit
def k_range_kw(X, N, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in tl.range(0, N, BLOCK, num_stages=3, loop_unroll_factor=1, disallow_acc_multi_buffer=True, flatten=False, warp_specialize=False):
        acc += 1.0
    for j in tl.static_range(0, 4, 2):
        acc += j
    tl.store(X + tl.arange(0, BLOCK), acc)

@case("tl.range all kwargs, static_range step")
def _():
    x = torch.empty(16)
    k_range_kw[(1,)](x, 64, 16)
    assert (x == 4 + 2).all(), x

@triton.jit
def k_mult(X, N: tl.constexpr):
    o = tl.multiple_of(tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], (N, 1))
    o = tl.max_contiguous(o, (1, N))
    tl.store(X + o, 1.0)

@case("multiple_of with tuple")
def _():
    x = torch.zeros(16, 16)
    k_mult[(1,)](x, 16)
    assert (x == 1).all()

@triton.jit
def k_philox(Y, seed, N: tl.constexpr):
    o = tl.arange(0, N).to(tl.uint32)
    a, b, c, d = tl.philox(seed, o, o, o, o)
    tl.store(Y + tl.arange(0, N), (a ^ d).to(tl.int32, bitcast=True))

@case("tl.philox")
def _():
    y = torch.empty(64, dtype=torch.int32)
    k_philox[(1,)](y, 3, 64)
    assert len(set(y.tolist())) > 60


def main():
    for name, status in results:
        print("%-60s %s" % (name, status))
    bad = sum(1 for _, s in results if s.startswith("FAIL"))
    print("%d cases, %d failed (%s)" % (len(results), bad, DEVICE))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
