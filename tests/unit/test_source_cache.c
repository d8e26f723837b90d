/*
 * test_source_cache.c - tc_compile's source-keyed cache (driver/source_cache.c):
 *   - a second compile of the same request is served from the cache
 *     (tc_kernel_from_cache, the hit counter), launches correctly, and
 *     reads the stage texts stored in the entry (equal to the compiled ones);
 *   - a different constexpr, signature or source text is a miss;
 *   - a damaged entry (the metadata truncated; the binary's bytes changed;
 *     the stage texts truncated) is never used: the kernel is compiled
 *     again, the entry rewritten, and the next compile hits;
 *   - the same for a CUDA kernel (target cuda:90) when ptxas is installed:
 *     the cubin lives in the metadata file, and its hash is checked.
 */
#define _XOPEN_SOURCE 700
#include "tritonc.h"

#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char SRC[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)\n";

static int fails;
static char dir[256];

#define CHECK(cond, ...)                                     \
    do {                                                     \
        if (!(cond)) {                                       \
            fprintf(stderr, "FAIL line %d: ", __LINE__);     \
            fprintf(stderr, __VA_ARGS__);                    \
            fputc('\n', stderr);                             \
            fails++;                                         \
        }                                                    \
    } while (0)

static tc_kernel *compile(const char *src, const char *block, const char *sig, tc_device_kind dev) {
    tc_compile_options o = tc_compile_options_default();
    o.source = src, o.filename = "add.py", o.kernel = "add", o.signature = sig;
    tc_constexpr cx[] = {{"BLOCK", block}};
    o.constexprs = cx, o.num_constexprs = 1;
    o.cache_dir = dir;
    o.device = dev;
    if (dev == TC_DEVICE_CUDA) o.target = "cuda:90";
    tc_kernel *k;
    tc_error *err;
    if (tc_compile(&o, &k, &err) != 0) {
        fprintf(stderr, "compile failed: %s\n", tc_error_message(err));
        tc_error_free(err);
        fails++;
        return NULL;
    }
    return k;
}

static long hits(void) {
    long h;
    tc_cache_counts(&h, NULL);
    return h;
}

static bool adds(tc_kernel *k) {
    float x[100], y[100], out[100];
    for (int i = 0; i < 100; i++) x[i] = (float)i, y[i] = 0.5f * (float)i, out[i] = -1;
    float *xp = x, *yp = y, *op = out;
    int n = 100, grid[3] = {(100 + 63) / 64, 1, 1};
    void *args[] = {&xp, &yp, &op, &n};
    tc_error *err;
    if (tc_launch(k, grid, args, 4, NULL, &err) != 0) {
        fprintf(stderr, "launch: %s\n", tc_error_message(err));
        tc_error_free(err);
        return false;
    }
    for (int i = 0; i < 100; i++)
        if (out[i] != 1.5f * (float)i) return false;
    return true;
}

/* The path of the one entry file with extension `ext` in <dir>/src. */
static bool entry_file(const char *ext, char *out, size_t cap) {
    char sub[300];
    snprintf(sub, sizeof sub, "%s/src", dir);
    DIR *d = opendir(sub);
    if (!d) return false;
    struct dirent *e;
    bool found = false;
    while ((e = readdir(d))) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot && strcmp(dot + 1, ext) == 0 && !strstr(e->d_name, ".tmp")) {
            snprintf(out, cap, "%s/%s", sub, e->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}

static void truncate_file(const char *path, long keep) {
    FILE *f = fopen(path, "rb");
    char buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    f = fopen(path, "wb");
    if (f) fwrite(buf, 1, keep >= 0 ? (size_t)keep : n + (size_t)keep, f), fclose(f);
}

static void flip_byte(const char *path, long from_end) {
    FILE *f = fopen(path, "r+b");
    if (!f) return;
    fseek(f, -from_end, SEEK_END);
    int c = fgetc(f);
    fseek(f, -from_end, SEEK_END);
    fputc(c ^ 0x5a, f);
    fclose(f);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static void run(tc_device_kind dev, const char *what) {
    const char *sig = "*fp32:16,*fp32:16,*fp32:16,i32";
    const char *stage = dev == TC_DEVICE_CUDA ? "ptx" : "c";
    /* 1. miss, then hit */
    long h0 = hits();
    tc_kernel *a = compile(SRC, "64", sig, dev);
    if (!a) return;
    CHECK(!tc_kernel_from_cache(a), "%s: first compile from the cache", what);
    tc_kernel *b = compile(SRC, "64", sig, dev);
    if (!b) return;
    CHECK(tc_kernel_from_cache(b) && hits() == h0 + 1, "%s: second compile not a hit", what);
    CHECK(tc_kernel_num_params(b) == 4 && strcmp(tc_kernel_param_type(b, 0), "*fp32") == 0 &&
              strcmp(tc_kernel_param_type(b, 3), "i32") == 0,
          "%s: parameters of the hit", what);
    const char *ta = tc_kernel_ir(a, "ttir"), *tb = tc_kernel_ir(b, "ttir");
    CHECK(ta && tb && strcmp(ta, tb) == 0, "%s: ttir of the hit differs", what);
    const char *sa = tc_kernel_ir(a, stage), *sb = tc_kernel_ir(b, stage);
    CHECK(sa && sb && strcmp(sa, sb) == 0, "%s: %s of the hit differs", what, stage);
    if (dev == TC_DEVICE_CPU) CHECK(adds(a) && adds(b), "%s: results", what);
    /* the binary: a cubin (an ELF file) for CUDA, the same from the hit; none on the CPU */
    size_t na = 1, nb = 1;
    const unsigned char *ba = tc_kernel_binary(a, &na), *bb = tc_kernel_binary(b, &nb);
    if (dev == TC_DEVICE_CUDA)
        CHECK(ba && bb && na > 64 && na == nb && memcmp(ba, "\x7f" "ELF", 4) == 0 && memcmp(ba, bb, na) == 0,
              "%s: the cubin of the compile and of the hit", what);
    else
        CHECK(!ba && !bb && na == 0 && nb == 0, "%s: a CPU kernel has no binary", what);
    tc_kernel_free(a);
    tc_kernel_free(b);
    /* 2. what is in the key */
    tc_kernel *c = compile(SRC, "128", sig, dev);
    CHECK(c && !tc_kernel_from_cache(c), "%s: another constexpr hit", what);
    tc_kernel_free(c);
    c = compile(SRC, "64", "*fp32:16,*fp32:16,*fp32:16,i32:16", dev);
    CHECK(c && !tc_kernel_from_cache(c), "%s: another signature hit", what);
    tc_kernel_free(c);
    char src2[sizeof SRC + 8];
    snprintf(src2, sizeof src2, "%s\n# x\n", SRC);
    c = compile(src2, "64", sig, dev);
    CHECK(c && !tc_kernel_from_cache(c), "%s: another source text hit", what);
    tc_kernel_free(c);
    if (dev == TC_DEVICE_CUDA) { /* the code generator's switches, set in the environment */
        static const char *const knobs[] = {"TRITONC_WGMMA_LATE", "TRITONC_MMA_SWIZZLE", "TRITONC_CVT_SWIZZLE"};
        for (int k = 0; k < 3; k++) {
            setenv(knobs[k], "0", 1);
            c = compile(SRC, "64", sig, dev);
            CHECK(c && !tc_kernel_from_cache(c), "%s: a kernel of another %s hit", what, knobs[k]);
            tc_kernel_free(c);
            unsetenv(knobs[k]);
            c = compile(SRC, "64", sig, dev);
            CHECK(c && tc_kernel_from_cache(c), "%s: the switch %s unset again missed", what, knobs[k]);
            tc_kernel_free(c);
        }
    }
    /* 3. damaged entries: remove every entry but the first request's */
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    c = compile(SRC, "64", sig, dev);
    tc_kernel_free(c);
    char meta[600], bin[600], ir[600];
    CHECK(entry_file("meta", meta, sizeof meta) && entry_file("ir", ir, sizeof ir), "%s: no entry files", what);
    bool has_so = entry_file("so", bin, sizeof bin);
    CHECK(has_so == (dev == TC_DEVICE_CPU), "%s: a .so file iff CPU", what);
    for (int round = 0; round < 3; round++) {
        if (round == 0) truncate_file(meta, -7); /* the cubin's tail, or the metadata's */
        if (round == 1) flip_byte(has_so ? bin : meta, 100);
        if (round == 2) truncate_file(ir, 40);
        c = compile(SRC, "64", sig, dev);
        if (!c) return;
        if (round < 2) {
            CHECK(!tc_kernel_from_cache(c), "%s: damaged entry %d was used", what, round);
        } else {
            /* damaged texts: the binary is fine and used; the texts are not trusted */
            CHECK(tc_kernel_from_cache(c), "%s: hit expected with damaged texts", what);
            const char *t = tc_kernel_ir(c, "ttir");
            CHECK(!t || strstr(t, "tt.func"), "%s: damaged text returned", what);
        }
        if (dev == TC_DEVICE_CPU) CHECK(adds(c), "%s: results after damage %d", what, round);
        tc_kernel_free(c);
        if (round < 2) {
            c = compile(SRC, "64", sig, dev);
            CHECK(c && tc_kernel_from_cache(c), "%s: the entry was not rewritten after damage %d", what, round);
            tc_kernel_free(c);
        }
    }
}

int main(void) {
    snprintf(dir, sizeof dir, "%s/tc-srccache-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    run(TC_DEVICE_CPU, "cpu");
    const char *ptxas = getenv("TRITONC_PTXAS");
    if ((ptxas && access(ptxas, X_OK) == 0) || access("/usr/local/cuda/bin/ptxas", X_OK) == 0 ||
        access("/usr/bin/ptxas", X_OK) == 0) {
        nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
        run(TC_DEVICE_CUDA, "cuda");
    } else {
        printf("test_source_cache: no ptxas, CUDA part skipped\n");
    }
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    printf("test_source_cache: %s\n", fails ? "FAILED" : "ok");
    return fails != 0;
}
