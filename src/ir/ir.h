/*
 * ir.h - tritonc's one IR core, shaped like MLIR, in plain C.
 *
 * An Op has a kind (a row of some dialect's op table), operands (Uses of
 * Values), results (Values it defines), named attributes and nested Regions.
 * A Region holds Blocks; a Block has arguments (Values) and a doubly linked
 * list of Ops. Every Value has one definition (an op result or a block
 * argument), a Type, and a list of its Uses, so replace-all-uses and dead
 * code checks are O(uses).
 *
 * A module is itself an op (`builtin.module`) with one region of one block
 * holding `tt.func` ops, exactly as in MLIR; that keeps the parser, printer
 * and passes uniform. Types and attributes are immutable and uniqued per
 * Context, so they compare by pointer.
 *
 * Memory: everything here lives in the Context's arena and is freed with
 * ctx_free(). Erasing an op unlinks it; its memory goes with the arena.
 */
#ifndef TC_IR_H
#define TC_IR_H

#include "support/support.h"

typedef struct Context Context;
typedef struct Type Type;
typedef struct Attr Attr;
typedef struct Value Value;
typedef struct Use Use;
typedef struct Op Op;
typedef struct Block Block;
typedef struct Region Region;

/* ---- op kinds: one enum over every dialect's table --------------------- */

typedef enum OpKind {
#define OP(kind, name, fmt, nopmin, nopmax, nres, nreg, flags, verify, fold) kind,
#include "dialect/ops.def"
#undef OP
    OP_COUNT
} OpKind;

/* Op properties (the `flags` column). */
enum {
    OPF_PURE = 1 << 0,        /* no side effects: CSE/DCE/LICM may move or drop it */
    OPF_COMMUTATIVE = 1 << 1, /* binary op with interchangeable operands */
    OPF_TERMINATOR = 1 << 2,  /* must end its block */
    OPF_ELEMENTWISE = 1 << 3, /* applies element by element to tensors */
    OPF_SAME_TYPE = 1 << 4,   /* all operands and results have one type */
    OPF_ISOLATED = 1 << 5,    /* regions can't see values from outside (func) */
    OPF_MEM_READ = 1 << 6,
    OPF_MEM_WRITE = 1 << 7,
    OPF_SYMBOL = 1 << 8,      /* defines a symbol (sym_name attribute) */
    OPF_CONSTANT = 1 << 9,    /* a constant-like op the folder can read */
    OPF_IDEMPOTENT = 1 << 10, /* f(f(x)) == f(x) */
    OPF_INVOLUTION = 1 << 11, /* f(f(x)) == x */
};

/* The textual format an op uses (see print.c / parse.c). Ops without a
 * custom format print in MLIR's generic form. */
typedef enum OpFormat {
    FMT_GENERIC,    /* "d.op"(%a, %b) <{props}> ({...}) {attrs} : (T, T) -> T */
    FMT_SAME,       /* %r = d.op %a, %b attr-dict : T           (same types) */
    FMT_CAST,       /* %r = d.op %a attr-dict : T1 to T2 */
    FMT_CONVERT,    /* %r = d.op %a attr-dict : T1 -> T2 */
    FMT_CMP,        /* %r = arith.cmpi slt, %a, %b : T */
    FMT_CONSTANT,   /* %r = arith.constant 1 : i32 | dense<...> : T */
    FMT_SELECT,     /* %r = arith.select %c, %a, %b : T | Tc, T */
    FMT_CUSTOM,     /* a hand-written printer/parser pair keyed by kind */
} OpFormat;

struct Op;
typedef bool (*OpVerifyFn)(Op *op, DiagEngine *de);
/* Folds op given its operands' constant values (NULL where unknown). On
 * success writes one Attr per result to out[] (a constant, built in c) or,
 * for a fold to an existing value, sets *out_value. Returns false if
 * nothing folds. Folders never edit the IR; canonicalize does. */
typedef bool (*OpFoldFn)(Context *c, Op *op, Attr **operand_consts, Attr **out, Value **out_value);

typedef struct OpInfo {
    const char *name;      /* "arith.addi" */
    OpFormat format;
    int nopmin, nopmax;    /* nopmax < 0: variadic */
    int nres;              /* < 0: variadic */
    int nregions;
    unsigned flags;
    OpVerifyFn verify;     /* may be NULL */
    OpFoldFn fold;         /* may be NULL */
} OpInfo;

extern const OpInfo op_info[OP_COUNT];
OpKind op_kind_lookup(const char *name); /* OP_COUNT if unknown */
OpKind op_kind_lookup_n(const char *name, size_t len); /* name need not end in NUL */

/* ---- types -------------------------------------------------------------- */

typedef enum TypeKind {
    TY_INT,    /* i1..i64; si/ui variants via is_signed/is_unsigned */
    TY_FLOAT,
    TY_INDEX,
    TY_PTR,    /* !tt.ptr<T> or !tt.ptr<T, addrspace> */
    TY_TENSOR, /* tensor<4x8xf32> (optionally with an encoding attribute) */
    TY_FUNC,   /* (T, T) -> (T) */
    TY_NONE,
} TypeKind;

typedef enum FloatKind {
    FK_F8E4M3, /* MLIR f8E4M3FN, Triton fp8e4nv */
    FK_F8E5M2,
    FK_F16,
    FK_BF16,
    FK_F32,
    FK_F64,
} FloatKind;

typedef enum IntSign { SIGNLESS, SIGNED, UNSIGNED } IntSign;

struct Type {
    TypeKind kind;
    int width;      /* int/float bits */
    IntSign sign;   /* int */
    FloatKind fkind;
    Type *elem;     /* ptr pointee, tensor element */
    int addrspace;  /* ptr */
    int rank;       /* tensor */
    const int64_t *shape;
    Attr *encoding; /* tensor layout (ttg), NULL in tt */
    /* dialect/ttg.c's decoding of `encoding` (a const Layout *), set on first
     * use: types are unique, so each is decoded once (neither hashed nor
     * compared) */
    const void *layout;
    Type *const *inputs, *const *results; /* func */
    int ninputs, nresults;
    uint64_t hash;
};

Type *ty_int(Context *c, int width);             /* signless iN */
Type *ty_int_signed(Context *c, int width, IntSign sign);
Type *ty_i1(Context *c);
Type *ty_i32(Context *c);
Type *ty_i64(Context *c);
Type *ty_float(Context *c, FloatKind k);
Type *ty_f32(Context *c);
Type *ty_index(Context *c);
Type *ty_none(Context *c);
Type *ty_ptr(Context *c, Type *pointee, int addrspace);
Type *ty_tensor(Context *c, const int64_t *shape, int rank, Type *elem, Attr *encoding);
Type *ty_func(Context *c, Type *const *in, int nin, Type *const *res, int nres);

static inline bool ty_is_int(const Type *t) { return t->kind == TY_INT; }
static inline bool ty_is_float(const Type *t) { return t->kind == TY_FLOAT; }
static inline bool ty_is_ptr(const Type *t) { return t->kind == TY_PTR; }
static inline bool ty_is_tensor(const Type *t) { return t->kind == TY_TENSOR; }
/* Element type of a tensor, or the type itself for scalars. */
static inline Type *ty_elem(Type *t) { return t->kind == TY_TENSOR ? t->elem : t; }
/* Same shape (and encoding) as `like`, with another element type. */
Type *ty_with_elem(Context *c, Type *like, Type *elem);
int64_t ty_numel(const Type *t); /* 1 for scalars */
bool ty_same_shape(const Type *a, const Type *b);
int ty_float_mantissa_bits(FloatKind k);
const char *ty_float_name(FloatKind k); /* "f32", "f8E4M3FN", ... */
void ty_print(const Type *t, StrBuf *out);
/* The IR printer's attribute aliases (`#blocked = #ttg.blocked<...>` once,
 * `#blocked` in every type): print(h, a, out) writes a dialect attribute
 * found inside a type or attribute in its aliased form, or returns false to
 * have it written as is. */
typedef struct AttrAliasHook AttrAliasHook;
struct AttrAliasHook {
    bool (*print)(AttrAliasHook *h, const Attr *a, StrBuf *out);
};
void ty_print_aliased(const Type *t, StrBuf *out, AttrAliasHook *h);

/* ---- attributes ----------------------------------------------------------- */

typedef enum AttrKind {
    ATTR_UNIT,
    ATTR_BOOL,
    ATTR_INT,    /* `16 : i32`; type may be NULL for a bare integer */
    ATTR_FLOAT,  /* `1.0 : f32` */
    ATTR_STRING,
    ATTR_TYPE,
    ATTR_ARRAY,  /* [a, b] */
    ATTR_DICT,   /* {name = a, ...} */
    ATTR_DENSE,  /* dense<...> : tensor<...>; nvals == 1 is a splat */
    ATTR_DENSE_ARRAY, /* array<i32: 1, 2> */
    ATTR_SYMREF, /* @name */
    ATTR_OPAQUE, /* anything else (#layout<...>), kept as text */
} AttrKind;

/* The well-known attribute names (ir/attr_names.def): op_attr_k and its
 * kin find them by address (see there). */
typedef enum AttrName {
#define ATTR_NAME(id, text) AN_##id,
#include "ir/attr_names.def"
#undef ATTR_NAME
    AN_COUNT
} AttrName;
extern const char *const attr_names[AN_COUNT];

typedef struct NamedAttr {
    const char *name; /* interned */
    Attr *attr;
} NamedAttr;

struct Attr {
    AttrKind kind;
    Type *type; /* INT/FLOAT/DENSE: value type; DENSE_ARRAY: element type */
    union {
        bool b;
        int64_t i;
        double f;
        const char *s;     /* STRING, SYMREF, OPAQUE (interned) */
        Type *ty;          /* TYPE */
        struct {
            Attr *const *elems;
            int n;
        } arr;             /* ARRAY */
        struct {
            const NamedAttr *entries;
            int n;
        } dict;            /* DICT, entries sorted by name */
        struct {
            /* integer (and bool) elements in ints, float elements in floats */
            const int64_t *ints;
            const double *floats;
            int64_t nvals;
        } dense;           /* DENSE, DENSE_ARRAY */
    };
    uint64_t hash;
};

Attr *attr_unit(Context *c);
Attr *attr_bool(Context *c, bool v);
Attr *attr_int(Context *c, Type *t, int64_t v);
Attr *attr_i32(Context *c, int64_t v);
Attr *attr_float(Context *c, Type *t, double v);
Attr *attr_string(Context *c, const char *s);
Attr *attr_type(Context *c, Type *t);
Attr *attr_array(Context *c, Attr *const *elems, int n);
Attr *attr_dict(Context *c, const NamedAttr *entries, int n); /* sorts a copy */
Attr *attr_dense_int(Context *c, Type *t, const int64_t *vals, int64_t n);
Attr *attr_dense_float(Context *c, Type *t, const double *vals, int64_t n);
Attr *attr_dense_splat(Context *c, Type *tensor_ty, Attr *scalar);
Attr *attr_dense_array(Context *c, Type *elem, const int64_t *vals, int64_t n);
Attr *attr_symref(Context *c, const char *name);
Attr *attr_opaque(Context *c, const char *text);
Attr *attr_dict_get(const Attr *dict, const char *name);
/* Scalar view of a constant: for INT/BOOL/FLOAT or a splat DENSE. */
bool attr_is_splat(const Attr *a);
bool attr_as_int(const Attr *a, int64_t *out);
bool attr_as_float(const Attr *a, double *out);
void attr_print(const Attr *a, StrBuf *out);
void attr_print_aliased(const Attr *a, StrBuf *out, AttrAliasHook *h); /* h may be NULL */
/* A float as MLIR prints it for type t (f64 when t is NULL). */
void float_print(double v, Type *t, StrBuf *out);

/* Integer helpers with the IR's semantics: values are stored sign-extended
 * to 64 bits; these truncate/extend to a type's width. */
int64_t int_wrap(int64_t v, int width);       /* sign-extend low `width` bits */
uint64_t int_wrap_u(int64_t v, int width);    /* zero-extend low `width` bits */
/* Round a double to a float kind exactly as a cast would (RNE), then back. */
double float_round(double v, FloatKind k);

/* ---- values, uses, ops, blocks, regions -------------------------------- */

struct Use {
    Value *value;
    Op *owner;
    Use *next, **pprev; /* the value's use list */
};

struct Value {
    Type *type;
    Op *def;             /* defining op, or NULL for a block argument */
    Block *owner_block;  /* for block arguments */
    int index;           /* result number / argument number */
    uint32_t id;         /* unique in its Context and dense: values are
                            numbered 0, 1, ... as they are made, so a table
                            about every value is an array (ctx_value_count
                            long) rather than a hash map keyed by Value* */
    Use *uses;
    const char *name;    /* name hint for printing (interned), may be NULL */
    Loc loc;             /* block arguments carry their own location */
};

struct Op {
    /* (fields ordered so that no padding is needed: 104 bytes rather than
     * 120; every pass walks every op, so its size is memory traffic) */
    OpKind kind;
    int noperands, nresults, nregions;
    Block *parent;
    Op *prev, *next;
    Use *operands;
    Value *results;
    NamedAttr *attrs;  /* sorted by name */
    int nattrs, capattrs;
    Region *regions;
    Loc loc;
    int mark;          /* scratch for passes (order numbers, visited bits):
                          set it before reading it, to values >= 0
                          (canonicalize's own are negative) */
};

struct Block {
    Region *parent;
    Block *prev, *next;
    Op *first, *last;
    Value **args;
    int nargs, capargs;
};

struct Region {
    Op *parent;
    Block *first, *last;
};

/* ---- context ---------------------------------------------------------- */

struct Context {
    Arena *arena;
    Interner strings;
    Map types;  /* hash -> Type* chain head (see types.c) */
    /* the integer (widths up to 64, by sign) and float types once made:
     * asked for all the time (a type for every constant, comparison and
     * cast), they are found here without hashing every field of a Type */
    Type *int_types[3][65];
    Type *float_types[FK_F64 + 1];
    Map attrs;  /* hash -> Attr* chain head */
    Map layouts; /* interned #ttg layout text -> its parsed Layout (dialect/ttg.c) */
    Map layout_attrs; /* hash of a Layout -> its attribute (dialect/ttg.c) */
    /* ttg_with_layout's answers by (type, layout) address, checked by
     * content: layout assignment asks for the same ones thousands of
     * times (dialect/ttg.c) */
    struct { const Type *t; const void *l; Type *r; } with_layout_memo[256];
    struct { const void *l; Attr *a; } layout_attr_memo[64]; /* ttg_layout_attr, likewise */
    DiagEngine *diag; /* where verifiers and passes report (not owned) */
    uint32_t nvalues; /* Value ids handed out so far */
    /* ctx_intern's answers by the caller's pointer, checked by content */
    struct { const char *s; const char *interned; } intern_memo[64];
    /* the axis analysis later passes and the PTX emitter may reuse, or NULL
     * (transform/gpu/axis_info.h says while it is current); in the arena */
    struct AxisAnalysis *axis;
    /* build_cmp's predicate attributes (i64 0..15), once made: the
     * expansions compare thousands of times with a few predicates */
    Attr *cmp_predicates[16];
    /* a block pointer type (!tt.ptr<tensor<...>>) has been made: without
     * one no value is a block pointer, and rewrite-tensor-pointer needs no
     * walk to know that it has nothing to do (types.c sets it) */
    bool made_block_ptr_type;
    /* an f64 type (scalar or element) has been made: without one no op
     * needs expand-f64-math (types.c sets it) */
    bool made_f64_type;
    /* the kinds ops of this context have had (set as ops are made, and by
     * op_set_kind): a pass with nothing to do on a module without some
     * kind (no tt.call to inline) knows it without a walk over the ops */
    uint64_t kinds_made[(OP_COUNT + 63) / 64];
};

Context *ctx_new(DiagEngine *de);
void ctx_free(Context *c);
/* intern(&c->strings, s), remembering the last few: the names given are
 * mostly string literals, asked for again and again (op_set_attr interns
 * every attribute name it adds). */
const char *ctx_intern(Context *c, const char *s);
/* Every value of c, live or erased, has an id below this. */
static inline uint32_t ctx_value_count(const Context *c) { return c->nvalues; }
/* Whether an op of c may be of kind k (false: none is). */
static inline bool ctx_made_kind(const Context *c, OpKind k) { return (c->kinds_made[k >> 6] >> (k & 63)) & 1; }
static inline void ctx_note_kind(Context *c, OpKind k) { c->kinds_made[k >> 6] |= (uint64_t)1 << (k & 63); }

/* ---- building and editing ---------------------------------------------- */

/* Creates a detached op with `nregions` empty regions. */
Op *op_create(Context *c, OpKind kind, Loc loc, Value *const *operands, int nopnds,
              Type *const *result_types, int nres, int nregions);
static inline const OpInfo *op_info_of(const Op *op) { return &op_info[op->kind]; }
static inline const char *op_name(const Op *op) { return op_info[op->kind].name; }
static inline Value *op_operand(const Op *op, int i) { return op->operands[i].value; }
static inline Value *op_result(Op *op, int i) { return &op->results[i]; }
static inline bool op_has_flag(const Op *op, unsigned f) { return (op_info[op->kind].flags & f) != 0; }
/* Turns op into an op of kind k in place (its operands, results and
 * attributes as they are: the caller makes them fit k). */
static inline void op_set_kind(Context *c, Op *op, OpKind k) {
    ctx_note_kind(c, k);
    op->kind = k;
}
void op_set_operand(Op *op, int i, Value *v);
void op_set_operands(Context *c, Op *op, Value *const *vals, int n);
void op_set_attr(Context *c, Op *op, const char *name, Attr *a); /* a == NULL removes */
Attr *op_attr(const Op *op, const char *name);
/* The same by a well-known name: an address comparison per attribute. */
static inline Attr *op_attr_k(const Op *op, AttrName name) {
    for (int i = 0; i < op->nattrs; i++)
        if (op->attrs[i].name == attr_names[name]) return op->attrs[i].attr;
    return NULL;
}
bool op_attr_int_k(const Op *op, AttrName name, int64_t *out);
const char *op_attr_str_k(const Op *op, AttrName name);
void op_set_attr_k(Context *c, Op *op, AttrName name, Attr *a);
/* Gives `to`, an op of c without attributes, those of `from` (an op of c:
 * its names are c's interned strings, already sorted). */
void op_copy_attrs(Context *c, Op *to, const Op *from);
bool op_attr_int(const Op *op, const char *name, int64_t *out);
const char *op_attr_str(const Op *op, const char *name);

/* Blocks and regions. */
Block *block_create(Context *c);
Value *block_add_arg(Context *c, Block *b, Type *t, Loc loc);
void block_erase_arg(Block *b, int i); /* the argument must be unused */
void region_push_block(Region *r, Block *b);
static inline Block *region_entry(const Region *r) { return r->first; }
static inline Op *block_terminator(const Block *b) {
    return b->last && op_has_flag(b->last, OPF_TERMINATOR) ? b->last : NULL;
}
/* Op placement. */
void block_append(Block *b, Op *op);
void op_insert_before(Op *anchor, Op *op);
void op_insert_after(Op *anchor, Op *op);
void op_unlink(Op *op);         /* detach, keeping operands */
void op_erase(Op *op);          /* drop operands (and nested ops'), unlink */
void op_move_before(Op *op, Op *anchor);
Op *op_parent_op(const Op *op); /* the op whose region holds op, or NULL */
bool op_is_ancestor(const Op *anc, const Op *op); /* anc contains op (or ==) */
/* The op of block b that holds op (op itself, or the op of b whose regions
 * it is nested in); NULL when op is outside b. */
Op *op_ancestor_in(const Block *b, Op *op);
/* Uses. */
static inline bool value_has_uses(const Value *v) { return v->uses != NULL; }
bool value_has_one_use(const Value *v);
void value_replace_all_uses(Value *from, Value *to);
/* The block that defines v (its op's block, or the block v is an argument of). */
static inline Block *value_parent_block(const Value *v) { return v->def ? v->def->parent : v->owner_block; }
/* Deep copy of op (and its regions), in op's own context c; values in `map`
 * (old -> new, keyed by Value*) are remapped, and the map gains the copy's
 * results/args. */
Op *op_clone(Context *c, Op *op, Map *map);

/* Starts loading the memory `dist` bytes after op (negative: before it)
 * into the cache, for loops over a block's ops. Ops are allocated in
 * program order, so the ops a walk reaches next usually lie a few hundred
 * bytes further on; once passes have erased some, their spacing is
 * irregular and the hardware's stride prefetching stops helping (a plain
 * walk over the 100k-op benchmark module after canonicalize,cse,dce,licm
 * took 9.6 ms, 2.9 ms with this). A prefetch never faults, so a guess
 * past the end of the arena costs nothing. */
static inline void op_prefetch(const Op *op, long dist) {
#if defined(__GNUC__)
    __builtin_prefetch((const char *)op + dist);
    __builtin_prefetch((const char *)op + dist + 64);
#else
    (void)op, (void)dist;
#endif
}
enum { OP_PREFETCH_DIST = 1024 };

/* Walks every op nested under `root` (root included) in pre-order; the
 * callback may not erase ops other than the one it is given, and only when
 * `post` is true (post-order walk). */
typedef void (*OpWalkFn)(Op *op, void *ud);
void op_walk(Op *root, OpWalkFn fn, void *ud, bool post);

/* An insertion point for building ops. */
typedef struct Builder {
    Context *ctx;
    Block *block; /* insert into this block... */
    Op *before;   /* ...before this op, or at the end when NULL */
    Loc loc;      /* location given to new ops */
} Builder;

static inline Builder builder_at_end(Context *c, Block *b) { return (Builder){c, b, NULL, {0}}; }
static inline Builder builder_before(Context *c, Op *op) {
    return (Builder){c, op->parent, op, op->loc};
}
Op *build_op(Builder *b, OpKind kind, Value *const *operands, int nopnds,
             Type *const *result_types, int nres, int nregions);
/* Common shapes. */
Value *build_unary(Builder *b, OpKind kind, Value *x, Type *result);
Value *build_binary(Builder *b, OpKind kind, Value *x, Value *y); /* result = x's type */
Value *build_binary_to(Builder *b, OpKind kind, Value *x, Value *y, Type *result);
Value *build_cmp(Builder *b, OpKind kind, int predicate, Value *x, Value *y);
Value *build_constant(Builder *b, Attr *value); /* arith.constant with value's type */
Value *build_const_int(Builder *b, Type *t, int64_t v); /* scalar or splat tensor */
Value *build_const_float(Builder *b, Type *t, double v);

/* ---- module ----------------------------------------------------------- */

Op *module_create(Context *c, Loc loc);
static inline Block *module_body(Op *module) { return module->regions[0].first; }
Op *module_lookup_func(Op *module, const char *name);
/* For tt.func: */
const char *func_name(const Op *func);
Type *func_type(const Op *func);
static inline Block *func_entry(Op *func) { return func->regions[0].first; }

/* ---- predicates (arith.cmpi / arith.cmpf), as MLIR numbers them -------- */

typedef enum CmpIPred {
    CMPI_EQ, CMPI_NE, CMPI_SLT, CMPI_SLE, CMPI_SGT, CMPI_SGE,
    CMPI_ULT, CMPI_ULE, CMPI_UGT, CMPI_UGE, CMPI_COUNT
} CmpIPred;
typedef enum CmpFPred {
    CMPF_FALSE, CMPF_OEQ, CMPF_OGT, CMPF_OGE, CMPF_OLT, CMPF_OLE, CMPF_ONE, CMPF_ORD,
    CMPF_UEQ, CMPF_UGT, CMPF_UGE, CMPF_ULT, CMPF_ULE, CMPF_UNE, CMPF_UNO, CMPF_TRUE,
    CMPF_COUNT
} CmpFPred;
extern const char *const cmpi_pred_names[CMPI_COUNT];
extern const char *const cmpf_pred_names[CMPF_COUNT];

/* ---- text form, verification ------------------------------------------- */

typedef struct PrintOptions {
    bool debug_info;  /* print loc(...) annotations */
    bool generic;     /* print every op in generic form */
} PrintOptions;
void ir_print(Op *op, StrBuf *out, const PrintOptions *opts);
/* Parses a whole module (a `module { ... }` or a bare list of funcs). Errors
 * go to c->diag; returns NULL on error. The text is registered with c->diag
 * (diag_add_source) so diagnostics show the line with a caret: keep it
 * alive until they are rendered. */
Op *ir_parse(Context *c, const char *filename, const char *src, size_t len);
/* Checks structure (terminators, dominance, operand counts and types) and
 * runs each op's verifier. Reports to de; returns false on any error. */
bool ir_verify(Op *root, DiagEngine *de);
/* Reports an error located at op (its loc, or "op 'name'" when unknown). */
void op_error(DiagEngine *de, const Op *op, const char *fmt, ...) TC_PRINTF(3, 4);

#endif
