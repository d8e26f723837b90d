#!/usr/bin/env python3
"""tritonc's GPU backend against Triton 3.6 on the same kernels.

Builds the library and a ctypes shim (bench/gpu/tcshim.c), compiles the
anchor kernels (shared/anchors/triton_baseline.py) with tritonc (their tt IR
is built by tests/unit/ptx_kernels.h until the front end lands) and with
Triton from the same source, checks tritonc's outputs against torch and
Triton on fresh random inputs (outputs poisoned with NaN first, several
sizes, ragged ones included), then times both with
triton.testing.do_bench (median). Prints a markdown table.

    python3 bench/gpu/vs_triton.py [--no-build] [--out FILE]
"""
import argparse, ctypes, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build():
    subprocess.run(["make", "-j16", "build/libtritonc.a", "build/libtritonc.so"], cwd=ROOT, check=False,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["make", "-j16", "build/libtritonc.a"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-std=c11", "-D_GNU_SOURCE", "-Isrc", "-Itests/unit",
                    "bench/gpu/tcshim.c", "build/libtritonc.a", "-o", "build/tcshim.so", "-lm", "-ldl", "-lpthread"],
                   cwd=ROOT, check=True)


class Tc:
    def __init__(self):
        self.lib = ctypes.CDLL(os.path.join(ROOT, "build/tcshim.so"))
        self.lib.tc_build.restype = ctypes.c_void_p
        self.lib.tc_build.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
        self.lib.tc_load_cached.restype = ctypes.c_void_p
        self.lib.tc_load_cached.argtypes = [ctypes.c_char_p]
        self.lib.tc_launch.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                       ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
        self.lib.tc_last_error.restype = ctypes.c_char_p
        self.lib.tc_ptx.restype = ctypes.c_char_p
        self.lib.tc_ptx.argtypes = [ctypes.c_void_p]
        self.lib.tc_key.restype = ctypes.c_char_p
        self.lib.tc_key.argtypes = [ctypes.c_void_p]

    def build(self, name, block, nw, aligned=True, no_cache=False):
        t = (ctypes.c_double * 3)()
        k = self.lib.tc_build(name.encode(), block, nw, 0, int(aligned), int(no_cache), t)
        if not k:
            raise RuntimeError(self.lib.tc_last_error().decode())
        return Kernel(self, k), list(t)


class Kernel:
    def __init__(self, tc, h):
        self.tc, self.h = tc, h

    def __call__(self, grid, *args):
        import torch
        vals = []
        for a in args:
            if isinstance(a, torch.Tensor):
                vals.append(ctypes.c_uint64(a.data_ptr()))
            elif isinstance(a, float):
                vals.append(ctypes.c_float(a))
            else:
                vals.append(ctypes.c_int32(a))
        arr = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
        stream = torch.cuda.current_stream().cuda_stream
        if self.tc.lib.tc_launch(self.h, grid, 1, 1, arr, ctypes.c_void_p(stream)) != 0:
            raise RuntimeError(self.tc.lib.tc_last_error().decode())

    def ptx(self):
        return self.tc.lib.tc_ptx(self.h).decode()

    def key(self):
        return self.tc.lib.tc_key(self.h).decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    args = ap.parse_args()
    os.environ.setdefault("TRITONC_CACHE_DIR", tempfile.mkdtemp(prefix="tc_cache_"))
    if not args.no_build:
        build()
    import torch, triton, triton.language as tl
    sys.path.insert(0, os.path.join(ROOT, "shared", "anchors"))

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        y = tl.load(y_ptr + offs, mask=m)
        tl.store(out_ptr + offs, x + y, mask=m)

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=m, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, num / den, mask=m)

    @triton.jit
    def layernorm_kernel(X, Y, W, B, stride, N, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        X += row * stride
        Y += row * stride
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for off in range(0, N, BLOCK):
            cols = off + tl.arange(0, BLOCK)
            a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
            acc += a
        mean = tl.sum(acc, axis=0) / N
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for off in range(0, N, BLOCK):
            cols = off + tl.arange(0, BLOCK)
            a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
            a = tl.where(cols < N, a - mean, 0.)
            acc += a * a
        rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
        for off in range(0, N, BLOCK):
            cols = off + tl.arange(0, BLOCK)
            mk = cols < N
            w = tl.load(W + cols, mask=mk)
            b = tl.load(B + cols, mask=mk)
            a = tl.load(X + cols, mask=mk, other=0.).to(tl.float32)
            y = (a - mean) * rstd * w + b
            tl.store(Y + cols, y, mask=mk)

    dev = "cuda"
    tc = Tc()
    do_bench = triton.testing.do_bench
    rows, checks, notes = [], [], []
    cdiv = triton.cdiv

    def check(name, got, ref, atol, rtol):
        ok = bool(torch.isfinite(got).all()) and torch.allclose(got.float(), ref.float(), atol=atol, rtol=rtol)
        err = (got.double() - ref.double()).norm().item() / max(ref.double().norm().item(), 1e-30)
        checks.append((name, ok, err))
        print(f"check {name:40s} {'ok' if ok else 'FAIL'} rel.err {err:.2e}", flush=True)
        return ok

    # ---- vector add ------------------------------------------------------
    tk, t_add = tc.build("add", 1024, 4)
    tk_r, _ = tc.build("add", 1024, 4, aligned=False)
    for n, k in [(1 << 26, tk), (1 << 20, tk), (1000003, tk_r), (17, tk_r)]:
        x = torch.randn(n, device=dev); y = torch.randn(n, device=dev)
        o = torch.full_like(x, float("nan"))
        k(cdiv(n, 1024), x, y, o, n)
        torch.cuda.synchronize()
        check(f"add n={n}", o, x + y, 0, 0)
    n = 1 << 26
    x = torch.randn(n, device=dev); y = torch.randn(n, device=dev); o = torch.empty_like(x)
    ms_tc = do_bench(lambda: tk(cdiv(n, 1024), x, y, o, n), warmup=100, rep=500, return_mode="median")
    add_kernel[(cdiv(n, 1024),)](x, y, o, n, BLOCK=1024)
    ms_tr = do_bench(lambda: add_kernel[(cdiv(n, 1024),)](x, y, o, n, BLOCK=1024), warmup=100, rep=500, return_mode="median")
    rows.append(("vector add 2^26 fp32", ms_tc, ms_tr, 3 * n * 4, t_add))

    # ---- softmax -----------------------------------------------------------
    sk, t_sm = tc.build("softmax", 4096, 8)
    sk_r, _ = tc.build("softmax", 1024, 4, aligned=False)
    for (M, N, k, blk) in [(4096, 4096, sk, 4096), (1823, 781, sk_r, 1024), (7, 1000, sk_r, 1024)]:
        s = torch.randn(M, N, device=dev) * 3
        so = torch.full_like(s, float("nan"))
        k(M, so, s, s.stride(0), so.stride(0), N)
        torch.cuda.synchronize()
        check(f"softmax {M}x{N} BLOCK={blk}", so, torch.softmax(s.double(), 1), 1e-6, 1e-4)
    M, N = 4096, 4096
    s = torch.randn(M, N, device=dev); so = torch.empty_like(s)
    ms_tc = do_bench(lambda: sk(M, so, s, s.stride(0), so.stride(0), N), warmup=100, rep=500, return_mode="median")
    softmax_kernel[(M,)](so, s, s.stride(0), so.stride(0), N, BLOCK=4096, num_warps=8)
    tr_so = so.clone()
    ms_tr = do_bench(lambda: softmax_kernel[(M,)](so, s, s.stride(0), so.stride(0), N, BLOCK=4096, num_warps=8),
                     warmup=100, rep=500, return_mode="median")
    sk(M, so, s, s.stride(0), so.stride(0), N)
    torch.cuda.synchronize()
    check("softmax 4096x4096 vs Triton", so, tr_so, 1e-6, 1e-4)
    rows.append(("fused softmax 4096x4096 fp32", ms_tc, ms_tr, 2 * M * N * 4, t_sm))

    # ---- layer norm --------------------------------------------------------
    lk, t_ln = tc.build("layernorm", 1024, 8)
    lk_r, _ = tc.build("layernorm", 1024, 8, aligned=False)
    for (M, N, k) in [(4096, 8192, lk), (64, 1024, lk), (1000, 3000, lk_r), (5, 100, lk_r)]:
        lx = torch.randn(M, N, device=dev, dtype=torch.float16)
        ly = torch.full_like(lx, float("nan"))
        lw = torch.rand(N, device=dev, dtype=torch.float16); lb = torch.rand(N, device=dev, dtype=torch.float16)
        k(M, lx, ly, lw, lb, lx.stride(0), N, 1e-5)
        torch.cuda.synchronize()
        ref = torch.nn.functional.layer_norm(lx.float(), (N,), lw.float(), lb.float(), 1e-5)
        check(f"layernorm {M}x{N}", ly, ref, 1e-2, 0)
    M, N = 4096, 8192
    lx = torch.randn(M, N, device=dev, dtype=torch.float16); ly = torch.empty_like(lx)
    lw = torch.rand(N, device=dev, dtype=torch.float16); lb = torch.rand(N, device=dev, dtype=torch.float16)
    ms_tc = do_bench(lambda: lk(M, lx, ly, lw, lb, lx.stride(0), N, 1e-5), warmup=100, rep=500, return_mode="median")
    layernorm_kernel[(M,)](lx, ly, lw, lb, lx.stride(0), N, 1e-5, BLOCK=1024, num_warps=8)
    tr_ly = ly.clone()
    ms_tr = do_bench(lambda: layernorm_kernel[(M,)](lx, ly, lw, lb, lx.stride(0), N, 1e-5, BLOCK=1024, num_warps=8),
                     warmup=100, rep=500, return_mode="median")
    lk(M, lx, ly, lw, lb, lx.stride(0), N, 1e-5)
    torch.cuda.synchronize()
    check("layernorm 4096x8192 vs Triton", ly, tr_ly, 1e-2, 0)
    rows.append(("layer norm fwd 4096x8192 fp16", ms_tc, ms_tr, 2 * M * N * 2, t_ln))

    # ---- matmul (FMA) and atomics: correctness only ---------------------------
    try:
        mk_, t_mm = tc.build("matmul", 32, 4)
        mk_r, _ = tc.build("matmul", 32, 4, aligned=False)
        for (M, N, K, mk_) in [(256, 384, 128, mk_), (100, 72, 64, mk_r), (100, 70, 64, mk_r)]:
            a = torch.randn(M, K, device=dev, dtype=torch.float16); b = torch.randn(K, N, device=dev, dtype=torch.float16)
            c = torch.full((M, N), float("nan"), device=dev, dtype=torch.float16)
            mk_(cdiv(M, 32) * cdiv(N, 32), a, b, c, M, N, K)
            torch.cuda.synchronize()
            check(f"matmul FMA {M}x{N}x{K}", c, (a.float() @ b.float()), 5e-2, 1e-2)
        mk_ = tc.build("matmul", 32, 4)[0]
        M = N = K = 1024
        a = torch.randn(M, K, device=dev, dtype=torch.float16); b = torch.randn(K, N, device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        ms = do_bench(lambda: mk_(cdiv(M, 32) * cdiv(N, 32), a, b, c, M, N, K), warmup=20, rep=200, return_mode="median")
        notes.append(f"matmul FMA 1024^3 fp16 (32x32x16 tiles, 4 warps): {ms:.3f} ms, {2 * M * N * K / ms / 1e9:.1f} TFLOP/s")
    except Exception as e:  # keep going: the table matters most
        notes.append(f"matmul: {e}")
    try:
        ak, _ = tc.build("atomic_sum", 256, 4)
        n = 1 << 20
        x = torch.randn(n, device=dev)
        out = torch.zeros(1, device=dev)
        ak(cdiv(n, 256), x, out, n)
        torch.cuda.synchronize()
        check("atomic_sum 2^20", out, x.sum().reshape(1), 1e-2, 1e-4)
    except Exception as e:
        notes.append(f"atomic_sum: {e}")

    # ---- compile times, warm cache in a new process -------------------------
    warm = {}
    for name, kern in [("add", tk), ("softmax", sk), ("layernorm", lk)]:
        code = ("import ctypes,time,sys; l=ctypes.CDLL(sys.argv[1]); l.tc_load_cached.restype=ctypes.c_void_p;"
                "l.tc_load_cached.argtypes=[ctypes.c_char_p]; l.tc_build  # resolve\n"
                "import ctypes as c\n"
                "cu=c.CDLL('libcuda.so.1'); cu.cuInit(0)\n"
                "t0=time.perf_counter(); k=l.tc_load_cached(sys.argv[2].encode()); t1=time.perf_counter()\n"
                "t2=time.perf_counter(); k2=l.tc_load_cached(sys.argv[2].encode()); t3=time.perf_counter()\n"
                "print(bool(k), (t1-t0)*1e3, (t3-t2)*1e3)")
        r = subprocess.run([sys.executable, "-c", code, os.path.join(ROOT, "build/tcshim.so"), kern.key()],
                           capture_output=True, text=True, env=dict(os.environ))
        warm[name] = r.stdout.strip() or r.stderr.strip()[-300:]
    ptx_lines = {n: k.ptx().count("\n") for n, k in [("add", tk), ("softmax", sk), ("layernorm", lk)]}
    ptxas_ms = {}
    for n, k in [("add", tk), ("softmax", sk), ("layernorm", lk)]:
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "k.ptx")
            open(p, "w").write(k.ptx())
            for cand in ["/usr/local/cuda/bin/ptxas", os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas")]:
                if os.path.exists(cand):
                    t0 = time.perf_counter()
                    subprocess.run([cand, "-arch=sm_90a", p, "-o", os.path.join(d, "k.cubin")], check=True)
                    ptxas_ms[n] = (time.perf_counter() - t0) * 1e3
                    break
        open(os.path.join(args.out, f"tritonc_{n}.ptx"), "w").write(k.ptx())

    # ---- table -----------------------------------------------------------
    lines = []
    lines.append(f"device: {torch.cuda.get_device_name()}, triton {triton.__version__}, torch {torch.__version__}")
    lines.append("")
    lines.append("| kernel | tritonc ms | Triton ms | ratio tc/Triton | tritonc GB/s | Triton GB/s | IR->PTX ms | ptxas ms | PTX lines |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (name, a, b, nbytes, t), short in zip(rows, ["add", "softmax", "layernorm"]):
        lines.append(f"| {name} | {a:.4f} | {b:.4f} | {a / b:.3f} | {nbytes / a / 1e6:.0f} | {nbytes / b / 1e6:.0f} | "
                     f"{t[0]:.3f} | {ptxas_ms.get(short, 0):.1f} | {ptx_lines[short]} |")
    lines.append("")
    lines.append("| check | result | rel. error |")
    lines.append("| --- | --- | --- |")
    for name, ok, err in checks:
        lines.append(f"| {name} | {'ok' if ok else 'FAIL'} | {err:.2e} |")
    lines.append("")
    lines.append("warm disk cache, new process (loaded, first ms, second ms): " + json.dumps(warm))
    for n in notes:
        lines.append(n)
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.out, "vs_triton.md"), "w") as f:
        f.write(text + "\n")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
