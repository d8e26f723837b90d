/*
 * test_gpu_assemble.c - a CUDA compile through the C API on a machine
 * without a GPU: PTX assembled by ptxas as a child process while the TTGIR
 * is printed, the texts of the handle, and ptxas's failures reported.
 *
 *   - with the installed ptxas (skipped when there is none): tc_compile
 *     succeeds; "ttgir" (printed while ptxas ran) and "ptx" are the texts of
 *     compiles stopped at those stages, "ttir" (made on demand) too;
 *   - TRITONC_PTXAS naming a program that prints and fails: the error says
 *     "ptxas failed" with the program's output;
 *   - TRITONC_PTXAS naming a program that exits 0 without writing the
 *     cubin: an error as well, never a kernel without a binary.
 */
#include "driver/compile.h"
#include "tritonc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        checks++;                                                                         \
        if (!(cond)) {                                                                    \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)

static const char SRC[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)\n";

static tc_constexpr CX[] = {{"BLOCK", "256"}};

static tc_compile_options request(const char *cache) {
    tc_compile_options o = tc_compile_options_default();
    o.source = SRC;
    o.filename = "add.py";
    o.kernel = "add";
    o.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
    o.constexprs = CX;
    o.num_constexprs = 1;
    o.device = TC_DEVICE_CUDA;
    o.target = "cuda:90";
    o.cache_dir = cache;
    return o;
}

static char *early_text(Stage s) {
    CompileRequest req = {.opts = request(NULL), .stop_after = s};
    Compilation c;
    compilation_init(&c);
    char *text = compile_run(&c, &req) ? c.text[s] : NULL;
    c.text[s] = NULL;
    compilation_free(&c);
    return text;
}

static bool have_ptxas(void) {
    const char *cands[] = {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"};
    for (int i = 0; i < 2; i++)
        if (access(cands[i], X_OK) == 0) return true;
    return false;
}

static void with_ptxas(const char *cache) {
    tc_compile_options o = request(cache);
    tc_kernel *k = NULL;
    tc_error *err = NULL;
    int rc = tc_compile(&o, &k, &err);
    CHECK(rc == 0, "%s", rc ? tc_error_message(err) : "");
    if (rc) {
        tc_error_free(err);
        return;
    }
    static const Stage stages[] = {STAGE_TTGIR, STAGE_PTX, STAGE_TTIR};
    for (int i = 0; i < 3; i++) {
        char *want = early_text(stages[i]);
        const char *got = tc_kernel_ir(k, stage_names[stages[i]]);
        CHECK(want && got && strcmp(want, got) == 0, "%s of the handle differs from an early stop's",
              stage_names[stages[i]]);
        free(want);
    }
    tc_kernel_free(k);
}

/* A stand-in for ptxas: a shell script with this body. */
static void fake_ptxas(const char *dir, const char *body, char *path, size_t n) {
    snprintf(path, n, "%s/fake-ptxas", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(path, 0755);
}

static void with_failing_ptxas(const char *dir, const char *body, const char *want) {
    char path[256], cache[300];
    fake_ptxas(dir, body, path, sizeof path);
    snprintf(cache, sizeof cache, "%s/cache-%zu", dir, strlen(body)); /* a fresh cache: no hit */
    setenv("TRITONC_PTXAS", path, 1);
    tc_compile_options o = request(cache);
    tc_kernel *k = NULL;
    tc_error *err = NULL;
    int rc = tc_compile(&o, &k, &err);
    CHECK(rc != 0 && !k, "a failing ptxas (%s) gave a kernel", body);
    if (rc) {
        const char *msg = tc_error_message(err);
        CHECK(strstr(msg, "ptxas failed") && strstr(msg, want), "message: %s", msg);
        tc_error_free(err);
    } else {
        tc_kernel_free(k);
    }
    unsetenv("TRITONC_PTXAS");
}

int main(void) {
    char dir[] = "/tmp/tc-gpu-assemble-XXXXXX";
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    char cache[300];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    if (have_ptxas()) with_ptxas(cache);
    else fprintf(stderr, "no ptxas installed: the assembling case is skipped\n");
    with_failing_ptxas(dir, "echo 'ptxas fatal: boom' >&2; exit 1", "boom");
    with_failing_ptxas(dir, "exit 0", "");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("test_gpu_assemble: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
