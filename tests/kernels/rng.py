# KERNEL: dropout_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,fp32,i32
# CONSTEXPR: BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# KERNEL: random_fill_kernel
# SIGNATURE: *fp32:16,*u32:16,*i32:16,i32,i64
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# Counter-based random numbers (Philox): dropout with a seeded tl.rand mask,
# and a fill kernel that draws normals (tl.randn), raw 32-bit words
# (tl.randint) and a bounded integer built from tl.randint4x, with a 64-bit
# seed.

import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok)
    u = tl.rand(seed, offs)
    keep = u > p
    out = tl.where(keep, x / (1 - p), 0.0)
    tl.store(out_ptr + offs, out, mask=ok)


@triton.jit
def random_fill_kernel(normal_ptr, bits_ptr, dice_ptr, n, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    z = tl.randn(seed, offs)
    bits = tl.randint(seed, offs)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    dice = ((r0 ^ r1 ^ r2 ^ r3) % 6).to(tl.int32) + 1
    tl.store(normal_ptr + offs, z, mask=ok)
    tl.store(bits_ptr + offs, bits, mask=ok)
    tl.store(dice_ptr + offs, dice, mask=ok)
