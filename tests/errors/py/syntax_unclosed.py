# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CHECK
# An unclosed bracket: the error is where the expression cannot go on, with
# a note at the bracket; the lines after it are not reported again.
# CHECK: {{.*}}syntax_unclosed.py:14:5: error: expected ')', saw 'tl'
# CHECK: {{.*}}syntax_unclosed.py:13:21: note: to match this '('
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x):
    v = tl.load(x + (1
    tl.store(x, v)


@triton.jit
def other(x):
    tl.store(x, 1.0)
