/*
 * bessel.c - libdevice's Bessel functions of integer order 0 and 1 (j0, j1,
 * y0, y1, cyl_bessel_i0, cyl_bessel_i1) composed from tl ops, as the other
 * libdevice functions without a PTX instruction are (builtins.c): the same
 * ops then run on the CPU and, through expand-f64-math, on the GPU.
 *
 * Everything is computed in fp64 (an fp32 argument is widened and the
 * result rounded once, so fp32 results are within an ulp away from the
 * functions' zeros). The forms and their Chebyshev series are those of
 * scripts/gen_bessel_coefs.py (bessel_coefs.h), which also measures them:
 *
 *   |x| <= 5   j0 = (x - a1)(x + a1)(x - a2)(x + a2) R0(x^2), a_i double-double
 *              j1 = x (x - b1)(x + b1)(x - b2)(x + b2) R1(x^2)
 *              y0 = 2/pi log(x) j0 + S0(x^2),  y1 = 2/pi (log(x) j1 - 1/x) + x S1(x^2)
 *   |x| > 5    Hankel's form: with c = x - pi/4 (order 0), x - 3pi/4 (order 1),
 *              j = (P cos c - Q sin c) sqrt(2/(pi x)),  y = (P sin c + Q cos c) sqrt(2/(pi x)),
 *              P and Q series in w = 25 / x^2 (cos c, sin c from cos x, sin x)
 *   i0, i1     Taylor series in x^2/4 up to |x| = 8 (positive terms), and
 *              e^x / sqrt(x) times a series in 8/x above
 *
 * Errors (fp64, measured by the script against mpmath): within ~1e-15 of
 * the functions' envelope sqrt(2/(pi x)) for j and y (a few e-15 near the
 * first zeros of y0 and y1, where their small forms cancel), relative
 * 4e-16 for i0 and i1. Both branches are computed for every element and
 * one is selected, each fed an argument in its own range.
 */
#include "sema/sema_int.h"
#include "sema/bessel_coefs.h"

#include <math.h>
#include <string.h>

static TV add(Sema *S, TV a, TV b) { return sem_binary(S, PY_BIN_ADD, a, b); }
static TV sub(Sema *S, TV a, TV b) { return sem_binary(S, PY_BIN_SUB, a, b); }
static TV mul(Sema *S, TV a, TV b) { return sem_binary(S, PY_BIN_MUL, a, b); }
static TV div_(Sema *S, TV a, TV b) { /* (a constant numerator takes b's dtype: fdiv does not promote) */
    return sem_fdiv(S, a.kind == TV_FLOAT ? sem_cast(S, a, tl_sca(b.ty), NULL) : a, b, true);
}
static TV k(double v) { return tv_float(v); }
static TV un(Sema *S, OpKind op, TV x) { return tv_tensor(sem_ir(S, op, x.ty, x.v, NULL), x.ty); }
static TV where(Sema *S, TV c, TV a, TV b) { return sem_where(S, c, a, b); }
static TV cmp(Sema *S, PyCmpOp op, TV a, TV b) { return sem_compare(S, op, a, b); }

/* sum c[i] T_i(u), Clenshaw's recurrence */
static TV clenshaw(Sema *S, const double *c, int n, TV u) {
    TV u2 = add(S, u, u), b1 = tv_none(), b2 = tv_none();
    for (int i = n - 1; i >= 1; i--) {
        TV b = b1.kind == TV_NONE ? k(c[i]) : add(S, mul(S, u2, b1), k(c[i]));
        if (b2.kind != TV_NONE) b = sub(S, b, b2);
        b2 = b1;
        b1 = b;
    }
    TV r = add(S, mul(S, u, b1), k(c[0]));
    return b2.kind == TV_NONE ? r : sub(S, r, b2);
}

/* sum c[i] q^i, Horner's rule */
static TV horner(Sema *S, const double *c, int n, TV q) {
    TV p = k(c[n - 1]);
    for (int i = n - 2; i >= 0; i--) p = add(S, mul(S, p, q), k(c[i]));
    return p;
}

#define SERIES(name) BESSEL_##name, (int)(sizeof BESSEL_##name / sizeof BESSEL_##name[0])

/* (x - z)(x + z) for a double-double zero z = hi + lo: exact near z */
static TV around_zero(Sema *S, TV x, double hi, double lo) {
    return mul(S, sub(S, sub(S, x, k(hi)), k(lo)), add(S, x, k(hi)));
}

/* j0, j1, y0 or y1 (order nu, second kind when y) of ax = |x|, for ax finite */
static TV jy(Sema *S, TV ax, int nu, bool y) {
    TV small = cmp(S, PY_CMP_LE, ax, k(BESSEL_X0));
    /* |x| <= X0 */
    TV xs = where(S, small, ax, k(1.0));
    TV t = mul(S, xs, xs), u = sub(S, mul(S, t, k(2.0 / (BESSEL_X0 * BESSEL_X0))), k(1.0));
    TV js = nu == 0 ? mul(S, mul(S, around_zero(S, xs, BESSEL_A1_HI, BESSEL_A1_LO),
                                 around_zero(S, xs, BESSEL_A2_HI, BESSEL_A2_LO)),
                          clenshaw(S, SERIES(R0), u))
                    : mul(S, mul(S, mul(S, xs, around_zero(S, xs, BESSEL_B1_HI, BESSEL_B1_LO)),
                                 around_zero(S, xs, BESSEL_B2_HI, BESSEL_B2_LO)),
                          clenshaw(S, SERIES(R1), u));
    TV rs = js;
    if (y) {
        TV lg = un(S, MATH_LOG, xs);
        rs = nu == 0 ? add(S, mul(S, k(M_2_PI), mul(S, lg, js)), clenshaw(S, SERIES(S0), u))
                     : add(S, mul(S, k(M_2_PI), sub(S, mul(S, lg, js), div_(S, k(1.0), xs))),
                           mul(S, xs, clenshaw(S, SERIES(S1), u)));
    }
    /* |x| > X0: c = x - pi/4 (order 0) or x - 3 pi/4 (order 1), through
     * cos x and sin x, and the envelope 1 / sqrt(pi x) (sqrt(2) folded in) */
    TV xl = where(S, small, k(2 * BESSEL_X0), ax);
    TV w = div_(S, k(BESSEL_X0 * BESSEL_X0), mul(S, xl, xl)), v = sub(S, add(S, w, w), k(1.0));
    TV p = nu == 0 ? clenshaw(S, SERIES(P0), v) : clenshaw(S, SERIES(P1), v);
    TV q = mul(S, nu == 0 ? clenshaw(S, SERIES(Q0), v) : clenshaw(S, SERIES(Q1), v), div_(S, k(BESSEL_X0), xl));
    TV sn = un(S, MATH_SIN, xl), cs = un(S, MATH_COS, xl);
    TV spc = add(S, sn, cs), smc = sub(S, sn, cs);
    TV env = div_(S, k(1.0), un(S, TT_PRECISE_SQRT, mul(S, xl, k(M_PI))));
    TV rl;
    if (nu == 0) /* cos c = (cos x + sin x) / sqrt 2, sin c = (sin x - cos x) / sqrt 2 */
        rl = y ? add(S, mul(S, p, smc), mul(S, q, spc)) : sub(S, mul(S, p, spc), mul(S, q, smc));
    else /* cos c = (sin x - cos x) / sqrt 2, sin c = -(sin x + cos x) / sqrt 2 */
        rl = y ? sub(S, mul(S, q, smc), mul(S, p, spc)) : add(S, mul(S, p, smc), mul(S, q, spc));
    return where(S, small, rs, mul(S, env, rl));
}

/* i0 or i1 of ax = |x|, for ax finite */
static TV besseli(Sema *S, TV ax, int nu) {
    TV small = cmp(S, PY_CMP_LE, ax, k(8.0));
    TV xs = where(S, small, ax, k(1.0));
    TV q = mul(S, mul(S, xs, xs), k(0.25));
    TV rs = nu == 0 ? horner(S, SERIES(I0), q) : mul(S, xs, horner(S, SERIES(I1), q));
    /* e^x / sqrt(x) L(8 / x), as e^(x/2) (e^(x/2) L / sqrt(x)): no overflow
     * before the result's own (x ~ 713) */
    TV xl = where(S, small, k(16.0), ax);
    TV v = sub(S, div_(S, k(16.0), xl), k(1.0));
    TV l = nu == 0 ? clenshaw(S, SERIES(L0), v) : clenshaw(S, SERIES(L1), v);
    TV eh = un(S, MATH_EXP, mul(S, xl, k(0.5)));
    TV rl = mul(S, eh, div_(S, mul(S, eh, l), un(S, TT_PRECISE_SQRT, xl)));
    return where(S, small, rs, rl);
}

TV sema_bessel(Sema *S, const char *name, TV x) {
    const TlType *f64 = tl_scalar(S, TL_FP64), *ty = tl_sca(x.ty);
    bool narrow = ty->kind != TL_FP64;
    TV xd = narrow ? sem_cast(S, x, f64, NULL) : x;
    TV ax = un(S, MATH_ABSF, xd);
    TV inf = cmp(S, PY_CMP_EQ, ax, k(INFINITY));
    TV af = where(S, inf, k(1.0), ax); /* (the forms see finite arguments) */
    TV neg = cmp(S, PY_CMP_LT, xd, k(0.0));
    TV r;
    if (!strcmp(name, "cyl_bessel_i0") || !strcmp(name, "cyl_bessel_i1")) {
        int nu = name[12] - '0';
        r = where(S, inf, k(INFINITY), besseli(S, af, nu));
        if (nu == 1) r = where(S, neg, sem_minus(S, r), r);
    } else {
        int nu = name[1] - '0';
        bool y = name[0] == 'y';
        r = where(S, inf, k(0.0), jy(S, af, nu, y));
        if (y) { /* y0(0) = y1(0) = -inf; below 0, NaN */
            r = where(S, cmp(S, PY_CMP_EQ, xd, k(0.0)), k(-INFINITY), r);
            r = where(S, neg, k(NAN), r);
        } else if (nu == 1) {
            r = where(S, neg, sem_minus(S, r), r);
        }
    }
    r = where(S, cmp(S, PY_CMP_NE, xd, xd), xd, r); /* NaN in, NaN out */
    return narrow ? sem_cast(S, r, ty, NULL) : r;
}
