/*
 * ptx_demand.c - which slots of each tile are read.
 *
 * A vectorised access reads its pointer and mask only at the first slot of
 * each vector: a 16-byte fp16 load under `(rows < M) & (cols < N)` needs one
 * address and one predicate per 8 elements. The element-wise ops that build
 * them are lowered slot by slot, and without this analysis they compute
 * every slot, 8x what is read (ptxas deletes the rest, after the emitter has
 * written and CSE'd it and ptxas has parsed it).
 *
 * The analysis runs once per kernel, when the lowering first asks for the
 * demand of a tile of two slots or more (never, in a kernel of one element
 * per thread), as one walk over the ops in reverse: a result's users come after it, so their demands are known
 * when it is reached. A value's demand is the union over its uses of
 *   - an element-wise user (lower_elementwise): the slots of the user's
 *     result that are demanded (slot i reads slot i of each operand);
 *   - tt.load / tt.store: the pointer and the mask at vector heads only
 *     (px_access_vec, as the lowering picks the width); other values: all;
 *   - ttg.async_copy_global_to_local: its pointer and mask at the heads of
 *     its `vec`;
 *   - tt.broadcast / tt.expand_dims: the source slots of the demanded
 *     result slots;
 *   - scf.for (an initial value) and its body's scf.yield: what the
 *     iteration argument reads, which is solved as a fixpoint (demand_for);
 *   - anything else (block arguments, scf.yield, reductions, ...): all.
 * Only the values whose demand is asked are worked out (demand_asked); in a
 * kernel without vector accesses, only the few of them that may be read in
 * part at all (found first, back from the unused results, see mark_part).
 * A value without a demand is read in full. lower_elementwise leaves the
 * slots nobody reads as SLOT_NONE, and reading one is an internal error
 * (px_mat), not a silent zero.
 */
#include "target/ptx/ptx_lower.h"

#include <string.h>

static Bits *bits_new(Px *p, int n) {
    size_t nw = ((size_t)n + 63) / 64;
    Bits *b = arena_alloc(p->ctx->arena, sizeof(Bits) + nw * sizeof(uint64_t));
    b->n = n;
    memset(b->w, 0, nw * sizeof(uint64_t));
    return b;
}

static int nwords(int n) { return (n + 63) / 64; }

static bool bits_full(const Bits *b) {
    int k = b->n / 64;
    for (int w = 0; w < k; w++)
        if (~b->w[w]) return false;
    return b->n % 64 == 0 || (~b->w[k] & (((uint64_t)1 << (b->n % 64)) - 1)) == 0;
}

static void bits_fill(Bits *b) {
    b->full = true;
    memset(b->w, 0xff, (size_t)nwords(b->n) * sizeof(uint64_t));
}

static void bits_set(Bits *b, int i) { b->w[i / 64] |= (uint64_t)1 << (i % 64); }

/* acc |= what b asks for (NULL or full: everything); false when acc
 * became full */
static bool bits_or(Bits *acc, const Bits *b) {
    if (!b || b->full || b->n != acc->n) return false;
    for (int w = 0; w < nwords(acc->n); w++) acc->w[w] |= b->w[w];
    return true;
}

static Bits *entry(Px *p, const Value *v) { return px_value(p, v)->demand; }

/* Records v's demand (full ones too: a loop's fixpoint may revisit v and
 * must be able to widen what it recorded before). */
static void record(Px *p, const Value *v, Bits *b) {
    if (!b->full && bits_full(b)) bits_fill(b);
    px_value(p, v)->demand = b;
}

/* Every slot: one entry shared by the values read in full, which are most
 * (read only: a full demand is never widened). */
static Bits all_slots = {.n = 0, .full = true};

/* tt.broadcast / tt.expand_dims: the source slot of each demanded result
 * slot, as lower_broadcast maps them (a dimension of size 1 reads j = 0;
 * expand_dims drops the new axis's j). */
static bool broadcast_demand(Px *p, Op *user, Bits *acc, int n) {
    const Bits *rd = entry(p, op_result(user, 0));
    Type *rt = op_result(user, 0)->type, *it = op_operand(user, 0)->type;
    const Dist *dr = px_dist_of(p, rt), *di = px_dist_of(p, it);
    if (!rd || rd->full || !dr || !di || di->nslots != n || dr->nslots != rd->n) return false;
    const int *src = px_broadcast_src_of(p, user, dr, di);
    for (int i = 0; i < dr->nslots; i++)
        if (rd->w[i / 64] >> (i % 64) & 1) bits_set(acc, src[i]);
    return true;
}

/* The operand numbers of an access's pointer and mask: tt.load,
 * tt.store, ttg.async_copy_global_to_local. */
static void access_operands(const Op *user, int *ptr, int *mask) {
    *ptr = user->kind == TTG_ASYNC_COPY ? 1 : 0;
    *mask = user->kind == TT_LOAD ? 1 : 2;
}

/* The elements per access of one of them (1: none are vectors), its
 * pointer's layout in *d. */
static int access_vec_of(Px *p, Op *user, const Dist **d) {
    int pi, mi;
    access_operands(user, &pi, &mi);
    Value *ptr = op_operand(user, pi);
    if (!(*d = px_dist_of(p, ptr->type))) return 1;
    if (user->kind == TTG_ASYNC_COPY) {
        int64_t v = 1;
        op_attr_int_k(user, AN_VEC, &v);
        return (int)v;
    }
    Value *mask = user->noperands > mi ? op_operand(user, mi) : NULL;
    const Type *e = user->kind == TT_STORE ? ty_elem(op_operand(user, 1)->type) : ty_elem(op_result(user, 0)->type);
    return px_access_vec(p, ptr, mask, *d, e);
}

/* tt.load / tt.store (operand k of user) and ttg.async_copy_global_to_local:
 * the pointer and the mask at the vector heads only; false for anything
 * else they read (every slot). */
static bool access_demand(Px *p, Op *user, int k, Bits *acc, int n) {
    int pi, mi;
    access_operands(user, &pi, &mi);
    if (k != pi && k != mi) return false;
    const Dist *d;
    int vec = access_vec_of(p, user, &d);
    if (!d || d->nslots != n || vec <= 1) return false;
    /* the vector heads: slot i's j along the fastest dimension (order[0],
     * which dist_slot_j counts first) is i mod its per_dim */
    int fast = d->per_dim[d->order[0]];
    for (int row = 0; row < n; row += fast)
        for (int j = 0; j < fast; j += vec) bits_set(acc, row + j);
    return true;
}

/* Adds to acc (the slots of `v`, a tile of n slots) what use u of it
 * reads; false when it may read any slot. (Most uses are element-wise, one
 * lookup: the accesses' longer case is apart, in access_demand.) */
static bool use_demand(Px *p, const Use *u, Bits *acc, int n) {
    Op *user = u->owner;
    if (px_is_slotwise(user)) return bits_or(acc, entry(p, op_result(user, 0)));
    int k = (int)(u - user->operands);
    switch (user->kind) {
    /* into a loop: what the iteration argument (and the loop's result) read */
    case SCF_FOR: return k >= 3 && bits_or(acc, entry(p, user->regions[0].first->args[k - 2]));
    case SCF_YIELD:
        return user->parent->parent->parent->kind == SCF_FOR && bits_or(acc, entry(p, user->parent->args[k + 1]));
    case TT_BROADCAST:
    case TT_EXPAND_DIMS: return broadcast_demand(p, user, acc, n);
    case TT_LOAD:
    case TT_STORE:
    case TTG_ASYNC_COPY: return access_demand(p, user, k, acc, n);
    default: return false;
    }
}

static inline int slots_of(Px *p, const Value *v) {
    const Dist *d = v->type->kind == TY_TENSOR ? px_dist_of(p, v->type) : NULL;
    return d ? d->nslots : 0;
}

/* v's demand, from its uses, added to acc (a fresh set when NULL: then
 * built in the emitter's scratch set, and kept only when partial); v has n
 * slots, n >= 2 (fewer: no demand, always read). */
static Bits *uses_demand_n(Px *p, const Value *v, Bits *acc, int n) {
    Bits *into = acc;
    if (!into) {
        int nw = nwords(n);
        if (nw > p->demand_scratch_words) p->demand_scratch = bits_new(p, n), p->demand_scratch_words = nw;
        into = p->demand_scratch;
        into->n = n, into->full = false;
        into->w[0] = 0; /* (mostly the only word: no call) */
        if (nw > 1) memset(into->w + 1, 0, (size_t)(nw - 1) * sizeof(uint64_t));
    }
    for (Use *u = v->uses; u && !into->full; u = u->next)
        if (!use_demand(p, u, into, n)) into->full = true;
    if (into->full) {
        if (!acc) return &all_slots;
        bits_fill(acc);
        return acc;
    }
    if (acc) return acc;
    Bits *b = bits_new(p, n);
    memcpy(b->w, into->w, (size_t)nwords(n) * sizeof(uint64_t));
    return b;
}

static inline Bits *uses_demand(Px *p, const Value *v, Bits *acc) {
    int n = slots_of(p, v);
    return n < 2 ? NULL : uses_demand_n(p, v, acc, n);
}

static void demand_block(Px *p, Block *b);

/* Adds to acc (v's slots) a part of what its uses read that is known before
 * the walk: what tt.load / tt.store / ttg.async_copy_global_to_local and
 * the users that read every slot ask for, and through element-wise users
 * what their results' such uses ask for; not through loops, yields or
 * broadcasts. A loop's iteration argument starts from it: a part of the
 * answer, so the fixpoint is the same, and mostly reached in one walk of
 * the body instead of two (a pointer advanced by tt.addptr and read in
 * full further on; an accumulator's chain of element-wise ops into a
 * tt.dot, however long). Each value is visited once per argument (marked
 * with p->known_mark): a value reached along two paths (`x * x`) would
 * otherwise be walked twice, and its users after it. */
static void known_demand(Px *p, const Value *v, Bits *acc) {
    for (Use *u = v->uses; u && !acc->full; u = u->next) {
        Op *user = u->owner;
        if (user->kind == SCF_FOR || user->kind == SCF_YIELD || user->kind == TT_BROADCAST ||
            user->kind == TT_EXPAND_DIMS)
            continue;
        if (px_is_slotwise(user)) {
            const Value *r = op_result(user, 0);
            PxValue *rv = px_value(p, r);
            if (slots_of(p, r) != acc->n) bits_fill(acc); /* (as bits_or) */
            else if (rv->known_mark != p->known_mark) rv->known_mark = p->known_mark, known_demand(p, r, acc);
            continue;
        }
        if (!use_demand(p, u, acc, acc->n)) bits_fill(acc);
    }
}

/* scf.for: an iteration argument reads what its uses in the body read and
 * what the loop's result reads; the body's yield reads the argument's
 * demand. Solved from below: the arguments start at what the results read
 * and grow until the body asks for nothing more. */
static void demand_for(Px *p, Op *op) {
    Block *body = op->regions[0].first;
    int n = op->nresults;
    Bits **arg = ARENA_ARRAY(p->ctx->arena, Bits *, n + 1);
    for (int i = 0; i < n; i++) {
        int ns = p->demand_all || px_value(p, body->args[i + 1])->part ? slots_of(p, op_result(op, i)) : 0;
        arg[i] = ns < 2 ? NULL : bits_new(p, ns);
        if (arg[i] && !bits_or(arg[i], entry(p, op_result(op, i)))) bits_fill(arg[i]);
        if (arg[i]) p->known_mark++, known_demand(p, body->args[i + 1], arg[i]);
    }
    for (int round = 0;; round++) {
        for (int i = 0; i < n; i++)
            if (arg[i]) record(p, body->args[i + 1], arg[i]);
        demand_block(p, body);
        bool grew = false;
        for (int i = 0; i < n; i++) {
            if (!arg[i] || arg[i]->full) continue;
            Bits *now = bits_new(p, arg[i]->n);
            bits_or(now, arg[i]);
            now = uses_demand(p, body->args[i + 1], now);
            if (round >= 8) bits_fill(now); /* (not seen: a guard on the rounds) */
            if (memcmp(now->w, arg[i]->w, (size_t)nwords(now->n) * sizeof(uint64_t))) grew = true;
            arg[i] = now;
        }
        if (!grew) break;
    }
}

/* Whether the demand of op's results is ever asked: the lowering asks it
 * of element-wise results (lower_elementwise) and loops' iteration
 * arguments (carried_tile), the analysis of broadcasts' results
 * (broadcast_demand) and loops' results (demand_for). The results of other
 * ops (loads, layout conversions, splats, dots, ...) are not worked out:
 * nothing would read them. */
static bool demand_asked(const Op *op) {
    return px_is_slotwise(op) || op->kind == TT_BROADCAST || op->kind == TT_EXPAND_DIMS || op->kind == SCF_FOR;
}

/* Whether v's first use reads every slot of it: an element-wise user whose
 * result is read in full, as most are (the common answer, without the
 * scratch set and the calls of uses_demand_n). */
static inline bool first_use_full(Px *p, const Value *v) {
    const Use *u = v->uses;
    if (!u || !px_is_slotwise(u->owner)) return false;
    const Bits *b = px_value(p, op_result(u->owner, 0))->demand;
    return !b || b->full;
}

/* b's values, last to first: a result's users come after it. All of them
 * (p->demand_all), or the marked ones alone and the ops holding them
 * (op->mark), see mark_part. */
static void demand_block(Px *p, Block *b) {
    for (Op *op = b->last; op; op = op->prev) {
        /* (one result but for loops': most ops are of one) */
        int nres = op->kind == SCF_FOR ? op->nresults : op->nresults > 0;
        for (int i = 0; i < nres; i++) {
            Value *v = op_result(op, i);
            if ((!p->demand_all && !px_value(p, v)->part) || !demand_asked(op)) continue;
            if (first_use_full(p, v)) {
                px_value(p, v)->demand = NULL; /* (read in full: no set made) */
                continue;
            }
            int n = slots_of(p, v);
            if (n >= 2) record(p, v, uses_demand_n(p, v, NULL, n));
        }
        if (!op->nregions || (!p->demand_all && !op->mark)) continue; /* (nothing in it may be read in part) */
        if (op->kind == SCF_FOR) {
            demand_for(p, op);
            continue;
        }
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].last; rb; rb = rb->prev) demand_block(p, rb);
    }
}

/* ---- the values that may be read in part ------------------------------- */

/* A value is read in part only when all its uses lead, through element-wise
 * ops, broadcasts and loops, to the pointers and masks of vector accesses
 * or to nothing (an unused result reads no slot): may_part. In a kernel
 * without vector accesses, the values that may be read in part are then
 * found back from the unused results (mostly loops' results), along the
 * operands, and marked (part: a superset of the values whose demand is
 * partial; they are few). demand_block works out the demand of those alone,
 * the others being read in full as it would find; the ops holding a region
 * get op->mark: 1 when a value in it is marked, the regions of the others
 * need no walk. A kernel with vector accesses has most of its values
 * marked, the marking costing more than it spares: the seeds' walk stops at
 * the first such access and demand_block looks at every value
 * (p->demand_all). */
typedef VEC(Value *) ValueList;

/* Whether every use of v may find it partial (see use_demand): memoised
 * in its may; a value met again while its uses are looked at (a loop's
 * argument, through its yield) is taken as partial, which keeps the answer
 * a superset. */
static bool may_part(Px *p, const Value *v) {
    PxValue *pv = px_value(p, v);
    if (pv->may) return pv->may != PART_FULL;
    pv->may = PART_BUSY;
    bool ok = true;
    for (const Use *u = v->uses; u && ok; u = u->next) {
        Op *user = u->owner;
        int k = (int)(u - user->operands), pi, mi;
        if (px_is_slotwise(user)) {
            ok = may_part(p, op_result(user, 0));
            continue;
        }
        switch (user->kind) {
        case SCF_FOR: ok = k >= 3 && may_part(p, user->regions[0].first->args[k - 2]); break;
        case SCF_YIELD:
            ok = user->parent->parent->parent->kind == SCF_FOR && may_part(p, user->parent->args[k + 1]);
            break;
        case TT_BROADCAST:
        case TT_EXPAND_DIMS: ok = may_part(p, op_result(user, 0)); break;
        case TT_LOAD:
        case TT_STORE:
        case TTG_ASYNC_COPY: /* (its vector width not asked: a superset) */
            access_operands(user, &pi, &mi);
            ok = k == pi || k == mi;
            break;
        default: ok = false;
        }
    }
    pv = px_value(p, v); /* (the table may have grown) */
    pv->may = ok ? PART_MAY : PART_FULL;
    return ok;
}

static void mark_part(Px *p, Value *v, ValueList *work) {
    if (px_value(p, v)->part || !may_part(p, v)) return;
    px_value(p, v)->part = true;
    vec_push(work, v);
    /* the ops around it (up to the kernel, or one marked before) */
    Block *b = v->def ? v->def->parent : v->owner_block;
    for (Op *o = b->parent ? b->parent->parent : NULL; o && o != p->func && !o->mark;
         o = o->parent && o->parent->parent ? o->parent->parent->parent : NULL)
        o->mark = 1;
}

/* The seeds in b and the blocks in it, the unused results; false at the
 * first vector access (then nothing is marked: see above). */
static bool part_seeds(Px *p, Block *b, ValueList *work) {
    for (Op *op = b->first; op; op = op->next) {
        switch (op->kind) {
        case TT_LOAD:
        case TT_STORE:
        case TTG_ASYNC_COPY: {
            const Dist *d;
            if (access_vec_of(p, op, &d) > 1 && d) return false;
            break;
        }
        case SCF_FOR:
            for (int i = 0; i < op->nresults; i++)
                if (!op_result(op, i)->uses) mark_part(p, op_result(op, i), work);
            break;
        default: /* (the others asked are of one result) */
            if (op->nresults && !op->results[0].uses && demand_asked(op)) mark_part(p, op->results, work);
            break;
        }
        if (!op->nregions) continue;
        op->mark = 0;
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].first; rb; rb = rb->next)
                if (!part_seeds(p, rb, work)) return false;
    }
    return true;
}

/* What v's demand is made of: the operands of an element-wise op, a
 * broadcast's source, a loop's iteration argument for its result, and for
 * an iteration argument the loop's initial value and its body's yield. */
static void part_sources(Px *p, Value *v, ValueList *work) {
    Op *def = v->def;
    if (def) {
        if (px_is_slotwise(def))
            for (int k = 0; k < def->noperands; k++) mark_part(p, op_operand(def, k), work);
        else if (def->kind == TT_BROADCAST || def->kind == TT_EXPAND_DIMS)
            mark_part(p, op_operand(def, 0), work);
        else if (def->kind == SCF_FOR)
            mark_part(p, def->regions[0].first->args[v->index + 1], work);
        return;
    }
    Block *b = v->owner_block;
    Op *loop = b->parent ? b->parent->parent : NULL;
    if (!loop || loop->kind != SCF_FOR || v->index == 0) return;
    mark_part(p, op_operand(loop, v->index + 2), work);
    if (b->last && b->last->kind == SCF_YIELD) mark_part(p, op_operand(b->last, v->index - 1), work);
}

void px_demand_analyze(Px *p, Op *func) {
    p->demand_done = true;
    ValueList work = {0};
    p->demand_all = !part_seeds(p, func_entry(func), &work);
    if (!p->demand_all)
        for (int i = 0; i < work.len; i++) part_sources(p, work.data[i], &work);
    vec_free(&work);
    if (p->demand_all || work.len) demand_block(p, func_entry(func));
}

/* The analysis reads only the IR, the layouts and the axis info, none of
 * which the lowering changes: run when first needed, it answers as it
 * would have before the lowering began. Until then every value asked of
 * has fewer than two slots, and no demand. */
void px_demand_first(Px *p, const Value *v) {
    if (slots_of(p, v) >= 2) px_demand_analyze(p, p->func);
}
