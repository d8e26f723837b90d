import triton
import triton.language as tl


@triton.jit
def sort_kernel(x_ptr, o_ptr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.sort(tl.load(x_ptr + offs), descending=DESC))


@triton.jit
def flip_kernel(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.flip(tl.load(x_ptr + offs)))
