# RUN: %python %s
# REQUIRES: torch
"""A kernel defined before torch is imported: what the first launch in C
needs was read at decoration without torch (no tensor type, no stream
getters), so that reading must not stand once torch is imported; the first
launch reads it again and runs in C. Checked against torch, and that the
specialisation was made by the C first launch (a new kernel in `cache`
without the Python path)."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
os.environ["TRITONC_CACHE_DIR"] = tempfile.mkdtemp(prefix="tc_late_torch_")

TORCH_FIRST = "torch" in sys.modules  # (a harness that imports torch at start-up: nothing to test)
import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc import _cext  # noqa: E402


@triton.jit
def twice(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, 2 * tl.load(x_ptr + offs, mask=m), mask=m)


def main():
    if TORCH_FIRST:
        print("late torch: skipped (torch was imported before the kernel was defined)")
        return 0
    import torch
    read_without_torch = twice._ahead is None or twice._ahead[0][8] is None  # (the tensor type)
    slow = [0]

    def counted(real):
        def f(*a, **kw):
            slow[0] += 1
            return real(*a, **kw)
        return f
    twice._slow, twice._first = counted(twice._slow), counted(twice._first)  # the Python paths
    twice._front = None  # (the Entry read the originals at decoration: made again with these)
    x = torch.randn(1000)
    out = torch.full_like(x, float("nan"))
    twice[(4,)](x, out, 1000, BLOCK=256)
    fails = [] if read_without_torch else ["read ahead with torch"]
    if not torch.equal(out, 2 * x):
        fails.append("results")
    if _cext.module() is not None and (slow[0] != 0 or len(twice.cache) != 1):
        fails.append("first launch in C (Python path %d, %d kernels)" % (slow[0], len(twice.cache)))
    for f in fails:
        print("FAIL:", f)
    print("late torch: %s" % ("ok" if not fails else "%d failures" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
