"""tritonc.runtime.autotuner - Triton's `triton.runtime.autotuner` names."""
from ..autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401

__all__ = ["Autotuner", "Config", "Heuristics", "autotune", "heuristics"]
