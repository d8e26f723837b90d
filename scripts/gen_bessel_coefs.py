#!/usr/bin/env python3
"""The Chebyshev series of libdevice's Bessel functions as tritonc composes
them (src/sema/bessel.c), computed with mpmath (Debian python3-mpmath) at 50
digits. Not run by the build: its output, src/sema/bessel_coefs.h, is
committed, and this script says where those numbers come from.

Each Chebyshev series is evaluated with Clenshaw's recurrence in a
variable u in [-1, 1] (no monomial rewrite: on a wide interval that costs
digits). With t = x^2, w = 25 / x^2 and v = 8 / x:

  0 <= |x| <= 5 (u = 2 t / 25 - 1)
    j0 x = (x - a1)(x + a1)(x - a2)(x + a2) R0(t)     a1, a2: the first two zeros of j0
    j1 x = x (x - b1)(x + b1)(x - b2)(x + b2) R1(t)   b1, b2: the first two zeros of j1
    y0 x = 2/pi log(x) j0(x) + S0(t)
    y1 x = 2/pi (log(x) j1(x) - 1/x) + x S1(t)
  |x| > 5 (Hankel's asymptotic form; u = 2w - 1)
    j0 x = (P0(w) cos c - 5/x q0(w) sin c) sqrt(2 / (pi x)),  c = x - pi/4
    y0 x = (P0(w) sin c + 5/x q0(w) cos c) sqrt(2 / (pi x))
    j1, y1 the same with P1, q1 and c = x - 3 pi/4
  |x| <= 8: i0 x = I0(q), i1 x = x I1(q), q = x^2 / 4: the Taylor series,
    positive terms summed by Horner's rule
  |x| > 8 (u = 2v - 1)
    i0 x = e^x / sqrt(x) L0(v),  i1 x = e^x / sqrt(x) L1(v)

(Below 5 the forms of y0 and y1 cancel near their zeros; above, Hankel's
functions of w converge fast enough for degree ~30.)
The zeros are written as double-double pairs, so that x - a near a zero is
exact and the product keeps its relative precision there. On stderr, the
largest relative error of each series evaluated in double against mpmath,
and of the whole composition (in double, as the GPU computes it) against
mpmath's Bessel functions.

    /usr/bin/python3 scripts/gen_bessel_coefs.py > src/sema/bessel_coefs.h
"""
import math
import sys

import mpmath as mp

mp.mp.dps = 50
PI = mp.pi


def cheb(f, n):
    """Chebyshev coefficients c[0..n] of f on [-1, 1] (interpolation at the
    zeros of T_{n+1}), f(u) = sum c_k T_k(u)."""
    nodes = [mp.cos(PI * (j + mp.mpf(1) / 2) / (n + 1)) for j in range(n + 1)]
    vals = [f(u) for u in nodes]
    c = [2 * mp.fsum(vals[j] * mp.cos(PI * k * (j + mp.mpf(1) / 2) / (n + 1)) for j in range(n + 1)) / (n + 1)
         for k in range(n + 1)]
    c[0] /= 2
    return c


def clenshaw(c, u):
    """sum c_k T_k(u) in double, as bessel.c evaluates it."""
    b1 = b2 = 0.0
    for ck in reversed(c[1:]):
        b1, b2 = 2.0 * u * b1 - b2 + ck, b1
    return u * b1 - b2 + c[0]


def zero(f, guess):
    z = mp.findroot(f, guess)
    hi = float(z)
    return z, hi, float(z - mp.mpf(hi))


A1, A1H, A1L = zero(lambda x: mp.besselj(0, x), 2.4)
A2, A2H, A2L = zero(lambda x: mp.besselj(0, x), 5.5)
B1, B1H, B1L = zero(lambda x: mp.besselj(1, x), 3.8)
B2, B2H, B2L = zero(lambda x: mp.besselj(1, x), 7.0)


X0 = 5.0  # the small forms below, Hankel's above


def small_t(u):
    return (u + 1) * X0 * X0 / 2  # t = x^2 in [0, X0^2]


def sq(t):
    return mp.sqrt(t) if t > 0 else mp.mpf(0)


def R0(u):
    t = small_t(u)
    x = sq(t)
    if x == 0:
        return 1 / (A1 ** 2 * A2 ** 2)
    return mp.besselj(0, x) / ((t - A1 ** 2) * (t - A2 ** 2))


def R1(u):
    t = small_t(u)
    x = sq(t)
    if x == 0:
        return mp.mpf(1) / 2 / (B1 ** 2 * B2 ** 2)
    return mp.besselj(1, x) / (x * (t - B1 ** 2) * (t - B2 ** 2))


def S0(u):
    t = small_t(u)
    x = sq(t)
    if x == 0:  # y0 - 2/pi log(x) j0 -> 2/pi (euler - log 2)
        return 2 / PI * (mp.euler - mp.log(2))
    return mp.bessely(0, x) - 2 / PI * mp.log(x) * mp.besselj(0, x)


def S1(u):
    t = small_t(u)
    x = sq(t)
    if x == 0:
        x = mp.mpf(10) ** -20
    return (mp.bessely(1, x) - 2 / PI * (mp.log(x) * mp.besselj(1, x) - 1 / x)) / x


def hankel(nu):
    """P(w) and q(w) = Q x / X0 for x = X0 / sqrt(w), from j and y themselves."""
    def pq(u, which):
        w = (u + 1) / 2
        if w == 0:
            mu = 4 * nu * nu
            return mp.mpf(1) if which == "P" else (mu - 1) / (8 * X0)  # Q ~ (mu - 1) / (8x)
        x = X0 / mp.sqrt(w)
        c = x - (2 * nu + 1) * PI / 4
        s = mp.sqrt(PI * x / 2)
        j, y = mp.besselj(nu, x), mp.bessely(nu, x)
        if which == "P":
            return s * (j * mp.cos(c) + y * mp.sin(c))
        return s * (y * mp.cos(c) - j * mp.sin(c)) * x / X0
    return (lambda u: pq(u, "P")), (lambda u: pq(u, "Q"))


P0, Q0 = hankel(0)
P1, Q1 = hankel(1)


def large_i(nu):
    def f(u):
        v = (u + 1) / 2
        if v == 0:
            return 1 / mp.sqrt(2 * PI)
        x = 8 / v
        return mp.besseli(nu, x) * mp.exp(-x) * mp.sqrt(x)
    return f


SERIES = [  # name, function of u, degree, what it is
    ("R0", R0, 22, "j0 / ((x^2 - a1^2)(x^2 - a2^2)), |x| <= 5"),
    ("R1", R1, 22, "j1 / (x (x^2 - b1^2)(x^2 - b2^2)), |x| <= 5"),
    ("S0", S0, 22, "y0 - 2/pi log(x) j0, 0 < x <= 5"),
    ("S1", S1, 22, "(y1 - 2/pi (log(x) j1 - 1/x)) / x, 0 < x <= 5"),
    ("P0", P0, 40, "Hankel's P for order 0, of w = 25 / x^2, x > 5"),
    ("Q0", Q0, 40, "Hankel's Q for order 0, times x / 5"),
    ("P1", P1, 40, "Hankel's P for order 1"),
    ("Q1", Q1, 40, "Hankel's Q for order 1, times x / 5"),
    ("L0", large_i(0), 34, "i0 e^-x sqrt(x), of v = 8 / x, x > 8"),
    ("L1", large_i(1), 34, "i1 e^-x sqrt(x)"),
]


N_TAYLOR = 24  # (q^k / k!^2 at q = 16, k = 24: 3e-20 of i0(8))


def taylor_i(nu):
    """i0(x) = sum q^k / (k! k!), i1(x) = x/2 sum q^k / (k! (k+1)!), q = x^2 / 4:
    positive terms, evaluated by Horner's rule in q (no cancellation)."""
    return [1 / (mp.factorial(k) * mp.factorial(k + nu)) / (2 if nu else 1) for k in range(N_TAYLOR + 1)]


def horner(c, q):
    p = 0.0
    for ck in reversed(c):
        p = p * q + ck
    return p


def series_error(f, c):
    worst = 0.0
    for k in range(401):
        u = -1 + 2 * k / 400
        want = f(mp.mpf(u))
        got = clenshaw(c, u)
        if want != 0:
            worst = max(worst, abs((got - want) / want))
    return float(worst)


def main():
    out = sys.stdout
    out.write("/*\n * bessel_coefs.h - Chebyshev series of the Bessel functions of\n"
              " * src/sema/bessel.c, generated by scripts/gen_bessel_coefs.py (mpmath, 50\n"
              " * digits): see that script for what each series is. Do not edit.\n */\n")
    out.write("#ifndef TC_SEMA_BESSEL_COEFS_H\n#define TC_SEMA_BESSEL_COEFS_H\n\n")
    out.write("/* the first two zeros of j0 and of j1, as double-double pairs (hi + lo) */\n")
    out.write("#define BESSEL_X0 %r /* the small forms up to here, Hankel's above */\n" % X0)
    for name, hi, lo in (("A1", A1H, A1L), ("A2", A2H, A2L), ("B1", B1H, B1L), ("B2", B2H, B2L)):
        out.write("#define BESSEL_%s_HI %r\n#define BESSEL_%s_LO %r\n" % (name, hi, name, lo))
    out.write("\n")
    coefs = {}
    for name, f, n, what in SERIES:
        c = cheb(f, n)
        fc = [float(x) for x in c]
        coefs[name] = fc
        while len(fc) > 1 and abs(fc[-1]) < 1e-19 * abs(fc[0]):
            fc.pop()
        sys.stderr.write("%s: degree %d, largest relative error in double %.2e\n"
                         % (name, len(fc) - 1, series_error(f, fc)))
        out.write("/* %s */\nstatic const double BESSEL_%s[%d] = {\n" % (what, name, len(fc)))
        for i in range(0, len(fc), 3):
            out.write("    " + ", ".join("%.17g" % x for x in fc[i:i + 3]) + ",\n")
        out.write("};\n\n")
    for name, nu in (("I0", 0), ("I1", 1)):
        c = [float(x) for x in taylor_i(nu)]
        coefs[name] = c
        what = "i0 = sum c_k q^k" if nu == 0 else "i1 = x sum c_k q^k"
        out.write("/* %s, q = x^2 / 4, |x| <= 8 (Taylor: 1 / (k! (k + nu)!), halved for i1) */\n"
                  "static const double BESSEL_%s[%d] = {\n" % (what, name, len(c)))
        for i in range(0, len(c), 3):
            out.write("    " + ", ".join("%.17g" % x for x in c[i:i + 3]) + ",\n")
        out.write("};\n\n")
    out.write("#endif\n")
    check(coefs)


def compose(name, x, C):
    """The composition of bessel.c, in double."""
    ax = abs(x)
    if name in ("i0", "i1"):
        if ax <= 8:
            p = horner(C["I0" if name == "i0" else "I1"], ax * ax / 4)
            return p if name == "i0" else x * p
        v = 8 / ax
        r = clenshaw(C["L0" if name == "i0" else "L1"], 2 * v - 1) * math.exp(ax) / math.sqrt(ax)
        return r if name == "i0" or x > 0 else -r
    if ax <= X0:
        t = x * x
        u = 2 * t / (X0 * X0) - 1
        j0 = (ax - A1H - A1L) * (ax + A1H) * (ax - A2H - A2L) * (ax + A2H) * clenshaw(C["R0"], u)
        j1 = x * (ax - B1H - B1L) * (ax + B1H) * (ax - B2H - B2L) * (ax + B2H) * clenshaw(C["R1"], u)
        if name == "j0":
            return j0
        if name == "j1":
            return j1
        if name == "y0":
            return 2 / math.pi * math.log(x) * j0 + clenshaw(C["S0"], u)
        return 2 / math.pi * (math.log(x) * j1 - 1 / x) + x * clenshaw(C["S1"], u)
    w = X0 * X0 / (ax * ax)
    u = 2 * w - 1
    s, c = math.sin(ax), math.cos(ax)
    k = 1 / math.sqrt(math.pi * ax)
    if name in ("j0", "y0"):
        p, q = clenshaw(C["P0"], u), clenshaw(C["Q0"], u) * X0 / ax
        return k * (p * (c + s) - q * (s - c)) if name == "j0" else k * (p * (s - c) + q * (c + s))
    p, q = clenshaw(C["P1"], u), clenshaw(C["Q1"], u) * X0 / ax
    r = k * (p * (s - c) + q * (s + c)) if name == "j1" else k * (q * (s - c) - p * (s + c))
    return -r if name == "j1" and x < 0 else r


def check(C):
    """The composition against mpmath over (0, 100] and a few far points:
    the largest relative error where |f| is at least 1e-3 of its envelope
    (away from the zeros), and the largest absolute error over the
    envelope everywhere."""
    ref = {"j0": lambda x: mp.besselj(0, x), "j1": lambda x: mp.besselj(1, x),
           "y0": lambda x: mp.bessely(0, x), "y1": lambda x: mp.bessely(1, x),
           "i0": lambda x: mp.besseli(0, x), "i1": lambda x: mp.besseli(1, x)}
    xs = [k / 64 for k in range(1, 64 * 100)] + [150.5, 1e3 + 0.3, 12345.678, 1e6 + 0.1]
    for name, f in ref.items():
        rel = ab = 0.0
        for x in xs:
            if name[0] == "i" and x > 700:
                continue
            want = f(mp.mpf(x))
            got = compose(name, x, C)
            env = float(abs(want)) if name[0] == "i" else max(float(abs(want)), (2 / (math.pi * x)) ** 0.5 * 0.1,
                                                              1e-300)
            err = abs(float((got - want)))
            ab = max(ab, err / env)
            if abs(float(want)) >= 1e-3 * env:
                rel = max(rel, err / abs(float(want)))
        sys.stderr.write("%s: relative error %.2e away from zeros, error / envelope %.2e\n" % (name, rel, ab))


if __name__ == "__main__":
    main()
