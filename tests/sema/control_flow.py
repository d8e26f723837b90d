# RUN: %tritonc compile %s --kernel k --signature '*fp32,i32' -D BLOCK=128 -D MODE=1 --emit ttir-raw | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr, MODE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    # static_range unrolls: three loads, no scf.for
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + offs + i)
    # a constexpr if keeps one branch
    if MODE == 1:
        acc = acc * 2.0
    else:
        acc = acc * 3.0
    # a runtime loop carries acc
    for j in range(0, n):
        acc = acc + 1.0
    # a runtime if with a result
    if n > 4:
        acc = acc - 1.0
    # while
    m = n
    while m > 0:
        m = m - 1
    tl.store(x_ptr + offs, acc + m)

# CHECK-LABEL: tt.func public @k
# CHECK-COUNT-3: tt.load
# CHECK: arith.constant 2.000000e+00 : f32
# CHECK-NOT: 3.000000e+00
# CHECK: scf.for {{.*}} iter_args({{.*}}) -> (tensor<128xf32>)
# CHECK: scf.yield {{.*}} : tensor<128xf32>
# CHECK: arith.cmpi sgt
# CHECK: scf.if {{.*}} -> (tensor<128xf32>)
# CHECK: scf.while
# CHECK: scf.condition
