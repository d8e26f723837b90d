/*
 * expand_build.h - a small builder vocabulary for passes that rewrite one op
 * as a formula of arith/math ops on its own type (expand_libdevice.c,
 * expand_f64_math.c).
 *
 * An Ex builds before the op being replaced, on one float type t (a scalar or
 * a tensor), the integer type it of the same shape and width (i32 for f32,
 * i64 for f64), for the bit operations, and i32 of the same shape (bt), for
 * the results of classifications (isnan, signbit, ...).
 */
#ifndef TRITONC_TRANSFORM_EXPAND_BUILD_H
#define TRITONC_TRANSFORM_EXPAND_BUILD_H

#include "ir/ir.h"

#include <string.h>

typedef struct Ex {
    Builder b;
    Type *t, *it, *bt;
    /* The constants made so far, or NULL to make each anew (see ex_const). */
    Map *consts;
    /* A pass's own memo of the parts of its formulas made so far, or NULL. */
    Map *parts;
} Ex;

/* One constant of an expansion: its block, type and bit pattern. */
typedef struct ExConst {
    Block *block;
    Type *type;
    uint64_t bits;
    Value *value;
} ExConst;

/* The constant `bits` (a double's or an integer's) of type t before the op
 * being expanded. The formulas repeat their coefficients (each exp has the
 * same polynomial, each erfc two of them): with x->consts a constant is
 * made once per block and reused after, which is what cse would leave of
 * the copies, and none of them is made and erased. (So a pass with a memo
 * must not erase what it built.) */
static inline Value *ex_const(Ex *x, Type *t, uint64_t bits, bool is_float) {
    ExConst *e = NULL;
    uint64_t key = 0;
    if (x->consts) {
        key = hash_combine(hash_combine(MAP_KEY(x->b.block), MAP_KEY(t)), bits) | 1;
        e = map_get(x->consts, key);
        if (e && e->block == x->b.block && e->type == t && e->bits == bits) return e->value;
    }
    double f;
    memcpy(&f, &bits, sizeof f);
    Value *v = is_float ? build_const_float(&x->b, t, f) : build_const_int(&x->b, t, (int64_t)bits);
    if (x->consts) {
        e = ARENA_NEW(x->b.ctx->arena, ExConst);
        *e = (ExConst){x->b.block, t, bits, v};
        map_put(x->consts, key, e);
    }
    return v;
}

static inline Value *K(Ex *x, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return ex_const(x, x->t, bits, true);
}
static inline Value *KI(Ex *x, int64_t v) { return ex_const(x, x->it, (uint64_t)v, false); }
static inline Value *bin(Ex *x, OpKind k, Value *a, Value *b) { return build_binary(&x->b, k, a, b); }
static inline Value *add(Ex *x, Value *a, Value *b) { return bin(x, ARITH_ADDF, a, b); }
static inline Value *sub(Ex *x, Value *a, Value *b) { return bin(x, ARITH_SUBF, a, b); }
static inline Value *mul(Ex *x, Value *a, Value *b) { return bin(x, ARITH_MULF, a, b); }
static inline Value *dv(Ex *x, Value *a, Value *b) { return bin(x, ARITH_DIVF, a, b); }
static inline Value *un(Ex *x, OpKind k, Value *a) { return build_unary(&x->b, k, a, x->t); }
static inline Value *cmp(Ex *x, CmpFPred p, Value *a, Value *b) { return build_cmp(&x->b, ARITH_CMPF, p, a, b); }
static inline Value *sel(Ex *x, Value *c, Value *a, Value *b) {
    Value *ops[3] = {c, a, b};
    return op_result(build_op(&x->b, ARITH_SELECT, ops, 3, &a->type, 1, 0), 0);
}
static inline Value *fma3(Ex *x, Value *a, Value *b, Value *c) {
    Value *ops[3] = {a, b, c};
    return op_result(build_op(&x->b, MATH_FMA, ops, 3, &x->t, 1, 0), 0);
}
static inline Value *bits(Ex *x, Value *a) { return build_unary(&x->b, ARITH_BITCAST, a, x->it); }
static inline Value *from_bits(Ex *x, Value *a) { return build_unary(&x->b, ARITH_BITCAST, a, x->t); }
static inline Value *band(Ex *x, Value *a, Value *b) { return build_binary(&x->b, ARITH_ANDI, a, b); }
static inline Value *bor(Ex *x, Value *a, Value *b) { return build_binary(&x->b, ARITH_ORI, a, b); }
static inline Value *fabs_(Ex *x, Value *a) { return un(x, MATH_ABSF, a); }
static inline Value *floor_(Ex *x, Value *a) { return un(x, MATH_FLOOR, a); }

#endif
