# RUN: not %tritonc compile %s --kernel k --signature '*i32' --emit ttir 2>&1 | FileCheck %s
# tl.expand_dims checks its axes as Triton does: each against the rank of
# the result, after which two that name the same dimension are an error
# (they were inserted twice before).
# CHECK: {{.*}}expand_dims_axes.py:16:9: error: invalid axis -3. Expected -2 <= axis < 2
# CHECK: {{.*}}expand_dims_axes.py:17:9: error: expand_dims received duplicate axes, normalized axes = [0, 0]
# CHECK: {{.*}}expand_dims_axes.py:18:9: error: expand_dims received duplicate axes, normalized axes = [0, 0]
# CHECK: {{.*}}expand_dims_axes.py:19:9: error: invalid axis 4. Expected -4 <= axis < 4
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x):
    a = tl.expand_dims(tl.arange(0, 8), -3)
    b = tl.expand_dims(tl.arange(0, 8), (0, 0))
    c = tl.expand_dims(tl.arange(0, 8), (0, -3))
    d = tl.expand_dims(tl.arange(0, 8), (0, 1, 4))
    e = tl.expand_dims(tl.arange(0, 8), (-4, 2, -1))
    tl.static_assert(e.shape == [1, 8, 1, 1])
