/*
 * test_expand_libdevice.c - the `expand-libdevice` pass, run on the CPU.
 *
 * On the GPU the pass rewrites fp32 libdevice calls (libdevice.pow, log1p,
 * atan2, ...) as arith/math ops; on the CPU those calls normally stay libm
 * calls. Here a kernel calling each function is compiled for the CPU with
 * the pass added to the pipeline, so the expansion itself runs, and its
 * results are checked against the C library on inputs that cover each
 * formula's branches (zeros, signs, halves, tiny and huge magnitudes, inf,
 * NaN). Tolerances, in ulps of the fp32 reference: exact for the bit
 * operations and the rounding functions, 4 to 8 for the formulas (libm's
 * expf/logf are within an ulp, the formulas add a few roundings), and for
 * pow 16 + 2|y log2 x| (log2's rounding is multiplied by y); tan is checked
 * to an absolute bound; fmod is exact. The fp64 functions run the
 * same way, with expand-f64-math after (as on the GPU, where the exp, log,
 * sin, ... the formulas use become fp64 arith too), in ulps of fp64.
 */
#include "driver/compile.h"
#include "target/cpu/cpu.h"

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
    "def k(x_ptr, y_ptr, o_ptr, FN: tl.constexpr, BINARY: tl.constexpr, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    y = tl.load(y_ptr + offs)\n"
    "    if BINARY:\n"
    "        r = getattr(libdevice, FN)(x, y)\n"
    "    else:\n"
    "        r = getattr(libdevice, FN)(x)\n"
    "    tl.store(o_ptr + offs, r.to(o_ptr.dtype.element_ty))\n";

enum { N = 64 };
static int failures, checks;

static double ref1(const char *fn, double x, int f64) {
    if (!strcmp(fn, "trunc")) return trunc(x);
    if (!strcmp(fn, "rint") || !strcmp(fn, "nearbyint")) return f64 ? rint(x) : rintf((float)x);
    if (!strcmp(fn, "round")) return round(x);
    if (!strcmp(fn, "isnan")) return isnan(x) ? 1 : 0;
    if (!strcmp(fn, "isinf")) return isinf(x) ? 1 : 0;
    if (!strcmp(fn, "finitef") || !strcmp(fn, "isfinited")) return isfinite(x) ? 1 : 0;
    if (!strcmp(fn, "signbit")) return signbit(x) ? 1 : 0;
    if (!strcmp(fn, "log10")) return log10(x);
    if (!strcmp(fn, "exp10")) return pow(10.0, x);
    if (!strcmp(fn, "log1p")) return log1p(x);
    if (!strcmp(fn, "expm1")) return expm1(x);
    if (!strcmp(fn, "tan")) return tan(x);
    if (!strcmp(fn, "atan")) return atan(x);
    if (!strcmp(fn, "asin")) return asin(x);
    if (!strcmp(fn, "acos")) return acos(x);
    if (!strcmp(fn, "sinh")) return sinh(x);
    if (!strcmp(fn, "cosh")) return cosh(x);
    if (!strcmp(fn, "asinh")) return asinh(x);
    if (!strcmp(fn, "acosh")) return acosh(x);
    if (!strcmp(fn, "atanh")) return atanh(x);
    if (!strcmp(fn, "tanh")) return tanh(x);
    if (!strcmp(fn, "erfc")) return erfc(x);
    if (!strcmp(fn, "cbrt")) return cbrt(x);
    abort();
}

static double ref2(const char *fn, double x, double y, int f64) {
    if (!strcmp(fn, "pow")) return pow(x, y);
    if (!strcmp(fn, "atan2")) return atan2(x, y);
    if (!strcmp(fn, "hypot")) return hypot(x, y);
    if (!strcmp(fn, "fmod")) return f64 ? fmod(x, y) : fmodf((float)x, (float)y);
    if (!strcmp(fn, "fmin")) return fmin(x, y);
    if (!strcmp(fn, "fmax")) return fmax(x, y);
    if (!strcmp(fn, "copysign")) return copysign(x, y);
    abort();
}

/* got within `ulps` ulps (of the reference at the width) plus an absolute floor */
static int close_to(double got, double ref, int f64, double ulps, double abs_floor) {
    if (isnan(ref)) return isnan(got);
    double r = f64 ? ref : (float)ref;
    if (isinf(r)) return got == r;
    double ulp = f64 ? nextafter(fabs(r), INFINITY) - fabs(r) : nextafterf(fabsf((float)r), INFINITY) - fabsf((float)r);
    return fabs(got - ref) <= ulps * ulp + abs_floor;
}

static void run(const char *fn, int binary, int f64, const double *x, const double *y, double ulps, double abs_floor) {
    Compilation c;
    compilation_init(&c);
    char cx_fn[48];
    snprintf(cx_fn, sizeof cx_fn, "'%s'", fn);
    tc_constexpr cx[3] = {{"FN", cx_fn}, {"BINARY", binary ? "True" : "False"}, {"N", "64"}};
    CompileRequest req = {.opts = tc_compile_options_default(),
                          .pipeline = f64 ? "default,expand-libdevice,expand-f64-math" : "default,expand-libdevice",
                          .stop_after = STAGE_LOADED, .keep_texts = STAGE_BIT(STAGE_TTIR)};
    req.opts.source = SRC;
    req.opts.filename = "expand_libdevice_kernel.py";
    req.opts.kernel = "k";
    req.opts.signature = f64 ? "*fp64,*fp64,*fp64" : "*fp32,*fp32,*fp32";
    req.opts.constexprs = cx;
    req.opts.num_constexprs = 3;
    const char *w = f64 ? "fp64 " : "";
    checks++;
    if (!compile_run(&c, &req) || !c.cpu) {
        StrBuf sb = {0};
        diag_render(&c.de, &sb, false);
        fprintf(stderr, "%s%s: compile failed\n%s\n", w, fn, sb_cstr(&sb));
        sb_free(&sb);
        failures++;
        compilation_free(&c);
        return;
    }
    if (c.text[STAGE_TTIR] && strstr(c.text[STAGE_TTIR], "tt.extern_elementwise")) {
        fprintf(stderr, "%s%s: the call was not expanded\n", w, fn);
        failures++;
    }
    float xf[N], yf[N], outf[N];
    double out[N];
    for (int i = 0; i < N; i++) xf[i] = (float)x[i], yf[i] = (float)y[i], outf[i] = -12345.0f, out[i] = -12345.0;
    const void *px = f64 ? (const void *)x : xf, *py = f64 ? (const void *)y : yf;
    void *po = f64 ? (void *)out : outf;
    void *args[3] = {&px, &py, &po}; /* each points at the argument's value */
    int grid[3] = {1, 1, 1};
    if (!cpu_kernel_launch(c.cpu, grid, args, &c.de)) {
        fprintf(stderr, "%s%s: launch failed\n", w, fn);
        failures++;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double xi = f64 ? x[i] : xf[i], yi = f64 ? y[i] : yf[i], got = f64 ? out[i] : outf[i];
        /* fp64 fmod is exact for quotients below 2^313 (six 52-bit steps), not beyond */
        if (f64 && !strcmp(fn, "fmod") && isfinite(xi) && yi != 0 && fabs(xi / yi) > 0x1p313) continue;
        double r = binary ? ref2(fn, xi, yi, f64) : ref1(fn, xi, f64);
        double tol = ulps;
        checks++;
        if (!close_to(got, r, f64, tol, abs_floor)) {
            failures++;
            if (bad++ < 4) {
                char second[40] = "";
                if (binary) snprintf(second, sizeof second, ", %.17g", yi);
                fprintf(stderr, "%s%s(%.17g%s): got %.17g, want %.17g\n", w, fn, xi, second, got, r);
            }
        }
    }
    compilation_free(&c);
}

/* every function at one width: f64 uses the fp64 names ("isnand") and
 * tolerances in fp64 ulps (absolute floors scaled to fp64 where they bound a
 * formula's cancellation) */
static void run_all(int f64, const double *x, const double *y, const double *unit, const double *big) {
    const char *exact1[] = {"trunc", "rint", "nearbyint", "round", "isnan", "isinf", "finitef", "signbit"};
    const char *exact1_64[] = {"trunc", "rint", "nearbyint", "round", "isnan", "isinf", "isfinited", "signbit"};
    for (int i = 0; i < (int)(sizeof exact1 / sizeof *exact1); i++) run((f64 ? exact1_64 : exact1)[i], 0, f64, x, y, 0, 0);
    const char *exact2[] = {"fmin", "fmax", "copysign"};
    for (int i = 0; i < 3; i++) run(exact2[i], 1, f64, x, y, 0, 0);
    /* a few roundings */
    const char *approx1[] = {"log10", "exp10", "log1p", "expm1", "atan", "sinh", "cosh", "asinh", "cbrt"};
    for (int i = 0; i < (int)(sizeof approx1 / sizeof *approx1); i++) run(approx1[i], 0, f64, x, y, 8, 1e-300);
    /* (fp64 tan = sin / cos: exact reductions of 1e30 and 1e300 too) */
    run("tan", 0, f64, x, y, 8, f64 ? 1e-15 : 1e-6);
    run("asin", 0, f64, unit, y, 8, 1e-300);
    run("acos", 0, f64, unit, y, 8, 1e-300);
    run("atanh", 0, f64, unit, y, 4, 1e-300);
    /* near -1 and 1 (log1p of a quotient near -1 lost ~6 ulps at x near -1
     * before the formula ran on |x|; libdevice's bound is 3) */
    double edge[N];
    for (int i = 0; i < N; i++) edge[i] = (i & 1 ? -1 : 1) * (0.85 + 0.149 * (double)(i / 2) / (N / 2)) * (1 + 1e-9 * i);
    run("atanh", 0, f64, edge, y, 4, 1e-300);
    run("acosh", 0, f64, big, y, 8, 1e-300);
    /* relative in the tail too */
    run("erfc", 0, f64, x, y, f64 ? 4 : 8, 1e-300);
    run("pow", 1, f64, x, y, 4, 1e-300);
    /* pow with results far from 1 (log2 |x| was single-word: its rounding
     * times y, 100 ulps of a result near 2^100): |y log2 x| up to ~1000
     * (fp64) and ~120 (fp32), subnormal bases too */
    double px[N], py[N];
    for (int i = 0; i < N; i++) {
        double u = (double)((i * 37) % 64) / 64.0, v = (double)((i * 11) % 64) / 64.0;
        px[i] = i % 8 == 7 ? (f64 ? 3e-310 : 3e-40) : exp2((u - 0.5) * (f64 ? 40 : 12)) * (1 + v / 3);
        double l2 = fabs(log2(px[i]));
        py[i] = (i & 1 ? -1 : 1) * (0.37 + v) * (f64 ? 1000.0 : 120.0) / (l2 < 1 ? 1 : l2);
        if (i % 16 == 5) py[i] = floor(py[i]) + 1; /* integers (odd and even) */
    }
    run("pow", 1, f64, px, py, 4, 1e-300);
    run("atan2", 1, f64, x, y, 8, 1e-300);
    /* atan2 on the axes and at signed zeros: every pair of these (atan2(-0,
     * -1) was +pi, atan2(+-0, -0) +-0) */
    static const double ax[8] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, 1e-30, -2.5};
    double zx[N], zy[N];
    for (int i = 0; i < N; i++) zx[i] = ax[i % 8], zy[i] = ax[i / 8];
    run("atan2", 1, f64, zx, zy, 8, 1e-300);
    /* sinh, cosh, expm1 up to their own overflow (they were inf from where
     * e^x or (e^x - 1) x overflowed: fp32 sinh(88.5), fp64 cosh(710)) */
    static const double ov[16] = {86.0, 87.9, 88.5, 88.7, 88.9, 89.2, 89.4, 89.5,
                                  709.0, 709.5, 709.75, 709.9, 710.2, 710.45, 710.6, 30.0};
    double ex[N];
    for (int i = 0; i < N; i++) ex[i] = (i & 16 ? -1 : 1) * ov[i % 16] * (i & 32 ? 1.0 : 0.999);
    run("sinh", 0, f64, ex, y, 8, 1e-300);
    run("cosh", 0, f64, ex, y, 8, 1e-300);
    run("expm1", 0, f64, ex, y, 8, 1e-300);
    run("hypot", 1, f64, x, y, 4, 1e-300);
    run("fmod", 1, f64, x, y, 0, 0); /* exact */
}

int main(void) {
    static const float specials[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, 1.0f, -1.0f,
                                     3.0f, -3.0f, 1e-7f, -1e-7f, 1e-30f, 8388609.0f, -8388607.5f, 100.0f,
                                     -100.0f, 1e30f, INFINITY, -INFINITY, NAN, 0.75f, 2.0f, 0.1f};
    static const double specials64[] = {4503599627370497.0, -4503599627370495.5, 0.49999999999999994, 1e-300,
                                        -2.5000000000000004, 1e300};
    enum { NS = sizeof specials / sizeof specials[0], NS64 = sizeof specials64 / sizeof specials64[0] };
    double x[N], y[N], unit[N], big[N];
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        float u = (float)((s >> 8) & 0xffff) / 65536.0f; /* [0, 1) */
        x[i] = i < NS ? specials[i] : (u - 0.5f) * 20.0f;
        s = s * 1103515245u + 12345u;
        float v = (float)((s >> 8) & 0xffff) / 65536.0f;
        y[i] = i < NS ? specials[(i * 7 + 3) % NS] : (v - 0.5f) * 8.0f;
        unit[i] = i < NS ? specials[i] : (u - 0.5f) * 1.98f; /* asin, acos, atanh: inside (-1, 1) */
        big[i] = i < NS ? specials[i] : 1.0f + u * 50.0f;   /* acosh: >= 1 */
    }
    run_all(0, x, y, unit, big);
    /* fp64: the same inputs with fp64 edges in place of the last few */
    for (int i = 0; i < NS64; i++) x[N - 1 - i] = specials64[i];
    for (int i = NS; i < N; i++) x[i] += x[i] * 1e-9, unit[i] *= 1 - 1e-12; /* bits beyond fp32's */
    run_all(1, x, y, unit, big);
    printf("test_expand_libdevice: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
