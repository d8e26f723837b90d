# Float atomic adds on contiguous, 16-byte-aligned addresses whose mask is
# constant over a vector go out as vector atomics on sm_90 (PTX 8.1:
# atom.add.v4.f32, atom.add.noftz.v8.f16 / .v8.bf16), as Triton emits them:
# a quarter (an eighth) of the instructions. sm_80 has no vector atomics,
# and a mask that may change inside a vector (n of unknown divisibility)
# keeps them scalar.
# REQUIRES: ptxas
# RUN: %tritonc compile %S/Inputs/atomic_vector.py --kernel accumulate_kernel --signature '*fp32:16,*fp32:16,i32:16' -D BLOCK=1024 --emit ptx --target cuda:90 -o %t.f32.ptx
# RUN: FileCheck %s --check-prefix=F32 < %t.f32.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.f32.ptx -o %t.f32.cubin
# F32: .version 8.1
# F32-NOT: atom.{{.*}}.add.f32
# F32: atom.acq_rel.gpu.global.add.v4.f32 {{{%f[0-9]+}}, {{%f[0-9]+}}, {{%f[0-9]+}}, {{%f[0-9]+}}}, [{{%rd[0-9]+}}{{.*}}], {{{%f[0-9]+}}, {{%f[0-9]+}}, {{%f[0-9]+}}, {{%f[0-9]+}}}
# RUN: %tritonc compile %S/Inputs/atomic_vector.py --kernel accumulate_kernel --signature '*fp16:16,*fp16:16,i32:16' -D BLOCK=1024 --emit ptx --target cuda:90 -o %t.f16.ptx
# RUN: FileCheck %s --check-prefix=F16 < %t.f16.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.f16.ptx -o %t.f16.cubin
# F16: atom.acq_rel.gpu.global.add.noftz.v8.f16
# RUN: %tritonc compile %S/Inputs/atomic_vector.py --kernel accumulate_kernel --signature '*bf16:16,*bf16:16,i32:16' -D BLOCK=1024 --emit ptx --target cuda:90 -o %t.bf16.ptx
# RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.bf16.ptx -o %t.bf16.cubin
# BF16: atom.acq_rel.gpu.global.add.noftz.v8.bf16
# RUN: %tritonc compile %S/Inputs/atomic_vector.py --kernel accumulate_kernel --signature '*fp32:16,*fp32:16,i32:16' -D BLOCK=1024 --emit ptx --target cuda:80 | FileCheck %s --check-prefix=SM80
# SM80-NOT: atom{{.*}}.v4
# SM80: atom.acq_rel.gpu.global.add.f32
# RUN: %tritonc compile %S/Inputs/atomic_vector.py --kernel accumulate_kernel --signature '*fp32:16,*fp32:16,i32' -D BLOCK=1024 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=RAGGED
# RAGGED-NOT: atom{{.*}}.v4
# RAGGED: atom.acq_rel.gpu.global.add.f32
