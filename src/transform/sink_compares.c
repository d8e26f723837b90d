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

typedef VEC(int) IntVec;
typedef VEC(Use *) UseVec;

static bool is_i1(const Type *t) {
    const Type *e = ty_elem((Type *)t);
    return e->kind == TY_INT && e->width == 1;
}

/* A pure op with an i1 result that is cheaper to compute again than to
 * keep. */
static bool cheap_i1(const Op *o) {
    if (o->nresults != 1 || !is_i1(o->results[0].type)) return false;
    switch (o->kind) {
    case ARITH_CMPI:
    case ARITH_CMPF:
    case ARITH_ANDI:
    case ARITH_ORI:
    case ARITH_XORI:
    case TT_SPLAT:
    case TT_BROADCAST:
    case TT_EXPAND_DIMS:
        return true;
    default:
        return false;
    }
}

static bool is_loop(const Op *o) { return o->kind == SCF_FOR || o->kind == SCF_WHILE; }

/* The op of block b that holds o (o itself, or the op of b whose regions
 * it is nested in). */
static Op *in_block(Block *b, Op *o) {
    while (o && o->parent != b) o = op_parent_op(o);
    return o;
}

/* v's value at `at`: the clone of its cheap i1 op there (memo: old -> new
 * for this clone point), or v itself. */
static Value *clone_at(PassContext *pc, Value *v, Op *at, Map *memo) {
    Op *d = v->def;
    if (!d || !cheap_i1(d)) return v;
    Value *done = map_get(memo, MAP_KEY(v));
    if (done) return done;
    Map operands = {0};
    for (int i = 0; i < d->noperands; i++) {
        Value *o = op_operand(d, i), *n = clone_at(pc, o, at, memo);
        if (n != o) map_put(&operands, MAP_KEY(o), n);
    }
    Op *c = op_clone(pc->ctx, d, &operands);
    map_free(&operands);
    op_insert_before(at, c);
    pc->changes++;
    map_put(memo, MAP_KEY(v), op_result(c, 0));
    return op_result(c, 0);
}

/* The ops of b, numbered (op->mark) in order; gen[k]: how many loops of b
 * come before op k. */
static int number_block(Block *b, IntVec *gen) {
    int n = 0, loops = 0;
    gen->len = 0;
    for (Op *o = b->first; o; o = o->next, n++) {
        o->mark = n;
        vec_push(gen, loops);
        if (is_loop(o)) loops++;
    }
    return loops;
}

static void sink_block(PassContext *pc, Block *b, IntVec *gen, UseVec *late) {
    for (Op *o = b->first; o; o = o->next)
        for (int r = 0; r < o->nregions; r++)
            for (Block *rb = o->regions[r].first; rb; rb = rb->next) sink_block(pc, rb, gen, late);
    if (!number_block(b, gen)) return;
    for (Op *x = b->first; x; x = x->next) {
        if (!cheap_i1(x)) continue;
        int gx = gen->data[x->mark];
        /* the readers past a loop, each with the op of b that holds it */
        late->len = 0;
        for (Use *u = x->results[0].uses; u; u = u->next) {
            Op *a = in_block(b, u->owner);
            if (a && gen->data[a->mark] > gx) vec_push(late, u);
        }
        if (!late->len) continue;
        /* by the position of their op in b: one clone per loop passed,
         * before the first reader after it */
        for (int i = 1; i < late->len; i++)
            for (int j = i; j > 0 && in_block(b, late->data[j - 1]->owner)->mark >
                                         in_block(b, late->data[j]->owner)->mark; j--) {
                Use *t = late->data[j];
                late->data[j] = late->data[j - 1], late->data[j - 1] = t;
            }
        Map memo = {0};
        int at_gen = -1;
        Value *clone = NULL;
        for (int i = 0; i < late->len; i++) {
            Use *u = late->data[i];
            Op *a = in_block(b, u->owner);
            if (gen->data[a->mark] != at_gen) {
                map_free(&memo);
                memo = (Map){0};
                at_gen = gen->data[a->mark];
                clone = clone_at(pc, &x->results[0], a, &memo);
            }
            op_set_operand(u->owner, (int)(u - u->owner->operands), clone);
        }
        map_free(&memo);
        /* (the clones went in before later ops of b: their numbers are
         * theirs to share; renumber before the next op's readers) */
        number_block(b, gen);
    }
}

bool pass_sink_compares(Op *module, PassContext *pc) {
    if (!ctx_made_kind(pc->ctx, SCF_FOR) && !ctx_made_kind(pc->ctx, SCF_WHILE)) return true;
    IntVec gen = {0};
    UseVec late = {0};
    for (int r = 0; r < module->nregions; r++)
        for (Block *b = module->regions[r].first; b; b = b->next) sink_block(pc, b, &gen, &late);
    vec_free(&gen);
    vec_free(&late);
    return true;
}
