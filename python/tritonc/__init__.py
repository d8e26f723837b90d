"""tritonc - Triton's Python API over libtritonc (a Triton compiler in C).

    import tritonc as triton
    import tritonc.language as tl

and a Triton script runs unchanged: `@triton.jit`, `kernel[grid](...)`,
`triton.autotune`, `triton.heuristics`, `triton.Config`, `triton.cdiv`,
`triton.next_power_of_2`, `triton.testing`. Pure Python over ctypes; the
library is opened on first compile (see _lib.py for where it is looked for).
"""
import importlib.abc as _importlib_abc
import importlib.util as _importlib_util
import sys as _sys

from . import knobs, language, runtime, testing  # noqa: F401
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401
from .errors import CompilationError, LaunchError, OutOfResources, TritonError  # noqa: F401
from .jit import CompiledKernel, JITFunction, KernelInterface, jit  # noqa: F401
from ._spec import ArgumentError  # noqa: F401
from . import backends, compiler, profiler  # noqa: F401
from .compiler.compiler import compile  # noqa: F401,A001

# Scripts compare triton.__version__ to pick an API ("3.0.0" and later:
# triton.language.extra.libdevice, ...): report the Triton language version
# tritonc implements; tritonc's own version is __tritonc_version__.
__version__ = "3.6.0"
__tritonc_version__ = "0.1.0"


def cdiv(x, y):
    """ceil(x / y) for ints."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n; 0 for n <= 0, as Triton's (which
    smears n - 1's bits right and adds one)."""
    n = int(n)
    if n <= 0:
        return 0
    return 1 << (n - 1).bit_length()


def constexpr_function(fn):
    """Triton's @triton.constexpr_function: a plain Python function that a
    kernel may call on constexprs, at compile time. tritonc's compiler runs
    its body from the kernel's source (src/sema/codegen.c,
    call_constexpr_fn); on the host it stays an ordinary function."""
    fn._tritonc_constexpr_function = True
    return fn


class TensorWrapper:
    """A tensor seen as another element type (`triton.reinterpret`): a
    kernel argument that is the same data pointer with `dtype` as its
    element type in the signature (e.g. uint8 storage as tl.float8e5)."""

    def __init__(self, base, dtype):
        self.base, self.dtype = base, dtype
        self.device = base.device
        self.shape = self.base.shape

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def element_size(self):
        return self.base.element_size()

    def numel(self):
        return self.base.numel()

    def dim(self):
        return self.base.dim()

    def __str__(self):
        return "TensorWrapper[%s](%r)" % (self.dtype, self.base)


def reinterpret(tensor, dtype):
    """Triton's `triton.reinterpret`: `tensor` as a tensor of `dtype` (a
    tl dtype of the same size) for a kernel launch; a TensorWrapper given
    its base's dtype (or a torch tensor given a torch dtype) is unwrapped."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError("cannot reinterpret a %s" % type(tensor).__name__)


_allocator = None


def set_allocator(allocator):
    """Triton's hook for the global scratch memory that device-side tensor
    descriptors (`tl.make_tensor_descriptor`) need on Hopper. tritonc lowers
    descriptors to block pointers, which need none: the allocator is kept
    only so that scripts calling this run unchanged."""
    global _allocator
    _allocator = allocator


__all__ = ["jit", "knobs", "constexpr_function", "set_allocator", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2", "language",
           "testing", "runtime", "CompilationError", "OutOfResources", "JITFunction",
           "Autotuner", "Heuristics", "CompiledKernel", "KernelInterface", "ArgumentError",
           "TritonError", "LaunchError", "TensorWrapper", "reinterpret", "compile", "compiler",
           "backends"]


class _TritonAlias(_importlib_abc.MetaPathFinder, _importlib_abc.Loader):
    """A script (or a test harness) that runs unchanged Triton code by
    `sys.modules["triton"] = tritonc` finds `import triton.X` served by
    Python's path finder from tritonc's folder, as a second copy of
    tritonc.X under the name triton.X: a second `triton.language.core`
    (set as tl.core), whose builtins (`from triton.language.extra.libdevice
    import fast_expf`) the binding then took for foreign objects, and a
    second jit module. While "triton" is this package, triton.X is
    tritonc.X itself."""

    def __init__(self):
        self._specs = {}  # alias name -> the module's own __spec__, while it is imported

    def find_spec(self, name, path=None, target=None):
        if not name.startswith("triton.") or _sys.modules.get("triton") is not _sys.modules.get(__name__):
            return None
        real = __name__ + name[len("triton"):]
        try:
            __import__(real)
        except ImportError:
            return None
        return _importlib_util.spec_from_loader(name, self)

    def create_module(self, spec):
        module = _sys.modules[__name__ + spec.name[len("triton"):]]
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        # (the import machinery set the alias's spec on the module: its own back)
        own = self._specs.pop(module.__spec__.name, None)
        if own is not None:
            module.__spec__ = own


_sys.meta_path.insert(0, _TritonAlias())
