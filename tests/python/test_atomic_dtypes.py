# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/atomic_dtypes.py on the CPU: every atomic
op on every element type Triton accepts it for (tile and scalar forms,
each returning the old value), and the errors for those it rejects.

Each launch is checked twice: with one bin per element (no contention) the
old value is the bin's initial value and the bin ends as op(init, v); with
NBINS bins shared by many elements, whatever order the atomics ran in, the
states of a bin form a chain init -> op(init, v_a) -> ..., so the multiset
{old values} + {final} equals {init} + {op(old, v)} for each bin."""
import collections
import importlib.util
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("atomic_dtypes")

INT_TYPES = {"i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64, "i16": np.int16}
FLOAT_TYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "fp64": torch.float64}


def apply(op, old, v, bits, signed):
    """op(old, v) on Python numbers, wrapping integers to their width."""
    if op == "add":
        r = old + v
    elif op == "max":
        r = max(old, v)
    elif op == "min":
        r = min(old, v)
    elif op == "and":
        r = old & v
    elif op == "or":
        r = old | v
    elif op == "xor":
        r = old ^ v
    else:
        r = v
    if isinstance(r, int):
        r &= (1 << bits) - 1
        if signed and r >= 1 << (bits - 1):
            r -= 1 << bits
    return r


def make(ty, op, n, rng):
    """Values for op on type ty, as a launchable array and a list of Python
    numbers. Float adds use small integers, so every partial sum is exact
    in fp16 and bf16 and the order of the adds does not matter."""
    if ty in INT_TYPES:
        dt = np.dtype(INT_TYPES[ty])
        info = np.iinfo(dt)
        if op == "add":
            vals = rng.integers(-50 if info.min < 0 else 0, 50, n)
        elif op in ("and", "or", "xor"):
            vals = rng.integers(0, 1 << (dt.itemsize * 8 - 2), n, dtype=np.uint64) if info.min >= 0 else \
                rng.integers(info.min, info.max, n, dtype=np.int64)
        else:
            vals = rng.integers(max(info.min, -2**40), min(info.max, 2**40), n, dtype=np.int64)
        arr = np.asarray(vals).astype(dt)
        return arr, [int(x) for x in arr]
    small = op == "add"
    vals = rng.integers(-2, 3, n).astype(np.float64) if small else rng.standard_normal(n) * 100
    t = torch.tensor(vals, dtype=FLOAT_TYPES[ty])
    return t, [float(x) for x in t.to(torch.float64)]


def as_list(a):
    if isinstance(a, torch.Tensor):
        return [float(x) for x in a.to(torch.float64)]
    return [int(x) for x in a]


def zeros_like(a, n):
    if isinstance(a, torch.Tensor):
        return torch.zeros(n, dtype=a.dtype)
    return np.zeros(n, dtype=a.dtype)


def check_rmw(ty, op, rng):
    bits = {"i32": 32, "u32": 32, "i64": 64, "u64": 64}.get(ty, 0)
    signed = ty.startswith("i")
    for n, nbins in ((300, 300), (1000, 16)):
        vals, vl = make(ty, op, n, rng)
        init, il = make(ty, op if op != "add" else "max", nbins, rng)
        if op == "add" and ty in FLOAT_TYPES:
            init = zeros_like(init, nbins)
            il = [0.0] * nbins
        dst = init.clone() if isinstance(init, torch.Tensor) else init.copy()
        old = zeros_like(vals, n)
        MOD.atomic_rmw_kernel[(triton.cdiv(n, 256),)](dst, vals, old, n, OP=op, NBINS=nbins, BLOCK=256)
        ol, fl = as_list(old), as_list(dst)
        before = collections.defaultdict(list)
        after = collections.defaultdict(list)
        for i in range(n):
            b = i % nbins
            before[b].append(ol[i])
            after[b].append(apply(op, ol[i], vl[i], bits, signed))
        for b in range(nbins):
            lhs = sorted(before[b] + [fl[b]])
            rhs = sorted(after[b] + [il[b]])
            assert lhs == rhs, (ty, op, nbins, b, lhs[:8], rhs[:8])
        if nbins == n:
            assert ol == il, (ty, op, ol[:8], il[:8])


def check_scalar(ty, op, rng):
    bits = {"i32": 32, "u32": 32, "i64": 64, "u64": 64}.get(ty, 0)
    rows, nbins = 64, 4
    vals, vl = make(ty, op, rows, rng)
    init, il = make(ty, "max", nbins, rng)
    if op == "add" and ty in FLOAT_TYPES:
        init, il = zeros_like(init, nbins), [0.0] * nbins
    dst = init.clone() if isinstance(init, torch.Tensor) else init.copy()
    old = zeros_like(vals, rows)
    MOD.atomic_scalar_kernel[(rows,)](dst, vals, old, OP=op, NBINS=nbins)
    ol, fl = as_list(old), as_list(dst)
    for b in range(nbins):
        idx = range(b, rows, nbins)
        lhs = sorted([ol[i] for i in idx] + [fl[b]])
        rhs = sorted([apply(op, ol[i], vl[i], bits, ty.startswith("i")) for i in idx] + [il[b]])
        assert lhs == rhs, (ty, op, b, lhs, rhs)


def check_cas(ty, rng):
    n = 300
    if ty in INT_TYPES:
        cur = rng.integers(0, 4, n + 1).astype(INT_TYPES[ty])
        cmpv = rng.integers(0, 4, n).astype(INT_TYPES[ty])
        new = rng.integers(100, 200, n).astype(INT_TYPES[ty])
        dst, old = cur.copy(), np.zeros(n, dtype=cur.dtype)
    else:
        dt = FLOAT_TYPES[ty]
        cur = torch.tensor(rng.integers(0, 4, n + 1), dtype=dt)
        cmpv = torch.tensor(rng.integers(0, 4, n), dtype=dt)
        new = torch.tensor(rng.integers(100, 200, n), dtype=dt)
        dst, old = cur.clone(), torch.zeros(n, dtype=dt)
    MOD.atomic_cas_kernel[(triton.cdiv(n, 128),)](dst, cmpv, new, old, n, BLOCK=128)
    cl, ml, nl, dl, ol = as_list(cur), as_list(cmpv), as_list(new), as_list(dst), as_list(old)
    for i in range(n):
        assert ol[i] == cl[i], (ty, i, ol[i], cl[i])
        assert dl[i] == (nl[i] if cl[i] == ml[i] else cl[i]), (ty, i)


def check_errors():
    """What Triton rejects, rejected with its message at the call."""
    src = '''
import tritonc as triton
import tritonc.language as tl

@triton.jit
def k(p, v):
    tl.atomic_{op}(p, tl.load(v))
'''
    cases = [("max", torch.float16, "atomic_max does not support fp16"),
             ("xchg", torch.bfloat16, "atomic_xchg does not support bf16"),
             ("add", torch.int16, "atomic_add does not support int16"),
             ("or", torch.int8, "atomic_or does not support int8")]
    for op, dt, msg in cases:
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tc_atomic_err_{os.getpid()}_{op}.py")
        with open(path, "w") as f:
            f.write(src.replace("{op}", op))
        spec = importlib.util.spec_from_file_location("tc_atomic_err", path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        x = torch.zeros(4, dtype=dt)
        try:
            m.k[(1,)](x, x)
        except Exception as e:  # a CompilationError naming file:line:col
            text = str(e)
            assert msg in text and f"{os.path.basename(path)}:7:" in text, text
        else:
            raise AssertionError(f"atomic_{op} on {dt} compiled")
        finally:
            os.unlink(path)


def main():
    rng = np.random.default_rng(0)
    for ty in ("i32", "u32", "i64", "u64", "fp16", "bf16", "fp32", "fp64"):
        check_rmw(ty, "add", rng)
    for ty in ("i32", "u32", "i64", "u64", "fp32", "fp64"):
        for op in ("max", "min", "xchg"):
            check_rmw(ty, op, rng)
    for ty in ("i32", "u32", "i64", "u64"):
        for op in ("and", "or", "xor"):
            check_rmw(ty, op, rng)
    for ty, op in (("bf16", "add"), ("fp16", "add"), ("fp64", "max"), ("fp32", "min"), ("u32", "xor"),
                   ("i64", "add")):
        check_scalar(ty, op, rng)
    for ty in ("i16", "fp16", "bf16", "i32", "i64", "fp32", "fp64"):
        check_cas(ty, rng)
    check_errors()
    print("ok")


if __name__ == "__main__":
    main()
