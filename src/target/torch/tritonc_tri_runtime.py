"""Run-time support of the PyTorch modules tritonc generates from .tri programs.

Written by tritonc beside every generated module; the generated code
imports it. It holds one packed ternary format, the quantizers, and the
base class of generated layers.

Packed ternary format (the same in tritonc's C library and GPU kernels):

    code:  -1 -> 0b00    0 -> 0b01    +1 -> 0b10    (0b11 is invalid)
    byte:  bits 7-6 = v0, 5-4 = v1, 3-2 = v2, 1-0 = v3 (first value high)
    [-1, 0, 1, 0] -> 0x19; the last byte is padded with 0b01 (zero)

The quantizers compute exactly what tritonc's C reference
(src/support/ternary.c) computes: float32 arithmetic, rounding halves away
from zero, NaN treated as 0, and the range of the affine schemes widened to
include 0.
"""
import math

import torch
from torch import nn

__all__ = [
    "DEFAULT_THRESHOLD", "QTensor", "TernaryModule", "TernarySTE", "dequantize",
    "fake_quantize", "layer_norm", "pack_ternary", "quantize_int4", "quantize_int8",
    "quantize_per_channel", "quantize_ternary", "random_ternary", "rms_norm", "scalar_op",
    "ternary", "ternary_conv2d", "ternary_linear", "ternary_map", "unpack_ternary",
]

DEFAULT_THRESHOLD = 0.3


class QTensor:
    """A quantized tensor: integer codes with their scale and zero point.

    scheme "ternary": values in {-1, 0, 1} (int8), one scale, zero point 0;
    "int8" / "int4": affine, one scale and zero point (int4 codes 0..15 in
    uint8); "per_channel": int8 with one scale and zero point per index
    along `axis`. dequantize(q) is (values - zero_point) * scale.
    """

    __slots__ = ("values", "scale", "zero_point", "scheme", "axis")

    def __init__(self, values, scale=1.0, zero_point=0, scheme="ternary", axis=0):
        self.values = values
        self.scale = torch.as_tensor(scale, dtype=torch.float32, device=values.device)
        self.zero_point = torch.as_tensor(zero_point, dtype=torch.int32, device=values.device)
        self.scheme = scheme
        self.axis = axis

    @property
    def shape(self):
        return self.values.shape

    def __neg__(self):
        if self.scheme != "ternary":
            return -dequantize(self)
        return QTensor(-self.values, self.scale)

    def __repr__(self):
        return "QTensor(scheme=%r, shape=%s, scale=%s)" % (
            self.scheme, tuple(self.values.shape), self.scale.tolist())


def ternary(values, scale=1.0):
    """A TernaryTensor from trits (any integer or float tensor of -1, 0, 1)."""
    return QTensor(values.to(torch.int8), scale)


def ternary_map(fn, q, *args):
    """fn (a shape op or relu) applied to the trits of a TernaryTensor; the
    scale is kept, so dequantize commutes with fn."""
    return QTensor(fn(q.values, *args), q.scale)


def random_ternary(shape):
    """Uniform random trits of the given shape, scale 1."""
    return ternary(torch.randint(-1, 2, _shape(shape), dtype=torch.int8))


def _shape(shape):
    return (int(shape),) if isinstance(shape, int) else tuple(int(d) for d in shape)


# ---- packing -----------------------------------------------------------------


def pack_ternary(values):
    """Trits (a tensor or a ternary QTensor) -> uint8, four per byte.

    Values < 0 encode as -1, > 0 as +1, anything else (0, NaN) as 0, as in
    the C library. Returns a 1-D tensor of ceil(numel / 4) bytes.
    """
    if isinstance(values, QTensor):
        values = values.values
    flat = values.detach().reshape(-1)
    codes = torch.ones(flat.numel() + (-flat.numel()) % 4, dtype=torch.uint8,
                       device=flat.device)
    codes[:flat.numel()][flat < 0] = 0
    codes[:flat.numel()][flat > 0] = 2
    c = codes.reshape(-1, 4)
    return (c[:, 0] << 6) | (c[:, 1] << 4) | (c[:, 2] << 2) | c[:, 3]


def unpack_ternary(packed, shape):
    """uint8 bytes -> int8 trits of the given shape (ValueError on code 0b11)."""
    shape = _shape(shape)
    n = math.prod(shape)
    p = packed.reshape(-1).to(torch.uint8)
    if p.numel() * 4 < n:
        raise ValueError("unpack_ternary: %d bytes hold fewer than %d trits" % (p.numel(), n))
    codes = torch.stack([(p >> s) & 3 for s in (6, 4, 2, 0)], dim=1).reshape(-1)[:n]
    if bool((codes == 3).any()):
        raise ValueError("unpack_ternary: invalid code 0b11 in packed data")
    return (codes.to(torch.int8) - 1).reshape(shape)


# ---- quantizers (bit-exact with src/support/ternary.c) ------------------------


def _round_half_away(v):
    """C's roundf on a float32 tensor (torch.round rounds halves to even)."""
    d = v.double()
    return (torch.sign(d) * torch.floor(d.abs() + 0.5)).to(v.dtype)


def _f32(v, like):
    return torch.as_tensor(v, dtype=torch.float32, device=like.device)


def quantize_ternary(x, threshold=DEFAULT_THRESHOLD):
    """Float -> TernaryTensor: sign(x) where |x| > threshold * max|x|, else 0.

    threshold is a ratio of max|x| (negative or NaN: 0.3; above 1: 1). The
    scale is the mean |x| over the kept entries (0 if none), summed in
    double in index order as the C reference does.
    """
    x = x.detach().float()
    ratio = float(threshold)
    if not ratio >= 0.0:
        ratio = DEFAULT_THRESHOLD
    ratio = min(ratio, 1.0)
    a = torch.where(torch.isnan(x), torch.zeros_like(x), x.abs())
    maxabs = a.max() if a.numel() else _f32(0.0, x)
    keep = (a > _f32(ratio, x) * maxabs) & (maxabs > 0)
    values = torch.where(keep, torch.where(x < 0, -1, 1), 0).to(torch.int8)
    kept = a[keep]
    if kept.numel():
        scale = (torch.cumsum(kept.double(), 0)[-1] / kept.numel()).float()
    else:
        scale = _f32(0.0, x)
    return QTensor(values, scale)


def _range_with_zero(x, dim=None):
    """min and max of x (NaN skipped), widened to include 0."""
    clean = torch.where(torch.isnan(x), torch.zeros_like(x), x)
    if dim is None:
        if clean.numel() == 0:
            return _f32(0.0, x), _f32(0.0, x)
        return clean.min().clamp(max=0.0), clean.max().clamp(min=0.0)
    if clean.shape[1] == 0:
        z = torch.zeros(clean.shape[0], dtype=torch.float32, device=x.device)
        return z, z.clone()
    return clean.min(dim=1).values.clamp(max=0.0), clean.max(dim=1).values.clamp(min=0.0)


def _affine(x, lo, hi, qmin, qmax):
    """Scale, zero point and codes for the integer range [qmin, qmax]."""
    s = (hi - lo) / _f32(qmax - qmin, x)
    bad = ~(s > 0) | ~torch.isfinite(s)
    zp = _round_half_away(_f32(qmin, x) - lo / s).clamp(qmin, qmax)
    default_zp = 0 if qmin <= 0 <= qmax else qmin
    s = torch.where(bad, _f32(1.0, x), s)
    zp = torch.where(bad, _f32(default_zp, x), zp)
    return s, zp


def _codes(x, s, zp, qmin, qmax):
    v = torch.where(torch.isnan(x), torch.zeros_like(x), x)
    return (_round_half_away(v / s) + zp).clamp(qmin, qmax)


def _quantize_affine(x, qmin, qmax, dtype, scheme):
    x = x.detach().float()
    lo, hi = _range_with_zero(x)
    s, zp = _affine(x, lo, hi, qmin, qmax)
    return QTensor(_codes(x, s, zp, qmin, qmax).to(dtype), s, zp.to(torch.int32), scheme)


def quantize_int8(x):
    """Affine int8: scale (max - min) / 255, zero point round(-128 - min / scale)."""
    return _quantize_affine(x, -128, 127, torch.int8, "int8")


def quantize_int4(x):
    """Affine unsigned int4 (codes 0..15 in uint8): scale (max - min) / 15."""
    return _quantize_affine(x, 0, 15, torch.uint8, "int4")


def quantize_per_channel(x, axis=0):
    """Affine int8 with one scale and zero point per index along axis."""
    x = x.detach().float()
    axis = axis + x.dim() if axis < 0 else axis
    channels = x.shape[axis]
    rows = x.movedim(axis, 0).reshape(channels, x.numel() // channels if channels else 0)
    lo, hi = _range_with_zero(rows, dim=1)
    s, zp = _affine(x, lo, hi, -128, 127)
    view = [1] * x.dim()
    view[axis] = -1
    q = _codes(x, s.reshape(view), zp.reshape(view), -128, 127)
    return QTensor(q.to(torch.int8), s, zp.to(torch.int32), "per_channel", axis)


_QUANTIZERS = {
    "ternary": quantize_ternary, "int8": lambda x, t, a: quantize_int8(x),
    "int4": lambda x, t, a: quantize_int4(x),
    "per_channel": lambda x, t, a: quantize_per_channel(x, a),
}


def dequantize(q):
    """QTensor -> float32: (values - zero_point) * scale."""
    if not isinstance(q, QTensor):
        return q.float()
    scale, zp = q.scale, q.zero_point
    if q.scheme == "per_channel":
        view = [1] * q.values.dim()
        view[q.axis] = -1
        scale, zp = scale.reshape(view), zp.reshape(view)
    if q.values.is_floating_point():
        # the trits of a latent weight in training mode (TernarySTE): float,
        # and the straight-through gradient must reach the latent weight
        return (q.values.float() - zp) * scale
    return (q.values.to(torch.int32) - zp).float() * scale


class _FakeQuantize(torch.autograd.Function):
    """dequantize(quantize(x)) forward; the gradient passes straight through."""

    @staticmethod
    def forward(ctx, x, scheme, threshold, axis):
        if scheme == "ternary":
            return dequantize(quantize_ternary(x, threshold))
        return dequantize(_QUANTIZERS[scheme](x, threshold, axis))

    @staticmethod
    def backward(ctx, grad):
        return grad, None, None, None


def fake_quantize(x, scheme, threshold=DEFAULT_THRESHOLD, axis=0):
    """dequantize(quantize(x)) in one step: the same float32 values, and a
    straight-through gradient so quantization-aware training works."""
    return _FakeQuantize.apply(x, scheme, float(threshold), axis)


# ---- layers -----------------------------------------------------------------


def ternary_linear(x, w):
    """x @ w^T * scale for a ternary QTensor w of shape [out, in]."""
    return torch.nn.functional.linear(x, w.values.to(x.dtype)) * w.scale.to(x.dtype)


def ternary_conv2d(x, w, stride=1, padding=0):
    """2-D convolution with ternary weights [C_out, C_in, KH, KW], times the scale."""
    y = torch.nn.functional.conv2d(x, w.values.to(x.dtype), stride=stride, padding=padding)
    return y * w.scale.to(x.dtype)


def layer_norm(x, weight=None, bias=None, eps=1e-5):
    """Layer norm over the last axis, then * weight + bias."""
    return torch.nn.functional.layer_norm(x, x.shape[-1:], weight, bias, float(eps))


def rms_norm(x, weight=None, eps=1e-6):
    """x / sqrt(mean(x^2) + eps) * weight over the last axis."""
    y = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + float(eps))
    return y if weight is None else y * weight


def scalar_op(fn, x):
    """An activation applied to a Python number (tensors go to torch directly)."""
    return fn(torch.as_tensor(float(x))).item()


class TernarySTE(torch.autograd.Function):
    """Ternarizes latent float weights; the gradient passes straight through.

    Returns (trits as floats, scale); the scale takes no gradient.
    """

    @staticmethod
    def forward(ctx, latent, threshold):
        q = quantize_ternary(latent, threshold)
        ctx.mark_non_differentiable(q.scale)
        return q.values.to(latent.dtype), q.scale

    @staticmethod
    def backward(ctx, grad_values, grad_scale):
        return grad_values, None


class TernaryModule(nn.Module):
    """Base class of generated layers: ternary weights and quantized buffers.

    A ternary weight NAME is stored as
        NAME_packed  uint8 buffer, 2 bits per trit: the inference weight
        NAME_scale   float32 buffer (0-d)
        NAME_latent  float parameter: the weight training updates
    ternary_weight(NAME) gives a QTensor: in training mode the latent weight
    ternarized through TernarySTE (threshold 0.3), in eval mode the packed
    buffer unpacked. Switching to eval mode (.eval(), .train(False)) calls
    freeze(), which re-packs every latent weight into its buffers, so
    inference always sees what training produced.
    """

    def __init__(self):
        super().__init__()
        self._ternary_shapes = {}
        self._quantized_schemes = {}

    def register_ternary(self, name, q):
        """Registers the ternary weight `name` initialised from q (a QTensor)."""
        if not isinstance(q, QTensor):
            q = ternary(q)
        self._ternary_shapes[name] = tuple(q.values.shape)
        self.register_parameter(name + "_latent", nn.Parameter(dequantize(q)))
        self.register_buffer(name + "_packed", pack_ternary(q.values))
        self.register_buffer(name + "_scale", q.scale.detach().float().reshape(()).clone())

    def ternary_weight(self, name):
        """The ternary weight `name` as a QTensor (see the class comment)."""
        if self.training:
            values, scale = TernarySTE.apply(getattr(self, name + "_latent"), DEFAULT_THRESHOLD)
            return QTensor(values, scale)
        trits = unpack_ternary(getattr(self, name + "_packed"), self._ternary_shapes[name])
        return QTensor(trits, getattr(self, name + "_scale"))

    def register_quantized(self, name, q):
        """Registers a quantized (int8, int4, per-channel) tensor as buffers."""
        self._quantized_schemes[name] = (q.scheme, q.axis)
        self.register_buffer(name + "_values", q.values.clone())
        self.register_buffer(name + "_scale", q.scale.clone())
        self.register_buffer(name + "_zero_point", q.zero_point.clone())

    def quantized(self, name):
        """The quantized tensor `name` as a QTensor."""
        scheme, axis = self._quantized_schemes[name]
        return QTensor(getattr(self, name + "_values"), getattr(self, name + "_scale"),
                       getattr(self, name + "_zero_point"), scheme, axis)

    @torch.no_grad()
    def freeze(self):
        """Re-packs every latent ternary weight of this module into its buffers."""
        for name in self._ternary_shapes:
            q = quantize_ternary(getattr(self, name + "_latent"))
            getattr(self, name + "_packed").copy_(pack_ternary(q.values))
            getattr(self, name + "_scale").copy_(q.scale)

    def train(self, mode=True):
        if not mode:
            self.freeze()
        return super().train(mode)
