# RUN: %tritonc compile %s --kernel named --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=NAMED
# RUN: not %tritonc compile %s --kernel klass --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CLASS
# RUN: not %tritonc compile %s --kernel tensor_global --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=GLOBAL
# Named tuples (collections.namedtuple, typing.NamedTuple) defined in the
# module are built in kernels, as Triton builds them; other classes are not,
# except @aggregate ones (see aggregate_errors.py), and tritonc says so at the
# use (it said "Cannot access global variable ... instantiated as
# constexpr", which is not the reason). A global that is neither is
# Triton's error. A global whose value makes IR (tl.arange, tl.program_id
# at module level) crashed the compiler, used or not: it is a tensor no
# kernel may read.
# NAMED-NOT: error:
# NAMED: tt.return
# CLASS: {{.*}}module_classes.py:40:31: error: 'Config' is a class: classes defined in the module are not supported in kernels by tritonc yet, except named tuples and @aggregate ones (tl.core._aggregate)
# CLASS-NOT: error:
# GLOBAL: {{.*}}module_classes.py:45:18: error: Cannot access global variable SCALE from within @jit'ed function. Triton kernels can only access global variables that are instantiated as constexpr (`x = triton.language.constexpr(42)`).
# GLOBAL-NOT: error:
from collections import namedtuple

import triton
import triton.language as tl

Pair = namedtuple("Pair", ["a", "b"])
SCALE = tl.arange(0, 16)
PID = tl.program_id(0)


class Config:
    BLOCK = 16


@triton.jit
def named(x):
    p = Pair(1.0, 2.0)
    tl.store(x, p.a)


@triton.jit
def klass(x):
    tl.store(x + tl.arange(0, Config.BLOCK), 1.0)


@triton.jit
def tensor_global(x):
    tl.store(x + SCALE, 1.0)
