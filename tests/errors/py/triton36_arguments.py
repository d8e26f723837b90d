# RUN: not %tritonc compile %s --kernel neg_start --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NEG
# RUN: not %tritonc compile %s --kernel neg_end --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NEGEND
# RUN: not %tritonc compile %s --kernel str_dtypes --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=STR
# Arguments Triton 3.6 rejects and tritonc took. tl.arange tests
# `start >> 32` and `end >> 32`, which is -1 for a negative bound: "arange
# must fit in int32" (tritonc made a range from -4). A dtype given as a string
# fails in Triton (a str has no to_ir or scalar); tritonc looked the name up,
# and tl.sum / tl.cumsum ignored a dtype that was no dtype. Each is reported
# at the argument.
# NEG: {{.*}}triton36_arguments.py:29:28: error: arange must fit in int32: its start (-4) is negative
# NEG-NOT: error:
# NEGEND: {{.*}}triton36_arguments.py:34:31: error: arange must fit in int32: its end (-1) is negative
# NEGEND-NOT: error:
# STR: {{.*}}triton36_arguments.py:40:31: error: zeros(): dtype must be a tl.dtype, not the string 'float32' (write tl.float32)
# STR: {{.*}}triton36_arguments.py:41:29: error: full(): dtype must be a tl.dtype, not the string 'fp16' (write tl.float16)
# STR: {{.*}}triton36_arguments.py:42:14: error: to(): dtype must be a tl.dtype, not the string 'fp16' (write tl.float16)
# STR: {{.*}}triton36_arguments.py:43:20: error: cast(): dtype must be a tl.dtype, not the string 'bfloat16' (write tl.bfloat16)
# STR: {{.*}}triton36_arguments.py:44:25: error: sum(): dtype must be a tl.dtype, not the string 'float64' (write tl.float64)
# STR: {{.*}}triton36_arguments.py:45:31: error: cumsum(): dtype must be a tl.dtype, not the string 'int64' (write tl.int64)
# STR: {{.*}}triton36_arguments.py:46:25: error: sum(): expected a dtype, got int
# STR: {{.*}}triton36_arguments.py:47:30: error: pointer_type(): element_ty must be a tl.dtype, not the string 'fp32' (write tl.float32)
# STR-NOT: error:
import triton
import triton.language as tl


@triton.jit
def neg_start(x):
    tl.store(x + tl.arange(-4, 4), 1.0)


@triton.jit
def neg_end(x):
    tl.store(x + tl.arange(0, -1), 1.0)


@triton.jit
def str_dtypes(x):
    v = tl.load(x + tl.arange(0, 16))
    a = tl.zeros((16,), dtype="float32")
    b = tl.full((16,), 1.0, "fp16")
    c = v.to("fp16")
    d = tl.cast(v, "bfloat16")
    e = tl.sum(v, dtype="float64")
    f = tl.cumsum(v, 0, dtype="int64")
    g = tl.sum(v, dtype=5)
    p = x.to(tl.pointer_type("fp32"))
    tl.store(x + tl.arange(0, 16), a + b + c + d + e + f + g)
