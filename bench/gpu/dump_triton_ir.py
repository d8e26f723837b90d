#!/usr/bin/env python3
"""Compile the kernel corpus with the reference Triton and keep its IR.

Reads every tests/kernels/*.py, parses the KERNEL/SIGNATURE/CONSTEXPR/GRID
header blocks at the top of each file (tests/kernels/README.md), and for each
block compiles that kernel with the installed Triton through
triton.compile(ASTSource(fn, signature, constexprs, attrs)) -- the same
specialisation Triton's JIT would build from real arguments, but without
launching anything. Each block compiles in its own child process with its own
fresh TRITON_CACHE_DIR, so a kernel that fails (or crashes the compiler)
costs only itself. From each cache entry it keeps:

    <stem>.source.ttir  the front end's module before any pass (Triton's
                        "<name>.source" cache file, when this Triton writes one)
    <stem>.ttir         after make_ttir (inliner, canonicalize, combine, CSE, ...)
    <stem>.ttgir        after make_ttgir (layouts, pipelining)
    <stem>.ptx          the PTX Triton hands to ptxas
    <stem>.json         Triton's metadata for the compiled kernel

<stem> is the kernel's name; a kernel specialised by several blocks gets
<name>__2, <name>__3, ... for its second, third, ... block, in file order.
--also-debug STEM compiles that block a second time with debug=True (which
keeps tl.device_assert and adds overflow checks) under the stem STEM__debug.

Absolute paths are rewritten in every kept file so none lands in the
repository: the repository root prefix is removed (locations read
"tests/kernels/foo.py":12:0) and the directory holding the triton package is
removed (triton/language/standard.py). Nothing else is changed.

Everything goes into one tar.gz under $OUT (or --out), with summary.json and
a log; a table is printed last.

    python3 dump_triton_ir.py            # on the GPU machine: compile and dump
    python3 dump_triton_ir.py --check    # anywhere, no Triton: validate headers
    python3 dump_triton_ir.py --only add_kernel,matmul_kernel
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = ROOT / "tests" / "kernels"

HEADER_RE = re.compile(r"^#\s*(KERNEL|SIGNATURE|CONSTEXPR|GRID):\s*(.*?)\s*$")
SCALAR_TYPES = {"i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64",
                "fp8e4nv", "fp8e5", "fp8e4b15", "fp16", "bf16", "fp32", "fp64"}
GRID_FUNCS = {"cdiv", "min", "max"}
KEPT = (("source", "source.ttir"), ("ttir", "ttir"), ("ttgir", "ttgir"), ("ptx", "ptx"), ("json", "json"))
DEFAULT_OPTIONS = {"num_warps": 4, "num_stages": 3}


class HeaderError(Exception):
    pass


# ----------------------------------------------------------------------------
# Header parsing (no Triton needed)
# ----------------------------------------------------------------------------

def parse_constexprs(text, where):
    """'A=1, B="x", C=tl.float16' -> {name: value}; dtypes become {"dtype": name}."""
    text = text.strip()
    if not text:
        return {}
    try:
        call = ast.parse("f(" + text + ")", mode="eval").body
    except SyntaxError as e:
        raise HeaderError(f"{where}: CONSTEXPR is not NAME=VALUE, ...: {e.msg}")
    if call.args:
        raise HeaderError(f"{where}: CONSTEXPR entries must be NAME=VALUE")
    out = {}
    for kw in call.keywords:
        if kw.arg is None or kw.arg in out:
            raise HeaderError(f"{where}: bad or repeated CONSTEXPR name")
        node = kw.value
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "tl"):
            out[kw.arg] = {"dtype": node.attr}
            continue
        try:
            out[kw.arg] = ast.literal_eval(node)
        except ValueError:
            raise HeaderError(f"{where}: CONSTEXPR {kw.arg} is neither a literal nor tl.<dtype>")
    return out


def split_signature(text):
    """The entries of a SIGNATURE: commas inside brackets
    (`tensordesc<fp16[64, 64]>`) do not split."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[<":
            depth += 1
        elif ch in "]>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_signature(text, where):
    entries = split_signature(text) if text.strip() else []
    out = []
    for e in entries:
        if e == "constexpr":
            out.append({"type": "constexpr", "div16": False})
            continue
        m = re.fullmatch(r"(tensordesc<([a-z0-9]+)\[\s*\d+(\s*,\s*\d+)*\s*\]>)(:16)?", e)
        if m:  # a host TensorDescriptor with its element type and block shape
            if m.group(2) not in SCALAR_TYPES:
                raise HeaderError(f"{where}: bad SIGNATURE entry {e!r}")
            # ':16' (a last dimension a multiple of 16) is tritonc's own
            # specialisation; Triton's signature spells the descriptor alone
            out.append({"type": m.group(1), "div16": False})
            continue
        m = re.fullmatch(r"(\*?)([a-z0-9]+)(:16)?", e)
        if not m or m.group(2) not in SCALAR_TYPES:
            raise HeaderError(f"{where}: bad SIGNATURE entry {e!r}")
        if m.group(3) and not (m.group(1) or m.group(2).startswith(("i", "u"))):
            raise HeaderError(f"{where}: ':16' applies to pointers and integers only ({e!r})")
        out.append({"type": m.group(1) + m.group(2), "div16": bool(m.group(3))})
    return out


def parse_header(path):
    """The leading comment lines of a file -> list of blocks, in order."""
    blocks, cur = [], None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.startswith("#"):
                if line.strip() == "":
                    continue
                break
            m = HEADER_RE.match(line)
            if not m:
                continue
            key, val = m.group(1), m.group(2)
            where = f"{path.name}:{lineno}"
            if key == "KERNEL":
                cur = {"file": path.name, "line": lineno, "kernel": val}
                blocks.append(cur)
                continue
            if cur is None:
                raise HeaderError(f"{where}: {key} before any KERNEL line")
            if key.lower() in cur:
                raise HeaderError(f"{where}: second {key} in one block")
            if key == "SIGNATURE":
                cur["signature"] = parse_signature(val, where)
            elif key == "CONSTEXPR":
                cur["constexpr"] = parse_constexprs(val, where)
            else:
                cur["grid"] = val
    for b in blocks:
        for key in ("signature", "constexpr", "grid"):
            if key not in b:
                raise HeaderError(f"{path.name}:{b['line']}: block of {b['kernel']} lacks {key.upper()}")
    return blocks


def jit_functions(path):
    """name -> [(param, is_constexpr, has_default)] for @triton.jit functions, by AST
    (also `NAME = triton.jit(f)`: NAME and f both)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out, defs = {}, {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        args = node.args.args
        ndef = len(node.args.defaults)
        params = []
        for i, a in enumerate(args):
            ann = ast.unparse(a.annotation) if a.annotation is not None else ""
            params.append((a.arg, "constexpr" in ann, i >= len(args) - ndef))
        defs[node.name] = params
        if any("jit" in ast.unparse(d) for d in node.decorator_list):
            out[node.name] = params
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call) and "jit" in ast.unparse(node.value.func)
                and len(node.value.args) == 1 and isinstance(node.value.args[0], ast.Name)
                and node.value.args[0].id in defs):
            out[node.targets[0].id] = out[node.value.args[0].id] = defs[node.value.args[0].id]
    return out


def check_grid(grid, names, where):
    try:
        tree = ast.parse("(" + grid + ",)", mode="eval")
    except SyntaxError as e:
        raise HeaderError(f"{where}: GRID does not parse: {e.msg}")
    dims = tree.body.elts
    if not 1 <= len(dims) <= 3:
        raise HeaderError(f"{where}: GRID has {len(dims)} dimensions")
    free = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in GRID_FUNCS):
                raise HeaderError(f"{where}: GRID may call only {sorted(GRID_FUNCS)}")
        elif isinstance(node, ast.Name) and node.id not in GRID_FUNCS and node.id not in names:
            free.add(node.id)
    return sorted(free)


def load_blocks(only=None):
    """Parse and check every corpus header; give each block its dump stem."""
    blocks, seen = [], {}
    for path in sorted(CORPUS.glob("*.py")):
        fns = jit_functions(path)
        for b in parse_header(path):
            where = f"{b['file']}:{b['line']}"
            if b["kernel"] not in fns:
                raise HeaderError(f"{where}: no @triton.jit function {b['kernel']}")
            params = fns[b["kernel"]]
            runtime = [p for p in params if not p[1]]
            if len(runtime) != len(b["signature"]):
                raise HeaderError(f"{where}: SIGNATURE has {len(b['signature'])} entries, "
                                  f"{b['kernel']} has {len(runtime)} non-constexpr parameters")
            names = {p[0] for p in params}
            for name in b["constexpr"]:
                if name not in names:
                    raise HeaderError(f"{where}: CONSTEXPR names unknown parameter {name}")
            for (pname, _, _), ent in zip(runtime, b["signature"]):
                given = pname in b["constexpr"]
                if (ent["type"] == "constexpr") != given:
                    raise HeaderError(f"{where}: parameter {pname}: SIGNATURE says {ent['type']}, "
                                      f"CONSTEXPR {'gives' if given else 'does not give'} a value")
            for pname, is_cx, has_def in params:
                if is_cx and pname not in b["constexpr"] and not has_def:
                    raise HeaderError(f"{where}: constexpr {pname} has no value and no default")
            b["free_grid_names"] = check_grid(b["grid"], names, where)
            n = seen.get(b["kernel"], 0) + 1
            seen[b["kernel"]] = n
            b["stem"] = b["kernel"] if n == 1 else f"{b['kernel']}__{n}"
            blocks.append(b)
    if only:
        want = set(only.split(","))
        blocks = [b for b in blocks if b["stem"] in want or b["kernel"] in want]
    return blocks


# ----------------------------------------------------------------------------
# Child: compile one block (needs Triton)
# ----------------------------------------------------------------------------

def scrub(text, prefixes):
    """Remove absolute directory prefixes; return the text and the count removed."""
    n = 0
    for old, new in prefixes:
        if old and old in text:
            n += text.count(old)
            text = text.replace(old, new)
    return text, n


B8_RE = re.compile(r"^\.b8 (\d+)")


def scrub_ptx_dwarf(text, prefixes):
    """Rewrite DW_AT_comp_dir in the PTX .debug_info section, which LLVM emits
    as one `.b8 <byte>` line per character, and fix the unit length so the
    section stays consistent. Returns the text and the number of rewrites."""
    lines = text.split("\n")
    n = 0
    i = 0
    while i < len(lines):
        if "// DW_AT_comp_dir" in lines[i] and B8_RE.match(lines[i]):
            j, data = i, []
            while j < len(lines) and B8_RE.match(lines[j]):
                v = int(B8_RE.match(lines[j]).group(1))
                j += 1
                if v == 0:
                    break
                data.append(v)
            old = bytes(data).decode("latin-1")
            new = old
            for pre, rep in prefixes:
                if pre and (new + "/").startswith(pre):
                    new = (rep + new[len(pre):]) if len(new) >= len(pre) else "."
                    break
            new = new or "."
            if new != old:
                enc = list(new.encode("latin-1")) + [0]
                out = [f"{'.b8 ' + str(enc[0]):<40}// DW_AT_comp_dir"] + [f".b8 {v}" for v in enc[1:]]
                lines[i:j] = out
                delta = len(new) - len(old)
                for k in range(i, -1, -1):
                    m = re.match(r"^\.b32 (\d+)(\s+// Length of Unit.*)$", lines[k])
                    if m:
                        lines[k] = f".b32 {int(m.group(1)) + delta}{m.group(2)}"
                        break
                n += 1
                i += len(out)
                continue
        i += 1
    return "\n".join(lines), n


def dwarf_strings(text):
    """Decode the runs of .b8 bytes of a PTX file into strings (for checking)."""
    out, cur = [], []
    for line in text.split("\n"):
        m = B8_RE.match(line)
        if m and int(m.group(1)) != 0:
            cur.append(int(m.group(1)))
            continue
        if len(cur) > 3:
            out.append(bytes(cur).decode("latin-1"))
        cur = []
    return out


def compile_one(block, outdir):
    """Runs in a child process with a fresh TRITON_CACHE_DIR already set."""
    import importlib.util
    res = {"stem": block["stem"], "kernel": block["kernel"], "file": block["file"], "ok": False}
    t0 = time.time()
    import triton
    import triton.language as tl
    from triton.compiler import ASTSource
    res["triton"] = triton.__version__

    path = CORPUS / block["file"]
    spec = importlib.util.spec_from_file_location("tk_" + path.stem, str(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, block["kernel"])

    def value(v):
        return getattr(tl, v["dtype"]) if isinstance(v, dict) else v

    sig_iter = iter(block["signature"])
    signature, constexprs, attrs = {}, {}, {}
    for i, p in enumerate(fn.params):
        if p.is_constexpr:
            signature[p.name] = "constexpr"
            if p.name in block["constexpr"]:
                constexprs[(i,)] = value(block["constexpr"][p.name])
            else:
                d = p.default
                constexprs[(i,)] = d.value if hasattr(d, "value") else d
            continue
        ent = next(sig_iter)
        signature[p.name] = ent["type"]
        if ent["type"] == "constexpr":
            constexprs[(i,)] = value(block["constexpr"][p.name])
        if ent["div16"]:
            attrs[(i,)] = [["tt.divisibility", 16]]

    from triton.runtime.driver import driver
    target = driver.active.get_current_target()
    try:
        from triton.compiler.compiler import make_backend
        backend = make_backend(target)
        d16 = backend.parse_attr("D")
        attrs = {k: d16 for k in attrs}
    except Exception:
        backend = None
    res["target"] = str(target)
    res["signature"] = signature
    res["constexprs"] = {fn.params[k[0]].name: repr(v) for k, v in constexprs.items()}

    src = ASTSource(fn, signature, constexprs, attrs)
    options = dict(DEFAULT_OPTIONS, **block.get("options", {}))
    res["options"] = options
    kernel = triton.compile(src, target=target, options=options)
    res["compile_s"] = round(time.time() - t0, 3)

    # collect this kernel's files from the (fresh, private) cache directory
    cache = Path(os.environ["TRITON_CACHE_DIR"])
    found = {}
    for f in cache.rglob("*"):
        if f.is_file() and not f.name.startswith("__grp__"):
            ext = f.name.rsplit(".", 1)[-1]
            if f.name.rsplit(".", 1)[0] == block["kernel"]:
                found[ext] = f
    if "source" not in found and backend is not None:
        # this Triton does not cache the front end's output: rebuild it
        try:
            from triton._C.libtriton import ir
            ctx = ir.context()
            ir.load_dialects(ctx)
            backend.load_dialects(ctx)
            opts = backend.parse_options(dict(options))
            src2 = ASTSource(fn, signature, constexprs, attrs)
            args = (opts, backend.get_codegen_implementation(opts), backend.get_module_map(), ctx)
            try:
                m = src2.make_ir(target, *args)
            except TypeError:
                m = src2.make_ir(*args)
            tmp = cache / (block["kernel"] + ".source")
            tmp.write_text(str(m))
            found["source"] = tmp
            res["source_rebuilt"] = True
        except Exception as e:  # keep the other files
            res["source_error"] = f"{type(e).__name__}: {e}"

    pkg_parent = str(Path(triton.__file__).resolve().parent.parent)
    prefixes = [(str(ROOT) + "/", ""), (str(ROOT.resolve()) + "/", ""),
                (pkg_parent + "/", ""), (str(Path(triton.__file__).parent.parent) + "/", "")]
    res["files"], res["lines"], res["scrubbed"] = {}, {}, 0
    for ext, suffix in KEPT:
        if ext not in found:
            continue
        text, n = scrub(found[ext].read_text(), prefixes)
        res["scrubbed"] += n
        if ext == "ptx":
            text, n = scrub_ptx_dwarf(text, prefixes)
            res["scrubbed"] += n
        name = f"{block['stem']}.{suffix}"
        (outdir / name).write_text(text)
        res["files"][ext] = name
        res["lines"][ext] = text.count("\n")
        left = sorted(set(re.findall(r'"(/[^"\s]+)"', text)))
        if ext == "ptx":
            left += [d for d in dwarf_strings(text) if d.startswith("/")]
        if left:
            res.setdefault("absolute_paths_left", {})[name] = left[:5]
    res["shared"] = kernel.metadata.shared if hasattr(kernel.metadata, "shared") else None
    res["ok"] = all(e in res["files"] for e in ("ttir", "ttgir", "ptx", "json"))
    if not res["ok"]:
        res["error"] = "missing " + ",".join(e for e in ("ttir", "ttgir", "ptx", "json") if e not in res["files"])
    return res


def child_main(block_json, outdir):
    block = json.loads(Path(block_json).read_text())
    outdir = Path(outdir)
    try:
        res = compile_one(block, outdir)
    except BaseException as e:
        tb = traceback.format_exc()
        res = {"stem": block["stem"], "kernel": block["kernel"], "file": block["file"], "ok": False,
               "error": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"[:300],
               "traceback": tb[-6000:]}
    (outdir / f"{block['stem']}.result.json").write_text(json.dumps(res, indent=1, default=str))
    return 0


# ----------------------------------------------------------------------------
# Parent: fan out, gather, pack, summarise
# ----------------------------------------------------------------------------

def run_block(block, workdir, timeout):
    bdir = workdir / block["stem"]
    bdir.mkdir(parents=True, exist_ok=True)
    (bdir / "block.json").write_text(json.dumps(block))
    env = dict(os.environ)
    env["TRITON_CACHE_DIR"] = str(bdir / "cache")
    env["PYTHONUNBUFFERED"] = "1"
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(bdir / "block.json"),
                            str(bdir / "out")], env=env, capture_output=True, text=True, timeout=timeout,
                           cwd=str(HERE))
        rc, log = p.returncode, (p.stdout + p.stderr)
    except subprocess.TimeoutExpired as e:
        rc, log = "timeout", f"timed out after {timeout}s"
    rfile = bdir / "out" / f"{block['stem']}.result.json"
    if rfile.exists():
        res = json.loads(rfile.read_text())
    else:
        res = {"stem": block["stem"], "kernel": block["kernel"], "file": block["file"], "ok": False,
               "error": f"child died (rc={rc})"}
    res["wall_s"] = round(time.time() - t0, 2)
    res["child_log_tail"] = log[-3000:]
    return res


def environment():
    info = {"date_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), "python": sys.version.split()[0]}
    try:
        import triton
        info["triton"] = triton.__version__
    except Exception as e:
        info["triton"] = f"unavailable: {e}"
    try:
        import torch
        info["torch"] = torch.__version__
        info["cuda_runtime"] = torch.version.cuda
        if torch.cuda.is_available():
            info["device"] = torch.cuda.get_device_name()
            info["capability"] = "sm_%d%d" % torch.cuda.get_device_capability()
    except Exception as e:
        info["torch"] = f"unavailable: {e}"
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        info["nvidia_smi"] = q.stdout.strip()
    except Exception:
        pass
    try:
        from triton import knobs
        info["ptxas"] = knobs.nvidia.ptxas.version
    except Exception:
        pass
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="validate the corpus headers only (no Triton)")
    ap.add_argument("--only", help="comma-separated kernel names or stems")
    ap.add_argument("--out", default=os.environ.get("OUT", "."), help="where the tar.gz and summary go ($OUT)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("--timeout", type=int, default=240, help="seconds per kernel")
    ap.add_argument("--also-debug", default="", metavar="STEMS",
                    help="also compile these blocks with debug=True, as <stem>__debug")
    ap.add_argument("--child", nargs=2, metavar=("BLOCK_JSON", "OUTDIR"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        Path(a.child[1]).mkdir(parents=True, exist_ok=True)
        return child_main(*a.child)

    try:
        blocks = load_blocks(a.only)
    except HeaderError as e:
        print(f"header error: {e}")
        return 1
    for stem in filter(None, a.also_debug.split(",")):
        extra = [dict(b, stem=b["stem"] + "__debug", options={"debug": True}) for b in blocks if b["stem"] == stem]
        if not extra:
            print(f"--also-debug: no block {stem}")
            return 1
        blocks += extra
    if a.check:
        for b in blocks:
            free = f"  (grid sizes from the caller: {', '.join(b['free_grid_names'])})" if b["free_grid_names"] else ""
            print(f"{b['file']:18} {b['stem']:30} {len(b['signature']):2} args{free}")
        print(f"{len(blocks)} kernel blocks in {len({b['file'] for b in blocks})} files: headers OK")
        return 0

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="tritonc_dump_"))
    print(f"compiling {len(blocks)} kernel blocks, {a.jobs} at a time")
    t0 = time.time()
    results = []
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for res in pool.map(lambda b: run_block(b, work, a.timeout), blocks):
            status = "ok" if res["ok"] else "ERROR " + res.get("error", "")
            print(f"  {res['stem']:30} {res['wall_s']:6.1f}s  {status}")
            results.append(res)
    env = environment()
    env["total_s"] = round(time.time() - t0, 1)
    env["options"] = DEFAULT_OPTIONS

    stage = work / "triton_ir"
    stage.mkdir()
    for r in results:
        for name in r.get("files", {}).values():
            shutil.copy(work / r["stem"] / "out" / name, stage / name)
    summary = {"environment": env, "kernels": results}
    (stage / "summary.json").write_text(json.dumps(summary, indent=1, default=str))
    tar_path = out / "triton_ir_dumps.tar.gz"
    with tarfile.open(tar_path, "w:gz") as tf:
        for f in sorted(stage.iterdir()):
            tf.add(f, arcname=f"triton_ir/{f.name}")
    shutil.copy(stage / "summary.json", out / "summary.json")
    with open(out / "failures.txt", "w") as f:
        for r in results:
            if not r["ok"]:
                f.write(f"==== {r['stem']} ({r['file']}): {r.get('error')}\n{r.get('traceback', '')}\n"
                        f"{r.get('child_log_tail', '')}\n\n")

    print()
    print(json.dumps(env))
    print(f"{'kernel':30} {'file':18} {'status':6} {'ttir':>5} {'ttgir':>6} {'ptx':>6}  note")
    for r in results:
        ln = r.get("lines", {})
        note = r.get("error", "") if not r["ok"] else ("source rebuilt" if r.get("source_rebuilt") else "")
        if r.get("absolute_paths_left"):
            note += " abs-paths-left"
        print(f"{r['stem']:30} {r['file']:18} {'ok' if r['ok'] else 'ERROR':6} {ln.get('ttir', '-'):>5} "
              f"{ln.get('ttgir', '-'):>6} {ln.get('ptx', '-'):>6}  {note[:150]}")
    nok = sum(r["ok"] for r in results)
    print(f"{nok}/{len(results)} compiled; tar: {tar_path} ({tar_path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
