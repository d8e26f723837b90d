# tl.full of a float value for an integer dtype is an error, as in Triton
# (its builder's get_int32 takes no float): NaN was made 0 and 1.5 was 1,
# silently. 0.0 is the null value, allowed; ints out of range wrap as there.
# RUN: not %tritonc compile %s --kernel k --signature '*i32' --emit ttir 2>&1 | FileCheck %s
# RUN: %tritonc compile %s --kernel ok --signature '*i32' --emit ttir | FileCheck %s --check-prefix=OK
# CHECK: {{.*}}full_float_int.py:20:9: error: full(): the value nan is a float, and int32 is an integer dtype: pass an int (or a float dtype, or cast the tensor)
# CHECK-NEXT: {{ *}}20 |     a = tl.full((16,), float("nan"), tl.int32)
# CHECK-NEXT: {{ *}}|         ^~~~
# CHECK: {{.*}}full_float_int.py:21:9: error: full(): the value 1.5 is a float, and int8 is an integer dtype
# CHECK: {{.*}}full_float_int.py:22:9: error: full(): the value -inf is a float, and uint64 is an integer dtype
# CHECK-NOT: error:
# OK: arith.constant dense<1> : tensor<16xi32>
# OK: tt.store
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    a = tl.full((16,), float("nan"), tl.int32)
    b = tl.full((16,), 1.5, tl.int8)
    c = tl.full((16,), float("-inf"), tl.uint64)
    tl.store(x_ptr + tl.arange(0, 16), a + b + c.to(tl.int32))


@triton.jit
def ok(x_ptr):
    a = tl.full((16,), 0.0, tl.int32)
    b = tl.full((16,), 2.5, tl.int1)
    tl.store(x_ptr + tl.arange(0, 16), a + b)
