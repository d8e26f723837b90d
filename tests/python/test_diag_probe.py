# RUN: %python %s
# REQUIRES: torch
"""What the diag22 probe of bad inputs found at the launch layer and in
valid programs, checked on the CPU: num_warps=0 raises as Triton's backend
options assert (the launcher took it for the default 4); a grid with a zero
or negative dimension launches nothing, as Triton's launcher does."""
import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def double(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o, mask=o < n) * 2, mask=o < n)


def check_num_warps():
    x = torch.arange(64, dtype=torch.float32)
    y = torch.zeros(64)
    for w in (0, -4, 3, 0):  # (0 again: after a launch with the default)
        try:
            double[(1,)](x, y, 64, BLOCK=16, num_warps=w)
        except AssertionError as e:
            assert "num_warps must be a power of 2" in str(e), e
        else:
            raise AssertionError("num_warps=%d was accepted" % w)
        double[(4,)](x, y, 64, BLOCK=16)
        assert torch.equal(y, x * 2)
        double[(4,)](x, y, 64, BLOCK=16, num_warps=8)


def check_empty_grid():
    x = torch.arange(64, dtype=torch.float32)
    for grid in ((0,), (-1,), (2, -1), (2, 0, 1)):
        y = torch.zeros(64)
        double[grid](x, y, 64, BLOCK=16)
        assert not y.any(), grid


if __name__ == "__main__":
    check_num_warps()
    check_empty_grid()
    print("ok")
