# wgmma on sm_90 (src/target/ptx/ptx_mma.c, planned by mma_plan.c), run by
# the CTA simulator (Inputs/ptx_sim.py: wgmma.mma_async by a warpgroup, B
# read through its descriptor by the PTX ISA's canonical swizzled layouts,
# and a check that shared memory the tensor cores read was fenced for the
# async proxy after it was written). Each product is checked against numpy
# and against the mma.sync code of the same kernel (TRITONC_WGMMA=0), which
# the simulator computes with the same roundings: the two agree bit for bit.
# The corpus matmul with B stored as K rows of N (MN-major, imm-trans-b 1)
# and, with B's strides swapped, as N rows of K (K-major); A through its
# descriptor, or (stored by columns) its fragments by ldmatrix.trans; 128-, 64- and
# 32-byte swizzles (N or K of 64+, 32, 16 fp16 elements); fp16 and bf16;
# 4 and 8 warps (two warpgroups); through cp.async rings and through
# st.shared (TRITONC_ASYNC_COPY=0); attention's chained P x V (A from
# registers) and K^T through tl.trans; a loop's dot left in flight until
# the next one, or, in Triton's order, through the copies after it (the
# simulator checks that nothing else touches what a wgmma in flight reads
# or writes).
# REQUIRES: numpy
# RUN: %python %s %tritonc
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from ptx_sim import Kernel, SimError  # noqa: E402

KERNELS = os.path.join(HERE, "..", "kernels")
TRITONC = sys.argv[1]
RNG = np.random.default_rng(5)


def compile_ptx(path, kernel, sig, cx, warps=4, stages=3, async_copy=True, wgmma=True, target="cuda:90", emit="ptx",
                late=None):
    cmd = [TRITONC, "compile", path, "--kernel", kernel, "--signature", sig, "--emit", emit, "--target", target,
           "--num-warps", str(warps), "--num-stages", str(stages)]
    for k, v in cx.items():
        cmd += ["-D", "%s=%s" % (k, v)]
    env = dict(os.environ, TRITONC_ASYNC_COPY="1" if async_copy else "0", TRITONC_WGMMA="1" if wgmma else "0")
    env.pop("TRITONC_WGMMA_LATE", None)
    if late is not None:
        env["TRITONC_WGMMA_LATE"] = late
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        raise RuntimeError(r.stderr)
    if emit == "ptx":
        assert ("wgmma.mma_async" in r.stdout) == wgmma, "wgmma %s in the PTX" % ("missing" if wgmma else "present")
    return r.stdout


def to_bits(x, ty):
    """x (float32) as the kernel's element type, and its float32 value."""
    if ty == "fp16":
        h = x.astype(np.float16)
        return h, h.astype(np.float32)
    b = (x.view(np.uint32) >> 16).astype(np.uint16)  # bf16 by truncation
    return b, (b.astype(np.uint32) << 16).view(np.float32)


def matmul(M, N, K, bm, bn, bk, warps=4, stages=3, ty="fp16", k_major=False, async_copy=True, a_cols=False,
           late=None, want_late=None, b_rows_any=False):
    # B is K x N; k_major: its n stride is the dynamic one (B stored as B^T);
    # a_cols: A stored by columns (A's fragments by ldmatrix.trans, the RS form)
    if a_cols:
        sig = "*%s:16,*%s:16,*fp16:16,i32,i32,i32:16,constexpr,i32:16,i32:16,constexpr,i32:16,constexpr" % (ty, ty)
        cx = {"stride_am": 1, "stride_bn": 1, "stride_cn": 1}
    elif k_major:
        sig = "*%s:16,*%s:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,constexpr,i32:16,i32:16,constexpr" % (ty, ty)
        cx = {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1}
    else:
        sig = "*%s:16,*%s:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr" % (ty, ty)
        cx = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1}
    if b_rows_any:  # B's row stride of unknown alignment: B by st.shared, A on its ring
        parts = sig.split(",")
        parts[8] = "i32"
        sig = ",".join(parts)
    cx.update({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 2, "ACTIVATION": '""'})
    kp, np_ = -(-K // 16) * 16, -(-N // 16) * 16
    a, af = to_bits(RNG.standard_normal((M, kp)).astype(np.float32) * 0.5, ty)
    b, bf = to_bits(RNG.standard_normal((kp, np_)).astype(np.float32) * 0.5, ty)
    outs = []
    for wg in (True, False):
        ptx = compile_ptx(os.path.join(KERNELS, "matmul.py"), "matmul_kernel", sig, cx, warps, stages, async_copy, wg,
                          late=late)
        if wg:
            assert want_late is None or ("wgmma.wait_group.sync.aligned 1;" in ptx) == want_late, "late copies"
            assert ".extern .shared .align 1024 .b8 global_smem[];" in ptx
            tail = ", 1, 1, 1, 1;" if a_cols else ", 1, 1, 1, 0, %d;" % (0 if k_major else 1)
            assert tail in ptx, "imm-trans-a, imm-trans-b"
        c = np.zeros((M, np_), np.float16)
        bin_ = np.ascontiguousarray(b.T) if k_major else b
        if a_cols:
            args = [np.ascontiguousarray(a.T), bin_, c, M, N, K, M, np_, np_]
        else:
            args = [a, bin_, c, M, N, K, kp, kp, np_] if k_major else [a, bin_, c, M, N, K, kp, np_, np_]
        Kernel(ptx).run((-(-M // bm) * -(-N // bn),), args, smem_bytes=1 << 18)
        outs.append(c)
    ref = af[:, :K] @ bf[:K, :N]
    err = np.abs(outs[0][:, :N].astype(np.float32) - ref).max()
    assert err < 2e-2 * max(1.0, np.abs(ref).max()), "%s %dx%dx%d: max error %g" % (ty, M, N, K, err)
    assert (outs[0] == outs[1]).all(), "wgmma and mma.sync differ: %s %dx%dx%d" % (ty, M, N, K)


n = 0
for case in [dict(M=128, N=128, K=128, bm=128, bn=128, bk=64, stages=4),          # 128B, 2 m-blocks
             dict(M=100, N=72, K=96, bm=64, bn=64, bk=32),                         # ragged, masked copies
             dict(M=64, N=32, K=64, bm=64, bn=32, bk=16, stages=2),                # 64B
             dict(M=64, N=16, K=48, bm=64, bn=16, bk=16, async_copy=False),        # 32B, st.shared
             dict(M=256, N=64, K=64, bm=128, bn=64, bk=64, warps=8),               # two warpgroups
             dict(M=128, N=256, K=64, bm=64, bn=256, bk=32, ty="bf16"),            # N 256, 4 atoms
             dict(M=64, N=64, K=128, bm=64, bn=64, bk=64, k_major=True),           # K-major, 128B
             dict(M=64, N=64, K=64, bm=64, bn=64, bk=32, k_major=True, ty="bf16"),  # K-major, 64B
             dict(M=64, N=32, K=32, bm=64, bn=32, bk=16, k_major=True, async_copy=False),
             dict(M=128, N=64, K=64, bm=64, bn=64, bk=32, a_cols=True),                # RS: A by ldmatrix
             dict(M=128, N=128, K=64, bm=128, bn=64, bk=32, warps=8, a_cols=True),
             # A on a cp.async ring, B stored by st.shared in the loop: the dot's
             # group must be waited for before the next iteration's stores (its
             # wait was deferred to the next dot, after them: a race)
             dict(M=100, N=72, K=160, bm=64, bn=64, bk=32, b_rows_any=True)]:
    matmul(**case)
    n += 1
print("ok: %d matmuls" % n)

# Triton's order (late copies): the dot's group runs on through the barrier
# and the copies after it (wait_group 1: the previous iteration's group is
# done, whose stage they overwrite), in rings of num_stages; where no stage
# more is taken (the corpus matmul's 128x128x64 at 4 warps), and with
# TRITONC_WGMMA_LATE=2 where one would be
for case in [dict(M=192, N=128, K=320, bm=128, bn=128, bk=64),                      # the default's choice
             dict(M=100, N=72, K=200, bm=64, bn=64, bk=32, late="2"),               # ragged, masked copies
             dict(M=64, N=256, K=160, bm=64, bn=256, bk=32, stages=4, late="2"),    # N 256, 4 stages
             dict(M=256, N=64, K=128, bm=128, bn=64, bk=32, warps=8, late="2", ty="bf16"),  # two warpgroups
             dict(M=128, N=64, K=96, bm=64, bn=64, bk=32, stages=2, late="2")]:     # 2 stages
    matmul(want_late=True, **case)
    n += 1
# (A's fragments from registers, RS: the next iteration writes them while the
# group would still read them, so the copies stay first)
matmul(M=128, N=64, K=96, bm=64, bn=64, bk=32, a_cols=True, late="2", want_late=False)
rs = compile_ptx(os.path.join(KERNELS, "matmul.py"), "matmul_kernel",
                 "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,constexpr,i32:16,i32:16,constexpr,i32:16,constexpr",
                 {"stride_am": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32,
                  "GROUP_M": 2, "ACTIVATION": '""'}, emit="ttgir", late="2")
assert "wgmma_late" not in rs and "ttg.async_copy_global_to_local" in rs, "RS: no late copies"
print("ok: late copies")

# the simulator sees shared memory the tensor cores read without the proxy
# fence after its writes (the cp.async ring's, and st.shared's)
cx = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 2,
      "ACTIVATION": '""'}
SIG = "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr"


def expect_caught(bad, good, what):
    """The simulator stops the broken PTX `bad` with an error naming `what`."""
    assert bad != good
    a = np.ones((64, 128), np.float16)
    b = np.ones((128, 64), np.float16)
    c = np.zeros((64, 64), np.float16)
    try:
        Kernel(bad).run((1,), [a, b, c, 64, 64, 128, 128, 64, 64], smem_bytes=1 << 18)
    except SimError as e:
        assert what in str(e), str(e)
    else:
        raise AssertionError("the simulator missed: " + what)


for ac in (True, False):
    good = compile_ptx(os.path.join(KERNELS, "matmul.py"), "matmul_kernel", SIG, cx, async_copy=ac)
    expect_caught(good.replace("\tfence.proxy.async.shared::cta;\n", ""), good, "without a fence.proxy.async")
print("ok: a missing proxy fence caught")

# a ring loop defers each dot's wait to the next dot (its stage is not
# overwritten: one stage more, copies one iteration less ahead) and to
# after the loop; the simulator sees a register or a shared byte a wgmma in
# flight uses touched by anything else: without the wait at the next dot's
# start (the next copies overwrite the stage the last group reads), or
# after the loop (the epilogue reads the accumulators)
good = compile_ptx(os.path.join(KERNELS, "matmul.py"), "matmul_kernel", SIG, cx)
body = good[good.index("fence.proxy.async.shared::cta;"):]
assert body.index("wgmma.wait_group.sync.aligned 0;") < body.index("wgmma.fence.sync.aligned;") \
    < body.index("wgmma.commit_group.sync.aligned;") < body.index("cp.async.wait_group 0;\n\twgmma.wait_group.sync.aligned 0;")
for bad, what in ((good.replace("\twgmma.wait_group.sync.aligned 0;\n", "", 1),  # (the first: the dot's)
                   "a wgmma in flight"),
                  (good.replace("cp.async.wait_group 0;\n\twgmma.wait_group.sync.aligned 0;", "cp.async.wait_group 0;"),
                   "read while a wgmma in flight")):
    expect_caught(bad, good, what)
print("ok: deferred waits, and their absence caught")

# late copies: without the wait for the previous group the copies overwrite
# the stage it reads; without the wait after the loop the epilogue reads
# accumulators a wgmma in flight writes
good = compile_ptx(os.path.join(KERNELS, "matmul.py"), "matmul_kernel", SIG, cx, late="2")
body = good[good.index("fence.proxy.async.shared::cta;"):]
assert body.index("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 1;\n\tbar.sync 0;") \
    < body.index("cp.async.cg.shared.global") < body.index("cp.async.wait_group 0;\n\twgmma.wait_group.sync.aligned 0;")
for bad, what in ((good.replace("\twgmma.wait_group.sync.aligned 1;\n", ""), "a wgmma in flight reads"),
                  (good.replace("wgmma.wait_group.sync.aligned 1;", "wgmma.wait_group.sync.aligned 2;"),
                   "a wgmma in flight reads"),
                  (good.replace("cp.async.wait_group 0;\n\twgmma.wait_group.sync.aligned 0;", "cp.async.wait_group 0;"),
                   "read while a wgmma in flight")):
    expect_caught(bad, good, what)
print("ok: late copies' waits, and their absence caught")


def ref_attn(q, kk, v, scale, causal=False):
    s = (q.astype(np.float32) @ kk.astype(np.float32).T) * scale
    if causal:
        s = np.where(np.tril(np.ones(s.shape, bool)), s, -np.inf)
    p = np.exp(s - s.max(1, keepdims=True))
    return (p / p.sum(1, keepdims=True)) @ v.astype(np.float32)


# attention (tests/kernels/attention.py): S = Q K^T, then P x V with P from
# the registers of the first dot's accumulator; the fused-attention
# tutorial's forward with K^T through tl.trans and its rings
D, BM, BN, NCTX = 64, 64, 32, 128
for causal in (False, True):
    q, kk, v = (RNG.standard_normal((1, NCTX, D)).astype(np.float16) for _ in range(3))
    outs = []
    for wg in (True, False):
        ptx = compile_ptx(os.path.join(KERNELS, "attention.py"), "attn_fwd_kernel",
                          "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16",
                          {"HEAD_DIM": D, "BLOCK_M": BM, "BLOCK_N": BN, "CAUSAL": causal}, wgmma=wg)
        o = np.zeros((1, NCTX, D), np.float16)
        Kernel(ptx).run((NCTX // BM, 1), [q, kk, v, o, 0.2, NCTX * D, D, NCTX], smem_bytes=1 << 18)
        outs.append(o)
    err = np.abs(outs[0][0].astype(np.float32) - ref_attn(q[0], kk[0], v[0], 0.2, causal)).max()
    assert err < 2e-3, "attention causal=%s: max error %g" % (causal, err)
    assert (outs[0] == outs[1]).all(), "wgmma and mma.sync attention differ"
Z, H, NCTX, BM, BN = 1, 2, 128, 64, 64
q, kk, v = (RNG.standard_normal((Z * H * NCTX, D)).astype(np.float16) for _ in range(3))
outs = []
for wg in (True, False):
    ptx = compile_ptx(os.path.join(KERNELS, "flash_attention.py"), "attn_fwd",
                      "fp32,*fp32:16,i32,i32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16",
                      {"HEAD_DIM": D, "BLOCK_M": BM, "BLOCK_N": BN, "FP8_OUTPUT": False, "STAGE": 1,
                       "warp_specialize": False, "IS_HOPPER": True}, wgmma=wg)
    o = np.zeros_like(q)
    m = np.zeros(Z * H * NCTX, np.float32)
    Kernel(ptx).run((NCTX // BM, Z * H), [0.125, m, Z, H, q, kk, v, o, NCTX], smem_bytes=1 << 18)
    outs.append(o)
for h in range(Z * H):
    rows = slice(h * NCTX, (h + 1) * NCTX)
    err = np.abs(outs[0][rows].astype(np.float32) - ref_attn(q[rows], kk[rows], v[rows], 0.125)).max()
    assert err < 2e-3, "flash attn_fwd head %d: max error %g" % (h, err)
assert (outs[0] == outs[1]).all(), "wgmma and mma.sync flash attention differ"
print("ok: attention")


# attention's backward (flash_attention.py's attn_bwd, the tutorial's): K
# and V, read by the dots of two loops each, lie in shared memory for the
# tensor cores (A through its descriptor), written once before each loop;
# Q^T and dO, which two dots read each (one through tl.trans), are stored
# by each dot at num_stages 1 (the benchmark's configuration: no rings,
# only K and V placed), and copied once into a ring both dots read at the
# tutorial's (BLOCK_N1 = BLOCK_M2 = 128, 5 stages).
def ref_attn_bwd(q, ka, v, do, m, delta, sm_scale):
    """dQ, dK, dV in float64, from base-2 logits Q Ka^T (Ka = K sm_scale / ln 2)."""
    q, ka, v, do = (x.astype(np.float64) for x in (q, ka, v, do))
    p = np.exp2(q @ ka.T - m[:, None]) * np.tril(np.ones((len(q), len(ka))))
    ds = p * (do @ v.T - delta[:, None])
    return ds @ ka * 0.6931471824645996, ds.T @ q * sm_scale, p.T @ do


BWD_SIG = ("*fp16:16,*fp16:16,*fp16:16,fp32,*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,"
           "i32:16,i32:16,i32:16,constexpr,i32,i32:16")
for (n1, m2, stages, nctx) in ((64, 64, 1, 128), (128, 128, 5, 256)):
    sm_scale = 0.5
    q, k, v, do = (RNG.standard_normal((nctx, D)).astype(np.float16) for _ in range(4))
    ka = (k.astype(np.float32) * (sm_scale * 1.4426950408889634)).astype(np.float16)
    s2 = q.astype(np.float64) @ ka.astype(np.float64).T
    s2 = np.where(np.tril(np.ones(s2.shape, bool)), s2, -np.inf)
    mx = s2.max(1)
    m = np.log2(np.exp2(s2 - mx[:, None]).sum(1)) + mx
    delta = ((np.exp2(s2 - m[:, None]) @ v.astype(np.float64)) * do.astype(np.float64)).sum(1)
    m, delta = m.astype(np.float32), delta.astype(np.float32)
    ref = ref_attn_bwd(q, ka, v, do, m, delta, sm_scale)
    outs = []
    for wg in (True, False):
        ptx = compile_ptx(os.path.join(KERNELS, "flash_attention.py"), "attn_bwd", BWD_SIG,
                          {"stride_d": 1, "BLOCK_M1": 32, "BLOCK_N1": n1, "BLOCK_M2": m2, "BLOCK_N2": 32,
                           "BLK_SLICE_FACTOR": 2, "HEAD_DIM": D, "CAUSAL": True}, stages=stages, wgmma=wg)
        if wg:  # K and V (and the dq loop's Q and dO) stored as loaded, not through fragments
            ttgir = compile_ptx(os.path.join(KERNELS, "flash_attention.py"), "attn_bwd", BWD_SIG,
                                {"stride_d": 1, "BLOCK_M1": 32, "BLOCK_N1": n1, "BLOCK_M2": m2, "BLOCK_N2": 32,
                                 "BLK_SLICE_FACTOR": 2, "HEAD_DIM": D, "CAUSAL": True}, stages=stages, emit="ttgir")
            loaded = set(re.findall(r"(%\w+) = tt.load ", ttgir))
            stored = re.findall(r"\"ttg.local_store\"\(%\w+, (%\w+)\)", ttgir)
            assert len(stored) >= 4 and set(stored) <= loaded, "fixed operands stored: %s" % stored
            if stages > 1:  # Q^T's and dO's rings each read by two dots, one through the transpose
                views = re.findall(r"\"ttg.local_load\"\(%arg\d+\) \{offset = (\d+) .*-> tensor<(\d+x\d+)", ttgir)
                shapes = {}
                for off, shape in views:
                    shapes.setdefault(off, set()).add(shape)
                assert sum(len(v) == 2 for v in shapes.values()) >= 2, "rings read as a tile and its transpose: %s" % shapes
        grads = [np.zeros_like(q) for _ in range(3)]
        Kernel(ptx).run((nctx // n1, 1, 1), [q, ka, v, sm_scale, do] + grads + [m, delta, nctx * D, nctx * D, D, 1, nctx],
                        smem_bytes=1 << 18)
        outs.append(grads)
    for name, got, r in zip(("dq", "dk", "dv"), outs[0], ref):
        err = np.abs(got.astype(np.float64) - r).max() / np.abs(r).max()
        assert err < 4e-3, "attn_bwd %s (BLOCK_N1 %d, %d stages): relative error %g" % (name, n1, stages, err)
    for name, a, b in zip(("dq", "dk", "dv"), outs[0], outs[1]):
        assert (a == b).all(), "wgmma and mma.sync attn_bwd %s differ" % name
print("ok: attention backward")
