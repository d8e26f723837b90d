import triton
import triton.language as tl


@triton.jit
def bias_rows_kernel(x_ptr, b_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # x's rows start at pid * N (N of unknown divisibility: each thread's
    # elements of x cannot be read as one vector); the bias and y are
    # aligned: x is laid out as they are, read an element at a time
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols)
    b = tl.load(b_ptr + cols)
    tl.store(y_ptr + cols, x + b)


@triton.jit
def unaligned_out_kernel(x_ptr, w_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # only w is aligned; x and the output rows are not: widening x's load
    # to w's width would only move the conversion to the store
    cols = tl.arange(0, BLOCK)
    row = tl.program_id(0) * N
    x = tl.load(x_ptr + row + cols)
    w = tl.load(w_ptr + cols)
    tl.store(y_ptr + row + cols, x * w)
