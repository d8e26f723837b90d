/*
 * compile.h - the whole pipeline for one kernel, in one place.
 *
 *   kernel.py --py_parse--> AST --sema_codegen--> tt IR (raw)
 *             --passes ("default")--> tt IR --cpu_kernel_build--> C, .so
 *                                           \--gpu_kernel_build--> ttgir, PTX, cubin
 *   file.ttir --ir_parse--> tt IR (raw) ... as above
 *
 * A Compilation owns everything one compile made (arena, IR, every stage's
 * text, the loaded kernel) and is freed in one call. Both the CLI and the C
 * API (api.c) drive compiles through compile_run.
 */
#ifndef TC_DRIVER_COMPILE_H
#define TC_DRIVER_COMPILE_H

#include "tritonc.h"
#include "ir/ir.h"

typedef enum Stage {
    STAGE_AST,
    STAGE_TTIR_RAW,
    STAGE_TTIR,
    STAGE_C,
    STAGE_TTGIR,
    STAGE_PTX,
    STAGE_LOADED, /* compiled and loaded, ready to launch */
    STAGE_COUNT
} Stage;

extern const char *const stage_names[STAGE_COUNT]; /* "ast", "ttir-raw", "ttir", ... */
Stage stage_lookup(const char *name);               /* STAGE_COUNT if unknown */

typedef struct Compilation {
    DiagEngine de;
    Arena *arena;
    Interner strings;
    Context *ctx;
    char *source;        /* owned copy of the input text */
    size_t source_len;
    const char *filename;
    const char *kernel;
    Op *module;
    char *text[STAGE_COUNT]; /* heap strings, NULL where not produced or not kept */
    double seconds[STAGE_COUNT];
    /* Runtime parameters, one per signature entry that is not a constexpr:
     * their Triton type strings. An entry specialised as equal to 1 (":1")
     * is still taken by tc_launch, but the kernel has no such parameter:
     * param_skip[i] marks it and the launch leaves it out. */
    const char **param_types;
    bool *param_skip;
    int nparams;
    tc_device_kind device;
    struct CpuKernel *cpu;
    struct GpuKernel *gpu;
} Compilation;

#define STAGE_BIT(s) (1u << (s))

typedef struct CompileRequest {
    tc_compile_options opts;
    const char *pipeline; /* NULL: "default" */
    Stage stop_after;     /* last stage to produce; its text is kept */
    unsigned keep_texts;  /* STAGE_BITs of the other stages whose text to keep */
    bool verify_each;     /* verify after every pass */
    bool keep_layouts;    /* TTGIR in: its layouts as written, no ttg_lower (PTX tests of chosen layouts) */
    const char *print_after;
    bool print_after_all, time_passes;
    StrBuf *dump, *timing;
} CompileRequest;

void compilation_init(Compilation *c);
void compilation_free(Compilation *c);
/* Runs the pipeline up to req->stop_after. Returns false with diagnostics
 * in c->de on any error. */
bool compile_run(Compilation *c, const CompileRequest *req);

#endif
