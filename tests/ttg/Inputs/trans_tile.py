import triton
import triton.language as tl


@triton.jit
def trans_kernel(X, Y, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(X + rows[:, None] * N + cols[None, :])
    xt = tl.trans(x)
    # xt[c, r] is x[r, c], stored where x[r, c] was read from: the same
    # memory order, contiguous along xt's dimension 0
    tl.store(Y + cols[:, None] + rows[None, :] * N, xt * 2)
