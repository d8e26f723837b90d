# RUN: %python %s
# REQUIRES: torch
"""Launches from several Python threads at once: each thread compiles (the
first launch of its specialisation), then launches its own kernel many times
into its own output while the others do the same. On CUDA the threads are
new to the driver (no context current on them): the first launch finds none
and makes the device's primary context current, as PyTorch's own would be.
Every output is checked against torch."""
import threading

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def scale_add(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x * alpha + y, mask=m)


def main():
    torch.manual_seed(0)
    n, threads, launches = 3000, 4, 40
    x, y = torch.randn(n), torch.randn(n)
    outs = [torch.full((n,), float("nan")) for _ in range(threads)]
    errors = []
    start = threading.Barrier(threads)

    def work(t):
        try:
            start.wait()
            block = 256 * (1 + t % 2)  # two specialisations, compiled by racing threads
            for i in range(launches):
                scale_add[(triton.cdiv(n, block),)](x, y, outs[t], n, float(t + i % 3), BLOCK=block)
        except Exception as e:  # reported by the main thread
            errors.append("thread %d: %s: %s" % (t, type(e).__name__, e))

    ts = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    assert not errors, errors
    for t in range(threads):
        alpha = float(t + (launches - 1) % 3)
        ref = x * alpha + y
        assert torch.allclose(outs[t].cpu(), ref.cpu(), atol=1e-5), (t, outs[t][:4], ref[:4])
    print("threads: ok")


if __name__ == "__main__":
    main()
