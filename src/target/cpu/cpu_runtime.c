/*
 * cpu_runtime.c - build, cache, load and launch CPU kernels.
 *
 * Build: the C text from cpu_emit_c is compiled by $CC into a shared object
 *   with  -O3 -march=native -fPIC -shared -fno-math-errno -ffp-contract=off
 *   (IEEE arithmetic kept: no -ffast-math, and no silent mul+add -> fma
 *   contraction, so every IR op rounds once, as written; math functions do
 *   not set errno, which lets them vectorise).
 *
 * Cache: one folder per entry, `<cache>/cpu-<key>/` holding kernel.c,
 *   kernel.so and meta.json, where key is a 128-bit hash of the source, the
 *   flags, the compiler's `--version` text (asked once per process and
 *   compiler) and the CPU's feature flags (-march=native depends on them).
 *   An entry is built in a private temporary folder and renamed into place
 *   in one step, so a crash leaves at most a stray temporary folder and a
 *   second process either sees the whole entry or none; when two processes
 *   race, the loser's rename fails, it throws its copy away and uses the
 *   winner's.
 *
 * Launch: the grid is linearised (x fastest) and handed to the pool.
 */
#include "target/cpu/cpu_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CPU_CFLAGS "-O3 -march=native -fPIC -shared -fno-math-errno -ffp-contract=off " \
                   "-fvisibility=hidden -w"

struct CpuKernel {
    char *source;
    char *path;       /* cache entry folder, or "" */
    void *dl;
    CpuEntryFn entry;
    int nparams;
    int64_t frame_bytes;
};

static struct {
    long compiles, cache_hits, launches;
    double compile_seconds;
} stats;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

CpuStats cpu_stats(void) {
    pthread_mutex_lock(&stats_lock);
    CpuStats s = {stats.compiles, stats.cache_hits, stats.launches, stats.compile_seconds};
    pthread_mutex_unlock(&stats_lock);
    return s;
}

/* ---- running the compiler --------------------------------------------------- */

/* Splits a command line on blanks into argv (no quoting; paths the library
 * adds go in as separate arguments, never through a shell). */
static int split_args(char *s, char **argv, int max) {
    int n = 0;
    for (char *p = strtok(s, " \t"); p && n < max - 1; p = strtok(NULL, " \t")) argv[n++] = p;
    argv[n] = NULL;
    return n;
}

/* Runs argv with stdout+stderr into `log` (a path); returns the exit status
 * (-1 when it could not start). */
static int run_logged(char **argv, const char *log) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `cc --version`, once per process and compiler. */
static char *compiler_version(const char *cc) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct { char *cc, *version; } memo[8];
    static int nmemo;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < nmemo; i++)
        if (strcmp(memo[i].cc, cc) == 0) {
            pthread_mutex_unlock(&lock);
            return memo[i].version;
        }
    char log[] = "/tmp/tritonc-ccver-XXXXXX";
    int fd = mkstemp(log);
    char *version = NULL;
    if (fd >= 0) {
        close(fd);
        char *cmd = tc_strdup(cc);
        char *argv[32];
        int n = split_args(cmd, argv, 30);
        argv[n] = "--version";
        argv[n + 1] = NULL;
        if (run_logged(argv, log) == 0) version = read_file(log, NULL);
        tc_free(cmd);
        remove(log);
    }
    if (!version) version = tc_strdup("");
    if (nmemo < 8) memo[nmemo].cc = tc_strdup(cc), memo[nmemo++].version = version;
    pthread_mutex_unlock(&lock);
    return version;
}

/* What -march=native depends on: the CPU's model and feature flags. */
static char *cpu_id;
static void cpu_identity_init(void) {
    StrBuf sb = {0};
    char *info = read_file("/proc/cpuinfo", NULL);
    if (info) {
        /* the first "model name" and "flags" (or aarch64 "Features") lines */
        static const char *const keys[] = {"model name", "flags", "Features", "CPU part"};
        for (int i = 0; i < TC_ARRAY_LEN(keys); i++) {
            char *p = strstr(info, keys[i]);
            if (!p) continue;
            char *e = strchr(p, '\n');
            sb_putn(&sb, p, e ? (size_t)(e - p) : strlen(p));
            sb_putc(&sb, '\n');
        }
        tc_free(info);
    }
    cpu_id = sb_take(&sb);
    if (!cpu_id) cpu_id = tc_strdup("");
}
static const char *cpu_identity(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, cpu_identity_init);
    return cpu_id;
}
const char *cpu_host_identity(void) { return cpu_identity(); }

void cpu_compiler_identity(const char *cc, StrBuf *out) {
    if (!cc || !*cc) cc = getenv("CC");
    if (!cc || !*cc) cc = "cc";
    sb_printf(out, "cc=%s", cc);
    /* the first word, looked up on $PATH as posix_spawnp would */
    char prog[1024];
    size_t n = strcspn(cc, " \t");
    if (n >= sizeof prog) return;
    memcpy(prog, cc, n);
    prog[n] = 0;
    struct stat st;
    bool found = false;
    if (strchr(prog, '/')) {
        found = stat(prog, &st) == 0;
    } else {
        const char *path = getenv("PATH");
        for (const char *p = path ? path : "/usr/bin:/bin"; *p && !found;) {
            size_t m = strcspn(p, ":");
            char full[2048];
            snprintf(full, sizeof full, "%.*s/%s", (int)m, p, prog);
            found = stat(full, &st) == 0 && S_ISREG(st.st_mode);
            p += m + (p[m] == ':');
        }
    }
    if (found)
        sb_printf(out, ";size=%lld;mtime=%lld;ino=%llu", (long long)st.st_size, (long long)st.st_mtime,
                  (unsigned long long)st.st_ino);
}

/* ---- the cache folder ------------------------------------------------------------- */


static char *cache_root(const CpuBuildOptions *o) {
    const char *d = o && o->cache_dir ? o->cache_dir : getenv("TRITONC_CACHE_DIR");
    StrBuf sb = {0};
    if (d && *d) sb_puts(&sb, d);
    else if ((d = getenv("TRITON_CACHE_DIR")) && *d) sb_puts(&sb, d); /* Triton's own knob */
    else if ((d = getenv("XDG_CACHE_HOME")) && *d) sb_printf(&sb, "%s/tritonc", d);
    else if ((d = getenv("HOME")) && *d) sb_printf(&sb, "%s/.cache/tritonc", d);
    else sb_puts(&sb, "/tmp/tritonc-cache");
    return sb_take(&sb);
}

static bool file_exists(const char *dir, const char *name) {
    StrBuf sb = {0};
    sb_printf(&sb, "%s/%s", dir, name);
    struct stat st;
    bool ok = stat(sb_cstr(&sb), &st) == 0;
    sb_free(&sb);
    return ok;
}

static void remove_entry_dir(const char *dir) {
    static const char *const files[] = {"kernel.c", "kernel.so", "meta.json", "cc.log"};
    StrBuf sb = {0};
    for (int i = 0; i < TC_ARRAY_LEN(files); i++) {
        sb.len = 0;
        sb_printf(&sb, "%s/%s", dir, files[i]);
        remove(sb_cstr(&sb));
    }
    sb_free(&sb);
    rmdir(dir);
}

static bool write_text(const char *dir, const char *name, const char *text) {
    StrBuf sb = {0};
    sb_printf(&sb, "%s/%s", dir, name);
    FILE *f = fopen(sb_cstr(&sb), "wb");
    sb_free(&sb);
    if (!f) return false;
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    return (fclose(f) == 0) && ok;
}

/* ---- building ------------------------------------------------------------------- */

/* What is added to the flags when the compiler crashed on the code: the
 * loop vectoriser off, then -O1. GCC 12.2 at -O2/-O3 stops with an
 * internal compiler error (in vect_get_vec_defs_for_operand) on some loop
 * nests the emitter writes, e.g. a [16, 16] scan along axis 1 between a
 * gathered load and a scattered store (tests/cpu/cc_crash_retry.py); a
 * kernel a compiler bug stops is built slower rather than not at all. */
static const char *const ice_retry_flags[] = {" -fno-tree-loop-vectorize", " -fno-tree-loop-vectorize -O1"};

/* Compiles `dir/kernel.c` into `dir/kernel.so`; on failure reports the
 * compiler's output as a note. */
static bool compile_in(const char *dir, const char *cc, const char *flags, DiagEngine *de) {
    StrBuf cmd = {0}, so = {0}, c = {0}, log = {0};
    sb_printf(&so, "%s/kernel.so", dir);
    sb_printf(&c, "%s/kernel.c", dir);
    sb_printf(&log, "%s/cc.log", dir);
    int rc = -1;
    for (int attempt = 0; attempt <= (int)(sizeof ice_retry_flags / sizeof *ice_retry_flags); attempt++) {
        if (attempt > 0) {
            char *out = read_file(log.data, NULL);
            bool crashed = out && strstr(out, "internal compiler error");
            tc_free(out);
            if (!crashed) break;
        }
        cmd.len = 0;
        sb_printf(&cmd, "%s %s%s", cc, flags, attempt ? ice_retry_flags[attempt - 1] : "");
        char *argv[128];
        int n = split_args(cmd.data, argv, 120);
        argv[n++] = "-o";
        argv[n++] = so.data;
        argv[n++] = c.data;
        argv[n] = NULL;
        double t0 = now_seconds();
        rc = run_logged(argv, log.data);
        pthread_mutex_lock(&stats_lock);
        stats.compiles++;
        stats.compile_seconds += now_seconds() - t0;
        pthread_mutex_unlock(&stats_lock);
        if (rc <= 0) break;
    }
    bool ok = rc == 0;
    if (!ok) {
        char *out = read_file(log.data, NULL);
        if (rc < 0) diag_error(de, (Loc){0}, "C backend: cannot run the C compiler '%s'", cc);
        else diag_error(de, (Loc){0}, "C backend: the C compiler '%s' failed (exit %d) on the generated code", cc, rc);
        if (out && *out) diag_note(de, (Loc){0}, "compiler output:\n%s", out);
        tc_free(out);
    }
    sb_free(&cmd), sb_free(&so), sb_free(&c), sb_free(&log);
    return ok;
}

static bool find_symbols(CpuKernel *k, const char *kernel_name, DiagEngine *de);

static bool load(CpuKernel *k, const char *dir, const char *kernel_name, DiagEngine *de) {
    StrBuf so = {0};
    sb_printf(&so, "%s/kernel.so", dir);
    k->dl = dlopen(sb_cstr(&so), RTLD_NOW | RTLD_LOCAL);
    sb_free(&so);
    if (!k->dl) {
        diag_error(de, (Loc){0}, "C backend: cannot load the compiled kernel: %s", dlerror());
        return false;
    }
    return find_symbols(k, kernel_name, de);
}

/* The kernel's entry and its metadata ({nparams, frame bytes}) in k->dl. */
static bool find_symbols(CpuKernel *k, const char *kernel_name, DiagEngine *de) {
    char sym[512];
    cpu_entry_symbol(kernel_name, sym, sizeof sym);
    k->entry = (CpuEntryFn)(uintptr_t)dlsym(k->dl, sym);
    char meta[512];
    snprintf(meta, sizeof meta, "%s%s", CPU_META_PREFIX, sym + strlen(CPU_ENTRY_PREFIX));
    const int64_t *m = dlsym(k->dl, meta);
    if (!k->entry || !m) {
        diag_error(de, (Loc){0}, "C backend: kernel '%s' not found in the compiled object", kernel_name);
        return false;
    }
    k->nparams = (int)m[0];
    k->frame_bytes = m[1];
    return true;
}

CpuKernel *cpu_kernel_load_so(const char *so_path, const char *kernel_name, DiagEngine *de) {
    CpuKernel *k = tc_calloc(1, sizeof *k);
    k->path = tc_strdup("");
    k->dl = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    if (!k->dl) {
        diag_error(de, (Loc){0}, "C backend: cannot load the compiled kernel: %s", dlerror());
        cpu_kernel_free(k);
        return NULL;
    }
    if (!find_symbols(k, kernel_name, de)) {
        cpu_kernel_free(k);
        return NULL;
    }
    return k;
}

CpuKernel *cpu_kernel_build_source(const char *src, const char *kernel_name, int nparams,
                                   const CpuBuildOptions *o, DiagEngine *de) {
    (void)nparams;
    const char *cc = o && o->cc ? o->cc : getenv("CC");
    if (!cc || !*cc) cc = "cc";
    StrBuf flags = {0};
    sb_puts(&flags, CPU_CFLAGS);
    if (o && o->extra_flags) sb_printf(&flags, " %s", o->extra_flags);
    CpuKernel *k = tc_calloc(1, sizeof *k);
    k->source = tc_strdup(src);
    bool ok = false;
    char tmpl[4096];
    if (o && o->no_cache) {
        const char *td = getenv("TMPDIR");
        snprintf(tmpl, sizeof tmpl, "%s/tritonc-cpu-XXXXXX", td && *td ? td : "/tmp");
        if (!mkdtemp(tmpl)) {
            diag_error(de, (Loc){0}, "C backend: cannot create a temporary folder");
        } else {
            ok = write_text(tmpl, "kernel.c", src) && compile_in(tmpl, cc, flags.data, de) &&
                 load(k, tmpl, kernel_name, de);
            remove_entry_dir(tmpl);
        }
        k->path = tc_strdup("");
        sb_free(&flags);
        if (!ok) {
            cpu_kernel_free(k);
            return NULL;
        }
        return k;
    }
    /* the key */
    StrBuf keytext = {0};
    sb_puts(&keytext, src);
    sb_putc(&keytext, 0);
    sb_printf(&keytext, "%s", flags.data);
    sb_putc(&keytext, 0);
    sb_puts(&keytext, compiler_version(cc));
    sb_putc(&keytext, 0);
    sb_puts(&keytext, cpu_identity());
    uint64_t h1 = hash_bytes(keytext.data, keytext.len, 0x7472697469636f6eULL);
    uint64_t h2 = hash_bytes(keytext.data, keytext.len, 0x6370752d63616368ULL);
    sb_free(&keytext);
    char *root = cache_root(o);
    StrBuf entry = {0};
    sb_printf(&entry, "%s/cpu-%016llx%016llx", root, (unsigned long long)h1, (unsigned long long)h2);
    k->path = tc_strdup(entry.data);
    if (!make_dirs(root)) {
        diag_error(de, (Loc){0}, "C backend: cannot create the cache folder '%s'", root);
    } else if (file_exists(entry.data, "meta.json") && file_exists(entry.data, "kernel.so")) {
        ok = load(k, entry.data, kernel_name, de);
        if (ok) {
            pthread_mutex_lock(&stats_lock);
            stats.cache_hits++;
            pthread_mutex_unlock(&stats_lock);
        }
    } else {
        static long counter;
        StrBuf tmp = {0};
        sb_printf(&tmp, "%s/.tmp-cpu-%016llx-%ld-%ld", root, (unsigned long long)h1, (long)getpid(),
                  __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
        if (mkdir(tmp.data, 0755) != 0) {
            diag_error(de, (Loc){0}, "C backend: cannot create '%s'", tmp.data);
        } else if (write_text(tmp.data, "kernel.c", src) && compile_in(tmp.data, cc, flags.data, de)) {
            StrBuf meta = {0};
            sb_printf(&meta, "{\n  \"target\": \"cpu\",\n  \"kernel\": \"%s\",\n  \"cc\": \"%s\",\n  \"flags\": \"%s\"\n}\n",
                      kernel_name, cc, flags.data);
            bool wrote = write_text(tmp.data, "meta.json", meta.data);
            sb_free(&meta);
            StrBuf log = {0};
            sb_printf(&log, "%s/cc.log", tmp.data);
            remove(log.data);
            sb_free(&log);
            if (wrote && rename(tmp.data, entry.data) != 0) {
                /* another process won the race: use its entry */
                remove_entry_dir(tmp.data);
            }
            if (!wrote) remove_entry_dir(tmp.data);
            ok = wrote && load(k, entry.data, kernel_name, de);
        } else {
            remove_entry_dir(tmp.data);
        }
        sb_free(&tmp);
    }
    sb_free(&entry);
    tc_free(root);
    sb_free(&flags);
    if (!ok) {
        cpu_kernel_free(k);
        return NULL;
    }
    return k;
}

static Op *find_kernel(Op *module, const char *name, DiagEngine *de) {
    Op *found = NULL;
    int nkernels = 0;
    for (Op *f = module_body(module)->first; f; f = f->next) {
        if (f->kind != TT_FUNC) continue;
        const char *vis = op_attr_str(f, "sym_visibility");
        bool pub = !vis || strcmp(vis, "private") != 0;
        if (name ? strcmp(func_name(f), name) == 0 : pub) {
            found = f;
            nkernels++;
        }
    }
    if (!found) diag_error(de, (Loc){0}, "C backend: no kernel '%s' in the module", name ? name : "(any)");
    else if (!name && nkernels > 1)
        diag_error(de, (Loc){0}, "C backend: the module has %d kernels; name the one to build", nkernels);
    else return found;
    return NULL;
}

CpuKernel *cpu_kernel_build(Op *module, const char *kernel_name, const CpuBuildOptions *o, DiagEngine *de) {
    Op *f = find_kernel(module, kernel_name, de);
    if (!f) return NULL;
    StrBuf src = {0};
    CpuKernel *k = NULL;
    if (cpu_emit_c(module, o ? &o->emit : NULL, &src, de)) {
        Block *entry = func_entry(f);
        k = cpu_kernel_build_source(sb_cstr(&src), func_name(f), entry ? entry->nargs : 0, o, de);
    }
    sb_free(&src);
    return k;
}

const char *cpu_kernel_c_source(const CpuKernel *k) { return k->source; }
const char *cpu_kernel_cache_path(const CpuKernel *k) { return k->path ? k->path : ""; }
int cpu_kernel_num_params(const CpuKernel *k) { return k->nparams; }

void cpu_kernel_free(CpuKernel *k) {
    if (!k) return;
    if (k->dl) dlclose(k->dl);
    tc_free(k->source);
    tc_free(k->path);
    tc_free(k);
}

/* ---- launching ------------------------------------------------------------------- */

typedef struct Launch {
    CpuKernel *k;
    void *const *args;
    int32_t grid[3];
    int failed; /* atomic: first failure owns msg */
    char msg[512];
} Launch;

static int launch_range(void *ud, int64_t begin, int64_t end) {
    Launch *l = ud;
    char err[512] = "";
    int r = l->k->entry(l->args, l->grid, begin, end, err, sizeof err);
    if (r) {
        int zero = 0;
        if (__atomic_compare_exchange_n(&l->failed, &zero, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            memcpy(l->msg, err, sizeof err);
    }
    return r;
}

bool cpu_kernel_launch(CpuKernel *k, const int grid[3], void *const *args, DiagEngine *de) {
    Launch l = {.k = k, .args = args};
    int64_t n = 1;
    for (int d = 0; d < 3; d++) {
        if (grid[d] < 0) {
            diag_error(de, (Loc){0}, "C backend: negative grid dimension %d", grid[d]);
            return false;
        }
        l.grid[d] = grid[d];
        n *= grid[d];
    }
    pthread_mutex_lock(&stats_lock);
    stats.launches++;
    pthread_mutex_unlock(&stats_lock);
    if (n == 0) return true;
    int r = cpu_pool_run(n, launch_range, &l, k->frame_bytes);
    if (r == CPU_POOL_NO_STACK) {
        diag_error(de, (Loc){0}, "C backend: could not start a thread with the %" PRId64
                   " MiB of stack that this kernel's tiles take", (k->frame_bytes >> 20) + 1);
        return false;
    }
    if (r) {
        diag_error(de, (Loc){0}, "kernel assertion failed: %s", l.msg[0] ? l.msg : "(no message)");
        return false;
    }
    return true;
}
