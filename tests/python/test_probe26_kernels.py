# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/probe26_kernels.py on the CPU, each checked
against torch or numpy computed another way, on several sizes including
ragged ones, outputs poisoned where a kernel must leave them alone.

Under tests/ptx/Inputs/sim_intercept.py (sm_80 and sm_90) every launch
matches the CPU but for differences that are not bugs: bmm_chunk's fp32
dot runs in tf32 on the GPU; int4_kv_decode's fp16 dequantisation
`q * scale + shift` is one fma.rn.f16 there (it matches with
TRITON_DEFAULT_FP_FUSION=0); argmax_3d's tie_break_left=False index is
another index of the maximum; lora_expand and desc_grouped_gemm read
tensors through address tables the simulator does not know."""
import math
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus, run_checks  # noqa: E402

K = load_corpus("probe26_kernels")
g = torch.Generator().manual_seed(2626)
NAN, INF = float("nan"), float("inf")


def close(a, b, tol=1e-5, **kw):
    torch.testing.assert_close(a, b, atol=tol, rtol=tol, **kw)


def check_mrope():
    for bs, sl, nqh, nkh, hd, sec, bwd in ((2, 5, 4, 2, 32, (4, 6, 6), False), (1, 3, 3, 1, 64, (16, 8, 8), True)):
        q = torch.randn(bs, sl, nqh, hd, generator=g).half()
        k = torch.randn(bs, sl, nkh, hd, generator=g).half()
        pos = torch.randn(3, bs, sl, hd // 2, generator=g)
        cos = torch.cat([torch.cos(pos), torch.cos(pos)], -1).contiguous()
        sin = torch.cat([torch.sin(pos), torch.sin(pos)], -1).contiguous()
        q2, k2 = q.clone(), k.clone()
        K.mrope_kernel[(bs * sl,)](q2, k2, cos, sin, sl, bs, nqh, nkh, hd, triton.next_power_of_2(nqh),
                                   triton.next_power_of_2(nkh), triton.next_power_of_2(hd), sec[0], sec[1], bwd)
        sel = torch.tensor([0] * sec[0] + [1] * sec[1] + [2] * sec[2])
        sel = torch.cat([sel, sel])
        c = cos.gather(0, sel.view(1, 1, 1, hd).expand(1, bs, sl, hd))[0]
        s = sin.gather(0, sel.view(1, 1, 1, hd).expand(1, bs, sl, hd))[0]
        if bwd:
            s = -s
        for t, t2 in ((q, q2), (k, k2)):
            x1, x2 = t.float()[..., :hd // 2], t.float()[..., hd // 2:]
            rot = torch.cat([-x2, x1], -1)
            ref = t.float() * c[:, :, None, :] + rot * s[:, :, None, :]
            close(t2.float(), ref.half().float(), 2e-3)


def check_tvd():
    for red, has_label, n_cols, BS in ((0, True, 100, 64), (2, True, 300, 128), (1, False, 64, 64)):
        R = 6
        p = torch.softmax(torch.randn(R, n_cols, generator=g), 1)
        q = torch.softmax(torch.randn(R, n_cols, generator=g), 1)
        label = torch.randint(0, 5, (R,), generator=g)
        label[1] = -100
        loss = torch.full((R, n_cols) if red == 0 else (R,), NAN)
        grads = torch.full((R, n_cols), NAN)
        K.tvd_kernel[(R,)](p, n_cols, q, n_cols, loss, n_cols if red == 0 else 1, grads, n_cols, label,
                           -100, n_cols, BLOCK_SIZE=BS, HAS_LABEL=has_label, reduction=red)
        ref_l = 0.5 * (p - q).abs()
        ref_g = torch.where(p > q, 0.5, -0.5)
        if has_label:
            ref_l[1] = 0
            ref_g[1] = 0
        assert torch.equal(grads, ref_g)
        if red == 0:
            close(loss, ref_l)
        elif has_label:
            close(loss[[0, 2, 3, 4, 5]], ref_l.sum(1)[[0, 2, 3, 4, 5]])
            assert loss[1].isnan()  # an ignored row's loss is not written
        else:
            close(loss, ref_l.sum(1))


def check_poly_norm():
    for dt, R, N, BL in ((torch.float32, 5, 100, 128), (torch.bfloat16, 3, 512, 512)):
        x = torch.randn(R, N, generator=g).to(dt)
        w = torch.randn(3, generator=g)
        b = torch.randn(1, generator=g)
        y = torch.empty(R, N, dtype=dt)
        rstd = torch.empty(R, 3)
        K.poly_norm_kernel[(R,)](x, w, b, y, rstd, N, 1e-6, BLOCK=BL)
        xf = x.float()
        ref = b.clone()
        for i, u in enumerate((xf ** 3, xf ** 2, xf)):
            r = torch.rsqrt((u * u).mean(1, keepdim=True) + 1e-6)
            close(rstd[:, i:i + 1], r, 1e-4)
            ref = ref + w[i] * u * r
        close(y.float(), ref.to(dt).float(), 1e-4 if dt == torch.float32 else 2e-2)


def check_matmul_swiglu():
    for dt, M, N, Kd in ((torch.float16, 50, 40, 70), (torch.bfloat16, 64, 32, 64)):
        a = (torch.randn(M, Kd, generator=g) * 0.3).to(dt)
        w = (torch.randn(Kd, 2 * N, generator=g) * 0.3).to(dt)
        out = torch.full((M, N), NAN, dtype=dt)
        alpha, limit = 1.702, 1.5
        K.matmul_swiglu_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 16))](a, w, out, M, N, Kd, alpha, limit,
                                                                        BLOCK_M=32, BLOCK_N=16, BLOCK_K=32)
        acc = a.float() @ w.float()
        gate, up = acc[:, 0::2], acc[:, 1::2]
        gate = gate.clamp(max=limit)
        up = up.clamp(-limit, limit)
        ref = gate * torch.sigmoid(alpha * gate) * (up + 1)
        close(out.float(), ref, 2e-2)


def check_l2norm():
    for dt, T, D, BD, BT in ((torch.float16, 37, 64, 64, 16), (torch.float32, 10, 48, 64, 8)):
        x = torch.randn(T, D, generator=g).to(dt)
        y = torch.empty_like(x); rstd = torch.empty(T)
        K.l2norm_fwd_kernel[(triton.cdiv(T, BT),)](x, y, rstd, 1e-6, T, D=D, BD=BD, BT=BT)
        xf = x.float()
        r = 1 / torch.sqrt((xf * xf).sum(1) + 1e-6)
        close(rstd, r, 1e-5)
        close(y.float(), (xf * r[:, None]).to(dt).float(), 2e-3)
        dy = torch.randn(T, D, generator=g).to(dt)
        dx = torch.full_like(x, NAN)
        K.l2norm_bwd_kernel[(triton.cdiv(T, BT),)](y, rstd, dy, dx, T, D=D, BD=BD, BT=BT)
        yf, dyf = y.float(), dy.float()
        ref = dyf * r[:, None] - (dyf * yf).sum(1, keepdim=True) * yf * r[:, None]
        close(dx.float(), ref.to(dt).float(), 5e-3)


def ssd_cumsum_ref(dt, A, bias, chunk, dt_min, dt_max, softplus):
    B, L, H = dt.shape
    nch = triton.cdiv(L, chunk)
    d = dt.float() + (bias if bias is not None else 0)
    if softplus:
        d = torch.where(d <= 20, torch.log1p(torch.exp(d)), d)
    d = d.clamp(dt_min, dt_max)
    pad = torch.zeros(B, nch * chunk, H)
    pad[:, :L] = d
    d = pad.view(B, nch, chunk, H).permute(0, 1, 3, 2)  # b c h l
    return d, torch.cumsum(d * A[None, None, :, None], -1)


def check_chunk_cumsum_state():
    for B, L, H, chunk, BH, bias, sp in ((2, 50, 5, 16, 4, True, True), (1, 64, 3, 32, 4, False, False)):
        dt = torch.randn(B, L, H, generator=g) * 2
        A = -torch.rand(H, generator=g) - 0.5
        dt_bias = torch.randn(H, generator=g) * 0.5
        nch = triton.cdiv(L, chunk)
        dt_out = torch.full((B, nch, H, chunk), NAN)
        dA_cs = torch.full((B, nch, H, chunk), NAN)
        K.chunk_cumsum_kernel[(B, nch, triton.cdiv(H, BH))](
            dt, A, dt_bias, dt_out, dA_cs, B, L, H, chunk, 0.01, 5.0, L * H, H, 1,
            nch * H * chunk, H * chunk, chunk, 1, DT_SOFTPLUS=sp, HAS_DT_BIAS=bias,
            BLOCK_SIZE_H=BH, BLOCK_SIZE_CHUNK=chunk)
        rd, rcs = ssd_cumsum_ref(dt, A, dt_bias if bias else None, chunk, 0.01, 5.0, sp)
        valid = (torch.arange(nch * chunk) < L).view(nch, chunk)[None, :, None, :].expand(B, nch, H, chunk)
        close(dt_out, torch.where(valid, rd, 0.0))
        close(dA_cs, rcs, 1e-4)
        # the chunk states from these: x (b l h p), Bm (b l g n)
        P, G, N = 24, 1, 16
        x = torch.randn(B, L, H, P, generator=g).half()
        Bm = torch.randn(B, L, G, N, generator=g).half()
        states = torch.full((B, nch, H, P, N), NAN)
        K.chunk_state_kernel[(triton.cdiv(P, 16) * triton.cdiv(N, 16), B * nch, H)](
            x, Bm, states, dt_out, dA_cs, P, N, chunk, B, L, H // G,
            L * H * P, H * P, P, L * G * N, G * N, N,
            nch * H * P * N, H * P * N, P * N, N, nch * H * chunk, H * chunk, chunk,
            BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16)
        ref = torch.empty(B, nch, H, P, N)
        for c in range(nch):
            s, e = c * chunk, min(L, (c + 1) * chunk)
            dcs = dA_cs[:, c, :, :e - s]
            scale = torch.exp(dA_cs[:, c, :, chunk - 1:chunk] - dcs) * dt_out[:, c, :, :e - s]  # b h l
            bs = (Bm[:, s:e, 0, :].float()[:, None] * scale[..., None]).half().float()  # b h l n
            ref[:, c] = torch.einsum("blhp,bhln->bhpn", x[:, s:e].float(), bs)
        close(states, ref, 2e-2)


def check_bmm_chunk():
    for dt, dot_dt, causal, seqi, L, chunk, Kd, G in ((torch.float16, tl.float16, True, False, 50, 32, 40, 2),
                                                  (torch.float32, tl.float32, False, True, 40, 16, 16, 1),
                                                  (torch.bfloat16, tl.bfloat16, True, True, 64, 64, 32, 1)):
        B = 2
        nch = triton.cdiv(L, chunk)
        a = torch.randn(B, L, G, Kd, generator=g).to(dt)
        b = torch.randn(B, L, G, Kd, generator=g).to(dt)
        seq_idx = torch.sort(torch.randint(0, 3, (B, L), generator=g, dtype=torch.int32), 1).values
        out = torch.full((B, nch, G, chunk, chunk), NAN)
        BM = BN = 16
        npm = triton.cdiv(chunk, BM) * triton.cdiv(chunk, BN)
        K.bmm_chunk_kernel[(npm, B, nch * G)](a, b, out, seq_idx, L, chunk, Kd, G, L * G * Kd, G * Kd, Kd,
                                             nch * G * chunk * chunk, G * chunk * chunk, chunk * chunk, chunk,
                                             IS_CAUSAL=causal, dot_dtype=dot_dt, HAS_SEQ_IDX=seqi,
                                             BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=16)
        ap = torch.zeros(B, nch * chunk, G, Kd); ap[:, :L] = a.float()
        bp = torch.zeros(B, nch * chunk, G, Kd); bp[:, :L] = b.float()
        ref = torch.einsum("bcmgk,bcngk->bcgmn", ap.view(B, nch, chunk, G, Kd), bp.view(B, nch, chunk, G, Kd))
        if seqi:
            sp = torch.full((B, nch * chunk), -7, dtype=torch.int32); sp[:, :L] = seq_idx
            sp = sp.view(B, nch, chunk)
            valid = torch.arange(nch * chunk).view(nch, chunk) < L
            sm = torch.where(valid, sp, -1); sn = torch.where(valid, sp, -2)
            ref = torch.where(sm[:, :, None, :, None] == sn[:, :, None, None, :], ref, 0.0)
        blk = torch.arange(chunk) // BM
        keep = ~(blk[None, :] * BN >= (blk[:, None] + 1) * BM) if causal else torch.ones(chunk, chunk, dtype=torch.bool)
        got = out[..., keep]
        # (an fp32 dot is tf32 on the GPU, as Triton's default input_precision makes it)
        tol = (2e-2 if out.is_cuda else 1e-4) if dt == torch.float32 else 2e-2
        close(got, ref[..., keep], tol)
        assert out[..., ~keep].isnan().all()


def check_rms_norm_gated():
    for rms, has_z, before, has_b in ((True, True, False, False), (False, True, True, True), (False, False, False, True)):
        M, ngroups, N = 7, 3, 40
        x = torch.randn(M, ngroups * N, generator=g)
        z = torch.randn(M, ngroups * N, generator=g)
        w = torch.randn(ngroups * N, generator=g)
        bb = torch.randn(ngroups * N, generator=g)
        y = torch.empty(M, ngroups * N)
        mean = torch.full((ngroups * M,), NAN); rstd = torch.empty(ngroups * M)
        K.rms_norm_gated_kernel[(M, ngroups)](x, y, w, bb, z, mean, rstd, ngroups * N, ngroups * N, ngroups * N, M, N,
                                              1e-5, BLOCK_N=64, HAS_BIAS=has_b, HAS_Z=has_z,
                                              NORM_BEFORE_GATE=before, IS_RMS_NORM=rms)
        xg = x.view(M, ngroups, N)
        zg = z.view(M, ngroups, N)
        if has_z and not before:
            xg = xg * zg * torch.sigmoid(zg)
        if rms:
            var = (xg * xg).mean(-1, keepdim=True)
            xh = xg * torch.rsqrt(var + 1e-5)
            assert mean.isnan().all()
        else:
            mu = xg.mean(-1, keepdim=True)
            var = ((xg - mu) ** 2).mean(-1, keepdim=True)
            xh = (xg - mu) * torch.rsqrt(var + 1e-5)
            close(mean, mu[..., 0].T.reshape(-1))
        close(rstd, torch.rsqrt(var[..., 0] + 1e-5).T.reshape(-1), 1e-4)
        ref = xh * w.view(ngroups, N) + (bb.view(ngroups, N) if has_b else 0)
        if has_z and before:
            ref = ref * zg * torch.sigmoid(zg)
        close(y, ref.reshape(M, -1), 1e-4)


def check_gated_delta_rule():
    for varlen, hw, l2, init in ((False, False, True, True), (True, True, False, False)):
        H, Kd, V, BV = 2, 32, 24, 16
        if varlen:
            lens = [5, 0, 9]
            cu = torch.tensor([0] + list(np.cumsum(lens)), dtype=torch.int32)
            NB, T = len(lens), int(cu[-1])
            q = torch.randn(1, T, H, Kd, generator=g)
        else:
            NB, T = 2, 11
            lens = [T] * NB
            cu = torch.zeros(1, dtype=torch.int32)
            q = torch.randn(NB, T, H, Kd, generator=g)
        k = torch.randn(q.shape, generator=g) * (0.2 if not l2 else 1)
        v = torch.randn(q.shape[:-1] + (V,), generator=g)
        gg = -torch.rand(q.shape[:-1], generator=g)
        beta = torch.rand(q.shape[:-1] + ((V,) if hw else ()), generator=g)
        h0 = torch.randn(NB, H, Kd, V, generator=g)
        o = torch.full(v.shape, NAN)
        ht = torch.full((NB, H, Kd, V), NAN)
        scale = Kd ** -0.5
        K.gated_delta_rule_kernel[(triton.cdiv(V, BV), NB * H)](q, k, v, gg, beta, o, h0, ht, cu, scale, T, H=H, K=Kd,
                                                                V=V, BK=32, BV=BV, USE_INITIAL_STATE=init,
                                                                STORE_FINAL_STATE=True, IS_BETA_HEADWISE=hw,
                                                                USE_QK_L2NORM_IN_KERNEL=l2, IS_VARLEN=varlen)
        qf, kf, vf, gf, bf = (t.reshape(-1, *t.shape[2:]) for t in (q, k, v, gg, beta))
        starts = [int(c) for c in cu[:-1]] if varlen else [n * T for n in range(NB)]
        ref_o = torch.empty_like(vf)
        for n in range(NB):
            for h in range(H):
                S = h0[n, h].clone() if init else torch.zeros(Kd, V)
                for t in range(starts[n], starts[n] + lens[n]):
                    qq, kk = qf[t, h], kf[t, h]
                    if l2:
                        qq = qq / (qq.norm() + 1e-6); kk = kk / (kk.norm() + 1e-6)
                    S = S * torch.exp(gf[t, h])
                    vv = (vf[t, h] - (S * kk[:, None]).sum(0)) * bf[t, h]
                    S = S + kk[:, None] * vv[None, :]
                    ref_o[t, h] = (S * (qq * scale)[:, None]).sum(0)
                close(ht[n, h], S, 1e-4)
        close(o.reshape(ref_o.shape), ref_o, 1e-4)


def check_lora_expand():
    for dt, nslices, add, even, M, N, R in ((torch.bfloat16, 2, True, False, 40, 48, 12),
                                           (torch.float16, 1, False, True, 17, 64, 16)):
        n_loras = 3
        tok_lora = torch.randint(-1, n_loras, (M,), generator=g, dtype=torch.int32)
        tok_lora[0] = 1
        inp = torch.randn(nslices, M, R, generator=g)
        Bw = [(torch.randn(n_loras, N, R, generator=g) * 0.3).to(dt) for _ in range(nslices)]
        out0 = torch.randn(M, nslices * N + 5, generator=g).to(dt)
        out = out0.clone()
        order = torch.argsort(tok_lora.long(), stable=True).to(torch.int32)
        ids = torch.unique(tok_lora)
        counts = torch.tensor([(tok_lora == i).sum() for i in ids], dtype=torch.int32)
        starts = torch.tensor([0] + list(np.cumsum(counts.numpy())[:-1]), dtype=torch.int32)
        ids = ids.to(torch.int32)
        slice_start = torch.tensor([s * N for s in range(nslices)], dtype=torch.int32)
        table = torch.tensor([w.data_ptr() for w in Bw], dtype=torch.int64) if nslices > 1 else Bw[0]
        BM, BN, BK = 16, 32, 16
        grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN), nslices, len(ids))
        K.lora_expand_kernel[grid](inp, table, out, M, N, R, order, counts, starts, ids, slice_start,
                                   M * R, R, 1, N * R, R, 1, out.stride(0), 1,
                                   BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, EVEN_K=even, ADD_INPUTS=add, CAST_TYPE=True,
                                   SLICE_NUM=nslices)
        ref = out0.clone()
        for t in range(M):
            l = int(tok_lora[t])
            if l < 0:
                continue
            for s in range(nslices):
                y = (inp[s, t].to(dt).float() @ Bw[s][l].float().T).to(dt)
                if add:
                    y = y + out0[t, s * N:(s + 1) * N]
                ref[t, s * N:(s + 1) * N] = y
        close(out.float(), ref.float(), 2e-2)
        assert torch.equal(out[:, nslices * N:], out0[:, nslices * N:])


def check_kv_indices():
    for with_start in (False, True):
        R, max_ctx = 5, 1500
        req_to_token = torch.randint(0, 10 ** 6, (8, max_ctx), generator=g, dtype=torch.int32)
        pool = torch.tensor([3, 0, 7, 5, 1], dtype=torch.int64)
        lens = torch.tensor([700, 0, 1, 513, 1100], dtype=torch.int32)
        start = torch.tensor([10, 4, 0, 300, 2], dtype=torch.int64)
        indptr = torch.tensor([0] + list(np.cumsum(lens.numpy())), dtype=torch.int32)
        out = torch.full((int(indptr[-1]) + 3,), -5, dtype=torch.int32)
        K.kv_indices_kernel[(R,)](req_to_token, pool, lens, indptr, start if with_start else None, out, max_ctx)
        ref = torch.full_like(out, -5)
        for r in range(R):
            s = int(start[r]) if with_start else 0
            ref[int(indptr[r]):int(indptr[r + 1])] = req_to_token[int(pool[r]), s:s + int(lens[r])]
        assert torch.equal(out, ref), with_start


def pack_int4_rows(x):
    """x: [..., D] float -> int32 words [..., 1 + D / 8] (scale, shift, nibbles)"""
    D = x.shape[-1]
    lo, hi = x.min(-1, keepdim=True).values, x.max(-1, keepdim=True).values
    scale = ((hi - lo) / 15).clamp_min(1e-3).half()
    shift = lo.half()
    q = torch.clamp(torch.round((x - shift.float()) / scale.float()), 0, 15).to(torch.int64)
    Dp = D // 8
    words = torch.zeros(x.shape[:-1] + (Dp,), dtype=torch.int64)
    for p in range(8):
        words |= q[..., p * Dp:(p + 1) * Dp] << (4 * p)
    ss = (scale.view(torch.int16).to(torch.int64) & 0xFFFF) | ((shift.view(torch.int16).to(torch.int64) & 0xFFFF) << 16)
    allw = torch.cat([ss, words], -1)
    allw = torch.where(allw >= 2 ** 31, allw - 2 ** 32, allw).to(torch.int32)
    deq = (q.half() * scale + shift)  # fp16 arithmetic, as the kernel's
    return allw, deq.float()


def check_int4_kv_decode():
    B, Hkv, G, D, max_T = 2, 2, 4, 64, 100
    Hq = Hkv * G
    lens = torch.tensor([77, 5], dtype=torch.int32)
    kf = torch.randn(B, Hkv, max_T, D, generator=g)
    vf = torch.randn(B, Hkv, max_T, D, generator=g)
    kq, kd = pack_int4_rows(kf)
    vq, vd = pack_int4_rows(vf)
    q = torch.randn(B, Hq, D, generator=g).half()
    nsplit, split_len = 4, 32
    o_split = torch.full((B, Hq, nsplit, D), NAN)
    lse = torch.full((B, Hq, nsplit), NAN)
    sm = D ** -0.5
    K.int4_kv_decode_kernel[(B * Hkv, nsplit)](q, kq, vq, o_split, lse, lens, sm, Hq, Hkv, max_T, split_len,
                                              G=G, G_PAD=16, D=D, BLOCK_N=16)
    out = torch.full((B, Hq, D), NAN, dtype=torch.float16)
    K.splitk_merge_kernel[(B * Hq,)](o_split, lse, out, nsplit, D=D, SPLIT_PAD=4)
    for b in range(B):
        T = int(lens[b])
        for h in range(Hq):
            hk = h // G
            s = (q[b, h].float() @ kd[b, hk, :T].T) * sm
            ref = torch.softmax(s, 0) @ vd[b, hk, :T]
            close(out[b, h].float(), ref, 1e-2)
            for sp in range(nsplit):
                lo, hi = sp * split_len, min(sp * split_len + split_len, T)
                if lo >= hi:
                    assert lse[b, h, sp] == -INF
                else:
                    close(lse[b, h, sp], torch.logsumexp(s[lo:hi], 0), 1e-2)


def check_sparse_topk_decode():
    for dt, TOPK, BL in ((torch.bfloat16, 100, 32), (torch.float16, 64, 64)):
        B, H, D, Ntok = 3, 16, 64, 300
        q = torch.randn(B, H, D, generator=g).to(dt)
        kv = torch.randn(Ntok, D, generator=g).to(dt)
        idx = torch.stack([torch.randperm(Ntok, generator=g)[:TOPK] for _ in range(B)]).to(torch.int32)
        idx[0, 50:] = -1
        idx[2, :] = -1
        idx[1, 3] = -1
        out = torch.full((B, H, D), NAN, dtype=dt); lse = torch.full((B, H), NAN)
        sm = D ** -0.5
        K.sparse_topk_decode_kernel[(B,)](q, kv, idx, out, lse, sm, TOPK, H=H, D=D, BLOCK=BL)
        for b in range(B):
            sel = idx[b][idx[b] >= 0].long()
            if len(sel) == 0:
                assert (out[b] == 0).all() and (lse[b] == -INF).all()
                continue
            kk = kv[sel].float()
            s = (q[b].float() @ kk.T) * sm
            close(lse[b], torch.logsumexp(s, 1), 1e-2)
            close(out[b].float(), torch.softmax(s, 1) @ kk, 3e-2)


def check_block_bitmap_attn():
    BH, T, D, BM, BN = 3, 100, 32, 16, 16
    q = torch.randn(BH, T, D, generator=g).half()
    k = torch.randn(BH, T, D, generator=g).half()
    v = torch.randn(BH, T, D, generator=g).half()
    nqb, nkb = triton.cdiv(T, BM), triton.cdiv(T, BN)
    keep = torch.rand(nqb, nkb, generator=g) < 0.5
    keep[1, :] = False  # a query block that sees nothing
    nbytes = triton.cdiv(nkb, 8)
    bm = torch.zeros(nqb, nbytes, dtype=torch.uint8)
    for i in range(nqb):
        for j in range(nkb):
            if keep[i, j]:
                bm[i, j // 8] |= 1 << (j % 8)
    out = torch.full((BH, T, D), NAN, dtype=torch.float16)
    sm = D ** -0.5
    K.block_bitmap_attn_kernel[(nqb, BH)](q, k, v, bm, out, T, nbytes, sm, D=D, BLOCK_M=BM, BLOCK_N=BN)
    kmask = keep.repeat_interleave(BM, 0).repeat_interleave(BN, 1)[:T, :T]
    s = (q.float() @ k.float().transpose(1, 2)) * sm
    s = s.masked_fill(~kmask, -INF)
    p = torch.softmax(s, -1).nan_to_num(0.0)
    ref = p @ v.float()
    close(out.float(), ref, 2e-2)


def check_fp6_pack():
    for n_groups, BL in ((37, 16), (128, 64)):
        codes = torch.randint(0, 64, (n_groups * 4,), generator=g, dtype=torch.uint8)
        packed = torch.full((n_groups * 3 + 2,), 0xAB, dtype=torch.uint8)
        K.fp6_pack_kernel[(triton.cdiv(n_groups, BL),)](codes, packed, n_groups, BLOCK=BL)
        c = codes.view(-1, 4).long()
        ref = torch.stack([(c[:, 0] << 2) | (c[:, 1] >> 4), ((c[:, 1] & 15) << 4) | (c[:, 2] >> 2),
                           ((c[:, 2] & 3) << 6) | c[:, 3]], 1).reshape(-1).to(torch.uint8)
        assert torch.equal(packed[:n_groups * 3], ref)
        assert (packed[n_groups * 3:] == 0xAB).all()
        back = torch.full_like(codes, 0xFF)
        vals = torch.full((n_groups * 4,), NAN, dtype=torch.float16)
        K.fp6_unpack_kernel[(triton.cdiv(n_groups, BL),)](packed, back, vals, n_groups, BLOCK=BL)
        assert torch.equal(back, codes)
        cl = codes.long()
        e = (cl >> 2) & 7
        m = (cl & 3).double()
        mag = torch.where(e == 0, m / 16, 2.0 ** (e - 3).double() * (1 + m / 4))
        refv = torch.where((cl >> 5) & 1 == 1, -mag, mag).half()
        assert torch.equal(vals, refv)


def bnb_code():
    pos = np.linspace(0, 1, 129) ** 2
    return np.sort(np.concatenate([-pos[1:128], pos])).astype(np.float32)


def check_quantize_blockwise():
    code = bnb_code()
    assert len(code) == 256
    for n, BS, SPLIT in ((1000, 64, 4), (4096, 256, 1)):
        a = torch.randn(n, generator=g) * 3
        out = torch.full((n,), 77, dtype=torch.uint8)
        nb = triton.cdiv(n, BS)
        absmax = torch.full((nb,), NAN)
        K.quantize_blockwise_kernel[(triton.cdiv(nb, SPLIT),)](a, torch.from_numpy(code), absmax, out, n,
                                                              BLOCK_SIZE=BS, SPLIT_NUM_BLOCKS=SPLIT)
        an = np.zeros(nb * BS, np.float32); an[:n] = a.numpy()
        blocks = an.reshape(nb, BS)
        am = np.abs(blocks).max(1)
        assert np.array_equal(absmax.numpy(), am)
        norm = np.clip(blocks / am[:, None], -1, 1).astype(np.float32)
        lo = np.zeros(norm.shape, np.int64); hi = np.full(norm.shape, 255)
        for _ in range(8):
            piv = (lo + hi) // 2
            up = norm > code[piv]
            lo = np.where(up, piv, lo); hi = np.where(up, hi, piv)
        q = np.where(np.abs(norm - code[hi]) <= np.abs(norm - code[lo]), hi, lo).reshape(-1)[:n]
        assert np.array_equal(out.numpy(), q.astype(np.uint8))
        # near enough to the nearest code everywhere
        err = np.abs(code[out.numpy()] - norm.reshape(-1)[:n])
        best = np.abs(code[None, :] - norm.reshape(-1)[:n, None]).min(1)
        assert (err <= best + 1e-6).all()


def check_int8_double_quant():
    for M, N, BM, BN, thr in ((50, 70, 16, 32, 2.5), (8, 256, 8, 128, 100.0)):
        x = torch.randn(M, N, generator=g).half()
        x[3, 5] = 9.0
        q = torch.full((M, N), 99, dtype=torch.int8)
        rs = torch.full((M,), NAN)
        cs = torch.zeros(N, dtype=torch.int32)
        oc = torch.zeros(N, dtype=torch.int32)
        K.int8_double_quant_kernel[(triton.cdiv(M, BM),)](x, q, rs, cs, oc, M, N, thr, BLOCK_M=BM, BLOCK_N=BN)
        xf = x.float().numpy()
        ax = np.abs(xf)
        inl = ax < thr
        rmax = np.where(inl, ax, 0).max(1)
        assert np.array_equal(rs.numpy(), rmax)
        inv = np.float32(127.0) / np.where(rmax == 0, np.float32(1), rmax)
        v = (xf * inv[:, None]).astype(np.float32)
        ref = np.where(inl, np.sign(v) * np.floor(np.abs(v) + 0.5), 0).astype(np.int8)
        assert np.array_equal(q.numpy(), ref)
        assert np.array_equal(cs.view(torch.float32).numpy(), np.where(inl, ax, 0).max(0))
        assert np.array_equal(oc.numpy(), (~inl).sum(0))


def check_bmm3d():
    cases = ((torch.int8, torch.int32, tl.int32, None, 5, 20, 40, 33),
             (torch.float64, torch.float64, tl.float64, None, 3, 17, 16, 20),
             (torch.bfloat16, torch.float32, tl.float32, None, 4, 32, 24, 64),
             (torch.float32, torch.float32, tl.float32, "ieee", 3, 20, 30, 40),
             ("e4m3", torch.float32, tl.float32, None, 2, 16, 16, 32))
    for dt, odt, acc_dt, prec, Bn, M, N, Kd in cases:
        if dt == "e4m3":  # bytes of e4m3 values (no NaN), decoded for the reference
            ab = torch.randint(0, 126, (2, Bn, 32, 32), generator=g, dtype=torch.uint8)
            ab |= torch.randint(0, 2, ab.shape, generator=g, dtype=torch.uint8) << 7
            dec = e4m3_decode(ab)
            a, b = ab[0, :, :M, :Kd].contiguous(), ab[1, :, :Kd, :N].contiguous()
            ad, bd = dec[0, :, :M, :Kd], dec[1, :, :Kd, :N]
            a, b = triton.reinterpret(a, tl.float8e4nv), triton.reinterpret(b, tl.float8e4nv)
        elif dt == torch.int8:
            a = torch.randint(-128, 128, (Bn, M, Kd), generator=g, dtype=torch.int8)
            b = torch.randint(-128, 128, (Bn, Kd, N), generator=g, dtype=torch.int8)
        else:
            a = torch.randn(Bn, M, Kd, generator=g).to(dt)
            b = torch.randn(Bn, Kd, N, generator=g).to(dt)
        c = torch.full((Bn, M, N), -7).to(odt)
        K.bmm3d_kernel[(triton.cdiv(Bn, 2), triton.cdiv(M, 16), triton.cdiv(N, 16))](
            a, b, c, Bn, M, N, Kd, ACC_DTYPE=acc_dt, PRECISION=prec, BLOCK_B=2, BLOCK_M=16, BLOCK_N=16,
            BLOCK_K=32 if dt in (torch.int8, "e4m3") else 16)  # Triton's K >= 32 for 8-bit operands
        if dt == "e4m3":
            close(c, (ad @ bd).float(), 1e-4)
        elif dt == torch.int8:
            assert torch.equal(c.cpu(), (a.cpu().long() @ b.cpu().long()).int())  # (CUDA has no int64 matmul)
        else:
            ref = a.double() @ b.double()
            close(c.double(), ref.to(odt).double(), 1e-12 if dt == torch.float64 else 1e-4)


def e4m3_decode(b):
    b = b.long()
    e, m = (b >> 3) & 15, (b & 7).double()
    mag = torch.where(e == 0, m / 8 * 2.0 ** -6, (1 + m / 8) * 2.0 ** (e - 7).double())
    return torch.where(b >= 128, -mag, mag)


def q4k_ref(raw):
    nb = raw.shape[0]
    d = raw[:, 0:2].copy().view(np.float16).astype(np.float32)[:, 0]
    dmin = raw[:, 2:4].copy().view(np.float16).astype(np.float32)[:, 0]
    sc8 = raw[:, 4:16].astype(np.int64)
    qs = raw[:, 16:].astype(np.int64)
    y = np.zeros((nb, 256), np.float32)
    for blk in range(nb):
        q = sc8[blk]
        for j in range(8):
            if j < 4:
                s, m = q[j] & 63, q[j + 4] & 63
            else:
                s = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4)
                m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4)
            d1 = np.float32(d[blk] * np.float32(s))
            m1 = np.float32(dmin[blk] * np.float32(m))
            c, h = j // 2, j % 2
            nib = (qs[blk, 32 * c:32 * c + 32] >> (4 * h)) & 0xF
            y[blk, 64 * c + 32 * h:64 * c + 32 * h + 32] = d1 * nib.astype(np.float32) - m1
    return y


def check_gguf_q4k():
    rng = np.random.default_rng(7)
    for nb, BPP in ((7, 4), (16, 8)):
        raw = rng.integers(0, 256, (nb, 144), dtype=np.uint8)
        raw[:, 0:2] = np.array([0.013], np.float16).view(np.uint8)
        raw[:, 2:4] = np.array([0.021], np.float16).view(np.uint8)
        raw[3, 0:2] = np.array([-0.5], np.float16).view(np.uint8)
        out = torch.full((nb, 256), NAN)
        K.gguf_q4k_dequant_kernel[(triton.cdiv(nb, BPP),)](torch.from_numpy(raw), out, nb, BLOCKS_PER_PROG=BPP)
        np.testing.assert_allclose(out.numpy(), q4k_ref(raw), rtol=1e-6, atol=1e-6)


def check_lookback_scan():
    for n, BL in ((1000, 64), (4096, 128), (10, 64)):
        x = torch.randint(-50, 50, (n,), generator=g, dtype=torch.int32)
        nb = triton.cdiv(n, BL)
        y = torch.full((n,), -1, dtype=torch.int32)
        flags = torch.zeros(nb, dtype=torch.int32)
        aggs = torch.zeros(nb, dtype=torch.int32)
        incl = torch.zeros(nb, dtype=torch.int32)
        ticket = torch.zeros(1, dtype=torch.int32)
        K.lookback_scan_kernel[(nb,)](x, y, flags, aggs, incl, ticket, n, BLOCK=BL)
        assert torch.equal(y, torch.cumsum(x, 0).int()), n
        assert (flags == 2).all() and int(ticket) == nb


def check_pack_bits():
    for n, BL in ((1000, 256), (64, 64), (95, 128)):
        m = torch.rand(n, generator=g) < 0.3
        nw = triton.cdiv(n, 32)
        words = torch.full((nw + 1,), 7, dtype=torch.int64).view(torch.int32)[:nw + 1].clone()
        words = torch.full((nw + 1,), 7, dtype=torch.int32)
        words_or = torch.full((nw + 1,), 7, dtype=torch.int32)
        popc = torch.full((nw + 1,), -1, dtype=torch.int32)
        back = torch.zeros(n, dtype=torch.bool)
        K.pack_bits_kernel[(triton.cdiv(n, BL),)](m, triton.reinterpret(words, tl.uint32),
                                                 triton.reinterpret(words_or, tl.uint32), popc, back, n, BLOCK=BL)
        mp = torch.zeros(nw * 32, dtype=torch.int64); mp[:n] = m.long()
        ref = (mp.view(nw, 32) << torch.arange(32)).sum(1)
        ref = torch.where(ref >= 2 ** 31, ref - 2 ** 32, ref).int()
        assert torch.equal(words[:nw], ref) and words[nw] == 7
        assert torch.equal(words_or[:nw], ref)
        assert torch.equal(popc[:nw], mp.view(nw, 32).sum(1).int())
        assert torch.equal(back, m)


def check_morton():
    rng = np.random.default_rng(11)
    n = 300
    xyz = rng.integers(0, 1024, (n, 3), dtype=np.uint32)
    xyz[0] = [1023, 1023, 1023]
    uv = rng.integers(0, 2 ** 63, n, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, n, dtype=np.uint64)
    uv[1] = np.uint64(2 ** 64 - 1)
    code3 = torch.zeros(n, dtype=torch.int32)
    code2 = torch.zeros(n, dtype=torch.int64)
    back = torch.zeros(n, dtype=torch.int64)
    K.morton_kernel[(triton.cdiv(n, 128),)](triton.reinterpret(torch.from_numpy(xyz.view(np.int32)), tl.uint32),
                                           triton.reinterpret(code3, tl.uint32),
                                           triton.reinterpret(torch.from_numpy(uv.view(np.int64)), tl.uint64),
                                           triton.reinterpret(code2, tl.uint64), triton.reinterpret(back, tl.uint64),
                                           n, BLOCK=128)
    ref3 = np.zeros(n, np.uint64)
    ref2 = np.zeros(n, object)
    for i in range(n):
        c = 0
        for bit in range(10):
            for ax in range(3):
                c |= ((int(xyz[i, ax]) >> bit) & 1) << (3 * bit + ax)
        ref3[i] = c
        u, v = int(uv[i]) & 0xFFFFFFFF, int(uv[i]) >> 32
        c = 0
        for bit in range(32):
            c |= ((u >> bit) & 1) << (2 * bit) | ((v >> bit) & 1) << (2 * bit + 1)
        ref2[i] = c
    assert np.array_equal(code3.numpy().view(np.uint32).astype(np.uint64), ref3)
    assert np.array_equal(code2.numpy().view(np.uint64), np.array(ref2, dtype=np.uint64))
    assert np.array_equal(back.numpy().view(np.uint64), uv ^ np.uint64(0xFFFFFFFF00000000))


def check_moe_sort():
    for T, TOPK, E, BL in ((37, 2, 8, 128), (64, 4, 16, 256), (1, 1, 4, 16)):
        n = T * TOPK
        ids = torch.stack([torch.randperm(E, generator=g)[:TOPK] for _ in range(T)]).to(torch.int32).reshape(-1)
        sorted_ids = torch.full((BL,), -3, dtype=torch.int32)
        offsets = torch.full((E + 1,), -3, dtype=torch.int32)
        dest = torch.full((n,), -3, dtype=torch.int32)
        K.moe_sort_kernel[(1,)](ids, sorted_ids, offsets, dest, n, E=E, BLOCK=BL, TOPK=TOPK)
        order = torch.argsort(ids.long() * n + torch.arange(n))
        assert torch.equal(sorted_ids[:n], (order // TOPK).int())
        assert (sorted_ids[n:] == -3).all()
        cnt = torch.bincount(ids.long(), minlength=E)
        assert torch.equal(offsets, torch.cat([torch.zeros(1, dtype=torch.long), torch.cumsum(cnt, 0)]).int())
        inv = torch.empty(n, dtype=torch.long); inv[order] = torch.arange(n)
        assert torch.equal(dest.long(), inv)


def check_suffix_argmax_3d():
    for dt in (torch.float16, torch.int32):
        A, B, C = 4, 16, 8
        x = torch.randint(-4, 5, (A, B, C), generator=g).to(dt)
        v = torch.empty_like(x); i = torch.empty(A, B, C, dtype=torch.int32)
        K.suffix_argmax_3d_kernel[(1,)](x, v, i, A=A, B=B, C=C)
        xs = x.float()
        rv = torch.empty_like(xs); ri = torch.empty(A, B, C, dtype=torch.int32)
        for b in range(B):
            seg = xs[:, b:, :]
            mx = seg.max(1).values
            rv[:, b, :] = mx
            ri[:, b, :] = (seg == mx[:, None, :]).int().argmax(1) + b
        assert torch.equal(v.float(), rv) and torch.equal(i, ri)


def check_reduce_payload_axis0():
    for A, BLA in ((5, 8), (16, 16)):
        B, C = 4, 32
        x = torch.randint(-3, 3, (A, B, C), generator=g).float()
        w = torch.randn(A, B, C, generator=g).half()
        v = torch.empty(B, C); wo = torch.empty(B, C, dtype=torch.float16); i = torch.empty(B, C, dtype=torch.int64)
        K.reduce_payload_axis0_kernel[(1,)](x, w, v, wo, i, A, B=B, C=C, BLOCK_A=BLA)
        mx = x.max(0).values
        ri = (x == mx[None]).int().argmax(0)
        assert torch.equal(v, mx) and torch.equal(i, ri)
        assert torch.equal(wo, w.gather(0, ri[None])[0])


def check_scan_dtypes_3d():
    A, B, C = 8, 4, 16
    x16 = torch.randn(A, B, C, generator=g).half()
    x8 = torch.randint(-128, 128, (A, B, C), generator=g, dtype=torch.int8)
    x64 = torch.randint(-2, 3, (A, B, C), generator=g, dtype=torch.int64)
    cs = torch.empty(A, B, C); cs8 = torch.empty(A, B, C, dtype=torch.int32)
    cp = torch.empty(A, B, C, dtype=torch.int64); s8 = torch.empty(A, C, dtype=torch.int64)
    K.scan_dtypes_3d_kernel[(1,)](x16, x8, x64, cs, cs8, cp, s8, A=A, B=B, C=C)
    close(cs, torch.cumsum(x16.float(), 0), 1e-3)
    assert torch.equal(cs8, torch.cumsum(x8.int(), 2).int())
    assert torch.equal(cp, torch.flip(torch.cumprod(torch.flip(x64, [1]), 1), [1]))
    assert torch.equal(s8, x8.long().sum(1))


def check_gather_3d():
    A, B, B2, C = 4, 16, 8, 32
    x = torch.randn(A, B, C, generator=g)
    idx = torch.randint(0, B, (A, B2, C), generator=g)
    out = torch.empty(A, B2, C)
    K.gather_3d_kernel[(1,)](x, idx, out, A=A, B=B, B2=B2, C=C)
    assert torch.equal(out, torch.gather(x, 1, idx))


def check_sort_rows():
    for dt, desc in ((torch.uint8, False), (torch.int16, True), (torch.bfloat16, False), (torch.bfloat16, True)):
        R, C = 10, 64
        if dt == torch.uint8:
            x = torch.randint(0, 256, (R, C), generator=g, dtype=torch.uint8)
        elif dt == torch.int16:
            x = torch.randint(-2 ** 15, 2 ** 15, (R, C), generator=g, dtype=torch.int16)
        else:
            x = (torch.randn(R, C, generator=g) * 100).to(dt)
            x[0, :5] = torch.tensor([INF, -INF, 0.0, -0.0, 1e-40]).to(dt)
        out = torch.empty_like(x)
        K.sort_rows_kernel[(triton.cdiv(R, 4),)](x, out, R, C=C, BLOCK_R=4, DESCENDING=desc)
        ref = torch.sort(x.float() if dt == torch.uint8 else x, 1, descending=desc).values.to(dt)
        assert torch.equal(out.float(), ref.float()), dt


def entmax15_ref(z):
    z = z.double() / 2
    zs = torch.sort(z, descending=True).values
    k = torch.arange(1, len(z) + 1, dtype=torch.float64)
    mean = torch.cumsum(zs, 0) / k
    ss = torch.cumsum(zs * zs, 0) / k
    delta = (1 - k * (ss - mean * mean)) / k
    tau = mean - torch.sqrt(delta.clamp_min(0))
    supp = int((tau <= zs).sum())
    t = tau[supp - 1]
    return (z - t).clamp_min(0) ** 2


def check_entmax15():
    R, N = 6, 50
    x = torch.randn(R, N, generator=g) * 3
    x[1] = 0.0
    out = torch.empty(R, N); iters = torch.empty(R, dtype=torch.int32)
    K.entmax15_bisect_kernel[(R,)](x, out, iters, N, 1e-6, 60, BLOCK=64)
    for r in range(R):
        close(out[r].double(), entmax15_ref(x[r]), 2e-5)
        assert 1 <= int(iters[r]) <= 60
    K.entmax15_bisect_kernel[(R,)](x, out, iters, N, 1e-6, 3, BLOCK=64)
    assert (iters == 3).all()


def check_joint_hist():
    for n, BL in ((5000, 1024), (77, 128)):
        a = torch.randint(0, 256, (n,), generator=g, dtype=torch.uint8)
        b = torch.randint(0, 256, (n,), generator=g, dtype=torch.uint8)
        hist = torch.zeros(256, dtype=torch.int32)
        K.joint_hist_kernel[(triton.cdiv(n, BL),)](a, b, hist, n, BLOCK=BL)
        ref = torch.bincount((a.long() >> 4) * 16 + (b.long() >> 4), minlength=256)
        assert torch.equal(hist.long(), ref)


def check_libdevice_zoo():
    names = ["acos", "acosh", "atanh", "cbrt", "copysign", "fmax", "fmin", "exp2", "log2", "tan", "ceil", "floor",
             "hypot", "sin", "cos", "exp", "log", "sqrt", "rsqrt", "abs", "asinh", "cosh"]
    for dt, ulps in ((torch.float32, 4), (torch.float64, 8)):
        n = 333
        x = torch.rand(n, generator=g, dtype=torch.float64) * 1.98 - 0.99
        y = torch.rand(n, generator=g, dtype=torch.float64) * 3 + 1
        x[:4] = torch.tensor([0.0, -0.0, 0.5, -0.95], dtype=torch.float64)
        x, y = x.to(dt), y.to(dt)
        out = torch.full((len(names), n), NAN, dtype=dt)
        K.libdevice_zoo_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
        X, Y = x.double().numpy(), y.double().numpy()
        refs = [np.arccos(X), np.arccosh(Y), np.arctanh(X), np.cbrt((x * 8.0 - 3.0).double().numpy()),
                np.copysign(Y, X), np.fmax(X, (y - 2.0).double().numpy()), np.fmin(X, (y - 2.0).double().numpy()),
                np.exp2((y * 3.0).double().numpy()), np.log2(Y), np.tan(X), np.ceil((x * 10.0).double().numpy()),
                np.floor((x * 10.0).double().numpy()), np.hypot(X, Y), np.sin(Y), np.cos(Y), np.exp(X), np.log(Y),
                np.sqrt(Y), 1 / np.sqrt(Y), np.abs(X), np.arcsinh((x * 5.0).double().numpy()), np.cosh(X)]
        eps = np.finfo(np.float32 if dt == torch.float32 else np.float64).eps
        for i, (nm, r) in enumerate(zip(names, refs)):
            got = out[i].double().numpy()
            tol = ulps * eps * np.maximum(np.abs(r), 1e-30) + (1e-12 if dt == torch.float64 else 1e-30)
            bad = np.abs(got - r) > tol
            assert not bad.any(), (dt, nm, X[bad][:3], got[bad][:3], r[bad][:3])
        assert torch.equal(torch.signbit(out[4]), torch.signbit(x)), "copysign keeps -0.0's sign"


def c_div(a, b):
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def check_shift_div():
    n = 200
    rng = np.random.default_rng(5)
    a8 = rng.integers(-128, 128, n).astype(np.int8)
    a16 = rng.integers(-2 ** 15, 2 ** 15, n).astype(np.int16)
    a64 = rng.integers(-2 ** 63, 2 ** 63, n, dtype=np.int64)
    u = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    s = rng.integers(0, 8, n).astype(np.int8)
    a8[:4] = [-128, -1, 127, -7]
    a64[:3] = [-2 ** 63, -1, 2 ** 63 - 1]
    u[:2] = [0xFFFFFFFF, 0x80000000]
    for d in (-7, 5):
        o8 = torch.zeros(8, n, dtype=torch.int8); o32 = torch.zeros(8, n, dtype=torch.int32)
        o64 = torch.zeros(8, n, dtype=torch.int64); ou = torch.zeros(8, n, dtype=torch.int32)
        K.shift_div_kernel[(triton.cdiv(n, 64),)](torch.from_numpy(a8), torch.from_numpy(a16), torch.from_numpy(a64),
                                                 triton.reinterpret(torch.from_numpy(u.view(np.int32)), tl.uint32),
                                                 torch.from_numpy(s), o8, o32, o64, triton.reinterpret(ou, tl.uint32),
                                                 d, n, BLOCK=64)
        A8, S = a8.astype(np.int64), s.astype(np.int64)
        w8 = lambda v: (np.asarray(v, np.int64) & 0xFF).astype(np.uint8).view(np.int8)  # noqa: E731
        r8 = [A8 >> S, w8(A8 << S), c_div(A8, 3), np.fmod(A8, 3), c_div(A8, -3), np.fmod(A8, -3), A8 >> 7,
              w8(A8 << 7).astype(np.int64) >> 7]
        for i, r in enumerate(r8):
            assert np.array_equal(o8[i].numpy().astype(np.int64), w8(r).astype(np.int64)), ("i8", i)
        A16 = a16.astype(np.int64)
        w16 = lambda v: (np.asarray(v, np.int64) & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64)  # noqa
        r32 = [c_div(A8, d), np.fmod(A8, d), A8 << S, A16 >> (S + 8), A16 << (S + 8), c_div(A16, d), np.fmod(A16, d),
               w16(A8 * A16)]
        for i, r in enumerate(r32):
            assert np.array_equal(o32[i].numpy().astype(np.int64), r), ("i32", i)
        A64 = [int(v) for v in a64]
        wrap64 = lambda v: ((v + 2 ** 63) % 2 ** 64) - 2 ** 63  # noqa: E731

        def cdiv_py(a, b):
            q = abs(a) // abs(b)
            return -q if (a < 0) != (b < 0) else q
        r64 = [[wrap64(a << (int(sv) + 32)) for a, sv in zip(A64, s)], [a >> (int(sv) + 56) for a, sv in zip(A64, s)],
               [wrap64(a << 60) >> 60 if wrap64(a << 60) >= 0 else wrap64(a << 60) >> 60 for a in A64],
               [a >> 63 for a in A64], [cdiv_py(a, d) for a in A64], [a - cdiv_py(a, d) * d for a in A64],
               [cdiv_py(a, -1000000007) for a in A64], [a - cdiv_py(a, 1000000007) * 1000000007 for a in A64]]
        for i, r in enumerate(r64):
            assert [int(v) for v in o64[i]] == r, ("i64", i)
        U = [int(v) for v in u]
        m32 = 0xFFFFFFFF
        ru = [[v >> 31 for v in U], [v >> (int(sv) + 24) for v, sv in zip(U, s)],
              [(v << (int(sv) + 24)) & m32 for v, sv in zip(U, s)], [v // 7 for v in U], [v % 7 for v in U],
              [((v * 2654435761) & m32) >> 16 for v in U], [v // (int(sv) + 1) for v, sv in zip(U, s)],
              [(v * v) >> 32 for v in U]]
        for i, r in enumerate(ru):
            assert [int(v) & m32 for v in ou[i]] == r, ("u32", i)


def check_mixed_sign():
    n = 100
    rng = np.random.default_rng(9)
    u8 = rng.integers(0, 256, n).astype(np.uint8)
    i8 = rng.integers(-128, 128, n).astype(np.int8)
    u16 = rng.integers(0, 2 ** 16, n).astype(np.uint16)
    i32 = rng.integers(-2 ** 31, 2 ** 31, n).astype(np.int32)
    u32 = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    i64 = rng.integers(-2 ** 40, 2 ** 40, n).astype(np.int64)
    i32[:3] = [-1, -2 ** 31, 0]
    u32[:3] = [5, 0x80000000, 0]
    out = torch.zeros(13, n, dtype=torch.int64)
    T = torch.from_numpy
    K.mixed_sign_kernel[(triton.cdiv(n, 64),)](T(u8), T(i8), triton.reinterpret(T(u16.view(np.int16)), tl.uint16),
                                              T(i32), triton.reinterpret(T(u32.view(np.int32)), tl.uint32), T(i64),
                                              out, n, BLOCK=64)
    U8, I8, U16, I32, U32, I64 = (v.astype(np.int64) for v in (u8, i8, u16, i32, u32, i64))
    as_u32 = I32 & 0xFFFFFFFF
    i8_u32 = I8 & 0xFFFFFFFF
    ref = [(U8 * (I8 & 0xFF)) & 0xFF, U8 + I32, (i8_u32 + U32) & 0xFFFFFFFF, U32 - I64, (as_u32 < U32).astype(np.int64),
           np.maximum(as_u32, U32), (U16 - (I8 & 0xFFFF)) & 0xFFFF, U32 >> 1, I32 >> 1, i8_u32, U8.astype(np.uint8).view(np.int8).astype(np.int64),
           (-I32) & 0xFFFFFFFF, U32 // 3]
    ref[1] = ((ref[1] + 2 ** 31) % 2 ** 32) - 2 ** 31
    for i, r in enumerate(ref):
        assert np.array_equal(out[i].numpy(), r), i


def check_persistent_ieee_gemm():
    for M, N, Kd, progs in ((50, 70, 48, 3), (33, 17, 20, 8), (64, 64, 64, 1)):
        a = torch.randn(M, Kd, generator=g); b = torch.randn(Kd, N, generator=g)
        c = torch.full((M, N), NAN)
        K.persistent_ieee_gemm_kernel[(progs,)](a, b, c, M, N, Kd, progs)
        close(c, a @ b, 1e-4)


def check_block_ptr_bmm():
    for Bn, M, N, Kd in ((3, 40, 24, 50), (2, 16, 32, 16)):
        x = torch.randn(Bn, M, Kd, generator=g).half()
        wt = torch.randn(N, Kd, generator=g).half()  # w = wt.T, column-major
        y = torch.full((Bn, M, N), NAN, dtype=torch.float16)
        K.block_ptr_bmm_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16), Bn)](x, wt, y, Bn, M, N, Kd,
                                                                             BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
        close(y.float(), (x.float() @ wt.float().T).half().float(), 1e-2)


def check_desc_grouped_gemm():
    N, Kd = 40, 48
    Ms = [30, 0, 65, 7]
    As = [torch.randn(m, Kd, generator=g).half() for m in Ms]
    Bs = [torch.randn(Kd, N, generator=g).half() for _ in Ms]
    Cs = [torch.full((m, N), NAN) for m in Ms]
    ptr = lambda ts: torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64)  # noqa: E731
    for progs in (3, 5):
        for c in Cs:
            c.fill_(NAN)
        K.desc_grouped_gemm_kernel[(progs,)](ptr(As), ptr(Bs), ptr(Cs), torch.tensor(Ms, dtype=torch.int32), N, Kd,
                                             len(Ms), progs, BLOCK_M=32, BLOCK_N=16, BLOCK_K=16)
        for a, b, c in zip(As, Bs, Cs):
            close(c, a.float() @ b.float(), 1e-3)


def check_first_stop():
    R, L, BL = 6, 100, 16
    toks = torch.randint(0, 50, (R, L), generator=g, dtype=torch.int32)
    stops = torch.tensor([3, 7, 11], dtype=torch.int32)
    toks[toks == 3] = 4; toks[toks == 7] = 8; toks[toks == 11] = 12
    toks[0, 40] = 7; toks[0, 90] = 3
    toks[2, 99] = 11
    toks[3, 5] = 3; toks[3, 20] = 3
    toks[4, 0] = 11
    start = torch.tensor([0, 10, 60, 6, 0, 150], dtype=torch.int32)
    first = torch.full((R,), -9, dtype=torch.int32); count = torch.full((R,), -9, dtype=torch.int32)
    K.first_stop_kernel[(R,)](toks, start, stops, first, count, L, len(stops), BLOCK=BL)
    for r in range(R):
        s = int(start[r])
        hits = [i for i in range(s, L) if int(toks[r, i]) in (3, 7, 11)]
        f = hits[0] if hits else L
        assert int(first[r]) == f, (r, int(first[r]), f)
        exp_chunks = 0 if s >= L else ((f - s) // BL + 1 if hits else triton.cdiv(L - s, BL))
        assert int(count[r]) == exp_chunks, (r, int(count[r]), exp_chunks)


def check_horner_exp():
    n = 500
    x = torch.rand(n, generator=g, dtype=torch.float64) * 2 - 1
    out = torch.empty(n, dtype=torch.float64)
    K.horner_exp_kernel[(triton.cdiv(n, 128),)](x.float(), out, n, DEG=14, BLOCK=128)
    close(out, torch.exp(x.float().double()), 1e-14)


def check_index_add_fp16():
    for dt in (torch.float16, torch.bfloat16):
        V, D, n = 20, 50, 300
        idx = torch.randint(0, V, (n,), generator=g)
        src = (torch.randint(-8, 8, (n, D), generator=g) * 0.25).to(dt)
        out = (torch.randint(-8, 8, (V, D), generator=g) * 0.5).to(dt)
        ref = out.float().index_add(0, idx, src.float()).to(dt)
        K.index_add_fp16_kernel[(triton.cdiv(n, 32), triton.cdiv(D, 32))](out, idx, src, n, D, BLOCK_N=32, BLOCK_D=32)
        assert torch.equal(out, ref), dt


def check_swin_partition():
    for B, H, W, WS, C, shift in ((2, 16, 8, 4, 8, 2), (1, 32, 64, 8, 16, 3)):
        if (H // WS) % 2 or (W // WS) % 2:
            continue
        x = torch.randn(B, H, W, C, generator=g)
        out = torch.full((B * (H // WS) * (W // WS), WS * WS, C), NAN)
        K.swin_partition_kernel[(B, H // (2 * WS), W // (2 * WS))](x, out, H, W, shift, WS=WS, C=C)
        xr = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
        ref = xr.view(B, H // WS, WS, W // WS, WS, C).permute(0, 1, 3, 2, 4, 5).reshape(-1, WS * WS, C)
        assert torch.equal(out, ref)


def check_small_dot():
    for dt, odt, BM, BR, BK, M, Kd, R in ((torch.float16, tl.float32, 16, 8, 32, 37, 100, 8),
                                         (torch.bfloat16, tl.float32, 4, 16, 16, 10, 64, 16),
                                         (torch.float32, tl.float32, 1, 8, 16, 3, 40, 5),
                                         (torch.int8, tl.int32, 8, 8, 32, 20, 96, 8),
                                         (torch.float16, tl.float32, 2, 4, 64, 5, 64, 4)):
        if dt == torch.int8:
            x = torch.randint(-100, 100, (M, Kd), generator=g, dtype=torch.int8)
            w = torch.randint(-100, 100, (R, Kd), generator=g, dtype=torch.int8)
        else:
            x = torch.randn(M, Kd, generator=g).to(dt)
            w = torch.randn(R, Kd, generator=g).to(dt)
        out = torch.full((M, R), -7, dtype=torch.int32 if dt == torch.int8 else torch.float32)
        K.small_dot_kernel[(triton.cdiv(M, BM),)](x, w, out, M, Kd, R, OUT_DTYPE=odt, BLOCK_M=BM, BLOCK_R=BR, BLOCK_K=BK)
        if dt == torch.int8:
            # (on the CPU: CUDA has no int64 matmul, where the GPU run makes its tensors)
            assert torch.equal(out.cpu(), (x.cpu().long() @ w.cpu().long().T).int())
        else:
            close(out, x.float() @ w.float().T, 1e-3)


def check_divmagic():
    n = 300
    rng = np.random.default_rng(21)
    u = rng.integers(0, 2 ** 64, n, dtype=np.uint64)
    i = rng.integers(-2 ** 63, 2 ** 63, n, dtype=np.int64)
    u32 = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    i32 = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
    i16 = rng.integers(-2 ** 15, 2 ** 15, n).astype(np.int16)
    u[:6] = [0, 2 ** 64 - 1, 2 ** 63 + 5, 2 ** 63 + 4, 10 ** 19, 9]
    i[:6] = [-2 ** 63, 2 ** 63 - 1, -1, -7, 1099511627777, -1099511627778]
    u32[:4] = [0xFFFFFFFF, 0x80000001, 0x80000000, 0xFFFFFFFE]
    i32[:4] = [-2 ** 31, 2 ** 31 - 1, -2147483647, -641]
    i16[:3] = [-2 ** 15, 2 ** 15 - 1, -128]
    ou = torch.zeros(13, n, dtype=torch.int64); oi = torch.zeros(16, n, dtype=torch.int64)
    dg = torch.zeros(20, n, dtype=torch.uint8)
    T = torch.from_numpy
    K.divmagic_kernel[(triton.cdiv(n, 128),)](triton.reinterpret(T(u.view(np.int64)), tl.uint64), T(i),
                                             triton.reinterpret(T(u32.view(np.int32)), tl.uint32), T(i32), T(i16),
                                             triton.reinterpret(ou, tl.uint64), oi, dg, n, BLOCK=128)
    U = [int(v) for v in u]
    U32 = [int(v) for v in u32]
    big = 0x8000000000000005
    ru = [[v // 10 for v in U], [v % 10 for v in U], [v // 1000000007 for v in U], [v % 1000000007 for v in U],
          [v // big for v in U], [v % big for v in U], [v // 3 for v in U], [v // 4096 for v in U], [v % 4096 for v in U],
          [v // 7 for v in U32], [v % 641 for v in U32], [v // 0xFFFFFFFF for v in U32], [v // 0x80000001 for v in U32]]
    got = ou.numpy().view(np.uint64)
    for k, r in enumerate(ru):
        assert [int(v) for v in got[k]] == r, ("u", k)

    def cdiv(a, b):
        q = abs(a) // abs(b)
        return -q if (a < 0) != (b < 0) else q

    def cmod(a, b):
        return a - cdiv(a, b) * b
    I, I32, I16 = [int(v) for v in i], [int(v) for v in i32], [int(v) for v in i16]
    D = 1099511627777
    ri = [[cdiv(v, 7) for v in I], [cmod(v, 7) for v in I], [cdiv(v, -7) for v in I], [cmod(v, -7) for v in I],
          [cdiv(v, D) for v in I], [cmod(v, D) for v in I], [cdiv(v, 2) for v in I], [cmod(v, 2) for v in I],
          [cdiv(v, -4096) for v in I], [cdiv(v, 641) for v in I32], [cmod(v, -641) for v in I32], I32,
          [cdiv(v, -2147483647) for v in I32], [cdiv(v, 3) for v in I16], [cmod(v, 10) for v in I16],
          [cdiv(v, -128) for v in I16]]
    for k, r in enumerate(ri):
        assert [int(v) for v in oi[k]] == r, ("i", k)
    for k in range(20):
        assert [int(v) for v in dg[k]] == [(v // 10 ** k) % 10 for v in U], ("digit", k)


def check_byte_buffer():
    n, REC = 77, 16
    rng = np.random.default_rng(3)
    buf = np.zeros((n, REC), np.uint8)
    h = rng.standard_normal(n).astype(np.float16)
    v = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
    f = rng.standard_normal(n).astype(np.float32)
    buf[:, 0:2] = h.view(np.uint8).reshape(n, 2)
    buf[:, 4:8] = v.view(np.uint8).reshape(n, 4)
    buf[:, 8:12] = f.view(np.uint8).reshape(n, 4)
    buf[:, 12:] = 0xEE
    tb = torch.from_numpy(buf.copy()).reshape(-1)
    oh = torch.empty(n, dtype=torch.float16); ov = torch.empty(n, dtype=torch.int32); of = torch.empty(n)
    K.byte_buffer_kernel[(triton.cdiv(n, 32),)](tb, oh, ov, of, n, REC_BYTES=REC, BLOCK=32)
    assert np.array_equal(oh.numpy(), (h * np.float16(2)))
    assert np.array_equal(ov.numpy(), (v.astype(np.int64) - 1).astype(np.int32) if True else None)
    assert np.array_equal(of.numpy(), f + h.astype(np.float32))
    nb = tb.numpy().reshape(n, REC)
    assert np.array_equal(nb[:, 8:12].copy().view(np.float32)[:, 0], f * np.float32(0.5))
    assert np.array_equal(nb[:, 2:4].copy().view(np.int16)[:, 0], (v & 0x7FFF).astype(np.int16))
    assert np.array_equal(nb[:, 0:2], buf[:, 0:2]) and np.array_equal(nb[:, 4:8], buf[:, 4:8])
    assert (nb[:, 12:] == 0xEE).all()


def check_sort_wide():
    R, C, Kk = 5, 32, 8
    rng = np.random.default_rng(8)
    cases = [(torch.from_numpy(rng.integers(-2 ** 63, 2 ** 63, (R, C), dtype=np.int64)), None, False),
             (torch.from_numpy(rng.integers(0, 2 ** 64, (R, C), dtype=np.uint64).view(np.int64)), tl.uint64, True),
             (torch.randn(R, C, generator=g, dtype=torch.float64), None, True)]
    for x, view, desc in cases:
        out = torch.empty_like(x); tk = torch.empty(R, Kk, dtype=x.dtype)
        args = [triton.reinterpret(t, view) if view is not None else t for t in (x, out, tk)]
        K.sort_wide_kernel[(triton.cdiv(R, 2),)](*args, R, C=C, K=Kk, BLOCK_R=2, DESCENDING=desc)
        if view is not None:  # uint64 ordering
            key = lambda t: t.numpy().view(np.uint64)  # noqa: E731
            ref = np.sort(key(x), 1)[:, ::-1] if desc else np.sort(key(x), 1)
            assert np.array_equal(key(out), ref)
            assert np.array_equal(key(tk), np.sort(key(x), 1)[:, ::-1][:, :Kk])
        else:
            assert torch.equal(out, torch.sort(x, 1, descending=desc).values)
            assert torch.equal(tk, torch.sort(x, 1, descending=True).values[:, :Kk])


def check_reverse_loops():
    for n, BL in ((100, 32), (64, 64), (5, 16)):
        x = torch.randn(n, generator=g)
        y = torch.full((n,), NAN); fib = torch.zeros(1, dtype=torch.int32)
        K.reverse_loops_kernel[(1,)](x, y, triton.reinterpret(fib, tl.uint32), n, triton.cdiv(n, BL), BLOCK=BL)
        close(y, torch.flip(torch.cumsum(torch.flip(x, [0]), 0), [0]), 1e-5)
        a, c = 0, 1
        for _ in range(n):
            a, c = c, (a + c) % 2 ** 32
        assert int(fib.view(torch.int32)) & 0xFFFFFFFF == a


def check_atomics_wide():
    n = 300
    rng = np.random.default_rng(13)
    vals = rng.integers(0, 2 ** 64, n, dtype=np.uint64)
    idx = rng.integers(0, 8, n).astype(np.int32)
    u64 = np.concatenate([np.zeros(8, np.uint64), np.full(8, 2 ** 64 - 1, np.uint64)])
    # atomic_cas takes no mask: its slots run to the last block's end
    i64 = np.concatenate([np.zeros(8, np.int64), np.full(triton.cdiv(n, 64) * 64, -1, np.int64)])
    u32 = np.concatenate([np.zeros(16, np.uint32), np.full(8, 0xFFFFFFFF, np.uint32)])
    tu64 = torch.from_numpy(u64.view(np.int64).copy()); ti64 = torch.from_numpy(i64.copy())
    tu32 = torch.from_numpy(u32.view(np.int32).copy()); tf = torch.full((n,), NAN)
    old = torch.full((n,), 99, dtype=torch.int64)
    K.atomics_wide_kernel[(triton.cdiv(n, 64),)](triton.reinterpret(tu64, tl.uint64), ti64,
                                                triton.reinterpret(tu32, tl.uint32), tf, old,
                                                triton.reinterpret(torch.from_numpy(vals.view(np.int64)), tl.uint64),
                                                torch.from_numpy(idx), n, BLOCK=64)
    gu = tu64.numpy().view(np.uint64)
    for j in range(8):
        sel = vals[idx == j]
        assert gu[j] == (sel.max() if len(sel) else 0) and gu[8 + j] == (sel.min() if len(sel) else 2 ** 64 - 1), j
        assert ti64[j] == sum(int(v) - (2 ** 64 if v >= 2 ** 63 else 0) >> 40 for v in sel), j
        x = 0; o = 0; a = 0xFFFFFFFF
        for k in np.nonzero(idx == j)[0]:
            x ^= int(vals[k]) & 0xFFFFFFFF
            o |= (int(vals[k]) >> 32) & 0xF0F0F0F0
            a &= ~(1 << (k % 32)) & 0xFFFFFFFF
        g32 = tu32.numpy().view(np.uint32)
        assert (g32[j], g32[8 + j], g32[16 + j]) == (x, o, a), j
    assert torch.equal(tf, torch.arange(n).float() * 0.5)
    assert (old == 0).all()
    assert np.array_equal(ti64[8:8 + n].numpy(), (vals & np.uint64(0xFFFF)).astype(np.int64))
    assert (ti64[8 + n:] == 0).all()  # the masked lanes' value (other=0)


def check_seg_suffix_axis0():
    R, C = 32, 16
    f = (torch.rand(R, C, generator=g) < 0.2).to(torch.int8)
    x = torch.randint(-4, 5, (R, C), generator=g).half()
    out = torch.empty(R, C, dtype=torch.float16); cnt = torch.empty(R, C, dtype=torch.int64)
    K.seg_suffix_axis0_kernel[(1,)](f, x, out, cnt, R=R, C=C)
    ref = torch.empty(R, C); rc = torch.empty(R, C, dtype=torch.int64)
    for c in range(C):
        for r in range(R):
            e = r
            while e < R - 1 and not f[e, c]:
                e += 1
            ref[r, c] = x[r:e + 1, c].float().sum()
            rc[r, c] = e + 1 - r
    assert torch.equal(out.float(), ref) and torch.equal(cnt, rc)


def check_hist_gather_dtypes():
    n, BINS, BL = 200, 16, 256
    x64 = torch.randint(0, BINS, (n,), generator=g)
    x8 = torch.randint(0, 256, (n,), generator=g, dtype=torch.uint8)
    src = torch.randn(BL, generator=g)
    i16 = torch.randint(0, BL, (BL,), generator=g, dtype=torch.int16)
    h64 = torch.empty(BINS, dtype=torch.int32); h8 = torch.empty(256, dtype=torch.int32); gg = torch.empty(BL)
    K.hist_gather_dtypes_kernel[(1,)](x64, x8, src, i16, h64, h8, gg, n, BINS=BINS, BLOCK=BL)
    assert torch.equal(h64.long(), torch.bincount(x64, minlength=BINS))
    assert torch.equal(h8.long(), torch.bincount(x8.long(), minlength=256))
    assert torch.equal(gg, src[i16.long()])


def check_scalar_promotion():
    n = 100
    x16 = torch.randn(n, generator=g).half(); b16 = torch.randn(n, generator=g).bfloat16()
    i8 = torch.randint(-100, 100, (n,), generator=g, dtype=torch.int8); f32 = torch.randn(n, generator=g)
    s32, s64, k32, k64 = 1.0 / 3, 1.0 / 7, 11, 2 ** 40 + 3
    outs = [torch.empty(n), torch.empty(n, dtype=torch.bfloat16), torch.empty(n), torch.empty(n, dtype=torch.float64),
            torch.empty(n, dtype=torch.int64), torch.empty(n, dtype=torch.int32)]
    K.scalar_promotion_kernel[(triton.cdiv(n, 64),)](x16, b16, i8, f32, s32, s64, k32, k64, *outs, n, BLOCK=64)
    f = np.float32
    assert np.array_equal(outs[0].numpy(), x16.float().numpy() * f(s32))
    close(outs[1].float(), (b16 * 0.1 + 1.5).float(), 1e-2)
    assert np.array_equal(outs[2].numpy(), i8.numpy().astype(f) * f(s32))
    close(outs[3], f32.double() * s64, 1e-7)
    assert torch.equal(outs[4], i8.long() + k64)
    A = (i8.numpy() * np.int8(3)).astype(np.int64) - k32  # i8 * 3 wraps in int8 (the literal adopts it)
    assert np.array_equal(outs[5].numpy(), np.where((A < 0) & (A % 2 != 0), A // 2 + 1, A // 2))


def check_argmax_3d():
    A, B, C = 4, 16, 8
    x = torch.randint(-3, 4, (A, B, C), generator=g).float()
    vmax = torch.empty(A, C); imax = torch.empty(A, C, dtype=torch.int32); imin = torch.empty(A, B, dtype=torch.int32)
    K.argmax_3d_kernel[(1,)](x, vmax, imax, imin, A=A, B=B, C=C)
    for a in range(A):
        for c in range(C):
            col = x[a, :, c]
            mx = col.max()
            # tie_break_left=False promises some index of a maximum (the CPU
            # gives the last, the GPU's shuffle tree another one)
            assert vmax[a, c] == mx and col[int(imax[a, c])] == mx, (a, c)
        for b in range(B):
            row = x[a, b, :]
            want = int((row == row.min()).nonzero()[0])
            assert imin[a, b] == want, (a, b, row, imin[a, b])


def check_desc4d_loop():
    for B, H, T, D, BT in ((2, 3, 52, 32, 16), (1, 2, 64, 16, 32)):  # T * 4 bytes: a 16-byte stride
        x = torch.randn(B, H, T, D, generator=g)
        y = torch.full((B, H, D, T), NAN)
        K.desc4d_loop_kernel[(B * H,)](x, y, B, H, T, D=D, BT=BT)
        assert torch.equal(y, (x * 2).transpose(2, 3))


def check_while_if_dot():
    N = 16
    Am = torch.randn(N, N, generator=g, dtype=torch.float64)
    Am = (Am + Am.T).float()
    v0 = torch.randn(N, N, generator=g)
    out = torch.empty(N, N); iters = torch.zeros(1, dtype=torch.int32)
    K.while_if_dot_kernel[(1,)](Am, v0, out, iters, 1e-4, 7, N=N)
    v = v0.double(); A64 = Am.double()
    it = 0; delta = 1.0 + 1e-4
    while delta > 1e-4 and it < 7:
        w = A64 @ v
        if it % 2 == 0:
            w = A64 @ w
        w = w / torch.sqrt((w * w).sum(0))[None, :]
        delta = float((w - v).abs().max())
        v = w; it += 1
    assert int(iters) == it == 7
    close(out.double(), v, 1e-3)


def check_tensor_method_chain():
    R, C = 8, 16
    x = torch.randn(R, C, generator=g)
    idx = torch.randint(0, C, (R, C), generator=g)
    o = torch.empty(R, C)
    K.tensor_method_chain_kernel[(1,)](x, idx, o, R=R, C=C)
    a = torch.sigmoid(torch.log(torch.exp(torch.sqrt(x.abs()))))
    c = torch.flip(torch.flip(torch.flip(torch.cumsum(x, 1), [1]), [0]).cumprod(0), [0])
    d = torch.sort(x, 1, descending=True).values.T.reshape(R, C)
    e = torch.cumsum(x, 1).sum(0, keepdim=True).expand(R, C)
    ref = a + c * 1e-3 + d + e + torch.gather(x, 1, idx) + x.argmax(1)[:, None].float() + x
    close(o, ref, 1e-4)


if __name__ == "__main__":
    run_checks(globals(), sys.argv[1:])
