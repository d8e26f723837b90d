# RUN: %python %s
# REQUIRES: torch, numpy
"""The first call and the hot path of the binding, on the CPU device:

- the library loader opens libtritonc without a subprocess (ctypes.util is
  never imported), falls back to the system loader by soname, and reports
  every place it tried;
- a new process with a warm cache is served by the source-keyed cache
  (tc_kernel_from_cache), computes the right result, and reads its IR from
  the entry; a damaged entry is compiled again;
- the C launcher (_launcher.c) and the pure-Python launcher
  (TRITONC_LAUNCHER=python) give the same results for the same launches,
  including the ones the C launcher hands back to Python (a new
  specialisation, an unaligned tensor, n == 1, ndarrays, a wrong argument);
- a damaged cached launcher code object is compiled again;
- kernels defined in a function are freed with their C launchers.
"""
import ctypes
import glob
import json
import os
import subprocess
import sys
import tempfile

# The launch cache and the loader on the CPU: even where tensors are made on
# CUDA by default (bench/gpu/python_tests_on_cuda.sh), this script, its
# reference and the processes it starts keep CPU tensors (and do not import
# torch where the loader is probed).
os.environ["TRITONC_TEST_DEVICE"] = "cpu"

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)


KERNELS = '''
import tritonc as triton
import tritonc.language as tl


@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, alpha * x + y, mask=m)
'''

CHILD = r'''
import ctypes, json, os, sys
sys.path.insert(0, sys.argv[1])
import torch

import numpy as np
import kernels
from tritonc import _cext, _lib
torch.manual_seed(0)
out = {"c_launcher": _cext.module() is not None, "results": []}
def run(x, y, n, alpha, block, grid=None):
    o = torch.zeros_like(x) if isinstance(x, torch.Tensor) else np.zeros_like(x)
    g = grid or ((n + block - 1) // block,)
    k = kernels.axpy[g](x, y, o, n, alpha, BLOCK=block)
    return [float(v) for v in o.reshape(-1)[:n + 3]], k
x = torch.rand(300); y = torch.rand(300)
first, k = run(x, y, 300, 2.0, 64)
L = _lib.lib()
L.tc_kernel_from_cache.argtypes = [ctypes.c_void_p]
out["from_cache"] = L.tc_kernel_from_cache(k._handle)
out["ttir"] = k.asm["ttir"]
out["results"].append(first)
for _ in range(3):                                       # the hot path
    out["results"].append(run(x, y, 300, 2.0, 64)[0])
out["results"].append(run(x, y, 256, 0.5, 64)[0])        # n % 16 == 0: a new specialisation
out["results"].append(run(x, y, 300, 0.5, 64)[0])        # back to the first
out["results"].append(run(x[1:], y[1:], 200, 1.5, 64)[0])  # unaligned: respecialised
out["results"].append(run(x, y, 1, 3.0, 64)[0])          # n == 1: specialised away
out["results"].append(run(x, y, 300, 2.0, 128)[0])       # another constexpr
out["results"].append(run(x.double(), y.double(), 50, 2.0, 64)[0])  # another dtype
out["results"].append(run(x, y, 300, 2.0, 64, grid=lambda m: (5,))[0])  # a grid function
out["results"].append(run(x.numpy(), y.numpy(), 300, 2.0, 64)[0])       # ndarrays
xa, ya = x.numpy().copy(), y.numpy().copy()
out["results"].append(run(xa, ya, 77, 2, 64)[0])         # an int alpha: a new type
try:
    kernels.axpy[(1,)](x, "nope", x, 10, 1.0, BLOCK=64)
    out["error"] = None
except Exception as e:
    out["error"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0])
out["fast"] = sum(1 for _ in kernels.axpy._fast)
print("RESULT " + json.dumps(out))
'''


def child(srcdir, cache, launcher=None, trace=False):
    env = dict(os.environ, TRITONC_CACHE_DIR=cache, PYTHONPATH=os.path.join(ROOT, "python"))
    env.pop("TRITONC_LAUNCHER", None)
    env.pop("TRITONC_TRACE", None)
    if launcher:
        env["TRITONC_LAUNCHER"] = launcher
    if trace:
        env["TRITONC_TRACE"] = "1"
    r = subprocess.run([sys.executable, "-c", CHILD, srcdir], capture_output=True, text=True,
                       env=env)
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")]
    if not line:
        print(r.stdout[-3000:], r.stderr[-3000:])
        check(False, "child failed (%s)" % launcher)
        return None
    out = json.loads(line[0][7:])
    out["trace"] = [ln.split("] ", 1)[1] for ln in r.stderr.splitlines() if ln.startswith("tritonc trace: ")]
    return out


# TRITONC_TRACE=1: the first call's timeline (src/support/trace.c), in this
# order, for a new process served by the source-keyed cache
TRACE_MARKS = ["launcher: first_in_c", "launcher: the source and globals (prep)", "launcher: the signature",
               "launcher: the constexprs and the key", "tc_compile", "tc_compile: the source cache's key",
               "srccache: the entry read", "tc_compile: a source cache hit", "launcher: tc_compile returned",
               "launcher: the CompiledKernel", "launcher: the Launcher", "launcher: the first launch"]


def test_first_call_and_launchers(tmp):
    srcdir = os.path.join(tmp, "src")
    os.makedirs(srcdir)
    with open(os.path.join(srcdir, "kernels.py"), "w") as f:
        f.write(KERNELS)
    cache = os.path.join(tmp, "cache")
    cold = child(srcdir, cache)
    warm = child(srcdir, cache)
    py = child(srcdir, cache, launcher="python")
    if not (cold and warm and py):
        return
    check(cold["c_launcher"], "the C launcher is not in use (python3-dev missing?)")
    check(not py["c_launcher"], "TRITONC_LAUNCHER=python still uses the C launcher")
    check(cold["fast"] >= 1 and py["fast"] == 0, "fast table: %r %r" % (cold["fast"], py["fast"]))
    check(cold["from_cache"] == 0, "a cold cache served the kernel")
    check(warm["from_cache"] == 1, "a warm cache did not serve the kernel")
    check(warm["ttir"] == cold["ttir"] and "tt.func" in warm["ttir"], "ttir from the entry")
    check(cold["results"] == warm["results"] == py["results"], "C and Python launchers differ")
    check(cold["error"] == py["error"] and cold["error"] and "ArgumentError" in cold["error"],
          "errors: %r vs %r" % (cold["error"], py["error"]))
    check(not cold["trace"] and not warm["trace"], "a timeline printed without TRITONC_TRACE")
    traced = child(srcdir, cache, trace=True)
    if traced:
        marks = [m for m in traced["trace"] if m in TRACE_MARKS]
        check(marks[:len(TRACE_MARKS)] == TRACE_MARKS, "TRITONC_TRACE's first call: %r" % traced["trace"][:20])
        check(traced["results"] == warm["results"], "results with TRITONC_TRACE")
    # the reference, computed another way
    import torch
    if hasattr(torch, "set_default_device"):
        torch.set_default_device("cpu")
    torch.manual_seed(0)
    x, y = torch.rand(300), torch.rand(300)
    ref = (2.0 * x + y)[:300].tolist() + [0.0, 0.0, 0.0]
    check(all(abs(a - b) < 1e-6 for a, b in zip(cold["results"][0], ref)), "axpy result")
    r1 = cold["results"][7]  # n == 1
    check(abs(r1[0] - (3.0 * x[0] + y[0]).item()) < 1e-6 and r1[1] == 0.0, "n == 1 result")
    xu, yu = x[1:], y[1:]
    ru = cold["results"][6]
    check(all(abs(a - b) < 1e-6 for a, b in zip(ru[:200], (1.5 * xu + yu)[:200].tolist())),
          "unaligned result")
    # damaged entries: every file of the source-keyed cache truncated
    for p in glob.glob(os.path.join(cache, "src", "*.meta")):
        with open(p, "r+b") as f:
            f.truncate(os.path.getsize(p) // 2)
    again = child(srcdir, cache)
    if again:
        check(again["from_cache"] == 0, "a damaged entry was used")
        check(again["results"] == cold["results"], "results after a damaged entry")
    warm2 = child(srcdir, cache)
    check(warm2 and warm2["from_cache"] == 1, "the damaged entry was not rewritten")
    # damaged launcher code objects (marshal): compiled again
    for p in glob.glob(os.path.join(cache, "py", "launcher-*.marshal")):
        with open(p, "wb") as f:
            f.write(b"\x00garbage")
    again = child(srcdir, cache)
    check(again and again["results"] == cold["results"], "damaged launcher code")


def test_loader(tmp):
    build_lib = os.path.join(ROOT, os.environ.get("TC_BUILD", "build"), "libtritonc.so")
    probe = r'''
import os, sys
sys.path.insert(0, sys.argv[1])
from tritonc import _lib
mode = sys.argv[2]
if mode == "soname":
    _lib.candidates = lambda: []          # only the system loader is left
L = None
try:
    L = _lib.lib()
    print("PATH", L._path)
except _lib.LibraryNotFound as e:
    print("ERROR", e)
print("FIND_LIBRARY", "ctypes.util" in sys.modules)
'''
    lib = os.environ.get("TRITONC_LIB") or build_lib
    env = dict(os.environ, TRITONC_LIB=lib)

    def run(mode, **kw):
        e = dict(env, **kw)
        r = subprocess.run([sys.executable, "-c", probe, os.path.join(ROOT, "python"), mode],
                           capture_output=True, text=True, env=e)
        return r.stdout

    out = run("env")
    check("PATH " + lib in out and "FIND_LIBRARY False" in out, "TRITONC_LIB: %s" % out)
    # the system loader by soname: LD_LIBRARY_PATH names the folder
    out = run("soname", LD_LIBRARY_PATH=os.path.dirname(lib))
    check("PATH libtritonc.so" in out and "FIND_LIBRARY False" in out, "soname: %s" % out)
    # nothing anywhere: an error naming what was tried (find_library is the last resort)
    out = run("soname", LD_LIBRARY_PATH=tmp)
    check("ERROR" in out and "libtritonc.so" in out and "FIND_LIBRARY True" in out,
          "not found: %s" % out)
    # a missing TRITONC_LIB is reported, and the next candidate used
    out = run("env", TRITONC_LIB=os.path.join(tmp, "nope.so"))
    check(("PATH " in out and "nope.so" not in out.split("PATH ")[1].split()[0]) or
          ("ERROR" in out and "nope.so (missing)" in out), "missing TRITONC_LIB: %s" % out)


def _make_kernel():
    import tritonc as triton
    import tritonc.language as tl

    @triton.jit
    def double(x_ptr, o_ptr, n, B: tl.constexpr):
        offs = tl.arange(0, B)
        tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
    return double


def test_gc(tmp):
    """A kernel defined in a function, its C launchers and its compiled
    kernels form a cycle; the garbage collector must free all of it."""
    import gc
    import weakref
    import torch
    sys.path.insert(0, os.path.join(ROOT, "python"))
    os.environ.setdefault("TRITONC_CACHE_DIR", os.path.join(tmp, "gc-cache"))
    from tritonc import _cext
    refs = []
    for _ in range(3):
        k = _make_kernel()
        x, o = torch.rand(16), torch.empty(16)
        k[(1,)](x, o, 16, B=16)
        ck = k[(1,)](x, o, 16, B=16)
        check(torch.equal(o, x * 2), "double")
        check(bool(k._fast) == (_cext.module() is not None), "C launcher table")
        refs.append(weakref.ref(ck))
        del k, ck
    gc.collect()
    check(all(r() is None for r in refs), "compiled kernels kept alive by their launchers")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_loader(tmp)
        test_first_call_and_launchers(tmp)
        test_gc(tmp)
    print("test_launch_cache: %s" % ("%d failures" % len(fails) if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
