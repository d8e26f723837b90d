# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}range_step_zero.py:12:26: error: range() arg 3 must not be zero
# CHECK: {{.*}}range_step_zero.py:14:26: error: range() arg 3 must not be zero
# CHECK: {{.*}}range_step_zero.py:16:29: error: range() arg 3 must not be zero
# A constexpr step of 0 used to become an scf.for that never ends.
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, STEP: tl.constexpr = 0):
    for i in range(0, n, 0):
        tl.store(x_ptr + i, 1.0)
    for i in range(0, n, STEP):
        tl.store(x_ptr + i, 2.0)
    for i in tl.range(0, n, STEP * 2, num_stages=2):
        tl.store(x_ptr + i, 3.0)
