# RUN: %tritonc compile %s --kernel k --signature '*fp32,*fp64' --emit ttir | FileCheck %s
# libdevice calls are tt.extern_elementwise with Triton's symbols.
# CHECK-LABEL: tt.func public @k(
# CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<4xf32>) -> tensor<4xf32>
# CHECK: tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_pow"} : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def k(x_ptr, d_ptr):
    r = tl.arange(0, 4)
    tl.store(x_ptr + r, libdevice.tanh(tl.load(x_ptr + r)))
    d = tl.load(d_ptr + r)
    tl.store(d_ptr + r, libdevice.pow(d, d))
