# tl.trans keeps every element in its thread: the result's layout is the
# operand's with its dimensions permuted (a [1, 8] row-major tile becomes
# [8, 1] with dimension 0 fastest), and the PTX moves no data for it: the
# transposed tile stored back in the same memory order (contiguous along
# its dimension 0) is written 8 elements per access with no trip through
# shared memory.
# RUN: %tritonc compile %S/Inputs/trans_tile.py --kernel trans_kernel --signature '*fp16:16,*fp16:16' -D M=64 -D N=64 --emit ttgir --target cuda:90 | FileCheck %s --check-prefix=TTGIR
# TTGIR-DAG: [[LD:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
# TTGIR-DAG: [[TR:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
# TTGIR: tt.load {{.*}} : tensor<64x64x!tt.ptr<f16>, [[LD]]>
# TTGIR: tt.trans {{.*}} -> tensor<64x64xf16, [[TR]]>
# TTGIR: tt.store {{.*}} : tensor<64x64x!tt.ptr<f16>, [[TR]]>
# RUN: %tritonc compile %S/Inputs/trans_tile.py --kernel trans_kernel --signature '*fp16:16,*fp16:16' -D M=64 -D N=64 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=PTX
# PTX-NOT: st.shared
# PTX-NOT: bar.sync
# PTX: st.global{{.*}}.v4.b32
