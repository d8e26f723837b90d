# KERNEL: add_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# KERNEL: add_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32:16
# CONSTEXPR: BLOCK=2048
# GRID: cdiv(n, BLOCK)
#
# KERNEL: axpy_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,fp32,i32
# CONSTEXPR: BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# Element-wise vector kernels: the smallest programs of the corpus. add_kernel
# is specialised twice (fp32, and fp16 with a length divisible by 16) so the
# same source gives two different IRs; axpy_kernel takes a float scalar.

import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    # out = alpha * x + y over a ragged tail: masked lanes read 0
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offsets < n
    x = tl.load(x_ptr + offsets, mask=in_bounds, other=0.0)
    y = tl.load(y_ptr + offsets, mask=in_bounds, other=0.0)
    tl.store(out_ptr + offsets, alpha * x + y, mask=in_bounds)
