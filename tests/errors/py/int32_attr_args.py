# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# Constexpr ints that become i32 attributes were truncated to 32 bits:
# tl.range(num_stages=2**32 + 3) gave tt.num_stages = 3, a
# loop_unroll_factor of 2**40 gave 0, an inline asm's pack of 2**32 + 1
# gave 1. Triton's get_int32_attr (and create_inline_asm's int) reject such
# values; each is an error at the argument.
# CHECK: {{.*}}int32_attr_args.py:20:40: error: tl.range(): num_stages must fit in int32, got 4294967299
# CHECK: {{.*}}int32_attr_args.py:22:48: error: tl.range(): loop_unroll_factor must fit in int32, got 1099511627776
# CHECK: {{.*}}int32_attr_args.py:24:98: error: inline_asm_elementwise(): pack must be a positive int32
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    acc = 0.0
    for i in tl.range(0, n, num_stages=2):
        acc += i
    for i in tl.range(0, n, num_stages=2**32 + 3):
        acc += i
    for i in tl.range(0, n, loop_unroll_factor=2**40):
        acc += i
    y = tl.inline_asm_elementwise("mov.b32 $0, 0;", "=r", [], dtype=tl.int32, is_pure=True, pack=2**32 + 1)
    tl.store(x_ptr, acc + y)
