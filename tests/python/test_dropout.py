# RUN: %python %s
# REQUIRES: torch, numpy
"""Dropout, as in Triton's dropout tutorial: a mask given as a tensor, then
the seeded variant that draws its own random numbers with tl.rand (same seed,
same mask; a fraction p of zeros; kept values scaled by 1/(1-p))."""
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def _dropout(x_ptr, x_keep_ptr, output_ptr, n_elements, p, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x_keep = tl.load(x_keep_ptr + offsets, mask=mask)
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


def dropout(x, x_keep, p):
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    _dropout[grid](x, x_keep, output, n_elements, p, BLOCK_SIZE=1024)
    return output


def seeded_dropout(x, p, seed):
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    _seeded_dropout[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output


def main():
    torch.manual_seed(0)
    x = torch.randn(size=(10000, ))
    p = 0.5
    x_keep = (torch.rand(size=(10000, )) > p).to(torch.int32)
    out = dropout(x, x_keep=x_keep, p=p)
    ref = torch.where(x_keep.bool(), x / (1 - p), torch.zeros_like(x))
    triton.testing.assert_close(out, ref, atol=1e-6, rtol=1e-6)

    x = torch.randn(size=(100000, ))
    o1 = seeded_dropout(x, p=0.5, seed=123)
    o2 = seeded_dropout(x, p=0.5, seed=123)
    o3 = seeded_dropout(x, p=0.5, seed=512)
    assert torch.equal(o1, o2), "same seed, different masks"
    assert not torch.equal(o1, o3), "different seeds, same mask"
    kept = o1 != 0
    frac = 1.0 - kept.float().mean().item()
    assert abs(frac - 0.5) < 0.01, frac
    np.testing.assert_allclose(o1[kept].cpu().numpy(), (x[kept] * 2).cpu().numpy(), rtol=1e-6)
    # p = 0.25 with a numpy input
    xa = np.random.randn(4096).astype(np.float32)
    oa = np.empty_like(xa)
    _seeded_dropout[(4,)](xa, oa, 4096, 0.25, 7, BLOCK_SIZE=1024)
    zeros = float((oa == 0).mean())
    assert abs(zeros - 0.25) < 0.03, zeros
    np.testing.assert_allclose(oa[oa != 0], xa[oa != 0] / 0.75, rtol=1e-6)
    print("dropout: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
