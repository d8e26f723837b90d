#!/usr/bin/env python3
"""One of vs_triton.py's benchmark kernels, looked at closely on the GPU:
its PTX and cubin from both compilers (for reading and disassembling
elsewhere), and its time under several launch configurations, tritonc and
Triton side by side in the same process, on the same inputs.

    python3 bench/gpu/kernel_asm.py layer_norm [--out DIR] [--configs 8:1024,4:1024,8:2048]
    python3 bench/gpu/kernel_asm.py --case "spin lock" [--case "shape ops" ...] [--out DIR]

Each config is NUM_WARPS:BLOCK (the kernel's block constexpr). Writes
<bench>-<warps>-<block>.{triton,tritonc}.{ptx,cubin} under --out and prints
one line per config: median ms of each (do_bench, ABBA order) and the ratio.
--case takes any of vs_triton.py's corpus cases by label, at its first size,
with the case's own launch options: <label>.{triton,tritonc}.{ptx,cubin,sass}.
"""
import argparse, glob, os, shutil, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton_cache_"))
os.environ.setdefault("TRITONC_CACHE_DIR", tempfile.mkdtemp(prefix="tritonc_cache_"))
import vs_triton as V  # noqa: E402

BLOCK_NAME = {"layer_norm": "BLOCK_N", "softmax": "BLOCK", "vector_add": "BLOCK"}
MAKERS = {
    "layer_norm": lambda sd, b, w: V.c_ln_fwd((4096, 8192), sd, block=b, warps=w),
    "softmax": lambda sd, b, w: V.c_softmax((4096, 4096), sd, block=b, warps=w),
    "vector_add": lambda sd, b, w: V.c_vector_add(1 << 26, sd, "fp32"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench", nargs="?", choices=sorted(MAKERS))
    ap.add_argument("--case", action="append", default=[], help="a vs_triton.py case label")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--configs", default="8:1024")
    a = ap.parse_args()
    import torch
    from triton.testing import do_bench
    for label in a.case:
        one_case(label, a.out, do_bench)
    if not a.bench:
        return
    module, kname = {b[0]: (b[0], b[1]) for b in V.BENCH}[a.bench]
    tc_mod = V.load_tritonc_module(module, tempfile.mkdtemp())
    tr_mod = V.load_triton_module(module)
    for cfg in a.configs.split(","):
        warps, block = (int(v) for v in cfg.split(":"))
        r = MAKERS[a.bench](1, block, warps)
        if a.bench == "vector_add":
            r.kw = dict(r.kw, num_warps=warps)
        stem = os.path.join(a.out, "%s-%d-%d" % (a.bench, warps, block))
        times = {}
        kerns = {}
        for name, mod in (("tritonc", tc_mod), ("triton", tr_mod)):
            k = getattr(mod, kname)
            kerns[name] = k[r.grid](*r.args, **r.kw)
        torch.cuda.synchronize()
        for name in ("tritonc", "triton", "triton", "tritonc"):
            k = getattr(tc_mod if name == "tritonc" else tr_mod, kname)
            t = do_bench(lambda: k[r.grid](*r.args, **r.kw), warmup=100, rep=500, return_mode="median")
            times.setdefault(name, []).append(t)
        tc, tr = (sum(times[n]) / 2 for n in ("tritonc", "triton"))
        print("%-12s warps %2d %s %5d: tritonc %.4f ms, Triton %.4f ms, ratio %.3f (runs %s / %s)" % (
            a.bench, warps, BLOCK_NAME[a.bench], block, tc, tr, tc / tr,
            " ".join("%.4f" % t for t in times["tritonc"]), " ".join("%.4f" % t for t in times["triton"])),
            flush=True)
        save_asm(stem, kerns)


def disassemble(stem):
    for p in glob.glob("%s.*.cubin" % stem):
        if shutil.which("cuobjdump"):
            os.system("cuobjdump -sass '%s' > '%s.sass' 2>&1" % (p, p[:-6]))


def save_asm(stem, kerns):
    """Both compilers' PTX and cubin (asm["cubin"] is bytes in both)."""
    for name, k in kerns.items():
        for ext in ("ptx", "cubin"):
            v = k.asm.get(ext)
            if v is not None:
                with open("%s.%s.%s" % (stem, name, ext), "wb" if isinstance(v, bytes) else "w") as f:
                    f.write(v)
    disassemble(stem)


def one_case(label, out, do_bench):
    """A vs_triton.py case at its first size: both compilers' texts and
    times, ABBA, the inputs rebuilt before each timing as vs_triton does."""
    import torch
    case = next((c for c in V.CASES if c[2] == label), None)
    if case is None:
        raise SystemExit("no case %r; cases: %s" % (label, ", ".join(c[2] for c in V.CASES)))
    module, kname, _, make, sizes = case
    mods = {"tritonc": V.load_tritonc_module(module, tempfile.mkdtemp()), "triton": V.load_triton_module(module)}
    r = make(sizes[0], 1)
    kerns = {n: getattr(m, kname)[r.grid](*r.args, **r.kw) for n, m in mods.items()}
    torch.cuda.synchronize()
    times = {}
    for name in ("tritonc", "triton", "triton", "tritonc"):
        k = getattr(mods[name], kname)
        times.setdefault(name, []).append(
            do_bench(lambda: k[r.grid](*r.args, **r.kw), warmup=100, rep=500, return_mode="median"))
    tc, tr = (sum(times[n]) / 2 for n in ("tritonc", "triton"))
    print("%-28s tritonc %.4f ms, Triton %.4f ms, ratio %.3f; registers %s / %s" % (
        label, tc, tr, tc / tr, getattr(kerns["tritonc"], "n_regs", "?"), getattr(kerns["triton"], "n_regs", "?")),
        flush=True)
    save_asm(os.path.join(out, label.replace(" ", "_").replace("/", "_")), kerns)


if __name__ == "__main__":
    main()
