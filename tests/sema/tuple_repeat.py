# RUN: %tritonc compile %s --kernel k --signature '*fp32:16' -D N_DIMS=4 --emit ttir-raw | FileCheck %s
# RUN: not %tritonc compile %s --kernel bad --signature '*fp32:16' --emit ttir 2>&1 | FileCheck %s --check-prefix=BAD
# A constexpr tuple (or list) times an int repeats it, as Triton's own
# standard library writes its hypercube reshape (`core.reshape(x, [2] *
# n_dims)`); a repetition count of 0 or less gives the empty tuple.
# CHECK: tt.reshape {{.*}} : tensor<16xf32> -> tensor<2x2x2x2xf32>
# CHECK: tt.reshape {{.*}} : tensor<2x2x2x2xf32> -> tensor<4x4xf32>
# CHECK: tt.reshape {{.*}} : tensor<4x4xf32> -> tensor<2x8xf32>
# BAD: {{.*}}tuple_repeat.py:30:23: error: can't multiply sequence by non-int of type 'float'
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, N_DIMS: tl.constexpr):
    offs = tl.arange(0, 2 ** N_DIMS)
    x = tl.load(x_ptr + offs)
    h = tl.reshape(x, [2] * N_DIMS)
    y = tl.reshape(h, (4,) * 2)
    tl.static_assert(len((1,) * 3) == 3)
    tl.static_assert(len((5, 6) * 0) == 0)
    tl.static_assert(len((5,) * -2) == 0)
    z = tl.reshape(y, (2,) + (8,) * 1)
    tl.store(x_ptr + offs, tl.reshape(z, [2 ** N_DIMS]))


@triton.jit
def bad(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    x = tl.reshape(x, (2,) * 1.5)
    tl.store(x_ptr, 0.0)
