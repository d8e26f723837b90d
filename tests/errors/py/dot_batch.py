# RUN: not %tritonc compile %s --kernel k --signature '*fp16' --emit ttir 2>&1 | FileCheck %s
# A batched tl.dot whose operands' batch dimensions differ says so at the
# call (it was the IR verifier's "'tt.dot' op accumulator ... must have
# shape [B, 16, 16]").
# CHECK: {{.*}}dot_batch.py:16:9: error: dot(): the batch dimensions differ: lhs <[2, 16, 16], fp16> and rhs <[4, 16, 16], fp16>
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x):
    o = tl.arange(0, 16)
    a = tl.load(x + tl.arange(0, 2)[:, None, None] * 256 + o[None, :, None] * 16 + o[None, None, :])
    b = tl.load(x + tl.arange(0, 4)[:, None, None] * 256 + o[None, :, None] * 16 + o[None, None, :])
    c = tl.dot(a, b)
    d = tl.dot(a, a)
    tl.store(x + o[:, None] * 16 + o[None, :], tl.sum(c, 0) + tl.sum(d, 0))
