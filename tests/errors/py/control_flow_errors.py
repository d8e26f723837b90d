# RUN: not %tritonc compile %s --kernel cont --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CONT
# RUN: not %tritonc compile %s --kernel bounds --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BOUNDS
# RUN: not %tritonc compile %s --kernel iterables --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ITER
# RUN: not %tritonc compile %s --kernel conditions --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=COND
# RUN: not %tritonc compile %s --kernel carried --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CARRIED
# RUN: not %tritonc compile %s --kernel carried_while --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=WHILE
# Loops and conditions: `continue` (which Triton lacks, as `break`), loop
# bounds that are not integers, static_range over runtime values, what may
# be iterated, range's arguments, block-valued conditions, a conditional
# expression's branches of two types, and loop-carried values changing
# shape or type. tl.range's num_stages must be an int (a string was
# accepted).
# CONT: {{.*}}control_flow_errors.py:43:13: error: `continue` statements are not supported in Triton kernels
# CONT-NOT: error:
# BOUNDS: {{.*}}control_flow_errors.py:49:30: error: static_range's arguments must be constexpr integers
# BOUNDS: {{.*}}control_flow_errors.py:52:20: error: For loop bounds and step must all be ints, are (int32, <[4], fp32>, int32)
# BOUNDS: {{.*}}control_flow_errors.py:54:23: error: For loop bounds and step must all be ints, are (int32, fp32, int32)
# BOUNDS: {{.*}}control_flow_errors.py:56:14: error: range() got an unexpected keyword argument 'step'
# BOUNDS: {{.*}}control_flow_errors.py:58:14: error: range expected 1 to 3 arguments, got 4
# BOUNDS: {{.*}}control_flow_errors.py:60:36: error: static_range() arg 3 must not be zero
# BOUNDS: {{.*}}control_flow_errors.py:62:40: error: tl.range(): num_stages must be a constexpr int, got str
# BOUNDS-NOT: error:
# ITER: {{.*}}control_flow_errors.py:68:23: error: the target of a for loop must be a name
# ITER: {{.*}}control_flow_errors.py:70:14: error: Only `range`, `static_range` and tuples can be iterated in a kernel, not int
# ITER-NOT: error:
# COND: {{.*}}control_flow_errors.py:77:8: error: the condition of an `if` must be a scalar, not a block of type <[16], int1>
# COND: {{.*}}control_flow_errors.py:79:5: error: the condition of a `while` must be a scalar
# COND: {{.*}}control_flow_errors.py:81:9: error: the condition of a conditional expression must be a scalar
# COND: {{.*}}control_flow_errors.py:82:9: error: Ternary expression with dynamic condition has inconsistent types fp32 and <[16], int32>
# COND-NOT: error:
# CARRIED: {{.*}}control_flow_errors.py:88:5: error: loop-carried variable acc has initial type <[16], fp32> but is re-assigned to <[32], fp32> in loop
# CARRIED-NOT: error:
# WHILE: {{.*}}control_flow_errors.py:96:5: error: loop-carried variable acc has initial type int32 but is re-assigned to fp32 in loop
# WHILE-NOT: error:
import triton
import triton.language as tl


@triton.jit
def cont(x, n):
    for i in range(n):
        if i > 2:
            continue
        tl.store(x + i, 1.0)


@triton.jit
def bounds(x, n):
    for i in tl.static_range(n):
        tl.store(x + i, 1.0)
    v = tl.load(x + tl.arange(0, 4))
    for i in range(v):
        tl.store(x, 1.0)
    for i in range(0, 1.5):
        tl.store(x, 1.0)
    for i in range(0, n, step=2):
        tl.store(x, 1.0)
    for i in range(0, n, 1, 2):
        tl.store(x, 1.0)
    for i in tl.static_range(0, 4, 0):
        tl.store(x + i, 1.0)
    for i in tl.range(0, n, num_stages="2"):
        tl.store(x + i, 1.0)


@triton.jit
def iterables(x, n):
    for a, b in range(n):
        tl.store(x, 1.0)
    for i in 5:
        tl.store(x, 1.0)


@triton.jit
def conditions(x, n):
    o = tl.arange(0, 16)
    if o > 0:
        tl.store(x, 1.0)
    while o < 4:
        o += 1
    v = 1.0 if o > 0 else 2.0
    w = 1.0 if n > 0 else tl.arange(0, 16)


@triton.jit
def carried(x, n):
    acc = tl.zeros((16,), tl.float32)
    for i in range(n):
        acc = tl.zeros((32,), tl.float32)
    tl.store(x + tl.arange(0, 16), acc)


@triton.jit
def carried_while(x, n):
    acc = 0
    while acc < n:
        acc = acc + 1.5
    tl.store(x, acc)
