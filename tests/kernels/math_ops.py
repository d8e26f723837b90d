# KERNEL: elementwise_math_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: gelu_tanh_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# The element-wise math library: selection, min/max (with NaN propagation),
# clamp, abs, sigmoid, erf, sqrt/rsqrt, log, sin/cos, fma, the tl.math
# spellings (exp2, log2, rsqrt, fma), floor/ceil, IEEE-rounded division and
# square root; and GELU (tanh form) through CUDA's libdevice.

import triton
import triton.language as tl
from triton.language.extra import libdevice

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)


@triton.jit
def elementwise_math_kernel(x_ptr, y_ptr, out_ptr, n, lo, hi, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    y = tl.load(y_ptr + offs, mask=ok, other=1.0)
    a = tl.where(x > y, x, y)
    b = tl.minimum(x, y) + tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
    c = tl.clamp(x, lo, hi)
    d = tl.abs(x) + tl.sigmoid(y) + tl.erf(x)
    e = tl.sqrt(tl.abs(x)) + tl.rsqrt(tl.abs(y) + 1.0) + tl.log(tl.abs(x) + 1.0)
    f = tl.sin(x) * tl.cos(y) + tl.fma(x, y, a)
    g = tl.math.exp2(x * 0.5) + tl.math.log2(tl.abs(y) + 2.0) + tl.exp(-x * x) + tl.math.rsqrt(y * y + 1.0)
    h = tl.floor(x) + tl.ceil(y) + tl.div_rn(x, y + 3.0) + tl.sqrt_rn(tl.abs(y)) + tl.math.fma(a, b, c)
    tl.store(out_ptr + offs, a + b + c + d + e + f + g + h, mask=ok)


@triton.jit
def gelu_tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0).to(tl.float32)
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(out_ptr + offs, y.to(tl.float16), mask=ok)
