#!/usr/bin/env python3
"""Compiles every specialisation of a corpus kernel file (its `# KERNEL:`
header blocks) to PTX with tritonc, for sm_80 and sm_90a, and assembles each
with ptxas, warnings as errors.

    ptxas_suite.py TRITONC KERNEL.py [--targets cuda:80,cuda:90] [--out DIR]
                   [--xfail NAME,...]

Exits 0 when every compilation and every assembly succeeds; prints one line
per specialisation and target, and ptxas's or tritonc's messages on failure.
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

ARCH = {"cuda:80": "sm_80", "cuda:90": "sm_90a"}


def find_ptxas():
    p = shutil.which("ptxas")
    if p:
        return p
    for c in ("/usr/local/cuda/bin/ptxas",):
        if os.path.exists(c):
            return c
    sys.exit("ptxas not found")


def header_blocks(path):
    blocks, cur = [], None
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                break
            m = re.match(r"#\s*(KERNEL|SIGNATURE|CONSTEXPR|GRID):\s*(.*)$", line)
            if not m:
                continue
            key, val = m.group(1), m.group(2).strip()
            if key == "KERNEL":
                cur = {"KERNEL": val, "CONSTEXPR": ""}
                blocks.append(cur)
            elif cur is not None:
                cur[key] = val
    return blocks


def split_constexprs(text):
    """NAME=VALUE pairs; values may hold commas inside quotes or brackets."""
    out, depth, quote, cur = [], 0, None, ""
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tritonc")
    ap.add_argument("kernel_file")
    ap.add_argument("--targets", default="cuda:80,cuda:90")
    ap.add_argument("--out")
    ap.add_argument("--xfail", default="",
                    help="kernels expected not to compile yet (comma-separated); "
                         "one that compiles and assembles is an error (XPASS)")
    a = ap.parse_args()
    ptxas = find_ptxas()
    out = a.out or tempfile.mkdtemp(prefix="ptxas_suite")
    os.makedirs(out, exist_ok=True)
    blocks = header_blocks(a.kernel_file)
    if not blocks:
        sys.exit("no KERNEL blocks in " + a.kernel_file)
    failed = 0
    xfail = set(x for x in a.xfail.split(",") if x)
    for i, b in enumerate(blocks):
        if b["KERNEL"] in xfail:
            cmd = [a.tritonc, "compile", a.kernel_file, "--kernel", b["KERNEL"],
                   "--signature", b["SIGNATURE"], "--emit", "ptx", "--target", "cuda:90"]
            for kv in split_constexprs(b["CONSTEXPR"]):
                cmd += ["-D", kv]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode == 0:
                print(f"XPASS {b['KERNEL']}: compiles now; drop it from --xfail")
                failed += 1
            else:
                print(f"xfail {b['KERNEL']}: " + (r.stderr.strip().splitlines() or ["?"])[0])
            continue
        for t in a.targets.split(","):
            name = f"{b['KERNEL']}_{i}_{ARCH[t]}"
            ptx = os.path.join(out, name + ".ptx")
            cmd = [a.tritonc, "compile", a.kernel_file, "--kernel", b["KERNEL"],
                   "--signature", b["SIGNATURE"], "--emit", "ptx", "--target", t, "-o", ptx]
            for kv in split_constexprs(b["CONSTEXPR"]):
                cmd += ["-D", kv]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL compile {name}\n{r.stdout}{r.stderr}")
                failed += 1
                continue
            r = subprocess.run([ptxas, "-arch=" + ARCH[t], "--warning-as-error", ptx,
                                "-o", os.path.join(out, name + ".cubin")],
                               capture_output=True, text=True)
            if r.returncode != 0 or r.stderr.strip():
                print(f"FAIL ptxas {name}\n{r.stdout}{r.stderr}")
                failed += 1
                continue
            print(f"ok {name}")
    if not a.out:
        shutil.rmtree(out, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
