/*
 * sema.h - the Triton front end's semantic analysis and code generation:
 * the Python AST of @triton.jit kernels in, tt IR out, with Triton 3.6's
 * semantics (python/triton/compiler/code_generator.py, language/semantic.py,
 * language/core.py, language/standard.py and language/random.py).
 *
 *   tltype.c     Triton's dtypes (int1..uint64, fp8..fp64, pointers, blocks),
 *                their IR types, names and mangling
 *   constexpr.c  compile-time values with Python's arithmetic
 *   semantic.c   promotion, broadcasting, casts and op builders (semantic.py)
 *   builtins.c   the tl.* table: one row per builtin, its parameters and its
 *                implementation (core.py, standard.py, math.py, random.py)
 *   codegen.c    the AST visitor: scopes, control flow, calls of @jit helpers
 *   specialize.c signature strings ("*fp32:16,i32:1,...") and constexpr values
 *
 * Usage:
 *     KernelSpec spec = {.kernel = "add_kernel",
 *                        .signature = "*fp32:16,*fp32:16,*fp32:16,i32",
 *                        .constexpr_names = names, .constexpr_values = vals,
 *                        .nconstexprs = 1, .num_warps = 4, .num_stages = 3};
 *     Op *module = sema_codegen(ctx, de, pymod, &spec);
 *
 * The module holds the kernel as `tt.func public` and every @jit helper it
 * calls as a `tt.func private` (called with tt.call); run the inliner to fold
 * them. Errors are reported to `de` as `file:line:col: error: ...` at the
 * offending AST node; several are collected per run where that is cheap.
 */
#ifndef TC_SEMA_H
#define TC_SEMA_H

#include "front/py/ast.h"
#include "ir/ir.h"

typedef struct ConstexprValue {
    enum { CV_INT, CV_FLOAT, CV_BOOL, CV_STR, CV_NONE, CV_DTYPE, CV_TUPLE, CV_FUNC } kind;
    int64_t i;     /* CV_INT, CV_BOOL; CV_TUPLE: the number of elements */
    bool u64;      /* CV_INT: i is the bit pattern of a value in [2^63, 2^64), which Triton types uint64 */
    double f;      /* CV_FLOAT */
    const char *s; /* CV_STR: the string; CV_DTYPE: its Triton name ("fp16"); CV_FUNC: the @jit function's name */
    const struct ConstexprValue *elems; /* CV_TUPLE */
} ConstexprValue;

typedef struct KernelSpec {
    const char *kernel;    /* the @jit function's name */
    /* One entry per parameter that is not a constexpr, in order: "*fp32",
     * "i32", ... with an optional hint ":16" (divisible by 16: becomes
     * tt.divisibility = 16 on the argument) or ":1" (an integer equal to 1:
     * specialised away as the constant 1, as Triton does). */
    const char *signature;
    const char *const *constexpr_names; /* from -D NAME=VALUE */
    const ConstexprValue *constexpr_values;
    int nconstexprs;
    int num_warps, num_stages; /* not recorded in tt IR: Triton's TTIR module
                                  has no attributes (ttg conversion adds them) */
    bool debug;                /* keep device asserts (tt.assert), as Triton's debug mode */
    int target_sm;             /* what tl.target_info sees: 0 the CPU, else the CUDA sm built for (80, 90) */
} KernelSpec;

/* Generates tt IR for the kernel and every @jit helper it calls. Returns the
 * module op (not verified), or NULL with the errors in de. The names in mod
 * must be interned in ctx->strings (py_parse(..., &ctx->strings, ...)):
 * sema tells names apart by address. */
Op *sema_codegen(Context *ctx, DiagEngine *de, const PyModule *mod, const KernelSpec *spec);

/* Parses a -D value: "1024", "-3", "0x10", "0.5", "1e-5", "float('inf')",
 * "True", "False", "None", "'leaky_relu'" / "\"x\"" (or a bare word: a
 * string), "tl.float16" / "float16" / "fp16" (a dtype), "@name" (the @jit
 * function `name` of the source: Triton passes a JITFunction argument as a
 * constexpr), and tuples of these
 * ("(1, 2)", "(3,)", "()", also in brackets). A CV_STR is copied into `arena` (it lives
 * as long as the arena); a CV_DTYPE name is static. Returns false if it is
 * none of these, with *why (when why is not NULL) set to the reason where
 * there is one beyond that: an integer past 64 bits, "010". */
bool sema_parse_constexpr(Arena *arena, const char *text, ConstexprValue *out, const char **why);

#endif
