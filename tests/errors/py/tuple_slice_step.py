# RUN: not %tritonc compile %s --kernel k --signature '*i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# A tuple slice with a step has Python's meaning, as tl.tuple.__getitem__
# gives it (was "slices must have constexpr integer bounds and no step"):
# the static_asserts hold; a zero step, and a step on a tensor, are errors.
# CHECK-NOT: static_assert failed
# CHECK: {{.*}}tuple_slice_step.py:27:9: error: slice step cannot be zero
# CHECK-NOT: static_assert failed
# CHECK: {{.*}}tuple_slice_step.py:28:14: error: slices must have constexpr integer bounds and no step
# CHECK-NOT: error:
import triton
import triton.language as tl

T7 = tl.constexpr((1, 2, 3, 4, 5, 6, 7))


@triton.jit
def k(o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.static_assert(T7[::-1] == (7, 6, 5, 4, 3, 2, 1))
    tl.static_assert(T7[::2] == (1, 3, 5, 7) and T7[1::3] == (2, 5) and T7[5:1:-2] == (6, 4))
    tl.static_assert(T7[-2::-3] == (6, 3) and T7[:-8:-1] == (7, 6, 5, 4, 3, 2, 1))
    tl.static_assert(T7[10:0:-1] == (7, 6, 5, 4, 3, 2) and T7[::100] == (1,) and T7[3:3:-1] == ())
    tl.static_assert(T7[-100:100:2] == (1, 3, 5, 7) and T7[:2:] == (1, 2))
    x = tl.split(tl.reshape(tl.join(offs, offs * 2), [BLOCK, 2]))[::-1]
    tl.static_assert(x[0].shape == (BLOCK,))
    tl.store(o_ptr + offs, x[0] - x[1])
    y = T7[::0]
    z = offs[::2]
