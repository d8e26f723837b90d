# KERNEL: last_block_sum
# SIGNATURE: *fp32:16,*fp32:16,*i32,*fp32,i32
# CONSTEXPR: BLOCK=128, NUM_BLOCKS=16
# GRID: cdiv(n, BLOCK)
#
# KERNEL: masked_atomics
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,*fp32:16,*u32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: unsigned_math
# SIGNATURE: *u32:16,*u32:16,*u32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: block_ptr_colmajor
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,constexpr,i32
# CONSTEXPR: stride_m=1, BM=16, BN=16
# GRID: cdiv(M, BM)
#
# KERNEL: block_ptr_rowsum_reverse
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BM=8, BN=16
# GRID: cdiv(M, BM)
#
# KERNEL: constexpr_tuple_tile
# SIGNATURE: *fp32:16,*fp32:16,i32:16
# CONSTEXPR: SHAPE=(16, 32), ACT="clip"
# GRID: 1
#
# KERNEL: constexpr_tuple_tile
# SIGNATURE: *fp32:16,*fp32:16,i32:16
# CONSTEXPR: SHAPE=(16, 32), ACT="zero"
# GRID: 1
#
# KERNEL: scalar_ptr_ops
# SIGNATURE: *i32,*fp32,*fp32,*fp32,i32
# CONSTEXPR:
# GRID: n
#
# KERNEL: grid_stride_gather
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,i32,i32
# CONSTEXPR: ROWS=4, COLS=16
# GRID: 3
#
# KERNEL: tuple_scan_reduce
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: ROWS
#
# KERNEL: rng_streams
# SIGNATURE: i64,*fp32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=128, N_ROUNDS=7
# GRID: cdiv(n, BLOCK)
#
# KERNEL: rng_streams_64
# SIGNATURE: i64,*u64:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fp8_bf16_casts
# SIGNATURE: *fp32:16,*fp8e4nv:16,*fp8e5:16,*bf16:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: ce_loss_softcap
# SIGNATURE: *fp16:16,i32,*i64:16,*fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: DO_SOFTCAP=True, IGNORE_INDEX=-100, BLOCK=128
# GRID: ROWS
#
# KERNEL: ce_loss_softcap
# SIGNATURE: *bf16:16,i64,*i32:16,*fp32:16,*fp32:16,i32,fp32
# CONSTEXPR: DO_SOFTCAP=False, IGNORE_INDEX=-1, BLOCK=256
# GRID: ROWS
#
# KERNEL: int_edge_cases
# SIGNATURE: *i32:16,*i64:16,i32
# CONSTEXPR: DIV=-7, BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: tuple_state_loops
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=32
# GRID: 1
#
# KERNEL: tensor_methods
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: BLOCK=16, R=4
# GRID: 1
#
# KERNEL: hints_and_nan_ops
# SIGNATURE: *fp32:16,*i1:16,*fp32:16,i32
# CONSTEXPR: BIAS=1.5
# GRID: 1
#
# KERNEL: hints_and_nan_ops
# SIGNATURE: *fp32:16,*i1:16,*fp32:16,i32
# CONSTEXPR: DT=tl.bfloat16, BLOCK=128
# GRID: 1
#
# KERNEL: shape_combinators
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: B=8
# GRID: 1
#
# Kernels in the styles users write them, past the tutorials: a "last
# block" reduction (a ticket from tl.atomic_add on a scalar pointer with
# sem/scope, the partials read back volatile, the counter reset with
# atomic_xchg), masked atomic max/min on floats and or/xor/and on uint32,
# uint32 division, shifts, rotates, widening multiplies and u8 wraparound,
# block pointers over a column-major tensor (order=(0, 1), NaN padding,
# boundary-checked stores) and walked backwards (a negative tl.advance,
# boundary_check on one dim), a tl.constexpr tuple as a tile shape with
# len() and indexing plus a module-level constexpr tuple, helpers with
# early returns (on a constexpr and on a runtime scalar), scalar loads
# from scalar pointers with a masked scalar load, a runtime ternary and a
# `while` with `and`, a persistent grid-stride loop with tl.gather, a
# three-value tuple associative_scan (reverse) and tl.reduce with
# keep_dims, tl.randint4x/tl.rand with n_rounds and 2-D offsets and with
# int64 offsets (Philox 4x64), fp8 and
# bf16 casts with rounding modes, an unsloth-style cross entropy behind
# @triton.heuristics with softcapping and an early exit, and integer
# corners (constexpr negative divisors, int8 abs, i16 shifts, tl.cdiv on
# negatives, products that wrap), and tuples of tensors carried through
# `for` (a negative step) and `while` loops and merged by a runtime `if`;
# tensor methods (x.sum/max/cumsum/exp/argmax/sort/flip/reshape/to), a
# string annotation "tl.constexpr", a `noinline=True` helper (a call on the
# CPU, inlined for the PTX), `other=None`, a constexpr None default tested
# with `is not None`, a dtype constexpr default, PropagateNan.ALL,
# tl.fdiv(ieee_rounding=), bitcasts through i16, sums of i1/i8 tensors,
# tl.xor_sum, tl.assume; tl.expand_dims with a tuple of axes, tl.broadcast,
# tl.cat, tl.interleave, a 0-d tl.full, reductions over axis=None
# (max, argmax, tl.reduce).

import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

NEG_BIG: tl.constexpr = tl.constexpr(-1.0e30)
TILE = tl.constexpr((16, 32))


@triton.jit
def _clipped(x, lo, hi: tl.constexpr, SCALE: tl.constexpr = 1.0):
    # early return in a helper on a constexpr
    if SCALE == 0.0:
        return tl.zeros_like(x)
    y = tl.minimum(tl.maximum(x, lo), hi) * SCALE
    return y


@triton.jit
def _pick(a, b, flag):
    if flag > 0:
        return a + b
    return a - b


@triton.jit
def last_block_sum(x_ptr, partial_ptr, counter_ptr, out_ptr, n, BLOCK: tl.constexpr, NUM_BLOCKS: tl.constexpr):
    # every program writes a partial sum; the last one to arrive (its ticket from
    # an atomic on a scalar pointer) adds them up
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(partial_ptr + pid, tl.sum(x, axis=0))
    ticket = tl.atomic_add(counter_ptr, 1, sem="acq_rel", scope="gpu")
    if ticket == tl.num_programs(0) - 1:
        p = tl.load(partial_ptr + tl.arange(0, NUM_BLOCKS), mask=tl.arange(0, NUM_BLOCKS) < tl.num_programs(0),
                    other=0.0, volatile=True)
        tl.store(out_ptr, tl.sum(p))
        tl.atomic_xchg(counter_ptr, 0)


@triton.jit
def masked_atomics(x_ptr, idx_ptr, fmax_ptr, fmin_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    i = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.atomic_max(fmax_ptr + i, x, mask=m, sem="relaxed")
    tl.atomic_min(fmin_ptr + i, x, mask=m & (x != 0.0), scope="cta")
    u = (x * 1000.0).to(tl.int32).to(tl.uint32, bitcast=True)
    tl.atomic_or(bits_ptr + i, (1 << (offs % 32)).to(tl.uint32), mask=m)
    tl.atomic_xor(bits_ptr + 8 + i, u, mask=m)
    tl.atomic_and(bits_ptr + 16 + i, ~(1 << (offs % 31)).to(tl.uint32), mask=m)


@triton.jit
def unsigned_math(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=1)  # uint32
    b = tl.load(b_ptr + offs, mask=m, other=1)  # uint32
    b = tl.where(b == 0, 1, b)
    q = a // b
    r = a % b
    sh = a >> 7
    lt = (a < b).to(tl.uint32)
    f = a.to(tl.float32)
    big = a.to(tl.uint64) * b.to(tl.uint64)
    hi = (big >> 32).to(tl.uint32)
    mx = tl.maximum(a, b)
    s8 = (a & 0xFF).to(tl.uint8)
    w = (s8 + 200).to(tl.int32)  # u8 wraps before widening
    n_bits = 5
    rot = (a << n_bits) | (a >> (32 - n_bits))
    base = out_ptr + offs * 10
    tl.store(base + 0, q, mask=m)
    tl.store(base + 1, r, mask=m)
    tl.store(base + 2, sh, mask=m)
    tl.store(base + 3, lt, mask=m)
    tl.store(base + 4, (f * 0.5).to(tl.uint32), mask=m)
    tl.store(base + 5, hi, mask=m)
    tl.store(base + 6, mx, mask=m)
    tl.store(base + 7, w.to(tl.uint32), mask=m)
    tl.store(base + 8, rot, mask=m)
    tl.store(base + 9, tl.umulhi(a, b), mask=m)


@triton.jit
def block_ptr_colmajor(a_ptr, out_ptr, M, N, stride_m, stride_n, BM: tl.constexpr, BN: tl.constexpr):
    # a column-major source walked by a block pointer with order=(0, 1);
    # padding with NaN on both edges, then stored through another block
    # pointer that clips the ragged tile
    pid_m = tl.program_id(0)
    a_blk = tl.make_block_ptr(base=a_ptr, shape=(M, N), strides=(stride_m, stride_n), offsets=(pid_m * BM, 0),
                              block_shape=(BM, BN), order=(0, 1))
    o_blk = tl.make_block_ptr(out_ptr, (M, N), (N, 1), (pid_m * BM, 0), (BM, BN), (1, 0))
    for _ in range(0, tl.cdiv(N, BN)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="nan")
        a = tl.where(a != a, -1.0, a * 2.0)
        tl.store(o_blk, a, boundary_check=(0, 1))
        a_blk = tl.advance(a_blk, (0, BN))
        o_blk = tl.advance(o_blk, [0, BN])


@triton.jit
def block_ptr_rowsum_reverse(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # walks the columns from the right with a negative advance; only dim 1 is
    # boundary-checked (the rows are whole)
    pid = tl.program_id(0)
    start = (tl.cdiv(N, BN) - 1) * BN
    blk = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(N, 1), offsets=(pid * BM, start), block_shape=(BM, BN),
                            order=(1, 0))
    acc = tl.zeros((BM,), dtype=tl.float32)
    w = 1.0
    for _ in tl.range(0, tl.cdiv(N, BN)):
        x = tl.load(blk, boundary_check=(1,), padding_option="zero")
        acc = acc * 0.5 + tl.sum(x, 1) * w
        blk = tl.advance(blk, (0, -BN))
    tl.store(out_ptr + pid * BM + tl.arange(0, BM), acc)


@triton.jit
def constexpr_tuple_tile(x_ptr, y_ptr, stride, SHAPE: tl.constexpr, ACT: tl.constexpr):
    tl.static_assert(len(SHAPE) == 2)
    rows = tl.arange(0, SHAPE[0])[:, None]
    cols = tl.arange(0, SHAPE[1])[None, :]
    acc = tl.zeros(SHAPE, dtype=tl.float32)
    for k in tl.static_range(0, 3):
        x = tl.load(x_ptr + k * SHAPE[0] * stride + rows * stride + cols)
        acc += x * (k + 1)
    t = tl.zeros(TILE, dtype=tl.float32) + 1.0
    if ACT == "clip":
        acc = _clipped(acc, -1.0, 4.0)
    elif ACT == "zero":
        acc = _clipped(acc, -1.0, 4.0, SCALE=0.0)
    acc = tl.where(acc > 100.0, NEG_BIG, acc)
    tl.store(y_ptr + rows * stride + cols, acc + tl.sum(t) * 0.0)


@triton.jit
def scalar_ptr_ops(flag_ptr, vals_ptr, out_ptr, scale_ptr, n):
    # scalar loads from scalar pointers, scalar runtime control flow, a
    # runtime ternary, and a helper with an early return on a runtime scalar
    pid = tl.program_id(0)
    f = tl.load(flag_ptr + pid)
    s = tl.load(scale_ptr)
    v = tl.load(vals_ptr + pid, mask=pid < n, other=-7.0)
    r = _pick(v, s, f)
    r = r * 2.0 if f == 2 else r
    total = 0.0
    i = 0
    while i < f and total < 100.0:
        total += v * i
        i += 1
    tl.store(out_ptr + 2 * pid, r)
    tl.store(out_ptr + 2 * pid + 1, total)


@triton.jit
def grid_stride_gather(src_ptr, idx_ptr, out_ptr, n_rows, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    # persistent grid-stride loop over row tiles; tl.gather along the columns
    # with an index tile narrower than the source
    cols = tl.arange(0, COLS)
    for t in range(tl.program_id(0), tl.cdiv(n_rows, ROWS), tl.num_programs(0)):
        rows = t * ROWS + tl.arange(0, ROWS)
        rm = rows[:, None] < n_rows
        src = tl.load(src_ptr + rows[:, None] * n_cols + cols[None, :], mask=rm, other=0.0)
        idx = tl.load(idx_ptr + rows[:, None] * (COLS // 2) + tl.arange(0, COLS // 2)[None, :], mask=rm, other=0)
        g = tl.gather(src, idx, axis=1)
        tl.store(out_ptr + rows[:, None] * (COLS // 2) + tl.arange(0, COLS // 2)[None, :], g, mask=rm)


@triton.jit
def _triple_combine(a0, a1, a2, b0, b1, b2):
    # (count, sum, max) carried together
    return a0 + b0, a1 + b1, tl.maximum(a2, b2)


@triton.jit
def tuple_scan_reduce(x_ptr, c_ptr, s_ptr, m_ptr, r_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    msk = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=msk, other=float("-inf"))
    one = msk.to(tl.int32)
    xs = tl.where(msk, x, 0.0)
    c, s, m = tl.associative_scan((one, xs, x), 0, _triple_combine, reverse=True)
    tl.store(c_ptr + row * n_cols + offs, c, mask=msk)
    tl.store(s_ptr + row * n_cols + offs, s, mask=msk)
    tl.store(m_ptr + row * n_cols + offs, m, mask=msk)
    rc, rs, rm = tl.reduce((one[None, :], xs[None, :], x[None, :]), 1, _triple_combine, keep_dims=True)
    tl.store(r_ptr + row * 3 + tl.arange(0, 1)[:, None], rc.to(tl.float32))
    tl.store(r_ptr + row * 3 + 1 + tl.arange(0, 1)[:, None], rs)
    tl.store(r_ptr + row * 3 + 2 + tl.arange(0, 1)[:, None], rm)


@triton.jit
def rng_streams(seed, out_u_ptr, out_n_ptr, out_i_ptr, n, BLOCK: tl.constexpr, N_ROUNDS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    r0, r1, r2, r3 = tl.randint4x(seed, offs, N_ROUNDS)
    tl.store(out_i_ptr + offs * 4 + 0, r0, mask=m)
    tl.store(out_i_ptr + offs * 4 + 1, r1, mask=m)
    tl.store(out_i_ptr + offs * 4 + 2, r2, mask=m)
    tl.store(out_i_ptr + offs * 4 + 3, r3, mask=m)
    offs2 = offs[:, None] * 2 + tl.arange(0, 2)[None, :]
    u = tl.rand(seed, offs2, N_ROUNDS)
    z = tl.randn(seed + 1, offs2)
    m2 = offs2 < 2 * n
    tl.store(out_u_ptr + offs2, u, mask=m2)
    tl.store(out_n_ptr + offs2, z, mask=m2)


@triton.jit
def fp8_bf16_casts(x_ptr, e4_ptr, e5_ptr, bf_ptr, back_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    e4 = x.to(tl.float8e4nv)
    e5 = x.to(tl.float8e5, fp_downcast_rounding="rtne")
    bf = x.to(tl.bfloat16, fp_downcast_rounding="rtz")
    tl.store(e4_ptr + offs, e4, mask=m)
    tl.store(e5_ptr + offs, e5, mask=m)
    tl.store(bf_ptr + offs, bf, mask=m)
    back = e4.to(tl.float32) + e5.to(tl.float16).to(tl.float32) + bf.to(tl.float32)
    tl.store(back_ptr + offs, back, mask=m)


@triton.jit
def _softcap(x, CAP: tl.constexpr):
    return CAP * libdevice.tanh(x / CAP)


@triton.heuristics({"DO_SOFTCAP": lambda args: args["softcap"] > 0})
@triton.jit
def ce_loss_softcap(logits_ptr, stride, labels_ptr, loss_ptr, lse_ptr, n_cols, softcap,
                    DO_SOFTCAP: tl.constexpr, IGNORE_INDEX: tl.constexpr, BLOCK: tl.constexpr):
    # unsloth-style cross entropy: chunked online logsumexp with optional
    # softcapping, an ignore index and an early exit
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride
    label = tl.load(labels_ptr + row).to(tl.int32)
    if label == IGNORE_INDEX:
        tl.store(loss_ptr + row, 0.0)
        return
    m = -float("inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        if DO_SOFTCAP:
            x = softcap * libdevice.tanh(x / softcap)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    lse = m + tl.log(d)
    xl = tl.load(logits_ptr + label).to(tl.float32)
    if DO_SOFTCAP:
        xl = softcap * libdevice.tanh(xl / softcap)
    tl.store(loss_ptr + row, lse - xl)
    tl.store(lse_ptr + row, lse)


@triton.jit
def int_edge_cases(a_ptr, out_ptr, n, DIV: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=0)  # int32
    a64 = a.to(tl.int64)
    base = out_ptr + offs.to(tl.int64) * 8
    tl.store(base + 0, (a // DIV).to(tl.int64), mask=m)
    tl.store(base + 1, (a % DIV).to(tl.int64), mask=m)
    tl.store(base + 2, a64 * 3000000000, mask=m)
    tl.store(base + 3, (a * 65537).to(tl.int64), mask=m)  # wraps in 32 bits
    tl.store(base + 4, tl.abs(a.to(tl.int8)).to(tl.int64), mask=m)
    tl.store(base + 5, (a.to(tl.int16) >> 3).to(tl.int64), mask=m)
    tl.store(base + 6, tl.cdiv(a64, 7), mask=m)
    tl.store(base + 7, (-a64) // DIV, mask=m)


@triton.jit
def _minmax_pair(a, b):
    return tl.minimum(a[0], b[0]), tl.maximum(a[1], b[1])


@triton.jit
def tuple_state_loops(x_ptr, o_ptr, n, lo, BLOCK: tl.constexpr):
    # tuples of tensors carried through `for` and `while` loops and merged by
    # a runtime `if`: (min, max, count) over the rows, walked backwards
    offs = tl.arange(0, BLOCK)
    st = (tl.full([BLOCK], float("inf"), tl.float32), tl.full([BLOCK], -float("inf"), tl.float32),
          tl.zeros([BLOCK], tl.int32))
    for i in range(n - 1, lo - 1, -1):
        x = tl.load(x_ptr + i * BLOCK + offs)
        mn, mx = _minmax_pair(st[:2], (x, x))
        st = (mn, mx, st[2] + 1)
    pair = (st[0], (st[1], 0))
    j = 0
    while j < 3:
        pair = (pair[0] + 1.0, (pair[1][0] * 2.0, j))
        j += 1
    if n > 2:
        out = (pair[0], pair[1][0])
    else:
        out = (pair[1][0], pair[0])
    for k in tl.range(0, 2, num_stages=1):
        out = (out[0] * 0.5, out[1])
    tl.store(o_ptr + offs, out[0])
    tl.store(o_ptr + BLOCK + offs, out[1] + st[2].to(tl.float32) + pair[1][1])


@triton.jit(noinline=True)
def _noinl(x, y):
    return x * 2 + y


@triton.jit
def tensor_methods(x_ptr, o_ptr, BLOCK: "tl.constexpr", R: tl.constexpr):
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    x = tl.load(x_ptr + rows * BLOCK + cols)
    a = x.sum(axis=1)
    b = x.max(0)
    c = x.cumsum(1)
    d = x.exp().sqrt().abs()
    e = x.argmax(1)
    f = x.reshape(R * BLOCK).sort(descending=True)
    h = x.flip(0)
    j = x.to(tl.float16).to(tl.float32)
    k = _noinl(tl.sum(a), 1.0)
    tl.store(o_ptr + tl.arange(0, R), a)
    tl.store(o_ptr + R + tl.arange(0, BLOCK), b)
    tl.store(o_ptr + R + BLOCK + rows * BLOCK + cols, c)
    tl.store(o_ptr + R + BLOCK + R * BLOCK + rows * BLOCK + cols, d + h + j + k)
    tl.store(o_ptr + R + BLOCK + 2 * R * BLOCK + tl.arange(0, R), e.to(tl.float32))
    tl.store(o_ptr + 2 * R + BLOCK + 2 * R * BLOCK + tl.arange(0, R * BLOCK), f)


@triton.jit
def hints_and_nan_ops(x_ptr, b_ptr, o_ptr, n, BIAS: tl.constexpr = None, DT: tl.constexpr = tl.float16, BLOCK: tl.constexpr = 64):
    tl.assume(n > 0)
    offs = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK), BLOCK), BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=None)
    fl = tl.load(b_ptr + offs, mask=m, other=0)   # bool tensor
    y = tl.where(fl, x, -x)
    if BIAS is not None:
        y += BIAS
    z = tl.maximum(y, float("nan"), propagate_nan=tl.PropagateNan.ALL)
    w = tl.clamp(y, -1.0, 1.0, propagate_nan=tl.PropagateNan.ALL)
    q = tl.fdiv(y, 3.0, ieee_rounding=True)
    v = y.to(DT).to(tl.int16, bitcast=True).to(DT, bitcast=True).to(tl.float32)
    s = tl.sum(fl.to(tl.int1)) + tl.sum(((y > 0) & m).to(tl.int8))
    xs = tl.xor_sum(offs, axis=0)
    tl.store(o_ptr + offs, z + w, mask=m)
    tl.store(o_ptr + BLOCK + offs, q + v, mask=m)
    tl.store(o_ptr + 2 * BLOCK, s.to(tl.float32) + xs)


@triton.jit
def shape_combinators(x_ptr, o_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    y = tl.load(x_ptr + B + i)
    e = tl.expand_dims(x, (0, 2))          # [1, B, 1]
    a, b = tl.broadcast(e, y[:, None, None])  # [B, B, 1]
    s = tl.reshape(a + b, (B, B))
    c = tl.cat(x, y, can_reorder=True)
    t = tl.sum(c, 0)
    il = tl.interleave(s, s * 2)   # [B, 2B]
    l, r = tl.split(tl.reshape(il, (B, B, 2)))
    full0 = tl.full([], 3, tl.int32)
    mx = tl.max(s, axis=None)
    am = tl.argmax(s, axis=None)
    red = tl.reduce(s, None, _add_pair)
    tl.store(o_ptr + i[:, None] * B + i[None, :], l + r)
    tl.store(o_ptr + B * B, t + full0 + mx + am + red)


@triton.jit
def _add_pair(a, b):
    return a + b


@triton.jit
def rng_streams_64(seed, o_ptr, u_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    # int64 offsets: Philox 4x64 (its own constants), 64-bit results
    o64 = offs.to(tl.int64) + 5000000000
    r0, r1, r2, r3 = tl.randint4x(seed, o64)
    tl.store(o_ptr + offs * 4 + 0, r0, mask=m)
    tl.store(o_ptr + offs * 4 + 1, r1, mask=m)
    tl.store(o_ptr + offs * 4 + 2, r2, mask=m)
    tl.store(o_ptr + offs * 4 + 3, r3, mask=m)
    tl.store(u_ptr + offs, tl.rand(seed, o64), mask=m)
