# RUN: %python %s
# RUN: env TRITONC_LAUNCHER=python %python %s
# REQUIRES: torch
"""`kernel[grid](...)` through the C Entry (_launcher.c), on the CPU device.

A specialisation's first launch compiles it, in C (`first_in_c`, which asks
Python only to make the CompiledKernel: `_c_kernel`) or through `_first`.
Later launches with the same constexprs and options must be served in C
(none of `_c_kernel`, `_first` and `_slow`, the JITFunction's Python paths,
is called) however the arguments are passed: positionally,
by keyword, through defaults, with num_warps/num_stages, with a parameter
named like a launch option, with a callable grid reading META. Everything
the fast path does not take must reach Python and behave as before: a new
constexpr value, warmup, another launch option, a missing, repeated or
unknown argument, a bad grid. Every launch's result is checked.
"""
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import torch  # noqa: E402

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc import _cext  # noqa: E402

fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)


@triton.jit
def scale_add(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr, SHIFT: tl.constexpr = 1.0):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, alpha * x + SHIFT, mask=m)


@triton.jit
def with_option_name(x_ptr, out_ptr, n, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + num_stages, mask=m)


class counting:
    """Counts the launches that reach Python (`_slow`, `_first`) or make a
    specialisation's first launch in C (which runs no Python: it is seen as
    a new kernel in the JITFunction's `cache` that `_first` did not add)."""

    def __init__(self, k):
        self.k, self.base, self.py, self.py_added = k, len(k.cache), 0, 0
        self.k._slow = self.counted(k._slow)  # read when the Entry is made (at decoration)...
        self.k._first = self.counted(k._first)
        self.k._front = None  # ...so it is made again, with these, at the next launch

    def counted(self, real):
        def f(*a, **kw):
            n = len(self.k.cache)
            self.py += 1
            try:
                return real(*a, **kw)
            finally:
                self.py_added += len(self.k.cache) - n
        return f

    def __getitem__(self, i):
        assert i == 0
        return self.py + (len(self.k.cache) - self.base - self.py_added)


def raises(exc, fn, *words):
    try:
        fn()
    except exc as e:
        for w in words:
            check(w in str(e), "%r not in %r" % (w, str(e)))
        return
    except Exception as e:  # noqa: BLE001
        check(False, "expected %s, got %s: %s" % (exc.__name__, type(e).__name__, e))
        return
    check(False, "expected %s" % exc.__name__)


def main():
    have_c = _cext.module() is not None
    print("C launcher:", have_c, _cext.build_error() or "")
    torch.manual_seed(0)
    n = 1000
    x = torch.randn(n)
    out = torch.full((n,), float("nan"))

    def expect(alpha, shift, what):
        ok = torch.allclose(out, alpha * x + shift)
        check(ok, what)
        out.fill_(float("nan"))

    calls = counting(scale_add)
    grid = (triton.cdiv(n, 256),)
    scale_add[grid](x, out, n, 2.0, BLOCK=256)
    expect(2.0, 1.0, "first launch")
    check(calls[0] == 1 or not have_c, "the first launch compiles (in C)")
    check((type(scale_add._front).__name__ == "Entry") == have_c, "C Entry in use")
    fast_cases = [
        ("positional", lambda: scale_add[grid](x, out, n, 2.0, 256), 2.0, 1.0),
        ("keywords", lambda: scale_add[grid](x_ptr=x, out_ptr=out, alpha=2.0, n=n, BLOCK=256), 2.0, 1.0),
        ("default given", lambda: scale_add[grid](x, out, n, 2.0, BLOCK=256, SHIFT=1.0), 2.0, 1.0),
        ("run()", lambda: scale_add.run(x, out, n, 2.0, BLOCK=256, grid=grid), 2.0, 1.0),
        ("grid lambda", lambda: scale_add[lambda META: (triton.cdiv(META["n"], META["BLOCK"]),)](
            x, out, n, 2.0, BLOCK=256), 2.0, 1.0),
        ("grid lambda returning an int", lambda: scale_add[lambda META: triton.cdiv(n, META["BLOCK"])](
            x, out, n, 2.0, BLOCK=256), 2.0, 1.0),
        ("other alpha", lambda: scale_add[grid](x, out, n, -3.5, BLOCK=256), -3.5, 1.0),
    ]
    for what, launch, alpha, shift in fast_cases:
        before = calls[0]
        launch()
        expect(alpha, shift, what)
        if have_c:
            check(calls[0] == before, "%s: served in C" % what)

    # what the fast path hands to Python, each then correct
    slow_cases = [
        ("new constexpr", lambda: scale_add[grid](x, out, n, 2.0, BLOCK=256, SHIFT=0.5), 2.0, 0.5),
        ("num_warps", lambda: scale_add[grid](x, out, n, 2.0, BLOCK=256, num_warps=8), 2.0, 1.0),
        ("another option", lambda: scale_add[grid](x, out, n, 2.0, BLOCK=256, num_ctas=1), 2.0, 1.0),
        ("grid as a list", lambda: scale_add[[triton.cdiv(n, 256)]](x, out, n, 2.0, BLOCK=256), 2.0, 1.0),
        ("unaligned tensor", lambda: scale_add[grid](x[1:], out[1:], n - 1, 2.0, BLOCK=256), None, None),
    ]
    for what, launch, alpha, shift in slow_cases:
        before = calls[0]
        launch()
        if alpha is None:
            check(torch.allclose(out[1:], 2.0 * x[1:] + 1.0), what)
            out.fill_(float("nan"))
        else:
            expect(alpha, shift, what)
        check(calls[0] == before + 1 or not have_c, "%s: a first launch or Python" % what)
        # the second time, the specialisation is known
        before = calls[0]
        launch()
        if alpha is not None:
            expect(alpha, shift, what + " again")
        if have_c and what not in ("another option", "grid as a list"):
            check(calls[0] == before, "%s again: served in C" % what)
        out.fill_(float("nan"))

    k = scale_add.warmup(x, out, n, 2.0, BLOCK=256, grid=grid)
    check(k is not None and k.name == "scale_add", "warmup returns the compiled kernel")
    raises(TypeError, lambda: scale_add[grid](x, out, n, 2.0, BLOCK=256, bogus=1), "bogus")
    raises(TypeError, lambda: scale_add[grid](x, out, n, BLOCK=256), "alpha")
    raises(TypeError, lambda: scale_add[grid](x, out, n, 2.0, 256, BLOCK=256), "BLOCK")
    raises(TypeError, lambda: scale_add[grid](x, out, n, 2.0, 256, 1.0, 7), "")
    raises(Exception, lambda: scale_add[(1, 2, 3, 4)](x, out, n, 2.0, BLOCK=256), "grid")
    raises(TypeError, lambda: scale_add[grid](x, out, "n", 2.0, BLOCK=256), "")

    # a parameter named like a launch option is that option too
    calls2 = counting(with_option_name)
    for stages in (2, 3, 2):
        with_option_name[grid](x, out, n, BLOCK=256, num_stages=stages)
        expect(1.0, float(stages), "num_stages parameter = %d" % stages)
    check(calls2[0] == 2 if have_c else True, "num_stages parameter: 2 compiles, then C (%d)" % calls2[0])

    # a copy (copy.copy, as of any JITFunction) launches through a front of its own
    twin = copy.copy(scale_add)
    check(type(twin) is type(scale_add), "a copy is of the kernel's class")
    twin[grid](x, out, n, 3.0, BLOCK=256)
    expect(3.0, 1.0, "the copy's launch")

    print("%d failures" % len(fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
