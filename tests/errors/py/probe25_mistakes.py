# Mistakes of a probe's users, each reported at its token with the reason
# (and the kernel's other statements still checked): float floor division
# (Triton has // for integers only), an augmented assignment to a tuple
# element, a tl.gather index of another rank, a block pointer whose offsets
# are int64 (Triton's limit: 32-bit offsets).
# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i64' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}probe25_mistakes.py:20:9: error: unexpected type for // (got fp32)
# CHECK: {{.*}}probe25_mistakes.py:22:5: error: augmented assignment is only supported to names
# CHECK: {{.*}}probe25_mistakes.py:24:9: error: gather(): src and index must be tensors of the same rank, index of integers; got <[16], fp32> and <[4, 4], int32>
# CHECK: {{.*}}probe25_mistakes.py:25:10: error: Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use regular indexing for 64 bit support
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, row0):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    q = x // 2.0
    t = (1, 2)
    t[0] += 1
    idx = tl.arange(0, 4)[:, None] + tl.zeros([4, 4], tl.int32)
    g = tl.gather(x, idx, axis=0)
    bp = tl.make_block_ptr(x_ptr, (64, 16), (16, 1), (row0, 0), (16, 16), (1, 0))
    tl.store(x_ptr + offs, q)
