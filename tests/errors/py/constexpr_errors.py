# RUN: not %tritonc compile %s --kernel asserts --signature '*fp32' -D B=16 --emit ttir 2>&1 | FileCheck %s --check-prefix=ASSERT
# RUN: not %tritonc compile %s --kernel program_id3 --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=PID
# RUN: not %tritonc compile %s --kernel shapes --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=SHAPE
# RUN: not %tritonc compile %s --kernel dtypes --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not %tritonc compile %s --kernel locals --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=LOCAL
# What must be known at compile time: tl.static_assert (its message is
# shown), program_id's axis, the shapes of tl.full and tl.zeros, dtype names
# (tl.float and tl.int are not Triton dtypes), constexpr locals, axes and
# hints; a constexpr division by zero.
# ASSERT: {{.*}}constexpr_errors.py:33:5: error: static_assert failed: B must be a multiple of 32
# ASSERT: {{.*}}constexpr_errors.py:34:5: error: static_assert failed
# ASSERT: {{.*}}constexpr_errors.py:35:5: error: Assertion condition could not be determined at compile-time. Make sure that it depends only on `constexpr` values
# ASSERT-NOT: error:
# PID: {{.*}}constexpr_errors.py:40:18: error: program_id axis must be 0, 1, or 2 but got 3
# PID-NOT: error:
# SHAPE: {{.*}}constexpr_errors.py:45:17: error: full(): shape must be a tuple of constexpr ints
# SHAPE: {{.*}}constexpr_errors.py:46:17: error: zeros(): shape must be a tuple of constexpr ints
# SHAPE-NOT: error:
# DTYPE: {{.*}}constexpr_errors.py:51:31: error: module 'triton.language' has no attribute 'float'; did you mean 'float32'?
# DTYPE: {{.*}}constexpr_errors.py:52:52: error: module 'triton.language' has no attribute 'int'; did you mean 'int32'?
# DTYPE-NOT: error:
# LOCAL: {{.*}}constexpr_errors.py:57:5: error: the value of constexpr 'C' is not known at compile time
# LOCAL: {{.*}}constexpr_errors.py:58:23: error: integer division or modulo by zero
# LOCAL: {{.*}}constexpr_errors.py:60:17: error: axis must be a constexpr int
# LOCAL: {{.*}}constexpr_errors.py:61:18: error: multiple_of(): values must be constexpr ints
# LOCAL-NOT: error:
import triton
import triton.language as tl


@triton.jit
def asserts(x, B: tl.constexpr):
    tl.static_assert(B % 32 == 0, "B must be a multiple of 32")
    tl.static_assert(B > 32)
    tl.static_assert(tl.load(x) > 0)


@triton.jit
def program_id3(x):
    tl.store(x + tl.program_id(3), 1.0)


@triton.jit
def shapes(x, n):
    tl.store(x, tl.full((n,), 1.0, tl.float32))
    tl.store(x, tl.zeros([n], tl.float32))


@triton.jit
def dtypes(x):
    tl.store(x, tl.load(x).to(tl.float))
    tl.store(x + tl.arange(0, 16), tl.zeros((16,), tl.int))


@triton.jit
def locals(x, n):
    C: tl.constexpr = n
    D: tl.constexpr = 1 // 0
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x, tl.argmax(v, axis=n))
    tl.store(x + tl.multiple_of(n, "a"), 1.0)
