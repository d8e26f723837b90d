#!/usr/bin/env python3
"""Source -> PTX compile time of every corpus kernel, CPU only (no torch, no
Triton, no GPU): the same measurement as vs_triton.py's compile_times(), for
machines without CUDA. Builds bench/gpu/compile_time.c against the static
library, then runs it once per `# KERNEL:` header block of tests/kernels/*.py
and prints a Markdown table (median and minimum of REPS runs after a warm-up,
the process's first compile, PTX lines; see compile_time.c).

    make -j2 all && /usr/bin/python3 bench/gpu/compile_speed.py [--reps 41]
        [--target cuda:90] [--warps 4] [--build build] [--limit-ms 1.0] [--only NAME,...]

Exits 1 when a kernel fails to compile, or when --limit-ms is given and a
kernel's median exceeds it.
"""
import argparse, os, subprocess, sys

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
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"| {b['KERNEL']} | {f} | error: {(r.stderr.strip().splitlines() or ['?'])[-1]} | | | |")
                bad += 1
                continue
            med, mn, lines, _, first = r.stdout.split()
            med, mn, first = float(med), float(mn), float(first)
            total += med
            worst = max(worst, (med, b["KERNEL"]))
            over = a.limit_ms is not None and med > a.limit_ms
            bad += over
            print(f"| {b['KERNEL']} | {f} | {med:.3f}{' (over)' if over else ''} | {mn:.3f} | {first:.3f} | {lines} |")
    print(f"\nsum of medians {total:.2f} ms; slowest {worst[1]} {worst[0]:.3f} ms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
