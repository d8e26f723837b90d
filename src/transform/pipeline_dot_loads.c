/*
 * pipeline_dot_loads.c - software pipelining of the loads that feed tt.dot
 * in scf.for loops (`pipeline-dot-loads`), by register double-buffering.
 *
 * A k loop as the front end writes it loads its tiles and then waits for
 * them before the dot can start:
 *
 *     scf.for %iv = %lb to %ub step %s iter_args(%p = %p0, %acc = %z) {
 *       %a = tt.load f(%iv, %p), g(%iv, %p)       // address and mask
 *       %d = tt.dot %a, ..., %acc
 *       scf.yield h(%p), %d
 *     }
 *
 * After this pass, iteration 0's load is issued before the loop and each
 * iteration issues the next one's, just before the first op that reads
 * the tile, and hands it over as a loop-carried value:
 *
 *     %a0 = tt.load f(%lb, %p0), g(%lb, %p0) & (%lb < %ub)
 *     scf.for ... iter_args(%p = %p0, %acc = %z, %a = %a0) {
 *       %n = %iv + %s
 *       %an = tt.load f(%n, h(%p)), g(%n, h(%p)) & (%n < %ub)
 *       %d = tt.dot %a, ..., %acc
 *       scf.yield h(%p), %d, %an
 *     }
 *
 * A GPU load does not block until its registers are read, so the next
 * tile's global loads are in flight while this tile's mma work runs.
 * Exactly the loads the original loop made are made (the guard masks off
 * the prefetch past the last iteration and the prologue's load of a loop
 * that runs zero times; their values are never read), only earlier.
 *
 * A load is pipelined when
 *   - it sits directly in the loop body, is not volatile, reads a tensor,
 *     and its result reaches operand A or B of a tt.dot of the body
 *     through at most a few pure ops (tt.trans, casts);
 *   - its pointer, mask and other are computed in the body only by pure
 *     ops without regions (no loads, no dots) from values defined outside
 *     the loop, the induction variable and loop-carried values; the next
 *     iteration's value of a loop-carried value is its scf.yield operand,
 *     which must be computable (by the same rule) where the prefetch goes;
 *   - the body writes no memory (no stores, atomics or calls, at any depth),
 *     so that reading earlier cannot read something older.
 * num_stages (the option, or the loop's tt.num_stages from
 * tl.range(num_stages=)) <= 1 leaves a loop alone; any larger value
 * prefetches one iteration ahead. The prefetched tile is live across the
 * dot besides the current one, so loads are taken (in order) only while a
 * rough estimate of the body's tile registers per thread stays within
 * REG_BUDGET: at 4 warps a 128x128 fp32 accumulator already takes 128 of
 * the 255 registers, and spilling in the k loop costs more than it hides.
 *
 * The pass clones the slices it needs (the original ops stay for their
 * other users); run cse and dce after it to fold the copies.
 */
#include "transform/gpu/gpu_passes.h"
#include "transform/pass.h"

#include <string.h>

/* The estimate (body_pressure) a loop may reach with its prefetched tiles:
 * calibrated with ptxas -v on sm_90a, where the corpus kernels' estimates
 * of 146-196 assembled without spills (126-221 registers) and 258-290
 * spilled. Spilling is not the only cost: on the H100 (2026-11-25, bench/gpu/
 * dot_vs_triton.py) the 8-warp 128x128x64 matmul, pipelined at an estimate
 * of 146 (146 -> 188 registers), ran 14% faster, but the 4-warp causal
 * attention, pipelined at 196 (160 -> 221 registers, three CTAs per SM down
 * to two), ran 11% slower at 32 x 4096. 160 keeps the first and leaves the
 * second, the 4-warp matmul and 128-row attention alone. */
enum { FEED_DEPTH = 4, REG_BUDGET = 160 };


typedef struct Pipe {
    Context *c;
    Op *loop;
    Block *body;
    Op *yield;
    Op *point;  /* where the prefetches go (before it) */
    /* The copies made, by the index of the body op copied (its mark): the
     * body's ops are numbered once, and a table of them is an array rather
     * than a hash map keyed by value */
    Op **cur;   /* a copy before point (of the ops after it) */
    Op **next;  /* the next iteration's copy, before point */
    Op **first; /* the iteration-0 copy, before the loop */
    Value **next_arg; /* by argument number: the next value of the iv and iter_args */
    /* can_cur's and can_next's answers, by op index (see can_cur) */
    int *cur_reach, *next_reach;
    /* body_pressure's values from outside the loop counted so far: by
     * Value.id, those whose entry is `epoch` (an array for every loop of
     * the module, each loop a new epoch: a map per loop cost more than the
     * count it made) */
    struct Seen *seen;
    struct RegsMemo *regs; /* (the module's: see RegsMemo) */
    bool skip_async; /* leave the loads cp.async pipelining takes */
} Pipe;

/* tile_regs by type at the threads of a CTA, a direct-mapped cache kept
 * for every loop of the module (a body has few types, and the loops of a
 * kernel share most of them). */
typedef struct RegsMemo {
    int threads;
    struct {
        Type *type;
        int64_t regs;
    } at[16];
} RegsMemo;

/* See Pipe.seen. */
typedef struct Seen {
    uint32_t *stamp; /* cap long */
    uint32_t cap, epoch;
} Seen;

/* Whether v was seen in this epoch; marks it seen. */
static bool seen_before(Seen *s, const Value *v) {
    if (v->id >= s->cap) {
        /* (values made since the array was sized: the copies of earlier
         * loops) */
        uint32_t cap = v->id + s->cap / 2 + 64;
        s->stamp = tc_realloc(s->stamp, sizeof *s->stamp * cap);
        memset(s->stamp + s->cap, 0, sizeof *s->stamp * (cap - s->cap));
        s->cap = cap;
    }
    if (s->stamp[v->id] == s->epoch) return true;
    s->stamp[v->id] = s->epoch;
    return false;
}

static inline bool in_body(const Pipe *p, const Value *v) {
    return value_parent_block(v) == p->body;
}

static Value *loop_iv(const Pipe *p) { return p->body->args[0]; }

/* Pure, no regions, and cheap to recompute: what a slice may clone. */
bool pipeline_clonable(const Op *op) {
    return op_has_flag(op, OPF_PURE) && !op->nregions && !op_has_flag(op, OPF_TERMINATOR) && op->kind != TT_DOT;
}

static inline bool writes_memory_itself(const Op *op) {
    return op_has_flag(op, OPF_MEM_WRITE) || op->kind == TT_CALL;
}

/* Whether any op under `op` (op included) writes memory or calls out.
 * (A call per op with regions, not per op: both pipelining passes ask it
 * of every loop.) */
bool pipeline_writes_memory(Op *op) {
    if (writes_memory_itself(op)) return true;
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next)
                if (o->nregions ? pipeline_writes_memory(o) : writes_memory_itself(o)) return true;
    return false;
}

/* v is a direct operand (A or B) of a dot in the body, possibly through a
 * few pure single-result ops. */
static bool feeds_dot(const Pipe *p, Value *v, int depth) {
    for (Use *u = v->uses; u; u = u->next) {
        Op *o = u->owner;
        if (o->parent != p->body) continue;
        if (o->kind == TT_DOT && (u == &o->operands[0] || u == &o->operands[1])) return true;
        if (depth < FEED_DEPTH && pipeline_clonable(o) && o->nresults == 1 && feeds_dot(p, op_result(o, 0), depth + 1))
            return true;
    }
    return false;
}

/* ---- register pressure ---------------------------------------------------- */

/* 32-bit registers per thread that a tile takes: fp16 pairs share one;
 * masks are predicates (none counted); a pointer tile keeps one 64-bit
 * address per 16-byte vector, the others are recomputed from it. */
static int64_t tile_regs(Type *t, int threads) {
    if (!ty_is_tensor(t)) return 0;
    Type *e = ty_elem(t);
    int64_t bits;
    if (e->kind == TY_PTR) {
        int pb = e->elem->kind == TY_PTR ? 64 : (e->elem->width < 8 ? 8 : e->elem->width);
        bits = 64 * pb / 128;
        if (bits < 1) bits = 1;
    } else if (e->kind == TY_INT && e->width == 1) {
        return 0;
    } else {
        bits = e->width < 8 ? 8 : e->width;
    }
    int64_t n = ty_numel(t);
    return (n * bits + 32 * (int64_t)threads - 1) / (32 * (int64_t)threads);
}

/* tile_regs of t, through the cache. */
static ALWAYS_INLINE int64_t regs_of(Pipe *p, Type *t) {
    if (!ty_is_tensor(t)) return 0;
    RegsMemo *m = p->regs;
    int h = (int)(MAP_KEY(t) >> 5 & (TC_ARRAY_LEN(m->at) - 1));
    if (m->at[h].type != t) m->at[h].type = t, m->at[h].regs = tile_regs(t, m->threads);
    return m->at[h].regs;
}

static bool costs_nothing(const Value *v) {
    return v->def && (v->def->kind == ARITH_CONSTANT || v->def->kind == TT_SPLAT || v->def->kind == TT_MAKE_RANGE);
}

/* 1 + the index of the last top-level op of the body that uses v (a body
 * value: every use is in the body), one more for the yield; 0 if none. */
static int last_user(const Pipe *p, const Value *v) {
    int last = 0;
    for (const Use *u = v->uses; u; u = u->next) {
        Op *o = op_ancestor_in(p->body, u->owner);
        int l = o ? o->mark + 1 + (o == p->yield) : 0;
        if (l > last) last = l;
    }
    return last;
}

/* The registers of the values from outside the loop that x (an op under
 * the body) reads, each counted once (see Pipe.seen; values that take
 * none are not looked up). An operand of a direct child of the body is from
 * outside exactly when it is not from the body; one of a nested op may be
 * from the nested regions. */
static ALWAYS_INLINE int64_t outside_regs(Pipe *p, Op *x, bool nested) {
    int64_t regs = 0;
    for (int i = 0; i < x->noperands; i++) {
        Value *v = op_operand(x, i);
        int64_t r;
        if (in_body(p, v) || costs_nothing(v) || !(r = regs_of(p, v->type))) continue;
        if (nested) {
            const Op *d = v->def;
            if (!d) d = v->owner_block && v->owner_block->parent ? v->owner_block->parent->parent : NULL;
            if (!d || op_is_ancestor(p->loop, d)) continue;
        }
        if (seen_before(p->seen, v)) continue;
        regs += r;
    }
    return regs;
}

/* outside_regs of the ops nested in x's regions. */
static int64_t nested_outside_regs(Pipe *p, Op *x) {
    int64_t regs = 0;
    for (int r = 0; r < x->nregions; r++)
        for (Block *b = x->regions[r].first; b; b = b->next)
            for (Op *y = b->first; y; y = y->next)
                regs += outside_regs(p, y, true) + (y->nregions ? nested_outside_regs(p, y) : 0);
    return regs;
}

/* The most tile registers live at once in the body (live-out of each op,
 * values from outside the loop live throughout), a rough figure of what
 * ptxas will need: the accumulators, operands and address tiles dominate. */
static int64_t body_pressure(Pipe *p, int64_t *diff) {
    Block *body = p->body;
    int64_t always = 0, peak = 0;
    p->seen->epoch++;
    for (Op *o = body->first; o; o = o->next)
        always += outside_regs(p, o, false) + (o->nregions ? nested_outside_regs(p, o) : 0);
    /* The tiles live after op o (o->mark is its index): an argument whose
     * last user l (as last_user gives it) has l > o->mark + 1, and a result
     * of o or of an op d before it with l > o->mark + 1. Each value counts
     * over one range of ops, added up by a difference array in one sweep
     * (diff: n + 1 zeros). */
    int n = body->last ? body->last->mark + 1 : 0;
    /* (values that take no registers, scalars and masks, count nothing) */
    for (int i = 1; i < body->nargs; i++) {
        int64_t r = regs_of(p, body->args[i]->type);
        int l = r ? last_user(p, body->args[i]) : 0;
        if (l >= 2 && n > 0) {
            diff[0] += r;
            diff[l - 1 < n ? l - 1 : n] -= r;
        }
    }
    for (Op *d = body->first; d; d = d->next)
        for (int i = 0; i < d->nresults; i++) {
            Value *v = op_result(d, i);
            int64_t r;
            if (costs_nothing(v) || !(r = regs_of(p, v->type))) continue;
            int l = last_user(p, v), end = l - 1 > d->mark + 1 ? l - 1 : d->mark + 1;
            diff[d->mark] += r;
            diff[end < n ? end : n] -= r;
        }
    int64_t live = always;
    for (int k = 0; k < n; k++) {
        live += diff[k];
        if (live > peak) peak = live;
    }
    return peak;
}

/* ---- the checks: can a value be recomputed where the prefetch goes? ---- */

/* Each check recurses through the slice of a value, at most MAX_DEPTH ops
 * deep. The check of v at depth d holds exactly when d <= reach(v), where
 * the reach of a clonable op is the least of MAX_DEPTH and its operands'
 * reaches less one, and that of any other op is -1 (never); no op to
 * recompute reaches anywhere (REACH_ANY). So each op's reach is found
 * once, by its index, and kept: the loads' addresses and masks share much
 * of their slices, which a walk per check went over again and again. */
enum { MAX_DEPTH = 64, REACH_ANY = 1 << 20 };
/* (the tables keep reach + 2, so that the zeroed ones read as unknown) */
enum { REACH_KEPT = 2 };

/* An op's reach so far, given that of one more operand (-1 at least). */
static inline int reach_from(int reach, int r) { return r - 1 < reach ? (r > 0 ? r - 1 : -1) : reach; }

static int cur_reach(const Pipe *p, Value *v);

/* v's current value is available before p->point, or can be recomputed there. */
static bool can_cur(const Pipe *p, Value *v, int depth) { return depth <= cur_reach(p, v); }

/* The reach of a body op's result through its operands, each taken by
 * `of` (cur_reach or next_reach), memoised in `memo` by the op's position:
 * -1 unless the op may be cloned ahead. */
static int reach_through(const Pipe *p, Op *def, int *memo, int (*of)(const Pipe *, Value *)) {
    int *m = &memo[def->mark];
    if (*m) return *m - REACH_KEPT;
    int reach = -1;
    if (pipeline_clonable(def)) {
        reach = MAX_DEPTH;
        for (int i = 0; i < def->noperands && reach >= 0; i++) reach = reach_from(reach, of(p, op_operand(def, i)));
    }
    *m = reach + REACH_KEPT;
    return reach;
}

static int cur_reach(const Pipe *p, Value *v) {
    if (!in_body(p, v) || !v->def || v->def->mark < p->point->mark) return REACH_ANY;
    return reach_through(p, v->def, p->cur_reach, cur_reach);
}

/* v's next-iteration value can be computed before p->point (and, since the
 * same rules hold with lb and the inits, its first value before the loop). */
static int next_reach(const Pipe *p, Value *v) {
    if (!in_body(p, v) || v == loop_iv(p)) return REACH_ANY;
    if (!v->def) return can_cur(p, op_operand(p->yield, v->index - 1), 0) ? REACH_ANY : -1;
    return reach_through(p, v->def, p->next_reach, next_reach);
}

static bool can_next(const Pipe *p, Value *v, int depth) { return depth <= next_reach(p, v); }

/* ---- the rewrites ------------------------------------------------------- */

/* A copy of body op def (clonable: no regions) whose operands are what
 * `map` gives for def's, before `before`; recorded in copies[] by def's
 * index. Returns the copy of v (a result of def). */
static Value *clone_at(Pipe *p, Op *def, Value *(*map)(Pipe *, Value *), Op **copies, Op *before, Value *v) {
    Value *ops_small[8];
    Type *tys_small[4];
    int nres = def->nresults;
    Value **ops = def->noperands <= 8 ? ops_small : tc_malloc(sizeof(Value *) * (size_t)def->noperands);
    Type **tys = nres <= 4 ? tys_small : tc_malloc(sizeof(Type *) * (size_t)nres);
    for (int i = 0; i < def->noperands; i++) ops[i] = map(p, op_operand(def, i));
    if (nres == 1) tys[0] = def->results[0].type; /* (most ops: no loop) */
    else
        for (int i = 0; i < nres; i++) tys[i] = def->results[i].type;
    Op *n = op_create(p->c, def->kind, def->loc, ops, def->noperands, tys, nres, 0);
    if (ops != ops_small) tc_free(ops);
    if (tys != tys_small) tc_free(tys);
    op_copy_attrs(p->c, n, def);
    if (nres == 1) n->results[0].name = def->results[0].name;
    else
        for (int i = 0; i < nres; i++) n->results[i].name = def->results[i].name;
    op_insert_before(before, n);
    copies[def->mark] = n;
    return op_result(n, v->index);
}

static Value *cur(Pipe *p, Value *v) {
    if (!in_body(p, v) || !v->def || v->def->mark < p->point->mark) return v;
    Op *k = p->cur[v->def->mark];
    return k ? op_result(k, v->index) : clone_at(p, v->def, cur, p->cur, p->point, v);
}

static Value *next(Pipe *p, Value *v) {
    if (!in_body(p, v)) return v;
    if (v->def) {
        Op *k = p->next[v->def->mark];
        return k ? op_result(k, v->index) : clone_at(p, v->def, next, p->next, p->point, v);
    }
    Value **r = &p->next_arg[v->index];
    if (*r) return *r;
    if (v == loop_iv(p)) {
        Builder b = builder_before(p->c, p->point);
        return *r = build_binary(&b, ARITH_ADDI, v, op_operand(p->loop, 2));
    }
    return *r = cur(p, op_operand(p->yield, v->index - 1));
}

static Value *first(Pipe *p, Value *v) {
    if (!in_body(p, v)) return v;
    if (v == loop_iv(p)) return op_operand(p->loop, 0);
    if (!v->def) return op_operand(p->loop, 3 + v->index - 1);
    Op *k = p->first[v->def->mark];
    return k ? op_result(k, v->index) : clone_at(p, v->def, first, p->first, p->loop, v);
}

/* `iv < ub` as the loop compares (signed unless unsignedCmp). */
static Value *in_range(Pipe *p, Builder *b, Value *iv) {
    int pred = op_attr_k(p->loop, AN_UNSIGNED_CMP) ? CMPI_ULT : CMPI_SLT;
    return build_cmp(b, ARITH_CMPI, pred, iv, op_operand(p->loop, 1));
}

/* The scalar guard of the prefetches before one point, and its splat
 * last made there: loads of one shape share it (one splat, not a copy
 * per load for cse to merge). */
typedef struct Guard {
    Value *cond;
    Value *splat;
} Guard;

/* A copy of `load` whose operands are mapped through `map` (first or
 * next) and whose mask is ANDed with the scalar guard, before `before`. */
static Value *guarded_load(Pipe *p, Op *load, Value *(*map)(Pipe *, Value *), Guard *guard, Op *before) {
    Builder b = builder_before(p->c, before);
    Value *ptr = map(p, op_operand(load, 0));
    Type *mt = ty_with_elem(p->c, ptr->type, ty_i1(p->c));
    if (!guard->splat || guard->splat->type != mt) guard->splat = build_unary(&b, TT_SPLAT, guard->cond, mt);
    Value *mask = guard->splat;
    if (load->noperands > 1) mask = build_binary(&b, ARITH_ANDI, map(p, op_operand(load, 1)), mask);
    Value *ops[3] = {ptr, mask, load->noperands > 2 ? map(p, op_operand(load, 2)) : NULL};
    Type *rt = op_result(load, 0)->type;
    Op *n = build_op(&b, TT_LOAD, ops, load->noperands > 2 ? 3 : 2, &rt, 1, 0);
    op_copy_attrs(p->c, n, load);
    op_result(n, 0)->name = op_result(load, 0)->name;
    return op_result(n, 0);
}

/* A load pipeline-async-copy will likely take on ttg IR (its only user is
 * operand A or B of an fp16/bf16/fp32 dot, or, fp16/bf16 only, a tt.trans
 * whose only user is, `other` absent or a constant):
 * left to it when it is on. */
static bool async_copy_candidate(Op *l) {
    Use *u = op_result(l, 0)->uses;
    bool trans = u && !u->next && u->owner->kind == TT_TRANS;
    if (trans) u = op_result(u->owner, 0)->uses; /* tl.trans(k) */
    if (!u || u->next || u->owner->kind != TT_DOT || u == &u->owner->operands[2]) return false;
    if (op_result(l, 0)->type->rank != 2) return false;
    const Type *e = ty_elem(op_result(l, 0)->type);
    if (e->kind != TY_FLOAT || (e->fkind != FK_F16 && e->fkind != FK_BF16 && e->fkind != FK_F32)) return false;
    /* a transposed fp32 (tf32) tile is stored k-major, which its copies
     * may not be contiguous in: keep its register prefetch */
    if (trans && e->fkind == FK_F32) return false;
    return l->noperands < 3 || (op_operand(l, 2)->def && op_operand(l, 2)->def->kind == ARITH_CONSTANT);
}

static bool pipelinable(const Pipe *p, Op *l) {
    if (l->kind != TT_LOAD || !ty_is_tensor(op_result(l, 0)->type) || !ty_is_tensor(op_operand(l, 0)->type))
        return false;
    int64_t vol = 0;
    if (op_attr_int_k(l, AN_IS_VOLATILE, &vol) && vol) return false;
    if (p->skip_async && async_copy_candidate(l)) return false;
    return feeds_dot(p, op_result(l, 0), 0);
}

/* What both pipelining passes take: num_stages (the option, or the loop's
 * tt.num_stages) above 1, a one-block body whose yield matches the carried
 * values, and no memory written under it. Returns that num_stages and sets
 * *body and *yield, or returns 0. */
int pipeline_loop_shape(Op *loop, int num_stages, Block **body, Op **yield) {
    int64_t ns = num_stages;
    op_attr_int_k(loop, AN_TT_NUM_STAGES, &ns);
    Block *b = region_entry(&loop->regions[0]);
    if (ns <= 1 || !b || b->next || b->nargs != loop->noperands - 2) return 0;
    Op *y = block_terminator(b);
    if (!y || y->kind != SCF_YIELD || y->noperands != loop->noperands - 3) return 0;
    if (pipeline_writes_memory(loop)) return 0;
    *body = b, *yield = y;
    return (int)ns;
}

/* Pipelines the dot-feeding loads of one scf.for; returns how many. */
static int pipeline_loop(Context *c, Op *loop, int num_stages, bool skip_async, Seen *seen, RegsMemo *memo) {
    Block *body;
    Op *yield;
    if (!pipeline_loop_shape(loop, num_stages, &body, &yield)) return 0;

    Pipe p = {.c = c, .loop = loop, .body = body, .yield = yield, .skip_async = skip_async, .seen = seen,
              .regs = memo};
    OpList loads = {0};
    int n = 0;
    for (Op *o = body->first; o; o = o->next) o->mark = n++;
    for (Op *o = body->first; o; o = o->next)
        if (pipelinable(&p, o)) vec_push(&loads, o);
    /* the prefetches go before the first reader of any of the tiles */
    for (int i = 0; i < loads.len; i++)
        for (Use *u = op_result(loads.data[i], 0)->uses; u; u = u->next)
        {
            Op *o = op_ancestor_in(body, u->owner);
            if (o && (!p.point || o->mark < p.point->mark)) p.point = o;
        }
    if (!loads.len) {
        vec_free(&loads);
        return 0;
    }
    /* the tables by op index (see Pipe), body_pressure's, and the new
     * loop's operands, result types and yielded values (for at most every
     * load taken), in one block */
    int nold = loop->noperands, nres = loop->nresults, ny = yield->noperands, nl = loads.len;
    size_t nn = (size_t)n, na = (size_t)body->nargs;
    size_t nptr = 3 * nn + na + (size_t)(nold + nl) + (size_t)(nres + nl) + (size_t)(ny + nl);
    void *tables = tc_calloc(1, nptr * sizeof(void *) + (nn + 1) * sizeof(int64_t) +
                                    (2 * nn + (size_t)nres + 1) * sizeof(int));
    p.cur = tables;
    p.next = p.cur + nn;
    p.first = p.next + nn;
    p.next_arg = (Value **)(p.first + nn);
    Value **opnds = p.next_arg + na;
    Type **types = (Type **)(opnds + nold + nl);
    Value **yops = (Value **)(types + nres + nl);
    int64_t *diff = (int64_t *)(yops + ny + nl);
    p.cur_reach = (int *)(diff + nn + 1);
    p.next_reach = p.cur_reach + nn;
    int *keep = p.next_reach + nn;
    int kept = 0;
    int64_t regs = body_pressure(&p, diff);
    for (int i = 0; i < loads.len; i++) {
        Op *l = loads.data[i];
        bool ok = true;
        for (int k = 0; k < l->noperands && ok; k++) ok = can_next(&p, op_operand(l, k), 0);
        /* the next tile is live across the dot besides the current one */
        int64_t more = regs_of(&p, op_result(l, 0)->type);
        if (ok && regs + more <= REG_BUDGET) loads.data[kept++] = l, regs += more;
    }
    loads.len = kept;
    if (!kept) {
        tc_free(tables);
        vec_free(&loads);
        return 0;
    }

    /* prologue: iteration 0's loads, guarded by lb < ub */
    Builder pb = builder_before(c, loop);
    Guard guard0 = {in_range(&p, &pb, op_operand(loop, 0)), NULL};
    for (int i = 0; i < nold; i++) opnds[i] = op_operand(loop, i);
    for (int i = 0; i < nres; i++) types[i] = op_result(loop, i)->type, keep[i] = i;
    for (int i = 0; i < kept; i++) {
        opnds[nold + i] = guarded_load(&p, loads.data[i], first, &guard0, loop);
        types[nres + i] = opnds[nold + i]->type;
    }
    /* in the body: the next iteration's loads, guarded by iv + step < ub */
    Builder bb = builder_before(c, p.point);
    Guard guard = {in_range(&p, &bb, next(&p, loop_iv(&p))), NULL};
    for (int i = 0; i < ny; i++) yops[i] = op_operand(yield, i);
    for (int i = 0; i < kept; i++) yops[ny + i] = guarded_load(&p, loads.data[i], next, &guard, p.point);
    op_set_operands(c, yield, yops, ny + kept);
    for (int i = 0; i < kept; i++) {
        Op *l = loads.data[i];
        Value *arg = block_add_arg(c, body, op_result(l, 0)->type, l->loc);
        arg->name = op_result(l, 0)->name;
        value_replace_all_uses(op_result(l, 0), arg);
        op_erase(l);
    }
    op_rebuild(c, loop, opnds, nold + kept, types, nres + kept, keep);
    tc_free(tables);
    vec_free(&loads);
    return kept;
}

int pipeline_dot_loads(Context *c, Op *module, int num_stages, int num_warps) {
    /* (no loop or no dot: nothing to pipeline, and no walk) */
    if (!ctx_made_kind(c, SCF_FOR) || !ctx_made_kind(c, TT_DOT)) return 0;
    OpList loops = {0};
    collect_ops(module, SCF_FOR, OP_COUNT, true, &loops);
    int n = 0;
    bool skip_async = async_copy_enabled(); /* (an environment variable: read once) */
    Seen seen = {.cap = ctx_value_count(c)};
    seen.stamp = tc_calloc(seen.cap + 1, sizeof *seen.stamp);
    RegsMemo regs = {.threads = 32 * (num_warps > 0 ? num_warps : 4)};
    for (int i = 0; i < loops.len; i++) n += pipeline_loop(c, loops.data[i], num_stages, skip_async, &seen, &regs);
    tc_free(seen.stamp);
    vec_free(&loops);
    return n;
}

bool pass_pipeline_dot_loads(Op *module, PassContext *pc) {
    int64_t ns = 3; /* Triton's default num_stages */
    int64_t nw = 4;
    op_attr_int(module, "tt.num-stages", &ns);
    op_attr_int(module, "ttg.num-warps", &nw);
    pc->changes += pipeline_dot_loads(pc->ctx, module, (int)ns, (int)nw);
    return true;
}
