# RUN: %python %s
# REQUIRES: torch
"""What the diag22 probe of bad inputs found at the launch layer and in
valid programs, checked on the CPU: num_warps=0 raises as Triton's backend
options assert (the launcher took it for the default 4); a grid with a zero
or negative dimension launches nothing, as Triton's launcher does.

The probe23 findings: where Triton wants an int it takes a bool (bool is an
int in Python, True == 1): tl.arange(0, True), a shape (True, 4), an axis
or a permutation of bools compile and compute as their ints (tritonc
rejected them)."""
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


@triton.jit
def bools_as_ints(x, y):
    one = tl.arange(0, True)  # [0]
    tl.store(y + one, tl.load(x + one) + 100)
    m = tl.load(x + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    t = tl.permute(m, (True, False))  # the transpose
    tl.store(y + 1 + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :], t)
    rows = tl.sum(m, axis=True)  # axis 1
    tl.store(y + 17 + tl.arange(0, 4), rows)
    z = tl.zeros((True, 4), tl.float32) + tl.expand_dims(rows, False)  # [1, 4]
    tl.store(y + 21 + tl.arange(0, 4)[:, None], tl.reshape(z, (4, True)) * 2)


def check_bools_as_ints():
    x = torch.arange(16, dtype=torch.float32)
    y = torch.zeros(25)
    bools_as_ints[(1,)](x, y)
    m = x.reshape(4, 4)
    assert y[0] == 100
    assert torch.equal(y[1:17], m.T.reshape(16)), y
    assert torch.equal(y[17:21], m.sum(1)), y
    assert torch.equal(y[21:25], m.sum(1) * 2), y


if __name__ == "__main__":
    check_num_warps()
    check_empty_grid()
    check_bools_as_ints()
    print("ok")
