/*
 * ptx_libm.c - the fp32 math functions Triton takes from libdevice, as PTX.
 *
 * Triton lowers math.sin, math.cos, math.log, math.log2, math.erf and
 * libdevice's tanh on fp32 by linking NVIDIA's libdevice, with its
 * flush-to-zero reflection on. We write PTX directly, so this file emits the
 * same arithmetic: the same argument reductions, polynomial coefficients,
 * special cases and .ftz roundings in the same order, so that a kernel's
 * results are Triton's bit for bit on normal inputs (and as accurate: a few
 * ulp, where the .approx instructions lose all relative accuracy near a
 * root, as lg2.approx near 1, or for large arguments, as sin.approx).
 *
 *   sin, cos  x = j pi/2 + t, j = rint(x 2/pi), t by three fma (Cody-Waite)
 *             for |x| < 105615; past that an exact reduction (Payne-Hanek:
 *             the 24-bit mantissa times 192 bits of 2/pi), behind a branch
 *             as in libdevice since it is rare; then the sine or the cosine
 *             polynomial on t by the quadrant (q + 1 for cos), negated in
 *             quadrants 2 and 3.
 *   log, log2 x = m 2^e with m in [2/3, 4/3), a degree 8 (9 for log2)
 *             polynomial in f = m - 1; subnormals scaled by 2^23 first;
 *             x < 0 and NaN give NaN, 0 gives -inf, +inf gives +inf.
 *   tanh      |x| < 0.6: x + x^3 P(x^2); else 1 - 2 / (e^(2|x|) + 1) with
 *             ex2.approx.ftz and rcp.approx.ftz, 1 past 9.01, x's sign.
 *   erf       |x| < 1.00295: x + x P(x^2); else 1 - 2^(|x| + |x| Q(|x|))
 *             with x's sign (one polynomial shape, two coefficient sets).
 *
 * libdevice branches between the two sides of tanh and erf; here both are
 * computed and one selected, as a warp would run both anyway.
 */
#include "target/ptx/ptx_lower.h"

/* `o a[, b[, c]]` into a register of class rc, through the emitter's CSE;
 * returns the register's name. */
static const char *ins(Px *p, RegClass rc, const char *o, const char *a, const char *b, const char *c) {
    return px_rname(p, px_cse(p, rc, o, a, b, c));
}
#define F(o, a, b, c) ins(p, RC_F32, o, a, b, c)
#define R(o, a, b, c) ins(p, RC_B32, o, a, b, c)
#define FMA(a, b, c) F("fma.rn.ftz.f32", a, b, c)

static Slot pred(Px *p, const char *o, const char *a, const char *b) { return px_cse(p, RC_PRED, o, a, b, NULL); }

/* Horner's rule from a first value: acc = fma(acc, z, c[i]) for each c */
static const char *horner(Px *p, const char *acc, const char *z, const char *const *c, int n) {
    for (int i = 0; i < n; i++) acc = FMA(acc, z, c[i]);
    return acc;
}

/* ---- sin, cos ---------------------------------------------------------------------- */

/* A fresh register, outside the CSE: written on both sides of a branch. */
static const char *fresh(Px *p, RegClass rc) { return px_rname(p, px_reg(p, rc)); }

/* The exact reduction of |x| >= 105615 (x's bits xb), into t (f32) and q
 * (the quadrant, b32); infinities give NaN and 0. Plain instructions into
 * fresh registers: this code runs only when the branch around it is not
 * taken, so nothing of it may enter the CSE. */
static void reduce_slow(Px *p, const char *x, const char *xb, const char *ax, const char *t, const char *q) {
    /* 2/pi, 192 bits, least significant word first */
    static const char *const two_over_pi[6] = {"1011060801", "3680671129", "4113882560",
                                               "4230436817", "1313084713", "2734261102"};
    const char *m = fresh(p, RC_B32), *w[7], *carry = "0";
    px_ins(p, "shl.b32", m, xb, "8", NULL);
    px_ins(p, "or.b32", m, m, "-2147483648", NULL);
    /* w = m * 2/pi, 224 bits: the lows with the carry in, then the highs with the carry out */
    for (int i = 0; i < 6; i++) {
        w[i] = fresh(p, RC_B32);
        const char *hi = fresh(p, RC_B32);
        px_ins(p, "mad.lo.cc.u32", w[i], m, two_over_pi[i], carry);
        px_ins(p, "madc.hi.u32", hi, m, two_over_pi[i], "0");
        carry = hi;
    }
    w[6] = carry;
    /* the three words at the binary point: w[6-k], w[5-k], w[4-k] with
     * k = (exponent's top 3 bits - 4), 0..3 for |x| >= 2^16 */
    const char *e = fresh(p, RC_B32), *k = fresh(p, RC_B32);
    px_ins(p, "shr.u32", e, xb, "23", NULL);
    px_ins(p, "and.b32", k, e, "224", NULL);
    px_ins(p, "add.s32", k, k, "-128", NULL);
    px_ins(p, "shr.u32", k, k, "5", NULL);
    const char *is[3];
    for (int i = 0; i < 3; i++) {
        is[i] = px_rname(p, px_reg(p, RC_PRED));
        px_ins(p, "setp.eq.s32", is[i], k, (const char *[]){"1", "2", "3"}[i], NULL);
    }
    const char *sel[3];
    for (int j = 0; j < 3; j++) { /* sel[j] = w[4 + j - k] */
        sel[j] = fresh(p, RC_B32);
        px_ins(p, "mov.b32", sel[j], w[4 + j], NULL, NULL);
        for (int i = 0; i < 3; i++) px_line(p, "selp.b32 ", sel[j], ", ", w[3 + j - i], ", ", sel[j], ", ", is[i], NULL);
    }
    /* shift by the exponent's low 5 bits: hi.lo is x 2/pi in 2.62 fixed point */
    const char *hi = fresh(p, RC_B32), *lo = fresh(p, RC_B32);
    px_line(p, "shf.l.wrap.b32 ", hi, ", ", sel[1], ", ", sel[2], ", ", e, NULL);
    px_line(p, "shf.l.wrap.b32 ", lo, ", ", sel[0], ", ", sel[1], ", ", e, NULL);
    /* the quadrant, rounded to nearest; the fraction in [-1/2, 1/2) */
    const char *qq = fresh(p, RC_B32), *h2 = fresh(p, RC_B32), *l2 = fresh(p, RC_B32), *r = fresh(p, RC_B32);
    px_ins(p, "shr.u32", qq, hi, "30", NULL);
    px_line(p, "shf.l.wrap.b32 ", h2, ", ", lo, ", ", hi, ", 2", NULL);
    px_ins(p, "shl.b32", l2, lo, "2", NULL);
    px_ins(p, "shr.u32", r, h2, "31", NULL);
    px_ins(p, "add.s32", qq, qq, r, NULL);
    const char *neg = px_rname(p, px_reg(p, RC_PRED)), *nq = fresh(p, RC_B32);
    px_ins(p, "setp.lt.s32", neg, xb, "0", NULL);
    px_ins(p, "neg.s32", nq, qq, NULL, NULL);
    px_line(p, "selp.b32 ", qq, ", ", nq, ", ", qq, ", ", neg, NULL);
    const char *sg = fresh(p, RC_B32), *mask = fresh(p, RC_B32);
    px_ins(p, "xor.b32", sg, h2, xb, NULL);
    px_ins(p, "shr.s32", mask, h2, "31", NULL);
    px_ins(p, "xor.b32", h2, h2, mask, NULL);
    px_ins(p, "xor.b32", l2, l2, mask, NULL);
    /* fixed point -> float: the 64 bits times pi/2 2^-64 in fp64 */
    const char *d = fresh(p, RC_B64), *df = fresh(p, RC_F64), *tt = fresh(p, RC_F32), *nt = fresh(p, RC_F32);
    px_line(p, "mov.b64 ", d, ", {", l2, ", ", h2, "}", NULL);
    px_ins(p, "cvt.rn.f64.s64", df, d, NULL, NULL);
    px_ins(p, "mul.f64", df, df, "0d3BF921FB54442D19", NULL);
    px_ins(p, "cvt.rn.f32.f64", tt, df, NULL, NULL);
    px_ins(p, "neg.f32", nt, tt, NULL, NULL);
    const char *flip = px_rname(p, px_reg(p, RC_PRED));
    px_ins(p, "setp.lt.s32", flip, sg, "0", NULL);
    px_line(p, "selp.f32 ", tt, ", ", nt, ", ", tt, ", ", flip, NULL);
    /* infinities: NaN, quadrant 0 */
    const char *inf = px_rname(p, px_reg(p, RC_PRED)), *nan = fresh(p, RC_F32);
    px_ins(p, "setp.eq.f32", inf, ax, "0f7F800000", NULL);
    px_ins(p, "mul.rn.ftz.f32", nan, x, "0f00000000", NULL);
    px_line(p, "selp.f32 ", t, ", ", nan, ", ", tt, ", ", inf, NULL);
    px_line(p, "selp.b32 ", q, ", 0, ", qq, ", ", inf, NULL);
}

static Slot sincos(Px *p, const char *x, bool cos) {
    /* Cody-Waite: j = rint(x 2/pi), t = x - j pi/2 in three parts */
    const char *j = R("cvt.rni.ftz.s32.f32", F("mul.f32", x, "0f3F22F983", NULL), NULL, NULL);
    const char *fj = F("cvt.rn.f32.s32", j, NULL, NULL);
    const char *t0 = FMA(fj, "0fBFC90FDA", x);
    t0 = FMA(fj, "0fB3A22168", t0);
    t0 = FMA(fj, "0fA7C234C5", t0);
    const char *ax = F("abs.ftz.f32", x, NULL, NULL);
    const char *t = fresh(p, RC_F32), *q = fresh(p, RC_B32);
    px_ins(p, "mov.f32", t, t0, NULL, NULL);
    px_ins(p, "mov.b32", q, j, NULL, NULL);
    const char *xb = R("mov.b32", x, NULL, NULL);
    int done = px_label(p);
    px_bra(p, pred(p, "setp.ltu.f32", ax, "0f47CE4780"), false, done); /* |x| < 105615 or NaN */
    reduce_slow(p, x, xb, ax, t, q);
    px_label_at(p, done);
    /* the polynomial of the quadrant s = q (sin) or q + 1 (cos): odd s the
     * cosine's 1 + z C(z), even s the sine's t + t z S(z) */
    const char *s = cos ? R("add.s32", q, "1", NULL) : q;
    const char *z = F("mul.rn.ftz.f32", t, t, NULL);
    Slot odd = pred(p, "setp.ne.b32", R("and.b32", s, "1", NULL), "0");
    const char *on = px_rname(p, odd);
    const char *r = F("selp.f32", "0f3F800000", t, on);
    const char *zr = FMA(z, r, "0f00000000");
    const char *c0 = F("selp.f32", FMA("0f37CBAC00", z, "0fBAB607ED"), "0fB94D4153", on);
    const char *c1 = F("selp.f32", "0f3D2AAABB", "0f3C0885E4", on);
    const char *c2 = F("selp.f32", "0fBEFFFFFF", "0fBE2AAAA8", on);
    const char *v = FMA(FMA(FMA(c0, z, c1), z, c2), zr, r);
    Slot flip = pred(p, "setp.ne.b32", R("and.b32", s, "2", NULL), "0");
    return px_cse(p, RC_F32, "selp.f32", FMA(v, "0fBF800000", "0f00000000"), v, px_rname(p, flip));
}

/* ---- log, log2 --------------------------------------------------------------------- */

static Slot logf_(Px *p, const char *x, bool base2) {
    static const char *const ln_c[7] = {"0fBDF8CDCC", "0f3E0F2955", "0fBE2AD8B9", "0f3E4CED0B",
                                        "0fBE7FFF22", "0f3EAAAA78", "0fBF000000"};
    static const char *const lg_c[8] = {"0f3E2FCF2A", "0fBE374E43", "0f3E520BF4", "0fBE763C8B",
                                        "0f3E93BF99", "0fBEB8AA49", "0f3EF6384A", "0fBF38AA3B"};
    const char *sub = px_rname(p, pred(p, "setp.lt.f32", x, "0f00800000")); /* subnormal, 0 or negative */
    const char *a = F("selp.f32", F("mul.f32", x, "0f4B000000", NULL), x, sub);
    const char *eb = F("selp.f32", "0fC1B80000", "0f00000000", sub);
    const char *ab = R("mov.b32", a, NULL, NULL);
    /* m = a / 2^e in [2/3, 4/3) (log2: [0.71, 1.42)) */
    const char *ebits = R("and.b32", R("add.s32", ab, base2 ? "-1060439283" : "-1059760811", NULL), "-8388608", NULL);
    const char *m = F("mov.b32", R("sub.s32", ab, ebits, NULL), NULL, NULL);
    const char *e = FMA(F("cvt.rn.f32.s32", ebits, NULL, NULL), "0f34000000", eb);
    const char *f = F("add.f32", m, "0fBF800000", NULL);
    const char *r;
    if (base2) {
        const char *c = horner(p, FMA("0f3DC6B27F", f, "0fBE2C7F30"), f, lg_c, 8);
        c = F("mul.f32", f, F("mul.f32", f, c, NULL), NULL);
        r = F("add.f32", e, FMA(f, "0f3FB8AA3B", c), NULL);
    } else {
        const char *c = horner(p, FMA("0fBE055027", f, "0f3E1039F6"), f, ln_c, 7);
        r = FMA(e, "0f3F317218", FMA(F("mul.f32", f, c, NULL), f, f));
    }
    /* +inf, NaN and negatives (bits >= 0x7f800000 unsigned): a inf + inf */
    Slot fin = pred(p, "setp.lt.u32", ab, "2139095040");
    r = F("selp.f32", r, FMA(a, "0f7F800000", "0f7F800000"), px_rname(p, fin));
    return px_cse(p, RC_F32, "selp.f32", "0fFF800000", r, px_rname(p, pred(p, "setp.eq.f32", x, "0f00000000")));
}

/* ---- tanh, erf --------------------------------------------------------------------- */

/* |r| with the sign bit of x */
static const char *with_sign(Px *p, const char *r, const char *x) {
    const char *s = R("and.b32", R("mov.b32", x, NULL, NULL), "-2147483648", NULL);
    return F("mov.b32", R("or.b32", s, R("mov.b32", r, NULL, NULL), NULL), NULL, NULL);
}

static Slot tanhf_(Px *p, const char *x) {
    static const char *const c[3] = {"0f3E085941", "0fBEAAA9ED", "0f00000000"};
    const char *ax = F("abs.ftz.f32", x, NULL, NULL);
    const char *z = F("mul.f32", x, x, NULL);
    const char *small = FMA(horner(p, FMA("0f3C80F082", z, "0fBD563CAE"), z, c, 3), x, x);
    const char *e = F("ex2.approx.ftz.f32", F("mul.f32", ax, "0f4038AA3B", NULL), NULL, NULL);
    const char *rc = F("rcp.approx.ftz.f32", F("add.f32", e, "0f3F800000", NULL), NULL, NULL);
    const char *one = px_rname(p, pred(p, "setp.ge.f32", ax, "0f41102CB4"));
    const char *large = with_sign(p, F("selp.f32", "0f3F800000", FMA(rc, "0fC0000000", "0f3F800000"), one), x);
    return px_cse(p, RC_F32, "selp.f32", small, large, px_rname(p, pred(p, "setp.ltu.f32", ax, "0f3F19999A")));
}

static Slot erff_(Px *p, const char *x) {
    static const char *const big_c[7] = {"0f3789CA3C", "0fB9F560B9", "0f3BAC840B", "0fBD0C8162",
                                         "0f3E1CF906", "0f3F6A937E", "0f3F20D842"};
    static const char *const small_c[7] = {"0f38B1E96A", "0fBA574D20", "0f3BAAD5EA", "0fBCDC1BE7",
                                           "0f3DE718AF", "0fBEC093AC", "0f3E0375D3"};
    const char *ax = F("abs.ftz.f32", x, NULL, NULL);
    const char *big = px_rname(p, pred(p, "setp.ge.f32", ax, "0f3F8060FE"));
    const char *z = F("selp.f32", ax, F("mul.f32", x, x, NULL), big);
    const char *c[7];
    for (int i = 0; i < 7; i++) c[i] = F("selp.f32", big_c[i], small_c[i], big);
    const char *w = F("selp.f32", F("neg.f32", z, NULL, NULL), x, big);
    const char *r = FMA(horner(p, c[0], z, c + 1, 6), w, w);
    const char *tail = with_sign(p, F("sub.f32", "0f3F800000", F("ex2.approx.ftz.f32", r, NULL, NULL), NULL), x);
    return px_cse(p, RC_F32, "selp.f32", tail, r, big);
}

Slot px_libm(Px *p, OpKind k, Slot x) {
    const char *xs = px_rname(p, x);
    switch (k) {
    case MATH_SIN: return sincos(p, xs, false);
    case MATH_COS: return sincos(p, xs, true);
    case MATH_LOG: return logf_(p, xs, false);
    case MATH_LOG2: return logf_(p, xs, true);
    case MATH_TANH: return tanhf_(p, xs);
    case MATH_ERF: return erff_(p, xs);
    default: return x;
    }
}
