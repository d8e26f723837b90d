# RUN: not %tritonc compile %s --kernel k --signature 'tensordesc<fp16[64 x 64]>' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}tensordesc_signature.py:11:7: error: bad tensor descriptor type 'tensordesc<fp16[64 x 64]>' for parameter 'desc' (expected tensordesc<fp16[64, 64]>, optionally followed by :16)
# The only hint a descriptor takes is :16 (its last dimension's size is a multiple of 16).
# RUN: not %tritonc compile %s --kernel k --signature 'tensordesc<fp16[64, 64]>:8' --emit ttir 2>&1 | FileCheck %s --check-prefix=HINT
# HINT: {{.*}}tensordesc_signature.py:11:7: error: bad tensor descriptor type 'tensordesc<fp16[64, 64]>:8' for parameter 'desc'
import triton
import triton.language as tl


@triton.jit
def k(desc):
    x = desc.load([0, 0])
    desc.store([0, 0], x)
