# fp16 arithmetic uses PTX's f16 instructions (add, sub, mul, fma with the
# multiply-adds contracted, min, max, neg, abs; `-x` is Triton's 0 - x), as Triton's PTX does, rather
# than a round trip through fp32 for each op; division has no f16 instruction
# and stays in fp32. bf16 has them from sm_90; sm_80 has its fma, min, max,
# neg and abs, and adds, subtracts and multiplies with fma.rn.bf16 (a * 1 + b,
# b * -1 + a, a * b + -0). Without fp fusion the ops carry .rn and nothing
# is contracted.
# RUN: %tritonc compile %S/Inputs/f16_arith.py --kernel f16_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16' -D BLOCK=128 --emit ptx --target cuda:90 | FileCheck %s
# RUN: %tritonc compile %S/Inputs/f16_arith.py --kernel f16_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16' -D BLOCK=128 --emit ptx --target cuda:80 | FileCheck %s
# RUN: %tritonc compile %S/Inputs/f16_arith.py --kernel f16_kernel --signature '*bf16:16,*bf16:16,*bf16:16,*bf16:16' -D BLOCK=128 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=BF90
# RUN: %tritonc compile %S/Inputs/f16_arith.py --kernel f16_kernel --signature '*bf16:16,*bf16:16,*bf16:16,*bf16:16' -D BLOCK=128 --emit ptx --target cuda:80 | FileCheck %s --check-prefix=BF80
# RUN: env TRITON_DEFAULT_FP_FUSION=0 %tritonc compile %S/Inputs/f16_arith.py --kernel f16_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16' -D BLOCK=128 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=OFF
# CHECK:     add.f16 %h{{[0-9]+}}, [[X:%h[0-9]+]], [[Y:%h[0-9]+]];
# CHECK:     neg.f16 [[NY:%h[0-9]+]], [[Y]];
# CHECK:     fma.rn.f16 %h{{[0-9]+}}, [[NY]], %h{{[0-9]+}}, [[X]];
# CHECK:     fma.rn.f16 %h{{[0-9]+}}, [[X]], [[Y]], [[Z:%h[0-9]+]];
# CHECK:     max.f16 %h{{[0-9]+}}, [[X]], [[Y]];
# CHECK:     sub.f16 [[NX:%h[0-9]+]], %h{{[0-9]+}}, [[X]];
# CHECK:     abs.f16 [[AY:%h[0-9]+]], [[Y]];
# CHECK:     min.f16 %h{{[0-9]+}}, [[NX]], [[AY]];
# CHECK:     cvt.f32.f16
# CHECK:     div.full.f32
# CHECK:     mul.f16 [[XZ:%h[0-9]+]], [[X]], [[Z]];
# CHECK:     mul.f16 [[YZ:%h[0-9]+]], [[Y]], [[Z]];
# CHECK:     mul.f16 %h{{[0-9]+}}, [[XZ]], [[YZ]];
# CHECK-NOT: add.f32
# CHECK-NOT: mul.f32
# BF90:      add.bf16
# BF90:      fma.rn.bf16
# BF90:      mul.bf16
# BF90-NOT:  add.f32
# BF80-NOT:  {{(add|sub|mul).(bf16|f32)}}
# BF80:      mov.b16 [[ONE:%h[0-9]+]], 0x3F80;
# BF80-NEXT: fma.rn.bf16 %h{{[0-9]+}}, [[X:%h[0-9]+]], [[ONE]], [[Y:%h[0-9]+]];
# BF80:      mov.b16 [[NZ:%h[0-9]+]], 0x8000;
# BF80-NEXT: fma.rn.bf16 %h{{[0-9]+}}, [[X]], [[Z:%h[0-9]+]], [[NZ]];
# BF80-NOT:  {{(add|sub|mul).(bf16|f32)}}
# OFF-NOT:   fma.rn
# OFF:       add.rn.f16
# OFF:       sub.rn.f16
# OFF:       mul.rn.f16
# OFF-NOT:   fma.rn
