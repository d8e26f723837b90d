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

/* One constant of an expansion: its block, type and bit pattern. */
typedef struct ExConst {
    Block *block;
    Type *type;
    uint64_t bits;
    Value *value; /* NULL: an empty slot */
} ExConst;

/* The constants a pass's expansions have made, by (block, type, bits):
 * open addressing, linear probing, at most half full. */
typedef struct ExConsts {
    ExConst *slots;
    int cap, len;
    /* In front of the table, the constants of one block (the one expanded
     * into last) by a hash of type and bits, direct-mapped: the formulas
     * ask for their few coefficients thousands of times. */
    Block *cache_block;
    struct {
        Type *type;
        uint64_t bits;
        Value *value;
    } cache[256];
} ExConsts;

static inline void ex_consts_free(ExConsts *cs) {
    tc_free(cs->slots);
    *cs = (ExConsts){0};
}

static inline uint64_t ex_const_hash(const Block *block, const Type *t, uint64_t bits) {
    return hash_u64(bits ^ (MAP_KEY(t) * 0x9e3779b97f4a7c15ULL) ^ (MAP_KEY(block) << 17));
}

/* The slot of (block, t, bits): its constant's, or the empty one it
 * would take. */
static inline ExConst *ex_const_slot(ExConsts *cs, Block *block, Type *t, uint64_t bits) {
    int mask = cs->cap - 1;
    for (int i = (int)(ex_const_hash(block, t, bits) & (uint64_t)mask);; i = (i + 1) & mask) {
        ExConst *e = &cs->slots[i];
        if (!e->value || (e->bits == bits && e->type == t && e->block == block)) return e;
    }
}

static inline void ex_consts_grow(ExConsts *cs) {
    ExConsts n = {.cap = cs->cap ? 2 * cs->cap : 256, .len = cs->len};
    n.slots = tc_calloc((size_t)n.cap, sizeof *n.slots);
    for (int i = 0; i < cs->cap; i++)
        if (cs->slots[i].value)
            *ex_const_slot(&n, cs->slots[i].block, cs->slots[i].type, cs->slots[i].bits) = cs->slots[i];
    tc_free(cs->slots);
    *cs = n;
}

typedef struct Ex {
    Builder b;
    Type *t, *it, *bt;
    /* The constants made so far, or NULL to make each anew (see ex_const). */
    ExConsts *consts;
    /* A pass's own memo of the parts of its formulas made so far, or NULL. */
    Map *parts;
} Ex;

/* ex_const past the cache (out of line: the cache answers most) */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static Value *ex_const_slow(Ex *x, Type *t, uint64_t bits, bool is_float, unsigned ci) {
    ExConsts *cs = x->consts;
    if (cs) {
        if (2 * (cs->len + 1) > cs->cap) ex_consts_grow(cs);
        ExConst *e = ex_const_slot(cs, x->b.block, t, bits);
        if (e->value) {
            cs->cache[ci].type = t, cs->cache[ci].bits = bits, cs->cache[ci].value = e->value;
            return e->value;
        }
    }
    double f;
    memcpy(&f, &bits, sizeof f);
    Value *v = is_float ? build_const_float(&x->b, t, f) : build_const_int(&x->b, t, (int64_t)bits);
    if (cs) {
        *ex_const_slot(cs, x->b.block, t, bits) = (ExConst){x->b.block, t, bits, v};
        cs->len++;
        cs->cache[ci].type = t, cs->cache[ci].bits = bits, cs->cache[ci].value = v;
    }
    return v;
}

/* The constant `bits` (a double's or an integer's) of type t before the op
 * being expanded. The formulas repeat their coefficients (each exp has the
 * same polynomial, each erfc two of them): with x->consts a constant is
 * made once per block and reused after, which is what cse would leave of
 * the copies, and none of them is made and erased. (So a pass with a memo
 * must not erase what it built.) */
static inline Value *ex_const(Ex *x, Type *t, uint64_t bits, bool is_float) {
    ExConsts *cs = x->consts;
    unsigned ci = (unsigned)(((bits ^ MAP_KEY(t)) * 0x9e3779b97f4a7c15ULL) >> 56);
    if (cs && cs->cache_block == x->b.block && cs->cache[ci].value && cs->cache[ci].bits == bits &&
        cs->cache[ci].type == t)
        return cs->cache[ci].value;
    if (cs && cs->cache_block != x->b.block) {
        memset(cs->cache, 0, sizeof cs->cache);
        cs->cache_block = x->b.block;
    }
    return ex_const_slow(x, t, bits, is_float, ci);
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
