# RUN: %tritonc compile %s --kernel k --signature '*fp32,*i32,i32' -D BLOCK=16 -D BOUNDS=True --emit ttir-raw | FileCheck %s
# `return` inside a runtime `if`: the statements after the `if` run inside the
# branch that does not return (nesting through the constexpr `if`), so the
# IR stays structured and ends in one tt.return; a value-returning helper
# yields each branch's value out of its scf.if.
import triton
import triton.language as tl


@triton.jit
def sign_class(x):
    if x < 0:
        return -1
    if x == 0:
        return 0
    return 1


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr, BOUNDS: tl.constexpr):
    pid = tl.program_id(0)
    if BOUNDS:
        if pid * BLOCK >= n:
            return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + pid)
    tl.store(y_ptr + offs, tl.zeros((BLOCK,), tl.int32) + sign_class(v), mask=offs < n)

# CHECK-LABEL: tt.func public @k
# CHECK: %[[C:.*]] = arith.cmpi sge
# CHECK-NEXT: scf.if %[[C]] {
# CHECK-NEXT: } else {
# CHECK: tt.call @{{.*}}sign_class
# CHECK: tt.store
# CHECK-NEXT: }
# CHECK-NEXT: tt.return
# CHECK-NEXT: }
# CHECK-LABEL: tt.func private @{{.*}}sign_class
# CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
# CHECK: scf.yield %{{.*}} : i32
# CHECK: } else {
# CHECK: %[[S:.*]] = scf.if %{{.*}} -> (i32) {
# CHECK: scf.yield %[[S]] : i32
# CHECK: tt.return %[[R]] : i32
# CHECK-NOT: tt.return
