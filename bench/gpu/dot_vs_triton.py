#!/usr/bin/env python3
"""tritonc against Triton 3.6 on the corpus kernels that use tl.dot, at sizes
where the dot's throughput matters (bench/gpu/vs_triton.py times them only
at its small correctness sizes).

Each case compiles the same tests/kernels/*.py source with both compilers
(vs_triton.py's loaders), runs both on identical inputs, compares the
outputs with each other and with torch, then times both
(triton.testing.do_bench, median, three interleaved rounds) and reports
ms, TFLOP/s and the ratio tritonc / Triton:

  * matmul fp16 (the corpus config: 128x128x64 tiles, leaky_relu), 4 and 8
    warps, M = N = K = 1024 and 4096; at 4096^3 also the matmul tutorial's
    first four fp16 autotune configurations (tiles, warps and stages), and
    the persistent-matmul tutorial's kernels (matmul_variants.py: pointers,
    and descriptors made in the kernel);
  * matmul fp32 (64x64x32 tiles, tf32, every stride dynamic), 2048^3;
  * attention forward, head dim 64, 32 batch*heads, N_CTX 1024 and 4096,
    BLOCK_M 128 (not causal) and 64 (causal).

    python3 bench/gpu/dot_vs_triton.py [--out DIR] [--quick] [--no-build] [--only SUBSTR]

Writes dot_vs_triton.json and dot_vs_triton.md under --out (default $OUT or
/tmp).
"""
import argparse, json, os, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vs_triton as vt  # noqa: E402


def matmul_case(M, N, K, fp16, warps, blocks=None, stages=None):
    def make(seed):
        r = vt.c_matmul((M, N, K), seed, fp16, blocks, stages)
        r.kw["num_warps"] = warps
        return r
    return make, 2.0 * M * N * K


def persistent_case(n, blocks, stages, warps, device_desc):
    def make(seed):
        r = vt.c_matmul_persistent((n, n, n), seed, blocks, stages, device_desc)
        r.kw["num_warps"] = warps
        return r
    return make, 2.0 * n * n * n


def attn_case(bh, n_ctx, bm, causal):
    def make(seed):
        return vt.c_attn((bh, n_ctx), seed, bm, causal)
    flops = 4.0 * bh * n_ctx * n_ctx * 64 * (0.5 if causal else 1.0)
    return make, flops


CASES = [
    ("matmul", "matmul_kernel", "matmul fp16 1024^3, 4 warps", matmul_case(1024, 1024, 1024, True, 4)),
    ("matmul", "matmul_kernel", "matmul fp16 4096^3, 4 warps", matmul_case(4096, 4096, 4096, True, 4)),
    ("matmul", "matmul_kernel", "matmul fp16 4096^3, 8 warps", matmul_case(4096, 4096, 4096, True, 8)),
    # the matmul tutorial's first autotune configurations for fp16 on CUDA
    ("matmul", "matmul_kernel", "matmul fp16 4096^3, tutorial 128x256x64, 8 warps, 3 stages",
     matmul_case(4096, 4096, 4096, True, 8, (128, 256, 64), 3)),
    ("matmul", "matmul_kernel", "matmul fp16 4096^3, tutorial 64x256x32, 4 warps, 4 stages",
     matmul_case(4096, 4096, 4096, True, 4, (64, 256, 32), 4)),
    ("matmul", "matmul_kernel", "matmul fp16 4096^3, tutorial 128x128x32, 4 warps, 4 stages",
     matmul_case(4096, 4096, 4096, True, 4, (128, 128, 32), 4)),
    ("matmul", "matmul_kernel", "matmul fp16 4096^3, tutorial 128x64x32, 4 warps, 4 stages",
     matmul_case(4096, 4096, 4096, True, 4, (128, 64, 32), 4)),
    ("matmul_variants", "matmul_persistent", "persistent matmul fp16 4096^3, 128x128x64, 8 warps, 3 stages",
     persistent_case(4096, (128, 128, 64), 3, 8, False)),
    ("matmul_variants", "matmul_device_descriptor", "persistent matmul bf16 4096^3, device descriptors, 128x128x64, 8 warps, 3 stages",
     persistent_case(4096, (128, 128, 64), 3, 8, True)),
    ("matmul", "matmul_kernel", "matmul fp32 (tf32) 2048^3", matmul_case(2048, 2048, 2048, False, 4)),
    ("attention", "attn_fwd_kernel", "attention 32x1024, BLOCK_M 128", attn_case(32, 1024, 128, False)),
    ("attention", "attn_fwd_kernel", "attention 32x4096, BLOCK_M 128", attn_case(32, 4096, 128, False)),
    ("attention", "attn_fwd_kernel", "attention causal 32x4096, BLOCK_M 64", attn_case(32, 4096, 64, True)),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    ap.add_argument("--quick", action="store_true", help="correctness only")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--only", default="", help="run the cases whose label contains this")
    a = ap.parse_args()
    if not a.no_build:
        vt.build()
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton_cache_")
    os.environ["TRITONC_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritonc_cache_")
    sys.path.insert(0, os.path.join(vt.ROOT, "python"))
    import torch, triton
    from triton.testing import do_bench
    torch.zeros(1, device="cuda")
    import tritonc

    # device-side descriptors need a scratch allocator in both
    def alloc(size, align, stream):
        return torch.empty(size, dtype=torch.int8, device="cuda")
    triton.set_allocator(alloc)
    tritonc.set_allocator(alloc)
    tmp = os.path.join(os.environ["TRITONC_CACHE_DIR"], "kernels_src")
    os.makedirs(tmp, exist_ok=True)
    mods = {}
    rows = []
    for fname, kname, label, (make, flops) in CASES:
        if a.only and a.only not in label:
            continue
        if fname not in mods:
            mods[fname] = (vt.load_triton_module(fname), vt.load_tritonc_module(fname, tmp))
        ktri, ktc = getattr(mods[fname][0], kname), getattr(mods[fname][1], kname)
        row = dict(case=label)
        try:
            r_tc, r_tr = make(7), make(7)
            vt.launch(ktc, r_tc)
            vt.launch(ktri, r_tr)
            torch.cuda.synchronize()
            oks, msgs = [], []
            for name in r_tc.outs:
                ok, err = vt.compare(r_tc.outs[name], r_tr.outs[name], r_tc.tol.get(name))
                oks.append(ok)
                msgs.append(f"{name} vs Triton {err:.2e}")
                if name in r_tc.ref:
                    ok2, err2 = vt.compare(r_tc.outs[name], r_tc.ref[name], r_tc.tol.get(name))
                    oks.append(ok2)
                    msgs.append(f"vs torch {err2:.2e}")
            row.update(ok=all(oks), detail="; ".join(msgs))
            if not a.quick:
                res = []
                for _ in range(3):
                    ms_tc = do_bench(lambda: vt.launch(ktc, r_tc), warmup=25, rep=200, return_mode="median")
                    ms_tr = do_bench(lambda: vt.launch(ktri, r_tr), warmup=25, rep=200, return_mode="median")
                    res.append((ms_tc, ms_tr))
                ms_tc = sorted(x[0] for x in res)[1]
                ms_tr = sorted(x[1] for x in res)[1]
                row.update(tc_ms=ms_tc, triton_ms=ms_tr, ratio=ms_tc / ms_tr,
                           tc_tflops=flops / ms_tc / 1e9, triton_tflops=flops / ms_tr / 1e9)
        except Exception as e:  # noqa: BLE001
            row.update(ok=False, detail="error: " + (str(e).strip().splitlines() or ["?"])[0][:300])
        rows.append(row)
        print(json.dumps(row), flush=True)
    L = [f"Device: {torch.cuda.get_device_name()}; Triton {triton.__version__}; {time.strftime('%Y-%m-%d')}\n",
         "| case | outputs | tritonc ms | Triton ms | ratio tc/Triton | tritonc TFLOP/s | Triton TFLOP/s | detail |",
         "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    nan = float("nan")
    for r in rows:
        L.append(f"| {r['case']} | {'ok' if r.get('ok') else 'FAIL'} | {r.get('tc_ms', nan):.4f} | "
                 f"{r.get('triton_ms', nan):.4f} | {r.get('ratio', nan):.2f} | {r.get('tc_tflops', nan):.1f} | "
                 f"{r.get('triton_tflops', nan):.1f} | {r.get('detail', '')} |")
    text = "\n".join(L) + "\n"
    print(text)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "dot_vs_triton.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "dot_vs_triton.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return 0 if all(r.get("ok") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
