# Shared-memory bank conflicts of the corpus's layout conversions, counted
# by the PTX simulator (Inputs/ptx_sim.py, Kernel.bank_conflicts) on one
# kernel per conversion, with the conversion's shared memory swizzled (the
# default, src/target/ptx/cvt_plan.h) and with padded rows
# (TRITONC_CVT_SWIZZLE=0, as before).
#
# The conversions: every ttg.convert_layout, tt.trans and tt.reshape (not
# allow_reorder: those move no data) of the TTGIR of
# every corpus specialisation (tests/kernels/*.py headers) at 4 and 8 warps
# for cuda:80 and cuda:90 (mma.sync's and wgmma's accumulators among them),
# each distinct (type in, type out, warps) once. Each becomes a kernel of
# its own, in TTGIR: a load of a tile in the source layout, the conversion,
# a store in the destination layout; the simulator runs one CTA, checks
# that every element arrives, and counts the st.shared (the conversion's
# stores) and ld.shared (its loads): warp-wide accesses, wavefronts and
# conflicts (wavefronts beyond one a phase), and the bytes of shared memory
# the stores reach. Conversions that move no data between threads have no
# shared accesses and are left out of the sums.
#
#     cvt_banks.py TRITONC [--warps 4,8] [--targets cuda:80,cuda:90] [-v]
#                  [--only SUBSTRING] [--modes 0,1]
#
# As a test (the RUN line: 4 warps, cuda:90; the whole set takes a few
# minutes): every element arrives, in both modes, and no conversion has
# more conflicts swizzled than padded.
# REQUIRES: numpy
# RUN: %python %s %tritonc --warps 4 --targets cuda:90 --check
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402
import ptxas_suite  # noqa: E402

KDIR = os.path.join(HERE, "..", "kernels")

# element types as stored: (numpy type of the memory, the IR type loaded,
# how the tile is made from it)
ELEM = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "f64": np.float64, "i8": np.int8,
        "i16": np.int16, "i32": np.int32, "i64": np.int64, "i1": np.int8}


def close(text, i):
    """The index past the '>' that closes the '<' at text[i]."""
    depth = 0
    for k in range(i, len(text)):
        if text[k] == "<":
            depth += 1
        elif text[k] == ">":
            depth -= 1
            if depth == 0:
                return k + 1
    raise ValueError(text)


def tensor_types(text):
    """The tensor<...> types of a line, in order."""
    out, i = [], 0
    while True:
        i = text.find("tensor<", i)
        if i < 0:
            return out
        j = close(text, i + 6)
        out.append(text[i:j])
        i = j


def split_type(t):
    """tensor<32x32xf16, LAYOUT> -> ([32, 32], 'f16', 'LAYOUT')"""
    body = t[len("tensor<"):-1]
    head, layout = body.split(", ", 1)
    parts = head.split("x")
    shape = []
    while parts and parts[0].isdigit():
        shape.append(int(parts.pop(0)))
    return shape, "x".join(parts), layout


def resolve(text, aliases):
    """text with #alias references replaced by their definitions (longest
    names first: #blocked1 before #blocked)."""
    for name in sorted(aliases, key=len, reverse=True):
        text = re.sub(re.escape(name) + r"(?![\w.])", lambda m: aliases[name], text)
    return text


def conversions(tritonc, target, warps):
    """{(op, type in, type out, order): occurrences} over the corpus."""
    found = {}
    for f in sorted(os.listdir(KDIR)):
        if not f.endswith(".py"):
            continue
        path = os.path.join(KDIR, f)
        for b in ptxas_suite.header_blocks(path):
            cx = []
            for kv in ptxas_suite.split_constexprs(b["CONSTEXPR"]):
                cx += ["-D", kv]
            r = subprocess.run([tritonc, "compile", path, "--kernel", b["KERNEL"], "--signature", b["SIGNATURE"],
                                "--target", target, "--emit", "ttgir", "--num-warps", str(warps)] + cx,
                               capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError("%s %s: %s" % (f, b["KERNEL"], r.stderr))
            aliases = {}
            for line in r.stdout.splitlines():
                m = re.match(r"(#\w+) = (#ttg\..*)$", line)
                if m:
                    aliases[m.group(1)] = m.group(2)
                    continue
                op = ("convert" if "ttg.convert_layout" in line else "trans" if "tt.trans " in line else
                      "reshape" if "tt.reshape " in line and "allow_reorder" not in line else None)
                if not op:
                    continue
                ts = tensor_types(line)
                if len(ts) != 2:
                    continue
                order = ""
                if op == "trans":
                    m = re.search(r"order = array<i32: ([0-9, ]+)>", line)
                    order = m.group(1)
                key = (op, resolve(ts[0], aliases), resolve(ts[1], aliases), order)
                found[key] = found.get(key, 0) + 1
    return found


def slices(layout, rank, keep):
    """The 1-D layout of dimension `keep` of a rank-`rank` layout (every
    other dimension sliced away, the highest first), and the expand_dims
    that rebuild the rank: (axis, layout after), the lowest axis first."""
    removed = [x for x in reversed(range(rank)) if x != keep]
    chain = [layout]
    for x in removed:
        chain.append("#ttg.slice<{dim = %d, parent = %s}>" % (x, chain[-1]))
    return chain[-1], [(removed[i], chain[i]) for i in range(len(removed) - 1, -1, -1)]


class Gen:
    def __init__(self):
        self.lines, self.n = [], 0

    def v(self, text):
        self.n += 1
        name = "%%v%d" % self.n
        self.lines.append("    %s = %s" % (name, text))
        return name

    def index(self, shape, layout):
        """The row-major index of every element, tensor<shape x i32, layout>."""
        rank = len(shape)
        full = "tensor<%sxi32, %s>" % ("x".join(map(str, shape)), layout)
        acc, stride = None, 1
        for d in range(rank - 1, -1, -1):
            one, ups = slices(layout, rank, d)
            t = "tensor<%dxi32, %s>" % (shape[d], one)
            x = self.v("tt.make_range {end = %d : i32, start = 0 : i32} : %s" % (shape[d], t))
            kept = [d]
            for axis, lay in ups:
                kept = sorted(kept + [axis])
                nt = "tensor<%sxi32, %s>" % ("x".join(str(shape[k]) if k == d else "1" for k in kept), lay)
                x = self.v("tt.expand_dims %s {axis = %d : i32} : %s -> %s" % (x, axis, t, nt))
                t = nt
            if rank > 1:
                x = self.v("tt.broadcast %s : %s -> %s" % (x, t, full))
            if stride != 1:
                c = self.v("arith.constant dense<%d> : %s" % (stride, full))
                x = self.v("arith.muli %s, %s : %s" % (x, c, full))
            acc = x if acc is None else self.v("arith.addi %s, %s : %s" % (acc, x, full))
            stride *= shape[d]
        return acc


def mem_type(elem):
    if elem.startswith("!tt.ptr"):
        return "i64"
    if elem.startswith("f8") or elem.startswith("f8E"):
        return "i8"
    return elem


def kernel_text(op, tin, tout, order, warps, target):
    """A kernel that loads tin, converts it (or transposes it) to tout and
    stores it; its two pointers' element type and numpy type."""
    shape_in, elem, lin = split_type(tin)
    shape_out, _, lout = split_type(tout)
    me = mem_type(elem)
    io = "i8" if me == "i1" else me
    g = Gen()
    ptr = "!tt.ptr<%s>" % io

    def ty(shape, e, lay):
        return "tensor<%sx%s, %s>" % ("x".join(map(str, shape)), e, lay)

    ii = g.index(shape_in, lin)
    pin = g.v("tt.splat %%in : %s -> %s" % (ptr, ty(shape_in, ptr, lin)))
    pin = g.v("tt.addptr %s, %s : %s, %s" % (pin, ii, ty(shape_in, ptr, lin), ty(shape_in, "i32", lin)))
    x = g.v("tt.load %s : %s" % (pin, ty(shape_in, ptr, lin)))
    if me == "i1":
        z = g.v("arith.constant dense<0> : %s" % ty(shape_in, "i8", lin))
        x = g.v("arith.cmpi ne, %s, %s : %s" % (x, z, ty(shape_in, "i8", lin)))
    if op == "convert":
        y = g.v("ttg.convert_layout %s : %s -> %s" % (x, ty(shape_in, me, lin), ty(shape_out, me, lout)))
    elif op == "reshape":
        y = g.v("tt.reshape %s : %s -> %s" % (x, ty(shape_in, me, lin), ty(shape_out, me, lout)))
    else:
        y = g.v("tt.trans %s {order = array<i32: %s>} : %s -> %s" % (x, order, ty(shape_in, me, lin),
                                                                      ty(shape_out, me, lout)))
    if me == "i1":
        y = g.v("arith.extui %s : %s to %s" % (y, ty(shape_out, "i1", lout), ty(shape_out, "i8", lout)))
    oi = g.index(shape_out, lout)
    po = g.v("tt.splat %%out : %s -> %s" % (ptr, ty(shape_out, ptr, lout)))
    po = g.v("tt.addptr %s, %s : %s, %s" % (po, oi, ty(shape_out, ptr, lout), ty(shape_out, "i32", lout)))
    g.lines.append("    tt.store %s, %s : %s" % (po, y, ty(shape_out, ptr, lout)))
    head = ('module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = %d : i32, ttg.target = "%s", '
            '"ttg.threads-per-warp" = 32 : i32} {\n'
            "  tt.func public @cvt(%%in: %s {tt.divisibility = 16 : i32}, %%out: %s {tt.divisibility = 16 : i32}) "
            "attributes {noinline = false} {\n") % (warps, target, ptr, ptr)
    return head + "\n".join(g.lines) + "\n    tt.return\n  }\n}\n", ELEM[io], shape_in, shape_out


def measure(tritonc, key, warps, target, mode, tmp):
    op, tin, tout, order = key
    text, npt, shape_in, shape_out = kernel_text(op, tin, tout, order, warps, target)
    src = os.path.join(tmp, "cvt.ttir")
    with open(src, "w") as f:
        f.write(text)
    r = subprocess.run([tritonc, "compile", src, "--emit", "ptx", "--target", target, "--num-warps", str(warps),
                        "-p", "cse", "--keep-layouts"], capture_output=True, text=True, env=dict(os.environ, TRITONC_CVT_SWIZZLE=mode))
    if r.returncode:
        raise RuntimeError("%s\n%s\n%s" % (key, text, r.stderr))
    ptx = r.stdout
    rng = np.random.default_rng(1)
    n = int(np.prod(shape_in))
    x = rng.integers(-100, 100, n).astype(npt) if npt not in (np.float16, np.float32, np.float64) \
        else rng.standard_normal(n).astype(npt)
    if "i1" == split_type(tin)[1]:
        x = rng.integers(0, 2, n).astype(np.int8)
    y = np.zeros(int(np.prod(shape_out)), npt)
    k = Kernel(ptx)
    k.bank_conflicts = {}
    k.run((1,), [x, y], smem_bytes=1 << 17)
    want = x.reshape(shape_in)
    if op == "trans":
        want = np.transpose(want, [int(v) for v in order.split(",")])
    if not np.array_equal(y.view(np.uint8), np.ascontiguousarray(want).reshape(-1).view(np.uint8)):
        raise AssertionError("%s mode %s: wrong elements" % (key, mode))
    written = np.nonzero(k.s_wepoch >= 0)[0]
    res = {"bytes": int(written.max()) + 1 if len(written) else 0,
           "instructions": sum(1 for line in ptx.splitlines() if line.startswith("\t") and not line.startswith("\t."))}
    for kind in ("st.shared", "ld.shared"):
        c = k.bank_conflicts.get(kind, {"accesses": 0, "wavefronts": 0, "conflicts": 0})
        res[kind] = (c["accesses"], c["wavefronts"], c["conflicts"])
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tritonc")
    ap.add_argument("--warps", default="4,8")
    ap.add_argument("--targets", default="cuda:80,cuda:90")
    ap.add_argument("--modes", default="0,1")
    ap.add_argument("--only", default="")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    modes = a.modes.split(",")
    total = {m: np.zeros(6, np.int64) for m in modes}
    weighted = {m: np.zeros(6, np.int64) for m in modes}
    nbytes = {m: 0 for m in modes}
    ninstr = {m: 0 for m in modes}
    ncvt = nsmem = 0
    worse = []
    with tempfile.TemporaryDirectory() as tmp:
        for target in a.targets.split(","):
            for warps in [int(w) for w in a.warps.split(",")]:
                found = conversions(a.tritonc, target, warps)
                for key, occ in sorted(found.items()):
                    if a.only and a.only not in str(key):
                        continue
                    ncvt += 1
                    res = {m: measure(a.tritonc, key, warps, target, m, tmp) for m in modes}
                    if all(res[m]["st.shared"][0] == 0 for m in modes):
                        continue
                    nsmem += 1
                    row = []
                    for m in modes:
                        v = np.array(res[m]["st.shared"] + res[m]["ld.shared"], np.int64)
                        total[m] += v
                        weighted[m] += v * occ
                        nbytes[m] += res[m]["bytes"]
                        ninstr[m] += res[m]["instructions"]
                        row.append("mode %s st %d/%d ld %d/%d %dB" % (m, v[2], v[1], v[5], v[4], res[m]["bytes"]))
                    if len(modes) == 2:
                        c0 = res[modes[0]]["st.shared"][2] + res[modes[0]]["ld.shared"][2]
                        c1 = res[modes[1]]["st.shared"][2] + res[modes[1]]["ld.shared"][2]
                        if c1 > c0:
                            worse.append((key, target, warps, c0, c1))
                    if a.v:
                        print("%s %dw x%d %s %s -> %s%s: %s" % (target, warps, occ, key[0], key[1], key[2],
                                                               " " + key[3] if key[3] else "", "; ".join(row)))
    print("%d conversions (distinct per target and warps), %d through shared memory" % (ncvt, nsmem))
    for m in modes:
        t, w = total[m], weighted[m]
        print("mode %s (TRITONC_CVT_SWIZZLE=%s): st.shared %d accesses %d wavefronts %d conflicts; "
              "ld.shared %d accesses %d wavefronts %d conflicts; %d bytes reached; %d PTX instructions"
              % (m, m, *t, nbytes[m], ninstr[m]))
        print("  weighted by occurrences: st.shared %d conflicts, ld.shared %d conflicts" % (w[2], w[5]))
    for key, target, warps, c0, c1 in worse:
        print("more conflicts swizzled: %s %dw %s: %d -> %d" % (target, warps, key, c0, c1))
    if a.check and worse:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
