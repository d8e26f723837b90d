# ttg-assign-layouts on Triton's TTIR of the fp32 vector add: contiguous fp32
# accesses get 4 elements (16 bytes) per thread, as Triton's coalescing pass
# picks them.
# RUN: %tritonc opt %S/../ir/triton/add_kernel.ttir -p ttg-assign-layouts | FileCheck %s
# CHECK: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# CHECK: module attributes {{.*}}"ttg.num-warps" = 4 : i32
# CHECK: tt.make_range {{.*}}[[B]]
# CHECK: tt.load {{.*}}tensor<1024x!tt.ptr<f32>, [[B]]>
# CHECK: tt.load {{.*}}tensor<1024x!tt.ptr<f32>, [[B]]>
# CHECK-NOT: ttg.convert_layout
# CHECK: tt.store {{.*}}[[B]]
