# One small kernel per promotion rule of computation_type_impl.
# RUN: %tritonc compile %s --kernel i8_i32 --signature '*i8,*i32' --emit ttir | FileCheck %s --check-prefix=I8I32
# RUN: %tritonc compile %s --kernel u32_i32 --signature '*u32,*i32' --emit ttir | FileCheck %s --check-prefix=U32I32
# RUN: %tritonc compile %s --kernel f16_bf16 --signature '*fp16,*bf16' --emit ttir | FileCheck %s --check-prefix=F16BF16
# RUN: %tritonc compile %s --kernel f16_times_2 --signature '*fp16' --emit ttir | FileCheck %s --check-prefix=F16MUL
# RUN: %tritonc compile %s --kernel f16_div_2 --signature '*fp16' --emit ttir | FileCheck %s --check-prefix=F16DIV
# RUN: %tritonc compile %s --kernel i32_div --signature '*i32' --emit ttir | FileCheck %s --check-prefix=I32DIV
# RUN: %tritonc compile %s --kernel i32_floordiv --signature '*i32' --emit ttir | FileCheck %s --check-prefix=FLOORDIV
# RUN: %tritonc compile %s --kernel u32_floordiv --signature '*u32' --emit ttir | FileCheck %s --check-prefix=UFLOORDIV
# RUN: %tritonc compile %s --kernel i8_plus_1 --signature '*i8' --emit ttir | FileCheck %s --check-prefix=I8ONE
# RUN: %tritonc compile %s --kernel shifts --signature '*i32,*u32' --emit ttir | FileCheck %s --check-prefix=SHIFT
# RUN: %tritonc compile %s --kernel compares --signature '*u32,*fp32' --emit ttir | FileCheck %s --check-prefix=CMP
# RUN: %tritonc compile %s --kernel f32_mod --signature '*fp32' --emit ttir | FileCheck %s --check-prefix=FMOD
import triton
import triton.language as tl

# I8I32: arith.extsi {{.*}} : i8 to i32
# I8I32: arith.addi {{.*}} : i32
@triton.jit
def i8_i32(a, b):
    tl.store(b, tl.load(a) + tl.load(b))

# U32I32: arith.addi {{.*}} : i32
# U32I32-NOT: arith.ext
@triton.jit
def u32_i32(a, b):
    tl.store(b, tl.load(a) + tl.load(b))

# fp16 wins over bf16; bf16 -> fp16 goes through fp32
# F16BF16: arith.extf {{.*}} : bf16 to f32
# F16BF16: arith.truncf {{.*}} : f32 to f16
# F16BF16: arith.addf {{.*}} : f16
@triton.jit
def f16_bf16(a, b):
    tl.store(a, tl.load(a) + tl.load(b))

# F16MUL: arith.constant 2.000000e+00 : f16
# F16MUL: arith.mulf {{.*}} : f16
@triton.jit
def f16_times_2(a):
    tl.store(a, tl.load(a) * 2)

# F16DIV: arith.extf {{.*}} : f16 to f32
# F16DIV: arith.divf {{.*}} : f32
@triton.jit
def f16_div_2(a):
    tl.store(a, tl.load(a) / 2)

# I32DIV: arith.sitofp {{.*}} : i32 to f32
# I32DIV: arith.divf {{.*}} : f32
@triton.jit
def i32_div(a):
    x = tl.load(a)
    tl.store(a, (x / x).to(tl.int32))

# FLOORDIV: arith.divsi
# FLOORDIV: arith.remsi
@triton.jit
def i32_floordiv(a):
    x = tl.load(a)
    tl.store(a, x // 3 + x % 3)

# UFLOORDIV: arith.divui
# UFLOORDIV: arith.remui
@triton.jit
def u32_floordiv(a):
    x = tl.load(a)
    tl.store(a, x // 3 + x % 3)

# I8ONE: arith.constant 1 : i8
# I8ONE: arith.addi {{.*}} : i8
@triton.jit
def i8_plus_1(a):
    tl.store(a, tl.load(a) + 1)

# SHIFT: arith.shrsi {{.*}} : i32
# SHIFT: arith.shrui {{.*}} : i32
# SHIFT: arith.shli
@triton.jit
def shifts(a, b):
    tl.store(a, tl.load(a) >> 2)
    tl.store(b, tl.load(b) >> 2)
    tl.store(a, tl.load(a) << 1)

# CMP: arith.cmpi ult
# CMP: arith.cmpf olt
# CMP: arith.cmpf une
@triton.jit
def compares(a, b):
    x = tl.load(a)
    y = tl.load(b)
    tl.store(a, tl.where(x < 5, x, 0))
    tl.store(b, tl.where(y < 1.5, y, 0.0))
    tl.store(b, tl.where(y != 0.0, y, 1.0))

# FMOD: arith.remf
@triton.jit
def f32_mod(a):
    tl.store(a, tl.load(a) % 3.0)
