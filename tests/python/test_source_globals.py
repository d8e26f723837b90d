# RUN: %python %s
"""tc_source_globals (the binding's _top_level_names asks it which globals a
kernel's file binds at its top level) against Python's own ast, on every
Python file of the repository and on tricky snippets."""
import ast
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

from tritonc import _lib  # noqa: E402


def _bind(t, into):
    """The names an assignment target binds, into the set `into`."""
    if isinstance(t, ast.Name):
        into.add(t.id)
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _bind(e, into)
    elif isinstance(t, ast.Starred):
        _bind(t.value, into)


def _imports(node, into):
    for a in node.names:
        if a.name != "*":
            into.add(a.asname or a.name.split(".")[0])


def reference(src):
    names = set()
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            _imports(node, names)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                _bind(t, names)
        elif isinstance(node, ast.AnnAssign):
            _bind(node.target, names)
    # less the names a top-level `if` or `try` binds too, at any depth of
    # them (which value Python gave such a name, the binding reads at run time)
    cond = set()

    def nested(stmts):
        for node in stmts:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                _imports(node, cond)
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    _bind(t, cond)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                _bind(node.target, cond)
            elif isinstance(node, ast.If):
                nested(node.body)
                nested(node.orelse)
            elif isinstance(node, ast.Try):
                nested(node.body)
                for h in node.handlers:
                    nested(h.body)
                nested(node.orelse)
                nested(node.finalbody)
    nested([n for n in ast.parse(src).body if isinstance(n, (ast.If, ast.Try))])
    return names - cond


SNIPPETS = [
    "import a.b.c\nimport d as e, f.g\nfrom h import (i,\n  j as k)\nfrom . import *\n",
    "x = y = 1\n(p, [q, *r]) = s\nt: int = 3\nu: str\nv[0] = 1\nw.z = 2\nn += 1\n",
    "if c:\n    hidden = 1\nelse:\n    other = 2\ntry:\n    import os\nexcept ImportError:\n    pass\n",
    'doc = """\nnot_a_name = 1\ndef nor_this(): pass\n"""\n@deco(key=["a"],\n      warps=4)\ndef kern(x, y=2):\n    inner = 1\nclass C:\n    attr = 1\n',
    "configs = [\n    cfg(BLOCK=128, num_warps=4),\n]\nlam = lambda a, b=1: a\n",
    # a name bound at the top level and again under an `if` or a `try`
    "import os\nexp = e1\nif os.environ.get('F'):\n    exp = e2\n    import m as tanh\n"
    "tanh = t0\ntry:\n    from a import b as tanh\nexcept ImportError:\n    alt = 1\nkeep = 2\n",
]


def main():
    fails = 0
    files = sorted(glob.glob(os.path.join(ROOT, "**", "*.py"), recursive=True))
    cases = [(f, open(f, encoding="utf-8").read()) for f in files] + \
        [("snippet %d" % i, s) for i, s in enumerate(SNIPPETS)]
    for name, src in cases:
        try:
            want = reference(src)
        except SyntaxError:
            continue
        got = set(_lib.source_globals(src))
        if got != want:
            fails += 1
            print("FAIL %s: missing %s, extra %s" % (name, sorted(want - got), sorted(got - want)))
    print("%d sources, %d differ" % (len(cases), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
