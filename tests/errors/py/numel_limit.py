# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D N=2048 --emit ttir 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel one_d --signature '*fp32' -D N=2097152 --emit ttir 2>&1 | FileCheck %s --check-prefix=ONE
# RUN: %tritonc compile %s --kernel one_d --signature '*fp32' -D N=1048576 --emit ttir | FileCheck %s --check-prefix=MAX
# Triton's limit of 2^20 elements per tensor (TRITON_MAX_TENSOR_NUMEL), at
# the expression that makes the tensor, reported once.
# CHECK: {{.*}}numel_limit.py:16:9: error: numel (4194304) exceeds triton maximum tensor numel (1048576)
# CHECK-NOT: error:
# ONE: {{.*}}numel_limit.py:22:22: error: numel (2097152) exceeds triton maximum tensor numel (1048576)
# MAX: tensor<1048576xf32>
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, N: tl.constexpr):
    a = tl.arange(0, N)[:, None] + tl.arange(0, N)[None, :]
    tl.store(x_ptr + a, 1.0)


@triton.jit
def one_d(x_ptr, N: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, N), 1.0)
