# RUN: not %tritonc compile %s --kernel arith --signature '*fp32,*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ARITH
# RUN: not %tritonc compile %s --kernel convert --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CONV
# Pointer arithmetic takes integer offsets only: adding two pointers, a
# float offset, multiplying, negating or taking a pointer modulo, comparing
# it with a float, and converting it to a number are errors at the operator.
# ARITH: {{.*}}pointer_errors.py:23:14: error: cannot add pointers together
# ARITH: {{.*}}pointer_errors.py:24:14: error: invalid operands of type pointer<fp32> and fp32
# ARITH: {{.*}}pointer_errors.py:25:14: error: invalid operands of type pointer<fp32> and int32
# ARITH: {{.*}}pointer_errors.py:26:14: error: invalid operands of type pointer<fp32> and int32
# ARITH: {{.*}}pointer_errors.py:27:14: error: wrong type argument to unary minus (pointer<fp32>)
# ARITH: {{.*}}pointer_errors.py:28:8: error: invalid operands of type pointer<fp32> and fp32
# ARITH: {{.*}}pointer_errors.py:31:5: error: invalid operands of type pointer<fp32> and fp32
# ARITH-NOT: error:
# CONV: {{.*}}pointer_errors.py:36:17: error: cannot cast pointer<fp32> to fp32
# CONV: {{.*}}pointer_errors.py:37:5: error: cannot cast pointer<fp32> to fp32
# CONV-NOT: error:
import triton
import triton.language as tl


@triton.jit
def arith(x, y):
    tl.store(x + y, 1.0)
    tl.store(x + 1.5, 1.0)
    tl.store(x * 2, 1.0)
    tl.store(x % 4, 1.0)
    tl.store(-x, 1.0)
    if x < 1.5:
        tl.store(x, 1.0)
    p = x
    p += 1.0


@triton.jit
def convert(x):
    tl.store(x, tl.cast(x, tl.float32))
    tl.store(x, x)
