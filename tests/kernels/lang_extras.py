# KERNEL: early_exit_kernel
# SIGNATURE: *fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=128, CHECK_BOUNDS=True
# GRID: cdiv(n, BLOCK) + 2
#
# KERNEL: shuffle_kernel
# SIGNATURE: *fp32:16,*i32:16,*fp32:16
# CONSTEXPR: ROWS=4, COLS=32
# GRID: 1
#
# KERNEL: histogram_kernel
# SIGNATURE: *i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=256, BINS=16
# GRID: cdiv(n, BLOCK)
#
# KERNEL: descriptor_matmul_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32, BLOCK_K=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: fstring_tuple_kernel
# SIGNATURE: *fp32:16,i32
# CONSTEXPR: BLOCK=64, SCALES=(1, 2, 3), ACT="relu"
# GRID: cdiv(n, BLOCK)
#
# KERNEL: libdevice_math_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# Language features beyond the tutorials: `return` inside a runtime `if`
# (an early exit in the kernel, value-returning early exits in a helper,
# under a constexpr `if`), tl.flip (both axes), tl.sort (both orders),
# tl.gather (both axes), tl.cat, tl.histogram with a mask, tl.assume,
# tensor descriptors (tl.make_tensor_descriptor, desc.load/store) in a
# k loop with ragged edges, tl.swizzle2d, f-strings in static_assert /
# static_print, a constexpr tuple iterated with tl.static_range, libdevice
# functions the PTX backend gets from the expand-libdevice pass.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def classify(v):
    # several returns of one type, each behind a runtime condition
    if v < 0:
        return -1
    if v == 0:
        return 0
    if v > 100:
        return 2
    return 1


@triton.jit
def early_exit_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, CHECK_BOUNDS: tl.constexpr):
    pid = tl.program_id(0)
    if CHECK_BOUNDS:
        if pid * BLOCK >= n:
            return
    tl.assume(pid >= 0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    first = tl.load(x_ptr + pid * BLOCK)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if tl.sum(x, axis=0) < 0:
        tl.store(out_ptr + offs, tl.zeros((BLOCK,), tl.int32) - 7, mask=mask)
        return
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), tl.int32) + classify(first), mask=mask)


@triton.jit
def shuffle_kernel(x_ptr, idx_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + r * COLS + c)
    idx = tl.load(idx_ptr + r * COLS + c)  # values in [0, ROWS) and [0, COLS)
    size: tl.constexpr = ROWS * COLS
    o = out_ptr + r * COLS + c
    tl.store(o, tl.flip(x, 1))
    tl.store(o + size, tl.flip(x, 0))
    tl.store(o + 2 * size, tl.sort(x))
    tl.store(o + 3 * size, tl.sort(x, descending=True))
    tl.store(o + 4 * size, tl.gather(x, idx % COLS, 1))
    tl.store(o + 5 * size, tl.gather(x, idx % ROWS, 0))
    row0 = tl.load(x_ptr + tl.arange(0, COLS))
    row1 = tl.load(x_ptr + COLS + tl.arange(0, COLS))
    both = tl.cat(row0, row1, can_reorder=True)
    tl.store(out_ptr + 6 * size + tl.arange(0, 2 * COLS), both)


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = tl.histogram(x, BINS, mask=mask)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def descriptor_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C[M, N] = A[M, K] @ B[K, N], row-major; the edges of M and N are
    # ragged (the descriptors pad loads with zeros and clip stores)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    pid_m, pid_n = tl.swizzle2d(tl.program_id(0), tl.program_id(1), tl.num_programs(0), tl.num_programs(1), 2)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = tl.load_tensor_descriptor(b_desc, [k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


@triton.jit
def fstring_tuple_kernel(x_ptr, n, BLOCK: tl.constexpr, SCALES: tl.constexpr, ACT: tl.constexpr):
    tl.static_assert(len(SCALES) == 3, f"expected 3 scales, got {len(SCALES)}: {SCALES}")
    tl.static_print(f"BLOCK={BLOCK} ACT={ACT!r}")
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.zeros_like(x)
    for i in tl.static_range(len(SCALES)):
        y += x * SCALES[i]
    if ACT == "relu":
        y = tl.maximum(y, 0.0)
    tl.store(x_ptr + offs, y, mask=mask)


@triton.jit
def libdevice_math_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    ax = tl.abs(x)
    o = out_ptr + offs * 12
    tl.store(o, libdevice.pow(ax, y), mask=mask)
    tl.store(o + 1, libdevice.log1p(ax), mask=mask)
    tl.store(o + 2, libdevice.expm1(x), mask=mask)
    tl.store(o + 3, libdevice.atan2(x, y), mask=mask)
    tl.store(o + 4, libdevice.round(x * 3), mask=mask)
    tl.store(o + 5, libdevice.trunc(x * 3), mask=mask)
    tl.store(o + 6, libdevice.fmod(x, y) + libdevice.pow(x, 3), mask=mask)
    tl.store(o + 7, libdevice.hypot(x, y), mask=mask)
    tl.store(o + 8, libdevice.isnan(x / y).to(tl.float32), mask=mask)
    # products, not sums: a sum of two results could cancel
    tl.store(o + 9, libdevice.sinh(x) * libdevice.cosh(y), mask=mask)
    tl.store(o + 10, libdevice.log10(ax) * libdevice.exp10(y), mask=mask)
    tl.store(o + 11, libdevice.asinh(x) * libdevice.atan(y), mask=mask)
