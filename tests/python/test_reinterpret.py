# RUN: %python %s
# REQUIRES: torch
"""triton.reinterpret: a tensor launched as another element type (uint8
storage as fp8e5, int32 bits as fp32), checked against torch's own views of
the same bits; triton.TritonError as the base of the compiler's errors; and
triton.testing.do_bench_cudagraph (CUDA graphs on a GPU, the wall clock on
the CPU) timing a kernel whose result is checked."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import torch  # noqa: E402

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402

fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)


@triton.jit
def to_fp32(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m).to(tl.float32), mask=m)


@triton.jit
def broken(x_ptr):
    tl.store(x_ptr, undefined_name)  # noqa: F821


def main():
    n = 256
    # every e5m2 bit pattern: fp8e5 is the high byte of an fp16
    bits = torch.arange(n, dtype=torch.int32).to(torch.uint8)
    out = torch.full((n,), float("nan"))
    to_fp32[(triton.cdiv(n, 128),)](triton.reinterpret(bits, tl.float8e5), out, n, BLOCK=128)
    ref = (bits.to(torch.int32) << 8).to(torch.int16).view(torch.float16).float()
    same = (out == ref) | (out.isnan() & ref.isnan())
    check(bool(same.all()), "fp8e5 through reinterpret: %d mismatches" % int((~same).sum()))

    ints = torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32)
    ints[ints.view(torch.float32).isnan()] = 0
    out.fill_(float("nan"))
    to_fp32[(triton.cdiv(n, 128),)](triton.reinterpret(ints, tl.float32), out, n, BLOCK=128)
    check(torch.equal(out, ints.view(torch.float32)), "int32 bits as fp32")
    w = triton.reinterpret(ints, tl.float32)
    check(triton.reinterpret(w, torch.int32) is ints, "reinterpret back to the base dtype unwraps")
    check(w.data_ptr() == ints.data_ptr() and w.numel() == n, "the wrapper is the same memory")

    try:
        broken[(1,)](out)
    except triton.TritonError as e:
        check(isinstance(e, triton.CompilationError) and "undefined_name" in str(e), "error: %s" % e)
    else:
        check(False, "no compile error")
    check(issubclass(triton.LaunchError, triton.TritonError) and
          issubclass(triton.LaunchError, RuntimeError), "LaunchError's bases")

    x = torch.randn(4096)
    y = torch.empty(4096)
    ms = triton.testing.do_bench_cudagraph(lambda: to_fp32[(32,)](x, y, 4096, BLOCK=128))
    check(isinstance(ms, float) and ms > 0, "do_bench_cudagraph: %r" % (ms,))
    q = triton.testing.do_bench_cudagraph(lambda: to_fp32[(32,)](x, y, 4096, BLOCK=128),
                                          quantiles=[0.5, 0.2, 0.8])
    check(len(q) == 3 and all(v > 0 for v in q), "do_bench_cudagraph quantiles: %r" % (q,))
    check(torch.equal(y, x), "the benchmarked kernel's result")

    print("%d failures" % len(fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
