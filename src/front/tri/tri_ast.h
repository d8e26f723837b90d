/*
 * tri_ast.h - the abstract syntax tree of .tri programs and the types the
 * checker attaches to it.
 *
 * Every node carries a Loc (file, line, col of its first token) and a span
 * (the width of the token a caret should underline). The parser fills the
 * syntax; tri_check fills the semantic fields marked "checker", so that
 * lowering to the nn dialect reads everything it needs off the tree:
 * each expression's TriType (element dtype, shape with symbolic dims,
 * quantization), what each name refers to, and what each call calls.
 *
 * Shapes: a TriDim is a constant (sym == NULL, value >= 0), a symbolic
 * dimension (sym = an interned name such as "hidden", or a canonical
 * product such as "hidden*4"), or unknown (sym == NULL, value < 0).
 */
#ifndef TC_TRI_AST_H
#define TC_TRI_AST_H

#include "support/support.h"

typedef struct TriExpr TriExpr;
typedef struct TriDecl TriDecl;
typedef struct TriStmt TriStmt;
typedef struct TriType TriType;
typedef struct TriTypeExpr TriTypeExpr;

/* ---- types ------------------------------------------------------------ */

/* Element types, ordered by promotion rank (see tri_check.c). */
typedef enum TriDType {
    TRI_DT_TRIT,
    TRI_DT_INT4,
    TRI_DT_UINT8,
    TRI_DT_INT8,
    TRI_DT_INT32,
    TRI_DT_INT, /* the 64-bit integer of scalars, shapes and axes */
    TRI_DT_FLOAT16,
    TRI_DT_FLOAT32,
} TriDType;

typedef struct TriDim {
    const char *sym; /* interned symbolic name, or NULL */
    int64_t value;   /* constant when sym == NULL and value >= 0 */
} TriDim;

typedef enum TriTypeKind {
    TRI_T_ERROR,  /* after an error: accepted everywhere, never reported again */
    TRI_T_VOID,   /* a function without a value */
    TRI_T_SCALAR, /* dtype */
    TRI_T_TENSOR, /* dtype, shape, quant; dtype trit = TernaryTensor */
    TRI_T_LIST,   /* list literal: dtype of the elements, rank = length; for
                   * integer lists dims holds the elements as dimensions */
    TRI_T_LAYER,  /* an instance of a layer (a sub-module) */
} TriTypeKind;

typedef enum TriQuant {
    TRI_Q_NONE,
    TRI_Q_TERNARY,     /* trits with one float scale (quantize_ternary) */
    TRI_Q_AFFINE,      /* int8/int4 with scale and zero point */
    TRI_Q_PER_CHANNEL, /* int8 with a scale and zero point per channel */
} TriQuant;

/* A tensor shape is `rank` trailing dims, preceded by any number of unknown
 * dims when `ellipsis` is set: [..., hidden] is (ellipsis, rank 1), and a
 * shape that is not known at all is (ellipsis, rank 0). */
struct TriType {
    TriTypeKind kind;
    TriDType dtype;
    int rank;
    TriDim *dims;
    bool ellipsis;
    TriQuant quant;
    int quant_axis; /* TRI_Q_PER_CHANNEL: the channel axis, normalised >= 0 */
    TriDecl *layer; /* TRI_T_LAYER */
};

/* A type as written in the source (annotations, parameters, returns). */
typedef enum TriTypeExprKind {
    TRI_TE_SCALAR,  /* trit int int4 int8 uint8 int32 float16 float32 */
    TRI_TE_TERNARY, /* TernaryTensor or TernaryTensor[dims] */
    TRI_TE_TENSOR,  /* Tensor[T], Tensor[T, [dims]], tensor<T>, tensor<T, [dims]> */
    TRI_TE_NAMED,   /* a layer name */
} TriTypeExprKind;

struct TriTypeExpr {
    TriTypeExprKind kind;
    Loc loc;
    int span;
    TriDType dtype;
    const char *name; /* TRI_TE_NAMED */
    bool has_dims;
    bool ellipsis;  /* the dims start with '...' */
    int ndims;
    TriExpr **dims; /* each INT or NAME expression, or NULL for '?' */
};

/* ---- expressions ------------------------------------------------------ */

typedef enum TriExprKind {
    TRI_EX_INT,     /* ival */
    TRI_EX_FLOAT,   /* fval */
    TRI_EX_TRIT,    /* ival, written 1t / 0t / -1t */
    TRI_EX_NAME,    /* name */
    TRI_EX_LIST,    /* [a, b, c] */
    TRI_EX_TERNARY, /* TernaryTensor[dims](values) */
    TRI_EX_UNARY,   /* op '-' */
    TRI_EX_BINARY,  /* op '+' '-' '*' '/' '@' */
    TRI_EX_CALL,    /* name(args) */
} TriExprKind;

typedef enum TriBuiltin {
    TRI_B_NONE = -1,
#define TRI_BUILTIN(id, name, params, nreq, summary) TRI_B_##id,
#include "front/tri/tri_builtins.def"
#undef TRI_BUILTIN
    TRI_B_COUNT
} TriBuiltin;

typedef enum TriCallKind {
    TRI_CALL_UNRESOLVED,
    TRI_CALL_BUILTIN,   /* builtin */
    TRI_CALL_FN,        /* a top-level fn: decl */
    TRI_CALL_METHOD,    /* a fn of the enclosing layer: decl */
    TRI_CALL_LAYER_NEW, /* constructs the layer decl (layer-level let only) */
    TRI_CALL_SUBLAYER,  /* calls the forward of a layer instance: decl = the
                           let holding it, type->layer = its layer */
} TriCallKind;

typedef struct TriArg {
    const char *name; /* keyword, or NULL for a positional argument */
    Loc loc;
    int span;
    TriExpr *value;
} TriArg;

struct TriExpr {
    TriExprKind kind;
    Loc loc;
    int span;
    TriType *type; /* checker */
    /* checker: the value of an integer scalar expression as a dimension
     * (constant, symbolic, or unknown); used to build shapes */
    TriDim dim;
    union {
        int64_t ival;
        double fval;
        struct {
            const char *name;
            TriDecl *ref; /* checker: the let, param, fn or layer named */
        } name;
        struct {
            TriExpr **elems;
            int n;
        } list;
        struct {
            TriExpr **dims; /* the shape, as written */
            int ndims;
            bool ellipsis; /* always false (accepted by the shared dims parser) */
            TriExpr **vals; /* flattened values, each TRI_EX_INT or TRI_EX_TRIT */
            int nvals;
            int8_t *trits; /* checker: the values */
        } tern;
        struct {
            int op;
            Loc op_loc;
            TriExpr *lhs, *rhs; /* unary: lhs only */
        } op;
        struct {
            const char *callee;
            TriArg *args;
            int nargs;
            TriCallKind kind; /* checker */
            TriBuiltin builtin;
            TriDecl *decl;
            TriExpr **bound; /* checker: arguments in parameter order (NULL = default) */
            int nbound;
        } call;
    } u;
};

/* ---- statements and declarations -------------------------------------- */

typedef enum TriDeclKind {
    TRI_D_LET,   /* let name [: type] = value */
    TRI_D_PARAM, /* name: type, of a fn or layer */
    TRI_D_FN,    /* fn name(params) [-> type] { stmts } */
    TRI_D_LAYER, /* layer name(params) [-> type] { lets and fns } */
} TriDeclKind;

typedef enum TriStmtKind { TRI_ST_LET, TRI_ST_RETURN, TRI_ST_EXPR } TriStmtKind;

struct TriStmt {
    TriStmtKind kind;
    Loc loc;
    int span;
    TriDecl *let;  /* TRI_ST_LET */
    TriExpr *expr; /* TRI_ST_RETURN (may be NULL), TRI_ST_EXPR */
};

struct TriDecl {
    TriDeclKind kind;
    const char *name;
    Loc loc; /* of the name */
    int span;
    TriTypeExpr *ann; /* let annotation or param type (may be NULL for let) */
    TriExpr *value;   /* let */
    TriDecl **params; /* fn, layer */
    int nparams;
    TriTypeExpr *ret; /* fn, layer: declared result (may be NULL) */
    TriStmt **body;   /* fn */
    int nbody;
    TriDecl **members; /* layer: lets and fns in source order */
    int nmembers;
    TriDecl *parent; /* the layer of a member, the fn or layer of a param */
    bool incomplete; /* fn, layer: cut short by a syntax error, so what it
                      * lacks (a forward, a return) is not reported */
    /* checker */
    TriType *type;   /* let/param: its type; fn/layer: the result type */
    TriDecl *forward; /* layer: its forward fn */
    TriDim dim;       /* int let/param: its value as a dimension */
    int state;       /* 0 unchecked, 1 being checked, 2 checked */
};

typedef struct TriProgram {
    const char *file;
    Arena *arena;
    Interner *interner;
    TriDecl **decls; /* top level, source order */
    int ndecls;
    bool checked;
} TriProgram;

#endif
