# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*i32' --emit ttir 2>&1 | FileCheck %s
# propagate_nan is a tl.PropagateNan: NONE (0) or ALL (0xffff). clamp read
# it into an int (2**32 + 0xffff became 0xffff, 2**32 became NONE) and took
# any other nonzero value as ALL; minimum and maximum took any truthy value
# as ALL. Triton 3.6 rejects these (create_clampf takes only the enum;
# minimum/maximum of floats raise "Unexpected propagate_nan"), so each is an
# error at the argument. On ints minimum/maximum read no propagate_nan.
# CHECK: {{.*}}propagate_nan_value.py:22:45: error: clamp(): propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got 4295032831
# CHECK: {{.*}}propagate_nan_value.py:23:45: error: clamp(): propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got 4294967296
# CHECK: {{.*}}propagate_nan_value.py:24:45: error: clamp(): propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got True
# CHECK: {{.*}}propagate_nan_value.py:25:42: error: maximum(): propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got 1
# CHECK: {{.*}}propagate_nan_value.py:26:42: error: minimum(): propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got all
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, i_ptr):
    x = tl.load(x_ptr)
    i = tl.load(i_ptr)
    a = tl.clamp(x, 0.0, 1.0, propagate_nan=2**32 + tl.PropagateNan.ALL)
    b = tl.clamp(x, 0.0, 1.0, propagate_nan=2**32)
    c = tl.clamp(x, 0.0, 1.0, propagate_nan=True)
    d = tl.maximum(x, 1.0, propagate_nan=1)
    e = tl.minimum(x, 1.0, propagate_nan="all")
    f = tl.clamp(x, 0.0, 1.0, propagate_nan=tl.PropagateNan.ALL)
    g = tl.minimum(x, f, propagate_nan=tl.PropagateNan.NONE)
    j = tl.maximum(i, 3, propagate_nan=7)
    tl.store(x_ptr, a + b + c + d + e + g)
    tl.store(i_ptr, j)
