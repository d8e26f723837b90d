#!/usr/bin/python3
"""compare_triton.py - structural parity of tritonc's TTIR with Triton 3.6's.

For every kernel block of the corpus (tests/kernels/*.py, one per
`# KERNEL:` header block, stems as in tests/ir/triton/manifest.json: the
kernel's name, `<kernel>__2` for its second block), compile it with
`tritonc compile --emit ttir` and compare the result with Triton's
`tests/ir/triton/<stem>.ttir`.

The pipeline is our `default` (read from `tritonc passes`), which mirrors
Triton's make_ttir: neither runs loop-invariant code motion at this stage
(Triton runs it in make_ttgir; our backends run it in the `backend`
pipeline).

Both modules are printed in MLIR's generic form by `tritonc opt
--mlir-print-op-generic -p ''` (one shape for every op: `%r = "name"(%a, %b)
<{props}> ({regions}) {attrs} : (operand types) -> result types`) and read
into a tree of ops. Compared, with SSA names, locations and the order of ops
inside a block ignored:

  signature  the public tt.func's function_type, arg_attrs and attributes,
             and the module's attributes
  funcs      the functions left after the passes
  ops        per op name, how many (the multiset of op names)
  types      per op name, the multiset of (operand types, attributes,
             result types): a different predicate, inputPrecision, constant
             value or result dtype shows here
  structure  the tree of region-holding ops (scf.for/if/while, tt.reduce,
             tt.scan, ...) with their result types, children unordered
  placement  per block of that tree, the multiset of op names in it (catches
             an op hoisted out of a loop by one compiler and not the other)

Usage:
  compare_triton.py [--tritonc PATH] [-v] [--check] [STEM...]

Without --check: a report per kernel, then a summary. With --check (the lit
test tests/sema/triton_parity.sh): exit 1 if a kernel differs in a category
that KNOWN does not list for it, with a reason. A KNOWN entry that no longer
differs is reported (so it can be deleted) but does not fail the check.
Standard library only.
"""
import argparse, collections, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "tests", "kernels")
TRITON_IR = os.path.join(ROOT, "tests", "ir", "triton")

# Known, explained differences: stem -> {category: reason}. A kernel that
# differs only in the categories listed here passes --check.
KNOWN = {
    "argmax_argmin_kernel": {
        r: "tl.max(x, 1, return_indices=True) and tl.argmax(x, 1) build two identical tt.reduce; "
           "MLIR's CSE merges ops with equal regions, our cse does not look into regions"
        for r in ("ops", "types", "structure")
    },
    "dropout_kernel": {
        r: "Triton's reorder-broadcast pass (elementwise(splat a, splat b) -> splat(elementwise(a, b))) "
           "is missing: philox's constant-zero counters stay tensors here"
        for r in ("ops", "types", "placement")
    },
    "random_fill_kernel": {
        r: "as dropout_kernel: no reorder-broadcast pass"
        for r in ("ops", "types", "placement")
    },
    "load_modifiers_kernel__debug": {
        "*": "compiled by Triton with debug=True; the CLI has no debug flag "
             "(KernelSpec.debug exists, the driver does not set it)",
    },
}

CATEGORIES = ("signature", "funcs", "ops", "types", "structure", "placement")


# ---------------------------------------------------------------------------
# The corpus headers

def split_top(s, sep=","):
    """Splits s at `sep` outside brackets and quotes."""
    out, depth, cur, q = [], 0, [], None
    for ch in s:
        if q:
            cur.append(ch)
            if ch == q:
                q = None
            continue
        if ch in "\"'":
            q = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur or out:
        out.append("".join(cur))
    return [x.strip() for x in out]


def corpus_blocks():
    """Yields (stem, file, kernel, signature, [(name, value)]) per header block."""
    seen = collections.Counter()
    for fn in sorted(os.listdir(KERNELS)):
        if not fn.endswith(".py"):
            continue
        path = os.path.join(KERNELS, fn)
        blocks, cur = [], None
        for line in open(path):
            if not line.startswith("#") and line.strip():
                break
            m = re.match(r"#\s*(KERNEL|SIGNATURE|CONSTEXPR):\s*(.*)$", line.rstrip("\n"))
            if not m:
                continue
            key, val = m.group(1), m.group(2).strip()
            if key == "KERNEL":
                cur = {"kernel": val}
                blocks.append(cur)
            elif cur is not None:
                cur[key] = val
        for b in blocks:
            seen[b["kernel"]] += 1
            n = seen[b["kernel"]]
            stem = b["kernel"] if n == 1 else "%s__%d" % (b["kernel"], n)
            cons = []
            for item in split_top(b.get("CONSTEXPR", "")):
                if item:
                    k, v = item.split("=", 1)
                    cons.append((k.strip(), v.strip()))
            yield stem, path, b["kernel"], b.get("SIGNATURE", ""), cons


# ---------------------------------------------------------------------------
# Reading MLIR's generic form

class Op:
    def __init__(self, name, results, operands, attrs, types_in, types_out):
        self.name, self.results, self.operands = name, results, operands
        self.attrs, self.types_in, self.types_out = attrs, types_in, types_out
        self.regions = []  # [[Block]]

    def key(self, skip=()):
        attrs = ", ".join("%s = %s" % kv for kv in sorted(self.attrs.items()) if kv[0] not in skip)
        return "%s(%s)%s -> %s" % (self.name, ", ".join(self.types_in),
                                   " {%s}" % attrs if attrs else "", ", ".join(self.types_out))


class Block:
    def __init__(self, args):
        self.args, self.ops = args, []


def parse_dict(s):
    """'a = 1 : i32, b' -> {'a': '1 : i32', 'b': 'unit'}"""
    d = {}
    for item in split_top(s):
        if not item:
            continue
        m = re.match(r'^("[^"]*"|[\w.$-]+)\s*=\s*(.*)$', item, re.S)
        if m:
            d[m.group(1).strip('"')] = m.group(2).strip()
        else:
            d[item.strip('"')] = "unit"
    return d


def take_balanced(s, i, open_ch, close_ch):
    """s[i] == open_ch; returns the index just past its matching close_ch."""
    depth, q = 0, False
    while i < len(s):
        ch = s[i]
        if q:
            if ch == "\\":
                i += 1
            elif ch == '"':
                q = False
        elif ch == '"':
            q = True
        elif ch == open_ch:
            depth += 1
        elif ch == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced %s in: %s" % (open_ch, s))


def parse_tail(s):
    """' <{props}> {attrs} : (a, b) -> c' (either dict may be missing, and a
    region-holding op has only the part after its regions) -> (attrs, in, out)."""
    s = s.strip()
    attrs = {}
    if s.startswith("<{"):
        j = take_balanced(s, 1, "{", "}")
        attrs.update(parse_dict(s[2:j - 1]))
        s = s[j + 1:].strip()
    if s.startswith("{"):
        j = take_balanced(s, 0, "{", "}")
        attrs.update(parse_dict(s[1:j - 1]))
        s = s[j:].strip()
    if s.startswith("({"):  # regions follow on the next lines
        return attrs, None, None
    assert s.startswith(":"), s
    s = s[1:].strip()
    j = take_balanced(s, 0, "(", ")")
    tin = [t for t in split_top(s[1:j - 1]) if t]
    rest = s[j:].strip()
    assert rest.startswith("->"), rest
    rest = rest[2:].strip()
    if rest.startswith("("):
        tout = [t for t in split_top(rest[1:-1]) if t]
    else:
        tout = [rest]
    return attrs, tin, tout


OP_RE = re.compile(r'^((?:%[^\s,=]+(?:, )?)+ = )?"([\w.]+)"\((.*?)\)(.*)$')
BB_RE = re.compile(r"^\^bb\d+(?:\((.*)\))?:$")


def parse_generic(text):
    """Returns the module Op."""
    root = Op("<root>", [], [], {}, [], [])
    root.regions.append([Block([])])
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        cur = stack[-1]
        if line.startswith("^bb"):
            m = BB_RE.match(line)
            args = [a.split(":", 1)[1].strip() for a in split_top(m.group(1) or "") if a]
            region = cur.regions[-1]
            if region and (region[-1].ops or region[-1].args):
                region.append(Block(args))
            else:
                region[-1] = Block(args)
            continue
        if line.startswith("}, {"):
            cur.regions.append([Block([])])
            continue
        if line.startswith("})"):
            attrs, tin, tout = parse_tail(line[2:])
            cur.attrs.update(attrs)
            cur.types_in, cur.types_out = tin, tout
            stack.pop()
            continue
        m = OP_RE.match(line)
        if not m:
            raise ValueError("cannot read: " + line)
        res = m.group(1) or ""
        nres = sum(int(r.split(":")[1]) if ":" in r else 1
                   for r in split_top(res.rstrip(" =")) if r)
        attrs, tin, tout = parse_tail(m.group(4))
        op = Op(m.group(2), nres, split_top(m.group(3)), attrs, tin, tout)
        stack[-1].regions[-1][-1].ops.append(op)
        if tin is None:
            op.regions.append([Block([])])
            stack.append(op)
    assert len(stack) == 1, "unclosed region"
    mods = [o for o in root.regions[0][0].ops if o.name == "builtin.module"]
    return mods[0]


def walk(op):
    yield op
    for region in op.regions:
        for b in region:
            for o in b.ops:
                yield from walk(o)


# ---------------------------------------------------------------------------
# The summary of one module that the comparison looks at

NON_SEMANTIC_ATTRS = ("loc",)


def summarize(mod):
    s = {}
    funcs = [o for o in mod.regions[0][0].ops if o.name == "tt.func"]
    s["funcs"] = sorted("%s %s" % (f.attrs.get("sym_visibility", "public"), f.attrs.get("sym_name"))
                        for f in funcs)
    pub = [f for f in funcs if f.attrs.get("sym_visibility", '"public"') != '"private"']
    sig = ["module attributes: {%s}" % ", ".join("%s = %s" % kv for kv in sorted(mod.attrs.items()))]
    if pub:
        f = pub[0]
        for k in sorted(f.attrs):
            if k not in ("sym_name",):
                sig.append("%s = %s" % (k, f.attrs[k]))
    s["signature"] = sig
    ops = collections.Counter()
    types = collections.defaultdict(collections.Counter)
    for o in walk(mod):
        if o.name in ("builtin.module", "tt.func"):
            continue
        ops[o.name] += 1
        types[o.name][o.key(NON_SEMANTIC_ATTRS)] += 1
    s["ops"], s["types"] = ops, types

    def tree(op):
        kids = []
        for ri, region in enumerate(op.regions):
            for bi, b in enumerate(region):
                sub = sorted(tree(o) for o in b.ops if o.regions)
                kids.append("[%s]" % ", ".join(sub))
        return "%s->(%s)%s" % (op.name, ", ".join(op.types_out or []), "".join(kids))
    s["structure"] = [tree(f) for f in pub]

    place = {}

    def blocks(op, path):
        idx = collections.Counter()
        for ri, region in enumerate(op.regions):
            for bi, b in enumerate(region):
                here = "%s/r%d.b%d" % (path, ri, bi)
                place[here] = collections.Counter(o.name for o in b.ops)
                for o in b.ops:
                    if o.regions:
                        idx[o.name] += 1
                        blocks(o, "%s/%s#%d" % (here, o.name, idx[o.name]))
    for f in pub:
        blocks(f, "func")
    s["placement"] = place
    return s


def counter_diff(a, b):
    """'-' what only Triton has, '+' what only tritonc has."""
    out = []
    for k in sorted(set(a) | set(b)):
        if a[k] != b[k]:
            out.append("%s%d %s" % ("+" if b[k] > a[k] else "-", abs(b[k] - a[k]), k))
    return out


def compare(theirs, ours):
    """Returns {category: [lines]} for the categories that differ."""
    d = {}
    if theirs["signature"] != ours["signature"]:
        d["signature"] = (["- " + x for x in theirs["signature"] if x not in ours["signature"]] +
                          ["+ " + x for x in ours["signature"] if x not in theirs["signature"]])
    if theirs["funcs"] != ours["funcs"]:
        d["funcs"] = ["- " + " ".join(theirs["funcs"]), "+ " + " ".join(ours["funcs"])]
    x = counter_diff(theirs["ops"], ours["ops"])
    if x:
        d["ops"] = x
    x = []
    for name in sorted(set(theirs["types"]) | set(ours["types"])):
        x += counter_diff(theirs["types"][name], ours["types"][name])
    if x:
        d["types"] = x
    if theirs["structure"] != ours["structure"]:
        d["structure"] = ["- " + t for t in theirs["structure"]] + ["+ " + t for t in ours["structure"]]
    x = []
    for path in sorted(set(theirs["placement"]) | set(ours["placement"])):
        a = theirs["placement"].get(path, collections.Counter())
        b = ours["placement"].get(path, collections.Counter())
        x += ["%s: %s" % (path, y) for y in counter_diff(a, b)]
    if x and "structure" not in d:
        d["placement"] = x
    return d


# ---------------------------------------------------------------------------

def generic(tritonc, path):
    r = subprocess.run([tritonc, "opt", path, "-p", "", "--mlir-print-op-generic", "--no-verify"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("tritonc opt %s failed:\n%s" % (os.path.relpath(path, ROOT), r.stderr))
    return r.stdout


def ttir_pipeline(tritonc):
    """Our `default` pipeline (Triton's make_ttir has no licm; neither has
    ours: the backends run it)."""
    r = subprocess.run([tritonc, "passes"], capture_output=True, text=True)
    m = re.search(r"^\s*default\s.*\(([^()]*)\)\s*$", r.stdout, re.M)
    if not m:
        raise RuntimeError("cannot find the default pipeline in `tritonc passes`")
    return m.group(1)


def ours_ttir(tritonc, path, kernel, sig, cons, tmp, pipeline):
    cmd = [tritonc, "compile", path, "--kernel", kernel, "--signature", sig, "--emit", "ttir",
           "-p", pipeline, "-o", tmp]
    for k, v in cons:
        cmd += ["-D", "%s=%s" % (k, v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("tritonc compile failed:\n" + r.stderr)
    return generic(tritonc, tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tritonc", default=os.path.join(ROOT, "build", "tritonc"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-v", action="store_true", help="print every difference, not the first 12")
    ap.add_argument("stems", nargs="*")
    a = ap.parse_args()

    blocks = list(corpus_blocks())
    blocks.append(next((("load_modifiers_kernel__debug",) + b[1:] for b in blocks
                        if b[0] == "load_modifiers_kernel")))
    if a.stems:
        blocks = [b for b in blocks if b[0] in a.stems]
    pipeline = ttir_pipeline(a.tritonc)
    status = {}
    unexpected, stale = [], []
    with tempfile.TemporaryDirectory() as td:
        for stem, path, kernel, sig, cons in blocks:
            known = KNOWN.get(stem, {})
            if not os.path.exists(os.path.join(TRITON_IR, stem + ".ttir")):
                # a kernel added to the corpus after the last Triton dump run
                status[stem] = "no Triton dump"
                continue
            try:
                theirs = summarize(parse_generic(generic(a.tritonc, os.path.join(TRITON_IR, stem + ".ttir"))))
                ours = summarize(parse_generic(ours_ttir(a.tritonc, path, kernel, sig, cons,
                                                         os.path.join(td, stem + ".ttir"), pipeline)))
                diff = compare(theirs, ours)
            except (RuntimeError, ValueError, AssertionError) as e:
                diff = {"compile": [l for l in str(e).splitlines() if l][:6]}
            if not diff:
                status[stem] = "match"
            elif "*" in known or all(c in known for c in diff):
                status[stem] = "known (%s)" % ", ".join(sorted(diff))
            else:
                status[stem] = "DIFFERS (%s)" % ", ".join(sorted(diff))
                unexpected.append(stem)
            for c in known:
                if c != "*" and c not in diff:
                    stale.append("%s: %s" % (stem, c))
            if diff and (not a.check or stem in unexpected):
                print("== %s (%s)" % (stem, os.path.relpath(path, ROOT)))
                for c in ("compile",) + CATEGORIES:
                    if c in diff:
                        why = known.get(c) or known.get("*")
                        print("  %s%s:" % (c, "  [known: %s]" % why if why else ""))
                        lines = diff[c] if a.v else diff[c][:12]
                        for l in lines:
                            print("    " + l)
                        if len(diff[c]) > len(lines):
                            print("    ... %d more (-v)" % (len(diff[c]) - len(lines)))
    print("\n== summary")
    for stem, _, _, _, _ in blocks:
        print("  %-30s %s" % (stem, status[stem]))
    n = sum(1 for v in status.values() if v == "match")
    print("%d of %d match; %d known differences; %d unexpected" %
          (n, len(status), sum(1 for v in status.values() if v.startswith("known")), len(unexpected)))
    for s in stale:
        print("note: KNOWN entry no longer needed: " + s)
    if a.check and unexpected:
        print("FAIL: unexpected differences in " + ", ".join(unexpected))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
