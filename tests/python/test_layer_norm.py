# RUN: %python %s
# REQUIRES: torch
"""Layer normalisation forward, as in Triton's layer-norm tutorial: one row
per program, fp32 statistics, a loop over columns in BLOCK_SIZE chunks,
mean and 1/std saved per row; fp32 and fp16 inputs against torch."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


def layer_norm(x, normalized_shape, weight, bias, eps):
    y = torch.empty_like(x)
    x_arg = x.reshape(-1, x.shape[-1])
    M, N = x_arg.shape
    mean = torch.empty((M, ), dtype=torch.float32)
    rstd = torch.empty((M, ), dtype=torch.float32)
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    BLOCK_SIZE = min(BLOCK_SIZE, 1024)  # several column chunks for wide rows
    _layer_norm_fwd_fused[(M, )](x_arg, y, weight, bias, mean, rstd, x_arg.stride(0), N, eps,
                                 BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return y, mean, rstd


def main():
    torch.manual_seed(0)
    for M, N, dtype, tol in ((151, 1152, torch.float32, 1e-4), (64, 2500, torch.float32, 1e-4),
                             (32, 512, torch.float16, 1e-2)):
        x = -2.3 + 0.5 * torch.randn(M, N, dtype=torch.float32)
        w = torch.rand(N)
        b = torch.rand(N)
        x, w, b = x.to(dtype), w.to(dtype), b.to(dtype)
        y, mean, rstd = layer_norm(x, (N, ), w, b, 1e-5)
        ref = torch.nn.functional.layer_norm(x.float(), (N, ), w.float(), b.float(), 1e-5)
        triton.testing.assert_close(y.float(), ref, atol=tol, rtol=0)
        triton.testing.assert_close(mean, x.float().mean(1), atol=1e-4, rtol=0)
    print("layer norm: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
