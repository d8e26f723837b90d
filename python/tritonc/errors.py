"""tritonc.errors - the exceptions the binding raises, and the rendering of
compile diagnostics.

The C library hands back every diagnostic of a failed compile as parts
(`tc_error_get`: file, line, column, severity, message). They are rendered
here the way GCC and Clang do, which is also close to Triton's
`CompilationError` (`at LINE:COL:` over the source and a caret):

    vector_add.py:12:22: error: name 'maks' is not defined
        x = tl.load(x_ptr + offsets, mask=maks)
                                          ^~~~

The source lines come from the text the binding compiled, so a kernel
defined in a notebook or with `exec` still gets its caret.
"""
import re
from collections import namedtuple

Diagnostic = namedtuple("Diagnostic", "file line col severity message")

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d[\w.]*")


class TritonError(Exception):
    """Triton's base class of the errors its compiler and runtime raise."""


class CompilationError(TritonError):
    """A kernel that did not compile. `diagnostics` holds every diagnostic;
    `filename`, `lineno` and `col` are those of the first error."""

    def __init__(self, kernel, diagnostics, rendered):
        self.kernel = kernel
        self.diagnostics = list(diagnostics)
        first = next((d for d in self.diagnostics if d.severity == "error"),
                     self.diagnostics[0] if self.diagnostics else None)
        self.filename = first.file if first else None
        self.lineno = first.line if first else 0
        self.col = first.col if first else 0
        self.error_message = first.message if first else rendered
        super().__init__(rendered)


class OutOfResources(TritonError):
    """Triton's name for a config that needs more than the device has; the
    autotuner skips configs that raise it."""

    def __init__(self, required=0, limit=0, name="resource"):
        self.required, self.limit, self.name = required, limit, name
        super().__init__("out of resource: %s, required: %s, hardware limit: %s"
                         % (name, required, limit))


class LaunchError(TritonError, RuntimeError):
    """tc_launch failed."""


def caret_line(text, col):
    """A caret under the token that starts at 1-based column `col`."""
    col = max(col, 1)
    m = _TOKEN.match(text, col - 1)
    width = len(m.group(0)) if m else 1
    pad = "".join(c if c == "\t" else " " for c in text[:col - 1])
    return pad + "^" + "~" * (width - 1)


def render(diagnostics, source_line):
    """The diagnostics as GCC writes them. `source_line(file, line)` returns
    a line's text or None."""
    out = []
    for d in diagnostics:
        where = d.file or "<unknown>"
        if d.line > 0:
            where += ":%d" % d.line
            if d.col > 0:
                where += ":%d" % d.col
        out.append("%s: %s: %s" % (where, d.severity or "error", d.message))
        text = source_line(d.file, d.line) if d.line > 0 else None
        if text is not None:
            out.append(text)
            out.append(caret_line(text, d.col))
    return "\n".join(out)
