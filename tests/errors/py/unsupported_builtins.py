# RUN: not %tritonc compile %s --kernel k --signature '*fp32,*fp32' -D BLOCK=32 --emit ttir 2>&1 | FileCheck %s
# Triton builtins tritonc does not implement are named at their call, not
# reported as missing attributes; every one is reported.
# CHECK: {{.*}}unsupported_builtins.py:23:9: error: tl.dot_scaled is not supported by tritonc yet
# CHECK: {{.*}}unsupported_builtins.py:24:9: error: tl.map_elementwise(): pack > 1 is not supported by tritonc yet
# CHECK: {{.*}}unsupported_builtins.py:25:9: error: libdevice.j0 is not supported by tritonc yet
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _twice(v):
    return v * 2


@triton.jit
def k(a_ptr, s_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    s = tl.load(s_ptr + offs[:, None] + tl.arange(0, 1)[None, :]).to(tl.uint8)
    x = tl.load(a_ptr + offs)
    c = tl.dot_scaled(a, s, "e2m1", a, s, "e2m1")
    y = tl.map_elementwise(_twice, x, pack=2)
    z = libdevice.j0(x)
    tl.store(a_ptr + offs[:, None] * BLOCK + offs[None, :], c)
    tl.store(a_ptr + offs, y + z)
