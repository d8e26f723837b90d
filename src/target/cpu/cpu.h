/*
 * cpu.h - the CPU backend: tt IR -> C -> system C compiler -> shared object
 * loaded in-process -> the launch grid run on a thread pool.
 *
 * Three layers, usable separately:
 *
 *   cpu_emit_c()        tt IR module -> C source text (emit_c.c). Every public
 *                       tt.func becomes a C function over ONE program instance
 *                       plus an exported entry that runs a range of programs.
 *   cpu_kernel_build()  emit, then compile with $CC or reuse the on-disk cache,
 *                       then dlopen (cpu_runtime.c).
 *   cpu_kernel_launch() run the grid on the process-wide thread pool
 *                       (thread_pool.c).
 *
 * Ownership: a CpuKernel owns its C source and its dlopen handle; it does not
 * keep the IR (the module may be freed right after cpu_kernel_build).
 * Thread safety: building is thread-safe (different threads may build the
 * same or different kernels at once; so may different processes sharing a
 * cache folder). Launching is thread-safe: launches from several threads are
 * serialised on the pool. One CpuKernel may be launched from several threads.
 * Errors are returned as diagnostics; nothing is printed by the library
 * except the kernels' own tt.print output (to stderr, as a GPU would).
 */
#ifndef TC_TARGET_CPU_H
#define TC_TARGET_CPU_H

#include "ir/ir.h"

/* ---- tt -> C ------------------------------------------------------------ */

typedef struct CpuEmitOptions {
    bool no_comments;  /* omit the `// tt.op` comments (smaller text) */
    int reduce_lanes;  /* partial accumulators for reductions along the last
                          axis (a tree order, like a GPU's); 0 = default 16,
                          1 = strictly sequential order */
} CpuEmitOptions;

/* Appends the C translation of every tt.func in `module` to `out`. Public
 * funcs (no sym_visibility = "private") become kernels with an exported
 *   int tc_entry_<name>(void *const *args, const int32_t grid[3],
 *                       int64_t begin, int64_t end, char *err, size_t errcap)
 * that runs programs [begin, end) of the linearised grid (x fastest) and
 * returns nonzero (with a message in err) when a tt.assert failed.
 * Returns false (with diagnostics) on IR it cannot lower. `opts` may be NULL. */
bool cpu_emit_c(Op *module, const CpuEmitOptions *opts, StrBuf *out, DiagEngine *de);

/* The C symbol of a kernel's entry ("tc_entry_" + sanitised name), written
 * to buf (NUL-terminated, truncated to cap). */
void cpu_entry_symbol(const char *kernel_name, char *buf, size_t cap);

/* ---- build and load ----------------------------------------------------- */

typedef struct CpuBuildOptions {
    const char *cc;         /* C compiler; NULL: $CC, else "cc" */
    const char *cache_dir;  /* NULL: $TRITONC_CACHE_DIR, else $TRITON_CACHE_DIR, else $XDG_CACHE_HOME/tritonc,
                               else ~/.cache/tritonc */
    const char *extra_flags;/* appended to the compile flags (space separated) */
    bool no_cache;          /* compile in a private temporary folder, keep nothing */
    CpuEmitOptions emit;
} CpuBuildOptions;

typedef struct CpuKernel CpuKernel;

/* Emits C for `module`, compiles it (or reuses the cache entry keyed by the
 * source, the flags and the compiler's --version) and loads it. kernel_name
 * NULL picks the module's only public func. Returns NULL with diagnostics
 * (the C compiler's stderr attached as a note) on failure. `opts` may be NULL. */
CpuKernel *cpu_kernel_build(Op *module, const char *kernel_name, const CpuBuildOptions *opts,
                            DiagEngine *de);
/* Builds from C source text already emitted by cpu_emit_c. */
CpuKernel *cpu_kernel_build_source(const char *c_source, const char *kernel_name,
                                   int nparams, const CpuBuildOptions *opts, DiagEngine *de);
/* Loads a shared object built earlier (the source-keyed cache of the C API,
 * driver/source_cache.c) without compiling: dlopen, then the kernel's entry
 * and metadata symbols. Its C source is unknown (cpu_kernel_c_source: NULL). */
CpuKernel *cpu_kernel_load_so(const char *so_path, const char *kernel_name, DiagEngine *de);
/* What a CPU build depends on besides its C text, for cache keys that must
 * be computed without running anything: the CPU's model and feature flags
 * (-march=native) and the compiler's identity (the $CC text and the size,
 * mtime and inode of the program it names, found on $PATH; no --version run). */
const char *cpu_host_identity(void);
void cpu_compiler_identity(const char *cc, StrBuf *out);
const char *cpu_kernel_c_source(const CpuKernel *k);
const char *cpu_kernel_cache_path(const CpuKernel *k); /* the entry folder ("" if none) */
int cpu_kernel_num_params(const CpuKernel *k);

/* Runs the grid: grid[0] * grid[1] * grid[2] programs (x fastest). `args`
 * holds one pointer per kernel parameter (in tt.func signature order),
 * pointing at the value: for a !tt.ptr parameter at a void*, for i32 at an
 * int32_t, for i1 at a uint8_t, for f16/bf16 at a uint16_t bit pattern, and
 * so on. Returns when every program finished. A failed tt.assert makes it
 * return false with the message as a diagnostic (remaining programs may or
 * may not have run). */
bool cpu_kernel_launch(CpuKernel *k, const int grid[3], void *const *args, DiagEngine *de);
void cpu_kernel_free(CpuKernel *k);

/* ---- process-wide counters (tests and --stats) -------------------------- */

typedef struct CpuStats {
    long compiles;     /* C compiler invocations by this process */
    long cache_hits;   /* builds served from the disk cache */
    long launches;
    double compile_seconds;
} CpuStats;
CpuStats cpu_stats(void);

/* ---- the thread pool (thread_pool.c) ------------------------------------ */

/* Runs fn(ud, begin, end) over [0, n) in chunks on the pool; returns the
 * first nonzero value fn returned (0 when all returned 0). Chunks are handed
 * out from an atomic counter, ~max(1, n / (threads * 8)) programs each; once
 * a chunk fails no new chunk starts. frame_bytes is what the kernel's tiles
 * take on the stack (its metadata). A small frame (under 1 MiB, which fits
 * the caller's stack) lets the caller take chunks beside the workers, and
 * n == 1 then runs on the caller's thread alone. The pool's threads have
 * `CPU_POOL_STACK` bytes of stack; a frame too big for that runs on threads
 * started for this launch with a stack sized to it (a 65536-element
 * tl.sort unrolls into tens of MiB of tiles), and CPU_POOL_NO_STACK comes
 * back when not one of those could be started. */
#define CPU_POOL_STACK ((size_t)64 << 20)
#define CPU_POOL_NO_STACK (-1)
typedef int (*CpuRangeFn)(void *ud, int64_t begin, int64_t end);
int cpu_pool_run(int64_t n, CpuRangeFn fn, void *ud, int64_t frame_bytes);
int cpu_pool_num_threads(void); /* $TRITONC_NUM_THREADS, default the core count */

#endif
