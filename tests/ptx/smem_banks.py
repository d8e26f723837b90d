# Shared-memory bank conflicts of mma.sync dots, counted by the PTX
# simulator (Inputs/ptx_sim.py, Kernel.bank_conflicts) on whole kernels,
# with the operands' rows swizzled (the default) and padded
# (TRITONC_MMA_SWIZZLE=0), each result checked against numpy. Per CTA:
# the cp.async copies into the rings, the st.shared of operands stored
# from registers, the ldmatrix reads; and the conv's epilogue, a layout
# conversion (st.shared / ld.shared) through swizzled shared memory (the
# default, src/target/ptx/cvt_plan.h) or padded rows
# (TRITONC_CVT_SWIZZLE=0; cvt_banks.py counts every corpus conversion's
# conflicts both ways). The conv is the implicit-GEMM
# kernel of vs_triton (32x32x32 tiles, 8 warps, 8-byte copies); the
# matmuls are the corpus kernel with row-major or column-major A and B:
# fp16 through rings (64-byte rows; 256-byte rows at BLOCK_K 128; the
# .trans operands of column-major A and B), tf32 from registers (B's rows
# of k stored one element at a time: at best a 2-way conflict, 1 a store)
# and through rings. With padded rows the 8 rows of a copy's phase
# conflict (2 wavefronts instead of 1), the swizzled rows have none; the
# ldmatrix reads have none either way. See tests/unit/test_mma_plan.c for
# the model of the plans alone.
# REQUIRES: numpy
# RUN: %python %s %tritonc
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel  # noqa: E402

KERNELS = os.path.join(HERE, "..", "kernels")
TRITONC = sys.argv[1]
RNG = np.random.default_rng(5)


def compile_ptx(path, kernel, sig, cx, warps, stages, env):
    cmd = [TRITONC, "compile", os.path.join(KERNELS, path), "--kernel", kernel, "--signature", sig, "--emit", "ptx",
           "--target", "cuda:80", "--num-warps", str(warps), "--num-stages", str(stages)]
    for k, v in cx.items():
        cmd += ["-D", "%s=%s" % (k, v)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **env))
    if r.returncode:
        raise RuntimeError(r.stderr)
    return r.stdout


def per_cta(k, nctas):
    """{kind: conflicts per CTA} of the run."""
    return {kind: c["conflicts"] // nctas for kind, c in k.bank_conflicts.items()}


def conv(swizzle, cvt_swizzle="1"):
    N, H, W, C, OC = 1, 8, 8, 64, 32
    sig = "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16,i32,i32,i32:1,i32:1,i32:1,i32:1"
    cx = dict(KH=3, KW=3, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4, PRECISION="tf32")
    ptx = compile_ptx("vision_ops.py", "conv2d_nhwc_igemm_kernel", sig, cx, 8, 3,
                      {"TRITONC_MMA_SWIZZLE": swizzle, "TRITONC_CVT_SWIZZLE": cvt_swizzle})
    x = RNG.standard_normal((N, H, W, C)).astype(np.float16)
    w = (RNG.standard_normal((OC, 3, 3, C)) * 0.1).astype(np.float16)
    y = np.zeros((N, H, W, OC), np.float16)
    k = Kernel(ptx)
    k.bank_conflicts = {}
    grid = (-(-N * H * W // 32) * -(-OC // 32),)
    k.run(grid, [x, w, y, N, H, W, C, OC, H, W], smem_bytes=1 << 17)
    xp = np.pad(x.astype(np.float32), ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = np.zeros((N, H, W, OC), np.float32)
    for kh in range(3):
        for kw in range(3):
            ref += np.einsum("nhwc,oc->nhwo", xp[:, kh:kh + H, kw:kw + W, :], w[:, kh, kw, :].astype(np.float32))
    err = np.abs(y.astype(np.float32) - ref).max()
    assert err < 2e-2, "conv swizzle=%s: max error %g" % (swizzle, err)
    return per_cta(k, grid[0])


def matmul(dt, bm, bn, bk, warps, a_rows, b_rows, async_copy, swizzle, iters=4):
    """The corpus matmul on one tile, iters k steps; A (B) row-major when
    a_rows (b_rows), else column-major."""
    M, N, K = bm, bn, bk * iters
    npt = np.float16 if dt == "fp16" else np.float32
    cx = {"stride_cn": 1, "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 2, "ACTIVATION": '""'}
    cx["stride_ak" if a_rows else "stride_am"] = 1
    cx["stride_bn" if b_rows else "stride_bk"] = 1
    sa = "i32:16,constexpr" if a_rows else "constexpr,i32:16"
    sb = "i32:16,constexpr" if b_rows else "constexpr,i32:16"
    sig = "*%s:16,*%s:16,*%s:16,i32,i32,i32:16,%s,%s,i32:16,constexpr" % (dt, dt, dt, sa, sb)
    env = {"TRITONC_MMA_SWIZZLE": swizzle, "TRITONC_ASYNC_COPY": "1" if async_copy else "0"}
    ptx = compile_ptx("matmul.py", "matmul_kernel", sig, cx, warps, 3, env)
    assert ("cp.async" in ptx) == async_copy
    a = (RNG.standard_normal((M, K)) * 0.5).astype(npt)
    b = (RNG.standard_normal((K, N)) * 0.5).astype(npt)
    c = np.zeros((M, N), npt)
    # (a column-major operand: its transpose's rows)
    ga = a if a_rows else np.ascontiguousarray(a.T)
    gb = b if b_rows else np.ascontiguousarray(b.T)
    k = Kernel(ptx)
    k.bank_conflicts = {}
    k.run((1,), [ga, gb, c, M, N, K, K if a_rows else M, N if b_rows else K, N], smem_bytes=1 << 18)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    err = np.abs(c.astype(np.float32) - ref).max()
    assert err < 2e-2 * max(1.0, np.abs(ref).max()), "matmul %s: max error %g" % (dt, err)
    return per_cta(k, 1)


def check(what, got, want):
    for kind, n in want.items():
        assert got.get(kind, 0) == n, "%s: %d %s conflicts a CTA, want %d (%s)" % (what, got.get(kind, 0), kind, n, got)
    print("ok: %s %s" % (what, got))


# the conv: the copies' conflicts gone with swizzled operand rows; the
# epilogue's conversion has 16 + 16 through padded rows of 72 bytes, none
# through swizzled ones
check("conv padded", conv("0", "0"), {"cp.async": 640, "ldmatrix": 0, "st.shared": 16, "ld.shared": 16})
check("conv swizzled, epilogue padded", conv("1", "0"), {"cp.async": 0, "ldmatrix": 0, "st.shared": 16,
                                                         "ld.shared": 16})
check("conv swizzled", conv("1"), {"cp.async": 0, "ldmatrix": 0, "st.shared": 0, "ld.shared": 0})
# fp16 rings, row-major: 64-byte rows of A, 128-byte rows of B
check("fp16 64x64x32 padded", matmul("fp16", 64, 64, 32, 4, True, True, True, "0"), {"cp.async": 192, "ldmatrix": 0})
check("fp16 64x64x32 swizzled", matmul("fp16", 64, 64, 32, 4, True, True, True, "1"), {"cp.async": 0, "ldmatrix": 0})
check("fp16 128x128x32 8 warps swizzled", matmul("fp16", 128, 128, 32, 8, True, True, True, "1"),
      {"cp.async": 0, "ldmatrix": 0})
# 256-byte rows (A at BLOCK_K 128), and column-major A and B (.trans)
check("fp16 64x64x128 swizzled", matmul("fp16", 64, 64, 128, 4, True, True, True, "1", iters=2),
      {"cp.async": 0, "st.shared": 0, "ldmatrix": 0})
check("fp16 64x64x32 column-major swizzled", matmul("fp16", 64, 64, 32, 4, False, False, True, "1"),
      {"cp.async": 0, "ldmatrix": 0})
check("fp16 64x64x32 column-major registers", matmul("fp16", 64, 64, 32, 4, False, False, False, "1"),
      {"st.shared": 0, "ldmatrix": 0})
# tf32: B's rows of k one element a store (from registers, or 4-byte copies);
# the st.shared counts hold the epilogue's conversion too (128 a CTA through
# padded rows, before cvt_plan.h; none now)
check("tf32 64x64x32 registers padded", matmul("fp32", 64, 64, 32, 4, True, True, False, "0"),
      {"st.shared": 1792, "ldmatrix": 0})
check("tf32 64x64x32 registers swizzled", matmul("fp32", 64, 64, 32, 4, True, True, False, "1"),
      {"st.shared": 256, "ldmatrix": 0})
check("tf32 64x64x32 rings swizzled", matmul("fp32", 64, 64, 32, 4, True, True, True, "1"),
      {"cp.async": 384, "ldmatrix": 0})
check("tf32 64x64x16 column-major swizzled", matmul("fp32", 64, 64, 16, 4, False, False, False, "1"),
      {"ldmatrix": 0})
