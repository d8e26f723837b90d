"""tritonc.jit - `@triton.jit`, `kernel[grid](...)` and the compiled kernel.

A JITFunction keeps the kernel's Python function only to read its source
(at decoration, with the file's text shared by all its kernels), its
parameters and the module globals it refers to; the body is compiled by
libtritonc, which the first decoration opens (with the C launcher). A launch
runs in three speeds:

* the fastest path: `kernel[grid](...)` is the C Entry's (`_launcher.c`):
  it binds the arguments to the parameters, finds the specialisations of
  these constexprs and launch options in `_fast`, evaluates a callable grid
  and hands the grid and the runtime arguments to the C Launcher of that
  specialisation, which checks their types and specialisation exactly as
  the key below does, and calls `tc_launch`; no Python runs. Anything else
  (a first launch, warmup, another option, an argument it does not take)
  goes to `_slow`, the generated function below;

* the hot path, a function generated for each kernel with the kernel's own
  parameter list (so Python itself binds positional and keyword arguments
  and reports a missing or extra one by the kernel's name; its code object
  is cached on disk, `_launcher_code`). For each runtime
  argument it computes a small key inline - for a torch tensor (dtype,
  16-byte aligned, on CUDA), for an int (0, 1 or 16: Triton's "equal to 1"
  and "divisible by 16" specialisations, or a wider type), for a float "f" -
  looks the tuple of keys and constexpr values up in one dict, packs the grid
  and every argument into the kernel's preallocated launch buffer with one
  `struct.pack_into`, and calls `tc_launch` through ctypes with addresses
  that were fixed when the kernel was compiled;

* the miss path (`JITFunction._miss`), on the first launch of each
  specialisation: every argument is classified thoroughly (`_spec.classify`:
  dtype, device, alignment), errors are reported by argument
  name, the signature string and the constexprs are written, and the kernel
  is compiled (libtritonc's source-keyed disk cache makes a second process
  skip the compiler entirely), and a C launcher is made for it.

The launch buffer of a compiled kernel:

    offset 0        16       24       32
           | grid x,y,z (i32) + pad | arg 0 | arg 1 | ... |   one 8-byte slot each
    args = (void *[n]){buf+16, buf+24, ...}  - tc_launch's `args`, built once
"""
import ctypes
import functools
import inspect
import linecache
import os
import re
import math
import struct
import sys
import textwrap
import types

from . import _cext, _lib, _spec
from .errors import CompilationError, LaunchError, render
from .language import core as _core

_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion",
                   "debug", "launch_cooperative_grid", "launch_pdl", "extern_libs", "sanitize_overflow")


class _Never:  # stands for torch.Tensor / numpy.ndarray when they are not imported
    pass


class KernelInterface:
    """`kernel[grid](*args, **kwargs)`: what JITFunction, Autotuner and
    Heuristics share."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)


def _is_constexpr_annotation(ann):
    if ann is _core.constexpr:
        return True
    if isinstance(ann, str):
        return ann.replace(" ", "").split(".")[-1] == "constexpr"
    return getattr(ann, "__name__", None) == "constexpr"


class KernelParam:
    __slots__ = ("num", "name", "is_constexpr", "default", "do_not_specialize",
                 "do_not_specialize_on_alignment", "annotation")

    def __init__(self, num, p, dns, dnsa):
        self.num, self.name = num, p.name
        self.is_constexpr = _is_constexpr_annotation(p.annotation)
        # a type annotation (`n: tl.int64`, `x: "*fp16"`) is the parameter's type
        self.annotation = (None if self.is_constexpr or p.annotation is inspect.Parameter.empty
                           else _spec.annotation_sig(p.annotation))
        self.default = p.default
        self.do_not_specialize = dns
        self.do_not_specialize_on_alignment = dnsa

    @property
    def has_default(self):
        return self.default is not inspect.Parameter.empty


# filename -> (linecache's list of lines, that file's text with Triton's
# import names): every kernel of one module shares its file's text, read and
# converted once.
_FILE_TEXT = {}


def _file_text(filename, lines):
    memo = _FILE_TEXT.get(filename)
    if memo is None or memo[0] is not lines:
        memo = (lines, _as_triton_imports("".join(lines)))
        _FILE_TEXT[filename] = memo
    return memo[1]


def _is_nested(fn):
    """Whether fn's `def` is not a top-level statement of its file: defined
    in a function or a class (a dotted __qualname__), or under an `if` or
    `try` at module level. Such a kernel is compiled from its own text."""
    if "." in getattr(fn, "__qualname__", ""):
        return True
    top = _top_level_names(fn.__code__.co_filename)
    return top is not None and fn.__name__ not in top


def _source_of(fn):
    """(filename, text, nested, converted) for _Source. A module-level kernel is
    compiled from its whole file, so that @jit helpers of the same file are
    found by the C front end and diagnostics carry real line numbers. A
    kernel defined inside a function (or with no file) is given alone,
    dedented, at its own line numbers after the file's one-line imports;
    `nested` = (first line, last line, indent) maps columns back.
    `converted`: the text already has Triton's import names (a whole file,
    converted once for all its kernels)."""
    code = fn.__code__
    filename = code.co_filename
    lines = linecache.getlines(filename, fn.__globals__)
    first = code.co_firstlineno
    nested = _is_nested(fn)
    if lines and first <= len(lines) and not nested:
        if ("def " + fn.__name__) in "".join(lines[first - 1:first + 40]):
            return filename, _file_text(filename, lines), None, True
    import ast  # only for kernels defined in a function: not an import-time cost
    src_lines, start = inspect.getsourcelines(fn)
    start = max(start, 1)
    indent = len(src_lines[0]) - len(src_lines[0].lstrip())
    out = ["\n"] * (start - 1)
    try:
        top = ast.parse("".join(lines)).body if lines else []
    except SyntaxError:
        top = []
    for node in top:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.end_lineno < start:
            for i in range(node.lineno - 1, node.end_lineno):
                out[i] = lines[i]
    text = "".join(out) + textwrap.dedent("".join(src_lines))
    # Modules the kernel reaches through its closure or a local import
    # (`import tritonc.language as tl` inside a function): import lines at the
    # end, where they move no line.
    scope = dict(fn.__globals__)
    if fn.__closure__:
        for name, cell in zip(code.co_freevars, fn.__closure__):
            try:
                scope[name] = cell.cell_contents
            except ValueError:
                pass
    for name in sorted(_code_names(code, set()) | set(code.co_freevars)):
        m = scope.get(name)
        if isinstance(m, types.ModuleType) and m.__name__.split(".")[0] == "tritonc":
            text += "\nimport %s as %s" % (m.__name__, name)
    return filename, text + "\n", (start, start + len(src_lines) - 1, indent), False


_TOP_NAMES = {}  # filename -> the names its top level binds (None: not parseable)


def _top_level_names(filename):
    """The names a file's top-level statements bind (assignments, imports,
    defs, classes), less those a top-level `if` or `try` binds too (bound
    from their run-time values instead): what the C front end sees of the
    module's globals,
    asked of the C front end itself (tc_source_globals: ~20 us where
    Python's ast.parse takes milliseconds on the first launch of a new
    process)."""
    if filename in _TOP_NAMES:
        return _TOP_NAMES[filename]
    lines = linecache.getlines(filename)
    found = _lib.source_globals("".join(lines)) if lines else None
    names = set(found) if found is not None else None
    _TOP_NAMES[filename] = names
    return names


def _global_binding(name, v):
    """A module-level statement binding `name` to the runtime value `v` the
    way the C front end reads it (`NAME = triton.language.extra.cuda.
    libdevice.tanh`, `import triton.language.math as NAME`, `NAME = 3`), or
    None when v is nothing a kernel can use."""
    if isinstance(v, _core._Builtin):
        mod = v.__module__
        if mod.split(".")[0] == "tritonc":
            return "%s = %s.%s" % (name, "_tc_triton" + mod[len("tritonc"):], v.__name__)
        return None
    if isinstance(v, types.ModuleType):
        mod = v.__name__
        if mod.split(".")[0] in ("tritonc", "triton"):
            return "import %s as %s" % ("triton" + mod[len(mod.split(".")[0]):], name)
        if mod == "math":
            return "import math as %s" % name
        return None
    if _spec.is_constexpr_global(v) or isinstance(v, tuple):
        try:
            text = _spec.constexpr_text(v)
        except TypeError:
            return None
        raw = v.value if isinstance(v, _core.constexpr) else v
        if not isinstance(raw, str):  # dtypes are written tl.float16: say which tl
            text = re.sub(r"\btl\.", "_tc_triton.language.", text)
        return "%s = %s" % (name, text)
    return None


def _user_module(v):
    """Whether v is a Python module the C front end does not know (not
    Triton's, not `math`): one of the user's, whose attributes a kernel may
    read (`ops.silu(x)`, `cfg.SCALE`), as Triton lets it."""
    return (isinstance(v, types.ModuleType) and v.__name__.split(".")[0] not in ("tritonc", "triton")
            and v.__name__ != "math")


def _space_binding(name, mod, attrs, on_jit, depth=0):
    """The lines binding `name` to the user's module `mod` for the C front
    end: a class deriving from types.ModuleType whose body binds the
    attributes among `attrs` (the names the code reads) that mod has, each
    the way a module global is bound (a @jit function by its name, handed to
    on_jit; a constant; a builtin; a module of the user's, nested). Other
    attributes are left out: reading one is then the front end's error."""
    lines = ["class %s(_tc_types.ModuleType):" % name]
    for a in sorted(attrs):
        try:
            w = getattr(mod, a, _ABSENT)
        except Exception:  # noqa: BLE001 (a module's __getattr__ may raise anything)
            w = _ABSENT
        if w is _ABSENT:
            continue
        if isinstance(w, JITFunction):
            lines.append("    %s = %s" % (a, on_jit(w)))
        elif _user_module(w):
            if depth < 4:
                lines += ["    " + line for line in _space_binding(a, w, attrs, on_jit, depth + 1)]
        elif not isinstance(w, types.ModuleType):
            b = _global_binding(a, w)
            if b is not None:
                lines.append("    " + b)
    if len(lines) == 1:
        lines.append("    pass")
    return lines


def _decorated(fn):
    """Whether fn's def has decorators (its first line is not the `def`)."""
    line = linecache.getline(fn.__code__.co_filename, fn.__code__.co_firstlineno).lstrip()
    return not line.startswith(("def ", "async def "))


def _code_names(code, out):
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)
    return out


_TRITONC_IMPORT = re.compile(r"^([ \t]*(?:import|from)[ \t]+)tritonc\b(.*)$", re.M)
_TRITONC_NAME = re.compile(r"\btritonc\b")


def _as_triton_imports(text):
    """`import tritonc.language as tl` -> `import triton.language as tl`, so
    the C front end, which knows Triton's module paths, binds the same
    names. Only import lines change (their columns shift by one)."""
    return _TRITONC_IMPORT.sub(lambda m: m.group(1) + "triton" + _TRITONC_NAME.sub(
        "triton", m.group(2)), text)


class _Source:
    """The text given to tc_compile: the kernel's file, then the source of
    every @jit helper that lives in another module, each appended with a
    record of where its lines came from so diagnostics map back."""

    def __init__(self, filename, text, nested=None, converted=False):
        if not converted:
            text = _as_triton_imports(text)
        self.filename, self.text, self.nested = filename, text, nested
        self._lines = self._bytes = None  # made on first use
        self.chunks = []  # (first line in text, nlines, file, first line in file)

    @property
    def lines(self):
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    @property
    def encoded(self):
        """The text as tc_compile takes it (UTF-8), made once."""
        if self._bytes is None:
            self._bytes = self.text.encode("utf-8")
        return self._bytes

    def append(self, fn, name=None):
        """fn's source at the end; its def renamed `name` when given."""
        src = textwrap.dedent(inspect.getsource(fn))
        if name and name != fn.__name__:
            src = re.sub(r"^(\s*(?:async\s+)?def\s+)%s\b" % re.escape(fn.__name__), lambda m: m.group(1) + name,
                         src, count=1, flags=re.M)
        # Drop decorators other than @jit: the C front end looks for
        # `@<anything>.jit` or `@jit`; keep the function's own lines.
        start = len(self.lines) + 2
        self.text = self.text.rstrip("\n") + "\n\n" + src
        self._lines = self._bytes = None
        self.chunks.append((start, src.count("\n") + 1, fn.__code__.co_filename,
                            fn.__code__.co_firstlineno))

    def append_text(self, text):
        """Module-level lines of tritonc's own at the end (global bindings)."""
        self.text = self.text.rstrip("\n") + "\n\n" + text
        self._lines = self._bytes = None

    def where(self, file, line):
        """(file, line) of a diagnostic in the original files."""
        if file == self.filename:
            for start, n, f, first in self.chunks:
                if start <= line < start + n:
                    return f, first + line - start
        return file, line

    def col(self, file, line, col):
        n = self.nested
        if file == self.filename and n and n[0] <= line <= n[1] and col > 0:
            return col + n[2]
        return col

    def line(self, file, line):
        n = self.nested
        if file == self.filename and n and n[0] <= line <= n[1]:
            text = linecache.getline(file, line)
            return text.rstrip("\n") if text else None
        if file == self.filename and 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        text = linecache.getline(file, line) if file else ""
        return text.rstrip("\n") if text else None


_preloaded = False
_cuda_attached = False


def _preload():
    """Opens libtritonc and the C launcher when the first kernel is defined
    (module import time: Triton reads sources and sets up its driver there
    too), so that the first launch does not pay for it (~0.2-0.5 ms of
    dlopen); once torch is imported, finds its stream accessors and fills
    the dtype table; once torch has initialised CUDA, attaches the library
    to its context (tc_cuda_attach, ~40 us). A failure is left for the
    first compile to report."""
    global _preloaded, _cuda_attached
    if not _preloaded:
        _preloaded = True
        try:
            _lib.lib()
            _cext.module()
        except Exception:
            pass
    elif _lib._lib is not None and _lib._lib is not _cext._bound:
        _cext.module()  # (the library was swapped, as tests do: the C launcher binds the new one)
    torch = sys.modules.get("torch")
    if torch is not None and _STREAM_GETTERS is None:
        _cuda_stream_getters()
        _spec.fill_torch_sigs(torch)
    if not _cuda_attached:
        if torch is not None and torch.cuda.is_initialized():
            try:
                attach = getattr(_lib.lib(), "tc_cuda_attach", None)
                _cuda_attached = attach is None or bool(attach())  # (None: an older library)
            except Exception:
                _cuda_attached = True  # (no library: the first compile reports it)


class JITFunction(KernelInterface):
    """A @triton.jit function."""

    _tritonc_jit_fn = True  # (what _spec.constexpr_text recognises)

    def __init__(self, fn, *, version=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, debug=None, noinline=None, repr=None,
                 launch_metadata=None):
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self.version, self.debug, self.noinline = version, debug, noinline
        self.launch_metadata = launch_metadata  # (grid, metadata, args) -> dict, for launch hooks
        self.signature = inspect.signature(fn)
        for p in self.signature.parameters.values():
            if p.kind == p.VAR_KEYWORD:  # (Triton's message)
                raise TypeError("@jit %s: JIT functions do not support **kwargs ('**%s')" % (fn.__name__, p.name))
            if p.kind == p.VAR_POSITIONAL:
                raise TypeError("@jit %s: parameter '%s' must be an ordinary or keyword-only parameter "
                                "(no *args)" % (fn.__name__, p.name))
            # A parameter may share a launch option's name (the softmax
            # tutorial's `num_stages: tl.constexpr`): it is then both.
            if p.name == "warmup":
                raise TypeError("@jit %s: a parameter may not be called '%s'"
                                % (fn.__name__, p.name))
        names = list(self.signature.parameters)

        def idx(spec):
            return {names[x] if isinstance(x, int) else x for x in (spec or ())}

        dns, dnsa = idx(do_not_specialize), idx(do_not_specialize_on_alignment)
        self.params = [KernelParam(i, p, p.name in dns, p.name in dnsa)
                       for i, p in enumerate(self.signature.parameters.values())]
        self.arg_names = names
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        # the C Entry's view of the parameters (see entry_new in _launcher.c)
        self._entry_params = tuple(
            (p.name, p.is_constexpr, p.has_default, p.default if p.has_default else None,
             (p.do_not_specialize and 1) | (p.do_not_specialize_on_alignment and 2) |
             (p.annotation is not None and 4)) for p in self.params)
        self.cache = {}       # (signature, constexprs, options) -> CompiledKernel
        self._hot = {}        # the generated launcher's key -> CompiledKernel
        self._fast = {}       # (constexprs, options) -> C Launcher chain (see _launcher.c)
        self._entry = None
        self._entry_torch = False
        self._front = None    # kernel[grid]: the C Entry, or the generated Python factory
        self._c_front = False
        self._source = None
        self._globals = None
        self._flat = {}  # id(@jit function appended) -> the name its def has in the source
        self._globals_reads = None  # what the last reading of the globals read
        self._globals_check = None  # a reading ahead, to check at its first use
        self._ahead = None          # prep()'s tuple read ahead (see _read_ahead)
        self._bindings = []
        self.hash = None
        # The source is read now, at decoration (as Triton does), so the
        # first launch does not: a whole file is read and converted once for
        # all its kernels. Failing here (no source file) is not an error
        # until a compile needs it.
        try:
            self._src0 = _source_of(fn)
        except (OSError, TypeError, IndexError):
            self._src0 = None
        # What global_constexprs needs of the code, which does not change
        # (the globals' values are read at the first launch, as Triton does)
        self._nested = _is_nested(fn)
        self._names = sorted(_code_names(fn.__code__, set()))
        # @jit functions passed to this kernel as constexpr arguments: their
        # sources (and their helpers') are compiled with the kernel's
        self._fn_roots = []
        _preload()
        if self._src0 is not None:
            self._read_ahead()
        # kernel[grid]'s C Entry, made now from what was just read rather
        # than at the first launch (~10 us of it): it depends only on the
        # definition, as the reading ahead does
        self._make_front(c_only=True)

    # -- Triton's JITFunction surface --------------------------------------
    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope of a kernel")

    def __repr__(self):
        return "JITFunction(%s:%s)" % (self.module, self.__qualname__)

    @property
    def __globals__(self):
        return self.fn.__globals__

    @property
    def src(self):
        return textwrap.dedent(inspect.getsource(self.fn))

    @property
    def cache_key(self):
        """Triton's key of the kernel's definition: a hex digest of its
        source (and of the @jit helpers and constants it uses, which the
        source text tritonc compiles holds), also kept in `hash`."""
        if self.hash is None:
            import hashlib
            try:
                text = self.source().encoded
            except Exception:  # no source to compile (yet): the function's own
                text = self.src.encode()
            self.hash = hashlib.sha256(text + self.__name__.encode()).hexdigest()
        return self.hash

    def __getitem__(self, grid):
        return (self._front or self._make_front())(grid)

    def run(self, *args, grid, warmup=False, **kwargs):
        return (self._front or self._make_front())(grid)(*args, warmup=warmup, **kwargs)

    def warmup(self, *args, grid=(1,), **kwargs):
        """Compiles without launching. Tensors may be replaced by their dtype
        (`torch.float16`, `tl.float16`) or a signature entry (`'*fp16'`)."""
        bound = self._bind(args, kwargs)
        opts = {k: kwargs.get(k) for k in _LAUNCH_OPTIONS}
        return self._compile_bound(bound, opts, mock=True)

    # -- the hot path ------------------------------------------------------
    def _make_front(self, c_only=False):
        """`kernel[grid]`'s first step: the C Entry (_launcher.c), which
        binds the arguments and launches a known specialisation without
        Python, and hands everything else to `_slow`; or, without the C
        launcher, the generated Python factory itself (not made when
        `c_only`: None then)."""
        cext = _cext.module()
        if cext is not None:
            try:
                ahead = self._ahead if self._ahead is not None and self._ahead[0][15] is self else None
                self._front = cext.Entry(self._entry_params, self._fast, self._slow, self._first,
                                         self._prep, ahead)
                self._c_front = True
                return self._front
            except (TypeError, ValueError):
                pass
        return None if c_only else self._make_entry()

    def _slow(self, grid, *args, **kwargs):
        return (self._entry or self._make_entry())(grid)(*args, **kwargs)

    def _first(self, grid, args, num_warps, num_stages):
        """The C Entry's first launch of a specialisation, with the bound
        arguments (`args`, one per parameter) and no launch option but these
        two: compiles it (or finds it compiled) and registers its C
        Launcher. True when it did; False when the arguments are of kinds
        a Launcher does not take (ndarrays, None, bools, wide ints: the Python
        path serves them); None when no Launcher could be made for another
        reason (the Entry then stops asking)."""
        torch = sys.modules.get("torch")
        tensor = torch.Tensor if torch else _Never
        for p, a in zip(self.params, args):
            t = type(a)
            if not (p.is_constexpr or t is tensor or t is float or
                    (t is int and -2**31 <= a < 2**31)):
                return False
            if p.annotation is not None and not (p.annotation in ("i32", "fp32") or
                                                 p.annotation.startswith("*")):
                return False  # typed wider or narrower than a Launcher packs
        kern = self._compile_bound(args, {"num_warps": num_warps, "num_stages": num_stages})
        fkey = tuple(a for p, a in zip(self.params, args) if p.is_constexpr)
        return True if self._add_fast(fkey + (num_warps, num_stages, ()), kern, args) else None

    def _prep(self):
        """What the C Entry needs to make a specialisation's first launch
        itself (`first_in_c` in _launcher.c, which documents the tuple):
        asked once, at the first launch, unless the reading made at
        decoration (`_ahead`) still stands."""
        src = self.source()
        return self._prepared(src, self.global_constexprs()[0])

    def _prepared(self, src, consts):
        torch = sys.modules.get("torch")
        get_device, stream = _cuda_stream_getters() if torch else (None, None)
        return (src.encoded, src.filename, self.__name__, tuple(consts),
                self.cache, self._c_kernel, _spec._TORCH_SIG_BY_DTYPE, _spec._torch_sig,
                torch.Tensor if torch else None, self.debug, get_device, stream,
                _lib.TC_DEVICE_CPU, _lib.TC_DEVICE_CUDA, CompiledKernel, self, _lib.lib())

    def _c_kernel(self, handle, signature, constexprs, device, num_warps, num_stages, messages):
        """The CompiledKernel of a specialisation the C Entry compiled."""
        kern = CompiledKernel(handle, self, None, signature, constexprs, device, num_warps,
                              num_stages, messages=messages)
        _static_prints(kern)
        return kern

    def _make_entry(self):
        torch = sys.modules.get("torch")
        np = sys.modules.get("numpy")
        ns = {
            "_Tensor": torch.Tensor if torch else _Never,
            "_ndarray": np.ndarray if np else _Never,
            "_AO": ctypes.addressof, "_CC": ctypes.c_char,
            "_bigint": _bigint_key, "_slow_key": _slow_key, "_miss": self._miss,
            "_cache_get": self._hot.get, "_grid_eval": _grid_eval,
            "_check_extra": self._check_extra, "_bad_grid": self._bad_grid,
            "_struct_error": struct.error, "_defaults": {}, "_f32_inf": _f32_inf,
            "_fast_get": self._fast.get,
            "_hooks": _HOOKS, "_hook_enter": _hook_enter, "_hook_exit": _hook_exit,
            # Python's builtins under names no kernel parameter shadows (a
            # parameter may be called `type`, `grid` or `len`)
            "_tc_type": type, "_tc_int": int, "_tc_float": float, "_tc_tuple": tuple,
            "_tc_len": len, "_tc_dict": dict,
        }
        for p in self.params:
            if p.has_default:
                ns["_defaults"][p.name] = p.default
        # What the generated text depends on, so that a new process finds
        # its code object on disk without generating the text at all.
        shape = (self.__name__, tuple(self.arg_names),
                 tuple((p.name, p.is_constexpr, p.has_default, p.do_not_specialize,
                        p.do_not_specialize_on_alignment) for p in self.params))
        exec(_launcher_code(shape, lambda: self._launcher_text(),
                            "<tritonc launcher for %s>" % self.__name__), ns)
        self._entry = ns["_factory"]
        self._entry_torch = torch is not None
        if not self._c_front:
            self._front = self._entry
        return self._entry

    def _launcher_text(self):
        """The source of the generated launcher (see _make_entry)."""
        sig, keys, vals, cx, meta = [], [], [], [], []
        body = []
        for p in self.params:
            a = p.name
            if p.has_default:
                sig.append("%s=_defaults[%r]" % (a, a))
            else:
                sig.append(a)
            meta.append("%r: %s" % (a, a))
            if p.is_constexpr:
                cx.append(a)
                continue
            i = len(vals)
            pv, ka, kb = "_tc_p%d" % i, "_tc_a%d" % i, "_tc_b%d" % i
            aligned = "1" if p.do_not_specialize_on_alignment else "(not %s & 15)" % pv
            ival = ("0" if p.do_not_specialize
                    else "(1 if %s == 1 else 16 if not %s & 15 else 0)" % (a, a))
            # Two key parts per argument: what it is (a dtype, 'i', 'f', 's')
            # and a small int or tuple for its specialisation.
            body += [
                "    _t = _tc_type(%s)" % a,
                "    if _t is _Tensor:",
                "        %s = %s.data_ptr()" % (pv, a),
                "        %s = %s.dtype" % (ka, a),
                # (a null data pointer, as a 'meta' tensor has, keys apart from
                # any tensor with data: its first launch checks its device)
                "        %s = %s + 2 * %s.is_cuda + 4 * (not %s)" % (kb, aligned, a, pv),
                "    elif _t is _tc_int:",
                "        %s = %s" % (pv, a),
                "        %s = 'i'" % ka,
                "        %s = %s if -2147483648 <= %s <= 2147483647 else _bigint(%s, %s)"
                % (kb, ival, a, a, "False" if p.do_not_specialize else "True"),
                "    elif _t is _tc_float:",
                "        %s = %s" % (pv, a),
                "        %s = 'f'" % ka,
                "        %s = 0" % kb,
                "    elif _t is _ndarray:",
                "        try:",
                "            %s = _AO(_CC.from_buffer(%s))" % (pv, a),
                "        except Exception:",
                "            %s = %s.__array_interface__['data'][0]" % (pv, a),
                "        %s = %s.dtype" % (ka, a),
                "        %s = %s" % (kb, aligned),
                "    else:",
                "        %s = 's'" % ka,
                "        %s, %s = _slow_key(%s)" % (pv, kb, a),
            ]
            vals.append(pv)
            keys += [ka, kb]
        allargs = ", ".join(p.name for p in self.params)
        key = "(%s,)" % ", ".join(keys + cx + ["num_warps", "num_stages", "_tc_ext"])
        fast_key = "(%s,)" % ", ".join(cx + ["num_warps", "num_stages", "_tc_ext"])
        rt_names = [p.name for p in self.params if not p.is_constexpr]
        pv = "".join(", " + v for v in vals)
        meta = "{%s}" % ", ".join(meta + ["'num_warps': num_warps", "'num_stages': num_stages",
                                          "**_extra"])
        body = ["    " + line for line in body]
        # The C launcher of this call's constexprs and options, when one
        # exists: it checks the runtime arguments' specialisation itself and
        # returns None when they do not fit.
        try_fast = [
            "            _tc_l = _fast_get(%s)" % fast_key,
            "            if _tc_l is not None:",
            "                if _tc_g is None:",
            "                    _tc_g = _tc_grid if _tc_type(_tc_grid) is _tc_tuple else _grid_eval(_tc_grid, %s)" % meta,
            "                _tc_r = _tc_l(_tc_g%s)" % "".join(", " + a for a in rt_names),
            "                if _tc_r is not None:",
            "                    return _tc_r",
        ]
        src = [
            "def _factory(_tc_grid):",
            "    def %s(%s, *, warmup=False%s, **_extra):"
            % (self.__name__, ", ".join(sig), "".join(
                ", %s=None" % o for o in ("num_warps", "num_stages") if o not in self.arg_names)),
            "        _tc_ext = _check_extra(_extra) if _extra else ()",
            "        _tc_g = None",
            "        if not warmup:",
        ] + try_fast + body + [
            "        _tc_key = %s" % key,
            "        _tc_kern = _cache_get(_tc_key)",
            "        if _tc_kern is None or warmup:",
            "            _tc_kern = _miss(_tc_key, (%s%s), _tc_dict(_extra, num_warps=num_warps, "
            "num_stages=num_stages), warmup)" % (allargs, "," if len(self.params) == 1 else ""),
            "            if warmup:",
            "                return _tc_kern",
            # the C launcher _miss made, when these arguments fit one
        ] + try_fast + [
            "        if _tc_g is None:",
            "            _tc_g = _tc_grid if _tc_type(_tc_grid) is _tc_tuple else _grid_eval(_tc_grid, %s)" % meta,
            # the launch hooks (triton.knobs.runtime.launch_enter_hook, ...)
            "        _tc_md = _hook_enter(_tc_kern, _tc_g, (%s%s)) if _hooks[0] else None"
            % (allargs, "," if len(self.params) == 1 else ""),
            "        _tc_n = _tc_len(_tc_g)",
            "        try:",
            "            if _tc_n == 1:",
            "                _tc_kern._pack(_tc_g[0], 1, 1%s)" % pv,
            "            elif _tc_n == 2:",
            "                _tc_kern._pack(_tc_g[0], _tc_g[1], 1%s)" % pv,
            "            elif _tc_n == 3:",
            "                _tc_kern._pack(_tc_g[0], _tc_g[1], _tc_g[2]%s)" % pv,
            "            else:",
            "                _bad_grid(_tc_g)",
            "        except _struct_error:",
            "            _bad_grid(_tc_g)",
            # a Python float beyond fp32's range: +-inf, as Triton's launcher
            # converts it (struct refuses to pack it)
            "        except OverflowError:",
            "            _tc_kern._pack(*_f32_inf(*(tuple(_tc_g) + (1, 1, 1)[len(_tc_g):])%s))" % pv,
            "        if _tc_kern._call():",
            "            _tc_kern._raise()",
            "        if _tc_md is not None:",
            "            _hook_exit(_tc_md)",
            "        return _tc_kern",
            # (Python's own messages then say `kernel()`, not `_factory.<locals>.kernel()`)
            "    %s.__qualname__ = %r" % (self.__name__, self.__name__),
            "    return %s" % self.__name__,
        ]
        return "\n".join(src) + "\n"

    def _check_extra(self, extra):
        """The launch options other than num_warps and num_stages, as a key
        part; an unknown keyword is an error naming the kernel."""
        bad = [k for k in extra if k not in _LAUNCH_OPTIONS]
        if bad:
            raise TypeError("%s() got unexpected keyword argument(s) %s (parameters: %s; launch "
                            "options: %s)" % (self.__name__, ", ".join(map(repr, sorted(bad))),
                                              ", ".join(self.arg_names),
                                              ", ".join(_LAUNCH_OPTIONS)))
        return tuple(sorted((k, v if isinstance(v, (bool, int, float, str)) else repr(v))
                            for k, v in extra.items() if v is not None))

    def _bad_grid(self, grid):
        _spec.normalize_grid(grid, self.__name__)
        raise _spec.ArgumentError("%s: bad grid %r" % (self.__name__, grid))

    # -- the miss path -----------------------------------------------------
    def _bind(self, args, kwargs):
        # a launch option that is also a parameter's name (the fused-softmax
        # tutorial's `num_stages: tl.constexpr`) is both, as in Triton
        bound = self.signature.bind(*args, **{k: v for k, v in kwargs.items()
                                              if k not in _LAUNCH_OPTIONS or k in self.arg_names})
        bound.apply_defaults()
        return tuple(bound.arguments[p.name] for p in self.params)

    def _miss(self, key, args, opts, warmup):
        kern = self._hot.get(key)
        if kern is None or warmup:
            kern = self._compile_bound(args, opts, mock=warmup)
            if not warmup:
                self._hot[key] = kern
                nrt = sum(1 for p in self.params if not p.is_constexpr)
                self._add_fast(key[2 * nrt:], kern, args)
        if not self._entry_torch and "torch" in sys.modules:
            self._make_entry()  # torch was imported after the first launch
        return kern

    def _add_fast(self, fkey, kern, args):
        """Puts a C launcher for `kern` at the head of the chain of its
        constexprs and options (`fkey`: the constexpr values, num_warps,
        num_stages, the other options). A new Launcher each time: one object
        is never in two chains. Whether one was added."""
        make = getattr(kern, "make_launcher", None)  # (tests stand in a kernel without one)
        launcher = make(self, args) if make is not None else None
        if launcher is None:
            return False
        head, n = self._fast.get(fkey), 0
        l = head
        while l is not None:
            l, n = l.next, n + 1
        if n >= 8:  # many specialisations of one set of constexprs: the rest take the Python path
            return False
        launcher.next = head
        self._fast[fkey] = launcher
        return True

    def classify_args(self, args, mock=False):
        """The ArgInfo of every runtime parameter (None for constexprs)."""
        out = []
        for p, a in zip(self.params, args):
            if p.is_constexpr:
                out.append(None)
                continue
            out.append(_spec.classify(a, p.name, self.__name__,
                                      specialize=not p.do_not_specialize,
                                      align=not p.do_not_specialize_on_alignment, mock=mock,
                                      annotation=p.annotation))
        return out

    def _check_args(self, infos):
        """Device and layout checks; returns the tc_device_kind."""
        devices = {}
        for p, info in zip(self.params, infos):
            for leaf in _spec.flat_leaves([info]) if info is not None else ():
                if leaf.kind == "ptr" and leaf.device:
                    devices.setdefault(leaf.device, p.name)
        # a device tritonc does not run on (a 'meta' tensor has no data) is
        # named first: the mixed-device message below knows only two
        unknown = [d for d in devices if d not in ("cpu", "cuda")]
        if unknown:
            raise _spec.ArgumentError("%s: argument '%s' is on device '%s'; tritonc runs kernels "
                                      "on the CPU and on CUDA" % (self.__name__,
                                                                  devices[unknown[0]], unknown[0]))
        if len(devices) > 1:
            raise _spec.ArgumentError(
                "%s: arguments on different devices: '%s' on the CPU, '%s' on CUDA"
                % (self.__name__, devices.get("cpu"), devices.get("cuda")))
        return (_lib.TC_DEVICE_CUDA if "cuda" in devices else _lib.TC_DEVICE_CPU), devices

    def global_constexprs(self):
        """(name, text) for every module global the kernel (and its @jit
        helpers) refers to that is a constant, and the @jit helpers that live
        in other modules. Read once, at the first launch, as Triton does; a
        reading made ahead, at decoration (_read_ahead), stands when every
        global it read is still the same object."""
        if self._globals is not None:
            check, self._globals_check = self._globals_check, None
            if check is None or all(g.get(n, _ABSENT) is v for g, n, v in check):
                return self._globals
            self._globals = self._source = None  # a global changed since: read again
        reads = []  # (globals dict, name, value or _ABSENT): what this reading depends on
        params = {p.name for p in self.params}
        seen, todo, consts, foreign = set(), [self], {}, []
        my_file = self.fn.__code__.co_filename
        # Globals the source text does not bind at its top level (defined
        # under an `if` or `try`, imported under another name, or living
        # in a helper's own module): bound by lines appended to the source
        # (a kernel defined in a function is compiled alone: nothing is bound)
        top = _top_level_names(my_file) if not self._nested else set()
        bindings = {}
        for r in self._fn_roots:
            # (a function argument's source is in the file when it is one of
            # its top-level definitions, else it is appended, under its own
            # name, which must then be free)
            if r is not self and (r.fn.__code__.co_filename != my_file or r._nested or self._nested or
                                  (top is not None and r.fn.__name__ not in top)):
                name = r.fn.__name__
                if (top and name in top) or any(f.fn.__name__ == name for f in foreign):
                    self._fn_roots.remove(r)
                    raise _spec.ArgumentError(
                        "%s: the @jit function argument %s shares its name with another function "
                        "the kernel's source defines; tritonc finds a function argument by name: "
                        "rename one of them" % (self.__name__, r))
                foreign.append(r)
            todo.append(r)
        # The source is one namespace: an appended def whose name the source
        # gives something else (the file's own global, another module's
        # helper of the same name) is appended renamed, `_helper__tc2`
        flat = {id(r): r.fn.__name__ for r in foreign}
        taken = {r.fn.__name__: r for r in foreign}
        mine = self.fn.__globals__

        def flat_name(v, appended):
            n = flat.get(id(v))
            if n is not None:
                return n
            n, k = v.fn.__name__, 1
            while appended and ((n in taken and taken[n] is not v) or n == self.fn.__name__ or
                                (top and n in top and mine.get(n, _ABSENT) is not v)):
                k += 1
                n = "%s__tc%d" % (v.fn.__name__, k)
            flat[id(v)], taken[n] = n, v
            return n

        def on_jit(v, jf=None, name=None, own=False):
            """A @jit function the kernel reaches: its source appended when the
            kernel's does not hold it, or an alias bound to its name. Returns
            the name its def has in the source."""
            todo.append(v)
            appended = v is not self and (v in foreign or v.fn.__code__.co_filename != my_file or
                                          v._nested or self._nested or
                                          (top is not None and v.fn.__name__ not in top))
            if appended and v not in foreign:
                foreign.append(v)
            n = flat_name(v, appended)
            # read under another name (`from .ops import silu as _silu`, `cube =
            # triton.jit(_cube)` imported): the source's own binding of the name
            # is one the front end can follow only when the def is the file's
            if name is not None and v is not self and n != name and (appended or not own):
                if taken.get(name, v) is not v or bindings.setdefault(name, "%s = %s" % (name, n)) != \
                        "%s = %s" % (name, n):
                    raise _spec.ArgumentError(
                        "%s: the name '%s' stands for two @jit functions in the modules it reads (%s and %s); "
                        "tritonc gives the kernel and its helpers one namespace: rename one of them"
                        % (self.__name__, name, v, taken.get(name) or bindings[name]))
            return n

        while todo:
            jf = todo.pop()
            if id(jf) in seen:
                continue
            seen.add(id(jf))
            g = jf.fn.__globals__
            code = jf.fn.__code__
            names = jf._names
            if jf.fn.__closure__:  # a kernel defined in a function sees its closure too
                reads = None  # (cells are not checked: a reading ahead does not stand)
                g = dict(g)
                names = set(names)
                for name, cell in zip(code.co_freevars, jf.fn.__closure__):
                    try:
                        g[name] = cell.cell_contents
                        names.add(name)
                    except ValueError:
                        pass
                names = sorted(names)
            for name in names:
                v = g.get(name, _ABSENT)
                if reads is not None:
                    reads.append((g, name, v))
                if v is _ABSENT:
                    continue
                own = jf.fn.__code__.co_filename == my_file and top is not None and name in top
                if isinstance(v, JITFunction):
                    on_jit(v, jf, name, own)
                    continue
                if _user_module(v) and name not in params:
                    # (bound even where the source imports it: the C front end
                    # knows no module of the user's)
                    bindings.setdefault(name, "import types as _tc_types\n" +
                                        "\n".join(_space_binding(name, v, names, on_jit)))
                    continue
                if not own and name not in params:
                    b = _global_binding(name, v)
                    if b is not None:
                        bindings.setdefault(name, b)
                if (_spec.is_constexpr_global(v) and name not in params
                      and not (isinstance(v, str) and jf is not self and name in consts)):
                    try:
                        text = _spec.constexpr_text(v)
                    except TypeError:
                        continue
                    if consts.setdefault(name, text) != text and not isinstance(v, str):
                        # (one namespace, as for @jit functions: not the first one read, silently)
                        raise _spec.ArgumentError(
                            "%s: the global '%s' is %s in the module of %s and %s in another module the kernel "
                            "reads; tritonc gives the kernel and its helpers one namespace: rename one of them"
                            % (self.__name__, name, text, jf, consts[name]))
        # @jit functions made by calling triton.jit (`cube = triton.jit(_cube)`)
        # whose def the source holds undecorated: wrapped again there, first
        wraps = []
        for f in [self] + foreign:
            if (f is not self or self._nested) and not _decorated(f.fn):
                n = flat.get(id(f), f.fn.__name__)
                wraps.append("%s = _tc_triton.jit(%s%s)" % (n, n, ", noinline=True" if f.noinline else ""))
        self._flat = flat
        self._globals = (sorted(consts.items()), foreign)
        self._bindings = wraps + sorted(bindings.values())
        self._globals_reads = reads
        return self._globals

    def _read_ahead(self):
        """At decoration: the source and the globals' reading, made now so
        that the first launch only checks that the globals read are the
        same objects (global_constexprs). Not for a kernel with a closure;
        any failure is left for the first launch to meet again."""
        try:
            self.source().encoded  # (the bytes tc_compile takes, made once)
        except Exception:
            self._globals = self._source = None
            return
        if self._globals_reads is None:
            self._globals = self._source = None
            return
        # prep()'s tuple, for the C Entry to take at the first launch when
        # every global read (torch's import among them: the tuple names
        # torch.Tensor) is still the same object
        try:
            reads = tuple(self._globals_reads) + ((sys.modules, "torch", sys.modules.get("torch", _ABSENT)),)
            self._ahead = (self._prepared(self._source, self._globals[0]), reads, _ABSENT)
        except Exception:
            self._ahead = None
        self._globals_check = self._globals_reads

    def source(self):
        if self._globals_check is not None:
            self.global_constexprs()  # a reading ahead, checked at its first use
        if self._source is None:
            s = _Source(*(self._src0 or _source_of(self.fn)))
            foreign = self.global_constexprs()[1]
            for helper in foreign:
                s.append(helper.fn, self._flat.get(id(helper)))
            # (after the helpers: a binding may name one, `_silu = silu`, and
            # the front end reads a module global's value where it stands)
            if self._bindings:
                s.append_text("import triton as _tc_triton\n" + "\n".join(self._bindings) + "\n")
            self._source = s
        return self._source

    def _debug(self, option):
        """Triton's debug mode (device asserts kept): the launch or compile
        option, then @jit(debug=...), then TRITON_DEBUG read as Triton's knobs
        read a flag (1/true/on/yes/y)."""
        debug = option if option is not None else self.debug
        if debug is None:
            debug = os.environ.get("TRITON_DEBUG", "").strip().lower() in ("1", "true", "on", "yes", "y")
        return bool(debug)

    def constexpr_pairs(self, args, infos):
        """The (name, text) constexprs a compile of these bound arguments
        takes (infos: classify_args'): the tl.constexpr parameters', the
        runtime parameters given None, a @jit function or a tl.constexpr,
        then the module globals the kernel reads that those do not shadow."""
        cx = []
        for p, a, info in zip(self.params, args, infos):
            if p.is_constexpr:
                try:
                    cx.append((p.name, _spec.constexpr_text(a)))
                except TypeError as e:
                    raise _spec.ArgumentError("%s: constexpr '%s': %s"
                                              % (self.__name__, p.name, e)) from None
            elif info.kind == "none":
                cx.append((p.name, _spec.constexpr_text(a) if info.desc in ("JITFunction", "constexpr")
                           else "None"))
        gl, _ = self.global_constexprs()
        names = {n for n, _ in cx}
        return cx + [(n, v) for n, v in gl if n not in names]

    def _add_fn_roots(self, args):
        """The @jit functions among the constexpr arguments (tuples
        searched) that this kernel's source does not hold yet: their
        sources are added, and the source and the globals' reading are
        made again. Returns the ids of all the @jit functions found (a
        part of the specialisation's key: two functions may share a name)."""
        new, ids = [], []

        def walk(v):
            if isinstance(v, _core.constexpr):
                v = v.value
            if isinstance(v, JITFunction):
                ids.append(id(v))
                if v is not self and v not in self._fn_roots and v not in new:
                    new.append(v)
            elif isinstance(v, tuple):
                for x in v:
                    walk(x)
        for a in args:
            walk(a)
        if new:
            self._fn_roots.extend(new)
            self._globals = self._source = None
            self._globals_check = None
            self.hash = None
        return tuple(ids)

    def _compile_bound(self, args, opts, mock=False):
        fn_ids = self._add_fn_roots(args)
        infos = self.classify_args(args, mock=mock)
        device, devices = self._check_args(infos)
        sig = _spec.signature_string([i for i in infos if i is not None])
        cx = self.constexpr_pairs(args, infos)
        num_warps = opts.get("num_warps")
        num_stages = opts.get("num_stages")
        if isinstance(num_warps, int) and (num_warps <= 0 or num_warps & (num_warps - 1)):
            # (Triton's backend options assert it, whatever the device: 0 and
            # negatives too, which were taken for the default 4)
            raise AssertionError("num_warps must be a power of 2")
        debug = self._debug(opts.get("debug"))
        spec_key = (sig, tuple(cx), num_warps or 4, num_stages if num_stages is not None else 3,
                    device, debug) + ((fn_ids,) if fn_ids else ())
        kern = self.cache.get(spec_key)
        if kern is not None:
            return kern
        src = self.source()
        handle, err = _lib.compile(src.encoded, src.filename, self.__name__, sig, cx, device,
                                   num_warps, num_stages,
                                   cache_dir=os.environ.get("TRITONC_CACHE_DIR"), debug=debug)
        if err is not None:
            self._raise_compile_error(err, device, devices)
        kern = CompiledKernel(handle, self, infos, sig, cx, device, num_warps, num_stages)
        kern._figures()  # (its checks, now rather than at a later attribute read)
        self.cache[spec_key] = kern
        _static_prints(kern)
        return kern

    def _raise_compile_error(self, err, device, devices):
        msg, diags = err
        src = self.source()
        if device == _lib.TC_DEVICE_CUDA and not any(d.line for d in diags):
            raise RuntimeError("%s: argument '%s' is a CUDA tensor, and this libtritonc cannot "
                               "compile for CUDA: %s" % (self.__name__, devices["cuda"],
                                                         msg.strip()))
        mapped = []
        for d in diags:
            f, line = src.where(d.file, d.line)
            mapped.append(d._replace(file=f, line=line, col=src.col(d.file, d.line, d.col)))

        def source_line(f, line):
            for d0, d1 in zip(diags, mapped):
                if (d1.file, d1.line) == (f, line):
                    return src.line(d0.file, d0.line)
            return src.line(f, line)

        text = render(mapped, source_line) if mapped else msg
        raise CompilationError(self.__name__, mapped, text)


# The generator's identity: a launcher code object stored by another version
# of this file is not used.
try:
    _st = os.stat(__file__)
    _GENERATOR_ID = "%d-%d" % (_st.st_size, _st.st_mtime_ns)
except OSError:
    _GENERATOR_ID = "?"


def _f32_inf(*args):
    """`args` with every float that fp32 cannot hold made +-inf."""
    out = []
    for a in args:
        if type(a) is float:
            try:
                struct.pack("<f", a)
            except OverflowError:
                a = math.copysign(math.inf, a)
        out.append(a)
    return out


def _launcher_code(shape, make_text, name):
    """The generated launcher's code object, through the disk cache:
    generating and compiling the text costs ~0.2-1 ms, which a new process
    would otherwise pay on its first launch of every kernel; marshal.loads of
    the stored code object costs ~30 us. The entry is keyed by `shape`
    (what the text is made from), this file's size and mtime and Python's
    bytecode magic, and holds the key it was stored under, which must
    match."""
    import marshal
    import zlib
    from importlib.util import MAGIC_NUMBER
    key = repr((shape, _GENERATOR_ID, name))
    path = os.path.join(_lib.cache_dir(), "py", "launcher-%s-%08x-%d.marshal" % (
        MAGIC_NUMBER.hex(), zlib.crc32(key.encode()), len(key)))
    try:
        with open(path, "rb") as f:
            stored_key, code = marshal.loads(f.read())
        if stored_key == key:
            return code
    except Exception:  # absent, unreadable or damaged: compile again
        pass
    code = compile(make_text(), name, "exec")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = "%s.tmp-%d-%d" % (path, os.getpid(), id(code))
        with open(tmp, "wb") as f:
            f.write(marshal.dumps((key, code)))
        os.replace(tmp, path)  # atomic: readers see a whole entry or none
    except OSError:
        pass
    return code


def _bigint_key(a, specialize):
    try:
        sig = _spec.int_sig(a)
    except OverflowError:
        return ("I", "overflow", a)
    return ("I", sig, _spec.int_hint(a, specialize))


def _flatten_values(vals):
    """Launch values with tuple arguments' values (tuples, see _slow_key)
    spread in place."""
    out = []
    for v in vals:
        if type(v) is tuple:
            out += _flatten_values(v)
        else:
            out.append(v)
    return out


def _tuple_key(t):
    """(values, key) of a tuple argument: its leaves' values (None leaves,
    which are no parameter, left out) and their specialisation keys."""
    vals, keys = [], []
    for x in t:
        tx = type(x)
        if x is None:
            keys.append(None)
            continue
        if isinstance(x, (_core.constexpr, JITFunction)):  # a constexpr leaf: no slot
            keys.append(("cx", id(x) if isinstance(x, JITFunction) else _cx_key(x.value)))
            continue
        if tx is int:
            v, k = x, (_bigint_key(x, True) if not -2**31 <= x < 2**31 else 1 if x == 1 else 16 if not x & 15 else 0)
        elif tx is float:
            v, k = x, "f"
        elif isinstance(x, tuple):
            v, k = _tuple_key(x)
        else:
            v, k = _slow_key(x)
        vals.append(v)
        keys.append(k)
    return tuple(vals), ("()", type(t), tuple(keys))


def _cx_key(v):
    """A hashable key of a constexpr leaf's value (its text, or its id)."""
    try:
        return _spec.constexpr_text(v)
    except TypeError:
        return ("id", id(v))


def _slow_key(a):
    """(value to pack, key) for the argument types the generated code does
    not handle inline. An unknown type gets a key no compile accepts, so the
    miss path reports it by name."""
    if a is None:
        return 0, None
    if isinstance(a, tuple):
        return _tuple_key(a)
    if a is True or a is False:
        return a, "b"
    if isinstance(a, JITFunction):  # a constexpr: a key of its own
        return 0, ("F", id(a))
    if isinstance(a, _core.constexpr):
        return 0, ("C", _cx_key(a.value))
    if getattr(type(a), "_tritonc_descriptor", False):
        return _spec.descriptor_key(a)
    if _spec._is_torch_tensor(a) or (hasattr(a, "data_ptr") and hasattr(a, "dtype")):
        p = a.data_ptr()
        return p, ("T", type(a), a.dtype, not p & 15, str(getattr(a, "device", "cpu")))
    if _spec._is_ndarray(a):  # an ndarray subclass
        p = _spec.ndarray_address(a)
        return p, ("N", type(a), a.dtype, not p & 15)
    if _spec._is_np_scalar(a):
        k = a.dtype.kind
        if k == "b":
            return bool(a), "b"
        if k in "iu":
            v = int(a)
            return v, (_bigint_key(v, True) if not -2**31 <= v < 2**31
                       else 1 if v == 1 else 16 if v % 16 == 0 else 0)
        if k == "f":
            return float(a), "f"
    return 0, ("?", type(a), id(a))


def _grid_eval(grid, meta):
    g = grid(meta) if callable(grid) else grid
    if type(g) is tuple:
        return g
    if isinstance(g, int):
        return (g,)
    return tuple(g)


class _Asm(dict):
    """CompiledKernel.asm: the IR of each stage, read from the library on
    first access ("ttir", "ttir-raw", "c"; "ttgir", "ptx" on CUDA)."""

    STAGES = ("ttir", "ttir-raw", "c", "ttgir", "ptx", "cubin")

    def __init__(self, kernel):
        super().__init__()
        self._k = kernel

    def _load(self, stage):
        if stage not in self.STAGES or not self._k._handle:
            return None
        if stage == "cubin":  # bytes, as Triton's; CUDA kernels only
            get = getattr(self._k._L, "tc_kernel_binary", None)
            n = ctypes.c_size_t(0)
            p = get(self._k._handle, ctypes.byref(n)) if get else None
            return ctypes.string_at(p, n.value) if p else None
        s = self._k._L.tc_kernel_ir(self._k._handle, stage.encode())
        return s.decode("utf-8", "replace") if s is not None else None

    def __missing__(self, stage):
        v = self._load(stage)
        if v is None:
            raise KeyError(stage)
        self[stage] = v
        return v

    def get(self, stage, default=None):
        try:
            return self[stage]
        except KeyError:
            return default

    def __contains__(self, stage):
        return self.get(stage) is not None

    def keys(self):
        return [s for s in self.STAGES if s in self]

    def __iter__(self):
        return iter(self.keys())


def _static_prints(kern):
    """tl.static_print prints at compile time, as Triton's does."""
    for line in kern._messages.splitlines():
        if line.startswith("static_print: "):
            print(line[len("static_print: "):], flush=True)


# CompiledKernel's attributes made on first use (_figures): a first launch
# from the C Entry reads none of them
_FIGURES = frozenset(("n_regs", "n_spills", "metadata", "param_types", "_messages", "_slot_sigs",
                      "_live", "_slot_live", "_has_tuples", "_err"))
_CTYPES_PATH = frozenset(("_pack", "_call", "_struct", "_buf", "_args"))


class _HookAttrs(type):
    """CompiledKernel's metaclass: assigning the older class attributes
    `CompiledKernel.launch_enter_hook` / `launch_exit_hook` updates the flag
    the launchers read (_hooks_changed)."""

    def __setattr__(cls, name, value):
        super().__setattr__(name, value)
        if name in ("launch_enter_hook", "launch_exit_hook"):
            _hooks_changed()


class CompiledKernel(metaclass=_HookAttrs):
    """One specialisation, compiled and loaded. `asm` holds its IR text,
    `metadata` what it was compiled with; `kernel[grid](*runtime_args)`
    launches it directly."""

    # Triton's older hooks (before triton.knobs.runtime): called around
    # every launch, as those of the knobs are
    launch_enter_hook = None
    launch_exit_hook = None

    def __init__(self, handle, fn, infos, signature, constexprs, device, num_warps, num_stages,
                 messages=None):
        # infos: the ArgInfos the kernel was compiled for (None: a C Entry's
        # compile, whose runtime parameters are all plain tensors and scalars)
        self._handle = handle
        self.fn = fn
        self.name = fn.__name__
        self.signature = signature
        self.constants = dict(constexprs)
        self.device = device
        self._infos, self._num_warps, self._num_stages = infos, num_warps, num_stages
        if messages is not None:
            self._messages = messages
        self._L = _lib.lib()  # the library that owns the handle frees it

    def _figures(self):
        """The kernel's figures (one call into the C launcher, or ctypes),
        its runtime slots and Triton's metadata."""
        handle, L, device = self._handle, self._L, self.device
        cext = _cext.module()
        if cext is not None:
            n, shared, regs, local, msgs = cext.kernel_info(handle)
        else:
            n = L.tc_kernel_num_params(handle)
            attr = getattr(L, "tc_kernel_attribute", None)
            shared, regs, local = ((attr(handle, b"shared"), attr(handle, b"num_regs"),
                                    attr(handle, b"local_bytes")) if attr else (0, 0, 0))
            get = getattr(L, "tc_kernel_messages", None)
            msgs = (get(handle) or b"").decode("utf-8", "replace") if get else ""
        self.__dict__.setdefault("_messages", msgs)
        if self._infos is not None:
            runtime = _spec.flat_leaves([i for i in self._infos if i is not None])
            slot_sigs = [None if i.kind == "none" else i.sig for i in runtime]
            # tuple arguments: the generated launcher hands each as a tuple of
            # its leaves' values, packed flat
            self._has_tuples = any(i is not None and i.kind == "tuple" for i in self._infos)
        else:
            slot_sigs = [e.split(":")[0] for e in self.signature.split(",")] if self.signature else []
            self._has_tuples = False
        live = [j for j, s in enumerate(slot_sigs) if s is not None]
        self._slot_live = [s is not None for s in slot_sigs]
        if len(live) != n:
            raise RuntimeError("tritonc: %s compiled with %d runtime parameters, the binding "
                               "passes %d" % (self.name, n, len(live)))
        # the types it was compiled for: the signature's (what tc_kernel_param_type says)
        self.param_types = [slot_sigs[j] for j in live]
        self._slot_sigs, self._live = slot_sigs, live
        self._err = ctypes.c_void_p()  # the ctypes path's tc_launch error
        # Registers and shared memory as Triton's CompiledKernel reports them
        # (the fused-softmax tutorial divides by both to get an occupancy):
        # the driver's figures for a loaded CUDA kernel. The CPU has neither:
        # it reports a nominal 32 registers and the CPU driver's whole
        # "shared memory", so that occupancy is one program per core.
        if device == _lib.TC_DEVICE_CUDA:
            self.n_regs, self.n_spills = regs, max(local, 0) // 4
        else:
            from .runtime.driver import CPU_MAX_SHARED_MEM
            shared, self.n_regs, self.n_spills = CPU_MAX_SHARED_MEM, 32, 0
        num_warps, num_stages = self._num_warps, self._num_stages
        self.metadata = types.SimpleNamespace(
            name=self.name, signature=self.signature, constants=self.constants,
            num_warps=num_warps or 4, num_stages=num_stages if num_stages is not None else 3,
            num_ctas=1, shared=max(shared, 0), device="cuda" if device == _lib.TC_DEVICE_CUDA else "cpu",
            target="cuda" if device == _lib.TC_DEVICE_CUDA else "cpu",
            param_types=self.param_types)

    def _init_handles(self):
        """Triton loads the binary here; tritonc loaded it when compiling."""

    @property
    def function(self):
        """The loaded kernel's handle (Triton's CUfunction; here the library's)."""
        return self.__dict__.get("_handle")

    def launch_metadata(self, grid, stream, *args):
        """What the launch hooks get: a LazyDict of the kernel's name,
        function and stream, and, when the @jit had `launch_metadata=`, what
        that function returns for (grid, metadata, {parameter: argument})."""
        ret = LazyDict({"name": self.name, "function": self.function, "stream": stream})
        fn = getattr(self.fn, "launch_metadata", None)
        if fn is not None:
            names = self.fn.arg_names
            if len(args) != len(names):  # runtime arguments only: the constexprs are known
                it = iter(args)
                args = [self.constants.get(p.name) if p.is_constexpr else next(it, None)
                        for p in self.fn.params]
            ret.add(fn, (grid, self.metadata, dict(zip(names, args))))
        return ret

    def __getattr__(self, name):
        """`asm`, the figures (_figures) and the ctypes launch path (`_pack`,
        `_call` and their buffers), made on first use: a first launch
        through the C Entry needs none of them, and making them costs it ~0.1 ms."""
        d = self.__dict__
        if name == "asm" and "_handle" in d:
            self.asm = _Asm(self)
            return self.asm
        if "_handle" not in d or not (name in _FIGURES or name in _CTYPES_PATH):
            raise AttributeError(name)
        if "_slot_sigs" not in d:
            self._figures()
        if name in _CTYPES_PATH:
            self._make_ctypes_path()
        return d[name]

    def _make_ctypes_path(self):
        n, live = len(self.param_types), self._live
        self._struct = struct.Struct(_spec.pack_format(self._slot_sigs))
        self._buf = (ctypes.c_char * max(self._struct.size, 16))()
        base = ctypes.addressof(self._buf)
        self._args = (ctypes.c_void_p * max(n, 1))(*[base + 16 + 8 * j for j in live])
        self._pack = functools.partial(self._struct.pack_into, self._buf, 0)
        if self._has_tuples:
            pack = self._pack
            self._pack = lambda *v: pack(*_flatten_values(v))
        # tc_launch(k, grid, args, nargs, stream, &err): every argument fixed
        # but the buffer's content and, on CUDA, the stream: torch's current
        # stream at each launch, as Triton does.
        vp = ctypes.c_void_p
        raw = _lib.raw_launch()
        fixed = (vp(self._handle), vp(base), vp(ctypes.addressof(self._args)), ctypes.c_int(n))
        errp = vp(ctypes.addressof(self._err))
        if self.device == _lib.TC_DEVICE_CUDA:
            stream, dev = _current_stream_fn()
            self._call = lambda: raw(*fixed, vp(stream(dev)), errp)
        else:
            self._call = functools.partial(raw, *fixed, None, errp)

    def make_launcher(self, fn, args):
        """A C Launcher (see _launcher.c) for launches whose runtime
        arguments have the types and specialisation of `args` (the bound
        arguments of the launch that compiled this kernel), or None when
        the C launcher is unavailable or an argument is of a kind it does
        not take (ndarrays, None, bools, wide ints: the Python path)."""
        cext = _cext.module()
        if cext is None or self._handle is None:
            return None
        torch = sys.modules.get("torch")
        slots = []
        for p, a in zip(fn.params, args):
            if p.is_constexpr:
                continue
            t = type(a)
            if torch is not None and t is torch.Tensor:
                aligned = -1 if p.do_not_specialize_on_alignment else int(not a.data_ptr() & 15)
                slots.append(("T", t, a.dtype, aligned, int(a.is_cuda), 0))
            elif t is int and -2**31 <= a < 2**31:
                cls = -1 if p.do_not_specialize else 1 if a == 1 else 16 if not a & 15 else 0
                slots.append(("i", None, None, 0, 0, cls))
            elif t is float:
                slots.append(("f", None, None, 0, 0, 0))
            else:
                return None
        if len(slots) != len(self.param_types):
            return None
        for (kind, *_), ty in zip(slots, self.param_types):
            if {"T": ty.startswith("*"), "i": ty == "i32", "f": ty == "fp32"}[kind] is not True:
                return None
        stream, dev = _current_stream_fn() if self.device == _lib.TC_DEVICE_CUDA else (None, None)
        try:
            return cext.Launcher(self._handle, stream, dev, self, tuple(slots))
        except (TypeError, ValueError):
            return None

    def _raise(self, err=None):
        """Raises the failed launch's LaunchError: `err` is its tc_error
        (the C Launcher's), else the ctypes path's error slot holds it."""
        if err is None:
            err = self._err.value
            self._err.value = None
        msg, _ = _lib.take_error(err) if err else ("tc_launch failed", [])
        raise LaunchError("%s: %s" % (self.name, msg.strip()))

    def __getitem__(self, grid):
        def launch(*args, stream=None):
            # Triton's CompiledKernel takes every parameter, constexprs
            # included (the fused-softmax tutorial launches what warmup()
            # returned that way); the runtime arguments alone work too
            params = self.fn.params
            args0 = args
            if self.device == _lib.TC_DEVICE_CUDA and not _cuda_available():
                raise RuntimeError("%s: compiled for CUDA; launching it needs a GPU, and torch "
                                   "sees none" % self.name)
            if len(args) == len(params) != len(self.param_types):
                # (a None argument has no slot)
                args = [a for p, a in zip(params, args) if not p.is_constexpr and a is not None]
            infos = _spec.flat_leaves([_spec.classify(a, "#%d" % i, self.name) for i, a in enumerate(args)])
            if len(infos) != len(self.param_types):
                raise TypeError("%s takes %d runtime arguments, %d given"
                                % (self.name, len(self.param_types), len(infos)))
            # a tensor on another device than the one the kernel was compiled
            # for would be read at an address that is not the tensor's
            want = "cuda" if self.device == _lib.TC_DEVICE_CUDA else "cpu"
            for j, i in enumerate(infos):
                if i.kind == "ptr" and i.device and i.device != want:
                    raise _spec.ArgumentError(
                        "%s: argument #%d is on %s, and the kernel was compiled for %s"
                        % (self.name, j, "CUDA" if i.device == "cuda" else "the CPU" if i.device == "cpu"
                           else "device '%s'" % i.device, "CUDA" if want == "cuda" else "the CPU"))
            vals = [i.value for i in infos]
            g = _spec.normalize_grid(grid(self.constants) if callable(grid) else grid, self.name)
            it = iter(vals)
            full = [next(it) if live else 0 for live in self._slot_live]
            md = _hook_enter(self, g, tuple(args0), stream) if _HOOKS[0] else None
            self._pack(*g, *full)
            if self._call():
                self._raise()
            if md is not None:
                _hook_exit(md)
        return launch

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        L = getattr(self, "_L", None)
        if h and L is not None:
            try:
                L.tc_kernel_free(h)
            except Exception:
                pass

    def __repr__(self):
        return "<tritonc CompiledKernel %s [%s]>" % (self.name, self.signature)


_STREAM_GETTERS = None


def _cuda_stream_getters():
    """(get_device, stream): get_device() is torch's current CUDA device,
    stream(device) its current stream there (a CUstream as an int; device
    -1: the device current at the call, as in torch's C++ API). The raw
    accessors are ~10x cheaper than torch.cuda.current_stream().cuda_stream.
    Looked up once (when the first kernel is defined, if torch is imported
    by then: a first launch is 10-20 us faster for it)."""
    global _STREAM_GETTERS
    if _STREAM_GETTERS is None:
        import torch
        # what current_device() returns, without its Python around it
        get_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _STREAM_GETTERS = get_device, raw or (
            lambda d: torch.cuda.current_stream(None if d < 0 else d).cuda_stream)
    return _STREAM_GETTERS


def _current_stream_fn():
    """(f, device): f(device) is torch's current CUDA stream on the device
    current when it is called (a launch after torch.cuda.set_device(1), or
    in `with torch.cuda.device(1):`, runs there, as Triton's does)."""
    return _cuda_stream_getters()[1], -1


_JIT_CLASS = None
_ABSENT = object()  # a global not defined (yet)


def _jit_class():
    """The class @jit makes: with the C launcher in use, JITFunction on the
    C base `JitBase`, whose `kernel[grid]` calls the Entry without running a
    Python frame (~0.1 us of every launch); else JITFunction itself."""
    global _JIT_CLASS
    if _JIT_CLASS is None:
        _preload()
        base = getattr(_cext.module(), "JitBase", None)
        if base is None:
            _JIT_CLASS = JITFunction
        else:
            class _CJITFunction(base, JITFunction):
                __doc__ = JITFunction.__doc__

                def __getstate__(self):
                    """copy.copy takes the __dict__, as of JITFunction (the
                    C base's front is made again at the copy's first launch)."""
                    return self.__dict__
            _CJITFunction.__name__ = _CJITFunction.__qualname__ = "JITFunction"
            _JIT_CLASS = _CJITFunction
    return _JIT_CLASS


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=None,
        do_not_specialize_on_alignment=None, debug=None, noinline=None):
    """`@triton.jit` and `@triton.jit(do_not_specialize=[...])`."""

    def deco(f):
        return _jit_class()(f, version=version, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment,
                           debug=debug, noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata)

    return deco(fn) if fn is not None else deco



class LazyDict:
    """Triton's launch-hook argument: `data` (a dict: "name", "function",
    "stream") and `get()`, which adds what the @jit's launch_metadata
    function returns (run on the first get())."""

    def __init__(self, data):
        self.data = data
        self.extras = []

    def get(self):
        for func, args in self.extras:
            self.data = self.data | func(*args)
        self.extras.clear()
        return self.data

    def add(self, func, args):
        self.extras.append((func, args))


# [any launch hook set]: the Python launchers read it; the C launcher has its
# own copy (set_hooks) and hands launches to Python while it is set
_HOOKS = [False]


def _hook_lists():
    """(enter hooks, exit hooks): triton.knobs.runtime's (a HookChain or a
    callable assigned) and CompiledKernel's older class attributes."""
    from . import knobs
    rt = knobs.runtime
    enter = [h for h in (rt.launch_enter_hook, CompiledKernel.launch_enter_hook) if h]
    exit_ = [h for h in (rt.launch_exit_hook, CompiledKernel.launch_exit_hook) if h]
    return enter, exit_


def _hooks_changed():
    enter, exit_ = _hook_lists()
    on = bool(enter or exit_)
    _HOOKS[0] = on
    set_hooks = getattr(_cext.module(), "set_hooks", None)
    if set_hooks is not None:
        set_hooks(on)


def _hook_enter(kern, grid, args, stream=None):
    """Calls the enter hooks of a launch of `kern`; what _hook_exit takes."""
    if kern.device == _lib.TC_DEVICE_CUDA and stream is None:
        try:
            f, dev = _current_stream_fn()
            stream = f(dev)
        except Exception:
            stream = None
    g = tuple(grid) + (1, 1, 1)[len(grid):]
    md = kern.launch_metadata(g, stream, *args)
    enter, exit_ = _hook_lists()
    for h in enter:
        h(md)
    return md, exit_


def _hook_exit(state):
    md, exit_ = state
    for h in exit_:
        h(md)


def _cuda_available():
    torch = sys.modules.get("torch")
    try:
        return bool(torch is not None and torch.cuda.is_available())
    except Exception:
        return False
