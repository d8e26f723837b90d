"""tritonc.runtime.jit - Triton's `triton.runtime.jit` names."""
from ..jit import CompiledKernel, JITFunction, KernelInterface, jit  # noqa: F401

__all__ = ["CompiledKernel", "JITFunction", "KernelInterface", "jit", "TensorWrapper", "reinterpret"]


def __getattr__(name):
    # defined in tritonc/__init__.py, which imports this module first
    if name in ("TensorWrapper", "reinterpret"):
        import tritonc
        return getattr(tritonc, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
