# RUN: not %tritonc compile %s --kernel stmts --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=STMTS
# RUN: not %tritonc compile %s --kernel exprs --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=EXPRS
# RUN: not %tritonc compile %s --kernel loops --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=LOOPS
# RUN: not %tritonc compile %s --kernel yields --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=YIELD
# Python that Triton's kernel language lacks is an error at the construct:
# try, with, class, global, nonlocal, del, yield, raise, import, walrus, set
# displays, dict displays, chained comparisons, for/while with else. (A
# `match` statement is a syntax error: syntax_errors.py.)
# STMTS: {{.*}}unsupported_statements.py:36:5: error: `try` statements are not supported in Triton kernels
# STMTS: {{.*}}unsupported_statements.py:40:5: error: `with` statements are not supported in Triton kernels
# STMTS: {{.*}}unsupported_statements.py:42:5: error: class definitions are not supported in Triton kernels
# STMTS: {{.*}}unsupported_statements.py:44:5: error: global/nonlocal declarations are not supported in Triton kernels
# STMTS: {{.*}}unsupported_statements.py:45:5: error: global/nonlocal declarations are not supported in Triton kernels
# STMTS: {{.*}}unsupported_statements.py:47:5: error: `del` statements are not supported in Triton kernels
# STMTS: {{.*}}unsupported_statements.py:48:5: error: import statements are not supported inside Triton kernels
# STMTS: {{.*}}unsupported_statements.py:49:5: error: `raise` statements are not supported in Triton kernels
# STMTS-NOT: error:
# EXPRS: {{.*}}unsupported_statements.py:54:9: error: assignment expressions (:=) are not supported in Triton kernels
# EXPRS: {{.*}}unsupported_statements.py:56:9: error: set displays are not supported in Triton kernels
# EXPRS: {{.*}}unsupported_statements.py:57:8: error: simultaneous multiple comparison is not supported
# EXPRS: {{.*}}unsupported_statements.py:59:9: error: dict displays are not supported in Triton kernels
# EXPRS-NOT: error:
# LOOPS: {{.*}}unsupported_statements.py:64:5: error: `else` after a `for` loop is not supported
# LOOPS: {{.*}}unsupported_statements.py:69:5: error: `else` after a `while` loop is not supported
# LOOPS-NOT: error:
# YIELD: {{.*}}unsupported_statements.py:77:5: error: 'yield' is not supported in Triton kernels
# YIELD-NOT: error:
import triton
import triton.language as tl

G = 1


@triton.jit
def stmts(x, n):
    try:
        tl.store(x, 1.0)
    except Exception:
        pass
    with open("f") as f:
        tl.store(x, 1.0)
    class A:
        pass
    global G
    nonlocal y
    v = 1.0
    del v
    import math
    raise ValueError("no")


@triton.jit
def exprs(x, n):
    if (v := tl.load(x)) > 0:
        tl.store(x, v)
    s = {1, 2}
    if 0 < n < 10:
        tl.store(x, 1.0)
    d = {"a": 1}


@triton.jit
def loops(x, n):
    for i in range(n):
        tl.store(x, 1.0)
    else:
        tl.store(x, 2.0)
    i = 0
    while i < n:
        i += 1
    else:
        i = 0


@triton.jit
def yields(x):
    yield 1
