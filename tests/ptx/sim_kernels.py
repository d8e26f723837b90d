# The corpus kernels' PTX (cuda:90) run on the CPU by the control-flow
# simulator (Inputs/ptx_sim.py) and compared with the same launch on
# tritonc's CPU backend (Inputs/sim_launch.py: integers bit for bit, floats
# within a tolerance): small shapes, ragged sizes and masks, after the
# launches of tests/python/*.py. SIM_SLOW=1 adds the bigger cases;
# SIM_SCRIPTS=1 also runs every tests/python script with each of its
# launches checked (Inputs/sim_intercept.py; minutes).
# REQUIRES: torch, numpy
# RUN: %python %s
import importlib.util
import math
import os
import subprocess
import sys
import time

import numpy as np
import torch

# the CPU backend's CTAs one after another, in order, as the simulator runs
# kernels with atomics: the values atomics return depend on that order
os.environ.setdefault("TRITONC_NUM_THREADS", "1")

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402

sys.modules.setdefault("triton", triton)
sys.modules.setdefault("triton.language", tl)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import fmt_encode, round_fmt  # noqa: E402
from sim_launch import check  # noqa: E402

KDIR = os.path.join(HERE, "..", "kernels")
SLOW = os.environ.get("SIM_SLOW", "0") not in ("", "0")
GEN = torch.Generator().manual_seed(2024)
_mods = {}


def K(name):
    if name not in _mods:
        spec = importlib.util.spec_from_file_location("simk_" + name, os.path.join(KDIR, name + ".py"))
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        _mods[name] = m
    return _mods[name]


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def randint(lo, hi, *shape, dtype=torch.int32):
    return torch.randint(lo, hi, shape, generator=GEN).to(dtype)


def nan(*shape, dtype=torch.float32):
    return torch.full(shape, float("nan")).to(dtype)


CASES = []


class quiet:
    """stdout and stderr (file descriptors 1 and 2) to /dev/null."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.fds = [os.dup(1), os.dup(2)]
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)

    def __exit__(self, *a):
        sys.stdout.flush()
        sys.stderr.flush()
        for i, fd in enumerate(self.fds):
            os.dup2(fd, i + 1)
            os.close(fd)


def case(slow=False):
    def deco(f):
        CASES.append((f.__name__, f, slow))
        return f
    return deco


# ---- element-wise, control flow, integers, casts ------------------------------

@case()
def vector_add():
    V = K("vector_add")
    for n, dt, B in ((1000, torch.float32, 256), (4096, torch.float16, 2048)):
        x, y = randn(n, dtype=dt), randn(n, dtype=dt)
        check(V.add_kernel, (triton.cdiv(n, B),), x, y, nan(n, dtype=dt), n, BLOCK=B)
    x, y = randn(777), randn(777)
    check(V.axpy_kernel, (triton.cdiv(777, 512),), x, y, nan(777), 0.75, 777, BLOCK=512)


@case()
def control_flow():
    C = K("control_flow")
    n = 300
    x = torch.rand(n, generator=GEN) * 100
    x[::7] = 0.0
    check(C.newton_sqrt_kernel, (triton.cdiv(n, 256),), x, nan(n), torch.full((n,), -1, dtype=torch.int32), n, 1e-6,
          MAX_ITERS=32, BLOCK=256)
    coef = randn(5)
    for mode in (0, 1, 2):
        check(C.poly_branch_kernel, (triton.cdiv(n, 128),), randn(n), coef, nan(n), n, mode, DEGREE=4, BLOCK=128)


@case()
def int_arith():
    I = K("int_arith")
    n = 333
    a = randint(-2**31, 2**31 - 1, n)
    b = randint(-1000, 1000, n)
    b[b == 0] = 7
    b[:4] = torch.tensor([-1, 1, -2**31, 2**31 - 1], dtype=torch.int32)
    a[:4] = torch.tensor([-2**31, -2**31, 5, -5], dtype=torch.int32)
    check(I.int_divmod_kernel, (triton.cdiv(n, 256),), a, b, torch.zeros(n, dtype=torch.int32),
          torch.zeros(n, dtype=torch.int32), torch.zeros(n, dtype=torch.int64), torch.zeros(n, dtype=torch.int32),
          n, BLOCK=256)
    ua = np.random.default_rng(1).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ub = np.random.default_rng(2).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    check(I.bit_ops_kernel, (triton.cdiv(n, 128),), ua, ub, np.zeros(n, np.uint32), np.zeros(n, np.uint32),
          np.zeros(n, np.uint32), np.zeros(n, np.int32), n, BLOCK=128)
    # i8 and i16 results out of their range wrap (|-128|, -128 // -1 in an i8)
    for dt, lo, hi in ((torch.int8, -128, 127), (torch.int16, -32768, 32767)):
        a = torch.randint(lo, hi + 1, (100,), generator=GEN, dtype=torch.int64).to(dt)
        b = torch.randint(lo, hi + 1, (100,), generator=GEN, dtype=torch.int64).to(dt)
        b[b == 0] = 3
        a[:6] = torch.tensor([lo, lo, lo, hi, -1, 0]).to(dt)
        b[:6] = torch.tensor([-1, lo, 1, hi, lo, -1]).to(dt)
        check(I.narrow_wrap_kernel, (1,), a, b, torch.zeros(100 * 12, dtype=torch.int32), 100, BLOCK=128)


@case()
def casts():
    C = K("casts")
    n = 500
    # float -> int conversions out of range are undefined (LLVM's fptosi/fptoui
    # give poison): `back` (x.to(uint8)) only where x is in [0, 255]
    x = randn(n) * 3000
    x[:8] = torch.tensor([0.5, 1.5, 2.5, -0.5, 65504.0, 70000.0, -1e9, 65519.0])
    for xx, cmp in ((x, (0, 1, 2, 3, 4, 5, 6)), (torch.rand(n, generator=GEN) * 250, None)):
        check(C.cast_kernel, (triton.cdiv(n, 256),), xx, nan(n, dtype=torch.float16), nan(n, dtype=torch.bfloat16),
              torch.zeros(n, dtype=torch.int32), np.zeros(n, np.uint32), torch.zeros(n, dtype=torch.int8),
              nan(n, dtype=torch.float64), nan(n), n, BLOCK=256, compare=cmp)
    h = (randn(n) * 4).half()
    h[:6] = torch.tensor([448.0, 500.0, -1e4, 0.0, -0.0, 1e-6]).half()
    e4, e5 = triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e4nv), \
        triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e5)
    check(C.fp8_roundtrip_kernel, (triton.cdiv(n, 512),), h, e4, e5, torch.zeros(n, dtype=torch.uint8),
          nan(n, dtype=torch.float16), n, BLOCK=512)


@case()
def cast_matrix():
    C = K("cast_matrix")
    n = 200
    outs = lambda: (torch.zeros(n, dtype=torch.bool), torch.zeros(n, dtype=torch.int8),  # noqa: E731
                    torch.zeros(n, dtype=torch.int16), torch.zeros(n, dtype=torch.int32),
                    torch.zeros(n, dtype=torch.int64), torch.zeros(n, dtype=torch.uint8),
                    np.zeros(n, np.uint16), np.zeros(n, np.uint32), np.zeros(n, np.uint64),
                    nan(n, dtype=torch.float16), nan(n, dtype=torch.bfloat16), nan(n), nan(n, dtype=torch.float64),
                    triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e4nv),
                    triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e5))
    # (float sources in [0, 127]: a float out of an integer type's range converts to poison)
    srcs = [torch.rand(n, generator=GEN) * 127, (torch.rand(n, generator=GEN) * 127).half(),
            randint(-2**31, 2**31 - 1, n), randint(-128, 127, n, dtype=torch.int8),
            randint(-2**62, 2**62, n, dtype=torch.int64), torch.rand(n, generator=GEN).double() * 127]
    if SLOW:
        srcs += [(torch.rand(n, generator=GEN) * 127).bfloat16(), randint(0, 2, n, dtype=torch.bool)]
    srcs.append(np.random.default_rng(5).integers(0, 120, n, dtype=np.uint64))
    for fmt, dt in (("e4m3", tl.float8e4nv), ("e5m2", tl.float8e5)):
        v = np.random.default_rng(6).uniform(0, 100, n)
        srcs.append(triton.reinterpret(torch.from_numpy(fmt_encode(round_fmt(v, fmt, "rn"), fmt).astype(np.uint8)), dt))
    for x in srcs:
        # (fp8 of a value past the largest finite one saturates on both
        # backends, as cvt.rn.satfinite does: integers up to 2^62 check it)
        check(C.cast_matrix_kernel, (triton.cdiv(n, 128),), x, *outs(), n, BLOCK=128)


@case()
def math_ops():
    M = K("math_ops")
    n = 600
    x, y = randn(n) * 3, torch.rand(n, generator=GEN) + 0.1
    check(M.elementwise_math_kernel, (triton.cdiv(n, 256),), x, y, nan(n), n, -1.5, 2.0, BLOCK=256,
          tol={"float32": (2e-4, 1e-5)})
    h = (randn(2000) * 3).half()
    check(M.gelu_tanh_kernel, (triton.cdiv(2000, 1024),), h, nan(2000, dtype=torch.float16), 2000, BLOCK=1024)


@case()
def rng():
    R = K("rng")
    n = 1000
    check(R.dropout_kernel, (triton.cdiv(n, 256),), randn(n), nan(n), n, 0.3, 1234, BLOCK=256)
    check(R.random_fill_kernel, (triton.cdiv(n, 256),), nan(n), torch.zeros(n, dtype=torch.int32),
          torch.zeros(n, dtype=torch.int32), n, 77, BLOCK=256, tol={"float32": (1e-5, 1e-6)})


# ---- atomics and locks -----------------------------------------------------------

@case()
def atomics():
    A = K("atomics")
    n = 3000
    x = randint(0, 64, n)
    check(A.histogram_kernel, (triton.cdiv(n, 1024),), x, torch.zeros(64, dtype=torch.int32), n, NUM_BINS=64,
          BLOCK=1024)
    n = 1100
    x = randn(n)
    check(A.atomic_minmax_kernel, (triton.cdiv(n, 512),), x * 100, torch.full((32,), -2**31, dtype=torch.int32),
          torch.full((1,), -float("inf")), torch.full((1,), float("inf")), n, BLOCK=512)
    rows, N = 5, 100
    check(A.spin_lock_accumulate_kernel, (rows,), randn(rows * N), nan(N), torch.zeros(1, dtype=torch.int32),
          torch.zeros(1, dtype=torch.int32), N, BLOCK=256, tol={"float32": (1e-5, 1e-6)})


# ---- loads laid out as a wider neighbour (ttg-assign-layouts' access widths) ----

@case()
def widened_loads():
    # each thread reads its run of elements one at a time where the address
    # is not aligned: a gathered mask row (offs % n_cols), a flipped source
    T = K("torch_ops")
    n, n_cols = 3000, 37
    cond = torch.rand(n_cols, generator=GEN) < 0.5
    x, y = randn(n, dtype=torch.float16), randn(n, dtype=torch.float16)
    check(T.where_kernel, (triton.cdiv(n, 1024),), cond, x, y, nan(n, dtype=torch.float16), n, n_cols, 0.0,
          SCALAR_OTHER=False, INVERT=False, BLOCK=1024)
    check(T.where_kernel, (triton.cdiv(n, 512),), cond, randn(n), randn(n), nan(n), n, n_cols, -2.5,
          SCALAR_OTHER=True, INVERT=True, BLOCK=512)
    O, R, inner = 3, 7, 45
    n = O * R * inner
    check(T.flip_dim_kernel, (triton.cdiv(n, 512),), randn(n), nan(n), n, R, inner, BLOCK=512)


# ---- reductions, scans, softmax, norms -----------------------------------------

@case()
def reductions():
    R = K("reductions")
    M, N = 27, 50
    x = randn(M, 64)
    check(R.reduce_2d_kernel, (1,), x, nan(M), nan(N), nan(M), nan(1), M, N, 64, BLOCK_M=32, BLOCK_N=64)
    # regression: rows entirely masked are ties everywhere, and argmin with
    # tie_break_left=False (and a float Welford) leave the lanes of a warp
    # different results: every lane wrote its own to the same shared slot
    M, N = 37, 100
    x = randn(M, 112)
    x[3, 7] = x[3, 9] = 10.0  # ties: the first index
    check(R.argmax_argmin_kernel, (triton.cdiv(M, 16),), x, torch.zeros(M, dtype=torch.int32),
          torch.zeros(M, dtype=torch.int32), nan(M), torch.zeros(3 * 128, dtype=torch.int32), M, N, 112, BLOCK_M=16,
          BLOCK_N=128)
    check(R.welford_kernel, (7,), randn(7, 48) + 3, nan(7), nan(7), 45, 48, BLOCK_N=64)


@case()
def scans():
    S = K("scans")
    M, N = 6, 50
    x = randn(M, 64)
    check(S.scan_kernel, (1,), x, nan(M, 64), nan(M, 64), nan(M, 64), torch.zeros(M, 64, dtype=torch.int32), M, N, 64,
          BLOCK_M=8, BLOCK_N=64, tol={"float32": (1e-4, 1e-5)})
    T = 300
    a, b = torch.rand(3, 320, generator=GEN) * 0.5 + 0.5, randn(3, 320)
    check(S.linear_recurrence_kernel, (3,), a, b, nan(3, 320), T, 320, BLOCK_T=512,
          tol={"float32": (1e-4, 1e-4)})


@case()
def softmax():
    S = K("softmax")
    R, C = 9, 100
    x = randn(R, C)
    check(S.softmax_kernel, (4,), nan(R, C), x, C, C, R, C, BLOCK_SIZE=128, NUM_STAGES=2)
    check(S.softmax_2d_kernel, (triton.cdiv(R, 4),), x, nan(R, C), R, C, C, 1, C, 1, BLOCK_M=4, BLOCK_N=128)
    SR = K("softmax_rows")
    check(SR.softmax_row_kernel, (R,), nan(R, C), x, C, C, C, BLOCK_SIZE=128)


@case()
def norms():
    L = K("layer_norm")
    M, N = 5, 300
    x, w, b = randn(M, N).half(), randn(N).half(), randn(N).half()
    mean, rstd = nan(M), nan(M)
    check(L.layer_norm_fwd_kernel, (M,), x, nan(M, N, dtype=torch.float16), w, b, mean, rstd, N, N, 1e-5,
          BLOCK_N=512)
    mean, rstd = x.float().mean(1), 1 / (x.float().var(1, unbiased=False) + 1e-5).sqrt()
    check(L.layer_norm_bwd_kernel, (M,), nan(M, N, dtype=torch.float16), randn(M, N).half(), x, w, mean, rstd,
          torch.zeros(M, N), torch.zeros(M, N), N, N, BLOCK_N=512)
    R = K("rms_norm")
    for dt in (torch.float32, torch.float16):
        check(R.rms_norm_kernel, (M,), randn(M, N, dtype=dt), nan(M, N, dtype=dt), randn(N, dtype=dt), N, N, N, 1e-6,
              BLOCK_N=512)


@case()
def norms_losses():
    NL = K("norms_losses")
    M, N = 4, 129
    x = (-2.3 + 0.5 * randn(M, N)).half()
    w, b = torch.rand(N, generator=GEN).half(), torch.rand(N, generator=GEN).half()
    check(NL.layer_norm_fwd_fused, (M,), x, nan(M, N, dtype=torch.float16), w, b, nan(M), nan(M), N, N, 1e-5,
          BLOCK_SIZE=256)
    R, C = 3, 200
    for offset in (0.0, 1.0):
        xx = randn(R, C).bfloat16()
        ww = randn(C).bfloat16()
        check(NL.rms_norm_fwd, (R,), nan(R, C, dtype=torch.bfloat16), C, xx, C, ww, nan(R), C, 1e-6, offset,
              BLOCK_SIZE=256)
    a, b = randn(R, C).half(), randn(R, C).half()
    check(NL.swiglu_fwd, (R,), a, b, nan(R, C, dtype=torch.float16), C, C, BLOCK_SIZE=256)
    for approx, dt in (("tanh", torch.bfloat16), ("none", torch.float32)):
        check(NL.geglu_fwd, (R,), randn(R, C, dtype=dt), randn(R, C, dtype=dt), nan(R, C, dtype=dt), C, C,
              APPROXIMATE=approx, BLOCK_SIZE=256)
    dc, da, db = randn(R, C), randn(R, C), randn(R, C)
    check(NL.swiglu_bwd, (R,), dc, da, db, C, C, BLOCK_SIZE=256)
    V, BT = 100, 4
    logits = randn(BT, V)
    y = torch.tensor([3, -100, 99, 0], dtype=torch.int64)
    check(NL.cross_entropy_fwd_bwd, (BT,), logits, V, y, nan(BT), V, 3, -100, LABEL_SMOOTHING=0.1,
          REDUCTION="mean", BLOCK_SIZE=128)
    q = randn(R, C).half()
    check(NL.quantize_int8_rowwise, (R,), q, torch.zeros(R, C, dtype=torch.int8), nan(R), C, C, C, BLOCK=256)
    qi = randint(-127, 128, R, C, dtype=torch.int8)
    check(NL.dequantize_int8_rowwise, (R,), qi, torch.rand(R, generator=GEN), nan(R, C, dtype=torch.bfloat16), C,
          BLOCK=256)


@case()
def layer_norm_backward_locks():
    # layer norm backward: partial sums of dw/db guarded by per-group spin locks
    NL = K("norms_losses")
    M, N, GROUP = 6, 100, 4
    x = randn(M, N).half()
    w = torch.rand(N, generator=GEN).half()
    mean, rstd = x.float().mean(1), 1 / (x.float().var(1, unbiased=False) + 1e-5).sqrt()
    dy = (0.1 * randn(M, N)).half()
    check(NL.layer_norm_bwd_dx_fused, (M,), nan(M, N, dtype=torch.float16), dy,
          torch.zeros(GROUP, N, dtype=torch.float16), torch.zeros(GROUP, N, dtype=torch.float16), x, w, mean, rstd,
          torch.zeros(2 * GROUP, dtype=torch.int32), N, N, GROUP_SIZE_M=GROUP, BLOCK_SIZE_N=128,
          tol={"float16": (4e-3, 2e-3)})
    pdw, pdb = randn(GROUP, N).half(), randn(GROUP, N).half()
    check(NL.layer_norm_bwd_dwdb, (triton.cdiv(N, 128),), pdw, pdb, nan(N, dtype=torch.float16),
          nan(N, dtype=torch.float16), GROUP, N, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)


@case()
def rope():
    NL = K("norms_losses")
    bsz, sl, nqh, nkh, hd = 2, 3, 3, 1, 12
    q, k = randn(bsz, sl, nqh, hd), randn(bsz, sl, nkh, hd)
    cos, sin = randn(sl, hd), randn(sl, hd)
    qq, kk = q.reshape(bsz * sl, nqh * hd).contiguous(), k.reshape(bsz * sl, nkh * hd).contiguous()
    check(NL.rope_fwd, (bsz * sl,), qq, qq.stride(0), kk, kk.stride(0), cos, sin, sl, bsz, N_QH=nqh, N_KH=nkh,
          HEAD_DIM=hd, PAD_QH=4, PAD_KH=1, PAD_HD=16, BACKWARD=True)


# ---- language features -----------------------------------------------------------

@case()
def lang_features():
    F = K("lang_features")
    R, C = 3, 70
    x = randn(R, C)
    check(F.scan_rows_kernel, (R,), x, nan(R, C), nan(R, C), nan(R, C), C, C, BLOCK=64 * 2,
          tol={"float32": (1e-4, 1e-5)})
    check(F.argmax_combine_kernel, (R,), x, nan(R), torch.zeros(2 * R, dtype=torch.int32), C, C, BLOCK=128)
    check(F.topk_kernel, (R,), randn(R, 50), nan(R, 5), torch.zeros(R, 5, dtype=torch.int32), 50, K=5, BLOCK=64)
    M, N = 20, 100
    check(F.softmax_keepdims_kernel, (triton.cdiv(M, 16),), randn(M, N), nan(M, N), M, N, BM=16, BN=128)
    n = 500
    check(F.elementwise_extras_kernel, (triton.cdiv(n, 256),), randn(n), randn(n), nan(9 * n), n, -0.5, 0.7, BLOCK=256)
    a = np.random.default_rng(3).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    b = np.random.default_rng(4).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    check(F.umulhi_kernel, (triton.cdiv(n, 128),), a, b, np.zeros(n, np.uint32), n, BLOCK=128)
    check(F.grid3d_kernel, (3, 4, 2), torch.zeros(3 * 4 * 2 * 4, dtype=torch.int32), BLOCK=4)
    check(F.pipelined_sum_kernel, (1,), randn(3000), nan(1), 3000, BLOCK=512, tol={"float32": (1e-4, 1e-4)})
    check(F.nested_helpers_kernel, (1,), randn(64), nan(64), 50, BLOCK=64)
    xs = randn(4, 300)
    check(F.int64_volatile_kernel, (4,), xs, nan(4, 300), 300, 100, BLOCK=128)
    for bias in (True, False):
        Wt, Bt = randn(C), randn(C) if bias else None
        check(F.optional_args_kernel, (R,), randn(R, C), nan(R, C), Wt, Bt, C, 1e-5, BLOCK=128, HAS_BIAS=bias)
    for kk in (-1, 1, 5):
        check(F.python_syntax_kernel, (3,), randn(300), nan(9, 300), 300, kk, BLOCK=128)
    vals = torch.tensor([1, 7, 27, 97, 871, 6171], dtype=torch.int32)
    check(F.collatz_kernel, (len(vals),), vals, torch.zeros(len(vals), dtype=torch.int32))
    keep = torch.rand(300, generator=GEN) > 0.5
    for flag in (True, False):
        check(F.bool_kernel, (3,), randn(300), keep, torch.zeros(300, dtype=torch.bool), 300, 0.5, flag, BLOCK=128)
    with quiet():  # (the CPU backend prints)
        k = check(F.debug_print_kernel, (2,), randn(16), 10, BLOCK=16)
    assert len(k.prints) == 2 * (16 + 1 + 32), "vprintf calls: %d" % len(k.prints)
    n = 300
    i, l = randint(-2**31, 2**31 - 1, n), randint(-2**63, 2**63 - 1, n, dtype=torch.int64)
    i[:3] = torch.tensor([0, 1, -1], dtype=torch.int32)
    l[:3] = torch.tensor([0, 1, -1], dtype=torch.int64)
    check(F.libdevice_extras_kernel, (triton.cdiv(n, 128),), i, l, randn(n) * 3,
          torch.full((9, n), 7, dtype=torch.int32), torch.full((2, n), 7, dtype=torch.int64), nan(7, n), n,
          BLOCK=128, tol={"float32": (2e-4, 1e-6)})


@case()
def inline_asm():
    # inline PTX: the CPU backend cannot run it; the simulator's result
    # against the reference tests/python/test_lang_features.py uses on a GPU
    F = K("lang_features")
    n = 700
    x, b, out = randn(n), torch.zeros(n, dtype=torch.int8), nan(n)
    h = x.half()
    check(F.inline_asm_kernel, (triton.cdiv(n, 512),), x, b, h, out, n, BLOCK=512, sim_only=True)
    ref = torch.tanh(x) + 2 * torch.arange(n, dtype=torch.float32) - 128 + 2 * h.float()
    assert torch.allclose(out, ref, rtol=1e-3, atol=1e-2), (out - ref).abs().max()


@case()
def inline_asm_packed():
    # two results from one asm, four u8 elements packed per 32-bit operand
    # (pack=4; a thread of 2 elements passes a half-filled register), on
    # both targets; probe23_kernels.py's check on the CPU only sees the error
    P = K("probe23_kernels")
    n = 1000
    x = torch.randint(0, 256, (n,), generator=GEN, dtype=torch.uint8)
    for block, target in ((256, "cuda:90"), (2048, "cuda:90"), (2048, "cuda:80")):
        lo, hi, y = torch.zeros(n, dtype=torch.uint8), torch.zeros(n, dtype=torch.uint8), nan(n)
        check(P.asm_unpack_kernel, (triton.cdiv(n, block),), x, lo, hi, y, n, BLOCK=block, target=target,
              sim_only=True)
        assert torch.equal(lo, x & 15) and torch.equal(hi, x >> 4), (block, target)
        assert torch.equal(y, x.float() * x.float() + 1), (block, target)


@triton.jit
def _asm_scoped_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    # |2x| + 1 through registers the asm declares in its own block (ptxas
    # scopes them there): every element's copy declares the same names,
    # one of them shadowing the kernel's %r registers
    y = tl.inline_asm_elementwise(
        "{\n\t.reg .b32 t;\n\t.reg .pred p;\n\tadd.s32 t, $1, $1;\n\tsetp.lt.s32 p, t, 0;\n\t"
        "@p neg.s32 t, t;\n\t{ .reg .b32 %r<2>; add.s32 %r1, t, 1; mov.b32 $0, %r1; }\n\t}",
        "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y, mask=m)


@case()
def inline_asm_scoped_regs():
    # .reg declarations inside the asm's { } (the simulator took only the
    # kernel's own %name<N> declarations, and stopped at "unknown register t")
    n = 300
    x, y = randint(-1000, 1000, n), torch.zeros(n, dtype=torch.int32)
    check(_asm_scoped_kernel, (triton.cdiv(n, 256),), x, y, n, BLOCK=256, sim_only=True)
    assert torch.equal(y, (2 * x).abs() + 1), (y, x)


@case()
def sm80():
    # sm_80 code: bf16 atomics by a CAS loop (fma.rn.bf16), conversions
    AD = K("atomic_dtypes")
    n, nb = 300, 16
    for dt in (torch.bfloat16, torch.float16):
        vals = (randn(n) * 4).round().to(dt)  # (small integers: the sums are exact in any order)
        # (the sums only: which old value each thread gets depends on the order of the threads)
        check(AD.atomic_rmw_kernel, (triton.cdiv(n, 256),), torch.zeros(nb, dtype=dt), vals, torch.zeros(n, dtype=dt),
              n, OP="add", NBINS=nb, BLOCK=256, target="cuda:80", compare=(0,))
    C = K("cast_matrix")
    n = 200
    outs = lambda: (torch.zeros(n, dtype=torch.bool), torch.zeros(n, dtype=torch.int8),  # noqa: E731
                    torch.zeros(n, dtype=torch.int16), torch.zeros(n, dtype=torch.int32),
                    torch.zeros(n, dtype=torch.int64), torch.zeros(n, dtype=torch.uint8),
                    np.zeros(n, np.uint16), np.zeros(n, np.uint32), np.zeros(n, np.uint64),
                    nan(n, dtype=torch.float16), nan(n, dtype=torch.bfloat16), nan(n), nan(n, dtype=torch.float64),
                    triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e4nv),
                    triton.reinterpret(torch.zeros(n, dtype=torch.uint8), tl.float8e5))
    check(C.cast_matrix_kernel, (triton.cdiv(n, 128),), torch.rand(n, generator=GEN) * 127, *outs(), n, BLOCK=128,
          target="cuda:80")
    # regression: f64 -> bf16 was cvt.rn.bf16.f64, which needs sm_90; now
    # through f32 rounded to odd: values just past a bf16 tie (where f64 ->
    # f32 -> bf16 would round twice) round as the direct conversion does
    d = torch.rand(n, generator=GEN).double() * 127
    d[:6] = torch.tensor([1 + 2**-8 + 2**-40, 1 + 2**-8 - 2**-40, -(3 + 2**-7 + 2**-45), 1 + 2**-8, 2**-130 * 1.5,
                          1e300])
    check(C.cast_matrix_kernel, (triton.cdiv(n, 128),), d, *outs(), n, BLOCK=128, target="cuda:80",
          compare=(11, 12, 13))


@case()
def vector_atomics():
    # float atomic adds a vector at a time on sm_90 (atom.add.v4.f32, .noftz.v8.f16/.bf16)
    spec = importlib.util.spec_from_file_location("simk_atomic_vector", os.path.join(HERE, "Inputs", "atomic_vector.py"))
    AV = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(AV)
    rows, n = 3, 1024
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        x = (randn(rows, n) * 4).round().to(dt)  # (small integers: exact sums in any order)
        k = check(AV.accumulate_kernel, (rows,), torch.zeros(n, dtype=dt), x, n, BLOCK=1024)
        assert any(".v4." in o or ".v8." in o for o in k.stats), "no vector atomics"
    for target in ("cuda:90", "cuda:80"):  # ragged: scalar atomics
        x = (randn(rows, 1000) * 4).round()
        check(AV.accumulate_kernel, (rows,), torch.zeros(1000), x, 1000, BLOCK=1024, target=target)


def _inputs(name):
    spec = importlib.util.spec_from_file_location("simk_in_" + name, os.path.join(HERE, "Inputs", name + ".py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


@case()
def division_by_constants():
    # a // D, a % D by magic numbers (tests/ptx/div_const.sh), and by a runtime divisor
    DC = _inputs("div_const")
    rng = np.random.default_rng(9)
    for dt, ds in ((np.int64, (-7, 10, 3, -1, 16, -64, 1000003, 2**40 + 1)), (np.uint64, (10, 7, 3, 16, 2**33 + 5)),
                   (np.int32, (-7, 10, 3, 641, -2**20)), (np.uint32, (10, 7, 6700417, 3))):
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, 128, dtype=dt, endpoint=True)
        a[:4] = [info.min, info.max, 0, 1 if dt in (np.uint32, np.uint64) else -1]
        for D in ds:
            # (the runtime divisor: a Python int, typed by its value as Triton does (i32, i64, u64 past
            # 2**63); the kernel casts it to a's type, so the u32 case divides by 2**31 + 77 as uint32)
            b = int(D) if info.min < 0 else (2**31 + 77 if dt == np.uint32 else 2**63 + 77)
            check(DC.div_const_kernel, (1,), a, np.zeros(128, dt), np.zeros(128, dt), np.zeros(128, dt), b,
                  BLOCK=128, D=D)


@case()
def f64_math():
    FM, FL = _inputs("f64_math"), _inputs("f64_libdevice")
    x = torch.rand(256, generator=GEN).double() * 4 + 0.05
    check(FM.k_all, (1,), x, nan(256, dtype=torch.float64), N=256, tol={"float64": (1e-13, 1e-15)})
    x = torch.rand(128, generator=GEN).double() * 1.8 - 0.9
    y = torch.rand(128, generator=GEN).double() * 3 + 0.1
    x[:4] = torch.tensor([float("nan"), 0.0, -0.0, 0.5])
    y[:4] = torch.tensor([1.0, float("inf"), 2.0, float("-inf")])
    check(FL.k_libdevice, (1,), x, y, nan(128, dtype=torch.float64), torch.zeros(128, dtype=torch.int32), N=128,
          tol={"float64": (1e-12, 1e-14)})


@case()
def loops():
    LC = _inputs("loop_copies")
    for n in (0, 1, 5):
        check(LC.bump_kernel, (1,), randn(128 * 6), nan(128), n)
        check(LC.swap_kernel, (1,), randn(128), nan(128), n)
        a, b = randn(16, 16), randn(16, 16) * 0.2
        check(LC.dot_acc_kernel, (1,), a, b, nan(16, 16), n, tol={"float32": (1e-5, 1e-5)})
        check(LC.dot_acc_mma_kernel, (1,), a, b, nan(16, 16), n, tol={"float32": (1e-2, 1e-2)})
    LB = _inputs("loop_bounds")
    for start, end, step in ((0, 100, 7), (5, 5, 1), (10, 3, 2), (-20, 40, 13), (0, 112, 32), (50, -10, -9)):
        x = randn(64 * 141)
        check(LB.strided_sum_kernel, (1,), x[64 * 20:], nan(64), start, end, step, BLOCK=64,
              tol={"float32": (1e-5, 1e-5)})


@case()
def scripts():
    # every launch of these tests/python scripts checked (sim_intercept.py)
    names = ["test_libdevice_compose.py"] + (["test_atomic_dtypes.py", "test_scan_layouts.py"] if SLOW else [])
    r = subprocess.run([sys.executable, os.path.join(HERE, "Inputs", "sim_intercept.py")] +
                       [os.path.join(HERE, "..", "python", nm) for nm in names], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]


@case()
def pointer_arrays():
    # kernels that load their tensors' addresses from memory
    F = K("lang_features")
    ts = [randn(n) for n in (5, 100, 1000, 33)]
    ptrs = torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64)
    sizes = torch.tensor([t.numel() for t in ts], dtype=torch.int32)
    check(F.ptr_array_kernel, (len(ts),), ptrs, sizes, nan(len(ts)), BLOCK=64, extra=ts,
          tol={"float32": (1e-4, 1e-4)})
    G = K("grouped_gemm")
    shapes = ((40, 24, 32), (16, 70, 48), (64, 64, 16))
    As = [randn(m, k).half() for m, n, k in shapes]
    Bs = [randn(k, n).half() for m, n, k in shapes]
    Cs = [nan(m, n, dtype=torch.float16) for m, n, k in shapes]
    addr = lambda ts: torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64)  # noqa: E731
    sizes = torch.tensor([d for s in shapes for d in s], dtype=torch.int32)
    lds = torch.tensor([d for m, n, k in shapes for d in (k, n, n)], dtype=torch.int32)
    check(G.grouped_matmul_kernel, (4,), addr(As), addr(Bs), addr(Cs), sizes, lds, len(shapes), NUM_SM=4,
          BLOCK_M=32, BLOCK_N=32, BLOCK_K=16, extra=As + Bs + Cs, tol={"float16": (1e-2, 1e-2)})


@case()
def lang_extras():
    E = K("lang_extras")
    n = 300
    check(E.early_exit_kernel, (triton.cdiv(n, 128) + 2,), randn(n), torch.full((n + 256,), -1, dtype=torch.int32), n,
          BLOCK=128, CHECK_BOUNDS=True)
    x = randn(4, 32)
    idx = torch.randperm(32, generator=GEN).to(torch.int32).repeat(4, 1)
    check(E.shuffle_kernel, (1,), x, idx, nan(6 * 4 * 32 + 64), ROWS=4, COLS=32)
    n = 1000
    check(E.histogram_kernel, (triton.cdiv(n, 256),), randint(0, 16, n), torch.zeros(16, dtype=torch.int32), n,
          BLOCK=256, BINS=16)
    check(E.fstring_tuple_kernel, (2,), randn(100), 100, BLOCK=64, SCALES=(1, 2, 3), ACT="relu")
    n = 500
    check(E.libdevice_math_kernel, (triton.cdiv(n, 256),), randn(n) * 2, torch.rand(n, generator=GEN) + 0.5, nan(12 * n),
          n, BLOCK=256, tol={"float32": (2e-4, 1e-5)})
    M, N, KK = 40, 48, 32
    a, b = randn(M, KK).half(), randn(KK, N).half()
    check(E.descriptor_matmul_kernel, (triton.cdiv(M, 32), triton.cdiv(N, 32)), a, b, nan(M, N), M, N, KK,
          BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, tol={"float32": (1e-3, 1e-3)})


@case()
def map_elementwise():
    ME = K("map_elementwise")
    n = 300
    x = randint(1, 1000, n)
    check(ME.collatz_kernel, (triton.cdiv(n, 256),), x, torch.zeros(n, dtype=torch.int32),
          torch.zeros(n, dtype=torch.int32), torch.zeros(n, dtype=torch.int32), n, BLOCK=256)
    check(ME.piecewise_kernel, (1,), randn(16, 32) * 3, nan(16, 32), 0.5, R=16, C=32)


@case()
def memory():
    Mm = K("memory")
    n = 300
    for flag in (0, 1):
        check(Mm.load_modifiers_kernel, (triton.cdiv(n, 128),), randn(n), nan(n), torch.tensor([flag], dtype=torch.int32),
              n, BLOCK=128)
    M, N = 40, 200
    check(Mm.block_ptr_kernel, (triton.cdiv(M, 64),), randn(M, N).half(), nan(M, 64), M, N, N, 1, 64, 1,
          BLOCK_M=64, BLOCK_N=64, tol={"float32": (1e-3, 1e-3)})


@case()
def libdevice():
    LR = K("libdevice_rounding")
    for dt in (torch.float32, torch.float64):
        a, b, c = randn(64, dtype=dt), randn(64, dtype=dt), randn(64, dtype=dt)
        check(LR.rounded_arith_kernel, (1,), a, b, c, nan(64, 20, dtype=dt) if False else nan(64 * 40, dtype=dt),
              BLOCK=64, tol={"float32": (0, 0), "float64": (0, 0)})
    LI = K("libdevice_inverse")
    for dt in (torch.float32, torch.float64):
        x = torch.rand(128, generator=GEN).to(dt) * 1.8 - 0.9
        check(LI.libdevice_inverse_kernel, (1,), x, torch.rand(128, generator=GEN).to(dt) * 10 + 0.5,
              nan(128 * 16, dtype=dt), torch.zeros(128 * 4, dtype=torch.int32), BLOCK=128)
    LB = K("libdevice_bessel")  # composed in fp64: sin, cos, log, exp and sqrt through expand-f64-math
    x = torch.cat([torch.linspace(-30, 30, 113, dtype=torch.float64),
                   torch.tensor([0.0, 1e-8, 4.9999, 5.0001, 7.99, 8.01, 700.0, math.inf, math.nan], dtype=torch.float64)])
    for dt in (torch.float64, torch.float32):
        for fn in ("j0", "j1", "y0", "y1", "i0", "i1"):
            check(LB.bessel_kernel, (1,), x.to(dt), nan(x.numel(), dtype=dt), x.numel(), FN=fn, BLOCK=128)


@case()
def shapes_topk():
    S = K("shapes")
    check(S.shape_ops_kernel, (1,), randn(16, 32), nan(32, 16), nan(16 * 32), nan(16 * 64), nan(16 * 32), BLOCK_M=16,
          BLOCK_N=32)
    T = K("topk")
    check(T.topk_kernel, (1,), randn(8, 64), nan(2, 8, 8), ROWS=8, COLS=64, K=8)
    # reshape, split, interleave (join) and permutes, in and out of shared memory
    O = K("tensor_ops")
    t = 20
    check(O.rope_interleaved, (triton.cdiv(t, 8),), randn(t, 32), randn(t, 16), randn(t, 16), nan(t, 32), t,
          HALF=16, BLOCK_T=8)
    x = randn(2, 4, 8, dtype=torch.float16)
    check(O.permute_3d, (1,), x, nan(8, 2, 4, dtype=torch.float16), nan(4, 2, 8, dtype=torch.float16),
          nan(8, 4, dtype=torch.float16), A=2, B=4, C=8)
    # tl.ravel keeps the row-major order (can_reorder=False, Triton 3's
    # default) of a permuted 3D tensor; it was taken as free to reorder
    P = K("probe24_kernels")
    for i, j, k, w in ((4, 8, 16, 4), (2, 2, 32, 1)):
        check(P.broadcast_3d_kernel, (1,), randn(i), randn(j, k), randn(i, k), nan(i * j * k + i * j), I=i, J=j, K=k,
              num_warps=w)


@case()
def sort_network():
    # tl.sort / tl.flip / tl.topk: partners in registers, across lanes
    # (shfl.sync.bfly) and across warps (shared memory), with ties, NaN and
    # -0.0 among the values, and each layout num_warps gives
    S = K("sort_network")
    for r, n, k, desc, w, dt in ((1, 2048, 16, False, 4, torch.float32), (4, 256, 8, True, 2, torch.int32),
                                 (2, 64, 64, False, 1, torch.float16), (1, 512, 4, True, 8, torch.float32)):
        x = randint(-20, 20, r, n, dtype=dt) if dt == torch.int32 else randn(r, n, dtype=dt)
        if dt != torch.int32:
            x[:, 1::7] = x[:, ::7][:, : x[:, 1::7].shape[1]]  # ties
            x.view(-1)[3] = float("nan")
            x.view(-1)[5], x.view(-1)[6] = -0.0, 0.0
        out = nan(r, n, dtype=dt) if dt != torch.int32 else torch.zeros(r, n, dtype=dt)
        check(S.sort_rows_kernel, (1,), x, out, out.clone(), out[:, :k].clone().contiguous(), R=r, N=n, K=k, DESC=desc,
              num_warps=w)
    # 8-, 16- and 64-bit partners across lanes (shfl of a widened or split register)
    for dt, r, n, k, w in ((torch.int16, 2, 512, 8, 4), (torch.int64, 2, 256, 4, 2), (torch.float64, 1, 1024, 8, 8),
                           (torch.uint8, 4, 128, 16, 4), (torch.int8, 8, 64, 8, 2)):
        x = randn(r, n, dtype=dt) if dt.is_floating_point else \
            randint(0 if dt == torch.uint8 else -100, 255 if dt == torch.uint8 else 100, r, n, dtype=dt)
        out = torch.zeros(r, n, dtype=dt)
        check(S.sort_rows_kernel, (1,), x, out, out.clone(), out[:, :k].clone().contiguous(), R=r, N=n, K=k,
              DESC=bool(w & 2), num_warps=w)


# ---- dots ------------------------------------------------------------------------

@case()
def dots():
    MV = K("matmul_variants")
    M, N, KK = 16, 32, 16
    a, b, c = randn(M, KK), randn(KK, N), randn(M, N)
    check(MV.dot_variants, (1,), a, b, c, nan(4 * M * N), nan(M * N, dtype=torch.float16), M=M, N=N, K=KK,
          tol={"float32": (2e-2, 2e-2), "float16": (2e-2, 2e-2)})
    check(MV.dot_int8, (1,), randint(-128, 127, 32, 64, dtype=torch.int8), randint(-128, 127, 64, 32, dtype=torch.int8),
          torch.zeros(32, 32, dtype=torch.int32), M=32, N=32, K=64)
    check(MV.bmm_3d, (1,), randn(2, 16, 16).half(), randn(2, 16, 32).half(), nan(2, 16, 32), B=2, M=16, N=32, K=16,
          tol={"float32": (1e-3, 1e-3)})


@case()
def persistent_matmul_tiles():
    # regression: the next tile's cp.async prologue overwrote shared memory
    # that the previous tile's epilogue conversion was still reading (no
    # bar.sync at the ring's local_alloc inside the tile loop)
    MV = K("matmul_variants")
    M, N, KK, sms = 100, 70, 64, 2
    a, b = randn(M, KK).half(), randn(KK, N).half()
    grid = lambda META: (min(sms, triton.cdiv(M, 32) * triton.cdiv(N, 32)),)  # noqa: E731
    k = check(MV.matmul_persistent, grid, a, b, nan(M, N, dtype=torch.float16), M, N, KK, a.stride(0), 1,
              b.stride(0), 1, N, 1, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, NUM_SMS=sms,
              tol={"float16": (1e-2, 1e-2)})
    assert k.stats.get("cp.async.commit_group", 0), "no cp.async pipeline: the case no longer covers the bug"


@case()
def matmul_small():
    MM = K("matmul")
    M, N, KK = 70, 40, 48
    a, b = randn(M, KK).half(), randn(KK, 48).half()
    check(MM.matmul_kernel, (triton.cdiv(M, 32) * triton.cdiv(N, 32),), a, b, nan(M, 48, dtype=torch.float16), M, N,
          KK, KK, 1, 48, 1, 48, 1, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=2, ACTIVATION="",
          tol={"float16": (1e-2, 1e-2)})
    # fp32 operands: tf32 mma.sync (m16n8k8), against the CPU's fp32 dot
    a, b = randn(M, KK), randn(KK, N)
    check(MM.matmul_kernel, (triton.cdiv(M, 32) * triton.cdiv(N, 32),), a, b, nan(M, N), M, N, KK, KK, 1, N, 1, N, 1,
          BLOCK_M=32, BLOCK_N=32, BLOCK_K=16, GROUP_M=2, ACTIVATION="", tol={"float32": (2e-2, 5e-2)})
    # fp8 (e5m2) operands, b given transposed (stride_bk = 1)
    MV = K("matmul_variants")
    M, N, KK = 40, 48, 64
    av = np.random.default_rng(7).uniform(-2, 2, (M, KK))
    bv = np.random.default_rng(8).uniform(-2, 2, (N, KK))
    a8 = torch.from_numpy(fmt_encode(round_fmt(av, "e5m2", "rn"), "e5m2").astype(np.uint8))
    b8 = torch.from_numpy(fmt_encode(round_fmt(bv, "e5m2", "rn"), "e5m2").astype(np.uint8))
    check(MV.matmul_kernel, (triton.cdiv(M, 32) * triton.cdiv(N, 32),), triton.reinterpret(a8, tl.float8e5),
          triton.reinterpret(b8, tl.float8e5), nan(M, N, dtype=torch.float16), M, N, KK, KK, 1, 1, KK, N, 1,
          BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=2, ACTIVATION="",
          tol={"float16": (1e-2, 1e-2)})


@case()
def host_descriptors():
    # the persistent matmul over host TensorDescriptors (their fields in memory), a row stride past N
    from tritonc.tools.tensor_descriptor import TensorDescriptor
    MV = K("matmul_variants")
    M, N, KK, sub = 33, 40, 24, True
    a, b = randn(M, KK).half(), randn(N, KK).half()
    c = nan(M, (N + 7) // 8 * 8 + 8, dtype=torch.float16)[:, :N]
    descs = (TensorDescriptor.from_tensor(a, [32, 16]), TensorDescriptor(b, b.shape, b.stride(), [32, 16]),
             TensorDescriptor(c, c.shape, c.stride(), [32, 16 if sub else 32]))
    check(MV.matmul_descriptor_persistent, (2,), *descs, M, N, KK, BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=16,
          GROUP_SIZE_M=8, EPILOGUE_SUBTILE=sub, NUM_SMS=2, tol={"float16": (1e-2, 1e-2)})


@case()
def api_audit():
    # tests/kernels/api_audit.py: NaN-propagating clamp / maximum / minimum
    # (fp64 has no max.NaN), fma in fp16, descriptor atomics, atomic_cas on
    # computed 16-bit values, the scan result types, bitonic_merge
    A = K("api_audit")
    n = 100
    for dt in (torch.float32, torch.float64, torch.float16):
        x, lo, hi = randn(n, dtype=dt), -randn(n).abs().to(dt), randn(n).abs().to(dt)
        x[3] = lo[7] = hi[11] = float("nan")
        check(A.nan_minmax_kernel, (triton.cdiv(n, 64),), x, lo, hi, nan(3 * n, dtype=dt), n, BLOCK=64, NAN_ALL=True)
    h = [randn(n, dtype=torch.float16) for _ in range(3)]
    check(A.fma_kernel, (1,), *h, nan(n, dtype=torch.float16), n, BLOCK=128)
    M, N = 20, 32
    check(A.desc_atomic_kernel, (2, 2), randn(M, N), randn(M, N), M, N, BM=16, BN=16, OP="add")
    check(A.desc_atomic_kernel, (2, 2), randint(-99, 99, M, N), randint(-99, 99, M, N), M, N, BM=16, BN=16, OP="xor")
    check(A.cas_computed_kernel, (2,), randint(-99, 99, n + 1, dtype=torch.int16), torch.zeros(n, dtype=torch.int16), n,
          BLOCK=64)
    check(A.scan_dtypes_kernel, (2,), randint(-3, 4, 2, 29, dtype=torch.int8), torch.zeros(2, 29, dtype=torch.int32),
          torch.zeros(2, 29, dtype=torch.int8), 29, BLOCK=32)
    up, down = randn(4, 16).sort(1).values, randn(4, 16).sort(1, descending=True).values
    check(A.bitonic_merge_kernel, (1,), torch.cat([up, down], 1).contiguous(), nan(8, 32), ROWS=4, N=32)


@case(slow=True)
def flash_attention_bwd_preprocess():
    FA = K("flash_attention")
    Z, H, NCTX, D = 1, 2, 64, 64
    o, do = randn(Z * H * NCTX, D).half(), randn(Z * H * NCTX, D).half()
    check(FA.attn_bwd_preprocess, (NCTX // 64, Z * H), o, do, nan(Z * H * NCTX), Z, H, NCTX, BLOCK_M=64, HEAD_DIM=D,
          tol={"float32": (1e-3, 1e-3)})


def main():
    t0 = time.time()
    fails = 0
    only = set(sys.argv[1:])
    for name, f, slow in CASES:
        if (slow and not SLOW) or (only and name not in only):
            continue
        t = time.time()
        try:
            f()
            print("ok %s (%.1fs)" % (name, time.time() - t), flush=True)
        except Exception as e:  # noqa: BLE001
            fails += 1
            print("FAIL %s: %s: %s" % (name, type(e).__name__, str(e)[:2000]), flush=True)
    if os.environ.get("SIM_SCRIPTS", "0") not in ("", "0"):
        scripts = sorted(os.path.join(HERE, "..", "python", f) for f in os.listdir(os.path.join(HERE, "..", "python"))
                         if f.startswith("test_") and f.endswith(".py"))
        r = subprocess.run([sys.executable, os.path.join(HERE, "Inputs", "sim_intercept.py"), "--max-ctas", "64"] +
                           scripts)
        fails += r.returncode != 0
    print("%d failed (%.0fs)" % (fails, time.time() - t0))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
