/*
 * expand_libdevice.c - libdevice calls as arith/math ops (`expand-libdevice`).
 *
 * Triton lowers `libdevice.NAME(x)` (tt.extern_elementwise "__nv_NAMEf") by
 * linking NVIDIA's libdevice bitcode; our PTX backend writes PTX directly
 * and has inline versions of only a few (exp, log, sin, tanh, ...). This
 * pass rewrites the other fp32 functions of the libdevice table in terms of
 * ops every backend lowers: arith (add, cmpf, select, bitcast, remf,
 * minnumf), math (exp2, log2, log, exp, sqrt, floor, ceil, fma, erf), with
 * the textbook formulas that keep the relative error small:
 *
 *   rint        floor(x) + (frac > 1/2 or frac == 1/2 and floor(x) odd)  (exact)
 *   round       trunc(x) + copysign(1, x) if |x - trunc(x)| >= 1/2        (exact)
 *   log1p       u = 1 + x; x if u == 1 else log(u) * x / (u - 1)         (Goldberg)
 *   expm1       u = e^x; x if u == 1 else (u - 1) * x / log(u)           (Kahan)
 *   atan        Cephes' atanf: reduce to |x| <= tan(pi/8), odd polynomial
 *   pow         2^(y log2|x|) with the sign, zero, one and NaN cases of C
 *   sinh, asinh, acosh, atanh through expm1 / log1p (sinh and cosh as
 *               (e^(|x|/2) / 2) e^(|x|/2) near overflow); hypot scaled by max
 *   erfc        Numerical Recipes' erfcc, t e^(-z^2 + P(t)) with z^2 split
 *               exactly (relative error ~1e-7 into the tail; fp64: the
 *               series and continued fraction of expand-f64-math)
 *   fmod        (and arith.remf) exact, in fp64: six 52-bit steps of
 *               fma(-trunc(r / d), d, r) against d = |b| 2^gap
 *
 * and exact bit operations for copysign, signbit, isnan, isinf, finite.
 * The fp64 calls (no "f" suffix: "__nv_pow", "__nv_isnand") take the same
 * formulas in fp64, with the constants of that width (2^52 for rint, the
 * exponent masks, a double-width split of log2(10)) and an fp64 atan: the
 * same reduction, then atan r = 2 atan(r / (1 + sqrt(1 + r^2))) and the
 * series to r^23; the exp, log, sin, ... they are built on are made fp64
 * arith by expand-f64-math, which runs next (and takes tanh itself).
 * The GPU path runs this before layouts; on the CPU the calls stay libm
 * calls, and tests/unit/test_expand_libdevice.c runs the expansions there
 * against libm.
 */
#include "transform/expand_build.h"
#include "transform/pass.h"
#include "support/erfcc.h"

#include <math.h>
#include <string.h>

static bool wide(const Ex *x) { return ty_elem(x->t)->width == 64; }
static Value *to_i32(Ex *x, Value *pred) { return build_unary(&x->b, ARITH_EXTUI, pred, x->bt); }

static Value *log_(Ex *x, Value *a) { return un(x, MATH_LOG, a); }
static Value *exp_(Ex *x, Value *a) { return un(x, MATH_EXP, a); }
static Value *sqrt_(Ex *x, Value *a) { return un(x, MATH_SQRT, a); }

/* |a| with the sign bit of s. */
static Value *copysign_(Ex *x, Value *a, Value *s) {
    Value *mag = band(x, bits(x, a), KI(x, wide(x) ? INT64_MAX : 0x7fffffff));
    Value *sgn = band(x, bits(x, s), KI(x, wide(x) ? INT64_MIN : (int64_t)0x80000000u));
    return from_bits(x, bor(x, mag, sgn));
}

static Value *trunc_(Ex *x, Value *a) {
    return sel(x, cmp(x, CMPF_OLT, a, K(x, 0)), un(x, MATH_CEIL, a), floor_(x, a));
}

/* whether an integral value is odd */
static Value *is_odd(Ex *x, Value *r) {
    Value *half = floor_(x, mul(x, r, K(x, 0.5)));
    return cmp(x, CMPF_OEQ, sub(x, r, mul(x, half, K(x, 2))), K(x, 1));
}

/* round half to even; |x| >= 2^23 (2^52 in fp64; and inf, NaN) is already integral */
static Value *rint_(Ex *x, Value *a) {
    Value *f = floor_(x, a), *d = sub(x, a, f);
    Value *up = bor(x, cmp(x, CMPF_OGT, d, K(x, 0.5)),
                    band(x, cmp(x, CMPF_OEQ, d, K(x, 0.5)), is_odd(x, f)));
    Value *r = sel(x, up, add(x, f, K(x, 1)), f);
    return sel(x, cmp(x, CMPF_OLT, fabs_(x, a), K(x, wide(x) ? 4503599627370496.0 : 8388608.0)), r, a);
}

/* round half away from zero */
static Value *round_(Ex *x, Value *a) {
    Value *t = trunc_(x, a);
    Value *away = cmp(x, CMPF_OGE, fabs_(x, sub(x, a, t)), K(x, 0.5));
    return sel(x, away, add(x, t, copysign_(x, K(x, 1), a)), t);
}

static Value *log1p_(Ex *x, Value *a) {
    Value *u = add(x, K(x, 1), a);
    Value *r = dv(x, mul(x, log_(x, u), a), sub(x, u, K(x, 1)));
    r = sel(x, cmp(x, CMPF_OEQ, u, K(x, 1)), a, r);
    return sel(x, cmp(x, CMPF_OEQ, a, K(x, INFINITY)), a, r);
}

static Value *expm1_(Ex *x, Value *a) {
    Value *u = exp_(x, a), *um1 = sub(x, u, K(x, 1));
    Value *r = mul(x, um1, dv(x, a, log_(x, u))); /* ((u - 1) a overflows just below e^x's own overflow) */
    r = sel(x, cmp(x, CMPF_OEQ, um1, K(x, -1)), K(x, -1), r);
    r = sel(x, cmp(x, CMPF_OEQ, u, K(x, 1)), a, r);
    return sel(x, cmp(x, CMPF_OEQ, u, K(x, INFINITY)), u, r);
}

/* Cephes atanf (range reduction by tan(3pi/8) and tan(pi/8)). */
static Value *atan_(Ex *x, Value *a) {
    Value *ax = fabs_(x, a);
    Value *big = cmp(x, CMPF_OGT, ax, K(x, 2.414213562373095));
    Value *mid = cmp(x, CMPF_OGT, ax, K(x, 0.4142135623730950));
    Value *y0 = sel(x, big, K(x, M_PI_2), sel(x, mid, K(x, M_PI_4), K(x, 0)));
    Value *r = sel(x, big, dv(x, K(x, -1), ax),
                   sel(x, mid, dv(x, sub(x, ax, K(x, 1)), add(x, ax, K(x, 1))), ax));
    Value *y;
    if (wide(x)) { /* |r| <= tan(pi/8): halve the angle once, then the series to r^23 */
        Value *h = dv(x, r, add(x, K(x, 1), sqrt_(x, fma3(x, r, r, K(x, 1)))));
        Value *z = mul(x, h, h);
        Value *p = K(x, -1.0 / 23);
        for (int k = 10; k >= 1; k--) p = fma3(x, p, z, K(x, ((k & 1) ? -1.0 : 1.0) / (2 * k + 1)));
        y = add(x, y0, mul(x, K(x, 2), fma3(x, mul(x, h, z), p, h)));
    } else {
        Value *z = mul(x, r, r);
        Value *p = fma3(x, K(x, 8.05374449538e-2), z, K(x, -1.38776856032e-1));
        p = fma3(x, p, z, K(x, 1.99777106478e-1));
        p = fma3(x, p, z, K(x, -3.33329491539e-1));
        y = add(x, y0, fma3(x, mul(x, p, z), r, r));
    }
    return copysign_(x, y, a);
}

/* C's atan2: the half-turn added for x < 0 takes y's sign bit (atan2(-0,
 * -1) = -pi), and on the y axis a zero y gives +-0 for x = +0 but +-pi for
 * x = -0. */
static Value *atan2_(Ex *x, Value *y, Value *xx) {
    Value *r = atan_(x, dv(x, y, xx));
    Value *pi_y = copysign_(x, K(x, M_PI), y);
    r = sel(x, cmp(x, CMPF_OLT, xx, K(x, 0)), add(x, r, pi_y), r);
    Value *x_neg = cmp(x, CMPF_OLT, copysign_(x, K(x, 1), xx), K(x, 0)); /* the sign bit: -0 too */
    Value *on_axis = sel(x, cmp(x, CMPF_OGT, y, K(x, 0)), K(x, M_PI_2),
                         sel(x, cmp(x, CMPF_OLT, y, K(x, 0)), K(x, -M_PI_2),
                             sel(x, band(x, x_neg, cmp(x, CMPF_OEQ, y, K(x, 0))), pi_y, y)));
    r = sel(x, cmp(x, CMPF_OEQ, xx, K(x, 0)), on_axis, r);
    Value *both_inf = band(x, cmp(x, CMPF_OEQ, fabs_(x, y), K(x, INFINITY)),
                           cmp(x, CMPF_OEQ, fabs_(x, xx), K(x, INFINITY)));
    Value *corner = copysign_(x, sel(x, cmp(x, CMPF_OGT, xx, K(x, 0)), K(x, M_PI_4), K(x, 3 * M_PI_4)), y);
    return sel(x, both_inf, corner, r);
}

/* 2^(a * (b + b_lo)) with the product's rounding error (from an fma) and a
 * b_lo (b's own low part, or NULL) put back: 2^(t + e) = 2^t (1 + e ln 2)
 * for the tiny e. */
static Value *exp2_of_product(Ex *x, Value *a, Value *b, Value *b_lo) {
    Value *t = mul(x, a, b);
    Value *e = fma3(x, a, b, un(x, ARITH_NEGF, t));
    if (b_lo) e = fma3(x, a, b_lo, e);
    Value *r = un(x, MATH_EXP2, t);
    Value *c = fma3(x, mul(x, r, e), K(x, M_LN2), r);
    return sel(x, cmp(x, CMPF_OEQ, fabs_(x, r), K(x, INFINITY)), r, sel(x, cmp(x, CMPF_OEQ, r, K(x, 0)), r, c));
}

/* log2 a for a finite a > 0 as hi + lo, lo carrying the bits past hi's
 * (pow multiplies log2 |x| by y, and log2's own rounding alone cost pow
 * |y log2 x| ulps: 100 ulps of a result near 2^100). a = m 2^e with m in
 * [sqrt(1/2), sqrt(2)) (subnormals scaled up first), f = m - 1 (exact),
 * s = f / (2 + f) to twice the precision (the quotient's remainder by fma),
 * log m = 2 atanh s = 2 s + s z P(z), z = s^2, with 2 s kept in two parts,
 * times log2(e) in two parts, plus e (exact). Other a: hi is garbage,
 * for the caller to select away. */
static void log2_dw(Ex *x, Value *a, Value **hi, Value **lo) {
    bool w = wide(x);
    int mant = w ? 52 : 23, bias = w ? 1023 : 127;
    double tiny = w ? 2.2250738585072014e-308 : 1.17549435e-38, up = w ? 18014398509481984.0 : 33554432.0; /* 2^54, 2^25 */
    Value *sub_ = cmp(x, CMPF_OLT, a, K(x, tiny));
    Value *as = sel(x, sub_, mul(x, a, K(x, up)), a);
    Value *b = bits(x, as);
    Value *ei = bin(x, ARITH_SUBI, bin(x, ARITH_SHRSI, b, KI(x, mant)), KI(x, bias));
    Value *m = from_bits(x, bor(x, band(x, b, KI(x, w ? 0x000FFFFFFFFFFFFF : 0x007FFFFF)),
                                KI(x, w ? 0x3FF0000000000000 : 0x3F800000)));
    Value *big = cmp(x, CMPF_OGT, m, K(x, M_SQRT2));
    m = sel(x, big, mul(x, m, K(x, 0.5)), m);
    Value *e = add(x, add(x, build_unary(&x->b, ARITH_SITOFP, ei, x->t), sel(x, big, K(x, 1), K(x, 0))),
                   sel(x, sub_, K(x, w ? -54 : -25), K(x, 0)));
    Value *f = sub(x, m, K(x, 1));
    Value *dh = add(x, f, K(x, 2));
    Value *dl = add(x, sub(x, K(x, 2), dh), f); /* 2 + f = dh + dl exactly (|2| >= |f|) */
    Value *sh = dv(x, f, dh);
    Value *rem = sub(x, fma3(x, un(x, ARITH_NEGF, sh), dh, f), mul(x, sh, dl)); /* f - sh (dh + dl) */
    Value *sl = dv(x, rem, dh);
    Value *z = mul(x, sh, sh);
    int terms = w ? 10 : 7; /* (truncation below the double word's 2^-2p, and 2^-31 in fp32) */
    Value *pz = K(x, 2.0 / (2 * terms + 3));
    for (int n = terms; n >= 1; n--) pz = fma3(x, pz, z, K(x, 2.0 / (2 * n + 1)));
    Value *tail = fma3(x, mul(x, sh, z), pz, mul(x, sl, K(x, 2))); /* s z P(z) + 2 sl */
    Value *s2 = mul(x, sh, K(x, 2));
    Value *lh = add(x, s2, tail);
    Value *ll = add(x, sub(x, s2, lh), tail); /* log m = lh + ll */
    /* times log2(e) = ch + cl */
    const long double l2e = 1.44269504088896340735992468100189214L;
    double ch = w ? (double)l2e : (double)(float)l2e, cl = (double)(l2e - (long double)ch);
    Value *ph = mul(x, lh, K(x, ch));
    Value *pl = fma3(x, lh, K(x, ch), un(x, ARITH_NEGF, ph));
    pl = fma3(x, lh, K(x, cl), fma3(x, ll, K(x, ch), pl));
    *hi = add(x, e, ph);
    *lo = add(x, add(x, sub(x, e, *hi), ph), pl); /* |e| >= 1 > |ph| unless e = 0 */
}

/* e^v to a few ulps, for the formulas here: fp32's MATH_EXP is Triton's
 * tl.exp, ex2.approx of the rounded v log2(e), whose rounding costs |v| ulps
 * (30 at erfc's e^-62); so 2^(v log2 e) with the product's error and
 * log2(e)'s low part put back. fp64's MATH_EXP is expand-f64-math's, exact
 * to an ulp or two already. */
static Value *exp_acc(Ex *x, Value *v) {
    if (wide(x)) return exp_(x, v);
    const long double l2e = 1.44269504088896340735992468100189214L;
    double ch = (double)(float)l2e, cl = (double)(l2e - (long double)ch);
    return exp2_of_product(x, v, K(x, ch), K(x, cl));
}

static Value *pow_(Ex *x, Value *a, Value *y) {
    Value *ax = fabs_(x, a);
    Value *hi, *lo;
    log2_dw(x, ax, &hi, &lo);
    /* 0, infinities, NaN: log2's own values (-inf, inf, NaN), no low part */
    Value *normal = band(x, cmp(x, CMPF_OGT, ax, K(x, 0)), cmp(x, CMPF_OLT, ax, K(x, INFINITY)));
    hi = sel(x, normal, hi, un(x, MATH_LOG2, ax));
    lo = sel(x, normal, lo, K(x, 0));
    Value *r = exp2_of_product(x, y, hi, lo);
    Value *yint = cmp(x, CMPF_OEQ, floor_(x, y), y);
    Value *neg = cmp(x, CMPF_OLT, a, K(x, 0));
    Value *signed_r = sel(x, yint, sel(x, is_odd(x, y), un(x, ARITH_NEGF, r), r), K(x, NAN));
    r = sel(x, neg, signed_r, r);
    Value *one = bor(x, cmp(x, CMPF_OEQ, y, K(x, 0)), cmp(x, CMPF_OEQ, a, K(x, 1)));
    return sel(x, one, K(x, 1), r);
}

static Value *hypot_(Ex *x, Value *a, Value *b) {
    Value *fa = fabs_(x, a), *fb = fabs_(x, b);
    Value *m = bin(x, ARITH_MAXNUMF, fa, fb), *n = bin(x, ARITH_MINNUMF, fa, fb);
    Value *q = dv(x, n, m);
    Value *r = mul(x, m, sqrt_(x, fma3(x, q, q, K(x, 1))));
    r = sel(x, cmp(x, CMPF_OEQ, m, K(x, 0)), K(x, 0), r);
    r = sel(x, cmp(x, CMPF_UNO, a, b), K(x, NAN), r); /* NaN unless the other is inf, as C's */
    Value *inf = bor(x, cmp(x, CMPF_OEQ, fa, K(x, INFINITY)), cmp(x, CMPF_OEQ, fb, K(x, INFINITY)));
    return sel(x, inf, K(x, INFINITY), r);
}

static Value *cbrt_(Ex *x, Value *a) {
    Value *ax = fabs_(x, a);
    Value *r = un(x, MATH_EXP2, mul(x, un(x, MATH_LOG2, ax), K(x, 1.0 / 3.0)));
    /* one Newton step on r^3 = |x| */
    r = sub(x, r, dv(x, sub(x, mul(x, mul(x, r, r), r), ax), mul(x, K(x, 3), mul(x, r, r))));
    Value *special = bor(x, cmp(x, CMPF_OEQ, ax, K(x, 0)), cmp(x, CMPF_OEQ, ax, K(x, INFINITY)));
    return sel(x, special, a, copysign_(x, r, a));
}

/* fp32 erfc with a relative error below ~2e-7 everywhere (1 - erf would
 * lose it all past ~4): Numerical Recipes' erfcc (support/erfcc.h) for
 * z = |x|, with
 * e^(-z^2) from z = hi + lo (hi: 12 bits, so hi^2 is exact) to keep z^2's
 * rounding out of the exponent; 2 - erfc |x| for negative x. */
static Value *erfc32(Ex *x, Value *a) {
    Value *z = bin(x, ARITH_MINNUMF, fabs_(x, a), K(x, 20)); /* (erfc 20 underflows fp32; and no inf - inf below) */
    Value *t = dv(x, K(x, 1), fma3(x, z, K(x, 0.5), K(x, 1)));
    Value *p = K(x, ERFCC_P[0]);
    for (int i = 1; i < ERFCC_TERMS; i++) p = fma3(x, p, t, K(x, ERFCC_P[i]));
    Value *hi = from_bits(x, band(x, bits(x, z), KI(x, (int64_t)0xfffff000)));
    Value *lo = sub(x, z, hi);
    Value *e = mul(x, exp_acc(x, un(x, ARITH_NEGF, mul(x, hi, hi))),
                   exp_acc(x, sub(x, p, mul(x, lo, add(x, z, hi)))));
    Value *r = mul(x, t, e);
    r = sel(x, cmp(x, CMPF_OLT, a, K(x, 0)), sub(x, K(x, 2), r), r);
    return sel(x, cmp(x, CMPF_UNO, a, a), a, r);
}

/* The biased exponent field of a non-negative fp64 (x is fp64). */
static Value *expo64(Ex *x, Value *v) {
    return build_binary(&x->b, ARITH_SHRSI, bits(x, v), KI(x, 52));
}

/* r reduced modulo d (> 0, r / d < 2^53), with a's sign: q = trunc(r / d)
 * is then within one of the true quotient, fma(-q, d, r) is exact (the true
 * remainder is representable), and one step of d toward a's sign puts it
 * in range. */
static Value *fmod_step(Ex *x, Value *r, Value *d, Value *a) {
    Value *zero = K(x, 0), *step = copysign_(x, d, a);
    Value *q = trunc_(x, dv(x, r, d));
    r = fma3(x, un(x, ARITH_NEGF, q), d, r);
    /* q one too large: r crossed zero (its sign is not a's) */
    Value *crossed = sel(x, cmp(x, CMPF_OLT, a, zero), cmp(x, CMPF_OGT, r, zero), cmp(x, CMPF_OLT, r, zero));
    r = sel(x, crossed, add(x, r, step), r);
    return sel(x, cmp(x, CMPF_OGE, fabs_(x, r), d), sub(x, r, step), r); /* q one too small */
}

/* C's fmod (arith.remf, libdevice.fmod) on the GPU, exact, in fp64 (fp32
 * through it; PTX has no fmod, and a - trunc(a / b) b in fp32 is wrong once
 * a / b passes 2^24): six steps of fmod_step against |b| 2^e, e = the
 * exponent gap less 52 (each step takes 52 bits of the quotient; the last
 * has e = 0): exact for every fp32 pair and for fp64 quotients below
 * 2^313. Zero takes a's sign; fmod(a, +-inf) = a; inf, NaN and a zero
 * divisor give NaN. */
static Value *fmod_(Ex *x, Value *a, Value *b) {
    Value *ab = fabs_(x, b), *r = a;
    Value *eb = expo64(x, ab);
    for (int i = 0; i < 6; i++) {
        Value *gap = build_binary(&x->b, ARITH_SUBI, build_binary(&x->b, ARITH_SUBI, expo64(x, fabs_(x, r)), eb), KI(x, 52));
        gap = build_binary(&x->b, ARITH_MAXSI, gap, KI(x, 0));
        gap = build_binary(&x->b, ARITH_MINSI, gap, KI(x, 960)); /* (2^e stays finite) */
        Value *scale = from_bits(x, build_binary(&x->b, ARITH_SHLI, build_binary(&x->b, ARITH_ADDI, gap, KI(x, 1023)),
                                                 KI(x, 52)));
        r = fmod_step(x, r, mul(x, ab, scale), a);
    }
    Value *zero = K(x, 0);
    r = sel(x, cmp(x, CMPF_OEQ, r, zero), copysign_(x, zero, a), r);
    r = sel(x, cmp(x, CMPF_OEQ, ab, K(x, INFINITY)), a, r);
    /* NaN for a NaN, an infinite dividend, a zero divisor */
    Value *bad = bor(x, bor(x, cmp(x, CMPF_UNO, a, b), cmp(x, CMPF_OEQ, fabs_(x, a), K(x, INFINITY))),
                     cmp(x, CMPF_OEQ, ab, zero));
    return sel(x, bad, K(x, NAN), r);
}

/* fmod of fp32 or fp64 a, b (x's type): fmod_, fp32 through fp64. */
static Value *fmod_any(Ex *x, Value *a, Value *b) {
    if (wide(x)) return fmod_(x, a, b);
    Context *ctx = x->b.ctx;
    Type *t64 = ty_with_elem(ctx, x->t, ty_float(ctx, FK_F64));
    Ex x64 = {.b = x->b, .t = t64, .it = ty_with_elem(ctx, x->t, ty_i64(ctx)), .bt = x->bt};
    Value *r = fmod_(&x64, build_unary(&x64.b, ARITH_EXTF, a, t64), build_unary(&x64.b, ARITH_EXTF, b, t64));
    r = build_unary(&x64.b, ARITH_TRUNCF, r, x->t);
    x->b = x64.b;
    return r;
}

/* arith.remf (a float `%`) on fp32 or fp64 */
static bool expand_remf(Context *ctx, Op *op) {
    Type *t = op_result(op, 0)->type;
    const Type *e = ty_elem(t);
    if (e->kind != TY_FLOAT || (e->fkind != FK_F32 && e->fkind != FK_F64) || op_operand(op, 0)->type != t) return false;
    bool f64 = e->fkind == FK_F64;
    Ex x = {.b = builder_before(ctx, op), .t = t, .it = ty_with_elem(ctx, t, f64 ? ty_i64(ctx) : ty_i32(ctx)),
            .bt = ty_with_elem(ctx, t, ty_i32(ctx))};
    Value *r = fmod_any(&x, op_operand(op, 0), op_operand(op, 1));
    value_replace_all_uses(op_result(op, 0), r);
    op_erase(op);
    return true;
}

/* (the first letters first: most calls are of a name far down the list, or
 * of none of them, and a call to strcmp per name was 3% of an fp64
 * libdevice kernel's compile) */
#define NAME_IS(s) (name[0] == (s)[0] && strcmp(name, s) == 0)

static Value *expand(Ex *x, const char *name, Value *a, Value *b) {
    if (NAME_IS("trunc")) return trunc_(x, a);
    if (NAME_IS("rint") || NAME_IS("nearbyint")) return rint_(x, a);
    if (NAME_IS("round")) return round_(x, a);
    if (NAME_IS("fmod")) return fmod_any(x, a, b);
    if (NAME_IS("fmin")) return bin(x, ARITH_MINNUMF, a, b);
    if (NAME_IS("fmax")) return bin(x, ARITH_MAXNUMF, a, b);
    if (NAME_IS("copysign")) return copysign_(x, a, b);
    if (NAME_IS("isnan")) return to_i32(x, cmp(x, CMPF_UNO, a, a));
    if (NAME_IS("isinf")) return to_i32(x, cmp(x, CMPF_OEQ, fabs_(x, a), K(x, INFINITY)));
    if (NAME_IS("finite")) return to_i32(x, cmp(x, CMPF_OLT, fabs_(x, a), K(x, INFINITY)));
    if (NAME_IS("signbit")) {
        Value *sb = build_binary(&x->b, ARITH_SHRUI, bits(x, a), KI(x, wide(x) ? 63 : 31));
        return wide(x) ? build_unary(&x->b, ARITH_TRUNCI, sb, x->bt) : sb;
    }
    if (NAME_IS("log10")) return mul(x, un(x, MATH_LOG2, a), K(x, 0.30102999566398120));
    if (NAME_IS("exp10")) { /* log2(10) as hi + lo so that 2^(x hi) carries x lo too */
        const long double l2_10 = 3.32192809488736234787031942948939018L;
        const double hi = wide(x) ? (double)l2_10 : (float)l2_10, lo = (double)(l2_10 - hi);
        Value *r = exp2_of_product(x, a, K(x, hi), NULL);
        Value *c = fma3(x, mul(x, r, mul(x, a, K(x, lo))), K(x, M_LN2), r);
        Value *edge = bor(x, cmp(x, CMPF_OEQ, r, K(x, 0)), cmp(x, CMPF_OEQ, r, K(x, INFINITY)));
        return sel(x, edge, r, c);
    }
    if (NAME_IS("log1p")) return log1p_(x, a);
    if (NAME_IS("expm1")) return expm1_(x, a);
    if (NAME_IS("tan")) return dv(x, un(x, MATH_SIN, a), un(x, MATH_COS, a));
    if (NAME_IS("atan")) return atan_(x, a);
    if (NAME_IS("atan2")) return atan2_(x, a, b);
    if (NAME_IS("asin"))
        return atan_(x, dv(x, a, sqrt_(x, mul(x, sub(x, K(x, 1), a), add(x, K(x, 1), a)))));
    if (NAME_IS("acos"))
        return mul(x, K(x, 2), atan_(x, sqrt_(x, dv(x, sub(x, K(x, 1), a), add(x, K(x, 1), a)))));
    /* sinh, cosh: e^|x| / 2 from |x| = 88 (709 in fp64) on, as (e^(|x|/2) / 2)
     * e^(|x|/2): e^|x| itself overflows half an ln 2 before they do */
    if (NAME_IS("sinh")) {
        Value *ax = fabs_(x, a);
        Value *e = expm1_(x, ax);
        Value *s = mul(x, K(x, 0.5), add(x, e, dv(x, e, add(x, e, K(x, 1)))));
        s = sel(x, cmp(x, CMPF_OEQ, e, K(x, INFINITY)), e, s);
        Value *h = exp_acc(x, mul(x, ax, K(x, 0.5)));
        s = sel(x, cmp(x, CMPF_OGT, ax, K(x, wide(x) ? 709.0 : 88.0)), mul(x, mul(x, h, K(x, 0.5)), h), s);
        return copysign_(x, s, a);
    }
    if (NAME_IS("cosh")) {
        Value *ax = fabs_(x, a);
        Value *e = exp_acc(x, ax);
        Value *c = mul(x, K(x, 0.5), add(x, e, dv(x, K(x, 1), e)));
        Value *h = exp_acc(x, mul(x, ax, K(x, 0.5)));
        return sel(x, cmp(x, CMPF_OGT, ax, K(x, wide(x) ? 709.0 : 88.0)), mul(x, mul(x, h, K(x, 0.5)), h), c);
    }
    if (NAME_IS("asinh")) {
        Value *ax = fabs_(x, a), *a2 = mul(x, ax, ax);
        Value *r = log1p_(x, add(x, ax, dv(x, a2, add(x, K(x, 1), sqrt_(x, add(x, K(x, 1), a2))))));
        r = sel(x, cmp(x, CMPF_OGT, ax, K(x, 1e18)), add(x, log_(x, ax), K(x, M_LN2)), r);
        return copysign_(x, r, a);
    }
    if (NAME_IS("acosh")) {
        Value *t = sub(x, a, K(x, 1));
        Value *r = log1p_(x, add(x, t, sqrt_(x, fma3(x, t, t, mul(x, K(x, 2), t)))));
        r = sel(x, cmp(x, CMPF_OGT, a, K(x, 1e18)), add(x, log_(x, a), K(x, M_LN2)), r);
        return sel(x, cmp(x, CMPF_ULT, a, K(x, 1)), K(x, NAN), r);
    }
    if (NAME_IS("atanh")) { /* on |a|: log1p of a negative quotient near -1 (a near -1) lost ~6 ulps */
        Value *ax = fabs_(x, a);
        return copysign_(x, mul(x, K(x, 0.5), log1p_(x, dv(x, mul(x, K(x, 2), ax), sub(x, K(x, 1), ax)))), a);
    }
    if (NAME_IS("hypot")) return hypot_(x, a, b);
    if (NAME_IS("erfc")) return wide(x) ? NULL : erfc32(x, a); /* fp64: expand-f64-math */
    if (NAME_IS("pow")) return pow_(x, a, b);
    if (NAME_IS("powi")) return pow_(x, a, build_unary(&x->b, ARITH_SITOFP, b, x->t));
    if (NAME_IS("cbrt")) return cbrt_(x, a);
    return NULL;
}

typedef struct ExpandState {
    Context *ctx;
    int changes;
    /* Ex.consts of every expansion: the formulas repeat their masks and
     * shifts (each fp64 logb, ilogb, ... its 52, 1023 and sign masks), and
     * the cse after the pass merged the copies */
    ExConsts consts;
    /* the last operand type expanded on, and its Ex.it and Ex.bt */
    Type *t, *it, *bt;
} ExpandState;

static void expand_op(ExpandState *st, Op *op) {
    if (op->kind == ARITH_REMF) {
        st->changes += expand_remf(st->ctx, op);
        return;
    }
    const char *sym = op_attr_str(op, "symbol");
    if (!sym || strncmp(sym, "__nv_", 5) != 0) return;
    char name[32];
    size_t n = strlen(sym + 5);
    if (n < 2 || n >= sizeof name) return;
    memcpy(name, sym + 5, n + 1);
    /* every fp32 libdevice symbol ends in 'f' ("__nv_powf", "__nv_isnanf"); the
     * fp64 ones have none ("__nv_pow"), but the classifications end in 'd'
     * ("__nv_isnand", "__nv_isfinited") */
    Type *in = op_operand(op, 0)->type;
    const Type *e = ty_elem(in);
    if (e->kind != TY_FLOAT || (e->fkind != FK_F32 && e->fkind != FK_F64)) return;
    bool f64 = e->fkind == FK_F64;
    if (!f64) {
        if (name[n - 1] != 'f') return;
        name[n - 1] = '\0';
    } else {
        static const char *const cls[][2] = {
            {"isnand", "isnan"}, {"isinfd", "isinf"}, {"isfinited", "finite"}, {"signbitd", "signbit"}};
        for (size_t i = 0; i < sizeof cls / sizeof *cls; i++)
            if (!strcmp(name, cls[i][0])) strcpy(name, cls[i][1]);
    }
    if (in != st->t) {
        st->t = in;
        st->it = ty_with_elem(st->ctx, in, f64 ? ty_i64(st->ctx) : ty_i32(st->ctx));
        st->bt = ty_with_elem(st->ctx, in, ty_i32(st->ctx));
    }
    Ex x = {.b = builder_before(st->ctx, op), .t = in, .it = st->it, .bt = st->bt, .consts = &st->consts};
    Op *first_new = op->prev;
    Value *r = expand(&x, name, op_operand(op, 0), op->noperands > 1 ? op_operand(op, 1) : NULL);
    if (!r) return;
    if (r->type != op_result(op, 0)->type) { /* not the call's result type: leave the call */
        for (Op *o = op->prev; o && o != first_new;) {
            Op *prev = o->prev;
            op_erase(o);
            o = prev;
        }
        ex_consts_free(&st->consts); /* (some of what it holds went: the expansions start over) */
        return;
    }
    value_replace_all_uses(op_result(op, 0), r);
    op_erase(op);
    st->changes++;
}

/* The candidates nested under root, in op_walk's post-order (each
 * expansion replaces only the op it expands, and what it makes goes
 * before it: the walk never meets it). */
static void expand_nested(ExpandState *st, Op *root) {
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first, *next; o; o = next) {
                next = o->next;
                if (o->nregions) expand_nested(st, o);
                if (expand_libdevice_candidate(o)) expand_op(st, o);
            }
}

bool pass_expand_libdevice(Op *module, PassContext *pc) {
    ExpandState st = {.ctx = pc->ctx};
    expand_nested(&st, module);
    ex_consts_free(&st.consts);
    pc->changes += st.changes;
    return true;
}
