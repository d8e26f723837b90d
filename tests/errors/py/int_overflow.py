# RUN: not %tritonc compile %s --kernel k --signature '*i64,*i64' -D B=3 --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}int_overflow.py:17:23: error: integer constant out of range: Triton's integers have at most 64 bits (int64, or uint64 up to 2**64 - 1)
# CHECK: {{.*}}int_overflow.py:18:21: error: integer constant out of range
# CHECK: {{.*}}int_overflow.py:19:21: error: integer constant out of range
# CHECK: {{.*}}int_overflow.py:22:21: error: Scalar 11400714819323198485 is out of range for type int64
# CHECK-NOT: error
# Python's ints are unbounded and tritonc's constexprs are 64-bit: a value
# past [-2**63, 2**64) is an error where it is made (it used to wrap: 1 << 100
# was 0). Literals in [2**63, 2**64) are uint64, as in Triton, and an int64
# tensor cannot take one.
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, B: tl.constexpr):
    C: tl.constexpr = B * 2**40 * 2**30
    tl.store(y_ptr, 1 << 100)
    tl.store(y_ptr, -(2**63) - 1)
    tl.store(y_ptr, 2**63 + (2**63 - 1))
    tl.store(y_ptr, -(2**63))
    tl.store(y_ptr, tl.load(x_ptr) * 0x9E3779B97F4A7C15)
