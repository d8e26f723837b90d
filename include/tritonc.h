/*
 * tritonc.h - the public C API of tritonc, a Triton compiler written in C.
 *
 * Compile a Triton kernel (Python-syntax source of @triton.jit functions)
 * into a handle, inspect its IR at every stage, launch it over a grid on a
 * device, free it:
 *
 *     tc_compile_options o = tc_compile_options_default();
 *     o.source = src; o.filename = "add.py"; o.kernel = "add_kernel";
 *     o.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
 *     tc_constexpr cx[] = {{"BLOCK", "1024"}};
 *     o.constexprs = cx; o.num_constexprs = 1;
 *     tc_kernel *k; tc_error *err;
 *     if (tc_compile(&o, &k, &err) != 0) { fputs(tc_error_message(err), stderr); tc_error_free(err); }
 *     void *args[] = {&x, &y, &out, &n};       // a pointer to each argument's value
 *     int grid[3] = {(n + 1023) / 1024, 1, 1};
 *     tc_launch(k, grid, args, 4, NULL, &err);
 *     tc_kernel_free(k);
 *
 * Errors. Every function that can fail returns 0 on success and non-zero
 * on failure; on failure *err (when err is not NULL) receives an error object
 * holding every diagnostic (file:line:col, message, the source line and a
 * caret, rendered as GCC and Clang do). The library never prints on its own
 * and never calls exit().
 *
 * Ownership. Handles and errors are owned by the caller and freed with
 * their _free function. Strings returned by the library (IR text, messages)
 * are owned by the object they came from and live as long as it does.
 *
 * Caching. tc_compile keeps every kernel it builds in a disk cache (the
 * folder `cache_dir`, else $TRITONC_CACHE_DIR, else $TRITON_CACHE_DIR, else $XDG_CACHE_HOME/tritonc,
 * else ~/.cache/tritonc), keyed by the request itself: the library's build
 * (version and a hash of its sources), the source text, kernel name,
 * signature, constexprs, device, num_warps, num_stages and the target (for
 * CUDA the sm; for the CPU the host's CPU and the C compiler's identity).
 * A later tc_compile of the same request, in any process, loads the stored
 * binary (a cubin; a shared object on the CPU) and the launch metadata
 * without running the front end or the passes (tc_kernel_from_cache says so).
 * Such a handle reads its stage texts from the cache entry on the first
 * tc_kernel_ir call. A compile keeps (and the entry stores) only the texts
 * on the way to the binary: "ttgir" and "ptx" on CUDA, "c" on the CPU;
 * tc_kernel_ir makes any other stage's text ("ttir", "ttir-raw", "ast") on
 * its first call by running the pipeline to that stage again, from a copy
 * of the request the handle keeps (a fraction of a compile). A damaged entry
 * (truncated, a checksum mismatch, a binary that does not load) is removed
 * and the kernel compiled again. Changing the library's sources, the
 * compiler or the CPU invalidates the entries; an environment variable read
 * at build time (TRITONC_PTXAS) does not: use another cache folder.
 *
 * Thread safety. Distinct handles may be used from different threads at
 * the same time; tc_compile may be called concurrently. One tc_kernel may be
 * launched from several threads at once (launches on the CPU device share a
 * process-wide thread pool and run one after the other). The on-disk cache
 * is safe to share between processes (entries are written atomically).
 */
#ifndef TRITONC_H
#define TRITONC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRITONC_VERSION_STRING "0.1.0"

typedef struct tc_kernel tc_kernel;
typedef struct tc_error tc_error;

/* A compile-time constant: the name of a tl.constexpr parameter and its
 * value written as Python would ("1024", "0.5", "True", "'leaky_relu'",
 * "tl.float16"). */
typedef struct tc_constexpr {
    const char *name;
    const char *value;
} tc_constexpr;

typedef enum tc_device_kind {
    TC_DEVICE_CPU = 0,
    TC_DEVICE_CUDA = 1,
} tc_device_kind;

typedef struct tc_compile_options {
    const char *source;      /* the kernel file's text (required) */
    size_t source_len;       /* 0: strlen(source) */
    const char *filename;    /* used in diagnostics (default "<source>") */
    const char *kernel;      /* the @jit function to compile (required) */
    /* One entry per non-constexpr parameter, in order, as Triton writes it:
     * "*fp32:16,*fp32:16,i32" (":16" divisible by 16, ":1" equal to 1). */
    const char *signature;
    const tc_constexpr *constexprs;
    int num_constexprs;
    tc_device_kind device;   /* where the kernel will run */
    const char *target;      /* "cpu", "cuda:80", "cuda:90"; NULL: the device's own */
    int num_warps;           /* GPU: warps per program (default 4) */
    int num_stages;          /* GPU: software pipelining depth (default 3) */
    const char *cache_dir;   /* NULL: $TRITONC_CACHE_DIR or ~/.cache/tritonc */
    int debug;               /* 1: keep tl.device_assert and `assert` statements (Triton's
                                debug=True / TRITON_DEBUG=1); 0: they are dropped */
} tc_compile_options;

tc_compile_options tc_compile_options_default(void);

int tc_compile(const tc_compile_options *opts, tc_kernel **out, tc_error **err);

/* The kernel's IR at a stage: "ttir" (after the front end and the default
 * passes), "ttir-raw" (before passes), "ast", "c" (CPU), "ttgir", "ptx"
 * (GPU). NULL if the stage does not exist for this kernel's device. A text
 * the compile did not keep is made on the first call (see Caching); on a
 * handle from the source-keyed cache the entry's texts are read first. */
const char *tc_kernel_ir(const tc_kernel *k, const char *stage);
/* The kernel's binary, as the device loads it: the cubin of a CUDA kernel
 * (Triton's `kernel.asm["cubin"]`), with its size in *size; NULL (and 0)
 * for a CPU kernel. It lives as long as k. */
const void *tc_kernel_binary(const tc_kernel *k, size_t *size);
/* 1 when tc_compile served this handle from the source-keyed disk cache
 * (no front end, no passes, no code generation ran), else 0. */
int tc_kernel_from_cache(const tc_kernel *k);
/* Process-wide counts of the source-keyed cache: handles served from it and
 * entries written to it (for tests and benchmarks; either may be NULL). */
void tc_cache_counts(long *hits, long *stores);
const char *tc_kernel_name(const tc_kernel *k);
/* Runtime parameters (what tc_launch takes), in order: their Triton type
 * strings ("*fp32", "i32", ...). Constexpr parameters are not included. */
int tc_kernel_num_params(const tc_kernel *k);
const char *tc_kernel_param_type(const tc_kernel *k, int i);
/* A property of the compiled kernel, as Triton's CompiledKernel reports it:
 * "shared" (bytes of shared memory), "num_regs" (registers per
 * thread) and "local_bytes" (spill memory per thread) of a loaded CUDA
 * kernel; 0 for the last three on the CPU. -1 for an unknown name, or a
 * CUDA kernel that is not loaded (no GPU). */
int tc_kernel_attribute(const tc_kernel *k, const char *name);
/* The notes and warnings of the compile that made k (tl.static_print's
 * output among them), one message a line without locations; "" when there
 * were none or k came from the source-keyed cache. */
const char *tc_kernel_messages(const tc_kernel *k);

/* Runs the kernel over grid[0] x grid[1] x grid[2] programs. args[i] points
 * at the value of runtime parameter i (for a pointer parameter: at the
 * pointer). `stream` is a CUstream for CUDA kernels (NULL: the default
 * stream) and ignored on the CPU. CPU launches return when every program has
 * finished; CUDA launches are asynchronous on the stream. */
int tc_launch(tc_kernel *k, const int grid[3], void *const *args, int nargs, void *stream,
              tc_error **err);

void tc_kernel_free(tc_kernel *k);

/* Errors. */
const char *tc_error_message(const tc_error *e); /* every diagnostic, rendered */
int tc_error_count(const tc_error *e);
/* The i-th diagnostic's parts; any out-pointer may be NULL. */
void tc_error_get(const tc_error *e, int i, const char **file, int *line, int *col,
                  const char **severity, const char **message);
void tc_error_free(tc_error *e);

const char *tc_version(void);

/* Attaches to the CUDA driver now when the calling thread already has a
 * current CUDA context (PyTorch's, once it has used the GPU), so that the
 * first CUDA compile or launch does not pay for it (tens of microseconds:
 * the driver's entry points, the device's figures, its primary context).
 * Never loads the driver or creates a context itself. 1 when attached. */
int tc_cuda_attach(void);

/* The names a Python source's top-level statements bind (defs, classes,
 * imports, assignment targets), as tritonc's front end parses them, less
 * those a top-level `if` or `try` binds too (which value such a name has
 * depends on how Python ran the module): what a kernel compiled from this
 * source sees as module globals for certain. Written to out
 * separated by '\n' and NUL-terminated when it fits in cap bytes; returns
 * the length needed (without the NUL), so a caller can retry with more. */
size_t tc_source_globals(const char *source, size_t len, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
