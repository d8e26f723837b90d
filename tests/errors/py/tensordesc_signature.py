# RUN: not %tritonc compile %s --kernel k --signature 'tensordesc<fp16[64 x 64]>' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}tensordesc_signature.py:8:7: error: bad tensor descriptor type 'tensordesc<fp16[64 x 64]>' for parameter 'desc' (expected tensordesc<fp16[64, 64]>)
import triton
import triton.language as tl


@triton.jit
def k(desc):
    x = desc.load([0, 0])
    desc.store([0, 0], x)
