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


def main():
    path = os.path.abspath(sys.argv[1])
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("program_module", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    torch.manual_seed(0)
    globals()["check_" + sys.argv[2]](mod)
    print("check.py: %s passed" % sys.argv[2])


if __name__ == "__main__":
    main()
