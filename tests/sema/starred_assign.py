# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' -D BLOCK=16 --emit ttir-raw | FileCheck %s
# Starred unpacking in an assignment, as Python does it: `a, *rest = t`
# gives rest the tuple of what the other targets leave (here two tensors,
# then none, then one in the middle), and rest is an ordinary tuple after.
# It was "unsupported assignment target", with a wrong "cannot unpack"
# before it and "name 'rest' is not defined" after.
# CHECK-LABEL: tt.func public @k
# CHECK: %[[X:.*]] = tt.load
# CHECK: %[[A:.*]] = arith.addf %[[X]], %[[X]]
# CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[X]]
# CHECK: %[[S:.*]] = arith.subf %[[A]], %[[M]]
# CHECK: %[[D:.*]] = arith.divf %[[S]], %[[X]]
# CHECK: tt.store %{{.*}}, %[[D]]
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    t = (x, x + x, x * x)
    first, *rest = t
    tl.static_assert(len(rest) == 2)
    *none, last = (first,)
    tl.static_assert(len(none) == 0)
    a, *mid, z = (rest[0], rest[1], last)
    y = (a - mid[0]) / z
    tl.store(y_ptr + offs, y)
