# Tensor-core dots in the PTX (src/target/ptx/ptx_mma.c). An fp16 dot (A
# 64x32 row-major, B 32x64 row-major): both operands stored to shared
# memory as 16-byte vectors, one bar.sync, then per k step ldmatrix.x4 for
# A (plain: its rows run along k), ldmatrix.x4.trans for B (its rows run
# along n) and one mma.sync per 16x8 block, accumulating in place. bf16
# picks the .bf16 form. A B loaded as B^T (contiguous along k, attention's
# K^T) is read with the plain form. ptxas assembles all of it for sm_80.
# (sm_90 runs these dots on wgmma: tests/ptx/wgmma.py; TRITONC_WGMMA=0
# keeps mma.sync there too.)
# RUN: %tritonc compile %s --kernel dot_kernel --signature '*fp16:16,*fp16:16,*fp32:16' -D B_T=False --emit ptx --target cuda:80 -o %t.f16.ptx
# RUN: FileCheck %s --check-prefix=F16 < %t.f16.ptx
# RUN: %tritonc compile %s --kernel dot_kernel --signature '*bf16:16,*bf16:16,*fp32:16' -D B_T=False --emit ptx --target cuda:80 | FileCheck %s --check-prefix=BF16
# RUN: env TRITONC_WGMMA=0 %tritonc compile %s --kernel dot_kernel --signature '*fp16:16,*fp16:16,*fp32:16' -D B_T=True --emit ptx --target cuda:90 | FileCheck %s --check-prefix=KT
# F16: st.shared.v4.b32
# F16: bar.sync 0
# F16: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%r{{[0-9]+}}+{{[0-9]+}}]
# F16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
# F16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {[[C0:%f[0-9]+]], [[C1:%f[0-9]+]], [[C2:%f[0-9]+]], [[C3:%f[0-9]+]]}, {{.*}}, {[[C0]], [[C1]], [[C2]], [[C3]]}
# F16-NOT: fma.rn.f32
# BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# KT-NOT: .trans
# KT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# REQUIRES: ptxas
# RUN: ptxas -arch=sm_80 --warning-as-error %t.f16.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, B_T: tl.constexpr):
    m = tl.arange(0, 64)
    n = tl.arange(0, 64)
    k = tl.arange(0, 32)
    a = tl.load(a_ptr + m[:, None] * 32 + k[None, :])
    if B_T:
        b = tl.load(b_ptr + k[:, None] + n[None, :] * 32)
    else:
        b = tl.load(b_ptr + k[:, None] * 64 + n[None, :])
    tl.store(c_ptr + m[:, None] * 64 + n[None, :], tl.dot(a, b))
