# RUN: %tritonc compile %s --kernel k --signature '*fp32,i32' -D B=128 --emit ttir | FileCheck %s --check-prefix=NODEBUG
# RUN: %tritonc compile %s --kernel k --signature '*fp32,i32' -D B=128 --debug --emit ttir | FileCheck %s
# Device asserts (tl.device_assert and `assert`) are dropped unless the
# kernel is compiled in debug mode (--debug; Triton's debug=True or
# TRITON_DEBUG=1); a mask asserts `cond or not mask`; a condition that is
# a true constexpr asserts nothing.
import triton
import triton.language as tl


@triton.jit
def k(x, n, B: tl.constexpr):
    o = tl.arange(0, B)
    a = tl.load(x + o, mask=o < n, other=0.0)
    tl.device_assert(a >= 0, "negative value", mask=o < n)
    assert n < 100, f"n too large for B={B}"
    assert B > 2
    tl.store(x + o, a + 1, mask=o < n)

# NODEBUG-NOT: tt.assert
# CHECK: %[[GE:.*]] = arith.cmpf oge
# CHECK: %[[NM:.*]] = arith.cmpi sge
# CHECK: %[[OK:.*]] = arith.ori %[[GE]], %[[NM]]
# CHECK: tt.assert %[[OK]], "negative value" : tensor<128xi1>
# CHECK: tt.assert %{{.*}}, "n too large for B=128" : i1
# CHECK-NOT: tt.assert
