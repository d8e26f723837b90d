/*
 * gpu.h - build and launch tritonc kernels on an NVIDIA GPU.
 *
 *   GpuKernel *k = gpu_kernel_build(ctx, module, "add_kernel", &opts, de);
 *   void *args[] = {&x, &y, &out, &n};          (pointers to each argument)
 *   gpu_kernel_launch(k, (int[3]){grid, 1, 1}, args, stream, de);
 *   gpu_kernel_free(k);
 *
 * Building runs ttg-assign-layouts on the module (in place), emits PTX and
 * assembles it (ptxas when it is installed, else the driver's JIT linker);
 * the cubin, the PTX and the ttgir are kept in the disk cache
 * ($TRITONC_CACHE_DIR, default ~/.cache/tritonc) under a key, with a JSON
 * metadata file; entries are written to a temporary folder and renamed.
 * gpu_kernel_load_cached() loads an entry by key without compiling.
 *
 * libcuda.so.1 is opened with dlopen on first use; kernels run in the
 * device's primary context (the one PyTorch uses) on the caller's stream.
 * Every CUDA error is reported with the kernel's name and the error's name.
 */
#ifndef TC_GPU_H
#define TC_GPU_H

#include "ir/ir.h"

typedef struct GpuOptions {
    int num_warps;         /* default 4 */
    int sm;                /* 80 or 90; 0: the current device's */
    int num_stages;        /* cp.async stages of dot k loops (pipeline-async-copy) */
    const char *cache_key; /* optional: key of the source + specialisation */
    const char *cache_dir; /* NULL: $TRITONC_CACHE_DIR, else ~/.cache/tritonc */
    bool no_cache;         /* neither read nor write the disk cache */
    bool keep_ttgir;       /* print the TTGIR (while ptxas runs) for gpu_kernel_ttgir and the cache */
} GpuOptions;

typedef struct GpuKernel GpuKernel;

GpuKernel *gpu_kernel_build(Context *c, Op *module, const char *kernel, const GpuOptions *o, DiagEngine *de);
GpuKernel *gpu_kernel_load_cached(const char *key, DiagEngine *de);
/* A kernel from a cubin already in memory (the source-keyed cache of the C
 * API, driver/source_cache.c): takes ownership of `cubin` (tc_malloc'd) and
 * loads it when there is a GPU. Returns NULL with diagnostics on failure
 * (the cubin is freed then too). */
GpuKernel *gpu_kernel_from_cubin(const char *name, void *cubin, size_t size, int num_warps,
                                 int shared_bytes, int sm, DiagEngine *de);
/* The assembled binary (NULL for none) and the sm it was assembled for. */
const void *gpu_kernel_cubin(const GpuKernel *k, size_t *size);
int gpu_kernel_sm(const GpuKernel *k);
/* The loaded CUfunction (NULL without a GPU), for benchmarks that call the
 * driver directly on the same function (bench/gpu/launch_floor.c). */
void *gpu_kernel_cufunction(const GpuKernel *k);
/* The sm a build for `requested` (80, 90; 0: the current device's) targets:
 * what gpu_kernel_build uses, so a cache key can name it before building. */
int gpu_resolve_sm(int requested);
const char *gpu_kernel_ptx(const GpuKernel *k);   /* NULL when loaded from cubin only */
const char *gpu_kernel_ttgir(const GpuKernel *k); /* NULL when unavailable */
const char *gpu_kernel_key(const GpuKernel *k);
const char *gpu_kernel_name(const GpuKernel *k);
int gpu_kernel_shared_bytes(const GpuKernel *k);
int gpu_kernel_num_warps(const GpuKernel *k);
/* Registers per thread and local (spill) bytes per thread of the loaded
 * function, as the driver reports them; -1 when it is not loaded (no GPU). */
int gpu_kernel_num_regs(const GpuKernel *k);
int gpu_kernel_local_bytes(const GpuKernel *k);
/* Timing of the last build, in milliseconds (IR -> PTX, PTX -> cubin). */
void gpu_kernel_build_times(const GpuKernel *k, double *ptx_ms, double *cubin_ms);
bool gpu_kernel_launch(GpuKernel *k, const int grid[3], void *const *args, void *stream, DiagEngine *de);
void gpu_kernel_free(GpuKernel *k);

/* True when libcuda could be opened and a device initialised. */
bool gpu_available(void);
/* gpu_available(), but only when the calling thread has a current CUDA
 * context already: never loads the driver or creates a context. */
bool gpu_attach_if_current(void);
/* Compute capability of the current device as 10 * major + minor (0: none). */
int gpu_device_sm(void);
/* Whether the PTX emitter contracts `a * b + c` into one fma, as Triton does
 * by default: TRITON_DEFAULT_FP_FUSION=0 (Triton's switch) turns it off. */
bool gpu_fp_fusion(void);

#endif
