# KERNEL: matmul_splitk
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BM=32, BN=32, BK=32, GROUP_M=4, SPLIT_K=4, PREC="ieee"
# GRID: cdiv(M, BM) * cdiv(N, BN), SPLIT_K
#
# KERNEL: matmul_splitk
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BM=64, BN=64, BK=32, GROUP_M=8, SPLIT_K=1, PREC="ieee"
# GRID: cdiv(M, BM) * cdiv(N, BN), SPLIT_K
#
# KERNEL: matmul_splitk
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BM=32, BN=32, BK=16, GROUP_M=2, SPLIT_K=2, PREC="tf32"
# GRID: cdiv(M, BM) * cdiv(N, BN), SPLIT_K
#
# KERNEL: matmul_splitk
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BM=32, BN=64, BK=32, GROUP_M=1, SPLIT_K=1, PREC="ieee"
# GRID: cdiv(M, BM) * cdiv(N, BN), SPLIT_K
#
# KERNEL: colmajor_row_sums
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,constexpr,i32
# CONSTEXPR: stride_am=1, BM=32, BN=16
# GRID: cdiv(M, BM)
#
# KERNEL: padded_tile_copy
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32
# CONSTEXPR: BM=16, BN=32, PAD="nan"
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: padded_tile_copy
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BM=32, BN=32, PAD="zero"
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: gemv_transposed
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BM=32, BN=64
# GRID: cdiv(N, BN)
#
# KERNEL: batched_dot_rows
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,i32,i64,i64
# CONSTEXPR: BM=16, BN=32, D=32
# GRID: cdiv(M, BM), B
#
# Matmul-shaped kernels written the way users write them: a grouped
# (swizzled) tile order with a split-K reduction over program_id(1) that
# adds its partial tiles with fp32 atomics (or stores when SPLIT_K == 1), a
# K loop with `tl.dot(acc=..., input_precision=...)` and the output dtype
# taken from the pointer; block pointers over a column-major matrix
# (order=(0, 1)) advanced in a loop, a 1-D block pointer store, padding
# with NaN or zero and boundary checks on both dimensions; a transposed GEMV
# (x @ W with W row-major) reduced over axis 0; a batched q @ k^T with i64
# batch strides and tl.trans.
import triton
import triton.language as tl


@triton.jit
def matmul_splitk(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                  SPLIT_K: tl.constexpr, PREC: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = B + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK * SPLIT_K)):
        k_rem = K - k * BK * SPLIT_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_rem), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_rem) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc=acc, input_precision=PREC)
        a_ptrs += BK * SPLIT_K * sak
        b_ptrs += BK * SPLIT_K * sbk
    c = acc.to(C.dtype.element_ty)
    c_ptrs = C + rm[:, None] * scm + rn[None, :] * scn
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    if SPLIT_K == 1:
        tl.store(c_ptrs, c, mask=cmask)
    else:
        tl.atomic_add(c_ptrs, c, mask=cmask, sem="relaxed")


@triton.jit
def colmajor_row_sums(A, OUT, M, N, stride_am, stride_an, BM: tl.constexpr, BN: tl.constexpr):
    # A is M x N stored column-major (stride_am == 1): the block pointer says so with order=(0, 1)
    pid = tl.program_id(0)
    blk = tl.make_block_ptr(A, shape=(M, N), strides=(stride_am, stride_an), offsets=(pid * BM, 0),
                            block_shape=(BM, BN), order=(0, 1))
    acc = tl.zeros((BM,), dtype=tl.float32)
    for _ in range(0, N, BN):
        t = tl.load(blk, boundary_check=(0, 1), padding_option="zero")
        acc += tl.sum(t, axis=1)
        blk = tl.advance(blk, (0, BN))
    out = tl.make_block_ptr(OUT, shape=(M,), strides=(1,), offsets=(pid * BM,), block_shape=(BM,), order=(0,))
    tl.store(out, acc, boundary_check=(0,))


@triton.jit
def padded_tile_copy(X, Y, M, N, stride, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    # copies the whole grid of tiles into a padded output; the padding shows what the loads read past the edge
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    src = tl.make_block_ptr(X, (M, N), (stride, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    t = tl.load(src, boundary_check=(0, 1), padding_option=PAD)
    Mp = tl.num_programs(0) * BM
    Np = tl.num_programs(1) * BN
    dst = tl.make_block_ptr(Y, (Mp, Np), (Np, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    tl.store(dst, t)


@triton.jit
def gemv_transposed(X, W, BIAS, Y, M, N, stride_w, BM: tl.constexpr, BN: tl.constexpr):
    # y[n] = sum_m x[m] * W[m, n] + bias[n]: a reduction over axis 0 of (BM, BN) tiles
    pid = tl.program_id(0)
    cols = pid * BN + tl.arange(0, BN)
    acc = tl.zeros((BN,), dtype=tl.float32)
    for m0 in tl.range(0, M, BM, num_stages=2):
        rows = m0 + tl.arange(0, BM)
        x = tl.load(X + rows, mask=rows < M, other=0.0).to(tl.float32)
        w = tl.load(W + rows[:, None] * stride_w + cols[None, :],
                    mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)
        acc += tl.sum(x[:, None] * w.to(tl.float32), axis=0)
    acc += tl.load(BIAS + cols, mask=cols < N, other=0.0)
    tl.store(Y + cols, acc, mask=cols < N)


@triton.jit
def batched_dot_rows(Q, K, S, M, stride_qb, stride_kb, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # S[b] = Q[b] @ K[b]^T for M x D blocks, BN key rows per batch
    pm = tl.program_id(0)
    b = tl.program_id(1).to(tl.int64)
    rows = pm * BM + tl.arange(0, BM)
    d = tl.arange(0, D)
    q = tl.load(Q + b * stride_qb + rows[:, None] * D + d[None, :], mask=rows[:, None] < M, other=0.0)
    k = tl.load(K + b * stride_kb + tl.arange(0, BN)[:, None] * D + d[None, :])
    s = tl.dot(q, tl.trans(k))
    tl.store(S + b * M * BN + rows[:, None] * BN + tl.arange(0, BN)[None, :], s, mask=rows[:, None] < M)
