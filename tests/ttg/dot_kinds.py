# Which dots take the mma.sync accumulator layout: fp32 with the default
# input_precision "tf32" does (m16n8k8 on tensor cores); "ieee" must stay
# exact, and int8 has no m16n8k16 form here: those keep the layout
# propagation gives them, and the PTX uses FMA.
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' -D P='"ieee"' --target cuda:90 --emit ttgir | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '*i8:16,*i32:16' -D P='"tf32"' --target cuda:90 --emit ttgir | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' -D P='"ieee"' --target cuda:90 --emit ptx | FileCheck %s --check-prefix=PTX
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' -D P='"tf32"' --target cuda:80 --emit ttgir | FileCheck %s --check-prefix=TF32
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16,*fp32:16' -D P='"tf32"' --target cuda:80 --emit ptx | FileCheck %s --check-prefix=TF32-PTX
# TF32-DAG: [[MMA:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
# TF32: tt.dot {{.*}} -> tensor<32x32xf32, [[MMA]]>
# TF32-PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# CHECK-NOT: sizePerThread = [1, 2], threadsPerWarp = [8, 4]
# CHECK: tt.dot
# CHECK-NOT: sizePerThread = [1, 2], threadsPerWarp = [8, 4]
# PTX-NOT: mma.sync
# PTX: fma.rn.f32
# PTX-NOT: mma.sync
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, P: tl.constexpr):
    offs = tl.arange(0, 32)
    x = tl.load(x_ptr + offs[:, None] * 32 + offs[None, :])
    y = tl.dot(x, x, input_precision=P) if x.dtype == tl.float32 else tl.dot(x, x)
    tl.store(y_ptr + offs[:, None] * 32 + offs[None, :], y)
