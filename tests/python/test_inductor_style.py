# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/inductor_style.py (written the way torch
inductor generates them) on the CPU, each checked against torch: pointwise
and 2-D tiled kernels, persistent and looped reductions (softmax, welford
layer norm, argmax with NaNs and ties, any), embedding index wrap, floor
division, bucketize, dropout from a seed tensor, a 1-tuple associative_scan."""
import os
import sys

import numpy as np
import torch

import tritonc as triton
import tritonc.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("inductor_style")

g = torch.Generator().manual_seed(0)


def check_pointwise_add_relu():
    n = 96*7+5
    a = torch.randn(n, generator=g); b = torch.randn(96, generator=g)
    o = torch.full((n,), float('nan'))
    K.triton_poi_fused_add_relu_0[(triton.cdiv(n, 128),)](a, b, o, n, XBLOCK=128)
    bb = b.repeat(n//96+1)[:n]
    ref = torch.tanh(torch.relu(a+bb)*0.5)
    assert torch.allclose(o, ref, atol=1e-6), (o-ref).abs().max()

def check_tiled_transpose():
    x = torch.randn(3, 200, 16, generator=g).half()
    o = torch.full((48, 200), float('nan'))
    K.triton_poi_fused_transpose_1[(triton.cdiv(200, 32), 2, 3)](x, o, 48, 200, YBLOCK=8, XBLOCK=32)
    ref = (x.float()**2).permute(0, 2, 1).reshape(48, 200)
    assert torch.equal(o, ref), (o-ref).abs().max()

def check_persistent_softmax():
    x = torch.randn(37, 100, generator=g)
    o = torch.full_like(x, float('nan'))
    K.triton_per_fused__softmax_2[(triton.cdiv(37, 8),)](x, o, 37, 100, XBLOCK=8)
    assert torch.allclose(o, torch.softmax(x, 1), atol=1e-6)

def check_welford_layer_norm():
    M, N = 13, 300
    x = torch.randn(M, N, generator=g)*3+1
    w = torch.randn(N, generator=g); b = torch.randn(N, generator=g)
    mean = torch.full((M,), float('nan')); m2 = torch.full((M,), float('nan')); o = torch.full_like(x, float('nan'))
    K.triton_red_fused_native_layer_norm_3[(triton.cdiv(M, 4),)](x, w, b, mean, m2, o, M, N, XBLOCK=4, RBLOCK=64)
    assert torch.allclose(mean, x.mean(1), atol=1e-5), (mean, x.mean(1))
    assert torch.allclose(m2, x.var(1, unbiased=False)*N, rtol=1e-4)
    ref = torch.nn.functional.layer_norm(x, (N,), w, b)
    assert torch.allclose(o, ref, atol=1e-4), (o-ref).abs().max()

def check_argmax_max_sum_any():
    M, N = 11, 150
    x = torch.randn(M, N, generator=g)
    x[2, 7] = float('nan'); x[3, 140] = float('nan'); x[4, 5] = x[4].max() + 1; x[4, 100] = x[4, 5]
    i = torch.full((M,), -1, dtype=torch.int64); mx = torch.full((M,), 0.); s = torch.full((M,), 0.); an = torch.zeros(M, dtype=torch.bool)
    K.triton_red_fused_argmax_max_sum_4[(triton.cdiv(M, 2),)](x, i, mx, s, an, M, N, XBLOCK=2, RBLOCK=32)
    assert torch.equal(i, torch.argmax(x, 1)), (i, torch.argmax(x, 1))
    ref = x.max(1).values
    assert torch.equal(mx.isnan(), ref.isnan()) and torch.equal(mx[~ref.isnan()], ref[~ref.isnan()]), (mx, ref)
    assert torch.equal(an, x.isnan().any(1)), an
    ok = ~x.isnan().any(1)
    assert torch.allclose(s[ok], x.sum(1)[ok], atol=1e-4)

def check_embedding_floordiv():
    idx = torch.randint(-50, 50, (25,), generator=g, dtype=torch.int32)
    emb = torch.randn(50, 40, generator=g)
    v = torch.randint(-100, 100, (1000,), generator=g, dtype=torch.int32)
    o = torch.full((1000,), float('nan')); o2 = torch.zeros(1000, dtype=torch.int32)
    K.triton_poi_fused_embedding_floordiv_5[(triton.cdiv(1000, 128),)](idx, emb, v, o, o2, 1000, XBLOCK=128)
    ref = emb[idx.long() % 50].reshape(-1)
    assert torch.equal(o, ref)
    ref2 = torch.div(v, 7, rounding_mode='floor')*1000 + torch.remainder(v, 7)
    assert torch.equal(o2, ref2.int()), (o2, ref2)

def check_bucketize():
    n = 300
    x = torch.randn(n, generator=g)*2
    bnd = torch.sort(torch.randn(17, generator=g)*2).values
    x[:17] = bnd
    o1 = torch.zeros(n, dtype=torch.int32); o2 = torch.zeros(n, dtype=torch.int64)
    K.triton_poi_fused_bucketize_6[(triton.cdiv(n, 64),)](x, bnd, o1, o2, n, XBLOCK=64)
    assert torch.equal(o1, torch.bucketize(x, bnd).int())
    assert torch.equal(o2, torch.bucketize(x, bnd, right=True))

def check_seeded_dropout():
    n = 1000
    seeds = torch.tensor([5, 123456789, 42], dtype=torch.int64)
    x = torch.randn(n, generator=g)
    m = torch.zeros(n, dtype=torch.bool); o = torch.full((n,), float('nan'))
    K.triton_poi_fused_rand_lt_mul_7[(triton.cdiv(n, 256),)](seeds, x, m, o, 1, n, XBLOCK=256)
    frac = m.float().mean().item()
    assert 0.68 < frac < 0.82, frac
    assert torch.allclose(o, m.float()*x*1.3333333333333333)

def check_cumsum_tuple_scan():
    M = 9
    x = torch.randint(-5, 6, (M, 64), generator=g, dtype=torch.int32)
    o = torch.full((M, 64), float('nan')); o2 = torch.zeros(M, 64, dtype=torch.int64)
    K.triton_per_fused_cumsum_index_8[(triton.cdiv(M, 4),)](x, o, o2, M, 64, XBLOCK=4)
    assert torch.equal(o, x.float().cumsum(1))
    assert torch.equal(o2, x.long().flip(1).cumsum(1).flip(1))


for name, fn in list(globals().items()):
    if name.startswith("check_"):
        fn()
        print("ok", name)
