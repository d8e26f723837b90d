# bf16 atomic add: sm_90 has atom.add.noftz.bf16; sm_80 has none, so the add
# becomes a compare-and-swap loop on the 16-bit word, the sum rounded once by
# fma.rn.bf16 (x * 1.0 + v). An i16 atomic_cas goes through 16-bit registers.
# REQUIRES: ptxas
# RUN: %tritonc compile %S/../kernels/atomic_dtypes.py --kernel atomic_scalar_kernel --signature '*bf16:16,*bf16:16,*bf16:16' -D OP='"add"' -D NBINS=4 --emit ptx --target cuda:80 -o %t.80.ptx
# RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
# RUN: ptxas -arch=sm_80 --warning-as-error %t.80.ptx -o %t.80.cubin
# RUN: %tritonc compile %S/../kernels/atomic_dtypes.py --kernel atomic_scalar_kernel --signature '*bf16:16,*bf16:16,*bf16:16' -D OP='"add"' -D NBINS=4 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=SM90
# RUN: %tritonc compile %S/../kernels/atomic_dtypes.py --kernel atomic_cas_kernel --signature '*i16:16,*i16:16,*i16:16,*i16:16,i32' -D BLOCK=128 --emit ptx --target cuda:80 | FileCheck %s --check-prefix=I16
# SM80-NOT: atom.{{.*}}add
# SM80: mov.b16 [[ONE:%h[0-9]+]], 0x3F80
# SM80: @!{{%p[0-9]+}} bra [[DONE:\$L__BB[0-9]+]]
# SM80-NEXT: ld.global.b16 [[OLD:%h[0-9]+]], [[[ADDR:%rd[0-9]+]]]
# SM80-NEXT: [[RETRY:\$L__BB[0-9]+]]:
# SM80-NEXT: fma.rn.bf16 [[SUM:%h[0-9]+]], [[OLD]], [[ONE]], {{%h[0-9]+}}
# SM80-NEXT: atom.acq_rel.gpu.global.cas.b16 [[CUR:%h[0-9]+]], [[[ADDR]]], [[OLD]], [[SUM]]
# SM80-NEXT: setp.ne.b16 [[AGAIN:%p[0-9]+]], [[CUR]], [[OLD]]
# SM80-NEXT: mov.b16 [[OLD]], [[CUR]]
# SM80-NEXT: @[[AGAIN]] bra [[RETRY]]
# SM80-NEXT: [[DONE]]:
# SM90-NOT: cas
# SM90: atom.acq_rel.gpu.global.add.noftz.bf16
# I16: cvt.u16.u32 [[C:%rs[0-9]+|%h[0-9]+]]
# I16: atom.acq_rel.gpu.global.cas.b16 [[R:%h[0-9]+|%rs[0-9]+]], [{{%rd[0-9]+}}], 
# I16-NEXT: cvt.s32.s16 {{%r[0-9]+}}, [[R]]
