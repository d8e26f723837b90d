/*
 * demo.c - embeds tritonc in a C program: compiles two Triton kernels from
 * examples/softmax.py, runs them on the CPU, and checks them against plain
 * C loops.
 *
 *   cc -Iinclude examples/demo.c build/libtritonc.a -lm -ldl -lpthread
 *   ./a.out examples/softmax.py
 */
#include "tritonc.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    s[n] = 0;
    fclose(f);
    return s;
}

static tc_kernel *compile(const char *src, const char *file, const char *kernel, const char *sig,
                          const char *block) {
    tc_compile_options o = tc_compile_options_default();
    o.source = src;
    o.filename = file;
    o.kernel = kernel;
    o.signature = sig;
    tc_constexpr cx[] = {{"BLOCK_SIZE", block}};
    o.constexprs = cx;
    o.num_constexprs = 1;
    tc_kernel *k = NULL;
    tc_error *err = NULL;
    double t0 = now();
    if (tc_compile(&o, &k, &err) != 0) {
        fputs(tc_error_message(err), stderr);
        tc_error_free(err);
        return NULL;
    }
    printf("compiled %-15s in %6.1f ms (front end, passes, C, cc or cache)\n", kernel,
           (now() - t0) * 1e3);
    return k;
}

int main(int argc, char **argv) {
    const char *file = argc > 1 ? argv[1] : "examples/softmax.py";
    char *src = slurp(file);
    if (!src) {
        fprintf(stderr, "demo: cannot read %s\n", file);
        return 1;
    }
    int status = 0;
    tc_error *err = NULL;

    /* vector add: out = x + y over n elements, 1024 per program */
    int n = 1000003;
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n),
          *out = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 97) * 0.25f;
        y[i] = (float)(i % 13) - 6.0f;
        out[i] = NAN;
    }
    tc_kernel *add = compile(src, file, "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32", "1024");
    if (!add) return 1;
    void *args[] = {&x, &y, &out, &n};
    int grid[3] = {(n + 1023) / 1024, 1, 1};
    /* the first launch also starts the thread pool and touches fresh pages;
     * time the best of ten after it */
    double dt = 1e30;
    for (int rep = 0; rep < 11; rep++) {
        double t0 = now();
        if (tc_launch(add, grid, args, 4, NULL, &err) != 0) {
            fputs(tc_error_message(err), stderr);
            return 1;
        }
        if (rep > 0 && now() - t0 < dt) dt = now() - t0;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) bad += out[i] != x[i] + y[i];
    printf("add_kernel      n=%d: %s, %.2f GB/s\n", n, bad ? "WRONG" : "correct",
           3.0 * 4 * n / dt / 1e9);
    status |= bad != 0;
    tc_kernel_free(add);

    /* softmax over rows of a 512 x 781 matrix (ragged: BLOCK_SIZE 1024) */
    int rows = 512, cols = 781;
    float *in = malloc(sizeof(float) * (size_t)(rows * cols)), *sm = malloc(sizeof(float) * (size_t)(rows * cols));
    for (int i = 0; i < rows * cols; i++) {
        in[i] = sinf((float)i * 0.37f) * 4.0f;
        sm[i] = NAN;
    }
    tc_kernel *soft = compile(src, file, "softmax_kernel", "*fp32:16,*fp32:16,i32,i32,i32", "1024");
    if (!soft) return 1;
    void *sargs[] = {&sm, &in, &cols, &cols, &cols};
    int sgrid[3] = {rows, 1, 1};
    if (tc_launch(soft, sgrid, sargs, 5, NULL, &err) != 0) {
        fputs(tc_error_message(err), stderr);
        return 1;
    }
    double max_err = 0;
    for (int r = 0; r < rows; r++) {
        double m = -INFINITY, s = 0;
        for (int c = 0; c < cols; c++) m = fmax(m, in[r * cols + c]);
        for (int c = 0; c < cols; c++) s += exp(in[r * cols + c] - m);
        for (int c = 0; c < cols; c++) {
            double ref = exp(in[r * cols + c] - m) / s, got = sm[r * cols + c];
            double e = fabs(got - ref);
            if (!(e <= max_err)) max_err = e; /* NaN propagates */
        }
    }
    bool ok = max_err < 1e-6;
    printf("softmax_kernel  %dx%d: %s (max abs error %.2e)\n", rows, cols, ok ? "correct" : "WRONG",
           max_err);
    status |= !ok;
    tc_kernel_free(soft);
    free(x), free(y), free(out), free(in), free(sm), free(src);
    return status;
}
