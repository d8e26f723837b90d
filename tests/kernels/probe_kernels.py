# KERNEL: full_dtype_kernel
# SIGNATURE: *u64:16
# CONSTEXPR: N=4, DT=tl.uint64, VAL=9223372036854775813
# GRID: 1
#
# KERNEL: full_dtype_kernel
# SIGNATURE: *u64:16
# CONSTEXPR: N=8, DT=tl.uint64, VAL=18446744073709551615
# GRID: 1
#
# KERNEL: full_dtype_kernel
# SIGNATURE: *i16:16
# CONSTEXPR: N=2, DT=tl.int16, VAL=-300
# GRID: 1
#
# KERNEL: dot_precision_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: M=16, N=32, K=64, PREC="bf16x3"
# GRID: 1
#
# KERNEL: dot_precision_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: M=16, N=32, K=64, PREC="bf16x6"
# GRID: 1
#
# KERNEL: dot_precision_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: M=16, N=32, K=64, PREC="IEEE"
# GRID: 1
#
# KERNEL: row_scale_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32,i32,i32
# CONSTEXPR: BLOCK_N=64
# GRID: M
#
# KERNEL: _row_scale
# SIGNATURE: *fp16:16,*fp16:16,*fp32,i32,i32
# CONSTEXPR: BLOCK_N=32
# GRID: M
#
# A probe of user scripts the rest of the corpus missed: each kernel here
# came with a bug it found (tests/python/test_probe_kernels.py runs them on
# the CPU against torch).
import triton
import triton.language as tl


@triton.jit
def full_dtype_kernel(out_ptr, N: tl.constexpr, DT: tl.constexpr, VAL: tl.constexpr):
    # VAL past INT64_MAX comes in as a constexpr argument: a uint64, as Triton types it
    x = tl.full((N, ), VAL, dtype=DT)
    y = tl.zeros_like(x) + x
    tl.store(out_ptr + tl.arange(0, N), y)


@triton.jit
def dot_precision_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                         PREC: tl.constexpr):
    # Triton 3.6 takes "bf16x3" and "bf16x6" too, and the names in any case
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def _cube(x):
    return x * x * x


cube = triton.jit(_cube)


def _row_scale(x_ptr, y_ptr, s_ptr, N, stride, BLOCK_N: tl.constexpr):
    # a kernel and a helper made by calling triton.jit by hand
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    m = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    s = tl.load(s_ptr + row)
    tl.store(y_ptr + row * stride + cols, (cube(x) * s).to(y_ptr.dtype.element_ty), mask=m)


row_scale_kernel = triton.jit(_row_scale)
