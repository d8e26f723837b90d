# The PTX of tensor-core matmuls, run on the CPU by the lockstep CTA
# simulator (Inputs/ptx_sim.py: ldmatrix and mma.sync by the PTX ISA's
# fragments, cp.async completing at its wait_group, shared memory with a
# race check) and compared with numpy: the corpus matmul at small tiles,
# fp16 with ragged M, N and K (masked copies, zero-filled), fp32 (tf32)
# with dynamic strides, 4 and 8 warps, with and without cp.async pipelining
# (TRITONC_ASYNC_COPY=1: pipeline-async-copy), num_stages 2..4, on sm_80
# and sm_90 code.
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
RNG = np.random.default_rng(11)
SIG16 = "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr"
SIG32 = "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32"


def compile_ptx(sig, cx, warps, stages, async_copy, target):
    cmd = [TRITONC, "compile", os.path.join(KERNELS, "matmul.py"), "--kernel", "matmul_kernel", "--signature", sig,
           "--emit", "ptx", "--target", target, "--num-warps", str(warps), "--num-stages", str(stages)]
    for k, v in cx.items():
        cmd += ["-D", "%s=%s" % (k, v)]
    env = dict(os.environ, TRITONC_ASYNC_COPY="1" if async_copy else "0")
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        raise RuntimeError(r.stderr)
    return r.stdout


def smem_of(ptx):
    # the kernel's shared-memory size is not in the PTX: enough for any
    return 1 << 18


def run_fp16(M, N, K, bm, bn, bk, warps, stages, async_copy, target="cuda:90"):
    cx = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
          "GROUP_M": 2, "ACTIVATION": '""'}
    ptx = compile_ptx(SIG16, cx, warps, stages, async_copy, target)
    if async_copy:
        assert "cp.async.cg.shared.global" in ptx and "cp.async.wait_group %d;" % (stages - 2) in ptx, \
            "no cp.async pipeline in the PTX"
    else:
        assert "cp.async" not in ptx
    k = Kernel(ptx)
    # row strides are specialised as multiples of 16: rows padded
    kp, np_ = -(-K // 16) * 16, -(-N // 16) * 16
    a = (RNG.standard_normal((M, kp)) * 0.5).astype(np.float16)
    b = (RNG.standard_normal((K, np_)) * 0.5).astype(np.float16)
    c = np.zeros((M, np_), np.float16)
    grid = (-(-M // bm) * -(-N // bn),)
    k.run(grid, [a, b, c, M, N, K, kp, np_, np_], smem_bytes=smem_of(ptx))
    ref = a[:, :K].astype(np.float32) @ b[:, :N].astype(np.float32)
    err = np.abs(c[:, :N].astype(np.float32) - ref).max()
    assert not c[:, N:].any(), "stores past N"
    assert err < 2e-2 * max(1.0, np.abs(ref).max()), "fp16 %dx%dx%d: max error %g" % (M, N, K, err)
    return k


def run_fp32(M, N, K, bm, bn, bk, warps, stages, async_copy, target="cuda:90"):
    cx = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 2, "ACTIVATION": '""'}
    ptx = compile_ptx(SIG32, cx, warps, stages, async_copy, target)
    if async_copy:
        assert "cp.async" in ptx, "no cp.async pipeline in the PTX"
    k = Kernel(ptx)
    a = RNG.standard_normal((M, K)).astype(np.float32)
    b = RNG.standard_normal((K, N)).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    grid = (-(-M // bm) * -(-N // bn),)
    k.run(grid, [a, b, c, M, N, K, K, 1, N, 1, N, 1], smem_bytes=smem_of(ptx))
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = np.abs(c - ref).max()
    assert err < 1e-3 * max(1.0, np.abs(ref).max()), "fp32 %dx%dx%d: max error %g" % (M, N, K, err)


cases = 0
for async_copy in (False, True):
    run_fp16(32, 32, 64, 32, 32, 32, 4, 3, async_copy)
    run_fp16(50, 40, 100, 64, 64, 32, 4, 3, async_copy)
    cases += 2
k = run_fp16(64, 64, 160, 64, 64, 32, 4, 4, True, target="cuda:80")
assert k.stats.get("cp.async.commit_group", 0) > 0
run_fp16(64, 64, 64, 64, 64, 16, 4, 2, True)
run_fp16(64, 128, 96, 64, 128, 32, 8, 3, True)
run_fp16(40, 24, 8, 64, 64, 32, 4, 3, True)  # one iteration, the rest masked off
run_fp32(48, 32, 40, 32, 32, 16, 4, 3, True)
run_fp32(48, 32, 40, 32, 32, 16, 4, 3, False)
print("ok: %d matmuls" % (cases + 6))

# the checker sees a broken pipeline: one wait too lax (a stage read before
# its copies land), and no barrier after the wait (a stage overwritten
# while other warps may still read it, or read before others' copies land)
# (mma.sync's code: sm_80)
cx = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 2,
      "ACTIVATION": '""'}
good = compile_ptx(SIG16, cx, 4, 3, True, "cuda:80")
for bad, what in ((good.replace("cp.async.wait_group 1;", "cp.async.wait_group 2;"), "before the cp.async.wait_group"),
                  (good.replace("cp.async.wait_group 1;\n\tbar.sync 0;", "cp.async.wait_group 1;"), "race")):
    assert bad != good
    a = np.zeros((64, 128), np.float16)
    b = np.zeros((128, 64), np.float16)
    c = np.zeros((64, 64), np.float16)
    try:
        Kernel(bad).run((1,), [a, b, c, 64, 64, 128, 128, 64, 64], smem_bytes=1 << 18)
    except Exception as e:  # noqa: BLE001
        assert what in str(e), str(e)
    else:
        raise AssertionError("the simulator missed: " + what)
print("ok: broken pipelines caught")

# attention (tests/kernels/attention.py): K^T and V through cp.async rings,
# P from registers; causal runs two pipelined loops one after the other
D, BM, BN, NCTX = 32, 64, 32, 128
for causal in (False, True):
    outs = []
    for ac in (False, True):
        cmd = [TRITONC, "compile", os.path.join(KERNELS, "attention.py"), "--kernel", "attn_fwd_kernel",
               "--signature", "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16",
               "-D", "HEAD_DIM=%d" % D, "-D", "BLOCK_M=%d" % BM, "-D", "BLOCK_N=%d" % BN, "-D", "CAUSAL=%s" % causal,
               "--emit", "ptx", "--target", "cuda:90"]
        env = dict(os.environ, TRITONC_ASYNC_COPY="1" if ac else "0")
        ptx = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
        assert ("cp.async.wait_group 1;" in ptx) == ac
        q, kk, v = (RNG.standard_normal((1, NCTX, D)).astype(np.float16) for _ in range(3)) if not outs else qkv
        qkv = (q, kk, v)
        o = np.zeros((1, NCTX, D), np.float16)
        Kernel(ptx).run((NCTX // BM, 1), [q, kk, v, o, 0.2, NCTX * D, D, NCTX], smem_bytes=1 << 18)
        s = (q[0].astype(np.float32) @ kk[0].astype(np.float32).T) * 0.2
        if causal:
            s = np.where(np.tril(np.ones((NCTX, NCTX), bool)), s, -np.inf)
        p = np.exp(s - s.max(1, keepdims=True))
        ref = (p / p.sum(1, keepdims=True)) @ v[0].astype(np.float32)
        err = np.abs(o[0].astype(np.float32) - ref).max()
        assert err < 2e-3, "attention causal=%s async=%s: max error %g" % (causal, ac, err)
        outs.append(o)
    assert (outs[0] == outs[1]).all(), "cp.async changed attention's result"
print("ok: attention")

# K through tl.trans (`tl.dot(q, tl.trans(k))`): the ring holds K^T in B's
# layout, the copy of k's (r, c) where B's (c, r) goes. Inputs/attn_trans.py
# with a ragged N_CTX (masked copies) at BLOCK_N 32 and 64, and the
# fused-attention tutorial's forward (tests/kernels/flash_attention.py,
# `desc.load(...).T`), non-causal and causal; the same result with and
# without cp.async.
def compile_attn(path, kernel, sig, cx, ac, stages=3):
    base = [TRITONC, "compile", path, "--kernel", kernel, "--signature", sig, "--target", "cuda:90",
            "--num-warps", "4", "--num-stages", str(stages)]
    for k, v in cx.items():
        base += ["-D", "%s=%s" % (k, v)]
    env = dict(os.environ, TRITONC_ASYNC_COPY="1" if ac else "0")
    ttgir = subprocess.run(base + ["--emit", "ttgir"], capture_output=True, text=True, env=env, check=True).stdout
    assert ("tt.trans" in ttgir) != ac, "the load of K %s a cp.async ring" % ("missed" if ac else "took")
    return subprocess.run(base + ["--emit", "ptx"], capture_output=True, text=True, env=env, check=True).stdout


def ref_attn(q, kk, v, scale, causal=False):
    s = (q.astype(np.float32) @ kk.astype(np.float32).T) * scale
    if causal:
        s = np.where(np.tril(np.ones(s.shape, bool)), s, -np.inf)
    p = np.exp(s - s.max(1, keepdims=True))
    return (p / p.sum(1, keepdims=True)) @ v.astype(np.float32)


D, BM = 64, 64
for BN, NCTX, stages in ((32, 100, 3), (64, 77, 2), (32, 40, 4)):
    outs = []
    q, kk, v = (RNG.standard_normal((NCTX, D)).astype(np.float16) for _ in range(3))
    for ac in (False, True):
        ptx = compile_attn(os.path.join(HERE, "Inputs", "attn_trans.py"), "attn_trans_kernel",
                           "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32",
                           {"HEAD_DIM": D, "BLOCK_M": BM, "BLOCK_N": BN}, ac, stages)
        o = np.zeros((NCTX, D), np.float16)
        Kernel(ptx).run((-(-NCTX // BM),), [q, kk, v, o, 0.125, NCTX], smem_bytes=1 << 18)
        err = np.abs(o.astype(np.float32) - ref_attn(q, kk, v, 0.125)).max()
        assert err < 2e-3, "attn_trans BLOCK_N=%d N=%d async=%s: max error %g" % (BN, NCTX, ac, err)
        outs.append(o)
    assert (outs[0] == outs[1]).all(), "cp.async changed attn_trans's result"
print("ok: attention with tl.trans(k)")

Z, H, NCTX, BM, BN = 1, 2, 128, 64, 32
for stage in (1, 3):
    outs = []
    q, kk, v = (RNG.standard_normal((Z * H * NCTX, D)).astype(np.float16) for _ in range(3))
    for ac in (False, True):
        ptx = compile_attn(os.path.join(KERNELS, "flash_attention.py"), "attn_fwd",
                           "fp32,*fp32:16,i32,i32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16",
                           {"HEAD_DIM": D, "BLOCK_M": BM, "BLOCK_N": BN, "FP8_OUTPUT": False, "STAGE": stage,
                            "warp_specialize": False, "IS_HOPPER": True}, ac)
        o = np.zeros_like(q)
        m = np.zeros(Z * H * NCTX, np.float32)
        Kernel(ptx).run((NCTX // BM, Z * H), [0.125, m, Z, H, q, kk, v, o, NCTX], smem_bytes=1 << 18)
        for h in range(Z * H):
            rows = slice(h * NCTX, (h + 1) * NCTX)
            err = np.abs(o[rows].astype(np.float32) - ref_attn(q[rows], kk[rows], v[rows], 0.125, stage == 3)).max()
            assert err < 2e-3, "flash attn_fwd STAGE=%d async=%s head %d: max error %g" % (stage, ac, h, err)
        outs.append(o)
    assert (outs[0] == outs[1]).all(), "cp.async changed flash attn_fwd's result"
print("ok: flash attention forward")
