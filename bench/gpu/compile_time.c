/*
 * compile_time.c - source -> PTX time of one kernel, in process: the Python
 * front end, sema, the default passes, ttg-assign-layouts and the PTX
 * emitter (compile_run up to STAGE_PTX; no ptxas, no GPU), as the C API runs
 * them (no verifier between passes). Repeats and prints the median.
 *
 *   compile_time FILE KERNEL SIGNATURE TARGET NUM_WARPS REPS [NAME=VALUE ...]
 *
 * The C API keeps no IR text on the way to the PTX (it prints the TTGIR for
 * the cache while ptxas runs, and any other text on demand); with
 * COMPILE_TIME_TEXTS=1 in the environment the TTIR and TTGIR texts are
 * printed within the timed compile as well.
 *
 * prints: `median_ms min_ms ptx_lines ptx_bytes first_ms`
 *
 * first_ms is the process's first compile, on cold caches (and, on hosts
 * that clock down when idle, a slow core); then the kernel is compiled
 * again, untimed, for COMPILE_TIME_WARMUP_MS milliseconds (default 100; 0:
 * none, as compile_instr.py wants), and the median and minimum are of the
 * REPS compiles after that: the compiler's speed in a process that has
 * compiled before.
 */
#include "driver/compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 7) {
        fprintf(stderr, "usage: compile_time FILE KERNEL SIGNATURE TARGET NUM_WARPS REPS [NAME=VALUE ...]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) return perror(argv[1]), 2;
    static char src[1 << 20];
    size_t len = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[len] = 0;
    int ncx = argc - 7;
    tc_constexpr *cx = calloc((size_t)ncx + 1, sizeof *cx);
    for (int i = 0; i < ncx; i++) {
        char *kv = strdup(argv[7 + i]), *eq = strchr(kv, '=');
        if (!eq) return fprintf(stderr, "bad constexpr %s\n", kv), 2;
        *eq = 0;
        cx[i].name = kv;
        cx[i].value = eq + 1;
    }
    int reps = atoi(argv[6]);
    if (reps < 1) reps = 1;
    double *t = calloc((size_t)reps, sizeof *t);
    /* COMPILE_TIME_STAGES=1: also each stage's median (its share of the same compiles) */
    const char *st = getenv("COMPILE_TIME_STAGES");
    bool stages = st && *st && strcmp(st, "0");
    double *ts = calloc((size_t)reps * STAGE_COUNT, sizeof *ts);
    size_t lines = 0, bytes = 0;
#ifdef STAGE_BIT /* (this file also builds against trees from before the texts were optional) */
    const char *texts = getenv("COMPILE_TIME_TEXTS");
    unsigned keep = texts && *texts && strcmp(texts, "0") ? STAGE_BIT(STAGE_TTIR) | STAGE_BIT(STAGE_TTGIR) : 0;
#endif
    const char *w = getenv("COMPILE_TIME_WARMUP_MS");
    double warmup_ms = w && *w ? atof(w) : 100.0, first = 0, warm_until = 0;
    for (int r = -1, warming = 1; r < reps;) {
        CompileRequest req = {.opts = tc_compile_options_default(), .stop_after = STAGE_PTX};
#ifdef STAGE_BIT
        req.keep_texts = keep;
#endif
        req.opts.source = src;
        req.opts.source_len = len;
        req.opts.filename = argv[1];
        req.opts.kernel = argv[2];
        req.opts.signature = argv[3];
        req.opts.target = argv[4];
        req.opts.device = TC_DEVICE_CUDA;
        req.opts.num_warps = atoi(argv[5]);
        req.opts.constexprs = cx;
        req.opts.num_constexprs = ncx;
        Compilation c;
        double t0 = now();
        compilation_init(&c);
        bool ok = compile_run(&c, &req);
        if (ok && r < 0) {
            const char *p = c.text[STAGE_PTX];
            bytes = strlen(p);
            for (; *p; p++) lines += *p == '\n';
        }
        if (!ok) {
            StrBuf sb = {0};
            diag_render(&c.de, &sb, false);
            fprintf(stderr, "compile failed\n%s", sb_cstr(&sb));
            return 1;
        }
        double sec[STAGE_COUNT];
        memcpy(sec, c.seconds, sizeof sec);
        compilation_free(&c);
        double t1 = now();
        if (r < 0) { /* the first */
            first = (t1 - t0) * 1e3;
            warm_until = t1 + warmup_ms * 1e-3;
            r = 0;
        } else if (warming && t1 < warm_until) {
            continue;
        } else {
            warming = 0;
            for (int s = 0; s < STAGE_COUNT; s++) ts[(size_t)s * reps + r] = sec[s] * 1e3;
            t[r++] = (t1 - t0) * 1e3;
        }
    }
    qsort(t, (size_t)reps, sizeof *t, cmp);
    printf("%.4f %.4f %zu %zu %.4f\n", t[reps / 2], t[0], lines, bytes, first);
    for (int s = 0; stages && s < STAGE_COUNT; s++) {
        double *v = ts + (size_t)s * reps;
        qsort(v, (size_t)reps, sizeof *v, cmp);
        if (v[reps - 1] > 0) printf("  %-10s %.4f ms\n", stage_names[s], v[reps / 2]);
    }
    return 0;
}
