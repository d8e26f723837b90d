/*
 * licm.c - loop-invariant code motion (`licm`).
 *
 * An op in the body of an scf.for or scf.while (either region of the
 * while) moves to just before the loop when
 *
 *   - it is pure and has no regions (never loads, stores, atomics, calls);
 *   - every operand is defined outside the loop;
 *   - it cannot trap when executed speculatively: the body may run zero
 *     times, and pure ops are safe to run anyway, except integer division
 *     and remainder, which move only when the divisor is a constant with no
 *     zero element (and, for signed ones, no -1, since INT_MIN / -1 is
 *     undefined too).
 *
 * Loops are visited in post-order, so an inner loop's invariants first move
 * into the outer loop's body and can then leave it too. Within a body, ops
 * are visited in order and an op's operands are checked after the ops
 * before it have moved, so whole invariant chains hoist in one pass. An
 * operand of a direct child of the body is inside the loop exactly when it
 * is defined in that block (an op result still there, or a block argument),
 * so the test is O(1) per operand and the pass is O(ops).
 */
#include "transform/pass.h"

static bool is_division(OpKind k) {
    return k == ARITH_DIVSI || k == ARITH_DIVUI || k == ARITH_REMSI || k == ARITH_REMUI ||
           k == ARITH_CEILDIVSI || k == ARITH_FLOORDIVSI;
}

/* The divisor is a constant whose every element is non-zero (and not -1
 * for signed division). */
static bool safe_divisor(Op *op) {
    Attr *a = value_const(op_operand(op, 1));
    if (!a) return false;
    bool is_signed = op->kind != ARITH_DIVUI && op->kind != ARITH_REMUI;
    int w = ty_elem(op_operand(op, 1)->type)->kind == TY_INT ? ty_elem(op_operand(op, 1)->type)->width : 64;
    int64_t n = 1;
    const int64_t *vals;
    if (a->kind == ATTR_INT) vals = &a->i;
    else if (a->kind == ATTR_DENSE && a->dense.ints) vals = a->dense.ints, n = a->dense.nvals;
    else return false;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = int_wrap(vals[i], w);
        if (v == 0 || (is_signed && v == -1)) return false;
    }
    return true;
}

static bool can_hoist(Op *op, Block *body) {
    if (!op_has_flag(op, OPF_PURE) || op_has_flag(op, OPF_TERMINATOR) || op->nregions) return false;
    for (int i = 0; i < op->noperands; i++)
        if (value_parent_block(op_operand(op, i)) == body) return false;
    if (is_division(op->kind) && !safe_divisor(op)) return false;
    return true;
}

static void hoist_loop(Op *loop, PassContext *pc) {
    /* tl.range(..., disable_licm=True): the user keeps the loop's invariants
     * in it (to hold fewer registers across it), as Triton's LICM does */
    if (op_attr(loop, "tt.disable_licm")) return;
    for (int r = 0; r < loop->nregions; r++) {
        Block *body = region_entry(&loop->regions[r]);
        if (!body || body->next) continue; /* structured loops have one block */
        for (Op *op = body->first, *next; op; op = next) {
            next = op->next;
            if (!can_hoist(op, body)) continue;
            pc->unseen += canonicalize_unmoved_by_hoist(op);
            op_move_before(op, loop);
            pc->changes++;
        }
    }
}

bool pass_licm(Op *module, PassContext *pc) {
    if (!ctx_made_kind(pc->ctx, SCF_FOR) && !ctx_made_kind(pc->ctx, SCF_WHILE)) return true; /* (no loop: no walk) */
    /* (the loops first: hoisting moves no op with regions, so neither the
     * loops nor their order change on the way) */
    OpList loops = {0};
    collect_ops(module, SCF_FOR, SCF_WHILE, true, &loops);
    for (int i = 0; i < loops.len; i++) hoist_loop(loops.data[i], pc);
    vec_free(&loops);
    return true;
}
