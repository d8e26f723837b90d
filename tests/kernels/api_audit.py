# KERNEL: dtype_api_kernel
# SIGNATURE: *fp16:16,*i64:16
# CONSTEXPR: N=16, DT=tl.float16
# GRID: 1
#
# KERNEL: dtype_api_kernel
# SIGNATURE: *bf16:16,*i64:16
# CONSTEXPR: N=16, DT=tl.bfloat16
# GRID: 1
#
# KERNEL: dtype_api_kernel
# SIGNATURE: *i8:16,*i64:16
# CONSTEXPR: N=16, DT=tl.int8
# GRID: 1
#
# KERNEL: dtype_api_kernel
# SIGNATURE: *u16:16,*i64:16
# CONSTEXPR: N=16, DT=tl.uint16
# GRID: 1
#
# KERNEL: fp8_dispatch_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64, F8=tl.float8e5
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fp8_dispatch_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64, F8=tl.float8e4nv
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_minmax_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64, NAN_ALL=True
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_minmax_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64, NAN_ALL=False
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_minmax_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,*fp64:16,i32
# CONSTEXPR: BLOCK=64, NAN_ALL=True
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_minmax_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=64, NAN_ALL=True
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nan_minmax_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,i32
# CONSTEXPR: BLOCK=64, NAN_ALL=True
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fma_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fma_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: scan_dtypes_kernel
# SIGNATURE: *i8:16,*i32:16,*i8:16,i32
# CONSTEXPR: BLOCK=32
# GRID: ROWS
#
# KERNEL: scan_dtypes_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=32
# GRID: ROWS
#
# KERNEL: desc_atomic_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BM=16, BN=16, OP="add"
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: desc_atomic_kernel
# SIGNATURE: *i32:16,*i32:16,i32,i32:16
# CONSTEXPR: BM=16, BN=16, OP="max"
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: desc_atomic_kernel
# SIGNATURE: *i32:16,*i32:16,i32,i32:16
# CONSTEXPR: BM=16, BN=16, OP="xor"
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: cas_computed_kernel
# SIGNATURE: *i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: cas_computed_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: cas_computed_kernel
# SIGNATURE: *i16:16,*i16:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: cas_computed_kernel
# SIGNATURE: *fp64:16,*fp64:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: tensor_methods_kernel
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=32
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bitonic_merge_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: ROWS=4, N=32
# GRID: 1
#
# KERNEL: loop_hints_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: target_info_kernel
# SIGNATURE: *i32
# CONSTEXPR:
# GRID: 1
#
# KERNEL: print_hex_kernel
# SIGNATURE: *fp32:16
# CONSTEXPR: N=2
# GRID: 1
"""Triton 3.6's triton.language API where tritonc had gaps, written as
kernels use it (an audit of the API against tritonc; the checks are
tests/python/test_api_audit.py, the errors tests/errors/py/api_audit.py):

* dtype objects at compile time: primitive_bitwidth, fp_mantissa_width,
  exponent_bias, scalar, name, is_int8()..is_uint64(), is_fp8e4nv(),
  is_standard_floating(), get_int_max_value(), a block type's shape and
  numel, a pointer's address_space, `.value` of a constexpr;
* comparisons with the fp8 formats NVIDIA GPUs lack (tl.float8e4b8, ...);
* PropagateNan.ALL in tl.maximum / tl.minimum / tl.clamp, fp16 to fp64;
* tl.fma on fp16 and bf16; cumsum / cumprod result dtypes;
* tensor descriptor atomics (desc.atomic_add / max / xor);
* tl.atomic_cas with computed operands, 16 to 64 bits;
* tensor.cdiv / logical_and / logical_or / item, tl.bitonic_merge;
* tl.range(disable_licm=True), tl.condition, tl.target_info;
* tl.device_print(hex=True).
(no Triton dumps yet)"""
import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq, is_cuda


@triton.jit
def dtype_api_kernel(X, O, N: tl.constexpr, DT: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.static_assert(x.dtype == DT)
    tl.static_assert(x.type.scalar == DT and X.dtype.element_ty == DT)
    tl.static_assert(x.type.shape[0] == N and x.type.numel == N)
    tl.static_assert(x.type.is_block() and not DT.is_block())
    tl.static_assert(X.dtype.is_ptr() and not X.dtype.is_const())
    tl.static_assert(X.dtype.address_space == 1)
    tl.static_assert(DT.value == DT and N.value == N)
    facts = tl.zeros((16,), tl.int64)
    o = tl.arange(0, 16)
    facts = tl.where(o == 0, DT.primitive_bitwidth, facts)
    facts = tl.where(o == 1, x.dtype.is_floating(), facts)
    facts = tl.where(o == 2, DT.is_int_signed(), facts)
    facts = tl.where(o == 3, DT.is_int_unsigned(), facts)
    facts = tl.where(o == 4, DT.is_standard_floating(), facts)
    if DT.is_floating():
        facts = tl.where(o == 5, DT.fp_mantissa_width, facts)
        facts = tl.where(o == 6, DT.exponent_bias, facts)
    else:
        facts = tl.where(o == 5, DT.get_int_max_value(), facts)
        facts = tl.where(o == 6, DT.get_int_min_value(), facts)
    facts = tl.where(o == 7, DT.is_fp16() + 2 * DT.is_bf16() + 4 * DT.is_int8() + 8 * DT.is_uint16(), facts)
    facts = tl.where(o == 8, DT.is_int16() + 2 * DT.is_uint8() + 4 * DT.is_int1() + 8 * DT.is_fp8e4nv(), facts)
    facts = tl.where(o == 9, x.type.element_ty.primitive_bitwidth // 8, facts)
    if DT.name == "fp16":
        facts = tl.where(o == 10, 1, facts)
    elif DT.name == "bf16":
        facts = tl.where(o == 10, 2, facts)
    elif DT.name == "int8":
        facts = tl.where(o == 10, 3, facts)
    else:
        facts = tl.where(o == 10, 4, facts)
    facts = tl.where(o == 11, tl.float8e4b8.is_fp8e4b8() + 2 * tl.float8e5b16.is_fp8() + 4 * tl.float8e4b15.is_floating(),
                     facts)
    facts = tl.where(o == 12, tl.float8e4b15.exponent_bias + 100 * tl.float8e5b16.exponent_bias, facts)
    facts = tl.where(o == 13, tl.constexpr(7).value + x.shape[0].value, facts)
    facts = tl.where(o == 14, tl.sum(x.to(tl.float32), 0).to(tl.int64), facts)
    tl.store(O + o, facts)


@triton.jit
def fp8_dispatch_kernel(X, Y, n, BLOCK: tl.constexpr, F8: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    # a library's dispatch over every fp8 format Triton names; on NVIDIA
    # GPUs only e4nv and e5 are ever taken
    if (F8 == tl.float8e4b8) or (F8 == tl.float8e5b16):
        y = x
    elif F8 == tl.float8e4b15:
        y = -x
    elif F8.is_fp8e4nv():
        y = tl.clamp(x, -448.0, 448.0).to(F8).to(tl.float32)
    else:
        tl.static_assert(F8.is_fp8e5() and F8.fp_mantissa_width == 2)
        y = x.to(F8).to(tl.float32)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def nan_minmax_kernel(X, Lo, Hi, Y, n, BLOCK: tl.constexpr, NAN_ALL: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    lo = tl.load(Lo + offs, mask=mask)
    hi = tl.load(Hi + offs, mask=mask)
    prop: tl.constexpr = tl.PropagateNan.ALL if NAN_ALL else tl.PropagateNan.NONE
    c = tl.clamp(x, lo, hi, propagate_nan=prop)
    mx = tl.maximum(x, lo, propagate_nan=prop)
    mn = tl.minimum(x, hi, prop)
    # three results side by side: [clamp | maximum | minimum]
    tl.store(Y + offs, c, mask=mask)
    tl.store(Y + n + offs, mx, mask=mask)
    tl.store(Y + 2 * n + offs, mn, mask=mask)


@triton.jit
def fma_kernel(A, B, C, D, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(A + offs, mask=mask)
    b = tl.load(B + offs, mask=mask)
    c = tl.load(C + offs, mask=mask)
    d = tl.fma(a, b, c)
    tl.static_assert(d.dtype == A.dtype.element_ty)
    d = tl.math.fma(d, 0.5, c)
    tl.store(D + offs, d, mask=mask)


@triton.jit
def scan_dtypes_kernel(X, S, P, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + row * n + offs, mask=mask, other=1)
    s = tl.cumsum(x, 0)
    p = x.cumprod(0)
    if X.dtype.element_ty == tl.bfloat16:
        tl.static_assert(s.dtype == tl.float32 and p.dtype == tl.float32)
    else:
        tl.static_assert(s.dtype == tl.int32 and p.dtype == tl.int8)
    tl.store(S + row * n + offs, s, mask=mask)
    tl.store(P + row * n + offs, p, mask=mask)


@triton.jit
def desc_atomic_kernel(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr, OP: tl.constexpr):
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    src = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(Y, [M, N], [N, 1], [BM, BN])
    v = src.load([pm, pn])
    if OP == "add":
        dst.atomic_add([pm, pn], v)
        dst.atomic_add([pm, pn], v)
    elif OP == "max":
        dst.atomic_max([pm, pn], v)
    else:
        dst.atomic_xor([pm, pn], v)


@triton.jit
def cas_computed_kernel(P, R, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # atomic_cas takes no mask: lanes past n work on a scratch slot, P[n]
    idx = tl.where(mask, offs, n)
    old = tl.load(P + idx)
    # expected and new values are expressions, not loads: each element
    # swaps in old + 1 where it still holds old (all of them, one owner each)
    r = tl.atomic_cas(P + idx, old * 1, (old + 1).to(P.dtype.element_ty), sem="acq_rel", scope="gpu")
    tl.store(R + offs, r, mask=mask)


@triton.jit
def tensor_methods_kernel(X, I, Y, J, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    i = tl.load(I + offs, mask=mask, other=1)
    pos = (x > 0).logical_and(x < 1)
    big = (x < -1).logical_or(x > 1)
    q = i.cdiv(3) + tl.cdiv(i, 5)
    first = tl.sum(tl.where(offs == tl.program_id(0) * BLOCK, x, 0.0)[None, :], 1).item()
    tl.store(Y + offs, tl.where(pos, 1.0, 0.0) + tl.where(big, 10.0, 0.0) + first, mask=mask)
    tl.store(J + offs, q, mask=mask)


@triton.jit
def bitonic_merge_kernel(X, Y, ROWS: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c)
    # rows that are bitonic (up then down) merge into sorted rows
    tl.store(Y + r * N + c, tl.bitonic_merge(x))
    tl.store(Y + ROWS * N + r * N + c, tl.bitonic_merge(x, descending=True))


@triton.jit
def loop_hints_kernel(X, Y, n, rows, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros((BLOCK,), tl.float32)
    for r in tl.range(0, rows, disable_licm=True):
        acc += tl.load(X + r * n + offs, mask=mask, other=0.0)
    k = 0
    while tl.condition(k < rows, disable_licm=True):
        acc -= 0.5 * tl.load(X + k * n + offs, mask=mask, other=0.0)
        k += 1
    tl.store(Y + offs, acc, mask=mask)


@triton.jit
def target_info_kernel(Y):
    flags = 0
    if is_cuda():
        flags += 1
    if tl.target_info.is_hip():
        flags += 2
    if cuda_capability_geq(8, 0):
        flags += 4
    if cuda_capability_geq(9):
        flags += 8
    if tl.target_info.cuda_capability_geq(10, 0):
        flags += 16
    tl.store(Y, flags)


@triton.jit
def print_hex_kernel(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.device_print("f32", x, hex=True)
    tl.device_print("f16", x.to(tl.float16), hex=True)
    tl.device_print("i8", x.to(tl.int8), hex=True)
    tl.device_print("sum", tl.sum(x, 0).to(tl.int64), hex=True)
