"""tritonc.backends - the names scripts import from Triton's `triton.backends`
(`triton.backends.compiler.GPUTarget`)."""
from . import compiler  # noqa: F401
