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

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CX = 64 };

typedef struct HeaderBlock {
    char kernel[256], signature[1024], constexprs[2048];
} HeaderBlock;

/* `# KEY: value` into dst (trimmed); false if the line is not that key. */
static bool header_field(const char *line, const char *end, const char *key, char *dst, size_t cap) {
    const char *p = line + 1;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    size_t kl = strlen(key);
    if ((size_t)(end - p) < kl + 1 || memcmp(p, key, kl) || p[kl] != ':') return false;
    p += kl + 1;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *q = end;
    while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r')) q--;
    size_t n = (size_t)(q - p) < cap - 1 ? (size_t)(q - p) : cap - 1;
    memcpy(dst, p, n);
    dst[n] = 0;
    return true;
}

/* The header: the leading run of `#` lines and blank lines. */
static int header_blocks(const char *src, HeaderBlock *out, int cap) {
    int n = 0;
    for (const char *line = src; *line;) {
        const char *end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        const char *p = line;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p < end && *line != '#') break;
        if (*line == '#') {
            char tmp[256];
            if (n < cap && header_field(line, end, "KERNEL", tmp, sizeof tmp)) {
                memset(&out[n], 0, sizeof out[n]);
                strcpy(out[n++].kernel, tmp);
            } else if (n > 0) {
                if (!header_field(line, end, "SIGNATURE", out[n - 1].signature, sizeof out[n - 1].signature))
                    header_field(line, end, "CONSTEXPR", out[n - 1].constexprs, sizeof out[n - 1].constexprs);
            }
        }
        line = *end ? end + 1 : end;
    }
    return n;
}

/* NAME=VALUE pairs, split at commas outside quotes and brackets; the text
 * is cut in place. */
static int split_constexprs(char *s, tc_constexpr *cx) {
    int n = 0, depth = 0;
    char quote = 0, *start = s;
    for (char *p = s;; p++) {
        char ch = *p;
        if (quote) {
            if (ch == quote) quote = 0;
            if (ch) continue;
        }
        if (ch == '"' || ch == '\'') quote = ch;
        else if (ch == '(' || ch == '[' || ch == '{') depth++;
        else if (ch == ')' || ch == ']' || ch == '}') depth--;
        else if ((ch == ',' && depth == 0) || !ch) {
            *p = 0;
            while (*start == ' ') start++;
            char *eq = strchr(start, '=');
            if (eq && n < MAX_CX) {
                char *e = eq;
                while (e > start && e[-1] == ' ') e--;
                *e = 0;
                char *v = eq + 1;
                while (*v == ' ') v++;
                char *ve = v + strlen(v);
                while (ve > v && ve[-1] == ' ') *--ve = 0;
                cx[n].name = start;
                cx[n++].value = v;
            }
            if (!ch) break;
            start = p + 1;
        }
    }
    return n;
}

static int compile_one(const char *path, const char *src, size_t len, HeaderBlock *b, const char *target,
                       tc_device_kind device, Stage stop) {
    char cxtext[sizeof b->constexprs];
    memcpy(cxtext, b->constexprs, sizeof cxtext);
    tc_constexpr cx[MAX_CX];
    int ncx = split_constexprs(cxtext, cx);
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
    static HeaderBlock blocks[512];
    int total = 0, failed = 0;
    for (int i = 0; i < nnames; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
        size_t len = 0;
        char *src = read_file(path, &len);
        if (!src) return perror(path), 1;
        int nb = header_blocks(src, blocks, 512);
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
