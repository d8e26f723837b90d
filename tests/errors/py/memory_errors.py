# RUN: not %tritonc compile %s --kernel not_ptr --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NOTPTR
# RUN: not %tritonc compile %s --kernel masks --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MASK
# RUN: not %tritonc compile %s --kernel store_shape --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=STORE
# RUN: not %tritonc compile %s --kernel block_ptrs --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BLOCK
# RUN: not %tritonc compile %s --kernel modifiers --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MOD
# RUN: not %tritonc compile %s --kernel atomics --signature '*i8,*fp16' --emit ttir 2>&1 | FileCheck %s --check-prefix=ATOMIC
# RUN: not %tritonc compile %s --kernel descriptor --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=DESC
# Loads, stores and atomics: what is not a pointer, masks and values of
# another shape or type, `other` without a mask, block pointers given a
# mask or dimensions they lack, unknown cache and eviction modifiers and
# memory orders (a modifier that is not a string is named, at the
# argument: it was "store(): expected a string, got float" at the call),
# and atomics on dtypes the hardware lacks. A load's mask that is not
# boolean is an error at the mask, as a store's is (it was the IR
# verifier's "'tt.load' op mask type ... must be i1"). A descriptor's load
# given offsets of another rank names load() (it said advance()).
# NOTPTR: {{.*}}memory_errors.py:49:9: error: Unsupported ptr type int32 in `tl.load`
# NOTPTR: {{.*}}memory_errors.py:50:9: error: Unsupported ptr type float in `tl.load`
# NOTPTR: {{.*}}memory_errors.py:51:5: error: Unsupported ptr type int32 in `tl.store`
# NOTPTR-NOT: error:
# MASK: {{.*}}memory_errors.py:57:9: error: Cannot make_shape_compatible: incompatible dimensions at index 0: 16 and 32
# MASK: {{.*}}memory_errors.py:58:9: error: `other` cannot be provided without `mask`
# MASK: {{.*}}memory_errors.py:59:5: error: Mask must have boolean scalar type
# MASK: {{.*}}memory_errors.py:60:29: error: Mask must have boolean scalar type, got int32
# MASK-NOT: error:
# STORE: {{.*}}memory_errors.py:65:5: error: Cannot make_shape_compatible: incompatible dimensions at index 0: 16 and 32
# STORE-NOT: error:
# BLOCK: {{.*}}memory_errors.py:71:9: error: `mask` and `other` arguments cannot be specified for loading block pointers
# BLOCK: {{.*}}memory_errors.py:72:9: error: boundary_check must be a tuple of dimensions in [0, 2)
# BLOCK: {{.*}}memory_errors.py:73:9: error: Expected shape/strides/offsets/block_shape/order to have the same length
# BLOCK: {{.*}}memory_errors.py:74:9: error: advance(): expected 2 offsets, got 1
# BLOCK-NOT: error:
# MOD: {{.*}}memory_errors.py:79:9: error: Cache modifier .foo not supported
# MOD: {{.*}}memory_errors.py:80:9: error: Eviction policy bogus not supported
# MOD: {{.*}}memory_errors.py:81:5: error: Memory semantic bogus not supported
# MOD: {{.*}}memory_errors.py:82:32: error: store(): cache_modifier must be a string, got float
# MOD-NOT: error:
# ATOMIC: {{.*}}memory_errors.py:87:5: error: atomic_add does not support int8
# ATOMIC: {{.*}}memory_errors.py:88:5: error: atomic_max does not support fp16
# ATOMIC-NOT: error:
# DESC: {{.*}}memory_errors.py:94:9: error: load(): expected 2 offsets, got 1
# DESC-NOT: error:
import triton
import triton.language as tl


@triton.jit
def not_ptr(x, n):
    a = tl.load(n)
    b = tl.load(1.5)
    tl.store(n, 1.0)


@triton.jit
def masks(x):
    o = tl.arange(0, 16)
    a = tl.load(x + o, mask=tl.arange(0, 32) < 3)
    b = tl.load(x + o, other=0.0)
    tl.store(x + o, 1.0, mask=o * 1.5)
    c = tl.load(x + o, mask=o)


@triton.jit
def store_shape(x):
    tl.store(x + tl.arange(0, 16), tl.zeros((32,), tl.float32))


@triton.jit
def block_ptrs(x, n):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (16, 16), (1, 0))
    v = tl.load(p, mask=None, other=0.0)
    w = tl.load(p, boundary_check=(2,))
    q = tl.make_block_ptr(x, (n, n), (n, 1), (0,), (16, 16), (1, 0))
    p = tl.advance(p, (16,))


@triton.jit
def modifiers(x):
    a = tl.load(x, cache_modifier=".foo")
    b = tl.load(x, eviction_policy="bogus")
    tl.atomic_add(x, 1.0, sem="bogus")
    tl.store(x, 1.0, None, (), 3.0)


@triton.jit
def atomics(x, h):
    tl.atomic_add(x, 1)
    tl.atomic_max(h, 1.0)


@triton.jit
def descriptor(x, n):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [16, 16])
    v = d.load([0])
