# KERNEL: rms_norm_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32,fp32
# CONSTEXPR: BLOCK_N=512
# GRID: M
#
# RMS normalisation y = x / sqrt(mean(x^2) + eps) * w, fp16 in and out, fp32
# accumulation, row offsets computed in 64-bit. The first pass is a
# software-pipelined tl.range; the loads carry eviction hints.

import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(X, Y, W, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = X + row * stride_x
    y_row = Y + row * stride_y
    sq = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in tl.range(0, N, BLOCK_N, num_stages=2):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0, eviction_policy="evict_last").to(tl.float32)
        sq += x * x
    inv_rms = tl.rsqrt(tl.sum(sq, axis=0) / N + eps)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        ok = cols < N
        x = tl.load(x_row + cols, mask=ok, other=0.0, eviction_policy="evict_first").to(tl.float32)
        w = tl.load(W + cols, mask=ok, other=0.0).to(tl.float32)
        tl.store(y_row + cols, (x * inv_rms * w).to(tl.float16), mask=ok)
