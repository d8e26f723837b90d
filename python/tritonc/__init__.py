"""tritonc - Triton's Python API over libtritonc (a Triton compiler in C).

    import tritonc as triton
    import tritonc.language as tl

and a Triton script runs unchanged: `@triton.jit`, `kernel[grid](...)`,
`triton.autotune`, `triton.heuristics`, `triton.Config`, `triton.cdiv`,
`triton.next_power_of_2`, `triton.testing`. Pure Python over ctypes; the
library is opened on first compile (see _lib.py for where it is looked for).
"""
from . import language, runtime, testing  # noqa: F401
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401
from .errors import CompilationError, LaunchError, OutOfResources  # noqa: F401
from .jit import CompiledKernel, JITFunction, KernelInterface, jit  # noqa: F401
from ._spec import ArgumentError  # noqa: F401

# Scripts compare triton.__version__ to pick an API ("3.0.0" and later:
# triton.language.extra.libdevice, ...): report the Triton language version
# tritonc implements; tritonc's own version is __tritonc_version__.
__version__ = "3.6.0"
__tritonc_version__ = "0.1.0"


def cdiv(x, y):
    """ceil(x / y) for ints."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()


def constexpr_function(fn):
    """Triton's @triton.constexpr_function: a plain Python function that a
    kernel may call on constexprs, at compile time. tritonc's compiler runs
    its body from the kernel's source (src/sema/codegen.c,
    call_constexpr_fn); on the host it stays an ordinary function."""
    fn._tritonc_constexpr_function = True
    return fn


_allocator = None


def set_allocator(allocator):
    """Triton's hook for the global scratch memory that device-side tensor
    descriptors (`tl.make_tensor_descriptor`) need on Hopper. tritonc lowers
    descriptors to block pointers, which need none: the allocator is kept
    only so that scripts calling this run unchanged."""
    global _allocator
    _allocator = allocator


__all__ = ["jit", "constexpr_function", "set_allocator", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2", "language",
           "testing", "runtime", "CompilationError", "OutOfResources", "JITFunction",
           "Autotuner", "Heuristics", "CompiledKernel", "KernelInterface", "ArgumentError"]
