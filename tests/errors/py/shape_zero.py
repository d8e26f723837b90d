# RUN: not %tritonc compile %s --kernel zeros --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ZEROS
# RUN: not %tritonc compile %s --kernel full2d --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=FULL
# RUN: not %tritonc compile %s --kernel reshape --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=RESHAPE
# RUN: not %tritonc compile %s --kernel bcast --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BCAST
# RUN: not %tritonc compile %s --kernel sized --signature '*fp32' -D N=0 --emit ttir 2>&1 | FileCheck %s --check-prefix=CONSTEXPR
# RUN: not %tritonc compile %s --kernel zeros --signature '*fp32' --target cuda:80 --emit ptx 2>&1 | FileCheck %s --check-prefix=ZEROS
# A dimension of 0 is an error where the tensor is made, like any other that
# is not a power of 2. tl.zeros((0,)) passed sema and failed in PTX lowering
# with an internal error that named no line.
# ZEROS: {{.*}}shape_zero.py:26:9: error: Shape element 0 must be a power of 2, got shape [0]
# ZEROS-NOT: error:
# FULL: {{.*}}shape_zero.py:32:28: error: Shape element 1 must be a power of 2, got shape [4, 0]
# FULL-NOT: error:
# RESHAPE: {{.*}}shape_zero.py:38:28: error: Shape element 0 must be a power of 2, got shape [0, 16]
# RESHAPE-NOT: error:
# BCAST: {{.*}}shape_zero.py:44:28: error: Shape element 0 must be a power of 2, got shape [0, 16]
# BCAST-NOT: error:
# CONSTEXPR: {{.*}}shape_zero.py:49:28: error: Shape element 0 must be a power of 2, got shape [0]
# CONSTEXPR-NOT: error:
import triton
import triton.language as tl


@triton.jit
def zeros(x_ptr):
    v = tl.zeros((0,), dtype=tl.float32)
    tl.store(x_ptr, tl.sum(v))


@triton.jit
def full2d(x_ptr):
    tl.store(x_ptr, tl.sum(tl.full((4, 0), 1.0, tl.float32)))


@triton.jit
def reshape(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr, tl.sum(tl.reshape(v, (0, 16))))


@triton.jit
def bcast(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr, tl.sum(tl.broadcast_to(v[None, :], (0, 16))))


@triton.jit
def sized(x_ptr, N: tl.constexpr):
    tl.store(x_ptr, tl.sum(tl.zeros([N], tl.float32)))
