# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp32,i32' -D BLOCK=64 --emit ttir 2>&1 | FileCheck %s
# A typo (`,` for `<`) makes the mask a tuple: an error at the load, not a
# crash (found by the fuzz_compile smoke run).
# CHECK: {{.*}}load_mask_tuple.py:13:28: error: cannot convert tuple to tensor
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs , n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=offs < n)
