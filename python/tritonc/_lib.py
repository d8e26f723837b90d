"""tritonc._lib - libtritonc.so through ctypes.

The library is found, in order, at $TRITONC_LIB, next to this package
(`tritonc/libtritonc.so`, for an installed copy), in the repository's build
folder (`python/tritonc/../../build/libtritonc.so`), then by the system's
loader under its soname (`ctypes.CDLL("libtritonc.so")`: LD_LIBRARY_PATH,
the ld.so cache), and only as a last resort through
`ctypes.util.find_library("tritonc")`, which spawns gcc and ldconfig (tens
of milliseconds) and is therefore imported and run only when everything
else failed. It is opened on first use, so `import tritonc` (and every
unit test of the pure-Python parts) works without it.

Every prototype of include/tritonc.h is declared here with its argtypes and
restype; structs mirror the header field for field.
"""
import ctypes
import os
import threading

from .errors import Diagnostic

TC_DEVICE_CPU = 0
TC_DEVICE_CUDA = 1


class tc_constexpr(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class tc_compile_options(ctypes.Structure):
    _fields_ = [
        ("source", ctypes.c_char_p),
        ("source_len", ctypes.c_size_t),
        ("filename", ctypes.c_char_p),
        ("kernel", ctypes.c_char_p),
        ("signature", ctypes.c_char_p),
        ("constexprs", ctypes.POINTER(tc_constexpr)),
        ("num_constexprs", ctypes.c_int),
        ("device", ctypes.c_int),
        ("target", ctypes.c_char_p),
        ("num_warps", ctypes.c_int),
        ("num_stages", ctypes.c_int),
        ("cache_dir", ctypes.c_char_p),
        ("debug", ctypes.c_int),
    ]


class LibraryNotFound(RuntimeError):
    pass


_lock = threading.Lock()
_lib = None


SONAME = "libtritonc.so"


def candidates():
    """The paths tried before the system loader, in order (no subprocess)."""
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    env = os.environ.get("TRITONC_LIB")
    if env:
        out.append(env)
    out.append(os.path.join(here, SONAME))
    out.append(os.path.join(os.path.dirname(os.path.dirname(here)), "build", SONAME))
    return out


def _find_library():
    """The last resort: ctypes.util.find_library, which runs ldconfig/gcc."""
    import ctypes.util
    return ctypes.util.find_library("tritonc")


def _open(tried):
    """The first library that opens: the candidate paths, then the system
    loader by soname, then find_library. Each failure goes into `tried`."""
    for path in candidates():
        if not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            return path, ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    try:
        return SONAME, ctypes.CDLL(SONAME)
    except OSError as e:
        tried.append("%s (%s)" % (SONAME, e))
    found = _find_library()
    if found:
        try:
            return found, ctypes.CDLL(found)
        except OSError as e:
            tried.append("%s (%s)" % (found, e))
    return None, None


def _declare(lib):
    P, I, S, VP = ctypes.POINTER, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p
    lib.tc_compile_options_default.argtypes = []
    lib.tc_compile_options_default.restype = tc_compile_options
    lib.tc_compile.argtypes = [P(tc_compile_options), P(VP), P(VP)]
    lib.tc_compile.restype = I
    lib.tc_kernel_ir.argtypes = [VP, S]
    lib.tc_kernel_ir.restype = S
    lib.tc_kernel_name.argtypes = [VP]
    lib.tc_kernel_name.restype = S
    lib.tc_kernel_num_params.argtypes = [VP]
    lib.tc_kernel_num_params.restype = I
    lib.tc_kernel_param_type.argtypes = [VP, I]
    lib.tc_kernel_param_type.restype = S
    # The hot path: every argument is an address (an int), so ctypes only
    # converts ints; the pointed-to arrays are built once per kernel.
    lib.tc_launch.argtypes = [VP, VP, VP, I, VP, VP]
    lib.tc_launch.restype = I
    lib.tc_kernel_free.argtypes = [VP]
    lib.tc_kernel_free.restype = None
    lib.tc_error_message.argtypes = [VP]
    lib.tc_error_message.restype = S
    lib.tc_error_count.argtypes = [VP]
    lib.tc_error_count.restype = I
    lib.tc_error_get.argtypes = [VP, I, P(S), P(I), P(I), P(S), P(S)]
    lib.tc_error_get.restype = None
    lib.tc_error_free.argtypes = [VP]
    lib.tc_error_free.restype = None
    lib.tc_version.argtypes = []
    lib.tc_version.restype = S
    if hasattr(lib, "tc_kernel_attribute"):  # optional: a fake or older library may lack them
        lib.tc_kernel_attribute.argtypes = [VP, S]
        lib.tc_kernel_attribute.restype = I
    if hasattr(lib, "tc_kernel_binary"):
        lib.tc_kernel_binary.argtypes = [VP, P(ctypes.c_size_t)]
        lib.tc_kernel_binary.restype = VP
    if hasattr(lib, "tc_kernel_messages"):
        lib.tc_kernel_messages.argtypes = [VP]
        lib.tc_kernel_messages.restype = S
    if hasattr(lib, "tc_cuda_attach"):
        lib.tc_cuda_attach.argtypes = []
        lib.tc_cuda_attach.restype = I
    return lib


def lib():
    """The loaded library (opened once)."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            tried = []
            path, handle = _open(tried)
            if handle is not None:
                try:
                    _lib = _declare(handle)
                    _lib._path = path
                except AttributeError as e:  # an older libtritonc without a symbol
                    tried.append("%s (%s)" % (path, e))
            if _lib is None:
                raise LibraryNotFound("tritonc: cannot load libtritonc.so; set TRITONC_LIB to its "
                                      "path (build it with `make`). Tried: " + "; ".join(tried))
    return _lib


def raw_launch():
    """tc_launch without argtypes, for the hot path: its caller passes
    prebuilt ctypes objects, which ctypes hands over without converting
    (~150 ns less per call than converting ints through argtypes)."""
    L = lib()
    f = getattr(L, "_raw_launch", None)
    if f is None:
        f = L["tc_launch"]  # a fresh function pointer, its own argtypes
        f.restype = ctypes.c_int
        L._raw_launch = f
    return f


def cache_dir():
    """The cache folder the C library uses by default (see tritonc.h)."""
    d = os.environ.get("TRITONC_CACHE_DIR")
    if d:
        return d
    d = os.environ.get("TRITON_CACHE_DIR")  # Triton's knob (triton.knobs.cache.dir)
    if d:
        return d
    d = os.environ.get("XDG_CACHE_HOME")
    if d:
        return os.path.join(d, "tritonc")
    d = os.environ.get("HOME")
    if d:
        return os.path.join(d, ".cache", "tritonc")
    return "/tmp/tritonc-cache"


def source_globals(text):
    """The names the top level of Python source `text` binds, as the C
    front end parses it (tc_source_globals); None without that function
    or without the library (decoration must work without it)."""
    try:
        L = lib()
    except LibraryNotFound:
        return None
    if not hasattr(L, "tc_source_globals"):
        return None
    src = text.encode("utf-8")
    buf = ctypes.create_string_buffer(4096)
    n = L.tc_source_globals(src, len(src), buf, len(buf))
    if n >= len(buf):
        buf = ctypes.create_string_buffer(n + 1)
        L.tc_source_globals(src, len(src), buf, len(buf))
    return buf.value.decode("utf-8", "replace").split()


def _s(b):
    return b.decode("utf-8", "replace") if b is not None else None


def take_error(err):
    """(rendered message, [Diagnostic]) from a tc_error*, which is freed."""
    L = lib()
    try:
        msg = _s(L.tc_error_message(err)) or ""
        diags = []
        for i in range(L.tc_error_count(err)):
            f, sev, m = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_char_p()
            line, col = ctypes.c_int(), ctypes.c_int()
            L.tc_error_get(err, i, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                           ctypes.byref(sev), ctypes.byref(m))
            diags.append(Diagnostic(_s(f.value), line.value, col.value, _s(sev.value) or "error",
                                    _s(m.value) or ""))
        return msg, diags
    finally:
        L.tc_error_free(err)


def compile(source, filename, kernel, signature, constexprs, device, num_warps, num_stages,
            target=None, cache_dir=None, debug=False):
    """tc_compile. Returns (handle, None) or (None, (message, diagnostics))."""
    L = lib()
    from . import _cext  # (imports this module)
    ext = _cext.module()
    if ext is not None:  # the C launcher's compile(): no ctypes structures to build
        src = source if isinstance(source, bytes) else source.encode("utf-8")
        k, err = ext.compile(src, filename, kernel, signature, tuple(constexprs),
                             device, num_warps or 0, -1 if num_stages is None else num_stages,
                             target, cache_dir, bool(debug))
        if k:
            return k, None
        if err:
            return None, take_error(err)
        return None, ("tc_compile failed without a diagnostic", [])
    o = L.tc_compile_options_default()
    src = source if isinstance(source, bytes) else source.encode("utf-8")
    o.source = src
    o.source_len = len(src)
    o.filename = filename.encode("utf-8")
    o.kernel = kernel.encode("utf-8")
    o.signature = signature.encode("utf-8")
    arr = (tc_constexpr * max(len(constexprs), 1))()
    keep = []
    for i, (n, v) in enumerate(constexprs):
        nb, vb = n.encode("utf-8"), v.encode("utf-8")
        keep += [nb, vb]
        arr[i].name, arr[i].value = nb, vb
    o.constexprs = arr
    o.num_constexprs = len(constexprs)
    o.device = device
    o.target = target.encode("utf-8") if target else None
    if num_warps is not None:
        o.num_warps = num_warps
    if num_stages is not None:
        o.num_stages = num_stages
    o.cache_dir = cache_dir.encode("utf-8") if cache_dir else None
    o.debug = 1 if debug else 0
    k, err = ctypes.c_void_p(), ctypes.c_void_p()
    rc = L.tc_compile(ctypes.byref(o), ctypes.byref(k), ctypes.byref(err))
    if rc != 0 or not k.value:
        if err.value:
            return None, take_error(err.value)
        return None, ("tc_compile failed without a diagnostic", [])
    return k.value, None
