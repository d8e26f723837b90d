# RUN: %python %s
# REQUIRES: torch
"""@triton.constexpr_function: plain Python run at compile time on
constexprs, as Triton 3 allows. A kernel computes a block size with a
while loop, unpacks a tuple one returns, calls one from another and from a
@jit helper, uses triton.next_power_of_2, min/max, math, int.bit_length
and float.is_integer; tables built by generator expressions and
comprehensions over range() with tuple()/list() and math.factorial
(a Taylor polynomial's coefficients, read by a reversed static_range);
the results are
constexprs (tl.arange's bounds, a constexpr annotation), and each set of
constexpr arguments gives its own values."""
import math
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.constexpr_function
def pow2_at_least(n, cap=1024):
    b = 1
    while b < n:
        b *= 2
    return min(b, cap)


@triton.constexpr_function
def split(n):
    for d in range(2, 9):
        if n % d == 0:
            return d, n // d
    return 1, n


@triton.constexpr_function
def scale_for(n):
    return math.sqrt(pow2_at_least(n)) + max(split(n)[0], 1) + n.bit_length() + (n / 2).is_integer()


@triton.jit
def _scaled(x, N: tl.constexpr):
    S: tl.constexpr = scale_for(N)
    return x * S


@triton.jit
def cf_kernel(X, Y, N: tl.constexpr):
    B: tl.constexpr = pow2_at_least(N)
    D, Q = split(N)
    o = tl.arange(0, B)
    m = o < N
    x = tl.load(X + o, mask=m, other=0.0)
    tl.store(Y + o, _scaled(x, N) + D * 100 + Q * 10000 + (triton.next_power_of_2(N) == B), mask=m)


def ref_pow2(n, cap=1024):
    b = 1
    while b < n:
        b *= 2
    return min(b, cap)


def ref_split(n):
    for d in range(2, 9):
        if n % d == 0:
            return d, n // d
    return 1, n


failures = []
for n in (5, 12, 49, 100, 700):
    x = torch.randn(n)
    y = torch.zeros(n)
    cf_kernel[(1,)](x, y, N=n)
    d, q = ref_split(n)
    s = math.sqrt(ref_pow2(n)) + max(d, 1) + n.bit_length() + (n / 2).is_integer()
    want = x * s + d * 100 + q * 10000 + 1
    if not torch.allclose(y, want, rtol=1e-5, atol=1e-3):
        failures.append("N=%d: max error %g" % (n, (y - want).abs().max().item()))


@triton.constexpr_function
def taylor_exp(n):
    return tuple(1.0 / math.factorial(i) for i in range(n))


@triton.constexpr_function
def odd_squares(n):
    return list([i * i for i in range(n - 1, -1, -1) if i % 2 == 1])


@triton.jit
def taylor_kernel(X, Y, DEG: tl.constexpr):
    C: tl.constexpr = taylor_exp(DEG)
    Q: tl.constexpr = odd_squares(DEG)
    o = tl.arange(0, 64)
    x = tl.load(X + o)
    acc = tl.zeros_like(x) + C[DEG - 1]
    for i in tl.static_range(DEG - 2, -1, -1):
        acc = acc * x + C[i]
    tl.store(Y + o, acc + len(Q) * 1000 + Q[0])


for deg in (8, 11):
    x = torch.rand(64) - 0.5
    y = torch.zeros(64)
    taylor_kernel[(1,)](x, y, DEG=deg)
    odd = [i * i for i in range(deg - 1, -1, -1) if i % 2 == 1]
    want = torch.exp(x.double()).float() + len(odd) * 1000 + odd[0]
    if not torch.allclose(y, want, rtol=1e-6, atol=1e-3):
        failures.append("taylor DEG=%d: max error %g" % (deg, (y - want).abs().max().item()))

for f in failures:
    print("FAIL", f)
print("ok" if not failures else "%d failures" % len(failures))
sys.exit(1 if failures else 0)
