# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# Unpacking errors name the counts, and each is reported once: the names
# of a failed unpacking are still defined, so their later uses say nothing.
# CHECK: {{.*}}starred_assign.py:19:5: error: cannot unpack a tuple of 3 values into 2 targets
# CHECK: {{.*}}starred_assign.py:20:5: error: cannot unpack a tuple of 1 value into 2 targets and a starred one
# CHECK: {{.*}}starred_assign.py:21:12: error: multiple starred expressions in assignment
# CHECK: {{.*}}starred_assign.py:22:5: error: starred assignment target must be in a list or tuple
# CHECK: {{.*}}starred_assign.py:23:5: error: cannot unpack tensor into 2 values
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    t = (x, x, x)
    a, b = t
    u, *v, w = (x,)
    p, *q, *r = t
    *s = t
    g, h = n
    tl.store(x_ptr + offs, a + b + u + v[0] + w + p + q[0] + r[0] + s[0] + g + h)
