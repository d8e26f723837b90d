# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' --emit c | FileCheck %s
# arith.select reads both value operands (Triton's select does): the C
# backend takes an operand that is an array element into a temporary
# before the `?:`, so the compiler never sees a conditional read. GCC 12
# at -O3 -mavx2 vectorised such a read in this rank-7 loop nest (the
# condition broadcast along dim 1) into masked loads that returned stale
# elements; tests/python/test_select_nest.py runs it.
# CHECK-LABEL: static int tc_kernel_k(
# CHECK: const int32_t sel_[[T:[0-9]+]] = v{{[0-9]+}}[
# CHECK-NEXT: = (v{{[0-9]+}}[{{.*}}] ? sel_[[T]] : v{{[0-9]+}});
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, o_ptr):
    offs = tl.arange(0, 128)
    x = tl.reshape(tl.load(x_ptr + offs), [2, 2, 2, 2, 2, 2, 2])
    ind = tl.arange(0, 2)[None, :, None, None, None, None, None]
    l = tl.expand_dims(tl.sum(x * (1 - ind), 1), 1)
    r = tl.expand_dims(tl.sum(x * ind, 1), 1)
    xi = x.to(tl.int32, bitcast=True)
    sw = tl.where(l > r, l.to(tl.int32, bitcast=True) ^ r.to(tl.int32, bitcast=True), tl.zeros_like(xi))
    tl.store(o_ptr + offs, tl.reshape((xi ^ sw).to(tl.float32, bitcast=True), [128]))
