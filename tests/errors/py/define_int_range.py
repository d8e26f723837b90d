# RUN: not %tritonc compile %s --kernel k --signature '*i64' -D N=18446744073709551616 2>&1 | FileCheck %s --check-prefix=BIG
# RUN: not %tritonc compile %s --kernel k --signature '*i64' -D N=-9223372036854775809 2>&1 | FileCheck %s --check-prefix=NEG
# RUN: not %tritonc compile %s --kernel k --signature '*i64' -D 'N=(1, 100000000000000000000000000000000000000000000)' 2>&1 | FileCheck %s --check-prefix=TUPLE
# RUN: not %tritonc compile %s --kernel k --signature '*i64' -D N=010 2>&1 | FileCheck %s --check-prefix=OCTAL
# RUN: not %tritonc compile %s --kernel k --signature '*i64' -D N=0x1p3 2>&1 | FileCheck %s --check-prefix=HEXFLOAT
# RUN: %tritonc compile %s --kernel k --signature '*i64' -D N=18446744073709551615 | FileCheck %s --check-prefix=U64MAX
# RUN: %tritonc compile %s --kernel k --signature '*i64' -D N=0o17 | FileCheck %s --check-prefix=OCT
# RUN: %tritonc compile %s --kernel k --signature '*i64' -D N=1_000 | FileCheck %s --check-prefix=UNDERSCORE
# A -D integer is read as Python reads the literal. One past uint64 became a
# float (1.8e19; inf for a longer one) without a word; tritonc's constexpr
# integers are int64 and uint64, so it is an error naming the option.
# BIG: tritonc: error: -D N=18446744073709551616: integer out of range: tritonc's constexpr integers have at most 64 bits (int64, or uint64 up to 2**64 - 1)
# NEG: tritonc: error: -D N=-9223372036854775809: integer out of range
# TUPLE: tritonc: error: -D N=(1, 100000000000000000000000000000000000000000000): integer out of range
# "010" is Python's SyntaxError (it was octal 8, as strtoll reads it); "0o17",
# "0b101" and "1_000" were bare words, so strings.
# OCTAL: tritonc: error: -D N=010: leading zeros in decimal integer literals are not permitted
# HEXFLOAT: tritonc: error: -D N=0x1p3: invalid number literal
# U64MAX: arith.constant -1 : i64
# OCT: arith.constant 15 : i64
# UNDERSCORE: arith.constant 1000 : i64
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, N: tl.constexpr):
    tl.store(x_ptr, N)
