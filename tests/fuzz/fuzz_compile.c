/*
 * fuzz_compile.c - libFuzzer target for the whole compile of a kernel.
 *
 * The input is a kernel file in the corpus's format (the files of tests/kernels): the
 * first `# KERNEL:`, `# SIGNATURE:` and `# CONSTEXPR:` header lines say what
 * to compile, the rest is the Python source. Mutations reach the headers and
 * the source alike, so sema, the passes (with the verifier after each one),
 * the C emitter and the PTX emitter all see kernels that are almost right,
 * which is where a compiler crashes. A failed compile is fine; a crash, a
 * sanitizer report, a leak or a hang is a bug. Nothing is compiled by cc or
 * ptxas (STAGE_C and STAGE_PTX stop at the text).
 */
#include "driver/compile.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_CX = 32, MAX_FIELD = 512 };

/* The value of the first line "# NAME: value" of src, copied into out. */
static bool header(const char *src, const char *name, char *out) {
    size_t nl = strlen(name);
    for (const char *p = src; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "# ", 2) || strncmp(p + 2, name, nl) || p[2 + nl] != ':') continue;
        const char *v = p + 3 + nl;
        while (*v == ' ') v++;
        size_t n = strcspn(v, "\n");
        if (n >= MAX_FIELD) n = MAX_FIELD - 1;
        memcpy(out, v, n);
        out[n] = 0;
        return true;
    }
    return false;
}

/* "A=1, B=\"x, y\"" -> name/value pairs, split at commas outside quotes. */
static int split_constexprs(char *s, tc_constexpr *cx) {
    int n = 0;
    while (*s && n < MAX_CX) {
        while (*s == ' ' || *s == ',') s++;
        if (!*s) break;
        char *name = s, *eq = strchr(s, '=');
        if (!eq) break;
        *eq = 0;
        char *v = eq + 1, *e = v;
        char q = 0;
        for (; *e && (q || *e != ','); e++)
            if (*e == '"' || *e == '\'') q = q == *e ? 0 : q ? q : *e;
        bool more = *e == ',';
        *e = 0;
        cx[n].name = name;
        cx[n].value = v;
        n++;
        s = more ? e + 1 : e;
    }
    return n;
}

static void compile_once(const char *src, size_t len, const char *kernel, const char *sig,
                         const tc_constexpr *cx, int ncx, tc_device_kind dev, Stage stop) {
    CompileRequest req = {.opts = tc_compile_options_default(), .stop_after = stop,
                          .verify_each = true};
    req.opts.source = src;
    req.opts.source_len = len;
    req.opts.filename = "fuzz.py";
    req.opts.kernel = kernel;
    req.opts.signature = sig;
    req.opts.constexprs = cx;
    req.opts.num_constexprs = ncx;
    req.opts.device = dev;
    req.opts.target = dev == TC_DEVICE_CUDA ? "cuda:90" : "cpu";
    Compilation c;
    compilation_init(&c);
    bool ok = compile_run(&c, &req);
    StrBuf sb = {0};
    diag_render(&c.de, &sb, false); /* renders every diagnostic: reads the source */
    if (!ok && !diag_has_errors(&c.de)) __builtin_trap(); /* a failure must say why */
    sb_free(&sb);
    compilation_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 64 * 1024) return 0;
    char *src = tc_malloc(size + 1);
    if (size) memcpy(src, data, size);
    src[size] = 0;
    char kernel[MAX_FIELD], sig[MAX_FIELD], cxs[MAX_FIELD] = "";
    if (header(src, "KERNEL", kernel) && header(src, "SIGNATURE", sig)) {
        header(src, "CONSTEXPR", cxs);
        tc_constexpr cx[MAX_CX];
        int ncx = split_constexprs(cxs, cx);
        compile_once(src, size, kernel, sig, cx, ncx, TC_DEVICE_CPU, STAGE_C);
        compile_once(src, size, kernel, sig, cx, ncx, TC_DEVICE_CUDA, STAGE_PTX);
    }
    tc_free(src);
    return 0;
}
