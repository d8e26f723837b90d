# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s
# triton.language.random is a module of its own: its names read as
# tl.random.randint and imported from it resolve (they were "module
# 'triton.language' has no attribute 'random'"); a name it lacks says which
# module lacks it, and tl.random is no alias of triton.language.
# CHECK-NOT: error: {{.*}}has no attribute 'random'
# CHECK: {{.*}}random_module.py:24:9: error: module 'triton.language.random' has no attribute 'bogus'
# CHECK: {{.*}}random_module.py:25:9: error: module 'triton.language.random' has no attribute 'arange'
# CHECK-NOT: error:
import triton
import triton.language as tl
from triton.language.random import N_ROUNDS_DEFAULT, randn as normal


@triton.jit
def k(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.random.rand(seed, offs) + normal(seed, offs, N_ROUNDS_DEFAULT)
    a, b = tl.random.pair_uniform_to_normal(x, x)
    c0, c1, c2, c3 = tl.random.philox(seed, offs, offs, offs, offs, tl.random.N_ROUNDS_DEFAULT)
    tl.store(out_ptr + offs, a + b + tl.random.uint_to_uniform_float(c0))
    i0, i1, i2, i3 = tl.random.randint4x(seed, offs)
    tl.store(out_ptr + offs, tl.random.rand4x(seed, offs)[0] + i0.to(tl.float32))
    y = tl.random.bogus(seed)
    z = tl.random.arange(0, BLOCK)
