# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}loop_carried_type.py:10:5: error: loop-carried variable acc has initial type fp32 but is re-assigned to fp16 in loop
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    acc = tl.load(x_ptr)
    for i in range(n):
        acc = acc.to(tl.float16)
    tl.store(x_ptr, acc)
