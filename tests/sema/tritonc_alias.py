# A script written for tritonc's binding (`import tritonc as triton`) compiles
# as if it imported triton.
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,i32' -D BLOCK=64 | FileCheck %s
import tritonc as triton
import tritonc.language as tl
from tritonc.language import program_id


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    o = program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + o, o.to(tl.float32), mask=o < n)

# CHECK-LABEL: tt.func public @k(
# CHECK: tt.get_program_id x
# CHECK: tt.make_range {end = 64 : i32, start = 0 : i32}
# CHECK: arith.sitofp
# CHECK: tt.store
