# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# A helper that returns a value behind a runtime `if` and falls off the end
# on the other path returns None there: the types disagree.
# CHECK: {{.*}}early_return_types.py:20:9: error: Cannot have `return` statements inside `while` or `for` statements in triton
# CHECK: {{.*}}early_return_types.py:13:5: error: Inconsistent return types: the else branch of this `if` reaches the end of the function (returning None) while another path returns a value
import triton
import triton.language as tl


@triton.jit
def positive_or_nothing(x):
    # the implicit `return None` after this `if` is reported at it
    if x > 0:
        return x


@triton.jit
def k(x_ptr):
    for i in range(3):
        if tl.load(x_ptr + i) < 0:
            return
    tl.store(x_ptr, positive_or_nothing(tl.load(x_ptr)))
