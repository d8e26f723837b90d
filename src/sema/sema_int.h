/*
 * sema_int.h - what the files of src/sema share: Triton's types (TlType),
 * front-end values (TV), the Sema state and the semantic op builders.
 *
 * A TV is what Triton's code generator handles in Python: a runtime tensor
 * (an IR Value with its Triton type, which knows signedness the IR does not),
 * a compile-time value (int, float, bool, str, None, a dtype), a tuple, or a
 * callable (a tl builtin, a bound tensor method, a @jit function, a module
 * like `tl` or `tl.math`). TV_ERR is the poison an error leaves behind: every
 * builder returns it silently when an input is poison, so one mistake gives
 * one diagnostic and analysis goes on with the next statement.
 */
#ifndef TC_SEMA_INT_H
#define TC_SEMA_INT_H

#include "sema/sema.h"
#include "dialect/dialect.h"

/* What the files of sema share is not the library's interface (that is
 * sema.h): hidden, the compiler may take a call within a file as final,
 * and inline or specialise it, as it would a static function's. */
#pragma GCC visibility push(hidden)

/* ---- Triton types ---------------------------------------------------------- */

typedef enum TlKind {
    TL_VOID,
    TL_I1, TL_I8, TL_I16, TL_I32, TL_I64,
    TL_U8, TL_U16, TL_U32, TL_U64,
    TL_FP8E4NV, TL_FP8E5,
    /* Triton's other fp8 formats: dtype values a kernel can name and
     * compare (`x.dtype == tl.float8e4b8`), never an IR type: a tensor of
     * one is an error (tl_dtype_usable) */
    TL_FP8E4B15, TL_FP8E4B8, TL_FP8E5B16,
    TL_FP16, TL_BF16, TL_FP32, TL_FP64,
    TL_NSCALAR,
    TL_PTR = TL_NSCALAR, /* pointer_type: elem is the pointee */
    TL_BLOCK,            /* block_type: elem is the scalar (or pointer) element */
} TlKind;

typedef struct TlType TlType;
struct TlType {
    TlKind kind;
    bool cst; /* PTR: a pointer to constant data (tl.const): stores through it are errors */
    const TlType *elem;
    int rank;
    const int64_t *shape;
    Type *ir;
    TlType *next; /* intern chain */
    /* BLOCK: tl_with_elem's last two answers from this type, the latest
     * first (the same shape, another element: a compare's i1, a load's
     * pointee, a cast's target, an offset splatted for a block of pointers) */
    const TlType *with_elem[2];
    /* BLOCK: expand_dims' type at axis 0 and 1 (x[None, :], x[:, None]) */
    const TlType *expanded[2];
    /* BLOCK: the last broadcast of this type beside another of its rank
     * (sem_broadcast_pair_slow): the other, and this type stretched to the
     * shape of the pair (itself when it needs no tt.broadcast) */
    const TlType *bcast_other, *bcast;
    /* tl_mangle's text, kept at its first call when it fits (0: not yet) */
    uint8_t mangled_len;
    char mangled[23];
};

enum { TL_MAX_RANK = 8 };

typedef struct Sema Sema;

/* (inline below: sema asks at every operation) */
static inline const TlType *tl_scalar(Sema *S, TlKind k);
const TlType *tl_ptr(Sema *S, const TlType *pointee);
/* Triton's pointer_type(pointee, const=True): a distinct type, so that a
 * merge of it with a plain pointer is the type mismatch Triton reports. */
const TlType *tl_ptr_const(Sema *S, const TlType *pointee);
const TlType *tl_block(Sema *S, const TlType *elem, const int64_t *shape, int rank);
/* Same shape as `like` (or scalar), with another element type. */
const TlType *tl_with_elem(Sema *S, const TlType *like, const TlType *elem);
/* The block type t with a dimension of size 1 inserted at axis (0..rank). */
const TlType *tl_expand_dims(Sema *S, const TlType *t, int axis);
static inline const TlType *tl_sca(const TlType *t) { return t->kind == TL_BLOCK ? t->elem : t; }
static inline bool tl_is_block(const TlType *t) { return t->kind == TL_BLOCK; }
static inline bool tl_is_ptr(const TlType *t) { return t->kind == TL_PTR; }
/* scalar kinds only; int1 is unsigned, like Triton (dtype.UINT_TYPES holds 'int1') */
static inline bool tl_is_int(const TlType *t) { return t->kind >= TL_I1 && t->kind <= TL_U64; }
static inline bool tl_is_signed(const TlType *t) { return t->kind >= TL_I8 && t->kind <= TL_I64; }
static inline bool tl_is_unsigned(const TlType *t) {
    return t->kind == TL_I1 || (t->kind >= TL_U8 && t->kind <= TL_U64);
}
static inline bool tl_is_float(const TlType *t) { return t->kind >= TL_FP8E4NV && t->kind <= TL_FP64; }
static inline bool tl_is_fp8(const TlType *t) { return t->kind >= TL_FP8E4NV && t->kind <= TL_FP8E5B16; }
static inline bool tl_is_bool(const TlType *t) { return t->kind == TL_I1; }
int tl_bitwidth(const TlType *t);     /* primitive bit width; 64 for pointers */
int tl_mantissa(const TlType *t);     /* fp_mantissa_width */
int tl_exponent_bias(const TlType *t); /* exponent_bias; -1 for a non-float */
/* False (and reports Triton's error) for a dtype tritonc names but cannot
 * make tensors of: fp8e4b15, fp8e4b8, fp8e5b16 (also inside a pointer or block type). */
bool tl_dtype_usable(Sema *S, const TlType *t);
/* bool 0 < int 1 < float 2 */
static inline int tl_kind_rank(const TlType *t) { return tl_is_bool(t) ? 0 : tl_is_int(t) ? 1 : 2; }
const TlType *tl_int_type(Sema *S, int bits, bool is_signed);
int64_t tl_numel(const TlType *t);
/* Triton's names: "fp32", "int32", "pointer<fp16>", "<[128, 64], fp32>". */
void tl_str(const TlType *t, StrBuf *out);
const char *tl_cstr(Sema *S, const TlType *t); /* arena copy */
const char *tl_scalar_name(TlKind k);          /* "fp32" */
const char *tl_scalar_attr(TlKind k);          /* "float32": its name in tl */
/* Parses a signature type ("*fp32", "i32", "u64", "fp16", "bf16", "i1",
 * "fp8e4nv", "**fp32"); NULL if unknown. */
const TlType *tl_parse_sig(Sema *S, const char *s, size_t n);
/* A dtype by Triton attribute name ("float32", "int8", "bfloat16") or by
 * its name ("fp32"); NULL if unknown. */
const TlType *tl_dtype_by_name(Sema *S, const char *name);
/* Triton's mangling of an argument type (Pfp16, i32, fp32S128_64S). */
void tl_mangle(const TlType *t, StrBuf *out);

/* ---- front-end values ---------------------------------------------------- */

typedef enum TVKind {
    TV_ERR,
    TV_NONE,
    TV_INT,
    TV_FLOAT,
    TV_BOOL,
    TV_STR,
    TV_DTYPE,
    TV_TENSOR,  /* runtime value (scalar or block) */
    TV_TUPLE,
    TV_SLICE,   /* `:` in x[:, None] */
    TV_BUILTIN, /* a tl function (or a Python builtin we implement) */
    TV_METHOD,  /* builtin bound to a receiver (x.to, x.sum) */
    TV_JITFN,   /* a @jit function of the module */
    TV_PYFN,    /* a def that is not @jit */
    TV_MODULE,
    TV_GLOBAL_BAD, /* a module global that is not a constexpr */
    TV_AGGCLS,     /* an @aggregate class of the module (i: its index in Sema.aggs) */
} TVKind;

typedef struct Builtin Builtin;
typedef struct TV TV;
/* 48 bytes: TVs are passed and returned by value everywhere, so the fields
 * only one kind has share a union (read only for that kind), and the kind
 * and the flags share the first word with n. */
struct TV {
    TVKind kind : 8;
    unsigned is_desc : 2; /* TENSOR: a tensor descriptor (a block pointer at 0): 1 zero-padded, 2 NaN-padded */
    bool u64 : 1;         /* INT: i is the bit pattern of a value in [2^63, 2^64), which Triton types uint64 */
    bool noinline : 1;    /* JITFN */
    int n;            /* TUPLE: elements; SLICE: the upper bound */
    const TlType *ty; /* TENSOR: its type; DTYPE: the dtype */
    union {
        Value *v;      /* TENSOR */
        const char *s; /* STR; GLOBAL_BAD/PYFN/JITFN/AGGCLS: name */
    };
    int64_t i;        /* INT, BOOL, MODULE id; SLICE: the lower bound */
    TV *elems;        /* TUPLE elements; METHOD: the receiver (elems[0]) */
    union {
        double f;            /* FLOAT */
        const char **fields; /* TUPLE: a NamedTuple's field names (interned, n of them), or NULL; an
                              * @aggregate instance's are its class's own array (AggClass.fields) */
        const Builtin *bi;   /* BUILTIN, METHOD */
        const PyFunc *fn;    /* JITFN, PYFN */
    };
};
_Static_assert(sizeof(TV) == 48, "TV: six words");

static inline TV tv_err(void) { return (TV){.kind = TV_ERR}; }
static inline TV tv_none(void) { return (TV){.kind = TV_NONE}; }
static inline TV tv_int(int64_t i) { return (TV){.kind = TV_INT, .i = i}; }
static inline TV tv_uint64(uint64_t u) { return (TV){.kind = TV_INT, .i = (int64_t)u, .u64 = u > INT64_MAX}; }

/* Triton's limit on a tensor's element count (tl.TRITON_MAX_TENSOR_NUMEL) */
#define TL_MAX_NUMEL (INT64_C(1) << 20)
static inline TV tv_float(double f) { return (TV){.kind = TV_FLOAT, .f = f}; }
static inline TV tv_bool(bool b) { return (TV){.kind = TV_BOOL, .i = b}; }
static inline TV tv_tensor(Value *v, const TlType *t) { return (TV){.kind = TV_TENSOR, .v = v, .ty = t}; }
static inline TV tv_dtype(const TlType *t) { return (TV){.kind = TV_DTYPE, .ty = t}; }
static inline bool tv_is_num(const TV *v) { return v->kind == TV_INT || v->kind == TV_FLOAT || v->kind == TV_BOOL; }
/* A constexpr int where Python wants one: bool is an int there (True == 1), so
 * tl.arange(0, True), a shape (True, 4) or an axis False are taken, as Triton
 * takes them. (Where a bool behaves otherwise, as an operand is int1, the
 * kinds stay apart.) */
static inline bool tv_is_int(const TV *v) { return v->kind == TV_INT || v->kind == TV_BOOL; }
static inline bool tv_is_const(const TV *v) {
    return tv_is_num(v) || v->kind == TV_STR || v->kind == TV_NONE || v->kind == TV_DTYPE;
}
const char *tv_kind_name(const TV *v); /* "int", "tensor", "tuple", ... */
void tv_str(Sema *S, const TV *v, StrBuf *out); /* Python-ish repr for messages */

/* Module ids (TV_MODULE.i). */
enum { MOD_TRITON, MOD_TL, MOD_TL_MATH, MOD_TL_EXTRA, MOD_TL_CUDA, MOD_LIBDEVICE, MOD_TL_CORE,
       MOD_PYMATH, MOD_COUNT, MOD_TL_TARGET, MOD_TL_RANDOM,
       /* classes, for isinstance: tl.tensor, tl.tensor_descriptor, tl.dtype */
       MOD_CLS_TENSOR, MOD_CLS_DESC, MOD_CLS_DTYPE,
       /* a Python module of the user's (a helper module a kernel reads as `ops.silu`, `ops.SCALE`): the
        * Python binding writes it into the source as a class deriving from types.ModuleType whose body
        * binds the attributes the kernels read (`silu = silu`, `SCALE = 0.5`); S->spaces[i - MOD_SPACE] */
       MOD_SPACE = 64 };

/* ---- the state of one compilation ------------------------------------------ */

typedef struct ScopeEntry {
    const char *name;
    TV val;
} ScopeEntry;
/* A scope: its entries in the order their names were first bound (the
 * order Triton's dicts iterate in), each name once, and once it holds more
 * than a few an index over them (codegen.c): a function's scope holds tens
 * of names, and a lookup that scanned it took most of sema's time in a
 * name-heavy kernel. */
typedef struct Scope {
    ScopeEntry *data;
    int len, cap;
    int *index; /* open addressing on the interned name: entry + 1, 0 empty */
    int nindex; /* slots: 0 (no index: a scan) or a power of two over twice len */
} Scope;

typedef struct FuncState FuncState;

struct Sema {
    Context *ctx;
    DiagEngine *de;
    Arena *arena;          /* the context's arena */
    const PyModule *mod;
    Builder b;             /* where ops go */
    Loc loc;               /* location of the node being visited */
    int span;              /* its width, for the caret... */
    const PyExpr *span_node; /* ...or, when set, the width of this node, worked out only for a report */
    Op *module;
    Scope globals;         /* module globals: imports, constexprs, functions */
    FuncState *fn;         /* the function being generated */
    Map tltypes;           /* TlType interning: hash -> chain */
    const TlType *block_memo[128]; /* tl_block's recent answers (checked by content) */
    const TlType *scalars[TL_NSCALAR];
    Map fn_ret;            /* mangled name (interned) -> FuncRet * */
    Map mod_attrs;         /* (module, interned attribute name) -> TV * found (attr_of) */
    Map bi_params;         /* Builtin * -> its parameters, split (builtin_call) */
    Map assigned;          /* a loop body (PyBlock *) -> the names it assigns (codegen.c) */
    Attr *extern_attrs[2]; /* "" and true, for tt.extern_elementwise's libname, libpath, pure */
    Attr *div16_attrs;     /* {tt.divisibility = 16}, a kernel argument's with the hint :16 */
    struct I32Attr {       /* attr_i32 by value, a few (sema_attr_i32) */
        int64_t v;
        Attr *attr;
    } i32_attrs[16];
    struct ConstAttr {     /* a scalar constant's value attribute by (IR type, bits as given) (sem_const_int/float) */
        const Type *type;
        uint64_t bits;
        Attr *attr;
    } const_attrs[64];
    struct SplatAttr {     /* a splat constant's value attribute by (element's, tensor type) (const_reshaped) */
        const Attr *scalar;
        const Type *type;
        Attr *attr;
    } splat_attrs[128];
    Map const_ops;         /* a constant's value attribute -> the arith.constant last made of it (sem_constant) */
    int depth;             /* helper nesting, to stop runaway recursion */
    int64_t unrolled;      /* static_range iterations unrolled so far (capped: codegen.c); -1 past the cap */
    struct CallNote {      /* the last "in the call of F here" note, to fold a recursion's repeats */
        Loc loc;
        const char *fn;
        int nerrors;       /* the error count when it was written */
        int repeats;       /* the same note since, not written */
        bool valid;
    } call_note;
    bool quiet;            /* drop diagnostics (speculative evaluation) */
    bool numel_reported;   /* a tensor over Triton's element limit, or of a dimension not a power of 2, was reported */
    bool debug;            /* KernelSpec.debug: device asserts are kept */
    int target_sm;         /* KernelSpec.target_sm (tl.target_info) */
    int num_warps;         /* KernelSpec.num_warps (4 when not given): tl.extra.cuda.num_warps() */
    struct HostDesc **host_desc; /* per kernel parameter: a host TensorDescriptor's element type and block */
    struct AggClass **aggs; /* the module's @aggregate classes */
    int naggs;
    const PyClass **spaces; /* module namespaces (TV_MODULE from MOD_SPACE on): `class ops(types.ModuleType)` */
    int nspaces;
};

/* An @aggregate class (Triton's `tl.core._aggregate`). Its instances are
 * TV_TUPLEs whose `fields` is this class's `fields` array: the pointer
 * says which class an instance is of, and tuple code carries it along. */
typedef enum AggFieldKind { AGG_F_ANY, AGG_F_CONSTEXPR, AGG_F_TENSOR, AGG_F_AGG } AggFieldKind;
typedef struct AggClass {
    const char *name;           /* interned */
    const PyClass *cls;
    const char **fields;        /* interned, in annotation order */
    AggFieldKind *kinds;        /* what each field's annotation asks for */
    const char **field_cls;     /* AGG_F_AGG: the aggregate class's name */
    int nfields;
    const PyFunc *init;         /* __init__, or NULL (the fields in order) */
    const PyFunc **methods;     /* the other defs of the class body */
    int nmethods;
    /* a typing.NamedTuple class (not an @aggregate): a call makes a
     * plain named tuple, as a NamedTuple argument is (fields by name,
     * indexable); defaults[i] the default of field i, or NULL */
    bool namedtuple;
    const PyExpr **defaults;
} AggClass;
/* The class of an @aggregate instance, or NULL. */
const AggClass *sema_agg_of(const Sema *S, const TV *v);

const TlType *tl_scalar_make(Sema *S, TlKind k); /* tl_scalar's first call per kind */
static inline const TlType *tl_scalar(Sema *S, TlKind k) {
    return S->scalars[k] ? S->scalars[k] : tl_scalar_make(S, k);
}

/* A kernel parameter given as `tensordesc<fp16[64,64]>` in the signature;
 * `tensordesc<fp16[64,64]>:16` when its last dimension's size is a multiple
 * of 16 (the binding specialises on it, as on an int's divisibility). */
typedef struct HostDesc {
    const TlType *elem;
    int rank;
    int64_t block[TL_MAX_RANK];
    bool nan_pad;
    bool last_div16;
} HostDesc;

/* Reports an error at the current node (S->loc). Returns tv_err(). */
TV sema_error(Sema *S, const char *fmt, ...) TC_PRINTF(2, 3);
TV sema_error_at(Sema *S, Loc loc, int span, const char *fmt, ...) TC_PRINTF(4, 5);
void sema_note_at(Sema *S, Loc loc, const char *fmt, ...) TC_PRINTF(3, 4);

/* ---- constexprs (constexpr.c) --------------------------------------------- */

/* Python semantics on two compile-time numbers/strings; op is a PyBinOp or,
 * for comparisons, 100 + PyCmpOp. Reports errors (division by zero). */
TV cx_binary(Sema *S, int op, const TV *a, const TV *b);
TV cx_unary(Sema *S, PyUnaryOp op, const TV *a);
bool cx_truthy(const TV *a);
bool cx_equal(const TV *a, const TV *b);
TV cx_from_value(Sema *S, const ConstexprValue *cv);
/* The scalar of a block of one element (Triton's unsplat: tl.reshape(x, [])). */
TV sem_unsplat(Sema *S, TV x);
/* The @jit function `name` of the module (a constexpr argument "@name"),
 * or an error naming it. */
TV sema_global_jit_fn(Sema *S, const char *name);

/* ---- semantic builders (semantic.c) ---------------------------------------- */

/* A Python number as a runtime scalar of Triton's to_tensor type (a
 * tensor, or poison, as it is). */
TV sem_number_to_tensor(Sema *S, const TV *x);
static inline TV sem_to_tensor(Sema *S, const TV *x) {
    return x->kind == TV_TENSOR || x->kind == TV_ERR ? *x : sem_number_to_tensor(S, x);
}
const TlType *sem_to_tensor_type(Sema *S, const TV *x); /* NULL if not a number */
TV sem_scalar_constant(Sema *S, const TV *x, const TlType *dtype); /* scalar of dtype */
TV sem_cast_slow(Sema *S, TV x, const TlType *dst, const char *rounding);
/* (inline for the common case: a tensor already of dst's element type, a
 * type tritonc makes tensors of, with no rounding mode asked for) */
static inline TV sem_cast(Sema *S, TV x, const TlType *dst, const char *rounding) {
    const TlType *d = tl_sca(dst);
    if (x.kind == TV_TENSOR && !rounding && tl_sca(x.ty) == d &&
        d->kind != TL_PTR && !(d->kind >= TL_FP8E4B15 && d->kind <= TL_FP8E5B16))
        return x;
    return sem_cast_slow(S, x, dst, rounding);
}
TV sem_bitcast(Sema *S, TV x, const TlType *dst);
TV sem_splat(Sema *S, TV x, const int64_t *shape, int rank);
TV sem_broadcast_to(Sema *S, TV x, const int64_t *shape, int rank);
bool sem_broadcast_pair_slow(Sema *S, TV *a, TV *b);
/* (inline for the common case: two tensors of one type, nothing to do) */
static inline bool sem_broadcast_pair(Sema *S, TV *a, TV *b) {
    if (a->kind == TV_TENSOR && b->kind == TV_TENSOR && a->ty == b->ty) return true;
    return sem_broadcast_pair_slow(S, a, b);
}
/* Triton's libdevice has NAME, tritonc does not (yet). */
bool sema_libdevice_missing(const char *name);
TV sem_expand_dims(Sema *S, TV x, int64_t axis);
TV sem_reshape(Sema *S, TV x, const int64_t *shape, int rank, bool can_reorder);
TV sem_permute(Sema *S, TV x, const int *perm, int rank);
/* a OP b for runtime operands (at least one tensor); op is a PyBinOp. */
TV sem_binary(Sema *S, PyBinOp op, TV a, TV b);
TV sem_compare(Sema *S, PyCmpOp op, TV a, TV b);
/* The same on the caller's operands, which they convert in place (no
 * copies by value: the code generator's operators, at every node). */
TV sem_binary_in_place(Sema *S, PyBinOp op, TV *a, TV *b);
TV sem_compare_in_place(Sema *S, PyCmpOp op, TV *a, TV *b);
TV sem_minus(Sema *S, TV x);
TV sem_invert(Sema *S, TV x);
TV sem_not(Sema *S, TV x);
TV sem_logical(Sema *S, bool is_and, TV a, TV b);
TV sem_minmax(Sema *S, bool is_max, TV a, TV b, bool propagate_nan_all);
/* The descriptor a host TensorDescriptor parameter stands for, read from
 * the int64 fields its pointer `meta` points at (builtins.c). */
TV sem_host_descriptor(Sema *S, TV meta, const HostDesc *hd);
TV sem_where(Sema *S, TV c, TV x, TV y);
TV sem_arange(Sema *S, const TV *start, const TV *end);
TV sem_full(Sema *S, const int64_t *shape, int rank, const TV *value, const TlType *dtype);
TV sem_fdiv(Sema *S, TV a, TV b, bool ieee);
/* libdevice j0, j1, y0, y1, cyl_bessel_i0, cyl_bessel_i1 of an fp32 or fp64 tensor (bessel.c) */
TV sema_bessel(Sema *S, const char *name, TV x);
/* Binary type checking (binary_op_type_checking_impl): converts both to
 * tensors of the computation type and broadcasts them (two distinct TVs,
 * rewritten in place). */
bool sem_binary_check_slow(Sema *S, TV *a, TV *b, bool allow_lhs_ptr, bool allow_rhs_ptr,
                           bool arith_check, bool div_or_mod);
/* (inline for the common case: two tensors of one element type that is
 * not a pointer, already of the computation type, but for `/` and `%` of
 * 16-bit floats, computed in fp32; only broadcast, if of two shapes) */
static inline bool sem_binary_check(Sema *S, TV *a, TV *b, bool allow_lhs_ptr, bool allow_rhs_ptr,
                                    bool arith_check, bool div_or_mod) {
    if (a->kind == TV_TENSOR && b->kind == TV_TENSOR) {
        const TlType *e = tl_sca(a->ty);
        TlKind k = e->kind;
        if (e == tl_sca(b->ty) && k != TL_PTR && !(div_or_mod && (k == TL_FP16 || k == TL_BF16)))
            return a->ty == b->ty || sem_broadcast_pair_slow(S, a, b);
    }
    return sem_binary_check_slow(S, a, b, allow_lhs_ptr, allow_rhs_ptr, arith_check, div_or_mod);
}
const TlType *sem_integer_promote(Sema *S, const TlType *a, const TlType *b);
Value *sem_const_int(Sema *S, const TlType *t, int64_t v);   /* scalar or splat */
/* attr_i32(S->ctx, v), remembered: the ops of a kernel carry the same few
 * (cache, evict, axis, divisibility), and uniquing one hashes it again. */
Attr *sema_attr_i32(Sema *S, int64_t v);
Value *sem_const_float(Sema *S, const TlType *t, double v);
Value *sem_ir(Sema *S, OpKind k, const TlType *res, Value *a, Value *b); /* one-result op */
Op *sem_op(Sema *S, OpKind k, Value *const *ops, int nops, Type *const *res, int nres, int nreg);

/* ---- builtins (builtins.c) ------------------------------------------------- */

typedef struct CallArgs CallArgs;
typedef TV (*BuiltinFn)(Sema *S, CallArgs *a);
enum { BI_TL = 1, BI_MATH = 2, BI_METHOD = 4, BI_PY = 8, BI_TRITON = 16, BI_LIBDEVICE = 32,
       BI_STATIC = 64 /* gets unevaluated argument nodes */,
       BI_DESC = 128 /* a method of tensor descriptors (block pointers) */,
       BI_PYCX = 256 /* a Python builtin only a @triton.constexpr_function's body may call */ };
struct Builtin {
    const char *name;
    unsigned where;      /* BI_*: the namespaces it is found in */
    const char *params;  /* "input,axis=None,keep_dims=False": '=' marks optional */
    BuiltinFn fn;
    int arg;             /* a parameter for shared implementations (an OpKind, ...) */
};
enum { MAX_CALL_ARGS = 16 };
struct CallArgs {
    const Builtin *bi;
    TV v[MAX_CALL_ARGS];   /* bound to params; TV_NONE with given[i] false if absent */
    bool given[MAX_CALL_ARGS];
    const PyExpr *node[MAX_CALL_ARGS]; /* the argument expressions (NULL for a receiver) */
    const PyExpr *call;
};
const Builtin *builtin_lookup(unsigned where, const char *name);
/* The builtin of namespaces `where` whose name is nearest `name` (a typo's
 * "did you mean"), or NULL. */
const char *builtin_suggest(unsigned where, const char *name);
/* Keeps in *best the candidate nearest `name` within CPython's limit for its
 * "Did you mean" (codegen.c). */
void sema_suggest(const char *name, const char *cand, const char **best, int *bestd);
/* The callable attribute `name` of module `mod`, or TV_ERR (no report). */
TV builtin_module_attr(Sema *S, int mod, const char *name, bool *found);
/* getattr / hasattr on a compile-time object (codegen.c). */
TV cg_getattr(Sema *S, TV obj, TV name, const TV *dflt, bool has);
/* tl.device_assert (and `assert`): a tt.assert in debug mode, else nothing. */
TV sema_device_assert(Sema *S, TV cond, const TV *msg, const TV *mask);
/* Binds and calls. */
TV builtin_call(Sema *S, const Builtin *bi, const TV *recv, const PyExpr *call);
/* Builds a reduction/scan combiner region from a @jit function. */

/* ---- codegen (codegen.c), used by builtins ---------------------------------- */

TV cg_expr(Sema *S, const PyExpr *e);
/* Calls a @jit function with evaluated arguments (tt.call of a private func,
 * or inlined into the current block when `inline_here`: combiner regions). */
TV cg_call_jit(Sema *S, const TV *fn, const TV *args, int nargs, const char *const *kwnames,
               const TV *kwvals, int nkw, bool inline_here);
/* Runs a @jit combine function body over the given block arguments as the
 * current function (for tt.reduce / tt.scan regions). Returns the tuple of
 * results (or a single value). */
TV cg_inline_jit(Sema *S, const TV *fn, const TV *args, int nargs);

#pragma GCC visibility pop

#endif
