/*
 * bench_frontend.c - source -> verified tt IR, per kernel: py_parse +
 * sema_codegen + ir_verify in a fresh Context each iteration, timed over
 * N iterations (the file is read once).
 *
 *   bench_frontend FILE KERNEL SIGNATURE [NAME=VALUE ...] [-nITERS]
 *
 * Prints "KERNEL <ms per iteration>"; exits 1 on a compile error.
 */
#include "front/py/py.h"
#include "sema/sema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: bench_frontend FILE KERNEL SIGNATURE [NAME=VALUE ...] [-nITERS]\n");
        return 2;
    }
    const char *file = argv[1], *kernel = argv[2], *sig = argv[3];
    const char *names[32];
    ConstexprValue vals[32];
    int n = 0, iters = 1000;
    for (int i = 4; i < argc && n < 32; i++) {
        if (!strncmp(argv[i], "-n", 2)) {
            iters = atoi(argv[i] + 2);
            continue;
        }
        char *eq = strchr(argv[i], '=');
        if (!eq || !sema_parse_constexpr(eq + 1, &vals[n])) {
            fprintf(stderr, "bad constexpr %s\n", argv[i]);
            return 2;
        }
        *eq = 0;
        names[n++] = argv[i];
    }
    size_t len;
    char *src = read_file(file, &len);
    if (!src) {
        perror(file);
        return 2;
    }
    KernelSpec spec = {.kernel = kernel, .signature = sig, .constexpr_names = names,
                       .constexpr_values = vals, .nconstexprs = n, .num_warps = 4, .num_stages = 3};
    double t0 = now_seconds();
    for (int it = 0; it < iters; it++) {
        DiagEngine de;
        diag_init(&de);
        Context *ctx = ctx_new(&de);
        PyModule *m = py_parse(ctx->arena, &ctx->strings, &de, file, src, len);
        Op *mod = diag_has_errors(&de) ? NULL : sema_codegen(ctx, &de, m, &spec);
        if (!mod || !ir_verify(mod, &de)) {
            StrBuf e = {0};
            diag_render(&de, &e, false);
            fputs(sb_cstr(&e), stderr);
            return 1;
        }
        ctx_free(ctx);
        diag_free(&de);
    }
    printf("%s %.4f\n", kernel, (now_seconds() - t0) * 1e3 / iters);
    tc_free(src);
    return 0;
}
