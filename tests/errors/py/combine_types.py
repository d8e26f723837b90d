# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# A @jit combine function whose result has another type than the inputs'
# elements is rejected, as Triton's verifier does ("type mismatch on
# combine operation"): it was cast back to the input's type, so a float
# sum through .to(tl.int32) truncated every partial sum, silently.
# CHECK: {{.*}}combine_types.py:26:9: error: type mismatch on combine operation: the combine function's result 0 is int32, but the input's element type is fp32
# CHECK: {{.*}}combine_types.py:27:9: error: type mismatch on combine operation: the combine function's result 0 is int32, but the input's element type is fp32
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def add_trunc(a, b):
    return (a + b).to(tl.int32)


@triton.jit
def add(a, b):
    return a + b


@triton.jit
def k(x):
    v = tl.load(x + tl.arange(0, 16))
    s = tl.reduce(v, 0, add_trunc)
    c = tl.associative_scan(v, 0, add_trunc)
    ok = tl.reduce(v, 0, add) + tl.associative_scan(v, 0, add)
    tl.store(x + tl.arange(0, 16), ok + s + c)
