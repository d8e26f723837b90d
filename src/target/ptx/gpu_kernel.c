/*
 * gpu_kernel.c - tt IR to a loaded, launchable kernel, through the disk
 * cache (see gpu.h).
 *
 * Cache entry: $TRITONC_CACHE_DIR/<key>/ holding kernel.cubin, kernel.ptx,
 * kernel.ttgir (when the build was asked to keep it) and kernel.json
 * ({"name", "num_warps", "shared", "target", "key"}). The entry is written
 * into a temporary folder beside it and renamed into place, so a reader
 * sees a whole entry or none. The key is the caller's (hash of the source
 * and the specialisation) or else a hash of the PTX and the options.
 */
#include "target/ptx/gpu.h"
#include "target/ptx/cuda_runtime.h"
#include "target/ptx/ptx.h"
#include "transform/gpu/gpu_passes.h"
#include "transform/pass.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#define TC_GPU_VERSION "tritonc-gpu-0.1"

struct GpuKernel {
    char name[128];
    char key[40];
    int num_warps, smem, sm;
    const char *cache_dir; /* the caller's, during gpu_kernel_build only */
    char *ptx, *ttgir;
    void *cubin;
    size_t cubin_size;
    CUmodule module;
    CUfunction func;
    CUcontext ctx; /* the context module and func were loaded in */
    int device_sm; /* set when the cubin is for another GPU than this one: not loaded */
    /* the kernel loaded in other contexts (other devices of one process), as
     * it is first launched there; under others_lock */
    struct Loaded {
        CUcontext ctx;
        CUmodule module;
        CUfunction func;
    } *others;
    int nothers;
    double ptx_ms, cubin_ms;
};

static const char *cache_dir(const GpuKernel *k, char *buf, size_t n) {
    const char *d = k->cache_dir ? k->cache_dir : getenv("TRITONC_CACHE_DIR");
    if (d && *d) {
        snprintf(buf, n, "%s", d);
        return buf;
    }
    const char *home = getenv("HOME");
    snprintf(buf, n, "%s/.cache/tritonc", home ? home : "/tmp");
    return buf;
}

static void mkdirs(const char *path) {
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *s = tmp + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(tmp, 0755);
            *s = '/';
        }
    mkdir(tmp, 0755);
}

static bool write_all(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static void cache_store(GpuKernel *k) {
    char dir[1024], tmp[1100], final[1100], path[1200];
    cache_dir(k, dir, sizeof dir);
    mkdirs(dir);
    snprintf(final, sizeof final, "%s/%s", dir, k->key);
    snprintf(tmp, sizeof tmp, "%s/.tmp-%s-%d", dir, k->key, (int)getpid());
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return;
    snprintf(path, sizeof path, "%s/kernel.cubin", tmp);
    bool ok = write_all(path, k->cubin, k->cubin_size);
    if (k->ptx) {
        snprintf(path, sizeof path, "%s/kernel.ptx", tmp);
        ok = ok && write_all(path, k->ptx, strlen(k->ptx));
    }
    if (k->ttgir) {
        snprintf(path, sizeof path, "%s/kernel.ttgir", tmp);
        ok = ok && write_all(path, k->ttgir, strlen(k->ttgir));
    }
    char json[512];
    int n = snprintf(json, sizeof json,
                     "{\"name\": \"%s\", \"num_warps\": %d, \"shared\": %d, \"target\": \"cuda:%d\", \"key\": \"%s\"}\n",
                     k->name, k->num_warps, k->smem, k->sm, k->key);
    snprintf(path, sizeof path, "%s/kernel.json", tmp);
    ok = ok && write_all(path, json, (size_t)n);
    if (!ok || rename(tmp, final) != 0) {
        /* another process won the race, or the disk failed: drop ours */
        const char *names[] = {"kernel.cubin", "kernel.ptx", "kernel.ttgir", "kernel.json"};
        for (int i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/%s", tmp, names[i]);
            remove(path);
        }
        rmdir(tmp);
    }
}

static bool json_int(const char *json, const char *field, int *out) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", field);
    const char *s = strstr(json, pat);
    return s && sscanf(s + strlen(pat), "%d", out) == 1;
}

static bool json_str(const char *json, const char *field, char *out, size_t n) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", field);
    const char *s = strstr(json, pat);
    if (!s) return false;
    s += strlen(pat);
    size_t i = 0;
    while (s[i] && s[i] != '"' && i + 1 < n) {
        out[i] = s[i];
        i++;
    }
    out[i] = 0;
    return true;
}

/* Reads an entry; false when absent or incomplete. */
static bool cache_load(GpuKernel *k) {
    char dir[1024], path[1200];
    cache_dir(k, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s/kernel.json", dir, k->key);
    size_t n;
    char *json = read_file(path, &n);
    if (!json) return false;
    bool ok = json_str(json, "name", k->name, sizeof k->name) && json_int(json, "num_warps", &k->num_warps) &&
              json_int(json, "shared", &k->smem);
    char target[32];
    if (json_str(json, "target", target, sizeof target)) sscanf(target, "cuda:%d", &k->sm);
    tc_free(json);
    if (!ok) return false;
    snprintf(path, sizeof path, "%s/%s/kernel.cubin", dir, k->key);
    k->cubin = read_file(path, &k->cubin_size);
    return k->cubin != NULL;
}

static const char *find_ptxas(void) {
    const char *e = getenv("TRITONC_PTXAS");
    if (e && *e && access(e, X_OK) == 0) return e;
    static const char *cands[] = {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"};
    for (int i = 0; i < 2; i++)
        if (access(cands[i], X_OK) == 0) return cands[i];
    return NULL;
}

/* PTX -> cubin, in two steps so the caller can do other work (print the
 * TTGIR for the cache) while ptxas runs: asm_start writes the PTX and
 * starts ptxas as a child process (preferred: no context needed), without
 * a shell; asm_finish waits for it and reads the cubin. Without ptxas the
 * driver's JIT linker does the whole job in asm_start. */
typedef struct Assembly {
    pid_t pid;     /* the running ptxas; 0: none (the driver assembled, or failed) */
    char dir[32];  /* its folder: k.ptx, k.cubin, log */
    bool ok;
} Assembly;

static void asm_paths(const Assembly *a, char src[64], char bin[64], char log[64]) {
    snprintf(src, 64, "%s/k.ptx", a->dir);
    snprintf(bin, 64, "%s/k.cubin", a->dir);
    snprintf(log, 64, "%s/log", a->dir);
}

static void asm_cleanup(Assembly *a) {
    char src[64], bin[64], log[64];
    asm_paths(a, src, bin, log);
    remove(src);
    remove(bin);
    remove(log);
    rmdir(a->dir);
}

/* 0, or the errno of what failed */
static int spawn_ptxas(Assembly *a, const char *ptxas, const GpuKernel *k) {
    snprintf(a->dir, sizeof a->dir, "/tmp/tritonc-ptxasXXXXXX");
    if (!mkdtemp(a->dir)) {
        a->dir[0] = 0;
        return errno;
    }
    char src[64], bin[64], log[64], arch[24];
    asm_paths(a, src, bin, log);
    snprintf(arch, sizeof arch, "-arch=sm_%d%s", k->sm, k->sm == 90 ? "a" : "");
    if (!write_all(src, k->ptx, strlen(k->ptx))) return errno ? errno : EIO;
    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc) return rc;
    rc = posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    char *argv[] = {(char *)ptxas, arch, src, "-o", bin, NULL};
    if (!rc) rc = posix_spawn(&a->pid, ptxas, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) a->pid = 0;
    return rc;
}

static bool link_with_driver(GpuKernel *k, DiagEngine *de) {
    if (!cuda_ensure_context()) {
        diag_error(de, (Loc){0}, "kernel '%s': neither ptxas nor a CUDA driver to assemble PTX", k->name);
        return false;
    }
    CUlinkState ls;
    if (!cuda_check(cuda.cuLinkCreate(0, NULL, NULL, &ls), "cuLinkCreate", k->name, de)) return false;
    bool ok = cuda_check(cuda.cuLinkAddData(ls, CU_JIT_INPUT_PTX, k->ptx, strlen(k->ptx) + 1, "kernel.ptx", 0,
                                            NULL, NULL),
                         "cuLinkAddData", k->name, de);
    void *cubin = NULL;
    size_t size = 0;
    ok = ok && cuda_check(cuda.cuLinkComplete(ls, &cubin, &size), "cuLinkComplete", k->name, de);
    if (ok) {
        k->cubin = tc_malloc(size);
        memcpy(k->cubin, cubin, size);
        k->cubin_size = size;
    }
    cuda.cuLinkDestroy(ls);
    return ok;
}

static void asm_start(Assembly *a, GpuKernel *k, DiagEngine *de) {
    memset(a, 0, sizeof *a);
    const char *ptxas = find_ptxas();
    if (!ptxas) {
        a->ok = link_with_driver(k, de);
        return;
    }
    int rc = spawn_ptxas(a, ptxas, k);
    if (rc) {
        diag_error(de, (Loc){0}, "kernel '%s': could not run ptxas (%s): %s", k->name, ptxas, strerror(rc));
        if (a->dir[0]) asm_cleanup(a);
    }
}

static bool asm_finish(Assembly *a, GpuKernel *k, DiagEngine *de) {
    if (!a->pid) return a->ok;
    int status = 0;
    pid_t r;
    while ((r = waitpid(a->pid, &status, 0)) < 0 && errno == EINTR) {
    }
    char src[64], bin[64], log[64];
    asm_paths(a, src, bin, log);
    /* r < 0 (ECHILD): the host reaps its children itself; the cubin tells */
    bool ok = r < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (ok) k->cubin = read_file(bin, &k->cubin_size);
    if (!ok || !k->cubin) {
        size_t n;
        char *msg = read_file(log, &n);
        diag_error(de, (Loc){0}, "kernel '%s': ptxas failed:\n%s", k->name, msg ? msg : "");
        tc_free(msg);
        ok = false;
    }
    asm_cleanup(a);
    return ok;
}

/* Loads the cubin into the current context and finds the kernel in it:
 * the driver's error, 0 when it loaded. */
static CUresult load_function(const GpuKernel *k, CUmodule *module, CUfunction *func) {
    CUresult rc = cuda.cuModuleLoadData(module, k->cubin);
    TC_TRACE("cuModuleLoadData");
    if (rc) return rc;
    rc = cuda.cuModuleGetFunction(func, *module, k->name);
    TC_TRACE("cuModuleGetFunction");
    if (rc != 0 ||
        (k->smem > 48 * 1024 &&
         (rc = cuda.cuFuncSetAttribute(*func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k->smem)) != 0)) {
        cuda.cuModuleUnload(*module);
        *module = NULL;
        *func = NULL;
    }
    return rc;
}

/* Loads the cubin into the current context (when there is a GPU). A cubin
 * for another architecture than the device's (triton.compile with an
 * explicit target, as ahead-of-time builds do) is built and not loaded, as
 * Triton loads a kernel only when it is first run: the launch says why. */
static bool load_module(GpuKernel *k, DiagEngine *de) {
    if (!cuda_ensure_context()) return true; /* built, not launchable here */
    cuda.cuCtxGetCurrent(&k->ctx);
    TC_TRACE("gpu: the context");
    CUresult rc = load_function(k, &k->module, &k->func);
    if (rc == CUDA_ERROR_NO_BINARY_FOR_GPU && gpu_device_sm() != k->sm) {
        k->device_sm = gpu_device_sm();
        return true;
    }
    return cuda_check(rc, "loading the cubin (cuModuleLoadData)", k->name, de);
}

static pthread_mutex_t others_lock = PTHREAD_MUTEX_INITIALIZER;

/* The kernel's function in context ctx (another device's than the one it
 * was loaded for): loaded there the first time, as Triton keeps a kernel
 * per device. NULL, with the error, when it cannot be. */
static CUfunction function_in(GpuKernel *k, CUcontext ctx, DiagEngine *de) {
    CUfunction f = NULL;
    pthread_mutex_lock(&others_lock);
    for (int i = 0; i < k->nothers && !f; i++)
        if (k->others[i].ctx == ctx) f = k->others[i].func;
    if (!f) {
        struct Loaded l = {.ctx = ctx};
        if (cuda_check(load_function(k, &l.module, &l.func), "loading the cubin in another device's context",
                       k->name, de)) {
            k->others = tc_realloc(k->others, sizeof *k->others * (size_t)(k->nothers + 1));
            k->others[k->nothers++] = l;
            f = l.func;
        }
    }
    pthread_mutex_unlock(&others_lock);
    return f;
}

static void hash_key(char *out, const char *ptx, int sm, int nw) {
    uint64_t h = hash_bytes(ptx, strlen(ptx), 0x7472697463);
    h = hash_combine(h, hash_bytes(TC_GPU_VERSION, strlen(TC_GPU_VERSION), 1));
    h = hash_combine(h, (uint64_t)(sm * 1000 + nw));
    uint64_t h2 = hash_combine(h, 0xabcdef);
    snprintf(out, 40, "%016llx%016llx", (unsigned long long)h, (unsigned long long)h2);
}

int gpu_resolve_sm(int requested) {
    int sm = requested ? requested : gpu_device_sm();
    if (sm == 0) sm = 90;
    if (sm > 90) sm = 90; /* newer GPUs run sm_90 code through the driver's JIT... via PTX only */
    return sm;
}

GpuKernel *gpu_kernel_build(Context *c, Op *module, const char *kernel, const GpuOptions *o, DiagEngine *de) {
    GpuKernel *k = tc_calloc(1, sizeof *k);
    k->num_warps = o && o->num_warps > 0 ? o->num_warps : 4;
    k->sm = gpu_resolve_sm(o ? o->sm : 0);
    k->cache_dir = o && o->cache_dir && *o->cache_dir ? o->cache_dir : NULL;
    double t0 = now_seconds();
    TtgOptions to = {.num_warps = k->num_warps, .threads_per_warp = 32, .sm = k->sm,
                     .num_stages = o ? o->num_stages : 0};
    StrBuf ptx = {0};
    PtxKernelInfo info = {0};
    PtxOptions po = {.sm = k->sm, .num_warps = k->num_warps};
    if (!ttg_lower(c, module, &to, de) || !ptx_emit(c, module, kernel, &po, &ptx, &info, de)) {
        sb_free(&ptx);
        tc_free(k);
        return NULL;
    }
    k->ptx = sb_take(&ptx);
    k->ptx_ms = (now_seconds() - t0) * 1e3;
    k->smem = info.smem_bytes;
    Op *f = kernel ? module_lookup_func(module, kernel) : NULL;
    if (!f)
        for (Op *g = module_body(module)->first; g && !f; g = g->next)
            if (g->kind == TT_FUNC) f = g;
    snprintf(k->name, sizeof k->name, "%s", func_name(f));
    if (o && o->cache_key) snprintf(k->key, sizeof k->key, "%.39s", o->cache_key);
    else hash_key(k->key, k->ptx, k->sm, k->num_warps);
    double t1 = now_seconds();
    bool cached = !(o && o->no_cache) && cache_load(k);
    Assembly job = {0};
    if (!cached) asm_start(&job, k, de);
    /* the TTGIR text is made while ptxas runs: it is not on the way to the cubin */
    if (o && o->keep_ttgir) {
        StrBuf sb = {0};
        ir_print(module, &sb, &(PrintOptions){0});
        k->ttgir = sb_take(&sb);
    }
    if (!cached) {
        if (!asm_finish(&job, k, de)) {
            gpu_kernel_free(k);
            return NULL;
        }
        if (!(o && o->no_cache)) cache_store(k);
    }
    k->cubin_ms = (now_seconds() - t1) * 1e3;
    k->cache_dir = NULL; /* the caller's string: not kept */
    if (!load_module(k, de)) {
        gpu_kernel_free(k);
        return NULL;
    }
    return k;
}

GpuKernel *gpu_kernel_load_cached(const char *key, DiagEngine *de) {
    GpuKernel *k = tc_calloc(1, sizeof *k);
    snprintf(k->key, sizeof k->key, "%.39s", key);
    if (!cache_load(k)) {
        tc_free(k);
        return NULL;
    }
    if (!load_module(k, de)) {
        gpu_kernel_free(k);
        return NULL;
    }
    return k;
}

GpuKernel *gpu_kernel_from_cubin(const char *name, void *cubin, size_t size, int num_warps,
                                 int shared_bytes, int sm, DiagEngine *de) {
    GpuKernel *k = tc_calloc(1, sizeof *k);
    size_t n = strlen(name);
    if (n >= sizeof k->name) n = sizeof k->name - 1;
    memcpy(k->name, name, n); /* (zeroed: NUL-terminated) */
    k->num_warps = num_warps;
    k->smem = shared_bytes;
    k->sm = sm;
    k->cubin = cubin;
    k->cubin_size = size;
    if (!load_module(k, de)) {
        gpu_kernel_free(k);
        return NULL;
    }
    return k;
}

const void *gpu_kernel_cubin(const GpuKernel *k, size_t *size) {
    if (size) *size = k->cubin_size;
    return k->cubin;
}
int gpu_kernel_sm(const GpuKernel *k) { return k->sm; }
void *gpu_kernel_cufunction(const GpuKernel *k) { return k->func; }
const char *gpu_kernel_ptx(const GpuKernel *k) { return k->ptx; }
const char *gpu_kernel_ttgir(const GpuKernel *k) { return k->ttgir; }
const char *gpu_kernel_key(const GpuKernel *k) { return k->key; }
const char *gpu_kernel_name(const GpuKernel *k) { return k->name; }
int gpu_kernel_shared_bytes(const GpuKernel *k) { return k->smem; }
int gpu_kernel_num_warps(const GpuKernel *k) { return k->num_warps; }
static int func_attribute(const GpuKernel *k, int attr) {
    int v = -1;
    if (!k->func || !cuda.cuFuncGetAttribute || cuda.cuFuncGetAttribute(&v, attr, k->func) != 0) return -1;
    return v;
}
int gpu_kernel_num_regs(const GpuKernel *k) { return func_attribute(k, CU_FUNC_ATTRIBUTE_NUM_REGS); }
int gpu_kernel_local_bytes(const GpuKernel *k) { return func_attribute(k, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES); }
void gpu_kernel_build_times(const GpuKernel *k, double *ptx_ms, double *cubin_ms) {
    if (ptx_ms) *ptx_ms = k->ptx_ms;
    if (cubin_ms) *cubin_ms = k->cubin_ms;
}

static CUresult launch(const GpuKernel *k, CUfunction f, const int grid[3], void *const *args, void *stream) {
    return cuda.cuLaunchKernel(f, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
                               (unsigned)(32 * k->num_warps), 1, 1, (unsigned)k->smem, (CUstream)stream,
                               (void **)args, NULL);
}

bool gpu_kernel_launch(GpuKernel *k, const int grid[3], void *const *args, void *stream, DiagEngine *de) {
    if (!k->func) {
        if (k->device_sm)
            diag_error(de, (Loc){0}, "kernel '%s' was compiled for sm_%d and cannot run on this device (sm_%d): "
                       "compile it for the current device's target", k->name, k->sm, k->device_sm);
        else diag_error(de, (Loc){0}, "kernel '%s': no CUDA device to launch on", k->name);
        return false;
    }
    /* The hot path makes two driver calls: the calling thread almost always
     * has a context current (PyTorch's, the primary one of its current
     * device), the one the kernel was loaded in. Another device's context
     * gets the kernel loaded there on its first launch. A thread with none
     * gets the primary context made current, and the launch is tried again. */
    CUfunction f = k->func;
    CUcontext cur = NULL;
    if (cuda.cuCtxGetCurrent(&cur) == 0 && cur && cur != k->ctx && !(f = function_in(k, cur, de))) return false;
    CUresult rc = launch(k, f, grid, args, stream);
    if (rc != 0 && cuda_adopt_primary()) rc = launch(k, f, grid, args, stream);
    return cuda_check(rc, "cuLaunchKernel", k->name, de);
}

void gpu_kernel_free(GpuKernel *k) {
    if (!k) return;
    if (k->module && cuda_init()) cuda.cuModuleUnload(k->module);
    for (int i = 0; i < k->nothers; i++) cuda.cuModuleUnload(k->others[i].module);
    tc_free(k->others);
    tc_free(k->ptx);
    tc_free(k->ttgir);
    tc_free(k->cubin);
    tc_free(k);
}
