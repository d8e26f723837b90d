"""tritonc.language - what `import tritonc.language as tl` gives a kernel file:
dtypes, `constexpr`, type constructors and every builtin by name, laid out as
Triton's `triton.language` (`tl.math`, `tl.extra.cuda.libdevice`)."""
from . import core, extra, math, random, target_info  # noqa: F401
from .core import *  # noqa: F401,F403
from .core import __all__ as _core_all

__all__ = list(_core_all) + ["core", "extra", "math", "random", "target_info"]
