#!/usr/bin/env python3
"""Where the host time of a GPU launch from Python goes, tritonc and Triton.

Measures, on one CUDA device, the host time per launch of a 1-program vector
add (1024 fp32) in bursts short enough that the GPU's launch queue never
fills (so the figure is host time, not GPU time): 200 launches after a
synchronize, median of 30 bursts. Then the same loop with each piece of the
binding's hot path alone (the torch stream accessor, `data_ptr`, the ctypes
call with prebuilt arguments), and a cProfile of the full path. Finally a new
process, after torch has initialised CUDA, times the first call of a kernel
whose compiled form is already in the disk cache, with a profile.

    PYTHONUNBUFFERED=1 python3 bench/gpu/launch_profile.py [--no-build]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))


def burst(fn, n=200, reps=30):
    import torch
    out = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter_ns()
        for _ in range(n):
            fn()
        out.append((time.perf_counter_ns() - t0) / n / 1e3)
    torch.cuda.synchronize()
    return statistics.median(out), min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--child", action="store_true")
    a = ap.parse_args()
    if a.child:
        return child()
    if not a.no_build:
        subprocess.run(["make", "-j16", "all", "CFLAGS=-Wno-error"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton_cache_"))
    os.environ.setdefault("TRITONC_CACHE_DIR", tempfile.mkdtemp(prefix="tritonc_cache_"))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch
    import vs_triton as V
    torch.zeros(1, device="cuda")
    tmp = os.path.join(os.environ["TRITONC_CACHE_DIR"], "kernels_src")
    os.makedirs(tmp, exist_ok=True)
    tm, cm = V.load_triton_module("vector_add"), V.load_tritonc_module("vector_add", tmp)
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    o = torch.empty_like(x)
    res = {}
    for nm, k in (("tritonc", cm.add_kernel), ("triton", tm.add_kernel)):
        for _ in range(50):
            k[(1,)](x, y, o, 1024, BLOCK=1024)
        res[nm + " kernel[grid](...)"] = burst(lambda: k[(1,)](x, y, o, 1024, BLOCK=1024))
    # the pieces of tritonc's hot path
    ck = next(iter(cm.add_kernel.cache.values()))
    res["tritonc ck._call() (ctypes tc_launch, prebuilt)"] = burst(ck._call)
    raw = torch._C._cuda_getCurrentRawStream
    res["torch._C._cuda_getCurrentRawStream(0)"] = burst(lambda: raw(0))
    res["x.data_ptr() x3"] = burst(lambda: (x.data_ptr(), y.data_ptr(), o.data_ptr()))
    res["ck._pack(1,1,1,p,p,p,n)"] = burst(lambda: ck._pack(1, 1, 1, 0, 0, 0, 1024))
    res["empty lambda"] = burst(lambda: None)
    for k_, v in res.items():
        print("%-55s median %7.2f us  min %7.2f us" % (k_, v[0], v[1]))
    import cProfile
    import pstats
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(2000):
        cm.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024)
    pr.disable()
    torch.cuda.synchronize()
    pstats.Stats(pr).sort_stats("tottime").print_stats(12)
    # warm cache child
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], capture_output=True,
                       text=True, env=dict(os.environ))
    print(r.stdout[-8000:], r.stderr[-4000:])


def child():
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch
    t0 = time.perf_counter()
    import tritonc  # noqa: F401
    t1 = time.perf_counter()
    import vs_triton as V
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    tmp = os.path.join(os.environ["TRITONC_CACHE_DIR"], "kernels_src")
    cm = V.load_tritonc_module("vector_add", tmp)
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    o = torch.empty_like(x)
    torch.cuda.synchronize()
    import cProfile
    import pstats
    pr = cProfile.Profile()
    t2 = time.perf_counter()
    pr.enable()
    cm.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024)
    pr.disable()
    t3 = time.perf_counter()
    torch.cuda.synchronize()
    print("import tritonc %.3f ms; first call (warm disk, profiled) %.3f ms" % ((t1 - t0) * 1e3, (t3 - t2) * 1e3))
    pstats.Stats(pr).sort_stats("cumulative").print_stats(25)
    # unprofiled: a second kernel of the module, also compiled by the parent? (axpy is not) -> use
    # a fresh specialisation of add (n not multiple of 16) compiled cold, then its warm twin
    t4 = time.perf_counter()
    cm.add_kernel[(1,)](x, y, o, 1000, BLOCK=1024)
    torch.cuda.synchronize()
    t5 = time.perf_counter()
    print("cold compile of a new specialisation in this process: %.3f ms" % ((t5 - t4) * 1e3))
    if os.environ.get("LP_TIME_C"):
        pass


if __name__ == "__main__":
    main()
