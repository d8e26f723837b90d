# RUN: %python %s
# REQUIRES: torch
"""Fused softmax, as in Triton's second tutorial: one program per row (a
persistent loop over rows with tl.range), row strides, a BLOCK_SIZE that is
the next power of two of the row length; checked against torch.softmax.
Also the tutorial's host code: the device from `driver.active`, its
properties, `warmup(..., grid=(1,))`, `_init_handles()`, an occupancy from
`n_regs` and `metadata.shared`, and a launch of the compiled kernel with
every argument (constexprs included), one of them the launch option
`num_stages` that is also a constexpr parameter."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x, num_programs=4):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = torch.empty_like(x)
    num_programs = min(num_programs, n_rows)
    softmax_kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                                         BLOCK_SIZE=BLOCK_SIZE, num_stages=2)
    return y


def softmax_occupancy(x):
    """The tutorial's launch: as many programs as the device holds at once."""
    driver = triton.runtime.driver
    device = driver.active.get_active_torch_device()
    props = driver.active.utils.get_device_properties(device.index)
    NUM_SM, NUM_REGS = props["multiprocessor_count"], props["max_num_regs"]
    SIZE_SMEM, WARP_SIZE = props["max_shared_mem"], props["warpSize"]
    assert driver.active.get_current_target().backend in ("cpu", "cuda")
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8
    num_stages = 4 if SIZE_SMEM > 200000 else 2
    y = torch.full_like(x, float("nan"))
    kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=BLOCK_SIZE,
                                   num_stages=num_stages, num_warps=num_warps, grid=(1, ))
    kernel._init_handles()
    n_regs = kernel.n_regs
    size_smem = kernel.metadata.shared
    occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    occupancy = min(occupancy, SIZE_SMEM // size_smem)
    num_programs = min(NUM_SM * occupancy, n_rows)
    assert num_programs >= 1
    kernel[(num_programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE, num_stages)
    return y


def main():
    torch.manual_seed(0)
    for shape in ((1823, 781), (7, 1), (64, 1024), (3, 1000)):
        x = torch.randn(*shape)
        y = softmax(x)
        triton.testing.assert_close(y, torch.softmax(x, axis=1), atol=1e-6, rtol=1e-5)
    # a view with a row stride that is not the row length: strides make the
    # kernel correct on a non-contiguous input
    big = torch.randn(50, 300)
    view = big[:, 10:260]
    assert not view.is_contiguous()
    triton.testing.assert_close(softmax(view), torch.softmax(view, axis=1), atol=1e-6, rtol=1e-5)
    for shape in ((1823, 781), (5, 3000)):
        x = torch.randn(*shape, device=triton.runtime.driver.active.get_active_torch_device())
        triton.testing.assert_close(softmax_occupancy(x), torch.softmax(x, axis=1), atol=1e-6, rtol=1e-5)
    print("fused softmax: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
