# Debug-mode asserts on the GPU call CUDA's __assertfail(message, file,
# line, function, 1), as Triton's lowering does, so the failure prints
# "FILE:LINE: unknown: block: [..], thread: [..] Assertion `MESSAGE` failed."
# A thread calls it when one of its elements is false; a tile's assert ends
# with a barrier. Without --debug the asserts are gone.
# REQUIRES: ptxas
# RUN: %tritonc compile %S/Inputs/device_assert.py --kernel checked_copy_kernel --signature '*i32:16,*i32:16,i32' -D BLOCK=256 --debug --emit ptx --target cuda:80 -o %t.80.ptx
# RUN: FileCheck %s < %t.80.ptx
# RUN: ptxas -arch=sm_80 --warning-as-error %t.80.ptx -o %t.80.cubin
# RUN: %tritonc compile %S/Inputs/device_assert.py --kernel checked_copy_kernel --signature '*i32:16,*i32:16,i32' -D BLOCK=256 --debug --emit ptx --target cuda:90 -o %t.90.ptx
# RUN: FileCheck %s < %t.90.ptx
# RUN: ptxas -arch=sm_90a --warning-as-error %t.90.ptx -o %t.90.cubin
# RUN: %tritonc compile %S/Inputs/device_assert.py --kernel checked_copy_kernel --signature '*i32:16,*i32:16,i32' -D BLOCK=256 --emit ptx --target cuda:80 | FileCheck %s --check-prefix=NODEBUG
# CHECK: .extern .func __assertfail
# "n must be positive", "device_assert.py" and "unknown", NUL-terminated
# CHECK-DAG: .global .align 1 .b8 [[MSG1:\$tc_str[0-9]+]][19] = {110, 32, 109, 117, 115, 116, 32, 98, 101, 32, 112, 111, 115, 105, 116, 105, 118, 101, 0};
# CHECK-DAG: .global .align 1 .b8 [[FILE:\$tc_str[0-9]+]][{{[0-9]+}}] = {{{.*}}100, 101, 118, 105, 99, 101, 95, 97, 115, 115, 101, 114, 116, 46, 112, 121, 0};
# CHECK-DAG: .global .align 1 .b8 [[FUNC:\$tc_str[0-9]+]][8] = {117, 110, 107, 110, 111, 119, 110, 0};
# "x must be non-negative"
# CHECK-DAG: .global .align 1 .b8 [[MSG2:\$tc_str[0-9]+]][23] = {120, 32, 109, 117, 115, 116, 32, 98, 101, 32, 110, 111, 110, 45, 110, 101, 103, 97, 116, 105, 118, 101, 0};
# CHECK: .visible .entry checked_copy_kernel(
# the scalar assert, line 8
# CHECK: setp.gt.s32 [[OK:%p[0-9]+]]
# CHECK: @[[OK]] bra [[PASS:\$L__BB[0-9]+]]
# CHECK: mov.u64 [[M:%rd[0-9]+]], [[MSG1]]
# CHECK: st.param.b32 [ap2], 8;
# CHECK: call.uni __assertfail, (ap0, ap1, ap2, ap3, ap4);
# CHECK: [[PASS]]:
# CHECK-NOT: bar.sync
# the tile assert, line 11: the thread's elements and-ed, then a barrier
# CHECK: and.pred
# CHECK: bra [[PASS2:\$L__BB[0-9]+]]
# CHECK: mov.u64 {{%rd[0-9]+}}, [[MSG2]]
# CHECK: st.param.b32 [ap2], 11;
# CHECK: call.uni __assertfail
# CHECK: [[PASS2]]:
# CHECK-NEXT: bar.sync 0;
# NODEBUG-NOT: __assertfail
# NODEBUG-NOT: trap
