import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def libm_kernel(x_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok)
    if FN == "sin":
        y = tl.sin(x)
    elif FN == "cos":
        y = tl.cos(x)
    elif FN == "log":
        y = tl.log(x)
    elif FN == "log2":
        y = tl.log2(x)
    elif FN == "erf":
        y = tl.erf(x)
    elif FN == "tanh":
        y = libdevice.tanh(x)
    elif FN == "exp":
        y = tl.exp(x)
    elif FN == "exp2":
        y = tl.exp2(x)
    elif FN == "sqrt":
        y = tl.sqrt(x)
    elif FN == "rsqrt":
        y = tl.rsqrt(x)
    elif FN == "fast_sinf":
        y = libdevice.fast_sinf(x)
    else:
        y = libdevice.fast_logf(x)
    tl.store(out_ptr + offs, y, mask=ok)
