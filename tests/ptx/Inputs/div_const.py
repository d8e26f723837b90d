import triton
import triton.language as tl


@triton.jit
def div_const_kernel(a_ptr, q_ptr, r_ptr, v_ptr, b, BLOCK: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    tl.store(q_ptr + offs, a // D)
    tl.store(r_ptr + offs, a % D)
    tl.store(v_ptr + offs, a // b.to(a.dtype))  # a divisor known only at run time (an unsigned a: b is i64, as Triton types a Python int)


@triton.jit
def divmod_kernel(a_ptr, b_ptr, q_ptr, r_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(q_ptr + offs, a // b)
    tl.store(r_ptr + offs, a % b)  # the remainder reuses the quotient: a - (a // b) * b


@triton.jit
def floor_mod_kernel(a_ptr, o_ptr, p_ptr, BLOCK: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    tl.store(o_ptr + offs, ((a % C) + C) % C)  # Python's non-negative modulo: a & (C - 1) for C = 2^k
    tl.store(p_ptr + offs, (C + a % C) % C)
