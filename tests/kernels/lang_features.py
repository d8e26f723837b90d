# KERNEL: scan_rows_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=64
# GRID: n_rows
#
# KERNEL: cumsum_2d_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,i32,i32
# CONSTEXPR: BM=8, BN=16
# GRID: 1
#
# KERNEL: argmax_combine_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=128
# GRID: n_rows
#
# KERNEL: topk_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: K=5, BLOCK=64
# GRID: n_rows
#
# KERNEL: softmax_keepdims_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=16, BN=128
# GRID: cdiv(M, BM)
#
# KERNEL: elementwise_extras_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,fp32,fp32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: umulhi_kernel
# SIGNATURE: *u32:16,*u32:16,*u32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: constexpr_kernel
# SIGNATURE: *fp32:16
# CONSTEXPR: N=8, MODE="twice"
# GRID: 1
#
# KERNEL: grid3d_kernel
# SIGNATURE: *i32:16
# CONSTEXPR: BLOCK=4
# GRID: 3, 4, 2
#
# KERNEL: pipelined_sum_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=512
# GRID: 1
#
# KERNEL: ptr_array_kernel
# SIGNATURE: *i64:16,*i32:16,*fp32:16
# CONSTEXPR: BLOCK=64
# GRID: n_arrays
#
# KERNEL: heuristics_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64, EVEN_N=False, BLOCK2=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nested_helpers_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: int64_volatile_kernel
# SIGNATURE: *fp32:16,*fp32:16,i64,i32
# CONSTEXPR: BLOCK=128
# GRID: n_rows
#
# KERNEL: optional_args_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: BLOCK=64, HAS_BIAS=True
# GRID: n_rows
#
# KERNEL: python_syntax_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: collatz_kernel
# SIGNATURE: *i32:16,*i32:16
# CONSTEXPR:
# GRID: n
#
# KERNEL: bool_kernel
# SIGNATURE: *fp32:16,*i1:16,*i1:16,i32,fp32
# CONSTEXPR: FLAG=True, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: debug_print_kernel
# SIGNATURE: *fp32:16,i32
# CONSTEXPR: BLOCK=16
# GRID: 2
#
# KERNEL: libdevice_extras_kernel
# SIGNATURE: *i32:16,*i64:16,*fp32:16,*i32:16,*i64:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: pdl_add_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK_SIZE=1024, USE_GDC=True
# GRID: cdiv(n_elements, BLOCK_SIZE)
#
# KERNEL: inline_asm_kernel
# SIGNATURE: *fp32:16,*i8:16,*fp16:16,*fp32:16,i32
# CONSTEXPR: BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# Language features as kernels in the wild use them, each kernel checked on
# the CPU by tests/python/test_lang_features.py: tl.associative_scan with
# @jit combine functions (add, mul, max, reverse), tl.cumsum on either axis
# and as a method, tl.reduce on a (value, index) tuple with a tie-breaking
# combine, top-k by repeated max(return_indices=True) in tl.static_range,
# keep_dims reductions, tl.where with Python scalars on both sides,
# tl.clamp, tl.fma, tl.full, tl.zeros_like, rounding-mode casts, bitcasts
# (tl.cast(bitcast=True), .to(bitcast=True)), `tensor.cast`, tl.umulhi,
# constexpr arithmetic (`X: tl.constexpr = N // 2`, a constexpr ternary),
# static_print/static_assert, constexpr if/elif/else on strings, 3-D grids
# with num_programs, tl.range(num_stages=) with multiple_of/max_contiguous
# and cache/eviction hints, a table of int64 addresses loaded as pointers,
# heuristics-style constexprs, helpers returning nested tuples with default
# and keyword arguments, int64 row offsets with volatile loads, optional
# pointer arguments (`if W is not None`), Python syntax (docstring, line
# continuations, runtime ternary, `not`, abs(), math.pi, module constexprs),
# a data-dependent while loop, bool (i1) tensors in and out, and
# tl.device_print / print (vprintf on the GPU), libdevice's bit counts
# (popc, clz, brev, ffs and their 64-bit forms), fast_* math, rounding
# conversions (llrint, float2int_rn) and bit views (float_as_int),
# programmatic dependent launch (tl.extra.cuda.gdc_wait, a no-op on the
# CPU) and tl.inline_asm_elementwise (GPU only: tanh.approx, two results,
# 8-bit x 4 and 16-bit x 2 packs).
import math

import triton
import triton.language as tl
from triton.language.extra import libdevice

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)
NEG_BIG = tl.constexpr(-1e30)


@triton.jit
def _add_combine(a, b):
    return a + b


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def scan_rows_kernel(x_ptr, s_ptr, p_ptr, m_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
    s = tl.associative_scan(x, 0, _add_combine)
    p = tl.associative_scan(tl.where(mask, x, 1.0), axis=0, combine_fn=_mul_combine)
    m = tl.associative_scan(x, 0, _max_combine, reverse=True)
    tl.store(s_ptr + row * stride + offs, s, mask=mask)
    tl.store(p_ptr + row * stride + offs, p, mask=mask)
    tl.store(m_ptr + row * stride + offs, m, mask=mask)


@triton.jit
def cumsum_2d_kernel(x_ptr, y_ptr, z_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    msk = (rm < M) & (rn < N)
    x = tl.load(x_ptr + rm * N + rn, mask=msk, other=0)
    tl.store(y_ptr + rm * N + rn, tl.cumsum(x, axis=1), mask=msk)
    tl.store(z_ptr + rm * N + rn, x.cumsum(0, reverse=True), mask=msk)


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    take1 = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(take1, v1, v2), tl.where(take1, i1, i2)


@triton.jit
def argmax_combine_kernel(x_ptr, out_v, out_i, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs, mask=offs < n_cols, other=-float("inf"))
    v, i = tl.reduce((x, offs), 0, _argmax_combine)
    tl.store(out_v + row, v)
    tl.store(out_i + row, i)
    tl.store(out_i + row + tl.num_programs(0), tl.argmax(x, axis=0))


@triton.jit
def topk_kernel(x_ptr, vals_ptr, idx_ptr, n_cols, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=float("-inf"))
    for k in tl.static_range(K):
        m, am = tl.max(x, axis=0, return_indices=True)
        tl.store(vals_ptr + row * K + k, m)
        tl.store(idx_ptr + row * K + k, am)
        x = tl.where(offs == am, float("-inf"), x)


@triton.jit
def softmax_keepdims_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    msk = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=msk, other=-float("inf"))
    mx = tl.max(x, axis=1, keep_dims=True)
    e = tl.exp(x - mx)
    den = tl.sum(e, axis=1, keep_dims=True)
    tl.static_assert(den.shape[1] == 1)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], e / den, mask=msk)


@triton.jit
def elementwise_extras_kernel(x_ptr, y_ptr, out_ptr, n, lo, hi, BLOCK: tl.constexpr, SCALE: tl.constexpr = 2.0):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    base = out_ptr + offs
    tl.store(base + 0 * n, tl.where(x > 0, 1.0, -1.0), mask=m)
    tl.store(base + 1 * n, tl.where(x > 0, x, 0), mask=m)
    tl.store(base + 2 * n, tl.clamp(x, lo, hi), mask=m)
    tl.store(base + 3 * n, tl.fma(x, y, 1.0), mask=m)
    tl.store(base + 4 * n, tl.full((BLOCK,), 3, tl.int32).to(tl.float32), mask=m)
    tl.store(base + 5 * n, tl.zeros_like(x) + SCALE * 2, mask=m)
    tl.store(base + 6 * n, x.to(tl.float16, fp_downcast_rounding="rtz").to(tl.float32), mask=m)
    bits = tl.cast(x, tl.int32, bitcast=True)
    tl.store(base + 7 * n, (bits & 0x7fffffff).to(tl.float32, bitcast=True), mask=m)
    tl.store(base + 8 * n, x.cast(tl.bfloat16).cast(tl.float32), mask=m)


@triton.jit
def umulhi_kernel(a_ptr, b_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m)
    b = tl.load(b_ptr + offs, mask=m)
    tl.store(o_ptr + offs, tl.umulhi(a, b), mask=m)


@triton.jit
def constexpr_kernel(out_ptr, N: tl.constexpr, MODE: tl.constexpr):
    HALF: tl.constexpr = N // 2
    Q = N * 3 + 1
    STEP: tl.constexpr = 2 if HALF > 2 else 1
    tl.static_print("constexpr_kernel: N =", N, "HALF =", HALF)
    tl.static_assert(HALF * 2 == N, "N must be even")
    acc = tl.zeros([N], dtype=tl.float32)
    for i in tl.static_range(0, HALF, STEP):
        acc += i
    if MODE == "twice":
        acc = acc * 2
    elif MODE == "neg":
        acc = -acc
    else:
        acc = acc + Q
    tl.store(out_ptr + tl.arange(0, N), acc)


@triton.jit
def grid3d_kernel(out_ptr, BLOCK: tl.constexpr):
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(axis=2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (z * ny + y) * nx + x
    v = lin * 1000 + nx * 100 + ny * 10 + nz
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + lin * BLOCK + offs, tl.full((BLOCK,), v, tl.int32) + offs * 0)


@triton.jit
def pipelined_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, n, BLOCK, num_stages=3):
        offs = start + tl.arange(0, BLOCK)
        offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0, eviction_policy="evict_first", cache_modifier=".cg")
    tl.store(out_ptr, tl.sum(acc), eviction_policy="evict_last")


@triton.jit
def ptr_array_kernel(ptrs, sizes, out_ptr, BLOCK: tl.constexpr):
    # each program sums one array given by its address
    pid = tl.program_id(0)
    base = tl.load(ptrs + pid).to(tl.pointer_type(tl.float32))
    n = tl.load(sizes + pid)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        o = off + tl.arange(0, BLOCK)
        acc += tl.load(base + o, mask=o < n, other=0.0)
    tl.store(out_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def heuristics_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVEN_N: tl.constexpr, BLOCK2: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        x = tl.load(x_ptr + offs)
        tl.store(y_ptr + offs, x * 2 + BLOCK2)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n)
        tl.store(y_ptr + offs, x * 2 + BLOCK2, mask=offs < n)


@triton.jit
def _stats(x, mask):
    s = tl.sum(tl.where(mask, x, 0.0), axis=0)
    mx = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    return s, mx


@triton.jit
def _stats2(x, mask, n, scale=1.0, SQUARE: tl.constexpr = False):
    if SQUARE:
        x = x * x
    s, mx = _stats(x, mask)
    return (s / n * scale, mx), s


@triton.jit
def nested_helpers_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    (mean, mx), s = _stats2(x, mask, n)
    (msq, _), _ = _stats2(x, mask, n, SQUARE=True, scale=2.0)
    tl.store(out_ptr + 0, mean)
    tl.store(out_ptr + 1, mx)
    tl.store(out_ptr + 2, s)
    tl.store(out_ptr + 3, msq)


@triton.jit
def int64_volatile_kernel(x_ptr, y_ptr, stride, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK).to(tl.int64)
    m = offs < n
    x = tl.load(x_ptr + pid * stride + offs, mask=m, volatile=True)
    tl.store(y_ptr + pid * stride + offs, x + 1, mask=m)


@triton.jit
def optional_args_kernel(X, Y, W, B, N, eps, BLOCK: tl.constexpr, HAS_BIAS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * N + cols, mask=m, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(m, x - mean, 0.)
    var = tl.sum(xc * xc, axis=0) / N
    y = xc / tl.sqrt(var + eps)
    if W is not None:
        y = y * tl.load(W + cols, mask=m)
    if HAS_BIAS:
        y += tl.load(B + cols, mask=m)
    tl.store(Y + row * N + cols, y, mask=m)


@triton.jit
def _scaled(x, y=None, FLAG: tl.constexpr = False, scale=1.0):
    if y is not None:
        x = x + y
    if FLAG:
        x = x * 2
    return x * scale


@triton.jit
def python_syntax_kernel(x_ptr, out_ptr, n, k, BLOCK: tl.constexpr):
    """out[j] rows: helpers with defaults, a runtime ternary, exp2 through a
    module constexpr, `not`, a constexpr ternary, math.pi."""
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + \
        tl.arange(0, BLOCK)
    m = (offs < n) & (offs >= 0)
    x = tl.load(x_ptr + offs,
                mask=m,
                other=0.,)
    assert BLOCK % 16 == 0, "BLOCK must be a multiple of 16"
    KK: tl.constexpr = BLOCK // 4 if BLOCK > 64 else BLOCK
    g = not (k > 3)
    rows = (_scaled(x), _scaled(x, x, FLAG=True), _scaled(x, scale=3.0), x if k > 0 else -x,
            tl.exp2(x * LOG2E), tl.where(x < 0, NEG_BIG, x), tl.where(g, x, 0.0), x + KK,
            abs(x) + math.pi)
    for i in tl.static_range(len(rows)):
        tl.store(out_ptr + i * n + offs, rows[i], mask=m)


@triton.jit
def collatz_kernel(x_ptr, out_ptr):
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    steps = 0
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
    tl.store(out_ptr + pid, steps)


@triton.jit
def bool_kernel(x_ptr, keep_ptr, out_ptr, n, thresh, FLAG: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    keep = tl.load(keep_ptr + offs, mask=m, other=0)
    r = (x > thresh) & keep
    if FLAG:
        r = r | (x < -thresh)
    tl.store(out_ptr + offs, r, mask=m)


@triton.jit
def debug_print_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_print("x", x)
    print("n", n)
    tl.device_print("bits", (x > 0).to(tl.int32), offs.to(tl.int64), hex=True)


@triton.jit
def libdevice_extras_kernel(i_ptr, l_ptr, f_ptr, io_ptr, lo_ptr, fo_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(i_ptr + offs, mask=m, other=0)
    l = tl.load(l_ptr + offs, mask=m, other=0)
    f = tl.load(f_ptr + offs, mask=m, other=1.0)
    irows = (libdevice.popc(i), libdevice.clz(i), libdevice.brev(i), libdevice.ffs(i), libdevice.popcll(l),
             libdevice.clzll(l), libdevice.ffsll(l), libdevice.float_as_int(f), libdevice.float2int_rn(f * 10))
    for r in tl.static_range(len(irows)):
        tl.store(io_ptr + r * n + offs, irows[r], mask=m)
    tl.store(lo_ptr + offs, libdevice.brevll(l), mask=m)
    tl.store(lo_ptr + n + offs, libdevice.llrint(f * 10), mask=m)
    frows = (libdevice.fast_expf(f), libdevice.fast_logf(tl.abs(f)), libdevice.fast_dividef(f, 3.0),
             libdevice.fast_powf(tl.abs(f), 1.5), libdevice.int_as_float(libdevice.float_as_int(f)),
             tl.math.log1p(tl.abs(f)), tl.math.max(f, 0.5))  # Triton 2's tl.math names
    for r in tl.static_range(len(frows)):
        tl.store(fo_ptr + r * n + offs, frows[r], mask=m)


@triton.jit
def pdl_add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr, USE_GDC: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    if USE_GDC:
        tl.extra.cuda.gdc_wait()
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    if USE_GDC:
        tl.extra.cuda.gdc_launch_dependents()
    tl.store(output_ptr + offsets, x + y, mask=mask)


@triton.jit
def _fast_tanh(x):
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def inline_asm_kernel(x_ptr, b_ptr, h_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    s, d = tl.inline_asm_elementwise("add.s32 $0, $2, $3;\n\tsub.s32 $1, $2, $3;", "=r,=r,r,r", [offs, 7],
                                     dtype=(tl.int32, tl.int32), is_pure=True, pack=1)
    b = tl.load(b_ptr + offs, mask=m)
    b2 = tl.inline_asm_elementwise("xor.b32 $0, $1, 0x80808080;", "=r,r", [b], dtype=tl.int8, is_pure=True, pack=4)
    h = tl.load(h_ptr + offs, mask=m)
    h2 = tl.inline_asm_elementwise("add.rn.f16x2 $0, $1, $1;", "=r,r", [h], dtype=tl.float16, is_pure=True, pack=2)
    y = _fast_tanh(x) + s + d + b2 + h2.to(tl.float32)
    tl.store(out_ptr + offs, y, mask=m)
