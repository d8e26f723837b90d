# KERNEL: cumsum_1d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=1024, REVERSE=False
# GRID: 1
#
# KERNEL: cumsum_1d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=32, REVERSE=True
# GRID: 1
#
# KERNEL: cumsum_1d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=4096, REVERSE=False
# GRID: 1
#
# KERNEL: cumsum_1d_kernel
# SIGNATURE: *i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=2048, REVERSE=True
# GRID: 1
#
# KERNEL: cumsum_1d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=512, REVERSE=False
# GRID: 1
#
# KERNEL: scan_2d_kernel
# SIGNATURE: *i32:16,*i32:16,i32,i32
# CONSTEXPR: BM=32, BN=64, AXIS=0, REVERSE=False
# GRID: 1
#
# KERNEL: scan_2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=32, BN=64, AXIS=1, REVERSE=True
# GRID: 1
#
# KERNEL: scan_2d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32
# CONSTEXPR: BM=64, BN=16, AXIS=0, REVERSE=True
# GRID: 1
#
# KERNEL: scan_2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=4, BN=256, AXIS=1, REVERSE=False
# GRID: 1
#
# KERNEL: linrec_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK_T=4096, REVERSE=False
# GRID: ROWS
#
# KERNEL: linrec_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK_T=1024, REVERSE=True
# GRID: ROWS
#
# KERNEL: linrec_2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=64, BN=32, AXIS=0, REVERSE=False
# GRID: 1
#
# KERNEL: linrec_2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=16, BN=128, AXIS=1, REVERSE=True
# GRID: 1
#
# KERNEL: dtypes_kernel
# SIGNATURE: *i8:16,*i8:16,*i16:16,*i16:16,*i64:16,*i64:16,*fp64:16,*fp64:16,*bf16:16,*bf16:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=256, REVERSE=False
# GRID: 1
#
# KERNEL: dtypes_kernel
# SIGNATURE: *i8:16,*i8:16,*i16:16,*i16:16,*i64:16,*i64:16,*fp64:16,*fp64:16,*bf16:16,*bf16:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=64, REVERSE=True
# GRID: 1
#
# Scans over the layouts a scan meets on the GPU: a 1-D tile spread over
# lanes, warps and repetitions of the layout (1024 and 4096 elements), one
# smaller than the layout's footprint (32 elements over 4 warps: lanes and
# warps hold copies), 2-D tiles scanned along either axis, reversed scans,
# a two-operand scan with a combine that is not commutative (the linear
# recurrence h[t] = a[t] * h[t-1] + b[t]; reversed, h[t] = a[t] * h[t+1] +
# b[t]), and the element types the warp shuffles move in pieces (8-, 16-
# and 64-bit integers, fp16, bf16, fp64, i1).

import triton
import triton.language as tl


@triton.jit
def cumsum_1d_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(y_ptr + offs, tl.cumsum(x, 0, reverse=REVERSE), mask=mask)


@triton.jit
def scan_2d_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr,
                   REVERSE: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=mask, other=0)
    tl.store(y_ptr + rm * N + rn, tl.cumsum(x, AXIS, reverse=REVERSE), mask=mask)


@triton.jit
def affine_then(a_first, b_first, a_next, b_next):
    # (h -> a_first h + b_first), then (h -> a_next h + b_next)
    return a_first * a_next, b_first * a_next + b_next


@triton.jit
def linrec_kernel(a_ptr, b_ptr, h_ptr, T, stride_row, BLOCK_T: tl.constexpr, REVERSE: tl.constexpr):
    row = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    ok = t < T
    a = tl.load(a_ptr + row * stride_row + t, mask=ok, other=1.0)
    b = tl.load(b_ptr + row * stride_row + t, mask=ok, other=0.0)
    _, h = tl.associative_scan((a, b), axis=0, combine_fn=affine_then, reverse=REVERSE)
    tl.store(h_ptr + row * stride_row + t, h, mask=ok)


@triton.jit
def linrec_2d_kernel(a_ptr, b_ptr, h_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, AXIS: tl.constexpr,
                     REVERSE: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    ok = (rm < M) & (rn < N)
    a = tl.load(a_ptr + rm * N + rn, mask=ok, other=1.0)
    b = tl.load(b_ptr + rm * N + rn, mask=ok, other=0.0)
    _, h = tl.associative_scan((a, b), axis=AXIS, combine_fn=affine_then, reverse=REVERSE)
    tl.store(h_ptr + rm * N + rn, h, mask=ok)


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _xor(a, b):
    return a ^ b


@triton.jit
def dtypes_kernel(x8_ptr, y8_ptr, x16_ptr, y16_ptr, x64_ptr, y64_ptr, xd_ptr, yd_ptr, xb_ptr, yb_ptr,
                  xp_ptr, yp_ptr, n, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x8 = tl.load(x8_ptr + offs, mask=m, other=-128)
    tl.store(y8_ptr + offs, tl.associative_scan(x8, 0, _max, reverse=REVERSE), mask=m)
    x16 = tl.load(x16_ptr + offs, mask=m, other=0)
    tl.store(y16_ptr + offs, tl.associative_scan(x16, 0, _add, reverse=REVERSE), mask=m)
    x64 = tl.load(x64_ptr + offs, mask=m, other=0)
    tl.store(y64_ptr + offs, tl.cumsum(x64, 0, reverse=REVERSE), mask=m)
    xd = tl.load(xd_ptr + offs, mask=m, other=0.0)
    tl.store(yd_ptr + offs, tl.cumsum(xd, 0, reverse=REVERSE), mask=m)
    xb = tl.load(xb_ptr + offs, mask=m, other=-1.0e30)
    tl.store(yb_ptr + offs, tl.associative_scan(xb, 0, _max, reverse=REVERSE), mask=m)
    xp = tl.load(xp_ptr + offs, mask=m, other=0.0)
    parity = tl.associative_scan(xp > 0, 0, _xor, reverse=REVERSE)
    tl.store(yp_ptr + offs, parity.to(tl.int32), mask=m)
