"""tritonc._spec - what an argument is, as the compiler sees it.

Every runtime argument of a launch is classified into an `ArgInfo`: its
Triton type in the signature spelling (`*fp32`, `i32`, `fp32`, `i1`), the
specialisation hint Triton's JIT would give it (`16`: a pointer or integer
divisible by 16; `1`: an integer equal to 1), the value packed into the launch
(the address of a tensor's data, the number itself) and its device type
(strides are not looked at: as in Triton, a tensor argument is the address
of its data). From those, `signature_string` writes the C API's
signature (`"*fp32:16,*fp32:16,i32"`), and `constexpr_text` writes a
constexpr value the way the C front end parses it (`1024`, `'leaky_relu'`,
`tl.float16`).

This is the slow, thorough path, taken once per new specialisation; the hot
path in jit.py computes a cheap key and only comes here on a miss. Nothing
here imports torch or numpy: their types are recognised when the caller has
already imported them.
"""
import math
import sys
from collections import namedtuple

from .language import core as _core

ArgInfo = namedtuple("ArgInfo", "kind sig hint value device desc")
# kind: "ptr" | "int" | "float" | "bool" | "none"; hint: 16, 1 or None.

NUMPY_SIG = {
    "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float16": "fp16", "float32": "fp32", "float64": "fp64",
}
TORCH_SIG = {
    "torch.bool": "i1", "torch.int8": "i8", "torch.int16": "i16", "torch.int32": "i32",
    "torch.int64": "i64", "torch.uint8": "u8", "torch.uint16": "u16", "torch.uint32": "u32",
    "torch.uint64": "u64", "torch.float16": "fp16", "torch.bfloat16": "bf16",
    "torch.float32": "fp32", "torch.float64": "fp64", "torch.float8_e4m3fn": "fp8e4nv",
    "torch.float8_e5m2": "fp8e5", "torch.float8_e4m3fnuz": "fp8e4b8",
    "torch.float8_e5m2fnuz": "fp8e5b16",
}
# Packing of one runtime parameter into its 8-byte slot (struct format,
# standard sizes, padded to 8 bytes).
PACK_FORMAT = {
    "i1": "?7x", "i8": "b7x", "i16": "h6x", "i32": "i4x", "i64": "q",
    "u8": "B7x", "u16": "H6x", "u32": "I4x", "u64": "Q",
    "fp16": "e6x", "fp32": "f4x", "fp64": "d",
}


class ArgumentError(TypeError):
    """A launch argument the kernel cannot take; the message names it."""


class ArgumentOverflowError(ArgumentError, OverflowError):
    """An integer argument outside [-2**63, 2**64): an OverflowError, as
    Triton's launcher raises, that names the argument."""


def int_sig(v):
    """Triton's typing of an integer argument (its specialize_impl): i32,
    else i64, else u64 for [2**63, 2**64). There is no u32: a literal in
    [2**31, 2**32) is uint32 inside a kernel, but an argument of that value
    is int64, so `offs < n` or `n - x` stays signed."""
    if -2**31 <= v < 2**31:
        return "i32"
    if -2**63 <= v < 2**63:
        return "i64"
    if 2**63 <= v < 2**64:
        return "u64"
    raise OverflowError("integer %d does not fit in 64 bits" % v)


# Whether an int equal to 1 is compiled with the `:1` hint, as Triton does:
# the kernel is specialised on it (the front end folds it to the constant 1
# and drops the parameter) and tc_launch leaves that argument out.
SPECIALIZE_EQUAL_TO_ONE = True


def int_hint(v, specialize=True):
    if not specialize:
        return None
    if v == 1:
        return 1 if SPECIALIZE_EQUAL_TO_ONE else None
    if v % 16 == 0:
        return 16
    return None


_TORCH_SIG_BY_DTYPE = {}  # torch dtype object -> signature type (or None)


def _torch_sig(dt):
    try:
        return _TORCH_SIG_BY_DTYPE[dt]
    except KeyError:
        s = _TORCH_SIG_BY_DTYPE[dt] = TORCH_SIG.get(str(dt))
        return s


def fill_torch_sigs(torch):
    """_TORCH_SIG_BY_DTYPE for every dtype a kernel takes, filled once torch
    is imported (the binding does it when a kernel is defined): a first
    launch then finds its tensors' types in the table instead of calling
    _torch_sig (~5 us of a first launch). Dtypes this torch lacks are left
    out, and any other dtype still goes through _torch_sig."""
    for name, sig in TORCH_SIG.items():
        dt = getattr(torch, name[len("torch."):], None)
        if dt is not None and str(dt) == name:
            _TORCH_SIG_BY_DTYPE.setdefault(dt, sig)


def _device_type(a):
    """'cuda', 'cpu' or the device's type, touching as little of torch as
    possible (a first call of a torch accessor in a process costs ~20 us)."""
    if a.is_cuda:
        return "cuda"
    if getattr(a, "is_cpu", False):
        return "cpu"
    return a.device.type


def _is_torch_tensor(a):
    t = sys.modules.get("torch")
    return t is not None and isinstance(a, t.Tensor)


def _is_ndarray(a):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(a, np.ndarray)


def _is_np_scalar(a):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(a, np.generic)


def ndarray_address(a):
    """The address of an ndarray's first element. `a.ctypes.data` and
    `__array_interface__` build Python objects (0.5-0.6 us); a ctypes view
    over the buffer is 3x faster and is tried first (writable, C-contiguous,
    non-empty arrays); the rest take the slow, general way."""
    try:
        return _addressof(_c_char.from_buffer(a))
    except (TypeError, ValueError, BufferError):
        return a.__array_interface__["data"][0]


import ctypes as _ctypes  # noqa: E402

_addressof = _ctypes.addressof
_c_char = _ctypes.c_char


def _mock_pointer(a):
    """`kernel.warmup` takes dtypes or signature strings in place of tensors
    (Triton's MockTensor): `torch.float16`, `tl.float16`, `'*fp16'`, `'i32'`."""
    if isinstance(a, _core.pointer_type):
        return ArgInfo("ptr", "*" + a.element_ty.sig, 16, 0, None, "%s" % a)
    if isinstance(a, _core.dtype):
        return ArgInfo("ptr", "*" + a.sig, 16, 0, None, "%s" % a)
    if isinstance(a, str):
        s = a.strip()
        hint = None
        if ":" in s:
            s, h = s.split(":", 1)
            hint = int(h)
        base = s[1:] if s.startswith("*") else s
        if base in PACK_FORMAT or base in _core._BY_SIG:
            kind = "ptr" if s.startswith("*") else (
                "float" if base.startswith(("fp", "bf")) else "bool" if base == "i1" else "int")
            return ArgInfo(kind, s, hint if hint is not None else (16 if kind == "ptr" else None),
                           0, None, a)
    t = sys.modules.get("torch")
    if t is not None and isinstance(a, t.dtype):
        sig = _torch_sig(a)
        if sig:
            return ArgInfo("ptr", "*" + sig, 16, 0, None, str(a))
    return None


def _classify_tensor(a, name, kernel, align):
    dt = a.dtype
    sig = _torch_sig(dt)
    if sig is None:
        raise ArgumentError("%s: argument '%s' is a tensor of dtype %s, which Triton kernels "
                            "cannot take" % (kernel, name, dt))
    p = a.data_ptr()
    return ArgInfo("ptr", "*" + sig, 16 if align and p % 16 == 0 else None, p,
                   _device_type(a), "torch.Tensor")


_INT_RANGE = {"i8": (-2**7, 2**7), "i16": (-2**15, 2**15), "i32": (-2**31, 2**31),
              "i64": (-2**63, 2**63), "u8": (0, 2**8), "u16": (0, 2**16), "u32": (0, 2**32),
              "u64": (0, 2**64), "i1": (0, 2)}
_FLOAT_SIGS = ("fp16", "bf16", "fp32", "fp64")


def annotation_sig(ann):
    """The signature type a parameter's annotation forces, as in Triton
    (`n: tl.int64` -> "i64", `x: tl.pointer_type(tl.float16)` or `x: "*fp16"`
    -> "*fp16", `s: "fp32"`), or None: no annotation, tl.constexpr, or
    anything that is not a Triton type (Python's int and float, tl.tensor),
    which Triton ignores too."""
    if isinstance(ann, _core.dtype):
        return ann.sig if ann.sig != "void" else None
    if not isinstance(ann, str):
        return None
    t = ann.strip()
    if t.startswith("const "):
        t = t[6:].strip()
    ptr = t.startswith("*") or t.endswith("*")
    t = t.strip("*").strip()
    if t.startswith("tl."):
        t = t[3:]
    if t in ("uint1", "u1", "bool"):  # Triton's other spellings of int1
        t = "int1"
    d = getattr(_core, t, None)
    sig = d.sig if isinstance(d, _core.dtype) else t if t in _core._BY_SIG else None
    if sig is None or sig == "void":
        return None
    return "*" + sig if ptr else sig


def _annotated(info, sig, a, name, kernel, specialize):
    """`info` (the argument as classified without its annotation) typed as
    the annotation says: a pointer keeps its alignment hint; an integer is
    never specialised to the constant 1, only on divisibility by 16; floats
    and bools are not specialised."""
    if info.kind == "none":
        return info
    if sig.startswith("*"):
        if info.kind != "ptr":
            raise ArgumentError("%s: argument '%s' is annotated %s but is a %s"
                                % (kernel, name, sig, info.desc))
        return info._replace(sig=sig)
    if info.kind == "ptr":
        raise ArgumentError("%s: argument '%s' is annotated %s but is a %s"
                            % (kernel, name, sig, info.desc))
    if sig in _FLOAT_SIGS:
        if sig not in PACK_FORMAT:
            raise ArgumentError("%s: argument '%s': %s scalar arguments are not supported"
                                % (kernel, name, sig))
        return ArgInfo("float", sig, None, float(info.value), None, info.desc)
    lo, hi = _INT_RANGE.get(sig, (None, None))
    if lo is None:
        raise ArgumentError("%s: argument '%s': annotation type %s is not supported"
                            % (kernel, name, sig))
    if info.kind == "float":
        raise ArgumentError("%s: argument '%s' is annotated %s but is a float"
                            % (kernel, name, sig))
    v = int(info.value)
    if not lo <= v < hi:
        raise ArgumentError("%s: argument '%s' = %d does not fit in %s" % (kernel, name, v, sig))
    if sig == "i1":
        return ArgInfo("bool", "i1", None, bool(v), None, info.desc)
    return ArgInfo("int", sig, 16 if specialize and v % 16 == 0 else None, v, None, info.desc)


def classify(a, name, kernel, *, specialize=True, align=True, mock=False, annotation=None):
    """The ArgInfo of argument `name` of `kernel`, or ArgumentError.
    `annotation`: the signature type the parameter's annotation forces
    (annotation_sig), if any."""
    if annotation is not None:
        info = classify(a, name, kernel, specialize=False, align=align, mock=mock)
        return _annotated(info, annotation, a, name, kernel, specialize)
    if isinstance(a, tuple):
        # Triton's tuple arguments: the kernel receives a tuple; its leaves
        # are parameters in order (a None leaf is a constant)
        leaves = tuple(classify(x, "%s[%d]" % (name, i), kernel, specialize=specialize, align=align,
                                mock=mock) for i, x in enumerate(a))
        dev = next((l.device for l in flat_leaves(leaves) if l.device), None)
        entries = [signature_entry(l) for l in leaves]
        fields = getattr(type(a), "_fields", None)  # a NamedTuple: `(name=entry,...)`, fields by name
        if isinstance(fields, tuple) and len(fields) == len(entries) and all(isinstance(f, str) for f in fields):
            entries = ["%s=%s" % (f, e) for f, e in zip(fields, entries)]
        return ArgInfo("tuple", "(%s)" % ",".join(entries), None, leaves, dev, "tuple")
    if a is None:
        return ArgInfo("none", None, None, 0, None, "None")
    if getattr(type(a), "_tritonc_jit_fn", False) or isinstance(a, _core.constexpr):
        # a @jit function or a tl.constexpr: a constexpr whatever the
        # annotation, as in Triton. A parameter's has no runtime slot, like
        # None (its text goes with the -D values); a tuple's leaf is spelled
        # in the signature, `cx:` and its text in hex
        try:
            text = constexpr_text(a)
        except TypeError as e:
            raise ArgumentError("%s: argument '%s': %s" % (kernel, name, e)) from None
        if "[" in name:
            return ArgInfo("cx", "cx:" + text.encode("utf-8").hex(), None, a, None, "constexpr")
        return ArgInfo("none", None, None, a, None,
                       "JITFunction" if not isinstance(a, _core.constexpr) else "constexpr")
    if a is True or a is False:
        return ArgInfo("bool", "i1", None, a, None, "bool")
    torch = sys.modules.get("torch")
    if torch is not None and type(a) is torch.Tensor:
        return _classify_tensor(a, name, kernel, align)
    if getattr(type(a), "_tritonc_descriptor", False):
        return _classify_descriptor(a, name, kernel)
    if isinstance(a, int):
        try:
            sig = int_sig(a)
        except OverflowError:
            raise ArgumentOverflowError("%s: argument '%s' = %d does not fit in 64 bits"
                                % (kernel, name, a)) from None
        return ArgInfo("int", sig, int_hint(a, specialize), int(a), None, "int")
    if isinstance(a, float):
        return ArgInfo("float", "fp32", None, float(a), None, "float")
    if _is_torch_tensor(a):  # a subclass of torch.Tensor
        return _classify_tensor(a, name, kernel, align)
    if _is_ndarray(a):
        sig = NUMPY_SIG.get(a.dtype.name)
        if sig is None:
            raise ArgumentError("%s: argument '%s' is a numpy array of dtype %s, which Triton "
                                "kernels cannot take" % (kernel, name, a.dtype))
        p = ndarray_address(a)
        return ArgInfo("ptr", "*" + sig, 16 if align and p % 16 == 0 else None, p, "cpu",
                       "numpy.ndarray(%s)" % a.dtype)
    if _is_np_scalar(a):
        k = a.dtype.kind
        if k == "b":
            return classify(bool(a), name, kernel, specialize=specialize)
        if k in "iu":
            return classify(int(a), name, kernel, specialize=specialize)
        if k == "f":
            return ArgInfo("float", "fp32", None, float(a), None, "numpy.%s" % a.dtype)
    if mock:
        m = _mock_pointer(a)
        if m is not None:
            return m
    if hasattr(a, "data_ptr") and hasattr(a, "dtype"):
        # Anything shaped like a tensor (Triton accepts these too).
        sig = _torch_sig(a.dtype) or getattr(a.dtype, "sig", None) or NUMPY_SIG.get(str(a.dtype))
        if sig is None:
            raise ArgumentError("%s: argument '%s' has dtype %s, which Triton kernels cannot take"
                                % (kernel, name, a.dtype))
        p = a.data_ptr()
        dev = getattr(a, "device", "cpu")
        dev = getattr(dev, "type", None) or str(dev).split(":")[0]
        return ArgInfo("ptr", "*" + sig, 16 if align and p % 16 == 0 else None, p, dev,
                       type(a).__name__)
    raise ArgumentError("%s: argument '%s' has type %s; a kernel takes tensors, numpy arrays, "
                        "ints, floats, bools or None" % (kernel, name, type(a).__name__))


def _elem_sig(a):
    if _is_torch_tensor(a):
        return _torch_sig(a.dtype)
    if _is_ndarray(a):
        return NUMPY_SIG.get(a.dtype.name)
    return None


def _classify_descriptor(d, name, kernel):
    """A host TensorDescriptor (tritonc.tools.tensor_descriptor): a pointer
    to its fields, with the element type and block shape in the signature."""
    sig = _elem_sig(d.base)
    if sig is None:
        raise ArgumentError("%s: argument '%s' is a TensorDescriptor over a %s, which Triton kernels "
                            "cannot take" % (kernel, name, type(d.base).__name__))
    base = d.base
    dev = _device_type(base) if _is_torch_tensor(base) else "cpu"
    # `:16` when the last dimension's size is a multiple of 16 (its bounds
    # check is then constant over 16 elements, and its loads are vectors)
    return ArgInfo("ptr", d._signature(sig), 16 if _last_dim_div16(d) else None, d._meta_pointer(),
                   dev, "TensorDescriptor(%s)" % sig)


def _last_dim_div16(d):
    return int(d.shape[-1]) % 16 == 0


def descriptor_key(d):
    """(value to pack, key) of a host TensorDescriptor for the launcher."""
    return d._meta_pointer(), ("D", str(getattr(d.base, "dtype", "")), tuple(int(b) for b in d.block_shape),
                               d.padding, str(getattr(d.base, "device", "cpu")), _last_dim_div16(d))


def signature_entry(info):
    if info.kind == "none":  # (inside a tuple; a None parameter is a constexpr)
        return "none"
    if info.kind == "cx":  # a tuple's constexpr leaf
        return info.sig
    if info.hint is None:
        return info.sig
    return "%s:%d" % (info.sig, info.hint)


def flat_leaves(infos):
    """The ArgInfos of `infos` with tuples replaced by their leaves, in
    order; None leaves of tuples (no parameter) are left out."""
    out = []
    for i in infos:
        if i.kind == "tuple":
            out += [l for l in flat_leaves(i.value) if l.kind not in ("none", "cx")]
        else:
            out.append(i)
    return out


def signature_string(infos):
    """"*fp32:16,*fp32:16,i32" from the ArgInfos of the runtime parameters
    (None arguments are constexprs and have no entry)."""
    return ",".join(signature_entry(i) for i in infos if i.kind != "none")


def constexpr_text(v):
    """A constexpr value written as Python would, for the C front end."""
    if isinstance(v, _core.constexpr):
        v = v.value
    if v is None or v is True or v is False:
        return repr(v)
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('inf')" if v > 0 else "-float('inf')"
        return repr(float(v))
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, _core.pointer_type):
        return "tl.pointer_type(%s)" % constexpr_text(v.element_ty)
    if isinstance(v, _core.dtype):
        return "tl." + v.attr
    t = sys.modules.get("torch")
    if t is not None and isinstance(v, t.dtype) and _torch_sig(v):
        return "tl." + _core._BY_SIG[_torch_sig(v)].attr
    if getattr(type(v), "_tritonc_jit_fn", False):
        # a @jit function passed as an argument: a constexpr, as in Triton;
        # the C front end finds it by name in the source (JITFunction puts
        # it there, _fn_roots)
        return "@" + v.fn.__name__
    if isinstance(v, tuple):
        inner = ", ".join(constexpr_text(x) for x in v)
        return "(%s,)" % inner if len(v) == 1 else "(%s)" % inner
    np = sys.modules.get("numpy")
    if np is not None and isinstance(v, np.generic):
        return constexpr_text(v.item())
    raise TypeError("a constexpr must be an int, float, bool, str, None, tuple, a dtype or a @jit function; "
                    "got %s" % type(v).__name__)


def is_constexpr_global(v):
    """Whether a module global can be handed to the C front end as a
    constant: Python scalars and strings, tl.constexpr and dtypes."""
    if isinstance(v, (_core.constexpr, _core.dtype)):
        return True
    if isinstance(v, (bool, int, float, str)):
        return True
    return False


def normalize_grid(g, kernel="kernel"):
    """A launch grid as three positive-or-zero ints."""
    if isinstance(g, int):
        g = (g,)
    try:
        n = len(g)
    except TypeError:
        raise ArgumentError("%s: the grid must be a tuple of 1 to 3 ints or a function "
                            "returning one; got %s" % (kernel, type(g).__name__)) from None
    if not 1 <= n <= 3:
        raise ArgumentError("%s: the grid has %d dimensions; it takes 1 to 3" % (kernel, n))
    out = []
    for x in g:
        try:
            out.append(int(x.__index__()))
        except AttributeError:
            raise ArgumentError("%s: grid dimension %r is not an int" % (kernel, x)) from None
    while len(out) < 3:
        out.append(1)
    if any(x >= 2**31 for x in out):
        raise ArgumentError("%s: grid %r is too large" % (kernel, tuple(out)))
    return tuple(out)


def pack_format(sigs):
    """The struct format for a launch buffer: the grid (3 x i32, padded to
    16 bytes), then one 8-byte slot per parameter in `sigs`; pointers are
    u64."""
    parts = ["=iii4x"]
    for s in sigs:
        if s is None:  # a None argument: a slot nobody reads
            parts.append("Q")
        elif s.startswith("*") or s.startswith("tensordesc<"):
            parts.append("Q")
        elif s in PACK_FORMAT:
            parts.append(PACK_FORMAT[s])
        else:
            raise TypeError("tritonc: cannot pass a scalar of type %s to a kernel" % s)
    return "".join(parts)
