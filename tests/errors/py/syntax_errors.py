# RUN: not %tritonc compile %s --kernel indent --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=INDENT
# RUN: not %tritonc compile %s --kernel dedent --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=DEDENT
# RUN: not %tritonc compile %s --kernel tokens --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=TOKENS
# RUN: not %tritonc compile %s --kernel dup --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=DUP
# RUN: not %tritonc compile %s --kernel calls --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CALLS
# RUN: not %tritonc compile %s --kernel matches --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MATCH
# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=EMPTY
# Syntax errors are reported as CPython words them, at the token, each
# statement's on its own (the parser goes on after one). A function is
# parsed when the kernel needs it, so each kernel here has its own run. A
# `match` statement is named (it was "expected end of line after
# statement, saw 'n'"); `match` as a name is still a name.
# INDENT: {{.*}}syntax_errors.py:38:7: error: unexpected indent
# INDENT-NOT: error:
# DEDENT: {{.*}}syntax_errors.py:45:7: error: unindent does not match any outer indentation level
# DEDENT-NOT: error:
# TOKENS: {{.*}}syntax_errors.py:50:9: error: unterminated string literal
# TOKENS: {{.*}}syntax_errors.py:51:17: error: invalid decimal literal
# TOKENS: {{.*}}syntax_errors.py:52:21: error: unexpected character '$'
# TOKENS-NOT: error:
# DUP: {{.*}}syntax_errors.py:56:12: error: duplicate parameter 'x' in function definition
# DUP-NOT: error:
# CALLS: {{.*}}syntax_errors.py:62:5: error: cannot assign to function call
# CALLS: {{.*}}syntax_errors.py:63:39: error: keyword argument repeated: mask
# CALLS: {{.*}}syntax_errors.py:64:39: error: positional argument follows keyword argument
# CALLS-NOT: error:
# MATCH: {{.*}}syntax_errors.py:69:5: error: `match` statements are not supported by tritonc
# MATCH-NOT: error:
# EMPTY: {{.*}}syntax_errors.py:78:1: error: expected an indented block after function definition on line 77
# EMPTY-NOT: error:
import triton
import triton.language as tl


@triton.jit
def indent(x):
    v = tl.load(x)
      tl.store(x, v)


@triton.jit
def dedent(x):
    if True:
        v = tl.load(x)
      tl.store(x, v)


@triton.jit
def tokens(x):
    s = "abc
    tl.store(x, 1.0e)
    tl.store(x, 1.0 $ 2)


@triton.jit
def dup(x, x):
    tl.store(x, 1.0)


@triton.jit
def calls(x):
    tl.load(x) = 1.0
    tl.store(x, tl.load(x, mask=None, mask=None))
    tl.store(x, tl.load(x, mask=None, None))


@triton.jit
def matches(x, n):
    match n:
        case 1:
            tl.store(x, 1.0)
    match = 1
    tl.store(x, match)


@triton.jit
def k(x):
