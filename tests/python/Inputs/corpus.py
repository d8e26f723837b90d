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


def run_checks(namespace, only=()):
    """Runs every `check_*` function of a test script's globals (those
    named in `only`, without the prefix, when given), reports each failure
    with its traceback and goes on; exits 1 when any failed."""
    import traceback
    names = sorted(k for k in namespace if k.startswith("check_") and (not only or k[6:] in only))
    failed = []
    for name in names:
        try:
            namespace[name]()
            print("ok", name)
        except Exception as ex:  # report every failure, then fail
            traceback.print_exc()
            print("FAIL", name, type(ex).__name__, str(ex)[:2000])
            failed.append(name)
    print("ok: %d checks, %d failed" % (len(names), len(failed)))
    sys.exit(1 if failed else 0)
