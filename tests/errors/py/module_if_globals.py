# RUN: not %tritonc compile %s --kernel reads_undecided --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s --check-prefix=UNDECIDED
# RUN: %tritonc compile %s --kernel reads_decided --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s --check-prefix=DECIDED
# RUN: not %tritonc compile %s --kernel reads_one_branch_only --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ONE
# RUN: %tritonc compile %s --kernel reads_either_way --signature '*fp32,i32' -D BLOCK=16 --emit ttir 2>&1 | FileCheck %s --check-prefix=EITHER
# Globals bound under module-level compound statements, as the command line
# reads them (the Python binding reads their run-time values instead): a
# `try` binds what its body binds (Liger-Kernel's import of tanh), an `if`
# whose condition is a compile-time value binds its chosen branch, and a
# name an `if` of unknown condition binds (flash-linear-attention's
# environment switch) is an error where a kernel reads it, saying why. All
# three were "name '...' is not defined". A script's `if __name__ ==
# "__main__":` block is not run (the module is imported): `tl` stays.
# Where both branches of an unknown `if` bind a name to the same object, or
# to Triton functions of one name (Liger's version check, which imports
# libdevice's tanh from where each Triton version keeps it), the kernel gets
# it either way; a name only one branch binds stays an error.
# UNDECIDED: {{.*}}module_if_globals.py:{{[0-9]+}}:28: error: 'exp' is bound under a module-level `if` whose condition is not known at compile time; tritonc cannot tell which branch Python took (the Python binding reads its value)
# UNDECIDED-NOT: error:
# ONE: {{.*}}module_if_globals.py:{{[0-9]+}}:21: error: 'only_new' is bound under a module-level `if` whose condition is not known at compile time
# DECIDED: tt.func public @reads_decided
# DECIDED: symbol = "__nv_tanhf"
# DECIDED: math.exp2
# DECIDED-NOT: error:
# EITHER: tt.func public @reads_either_way
# EITHER: symbol = "__nv_tanhf"
# EITHER: symbol = "__nv_rsqrtf"
# EITHER-NOT: error:
import operator
import os

import triton
import triton.language as tl

from liger_kernel.ops.utils import compare_version

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

if compare_version("triton", operator.ge, "3.0.0"):
    try:
        from triton.language.extra.libdevice import tanh as tanh2, rsqrt
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import tanh as tanh2, rsqrt
    only_new = tl.exp
else:
    from triton.language.math import tanh as tanh2, rsqrt


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


@triton.jit
def reads_either_way(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, tanh2(x) + libdevice_rsqrt_of(x), mask=offs < n)


@triton.jit
def libdevice_rsqrt_of(x):
    return rsqrt(x)


@triton.jit
def reads_one_branch_only(x_ptr):
    tl.store(x_ptr, only_new(1.0))


if __name__ == "__main__":
    import torch as tl
