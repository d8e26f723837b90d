/*
 * tri_check.c - the .tri type checker.
 *
 * Annotates every expression with its TriType (element dtype, shape with
 * constant, symbolic or unknown dims, quantization), resolves every name and
 * call, and reports what is wrong, several errors per run:
 *   undefined names (with "did you mean"), redefinitions, trit values
 *   outside {-1, 0, 1}, TernaryTensor literal sizes, built-in arity, keyword
 *   and argument types, shapes of '@', matmul, ternary_matmul, broadcasting
 *   and the other shape-aware built-ins, return types, layers without a
 *   forward, float tensors where a TernaryTensor is required.
 *
 * Scopes: three levels, each a Map from interned name to TriDecl - the
 * program (order-independent), the layer being checked (its params and
 * members) and the fn being checked (params and lets, in order). Top-level
 * lets, fns and layers are checked on demand when first used (state 0 -> 1
 * -> 2), so use may precede definition; meeting a decl in state 1 is a
 * cycle (recursion, a layer containing itself, a constant defined by itself),
 * which is an error. Every pass is linear in the program size.
 *
 * An expression whose type is TRI_T_ERROR has already been reported; rules
 * accept it silently so one mistake gives one diagnostic.
 */
#include "front/tri/tri.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CHECK_DEPTH = 256, MAX_PARAMS = 8 };

typedef struct DimBinds {
    const char *sym[32];
    TriDim dim[32];
    int n;
} DimBinds;

typedef struct Checker {
    Arena *arena;
    Interner *in;
    DiagEngine *de;
    TriProgram *prog;
    Map globals;
    Map *members; /* the current layer's scope, or NULL */
    Map *locals;  /* the current fn's scope, or NULL */
    TriDecl *layer, *fn;
    bool layer_init; /* checking a layer-level let */
    bool saw_return;
    TriType *ret_inferred;
    int depth;
    VEC(Map *) maps; /* to free */
    const char *bparams[TRI_B_COUNT][MAX_PARAMS];
    int nbparams[TRI_B_COUNT];
    TriType *t_error, *t_void, *t_int, *t_float, *t_trit; /* shared, in the arena */
} Checker;

static const struct BuiltinInfo {
    const char *name, *params;
    int nreq;
} builtin_info[] = {
#define TRI_BUILTIN(id, name, params, nreq, summary) {name, params, nreq},
#include "front/tri/tri_builtins.def"
#undef TRI_BUILTIN
};

static const char *const type_names[] = {"trit",  "int",     "int4",    "int8",          "uint8",
                                         "int32", "float16", "float32", "TernaryTensor", "Tensor",
                                         "tensor"};

/* ---- small helpers ----------------------------------------------------------- */

static char *type_str(Checker *c, const TriType *t) {
    StrBuf sb = {0};
    tri_type_print(t, &sb);
    char *s = arena_strdup(c->arena, sb_cstr(&sb));
    sb_free(&sb);
    return s;
}

#define ERR(c, loc, span, ...) diag_report((c)->de, DIAG_ERROR, (loc), (span), __VA_ARGS__)

static TriType *new_type(Checker *c, TriTypeKind kind, TriDType dt) {
    TriType *t = ARENA_NEW(c->arena, TriType);
    t->kind = kind;
    t->dtype = dt;
    return t;
}

static TriType *scalar(Checker *c, TriDType dt) {
    switch (dt) {
    case TRI_DT_INT: return c->t_int;
    case TRI_DT_FLOAT32: return c->t_float;
    case TRI_DT_TRIT: return c->t_trit;
    default: return new_type(c, TRI_T_SCALAR, dt);
    }
}

static TriType *tensor(Checker *c, TriDType dt, int rank, const TriDim *dims, bool ellipsis) {
    TriType *t = new_type(c, TRI_T_TENSOR, dt);
    t->rank = rank;
    t->ellipsis = ellipsis;
    if (rank > 0) t->dims = arena_dup(c->arena, dims, sizeof(TriDim) * (size_t)rank);
    return t;
}

static TriType *unknown_tensor(Checker *c, TriDType dt) { return tensor(c, dt, 0, NULL, true); }

static TriType *retype(Checker *c, const TriType *t, TriDType dt) {
    TriType *r = tensor(c, dt, t->rank, t->dims, t->ellipsis);
    return r;
}

static bool is_err(const TriType *t) { return !t || t->kind == TRI_T_ERROR; }
static bool is_tensor(const TriType *t) { return t->kind == TRI_T_TENSOR; }
static bool is_scalar(const TriType *t) { return t->kind == TRI_T_SCALAR; }
static bool is_int_dt(TriDType dt) { return !tri_dtype_is_float(dt); }

static const TriDim DIM_UNKNOWN = {NULL, -1};
static TriDim dim_const(int64_t v) { return (TriDim){NULL, v}; }
static bool dim_known(TriDim d) { return d.sym || d.value >= 0; }
static bool dim_is_const(TriDim d) { return !d.sym && d.value >= 0; }

/* 1 equal, -1 provably different (two constants, or two distinct symbols:
 * symbolic dims are checked strictly), 0 unknown. */
static int dim_cmp(TriDim a, TriDim b) {
    if (!dim_known(a) || !dim_known(b)) return 0;
    if (a.sym && b.sym) return a.sym == b.sym ? 1 : -1;
    if (!a.sym && !b.sym) return a.value == b.value ? 1 : -1;
    return 0;
}

static void dim_text(TriDim d, char *buf, size_t n) {
    if (d.sym) snprintf(buf, n, "%s", d.sym);
    else if (d.value >= 0) snprintf(buf, n, "%lld", (long long)d.value);
    else snprintf(buf, n, "?");
}

/* Symbolic arithmetic on dims: constants fold, everything else becomes a
 * canonical interned text ("hidden*4"); operands of + and * are ordered so
 * 4*hidden and hidden*4 are the same dim. */
static TriDim dim_arith(Checker *c, int op, TriDim a, TriDim b) {
    if (!dim_known(a) || !dim_known(b)) return DIM_UNKNOWN;
    if (dim_is_const(a) && dim_is_const(b)) {
        int64_t x = a.value, y = b.value, r;
        switch (op) {
        case '+': if (__builtin_add_overflow(x, y, &r)) return DIM_UNKNOWN; break;
        case '-': r = x - y; if (r < 0) return DIM_UNKNOWN; break;
        case '*': if (__builtin_mul_overflow(x, y, &r)) return DIM_UNKNOWN; break;
        default: if (y == 0) return DIM_UNKNOWN; r = x / y; break;
        }
        return dim_const(r);
    }
    if (op == '*' && dim_is_const(a) && a.value == 1) return b;
    if ((op == '*' || op == '/') && dim_is_const(b) && b.value == 1) return a;
    if ((op == '+' || op == '-') && dim_is_const(b) && b.value == 0) return a;
    char x[96], y[96];
    dim_text(a, x, sizeof x);
    dim_text(b, y, sizeof y);
    bool wrap_x = a.sym && strpbrk(x, "+-") && op != '+';
    bool wrap_y = b.sym && strpbrk(y, "+-*/") && op != '+' && op != '*';
    if ((op == '+' || op == '*') && strcmp(x, y) > 0) {
        char t[96];
        memcpy(t, x, sizeof t);
        memcpy(x, y, sizeof x);
        memcpy(y, t, sizeof y);
        bool tw = wrap_x;
        wrap_x = wrap_y;
        wrap_y = tw;
    }
    char buf[220];
    snprintf(buf, sizeof buf, "%s%s%s%c%s%s%s", wrap_x ? "(" : "", x, wrap_x ? ")" : "", op,
             wrap_y ? "(" : "", y, wrap_y ? ")" : "");
    return (TriDim){intern(c->in, buf), -1};
}

static void shape_text(const TriType *t, char *buf, size_t n) {
    size_t o = 0;
    o += (size_t)snprintf(buf + o, n - o, "[%s", t->ellipsis ? (t->rank ? "..., " : "...") : "");
    for (int i = 0; i < t->rank && o < n; i++) {
        char d[96];
        dim_text(t->dims[i], d, sizeof d);
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", d);
    }
    if (o < n) snprintf(buf + o, n - o, "]");
}

/* ---- did you mean ------------------------------------------------------------- */

static int edit_distance(const char *a, const char *b, int limit) {
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 64 || lb > 64 || abs(la - lb) > limit) return limit + 1;
    int row[65];
    for (int j = 0; j <= lb; j++) row[j] = j;
    for (int i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int cur = row[j];
            int sub = prev + (a[i - 1] != b[j - 1]);
            int best = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            prev = cur;
        }
    }
    return row[lb];
}

typedef struct Suggest {
    const char *name, *best;
    int best_d, limit;
} Suggest;

static void suggest_try(Suggest *s, const char *cand) {
    if (!cand || cand == s->name || strcmp(cand, s->name) == 0) return;
    int d = edit_distance(s->name, cand, s->limit);
    if (d <= s->limit && d < s->best_d) {
        s->best_d = d;
        s->best = cand;
    }
}

static void suggest_map(Suggest *s, const Map *m) {
    if (!m) return;
    for (int i = 0; i < m->cap; i++)
        if (m->slots[i].key) suggest_try(s, ((TriDecl *)m->slots[i].val)->name);
}

static Suggest suggest_begin(const char *name) {
    int len = (int)strlen(name);
    Suggest s = {name, NULL, 1 << 20, len <= 3 ? 1 : len <= 6 ? 2 : 3};
    return s;
}

/* Appends "; did you mean 'x'?" to the message when a name is close. */
static const char *hint(Checker *c, Suggest *s) {
    return s->best ? arena_printf(c->arena, "; did you mean '%s'?", s->best) : "";
}

/* ---- scopes ----------------------------------------------------------------- */

static Map *new_scope(Checker *c) {
    Map *m = tc_calloc(1, sizeof(Map));
    vec_push(&c->maps, m);
    return m;
}

static bool reserved_name(const char *name) {
    for (int i = 0; i < TC_ARRAY_LEN(type_names); i++)
        if (strcmp(name, type_names[i]) == 0) return true;
    return false;
}

/* Adds d to scope m; reports a redefinition or a reserved name. */
static void declare(Checker *c, Map *m, TriDecl *d) {
    if (tri_builtin_lookup(d->name, strlen(d->name)) != TRI_B_NONE) {
        ERR(c, d->loc, d->span, "'%s' is a built-in function and cannot be redefined", d->name);
        return;
    }
    if (reserved_name(d->name)) {
        ERR(c, d->loc, d->span, "'%s' is a type name and cannot be redefined", d->name);
        return;
    }
    TriDecl *prev = map_get(m, MAP_KEY(d->name));
    if (prev) {
        ERR(c, d->loc, d->span, "redefinition of '%s'", d->name);
        diag_report(c->de, DIAG_NOTE, prev->loc, prev->span, "previous definition of '%s' is here", d->name);
        return;
    }
    map_put(m, MAP_KEY(d->name), d);
}

static TriDecl *lookup(Checker *c, const char *name) {
    TriDecl *d;
    if (c->locals && (d = map_get(c->locals, MAP_KEY(name)))) return d;
    if (c->members && (d = map_get(c->members, MAP_KEY(name)))) return d;
    return map_get(&c->globals, MAP_KEY(name));
}

static Suggest suggest_names(Checker *c, const char *name, bool with_builtins) {
    Suggest s = suggest_begin(name);
    suggest_map(&s, c->locals);
    suggest_map(&s, c->members);
    suggest_map(&s, &c->globals);
    if (with_builtins)
        for (int i = 0; i < TRI_B_COUNT; i++) suggest_try(&s, builtin_info[i].name);
    return s;
}

/* ---- types as written ---------------------------------------------------------- */

static TriType *check_expr(Checker *c, TriExpr *e);
static bool const_int_value(TriExpr *e, int64_t *out, int depth);
static void ensure_decl(Checker *c, TriDecl *d, Loc use, int span);

/* A dim in a type or literal: an integer, an int let/param (its value), '?',
 * or any other name, which becomes a symbolic dim of that name. */
static TriDim resolve_dim(Checker *c, TriExpr *e) {
    if (!e) return DIM_UNKNOWN;
    if (e->kind == TRI_EX_INT) {
        if (e->u.ival < 0) {
            ERR(c, e->loc, e->span, "dimension must not be negative");
            return DIM_UNKNOWN;
        }
        return dim_const(e->u.ival);
    }
    if (e->kind == TRI_EX_NAME) {
        TriDecl *d = lookup(c, e->u.name.name);
        if (d && (d->kind == TRI_D_LET || d->kind == TRI_D_PARAM)) {
            ensure_decl(c, d, e->loc, e->span);
            e->u.name.ref = d;
            if (is_err(d->type)) return DIM_UNKNOWN;
            if (d->type->kind != TRI_T_SCALAR || !is_int_dt(d->type->dtype)) {
                ERR(c, e->loc, e->span, "dimension '%s' is not an integer (it is %s)", d->name,
                    type_str(c, d->type));
                return DIM_UNKNOWN;
            }
            return d->dim;
        }
        return (TriDim){e->u.name.name, -1};
    }
    return DIM_UNKNOWN;
}

static TriType *resolve_type(Checker *c, TriTypeExpr *te) {
    if (!te) return c->t_error;
    switch (te->kind) {
    case TRI_TE_SCALAR: return scalar(c, te->dtype);
    case TRI_TE_TERNARY:
    case TRI_TE_TENSOR: {
        if (!te->has_dims) return unknown_tensor(c, te->dtype);
        TriDim *dims = ARENA_ARRAY(c->arena, TriDim, te->ndims);
        for (int i = 0; i < te->ndims; i++) dims[i] = resolve_dim(c, te->dims[i]);
        TriType *t = new_type(c, TRI_T_TENSOR, te->dtype);
        t->rank = te->ndims;
        t->dims = dims;
        t->ellipsis = te->ellipsis;
        return t;
    }
    case TRI_TE_NAMED: {
        TriDecl *d = map_get(&c->globals, MAP_KEY(te->name));
        if (d && d->kind == TRI_D_LAYER && te->has_dims) {
            ERR(c, te->loc, te->span, "layer type '%s' takes no dimensions", te->name);
            return c->t_error;
        }
        if (d && d->kind == TRI_D_LAYER) {
            TriType *t = new_type(c, TRI_T_LAYER, TRI_DT_FLOAT32);
            t->layer = d;
            return t;
        }
        Suggest s = suggest_begin(te->name);
        for (int i = 0; i < TC_ARRAY_LEN(type_names); i++) suggest_try(&s, type_names[i]);
        for (int i = 0; i < c->prog->ndecls; i++)
            if (c->prog->decls[i]->kind == TRI_D_LAYER) suggest_try(&s, c->prog->decls[i]->name);
        ERR(c, te->loc, te->span, "unknown type '%s'%s", te->name, hint(c, &s));
        return c->t_error;
    }
    }
    return c->t_error;
}

/* ---- compatibility ------------------------------------------------------------- */

/* Are the shapes of a and b compatible (each trailing dim equal or unknown)?
 * On a definite mismatch, describes it in why. */
static bool shapes_compatible(const TriType *a, const TriType *b, char *why, size_t n) {
    if (!a->ellipsis && !b->ellipsis && a->rank != b->rank) {
        snprintf(why, n, "rank %d vs %d", a->rank, b->rank);
        return false;
    }
    if ((!a->ellipsis && b->rank > a->rank) || (!b->ellipsis && a->rank > b->rank)) {
        snprintf(why, n, "rank %d vs at least %d", a->ellipsis ? b->rank : a->rank,
                 a->ellipsis ? a->rank : b->rank);
        return false;
    }
    int k = a->rank < b->rank ? a->rank : b->rank;
    for (int i = 1; i <= k; i++)
        if (dim_cmp(a->dims[a->rank - i], b->dims[b->rank - i]) < 0) {
            char x[96], y[96];
            dim_text(a->dims[a->rank - i], x, sizeof x);
            dim_text(b->dims[b->rank - i], y, sizeof y);
            snprintf(why, n, "dimension %s vs %s", x, y);
            return false;
        }
    return true;
}

/* The most specific of two compatible shapes: the longer, each dim known
 * from either side. */
static TriType *merge_shape(Checker *c, const TriType *decl, const TriType *val) {
    const TriType *longer = (!decl->ellipsis || decl->rank > val->rank) ? decl : val;
    if (!val->ellipsis) longer = val;
    TriType *t = tensor(c, decl->dtype, longer->rank, longer->dims, decl->ellipsis && val->ellipsis);
    for (int i = 1; i <= t->rank; i++) {
        TriDim *d = &t->dims[t->rank - i];
        if (i <= val->rank && dim_known(val->dims[val->rank - i])) *d = val->dims[val->rank - i];
        else if (i <= decl->rank && dim_known(decl->dims[decl->rank - i])) *d = decl->dims[decl->rank - i];
    }
    t->quant = val->quant;
    t->quant_axis = val->quant_axis;
    return t;
}

static bool int_fits(TriDType dt, int64_t v) {
    switch (dt) {
    case TRI_DT_TRIT: return v >= -1 && v <= 1;
    case TRI_DT_INT4: return v >= -8 && v <= 15;
    case TRI_DT_UINT8: return v >= 0 && v <= 255;
    case TRI_DT_INT8: return v >= -128 && v <= 127;
    case TRI_DT_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
    }
}

/* Checks that value (of type vt) may initialise/return/pass as `want`;
 * `what` describes the destination for the message. Returns the type the
 * destination then has (want refined by the value), or NULL after an error. */
static TriType *convert(Checker *c, TriType *want, TriExpr *value, TriType *vt, const char *what) {
    if (is_err(want) || is_err(vt)) return want;
    if (want->kind == TRI_T_SCALAR && vt->kind == TRI_T_SCALAR) {
        /* a number literal becomes a float16 constant: from 65520 (65504
         * and half an ulp) on it would be infinity */
        if (want->dtype == TRI_DT_FLOAT16 && (value->kind == TRI_EX_FLOAT || value->kind == TRI_EX_INT)) {
            double v = value->kind == TRI_EX_FLOAT ? value->u.fval : (double)value->u.ival;
            if (!(fabs(v) < 65520.0)) {
                ERR(c, value->loc, value->span, "value %.9g is out of range for float16 (at most 65504)", v);
                return NULL;
            }
        }
        if (value->kind == TRI_EX_INT || value->kind == TRI_EX_TRIT) {
            if (is_int_dt(want->dtype) && !int_fits(want->dtype, value->u.ival)) {
                if (want->dtype == TRI_DT_TRIT)
                    ERR(c, value->loc, value->span, "trit value must be -1, 0 or 1, got %lld",
                        (long long)value->u.ival);
                else
                    ERR(c, value->loc, value->span, "value %lld is out of range for %s",
                        (long long)value->u.ival, tri_dtype_name(want->dtype));
                return NULL;
            }
            return want;
        }
        bool ok = tri_dtype_is_float(want->dtype) || is_int_dt(vt->dtype);
        if (want->dtype == TRI_DT_TRIT && vt->dtype != TRI_DT_TRIT) ok = false;
        if (ok) return want;
    } else if (want->kind == TRI_T_TENSOR && vt->kind == TRI_T_TENSOR) {
        if (want->dtype == vt->dtype) {
            char why[256];
            if (shapes_compatible(want, vt, why, sizeof why)) return merge_shape(c, want, vt);
            ERR(c, value->loc, value->span, "shape mismatch: %s is %s but the value is %s (%s)", what,
                type_str(c, want), type_str(c, vt), why);
            return NULL;
        }
        if (want->dtype == TRI_DT_TRIT) {
            ERR(c, value->loc, value->span, "%s must be a TernaryTensor, got %s%s", what, type_str(c, vt),
                tri_dtype_is_float(vt->dtype) ? " (use quantize_ternary to convert)" : "");
            return NULL;
        }
    } else if (want->kind == TRI_T_LAYER && vt->kind == TRI_T_LAYER && want->layer == vt->layer) {
        return want;
    }
    ERR(c, value->loc, value->span, "%s has type %s, got %s", what, type_str(c, want), type_str(c, vt));
    return NULL;
}

/* ---- declarations ---------------------------------------------------------------- */

static void check_fn(Checker *c, TriDecl *fn);
static void check_layer(Checker *c, TriDecl *layer);

/* A let: its value, then its annotation; returns with d->type set. */
static void check_let(Checker *c, TriDecl *d) {
    d->state = 1;
    TriType *vt = check_expr(c, d->value);
    TriType *t = vt;
    if (vt->kind == TRI_T_VOID) {
        ERR(c, d->value->loc, d->value->span, "'%s' is initialised with a call that returns no value",
            d->name);
        t = c->t_error;
    } else if (vt->kind == TRI_T_LIST && d->ann) {
        /* lists only initialise unannotated lets (shapes) */
    }
    if (d->ann) {
        TriType *want = resolve_type(c, d->ann);
        TriType *r = convert(c, want, d->value, vt, arena_printf(c->arena, "'%s'", d->name));
        t = r ? r : want;
    }
    if (vt->kind == TRI_T_LAYER && !c->layer_init && !is_err(vt))
        ERR(c, d->value->loc, d->value->span, "layer instances can only be created in a layer body");
    d->type = t;
    d->dim = (t->kind == TRI_T_SCALAR && is_int_dt(t->dtype)) ? d->value->dim : DIM_UNKNOWN;
    d->state = 2;
}

static void check_param(Checker *c, TriDecl *d) {
    d->type = resolve_type(c, d->ann);
    d->dim = (d->type->kind == TRI_T_SCALAR && is_int_dt(d->type->dtype)) ? (TriDim){d->name, -1}
                                                                             : DIM_UNKNOWN;
    d->state = 2;
}

/* Checks a decl used before it was checked (a top-level or member decl);
 * reports a cycle when it is being checked already. */
static void ensure_decl(Checker *c, TriDecl *d, Loc use, int span) {
    if (d->state == 2) return;
    if (d->state == 1) {
        if (d->type && is_err(d->type)) return; /* this cycle was reported */
        if (d->kind == TRI_D_LET)
            ERR(c, use, span, "'%s' is defined in terms of itself", d->name);
        else if (d->kind == TRI_D_FN)
            ERR(c, use, span, "recursive call to '%s' (recursion is not supported)", d->name);
        else if (d->kind == TRI_D_LAYER)
            ERR(c, use, span, "layer '%s' contains itself", d->name);
        d->type = c->t_error;
        return;
    }
    if (d->kind == TRI_D_LET && d->parent && c->layer == d->parent) {
        ERR(c, use, span, "'%s' is used before its definition", d->name);
        return;
    }
    if (c->depth >= MAX_CHECK_DEPTH) {
        ERR(c, use, span, "definitions nested too deeply");
        d->type = c->t_error;
        d->state = 2;
        return;
    }
    /* save the scope: d is checked in its own context */
    Map *members = c->members, *locals = c->locals;
    TriDecl *layer = c->layer, *fn = c->fn;
    bool layer_init = c->layer_init, saw_return = c->saw_return;
    TriType *ret = c->ret_inferred;
    c->depth++;
    if (d->kind == TRI_D_LAYER) {
        check_layer(c, d);
    } else if (d->kind == TRI_D_FN) {
        if (!d->parent) c->members = NULL, c->layer = NULL;
        check_fn(c, d);
    } else if (d->kind == TRI_D_LET) {
        c->members = NULL, c->locals = NULL, c->layer = NULL, c->fn = NULL;
        c->layer_init = false;
        check_let(c, d);
    } else {
        check_param(c, d);
    }
    c->depth--;
    c->members = members, c->locals = locals, c->layer = layer, c->fn = fn;
    c->layer_init = layer_init, c->saw_return = saw_return, c->ret_inferred = ret;
}

static void check_stmt(Checker *c, TriStmt *s) {
    switch (s->kind) {
    case TRI_ST_LET:
        check_let(c, s->let);
        declare(c, c->locals, s->let);
        break;
    case TRI_ST_EXPR:
        check_expr(c, s->expr);
        break;
    case TRI_ST_RETURN: {
        TriDecl *fn = c->fn;
        TriType *vt = s->expr ? check_expr(c, s->expr) : c->t_void;
        c->saw_return = true;
        if (fn->ret) {
            TriType *want = fn->type;
            if (want->kind == TRI_T_VOID) break;
            if (!s->expr) {
                ERR(c, s->loc, s->span, "'%s' must return a value of type %s", fn->name, type_str(c, want));
                break;
            }
            convert(c, want, s->expr, vt, arena_printf(c->arena, "the result of '%s'", fn->name));
        } else if (!c->ret_inferred) {
            c->ret_inferred = vt;
        } else if (!is_err(vt) && !is_err(c->ret_inferred) &&
                   (vt->kind != c->ret_inferred->kind || vt->dtype != c->ret_inferred->dtype)) {
            ERR(c, s->expr ? s->expr->loc : s->loc, s->expr ? s->expr->span : s->span,
                "'%s' returns %s here but %s before", fn->name, type_str(c, vt),
                type_str(c, c->ret_inferred));
        }
        break;
    }
    }
}

/* fn: params, then statements in order; the result type is the declared
 * one, or the type of the first return (void without one). */
static void check_fn(Checker *c, TriDecl *fn) {
    fn->state = 1;
    c->fn = fn;
    c->locals = new_scope(c);
    c->layer_init = false;
    c->saw_return = false;
    c->ret_inferred = NULL;
    for (int i = 0; i < fn->nparams; i++) {
        check_param(c, fn->params[i]);
        declare(c, c->locals, fn->params[i]);
    }
    fn->type = fn->ret ? resolve_type(c, fn->ret) : NULL;
    if (fn->type && fn->type->kind == TRI_T_LAYER) {
        ERR(c, fn->ret->loc, fn->ret->span, "a fn cannot return a layer");
        fn->type = c->t_error;
    }
    for (int i = 0; i < fn->nbody; i++) check_stmt(c, fn->body[i]);
    if (fn->ret && !c->saw_return && !is_err(fn->type) && !fn->incomplete)
        ERR(c, fn->loc, fn->span, "'%s' must return a value of type %s, but has no return", fn->name,
            type_str(c, fn->type));
    /* a fn cut short by a syntax error may have lost its return: its
     * callers see an error, not a fn without a value */
    if (!fn->type) fn->type = c->ret_inferred ? c->ret_inferred : fn->incomplete ? c->t_error : c->t_void;
    c->locals = NULL;
    c->fn = NULL;
    fn->state = 2;
}

/* layer: params, member names, lets in order (the constructor), then fns;
 * a forward is required and gives the layer its result type. */
static void check_layer(Checker *c, TriDecl *l) {
    l->state = 1;
    c->layer = l;
    c->members = new_scope(c);
    c->locals = NULL;
    c->fn = NULL;
    for (int i = 0; i < l->nparams; i++) {
        check_param(c, l->params[i]);
        declare(c, c->members, l->params[i]);
    }
    for (int i = 0; i < l->nmembers; i++) {
        declare(c, c->members, l->members[i]);
        if (l->members[i]->kind == TRI_D_FN && strcmp(l->members[i]->name, "forward") == 0)
            l->forward = l->members[i];
    }
    c->layer_init = true;
    for (int i = 0; i < l->nmembers; i++)
        if (l->members[i]->kind == TRI_D_LET) check_let(c, l->members[i]);
    c->layer_init = false;
    for (int i = 0; i < l->nmembers; i++)
        if (l->members[i]->kind == TRI_D_FN && l->members[i]->state == 0) {
            c->locals = NULL;
            check_fn(c, l->members[i]);
        }
    if (!l->forward) {
        if (!l->incomplete) ERR(c, l->loc, l->span, "layer '%s' has no 'forward' fn", l->name);
        l->type = c->t_error;
    } else {
        l->type = l->forward->type;
        if (l->ret) {
            TriType *want = resolve_type(c, l->ret);
            char why[256];
            const TriType *got = l->forward->type;
            bool ok = is_err(want) || is_err(got) ||
                      (want->kind == got->kind && want->dtype == got->dtype &&
                       (want->kind != TRI_T_TENSOR || shapes_compatible(want, got, why, sizeof why)));
            if (!ok)
                ERR(c, l->ret->loc, l->ret->span, "layer '%s' declares result %s but its forward returns %s",
                    l->name, type_str(c, want), type_str(c, got));
            else if (!is_err(want) && !is_err(got) && want->kind == TRI_T_TENSOR)
                l->type = merge_shape(c, want, got);
        }
    }
    c->members = NULL;
    c->layer = NULL;
    l->state = 2;
}

/* ---- expressions ------------------------------------------------------------------ */

/* Element type of arithmetic on a and b: trit * trit stays trit, otherwise a
 * trit counts as int8; a scalar takes the tensor's dtype when both are of
 * the same kind (int or float), as in PyTorch; '/' always gives a float. */
static TriDType promote(const TriType *a, const TriType *b, int op) {
    TriDType x = a->dtype, y = b->dtype;
    if (op == '*' && x == TRI_DT_TRIT && y == TRI_DT_TRIT) return TRI_DT_TRIT;
    if (x == TRI_DT_TRIT) x = TRI_DT_INT8;
    if (y == TRI_DT_TRIT) y = TRI_DT_INT8;
    TriDType r;
    if (is_scalar(a) != is_scalar(b)) {
        TriDType ts = is_scalar(a) ? y : x, ss = is_scalar(a) ? x : y;
        r = (tri_dtype_is_float(ts) || !tri_dtype_is_float(ss)) ? ts : TRI_DT_FLOAT32;
    } else {
        r = x > y ? x : y;
    }
    if (op == '/' && !tri_dtype_is_float(r)) r = TRI_DT_FLOAT32;
    return r;
}

/* Broadcasts the shapes of a and b (numpy rules, aligned on the right).
 * Returns false on a definite mismatch, with the offending dims in why. */
static bool broadcast(Checker *c, const TriType *a, const TriType *b, TriType *out, char *why, size_t n) {
    int rank = a->rank > b->rank ? a->rank : b->rank;
    TriDim *dims = ARENA_ARRAY(c->arena, TriDim, rank);
    for (int i = 1; i <= rank; i++) {
        bool ha = i <= a->rank, hb = i <= b->rank;
        TriDim da = ha ? a->dims[a->rank - i] : a->ellipsis ? DIM_UNKNOWN : dim_const(1);
        TriDim db = hb ? b->dims[b->rank - i] : b->ellipsis ? DIM_UNKNOWN : dim_const(1);
        TriDim r;
        if (dim_is_const(da) && da.value == 1) r = dim_known(db) || hb ? db : da;
        else if (dim_is_const(db) && db.value == 1) r = da;
        else if (dim_cmp(da, db) < 0) {
            char x[96], y[96];
            dim_text(da, x, sizeof x);
            dim_text(db, y, sizeof y);
            snprintf(why, n, "dimension %s vs %s", x, y);
            return false;
        } else r = dim_known(da) ? da : db;
        dims[rank - i] = r;
    }
    out->rank = rank;
    out->dims = dims;
    out->ellipsis = a->ellipsis || b->ellipsis;
    return true;
}

static TriType *check_matmul_op(Checker *c, TriExpr *e, TriType *a, TriType *b) {
    Loc at = e->u.op.op_loc;
    if (!is_tensor(a) || !is_tensor(b)) {
        ERR(c, at, 1, "operands of '@' must be tensors, got %s and %s", type_str(c, a), type_str(c, b));
        return c->t_error;
    }
    TriDType dt = promote(a, b, '@');
    if (dt == TRI_DT_TRIT) dt = TRI_DT_INT8;
    if ((!a->ellipsis && a->rank == 0) || (!b->ellipsis && b->rank == 0)) {
        ERR(c, at, 1, "operands of '@' must have at least one dimension");
        return c->t_error;
    }
    /* a: [..., m, k] or [k]; b: [..., k, n] or [k] */
    bool a_vec = !a->ellipsis && a->rank == 1, b_vec = !b->ellipsis && b->rank == 1;
    TriDim ka = a->rank >= 1 ? a->dims[a->rank - 1] : DIM_UNKNOWN;
    TriDim kb = b_vec ? b->dims[0] : b->rank >= 2 ? b->dims[b->rank - 2] : DIM_UNKNOWN;
    if (dim_cmp(ka, kb) < 0) {
        char x[96], y[96];
        dim_text(ka, x, sizeof x);
        dim_text(kb, y, sizeof y);
        ERR(c, at, 1, "inner dimensions of '@' do not match: %s is %s and %s is %s (%s vs %s)",
            "the left operand", type_str(c, a), "the right", type_str(c, b), x, y);
        return c->t_error;
    }
    TriDim dims[64];
    int n = 0;
    bool ellipsis = false;
    if (a->ellipsis || b->ellipsis) {
        ellipsis = !(a_vec && b_vec);
    } else {
        /* batch dims: broadcast a[:-2] with b[:-2] */
        TriType ab = *a, bb = *b, out = {0};
        ab.rank = a->rank >= 2 ? a->rank - 2 : 0;
        bb.rank = b->rank >= 2 ? b->rank - 2 : 0;
        char why[256];
        if (!broadcast(c, &ab, &bb, &out, why, sizeof why)) {
            ERR(c, at, 1, "batch dimensions of '@' do not broadcast (%s)", why);
            return c->t_error;
        }
        for (int i = 0; i < out.rank && n < 60; i++) dims[n++] = out.dims[i];
    }
    if (a->rank >= 2) dims[n++] = a->dims[a->rank - 2];
    else if (a->ellipsis) ellipsis = true;
    if (b->rank >= 2) dims[n++] = b->dims[b->rank - 1];
    else if (b->ellipsis) {
        ellipsis = true;
        n = 0;
    }
    return tensor(c, dt, n, dims, ellipsis);
}

static TriType *check_binary(Checker *c, TriExpr *e) {
    TriType *a = check_expr(c, e->u.op.lhs), *b = check_expr(c, e->u.op.rhs);
    int op = e->u.op.op;
    if (is_err(a) || is_err(b)) return c->t_error;
    if (op == '@') return check_matmul_op(c, e, a, b);
    if ((!is_tensor(a) && !is_scalar(a)) || (!is_tensor(b) && !is_scalar(b))) {
        ERR(c, e->u.op.op_loc, 1, "invalid operands to '%c': %s and %s", op, type_str(c, a), type_str(c, b));
        return c->t_error;
    }
    TriDType dt = promote(a, b, op);
    if (is_scalar(a) && is_scalar(b)) {
        /* scalars divide in Python, which raises ZeroDivisionError (tensors
         * divide in torch and give inf or nan) */
        int64_t zero;
        TriExpr *rhs = e->u.op.rhs;
        if (op == '/' && ((rhs->kind == TRI_EX_FLOAT && rhs->u.fval == 0.0) ||
                          (is_int_dt(b->dtype) && const_int_value(rhs, &zero, 0) && zero == 0))) {
            ERR(c, e->u.op.op_loc, 1, "division by zero");
            return c->t_error;
        }
        if (dt == TRI_DT_INT && op != '/') {
            /* int is 64 bits: a constant expression past that is an error
             * here, not a Python big integer that fails (or allocates
             * 2^63 elements) when the module runs */
            int64_t x, y, r;
            if (const_int_value(e->u.op.lhs, &x, 0) && const_int_value(e->u.op.rhs, &y, 0) &&
                (op == '+' ? __builtin_add_overflow(x, y, &r)
                 : op == '-' ? __builtin_sub_overflow(x, y, &r)
                             : __builtin_mul_overflow(x, y, &r))) {
                ERR(c, e->u.op.op_loc, 1, "integer overflow: %lld %c %lld does not fit in int (64 bits)",
                    (long long)x, op, (long long)y);
                return c->t_error;
            }
            e->dim = dim_arith(c, op, e->u.op.lhs->dim, e->u.op.rhs->dim);
        }
        return scalar(c, dt);
    }
    TriType *t = new_type(c, TRI_T_TENSOR, dt);
    char why[256];
    if (!broadcast(c, is_scalar(a) ? &(TriType){.kind = TRI_T_TENSOR} : a,
                   is_scalar(b) ? &(TriType){.kind = TRI_T_TENSOR} : b, t, why, sizeof why)) {
        ERR(c, e->u.op.op_loc, 1, "shapes of %s and %s do not broadcast in '%c' (%s)", type_str(c, a),
            type_str(c, b), op, why);
        return c->t_error;
    }
    return t;
}

static TriType *check_name(Checker *c, TriExpr *e) {
    const char *name = e->u.name.name;
    TriDecl *d = lookup(c, name);
    if (!d) {
        if (tri_builtin_lookup(name, strlen(name)) != TRI_B_NONE) {
            ERR(c, e->loc, e->span, "built-in function '%s' must be called", name);
            return c->t_error;
        }
        Suggest s = suggest_names(c, name, false);
        ERR(c, e->loc, e->span, "undefined name '%s'%s", name, hint(c, &s));
        return c->t_error;
    }
    e->u.name.ref = d;
    if (d->kind == TRI_D_FN || d->kind == TRI_D_LAYER) {
        ERR(c, e->loc, e->span, "%s '%s' must be called", d->kind == TRI_D_FN ? "fn" : "layer", name);
        return c->t_error;
    }
    ensure_decl(c, d, e->loc, e->span);
    if (!d->type) return c->t_error;
    e->dim = d->dim;
    return d->type;
}

static TriType *check_list(Checker *c, TriExpr *e) {
    int n = e->u.list.n;
    TriType *t = new_type(c, TRI_T_LIST, TRI_DT_INT);
    t->rank = n;
    t->dims = ARENA_ARRAY(c->arena, TriDim, n > 0 ? n : 1);
    bool first = true, bad = false;
    for (int i = 0; i < n; i++) {
        TriExpr *x = e->u.list.elems[i];
        TriType *xt = check_expr(c, x);
        t->dims[i] = x->dim;
        if (is_err(xt)) {
            bad = true;
            continue;
        }
        if (!is_scalar(xt)) {
            ERR(c, x->loc, x->span, "list elements must be numbers, got %s", type_str(c, xt));
            bad = true;
            continue;
        }
        TriDType dt = xt->dtype == TRI_DT_TRIT ? TRI_DT_INT : xt->dtype;
        if (first || dt > t->dtype) t->dtype = dt;
        first = false;
    }
    return bad ? c->t_error : t;
}

static TriType *check_ternary_literal(Checker *c, TriExpr *e) {
    int nd = e->u.tern.ndims, nv = e->u.tern.nvals;
    TriDim *dims = ARENA_ARRAY(c->arena, TriDim, nd > 0 ? nd : 1);
    int64_t count = 1;
    bool known = true;
    for (int i = 0; i < nd; i++) {
        dims[i] = resolve_dim(c, e->u.tern.dims[i]);
        if (!dim_is_const(dims[i]) || __builtin_mul_overflow(count, dims[i].value, &count)) known = false;
    }
    e->u.tern.trits = ARENA_ARRAY(c->arena, int8_t, nv > 0 ? nv : 1);
    bool bad = false;
    for (int i = 0; i < nv; i++) {
        TriExpr *v = e->u.tern.vals[i];
        v->type = c->t_trit;
        if (v->u.ival < -1 || v->u.ival > 1) {
            ERR(c, v->loc, v->span, "trit value must be -1, 0 or 1, got %lld", (long long)v->u.ival);
            bad = true;
        }
        e->u.tern.trits[i] = (int8_t)(v->u.ival < 0 ? -1 : v->u.ival > 0);
    }
    if (known && count != nv) {
        char shape[200];
        TriType tmp = {.kind = TRI_T_TENSOR, .rank = nd, .dims = dims};
        shape_text(&tmp, shape, sizeof shape);
        ERR(c, e->loc, e->span, "TernaryTensor of shape %s needs %lld values, got %d", shape,
            (long long)count, nv);
        bad = true;
    } else if (!known && !bad && nd > 0) {
        ERR(c, e->loc, e->span, "the shape of a TernaryTensor literal must be constant");
        bad = true;
    }
    if (bad) return c->t_error;
    return tensor(c, TRI_DT_TRIT, nd, dims, false);
}

/* ---- calls --------------------------------------------------------------------- */

/* Binds the call's arguments to parameter names (positional first, then
 * keywords), checking every argument once. bound[i] is NULL for an
 * optional parameter not given. False after an arity or keyword error. */
static bool bind_args(Checker *c, TriExpr *e, const char *const *names, int nparams, int nreq,
                      const char *what) {
    int nargs = e->u.call.nargs;
    TriExpr **bound = ARENA_ARRAY(c->arena, TriExpr *, nparams > 0 ? nparams : 1);
    e->u.call.bound = bound;
    e->u.call.nbound = nparams;
    bool ok = true;
    int npos = 0;
    for (int i = 0; i < nargs; i++) {
        TriArg *a = &e->u.call.args[i];
        check_expr(c, a->value);
        if (!ok) continue;
        if (!a->name) {
            if (npos >= nparams) {
                if (nreq == nparams)
                    ERR(c, a->value->loc, a->value->span, "too many arguments to %s: expected %d, got %d", what,
                        nparams, nargs);
                else
                    ERR(c, a->value->loc, a->value->span,
                        "too many arguments to %s: expected at most %d, got %d", what, nparams, nargs);
                ok = false;
                continue;
            }
            bound[npos++] = a->value;
            continue;
        }
        int k = -1;
        for (int j = 0; j < nparams; j++)
            if (strcmp(names[j], a->name) == 0) k = j;
        if (k < 0) {
            Suggest s = suggest_begin(a->name);
            for (int j = 0; j < nparams; j++) suggest_try(&s, names[j]);
            ERR(c, a->loc, a->span, "%s has no parameter named '%s'%s", what, a->name, hint(c, &s));
            ok = false;
        } else if (bound[k]) {
            ERR(c, a->loc, a->span, "argument '%s' of %s given twice", a->name, what);
            ok = false;
        } else {
            bound[k] = a->value;
        }
    }
    if (!ok) return false;
    if (nargs < nreq) {
        ERR(c, e->loc, e->span, "too few arguments to %s: expected %s%d, got %d", what,
            nreq == nparams ? "" : "at least ", nreq, nargs);
        return false;
    }
    for (int j = 0; j < nreq; j++)
        if (!bound[j]) {
            ERR(c, e->loc, e->span, "missing argument '%s' in call to %s", names[j], what);
            return false;
        }
    return true;
}

static bool is_word_char(char ch) {
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Rewrites the dims of t that name an int parameter of `owner` (a fn or a
 * layer) into the dims of the matching argument of `call` (bound in
 * parameter order), so a callee's shapes read in the caller's terms.
 * Compound symbols over parameters become unknown. */
static TriType *subst(Checker *c, TriType *t, const TriDecl *owner, const TriExpr *call) {
    if (!t || t->kind != TRI_T_TENSOR || !owner || !call || call->kind != TRI_EX_CALL || !call->u.call.bound)
        return t;
    TriType *r = NULL;
    for (int i = 0; i < t->rank; i++) {
        const char *sym = t->dims[i].sym;
        if (!sym) continue;
        TriDim to = t->dims[i];
        bool hit = false;
        for (int j = 0; j < owner->nparams && j < call->u.call.nbound; j++) {
            const char *pn = owner->params[j]->name;
            if (sym == pn) {
                const TriExpr *a = call->u.call.bound[j];
                to = a ? a->dim : DIM_UNKNOWN;
                hit = true;
                break;
            }
            const char *f = strstr(sym, pn);
            size_t n = strlen(pn);
            if (f && (f == sym || !is_word_char(f[-1])) && !is_word_char(f[n])) {
                to = DIM_UNKNOWN;
                hit = true;
            }
        }
        if (!hit) continue;
        if (!r) r = merge_shape(c, t, t);
        r->dims[i] = to;
    }
    return r ? r : t;
}

/* Dimension variables: a symbolic dim in a fn's parameter types that is
 * not a parameter of its layer is bound, per call, to the argument's dim
 * at its first use; later uses and the result are read through the
 * binding. So `fn f(x: Tensor[float32, [n, d]]) -> Tensor[float32, [d]]`
 * is generic in n and d. */
static bool is_layer_param(const TriDecl *fn, const char *sym) {
    const TriDecl *l = fn->parent;
    if (!l) return false;
    for (int i = 0; i < l->nparams; i++)
        if (l->params[i]->name == sym) return true;
    return false;
}

/* With `arg` set: binds unbound variables of `want` to the matching
 * trailing dims of arg and returns want with every bound variable
 * replaced. With arg NULL: only replaces (for the result type). */
static TriType *bind_dims(Checker *c, TriType *want, const TriDecl *fn, const TriType *arg, DimBinds *b) {
    if (!want || want->kind != TRI_T_TENSOR || !b) return want;
    TriType *r = NULL;
    for (int i = 0; i < want->rank; i++) {
        const char *sym = want->dims[i].sym;
        if (!sym || is_layer_param(fn, sym)) continue;
        int k = 0;
        while (k < b->n && b->sym[k] != sym) k++;
        if (k == b->n) {
            int from_end = want->rank - i;
            if (!arg || arg->kind != TRI_T_TENSOR || from_end > arg->rank || b->n == TC_ARRAY_LEN(b->sym))
                continue;
            TriDim d = arg->dims[arg->rank - from_end];
            if (!dim_known(d)) continue;
            b->sym[b->n] = sym;
            b->dim[b->n++] = d;
        }
        if (!r) r = merge_shape(c, want, want);
        r->dims[i] = b->dim[k];
    }
    return r ? r : want;
}

/* Checks a call to a user fn, method or sub-layer forward against fn;
 * ctor is the call that built the sub-layer (NULL otherwise). */
static TriType *call_user(Checker *c, TriExpr *e, TriDecl *fn, const char *what, const TriExpr *ctor) {
    const char *names[64] = {0};
    int np = fn->nparams < 64 ? fn->nparams : 64;
    for (int i = 0; i < np; i++) names[i] = fn->params[i]->name;
    if (!bind_args(c, e, names, np, np, what)) return c->t_error;
    ensure_decl(c, fn, e->loc, e->span);
    DimBinds binds = {0};
    for (int i = 0; i < np; i++) {
        TriExpr *a = e->u.call.bound[i];
        TriDecl *p = fn->params[i];
        if (p->state != 2) check_param(c, p);
        TriType *want = ctor ? subst(c, p->type, fn->parent, ctor) : p->type;
        want = bind_dims(c, subst(c, want, fn, e), fn, a->type, &binds);
        convert(c, want, a, a->type,
                arena_printf(c->arena, "argument '%s' of %s", p->name, what));
    }
    if (!fn->type || fn->state != 2) return c->t_error;
    TriType *t = ctor ? subst(c, fn->type, fn->parent, ctor) : fn->type;
    return bind_dims(c, subst(c, t, fn, e), fn, NULL, &binds);
}

static TriType *check_builtin(Checker *c, TriExpr *e, TriBuiltin b);

static TriType *check_call(Checker *c, TriExpr *e) {
    const char *name = e->u.call.callee;
    TriDecl *d = lookup(c, name);
    if (!d) {
        TriBuiltin b = tri_builtin_lookup(name, strlen(name));
        if (b != TRI_B_NONE) {
            e->u.call.kind = TRI_CALL_BUILTIN;
            e->u.call.builtin = b;
            return check_builtin(c, e, b);
        }
        for (int i = 0; i < e->u.call.nargs; i++) check_expr(c, e->u.call.args[i].value);
        Suggest s = suggest_names(c, name, true);
        ERR(c, e->loc, e->span, "undefined function '%s'%s", name, hint(c, &s));
        return c->t_error;
    }
    e->u.call.decl = d;
    const char *what = arena_printf(c->arena, "'%s'", name);
    switch (d->kind) {
    case TRI_D_FN:
        e->u.call.kind = d->parent ? TRI_CALL_METHOD : TRI_CALL_FN;
        if (d->parent && c->layer_init) {
            for (int i = 0; i < e->u.call.nargs; i++) check_expr(c, e->u.call.args[i].value);
            ERR(c, e->loc, e->span, "fn '%s' of the layer cannot be called while the layer is built", name);
            return c->t_error;
        }
        return call_user(c, e, d, what, NULL);
    case TRI_D_LAYER: {
        e->u.call.kind = TRI_CALL_LAYER_NEW;
        if (!c->layer_init) {
            for (int i = 0; i < e->u.call.nargs; i++) check_expr(c, e->u.call.args[i].value);
            ERR(c, e->loc, e->span, "layer '%s' can only be instantiated by a 'let' in a layer body", name);
            return c->t_error;
        }
        const char *names[64] = {0};
        int np = d->nparams < 64 ? d->nparams : 64;
        for (int i = 0; i < np; i++) names[i] = d->params[i]->name;
        if (!bind_args(c, e, names, np, np, what)) return c->t_error;
        ensure_decl(c, d, e->loc, e->span);
        for (int i = 0; i < np; i++) {
            if (d->params[i]->state != 2) check_param(c, d->params[i]);
            TriExpr *a = e->u.call.bound[i];
            convert(c, d->params[i]->type, a, a->type,
                    arena_printf(c->arena, "argument '%s' of layer '%s'", d->params[i]->name, name));
        }
        TriType *t = new_type(c, TRI_T_LAYER, TRI_DT_FLOAT32);
        t->layer = d;
        return t;
    }
    default: {
        ensure_decl(c, d, e->loc, e->span);
        if (d->type && d->type->kind == TRI_T_LAYER && d->type->layer) {
            TriDecl *l = d->type->layer;
            e->u.call.kind = TRI_CALL_SUBLAYER;
            if (c->layer_init || !c->fn) {
                for (int i = 0; i < e->u.call.nargs; i++) check_expr(c, e->u.call.args[i].value);
                ERR(c, e->loc, e->span, "sub-layer '%s' can only be called inside a fn", name);
                return c->t_error;
            }
            if (l->state != 2) ensure_decl(c, l, e->loc, e->span);
            if (!l->forward || l->state != 2) {
                for (int i = 0; i < e->u.call.nargs; i++) check_expr(c, e->u.call.args[i].value);
                return c->t_error;
            }
            return call_user(c, e, l->forward, what, d->value);
        }
        for (int i = 0; i < e->u.call.nargs; i++) check_expr(c, e->u.call.args[i].value);
        if (!is_err(d->type))
            ERR(c, e->loc, e->span, "'%s' is not a function (it is %s)", name, type_str(c, d->type));
        return c->t_error;
    }
    }
}

static TriType *check_expr(Checker *c, TriExpr *e) {
    if (e->type) return e->type;
    TriType *t;
    switch (e->kind) {
    case TRI_EX_INT:
        t = c->t_int;
        e->dim = e->u.ival >= 0 ? dim_const(e->u.ival) : DIM_UNKNOWN;
        break;
    case TRI_EX_FLOAT: t = c->t_float; break;
    case TRI_EX_TRIT:
        t = c->t_trit;
        if (e->u.ival < -1 || e->u.ival > 1) {
            ERR(c, e->loc, e->span, "trit value must be -1, 0 or 1, got %lld", (long long)e->u.ival);
            t = c->t_error;
        }
        break;
    case TRI_EX_NAME: t = check_name(c, e); break;
    case TRI_EX_LIST: t = check_list(c, e); break;
    case TRI_EX_TERNARY: t = check_ternary_literal(c, e); break;
    case TRI_EX_UNARY: {
        TriType *x = check_expr(c, e->u.op.lhs);
        t = x;
        int64_t v;
        if (is_scalar(x) && x->dtype == TRI_DT_INT && const_int_value(e->u.op.lhs, &v, 0) && v == INT64_MIN) {
            ERR(c, e->loc, 1, "integer overflow: -(%lld) does not fit in int (64 bits)", (long long)v);
            t = c->t_error;
        } else if (!is_err(x) && !is_tensor(x) && !is_scalar(x)) {
            ERR(c, e->loc, 1, "cannot negate %s", type_str(c, x));
            t = c->t_error;
        } else if (is_tensor(x) && x->quant != TRI_Q_NONE && x->quant != TRI_Q_TERNARY) {
            t = retype(c, x, x->dtype); /* negating drops the quantisation */
        }
        break;
    }
    case TRI_EX_BINARY: t = check_binary(c, e); break;
    case TRI_EX_CALL: t = check_call(c, e); break;
    default: t = c->t_error;
    }
    e->type = t ? t : c->t_error;
    return e->type;
}

/* ---- built-ins ------------------------------------------------------------------- */

typedef enum Want { WANT_NUMERIC, WANT_FLOAT, WANT_TERNARY } Want;

/* The tensor argument `pname` of builtin `fname`, or NULL after an error
 * (or when the argument's type is already an error). */
static TriType *want_tensor(Checker *c, TriExpr *a, const char *fname, const char *pname, Want w) {
    TriType *t = a->type;
    if (is_err(t)) return NULL;
    const char *need = w == WANT_TERNARY ? "a TernaryTensor" : w == WANT_FLOAT ? "a float tensor" : "a tensor";
    if (!is_tensor(t)) {
        ERR(c, a->loc, a->span, "argument '%s' of '%s' must be %s, got %s", pname, fname, need, type_str(c, t));
        return NULL;
    }
    if (w == WANT_TERNARY && t->dtype != TRI_DT_TRIT) {
        ERR(c, a->loc, a->span, "argument '%s' of '%s' must be a TernaryTensor, got %s%s", pname, fname,
            type_str(c, t),
            !tri_dtype_is_float(t->dtype)          ? ""
            : strcmp(fname, "ternary_matmul") == 0 ? " (use quantize_ternary, or matmul for float weights)"
                                                   : " (use quantize_ternary to convert)");
        return NULL;
    }
    if (w == WANT_FLOAT && !tri_dtype_is_float(t->dtype)) {
        ERR(c, a->loc, a->span, "argument '%s' of '%s' must be a float tensor, got %s%s", pname, fname,
            type_str(c, t),
            t->dtype == TRI_DT_TRIT && strcmp(fname, "matmul") == 0 ? " (use ternary_matmul for TernaryTensor weights)"
            : t->quant != TRI_Q_NONE || t->dtype == TRI_DT_TRIT ? " (dequantize it first)"
                                                                 : "");
        return NULL;
    }
    return t;
}

/* A shape: a list of integers, or one integer for a 1-D shape. */
/* The value of a constant integer expression (literals, int lets of
 * constants, unary '-', '+', '-', '*'), which may be negative, unlike a
 * dim; false when it is not constant. A fn parameter or layer parameter is
 * not constant. */
static bool const_int_value(TriExpr *e, int64_t *out, int depth) {
    if (!e || depth > 64 || !e->type || e->type->kind != TRI_T_SCALAR || !is_int_dt(e->type->dtype)) return false;
    int64_t a, b;
    switch (e->kind) {
    case TRI_EX_INT: *out = e->u.ival; return true;
    case TRI_EX_NAME: {
        TriDecl *d = e->u.name.ref;
        return d && d->kind == TRI_D_LET && const_int_value(d->value, out, depth + 1);
    }
    case TRI_EX_UNARY:
        if (!const_int_value(e->u.op.lhs, &a, depth + 1) || a == INT64_MIN) return false;
        *out = -a;
        return true;
    case TRI_EX_BINARY:
        if (!const_int_value(e->u.op.lhs, &a, depth + 1) || !const_int_value(e->u.op.rhs, &b, depth + 1)) return false;
        switch (e->u.op.op) {
        case '+': return !__builtin_add_overflow(a, b, out);
        case '-': return !__builtin_sub_overflow(a, b, out);
        case '*': return !__builtin_mul_overflow(a, b, out);
        default: return false;
        }
    default: return false;
    }
}

/* A shape argument: a list of ints or one int. A dimension whose value is
 * a negative constant is an error at it (for reshape, -1 is inferred and
 * its rule checks the rest). */
static bool shape_arg(Checker *c, TriExpr *a, const char *fname, int *rank, TriDim **dims) {
    TriType *t = a->type;
    if (is_err(t)) return false;
    bool reshape = strcmp(fname, "reshape") == 0;
    int64_t v;
    if (t->kind == TRI_T_LIST && is_int_dt(t->dtype)) {
        *rank = t->rank;
        *dims = t->dims;
        int64_t n = 1;
        bool overflow = false;
        for (int i = 0; i < t->rank; i++) {
            TriExpr *x = a->kind == TRI_EX_LIST ? a->u.list.elems[i] : NULL;
            if (x && !reshape && const_int_value(x, &v, 0) && v < 0) {
                ERR(c, x->loc, x->span, "dimension must not be negative");
                return false;
            }
            if (dim_is_const(t->dims[i])) overflow |= __builtin_mul_overflow(n, t->dims[i].value, &n);
        }
        if (overflow) { /* the element count (and the byte count of a packing) is not an int64 */
            ERR(c, a->loc, a->span, "shape of '%s' has more than 2^63 elements", fname);
            return false;
        }
        return true;
    }
    if (t->kind == TRI_T_SCALAR && is_int_dt(t->dtype)) {
        if (const_int_value(a, &v, 0) && v < 0) {
            ERR(c, a->loc, a->span, "dimension must not be negative");
            return false;
        }
        *rank = 1;
        *dims = ARENA_NEW(c->arena, TriDim);
        **dims = a->dim;
        return true;
    }
    ERR(c, a->loc, a->span, "argument 'shape' of '%s' must be a list of integers, got %s", fname, type_str(c, t));
    return false;
}

/* A constant integer argument (axis, stride, ...), or def when absent. */
static bool const_int_arg(Checker *c, TriExpr *a, const char *fname, const char *pname, int64_t def,
                          int64_t *out) {
    *out = def;
    if (!a) return true;
    if (is_err(a->type)) return false;
    if (a->kind == TRI_EX_INT) {
        *out = a->u.ival;
        return true;
    }
    if (is_scalar(a->type) && is_int_dt(a->type->dtype) && dim_is_const(a->dim)) {
        *out = a->dim.value;
        return true;
    }
    ERR(c, a->loc, a->span, "argument '%s' of '%s' must be a constant integer", pname, fname);
    return false;
}

static bool float_arg(Checker *c, TriExpr *a, const char *fname, const char *pname) {
    if (!a || is_err(a->type)) return true;
    if (is_scalar(a->type)) return true;
    ERR(c, a->loc, a->span, "argument '%s' of '%s' must be a number, got %s", pname, fname, type_str(c, a->type));
    return false;
}

/* Normalises axis for a tensor of type t; reports an axis out of range. */
static bool axis_arg(Checker *c, const TriExpr *call, TriExpr *a, const TriType *t, const char *fname, const char *pname,
                     int64_t def, int64_t *axis) {
    if (!const_int_arg(c, a, fname, pname, def, axis)) return false;
    if (t->ellipsis) {
        if (*axis < 0 && -*axis > t->rank) *axis = INT64_MIN; /* unknown position */
        return true;
    }
    if (*axis < -t->rank || *axis >= t->rank) {
        /* a default axis out of range (flatten of a 1-D tensor) is reported
         * at the call */
        ERR(c, a ? a->loc : call->loc, a ? a->span : call->span, "axis %lld is out of range for a tensor of rank %d", (long long)*axis,
            t->rank);
        return false;
    }
    if (*axis < 0) *axis += t->rank;
    return true;
}

static TriDim last_dim(const TriType *t) { return t->rank ? t->dims[t->rank - 1] : DIM_UNKNOWN; }

/* x [..., in] times w [out, in] transposed: [..., out]. */
static TriType *linear(Checker *c, TriExpr *e, TriType *x, TriType *w, const char *fname) {
    TriExpr *wa = e->u.call.bound[1];
    if (!w->ellipsis && w->rank != 2) {
        ERR(c, wa->loc, wa->span, "weight of '%s' must be 2-D [out, in], got %s", fname, type_str(c, w));
        return c->t_error;
    }
    if (!x->ellipsis && x->rank == 0) {
        TriExpr *xa = e->u.call.bound[0];
        ERR(c, xa->loc, xa->span, "input of '%s' must have at least one dimension", fname);
        return c->t_error;
    }
    TriDim in = w->rank == 2 ? w->dims[1] : DIM_UNKNOWN, out = w->rank == 2 ? w->dims[0] : DIM_UNKNOWN;
    TriDim xin = x->rank ? last_dim(x) : DIM_UNKNOWN;
    if (dim_cmp(xin, in) < 0) {
        char a[96], b[96];
        dim_text(xin, a, sizeof a);
        dim_text(in, b, sizeof b);
        ERR(c, e->loc, e->span,
            "shape mismatch in '%s': input %s has %s features but weight %s expects %s",
            fname, type_str(c, x), a, type_str(c, w), b);
        return c->t_error;
    }
    TriDType dt = x->dtype;
    if (!x->rank) {
        TriDim d = out;
        return tensor(c, dt, 1, &d, true);
    }
    TriType *t = tensor(c, dt, x->rank, x->dims, x->ellipsis);
    t->dims[t->rank - 1] = out;
    return t;
}

/* Checks an optional 1-D per-feature tensor (bias, norm weight) against
 * the last dim of x. */
static bool feature_vec(Checker *c, TriExpr *a, const TriType *x, const char *fname, const char *pname) {
    if (!a) return true;
    TriType *t = want_tensor(c, a, fname, pname, WANT_FLOAT);
    if (!t) return false;
    if (!t->ellipsis && t->rank != 1) {
        ERR(c, a->loc, a->span, "argument '%s' of '%s' must be 1-D, got %s", pname, fname, type_str(c, t));
        return false;
    }
    if (t->rank == 1 && x->rank && dim_cmp(t->dims[0], last_dim(x)) < 0) {
        char p[96], q[96];
        dim_text(t->dims[0], p, sizeof p);
        dim_text(last_dim(x), q, sizeof q);
        ERR(c, a->loc, a->span, "argument '%s' of '%s' has %s features but the input has %s", pname, fname, p, q);
        return false;
    }
    return true;
}

static TriDim numel(Checker *c, const TriType *t, int from) {
    if (t->ellipsis) return DIM_UNKNOWN;
    TriDim n = dim_const(1);
    for (int i = from; i < t->rank; i++) n = dim_arith(c, '*', n, t->dims[i]);
    return n;
}

/* Requires a 4-D NCHW tensor (or an unknown shape). */
static bool nchw(Checker *c, TriExpr *a, const TriType *t, const char *fname, const char *pname) {
    if ((!t->ellipsis && t->rank != 4) || t->rank > 4) {
        ERR(c, a->loc, a->span, "argument '%s' of '%s' must be 4-D [N, C, H, W], got %s", pname, fname,
            type_str(c, t));
        return false;
    }
    return true;
}

static TriType *check_builtin(Checker *c, TriExpr *e, TriBuiltin b) {
    const char *fname = builtin_info[b].name;
    if (!c->nbparams[b]) {
        const char *s = builtin_info[b].params;
        int n = 0;
        while (*s && n < MAX_PARAMS) {
            const char *w = s;
            while (*s && *s != ' ') s++;
            c->bparams[b][n++] = intern_n(c->in, w, (size_t)(s - w));
            while (*s == ' ') s++;
        }
        c->nbparams[b] = n;
    }
    if (!bind_args(c, e, c->bparams[b], c->nbparams[b], builtin_info[b].nreq,
                   arena_printf(c->arena, "'%s'", fname)))
        return c->t_error;
    TriExpr **arg = e->u.call.bound;
    int rank;
    TriDim *dims;
    TriType *x, *w;
    int64_t k, s, p;
    switch (b) {
    case TRI_B_RANDOM_TERNARY:
        if (!shape_arg(c, arg[0], fname, &rank, &dims)) return c->t_error;
        return tensor(c, TRI_DT_TRIT, rank, dims, false);
    case TRI_B_ZEROS:
    case TRI_B_ONES:
    case TRI_B_RANDN:
        if (!shape_arg(c, arg[0], fname, &rank, &dims)) return c->t_error;
        return tensor(c, TRI_DT_FLOAT32, rank, dims, false);
    case TRI_B_TERNARY_MATMUL:
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        w = want_tensor(c, arg[1], fname, "w", WANT_TERNARY);
        return x && w ? linear(c, e, x, w, fname) : c->t_error;
    case TRI_B_MATMUL:
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        w = want_tensor(c, arg[1], fname, "w", WANT_FLOAT);
        return x && w ? linear(c, e, x, w, fname) : c->t_error;
    case TRI_B_ADD_BIAS:
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x || !feature_vec(c, arg[1], x, fname, "b")) return c->t_error;
        return retype(c, x, x->dtype);
    case TRI_B_CONV2D: {
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        w = want_tensor(c, arg[1], fname, "w", WANT_NUMERIC);
        bool ok = x && w && nchw(c, arg[0], x, fname, "x");
        if (w && w->dtype != TRI_DT_TRIT && !tri_dtype_is_float(w->dtype)) {
            ERR(c, arg[1]->loc, arg[1]->span, "argument 'w' of 'conv2d' must be a TernaryTensor or a float tensor, got %s",
                type_str(c, w));
            ok = false;
        }
        if (ok && ((!w->ellipsis && w->rank != 4) || w->rank > 4)) {
            ERR(c, arg[1]->loc, arg[1]->span, "weight of 'conv2d' must be 4-D [C_out, C_in, KH, KW], got %s",
                type_str(c, w));
            ok = false;
        }
        ok &= const_int_arg(c, arg[2], fname, "stride", 1, &s);
        ok &= const_int_arg(c, arg[3], fname, "padding", 0, &p);
        if (ok && s < 1) ERR(c, arg[2]->loc, arg[2]->span, "stride must be at least 1"), ok = false;
        if (ok && p < 0) ERR(c, arg[3]->loc, arg[3]->span, "padding must not be negative"), ok = false;
        if (!ok) return c->t_error;
        if (x->rank != 4 || w->rank != 4) return unknown_tensor(c, x->dtype);
        if (dim_cmp(x->dims[1], w->dims[1]) < 0) {
            char a[96], bb[96];
            dim_text(x->dims[1], a, sizeof a);
            dim_text(w->dims[1], bb, sizeof bb);
            ERR(c, e->loc, e->span, "shape mismatch in 'conv2d': input has %s channels but weight %s expects %s", a,
                type_str(c, w), bb);
            return c->t_error;
        }
        TriDim od[4] = {x->dims[0], w->dims[0], DIM_UNKNOWN, DIM_UNKNOWN};
        for (int i = 0; i < 2; i++) {
            TriDim in = x->dims[2 + i], kd = w->dims[2 + i];
            if (dim_is_const(in) && dim_is_const(kd)) {
                int64_t o;
                if (__builtin_mul_overflow(p, 2, &o) || __builtin_add_overflow(o, in.value, &o)) {
                    ERR(c, arg[3]->loc, arg[3]->span, "padding %lld is too large", (long long)p);
                    return c->t_error;
                }
                o -= kd.value;
                if (o < 0) {
                    ERR(c, e->loc, e->span, "conv2d kernel %lld is larger than the padded input %lld",
                        (long long)kd.value, (long long)(in.value + 2 * p));
                    return c->t_error;
                }
                od[2 + i] = dim_const(o / s + 1);
            } else if (s == 1 && dim_is_const(kd) && kd.value == 2 * p + 1) {
                od[2 + i] = in; /* "same" convolution */
            }
        }
        return tensor(c, x->dtype, 4, od, false);
    }
    case TRI_B_RELU:
    case TRI_B_GELU:
    case TRI_B_SILU:
    case TRI_B_SIGMOID:
    case TRI_B_TANH: {
        TriType *t = arg[0]->type;
        if (is_err(t)) return c->t_error;
        if (is_scalar(t)) return scalar(c, b == TRI_B_RELU || tri_dtype_is_float(t->dtype) ? t->dtype : TRI_DT_FLOAT32);
        if (!want_tensor(c, arg[0], fname, "x", WANT_NUMERIC)) return c->t_error;
        /* relu of a TernaryTensor with a scale is exact on its trits (the scale
         * is positive, the zero point 0), as for one without */
        if (b == TRI_B_RELU && t->quant == TRI_Q_TERNARY) return t;
        if (t->quant != TRI_Q_NONE) return want_tensor(c, arg[0], fname, "x", WANT_FLOAT) ? t : c->t_error;
        return retype(c, t, b == TRI_B_RELU || tri_dtype_is_float(t->dtype) ? t->dtype : TRI_DT_FLOAT32);
    }
    case TRI_B_SOFTMAX:
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x || !axis_arg(c, e, arg[1], x, fname, "axis", -1, &k)) return c->t_error;
        return retype(c, x, x->dtype);
    case TRI_B_LAYER_NORM:
    case TRI_B_RMS_NORM: {
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x) return c->t_error;
        bool ok = feature_vec(c, arg[1], x, fname, "weight");
        if (b == TRI_B_LAYER_NORM) ok &= feature_vec(c, arg[2], x, fname, "bias");
        ok &= float_arg(c, arg[b == TRI_B_LAYER_NORM ? 3 : 2], fname, "eps");
        return ok ? retype(c, x, x->dtype) : c->t_error;
    }
    case TRI_B_MAX_POOL2D:
    case TRI_B_AVG_POOL2D:
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x || !nchw(c, arg[0], x, fname, "x") || !const_int_arg(c, arg[1], fname, "kernel", 2, &k))
            return c->t_error;
        if (k < 1) {
            ERR(c, arg[1]->loc, arg[1]->span, "kernel must be at least 1");
            return c->t_error;
        }
        if (x->rank != 4) return unknown_tensor(c, x->dtype);
        for (int i = 2; i < 4; i++)
            if (dim_is_const(x->dims[i]) && x->dims[i].value < k) {
                /* torch refuses a window larger than the input (an output size of 0) */
                ERR(c, arg[1] ? arg[1]->loc : e->loc, arg[1] ? arg[1]->span : e->span,
                    "%s kernel %lld is larger than the input (%s %lld)", fname, (long long)k,
                    i == 2 ? "height" : "width", (long long)x->dims[i].value);
                return c->t_error;
            }
        x = retype(c, x, x->dtype);
        for (int i = 2; i < 4; i++) x->dims[i] = dim_arith(c, '/', x->dims[i], dim_const(k));
        return x;
    case TRI_B_FLATTEN: {
        x = want_tensor(c, arg[0], fname, "x", WANT_NUMERIC);
        if (!x || !axis_arg(c, e, arg[1], x, fname, "axis", 1, &k)) return c->t_error;
        if (x->ellipsis || k == INT64_MIN) return unknown_tensor(c, x->dtype);
        TriDim od[64];
        int n = 0;
        for (int i = 0; i < k && n < 63; i++) od[n++] = x->dims[i];
        od[n++] = numel(c, x, (int)k);
        return tensor(c, x->dtype, n, od, false);
    }
    case TRI_B_RESHAPE: {
        x = want_tensor(c, arg[0], fname, "x", WANT_NUMERIC);
        if (!x || !shape_arg(c, arg[1], fname, &rank, &dims)) return c->t_error;
        TriDim *nd = ARENA_ARRAY(c->arena, TriDim, rank > 0 ? rank : 1);
        int infer = -1;
        TriDim known = dim_const(1);
        for (int i = 0; i < rank; i++) {
            TriExpr *el = arg[1]->kind == TRI_EX_LIST ? arg[1]->u.list.elems[i] : NULL;
            nd[i] = dims[i];
            int64_t ev;
            if (el && const_int_value(el, &ev, 0) && ev < 0) {
                if (ev != -1) {
                    ERR(c, el->loc, el->span,
                        "a dimension of 'reshape' must not be negative, except -1 (inferred), got %lld", (long long)ev);
                    return c->t_error;
                }
                if (infer >= 0) {
                    ERR(c, el->loc, el->span, "only one dimension of 'reshape' may be -1");
                    return c->t_error;
                }
                infer = i;
                nd[i] = DIM_UNKNOWN;
                continue;
            }
            known = dim_arith(c, '*', known, nd[i]);
        }
        TriDim total = numel(c, x, 0);
        if (dim_is_const(total) && dim_is_const(known)) {
            if (infer >= 0 && known.value > 0 && total.value % known.value == 0)
                nd[infer] = dim_const(total.value / known.value);
            else if ((infer < 0 && total.value != known.value) || (infer >= 0 && (known.value == 0 || total.value % known.value))) {
                char from[256], to[256];
                shape_text(x, from, sizeof from);
                shape_text(&(TriType){.kind = TRI_T_TENSOR, .rank = rank, .dims = nd}, to, sizeof to);
                ERR(c, arg[1]->loc, arg[1]->span, "cannot reshape a tensor of shape %s (%lld elements) into %s",
                    from, (long long)total.value, to);
                return c->t_error;
            }
        } else if (infer >= 0 && dim_cmp(total, known) > 0) {
            nd[infer] = dim_const(1);
        }
        return tensor(c, x->dtype, rank, nd, false);
    }
    case TRI_B_TRANSPOSE: {
        int64_t d0, d1;
        x = want_tensor(c, arg[0], fname, "x", WANT_NUMERIC);
        if (!x) return c->t_error;
        if (!x->ellipsis && x->rank < 2) {
            ERR(c, arg[0]->loc, arg[0]->span, "argument 'x' of 'transpose' must have at least 2 dimensions, got %s",
                type_str(c, x));
            return c->t_error;
        }
        if (!axis_arg(c, e, arg[1], x, fname, "dim0", -2, &d0) || !axis_arg(c, e, arg[2], x, fname, "dim1", -1, &d1))
            return c->t_error;
        TriType *t = retype(c, x, x->dtype);
        if (d0 == INT64_MIN || d1 == INT64_MIN || (x->ellipsis && (d0 >= 0 || d1 >= 0)))
            return unknown_tensor(c, x->dtype);
        if (x->ellipsis) d0 += x->rank, d1 += x->rank;
        TriDim tmp = t->dims[d0];
        t->dims[d0] = t->dims[d1];
        t->dims[d1] = tmp;
        return t;
    }
    case TRI_B_QUANTIZE_TERNARY: {
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x || !float_arg(c, arg[1], fname, "threshold")) return c->t_error;
        TriExpr *th = arg[1];
        if (th && (th->kind == TRI_EX_FLOAT || th->kind == TRI_EX_INT)) {
            double v = th->kind == TRI_EX_FLOAT ? th->u.fval : (double)th->u.ival;
            if (!(v >= 0.0 && v < 1.0)) {
                ERR(c, th->loc, th->span, "threshold of 'quantize_ternary' must be in [0, 1), got %g", v);
                return c->t_error;
            }
        }
        TriType *t = retype(c, x, TRI_DT_TRIT);
        t->quant = TRI_Q_TERNARY;
        return t;
    }
    case TRI_B_QUANTIZE_INT8:
    case TRI_B_QUANTIZE_INT4: {
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x) return c->t_error;
        TriType *t = retype(c, x, b == TRI_B_QUANTIZE_INT8 ? TRI_DT_INT8 : TRI_DT_INT4);
        t->quant = TRI_Q_AFFINE;
        return t;
    }
    case TRI_B_QUANTIZE_PER_CHANNEL: {
        x = want_tensor(c, arg[0], fname, "x", WANT_FLOAT);
        if (!x || !axis_arg(c, e, arg[1], x, fname, "axis", 0, &k)) return c->t_error;
        TriType *t = retype(c, x, TRI_DT_INT8);
        t->quant = TRI_Q_PER_CHANNEL;
        t->quant_axis = k == INT64_MIN ? -1 : (int)k;
        return t;
    }
    case TRI_B_DEQUANTIZE: {
        TriType *t = arg[0]->type;
        if (is_err(t)) return c->t_error;
        if (!is_tensor(t) || (t->dtype != TRI_DT_TRIT && t->quant == TRI_Q_NONE)) {
            ERR(c, arg[0]->loc, arg[0]->span,
                "argument 'q' of 'dequantize' must be a quantized tensor (a TernaryTensor or the result of "
                "quantize_int8, quantize_int4 or quantize_per_channel), got %s",
                type_str(c, t));
            return c->t_error;
        }
        return retype(c, t, TRI_DT_FLOAT32);
    }
    case TRI_B_PACK_TERNARY: {
        x = want_tensor(c, arg[0], fname, "w", WANT_TERNARY);
        if (!x) return c->t_error;
        TriDim n = numel(c, x, 0);
        TriDim bytes = dim_is_const(n) ? dim_const(n.value / 4 + (n.value % 4 != 0)) : DIM_UNKNOWN;
        return tensor(c, TRI_DT_UINT8, 1, &bytes, false);
    }
    case TRI_B_UNPACK_TERNARY: {
        TriType *t = arg[0]->type;
        if (is_err(t)) return c->t_error;
        if (!is_tensor(t) || t->dtype != TRI_DT_UINT8) {
            ERR(c, arg[0]->loc, arg[0]->span, "argument 'packed' of 'unpack_ternary' must be a Tensor[uint8], got %s",
                type_str(c, t));
            return c->t_error;
        }
        if (!shape_arg(c, arg[1], fname, &rank, &dims)) return c->t_error;
        TriType *r = tensor(c, TRI_DT_TRIT, rank, dims, false);
        TriDim n = numel(c, r, 0);
        if (!t->ellipsis && t->rank == 1 && dim_is_const(t->dims[0]) && dim_is_const(n) &&
            t->dims[0].value != n.value / 4 + (n.value % 4 != 0)) {
            ERR(c, arg[1]->loc, arg[1]->span, "%lld trits need %lld packed bytes, but the packed tensor has %lld",
                (long long)n.value, (long long)(n.value / 4 + (n.value % 4 != 0)), (long long)t->dims[0].value);
            return c->t_error;
        }
        return r;
    }
    default:
        return c->t_error;
    }
}


bool tri_check(TriProgram *prog, DiagEngine *de) {
    Checker c;
    memset(&c, 0, sizeof c);
    c.arena = prog->arena;
    c.in = prog->interner;
    c.de = de;
    c.prog = prog;
    c.t_error = new_type(&c, TRI_T_ERROR, TRI_DT_FLOAT32);
    c.t_void = new_type(&c, TRI_T_VOID, TRI_DT_FLOAT32);
    c.t_int = new_type(&c, TRI_T_SCALAR, TRI_DT_INT);
    c.t_float = new_type(&c, TRI_T_SCALAR, TRI_DT_FLOAT32);
    c.t_trit = new_type(&c, TRI_T_SCALAR, TRI_DT_TRIT);
    int errors_before = de->nerrors;
    for (int i = 0; i < prog->ndecls; i++) declare(&c, &c.globals, prog->decls[i]);
    for (int i = 0; i < prog->ndecls; i++) ensure_decl(&c, prog->decls[i], prog->decls[i]->loc, 1);
    for (int i = 0; i < c.maps.len; i++) {
        map_free(c.maps.data[i]);
        tc_free(c.maps.data[i]);
    }
    vec_free(&c.maps);
    map_free(&c.globals);
    prog->checked = true;
    return de->nerrors == errors_before;
}
