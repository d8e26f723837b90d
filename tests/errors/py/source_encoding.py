# RUN: sed 's/caf[@]/caf\xe9/' %s > %t.py
# RUN: not %tritonc compile %t.py --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# A source file is UTF-8 unless it declares another encoding (PEP 263), as
# CPython reads it: a byte that is not is an error at that byte, wherever it
# is (a comment here), as Python's import of the file would fail. tritonc
# used to accept it. (The test writes the byte, 0xe9, into a copy: this
# file stays UTF-8 for the tools that read every source.)
# CHECK: {{.*}}.py:16:10: error: Non-UTF-8 code starting with '\xe9', but no encoding declared; see PEP 263
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x):
    # caf@ au lait
    tl.store(x, 1.0)
