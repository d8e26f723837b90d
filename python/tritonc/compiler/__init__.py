"""tritonc.compiler - the names scripts import from Triton's `triton.compiler`:
the compile errors (`triton.compiler.errors.CompilationError`), the
compiled kernel's class and ahead-of-time compiles (`ASTSource`, `compile`)."""
from . import errors  # noqa: F401
from .errors import CompilationError  # noqa: F401
from ..jit import CompiledKernel  # noqa: F401
from . import compiler  # noqa: F401
from .compiler import ASTSource, compile  # noqa: F401
from ..runtime.driver import GPUTarget  # noqa: F401

__all__ = ["errors", "compiler", "CompilationError", "CompiledKernel", "ASTSource", "compile",
           "GPUTarget"]
