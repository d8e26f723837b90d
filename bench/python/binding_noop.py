#!/usr/bin/env python3
"""The Python binding's own cost per launch, without a driver: a stand-in
libtritonc (tests/python/Inputs/fake_tritonc.c) whose tc_launch only records
its arguments, and a kernel of vector add's signature launched with CPU torch
tensors, `kernel[grid](x, y, out, n, BLOCK=128)`, then the C Launcher alone.
Medians of 9 runs of 20000 launches.

    /usr/bin/python3 bench/python/binding_noop.py"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def per_call_us(f, n=20000):
    t = time.perf_counter_ns()
    for _ in range(n):
        f()
    return (time.perf_counter_ns() - t) / n / 1000


def main():
    so = os.path.join(tempfile.mkdtemp(prefix="binding_noop_"), "libfake_tritonc.so")
    subprocess.check_call([os.environ.get("CC", "cc"), "-std=c11", "-D_GNU_SOURCE", "-O2", "-shared", "-fPIC",
                           "-I" + os.path.join(ROOT, "include"),
                           os.path.join(ROOT, "tests", "python", "Inputs", "fake_tritonc.c"), "-o", so])
    os.environ["TRITONC_LIB"] = so
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch
    import tritonc as triton
    import tritonc.language as tl

    @triton.jit
    def noop_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pass

    x, y, o = torch.rand(1000), torch.rand(1000), torch.empty(1000)
    noop_kernel[(1,)](x, y, o, 1000, BLOCK=128)
    launcher = next(iter(noop_kernel._fast.values()), None)
    g = (1,)
    rows = [("kernel[grid](...)", lambda: noop_kernel[g](x, y, o, 1000, BLOCK=128))]
    if launcher is not None:
        rows.append(("C Launcher alone", lambda: launcher(g, x, y, o, 1000)))
    for label, f in rows:
        print("%-20s median %.3f us" % (label, statistics.median(per_call_us(f) for _ in range(9))))


if __name__ == "__main__":
    main()
