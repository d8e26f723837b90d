# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp32' --emit ttir 2>&1 | FileCheck %s
# CHECK: {{.*}}pow_tensor.py:14:28: error: operator '**' is not supported on tensors; use libdevice.pow(x, y) (triton.language.extra) or repeated multiplication
# CHECK: {{.*}}pow_tensor.py:15:28: error: operator '@' is not supported on tensors
# Triton's tensor has neither __pow__ nor __matmul__: the message names the
# operator (it used to print the parser's enum number).
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x ** 2)
    tl.store(y_ptr + offs, x @ x)
