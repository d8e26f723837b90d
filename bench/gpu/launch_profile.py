#!/usr/bin/env python3
"""Where the host time of a GPU launch from Python goes, tritonc and Triton.

1. The floor: build/launch_floor (bench/gpu/launch_floor.c): tc_launch from
   C and the driver's cuLaunchKernel on the same CUfunction (kernelParams and
   the packed `extra` buffer, default and non-blocking stream).
2. The hot path: host time per launch of a 1-program vector add (1024 fp32)
   in bursts short enough that the GPU's launch queue never fills (200
   launches after a synchronize, median of 30 bursts): Triton and tritonc
   with its C launcher (python/tritonc/_launcher.c), each in --procs new
   processes taken in turns (the summary is the median over processes), then
   once the pure-Python launcher (TRITONC_LAUNCHER=python), each piece of the
   path alone, and a cProfile of the Python launcher.
3. The first call from a warm disk cache in new processes, after torch has
   initialised CUDA, unprofiled, 5 processes each for tritonc and Triton:
   `import tritonc`, the import of the kernel's module (decoration: tritonc
   reads the source and opens libtritonc and the C launcher there), and the
   first `kernel[grid](...)` (tritonc: the source-keyed cache hit, the cubin
   loaded with cuModuleLoadData, the launch). Then one profiled process.

    PYTHONUNBUFFERED=1 python3 bench/gpu/launch_profile.py [--no-build] [--procs N]
        [--only floor|hot|first] [--pin CPU]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# LP_DEVICE=cpu runs the tritonc children on the CPU device (to try this script
# where there is no GPU; the figures then mean little)
DEV = os.environ.get("LP_DEVICE", "cuda")


def sync():
    import torch
    if DEV == "cuda":
        torch.cuda.synchronize()
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))


def burst(fn, n=200, reps=30, **names):
    """Host time per call of `fn`, in us: (median, min) over `reps` bursts of
    `n` calls, each after a synchronize. `fn` is a callable, or a statement
    (with `names` its variables) that runs in a plain loop, as a user's own
    launch loop does: no lambda's call around each launch."""
    import torch
    if isinstance(fn, str):
        ns = dict(names)
        exec("def _loop(n):\n    for _ in range(n):\n        %s\n" % fn, ns)
        loop = ns["_loop"]
    else:
        def loop(n):
            for _ in range(n):
                fn()
    out = []
    for _ in range(reps):
        sync()
        t0 = time.perf_counter_ns()
        loop(n)
        out.append((time.perf_counter_ns() - t0) / n / 1e3)
    sync()
    return statistics.median(out), min(out)


def own_floor(res, who):
    """The driver's floor in this very process (the spread between processes
    is as large as the launchers' differences): cuLaunchKernel from a C loop
    of build/launch_floor.so (section 1 builds it), on the default stream."""
    import ctypes
    so = os.path.join(ROOT, "build", "launch_floor.so")
    if not os.path.exists(so):
        return
    lib = ctypes.CDLL(so)
    lib.launch_floor_median.restype = ctypes.c_double
    if lib.launch_floor_setup() == 0:
        med = lib.launch_floor_median(1)
        if med > 0:
            res["floor: cuLaunchKernel from C in this %s process" % who] = (med, med)


def show(res):
    for k_, v in res.items():
        print("%-58s median %7.2f us  min %7.2f us" % (k_, v[0], v[1]), flush=True)
        print("HOT\t%s\t%.4f\t%.4f" % (k_, v[0], v[1]), flush=True)  # for section_hot's summary


def load(which):
    """The vector add module of vs_triton's corpus, for Triton or tritonc."""
    import vs_triton as V
    if which == "triton":
        return V.load_triton_module("vector_add")
    tmp = os.path.join(os.environ["TRITONC_CACHE_DIR"], "kernels_src")
    os.makedirs(tmp, exist_ok=True)
    return V.load_tritonc_module("vector_add", tmp)


def tensors():
    import torch
    torch.zeros(1, device=DEV)
    x = torch.randn(1024, device=DEV)
    y = torch.randn(1024, device=DEV)
    o = torch.empty_like(x)
    sync()
    return x, y, o


def setup(which):
    """(module, x, y, out)."""
    x, y, o = tensors()
    return (load(which), x, y, o)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--child")
    ap.add_argument("rest", nargs="*")
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--only", choices=("floor", "hot", "first"), help="one section")
    ap.add_argument("--pin", type=int, help="run the hot path's processes on this CPU alone "
                    "(os.sched_setaffinity): less spread from process to process")
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "python"))
    if a.child:
        if a.child == "modload":
            return child_modload(*a.rest)
        return {"hot": child_hot, "hot-triton": child_hot_triton, "floor-python": lambda: child_floor(False),
                "floor-torch": lambda: child_floor(True), "first": child_first, "first-triton": child_first_triton,
                "first-profiled": child_first_profiled, "pieces": child_pieces}[a.child]()
    if not a.no_build:
        subprocess.run(["make", "-j16", "all", "CFLAGS=-Wno-error"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    floor = os.path.join(ROOT, "build", "launch_floor")
    subprocess.run(["cc", "-O2", "-std=c11", "-D_GNU_SOURCE", "-Iinclude", "-Isrc",
                    "bench/gpu/launch_floor.c", "build/libtritonc.a", "-o", floor, "-lm", "-ldl",
                    "-lpthread"], cwd=ROOT, check=True)
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton_cache_"))
    os.environ.setdefault("TRITONC_CACHE_DIR", tempfile.mkdtemp(prefix="tritonc_cache_"))
    import platform
    import torch
    print("python %s, torch %s, %s, %d CPUs" % (platform.python_version(), torch.__version__,
                                              torch.cuda.get_device_name(0), os.cpu_count()))
    if a.only in (None, "floor"):
        section_floor(floor)
    if a.only in (None, "hot"):
        section_hot(a.procs, a.pin)
    if a.only in (None, "first"):
        section_first(a.procs)


def section_floor(floor):
    print("== 1. the floor (C, no Python): build/launch_floor", flush=True)
    subprocess.run([floor], cwd=ROOT, env=dict(os.environ, TRITONC_CACHE_DIR=tempfile.mkdtemp()))
    for kb in (256, 2048):
        print("-- the same, %d KB of memory read between launches" % kb, flush=True)
        subprocess.run([floor], cwd=ROOT, env=dict(os.environ, TRITONC_CACHE_DIR=tempfile.mkdtemp(),
                                                   LAUNCH_FLOOR_THRASH_KB=str(kb)))
    subprocess.run(["cc", "-O2", "-std=c11", "-D_GNU_SOURCE", "-fPIC", "-shared", "-DLAUNCH_FLOOR_LIB",
                    "-Iinclude", "-Isrc", "bench/gpu/launch_floor.c", "build/libtritonc.a", "-o",
                    floor + ".so", "-lm", "-ldl", "-lpthread"], cwd=ROOT, check=True)
    for child in ("floor-python", "floor-torch"):
        print("-- the floor's loops inside a Python process (%s)" % child, flush=True)
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", child],
                           capture_output=True, text=True,
                           env=dict(os.environ, TRITONC_CACHE_DIR=tempfile.mkdtemp()))
        print(r.stdout[-4000:], r.stderr[-2000:], flush=True)

    print("-- the driver's module load, inside a torch process (cubin of the corpus vector add)",
          flush=True)
    cub = os.path.join(tempfile.mkdtemp(), "add.cubin")
    ptx = cub[:-5] + "ptx"
    subprocess.run([os.path.join(ROOT, "build", "tritonc"), "compile", "tests/kernels/vector_add.py",
                    "--kernel", "add_kernel", "--signature", "*fp32:16,*fp32:16,*fp32:16,i32",
                    "-D", "BLOCK=1024", "--emit", "ptx", "--target", "cuda:90", "-o", ptx],
                   cwd=ROOT, check=True)
    subprocess.run(["ptxas", "-arch=sm_90a", ptx, "-o", cub], check=True)
    for loading, api in (("LAZY", "module"), ("EAGER", "module"), ("LAZY", "library")):
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "modload", cub, api],
                           capture_output=True, text=True,
                           env=dict(os.environ, CUDA_MODULE_LOADING=loading))
        print("CUDA_MODULE_LOADING=%s" % loading, r.stdout[-3000:], r.stderr[-2000:], flush=True)
    # the same PTX assembled for sm_90 (no arch-specific features) and sm_90a,
    # new processes in turns: does the driver load one faster?
    cub90, ptx90 = cub[:-6] + "-sm90.cubin", ptx[:-4] + "-sm90.ptx"
    with open(ptx) as f, open(ptx90, "w") as g:
        g.write(f.read().replace(".target sm_90a", ".target sm_90"))
    subprocess.run(["ptxas", "-arch=sm_90", ptx90, "-o", cub90], check=True)
    for i in range(4):
        for name, c in (("sm_90a", cub), ("sm_90", cub90)):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "modload", c, "module"],
                               capture_output=True, text=True)
            print("%s round %d: %s" % (name, i, (r.stdout.splitlines() or [r.stderr[-300:]])[0]), flush=True)


def section_hot(procs, pin=None):
    """Triton and tritonc each in `procs` new processes, taken in turns: the
    same call's host time moves by up to 2 us from one process to the next
    (seen on the H200 host, 2026-11-27), more than the launchers differ, so
    the figures are the median over the processes of each one's median."""
    print("\n== 2. the hot path from Python%s" % ("" if pin is None else ", every process on CPU %d" % pin),
          flush=True)
    rows = {}
    for i in range(procs):
        for child, mode in (("hot-triton", "c"), ("hot", "c")) + ((("hot", "python"),) if i == 0 else ()):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", child],
                               capture_output=True, text=True,
                               env=dict(os.environ, TRITONC_LAUNCHER=mode),
                               preexec_fn=None if pin is None else lambda: os.sched_setaffinity(0, {pin}))
            if i == 0:
                print(r.stdout[-6000:], r.stderr[-3000:], flush=True)
            for line in r.stdout.splitlines():
                if line.startswith("HOT\t"):
                    _, label, med, _mn = line.split("\t")
                    rows.setdefault(label, []).append(float(med))
    print("-- over %d processes each: the median of each process's median (each process's, in order)" % procs)
    for label, meds in rows.items():
        if len(meds) > 1:
            print("%-58s %7.2f us  (%s)" % (label, statistics.median(meds), " ".join("%.2f" % m for m in meds)),
                  flush=True)
    # each process's launch less its own floor: what the binding adds
    for who, label in (("tritonc", "tritonc kernel[grid](...), C launcher"), ("triton", "triton  kernel[grid](...)")):
        full, floor = rows.get(label, []), rows.get("floor: cuLaunchKernel from C in this %s process" % who, [])
        if len(full) == len(floor) > 1:
            over = [a - b for a, b in zip(full, floor)]
            print("%-58s %7.2f us  (%s)" % ("%s over its process's floor" % who, statistics.median(over),
                                              " ".join("%.2f" % m for m in over)), flush=True)


def child_hot_triton():
    import torch
    tm, x, y, o = setup("triton")
    for _ in range(50):
        tm.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024)
    res = {"triton  kernel[grid](...)": burst("k[(1,)](x, y, o, 1024, BLOCK=1024)",
                                              k=tm.add_kernel, x=x, y=y, o=o)}
    raw = torch._C._cuda_getCurrentRawStream
    res["torch._C._cuda_getCurrentRawStream(0)"] = burst(lambda: raw(0))
    res["x.data_ptr() x3"] = burst(lambda: (x.data_ptr(), y.data_ptr(), o.data_ptr()))
    own_floor(res, "triton")
    show(res)


def section_first(procs):
    print("\n== 3. first call from a warm disk cache, new processes (unprofiled)", flush=True)
    for child in ("first", "first-triton"):
        # one process first, unmeasured: the disk cache may not hold the
        # kernel yet (a fresh machine), or hold it cold
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", child],
                       capture_output=True, text=True, env=dict(os.environ))
        rows = []
        for _ in range(procs):
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", child],
                               capture_output=True, text=True, env=dict(os.environ))
            line = [ln for ln in r.stdout.splitlines() if ln.startswith("FIRST ")]
            if not line:
                print(r.stdout[-3000:], r.stderr[-3000:])
                break
            print(line[0], flush=True)
            rows.append([float(v) for v in line[0].split()[3:10:2]])
        if rows:
            med = [statistics.median(c) for c in zip(*rows)]
            print("%s median of %d: import %.3f ms, module import %.3f ms, first call %.3f ms, "
                  "second call %.3f ms" % (child, len(rows), *med), flush=True)
    for _ in range(3):
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "pieces"],
                           capture_output=True, text=True, env=dict(os.environ))
        print(r.stdout[-2000:], r.stderr[-2000:], flush=True)
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "first-profiled"],
                       capture_output=True, text=True, env=dict(os.environ))
    print(r.stdout[-5000:], r.stderr[-3000:], flush=True)


def child_hot():
    import torch  # noqa: F401
    import tritonc
    from tritonc import _cext
    cm, x, y, o = setup("tritonc")
    k = cm.add_kernel
    calls = [0]

    def counted(real):
        def f(*a, **kw):
            calls[0] += 1
            return real(*a, **kw)
        return f
    k._slow, k._first = counted(k._slow), counted(k._first)
    k._front = None  # the Entry, made at decoration, is made again with these
    for _ in range(50):
        k[(1,)](x, y, o, 1024, BLOCK=1024)
    mode = "C launcher" if _cext.module() else "Python launcher (%s)" % _cext.build_error()
    res = {"tritonc kernel[grid](...), " + mode: burst("k[(1,)](x, y, o, 1024, BLOCK=1024)",
                                                       k=k, x=x, y=y, o=o)}
    print("calls that reached Python: %d of %d launches" % (calls[0], 50 + 200 * 30))
    ck = next(iter(k.cache.values()))
    ck._pack(1, 1, 1, x.data_ptr(), y.data_ptr(), o.data_ptr(), 1024)
    res["tritonc ck._call() (ctypes tc_launch, prebuilt)"] = burst(ck._call)
    res["tritonc ck._pack(1,1,1,p,p,p,n)"] = burst(lambda: ck._pack(1, 1, 1, x.data_ptr(),
                                                                     y.data_ptr(), o.data_ptr(),
                                                                     1024))
    fast = next(iter(k._fast.values()), None)
    if fast is not None:
        res["tritonc C Launcher(grid, x, y, o, n) alone"] = burst("fast((1,), x, y, o, 1024)", fast=fast,
                                                                 x=x, y=y, o=o)
        res["tritonc kernel[(1,)] alone (the GridCall)"] = burst("k[(1,)]", k=k)
        own_floor(res, "tritonc")
    show(res)
    assert torch.allclose(o, x + y)
    if fast is None:
        import cProfile
        import pstats
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(2000):
            k[(1,)](x, y, o, 1024, BLOCK=1024)
        pr.disable()
        sync()
        pstats.Stats(pr).sort_stats("tottime").print_stats(8)
    print("tritonc", tritonc.__version__)


def child_modload(cubin, api="module"):
    """The driver's pieces of a cache hit, in a process where torch has
    initialised CUDA: loading the cubin (first in the process, then again),
    getting the function, the first launch. api "module": cuModuleLoadData
    and cuModuleGetFunction; "library": CUDA 12's context-independent
    cuLibraryLoadData, cuLibraryGetKernel and cuKernelGetFunction."""
    import ctypes
    import torch
    x = torch.randn(1024, device="cuda")
    torch.cuda.synchronize()
    cu = ctypes.CDLL("libcuda.so.1")
    data = open(cubin, "rb").read()
    T = time.perf_counter
    args = (ctypes.c_uint64 * 4)(x.data_ptr(), x.data_ptr(), x.data_ptr(), 1024)
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(args) + 8 * i for i in range(4)])
    for i in range(3):
        m, f, kern = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        t0 = T()
        if api == "library":
            rc0 = cu.cuLibraryLoadData(ctypes.byref(m), data, None, None, 0, None, None, 0)
            t1 = T()
            rc1 = cu.cuLibraryGetKernel(ctypes.byref(kern), m, b"add_kernel") or \
                cu.cuKernelGetFunction(ctypes.byref(f), kern)
        else:
            rc0 = cu.cuModuleLoadData(ctypes.byref(m), data)
            t1 = T()
            rc1 = cu.cuModuleGetFunction(ctypes.byref(f), m, b"add_kernel")
        t2 = T()
        rc2 = cu.cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, None, params, None)
        t3 = T()
        rc3 = cu.cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, None, params, None)
        t4 = T()
        torch.cuda.synchronize()
        print("%s load %d: load %.0f us (rc %d), get function %.0f us (rc %d), "
              "first launch %.0f us (rc %d), second %.0f us (rc %d); %d-byte cubin" % (
                  api, i, (t1 - t0) * 1e6, rc0, (t2 - t1) * 1e6, rc1, (t3 - t2) * 1e6, rc2,
                  (t4 - t3) * 1e6, rc3, len(data)), flush=True)


def child_floor(with_torch):
    """launch_floor's C loops, and one launch per ctypes call from a Python
    loop (CDLL lets the GIL go, PyDLL keeps it), in a process without torch
    or in one where torch has initialised CUDA and holds tensors."""
    import ctypes
    if with_torch:
        import torch
        x = torch.randn(1 << 20, device="cuda")
        torch.cuda.synchronize()
        del x
    cu = ctypes.CDLL("libcuda.so.1")
    so = os.path.join(ROOT, "build", "launch_floor.so")
    lib = ctypes.CDLL(so)
    if lib.launch_floor_setup() != 0:
        print("setup failed")
        return
    lib.launch_floor_run()

    def loop(fn, arg, n=200, reps=30):
        out = []
        for _ in range(reps):
            cu.cuCtxSynchronize()
            t0 = time.perf_counter_ns()
            for _ in range(n):
                fn(arg)
            out.append((time.perf_counter_ns() - t0) / n / 1e3)
        cu.cuCtxSynchronize()
        return statistics.median(out), min(out)
    py = ctypes.PyDLL(so)
    res = {}
    for how, name in ((0, "tc_launch"), (1, "cuLaunchKernel kernelParams")):
        res["Python loop, CDLL (GIL let go): %s" % name] = loop(lib.launch_floor_one, how)
        res["Python loop, PyDLL (GIL kept): %s" % name] = loop(py.launch_floor_one, how)
    res["Python loop, PyDLL, empty C call (how=9)"] = loop(py.launch_floor_one, 9)
    show(res)


def _first(which, profile=False):
    import torch
    t0 = time.perf_counter()
    if which == "tritonc":
        import tritonc  # noqa: F401
    else:
        import triton  # noqa: F401
    t1 = time.perf_counter()
    x, y, o = tensors()  # CUDA initialised by torch
    import vs_triton  # noqa: F401
    t2 = time.perf_counter()
    m = load(which)  # the module import: decoration (and vs_triton's rewrite of the file)
    t3 = time.perf_counter()
    sync()
    if profile:
        import cProfile
        pr = cProfile.Profile()
        pr.enable()
    import resource
    f4 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t4 = time.perf_counter()
    m.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024)
    t5 = time.perf_counter()
    f5 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    m.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024)
    t6 = time.perf_counter()
    if profile:
        pr.disable()
    sync()
    assert torch.allclose(o, x + y)
    print("FIRST %s import %.3f module %.3f first %.3f second %.3f (first call: %d page faults)" % (
        which, (t1 - t0) * 1e3, (t3 - t2) * 1e3, (t5 - t4) * 1e3, (t6 - t5) * 1e3, f5 - f4))
    if which == "tritonc":
        from tritonc import _cext, _lib
        import ctypes
        L = _lib.lib()
        L.tc_kernel_from_cache.argtypes = [ctypes.c_void_p]
        ck = next(iter(m.add_kernel.cache.values()))
        print("served from the source-keyed cache: %d; C launcher: %s" % (
            L.tc_kernel_from_cache(ck._handle), "yes" if _cext.module() else _cext.build_error()))
    if profile:
        import pstats
        pstats.Stats(pr).sort_stats("cumulative").print_stats(25)


def child_pieces():
    """The first call's two parts in a new process (unprofiled): the
    source-keyed cache hit alone (tc_compile of the very specialisation the
    first call compiles: the key, the entry's read, the driver's first
    module load in the process), then the first `kernel[grid](...)`, which
    compiles it again (a hit, and the process's second module) and makes
    the CompiledKernel, the Launcher and the launch. Before this session's
    first launch in C, this child wrapped the Python pieces of the first
    call; the first launch runs none now."""
    import torch
    import importlib
    T = time.perf_counter
    x, y, o = tensors()
    import vs_triton  # noqa: F401
    t0 = T()
    import tritonc
    from tritonc import _cext, _lib
    importlib.import_module("tritonc.jit")
    t1 = T()
    L = _lib.lib()
    t2 = T()
    _cext.module()
    t3 = T()
    m = load("tritonc")  # decoration (the library and the launcher already open)
    t4 = T()
    k = m.add_kernel
    src = k.source()
    consts = [("BLOCK", "1024")] + list(k.global_constexprs()[0])
    t5 = T()
    h, err = _lib.compile(src.encoded, src.filename, "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32:16",
                          consts, _lib.TC_DEVICE_CUDA if DEV == "cuda" else _lib.TC_DEVICE_CPU, 4, 3)
    t6 = T()
    k[(1,)](x, y, o, 1024, BLOCK=1024)
    t7 = T()
    sync()
    assert torch.allclose(o, x + y)
    import ctypes
    L.tc_kernel_from_cache.argtypes = [ctypes.c_void_p]
    us = lambda a, b: (b - a) * 1e6  # noqa: E731
    print("PIECES (us): import tritonc %.0f | open libtritonc %.0f | load C launcher %.0f | "
          "module import (decoration) %.0f | the cache hit alone (first module) %.0f (hit: %d) | "
          "then the first call %.0f" % (
              us(t0, t1), us(t1, t2), us(t2, t3), us(t3, t4), us(t5, t6),
              L.tc_kernel_from_cache(h) if h else -1, us(t6, t7)), tritonc.__version__, err or "")


def child_first():
    _first("tritonc")


def child_first_triton():
    _first("triton")


def child_first_profiled():
    _first("tritonc", profile=True)


if __name__ == "__main__":
    main()
