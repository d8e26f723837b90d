# RUN: %tritonc compile %S/../kernels/softmax.py --kernel softmax_kernel --signature '*fp32:16,*fp32:16,i32:16,i32:16,i32,i32' -D BLOCK_SIZE=1024 -D NUM_STAGES=2 --emit ttir | FileCheck %s
# CHECK-LABEL: tt.func public @softmax_kernel
# CHECK: "tt.reduce"
# CHECK: arith.maxnumf
# CHECK: tt.reduce.return
# CHECK: math.exp
# CHECK: "tt.reduce"
# CHECK: arith.addf
# CHECK: arith.divf
