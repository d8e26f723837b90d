# RUN: %python %s
# REQUIRES: torch, numpy
"""The host side of Triton 3.6 as scripts use it, on CPU tensors: grid
forms (a lambda of META, ints, lists, numpy ints), launch options, keyword
and positional constexprs, argument kinds (every torch dtype, views with a
storage offset, empty tensors, None, numpy scalars, wide ints, tuples),
errors that name the argument (a 'meta' tensor, also once the kernel has a
compiled specialisation), `triton.knobs` and TRITON_CACHE_DIR,
TRITON_PRINT_AUTOTUNING, perf_report's save_path, runtime.jit's names and
JITFunction.cache_key. Results are checked against torch."""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

if hasattr(torch, "set_default_device"):
    torch.set_default_device("cpu")  # a CPU test, also under bench/gpu/cuda_default

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402

FAILS = []
GEN = torch.Generator(device="cpu").manual_seed(int.from_bytes(os.urandom(4), "little"))
PYDIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "python")


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def raises(exc, fn, *words):
    try:
        fn()
    except exc as e:
        for w in words:
            check(w in str(e), "%r not in %r" % (w, str(e)))
        return e
    except Exception as e:  # the wrong kind
        check(False, "%s instead of %s: %s" % (type(e).__name__, exc.__name__, e))
        return e
    check(False, "no %s" % exc.__name__)


def run_script(text, env):
    """Runs `text` as a script file (a kernel's source must be in a file)."""
    fd, path = tempfile.mkstemp(suffix=".py", prefix="tritonc_host_")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        return subprocess.run([sys.executable, path], env=env, capture_output=True, text=True,
                              timeout=300)
    finally:
        os.remove(path)


def randn(*shape):
    return torch.randn(*shape, generator=GEN)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def copy_kernel(x, o, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o + offs, tl.load(x + offs, mask=m), mask=m)


@triton.jit
def grid3_kernel(o, W: tl.constexpr, H: tl.constexpr):
    # o[z, y, x] = x + 10 * y + 100 * z, one program per element
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    tl.store(o + (z * H + y) * W + x, x + 10 * y + 100 * z)


@triton.jit
def scalars_kernel(o, a, b, c, d):
    tl.store(o + 0, a.to(tl.float64))
    tl.store(o + 1, b.to(tl.float64))
    tl.store(o + 2, c.to(tl.float64))
    tl.store(o + 3, d.to(tl.float64))


@triton.jit
def optional_kernel(x, o, b, n, HAS_B: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    if HAS_B:
        v += tl.load(b + offs, mask=m)
    tl.store(o + offs, v, mask=m)


@triton.jit
def pair_kernel(ts, o, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o + offs, tl.load(ts[0] + offs, mask=m) * tl.load(ts[1] + offs, mask=m), mask=m)


# ------------------------------------------------------------------ grids
def test_grid_forms():
    n = 1000
    x, y = randn(n), randn(n)
    want = x + y
    grids = [lambda META: (triton.cdiv(n, META["BLOCK"]),), (8,), 8, [8], (np.int64(8),),
             (np.int32(8), 1, 1), (8, np.int64(1))]
    for g in grids:
        o = torch.full_like(x, float("nan"))
        add_kernel[g](x, y, o, n, BLOCK=128)
        check(torch.equal(o, want), "grid %r" % (g,))
    o = torch.full((3, 2, 5), -1, dtype=torch.int32)
    grid3_kernel[(5, 2, 3)](o, W=5, H=2)
    z, yy, xx = torch.meshgrid(torch.arange(3), torch.arange(2), torch.arange(5), indexing="ij")
    check(torch.equal(o, (xx + 10 * yy + 100 * z).to(torch.int32)), "3-d grid")
    # a grid with a zero (or negative) dimension launches nothing, as in Triton
    o = torch.zeros(16)
    copy_kernel[(0,)](torch.ones(16), o, 16, BLOCK=16)
    check(bool((o == 0).all()), "empty grid launched")


def test_launch_options_and_kwargs():
    n = 300
    x, y = randn(n), randn(n)
    want = x + y
    calls = [
        lambda o: add_kernel[(3,)](x, y, o, n, BLOCK=128, num_warps=8, num_stages=2),
        lambda o: add_kernel[(3,)](x, y, o, n, BLOCK=128, num_warps=2, num_ctas=1, maxnreg=128),
        lambda o: add_kernel[(3,)](x_ptr=x, y_ptr=y, out_ptr=o, n=n, BLOCK=128),
        lambda o: add_kernel[(3,)](x, y, o, n, 128),                      # constexpr positionally
        lambda o: add_kernel[(3,)](x, y, o, n, np.int64(128)),            # ... as a numpy int
        lambda o: add_kernel[(3,)](x, y, o, np.int32(n), BLOCK=np.int32(128)),
        lambda o: add_kernel.run(x, y, o, n, BLOCK=128, grid=(3,), warmup=False),
    ]
    for i, c in enumerate(calls):
        o = torch.full_like(x, float("nan"))
        c(o)
        check(torch.equal(o, want), "launch form %d" % i)
    # warmup compiles without launching
    o = torch.zeros(n)
    k = add_kernel.run(x, y, o, n, BLOCK=128, grid=(3,), warmup=True)
    check(bool((o == 0).all()), "run(warmup=True) launched")
    k = add_kernel.warmup(torch.float32, torch.float32, torch.float32, n, BLOCK=128, grid=(1,))
    check(k.metadata.num_warps == 4 and k.metadata.name == "add_kernel", "warmup metadata")
    check("ttir" in k.asm.keys() and isinstance(k.n_regs, int) and isinstance(k.n_spills, int),
          "asm keys / n_regs")


# --------------------------------------------------------- argument kinds
def test_tensor_kinds():
    for dt in (torch.bool, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64,
               torch.float16, torch.bfloat16, torch.float32, torch.float64):
        x = (randn(100) * 10).to(dt)
        o = torch.zeros(100, dtype=dt)
        copy_kernel[(1,)](x, o, 100, BLOCK=128)
        check(torch.equal(o, x), "copy of %s" % dt)
    base = randn(300)
    out = torch.zeros(300)
    x, o = base[7:107], out[3:103]  # storage offsets (unaligned data pointers)
    copy_kernel[(1,)](x, o, 100, BLOCK=128)
    check(torch.equal(o, x) and bool((out[:3] == 0).all()) and bool((out[103:] == 0).all()),
          "views with a storage offset")
    e = torch.empty(0)
    copy_kernel[(1,)](e, torch.empty(0), 0, BLOCK=16)  # 0 elements: nothing read or written
    x, o = randn(50), torch.zeros(50)
    optional_kernel[(1,)](x, o, None, 50, HAS_B=False, BLOCK=64)
    check(torch.equal(o, x), "None for an unused pointer")
    b = randn(50)
    optional_kernel[(1,)](x, o, b, 50, HAS_B=True, BLOCK=64)
    check(torch.equal(o, x + b), "optional pointer given")
    a, b, o = randn(30), randn(30), torch.zeros(30)
    pair_kernel[(1,)]((a, b), o, 30, BLOCK=32)
    check(torch.equal(o, a * b), "tuple of tensors")


def test_scalar_kinds():
    o = torch.zeros(4, dtype=torch.float64)
    for args, want in [((True, 2**40 + 3, -5, 1.5), [1.0, 2.0**40 + 3, -5.0, 1.5]),
                       ((np.int64(7), np.float32(2.5), np.int32(-3), np.float64(0.25)),
                        [7.0, 2.5, -3.0, 0.25]),
                       ((np.bool_(True), np.uint8(200), np.int16(-3), np.float16(0.5)),
                        [1.0, 200.0, -3.0, 0.5]),
                       ((-2**40, 2**62, -2**63, 0.1), [-2.0**40, 2.0**62, -2.0**63, float(np.float32(0.1))]),
                       # a float beyond fp32's range is +-inf (Triton's launcher converts it)
                       ((-2**40, 2**62, -2**63, -1e300), [-2.0**40, 2.0**62, -2.0**63, -float("inf")]),
                       ((False, -1, 0, 1e300), [0.0, -1.0, 0.0, float("inf")])]:
        scalars_kernel[(1,)](o, *args)
        check(o.tolist() == want, "scalars %r: got %r" % (args, o.tolist()))


# ------------------------------------------------------------------ errors
def test_errors_name_the_argument():
    x, o = randn(100), torch.zeros(100)
    raises(TypeError, lambda: copy_kernel[(1,)](x, o, BLOCK=128), "'n'")
    raises(TypeError, lambda: copy_kernel[(1,)](x, o, 100), "'BLOCK'")
    raises(TypeError, lambda: copy_kernel[(1,)](x, o, 100, 128, 5), "positional")
    raises(TypeError, lambda: copy_kernel[(1,)]([1.0, 2.0], o, 100, BLOCK=128), "'x'", "list")
    raises(TypeError, lambda: copy_kernel[(1,)](x, o, 100, BLOCK=128, foo=1), "'foo'")
    raises(TypeError, lambda: copy_kernel[(1,)](x, o, 100, BLOCK=x), "'BLOCK'")
    raises(TypeError, lambda: copy_kernel[(1,)](x, o, 2**64, BLOCK=128), "'n'")
    raises(TypeError, lambda: copy_kernel[(1, 1, 1, 1)](x, o, 100, BLOCK=128), "grid")
    raises(RuntimeError, lambda: copy_kernel(x, o, 100, BLOCK=128), "outside")
    # a tensor without data (device 'meta'): an error naming it, both at the
    # first launch and once the kernel has a compiled specialisation that the
    # same call with CPU tensors takes (it used to launch with a null pointer)
    meta = torch.empty(100, device="meta")
    raises(TypeError, lambda: copy_kernel[(1,)](meta, o, 100, BLOCK=128), "'x'", "meta")
    copy_kernel[(1,)](x, o, 100, BLOCK=128)
    copy_kernel[(1,)](x, o, 100, BLOCK=128)
    raises(TypeError, lambda: copy_kernel[(1,)](meta, o, 100, BLOCK=128), "'x'", "meta")
    raises(TypeError, lambda: copy_kernel[(1,)](x, torch.empty(100, device="meta"), 100, BLOCK=128),
           "'o'", "meta")
    copy_kernel[(1,)](x, o, 100, BLOCK=128)
    check(torch.equal(o, x), "launch after the errors")


_META_SCRIPT = r"""
import torch, tritonc as triton, tritonc.language as tl
@triton.jit
def k(x, o, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o + offs, tl.load(x + offs, mask=m), mask=m)
x, o = torch.ones(10), torch.zeros(10)
k[(1,)](x, o, 10, BLOCK=16)
k[(1,)](x, o, 10, BLOCK=16)
try:
    k[(1,)](torch.empty(10, device="meta"), o, 10, BLOCK=16)
    print("no error")
except TypeError as e:
    print("error:", e)
"""


def test_meta_tensor_python_launcher():
    """The same with the generated Python launcher (no C launcher)."""
    env = dict(os.environ, TRITONC_LAUNCHER="python", PYTHONPATH=PYDIR)
    r = run_script(_META_SCRIPT, env)
    check(r.returncode == 0 and "error:" in r.stdout and "'x'" in r.stdout and "meta" in r.stdout,
          "python launcher, meta tensor: rc %d %r %r" % (r.returncode, r.stdout, r.stderr[-500:]))


# ------------------------------------------------------------------- knobs
def test_knobs():
    k = triton.knobs
    saved = {v: os.environ.get(v) for v in ("TRITON_INTERPRET", "TRITON_PRINT_AUTOTUNING",
                                            "TRITON_DEBUG")}
    try:
        for v in saved:
            os.environ.pop(v, None)
        check(k.runtime.interpret is False and k.autotuning.print is False, "knob defaults")
        os.environ["TRITON_INTERPRET"] = "1"
        check(k.runtime.interpret is True, "knob reads its variable")
        del os.environ["TRITON_INTERPRET"]
        with k.runtime.scope():
            k.runtime.interpret = True
            check(os.environ.get("TRITON_INTERPRET") == "1", "assigning sets the variable")
            check(k.runtime.interpret is True, "assigned value")
        check("TRITON_INTERPRET" not in os.environ and k.runtime.interpret is False, "scope restores")
        k.autotuning.print = True
        check(os.environ.get("TRITON_PRINT_AUTOTUNING") == "1", "bool knob -> '1'")
        k.autotuning.print = triton.knobs.env  # back to the variable
        os.environ.pop("TRITON_PRINT_AUTOTUNING", None)
        check(k.autotuning.print is False, "knobs.env resets")
        check(set(k.cache.knobs) >= {"dir", "home_dir", "dump_dir"}, "cache.knobs %r" % k.cache.knobs)
        check(isinstance(k.cache.dir, str) and k.cache.dir, "cache.dir")
        k.runtime.launch_enter_hook.add(print)
        k.runtime.launch_enter_hook.remove(print)
        check(k.runtime.launch_enter_hook.calls == [], "HookChain")
        from tritonc import knobs  # noqa: F401 (the import form scripts use)
    finally:
        for v, val in saved.items():
            if val is None:
                os.environ.pop(v, None)
            else:
                os.environ[v] = val


_CACHE_SCRIPT = r"""
import os, torch, tritonc as triton, tritonc.language as tl
@triton.jit
def k(x, o, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o + offs, tl.load(x + offs, mask=m) * 3, mask=m)
x, o = torch.arange(10.0), torch.zeros(10)
k[(1,)](x, o, 10, BLOCK=16)
assert torch.equal(o, x * 3)
print("dir", triton.knobs.cache.dir)
"""


def test_triton_cache_dir():
    """TRITON_CACHE_DIR (Triton's variable) picks the cache folder when
    TRITONC_CACHE_DIR is not set."""
    d = tempfile.mkdtemp(prefix="tritonc-host-cache-")
    try:
        env = {k: v for k, v in os.environ.items() if k != "TRITONC_CACHE_DIR"}
        env.update(TRITON_CACHE_DIR=d, PYTHONPATH=PYDIR)
        r = run_script(_CACHE_SCRIPT, env)
        check(r.returncode == 0 and ("dir " + d) in r.stdout,
              "TRITON_CACHE_DIR run: rc %d %r %r" % (r.returncode, r.stdout, r.stderr[-800:]))
        files = [os.path.join(a, f) for a, _, fs in os.walk(d) for f in fs]
        check(len(files) > 0, "nothing cached under TRITON_CACHE_DIR")
    finally:
        shutil.rmtree(d, ignore_errors=True)


# --------------------------------------------------------------- autotune
def test_print_autotuning():
    @triton.autotune(configs=[triton.Config({"B": 64}), triton.Config({"B": 128}, num_warps=2)],
                     key=["n"], warmup=1, rep=2)
    @triton.jit
    def tuned_copy(x, o, n, B: tl.constexpr):
        offs = tl.program_id(0) * B + tl.arange(0, B)
        m = offs < n
        tl.store(o + offs, tl.load(x + offs, mask=m), mask=m)

    x, o = randn(301), torch.zeros(301)
    grid = lambda M: (triton.cdiv(M["n"], M["B"]),)  # noqa: E731
    out = io.StringIO()
    saved = os.environ.get("TRITON_PRINT_AUTOTUNING")
    os.environ["TRITON_PRINT_AUTOTUNING"] = "1"
    try:
        with contextlib.redirect_stdout(out):
            tuned_copy[grid](x, o, 300)
            tuned_copy[grid](x, o, 300)  # the cached choice: printed once only
    finally:
        if saved is None:
            os.environ.pop("TRITON_PRINT_AUTOTUNING", None)
        else:
            os.environ["TRITON_PRINT_AUTOTUNING"] = saved
    text = out.getvalue()
    check(torch.equal(o[:300], x[:300]) and o[300] == 0, "tuned copy")
    check(text.count("Triton autotuning for function tuned_copy") == 1 and "with key as (300," in text
          and "best config selected: %s;" % tuned_copy.best_config in text, "print: %r" % text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tuned_copy[grid](x, o, 301)
    check(out.getvalue() == "", "printed without TRITON_PRINT_AUTOTUNING: %r" % out.getvalue())


def test_profiler_names():
    # Triton's tutorials 09 and 10 time with Proton (`import triton.profiler as
    # proton`): its names exist, measure nothing, and say so once on stderr
    import tritonc.profiler as proton
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        sid = proton.start("matmul", hook="triton")
        with proton.scope("cublas", {"flops": 1.0}):
            pass

        @proton.scope("fn")
        def f():
            return 3
        check(f() == 3, "a function under @proton.scope runs")
        proton.enter_scope("a")
        proton.exit_scope()
        proton.activate(sid)
        proton.deactivate(sid)
        proton.finalize()
        proton.start("again")
        proton.finalize()
    check(err.getvalue().count("not available") == 1, "one notice: %r" % err.getvalue())


def test_autotune_key_keyword_tensors():
    # the dtypes of tensors passed by keyword are part of the key too, as in
    # Triton: an fp16 call after an fp32 one tunes again
    @triton.autotune(configs=[triton.Config({"B": 64}), triton.Config({"B": 128})], key=["n"],
                     warmup=1, rep=2)
    @triton.jit
    def tuned_scale(x, o, n, B: tl.constexpr):
        offs = tl.program_id(0) * B + tl.arange(0, B)
        m = offs < n
        tl.store(o + offs, tl.load(x + offs, mask=m) * 2, mask=m)

    grid = lambda M: (triton.cdiv(200, M["B"]),)  # noqa: E731
    for dt in (torch.float32, torch.float16, torch.float32):
        x = randn(200).to(dt)
        o = torch.zeros(200, dtype=dt)
        tuned_scale[grid](x=x, o=o, n=200)
        check(torch.equal(o, x * 2), "keyword tuned scale %s" % dt)
    check(len(tuned_scale.cache) == 2, "one tuning per dtype: %r" % list(tuned_scale.cache))


# --------------------------------------------------------------- testing
def test_perf_report_save_path():
    benches = [triton.testing.Benchmark(x_names=["N"], x_vals=[128, 256], line_arg="p",
                                        line_vals=["a", "b"], line_names=["A", "B"], ylabel="ms",
                                        plot_name="plot%d" % i, args={"M": i}) for i in range(2)]

    @triton.testing.perf_report(benches)
    def bench(M, N, p):
        v = float(M + N) + (0.25 if p == "b" else 0.0)
        return v, v - 1, v + 1

    d = tempfile.mkdtemp(prefix="tritonc-host-perf-")
    try:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench.run(print_data=True, show_plots=False, save_path=d, save_precision=2)
        check(sorted(os.listdir(d)) == ["plot0.csv", "plot1.csv", "results.html"],
              "files %r" % sorted(os.listdir(d)))
        with open(os.path.join(d, "plot1.csv")) as f:
            lines = f.read().split()
        check(lines == ["N,A,B", "128,129.00,129.25", "256,257.00,257.25"], "csv %r" % lines)
        check("plot0:" in out.getvalue() and "plot1:" in out.getvalue(), "print_data")
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ------------------------------------------------------------ module names
def test_module_names():
    from tritonc.runtime.jit import JITFunction, TensorWrapper, reinterpret
    check(JITFunction is triton.JITFunction and TensorWrapper is triton.TensorWrapper and
          reinterpret is triton.reinterpret, "runtime.jit names")
    from tritonc.runtime import driver
    props = driver.active.utils.get_device_properties(driver.active.get_current_device())
    check(all(k in props for k in ("multiprocessor_count", "max_num_regs", "max_shared_mem",
                                   "warpSize")), "device properties %r" % props)
    check(driver.active.get_active_torch_device().type in ("cpu", "cuda"), "torch device")
    check(triton.__version__.startswith("3."), "version")
    key = copy_kernel.cache_key
    check(isinstance(key, str) and len(key) == 64 and copy_kernel.hash == key, "cache_key %r" % key)


def main():
    for name, fn in list(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
            except Exception as e:  # one broken test must not hide the others
                import traceback
                traceback.print_exc()
                FAILS.append("%s raised %r" % (name, e))
    print("host api: %d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
