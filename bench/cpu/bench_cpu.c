/*
 * bench_cpu.c - the CPU backend against straightforward C loops (compiled
 * into this program with the same -O3 -march=native) on the same data:
 *
 *   add        z = x + y, 2^24 fp32, BLOCK 1024 per program
 *   softmax    4096 x 1024 fp32 rows, one row per program
 *   layernorm  4096 x 1024 fp16 rows (fp32 statistics), one row per program
 *
 * The kernels are built as Triton's TTIR has them (pid * BLOCK + arange
 * offsets, masks against n, tt.reduce with an addf/maximumf combiner).
 * Reports GB/s (bytes read + written once, the minimum traffic) for the
 * best of R runs, and the time to compile a 200-op element-wise kernel.
 * Run through bench/cpu/run.sh.
 */
#include "cpu_test_util.h"

#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static Value *splat_ptr(TB *t, Value *p, Value *like) {
    return tb_splat(t, p, ty_with_elem(t->c, like->type, p->type));
}

static void build_add(TB *t) {
    enum { B = 1024 };
    Type *pf = T_ptr(t, T_f32(t)), *i32 = T_i32(t);
    Type *params[] = {pf, pf, pf, i32};
    tb_func(t, "add_kernel", params, 4);
    Type *ti = T_ten1(t, B, i32);
    Value *offs = tb_bin(t, ARITH_ADDI, tb_splat(t, tb_bin(t, ARITH_MULI, tb_pid(t, 0), tb_ci(t, i32, B)), ti), tb_range(t, 0, B));
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, offs, tb_splat(t, tb_arg(t, 3), ti));
    Value *x = tb_load(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 0), offs), offs), mask, NULL);
    Value *y = tb_load(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 1), offs), offs), mask, NULL);
    tb_store(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 2), offs), offs), tb_bin(t, ARITH_ADDF, x, y), mask);
    tb_return(t);
}

static void build_softmax(TB *t) {
    enum { B = 1024 };
    Type *pf = T_ptr(t, T_f32(t)), *f32 = T_f32(t), *i32 = T_i32(t);
    Type *params[] = {pf, pf, i32, i32};
    tb_func(t, "softmax_kernel", params, 4);
    Type *tf = T_ten1(t, B, f32), *ti = T_ten1(t, B, i32);
    Value *rowoff = tb_bin(t, ARITH_MULI, tb_pid(t, 0), tb_arg(t, 2));
    Value *cols = tb_range(t, 0, B);
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, cols, tb_splat(t, tb_arg(t, 3), ti));
    Value *in = tb_addptr(t, tb_arg(t, 0), rowoff);
    Value *x = tb_load(t, tb_addptr(t, splat_ptr(t, in, cols), cols), mask, tb_cf(t, tf, -INFINITY));
    Value *m = tb_reduce(t, TT_REDUCE, x, 0, ARITH_MAXIMUMF);
    Value *num = tb_un(t, MATH_EXP, tb_bin(t, ARITH_SUBF, x, tb_splat(t, m, tf)), tf);
    Value *den = tb_reduce(t, TT_REDUCE, num, 0, ARITH_ADDF);
    Value *out = tb_bin(t, ARITH_DIVF, num, tb_splat(t, den, tf));
    Value *o = tb_addptr(t, tb_arg(t, 1), rowoff);
    tb_store(t, tb_addptr(t, splat_ptr(t, o, cols), cols), out, mask);
    tb_return(t);
}

/* y = (x - mean) * rstd * w + b, fp16 in/out, fp32 math (Triton's tutorial). */
static void build_layernorm(TB *t) {
    enum { B = 1024 };
    Type *f16 = T_f16(t), *f32 = T_f32(t), *i32 = T_i32(t);
    Type *ph = T_ptr(t, f16);
    Type *params[] = {ph, ph, ph, ph, i32, i32, f32};
    tb_func(t, "layernorm_kernel", params, 7);
    Type *tf = T_ten1(t, B, f32), *ti = T_ten1(t, B, i32);
    Value *rowoff = tb_bin(t, ARITH_MULI, tb_pid(t, 0), tb_arg(t, 4));
    Value *cols = tb_range(t, 0, B);
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, cols, tb_splat(t, tb_arg(t, 5), ti));
    Value *in = tb_addptr(t, tb_arg(t, 0), rowoff);
    Value *x = tb_cast(t, ARITH_EXTF, tb_load(t, tb_addptr(t, splat_ptr(t, in, cols), cols), mask,
                                              tb_cf(t, T_ten1(t, B, f16), 0)), f32);
    Value *nf = tb_cast(t, ARITH_SITOFP, tb_arg(t, 5), f32);
    Value *mean = tb_bin(t, ARITH_DIVF, tb_reduce(t, TT_REDUCE, x, 0, ARITH_ADDF), nf);
    Value *xc = tb_select(t, mask, tb_bin(t, ARITH_SUBF, x, tb_splat(t, mean, tf)), tb_cf(t, tf, 0));
    Value *var = tb_bin(t, ARITH_DIVF, tb_reduce(t, TT_REDUCE, tb_bin(t, ARITH_MULF, xc, xc), 0, ARITH_ADDF), nf);
    Value *rstd = tb_un(t, MATH_RSQRT, tb_bin(t, ARITH_ADDF, var, tb_arg(t, 6)), f32);
    Value *w = tb_cast(t, ARITH_EXTF, tb_load(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 2), cols), cols), mask, NULL), f32);
    Value *b = tb_cast(t, ARITH_EXTF, tb_load(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 3), cols), cols), mask, NULL), f32);
    Value *y = tb_bin(t, ARITH_ADDF, tb_bin(t, ARITH_MULF, tb_bin(t, ARITH_MULF, xc, tb_splat(t, rstd, tf)), w), b);
    Value *o = tb_addptr(t, tb_arg(t, 1), rowoff);
    tb_store(t, tb_addptr(t, splat_ptr(t, o, cols), cols), tb_cast(t, ARITH_TRUNCF, y, f16), mask);
    tb_return(t);
}

/* A chain of 200 element-wise ops, for compile time. */
static void build_chain(TB *t) {
    enum { B = 1024 };
    Type *pf = T_ptr(t, T_f32(t));
    Type *params[] = {pf, pf};
    tb_func(t, "chain_kernel", params, 2);
    Value *r = tb_range(t, 0, B);
    Value *x = tb_load(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 0), r), r), NULL, NULL);
    static const OpKind ks[] = {ARITH_ADDF, ARITH_MULF, ARITH_SUBF, ARITH_MAXNUMF};
    for (int i = 0; i < 98; i++) { /* 98 constants + 98 ops + the rest: ~200 ops */
        Value *c = tb_cf(t, x->type, 1.0 + i * 0.001);
        x = tb_bin(t, ks[i % 4], x, c);
    }
    tb_store(t, tb_addptr(t, splat_ptr(t, tb_arg(t, 1), r), r), x, NULL);
    tb_return(t);
}

/* ---- plain C references ----------------------------------------------------- */

static void c_add(const float *x, const float *y, float *z, int n) {
    for (int i = 0; i < n; i++) z[i] = x[i] + y[i];
}
static void c_softmax(const float *in, float *out, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        const float *x = in + (size_t)r * cols;
        float *o = out + (size_t)r * cols;
        float m = -INFINITY, s = 0;
        for (int i = 0; i < cols; i++) m = x[i] > m ? x[i] : m;
        for (int i = 0; i < cols; i++) o[i] = expf(x[i] - m), s += o[i];
        for (int i = 0; i < cols; i++) o[i] /= s;
    }
}
static void c_layernorm(const _Float16 *in, _Float16 *out, const _Float16 *w, const _Float16 *b, int rows, int cols,
                        float eps) {
    for (int r = 0; r < rows; r++) {
        const _Float16 *x = in + (size_t)r * cols;
        _Float16 *o = out + (size_t)r * cols;
        float s = 0, v = 0;
        for (int i = 0; i < cols; i++) s += (float)x[i];
        float mean = s / cols;
        for (int i = 0; i < cols; i++) v += ((float)x[i] - mean) * ((float)x[i] - mean);
        float rstd = 1.0f / sqrtf(v / cols + eps);
        for (int i = 0; i < cols; i++) o[i] = (_Float16)(((float)x[i] - mean) * rstd * (float)w[i] + (float)b[i]);
    }
}

typedef struct Res {
    double kernel_gbs, c_gbs;
} Res;

#define REPS 7

int main(void) {
    TB t;
    int nthreads = cpu_pool_num_threads();
    printf("threads: %d\n", nthreads);
    /* ---- add ---- */
    {
        int n = 1 << 24;
        float *x = malloc(4ul * n), *y = malloc(4ul * n), *z = malloc(4ul * n), *zr = malloc(4ul * n);
        for (int i = 0; i < n; i++) x[i] = t_randf(), y[i] = t_randf(), z[i] = zr[i] = 0;
        tb_init(&t);
        build_add(&t);
        CpuKernel *k = t_build(&t, "add_kernel");
        if (!k) return 1;
        void *a0 = x, *a1 = y, *a2 = z;
        int32_t nn = n;
        void *args[] = {&a0, &a1, &a2, &nn};
        double best = 1e9, bestc = 1e9;
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            t_launch(&t, k, n / 1024, 1, 1, args);
            double t1 = now();
            c_add(x, y, zr, n);
            double t2 = now();
            best = fmin(best, t1 - t0), bestc = fmin(bestc, t2 - t1);
        }
        int bad = memcmp(z, zr, 4ul * n) != 0;
        double bytes = 12.0 * n;
        printf("add        %8.2f GB/s  (C loop %8.2f GB/s)  ratio %.2f%s\n", bytes / best / 1e9, bytes / bestc / 1e9,
               bestc / best, bad ? "  MISMATCH" : "");
        cpu_kernel_free(k);
        tb_free(&t);
        free(x), free(y), free(z), free(zr);
    }
    /* ---- softmax ---- */
    {
        int rows = 4096, cols = 1024;
        size_t n = (size_t)rows * cols;
        float *x = malloc(4 * n), *o = malloc(4 * n), *orf = malloc(4 * n);
        for (size_t i = 0; i < n; i++) x[i] = t_randf() * 4, o[i] = orf[i] = 0;
        tb_init(&t);
        build_softmax(&t);
        CpuKernel *k = t_build(&t, "softmax_kernel");
        if (!k) return 1;
        void *a0 = x, *a1 = o;
        int32_t st = cols, nc = cols;
        void *args[] = {&a0, &a1, &st, &nc};
        double best = 1e9, bestc = 1e9;
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            t_launch(&t, k, rows, 1, 1, args);
            double t1 = now();
            c_softmax(x, orf, rows, cols);
            double t2 = now();
            best = fmin(best, t1 - t0), bestc = fmin(bestc, t2 - t1);
        }
        double maxerr = 0;
        for (size_t i = 0; i < n; i++) maxerr = fmax(maxerr, fabs(o[i] - orf[i]) / (1e-6 + fabs(orf[i])));
        double bytes = 8.0 * n;
        printf("softmax    %8.2f GB/s  (C loop %8.2f GB/s)  ratio %.2f  max rel diff %.1e\n", bytes / best / 1e9,
               bytes / bestc / 1e9, bestc / best, maxerr);
        cpu_kernel_free(k);
        tb_free(&t);
        free(x), free(o), free(orf);
    }
    /* ---- layer norm ---- */
    {
        int rows = 4096, cols = 1024;
        size_t n = (size_t)rows * cols;
        _Float16 *x = malloc(2 * n), *o = malloc(2 * n), *orf = malloc(2 * n), *w = malloc(2 * cols), *b = malloc(2 * cols);
        for (size_t i = 0; i < n; i++) x[i] = (_Float16)(t_randf() * 3), o[i] = orf[i] = 0;
        for (int i = 0; i < cols; i++) w[i] = (_Float16)(1 + t_randf() * 0.1f), b[i] = (_Float16)(t_randf() * 0.1f);
        tb_init(&t);
        build_layernorm(&t);
        CpuKernel *k = t_build(&t, "layernorm_kernel");
        if (!k) return 1;
        void *a0 = x, *a1 = o, *a2 = w, *a3 = b;
        int32_t st = cols, nc = cols;
        float eps = 1e-5f;
        void *args[] = {&a0, &a1, &a2, &a3, &st, &nc, &eps};
        double best = 1e9, bestc = 1e9;
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            t_launch(&t, k, rows, 1, 1, args);
            double t1 = now();
            c_layernorm(x, orf, w, b, rows, cols, eps);
            double t2 = now();
            best = fmin(best, t1 - t0), bestc = fmin(bestc, t2 - t1);
        }
        double maxerr = 0;
        for (size_t i = 0; i < n; i++) maxerr = fmax(maxerr, fabs((double)o[i] - (double)orf[i]));
        double bytes = 4.0 * n;
        printf("layernorm  %8.2f GB/s  (C loop %8.2f GB/s)  ratio %.2f  max abs diff %.1e\n", bytes / best / 1e9,
               bytes / bestc / 1e9, bestc / best, maxerr);
        cpu_kernel_free(k);
        tb_free(&t);
        free(x), free(o), free(orf), free(w), free(b);
    }
    /* ---- compile time ---- */
    {
        tb_init(&t);
        build_chain(&t);
        CpuBuildOptions opts = {0};
        opts.no_cache = true;
        CpuStats s0 = cpu_stats();
        double t0 = now();
        CpuKernel *k = cpu_kernel_build(t.module, "chain_kernel", &opts, &t.de);
        double t1 = now();
        CpuStats s1 = cpu_stats();
        printf("compile    200-op kernel: %.3f s total, %.3f s in cc%s\n", t1 - t0, s1.compile_seconds - s0.compile_seconds,
               k ? "" : "  FAILED");
        cpu_kernel_free(k);
        tb_free(&t);
    }
    return 0;
}
