/*
 * compile.c - drives one kernel through the pipeline (see compile.h): the
 * front end for the input's language, the pass pipeline, then the backend of
 * the requested device. Each stage's text is kept so any stage can be shown
 * (`--emit`) or read back by the IR parser.
 */
#include "driver/compile.h"

#include "front/py/py.h"
#include "sema/sema.h"
#include "target/cpu/cpu.h"
#include "target/ptx/gpu.h"
#include "target/ptx/ptx.h"
#include "transform/gpu/gpu_passes.h"
#include "transform/pass.h"

#include <stdio.h>
#include <string.h>

const char *const stage_names[STAGE_COUNT] = {"ast", "ttir-raw", "ttir", "c", "ttgir", "ptx",
                                              "loaded"};

Stage stage_lookup(const char *name) {
    for (int i = 0; i < STAGE_COUNT; i++)
        if (strcmp(stage_names[i], name) == 0) return (Stage)i;
    return STAGE_COUNT;
}

void compilation_init(Compilation *c) {
    memset(c, 0, sizeof *c);
    diag_init(&c->de);
    c->arena = arena_new();
    interner_init(&c->strings, c->arena);
}

void compilation_free(Compilation *c) {
    if (c->cpu) cpu_kernel_free(c->cpu);
    if (c->gpu) gpu_kernel_free(c->gpu);
    for (int i = 0; i < STAGE_COUNT; i++) tc_free(c->text[i]);
    ctx_free(c->ctx);
    interner_free(&c->strings);
    arena_free(c->arena);
    tc_free(c->source);
    diag_free(&c->de);
    memset(c, 0, sizeof *c);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Whether the request wants stage s's text: its last stage's always, the
 * others when asked for (printing the IR costs a tenth of a compile). */
static bool wants_text(const CompileRequest *req, Stage s) {
    return req->stop_after == s || (req->keep_texts & STAGE_BIT(s));
}

static void keep_text(Compilation *c, Stage s, Op *module) {
    StrBuf sb = {0};
    ir_print(module, &sb, &(PrintOptions){0});
    tc_free(c->text[s]);
    c->text[s] = sb_take(&sb);
}

/* "*fp32:16, *fp32:16,i32:1,constexpr" -> the runtime parameter types,
 * hints dropped; ":1" entries marked as specialised away. A host tensor
 * descriptor (`tensordesc<fp16[64, 64]>`) is one parameter: a pointer to
 * its fields (see sem_host_descriptor). A tuple `(*fp32:16,(i32,none))` is
 * its leaves, in order; a `none` or `cx:` leaf is not a parameter. */
static void split_signature(Compilation *c, const char *sig) {
    VEC(const char *) types = {0};
    VEC(bool) skip = {0};
    for (const char *p = sig; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == '(' || *p == ')' || *p == ',') p++;
        if (!*p) break;
        /* a NamedTuple element's `name=` */
        const char *id = p;
        while ((*id >= 'a' && *id <= 'z') || (*id >= 'A' && *id <= 'Z') || (*id >= '0' && *id <= '9') || *id == '_') id++;
        if (id > p && *id == '=') p = id + 1;
        const char *e = p;
        int depth = 0; /* `tensordesc<fp16[64, 64]>` holds commas */
        for (; *e && ((*e != ',' && *e != ')') || depth > 0); e++) {
            if (*e == '[' || *e == '<') depth++;
            else if ((*e == ']' || *e == '>') && depth > 0) depth--;
        }
        const char *end = e;
        const char *colon = memchr(p, ':', (size_t)(e - p));
        if (colon) end = colon;
        while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
        bool one = false;
        if (colon) {
            const char *h = colon + 1;
            while (*h == ' ') h++;
            one = *h == '1' && (h + 1 == e || h[1] == ' ' || h[1] == ',' || h[1] == ')');
        }
        size_t n = (size_t)(end - p);
        /* (`cx:HEX`, a tuple's constexpr leaf, is none either: its colon
         * is no hint, `end` stopped at it) */
        bool cx_leaf = n == 2 && !strncmp(p, "cx", 2) && colon;
        if (n && !(n == 9 && strncmp(p, "constexpr", 9) == 0) && !(n == 4 && strncmp(p, "none", 4) == 0) &&
            !cx_leaf) {
            vec_push(&types, intern_n(&c->strings, p, n));
            vec_push(&skip, one);
        }
        p = *e ? e + 1 : e;
    }
    c->nparams = types.len;
    vec_push(&types, NULL); /* a terminator, as params_from_func leaves */
    vec_push(&skip, false);
    c->param_types = arena_dup(c->arena, types.data, sizeof(const char *) * (size_t)types.len);
    c->param_skip = arena_dup(c->arena, skip.data, sizeof(bool) * (size_t)skip.len);
    vec_free(&types);
    vec_free(&skip);
}

/* The runtime parameters of a tt.func read off its IR (for .ttir inputs). */
static void params_from_func(Compilation *c, Op *func) {
    Type *ft = func_type(func);
    c->nparams = ft ? ft->ninputs : 0;
    c->param_types = ARENA_ARRAY(c->arena, const char *, c->nparams + 1);
    c->param_skip = ARENA_ARRAY(c->arena, bool, c->nparams + 1);
    for (int i = 0; i < c->nparams; i++) {
        StrBuf sb = {0};
        ty_print(ft->inputs[i], &sb);
        c->param_types[i] = intern(&c->strings, sb_cstr(&sb));
        sb_free(&sb);
    }
}

static Op *front_end_py(Compilation *c, const CompileRequest *req) {
    const tc_compile_options *o = &req->opts;
    /* The bodies of the functions the kernel does not use are not parsed
     * (the AST dump shows them all). Names are interned in the context's
     * interner, which sema interns into too: it compares names by address. */
    Interner *in = &c->ctx->strings;
    PyModule *ast = req->stop_after == STAGE_AST
                        ? py_parse(c->arena, in, &c->de, c->filename, c->source, c->source_len)
                        : py_parse_lazy(c->arena, in, &c->de, c->filename, c->source, c->source_len);
    if (diag_has_errors(&c->de)) return NULL;
    if (req->stop_after == STAGE_AST) {
        StrBuf sb = {0};
        py_ast_dump(ast, &sb);
        c->text[STAGE_AST] = sb_take(&sb);
        return NULL;
    }
    if (!o->kernel) {
        diag_error(&c->de, ((Loc){c->filename, 0, 0}), "no kernel named: pass --kernel NAME");
        return NULL;
    }
    int n = o->num_constexprs;
    const char **names = ARENA_ARRAY(c->arena, const char *, n + 1);
    ConstexprValue *vals = ARENA_ARRAY(c->arena, ConstexprValue, n + 1);
    for (int i = 0; i < n; i++) {
        names[i] = o->constexprs[i].name;
        for (int j = 0; j < i; j++)
            if (strcmp(names[j], names[i]) == 0) { /* (the second was "'k' has no parameter of that name") */
                diag_error(&c->de, ((Loc){0}), "constexpr '%s' is given twice ('%s' and '%s')", names[i],
                           o->constexprs[j].value, o->constexprs[i].value);
                return NULL;
            }
        const char *why = NULL;
        if (!sema_parse_constexpr(c->arena, o->constexprs[i].value, &vals[i], &why)) {
            diag_error(&c->de, ((Loc){0}), "invalid value '%s' for constexpr '%s'%s%s", o->constexprs[i].value,
                       o->constexprs[i].name, why ? ": " : "", why ? why : "");
            return NULL;
        }
    }
    /* tl.target_info sees the sm the GPU backend will build for (as gpu_backend picks it) */
    int sm = 0;
    if (o->device == TC_DEVICE_CUDA) {
        if (o->target && strcmp(o->target, "cuda") != 0 && sscanf(o->target, "cuda:%d", &sm) != 1) sm = 0;
        if (!sm) sm = req->stop_after == STAGE_TTGIR || req->stop_after == STAGE_PTX ? 90 : gpu_resolve_sm(0);
    }
    KernelSpec spec = {.kernel = o->kernel,
                       .signature = o->signature ? o->signature : "",
                       .constexpr_names = names,
                       .constexpr_values = vals,
                       .nconstexprs = n,
                       .num_warps = o->num_warps,
                       .num_stages = o->num_stages,
                       .debug = o->debug != 0,
                       .target_sm = sm};
    split_signature(c, spec.signature);
    return sema_codegen(c->ctx, &c->de, ast, &spec);
}

static Op *front_end_ttir(Compilation *c, const CompileRequest *req) {
    Op *m = ir_parse(c->ctx, c->filename, c->source, c->source_len);
    if (!m) return NULL;
    Op *kernel = NULL;
    for (Op *f = module_body(m)->first; f; f = f->next) {
        if (f->kind != TT_FUNC) continue;
        const char *vis = op_attr_str_k(f, AN_SYM_VISIBILITY);
        bool is_public = !vis || strcmp(vis, "private") != 0;
        if ((req->opts.kernel && strcmp(func_name(f), req->opts.kernel) == 0) ||
            (!req->opts.kernel && is_public && !kernel))
            kernel = f;
    }
    if (!kernel) {
        diag_error(&c->de, ((Loc){c->filename, 0, 0}), req->opts.kernel
                       ? "no function named '%s' in the module" : "%sno public function in the module",
                   req->opts.kernel ? req->opts.kernel : "");
        return NULL;
    }
    c->kernel = func_name(kernel);
    params_from_func(c, kernel);
    return m;
}

/* "cuda:90" -> 90; NULL or "cuda" -> 0 (the current device's). */
static int target_sm(Compilation *c, const char *target) {
    if (!target || strcmp(target, "cuda") == 0) return 0;
    int sm = 0;
    if (sscanf(target, "cuda:%d", &sm) != 1 || (sm != 80 && sm != 90)) {
        diag_error(&c->de, ((Loc){0}), "unknown target '%s' (expected cuda:80 or cuda:90)", target);
        return -1;
    }
    return sm;
}

/* tt IR -> ttg IR -> PTX (text only, no GPU needed), or a loaded cubin. */
static bool gpu_backend(Compilation *c, const CompileRequest *req, Op *m, double t0) {
    const tc_compile_options *o = &req->opts;
    int sm = target_sm(c, o->target);
    if (sm < 0) return false;
    int warps = o->num_warps > 0 ? o->num_warps : 4;
    /* (Triton's backend options assert a power of 2; the layouts divide by
     * it: 3 gave PTX for a CTA the layouts did not cover. A CTA holds at
     * most 1024 threads.) */
    if ((warps & (warps - 1)) != 0 || warps > 32) {
        diag_error(&c->de, ((Loc){0}), "num_warps must be a power of 2 from 1 to 32 (a CTA holds at most 1024 threads), got %d",
                   warps);
        return false;
    }
    int stages = o->num_stages < 0 ? 3 : o->num_stages; /* a negative value asks for the default */
    PassContext lpc = {.ctx = c->ctx, .de = &c->de};
    /* the PTX is one function: calls left by `noinline` helpers are inlined
     * (and what they now fold to, folded) */
    if (!pass_inline_all(m, &lpc)) return false;
    if (lpc.changes > 0 && !pass_pipeline_run(m, "canonicalize,cse,dce,canonicalize", &lpc, NULL)) return false;
    /* the loads feeding a dot are prefetched an iteration ahead (num_stages <= 1: off) */
    if (pipeline_dot_loads(c->ctx, m, stages, warps) > 0 &&
        !pass_pipeline_run(m, "cse,dce", &lpc, NULL))
        return false;
    if (req->stop_after == STAGE_TTGIR || req->stop_after == STAGE_PTX) {
        if (sm == 0) sm = 90;
        TtgOptions to = {.num_warps = warps, .threads_per_warp = 32, .sm = sm,
                         .num_stages = stages};
        if (!req->keep_layouts && !ttg_lower(c->ctx, m, &to, &c->de)) return false;
        /* (the layouts rewrite much of the kernel: with verify_each, as
         * `tritonc compile` runs, the TTGIR is verified too) */
        if (req->verify_each && !ir_verify(m, &c->de)) return false;
        c->seconds[STAGE_TTGIR] = now_seconds() - t0;
        if (req->stop_after == STAGE_TTGIR) {
            keep_text(c, STAGE_TTGIR, m);
            return true;
        }
        StrBuf sb = {0};
        PtxOptions po = {.sm = sm, .num_warps = warps};
        PtxKernelInfo info;
        bool ok = ptx_emit(c->ctx, m, c->kernel, &po, &sb, &info, &c->de);
        c->text[STAGE_PTX] = sb_take(&sb);
        c->seconds[STAGE_PTX] = now_seconds() - t0;
        /* as gpu_kernel_build does, after the PTX: the emitter leaves the IR as it was */
        if (ok && wants_text(req, STAGE_TTGIR)) keep_text(c, STAGE_TTGIR, m);
        return ok;
    }
    GpuOptions go = {.num_warps = warps, .sm = sm, .cache_dir = o->cache_dir,
                     .num_stages = stages,
                     .keep_ttgir = wants_text(req, STAGE_TTGIR)};
    GpuKernel *k = gpu_kernel_build(c->ctx, m, c->kernel, &go, &c->de);
    if (!k) return false;
    c->gpu = k;
    if (gpu_kernel_ttgir(k)) c->text[STAGE_TTGIR] = tc_strdup(gpu_kernel_ttgir(k));
    if (gpu_kernel_ptx(k)) c->text[STAGE_PTX] = tc_strdup(gpu_kernel_ptx(k));
    c->seconds[STAGE_LOADED] = now_seconds() - t0;
    return true;
}

bool compile_run(Compilation *c, const CompileRequest *req) {
    const tc_compile_options *o = &req->opts;
    double t0 = now_seconds();
    c->filename = intern(&c->strings, o->filename ? o->filename : "<source>");
    c->kernel = o->kernel ? intern(&c->strings, o->kernel) : NULL;
    c->device = o->device;
    c->source_len = o->source_len ? o->source_len : strlen(o->source);
    c->source = tc_malloc(c->source_len + 1);
    memcpy(c->source, o->source, c->source_len);
    c->source[c->source_len] = 0;
    diag_add_source(&c->de, c->filename, c->source, c->source_len);
    c->ctx = ctx_new(&c->de);

    /* 1. front end */
    bool is_ir = ends_with(c->filename, ".ttir") || ends_with(c->filename, ".mlir");
    Op *m = is_ir ? front_end_ttir(c, req) : front_end_py(c, req);
    c->seconds[STAGE_TTIR_RAW] = now_seconds() - t0;
    if (!m) return req->stop_after == STAGE_AST && !diag_has_errors(&c->de);
    c->module = m;
    /* IR text is the user's and is verified; the Python front end's IR
     * only with verify_each (as `tritonc compile` and the tests run), which
     * then verifies after every pass too: on the library's path (tc_compile,
     * the runtime's JIT) the verifier cost ~2.5% of a compile, to check
     * what sema builds from op builders that fix counts and types */
    if ((is_ir || req->verify_each) && !ir_verify(m, &c->de)) return false;
    if (req->stop_after == STAGE_TTIR_RAW) {
        keep_text(c, STAGE_TTIR_RAW, m);
        return true;
    }

    /* 2. passes */
    t0 = now_seconds();
    PassContext pc = {.ctx = c->ctx, .de = &c->de};
    PassOptions po = {.verify_each = req->verify_each,
                      .print_after = req->print_after,
                      .print_after_all = req->print_after_all,
                      .time_passes = req->time_passes,
                      .dump = req->dump,
                      .timing = req->timing};
    /* (after the passes the IR is verified only with verify_each, which
     * verifies after every pass: a compile's second verifier run cost ~3%
     * of it) */
    if (!pass_pipeline_run(m, req->pipeline ? req->pipeline : "default", &pc, &po)) return false;
    if (wants_text(req, STAGE_TTIR)) keep_text(c, STAGE_TTIR, m);
    c->seconds[STAGE_TTIR] = now_seconds() - t0;
    if (req->stop_after == STAGE_TTIR) return true;

    /* 3. backend: the passes every backend wants (LICM: Triton runs it in
     * make_ttgir, so --emit ttir matches Triton's), then the device's own */
    t0 = now_seconds();
    PassOptions bpo = {.verify_each = req->verify_each};
    if (!pass_pipeline_run(m, "backend", &pc, &bpo)) return false;
    if (o->device == TC_DEVICE_CPU) {
        if (req->stop_after == STAGE_C) {
            StrBuf sb = {0};
            bool ok = cpu_emit_c(m, NULL, &sb, &c->de);
            c->text[STAGE_C] = sb_take(&sb);
            c->seconds[STAGE_C] = now_seconds() - t0;
            return ok;
        }
        CpuBuildOptions bo = {.cache_dir = o->cache_dir};
        c->cpu = cpu_kernel_build(m, c->kernel, &bo, &c->de);
        if (!c->cpu) return false;
        c->text[STAGE_C] = tc_strdup(cpu_kernel_c_source(c->cpu));
        c->seconds[STAGE_LOADED] = now_seconds() - t0;
        return true;
    }
    return gpu_backend(c, req, m, t0);
}
