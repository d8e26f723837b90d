/*
 * expand_f64_math.c - fp64 transcendental functions as arith/math ops
 * (`expand-f64-math`).
 *
 * The PTX instructions behind tl.exp, tl.log, tl.sin, ... (ex2.approx,
 * lg2.approx, sin.approx) exist for f32 only; Triton computes the fp64
 * versions with libdevice (__nv_exp, ...), to within an ulp or two. This pass
 * rewrites math.{exp,exp2,log,log2,sin,cos,tanh,erf,rsqrt} on f64 (and the
 * same libdevice calls, tt.extern_elementwise "__nv_exp" ..., and __nv_erfc,
 * __nv_erfcx) as fp64 arith:
 * fma, floor, the exponent's bits, selects. The formulas:
 *
 *   exp, exp2  k = round(x / ln 2) (or x), r = x - k ln 2 with ln 2 as a
 *              33-bit high part and a low part (two fmas), e^r by its Taylor
 *              polynomial to r^13 (|r| <= 0.35), times 2^k as two powers of
 *              two built from exponent bits (so that 2^k may be subnormal)
 *   log, log2  x = m 2^e with m in [sqrt(1/2), sqrt(2)] (subnormals scaled by
 *              2^54 first), log m = 2 atanh(s), s = (m - 1) / (m + 1), by
 *              its series to s^23; e ln 2 added in two parts (log2: e exact)
 *   sin, cos   k = round(x 2/pi), r = x - k pi/2 with pi/2 in three parts
 *              (Cody-Waite, exact products in fmas: accurate while |x| is
 *              below 2^31); past 2^31 (as libdevice) r and k mod 4 exact,
 *              Payne-Hanek: x's mantissa times 192 bits of 2/pi chosen by
 *              its exponent, in 64-bit integer products, behind a branch
 *              per element (scf.if, in a tt.map_elementwise on tensors);
 *              the quadrant k mod 4 picks +-sin r or +-cos r, Taylor
 *              polynomials to r^15 and r^16 (|r| <= pi/4)
 *   tanh       |x| < 0.55: e/(e + 2), e = expm1(2|x|) by its Taylor series
 *              to y^18; below 22: 1 - 2/(e^(2|x|) + 1); else 1; x's sign
 *   erf        |x| < 1: x P(x^2), P of degree 11; above: 1 - erfc |x|,
 *              with x's sign
 *   erfcx      (libdevice's __nv_erfcx) e^(x^2) erfc x for z = |x|:
 *              Shepherd and Laframboise's form Q(t) / (1 + 2z),
 *              t = (z - 3) / (z + 3) = 1 - 6 / (z + 3), Q of degree 24: one polynomial keeps
 *              the relative precision over the whole half line;
 *              2 e^(x^2) minus it for negative x
 *   erfc       (libdevice's __nv_erfc) 1 - erf x below |x| = 1/2, else
 *              e^(-z^2) erfcx z (0 from 27.3 on), 2 minus it for negative
 *              x: the relative precision holds into the subnormals. The
 *              coefficients are Chebyshev interpolants (erf64_coefs.h,
 *              scripts/gen_erf64_coefs.py)
 *   rsqrt      1 / sqrt(x), both correctly rounded
 *
 * and the IEEE special cases (NaN, infinities, signed zeros, log of a
 * negative number). tests/unit/test_expand_f64_math.c runs the expansions on
 * the CPU against libm: within 2 ulps for exp, exp2, sin, cos (every finite
 * argument), erf and rsqrt, 3 for log, 4 for log2, tanh and erfc
 * (libdevice's bounds are 1-5).
 * Other precisions are left alone: the GPU path runs this before layouts,
 * the CPU keeps libm.
 */
#include "transform/erf64_coefs.h"
#include "transform/expand_build.h"
#include "transform/pass.h"

#include <math.h>
#include <string.h>

static const double LN2_HI = 6.93147180369123816490e-01; /* ln 2 to 33 bits: k LN2_HI is exact */
static const double LN2_LO = 1.90821492927058770002e-10; /* ln 2 - LN2_HI */
static const double LOG2E = 1.4426950408889634;
static const double LOG2E_LO = 2.0355273740931033e-17; /* log2(e) - LOG2E */

static double factorial(int n) {
    double f = 1;
    for (int i = 2; i <= n; i++) f *= i; /* exact up to 22! */
    return f;
}

static Value *ki64(Ex *x, Value *a) { return build_unary(&x->b, ARITH_FPTOSI, a, x->it); }
static Value *f64_of(Ex *x, Value *a) { return build_unary(&x->b, ARITH_SITOFP, a, x->t); }

/* |a| with the sign of s */
static Value *copysign64(Ex *x, Value *a, Value *s) {
    Value *mag = band(x, bits(x, a), KI(x, INT64_MAX));
    Value *sgn = band(x, bits(x, s), KI(x, INT64_MIN));
    return from_bits(x, bor(x, mag, sgn));
}

static Value *is_nan(Ex *x, Value *a) { return cmp(x, CMPF_UNO, a, a); }

/* 2^k for an i64 k in [-1022, 1023] */
static Value *pow2i(Ex *x, Value *k) {
    return from_bits(x, bin(x, ARITH_SHLI, bin(x, ARITH_ADDI, k, KI(x, 1023)), KI(x, 52)));
}

/* p 2^k, k integral (f64), as p 2^(k/2) 2^(k - k/2) so that every k from
 * -1075 to 1024 works; k is clamped first (NaN and infinities included: the
 * callers select their own result for those) */
static Value *scale2(Ex *x, Value *p, Value *k) {
    k = bin(x, ARITH_MAXNUMF, bin(x, ARITH_MINNUMF, k, K(x, 2000)), K(x, -2000));
    Value *ki = ki64(x, k);
    Value *k1 = bin(x, ARITH_SHRSI, ki, KI(x, 1));
    Value *k2 = bin(x, ARITH_SUBI, ki, k1);
    return mul(x, mul(x, p, pow2i(x, k1)), pow2i(x, k2));
}

/* e^r for |r| <= 0.35: sum r^n / n!, n <= 13 */
static Value *exp_poly(Ex *x, Value *r) {
    Value *p = K(x, 1 / factorial(13));
    for (int n = 12; n >= 0; n--) p = fma3(x, p, r, K(x, 1 / factorial(n)));
    return p;
}

static Value *exp64(Ex *x, Value *a) {
    Value *k = floor_(x, fma3(x, a, K(x, LOG2E), K(x, 0.5)));
    Value *nk = un(x, ARITH_NEGF, k);
    Value *r = fma3(x, nk, K(x, LN2_LO), fma3(x, nk, K(x, LN2_HI), a));
    Value *res = scale2(x, exp_poly(x, r), k);
    res = sel(x, cmp(x, CMPF_OGT, a, K(x, 709.782712893384)), K(x, INFINITY), res);
    res = sel(x, cmp(x, CMPF_OLT, a, K(x, -745.1332191019412)), K(x, 0), res);
    return sel(x, is_nan(x, a), a, res);
}

static Value *exp2_64(Ex *x, Value *a) {
    Value *k = floor_(x, add(x, a, K(x, 0.5)));
    Value *f = sub(x, a, k); /* exact */
    Value *r = fma3(x, f, K(x, M_LN2), mul(x, f, K(x, 2.3190468138462996e-17))); /* ln 2's low part */
    Value *res = scale2(x, exp_poly(x, r), k);
    res = sel(x, cmp(x, CMPF_OGE, a, K(x, 1024)), K(x, INFINITY), res);
    res = sel(x, cmp(x, CMPF_OLT, a, K(x, -1075)), K(x, 0), res);
    return sel(x, is_nan(x, a), a, res);
}

/* a = m 2^e, m in [sqrt(1/2), sqrt(2)]: returns log m, sets *e (f64) */
static Value *log_parts(Ex *x, Value *a, Value **e) {
    Value *tiny = cmp(x, CMPF_OLT, a, K(x, 2.2250738585072014e-308)); /* subnormal (or <= 0) */
    Value *xs = sel(x, tiny, mul(x, a, K(x, 18014398509481984.0)), a); /* 2^54 */
    Value *b = bits(x, xs);
    Value *ei = bin(x, ARITH_SUBI, bin(x, ARITH_SHRSI, b, KI(x, 52)), KI(x, 1023));
    Value *m = from_bits(x, bor(x, band(x, b, KI(x, 0x000FFFFFFFFFFFFF)), KI(x, 0x3FF0000000000000)));
    Value *big = cmp(x, CMPF_OGT, m, K(x, M_SQRT2));
    m = sel(x, big, mul(x, m, K(x, 0.5)), m);
    *e = add(x, add(x, f64_of(x, ei), sel(x, big, K(x, 1), K(x, 0))), sel(x, tiny, K(x, -54), K(x, 0)));
    Value *f = sub(x, m, K(x, 1)); /* exact */
    Value *s = dv(x, f, add(x, f, K(x, 2)));
    Value *z = mul(x, s, s);
    Value *p = K(x, 2.0 / 23);
    for (int n = 10; n >= 1; n--) p = fma3(x, p, z, K(x, 2.0 / (2 * n + 1)));
    return fma3(x, mul(x, s, z), p, mul(x, s, K(x, 2))); /* 2s + s z p */
}

static Value *log_specials(Ex *x, Value *a, Value *res) {
    res = sel(x, cmp(x, CMPF_OEQ, a, K(x, 0)), K(x, -INFINITY), res);
    res = sel(x, cmp(x, CMPF_ULT, a, K(x, 0)), K(x, NAN), res); /* negative or NaN */
    return sel(x, cmp(x, CMPF_OEQ, a, K(x, INFINITY)), a, res);
}

static Value *log64(Ex *x, Value *a) {
    Value *e, *lm = log_parts(x, a, &e);
    return log_specials(x, a, fma3(x, e, K(x, LN2_HI), fma3(x, e, K(x, LN2_LO), lm)));
}

static Value *log2_64(Ex *x, Value *a) {
    Value *e, *lm = log_parts(x, a, &e);
    return log_specials(x, a, add(x, e, fma3(x, lm, K(x, LOG2E), mul(x, lm, K(x, LOG2E_LO)))));
}

/* The parts erf, erfc and erfcx of one value share (each computes |x|,
 * and erfc |x| or erfcx |x|, which holds e^(-x^2)); the pass made them
 * anew for each function, and cse then erased the copies. And the
 * reduction sin and cos of one value share (tan is sin / cos): cse would
 * not merge its tt.map_elementwise, an op with a region. */
typedef enum { PART_ABS, PART_ERF_SMALL, PART_ERFCX_NONNEG, PART_ERFC_NONNEG, PART_REDUCE } Part;

typedef struct ExPart {
    Block *block;
    Value *arg;
    Part part;
    Value *value;
} ExPart;

/* f(a), made once per block and reused after, which is what cse would
 * leave of the copies (the first one, with every op in it). */
static Value *part(Ex *x, Part which, Value *(*f)(Ex *, Value *), Value *a) {
    uint64_t key = hash_combine(hash_combine(MAP_KEY(x->b.block), MAP_KEY(a)), (uint64_t)which) | 1;
    ExPart *e = x->parts ? map_get(x->parts, key) : NULL;
    if (e && e->block == x->b.block && e->arg == a && e->part == which) return e->value;
    Value *v = f(x, a);
    if (x->parts) {
        e = ARENA_NEW(x->b.ctx->arena, ExPart);
        *e = (ExPart){x->b.block, a, which, v};
        map_put(x->parts, key, e);
    }
    return v;
}

/* ---- sin, cos: the argument's reduction ------------------------------------------- */

/* Cody-Waite below 2^31 (libdevice's bound too): k = round(x 2/pi) is below
 * 2^30, x - k P1 is exact (a multiple of 2^-52 under 2 in magnitude), and
 * what pi/2 - P1 - P2 - P3 leaves, k 2^-163, is far under an ulp of the
 * smallest remainder a double below 2^31 has. Past it, the exact reduction. */
static const double SINCOS_CW_MAX = 2147483648.0;

/* 2/pi to 1152 bits, 64 a word, the most significant first: word i is
 * floor(2^(64 (i + 1)) 2/pi) mod 2^64 (scripts: mpmath, floor(2/pi 2^1152)) */
static const uint64_t TWO_OVER_PI[18] = {
    0xA2F9836E4E441529ULL, 0xFC2757D1F534DDC0ULL, 0xDB6295993C439041ULL, 0xFE5163ABDEBBC561ULL,
    0xB7246E3A424DD2E0ULL, 0x06492EEA09D1921CULL, 0xFE1DEB1CB129A73EULL, 0xE88235F52EBB4484ULL,
    0xE99C7026B45F7E41ULL, 0x3991D639835339F4ULL, 0x9C845F8BBDF9283BULL, 0x1FF897FFDE05980FULL,
    0xEF2F118B5A0A6D1FULL, 0x6D367ECF27CB09B7ULL, 0x4F463F669E5FEA2DULL, 0x7527BAC7EBE5F17BULL,
    0x3D0739F78A5292EAULL, 0x6BFB5FB11F8D5D08ULL,
};

/* word i of 2/pi's bits behind one word of zeros */
static int64_t two_over_pi_padded(int i) { return i ? (int64_t)TWO_OVER_PI[i - 1] : 0; }

static Value *icmp(Ex *x, CmpIPred p, Value *a, Value *b) { return build_cmp(&x->b, ARITH_CMPI, p, a, b); }
static Value *i64_of(Ex *x, Value *pred) { return build_unary(&x->b, ARITH_EXTUI, pred, x->it); }

/* Payne-Hanek: x = m 2^(e-63) with the 64-bit m (the mantissa, its leading
 * one at bit 63), |x| >= 2^31 and finite (infinities make garbage, which the
 * caller replaces by NaN). The bits of 2/pi above the one at 2^(65-e) only
 * add multiples of 4 to x 2/pi, and the quadrant is x 2/pi mod 4: so m
 * times the 192 bits of 2/pi from there, V = V2 V1 V0, is x 2/pi 2^190 (mod
 * 2^192), short of m times the rest of 2/pi, below 2^-126:
 *
 *                                  [ hi(m V0) | lo(m V0) ]   (ignored: < 2^-126)
 *                     [ hi(m V1) | lo(m V1) ]
 *        [ hi(m V2) | lo(m V2) ]
 *        (a multiple   [    w2    |    w1    ]  = x 2/pi mod 4 as a fixed point
 *         of 4)          2 integer bits, 126 of fraction
 *
 * V starts at bit e - 1 of 2/pi behind a word of zeros (e = x's unbiased
 * exponent, 31..1024: a start from 30 to 1023): four words picked by the
 * start's word (0..15, by selects keyed by it) and shifted by its bit. The
 * quadrant is w2's top two bits rounded by the fraction's first one
 * (fractions of 1/2 and more count to the next quadrant, and are negated),
 * and the remainder that fraction (126 bits: the closest a double comes to
 * a multiple of pi/2 is 2^-61 of a quadrant off) times pi/2 in two parts.
 * x's sign negates both. Returns r, and *q the quadrant (0..3, as an f64). */
static Value *payne_hanek(Ex *x, Value *a, Value **q) {
    Value *b = bits(x, a);
    Value *m = bor(x, bin(x, ARITH_SHLI, b, KI(x, 11)), KI(x, INT64_MIN));
    Value *start = bin(x, ARITH_SUBI, band(x, bin(x, ARITH_SHRUI, b, KI(x, 52)), KI(x, 0x7ff)), KI(x, 1024));
    Value *word = bin(x, ARITH_SHRUI, start, KI(x, 6)), *bit = band(x, start, KI(x, 63));
    /* z[k] = word (word + k) of the padded 2/pi, in two steps: the seven
     * words from 4 (word / 4) by word / 4, then four of them by word % 4
     * (33 selects where one chain of 16 per k takes 60) */
    Value *quarter = bin(x, ARITH_SHRUI, word, KI(x, 2)), *rest = band(x, word, KI(x, 3));
    Value *y[7], *z[4];
    for (int j = 0; j < 7; j++) y[j] = KI(x, two_over_pi_padded(j));
    for (int i = 1; i < 4; i++) {
        Value *is = icmp(x, CMPI_EQ, quarter, KI(x, i));
        for (int j = 0; j < 7; j++) y[j] = sel(x, is, KI(x, two_over_pi_padded(4 * i + j)), y[j]);
    }
    for (int k = 0; k < 4; k++) z[k] = y[k];
    for (int i = 1; i < 4; i++) {
        Value *is = icmp(x, CMPI_EQ, rest, KI(x, i));
        for (int k = 0; k < 4; k++) z[k] = sel(x, is, y[k + i], z[k]);
    }
    /* V_k = z[2-k] << bit | z[3-k] >> (64 - bit), the second as two shifts: bit may be 0 */
    Value *rbit = bin(x, ARITH_SUBI, KI(x, 63), bit), *v[3];
    for (int k = 0; k < 3; k++) {
        Value *lo = bin(x, ARITH_SHRUI, bin(x, ARITH_SHRUI, z[3 - k], KI(x, 1)), rbit);
        v[k] = bor(x, bin(x, ARITH_SHLI, z[2 - k], bit), lo);
    }
    Value *l1 = bin(x, ARITH_MULI, m, v[1]);
    Value *w1 = bin(x, ARITH_ADDI, bin(x, TT_MULHIUI, m, v[0]), l1);
    Value *w2 = bin(x, ARITH_ADDI, bin(x, TT_MULHIUI, m, v[1]), bin(x, ARITH_MULI, m, v[2]));
    w2 = bin(x, ARITH_ADDI, w2, i64_of(x, icmp(x, CMPI_ULT, w1, l1))); /* w1's carry */
    /* the fraction f1 f0 (128 bits); from 1/2 on, the next quadrant and -(f1 f0) */
    Value *f1 = bor(x, bin(x, ARITH_SHLI, w2, KI(x, 2)), bin(x, ARITH_SHRUI, w1, KI(x, 62)));
    Value *f0 = bin(x, ARITH_SHLI, w1, KI(x, 2));
    Value *up = bin(x, ARITH_SHRUI, f1, KI(x, 63));
    Value *qi = bin(x, ARITH_ADDI, bin(x, ARITH_SHRUI, w2, KI(x, 62)), up);
    Value *mask = bin(x, ARITH_SUBI, KI(x, 0), up); /* all ones when up */
    Value *g0 = bin(x, ARITH_SUBI, bin(x, ARITH_XORI, f0, mask), mask);
    Value *carry = band(x, up, i64_of(x, icmp(x, CMPI_EQ, f0, KI(x, 0)))); /* -(f1 f0) = ~f1 + (f0 == 0), -f0 */
    Value *g1 = bin(x, ARITH_ADDI, bin(x, ARITH_XORI, f1, mask), carry);
    /* |fraction| = gh + gl: g1 rounded, and what that left (at most half an ulp of gh) with g0 */
    Value *h = build_unary(&x->b, ARITH_UITOFP, g1, x->t);
    Value *d = bin(x, ARITH_SUBI, g1, build_unary(&x->b, ARITH_FPTOUI, h, x->it));
    Value *gh = mul(x, h, K(x, 0x1p-64));
    Value *l = mul(x, build_unary(&x->b, ARITH_UITOFP, g0, x->t), K(x, 0x1p-128));
    Value *gl = fma3(x, f64_of(x, d), K(x, 0x1p-64), l);
    static const double P1 = 1.5707963267948966, P2 = 6.123233995736766e-17; /* pi/2 = P1 + P2 + O(2^-109) */
    Value *r = fma3(x, gh, K(x, P1), fma3(x, gl, K(x, P1), mul(x, gh, K(x, P2))));
    /* the sign: x's, flipped by the rounding up */
    Value *neg = bin(x, ARITH_XORI, up, bin(x, ARITH_SHRUI, b, KI(x, 63)));
    r = from_bits(x, bin(x, ARITH_XORI, bits(x, r), bin(x, ARITH_SHLI, neg, KI(x, 63))));
    Value *xneg = icmp(x, CMPI_SLT, b, KI(x, 0));
    qi = sel(x, xneg, bin(x, ARITH_SUBI, KI(x, 0), qi), qi);
    *q = f64_of(x, band(x, qi, KI(x, 3)));
    return r;
}

/* (r, q) of the scalar a: the Cody-Waite r and q given, or past
 * SINCOS_CW_MAX those of payne_hanek, behind an scf.if: the path is rare
 * and long. Returns the scf.if. */
static Op *reduce_big(Ex *x, Value *a, Value *r, Value *q) {
    Context *ctx = x->b.ctx;
    Value *big = cmp(x, CMPF_OGE, fabs_(x, a), K(x, SINCOS_CW_MAX));
    Type *rt[2] = {x->t, x->t};
    Op *ifop = build_op(&x->b, SCF_IF, &big, 1, rt, 2, 2);
    Block *then = block_create(ctx), *els = block_create(ctx);
    region_push_block(&ifop->regions[0], then);
    region_push_block(&ifop->regions[1], els);
    Ex in = *x;
    in.b = builder_at_end(ctx, then);
    in.b.loc = x->b.loc;
    Value *y[2];
    y[0] = payne_hanek(&in, a, &y[1]);
    build_op(&in.b, SCF_YIELD, y, 2, NULL, 0, 0);
    in.b = builder_at_end(ctx, els);
    in.b.loc = x->b.loc;
    build_op(&in.b, SCF_YIELD, (Value *[]){r, q}, 2, NULL, 0, 0);
    return ifop;
}

/* r = a - k pi/2 and its quadrant k mod 4 (an f64 0..3) of a (scalar or
 * tensor): Cody-Waite, then reduce_big; on a tensor the branch is per
 * element, in a tt.map_elementwise. Returns r, which is the first result
 * of an op whose second is the quadrant. */
static Value *reduce_quadrant(Ex *x, Value *a) {
    static const double P1 = 1.5707963267948966, P2 = 6.123233995736766e-17, P3 = -1.4973849048591698e-33;
    Value *k = floor_(x, fma3(x, a, K(x, M_2_PI), K(x, 0.5)));
    Value *nk = un(x, ARITH_NEGF, k);
    Value *r = fma3(x, nk, K(x, P1), a);
    r = fma3(x, nk, K(x, P2), r);
    r = fma3(x, nk, K(x, P3), r);
    Value *q = sub(x, k, mul(x, K(x, 4), floor_(x, mul(x, k, K(x, 0.25))))); /* k mod 4 */
    if (!ty_is_tensor(x->t)) return op_result(reduce_big(x, a, r, q), 0);
    Context *ctx = x->b.ctx;
    Block *body = block_create(ctx);
    Type *f64 = ty_elem(x->t);
    Value *args[3];
    for (int i = 0; i < 3; i++) args[i] = block_add_arg(ctx, body, f64, x->b.loc);
    Ex s = {.b = builder_at_end(ctx, body), .t = f64, .it = ty_elem(x->it), .bt = ty_elem(x->bt), .consts = x->consts};
    s.b.loc = x->b.loc;
    Op *ifop = reduce_big(&s, args[0], args[1], args[2]);
    build_op(&s.b, TT_MAP_ELEMENTWISE_RETURN, (Value *[]){op_result(ifop, 0), op_result(ifop, 1)}, 2, NULL, 0, 0);
    Op *map = build_op(&x->b, TT_MAP_ELEMENTWISE, (Value *[]){a, r, q}, 3, (Type *[]){x->t, x->t}, 2, 1);
    region_push_block(&map->regions[0], body);
    return op_result(map, 0);
}

/* sin a or cos a */
static Value *sincos64(Ex *x, Value *a, bool want_cos) {
    Value *r = part(x, PART_REDUCE, reduce_quadrant, a);
    Value *q = op_result(r->def, 1);
    Value *z = mul(x, r, r);
    Value *ps = K(x, -1 / factorial(15));
    for (int i = 6; i >= 1; i--) ps = fma3(x, ps, z, K(x, ((i & 1) ? -1 : 1) / factorial(2 * i + 1)));
    Value *s = fma3(x, mul(x, r, z), ps, r);
    Value *pc = K(x, 1 / factorial(16));
    for (int i = 7; i >= 1; i--) pc = fma3(x, pc, z, K(x, ((i & 1) ? -1 : 1) / factorial(2 * i)));
    Value *c = fma3(x, z, pc, K(x, 1));
    Value *ns = un(x, ARITH_NEGF, s), *nc = un(x, ARITH_NEGF, c);
    /* quadrants 0..3: sin = s, c, -s, -c; cos = c, -s, -c, s */
    Value *v0 = want_cos ? c : s, *v1 = want_cos ? ns : c, *v2 = want_cos ? nc : ns, *v3 = want_cos ? s : nc;
    Value *res = sel(x, cmp(x, CMPF_OEQ, q, K(x, 0)), v0,
                     sel(x, cmp(x, CMPF_OEQ, q, K(x, 1)), v1, sel(x, cmp(x, CMPF_OEQ, q, K(x, 2)), v2, v3)));
    if (!want_cos) res = sel(x, cmp(x, CMPF_OEQ, a, K(x, 0)), a, res); /* sin(-0) = -0 */
    return sel(x, cmp(x, CMPF_OLT, fabs_(x, a), K(x, INFINITY)), res, K(x, NAN));
}

static Value *tanh64(Ex *x, Value *a) {
    Value *ax = fabs_(x, a);
    Value *y = mul(x, ax, K(x, 2));
    Value *p = K(x, 1 / factorial(18));
    for (int n = 17; n >= 2; n--) p = fma3(x, p, y, K(x, 1 / factorial(n)));
    Value *em1 = fma3(x, mul(x, y, y), p, y); /* expm1(y) for y < 1.1 */
    Value *small = dv(x, em1, add(x, em1, K(x, 2)));
    Value *large = sub(x, K(x, 1), dv(x, K(x, 2), add(x, exp64(x, y), K(x, 1))));
    Value *res = sel(x, cmp(x, CMPF_OLT, ax, K(x, 0.55)), small, large);
    res = sel(x, cmp(x, CMPF_OGE, ax, K(x, 22)), K(x, 1), res);
    return sel(x, is_nan(x, a), a, copysign64(x, res, a));
}

/* p(v) = c[0] + c[1] v + ... + c[n-1] v^(n-1), by Horner's rule */
static Value *horner(Ex *x, const double *c, int n, Value *v) {
    Value *p = K(x, c[n - 1]);
    for (int i = n - 2; i >= 0; i--) p = fma3(x, p, v, K(x, c[i]));
    return p;
}

static Value *abs_part(Ex *x, Value *a) { return part(x, PART_ABS, fabs_, a); }

/* erfcx z = e^(z^2) erfc z for z >= 0 (inf included; NaN allowed: the
 * callers select it away), to ~2e-16 relative: Q(t) / (1 + 2z) with
 * t = 1 - 6 / (z + 3) (erf64_coefs.h), which is 1 at z = inf. */
static Value *erfcx_nonneg(Ex *x, Value *z) {
    Value *t = sub(x, K(x, 1), dv(x, K(x, 2 * ERF64_K), add(x, z, K(x, ERF64_K))));
    Value *q = horner(x, ERF64_TAIL, ERF64_TAIL_TERMS, t);
    return dv(x, q, fma3(x, z, K(x, 2), K(x, 1)));
}

/* e^(s a^2) for s = +-1, from the exact split a^2 = h + l: e^(s h) (1 + s l) */
static Value *exp_sq(Ex *x, Value *a, bool neg) {
    Value *h = mul(x, a, a);
    Value *l = fma3(x, a, a, un(x, ARITH_NEGF, h)); /* a^2 = h + l exactly */
    if (neg) return mul(x, exp64(x, un(x, ARITH_NEGF, h)), sub(x, K(x, 1), l));
    return mul(x, exp64(x, h), add(x, K(x, 1), l));
}

/* erfc z for z >= 0, to ~3e-16 relative down to erfc's underflow at 27.3,
 * beyond which the callers do not use it: e^(-z^2) erfcx z, z clamped in
 * the exponential so that z^2's split stays finite. */
static Value *erfc_nonneg_(Ex *x, Value *z) {
    return mul(x, exp_sq(x, bin(x, ARITH_MINNUMF, z, K(x, ERF64_X_MAX)), true),
               part(x, PART_ERFCX_NONNEG, erfcx_nonneg, z));
}

static Value *erfc_nonneg(Ex *x, Value *z) { return part(x, PART_ERFC_NONNEG, erfc_nonneg_, z); }

/* erfcx a (libdevice's __nv_erfcx): erfcx |a| for a >= 0, and
 * 2 e^(a^2) - erfcx |a| below (inf past -26.6, as the function; a is
 * clamped at -27 there so that a^2's split stays finite). */
static Value *erfcx64(Ex *x, Value *a) {
    Value *e = part(x, PART_ERFCX_NONNEG, erfcx_nonneg, abs_part(x, a));
    Value *neg = sub(x, mul(x, exp_sq(x, bin(x, ARITH_MAXNUMF, a, K(x, -27)), false), K(x, 2)), e);
    Value *res = sel(x, cmp(x, CMPF_OLT, a, K(x, 0)), neg, e);
    return sel(x, is_nan(x, a), a, res);
}

/* erf a for |a| < 1: a P(a^2) (signed zeros kept) */
static Value *erf_small_(Ex *x, Value *a) {
    return mul(x, a, horner(x, ERF64_SMALL, ERF64_SMALL_TERMS, mul(x, a, a)));
}

static Value *erf_small(Ex *x, Value *a) { return part(x, PART_ERF_SMALL, erf_small_, a); }

/* erf a: a P(a^2) for |a| < 1, else +-(1 - erfc |a|), where erfc |a| < 0.16
 * loses nothing to the subtraction. */
static Value *erf64(Ex *x, Value *a) {
    Value *ax = abs_part(x, a);
    Value *small = erf_small(x, a);
    Value *large = copysign64(x, sub(x, K(x, 1), erfc_nonneg(x, ax)), a);
    Value *res = sel(x, cmp(x, CMPF_OLT, ax, K(x, ERF64_SMALL_MAX)), small, large);
    return sel(x, is_nan(x, a), a, res);
}

/* erfc a (libdevice's __nv_erfc): 1 - erf a for |a| < 1/2 (erfc in [0.48,
 * 1.52]: the subtraction is exact to an ulp, where the quotient form drifts
 * to 3), else erfc |a|, 0 from 27.3 on, and 2 minus it for negative a. */
static Value *erfc64(Ex *x, Value *a) {
    Value *ax = abs_part(x, a);
    Value *e = sel(x, cmp(x, CMPF_OGE, ax, K(x, ERF64_X_MAX)), K(x, 0), erfc_nonneg(x, ax));
    Value *res = sel(x, cmp(x, CMPF_OLT, a, K(x, 0)), sub(x, K(x, 2), e), e);
    res = sel(x, cmp(x, CMPF_OLT, ax, K(x, 0.5)), sub(x, K(x, 1), erf_small(x, a)), res);
    return sel(x, is_nan(x, a), a, res);
}

static Value *expand(Ex *x, OpKind k, Value *a) {
    switch (k) {
    case MATH_EXP: return exp64(x, a);
    case MATH_EXP2: return exp2_64(x, a);
    case MATH_LOG: return log64(x, a);
    case MATH_LOG2: return log2_64(x, a);
    case MATH_SIN: return sincos64(x, a, false);
    case MATH_COS: return sincos64(x, a, true);
    case MATH_TANH: return tanh64(x, a);
    case MATH_ERF: return erf64(x, a);
    case MATH_RSQRT: return dv(x, K(x, 1), un(x, MATH_SQRT, a));
    default: return NULL;
    }
}

/* the math op an fp64 libdevice call stands for, or OP_COUNT */
static OpKind libdevice_kind(const char *sym) {
    static const struct {
        const char *name;
        OpKind kind;
    } table[] = {{"__nv_exp", MATH_EXP}, {"__nv_exp2", MATH_EXP2}, {"__nv_log", MATH_LOG},
                 {"__nv_log2", MATH_LOG2}, {"__nv_sin", MATH_SIN}, {"__nv_cos", MATH_COS},
                 {"__nv_tanh", MATH_TANH}, {"__nv_erf", MATH_ERF}, {"__nv_rsqrt", MATH_RSQRT}};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(sym, table[i].name)) return table[i].kind;
    return OP_COUNT;
}

typedef struct F64State {
    Context *ctx;
    int changes;
    ExConsts consts; /* Ex.consts and Ex.parts of every expansion */
    Map parts;
    /* the last type expanded on, and its Ex.it and Ex.bt (the expansions
     * of a kernel share one or two) */
    Type *t, *it, *bt;
} F64State;

static void expand_op(F64State *st, Op *op) {
    Type *t = op_result(op, 0)->type;
    OpKind k = op->kind;
    Value *(*libdevice_only)(Ex *, Value *) = NULL; /* the functions without a math op */
    if (k == TT_EXTERN_ELEMENTWISE) {
        const char *sym = op_attr_str(op, "symbol");
        k = sym ? libdevice_kind(sym) : OP_COUNT;
        if (sym && !strcmp(sym, "__nv_erfc")) libdevice_only = erfc64;
        if (sym && !strcmp(sym, "__nv_erfcx")) libdevice_only = erfcx64;
    }
    if (k == OP_COUNT && !libdevice_only) return;
    if (t != st->t) {
        st->t = t;
        st->it = ty_with_elem(st->ctx, t, ty_i64(st->ctx));
        st->bt = ty_with_elem(st->ctx, t, ty_i32(st->ctx));
    }
    Ex x = {.b = builder_before(st->ctx, op), .t = t, .it = st->it, .bt = st->bt, .consts = &st->consts,
            .parts = &st->parts};
    Value *r = libdevice_only ? libdevice_only(&x, op_operand(op, 0)) : expand(&x, k, op_operand(op, 0));
    if (!r) return;
    value_replace_all_uses(op_result(op, 0), r);
    op_erase(op);
    st->changes++;
}

/* The candidates nested under root, in op_walk's post-order (each
 * expansion replaces only the op it expands, and what it makes goes
 * before it: the walk never meets it). */
static void expand_nested(F64State *st, Op *root) {
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first, *next; o; o = next) {
                next = o->next;
                if (o->nregions) expand_nested(st, o);
                if (expand_f64_math_candidate(o)) expand_op(st, o);
            }
}

bool pass_expand_f64_math(Op *module, PassContext *pc) {
    F64State st = {.ctx = pc->ctx};
    expand_nested(&st, module);
    ex_consts_free(&st.consts);
    map_free(&st.parts);
    pc->changes += st.changes;
    return true;
}
