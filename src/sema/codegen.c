/*
 * codegen.c - the AST visitor: Triton's CodeGenerator in C.
 *
 * One FuncState per function being generated (the kernel, then each @jit
 * helper specialisation, depth first). Names live in `lscope` (an ordered
 * list: the order matters for iter_args and if results, as in Triton's
 * dicts); `defs` records what the current region assigned, in order.
 *
 * Control flow follows code_generator.py:
 *   - `if` on a constexpr visits one branch; on a runtime scalar it builds
 *     scf.if with one result per variable that a branch assigned and that
 *     was live before (liveins order), then per variable both branches
 *     define (sorted by name); types must agree.
 *   - `for ... in range/tl.range` builds scf.for; the loop-carried values
 *     are the live-in runtime values the body assigns. Triton finds them by
 *     generating the body twice; we scan the body's assignments instead
 *     (the same set) and check the yielded types afterwards.
 *   - `tl.static_range` unrolls with the induction variable a constexpr;
 *     `for x in T` over a tuple T (enumerate() and zip() of tuples make
 *     tuples of tuples) unrolls with x each element, and a comprehension
 *     over a tuple makes a tuple, element by element.
 *   - `while` builds scf.while with the condition in the before region.
 *   - `return` inside a runtime `if` (Triton's early exit, `if pid >= n:
 *     return`): Triton branches with cf.cond_br to blocks of their own; we
 *     keep the IR structured instead. The statements after such an `if`
 *     (its continuation, up through every enclosing block, see Cont) are
 *     visited again inside each branch that can fall through, so both
 *     branches end in a return; a `return` there records its values in the
 *     branch's RetSink, the scf.if yields them, and one tt.return after the
 *     scf.if returns its results. Code after nested early exits nests
 *     rather than being copied repeatedly, so the IR grows linearly.
 * Assignment turns Python numbers into runtime scalars (Triton's
 * _sanitize_value); constexprs survive only as parameters, `x: tl.constexpr
 * = ...`, module globals and tuples whose items are all constexprs.
 */
#include "sema/sema_int.h"
#include "front/py/py.h"

#include <ctype.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cg_expr is entered for every node of every expression: the visitors stay
 * out of it (inlined, their frames and saved registers would be paid on
 * every entry, a name's lookup included). */

typedef VEC(Value *) ValueVec;
typedef VEC(Type *) TypeVec;

typedef struct FuncRet {
    const TlType *types[16];
    int n;            /* -1: void */
    bool is_tuple;
    Op *func;
    TV shape; /* the returned value (nested tuples kept): rebuilds it at a call */
} FuncRet;

/* Where a `return` inside a branch of an early-exit scf.if puts its values
 * (the branch then yields them). */
typedef struct RetSink {
    ValueVec vals;
    FuncRet r;
    bool set;
} RetSink;

/* The statements that follow a block: the rest of the enclosing block from
 * `start`, then that block's continuation. */
typedef struct Cont {
    const PyBlock *b;
    int start;
    const struct Cont *next;
} Cont;

typedef struct Dropped {
    const char *name, *where;
    Loc loc;
} Dropped;

struct FuncState {
    Scope lscope;
    Scope defs;
    bool record_defs; /* defs is read: inside a runtime if, for or while (the function's own level is not) */
    const PyFunc *pyfn;
    Op *func;
    int loop_depth;
    bool returned;   /* a top-level `return` was seen: skip the rest */
    bool is_kernel;
    FuncRet ret;     /* n == -2: no return seen yet */
    RetSink *sink;   /* non-NULL inside a branch of an early-exit `if` */
    const char **cx_params; /* constexpr parameter names (can't be assigned) */
    int ncx_params;
    uint64_t cx_filter;     /* a bit per cx_params name (cx_bit): a name whose bit is clear is not one */
    bool const_eval; /* a @constexpr_function's body: loops run at compile time */
    /* names a runtime `if` or loop assigned that are gone after it (only
     * one branch assigned them, or only a loop's body), for the note of a
     * later "is not defined" */
    VEC(Dropped) dropped;
    struct AggInit *agg_init; /* an @aggregate's __init__ run inline: the instance it fills */
};

/* The instance an @aggregate's __init__ is filling: `self.f = v` sets
 * elems[i] and set[i]; the constructor checks that every field was set. */
typedef struct AggInit {
    const AggClass *c;
    const char *self; /* the name of __init__'s first parameter (interned) */
    TV *elems;
    bool *set;
} AggInit;


/* ---- diagnostics ----------------------------------------------------------- */

static int node_span(const PyExpr *e) {
    /* the caret underlines the first line of the node */
    return e && e->end > e->off && e->end - e->off < 200 ? (int)(e->end - e->off) : 1;
}

TV sema_error_at(Sema *S, Loc loc, int span, const char *fmt, ...) {
    if (S->quiet) return tv_err();
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(S->de, DIAG_ERROR, loc, span > 0 ? span : 1, fmt, ap);
    va_end(ap);
    return tv_err();
}

TV sema_error(Sema *S, const char *fmt, ...) {
    if (S->quiet) return tv_err();
    va_list ap;
    va_start(ap, fmt);
    int span = S->span_node ? node_span(S->span_node) : S->span;
    diag_vreport(S->de, DIAG_ERROR, S->loc, span > 0 ? span : 1, fmt, ap);
    va_end(ap);
    return tv_err();
}

void sema_note_at(Sema *S, Loc loc, const char *fmt, ...) {
    if (S->quiet) return;
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(S->de, DIAG_NOTE, loc, 1, fmt, ap);
    va_end(ap);
}

/* The notes of a call chain that leads to an error. A chain that recurses
 * (a constexpr argument that changes each time, until the depth limit) makes
 * the same note tens of times: the repeats are folded into one line. */
static void flush_call_note(Sema *S) {
    struct CallNote *c = &S->call_note;
    if (c->valid && c->repeats > 0)
        sema_note_at(S, c->loc, "(and %d more nested call%s of %s here)", c->repeats, c->repeats == 1 ? "" : "s",
                     c->fn);
    c->valid = false;
}

static void call_note(Sema *S, Loc loc, const char *fn) {
    struct CallNote *c = &S->call_note;
    if (c->valid && c->fn == fn && c->nerrors == S->de->nerrors && c->loc.file == loc.file &&
        c->loc.line == loc.line && c->loc.col == loc.col) {
        c->repeats++;
        return;
    }
    flush_call_note(S);
    sema_note_at(S, loc, "in the call of %s here", fn);
    *c = (struct CallNote){.loc = loc, .fn = fn, .nerrors = S->de->nerrors, .valid = true};
}

static void at_expr(Sema *S, const PyExpr *e) {
    S->loc = e->loc;
    S->span_node = e;
}

static void at_stmt(Sema *S, const PyStmt *s) {
    S->loc = s->loc;
    S->span = 1;
    S->span_node = NULL;
}

const char *tv_kind_name(const TV *v) {
    switch (v->kind) {
    case TV_ERR: return "error";
    case TV_NONE: return "NoneType";
    case TV_INT: return "int";
    case TV_FLOAT: return "float";
    case TV_BOOL: return "bool";
    case TV_STR: return "str";
    case TV_DTYPE: return "dtype";
    case TV_TENSOR: return "tensor";
    case TV_TUPLE: return "tuple";
    case TV_SLICE: return "slice";
    case TV_BUILTIN: case TV_METHOD: return "builtin function";
    case TV_JITFN: return "JITFunction";
    case TV_PYFN: return "function";
    case TV_MODULE: return "module";
    case TV_AGGCLS: return "type";
    default: return "global";
    }
}

void tv_str(Sema *S, const TV *v, StrBuf *out) {
    switch (v->kind) {
    case TV_INT:
        if (v->u64) sb_printf(out, "%llu", (unsigned long long)(uint64_t)v->i);
        else sb_printf(out, "%lld", (long long)v->i);
        break;
    case TV_FLOAT: sb_printf(out, "%g", v->f); break;
    case TV_BOOL: sb_puts(out, v->i ? "True" : "False"); break;
    case TV_STR: sb_puts(out, v->s); break;
    case TV_NONE: sb_puts(out, "None"); break;
    case TV_DTYPE: tl_str(v->ty, out); break;
    case TV_TENSOR: tl_str(v->ty, out); break;
    case TV_TUPLE: {
        const AggClass *c = sema_agg_of(S, v); /* Pair(first=fp32[128], n=4) */
        if (c) sb_puts(out, c->name);
        sb_putc(out, '(');
        for (int i = 0; i < v->n; i++) {
            if (i) sb_puts(out, ", ");
            if (c) sb_printf(out, "%s=", c->fields[i]);
            tv_str(S, &v->elems[i], out);
        }
        sb_putc(out, ')');
        break;
    }
    case TV_AGGCLS: sb_printf(out, "<class '%s'>", v->s); break;
    default: sb_puts(out, tv_kind_name(v)); break;
    }
}

/* ---- scopes ---------------------------------------------------------------- */

/* Every name sema binds or looks up is interned in ctx->strings: the
 * parser's (see sema_codegen's contract), the import bindings and the -D
 * names (interned on the way in), so equal names are equal pointers. */
enum { SCOPE_SCAN_MAX = 8 }; /* entries a scope holds before it is indexed */

static int scope_slot(const Scope *sc, const char *name) {
    return (int)((MAP_KEY(name) * 0x9e3779b97f4a7c15ULL) >> 40) & (sc->nindex - 1);
}

static inline TV *scope_find(Scope *sc, const char *name) {
    if (!sc->nindex) {
        for (int i = sc->len - 1; i >= 0; i--)
            if (sc->data[i].name == name) return &sc->data[i].val;
        return NULL;
    }
    for (int j = scope_slot(sc, name);; j = (j + 1) & (sc->nindex - 1)) {
        int k = sc->index[j];
        if (!k) return NULL;
        if (sc->data[k - 1].name == name) return &sc->data[k - 1].val;
    }
}

/* The index of the entry whose value scope_find found. */
static inline int scope_index_of(const Scope *sc, const TV *v) {
    return (int)((const ScopeEntry *)(const void *)((const char *)v - offsetof(ScopeEntry, val)) - sc->data);
}

/* The value of name in sc, or NULL: first at the entry *hint names, where
 * the name node the hint is in found it last, else by the index. A body
 * unrolled by tl.static_range reads and assigns the same names at every
 * step, and a scope's entries keep their places (a name is added at the
 * end, and a loop's copy of the scope keeps the order): one compare, not a
 * hash and a probe. (A hint is written through the const node: it is
 * sema's, in a tree of this compile's own.) */
static ALWAYS_INLINE TV *scope_find_hinted(Scope *sc, const char *name, const int *hint) {
    unsigned h = (unsigned)*hint;
    if (h < (unsigned)sc->len && sc->data[h].name == name) return &sc->data[h].val;
    TV *v = scope_find(sc, name);
    if (v) *(int *)hint = scope_index_of(sc, v);
    return v;
}

/* Points the index at entry i (a name is in a scope once). */
static inline void scope_index_put(Scope *sc, int i) {
    int j = scope_slot(sc, sc->data[i].name);
    while (sc->index[j]) j = (j + 1) & (sc->nindex - 1);
    sc->index[j] = i + 1;
}

static void scope_reindex(Scope *sc, int nindex) {
    tc_free(sc->index);
    sc->index = tc_calloc((size_t)nindex, sizeof(int));
    sc->nindex = nindex;
    for (int i = 0; i < sc->len; i++) scope_index_put(sc, i);
}

/* Adds a name the scope does not hold. */
static void scope_push(Scope *sc, const char *name, TV v) {
    /* (16: a loop's or an if's assignments fit, in a block glibc's thread
     * cache holds; a scope that grew from 8 moved its entries two or three
     * times) */
    if (!sc->cap) vec_reserve(sc, 16);
    vec_push(sc, ((ScopeEntry){name, v}));
    if (sc->nindex && 2 * sc->len <= sc->nindex) {
        scope_index_put(sc, sc->len - 1);
    } else if (sc->nindex || sc->len > SCOPE_SCAN_MAX) {
        int n = sc->nindex ? 2 * sc->nindex : 32; /* (at first, room for what the entries have room for) */
        while (n < 2 * sc->cap) n *= 2;
        scope_reindex(sc, n);
    }
}

/* (the value by address, as assignments pass it on through a few calls;
 * not an entry of a scope, which a push may move) */
static void scope_set_at(Scope *sc, const char *name, const TV *v) {
    TV *p = scope_find(sc, name);
    if (p) *p = *v;
    else scope_push(sc, name, *v);
}

static void scope_set(Scope *sc, const char *name, TV v) { scope_set_at(sc, name, &v); }

static void scope_copy(Scope *dst, const Scope *src) {
    dst->len = 0;
    vec_reserve(dst, src->len);
    if (src->len) memcpy(dst->data, src->data, sizeof(ScopeEntry) * (size_t)src->len);
    dst->len = src->len;
    if (dst->nindex != src->nindex) {
        tc_free(dst->index);
        dst->index = src->nindex ? tc_malloc(sizeof(int) * (size_t)src->nindex) : NULL;
        dst->nindex = src->nindex;
    }
    if (src->nindex) memcpy(dst->index, src->index, sizeof(int) * (size_t)src->nindex);
}

static void scope_free(Scope *sc) {
    vec_free(sc);
    tc_free(sc->index);
    sc->index = NULL;
    sc->nindex = 0;
}

/* Notes the names `defs` bound that neither `liveins` nor `other` holds:
 * after the statement at `loc` they are not defined. */
static void note_dropped(Sema *S, const Scope *defs, const Scope *liveins, const Scope *other, Loc loc,
                         const char *where) {
    for (int i = 0; i < defs->len; i++) {
        const char *nm = defs->data[i].name;
        if (scope_find((Scope *)liveins, nm) || (other && scope_find((Scope *)other, nm))) continue;
        vec_push(&S->fn->dropped, ((Dropped){nm, where, loc}));
    }
}

static void set_value_at(Sema *S, const char *name, const TV *v) {
    scope_set_at(&S->fn->lscope, name, v);
    if (S->fn->record_defs) scope_set_at(&S->fn->defs, name, v);
}

static void set_value(Sema *S, const char *name, TV v) { set_value_at(S, name, &v); }

/* set_value_at of a name node's name (scope_find_hinted) */
static void set_value_node(Sema *S, const PyExpr *t, const TV *v) {
    TV *p = scope_find_hinted(&S->fn->lscope, t->name, &t->scope_hint);
    if (p) *p = *v;
    else scope_push(&S->fn->lscope, t->name, *v);
    if (!S->fn->record_defs) return;
    p = scope_find_hinted(&S->fn->defs, t->name, &t->defs_hint);
    if (p) *p = *v;
    else scope_push(&S->fn->defs, t->name, *v);
}

static const char *const py_builtin_names[] = {"range", "min", "max", "len", "int", "float", "print", "isinstance",
                                               "abs", "bool", "getattr", "hasattr", NULL};

/* CPython's distance for its "Did you mean" (Lib/traceback.py): inserting,
 * deleting or replacing a character costs 2, a change of case 1; and here
 * swapping two adjacent characters costs 2 as well ('maks' for 'mask'). */
static int edit_distance(const char *a, const char *b) {
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 40 || lb > 40) return 999;
    int d[41][41];
    for (int i = 0; i <= la; i++) d[i][0] = 2 * i;
    for (int j = 0; j <= lb; j++) d[0][j] = 2 * j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            char x = a[i - 1], y = b[j - 1];
            int sub = x == y ? 0 : ((x | 32) == (y | 32) && (x | 32) >= 'a' && (x | 32) <= 'z') ? 1 : 2;
            int c = d[i - 1][j - 1] + sub;
            if (d[i - 1][j] + 2 < c) c = d[i - 1][j] + 2;
            if (d[i][j - 1] + 2 < c) c = d[i][j - 1] + 2;
            if (i > 1 && j > 1 && x == b[j - 2] && a[i - 2] == y && d[i - 2][j - 2] + 2 < c) c = d[i - 2][j - 2] + 2;
            d[i][j] = c;
        }
    return d[la][lb];
}

/* A candidate within CPython's limit, (len(a) + len(b) + 3) * 2 // 6: a
 * one-letter name has no near miss ('v' is not a typo of 'x'). */
void sema_suggest(const char *name, const char *cand, const char **best, int *bestd) {
    if (!strcmp(name, cand)) return;
    int d = edit_distance(name, cand);
    int lim = ((int)strlen(name) + (int)strlen(cand) + 3) * 2 / 6;
    if (d <= lim && d < *bestd) {
        *bestd = d;
        *best = cand;
    }
}

/* A name in neither scope, or a global a kernel may not read: a Python
 * builtin, or the error (kept out of lookup, which runs for every name). */
static NOT_INLINE TV lookup_rest(Sema *S, const char *name, const TV *global) {
    if (global && global->i == 2) /* (bind_undecided) */
        return sema_error(S, "'%s' is bound under a module-level `if` whose condition is not known at compile time; "
                             "tritonc cannot tell which branch Python took (the Python binding reads its value)",
                          name);
    if (global && global->i == 1)
        /* Triton takes named tuples defined at module level (@aggregate classes are TV_AGGCLS) */
        return sema_error(S, "'%s' is a class: classes defined in the module are not supported in kernels by tritonc "
                             "yet, except named tuples and @aggregate ones (tl.core._aggregate)", name);
    if (global)
        return sema_error(S,
                          "Cannot access global variable %s from within @jit'ed function. Triton kernels can "
                          "only access global variables that are instantiated as constexpr (`x = "
                          "triton.language.constexpr(42)`).",
                          name);
    const Builtin *bi = builtin_lookup(BI_PY, name);
    if (bi) return (TV){.kind = TV_BUILTIN, .bi = bi};
    if (S->fn && S->fn->const_eval && (bi = builtin_lookup(BI_PYCX, name))) return (TV){.kind = TV_BUILTIN, .bi = bi};
    for (int i = 0; py_builtin_names[i]; i++)
        if (!strcmp(name, py_builtin_names[i]))
            return sema_error(S, "the Python builtin '%s' is not supported in Triton kernels by tritonc", name);
    /* Python's other builtins: defined, but not in a kernel ("name 'sum' is
     * not defined" was wrong); those with a Triton counterpart name it */
    static const char *const py_other[][2] = {
        {"sum", "tl.sum"}, {"any", "tl.reduce"}, {"all", "tl.reduce"}, {"round", "libdevice.round"},
        {"pow", "libdevice.pow"}, {"divmod", "// and %"}, {"sorted", "tl.sort"}, {"reversed", "tl.flip"},
        {"list", NULL}, {"tuple", NULL}, {"dict", NULL}, {"set", NULL}, {"str", NULL}, {"repr", NULL},
        {"map", NULL}, {"filter", NULL}, {"iter", NULL}, {"next", NULL}, {"open", NULL}, {"type", NULL},
        {"id", NULL}, {"hash", NULL}, {"chr", NULL}, {"ord", NULL}, {"hex", NULL}, {"bin", NULL}, {"oct", NULL},
        {"format", NULL}, {"input", NULL}, {"exec", NULL}, {"eval", NULL}, {"super", NULL}, {"object", NULL},
        {"slice", NULL}, {"callable", NULL}, {"setattr", NULL}, {"delattr", NULL}, {"globals", NULL},
        {"locals", NULL}, {"vars", NULL}, {"dir", NULL}, {"bytes", NULL}, {"bytearray", NULL}, {"complex", NULL},
        {"frozenset", NULL}, {"issubclass", NULL}, {"ascii", NULL}, {"compile", NULL}, {"__import__", NULL}};
    for (int i = 0; i < TC_ARRAY_LEN(py_other); i++)
        if (!strcmp(name, py_other[i][0])) {
            if (py_other[i][1])
                return sema_error(S, "the Python builtin '%s' is not supported in Triton kernels; use %s", name,
                                  py_other[i][1]);
            return sema_error(S, "the Python builtin '%s' is not supported in Triton kernels", name);
        }
    const char *best = NULL;
    int bestd = 99;
    if (S->fn)
        for (int i = 0; i < S->fn->lscope.len; i++) sema_suggest(name, S->fn->lscope.data[i].name, &best, &bestd);
    for (int i = 0; i < S->globals.len; i++) sema_suggest(name, S->globals.data[i].name, &best, &bestd);
    for (int i = 0; py_builtin_names[i]; i++) sema_suggest(name, py_builtin_names[i], &best, &bestd);
    if (best) sema_error(S, "name '%s' is not defined; did you mean '%s'?", name, best);
    else sema_error(S, "name '%s' is not defined", name);
    for (int i = S->fn ? S->fn->dropped.len - 1 : -1; i >= 0; i--)
        if (S->fn->dropped.data[i].name == name) {
            sema_note_at(S, S->fn->dropped.data[i].loc, "'%s' is assigned %s, and is not defined after it", name,
                         S->fn->dropped.data[i].where);
            break;
        }
    return tv_err();
}

static NOT_INLINE TV lookup_global(Sema *S, const char *name) {
    TV *v = scope_find(&S->globals, name);
    if (v && v->kind != TV_GLOBAL_BAD) return *v;
    return lookup_rest(S, name, v);
}

/* (inline: a name is looked up at most nodes, and mostly found among the
 * locals) */
static ALWAYS_INLINE TV lookup(Sema *S, const char *name) {
    TV *v = S->fn ? scope_find(&S->fn->lscope, name) : NULL;
    if (v) return *v;
    return lookup_global(S, name);
}

/* lookup of a name node's name (scope_find_hinted) */
static ALWAYS_INLINE TV lookup_node(Sema *S, const PyExpr *e) {
    TV *v = S->fn ? scope_find_hinted(&S->fn->lscope, e->name, &e->scope_hint) : NULL;
    if (v) return *v;
    v = scope_find_hinted(&S->globals, e->name, &e->global_hint);
    if (v && v->kind != TV_GLOBAL_BAD) return *v;
    return lookup_rest(S, e->name, v);
}

/* ---- expressions ----------------------------------------------------------- */

/* cg_expr of an operand, a receiver or a subscripted value, with a name
 * looked up inline: most of them are names (no call and dispatch then) */
static ALWAYS_INLINE TV cg_operand(Sema *S, const PyExpr *e) {
    if (e->kind != PY_EXPR_NAME) return cg_expr(S, e);
    at_expr(S, e);
    return lookup_node(S, e);
}

static TV make_tuple(Sema *S, const TV *vals, int n) {
    TV t = {.kind = TV_TUPLE, .n = n};
    t.elems = ARENA_ARRAY(S->arena, TV, n > 0 ? n : 1);
    if (n > 0) memcpy(t.elems, vals, sizeof(TV) * (size_t)(unsigned)n);
    return t;
}

static TV attr_of(Sema *S, const TV *v, const char *attr, const PyExpr *e);

const AggClass *sema_agg_of(const Sema *S, const TV *v) {
    if (!S->naggs || v->kind != TV_TUPLE || !v->fields) return NULL;
    for (int i = 0; i < S->naggs; i++)
        if (S->aggs[i]->fields == v->fields) return S->aggs[i];
    return NULL;
}

static const AggClass *agg_by_name(const Sema *S, const char *name) {
    for (int i = 0; i < S->naggs; i++)
        if (!strcmp(S->aggs[i]->name, name)) return S->aggs[i];
    return NULL;
}

static bool is_runtime(const TV *v) { return v->kind == TV_TENSOR; }

/* A binary operator on two compile-time values: tuple concatenation
 * (`shape + (1,)`) and repetition by an integer (`[2] * n_dims`, as
 * Triton's own standard library reshapes to a hypercube), else constexpr
 * arithmetic. */
static TV cx_binary_or_tuple(Sema *S, int op, const TV *a, const TV *b) {
    if (a->kind == TV_TUPLE && b->kind == TV_TUPLE && op == PY_BIN_ADD) {
        TV *vals = ARENA_ARRAY(S->arena, TV, a->n + b->n + 1);
        memcpy(vals, a->elems, sizeof(TV) * (size_t)a->n);
        memcpy(vals + a->n, b->elems, sizeof(TV) * (size_t)b->n);
        return make_tuple(S, vals, a->n + b->n);
    }
    if (op == PY_BIN_MUL && (a->kind == TV_TUPLE) != (b->kind == TV_TUPLE)) {
        const TV *t = a->kind == TV_TUPLE ? a : b, *k = a->kind == TV_TUPLE ? b : a;
        if (k->kind != TV_INT && k->kind != TV_BOOL)
            return sema_error(S, "can't multiply sequence by non-int of type '%s'", tv_kind_name(k));
        int64_t reps = k->u64 ? INT64_MAX : k->i < 0 ? 0 : k->i;
        if (t->n && reps > 4096 / t->n) return sema_error(S, "tuple repetition is too long (%d x %lld)", t->n,
                                                           (long long)reps);
        int n = t->n * (int)reps;
        TV *vals = ARENA_ARRAY(S->arena, TV, n + 1);
        for (int i = 0; i < n; i++) vals[i] = t->elems[i % t->n];
        return make_tuple(S, vals, n);
    }
    return cx_binary(S, op, a, b);
}

static NOT_INLINE TV visit_binary(Sema *S, const PyExpr *e) {
    TV a = cg_operand(S, e->binary.lhs);
    TV b = cg_operand(S, e->binary.rhs);
    at_expr(S, e);
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    if (is_runtime(&a) || is_runtime(&b)) return sem_binary_in_place(S, e->binary.op, &a, &b);
    return cx_binary_or_tuple(S, e->binary.op, &a, &b);
}

static NOT_INLINE TV visit_compare(Sema *S, const PyExpr *e) {
    if (e->compare.n != 1) {
        at_expr(S, e);
        return sema_error(S, "simultaneous multiple comparison is not supported");
    }
    TV a = cg_operand(S, e->compare.first);
    TV b = cg_operand(S, e->compare.rest[0]);
    at_expr(S, e);
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    PyCmpOp op = e->compare.ops[0];
    if (op == PY_CMP_IS || op == PY_CMP_IS_NOT) {
        bool same = a.kind == b.kind && (a.kind == TV_NONE || (tv_is_const(&a) && cx_equal(&a, &b)) ||
                                         (a.kind == TV_TENSOR && a.v == b.v));
        return tv_bool(op == PY_CMP_IS ? same : !same);
    }
    if (is_runtime(&a) || is_runtime(&b)) {
        if (op == PY_CMP_IN || op == PY_CMP_NOT_IN) return sema_error(S, "'in' is not supported on tensors");
        return sem_compare_in_place(S, op, &a, &b);
    }
    if ((op == PY_CMP_IN || op == PY_CMP_NOT_IN) && b.kind == TV_TUPLE)
        for (int i = 0; i < b.n; i++) /* (a tuple assigned to a name holds tensors, as in Triton) */
            if (!tv_is_const(&b.elems[i]) && b.elems[i].kind != TV_TUPLE)
                return sema_error(S, "'in' needs a tuple of constexprs; element %d is a %s", i,
                                  tv_kind_name(&b.elems[i]));
    return cx_binary(S, 100 + op, &a, &b);
}

static NOT_INLINE TV visit_unary(Sema *S, const PyExpr *e) {
    TV a = cg_expr(S, e->unary.operand);
    at_expr(S, e);
    if (a.kind == TV_ERR) return a;
    if (!is_runtime(&a)) return cx_unary(S, e->unary.op, &a);
    switch (e->unary.op) {
    case PY_UNARY_NEG: return sem_minus(S, a);
    case PY_UNARY_POS: return a;
    case PY_UNARY_INVERT: return sem_invert(S, a);
    default: return sem_not(S, a);
    }
}

/* `a and b and c`, as Triton 3's code generator does it: the operands are
 * visited in order; a constexpr that decides the result (falsy for `and`,
 * truthy for `or`) is the result at once and the operands after it are
 * not visited (`p is not None and tl.load(p) > 0` with p None); other
 * constexprs drop out; the tensors left are combined by logical_and/or,
 * and with none left the last value is the result (Python's value). */
static NOT_INLINE TV visit_boolop(Sema *S, const PyExpr *e) {
    bool is_and = e->boolop.op == PY_BOOL_AND;
    int n = e->boolop.values.len;
    TV *rt = n ? ARENA_ARRAY(S->arena, TV, n) : NULL;
    int nrt = 0;
    TV last = tv_none();
    for (int i = 0; i < n; i++) {
        TV v = cg_expr(S, e->boolop.values.items[i]);
        if (v.kind == TV_ERR) return v;
        if (!is_runtime(&v)) {
            if (cx_truthy(&v) != is_and) return v;
        } else {
            rt[nrt++] = v;
        }
        last = v;
    }
    at_expr(S, e);
    if (nrt == 0) return last;
    while (nrt >= 2) {
        TV b = rt[--nrt], a = rt[--nrt];
        rt[nrt++] = sem_logical(S, is_and, a, b);
        if (rt[nrt - 1].kind == TV_ERR) return tv_err();
    }
    return rt[0];
}

static Block *new_block(Sema *S) { return block_create(S->ctx); }

/* A condition that is a tensor of one element (`tl.sum(x, 0, keep_dims=True)
 * > 0`): its scalar, as Triton takes it (with a warning there). */
static TV single_element_scalar(Sema *S, TV c) {
    if (c.kind != TV_TENSOR || !tl_is_block(c.ty) || tl_numel(c.ty) != 1) return c;
    return sem_reshape(S, c, NULL, 0, false);
}

static NOT_INLINE TV visit_ifexp(Sema *S, const PyExpr *e) {
    TV c = cg_expr(S, e->ifexp.cond);
    if (c.kind == TV_ERR) return c;
    if (!is_runtime(&c)) return cg_expr(S, cx_truthy(&c) ? e->ifexp.then : e->ifexp.orelse);
    at_expr(S, e);
    c = sem_cast(S, c, tl_scalar(S, TL_I1), NULL);
    if (c.kind == TV_ERR) return c;
    c = single_element_scalar(S, c);
    if (tl_is_block(c.ty)) return sema_error(S, "the condition of a conditional expression must be a scalar");
    Builder saved = S->b;
    Block *tb = new_block(S), *eb = new_block(S);
    S->b = builder_at_end(S->ctx, tb);
    TV tv = cg_expr(S, e->ifexp.then);
    if (tv.kind != TV_ERR && tv.kind != TV_NONE) tv = sem_to_tensor(S, &tv);
    S->b = builder_at_end(S->ctx, eb);
    TV ev = cg_expr(S, e->ifexp.orelse);
    if (ev.kind != TV_ERR && (ev.kind != TV_NONE || tv.kind != TV_NONE)) ev = sem_to_tensor(S, &ev);
    if (tv.kind == TV_NONE && ev.kind != TV_NONE) {
        S->b = builder_at_end(S->ctx, tb);
        tv = sem_to_tensor(S, &tv);
    }
    S->b = saved;
    at_expr(S, e);
    if (tv.kind == TV_NONE && ev.kind == TV_NONE) {
        /* `tl.store(p, a) if c else tl.store(p, b)`: both branches are
         * void (Triton's void tensors), an scf.if without results */
        Op *ifop = sem_op(S, SCF_IF, &c.v, 1, NULL, 0, 2);
        region_push_block(&ifop->regions[0], tb);
        region_push_block(&ifop->regions[1], eb);
        for (int k = 0; k < 2; k++) {
            Builder yb = builder_at_end(S->ctx, k ? eb : tb);
            yb.loc = S->loc;
            build_op(&yb, SCF_YIELD, NULL, 0, NULL, 0, 0);
        }
        return tv_none();
    }
    if (tv.kind == TV_ERR || ev.kind == TV_ERR) return tv_err();
    if (tv.ty != ev.ty)
        return sema_error(S, "Ternary expression with dynamic condition has inconsistent types %s and %s",
                          tl_cstr(S, tv.ty), tl_cstr(S, ev.ty));
    Type *rt = tv.ty->ir;
    Op *ifop = sem_op(S, SCF_IF, &c.v, 1, &rt, 1, 2);
    region_push_block(&ifop->regions[0], tb);
    region_push_block(&ifop->regions[1], eb);
    Builder yb = builder_at_end(S->ctx, tb);
    yb.loc = S->loc;
    build_op(&yb, SCF_YIELD, &tv.v, 1, NULL, 0, 0);
    yb = builder_at_end(S->ctx, eb);
    yb.loc = S->loc;
    build_op(&yb, SCF_YIELD, &ev.v, 1, NULL, 0, 0);
    return tv_tensor(op_result(ifop, 0), tv.ty);
}

/* Whether index node i is `None` or a bare `:`, which index a tensor
 * without being evaluated (an unbounded slice, TV_SLICE 0:INT32_MIN). */
static bool is_none_or_colon(const PyExpr *i) {
    return i->kind == PY_EXPR_NONE ||
           (i->kind == PY_EXPR_SLICE && !i->slice.lower && !i->slice.upper && !i->slice.step);
}

/* t[lo:hi:step] with a step, on a tuple: Python's slice semantics (a
 * negative step walks back from the end; absent bounds are the ends the
 * step starts and stops at), as tl.tuple.__getitem__ applies them. */
static NOT_INLINE TV tuple_step_slice(Sema *S, const TV *t, const PyExpr *se, const PyExpr *e) {
    TV lo = cg_expr(S, se->slice.lower), hi = cg_expr(S, se->slice.upper), st = cg_expr(S, se->slice.step);
    at_expr(S, e);
    if (lo.kind == TV_ERR || hi.kind == TV_ERR || st.kind == TV_ERR) return tv_err();
    if ((lo.kind != TV_NONE && !tv_is_int(&lo)) || (hi.kind != TV_NONE && !tv_is_int(&hi)) ||
        (st.kind != TV_NONE && !tv_is_int(&st)))
        return sema_error(S, "slice indices must be constexpr integers or None");
    int64_t n = t->n, step = st.kind == TV_NONE ? 1 : st.u64 ? INT64_MAX : st.i;
    if (step == 0) return sema_error(S, "slice step cannot be zero");
    /* the bounds clamped into [0, n] going forwards, [-1, n - 1] going back */
    int64_t low = step > 0 ? 0 : -1, high = step > 0 ? n : n - 1, b[2];
    const TV *bound[2] = {&lo, &hi};
    for (int k = 0; k < 2; k++) {
        if (!tv_is_int(bound[k])) {
            b[k] = (k == 0) == (step > 0) ? low : high;
            continue;
        }
        int64_t x = bound[k]->u64 ? INT64_MAX : bound[k]->i;
        if (x < 0) x = x < -n ? low : x + n;
        b[k] = x < low ? low : x > high ? high : x;
    }
    int64_t count = step > 0 ? (b[1] > b[0] ? (b[1] - b[0] - 1) / step + 1 : 0)
                             : (b[0] > b[1] ? (b[0] - b[1] - 1) / -step + 1 : 0);
    TV *items = ARENA_ARRAY(S->arena, TV, count > 0 ? count : 1);
    for (int64_t k = 0; k < count; k++) items[k] = t->elems[b[0] + k * step];
    return make_tuple(S, items, (int)count);
}

static NOT_INLINE TV visit_subscript(Sema *S, const PyExpr *e) {
    TV v = cg_operand(S, e->subscript.value);
    const PyExpr *ie = e->subscript.index;
    if (v.kind == TV_TUPLE && ie->kind == PY_EXPR_SLICE && ie->slice.step) return tuple_step_slice(S, &v, ie, e);
    if (v.kind == TV_TENSOR) {
        /* x[None, :], x[:, None]: read off the index's nodes, with no
         * tuple of slices made for them (an unrolled body indexes so at
         * every step); each None is an expand_dims, as below */
        int n = ie->kind == PY_EXPR_TUPLE ? ie->seq.elts.len : 1;
        const PyExpr *const *items = ie->kind == PY_EXPR_TUPLE ? (const PyExpr *const *)ie->seq.elts.items : &ie;
        int i = 0;
        while (i < n && is_none_or_colon(items[i])) i++;
        if (i == n) {
            at_expr(S, e);
            for (int k = 0, axis = 0; k < n; k++, axis++)
                if (items[k]->kind == PY_EXPR_NONE) {
                    v = sem_expand_dims(S, v, axis);
                    if (v.kind == TV_ERR) return v;
                }
            return v;
        }
    }
    TV idx = cg_expr(S, ie);
    at_expr(S, e);
    if (v.kind == TV_ERR || idx.kind == TV_ERR) return tv_err();
    if (v.kind == TV_TUPLE) {
        if (idx.kind == TV_INT || idx.kind == TV_BOOL) {
            int64_t i = idx.i < 0 ? idx.i + v.n : idx.i;
            if (i < 0 || i >= v.n) return sema_error(S, "tuple index out of range");
            return v.elems[i];
        }
        if (idx.kind == TV_SLICE) {
            int64_t lo = idx.i, hi = idx.n == INT32_MIN ? v.n : idx.n;
            if (lo < 0) lo += v.n;
            if (hi < 0) hi += v.n;
            if (lo < 0) lo = 0;
            if (lo > v.n) lo = v.n;
            if (hi > v.n) hi = v.n;
            return make_tuple(S, v.elems + lo, hi > lo ? (int)(hi - lo) : 0);
        }
        return sema_error(S, "tuple indices must be constexpr integers");
    }
    if (v.kind == TV_TENSOR) {
        /* x[None, :] / x[:, None]: expand_dims where None appears */
        int n = idx.kind == TV_TUPLE ? idx.n : 1;
        const TV *items = idx.kind == TV_TUPLE ? idx.elems : &idx;
        int axis = 0;
        for (int i = 0; i < n; i++) {
            if (items[i].kind == TV_NONE) {
                v = sem_expand_dims(S, v, axis);
                axis++;
            } else if (items[i].kind == TV_SLICE && items[i].i == 0 && items[i].n == INT32_MIN) {
                axis++;
            } else {
                return sema_error(S, "unsupported tensor index: only None and ':' are supported");
            }
        }
        return v;
    }
    return sema_error(S, "'%s' object is not subscriptable", tv_kind_name(&v));
}

/* Python's str() of a float: the shortest text that reads back the same,
 * with ".0" when it would look like an int. */
static void py_float_str(double f, StrBuf *out) {
    char buf[40];
    if (isnan(f)) snprintf(buf, sizeof buf, "nan");
    else if (isinf(f)) snprintf(buf, sizeof buf, f < 0 ? "-inf" : "inf");
    else {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, f);
            if (strtod(buf, NULL) == f) break;
        }
        if (!strpbrk(buf, ".e")) strcat(buf, ".0");
    }
    sb_puts(out, buf);
}

/* Python's str() (or repr(), conv 'r') of a compile-time value. */
static void py_str(Sema *S, const TV *v, int conv, StrBuf *out) {
    switch (v->kind) {
    case TV_FLOAT: py_float_str(v->f, out); break;
    case TV_STR:
        if (conv == 'r') sb_printf(out, "'%s'", v->s);
        else sb_puts(out, v->s);
        break;
    case TV_TUPLE:
        sb_putc(out, '(');
        for (int i = 0; i < v->n; i++) {
            if (i) sb_puts(out, ", ");
            py_str(S, &v->elems[i], 'r', out);
        }
        sb_puts(out, v->n == 1 ? ",)" : ")");
        break;
    default: tv_str(S, v, out); break;
    }
}

/* f"...{expr!r:spec}...": Triton's visit_JoinedStr. Every replacement field
 * must be a compile-time value and is formatted with str() (repr() for
 * !r); format specs are ignored, as Triton formats with "{}". The lexer
 * keeps an f-string's text raw: each field's expression is parsed here, as
 * a module of one line, and evaluated in the current scope. */
static NOT_INLINE TV visit_fstring(Sema *S, const PyExpr *e) {
    const char *p = e->str.data, *end = p + e->str.len;
    bool raw = e->str.flags & PY_STR_RAW;
    StrBuf out = {0};
    TV res = tv_none();
    while (p < end) {
        if (*p == '{' && p + 1 < end && p[1] == '{') {
            sb_putc(&out, '{');
            p += 2;
        } else if (*p == '}' && p + 1 < end && p[1] == '}') {
            sb_putc(&out, '}');
            p += 2;
        } else if (*p == '{') {
            /* the field: up to the '}' (or '!' / ':') outside brackets and quotes */
            const char *q = p + 1, *stop = NULL;
            int depth = 0, conv = 0;
            char quote = 0;
            for (; q < end; q++) {
                if (quote) {
                    if (*q == quote) quote = 0;
                } else if (*q == '\'' || *q == '"') quote = *q;
                else if (*q == '(' || *q == '[' || *q == '{') depth++;
                else if ((*q == ')' || *q == ']' || *q == '}') && depth) depth--;
                else if (!depth && *q == '}') break;
                else if (!depth && !stop && ((*q == '!' && q + 1 < end && q[1] != '=') || *q == ':')) stop = q;
            }
            if (q >= end) {
                res = sema_error(S, "f-string: expecting '}'");
                break;
            }
            if (stop && *stop == '!' && stop + 1 < q) conv = stop[1];
            size_t n = (size_t)((stop ? stop : q) - (p + 1));
            StrBuf src = {0};
            sb_putc(&src, '(');
            sb_putn(&src, p + 1, n);
            sb_puts(&src, ")\n");
            const char *text = arena_strndup(S->arena, sb_cstr(&src), src.len);
            int nerr = S->de->nerrors;
            PyModule *m = py_parse(S->arena, &S->ctx->strings, S->de, "<f-string>", text, src.len);
            sb_free(&src);
            at_expr(S, e);
            if (S->de->nerrors != nerr) {
                res = tv_err();
                break;
            }
            if (m->body.len != 1 || m->body.items[0]->kind != PY_STMT_EXPR) {
                res = sema_error(S, "f-string: invalid expression");
                break;
            }
            TV v = cg_expr(S, m->body.items[0]->expr.value);
            at_expr(S, e);
            if (v.kind == TV_ERR) {
                res = v;
                break;
            }
            if (v.kind == TV_TENSOR) {
                res = sema_error(S, "Cannot evaluate f-string containing non-constexpr conversion values, found "
                                    "conversion of type tensor");
                break;
            }
            py_str(S, &v, conv, &out);
            p = q + 1;
        } else if (*p == '\\' && !raw && p + 1 < end) {
            char c = p[1];
            sb_putc(&out, c == 'n' ? '\n' : c == 't' ? '\t' : c == '0' ? '\0' : c);
            p += 2;
        } else {
            sb_putc(&out, *p++);
        }
    }
    if (res.kind != TV_ERR) res = (TV){.kind = TV_STR, .s = arena_strndup(S->arena, out.data ? out.data : "", out.len)};
    sb_free(&out);
    return res;
}

static NOT_INLINE TV visit_call(Sema *S, const PyExpr *e);

static void assign_target(Sema *S, const PyExpr *t, const TV *v);

/* Is `it` a call of range, tl.range or tl.static_range? (*f: the callee) */
static bool is_range_call(Sema *S, const PyExpr *it, TV *f) {
    if (it->kind != PY_EXPR_CALL) return false;
    *f = cg_expr(S, it->call.func);
    return f->kind == TV_BUILTIN && (!strcmp(f->bi->name, "range") || !strcmp(f->bi->name, "static_range"));
}

/* range(...)'s values, for a comprehension a @triton.constexpr_function
 * runs at compile time: its bounds must be constexpr integers. */
static TV range_tuple(Sema *S, const PyExpr *call) {
    int n = call->call.args.len;
    if (n < 1 || n > 3 || call->call.nkeywords)
        return sema_error(S, "range expected 1 to 3 positional arguments, got %d", n);
    int64_t b[3] = {0, 0, 1};
    for (int i = 0; i < n; i++) {
        TV v = cg_expr(S, call->call.args.items[i]);
        if (v.kind == TV_ERR) return v;
        if (v.kind != TV_INT && v.kind != TV_BOOL) {
            at_expr(S, call->call.args.items[i]);
            return sema_error(S, "range() in a @triton.constexpr_function needs constexpr integers, not %s",
                              tv_kind_name(&v));
        }
        b[n == 1 ? 1 : i] = v.i;
    }
    if (b[2] == 0) return sema_error(S, "range() arg 3 must not be zero");
    int64_t cnt = 0;
    for (int64_t i = b[0]; b[2] > 0 ? i < b[1] : i > b[1]; i += b[2])
        if (++cnt > 1000000) return sema_error(S, "this comprehension of a @triton.constexpr_function would run more than a million times");
    TV *vals = ARENA_ARRAY(S->arena, TV, cnt + 1);
    cnt = 0;
    for (int64_t i = b[0]; b[2] > 0 ? i < b[1] : i > b[1]; i += b[2]) vals[cnt++] = tv_int(i);
    return make_tuple(S, vals, (int)cnt);
}

/* [elt for target in T if c] (and, in a @triton.constexpr_function, a
 * generator expression, or either over range()): over a tuple T only in a
 * kernel, as in Triton, evaluated element by element at compile time into
 * a tuple; the conditions must be constexprs. */
static NOT_INLINE TV visit_listcomp(Sema *S, const PyExpr *e) {
    if (e->comp.ngens != 1) return sema_error(S, "nested comprehensions are not supported in Triton kernels");
    const PyComprehension *g = &e->comp.gens[0];
    TV f = tv_none();
    bool over_range = is_range_call(S, g->iter, &f);
    bool const_eval = S->fn && S->fn->const_eval;
    at_expr(S, e);
    if (over_range && !const_eval)
        return sema_error(S, "list comprehensions are only supported over tuples in Triton kernels, not over %s()",
                          f.bi->name);
    if (f.kind == TV_ERR) return f;
    TV t = over_range ? range_tuple(S, g->iter) : cg_expr(S, g->iter);
    if (t.kind == TV_ERR) return t;
    at_expr(S, e);
    if (t.kind != TV_TUPLE)
        return sema_error(S, "list comprehensions are only supported over tuples in Triton kernels, not over %s",
                          tv_kind_name(&t));
    TV *vals = ARENA_ARRAY(S->arena, TV, t.n + 1);
    int n = 0;
    for (int i = 0; i < t.n; i++) {
        assign_target(S, g->target, &t.elems[i]);
        bool keep = true;
        for (int k = 0; k < g->ifs.len && keep; k++) {
            TV c = cg_expr(S, g->ifs.items[k]);
            if (c.kind == TV_ERR) return c;
            if (c.kind == TV_TENSOR) {
                at_expr(S, g->ifs.items[k]);
                return sema_error(S, "a comprehension's condition must be a constexpr");
            }
            keep = cx_truthy(&c);
        }
        if (!keep) continue;
        vals[n] = cg_expr(S, e->comp.elt);
        if (vals[n].kind == TV_ERR) return vals[n];
        n++;
    }
    return make_tuple(S, vals, n);
}

/* A dtype's data attributes (core.py's dtype, pointer_type, block_type):
 * true with *out set when `attr` is one `t` has. */
static bool dtype_attr(Sema *S, const TlType *t, const char *attr, TV *out) {
    bool blk = tl_is_block(t);
    if (!strcmp(attr, "primitive_bitwidth") || !strcmp(attr, "int_bitwidth")) *out = tv_int(tl_bitwidth(t));
    else if (!strcmp(attr, "fp_mantissa_width")) *out = tv_int(tl_mantissa(t));
    else if (!strcmp(attr, "exponent_bias") && tl_exponent_bias(t) >= 0) *out = tv_int(tl_exponent_bias(t));
    else if (!strcmp(attr, "itemsize")) *out = tv_int(tl_bitwidth(t) / 8);
    else if (!strcmp(attr, "name")) *out = (TV){.kind = TV_STR, .s = tl_cstr(S, t)};
    else if (!strcmp(attr, "scalar")) *out = tv_dtype(tl_sca(t));
    else if (!strcmp(attr, "address_space") && tl_is_ptr(t)) *out = tv_int(1);
    else if (!strcmp(attr, "numel") && blk) *out = tv_int(tl_numel(t));
    else if (!strcmp(attr, "shape") && blk) {
        TV *dims = ARENA_ARRAY(S->arena, TV, t->rank + 1);
        for (int i = 0; i < t->rank; i++) dims[i] = tv_int(t->shape[i]);
        *out = make_tuple(S, dims, t->rank);
    } else return false;
    return true;
}

static NOT_INLINE TV visit_attr(Sema *S, const PyExpr *e) {
    TV v = cg_operand(S, e->attr.value);
    at_expr(S, e);
    if (v.kind == TV_ERR) return v;
    /* (a module's attribute this node found before: attr_of's memo of
     * it, with no key made and looked up) */
    if (v.kind == TV_MODULE && e->attr.memo && e->attr.memo_mod == v.i) return *(const TV *)e->attr.memo;
    return attr_of(S, &v, e->attr.attr, e);
}

static NOT_INLINE TV visit_slice(Sema *S, const PyExpr *e) {
    TV lo = cg_expr(S, e->slice.lower), hi = cg_expr(S, e->slice.upper), st = cg_expr(S, e->slice.step);
    at_expr(S, e);
    if ((lo.kind != TV_NONE && !tv_is_int(&lo)) || (hi.kind != TV_NONE && !tv_is_int(&hi)) || st.kind != TV_NONE)
        return sema_error(S, "slices must have constexpr integer bounds and no step");
    /* The upper bound is kept in an int, INT32_MIN meaning none: a bound
     * past the int range is clamped into it, which slices a tuple (of
     * fewer than 2**31 elements) the same (x[:-2**31] was x[:], t[:2**32]
     * was t[:0]). */
    int64_t h = !tv_is_int(&hi) ? INT32_MIN : hi.u64 || hi.i > INT32_MAX ? INT32_MAX : hi.i <= INT32_MIN ? INT32_MIN + 1 : hi.i;
    return (TV){.kind = TV_SLICE, .i = !tv_is_int(&lo) ? 0 : lo.u64 ? INT64_MAX : lo.i, .n = (int)h};
}

/* a tuple or list display: a tuple */
static NOT_INLINE TV visit_seq(Sema *S, const PyExpr *e) {
    int n = e->seq.elts.len;
    TV t = {.kind = TV_TUPLE, .n = n};
    t.elems = ARENA_ARRAY(S->arena, TV, n > 0 ? n : 1); /* (evaluated in place: no copy by make_tuple) */
    for (int i = 0; i < n; i++) {
        t.elems[i] = cg_expr(S, e->seq.elts.items[i]);
        if (t.elems[i].kind == TV_ERR) return t.elems[i];
    }
    return t;
}

TV cg_expr(Sema *S, const PyExpr *e) {
    if (!e) return tv_none();
    at_expr(S, e);
    switch (e->kind) {
    case PY_EXPR_NAME: return lookup_node(S, e);
    case PY_EXPR_INT:
        /* [2^63, 2^64) is uint64 in Triton (0x9E3779B97F4A7C15 in hashes) */
        if (e->i.overflow) return sema_error(S, "integer literal too large: Triton's integers have at most 64 bits");
        return tv_uint64(e->i.value);
    case PY_EXPR_FLOAT: return tv_float(e->f);
    case PY_EXPR_TRUE: return tv_bool(true);
    case PY_EXPR_FALSE: return tv_bool(false);
    case PY_EXPR_NONE: return tv_none();
    case PY_EXPR_STR:
        if (e->str.flags & PY_STR_FSTRING) return visit_fstring(S, e);
        return (TV){.kind = TV_STR, .s = e->str.data};
    case PY_EXPR_UNARY: return visit_unary(S, e);
    case PY_EXPR_BINARY: return visit_binary(S, e);
    case PY_EXPR_BOOL: return visit_boolop(S, e);
    case PY_EXPR_COMPARE: return visit_compare(S, e);
    case PY_EXPR_IFEXP: return visit_ifexp(S, e);
    case PY_EXPR_CALL: return visit_call(S, e);
    case PY_EXPR_ATTR: return visit_attr(S, e);
    case PY_EXPR_SUBSCRIPT: return visit_subscript(S, e);
    case PY_EXPR_SLICE: return visit_slice(S, e);
    case PY_EXPR_TUPLE:
    case PY_EXPR_LIST: return visit_seq(S, e);
    case PY_EXPR_LISTCOMP: return visit_listcomp(S, e);
    case PY_EXPR_SETCOMP: return sema_error(S, "set comprehensions are not supported in Triton kernels");
    case PY_EXPR_DICTCOMP: return sema_error(S, "dict comprehensions are not supported in Triton kernels");
    case PY_EXPR_GENEXP: /* (plain Python in a @triton.constexpr_function) */
        if (S->fn && S->fn->const_eval) return visit_listcomp(S, e);
        return sema_error(S, "generator expressions are not supported in Triton kernels");
    case PY_EXPR_LAMBDA: return sema_error(S, "lambda expressions are not supported in Triton kernels");
    case PY_EXPR_DICT: return sema_error(S, "dict displays are not supported in Triton kernels");
    case PY_EXPR_SET: return sema_error(S, "set displays are not supported in Triton kernels");
    case PY_EXPR_STARRED: return sema_error(S, "starred expressions are not supported here");
    case PY_EXPR_YIELD: case PY_EXPR_YIELD_FROM: return sema_error(S, "'yield' is not supported in Triton kernels");
    case PY_EXPR_NAMED: return sema_error(S, "assignment expressions (:=) are not supported in Triton kernels");
    case PY_EXPR_ELLIPSIS:
        return sema_error(S, "'...' (Ellipsis) is not supported in Triton kernels; a tensor index takes only None "
                             "and ':', one per dimension");
    default: return sema_error(S, "unsupported expression in a Triton kernel");
    }
}

/* tensor.dtype / .shape / .T / .numel, dtype.element_ty, module members,
 * and methods (x.to(...), x.sum(...)). */
/* getattr(obj, name[, default]) and hasattr(obj, name) (Triton's builtin
 * namespace has both): the attribute lookup of `obj.name` with a constexpr
 * string name; a missing attribute gives the default, or False. */
TV cg_getattr(Sema *S, TV obj, TV name, const TV *dflt, bool has) {
    if (obj.kind == TV_ERR || name.kind == TV_ERR) return tv_err();
    if (name.kind != TV_STR)
        return sema_error(S, "%s(): attribute name must be a constexpr string, not %s", has ? "hasattr" : "getattr",
                          tv_kind_name(&name));
    if (!has && !dflt) return attr_of(S, &obj, name.s, NULL);
    bool quiet = S->quiet;
    int nerr = S->de->nerrors;
    S->quiet = true;
    TV r = attr_of(S, &obj, name.s, NULL);
    S->quiet = quiet;
    bool found = r.kind != TV_ERR && S->de->nerrors == nerr;
    if (has) return tv_bool(found);
    return found ? r : *dflt;
}

/* The tensor method `attr` (x.to, x.sum), or NULL: found once per name in
 * a compile when the name is the source's (interned: its address is the
 * key, in mod_attrs beside the modules' attributes, as module id 31). */
static const Builtin *tensor_method(Sema *S, const char *attr, const PyExpr *e) {
    if (!e) return builtin_lookup(BI_METHOD, attr);
    _Static_assert(MOD_CLS_DTYPE < 31, "module ids take 5 bits, 31 is the methods'");
    uint64_t key = (MAP_KEY(attr) << 5 | 31) + 1;
    const Builtin *const *memo = map_get(&S->mod_attrs, key);
    if (memo) return *memo;
    const Builtin **bi = ARENA_NEW(S->arena, const Builtin *);
    *bi = builtin_lookup(BI_METHOD, attr);
    map_put(&S->mod_attrs, key, bi);
    return *bi;
}

/* strcmp(name, lit) == 0, the first character compared inline: most
 * names asked about are none of those compared with. */
#define is_name(name, lit) ((name)[0] == (lit)[0] && !strcmp((name), (lit)))

static bool is_jit(const PyFunc *f, bool *noinline);
static const char *decorator_name(const PyExpr *d);

static bool has_decorator(const PyFunc *f, const char *name) {
    for (int i = 0; i < f->decorators.len; i++)
        if (!strcmp(decorator_name(f->decorators.items[i]), name)) return true;
    return false;
}

/* `obj.attr` on an @aggregate instance (self: the instance) or on the
 * class itself (self NULL): a field's value, or a @triton.jit method,
 * bound to the instance unless it is a @staticmethod or read off the
 * class. A method that is not @triton.jit is Python Triton runs at
 * compile time with its internals (_semantic, _builder): an error. */
static TV agg_member(Sema *S, const AggClass *c, const TV *self, const char *attr) {
    if (self) {
        for (int i = 0; i < c->nfields; i++) {
            if (strcmp(c->fields[i], attr)) continue;
            AggInit *ai = S->fn ? S->fn->agg_init : NULL;
            if (ai && ai->elems == self->elems && !ai->set[i])
                return sema_error(S, "'%s' object has no attribute '%s': __init__ reads it before assigning it", c->name,
                                  attr);
            return self->elems[i];
        }
    }
    const PyFunc *m = NULL;
    for (int i = 0; i < c->nmethods && !m; i++)
        if (!strcmp(c->methods[i]->name, attr)) m = c->methods[i];
    if (!m) {
        if (!strcmp(attr, "__init__"))
            return sema_error(S, "'%s.__init__' cannot be called directly in a kernel; call %s(...)", c->name, c->name);
        const char *best = NULL;
        int bestd = 1 << 30;
        for (int i = 0; i < c->nfields; i++) sema_suggest(attr, c->fields[i], &best, &bestd);
        for (int i = 0; i < c->nmethods; i++) sema_suggest(attr, c->methods[i]->name, &best, &bestd);
        if (best) return sema_error(S, "'%s' object has no attribute '%s'; did you mean '%s'?", c->name, attr, best);
        return sema_error(S, "'%s' object has no attribute '%s'", c->name, attr);
    }
    bool noinline;
    if (!is_jit(m, &noinline)) {
        const PyParamList *pl = py_func_params(m);
        const char *internal = NULL;
        for (int i = 0; pl && i < pl->len && !internal; i++)
            if (!strcmp(pl->items[i].name, "_semantic") || !strcmp(pl->items[i].name, "_builder") ||
                !strcmp(pl->items[i].name, "_generator"))
                internal = pl->items[i].name;
        if (internal)
            sema_error(S, "method '%s' of aggregate '%s' is a Triton builtin (it takes '%s'): tritonc supports only "
                          "@triton.jit methods on aggregates", attr, c->name, internal);
        else if (has_decorator(m, "constexpr_function"))
            sema_error(S, "method '%s' of aggregate '%s' is a @triton.constexpr_function: tritonc supports only "
                          "@triton.jit methods on aggregates", attr, c->name);
        else
            sema_error(S, "method '%s' of aggregate '%s' is not a @triton.jit function: tritonc supports only "
                          "@triton.jit methods on aggregates", attr, c->name);
        sema_note_at(S, m->loc, "'%s.%s' is defined here", c->name, attr);
        return tv_err();
    }
    AggInit *ai = S->fn ? S->fn->agg_init : NULL;
    if (self && ai && ai->elems == self->elems) /* a method of the instance __init__ is building */
        for (int i = 0; i < c->nfields; i++)
            if (!ai->set[i])
                return sema_error(S, "method '%s' of aggregate '%s' is called in __init__ before field '%s' is assigned",
                                  attr, c->name, c->fields[i]);
    TV f = {.kind = TV_JITFN, .fn = m, .i = 1, .noinline = noinline};
    f.s = arena_printf(S->arena, "%s_%s", c->name, m->name);
    if (self && !has_decorator(m, "staticmethod")) {
        f.n = 1;
        f.elems = ARENA_NEW(S->arena, TV);
        f.elems[0] = *self;
    }
    return f;
}

static TV space_attr(Sema *S, const TV *v, const char *attr);

static TV attr_of(Sema *S, const TV *v, const char *attr, const PyExpr *e) {
    /* a constexpr's value (`BLOCK.value`, `tl.constexpr(4).value`): the
     * front end holds constexprs unwrapped, so it is the value itself */
    if (attr[0] == 'v' && !strcmp(attr, "value") && (tv_is_const(v) || (v->kind == TV_TUPLE && !v->fields)))
        return *v;
    if (v->kind == TV_MODULE && v->i >= MOD_SPACE) return space_attr(S, v, attr);
    if (v->kind == TV_MODULE) {
        /* `tl.load`, `tl.arange`, ...: the same few names again and again,
         * found once each (an attribute of the source is an interned name,
         * so its address is the key) */
        uint64_t key = e ? (MAP_KEY(attr) << 5 | (uint64_t)v->i) + 1 : 0; /* exact: addresses fit in 48 bits */
        const TV *memo = key ? map_get(&S->mod_attrs, key) : NULL;
        if (memo) {
            /* (the node keeps it too: visit_attr) */
            ((PyExpr *)e)->attr.memo = memo;
            ((PyExpr *)e)->attr.memo_mod = (int)v->i;
            return *memo;
        }
        bool found;
        TV r = builtin_module_attr(S, (int)v->i, attr, &found);
        if (found && key) map_put(&S->mod_attrs, key, arena_dup(S->arena, &r, sizeof r));
        if (!found && v->i == MOD_LIBDEVICE && sema_libdevice_missing(attr))
            return sema_error(S, "libdevice.%s is not supported by tritonc yet", attr);
        if (!found) {
            static const char *const modnames[] = {
                [MOD_TRITON] = "triton", [MOD_TL] = "triton.language", [MOD_TL_MATH] = "triton.language.math",
                [MOD_TL_EXTRA] = "triton.language.extra", [MOD_TL_CUDA] = "triton.language.extra.cuda",
                [MOD_LIBDEVICE] = "libdevice", [MOD_TL_CORE] = "triton.language.core", [MOD_PYMATH] = "math",
                [MOD_COUNT] = "PropagateNan", [MOD_TL_TARGET] = "triton.language.target_info",
                [MOD_TL_RANDOM] = "triton.language.random",
                [MOD_CLS_TENSOR] = "tensor", [MOD_CLS_DESC] = "tensor_descriptor", [MOD_CLS_DTYPE] = "dtype"};
            _Static_assert(TC_ARRAY_LEN(modnames) == MOD_CLS_DTYPE + 1, "a module without a name");
            unsigned where = v->i == MOD_TL || v->i == MOD_TL_CORE ? BI_TL : v->i == MOD_TL_MATH ? BI_MATH : 0;
            /* C's and torch's names of dtypes Triton spells otherwise */
            static const char *const dtype_alias[][2] = {{"float", "float32"}, {"double", "float64"}, {"half", "float16"},
                                                         {"int", "int32"},     {"long", "int64"},     {"bool", "int1"},
                                                         {"bfloat", "bfloat16"}, {"uint", "uint32"}};
            const char *best = NULL;
            for (int i = 0; where == BI_TL && i < TC_ARRAY_LEN(dtype_alias); i++)
                if (!strcmp(attr, dtype_alias[i][0])) best = dtype_alias[i][1];
            if (!best && where) best = builtin_suggest(where, attr);
            if (best) return sema_error(S, "module '%s' has no attribute '%s'; did you mean '%s'?", modnames[v->i], attr, best);
            bool cls = v->i >= MOD_CLS_TENSOR || v->i == MOD_COUNT; /* tl.dtype, tl.PropagateNan, ... */
            return sema_error(S, "%s '%s' has no attribute '%s'", cls ? "type object" : "module", modnames[v->i], attr);
        }
        return r;
    }
    if (v->kind == TV_TENSOR) {
        if (v->is_desc && is_name(attr, "dtype")) return tv_dtype(v->ty->elem->elem);
        if (v->is_desc && (is_name(attr, "shape") || is_name(attr, "strides"))) {
            /* Triton's tensor_descriptor.shape (int32 scalars) and .strides
             * (int64): the operands of the make_tensor_ptr the descriptor is */
            Op *mk = v->v->def;
            int n = v->ty->elem->rank;
            if (!mk || mk->kind != TT_MAKE_TENSOR_PTR || mk->noperands != 1 + 3 * n)
                return sema_error(S, "tritonc: a tensor descriptor's %s is read where the descriptor is made "
                                     "(not through a loop or a call)", attr);
            bool shp = is_name(attr, "shape");
            TV *dims = ARENA_ARRAY(S->arena, TV, n + 1);
            for (int i = 0; i < n; i++) {
                TV d = tv_tensor(op_operand(mk, 1 + (shp ? 0 : n) + i), tl_scalar(S, TL_I64));
                dims[i] = shp ? sem_cast(S, d, tl_scalar(S, TL_I32), NULL) : d;
            }
            return make_tuple(S, dims, n);
        }
        if (is_name(attr, "dtype")) return tv_dtype(tl_sca(v->ty));
        if (is_name(attr, "type")) return tv_dtype(v->ty);
        if (is_name(attr, "shape")) {
            int n = tl_is_block(v->ty) ? v->ty->rank : 0;
            TV *dims = ARENA_ARRAY(S->arena, TV, n + 1);
            for (int i = 0; i < n; i++) dims[i] = tv_int(v->ty->shape[i]);
            return make_tuple(S, dims, n);
        }
        if (is_name(attr, "numel")) return tv_int(tl_numel(v->ty));
        if (tl_is_ptr(v->ty) && tl_is_block(v->ty->elem)) { /* a block pointer or tensor descriptor */
            const TlType *blk = v->ty->elem;
            if (is_name(attr, "block_shape")) {
                TV *dims = ARENA_ARRAY(S->arena, TV, blk->rank + 1);
                for (int i = 0; i < blk->rank; i++) dims[i] = tv_int(blk->shape[i]);
                return make_tuple(S, dims, blk->rank);
            }
            if (v->is_desc && is_name(attr, "block_type")) return tv_dtype(blk);
            const Builtin *dm = builtin_lookup(BI_DESC, attr);
            if (dm) {
                TV m = {.kind = TV_METHOD, .bi = dm, .n = 1};
                m.elems = ARENA_NEW(S->arena, TV);
                m.elems[0] = *v;
                return m;
            }
        }
        if (is_name(attr, "T")) {
            int perm[2] = {1, 0};
            return sem_permute(S, *v, perm, 2);
        }
        const Builtin *bi = tensor_method(S, attr, e);
        if (bi) {
            TV m = {.kind = TV_METHOD, .bi = bi, .n = 1};
            m.elems = ARENA_NEW(S->arena, TV);
            m.elems[0] = *v;
            return m;
        }
        const char *best = builtin_suggest(BI_METHOD, attr);
        if (best) return sema_error(S, "'tensor' object has no attribute '%s'; did you mean '%s'?", attr, best);
        return sema_error(S, "'tensor' object has no attribute '%s'", attr);
    }
    if (v->kind == TV_DTYPE) {
        const TlType *t = v->ty;
        if (!strcmp(attr, "element_ty")) {
            if (t->kind == TL_PTR || t->kind == TL_BLOCK) return tv_dtype(t->elem);
            return sema_error(S, "dtype %s has no element_ty", tl_cstr(S, t));
        }
        TV r;
        if (dtype_attr(S, t, attr, &r)) return r;
        const Builtin *bi = builtin_lookup(BI_METHOD, attr); /* dtype predicates: is_fp16() ... */
        if (bi && (!strncmp(attr, "is_", 3) || !strncmp(attr, "get_", 4))) {
            TV m = {.kind = TV_METHOD, .bi = bi, .n = 1};
            m.elems = ARENA_NEW(S->arena, TV);
            m.elems[0] = *v;
            return m;
        }
        return sema_error(S, "'dtype' object has no attribute '%s'", attr);
    }
    if (v->kind == TV_INT || v->kind == TV_BOOL || v->kind == TV_FLOAT) { /* int.bit_length(), float.is_integer() */
        const Builtin *bi = builtin_lookup(BI_METHOD, attr);
        if (bi && (!strcmp(attr, v->kind == TV_FLOAT ? "is_integer" : "bit_length"))) {
            TV m = {.kind = TV_METHOD, .bi = bi, .n = 1};
            m.elems = ARENA_NEW(S->arena, TV);
            m.elems[0] = *v;
            return m;
        }
    }
    if (v->kind == TV_AGGCLS) return agg_member(S, S->aggs[v->i], NULL, attr);
    const AggClass *agg = sema_agg_of(S, v);
    if (agg) return agg_member(S, agg, v, attr);
    if (v->kind == TV_TUPLE && v->fields) { /* a NamedTuple's field */
        for (int i = 0; i < v->n; i++)
            if (!strcmp(v->fields[i], attr)) return v->elems[i];
        return sema_error(S, "this named tuple has no field '%s'", attr);
    }
    (void)e;
    return sema_error(S, "'%s' object has no attribute '%s'", tv_kind_name(v), attr);
}

/* ---- calls ------------------------------------------------------------------ */

static const char *decorator_name(const PyExpr *d) {
    if (d->kind == PY_EXPR_CALL) d = d->call.func;
    if (d->kind == PY_EXPR_ATTR) return d->attr.attr;
    if (d->kind == PY_EXPR_NAME) return d->name;
    return "";
}

static bool const_tree(const TV *v) {
    if (v->kind != TV_TUPLE) return tv_is_const(v);
    for (int i = 0; i < v->n; i++)
        if (!const_tree(&v->elems[i])) return false;
    return true;
}

static TV call_jit(Sema *S, const TV *f, const TV *args, int nargs, const char *const *kwn, const TV *kwv, int nkw,
                   bool want_const);

/* A @triton.constexpr_function called from a kernel: Python run at compile
 * time on constexpr arguments. Its body goes through sema like a @jit
 * helper's, every value in it folds to a constant, and the call is its
 * value (a function generated for it is left uncalled). Arguments that are
 * not constexprs, and Python the kernel language lacks, are errors at
 * their expressions. */
static TV call_constexpr_fn(Sema *S, TV f, const PyExpr *e) {
    int na = e->call.args.len, nk = e->call.nkeywords, n = 0, cap = na + 1;
    TV *args = ARENA_ARRAY(S->arena, TV, cap), *kv = ARENA_ARRAY(S->arena, TV, nk + 1);
    const char **kn = ARENA_ARRAY(S->arena, const char *, nk + 1);
    for (int i = 0; i < na + nk; i++) {
        const PyExpr *ae = i < na ? e->call.args.items[i] : e->call.keywords[i - na].value;
        bool star = i < na && ae->kind == PY_EXPR_STARRED;
        TV v = cg_expr(S, star ? ae->value : ae);
        if (v.kind == TV_ERR) return v;
        if (star && v.kind != TV_TUPLE) {
            at_expr(S, ae);
            return sema_error(S, "only tuples can be unpacked with *");
        }
        if (!const_tree(&v)) {
            at_expr(S, ae);
            return sema_error(S, "argument %d of @triton.constexpr_function %s is not a constexpr (%s)", i + 1, f.s,
                              tv_kind_name(&v));
        }
        if (star) { /* f(*t): t's elements are positional arguments */
            if (n + v.n + (na - i) > cap) {
                cap = n + v.n + (na - i);
                TV *grown = ARENA_ARRAY(S->arena, TV, cap);
                memcpy(grown, args, sizeof(TV) * (size_t)n);
                args = grown;
            }
            for (int k = 0; k < v.n; k++) args[n++] = v.elems[k];
        } else if (i < na) {
            args[n++] = v;
        } else {
            kn[i - na] = e->call.keywords[i - na].name, kv[i - na] = v;
        }
    }
    at_expr(S, e);
    TV jf = f;
    jf.kind = TV_JITFN;
    return call_jit(S, &jf, args, n, kn, kv, nk, true);
}

static TV agg_construct(Sema *S, const AggClass *c, const TV *args, int nargs, const char *const *kwn, const TV *kwv,
                        int nkw);

static NOT_INLINE TV visit_call(Sema *S, const PyExpr *e) {
    TV f = cg_expr(S, e->call.func);
    at_expr(S, e);
    if (f.kind == TV_ERR) return f;
    if (f.kind == TV_BUILTIN) return builtin_call(S, f.bi, NULL, e);
    if (f.kind == TV_METHOD) return builtin_call(S, f.bi, &f.elems[0], e);
    if (f.kind == TV_JITFN || f.kind == TV_AGGCLS) {
        bool bound = f.kind == TV_JITFN && f.i == 1 && f.n == 1; /* an aggregate's method: self first */
        int na = e->call.args.len, nk = e->call.nkeywords, n = 0, cap = na + 1 + bound;
        TV *args = ARENA_ARRAY(S->arena, TV, cap);
        if (bound) args[n++] = f.elems[0];
        TV *kv = ARENA_ARRAY(S->arena, TV, nk + 1);
        const char **kn = ARENA_ARRAY(S->arena, const char *, nk + 1);
        bool bad = false;
        for (int i = 0; i < na; i++) {
            const PyExpr *ae = e->call.args.items[i];
            if (ae->kind != PY_EXPR_STARRED) {
                args[n] = cg_expr(S, ae);
                bad |= args[n++].kind == TV_ERR;
                continue;
            }
            /* f(*t): the tuple's elements are positional arguments, as
             * Triton's visit_Starred splices them into the call */
            TV t = cg_expr(S, ae->value);
            if (t.kind != TV_TUPLE) {
                if (t.kind != TV_ERR) {
                    at_expr(S, ae);
                    sema_error(S, "only tuples can be unpacked with *");
                }
                bad = true;
                continue;
            }
            if (n + t.n + (na - i) > cap) {
                cap = n + t.n + (na - i);
                TV *grown = ARENA_ARRAY(S->arena, TV, cap);
                memcpy(grown, args, sizeof(TV) * (size_t)n);
                args = grown;
            }
            for (int k = 0; k < t.n; k++) args[n++] = t.elems[k];
        }
        for (int i = 0; i < nk; i++) {
            kn[i] = e->call.keywords[i].name;
            kv[i] = cg_expr(S, e->call.keywords[i].value);
            bad |= kv[i].kind == TV_ERR;
        }
        at_expr(S, e);
        if (bad) return tv_err();
        if (f.kind == TV_AGGCLS) return agg_construct(S, S->aggs[f.i], args, n, kn, kv, nk);
        return cg_call_jit(S, &f, args, n, kn, kv, nk, false);
    }
    if (f.kind == TV_PYFN) {
        for (int i = 0; i < f.fn->decorators.len; i++) {
            const PyExpr *d = f.fn->decorators.items[i];
            const char *dn = d->kind == PY_EXPR_NAME ? d->name : d->kind == PY_EXPR_ATTR ? d->attr.attr : NULL;
            if (dn && !strcmp(dn, "constexpr_function")) return call_constexpr_fn(S, f, e);
        }
        sema_error(S, "calling a non-jit function '%s' is not supported in a kernel", f.s);
        sema_note_at(S, f.fn->loc, "'%s' is defined here; decorate it with @triton.jit", f.s);
        return tv_err();
    }
    if (f.kind == TV_DTYPE) return sema_error(S, "dtype objects are not callable");
    return sema_error(S, "'%s' object is not callable", tv_kind_name(&f));
}

/* ---- statements ------------------------------------------------------------- */

static void visit_block(Sema *S, const PyBlock *b);
static void visit_block_cont(Sema *S, const PyBlock *b, int start, const Cont *cont);

/* A tuple's numbers made runtime scalars, nested tuples' too (Triton's
 * _sanitize_value applied to every item) */
static TV runtime_items(Sema *S, TV v) {
    if (sema_agg_of(S, &v)) return v; /* an @aggregate's fields have the kinds its constructor gave them */
    if (v.kind == TV_TUPLE) {
        TV t = make_tuple(S, v.elems, v.n);
        t.fields = v.fields;
        for (int i = 0; i < v.n; i++) {
            t.elems[i] = runtime_items(S, v.elems[i]);
            if (t.elems[i].kind == TV_ERR) return t.elems[i];
        }
        return t;
    }
    if (tv_is_num(&v)) return sem_to_tensor(S, &v);
    if (v.kind == TV_STR) return sema_error(S, "cannot convert str '%s' to tensor", v.s);
    return v;
}

/* The value an assignment binds: a tuple of constexprs (nested tuples of
 * them included) stays one, as a -D or binding tuple is, so that `t = (1,
 * 2)` can be sliced, compared, unpacked and taken as a shape; a tuple
 * with a runtime item, as a number alone, is made runtime. A constexpr
 * tuple that a runtime loop or `if` changes becomes runtime there
 * (promote_tuple). */
static TV sanitize(Sema *S, TV v) {
    if (S->fn && S->fn->const_eval) return v; /* a @constexpr_function's values stay Python values */
    if (v.kind == TV_TUPLE && !sema_agg_of(S, &v) && const_tree(&v)) return v;
    return runtime_items(S, v);
}

/* A constexpr tuple holding numbers (and no str, which has no runtime
 * form): what a runtime loop that reassigns it carries, and what a runtime
 * `if` that makes it another value in one branch merges, once its numbers
 * are runtime scalars as a mixed tuple's are (runtime_items). */
static bool num_leaves(const TV *v, bool *num) {
    if (v->kind == TV_TUPLE) {
        for (int i = 0; i < v->n; i++)
            if (!num_leaves(&v->elems[i], num)) return false;
        return true;
    }
    *num |= tv_is_num(v);
    return v->kind != TV_STR;
}

static bool promotable_tuple(Sema *S, const TV *v) {
    bool num = false;
    return v->kind == TV_TUPLE && !sema_agg_of(S, v) && const_tree(v) && num_leaves(v, &num) && num;
}

static uint64_t cx_bit(const char *name) { return UINT64_C(1) << ((uintptr_t)name >> 4 & 63); }

static bool is_cx_param(Sema *S, const char *name) {
    if (!(S->fn->cx_filter & cx_bit(name))) return false;
    for (int i = 0; i < S->fn->ncx_params; i++)
        if (S->fn->cx_params[i] == name) return true; /* (interned) */
    return false;
}

static void assign_field(Sema *S, const PyExpr *t, const TV *v);

static void assign_target(Sema *S, const PyExpr *t, const TV *v) {
    at_expr(S, t);
    if (t->kind == PY_EXPR_ATTR) {
        assign_field(S, t, v);
        return;
    }
    if (t->kind == PY_EXPR_NAME) {
        if (is_cx_param(S, t->name)) {
            sema_error(S, "cannot assign to '%s': it is a tl.constexpr parameter", t->name);
            return;
        }
        set_value_node(S, t, v);
        return;
    }
    if (t->kind == PY_EXPR_TUPLE || t->kind == PY_EXPR_LIST) {
        /* `a, *rest, z = t`: at most one starred target, which takes a
         * tuple of whatever the others leave (Python's unpacking) */
        int n = t->seq.elts.len, star = -1;
        TV err = tv_err();
        for (int i = 0; i < n; i++) {
            const PyExpr *el = t->seq.elts.items[i];
            if (el->kind != PY_EXPR_STARRED) continue;
            if (star >= 0) {
                at_expr(S, el);
                sema_error(S, "multiple starred expressions in assignment");
                v = &err;
                break;
            }
            star = i;
        }
        bool fits = v->kind == TV_TUPLE && (star < 0 ? v->n == n : v->n >= n - 1);
        if (v->kind != TV_ERR && !fits) {
            if (v->kind != TV_TUPLE)
                sema_error(S, "cannot unpack %s into %d values", tv_kind_name(v), n);
            else if (star < 0)
                sema_error(S, "cannot unpack a tuple of %d value%s into %d targets", v->n, v->n == 1 ? "" : "s", n);
            else
                sema_error(S, "cannot unpack a tuple of %d value%s into %d target%s and a starred one", v->n,
                           v->n == 1 ? "" : "s", n - 1, n == 2 ? "" : "s");
        }
        if (!fits) { /* every name still gets a value, so later uses report nothing more */
            for (int i = 0; i < n; i++) {
                const PyExpr *el = t->seq.elts.items[i];
                assign_target(S, el->kind == PY_EXPR_STARRED ? el->value : el, &err);
            }
            return;
        }
        int rest = v->n - (n - 1); /* the starred target's share */
        for (int i = 0, k = 0; i < n; i++) {
            const PyExpr *el = t->seq.elts.items[i];
            if (i == star) {
                TV r = make_tuple(S, v->elems + k, rest);
                assign_target(S, el->value, &r);
                k += rest;
            } else {
                assign_target(S, el, &v->elems[k++]);
            }
        }
        return;
    }
    if (t->kind == PY_EXPR_STARRED) {
        sema_error(S, "starred assignment target must be in a list or tuple");
        TV err = tv_err();
        assign_target(S, t->value, &err);
        return;
    }
    sema_error(S, "unsupported assignment target");
}

static bool is_constexpr_annotation(const PyExpr *a) {
    if (!a) return false;
    if (a->kind == PY_EXPR_NAME) return !strcmp(a->name, "constexpr");
    if (a->kind == PY_EXPR_ATTR) return !strcmp(a->attr.attr, "constexpr");
    if (a->kind == PY_EXPR_STR) return strstr(a->str.data, "constexpr") != NULL;
    return false;
}

/* `x: tl.const` (or `const`, or a string annotation "const *fp32"):
 * a pointer to constant data, as Triton's tl.const annotation marks. */
static bool is_const_annotation(const PyExpr *a) {
    if (!a) return false;
    if (a->kind == PY_EXPR_NAME) return !strcmp(a->name, "const");
    if (a->kind == PY_EXPR_ATTR) return !strcmp(a->attr.attr, "const");
    if (a->kind == PY_EXPR_STR) return !strncmp(a->str.data, "const ", 6);
    return false;
}

/* The names a loop body assigns (recursively, nested blocks included),
 * each once, and a 64-bit Bloom filter over them: a bit per name's hash,
 * so that most names a body does not assign are told apart without a
 * search. Worked out once per body in a compile (assigned_names): a loop
 * inside a static_range is visited at every unrolled iteration. */
typedef struct AssignedNames {
    int n;
    uint64_t bloom;
    const char **names; /* interned */
} AssignedNames;

static uint64_t name_bit(const char *name) {
    return UINT64_C(1) << ((MAP_KEY(name) * 0x9e3779b97f4a7c15ULL) >> 58);
}

static bool assigns(const AssignedNames *an, const char *name) {
    if (!(an->bloom & name_bit(name))) return false;
    for (int i = 0; i < an->n; i++)
        if (an->names[i] == name) return true;
    return false;
}

static void collect_target(const PyExpr *t, Scope *out) {
    if (!t) return;
    if (t->kind == PY_EXPR_NAME) {
        if (!scope_find(out, t->name)) scope_push(out, t->name, tv_none());
    } else if (t->kind == PY_EXPR_TUPLE || t->kind == PY_EXPR_LIST) {
        for (int i = 0; i < t->seq.elts.len; i++) collect_target(t->seq.elts.items[i], out);
    }
}

/* The names a block assigns (recursively), in first-appearance order. */
static void collect_assigned(const PyBlock *b, Scope *out) {
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        switch (s->kind) {
        case PY_STMT_ASSIGN:
            for (int j = 0; j < s->assign.targets.len; j++) collect_target(s->assign.targets.items[j], out);
            break;
        case PY_STMT_AUGASSIGN: collect_target(s->aug.target, out); break;
        case PY_STMT_ANNASSIGN: collect_target(s->ann.target, out); break;
        case PY_STMT_IF:
        case PY_STMT_WHILE:
            collect_assigned(&s->cond.body, out);
            collect_assigned(&s->cond.orelse, out);
            break;
        case PY_STMT_FOR:
            collect_target(s->loop.target, out);
            collect_assigned(&s->loop.body, out);
            break;
        default: break;
        }
    }
}

/* A loop-carried or `if`-merged value is a tensor or a tuple holding
 * tensors (Triton flattens tuples into their IR values): its leaves are its
 * tensors in order, nested tuples flattened; a tuple's other elements stay
 * compile-time values and must come out of the loop or branch unchanged. */
static bool tv_has_tensor(const TV *v) {
    if (v->kind == TV_TENSOR) return true;
    if (v->kind != TV_TUPLE) return false;
    for (int i = 0; i < v->n; i++)
        if (tv_has_tensor(&v->elems[i])) return true;
    return false;
}

static void tv_leaves(const TV *v, ValueVec *vals, TypeVec *tys) {
    if (v->kind == TV_TENSOR) {
        vec_push(vals, v->v);
        if (tys) vec_push(tys, v->ty->ir);
    } else if (v->kind == TV_TUPLE) {
        for (int i = 0; i < v->n; i++) tv_leaves(&v->elems[i], vals, tys);
    }
}

/* `shape` with its tensor leaves replaced by vals[*k], vals[*k + 1], ... */
static TV tv_rebuild(Sema *S, const TV *shape, Value *const *vals, int *k) {
    if (shape->kind == TV_TENSOR) {
        TV t = *shape;
        t.v = vals[(*k)++];
        return t;
    }
    if (shape->kind != TV_TUPLE || !tv_has_tensor(shape)) return *shape;
    TV t = *shape;
    t.elems = ARENA_ARRAY(S->arena, TV, shape->n ? shape->n : 1);
    for (int i = 0; i < shape->n; i++) t.elems[i] = tv_rebuild(S, &shape->elems[i], vals, k);
    return t;
}

/* b has a's layout: tensors of the same types where a has tensors, equal
 * compile-time values elsewhere. */
static bool tv_same_layout(const TV *a, const TV *b) {
    if (a->kind == TV_TENSOR) return b->kind == TV_TENSOR && a->ty == b->ty;
    if (a->kind == TV_TUPLE && tv_has_tensor(a)) {
        if (b->kind != TV_TUPLE || b->n != a->n) return false;
        for (int i = 0; i < a->n; i++)
            if (!tv_same_layout(&a->elems[i], &b->elems[i])) return false;
        return true;
    }
    return !tv_has_tensor(b) && a->kind == b->kind && cx_equal(a, b);
}

static bool contains_return(const PyBlock *b) {
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        if (s->kind == PY_STMT_RETURN) return true;
        if ((s->kind == PY_STMT_IF || s->kind == PY_STMT_WHILE) &&
            (contains_return(&s->cond.body) || contains_return(&s->cond.orelse)))
            return true;
        if (s->kind == PY_STMT_FOR && contains_return(&s->loop.body)) return true;
    }
    return false;
}

static void yield_values(Sema *S, Block *b, Value *const *vals, int n) {
    Builder yb = builder_at_end(S->ctx, b);
    yb.loc = S->loc;
    build_op(&yb, SCF_YIELD, vals, n, NULL, 0, 0);
}

/* A return's types as Triton prints them: None, fp32, (fp32, int32). */
static void ret_str(const FuncRet *r, StrBuf *out) {
    if (r->n <= 0) {
        sb_puts(out, "None");
        return;
    }
    bool paren = r->n > 1 || r->is_tuple;
    if (paren) sb_putc(out, '(');
    for (int i = 0; i < r->n; i++) {
        if (i) sb_puts(out, ", ");
        tl_str(r->types[i], out);
    }
    if (paren) sb_putc(out, ')');
}

/* "Inconsistent return types: A and B", naming both (it said only the
 * first three words, leaving the user to guess which returns differ). */
static void inconsistent_returns(Sema *S, const FuncRet *a, const FuncRet *b) {
    StrBuf x = {0}, y = {0};
    ret_str(a, &x);
    ret_str(b, &y);
    sema_error(S, "Inconsistent return types: %s and %s", sb_cstr(&x), sb_cstr(&y));
    sb_free(&x);
    sb_free(&y);
}

/* Checks a return's values against the function's earlier returns. */
static bool check_ret(Sema *S, const FuncRet *r) {
    FuncState *F = S->fn;
    if (F->ret.n == -2) {
        F->ret = *r;
        return true;
    }
    if (F->ret.n != r->n || memcmp(F->ret.types, r->types, sizeof(r->types[0]) * (size_t)(r->n > 0 ? r->n : 0))) {
        inconsistent_returns(S, &F->ret, r);
        return false;
    }
    return true;
}

/* A runtime `if` one of whose branches returns: each branch runs its own
 * copy of the continuation `k` and ends in a return whose values it yields;
 * the function (or the enclosing early-exit branch) returns the results. */
static void visit_if_returning(Sema *S, const PyStmt *s, Value *cond, const Cont *k) {
    FuncState *F = S->fn;
    Scope liveins = {0}, saved_defs = F->defs;
    scope_copy(&liveins, &F->lscope);
    RetSink *outer = F->sink;
    Builder saved = S->b;
    RetSink sinks[2];
    memset(sinks, 0, sizeof sinks);
    Block *blocks[2];
    bool ok = true;
    for (int br = 0; br < 2; br++) {
        blocks[br] = new_block(S);
        F->defs = (Scope){0};
        scope_copy(&F->lscope, &liveins);
        F->returned = false;
        F->sink = &sinks[br];
        S->b = builder_at_end(S->ctx, blocks[br]);
        visit_block_cont(S, br ? &s->cond.orelse : &s->cond.body, 0, k);
        if (!F->returned && !diag_full(S->de)) { /* fell off the end of the function: `return None` */
            at_stmt(S, s);
            sinks[br].r = (FuncRet){.n = 0};
            if (F->ret.n > 0) {
                sema_error(S, "Inconsistent return types: the %s branch of this `if` reaches the end of the function "
                              "(returning None) while another path returns a value", br ? "else" : "then");
                sinks[br].set = false;
            } else {
                sinks[br].set = check_ret(S, &sinks[br].r);
            }
        }
        ok = ok && sinks[br].set;
        scope_free(&F->defs);
    }
    F->sink = outer;
    F->defs = saved_defs;
    scope_copy(&F->lscope, &liveins);
    scope_free(&liveins);
    S->b = saved;
    at_stmt(S, s);
    F->returned = true;
    if (ok && (sinks[0].r.n != sinks[1].r.n ||
               memcmp(sinks[0].r.types, sinks[1].r.types, sizeof(sinks[0].r.types[0]) * (size_t)sinks[0].r.n))) {
        inconsistent_returns(S, &sinks[0].r, &sinks[1].r);
        ok = false;
    }
    if (ok) {
        Type *rtys[16];
        for (int i = 0; i < sinks[0].r.n; i++) rtys[i] = sinks[0].r.types[i]->ir;
        Op *ifop = sem_op(S, SCF_IF, &cond, 1, rtys, sinks[0].r.n, 2);
        region_push_block(&ifop->regions[0], blocks[0]);
        region_push_block(&ifop->regions[1], blocks[1]);
        yield_values(S, blocks[0], sinks[0].vals.data, sinks[0].vals.len);
        yield_values(S, blocks[1], sinks[1].vals.data, sinks[1].vals.len);
        ValueVec res = {0};
        for (int i = 0; i < sinks[0].r.n; i++) vec_push(&res, op_result(ifop, i));
        if (outer) {
            outer->vals = res;
            outer->r = sinks[0].r;
            outer->set = true;
        } else {
            S->b.loc = S->loc;
            build_op(&S->b, TT_RETURN, res.data, res.len, NULL, 0, 0);
            vec_free(&res);
        }
    }
    vec_free(&sinks[0].vals);
    vec_free(&sinks[1].vals);
}

/* Returns true when the `if` took over the continuation `k` (the caller's
 * block then stops): a constexpr `if` whose chosen branch may return, or a
 * runtime `if` with a return in a branch. */
/* A variable a runtime `if` leaves with different types in its branches:
 * a after the then block, b after the else block. `redefined`: "then" or
 * "else", the branch that redefined a value live into the if (the other
 * branch still holds the initial value); NULL: the two branches' types. */
static void branch_mismatch(Sema *S, const char *name, const TV *a, const TV *b, const char *redefined) {
    StrBuf x = {0}, y = {0};
    tv_str(S, a, &x);
    tv_str(S, b, &y);
    bool then = redefined && strcmp(redefined, "then") == 0;
    if (redefined)
        sema_error(S, "initial value for `%s` is of type %s, but the %s block redefines it as %s", name,
                   sb_cstr(then ? &y : &x), redefined, sb_cstr(then ? &x : &y));
    else
        sema_error(S, "Mismatched type for %s between then block (%s) and else block (%s)", name, sb_cstr(&x),
                   sb_cstr(&y));
    sb_free(&x);
    sb_free(&y);
}

static bool visit_if(Sema *S, const PyStmt *s, const Cont *cont) {
    TV c = cg_expr(S, s->cond.test);
    at_stmt(S, s);
    if (c.kind == TV_ERR) return false;
    if (!is_runtime(&c)) {
        if (c.kind != TV_INT && c.kind != TV_BOOL && c.kind != TV_NONE) {
            S->loc = s->cond.test->loc;
            sema_error(S, "`if` conditionals can only accept values of type {bool, int, NoneType}, not objects of "
                          "type %s", tv_kind_name(&c));
            return false;
        }
        const PyBlock *chosen = cx_truthy(&c) ? &s->cond.body : &s->cond.orelse;
        if (cont && contains_return(chosen)) {
            visit_block_cont(S, chosen, 0, cont);
            return true;
        }
        visit_block(S, chosen);
        return false;
    }
    bool returns = contains_return(&s->cond.body) || contains_return(&s->cond.orelse);
    if (returns && S->fn->loop_depth) {
        sema_error(S, "Cannot have `return` statements inside `while` or `for` statements in triton");
        return false;
    }
    c = sem_cast(S, c, tl_scalar(S, TL_I1), NULL);
    if (c.kind == TV_ERR) return false;
    c = single_element_scalar(S, c);
    if (tl_is_block(c.ty)) {
        S->loc = s->cond.test->loc;
        sema_error(S, "the condition of an `if` must be a scalar, not a block of type %s", tl_cstr(S, c.ty));
        return false;
    }
    if (returns) {
        visit_if_returning(S, s, c.v, cont);
        return true;
    }
    FuncState *F = S->fn;
    Scope liveins = {0}, saved_defs = F->defs, then_defs = {0}, else_defs = {0};
    bool saved_record = F->record_defs;
    scope_copy(&liveins, &F->lscope);
    Builder saved = S->b;
    Block *tb = new_block(S), *eb = new_block(S);
    /* then */
    F->defs = (Scope){0};
    F->record_defs = true;
    S->b = builder_at_end(S->ctx, tb);
    visit_block(S, &s->cond.body);
    then_defs = F->defs;
    /* else */
    scope_copy(&F->lscope, &liveins);
    F->defs = (Scope){0};
    S->b = builder_at_end(S->ctx, eb);
    visit_block(S, &s->cond.orelse);
    else_defs = F->defs;
    S->b = saved;
    at_stmt(S, s);
    note_dropped(S, &then_defs, &liveins, &else_defs, s->loc, "only in the then branch of this runtime `if`");
    note_dropped(S, &else_defs, &liveins, &then_defs, s->loc, "only in the else branch of this runtime `if`");
    /* result names: liveins order, then names both branches define (sorted) */
    VEC(const char *) names = {0};
    VEC(TV) tvals = {0}, evals = {0};
    bool bad = false;
    for (int i = 0; i < liveins.len; i++) {
        const char *nm = liveins.data[i].name;
        TV *tv = scope_find(&then_defs, nm), *ev = scope_find(&else_defs, nm);
        if (!tv && !ev) continue;
        TV t = tv ? *tv : liveins.data[i].val, e = ev ? *ev : liveins.data[i].val;
        vec_push(&names, nm);
        vec_push(&tvals, t);
        vec_push(&evals, e);
    }
    int first_new = names.len;
    for (int i = 0; i < then_defs.len; i++) {
        const char *nm = then_defs.data[i].name;
        if (scope_find(&liveins, nm) || !scope_find(&else_defs, nm)) continue;
        int pos = names.len;
        while (pos > first_new && strcmp(names.data[pos - 1], nm) > 0) pos--;
        vec_push(&names, nm);
        vec_push(&tvals, then_defs.data[i].val);
        vec_push(&evals, *scope_find(&else_defs, nm));
        for (int k = names.len - 1; k > pos; k--) {
            names.data[k] = names.data[k - 1];
            tvals.data[k] = tvals.data[k - 1];
            evals.data[k] = evals.data[k - 1];
        }
        names.data[pos] = nm;
        tvals.data[pos] = then_defs.data[i].val;
        evals.data[pos] = *scope_find(&else_defs, nm);
    }
    /* Values that are constexprs in both with equal values need no result. */
    ValueVec tv = {0}, ev = {0};
    VEC(Type *) rtys = {0};
    VEC(TV) rshapes = {0};
    VEC(const char *) rnames = {0};
    for (int i = 0; i < names.len; i++) {
        TV a = tvals.data[i], b = evals.data[i];
        if (a.kind == TV_ERR || b.kind == TV_ERR) {
            bad = true;
            continue;
        }
        if (!(const_tree(&a) && const_tree(&b) && a.kind == b.kind && cx_equal(&a, &b))) {
            /* a constexpr tuple the branches make differ is merged as a
             * runtime one, its numbers made scalars before the scf.if */
            if (promotable_tuple(S, &a)) tvals.data[i] = a = runtime_items(S, a);
            if (promotable_tuple(S, &b)) evals.data[i] = b = runtime_items(S, b);
        }
        if ((a.kind == TV_TUPLE || b.kind == TV_TUPLE) && (tv_has_tensor(&a) || tv_has_tensor(&b))) {
            /* tuples holding tensors: their leaves are merged */
            if (!tv_same_layout(&a, &b)) {
                branch_mismatch(S, names.data[i], &a, &b, NULL);
                bad = true;
                continue;
            }
            int n0 = tv.len;
            tv_leaves(&a, &tv, NULL);
            tv_leaves(&b, &ev, NULL);
            for (int k = n0; k < tv.len; k++) vec_push(&rtys, tv.data[k]->type);
            vec_push(&rnames, names.data[i]);
            vec_push(&rshapes, a);
            continue;
        }
        if (!is_runtime(&a) && !is_runtime(&b)) {
            if (!cx_equal(&a, &b) || a.kind != b.kind) {
                sema_error(S, "variable '%s' is a different compile-time value in each branch of a runtime `if`",
                           names.data[i]);
                bad = true;
            }
            continue;
        }
        if (!is_runtime(&a) || !is_runtime(&b) || a.ty != b.ty) {
            const char *redefined = NULL; /* a value live into the if, redefined by one branch */
            if (scope_find(&liveins, names.data[i]))
                redefined = scope_find(&then_defs, names.data[i]) && a.ty != b.ty ? "then" : "else";
            branch_mismatch(S, names.data[i], &a, &b, redefined);
            bad = true;
            continue;
        }
        vec_push(&tv, a.v);
        vec_push(&ev, b.v);
        vec_push(&rtys, a.ty->ir);
        vec_push(&rnames, names.data[i]);
        vec_push(&rshapes, a);
    }
    if (!bad) {
        Op *ifop = sem_op(S, SCF_IF, &c.v, 1, rtys.data, rtys.len, 2);
        region_push_block(&ifop->regions[0], tb);
        region_push_block(&ifop->regions[1], eb);
        if (rtys.len || tb->first) yield_values(S, tb, tv.data, tv.len);
        if (rtys.len || eb->first) yield_values(S, eb, ev.data, ev.len);
        if (!rtys.len) {
            if (!tb->last || tb->last->kind != SCF_YIELD) yield_values(S, tb, NULL, 0);
            if (!eb->last || eb->last->kind != SCF_YIELD) yield_values(S, eb, NULL, 0);
        }
        scope_copy(&F->lscope, &liveins);
        F->defs = saved_defs;
        F->record_defs = saved_record;
        Value **res = ARENA_ARRAY(S->arena, Value *, rtys.len + 1);
        for (int i = 0; i < rtys.len; i++) res[i] = op_result(ifop, i);
        int k = 0;
        for (int i = 0; i < rnames.len; i++) set_value(S, rnames.data[i], tv_rebuild(S, &rshapes.data[i], res, &k));
        /* constexprs equal in both branches */
        for (int i = 0; i < names.len; i++) {
            TV a = tvals.data[i];
            if (!tv_has_tensor(&a)) set_value(S, names.data[i], a);
        }
    } else {
        scope_copy(&F->lscope, &liveins);
        F->defs = saved_defs;
        F->record_defs = saved_record;
        for (int i = 0; i < names.len; i++) set_value(S, names.data[i], tv_err());
    }
    scope_free(&liveins);
    scope_free(&then_defs);
    scope_free(&else_defs);
    vec_free(&names);
    vec_free(&tvals);
    vec_free(&evals);
    vec_free(&tv);
    vec_free(&ev);
    vec_free(&rtys);
    vec_free(&rshapes);
    vec_free(&rnames);
    return false;
}

/* body's AssignedNames, collected at its first loop in the compile. */
static const AssignedNames *assigned_names(Sema *S, const PyBlock *body) {
    AssignedNames *an = map_get(&S->assigned, MAP_KEY(body));
    if (an) return an;
    Scope assigned = {0};
    collect_assigned(body, &assigned);
    an = ARENA_NEW(S->arena, AssignedNames);
    an->n = assigned.len;
    an->names = ARENA_ARRAY(S->arena, const char *, assigned.len + 1);
    for (int i = 0; i < assigned.len; i++) {
        an->names[i] = assigned.data[i].name;
        an->bloom |= name_bit(an->names[i]);
    }
    scope_free(&assigned);
    map_put(&S->assigned, MAP_KEY(body), an);
    return an;
}

/* The value of a live-in name a loop body assigns, when the loop carries
 * it: a runtime value, or a constexpr tuple of numbers made runtime here,
 * before the loop, so that the body may change its items (`m = (0, 0)`
 * then `m = (m[0] + i, m[1])`, which Triton's tuples of scalars allow).
 * NULL if the name is not carried. */
static const TV *carried_value(Sema *S, const char *name) {
    const TV *v = scope_find(&S->fn->lscope, name);
    if (v && promotable_tuple(S, v)) {
        set_value(S, name, runtime_items(S, *v));
        v = scope_find(&S->fn->lscope, name);
    }
    return v && tv_has_tensor(v) ? v : NULL;
}

/* The loop-carried names: live-in runtime values (tensors, tuples holding
 * tensors) the body assigns, in the order of the live-ins (Triton walks
 * `liveins.items()`, a dict copied from lscope, so the order a name was
 * first bound in the function). */
static int carried_names(Sema *S, const PyBlock *body, const PyExpr *target, Scope *out) {
    const AssignedNames *assigned = assigned_names(S, body);
    Scope *live = &S->fn->lscope;
    const char *tname = target && target->kind == PY_EXPR_NAME ? target->name : NULL;
    enum { FEW = 64 };
    if (assigned->n <= FEW) {
        /* the names the body assigns looked up in the scope, and their
         * places sorted: a loop assigns a few names, a function binds
         * tens (a loop inside a tl.static_range starts at every step) */
        int at[FEW], n = 0;
        for (int i = 0; i < assigned->n; i++) {
            const char *nm = assigned->names[i];
            if (nm == tname) continue; /* (interned) */
            const TV *v = carried_value(S, nm);
            if (!v) continue;
            int k = scope_index_of(live, v), j = n++;
            for (; j > 0 && at[j - 1] > k; j--) at[j] = at[j - 1];
            at[j] = k;
        }
        for (int i = 0; i < n; i++) scope_push(out, live->data[at[i]].name, live->data[at[i]].val);
        return out->len;
    }
    for (int i = 0; i < live->len; i++) {
        const char *nm = live->data[i].name;
        if (target && target->kind == PY_EXPR_NAME && target->name == nm) continue; /* (interned) */
        if (!assigns(assigned, nm)) continue;
        const TV *v = carried_value(S, nm);
        if (v) scope_push(out, nm, *v);
    }
    return out->len;
}

/* A carried @aggregate whose compile-time field the loop changed (or that
 * became another class): reported in its terms. False if not that. */
static bool agg_loop_mismatch(Sema *S, const char *name, const TV *was, const TV *now, const PyStmt *s) {
    const AggClass *c = sema_agg_of(S, was);
    if (!c) return false;
    if (sema_agg_of(S, now) != c) {
        StrBuf b = {0};
        tv_str(S, now, &b);
        at_stmt(S, s);
        sema_error(S, "loop-carried variable %s is a %s before the loop but is re-assigned to %s in the loop", name,
                   c->name, sb_cstr(&b));
        sb_free(&b);
        return true;
    }
    for (int i = 0; i < c->nfields; i++) {
        const TV *a = &was->elems[i], *b = &now->elems[i];
        if (tv_same_layout(a, b)) continue;
        if (tv_has_tensor(a) || tv_has_tensor(b)) {
            if (sema_agg_of(S, a) && agg_loop_mismatch(S, name, a, b, s)) return true;
            return false; /* a tensor's type: the generic message */
        }
        StrBuf x = {0}, y = {0};
        tv_str(S, a, &x);
        tv_str(S, b, &y);
        at_stmt(S, s);
        sema_error(S, "loop-carried %s '%s' changes its compile-time field '%s' in the loop (%s before it, %s after "
                      "an iteration): fields that are not tensors must stay the same", c->name, name, c->fields[i],
                   sb_cstr(&x), sb_cstr(&y));
        sb_free(&x);
        sb_free(&y);
        return true;
    }
    return false;
}

static bool check_carried(Sema *S, const Scope *carried, const PyStmt *s) {
    bool ok = true;
    for (int i = 0; i < carried->len; i++) {
        TV *now = scope_find(&S->fn->lscope, carried->data[i].name);
        if (!now || now->kind == TV_ERR) {
            ok = false;
            continue;
        }
        if (!tv_same_layout(&carried->data[i].val, now)) {
            if (agg_loop_mismatch(S, carried->data[i].name, &carried->data[i].val, now, s)) {
                ok = false;
                continue;
            }
            StrBuf a = {0}, b = {0};
            tv_str(S, &carried->data[i].val, &a);
            tv_str(S, now, &b);
            at_stmt(S, s);
            sema_error(S, "loop-carried variable %s has initial type %s but is re-assigned to %s in loop",
                       carried->data[i].name, sb_cstr(&a), sb_cstr(&b));
            sb_free(&a);
            sb_free(&b);
            ok = false;
        }
    }
    /* constexprs may not change in a loop */
    return ok;
}

/* Binds each carried name to its value rebuilt over vals (the block's
 * arguments or the loop's results, one per leaf). */
static void bind_carried(Sema *S, const Scope *carried, Value *const *vals) {
    int k = 0;
    for (int i = 0; i < carried->len; i++) set_value(S, carried->data[i].name, tv_rebuild(S, &carried->data[i].val, vals, &k));
}

static void check_cx_reassign(Sema *S, const Scope *liveins, const PyStmt *s, const char *target) {
    for (int i = 0; i < S->fn->defs.len; i++) {
        const char *nm = S->fn->defs.data[i].name;
        if (nm == target) continue; /* (interned) */
        TV *live = scope_find((Scope *)liveins, nm);
        if (live && !tv_has_tensor(live) && live->kind != TV_ERR && S->fn->defs.data[i].val.kind != TV_ERR) {
            at_stmt(S, s);
            sema_error(S, "cannot reassign constexpr %s in the loop", nm);
        }
    }
}

/* static_range iterations a compile may unroll, in all */
enum { STATIC_UNROLL_LIMIT = 1 << 18 };

static void visit_static_range(Sema *S, const PyStmt *s, const TV *args, int n) {
    int64_t lo = 0, hi = 0, step = 1;
    for (int i = 0; i < n; i++)
        if (args[i].kind != TV_INT && args[i].kind != TV_BOOL) {
            sema_error(S, "static_range's arguments must be constexpr integers");
            return;
        }
    if (n == 1) hi = args[0].i;
    else if (n >= 2) {
        lo = args[0].i;
        hi = args[1].i;
        if (n == 3) step = args[2].i;
    }
    if (step == 0) {
        sema_error(S, "static_range() arg 3 must not be zero");
        return;
    }
    if (s->loop.target->kind != PY_EXPR_NAME) {
        sema_error(S, "the target of a for loop must be a name");
        return;
    }
    /* Each unrolled iteration is generated: a loop of 10**8 would run for
     * minutes and take gigabytes before it failed (Triton, in Python, takes
     * longer still). The cap counts every iteration of every static loop of
     * the compile, so that nested loops are bounded too. */
    uint64_t span = step > 0 ? (hi > lo ? (uint64_t)hi - (uint64_t)lo : 0) : (lo > hi ? (uint64_t)lo - (uint64_t)hi : 0);
    uint64_t ustep = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
    uint64_t trips = span ? (span - 1) / ustep + 1 : 0;
    at_expr(S, s->loop.iter);
    if (S->fn->const_eval) {
        /* a @triton.constexpr_function's loop, run at compile time: the
         * limit of its `while` loops */
        if (trips > 1000000) {
            sema_error(S, "this loop of a @triton.constexpr_function would run %llu times, more than a million",
                       (unsigned long long)trips);
            return;
        }
    } else if (S->unrolled < 0) {
        return; /* over the limit, and said so: the loops around stop too */
    } else if (trips > (uint64_t)(STATIC_UNROLL_LIMIT - S->unrolled)) {
        if (S->unrolled == 0)
            sema_error(S, "static_range() would unroll %llu iterations, more than tritonc's limit of %d; use range() or "
                          "tl.range() for a loop that runs at run time", (unsigned long long)trips, STATIC_UNROLL_LIMIT);
        else
            sema_error(S, "static_range() would unroll %llu more iterations, past tritonc's limit of %d unrolled "
                          "iterations in all (%lld so far); use range() or tl.range() for a loop that runs at run time",
                       (unsigned long long)trips, STATIC_UNROLL_LIMIT, (long long)S->unrolled);
        S->unrolled = -1;
        return;
    } else {
        S->unrolled += (int64_t)trips;
    }
    int nerrors = S->de->nerrors;
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
        scope_set(&S->fn->lscope, s->loop.target->name, tv_int(i));
        /* a `return` in an unrolled body is still inside a `for` (Triton's rule) */
        S->fn->loop_depth++;
        visit_block(S, &s->loop.body);
        S->fn->loop_depth--;
        /* an iteration that failed ends the unrolling, as Triton stops at its
         * first error: the later ones would repeat its messages */
        if (diag_full(S->de) || S->fn->returned || S->unrolled < 0 || S->de->nerrors > nerrors) break;
    }
}

/* `for x in T:` over a tuple T (of constexprs, tensors, or tuples, as
 * enumerate() and zip() make): unrolled, x bound to each element in turn;
 * the target may unpack (`for i, x in enumerate(T):`). */
static void visit_static_tuple(Sema *S, const PyStmt *s, TV t) {
    int nerrors = S->de->nerrors;
    for (int i = 0; i < t.n; i++) {
        assign_target(S, s->loop.target, &t.elems[i]);
        S->fn->loop_depth++;
        visit_block(S, &s->loop.body);
        S->fn->loop_depth--;
        if (diag_full(S->de) || S->fn->returned || S->de->nerrors > nerrors) break;
    }
}

static void visit_for(Sema *S, const PyStmt *s) {
    const PyExpr *it = s->loop.iter;
    at_stmt(S, s);
    if (s->loop.orelse.len) {
        sema_error(S, "`else` after a `for` loop is not supported");
        return;
    }
    TV f = tv_none();
    if (!is_range_call(S, it, &f)) {
        if (f.kind == TV_ERR) return;
        TV t = cg_expr(S, it);
        if (t.kind == TV_ERR) return;
        at_expr(S, it);
        if (t.kind != TV_TUPLE) {
            sema_error(S, "Only `range`, `static_range` and tuples can be iterated in a kernel, not %s", tv_kind_name(&t));
            return;
        }
        visit_static_tuple(S, s, t);
        return;
    }
    at_expr(S, it);
    bool is_static = !strcmp(f.bi->name, "static_range") || S->fn->const_eval;
    bool is_tl_range = f.bi->arg == 1;
    TV args[3];
    int n = it->call.args.len;
    bool kw_bounds = is_tl_range || !strcmp(f.bi->name, "static_range");
    if (n > 3 || (n < 1 && !(kw_bounds && it->call.nkeywords))) {
        sema_error(S, "%s expected 1 to 3 arguments, got %d", f.bi->name, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        args[i] = cg_expr(S, it->call.args.items[i]);
        if (args[i].kind == TV_ERR) return;
    }
    /* tl.range and tl.static_range take their bounds by keyword too:
     * (arg1, arg2=None, step=None) */
    bool has_arg[3] = {n > 0, n > 1, n > 2};
    TV num_stages = tv_none(), unroll = tv_none();
    bool flatten = false, warp_spec = false, disallow_multi = false, no_licm = false;
    for (int i = 0; i < it->call.nkeywords; i++) {
        const char *k = it->call.keywords[i].name;
        TV v = cg_expr(S, it->call.keywords[i].value);
        at_expr(S, it);
        if (v.kind == TV_ERR) return;
        int slot = !kw_bounds || !k ? -1 : !strcmp(k, "arg1") ? 0 : !strcmp(k, "arg2") ? 1 : !strcmp(k, "step") ? 2 : -1;
        if (slot >= 0) {
            if (has_arg[slot]) {
                sema_error(S, "%s() got multiple values for argument '%s'", f.bi->name, k);
                return;
            }
            /* a None arg2 or step is the default */
            if (v.kind != TV_NONE) {
                args[slot] = v;
                has_arg[slot] = true;
            }
            continue;
        }
        if (!is_tl_range) {
            sema_error(S, "%s() got an unexpected keyword argument '%s'", f.bi->name, k ? k : "**");
            return;
        }
        if (k && (!strcmp(k, "num_stages") || !strcmp(k, "loop_unroll_factor")) && v.kind != TV_INT &&
            v.kind != TV_NONE) {
            at_expr(S, it->call.keywords[i].value);
            sema_error(S, "tl.range(): %s must be a constexpr int, got %s", k, tv_kind_name(&v));
            return;
        }
        /* an i32 attribute (Triton's get_int32_attr rejects a wider int):
         * 2**32 + 3 stages were 3 */
        if (k && (!strcmp(k, "num_stages") || !strcmp(k, "loop_unroll_factor")) && v.kind == TV_INT &&
            (v.u64 || v.i < INT32_MIN || v.i > INT32_MAX)) {
            StrBuf b = {0};
            tv_str(S, &v, &b);
            at_expr(S, it->call.keywords[i].value);
            sema_error(S, "tl.range(): %s must fit in int32, got %s", k, sb_cstr(&b));
            sb_free(&b);
            return;
        }
        if (k && !strcmp(k, "num_stages")) num_stages = v;
        else if (k && !strcmp(k, "loop_unroll_factor")) unroll = v;
        else if (k && !strcmp(k, "flatten")) flatten = cx_truthy(&v);
        else if (k && !strcmp(k, "warp_specialize")) warp_spec = cx_truthy(&v);
        else if (k && !strcmp(k, "disallow_acc_multi_buffer")) disallow_multi = cx_truthy(&v);
        else if (k && !strcmp(k, "disable_licm")) no_licm = cx_truthy(&v);
        else {
            sema_error(S, "tl.range() got an unexpected keyword argument '%s'", k ? k : "**");
            return;
        }
    }
    if (!has_arg[0]) {
        sema_error(S, "%s() missing required argument 'arg1'", f.bi->name);
        return;
    }
    if (has_arg[2] || has_arg[1] != (n > 1)) {
        /* keyword bounds: (start, end, step) as the positional form has them */
        if (!has_arg[1]) {
            args[1] = args[0];
            args[0] = tv_int(0);
        }
        if (!has_arg[2]) args[2] = tv_int(1);
        n = 3;
    }
    if (is_static) {
        visit_static_range(S, s, args, n);
        return;
    }
    if (s->loop.target->kind != PY_EXPR_NAME) {
        sema_error(S, "the target of a for loop must be a name");
        return;
    }
    TV lb = n >= 2 ? args[0] : tv_int(0), ub = n >= 2 ? args[1] : args[0], step = n == 3 ? args[2] : tv_int(1);
    bool negative = false;
    if ((step.kind == TV_INT || step.kind == TV_BOOL) && step.i == 0) {
        /* an scf.for with step 0 never ends */
        at_expr(S, it->call.args.len > 2 ? it->call.args.items[2] : it);
        sema_error(S, "%s() arg 3 must not be zero", f.bi->name);
        return;
    }
    if (step.kind == TV_INT && step.i < 0) {
        step.i = -step.i;
        negative = true;
        TV t = lb;
        lb = ub;
        ub = t;
    }
    lb = sem_to_tensor(S, &lb);
    ub = sem_to_tensor(S, &ub);
    step = sem_to_tensor(S, &step);
    if (lb.kind == TV_ERR || ub.kind == TV_ERR || step.kind == TV_ERR) return;
    if (!tl_is_int(lb.ty) || !tl_is_int(ub.ty) || !tl_is_int(step.ty)) {
        sema_error(S, "For loop bounds and step must all be ints, are (%s, %s, %s)", tl_cstr(S, lb.ty),
                   tl_cstr(S, ub.ty), tl_cstr(S, step.ty));
        return;
    }
    const TlType *ivt = sem_integer_promote(S, sem_integer_promote(S, lb.ty, ub.ty), step.ty);
    lb = sem_cast(S, lb, ivt, NULL);
    ub = sem_cast(S, ub, ivt, NULL);
    step = sem_cast(S, step, ivt, NULL);
    FuncState *F = S->fn;
    Scope carried = {0}, liveins = {0}, saved_defs = F->defs;
    bool saved_record = F->record_defs;
    carried_names(S, &s->loop.body, s->loop.target, &carried);
    scope_copy(&liveins, &F->lscope);
    ValueVec ops = {0};
    TypeVec tys = {0};
    vec_push(&ops, lb.v);
    vec_push(&ops, ub.v);
    vec_push(&ops, step.v);
    for (int i = 0; i < carried.len; i++) tv_leaves(&carried.data[i].val, &ops, &tys);
    Op *forop = sem_op(S, SCF_FOR, ops.data, ops.len, tys.data, tys.len, 1);
    if (num_stages.kind == TV_INT) op_set_attr_k(S->ctx, forop, AN_TT_NUM_STAGES, sema_attr_i32(S, num_stages.i));
    if (unroll.kind == TV_INT) op_set_attr(S->ctx, forop, "tt.loop_unroll_factor", sema_attr_i32(S, unroll.i));
    if (disallow_multi) op_set_attr(S->ctx, forop, "tt.disallow_acc_multi_buffer", attr_unit(S->ctx));
    if (flatten) op_set_attr(S->ctx, forop, "tt.flatten", attr_unit(S->ctx));
    if (warp_spec) op_set_attr(S->ctx, forop, "tt.warp_specialize", attr_unit(S->ctx));
    if (no_licm) op_set_attr(S->ctx, forop, "tt.disable_licm", attr_unit(S->ctx)); /* (read by licm) */
    Block *body = new_block(S);
    region_push_block(&forop->regions[0], body);
    Value *iv = block_add_arg(S->ctx, body, ivt->ir, s->loop.target->loc);
    Builder saved = S->b;
    S->b = builder_at_end(S->ctx, body);
    F->defs = (Scope){0};
    F->record_defs = true;
    F->loop_depth++;
    TV ivv = tv_tensor(iv, ivt);
    if (negative) { /* iv' = ub - iv + lb (bounds were swapped) */
        ivv = tv_tensor(sem_ir(S, ARITH_SUBI, ivt, ub.v, iv), ivt);
        ivv = tv_tensor(sem_ir(S, ARITH_ADDI, ivt, ivv.v, lb.v), ivt);
    }
    set_value(S, s->loop.target->name, ivv);
    for (int i = 0; i < tys.len; i++) block_add_arg(S->ctx, body, tys.data[i], s->loc);
    bind_carried(S, &carried, body->args + 1);
    visit_block(S, &s->loop.body);
    F->loop_depth--;
    at_stmt(S, s);
    bool ok = check_carried(S, &carried, s);
    check_cx_reassign(S, &liveins, s, s->loop.target->name);
    ValueVec ys = {0};
    for (int i = 0; i < carried.len; i++) tv_leaves(scope_find(&F->lscope, carried.data[i].name), &ys, NULL);
    if (!ok) {
        ys.len = 0;
        for (int i = 0; i < tys.len; i++) vec_push(&ys, body->args[i + 1]);
    }
    yield_values(S, body, ys.data, ys.len);
    S->b = saved;
    note_dropped(S, &F->defs, &liveins, NULL, s->loc, "only in the body of this `for` loop");
    scope_copy(&F->lscope, &liveins);
    scope_free(&F->defs); /* the body's assignments */
    F->defs = saved_defs;
    F->record_defs = saved_record;
    if (ok) {
        Value **res = ARENA_ARRAY(S->arena, Value *, tys.len + 1);
        for (int i = 0; i < tys.len; i++) res[i] = op_result(forop, i);
        bind_carried(S, &carried, res);
    } else {
        for (int i = 0; i < carried.len; i++) set_value(S, carried.data[i].name, tv_err());
    }
    /* Triton leaves the induction variable bound after the loop, to the
     * ub.poison that stood for it while the body was built: a value
     * defined outside the loop, undefined (not the last iteration's). The
     * loop's block argument would not dominate a later use (`for t in
     * range(n): ...` then `for i in ...: t = n - i`, which carries t). */
    Type *ivty = ivt->ir;
    set_value(S, s->loop.target->name, tv_tensor(op_result(build_op(&S->b, UB_POISON, NULL, 0, &ivty, 1, 0), 0), ivt));
    scope_free(&carried);
    scope_free(&liveins);
    vec_free(&ops);
    vec_free(&tys);
    vec_free(&ys);
}

/* In a @constexpr_function, a loop runs at compile time: the condition is
 * a constexpr each time round (at most a million rounds). */
static void visit_const_while(Sema *S, const PyStmt *s) {
    for (long round = 0;; round++) {
        at_stmt(S, s);
        TV c = cg_expr(S, s->cond.test);
        if (c.kind == TV_ERR) return;
        if (!tv_is_const(&c)) {
            at_expr(S, s->cond.test);
            sema_error(S, "a loop in a @triton.constexpr_function needs a constexpr condition, not %s",
                       tv_kind_name(&c));
            return;
        }
        if (!cx_truthy(&c)) return;
        if (round >= 1000000) {
            sema_error(S, "this loop of a @triton.constexpr_function ran a million times");
            return;
        }
        S->fn->loop_depth++;
        visit_block(S, &s->cond.body);
        S->fn->loop_depth--;
        if (diag_full(S->de) || S->fn->returned) return;
    }
}

static void visit_while(Sema *S, const PyStmt *s) {
    at_stmt(S, s);
    if (s->cond.orelse.len) {
        sema_error(S, "`else` after a `while` loop is not supported");
        return;
    }
    if (S->fn->const_eval) {
        visit_const_while(S, s);
        return;
    }
    FuncState *F = S->fn;
    Scope carried = {0}, liveins = {0}, saved_defs = F->defs;
    bool saved_record = F->record_defs;
    carried_names(S, &s->cond.body, NULL, &carried);
    scope_copy(&liveins, &F->lscope);
    ValueVec ops = {0};
    TypeVec tys = {0};
    for (int i = 0; i < carried.len; i++) tv_leaves(&carried.data[i].val, &ops, &tys);
    Op *wop = sem_op(S, SCF_WHILE, ops.data, ops.len, tys.data, tys.len, 2);
    Block *before = new_block(S), *after = new_block(S);
    region_push_block(&wop->regions[0], before);
    region_push_block(&wop->regions[1], after);
    Builder saved = S->b;
    /* before: the condition (its bindings are region-local, like the body's) */
    S->b = builder_at_end(S->ctx, before);
    F->defs = (Scope){0};
    F->record_defs = true;
    VEC(Value *) bargs = {0};
    for (int i = 0; i < tys.len; i++) vec_push(&bargs, block_add_arg(S->ctx, before, tys.data[i], s->loc));
    bind_carried(S, &carried, bargs.data);
    TV c = cg_expr(S, s->cond.test);
    at_stmt(S, s);
    if (c.kind != TV_ERR) {
        c = sem_to_tensor(S, &c);
        c = sem_cast(S, c, tl_scalar(S, TL_I1), NULL);
    }
    if (c.kind != TV_ERR) c = single_element_scalar(S, c);
    if (c.kind != TV_ERR && tl_is_block(c.ty)) {
        sema_error(S, "the condition of a `while` must be a scalar");
        c = tv_err();
    }
    {
        VEC(Value *) cops = {0};
        vec_push(&cops, c.kind == TV_ERR ? sem_const_int(S, tl_scalar(S, TL_I1), 0) : c.v);
        for (int i = 0; i < bargs.len; i++) vec_push(&cops, bargs.data[i]);
        Builder cb = builder_at_end(S->ctx, before);
        cb.loc = S->loc;
        build_op(&cb, SCF_CONDITION, cops.data, cops.len, NULL, 0, 0);
        vec_free(&cops);
    }
    /* after: the body */
    S->b = builder_at_end(S->ctx, after);
    scope_free(&F->defs);
    F->defs = (Scope){0};
    for (int i = 0; i < tys.len; i++) block_add_arg(S->ctx, after, tys.data[i], s->loc);
    bind_carried(S, &carried, after->args);
    F->loop_depth++;
    visit_block(S, &s->cond.body);
    F->loop_depth--;
    at_stmt(S, s);
    bool ok = check_carried(S, &carried, s);
    check_cx_reassign(S, &liveins, s, NULL);
    ValueVec ys = {0};
    for (int i = 0; i < carried.len; i++) tv_leaves(scope_find(&F->lscope, carried.data[i].name), &ys, NULL);
    if (!ok) {
        ys.len = 0;
        for (int i = 0; i < tys.len; i++) vec_push(&ys, after->args[i]);
    }
    yield_values(S, after, ys.data, ys.len);
    S->b = saved;
    note_dropped(S, &F->defs, &liveins, NULL, s->loc, "only in the body of this `while` loop");
    scope_copy(&F->lscope, &liveins);
    scope_free(&F->defs); /* the body's assignments */
    F->defs = saved_defs;
    F->record_defs = saved_record;
    if (ok) {
        Value **res = ARENA_ARRAY(S->arena, Value *, tys.len + 1);
        for (int i = 0; i < tys.len; i++) res[i] = op_result(wop, i);
        bind_carried(S, &carried, res);
    } else {
        for (int i = 0; i < carried.len; i++) set_value(S, carried.data[i].name, tv_err());
    }
    scope_free(&carried);
    scope_free(&liveins);
    vec_free(&ops);
    vec_free(&tys);
    vec_free(&bargs);
    vec_free(&ys);
}

/* (in_agg: inside an @aggregate instance, whose compile-time fields stay
 * compile-time values, as Triton's aggregate type keeps them: they are
 * not results of the function) */
static void flatten_ret(Sema *S, TV v, ValueVec *vals, FuncRet *r, bool *bad, bool in_agg) {
    if (v.kind == TV_TUPLE) {
        in_agg |= sema_agg_of(S, &v) != NULL;
        for (int i = 0; i < v.n; i++) flatten_ret(S, v.elems[i], vals, r, bad, in_agg);
        return;
    }
    if (v.kind == TV_NONE) return;
    if (in_agg && v.kind != TV_TENSOR) return;
    v = sem_to_tensor(S, &v);
    if (v.kind == TV_ERR) {
        *bad = true;
        return;
    }
    if (r->n >= 16) {
        sema_error(S, "too many return values");
        *bad = true;
        return;
    }
    vec_push(vals, v.v);
    r->types[r->n++] = v.ty;
}

static void visit_return(Sema *S, const PyStmt *s) {
    FuncState *F = S->fn;
    at_stmt(S, s);
    if (F->loop_depth && !F->const_eval) { /* (a @constexpr_function's loops run at compile time) */
        sema_error(S, "Cannot have `return` statements inside `while` or `for` statements in triton");
        return;
    }
    TV v = s->expr.value ? cg_expr(S, s->expr.value) : tv_none();
    at_stmt(S, s);
    F->returned = true;
    if (v.kind == TV_ERR) return;
    if (F->is_kernel && v.kind != TV_NONE) {
        sema_error(S, "a kernel cannot return a value");
        return;
    }
    FuncRet r = {.n = 0, .is_tuple = v.kind == TV_TUPLE, .shape = v};
    ValueVec vals = {0};
    bool bad = false;
    flatten_ret(S, v, &vals, &r, &bad, false);
    if (!bad && F->sink) { /* a branch of an early-exit `if`: it yields the values */
        F->sink->set = check_ret(S, &r);
        F->sink->vals = vals;
        F->sink->r = r;
        return;
    }
    if (!bad) {
        S->b.loc = S->loc;
        build_op(&S->b, TT_RETURN, vals.data, vals.len, NULL, 0, 0);
        check_ret(S, &r);
    }
    vec_free(&vals);
}

static void visit_stmt(Sema *S, const PyStmt *s) {
    at_stmt(S, s);
    switch (s->kind) {
    case PY_STMT_EXPR:
        /* `...` alone is a statement that does nothing, as in Python (a
         * stub's body, a placeholder branch): Triton evaluates it to a
         * constexpr and drops it; the Ellipsis error is for indices */
        if (s->expr.value->kind != PY_EXPR_ELLIPSIS) cg_expr(S, s->expr.value);
        break;
    case PY_STMT_ASSIGN: {
        if (s->assign.targets.len != 1) {
            sema_error(S, "chained assignment (a = b = value) is not supported in Triton kernels");
            break;
        }
        TV v = cg_expr(S, s->assign.value);
        at_stmt(S, s);
        /* (a tensor stays as it is; a field takes the value as __init__ gives it) */
        if (v.kind != TV_ERR && v.kind != TV_TENSOR && s->assign.targets.items[0]->kind != PY_EXPR_ATTR)
            v = sanitize(S, v);
        assign_target(S, s->assign.targets.items[0], &v);
        break;
    }
    case PY_STMT_AUGASSIGN: {
        const PyExpr *t = s->aug.target;
        if (t->kind == PY_EXPR_ATTR && t->attr.value->kind == PY_EXPR_NAME && !S->fn->agg_init) {
            /* `agg.f += 1`: aggregates are immutable */
            bool quiet = S->quiet;
            S->quiet = true;
            TV base = lookup(S, t->attr.value->name);
            S->quiet = quiet;
            if (sema_agg_of(S, &base)) {
                assign_field(S, t, &base);
                break;
            }
        }
        if (t->kind != PY_EXPR_NAME) {
            at_expr(S, t);
            sema_error(S, "augmented assignment is only supported to names");
            break;
        }
        TV a = lookup(S, t->name);
        TV b = cg_expr(S, s->aug.value);
        at_stmt(S, s);
        TV r;
        if (a.kind == TV_ERR || b.kind == TV_ERR) r = tv_err();
        else if (is_runtime(&a) || is_runtime(&b)) r = sem_binary_in_place(S, s->aug.op, &a, &b);
        else r = cx_binary_or_tuple(S, s->aug.op, &a, &b);
        if (r.kind != TV_ERR && r.kind != TV_TENSOR) r = sanitize(S, r);
        assign_target(S, t, &r);
        break;
    }
    case PY_STMT_ANNASSIGN: {
        if (is_constexpr_annotation(s->ann.annotation)) {
            const PyExpr *t = s->ann.target;
            if (t->kind != PY_EXPR_NAME) {
                sema_error(S, "a constexpr annotation needs a name");
                break;
            }
            if (scope_find(&S->fn->lscope, t->name)) {
                at_expr(S, t);
                sema_error(S, "%s is already defined. constexpr cannot be reassigned.", t->name);
                break;
            }
            TV v = s->ann.value ? cg_expr(S, s->ann.value) : tv_none();
            at_stmt(S, s);
            if (v.kind == TV_TENSOR) {
                sema_error(S, "the value of constexpr '%s' is not known at compile time", t->name);
                v = tv_err();
            }
            scope_set(&S->fn->lscope, t->name, v);
            break;
        }
        if (!s->ann.value) break;
        TV v = cg_expr(S, s->ann.value);
        at_stmt(S, s);
        if (v.kind != TV_ERR && v.kind != TV_TENSOR) v = sanitize(S, v); /* (a tensor stays as it is) */
        assign_target(S, s->ann.target, &v);
        break;
    }
    case PY_STMT_IF: visit_if(S, s, NULL); break;
    case PY_STMT_FOR: visit_for(S, s); break;
    case PY_STMT_WHILE: visit_while(S, s); break;
    case PY_STMT_RETURN: visit_return(S, s); break;
    case PY_STMT_PASS: break;
    case PY_STMT_BREAK: sema_error(S, "`break` statements are not supported in Triton kernels"); break;
    case PY_STMT_CONTINUE: sema_error(S, "`continue` statements are not supported in Triton kernels"); break;
    /* the name is bound to the error, so that its uses say nothing more */
    case PY_STMT_DEF:
        sema_error(S, "nested function definition is not supported.");
        scope_set(&S->fn->lscope, s->func->name, tv_err());
        break;
    case PY_STMT_CLASS:
        sema_error(S, "class definitions are not supported in Triton kernels");
        scope_set(&S->fn->lscope, s->cls->name, tv_err());
        break;
    case PY_STMT_IMPORT: case PY_STMT_IMPORT_FROM:
        sema_error(S, "import statements are not supported inside Triton kernels");
        break;
    case PY_STMT_GLOBAL: case PY_STMT_NONLOCAL:
        sema_error(S, "global/nonlocal declarations are not supported in Triton kernels");
        break;
    case PY_STMT_DEL: sema_error(S, "`del` statements are not supported in Triton kernels"); break;
    case PY_STMT_RAISE: sema_error(S, "`raise` statements are not supported in Triton kernels"); break;
    case PY_STMT_WITH: sema_error(S, "`with` statements are not supported in Triton kernels"); break;
    case PY_STMT_TRY: sema_error(S, "`try` statements are not supported in Triton kernels"); break;
    case PY_STMT_ASSERT: {
        TV c = cg_expr(S, s->assertion.test);
        TV m = s->assertion.msg ? cg_expr(S, s->assertion.msg) : (TV){.kind = TV_STR, .s = ""};
        at_stmt(S, s);
        if (c.kind == TV_ERR || m.kind == TV_ERR) break;
        sema_device_assert(S, c, &m, NULL); /* dropped unless debug is on, as in Triton */
        break;
    }
    default: sema_error(S, "unsupported statement in a Triton kernel"); break;
    }
}

/* Visits b's statements from `start`, then the continuation `cont` (the
 * statements that follow b in the enclosing blocks) unless a statement took
 * it over. Only the branches of early-exit `if`s pass a continuation. */
static void visit_block_cont(Sema *S, const PyBlock *b, int start, const Cont *cont) {
    for (int i = start; i < b->len; i++) {
        if (S->fn->returned || diag_full(S->de)) return;
        const PyStmt *s = b->items[i];
        if (s->kind == PY_STMT_IF) {
            at_stmt(S, s);
            Cont k = {b, i + 1, cont};
            if (visit_if(S, s, &k)) return;
            continue;
        }
        visit_stmt(S, s);
    }
    if (cont && !S->fn->returned && !diag_full(S->de)) visit_block_cont(S, cont->b, cont->start, cont->next);
}

static void visit_block(Sema *S, const PyBlock *b) { visit_block_cont(S, b, 0, NULL); }

/* ---- functions ---------------------------------------------------------------- */

static const PyFunc *find_def(const PyBlock *b, const char *name) {
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        if (s->kind == PY_STMT_DEF && !strcmp(s->func->name, name)) return s->func;
        if (s->kind == PY_STMT_IF) {
            const PyFunc *f = find_def(&s->cond.body, name);
            if (!f) f = find_def(&s->cond.orelse, name);
            if (f) return f;
        }
    }
    return NULL;
}

static bool is_jit(const PyFunc *f, bool *noinline) {
    *noinline = false;
    bool jit = false;
    for (int i = 0; i < f->decorators.len; i++) {
        const PyExpr *d = f->decorators.items[i];
        if (!strcmp(decorator_name(d), "jit")) {
            jit = true;
            if (d->kind == PY_EXPR_CALL)
                for (int k = 0; k < d->call.nkeywords; k++)
                    if (d->call.keywords[k].name && !strcmp(d->call.keywords[k].name, "noinline") &&
                        d->call.keywords[k].value->kind == PY_EXPR_TRUE)
                        *noinline = true;
        }
    }
    return jit;
}

/* Binds a function's parameters: vals[i] for parameter i. */
static bool bind_params(Sema *S, const PyFunc *fn, const TV *args, int nargs, const char *const *kwn,
                        const TV *kwv, int nkw, TV *vals, bool *given) {
    int np = fn->params.len;
    bool ok = true;
    for (int i = 0; i < np; i++) {
        const PyParam *p = &fn->params.items[i];
        if (p->kind == PY_PARAM_VARARGS || p->kind == PY_PARAM_KWARGS) {
            /* (as in a kernel: the error is at the parameter, not at the
             * call's count of arguments) */
            Loc call = S->loc;
            sema_error_at(S, p->loc, (int)strlen(p->name), "*args and **kwargs are not supported in @triton.jit functions");
            sema_note_at(S, call, "in the call of %s here", fn->name);
            return false;
        }
    }
    for (int i = 0; i < np; i++) given[i] = false;
    if (nargs > np) {
        sema_error(S, "%s() takes %d positional arguments but %d were given", fn->name, np, nargs);
        return false;
    }
    for (int i = 0; i < nargs; i++) {
        vals[i] = args[i];
        given[i] = true;
    }
    for (int k = 0; k < nkw; k++) {
        int j = -1;
        for (int i = 0; i < np; i++)
            if (kwn[k] && !strcmp(fn->params.items[i].name, kwn[k])) j = i;
        if (j < 0) {
            sema_error(S, "%s() got an unexpected keyword argument '%s'", fn->name, kwn[k] ? kwn[k] : "**");
            ok = false;
        } else if (given[j]) {
            sema_error(S, "%s() got multiple values for argument '%s'", fn->name, kwn[k]);
            ok = false;
        } else {
            vals[j] = kwv[k];
            given[j] = true;
        }
    }
    return ok;
}

/* (The mangling appends without printf: every call of a @jit helper builds
 * its name, a dozen pieces or more.) */
static void mangle_cx(const Sema *S, const TV *v, StrBuf *sb) {
    switch (v->kind) {
    case TV_INT:
        if (v->u64) sb_puts(sb, "u"); /* a uint64 and the int64 of its bits are different constexprs */
        sb_put_int(sb, v->i);
        break;
    case TV_BOOL: sb_puts(sb, v->i ? "True" : "False"); break;
    case TV_FLOAT: {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", v->f);
        for (char *p = buf; *p; p++) {
            if (*p == '.') sb_puts(sb, "_d_");
            else if (*p == '-') sb_putc(sb, 'm');
            else if (*p == '+') continue;
            else sb_putc(sb, *p);
        }
        break;
    }
    case TV_STR:
        sb_puts(sb, "_sq_");
        sb_puts(sb, v->s);
        sb_puts(sb, "_sq_");
        break;
    case TV_NONE: sb_puts(sb, "None"); break;
    case TV_DTYPE: tl_mangle(v->ty, sb); break;
    case TV_JITFN: sb_puts(sb, v->fn->name); break;
    case TV_BUILTIN:
        sb_puts(sb, "_bi_");
        sb_puts(sb, v->bi->name);
        break;
    case TV_MODULE:
        sb_puts(sb, "_mod");
        sb_put_int(sb, v->i);
        break;
    case TV_TUPLE: /* block_shape=[BLOCK_M, HEAD_DIM]: every element is part of the name */
        if (sema_agg_of(S, v)) { /* an aggregate's class too */
            sb_putc(sb, 'A');
            sb_puts(sb, sema_agg_of(S, v)->name);
        }
        sb_putc(sb, 'T');
        for (int i = 0; i < v->n; i++) {
            if (i) sb_putc(sb, '_');
            mangle_cx(S, &v->elems[i], sb);
        }
        sb_putc(sb, 'T');
        break;
    default: sb_puts(sb, "x"); break;
    }
}

static void gen_function(Sema *S, FuncState *F, const PyFunc *fn, const TV *vals, int np, const char *name,
                         bool is_kernel, bool noinline, Attr *const *arg_attrs);

static void flatten_args(Sema *S, TV v, ValueVec *out) {
    if (v.kind == TV_TUPLE) {
        for (int i = 0; i < v.n; i++) flatten_args(S, v.elems[i], out);
    } else if (v.kind == TV_TENSOR) {
        vec_push(out, v.v);
    }
}

static void mangle_arg(const Sema *S, const TV *v, StrBuf *sb) {
    if (v->kind == TV_TUPLE) {
        const AggClass *c = sema_agg_of(S, v);
        if (c) { /* an aggregate's class is part of its type */
            sb_putc(sb, 'A');
            sb_puts(sb, c->name);
        }
        sb_putc(sb, 'T');
        for (int i = 0; i < v->n; i++) {
            if (i) sb_putc(sb, '_');
            if (v->fields) { /* a NamedTuple's field names are part of its type */
                sb_putc(sb, 'N');
                sb_puts(sb, v->fields[i]);
                sb_putc(sb, '_');
            }
            mangle_arg(S, &v->elems[i], sb);
        }
        sb_putc(sb, 'T');
    } else if (v->kind == TV_TENSOR) {
        tl_mangle(v->ty, sb);
        if (v->is_desc) { /* a tensor descriptor, not a block pointer */
            sb_putc(sb, 'D');
            sb_put_int(sb, v->is_desc);
        }
    } else { /* a constexpr inside a tuple that also holds tensors: [M, 1] */
        sb_putc(sb, 'c');
        mangle_cx(S, v, sb);
    }
}

static bool tuple_has_tensor(const TV *v) {
    if (v->kind == TV_TENSOR) return true;
    if (v->kind == TV_TUPLE)
        for (int i = 0; i < v->n; i++)
            if (tuple_has_tensor(&v->elems[i])) return true;
    return false;
}

static TV rebuild_ret_in(Sema *S, const TV *shape, Op *call, const FuncRet *r, int *k, bool in_agg);

/* A call of @jit function f: its specialisation for these arguments
 * (generated once), and a tt.call of it; or, want_const (a
 * @constexpr_function), the constexpr value its body returned. */
static TV call_jit(Sema *S, const TV *f, const TV *args, int nargs, const char *const *kwn, const TV *kwv, int nkw,
                   bool want_const) {
    const PyFunc *fn = f->fn;
    int nerrors = S->de->nerrors;
    int np = py_func_params(fn)->len; /* (parsed here if py_parse_lazy left it) */
    if (S->de->nerrors != nerrors) return tv_err();
    Loc call_loc = S->loc;
    int call_span = S->span;
    const PyExpr *call_span_node = S->span_node;
    if (np > 64) return sema_error(S, "too many parameters");
    TV vals[64];
    bool given[64];
    if (!bind_params(S, fn, args, nargs, kwn, kwv, nkw, vals, given)) return tv_err();
    /* defaults, evaluated in the global scope */
    FuncState *caller = S->fn;
    for (int i = 0; i < np; i++) {
        if (given[i]) continue;
        const PyParam *p = &fn->params.items[i];
        if (!p->default_value) {
            return sema_error(S, "%s() missing required argument '%s'", fn->name, p->name);
        }
        S->fn = NULL;
        vals[i] = cg_expr(S, p->default_value);
        S->fn = caller;
        S->loc = call_loc;
        S->span = call_span;
        S->span_node = call_span_node;
        if (vals[i].kind == TV_ERR) return vals[i];
    }
    /* mangle: name__<runtime arg types>__<index>c<constexpr value> */
    StrBuf sb = {0};
    sb_puts(&sb, f->i == 1 && f->s ? f->s : fn->name); /* an aggregate's method: Class_method */
    sb_puts(&sb, "__");
    bool first = true;
    for (int i = 0; i < np; i++) {
        if (!tuple_has_tensor(&vals[i])) continue;
        if (!first) sb_putc(&sb, '_');
        first = false;
        mangle_arg(S, &vals[i], &sb);
    }
    sb_puts(&sb, "__");
    first = true;
    for (int i = 0; i < np; i++) {
        if (tuple_has_tensor(&vals[i])) continue;
        if (!first) sb_putc(&sb, '_');
        first = false;
        sb_put_int(&sb, i);
        sb_putc(&sb, 'c');
        mangle_cx(S, &vals[i], &sb);
    }
    if (f->noinline && nargs) {
        for (int i = 0; i < np; i++)
            if (vals[i].kind == TV_TENSOR && tl_is_block(vals[i].ty) && tl_numel(vals[i].ty) != 1) {
                sb_free(&sb);
                return sema_error(S, "Function %s is marked noinline, but was called with non-scalar argument %s",
                                  fn->name, fn->params.items[i].name);
            }
    }
    const char *mname = intern_n(&S->ctx->strings, sb_cstr(&sb), sb.len);
    sb_free(&sb);
    FuncRet *r = map_get(&S->fn_ret, MAP_KEY(mname));
    if (!r) {
        if (S->depth > 64) return sema_error(S, "recursion too deep while generating %s", fn->name);
        r = ARENA_NEW(S->arena, FuncRet);
        r->n = -3; /* being generated */
        map_put(&S->fn_ret, MAP_KEY(mname), r);
        FuncState F = {.const_eval = want_const};
        Builder saved_b = S->b;
        Loc saved_loc = S->loc;
        S->depth++;
        int nerr = S->de->nerrors;
        gen_function(S, &F, fn, vals, np, mname, false, f->noinline, NULL);
        S->depth--;
        S->b = saved_b;
        S->fn = caller;
        S->loc = saved_loc;
        S->span = call_span;
        S->span_node = call_span_node;
        *r = F.ret;
        r->func = F.func;
        if (S->de->nerrors > nerr) {
            call_note(S, call_loc, fn->name);
            r->n = -4;
        }
        if (S->depth == 0) flush_call_note(S);
    }
    if (r->n == -3) return sema_error(S, "recursive @jit function %s is not supported", fn->name);
    if (r->n == -4) return tv_err();
    if (want_const) { /* a @constexpr_function: the value its body computed from constexprs */
        if (!const_tree(&r->shape))
            return sema_error(S, "@triton.constexpr_function %s did not return a constexpr (an int, float, bool, "
                                 "str, None, dtype or a tuple of them)", fn->name);
        return r->shape;
    }
    ValueVec ops = {0};
    for (int i = 0; i < np; i++) flatten_args(S, vals[i], &ops);
    Type *rt[16];
    int nres = r->n < 0 ? 0 : r->n;
    for (int i = 0; i < nres; i++) rt[i] = r->types[i]->ir;
    Op *call = sem_op(S, TT_CALL, ops.data, ops.len, rt, nres, 0);
    op_set_attr_k(S->ctx, call, AN_CALLEE, attr_symref(S->ctx, mname));
    vec_free(&ops);
    int k = 0;
    /* an aggregate of compile-time fields, or a tuple without tensors (`()`) */
    if (r->n == 0 && r->is_tuple) return rebuild_ret_in(S, &r->shape, call, r, &k, false);
    if (r->n <= 0) return tv_none();
    return rebuild_ret_in(S, &r->shape, call, r, &k, false);
}

TV cg_call_jit(Sema *S, const TV *f, const TV *args, int nargs, const char *const *kwn, const TV *kwv, int nkw,
               bool inline_here) {
    (void)inline_here;
    return call_jit(S, f, args, nargs, kwn, kwv, nkw, false);
}

/* The value a call returns, shaped as the callee's return value (nested
 * tuples, Nones), from the call's flat results. */
static TV rebuild_ret_in(Sema *S, const TV *shape, Op *call, const FuncRet *r, int *k, bool in_agg) {
    if (shape->kind == TV_TUPLE) {
        TV t = make_tuple(S, shape->elems, shape->n);
        t.fields = shape->fields;
        in_agg |= sema_agg_of(S, shape) != NULL;
        for (int i = 0; i < shape->n; i++) t.elems[i] = rebuild_ret_in(S, &shape->elems[i], call, r, k, in_agg);
        return t;
    }
    if (in_agg && shape->kind != TV_TENSOR) return *shape; /* (see flatten_ret) */
    if (shape->kind == TV_NONE || *k >= r->n) return tv_none();
    int i = (*k)++;
    TV t = tv_tensor(op_result(call, i), r->types[i]);
    t.is_desc = shape->kind == TV_TENSOR ? shape->is_desc : 0; /* a tensor descriptor stays one */
    return t;
}

static void unflatten_param(Sema *S, Block *entry, TV proto, TV *out) {
    if (proto.kind == TV_TUPLE) {
        TV t = make_tuple(S, proto.elems, proto.n);
        t.fields = proto.fields;
        for (int i = 0; i < proto.n; i++) unflatten_param(S, entry, proto.elems[i], &t.elems[i]);
        *out = t;
    } else if (proto.kind == TV_TENSOR) {
        *out = tv_tensor(block_add_arg(S->ctx, entry, proto.ty->ir, S->loc), proto.ty);
        out->is_desc = proto.is_desc;
    } else {
        *out = proto;
    }
}

static void gen_function(Sema *S, FuncState *F, const PyFunc *fn, const TV *vals, int np, const char *name,
                         bool is_kernel, bool noinline, Attr *const *arg_attrs) {
    F->pyfn = fn;
    F->is_kernel = is_kernel;
    F->ret.n = -2;
    /* room for a function's names: doubling from 8 moved them four times */
    vec_reserve(&F->lscope, 64);
    S->fn = F;
    S->loc = fn->loc;
    S->span = 3;
    S->span_node = NULL;
    Op *func = op_create(S->ctx, TT_FUNC, fn->loc, NULL, 0, NULL, 0, 1);
    Block *entry = block_create(S->ctx);
    region_push_block(&func->regions[0], entry);
    block_append(module_body(S->module), func);
    F->func = func;
    const char **cx = ARENA_ARRAY(S->arena, const char *, np + 1);
    for (int i = 0; i < np; i++) {
        const PyParam *p = &fn->params.items[i];
        TV v;
        S->loc = p->loc;
        unflatten_param(S, entry, vals[i], &v);
        /* only a parameter annotated tl.constexpr is one: a parameter
         * specialised to a constant (an int equal to 1, None, a tuple of
         * constants) is a local like any other */
        if (is_constexpr_annotation(p->annotation) && !tuple_has_tensor(&v)) {
            cx[F->ncx_params++] = p->name;
            F->cx_filter |= cx_bit(p->name);
        }
        scope_set(&F->lscope, p->name, v);
    }
    F->cx_params = cx;
    S->b = builder_at_end(S->ctx, entry);
    for (int i = 0; is_kernel && S->host_desc && i < np; i++) {
        const HostDesc *hd = S->host_desc[i];
        if (!hd) continue;
        const PyParam *p = &fn->params.items[i];
        S->loc = p->loc;
        TV *slot = scope_find(&F->lscope, p->name);
        if (slot && slot->kind == TV_TENSOR)
            *slot = sem_host_descriptor(S, *slot, hd);
    }
    /* (a body py_parse_lazy skipped is parsed here; with syntax errors in
     * it, sema stops at the function) */
    int nerrors = S->de->nerrors;
    const PyBlock *body = py_func_body(fn);
    if (S->de->nerrors == nerrors) visit_block(S, body);
    /* finalize: a trailing tt.return */
    if (!F->returned) {
        S->loc = fn->loc;
        if (F->ret.n > 0) {
            /* unreachable in practice: every path returned at top level */
        }
        S->b.loc = fn->loc;
        if (F->ret.n == -2) F->ret.n = -1;
        if (F->ret.n <= 0) build_op(&S->b, TT_RETURN, NULL, 0, NULL, 0, 0);
        else {
            VEC(Value *) pv = {0};
            for (int i = 0; i < F->ret.n; i++) {
                Type *t = F->ret.types[i]->ir;
                vec_push(&pv, op_result(build_op(&S->b, UB_POISON, NULL, 0, &t, 1, 0), 0));
            }
            build_op(&S->b, TT_RETURN, pv.data, pv.len, NULL, 0, 0);
            vec_free(&pv);
        }
    } else if (F->ret.n == -2) {
        F->ret.n = -1;
    }
    /* the signature */
    VEC(Type *) in = {0};
    for (int i = 0; i < entry->nargs; i++) vec_push(&in, entry->args[i]->type);
    Type *res[16];
    int nres = F->ret.n > 0 ? F->ret.n : 0;
    for (int i = 0; i < nres; i++) res[i] = F->ret.types[i]->ir;
    op_set_attr_k(S->ctx, func, AN_SYM_NAME, attr_string(S->ctx, name));
    op_set_attr_k(S->ctx, func, AN_FUNCTION_TYPE, attr_type(S->ctx, ty_func(S->ctx, in.data, in.len, res, nres)));
    op_set_attr_k(S->ctx, func, AN_SYM_VISIBILITY, attr_string(S->ctx, is_kernel ? "public" : "private"));
    op_set_attr_k(S->ctx, func, AN_NOINLINE, attr_bool(S->ctx, noinline));
    if (arg_attrs) {
        bool any = false;
        for (int i = 0; i < entry->nargs; i++) any |= arg_attrs[i] != NULL;
        if (any) {
            Attr **aa = ARENA_ARRAY(S->arena, Attr *, entry->nargs + 1);
            for (int i = 0; i < entry->nargs; i++) aa[i] = arg_attrs[i] ? arg_attrs[i] : attr_dict(S->ctx, NULL, 0);
            op_set_attr_k(S->ctx, func, AN_ARG_ATTRS, attr_array(S->ctx, aa, entry->nargs));
        }
    }
    vec_free(&in);
    scope_free(&F->lscope);
    scope_free(&F->defs);
    vec_free(&F->dropped);
}

/* ---- @aggregate classes ------------------------------------------------------ */

/* v as field i of c takes it: a tl.constexpr field a compile-time value, a
 * tl.tensor field a tensor (a number becomes one), a field typed with
 * another aggregate class an instance of it; other annotations take any
 * value. */
static TV agg_field_value(Sema *S, const AggClass *c, int i, TV v) {
    if (v.kind == TV_ERR) return v;
    StrBuf sb = {0};
    switch (c->kinds[i]) {
    case AGG_F_CONSTEXPR:
        if (tv_has_tensor(&v)) {
            tv_str(S, &v, &sb);
            sema_error(S, "field '%s' of aggregate '%s' is a tl.constexpr, but is given a value not known at compile "
                          "time (%s)", c->fields[i], c->name, sb_cstr(&sb));
            v = tv_err();
        }
        break;
    case AGG_F_TENSOR:
        if (tv_is_num(&v)) v = sem_to_tensor(S, &v);
        else if (v.kind != TV_TENSOR) {
            tv_str(S, &v, &sb);
            sema_error(S, "field '%s' of aggregate '%s' is a tl.tensor, but is given %s", c->fields[i], c->name,
                       sb_cstr(&sb));
            v = tv_err();
        }
        break;
    case AGG_F_AGG: {
        const AggClass *want = agg_by_name(S, c->field_cls[i]), *got = sema_agg_of(S, &v);
        if (want && got != want) {
            tv_str(S, &v, &sb);
            sema_error(S, "field '%s' of aggregate '%s' is a %s, but is given %s", c->fields[i], c->name, want->name,
                       sb_cstr(&sb));
            v = tv_err();
        }
        break;
    }
    default: break;
    }
    sb_free(&sb);
    return v;
}

/* `obj.f = v`: inside an aggregate's __init__, with obj its `self`, the
 * field's value; anywhere else an error, as in Triton, whose aggregates
 * are values a @jit function cannot change (a new instance replaces one). */
static void assign_field(Sema *S, const PyExpr *t, const TV *v) {
    const char *attr = t->attr.attr;
    const PyExpr *base = t->attr.value;
    AggInit *ai = S->fn ? S->fn->agg_init : NULL;
    if (ai && base->kind == PY_EXPR_NAME && base->name == ai->self) { /* (interned) */
        const AggClass *c = ai->c;
        for (int i = 0; i < c->nfields; i++) {
            if (strcmp(c->fields[i], attr)) continue;
            if (S->fn->record_defs) {
                sema_error(S, "field '%s' of aggregate '%s' is assigned under a runtime condition or loop in "
                              "__init__: fields must be set unconditionally", attr, c->name);
                return;
            }
            ai->elems[i] = agg_field_value(S, c, i, *v);
            ai->set[i] = true;
            return;
        }
        const char *best = NULL;
        int bestd = 1 << 30;
        for (int i = 0; i < c->nfields; i++) sema_suggest(attr, c->fields[i], &best, &bestd);
        if (best)
            sema_error(S, "'%s' has no attribute '%s' (not a field of the class); did you mean '%s'?", c->name, attr,
                       best);
        else sema_error(S, "'%s' has no attribute '%s' (not a field of the class)", c->name, attr);
        return;
    }
    TV obj = cg_expr(S, base);
    at_expr(S, t);
    if (obj.kind == TV_ERR) return;
    const AggClass *c = sema_agg_of(S, &obj);
    if (c) {
        sema_error(S, "cannot assign to field '%s' of aggregate '%s' outside its __init__: aggregates are immutable "
                      "in @triton.jit code; build a new instance instead (%s(...))", attr, c->name, c->name);
        return;
    }
    sema_error(S, "unsupported assignment target");
}

/* Whether a parameter list holds Triton's internal parameters: a builtin. */
static const char *internal_param(const PyParamList *pl) {
    for (int i = 0; i < pl->len; i++)
        if (!strcmp(pl->items[i].name, "_semantic") || !strcmp(pl->items[i].name, "_builder") ||
            !strcmp(pl->items[i].name, "_generator"))
            return pl->items[i].name;
    return NULL;
}

/* A constructor call's arguments bound to the class's fields, by
 * position, then keywords by name (elems[i], set[i]; as_field: each value
 * converted to its field's kind, agg_field_value); false after Python's
 * error for too many, unknown or repeated arguments. */
static bool bind_fields(Sema *S, const AggClass *c, const TV *args, int nargs, const char *const *kwn, const TV *kwv,
                        int nkw, bool as_field, TV *elems, bool *set) {
    int nf = c->nfields;
    if (nargs > nf) {
        sema_error(S, "%s() takes %d positional argument%s but %d %s given", c->name, nf, nf == 1 ? "" : "s", nargs,
                   nargs == 1 ? "was" : "were");
        return false;
    }
    for (int i = 0; i < nargs; i++) elems[i] = as_field ? agg_field_value(S, c, i, args[i]) : args[i], set[i] = true;
    for (int k = 0; k < nkw; k++) {
        int j = -1;
        for (int i = 0; i < nf; i++)
            if (kwn[k] && !strcmp(c->fields[i], kwn[k])) j = i;
        if (j < 0) {
            sema_error(S, "%s() got an unexpected keyword argument '%s'", c->name, kwn[k] ? kwn[k] : "**");
            return false;
        }
        if (set[j]) {
            sema_error(S, "%s() got multiple values for argument '%s'", c->name, kwn[k]);
            return false;
        }
        elems[j] = as_field ? agg_field_value(S, c, j, kwv[k]) : kwv[k], set[j] = true;
    }
    return true;
}

/* A NamedTuple class called in a kernel: a named tuple of the arguments
 * (by position, then by field name; a missing field takes its default). */
static TV nt_construct(Sema *S, const AggClass *c, const TV *args, int nargs, const char *const *kwn, const TV *kwv,
                       int nkw) {
    int nf = c->nfields;
    TV *elems = ARENA_ARRAY(S->arena, TV, nf + 1);
    bool *set = ARENA_ARRAY(S->arena, bool, nf + 1);
    if (!bind_fields(S, c, args, nargs, kwn, kwv, nkw, false, elems, set)) return tv_err();
    for (int i = 0; i < nf; i++) {
        if (set[i]) continue;
        if (!c->defaults[i]) return sema_error(S, "%s() missing required argument '%s'", c->name, c->fields[i]);
        FuncState *f0 = S->fn;
        Loc l0 = S->loc;
        S->fn = NULL; /* (a default is a module-level expression) */
        elems[i] = cg_expr(S, c->defaults[i]);
        S->fn = f0;
        S->loc = l0;
        if (elems[i].kind == TV_ERR) return elems[i];
    }
    TV t = make_tuple(S, elems, nf);
    /* the field names as a copy: not the class's own array, which marks an
     * @aggregate instance (sema_agg_of) */
    t.fields = arena_dup(S->arena, c->fields, sizeof(const char *) * (size_t)(nf ? nf : 1));
    return t;
}

/* `C(args)` for an @aggregate class C: its __init__ run inline, as Triton
 * runs it (Python at compile time, no call in the IR), with `self` a new
 * instance whose fields it assigns; without an __init__, the arguments
 * are the fields in order. Every field must be assigned. */
static TV agg_construct(Sema *S, const AggClass *c, const TV *args, int nargs, const char *const *kwn, const TV *kwv,
                        int nkw) {
    if (c->namedtuple) return nt_construct(S, c, args, nargs, kwn, kwv, nkw);
    Loc call_loc = S->loc;
    int call_span = S->span;
    const PyExpr *call_span_node = S->span_node;
    int nf = c->nfields;
    TV *elems = ARENA_ARRAY(S->arena, TV, nf + 1);
    bool *set = ARENA_ARRAY(S->arena, bool, nf + 1);
    if (!c->init) {
        if (!bind_fields(S, c, args, nargs, kwn, kwv, nkw, true, elems, set)) return tv_err();
        for (int i = 0; i < nf; i++)
            if (!set[i]) return sema_error(S, "%s() missing required argument '%s'", c->name, c->fields[i]);
    } else {
        const PyFunc *fn = c->init;
        int nerrors = S->de->nerrors;
        const PyParamList *pl = py_func_params(fn);
        if (S->de->nerrors != nerrors) return tv_err();
        const char *internal = internal_param(pl);
        if (internal) {
            sema_error(S, "%s.__init__ is a Triton builtin constructor (it takes '%s'): tritonc runs only __init__ "
                          "written in the kernel language", c->name, internal);
            sema_note_at(S, fn->loc, "'%s.__init__' is defined here", c->name);
            return tv_err();
        }
        int np = pl->len;
        if (np < 1 || pl->items[0].kind != PY_PARAM_NORMAL)
            return sema_error(S, "%s.__init__ must take self as its first parameter", c->name);
        if (np > 64) return sema_error(S, "too many parameters");
        for (int i = 0; i < np; i++)
            if (pl->items[i].kind == PY_PARAM_VARARGS || pl->items[i].kind == PY_PARAM_KWARGS)
                return sema_error(S, "%s.__init__: *args and **kwargs are not supported", c->name);
        if (nargs + 1 > np)
            return sema_error(S, "%s.__init__() takes %d positional argument%s but %d %s given", c->name, np,
                              np == 1 ? "" : "s", nargs + 1, nargs + 1 == 1 ? "was" : "were");
        TV self = {.kind = TV_TUPLE, .n = nf, .elems = elems, .fields = c->fields};
        TV *all = ARENA_ARRAY(S->arena, TV, nargs + 2);
        all[0] = self;
        for (int i = 0; i < nargs; i++) all[i + 1] = args[i];
        TV vals[64];
        bool given[64];
        if (!bind_params(S, fn, all, nargs + 1, kwn, kwv, nkw, vals, given)) return tv_err();
        FuncState *caller = S->fn;
        for (int i = 1; i < np; i++) {
            if (given[i]) continue;
            const PyParam *p = &pl->items[i];
            if (!p->default_value)
                return sema_error(S, "%s.__init__() missing required argument '%s'", c->name, p->name);
            S->fn = NULL; /* defaults are evaluated in the module's scope */
            vals[i] = cg_expr(S, p->default_value);
            S->fn = caller;
            S->loc = call_loc, S->span = call_span, S->span_node = call_span_node;
            if (vals[i].kind == TV_ERR) return vals[i];
        }
        const PyBlock *body = py_func_body(fn);
        if (S->de->nerrors != nerrors) return tv_err();
        if (contains_return(body)) {
            sema_error(S, "%s.__init__ has a `return` statement: tritonc does not support one there", c->name);
            sema_note_at(S, fn->loc, "'%s.__init__' is defined here", c->name);
            return tv_err();
        }
        if (S->depth > 64) return sema_error(S, "recursion too deep while constructing %s", c->name);
        AggInit ai = {.c = c, .self = pl->items[0].name, .elems = elems, .set = set};
        FuncState F = {.pyfn = fn, .func = caller ? caller->func : NULL, .agg_init = &ai};
        vec_reserve(&F.lscope, 16);
        for (int i = 0; i < np; i++) scope_set(&F.lscope, pl->items[i].name, vals[i]);
        S->fn = &F;
        S->depth++;
        visit_block(S, body);
        S->depth--;
        S->fn = caller;
        scope_free(&F.lscope);
        scope_free(&F.defs);
        vec_free(&F.dropped);
        S->loc = call_loc, S->span = call_span, S->span_node = call_span_node;
        if (S->de->nerrors > nerrors) {
            call_note(S, call_loc, c->name);
            if (S->depth == 0) flush_call_note(S);
            return tv_err();
        }
        for (int i = 0; i < nf; i++)
            if (!set[i]) {
                sema_error(S, "constructor for %s did not initialize attribute '%s'", c->name, c->fields[i]);
                sema_note_at(S, fn->loc, "'%s.__init__' is defined here", c->name);
                return tv_err();
            }
    }
    TV r = make_tuple(S, elems, nf);
    r.fields = c->fields;
    for (int i = 0; i < nf; i++)
        if (r.elems[i].kind == TV_ERR) return tv_err();
    return r;
}

/* The @aggregate class a class statement defines (decorated
 * `@tl.core._aggregate`, `@aggregate`, ...), or NULL. */
static AggClass *agg_class(Sema *S, const PyClass *cls) {
    bool agg = false;
    for (int i = 0; i < cls->decorators.len; i++) {
        const char *d = decorator_name(cls->decorators.items[i]);
        if (!strcmp(d, "_aggregate") || !strcmp(d, "aggregate")) agg = true;
    }
    /* class C(NamedTuple) / (typing.NamedTuple): fields are its annotations */
    bool nt = false;
    for (int i = 0; !agg && i < cls->bases.len; i++) {
        const PyExpr *b = cls->bases.items[i];
        const char *bn = b->kind == PY_EXPR_NAME ? b->name : b->kind == PY_EXPR_ATTR ? b->attr.attr : "";
        if (!strcmp(bn, "NamedTuple")) nt = true;
    }
    if (!agg && !nt) return NULL;
    AggClass *c = ARENA_NEW(S->arena, AggClass);
    c->namedtuple = nt;
    c->name = cls->name;
    c->cls = cls;
    const PyBlock *b = &cls->body;
    int nf = 0, nm = 0;
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        if (s->kind == PY_STMT_ANNASSIGN && s->ann.target->kind == PY_EXPR_NAME) nf++;
        if (s->kind == PY_STMT_DEF) nm++;
    }
    c->fields = ARENA_ARRAY(S->arena, const char *, nf + 1);
    c->kinds = ARENA_ARRAY(S->arena, AggFieldKind, nf + 1);
    c->field_cls = ARENA_ARRAY(S->arena, const char *, nf + 1);
    c->methods = ARENA_ARRAY(S->arena, const PyFunc *, nm + 1);
    c->defaults = ARENA_ARRAY(S->arena, const PyExpr *, nf + 1);
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        if (s->kind == PY_STMT_ANNASSIGN && s->ann.target->kind == PY_EXPR_NAME) {
            c->defaults[c->nfields] = s->ann.value;
            const PyExpr *a = s->ann.annotation;
            const char *an = !a ? "" : a->kind == PY_EXPR_NAME ? a->name : a->kind == PY_EXPR_ATTR ? a->attr.attr : "";
            int k = c->nfields++;
            c->fields[k] = s->ann.target->name;
            c->kinds[k] = is_constexpr_annotation(a) ? AGG_F_CONSTEXPR
                          : !strcmp(an, "tensor")    ? AGG_F_TENSOR
                          : a && a->kind == PY_EXPR_NAME ? AGG_F_AGG /* checked against the classes at use */
                                                         : AGG_F_ANY;
            c->field_cls[k] = an;
        } else if (s->kind == PY_STMT_DEF) {
            if (!strcmp(s->func->name, "__init__")) c->init = s->func;
            else c->methods[c->nmethods++] = s->func;
        }
    }
    return c;
}

/* `P = namedtuple("P", ["a", "b"])` (or "a b", "a, b"): a named tuple class
 * of those fields, no defaults; NULL when the call is not of that form. */
static AggClass *namedtuple_call_class(Sema *S, const char *name, const PyExpr *call) {
    if (call->call.args.len < 2 || call->call.nkeywords) return NULL;
    const PyExpr *fe = call->call.args.items[1];
    const char *names[64];
    int nf = 0;
    if (fe->kind == PY_EXPR_LIST || fe->kind == PY_EXPR_TUPLE) {
        for (int i = 0; i < fe->seq.elts.len; i++) {
            const PyExpr *x = fe->seq.elts.items[i];
            if (x->kind != PY_EXPR_STR || nf == 64) return NULL;
            names[nf++] = intern(&S->ctx->strings, x->str.data);
        }
    } else if (fe->kind == PY_EXPR_STR) {
        const char *p = fe->str.data;
        while (*p) {
            while (*p == ' ' || *p == ',') p++;
            const char *q = p;
            while (*q && *q != ' ' && *q != ',') q++;
            if (q > p) {
                if (nf == 64) return NULL;
                names[nf++] = intern_n(&S->ctx->strings, p, (size_t)(q - p));
            }
            p = q;
        }
    } else {
        return NULL;
    }
    AggClass *c = ARENA_NEW(S->arena, AggClass);
    c->name = name;
    c->namedtuple = true;
    c->nfields = nf;
    c->fields = ARENA_ARRAY(S->arena, const char *, nf + 1);
    c->kinds = ARENA_ARRAY(S->arena, AggFieldKind, nf + 1);
    c->field_cls = ARENA_ARRAY(S->arena, const char *, nf + 1);
    c->defaults = ARENA_ARRAY(S->arena, const PyExpr *, nf + 1);
    c->methods = ARENA_ARRAY(S->arena, const PyFunc *, 1);
    for (int i = 0; i < nf; i++) {
        c->fields[i] = names[i];
        c->kinds[i] = AGG_F_ANY;
        c->field_cls[i] = "";
    }
    return c;
}

/* ---- module globals ---------------------------------------------------------- */

/* `class ops(types.ModuleType):` (any base spelled ModuleType): a module's
 * namespace, as the Python binding writes a helper module the kernel reads
 * (`ops.silu(x)`, `ops.SCALE`). Registered with its nested namespaces;
 * returns its TV_MODULE, or an error TV when the class is not one. */
static TV space_register(Sema *S, const PyClass *cls) {
    bool space = false;
    for (int i = 0; i < cls->bases.len; i++) {
        const PyExpr *b = cls->bases.items[i];
        const char *bn = b->kind == PY_EXPR_NAME ? b->name : b->kind == PY_EXPR_ATTR ? b->attr.attr : "";
        space |= !strcmp(bn, "ModuleType");
    }
    if (!space || cls->decorators.len) return tv_err();
    const PyClass **grown = ARENA_ARRAY(S->arena, const PyClass *, S->nspaces + 1);
    if (S->nspaces) memcpy(grown, S->spaces, sizeof(*grown) * (size_t)S->nspaces);
    grown[S->nspaces] = cls;
    S->spaces = grown;
    TV v = {.kind = TV_MODULE, .i = MOD_SPACE + S->nspaces++};
    for (int i = 0; i < cls->body.len; i++)
        if (cls->body.items[i]->kind == PY_STMT_CLASS) space_register(S, cls->body.items[i]->cls);
    return v;
}

/* `ops.NAME`: the value its namespace binds NAME to (the last binding),
 * made where module globals are (the value reads module globals only). */
static TV space_attr(Sema *S, const TV *v, const char *attr) {
    const PyClass *cls = S->spaces[v->i - MOD_SPACE];
    for (int i = cls->body.len - 1; i >= 0; i--) {
        const PyStmt *s = cls->body.items[i];
        if (s->kind == PY_STMT_CLASS && !strcmp(s->cls->name, attr)) {
            for (int k = 0; k < S->nspaces; k++)
                if (S->spaces[k] == s->cls) return (TV){.kind = TV_MODULE, .i = MOD_SPACE + k};
        }
        const PyExpr *t = s->kind == PY_STMT_ASSIGN && s->assign.targets.len == 1 ? s->assign.targets.items[0]
                          : s->kind == PY_STMT_ANNASSIGN                            ? s->ann.target
                                                                                    : NULL;
        const PyExpr *val = s->kind == PY_STMT_ASSIGN ? s->assign.value : s->kind == PY_STMT_ANNASSIGN ? s->ann.value : NULL;
        if (!t || t->kind != PY_EXPR_NAME || !val || strcmp(t->name, attr)) continue;
        FuncState *f0 = S->fn;
        S->fn = NULL;
        TV r = cg_expr(S, val);
        S->fn = f0;
        return r;
    }
    return sema_error(S, "module '%s' has no attribute '%s'", cls->name, attr);
}

static void bind_import(Sema *S, const char *module, const char *name, const char *asname) {
    /* module: dotted path imported; name: for `from M import name` (NULL for `import M`).
     * `tritonc` (the Python binding) is another name for `triton`. */
    if (module && !strncmp(module, "tritonc", 7) && (module[7] == 0 || module[7] == '.'))
        module = arena_printf(S->arena, "triton%s", module + 7);
    StrBuf full = {0};
    if (name) sb_printf(&full, "%s.%s", module ? module : "", name);
    else sb_puts(&full, module);
    const char *path = sb_cstr(&full);
    static const struct { const char *path; int mod; } mods[] = {
        {"triton", MOD_TRITON}, {"triton.language", MOD_TL}, {"triton.language.math", MOD_TL_MATH},
        {"triton.language.extra", MOD_TL_EXTRA}, {"triton.language.extra.cuda", MOD_TL_CUDA},
        {"triton.language.extra.cuda.libdevice", MOD_LIBDEVICE}, {"triton.language.extra.libdevice", MOD_LIBDEVICE},
        {"triton.language.core", MOD_TL_CORE}, {"math", MOD_PYMATH}, {"triton.language.target_info", MOD_TL_TARGET},
        {"triton.language.random", MOD_TL_RANDOM},
    };
    const char *bind = asname;
    if (!name && !asname) {
        /* `import triton.language` binds `triton` */
        const char *dot = strchr(module, '.');
        bind = dot ? intern_n(&S->ctx->strings, module, (size_t)(dot - module)) : module;
        path = bind;
    }
    if (!bind) bind = name;
    bind = intern(&S->ctx->strings, bind); /* `tritonc` made `triton` above */
    for (int i = 0; i < TC_ARRAY_LEN(mods); i++)
        if (!strcmp(mods[i].path, path)) {
            scope_set(&S->globals, bind, (TV){.kind = TV_MODULE, .i = mods[i].mod});
            sb_free(&full);
            return;
        }
    if (name && module) {
        /* from triton.language import program_id / from triton import jit */
        for (int i = 0; i < TC_ARRAY_LEN(mods); i++)
            if (!strcmp(mods[i].path, module)) {
                bool found;
                TV v = builtin_module_attr(S, mods[i].mod, name, &found);
                if (found) scope_set(&S->globals, bind, v);
                break;
            }
    }
    sb_free(&full);
}

/* `triton.jit(f)`, `triton.jit(f, noinline=True)`, `triton.jit(noinline=True)(f)`
 * (Triton's decorator called by hand) on a def of the module: that def as a
 * @jit function; anything else an error TV. */
static TV jit_call_form(Sema *S, const PyExpr *val) {
    if (val->kind != PY_EXPR_CALL || val->call.args.len != 1 || strcmp(decorator_name(val->call.func), "jit"))
        return tv_err();
    const PyExpr *f = val->call.args.items[0];
    TV *def = f->kind == PY_EXPR_NAME ? scope_find(&S->globals, f->name) : NULL;
    if (!def || (def->kind != TV_PYFN && def->kind != TV_JITFN)) return tv_err();
    TV v = *def;
    v.kind = TV_JITFN;
    const PyExpr *calls[2] = {val, val->call.func->kind == PY_EXPR_CALL ? val->call.func : NULL};
    for (int c = 0; c < 2 && calls[c]; c++)
        for (int k = 0; k < calls[c]->call.nkeywords; k++)
            if (calls[c]->call.keywords[k].name && !strcmp(calls[c]->call.keywords[k].name, "noinline"))
                v.noinline = calls[c]->call.keywords[k].value->kind == PY_EXPR_TRUE;
    return v;
}

/* Whether the module binds a name to `triton.jit(fn)` (jit_call_form). */
static bool jit_wrapped(const Sema *S, const PyFunc *fn) {
    for (int i = 0; i < S->globals.len; i++)
        if (S->globals.data[i].val.kind == TV_JITFN && S->globals.data[i].val.fn == fn) return true;
    return false;
}

/* The names a module-level block binds: its assignments, imports and defs,
 * and those of the `if`s in it (either branch), into *names. */
static void collect_bound(Sema *S, const PyBlock *b, Scope *names) {
    collect_assigned(b, names);
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        if (s->kind == PY_STMT_IMPORT || s->kind == PY_STMT_IMPORT_FROM)
            for (int k = 0; k < s->import.len; k++) {
                const PyAlias *al = &s->import.names[k];
                const char *n = al->asname ? al->asname : al->name;
                if (s->kind == PY_STMT_IMPORT && !al->asname) n = intern_n(&S->ctx->strings, n, strcspn(n, "."));
                scope_set(names, intern(&S->ctx->strings, n), tv_none());
            }
        else if (s->kind == PY_STMT_IF) {
            collect_bound(S, &s->cond.body, names);
            collect_bound(S, &s->cond.orelse, names);
        } else if (s->kind == PY_STMT_TRY) {
            collect_bound(S, &s->try.body, names);
            collect_bound(S, &s->try.orelse, names);
            collect_bound(S, &s->try.finalbody, names);
        }
    }
}

/* Whether two globals are the same object to a kernel: the same module,
 * function, dtype or constant, or Triton functions of the same name
 * (libdevice's tanh and tl.math's: the branches of a version check import
 * one function from where each Triton version keeps it). */
static bool tv_same(const TV *a, const TV *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TV_BUILTIN: return a->bi == b->bi || !strcmp(a->bi->name, b->bi->name);
    case TV_MODULE: return a->i == b->i;
    case TV_JITFN:
    case TV_PYFN: return a->fn == b->fn && a->noinline == b->noinline;
    case TV_INT:
    case TV_BOOL: return a->i == b->i && a->u64 == b->u64;
    case TV_FLOAT: return !memcmp(&a->f, &b->f, sizeof a->f);
    case TV_STR: return !strcmp(a->s, b->s);
    case TV_NONE: return true;
    case TV_DTYPE: return a->ty == b->ty;
    default: return false;
    }
}

static void load_globals_block(Sema *S, const PyBlock *body);

/* `__name__ == "__main__"` (either way round) */
static bool is_main_guard(const PyExpr *e) {
    if (e->kind != PY_EXPR_COMPARE || e->compare.n != 1 || e->compare.ops[0] != PY_CMP_EQ) return false;
    const PyExpr *a = e->compare.first, *b = e->compare.rest[0];
    if (a->kind == PY_EXPR_STR) {
        const PyExpr *t = a;
        a = b;
        b = t;
    }
    return a->kind == PY_EXPR_NAME && !strcmp(a->name, "__name__") && b->kind == PY_EXPR_STR &&
           !strcmp(b->str.data, "__main__");
}

/* A module-level `if` binds the names of the branch its condition picks
 * when the condition is known at compile time (`if HAS_X:` of a global
 * constexpr); else (`if os.environ.get(...)`) neither branch can be told
 * apart from here: their names are errors when read (the Python binding
 * binds them from their run-time values). `try` binds what its body, its
 * `else` and its `finally` do: the import that succeeds where Triton is
 * installed (`try: from triton.language.extra.libdevice import tanh`). */
static void load_global_compound(Sema *S, const PyStmt *s) {
    if (s->kind == PY_STMT_TRY) {
        load_globals_block(S, &s->try.body);
        load_globals_block(S, &s->try.orelse);
        load_globals_block(S, &s->try.finalbody);
        return;
    }
    if (is_main_guard(s->cond.test)) { /* a module compiled is imported, never run as a script */
        load_globals_block(S, &s->cond.orelse);
        return;
    }
    bool quiet = S->quiet;
    S->quiet = true;
    TV c = cg_expr(S, s->cond.test);
    S->quiet = quiet;
    if (c.kind == TV_INT || c.kind == TV_BOOL || c.kind == TV_NONE) {
        load_globals_block(S, cx_truthy(&c) ? &s->cond.body : &s->cond.orelse);
        return;
    }
    /* Each branch on its own: a name both leave bound to the same object
     * (tv_same) is that object whichever way Python went (Liger's `if
     * compare_version("triton", ...)` that picks the module to import
     * libdevice's tanh from); any other name either binds is an error when
     * a kernel reads it. */
    Scope before = {0}, taken = {0}, names = {0};
    scope_copy(&before, &S->globals);
    load_globals_block(S, &s->cond.body);
    scope_copy(&taken, &S->globals);
    scope_copy(&S->globals, &before);
    load_globals_block(S, &s->cond.orelse);
    collect_bound(S, &s->cond.body, &names);
    collect_bound(S, &s->cond.orelse, &names);
    for (int i = 0; i < names.len; i++) {
        const char *n = names.data[i].name;
        const TV *a = scope_find(&taken, n), *b = scope_find(&S->globals, n);
        TV v = a && b && tv_same(a, b) ? *a : (TV){.kind = TV_GLOBAL_BAD, .s = n, .i = 2};
        scope_set(&S->globals, n, v); /* (the first branch's, where both are taken) */
    }
    scope_free(&before);
    scope_free(&taken);
    scope_free(&names);
}

static void load_globals(Sema *S, const PyBlock *body) {
    /* A global's value that makes IR (`X = tl.arange(0, 16)`, which Triton
     * cannot even import) goes into a block of its own, never used: there
     * was no block, and making the op crashed. Such a global is a tensor,
     * which a kernel may not read (lookup). */
    Builder saved = S->b;
    S->b = builder_at_end(S->ctx, new_block(S));
    load_globals_block(S, body);
    S->b = saved;
}

static void load_globals_block(Sema *S, const PyBlock *body) {
    for (int i = 0; i < body->len; i++) {
        const PyStmt *s = body->items[i];
        switch (s->kind) {
        case PY_STMT_IMPORT:
            for (int k = 0; k < s->import.len; k++)
                bind_import(S, s->import.names[k].name, NULL, s->import.names[k].asname);
            break;
        case PY_STMT_IMPORT_FROM:
            if (s->import.level == 0)
                for (int k = 0; k < s->import.len; k++)
                    bind_import(S, s->import.module, s->import.names[k].name, s->import.names[k].asname);
            break;
        case PY_STMT_DEF: {
            bool noinline;
            TV v = {.fn = s->func, .s = s->func->name};
            v.kind = is_jit(s->func, &noinline) ? TV_JITFN : TV_PYFN;
            v.noinline = noinline;
            scope_set(&S->globals, s->func->name, v);
            break;
        }
        case PY_STMT_ASSIGN:
        case PY_STMT_ANNASSIGN: {
            const PyExpr *t = s->kind == PY_STMT_ASSIGN ? (s->assign.targets.len == 1 ? s->assign.targets.items[0] : NULL)
                                                         : s->ann.target;
            const PyExpr *val = s->kind == PY_STMT_ASSIGN ? s->assign.value : s->ann.value;
            if (!t || t->kind != PY_EXPR_NAME || !val) break;
            TV wrapped = jit_call_form(S, val);
            if (wrapped.kind == TV_JITFN) {
                scope_set(&S->globals, t->name, wrapped);
                break;
            }
            bool quiet = S->quiet;
            S->quiet = true;
            TV v = cg_expr(S, val);
            S->quiet = quiet;
            /* a builtin is a usable global, as in Triton (`triton_tanh = libdevice.tanh`) */
            if (v.kind == TV_ERR || v.kind == TV_TENSOR || v.kind == TV_METHOD) {
                /* `P = namedtuple("P", ...)` / `collections.namedtuple(...)`: a class */
                const PyExpr *f = val->kind == PY_EXPR_CALL ? val->call.func : NULL;
                const char *fname = !f ? NULL : f->kind == PY_EXPR_NAME ? f->name : f->kind == PY_EXPR_ATTR ? f->attr.attr : NULL;
                bool cls = fname && !strcmp(fname, "namedtuple");
                v = (TV){.kind = TV_GLOBAL_BAD, .s = t->name, .i = cls};
                AggClass *c = cls ? namedtuple_call_class(S, t->name, val) : NULL;
                if (c) {
                    AggClass **grown = ARENA_ARRAY(S->arena, AggClass *, S->naggs + 1);
                    if (S->naggs) memcpy(grown, S->aggs, sizeof(AggClass *) * (size_t)S->naggs);
                    grown[S->naggs] = c;
                    S->aggs = grown;
                    v = (TV){.kind = TV_AGGCLS, .s = t->name, .i = S->naggs++};
                }
            }
            scope_set(&S->globals, t->name, v);
            break;
        }
        case PY_STMT_CLASS: {
            TV space = space_register(S, s->cls);
            if (space.kind == TV_MODULE) {
                scope_set(&S->globals, s->cls->name, space);
                break;
            }
            AggClass *c = agg_class(S, s->cls);
            if (c) {
                AggClass **grown = ARENA_ARRAY(S->arena, AggClass *, S->naggs + 1);
                if (S->naggs) memcpy(grown, S->aggs, sizeof(AggClass *) * (size_t)S->naggs);
                grown[S->naggs] = c;
                S->aggs = grown;
                scope_set(&S->globals, s->cls->name, (TV){.kind = TV_AGGCLS, .s = s->cls->name, .i = S->naggs++});
                break;
            }
            scope_set(&S->globals, s->cls->name, (TV){.kind = TV_GLOBAL_BAD, .s = s->cls->name, .i = 1});
            break;
        }
        case PY_STMT_IF:
        case PY_STMT_TRY: load_global_compound(S, s); break;
        default: break;
        }
    }
}

/* ---- the entry point ------------------------------------------------------------ */

/* The end of the signature entry at p: the next comma outside brackets
 * (`tensordesc<fp16[64, 64]>` and a tuple's `(*fp32,i32)` hold commas), the
 * `)` closing the tuple the entry is in, or the end of the string. */
static const char *sig_entry_end(const char *p) {
    int depth = 0;
    for (; *p; p++) {
        if (*p == '[' || *p == '<' || *p == '(') depth++;
        else if ((*p == ']' || *p == '>' || *p == ')') && depth > 0) depth--;
        else if ((*p == ',' || *p == ')') && depth == 0) return p;
    }
    return p;
}

/* The value of one signature entry s[0..len) for parameter pname: a type
 * with an optional hint (`*fp32:16`, `i32:1`: the constant 1), `none`, or
 * a parenthesised tuple of entries (Triton's tuple arguments), whose
 * leaves are the kernel's arguments in order. Tensors count in *nargs;
 * `:16` puts tt.divisibility in attrs. */
static TV sig_value(Sema *S, const char *s, size_t len, const char *pname, int *nargs, Attr **attrs) {
    while (len && *s == ' ') s++, len--;
    while (len && s[len - 1] == ' ') len--;
    if (len && *s == '(') {
        if (s[len - 1] != ')')
            return sema_error(S, "unbalanced parentheses in the signature entry '%.*s' for parameter '%s'", (int)len,
                              s, pname);
        VEC(TV) elems = {0};
        VEC(const char *) names = {0};
        const char *q = s + 1, *qend = s + len - 1;
        bool bad = false;
        while (q < qend) {
            const char *e = sig_entry_end(q);
            if (e > qend) e = qend;
            /* a NamedTuple's element: `name=entry` */
            const char *f = q;
            while (f < e && *f == ' ') f++;
            const char *g = f;
            while (g < e && (isalnum((unsigned char)*g) || *g == '_')) g++;
            const char *name = NULL;
            if (g > f && g < e && *g == '=' && !isdigit((unsigned char)*f)) {
                name = intern_n(&S->ctx->strings, f, (size_t)(g - f));
                q = g + 1;
            }
            if ((names.len || elems.len) && (name != NULL) != (names.len == elems.len)) {
                bad = true;
                sema_error(S, "the tuple entry '%.*s' for parameter '%s' names some of its elements and not others",
                           (int)len, s, pname);
            }
            for (int k = 0; name && k < names.len; k++)
                if (names.data[k] == name) { /* (interned) */
                    bad = true;
                    sema_error(S, "the tuple entry '%.*s' for parameter '%s' names '%s' twice", (int)len, s, pname, name);
                }
            if (name) vec_push(&names, name);
            TV v = sig_value(S, q, (size_t)(e - q), pname, nargs, attrs);
            bad |= v.kind == TV_ERR;
            vec_push(&elems, v);
            q = e < qend ? e + 1 : e;
        }
        TV t = bad ? tv_err() : make_tuple(S, elems.data, elems.len);
        if (!bad && names.len)
            t.fields = arena_dup(S->arena, names.data, sizeof(const char *) * (size_t)names.len);
        vec_free(&elems);
        vec_free(&names);
        return t;
    }
    if (len == 4 && !strncmp(s, "none", 4)) return tv_none();
    if (len > 3 && !strncmp(s, "cx:", 3)) {
        /* a constexpr leaf of a tuple argument (`(tl.constexpr(4), x)`, a
         * @jit function): its -D text, in hex so that no character of it
         * means anything to the signature's syntax */
        size_t hn = len - 3;
        char *text = hn % 2 == 0 ? arena_alloc(S->arena, hn / 2 + 1) : NULL;
        for (size_t k = 0; text && k < hn / 2; k++) {
            int v = 0;
            for (int d = 0; d < 2; d++) {
                char c = s[3 + 2 * k + (size_t)d];
                int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                if (x < 0) text = NULL;
                v = v * 16 + (x < 0 ? 0 : x);
            }
            if (text) text[k] = (char)v;
        }
        ConstexprValue cv;
        const char *why = NULL;
        if (!text || (text[hn / 2] = 0, !sema_parse_constexpr(S->arena, text, &cv, &why)))
            return sema_error(S, "bad constexpr entry '%.*s' in the signature for parameter '%s'%s%s", (int)len, s,
                              pname, why ? ": " : "", why ? why : "");
        return cx_from_value(S, &cv);
    }
    const char *colon = memchr(s, ':', len);
    size_t tlen = colon ? (size_t)(colon - s) : len;
    while (tlen && s[tlen - 1] == ' ') tlen--;
    const TlType *t = tl_parse_sig(S, s, tlen);
    int hint = colon ? atoi(colon + 1) : 0;
    if (!t) return sema_error(S, "unknown type '%.*s' in the signature for parameter '%s'", (int)tlen, s, pname);
    if (colon && hint != 1 && hint != 16)
        return sema_error(S, "Only 1 and 16 are valid hints, got %d (parameter '%s')", hint, pname);
    if (hint == 1 && tl_is_int(t)) return tv_int(1); /* specialised: an int equal to 1 is a constexpr */
    if (hint == 16) { /* (the same dictionary for every such argument: made once) */
        if (!S->div16_attrs) {
            NamedAttr na = {attr_names[AN_TT_DIVISIBILITY], sema_attr_i32(S, 16)};
            S->div16_attrs = attr_dict(S->ctx, &na, 1);
        }
        attrs[*nargs] = S->div16_attrs;
    }
    (*nargs)++;
    return (TV){.kind = TV_TENSOR, .ty = t};
}

/* `tensordesc<ELEM[B0, B1, ...]>` or `tensordesc<ELEM[...],nan>`: a host
 * TensorDescriptor (Triton's signature spelling), with `:16` after it when
 * the last dimension's size is a multiple of 16. False if malformed. */
static bool parse_host_desc(Sema *S, const char *s, size_t n, HostDesc *out) {
    const char *end = s + n;
    out->last_div16 = n > 3 && !strncmp(end - 3, ":16", 3);
    if (out->last_div16) {
        end -= 3;
        while (end > s && end[-1] == ' ') end--;
        n = (size_t)(end - s);
    }
    if (n < 12 || strncmp(s, "tensordesc<", 11) || end[-1] != '>') return false;
    const char *e = s + 11, *lb = memchr(e, '[', (size_t)(end - e));
    if (!lb) return false;
    size_t tl = (size_t)(lb - e);
    while (tl && e[tl - 1] == ' ') tl--;
    out->elem = tl_parse_sig(S, e, tl);
    if (!out->elem || tl_is_ptr(out->elem)) return false;
    out->rank = 0;
    const char *q = lb + 1;
    for (;;) {
        while (*q == ' ') q++;
        char *qe;
        long long v = strtoll(q, &qe, 10);
        if (qe == q || v <= 0 || out->rank >= TL_MAX_RANK) return false;
        out->block[out->rank++] = v;
        q = qe;
        while (*q == ' ') q++;
        if (*q == ']') break;
        if (*q != ',') return false;
        q++;
    }
    q++;
    while (*q == ' ') q++;
    out->nan_pad = false;
    if (*q == ',') {
        q++;
        while (*q == ' ') q++;
        if (!strncmp(q, "nan", 3)) out->nan_pad = true, q += 3;
        else if (!strncmp(q, "zero", 4)) q += 4;
        else return false;
        while (*q == ' ') q++;
    }
    return q == end - 1;
}

Op *sema_codegen(Context *ctx, DiagEngine *de, const PyModule *mod, const KernelSpec *spec) {
    Sema S0 = {0}, *S = &S0;
    S->ctx = ctx;
    S->de = de;
    S->arena = ctx->arena;
    S->mod = mod;
    S->debug = spec->debug;
    S->target_sm = spec->target_sm;
    S->num_warps = spec->num_warps > 0 ? spec->num_warps : 4;
    Loc mloc = {mod->filename, 1, 1};
    S->loc = mloc;
    int nerr0 = de->nerrors;
    S->module = module_create(ctx, mloc);
    load_globals(S, &mod->body);
    if (!spec->kernel || !*spec->kernel) {
        sema_error(S, "no kernel name given (--kernel NAME)");
        goto done;
    }
    const PyFunc *fn = find_def(&mod->body, spec->kernel);
    if (!fn) { /* `add_kernel = triton.jit(_add)`: the function it wraps */
        const TV *bound = scope_find(&S->globals, intern(&S->ctx->strings, spec->kernel));
        if (bound && bound->kind == TV_JITFN) fn = bound->fn;
    }
    if (!fn) {
        /* (at the file: load_globals left the location at the last global
         * it read, `BLOCK = 16` say, which has nothing to do with it) */
        S->loc = mloc;
        S->span = 0;
        S->span_node = NULL;
        const char *best = NULL;
        int bestd = 99;
        for (int i = 0; i < S->globals.len; i++)
            if (S->globals.data[i].val.kind == TV_JITFN) sema_suggest(spec->kernel, S->globals.data[i].name, &best, &bestd);
        if (best) sema_error(S, "no function named '%s' in %s; did you mean '%s'?", spec->kernel, mod->filename, best);
        else sema_error(S, "no function named '%s' in %s", spec->kernel, mod->filename);
        goto done;
    }
    bool noinline;
    if (!is_jit(fn, &noinline) && !jit_wrapped(S, fn)) {
        S->loc = fn->loc;
        sema_error(S, "'%s' is not a @triton.jit function", fn->name);
        goto done;
    }
    /* specialisation: constexpr params from -D or defaults; the others from the signature */
    int nerrors = S->de->nerrors;
    int np = py_func_params(fn)->len; /* (parsed here if py_parse_lazy left it) */
    if (S->de->nerrors != nerrors) goto done;
    TV *vals = ARENA_ARRAY(S->arena, TV, np + 1);
    bool *used_d = ARENA_ARRAY(S->arena, bool, spec->nconstexprs + 1);
    const char *sig = spec->signature ? spec->signature : "";
    int maxargs = np + 1; /* the kernel's arguments: tuples' leaves each count */
    for (const char *c = sig; *c; c++) maxargs += *c == ',';
    Attr **attrs = ARENA_ARRAY(S->arena, Attr *, maxargs);
    int nsig = 0, nparams_rt = 0, nargs = 0;
    for (const char *p = sig; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        nsig++;
        p = sig_entry_end(p);
        if (!*p) break;
        p++;
    }
    /* the -D names, interned as the parameters' names are */
    const char **cx_names = ARENA_ARRAY(S->arena, const char *, spec->nconstexprs + 1);
    for (int k = 0; k < spec->nconstexprs; k++) cx_names[k] = intern(&S->ctx->strings, spec->constexpr_names[k]);
    S->host_desc = ARENA_ARRAY(S->arena, HostDesc *, np + 1);
    memset(S->host_desc, 0, sizeof(HostDesc *) * (size_t)(np + 1));
    const char *sp = sig;
    for (int i = 0; i < np; i++) {
        const PyParam *p = &fn->params.items[i];
        S->loc = p->loc;
        S->span = (int)strlen(p->name);
        S->span_node = NULL;
        if (p->kind != PY_PARAM_NORMAL && p->kind != PY_PARAM_POSONLY && p->kind != PY_PARAM_KWONLY) {
            sema_error(S, "*args and **kwargs are not supported in kernels");
            vals[i] = tv_err();
            continue;
        }
        int d = -1;
        for (int k = 0; k < spec->nconstexprs; k++)
            if (cx_names[k] == p->name) d = k;
        if (d >= 0) used_d[d] = true;
        /* the corpus spells a specialised integer as a `constexpr` entry */
        while (*sp == ' ') sp++;
        bool sig_cx = !strncmp(sp, "constexpr", 9) && (sp[9] == ',' || sp[9] == 0 || sp[9] == ' ');
        if (sig_cx && !is_constexpr_annotation(p->annotation)) {
            nparams_rt++;
            const char *e2 = strchr(sp, ',');
            sp = e2 ? e2 + 1 : sp + strlen(sp);
            if (d < 0) {
                vals[i] = sema_error(S, "parameter '%s' is `constexpr` in the signature but has no value: pass -D %s=VALUE",
                                     p->name, p->name);
                continue;
            }
        }
        if (is_constexpr_annotation(p->annotation) || d >= 0) {
            if (d >= 0) vals[i] = cx_from_value(S, &spec->constexpr_values[d]);
            else if (p->default_value) {
                FuncState *f0 = S->fn;
                S->fn = NULL;
                vals[i] = cg_expr(S, p->default_value);
                S->fn = f0;
            } else {
                vals[i] = sema_error(S, "constexpr parameter '%s' has no value: pass -D %s=VALUE", p->name, p->name);
            }
            continue;
        }
        nparams_rt++;
        /* next signature entry */
        while (*sp == ' ') sp++;
        if (!*sp) {
            vals[i] = tv_err();
            continue;
        }
        const char *end = sig_entry_end(sp);
        size_t len = (size_t)(end - sp);
        if (!*end) end = NULL;
        if (!strncmp(sp, "tensordesc<", 11)) {
            HostDesc *hd = ARENA_NEW(S->arena, HostDesc);
            size_t dl = len;
            while (dl && sp[dl - 1] == ' ') dl--;
            if (!parse_host_desc(S, sp, dl, hd)) {
                sema_error(S, "bad tensor descriptor type '%.*s' for parameter '%s' (expected tensordesc<fp16[64, 64]>, "
                              "optionally followed by :16)",
                           (int)dl, sp, p->name);
                vals[i] = tv_err();
            } else {
                S->host_desc[i] = hd;
                vals[i] = (TV){.kind = TV_TENSOR, .ty = tl_ptr(S, tl_scalar(S, TL_I64))};
                nargs++;
            }
            sp = end ? end + 1 : sp + len;
            continue;
        }
        vals[i] = sig_value(S, sp, len, p->name, &nargs, attrs);
        if (is_const_annotation(p->annotation) && vals[i].kind == TV_TENSOR && tl_is_ptr(vals[i].ty))
            vals[i].ty = tl_ptr_const(S, vals[i].ty->elem);
        sp = end ? end + 1 : sp + len;
    }
    S->loc = fn->name_loc;
    S->span = (int)strlen(fn->name);
    S->span_node = NULL;
    if (nsig != nparams_rt)
        sema_error(S, "the signature has %d entr%s but '%s' has %d parameter%s that %s not tl.constexpr", nsig,
                   nsig == 1 ? "y" : "ies", fn->name, nparams_rt, nparams_rt == 1 ? "" : "s",
                   nparams_rt == 1 ? "is" : "are");
    for (int k = 0; k < spec->nconstexprs; k++)
        /* a module global the kernel reads may be named too (the Python
         * binding passes the constexpr globals it sees); the source's own
         * definition is the one used */
        if (!used_d[k] && !scope_find(&S->globals, cx_names[k]))
            sema_error(S, "-D %s: '%s' has no parameter of that name", spec->constexpr_names[k], fn->name);
    if (diag_has_errors(de) && de->nerrors > nerr0) goto done;
    FuncState F = {0};
    gen_function(S, &F, fn, vals, np, fn->name, true, false, attrs);
    /* No module attributes: Triton's TTIR module has none ("ttg.num-warps"
     * and friends appear with the conversion to ttg, which takes them from
     * the compile options). */
done:
    scope_free(&S->globals);
    map_free(&S->tltypes);
    map_free(&S->fn_ret);
    map_free(&S->mod_attrs);
    map_free(&S->bi_params);
    map_free(&S->assigned);
    map_free(&S->const_ops);
    if (de->nerrors > nerr0) return NULL;
    return S->module;
}

TV sema_global_jit_fn(Sema *S, const char *name) {
    TV *v = scope_find(&S->globals, intern(&S->ctx->strings, name));
    if (v && v->kind == TV_JITFN) return *v;
    return sema_error(S, "a constexpr argument names the @jit function '%s', which the source does not define", name);
}

TV cg_inline_jit(Sema *S, const TV *fn, const TV *args, int nargs) {
    return cg_call_jit(S, fn, args, nargs, NULL, NULL, 0, true);
}

