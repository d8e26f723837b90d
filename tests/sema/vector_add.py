# RUN: %tritonc compile %S/../kernels/vector_add.py --kernel add_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=1024 --emit ttir-raw | FileCheck %s
# CHECK-LABEL: tt.func public @add_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}
# CHECK-SAME: %arg3: i32)
# CHECK: tt.get_program_id x : i32
# CHECK: arith.constant 1024 : i32
# CHECK: arith.muli
# CHECK: tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
# CHECK: tt.splat
# CHECK: arith.addi {{.*}} : tensor<1024xi32>
# CHECK: arith.cmpi slt, {{.*}} : tensor<1024xi32>
# CHECK: tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
# CHECK: tt.addptr
# CHECK: tt.load
# CHECK: tt.load
# CHECK: arith.addf {{.*}} : tensor<1024xf32>
# CHECK: tt.store
# CHECK: tt.return
