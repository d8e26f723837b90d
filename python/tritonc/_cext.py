"""tritonc._cext - the C launcher (_launcher.c), built on first use.

`module()` returns the `_tritonc_launcher` extension module, or None when it
cannot be had; the binding then keeps its generated pure-Python launcher,
which computes the same keys and packs the same values (only slower).

The extension is compiled once per source text and Python ABI with the
system's C compiler ($CC, else `cc`) and Python's own headers
(sysconfig's include folder: python3-dev on Debian) into
`<cache>/py/_tritonc_launcher-<crc of the source>-<cache tag><ext suffix>`,
written under a temporary name and renamed, so concurrent processes never
load half a file. Later processes only load it (~50 us).

TRITONC_LAUNCHER=python turns the C launcher off (to compare, or to work
around a problem); any failure to build or load it does the same, silently:
`build_error()` says why.
"""
import os
import sys

from . import _lib

_NAME = "_tritonc_launcher"
_module = None
_tried = False
_error = None
_bound = None  # the _lib.lib() whose functions the module calls


def build_error():
    """Why the C launcher is not in use (None when it is, or not tried yet)."""
    return _error


def module():
    global _module, _tried, _error
    if _tried:
        if _module is not None and _lib._lib is not _bound:
            try:  # the library was swapped (tests load a fake one)
                _bind(_module)
            except ImportError as e:
                _error, _module = "%s: %s" % (type(e).__name__, e), None
        return _module
    _tried = True
    if os.environ.get("TRITONC_LAUNCHER", "").lower() == "python":
        _error = "TRITONC_LAUNCHER=python"
        return None
    try:
        _module = _load_or_build()
    except Exception as e:  # no compiler, no Python.h, a read-only cache...
        _error = "%s: %s" % (type(e).__name__, e)
        _module = None
    return _module


def _paths():
    import zlib
    from importlib.machinery import EXTENSION_SUFFIXES
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_launcher.c")
    with open(src, "rb") as f:
        text = f.read()
    tag = "%08x-%d-%s" % (zlib.crc32(text), len(text), sys.implementation.cache_tag)
    out = os.path.join(_lib.cache_dir(), "py", "%s-%s%s" % (_NAME, tag, EXTENSION_SUFFIXES[0]))
    return src, out


def _load_or_build():
    from importlib.machinery import ExtensionFileLoader
    from importlib.util import module_from_spec, spec_from_file_location
    src, out = _paths()
    if not os.path.exists(out):
        _build(src, out)
    loader = ExtensionFileLoader(_NAME, out)
    spec = spec_from_file_location(_NAME, out, loader=loader)
    m = module_from_spec(spec)
    loader.exec_module(m)
    _bind(m)  # the library's functions, found once (ImportError: the Python path)
    return m


def _bind(m):
    global _bound
    L = _lib.lib()
    m.bind(L._handle)
    _bound = L


def _build(src, out):
    import shlex
    import shutil
    import subprocess
    import sysconfig
    inc = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(inc, "Python.h")):
        raise RuntimeError("no Python.h in %s (install python3-dev)" % inc)
    cc = shlex.split(os.environ.get("CC") or "") or [shutil.which("cc") or shutil.which("gcc")
                                                     or "cc"]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tmp = "%s.tmp-%d" % (out, os.getpid())
    r = subprocess.run(cc + ["-O2", "-shared", "-fPIC", "-I" + inc, src, "-o", tmp],
                       capture_output=True, text=True)
    if r.returncode != 0:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise RuntimeError("building the C launcher failed:\n" + r.stderr[-2000:])
    os.replace(tmp, out)
