# KERNEL: sort_rows_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: R=1, N=2048, K=16, DESC=False
# GRID: 1
#
# KERNEL: sort_rows_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16
# CONSTEXPR: R=4, N=256, K=8, DESC=True
# GRID: 1
#
# KERNEL: sort_rows_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16
# CONSTEXPR: R=2, N=64, K=64, DESC=False
# GRID: 1
#
# tl.sort, tl.flip and tl.topk of whole rows: bitonic networks whose
# compare-exchanges take each element's partner (position ^ stride), and
# flip's position n - 1 - i. On the GPU a partner in the same thread is a
# register, one in the same warp a shfl.sync.bfly, one in another warp
# goes through shared memory (ptx_shared.c gather_xor).

import triton
import triton.language as tl


@triton.jit
def sort_rows_kernel(x_ptr, s_ptr, f_ptr, t_ptr, R: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     DESC: tl.constexpr):
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(s_ptr + rows * N + cols, tl.sort(x, descending=DESC))
    tl.store(f_ptr + rows * N + cols, tl.flip(x))
    kc = tl.arange(0, K)[None, :]
    tl.store(t_ptr + rows * K + kc, tl.topk(x, K))
