# RUN: %tritonc compile %s --kernel k --signature '*i64' --emit ttir-raw | FileCheck %s
# RUN: not %tritonc compile %s --kernel bad --signature '*i64' --emit ttir 2>&1 | FileCheck %s --check-prefix=BAD
# Compile-time math on constexpr ints of 2**63 and up (uint64 constexprs)
# reads them as the unsigned numbers they are: math.ceil/floor/trunc of an
# int kept its bits but dropped its unsignedness (2**63 became -2**63),
# math.sqrt saw a negative number, math.isqrt said "argument must be
# nonnegative", math.gcd negated -2**63 (overflow), and
# triton.next_power_of_2 doubled past 2**62 into an endless loop (and gave 1, not Triton's 0, for n <= 0). A float
# past 64 bits given to ceil/floor/trunc was C's undefined conversion; it is
# out of range, as int() of it is, and NaN and the infinities raise. An
# axis of 2**63 was reported as -2**63.
# CHECK-LABEL: tt.func public @k
# CHECK: tt.store
# BAD: {{.*}}constexpr_uint64_math.py:43:9: error: integer constant out of range: math.ceil(1e+30) has more than 64 bits
# BAD: {{.*}}constexpr_uint64_math.py:44:9: error: cannot convert float NaN to integer
# BAD: {{.*}}constexpr_uint64_math.py:45:9: error: integer constant out of range: next_power_of_2(9223372036854775809) has more than 64 bits
# BAD: {{.*}}constexpr_uint64_math.py:46:9: error: axis 9223372036854775808 is out of bounds for a tensor of rank 1
# BAD: {{.*}}constexpr_uint64_math.py:47:9: error: cumsum(): argument 2 (9223372036854775808) is out of range: it must fit in int64
# BAD-NOT: error:
import math

import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    tl.static_assert(math.ceil(2**63) == 2**63)
    tl.static_assert(math.floor(0xFFFFFFFFFFFFFFFF) > 0)
    tl.static_assert(math.trunc(1e19) == 10000000000000000000)
    tl.static_assert(math.sqrt(0xFFFFFFFFFFFFFFFF) > 4e9)
    tl.static_assert(math.isqrt(0xFFFFFFFFFFFFFFFF) == 4294967295)
    tl.static_assert(math.isqrt(2**63) == 3037000499)
    tl.static_assert(math.gcd(-2**63, 0) == 2**63)
    tl.static_assert(math.gcd(2**63, 6) == 2)
    tl.static_assert(triton.next_power_of_2(2**62 + 1) == 2**63)
    tl.static_assert(triton.next_power_of_2(5) == 8 and triton.next_power_of_2(1) == 1 and triton.next_power_of_2(0) == 0 and triton.next_power_of_2(-5) == 0)
    tl.store(x_ptr, 0)


@triton.jit
def bad(x_ptr):
    a = math.ceil(1e30)
    b = math.floor(float("nan"))
    c = triton.next_power_of_2(2**63 + 1)
    d = tl.sum(tl.zeros((4,), tl.float32), axis=2**63)
    e = tl.cumsum(tl.zeros((4,), tl.float32), axis=2**63)
    tl.store(x_ptr, 0)
