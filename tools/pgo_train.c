/*
 * pgo_train.c - the training run of the profile-guided build (Makefile,
 * PGO=1): compiles every specialisation of the kernel corpus, as the C API
 * does, with the library built to record its profile.
 *
 *   pgo_train DIR      (DIR: tests/kernels)
 *
 * Each `# KERNEL:` header block of the .py files in DIR (tests/kernels/README.md) is
 * compiled to PTX for sm_90 and sm_80 and to C for the CPU: the front end,
 * sema, the passes, layouts and both emitters, each about as often as a JIT
 * running that corpus would run it. No ptxas, no C compiler, no GPU. A block
 * that fails to compile still counts (its error path is code too); the
 * program fails only when it could not read the corpus, so a profile always
 * comes out of a working build.
 */
#include "driver/compile.h"
#include "../tests/kernels/corpus_header.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CX = 64, MAX_BLOCKS = 512 };

static int compile_one(const char *path, const char *src, size_t len, CorpusBlock *b, const char *target,
                       tc_device_kind device, Stage stop) {
    char cxtext[sizeof b->constexprs];
    memcpy(cxtext, b->constexprs, sizeof cxtext);
    tc_constexpr cx[MAX_CX];
    int ncx = corpus_constexprs(cxtext, cx, MAX_CX);
    CompileRequest req = {.opts = tc_compile_options_default(), .stop_after = stop};
    req.opts.source = src;
    req.opts.source_len = len;
    req.opts.filename = path;
    req.opts.kernel = b->kernel;
    req.opts.signature = b->signature;
    req.opts.target = target;
    req.opts.device = device;
    req.opts.constexprs = cx;
    req.opts.num_constexprs = ncx;
    Compilation c;
    compilation_init(&c);
    bool ok = compile_run(&c, &req);
    compilation_free(&c);
    return ok;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: pgo_train DIR\n");
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d) return perror(argv[1]), 1;
    char *names[1024];
    int nnames = 0;
    for (struct dirent *e; (e = readdir(d)) && nnames < 1024;) {
        size_t l = strlen(e->d_name);
        if (l > 3 && !strcmp(e->d_name + l - 3, ".py")) names[nnames++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nnames, sizeof *names, by_name);
    static CorpusBlock blocks[MAX_BLOCKS];
    int total = 0, failed = 0;
    for (int i = 0; i < nnames; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
        size_t len = 0;
        char *src = read_file(path, &len);
        if (!src) return perror(path), 1;
        int nb = corpus_blocks(src, blocks, MAX_BLOCKS);
        for (int j = 0; j < nb; j++) {
            failed += !compile_one(path, src, len, &blocks[j], "cuda:90", TC_DEVICE_CUDA, STAGE_PTX);
            failed += !compile_one(path, src, len, &blocks[j], "cuda:80", TC_DEVICE_CUDA, STAGE_PTX);
            failed += !compile_one(path, src, len, &blocks[j], "cpu", TC_DEVICE_CPU, STAGE_C);
            total += 3;
        }
        tc_free(src);
        free(names[i]);
    }
    printf("pgo_train: %d compiles of %s, %d of them rejected\n", total, argv[1], failed);
    return 0;
}
