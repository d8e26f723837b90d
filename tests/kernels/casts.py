# KERNEL: cast_kernel
# SIGNATURE: *fp32:16,*fp16:16,*bf16:16,*i32:16,*u32:16,*i8:16,*fp64:16,*fp32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fp8_roundtrip_kernel
# SIGNATURE: *fp16:16,*fp8e4nv:16,*fp8e5:16,*u8:16,*fp16:16,i32
# CONSTEXPR: BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# Conversions between element types: float narrowing with round-to-nearest
# and round-toward-zero, float to int (signed and unsigned), int truncation
# and extension, fp32 <-> fp64, bit casts both ways; and fp16 through the two
# fp8 formats of sm_89+ (e4m3 = float8e4nv, e5m2 = float8e5) and back.

import triton
import triton.language as tl


@triton.jit
def cast_kernel(x_ptr, f16_ptr, bf16_ptr, i32_ptr, bits_ptr, i8_ptr, f64_ptr, back_ptr, n,
                BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    h = x.to(tl.float16)
    h_rz = x.to(tl.float16, fp_downcast_rounding="rtz")
    tl.store(f16_ptr + offs, h, mask=ok)
    b = tl.cast(x, tl.bfloat16)
    tl.store(bf16_ptr + offs, b, mask=ok)
    i = x.to(tl.int32)
    tl.store(i32_ptr + offs, i, mask=ok)
    bits = x.to(tl.uint32, bitcast=True)
    tl.store(bits_ptr + offs, bits, mask=ok)
    small = i.to(tl.int8)
    tl.store(i8_ptr + offs, small, mask=ok)
    wide = x.to(tl.float64) * 3.0
    tl.store(f64_ptr + offs, wide, mask=ok)
    u = x.to(tl.uint8)
    back = (bits.to(tl.float32, bitcast=True) + h.to(tl.float32) + h_rz.to(tl.float32)
            + b.to(tl.float32) + small.to(tl.float32) + u.to(tl.float32) + small.to(tl.int64).to(tl.float32)
            + wide.to(tl.float32))
    tl.store(back_ptr + offs, back, mask=ok)


@triton.jit
def fp8_roundtrip_kernel(x_ptr, e4m3_ptr, e5m2_ptr, e4m3_bits_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    e4 = x.to(tl.float8e4nv)
    e5 = x.to(tl.float8e5)
    tl.store(e4m3_ptr + offs, e4, mask=ok)
    tl.store(e5m2_ptr + offs, e5, mask=ok)
    tl.store(e4m3_bits_ptr + offs, e4.to(tl.uint8, bitcast=True), mask=ok)
    y = e4.to(tl.float16) + e5.to(tl.float32).to(tl.float16)
    tl.store(out_ptr + offs, y, mask=ok)
