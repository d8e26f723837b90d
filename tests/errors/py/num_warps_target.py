# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ptx --target cuda:90 --num-warps 3 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttgir --target cuda:80 --num-warps 64 2>&1 | FileCheck %s --check-prefix=BIG
# RUN: %tritonc compile %s --kernel k --signature '*fp32' --emit ptx --target cuda:90 --num-warps 32 | FileCheck %s --check-prefix=OK
# num_warps for a GPU target is a power of 2 (Triton's backend options
# assert it) and at most 32 (1024 threads a CTA): 3 gave PTX for a CTA the
# layouts did not cover, 64 one no GPU launches.
# CHECK: error: num_warps must be a power of 2 from 1 to 32 (a CTA holds at most 1024 threads), got 3
# BIG: error: num_warps must be a power of 2 from 1 to 32 (a CTA holds at most 1024 threads), got 64
# OK: .reqntid 1024, 1, 1
import triton
import triton.language as tl


@triton.jit
def k(x):
    o = tl.arange(0, 1024)
    tl.store(x + o, tl.load(x + o) + 1.0)
