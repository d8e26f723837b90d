# RUN: %python %s
# REQUIRES: torch
"""@triton.autotune with reset_to_zero over a kernel that accumulates with
atomics: the benchmarked runs write into the output, so the autotuner zeroes
it again before the real run (as Triton does); the caller sees one run's
result, on the first call (benchmarking) and on later calls (cached config)."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 32}, num_warps=1),
                          triton.Config({"BLOCK": 64}, num_warps=2)],
                 key=["n"], reset_to_zero=["out_ptr"], warmup=1, rep=3)
@triton.jit
def accumulate(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr + offs % 8, tl.load(x_ptr + offs, mask=offs < n, other=0.0), mask=offs < n)


def main():
    fails = 0
    x = torch.randn(100)
    ref = torch.zeros(8).index_add_(0, torch.arange(100) % 8, x)
    for call in ("first call (benchmarks)", "second call (cached config)"):
        out = torch.zeros(8)
        accumulate[lambda m: (triton.cdiv(100, m["BLOCK"]),)](x, out, 100)
        ok = torch.allclose(out, ref, atol=1e-5)
        print("%s: %s" % (call, "ok" if ok else "FAIL %s vs %s" % (out.tolist(), ref.tolist())))
        fails += not ok
    print("configs benchmarked: %d" % len(accumulate.configs_timings))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
