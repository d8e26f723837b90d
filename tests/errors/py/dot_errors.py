# RUN: not %tritonc compile %s --kernel inner --signature '*fp16' --emit ttir 2>&1 | FileCheck %s --check-prefix=INNER
# RUN: not %tritonc compile %s --kernel rank1 --signature '*fp16' --emit ttir 2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not %tritonc compile %s --kernel small --signature '*fp16' --emit ttir 2>&1 | FileCheck %s --check-prefix=SMALL
# RUN: not %tritonc compile %s --kernel mixed --signature '*fp16,*i8' --emit ttir 2>&1 | FileCheck %s --check-prefix=MIXED
# RUN: not %tritonc compile %s --kernel acc_shape --signature '*fp16' --emit ttir 2>&1 | FileCheck %s --check-prefix=ACC
# RUN: not %tritonc compile %s --kernel precision --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=PREC
# RUN: not %tritonc compile %s --kernel tf32_both --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=TF32
# RUN: not %tritonc compile %s --kernel out_bf16 --signature '*bf16' --emit ttir 2>&1 | FileCheck %s --check-prefix=BF16
# RUN: not %tritonc compile %s --kernel out_int --signature '*fp16' --emit ttir 2>&1 | FileCheck %s --check-prefix=OUTINT
# tl.dot's operands are checked at the call, with Triton's messages: the
# inner dimensions, the rank, the minimum K (M and N: any, since Triton 3.5),
# the dtypes, the accumulator's type and the precision options. fp16 operands accumulate
# in fp32 or fp16: another out_dtype is an error (it was ignored, the
# result fp32; Triton makes IR it cannot verify).
# INNER: {{.*}}dot_errors.py:41:9: error: First input shape (<[32, 32], fp16>) and second input shape <[16, 32], fp16> are not compatible for matmul (second index of first shape (32) must be equal to first index of second shape (16)
# INNER-NOT: error:
# RANK: {{.*}}dot_errors.py:48:17: error: Both inputs must be either 2D or 3D; (lhs: <[32], fp16> vs rhs: <[32], fp16>)
# RANK-NOT: error:
# SMALL: {{.*}}dot_errors.py:55:21: error: Input shapes should have M >= 1, N >= 1 and K >= 16
# SMALL-NOT: error:
# MIXED: {{.*}}dot_errors.py:61:9: error: Both operands must be same dtype. Got fp16 and int8
# MIXED-NOT: error:
# ACC: {{.*}}dot_errors.py:69:9: error: dot(): acc must have type <[16, 16], fp32>, got <[32, 32], fp32>
# ACC-NOT: error:
# PREC: {{.*}}dot_errors.py:77:21: error: input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got bogus
# PREC-NOT: error:
# TF32: {{.*}}dot_errors.py:84:21: error: Only one of input_precision and allow_tf32 can be specified
# TF32-NOT: error:
# BF16: {{.*}}dot_errors.py:91:21: error: out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`
# BF16-NOT: error:
# OUTINT: {{.*}}dot_errors.py:98:21: error: dot(): out_dtype must be float32 or float16 for fp16 operands, got int32
# OUTINT-NOT: error:
import triton
import triton.language as tl


@triton.jit
def inner(x):
    a = tl.load(x + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(x + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot(a, b)
    tl.store(x + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c.to(tl.float16))


@triton.jit
def rank1(x):
    a = tl.load(x + tl.arange(0, 32))
    tl.store(x, tl.dot(a, a))


@triton.jit
def small(x):
    o = tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :]
    a = tl.load(x + o)
    tl.store(x + o, tl.dot(a, a).to(tl.float16))


@triton.jit
def mixed(x, y):
    o = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    c = tl.dot(tl.load(x + o), tl.load(y + o))
    tl.store(x + o, c.to(tl.float16))


@triton.jit
def acc_shape(x):
    o = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    a = tl.load(x + o)
    c = tl.dot(a, a, acc=tl.zeros((32, 32), tl.float32))
    tl.store(x + o, c.to(tl.float16))


@triton.jit
def precision(x):
    o = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    a = tl.load(x + o)
    tl.store(x + o, tl.dot(a, a, input_precision="bogus"))


@triton.jit
def tf32_both(x):
    o = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    a = tl.load(x + o)
    tl.store(x + o, tl.dot(a, a, allow_tf32=False, input_precision="ieee"))


@triton.jit
def out_bf16(x):
    o = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    a = tl.load(x + o)
    tl.store(x + o, tl.dot(a, a, out_dtype=tl.bfloat16))


@triton.jit
def out_int(x):
    o = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    a = tl.load(x + o)
    tl.store(x + o, tl.dot(a, a, out_dtype=tl.int32).to(tl.float16))
