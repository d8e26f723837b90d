# Contiguous fp16 accesses get 8 elements (16 bytes) per thread: the fp16
# vector add, and the rows of the fp16 layer norm.
# RUN: %tritonc opt %S/../ir/triton/add_kernel__2.ttir -p ttg-assign-layouts | FileCheck %s
# RUN: %tritonc opt %S/../ir/triton/layer_norm_fwd_kernel.ttir -p ttg-assign-layouts | FileCheck %s --check-prefix=LN
# CHECK-DAG: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# CHECK: tt.load {{.*}}tensor<2048x!tt.ptr<f16>, [[B]]>
# CHECK: tt.load {{.*}}tensor<2048x!tt.ptr<f16>, [[B]]>
# CHECK: tt.store {{.*}}tensor<2048x!tt.ptr<f16>, [[B]]>
# LN-DAG: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# LN: tt.load {{.*}}tensor<1024x!tt.ptr<f16>, [[B]]>
# LN-NOT: sizePerThread = [4]
