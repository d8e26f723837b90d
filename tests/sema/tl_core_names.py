# RUN: %tritonc compile %s --kernel k --signature '*fp32,*i32' --emit ttir | FileCheck %s
# tl.add / tl.sub / tl.mul are the operators, tl.reduce_or a bitwise-or
# reduction, tl.TRITON_MAX_TENSOR_NUMEL the element-count limit (2^20), as in
# Triton's triton.language.
# CHECK-LABEL: tt.func public @k(
# CHECK: %[[LIMIT:.*]] = arith.constant dense<0x49800000> : tensor<8xf32>
# CHECK: arith.addf
# CHECK: arith.subf
# CHECK: %[[Y:.*]] = arith.mulf
# CHECK: arith.addf %[[Y]], %[[LIMIT]]
# CHECK: "tt.reduce"
# CHECK: arith.ori
# CHECK: tt.reduce.return
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, m_ptr):
    r = tl.arange(0, 8)
    x = tl.load(x_ptr + r)
    y = tl.mul(tl.sub(tl.add(x, 1.0), 2.0), 3.0)
    tl.store(x_ptr + r, y + tl.TRITON_MAX_TENSOR_NUMEL)
    m = tl.load(m_ptr + r)
    tl.store(m_ptr, tl.reduce_or(m, 0))
