/*
 * dce.c - dead code elimination (`dce`).
 *
 * Three kinds of dead code go:
 *
 *  1. ops without side effects whose results are unused (op_is_removable:
 *     pure ops, non-volatile loads, and scf.for / scf.if / tt.reduce whose bodies are pure);
 *  2. loop-carried values of scf.for that nothing reads: iter_arg i goes when
 *     result i is unused and the body uses its block argument at most as
 *     operand i of the scf.yield (then the init, the argument, the yielded
 *     value and the result all go, and the yielded chain dies in step 1);
 *     Likewise an scf.while result that nothing reads and whose argument in
 *     the after region is unused stops being forwarded by scf.condition
 *     (MLIR's WhileUnusedResult; the before region and the inits keep it);
 *  3. private functions (`tt.func private`) that no call reaches.
 *
 * Steps 1 and 2 are one backward sweep: each block is visited from its last
 * op to its first, and an op's regions are visited before the op itself.
 * Since a value's uses all follow its definition (in the block, or inside a
 * later op's regions), every use of a value has been seen, and deleted if
 * dead, by the time its definition is reached, so one sweep finds every dead
 * chain: O(ops). Step 3 counts calls per function and erases uncalled
 * private ones from a worklist, decrementing the counts of their callees.
 */
#include "transform/pass.h"

#include <string.h>

/* Drops the loop-carried values of an scf.for that nothing reads. */
static Op *prune_for_iter_args(PassContext *pc, Op *op) {
    Context *c = pc->ctx;
    int ninit = op->noperands - 3;
    if (ninit <= 0) return op;
    Block *body = region_entry(&op->regions[0]);
    Op *yield = body ? block_terminator(body) : NULL;
    if (!yield || yield->kind != SCF_YIELD || yield->noperands != ninit) return op;
    bool *drop = tc_calloc((size_t)ninit, sizeof(bool));
    int ndrop = 0;
    for (int i = 0; i < ninit; i++) {
        if (op->results[i].uses) continue;
        Value *arg = body->args[i + 1];
        bool only_yield = true;
        for (Use *u = arg->uses; u; u = u->next)
            if (u->owner != yield || (int)(u - yield->operands) != i) only_yield = false;
        if (!only_yield) continue;
        drop[i] = true;
        ndrop++;
    }
    if (ndrop) {
        /* canonicalize cannot act on the loop rebuilt with the values it
         * keeps, their arguments and results as they were (pass.h), unless
         * a dropped init or yielded value loses a use it may see */
        bool seen = false;
        for (int i = 0; i < ninit; i++)
            if (drop[i])
                seen |= !canonicalize_unmoved_by_unuse(op_operand(op, 3 + i)) ||
                        !canonicalize_unmoved_by_unuse(op_operand(yield, i));
        int nkeep = ninit - ndrop, k = 0;
        Value **ops = tc_malloc(sizeof(Value *) * (size_t)(3 + nkeep));
        Value **yops = tc_malloc(sizeof(Value *) * (size_t)(nkeep + 1));
        Type **tys = tc_malloc(sizeof(Type *) * (size_t)(nkeep + 1));
        int *keep = tc_malloc(sizeof(int) * (size_t)ninit);
        for (int i = 0; i < 3; i++) ops[i] = op_operand(op, i);
        for (int i = 0; i < ninit; i++) {
            if (drop[i]) {
                keep[i] = -1;
                continue;
            }
            keep[i] = k;
            ops[3 + k] = op_operand(op, 3 + i);
            yops[k] = op_operand(yield, i);
            tys[k] = op->results[i].type;
            k++;
        }
        op_set_operands(c, yield, yops, nkeep);
        for (int i = ninit - 1; i >= 0; i--)
            if (drop[i]) block_erase_arg(body, i + 1);
        op = op_rebuild(c, op, ops, 3 + nkeep, tys, nkeep, keep);
        pc->changes += ndrop;
        if (!seen) pc->unseen += ndrop;
        tc_free(ops);
        tc_free(yops);
        tc_free(tys);
        tc_free(keep);
    }
    tc_free(drop);
    return op;
}

/* Drops the scf.while results that nothing reads and that the after region
 * does not use: scf.condition stops forwarding them. */
static Op *prune_while_results(Context *c, Op *op, int *changes) {
    Block *before = region_entry(&op->regions[0]), *after = region_entry(&op->regions[1]);
    Op *cond = before ? block_terminator(before) : NULL;
    int n = op->nresults;
    if (!n || !cond || cond->kind != SCF_CONDITION || cond->noperands != n + 1 || !after || after->nargs != n)
        return op;
    int *keep = tc_malloc(sizeof(int) * (size_t)n);
    Value **cops = tc_malloc(sizeof(Value *) * (size_t)(n + 1));
    Type **tys = tc_malloc(sizeof(Type *) * (size_t)n);
    int k = 0;
    cops[0] = op_operand(cond, 0);
    for (int i = 0; i < n; i++) {
        if (!op->results[i].uses && !after->args[i]->uses) {
            keep[i] = -1;
            continue;
        }
        keep[i] = k;
        cops[1 + k] = op_operand(cond, 1 + i);
        tys[k] = op->results[i].type;
        k++;
    }
    if (k < n) {
        op_set_operands(c, cond, cops, 1 + k);
        for (int i = n - 1; i >= 0; i--)
            if (keep[i] < 0) block_erase_arg(after, i);
        Value **ops = tc_malloc(sizeof(Value *) * (size_t)(op->noperands + 1));
        for (int i = 0; i < op->noperands; i++) ops[i] = op_operand(op, i);
        op = op_rebuild(c, op, ops, op->noperands, tys, k, keep);
        tc_free(ops);
        *changes += n - k;
    }
    tc_free(keep);
    tc_free(cops);
    tc_free(tys);
    return op;
}

static void sweep_block(PassContext *pc, Block *b);

static void sweep_op(PassContext *pc, Op *op) {
    if (op->kind == SCF_FOR) op = prune_for_iter_args(pc, op);
    if (op->kind == SCF_WHILE) op = prune_while_results(pc->ctx, op, &pc->changes);
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].last; b; b = b->prev) sweep_block(pc, b);
    if (op_is_trivially_dead(op)) {
        pc->unseen += canonicalize_unmoved_by_erase(op);
        op_erase(op);
        pc->changes++;
    }
}

static void sweep_block(PassContext *pc, Block *b) {
    for (Op *o = b->last, *prev; o; o = prev) {
        prev = o->prev;
        op_prefetch(o, -OP_PREFETCH_DIST); /* this sweep runs backwards */
        /* (most ops: no regions and one result, in use) */
        if (o->nregions || o->nresults != 1 || !o->results[0].uses) sweep_op(pc, o);
    }
}

/* ---- unreachable private functions ------------------------------------------ */

typedef struct CallCount {
    Map count; /* interned-name pointer -> (count + 1) */
    Context *ctx;
} CallCount;

static void count_call(Op *op, void *ud) {
    CallCount *cc = ud;
    if (op->kind != TT_CALL || !call_callee(op)) return;
    uint64_t k = MAP_KEY(ctx_intern(cc->ctx, call_callee(op)));
    uintptr_t n = (uintptr_t)map_get(&cc->count, k);
    map_put(&cc->count, k, (void *)(n ? n + 1 : 2));
}

static void uncount_call(Op *op, void *ud) {
    CallCount *cc = ud;
    if (op->kind != TT_CALL || !call_callee(op)) return;
    uint64_t k = MAP_KEY(ctx_intern(cc->ctx, call_callee(op)));
    uintptr_t n = (uintptr_t)map_get(&cc->count, k);
    if (n > 1) map_put(&cc->count, k, (void *)(n - 1));
}

static bool func_called(CallCount *cc, Op *f) {
    return (uintptr_t)map_get(&cc->count, MAP_KEY(ctx_intern(cc->ctx, func_name(f)))) > 1;
}

/* Erases private functions no call reaches; returns how many. */
int erase_uncalled_private_funcs(Context *c, Op *module) {
    bool any_private = false;
    for (Op *f = module_body(module)->first; f && !any_private; f = f->next)
        any_private = f->kind == TT_FUNC && func_is_private(f);
    if (!any_private) return 0; /* skip the walk over every op */
    CallCount cc = {.ctx = c};
    op_walk(module, count_call, &cc, false);
    VEC(Op *) work = {0};
    for (Op *f = module_body(module)->first; f; f = f->next)
        if (f->kind == TT_FUNC && func_is_private(f) && !func_called(&cc, f)) vec_push(&work, f);
    int n = 0;
    while (work.len) {
        Op *f = vec_pop(&work);
        if (!f->parent) continue;
        op_walk(f, uncount_call, &cc, false);
        op_erase(f);
        n++;
        /* callees whose last call went with f */
        for (Op *g = module_body(module)->first; g && work.len == 0; g = g->next)
            if (g->kind == TT_FUNC && func_is_private(g) && !func_called(&cc, g)) vec_push(&work, g);
    }
    vec_free(&work);
    map_free(&cc.count);
    return n;
}

bool pass_dce(Op *module, PassContext *pc) {
    for (Op *f = module_body(module)->first; f; f = f->next)
        for (int r = 0; r < f->nregions; r++)
            for (Block *b = f->regions[r].last; b; b = b->prev) sweep_block(pc, b);
    /* (the functions no call reaches: canonicalize works within one) */
    int n = erase_uncalled_private_funcs(pc->ctx, module);
    pc->changes += n;
    pc->unseen += n;
    return true;
}
