/*
 * compile.c - the .tri pipeline in one function (tri_compile), top to bottom:
 *
 *   parse -> check -> lower to nn IR -> passes -> emit PyTorch -> validate
 *
 * Everything one compilation makes lives in two arenas (the AST's and the
 * IR context's) freed before returning; only the requested outputs survive,
 * as heap strings in the result.
 *
 * The default pass pipeline, and what each pass stands for in the report
 * ("optimizations applied" in --emit json):
 *
 *   dce              dead code elimination (lets nobody reads)
 *   canonicalize     constant folding (nn folders in dialect/nn.c, arith's
 *                    in fold.c), with constants hoisted and uniqued
 *   nn-quant-fusion  quantization fusion (transform/nn_quant_fusion.c)
 *   cse              common subexpression elimination (e.g. repeated reads
 *                    of one weight)
 *   dce              what the rewrites left dead
 *
 * Each entry reports the pass's rewrite count and, per op name, how many
 * ops it removed and added; nn-quant-fusion also names its two rewrites.
 *
 * The generated code is re-read by tritonc's own Python parser (py_parse)
 * before it is returned: a syntax error there is a compiler bug, reported
 * as an internal error instead of writing a broken file.
 */
#include "target/torch/torch.h"

#include "front/py/py.h"
#include "front/tri/tri_lower.h"
#include "transform/nn_passes.h"

#include <string.h>

static const struct {
    const char *pass, *description;
} default_pipeline[] = {
    {"dce", "dead code elimination"},
    {"canonicalize", "constant folding"},
    {"nn-quant-fusion", "quantization fusion"},
    {"cse", "common subexpression elimination"},
    {"dce", "dead code elimination"},
};

static void json_string(StrBuf *out, const char *s) {
    sb_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        switch (*p) {
        case '"': sb_puts(out, "\\\""); break;
        case '\\': sb_puts(out, "\\\\"); break;
        case '\n': sb_puts(out, "\\n"); break;
        case '\t': sb_puts(out, "\\t"); break;
        case '\r': sb_puts(out, "\\r"); break;
        default:
            if (*p < 0x20) sb_printf(out, "\\u%04x", *p);
            else sb_putc(out, (char)*p);
        }
    }
    sb_putc(out, '"');
}

static void count_op(Op *op, void *ud) { ((int *)ud)[op->kind]++; }

/* {"op": n, ...} for the kinds whose count went down (removed) or up. */
static void count_diff(StrBuf *out, const int *before, const int *after, bool removed) {
    sb_putc(out, '{');
    int n = 0;
    for (int k = 0; k < OP_COUNT; k++) {
        int d = removed ? before[k] - after[k] : after[k] - before[k];
        if (d > 0) sb_printf(out, "%s\"%s\": %d", n++ ? ", " : "", op_info[k].name, d);
    }
    sb_putc(out, '}');
}

/* Runs the default pipeline, reporting each pass to `report` (a JSON array)
 * when it is not NULL. */
static bool run_default_pipeline(Op *module, PassContext *pc, StrBuf *report) {
    int *before = report ? tc_calloc(OP_COUNT, sizeof(int)) : NULL;
    int *after = report ? tc_calloc(OP_COUNT, sizeof(int)) : NULL;
    bool ok = true;
    if (report) sb_putc(report, '[');
    for (int i = 0; i < TC_ARRAY_LEN(default_pipeline) && ok; i++) {
        const PassInfo *pi = pass_lookup(default_pipeline[i].pass);
        NnFusionStats fs = {0};
        int changes = pc->changes;
        if (report) {
            memset(before, 0, sizeof(int) * OP_COUNT);
            op_walk(module, count_op, before, false);
        }
        ok = strcmp(pi->name, "nn-quant-fusion") == 0 ? nn_quant_fusion_run(module, pc, &fs) : pi->run(module, pc);
        if (!report) continue;
        memset(after, 0, sizeof(int) * OP_COUNT);
        op_walk(module, count_op, after, false);
        sb_printf(report, "%s{\"pass\": \"%s\", \"description\": \"%s\", \"rewrites\": %d, \"ops_removed\": ",
                  i ? ", " : "", pi->name, default_pipeline[i].description, pc->changes - changes);
        count_diff(report, before, after, true);
        sb_puts(report, ", \"ops_added\": ");
        count_diff(report, before, after, false);
        if (strcmp(pi->name, "nn-quant-fusion") == 0)
            sb_printf(report,
                      ", \"details\": {\"dequantize(quantize(x)) -> fake_quantize(x)\": %d, "
                      "\"quantize_ternary(dequantize(q)) -> q\": %d}",
                      fs.fused_pairs, fs.requantize_of_dequantize);
        sb_putc(report, '}');
    }
    if (report) sb_putc(report, ']');
    tc_free(before);
    tc_free(after);
    return ok;
}

/* Re-reads generated Python with tritonc's parser; a failure is our bug. */
static bool validate_python(const char *what, const char *code, DiagEngine *de) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine pde;
    diag_init(&pde);
    py_parse(a, &in, &pde, what, code, strlen(code));
    bool ok = !diag_has_errors(&pde);
    if (!ok) {
        StrBuf sb = {0};
        diag_render(&pde, &sb, false);
        diag_error(de, (Loc){0}, "internal error: the generated Python does not parse:\n%s", sb_cstr(&sb));
        sb_free(&sb);
    }
    diag_free(&pde);
    interner_free(&in);
    arena_free(a);
    return ok;
}

void tri_compile_result_free(TriCompileResult *r) {
    tc_free(r->code);
    tc_free(r->nnir);
    tc_free(r->json);
    tc_free(r->ast);
    memset(r, 0, sizeof *r);
}

bool tri_compile(const char *filename, const char *src, size_t len, const char *emit, TriCompileResult *out,
                 DiagEngine *de) {
    return tri_compile_with(filename, src, len, emit, NULL, out, de);
}

bool tri_compile_with(const char *filename, const char *src, size_t len, const char *emit, const char *pipeline,
                      TriCompileResult *out, DiagEngine *de) {
    memset(out, 0, sizeof *out);
    if (!emit) emit = "torch";
    bool want_torch = strcmp(emit, "torch") == 0, want_json = strcmp(emit, "json") == 0;
    bool want_ir = strcmp(emit, "nnir") == 0 || want_json, want_ast = strcmp(emit, "ast") == 0;
    if (!want_torch && !want_ir && !want_ast) {
        diag_error(de, (Loc){0}, "unknown output '%s' for a .tri program (torch, nnir, json, ast)", emit);
        return false;
    }
    if (!filename) filename = "<source>";
    Arena *arena = arena_new();
    Interner in;
    interner_init(&in, arena);
    TriProgram *prog = tri_parse(arena, &in, de, filename, src, len);
    bool ok = !diag_has_errors(de);
    ok = tri_check(prog, de) && ok;
    if (want_ast) {
        StrBuf sb = {0};
        tri_ast_dump(prog, &sb);
        out->ast = sb_take(&sb);
    }
    Context *ctx = NULL;
    if (ok && !want_ast) {
        ctx = ctx_new(de);
        Op *m = tri_lower(prog, ctx, de);
        ok = m != NULL;
        StrBuf report = {0};
        PassContext pc = {.ctx = ctx, .de = de};
        if (ok && pipeline && *pipeline && strcmp(pipeline, "default") != 0)
            ok = pass_pipeline_run(m, pipeline, &pc, NULL);
        else if (ok && !pipeline) ok = run_default_pipeline(m, &pc, want_json ? &report : NULL);
        else if (ok && pipeline && strcmp(pipeline, "default") == 0)
            ok = run_default_pipeline(m, &pc, want_json ? &report : NULL);
        ok = ok && ir_verify(m, de);
        if (ok && want_ir) {
            StrBuf sb = {0};
            ir_print(m, &sb, &(PrintOptions){0});
            out->nnir = sb_take(&sb);
        }
        TorchEmitInfo info = {{0}, {0}};
        if (ok && (want_torch || want_json)) {
            out->code = tri_emit_torch(ctx, m, filename, want_json ? &info : NULL, de);
            ok = out->code && validate_python("<generated>", out->code, de);
            out->runtime = tri_torch_runtime();
        }
        if (ok && want_json) {
            StrBuf j = {0};
            const char *base = strrchr(filename, '/');
            sb_puts(&j, "{\n  \"source\": ");
            json_string(&j, base ? base + 1 : filename);
            sb_puts(&j, ",\n  \"runtime_module\": \"" TRI_TORCH_RUNTIME_MODULE "\",\n  \"code\": ");
            json_string(&j, out->code);
            sb_puts(&j, ",\n  \"ir\": ");
            json_string(&j, out->nnir);
            sb_printf(&j, ",\n  \"optimizations_applied\": %s", report.len ? sb_cstr(&report) : "[]");
            sb_printf(&j, ",\n  \"imports\": [%s]", sb_cstr(&info.imports));
            sb_printf(&j, ",\n  \"functions\": %s\n}\n", info.functions.len ? sb_cstr(&info.functions) : "[]");
            out->json = sb_take(&j);
        }
        sb_free(&report);
        sb_free(&info.imports);
        sb_free(&info.functions);
    }
    out->memory_bytes = arena_bytes(arena) + (ctx ? arena_bytes(ctx->arena) : 0);
    if (out->code) out->memory_bytes += strlen(out->code) + 1;
    if (out->nnir) out->memory_bytes += strlen(out->nnir) + 1;
    if (out->json) out->memory_bytes += strlen(out->json) + 1;
    if (ctx) ctx_free(ctx);
    interner_free(&in);
    arena_free(arena);
    return ok && !diag_has_errors(de);
}
