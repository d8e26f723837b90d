# RUN: not %tritonc compile %s --kernel others --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=OTHERS
# RUN: not %tritonc compile %s --kernel conversions --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CONV
# RUN: not %tritonc compile %s --kernel powers --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=POW
# Python's builtins in a kernel: those Triton's kernel language has (min,
# max, abs, len, int, float, ...) work on what they take; the others are
# errors that say so, naming the Triton function to use where there is one
# ("name 'sum' is not defined" before, which Python would not say).
# Compile-time float powers fail where Python's do (they gave inf or nan),
# and a float division by zero says "float", as Python does.
# OTHERS: {{.*}}python_builtins.py:32:17: error: the Python builtin 'sum' is not supported in Triton kernels; use tl.sum
# OTHERS: {{.*}}python_builtins.py:33:17: error: the Python builtin 'round' is not supported in Triton kernels; use libdevice.round
# OTHERS: {{.*}}python_builtins.py:34:9: error: the Python builtin 'list' is not supported in Triton kernels
# OTHERS: {{.*}}python_builtins.py:36:17: error: the Python builtin 'str' is not supported in Triton kernels
# OTHERS-NOT: error:
# CONV: {{.*}}python_builtins.py:41:17: error: int() argument must be a constexpr number, not 'tensor'
# CONV: {{.*}}python_builtins.py:42:17: error: float() argument must be a constexpr number or string, not 'tensor'
# CONV: {{.*}}python_builtins.py:43:17: error: object of type 'tensor' has no len()
# CONV-NOT: error:
# POW: {{.*}}python_builtins.py:48:23: error: (34, 'Numerical result out of range')
# POW: {{.*}}python_builtins.py:49:23: error: 0.0 cannot be raised to a negative power
# POW: {{.*}}python_builtins.py:50:24: error: (-8) ** 0.5 is a complex number, which a kernel cannot hold
# POW: {{.*}}python_builtins.py:51:23: error: float floor division by zero
# POW: {{.*}}python_builtins.py:52:23: error: float modulo by zero
# POW-NOT: error:
import triton
import triton.language as tl


@triton.jit
def others(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x, sum(v))
    tl.store(x, round(tl.load(x)))
    t = list((1, 2))
    tl.store(x + tl.arange(0, 16), abs(v) + min(v, 1.0) + max(v, 2.0))
    tl.store(x, str(1))


@triton.jit
def conversions(x, n):
    tl.store(x, int(tl.load(x)))
    tl.store(x, float(n))
    tl.store(x, len(tl.load(x + tl.arange(0, 16))))


@triton.jit
def powers(x):
    A: tl.constexpr = 10.0 ** 400
    B: tl.constexpr = 0.0 ** -1
    C: tl.constexpr = (-8.0) ** 0.5
    D: tl.constexpr = 1.0 // 0
    E: tl.constexpr = 7 % 0.0
    tl.store(x, 2.0 ** 0.5)
