/*
 * cache_hit.c - where the time of a source-keyed cache hit goes on CUDA
 * (tc_compile when a new process finds its kernel on disk), piece by piece.
 *
 *   build/cache_hit fill   compiles the corpus vector add (fp32 and fp16)
 *                          into $TRITONC_CACHE_DIR
 *   build/cache_hit steps  in a new process, as `hit`, but each piece on its
 *                          own with the page faults it took: the driver calls
 *                          cuda_init makes (dlopen, dlsym, cuInit...), then
 *                          cuda_init itself, the key (twice: cold, warm),
 *                          the entry file's read, the entry's load
 *   build/cache_hit hit    in a new process: makes the primary context
 *                          current as PyTorch would, then times cuda_init,
 *                          the key, the entry's load (meta file, cubin,
 *                          cuModuleLoadData, cuModuleGetFunction), a whole
 *                          second tc_compile hit of another kernel, and the
 *                          driver's own cuModuleLoadData on the same bytes.
 *
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/gpu/cache_hit.c \
 *      build/libtritonc.a -o build/cache_hit -lm -ldl -lpthread
 */
#include "driver/compile.h"
#include "driver/source_cache.h"
#include "target/ptx/cuda_runtime.h"
#include "target/ptx/gpu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static long minor_faults(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_minflt;
}

/* One piece's time and page faults, printed as `name us (faults)`. */
#define PIECE(name, stmt)                                                          \
    do {                                                                           \
        long f0_ = minor_faults();                                                 \
        double t0_ = now_us();                                                     \
        stmt;                                                                      \
        double t1_ = now_us();                                                     \
        printf("%s %.1f us (%ld faults) | ", name, t1_ - t0_, minor_faults() - f0_); \
    } while (0)

/* The calls cuda_load (cuda_runtime.c) makes, each timed, in a process
 * where they have not run yet. */
static void driver_steps(void) {
    static const char *const syms[] = {
        "cuInit", "cuDeviceGet", "cuDeviceGetAttribute", "cuDevicePrimaryCtxRetain", "cuCtxGetCurrent",
        "cuCtxSetCurrent", "cuCtxGetDevice", "cuModuleLoadData", "cuModuleUnload", "cuModuleGetFunction",
        "cuFuncSetAttribute", "cuFuncGetAttribute", "cuLaunchKernel", "cuGetErrorName", "cuGetErrorString",
        "cuLinkCreate_v2", "cuLinkAddData_v2", "cuLinkComplete", "cuLinkDestroy"};
    void *h = NULL, *f[sizeof syms / sizeof syms[0]];
    int (*init)(unsigned) = NULL, (*getcur)(void **) = NULL, (*getdev)(int *) = NULL;
    int (*attr)(int *, int, int) = NULL, (*retain)(void **, int) = NULL;
    void *ctx = NULL, *pctx = NULL;
    int dev = 0, major = 0;
    PIECE("dlopen", h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL));
    PIECE("19 dlsym", for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) f[i] = dlsym(h, syms[i]));
    *(void **)&init = f[0];
    *(void **)&attr = f[2];
    *(void **)&retain = f[3];
    *(void **)&getcur = f[4];
    *(void **)&getdev = f[6];
    PIECE("cuInit", init(0));
    PIECE("cuCtxGetCurrent", getcur(&ctx));
    PIECE("cuCtxGetDevice", getdev(&dev));
    PIECE("2 attributes", attr(&major, 75, dev); attr(&major, 76, dev));
    PIECE("cuDevicePrimaryCtxRetain", retain(&pctx, dev));
    printf("\n");
}

static char *read_all(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    *n = fread(buf, 1, (size_t)len, f);
    fclose(f);
    buf[*n] = 0;
    return buf;
}

static tc_compile_options request(const char *src, size_t len, const char *sig, const char *block) {
    static tc_constexpr cx[2];
    tc_compile_options o = tc_compile_options_default();
    o.source = src;
    o.source_len = len;
    o.filename = "vector_add.py";
    o.kernel = "add_kernel";
    o.signature = sig;
    cx[0] = (tc_constexpr){"BLOCK", block};
    o.constexprs = cx;
    o.num_constexprs = 1;
    o.device = TC_DEVICE_CUDA;
    return o;
}

int main(int argc, char **argv) {
    if (argc < 2) return fprintf(stderr, "usage: cache_hit fill|hit|steps\n"), 2;
    size_t len = 0;
    char *src = read_all("tests/kernels/vector_add.py", &len);
    if (!src) return fprintf(stderr, "run from the repository root\n"), 1;
    const char *sig32 = "*fp32:16,*fp32:16,*fp32:16,i32", *sig16 = "*fp16:16,*fp16:16,*fp16:16,i32:16";
    tc_kernel *k;
    tc_error *err;
    if (strcmp(argv[1], "fill") == 0) {
        tc_compile_options a = request(src, len, sig32, "1024"), b = request(src, len, sig16, "2048");
        if (tc_compile(&a, &k, &err) || tc_compile(&b, &k, &err))
            return fprintf(stderr, "%s\n", tc_error_message(err)), 1;
        printf("filled\n");
        return 0;
    }
    /* the process as PyTorch leaves it: CUDA initialised, the primary context current */
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
    int (*retain)(void **, int) = (int (*)(void **, int))dlsym(h, "cuDevicePrimaryCtxRetain");
    int (*setcur)(void *) = (int (*)(void *))dlsym(h, "cuCtxSetCurrent");
    void *ctx;
    if (!init || init(0) || retain(&ctx, 0) || setcur(ctx)) return fprintf(stderr, "no CUDA\n"), 1;

    tc_compile_options a = request(src, len, sig32, "1024"), b = request(src, len, sig16, "2048");
    if (strcmp(argv[1], "steps") == 0) {
        driver_steps();
        bool ok = false, hit = false;
        SrcCacheKey key;
        Compilation c;
        char *meta = NULL;
        size_t n = 0;
        PIECE("cuda_init", ok = gpu_available());
        PIECE("key (cold)", srccache_key(&a, &key));
        srccache_key_free(&key);
        PIECE("key (warm)", srccache_key(&a, &key));
        StrBuf path = {0};
        sb_printf(&path, "%s/%s.meta", key.root, key.hex);
        PIECE("read the entry", meta = read_file(path.data, &n));
        compilation_init(&c);
        c.device = TC_DEVICE_CUDA;
        c.kernel = "add_kernel";
        PIECE("srccache_load", hit = srccache_load(&c, &key));
        printf("\n%s, %s, %zu-byte entry\n", ok ? "CUDA" : "no CUDA", hit ? "hit" : "MISS", n);
        sb_free(&path);
        tc_free(meta);
        srccache_key_free(&key);
        compilation_free(&c);
        return 0;
    }
    double t0 = now_us();
    bool ok = gpu_available(); /* cuda_init: dlopen, dlsym, cuInit, the primary context */
    double t1 = now_us();
    SrcCacheKey key;
    srccache_key(&a, &key);
    double t2 = now_us();
    Compilation c;
    compilation_init(&c);
    c.device = TC_DEVICE_CUDA;
    c.kernel = "add_kernel";
    bool hit = srccache_load(&c, &key);
    double t3 = now_us();
    int rc = tc_compile(&b, &k, &err);
    double t4 = now_us();
    printf("cuda_init %.0f us (%s) | key %.0f us | entry load %.0f us (%s) | a second kernel's whole "
           "tc_compile hit %.0f us (%s, from cache %d)\n",
           t1 - t0, ok ? "ok" : "no GPU", t2 - t1, t3 - t2, hit ? "hit" : "MISS", t4 - t3, rc ? "failed" : "ok",
           rc ? 0 : tc_kernel_from_cache(k));
    /* the driver alone on the same cubin, now that one module is loaded */
    size_t n;
    const void *cubin = c.gpu ? gpu_kernel_cubin(c.gpu, &n) : NULL;
    if (cubin) {
        CUmodule m;
        CUfunction f;
        double d0 = now_us();
        int r1 = cuda.cuModuleLoadData(&m, cubin);
        double d1 = now_us();
        int r2 = cuda.cuModuleGetFunction(&f, m, "add_kernel");
        double d2 = now_us();
        printf("driver on the same cubin again: cuModuleLoadData %.0f us (rc %d), cuModuleGetFunction %.0f us (rc %d)\n",
               d1 - d0, r1, d2 - d1, r2);
    }
    srccache_key_free(&key);
    compilation_free(&c);
    return 0;
}
