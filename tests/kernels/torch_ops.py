# KERNEL: strided_binary_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,fp32
# CONSTEXPR: OP="add", COMPUTE_DTYPE=tl.float32, BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# KERNEL: strided_binary_kernel
# SIGNATURE: *fp16,*fp16,*fp16:16,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,fp32
# CONSTEXPR: OP="maximum", COMPUTE_DTYPE=tl.float32, BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: strided_binary_kernel
# SIGNATURE: *fp32,*fp32,*fp32:16,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,i64,fp32
# CONSTEXPR: OP="copysign", COMPUTE_DTYPE=tl.float32, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: reduce_dim_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: OP="sum", BLOCK_R=32, BLOCK_I=32
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: reduce_dim_kernel
# SIGNATURE: *bf16:16,*bf16:16,i32,i32
# CONSTEXPR: OP="max", BLOCK_R=16, BLOCK_I=64
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: arg_reduce_dim_kernel
# SIGNATURE: *fp32:16,*i64:16,i32,i32
# CONSTEXPR: IS_MAX=True, BLOCK_R=32, BLOCK_I=16
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: arg_reduce_dim_kernel
# SIGNATURE: *fp16:16,*i64:16,i32,i32
# CONSTEXPR: IS_MAX=False, BLOCK_R=64, BLOCK_I=8
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: scan_dim_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: OP="cumsum", ACC_DTYPE=tl.float32, BLOCK_R=32, BLOCK_I=16
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: scan_dim_kernel
# SIGNATURE: *i32:16,*i64:16,i32,i32
# CONSTEXPR: OP="cumsum", ACC_DTYPE=tl.int64, BLOCK_R=16, BLOCK_I=32
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: scan_dim_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: OP="cumprod", ACC_DTYPE=tl.float32, BLOCK_R=8, BLOCK_I=32
# GRID: outer, cdiv(inner, BLOCK_I)
#
# KERNEL: var_mean_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,i64,i32,i32
# CONSTEXPR: BLOCK_N=256
# GRID: n_rows
#
# KERNEL: index_select_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i64,i64,i32,i32
# CONSTEXPR: BLOCK_K=16, BLOCK_N=64
# GRID: cdiv(n_index, BLOCK_K), cdiv(n_cols, BLOCK_N)
#
# KERNEL: gather_dim1_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i64,i64,i64,i32,i32
# CONSTEXPR: BLOCK_M=16, BLOCK_K=32
# GRID: cdiv(n_rows, BLOCK_M), cdiv(n_index, BLOCK_K)
#
# KERNEL: scatter_add_dim0_kernel
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=32
# GRID: cdiv(n_rows, BLOCK_M), cdiv(n_cols, BLOCK_N)
#
# KERNEL: where_kernel
# SIGNATURE: *i1:16,*fp16:16,*fp16:16,*fp16:16,i64,i32,fp32
# CONSTEXPR: SCALAR_OTHER=False, INVERT=False, BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# KERNEL: where_kernel
# SIGNATURE: *i1:16,*fp32:16,*fp32:16,*fp32:16,i64,i32,fp32
# CONSTEXPR: SCALAR_OTHER=True, INVERT=True, BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: div_mod_pow_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: IS_FLOAT=False, BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: div_mod_pow_kernel
# SIGNATURE: *i64:16,*i64:16,*i64:16,*i64:16,*i64:16,*i64:16,i32
# CONSTEXPR: IS_FLOAT=False, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: div_mod_pow_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: IS_FLOAT=True, BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bitwise_kernel
# SIGNATURE: *i8:16,*i8:16,*i8:16,i32
# CONSTEXPR: BITS=8, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bitwise_kernel
# SIGNATURE: *i16:16,*i16:16,*i16:16,i32
# CONSTEXPR: BITS=16, BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bitwise_kernel
# SIGNATURE: *u8:16,*u8:16,*u8:16,i32
# CONSTEXPR: BITS=8, BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: tril_triu_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i64,i64,i32
# CONSTEXPR: UPPER=False, BLOCK_M=32, BLOCK_N=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), batch
#
# KERNEL: tril_triu_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i64,i64,i32
# CONSTEXPR: UPPER=True, BLOCK_M=16, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), batch
#
# KERNEL: flip_dim_kernel
# SIGNATURE: *fp32:16,*fp32:16,i64,i32,i32
# CONSTEXPR: BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: pad_constant_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,fp32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=64
# GRID: cdiv(out_rows, BLOCK_M), cdiv(out_cols, BLOCK_N)
#
# KERNEL: isin_kernel
# SIGNATURE: *i64:16,*i64:16,*i1:16,i32,i32
# CONSTEXPR: INVERT=False, BLOCK=128, BLOCK_T=32
# GRID: cdiv(n, BLOCK)
#
# KERNEL: isin_kernel
# SIGNATURE: *i32:16,*i32:16,*i1:16,i32,i32
# CONSTEXPR: INVERT=True, BLOCK=256, BLOCK_T=16
# GRID: cdiv(n, BLOCK)
#
# KERNEL: one_hot_kernel
# SIGNATURE: *i64:16,*i64:16,i32,i32
# CONSTEXPR: BLOCK_N=32, BLOCK_C=16
# GRID: cdiv(n, BLOCK_N), cdiv(num_classes, BLOCK_C)
#
# KERNEL: baddbmm_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i64,i32,i32,i64,i32,i32,i64,i32,i32,i64,i32,i32,fp32,fp32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32, BLOCK_K=32
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), batch
#
# KERNEL: baddbmm_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i64,i32,i32,i64,i32,i32,i64,i32,i32,i64,i32,i32,fp32,fp32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=64, BLOCK_K=16
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), batch
#
# KERNEL: softmax_dim0_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32
# GRID: min(cdiv(N, BLOCK_N), 8)
#
# KERNEL: softmax_dim0_kernel
# SIGNATURE: *bf16:16,*bf16:16,i32,i32
# CONSTEXPR: BLOCK_M=64, BLOCK_N=16
# GRID: min(cdiv(N, BLOCK_N), 8)
#
# Kernels in the style of torch-operator libraries written in Triton
# (FlagGems, torch inductor's fallbacks): an element-wise binary op over
# N-d strided tensors with broadcasting (a flat int64 index unravelled with
# // and % over the shape, zero strides, a copysign through bitcasts, a
# NaN-propagating maximum); a reduction over an arbitrary dim seen as
# [outer, reduce, inner] with tl.reduce and user @jit combines; argmax /
# argmin over a dim with ties to the lowest index and NaN as the extreme
# (a tuple combine); cumsum / cumprod over a dim with a carry across
# blocks (int32 in, int64 out); var_mean by Welford merging of per-block
# statistics with a runtime correction; index_select, gather along dim 1
# and scatter_add along dim 0 (tl.atomic_add) with int64 indices;
# where / masked_fill with a tensor or scalar branch and a broadcast bool
# condition; floor_divide / remainder / fmod / pow with Python's signs on
# int32, int64 and float32 (integer pow by squaring in tl.static_range);
# bitwise ops and shifts on int8 / int16 / uint8; tril / triu of batched
# matrices on a 3-D grid with a runtime diagonal; flip along a dim; a
# constant pad; isin over a loop of test blocks; one_hot through
# tl.broadcast_to and tl.reshape; a batched addmm beta*C + alpha*(A@B)
# with a broadcast C; a column-wise softmax (dim 0) over a grid-stride
# loop bounded by tl.num_programs.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _unravel4(idx, s1, s2, s3):
    # a flat index into a [s0, s1, s2, s3] shape: the four coordinates
    i3 = idx % s3
    idx = idx // s3
    i2 = idx % s2
    idx = idx // s2
    i1 = idx % s1
    i0 = idx // s1
    return i0, i1, i2, i3


@triton.jit
def strided_binary_kernel(
    a_ptr, b_ptr, out_ptr, n, s1, s2, s3,
    a_st0, a_st1, a_st2, a_st3, b_st0, b_st1, b_st2, b_st3, o_st0, o_st1, o_st2, o_st3,
    alpha,
    OP: tl.constexpr, COMPUTE_DTYPE: tl.constexpr, BLOCK: tl.constexpr,
):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    i0, i1, i2, i3 = _unravel4(offs, s1, s2, s3)
    a_offs = i0 * a_st0 + i1 * a_st1 + i2 * a_st2 + i3 * a_st3
    b_offs = i0 * b_st0 + i1 * b_st1 + i2 * b_st2 + i3 * b_st3
    a = tl.load(a_ptr + a_offs, mask=mask, other=0).to(COMPUTE_DTYPE)
    b = tl.load(b_ptr + b_offs, mask=mask, other=0).to(COMPUTE_DTYPE)
    if OP == "add":
        out = a + alpha * b
    elif OP == "maximum":
        out = tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)
    else:
        # copysign(a, b): the magnitude bits of a, the sign bit of b
        a_bits = a.to(tl.int32, bitcast=True)
        b_bits = b.to(tl.int32, bitcast=True)
        out = ((a_bits & 0x7FFFFFFF) | ((b_bits >> 31) << 31)).to(tl.float32, bitcast=True)
    o_offs = i0 * o_st0 + i1 * o_st1 + i2 * o_st2 + i3 * o_st3
    tl.store(out_ptr + o_offs, out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _sum_combine(a, b):
    return a + b


@triton.jit
def _max_nan_combine(a, b):
    return tl.where((a > b) | (a != a), a, b)


@triton.jit
def reduce_dim_kernel(inp, out, R, inner, OP: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    # the input seen as [outer, R, inner]: program (o, i-block) reduces over R
    pid_o = tl.program_id(0).to(tl.int64)
    pid_i = tl.program_id(1)
    i_offs = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    i_mask = i_offs < inner
    base = inp + pid_o * R * inner
    if OP == "sum":
        acc = tl.zeros([BLOCK_I], dtype=tl.float32)
    else:
        acc = tl.full([BLOCK_I], float("-inf"), dtype=tl.float32)
    for r0 in tl.range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        m = (r[:, None] < R) & i_mask[None, :]
        ptrs = base + r[:, None].to(tl.int64) * inner + i_offs[None, :]
        if OP == "sum":
            x = tl.load(ptrs, mask=m, other=0.0).to(tl.float32)
            acc = _sum_combine(acc, tl.reduce(x, 0, _sum_combine))
        else:
            x = tl.load(ptrs, mask=m, other=float("-inf")).to(tl.float32)
            acc = _max_nan_combine(acc, tl.reduce(x, axis=0, combine_fn=_max_nan_combine))
    tl.store(out + pid_o * inner + i_offs, acc.to(out.dtype.element_ty), mask=i_mask)


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    nan1 = v1 != v1
    nan2 = v2 != v2
    better = (v1 > v2) | (nan1 & ~nan2)
    same = (v1 == v2) | (nan1 & nan2)
    pick1 = better | (same & (i1 < i2))
    return tl.where(pick1, v1, v2), tl.where(pick1, i1, i2)


@triton.jit
def _argmin_combine(v1, i1, v2, i2):
    nan1 = v1 != v1
    nan2 = v2 != v2
    better = (v1 < v2) | (nan1 & ~nan2)
    same = (v1 == v2) | (nan1 & nan2)
    pick1 = better | (same & (i1 < i2))
    return tl.where(pick1, v1, v2), tl.where(pick1, i1, i2)


@triton.jit
def arg_reduce_dim_kernel(inp, out, R, inner, IS_MAX: tl.constexpr, BLOCK_R: tl.constexpr,
                          BLOCK_I: tl.constexpr):
    pid_o = tl.program_id(0).to(tl.int64)
    pid_i = tl.program_id(1)
    i_offs = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    i_mask = i_offs < inner
    base = inp + pid_o * R * inner
    if IS_MAX:
        pad = float("-inf")
    else:
        pad = float("inf")
    best_v = tl.full([BLOCK_I], pad, dtype=tl.float32)
    best_i = tl.full([BLOCK_I], R, dtype=tl.int64)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        m = (r[:, None] < R) & i_mask[None, :]
        x = tl.load(base + r[:, None].to(tl.int64) * inner + i_offs[None, :], mask=m, other=pad).to(tl.float32)
        # padding lanes get an index past every real one, so ties never pick them
        idx = tl.broadcast_to(tl.where(r < R, r, R).to(tl.int64)[:, None], (BLOCK_R, BLOCK_I))
        if IS_MAX:
            bv, bi = tl.reduce((x, idx), 0, _argmax_combine)
            best_v, best_i = _argmax_combine(best_v, best_i, bv, bi)
        else:
            bv, bi = tl.reduce((x, idx), 0, _argmin_combine)
            best_v, best_i = _argmin_combine(best_v, best_i, bv, bi)
    tl.store(out + pid_o * inner + i_offs, best_i, mask=i_mask)


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def scan_dim_kernel(inp, out, R, inner, OP: tl.constexpr, ACC_DTYPE: tl.constexpr, BLOCK_R: tl.constexpr,
                    BLOCK_I: tl.constexpr):
    # a scan over R of the [outer, R, inner] view, block by block with a carry
    pid_o = tl.program_id(0).to(tl.int64)
    pid_i = tl.program_id(1)
    i_offs = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    i_mask = i_offs < inner
    base = pid_o * R * inner
    if OP == "cumsum":
        carry = tl.zeros([BLOCK_I], dtype=ACC_DTYPE)
    else:
        carry = tl.full([BLOCK_I], 1, dtype=ACC_DTYPE)
    for r0 in tl.range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        m = (r[:, None] < R) & i_mask[None, :]
        offs = base + r[:, None].to(tl.int64) * inner + i_offs[None, :]
        if OP == "cumsum":
            x = tl.load(inp + offs, mask=m, other=0).to(ACC_DTYPE)
            y = tl.cumsum(x, axis=0) + carry[None, :]
            carry += tl.sum(x, axis=0)
        else:
            x = tl.load(inp + offs, mask=m, other=1).to(ACC_DTYPE)
            y = tl.cumprod(x, axis=0) * carry[None, :]
            carry = carry * tl.reduce(x, 0, _mul_combine)
        tl.store(out + offs, y.to(out.dtype.element_ty), mask=m)


@triton.jit
def _welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    frac = tl.where(n == 0.0, 0.0, n_b / n)
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * n_a * frac, n


@triton.jit
def var_mean_kernel(x_ptr, var_ptr, mean_ptr, row_stride, n_cols, correction, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_ptr += row * row_stride
    mean = 0.0
    m2 = 0.0
    count = 0.0
    for c0 in range(0, n_cols, BLOCK_N):
        cols = c0 + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        ones = tl.where(mask, 1.0, 0.0)
        b_mean, b_m2, b_n = tl.reduce((x, tl.zeros_like(x), ones), 0, _welford_combine)
        mean, m2, count = _welford_combine(mean, m2, count, b_mean, b_m2, b_n)
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, m2 / (count - correction))


@triton.jit
def index_select_kernel(inp, index, out, inp_stride, out_stride, n_index, n_cols,
                        BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    # out[k, :] = inp[index[k], :] (dim 0)
    k = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    c = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    k_mask = k < n_index
    rows = tl.load(index + k, mask=k_mask, other=0)
    m = k_mask[:, None] & (c[None, :] < n_cols)
    vals = tl.load(inp + rows[:, None] * inp_stride + c[None, :], mask=m)
    tl.store(out + k[:, None].to(tl.int64) * out_stride + c[None, :], vals, mask=m)


@triton.jit
def gather_dim1_kernel(inp, index, out, inp_stride, idx_stride, out_stride, n_rows, n_index,
                       BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    # out[i, j] = inp[i, index[i, j]]
    i = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
    j = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    m = (i[:, None] < n_rows) & (j[None, :] < n_index)
    cols = tl.load(index + i[:, None] * idx_stride + j[None, :], mask=m, other=0)
    vals = tl.load(inp + i[:, None] * inp_stride + cols, mask=m, other=0.0)
    tl.store(out + i[:, None] * out_stride + j[None, :], vals, mask=m)


@triton.jit
def scatter_add_dim0_kernel(out, index, src, n_rows, n_cols, out_rows, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr):
    # out[index[i, j], j] += src[i, j]; index and src are contiguous [n_rows, n_cols]
    i = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    j = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (i[:, None] < n_rows) & (j[None, :] < n_cols)
    offs = i[:, None].to(tl.int64) * n_cols + j[None, :]
    dst = tl.load(index + offs, mask=m, other=0)
    tl.device_assert((dst >= 0) & (dst < out_rows), "index out of bounds")
    v = tl.load(src + offs, mask=m, other=0.0)
    tl.atomic_add(out + dst * n_cols + j[None, :], v, mask=m, sem="relaxed")


@triton.jit
def where_kernel(cond_ptr, x_ptr, y_ptr, out_ptr, n, n_cols, y_scalar, SCALAR_OTHER: tl.constexpr,
                 INVERT: tl.constexpr, BLOCK: tl.constexpr):
    # out = where(cond, x, y) with cond a [n_cols] row broadcast over the rows;
    # SCALAR_OTHER: y is the float y_scalar (masked_fill when INVERT)
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    c = tl.load(cond_ptr + offs % n_cols, mask=mask, other=0).to(tl.int1)
    if INVERT:
        c = c == 0
    x = tl.load(x_ptr + offs, mask=mask)
    if SCALAR_OTHER:
        out = tl.where(c, x, y_scalar)
    else:
        y = tl.load(y_ptr + offs, mask=mask)
        out = tl.where(c, x, y)
    tl.store(out_ptr + offs, out, mask=mask)


@triton.jit
def _int_floor_div_mod(a, b):
    q = a // b
    r = a % b
    fix = (r != 0) & ((r < 0) != (b < 0))
    return tl.where(fix, q - 1, q), tl.where(fix, r + b, r)


@triton.jit
def _float_floor_div_mod(a, b):
    # torch's div_floor_floating and remainder, from fmod
    mod = a % b
    div = (a - mod) / b
    fix = (mod != 0) & ((b < 0) != (mod < 0))
    div = tl.where(fix, div - 1.0, div)
    rem = tl.where(fix, mod + b, mod)
    floor_div = tl.floor(div)
    floor_div = tl.where(div - floor_div > 0.5, floor_div + 1.0, floor_div)
    return floor_div, rem


@triton.jit
def _int_pow(base, exp):
    result = tl.zeros_like(base) + 1
    for _ in tl.static_range(6):
        result = tl.where((exp & 1) != 0, result * base, result)
        base = base * base
        exp = exp >> 1
    return result


@triton.jit
def div_mod_pow_kernel(a_ptr, b_ptr, fdiv_ptr, rem_ptr, fmod_ptr, pow_ptr, n, IS_FLOAT: tl.constexpr,
                       BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    if IS_FLOAT:
        q, r = _float_floor_div_mod(a, b)
        p = libdevice.pow(a, b)
    else:
        q, r = _int_floor_div_mod(a, b)
        p = _int_pow(a, b)
    tl.store(fdiv_ptr + offs, q, mask=mask)
    tl.store(rem_ptr + offs, r, mask=mask)
    tl.store(fmod_ptr + offs, a % b, mask=mask)
    tl.store(pow_ptr + offs, p, mask=mask)


@triton.jit
def bitwise_kernel(a_ptr, b_ptr, out_ptr, n, BITS: tl.constexpr, BLOCK: tl.constexpr):
    # six results, one after the other: &, |, ^, ~a, a << s, a >> s with s = b mod BITS
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    s = b & (BITS - 1)
    results = (a & b, a | b, a ^ b, ~a, a << s, a >> s)
    for k in tl.static_range(6):
        tl.store(out_ptr + k * n + offs, results[k], mask=mask)


@triton.jit
def tril_triu_kernel(inp, out, M, N, batch_stride, row_stride, diagonal, UPPER: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    b = tl.program_id(2).to(tl.int64)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    offs = b * batch_stride + rows[:, None] * row_stride + cols[None, :]
    x = tl.load(inp + offs, mask=m, other=0.0)
    if UPPER:
        keep = cols[None, :] - rows[:, None] >= diagonal
    else:
        keep = cols[None, :] - rows[:, None] <= diagonal
    tl.store(out + offs, tl.where(keep, x, 0.0), mask=m)


@triton.jit
def flip_dim_kernel(inp, out, n, R, inner, BLOCK: tl.constexpr):
    # out[o, R - 1 - r, i] = inp[o, r, i]
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    i = offs % inner
    r = (offs // inner) % R
    o = offs // (inner * R)
    src = (o * R + (R - 1 - r)) * inner + i
    tl.store(out + offs, tl.load(inp + src, mask=mask), mask=mask)


@triton.jit
def pad_constant_kernel(inp, out, in_rows, in_cols, out_rows, out_cols, pad_top, pad_left, value,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    c = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    out_mask = (r[:, None] < out_rows) & (c[None, :] < out_cols)
    sr = r - pad_top
    sc = c - pad_left
    in_mask = (sr[:, None] >= 0) & (sr[:, None] < in_rows) & (sc[None, :] >= 0) & (sc[None, :] < in_cols)
    x = tl.load(inp + sr[:, None] * in_cols + sc[None, :], mask=in_mask & out_mask, other=value)
    tl.store(out + r[:, None] * out_cols + c[None, :], x, mask=out_mask)


@triton.jit
def isin_kernel(elements, test, out, n, n_test, INVERT: tl.constexpr, BLOCK: tl.constexpr,
                BLOCK_T: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(elements + offs, mask=mask, other=0)
    found = tl.zeros([BLOCK], dtype=tl.int1)
    for t0 in tl.range(0, n_test, BLOCK_T):
        t_offs = t0 + tl.arange(0, BLOCK_T)
        t = tl.load(test + t_offs, mask=t_offs < n_test, other=0)
        eq = (x[:, None] == t[None, :]) & (t_offs < n_test)[None, :]
        found = found | (tl.max(eq.to(tl.int8), axis=1) > 0)
    if INVERT:
        found = ~found
    tl.store(out + offs, found, mask=mask)


@triton.jit
def one_hot_kernel(index, out, n, num_classes, BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cls = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    idx = tl.load(index + rows, mask=rows < n, other=-1)
    hot = tl.broadcast_to(idx[:, None], (BLOCK_N, BLOCK_C)) == cls[None, :]
    flat_offs = tl.reshape(rows[:, None].to(tl.int64) * num_classes + cls[None, :], (BLOCK_N * BLOCK_C,))
    flat_mask = tl.reshape((rows[:, None] < n) & (cls[None, :] < num_classes), (BLOCK_N * BLOCK_C,))
    tl.store(out + flat_offs, tl.reshape(hot.to(tl.int64), (BLOCK_N * BLOCK_C,)), mask=flat_mask)


@triton.jit
def _tile_coords(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    num_pid_n = tl.cdiv(N, BLOCK_N)
    return pid // num_pid_n, pid % num_pid_n


@triton.jit
def baddbmm_kernel(
    c_ptr, a_ptr, b_ptr, out_ptr, M, N, K,
    stride_cb, stride_cm, stride_cn, stride_ab, stride_am, stride_ak,
    stride_bb, stride_bk, stride_bn, stride_ob, stride_om, stride_on,
    beta, alpha,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    # out[b] = beta * C[b] + alpha * (A[b] @ B[b]); C may broadcast (zero strides)
    pid_m, pid_n = _tile_coords(tl.program_id(0), M, N, BLOCK_M, BLOCK_N)
    bid = tl.program_id(1).to(tl.int64)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + bid * stride_ab + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + bid * stride_bb + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    m = (rm[:, None] < M) & (rn[None, :] < N)
    c = tl.load(c_ptr + bid * stride_cb + rm[:, None] * stride_cm + rn[None, :] * stride_cn, mask=m,
                other=0.0).to(tl.float32)
    out = beta * c + alpha * acc
    tl.store(out_ptr + bid * stride_ob + rm[:, None] * stride_om + rn[None, :] * stride_on,
             out.to(out_ptr.dtype.element_ty), mask=m)


@triton.jit
def softmax_dim0_kernel(inp, out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # softmax over the rows of each column, column blocks taken grid-stride
    for col0 in range(tl.program_id(0) * BLOCK_N, N, tl.num_programs(0) * BLOCK_N):
        cols = col0 + tl.arange(0, BLOCK_N)
        c_mask = cols < N
        m_run = tl.full([BLOCK_N], float("-inf"), dtype=tl.float32)
        z_run = tl.zeros([BLOCK_N], dtype=tl.float32)
        for r0 in range(0, M, BLOCK_M):
            rows = r0 + tl.arange(0, BLOCK_M)
            m = (rows[:, None] < M) & c_mask[None, :]
            x = tl.load(inp + rows[:, None].to(tl.int64) * N + cols[None, :], mask=m,
                        other=float("-inf")).to(tl.float32)
            m_new = tl.maximum(m_run, tl.max(x, axis=0))
            # a column of -inf so far: keep the scale finite
            scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m_run - m_new))
            z_run = z_run * scale + tl.sum(tl.exp(x - m_new[None, :]), axis=0)
            m_run = m_new
        for r0 in range(0, M, BLOCK_M):
            rows = r0 + tl.arange(0, BLOCK_M)
            m = (rows[:, None] < M) & c_mask[None, :]
            offs = rows[:, None].to(tl.int64) * N + cols[None, :]
            x = tl.load(inp + offs, mask=m, other=float("-inf")).to(tl.float32)
            y = tl.exp(x - m_run[None, :]) / z_run[None, :]
            tl.store(out + offs, y.to(out.dtype.element_ty), mask=m)
