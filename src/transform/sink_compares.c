/*
 * sink_compares.c - recompute masks after loops (`sink-compares`).
 *
 * A mask made before a loop and read again after it (a block pointer's
 * bounds, checked when a tile is loaded before the loop and when the
 * result is stored after it: the two checks are one value once cse has
 * run) keeps its predicates live through the whole loop. A GPU thread has
 * seven predicate registers; ptxas keeps the others in general registers
 * and schedules the loop around them, and the fused-attention tutorial's
 * forward ran 1.6x slower on an H200 for its eight row checks (the same
 * loop, ptxas's order of its wgmma and ex2 changed). LLVM's CodeGenPrepare
 * sinks compares into the blocks that use them for the same reason.
 *
 * So each cheap op with an i1 result (arith.cmpi / cmpf, arith.andi / ori
 * / xori of i1, tt.splat / broadcast / expand_dims of i1), read by an op
 * that comes after a loop which itself comes after the op (in the op's
 * block; the reader may be nested in a later op), is cloned before the
 * first such reader past each loop, together with the cheap i1 ops it is
 * made from, and those readers take the clone. Operands of other types
 * are shared: an integer tile across a loop costs general registers,
 * which are many. A reader inside the loop keeps the value (the loop
 * reads it every iteration).
 *
 * The clones repeat instructions cse would merge again: the pass runs
 * last, before the PTX emitter, whose own CSE forgets predicates at the
 * end of each loop.
 */
#include "transform/pass.h"

#include <stdlib.h>

typedef VEC(int) IntVec;
/* A reader past a loop: its use, and the op of the block that holds it. */
typedef struct Late {
    Op *at;
    Use *use;
} Late;
typedef VEC(Late) LateVec;

static int by_place(const void *a, const void *b) {
    int x = ((const Late *)a)->at->mark, y = ((const Late *)b)->at->mark;
    return (x > y) - (x < y);
}

static bool is_i1(const Type *t) {
    const Type *e = ty_elem((Type *)t);
    return e->kind == TY_INT && e->width == 1;
}

/* The kinds of the ops cheap_i1 takes (a table: asked of every op of a
 * block that holds a loop). */
static const bool cheap_kind[OP_COUNT] = {
    [ARITH_CMPI] = true, [ARITH_CMPF] = true, [ARITH_ANDI] = true, [ARITH_ORI] = true, [ARITH_XORI] = true,
    [TT_SPLAT] = true, [TT_BROADCAST] = true, [TT_EXPAND_DIMS] = true,
};

/* A pure op with an i1 result that is cheaper to compute again than to
 * keep. (The kind first: most ops are of none of these.) */
static inline bool cheap_i1(const Op *o) {
    return cheap_kind[o->kind] && o->nresults == 1 && is_i1(o->results[0].type);
}

static bool is_loop(const Op *o) { return o->kind == SCF_FOR || o->kind == SCF_WHILE; }

/* Clones made for one clone point: old value -> its clone. */
enum { MEMO_MAX = 16 };
typedef struct Memo {
    int n;
    Value *old[MEMO_MAX], *made[MEMO_MAX];
} Memo;

/* v's value at `at`: the clone of its cheap i1 op there, made before at
 * (with the cheap i1 ops it is made of), or v itself. */
static Value *clone_at(PassContext *pc, Value *v, Op *at, Memo *memo) {
    Op *d = v->def;
    if (!d || !cheap_i1(d) || d->noperands > 2) return v;
    for (int i = 0; i < memo->n; i++)
        if (memo->old[i] == v) return memo->made[i];
    Value *ops[2];
    for (int i = 0; i < d->noperands; i++) ops[i] = clone_at(pc, op_operand(d, i), at, memo);
    Builder bl = builder_before(pc->ctx, at);
    bl.loc = d->loc;
    Type *t = d->results[0].type;
    Op *c = build_op(&bl, d->kind, ops, d->noperands, &t, 1, 0);
    op_copy_attrs(pc->ctx, c, d);
    c->mark = at->mark; /* (its place in the numbering: at's, one loop count) */
    pc->changes++;
    if (memo->n < MEMO_MAX) memo->old[memo->n] = v, memo->made[memo->n++] = op_result(c, 0);
    return op_result(c, 0);
}

/* The n ops of b, numbered (op->mark) in order; gen[k]: how many loops of
 * b come before op k. */
static void number_block(Block *b, int n, IntVec *gen) {
    vec_reserve(gen, n);
    gen->len = n;
    int k = 0, loops = 0;
    for (Op *o = b->first; o; o = o->next, k++) {
        o->mark = k;
        gen->data[k] = loops;
        loops += is_loop(o);
    }
}

static void sink_block(PassContext *pc, Block *b, IntVec *gen, LateVec *late) {
    bool has_loop = false; /* (most blocks, loop bodies among them, have none: not numbered) */
    int n = 0;
    for (Op *o = b->first; o; o = o->next, n++) {
        has_loop |= is_loop(o);
        for (int r = 0; r < o->nregions; r++)
            for (Block *rb = o->regions[r].first; rb; rb = rb->next) sink_block(pc, rb, gen, late);
    }
    if (!has_loop) return;
    number_block(b, n, gen);
    for (Op *x = b->first; x; x = x->next) {
        if (!cheap_i1(x)) continue;
        int gx = gen->data[x->mark];
        /* the readers past a loop, each with the op of b that holds it,
         * by that op's place in b: one clone per loop passed, before the
         * first reader after it */
        late->len = 0;
        for (Use *u = x->results[0].uses; u; u = u->next) {
            Op *a = op_ancestor_in(b, u->owner);
            if (a && gen->data[a->mark] > gx) vec_push(late, ((Late){a, u}));
        }
        if (!late->len) continue;
        qsort(late->data, (size_t)late->len, sizeof(Late), by_place);
        Memo memo = {0};
        int at_gen = -1;
        Value *clone = NULL;
        for (int i = 0; i < late->len; i++) {
            Late l = late->data[i];
            if (gen->data[l.at->mark] != at_gen) {
                memo.n = 0;
                at_gen = gen->data[l.at->mark];
                clone = clone_at(pc, &x->results[0], l.at, &memo);
            }
            op_set_operand(l.use->owner, (int)(l.use - l.use->owner->operands), clone);
        }
    }
}

bool pass_sink_compares(Op *module, PassContext *pc) {
    if (!ctx_made_kind(pc->ctx, SCF_FOR) && !ctx_made_kind(pc->ctx, SCF_WHILE)) return true;
    IntVec gen = {0};
    LateVec late = {0};
    for (int r = 0; r < module->nregions; r++)
        for (Block *b = module->regions[r].first; b; b = b->next) sink_block(pc, b, &gen, &late);
    vec_free(&gen);
    vec_free(&late);
    return true;
}
