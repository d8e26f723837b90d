/*
 * torch.h - the PyTorch backend of .tri programs, and the whole .tri
 * pipeline behind one call.
 *
 *   model.tri --tri_parse--> AST --tri_check--> typed AST --tri_lower--> nn IR
 *             --passes (dce, canonicalize, nn-quant-fusion, cse, dce)--> nn IR
 *             --tri_emit_torch--> Python source --py_parse (validation)--> code
 *
 * The generated module imports its run-time support from a second file,
 * TRI_TORCH_RUNTIME_FILE, which the caller writes beside it (the text is
 * tri_torch_runtime()); it is the same text for every program.
 */
#ifndef TC_TARGET_TORCH_H
#define TC_TARGET_TORCH_H

#include "ir/ir.h"

#define TRI_TORCH_RUNTIME_MODULE "tritonc_tri_runtime"
#define TRI_TORCH_RUNTIME_FILE TRI_TORCH_RUNTIME_MODULE ".py"

typedef struct TriCompileResult {
    char *code;          /* "torch", "json": the generated Python module */
    const char *runtime; /* "torch", "json": the runtime module's text (static: not freed) */
    char *nnir;          /* "nnir", "json": the nn IR after the passes */
    char *json;          /* "json": code, IR, optimizations applied, imports, functions */
    char *ast;           /* "ast": the checked AST (S-expressions) */
    size_t memory_bytes; /* memory this compilation reserved (arenas and output) */
} TriCompileResult;

/* Compiles one .tri program. emit is "torch" (the default when NULL),
 * "nnir", "json" or "ast". Errors (with source line and caret once
 * rendered) go to de; returns false on any. The caller frees the result
 * with tri_compile_result_free, also after a failure. */
bool tri_compile(const char *filename, const char *src, size_t len, const char *emit,
                 TriCompileResult *out, DiagEngine *de);
void tri_compile_result_free(TriCompileResult *r);

/* The same, with the pass pipeline chosen: NULL or "default" is the one
 * above, "" runs no pass, otherwise a pass list as `tritonc opt -p` takes. */
bool tri_compile_with(const char *filename, const char *src, size_t len, const char *emit,
                      const char *pipeline, TriCompileResult *out, DiagEngine *de);

/* ---- the pieces ------------------------------------------------------------ */

/* What the emitter found worth reporting (JSON arrays, written by the
 * emitter; the caller owns the buffers). */
typedef struct TorchEmitInfo {
    StrBuf imports;   /* ["import torch", ...] */
    StrBuf functions; /* [{"name": ..., "kind": "class"|"function", ...}, ...] */
} TorchEmitInfo;

/* nn IR module -> Python source (PEP 8: 4 spaces, lines <= 99 columns, two
 * blank lines between top-level definitions, only the imports it uses).
 * `source` names the .tri file in the docstring; names the emitter makes
 * live in c (the module's context). Returns a heap string, or NULL with an
 * error in de for IR it cannot express. info may be NULL. */
char *tri_emit_torch(Context *c, Op *module, const char *source, TorchEmitInfo *info, DiagEngine *de);

/* The runtime module's source (pack_ternary, unpack_ternary, quantizers,
 * the STE and the TernaryModule base class). */
const char *tri_torch_runtime(void);

#endif
