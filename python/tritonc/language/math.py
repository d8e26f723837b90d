"""tritonc.language.math - `tl.math.exp2` and friends (kernel-only builtins)."""
from .core import _builtins

__all__ = _builtins(globals(), "tritonc.language.math", """
    abs ceil cos div_rn erf exp exp2 fdiv floor fma log log2 rsqrt sin sqrt sqrt_rn umulhi
    cdiv max min maximum minimum clamp sigmoid softmax tanh pow
""")


def __getattr__(name):
    # Triton 2's tl.math was libdevice: tl.math.pow, tl.math.log1p, ...
    from .extra import libdevice
    try:
        return getattr(libdevice, name)
    except AttributeError:
        raise AttributeError("module 'tritonc.language.math' has no attribute %r" % name) from None
