import triton
import triton.language as tl


@triton.jit
def desc_copy_kernel(src_desc, dst_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M
    n = tl.program_id(1) * BLOCK_N
    tile = src_desc.load([m, n])
    dst_desc.store([m, n], tile * 2)
