# RUN: not %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 --emit c 2>&1 | FileCheck %s
# RUN: %tritonc compile %s --kernel k --signature '*fp32' -D BLOCK=16 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=PTX
# tl.inline_asm_elementwise holds PTX text; the PTX backend splices it, the CPU
# backend cannot run it and says so at the call.
# CHECK: {{.*}}inline_asm_cpu.py:14:9: error: C backend: tl.inline_asm_elementwise holds PTX, which runs on NVIDIA GPUs only
# PTX: tanh.approx.f32
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(x_ptr + tl.arange(0, BLOCK), y)
