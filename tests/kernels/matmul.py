# KERNEL: matmul_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_ak=1, stride_bn=1, stride_cn=1, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, ACTIVATION="leaky_relu"
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
#
# KERNEL: matmul_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=4, ACTIVATION=""
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
#
# C = act(A @ B) with a tl.dot accumulator in fp32. Programs are ordered in
# groups of GROUP_M tile rows so neighbouring programs share B tiles in L2.
# The k loop masks the ragged end of K. The fp16 block specialises the unit
# strides to 1 (row-major A, B, C) and fuses leaky_relu, picked by a string
# constexpr; the fp32 block keeps every stride dynamic and no activation.

import triton
import triton.language as tl


@triton.jit
def leaky_relu(x, slope):
    return tl.where(x >= 0, x, slope * x)


@triton.jit
def grouped_tile(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # map a linear program id to (tile row, tile column), GROUP_M tile rows at a time
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    group = pid // per_group
    first_m = group * GROUP_M
    group_rows = min(tiles_m - first_m, GROUP_M)
    tile_m = first_m + ((pid % per_group) % group_rows)
    tile_n = (pid % per_group) // group_rows
    return tile_m, tile_n


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    tile_m, tile_n = grouped_tile(pid, M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_am = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_M), BLOCK_M)
    offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_N), BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - kt * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc, 0.01)
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_ok = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_ok)
