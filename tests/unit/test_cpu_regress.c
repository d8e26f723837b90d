/*
 * test_cpu_regress.c - small Triton kernels, compiled from Python source
 * through the C API and run on the CPU, one per bug the kernel suite
 * (test_kernels_cpu.c) found; each failed before its fix.
 */
#include "tritonc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static tc_kernel *compile(const char *src, const char *kernel, const char *sig, const tc_constexpr *cx, int ncx) {
    tc_compile_options o = tc_compile_options_default();
    o.source = src, o.filename = "regress.py", o.kernel = kernel, o.signature = sig;
    o.constexprs = cx, o.num_constexprs = ncx;
    tc_kernel *k = NULL;
    tc_error *err = NULL;
    if (tc_compile(&o, &k, &err) != 0) {
        fprintf(stderr, "%s: %s\n", kernel, tc_error_message(err));
        tc_error_free(err);
        fails++;
    }
    return k;
}
static void run(tc_kernel *k, int g0, void **args, int n) {
    int grid[3] = {g0, 1, 1};
    tc_error *err = NULL;
    if (k && tc_launch(k, grid, args, n, NULL, &err) != 0) {
        fprintf(stderr, "%s\n", tc_error_message(err));
        tc_error_free(err);
        fails++;
    }
}
#define EXPECT(cond, ...) \
    do { if (!(cond)) { fails++; if (fails < 20) fprintf(stderr, __VA_ARGS__), fputc('\n', stderr); } } while (0)

/* 1. A 2-D tile addressed with constant strides (the CPU backend's affine
 * address forms): p + rm[:, None] * 32 + rn[None, :] adds to a pointer that
 * already varies; the row stride was dropped. */
static const char SRC_AFFINE[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def tile_t(x_ptr, t_ptr, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])\n"
    "    tl.store(t_ptr + rn[:, None] * M + rm[None, :], tl.trans(x))\n";
static void test_affine(void) {
    tc_constexpr cx[] = {{"M", "4"}, {"N", "8"}};
    tc_kernel *k = compile(SRC_AFFINE, "tile_t", "*fp32:16,*fp32:16", cx, 2);
    float x[32], t[32];
    for (int i = 0; i < 32; i++) x[i] = (float)i, t[i] = NAN;
    float *xp = x, *tp = t;
    void *args[] = {&xp, &tp};
    run(k, 1, args, 2);
    for (int m = 0; m < 4; m++)
        for (int n = 0; n < 8; n++)
            EXPECT(t[n * 4 + m] == x[m * 8 + n], "affine: t[%d] = %g, expected %g", n * 4 + m, t[n * 4 + m], x[m * 8 + n]);
    tc_kernel_free(k);
}

int main(void) {
    test_affine();
    printf("test_cpu_regress: %s\n", fails ? "FAILED" : "ok");
    return fails != 0;
}
