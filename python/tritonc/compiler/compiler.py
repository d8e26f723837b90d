"""tritonc.compiler.compiler - ahead-of-time compiles, as Triton's
`triton.compile(ASTSource(...), target=..., options=...)`:

    src = ASTSource(fn=kernel, signature={"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                    constexprs={"BLOCK": 1024}, attrs={(0,): [["tt.divisibility", 16]]})
    ck = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    ck.asm["ttir"], ck.asm["ptx"], ck.metadata.name, ck[grid](*args)

The signature is a dict of parameter name (or index) to type ("*fp32", "i32",
"fp16", "constexpr", ...), or a string of the types in parameter order,
comma-separated. constexprs are keyed by name or by a one-element tuple path
`(i,)`; attrs by tuple path, each a list of [name, value] pairs of which
"tt.divisibility" (16) is what tritonc specialises on. A CUDA target is
compiled without a GPU (TTGIR, PTX, and the cubin when ptxas is installed);
launching it needs one. A CPU target, or target=None without a GPU, compiles
for the CPU backend, and `ck[grid](...)` runs it on CPU tensors.
"""
import hashlib
import os

from .. import _lib, _spec
from ..language import core as _core
from ..errors import CompilationError  # noqa: F401
from ..jit import CompiledKernel, JITFunction
from ..runtime.driver import GPUTarget

# Triton's spellings of scalar types tritonc's signatures write otherwise
_ALIASES = {"f32": "fp32", "u1": "i1"}


class ASTSource:
    """A @jit function with the types of its parameters and its constexprs'
    values: what `compile` compiles."""

    def __init__(self, fn, signature, constexprs=None, attrs=None):
        if not isinstance(fn, JITFunction):
            raise TypeError("ASTSource: fn must be a @triton.jit function, not %s"
                            % type(fn).__name__)
        self.fn = fn
        self.name = fn.__name__
        self.ext = "ttir"
        names = fn.arg_names
        if isinstance(signature, str):
            types = [t.strip() for t in signature.split(",") if t.strip()]
            if len(types) > len(names):
                raise TypeError("ASTSource(%s): the signature has %d types, the kernel %d "
                                "parameters" % (self.name, len(types), len(names)))
            signature = dict(zip(names, types))
        if not isinstance(signature, dict):
            raise TypeError("ASTSource(%s): signature must be a dict or a str" % self.name)
        self.signature = {}
        for k, v in signature.items():
            key = self._name(k, "signature")
            if not isinstance(v, str):
                raise TypeError("ASTSource(%s): parameter '%s': type %r is not a str"
                                % (self.name, key, v))
            self.signature[key] = v.strip()
        self.constants = {}
        for k, v in (constexprs or {}).items():
            self.constants[(names.index(self._name(k, "constexprs")),)] = v
        self.attrs = {}
        for k, v in (attrs or {}).items():
            self.attrs[(names.index(self._name(k, "attrs")),)] = v

    def _name(self, k, what):
        """A parameter's name from a key: a name, an index or a tuple path (i,)."""
        names = self.fn.arg_names
        if isinstance(k, tuple):
            if len(k) != 1 or not isinstance(k[0], int):
                raise NotImplementedError("ASTSource(%s): %s key %r: only paths of one index "
                                          "(top-level parameters) are supported" % (self.name, what, k))
            k = k[0]
        if isinstance(k, int) and not isinstance(k, bool):
            if not 0 <= k < len(names):
                raise IndexError("ASTSource(%s): %s index %d: the kernel has %d parameters"
                                 % (self.name, what, k, len(names)))
            return names[k]
        if isinstance(k, str):
            if k not in names:
                raise KeyError("ASTSource(%s): %s names '%s', which is not a parameter "
                               "(parameters: %s)" % (self.name, what, k, ", ".join(names)))
            return k
        raise TypeError("ASTSource(%s): bad %s key %r" % (self.name, what, k))

    def hash(self):
        key = "%s-%r-%r-%r" % (self.fn.cache_key, sorted(self.signature.items()),
                               sorted(self.constants.items(), key=repr), sorted(self.attrs.items()))
        return hashlib.sha256(key.encode()).hexdigest()

    def _lower(self):
        """(signature string, [(name, constexpr text)]) as tc_compile takes them."""
        fn, sig, cx = self.fn, [], []
        for i, p in enumerate(fn.params):
            has_value = (i,) in self.constants
            ty = self.signature.get(p.name)
            if ty is None and not has_value and not p.is_constexpr:
                raise TypeError("ASTSource(%s): parameter '%s' has no type in the signature"
                                % (self.name, p.name))
            if ty == "constexpr" or p.is_constexpr or (ty is None and has_value):
                if has_value:
                    v = self.constants[(i,)]
                elif p.has_default:
                    v = p.default
                else:
                    raise TypeError("ASTSource(%s): constexpr parameter '%s' has no value in "
                                    "constexprs" % (self.name, p.name))
                try:
                    cx.append((p.name, _spec.constexpr_text(v)))
                except TypeError as e:
                    raise TypeError("ASTSource(%s): constexpr '%s': %s" % (self.name, p.name, e)) from None
                continue
            if has_value:  # a typed parameter given a value: a constant, as Triton folds it
                cx.append((p.name, _spec.constexpr_text(self.constants[(i,)])))
                continue
            base = ty[1:] if ty.startswith("*") else ty
            if base.startswith("k"):  # Triton's "*k..." (a const pointer)
                base = base[1:]
            base = _ALIASES.get(base, base)
            if base not in _core._BY_SIG:
                raise TypeError("ASTSource(%s): parameter '%s': unknown or unsupported type %r "
                                "(expected e.g. '*fp32', 'i32', 'fp32', 'constexpr')"
                                % (self.name, p.name, ty))
            ty = ("*" + base) if ty.startswith("*") else base
            hint = ""
            for a in self.attrs.get((i,), ()):
                if (isinstance(a, (list, tuple)) and len(a) == 2 and a[0] == "tt.divisibility"
                        and int(a[1]) % 16 == 0):
                    hint = ":16"
            sig.append(ty + hint)
        names = {n for n, _ in cx}
        gl, _ = fn.global_constexprs()
        cx += [(n, v) for n, v in gl if n not in names]
        return ",".join(sig), cx


def _target_of(target):
    """(device kind, target string, GPUTarget)."""
    if target is None:
        from ..runtime import driver
        target = driver.active.get_current_target()
    backend = getattr(target, "backend", None)
    if backend == "cpu":
        return _lib.TC_DEVICE_CPU, "cpu", target
    if backend == "cuda":
        arch = target.arch
        try:
            arch = int(str(arch).replace("sm_", "").rstrip("a"))
        except ValueError:
            raise ValueError("triton.compile: bad CUDA arch %r" % (target.arch,)) from None
        return _lib.TC_DEVICE_CUDA, "cuda:%d" % arch, target
    raise NotImplementedError("triton.compile: target %r: tritonc compiles for 'cuda' and 'cpu'"
                              % (target,))


def compile(src, target=None, options=None, _env_vars=None):
    """Triton's triton.compile: an ASTSource compiled for `target` (a
    GPUTarget; None: the current device's) into a CompiledKernel."""
    if isinstance(src, str):
        raise NotImplementedError("triton.compile: compiling IR files (%s) is not supported by "
                                  "tritonc; pass an ASTSource" % src)
    if not isinstance(src, ASTSource):
        raise TypeError("triton.compile: src must be an ASTSource, not %s" % type(src).__name__)
    options = dict(options or {})
    device, tstr, gpu_target = _target_of(target)
    sig, cx = src._lower()
    fn = src.fn
    # (of the options Triton's backends take, these three; the rest are
    # ignored, as Triton's parse_options ignores keys it does not know)
    num_warps = options.get("num_warps")
    num_stages = options.get("num_stages")
    debug = fn._debug(options.get("debug"))
    s = fn.source()
    handle, err = _lib.compile(s.encoded, s.filename, fn.__name__, sig, cx, device, num_warps,
                               num_stages, target=tstr,
                               cache_dir=os.environ.get("TRITONC_CACHE_DIR"), debug=debug)
    if err is not None:
        fn._raise_compile_error(err, _lib.TC_DEVICE_CPU, {})  # (CPU: the diagnostics as they are)
    kern = CompiledKernel(handle, fn, None, sig, cx, device, num_warps, num_stages)
    kern.src = src
    kern.hash = src.hash()
    kern._figures()
    kern.metadata.target = gpu_target
    kern.metadata.hash = kern.hash
    kern.metadata.debug = debug
    return kern


__all__ = ["ASTSource", "compile", "CompiledKernel", "GPUTarget"]
