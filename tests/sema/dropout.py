# tl.rand is Philox 4x32 with 10 rounds: 20 tt.mulhiui, constants as random.py.
# RUN: %tritonc compile %S/../kernels/rng.py --kernel dropout_kernel --signature '*fp32:16,*fp32:16,i32,fp32,i32' -D BLOCK=1024 --emit ttir-raw | FileCheck %s
# CHECK-LABEL: tt.func public @dropout_kernel
# CHECK-COUNT-20: tt.mulhiui
# CHECK: arith.constant 4.6566{{.*}} : f32
# CHECK: arith.select
