"""tritonc.compiler - the names scripts import from Triton's `triton.compiler`:
the compile errors (`triton.compiler.errors.CompilationError`) and the
compiled kernel's class."""
from . import errors  # noqa: F401
from .errors import CompilationError  # noqa: F401
from ..jit import CompiledKernel  # noqa: F401

__all__ = ["errors", "CompilationError", "CompiledKernel"]
