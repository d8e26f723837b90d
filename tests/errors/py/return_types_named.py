# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel ranges --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=RANGE
# A helper whose returns differ in type names both types, as Triton's
# "Inconsistent return types: A and B" does (it said only "Inconsistent
# return types"). An arange whose bound is 2**31 passed the `>> 32` test
# and wrapped to a negative i32 bound (a silently wrong range).
# CHECK: {{.*}}return_types_named.py:22:9: error: Inconsistent return types: fp32 and int32
# CHECK: {{.*}}return_types_named.py:29:5: error: Inconsistent return types: (fp32, int32) and (fp32, fp32)
# CHECK-NOT: error:
# RANGE: {{.*}}return_types_named.py:41:9: error: arange must fit in int32: got arange(2147483632, 2147483648)
# RANGE: {{.*}}return_types_named.py:42:19: error: arange must fit in int32: its start (-4294967296) is negative
# RANGE-NOT: error:
import triton
import triton.language as tl


@triton.jit
def one(n):
    if n > 0:
        return 1.0
    else:
        return 1


@triton.jit
def pair(n):
    if n > 0:
        return 1.0, 2
    return 1.0, 2.0


@triton.jit
def k(x, n):
    tl.store(x, one(n))
    a, b = pair(n)
    tl.store(x, a + b)


@triton.jit
def ranges(x):
    o = tl.arange(2**31 - 16, 2**31)
    p = tl.arange(-2**32, -2**32 + 16)
    tl.store(x + o + p, 1.0)
