#!/usr/bin/env python3
"""bench/cpu/vs_interpreter.py - tritonc's CPU backend, side by side in one run,
against Triton's interpreter (TRITON_INTERPRET=1, CPU torch tensors) and
against straightforward C loops (bench/cpu/loops.c, -O3 -march=native, one
thread), on the same data, from the same Python kernels (tests/kernels/
vector_add.py, softmax_rows.py, layer_norm.py) through tritonc's real front end.

Needs torch and triton (for the interpreter), a C compiler, and the library
built first: `make -j16 build/libtritonc.so`. Our side is driven by a small
ctypes shim over include/tritonc.h (no dependency on python/tritonc).

  python3 bench/cpu/vs_interpreter.py [--lib build/libtritonc.so] [--reps 20]

Prints a Markdown table (wall-clock medians; GB/s counts the minimum
traffic: every input read once, every output written once). Our side runs
twice: with the default thread pool (all cores) and, in a child process,
with TRITONC_NUM_THREADS=1.
"""
import argparse
import ctypes as C
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KDIR = os.path.join(ROOT, "tests", "kernels")

SIZES = {"add": 1 << 20, "softmax": (1024, 1024), "layer_norm": (1024, 1024)}


# ---- the ctypes shim over include/tritonc.h -----------------------------------

class Constexpr(C.Structure):
    _fields_ = [("name", C.c_char_p), ("value", C.c_char_p)]


class Options(C.Structure):
    _fields_ = [("source", C.c_char_p), ("source_len", C.c_size_t), ("filename", C.c_char_p),
                ("kernel", C.c_char_p), ("signature", C.c_char_p),
                ("constexprs", C.POINTER(Constexpr)), ("num_constexprs", C.c_int),
                ("device", C.c_int), ("target", C.c_char_p), ("num_warps", C.c_int),
                ("num_stages", C.c_int), ("cache_dir", C.c_char_p)]


class Tritonc:
    def __init__(self, path):
        self.lib = L = C.CDLL(path)
        L.tc_compile_options_default.restype = Options
        L.tc_compile.argtypes = [C.POINTER(Options), C.POINTER(C.c_void_p), C.POINTER(C.c_void_p)]
        L.tc_launch.argtypes = [C.c_void_p, C.POINTER(C.c_int), C.POINTER(C.c_void_p), C.c_int,
                                C.c_void_p, C.POINTER(C.c_void_p)]
        L.tc_error_message.restype = C.c_char_p
        L.tc_error_message.argtypes = [C.c_void_p]
        L.tc_kernel_num_params.argtypes = [C.c_void_p]

    def compile(self, file, kernel, sig, cx):
        src = open(os.path.join(KDIR, file), "rb").read()
        o = self.lib.tc_compile_options_default()
        o.source, o.source_len, o.filename = src, len(src), file.encode()
        o.kernel, o.signature = kernel.encode(), sig.encode()
        arr = (Constexpr * len(cx))(*[Constexpr(k.encode(), str(v).encode()) for k, v in cx.items()])
        o.constexprs, o.num_constexprs = arr, len(cx)
        k, err = C.c_void_p(), C.c_void_p()
        if self.lib.tc_compile(C.byref(o), C.byref(k), C.byref(err)) != 0:
            raise RuntimeError(self.lib.tc_error_message(err).decode())
        return k

    def launcher(self, k, grid, args):
        """A function that launches k over grid with args (ctypes scalars)."""
        keep = list(args)
        argv = (C.c_void_p * len(keep))(*[C.cast(C.byref(a), C.c_void_p) for a in keep])
        g = (C.c_int * 3)(*(list(grid) + [1, 1])[:3])
        err = C.c_void_p()

        def go():
            if self.lib.tc_launch(k, g, argv, len(keep), None, C.byref(err)) != 0:
                raise RuntimeError(self.lib.tc_error_message(err).decode())
        go.keep = (keep, argv, g)
        return go


def median_time(fn, reps, warmup=1):
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


# ---- problems: inputs, byte counts ----------------------------------------------

def make_data(torch):
    g = torch.Generator().manual_seed(0)
    n = SIZES["add"]
    R, Cn = SIZES["softmax"]
    M, N = SIZES["layer_norm"]
    d = {
        "x": torch.randn(n, generator=g), "y": torch.randn(n, generator=g),
        "sm_in": torch.randn(R, Cn, generator=g) * 3,
        "ln_x": (torch.randn(M, N, generator=g) * 2 + 0.5).half(),
        "ln_w": (torch.rand(N, generator=g) + 0.5).half(),
        "ln_b": torch.randn(N, generator=g).half(),
    }
    return d


BYTES = {
    "add": 3 * 4 * SIZES["add"],
    "softmax": 2 * 4 * SIZES["softmax"][0] * SIZES["softmax"][1],
    "layer_norm": 2 * 2 * SIZES["layer_norm"][0] * SIZES["layer_norm"][1]
    + 2 * 2 * SIZES["layer_norm"][1] + 8 * SIZES["layer_norm"][0],
}


def ours(torch, lib_path, reps):
    """Times our CPU backend; returns {name: seconds} and the outputs."""
    tc = Tritonc(lib_path)
    d = make_data(torch)
    P = lambda t: C.c_void_p(t.data_ptr())  # noqa: E731
    res, outs = {}, {}
    n = SIZES["add"]
    out = torch.full_like(d["x"], float("nan"))
    k = tc.compile("vector_add.py", "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32", {"BLOCK": 1024})
    go = tc.launcher(k, [(n + 1023) // 1024], [P(d["x"]), P(d["y"]), P(out), C.c_int32(n)])
    res["add"], outs["add"] = median_time(go, reps), out
    R, Cn = SIZES["softmax"]
    out = torch.full_like(d["sm_in"], float("nan"))
    k = tc.compile("softmax_rows.py", "softmax_row_kernel", "*fp32:16,*fp32:16,i32:16,i32:16,i32",
                   {"BLOCK_SIZE": 1024})
    go = tc.launcher(k, [R], [P(out), P(d["sm_in"]), C.c_int32(Cn), C.c_int32(Cn), C.c_int32(Cn)])
    res["softmax"], outs["softmax"] = median_time(go, reps), out
    M, N = SIZES["layer_norm"]
    y = torch.full_like(d["ln_x"], float("nan"))
    mean, rstd = torch.empty(M), torch.empty(M)
    k = tc.compile("layer_norm.py", "layer_norm_fwd_kernel",
                   "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32,fp32", {"BLOCK_N": 1024})
    go = tc.launcher(k, [M], [P(d["ln_x"]), P(y), P(d["ln_w"]), P(d["ln_b"]), P(mean), P(rstd),
                              C.c_int32(N), C.c_int32(N), C.c_float(1e-5)])
    res["layer_norm"], outs["layer_norm"] = median_time(go, reps), y
    return res, outs


def loops(torch, so_path, reps):
    L = C.CDLL(so_path)
    d = make_data(torch)
    P = lambda t: C.c_void_p(t.data_ptr())  # noqa: E731
    res, outs = {}, {}
    n = SIZES["add"]
    out = torch.full_like(d["x"], float("nan"))
    res["add"] = median_time(lambda: L.add_f32(P(d["x"]), P(d["y"]), P(out), C.c_long(n)), reps)
    outs["add"] = out
    R, Cn = SIZES["softmax"]
    out = torch.full_like(d["sm_in"], float("nan"))
    res["softmax"] = median_time(lambda: L.softmax_f32(P(out), P(d["sm_in"]), C.c_long(R), C.c_long(Cn)), reps)
    outs["softmax"] = out
    M, N = SIZES["layer_norm"]
    y = torch.full_like(d["ln_x"], float("nan"))
    mean, rstd = torch.empty(M), torch.empty(M)
    res["layer_norm"] = median_time(lambda: L.layer_norm_f16(P(d["ln_x"]), P(y), P(d["ln_w"]), P(d["ln_b"]),
                                                             P(mean), P(rstd), C.c_long(M), C.c_long(N),
                                                             C.c_float(1e-5)), reps)
    outs["layer_norm"] = y
    return res, outs


def interpreter(torch, reps):
    os.environ["TRITON_INTERPRET"] = "1"
    import importlib.util
    import triton  # noqa: F401 (after TRITON_INTERPRET)
    import triton.runtime.interpreter as interp

    # Triton 3.6's interpreter turns a scalar into an int with int(ndarray),
    # which NumPy >= 2.5 refuses for 1-element 1-D arrays (range() over a
    # runtime argument fails with "only 0-dimensional arrays can be converted
    # to Python scalars"); .item() works for both shapes. Timing is unaffected.
    orig_patch = interp._patch_lang_tensor

    def patch_lang_tensor(tensor, *rest):
        orig_patch(tensor, *rest)
        tensor.__index__ = lambda self: self.handle.data.item()
    interp._patch_lang_tensor = patch_lang_tensor

    def load(name):
        spec = importlib.util.spec_from_file_location("k_" + name, os.path.join(KDIR, name + ".py"))
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        return m

    va, sm, ln = load("vector_add"), load("softmax_rows"), load("layer_norm")
    d = make_data(torch)
    res, outs = {}, {}
    n = SIZES["add"]
    out = torch.full_like(d["x"], float("nan"))
    res["add"] = median_time(lambda: va.add_kernel[((n + 1023) // 1024,)](d["x"], d["y"], out, n, BLOCK=1024), reps)
    outs["add"] = out
    R, Cn = SIZES["softmax"]
    out = torch.full_like(d["sm_in"], float("nan"))
    res["softmax"] = median_time(lambda: sm.softmax_row_kernel[(R,)](out, d["sm_in"], Cn, Cn, Cn, BLOCK_SIZE=1024),
                                 reps)
    outs["softmax"] = out
    M, N = SIZES["layer_norm"]
    y = torch.full_like(d["ln_x"], float("nan"))
    mean, rstd = torch.empty(M), torch.empty(M)
    res["layer_norm"] = median_time(lambda: ln.layer_norm_fwd_kernel[(M,)](d["ln_x"], y, d["ln_w"], d["ln_b"], mean,
                                                                           rstd, N, N, 1e-5, BLOCK_N=1024), reps)
    outs["layer_norm"] = y
    return res, outs


def reference(torch):
    d = make_data(torch)
    x = d["ln_x"].double()
    mu = x.mean(1, keepdim=True)
    var = ((x - mu) ** 2).mean(1, keepdim=True)
    return {"add": d["x"].double() + d["y"].double(),
            "softmax": torch.softmax(d["sm_in"].double(), 1),
            "layer_norm": (x - mu) / torch.sqrt(var + 1e-5) * d["ln_w"].double() + d["ln_b"].double()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(ROOT, "build", "libtritonc.so"))
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--interp-reps", type=int, default=3)
    ap.add_argument("--ours-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-interpreter", action="store_true",
                    help="skip Triton's interpreter (where Triton is not installed)")
    a = ap.parse_args()
    import torch
    torch.set_num_threads(1)
    os.environ.setdefault("TRITONC_CACHE_DIR", tempfile.mkdtemp(prefix="tritonc-cache-"))
    if a.ours_only:
        res, _ = ours(torch, a.lib, a.reps)
        print(json.dumps(res))
        return
    so = os.path.join(tempfile.mkdtemp(), "loops.so")
    cc = os.environ.get("CC", "cc")
    subprocess.check_call([cc, "-O3", "-march=native", "-shared", "-fPIC", "-o", so,
                           os.path.join(ROOT, "bench", "cpu", "loops.c")])
    t_ours, o_ours = ours(torch, a.lib, a.reps)
    env = dict(os.environ, TRITONC_NUM_THREADS="1")
    one = subprocess.run([sys.executable, os.path.abspath(__file__), "--lib", a.lib, "--reps", str(a.reps),
                          "--ours-only"], env=env, capture_output=True, text=True, check=True)
    t_one = json.loads(one.stdout.strip().splitlines()[-1])
    t_loop, o_loop = loops(torch, so, a.reps)
    if a.no_interpreter:
        t_int = {k: float("nan") for k in ("add", "softmax", "layer_norm")}
        o_int = {k: torch.full((1,), float("nan")) for k in t_int}
    else:
        t_int, o_int = interpreter(torch, a.interp_reps)
    ref = reference(torch)

    def err(o, name):
        r = ref[name]
        if o.numel() != r.numel():  # not run (--no-interpreter)
            return float("nan")
        o = o.double().reshape(r.shape)
        if torch.isnan(o).any():
            return float("nan")
        return ((o - r).abs().max() / r.abs().max()).item()

    cores = os.cpu_count()
    print("\n| kernel | size | tritonc CPU, %d threads | tritonc CPU, 1 thread | C loops -O3, 1 thread "
          "| Triton interpreter | ours / loops (%d thr; 1 thr) | ours / interpreter (%d thr; 1 thr) "
          "| max rel. error ours / loops / interp. |" % (cores, cores, cores))
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    sizes = {"add": "2^20 fp32", "softmax": "1024 x 1024 fp32", "layer_norm": "1024 x 1024 fp16"}
    for name in ("add", "softmax", "layer_norm"):
        gb = lambda t: BYTES[name] / t / 1e9  # noqa: E731
        print("| %s | %s | %.2f GB/s (%.3f ms) | %.2f GB/s (%.3f ms) | %.2f GB/s (%.3f ms) | %.4f GB/s (%.1f ms) "
              "| %.2f; %.2f | %.0fx; %.0fx | %.1e / %.1e / %.1e |"
              % (name, sizes[name], gb(t_ours[name]), t_ours[name] * 1e3, gb(t_one[name]), t_one[name] * 1e3,
                 gb(t_loop[name]), t_loop[name] * 1e3, gb(t_int[name]), t_int[name] * 1e3,
                 t_loop[name] / t_ours[name], t_loop[name] / t_one[name],
                 t_int[name] / t_ours[name], t_int[name] / t_one[name],
                 err(o_ours[name], name), err(o_loop[name], name), err(o_int[name], name)))
    print("\nmedians of %d runs (ours, loops) and %d runs (interpreter), 1 warm-up each; torch threads: 1"
          % (a.reps, a.interp_reps))


if __name__ == "__main__":
    main()
