# RUN: %python %s
# REQUIRES: torch
"""tl.histogram on the CPU against torch.bincount: a block of 65536 values
into 256 bins (16.7M elements as an [N, bins] comparison tile, over the
tensor size limit: tt.histogram counts in place), masked and ragged
blocks, values outside 0..bins-1 (negative or too large: not counted), a
scalar mask, bins smaller than the block and larger than it, i8 and i64
sources, uint8 and uint16 sources over their whole range (a uint8 200 in
bin 200 of 256: it was read as -56 and dropped), and the diagnostics
Triton gives."""
import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def hist_kernel(X, H, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(X + o, mask=o < n, other=0)
    tl.store(H + tl.arange(0, BINS), tl.histogram(x, BINS, mask=o < n))


@triton.jit
def hist_grid_kernel(X, H, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    # one histogram per program, each program's block ragged at the end
    pid = tl.program_id(0)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + o, mask=o < n, other=-1)
    h = tl.histogram(x, BINS)  # the padding (-1) is out of range: not counted
    tl.store(H + pid * BINS + tl.arange(0, BINS), h)


@triton.jit
def hist_even_kernel(X, H, BLOCK: tl.constexpr, BINS: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(X + o)
    h = tl.histogram(x, BINS, mask=(x % 2) == 0) + tl.histogram(x, BINS, mask=True)
    tl.store(H + tl.arange(0, BINS), h)


@triton.jit
def hist_bad_kernel(X, H, BLOCK: tl.constexpr, BINS: tl.constexpr, WHICH: tl.constexpr):
    o = tl.arange(0, BLOCK)
    if WHICH == 0:
        x = tl.load(X + o)
        h = tl.histogram(x, BINS)
    elif WHICH == 1:
        x = tl.load(X + o[:, None] * BLOCK + o[None, :])
        h = tl.histogram(x, BINS)
    else:
        x = tl.load(X + o)
        h = tl.histogram(x, BINS, mask=x)
    tl.store(H + tl.arange(0, BINS), h)


def ref(x, bins, keep=None):
    x = x.long()
    ok = (x >= 0) & (x < bins)
    if keep is not None:
        ok &= keep
    return torch.bincount(x[ok], minlength=bins).int()


def check_large_block():
    # the reproducer: BLOCK x BINS = 16M, 60000 valid elements
    g = torch.Generator().manual_seed(1)
    n = 60000
    x = torch.randint(0, 256, (65536,), dtype=torch.int32, generator=g)
    h = torch.full((256,), -7, dtype=torch.int32)
    hist_kernel[(1,)](x, h, n, BLOCK=65536, BINS=256)
    assert torch.equal(h, ref(x[:n], 256)), h
    assert int(h.sum()) == n


def check_masked_out_of_range():
    g = torch.Generator().manual_seed(2)
    for n, block, bins in ((1000, 1024, 16), (37, 64, 128), (64, 64, 64), (0, 32, 8), (300, 512, 2048)):
        x = torch.randint(-20, bins + 20, (block,), dtype=torch.int32, generator=g)
        x[::7] = 1 << 30  # far out of range
        h = torch.zeros(bins, dtype=torch.int32)
        hist_kernel[(1,)](x, h, n, BLOCK=block, BINS=bins)
        assert torch.equal(h, ref(x[:n], bins)), (n, block, bins, h)


def check_ragged_grid():
    g = torch.Generator().manual_seed(3)
    n, block, bins = 1000, 128, 32
    x = torch.randint(0, 40, (n,), dtype=torch.int32, generator=g)
    nprog = triton.cdiv(n, block)
    h = torch.zeros(nprog * bins, dtype=torch.int32)
    hist_grid_kernel[(nprog,)](x, h, n, BLOCK=block, BINS=bins)
    for p in range(nprog):
        assert torch.equal(h[p * bins:(p + 1) * bins], ref(x[p * block:(p + 1) * block], bins)), p


def check_dtypes_and_masks():
    g = torch.Generator().manual_seed(4)
    for dt in (torch.int8, torch.int16, torch.int32, torch.int64):
        x = torch.randint(-30, 90, (256,), dtype=dt, generator=g)
        h = torch.zeros(64, dtype=torch.int32)
        hist_even_kernel[(1,)](x, h, BLOCK=256, BINS=64)
        want = ref(x, 64, (x.long() % 2) == 0) + ref(x, 64)
        assert torch.equal(h, want), (dt, h, want)


def check_unsigned_sources():
    g = torch.Generator().manual_seed(5)
    x8 = torch.randint(0, 256, (1024,), dtype=torch.uint8, generator=g)
    h = torch.zeros(256, dtype=torch.int32)
    hist_kernel[(1,)](x8, h, 1000, BLOCK=1024, BINS=256)
    assert torch.equal(h, ref(x8[:1000], 256)), h
    x16 = torch.randint(0, 2 ** 16, (512,), dtype=torch.int32, generator=g)
    x16[:8] = torch.tensor([0, 1, 32767, 32768, 40000, 65535, 2047, 2048])
    h = torch.zeros(2048, dtype=torch.int32)
    hist_kernel[(1,)](triton.reinterpret(x16.to(torch.int16), tl.uint16), h, 512, BLOCK=512, BINS=2048)
    assert torch.equal(h, ref(x16, 2048)), h


def check_errors():
    x = torch.zeros(64 * 64, dtype=torch.float32)
    h = torch.zeros(16, dtype=torch.int32)
    cases = ((0, "histogram only supports integer input"), (1, "histogram only supports 1D input"),
             (2, "Mask must have boolean scalar type"))
    for which, msg in cases:
        xx = x.int() if which != 0 else x
        try:
            hist_bad_kernel[(1,)](xx, h, BLOCK=64, BINS=16, WHICH=which)
        except Exception as e:  # a CompilationError, as Triton raises
            assert msg in str(e), (which, str(e))
        else:
            raise AssertionError(f"case {which}: no error")


def main():
    for f in (check_large_block, check_masked_out_of_range, check_ragged_grid, check_dtypes_and_masks,
              check_unsigned_sources, check_errors):
        f()
        print(f.__name__, "ok")


if __name__ == "__main__":
    main()
