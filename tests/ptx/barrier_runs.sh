# A barrier right after another is not emitted (px_barrier): nothing between
# them to order. Causal attention leaves its first loop through the rings'
# last wait (cp.async.wait_group 0, then a barrier), and the next thing the
# kernel does, storing Q for the second loop's dot, would begin with a
# barrier of its own: one is written. ptxas assembles the PTX.
# RUN: %tritonc compile %S/../kernels/attention.py --kernel attn_fwd_kernel --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16' -D HEAD_DIM=64 -D BLOCK_M=64 -D BLOCK_N=64 -D CAUSAL=True --target cuda:90 --emit ptx -o %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.ptx -o %t.cubin
# CHECK: bra $L__BB1;
# CHECK-NEXT: $L__BB2:
# CHECK-NEXT: cp.async.wait_group 0;
# CHECK-NEXT: bar.sync 0;
# CHECK-NEXT: st.shared
# REQUIRES: ptxas
