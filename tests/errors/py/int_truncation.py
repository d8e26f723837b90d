# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# RUN: %tritonc compile %s --kernel slices --signature '*fp32' --emit ttir | FileCheck %s --check-prefix=SLICES
# Constexpr ints past the int range were truncated to an int on their way
# into an axis, a permutation, a hint or a slice bound, and so became other
# valid values: expand_dims(v, 2**40) inserted axis 0, permute(m, (2**32,
# 2**32 + 1)) was the identity, multiple_of(v, 2**40) set divisibility 0, and
# v[:-2**31] was v[:] (the "no bound" mark). Each is the error Triton gives.
# Tuple slices past the int range slice as Python's do (t[:2**32] was empty).
# CHECK: {{.*}}int_truncation.py:26:9: error: invalid axis 1099511627776. Expected -2 <= axis < 2
# CHECK: {{.*}}int_truncation.py:27:9: error: invalid axis 4294967296. Expected -3 <= axis < 3
# CHECK: {{.*}}int_truncation.py:28:9: error: permute dims must be a permutation of 0, 1, ..., n-1
# CHECK: {{.*}}int_truncation.py:29:9: error: multiple_of(): values must fit in int32, got 1099511627776
# CHECK: {{.*}}int_truncation.py:30:9: error: max_contiguous(): values must fit in int32, got 18446744073709551615
# CHECK: {{.*}}int_truncation.py:31:9: error: unsupported tensor index: only None and ':' are supported
# CHECK: {{.*}}int_truncation.py:32:9: error: arange must fit in int32: got arange(9223372036854775808, 9223372036854775824)
# CHECK-NOT: error:
# SLICES: tt.store
import triton
import triton.language as tl


@triton.jit
def k(x):
    v = tl.load(x + tl.arange(0, 16))
    m = tl.load(x + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    a = tl.expand_dims(v, 2**40)
    b = tl.expand_dims(v, (0, 2**32))
    c = tl.permute(m, (2**32, 2**32 + 1))
    d = tl.multiple_of(v.to(tl.int32), 2**40)
    e = tl.max_contiguous(v.to(tl.int32), 0xFFFFFFFFFFFFFFFF)
    f = v[:-2**31]
    g = tl.arange(2**63, 2**63 + 16)


@triton.jit
def slices(x):
    t = (1, 2, 3, 4)
    tl.static_assert(len(t[:2**32]) == 4)
    tl.static_assert(len(t[:2**63]) == 4)
    tl.static_assert(len(t[:-2**31]) == 0)
    tl.static_assert(len(t[2**40:]) == 0)
    tl.static_assert(len(t[2**63:]) == 0)
    tl.static_assert(len(t[-2**40:2]) == 2)
    tl.static_assert(len(t[True:]) == 3)
    tl.store(x, 1.0)
