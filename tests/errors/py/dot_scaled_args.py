# RUN: not %tritonc compile %s --kernel k --signature '*u8,*u8,*fp32' --emit ttir 2>&1 | FileCheck %s
# tl.dot_scaled's operands and scales are checked at the call.
# CHECK: {{.*}}dot_scaled_args.py:17:10: error: dot_scaled: unknown format 'e3m2' (e2m1, e4m3, e5m2, bf16, fp16)
# CHECK: {{.*}}dot_scaled_args.py:18:10: error: dot_scaled: the scale's shape must be [32, 2] (one per 32 elements along K), got <[32, 1], uint8>
# CHECK: {{.*}}dot_scaled_args.py:19:10: error: dot_scaled: lhs is <[32, 64], fp32> and rhs <[32, 32], fp32> after unpacking: their K differ
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, s_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    s1 = tl.load(s_ptr + r[:, None] + tl.arange(0, 1)[None, :])
    o = r[:, None] * 32 + r[None, :]
    c = tl.zeros((32, 32), tl.float32)
    c += tl.dot_scaled(a, None, "e3m2", a, None, "e4m3")
    c += tl.dot_scaled(a, s1, "e2m1", a, None, "e2m1")
    c += tl.dot_scaled(a, None, "e2m1", a, None, "e4m3")
    tl.store(c_ptr + o, c)
