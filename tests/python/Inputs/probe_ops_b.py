# A second helper module for test_probe_kernels.py: its _adjust and SCALE
# share their names with probe_ops' ones, and differ.
import tritonc as triton
import tritonc.language as tl

SCALE = tl.constexpr(4.0)


@triton.jit
def _adjust(x):
    return x * 10.0


@triton.jit
def adjust_twice(x):
    return _adjust(x) * 2.0


@triton.jit
def scaled(x):
    return x * SCALE
