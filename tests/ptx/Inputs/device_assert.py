import triton
import triton.language as tl


@triton.jit
def checked_copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tl.device_assert(n > 0, "n must be positive")
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    assert x >= 0, "x must be non-negative"
    tl.store(y_ptr + offs, x, mask=offs < n)
