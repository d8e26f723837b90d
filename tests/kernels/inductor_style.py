# KERNEL: triton_poi_fused_add_relu_0
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: XBLOCK=128
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_poi_fused_transpose_1
# SIGNATURE: *fp16:16,*fp32:16,i32,i32
# CONSTEXPR: YBLOCK=8, XBLOCK=32
# GRID: cdiv(xnumel, XBLOCK), 2, 3
#
# KERNEL: triton_per_fused__softmax_2
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: XBLOCK=8
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_red_fused_native_layer_norm_3
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: XBLOCK=4, RBLOCK=64
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_red_fused_native_layer_norm_3
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16,*fp32:16,*bf16:16,i32,i32:16
# CONSTEXPR: XBLOCK=1, RBLOCK=512
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_red_fused_argmax_max_sum_4
# SIGNATURE: *fp32:16,*i64:16,*fp32:16,*fp32:16,*i1,i32,i32
# CONSTEXPR: XBLOCK=2, RBLOCK=32
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_poi_fused_embedding_floordiv_5
# SIGNATURE: *i32:16,*fp32:16,*i32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: XBLOCK=128
# GRID: cdiv(1000, XBLOCK)
#
# KERNEL: triton_poi_fused_bucketize_6
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,*i64:16,i32
# CONSTEXPR: XBLOCK=64
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_poi_fused_rand_lt_mul_7
# SIGNATURE: *i64:16,*fp32:16,*i1,*fp32:16,i32,i32
# CONSTEXPR: XBLOCK=256
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_per_fused_cumsum_index_8
# SIGNATURE: *i32:16,*fp32:16,*i64:16,i32,i32
# CONSTEXPR: XBLOCK=4
# GRID: cdiv(xnumel, XBLOCK)
#
# Kernels as torch inductor generates them: xindex/xmask/rindex/rmask
# idioms, parameters reassigned to their static sizes (`xnumel = 48`), an
# annotated local constexpr (`RBLOCK: tl.constexpr = 128`), 2-D pointwise
# tiles over program_id(1) + program_id(2) * num_programs(1), looped
# reductions carrying `_tmp` accumulators through tl.where, a local copy of
# triton_helpers (maximum/minimum with NaN propagation through a @jit
# `is_floating` returning a constexpr, welford_reduce/welford_combine,
# max_with_index with `and`/`not` on tensors, `any`, floor division and
# remainder on C-truncating `//` and `%`, bucketize's binary search with a
# dtype argument), int64 xindex, embedding index wrap with
# tl.device_assert, tl.rand on a seed loaded from a seed tensor at an
# offset, and a 1-tuple associative_scan unpacked `tmp3, = ...`.

import triton
import triton.language as tl
from triton.language.extra import libdevice

tl_math = tl.math


# A subset of torch._inductor.runtime.triton_helpers, as inductor's
# generated kernels call it.
@triton.jit
def promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)


@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()


@triton.jit
def maximum(a, b):
    mask = a > b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def minimum(a, b):
    mask = a < b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)


@triton.jit
def min2(a, dim):
    return tl.reduce(a, dim, minimum)


@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    mask = a_value > b_value
    equal = a_value == b_value
    if is_floating(a_value):
        a_isnan = a_value != a_value
        b_isnan = b_value != b_value
        mask |= a_isnan and not b_isnan
        # Consider NaNs as equal
        equal |= a_isnan and b_isnan
    # Prefer lowest index if values are equal
    mask |= equal & (a_index < b_index)
    return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)


@triton.jit
def max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, maximum_with_index)


@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        new_weight = tl.full(weight.shape, 1, weight.dtype)
        new_mean = value
        new_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        new_weight = weight + 1
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (value - new_mean)
    return new_mean, new_m2, new_weight


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)


@triton.jit
def div_floor_integer(a, b):
    # NOTE: a // b is C division, but we want floor division
    quot = a // b
    remainder = a % b
    fixed = tl.where(remainder != 0, quot - 1, quot)
    return tl.where((a < 0) != (b < 0), fixed, quot)


@triton.jit
def remainder_integer(a, b):
    # NOTE: a % b matches C division, not floor division
    remainder = a % b
    return tl.where((remainder != 0) & ((a < 0) != (b < 0)), remainder + b, remainder)


@triton.jit
def _any_combine(a, b):
    return a | b


@triton.jit
def any(a, dim):
    return tl.reduce(a, dim, _any_combine)


@triton.jit
def bucketize_binary_search(values, offsets_ptr, indexing_dtype, right, OFFSETS_SIZE: int, BLOCK_SHAPE):
    low = tl.zeros(BLOCK_SHAPE, dtype=indexing_dtype)
    high = tl.full(BLOCK_SHAPE, OFFSETS_SIZE, dtype=indexing_dtype)
    full_range = OFFSETS_SIZE + 1
    while full_range > 1:
        mid = (high + low) // 2
        mask = mid < OFFSETS_SIZE
        bucket_upper_bound = tl.load(offsets_ptr + mid, mask=mask, other=0.0)
        if right:
            is_above = values >= bucket_upper_bound
        else:
            is_above = values > bucket_upper_bound
        low = tl.where(is_above & mask, mid + 1, low)
        high = tl.where(is_above, high, mid)
        full_range = (full_range + 1) // 2
    return low


# --- generated-style kernels ----------------------------------------------

@triton.jit
def triton_poi_fused_add_relu_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = xindex % 96
    tmp0 = tl.load(in_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = maximum(tmp3, tmp2)
    tmp5 = 0.5
    tmp6 = tmp4 * tmp5
    tmp7 = libdevice.tanh(tmp6)
    tl.store(out_ptr0 + (x2), tmp7, xmask)


@triton.jit
def triton_poi_fused_transpose_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 48
    xnumel = 200
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[None, :]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = yindex % 16
    y1 = (yindex // 16)
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + (16*x2) + (3200*y1)), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tmp1 * tmp1
    tl.store(out_ptr0 + (x2 + (200*y3)), tmp2, xmask & ymask)


@triton.jit
def triton_per_fused__softmax_2(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK: tl.constexpr):
    xnumel = 37
    rnumel = 100
    RBLOCK: tl.constexpr = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    roffset = 0
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (100*x0)), rmask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, float("-inf"))
    tmp4 = max2(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = tl_math.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
    tmp9 = tl.where(rmask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = tmp6 / tmp10
    tl.store(out_ptr2 + (r1 + (100*x0)), tmp11, rmask & xmask)


@triton.jit
def triton_red_fused_native_layer_norm_3(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr3, xnumel, rnumel,
                                         XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(
            tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0
        )
        tmp2_mean = tl.where(rmask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(rmask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(rmask & xmask, tmp2_weight_next, tmp2_weight)
    tmp2_tmp, tmp3_tmp, tmp4_tmp = welford(
        tmp2_mean, tmp2_m2, tmp2_weight, 1
    )
    tmp2 = tmp2_tmp[:, None]
    tmp3 = tmp3_tmp[:, None]
    tmp4 = tmp4_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp3, xmask)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp5 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp13 = tl.load(in_ptr1 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tl.load(in_ptr2 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp6 = tmp5 - tmp2
        tmp7 = rnumel.to(tl.float32)
        tmp8 = tmp3 / tmp7
        tmp9 = 1e-05
        tmp10 = tmp8 + tmp9
        tmp11 = libdevice.rsqrt(tmp10)
        tmp12 = tmp6 * tmp11
        tmp14 = tmp12 * tmp13
        tmp16 = tmp14 + tmp15
        tmp17 = tmp16.to(tl.float32)
        tl.store(out_ptr3 + (r1 + (rnumel*x0)), tmp17, rmask & xmask)


@triton.jit
def triton_red_fused_argmax_max_sum_4(in_ptr0, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, rnumel,
                                      XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    _tmp2_index = tl.full([XBLOCK, RBLOCK], 9223372036854775807, tl.int64)
    _tmp4 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    _tmp6 = tl.full([XBLOCK, RBLOCK], False, tl.int1)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        _tmp2_next, _tmp2_index_next = maximum_with_index(
            _tmp2, _tmp2_index, tmp1, rindex
        )
        _tmp2 = tl.where(rmask & xmask, _tmp2_next, _tmp2)
        _tmp2_index = tl.where(rmask & xmask, _tmp2_index_next, _tmp2_index)
        tmp3 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(rmask & xmask, tmp5, _tmp4)
        tmp7 = tmp0 != tmp0
        tmp8 = tl.broadcast_to(tmp7, [XBLOCK, RBLOCK])
        _tmp6 = _tmp6 | tl.where(rmask & xmask, tmp8, False)
    _, tmp2_tmp = max_with_index(_tmp2, _tmp2_index, 1)
    tmp2 = tmp2_tmp[:, None]
    tmp9 = max2(_tmp2, 1)[:, None]
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    tmp6 = any(_tmp6, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp9, xmask)
    tl.store(out_ptr2 + (x0), tmp4, xmask)
    tl.store(out_ptr3 + (x0), tmp6, xmask)


@triton.jit
def triton_poi_fused_embedding_floordiv_5(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):
    xnumel = 1000
    xoffset = tl.program_id(0).to(tl.int64) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:].to(tl.int64)
    xmask = xindex < xnumel
    x0 = xindex % 40
    x1 = (xindex // 40)
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([XBLOCK], 50, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 50)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 50")
    tmp6 = tl.load(in_ptr1 + (x0 + (40*tmp4)), xmask)
    tl.store(out_ptr0 + (x2), tmp6, xmask)
    tmp7 = tl.load(in_ptr2 + (x2), xmask)
    tmp8 = tl.full([1], 7, tl.int32)
    tmp9 = div_floor_integer(tmp7, tmp8)
    tmp10 = remainder_integer(tmp7, tmp8)
    tmp11 = tmp9 * 1000 + tmp10
    tl.store(out_ptr1 + (x2), tmp11, xmask)


@triton.jit
def triton_poi_fused_bucketize_6(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = bucketize_binary_search(tmp0, in_ptr1, tl.int32, False, 17, [XBLOCK])
    tmp2 = bucketize_binary_search(tmp0, in_ptr1, tl.int64, True, 17, [XBLOCK])
    tl.store(out_ptr0 + (x0), tmp1, xmask)
    tl.store(out_ptr1 + (x0), tmp2, xmask)


@triton.jit
def triton_poi_fused_rand_lt_mul_7(in_ptr0, in_ptr1, out_ptr0, out_ptr1, load_seed_offset, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = x0
    tmp2 = tl.rand(tmp0, (tmp1).to(tl.uint32))
    tmp3 = 0.25
    tmp4 = tmp2 > tmp3
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tl.load(in_ptr1 + (x0), xmask)
    tmp7 = tmp5 * tmp6
    tmp8 = 1.3333333333333333
    tmp9 = tmp7 * tmp8
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp9, xmask)


@triton.jit
def triton_per_fused_cumsum_index_8(in_ptr0, out_ptr0, out_ptr1, xnumel, rnumel, XBLOCK: tl.constexpr):
    rnumel = 64
    RBLOCK: tl.constexpr = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (64*x0)), xmask, other=0.0)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
    tmp3, = tl.associative_scan((tmp2,), 1, _add_combine)
    tmp4 = tmp0.to(tl.int64)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, RBLOCK])
    tmp6 = tl.cumsum(tmp5, 1, reverse=True)
    tl.store(out_ptr0 + (r1 + (64*x0)), tmp3, xmask)
    tl.store(out_ptr1 + (r1 + (64*x0)), tmp6, xmask)


@triton.jit
def _add_combine(a, b):
    return a + b
