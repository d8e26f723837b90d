# RUN: not %tritonc compile %s --kernel redefine --signature '*fp32' -D K=3 --emit ttir 2>&1 | FileCheck %s --check-prefix=REDEF
# RUN: not %tritonc compile %s --kernel over_tuple --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=TUPLE
# An error in the body of a tl.static_range loop (or of a loop over a
# tuple) is reported once, from the iteration where it first happens:
# Triton stops there, and the unrolling used to repeat every message once
# per later iteration (eight copies of each below). `kh: tl.constexpr = ...`
# in an unrolled body is Triton's error on the second iteration.
# REDEF: {{.*}}static_loop_errors.py:23:9: error: kh is already defined. constexpr cannot be reassigned.
# REDEF-NEXT: kh: tl.constexpr = tap // K
# REDEF: {{.*}}static_loop_errors.py:24:9: error: kw is already defined. constexpr cannot be reassigned.
# REDEF-NOT: error:
# TUPLE: {{.*}}static_loop_errors.py:33:13: error: axis 2 is out of bounds for a tensor of rank 1
# TUPLE-NOT: error:
import triton
import triton.language as tl


@triton.jit
def redefine(x_ptr, K: tl.constexpr):
    offs = tl.arange(0, 16)
    acc = tl.zeros((16,), tl.float32)
    for tap in tl.static_range(K * K):
        kh: tl.constexpr = tap // K
        kw: tl.constexpr = tap % K
        acc += tl.load(x_ptr + offs * kh + kw)
    tl.store(x_ptr + offs, acc)


@triton.jit
def over_tuple(x_ptr):
    offs = tl.arange(0, 16)
    for s in (1.0, 2.0, 3.0):
        x = tl.sum(tl.load(x_ptr + offs) * s, 2)
        tl.store(x_ptr, x)
