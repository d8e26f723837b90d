#!/usr/bin/env python3
"""Numeric checks of modules compiled from the probe programs in tests/tri.

    python3 tests/tri/test_tri_probe.py MODULE.py CHECK

MODULE.py is `tritonc compile PROGRAM.tri -o MODULE.py` output (beside its
tritonc_tri_runtime.py); CHECK names the program's check below. Each check
computes what the language reference (docs/tri-language.md) says with plain
torch ops and an independent 2-bit unpacker, and compares. Exits non-zero on
the first failure.
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
    return torch.tensor(out[:math.prod(shape)], dtype=torch.float32).reshape(shape)


def weight(m, name):
    """trits * scale of the ternary state `name`, from its packed buffer."""
    shape = m._ternary_shapes[name]
    return ref_unpack(getattr(m, name + "_packed"), shape) * getattr(m, name + "_scale")


def ref_ternary(w, ratio):
    """quantize_ternary: sign where |w| > ratio * max|w|, scale the kept mean."""
    keep = w.abs() > ratio * w.abs().max()
    return torch.sign(w) * keep, w.abs()[keep].mean()


def as_float(v):
    """A TernaryTensor (QTensor) as trits * scale; tensors unchanged."""
    if type(v).__name__ == "QTensor":
        return v.values.float() * v.scale
    return v


def close(got, ref, what, tol=1e-5, dtype=None):
    got = as_float(got)
    if dtype is not None and got.dtype != dtype:
        raise AssertionError("%s: dtype %s, expected %s" % (what, got.dtype, dtype))
    if got.shape != ref.shape or not torch.allclose(got.float(), ref.float(), atol=tol, rtol=tol):
        raise AssertionError("%s: got %s, expected %s" % (what, got, ref))


def check_ternary_ops(mod):
    import tritonc_tri_runtime as rt
    w = rt.ternary(torch.tensor([[1, -1], [0, 1]]), 2.5)
    wf = torch.tensor([[1.0, -1.0], [0.0, 1.0]])
    x = torch.randn(2, 3)
    close(mod.t_relu(w), wf.relu() * 2.5, "relu keeps the scale")
    close(mod.t_transpose(w), wf.T * 2.5, "transpose keeps the scale")
    close(mod.t_reshape(w), wf.reshape(4) * 2.5, "reshape keeps the scale")
    close(mod.t_flatten(w), wf.reshape(4) * 2.5, "flatten keeps the scale")
    # arithmetic reads the trits (a trit counts as int8): no scale
    close(mod.t_matmul(w, x), wf @ x, "trits @ float", dtype=torch.float32)
    close(mod.t_sigmoid(w), torch.sigmoid(wf), "sigmoid of trits", dtype=torch.float32)
    xq = torch.randn(4, 3)
    lo, hi = min(xq.min(), 0), max(xq.max(), 0)
    s = (hi - lo) / 255
    zp = torch.round(-128 - lo / s).clamp(-128, 127)
    codes = (torch.round(xq / s) + zp).clamp(-128, 127)
    close(mod.q_transpose(xq), codes.T, "transpose of int8 codes", tol=1.01, dtype=torch.int8)
    wq = torch.randn(3, 4)
    t, sc = ref_ternary(wq, 0.1)
    close(mod.scaled_transpose(x, wq), x @ (t * sc), "ternary_matmul of a transposed scaled weight",
          tol=1e-4)
    w2 = torch.randn(2, 6)
    t, sc = ref_ternary(w2, 0.3)
    close(mod.scaled_reshape(w2), (t * sc).reshape(3, 4), "reshape of a scaled TernaryTensor")
    close(mod.scaled_relu(w2), (t * sc).relu(), "relu of a scaled TernaryTensor")
    a, b = torch.randn(2, 3).half(), torch.randn(3, 2)
    close(mod.half_at_float(a, b), a.float() @ b, "float16 @ float32", tol=1e-3, dtype=torch.float32)
    ai = torch.randint(-5, 5, (2, 3), dtype=torch.int8)
    bi = torch.randint(-5, 5, (3, 2), dtype=torch.int32)
    close(mod.int8_at_int32(ai, bi), (ai.long() @ bi.long()), "int8 @ int32", dtype=torch.int32)


def check_attr_names(mod):
    torch.manual_seed(0)
    m = mod.R(5)
    x = torch.randn(5)
    names = dict(m.named_parameters())
    # W_scale comes first and keeps its name; W moves to W_ (W__packed...)
    assert set(m._ternary_shapes) == {"W_", "V"}, m._ternary_shapes
    for mode in (False, True):
        m.train(mode)
        with torch.no_grad():
            ref = (x @ weight(m, "W_").T) * 2.0 + x @ weight(m, "V").T + names["V_latent_"]
            close(m(x), ref, "R (training=%s)" % mode, tol=1e-4)
    assert m.W_scale.shape == (5,) and m.W__scale.shape == () and m.V_scale.shape == ()
    n = mod.N(4)
    n.eval()
    q = n.quantized("Q")
    deq = (q.values.int() - q.zero_point).float() * q.scale
    with torch.no_grad():
        ref = x[:4] * 3.0 + n._modules_ + deq * 0.5
        close(n(x[:4]), ref, "N", tol=1e-5)
    assert n.train_ == 4 and n.Q_values.dtype == torch.int8
    assert isinstance(n._modules, dict) or hasattr(n._modules, "items"), "nn.Module._modules replaced"


def check_half(mod):
    torch.manual_seed(0)
    m = mod.Half(4)
    m.eval()
    x = torch.randn(3, 4).half()
    b = m.b.detach()
    with torch.no_grad():
        ref = (x + b.half()) * 2.0
        close(m(x), ref, "Half.forward", tol=1e-2, dtype=torch.float16)
        close(m.wider(x), x.float() + b, "Half.wider", dtype=torch.float32)
    with open(mod.__file__) as f:
        code = f.read()
    assert "F.linear(x, self.W.to(torch.float16))" in code, "matmul of float16 x"
    assert "layer_norm(x, self.g.to(torch.float16), self.b.to(torch.float16)" in code, "layer_norm"
    assert "F.conv2d(img, self.cw.to(torch.float16))" in code, "conv2d of a float16 image"


def check_ste_dequantize(mod):
    torch.manual_seed(0)
    m = mod.Dq(4)
    x = torch.randn(3, 4)
    m.train()
    m(x).sum().backward()
    # d/dW of sum(x W^T * 3 + x W^T * s): every row is x summed over the batch,
    # times 3 + the scale (1 for random_ternary); V's gradient: x summed, times V's scale
    g = x.sum(0).expand(4, 4)
    close(m.W_latent.grad, g * 4.0, "gradient through dequantize(W) and ternary_matmul", tol=1e-5)
    close(m.V_latent.grad, g * m.V_scale, "gradient through dequantize(V)", tol=1e-5)
    m.eval()
    with torch.no_grad():
        ref = x @ weight(m, "W").T * 4.0 + x @ weight(m, "V").T
        close(m(x), ref, "Dq (eval)", tol=1e-4)


def check_weight_arith(mod):
    torch.manual_seed(0)
    m = mod.Arith(4)
    x = torch.randn(4, 4)
    xi = torch.randint(-50, 50, (4, 4), dtype=torch.int32)
    xh = torch.randn(4, 4).half()
    cases = [("sum2", x, torch.int8), ("twice", x, torch.int8), ("minus", x, torch.int8),
             ("sym", x, torch.int8), ("wide", xi, torch.int32), ("mixed", xh, torch.float16),
             ("halved", x, torch.float32), ("forward", x, torch.float32)]
    m.train()
    trained = {name: getattr(m, name)(arg) for name, arg, _ in cases}
    m.eval()
    for name, arg, dtype in cases:
        with torch.no_grad():
            ref = getattr(m, name)(arg)
        close(ref, ref, name + " (eval)", dtype=dtype)
        close(trained[name].detach(), ref, name + " (training)", dtype=dtype)
    # float arithmetic on the trits still passes the gradient straight through
    m.train()
    m(x).sum().backward()
    close(m.W_latent.grad, x, "gradient of sum(x * W) reaches W_latent")


def main():
    path = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("probe_module", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    torch.manual_seed(0)
    globals()["check_" + sys.argv[2]](mod)
    print("test_tri_probe: %s passed" % sys.argv[2])


if __name__ == "__main__":
    main()
