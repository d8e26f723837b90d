# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D N=8 --emit ttir 2>&1 | FileCheck %s
# RUN: %tritonc compile %s --kernel none_defaults --signature '*fp32' -D N=8 --emit ttir | FileCheck %s --check-prefix=NONE
# `other` that is neither a number nor a tensor is an error at the call (it
# crashed sema once: found by the fuzz smoke test); mask=None and
# other=None are the defaults, as in Triton.
# CHECK: {{.*}}load_other_kind.py:16:21: error: cannot convert str to tensor
# NONE: tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
# NONE: tt.load %{{[0-9]+}}, %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
import triton
import triton.language as tl


@triton.jit
def k(X, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(X + o, tl.load(X + o, mask=o < 4, other="abc"))


@triton.jit
def none_defaults(X, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(X + o, tl.load(X + o, mask=None, other=None) + tl.load(X + o, mask=o < 4, other=None))
