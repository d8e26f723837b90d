# RUN: not %tritonc compile %s --kernel stores --signature '*fp32,*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=STORE
# RUN: not %tritonc compile %s --kernel merges --signature '*fp32,*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MERGE
# A parameter annotated tl.const is a pointer to constant data, as in
# Triton: a store or an atomic through it (or through a pointer computed
# from it) is an error at the call, and it is a type of its own, so a
# branch that gives it where the other gives a plain pointer mismatches.
# STORE: {{.*}}const_pointer.py:25:5: error: Cannot store to a constant pointer
# STORE: {{.*}}const_pointer.py:26:5: error: Cannot store to a constant pointer
# STORE: {{.*}}const_pointer.py:27:5: error: Cannot store to a constant pointer
# STORE-NOT: error:
# MERGE: {{.*}}const_pointer.py:32:9: error: Ternary expression with dynamic condition has inconsistent types const_pointer<fp32> and pointer<fp32>
# MERGE: {{.*}}const_pointer.py:33:5: error: Mismatched type for p between then block (const_pointer<fp32>) and else block (pointer<fp32>)
# MERGE-NOT: error:
import triton
import triton.language as tl


@triton.jit
def stores(src: tl.const, dst, n):
    offs = tl.arange(0, 16)
    v = tl.load(src + offs, mask=offs < n)
    tl.store(dst + offs, v, mask=offs < n)
    shifted = src + 16
    # each of these writes through the constant pointer
    tl.store(shifted + offs, v)
    tl.atomic_add(src, 1.0)
    tl.atomic_cas(src, 0.0, 1.0)


@triton.jit
def merges(src: tl.const, dst, n):
    q = src if n > 0 else dst
    if n > 0:
        p = src
    else:
        p = dst
    tl.store(dst, tl.load(q) + tl.load(p))
