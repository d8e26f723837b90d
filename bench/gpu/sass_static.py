#!/usr/bin/env python3
"""Static SASS instruction counts of tritonc's PTX, without a GPU: every
corpus block (the `# KERNEL:` header blocks of tests/kernels/*.py) compiled
to PTX for cuda:90 by one or two tritonc builds, assembled by this machine's
ptxas for sm_90a, and the size of the cubin's .text sections divided by 16
(one sm_90 instruction is 16 bytes). With --triton, the kernels Triton 3.6
compiled (tests/ir/triton/, its own PTX) side by side with tritonc's.

A static count is a proxy: it says nothing of loop trip counts, latency or
memory traffic, and ptxas schedules and allocates differently from run to
run of the compiler's inputs; it shows what the PTX asks ptxas to do.

    /usr/bin/python3 bench/gpu/sass_static.py [BASE_TRITONC] NEW_TRITONC [--triton]
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "ptx", "Inputs"))
import ptxas_suite  # noqa: E402  (the header parsing the ptxas suite uses)


def text_instructions(cubin):
    """Instructions in the .text.* sections of an sm_90 cubin (ELF64)."""
    d = open(cubin, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]
    n = 0
    for s in secs:
        name = d[names + s[0]:d.index(b"\0", names + s[0])].decode()
        if name.startswith(".text."):
            n += s[5] // 16
    return n


def assemble(ptx, tmp):
    """(SASS instructions, registers) of a PTX text, or None if ptxas fails."""
    path = os.path.join(tmp, "k.ptx")
    with open(path, "w") as f:
        f.write(ptx)
    r = subprocess.run(["ptxas", "-arch=sm_90a", "-v", path, "-o", path + ".cubin"], capture_output=True, text=True)
    if r.returncode:
        return None
    m = re.search(r"Used (\d+) registers", r.stderr)
    return text_instructions(path + ".cubin"), int(m.group(1)) if m else -1


def tritonc_ptx(tritonc, path, block):
    cmd = [tritonc, "compile", path, "--kernel", block["KERNEL"], "--signature", block["SIGNATURE"],
           "--emit", "ptx", "--target", "cuda:90"]
    for c in ptxas_suite.split_constexprs(block["CONSTEXPR"]):
        cmd += ["-D", c]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def corpus(builds, tmp):
    rows = []
    kdir = os.path.join(ROOT, "tests", "kernels")
    for f in sorted(os.listdir(kdir)):
        if not f.endswith(".py"):
            continue
        for i, b in enumerate(ptxas_suite.header_blocks(os.path.join(kdir, f))):
            counts = []
            for t in builds:
                ptx = tritonc_ptx(t, os.path.join(kdir, f), b)
                a = assemble(ptx, tmp) if ptx else None
                counts.append(a[0] if a else None)
            rows.append(("%s #%d" % (f, i), b["KERNEL"], counts))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+", help="one or two tritonc executables")
    ap.add_argument("--triton", action="store_true", help="also Triton's own PTX (tests/ir/triton)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="sass_static_")
    rows = corpus(a.builds, tmp)
    both = [r for r in rows if None not in r[2]]
    print("corpus blocks: %d, assembled by every build: %d" % (len(rows), len(both)))
    for k, b in enumerate(a.builds):
        print("  build %d (%s): %d SASS instructions" % (k, b, sum(r[2][k] for r in both)))
    if len(a.builds) == 2:
        ch = sorted(both, key=lambda r: r[2][1] / r[2][0])
        print("  fewer in build 1: %d blocks, more: %d, the same: %d" % (
            sum(r[2][1] < r[2][0] for r in both), sum(r[2][1] > r[2][0] for r in both),
            sum(r[2][1] == r[2][0] for r in both)))
        for r in ch[:10] + [x for x in ch[-5:] if x[2][1] > x[2][0]]:
            print("  %-28s %-30s %6d -> %6d (%+.0f%%)" % (r[0], r[1], r[2][0], r[2][1], 100 * (r[2][1] / r[2][0] - 1)))
    if not a.triton:
        return 0
    man = json.load(open(os.path.join(ROOT, "tests", "ir", "triton", "manifest.json")))["kernels"]
    blocks = {}
    kdir = os.path.join(ROOT, "tests", "kernels")
    for f in sorted(os.listdir(kdir)):
        if f.endswith(".py"):
            for b in ptxas_suite.header_blocks(os.path.join(kdir, f)):
                blocks.setdefault((f, b["KERNEL"]), []).append(b)
    out = []
    for k in man:
        stem = k["stem"]
        if not k["ok"] or "debug" in stem:
            continue
        idx = int(stem.split("__")[1]) - 1 if "__" in stem else 0
        b = blocks[(k["file"], k["kernel"])][idx]
        ours = [assemble(tritonc_ptx(t, os.path.join(kdir, k["file"]), b) or "", tmp) for t in a.builds]
        theirs = assemble(open(os.path.join(ROOT, "tests", "ir", "triton", k["files"]["ptx"])).read(), tmp)
        out.append((stem, [o[0] for o in ours], theirs[0]))
    head = " | ".join("tritonc (%s)" % t for t in a.builds)
    print("\n| kernel (Triton's dump) | %s | Triton 3.6 | last / Triton |" % head)
    print("| --- |%s --- | --- |" % (" --- |" * len(a.builds)))
    for stem, o, t in sorted(out, key=lambda r: -r[1][-1] / r[2]):
        print("| %s | %s | %d | %.2f |" % (stem, " | ".join(str(x) for x in o), t, o[-1] / t))
    sums = [sum(r[1][k] for r in out) for k in range(len(a.builds))]
    st = sum(r[2] for r in out)
    print("| **sum (%d kernels)** | %s | %d | %.2f |" % (len(out), " | ".join(str(s) for s in sums), st, sums[-1] / st))
    for k in range(len(a.builds)):
        print("above Triton by more than 5%%, build %d: %d kernels" % (k, sum(r[1][k] > 1.05 * r[2] for r in out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
