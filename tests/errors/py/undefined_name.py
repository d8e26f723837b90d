# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}undefined_name.py:11:29: error: name 'BLOK' is not defined; did you mean 'BLOCK'?
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    # the typo below is the error
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs + BLOK, 1.0)
