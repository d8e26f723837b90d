# RUN: not %tritonc compile %s --kernel branch_types --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BRANCHES
# RUN: not %tritonc compile %s --kernel redefined_then --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=THEN
# RUN: not %tritonc compile %s --kernel redefined_else --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ELSE
# RUN: not %tritonc compile %s --kernel tuple_shapes --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=TUPLES
# A variable a runtime `if` leaves with another type in each branch; the
# initial type of a value live into the if is the one the untouched branch holds.
# BRANCHES: {{.*}}if_branch_types.py:17:5: error: Mismatched type for y between then block (fp32) and else block (fp16)
# THEN: {{.*}}if_branch_types.py:27:5: error: initial value for `acc` is of type fp32, but the then block redefines it as fp16
# ELSE: {{.*}}if_branch_types.py:35:5: error: initial value for `acc` is of type fp32, but the else block redefines it as int32
# TUPLES: {{.*}}if_branch_types.py:45:5: error: Mismatched type for t between then block ((fp32, fp32)) and else block ((fp32, (fp32, fp32)))
import triton
import triton.language as tl


@triton.jit
def branch_types(x_ptr, n):
    if n > 0:
        y = tl.load(x_ptr)
    else:
        y = tl.load(x_ptr).to(tl.float16)
    tl.store(x_ptr, y)


@triton.jit
def redefined_then(x_ptr, n):
    acc = tl.load(x_ptr)
    if n > 0:
        acc = acc.to(tl.float16)
    tl.store(x_ptr, acc)


@triton.jit
def redefined_else(x_ptr, n):
    acc = tl.load(x_ptr)
    if n > 0:
        tl.store(x_ptr, acc)
    else:
        acc = acc.to(tl.int32)
    tl.store(x_ptr, acc)


@triton.jit
def tuple_shapes(x_ptr, n):
    a = tl.load(x_ptr)
    if n > 0:
        t = (a, a)
    else:
        t = (a, (a, a))
    tl.store(x_ptr, t[0])
