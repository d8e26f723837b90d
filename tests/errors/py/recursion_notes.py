# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel mutual --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MUTUAL
# A helper that calls itself with a constexpr that changes each time is
# generated anew at each depth until the limit: the error is at the
# innermost call and the chain of calls that led there follows, its repeats
# folded into one note (it was 64 identical notes). Recursion on runtime
# values is an error at the call that recurses.
# CHECK: {{.*}}recursion_notes.py:24:12: error: recursion too deep while generating grow
# CHECK-NEXT: {{ *}}24 |     return grow(v, N + 1)
# CHECK: {{.*}}recursion_notes.py:24:12: note: in the call of grow here
# CHECK: {{.*}}recursion_notes.py:24:12: note: (and 63 more nested calls of grow here)
# CHECK: {{.*}}recursion_notes.py:29:21: note: in the call of grow here
# CHECK-NOT: note:
# MUTUAL: {{.*}}recursion_notes.py:34:12: error: recursive @jit function ping is not supported
# MUTUAL: {{.*}}recursion_notes.py:39:12: note: in the call of pong here
# MUTUAL: {{.*}}recursion_notes.py:44:21: note: in the call of ping here
# MUTUAL-NOT: note:
import triton
import triton.language as tl


@triton.jit
def grow(v, N: tl.constexpr):
    return grow(v, N + 1)


@triton.jit
def k(x_ptr):
    tl.store(x_ptr, grow(tl.load(x_ptr), 3))


@triton.jit
def pong(n):
    return ping(n)


@triton.jit
def ping(n):
    return pong(n)


@triton.jit
def mutual(x_ptr, n):
    tl.store(x_ptr, ping(n))
