# RUN: not %tritonc compile %s --kernel k --signature '*i32,*u32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}floordiv_signedness.py:9:17: error: Cannot use /, //, or % with int32 and uint32 because they have different signedness
import triton
import triton.language as tl


@triton.jit
def k(a, b):
    tl.store(a, tl.load(a) // tl.load(b))
