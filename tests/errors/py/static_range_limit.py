# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel nested --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NESTED
# RUN: %tritonc compile %s --kernel ok --signature '*fp32' --emit ttir | FileCheck %s --check-prefix=OK
# RUN: not %tritonc compile %s --kernel cf --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CF
# tl.static_range unrolls at compile time: a loop of 10**8 used to run for
# minutes and take gigabytes; the iterations a compile unrolls are capped
# (nested loops count in all), with an error at the loop.
# CHECK: {{.*}}static_range_limit.py:22:14: error: static_range() would unroll 100000000 iterations, more than tritonc's limit of 262144; use range() or tl.range() for a loop that runs at run time
# NESTED: {{.*}}static_range_limit.py:29:18: error: static_range() would unroll 1024 more iterations, past tritonc's limit of 262144 unrolled iterations in all (262144 so far)
# NESTED-NOT: error:
# OK: tt.store
# A @triton.constexpr_function runs its loops at compile time: capped as its
# `while` loops are.
# CF: {{.*}}static_range_limit.py:43:14: error: this loop of a @triton.constexpr_function would run 10000000 times, more than a million
# CF-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    for i in tl.static_range(100000000):
        tl.store(x_ptr + i, 1.0)


@triton.jit
def nested(x_ptr):
    for i in tl.static_range(1024):
        for j in tl.static_range(1024):
            tl.store(x_ptr + j, 1.0)


@triton.jit
def ok(x_ptr):
    for i in tl.static_range(4):
        for j in tl.static_range(0, 64, 2):
            tl.store(x_ptr + i + j, 1.0)


@triton.constexpr_function
def count(n):
    c = 0
    for i in range(n):
        c += 1
    return c


@triton.jit
def cf(x_ptr):
    tl.store(x_ptr, count(10**7))
    tl.store(x_ptr, count(1000))
