# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp32' -D BLOCK=32 --emit ttir 2>&1 | FileCheck %s
# Triton builtins tritonc does not implement are named at their call, not
# reported as missing attributes; every one is reported.
# CHECK: {{.*}}unsupported_builtins.py:19:9: error: tl.map_elementwise(): pack > 1 is not supported by tritonc yet
# CHECK: {{.*}}unsupported_builtins.py:20:9: error: libdevice.yn is not supported by tritonc yet
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _twice(v):
    return v * 2


@triton.jit
def k(a_ptr, s_ptr, BLOCK: tl.constexpr):
    x = tl.load(a_ptr + tl.arange(0, BLOCK))
    y = tl.map_elementwise(_twice, x, pack=2)
    z = libdevice.yn(2, x)
    tl.store(a_ptr + tl.arange(0, BLOCK), y + z)
