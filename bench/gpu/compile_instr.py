#!/usr/bin/env python3
"""Instructions per source->PTX compile of every corpus specialisation (each
`# KERNEL:` header block of tests/kernels/*.py), for one or more builds side
by side: the repeatable figure on a machine whose wall clock moves with other
tenants' load. Counted with valgrind's cachegrind as

    per compile = (I refs at 3 repetitions - I refs at 1) / 2

of bench/gpu/compile_time.c (so start-up is left out), with glibc told to use
its vector loops for memset/memcpy (valgrind counts each iteration of
`rep stosb`/`rep movsb` as an instruction). Each BUILD is a build folder
holding compile_time (cc ... bench/gpu/compile_time.c BUILD/libtritonc.a -o
BUILD/compile_time); the kernels are read from this checkout.

    /usr/bin/python3 bench/gpu/compile_instr.py BUILD [BUILD...] [--only NAME,...] [-j 2]
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "ptx", "Inputs"))
import ptxas_suite  # noqa: E402  (the header parsing the ptxas suite uses)

ENV = dict(os.environ, GLIBC_TUNABLES="glibc.cpu.x86_rep_movsb_threshold=1000000000:"
                                      "glibc.cpu.x86_rep_stosb_threshold=1000000000",
           COMPILE_TIME_WARMUP_MS="0")  # no untimed compiles between the counted ones


def irefs(exe, args, reps):
    r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                        exe] + args[:5] + [str(reps)] + args[5:], capture_output=True, text=True, env=ENV)
    m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
    if r.returncode != 0 or not m:
        raise RuntimeError((r.stderr.strip().splitlines() or ["?"])[-1])
    return int(m.group(1).replace(",", ""))


def per_compile(exe, args):
    return (irefs(exe, args, 3) - irefs(exe, args, 1)) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--only", default="", help="kernel names, comma-separated")
    ap.add_argument("--target", default="cuda:90")
    ap.add_argument("--warps", default="4")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    only = set(x for x in a.only.split(",") if x)
    kdir = os.path.join(ROOT, "tests", "kernels")
    jobs = []
    for f in sorted(os.listdir(kdir)):
        if f.endswith(".py"):
            for i, b in enumerate(ptxas_suite.header_blocks(os.path.join(kdir, f))):
                if not only or b["KERNEL"] in only:
                    args = [os.path.join(kdir, f), b["KERNEL"], b["SIGNATURE"], a.target, a.warps]
                    jobs.append(("%s #%d" % (f, i), b["KERNEL"], args + ptxas_suite.split_constexprs(b["CONSTEXPR"])))
    exes = [os.path.join(os.path.abspath(b), "compile_time") for b in a.builds]
    with cf.ThreadPoolExecutor(a.j) as pool:
        futs = {(j, e): pool.submit(per_compile, exe, job[2]) for j, job in enumerate(jobs)
                for e, exe in enumerate(exes)}
    head = " | ".join("M instr. (%s)" % b for b in a.builds)
    print("| kernel | file (block) | %s |%s" % (head, " change |" if len(exes) == 2 else ""))
    print("| --- | --- |%s" % (" --- |" * (len(exes) + (len(exes) == 2))))
    totals = [0.0] * len(exes)
    for j, (where, name, _) in enumerate(jobs):
        vals = []
        for e in range(len(exes)):
            try:
                vals.append(futs[(j, e)].result())
            except RuntimeError as err:
                vals.append(None)
                print("%s: %s" % (where, err), file=sys.stderr)
        cells = " | ".join("%.2f" % (v / 1e6) if v is not None else "error" for v in vals)
        change = ""
        if len(vals) == 2 and None not in vals:
            change = " %+.1f%% |" % (100 * (vals[1] / vals[0] - 1))
        for e, v in enumerate(vals):
            totals[e] += v or 0
        print("| %s | %s | %s |%s" % (name, where, cells, change))
    print("\nsum: " + ", ".join("%s %.1fM" % (b, t / 1e6) for b, t in zip(a.builds, totals)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
