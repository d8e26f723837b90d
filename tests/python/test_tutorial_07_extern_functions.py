# RUN: %python %s
# REQUIRES: torch
"""Triton's extern-functions tutorial on the CPU: libdevice imported the way
the tutorial does (`from triton.language.extra import libdevice`), asin on a
ragged fp32 vector (and on fp64, where the double variant is chosen), the
device from driver.active.get_active_torch_device(), and the second launch
with an explicit `extern_libs=` dictionary naming a library path, which the
CPU backend accepts and ignores."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def asin_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n_elements
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, libdevice.asin(v), mask=m)


def main():
    torch.manual_seed(0)
    size = 98432
    x = torch.rand(size, device=DEVICE)
    out = torch.zeros(size, device=DEVICE)
    ref = torch.asin(x)
    n = ref.numel()
    grid = lambda meta: (triton.cdiv(n, meta['BLOCK_SIZE']), )
    asin_kernel[grid](x, out, n, BLOCK_SIZE=1024)
    err = torch.max(torch.abs(ref - out)).item()
    assert err < 1e-6, err
    # a custom library path, as the tutorial passes for CUDA / HIP
    out2 = torch.empty_like(x)
    asin_kernel[grid](x, out2, n, BLOCK_SIZE=1024, extern_libs={'libdevice': '/nonexistent/libdevice.10.bc'})
    assert torch.equal(out, out2)
    # the double variant (__nv_asin)
    xd = torch.rand(1000, dtype=torch.float64) * 2 - 1
    yd = torch.empty_like(xd)
    asin_kernel[(1, )](xd, yd, 1000, BLOCK_SIZE=1024)
    errd = (yd - torch.asin(xd)).abs().max().item()
    assert errd < 1e-14, errd
    print("tutorial 07 extern functions: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
