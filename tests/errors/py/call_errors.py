# RUN: not %tritonc compile %s --kernel undefined --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=UNDEF
# RUN: not %tritonc compile %s --kernel arity --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ARITY
# RUN: not %tritonc compile %s --kernel not_callable --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NOTCALL
# RUN: not %tritonc compile %s --kernel nested --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NESTED
# RUN: not %tritonc compile %s --kernel combine --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=COMBINE
# RUN: not %tritonc compile %s --kernel varargs --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=VARARGS
# RUN: not %tritonc compile %s --kernel returns --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=RETURNS
# Calls: an undefined function, a @jit helper given too few, too many or
# unknown arguments, a tensor unpacked with *, calling a tensor or a dtype, and
# launching a kernel from a kernel, a helper with *args (an error at the
# parameter: it was "takes 1 positional arguments but 2 were given"), a
# kernel that returns a value. An error inside helpers is reported where it
# is, with a note at each call that led there, innermost first.
# UNDEF: {{.*}}call_errors.py:49:17: error: name 'foo' is not defined
# UNDEF-NOT: error:
# ARITY: {{.*}}call_errors.py:54:17: error: helper() missing required argument 'b'
# ARITY: {{.*}}call_errors.py:55:17: error: helper() got an unexpected keyword argument 'c'
# ARITY: {{.*}}call_errors.py:56:17: error: helper() takes 2 positional arguments but 3 were given
# ARITY: {{.*}}call_errors.py:58:24: error: only tuples can be unpacked with *
# ARITY-NOT: error:
# NOTCALL: {{.*}}call_errors.py:69:17: error: 'tensor' object is not callable
# NOTCALL: {{.*}}call_errors.py:70:17: error: dtype objects are not callable
# NOTCALL: {{.*}}call_errors.py:71:5: error: 'JITFunction' object is not subscriptable
# NOTCALL-NOT: error:
# NESTED: {{.*}}call_errors.py:76:12: error: axis 3 is out of bounds for a tensor of rank 1
# NESTED: {{.*}}call_errors.py:81:12: note: in the call of inner here
# NESTED: {{.*}}call_errors.py:86:17: note: in the call of outer here
# NESTED-NOT: error:
# COMBINE: {{.*}}call_errors.py:102:17: error: the combine function returns 2 values but 1 were expected
# COMBINE: {{.*}}call_errors.py:103:17: error: three_args() missing required argument 'c'
# COMBINE: {{.*}}call_errors.py:104:17: error: reduce(): combine_fn must be a @triton.jit function
# COMBINE-NOT: error:
# VARARGS: {{.*}}call_errors.py:108:12: error: *args and **kwargs are not supported in @triton.jit functions
# VARARGS: {{.*}}call_errors.py:114:17: note: in the call of first here
# VARARGS-NOT: error:
# RETURNS: {{.*}}call_errors.py:119:5: error: a kernel cannot return a value
# RETURNS-NOT: error:
import triton
import triton.language as tl


@triton.jit
def helper(a, b):
    return a + b


@triton.jit
def undefined(x):
    tl.store(x, foo(1))


@triton.jit
def arity(x):
    tl.store(x, helper(1))
    tl.store(x, helper(1, c=2))
    tl.store(x, helper(1, 2, 3))
    t = tl.load(x)
    tl.store(x, helper(*t))


@triton.jit
def other(x):
    tl.store(x, 1.0)


@triton.jit
def not_callable(x):
    v = tl.load(x)
    tl.store(x, v(1))
    tl.store(x, tl.float32(v))
    other[(1,)](x)


@triton.jit
def inner(v):
    return tl.sum(v, axis=3)


@triton.jit
def outer(v):
    return inner(v) * 2


@triton.jit
def nested(x):
    tl.store(x, outer(tl.load(x + tl.arange(0, 16))))


@triton.jit
def two_results(a, b):
    return a + b, a


@triton.jit
def three_args(a, b, c):
    return a + b


@triton.jit
def combine(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x, tl.reduce(v, 0, two_results))
    tl.store(x, tl.reduce(v, 0, three_args))
    tl.store(x, tl.reduce(v, 0, 3))


@triton.jit
def first(*args):
    return args[0]


@triton.jit
def varargs(x):
    tl.store(x, first(1.0, 2.0))


@triton.jit
def returns(x):
    return tl.load(x)
