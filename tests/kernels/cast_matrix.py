# KERNEL: cast_matrix_kernel
# SIGNATURE: *i1:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *i8:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *i16:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *i32:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *i64:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *u8:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *u16:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *u32:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *u64:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *fp16:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *bf16:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *fp32:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *fp64:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *fp8e4nv:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
# KERNEL: cast_matrix_kernel
# SIGNATURE: *fp8e5:16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16,*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# Every pair of the corpus's dtypes: one specialisation per source dtype
# (the type of x_ptr), each casting its input to all 15 dtypes with `.to()`.
# Values that a cast leaves undefined (a float out of an integer type's
# range, negative into unsigned) are the caller's to avoid.

import triton
import triton.language as tl


@triton.jit
def cast_matrix_kernel(x_ptr, i1_ptr, i8_ptr, i16_ptr, i32_ptr, i64_ptr, u8_ptr, u16_ptr, u32_ptr,
                       u64_ptr, f16_ptr, bf16_ptr, f32_ptr, f64_ptr, e4_ptr, e5_ptr, n,
                       BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok)
    tl.store(i1_ptr + offs, x.to(tl.int1), mask=ok)
    tl.store(i8_ptr + offs, x.to(tl.int8), mask=ok)
    tl.store(i16_ptr + offs, x.to(tl.int16), mask=ok)
    tl.store(i32_ptr + offs, x.to(tl.int32), mask=ok)
    tl.store(i64_ptr + offs, x.to(tl.int64), mask=ok)
    tl.store(u8_ptr + offs, x.to(tl.uint8), mask=ok)
    tl.store(u16_ptr + offs, x.to(tl.uint16), mask=ok)
    tl.store(u32_ptr + offs, x.to(tl.uint32), mask=ok)
    tl.store(u64_ptr + offs, x.to(tl.uint64), mask=ok)
    tl.store(f16_ptr + offs, x.to(tl.float16), mask=ok)
    tl.store(bf16_ptr + offs, x.to(tl.bfloat16), mask=ok)
    tl.store(f32_ptr + offs, x.to(tl.float32), mask=ok)
    tl.store(f64_ptr + offs, x.to(tl.float64), mask=ok)
    tl.store(e4_ptr + offs, x.to(tl.float8e4nv), mask=ok)
    tl.store(e5_ptr + offs, x.to(tl.float8e5), mask=ok)
