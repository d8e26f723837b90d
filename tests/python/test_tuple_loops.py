# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/tuple_loops.py on the CPU against torch:
loops over tuples (constexpr and tensor tuples, enumerate, zip, tuples from
comprehensions and helpers), unrolled at compile time; and the errors for
what cannot be iterated."""
import importlib.util
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("tuple_loops")


def ref_tuple_loop(x, scales, reps):
    t = (x, x + 1.0, x * 2.0)
    acc = torch.zeros_like(x)
    acc += x * 1 + x * 2 + x * 3
    acc += sum(scales)
    acc += t[0] + t[1] + t[2]
    acc += t[1] * 1 + t[2] * 2
    acc += 10 + 11 + 12
    acc += t[0] * 0.5 + t[1] * 0.25 + t[2] * 0.125
    acc += t[2] + 1.0
    acc += 8
    acc -= x + x * x + x * x * x
    acc += reps * (t[0] + t[1] + t[2]) * 0.5
    return acc


def check_tuple_loop():
    torch.manual_seed(0)
    for n, reps in ((1, 0), (300, 2)):
        x = torch.randn(n)
        y = torch.empty(n)
        scales = (1.0, 2.0, 4.0)
        MOD.tuple_loop_kernel[(triton.cdiv(n, 128),)](x, y, n, reps, BLOCK=128, SCALES=scales)
        ref = ref_tuple_loop(x, scales, reps)
        assert torch.allclose(y, ref, rtol=1e-5, atol=1e-5), (n, (y - ref).abs().max())
    # another constexpr tuple is another specialisation
    x = torch.randn(50)
    y = torch.empty(50)
    MOD.tuple_loop_kernel[(1,)](x, y, 50, 1, BLOCK=128, SCALES=(3.0,))
    assert torch.allclose(y, ref_tuple_loop(x, (3.0,), 1), rtol=1e-5, atol=1e-5)


def check_tuple_rows():
    rows, cols = 5, 50
    a = torch.randn(rows, 64).half()
    b = torch.randn(rows, 64).half()
    out = torch.empty(rows, cols)
    MOD.tuple_rows_kernel[(rows,)](a, b, out, cols, 64, BLOCK=64)
    ref = a[:, :cols].float() + 2 * b[:, :cols].float()
    assert torch.allclose(out, ref, rtol=1e-3, atol=1e-3), (out - ref).abs().max()


def check_errors():
    src = '''
import tritonc as triton
import tritonc.language as tl

@triton.jit
def k(x_ptr, n):
    x = tl.load(x_ptr)
    {body}
    tl.store(x_ptr, x)
'''
    cases = [
        ("for v in x:\n        x += v", ":8:14:", "Only `range`, `static_range` and tuples can be iterated in a kernel"),
        ("t = [v for v in x]", ":8:9:", "list comprehensions are only supported over tuples"),
        ("t = [v for v in range(n)]", ":8:9:", "not over range()"),
        ("t = [v for v in (1, 2) if v < n]", ":8:31:", "a comprehension's condition must be a constexpr"),
        ("for i, v in enumerate(x):\n        x += v", ":8:17:", "enumerate() over"),
        ("for a, b in (1, 2):\n        x += a", ":8:9:", "cannot unpack"),
    ]
    for i, (body, where, msg) in enumerate(cases):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tc_tuple_err_{os.getpid()}_{i}.py")
        with open(path, "w") as f:
            f.write(src.replace("{body}", body))
        spec = importlib.util.spec_from_file_location("tc_tuple_err", path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        try:
            m.k[(1,)](torch.zeros(4), 4)
        except Exception as e:
            text = str(e)
            assert msg in text and os.path.basename(path) + where in text, (body, text)
        else:
            raise AssertionError(f"compiled: {body}")
        finally:
            os.unlink(path)


check_tuple_loop()
check_tuple_rows()
check_errors()
print("ok")
