# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,i32' --emit ttir-raw | FileCheck %s
# RUN: %tritonc compile %s --kernel carried --signature '*fp32:16,i32' --emit ttir-raw | FileCheck %s --check-prefix=CARRIED
# A tuple whose items are all constexprs stays a tuple of constexprs when a
# kernel assigns it, as a -D or binding tuple is: it slices, indexes
# (nested too), concatenates, compares, unpacks, iterates in static_range
# and `for`, passes to a helper and gives shapes. Assignment made its items
# runtime i32 scalars (static_assert(t[1:] == (2, 3, 4)) failed, u[1][0]
# was "not constexpr", tl.zeros(t[:2]) no shape). A tuple with a runtime
# item is made runtime as before, and so is a constexpr tuple that a
# runtime loop or `if` changes (it is carried and merged as i32 scalars).
# CHECK-LABEL: tt.func public @k
# CHECK: arith.constant dense<0.000000e+00> : tensor<2x4xf32>
# CHECK: tt.reshape {{.*}} : tensor<32xf32> -> tensor<2x4x4xf32>
# CHECK: tt.reshape {{.*}} : tensor<2x4x4xf32> -> tensor<4x8xf32>
# CHECK-NOT: scf.for
# CARRIED-LABEL: tt.func public @carried
# CARRIED: scf.for {{.*}} iter_args({{.*}}) -> (i32, i32)
# CARRIED: scf.if {{.*}} -> (i32, i32)
import triton
import triton.language as tl


@triton.jit
def _first_is(s, v: tl.constexpr):
    tl.static_assert(s[0] == v)
    tl.static_assert(len(s) == 3)
    return tl.zeros(s[1:], tl.float32)


@triton.jit
def k(x_ptr, n):
    t = (2, 4, 4, 8)
    tl.static_assert(t[1:] == (4, 4, 8))
    tl.static_assert(t[1:] != (4, 4))
    tl.static_assert(len(t + (16,)) == 5)
    tl.static_assert((t + (16,))[-1] == 16)
    u = (t, (7, 8))
    tl.static_assert(u[1][0] == 7)
    tl.static_assert(u[0][1:][2] == 8)
    a, b, c, d = t
    tl.static_assert(c * d == 32)
    acc = tl.zeros(t[:2], tl.float32)
    for i in tl.static_range(len(t)):
        acc += t[i]
    for v in t:
        acc += v
    acc += tl.sum(_first_is(t[1:], 4), axis=1)[None, :]
    x = tl.reshape(tl.zeros((32,), tl.float32), t[:1] + (4, 4))
    y = tl.reshape(x, (t[2], t[3]))
    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    tl.store(x_ptr + offs, y)
    tl.store(x_ptr + tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :], acc)


@triton.jit
def carried(x_ptr, n):
    m = (0, 1)
    for i in range(n):
        m = (m[0] + i, m[1] * 2)
    p = (0, 0)
    if n > 3:
        p = (1, 2)
    q = (n, 2)
    tl.store(x_ptr, (m[0] + m[1] + p[0] + p[1] + q[0] + q[1]).to(tl.float32))
