# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/inference_quant.py, each checked against
torch computing the same thing another way: split-partition paged decode
attention and its reduce (a shuffled block table, ragged context lengths,
GQA and MHA), the MoE pipeline (expert histogram, padded offsets, scatter of
sorted token ids, then the fused-MoE GEMM on them, with a non-local
expert), int8 per-token quantisation and the int8 GEMM with scales, fp8
e4m3 quantisation per tensor and per token group, a w4a16 dequant matmul,
a chunked gated linear attention against its recurrence, a causal conv1d
with states, Gumbel/greedy sampling, ragged mean pooling and a linear
recurrence by associative scan. Fresh random inputs, ragged sizes, outputs
poisoned first. Tensors are made by torch on its default device, so the
script also runs with CUDA as that device."""
import math
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402
from torch_checks import run_checks  # noqa: E402

K = load_corpus("inference_quant")

GEN = torch.Generator().manual_seed(2024)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=GEN).to(dtype)


def rand(*shape):
    return torch.rand(*shape, generator=GEN)


def randint(lo, hi, shape, dtype=torch.int32):
    return torch.randint(lo, hi, shape, generator=GEN).to(dtype)


def nan_like(x):
    return torch.full_like(x, float("nan"))


def close(got, want, tol, what):
    got, want = got.double(), want.double()
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    assert not torch.isnan(got).any().item(), "%s: NaN in the output (a poisoned element never written?)" % what
    err = (got - want).abs().max().item() if got.numel() else 0.0
    assert err <= tol * (1 + want.abs().max().item()), "%s: max error %g (tol %g)" % (what, err, tol)


def same(got, want, what):
    assert got.shape == want.shape, "%s: shape %s, want %s" % (what, tuple(got.shape), tuple(want.shape))
    bad = (got != want).nonzero()
    assert bad.shape[0] == 0, "%s: %d mismatches, first at %s: got %s, want %s" % (
        what, bad.shape[0], bad[0].tolist(), got[tuple(bad[0])].item(), want[tuple(bad[0])].item())


def fp8e4m3_table():
    """The value of each e4m3 (fn) code: 1 sign, 4 exponent bits (bias 7), 3
    mantissa bits, subnormals, no infinities, S.1111.111 NaN."""
    vals = []
    for code in range(256):
        s, e, m = code >> 7, (code >> 3) & 15, code & 7
        if e == 15 and m == 7:
            vals.append(float("nan"))
            continue
        v = m * 2.0 ** -9 if e == 0 else (8 + m) * 2.0 ** (e - 10)
        vals.append(-v if s else v)
    return torch.tensor(vals, dtype=torch.float64)


E4M3 = fp8e4m3_table()


def expect_fp8_nearest(codes, v, what):
    """codes (uint8) are e4m3 values nearest to v (float64); the distance
    may exceed the best one by a hair (the GPU's fp32 division is not
    correctly rounded, which moves v off an exact midpoint)."""
    table = E4M3.to(codes.device)
    dec = table[codes.long()]
    assert not torch.isnan(dec).any().item(), "%s: NaN code (unwritten?)" % what
    finite = table[~torch.isnan(table)]
    best = (v[:, None] - finite[None, :]).abs().min(1).values
    d = (dec - v).abs()
    bad = d > best + 1e-5 * v.abs() + 1e-30
    assert not bad.any().item(), "%s: %d values not rounded to the nearest e4m3, first %g -> %g" % (
        what, int(bad.sum().item()), v[bad][0].item(), dec[bad][0].item())


def round_half_away(v):
    r = torch.round(v)
    tie = (v - torch.trunc(v)).abs() == 0.5
    return torch.where(tie, torch.trunc(v) + torch.sign(v), r)


# ---------------------------------------------------------------- attention

def check_paged_attention():
    for KVH, QG, D, KVB, PART, lens in ((2, 4, 64, 16, 64, [1, 300, 64, 517]),
                                        (4, 1, 32, 16, 32, [33, 16, 5])):
        S, H = len(lens), KVH * QG
        ctx = torch.tensor(lens, dtype=torch.int32)
        maxb = triton.cdiv(max(lens), KVB)
        nblk = S * maxb + 3
        kc = randn(nblk, KVH, KVB, D, dtype=torch.float16)
        vc = randn(nblk, KVH, KVB, D, dtype=torch.float16)
        table = torch.randperm(nblk, generator=GEN)[:S * maxb].to(kc.device).view(S, maxb).int()
        q = randn(S, H, D, dtype=torch.float16)
        P = triton.cdiv(max(lens), PART)
        tmp = torch.full((S, H, P, D), float("nan"))
        ml = torch.full((S, H, P), float("nan"))
        es = torch.full((S, H, P), float("nan"))
        scale = 1 / math.sqrt(D)
        K.paged_attn_decode_partition[(S, KVH, P)](
            tmp, ml, es, q, kc, vc, table, ctx, scale, q.stride(0), q.stride(1),
            kc.stride(0), kc.stride(1), kc.stride(2), table.stride(0),
            tmp.stride(0), tmp.stride(1), tmp.stride(2), ml.stride(0), ml.stride(1),
            QUERY_GROUP=QG, QG_PAD=16, HEAD_DIM=D, KV_BLOCK=KVB, PARTITION=PART)
        out = torch.full((S, H, D), float("nan"), dtype=torch.float16)
        K.paged_attn_reduce[(S, H)](out, tmp, ml, es, ctx, out.stride(0), out.stride(1),
                                    tmp.stride(0), tmp.stride(1), tmp.stride(2), ml.stride(0), ml.stride(1),
                                    HEAD_DIM=D, PARTITION=PART, MAX_PARTS=max(2, 1 << (P - 1).bit_length()))
        for s, L in enumerate(lens):
            ks = kc[table[s].long()].permute(1, 0, 2, 3).reshape(KVH, maxb * KVB, D)[:, :L].double()
            vs = vc[table[s].long()].permute(1, 0, 2, 3).reshape(KVH, maxb * KVB, D)[:, :L].double()
            kh = ks.repeat_interleave(QG, 0)
            vh = vs.repeat_interleave(QG, 0)
            sc = torch.einsum("hd,htd->ht", q[s].double() * scale, kh)
            ref = torch.einsum("ht,htd->hd", torch.softmax(sc, -1), vh)
            close(out[s], ref, 1e-2, "paged attention seq %d (len %d, %d partitions, QG %d)" % (s, L, P, QG))
            # a partition's statistics: its max logit and the sum of exp below it
            n_p = triton.cdiv(L, PART)
            lo, hi = (n_p - 1) * PART, L
            m_ref = sc[:, lo:hi].max(-1).values
            close(ml[s, :, n_p - 1], m_ref, 1e-2, "partition max logits seq %d" % s)
            close(es[s, :, n_p - 1], torch.exp(sc[:, lo:hi] - m_ref[:, None]).sum(-1), 1e-2,
                  "partition exp sums seq %d" % s)


# ---------------------------------------------------------------------- MoE

def moe_align(topk_ids, E, BM):
    numel = topk_ids.numel()
    counts = torch.zeros(E, dtype=torch.int32)
    K.moe_expert_histogram[(triton.cdiv(numel, 256),)](topk_ids, counts, numel, E, BLOCK=256)
    same(counts, torch.bincount(topk_ids.view(-1).long(), minlength=E).int(), "expert histogram (atomic_add)")
    max_padded = numel + E * (BM - 1)
    cursor = torch.full((E,), -99, dtype=torch.int32)
    expert_ids = torch.full((triton.cdiv(max_padded, BM),), -7, dtype=torch.int32)
    total = torch.full((1,), -1, dtype=torch.int32)
    E_PAD = max(16, 1 << (E - 1).bit_length())
    K.moe_align_offsets[(1,)](counts, cursor, expert_ids, total, E, BLOCK_M=BM, E_PAD=E_PAD)
    padded = (counts + BM - 1) // BM * BM
    starts = torch.cumsum(padded, 0) - padded
    same(cursor, starts.int(), "expert start offsets (tl.cumsum)")
    assert total.item() == padded.sum().item(), "tokens after padding: %d, want %d" % (total.item(), padded.sum())
    nb = total.item() // BM
    same(expert_ids[:nb], torch.repeat_interleave(torch.arange(E, device=counts.device), padded // BM).int(),
         "expert id of each block")
    sorted_ids = torch.full((max_padded,), numel, dtype=torch.int32)
    K.moe_align_scatter[(triton.cdiv(numel, 128),)](topk_ids, cursor, sorted_ids, numel, BLOCK=128)
    same(cursor, (starts + counts).int(), "cursors after the scatter (atomic_add results)")
    flat = topk_ids.view(-1)
    for e in range(E):
        s, c = starts[e].item(), counts[e].item()
        got = torch.sort(sorted_ids[s:s + c]).values
        same(got, (flat == e).nonzero().view(-1).int(), "token ids of expert %d" % e)
        assert (sorted_ids[s + c:s + padded[e].item()] == numel).all().item(), "padding of expert %d" % e
    return sorted_ids, expert_ids, total


def check_moe():
    for T, E, top_k, Kd, N, BM, BN, BK, GM, mul, dt in (
            (37, 8, 2, 80, 72, 16, 32, 32, 4, True, torch.float16),
            (5, 6, 3, 64, 130, 32, 64, 16, 8, False, torch.bfloat16),
            (300, 16, 2, 48, 40, 64, 32, 16, 2, True, torch.float16)):
        topk_ids = rand(T, E).topk(top_k, dim=1).indices.int().contiguous()
        topk_w = torch.softmax(randn(T, top_k), -1)
        sorted_ids, expert_ids, total = moe_align(topk_ids, E, BM)
        remote = 3
        expert_ids = torch.where(expert_ids == remote, torch.full_like(expert_ids, -1), expert_ids)
        a = randn(T, Kd, dtype=dt)
        w = (randn(E, N, Kd) * 0.2).to(dt)  # [E, N, K]: read through stride_bk=1, stride_bn=K
        c = torch.full((T * top_k, N), float("nan"), dtype=dt)
        EM = sorted_ids.numel()
        ctype = tl.float16 if dt == torch.float16 else tl.bfloat16
        grid = (triton.cdiv(EM, BM) * triton.cdiv(N, BN),)
        K.fused_moe_kernel[grid](a, w, c, topk_w, sorted_ids, expert_ids, total, N, Kd, EM, T * top_k,
                                 a.stride(0), a.stride(1), w.stride(0), w.stride(2), w.stride(1),
                                 c.stride(0), c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN,
                                 BLOCK_SIZE_K=BK, GROUP_SIZE_M=GM, MUL_ROUTED_WEIGHT=mul, top_k=top_k,
                                 compute_type=ctype)
        ids = topk_ids.view(-1).long()
        ref = torch.einsum("tk,tnk->tn", a.double().repeat_interleave(top_k, 0), w.double()[ids])
        if mul:
            ref = ref * topk_w.reshape(-1, 1).double()
        ref[ids == remote] = 0
        close(c, ref, 2e-2, "fused MoE T=%d E=%d top_k=%d (%s)" % (T, E, top_k, dt))
        assert (c[ids == remote] == 0).all().item(), "rows of the non-local expert are zeros"


# ------------------------------------------------------------- int8 / fp8

def check_int8_quant_and_gemm():
    for M, N, Kd, bias in ((50, 72, 200, True), (3, 130, 64, False), (65, 64, 100, True)):
        xf = torch.zeros(M, Kd + 24, dtype=torch.bfloat16)
        x = xf[:, :Kd]
        x.copy_(randn(M, Kd) * 3)
        x[1].zero_()  # the absmax floor
        xq = torch.full((M, Kd), 99, dtype=torch.int8)
        sx = torch.full((M,), float("nan"))
        K.per_token_quant_int8[(M,)](x, xq, sx, x.stride(0), xq.stride(0), Kd, BLOCK=triton.next_power_of_2(Kd))
        xf32 = x.float()
        absmax = xf32.abs().amax(1).clamp_min(1e-10)
        close(sx, absmax / 127, 1e-6, "per-token int8 scale")
        # (torch's `127 / t` is t.reciprocal() * 127, one rounding more than the kernel's division)
        inv = torch.full_like(absmax, 127.0) / absmax
        q = xf32 * inv[:, None]
        want = round_half_away(q).clamp(-127, 127).to(torch.int8)
        # On the GPU an fp32 `/` is div.full.f32, as Triton emits it (within 2
        # ulp, not correctly rounded): a quotient within a few ulp of a half
        # may round to the other integer there. Anything else must be exact.
        aq = q.abs()
        at_half = ((aq - aq.floor() - 0.5).abs() <= 8 * 2.0**-23 * aq)
        diff = (xq.to(torch.int32) - want.to(torch.int32)).abs()
        if xq.device.type == "cpu":
            same(xq, want, "per-token int8 values (round half away from zero)")
        else:
            assert ((diff == 0) | ((diff == 1) & at_half)).all().item(), \
                "per-token int8 values (round half away from zero): %d off by more than a half's rounding" % (
                    int(((diff != 0) & ~((diff == 1) & at_half)).sum().item()))

        wq = randint(-127, 128, (N, Kd), torch.int8)
        sw = rand(N) * 0.01 + 1e-3
        b = wq.t()  # [K, N] with stride (1, K)
        bias_t = randn(N, dtype=torch.bfloat16)
        c = torch.full((M, N), float("nan"), dtype=torch.bfloat16)
        K.int8_scaled_mm[(triton.cdiv(M, 32), triton.cdiv(N, 64))](
            xq, b, sx, sw, bias_t, c, M, N, Kd, xq.stride(0), xq.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1), BLOCK_M=32, BLOCK_N=64, BLOCK_K=64, HAS_BIAS=bias)
        ref = (xq.double() @ b.double()) * sx.double()[:, None] * sw.double()[None, :]
        if bias:
            ref = ref + bias_t.double()[None, :]
        close(c, ref, 1e-2, "int8 x int8 GEMM with scales M=%d N=%d K=%d" % (M, N, Kd))


def check_fp8_quant():
    for n in (3000, 17):
        x = randn(n, dtype=torch.float16) * 50
        x[:3] = torch.tensor([1e4, -1e4, 0.0])  # saturate to +-448
        scale = torch.full((1,), 0.1)
        yraw = torch.full((n,), 0x7F, dtype=torch.uint8)
        K.scaled_fp8_quant[(triton.cdiv(n, 1024),)](x, triton.reinterpret(yraw, tl.float8e4nv), scale, n,
                                                     BLOCK=1024, FP8_MAX=448.0)
        v = (x.float() * (1.0 / scale)).clamp(-448, 448).double()
        expect_fp8_nearest(yraw, v, "per-tensor fp8 quant n=%d" % n)
        assert E4M3[yraw[:2].long().cpu()].tolist() == [448.0, -448.0], "saturation at +-448"

    for R, C, G, dt, ue8m0 in ((7, 512, 128, torch.bfloat16, False), (5, 192, 64, torch.float16, True)):
        yf = torch.zeros(R, C + 64, dtype=dt)
        y = yf[:, :C]
        y.copy_(randn(R, C) * 4)
        y[2, :G] = 0  # the eps floor
        ng = R * C // G
        q = torch.full((R * C,), 0x7F, dtype=torch.uint8)
        s = torch.full((ng,), float("nan"))
        K.per_token_group_quant_fp8[(ng,)](y, triton.reinterpret(q, tl.float8e4nv), s, G, C, y.stride(0),
                                           1e-10, -448.0, 448.0, BLOCK=128, SCALE_UE8M0=ue8m0)
        yg = y.float().reshape(ng, G)
        s_ref = yg.abs().amax(1).clamp_min(1e-10) / 448.0
        if ue8m0:
            s_ref = torch.exp2(torch.ceil(torch.log2(s_ref)))
        close(s, s_ref, 1e-6, "group scales (ue8m0=%s)" % ue8m0)
        v = (yg / s_ref[:, None]).clamp(-448, 448).double().reshape(-1)
        expect_fp8_nearest(q, v, "per-token-group fp8 quant G=%d" % G)


# ------------------------------------------------------------------- w4a16

def check_w4a16():
    for M, N, Kd, G, BM, BN, BK, has_zero in ((37, 100, 256, 128, 32, 64, 64, True),
                                              (5, 130, 192, 64, 16, 128, 32, False),
                                              (64, 64, 128, 128, 32, 64, 64, True)):
        a = randn(M, Kd, dtype=torch.float16)
        nib = randint(0, 16, (Kd, N), torch.int32)
        packed = (nib[0::2] | (nib[1::2] << 4)).to(torch.uint8).contiguous()  # [K/2, N]
        scales = (rand(Kd // G, N) * 0.05 + 0.01).half()
        zeros = randint(0, 16, (Kd // G, N), torch.uint8)
        c = torch.full((M, N), float("nan"), dtype=torch.float16)
        K.w4a16_matmul[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
            a, packed, scales, zeros, c, M, N, Kd, a.stride(0), a.stride(1), packed.stride(0), packed.stride(1),
            scales.stride(0), scales.stride(1), c.stride(0), c.stride(1),
            GROUP_K=G, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, HAS_ZERO=has_zero)
        z = zeros.float() if has_zero else torch.full_like(scales.float(), 8.0)
        w = ((nib.float() - z.repeat_interleave(G, 0)) * scales.float().repeat_interleave(G, 0)).half()
        ref = a.double() @ w.double()
        close(c, ref, 1e-2, "w4a16 M=%d N=%d K=%d group %d zero points %s" % (M, N, Kd, G, has_zero))


# ------------------------------------------------------- linear attention

def check_chunk_gla():
    H, Kd, V, BT, BV = 4, 64, 64, 32, 32
    for B, T, init in ((2, 75, True), (1, 32, True), (1, 9, False)):
        q = (randn(B, T, H, Kd) * 0.3).half()
        k = (randn(B, T, H, Kd) * 0.3).half()
        v = randn(B, T, H, V).half()
        g = -rand(B, T, H) * 0.2
        h0 = randn(B, H, Kd, V) * 0.1 if init else torch.zeros(B, H, Kd, V)
        o = torch.full((B, T, H, V), float("nan"), dtype=torch.float16)
        ht = torch.full((B, H, Kd, V), float("nan"))
        scale = Kd ** -0.5
        K.chunk_simple_gla_fwd[(triton.cdiv(V, BV), B * H)](
            q, k, v, g, h0, o, ht, scale, T, H=H, K=Kd, V=V, BT=BT, BV=BV,
            USE_INITIAL_STATE=init, STORE_FINAL_STATE=True)
        h = h0.double().clone()
        ref = torch.zeros(B, T, H, V, dtype=torch.float64, device=q.device)
        for t in range(T):
            h = h * torch.exp(g[:, t].double())[:, :, None, None] + \
                k[:, t].double()[:, :, :, None] * v[:, t].double()[:, :, None, :]
            ref[:, t] = torch.einsum("bhk,bhkv->bhv", q[:, t].double() * scale, h)
        close(o, ref, 2e-2, "chunked gated linear attention T=%d" % T)
        close(ht, h, 2e-2, "final state T=%d" % T)


# ---------------------------------------------------------------- conv1d

def check_causal_conv1d():
    KW = 4
    for Bn, Dm, L, state, bias, silu in ((2, 50, 150, True, True, True), (1, 33, 2, True, False, True),
                                         (3, 32, 64, False, True, False)):
        x = randn(Bn, Dm, L, dtype=torch.float16)
        w = randn(Dm, KW, dtype=torch.float16) * 0.5
        bvec = randn(Dm, dtype=torch.float16)
        st = randn(Bn, Dm, KW - 1, dtype=torch.float16)
        fst = torch.full((Bn, Dm, KW - 1), float("nan"), dtype=torch.float16)
        out = torch.full((Bn, Dm, L), float("nan"), dtype=torch.float16)
        K.causal_conv1d_fwd[(Bn, triton.cdiv(Dm, 32), triton.cdiv(L, 64))](
            x, w, bvec, st, fst, out, Dm, L, x.stride(0), x.stride(1), x.stride(2), st.stride(0), st.stride(1),
            out.stride(0), out.stride(1), out.stride(2),
            KW=KW, BLOCK_D=32, BLOCK_L=64, HAS_BIAS=bias, HAS_STATE=state, SILU=silu)
        prev = st if state else torch.zeros_like(st)
        xc = torch.cat((prev, x), 2).double()
        ref = torch.nn.functional.conv1d(xc, w.double()[:, None, :], bvec.double() if bias else None, groups=Dm)
        if silu:
            ref = ref * torch.sigmoid(ref)
        close(out, ref, 1e-2, "causal conv1d L=%d state=%s" % (L, state))
        if state:
            same(fst, xc[:, :, -(KW - 1):].half(), "final conv state L=%d" % L)


# --------------------------------------------------------------- sampling

@triton.jit
def gumbel_uniforms(u_ptr, seed, vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(u_ptr + row * vocab + offs, tl.rand(seed, row * vocab + offs), mask=offs < vocab)


def check_sampling():
    for R, Vocab, temps in ((6, 3000, [0.0, 0.7, 1.0, 0.0, 1.5, 0.3]), (2, 100, [0.0, 2.0])):
        logits = randn(R, Vocab + 8) * 3
        lg = logits[:, :Vocab]
        temp = torch.tensor(temps)
        tok = torch.full((R,), -1, dtype=torch.int32)
        lp = torch.full((R,), float("nan"))
        seed = 12345
        K.sample_tokens[(R,)](lg, temp, tok, lp, seed, Vocab, lg.stride(0), BLOCK_V=1024)
        u = torch.full((R, Vocab), float("nan"))
        gumbel_uniforms[(R,)](u, seed, Vocab, BLOCK=1024)
        score = lg / temp.clamp_min(1e-30)[:, None] - torch.log(-torch.log(u.clamp_min(1e-20)))
        score = torch.where(temp[:, None] > 0, score, lg)
        t = tok.long()
        assert ((t >= 0) & (t < Vocab)).all().item(), "sampled ids in range: %s" % tok.tolist()
        chosen = score.gather(1, t[:, None])[:, 0]
        assert (chosen >= score.max(1).values - 1e-4).all().item(), "the sampled token has the top score"
        greedy = temp == 0
        same(t[greedy], lg[greedy].argmax(1), "greedy rows take the argmax")
        close(lp, torch.log_softmax(lg.double(), 1).gather(1, t[:, None])[:, 0], 1e-5, "sampled logprobs")


# ------------------------------------------------------- ragged / scans

def check_segment_mean():
    for lens, D in (([5, 0, 70, 1, 33], 200), ([64], 128), ([0, 0, 3], 7)):
        cu = torch.tensor([0] + lens).cumsum(0).int()
        total = int(cu[-1].item())
        xf = randn(max(total, 1), D + 16, dtype=torch.bfloat16)
        x = xf[:, :D]
        out = torch.full((len(lens), D), float("nan"))
        K.segment_mean_pool[(len(lens), triton.cdiv(D, 128))](x, cu, out, D, x.stride(0), out.stride(0),
                                                              BLOCK_T=32, BLOCK_D=128)
        ref = torch.stack([x[cu[i]:cu[i + 1]].double().sum(0) / max(lens[i], 1) for i in range(len(lens))])
        close(out, ref, 1e-5, "ragged mean pool %s" % lens)


def check_linear_recurrence():
    for Bn, T, D in ((3, 150, 40), (1, 64, 32), (2, 5, 3)):
        a = rand(Bn, T, D) * 0.5 + 0.5
        x = randn(Bn, T, D)
        h0 = randn(Bn, D)
        out = torch.full((Bn, T, D), float("nan"))
        hT = torch.full((Bn, D), float("nan"))
        K.linear_recurrence_fwd[(Bn, triton.cdiv(D, 32))](a, x, h0, out, hT, T, D, a.stride(0), a.stride(1),
                                                          BLOCK_T=64, BLOCK_D=32)
        h = h0.double()
        ref = torch.empty(Bn, T, D, dtype=torch.float64, device=a.device)
        for t in range(T):
            h = a[:, t].double() * h + x[:, t].double()
            ref[:, t] = h
        close(out, ref, 1e-5, "linear recurrence T=%d" % T)
        close(hT, h, 1e-5, "last state T=%d" % T)



# --------------------------------------------------- more quantisation

def check_fused_recurrent_gla():
    H, Kd, V, BK, BV = 2, 64, 48, 32, 16
    for B, T, init, store, varlen, dt in ((2, 20, True, True, False, torch.bfloat16),
                                          (1, 1, False, True, False, torch.float16),
                                          (3, 9, True, False, True, torch.float16)):
        q, k = (randn(B, T, H, Kd) * 0.3).to(dt), (randn(B, T, H, Kd) * 0.3).to(dt)
        v = randn(B, T, H, V).to(dt)
        g = -rand(B, T, H) * 0.2
        NK = triton.cdiv(Kd, BK)
        if varlen:  # the same data as one long sequence cut by cu_seqlens
            lens = [4, 0, 3 * T - 4]
            cu = torch.tensor([0] + lens).cumsum(0).int()
            q, k, v, g = (x.reshape(1, B * T, H, -1) for x in (q, k, v, g))
            g = g.reshape(1, B * T, H)
            N, Tt = len(lens), B * T
        else:
            cu, N, Tt = None, B, T
        h0 = randn(N * H, Kd, V) * 0.1
        o = torch.full((NK,) + tuple(v.shape), float("nan"), dtype=dt)
        ht = torch.full((N * H, Kd, V), float("nan")) if store else None
        K.fused_recurrent_gla_fwd[(triton.cdiv(V, BV), NK, N * H)](
            q, k, v, g, h0 if init else None, ht, o, cu, Kd ** -0.5, Tt, H=H, K=Kd, V=V, BK=BK, BV=BV)
        out = o.double().sum(0)  # the K blocks' partial outputs
        qf, kf, vf, gf = (x.double().reshape(-1, H, x.shape[-1]) if x.dim() == 4 else x.double().reshape(-1, H)
                          for x in (q, k, v, g))
        bounds = cu.tolist() if varlen else [i * T for i in range(B + 1)]
        for n in range(N):
            h = h0[n * H:(n + 1) * H].double() if init else torch.zeros(H, Kd, V, dtype=torch.float64,
                                                                        device=q.device)
            for t in range(bounds[n], bounds[n + 1]):
                h = h * torch.exp(gf[t])[:, None, None] + kf[t][:, :, None] * vf[t][:, None, :]
                want = torch.einsum("hk,hkv->hv", qf[t] * Kd ** -0.5, h)
                close(out.reshape(-1, H, V)[t], want, 2e-2, "recurrent GLA step %d (varlen %s)" % (t, varlen))
            if store:
                close(ht[n * H:(n + 1) * H], h, 1e-4, "recurrent GLA final state %d" % n)


def check_block_fp8_gemm():
    for M, N, Kd, gn, gk in ((40, 200, 256, 128, 128), (3, 64, 384, 64, 128)):
        a8 = randint(0, 256, (M, Kd), torch.uint8)
        b8 = randint(0, 256, (Kd, N), torch.uint8)
        a8[(a8 & 0x7F) == 0x7F] = 0  # no NaN codes
        b8[(b8 & 0x7F) == 0x7F] = 0
        As = rand(M, Kd // gk) * 0.01
        Bs = rand(Kd // gk, triton.cdiv(N, gn)) * 0.01
        c = torch.full((M, N), float("nan"), dtype=torch.bfloat16)
        K.w8a8_block_fp8_matmul[(triton.cdiv(M, 64), triton.cdiv(N, 128))](
            triton.reinterpret(a8, tl.float8e4nv), triton.reinterpret(b8, tl.float8e4nv), c, As, Bs,
            M, N, Kd, gn, gk, a8.stride(0), a8.stride(1), b8.stride(0), b8.stride(1), c.stride(0), c.stride(1),
            As.stride(0), As.stride(1), Bs.stride(0), Bs.stride(1), BLOCK_M=64, BLOCK_N=128, BLOCK_K=128)
        table = E4M3.to(a8.device)
        ad, bd = table[a8.long()], table[b8.long()]
        ref = torch.zeros(M, N, dtype=torch.float64, device=a8.device)
        ncol = torch.arange(N, device=a8.device) // gn
        for kb in range(Kd // gk):
            part = ad[:, kb * gk:(kb + 1) * gk] @ bd[kb * gk:(kb + 1) * gk]
            ref += part * As[:, kb, None].double() * Bs[kb][ncol][None, :].double()
        close(c, ref, 1e-2, "block-scaled fp8 GEMM M=%d N=%d K=%d" % (M, N, Kd))


def check_awq_dequantize():
    order = [0, 2, 4, 6, 1, 3, 5, 7]  # AWQ's packing: nibble j holds column order[j] of eight
    for Kd, N, G in ((96, 64, 32), (128, 136, 128)):
        w = randint(0, 16, (Kd, N), torch.int64)
        z = randint(0, 16, (Kd // G, N), torch.int64)

        def pack(t):
            words = torch.zeros(t.shape[0], t.shape[1] // 8, dtype=torch.int64, device=t.device)
            for j in range(8):
                words |= t[:, order[j]::8] << (4 * j)
            return torch.where(words >= 2 ** 31, words - 2 ** 32, words).int()
        sc = (rand(Kd // G, N) + 0.5).half()
        out = torch.full((Kd, N), float("nan"), dtype=torch.float16)
        N8 = N // 8
        K.awq_dequantize[(triton.cdiv(Kd, 32), triton.cdiv(N8, 8))](pack(w), sc, pack(z), out, Kd, N8,
                                                                     GROUP=G, BLOCK_K=32, BLOCK_N8=8)
        ref = ((w - z.repeat_interleave(G, 0)).double() * sc.double().repeat_interleave(G, 0)).half()
        same(out, ref, "AWQ dequantisation K=%d N=%d" % (Kd, N))


def check_nf4_dequantize():
    code = torch.tensor([-1.0, -0.6962, -0.5251, -0.3949, -0.2844, -0.1848, -0.0911, 0.0,
                         0.0796, 0.1609, 0.2461, 0.3379, 0.4407, 0.5626, 0.723, 1.0])
    for nb in (1000, 31):
        q = randint(0, 256, (nb,), torch.uint8)
        absmax = rand(triton.cdiv(2 * nb, 64)) + 0.5
        out = torch.full((2 * nb,), float("nan"), dtype=torch.bfloat16)
        K.nf4_dequantize[(triton.cdiv(nb, 512),)](q, code, absmax, out, nb, BLOCKSIZE=64, BLOCK=512)
        idx = torch.stack((q >> 4, q & 15), 1).reshape(-1).long()
        ref = (code[idx] * absmax.repeat_interleave(64)[:2 * nb]).bfloat16()
        same(out, ref, "NF4 dequantisation of %d bytes" % nb)

run_checks(globals(), "inference_quant")
