#!/usr/bin/env python3
"""Host-side cost of the Python binding.

1. Per-launch time of a cached kernel: a 1-program vector add (16 fp32
   elements) on the CPU device, launched N times from Python as a Triton
   script does (`add_kernel[grid](x, y, out, n, BLOCK=16)`), with torch
   tensors and with numpy arrays. Each figure is the median of 7 runs of N
   launches, timed with time.perf_counter_ns. The same kernel's
   `tc_launch` through ctypes alone (the prebuilt call the binding ends
   with) is timed the same way; the difference is the Python-side overhead.

2. First-call time of each tutorial-style kernel in tests/python (vector
   add, fused softmax, layer norm, dropout, autotuned matmul), each in a
   fresh process: with an empty TRITONC_CACHE_DIR, then again with the
   cache the first run left.

    PYTHONPATH=python TRITONC_LIB=build/libtritonc.so \\
        /usr/bin/python3 bench/python/launch_overhead.py [--launches 10000]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Each: (name, test module, setup code, the first call) - the call is what a
# script does the first time it uses the kernel.
FIRST_CALLS = [
    ("vector add", "test_vector_add", "x = torch.rand(98432); y = torch.rand(98432)",
     "m.add(x, y)"),
    ("fused softmax", "test_fused_softmax", "x = torch.randn(1823, 781)", "m.softmax(x)"),
    ("layer norm", "test_layer_norm",
     "x = torch.randn(151, 1152); w = torch.rand(1152); b = torch.rand(1152)",
     "m.layer_norm(x, (1152,), w, b, 1e-5)"),
    ("dropout (seeded)", "test_dropout", "x = torch.randn(100000)",
     "m.seeded_dropout(x, p=0.5, seed=123)"),
    ("matmul, autotuned (3 configs)", "test_matmul_autotune",
     "a = torch.randn(128, 200, dtype=torch.float16); b = torch.randn(200, 96, "
     "dtype=torch.float16)", "m.matmul(a, b)"),
]

CHILD = r"""
import sys, time
sys.path.insert(0, {testdir!r})
import torch
import {module} as m
{setup}
t0 = time.perf_counter()
{call}
t1 = time.perf_counter()
print("%.3f" % ((t1 - t0) * 1e3))
"""


def first_call(module, setup, call, cache_dir):
    env = dict(os.environ, TRITONC_CACHE_DIR=cache_dir)
    code = CHILD.format(testdir=os.path.join(ROOT, "tests", "python"), module=module,
                        setup=setup, call=call)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        return "failed: " + r.stderr.strip().splitlines()[-1]
    return float(r.stdout.strip().splitlines()[-1])


def per_launch(fn, n, trials=7):
    for _ in range(min(n, 1000)):
        fn()
    out = []
    for _ in range(trials):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            fn()
        out.append((time.perf_counter_ns() - t0) / n / 1e3)
    return statistics.median(out), min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=10000)
    ap.add_argument("--skip-first-call", action="store_true")
    a = ap.parse_args()

    import numpy as np
    import torch

    import tritonc as triton
    import tritonc.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs,
                                                                              mask=mask),
                 mask=mask)

    cache = tempfile.mkdtemp(prefix="tritonc-bench-")
    os.environ["TRITONC_CACHE_DIR"] = cache
    x, y, out = torch.rand(16), torch.rand(16), torch.empty(16)
    xa, ya, oa = x.numpy().copy(), y.numpy().copy(), np.empty(16, dtype=np.float32)
    grid = (1,)
    k = add_kernel[grid](x, y, out, 16, BLOCK=16)
    assert torch.equal(out, x + y)
    n = a.launches
    rows = []
    med, mn = per_launch(lambda: add_kernel[grid](x, y, out, 16, BLOCK=16), n)
    rows.append(("kernel[grid](torch tensors)", med, mn))
    med_np, mn_np = per_launch(lambda: add_kernel[grid](xa, ya, oa, 16, BLOCK=16), n)
    rows.append(("kernel[grid](numpy arrays)", med_np, mn_np))
    lam = lambda meta: (triton.cdiv(16, meta["BLOCK"]),)  # noqa: E731
    med_l, mn_l = per_launch(lambda: add_kernel[lam](x, y, out, 16, BLOCK=16), n)
    rows.append(("kernel[lambda meta: ...](torch)", med_l, mn_l))
    call = k._call
    med_c, mn_c = per_launch(call, n)
    rows.append(("tc_launch alone (ctypes, prebuilt args)", med_c, mn_c))
    print("## Cached launch, 1-program vector add, CPU device, %d launches x 7" % n)
    print()
    print("| what | median us/launch | min us/launch |")
    print("| --- | --- | --- |")
    for name, md, m in rows:
        print("| %s | %.2f | %.2f |" % (name, md, m))
    print("| Python-side overhead (torch row - tc_launch row) | %.2f | %.2f |"
          % (med - med_c, mn - mn_c))
    print()
    shutil.rmtree(cache, ignore_errors=True)

    if a.skip_first_call:
        return 0
    print("## First call of each tutorial-style kernel (fresh process each, ms)")
    print()
    print("| kernel | empty cache | warm cache |")
    print("| --- | --- | --- |")
    for name, module, setup, call in FIRST_CALLS:
        d = tempfile.mkdtemp(prefix="tritonc-bench-")
        try:
            cold = first_call(module, setup, call, d)
            warm = first_call(module, setup, call, d)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        fmt = lambda v: v if isinstance(v, str) else "%.1f" % v  # noqa: E731
        print("| %s | %s | %s |" % (name, fmt(cold), fmt(warm)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
