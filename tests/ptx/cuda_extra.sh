# tl.extra.cuda: num_threads() and num_warps() are constexprs of the launch
# options (256 and 8 with --num-warps 8); smid() and globaltimer() read the
# special registers (inline asm, as Triton makes them: GPU only).
# REQUIRES: ptxas
# RUN: %tritonc compile %S/Inputs/cuda_extra.py --kernel k_cuda_extra --signature '*i32,*i64' --num-warps 8 --emit ptx --target cuda:80 -o %t.80.ptx
# RUN: FileCheck %s < %t.80.ptx
# RUN: ptxas -arch=sm_80 --warning-as-error %t.80.ptx -o %t.80.cubin
# RUN: %tritonc compile %S/Inputs/cuda_extra.py --kernel k_cuda_extra --signature '*i32,*i64' --num-warps 8 --emit ptx --target cuda:90 -o %t.90.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.90.ptx -o %t.90.cubin
# RUN: not %tritonc compile %S/Inputs/cuda_extra.py --kernel k_cuda_extra --signature '*i32,*i64' --emit c 2>&1 | FileCheck %s --check-prefix=CPU
# CHECK: .reqntid 256, 1, 1
# CHECK: mov.b32 [[T:%r[0-9]+]], 256;
# CHECK: st.global.b32 [{{%rd[0-9]+}}], [[T]];
# CHECK: mov.b32 [[W:%r[0-9]+]], 8;
# CHECK: mov.u32 {{%r[0-9]+}}, %smid;
# CHECK: mov.u64 [[T0:%rd[0-9]+]], %globaltimer;
# CHECK: mov.u64 [[T1:%rd[0-9]+]], %globaltimer;
# CHECK: sub.s64 {{%rd[0-9]+}}, [[T1]], [[T0]];
# CPU: cuda_extra.py:9:27: error: C backend: tl.inline_asm_elementwise holds PTX, which runs on NVIDIA GPUs only
