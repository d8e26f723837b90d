# The bodies of module-level defs are parsed when a compile uses them
# (py_parse_lazy): the skim that finds where each body ends follows the
# lexer's rules (strings, brackets, continuations, comments in column 0).
# A syntax error in a function the kernel does not use is not reported.
# RUN: %tritonc compile %s --kernel k --signature '*fp32:16' --emit ttir | FileCheck %s
# RUN: %tritonc compile %s --kernel k2 --signature '*fp32:16' --emit ttir | FileCheck %s --check-prefix=K2
# RUN: not %tritonc compile %s --kernel k3 --signature '*fp32:16' --emit ttir 2>&1 | FileCheck %s --check-prefix=K3
# CHECK-LABEL: tt.func public @k(
# CHECK: arith.constant 3.000000e+00 : f32
# CHECK: arith.constant 7.000000e+00 : f32
# CHECK: tt.store
# K2-LABEL: tt.func public @k2(
# K2: arith.constant 5.000000e+00 : f32
# K3: lazy_bodies.py:55:15: error:
import triton
import triton.language as tl


@triton.jit
def one_line(x): return x + 1.0


@triton.jit
def docstring_at_column_0(x):
    """A docstring whose lines
start in column 0
def not_a_def():
    """
    y = (x +
2.0)  # a bracket continued in column 0
    z = y \
+ 0.0
# a comment in column 0 inside the body
    'it''s #not a comment ("'
    return z


@triton.jit
def k(x_ptr):
    tl.store(x_ptr, one_line(docstring_at_column_0(0.0)))
    tl.store(x_ptr + 1, 7.0)


def unused_broken(x):
    this is not python


@triton.jit
def k2(x_ptr):
    tl.store(x_ptr, 5.0)


@triton.jit
def broken_helper(x):
    return x +* 1


@triton.jit
def k3(x_ptr):
    tl.store(x_ptr, broken_helper(1.0))
