# KERNEL: rope_interleaved
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: HALF=16, BLOCK_T=8
# GRID: cdiv(T, BLOCK_T)
#
# KERNEL: permute_3d
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16
# CONSTEXPR: A=2, B=4, C=8
# GRID: 1
#
# KERNEL: select_clamp
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,*fp32:16,i32,fp32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: small_int_ops
# SIGNATURE: *i8:16,*i8:16,*u8:16,*u16:16,*i8:16,*i8:16,*u8:16,*u16:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: rounding_casts
# SIGNATURE: *fp32:16,*fp16:16,*fp16:16,*bf16:16,*bf16:16,*i16:16,*u32:16,*fp8e5:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: embedding_fwd
# SIGNATURE: *i64:16,*fp16:16,*fp16:16,i32,i64,i32
# CONSTEXPR: BLOCK_T=16, BLOCK_D=64
# GRID: cdiv(n_tokens, BLOCK_T)
#
# KERNEL: embedding_bwd
# SIGNATURE: *i64:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_T=16, BLOCK_D=64
# GRID: cdiv(n_tokens, BLOCK_T)
#
# KERNEL: segment_lookup
# SIGNATURE: *i32:16,*i32:16,*i32:16,i32,i32
# CONSTEXPR:
# GRID: total
#
# KERNEL: sort_rows
# SIGNATURE: *fp16:16,*fp16:16,*i32:16,i32
# CONSTEXPR: BLOCK=32, DESCENDING=True
# GRID: n_rows
#
# KERNEL: mixed_args
# SIGNATURE: *fp32:16,*i64:16,*i8,i1,i8,u16,i64,i32,fp32,fp64
# CONSTEXPR: BLOCK=64
# GRID: 2, 3, 4
#
# KERNEL: dtype_dispatch
# SIGNATURE: *fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: dtype_dispatch
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128, SCALE=3
# GRID: cdiv(n, BLOCK)
#
# KERNEL: dequant_groups
# SIGNATURE: *u8:16,*fp32:16,*fp16:16,i32
# CONSTEXPR: GROUP=64
# GRID: n_groups
#
# KERNEL: splitmix64
# SIGNATURE: *u64:16,*u64:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# Tensor-level kernels written the way users write them: interleaved rotary
# embeddings through tl.reshape/tl.split/tl.join/tl.interleave, 3-D
# permutations (tl.permute, tl.trans with dims, .T), tl.where with scalars
# of mixed kinds, tl.clamp with tensor bounds, tl.fdiv, float `%`, i8/u8/u16
# division, shifts and bitwise ops, float casts in a rounding mode, fp8
# e5m2, bitcasts, an embedding lookup (i64 indices, i64 row stride) and its
# backward with fp32 atomics, a scalar binary search in a `while` loop with
# an `if` in its body (jagged-tensor segments), a descending tl.sort on fp16
# rows with argsort by a packed key, a 3-D grid kernel with arguments of
# many scalar types, and a constexpr branch on a pointer's dtype with
# min/max on constexprs; 4-bit dequantisation whose (scale, zero) pair per
# group is loaded as a [2] tensor and tl.split into two scalars; splitmix64
# hashing on uint64 with its 64-bit odd constants (literals above 2^63,
# which Triton types uint64).
import triton
import triton.language as tl


@triton.jit
def rope_interleaved(X, COS, SIN, Y, T, HALF: tl.constexpr, BLOCK_T: tl.constexpr):
    # x holds pairs (x0, x1) interleaved along the last dimension (GPT-J style)
    pid = tl.program_id(0)
    t = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    d = tl.arange(0, 2 * HALF)
    mask = t[:, None] < T
    x = tl.load(X + t[:, None] * (2 * HALF) + d[None, :], mask=mask, other=0.0)
    x0, x1 = tl.split(tl.reshape(x, (BLOCK_T, HALF, 2)))
    h = tl.arange(0, HALF)
    c = tl.load(COS + t[:, None] * HALF + h[None, :], mask=mask, other=0.0)
    s = tl.load(SIN + t[:, None] * HALF + h[None, :], mask=mask, other=0.0)
    y0 = x0 * c - x1 * s
    y1 = x0 * s + x1 * c
    y = tl.interleave(y0, y1)
    tl.store(Y + t[:, None] * (2 * HALF) + d[None, :], y, mask=mask)


@triton.jit
def permute_3d(X, P, Q, R, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    x = tl.load(X + a * B * C + b * C + c)
    # P[c, a, b] = X[a, b, c]
    p = tl.permute(x, (2, 0, 1))
    ca = tl.arange(0, C)[:, None, None]
    aa = tl.arange(0, A)[None, :, None]
    ba = tl.arange(0, B)[None, None, :]
    tl.store(P + ca * A * B + aa * B + ba, p)
    # Q[b, a, c] = X[a, b, c]
    q = tl.trans(x, 1, 0, 2)
    bq = tl.arange(0, B)[:, None, None]
    aq = tl.arange(0, A)[None, :, None]
    cq = tl.arange(0, C)[None, None, :]
    tl.store(Q + bq * A * C + aq * C + cq, q)
    # R = X[0].T, a 2-D view
    x2 = tl.reshape(tl.sum(x * (a == 0), axis=0), (B, C))
    r = x2.T
    tl.store(R + tl.arange(0, C)[:, None] * B + tl.arange(0, B)[None, :], r)


@triton.jit
def select_clamp(X, LO, HI, SIGN, OUT, n, thresh, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    lo = tl.load(LO + offs, mask=mask, other=-1.0)
    hi = tl.load(HI + offs, mask=mask, other=1.0)
    # nested selects between int scalars: an i32 tensor
    sign = tl.where(x > 0, 1, tl.where(x < 0, -1, 0))
    tl.store(SIGN + offs, sign, mask=mask)
    c = tl.clamp(x, lo, hi)
    big = tl.where(tl.abs(x) > thresh, thresh, x)  # scalar in the true branch
    q = tl.fdiv(c + 4.0, big + 8.0)
    r = x % 1.5  # C fmod: the sign of the dividend
    tl.store(OUT + offs, q + r * 100.0, mask=mask)


@triton.jit
def small_int_ops(A, B, U8, U16, Q, R, SH8, SH16, FA, FB, FR, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask, other=1)
    b = tl.load(B + offs, mask=mask, other=1)
    # i8 // i8 and i8 % i8 stay i8, truncating toward zero (C semantics)
    tl.store(Q + offs, a // b, mask=mask)
    tl.store(R + offs, a % b, mask=mask)
    u8 = tl.load(U8 + offs, mask=mask, other=0)
    u16 = tl.load(U16 + offs, mask=mask, other=0)
    # logical shifts on unsigned types; << drops the bits shifted out of the type
    sh8 = (u8 >> 3) ^ (u8 << 5) ^ ~u8
    sh16 = ((u16 >> 7) | (u16 << 9)) & 0xFFF0
    tl.store(SH8 + offs, sh8, mask=mask)
    tl.store(SH16 + offs, sh16, mask=mask)
    fa = tl.load(FA + offs, mask=mask, other=1.0)
    fb = tl.load(FB + offs, mask=mask, other=1.0)
    # float % is fmod in Triton (C semantics), not Python's floored modulo
    tl.store(FR + offs, fa % fb, mask=mask)


@triton.jit
def rounding_casts(X, H_RTNE, H_RTZ, B_RTNE, B_RTZ, HBITS, FBITS, F8, BACK, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    h = x.to(tl.float16)
    tl.store(H_RTNE + offs, h, mask=mask)
    tl.store(H_RTZ + offs, tl.cast(x, tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(B_RTNE + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtne"), mask=mask)
    tl.store(B_RTZ + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(HBITS + offs, h.to(tl.int16, bitcast=True), mask=mask)
    tl.store(FBITS + offs, tl.cast(x, tl.uint32, bitcast=True), mask=mask)
    f8 = h.to(tl.float8e5)
    tl.store(F8 + offs, f8, mask=mask)
    tl.store(BACK + offs, f8.to(tl.float32) + tl.cast(h.to(tl.int16, bitcast=True), tl.float16, bitcast=True), mask=mask)


@triton.jit
def embedding_fwd(IDS, TABLE, OUT, n_tokens, row_stride, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = t < n_tokens
    ids = tl.load(IDS + t, mask=tmask, other=0)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        m = tmask[:, None] & (d[None, :] < D)
        rows = tl.load(TABLE + ids[:, None] * row_stride + d[None, :], mask=m, other=0.0,
                       cache_modifier=".cg")
        tl.store(OUT + t[:, None].to(tl.int64) * D + d[None, :], rows, mask=m)


@triton.jit
def embedding_bwd(IDS, DOUT, DTABLE, n_tokens, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = t < n_tokens
    ids = tl.load(IDS + t, mask=tmask, other=0)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        m = tmask[:, None] & (d[None, :] < D)
        g = tl.load(DOUT + t[:, None] * D + d[None, :], mask=m, other=0.0)
        tl.atomic_add(DTABLE + ids[:, None] * D + d[None, :], g, mask=m, sem="relaxed")


@triton.jit
def segment_lookup(OFFSETS, SEG, POS, n_segments, total):
    # jagged tensors: the segment of element i is the last s with offsets[s] <= i
    i = tl.program_id(0)
    lo = 0
    hi = n_segments
    while lo < hi:
        mid = (lo + hi) // 2
        if tl.load(OFFSETS + mid + 1) <= i:
            lo = mid + 1
        else:
            hi = mid
    tl.store(SEG + i, lo)
    tl.store(POS + i, i - tl.load(OFFSETS + lo))


@triton.jit
def sort_rows(X, VALS, IDX, n_cols, BLOCK: tl.constexpr, DESCENDING: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    fill = float("-inf") if DESCENDING else float("inf")
    x = tl.load(X + row * n_cols + cols, mask=mask, other=fill)
    tl.store(VALS + row * n_cols + cols, tl.sort(x, descending=DESCENDING), mask=mask)
    # argsort: the value's order-preserving bits in the high half, the column in the low half
    bits = x.to(tl.int16, bitcast=True).to(tl.int32)
    key = tl.where(bits < 0, bits ^ 0x7FFF, bits)
    packed = (key << 16) | (BLOCK - 1 - cols if DESCENDING else cols)
    s = tl.sort(packed, 0, DESCENDING)
    idx = s & 0xFFFF
    if DESCENDING:
        idx = BLOCK - 1 - idx
    tl.store(IDX + row * n_cols + cols, idx, mask=mask)


@triton.jit
def mixed_args(OUT, OUT64, FLAGS, flag, small, half_word, big, neg, scale, dscale, BLOCK: tl.constexpr):
    px = tl.program_id(0)
    py = tl.program_id(1)
    pz = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (pz * ny + py) * nx + px
    offs = tl.arange(0, BLOCK)
    v = (small + half_word + neg).to(tl.float32) * scale + lin
    if flag:
        v = v + dscale.to(tl.float32)
    tl.store(OUT + lin * BLOCK + offs, v + offs)
    tl.store(OUT64 + lin, big * lin + nx * ny * nz)
    tl.store(FLAGS + lin, (small * lin).to(tl.int8))


@triton.jit
def _scaled_copy(x, SCALE: tl.constexpr):
    if x.dtype == tl.float16:
        return (x.to(tl.float32) * SCALE).to(tl.float16), 16
    else:
        return x * SCALE, 32


@triton.jit
def dtype_dispatch(X, Y, n, BLOCK: tl.constexpr, SCALE: tl.constexpr = 2):
    CHUNK: tl.constexpr = max(BLOCK // 4, 16)
    STEPS: tl.constexpr = min(BLOCK // CHUNK, 8)
    base = tl.program_id(0) * BLOCK
    for s in tl.static_range(STEPS):
        offs = base + s * CHUNK + tl.arange(0, CHUNK)
        x = tl.load(X + offs, mask=offs < n, other=0)
        y, bits = _scaled_copy(x, SCALE)
        tl.store(Y + offs, y + bits, mask=offs < n)


@triton.jit
def dequant_groups(Q, SZ, OUT, n_groups, GROUP: tl.constexpr):
    # two 4-bit values per byte; each group has an fp32 (scale, zero point) pair
    g = tl.program_id(0)
    scale, zero = tl.split(tl.load(SZ + 2 * g + tl.arange(0, 2)))
    b = tl.load(Q + g * (GROUP // 2) + tl.arange(0, GROUP // 2))
    lo = (b & 0xF).to(tl.float32)
    hi = (b >> 4).to(tl.float32)
    v = tl.interleave(lo, hi)
    tl.store(OUT + g * GROUP + tl.arange(0, GROUP), ((v - zero) * scale).to(tl.float16))


@triton.jit
def splitmix64(X, H, BUCKET, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    z = tl.load(X + offs, mask=mask, other=0) + 0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    z = z ^ (z >> 31)
    tl.store(H + offs, z, mask=mask)
    # the bucket of a 64-bit hash among 1000: an unsigned 64-bit modulo
    tl.store(BUCKET + offs, (z % 1000).to(tl.int32), mask=mask)
