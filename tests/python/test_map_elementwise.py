# RUN: %python %s
# REQUIRES: numpy
"""tests/kernels/map_elementwise.py on the CPU against the same functions
run in Python, element by element; and map_elementwise's errors."""
import importlib.util
import os
import sys

import numpy as np

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("map_elementwise")


def collatz(x):
    steps = 0
    while x > 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


def c_divmod(a, b):  # Triton's // and % on signed ints truncate, as C
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return q, a - q * b


def check_collatz():
    rng = np.random.default_rng(5)
    for n in (1, 300, 777):
        x = rng.integers(-50, 100000, n).astype(np.int32)
        x[0] = 27  # 111 steps
        steps, q, r = (np.zeros(n, dtype=np.int32) for _ in range(3))
        MOD.collatz_kernel[(triton.cdiv(n, 256),)](x, steps, q, r, n, BLOCK=256)
        assert [int(v) for v in steps] == [collatz(int(v)) for v in x], n
        want = [c_divmod(int(v), 7) for v in x]
        assert [int(v) for v in q] == [w[0] for w in want] and [int(v) for v in r] == [w[1] for w in want], n


def check_piecewise():
    x = np.random.default_rng(6).standard_normal((16, 32)).astype(np.float32)
    out = np.zeros_like(x)
    lo = np.float32(-0.5)
    MOD.piecewise_kernel[(1,)](x, out, float(lo), R=16, C=32)
    def f(v):
        if v < lo:
            return np.float32(lo * np.float32(2.0))
        y = v
        for i in range(3):
            y = np.float32(np.float32(y * np.float32(0.5)) + np.float32(i))
        return y
    want = np.vectorize(f, otypes=[np.float32])(x)
    assert np.array_equal(out, want), np.abs(out - want).max()


def check_errors():
    src = '''
import tritonc as triton
import tritonc.language as tl

def plain(v):
    return v

@triton.jit
def tile_fn(v):
    return v + tl.arange(0, 4)

@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    {body}
'''
    cases = [("y = tl.map_elementwise(plain, x)", ":15:9:", "scalar_fn must be a @triton.jit function"),
             ("y = tl.map_elementwise(tile_fn, x)", ":15:9:", "scalar_fn must return scalars"),
             ("y = tl.map_elementwise(tile_fn, x, pack=2)", ":15:9:", "pack > 1 is not supported by tritonc yet")]
    for i, (body, where, msg) in enumerate(cases):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tc_map_err_{os.getpid()}_{i}.py")
        with open(path, "w") as f:
            f.write(src.replace("{body}", body))
        spec = importlib.util.spec_from_file_location("tc_map_err", path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        try:
            m.k[(1,)](np.zeros(4, dtype=np.float32))
        except Exception as e:
            assert msg in str(e) and os.path.basename(path) + where in str(e), (body, str(e))
        else:
            raise AssertionError(f"compiled: {body}")
        finally:
            os.unlink(path)


check_collatz()
check_piecewise()
check_errors()
print("ok")
