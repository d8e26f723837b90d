#!/usr/bin/env python3
"""Source -> PTX compile time of every corpus kernel, CPU only (no torch, no
Triton, no GPU): the same measurement as vs_triton.py's compile_times(), for
machines without CUDA. Builds bench/gpu/compile_time.c against the static
library, then runs it once per `# KERNEL:` header block of tests/kernels/*.py
and prints a Markdown table (median and minimum of REPS runs after a warm-up,
the process's first compile, PTX lines; see compile_time.c).

    make -j2 all && /usr/bin/python3 bench/gpu/compile_speed.py [--reps 41]
        [--target cuda:90] [--warps 4] [--build build] [--limit-ms 1.0] [--only NAME,...]
        [--procs N]

With --procs N each kernel is timed in N processes: the median column is
the median of their medians, the minimum and first-compile columns the
least over them.

Exits 1 when a kernel fails to compile, or when --limit-ms is given and a
kernel's median exceeds it.
"""
import argparse, os, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "ptx", "Inputs"))
import ptxas_suite  # noqa: E402  (header parsing shared with the ptxas suite)


def build_tool(build):
    exe = os.path.join(ROOT, build, "compile_time")
    src = os.path.join(ROOT, "bench", "gpu", "compile_time.c")
    lib = os.path.join(ROOT, build, "libtritonc.a")
    if os.path.exists(exe) and not os.path.exists(lib):
        return exe  # a prebuilt tool alone (another tree's, carried in: BASE in full_run.sh)
    if not os.path.exists(exe) or os.path.getmtime(exe) < max(os.path.getmtime(src), os.path.getmtime(lib)):
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c11", "-D_GNU_SOURCE", "-Iinclude", "-Isrc", src, lib,
                        "-o", exe, "-lm", "-ldl", "-lpthread"], cwd=ROOT, check=True)
    return exe


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=41)
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("--warps", default="4")
    ap.add_argument("--build", default="build")
    ap.add_argument("--limit-ms", type=float, default=None)
    ap.add_argument("--procs", type=int, default=1, help="processes per kernel (figures over them)")
    ap.add_argument("--only", default="", help="kernel names, comma-separated (default: every kernel)")
    a = ap.parse_args()
    only = set(x for x in a.only.split(",") if x)
    exe = build_tool(a.build)
    kdir = os.path.join(ROOT, "tests", "kernels")
    print("| kernel | file | median ms | min ms | first in process ms | PTX lines |")
    print("| --- | --- | --- | --- | --- | --- |")
    bad, total, worst = 0, 0.0, (0.0, "")
    for f in sorted(os.listdir(kdir)):
        if not f.endswith(".py"):
            continue
        path = os.path.join(kdir, f)
        for b in ptxas_suite.header_blocks(path):
            if only and b["KERNEL"] not in only:
                continue
            cmd = [exe, path, b["KERNEL"], b["SIGNATURE"], a.target, a.warps, str(a.reps)]
            cmd += ptxas_suite.split_constexprs(b["CONSTEXPR"])
            runs = [subprocess.run(cmd, capture_output=True, text=True) for _ in range(a.procs)]
            r = next((x for x in runs if x.returncode != 0), runs[0])
            if r.returncode != 0:
                print(f"| {b['KERNEL']} | {f} | error: {(r.stderr.strip().splitlines() or ['?'])[-1]} | | | |")
                bad += 1
                continue
            # over processes: the median of their medians, the least minimum
            # and first compile (a process's speed on a shared host moves by
            # up to 1.7x from one to the next)
            fig = [x.stdout.split() for x in runs]
            med = statistics.median(float(x[0]) for x in fig)
            mn = min(float(x[1]) for x in fig)
            first = min(float(x[4]) for x in fig)
            lines = fig[0][2]
            total += med
            worst = max(worst, (med, b["KERNEL"]))
            over = a.limit_ms is not None and med > a.limit_ms
            bad += over
            print(f"| {b['KERNEL']} | {f} | {med:.3f}{' (over)' if over else ''} | {mn:.3f} | {first:.3f} | {lines} |")
    print(f"\nsum of medians {total:.2f} ms; slowest {worst[1]} {worst[0]:.3f} ms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
