# RUN: not %tritonc compile %s --kernel zeros --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ZEROS
# RUN: not %tritonc compile %s --kernel full2d --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=FULL
# RUN: not %tritonc compile %s --kernel reshape --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=RESHAPE
# RUN: not %tritonc compile %s --kernel bcast --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BCAST
# RUN: not %tritonc compile %s --kernel negative --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NEG
# Every dimension of a Triton tensor is a power of 2 (block_type's
# validate_block_shape): a shape that is not is an error where the tensor is
# made, once. tritonc used to accept tl.zeros((10,)) and compile it.
# ZEROS: {{.*}}shape_power_of_2.py:22:28: error: Shape element 0 must be a power of 2, got shape [10]
# ZEROS-NOT: error:
# FULL: {{.*}}shape_power_of_2.py:28:9: error: Shape element 1 must be a power of 2, got shape [4, 12]
# RESHAPE: {{.*}}shape_power_of_2.py:35:9: error: Shape element 0 must be a power of 2, got shape [6, 8]
# RESHAPE-NOT: error:
# NEG: {{.*}}shape_power_of_2.py:48:9: error: Shape element 0 must be a power of 2, got shape [-4]
# BCAST: {{.*}}shape_power_of_2.py:42:9: error: Shape element 1 must be a power of 2, got shape [16, 3]
import triton
import triton.language as tl


@triton.jit
def zeros(x_ptr):
    tl.store(x_ptr, tl.sum(tl.zeros((10,), tl.float32)))
    tl.store(x_ptr, tl.sum(tl.zeros((12,), tl.float32)))


@triton.jit
def full2d(x_ptr):
    v = tl.full((4, 12), 1.0, tl.float32)
    tl.store(x_ptr, tl.sum(tl.sum(v, 1), 0))


@triton.jit
def reshape(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 64))
    w = tl.reshape(v, (6, 8))
    tl.store(x_ptr, tl.sum(tl.sum(w, 1), 0))


@triton.jit
def bcast(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 16))
    w = tl.broadcast_to(v[:, None], (16, 3))
    tl.store(x_ptr, tl.sum(tl.sum(w, 1), 0))


@triton.jit
def negative(x_ptr):
    v = tl.zeros([-4], tl.float32) + 1.0
    tl.store(x_ptr, tl.sum(v))
