# RUN: %python %s %t
# REQUIRES: numpy
"""When the C compiler crashes on a kernel's C (an "internal compiler
error"), the CPU backend compiles it again with the loop vectoriser off,
then at -O1, instead of failing the launch. GCC 12.2 at -O3 crashes in
vect_get_vec_defs_for_operand on the C of tests/kernels/sequence_models.py's
min_gru_log_scan_kernel with [16, 16] tiles (a scan along axis 1 between a
gathered load and a scattered store). A stand-in compiler here crashes the
same way unless -fno-tree-loop-vectorize is given, and otherwise runs the
real one; the kernel must run and the stand-in must have been called twice
for it."""
import os
import shutil
import stat
import sys

import numpy as np

work = sys.argv[1]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
real_cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
calls = os.path.join(work, "calls")
fake = os.path.join(work, "fake-cc")
with open(fake, "w") as f:
    f.write("""#!/bin/sh
case "$*" in
  *kernel.c*)
    echo "$*" >> '%s'
    case "$*" in
      *-fno-tree-loop-vectorize*) ;;
      *) echo "kernel.c: internal compiler error: in vect_get_vec_defs_for_operand" >&2; exit 1 ;;
    esac ;;
esac
exec %s "$@"
""" % (calls, real_cc))
os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
os.environ["CC"] = fake
os.environ["TRITONC_CACHE_DIR"] = os.path.join(work, "cache")
os.environ["TRITONC_LAUNCHER"] = "python"

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402


@triton.jit
def twice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


x = np.arange(100, dtype=np.float32)
y = np.full(100, np.nan, dtype=np.float32)
twice[(triton.cdiv(100, 32),)](x, y, 100, BLOCK=32)
assert np.array_equal(y, 2 * x), y
lines = open(calls).read().splitlines()
assert len(lines) == 2, lines
assert "-fno-tree-loop-vectorize" not in lines[0] and "-fno-tree-loop-vectorize" in lines[1], lines
print("ok: built after the compiler crashed once")
