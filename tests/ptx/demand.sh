# The demand analysis (src/target/ptx/ptx_demand.c): a 64x64 fp16 tile at 4
# warps is 4 vectors of 8 per thread, so the mask `(rows < M) & (cols < N)`
# (N a multiple of 16: constant over each vector) and the pointer tile are
# computed at the 4 vector heads only: 4 and.pred, the column compare once
# (through the broadcast), and the loop carries 4 pointers, not 32.
# RUN: %tritonc compile %S/Inputs/demand_kernel.py --kernel masked_tile_copy --signature '*fp16:16,*fp16:16,i32,i32:16,i32:16' -D ITERS=3 -D BM=64 -D BN=64 --emit ptx --target cuda:90 | FileCheck %s
# With N of unknown divisibility the mask varies inside a vector: scalar
# accesses, every slot computed.
# RUN: %tritonc compile %S/Inputs/demand_kernel.py --kernel masked_tile_copy --signature '*fp16:16,*fp16:16,i32,i32,i32:16' -D ITERS=3 -D BM=64 -D BN=64 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=SCALAR
# CHECK-COUNT-5: setp.lt.s32
# CHECK-NOT: setp.lt.s32
# CHECK-COUNT-4: and.pred
# CHECK-NOT: and.pred
# CHECK: $L__BB1:
# CHECK-COUNT-4: ld.global.v4.b32
# CHECK-NOT: ld.global
# CHECK-COUNT-4: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 128;
# CHECK-NOT: add.s64
# CHECK: bra $L__BB1;
# CHECK-COUNT-4: st.global.v4.b32
# CHECK-NOT: st.global
# SCALAR-COUNT-32: and.pred
# SCALAR: ld.global.b16
# SCALAR-COUNT-32: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 128;
