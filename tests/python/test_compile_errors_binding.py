# RUN: %python %s
"""Mistakes users make, through the Python binding (compiled with warmup and
signature strings, so no tensors and no torch): each raises
tritonc.CompilationError whose first line is `file:line:col: error: ...` at
the offending token, with the message Triton gives and the notes of the
call chain."""
import sys

import tritonc as triton
import tritonc.language as tl


@triton.jit
def _sum_axis(v):
    return tl.sum(v, axis=2)


@triton.jit
def helper_error(x, n, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(x + o, _sum_axis(tl.load(x + o)))


@triton.jit
def attr_typo(x, n, B: tl.constexpr):
    tl.store(x, tl.laod(x))


@triton.jit
def one_branch(x, n, B: tl.constexpr):
    if n > 0:
        v = 1.0
    tl.store(x, v)


@triton.jit
def static_assert_msg(x, n, B: tl.constexpr):
    tl.static_assert(B % 32 == 0, "B must be a multiple of 32")
    tl.store(x, 1.0)


@triton.jit
def pow2_shape(x, n, B: tl.constexpr):
    tl.store(x, tl.sum(tl.zeros((B,), tl.float32)))


CASES = [
    # kernel, line offsets from the decorator (error, notes...), message
    (helper_error, (_sum_axis, 2), "axis 2 is out of bounds for a tensor of rank 1",
     [(helper_error, 3, "note: in the call of _sum_axis here")]),
    (attr_typo, (attr_typo, 2), "module 'triton.language' has no attribute 'laod'; did you mean 'load'?", []),
    (one_branch, (one_branch, 4), "name 'v' is not defined",
     [(one_branch, 2, "note: 'v' is assigned only in the then branch of this runtime `if`")]),
    (static_assert_msg, (static_assert_msg, 2), "static_assert failed: B must be a multiple of 32", []),
    (pow2_shape, (pow2_shape, 2), "Shape element 0 must be a power of 2, got shape [24]", []),
]


def main():
    bad = 0
    for kernel, (where, off), msg, notes in CASES:
        B = 24 if kernel is pow2_shape else 16
        try:
            kernel.warmup("*fp32", "i32", B=B, grid=(1,))
        except triton.CompilationError as e:
            text = str(e)
            line = where.fn.__code__.co_firstlineno + off
            first = text.splitlines()[0]
            ok = (e.filename == __file__ and e.lineno == line and e.error_message == msg and
                  first == "%s:%d:%d: error: %s" % (__file__, line, e.col, msg))
            for nfn, noff, ntext in notes:
                nline = nfn.fn.__code__.co_firstlineno + noff
                ok = ok and any(l.startswith("%s:%d:" % (__file__, nline)) and ntext in l for l in text.splitlines())
            if not ok:
                print("FAIL %s: want line %d %r, got\n%s" % (kernel.fn.__name__, line, msg, text))
                bad += 1
            continue
        print("FAIL %s: compiled" % kernel.fn.__name__)
        bad += 1
    print("compile errors through the binding: %s" % ("ok" if not bad else "%d failed" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
