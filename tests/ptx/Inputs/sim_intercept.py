#!/usr/bin/env python3
"""sim_intercept.py - runs a tests/python/*.py script with every kernel
launch also checked by sim_launch.check (the launch's PTX in ptx_sim
against the CPU backend), and reports per kernel.

    sim_intercept.py [--max-ctas N] [--only NAME,...] TEST.py [TEST.py ...]

Every `kernel[grid](...)` / `kernel.run(...)` of a JITFunction is replaced
by sim_launch.check, which makes the CPU launch itself (so the script's
own checks still run on the CPU results). Launches with more than
--max-ctas CTAs are only run on the CPU (counted as skipped). Exits 1
when a launch mismatched or the simulator failed. The CPU backend runs its
CTAs one after another (TRITONC_NUM_THREADS=1 unless set), as the
simulator runs kernels with atomics; even so, the old values atomics return
are compared exactly, and can differ where the order of the threads within
a CTA matters (the scripts check them order-insensitively). Float scans and
reductions over thousands of elements can differ beyond the default
tolerance by the order of their additions (test_scan_layouts' 4096-element
cumsum).
"""
import argparse
import os
import runpy
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.setdefault("TRITONC_NUM_THREADS", "1")
# the Python JITFunction class, whose __getitem__ / run are replaced below
# (with the C launcher, `kernel[grid]` is the C base's subscript, which
# would launch without passing through them)
os.environ["TRITONC_LAUNCHER"] = "python"

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc.jit import JITFunction, _grid_eval  # noqa: E402

import sim_launch  # noqa: E402

RESULTS = {}   # kernel name -> [ok, skipped, [failures]]
OPTS = {"max_ctas": 64, "only": None, "target": "cuda:90", "xfail": {}}
_orig_getitem = JITFunction.__getitem__
_orig_run = JITFunction.run


def _cpu_launch(kernel, grid, args, kwargs):
    return _orig_getitem(kernel, grid)(*args, **kwargs)


sim_launch.CPU_LAUNCH = _cpu_launch


def _wrapped(kernel, grid, args, kwargs):
    r = RESULTS.setdefault(kernel.__name__, [0, 0, []])
    if OPTS["only"] and kernel.__name__ not in OPTS["only"]:
        r[1] += 1
        return _cpu_launch(kernel, grid, args, kwargs)
    try:
        bound = kernel._bind(args, kwargs)
        meta = {p.name: a for p, a in zip(kernel.params, bound)}
        meta.update(kwargs)
        g = _grid_eval(grid, meta)
        ctas = 1
        for x in g:
            ctas *= x
        import torch
        on_cpu = all(not isinstance(a, torch.Tensor) or a.device.type == "cpu" for a in bound)
    except Exception:
        ctas, on_cpu = 1, True
    if ctas > OPTS["max_ctas"] or not on_cpu or ctas == 0:
        r[1] += 1
        return _cpu_launch(kernel, grid, args, kwargs)
    t0 = time.time()
    try:
        sim = sim_launch.check(kernel, grid, *args, target=OPTS["target"], cpu_on_error=True, **kwargs)
        r[0] += 1
        return sim.cpu_result
    except sim_launch.CpuLaunchError as e:
        raise e.__cause__
    except Exception as e:  # noqa: BLE001
        msg = "%s: %s" % (type(e).__name__, str(e)[:1200])
        if os.environ.get("SIM_TRACE"):
            traceback.print_exc()
        if not sim_launch.CPU_DONE:
            res = _cpu_launch(kernel, grid, args, kwargs)  # (raises: an error the script expects)
            if isinstance(e, sim_launch.Unsupported):
                r[1] += 1
                return res
            r[2].append(msg)
            return res
        r[2].append(msg)
    dt = time.time() - t0
    if dt > 5 and os.environ.get("SIM_VERBOSE"):
        print("  (slow: %s %.1fs, %d CTAs)" % (kernel.__name__, dt, ctas), file=sys.stderr)


def _getitem(self, grid):
    return lambda *args, **kwargs: _wrapped(self, grid, args, kwargs)


def _run(self, *args, grid, warmup=False, **kwargs):
    if warmup:
        return _orig_run(self, *args, grid=grid, warmup=warmup, **kwargs)
    return _wrapped(self, grid, args, kwargs)


def install():
    JITFunction.__getitem__ = _getitem
    JITFunction.run = _run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-ctas", type=int, default=64)
    ap.add_argument("--only", default="")
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("tests", nargs="+")
    a = ap.parse_args()
    OPTS["max_ctas"] = a.max_ctas
    OPTS["only"] = set(x for x in a.only.split(",") if x)
    OPTS["target"] = a.target
    sys.modules.setdefault("triton", triton)
    sys.modules.setdefault("triton.language", tl)
    install()
    bad = 0
    for path in a.tests:
        RESULTS.clear()
        t0 = time.time()
        argv = sys.argv
        sys.argv = [path]
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as e:
            if e.code not in (0, None):
                print("%s: the script exited %s" % (path, e.code))
                bad += 1
        except Exception:  # noqa: BLE001
            print("%s: the script failed:\n%s" % (path, traceback.format_exc()[-1500:]))
            bad += 1
        sys.argv = argv
        for name, (ok, skipped, fails) in sorted(RESULTS.items()):
            status = "FAIL" if fails else "ok"
            print("%s %s:%s  %d checked, %d skipped, %d failed" % (status, os.path.basename(path), name, ok, skipped,
                                                                   len(fails)))
            for f in fails[:3]:
                print("    " + f.replace("\n", "\n    "))
            bad += bool(fails)
        print("  (%s: %.1fs)" % (os.path.basename(path), time.time() - t0))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
