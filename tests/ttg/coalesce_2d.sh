# A 2-D fp16 tile whose rows are contiguous (stride 1 along dim 1): 8 elements
# per thread along the rows, lanes along the rows first (order [1, 0]).
# RUN: %tritonc opt %S/../ir/triton/softmax_2d_kernel.ttir -p ttg-assign-layouts | FileCheck %s
# CHECK-DAG: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
# CHECK: tt.load {{.*}}tensor<16x256x!tt.ptr<f16>, [[B]]>
# The row reductions (max, sum) give slices of that layout along dim 1.
# CHECK: "tt.reduce"{{.*}}axis = 1
# CHECK: -> tensor<16xf32, #ttg.slice<{dim = 1, parent = [[B]]}>>
