#!/usr/bin/env python3
"""Writes the TTIR, TTGIR and PTX (cuda:90, 4 warps) of every corpus
specialisation (each `# KERNEL:` header block of tests/kernels/*.py) into
OUT, one file per stage and block, so that a change meant to leave the
compiler's output alone can be checked with `diff -r BEFORE AFTER`.

    make -j2 all && /usr/bin/python3 bench/gpu/corpus_texts.py OUT [--build build]
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "ptx", "Inputs"))
import ptxas_suite  # noqa: E402  (the header parsing the ptxas suite uses)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--build", default="build")
    ap.add_argument("--target", default="cuda:90")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    tritonc = os.path.join(ROOT, a.build, "tritonc")
    kdir = os.path.join(ROOT, "tests", "kernels")
    bad = 0
    for f in sorted(os.listdir(kdir)):
        if not f.endswith(".py"):
            continue
        path = os.path.join(kdir, f)
        for i, b in enumerate(ptxas_suite.header_blocks(path)):
            cx = []
            for kv in ptxas_suite.split_constexprs(b["CONSTEXPR"]):
                cx += ["-D", kv]
            for stage in ("ttir", "ttgir", "ptx"):
                dst = os.path.join(a.out, "%s.%d.%s.%s" % (f[:-3], i, b["KERNEL"], stage))
                r = subprocess.run([tritonc, "compile", path, "--kernel", b["KERNEL"], "--signature",
                                    b["SIGNATURE"], "--target", a.target, "--emit", stage, "-o", dst] + cx,
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    bad += 1
                    print("%s #%d %s: %s" % (f, i, stage, (r.stderr.strip().splitlines() or ["?"])[-1]))
    print("%d files in %s, %d failed" % (len(os.listdir(a.out)), a.out, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
