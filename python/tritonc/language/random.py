"""tritonc.language.random - Philox-based random numbers (kernel-only builtins)."""
from .core import _builtins

N_ROUNDS_DEFAULT = 10
__all__ = _builtins(globals(), "tritonc.language.random", """
    philox philox_impl rand rand4x randint randint4x randn randn4x
    pair_uniform_to_normal uint_to_uniform_float
""") + ["N_ROUNDS_DEFAULT"]
