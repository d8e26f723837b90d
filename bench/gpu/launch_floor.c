/*
 * launch_floor.c - the host cost of one kernel launch with no Python in the
 * way: tc_launch from C, and the driver's own cuLaunchKernel on the same
 * CUfunction, with its arguments as kernelParams (an array of pointers) and
 * as one packed buffer (`extra` = CU_LAUNCH_PARAM_BUFFER_POINTER), each on
 * the legacy default stream and on a created non-blocking stream.
 *
 * The kernel is a 1-program vector add (1024 fp32). Launches go in bursts of
 * 200 between synchronisations, so the GPU's launch queue never fills and
 * the figure is host time; 30 bursts, the median and the minimum per launch.
 * What tc_launch costs above the raw kernelParams row is tritonc's own
 * overhead; the raw rows are the floor any binding can reach.
 *
 *   cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/gpu/launch_floor.c \
 *      build/libtritonc.a -o build/launch_floor -lm -ldl -lpthread
 *   build/launch_floor
 *
 * Built with -DLAUNCH_FLOOR_LIB -shared it is a library instead, for
 * launch_profile.py to run the same loops inside a Python process (with and
 * without torch): launch_floor_setup() compiles and allocates,
 * launch_floor_run() prints the table, launch_floor_one(how) is one launch
 * (0 tc_launch, 1 raw kernelParams, 2 raw extra; default stream), for a
 * Python loop around it. LAUNCH_FLOOR_THRASH_KB=K reads K KB of memory
 * between launches (its cost measured alone and subtracted), to see what a
 * cold cache costs the driver's launch path.
 */
#include "driver/compile.h"
#include "target/ptx/gpu.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)\n";

typedef int (*MemAllocFn)(unsigned long long *, size_t);
typedef int (*StreamCreateFn)(void **, unsigned);
typedef int (*SyncFn)(void);
typedef int (*StreamSyncFn)(void *);
typedef int (*LaunchFn)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        void *, void **, void **);

static LaunchFn launch;
static SyncFn ctx_sync;
static void *func, *stream;
static tc_kernel *kern;
static unsigned long long x, y, out;
static int n = 1024;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int cmp(const void *a, const void *b) {
    double p = *(const double *)a, q = *(const double *)b;
    return p < q ? -1 : p > q;
}

enum { TC_LAUNCH, RAW_PARAMS, RAW_EXTRA };

static int one(int how, void *s) {
    static void *args[4] = {&x, &y, &out, &n};
    static const int grid[3] = {1, 1, 1};
    if (how < TC_LAUNCH || how > RAW_EXTRA) return 0; /* an empty call, for the caller's own cost */
    if (how == TC_LAUNCH) return tc_launch(kern, grid, args, 4, s, NULL);
    if (how == RAW_PARAMS) return launch(func, 1, 1, 1, 128, 1, 1, 0, s, args, NULL);
    /* the packed form: x, y, out (8 bytes each), n (4), as the ABI lays them out */
    static struct { unsigned long long x, y, out; int n; } buf;
    static size_t size = offsetof(__typeof__(buf), n) + sizeof(int); /* the params' exact size */
    static void *extra[] = {(void *)1, &buf, (void *)2, &size, (void *)0};
    buf.x = x, buf.y = y, buf.out = out, buf.n = n;
    return launch(func, 1, 1, 1, 128, 1, 1, 0, s, NULL, extra);
}

static unsigned char *thrash_buf;
static size_t thrash_len;
static volatile unsigned thrash_sink;

static void thrash(void) {
    unsigned acc = 0;
    for (size_t i = 0; i < thrash_len; i += 64) acc += thrash_buf[i];
    thrash_sink += acc;
}

/* Per-launch host time: the median and minimum over REPS bursts; 0 when
 * every launch went, else 1 (the failure printed). */
static int bursts(const char *what, int how, void *s, double *med, double *min) {
    enum { BURST = 200, REPS = 30 };
    double t[REPS], th[REPS];
    for (int w = 0; w < 50; w++) one(how, s);
    ctx_sync();
    for (int r = 0; r < REPS; r++) {
        ctx_sync();
        double t0 = now_us();
        for (int i = 0; i < BURST; i++) {
            if (one(how, s) != 0) {
                printf("%s: launch failed\n", what);
                return 1;
            }
            if (thrash_len) thrash();
        }
        t[r] = (now_us() - t0) / BURST;
        t0 = now_us();
        for (int i = 0; i < BURST && thrash_len; i++) thrash();
        th[r] = (now_us() - t0) / BURST;
    }
    ctx_sync();
    qsort(t, REPS, sizeof *t, cmp);
    qsort(th, REPS, sizeof *th, cmp);
    *med = t[REPS / 2] - th[REPS / 2];
    *min = t[0] - th[0];
    return 0;
}

static void measure(const char *what, int how, void *s) {
    double med, min;
    if (bursts(what, how, s, &med, &min)) return;
    if (thrash_len)
        printf("%-48s median %6.2f us  min %6.2f us  (after %zu KB read, subtracted)\n", what, med, min,
               thrash_len >> 10);
    else
        printf("%-48s median %6.2f us  min %6.2f us\n", what, med, min);
}

/* The median per-launch time of `how` on the default stream, from a C loop
 * (for launch_profile.py's processes to measure their own floor); -1 on a
 * failed launch. */
double launch_floor_median(int how);
double launch_floor_median(int how) {
    double med, min;
    return bursts("floor", how, NULL, &med, &min) ? -1 : med;
}

int launch_floor_setup(void);
int launch_floor_run(void);
int launch_floor_one(int how);
int launch_floor_one(int how) { return one(how, NULL); }

#ifndef LAUNCH_FLOOR_LIB
int main(void) {
    if (launch_floor_setup() != 0) return 1;
    return launch_floor_run();
}
#endif

static Compilation fc;

int launch_floor_setup(void) {
    const char *kb = getenv("LAUNCH_FLOOR_THRASH_KB");
    if (kb && atoi(kb) > 0) {
        thrash_len = (size_t)atoi(kb) << 10;
        thrash_buf = calloc(thrash_len, 1);
    }
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!h) return fprintf(stderr, "no libcuda\n"), 1;
    tc_compile_options o = tc_compile_options_default();
    o.source = SRC;
    o.filename = "launch_floor.py";
    o.kernel = "add_kernel";
    o.signature = "*fp32:16,*fp32:16,*fp32:16,i32:16";
    tc_constexpr cx[] = {{"BLOCK", "1024"}};
    o.constexprs = cx;
    o.num_constexprs = 1;
    o.device = TC_DEVICE_CUDA;
    tc_error *err;
    if (tc_compile(&o, &kern, &err) != 0) return fprintf(stderr, "%s\n", tc_error_message(err)), 1;
    /* the same kernel through the pipeline directly, for its CUfunction */
    Compilation *c = &fc;
    compilation_init(c);
    CompileRequest req = {.opts = o, .stop_after = STAGE_LOADED};
    if (!compile_run(c, &req) || !c->gpu || !(func = gpu_kernel_cufunction(c->gpu)))
        return fprintf(stderr, "no CUfunction (no GPU?)\n"), 1;
    launch = (LaunchFn)(uintptr_t)dlsym(h, "cuLaunchKernel");
    ctx_sync = (SyncFn)(uintptr_t)dlsym(h, "cuCtxSynchronize");
    MemAllocFn alloc = (MemAllocFn)(uintptr_t)dlsym(h, "cuMemAlloc_v2");
    StreamCreateFn screate = (StreamCreateFn)(uintptr_t)dlsym(h, "cuStreamCreate");
    if (!launch || !ctx_sync || !alloc || !screate) return fprintf(stderr, "missing driver entry points\n"), 1;
    if (alloc(&x, 4096) || alloc(&y, 4096) || alloc(&out, 4096)) return fprintf(stderr, "cuMemAlloc failed\n"), 1;
    if (screate(&stream, 1 /* CU_STREAM_NON_BLOCKING */)) return fprintf(stderr, "cuStreamCreate failed\n"), 1;
    return 0;
}

int launch_floor_run(void) {
    measure("tc_launch, legacy default stream", TC_LAUNCH, NULL);
    measure("tc_launch, non-blocking stream", TC_LAUNCH, stream);
    measure("cuLaunchKernel kernelParams, default stream", RAW_PARAMS, NULL);
    measure("cuLaunchKernel kernelParams, non-blocking", RAW_PARAMS, stream);
    measure("cuLaunchKernel extra (buffer), default stream", RAW_EXTRA, NULL);
    measure("cuLaunchKernel extra (buffer), non-blocking", RAW_EXTRA, stream);
    return 0;
}
