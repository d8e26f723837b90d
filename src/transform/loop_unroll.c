/*
 * loop_unroll.c - full unrolling of small scf.for loops with constant
 * bounds (`loop-unroll`).
 *
 * Triton's loops reach LLVM, which unrolls a loop of a few constant
 * iterations completely and folds what the induction variable made
 * constant: `for i in range(3): for j in range(i, 3): acc += i * j` costs
 * nothing at run time there. Here the loops reach the PTX and C emitters as
 * loops, so this pass does LLVM's part on tt IR, before the backends:
 *
 *   scf.for %iv = lb to ub step s iter_args(%a = init) { body; yield y }
 *
 * becomes, for a trip count n = ceil((ub - lb) / s) (0 when ub <= lb; the
 * bounds compared as the loop does, signed unless it has unsignedCmp),
 * n copies of the body placed before the loop, copy k seeing %iv as the
 * constant lb + k * s and %a as copy k-1's yielded values (the inits for the
 * first); the loop's results become the last copy's yields. Canonicalize
 * then folds the constants.
 *
 * A loop is unrolled when
 *   - lb, ub and step are integer constants (or constant sums, differences
 *     and products of them: an inner loop whose bounds came from an outer
 *     loop's variable, once that loop is unrolled), step > 0;
 *   - n <= MAX_TRIP and n * cost(body) <= MAX_COST, where cost counts the
 *     body's ops (nested ones too), a tensor op by its elements per thread
 *     at 4 warps (what it costs once lowered);
 *   - the body holds no tt.load or tt.dot (the loops the pipelining passes
 *     work on stay loops, as Triton keeps them until its software
 *     pipeliner has run), no scf.while, no call;
 *   - the loop has no attribute but unsignedCmp (tl.range's num_stages,
 *     loop_unroll_factor, flatten... ask for something else).
 *
 * Loops are visited innermost first; the copies of an outer loop's inner
 * loops are visited after it is unrolled, when their bounds have become
 * constants.
 */
#include "transform/pass.h"

enum {
    MAX_TRIP = 16,  /* iterations */
    MAX_COST = 256, /* body cost times iterations */
    THREADS = 128,  /* what a tensor op's elements are shared by (4 warps) */
};

/* v's integer value when constants define it, through addi/subi/muli. */
static bool const_int(Value *v, int depth, int64_t *out) {
    Attr *a = value_const(v);
    if (a) return ty_is_int(v->type) || v->type->kind == TY_INDEX ? attr_as_int(a, out) : false;
    Op *d = v->def;
    if (!d || depth > 4 || d->noperands != 2 || (d->kind != ARITH_ADDI && d->kind != ARITH_SUBI && d->kind != ARITH_MULI))
        return false;
    int64_t x, y;
    if (!const_int(op_operand(d, 0), depth + 1, &x) || !const_int(op_operand(d, 1), depth + 1, &y)) return false;
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    uint64_t r = d->kind == ARITH_ADDI ? ux + uy : d->kind == ARITH_SUBI ? ux - uy : ux * uy;
    int w = ty_is_int(v->type) ? v->type->width : 64;
    *out = int_wrap((int64_t)r, w);
    return true;
}

/* The cost of a block's ops, or -1 when the loop must stay a loop. */
static int64_t block_cost(Block *b) {
    int64_t cost = 0;
    for (Op *op = b->first; op; op = op->next) {
        switch (op->kind) {
        case TT_LOAD:
        case TT_DOT:
        case TT_CALL:
        case SCF_WHILE: return -1;
        default: break;
        }
        int64_t c = 1;
        for (int i = 0; i < op->nresults; i++) {
            Type *t = op->results[i].type;
            if (t->kind == TY_TENSOR) {
                int64_t per = (ty_numel(t) + THREADS - 1) / THREADS;
                if (per > c) c = per;
            }
        }
        if (!op_has_flag(op, OPF_TERMINATOR)) cost += c;
        for (int r = 0; r < op->nregions; r++)
            for (Block *nb = op->regions[r].first; nb; nb = nb->next) {
                int64_t inner = block_cost(nb);
                if (inner < 0) return -1;
                cost += inner; /* (a nested loop counted once: it is looked at on its own) */
            }
    }
    return cost;
}

/* The trip count of an unrollable loop, or -1. */
static int64_t trip_count(Op *loop, int64_t *lb_out, int64_t *step_out) {
    if (loop->nregions != 1 || !loop->regions[0].first || loop->regions[0].first->next) return -1;
    for (int i = 0; i < loop->nattrs; i++)
        if (strcmp(loop->attrs[i].name, "unsignedCmp") != 0) return -1;
    int64_t lb, ub, step;
    if (!const_int(op_operand(loop, 0), 0, &lb) || !const_int(op_operand(loop, 1), 0, &ub) ||
        !const_int(op_operand(loop, 2), 0, &step) || step <= 0)
        return -1;
    Type *it = op_operand(loop, 0)->type;
    int w = ty_is_int(it) ? it->width : 64;
    int64_t n;
    if (op_attr(loop, "unsignedCmp")) {
        uint64_t l = int_wrap_u(lb, w), u = int_wrap_u(ub, w);
        n = u <= l ? 0 : (int64_t)((u - l + (uint64_t)step - 1) / (uint64_t)step);
    } else {
        int64_t l = int_wrap(lb, w), u = int_wrap(ub, w);
        n = u <= l ? 0 : (int64_t)(((uint64_t)u - (uint64_t)l + (uint64_t)step - 1) / (uint64_t)step);
    }
    if (n < 0 || n > MAX_TRIP) return -1;
    *lb_out = lb;
    *step_out = step;
    return n;
}

typedef OpList LoopList;

/* Replaces loop by its iterations; false when it must stay. */
static bool unroll(Context *c, Op *loop, LoopList *todo) {
    int64_t lb, step, n = trip_count(loop, &lb, &step);
    if (n < 0) return false;
    Block *body = loop->regions[0].first;
    int64_t cost = block_cost(body);
    if (cost < 0 || n * cost > MAX_COST) return false;
    Op *yield = block_terminator(body);
    int niter = loop->noperands - 3;
    if (!yield || yield->noperands != niter || loop->nresults != niter || body->nargs != niter + 1) return false;
    Value **cur = tc_malloc(sizeof(Value *) * (size_t)(niter + 1));
    for (int i = 0; i < niter; i++) cur[i] = op_operand(loop, 3 + i);
    Builder b = builder_before(c, loop);
    Type *it = body->args[0]->type;
    int w = ty_is_int(it) ? it->width : 64;
    for (int64_t k = 0; k < n; k++) {
        Map map = {0};
        map_put(&map, MAP_KEY(body->args[0]), build_const_int(&b, it, int_wrap((int64_t)((uint64_t)lb + (uint64_t)k * (uint64_t)step), w)));
        for (int i = 0; i < niter; i++) map_put(&map, MAP_KEY(body->args[1 + i]), cur[i]);
        for (Op *op = body->first; op && op != yield; op = op->next) {
            Op *copy = op_clone(c, op, &map);
            op_insert_before(loop, copy);
            collect_ops(copy, SCF_FOR, OP_COUNT, true, todo);
        }
        for (int i = 0; i < niter; i++) {
            Value *y = op_operand(yield, i);
            Value *m = map_get(&map, MAP_KEY(y));
            cur[i] = m ? m : y; /* (a value from outside the body yields itself) */
        }
        map_free(&map);
    }
    for (int i = 0; i < niter; i++) value_replace_all_uses(op_result(loop, i), cur[i]);
    tc_free(cur);
    op_erase(loop);
    return true;
}

bool pass_loop_unroll(Op *module, PassContext *pc) {
    if (!ctx_made_kind(pc->ctx, SCF_FOR)) return true; /* (no loop: no walk) */
    LoopList todo = {0};
    collect_ops(module, SCF_FOR, OP_COUNT, true, &todo); /* post-order: inner loops first */
    for (int i = 0; i < todo.len; i++) {
        /* a loop an outer one's unrolling copied is erased with it: its
         * copies are what is on the list after it */
        Op *loop = todo.data[i];
        if (loop->kind == SCF_FOR && loop->parent && unroll(pc->ctx, loop, &todo)) pc->changes++;
    }
    vec_free(&todo);
    return true;
}
