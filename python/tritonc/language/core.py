"""tritonc.language.core - the names a Triton kernel file refers to.

A kernel body is never executed by Python: tritonc's C front end reads its
source and gives `tl.load`, `tl.arange`, ... their meaning. What Python does
evaluate is the host side of a kernel file: decorators, annotations
(`BLOCK: tl.constexpr`), default values, module-level constants
(`LOG2E = tl.constexpr(1.4426950408889634)`) and arguments passed from host
code (`dtype=tl.float16`). So this module defines real objects for dtypes,
`constexpr` and the type constructors, and a named stub for every builtin;
calling a stub from host code raises a clear error.
"""

__all__ = []  # filled in at the bottom


class dtype:
    """A Triton scalar type. `name` is Triton's spelling (`fp32`, `int32`);
    `sig` is the signature spelling the C API takes (`fp32`, `i32`)."""

    __slots__ = ("name", "sig", "attr", "itemsize")

    # Triton's lists of dtype names (`tl.dtype(name)` makes each one)
    SINT_TYPES = ['int8', 'int16', 'int32', 'int64']
    UINT_TYPES = ['int1', 'uint8', 'uint16', 'uint32', 'uint64']
    FP_TYPES = ['fp8e4b15', 'fp8e4nv', 'fp8e4b8', 'fp8e5', 'fp8e5b16', 'fp16', 'bf16', 'fp32', 'fp64']
    STANDARD_FP_TYPES = ['fp16', 'bf16', 'fp32', 'fp64']
    OTHER_TYPES = ['void']

    def __init__(self, name, sig=None, attr=None, itemsize=None):
        if sig is None:
            # `tl.dtype("int8")`, `tl.dtype("fp32")`: Triton's constructor
            # by name, equal to the dtype of that name
            d = _BY_NAME.get(name) if isinstance(name, str) else None
            if d is None:
                raise ValueError("unknown dtype name %r (one of %s)" % (
                    name, ", ".join(sorted(_BY_NAME))))
            name, sig, attr, itemsize = d.name, d.sig, d.attr, d.itemsize
        self.name, self.sig, self.attr, self.itemsize = name, sig, attr, itemsize

    def __str__(self):
        return self.name

    def __repr__(self):
        return "tritonc.language." + self.attr

    def __eq__(self, other):
        return isinstance(other, dtype) and self.name == other.name

    def __hash__(self):
        return hash(("tl.dtype", self.name))

    def __reduce__(self):
        return (_dtype_by_attr, (self.attr,))

    def is_floating(self):
        return self.sig.startswith(("fp", "bf"))

    def is_int(self):
        return self.sig[0] in "iu"

    def is_int_signed(self):
        return self.sig[0] == "i"

    def is_int_unsigned(self):
        return self.sig[0] == "u"

    def is_bool(self):
        return self.sig == "i1"

    def is_ptr(self):
        return False

    @property
    def primitive_bitwidth(self):
        return 1 if self.sig == "i1" else self.itemsize * 8

    def to_ir(self, builder):  # pragma: no cover - Triton API shape only
        raise RuntimeError("tritonc: dtypes are lowered by the C front end")


class const:
    """`x_ptr: tl.const`: the annotation that makes a pointer parameter a
    pointer to constant data, as in Triton: a store through it is an error,
    and it is a type of its own (a branch that gives it or a plain pointer
    mismatches)."""


class pointer_type(dtype):
    """`tl.pointer_type(tl.float32)`: a pointer to element_ty (`*fp32`)."""

    __slots__ = ("element_ty", "address_space", "const")

    def __init__(self, element_ty, address_space=1, const=False):
        super().__init__("pointer<%s>" % element_ty.name, "*" + element_ty.sig,
                         "pointer_type(%s)" % element_ty.attr, 8)
        self.element_ty, self.address_space, self.const = element_ty, address_space, const

    def __str__(self):
        return "*" + str(self.element_ty)

    def __repr__(self):
        return "tritonc.language.pointer_type(%r)" % (self.element_ty,)

    def is_ptr(self):
        return True

    def __reduce__(self):
        return (pointer_type, (self.element_ty, self.address_space, self.const))


class block_type(dtype):
    """`tl.block_type(elem, shape)`: the type of a tile (host-side shape only)."""

    __slots__ = ("element_ty", "shape")

    def __init__(self, element_ty, shape):
        super().__init__("<%s, %s>" % (list(shape), element_ty.name), element_ty.sig,
                         element_ty.attr, element_ty.itemsize)
        self.element_ty, self.shape = element_ty, tuple(shape)

    def __reduce__(self):
        return (block_type, (self.element_ty, self.shape))


# (attribute, Triton name, signature spelling, bytes)
_DTYPES = [
    ("int1", "int1", "i1", 1), ("int8", "int8", "i8", 1), ("int16", "int16", "i16", 2),
    ("int32", "int32", "i32", 4), ("int64", "int64", "i64", 8),
    ("uint8", "uint8", "u8", 1), ("uint16", "uint16", "u16", 2), ("uint32", "uint32", "u32", 4),
    ("uint64", "uint64", "u64", 8),
    ("float8e5", "fp8e5", "fp8e5", 1), ("float8e5b16", "fp8e5b16", "fp8e5b16", 1),
    ("float8e4nv", "fp8e4nv", "fp8e4nv", 1), ("float8e4b8", "fp8e4b8", "fp8e4b8", 1),
    ("float8e4b15", "fp8e4b15", "fp8e4b15", 1),
    ("float16", "fp16", "fp16", 2), ("bfloat16", "bf16", "bf16", 2),
    ("float32", "fp32", "fp32", 4), ("float64", "fp64", "fp64", 8),
]
_BY_ATTR = {}
_BY_SIG = {}
for _attr, _name, _sig, _size in _DTYPES:
    _BY_ATTR[_attr] = _BY_SIG[_sig] = globals()[_attr] = dtype(_name, _sig, _attr, _size)
void = dtype("void", "void", "void", 0)
_BY_ATTR["void"] = void
bool_ = bool1 = int1  # noqa: F821 - defined through globals() above
float8e4b15x4 = float8e4b15  # noqa: F821
float8e4 = float8e4nv  # noqa: F821 - the old spelling
_BY_ATTR.update(bool_=int1, bool1=int1)  # noqa: F821


_BY_NAME = {d.name: d for d in _BY_ATTR.values()}


def _dtype_by_attr(attr):
    return _BY_ATTR[attr]


class constexpr:
    """A compile-time constant. As an annotation (`BLOCK: tl.constexpr`) it
    marks a parameter the kernel is specialised on; as a value
    (`LOG2E = tl.constexpr(1.44)`) it makes a module global usable in a
    kernel."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self):
        return hash(self.value)

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __str__(self):
        return str(self.value)

    def __iter__(self):
        return iter(self.value)

    def __getitem__(self, i):
        return self.value[i]

    def __len__(self):
        return len(self.value)


def _cx_value(x):
    return x.value if isinstance(x, constexpr) else x


def _cx_binary(name, op, reflected=False):
    def f(self, other):
        a, b = self.value, _cx_value(other)
        return constexpr(op(b, a) if reflected else op(a, b))
    f.__name__ = name
    return f


def _cx_unary(name, op):
    def f(self):
        return constexpr(op(self.value))
    f.__name__ = name
    return f


# Host-side arithmetic and comparisons on constexprs give constexprs, as in
# Triton (`BLOCK * 2`, `if BLOCK_DEFAULT > 64:` on a module global).
import operator as _op  # noqa: E402

for _name, _fn in (("add", _op.add), ("sub", _op.sub), ("mul", _op.mul), ("truediv", _op.truediv),
                   ("floordiv", _op.floordiv), ("mod", _op.mod), ("pow", _op.pow), ("lshift", _op.lshift),
                   ("rshift", _op.rshift), ("and", _op.and_), ("or", _op.or_), ("xor", _op.xor)):
    setattr(constexpr, "__%s__" % _name, _cx_binary("__%s__" % _name, _fn))
    setattr(constexpr, "__r%s__" % _name, _cx_binary("__r%s__" % _name, _fn, reflected=True))
for _name, _fn in (("lt", _op.lt), ("le", _op.le), ("gt", _op.gt), ("ge", _op.ge), ("ne", _op.ne)):
    setattr(constexpr, "__%s__" % _name, _cx_binary("__%s__" % _name, _fn))
for _name, _fn in (("neg", _op.neg), ("pos", _op.pos), ("invert", _op.invert), ("abs", abs)):
    setattr(constexpr, "__%s__" % _name, _cx_unary("__%s__" % _name, _fn))


class tensor:
    """The type of a tile inside a kernel. Only usable as an annotation on
    the host side."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("tritonc: tl.tensor exists only inside @triton.jit functions")


class tensor_descriptor:  # annotation only
    pass


class PropagateNan:
    NONE = 0x0000
    ALL = 0xFFFF


class CacheModifier:
    NONE, CA, CG, WB, CS, WT, CV = range(7)


class EvictionPolicy:
    NORMAL, EVICT_FIRST, EVICT_LAST = range(3)


class _Builtin:
    """A builtin that only has meaning inside a kernel. Host code that calls
    it gets an error naming it, as Triton's builtins do outside @jit."""

    def __init__(self, name, module):
        self.__name__ = self.__qualname__ = name
        self.__module__ = module
        self.__doc__ = "tritonc builtin %s (compiled by the C front end)" % name

    def __repr__(self):
        return "<tritonc builtin %s.%s>" % (self.__module__, self.__name__)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s.%s cannot be called outside the scope of a kernel "
                           "(@triton.jit function)" % (self.__module__, self.__name__))

    def __getattr__(self, attr):  # e.g. tl.range's methods; never evaluated in practice
        raise AttributeError("%s.%s has no attribute %r" % (self.__module__, self.__name__, attr))


def _builtins(module_globals, module, names):
    for n in names.split():
        module_globals[n] = _Builtin(n, module)
    return names.split()


_BUILTIN_NAMES = _builtins(globals(), "tritonc.language", """
    abs advance arange argmax argmin associative_scan assume atomic_add atomic_and
    atomic_cas atomic_max atomic_min atomic_or atomic_xchg atomic_xor broadcast
    broadcast_to cast cat ceil clamp cos cumprod cumsum debug_barrier device_assert
    device_print div_rn dot dot_scaled erf exp exp2 expand_dims fdiv flip floor fma
    full gather histogram inline_asm_elementwise interleave join load
    load_tensor_descriptor log log2 make_block_ptr make_tensor_descriptor map_elementwise
    max max_constancy max_contiguous maximum min minimum multiple_of num_programs permute
    program_id rand rand4x randint randint4x randn randn4x ravel reduce reshape
    rsqrt sigmoid sin softmax sort split sqrt sqrt_rn static_assert static_print store
    store_tensor_descriptor sum swizzle2d topk trans umulhi view where xor_sum zeros
    zeros_like philox philox_impl pair_uniform_to_normal uint_to_uniform_float
    cdiv range static_range condition add sub mul reduce_or bitonic_merge
""")
# tl.cdiv and tl.range are builtins in a kernel; host code may still call cdiv.


def _host_cdiv(x, y):
    return (x + y - 1) // y


globals()["cdiv"] = _host_cdiv

TRITON_MAX_TENSOR_NUMEL = constexpr(1048576)  # (the front end's TL_MAX_NUMEL)


def _aggregate(cls):
    """Triton's `tl.core._aggregate` class decorator. The C front end reads
    the class from the source (its annotated fields, `__init__` and
    `@triton.jit` methods) and builds its instances inside kernels; on the
    host the class stays as written, marked as an aggregate."""
    cls.__triton_aggregate__ = True
    return cls

__all__ = sorted(set(
    ["dtype", "pointer_type", "block_type", "constexpr", "const", "tensor", "tensor_descriptor",
     "PropagateNan", "CacheModifier", "EvictionPolicy", "void", "bool_", "bool1",
     "float8e4b15x4", "TRITON_MAX_TENSOR_NUMEL"] + [d[0] for d in _DTYPES] + _BUILTIN_NAMES))
