#!/usr/bin/env python3
"""fp32 math against Triton, bit for bit, on the GPU.

tests/ptx/Inputs/libm_kernels.py's kernel (one function per FN: tl.sin, cos,
log, log2, erf, exp, exp2, sqrt, rsqrt, libdevice.tanh) compiled by Triton
and by tritonc from the same source, run on the same 2^22 inputs of several
ranges (ordinary, huge and tiny magnitudes, near 1 for the logs, past
105615 for sin and cos); prints, per function and range, how many results
differ in any bit and the largest difference in ulps (NaN == NaN).

    python3 bench/gpu/libm_vs_triton.py [--no-build]
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "tests", "ptx", "Inputs", "libm_kernels.py")
FNS = ["sin", "cos", "log", "log2", "erf", "tanh", "exp", "exp2", "sqrt", "rsqrt"]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.run(["make", "-j16", "all", "PGO=0"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import torch
    src = open(SRC).read()
    tmp = tempfile.mkdtemp()
    tc_src = re.sub(r"^import triton\.language as tl$", "import tritonc.language as tl", src, flags=re.M)
    tc_src = re.sub(r"^import triton$", "import tritonc as triton", tc_src, flags=re.M)
    tc_src = re.sub(r"^from triton\.", "from tritonc.", tc_src, flags=re.M)
    with open(os.path.join(tmp, "libm_tc.py"), "w") as f:
        f.write(tc_src)
    k_tr = load(SRC, "libm_triton").libm_kernel
    k_tc = load(os.path.join(tmp, "libm_tc.py"), "libm_tritonc").libm_kernel
    n = 1 << 22
    g = torch.Generator(device="cuda").manual_seed(0)
    u = lambda lo, hi: torch.rand(n, device="cuda", generator=g) * (hi - lo) + lo  # noqa: E731
    sign = lambda: torch.where(torch.rand(n, device="cuda", generator=g) < 0.5, -1.0, 1.0)  # noqa: E731
    ranges = {
        "normal(0, 3)": torch.randn(n, device="cuda", generator=g) * 3,
        "|x| in 2^[-60, 60]": torch.exp2(u(-60, 60)) * sign(),
        "near 1": 1 + u(-1e-3, 1e-3),
        "|x| in [1e5, 1e30]": torch.exp(u(11.5, 69)) * sign(),
    }
    print("| function | inputs | results differing | most ulps apart |")
    print("| --- | --- | --- | --- |")
    for fn in FNS:
        for label, x in ranges.items():
            if fn in ("log", "log2", "sqrt", "rsqrt"):
                x = x.abs()
            outs = []
            for k in (k_tr, k_tc):
                o = torch.full_like(x, float("nan"))
                k[(n // 1024,)](x, o, n, FN=fn, BLOCK=1024)
                outs.append(o)
            torch.cuda.synchronize()
            a_, b_ = outs
            both_nan = torch.isnan(a_) & torch.isnan(b_)
            diff = (a_.view(torch.int32) != b_.view(torch.int32)) & ~both_nan
            ia, ib = a_.view(torch.int32).long(), b_.view(torch.int32).long()
            # ulps on the same side of zero: the difference of the bit patterns
            ulps = torch.where(diff & (ia ^ ib >= 0) & ~torch.isnan(a_) & ~torch.isnan(b_), (ia - ib).abs(), 0)
            far = int(((ia ^ ib) < 0).logical_and(diff).sum().item())
            worst = int(ulps.max().item())
            print("| %s | %s | %d of %d | %d%s |" % (fn, label, int(diff.sum().item()), n, worst,
                                                     " (%d of opposite sign)" % far if far else ""), flush=True)


if __name__ == "__main__":
    main()
