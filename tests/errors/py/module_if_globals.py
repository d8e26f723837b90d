# RUN: not %tritonc compile %s --kernel reads_undecided --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s --check-prefix=UNDECIDED
# RUN: %tritonc compile %s --kernel reads_decided --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s --check-prefix=DECIDED
# Globals bound under module-level compound statements, as the command line
# reads them (the Python binding reads their run-time values instead): a
# `try` binds what its body binds (Liger-Kernel's import of tanh), an `if`
# whose condition is a compile-time value binds its chosen branch, and a
# name an `if` of unknown condition binds (flash-linear-attention's
# environment switch) is an error where a kernel reads it, saying why. All
# three were "name '...' is not defined". A script's `if __name__ ==
# "__main__":` block is not run (the module is imported): `tl` stays.
# UNDECIDED: {{.*}}module_if_globals.py:47:28: error: 'exp' is bound under a module-level `if` whose condition is not known at compile time; tritonc cannot tell which branch Python took (the Python binding reads its value)
# UNDECIDED-NOT: error:
# DECIDED: tt.func public @reads_decided
# DECIDED: symbol = "__nv_tanhf"
# DECIDED: math.exp2
# DECIDED-NOT: error:
import os

import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh
finally:
    SCALE = tl.constexpr(2.0)

USE_EXP2 = tl.constexpr(True)
if USE_EXP2:
    fexp = tl.exp2
elif os.environ.get("X") == "1":
    fexp = tl.exp
else:
    fexp = None

if os.environ.get("FAST_OPS", "0") == "1":
    from triton.language.extra.libdevice import fast_expf as exp
else:
    exp = tl.exp


@triton.jit
def reads_undecided(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, exp(x), mask=offs < n)


@triton.jit
def reads_decided(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, fexp(tanh(x) * SCALE), mask=offs < n)


if __name__ == "__main__":
    import torch as tl
