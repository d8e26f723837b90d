"""A corpus file, tests/kernels/NAME.py, loaded as a module for the
tests/python scripts that launch its kernels: its `import triton` and
`import triton.language` are served by tritonc."""
import importlib.util
import os
import sys

import tritonc as triton
import tritonc.language as tl

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")


def load_corpus(name):
    sys.modules.setdefault("triton", triton)
    sys.modules.setdefault("triton.language", tl)
    spec = importlib.util.spec_from_file_location(name, os.path.join(KERNELS, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
