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
 * pow 16 + 2|y log2 x| (log2's rounding is multiplied by y); tan and erfc
 * (1 - erf) are checked to an absolute bound.
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
    "    tl.store(o_ptr + offs, r.to(tl.float32))\n";

enum { N = 64 };
static int failures, checks;

static double ref1(const char *fn, float x) {
    if (!strcmp(fn, "trunc")) return truncf(x);
    if (!strcmp(fn, "rint") || !strcmp(fn, "nearbyint")) return rintf(x);
    if (!strcmp(fn, "round")) return roundf(x);
    if (!strcmp(fn, "isnan")) return isnan(x) ? 1 : 0;
    if (!strcmp(fn, "isinf")) return isinf(x) ? 1 : 0;
    if (!strcmp(fn, "finitef")) return isfinite(x) ? 1 : 0;
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

static double ref2(const char *fn, float x, float y) {
    if (!strcmp(fn, "pow")) return pow(x, y);
    if (!strcmp(fn, "atan2")) return atan2(x, y);
    if (!strcmp(fn, "hypot")) return hypot(x, y);
    if (!strcmp(fn, "fmod")) return fmodf(x, y);
    if (!strcmp(fn, "fmin")) return fminf(x, y);
    if (!strcmp(fn, "fmax")) return fmaxf(x, y);
    if (!strcmp(fn, "copysign")) return copysignf(x, y);
    abort();
}

/* got within `ulps` ulps (of the fp32 reference) plus an absolute floor */
static int close_to(float got, double ref, double ulps, double abs_floor) {
    if (isnan(ref)) return isnan(got);
    float r = (float)ref;
    if (isinf(r)) return got == r;
    double ulp = nextafterf(fabsf(r), INFINITY) - fabsf(r);
    return fabs((double)got - ref) <= ulps * ulp + abs_floor;
}

static void run(const char *fn, int binary, const float *x, const float *y, double ulps, double abs_floor) {
    Compilation c;
    compilation_init(&c);
    char cx_fn[48];
    snprintf(cx_fn, sizeof cx_fn, "'%s'", fn);
    tc_constexpr cx[3] = {{"FN", cx_fn}, {"BINARY", binary ? "True" : "False"}, {"N", "64"}};
    CompileRequest req = {.opts = tc_compile_options_default(), .pipeline = "default,expand-libdevice",
                          .stop_after = STAGE_LOADED};
    req.opts.source = SRC;
    req.opts.filename = "expand_libdevice_kernel.py";
    req.opts.kernel = "k";
    req.opts.signature = "*fp32,*fp32,*fp32";
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
    if (c.text[STAGE_TTIR] && strstr(c.text[STAGE_TTIR], "tt.extern_elementwise")) {
        fprintf(stderr, "%s: the call was not expanded\n", fn);
        failures++;
    }
    float out[N];
    for (int i = 0; i < N; i++) out[i] = -12345.0f;
    const void *px = x, *py = y;
    void *po = out;
    void *args[3] = {&px, &py, &po}; /* each points at the argument's value */
    int grid[3] = {1, 1, 1};
    if (!cpu_kernel_launch(c.cpu, grid, args, &c.de)) {
        fprintf(stderr, "%s: launch failed\n", fn);
        failures++;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double r = binary ? ref2(fn, x[i], y[i]) : ref1(fn, x[i]);
        double tol = ulps;
        /* pow: 2^(y log2|x|) carries log2's rounding times y */
        if (!strcmp(fn, "pow") && isfinite(x[i]) && x[i] != 0) tol += 2 * fabs(y[i] * log2(fabs(x[i])));
        checks++;
        if (!close_to(out[i], r, tol, abs_floor)) {
            failures++;
            if (bad++ < 4)
                fprintf(stderr, "%s(%.9g%s%.9g): got %.9g, want %.9g\n", fn, x[i], binary ? ", " : "",
                        binary ? y[i] : 0.0, out[i], r);
        }
    }
    compilation_free(&c);
}

int main(void) {
    static const float specials[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, 1.0f, -1.0f,
                                     3.0f, -3.0f, 1e-7f, -1e-7f, 1e-30f, 8388609.0f, -8388607.5f, 100.0f,
                                     -100.0f, 1e30f, INFINITY, -INFINITY, NAN, 0.75f, 2.0f, 0.1f};
    enum { NS = sizeof specials / sizeof specials[0] };
    float x[N], y[N], unit[N], big[N];
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
    /* exact */
    const char *exact1[] = {"trunc", "rint", "nearbyint", "round", "isnan", "isinf", "finitef", "signbit"};
    for (int i = 0; i < (int)(sizeof exact1 / sizeof *exact1); i++) run(exact1[i], 0, x, y, 0, 0);
    const char *exact2[] = {"fmin", "fmax", "copysign"};
    for (int i = 0; i < 3; i++) run(exact2[i], 1, x, y, 0, 0);
    /* a few roundings */
    const char *approx1[] = {"log10", "exp10", "log1p", "expm1", "atan", "sinh", "cosh", "asinh", "cbrt", "tanh"};
    for (int i = 0; i < (int)(sizeof approx1 / sizeof *approx1); i++) run(approx1[i], 0, x, y, 8, 1e-30);
    run("tan", 0, x, y, 8, 1e-6);
    run("asin", 0, unit, y, 8, 1e-30);
    run("acos", 0, unit, y, 8, 1e-30);
    run("atanh", 0, unit, y, 8, 1e-30);
    run("acosh", 0, big, y, 8, 1e-30);
    run("erfc", 0, x, y, 8, 1e-7); /* 1 - erf(x): absolute accuracy only for large x */
    run("pow", 1, x, y, 16, 1e-30);
    run("atan2", 1, x, y, 8, 1e-30);
    run("hypot", 1, x, y, 4, 1e-30);
    run("fmod", 1, x, y, 4, 1e-6);
    printf("test_expand_libdevice: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
