# RUN: %python %s
# REQUIRES: torch, numpy
"""Vector addition, as in Triton's first tutorial: torch tensors and numpy
arrays, a grid function of the meta-parameters, ragged sizes, fp16, the
compiled kernel's IR, and the launch-time checks."""
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


def main():
    torch.manual_seed(0)
    for size in (1, 17, 1024, 98432):
        x = torch.rand(size)
        y = torch.rand(size)
        out = add(x, y)
        triton.testing.assert_close(out, x + y, atol=0, rtol=0)
    # numpy arrays, a tuple grid
    a = np.random.rand(5000).astype(np.float32)
    b = np.random.rand(5000).astype(np.float32)
    c = np.empty_like(a)
    k = add_kernel[(triton.cdiv(5000, 256),)](a, b, c, 5000, BLOCK_SIZE=256)
    np.testing.assert_array_equal(c, a + b)
    assert "tt.func public @add_kernel" in k.asm["ttir"], k.asm["ttir"]
    assert "tt.divisibility = 16" in k.asm["ttir"]
    assert k.asm.get("c"), "no C for a CPU kernel"
    assert k.metadata.num_warps == 4 and k.metadata.name == "add_kernel"
    # fp16 and a 2-D grid given as a list
    h = torch.rand(3000).half()
    g = torch.rand(3000).half()
    o = torch.empty_like(h)
    add_kernel[[triton.cdiv(3000, 512), 1]](h, g, o, 3000, BLOCK_SIZE=512)
    triton.testing.assert_close(o, h + g, atol=0, rtol=0)
    # one cached kernel per specialisation: 100 and 200 are neither 1 nor multiples of 16
    n_before = len(add_kernel.cache)
    add(torch.rand(100), torch.rand(100))
    add(torch.rand(200), torch.rand(200))
    assert len(add_kernel.cache) == n_before, add_kernel.cache.keys()  # 17 made this key
    # warmup compiles without launching
    w = add_kernel.warmup(torch.float32, torch.float32, torch.float32, 4096, BLOCK_SIZE=128,
                          grid=(32,))
    assert w.signature == "*fp32:16,*fp32:16,*fp32:16,i32:16", w.signature

    # errors, by argument name
    def expect(exc, fn, *words):
        try:
            fn()
        except exc as e:
            for w in words:
                assert w in str(e), (w, str(e))
            return
        raise AssertionError("no %s" % exc.__name__)

    x = torch.rand(64)
    expect(TypeError, lambda: add_kernel[(1,)](x, x, x, BLOCK_SIZE=64), "add_kernel", "n_elements")
    expect(TypeError, lambda: add_kernel[(1,)](x, x, x, 64, 5, BLOCK_SIZE=64), "add_kernel")
    expect(TypeError, lambda: add_kernel[(1,)](x, x, "out", 64, BLOCK_SIZE=64), "output_ptr", "str")
    expect(TypeError, lambda: add_kernel[(1,)](x, x, x, 64, BLOCK_SIZE=64, num_wraps=4),
           "num_wraps")
    # as in Triton, a tensor argument is its data pointer: a dense transposed
    # matrix and an output of the same strides add element by element
    xt = torch.rand(8, 16).t()
    ot = torch.empty_like(xt)
    assert not xt.is_contiguous() and ot.stride() == xt.stride()
    add_kernel[(1,)](xt, xt, ot, 128, BLOCK_SIZE=128)
    assert torch.equal(ot, xt + xt), "transposed operands"
    expect(TypeError, lambda: add_kernel[(1, 1, 1, 1)](x, x, x, 64, BLOCK_SIZE=64), "grid")
    print("vector add: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
