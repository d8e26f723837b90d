# KERNEL: bump_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
#
# KERNEL: swap_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
#
# KERNEL: dot_acc_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
#
# KERNEL: dot_acc_mma_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
#
# Kernels for tests/ptx/loop_copies.sh: the parallel copies at the end of
# scf.for bodies.

import triton
import triton.language as tl


@triton.jit
def bump_kernel(X, Y, n):
    # p is carried as `p + 512 bytes`: one in-place add per iteration
    offs = tl.arange(0, 128)
    p = X + offs
    s = tl.zeros([128], dtype=tl.float32)
    for i in range(n):
        s += tl.load(p)
        p += 128
    tl.store(Y + offs, s)


@triton.jit
def swap_kernel(X, Y, n):
    # (a, b) = (b, a + x): each destination is read by the other copy, so
    # both go through temporaries
    offs = tl.arange(0, 128)
    a = tl.zeros([128], dtype=tl.float32)
    b = tl.load(X + offs)
    for i in range(n):
        a, b = b, a + b
    tl.store(Y + offs, a)


@triton.jit
def dot_acc_kernel(A, B, C, n):
    # acc = tl.dot(a, b, acc): the FMA dot (exact fp32) accumulates into the
    # carried registers
    r = tl.arange(0, 16)
    a = tl.load(A + r[:, None] * 16 + r[None, :])
    b = tl.load(B + r[:, None] * 16 + r[None, :])
    acc = tl.zeros([16, 16], dtype=tl.float32)
    for i in range(n):
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(C + r[:, None] * 16 + r[None, :], acc)


@triton.jit
def dot_acc_mma_kernel(A, B, C, n):
    # the same with tf32 (the default): mma.sync accumulates into them
    r = tl.arange(0, 16)
    a = tl.load(A + r[:, None] * 16 + r[None, :])
    b = tl.load(B + r[:, None] * 16 + r[None, :])
    acc = tl.zeros([16, 16], dtype=tl.float32)
    for i in range(n):
        acc = tl.dot(a, b, acc)
    tl.store(C + r[:, None] * 16 + r[None, :], acc)
