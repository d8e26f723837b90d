# RUN: not %tritonc compile %s --kernel bits --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BITS
# RUN: not %tritonc compile %s --kernel kinds --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=KINDS
# RUN: not %tritonc compile %s --kernel scalars --signature '*u32,*i8' --emit ttir 2>&1 | FileCheck %s --check-prefix=SCALAR
# RUN: not %tritonc compile %s --kernel none --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NONE
# RUN: not %tritonc compile %s --kernel math_types --signature '*i32,*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MATH
# Operators on operands that do not take them: bit operations on floats, a
# string or a dtype in arithmetic, a negative or out-of-range scalar with a
# small or unsigned integer tensor, the None a helper without `return`
# gives back, and math functions given the wrong dtype (a pointer's is
# named: it was "?").
# BITS: {{.*}}operator_errors.py:34:17: error: invalid operands of type fp32 and fp32
# BITS: {{.*}}operator_errors.py:35:17: error: invalid operands of type fp32 and fp32
# BITS: {{.*}}operator_errors.py:36:17: error: wrong type argument to unary invert (fp32)
# BITS-NOT: error:
# KINDS: {{.*}}operator_errors.py:41:17: error: invalid operands of type tensor and str
# KINDS: {{.*}}operator_errors.py:42:17: error: unsupported operand type(s) for +: 'dtype' and 'int'
# KINDS-NOT: error:
# SCALAR: {{.*}}operator_errors.py:47:17: error: Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform a explicit cast on one of them.
# SCALAR: {{.*}}operator_errors.py:48:17: error: Scalar 300 is out of range for type int8
# SCALAR-NOT: error:
# NONE: {{.*}}operator_errors.py:59:17: error: unsupported operand type(s) for +: 'NoneType' and 'int'
# NONE-NOT: error:
# MATH: {{.*}}operator_errors.py:64:17: error: exp: Expected dtype ['fp32', 'fp64'] but got int32
# MATH: {{.*}}operator_errors.py:65:17: error: sqrt: Expected dtype ['fp32', 'fp64'] but got pointer<fp32>
# MATH: {{.*}}operator_errors.py:66:17: error: umulhi: Expected an integer dtype but got fp32
# MATH-NOT: error:
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


@triton.jit
def math_types(i, f):
    tl.store(f, tl.exp(tl.load(i)))
    tl.store(f, tl.sqrt(f))
    tl.store(f, tl.umulhi(tl.load(f), tl.load(f)))
