# RUN: %python %s
# REQUIRES: torch
"""A kernel that does not compile raises tritonc.CompilationError naming the
kernel's file, line and column, with the source line and a caret."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def typo_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < nn)
    tl.store(x_ptr + offs, x + 1, mask=offs < n)


def main():
    try:
        typo_kernel[(1,)](torch.zeros(16), 16, BLOCK=16)
    except triton.CompilationError as e:
        text = str(e)
        line = typo_kernel.fn.__code__.co_firstlineno + 3
        first = text.splitlines()[0]
        assert e.filename == __file__ and e.lineno == line, (e.filename, e.lineno, text)
        assert first.startswith("%s:%d:%d: error:" % (__file__, line, e.col)), text
        assert "nn" in e.error_message, text
        src = "    x = tl.load(x_ptr + offs, mask=offs < nn)"
        lines = text.splitlines()
        assert lines[1] == src and lines[2] == " " * (e.col - 1) + "^~", text
        print("compile errors: ok\n" + text)
        return 0
    print("no CompilationError")
    return 1


if __name__ == "__main__":
    sys.exit(main())
