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
 *     zero times (replaced by its inits), and MLIR's arith patterns that
 *     gather two integer constants into one: (x + c0) + c1 -> x + (c0+c1)
 *     and the seven addi/subi variants, (x * c0) * c1 -> x * (c0*c1);
 *     xori(cmpi p a b, true) -> cmpi !p a b; reshape(reshape x) -> reshape
 *     x; and Triton's combine pattern addf/addi(dot(a, b, 0), d) -> dot(a, b,
 *     d) (the dot used only there), and addptr(addptr(p, a), b) -> addptr(p,
 *     a + b) for i64 offsets; scf.for iter_args yielded back unchanged
 *     become their init (dce then drops them);
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
 * fixpoint; an op queued before the sweep reached it and not queued again
 * since is not visited again (MARK_SWEPT). Constants are kept per scope
 * block, by uniqued Attr*, so finding an equal constant is one hash lookup.
 */
#include "dialect/dialect.h"

#include <math.h>
#include "transform/pass.h"

/* Op marks carry this run's epoch above three flag bits, complemented:
 * the other passes and the verifier leave non-negative marks (numbers in a
 * block, seen bits) and new ops have 0, so a negative mark is one a run of
 * this pass left, and only this run's epoch reads as set. (No walk to
 * clear the marks first: epochs are unique to a run until 2^27 runs.)
 *
 * MARK_SWEPT: the op is queued, and the sweep visited it after it was
 * queued, and nothing has queued it since. Most ops the worklist holds
 * after the sweep are such: users queued by a change to their operands
 * before the sweep reached them. Visiting one again would find what the
 * sweep found (what a visit reads changes only with a change that queues
 * the op), and the worklist passes over it. (Not for ops with regions,
 * whose bodies the sweep visits after them, nor for ops reading a tt.dot,
 * whose pattern reads how many users the dot has.) */
enum { MARK_QUEUED = 1, MARK_ERASED = 2, MARK_SWEPT = 4 };

/* The constants hoisted into one scope block (a function's entry). */
typedef struct ConstScope {
    Block *block;
    Map consts; /* uniqued Attr* -> the arith.constant op holding it */
    Op *last;   /* the last constant hoisted into the block */
} ConstScope;

/* A fold of a unary op of a constant to a constant (see try_fold). */
typedef struct UnaryFold {
    OpKind kind;
    Attr *in;
    Type *type;
    Attr *out;
} UnaryFold;

typedef struct Canon {
    Context *c;
    int epoch;
    int changes;
    VEC(Op *) work;
    VEC(ConstScope *) scopes; /* one per function, as met */
    ConstScope *cur;          /* the one asked for last */
    Block *scope_from, *scope; /* const_scope's last answer, and the block asked from */
    UnaryFold unary[64];
} Canon;

static int get_mark(Canon *s, Op *op) { return op->mark < 0 && (~op->mark >> 3) == s->epoch ? ~op->mark & 7 : 0; }
static void set_mark(Canon *s, Op *op, int bits) { op->mark = ~((s->epoch << 3) | bits); }
static bool is_erased(Canon *s, Op *op) { return get_mark(s, op) & MARK_ERASED; }

/* (push, splat_through_shape and int_const are forced inline: small, and
 * asked of most ops visited, where a call's frame cost more than they do) */
static ALWAYS_INLINE void push(Canon *s, Op *op) {
    if (!op) return;
    int m = get_mark(s, op);
    if (m & (MARK_QUEUED | MARK_ERASED)) {
        if (m & MARK_SWEPT) set_mark(s, op, m & ~MARK_SWEPT); /* (queued again since the sweep) */
        return;
    }
    set_mark(s, op, MARK_QUEUED);
    vec_push(&s->work, op);
}

/* Whether an operand of op is a tt.dot's result (see MARK_SWEPT). */
static inline bool is_dot_result(const Value *v) { return v->def && v->def->kind == TT_DOT; }

static bool reads_dot(const Op *op) {
    if (op->noperands == 2) /* (most ops asked: no loop) */
        return is_dot_result(op->operands[0].value) || is_dot_result(op->operands[1].value);
    for (int i = 0; i < op->noperands; i++)
        if (is_dot_result(op->operands[i].value)) return true;
    return false;
}

/* Queues the users of v, which is about to change. A loop whose
 * scf.yield reads v goes too: its pattern reads what the body yields
 * (forward_invariant_iter_args), and a yielded value that folds to the
 * iter_arg itself, `p + 0`, makes the loop match only then. */
static void push_users(Canon *s, Value *v) {
    for (Use *u = v->uses; u; u = u->next) {
        push(s, u->owner);
        if (u->owner->kind == SCF_YIELD) push(s, op_parent_op(u->owner));
    }
}

static void mark_erased(Op *op, void *ud) { set_mark(ud, op, MARK_ERASED); }

static void erase(Canon *s, Op *op) {
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        if (v && v->def) push(s, v->def);
    }
    if (op->nregions) op_walk(op, mark_erased, s, false);
    else mark_erased(op, s);
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
 * nearest enclosing isolated region (tt.func). Like MLIR's folder, this
 * takes constants out of tt.reduce/tt.scan combiners too (they are not
 * isolated from above; Triton's TTIR has none left inside). */
static Block *const_scope(Canon *s, Op *op) {
    /* (the last answer is kept by the block asked from: the ops of a block
     * are visited together, and a block never changes function) */
    if (op->parent && op->parent == s->scope_from) return s->scope;
    for (Op *cur = op;;) {
        Op *p = op_parent_op(cur);
        if (!p || op_has_flag(p, OPF_ISOLATED)) {
            s->scope_from = op->parent;
            return s->scope = p ? region_entry(cur->parent->parent) : cur->parent;
        }
        cur = p;
    }
}

static ConstScope *scope_consts(Canon *s, Block *scope) {
    if (s->cur && s->cur->block == scope) return s->cur;
    for (int i = 0; i < s->scopes.len; i++)
        if (s->scopes.data[i]->block == scope) return s->cur = s->scopes.data[i];
    ConstScope *cs = tc_calloc(1, sizeof *cs);
    cs->block = scope;
    vec_push(&s->scopes, cs);
    return s->cur = cs;
}

/* The op in scope holding constant `a`, if there is still one. */
static Op *find_const(Canon *s, Block *scope, Attr *a) {
    Op *k = map_get(&scope_consts(s, scope)->consts, MAP_KEY(a));
    if (k && !is_erased(s, k) && k->parent == scope && op_attr_k(k, AN_VALUE) == a) return k;
    return NULL;
}

/* Places constant op at the end of the constants at the top of scope. */
static void place_const(Canon *s, Block *scope, Op *op) {
    ConstScope *cs = scope_consts(s, scope);
    Op *last = cs->last;
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
    cs->last = op;
    map_put(&cs->consts, MAP_KEY(op_attr_k(op, AN_VALUE)), op);
}

static void hoist_const(Canon *s, Op *op) {
    Attr *a = op_attr_k(op, AN_VALUE);
    if (!a) return;
    Block *scope = const_scope(s, op);
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
    Block *scope = const_scope(s, user);
    Op *k = find_const(s, scope, a);
    if (k) return op_result(k, 0);
    Type *t = a->type;
    k = op_create(s->c, ARITH_CONSTANT, user->loc, NULL, 0, &t, 1, 0);
    op_set_attr_k(s->c, k, AN_VALUE, a);
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
static NOT_INLINE bool reorder(Canon *s, Op *op) {
    if (value_const(op_operand(op, 1))) return false;
    if (op_has_flag(op, OPF_COMMUTATIVE)) {
        swap_operands(op);
    } else if (op->kind == ARITH_CMPI) {
        int64_t p;
        if (!op_attr_int_k(op, AN_PREDICATE, &p) || p < 0 || p >= CMPI_COUNT) return false;
        Attr *pa = op_attr_k(op, AN_PREDICATE);
        op_set_attr_k(s->c, op, AN_PREDICATE, attr_int(s->c, pa->type, cmpi_swapped[p]));
        swap_operands(op);
    } else {
        return false;
    }
    return true;
}

/* (asked of most ops visited: the first test inline) */
static inline bool canonical_order(Canon *s, Op *op) {
    if (op->noperands != 2 || !value_const(op_operand(op, 0))) return false;
    return reorder(s, op);
}

/* extsi(extsi x) -> extsi x, extui(extui x) -> extui x, extsi(extui x) ->
 * extui x (the middle value is non-negative), and truncations of an ext to
 * a width between the two. */
static bool fold_ext_chain(Canon *s, Op *op) {
    Value *x = op_operand(op, 0);
    Op *d = x->def;
    if (!d) return false;
    bool is_ext = op->kind == ARITH_EXTSI || op->kind == ARITH_EXTUI;
    if (is_ext && (d->kind == ARITH_EXTSI || d->kind == ARITH_EXTUI) &&
        (d->kind == op->kind || d->kind == ARITH_EXTUI)) {
        op_set_kind(s->c, op, d->kind);
        op_set_operand(op, 0, op_operand(d, 0));
        return true;
    }
    if (op->kind == ARITH_TRUNCI && (d->kind == ARITH_EXTSI || d->kind == ARITH_EXTUI)) {
        int w0 = ty_elem(op_operand(d, 0)->type)->width, w = ty_elem(op->results[0].type)->width;
        if (w > w0) op_set_kind(s->c, op, d->kind); /* trunc(ext x): still an ext of x */
        else if (w == w0) return false;             /* the folder returns x */
        op_set_operand(op, 0, op_operand(d, 0));    /* or a trunc of x */
        return true;
    }
    return false;
}

/* broadcast / expand_dims / reshape of (tt.splat x) -> tt.splat x. */
static ALWAYS_INLINE bool splat_through_shape(Canon *s, Op *op) {
    Op *d = op_operand(op, 0)->def;
    if (!d || d->kind != TT_SPLAT) return false;
    if (op->kind != TT_BROADCAST && op->kind != TT_EXPAND_DIMS && op->kind != TT_RESHAPE) return false;
    op_set_kind(s->c, op, TT_SPLAT);
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
    bool empty = op_attr_k(op, AN_UNSIGNED_CMP) ? int_wrap_u(lb, w) >= int_wrap_u(ub, w)
                                            : int_wrap(lb, w) >= int_wrap(ub, w);
    if (!empty || op->nresults != op->noperands - 3) return false;
    for (int i = 0; i < op->nresults; i++) replace(s, op, i, op_operand(op, 3 + i));
    erase(s, op);
    return true;
}

/* The integer constant of v (scalar or splat), for reassociation. */
static ALWAYS_INLINE bool int_const(Value *v, int64_t *out) {
    Attr *a = value_const(v);
    return a && ty_is_int(ty_elem(v->type)) && attr_as_int(a, out);
}

/* A constant of v's type with value x (wrapped to the element width). */
static Value *int_const_like(Canon *s, Op *user, Value *v, int64_t x) {
    Type *et = ty_elem(v->type);
    Attr *a = attr_int(s->c, et, int_wrap(x, et->width));
    if (v->type->kind == TY_TENSOR) a = attr_dense_splat(s->c, v->type, a);
    return materialize(s, user, a);
}

/* MLIR's arith canonicalization patterns that merge the constants of two
 * chained integer adds/subs (or muls), the inner op being any op of the
 * pair (it stays if it has other users):
 *   addi(addi(x, c0), c1) -> addi(x, c0 + c1)   subi(addi(x, c0), c1) -> addi(x, c0 - c1)
 *   addi(subi(x, c0), c1) -> addi(x, c1 - c0)   subi(subi(x, c0), c1) -> subi(x, c0 + c1)
 *   addi(subi(c0, x), c1) -> subi(c0 + c1, x)   subi(subi(c0, x), c1) -> subi(c0 - c1, x)
 *   subi(c1, addi(x, c0)) -> subi(c1 - c0, x)   subi(c1, subi(x, c0)) -> subi(c0 + c1, x)
 *   subi(c1, subi(c0, x)) -> addi(x, c1 - c0)   muli(muli(x, c0), c1) -> muli(x, c0 * c1)
 * (addi and muli have their constant on the right by now.) */
static bool merge_int_constants(Canon *s, Op *op) {
    int64_t c0, c1;
    Value *a = op_operand(op, 0), *b = op_operand(op, 1);
    bool rhs = int_const(b, &c1);
    Value *inner_v = rhs ? a : b;
    if (!rhs && (op->kind != ARITH_SUBI || !int_const(a, &c1))) return false;
    Op *in = inner_v->def;
    if (!in || in->nattrs || op->nattrs) return false;
    if (op->kind == ARITH_MULI) {
        if (!rhs || in->kind != ARITH_MULI || !int_const(op_operand(in, 1), &c0)) return false;
        op_set_operand(op, 0, op_operand(in, 0));
        op_set_operand(op, 1, int_const_like(s, op, b, (int64_t)((uint64_t)c0 * (uint64_t)c1)));
        return true;
    }
    if (in->kind != ARITH_ADDI && in->kind != ARITH_SUBI) return false;
    bool in_rhs = int_const(op_operand(in, 1), &c0);
    if (!in_rhs && (in->kind != ARITH_SUBI || !int_const(op_operand(in, 0), &c0))) return false;
    Value *x = op_operand(in, in_rhs ? 0 : 1);
    uint64_t u0 = (uint64_t)c0, u1 = (uint64_t)c1;
    OpKind k;
    bool x_first; /* the new op is `x k c` (else `c k x`) */
    uint64_t c;
    bool outer_add = op->kind == ARITH_ADDI, inner_add = in->kind == ARITH_ADDI;
    if (outer_add || rhs) { /* (in) op c1 */
        int sign = outer_add ? 1 : -1;
        if (inner_add) k = ARITH_ADDI, x_first = true, c = u0 + (sign > 0 ? u1 : -u1);
        else if (in_rhs) /* (x - c0) +- c1 */
            k = outer_add ? ARITH_ADDI : ARITH_SUBI, x_first = true, c = outer_add ? u1 - u0 : u0 + u1;
        else /* (c0 - x) +- c1 */
            k = ARITH_SUBI, x_first = false, c = outer_add ? u0 + u1 : u0 - u1;
    } else { /* c1 - (in) */
        if (inner_add) k = ARITH_SUBI, x_first = false, c = u1 - u0;
        else if (in_rhs) k = ARITH_SUBI, x_first = false, c = u0 + u1;
        else k = ARITH_ADDI, x_first = true, c = u1 - u0;
    }
    Value *cv = int_const_like(s, op, rhs ? b : a, (int64_t)c);
    op_set_kind(s->c, op, k);
    op_set_operand(op, 0, x_first ? x : cv);
    op_set_operand(op, 1, x_first ? cv : x);
    push(s, in);
    return true;
}

static const int cmpi_inverse[CMPI_COUNT] = {
    [CMPI_EQ] = CMPI_NE,   [CMPI_NE] = CMPI_EQ,   [CMPI_SLT] = CMPI_SGE, [CMPI_SLE] = CMPI_SGT,
    [CMPI_SGT] = CMPI_SLE, [CMPI_SGE] = CMPI_SLT, [CMPI_ULT] = CMPI_UGE, [CMPI_ULE] = CMPI_UGT,
    [CMPI_UGT] = CMPI_ULE, [CMPI_UGE] = CMPI_ULT};

/* xori(cmpi p a b, true) -> cmpi !p a b (MLIR's XOrINotCmpI): the xori
 * becomes the inverted comparison; the old cmpi stays for its other users. */
static bool not_cmpi(Canon *s, Op *op) {
    int64_t one, p;
    Op *d = op_operand(op, 0)->def;
    if (ty_elem(op->results[0].type)->width != 1 || !int_const(op_operand(op, 1), &one) || !(one & 1) ||
        !d || d->kind != ARITH_CMPI || !op_attr_int_k(d, AN_PREDICATE, &p) || p < 0 || p >= CMPI_COUNT)
        return false;
    Attr *pa = op_attr_k(d, AN_PREDICATE);
    op_set_kind(s->c, op, ARITH_CMPI);
    op_set_operand(op, 0, op_operand(d, 0));
    op_set_operand(op, 1, op_operand(d, 1));
    op_set_attr_k(s->c, op, AN_PREDICATE, attr_int(s->c, pa->type, cmpi_inverse[p]));
    push(s, d);
    return true;
}

/* reshape(reshape x) -> reshape x, with the outer reshape's attributes (as
 * Triton's printed TTIR shows: ravel then reshape leaves one plain reshape). */
static bool reshape_of_reshape(Canon *s, Op *op) {
    Op *d = op_operand(op, 0)->def;
    if (!d || d->kind != TT_RESHAPE) return false;
    op_set_operand(op, 0, op_operand(d, 0));
    push(s, d);
    return true;
}

static bool is_zero_const(Value *v) {
    Attr *a = value_const(v);
    double f;
    int64_t i;
    if (!a || !attr_is_splat(a)) return false;
    if (attr_as_int(a, &i)) return i == 0;
    return attr_as_float(a, &f) && f == 0 && !signbit(f);
}

/* Triton's combine pass: addf/addi(dot(a, b, 0), d) -> dot(a, b, d) when the
 * dot has no other user (and, for addf, maxNumImpreciseAcc is 0). The dot
 * moves to the add's place, where d is defined. */
static bool dot_add_acc(Canon *s, Op *op) {
    for (int k = 0; k < 2; k++) {
        Value *dv = op_operand(op, k), *d = op_operand(op, 1 - k);
        Op *dot = dv->def;
        int64_t imprecise = 0;
        if (!dot || dot->kind != TT_DOT || !value_has_one_use(dv) || dot->parent != op->parent) continue;
        if (op_attr_int_k(dot, AN_MAX_NUM_IMPRECISE_ACC, &imprecise) && imprecise != 0) continue;
        if (!is_zero_const(op_operand(dot, 2)) || d->type != dv->type) continue;
        Op *zero = op_operand(dot, 2)->def;
        op_unlink(dot);
        op_insert_before(op, dot);
        op_set_operand(dot, 2, d);
        replace(s, op, 0, dv);
        erase(s, op);
        push(s, zero);
        return true;
    }
    return false;
}

/* scf.for iter_arg that the body yields back unchanged (MLIR's
 * ForOpIterArgsFolder, in part): its argument and its result are the init.
 * The argument stays as the yielded operand, so dce drops the iter_arg. */
static bool forward_invariant_iter_args(Canon *s, Op *op) {
    Block *b = region_entry(&op->regions[0]);
    Op *y = b ? block_terminator(b) : NULL;
    int n = op->noperands - 3;
    if (!y || y->kind != SCF_YIELD || y->noperands != n || op->nresults != n || b->nargs != n + 1) return false;
    bool changed = false;
    for (int i = 0; i < n; i++) {
        Value *arg = b->args[1 + i], *init = op_operand(op, 3 + i);
        if (op_operand(y, i) != arg) continue;
        bool other_use = value_has_uses(&op->results[i]);
        for (Use *u = arg->uses; u && !other_use; u = u->next) other_use = u->owner != y;
        if (!other_use) continue;
        push_users(s, arg);
        value_replace_all_uses(arg, init);
        op_set_operand(y, i, arg);
        replace(s, op, i, init);
        changed = true;
    }
    return changed;
}

/* Triton's combine pattern addptr(addptr(p, a), b) -> addptr(p, addi(a, b))
 * when a and b have one type of 64-bit integers (isAddPtrOffsetCombinable;
 * the inner addptr stays for its other users). */
static bool combine_addptr(Canon *s, Op *op) {
    Op *in = op_operand(op, 0)->def;
    if (!in || in->kind != TT_ADDPTR) return false;
    Value *a = op_operand(in, 1), *b = op_operand(op, 1);
    if (a->type != b->type || !ty_is_int(ty_elem(a->type)) || ty_elem(a->type)->width != 64) return false;
    Builder bl = builder_before(s->c, op);
    Value *sum = build_binary(&bl, ARITH_ADDI, a, b);
    op_set_operand(op, 0, op_operand(in, 0));
    op_set_operand(op, 1, sum);
    push(s, sum->def);
    push(s, in);
    return true;
}

/* The definitions of op's first two operands (what an in-place rewrite of
 * its operands may leave dead). */
static inline void operand_defs(const Op *op, Op **d0, Op **d1) {
    *d0 = op->noperands ? op->operands[0].value->def : NULL;
    *d1 = op->noperands > 1 ? op->operands[1].value->def : NULL;
}

static bool rewrite(Canon *s, Op *op) {
    /* an in-place rewrite may leave the old operands' definitions dead:
     * read just before a rewrite that may replace operands (most ops
     * match none) */
    Op *old_def, *old_def1;
    switch (op->kind) {
    case SCF_IF: return inline_const_if(s, op);
    case SCF_FOR:
        if (remove_empty_for(s, op)) return true;
        operand_defs(op, &old_def, &old_def1);
        if (!forward_invariant_iter_args(s, op)) return false;
        break;
    case TT_ADDPTR:
        operand_defs(op, &old_def, &old_def1);
        if (!combine_addptr(s, op)) return false;
        break;
    case ARITH_EXTSI:
    case ARITH_EXTUI:
    case ARITH_TRUNCI:
        operand_defs(op, &old_def, &old_def1);
        if (!fold_ext_chain(s, op)) return false;
        break;
    case TT_RESHAPE:
        operand_defs(op, &old_def, &old_def1);
        if (!splat_through_shape(s, op) && !reshape_of_reshape(s, op)) return false;
        break;
    case TT_BROADCAST:
    case TT_EXPAND_DIMS:
        operand_defs(op, &old_def, &old_def1);
        if (!splat_through_shape(s, op)) return false;
        break;
    case ARITH_ADDF:
        if (reads_dot(op) && dot_add_acc(s, op)) return true;
        operand_defs(op, &old_def, &old_def1);
        if (!canonical_order(s, op)) return false;
        break;
    case ARITH_ADDI:
        if (reads_dot(op) && dot_add_acc(s, op)) return true;
        /* fall through */
    case ARITH_SUBI:
    case ARITH_MULI:
        operand_defs(op, &old_def, &old_def1);
        if (!canonical_order(s, op) && !merge_int_constants(s, op)) return false;
        break;
    case ARITH_XORI:
        operand_defs(op, &old_def, &old_def1);
        if (!canonical_order(s, op) && !not_cmpi(s, op)) return false;
        break;
    default:
        if (!canonical_order(s, op)) return false;
        old_def = op_operand(op, 1)->def; /* (swapped: the same two) */
        old_def1 = op_operand(op, 0)->def;
        break;
    }
    /* changed in place: look at it again, and at its users (a pattern
     * rooted at one of them may match now) */
    s->changes++;
    push(s, op);
    for (int i = 0; i < op->nresults; i++) push_users(s, &op->results[i]);
    push(s, old_def);
    push(s, old_def1);
    return true;
}

/* ---- folding -------------------------------------------------------------------------- */

/* Folds read from the flags column alone. */
static Value *fold_by_flags(Op *op) {
    if (!op_has_flag(op, OPF_INVOLUTION | OPF_IDEMPOTENT) || op->nresults != 1) return NULL;
    Value *x = op->noperands ? op_operand(op, 0) : NULL;
    if (op->noperands == 1 && x->def && x->def->kind == op->kind && x->def->nattrs == 0 && op->nattrs == 0) {
        if (op_has_flag(op, OPF_INVOLUTION)) return op_operand(x->def, 0);
        if (op_has_flag(op, OPF_IDEMPOTENT)) return x;
    }
    if (op->noperands == 2 && op_has_flag(op, OPF_IDEMPOTENT) && x == op_operand(op, 1)) return x;
    return NULL;
}

/* Replaces op by what it folds to: the value v, or the constants out[]
 * (v NULL), if they fit its results; whether it did. */
static bool apply_fold(Canon *s, Op *op, Value *v, Attr **out) {
    if (v) {
        if (op->nresults != 1 || v->type != op->results[0].type) return false;
        replace(s, op, 0, v);
    } else {
        for (int i = 0; i < op->nresults; i++)
            if (!out[i] || out[i]->type != op->results[i].type) return false;
        for (int i = 0; i < op->nresults; i++) replace(s, op, i, materialize(s, op, out[i]));
    }
    erase(s, op);
    return true;
}

/* try_fold's folder call for an op of more operands or results than its
 * arrays on the stack hold. */
static NOT_INLINE bool fold_large(Canon *s, Op *op, OpFoldFn fn) {
    Attr **cs = tc_malloc(sizeof(Attr *) * (size_t)(op->noperands + 1));
    Attr **out = tc_calloc((size_t)op->nresults, sizeof(Attr *));
    Value *v = NULL;
    for (int i = 0; i < op->noperands; i++) cs[i] = value_const(op->operands[i].value);
    bool folded = fn(s->c, op, cs, out, &v) && apply_fold(s, op, v, out);
    tc_free(cs);
    tc_free(out);
    return folded;
}

static bool try_fold(Canon *s, Op *op) {
    Value *v = fold_by_flags(op);
    if (v) return apply_fold(s, op, v, NULL);
    OpFoldFn fn = op_info_of(op)->fold;
    if (!fn || op->nresults == 0) return false;
    if (op->noperands > 8 || op->nresults > 4) return fold_large(s, op, fn);
    Attr *cs[8], *out[4] = {NULL};
    if (op->noperands == 2) { /* (most ops) */
        cs[0] = value_const(op->operands[0].value);
        cs[1] = value_const(op->operands[1].value);
    } else {
        for (int i = 0; i < op->noperands; i++) cs[i] = value_const(op->operands[i].value);
    }
    /* a unary op without attributes folds a constant operand to what the
     * same op of the same constant and result type folded to before (the
     * front end splats one constant to one shape many times over) */
    UnaryFold *uf = NULL;
    if (op->noperands == 1 && cs[0] && op->nresults == 1 && !op->nattrs) {
        Type *t = op->results[0].type;
        uf = &s->unary[(MAP_KEY(cs[0]) >> 4 ^ MAP_KEY(t) >> 6 ^ (unsigned)op->kind) % TC_ARRAY_LEN(s->unary)];
        if (uf->kind == op->kind && uf->in == cs[0] && uf->type == t) {
            out[0] = uf->out;
            return apply_fold(s, op, NULL, out);
        }
    }
    if (!fn(s->c, op, cs, out, &v)) return false;
    if (uf && !v && out[0]) *uf = (UnaryFold){op->kind, cs[0], op->results[0].type, out[0]};
    return apply_fold(s, op, v, out);
}

/* Visits op, which is in the IR (not erased). */
static void visit_live(Canon *s, Op *op) {
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

static void visit(Canon *s, Op *op) {
    if (!is_erased(s, op) && op->parent) visit_live(s, op);
}

/* The first sweep: every op once, in program order (a visit erases or
 * moves only the op itself and what it contains, so `next` stays valid,
 * and every op the sweep reaches is in the IR); what the visits queue
 * waits for the worklist (see MARK_SWEPT). */
static void sweep(Canon *s, Block *b) {
    for (Op *op = b->first, *next; op; op = next) {
        next = op->next;
        op_prefetch(op, OP_PREFETCH_DIST);
        int m = get_mark(s, op);
        if ((m & MARK_QUEUED) && !op->nregions && !reads_dot(op)) set_mark(s, op, m | MARK_SWEPT);
        visit_live(s, op);
        if (!op->parent) continue; /* (erased: an erased op is unlinked) */
        for (int r = 0; r < op->nregions; r++)
            for (Block *ib = op->regions[r].first; ib; ib = ib->next) sweep(s, ib);
    }
}

bool pass_canonicalize(Op *module, PassContext *pc) {
    static _Atomic unsigned epochs;
    Canon s = {.c = pc->ctx, .epoch = (int)(++epochs & 0x7ffffff) + 1};
    for (Op *f = module_body(module)->first; f; f = f->next)
        for (int r = 0; r < f->nregions; r++)
            for (Block *b = f->regions[r].first; b; b = b->next) sweep(&s, b);
    while (s.work.len) {
        Op *op = vec_pop(&s.work);
        int m = get_mark(&s, op);
        set_mark(&s, op, m & ~(MARK_QUEUED | MARK_SWEPT));
        if (!(m & MARK_SWEPT)) visit(&s, op);
    }
    vec_free(&s.work);
    for (int i = 0; i < s.scopes.len; i++) {
        map_free(&s.scopes.data[i]->consts);
        tc_free(s.scopes.data[i]);
    }
    vec_free(&s.scopes);
    pc->changes += s.changes;
    return true;
}
