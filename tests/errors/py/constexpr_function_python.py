# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D N=8 --emit ttir 2>&1 | FileCheck %s
# What a @triton.constexpr_function's plain Python may do that a kernel may
# not: a generator expression, a comprehension over range() and tuple()
# are errors in the kernel itself (as in Triton); math.factorial past
# 64 bits and tuple() of a number are errors in the function, with a note
# at the call.
# CHECK: {{.*}}constexpr_function_python.py:33:26: error: generator expressions are not supported in Triton kernels
# CHECK: {{.*}}constexpr_function_python.py:34:9: error: list comprehensions are only supported over tuples in Triton kernels, not over range()
# CHECK: {{.*}}constexpr_function_python.py:35:9: error: the Python builtin 'tuple' is not supported in Triton kernels
# CHECK: {{.*}}constexpr_function_python.py:23:12: error: math.factorial(21) does not fit in 64 bits, the largest integer tritonc's constexprs hold
# CHECK: {{.*}}constexpr_function_python.py:36:9: note: in the call of big here
# CHECK: {{.*}}constexpr_function_python.py:28:12: error: tuple() of int in a @triton.constexpr_function: tritonc iterates tuples, lists, comprehensions and generator expressions
# CHECK: {{.*}}constexpr_function_python.py:37:9: note: in the call of of_int here
# CHECK-NOT: error:
import math

import triton
import triton.language as tl


@triton.constexpr_function
def big(n):
    return math.factorial(n + 13)


@triton.constexpr_function
def of_int(n):
    return tuple(n)


@triton.jit
def k(x_ptr, N: tl.constexpr):
    a = tl.static_assert(i for i in (1, 2))
    b = [i for i in range(N)]
    c = tuple((1, 2))
    d = big(N)
    e = of_int(N)
    tl.store(x_ptr, N)
