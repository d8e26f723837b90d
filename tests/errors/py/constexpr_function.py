# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' -D N=128 --emit ttir 2>&1 | FileCheck %s
# A @triton.constexpr_function runs at compile time on constexprs: a runtime
# argument, Python the kernel language lacks and a result that is not a
# constexpr are errors at their expressions, with a note at the call.
# CHECK: {{.*}}constexpr_function.py:31:14: error: argument 1 of @triton.constexpr_function half is not a constexpr (tensor)
# CHECK: {{.*}}constexpr_function.py:20:12: error: 'int' object has no attribute 'to_bytes'
# CHECK: {{.*}}constexpr_function.py:32:9: note: in the call of nbits here
# CHECK: {{.*}}constexpr_function.py:33:9: error: @triton.constexpr_function offsets did not return a constexpr
import triton
import triton.language as tl


@triton.constexpr_function
def half(n):
    return n // 2


@triton.constexpr_function
def nbits(n):
    return n.to_bytes(2, "little")


@triton.constexpr_function
def offsets(n):
    return tl.arange(0, n)


@triton.jit
def k(x_ptr, n, N: tl.constexpr):
    a = half(N)
    b = half(n)
    c = nbits(N)
    d = offsets(N)
    tl.store(x_ptr, a + b + c)
