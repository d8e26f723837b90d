#!/usr/bin/env python3
"""tritonc against Triton 3.6 on the whole kernel corpus, from the same source.

Every kernel of tests/kernels/*.py is compiled twice from its .py file: by
Triton (the file imported as it is) and by tritonc through its Python
binding (`python/tritonc`, the file imported with `import triton` read as
`import tritonc as triton`; the binding hands the source to libtritonc's
front end and launches on the torch tensors). For each case and each of its
sizes (ragged ones included), both run on identical fresh random inputs
whose outputs were poisoned first (NaN, or a sentinel for integers); every
buffer is then compared between the two, and with torch where a torch
reference exists. Then both are timed (triton.testing.do_bench, median; in
ABBA order, or alternating which goes first, so that neither gains from the
order),
and the compile and launch paths are measured:

  * cold first call: the first launch of each case with empty caches
    (TRITON_CACHE_DIR and TRITONC_CACHE_DIR are fresh folders);
  * warm disk cache: in a new process that has initialised CUDA through
    torch (as shared/anchors/triton_baseline.py measures Triton), the first
    launch of the three benchmark kernels;
  * host launch overhead: 2000 back-to-back launches of a 1-program add;
  * source -> PTX: build/compile_time (bench/gpu/compile_time.c), in process,
    every specialisation of the corpus headers.

    python3 bench/gpu/vs_triton.py [--out DIR] [--quick] [--only NAME,...]

Prints markdown tables; writes vs_triton.json and vs_triton.md under --out.
"""
import argparse, importlib.util, json, os, re, subprocess, sys, tempfile, time, traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KDIR = os.path.join(ROOT, "tests", "kernels")


def build():
    subprocess.run(["make", "-j16", "all", "CFLAGS=-Wno-error"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


# ---- loading the corpus twice --------------------------------------------------

def load_triton_module(name):
    spec = importlib.util.spec_from_file_location("tk_" + name, os.path.join(KDIR, name + ".py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def load_tritonc_module(name, tmpdir):
    src = open(os.path.join(KDIR, name + ".py")).read()
    src = re.sub(r"^import triton\.language as tl$", "import tritonc.language as tl", src, flags=re.M)
    src = re.sub(r"^import triton$", "import tritonc as triton", src, flags=re.M)
    src = re.sub(r"^from triton\.", "from tritonc.", src, flags=re.M)
    path = os.path.join(tmpdir, name + ".py")
    with open(path, "w") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("tc_" + name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


# ---- cases --------------------------------------------------------------------------
# A case builds fresh inputs from a seed: make(size, seed) -> Run, where Run has
# args (positional, tensors and scalars), kw (constexprs and launch options),
# grid, outs (names of buffers to compare, {name: tensor}), and optionally ref
# (torch reference {name: tensor}), tol {name: (atol, rtol)}, unordered (names
# compared as sorted multisets).

class Run:
    def __init__(self, args, kw, grid, outs, ref=None, tol=None, unordered=(), keep=None):
        self.args, self.kw, self.grid, self.outs = args, kw, grid, outs
        self.ref, self.tol, self.unordered, self.keep = ref or {}, tol or {}, set(unordered), keep


def cdiv(a, b):
    return (a + b - 1) // b


def T():
    import torch
    return torch


def gen(seed):
    return T().Generator(device="cuda").manual_seed(seed)


def randn(n, g, dtype=None, scale=1.0):
    torch = T()
    x = torch.randn(n, device="cuda", generator=g) * scale
    return x.to(dtype) if dtype is not None else x


def poison(shape, dtype):
    torch = T()
    if dtype.is_floating_point:
        if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            return torch.full(shape if isinstance(shape, tuple) else (shape,), 0x7F, dtype=torch.uint8, device="cuda").view(dtype)
        return torch.full(shape if isinstance(shape, tuple) else (shape,), float("nan"), dtype=dtype, device="cuda")
    if dtype == torch.uint32:
        return torch.full(shape if isinstance(shape, tuple) else (shape,), 0x5A5A5A5A, dtype=torch.int32, device="cuda").view(torch.uint32)
    return torch.full(shape if isinstance(shape, tuple) else (shape,), 0x5A, dtype=dtype, device="cuda")


def c_vector_add(size, seed, dtype="fp32"):
    torch = T()
    g = gen(seed)
    n = size
    dt = torch.float32 if dtype == "fp32" else torch.float16
    x, y = randn(n, g, dt), randn(n, g, dt)
    o = poison(n, dt)
    blk = 1024 if dtype == "fp32" else 2048
    return Run([x, y, o, n], dict(BLOCK=blk), (cdiv(n, blk),), {"out": o}, ref={"out": x + y})


def c_axpy(size, seed):
    g = gen(seed)
    n = size
    x, y = randn(n, g), randn(n, g)
    o = poison(n, x.dtype)
    return Run([x, y, o, 1.7, n], dict(BLOCK=512), (cdiv(n, 512),), {"out": o}, ref={"out": 1.7 * x + y})


def c_histogram(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = torch.randint(-1000, 1000, (n,), device="cuda", generator=g, dtype=torch.int32)
    h = torch.zeros(64, dtype=torch.int32, device="cuda")
    ref = torch.bincount(((x.long() % 64) + 64) % 64, minlength=64).to(torch.int32)
    return Run([x, h, n], dict(NUM_BINS=64, BLOCK=1024), (cdiv(n, 1024),), {"hist": h}, ref={"hist": ref})


def c_atomic_minmax(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = randn(n, g, scale=100.0)
    imax = torch.full((32,), -(1 << 30), dtype=torch.int32, device="cuda")
    fmax = torch.full((1,), float("-inf"), device="cuda")
    fmin = torch.full((1,), float("inf"), device="cuda")
    return Run([x, imax, fmax, fmin, n], dict(BLOCK=512), (cdiv(n, 512),), {"imax": imax, "fmax": fmax, "fmin": fmin},
               ref={"fmax": x.max().reshape(1), "fmin": x.min().reshape(1)})


def c_spin_lock(size, seed):
    torch = T()
    g = gen(seed)
    rows, N = size
    x = randn(rows * N, g)
    acc = torch.zeros(N, device="cuda")
    lock = torch.zeros(1, dtype=torch.int32, device="cuda")
    cnt = torch.zeros(1, dtype=torch.int32, device="cuda")
    return Run([x, acc, lock, cnt, N], dict(BLOCK=256), (rows,), {"acc": acc, "count": cnt, "lock": lock},
               ref={"acc": x.view(rows, N).sum(0), "count": torch.tensor([rows], dtype=torch.int32, device="cuda")},
               tol={"acc": (1e-5, 1e-5)})


def c_attn(size, seed, bm, causal):
    torch = T()
    g = gen(seed)
    BH, n_ctx = size
    q, k, v = (randn(BH * n_ctx * 64, g, torch.float16).view(BH, n_ctx, 64) for _ in range(3))
    o = poison((BH, n_ctx, 64), torch.float16)
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal, scale=0.125)
    return Run([q, k, v, o, 0.125, n_ctx * 64, 64, n_ctx], dict(HEAD_DIM=64, BLOCK_M=bm, BLOCK_N=64, CAUSAL=causal),
               (cdiv(n_ctx, bm), BH), {"out": o}, ref={"out": ref.half()}, tol={"out": (2e-2, 2e-2)})


def c_cast(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = torch.rand(n, device="cuda", generator=g) * 100.0
    outs = dict(f16=poison(n, torch.float16), bf16=poison(n, torch.bfloat16), i32=poison(n, torch.int32),
                bits=poison(n, torch.uint32), i8=poison(n, torch.int8), f64=poison(n, torch.float64),
                back=poison(n, torch.float32))
    return Run([x] + list(outs.values()) + [n], dict(BLOCK=256), (cdiv(n, 256),), outs,
               ref={"f16": x.half(), "bf16": x.bfloat16(), "i32": x.int(), "f64": x.double() * 3.0})


def c_fp8(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = randn(n, g, torch.float16, scale=8.0)
    outs = dict(e4m3=poison(n, torch.float8_e4m3fn), e5m2=poison(n, torch.float8_e5m2),
                e4m3_bits=poison(n, torch.uint8), out=poison(n, torch.float16))
    return Run([x] + list(outs.values()) + [n], dict(BLOCK=512), (cdiv(n, 512),), outs,
               ref={"e4m3": x.to(torch.float8_e4m3fn), "e5m2": x.to(torch.float8_e5m2)})


def c_newton(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = torch.rand(n, device="cuda", generator=g) * 100.0
    y = poison(n, torch.float32)
    it = poison(cdiv(n, 256), torch.int32)
    return Run([x, y, it, n, 1e-4], dict(MAX_ITERS=32, BLOCK=256), (cdiv(n, 256),), {"y": y, "iters": it},
               ref={"y": torch.sqrt(torch.clamp(x, min=1e-6))}, tol={"y": (1e-3, 1e-4)})


def c_poly(size, seed):
    torch = T()
    g = gen(seed)
    n, mode = size
    x = randn(n, g)
    coef = randn(5, g)
    o = poison(n, torch.float32)
    return Run([x, coef, o, n, mode], dict(DEGREE=4, BLOCK=128), (cdiv(n, 128),), {"out": o}, tol={"out": (1e-4, 1e-5)})


def c_grouped(size, seed):
    torch = T()
    g = gen(seed)
    shapes = size
    As, Bs, Cs = [], [], []
    for (m, n, k) in shapes:
        As.append(randn(m * k, g, torch.float16).view(m, k))
        Bs.append(randn(k * n, g, torch.float16).view(k, n))
        Cs.append(poison((m, n), torch.float16))
    dev = "cuda"
    a_addrs = torch.tensor([a.data_ptr() for a in As], dtype=torch.int64, device=dev)
    b_addrs = torch.tensor([b.data_ptr() for b in Bs], dtype=torch.int64, device=dev)
    c_addrs = torch.tensor([c.data_ptr() for c in Cs], dtype=torch.int64, device=dev)
    sizes = torch.tensor([v for s in shapes for v in s], dtype=torch.int32, device=dev)
    lds = torch.tensor([v for (m, n, k) in shapes for v in (k, n, n)], dtype=torch.int32, device=dev)
    outs = {f"c{i}": c for i, c in enumerate(Cs)}
    ref = {f"c{i}": (As[i].float() @ Bs[i].float()).half() for i in range(len(shapes))}
    return Run([a_addrs, b_addrs, c_addrs, sizes, lds, len(shapes)], dict(NUM_SM=132, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32),
               (132,), outs, ref=ref, tol={k: (5e-2, 1e-2) for k in outs}, keep=(As, Bs))


def c_divmod(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    a = torch.randint(-100000, 100000, (n,), device="cuda", generator=g, dtype=torch.int32)
    b = torch.randint(1, 60, (n,), device="cuda", generator=g, dtype=torch.int32)
    b = torch.where(torch.rand(n, device="cuda", generator=g) < 0.5, -b, b)
    outs = dict(q=poison(n, torch.int32), r=poison(n, torch.int32), q64=poison(n, torch.int64), uq=poison(n, torch.uint32))
    return Run([a, b] + list(outs.values()) + [n], dict(BLOCK=256), (cdiv(n, 256),), outs,
               ref={"q": torch.div(a, b, rounding_mode="trunc"), "r": torch.fmod(a, b)})


def c_bitops(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    a = torch.randint(-(1 << 31), (1 << 31) - 1, (n,), device="cuda", generator=g, dtype=torch.int32).view(torch.uint32)
    b = torch.randint(-(1 << 31), (1 << 31) - 1, (n,), device="cuda", generator=g, dtype=torch.int32).view(torch.uint32)
    outs = dict(hi=poison(n, torch.uint32), mix=poison(n, torch.uint32), xs=poison(cdiv(n, 128), torch.uint32),
                signed=poison(n, torch.int32))
    return Run([a, b] + list(outs.values()) + [n], dict(BLOCK=128), (cdiv(n, 128),), outs)


def c_ln_fwd(size, seed, block=1024, warps=None):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * N, g, torch.float16).view(M, N)
    w = torch.rand(N, device="cuda", generator=g).half()
    b = torch.rand(N, device="cuda", generator=g).half()
    y = poison((M, N), torch.float16)
    mean, rstd = poison(M, torch.float32), poison(M, torch.float32)
    kw = dict(BLOCK_N=block)
    if warps:
        kw["num_warps"] = warps
    ref = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5).half()
    return Run([x, y, w, b, mean, rstd, N, N, 1e-5], kw, (M,), {"y": y, "mean": mean, "rstd": rstd},
               ref={"y": ref, "mean": x.float().mean(1)}, tol={"y": (1e-2, 1e-2), "mean": (1e-4, 1e-4), "rstd": (1e-4, 1e-4)})


def c_ln_bwd(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * N, g, torch.float16).view(M, N)
    dy = randn(M * N, g, torch.float16).view(M, N)
    w = torch.rand(N, device="cuda", generator=g).half()
    mean = x.float().mean(1)
    rstd = 1.0 / torch.sqrt(x.float().var(1, unbiased=False) + 1e-5)
    dx = poison((M, N), torch.float16)
    dw = torch.zeros(N, device="cuda")
    db = torch.zeros(N, device="cuda")
    return Run([dx, dy, x, w, mean, rstd, dw, db, N, N], dict(BLOCK_N=1024), (M,), {"dx": dx, "dw": dw, "db": db},
               ref={"db": dy.float().sum(0)}, tol={"dx": (1e-2, 1e-2), "dw": (1e-3, 1e-4), "db": (1e-3, 1e-4)})


def c_math(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x, y = randn(n, g), randn(n, g)
    o = poison(n, torch.float32)
    return Run([x, y, o, n, -0.5, 0.5], dict(BLOCK=256), (cdiv(n, 256),), {"out": o}, tol={"out": (1e-3, 1e-4)})


def c_gelu(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = randn(n, g, torch.float16, scale=2.0)
    o = poison(n, torch.float16)
    ref = torch.nn.functional.gelu(x.float(), approximate="tanh").half()
    return Run([x, o, n], dict(BLOCK=1024), (cdiv(n, 1024),), {"out": o}, ref={"out": ref}, tol={"out": (4e-3, 4e-3)})


def c_matmul(size, seed, fp16, blocks=None, stages=None):
    """blocks: (BLOCK_M, BLOCK_N, BLOCK_K) for fp16 (default 128x128x64, the
    corpus header's); stages: num_stages (default: the compilers' own, 3)"""
    torch = T()
    g = gen(seed)
    M, N, K = size
    dt = torch.float16 if fp16 else torch.float32
    a = randn(M * K, g, dt).view(M, K)
    b = randn(K * N, g, dt).view(K, N)
    c = poison((M, N), dt)
    if fp16:
        bm, bn, bk = blocks or (128, 128, 64)
        kw = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, ACTIVATION="leaky_relu")
        grid = (cdiv(M, bm) * cdiv(N, bn),)
        r = a.float() @ b.float()
        ref = torch.where(r >= 0, r, 0.01 * r).half()
    else:
        kw = dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=4, ACTIVATION="")
        grid = (cdiv(M, 64) * cdiv(N, 64),)
        ref = a.double() @ b.double()
    # fp32 dots round their operands to tf32 (Triton's default precision,
    # 10-bit mantissa): each product is off by ~2^-10 of its size, and K of
    # them add up like a random walk; 6 sigma over the output's elements
    atol = 5e-2 if fp16 else 6 * 2.0 ** -10 * K ** 0.5
    if stages is not None:
        kw["num_stages"] = stages
    return Run([a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)], kw, grid,
               {"c": c}, ref={"c": ref}, tol={"c": (atol, 2e-2)})


def c_matmul_persistent(size, seed, blocks=(128, 128, 64), stages=3, device_desc=False):
    """matmul_variants.py's persistent matmuls (the persistent-matmul
    tutorial's): fp16 `matmul_persistent` through pointers, or bf16
    `matmul_device_descriptor` through descriptors made in the kernel (the
    caller sets an allocator); one program per SM"""
    torch = T()
    g = gen(seed)
    M, N, K = size
    bm, bn, bk = blocks
    dt = torch.bfloat16 if device_desc else torch.float16
    a = randn(M * K, g, dt).view(M, K)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    grid = (min(sms, cdiv(M, bm) * cdiv(N, bn)),)
    kw = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, NUM_SMS=sms, num_stages=stages)
    c = poison((M, N), dt)
    if device_desc:
        b = randn(N * K, g, dt).view(N, K)  # [N, K]: the kernel reads b transposed
        ref = (a.float() @ b.float().T).to(dt)
        kw["EPILOGUE_SUBTILE"] = False
        args = [a, b, c, M, N, K]
    else:
        b = randn(K * N, g, dt).view(K, N)
        ref = (a.float() @ b.float()).to(dt)
        args = [a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    return Run(args, kw, grid, {"c": c}, ref={"c": ref}, tol={"c": (5e-2, 2e-2)})


def c_loadmod(size, seed):
    torch = T()
    g = gen(seed)
    n, flag = size
    s = randn(n, g)
    d = poison(n, torch.float32)
    f = torch.tensor([flag], dtype=torch.int32, device="cuda")
    ref = (s + s if flag > 0 else s - s) + 0.5
    return Run([s, d, f, n], dict(), (cdiv(n, 128),), {"dst": d}, ref={"dst": ref})


def c_block_ptr(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    a = randn(M * N, g, torch.float16).view(M, N)
    o = poison((M, 64), torch.float32)
    return Run([a, o, M, N, a.stride(0), a.stride(1), o.stride(0), o.stride(1)], dict(BLOCK_M=64, BLOCK_N=64),
               (cdiv(M, 64),), {"out": o}, tol={"out": (1e-3, 1e-4)})


def c_reduce2d(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * 64, g).view(M, 64)
    outs = dict(row_sum=poison(32, torch.float32), col_max=poison(64, torch.float32), row_min=poison(32, torch.float32),
                total=poison(1, torch.float32))
    xv = x[:, :N]
    return Run([x] + list(outs.values()) + [M, N, 64], dict(BLOCK_M=32, BLOCK_N=64), (1,), outs,
               ref={"total": xv.sum().reshape(1)}, tol={k: (1e-4, 1e-5) for k in outs})


def c_argmax(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * 128, g).view(M, 128)
    grid = cdiv(M, 16)
    outs = dict(max_idx=poison(M, torch.int32), min_idx=poison(M, torch.int32), max_val=poison(M, torch.float32),
                col_idx=poison(grid * 128, torch.int32))
    return Run([x] + list(outs.values()) + [M, N, 128], dict(BLOCK_M=16, BLOCK_N=128), (grid,), outs,
               ref={"max_idx": x[:, :N].argmax(1).int(), "min_idx": x[:, :N].argmin(1).int()})


def c_welford(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * 256, g).view(M, 256)
    mean, var = poison(M, torch.float32), poison(M, torch.float32)
    return Run([x, mean, var, N, 256], dict(BLOCK_N=256), (M,), {"mean": mean, "var": var},
               ref={"mean": x[:, :N].mean(1), "var": x[:, :N].var(1, unbiased=False)}, tol={"mean": (1e-5, 1e-4), "var": (1e-5, 1e-4)})


def c_rms(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    ld = cdiv(N, 16) * 16
    x = randn(M * ld, g, torch.float16).view(M, ld)
    y = poison((M, ld), torch.float16)
    w = torch.rand(N, device="cuda", generator=g).half()
    xf = x[:, :N].float()
    ref = torch.zeros(M, ld, device="cuda", dtype=torch.float16)
    ref[:, :N] = (xf * torch.rsqrt((xf * xf).mean(1, keepdim=True) + 1e-6) * w.float()).half()
    return Run([x, y, w, ld, ld, N, 1e-6], dict(BLOCK_N=512), (M,), {"y": y}, tol={"y": (1e-2, 1e-2)})


def c_dropout(size, seed):
    torch = T()
    g = gen(seed)
    n = size
    x = randn(n, g)
    o = poison(n, torch.float32)
    return Run([x, o, n, 0.3, 1234], dict(BLOCK=1024), (cdiv(n, 1024),), {"out": o}, tol={"out": (1e-6, 1e-6)})


def c_randfill(size, seed):
    torch = T()
    n = size
    outs = dict(normal=poison(n, torch.float32), bits=poison(n, torch.uint32), dice=poison(n, torch.int32))
    return Run(list(outs.values()) + [n, 987654321987], dict(BLOCK=256), (cdiv(n, 256),), outs, tol={"normal": (1e-5, 1e-5)})


def c_scan(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(8 * 64, g).view(8, 64)
    outs = dict(csum=poison((8, 64), torch.float32), rev=poison((8, 64), torch.float32), cprod=poison((8, 64), torch.float32),
                count=poison((8, 64), torch.int32))
    xv = x[:M, :N]
    return Run([x] + list(outs.values()) + [M, N, 64], dict(BLOCK_M=8, BLOCK_N=64), (1,), outs,
               ref={}, tol={"csum": (1e-5, 1e-5), "rev": (1e-5, 1e-5), "cprod": (1e-5, 1e-4)},
               keep=dict(csum=torch.cumsum(xv, 1), M=M, N=N))


def c_linrec(size, seed):
    torch = T()
    g = gen(seed)
    rows, Tn = size
    a = torch.rand(rows * 512, device="cuda", generator=g) * 0.5 + 0.5
    b = randn(rows * 512, g)
    h = poison(rows * 512, torch.float32)
    return Run([a, b, h, Tn, 512], dict(BLOCK_T=512), (rows,), {"h": h}, tol={"h": (1e-4, 1e-4)})


# tests/kernels/scan_layouts.py: scans over the layouts a scan meets (lanes, warps and
# repetitions along the axis, copies of a small tile), reversed, two operands, dtypes.

def rev_cumsum(x, dim, rev):
    return x.flip(dim).cumsum(dim).flip(dim) if rev else x.cumsum(dim)


def linrec_ref(a, b, dim, rev):
    """h[t] = a[t] * h[t-1] + b[t] (h[t+1] when reversed), in float64 on the CPU."""
    torch = T()
    a, b = a.double().cpu().movedim(dim, -1), b.double().cpu().movedim(dim, -1)
    h = torch.zeros_like(a)
    prev = torch.zeros(a.shape[:-1], dtype=torch.float64)
    n = a.shape[-1]
    for t in (range(n - 1, -1, -1) if rev else range(n)):
        prev = a[..., t] * prev + b[..., t]
        h[..., t] = prev
    return h.movedim(-1, dim).float().cuda()


def scan_input(shape, g, dt):
    torch = T()
    if dt == "i32":
        return torch.randint(-1000, 1000, shape, device="cuda", generator=g, dtype=torch.int32)
    if dt == "fp16":  # quarters: every partial sum is exact in fp16
        return (torch.randint(-4, 5, shape, device="cuda", generator=g) / 4).half()
    return torch.randn(shape, device="cuda", generator=g)


def c_cumsum1d(size, seed, block, rev, dt="fp32", warps=None):
    torch = T()
    dtype = {"fp32": torch.float32, "i32": torch.int32, "fp16": torch.float16}[dt]
    x = scan_input((size,), gen(seed), dt)
    y = poison(size, dtype)
    ref = rev_cumsum(x.float() if dt == "fp16" else x, 0, rev).to(dtype)
    kw = dict(BLOCK=block, REVERSE=rev)
    if warps:
        kw["num_warps"] = warps
    return Run([x, y, size], kw, (1,), {"y": y}, ref={"y": ref}, tol={"y": (1e-3, 1e-4)} if dt == "fp32" else {})


def c_scan2d(size, seed, bm, bn, axis, rev, dt):
    torch = T()
    M, N = size
    dtype = {"fp32": torch.float32, "i32": torch.int32, "fp16": torch.float16}[dt]
    x = scan_input((M, N), gen(seed), dt)
    y = poison((M, N), dtype)
    ref = rev_cumsum(x.float() if dt == "fp16" else x, axis, rev).to(dtype)
    return Run([x, y, M, N], dict(BM=bm, BN=bn, AXIS=axis, REVERSE=rev), (1,), {"y": y}, ref={"y": ref},
               tol={"y": (1e-3, 1e-4)} if dt == "fp32" else {})


def c_linrec1d(size, seed, block, rev, warps=None):
    torch = T()
    g = gen(seed)
    rows, Tn = size
    a = torch.rand(rows, block, device="cuda", generator=g) * 0.5 + 0.5
    b = torch.randn(rows, block, device="cuda", generator=g)
    h = poison((rows, block), torch.float32)
    ref = h.clone()
    ref[:, :Tn] = linrec_ref(a[:, :Tn], b[:, :Tn], 1, rev)
    kw = dict(BLOCK_T=block, REVERSE=rev)
    if warps:
        kw["num_warps"] = warps
    return Run([a, b, h, Tn, block], kw, (rows,), {"h": h}, ref={"h": ref}, tol={"h": (1e-3, 1e-3)})


def c_linrec2d(size, seed, bm, bn, axis, rev):
    torch = T()
    g = gen(seed)
    M, N = size
    a = torch.rand(M, N, device="cuda", generator=g) * 0.5 + 0.5
    b = torch.randn(M, N, device="cuda", generator=g)
    h = poison((M, N), torch.float32)
    return Run([a, b, h, M, N], dict(BM=bm, BN=bn, AXIS=axis, REVERSE=rev), (1,), {"h": h},
               ref={"h": linrec_ref(a, b, axis, rev)}, tol={"h": (1e-3, 1e-3)})


def c_scan_dtypes(size, seed, block, rev):
    torch = T()
    g = gen(seed)
    n = size
    x8 = torch.randint(-128, 128, (n,), device="cuda", generator=g, dtype=torch.int8)
    x16 = torch.randint(-3, 4, (n,), device="cuda", generator=g, dtype=torch.int16)
    x64 = torch.randint(-(1 << 40), 1 << 40, (n,), device="cuda", generator=g, dtype=torch.int64)
    xd = torch.randn(n, device="cuda", generator=g, dtype=torch.float64)
    xb = torch.randn(n, device="cuda", generator=g).bfloat16()
    xp = torch.randn(n, device="cuda", generator=g)
    outs = dict(y8=poison(n, torch.int8), y16=poison(n, torch.int16), y64=poison(n, torch.int64),
                yd=poison(n, torch.float64), yb=poison(n, torch.bfloat16), yp=poison(n, torch.int32))

    def fwd(f, x):
        return f(x.flip(0)).flip(0) if rev else f(x)

    ref = dict(y8=fwd(lambda v: v.cummax(0).values, x8), y16=fwd(lambda v: v.cumsum(0), x16).to(torch.int16),
               y64=fwd(lambda v: v.cumsum(0), x64), yd=fwd(lambda v: v.cumsum(0), xd),
               yb=fwd(lambda v: v.cummax(0).values, xb), yp=(fwd(lambda v: v.cumsum(0), (xp > 0).int()) % 2).int())
    return Run([x8, outs["y8"], x16, outs["y16"], x64, outs["y64"], xd, outs["yd"], xb, outs["yb"], xp, outs["yp"], n],
               dict(BLOCK=block, REVERSE=rev), (1,), outs, ref=ref, tol={"yd": (1e-12, 1e-12)})


def c_shapes(size, seed):
    torch = T()
    g = gen(seed)
    x = randn(16 * 32, g)
    outs = dict(t=poison(512, torch.float32), r=poison(512, torch.float32), j=poison(1024, torch.float32),
                s=poison(512, torch.float32))
    xm = x.view(16, 32)
    s = xm + 2 * xm - xm.sum(1, keepdim=True)
    return Run([x] + list(outs.values()), dict(BLOCK_M=16, BLOCK_N=32), (1,), outs,
               ref={"t": xm.t().contiguous().view(-1), "j": torch.stack([xm, 2 * xm]).view(-1), "s": s.view(-1), "r": x},
               tol={"s": (1e-5, 1e-5)}, unordered=("r",))


def c_softmax(size, seed, block=1024, warps=None):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * N, g).view(M, N)
    y = poison((M, N), torch.float32)
    kw = dict(BLOCK_SIZE=block, NUM_STAGES=2)
    if warps:
        kw["num_warps"] = warps
    return Run([y, x, x.stride(0), y.stride(0), M, N], kw, (min(M, 132),), {"y": y}, ref={"y": torch.softmax(x, 1)},
               tol={"y": (1e-6, 1e-5)})


def c_softmax2d(size, seed):
    torch = T()
    g = gen(seed)
    M, N = size
    x = randn(M * N, g, torch.float16).view(M, N)
    y = poison((M, N), torch.float16)
    return Run([x, y, M, N, x.stride(0), x.stride(1), y.stride(0), y.stride(1)], dict(BLOCK_M=16, BLOCK_N=256),
               (cdiv(M, 16),), {"y": y}, ref={"y": torch.softmax(x.float(), 1).half()}, tol={"y": (2e-3, 1e-2)})



# tests/kernels/vision_ops.py: convolutions whose loads gather (their pointers are
# built from loaded offsets or from im2col index arithmetic), where the layout pass
# decides where the gathered addresses change layout.

def c_deform(size, seed, dt="fp32"):
    """Modulated deformable convolution (DCNv2), 3x3, stride 1, pad 1."""
    torch = T()
    g = gen(seed)
    N, C, H, W, OC = size
    dtype = torch.float32 if dt == "fp32" else torch.float16
    x = randn(N * C * H * W, g, dtype).view(N, C, H, W)
    offset = randn(N * 18 * H * W, g, scale=1.5).view(N, 18, H, W)
    mask = torch.sigmoid(randn(N * 9 * H * W, g).view(N, 9, H, W))
    w = randn(OC * C * 9, g, dtype, scale=0.2).view(OC, C, 3, 3)
    y = poison((N, OC, H, W), dtype)
    bp = 32 if dt == "fp32" else 16
    # fp32 products are rounded to tf32 in both compilers (Triton's default
    # precision): 6 sigma of C*9 products of size ~0.2*|x| at 2^-10 each
    atol = 6 * 2.0 ** -10 * (C * 9) ** 0.5 if dt == "fp32" else 2e-2
    return Run([x, offset, mask, w, y, C, H, W, OC, H, W, 1, 1], dict(KSIZE=3, BLOCK_P=bp, BLOCK_OC=16, BLOCK_C=16),
               (cdiv(H * W, bp), cdiv(OC, 16), N), {"y": y}, tol={"y": (atol, 2e-2)})


def c_conv_igemm(size, seed):
    """Implicit-GEMM convolution, fp16, channels-last, 3x3, stride 1, pad 1."""
    torch = T()
    g = gen(seed)
    N, H, W, C, OC = size
    x = randn(N * C * H * W, g, torch.float16).view(N, C, H, W).contiguous(memory_format=torch.channels_last)
    w = randn(OC * C * 9, g, torch.float16, scale=(C * 9) ** -0.5).view(OC, C, 3, 3)
    y = poison((N, OC, H, W), torch.float16).contiguous(memory_format=torch.channels_last)
    ref = torch.nn.functional.conv2d(x.float(), w.float(), None, 1, 1).half()
    grid = (cdiv(N * H * W, 32) * cdiv(OC, 32),)
    return Run([x, w.permute(0, 2, 3, 1).contiguous(), y, N, H, W, C, OC, H, W, 1, 1, 1, 1],
               dict(KH=3, KW=3, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4, PRECISION="tf32", num_warps=8),
               grid, {"y": y}, ref={"y": ref}, tol={"y": (2e-2, 2e-2)})


def c_attn_bwd(size, seed, causal=True, blocks=(32, 64, 64, 32), stages=1):
    """The fused-attention tutorial's backward kernel (flash_attention.py), fp16,
    HEAD_DIM 64; M and delta computed by torch. blocks: BLOCK_M1, BLOCK_N1,
    BLOCK_M2, BLOCK_N2 (the tutorial's own: 32, 128, 128, 32 at 5 stages)."""
    torch = T()
    g = gen(seed)
    Z, H, N = size
    shape = (Z, H, N, 64)
    q, k, v, do = (randn(Z * H * N * 64, g, torch.float16).view(shape) for _ in range(4))
    sm_scale, RCP_LN2 = 0.5, 1.4426950408889634
    s = (q.float() @ k.float().transpose(-1, -2)) * (sm_scale * RCP_LN2)  # base-2 logits
    if causal:
        s = s.masked_fill(torch.ones(N, N, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    M = torch.logsumexp(s * 0.6931471824645996, -1) * RCP_LN2  # log2 of the row sums of 2^s
    o = torch.exp2(s - M[..., None]) @ v.float()
    delta = (o * do.float()).sum(-1)
    dq, dk, dv = (poison(shape, torch.float16) for _ in range(3))
    arg_k = k * (sm_scale * RCP_LN2)
    kw = dict(BLOCK_M1=blocks[0], BLOCK_N1=blocks[1], BLOCK_M2=blocks[2], BLOCK_N2=blocks[3], BLK_SLICE_FACTOR=2,
              HEAD_DIM=64, CAUSAL=causal, num_warps=4, num_stages=stages)
    tol = (5e-2, 5e-2)
    return Run([q, arg_k, v, sm_scale, do, dq, dk, dv, M.contiguous(), delta.contiguous(), q.stride(0), q.stride(1),
                q.stride(2), q.stride(3), H, N], kw, (N // blocks[1], 1, Z * H), {"dq": dq, "dk": dk, "dv": dv},
               tol={"dq": tol, "dk": tol, "dv": tol})

# (file, kernel, label, make, sizes)
CASES = [
    ("vector_add", "add_kernel", "add fp32", lambda s, sd: c_vector_add(s, sd, "fp32"), [1 << 20, 1000003, 17]),
    ("vector_add", "add_kernel", "add fp16", lambda s, sd: c_vector_add(s, sd, "fp16"), [1 << 20, 4112, 1000003]),
    ("vector_add", "axpy_kernel", "axpy", c_axpy, [1 << 20, 12345]),
    ("atomics", "histogram_kernel", "histogram", c_histogram, [1 << 20, 99999]),
    ("atomics", "atomic_minmax_kernel", "atomic min/max", c_atomic_minmax, [1 << 18, 7777]),
    ("atomics", "spin_lock_accumulate_kernel", "spin lock", c_spin_lock, [(8, 200), (37, 256)]),
    ("attention", "attn_fwd_kernel", "attention causal 64", lambda s, sd: c_attn(s, sd, 64, True), [(16, 256)]),
    ("attention", "attn_fwd_kernel", "attention 128", lambda s, sd: c_attn(s, sd, 128, False), [(16, 256)]),
    ("casts", "cast_kernel", "casts", c_cast, [1 << 16, 1001]),
    ("casts", "fp8_roundtrip_kernel", "fp8 round trip", c_fp8, [1 << 16, 1001]),
    ("control_flow", "newton_sqrt_kernel", "newton sqrt (while)", c_newton, [1 << 16, 1001]),
    ("control_flow", "poly_branch_kernel", "poly branch", c_poly, [(1 << 16, 0), (1001, 1), (999, 2)]),
    ("grouped_gemm", "grouped_matmul_kernel", "grouped gemm", c_grouped, [[(128, 128, 64), (100, 70, 40), (64, 192, 96)]]),
    ("int_arith", "int_divmod_kernel", "int div/mod", c_divmod, [1 << 16, 1001]),
    ("int_arith", "bit_ops_kernel", "bit ops", c_bitops, [1 << 16, 1001]),
    ("layer_norm", "layer_norm_fwd_kernel", "layer norm fwd", c_ln_fwd, [(64, 1024), (100, 3000), (5, 100)]),
    ("layer_norm", "layer_norm_bwd_kernel", "layer norm bwd", c_ln_bwd, [(64, 1024), (100, 1000)]),
    ("math_ops", "elementwise_math_kernel", "elementwise math", c_math, [1 << 16, 1001]),
    ("math_ops", "gelu_tanh_kernel", "gelu tanh", c_gelu, [1 << 16, 1001]),
    ("matmul", "matmul_kernel", "matmul fp16", lambda s, sd: c_matmul(s, sd, True), [(256, 256, 128), (512, 256, 192)]),
    ("matmul", "matmul_kernel", "matmul fp32", lambda s, sd: c_matmul(s, sd, False), [(100, 70, 50), (128, 64, 96)]),
    ("memory", "load_modifiers_kernel", "load modifiers", c_loadmod, [(1 << 16, 1), (1001, 0)]),
    ("memory", "block_ptr_kernel", "block pointers", c_block_ptr, [(200, 256)]),
    ("reductions", "reduce_2d_kernel", "reduce 2d", c_reduce2d, [(32, 64), (30, 60)]),
    ("reductions", "argmax_argmin_kernel", "argmax/argmin", c_argmax, [(64, 128), (100, 120)]),
    ("reductions", "welford_kernel", "welford", c_welford, [(64, 256), (33, 200)]),
    ("rms_norm", "rms_norm_kernel", "rms norm", c_rms, [(64, 512), (50, 1500)]),
    ("rng", "dropout_kernel", "dropout", c_dropout, [1 << 20, 1001]),
    ("rng", "random_fill_kernel", "random fill", c_randfill, [1 << 16, 1001]),
    ("scans", "scan_kernel", "scans", c_scan, [(8, 64), (7, 60)]),
    ("scans", "linear_recurrence_kernel", "linear recurrence", c_linrec, [(4, 512), (3, 500)]),
    ("scan_layouts", "cumsum_1d_kernel", "cumsum 1d fp32 1024",
     lambda s, sd: c_cumsum1d(s, sd, 1024, False), [1024, 1000]),
    ("scan_layouts", "cumsum_1d_kernel", "cumsum 1d 32 rev (copies)",
     lambda s, sd: c_cumsum1d(s, sd, 32, True), [32, 30]),
    ("scan_layouts", "cumsum_1d_kernel", "cumsum 1d 4096 8 warps",
     lambda s, sd: c_cumsum1d(s, sd, 4096, False, warps=8), [4096, 4000]),
    ("scan_layouts", "cumsum_1d_kernel", "cumsum 1d i32 rev 2048",
     lambda s, sd: c_cumsum1d(s, sd, 2048, True, "i32"), [2048, 1999]),
    ("scan_layouts", "cumsum_1d_kernel", "cumsum 1d fp16 512",
     lambda s, sd: c_cumsum1d(s, sd, 512, False, "fp16"), [512, 500]),
    ("scan_layouts", "scan_2d_kernel", "cumsum 2d i32 axis 0",
     lambda s, sd: c_scan2d(s, sd, 32, 64, 0, False, "i32"), [(32, 64), (29, 59)]),
    ("scan_layouts", "scan_2d_kernel", "cumsum 2d fp32 axis 1 rev",
     lambda s, sd: c_scan2d(s, sd, 32, 64, 1, True, "fp32"), [(32, 64), (30, 61)]),
    ("scan_layouts", "scan_2d_kernel", "cumsum 2d fp16 axis 0 rev",
     lambda s, sd: c_scan2d(s, sd, 64, 16, 0, True, "fp16"), [(64, 16), (60, 13)]),
    ("scan_layouts", "scan_2d_kernel", "cumsum 2d fp32 4x256 axis 1",
     lambda s, sd: c_scan2d(s, sd, 4, 256, 1, False, "fp32"), [(4, 256), (3, 250)]),
    ("scan_layouts", "linrec_kernel", "linrec 4096 8 warps",
     lambda s, sd: c_linrec1d(s, sd, 4096, False, warps=8), [(2, 4096), (3, 4000)]),
    ("scan_layouts", "linrec_kernel", "linrec 1024 rev",
     lambda s, sd: c_linrec1d(s, sd, 1024, True), [(2, 1024), (3, 1000)]),
    ("scan_layouts", "linrec_2d_kernel", "linrec 2d axis 0",
     lambda s, sd: c_linrec2d(s, sd, 64, 32, 0, False), [(64, 32), (63, 30)]),
    ("scan_layouts", "linrec_2d_kernel", "linrec 2d axis 1 rev",
     lambda s, sd: c_linrec2d(s, sd, 16, 128, 1, True), [(16, 128), (15, 126)]),
    ("scan_layouts", "dtypes_kernel", "scan dtypes 256",
     lambda s, sd: c_scan_dtypes(s, sd, 256, False), [256, 200]),
    ("scan_layouts", "dtypes_kernel", "scan dtypes 64 rev",
     lambda s, sd: c_scan_dtypes(s, sd, 64, True), [64, 60]),
    ("shapes", "shape_ops_kernel", "shape ops", c_shapes, [0]),
    ("softmax", "softmax_kernel", "softmax (persistent)", c_softmax, [(1823, 781), (7, 1000), (256, 1024)]),
    ("softmax", "softmax_2d_kernel", "softmax 2d fp16", c_softmax2d, [(100, 250), (64, 256)]),
    ("flash_attention", "attn_bwd", "attention backward causal", c_attn_bwd, [(2, 8, 1024), (1, 2, 128)]),
    ("vision_ops", "deform_conv2d_kernel", "deformable conv fp32", c_deform, [(2, 64, 56, 56, 64), (1, 5, 9, 11, 20)]),
    ("vision_ops", "deform_conv2d_kernel", "deformable conv fp16", lambda s, sd: c_deform(s, sd, "fp16"),
     [(2, 64, 56, 56, 64), (1, 20, 12, 10, 16)]),
    ("vision_ops", "conv2d_nhwc_igemm_kernel", "implicit-GEMM conv fp16", c_conv_igemm,
     [(4, 56, 56, 64, 64), (2, 11, 13, 20, 24)]),
]

# The three benchmark kernels (issue 6's targets), with the anchor's launch options.
BENCH = [
    ("vector_add", "add_kernel", "vector add 2^26 fp32", lambda sd: c_vector_add(1 << 26, sd, "fp32"), 3 * (1 << 26) * 4),
    ("softmax", "softmax_kernel", "fused softmax 4096x4096 fp32",
     lambda sd: c_softmax((4096, 4096), sd, block=4096, warps=8), 2 * 4096 * 4096 * 4),
    ("layer_norm", "layer_norm_fwd_kernel", "layer norm fwd 4096x8192 fp16",
     lambda sd: c_ln_fwd((4096, 8192), sd, block=1024, warps=8), 2 * 4096 * 8192 * 2),
]

# --big: corpus kernels at sizes where they run for 0.05-5 ms, so that the time is the
# kernel's and not the launch's (the CASES sizes are for correctness: 5-10 us kernels).
# Bytes are None: counted from the Run's tensors (each read or written once).
BIG = [
    ("vector_add", "add_kernel", "add fp16 2^26", lambda sd: c_vector_add(1 << 26, sd, "fp16"), None),
    ("vector_add", "axpy_kernel", "axpy 2^26", lambda sd: c_axpy(1 << 26, sd), None),
    ("math_ops", "gelu_tanh_kernel", "gelu tanh fp16 2^26", lambda sd: c_gelu(1 << 26, sd), None),
    ("math_ops", "elementwise_math_kernel", "elementwise math 2^24", lambda sd: c_math(1 << 24, sd), None),
    ("rng", "dropout_kernel", "dropout 2^26", lambda sd: c_dropout(1 << 26, sd), None),
    ("casts", "cast_kernel", "casts 2^24", lambda sd: c_cast(1 << 24, sd), None),
    ("rms_norm", "rms_norm_kernel", "rms norm fp16 16384x4096", lambda sd: c_rms((16384, 4096), sd), None),
    ("layer_norm", "layer_norm_bwd_kernel", "layer norm bwd fp16 8192x1024", lambda sd: c_ln_bwd((8192, 1024), sd), None),
    ("reductions", "welford_kernel", "welford 65536x256", lambda sd: c_welford((65536, 256), sd), None),
    ("softmax", "softmax_2d_kernel", "softmax 2d fp16 65536x256", lambda sd: c_softmax2d((65536, 256), sd), None),
    ("atomics", "histogram_kernel", "histogram 2^24", lambda sd: c_histogram(1 << 24, sd), None),
    ("matmul", "matmul_kernel", "matmul fp16 2048^3", lambda sd: c_matmul((2048, 2048, 2048), sd, True), None),
    ("vision_ops", "deform_conv2d_kernel", "deformable conv fp32 8x64x56x56", lambda sd: c_deform((8, 64, 56, 56, 64), sd), None),
    ("vision_ops", "conv2d_nhwc_igemm_kernel", "implicit-GEMM conv fp16 32x56x56x64",
     lambda sd: c_conv_igemm((32, 56, 56, 64, 64), sd), None),
    ("flash_attention", "attn_bwd", "attention backward causal 4x16x2048", lambda sd: c_attn_bwd((4, 16, 2048), sd), None),
    ("flash_attention", "attn_bwd", "attention backward causal 4x16x2048, tutorial blocks",
     lambda sd: c_attn_bwd((4, 16, 2048), sd, blocks=(32, 128, 128, 32), stages=5), None),
]


def run_bytes(run):
    torch = T()
    return sum(a.numel() * a.element_size() for a in run.args if isinstance(a, torch.Tensor))


# ---- comparison ---------------------------------------------------------------------

def as_comparable(t):
    torch = T()
    if t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        return t.view(torch.uint8).long(), True
    if t.dtype == torch.uint32:
        return t.view(torch.int32).long(), True
    if t.dtype.is_floating_point:
        return t.double(), False
    return t.long(), True


def compare(a, b, tol, unordered=False):
    """(ok, max error) between two tensors (NaN == NaN)."""
    torch = T()
    x, exact = as_comparable(a)
    y, _ = as_comparable(b)
    x, y = x.reshape(-1), y.reshape(-1)
    if x.shape != y.shape:
        return False, float("inf")
    if unordered:
        x, y = torch.sort(x).values, torch.sort(y).values
    if exact and tol is None:
        bad = (x != y).sum().item()
        return bad == 0, float(bad)
    atol, rtol = tol or (0.0, 0.0)
    nan_x, nan_y = torch.isnan(x), torch.isnan(y)
    if not torch.equal(nan_x, nan_y):
        return False, float("nan")
    x, y = torch.where(nan_x, 0.0, x), torch.where(nan_y, 0.0, y)
    err = (x - y).abs()
    ok = bool((err <= atol + rtol * y.abs()).all().item()) if err.numel() else True
    rel = (err.max() / y.abs().max().clamp(min=1e-30)).item() if err.numel() else 0.0
    return ok, rel


def launch(kern, run):
    kern[run.grid](*run.args, **run.kw)


# ---- main ------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    ap.add_argument("--quick", action="store_true", help="skip the per-case timings")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--big", action="store_true", help="only time the BIG list (large sizes), then stop")
    ap.add_argument("--warm-child", action="store_true")
    a = ap.parse_args()
    if a.warm_child:
        return warm_child()
    if not a.no_build:
        build()
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton_cache_")
    os.environ["TRITONC_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritonc_cache_")
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch, triton, tritonc
    from triton.testing import do_bench
    torch.cuda.init()
    torch.zeros(1, device="cuda")
    # the rewritten sources live at a fixed path (the warm-cache child reads the same files)
    tmp = os.path.join(os.environ["TRITONC_CACHE_DIR"], "kernels_src")
    os.makedirs(tmp, exist_ok=True)
    only = set(x for x in a.only.split(",") if x)
    mods = {}

    def mod(name):
        if name not in mods:
            mods[name] = (load_triton_module(name), load_tritonc_module(name, tmp))
        return mods[name]

    report = {"device": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__,
              "date": time.strftime("%Y-%m-%d"), "checks": [], "timings": [], "bench": []}
    checks, timings = report["checks"], report["timings"]
    # the three benchmarks (or, with --big, the large sizes)
    for (fname, kname, label, make, nbytes) in (BIG if a.big else BENCH):
        if only and fname not in only and kname not in only:
            continue
        tm, cm = mod(fname)
        ktri, ktc = getattr(tm, kname), getattr(cm, kname)
        r_tc, r_tr = make(1), make(1)
        nbytes = nbytes or run_bytes(r_tc)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        launch(ktc, r_tc)
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        launch(ktri, r_tr)
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        oks = []
        for name in r_tc.outs:
            o, e = compare(r_tc.outs[name], r_tr.outs[name], r_tc.tol.get(name))
            oks.append(o)
            if name in r_tc.ref:
                o2, _ = compare(r_tc.outs[name], r_tc.ref[name], r_tc.tol.get(name, (1e-6, 1e-6)))
                oks.append(o2)
        res = []
        for rep in range(3):  # interleaved, same inputs, which one goes first alternating
            def one(k, r):
                return do_bench(lambda: launch(k, r), warmup=100, rep=500, return_mode="median")
            if rep % 2 == 0:
                ms_tc = one(ktc, r_tc)
                ms_tr = one(ktri, r_tr)
            else:
                ms_tr = one(ktri, r_tr)
                ms_tc = one(ktc, r_tc)
            res.append((ms_tc, ms_tr))
        ms_tc = sorted(x[0] for x in res)[1]
        ms_tr = sorted(x[1] for x in res)[1]
        report["bench"].append(dict(kernel=label, ok=all(oks), tc_ms=ms_tc, triton_ms=ms_tr, ratio=ms_tc / ms_tr,
                                    tc_cold_first_ms=(t1 - t0) * 1e3, triton_cold_first_ms=(t2 - t1) * 1e3,
                                    tc_gbps=nbytes / ms_tc / 1e6, triton_gbps=nbytes / ms_tr / 1e6, runs=res))
        print("bench", label, ms_tc, ms_tr, ms_tc / ms_tr, all(oks), flush=True)
        del r_tc, r_tr
    write_report(report, a.out)
    if a.big:
        return 0
    # correctness on every case and size, cold first calls on the first size
    for (fname, kname, label, make, sizes) in CASES:
        if only and fname not in only and kname not in only:
            continue
        tm, cm = mod(fname)
        ktri, ktc = getattr(tm, kname), getattr(cm, kname)
        for si, size in enumerate(sizes):
            row = dict(case=label, size=str(size))
            try:
                r_tc = make(size, 1000 + si)
                r_tr = make(size, 1000 + si)
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                try:
                    launch(ktc, r_tc)
                    torch.cuda.synchronize()
                    row["tc_first_ms"] = (time.perf_counter() - t0) * 1e3
                except Exception as e:  # noqa: BLE001
                    row.update(ok=False, error="tritonc: " + str(e).strip().splitlines()[0][:300])
                    checks.append(row)
                    print("FAIL", label, size, row["error"], flush=True)
                    continue
                t0 = time.perf_counter()
                triton_error = None
                try:
                    launch(ktri, r_tr)
                    torch.cuda.synchronize()
                    row["triton_first_ms"] = (time.perf_counter() - t0) * 1e3
                except Exception as e:  # noqa: BLE001 - Triton cannot run it: torch is the reference
                    triton_error = " ".join(str(e).split())[:300]
                    row["triton_error"] = triton_error
                worst, ok, msgs = 0.0, True, []
                if triton_error is not None and not any(n in r_tc.ref for n in r_tc.outs):
                    ok = False
                    msgs.append("no torch reference, and Triton failed: " + triton_error)
                elif triton_error is not None:
                    msgs.append("Triton failed, checked against torch only: " + triton_error)
                for name in r_tc.outs:
                    tol = r_tc.tol.get(name)
                    if triton_error is None:
                        o, err = compare(r_tc.outs[name], r_tr.outs[name], tol, name in r_tc.unordered)
                        if not o:
                            ok = False
                            msgs.append(f"{name} vs Triton ({err:.3g})")
                        worst = max(worst, err if err == err else 1.0)
                    if name in r_tc.ref:
                        ref = r_tc.ref[name]
                        o2, err2 = compare(r_tc.outs[name].reshape(ref.shape) if r_tc.outs[name].numel() == ref.numel()
                                           else r_tc.outs[name], ref, tol if tol else (None if ref.dtype in (torch.int32, torch.int64) or not ref.dtype.is_floating_point else (1e-6, 1e-6)),
                                           name in r_tc.unordered)
                        if not o2:
                            ok = False
                            msgs.append(f"{name} vs torch ({err2:.3g})")
                if label == "scans":
                    M, N = r_tc.keep["M"], r_tc.keep["N"]
                    o3, e3 = compare(r_tc.outs["csum"][:M, :N], r_tc.keep["csum"], (1e-5, 1e-5))
                    if not o3:
                        ok = False
                        msgs.append(f"csum vs torch ({e3:.3g})")
                row.update(ok=ok, err=worst, detail="; ".join(msgs))
            except Exception as e:  # noqa: BLE001
                row.update(ok=False, error="harness/Triton: " + (str(e).strip().splitlines() or ["?"])[0][:300])
                traceback.print_exc()
            checks.append(row)
            print(("ok  " if row.get("ok") else "FAIL"), label, size, row.get("detail", row.get("error", "")), flush=True)
            if si == 0 and row.get("ok") and not a.quick and "triton_error" not in row:
                try:
                    # in ABBA order, each the mean of its two, so that neither gains
                    # from going second
                    def one(k, r):
                        return do_bench(lambda: launch(k, r), warmup=10, rep=50, return_mode="median")
                    a1, b1 = one(ktc, r_tc), one(ktri, r_tr)
                    b2, a2 = one(ktri, r_tr), one(ktc, r_tc)
                    ms_tc, ms_tr = (a1 + a2) / 2, (b1 + b2) / 2
                    timings.append(dict(case=label, size=str(size), tc_ms=ms_tc, triton_ms=ms_tr, ratio=ms_tc / ms_tr,
                                        tc_first_ms=row.get("tc_first_ms"), triton_first_ms=row.get("triton_first_ms")))
                except Exception as e:  # noqa: BLE001
                    print("timing failed", label, e, flush=True)
            del r_tc, r_tr
    write_report(report, a.out)
    # launch overhead from Python (1-program add, as the anchor)
    tm, cm = mod("vector_add")
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    o = torch.empty_like(x)
    lo = {}
    for nm, k in (("tritonc", cm.add_kernel), ("triton", tm.add_kernel)):
        for _ in range(100):
            k[(1,)](x, y, o, 1024, BLOCK=1024)
        torch.cuda.synchronize()
        best = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(2000):
                k[(1,)](x, y, o, 1024, BLOCK=1024)
            best.append((time.perf_counter() - t0) / 2000 * 1e6)
            torch.cuda.synchronize()
        lo[nm] = sorted(best)[2]
    report["launch_overhead_us"] = lo
    print("launch overhead us", lo, flush=True)
    write_report(report, a.out)
    # warm disk cache, new process
    env = dict(os.environ)
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--warm-child", "--no-build"], env=env,
                       capture_output=True, text=True)
    sys.stdout.write(r.stderr[-6000:])
    try:
        report["warm_disk"] = json.loads(r.stdout.strip().splitlines()[-1])
    except Exception:  # noqa: BLE001
        report["warm_disk_error"] = (r.stdout + r.stderr)[-3000:]
    print("warm disk", report.get("warm_disk", report.get("warm_disk_error")), flush=True)
    # source -> PTX
    report["compile"] = compile_times()
    write_report(report, a.out)
    print(open(os.path.join(a.out, "vs_triton.md")).read())


def warm_child():
    """New process: torch initialises CUDA first (as the anchor's warm mode);
    then the first call of each benchmark kernel, tritonc then Triton."""
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch, tritonc  # noqa: F401
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    tmp = os.path.join(os.environ["TRITONC_CACHE_DIR"], "kernels_src")
    res = {}
    for (fname, kname, label, make, _) in BENCH:
        r1, r2 = make(1), make(1)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        cm = load_tritonc_module(fname, tmp)
        t1 = time.perf_counter()
        launch(getattr(cm, kname), r1)
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        tm = load_triton_module(fname)
        t3 = time.perf_counter()
        launch(getattr(tm, kname), r2)
        torch.cuda.synchronize()
        t4 = time.perf_counter()
        t5 = time.perf_counter()
        launch(getattr(cm, kname), r1)
        torch.cuda.synchronize()
        t6 = time.perf_counter()
        res[label] = dict(tc_first_ms=(t2 - t1) * 1e3, triton_first_ms=(t4 - t3) * 1e3, tc_second_ms=(t6 - t5) * 1e3,
                          tc_import_ms=(t1 - t0) * 1e3)
    # where the warm first call's time goes (a kernel the parent compiled: axpy)
    import cProfile, io, pstats
    cm = load_tritonc_module("vector_add", tmp)
    r = c_axpy(1 << 20, 1)
    torch.cuda.synchronize()
    pr = cProfile.Profile()
    pr.enable()
    launch(cm.axpy_kernel, r)
    torch.cuda.synchronize()
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("cumulative").print_stats(18)
    sys.stderr.write(s.getvalue())
    print(json.dumps(res))


def compile_times():
    sys.path.insert(0, os.path.join(ROOT, "tests", "ptx", "Inputs"))
    import ptxas_suite
    sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
    import compile_speed
    rows = []
    exe = compile_speed.build_tool("build")  # (made or remade from build/libtritonc.a, --no-build or not)
    for f in sorted(os.listdir(KDIR)):
        if not f.endswith(".py"):
            continue
        path = os.path.join(KDIR, f)
        for b in ptxas_suite.header_blocks(path):
            cmd = [exe, path, b["KERNEL"], b["SIGNATURE"], "cuda:90", "4", "21"] + ptxas_suite.split_constexprs(b["CONSTEXPR"])
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                rows.append(dict(kernel=b["KERNEL"], file=f, error=(r.stderr.strip().splitlines() or ["?"])[-1]))
                continue
            med, mn, lines, nbytes, first = r.stdout.split()
            rows.append(dict(kernel=b["KERNEL"], file=f, ms=float(med), min_ms=float(mn), ptx_lines=int(lines),
                             first_ms=float(first)))
    return rows


def write_report(rep, out):
    L = []
    L.append(f"Device: {rep['device']}; Triton {rep['triton']}, torch {rep['torch']}; {rep['date']}\n")
    L.append("| benchmark | tritonc ms | Triton ms | ratio tc/Triton | tritonc GB/s | Triton GB/s | outputs | cold 1st call tc ms | cold 1st call Triton ms |")
    L.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for b in rep["bench"]:
        L.append(f"| {b['kernel']} | {b['tc_ms']:.4f} | {b['triton_ms']:.4f} | {b['ratio']:.3f} | {b['tc_gbps']:.0f} | "
                 f"{b['triton_gbps']:.0f} | {'ok' if b['ok'] else 'MISMATCH'} | {b['tc_cold_first_ms']:.1f} | {b['triton_cold_first_ms']:.1f} |")
    L.append("")
    n_ok = sum(1 for c in rep["checks"] if c.get("ok"))
    L.append(f"Checks: {n_ok} of {len(rep['checks'])} pass.\n")
    L.append("| case | size | result | max rel. err | detail | tritonc 1st call ms | Triton 1st call ms |")
    L.append("| --- | --- | --- | --- | --- | --- | --- |")
    for c in rep["checks"]:
        L.append(f"| {c['case']} | {c['size']} | {'ok' if c.get('ok') else 'FAIL'} | {c.get('err', float('nan')):.2e} | "
                 f"{c.get('detail') or c.get('error', '')} | {c.get('tc_first_ms', float('nan')):.1f} | "
                 f"{c.get('triton_first_ms', float('nan')):.1f} |")
    L.append("")
    if rep["timings"]:
        L.append("| case | size | tritonc ms | Triton ms | ratio |")
        L.append("| --- | --- | --- | --- | --- |")
        for t in rep["timings"]:
            L.append(f"| {t['case']} | {t['size']} | {t['tc_ms']:.4f} | {t['triton_ms']:.4f} | {t['ratio']:.2f} |")
        L.append("")
    L.append(f"Host launch overhead from Python (us per call): {json.dumps(rep.get('launch_overhead_us'))}\n")
    L.append(f"Warm disk cache, new process after torch initialised CUDA: {json.dumps(rep.get('warm_disk', rep.get('warm_disk_error')))}\n")
    L.append("| kernel | file | source->PTX ms (median of 21, after 100 ms of warm-up) | "
             "first compile in the process ms | PTX lines |")
    L.append("| --- | --- | --- | --- | --- |")
    for c in rep.get("compile", []):
        if "error" in c:
            L.append(f"| {c['kernel']} | {c['file']} | error: {c['error']} | | |")
        else:
            L.append(f"| {c['kernel']} | {c['file']} | {c['ms']:.3f} | {c['first_ms']:.3f} | {c['ptx_lines']} |")
    text = "\n".join(L) + "\n"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "vs_triton.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "vs_triton.json"), "w") as f:
        json.dump(rep, f, indent=1, default=str)


if __name__ == "__main__":
    main()
