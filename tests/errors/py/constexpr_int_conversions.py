# RUN: not %tritonc compile %s --kernel bad --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# RUN: %tritonc compile %s --kernel wide --signature '*fp32,*u64' --emit ttir | FileCheck %s --check-prefix=WIDE
# int() of a float that Python's int() rejects (NaN, an infinity) or that
# has more than 64 bits is an error (they were C's undefined conversion:
# int(float('nan')) gave -2**63). abs(-2**63) is 2**63 (it was -2**63), and
# int() and float() keep a uint64 one (they made it negative).
# CHECK: {{.*}}constexpr_int_conversions.py:23:23: error: cannot convert float NaN to integer
# CHECK: {{.*}}constexpr_int_conversions.py:24:23: error: cannot convert float infinity to integer
# CHECK: {{.*}}constexpr_int_conversions.py:25:23: error: integer constant out of range: int(1e+300) has more than 64 bits (Triton's integers are int64, or uint64 up to 2**64 - 1)
# CHECK-NOT: error:
# WIDE-DAG: arith.constant 9.22337203E+18 : f32
# WIDE-DAG: arith.constant 1.38350581E+19 : f32
# WIDE-DAG: arith.constant -9223372036854775808 : i64
# WIDE-DAG: arith.constant -4611686018427387904 : i64
# WIDE-DAG: arith.constant 2.000000e+00 : f32
# WIDE-NOT: -9.22337203E+18
import triton
import triton.language as tl


@triton.jit
def bad(x):
    A: tl.constexpr = int(float("nan"))
    B: tl.constexpr = int(float("inf"))
    C: tl.constexpr = int(1e300)
    tl.store(x, A + B + C)


@triton.jit
def wide(x, u):
    tl.store(x, abs(-2**63))
    tl.store(x + 1, float(2**63 + 2**62))
    tl.store(u, int(2**63))
    tl.store(u + 1, int(2**63 + 2**62))
    tl.store(x + 2, int(2.9))
