"""tritonc.runtime.jit - Triton's `triton.runtime.jit` names."""
from ..jit import CompiledKernel, JITFunction, KernelInterface, jit  # noqa: F401

__all__ = ["CompiledKernel", "JITFunction", "KernelInterface", "jit"]
