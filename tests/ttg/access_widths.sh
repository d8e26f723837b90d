# A load takes the widest elements-per-thread of the same-shaped accesses
# related to it (Triton's coalesce): x's rows are not 16-byte aligned, but
# the bias load and the store are, so x is laid out as they are (4 fp32 per
# thread, read one at a time) and nothing is converted.
# RUN: %tritonc compile %S/Inputs/access_widths.py --kernel bias_rows_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=1024 --emit ttgir --target cuda:90 | FileCheck %s --check-prefix=BIAS
# BIAS: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
# BIAS-NOT: #blocked1
# BIAS-NOT: ttg.convert_layout
# RUN: %tritonc compile %S/Inputs/access_widths.py --kernel bias_rows_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=1024 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=BIASPTX
# BIASPTX-COUNT-8: ld.global.f32
# BIASPTX: ld.global.v4.f32
# BIASPTX: st.global.v4.f32
# Not past the narrowest store: the output rows are as unaligned as x's,
# so only w's load keeps the vector width, and it alone is converted.
# RUN: %tritonc compile %S/Inputs/access_widths.py --kernel unaligned_out_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK=1024 --emit ttgir --target cuda:90 | FileCheck %s --check-prefix=OUT
# OUT-DAG: [[ONE:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1],
# OUT-DAG: [[FOUR:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4],
# OUT: tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, [[ONE]]>
# OUT: tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, [[FOUR]]>
# OUT-COUNT-1: ttg.convert_layout {{.*}} [[FOUR]]> -> {{.*}}[[ONE]]>
# OUT-NOT: ttg.convert_layout
# OUT: tt.store {{.*}} : tensor<1024x!tt.ptr<f32>, [[ONE]]>
