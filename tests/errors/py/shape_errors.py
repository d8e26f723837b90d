# RUN: not %tritonc compile %s --kernel arange_np2 --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NP2
# RUN: not %tritonc compile %s --kernel arange_rev --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=REV
# RUN: not %tritonc compile %s --kernel arange_float --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=AFLOAT
# RUN: not %tritonc compile %s --kernel reshape_numel --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=RESHAPE
# RUN: not %tritonc compile %s --kernel axes --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=AXES
# RUN: not %tritonc compile %s --kernel transposes --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=TRANS
# RUN: not %tritonc compile %s --kernel broadcasts --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BCAST
# RUN: not %tritonc compile %s --kernel indexing --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=INDEX
# Shapes and axes: tl.arange's bounds, reshapes that change the element
# count, axes out of range, transposes of 1-D tensors, bad permutations,
# broadcasts and joins of other shapes, and indexing a tensor with anything
# but None and ':' (Triton has no integer indexing).
# NP2: {{.*}}shape_errors.py:45:18: error: arange's range must be a power of 2
# NP2-NOT: error:
# REV: {{.*}}shape_errors.py:50:18: error: arange's end argument must be greater than the start argument
# REV-NOT: error:
# AFLOAT: {{.*}}shape_errors.py:55:18: error: arange's arguments must be of type tl.constexpr
# AFLOAT-NOT: error:
# RESHAPE: {{.*}}shape_errors.py:61:9: error: reshape() cannot change total number of elements in tensor
# RESHAPE-NOT: error:
# AXES: {{.*}}shape_errors.py:68:17: error: axis 1 is out of bounds for a tensor of rank 1
# AXES: {{.*}}shape_errors.py:69:17: error: axis -2 is out of bounds for a tensor of rank 1
# AXES: {{.*}}shape_errors.py:70:36: error: axis 2 is out of bounds for a tensor of rank 1
# AXES: {{.*}}shape_errors.py:71:36: error: invalid axis 3. Expected -2 <= axis < 2
# AXES-NOT: error:
# TRANS: {{.*}}shape_errors.py:77:36: error: trans() with no dims needs a 2D tensor; pass the dims
# TRANS: {{.*}}shape_errors.py:78:36: error: permute dims must have the same length as input shape
# TRANS: {{.*}}shape_errors.py:80:45: error: permute dims must be a permutation of 0, 1, ..., n-1
# TRANS-NOT: error:
# BCAST: {{.*}}shape_errors.py:87:36: error: Cannot broadcast, the expanded size of the tensor (32) must match the existing size (16) at non-singleton dimension 0: [16], [32]
# BCAST: {{.*}}shape_errors.py:88:36: error: Cannot make_shape_compatible: incompatible dimensions at index 0: 16 and 32
# BCAST: {{.*}}shape_errors.py:89:12: error: split() needs a tensor whose last dimension is 2, got <[16], fp32>
# BCAST-NOT: error:
# INDEX: {{.*}}shape_errors.py:95:17: error: unsupported tensor index: only None and ':' are supported
# INDEX: {{.*}}shape_errors.py:96:35: error: unsupported tensor index: only None and ':' are supported
# INDEX: {{.*}}shape_errors.py:97:17: error: tuple index out of range
# INDEX: {{.*}}shape_errors.py:99:17: error: tuple index out of range
# INDEX-NOT: error:
import triton
import triton.language as tl


@triton.jit
def arange_np2(x):
    tl.store(x + tl.arange(0, 10), 1.0)


@triton.jit
def arange_rev(x):
    tl.store(x + tl.arange(16, 0), 1.0)


@triton.jit
def arange_float(x):
    tl.store(x + tl.arange(0.0, 16), 1.0)


@triton.jit
def reshape_numel(x):
    a = tl.load(x + tl.arange(0, 16))
    b = tl.reshape(a, (4, 8))
    tl.store(x + tl.arange(0, 32), tl.reshape(b, (32,)))


@triton.jit
def axes(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x, tl.sum(v, axis=1))
    tl.store(x, tl.max(v, axis=-2))
    tl.store(x + tl.arange(0, 16), tl.cumsum(v, axis=2))
    tl.store(x + tl.arange(0, 16), tl.expand_dims(v, 3))


@triton.jit
def transposes(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x + tl.arange(0, 16), tl.trans(v))
    tl.store(x + tl.arange(0, 16), v.T)
    m = tl.load(x + tl.arange(0, 16)[:, None] + tl.arange(0, 16)[None, :])
    tl.store(x + tl.arange(0, 16)[:, None], tl.permute(m, (0, 0)))


@triton.jit
def broadcasts(x):
    v = tl.load(x + tl.arange(0, 16))
    w = tl.load(x + tl.arange(0, 32))
    tl.store(x + tl.arange(0, 32), tl.broadcast_to(v, (32,)))
    tl.store(x + tl.arange(0, 32), tl.join(v, w))
    a, b = tl.split(v)


@triton.jit
def indexing(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x, v[0])
    tl.store(x + tl.arange(0, 8), v[0:8])
    tl.store(x, v.shape[5])
    t = (1, 2)
    tl.store(x, t[5])
