/*
 * verify.c - checks that IR is well formed before a pass trusts it.
 *
 * One walk, top down. For each op: its operand, result and region counts
 * against its row in the op tables; then its own verifier (the table's
 * verifier column: types, attributes, region signatures), run only when
 * the counts are right, so verifiers may index operands freely. For each
 * block: every op must be defined before it is used, and a terminator may
 * only end a block, and only the kind its parent expects (tt.return in
 * tt.func, scf.yield in scf.for and scf.if, ...).
 *
 * Dominance without a dominator tree: regions here are single-block or
 * branch-free, so a value dominates a use when it is defined earlier in the
 * same block as the use (or as an op enclosing the use), or is an argument
 * of such a block. Each block's ops are numbered in `op->mark` when the walk
 * enters the block, so the check is O(nesting depth) per operand. Crossing
 * an op isolated from above (tt.func) on the way up is an error of its own.
 */
#include "dialect/dialect.h"

#include <string.h>

void op_error(DiagEngine *de, const Op *op, const char *fmt, ...) {
    if (!de) return;
    StrBuf sb = {0};
    sb_printf(&sb, "'%s' op ", op_name(op));
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    diag_report(de, DIAG_ERROR, op->loc, 1, "%s", sb_cstr(&sb));
    sb_free(&sb);
}

typedef struct Verifier {
    DiagEngine *de;
    bool ok;
} Verifier;

/* The terminator a block of region `ri` of `parent` must end with;
 * OP_COUNT when the region needs none (the module). */
static OpKind expected_terminator(const Op *parent, int ri) {
    switch (parent->kind) {
    case TT_FUNC: return TT_RETURN;
    case SCF_FOR:
    case SCF_IF: return SCF_YIELD;
    case SCF_WHILE: return ri == 0 ? SCF_CONDITION : SCF_YIELD;
    case TT_REDUCE: return TT_REDUCE_RETURN;
    case TT_SCAN: return TT_SCAN_RETURN;
    case TT_MAP_ELEMENTWISE: return TT_MAP_ELEMENTWISE_RETURN;
    case NN_LAYER:
    case NN_GLOBAL: return NN_YIELD;
    default: return OP_COUNT;
    }
}

static bool counts_ok(Verifier *V, Op *op) {
    const OpInfo *in = op_info_of(op);
    bool ok = true;
    /* (the usual case first: counts as the table says, every operand and
     * result typed) */
    if (op->noperands >= in->nopmin && (in->nopmax < 0 || op->noperands <= in->nopmax) &&
        (in->nres < 0 || op->nresults == in->nres) && op->nregions == in->nregions) {
        bool typed = true;
        for (int i = 0; i < op->noperands; i++) typed &= op->operands[i].value && op->operands[i].value->type;
        for (int i = 0; i < op->nresults; i++) typed &= op->results[i].type != NULL;
        if (typed) return true;
    }
    if (in->nopmax == in->nopmin && op->noperands != in->nopmin) {
        op_error(V->de, op, "expected %d operand%s, but found %d", in->nopmin, in->nopmin == 1 ? "" : "s",
                 op->noperands);
        ok = false;
    } else if (op->noperands < in->nopmin) {
        op_error(V->de, op, "expected at least %d operand%s, but found %d", in->nopmin,
                 in->nopmin == 1 ? "" : "s", op->noperands);
        ok = false;
    } else if (in->nopmax >= 0 && op->noperands > in->nopmax) {
        op_error(V->de, op, "expected at most %d operands, but found %d", in->nopmax, op->noperands);
        ok = false;
    }
    if (in->nres >= 0 && op->nresults != in->nres) {
        op_error(V->de, op, "expected %d result%s, but found %d", in->nres, in->nres == 1 ? "" : "s",
                 op->nresults);
        ok = false;
    }
    if (op->nregions != in->nregions) {
        op_error(V->de, op, "expected %d region%s, but found %d", in->nregions, in->nregions == 1 ? "" : "s",
                 op->nregions);
        ok = false;
    }
    for (int i = 0; i < op->noperands; i++)
        if (!op_operand(op, i) || !op_operand(op, i)->type) {
            op_error(V->de, op, "operand #%d is null", i);
            ok = false;
        }
    for (int i = 0; i < op->nresults; i++)
        if (!op->results[i].type) {
            op_error(V->de, op, "result #%d has no type", i);
            ok = false;
        }
    return ok;
}

/* Whether operand i of user is defined before it, in scope. */
static void check_dominance(Verifier *V, Op *user, int i) {
    Value *v = op_operand(user, i);
    Block *b = value_parent_block(v);
    Op *a = user;
    while (a && a->parent != b) {
        /* in a branch-free region the entry block dominates the others */
        if (b && a->parent && a->parent->parent == b->parent && b == b->parent->first) return;
        Op *p = op_parent_op(a);
        Op *vowner = b && b->parent ? b->parent->parent : NULL;
        if (p && op_has_flag(p, OPF_ISOLATED)) {
            if (vowner && op_is_ancestor(p, vowner)) {
                a = NULL; /* inside p, but not in a region enclosing the use */
                break;
            }
            op_error(V->de, user, "using value defined outside the region (operand #%d)", i);
            V->ok = false;
            return;
        }
        a = p;
    }
    /* not found above the use (a sibling region's value), or later */
    if (!a || !b || a->parent != b || (v->def && (v->def == a || v->def->mark >= a->mark))) {
        op_error(V->de, user, "operand #%d does not dominate this use", i);
        V->ok = false;
    }
}

static void verify_op(Verifier *V, Op *op);

static void verify_block(Verifier *V, Op *parent, int ri, Block *b) {
    int n = 0;
    for (Op *o = b->first; o; o = o->next) {
        op_prefetch(o, OP_PREFETCH_DIST);
        o->mark = n++;
    }
    OpKind want = expected_terminator(parent, ri);
    for (Op *o = b->first; o; o = o->next) {
        if (op_has_flag(o, OPF_TERMINATOR)) {
            if (o != b->last) {
                op_error(V->de, o, "must be the last operation in the parent block");
                V->ok = false;
            } else if (o->kind != want) {
                if (want == OP_COUNT)
                    op_error(V->de, o, "is a terminator and cannot appear in '%s'", op_name(parent));
                else
                    op_error(V->de, o, "is not a valid terminator for '%s' (expected '%s')", op_name(parent),
                             op_info[want].name);
                V->ok = false;
            }
        }
        verify_op(V, o);
    }
    if (want != OP_COUNT && (!b->last || !op_has_flag(b->last, OPF_TERMINATOR))) {
        op_error(V->de, parent, "missing terminator: region #%d must end with '%s'", ri, op_info[want].name);
        V->ok = false;
    }
}

static void verify_op(Verifier *V, Op *op) {
    bool counts = counts_ok(V, op);
    if (!counts) V->ok = false;
    if (counts)
        for (int i = 0; i < op->noperands; i++) {
            /* (most operands are defined earlier in the user's block, or are
             * an argument of it) */
            Value *v = op->operands[i].value;
            if (op->parent && (v->def ? v->def->parent == op->parent && v->def != op && v->def->mark < op->mark
                                      : v->owner_block == op->parent))
                continue;
            check_dominance(V, op, i);
        }
    /* region shape: one block, except a function (0: a declaration) and
     * the module (exactly one) */
    for (int r = 0; r < op->nregions; r++) {
        Region *reg = &op->regions[r];
        int nblocks = 0;
        for (Block *b = reg->first; b; b = b->next) nblocks++;
        bool ok = op->kind == TT_FUNC ? true : op->kind == SCF_IF && r == 1 ? nblocks <= 1 : nblocks == 1;
        if (!ok) {
            op_error(V->de, op, "region #%d must have %s block, found %d", r,
                     op->kind == SCF_IF && r == 1 ? "at most one" : "exactly one", nblocks);
            V->ok = false;
            counts = false;
        }
    }
    const OpInfo *in = op_info_of(op);
    if (counts && in->verify && !in->verify(op, V->de)) V->ok = false;
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next) verify_block(V, op, r, b);
}

bool ir_verify(Op *root, DiagEngine *de) {
    Verifier V = {de, true};
    /* a detached root: its own block (if any) is numbered by its parent */
    if (root->parent) {
        int n = 0;
        for (Op *o = root->parent->first; o; o = o->next) o->mark = n++;
    }
    verify_op(&V, root);
    return V.ok;
}
