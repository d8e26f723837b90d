/*
 * scf.c - verifiers for structured control flow.
 *
 *   scf.for   lb, ub, step (one integer type), then inits; the body's
 *             arguments are the induction variable and one per init; the
 *             results, inits, iter_args and yielded values agree in type.
 *   scf.if    an i1 condition; with results, both branches yield them.
 *   scf.while `before` takes the inits and ends in scf.condition, whose
 *             forwarded values are the `after` region's arguments and the
 *             results; `after` yields the next inits.
 */
#include "dialect/dialect.h"

static Type *opnd(Op *op, int i) { return op_operand(op, i)->type; }

bool verify_for(Op *op, DiagEngine *de) {
    Type *t = opnd(op, 0);
    if (!vfy_type(de, op, t, t->kind == TY_INT || t->kind == TY_INDEX,
                  "lower bound must be a scalar integer or index"))
        return false;
    if (opnd(op, 1) != t || opnd(op, 2) != t) {
        op_error(de, op, "lower bound, upper bound and step must have one type, got '%s', '%s' and '%s'",
                 vfy_tstr(de, t), vfy_tstr(de, opnd(op, 1)), vfy_tstr(de, opnd(op, 2)));
        return false;
    }
    int niter = op->noperands - 3;
    if (op->nresults != niter) {
        op_error(de, op, "has %d iter_args but %d results", niter, op->nresults);
        return false;
    }
    Block *b = op->regions[0].first;
    if (b->nargs != 1 + niter) {
        op_error(de, op, "body must have %d arguments (induction variable and iter_args), found %d", 1 + niter,
                 b->nargs);
        return false;
    }
    if (b->args[0]->type != t) {
        op_error(de, op, "induction variable type '%s' must match the bounds' type '%s'",
                 vfy_tstr(de, b->args[0]->type), vfy_tstr(de, t));
        return false;
    }
    for (int i = 0; i < niter; i++) {
        Type *init = opnd(op, 3 + i), *arg = b->args[1 + i]->type, *r = op->results[i].type;
        if (init != arg || init != r) {
            op_error(de, op, "iter_arg #%d: init '%s', block argument '%s' and result '%s' must have one type", i,
                     vfy_tstr(de, init), vfy_tstr(de, arg), vfy_tstr(de, r));
            return false;
        }
    }
    return true;
}

bool verify_if(Op *op, DiagEngine *de) {
    Type *c = opnd(op, 0);
    if (!vfy_type(de, op, c, c->kind == TY_INT && c->width == 1, "condition must be i1")) return false;
    if (op->nresults && !op->regions[1].first) {
        op_error(de, op, "must have an else block if defining values");
        return false;
    }
    for (int r = 0; r < 2; r++)
        if (op->regions[r].first && op->regions[r].first->nargs) {
            op_error(de, op, "region #%d must have no arguments", r);
            return false;
        }
    return true;
}

bool verify_while(Op *op, DiagEngine *de) {
    Block *before = op->regions[0].first, *after = op->regions[1].first;
    if (before->nargs != op->noperands) {
        op_error(de, op, "'before' region must have %d arguments (one per init), found %d", op->noperands,
                 before->nargs);
        return false;
    }
    for (int i = 0; i < op->noperands; i++)
        if (before->args[i]->type != opnd(op, i)) {
            op_error(de, op, "'before' argument #%d has type '%s' but its init has type '%s'", i,
                     vfy_tstr(de, before->args[i]->type), vfy_tstr(de, opnd(op, i)));
            return false;
        }
    if (after->nargs != op->nresults) {
        op_error(de, op, "'after' region must have %d arguments (one per result), found %d", op->nresults,
                 after->nargs);
        return false;
    }
    for (int i = 0; i < op->nresults; i++)
        if (after->args[i]->type != op->results[i].type) {
            op_error(de, op, "'after' argument #%d has type '%s' but result #%d has type '%s'", i,
                     vfy_tstr(de, after->args[i]->type), i, vfy_tstr(de, op->results[i].type));
            return false;
        }
    return true;
}

/* Values passed on (operands from `from`) against the types expected. */
static bool match_types(Op *op, DiagEngine *de, int from, Type **want, int n, const char *what) {
    int have = op->noperands - from;
    if (have != n) {
        op_error(de, op, "has %d operand%s but %s expects %d", have, have == 1 ? "" : "s", what, n);
        return false;
    }
    for (int i = 0; i < n; i++)
        if (opnd(op, from + i) != want[i]) {
            op_error(de, op, "operand #%d has type '%s' but %s expects '%s'", from + i,
                     vfy_tstr(de, opnd(op, from + i)), what, vfy_tstr(de, want[i]));
            return false;
        }
    return true;
}

bool verify_yield(Op *op, DiagEngine *de) {
    Op *p = op_parent_op(op);
    if (!p || !(p->kind == SCF_FOR || p->kind == SCF_IF || (p->kind == SCF_WHILE && op->parent->parent == &p->regions[1]))) {
        op_error(de, op, "expects parent op to be one of 'scf.for, scf.if, scf.while'");
        return false;
    }
    Type *want[64];
    int n;
    if (p->kind == SCF_WHILE) {
        /* the next iteration's inits */
        n = p->noperands;
        if (n > 64) return true;
        for (int i = 0; i < n; i++) want[i] = opnd(p, i);
        return match_types(op, de, 0, want, n, "the enclosing 'scf.while' (its inits)");
    }
    n = p->nresults;
    if (n > 64) return true;
    for (int i = 0; i < n; i++) want[i] = p->results[i].type;
    return match_types(op, de, 0, want, n, p->kind == SCF_FOR ? "the enclosing 'scf.for'" : "the enclosing 'scf.if'");
}

bool verify_condition(Op *op, DiagEngine *de) {
    Op *p = op_parent_op(op);
    if (!p || p->kind != SCF_WHILE || op->parent->parent != &p->regions[0]) {
        op_error(de, op, "expects parent op 'scf.while' (its 'before' region)");
        return false;
    }
    Type *c = opnd(op, 0);
    if (!vfy_type(de, op, c, c->kind == TY_INT && c->width == 1, "condition must be i1")) return false;
    Type *want[64];
    int n = p->nresults;
    if (n > 64) return true;
    for (int i = 0; i < n; i++) want[i] = p->results[i].type;
    return match_types(op, de, 1, want, n, "the enclosing 'scf.while' (its results)");
}
