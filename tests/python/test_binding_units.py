# RUN: %python %s
# REQUIRES: torch, numpy
"""Unit tests of the parts of the Python binding that need no compiler:
argument classification and specialisation keys, signature and constexpr
text, grid handling, the generated launcher (against a stand-in kernel and,
when a C compiler is present, against tests/python/Inputs/fake_tritonc.c
with the real ctypes path), autotune/heuristics/Config, testing helpers and
the rendering of compile errors."""
import ctypes
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

# These check the binding's units on CPU tensors: even where tensors are made on CUDA by
# default (bench/gpu/python_tests_on_cuda.sh), this script's are CPU tensors.
if hasattr(torch, "set_default_device"):
    torch.set_default_device("cpu")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc import _spec, errors  # noqa: E402

jitmod = sys.modules["tritonc.jit"]

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def raises(exc, fn, *words):
    try:
        fn()
    except exc as e:
        for w in words:
            if w not in str(e):
                FAILS.append("%r not in %r" % (w, str(e)))
                print("FAIL: %r not in %r" % (w, str(e)))
        return e
    FAILS.append("no %s from %s" % (exc.__name__, fn))
    print("FAIL: no", exc.__name__)


# ---------------------------------------------------------------- helpers
def test_helpers():
    check(triton.cdiv(10, 3) == 4 and triton.cdiv(9, 3) == 3 and triton.cdiv(0, 8) == 0, "cdiv")
    check([triton.next_power_of_2(n) for n in (0, 1, 2, 3, 5, 1024, 1025)] ==
          [0, 1, 2, 4, 8, 1024, 2048], "next_power_of_2")
    check(str(tl.float16) == "fp16" and tl.float32.sig == "fp32" and tl.int1.sig == "i1", "dtype")
    check(str(tl.pointer_type(tl.float32)) == "*fp32", "pointer_type")
    check(tl.constexpr(4) == 4 and tl.constexpr(tl.constexpr(2)).value == 2, "constexpr")
    raises(RuntimeError, lambda: tl.load(0), "tritonc.language.load", "kernel")
    check(callable(tl.math.exp2) and callable(tl.extra.cuda.libdevice.tanh), "tl.math, libdevice")
    import tritonc.language.extra.libdevice as ld
    check(callable(ld.pow), "extra.libdevice")


# --------------------------------------------------------- classification
def test_classify():
    c = _spec.classify
    check(c(7, "n", "k") == ("int", "i32", None, 7, None, "int"), "int")
    check(c(32, "n", "k").hint == 16 and c(1, "n", "k").hint in (1, None), "int hints")
    check(c(32, "n", "k", specialize=False).hint is None, "do_not_specialize")
    check(c(2**31, "n", "k").sig == "i64" and c(2**32 - 1, "n", "k").sig == "i64" and c(2**40, "n", "k").sig == "i64" and
          c(2**63, "n", "k").sig == "u64" and c(-1, "n", "k").sig == "i32", "int widths")
    raises(TypeError, lambda: c(2**64, "n", "k"), "'n'", "64 bits")
    check(c(1.5, "x", "k").sig == "fp32" and c(True, "b", "k").sig == "i1", "float, bool")
    check(c(None, "p", "k").kind == "none", "None")
    t = torch.empty(64, dtype=torch.float16)
    i = c(t, "x", "k")
    check(i.sig == "*fp16" and i.hint == 16 and i.value == t.data_ptr() and i.device == "cpu",
          "torch tensor %r" % (i,))
    check(c(t[1:], "x", "k").hint is None, "unaligned tensor")
    check(c(t[::2], "x", "k").value == t.data_ptr(), "strided tensor: its data pointer")
    check(c(t, "x", "k", align=False).hint is None, "do_not_specialize_on_alignment")
    a = np.zeros(32, dtype=np.int8)
    check(c(a, "a", "k").sig == "*i8" and c(a, "a", "k").value == a.ctypes.data, "ndarray")
    ro = np.zeros(8, dtype=np.float64)
    ro.flags.writeable = False
    check(c(ro, "a", "k").value == ro.ctypes.data, "read-only ndarray address")
    check(c(np.int64(5), "n", "k").sig == "i32" and c(np.float32(1), "f", "k").sig == "fp32",
          "numpy scalars")
    raises(TypeError, lambda: c("s", "name", "kern"), "kern", "'name'", "str")
    raises(TypeError, lambda: c(torch.empty(2, dtype=torch.complex64), "z", "k"), "'z'", "complex")
    check(c(torch.float16, "x", "k", mock=True).sig == "*fp16" and
          c("*fp32:16", "x", "k", mock=True).hint == 16 and c("i32", "n", "k", mock=True).sig
          == "i32", "warmup mocks")
    infos = [c(t, "x", "k"), c(t, "y", "k"), c(None, "z", "k"), c(48, "n", "k"), c(7, "m", "k")]
    check(_spec.signature_string(infos) == "*fp16:16,*fp16:16,i32:16,i32", "signature string")


def test_constexpr_text():
    t = _spec.constexpr_text
    check([t(1024), t(True), t(0.5), t("leaky_relu"), t(None), t(tl.float16), t(tl.constexpr(3)),
           t(float("inf")), t((1, 2)), t(torch.bfloat16), t(tl.pointer_type(tl.int8))] ==
          ["1024", "True", "0.5", "'leaky_relu'", "None", "tl.float16", "3", "float('inf')",
           "(1, 2)", "tl.bfloat16", "tl.pointer_type(tl.int8)"], "constexpr text")
    raises(TypeError, lambda: t([1]), "constexpr")


def test_grid():
    g = _spec.normalize_grid
    check(g((4,)) == (4, 1, 1) and g([2, 3]) == (2, 3, 1) and g(5) == (5, 1, 1), "grid")
    raises(TypeError, lambda: g((1, 2, 3, 4), "kern"), "kern", "4 dimensions")
    raises(TypeError, lambda: g((1.5,), "kern"), "kern", "1.5")
    check(_spec.pack_format(["*fp32", "i32", "fp32", None, "i1"]) == "=iii4xQi4xf4xQ?7x",
          "pack format")


# ----------------------------------------------------- errors and sources
def test_errors():
    check(errors.caret_line("    x = tl.load(maks)", 17) == "                ^~~~", "caret")
    d = [errors.Diagnostic("k.py", 2, 9, "error", "name 'maks' is not defined"),
         errors.Diagnostic("k.py", 0, 0, "note", "while compiling")]
    text = errors.render(d, lambda f, n: {2: "    y = maks + 1"}.get(n))
    check(text.splitlines() == ["k.py:2:9: error: name 'maks' is not defined",
                                "    y = maks + 1", "        ^~~~",
                                "k.py: note: while compiling"], "render:\n" + text)
    e = errors.CompilationError("kern", d, text)
    check(e.filename == "k.py" and e.lineno == 2 and e.col == 9 and str(e) == text, "error attrs")
    src = "import tritonc as triton\nimport tritonc.language as tl\nfrom tritonc.language " \
          "import core\nx = 'tritonc'\n"
    check(jitmod._as_triton_imports(src) == "import triton as triton\nimport triton.language as "
          "tl\nfrom triton.language import core\nx = 'tritonc'\n", "import rewrite")


BLOCK_GLOBAL = 64
LOG2E = tl.constexpr(1.4426950408889634)
MODE = "fast"


def test_globals_and_helpers():
    from helpers_mod import triple

    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK_GLOBAL)
        y = triple(tl.load(x_ptr + offs)) * LOG2E
        if MODE == "fast":
            tl.store(x_ptr + offs, y, mask=offs < n)

    consts, foreign = k.global_constexprs()
    d = dict(consts)
    check(d.get("BLOCK_GLOBAL") == "64" and d.get("LOG2E") == "1.4426950408889634" and
          d.get("MODE") == "'fast'" and d.get("SCALE") == "3", "global constexprs %r" % d)
    check("tl" not in d and "triton" not in d and "n" not in d, "no modules or params")
    check([f.__name__ for f in foreign] == ["triple"], "foreign helpers")
    s = k.source()
    lines = s.text.splitlines()
    # (the helper's source, then the bindings of the globals it reads)
    check(lines.count("def triple(x):") == 1 and
          lines[lines.index("def triple(x):") + 1:][:2] == ["    return x * SCALE", ""],
          "helper source appended")
    line = lines.index("def triple(x):") + 1
    f, n = s.where(s.filename, line + 1)  # `return x * SCALE`
    check(f.endswith("helpers_mod.py") and n == triple.fn.__code__.co_firstlineno + 2,
          "helper lines map back: %s:%s" % (f, n))
    check(s.line(s.filename, line + 1) == "    return x * SCALE", "helper line text")


# ------------------------------------------------- the generated launcher
class StandInKernel:
    """What the generated launcher needs from a CompiledKernel."""

    def __init__(self):
        self.launches = []
        self.packed = None

    def _pack(self, *vals):
        self.packed = vals

    def _call(self):
        self.launches.append(self.packed)
        return 0


def test_launcher():
    @triton.jit(do_not_specialize=["m"])
    def kern(x_ptr, y_ptr, n, m, alpha, flag, BLOCK: tl.constexpr, ACT: tl.constexpr = "none"):
        pass

    compiled = []

    def fake_compile(args, opts, mock=False):
        infos = kern.classify_args(args, mock=mock)
        kern._check_args(infos)
        compiled.append((_spec.signature_string([i for i in infos if i]), dict(opts)))
        return StandInKernel()

    kern._compile_bound = fake_compile
    x = torch.zeros(64)
    y = np.zeros(64, dtype=np.float32)
    k1 = kern[(3,)](x, y, 32, 32, 0.5, True, BLOCK=16)
    check(compiled[-1][0] == "*fp32:16,*fp32:16,i32:16,i32,fp32,i1", "sig %s" % compiled[-1][0])
    check(k1.launches[-1] == (3, 1, 1, x.data_ptr(), y.ctypes.data, 32, 32, 0.5, True),
          "packed %r" % (k1.launches[-1],))
    k2 = kern[lambda meta: (meta["n"] // meta["BLOCK"], 2)](x, y, 64, 7, 1.0, False, BLOCK=16)
    check(k2 is k1 and len(compiled) == 1, "same key, no recompile")
    check(k1.launches[-1][:3] == (4, 2, 1), "grid function %r" % (k1.launches[-1],))
    kern[(1,)](x, y, 33, 7, 1.0, False, BLOCK=16)
    check(len(compiled) == 2 and compiled[-1][0].split(",")[2] == "i32", "n=33 respecialises")
    kern[(1,)](x, y, 32, 7, 1.0, False, BLOCK=32, num_warps=8)
    check(len(compiled) == 3 and compiled[-1][1]["num_warps"] == 8, "num_warps in the key")
    kern[(1,)](x[1:], y, 32, 7, 1.0, False, BLOCK=16)
    check(compiled[-1][0].startswith("*fp32,"), "unaligned pointer respecialises")
    kern[(1,)](x, None, 32, 7, 1.0, False, BLOCK=16)
    check(compiled[-1][0] == "*fp32:16,i32:16,i32,fp32,i1", "None argument: %s" % compiled[-1][0])
    kern[(1,)](x, y, 2**40, 7, 1.0, False, BLOCK=16)
    check(compiled[-1][0].split(",")[2] == "i64:16", "i64 argument")
    e = raises(TypeError, lambda: kern[(1,)](x, y, 32, BLOCK=16), "kern()", "'m'")
    check(e is None or "<locals>" not in str(e), "the message names the kernel alone: %s" % e)
    raises(TypeError, lambda: kern[(1,)](x, y, 32, 7, 1.0, False, BLOCK=16, bogus=1), "bogus")
    raises(TypeError, lambda: kern[(1,)](x, [1], 32, 7, 1.0, False, BLOCK=16), "'y_ptr'", "list")
    raises(TypeError, lambda: kern[(1, 2, 3, 4)](x, y, 32, 7, 1.0, False, BLOCK=16), "grid")

    class FakeCuda:  # a tensor-like object on another device
        dtype = torch.float32
        device = "cuda:0"

        def data_ptr(self):
            return 4096

        def is_contiguous(self):
            return True

    raises(TypeError, lambda: kern[(1,)](x, FakeCuda(), 32, 7, 1.0, False, BLOCK=16),
           "different devices")
    k3 = kern.warmup(torch.float16, "*fp16", 64, 3, 1.0, True, BLOCK=16)
    check(isinstance(k3, StandInKernel) and compiled[-1][0].startswith("*fp16:16,*fp16:16,"),
          "warmup with dtypes")

    @triton.jit
    def flat(x_ptr, n, BLOCK: tl.constexpr):
        pass

    flat._compile_bound = lambda args, opts, mock=False: (flat._check_args(
        flat.classify_args(args)), StandInKernel())[1]
    flat._prep = None  # no first launch in C: the stand-in compiles, through the Python path
    flat._front = None  # (the Entry made at decoration holds the real _prep: made again)
    # as in Triton, a tensor argument is its data pointer, whatever its strides
    flat[(1,)](x[::2], 32, BLOCK=16)
    k_flat = next(iter(flat._hot.values()))
    check(k_flat.launches and k_flat.launches[-1][3] == x.data_ptr(), "strided tensor: its data pointer")
    raises(RuntimeError, lambda: flat(x, 3), "outside of the scope of a kernel")


# ---------------------------------------- the ctypes path, against fake_tritonc.c
def test_fake_library(tmp):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        print("skip: no C compiler for the fake library")
        return
    root = os.path.dirname(os.path.dirname(HERE))
    so = os.path.join(tmp, "libfake_tritonc.so")
    subprocess.check_call([cc, "-std=c11", "-D_GNU_SOURCE", "-O1", "-shared", "-fPIC",
                           "-I" + os.path.join(root, "include"),
                           os.path.join(HERE, "Inputs", "fake_tritonc.c"), "-o", so])
    from tritonc import _lib
    saved = _lib._lib
    _lib._lib = None
    os.environ["TRITONC_LIB"] = so
    try:
        L = _lib.lib()
        L.fake_last_launch.restype = ctypes.c_long

        def last():
            g = (ctypes.c_int * 3)()
            slots = (ctypes.c_ulonglong * 64)()
            n = ctypes.c_int()
            L.fake_last_launch(g, slots, ctypes.byref(n))
            return tuple(g), [slots[i] for i in range(n.value)]

        @triton.jit
        def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            pass

        x, y = torch.rand(1000), torch.rand(1000)
        out = torch.empty(1000)
        k = add_kernel[(triton.cdiv(1000, 128),)](x, y, out, 1000, BLOCK=128)
        check(torch.equal(out, x + y), "fake add_kernel computes")
        check(last() == ((8, 1, 1), [x.data_ptr(), y.data_ptr(), out.data_ptr(), 1000]),
              "slots %r" % (last(),))
        check("signature: *fp32:16,*fp32:16,*fp32:16,i32\n" in k.asm["ttir"] and
              "BLOCK=128" in k.asm["ttir"], "ttir echo:\n" + k.asm["ttir"])
        check(k.metadata.name == "add_kernel" and k.param_types[0] == "*fp32", "metadata")

        @triton.jit
        def scalars(p, a, b, c, d, e, f, FLAG: tl.constexpr):
            pass

        scalars[(2, 3)](x, -5, 2**33, 0.25, True, None, np.float32(-2.5), FLAG=False)
        g, s = last()
        vals = [x.data_ptr(), struct.unpack("=i", struct.pack("=Q", s[1])[:4])[0],
                s[2], struct.unpack("=f", struct.pack("=Q", s[3])[:4])[0], s[4] & 0xFF,
                struct.unpack("=f", struct.pack("=Q", s[5])[:4])[0]]
        check(g == (2, 3, 1) and vals == [x.data_ptr(), -5, 2**33, 0.25, 1, -2.5] and len(s) == 6,
              "scalar packing %r %r" % (g, vals))
        ir = scalars.cache[next(iter(scalars.cache))].asm["ttir"]
        check("signature: *fp32:16,i32,i64:16,fp32,i1,fp32\n" in ir and "e=None" in ir and
              "FLAG=False" in ir, "scalar signature:\n" + ir)

        from broken_kernel import broken
        e = raises(triton.CompilationError, lambda: broken[(1,)](x), "FAKE_" + "ERROR")
        if e is not None:
            line = broken.fn.__code__.co_firstlineno + 2
            check(e.lineno == line and e.col == 9 and e.filename.endswith("broken_kernel.py"),
                  "error position %s:%s:%s" % (e.filename, e.lineno, e.col))
            check(str(e).splitlines()[1:] == ["    y = FAKE_" "ERROR + 1  # noqa: F821",
                                              "        ^~~~~~~~~~"], "caret:\n" + str(e))
    finally:
        _lib._lib = saved
        del os.environ["TRITONC_LIB"]


# --------------------------------------------- autotune, heuristics, Config
class Recorder(triton.KernelInterface):
    """A kernel stand-in that records what it was launched with and takes
    longer for larger BLOCK (so the tuner has a clear winner)."""

    def __init__(self, arg_names):
        self.arg_names = arg_names
        self.calls = []

    def run(self, *args, grid, warmup=False, **kwargs):
        self.calls.append((args, dict(kwargs)))
        if "BLOCK" in kwargs and not warmup:
            s = 0
            for i in range(kwargs["BLOCK"] * 20):
                s += i
        return "ran"

    def warmup(self, *args, **kwargs):
        return ("warm", kwargs.get("BLOCK"))


def test_config():
    c = triton.Config({"BLOCK": 64}, num_warps=8, num_stages=2)
    check(c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_ctas": 1, "num_stages": 2},
          "all_kwargs %r" % c.all_kwargs())
    check(str(c) == "BLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: None", str(c))


def test_autotune():
    rec = Recorder(["x", "n"])
    hooks = []
    configs = [triton.Config({"BLOCK": b}, pre_hook=lambda a: hooks.append(a["BLOCK"]))
               for b in (256, 16, 64)]
    tuned = triton.autotune(configs, key=["n"], reset_to_zero=["x"], restore_value=[],
                            warmup=1, rep=3)(rec)
    x = torch.ones(8)
    check(tuned[(1,)](x, 100) == "ran", "returns the kernel's result")
    check(tuned.best_config.kwargs == {"BLOCK": 16}, "fastest config: %s" % tuned.best_config)
    check(float(x.sum()) == 0.0, "reset_to_zero zeroed x")
    n_calls = len(rec.calls)
    tuned[(1,)](x, 100)
    check(len(rec.calls) == n_calls + 1, "cached key: one launch, no benchmark")
    check(rec.calls[-1][1]["BLOCK"] == 16 and rec.calls[-1][1]["num_warps"] == 4, "launch kwargs")
    tuned[(1,)](x, 200)
    check(len(tuned.cache) == 2, "one entry per key %r" % tuned.cache)
    raises(ValueError, lambda: tuned[(1,)](x, 300, BLOCK=4), "Conflicting meta-parameters")
    raises(ValueError, lambda: triton.autotune(configs, key=["m"])(rec), "'m'")

    # restore_value puts the argument back after each benchmarked run
    rec2 = Recorder(["x", "n"])
    orig = rec2.run

    def clobber(*args, **kw):
        args[0].add_(1)
        return orig(*args, **kw)

    rec2.run = clobber
    t2 = triton.autotune(configs[:2], key=["n"], restore_value=["x"], warmup=1, rep=2)(rec2)
    y = torch.zeros(4)
    t2[(1,)](y, 5)
    check(float(y[0]) == 1.0, "restore_value: only the final launch changes y (%s)" % y)

    # perf_model + top_k prune before benchmarking
    rec3 = Recorder(["x", "n"])
    t3 = triton.autotune(configs, key=["n"], prune_configs_by={
        "perf_model": lambda **kw: kw["BLOCK"], "top_k": 1}, warmup=1, rep=2)(rec3)
    t3[(1,)](x, 1)
    check(t3.best_config.kwargs["BLOCK"] == 16 and len(t3.configs_timings) == 1, "top_k")

    # heuristics under autotune (Triton's usual stacking)
    rec4 = Recorder(["x", "n"])
    h = triton.heuristics({"EVEN": lambda a: a["n"] % a["BLOCK"] == 0})(rec4)
    t4 = triton.autotune(configs[1:2], key=["n"])(h)
    t4[(1,)](x, 32)
    check(rec4.calls[-1][1]["EVEN"] is True and rec4.calls[-1][1]["BLOCK"] == 16, "heuristics")
    check(tuned.warmup(x, 7) == [("warm", 256), ("warm", 16), ("warm", 64)], "autotune warmup")


def test_testing():
    t = triton.testing.do_bench(lambda: sum(range(1000)), warmup=1, rep=5)
    check(isinstance(t, float) and 0 < t < 5, "do_bench median %r" % t)
    q = triton.testing.do_bench(lambda: None, warmup=1, rep=2, quantiles=[0.5, 0.2, 0.8])
    check(len(q) == 3 and q[1] <= q[0] <= q[2], "quantiles %r" % q)
    triton.testing.assert_close(torch.ones(3), np.ones(3) + 0.005)
    raises(AssertionError, lambda: triton.testing.assert_close(torch.ones(3), torch.zeros(3)))
    triton.testing.assert_close(torch.ones(2, dtype=torch.bfloat16), torch.ones(2), atol=0)


def main():
    tmp = tempfile.mkdtemp(prefix="tritonc-units-")
    try:
        for name, fn in list(globals().items()):
            if name.startswith("test_") and callable(fn):
                try:
                    fn(tmp) if name == "test_fake_library" else fn()
                except Exception as e:  # one broken test must not hide the others
                    import traceback
                    traceback.print_exc()
                    FAILS.append("%s raised %r" % (name, e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("binding units: %d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
