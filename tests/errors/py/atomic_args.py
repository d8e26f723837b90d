# RUN: not %tritonc compile %s --kernel masks --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MASK
# RUN: not %tritonc compile %s --kernel scalar_ptr --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=SCALAR
# RUN: not %tritonc compile %s --kernel not_ptr --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NOTPTR
# Atomics given a mask that is not boolean, or a block mask, value or
# compare value on a scalar pointer, say so at that argument as tl.load and
# tl.store do (they were the IR verifier's "'tt.atomic_rmw' op mask type
# 'f32' must be i1 ...", at the call); a pointer argument that is not one is
# named by its type (it was "tensor").
# MASK: {{.*}}atomic_args.py:27:32: error: Mask must have boolean scalar type, got fp32
# MASK: {{.*}}atomic_args.py:28:51: error: Mask must have boolean scalar type, got int32
# MASK-NOT: error:
# SCALAR: {{.*}}atomic_args.py:33:32: error: Mask argument cannot be block type if pointer argument is not a block
# SCALAR: {{.*}}atomic_args.py:34:23: error: Value argument cannot be block type if pointer argument is not a block
# SCALAR: {{.*}}atomic_args.py:35:22: error: Compare argument cannot be block type if pointer argument is not a block
# SCALAR: {{.*}}atomic_args.py:36:27: error: Value argument cannot be block type if pointer argument is not a block
# SCALAR-NOT: error:
# NOTPTR: {{.*}}atomic_args.py:41:5: error: Pointer argument of store instruction is int32
# NOTPTR: {{.*}}atomic_args.py:42:5: error: atomic_cas needs a pointer, got int32
# NOTPTR-NOT: error:
import triton
import triton.language as tl


@triton.jit
def masks(x):
    o = tl.arange(0, 16)
    tl.atomic_add(x, 1.0, mask=1.5)
    tl.atomic_max(x + o, 1.0, sem="relaxed", mask=o)


@triton.jit
def scalar_ptr(x):
    tl.atomic_add(x, 1.0, mask=tl.arange(0, 16) < 3)
    tl.atomic_xchg(x, tl.arange(0, 16).to(tl.float32))
    tl.atomic_cas(x, tl.arange(0, 16).to(tl.float32), 1.0)
    tl.atomic_cas(x, 1.0, tl.arange(0, 16).to(tl.float32))


@triton.jit
def not_ptr(x, n):
    tl.atomic_add(n, 1)
    tl.atomic_cas(n, 1, 2)
