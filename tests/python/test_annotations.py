# RUN: %python %s
# REQUIRES: torch
"""Parameter annotations type a kernel's parameters, as in Triton: `n:
tl.int64` is an i64 even for small values (and a 1 is not folded to a
constant), `s: tl.float32` a float even when an int is passed, `p:
tl.pointer_type(tl.float16)` or `p: "*fp16"` a pointer of that type, `b:
tl.int1` a bool; Python's `int`/`float` and tl.constexpr keep their usual
meaning. Values that do not fit the annotated type are errors that name the
argument."""
import re
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def typed(out, n: tl.int64, s: tl.float32, m: "tl.int32", flag: tl.int1, scale: float, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    v = (n + o).to(tl.float32) * s + m * scale
    if flag:
        v = -v
    tl.store(out + o, v)


@triton.jit
def typed_ptr(x: tl.pointer_type(tl.float32), y: "*fp32", N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(y + o, tl.load(x + o) * 2)


def main():
    fails = 0

    def check(ok, what):
        nonlocal fails
        print("%s: %s" % (what, "ok" if ok else "FAIL"))
        fails += not ok

    out = torch.empty(8)
    for n, s, m, flag in ((5, 2, 3, False), (1, 1, 1, True), (2**40, 0.5, 16, False)):
        typed[(1,)](out, n, s, m, flag, 0.25, BLOCK=8)
        ref = ((n + torch.arange(8, dtype=torch.float64)) * s + m * 0.25).float()
        check(torch.allclose(out, -ref if flag else ref), "typed(n=%d, s=%r, m=%d, flag=%s)" % (n, s, m, flag))
    sigs = sorted({k.signature for k in typed.cache.values()})
    check(all(",i64" in sg and ",fp32," in sg and ",i1," in sg for sg in sigs), "signatures %s" % sigs)
    check(not any(re.search(r":1(,|$)", sg) or "constexpr" in sg for sg in sigs), "no constant-1 specialisation")
    x, y = torch.randn(16), torch.empty(16)
    typed_ptr[(1,)](x, y, 16)
    check(torch.allclose(y, 2 * x), "pointer annotations")
    try:
        typed[(1,)](out, 5, 2.0, 2**40, False, 0.25, BLOCK=8)
        check(False, "2**40 for an int32 parameter raises")
    except TypeError as e:
        check("'m'" in str(e) and "does not fit in i32" in str(e), "2**40 for an int32 parameter: %s" % e)
    try:
        typed[(1,)](out, 1.5, 2.0, 1, False, 0.25, BLOCK=8)
        check(False, "a float for an int64 parameter raises")
    except TypeError as e:
        check("'n'" in str(e) and "float" in str(e), "a float for an int64 parameter: %s" % e)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
