"""tritonc.backends.compiler - Triton's `GPUTarget` (what `triton.compile`
compiles for: `GPUTarget("cuda", 90, 32)`, `GPUTarget("cpu", "cpu", 1)`)."""
from ..runtime.driver import GPUTarget  # noqa: F401

__all__ = ["GPUTarget"]
