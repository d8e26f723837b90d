# The PTX of tt.histogram (zeroed counters in shared memory, red.shared.add
# per element a thread owns, bar.sync, each thread reading its result
# slots), run on the CPU by the CTA simulator (Inputs/ptx_sim.py: atomics of
# several threads on one counter are no race, a plain access beside them
# is) and compared with numpy: a 65536-element block into 256 bins, bins
# fewer than the CTA's threads and more than the block's elements, a block
# smaller than the CTA (copies of elements counted once), masks, values
# outside 0..bins-1, i8/i16/i64 sources, and a histogram followed by other
# users of shared memory.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402

SRC = os.path.join(HERE, "Inputs", "histogram_kernels.py")
TRITONC = sys.argv[1]
RNG = np.random.default_rng(11)


def compile_ptx(kernel, sig, cx, warps):
    cmd = [TRITONC, "compile", SRC, "--kernel", kernel, "--signature", sig, "--emit", "ptx", "--target", "cuda:90",
           "--num-warps", str(warps)]
    for k, v in cx.items():
        cmd += ["-D", "%s=%s" % (k, v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    assert "red.shared.add.u32" in r.stdout, "no shared-memory counting in the PTX"
    return Kernel(r.stdout)


def ref(x, bins, keep=None):
    x = x.astype(np.int64)
    ok = (x >= 0) & (x < bins)
    if keep is not None:
        ok &= keep
    return np.bincount(x[ok], minlength=bins).astype(np.int32)


def check(name, got, want):
    if not np.array_equal(got, want):
        bad = np.nonzero(got != want)[0][:8]
        raise AssertionError("%s: bins %s: got %s, want %s" % (name, bad, got[bad], want[bad]))


def masked():
    for block, bins, n, warps in ((65536, 256, 60000, 4), (1024, 8, 1000, 4), (64, 512, 50, 4), (32, 64, 32, 8),
                                  (4096, 4096, 4000, 2), (256, 32, 0, 1)):
        x = RNG.integers(-20, bins + 20, block).astype(np.int32)
        x[::11] = 1 << 30
        h = np.full(bins, -5, np.int32)
        k = compile_ptx("hist_kernel", "*i32:16,*i32:16,i32", dict(BLOCK=block, BINS=bins), warps)
        k.run((1,), [x, h, n])
        check("hist_kernel %d/%d n=%d w=%d" % (block, bins, n, warps), h, ref(x[:n], bins))


def dtypes():
    for ty, npt in (("i8", np.int8), ("i16", np.int16), ("i32", np.int32), ("i64", np.int64)):
        for block, bins, warps in ((128, 64, 4), (512, 128, 4)):
            x = RNG.integers(-100, 120, block).astype(npt)
            if npt == np.int64:
                x[::5] += np.int64(1) << 40  # out of range only in the high word
            h = np.zeros(bins, np.int32)
            k = compile_ptx("hist_nomask_kernel", "*%s:16,*i32:16" % ty, dict(BLOCK=block, BINS=bins), warps)
            k.run((1,), [x, h])
            check("hist_nomask_kernel %s %d/%d" % (ty, block, bins), h, ref(x, bins))


def reuse():
    for block, bins, warps in ((256, 64, 4), (128, 256, 2)):
        x = RNG.integers(-3, bins + 3, block).astype(np.int32)
        h, c = np.zeros(bins, np.int32), np.zeros(bins, np.int32)
        k = compile_ptx("hist_twice_kernel", "*i32:16,*i32:16,*i32:16", dict(BLOCK=block, BINS=bins), warps)
        k.run((1,), [x, h, c])
        want = ref(x, bins, (x % 2) == 0) + ref(x, bins)
        check("hist_twice_kernel h", h, want)
        check("hist_twice_kernel cumsum", c, np.cumsum(want).astype(np.int32))


for f in (masked, dtypes, reuse):
    f()
    print(f.__name__, "ok")
