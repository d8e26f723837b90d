/*
 * arith.c - verifiers for arith (and the math and tt rows that share their
 * rules): element kinds, equal types for element-wise ops, and casts that
 * really widen, narrow or change kind. Messages follow MLIR's wording so a
 * Triton user recognises them.
 */
#include "dialect/dialect.h"

#include <stdio.h>

static Type *opnd(Op *op, int i) { return op_operand(op, i)->type; }
static Type *res(Op *op) { return op->results[0].type; }

/* The width of an element type (64 for index and pointers). */
static int elem_width(Type *t) {
    Type *e = ty_elem(t);
    return e->kind == TY_INDEX || e->kind == TY_PTR ? 64 : e->width;
}

bool verify_constant(Op *op, DiagEngine *de) {
    Attr *v = op_attr_k(op, AN_VALUE);
    if (!v) {
        op_error(de, op, "requires attribute 'value'");
        return false;
    }
    Type *t = v->kind == ATTR_BOOL ? NULL : v->type;
    bool kind_ok = v->kind == ATTR_INT || v->kind == ATTR_FLOAT || v->kind == ATTR_DENSE || v->kind == ATTR_BOOL;
    if (!kind_ok) {
        op_error(de, op, "value must be an integer, float or dense elements attribute");
        return false;
    }
    if (v->kind == ATTR_BOOL) {
        Type *r = res(op);
        if (r->kind != TY_INT || r->width != 1) {
            op_error(de, op, "value type 'i1' does not match result type '%s'", vfy_tstr(de, r));
            return false;
        }
        return true;
    }
    if (t != res(op)) {
        op_error(de, op, "value type '%s' does not match result type '%s'", vfy_tstr(de, t), vfy_tstr(de, res(op)));
        return false;
    }
    if (v->kind == ATTR_DENSE) {
        if (t->kind != TY_TENSOR || (v->dense.nvals != 1 && v->dense.nvals != ty_numel(t))) {
            op_error(de, op, "dense value does not match its type '%s'", vfy_tstr(de, t));
            return false;
        }
        bool fl = ty_is_float_like(t);
        if ((fl && !v->dense.floats) || (!fl && !v->dense.ints)) {
            op_error(de, op, "dense value elements do not match element type of '%s'", vfy_tstr(de, t));
            return false;
        }
    } else if (v->kind == ATTR_INT ? !(t->kind == TY_INT || t->kind == TY_INDEX) : t->kind != TY_FLOAT) {
        op_error(de, op, "value does not match its type '%s'", vfy_tstr(de, t));
        return false;
    }
    return true;
}

/* The messages are formatted only on failure: these run for most ops. */
bool verify_int_binary(Op *op, DiagEngine *de) {
    for (int i = 0; i < op->noperands; i++) {
        if (ty_is_int_like(opnd(op, i))) continue;
        char what[64];
        snprintf(what, sizeof what, "operand #%d must be signless-integer-like", i);
        return vfy_type(de, op, opnd(op, i), false, what);
    }
    return vfy_same_types(de, op);
}

bool verify_float_same(Op *op, DiagEngine *de) {
    for (int i = 0; i < op->noperands; i++) {
        if (ty_is_float_like(opnd(op, i))) continue;
        char what[64];
        snprintf(what, sizeof what, "operand #%d must be floating-point-like", i);
        return vfy_type(de, op, opnd(op, i), false, what);
    }
    return vfy_same_types(de, op);
}

bool verify_cmp(Op *op, DiagEngine *de) {
    bool is_int = op->kind == ARITH_CMPI;
    int64_t p;
    if (!op_attr_int_k(op, AN_PREDICATE, &p) || p < 0 || p >= (is_int ? CMPI_COUNT : CMPF_COUNT)) {
        op_error(de, op, "requires a valid 'predicate' attribute");
        return false;
    }
    Type *a = opnd(op, 0);
    if (!vfy_type(de, op, a, is_int ? ty_is_int_like(a) : ty_is_float_like(a),
                  is_int ? "operand #0 must be signless-integer-like" : "operand #0 must be floating-point-like"))
        return false;
    if (opnd(op, 1) != a) {
        op_error(de, op, "requires all operands to have the same type, got '%s' and '%s'", vfy_tstr(de, a),
                 vfy_tstr(de, opnd(op, 1)));
        return false;
    }
    Type *r = res(op);
    if (!ty_is_i1_like(r) || !ty_same_shape(r, a)) {
        op_error(de, op, "result must be i1 with the operands' shape, got '%s' for operands of type '%s'",
                 vfy_tstr(de, r), vfy_tstr(de, a));
        return false;
    }
    return true;
}

bool verify_select(Op *op, DiagEngine *de) {
    Type *c = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, c, ty_is_i1_like(c), "condition must be i1 or a tensor of i1")) return false;
    if (opnd(op, 1) != r || opnd(op, 2) != r) {
        op_error(de, op, "requires the true and false values and the result to have one type, got '%s', '%s' and '%s'",
                 vfy_tstr(de, opnd(op, 1)), vfy_tstr(de, opnd(op, 2)), vfy_tstr(de, r));
        return false;
    }
    if (c->kind == TY_TENSOR && !ty_same_shape(c, r)) {
        op_error(de, op, "condition shape '%s' does not match result '%s'", vfy_tstr(de, c), vfy_tstr(de, r));
        return false;
    }
    return true;
}

/* A cast's operand and result: same shape, element kinds as required. */
static bool cast_kinds(Op *op, DiagEngine *de, bool (*src_ok)(const Type *), const char *src_what,
                       bool (*dst_ok)(const Type *), const char *dst_what) {
    Type *a = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, a, src_ok(a), src_what)) return false;
    if (!vfy_type(de, op, r, dst_ok(r), dst_what)) return false;
    return vfy_same_shape(de, op, a, r);
}

static bool int_elem(const Type *t) { return (t->kind == TY_TENSOR ? t->elem : t)->kind == TY_INT; }

static bool width_rule(Op *op, DiagEngine *de, bool wider) {
    int a = elem_width(opnd(op, 0)), r = elem_width(res(op));
    if (wider ? r > a : r < a) return true;
    op_error(de, op, "result type '%s' must be %s than operand type '%s'", vfy_tstr(de, res(op)),
             wider ? "wider" : "shorter", vfy_tstr(de, opnd(op, 0)));
    return false;
}

bool verify_int_ext(Op *op, DiagEngine *de) {
    return cast_kinds(op, de, int_elem, "operand must be signless-integer-like", int_elem,
                      "result must be signless-integer-like") &&
           width_rule(op, de, true);
}

bool verify_int_trunc(Op *op, DiagEngine *de) {
    return cast_kinds(op, de, int_elem, "operand must be signless-integer-like", int_elem,
                      "result must be signless-integer-like") &&
           width_rule(op, de, false);
}

bool verify_float_ext(Op *op, DiagEngine *de) {
    if (!cast_kinds(op, de, ty_is_float_like, "operand must be floating-point-like", ty_is_float_like,
                    "result must be floating-point-like"))
        return false;
    return width_rule(op, de, true);
}

bool verify_float_trunc(Op *op, DiagEngine *de) {
    if (!cast_kinds(op, de, ty_is_float_like, "operand must be floating-point-like", ty_is_float_like,
                    "result must be floating-point-like"))
        return false;
    return width_rule(op, de, false);
}

bool verify_int_to_float(Op *op, DiagEngine *de) {
    return cast_kinds(op, de, int_elem, "operand must be signless-integer-like", ty_is_float_like,
                      "result must be floating-point-like");
}

bool verify_float_to_int(Op *op, DiagEngine *de) {
    return cast_kinds(op, de, ty_is_float_like, "operand must be floating-point-like", int_elem,
                      "result must be signless-integer-like");
}

bool verify_bitcast(Op *op, DiagEngine *de) {
    Type *a = opnd(op, 0), *r = res(op);
    if (!vfy_same_shape(de, op, a, r)) return false;
    Type *ea = ty_elem(a), *er = ty_elem(r);
    bool ptrs = ea->kind == TY_PTR || er->kind == TY_PTR;
    if (op->kind == ARITH_BITCAST && ptrs) {
        op_error(de, op, "cannot bitcast pointers; use tt.bitcast");
        return false;
    }
    if (ptrs && (ea->kind != TY_PTR || er->kind != TY_PTR)) {
        op_error(de, op, "can only bitcast a pointer to a pointer, got '%s' to '%s'", vfy_tstr(de, a), vfy_tstr(de, r));
        return false;
    }
    if (elem_width(a) != elem_width(r)) {
        op_error(de, op, "operand type '%s' and result type '%s' have different bit widths", vfy_tstr(de, a),
                 vfy_tstr(de, r));
        return false;
    }
    return true;
}

static bool index_or_int(const Type *t) {
    const Type *e = t->kind == TY_TENSOR ? t->elem : t;
    return e->kind == TY_INT || e->kind == TY_INDEX;
}

bool verify_index_cast(Op *op, DiagEngine *de) {
    if (!cast_kinds(op, de, index_or_int, "operand must be integer or index", index_or_int,
                    "result must be integer or index"))
        return false;
    bool ai = ty_elem(opnd(op, 0))->kind == TY_INDEX, ri = ty_elem(res(op))->kind == TY_INDEX;
    if (ai == ri) {
        op_error(de, op, "casts between an integer and index only, got '%s' to '%s'", vfy_tstr(de, opnd(op, 0)),
                 vfy_tstr(de, res(op)));
        return false;
    }
    return true;
}
