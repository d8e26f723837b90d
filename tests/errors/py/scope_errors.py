# RUN: not %tritonc compile %s --kernel before --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BEFORE
# RUN: not %tritonc compile %s --kernel one_branch --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BRANCH
# RUN: not %tritonc compile %s --kernel in_loop --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not %tritonc compile %s --kernel local_def --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=LOCALDEF
# Names: a variable used before it is assigned, one assigned in only one
# branch of a runtime `if` or only inside a loop, and a local function.
# BEFORE: {{.*}}scope_errors.py:23:17: error: name 'v' is not defined
# BEFORE-NOT: error:
# BRANCH: {{.*}}scope_errors.py:31:17: error: name 'v' is not defined
# BRANCH: {{.*}}scope_errors.py:29:5: note: 'v' is assigned only in the then branch of this runtime `if`, and is not defined after it
# BRANCH-NOT: error:
# LOOP: {{.*}}scope_errors.py:38:17: error: name 'value' is not defined
# LOOP: {{.*}}scope_errors.py:36:5: note: 'value' is assigned only in the body of this `for` loop, and is not defined after it
# LOOP-NOT: error:
# LOCALDEF: {{.*}}scope_errors.py:43:5: error: nested function definition is not supported.
# LOCALDEF-NOT: error:
import triton
import triton.language as tl


@triton.jit
def before(x):
    tl.store(x, v)
    v = 1.0


@triton.jit
def one_branch(x, n):
    if n > 0:
        v = 1.0
    tl.store(x, v)


@triton.jit
def in_loop(x, n):
    for i in range(n):
        value = 1.0
    tl.store(x, value)


@triton.jit
def local_def(x):
    def f(v):
        return v
    tl.store(x, f(1.0))
