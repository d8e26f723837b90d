# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/torch_ops.py (torch operators written in
Triton the way FlagGems and torch inductor's fallbacks write them), each
checked against torch computing the same operator: a broadcasting binary op
over strided 4-d views, sum/amax/argmax/argmin/cumsum/cumprod over every dim
of 3-d tensors, var_mean, index_select/gather/scatter_add, where and
masked_fill, floor_divide/remainder/fmod/pow on int32/int64/float32 with
negative operands, bitwise ops and shifts on int8/int16/uint8, tril/triu,
flip, a constant pad, isin, one_hot, baddbmm and a softmax over dim 0.
Fresh random inputs, ragged sizes, outputs poisoned first. Only torch
functions make the tensors, so the script runs on CUDA too."""
import os
import sys

import torch
import torch.nn.functional as F

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402
from torch_checks import close, generators, poison, run_checks, same  # noqa: E402

K = load_corpus("torch_ops")

randn, rand, randint = generators(1234)


def strides4(t):
    st = list(t.stride())
    return [0] * (4 - len(st)) + st


def check_strided_binary():
    for op, dtype, block, tol in (("add", torch.float32, 1024, 1e-6), ("maximum", torch.float16, 512, 0),
                                  ("copysign", torch.float32, 256, 0)):
        shape = (3, 5, 7, 9)
        a = randn(3, 9, 7, 5, dtype=dtype).permute(0, 3, 2, 1)   # non-contiguous
        b = randn(5, 1, 9, dtype=dtype).expand(shape)            # broadcast with zero strides
        if op == "maximum":
            a[1, 2, 3, 4] = float("nan")
            b[0, 0, 0, 0] = float("nan")  # one NaN of b shows in every (i0, i1, i2=0) row
        if op == "copysign":
            b = b * torch.where(rand(*b.shape) < 0.2, torch.zeros_like(b), torch.ones_like(b))
            b[0, 0, 0, 1] = -0.0
        out = poison((9, 7, 5, 3), dtype, a).permute(3, 2, 1, 0)  # a strided output too
        n = out.numel()
        alpha = 0.75
        K.strided_binary_kernel[(triton.cdiv(n, block),)](
            a, b, out, n, shape[1], shape[2], shape[3], *strides4(a), *strides4(b), *strides4(out), alpha,
            OP=op, COMPUTE_DTYPE=tl.float32, BLOCK=block)
        if op == "add":
            want = a + alpha * b
        elif op == "maximum":
            want = torch.maximum(a.float(), b.float()).to(dtype)
        else:
            want = torch.copysign(a, b)
        close(out, want, tol, "strided %s" % op)
        if op == "copysign":
            same(torch.signbit(out), torch.signbit(want), "copysign sign bits")


def view3(shape, dim):
    outer = 1
    for s in shape[:dim]:
        outer *= s
    inner = 1
    for s in shape[dim + 1:]:
        inner *= s
    return outer, shape[dim], inner


def check_reduce_dim():
    for op, dtype, br, bi, tol in (("sum", torch.float32, 32, 32, 1e-5), ("max", torch.bfloat16, 16, 64, 0)):
        x = randn(6, 45, 37, dtype=dtype)
        x[2, 7, 3] = float("nan")
        for dim in range(3):
            outer, R, inner = view3(x.shape, dim)
            want_shape = tuple(s for i, s in enumerate(x.shape) if i != dim)
            out = poison(want_shape, dtype, x)
            K.reduce_dim_kernel[(outer, triton.cdiv(inner, bi))](x, out, R, inner, OP=op, BLOCK_R=br, BLOCK_I=bi)
            want = x.double().sum(dim) if op == "sum" else x.amax(dim)
            close(out, want, tol, "%s over dim %d" % (op, dim))


def check_arg_reduce_dim():
    for is_max, dtype, br, bi in ((True, torch.float32, 32, 16), (False, torch.float16, 64, 8)):
        x = randint(-4, 5, (5, 70, 11)).to(dtype)    # many ties
        x[1, 3, 4] = float("nan")
        x[1, 50, 4] = float("nan")
        x[3, :, 2] = float("inf") if not is_max else float("-inf")
        x[4, 9, :] = float("-inf") if not is_max else float("inf")
        for dim in range(3):
            outer, R, inner = view3(x.shape, dim)
            out = poison(tuple(s for i, s in enumerate(x.shape) if i != dim), torch.int64, x)
            K.arg_reduce_dim_kernel[(outer, triton.cdiv(inner, bi))](x, out, R, inner, IS_MAX=is_max,
                                                                     BLOCK_R=br, BLOCK_I=bi)
            # torch: the first of the extreme values, a NaN counting as the extreme
            xd = x.double()
            nan = torch.isnan(xd)
            ext = xd.amax(dim, keepdim=True) if is_max else xd.amin(dim, keepdim=True)
            hit = torch.where(nan.any(dim, keepdim=True), nan, xd == ext)
            pos = torch.arange(x.shape[dim], device=x.device).view([-1 if i == dim else 1 for i in range(3)])
            want = torch.where(hit, pos.expand(x.shape), torch.full_like(pos.expand(x.shape), 10 ** 9)).amin(dim)
            same(out, want, "%s over dim %d" % ("argmax" if is_max else "argmin", dim))
            same(out, x.argmax(dim) if is_max else x.argmin(dim), "torch.%s over dim %d" % (
                "argmax" if is_max else "argmin", dim))


def check_scan_dim():
    for op, dtype, acc, br, bi in (("cumsum", torch.float32, tl.float32, 32, 16),
                                   ("cumsum", torch.int32, tl.int64, 16, 32),
                                   ("cumprod", torch.float32, tl.float32, 8, 32)):
        if dtype == torch.int32:
            x = randint(-(2 ** 30), 2 ** 30, (4, 77, 13), dtype=torch.int32)   # sums past int32
        elif op == "cumprod":
            x = 1 + 0.05 * randn(4, 77, 13)
        else:
            x = randn(4, 77, 13)
        for dim in range(3):
            outer, R, inner = view3(x.shape, dim)
            out_dtype = torch.int64 if dtype == torch.int32 else dtype
            out = poison(x.shape, out_dtype, x)
            K.scan_dim_kernel[(outer, triton.cdiv(inner, bi))](x, out, R, inner, OP=op, ACC_DTYPE=acc,
                                                               BLOCK_R=br, BLOCK_I=bi)
            if dtype == torch.int32:
                same(out, torch.cumsum(x, dim), "int cumsum over dim %d" % dim)
            else:
                want = torch.cumsum(x.double(), dim) if op == "cumsum" else torch.cumprod(x.double(), dim)
                close(out, want, 1e-5, "%s over dim %d" % (op, dim))


def check_var_mean():
    for rows, cols, corr in ((7, 1000, 1), (3, 256, 0), (5, 3, 1), (2, 1, 1)):
        buf = (randn(rows, cols + 9) * 3 + 5).half()
        x = buf[:, :cols]
        var = poison((rows,), torch.float32, x)
        mean = poison((rows,), torch.float32, x)
        K.var_mean_kernel[(rows,)](x, var, mean, x.stride(0), cols, corr, BLOCK_N=256)
        wv, wm = torch.var_mean(x.double(), 1, unbiased=corr == 1)
        close(mean, wm, 1e-5, "mean %dx%d" % (rows, cols))
        close(var, wv, 1e-5, "var %dx%d correction %d" % (rows, cols, corr))


def check_index_select_gather_scatter():
    inp = randn(40, 100)[:, 3:90]   # row stride 100
    idx = randint(0, 40, (53,))
    out = poison((53, 87), torch.float32, inp)
    K.index_select_kernel[(triton.cdiv(53, 16), triton.cdiv(87, 64))](inp, idx, out, inp.stride(0), out.stride(0),
                                                                     53, 87, BLOCK_K=16, BLOCK_N=64)
    same(out, torch.index_select(inp, 0, idx), "index_select")

    gidx = randint(0, 87, (40, 33))
    out = poison((40, 33), torch.float32, inp)
    K.gather_dim1_kernel[(triton.cdiv(40, 16), triton.cdiv(33, 32))](inp, gidx, out, inp.stride(0), gidx.stride(0),
                                                                    out.stride(0), 40, 33, BLOCK_M=16, BLOCK_K=32)
    same(out, torch.gather(inp, 1, gidx), "gather dim 1")

    src = randint(-50, 50, (61, 29)).float()   # small integers: exact in any order
    sidx = randint(0, 9, (61, 29))
    base = randn(9, 29).round()
    out = base.clone()
    K.scatter_add_dim0_kernel[(triton.cdiv(61, 16), triton.cdiv(29, 32))](out, sidx, src, 61, 29, 9,
                                                                          BLOCK_M=16, BLOCK_N=32)
    same(out, base.scatter_add(0, sidx, src), "scatter_add dim 0")


def check_where_masked_fill():
    rows, cols = 37, 51
    n = rows * cols
    cond = rand(cols) < 0.4
    for scalar, invert, dtype, block in ((False, False, torch.float16, 1024), (True, True, torch.float32, 512)):
        x = randn(rows, cols, dtype=dtype)
        y = randn(rows, cols, dtype=dtype)
        out = poison((rows, cols), dtype, x)
        K.where_kernel[(triton.cdiv(n, block),)](cond, x, y, out, n, cols, -2.5, SCALAR_OTHER=scalar,
                                                 INVERT=invert, BLOCK=block)
        if invert:
            want = x.masked_fill(cond, -2.5)
        else:
            want = torch.where(cond, x, y)
        same(out, want, "where scalar=%s invert=%s" % (scalar, invert))


def check_div_mod_pow():
    n = 999
    for dtype, block in ((torch.int32, 512), (torch.int64, 256)):
        a = randint(-1000, 1000, (n,), dtype=dtype)
        b = randint(1, 40, (n,), dtype=dtype) * torch.where(rand(n) < 0.5, -1, 1).to(dtype)
        outs = [poison((n,), dtype, a) for _ in range(4)]
        K.div_mod_pow_kernel[(triton.cdiv(n, block),)](a, b, *outs, n, IS_FLOAT=False, BLOCK=block)
        name = str(dtype)[6:]
        same(outs[0], torch.floor_divide(a, b), name + " floor_divide")
        same(outs[1], torch.remainder(a, b), name + " remainder")
        same(outs[2], torch.fmod(a, b), name + " fmod")
        pa = randint(-9, 10, (n,), dtype=dtype)
        pb = randint(0, 8, (n,), dtype=dtype)
        K.div_mod_pow_kernel[(triton.cdiv(n, block),)](pa, pb, *outs, n, IS_FLOAT=False, BLOCK=block)
        same(outs[3], torch.pow(pa, pb), name + " pow")
    a = randn(n) * 20
    b = (rand(n) * 4 + 0.25) * torch.where(rand(n) < 0.5, -1.0, 1.0)
    a[:8] = torch.tensor([7.5, -7.5, 7.5, -7.5, 0.0, -0.0, 6.0, -6.0])
    b[:8] = torch.tensor([2.5, 2.5, -2.5, -2.5, 3.0, 3.0, -2.0, 2.0])
    outs = [poison((n,), torch.float32, a) for _ in range(4)]
    K.div_mod_pow_kernel[(triton.cdiv(n, 512),)](a, b, *outs, n, IS_FLOAT=True, BLOCK=512)
    same(outs[0], torch.floor_divide(a, b), "float floor_divide")
    same(outs[1], torch.remainder(a, b), "float remainder")
    same(outs[2], torch.fmod(a, b), "float fmod")
    pa, pb = rand(n) * 3, randn(n) * 2
    pa[:3] = torch.tensor([-2.0, -2.0, 0.0])
    pb[:3] = torch.tensor([3.0, 0.5, -1.0])
    K.div_mod_pow_kernel[(triton.cdiv(n, 512),)](pa, pb, *outs, n, IS_FLOAT=True, BLOCK=512)
    close(outs[3], torch.pow(pa.double(), pb.double()), 1e-6, "float pow")


def check_bitwise():
    n = 700
    for dtype, bits, block in ((torch.int8, 8, 256), (torch.int16, 16, 256), (torch.uint8, 8, 512)):
        info = torch.iinfo(dtype)
        a = randint(info.min, info.max + 1, (n,)).to(dtype)
        b = randint(info.min, info.max + 1, (n,)).to(dtype)
        out = poison((6, n), dtype, a)
        K.bitwise_kernel[(triton.cdiv(n, block),)](a, b, out, n, BITS=bits, BLOCK=block)
        s = b & (bits - 1)
        want = (a & b, a | b, a ^ b, ~a, a << s, a >> s)
        for k, name in enumerate(("and", "or", "xor", "not", "shl", "shr")):
            same(out[k], want[k], "%s %s" % (str(dtype)[6:], name))


def check_tril_triu():
    for upper, dtype, bm, bn in ((False, torch.float32, 32, 32), (True, torch.float16, 16, 64)):
        for M, N, diag in ((45, 70, 0), (70, 45, -3), (33, 33, 5)):
            x = randn(3, M, N, dtype=dtype)
            out = poison((3, M, N), dtype, x)
            K.tril_triu_kernel[(triton.cdiv(M, bm), triton.cdiv(N, bn), 3)](
                x, out, M, N, x.stride(0), x.stride(1), diag, UPPER=upper, BLOCK_M=bm, BLOCK_N=bn)
            same(out, torch.triu(x, diag) if upper else torch.tril(x, diag),
                 "%s %dx%d diagonal %d" % ("triu" if upper else "tril", M, N, diag))


def check_flip_pad():
    x = randn(4, 23, 19)
    for dim in range(3):
        outer, R, inner = view3(x.shape, dim)
        out = poison(x.shape, torch.float32, x)
        K.flip_dim_kernel[(triton.cdiv(x.numel(), 512),)](x, out, x.numel(), R, inner, BLOCK=512)
        same(out, torch.flip(x, (dim,)), "flip dim %d" % dim)
    y = randn(29, 41)
    for top, bottom, left, right in ((2, 3, 5, 0), (0, 17, 1, 64)):
        orows, ocols = 29 + top + bottom, 41 + left + right
        out = poison((orows, ocols), torch.float32, y)
        K.pad_constant_kernel[(triton.cdiv(orows, 16), triton.cdiv(ocols, 64))](
            y, out, 29, 41, orows, ocols, top, left, -1.5, BLOCK_M=16, BLOCK_N=64)
        same(out, F.pad(y, (left, right, top, bottom), value=-1.5), "pad %s" % ((top, bottom, left, right),))


def check_isin():
    for invert, dtype, block, bt, n_test in ((False, torch.int64, 128, 32, 70), (True, torch.int32, 256, 16, 9),
                                             (False, torch.int64, 128, 32, 1)):
        el = randint(-60, 60, (333,), dtype=dtype)
        test = randint(-60, 60, (n_test,), dtype=dtype)
        out = torch.zeros(333, dtype=torch.bool, device=el.device) | (rand(333) < 0.5)
        K.isin_kernel[(triton.cdiv(333, block),)](el, test, out, 333, n_test, INVERT=invert, BLOCK=block,
                                                  BLOCK_T=bt)
        want = (el[:, None] == test[None, :]).any(1)
        same(out, ~want if invert else want, "isin invert=%s n_test=%d" % (invert, n_test))


def check_one_hot():
    for n, c in ((77, 10), (5, 33)):
        idx = randint(0, c, (n,))
        out = poison((n, c), torch.int64, idx)
        K.one_hot_kernel[(triton.cdiv(n, 32), triton.cdiv(c, 16))](idx, out, n, c, BLOCK_N=32, BLOCK_C=16)
        same(out, F.one_hot(idx, c), "one_hot %dx%d" % (n, c))


def check_baddbmm():
    # fp32 tl.dot is tf32 on the GPU (Triton's default input_precision)
    for dtype, bm, bn, bk, tol in ((torch.float16, 32, 32, 32, 1e-2), (torch.float32, 16, 64, 16, 1e-2)):
        B, M, N, Kd = 3, 45, 70, 50
        a = randn(B, M, Kd, dtype=dtype)
        b = randn(B, N, Kd, dtype=dtype).transpose(1, 2)  # column-major B
        c = randn(N, dtype=dtype).expand(B, M, N)           # a bias row broadcast
        out = poison((B, M, N), dtype, a)
        beta, alpha = 0.5, -1.25
        K.baddbmm_kernel[(triton.cdiv(M, bm) * triton.cdiv(N, bn), B)](
            c, a, b, out, M, N, Kd, *c.stride(), *a.stride(), *b.stride(), *out.stride(), beta, alpha,
            BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        want = beta * c.double() + alpha * torch.bmm(a.double(), b.double())
        close(out, want, tol, "baddbmm %s" % str(dtype)[6:])


def check_softmax_dim0():
    for dtype, bm, bn, M, N, tol in ((torch.float32, 32, 32, 100, 300, 1e-5), (torch.bfloat16, 64, 16, 7, 45, 1e-2)):
        x = (randn(M, N) * 4).to(dtype)
        x[:, 3] = float("-inf")
        x[0, 3] = 1.0
        out = poison((M, N), dtype, x)
        grid = min(triton.cdiv(N, bn), 8)
        K.softmax_dim0_kernel[(grid,)](x, out, M, N, BLOCK_M=bm, BLOCK_N=bn)
        close(out, torch.softmax(x.double(), 0), tol, "softmax over dim 0 %dx%d" % (M, N))


run_checks(globals(), "torch_ops")
