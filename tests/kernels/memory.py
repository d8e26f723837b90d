# KERNEL: load_modifiers_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32
# CONSTEXPR:
# GRID: cdiv(n, BLOCK)
#
# KERNEL: block_ptr_kernel
# SIGNATURE: *fp16:16,*fp32:16,i32,i32,i32:16,constexpr,i32:16,constexpr
# CONSTEXPR: stride_an=1, stride_on=1, BLOCK_M=64, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M)
#
# Memory access forms: loads with other=, cache modifiers (.cg, .ca),
# eviction policies, a volatile load, a store with a cache modifier;
# tl.multiple_of / tl.max_contiguous hints, tl.static_assert,
# tl.device_assert, tl.zeros_like, tl.full; a constexpr parameter whose
# default is a module-level constexpr (load_modifiers_kernel's BLOCK is not
# given in its header, so the default applies); and block pointers
# (tl.make_block_ptr, tl.advance, boundary_check, padding_option).

import triton
import triton.language as tl

BLOCK_DEFAULT: tl.constexpr = 128


@triton.jit
def load_modifiers_kernel(src_ptr, dst_ptr, flag_ptr, n, BLOCK: tl.constexpr = BLOCK_DEFAULT):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    pid = tl.program_id(0)
    start = tl.multiple_of(pid * BLOCK, BLOCK)
    offs = tl.max_contiguous(start + tl.arange(0, BLOCK), BLOCK)
    ok = offs < n
    a = tl.load(src_ptr + offs, mask=ok, other=0.0, cache_modifier=".cg")
    b = tl.load(src_ptr + offs, mask=ok, other=1.0, eviction_policy="evict_last")
    c = tl.load(src_ptr + offs, mask=ok, other=-1.0, cache_modifier=".ca", eviction_policy="evict_first")
    flag = tl.load(flag_ptr, volatile=True)
    tl.device_assert(flag >= 0, "flag must be non-negative")
    z = tl.zeros_like(a)
    half = tl.full([BLOCK], 0.5, dtype=tl.float32)
    out = tl.where(flag > 0, a + b, c) + z + half
    tl.store(dst_ptr + offs, out, mask=ok, cache_modifier=".cs")


@triton.jit
def block_ptr_kernel(a_ptr, out_ptr, M, N, stride_am, stride_an, stride_om, stride_on,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # out[m, j] = sum over column blocks c of a[m, c * BLOCK_N + j], in fp32
    pid = tl.program_id(0)
    a_blk = tl.make_block_ptr(base=a_ptr, shape=(M, N), strides=(stride_am, stride_an),
                              offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(N, BLOCK_N)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        acc += a.to(tl.float32)
        a_blk = tl.advance(a_blk, (0, BLOCK_N))
    o_blk = tl.make_block_ptr(base=out_ptr, shape=(M, BLOCK_N), strides=(stride_om, stride_on),
                              offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(o_blk, acc, boundary_check=(0,))
