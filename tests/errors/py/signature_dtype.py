# RUN: not %tritonc compile %s --kernel k --signature '*fp33,i32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}signature_dtype.py:8:7: error: unknown type '*fp33' in the signature for parameter 'x_ptr'
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    tl.store(x_ptr, 1.0)
