/*
 * test_stage_texts.c - the stage texts a compile makes late or on demand
 * are the texts an early stop would have printed.
 *
 * A compile keeps only the texts on the way to the binary, and prints the
 * TTGIR after the PTX (while ptxas runs): so the PTX emitter must leave the
 * IR as it found it. tc_kernel_ir makes the other texts again on demand.
 * For every `# KERNEL:` header block of the .py files in tests/kernels this
 * checks
 *
 *   - the TTGIR printed after the PTX (STAGE_PTX, TTGIR kept) is the TTGIR
 *     of a compile stopped at STAGE_TTGIR, byte for byte;
 *   - the TTIR kept on the way is the TTIR of a compile stopped there;
 *
 * and, through the C API on the CPU, that "ttir", "ttir-raw" and "ast" of
 * a compiled handle (made on demand) match the texts of early stops.
 */
#include "driver/compile.h"
#include "tritonc.h"
#include "../kernels/corpus_header.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures, checks;

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = 0;
    fclose(f);
    return s;
}

static char *stage_text(const char *src, const char *file, const char *kernel, const char *sig,
                        const tc_constexpr *cx, int ncx, Stage stop, unsigned keep, Stage want) {
    CompileRequest req = {.opts = tc_compile_options_default(), .stop_after = stop, .keep_texts = keep};
    req.opts.source = src;
    req.opts.filename = file;
    req.opts.kernel = kernel;
    req.opts.signature = sig;
    req.opts.constexprs = cx;
    req.opts.num_constexprs = ncx;
    req.opts.device = TC_DEVICE_CUDA;
    req.opts.target = "cuda:90";
    Compilation c;
    compilation_init(&c);
    char *text = NULL;
    if (compile_run(&c, &req)) {
        text = c.text[want];
        c.text[want] = NULL;
    }
    compilation_free(&c);
    return text;
}

static void same(const char *what, const char *file, const char *kernel, const char *a, const char *b) {
    checks++;
    if (!a || !b || strcmp(a, b) != 0) {
        failures++;
        fprintf(stderr, "FAIL %s %s: %s differs (%s, %s)\n", file, kernel, what, a ? "made" : "missing",
                b ? "made" : "missing");
    }
}

static void check_block(const char *src, const char *file, const char *kernel, const char *sig, char *cxtext) {
    tc_constexpr cx[32];
    int ncx = corpus_constexprs(cxtext, cx, 32);
    char *ttgir_early = stage_text(src, file, kernel, sig, cx, ncx, STAGE_TTGIR, 0, STAGE_TTGIR);
    char *ttgir_late = stage_text(src, file, kernel, sig, cx, ncx, STAGE_PTX, STAGE_BIT(STAGE_TTGIR), STAGE_TTGIR);
    same("TTGIR printed after the PTX", file, kernel, ttgir_early, ttgir_late);
    char *ttir_early = stage_text(src, file, kernel, sig, cx, ncx, STAGE_TTIR, 0, STAGE_TTIR);
    char *ttir_kept = stage_text(src, file, kernel, sig, cx, ncx, STAGE_PTX, STAGE_BIT(STAGE_TTIR), STAGE_TTIR);
    same("TTIR kept on the way", file, kernel, ttir_early, ttir_kept);
    free(ttgir_early);
    free(ttgir_late);
    free(ttir_early);
    free(ttir_kept);
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static int check_corpus(const char *dir) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, by_name), blocks = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        size_t len = strlen(name);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        char *src = len > 3 && !strcmp(name + len - 3, ".py") ? read_text(path) : NULL;
        static CorpusBlock b[512];
        int nb = src ? corpus_blocks(src, b, 512) : 0;
        for (int j = 0; j < nb; j++, blocks++) check_block(src, path, b[j].kernel, b[j].signature, b[j].constexprs);
        free(src);
        free(names[i]);
    }
    free(names);
    return blocks;
}

static const char ADD[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)\n";

/* The C API on the CPU: texts the compile did not keep, made on demand. */
static void check_on_demand(const char *cache) {
    tc_constexpr cx[] = {{"BLOCK", "64"}};
    tc_compile_options o = tc_compile_options_default();
    o.source = ADD;
    o.filename = "add.py";
    o.kernel = "add";
    o.signature = "*fp32,*fp32,*fp32,i32";
    o.constexprs = cx;
    o.num_constexprs = 1;
    o.cache_dir = cache;
    tc_kernel *k = NULL;
    tc_error *err = NULL;
    checks++;
    if (tc_compile(&o, &k, &err) != 0) {
        failures++;
        fprintf(stderr, "FAIL add: %s\n", tc_error_message(err));
        tc_error_free(err);
        return;
    }
    static const Stage stages[] = {STAGE_TTIR, STAGE_TTIR_RAW, STAGE_AST};
    for (int i = 0; i < 3; i++) {
        CompileRequest req = {.opts = o, .stop_after = stages[i]};
        req.opts.cache_dir = NULL;
        Compilation c;
        compilation_init(&c);
        compile_run(&c, &req);
        same(stage_names[stages[i]], "add.py", "add (tc_kernel_ir)", tc_kernel_ir(k, stage_names[stages[i]]),
             c.text[stages[i]]);
        compilation_free(&c);
    }
    checks++;
    if (tc_kernel_ir(k, "ttgir") || tc_kernel_ir(k, "ptx")) {
        failures++;
        fprintf(stderr, "FAIL add: a CPU kernel has GPU texts\n");
    }
    tc_kernel_free(k);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/kernels";
    int blocks = check_corpus(dir);
    char cache[] = "/tmp/tc-stage-texts-XXXXXX";
    if (mkdtemp(cache)) {
        check_on_demand(cache);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", cache);
    }
    if (blocks < 100) {
        failures++;
        fprintf(stderr, "FAIL: only %d kernel blocks found under %s\n", blocks, dir);
    }
    printf("test_stage_texts: %d kernel blocks, %d checks, %d failed\n", blocks, checks, failures);
    return failures != 0;
}
