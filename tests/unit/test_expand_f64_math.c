/*
 * test_expand_f64_math.c - the `expand-f64-math` pass, run on the CPU.
 *
 * On the GPU the pass rewrites fp64 exp, exp2, log, log2, sin, cos, tanh,
 * erf and rsqrt (tl.* and libdevice.*), and libdevice's erfc and erfcx, as
 * fp64 arith, since PTX has no instructions for them; on the CPU those stay libm calls. Here a kernel
 * calling each function is compiled for the CPU with the pass added to the
 * pipeline, so the expansion itself runs, and its results are checked
 * against libm in ulps, on inputs that cover each formula's branches and
 * edges: signed zeros, subnormals, the overflow and underflow limits of
 * exp, erf's switch from its polynomial to 1 - erfc, erfc's underflow, large sin/cos arguments
 * (up to DBL_MAX, and the doubles closest to a multiple of pi/2: the exact
 * reduction past 2^31), infinities and NaN.
 */
#include "driver/compile.h"
#include "target/cpu/cpu.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SRC[] =
    "import triton\n"
    "import triton.language as tl\n"
    "from triton.language.extra import libdevice\n"
    "\n"
    "@triton.jit\n"
    "def k(x_ptr, o_ptr, FN: tl.constexpr, LIB: tl.constexpr, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    if LIB:\n"
    "        r = getattr(libdevice, FN)(x)\n"
    "    else:\n"
    "        r = getattr(tl, FN)(x)\n"
    "    tl.store(o_ptr + offs, r)\n"
    "\n"
    "@triton.jit\n"
    "def ks(x, o_ptr, FN: tl.constexpr, LIB: tl.constexpr, N: tl.constexpr):\n"
    "    if LIB:\n"
    "        r = getattr(libdevice, FN)(x)\n"
    "    else:\n"
    "        r = getattr(tl, FN)(x)\n"
    "    tl.store(o_ptr, r)\n";

enum { N = 256 };
static int failures, checks;

static double ref(const char *fn, double x) {
    if (!strcmp(fn, "exp")) return exp(x);
    if (!strcmp(fn, "exp2")) return exp2(x);
    if (!strcmp(fn, "log")) return log(x);
    if (!strcmp(fn, "log2")) return log2(x);
    /* (in long double: glibc's sin and cos miss by hundreds of ulps next to
     * some multiples of pi/2, as sin(0x1.b930d680374c2p+152); sinl's exact
     * reduction does not) */
    if (!strcmp(fn, "sin")) return (double)sinl(x);
    if (!strcmp(fn, "cos")) return (double)cosl(x);
    if (!strcmp(fn, "tanh")) return tanh(x);
    if (!strcmp(fn, "erf")) return erf(x);
    if (!strcmp(fn, "erfc")) return erfc(x);
    if (!strcmp(fn, "erfcx")) { /* e^(x^2) erfc x in long double, its asymptotic series far out */
        long double X = x;
        if (isnan(x) || x < 50) return (double)(expl(X * X) * erfcl(X));
        long double t = 1 / (2 * X * X), term = 1, sum = 1;
        for (int n = 1; n <= 12; n++) sum += (term *= -(2 * n - 1) * t);
        return (double)(sum / (X * sqrtl(3.14159265358979323846264338327950288L)));
    }
    if (!strcmp(fn, "rsqrt")) return 1 / sqrt(x);
    abort();
}

/* |got - want| in ulps of want (signed zeros and NaN must match exactly) */
static int close_to(double got, double want, double ulps) {
    if (isnan(want)) return isnan(got);
    if (isinf(want) || want == 0) return got == want && signbit(got) == signbit(want);
    double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
    return fabs(got - want) <= ulps * ulp;
}

/* FN (tl.FN, or libdevice.FN with lib) of each x, by kernel k on the whole
 * array, or with `scalar` by ks on one scalar argument a launch (the
 * expansion of a scalar) */
static void run_as(const char *fn, int lib, int scalar, const double *x, double ulps) {
    Compilation c;
    compilation_init(&c);
    char cx_fn[48];
    snprintf(cx_fn, sizeof cx_fn, "'%s'", fn);
    tc_constexpr cx[3] = {{"FN", cx_fn}, {"LIB", lib ? "True" : "False"}, {"N", "256"}};
    CompileRequest req = {.opts = tc_compile_options_default(), .pipeline = "default,expand-f64-math",
                          .stop_after = STAGE_LOADED, .keep_texts = STAGE_BIT(STAGE_TTIR)};
    req.opts.source = SRC;
    req.opts.filename = "expand_f64_kernel.py";
    req.opts.kernel = scalar ? "ks" : "k";
    req.opts.signature = scalar ? "fp64,*fp64" : "*fp64,*fp64";
    req.opts.constexprs = cx;
    req.opts.num_constexprs = 3;
    checks++;
    if (!compile_run(&c, &req) || !c.cpu) {
        StrBuf sb = {0};
        diag_render(&c.de, &sb, false);
        fprintf(stderr, "%s: compile failed\n%s\n", fn, sb_cstr(&sb));
        sb_free(&sb);
        failures++;
        compilation_free(&c);
        return;
    }
    const char *ttir = c.text[STAGE_TTIR];
    if (!ttir) {
        fprintf(stderr, "%s: no expanded TTIR\n", fn);
        failures++;
    }
    static const char *const left[] = {"math.exp", "math.log", "math.sin", "math.cos", "math.tanh",
                                       "math.erf", "math.rsqrt", "tt.extern_elementwise"};
    for (size_t i = 0; ttir && i < sizeof left / sizeof *left; i++)
        if (strstr(ttir, left[i])) {
            fprintf(stderr, "%s%s: %s was not expanded\n", lib ? "libdevice." : "tl.", fn, left[i]);
            failures++;
        }
    double out[N];
    for (int i = 0; i < N; i++) out[i] = -12345.0;
    const void *px = x;
    void *po = out;
    void *args[2] = {&px, &po};
    int grid[3] = {1, 1, 1};
    double xi;
    for (int i = 0; i < (scalar ? N : 1); i++) {
        if (scalar) xi = x[i], po = &out[i], args[0] = &xi;
        if (!cpu_kernel_launch(c.cpu, grid, args, &c.de)) {
            fprintf(stderr, "%s: launch failed\n", fn);
            failures++;
            break;
        }
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double r = ref(fn, x[i]);
        checks++;
        if (!close_to(out[i], r, ulps)) {
            failures++;
            if (bad++ < 4)
                fprintf(stderr, "%s%s(%.17g): got %.17g, want %.17g\n", lib ? "libdevice." : "tl.", fn, x[i],
                        out[i], r);
        }
    }
    compilation_free(&c);
}

static void run(const char *fn, int lib, const double *x, double ulps) { run_as(fn, lib, 0, x, ulps); }

static unsigned long long rs = 88172645463325252ULL;
static double uniform(double lo, double hi) {
    rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
    return lo + (hi - lo) * (double)(rs >> 11) * (1.0 / 9007199254740992.0);
}

/* sin and cos past Cody-Waite (Payne-Hanek from 2^31): specials first
 * (the switch at 2^31, powers of ten and two, the largest doubles, the
 * doubles closest to a multiple of pi/2 found in some binades by the
 * continued fraction of 2^E 2/pi, 0x1.6ac5b262ca1ffp+849 = 6381956970095103
 * 2^797 the closest of all, 2^-61.5 of a quadrant off), then magnitudes
 * uniform in the exponent, either sign. */
static void huge_inputs(double *x) {
    static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, -4.9e-324, 1.0, -1.0,
                                2147483648.0, -2147483648.0, 2147483647.9999998, 2147483648.0000005, 1e9, 1e16,
                                1e17, -1e17, 1e18, 1e22, 1e100, -1e100, 1e200, 1e300, -1e300, 1e308, DBL_MAX,
                                -DBL_MAX, 0x1p31, 0x1p52, 0x1p53, 0x1p63, 0x1p64, 0x1p127, 0x1p128, 0x1p191,
                                0x1p192, 0x1p255, 0x1p1000, 0x1p1023, 0x1.fffffffffffffp62, 0x1.fffffffffffffp63,
                                0x1.ffb04067cd49ep+30, 0x1.ebed74e723d7ap+42, 0x1.5cba89af1f855p+52,
                                0x1.f737f7ea0987ap+112, 0x1.b930d680374c2p+152, 0x1.1bc285fdf5532p+452,
                                0x1.efe381eed45e5p+652, 0x1.6ac5b262ca1ffp+849, -0x1.6ac5b262ca1ffp+849,
                                0x1.e1987122b7e06p+952, 0x1.61a3db8c8d129p+1023};
    enum { NS = sizeof sp / sizeof *sp };
    for (int i = 0; i < N; i++)
        x[i] = i < NS ? sp[i] : copysign(ldexp(uniform(1, 2), (int)uniform(0, 1024)), uniform(-1, 1));
}

/* specials first, then uniform samples in [lo, hi] */
static void inputs(double *x, double lo, double hi) {
    static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, 2.0, 8.0, 1e-310, -1e-310,
                                4.9e-324, 1e-300, 709.78, 709.79, -745.13, -745.14, 1023.9, 1024.0, -1074.0,
                                -1075.5, 1.7999999, 1.8, 2.5, 5.9, 6.0, 0.5499999, 0.55, 21.9, 22.0, 1e6,
                                -3e5, 1.5707963267948966, 3.141592653589793, 1e-8, -1e-20, 0.70710678118654746,
                                1.4142135623730951, 1.0000000000000002, 0.99999999999999989, 27.299999999999997,
                                27.3, 26.5, -0.99999999999999989, 3.0};
    enum { NS = sizeof sp / sizeof *sp };
    for (int i = 0; i < N; i++) x[i] = i < NS ? sp[i] : uniform(lo, hi);
}

int main(void) {
    static const struct {
        const char *fn;
        double lo, hi, ulps;
        int tl; /* tl.FN exists too */
    } cases[] = {
        {"exp", -750, 712, 2, 1},  {"exp", -3, 3, 2, 1},     {"exp2", -1080, 1030, 2, 1},
        {"log", 0, 1e300, 3, 1},   {"log", 0.3, 3, 3, 1},    {"log2", 0, 1e300, 4, 1},
        {"log2", 0.5, 2, 4, 1},    {"sin", -20, 20, 2, 1},   {"sin", -1e6, 1e6, 2, 1},
        {"cos", -20, 20, 2, 1},    {"cos", -1e6, 1e6, 2, 1}, {"sin", -3e9, 3e9, 2, 1},
        {"cos", -3e9, 3e9, 2, 1},  {"tanh", -3, 3, 4, 0},
        {"tanh", -30, 30, 4, 0},   {"erf", -3, 3, 2, 1},     {"erf", -7, 7, 2, 1},
        {"erf", -1.1, 1.1, 2, 1}, {"erfc", -6, 6, 4, 0},   {"erfc", 0, 27.4, 4, 0},
        {"erfcx", -26, 30, 4, 0}, {"erfcx", 0, 1e6, 4, 0},
        {"rsqrt", 0, 1e10, 2, 1},
    };
    double x[N];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        inputs(x, cases[i].lo, cases[i].hi);
        if (cases[i].tl) run(cases[i].fn, 0, x, cases[i].ulps);
        run(cases[i].fn, 1, x, cases[i].ulps);
    }
    for (int i = 0; i < 2; i++) {
        const char *fn = i ? "cos" : "sin";
        huge_inputs(x);
        run(fn, 0, x, 2);
        run(fn, 1, x, 2);
        run_as(fn, 0, 1, x, 2); /* (a scalar's: an scf.if, no tt.map_elementwise) */
    }
    printf("test_expand_f64_math: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
