/*
 * canonicalize.c - folding and canonical forms (`canonicalize`).
 *
 * A worklist driver in the manner of MLIR's greedy rewriter. A first sweep
 * visits every op of every function in program order (definitions before
 * uses); then a worklist holds what the visits queued. Visiting an op, the
 * driver tries, in turn:
 *
 *  1. erasing it if it is dead (pure, results unused);
 *  2. for a constant: hoisting it to the top of its function's entry block
 *     and merging it with an equal constant already there;
 *  3. the rewrites of this file, which change the IR in place: constants to
 *     the right of commutative ops (and of cmpi, flipping the predicate),
 *     ext of ext, broadcast/expand_dims/reshape of a tt.splat, scf.if on a
 *     constant condition (the taken branch is inlined), scf.for that runs
 *     zero times (replaced by its inits);
 *  4. generic folds read from the table's flags: f(f(x)) = x for
 *     INVOLUTION ops, f(f(x)) = f(x) for unary and x op x = x for binary
 *     IDEMPOTENT ops;
 *  5. the op's folder (the `fold` column, src/dialect/fold.c): the result
 *     becomes a constant (materialised once per function, at the top) or an
 *     existing value.
 *
 * Whatever a change can affect goes back on the list: the users of a
 * replaced value (they may fold now) and the definitions of an erased op's
 * operands (they may be dead now). Each op is re-queued only when something
 * it reads changed, so the whole pass is linear in practice and stops at a
 * fixpoint. Constants are keyed by (scope block, uniqued Attr*), so finding
 * an equal constant is one hash lookup.
 */
#include "dialect/dialect.h"
#include "transform/pass.h"

/* Op marks carry this run's epoch above two flag bits, so marks left by
 * earlier runs (or other passes) read as clear without a walk to reset
 * them. */
enum { MARK_QUEUED = 1, MARK_ERASED = 2 };

typedef struct Canon {
    Context *c;
    int epoch;
    int changes;
    VEC(Op *) work;
    Map consts;  /* hash(scope block, attr) -> arith.constant op */
    Map last;    /* scope block -> the last constant hoisted into it */
} Canon;

static int get_mark(Canon *s, Op *op) { return (op->mark >> 2) == s->epoch ? op->mark & 3 : 0; }
static void set_mark(Canon *s, Op *op, int bits) { op->mark = (s->epoch << 2) | bits; }
static bool is_erased(Canon *s, Op *op) { return get_mark(s, op) & MARK_ERASED; }

static void push(Canon *s, Op *op) {
    if (!op || (get_mark(s, op) & (MARK_QUEUED | MARK_ERASED))) return;
    set_mark(s, op, MARK_QUEUED);
    vec_push(&s->work, op);
}

static void push_users(Canon *s, Value *v) {
    for (Use *u = v->uses; u; u = u->next) push(s, u->owner);
}

static void mark_erased(Op *op, void *ud) { set_mark(ud, op, MARK_ERASED); }

static void erase(Canon *s, Op *op) {
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        if (v && v->def) push(s, v->def);
    }
    op_walk(op, mark_erased, s, false);
    op_erase(op);
    s->changes++;
}

/* Replaces result i of op by v everywhere, queueing the users. */
static void replace(Canon *s, Op *op, int i, Value *v) {
    push_users(s, &op->results[i]);
    value_replace_all_uses(&op->results[i], v);
}

/* ---- constants -------------------------------------------------------------------- */

/* The block constants of op's function hoist to: the entry block of the
 * nearest enclosing isolated region (tt.func), or of a tt.reduce/tt.scan
 * combiner, whose regions Triton keeps self-contained. */
static Block *const_scope(Op *op) {
    for (Op *cur = op;;) {
        Op *p = op_parent_op(cur);
        if (!p || op_has_flag(p, OPF_ISOLATED) || p->kind == TT_REDUCE || p->kind == TT_SCAN)
            return p ? region_entry(cur->parent->parent) : cur->parent;
        cur = p;
    }
}

static uint64_t const_key(Block *scope, Attr *a) {
    return hash_combine(MAP_KEY(scope), MAP_KEY(a)) | 1;
}

/* The op in scope holding constant `a`, if there is still one. */
static Op *find_const(Canon *s, Block *scope, Attr *a) {
    Op *k = map_get(&s->consts, const_key(scope, a));
    if (k && !is_erased(s, k) && k->parent == scope && op_attr(k, "value") == a) return k;
    return NULL;
}

/* Places constant op at the end of the constants at the top of scope. */
static void place_const(Canon *s, Block *scope, Op *op) {
    Op *last = map_get(&s->last, MAP_KEY(scope));
    if (last && (is_erased(s, last) || last->parent != scope)) last = NULL;
    if (last) {
        if (last->next != op) {
            if (op->parent) op_unlink(op);
            op_insert_after(last, op);
        }
    } else if (scope->first != op) {
        if (op->parent) op_unlink(op);
        if (scope->first) op_insert_before(scope->first, op);
        else block_append(scope, op);
    }
    map_put(&s->last, MAP_KEY(scope), op);
    map_put(&s->consts, const_key(scope, op_attr(op, "value")), op);
}

static void hoist_const(Canon *s, Op *op) {
    Attr *a = op_attr(op, "value");
    if (!a) return;
    Block *scope = const_scope(op);
    Op *k = find_const(s, scope, a);
    if (k == op) return;
    if (k) {
        replace(s, op, 0, op_result(k, 0));
        erase(s, op);
        return;
    }
    place_const(s, scope, op);
}

/* A constant with value a, for use by `user` (one per function). */
static Value *materialize(Canon *s, Op *user, Attr *a) {
    Block *scope = const_scope(user);
    Op *k = find_const(s, scope, a);
    if (k) return op_result(k, 0);
    Type *t = a->type;
    k = op_create(s->c, ARITH_CONSTANT, user->loc, NULL, 0, &t, 1, 0);
    op_set_attr(s->c, k, "value", a);
    place_const(s, scope, k);
    return op_result(k, 0);
}

/* ---- in-place rewrites ------------------------------------------------------------- */

static const int cmpi_swapped[CMPI_COUNT] = {
    [CMPI_EQ] = CMPI_EQ,   [CMPI_NE] = CMPI_NE,   [CMPI_SLT] = CMPI_SGT, [CMPI_SLE] = CMPI_SGE,
    [CMPI_SGT] = CMPI_SLT, [CMPI_SGE] = CMPI_SLE, [CMPI_ULT] = CMPI_UGT, [CMPI_ULE] = CMPI_UGE,
    [CMPI_UGT] = CMPI_ULT, [CMPI_UGE] = CMPI_ULE};

static void swap_operands(Op *op) {
    Value *a = op_operand(op, 0), *b = op_operand(op, 1);
    op_set_operand(op, 0, b);
    op_set_operand(op, 1, a);
}

/* c op x -> x op c for commutative ops, and cmpi with the predicate
 * mirrored, so folders and CSE see one form. */
static bool canonical_order(Canon *s, Op *op) {
    if (op->noperands != 2 || !value_const(op_operand(op, 0)) || value_const(op_operand(op, 1)))
        return false;
    if (op_has_flag(op, OPF_COMMUTATIVE)) {
        swap_operands(op);
    } else if (op->kind == ARITH_CMPI) {
        int64_t p;
        if (!op_attr_int(op, "predicate", &p) || p < 0 || p >= CMPI_COUNT) return false;
        Attr *pa = op_attr(op, "predicate");
        op_set_attr(s->c, op, "predicate", attr_int(s->c, pa->type, cmpi_swapped[p]));
        swap_operands(op);
    } else {
        return false;
    }
    return true;
}

/* extsi(extsi x) -> extsi x, extui(extui x) -> extui x, extsi(extui x) ->
 * extui x (the middle value is non-negative), and truncations of an ext to
 * a width between the two. */
static bool fold_ext_chain(Op *op) {
    Value *x = op_operand(op, 0);
    Op *d = x->def;
    if (!d) return false;
    bool is_ext = op->kind == ARITH_EXTSI || op->kind == ARITH_EXTUI;
    if (is_ext && (d->kind == ARITH_EXTSI || d->kind == ARITH_EXTUI) &&
        (d->kind == op->kind || d->kind == ARITH_EXTUI)) {
        op->kind = d->kind;
        op_set_operand(op, 0, op_operand(d, 0));
        return true;
    }
    if (op->kind == ARITH_TRUNCI && (d->kind == ARITH_EXTSI || d->kind == ARITH_EXTUI)) {
        int w0 = ty_elem(op_operand(d, 0)->type)->width, w = ty_elem(op->results[0].type)->width;
        if (w > w0) op->kind = d->kind;       /* trunc(ext x): still an ext of x */
        else if (w == w0) return false;        /* the folder returns x */
        op_set_operand(op, 0, op_operand(d, 0)); /* or a trunc of x */
        return true;
    }
    return false;
}

/* broadcast / expand_dims / reshape of (tt.splat x) -> tt.splat x. */
static bool splat_through_shape(Op *op) {
    Op *d = op_operand(op, 0)->def;
    if (!d || d->kind != TT_SPLAT) return false;
    if (op->kind != TT_BROADCAST && op->kind != TT_EXPAND_DIMS && op->kind != TT_RESHAPE) return false;
    op->kind = TT_SPLAT;
    op->nattrs = 0;
    op_set_operand(op, 0, op_operand(d, 0));
    return true;
}

/* scf.if with a constant condition: the taken region's ops move before
 * the if, its scf.yield operands replace the results. */
static bool inline_const_if(Canon *s, Op *op) {
    int64_t cond;
    Attr *ca = value_const(op_operand(op, 0));
    if (!ca || !attr_as_int(ca, &cond)) return false;
    Block *b = region_entry(&op->regions[cond ? 0 : 1]);
    if (!b) {
        if (op->nresults) return false;
        erase(s, op);
        return true;
    }
    Op *y = block_terminator(b);
    if (!y || y->noperands != op->nresults) return false;
    for (Op *o = b->first, *next; o && o != y; o = next) {
        next = o->next;
        op_unlink(o);
        op_insert_before(op, o);
        push(s, o);
    }
    for (int i = 0; i < op->nresults; i++) replace(s, op, i, op_operand(y, i));
    erase(s, op);
    return true;
}

/* scf.for whose constant bounds give zero iterations: its results are its
 * inits. */
static bool remove_empty_for(Canon *s, Op *op) {
    int64_t lb, ub;
    if (!attr_as_int(value_const(op_operand(op, 0)), &lb) || !attr_as_int(value_const(op_operand(op, 1)), &ub))
        return false;
    if (!value_const(op_operand(op, 0)) || !value_const(op_operand(op, 1))) return false;
    int w = ty_is_int(op_operand(op, 0)->type) ? op_operand(op, 0)->type->width : 64;
    bool empty = op_attr(op, "unsignedCmp") ? int_wrap_u(lb, w) >= int_wrap_u(ub, w)
                                            : int_wrap(lb, w) >= int_wrap(ub, w);
    if (!empty || op->nresults != op->noperands - 3) return false;
    for (int i = 0; i < op->nresults; i++) replace(s, op, i, op_operand(op, 3 + i));
    erase(s, op);
    return true;
}

static bool rewrite(Canon *s, Op *op) {
    /* an in-place rewrite may leave the old operand's definition dead */
    Op *old_def = op->noperands ? op_operand(op, 0)->def : NULL;
    switch (op->kind) {
    case SCF_IF: return inline_const_if(s, op);
    case SCF_FOR: return remove_empty_for(s, op);
    case ARITH_EXTSI:
    case ARITH_EXTUI:
    case ARITH_TRUNCI:
        if (!fold_ext_chain(op)) return false;
        break;
    case TT_BROADCAST:
    case TT_EXPAND_DIMS:
    case TT_RESHAPE:
        if (!splat_through_shape(op)) return false;
        break;
    default:
        if (!canonical_order(s, op)) return false;
        break;
    }
    /* changed in place: look at it again */
    s->changes++;
    push(s, op);
    push(s, old_def);
    return true;
}

/* ---- folding -------------------------------------------------------------------------- */

/* Folds read from the flags column alone. */
static Value *fold_by_flags(Op *op) {
    if (op->nresults != 1) return NULL;
    Value *x = op->noperands ? op_operand(op, 0) : NULL;
    if (op->noperands == 1 && x->def && x->def->kind == op->kind && x->def->nattrs == 0 && op->nattrs == 0) {
        if (op_has_flag(op, OPF_INVOLUTION)) return op_operand(x->def, 0);
        if (op_has_flag(op, OPF_IDEMPOTENT)) return x;
    }
    if (op->noperands == 2 && op_has_flag(op, OPF_IDEMPOTENT) && x == op_operand(op, 1)) return x;
    return NULL;
}

static bool try_fold(Canon *s, Op *op) {
    Value *v = fold_by_flags(op);
    OpFoldFn fn = op_info_of(op)->fold;
    Attr *cs_small[8], *out_small[4];
    Attr **cs = cs_small, **out = out_small;
    bool folded = v != NULL;
    if (!folded && fn && op->nresults > 0) {
        if (op->noperands > 8) cs = tc_malloc(sizeof(Attr *) * (size_t)op->noperands);
        if (op->nresults > 4) out = tc_calloc((size_t)op->nresults, sizeof(Attr *));
        for (int i = 0; i < op->noperands; i++) cs[i] = value_const(op_operand(op, i));
        for (int i = 0; i < op->nresults && i < 4; i++) out[i] = NULL;
        folded = fn(s->c, op, cs, out, &v);
        if (folded && !v)
            for (int i = 0; i < op->nresults; i++)
                if (!out[i] || out[i]->type != op->results[i].type) folded = false;
    }
    if (folded && v && (op->nresults != 1 || v->type != op->results[0].type)) folded = false;
    if (folded) {
        if (v) {
            replace(s, op, 0, v);
        } else {
            for (int i = 0; i < op->nresults; i++) replace(s, op, i, materialize(s, op, out[i]));
        }
        erase(s, op);
    }
    if (cs != cs_small) tc_free(cs);
    if (out != out_small) tc_free(out);
    return folded;
}

static void visit(Canon *s, Op *op) {
    if (is_erased(s, op) || !op->parent) return;
    if (op_is_trivially_dead(op)) {
        erase(s, op);
        return;
    }
    if (op->kind == ARITH_CONSTANT) {
        hoist_const(s, op);
        return;
    }
    if (rewrite(s, op)) return;
    try_fold(s, op);
}

/* The first sweep: every op once, in program order (a visit erases or
 * moves only the op itself and what it contains, so `next` stays valid);
 * what the visits queue waits for the worklist. */
static void sweep(Canon *s, Block *b) {
    for (Op *op = b->first, *next; op; op = next) {
        next = op->next;
        op_prefetch(op, OP_PREFETCH_DIST);
        visit(s, op);
        if (is_erased(s, op) || !op->parent) continue;
        for (int r = 0; r < op->nregions; r++)
            for (Block *ib = op->regions[r].first; ib; ib = ib->next) sweep(s, ib);
    }
}

bool pass_canonicalize(Op *module, PassContext *pc) {
    static _Atomic unsigned epochs;
    Canon s = {.c = pc->ctx, .epoch = (int)(++epochs & 0xfffffff) + 1};
    for (Op *f = module_body(module)->first; f; f = f->next)
        for (int r = 0; r < f->nregions; r++)
            for (Block *b = f->regions[r].first; b; b = b->next) sweep(&s, b);
    while (s.work.len) {
        Op *op = vec_pop(&s.work);
        set_mark(&s, op, get_mark(&s, op) & ~MARK_QUEUED);
        visit(&s, op);
    }
    vec_free(&s.work);
    map_free(&s.consts);
    map_free(&s.last);
    pc->changes += s.changes;
    return true;
}
