# A 2-D fp16 tile read under a row x column mask, 16 bytes at a time, by a
# pointer tile carried through a loop (tests/ptx/demand.sh, demand_sim.py).
import triton
import triton.language as tl


@triton.jit
def masked_tile_copy(src, dst, M, N, stride_m, ITERS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    src_ptrs = src + rows[:, None] * stride_m + cols[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(ITERS):
        acc += tl.load(src_ptrs, mask=mask, other=0.0).to(tl.float32)
        src_ptrs += BN
    tl.store(dst + rows[:, None] * stride_m + cols[None, :], acc.to(tl.float16), mask=mask)
