# tl.histogram kernels for tests/ptx/histogram_sim.py (compiled by the CLI).
import triton
import triton.language as tl


@triton.jit
def hist_kernel(X, H, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(X + o, mask=o < n, other=0)
    tl.store(H + tl.arange(0, BINS), tl.histogram(x, BINS, mask=o < n))


@triton.jit
def hist_nomask_kernel(X, H, BLOCK: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.store(H + tl.arange(0, BINS), tl.histogram(x, BINS))


@triton.jit
def hist_twice_kernel(X, H, C, BLOCK: tl.constexpr, BINS: tl.constexpr):
    # two histograms and a scan of their sum: shared memory reused three times
    x = tl.load(X + tl.arange(0, BLOCK))
    h = tl.histogram(x, BINS, mask=(x % 2) == 0) + tl.histogram(x, BINS)
    tl.store(H + tl.arange(0, BINS), h)
    tl.store(C + tl.arange(0, BINS), tl.cumsum(h, 0))
