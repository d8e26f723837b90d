import triton
import triton.language as tl


@triton.jit
def rows_kernel(a_ptr, out_ptr, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    # the persistent-matmul tutorial's row offsets: a multiple_of hint on a
    # contiguous run, then a product with a row stride
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_m = tl.max_contiguous(tl.multiple_of(offs_m, BLOCK_M), BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :])
    tl.store(out_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :], a)
