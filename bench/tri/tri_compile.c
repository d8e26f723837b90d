/*
 * tri_compile.c - throughput and memory of the whole .tri pipeline.
 *
 *   build/bench/tri_compile [SECONDS] [REPEATS]
 *
 * Reads the example programs (the four in tests/tri) once, then compiles them
 * round-robin, in-process, with no file I/O per program: tri_compile with
 * --emit torch, i.e. parse -> check -> nn IR -> the default passes ->
 * PyTorch source -> py_parse validation of that source. Each thread
 * compiles for SECONDS (default 2), with 1 and then 2 threads, REPEATS
 * times each (default 5; the dev VM is noisy, so min, median and max are
 * shown). Prints, per program, the time of one compilation and the memory
 * it reserved (AST and IR arenas plus the output), then programs/s and the
 * process's peak RSS. Run from the repository root:
 *
 *   make build/libtritonc.a && cc -O2 -std=c11 -D_GNU_SOURCE -Isrc \
 *       bench/tri/tri_compile.c build/libtritonc.a -lm -lpthread -o build/bench/tri_compile
 */
#include "target/torch/torch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const files[] = {"tests/tri/mlp.tri", "tests/tri/convnet.tri", "tests/tri/quant.tri",
                                    "tests/tri/transformer.tri"};
enum { NFILES = 4 };
static char *srcs[NFILES];
static size_t lens[NFILES];

typedef struct Job {
    double seconds;
    long done;
    bool ok;
} Job;

static bool compile_one(int i, size_t *mem) {
    DiagEngine de;
    diag_init(&de);
    TriCompileResult r;
    bool ok = tri_compile(files[i], srcs[i], lens[i], "torch", &r, &de);
    if (mem) *mem = r.memory_bytes;
    tri_compile_result_free(&r);
    diag_free(&de);
    return ok;
}

static void *worker(void *arg) {
    Job *j = arg;
    j->ok = true;
    double t0 = now_seconds();
    long n = 0;
    while (now_seconds() - t0 < j->seconds) {
        for (int k = 0; k < 64; k++) j->ok &= compile_one((int)(n++ % NFILES), NULL);
    }
    j->done = n;
    return NULL;
}

static double run(int threads, double seconds) {
    pthread_t tid[16];
    Job jobs[16];
    double t0 = now_seconds();
    for (int t = 0; t < threads; t++) {
        jobs[t] = (Job){seconds, 0, true};
        pthread_create(&tid[t], NULL, worker, &jobs[t]);
    }
    long total = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        total += jobs[t].done;
        if (!jobs[t].ok) fprintf(stderr, "a compilation failed\n");
    }
    return (double)total / (now_seconds() - t0);
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    if (repeats < 1 || repeats > 32) repeats = 5;
    for (int i = 0; i < NFILES; i++) {
        srcs[i] = read_file(files[i], &lens[i]);
        if (!srcs[i]) {
            fprintf(stderr, "cannot read %s (run from the repository root)\n", files[i]);
            return 1;
        }
    }
    printf("| program | lines | us per compilation | memory per compilation (KiB) | output (bytes) |\n");
    printf("| --- | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < NFILES; i++) {
        size_t mem = 0;
        int lines = 0;
        for (size_t k = 0; k < lens[i]; k++) lines += srcs[i][k] == '\n';
        int reps = 2000;
        double t0 = now_seconds();
        for (int k = 0; k < reps; k++)
            if (!compile_one(i, &mem)) return 1;
        double us = (now_seconds() - t0) / reps * 1e6;
        DiagEngine de;
        diag_init(&de);
        TriCompileResult r;
        tri_compile(files[i], srcs[i], lens[i], "torch", &r, &de);
        printf("| %s | %d | %.1f | %.1f | %zu |\n", files[i], lines, us, (double)mem / 1024.0, strlen(r.code));
        tri_compile_result_free(&r);
        diag_free(&de);
    }
    printf("\n| threads | programs/s (min) | median | max |\n| ---: | ---: | ---: | ---: |\n");
    for (int t = 1; t <= 2; t++) {
        double r[32];
        for (int k = 0; k < repeats; k++) r[k] = run(t, seconds);
        for (int a = 0; a < repeats; a++) /* insertion sort */
            for (int b = a; b > 0 && r[b] < r[b - 1]; b--) {
                double x = r[b];
                r[b] = r[b - 1];
                r[b - 1] = x;
            }
        printf("| %d | %.0f | %.0f | %.0f |\n", t, r[0], r[repeats / 2], r[repeats - 1]);
    }
    printf("\npeak RSS: %.1f MiB\n", (double)peak_rss_bytes() / (1024.0 * 1024.0));
    return 0;
}
