# Row starts are (m0 + i) * stride: only the first row's is divisible by the
# multiple_of hint, so with a stride of unknown divisibility the rows are not
# 16-byte aligned and the load along K must not be vectorised (it was: a
# misaligned-address fault on the GPU for odd strides). The load still
# takes the aligned store's layout (8 elements per thread along K, as
# Triton's coalesce gives a load the widest of the accesses related to it:
# no conversion between them), each thread reading its 8 elements one at a
# time. With a stride divisible by 16 every row start is aligned and 8 fp16
# go in one access.
# RUN: %tritonc compile %S/Inputs/row_offsets.py --kernel rows_kernel --signature '*fp16:16,*fp16:16,i32,i32,i32' -D BLOCK_M=32 -D BLOCK_K=64 --emit ttgir --target cuda:90 | FileCheck %s --check-prefix=ODD
# ODD-DAG: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8],
# ODD: tt.load {{.*}}tensor<32x64x!tt.ptr<f16>, [[B]]>
# ODD-NOT: ttg.convert_layout
# RUN: %tritonc compile %S/Inputs/row_offsets.py --kernel rows_kernel --signature '*fp16:16,*fp16:16,i32,i32,i32' -D BLOCK_M=32 -D BLOCK_K=64 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=ODDPTX
# ODDPTX-NOT: ld.global.v
# ODDPTX-COUNT-8: ld.global.b16 %h{{[0-9]+}}, [%rd[[R:[0-9]+]]{{(\+[0-9]+)?}}];
# ODDPTX-NOT: ld.global.v
# ODDPTX: st.global.v4.b32
# RUN: %tritonc compile %S/Inputs/row_offsets.py --kernel rows_kernel --signature '*fp16:16,*fp16:16,i32,i32,i32:16' -D BLOCK_M=32 -D BLOCK_K=64 --emit ttgir --target cuda:90 | FileCheck %s --check-prefix=ALIGNED
# ALIGNED-DAG: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8],
# ALIGNED: tt.load {{.*}}tensor<32x64x!tt.ptr<f16>, [[B]]>
