# fp64 libdevice calls for tests/ptx/f64_math.sh: expand-libdevice's formulas
# in fp64 over expand-f64-math's exp, log, sin, ...
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k_libdevice(X, Y, O, I, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    r = libdevice.pow(x, y) + libdevice.atan2(x, y) + libdevice.log1p(x) + libdevice.expm1(x)
    r += libdevice.cbrt(x) + libdevice.asinh(x) + libdevice.acosh(x) + libdevice.atanh(x) + libdevice.tan(x)
    r += libdevice.exp10(x) + libdevice.log10(x) + libdevice.hypot(x, y) + libdevice.fmod(x, y)
    r += libdevice.rint(x) + libdevice.round(x) + libdevice.trunc(x) + libdevice.erfc(x) + libdevice.tanh(x)
    tl.store(O + offs, r)
    tl.store(I + offs, libdevice.isnan(x) + libdevice.isinf(y) + libdevice.signbit(x) + libdevice.isfinited(y))
