# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*i64' -D HEAD_DIM=64 --emit ttir 2>&1 | FileCheck %s
# Python's math module runs at compile time (math.sqrt(HEAD_DIM) is fine);
# on a tensor it is an error, as it is in Triton. libdevice's bit counts
# take int32 (popc) or int64 (popcll); a host tensor descriptor's type must
# name a dtype and a block shape.
# CHECK: {{.*}}compile_time_math.py:18:9: error: math.sqrt() runs at compile time: its argument must be a constexpr number, not 'tensor'
# CHECK: {{.*}}compile_time_math.py:19:9: error: popc() takes int32, got 'int64'
import math

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(x_ptr, i_ptr, HEAD_DIM: tl.constexpr):
    x = tl.load(x_ptr) * (1.0 / math.sqrt(HEAD_DIM))
    y = math.sqrt(x)
    c = libdevice.popc(tl.load(i_ptr))
    tl.store(x_ptr, y + c)
