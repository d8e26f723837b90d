# RUN: %python %s
# REQUIRES: torch
"""A masked load feeding a reduction must not read the lanes its mask
excludes. The element just past the mask holds 1e30 (and NaN in a second
round): a sum that reads it is off by ~1e30 or NaN. GCC 12's loop
if-conversion once made the CPU backend's fused masked reduction load every
lane unconditionally (masked loads now go through a volatile-qualified
pointer, which the compiler may not speculate); this pins it down for
several ragged sizes, both tile widths and a second, max reduction."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def masked_sum_max(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + 2 * pid, tl.sum(x, axis=0))
    y = tl.load(x_ptr + offs, mask=mask, other=-float("inf"))
    tl.store(out_ptr + 2 * pid + 1, tl.max(y, axis=0))


def main():
    torch.manual_seed(0)
    fails = 0
    for block in (128, 256):
        for n in (1, 5, 17, 127, 129, 200, 255):
            for poison in (1e30, float("nan")):
                nblk = triton.cdiv(n, block)
                x = torch.full((nblk * block + 16,), poison)
                x[:n] = torch.randn(n)
                out = torch.full((2 * (nblk + 2),), 99.0)
                masked_sum_max[(nblk + 2,)](x, out, n, BLOCK=block)
                for b in range(nblk):
                    blk = x[b * block:min(n, (b + 1) * block)].double()
                    s, m = out[2 * b].item(), out[2 * b + 1].item()
                    if not (abs(s - blk.sum().item()) <= 1e-4 * (1 + blk.abs().sum().item())
                            and m == blk.max().item()):
                        fails += 1
                        print("block", block, "n", n, "poison", poison, "program", b, "sum", s,
                              "want", blk.sum().item(), "max", m, "want", blk.max().item())
                assert out[2 * nblk:].eq(99.0).all(), "programs past the end wrote"
    if fails:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
