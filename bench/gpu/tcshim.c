/*
 * tcshim.c - a tiny C ABI over the GPU backend for bench/gpu/vs_triton.py
 * (ctypes), until the Python binding lands. Builds the anchor kernels of
 * tests/unit/ptx_kernels.h and launches them.
 *
 *   cc -O2 -shared -fPIC -Isrc -Itests/unit bench/gpu/tcshim.c \
 *      build/libtritonc.a -o build/tcshim.so -lm -ldl -lpthread
 */
#include "ptx_stubs.h"
#include "ptx_kernels.h"
#include "target/ptx/gpu.h"

#include <stdio.h>
#include <string.h>

static char last_error[4096];

static void keep_errors(DiagEngine *de) {
    StrBuf sb = {0};
    diag_render(de, &sb, false);
    snprintf(last_error, sizeof last_error, "%s", sb_cstr(&sb));
    sb_free(&sb);
}

const char *tc_last_error(void) { return last_error; }

/* times: [IR build + layouts + PTX ms, cubin ms (ptxas or cache), total ms] */
void *tc_build(const char *kernel, int block, int num_warps, int sm, int aligned, int no_cache, double *times) {
    double t0 = now_seconds();
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    pk_aligned = aligned != 0;
    Op *m = NULL;
    if (!strcmp(kernel, "add")) m = pk_add(c, block);
    else if (!strcmp(kernel, "softmax")) m = pk_softmax(c, block);
    else if (!strcmp(kernel, "layernorm")) m = pk_layernorm(c, block);
    else if (!strcmp(kernel, "matmul")) m = pk_matmul(c, block, block, 16);
    else if (!strcmp(kernel, "atomic_sum")) m = pk_atomic_sum(c, block);
    GpuKernel *k = NULL;
    if (m) {
        GpuOptions o = {.num_warps = num_warps, .sm = sm, .no_cache = no_cache != 0};
        k = gpu_kernel_build(c, m, NULL, &o, &de);
    } else {
        diag_error(&de, (Loc){0}, "unknown kernel %s", kernel);
    }
    if (!k) keep_errors(&de);
    if (k && times) {
        gpu_kernel_build_times(k, &times[0], &times[1]);
        times[2] = (now_seconds() - t0) * 1e3;
    }
    ctx_free(c);
    diag_free(&de);
    return k;
}

void *tc_load_cached(const char *key) {
    DiagEngine de;
    diag_init(&de);
    GpuKernel *k = gpu_kernel_load_cached(key, &de);
    if (!k) keep_errors(&de);
    diag_free(&de);
    return k;
}

int tc_launch(void *k, int gx, int gy, int gz, void **args, void *stream) {
    DiagEngine de;
    diag_init(&de);
    int grid[3] = {gx, gy, gz};
    bool ok = gpu_kernel_launch(k, grid, args, stream, &de);
    if (!ok) keep_errors(&de);
    diag_free(&de);
    return ok ? 0 : 1;
}

const char *tc_ptx(void *k) { return gpu_kernel_ptx(k); }
const char *tc_key(void *k) { return gpu_kernel_key(k); }
int tc_smem(void *k) { return gpu_kernel_shared_bytes(k); }
void tc_kernel_free(void *k) { gpu_kernel_free(k); }
