# fp64 math for tests/ptx/f64_math.sh: every function expand-f64-math rewrites
import triton
import triton.language as tl
from triton.language.extra import libdevice
@triton.jit
def k_all(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sin(x) + tl.cos(x) + libdevice.tanh(x) + tl.erf(x) + tl.rsqrt(x)
    tl.store(Y + tl.arange(0, N), y)
