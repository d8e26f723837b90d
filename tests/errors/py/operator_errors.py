# RUN: not %tritonc compile %s --kernel bits --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BITS
# RUN: not %tritonc compile %s --kernel kinds --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=KINDS
# RUN: not %tritonc compile %s --kernel scalars --signature '*u32,*i8' --emit ttir 2>&1 | FileCheck %s --check-prefix=SCALAR
# RUN: not %tritonc compile %s --kernel none --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NONE
# Operators on operands that do not take them: bit operations on floats, a
# string or a dtype in arithmetic, a negative or out-of-range scalar with a
# small or unsigned integer tensor, and the None a helper without `return`
# gives back.
# BITS: {{.*}}operator_errors.py:28:17: error: invalid operands of type fp32 and fp32
# BITS: {{.*}}operator_errors.py:29:17: error: invalid operands of type fp32 and fp32
# BITS: {{.*}}operator_errors.py:30:17: error: wrong type argument to unary invert (fp32)
# BITS-NOT: error:
# KINDS: {{.*}}operator_errors.py:35:17: error: invalid operands of type tensor and str
# KINDS: {{.*}}operator_errors.py:36:17: error: unsupported operand type(s) for +: 'dtype' and 'int'
# KINDS-NOT: error:
# SCALAR: {{.*}}operator_errors.py:41:17: error: Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform a explicit cast on one of them.
# SCALAR: {{.*}}operator_errors.py:42:17: error: Scalar 300 is out of range for type int8
# SCALAR-NOT: error:
# NONE: {{.*}}operator_errors.py:53:17: error: unsupported operand type(s) for +: 'NoneType' and 'int'
# NONE-NOT: error:
import triton
import triton.language as tl


@triton.jit
def bits(x):
    v = tl.load(x)
    tl.store(x, v & 1)
    tl.store(x, v << 1)
    tl.store(x, ~v)


@triton.jit
def kinds(x):
    tl.store(x, tl.load(x) + "a")
    tl.store(x, tl.float32 + 1)


@triton.jit
def scalars(u, b):
    tl.store(u, tl.load(u) + -1)
    tl.store(b, tl.load(b) + 300)


@triton.jit
def no_result(v):
    tl.store(v, 1.0)


@triton.jit
def none(x):
    r = no_result(x)
    tl.store(x, r + 1)
