# KERNEL: grouped_matmul_kernel
# SIGNATURE: *i64:16,*i64:16,*i64:16,*i32:16,*i32:16,i32
# CONSTEXPR: NUM_SM=132, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32
# GRID: NUM_SM
#
# A persistent grouped GEMM: group g multiplies its own fp16 matrices
# (row-major, leading dimensions lda/ldb/ldc) whose addresses come from three
# int64 pointer arrays. sizes holds (m, n, k) per group and lds
# (lda, ldb, ldc). Each of NUM_SM programs walks the global tile list with a
# while loop nested inside the loop over groups.

import triton
import triton.language as tl


@triton.jit
def grouped_matmul_kernel(a_addrs, b_addrs, c_addrs, sizes, lds, group_count,
                          NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile = tl.program_id(0)
    tiles_before = 0
    for g in range(group_count):
        gm = tl.load(sizes + g * 3)
        gn = tl.load(sizes + g * 3 + 1)
        gk = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_N)
        tiles_here = tl.cdiv(gm, BLOCK_M) * tiles_n
        while (tile >= tiles_before) & (tile < tiles_before + tiles_here):
            lda = tl.load(lds + g * 3)
            ldb = tl.load(lds + g * 3 + 1)
            ldc = tl.load(lds + g * 3 + 2)
            a_base = tl.load(a_addrs + g).to(tl.pointer_type(tl.float16))
            b_base = tl.load(b_addrs + g).to(tl.pointer_type(tl.float16))
            c_base = tl.load(c_addrs + g).to(tl.pointer_type(tl.float16))
            local = tile - tiles_before
            offs_m = (local // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = (local % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            a_tile = a_base + offs_m[:, None] * lda + offs_k[None, :]
            b_tile = b_base + offs_k[:, None] * ldb + offs_n[None, :]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kt in range(0, tl.cdiv(gk, BLOCK_K)):
                k_left = gk - kt * BLOCK_K
                a = tl.load(a_tile, mask=(offs_m[:, None] < gm) & (offs_k[None, :] < k_left), other=0.0)
                b = tl.load(b_tile, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < gn), other=0.0)
                acc += tl.dot(a, b)
                a_tile += BLOCK_K
                b_tile += BLOCK_K * ldb
            c_tile = c_base + offs_m[:, None] * ldc + offs_n[None, :]
            tl.store(c_tile, acc.to(tl.float16), mask=(offs_m[:, None] < gm) & (offs_n[None, :] < gn))
            tile += NUM_SM
        tiles_before = tiles_before + tiles_here
