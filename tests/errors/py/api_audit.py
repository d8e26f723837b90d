# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp32,i32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# What the audit of Triton 3.6's triton.language left unsupported, or
# Triton rejects too, is an error at the expression that needs it, each
# reported: the fp8 formats NVIDIA GPUs lack (named as dtypes, an error
# once a tensor would hold one), TMA gather, `in` on a tuple of tensors,
# the fp8e4b15 conversions of extra.cuda, target_info.current_target(),
# item() of a tensor with several elements, fma on integers, an unknown
# attribute of a class, logical_and on an integer tensor.
# CHECK: {{.*}}api_audit.py:31:9: error: type fp8e4b8 not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e4nv', 'fp8e5')
# CHECK: {{.*}}api_audit.py:32:9: error: fp8e4b15 (tl.float8e4b15) is not supported by tritonc yet; use tl.float8e4nv or tl.float8e5
# CHECK: {{.*}}api_audit.py:33:26: error: type fp8e5b16 not supported in this architecture
# CHECK: {{.*}}api_audit.py:35:9: error: tensor_descriptor.gather() (TMA gather/scatter, Blackwell) is not supported by tritonc yet
# CHECK: {{.*}}api_audit.py:37:8: error: 'in' needs a tuple of constexprs; element 0 is a tensor
# CHECK: {{.*}}api_audit.py:39:9: error: triton.language.extra.cuda.convert_custom_float8_sm80 (fp8e4b15 conversions) is not supported by tritonc yet
# CHECK: {{.*}}api_audit.py:40:9: error: target_info.current_target() (a GPUTarget object) is not supported in kernels by tritonc
# CHECK: {{.*}}api_audit.py:41:9: error: item(): the tensor has 16 elements, not 1
# CHECK: {{.*}}api_audit.py:42:9: error: fma: Expected dtype ['fp16', 'bf16', 'fp32', 'fp64'] but got int32
# CHECK: {{.*}}api_audit.py:43:9: error: type object 'dtype' has no attribute 'bogus'
# CHECK: {{.*}}api_audit.py:44:9: error: Cannot bitcast data-type of size 32 to data-type of size 1
# CHECK-NOT: error:
import triton
import triton.language as tl
from triton.language.extra import cuda as tlcuda
from triton.language.target_info import current_target


@triton.jit
def k(x_ptr, y_ptr, M, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    a = x.to(tl.float8e4b8)
    b = tl.zeros((BLOCK,), tl.float8e4b15)
    c = tl.load(y_ptr.to(tl.pointer_type(tl.float8e5b16)) + offs)
    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16, 16])
    e = d.gather(offs, 0)
    t = (x, x * 2)
    if 2 in t:
        tl.store(y_ptr + offs, x)
    f = tlcuda.convert_custom_float8_sm80(x, tl.float8e4nv, "rtne")
    g = current_target()
    h = x.item()
    i = tl.fma(offs, offs, offs)
    j = tl.dtype.bogus
    m = offs.logical_and(x > 0)
    tl.store(y_ptr + offs, x)
