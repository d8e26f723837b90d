# RUN: %python %s
# REQUIRES: torch
"""A specialisation's first launch made in C (`first_in_c` in _launcher.c)
must compile exactly what the Python path would: the same signature, the
same constexpr texts (the parameters', then the module globals), the same
key in the JITFunction's cache. Each launch below goes through the C Entry
with arguments of a different kind or specialisation; after it, `warmup`
(the Python path: classify_args, _compile_bound) with the same arguments
must find that very kernel in the cache without compiling anything, and the
key's signature must be the one _spec writes. Results are checked against
torch. Arguments only the Python path takes (ndarrays, None, bools, wide
ints, annotated parameters) must still compile there.
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
os.environ["TRITONC_CACHE_DIR"] = tempfile.mkdtemp(prefix="tc_first_")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc import _cext, _spec  # noqa: E402

fails = []
OFFSET = 0.25  # a module global the kernel reads: a constexpr of every compile
MODE = "add"


def check(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)


@triton.jit(do_not_specialize=["k"], do_not_specialize_on_alignment=["y_ptr"])
def axpb(x_ptr, y_ptr, out_ptr, n, k, alpha, BLOCK: tl.constexpr, SCALE: tl.constexpr = 1.0,
         FLAG: tl.constexpr = False, NAME: tl.constexpr = "plain"):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=m).to(tl.float32)
    r = alpha * x + y * SCALE + k + OFFSET
    if FLAG:
        r = -r
    if MODE == "add":
        r = r + 0.0
    tl.store(out_ptr + offs, r, mask=m)


@triton.jit
def annotated(x_ptr, out_ptr, n: tl.int32, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1, mask=m)


class counting:
    """calls["c"]: the kernels a first launch in C added to the
    JITFunction's `cache` (it runs no Python: a kernel that neither `_first`
    nor the Python path `_slow` added); calls["py"]: the calls of `_first`,
    the Python path's first launch."""

    def __init__(self, k):
        self.k, self.base, self.py, self.py_added = k, len(k.cache), 0, 0
        k._first = self.counted(k._first, True)
        k._slow = self.counted(k._slow, False)
        k._front = None  # (the Entry read the originals at decoration: made again with these)

    def counted(self, real, is_first):
        def f(*a, **kw):
            n = len(self.k.cache)
            self.py += is_first
            try:
                return real(*a, **kw)
            finally:
                self.py_added += len(self.k.cache) - n
        return f

    def keys(self):
        return ("c", "py")

    def __getitem__(self, what):
        return self.py if what == "py" else len(self.k.cache) - self.base - self.py_added


def python_sig(k, args):
    infos = k.classify_args(k._bind(args, {}))
    return _spec.signature_string([i for i in infos if i is not None])


def main():
    have_c = _cext.module() is not None
    print("C launcher:", have_c, _cext.build_error() or "")
    calls = counting(axpb)
    torch.manual_seed(0)
    n = 300
    x32 = torch.randn(n + 1)
    x16 = torch.randn(n + 1).to(torch.float16)
    xb16 = torch.randn(n + 1).to(torch.bfloat16)
    xi8 = torch.randint(-5, 5, (n + 1,), dtype=torch.int8)
    y = torch.randn(n + 1)
    out = torch.empty(n + 1)
    grid = (triton.cdiv(n, 64),)
    cases = [
        # (what, positional args, constexpr kwargs, a new specialisation?)
        ("fp32", (x32, y, out, n, 3, 2.0), dict(BLOCK=64), True),
        ("fp16, n = 16 * k", (x16, y, out, 288, 3, 2.0), dict(BLOCK=64), True),
        ("bf16, n == 1", (xb16, y, out, 1, 3, 2.0), dict(BLOCK=64), True),
        ("int8, n == 0", (xi8, y, out, 0, 3, 2.0), dict(BLOCK=64), True),
        ("unaligned x", (x32[1:], y, out, n, 3, 2.0), dict(BLOCK=64), True),
        ("unaligned y (not specialised on alignment)", (x32, y[1:], out, n, 3, 2.0), dict(BLOCK=64), False),
        ("k == 16 (not specialised)", (x32, y, out, n, 16, 2.0), dict(BLOCK=64), False),
        ("negative n", (x32, y, out, -16, 1, 2.0), dict(BLOCK=64), True),
        ("largest i32", (x32, y, out, n, 2**31 - 1, 0.5), dict(BLOCK=64), False),
        ("constexprs", (x32, y, out, n, 3, 2.0), dict(BLOCK=32, SCALE=-0.5, FLAG=True, NAME="it's"), True),
        ("int SCALE", (x32, y, out, n, 3, 2.0), dict(BLOCK=64, SCALE=2), True),
        ("num_warps", (x32, y, out, n, 3, 2.0), dict(BLOCK=64, num_warps=2), True),
    ]
    seen = 0
    for what, args, kw, new in cases:
        before = dict(calls)
        out.fill_(float("nan"))
        kern = axpb[grid](*args, **kw)
        cn = max(args[3], 0)
        scale, flag = kw.get("SCALE", 1.0), kw.get("FLAG", False)
        ref = args[5] * args[0].float()[:cn] + args[1][:cn] * scale + args[4] + OFFSET
        if flag:
            ref = -ref
        m = min(cn, grid[0] * kw["BLOCK"])
        check(torch.allclose(out[:m], ref[:m]), "%s: result" % what)
        seen += new
        if have_c:
            check(calls["py"] == before["py"] and calls["c"] == before["c"] + new,
                  "%s: %s (%r -> %r)" % (what, "compiled in C" if new else "served", before, calls))
        check(len(axpb.cache) == seen, "%s: %d cache entries, not %d" % (what, seen, len(axpb.cache)))
        key = next(k for k, v in axpb.cache.items() if v is kern)
        full = args + (kw["BLOCK"],) + tuple(kw.get(p, d) for p, d in (("SCALE", 1.0), ("FLAG", False),
                                                                        ("NAME", "plain")))
        check(key[0] == python_sig(axpb, full), "%s: signature %s" % (what, key[0]))
        cx = dict(key[1])
        check(cx.get("OFFSET") == "0.25" and cx.get("MODE") == "'add'", "%s: globals %r" % (what, cx))
        again = axpb.warmup(*args, grid=grid, **kw)
        check(again is kern and len(axpb.cache) == seen, "%s: the Python path finds it" % what)

    # values of constexprs that are written specially
    for v, text in ((float("nan"), "float('nan')"), (float("inf"), "float('inf')"),
                    (-float("inf"), "-float('inf')"), (1e-300, repr(1e-300)), (None, "None")):
        kern = axpb[grid](x32, y, out, n, 3, 2.0, BLOCK=64, NAME=v)
        key = next(k for k, c in axpb.cache.items() if c is kern)
        check(dict(key[1])["NAME"] == text, "constexpr %r written %s" % (v, dict(key[1])["NAME"]))
        check(axpb.warmup(x32, y, out, n, 3, 2.0, BLOCK=64, NAME=v, grid=grid) is kern,
              "constexpr %r: the Python path finds it" % v)

    # kinds only the Python path takes: still compiled, by it
    before = dict(calls)
    out.fill_(float("nan"))
    if x32.device.type == "cpu":  # (with tensors on CUDA, an ndarray is another device's)
        axpb[grid](np.ones(n, dtype=np.float32), y, out, n, 3, 2.0, BLOCK=64)
        check(torch.allclose(out[:n], 2.0 + y[:n] + 3 + OFFSET), "ndarray argument")
    axpb[grid](x32, y, out, n, 2**33, 2.0, BLOCK=64)
    check(torch.allclose(out[:n], 2.0 * x32[:n] + y[:n] + 2**33 + OFFSET), "i64 argument")
    if have_c:
        check(calls["c"] == before["c"] and calls["py"] > before["py"],
              "ndarray and i64 go through _first (%r -> %r)" % (before, dict(calls)))
    calls2 = counting(annotated)
    xi = torch.arange(n, dtype=torch.int32)
    oi = torch.zeros(n, dtype=torch.int32)
    annotated[(triton.cdiv(n, 64),)](xi, oi, n, BLOCK=64)
    check(torch.equal(oi, xi + 1), "annotated parameter")
    check(calls2["c"] == 0 or not have_c, "an annotated parameter goes through the Python path")

    # TRITON_DEBUG is part of the key, read when compiling, as Triton's
    # knobs read a flag (1/true/on/yes/y in any case; false and 0 are off)
    # (a block size per value: the flag is read when a specialisation is first launched)
    try:
        for block, (value, want) in zip((128, 256, 512, 1024, 2048, 4096),
                                        (("1", True), (" True ", True), ("false", False), ("0", False),
                                         ("YES", True), ("off", False))):
            os.environ["TRITON_DEBUG"] = value
            axpb[grid](x32, y, out, n, 3, 2.0, BLOCK=block)
            keys = [k for k in axpb.cache if ("BLOCK", str(block)) in k[1] and ("NAME", "'plain'") in k[1]
                    and k[0].endswith("fp32")]
            check([k[5] for k in keys] == [want], "TRITON_DEBUG=%r: keys %r" % (value, keys))
    finally:
        del os.environ["TRITON_DEBUG"]

    # tc_cuda_attach: only to a context torch has made current
    from tritonc import _lib
    L = _lib.lib()
    if not torch.cuda.is_initialized():
        check(L.tc_cuda_attach() == 0, "tc_cuda_attach without a CUDA context")
    if torch.cuda.is_available():
        torch.zeros(1, device="cuda")
        check(L.tc_cuda_attach() == 1, "tc_cuda_attach with torch's context current")

    print("%d failures" % len(fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
