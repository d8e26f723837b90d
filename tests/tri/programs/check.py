#!/usr/bin/env python3
"""Numeric checks of the modules compiled from tests/tri/programs/*.tri.

    python3 tests/tri/programs/check.py MODULE.py CHECK

MODULE.py is `tritonc compile PROGRAM.tri -o MODULE.py` output (beside its
tritonc_tri_runtime.py); CHECK names the program's check below. Each check
computes what the language reference (docs/tri-language.md) says with plain
torch ops: weights come from the packed buffers through an independent 2-bit
unpacker, quantizers are written out here. Exits non-zero on the first
failure.
"""
import importlib.util
import math
import os
import sys

import torch
import torch.nn.functional as F


def ref_unpack(packed, shape):
    """2-bit codes, first value in the high bits (-1: 00, 0: 01, +1: 10)."""
    out = []
    for byte in packed.tolist():
        for shift in (6, 4, 2, 0):
            code = (byte >> shift) & 3
            assert code != 3, "invalid code in packed buffer"
            out.append(code - 1)
    n = math.prod(shape)
    assert all(v == 0 for v in out[n:]), "padding trits must be 0"
    return torch.tensor(out[:n], dtype=torch.float32).reshape(shape)


def ref_pack(trits):
    """Trits -> bytes, four per byte, first value high, padded with 0 (01)."""
    codes = [int(v) + 1 for v in trits.reshape(-1).tolist()]
    codes += [1] * (-len(codes) % 4)
    return torch.tensor([codes[i] << 6 | codes[i + 1] << 4 | codes[i + 2] << 2 | codes[i + 3]
                         for i in range(0, len(codes), 4)], dtype=torch.uint8)


def weight(m, name):
    """trits * scale of the ternary state `name`, from its packed buffer."""
    shape = m._ternary_shapes[name]
    packed = getattr(m, name + "_packed")
    assert packed.dtype == torch.uint8 and packed.numel() == (math.prod(shape) + 3) // 4
    return ref_unpack(packed, shape) * getattr(m, name + "_scale")


def ref_ternary(w, ratio=0.3):
    """quantize_ternary: sign where |w| > ratio * max|w|, scale the kept mean."""
    keep = w.abs() > ratio * w.abs().max()
    return torch.sign(w) * keep, w.abs()[keep].mean()


def round_half_away(v):
    return torch.sign(v) * torch.floor(v.abs() + 0.5)


def ref_affine(x, qmin, qmax, dim=None):
    """Affine codes, scale and zero point over [qmin, qmax]; the range is
    widened to include 0; per channel along dim when given."""
    if dim is None:
        lo, hi = x.min().clamp(max=0), x.max().clamp(min=0)
        view = ()
    else:
        rows = x.movedim(dim, 0).reshape(x.shape[dim], -1)
        lo, hi = rows.min(1).values.clamp(max=0), rows.max(1).values.clamp(min=0)
        view = [1] * x.dim()
        view[dim] = -1
    s = (hi - lo) / (qmax - qmin)
    zp = round_half_away(qmin - lo / s).clamp(qmin, qmax)
    if dim is not None:
        s, zp = s.reshape(view), zp.reshape(view)
    codes = (round_half_away(x / s) + zp).clamp(qmin, qmax)
    return codes, s, zp


def as_float(v):
    """A QTensor as dequantized floats; tensors unchanged."""
    if type(v).__name__ == "QTensor":
        return (v.values.float() - v.zero_point.float()) * v.scale
    return v


def close(got, ref, what, tol=1e-5, dtype=None):
    if dtype is not None and got.dtype != dtype:
        raise AssertionError("%s: dtype %s, expected %s" % (what, got.dtype, dtype))
    got = as_float(got)
    if got.shape != ref.shape or not torch.allclose(got.double(), ref.double(), atol=tol, rtol=tol):
        raise AssertionError("%s: got %s, expected %s" % (what, got, ref))


def exact(got, ref, what, dtype):
    if got.dtype != dtype or got.shape != ref.shape or not torch.equal(got.long(), ref.long()):
        raise AssertionError("%s: got %s (%s), expected %s (%s)" % (what, got, got.dtype, ref, dtype))


def check_quant_codes(mod):
    x = torch.randn(4, 6)
    c8, _, _ = ref_affine(x, -128, 127)
    c4, s4, z4 = ref_affine(x, 0, 15)
    cpc, _, _ = ref_affine(x, -128, 127, dim=1)
    i8 = torch.int8
    exact(mod.neg8(x), (-c8).to(i8), "-quantize_int8(x)", i8)
    exact(mod.neg4(x), -c4, "-quantize_int4(x)", i8)
    exact(mod.neg_pc(x), (-cpc).to(i8), "-quantize_per_channel(x)", i8)
    exact(mod.sub4(x), c4 - 3, "quantize_int4(x) - 3", i8)
    exact(mod.mix(x), (c4 + c8).to(i8), "quantize_int4(x) + quantize_int8(x)", i8)
    exact(mod.t4(x), c4.T, "transpose(quantize_int4(x))", i8)
    p = torch.tensor([200, 3, 17], dtype=torch.uint8)
    d = torch.tensor([-1, 5, -20], dtype=torch.int8)
    exact(mod.bytes_plus(p, d), (p.long() + d.long() + 128) % 256 - 128, "uint8 + int8", i8)
    close(mod.deq4(x), (c4 - z4) * s4, "dequantize(quantize_int4(x))", dtype=torch.float32)


def both_modes(m, x, ref_fn, what, tol=1e-4):
    """forward in eval mode (the packed buffers) and in training mode (the
    straight-through ternarization of the latent weights, equal before any
    training); ref_fn(m) computes the reference from the packed buffers."""
    m.eval()
    with torch.no_grad():
        ref = ref_fn(m)
        close(m(x), ref, what + " (eval)", tol)
        m.train()
        close(m(x), ref, what + " (train)", tol)


def ref_block(x, W, gain, shift):
    h = F.layer_norm(x, x.shape[-1:], gain, shift, 1e-5)
    return x + F.gelu(h @ W["W_up"].T) @ W["W_down"].T


def check_residual_mlp(mod):
    torch.manual_seed(1)
    m = mod.Net(8, 3)
    x = torch.randn(5, 8)
    assert m.first._ternary_shapes["W_up"] == (32, 8) and m.first._ternary_shapes["W_down"] == (8, 32)

    def ref(m, W=None):
        def blk(b, x, prefix):
            w = {k: (W[prefix + k] if W else weight(b, k)) for k in ("W_up", "W_down")}
            return ref_block(x, w, b.gain, b.shift)
        h = blk(m.second, blk(m.first, x, "first."), "second.")
        return h @ (W["head"] if W else weight(m, "head")).T
    both_modes(m, x, ref, "Net")
    # a training step: the latent weights get the straight-through gradients
    m.eval()
    m.train()
    m.zero_grad()
    m(x).square().sum().backward()
    effective = {}
    for prefix, sub in (("first.", m.first), ("second.", m.second), ("", m)):
        for name in sub._ternary_shapes:
            t = ref_unpack(getattr(sub, name + "_packed"), sub._ternary_shapes[name])
            effective[prefix + name] = (t * getattr(sub, name + "_scale")).requires_grad_()
    with torch.enable_grad():
        ref(m, effective).square().sum().backward()
    latents = dict(m.named_parameters())
    for key, w in effective.items():
        prefix, _, name = key.rpartition(".")
        scale = m.get_submodule(prefix).get_buffer(name + "_scale") if prefix else m.head_scale
        close(latents[key + "_latent"].grad, w.grad * scale, "STE gradient of " + key, tol=1e-3)


def check_attention(mod):
    torch.manual_seed(2)
    m = mod.SelfAttention(8)
    x = torch.randn(6, 8)

    def ref(m):
        q, k, v = (x @ weight(m, n).T for n in ("Wq", "Wk", "Wv"))
        p = torch.softmax(q @ k.T * 0.25, dim=-1)
        return p @ v @ m.Wo.T + m.bo + x
    both_modes(m, x, ref, "SelfAttention")
    # the free fns alone, generic in the sequence length
    q, k, v = torch.randn(3, 4), torch.randn(3, 4), torch.randn(3, 4)
    close(mod.scores(q, k, 0.5), q @ k.T * 0.5, "scores")
    close(mod.attend(q, k, v, 1.0), torch.softmax(q @ k.T, -1) @ v, "attend")


def check_conv_pool(mod):
    torch.manual_seed(3)
    m = mod.ConvNet(3, 10)
    x = torch.randn(2, 3, 16, 16)

    def ref(m):
        h = F.relu(F.conv2d(x, weight(m, "k1"), padding=1))
        h = F.max_pool2d(h, 2)
        h = F.relu(F.conv2d(h, weight(m, "k2"), stride=2, padding=1))
        h = F.avg_pool2d(F.conv2d(h, m.k3), 2)
        return h.flatten(1) @ weight(m, "head").T
    both_modes(m, x, ref, "ConvNet")
    assert m(x).shape == (2, 10)


def check_quant_variants(mod):
    torch.manual_seed(4)
    m = mod.QLinear(6, 5)
    m.eval()
    x = torch.randn(3, 6)
    W = m.W.detach()
    t, ts = ref_ternary(W, 0.5)
    assert torch.equal(m.T_packed, ref_pack(t)), "packed ternary weight"
    close(m.T_scale, ts, "ternary scale")
    with torch.no_grad():
        close(m.ternary(x), x @ (t * ts).T, "ternary_matmul of quantize_ternary(W, 0.5)")
        for name, fn, (qmin, qmax, dim) in (("Q8", m.q8, (-128, 127, None)), ("Q4", m.q4, (0, 15, None)),
                                            ("Qo", m.per_out, (-128, 127, 0)),
                                            ("Qi", m.per_in, (-128, 127, 1))):
            codes, sc, zp = ref_affine(W, qmin, qmax, dim)
            q = m.quantized(name)
            exact(q.values, codes, name + " codes", torch.uint8 if name == "Q4" else torch.int8)
            close(q.scale.reshape(sc.shape), sc, name + " scale")
            close(q.zero_point.reshape(zp.shape).float(), zp, name + " zero point")
            close(fn(x), x @ ((codes - zp) * sc).T, name + " linear", tol=1e-4)
            # the dequantized weight is within half a step of W
            err = ((codes - zp) * sc - W).abs()
            assert bool((err <= sc / 2 + 1e-6).all()), name + " rounding error"


def check_ste_training(mod):
    torch.manual_seed(5)
    m = mod.TwoLayer(6, 16, 3)
    x, target = torch.randn(8, 6), torch.randn(8, 3)
    opt = torch.optim.SGD(m.parameters(), lr=0.05)
    losses = []
    for step in range(4):
        m.train()
        opt.zero_grad()
        loss = (m(x) - target).square().mean()
        loss.backward()
        # the reference: the latent weights ternarized (threshold 0.3 of
        # max|w|, scale the mean kept |w|), autograd through trits * scale
        eff = {}
        for n in ("W1", "W2"):
            t, sc = ref_ternary(getattr(m, n + "_latent").detach())
            eff[n] = (t, sc, (t * sc).requires_grad_())
        h = F.relu(x @ eff["W1"][2].T + m.b1.detach())
        ref_loss = (h @ eff["W2"][2].T - target).square().mean()
        ref_loss.backward()
        close(loss.detach(), ref_loss.detach(), "loss at step %d" % step)
        for n in ("W1", "W2"):
            close(getattr(m, n + "_latent").grad, eff[n][2].grad * eff[n][1],
                  "STE gradient of %s at step %d" % (n, step), tol=1e-4)
        losses.append(loss.item())
        opt.step()
    assert losses[-1] < losses[0], losses
    # eval mode re-packs the trained latent weights
    m.eval()
    for n in ("W1", "W2"):
        t, sc = ref_ternary(getattr(m, n + "_latent").detach())
        assert torch.equal(getattr(m, n + "_packed"), ref_pack(t)), n + " re-packed"
        close(getattr(m, n + "_scale"), sc, n + " scale after training")
    with torch.no_grad():
        ref = F.relu(x @ weight(m, "W1").T + m.b1) @ weight(m, "W2").T
        close(m(x), ref, "TwoLayer after training (eval)")


def check_fn_calls(mod):
    torch.manual_seed(6)
    m = mod.Stack(4)
    x = torch.randn(3, 4)

    def norm(v):
        v = v * 2.0
        return v * torch.rsqrt(v.square().mean(-1, keepdim=True) + 1e-6)

    def ref(m):
        w = weight(m, "W")
        return norm(x) @ w.T @ w.T + norm(x.T).T + torch.tanh(x * 0.5 - 0.25)
    both_modes(m, x, ref, "Stack")
    close(mod.twice(x), x * 2, "twice (keyword arguments)")
    assert mod.side_effect_free(x) is None


def check_shapes_from_params(mod):
    torch.manual_seed(7)
    m = mod.Shapes(3, 5)
    assert mod.wide == 10
    shapes = {"W_cat": (8, 3), "W_back": (5, 8), "W_wide": (10, 5), "W_sq": (9, 3), "W_less": (2, 3)}
    assert m._ternary_shapes == shapes, m._ternary_shapes
    x = torch.randn(4, 3)

    def ref(m):
        return x @ weight(m, "W_cat").T @ weight(m, "W_back").T @ weight(m, "W_wide").T
    both_modes(m, x, ref, "Shapes")
    m.eval()
    with torch.no_grad():
        close(m.square(x), (x @ weight(m, "W_sq").T).reshape(4, 3, 3), "reshape [-1, d, d]")
        close(m.less(x), x @ weight(m, "W_less").T, "d - 1 outputs")
    v = torch.randn(2, 3, 4, 5)
    close(m.flat(v), v.reshape(2, 3, 20), "flatten(axis=2)")
    close(m.swap(v[:, :, :, 0]), v[:, :, :, 0].permute(2, 1, 0), "transpose(x, 0, 2)")
    g = torch.randn(2, 12)
    close(m.grid(g), g.reshape(2, 3, 4), "reshape [2, 3, -1]")


def check_literals(mod):
    t = torch.tensor([[1, 0, -1], [-1, 1, 0]])
    for name in ("flat", "rows", "nested"):
        v = getattr(mod, name)
        exact(v.values, t, name, torch.int8)
        close(v.scale, torch.tensor(1.0), name + " scale")
    odd = torch.tensor([1, -1, 0, 1, -1])
    exact(mod.odd.values, odd, "odd", torch.int8)
    exact(mod.packed_odd, ref_pack(odd), "pack_ternary(odd)", torch.uint8)
    assert mod.packed_odd.tolist() == [0b10000110, 0b00010101]
    exact(mod.back.values, odd, "unpack_ternary(pack_ternary(odd))", torch.int8)
    assert mod.empty.values.numel() == 0
    import tritonc_tri_runtime as rt
    for seed in range(5):
        g = torch.Generator().manual_seed(seed)
        w = torch.randint(-1, 2, (3, 7), generator=g)
        exact(mod.bytes_of(rt.ternary(w)), ref_pack(w), "pack_ternary of random trits", torch.uint8)
        exact(mod.roundtrip(rt.ternary(w)).values, w, "pack/unpack round trip", torch.int8)
    m = mod.Fixed()
    assert m.K_bytes.tolist() == ref_pack(t).tolist()
    x = torch.randn(4, 3)
    both_modes(m, x, lambda m: 2 * x @ t.float().T, "Fixed")


def check_syntax_forms(mod):
    assert (mod.a, mod.b, mod.c, mod.f) == (2, -2, 2, 0.1)
    assert mod.nothing() is None and mod.early(torch.ones(1)) is None
    import tritonc_tri_runtime as rt
    w = torch.tensor([[1, 0, -1, 1], [0, 0, 1, -1], [-1, 1, 1, 0]])
    x = torch.randn(5, 4)
    close(mod.spelled(x, rt.ternary(w)), x @ w.float().T, "spelled")
    x = torch.randn(2, 2)
    y = -(x - 1.0) * -2 / 4 + (x @ x) + x
    close(mod.arith(x), torch.softmax(y, 0) * 0.1 + y.T * 2, "arith")
    m = mod.NoParams()
    v = torch.randn(3)
    both_modes(m, v, lambda m: v * -2, "NoParams")


def check_gated_mlp(mod):
    torch.manual_seed(8)
    m = mod.GatedMLP(6, 10)
    x = torch.randn(2, 3, 6)

    def ref(m):
        g, u, d = weight(m, "W_gate"), weight(m, "W_up"), weight(m, "W_down")
        h = x * torch.rsqrt(x.square().mean(-1, keepdim=True) + 1e-6) * m.norm_gain
        return x + (F.silu(h @ g.T) * (h @ u.T)) @ d.T
    both_modes(m, x, ref, "GatedMLP")
    m.eval()
    with torch.no_grad():
        d = weight(m, "W_down")
        close(m.highway(x), torch.sigmoid(torch.tanh(x) @ d) @ d.T * 0.5, "highway")


def check_resnet_block(mod):
    torch.manual_seed(9)
    m = mod.ResNet(3, 4)
    for hw in ((8, 8), (5, 7)):
        x = torch.randn(2, 3, *hw)

        def basic(b, v):
            y = F.relu(F.conv2d(v, weight(b, "k1"), padding=1))
            return F.relu(F.conv2d(y, weight(b, "k2"), padding=1) + v)
        both_modes(m, x, lambda m: basic(m.b2, basic(m.b1, F.conv2d(x, m.stem))), "ResNet %s" % (hw,))
        assert m(x).shape == (2, 4) + hw


def check_quant_aware(mod):
    torch.manual_seed(10)
    m = mod.QAT(4)
    x = torch.randn(3, 4, requires_grad=True)
    y = m(x)
    codes, s, zp = ref_affine(m.W.detach(), -128, 127, dim=0)
    w8 = (codes - zp) * s
    ca, sa, za = ref_affine(x.detach(), -128, 127)
    close(y.detach(), ((ca - za) * sa) @ w8.T, "QAT forward", tol=1e-4)
    y.sum().backward()
    # straight through: d/dx of sum(x_q W_q^T) is W_q summed over outputs,
    # d/dW is x_q summed over the batch
    close(x.grad, w8.sum(0).expand(3, 4), "gradient through fake_quantize (x)", tol=1e-4)
    close(m.W.grad, ((ca - za) * sa).sum(0).expand(4, 4), "gradient through fake_quantize (W)", tol=1e-4)
    c4, s4, z4 = ref_affine(x.detach(), 0, 15)
    close(m.int4_act(x).detach(), (c4 - z4) * s4, "int4 fake quantization")
    t, ts = ref_ternary(x.detach(), 0.2)
    close(m.ternary_act(x).detach(), t * ts, "ternary fake quantization")


def check_sublayer_dims(mod):
    torch.manual_seed(11)
    m = mod.Model(7, 4)
    assert m.enc.up._ternary_shapes["W"] == (8, 4) and m.enc.down._ternary_shapes["W"] == (4, 8)
    assert m.head._ternary_shapes["W"] == (7, 4)
    x = F.one_hot(torch.tensor([0, 3, 6, 2]), 7).float()

    def proj(p, v):
        return v @ weight(p, "W").T + p.b

    def ref(m):
        e = x @ m.embed
        h = proj(m.enc.down, F.relu(proj(m.enc.up, e))) + e
        return torch.softmax(proj(m.head, h), -1)
    both_modes(m, x, ref, "Model")
    assert len(list(m.named_modules())) == 5


def check_scalars(mod):
    assert (mod.t, mod.tt, mod.half, mod.mixed, mod.neg) == (-1, 1, 3.5, 2.5, -2)
    assert abs(mod.act - 0.5) < 1e-6 and mod.big == 3037000499 * 3037000499
    for a in (-1, 0, 1):
        for b in (-1, 0, 1):
            assert mod.trit_mul(a, b) == a * b and mod.trit_add(a, b) == a + b
    assert mod.int_div(7, 2) == 3.5
    for v in (-1.5, 0.0, 2.0):
        ref = (max(v, 0.0) + F.gelu(torch.tensor(v)).item() + F.silu(torch.tensor(v)).item()
               + torch.sigmoid(torch.tensor(v)).item() + math.tanh(v))
        assert abs(mod.acts(v) - ref) < 1e-5, (v, mod.acts(v), ref)
    x = torch.randn(3)
    close(mod.scale_tensor(x, 3), x * 3 + 3.5, "scale_tensor")


def check_crlf_tabs(mod):
    torch.manual_seed(12)
    m = mod.Crlf(5)
    x = torch.randn(2, 5)
    both_modes(m, x, lambda m: x @ weight(m, "W").T * 3, "Crlf")


def check_comments_only(mod):
    assert not [n for n in vars(mod) if not n.startswith("__")], vars(mod).keys()


def main():
    path = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(path))
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import check_module
    check_module.check_layout(path)  # lines <= 99 columns, no tabs or trailing blanks
    spec = importlib.util.spec_from_file_location("program_module", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    torch.manual_seed(0)
    globals()["check_" + sys.argv[2]](mod)
    print("check.py: %s passed" % sys.argv[2])


if __name__ == "__main__":
    main()
