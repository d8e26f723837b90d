# RUN: %python %s
# REQUIRES: torch
"""tests/kernels/topk.py on the CPU against torch.topk, and tl.topk's
errors (k not a power of 2, larger than the row, another dimension)."""
import importlib.util
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

sys.modules.setdefault("triton", triton)
sys.modules.setdefault("triton.language", tl)
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("topk", os.path.join(HERE, "..", "kernels", "topk.py"))
MOD = importlib.util.module_from_spec(spec)
spec.loader.exec_module(MOD)


def check(rows, cols, k, dtype):
    torch.manual_seed(rows * cols + k)
    x = torch.randn(rows, cols).to(dtype)
    x[0, 1] = x[0, 7]  # a tie
    out = torch.zeros(2, rows, k, dtype=dtype)
    MOD.topk_kernel[(1,)](x, out, ROWS=rows, COLS=cols, K=k)
    assert torch.equal(out[0], torch.topk(x.float(), k, dim=1).values.to(dtype)), (out[0], x)
    assert torch.equal(out[1], torch.topk(x.float(), k, dim=1, largest=False).values.to(dtype)), (out[1], x)


def check_errors():
    src = '''
import tritonc as triton
import tritonc.language as tl

@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.store(x_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, {K})[None, :], tl.topk(x, {ARGS}))
'''
    cases = [("3", "3", "k (3) must be a power of 2 no larger than the last dimension (16)"),
             ("32", "32", "k (32) must be a power of 2"),
             ("4", "4, dim=0", "topk(): only the last dimension is currently supported")]
    for i, (kk, args, msg) in enumerate(cases):
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tc_topk_err_{os.getpid()}_{i}.py")
        with open(path, "w") as f:
            f.write(src.replace("{K}", kk).replace("{ARGS}", args))
        spec = importlib.util.spec_from_file_location("tc_topk_err", path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        try:
            m.k[(1,)](torch.zeros(256))
        except Exception as e:
            assert msg in str(e) and os.path.basename(path) + ":8:" in str(e), str(e)
        else:
            raise AssertionError(f"compiled: topk(x, {args})")
        finally:
            os.unlink(path)


check(4, 64, 8, torch.float32)
check(2, 32, 32, torch.float16)
check(1, 16, 1, torch.float32)
check_errors()
print("ok")
