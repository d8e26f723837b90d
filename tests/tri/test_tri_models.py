#!/usr/bin/env python3
"""Checks the PyTorch modules tritonc generated from the example programs.

    python3 tests/tri/test_tri_models.py DIR

DIR holds mlp.py, convnet.py, quant.py and transformer.py (compiled from
tests/tri/*.tri) and tritonc_tri_runtime.py; test_tri_torch (a unit test)
writes them and runs this script. Every generated module must import,
construct, and compute in `forward` what a reference written here computes
from its packed buffers: the reference unpacks the 2-bit format with its own
bit arithmetic (not the runtime's unpack_ternary) and uses plain torch ops.
Also checked: state_dict round trips, eval mode after training re-packs the
weights, and a training step through the straight-through estimator changes
the latent weights. Exits non-zero on the first failure.
"""
import importlib
import json
import math
import os
import sys

import torch
import torch.nn.functional as F


def ref_unpack(packed, shape):
    """Independent reference: 2-bit codes, first value in the high bits."""
    n = math.prod(shape)
    out = []
    for byte in packed.tolist():
        for shift in (6, 4, 2, 0):
            code = (byte >> shift) & 3
            assert code != 3, "invalid code in packed buffer"
            out.append(code - 1)
    return torch.tensor(out[:n], dtype=torch.float32).reshape(shape)


def weight(m, name):
    """The float weight a ternary state entry stands for: trits * scale."""
    shape = m._ternary_shapes[name]
    packed = getattr(m, name + "_packed")
    assert packed.dtype == torch.uint8, packed.dtype
    assert packed.numel() == (math.prod(shape) + 3) // 4, (packed.numel(), shape)
    return ref_unpack(packed, shape) * getattr(m, name + "_scale")


def close(a, b, what, tol=1e-4):
    if a.shape != b.shape or not torch.allclose(a, b, atol=tol, rtol=tol):
        raise AssertionError("%s: mismatch (max error %s)" % (what, (a - b).abs().max()))


def both_modes(m, x, ref, what):
    """forward in eval mode (unpacked buffers) and in training mode (STE of
    the latent weights, equal to the buffers before any training)."""
    m.eval()
    with torch.no_grad():
        close(m(x), ref, what + " (eval)")
    m.train()
    with torch.no_grad():
        close(m(x), ref, what + " (train)")


def check_mlp(mod):
    torch.manual_seed(0)
    m = mod.TernaryMLP(784, 256, 10)
    x = torch.randn(8, 784)
    w1, w2 = weight(m, "W1"), weight(m, "W2")
    ref = (torch.relu(x @ w1.T + m.b1.detach()) * 0.5) @ w2.T
    both_modes(m, x, ref, "TernaryMLP")
    assert set(torch.unique(ref_unpack(m.W1_packed, (256, 784))).tolist()) <= {-1.0, 0.0, 1.0}
    # state_dict round trip into a fresh module
    m2 = mod.TernaryMLP(784, 256, 10)
    m2.load_state_dict(m.state_dict())
    m.eval()
    m2.eval()
    with torch.no_grad():
        close(m2(x), m(x), "TernaryMLP state_dict round trip", tol=0)
    keys = set(m.state_dict())
    assert {"W1_packed", "W1_scale", "W1_latent", "b1"} <= keys, keys
    # the sub-module and softmax of Classifier
    c = mod.Classifier(64, 10)
    xc = torch.randn(4, 64)
    blk = c.block
    h = (torch.relu(xc @ weight(blk, "W1").T + blk.b1.detach()) * 0.5) @ weight(blk, "W2").T + xc
    both_modes(c, xc, torch.softmax(h @ weight(c, "head").T, dim=-1), "Classifier")


def check_training(mod):
    """One SGD step through the STE changes the latent weights; eval mode then
    re-packs them, and forward reads the new buffers."""
    torch.manual_seed(1)
    m = mod.TernaryMLP(16, 32, 4)
    m.train()
    before = m.W1_latent.detach().clone()
    packed_before = m.W1_packed.clone()
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    x, target = torch.randn(64, 16), torch.randn(64, 4)
    loss = F.mse_loss(m(x), target)
    loss.backward()
    assert m.W1_latent.grad is not None and m.W1_latent.grad.abs().sum() > 0, "no gradient reached W1"
    assert m.W2_latent.grad is not None and m.W2_latent.grad.abs().sum() > 0, "no gradient reached W2"
    opt.step()
    assert not torch.equal(before, m.W1_latent.detach()), "the latent weights did not change"
    m.eval()  # freeze: re-pack from the latent weights
    latent = m.W1_latent.detach()
    thr = 0.3 * latent.abs().max()
    trits = torch.where(latent.abs() > thr, torch.sign(latent), torch.zeros_like(latent))
    assert torch.equal(ref_unpack(m.W1_packed, (32, 16)), trits), "eval did not re-pack W1"
    kept = latent.abs()[trits != 0]
    close(m.W1_scale.reshape(1), kept.mean().reshape(1), "re-packed scale", tol=1e-6)
    assert not torch.equal(packed_before, m.W1_packed) or torch.equal(before, latent)
    ref = (torch.relu(x @ weight(m, "W1").T + m.b1.detach()) * 0.5) @ weight(m, "W2").T
    with torch.no_grad():
        close(m(x), ref, "TernaryMLP after training (eval)")
    # a few more steps lower the loss
    m.train()
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = F.mse_loss(m(x), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert min(losses[-5:]) < losses[0], losses


def check_convnet(mod):
    torch.manual_seed(2)
    m = mod.TernaryConvNet(1)
    x = torch.randn(2, 1, 28, 28)
    h1 = F.max_pool2d(torch.relu(F.conv2d(x, weight(m, "C1"), padding=1)), 2)
    h2 = F.avg_pool2d(torch.relu(F.conv2d(h1, weight(m, "C2"), padding=1)), 2)
    ref = torch.softmax(torch.flatten(h2, 1) @ weight(m, "head").T, dim=-1)
    both_modes(m, x, ref, "TernaryConvNet")


def check_transformer(mod):
    torch.manual_seed(3)
    m = mod.TernaryBlock(32, 64)
    x = torch.randn(5, 32)
    g, b, g2 = m.gamma.detach(), m.beta.detach(), m.g2.detach()
    mu, var = x.mean(-1, keepdim=True), x.var(-1, unbiased=False, keepdim=True)
    h = (x - mu) / torch.sqrt(var + 1e-5) * g + b
    q, k, v = (h @ weight(m, n).T for n in ("Wq", "Wk", "Wv"))
    a = torch.softmax(q @ k.T * 0.125, dim=-1) @ v
    x2 = x + a @ weight(m, "Wo").T
    r = x2 / torch.sqrt(x2.pow(2).mean(-1, keepdim=True) + 1e-6) * g2
    ref = x2 + F.gelu(r @ weight(m, "W_up").T) @ weight(m, "W_down").T
    both_modes(m, x, ref, "TernaryBlock")
    assert m.gamma.data_ptr() != m.g2.data_ptr(), "two parameters share storage"


def check_quant(mod, rt):
    torch.manual_seed(4)
    assert mod.packed_literal.tolist() == [0x91, 0x62], mod.packed_literal
    assert mod.w_literal.values.tolist() == [[1, 0, -1, 0], [0, 1, -1, 1]]
    assert torch.equal(mod.w_back.values, mod.w_literal.values)
    assert mod.t == -1
    w = rt.ternary(torch.randint(-1, 2, (64, 32)))
    assert torch.equal(mod.pack_roundtrip(w).values, w.values)
    assert mod.reshape_demo(torch.arange(24.0).reshape(4, 6)).shape == (3, 8)
    wf = torch.randn(6, 5)
    tq = mod.ternarize(wf)
    thr = 0.05 * wf.abs().max()
    assert torch.equal(tq.values.float(), torch.where(wf.abs() > thr, torch.sign(wf), torch.zeros_like(wf)))
    m = mod.QuantLinear(16, 8)
    x = torch.randn(3, 16)
    W = m.W.detach()
    wt = weight(m, "Wt")
    fq8 = rt.dequantize(rt.quantize_int8(W))
    fq4 = rt.dequantize(rt.quantize_int4(W))
    # the per-channel buffers hold what quantize_per_channel made at construction
    qpc = m.quantized("Wpc")
    assert qpc.values.dtype == torch.int8 and qpc.scale.shape == (8,)
    wpc = (qpc.values.float() - qpc.zero_point.float().reshape(-1, 1)) * qpc.scale.reshape(-1, 1)
    xq = rt.dequantize(rt.quantize_ternary(x))
    ref = (x @ wt.T + x @ fq8.T + x @ fq4.T + x @ wpc.T) / 4.0 + m.bias.detach() + xq @ wt.T
    both_modes(m, x, ref, "QuantLinear")
    # int8 dequantization error is within half a step
    assert (fq8 - W).abs().max() <= rt.quantize_int8(W).scale / 2 + 1e-6


def check_json(d):
    """The --emit json metadata: the same code, IR, passes, imports, functions."""
    for name in ("mlp", "convnet", "quant", "transformer"):
        with open(os.path.join(d, name + ".json")) as f:
            meta = json.load(f)
        with open(os.path.join(d, name + ".py")) as f:
            code = f.read()
        assert meta["code"] == code, name
        assert meta["ir"].startswith("module {"), name
        passes = [p["pass"] for p in meta["optimizations_applied"]]
        assert passes == ["dce", "canonicalize", "nn-quant-fusion", "cse", "dce"], passes
        for imp in meta["imports"]:  # long import lines are wrapped in the code
            for word in imp.replace(",", " ").split():
                assert word in code, (name, imp)
        lines = code.split("\n")
        for fn in meta["functions"]:
            kw = "class " if fn["kind"] == "class" else "def "
            assert lines[fn["line"] - 1].startswith(kw + fn["name"] + "("), (name, fn)
    conv = json.load(open(os.path.join(d, "convnet.json")))
    removed = [p["ops_removed"] for p in conv["optimizations_applied"] if p["pass"] == "dce"][0]
    assert removed.get("nn.conv2d") == 1, removed  # the unused `let s = conv2d(x, stem)`
    quant = json.load(open(os.path.join(d, "quant.json")))
    fusion = [p for p in quant["optimizations_applied"] if p["pass"] == "nn-quant-fusion"][0]
    assert fusion["details"]["dequantize(quantize(x)) -> fake_quantize(x)"] == 3, fusion


def check_unoptimised(d):
    """Modules built without the passes compute the same as the optimised ones."""
    cases = {
        "mlp": [("TernaryMLP", (20, 12, 6), (3, 20)), ("Classifier", (8, 5), (2, 8))],
        "convnet": [("TernaryConvNet", (1,), (2, 1, 28, 28))],
        "quant": [("QuantLinear", (10, 7), (4, 10))],
        "transformer": [("TernaryBlock", (16, 24), (6, 16))],
    }
    for name, layers in cases.items():
        opt, raw = importlib.import_module(name), importlib.import_module(name + "_noopt")
        for layer, args, xshape in layers:
            torch.manual_seed(11)
            a = getattr(opt, layer)(*args).eval()
            torch.manual_seed(11)
            b = getattr(raw, layer)(*args).eval()
            x = torch.randn(*xshape)
            with torch.no_grad():
                close(a(x), b(x), "%s.%s optimised vs unoptimised" % (name, layer), tol=1e-5)


def main():
    sys.path.insert(0, sys.argv[1])
    rt = importlib.import_module("tritonc_tri_runtime")
    mods = {n: importlib.import_module(n) for n in ("mlp", "convnet", "quant", "transformer")}
    check_mlp(mods["mlp"])
    check_training(mods["mlp"])
    check_convnet(mods["convnet"])
    check_transformer(mods["transformer"])
    check_quant(mods["quant"], rt)
    check_json(sys.argv[1])
    check_unoptimised(sys.argv[1])
    print("test_tri_models: all checks passed")


if __name__ == "__main__":
    main()
