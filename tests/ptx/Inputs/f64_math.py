# fp64 math for tests/ptx/f64_math.sh: every function expand-f64-math rewrites
import triton
import triton.language as tl
from triton.language.extra import libdevice
@triton.jit
def k_all(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sin(x) + tl.cos(x) + libdevice.tanh(x) + tl.erf(x) + tl.rsqrt(x)
    tl.store(Y + tl.arange(0, N), y)


# for tests/ptx/f64_sincos_sim.py: sin, cos and tan of every finite argument
# (past 2^31 the exact reduction, in a tt.map_elementwise on a tensor, a
# plain scf.if on a scalar)
@triton.jit
def k_trig(X, S, C, T, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    tl.store(S + o, tl.sin(x))
    tl.store(C + o, libdevice.cos(x))
    tl.store(T + o, libdevice.tan(x))


@triton.jit
def k_trig_scalar(x, S):
    tl.store(S, tl.sin(x))
    tl.store(S + 1, tl.cos(x))
