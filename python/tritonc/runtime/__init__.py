"""tritonc.runtime - Triton's `triton.runtime` names: the JIT, the autotuner
and a `driver` that reports the active device."""
from ..autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401
from ..errors import OutOfResources  # noqa: F401
from ..jit import JITFunction, KernelInterface  # noqa: F401
from . import autotuner, driver, errors, jit  # noqa: F401
