/*
 * ast.h - the abstract syntax tree of the Python subset tritonc reads.
 *
 * The tree mirrors Python's own `ast` module closely enough that anyone who
 * knows one can read the other, but it is plain C: every node is a struct
 * with a kind tag, a Loc and kind-specific fields in an anonymous union.
 * Every node, every list and every string lives in the Arena given to
 * py_parse(); the tree is freed with that arena. Identifiers are interned
 * (equal names, equal pointers), so name comparison is pointer comparison.
 *
 * Lists are counted arrays ({items, len}); a list with len == 0 may have
 * items == NULL. Optional children are NULL when absent.
 *
 * Each node records its source range as byte offsets [off, end) into the
 * parsed text, so later phases can underline a whole expression and the
 * driver can hash exactly the text of a `def` (PyFunc.src_start/src_end).
 */
#ifndef TC_FRONT_PY_AST_H
#define TC_FRONT_PY_AST_H

#include "support/support.h"

typedef struct PyExpr PyExpr;
typedef struct PyStmt PyStmt;
typedef struct PyFunc PyFunc;
typedef struct PyClass PyClass;

typedef struct PyExprList {
    PyExpr **items;
    int len;
} PyExprList;

typedef struct PyBlock {
    PyStmt **items;
    int len;
} PyBlock;

/* ---- operators --------------------------------------------------------- */

/* Binary operators, in the same order as their augmented forms. */
typedef enum PyBinOp {
    PY_BIN_ADD, PY_BIN_SUB, PY_BIN_MUL, PY_BIN_MATMUL, PY_BIN_DIV,
    PY_BIN_FLOORDIV, PY_BIN_MOD, PY_BIN_POW, PY_BIN_LSHIFT, PY_BIN_RSHIFT,
    PY_BIN_BITOR, PY_BIN_BITXOR, PY_BIN_BITAND,
} PyBinOp;

typedef enum PyUnaryOp { PY_UNARY_NEG, PY_UNARY_POS, PY_UNARY_INVERT, PY_UNARY_NOT } PyUnaryOp;

typedef enum PyBoolOp { PY_BOOL_AND, PY_BOOL_OR } PyBoolOp;

typedef enum PyCmpOp {
    PY_CMP_EQ, PY_CMP_NE, PY_CMP_LT, PY_CMP_LE, PY_CMP_GT, PY_CMP_GE,
    PY_CMP_IS, PY_CMP_IS_NOT, PY_CMP_IN, PY_CMP_NOT_IN,
} PyCmpOp;

const char *py_binop_str(PyBinOp op);     /* "+", "//", "**", ... */
const char *py_unaryop_str(PyUnaryOp op); /* "-", "+", "~", "not" */
const char *py_cmpop_str(PyCmpOp op);     /* "<", "is not", "not in", ... */

/* ---- expressions ------------------------------------------------------- */

typedef enum PyExprKind {
    PY_EXPR_NAME,      /* name */
    PY_EXPR_INT,       /* i */
    PY_EXPR_FLOAT,     /* f */
    PY_EXPR_IMAG,      /* f: 2j */
    PY_EXPR_STR,       /* str: '...', b'...', f'...' (adjacent literals joined) */
    PY_EXPR_NONE,
    PY_EXPR_TRUE,
    PY_EXPR_FALSE,
    PY_EXPR_ELLIPSIS,  /* ... */
    PY_EXPR_UNARY,     /* unary: -x, +x, ~x, not x */
    PY_EXPR_BINARY,    /* binary: a + b, ... */
    PY_EXPR_BOOL,      /* boolop: a and b and c (n-ary, like Python's ast) */
    PY_EXPR_COMPARE,   /* compare: a < b <= c (chained) */
    PY_EXPR_IFEXP,     /* ifexp: a if c else b */
    PY_EXPR_LAMBDA,    /* lambda */
    PY_EXPR_CALL,      /* call */
    PY_EXPR_ATTR,      /* attr: x.name */
    PY_EXPR_SUBSCRIPT, /* subscript: x[index]; x[a, b] has a TUPLE index */
    PY_EXPR_SLICE,     /* slice: lower:upper:step, any part NULL (only as an index) */
    PY_EXPR_TUPLE,     /* seq */
    PY_EXPR_LIST,      /* seq */
    PY_EXPR_SET,       /* seq */
    PY_EXPR_DICT,      /* dict */
    PY_EXPR_LISTCOMP,  /* comp */
    PY_EXPR_SETCOMP,   /* comp */
    PY_EXPR_DICTCOMP,  /* comp (elt is the key, value the value) */
    PY_EXPR_GENEXP,    /* comp */
    PY_EXPR_STARRED,   /* value: *x in a call, a display or an assignment target */
    PY_EXPR_YIELD,     /* value (may be NULL) */
    PY_EXPR_YIELD_FROM,/* value */
    PY_EXPR_NAMED,     /* named: (x := v) */
} PyExprKind;

/* PY_EXPR_STR flags */
enum { PY_STR_RAW = 1, PY_STR_BYTES = 2, PY_STR_FSTRING = 4, PY_STR_TRIPLE = 8 };

typedef enum PyParamKind {
    PY_PARAM_POSONLY, /* before a '/' */
    PY_PARAM_NORMAL,
    PY_PARAM_VARARGS, /* *args */
    PY_PARAM_KWONLY,  /* after '*' or '*args' */
    PY_PARAM_KWARGS,  /* **kwargs */
} PyParamKind;

typedef struct PyParam {
    const char *name;
    Loc loc;
    PyParamKind kind;
    PyExpr *annotation;    /* NULL if none */
    PyExpr *default_value; /* NULL if none */
} PyParam;

typedef struct PyParamList {
    PyParam *items;
    int len;
} PyParamList;

/* A keyword argument `name=value`, or `**value` when name is NULL. */
typedef struct PyKeyword {
    const char *name;
    Loc loc;
    PyExpr *value;
} PyKeyword;

/* One `for target in iter if c1 if c2` clause of a comprehension. */
typedef struct PyComprehension {
    PyExpr *target, *iter;
    PyExprList ifs;
} PyComprehension;

struct PyExpr {
    PyExprKind kind;
    Loc loc;         /* first token of the expression */
    size_t off, end; /* byte range in the source */
    union {
        struct {
            const char *name; /* NAME (interned) */
            /* sema's hints, not the parser's: the index in the function's
             * scope, and in the scope of the names a runtime loop or `if`
             * assigns, where this node found its name last (codegen.c's
             * scope_find_hinted checks them at every use) */
            int scope_hint, defs_hint;
            int global_hint; /* the same in the module's globals */
        };
        struct {
            uint64_t value;
            bool overflow; /* the literal does not fit in 64 bits */
        } i;               /* INT */
        double f;          /* FLOAT, IMAG */
        struct {
            const char *data; /* decoded bytes, NUL-terminated; f-strings keep their source text */
            size_t len;
            unsigned flags; /* PY_STR_* */
        } str;
        struct {
            PyUnaryOp op;
            PyExpr *operand;
        } unary;
        struct {
            PyBinOp op;
            Loc op_loc;
            PyExpr *lhs, *rhs;
        } binary;
        struct {
            PyBoolOp op;
            PyExprList values; /* >= 2 */
        } boolop;
        struct {
            PyExpr *first;
            PyCmpOp *ops;
            PyExpr **rest; /* rest[i] is the right operand of ops[i] */
            int n;
        } compare;
        struct {
            PyExpr *cond, *then, *orelse;
        } ifexp;
        struct {
            PyParamList params;
            PyExpr *body;
        } lambda;
        struct {
            PyExpr *func;
            PyExprList args; /* positional; *x appears as STARRED */
            PyKeyword *keywords;
            int nkeywords;
        } call;
        struct {
            PyExpr *value;
            const char *attr; /* interned */
            Loc attr_loc;
            /* sema's memo, not the parser's (codegen.c's visit_attr): the
             * attribute found last on the module (memo_mod) this node read
             * it from, `tl.load` at every step of an unrolled body */
            const void *memo;
            int memo_mod;
        } attr;
        struct {
            PyExpr *value, *index;
        } subscript;
        struct {
            PyExpr *lower, *upper, *step;
        } slice;
        struct {
            PyExprList elts;
        } seq; /* TUPLE, LIST, SET */
        struct {
            PyExpr **keys; /* keys[i] == NULL: values[i] is a `**mapping` */
            PyExpr **values;
            int len;
        } dict;
        struct {
            PyExpr *elt;   /* the element, or the key of a DICTCOMP */
            PyExpr *value; /* DICTCOMP only */
            PyComprehension *gens;
            int ngens;
        } comp;
        PyExpr *value; /* STARRED, YIELD, YIELD_FROM */
        struct {
            PyExpr *target, *value;
        } named;
    };
};

/* ---- statements -------------------------------------------------------- */

typedef enum PyStmtKind {
    PY_STMT_EXPR,        /* expr */
    PY_STMT_ASSIGN,      /* assign: t1 = t2 = value */
    PY_STMT_AUGASSIGN,   /* aug: x += v */
    PY_STMT_ANNASSIGN,   /* ann: x: T [= v] */
    PY_STMT_IF,          /* cond (elif is an IF alone in orelse) */
    PY_STMT_WHILE,       /* cond */
    PY_STMT_FOR,         /* loop */
    PY_STMT_RETURN,      /* expr (value may be NULL) */
    PY_STMT_PASS,
    PY_STMT_BREAK,
    PY_STMT_CONTINUE,
    PY_STMT_DEF,         /* func */
    PY_STMT_CLASS,       /* cls */
    PY_STMT_IMPORT,      /* import: import a.b as c, d */
    PY_STMT_IMPORT_FROM, /* import: from ..a.b import c as d, e */
    PY_STMT_GLOBAL,      /* names */
    PY_STMT_NONLOCAL,    /* names */
    PY_STMT_DEL,         /* del */
    PY_STMT_RAISE,       /* raise */
    PY_STMT_ASSERT,      /* assertion */
    PY_STMT_WITH,        /* with */
    PY_STMT_TRY,         /* try */
} PyStmtKind;

typedef struct PyAlias {
    const char *name;   /* dotted, interned: "triton.language"; "*" for `import *` */
    const char *asname; /* NULL if none */
    Loc loc;
} PyAlias;

typedef struct PyWithItem {
    PyExpr *context;
    PyExpr *vars; /* NULL if no `as` */
} PyWithItem;

typedef struct PyHandler {
    Loc loc;
    PyExpr *type;     /* NULL for a bare `except:` */
    const char *name; /* `as name`, NULL if none */
    PyBlock body;
} PyHandler;

struct PyStmt {
    PyStmtKind kind;
    Loc loc;
    size_t off, end;
    union {
        struct {
            PyExpr *value;
        } expr; /* EXPR, RETURN */
        struct {
            PyExprList targets;
            PyExpr *value;
        } assign;
        struct {
            PyExpr *target;
            PyBinOp op;
            PyExpr *value;
        } aug;
        struct {
            PyExpr *target, *annotation, *value; /* value may be NULL */
        } ann;
        struct {
            PyExpr *test;
            PyBlock body, orelse;
            bool is_elif; /* IF written `elif` (alone in its parent's orelse) */
        } cond; /* IF, WHILE */
        struct {
            PyExpr *target, *iter;
            PyBlock body, orelse;
        } loop; /* FOR */
        PyFunc *func;
        PyClass *cls;
        struct {
            const char *module; /* IMPORT_FROM: dotted, NULL for `from . import x` */
            int level;          /* IMPORT_FROM: number of leading dots */
            PyAlias *names;
            int len;
        } import;
        struct {
            const char **names;
            int len;
        } names;
        struct {
            PyExprList targets;
        } del;
        struct {
            PyExpr *exc, *cause; /* both may be NULL */
        } raise;
        struct {
            PyExpr *test, *msg; /* msg may be NULL */
        } assertion;
        struct {
            PyWithItem *items;
            int len;
            PyBlock body;
        } with;
        struct {
            PyBlock body;
            PyHandler *handlers;
            int nhandlers;
            PyBlock orelse, finalbody;
        } try;
    };
};

/* A `def`. The source text the driver hashes for a kernel's cache key is
 * src[src_start, src_end): from the `def` keyword (as Triton does, so the
 * decorators do not change a kernel's key) to the end of the last token of
 * its body. decorated_start is the offset of the first decorator's '@'. */
struct PyFunc {
    const char *name; /* interned */
    Loc loc;          /* the `def` keyword */
    Loc name_loc;
    PyExprList decorators;
    PyParamList params;    /* read it through py_func_params (it may not be parsed yet) */
    PyExpr *returns; /* `-> T`, NULL if none */
    PyBlock body;          /* read it through py_func_body (it may not be parsed yet) */
    const char *docstring; /* first statement when it is a string, else NULL */
    size_t src_start, src_end, decorated_start;
    /* py_parse_lazy: the unparsed parameters and body, until py_func_params
     * and py_func_body */
    struct PyLazyText *lazy_params, *lazy;
};

struct PyClass {
    const char *name;
    Loc loc;
    PyExprList decorators;
    PyExprList bases;
    PyKeyword *keywords; /* metaclass=... */
    int nkeywords;
    PyBlock body;
};

typedef struct PyModule {
    const char *filename;
    const char *src; /* the text given to py_parse (not copied) */
    size_t len;
    PyBlock body;
} PyModule;

#endif
