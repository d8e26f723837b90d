# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' -D BLOCK=16 --emit ttir-raw | FileCheck %s
# RUN: %tritonc compile %s --kernel k_cx --signature '*fp32:16' -D 'SHAPE=(2, 4, 2)' --emit ttir-raw | FileCheck %s --check-prefix=CX
# A @jit helper called with a tuple unpacked into its positional arguments
# (`step(*state, x)`, as RWKV's WKV kernels carry their (aa, bb, pp) state),
# alone, between other arguments, twice in one call, and with a constexpr
# among the elements; Triton's visit_Starred splices the tuple's values into
# the call. It was "starred arguments are not supported". A
# @triton.constexpr_function takes a constexpr tuple the same way.
# CHECK-LABEL: tt.func public @k
# CHECK: %[[X:.*]] = tt.load
# CHECK: %[[S:.*]]:3 = scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}})
# CHECK: tt.call @step{{.*}}(%[[A]], %[[B]], %[[C]], %[[X]])
# CHECK: %[[T:.*]]:3 = tt.call @step{{.*}}(%[[S]]#0, %[[S]]#0, %[[S]]#1, %[[X]])
# CHECK: tt.call @scaled{{.*}}2c2(%[[T]]#2, %[[S]]#1)
# CX-LABEL: tt.func public @k_cx
# CX: tt.make_range {end = 16 : i32, start = 0 : i32}
import triton
import triton.language as tl


@triton.jit
def step(a, b, c, x):
    return (a + x, b * x, tl.maximum(c, x))


@triton.jit
def scaled(a, b, FACTOR: tl.constexpr):
    return (a + b) * FACTOR


@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    state = (tl.zeros_like(x), tl.full((BLOCK,), 1.0, tl.float32), x)
    for i in range(3):
        state = step(*state, x)
    a, b = state[0], state[1]
    pair = (a, b)
    c = step(state[0], *pair, x)[2]
    tl.store(y_ptr + offs, scaled(*(c, b), *(2,)))


@triton.constexpr_function
def prod3(a, b, c):
    return a * b * c


@triton.jit
def k_cx(x_ptr, SHAPE: tl.constexpr):
    N: tl.constexpr = prod3(*SHAPE)
    offs = tl.arange(0, N)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)
