"""tritonc.compiler.errors - Triton's `triton.compiler.errors` names."""
from ..errors import CompilationError, OutOfResources  # noqa: F401

__all__ = ["CompilationError", "OutOfResources"]
