# 16-byte accesses in the PTX: fp32 and fp16 vector adds whose pointers and
# length are multiples of 16 load and store with .v4.b32; with a length of
# unknown divisibility the mask varies per element and fp32 accesses stay
# scalar, as in Triton's PTX.
# RUN: %tritonc compile %S/../kernels/vector_add.py --kernel add_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32:16' -D BLOCK=1024 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=F32
# RUN: %tritonc compile %S/../kernels/vector_add.py --kernel add_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32:16' -D BLOCK=2048 --emit ptx --target cuda:80 | FileCheck %s --check-prefix=F16
# RUN: %tritonc compile %S/../kernels/vector_add.py --kernel add_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=1024 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=RAGGED
# F32: .target sm_90a
# F32: .reqntid 128, 1, 1
# F32: ld.global.v4.{{b32|f32}}
# F32: ld.global.v4.{{b32|f32}}
# F32: add.f32
# F32: st.global.v4.{{b32|f32}}
# F16: .target sm_80
# F16: ld.global.v4.b32
# F16: st.global.v4.b32
# RAGGED-NOT: ld.global.v4
# RAGGED: ld.global.f32
