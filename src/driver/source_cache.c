/*
 * source_cache.c - tc_compile's cache keyed by the request, not by the IR.
 *
 * The backends' own disk caches (gpu_kernel.c, cpu_runtime.c) are keyed by
 * what the pipeline produced (PTX, C), so finding an entry there needs the
 * whole front end and the passes first: milliseconds on every new process.
 * This cache sits in front of the pipeline. Its key is a 128-bit hash of
 *
 *   - the library's identity: the version string, TC_BUILD_ID (a hash of
 *     every file under src/ and include/, passed by the Makefile; "dev" when
 *     built without it) and the sizes of the basic types;
 *   - the request: source text, kernel name, signature, every constexpr
 *     (name and value, in order), device, num_warps, num_stages, debug;
 *   - the target: for CUDA the sm the build would use (the current device's
 *     when none is named, see gpu_resolve_sm); for the CPU the host's model
 *     and feature flags (-march=native) and the C compiler's identity ($CC,
 *     and the size, mtime and inode of the program: nothing is run).
 *
 * The file name is not part of the key (it only names diagnostics, and a
 * hit has none). Rebuilding the library from changed sources changes
 * TC_BUILD_ID and so invalidates every entry; so does a new compiler or CPU.
 * An environment variable read by a backend at build time (TRITONC_PTXAS) is
 * not part of the key: point TRITONC_CACHE_DIR elsewhere when changing it.
 *
 * An entry is up to three files in <cache>/src/:
 *
 *   <key>.ir    the stage texts (ttir, ttgir + ptx, or c), read only when
 *               tc_kernel_ir asks for them
 *   <key>.so    CPU: the kernel's shared object (dlopen needs a file)
 *   <key>.meta  written last, so its presence means the others are there:
 *
 *     tritonc-source-cache 1
 *     device cuda                      (or cpu)
 *     name add_kernel                  (the symbol to load)
 *     num_warps 4
 *     shared 0
 *     sm 90
 *     nparams 4
 *     p 0 *fp32                        (one per runtime parameter: skip, type)
 *     ...
 *     binary 5232 1f0c...              (size and hash of the cubin or .so)
 *     <the cubin's bytes, CUDA only>
 *
 * Every file is written to a unique temporary name and renamed into place,
 * so a reader sees a whole file or none. A hit checks the binary's size and
 * hash before loading it; any mismatch, or a parse or load failure, removes
 * the entry and reports a miss, and tc_compile compiles and stores anew.
 */
#include "driver/source_cache.h"

#include "target/cpu/cpu.h"
#include "target/ptx/gpu.h"
#include "transform/gpu/gpu_passes.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TC_BUILD_ID
#define TC_BUILD_ID "dev"
#endif

#define SRCCACHE_MAGIC "tritonc-source-cache 1\n"
#define SRCCACHE_IR_MAGIC "tritonc-source-cache-ir 1\n"

static long n_hits, n_stores;

void srccache_counts(long *hits, long *stores) {
    if (hits) *hits = __atomic_load_n(&n_hits, __ATOMIC_RELAXED);
    if (stores) *stores = __atomic_load_n(&n_stores, __ATOMIC_RELAXED);
}

/* ---- the key ------------------------------------------------------------ */

/* A field with its length in front, so that no two requests hash the same
 * bytes ("ab"+"c" vs "a"+"bc"). */
static void put_field(StrBuf *sb, const char *s, size_t n) {
    uint64_t len = n;
    sb_putn(sb, (const char *)&len, sizeof len);
    if (n) sb_putn(sb, s, n);
}
static void put_str(StrBuf *sb, const char *s) { put_field(sb, s ? s : "", s ? strlen(s) : 0); }
static void put_int(StrBuf *sb, int64_t v) { put_field(sb, (const char *)&v, sizeof v); }

/* 16 lowercase hex digits, as printf's %016llx. (The cache hit is the
 * first thing a new process runs of this library: its path keeps to code
 * the library has at hand rather than libc's formatted I/O.) */
static void put_hex64(char *out, uint64_t v) {
    for (int i = 15; i >= 0; i--, v >>= 4) out[i] = "0123456789abcdef"[v & 15];
}

static char *cache_root(const char *dir) {
    const char *d = dir && *dir ? dir : getenv("TRITONC_CACHE_DIR");
    StrBuf sb = {0};
    if (d && *d) sb_puts(&sb, d);
    else if ((d = getenv("TRITON_CACHE_DIR")) && *d) sb_puts(&sb, d); /* Triton's own knob */
    else if ((d = getenv("XDG_CACHE_HOME")) && *d) sb_printf(&sb, "%s/tritonc", d);
    else if ((d = getenv("HOME")) && *d) sb_printf(&sb, "%s/.cache/tritonc", d);
    else sb_puts(&sb, "/tmp/tritonc-cache");
    sb_puts(&sb, "/src");
    return sb_take(&sb);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool srccache_key(const tc_compile_options *o, SrcCacheKey *key) {
    memset(key, 0, sizeof *key);
    if (!o->kernel || !o->source) return false;
    if (o->filename && (ends_with(o->filename, ".ttir") || ends_with(o->filename, ".mlir")))
        return false;
    int sm = 0;
    if (o->device == TC_DEVICE_CUDA) {
        if (o->target && strcmp(o->target, "cuda") != 0 &&
            (sscanf(o->target, "cuda:%d", &sm) != 1 || (sm != 80 && sm != 90)))
            return false; /* the pipeline reports the bad target */
        sm = gpu_resolve_sm(sm);
    } else if (o->device != TC_DEVICE_CPU) {
        return false;
    }
    size_t srclen = o->source_len ? o->source_len : strlen(o->source);
    StrBuf sb = {0};
    put_str(&sb, "tritonc-source-cache");
    put_str(&sb, tc_version());
    put_str(&sb, TC_BUILD_ID);
    put_int(&sb, (int64_t)(sizeof(void *) * 100 + sizeof(long) * 10 + sizeof(int)));
    put_int(&sb, (int64_t)hash_bytes(o->source, srclen, 0x736f75726365ULL));
    put_int(&sb, (int64_t)srclen);
    put_str(&sb, o->kernel);
    put_str(&sb, o->signature);
    put_int(&sb, o->num_constexprs);
    for (int i = 0; i < o->num_constexprs; i++) {
        put_str(&sb, o->constexprs[i].name);
        put_str(&sb, o->constexprs[i].value);
    }
    put_int(&sb, o->device);
    put_int(&sb, o->num_warps > 0 ? o->num_warps : 4);
    put_int(&sb, o->num_stages);
    put_int(&sb, o->debug); /* device asserts kept or dropped */
    put_int(&sb, async_copy_mode()); /* TRITONC_ASYNC_COPY */
    put_int(&sb, gpu_fp_fusion());   /* TRITON_DEFAULT_FP_FUSION */
    if (o->device == TC_DEVICE_CUDA) {
        put_int(&sb, sm);
        /* the code generator's other switches, as set (see README) */
        static const char *const knobs[] = {"TRITONC_WGMMA",       "TRITONC_WGMMA_RS", "TRITONC_WGMMA_LATE",
                                            "TRITONC_RING_FENCE",  "TRITONC_MMA_LATE", "TRITONC_MMA_SWIZZLE",
                                            "TRITONC_CVT_SWIZZLE"};
        for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++) {
            const char *v = getenv(knobs[i]);
            put_str(&sb, v ? v : "");
        }
    } else {
        put_str(&sb, cpu_host_identity());
        StrBuf cc = {0};
        cpu_compiler_identity(NULL, &cc);
        put_str(&sb, sb_cstr(&cc));
        sb_free(&cc);
    }
    uint64_t h1 = hash_bytes(sb.data, sb.len, 0x7372632d6b657931ULL);
    uint64_t h2 = hash_bytes(sb.data, sb.len, 0x7372632d6b657932ULL);
    sb_free(&sb);
    put_hex64(key->hex, h1);
    put_hex64(key->hex + 16, h2);
    key->hex[32] = 0;
    key->root = cache_root(o->cache_dir);
    return true;
}

void srccache_key_free(SrcCacheKey *key) {
    tc_free(key->root);
    key->root = NULL;
}

/* ---- files -------------------------------------------------------------- */

static char *entry_path(const SrcCacheKey *key, const char *ext) {
    StrBuf sb = {0};
    sb_puts(&sb, key->root);
    sb_putc(&sb, '/');
    sb_puts(&sb, key->hex);
    sb_putc(&sb, '.');
    sb_puts(&sb, ext);
    return sb_take(&sb);
}

static void remove_entry(const SrcCacheKey *key) {
    static const char *const exts[] = {"meta", "so", "ir"};
    for (int i = 0; i < TC_ARRAY_LEN(exts); i++) {
        char *p = entry_path(key, exts[i]);
        remove(p);
        tc_free(p);
    }
}

static uint64_t binary_hash(const void *p, size_t n) { return hash_bytes(p, n, 0x62696e617279ULL); }

/* ---- store -------------------------------------------------------------- */

void srccache_store(const Compilation *c, const SrcCacheKey *key) {
    const void *bin = NULL;
    size_t bin_size = 0;
    char *so_bytes = NULL;
    if (c->gpu) {
        bin = gpu_kernel_cubin(c->gpu, &bin_size);
    } else if (c->cpu && *cpu_kernel_cache_path(c->cpu)) {
        StrBuf so = {0};
        sb_printf(&so, "%s/kernel.so", cpu_kernel_cache_path(c->cpu));
        so_bytes = read_file(so.data, &bin_size);
        sb_free(&so);
        bin = so_bytes;
    }
    if (!bin || !bin_size || !make_dirs(key->root)) {
        tc_free(so_bytes);
        return;
    }
    /* 1. the stage texts */
    StrBuf ir = {0};
    sb_puts(&ir, SRCCACHE_IR_MAGIC);
    for (int s = 0; s < STAGE_COUNT; s++) {
        if (!c->text[s] || s == STAGE_AST) continue;
        size_t n = strlen(c->text[s]);
        sb_printf(&ir, "stage %s %zu\n", stage_names[s], n);
        sb_putn(&ir, c->text[s], n);
        sb_putc(&ir, '\n');
    }
    char *ir_path = entry_path(key, "ir");
    bool ok = write_file_atomic(ir_path, ir.data, ir.len);
    tc_free(ir_path);
    sb_free(&ir);
    /* 2. the CPU's shared object */
    if (ok && so_bytes) {
        char *so_path = entry_path(key, "so");
        ok = write_file_atomic(so_path, so_bytes, bin_size);
        tc_free(so_path);
    }
    /* 3. the metadata (and the cubin), last */
    if (ok) {
        StrBuf m = {0};
        sb_puts(&m, SRCCACHE_MAGIC);
        if (c->gpu)
            sb_printf(&m, "device cuda\nname %s\nnum_warps %d\nshared %d\nsm %d\n", gpu_kernel_name(c->gpu),
                      gpu_kernel_num_warps(c->gpu), gpu_kernel_shared_bytes(c->gpu), gpu_kernel_sm(c->gpu));
        else
            sb_printf(&m, "device cpu\nname %s\nnum_warps 0\nshared 0\nsm 0\n", c->kernel);
        sb_printf(&m, "nparams %d\n", c->nparams);
        for (int i = 0; i < c->nparams; i++)
            sb_printf(&m, "p %d %s\n", c->param_skip && c->param_skip[i] ? 1 : 0, c->param_types[i]);
        sb_printf(&m, "binary %zu %016llx\n", bin_size, (unsigned long long)binary_hash(bin, bin_size));
        if (c->gpu) sb_putn(&m, bin, bin_size); /* the cubin follows its header */
        char *meta_path = entry_path(key, "meta");
        ok = write_file_atomic(meta_path, m.data, m.len);
        tc_free(meta_path);
        sb_free(&m);
    }
    if (ok) __atomic_fetch_add(&n_stores, 1, __ATOMIC_RELAXED);
    tc_free(so_bytes);
}

/* ---- load --------------------------------------------------------------- */

/* The next line of the metadata: its start, NUL-terminated in place (the
 * buffer is ours); NULL at the end. */
static char *next_line(char **cur, char *end) {
    char *s = *cur;
    if (s >= end) return NULL;
    char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl) return NULL;
    *nl = 0;
    *cur = nl + 1;
    return s;
}

static bool line_int(char **cur, char *end, const char *field, int *out) {
    char *l = next_line(cur, end);
    size_t n = strlen(field);
    if (!l || strncmp(l, field, n) != 0 || l[n] != ' ') return false;
    char *e;
    long v = strtol(l + n + 1, &e, 10);
    if (e == l + n + 1 || *e || v < 0 || v > (1L << 30)) return false;
    *out = (int)v;
    return true;
}

/* "binary SIZE HASH": the binary's size in decimal and its hash in hex, as
 * srccache_store writes them, and nothing else. */
static bool line_binary(char *l, unsigned long long *size, unsigned long long *hash) {
    if (!l || strncmp(l, "binary ", 7) != 0 || !isdigit((unsigned char)l[7])) return false;
    char *e;
    errno = 0;
    *size = strtoull(l + 7, &e, 10);
    if (*e != ' ' || !isxdigit((unsigned char)e[1])) return false;
    char *h = e + 1;
    *hash = strtoull(h, &e, 16);
    return !*e && e - h <= 16 && errno == 0;
}

static const char *line_str(char **cur, char *end, const char *field) {
    char *l = next_line(cur, end);
    size_t n = strlen(field);
    if (!l || strncmp(l, field, n) != 0 || l[n] != ' ' || !l[n + 1]) return NULL;
    return l + n + 1;
}

/* Parses and loads; false (without diagnostics) when anything is off. */
static bool load_entry(Compilation *c, const SrcCacheKey *key, char *meta, size_t len) {
    char *cur = meta, *end = meta + len;
    size_t magic = strlen(SRCCACHE_MAGIC);
    if (len < magic || memcmp(meta, SRCCACHE_MAGIC, magic) != 0) return false;
    cur += magic;
    const char *device = line_str(&cur, end, "device");
    const char *name = line_str(&cur, end, "name");
    int num_warps, shared, sm, nparams;
    if (!device || !name || !line_int(&cur, end, "num_warps", &num_warps) ||
        !line_int(&cur, end, "shared", &shared) || !line_int(&cur, end, "sm", &sm) ||
        !line_int(&cur, end, "nparams", &nparams) || nparams > 4096)
        return false;
    bool cuda = strcmp(device, "cuda") == 0;
    if (!cuda && strcmp(device, "cpu") != 0) return false;
    if (cuda != (c->device == TC_DEVICE_CUDA)) return false;
    c->param_types = ARENA_ARRAY(c->arena, const char *, nparams + 1);
    c->param_skip = ARENA_ARRAY(c->arena, bool, nparams + 1);
    for (int i = 0; i < nparams; i++) {
        char *l = next_line(&cur, end);
        if (!l || l[0] != 'p' || l[1] != ' ' || (l[2] != '0' && l[2] != '1') || l[3] != ' ' || !l[4])
            return false;
        c->param_skip[i] = l[2] == '1';
        c->param_types[i] = intern(&c->strings, l + 4);
    }
    c->nparams = nparams;
    unsigned long long size, hash;
    if (!line_binary(next_line(&cur, end), &size, &hash)) return false;
    DiagEngine de; /* a load failure is a miss, not an error */
    diag_init(&de);
    bool ok = false;
    if (cuda) {
        if ((size_t)(end - cur) != size || binary_hash(cur, size) != hash) goto out;
        void *cubin = tc_malloc(size);
        memcpy(cubin, cur, size);
        TC_TRACE("srccache: the entry parsed and its hash checked");
        c->gpu = gpu_kernel_from_cubin(name, cubin, size, num_warps, shared, sm, &de);
        ok = c->gpu != NULL;
    } else {
        if (cur != end) goto out;
        char *so_path = entry_path(key, "so");
        size_t n = 0;
        char *so = read_file(so_path, &n);
        if (so && n == size && binary_hash(so, n) == hash)
            c->cpu = cpu_kernel_load_so(so_path, name, &de);
        ok = c->cpu != NULL;
        tc_free(so);
        tc_free(so_path);
    }
out:
    diag_free(&de);
    return ok;
}

bool srccache_load(Compilation *c, const SrcCacheKey *key) {
    char *meta_path = entry_path(key, "meta");
    size_t len = 0;
    char *meta = read_file(meta_path, &len);
    tc_free(meta_path);
    TC_TRACE("srccache: the entry read");
    if (!meta) return false;
    bool ok = load_entry(c, key, meta, len);
    tc_free(meta);
    if (!ok) {
        /* damaged (or written by another build with the same key): drop it,
         * and undo what the partial parse set */
        remove_entry(key);
        c->nparams = 0;
        if (c->gpu) gpu_kernel_free(c->gpu);
        if (c->cpu) cpu_kernel_free(c->cpu);
        c->gpu = NULL;
        c->cpu = NULL;
        return false;
    }
    __atomic_fetch_add(&n_hits, 1, __ATOMIC_RELAXED);
    return true;
}

bool srccache_load_texts(Compilation *c, const SrcCacheKey *key) {
    char *path = entry_path(key, "ir");
    size_t len = 0;
    char *ir = read_file(path, &len);
    tc_free(path);
    size_t magic = strlen(SRCCACHE_IR_MAGIC);
    bool ok = ir && len >= magic && memcmp(ir, SRCCACHE_IR_MAGIC, magic) == 0;
    char *cur = ir + (ok ? magic : 0), *end = ir + len;
    while (ok && cur < end) {
        char name[32];
        size_t n;
        int used = 0;
        char *nl = memchr(cur, '\n', (size_t)(end - cur));
        if (!nl || sscanf(cur, "stage %31s %zu%n", name, &n, &used) != 2 || cur + used != nl ||
            n > (size_t)(end - nl - 1) || nl[1 + n] != '\n') {
            ok = false;
            break;
        }
        Stage s = stage_lookup(name);
        if (s < STAGE_COUNT && !c->text[s]) {
            c->text[s] = tc_malloc(n + 1);
            memcpy(c->text[s], nl + 1, n);
            c->text[s][n] = 0;
        }
        cur = nl + 2 + n;
    }
    tc_free(ir);
    return ok;
}
