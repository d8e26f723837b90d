# KERNEL: int_divmod_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,*i64:16,*u32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bit_ops_kernel
# SIGNATURE: *u32:16,*u32:16,*u32:16,*u32:16,*u32:16,*i32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# Integer arithmetic whose corner cases a compiler must get right: // and %
# on negative operands (Triton follows C: the quotient truncates toward zero
# and the remainder takes the dividend's sign), by runtime and by negative
# constant divisors, in 32 and 64 bits, signed and unsigned; bitwise ops,
# shifts (arithmetic and logical), inversion, tl.umulhi, tl.xor_sum and
# integer abs/min/max.

import triton
import triton.language as tl


@triton.jit
def int_divmod_kernel(a_ptr, b_ptr, q_ptr, r_ptr, q64_ptr, uq_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    a = tl.load(a_ptr + offs, mask=ok, other=0)
    b = tl.load(b_ptr + offs, mask=ok, other=1)
    tl.store(q_ptr + offs, a // b, mask=ok)
    tl.store(r_ptr + offs, a % b, mask=ok)
    a64 = a.to(tl.int64)
    mixed = (a64 * 3 - 7) // -4 + (a64 % -5) + tl.cdiv(a64, 3)
    tl.store(q64_ptr + offs, mixed, mask=ok)
    u = a.to(tl.uint32, bitcast=True)
    tl.store(uq_ptr + offs, u // 3 + u % 7, mask=ok)


@triton.jit
def bit_ops_kernel(a_ptr, b_ptr, hi_ptr, mix_ptr, xs_ptr, signed_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    a = tl.load(a_ptr + offs, mask=ok, other=0)
    b = tl.load(b_ptr + offs, mask=ok, other=0)
    tl.store(hi_ptr + offs, tl.umulhi(a, b), mask=ok)
    mix = (a ^ b) | ((a & 0xFF) << 3) | (b >> 5)
    tl.store(mix_ptr + offs, mix + ~a, mask=ok)
    tl.store(xs_ptr + pid, tl.xor_sum(tl.where(ok, a, 0), axis=0))
    s = a.to(tl.int32, bitcast=True)
    t = b.to(tl.int32, bitcast=True)
    signed = (s >> 3) + tl.abs(s) + tl.minimum(s, t) - tl.maximum(s, t)
    tl.store(signed_ptr + offs, signed, mask=ok)


@triton.jit
def narrow_wrap_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # i8/i16 results that leave their type's range wrap into it, as in
    # Triton (LLVM's i8/i16): |-128| and -128 // -1 are -128 in an i8, and
    # every reader (a compare, a shift, a division, a conversion) sees the
    # wrapped value. The PTX keeps them in 32-bit registers.
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=0)
    b = tl.load(b_ptr + offs, mask=m, other=1)
    s = a + b
    base = out_ptr + offs * 12
    tl.store(base + 0, s.to(tl.int32), mask=m)
    tl.store(base + 1, (s < 0).to(tl.int32), mask=m)
    tl.store(base + 2, s.to(tl.float32).to(tl.int32), mask=m)
    tl.store(base + 3, (s >> 2).to(tl.int32), mask=m)
    tl.store(base + 4, (s // 3).to(tl.int32), mask=m)
    tl.store(base + 5, (a * b).to(tl.int32), mask=m)
    tl.store(base + 6, tl.abs(a).to(tl.int32), mask=m)
    tl.store(base + 7, (-a).to(tl.int32), mask=m)
    tl.store(base + 8, tl.maximum(s, a).to(tl.int32), mask=m)
    tl.store(base + 9, (a << 3).to(tl.int32), mask=m)
    tl.store(base + 10, (a // b).to(tl.int32), mask=m)
    tl.store(base + 11, (a.to(tl.int16) * 300 // b).to(tl.int32), mask=m)
