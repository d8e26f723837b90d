# RUN: %tritonc compile %s --kernel k --signature '*i32,i32' --emit ttir-raw | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '*i32,i32' --emit ptx --target cuda:90 | FileCheck %s --check-prefix=PTX
# After `for t in range(...)` the name t stays bound, as in Triton, to the
# ub.poison that stood for the induction variable: a value outside the
# loop. A later loop that assigns t (`t = n - i`, a backtrack as Viterbi
# decoders write it) carries it with that value as its initial one. t was
# bound to the first loop's block argument, which does not dominate the
# second loop: "'scf.for' op operand #3 does not dominate this use".
# CHECK-LABEL: tt.func public @k
# CHECK: scf.for %[[IV:[^ ]*]] =
# CHECK: %[[P:.*]] = ub.poison : i32
# CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[P]], %{{.*}} = %{{.*}})
# PTX: .entry k
import triton
import triton.language as tl


@triton.jit
def k(p, n):
    acc = 0
    for t in range(1, n):
        acc += tl.load(p + t)
    cur = acc
    for i in range(1, n):
        t = n - i
        cur = tl.load(p + t + cur % 2)
    tl.store(p, cur)
