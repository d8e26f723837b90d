# A runtime-bounded loop with a loop-carried tile, for tests/ptx/loop_rotation.py.

import triton
import triton.language as tl


@triton.jit
def strided_sum_kernel(x_ptr, out_ptr, start, end, step, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32) + 0.5
    for i in range(start, end, step):
        acc += tl.load(x_ptr + i * BLOCK + offs)
    tl.store(out_ptr + offs, acc)
