# RUN: %tritonc compile %s --kernel k --signature '(*fp32:16,*fp32),(i32,none),*fp32:16' -D N=8 --emit ttir | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '(*fp32:16,*fp32),(i32:1,none),*fp32:16' -D N=8 --emit ttir | FileCheck %s --check-prefix=ONE
# RUN: not %tritonc compile %s --kernel k --signature '(*fp32,*fp32),(i32,none,*fp32' -D N=8 --emit ttir 2>&1 | FileCheck %s --check-prefix=BAD
# A tuple argument's signature entry is parenthesised, nested as the tuple
# is: its leaves are the kernel's parameters in order (hints kept, an int
# `:1` folded to the constant, `none` a constant None).
# CHECK: tt.func public @k(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>, %arg2: i32, %arg3: !tt.ptr<f32> {tt.divisibility = 16 : i32})
# CHECK: tt.splat %arg2
# CHECK: arith.muli
# ONE: tt.func public @k(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32})
# ONE-NOT: arith.muli
# BAD: error: unbalanced parentheses in the signature entry '(i32,none,*fp32' for parameter 'params'
import triton
import triton.language as tl


@triton.jit
def k(ptrs, params, out, N: tl.constexpr):
    x, y = ptrs
    stride, bias = params
    offs = tl.arange(0, N) * stride
    v = tl.load(x + offs) + tl.load(y + offs)
    if bias is not None:
        v += tl.load(bias + offs)
    tl.store(out + tl.arange(0, N), v)
