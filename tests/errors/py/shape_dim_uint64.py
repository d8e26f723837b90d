# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# A shape dimension of 2**63 or more (a uint64 constexpr) was read as a
# negative int64: "Shape element 0 must be a power of 2, got shape
# [-9223372036854775808]" at the call. As Triton's validate_block_shape
# takes it, a power of 2 is too large a tensor, another is no power of 2,
# and the report is at the shape argument (make_block_ptr's block_shape
# too); an order past int64 is no permutation.
# CHECK: {{.*}}shape_dim_uint64.py:23:18: error: Shape element 0 (9223372036854775808) is too large: numel exceeds triton maximum tensor numel (1048576)
# CHECK: {{.*}}shape_dim_uint64.py:24:17: error: Shape element 1 must be a power of 2, got 13835058055282163712
# CHECK: {{.*}}shape_dim_uint64.py:25:48: error: Shape element 0 (9223372036854775808) is too large
# CHECK: {{.*}}shape_dim_uint64.py:26:53: error: Shape element 0 (9223372036854775808) is too large
# CHECK: {{.*}}shape_dim_uint64.py:27:52: error: Shape element 0 (9223372036854775808) is too large
# CHECK: {{.*}}shape_dim_uint64.py:28:9: error: Expected a permutation of (0, 1, ..., len(order)-1) in order
# CHECK-NOT: error:
import triton
import triton.language as tl

BIG: tl.constexpr = 2**63


@triton.jit
def k(x_ptr):
    x = tl.zeros((2**63,), tl.float32)
    y = tl.full((4, 2**63 + 2**62), 0, tl.float32)
    z = tl.reshape(tl.zeros((4,), tl.float32), (BIG, 2))
    w = tl.broadcast_to(tl.zeros((1,), tl.float32), 2**63)
    p = tl.make_block_ptr(x_ptr, (4,), (1,), (0,), (BIG,), (0,))
    q = tl.make_block_ptr(x_ptr, (4,), (1,), (0,), (4,), (2**63,))
    tl.store(x_ptr, 0.0)
