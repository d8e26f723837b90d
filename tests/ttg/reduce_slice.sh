# Reductions produce slice layouts of their operand's layout: along dim 1 a
# #ttg.slice<{dim = 1}>, along dim 0 a #ttg.slice<{dim = 0}>; the full
# reduction returns a scalar. The expand_dims of a slice gets the parent back.
# RUN: %tritonc opt %S/../ir/triton/reduce_2d_kernel.ttir -p ttg-assign-layouts | FileCheck %s
# CHECK-DAG: [[P:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
# CHECK: "tt.reduce"{{.*}}axis = 1
# CHECK: }) : (tensor<32x64xf32, [[P]]>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = [[P]]}>>
# CHECK: "tt.reduce"{{.*}}axis = 0
# CHECK: }) : (tensor<32x64xf32, [[P]]>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = [[P]]}>>
# CHECK: tt.expand_dims {{.*}}#ttg.slice<{dim = 0, parent = [[P]]}>> -> tensor<1x64xf32, [[P]]>
# CHECK: "tt.reduce"{{.*}}axis = 1
# CHECK: -> tensor<32xf32, #ttg.slice<{dim = 1, parent = [[P]]}>>
# CHECK: "tt.reduce"{{.*}}axis = 0
# CHECK: }) : (tensor<2048xf32, #blocked{{[0-9]*}}>) -> f32
