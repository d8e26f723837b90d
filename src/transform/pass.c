/*
 * pass.c - the registry of passes and pipelines, and the pass manager.
 *
 * The two tables below are the only place a pass or a named pipeline is
 * listed. pass_pipeline_run() expands a pipeline string into a flat list of
 * passes (named pipelines expand recursively, to a bounded depth), rejects
 * the whole string if any name is unknown, then runs each pass in turn:
 *
 *     run pass -> [verify] -> [dump "IR Dump After Title (name)"]
 *
 * timing each pass (and the verifier) with a monotonic clock. The timing
 * report follows MLIR's `-mlir-timing` list layout so the two read alike.
 *
 * The end of the file holds small helpers several passes share.
 */
#include "transform/pass.h"
#include "transform/gpu/gpu_passes.h"

#include <string.h>

/* ---- the registry ---------------------------------------------------------- */

static const PassInfo passes[] = {
    {"canonicalize", "Fold constants, apply algebraic identities, simplify scf control flow",
     pass_canonicalize, "Canonicalizer", false, true},
    {"cse", "Eliminate common pure subexpressions, scoped by dominance", pass_cse, "CSE", true, false},
    {"dce", "Remove unused pure ops, loop-carried values and private functions", pass_dce, "DCE", true, false},
    {"expand-libdevice", "Rewrite fp32 libdevice calls the PTX backend lacks (pow, log1p, atan, ...) as arith/math ops",
     pass_expand_libdevice, "ExpandLibdevice", false, false},
    {"expand-f64-math", "Rewrite fp64 exp, log, sin, cos, tanh, erf, ... (no PTX instructions) as fp64 arith",
     pass_expand_f64_math, "ExpandF64Math", false, false},
    {"licm", "Hoist loop-invariant pure ops out of scf.for and scf.while", pass_licm,
     "LoopInvariantCodeMotion", false, false},
    {"sink-compares", "Compute again after a loop the masks (compares and their logic) read past it",
     pass_sink_compares, "SinkCompares", false, false},
    {"loop-unroll", "Unroll small scf.for loops with constant bounds completely (no loads or dots in them)",
     pass_loop_unroll, "LoopUnroll", false, false},
    {"inline", "Inline calls to non-kernel functions and drop unused private ones", pass_inline,
     "Inliner", false, false},
    {"inline-all", "Inline every call, to noinline functions too (the PTX backend emits no calls)", pass_inline_all,
     "InlinerAll", false, false},
    {"rewrite-tensor-pointer", "Lower block pointers (tt.make_tensor_ptr, tt.advance) to tensors of pointers and masks",
     pass_rewrite_tensor_pointer, "RewriteTensorPointer", false, false},
    {"pipeline-dot-loads", "Prefetch the loads feeding tt.dot in scf.for one iteration ahead (loop-carried registers)",
     pass_pipeline_dot_loads, "PipelineDotLoads", false, false},
    {"ttg-assign-layouts", "Give every tensor a TritonGPU layout (coalesced accesses, slices for reductions)",
     pass_ttg_assign_layouts, "TritonGPUAssignLayouts", false, false},
    {"pipeline-async-copy", "Copy the loads feeding mma.sync dots in k loops into rings of shared-memory stages with cp.async, num_stages - 1 iterations ahead",
     pass_pipeline_async_copy, "PipelineAsyncCopy", false, false},
    {"nn-quant-fusion", "Fuse nn.dequantize(nn.quantize(x)) into nn.fake_quantize, drop requantization",
     pass_nn_quant_fusion, "NnQuantFusion", false, false},
};

static const PipelineInfo pipelines[] = {
    {"default", "The tt-level pipeline after the front end, as Triton's make_ttir",
     "inline,rewrite-tensor-pointer,canonicalize,cse,dce,canonicalize"},
    {"backend", "What every backend runs on tt IR before lowering it",
     "licm,loop-unroll,canonicalize"},
    {"cleanup", "Simplify without moving code between functions or loops", "canonicalize,cse,dce"},
    {"tri", "The .tri (nn dialect) pipeline: fold constants, fuse quantization, CSE, DCE",
     "dce,canonicalize,nn-quant-fusion,cse,dce"},
};

const PassInfo *pass_lookup(const char *name) {
    for (int i = 0; i < TC_ARRAY_LEN(passes); i++)
        if (strcmp(passes[i].name, name) == 0) return &passes[i];
    return NULL;
}
int pass_count(void) { return TC_ARRAY_LEN(passes); }
const PassInfo *pass_at(int i) { return i >= 0 && i < pass_count() ? &passes[i] : NULL; }

const PipelineInfo *pipeline_lookup(const char *name) {
    for (int i = 0; i < TC_ARRAY_LEN(pipelines); i++)
        if (strcmp(pipelines[i].name, name) == 0) return &pipelines[i];
    return NULL;
}
int pipeline_count(void) { return TC_ARRAY_LEN(pipelines); }
const PipelineInfo *pipeline_at(int i) {
    return i >= 0 && i < pipeline_count() ? &pipelines[i] : NULL;
}

/* ---- pipeline parsing --------------------------------------------------------- */

typedef VEC(const PassInfo *) PassList;

/* Appends the passes named in `spec` to out; reports unknown names. */
static bool expand(const char *spec, PassList *out, DiagEngine *de, int depth) {
    if (depth > 8) {
        diag_error(de, (Loc){0}, "pipeline nesting too deep at '%s'", spec);
        return false;
    }
    bool ok = true;
    const char *p = spec;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        const char *start = p;
        while (*p && *p != ',') p++;
        const char *end = p;
        while (end > start && end[-1] == ' ') end--;
        if (end == start) continue;
        char name[64];
        size_t n = (size_t)(end - start);
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, start, n);
        name[n] = 0;
        const PassInfo *pi = pass_lookup(name);
        const PipelineInfo *pl;
        if (pi) {
            vec_push(out, pi);
        } else if ((pl = pipeline_lookup(name))) {
            ok &= expand(pl->passes, out, de, depth + 1);
        } else {
            diag_error(de, (Loc){0}, "unknown pass or pipeline '%s'", name);
            ok = false;
        }
    }
    return ok;
}

/* Whether `name` appears in the comma-separated list `list`. */
static bool in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        p = q ? q + 1 : NULL;
    }
    return false;
}

/* ---- the run loop ------------------------------------------------------------- */

static void print_timing(StrBuf *out, const PassList *list, const double *secs, double verify_s,
                         bool verified, double total) {
    const char *rule = "===-------------------------------------------------------------------------===\n";
    sb_puts(out, rule);
    sb_puts(out, "                         ... Execution time report ...\n");
    sb_puts(out, rule);
    sb_printf(out, "  Total Execution Time: %.4f seconds\n\n", total);
    sb_puts(out, "  ----Wall Time----  ----Name----\n");
    double t = total > 0 ? total : 1;
    for (int i = 0; i < list->len; i++)
        if (secs[i] < 0) /* (skipped: see pass_pipeline_run) */
            sb_printf(out, "    ------ (  ---%%)  %s (skipped: %s)\n", list->data[i]->title,
                      secs[i] < -1 ? "nothing dead after CSE" : "unchanged since it ran");
        else
            sb_printf(out, "    %.4f (%5.1f%%)  %s\n", secs[i], 100 * secs[i] / t, list->data[i]->title);
    if (verified) sb_printf(out, "    %.4f (%5.1f%%)  Verifier\n", verify_s, 100 * verify_s / t);
    sb_printf(out, "    %.4f (100.0%%)  Total\n", total);
}

/* Runs one pass of a pipeline, then the verifier when asked; its time in
 * *secs, the verifier's added to *verify_s. `again`: the pass would change
 * nothing (nothing has changed the module since this idempotent pass last
 * ran, or dce right after a cse that found no dead code); only verify_each
 * runs it then, to check that it changes nothing. */
static bool run_pass(const PassInfo *pi, Op *module, PassContext *pc, const PassOptions *opts, bool again,
                     double *secs, double *verify_s) {
    double t0 = now_seconds();
    int changes = pc->changes, unseen = pc->unseen;
    bool ok = pi->run(module, pc);
    if (!pi->keeps_axis_info) axis_analysis_drop(pc->ctx);
    *secs = now_seconds() - t0;
    if (!ok) {
        if (!diag_has_errors(pc->de)) diag_error(pc->de, module->loc, "pass '%s' failed", pi->name);
        return false;
    }
    if (again && pc->changes != changes) {
        diag_error(pc->de, module->loc, "internal error: pass '%s' changed a module it had nothing to do on", pi->name);
        return false;
    }
    if (pi->idempotent) pc->fixed = pi, pc->fixed_at = pc->changes;
    /* changes canonicalize cannot act on leave its fixed point standing */
    else if (pc->fixed && pc->fixed->run == pass_canonicalize && pc->fixed_at == changes &&
             pc->changes - changes == pc->unseen - unseen)
        pc->fixed_at = pc->changes;
    if (opts->verify_each) {
        double v0 = now_seconds();
        int before = pc->de->nerrors;
        ok = ir_verify(module, pc->de);
        *verify_s += now_seconds() - v0;
        if (!ok) {
            if (pc->de->nerrors == before) diag_error(pc->de, module->loc, "invalid IR");
            diag_note(pc->de, module->loc, "the IR was invalid after pass '%s'", pi->name);
        }
    }
    return ok;
}

bool pass_pipeline_run(Op *module, const char *pipeline, PassContext *pc, const PassOptions *opts) {
    static const PassOptions none = {0};
    if (!opts) opts = &none;
    PassList list = {0};
    if (!expand(pipeline ? pipeline : "", &list, pc->de, 0)) {
        vec_free(&list);
        return false;
    }
    double *secs = tc_calloc((size_t)list.len + 1, sizeof(double));
    double verify_s = 0, t_start = now_seconds();
    PrintOptions popts = opts->print ? *opts->print : (PrintOptions){0};
    bool ok = true;
    for (int i = 0; i < list.len && ok; i++) {
        const PassInfo *pi = list.data[i];
        /* An idempotent pass over its own output, nothing changed since, is
         * skipped: the default pipeline ends with canonicalize and the
         * backend's begins licm,canonicalize, and most kernels have nothing
         * to hoist. (Its dump, if asked for, is the module as it is.) */
        bool again = pi->idempotent && pc->fixed == pi && pc->fixed_at == pc->changes;
        /* Likewise dce right after a cse that found no dead code (after the
         * expansions of fp64 math: thousands of ops, none dead). (Only
         * right after it, in one pipeline: the passes called outside the
         * pass manager count no changes.) */
        bool nothing_dead = pi->run == pass_dce && i > 0 && list.data[i - 1]->run == pass_cse &&
                            secs[i - 1] >= 0 && pc->dead_free && pc->dead_free_at == pc->changes;
        if (!(again || nothing_dead) || opts->verify_each)
            ok = run_pass(pi, module, pc, opts, again || nothing_dead, &secs[i], &verify_s);
        else secs[i] = nothing_dead ? -2 : -1;
        if (ok && opts->dump && (opts->print_after_all || in_list(opts->print_after, pi->name))) {
            sb_printf(opts->dump, "// -----// IR Dump After %s (%s) //----- //\n", pi->title, pi->name);
            ir_print(module, opts->dump, &popts);
            sb_putc(opts->dump, '\n');
        }
    }
    if (opts->time_passes && opts->timing)
        print_timing(opts->timing, &list, secs, verify_s, opts->verify_each, now_seconds() - t_start);
    tc_free(secs);
    vec_free(&list);
    return ok;
}

/* ---- helpers shared by the passes ------------------------------------------- */

static bool is_dot_result(const Value *v) { return v->def && v->def->kind == TT_DOT; }

bool canonicalize_unmoved_by_unuse(const Value *v) { return !is_dot_result(v); }

bool canonicalize_fixed_point_stands(const PassContext *pc) {
    return pc->fixed && pc->fixed->run == pass_canonicalize && pc->fixed_at == pc->changes;
}

bool canonicalize_unmoved_by_merge(Op *op, Op *prev) {
    if (op->kind == TT_DOT) return false;
    /* a user that gets prev's result twice may fold (x - x, x op x); not an
     * scf.for (bounds from one value: canonicalize reads only constant
     * ones, and the constants are not merged here) */
    for (int i = 0; i < op->nresults; i++)
        for (Use *u = op->results[i].uses; u; u = u->next) {
            const Op *user = u->owner;
            const Value *pv = &prev->results[i];
            if (user->noperands == 2) { /* (most users: the other operand only) */
                if (user->operands[u == &user->operands[0]].value == pv) return false;
                continue;
            }
            if (user->kind == SCF_FOR && op->kind != ARITH_CONSTANT) continue;
            for (int k = 0; k < user->noperands; k++)
                if (user->operands[k].value == pv) return false;
        }
    /* (no operand is used by op alone: prev uses each of them too) */
    for (int i = 0; i < op->noperands; i++)
        if (is_dot_result(op->operands[i].value)) return false;
    return true;
}

static bool uses_dot_result(Op *op) {
    for (int i = 0; i < op->noperands; i++)
        if (is_dot_result(op->operands[i].value)) return true;
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next)
                if (uses_dot_result(o)) return true;
    return false;
}

bool canonicalize_unmoved_by_erase(Op *dead) { return !uses_dot_result(dead); }

bool canonicalize_unmoved_by_hoisted_add(Op *add) { return !uses_dot_result(add); }

static bool region_ops_removable(Op *op) {
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next) {
                if (op_has_flag(o, OPF_TERMINATOR)) {
                    if (!op_has_flag(o, OPF_PURE)) return false;
                    continue;
                }
                if (!op_is_removable(o)) return false;
            }
    return true;
}

bool op_is_removable(Op *op) {
    if (op_has_flag(op, OPF_TERMINATOR) || op_has_flag(op, OPF_SYMBOL)) return false;
    switch (op->kind) {
    case SCF_FOR:
    case SCF_IF:
    case TT_REDUCE:
    case TT_SCAN: return region_ops_removable(op);
    default: break;
    }
    /* an unused read (a non-volatile tt.load) can go, as in MLIR */
    if (op_has_flag(op, OPF_MEM_READ) && !op_has_flag(op, OPF_MEM_WRITE) && op->nregions == 0) {
        Attr *vol = op_attr_k(op, AN_IS_VOLATILE);
        int64_t v;
        return !vol || (attr_as_int(vol, &v) && !v);
    }
    if (!op_has_flag(op, OPF_PURE)) return false;
    return op->nregions == 0 || region_ops_removable(op);
}

bool func_is_private(const Op *func) {
    const char *vis = op_attr_str_k(func, AN_SYM_VISIBILITY);
    return vis && strcmp(vis, "private") == 0;
}

const char *call_callee(const Op *call) { return op_attr_str_k(call, AN_CALLEE); }

/* collect_ops for kinds whose ops always have regions (loops): the ops
 * without regions need no other test. */
static void collect_region_ops(Op *root, OpKind k1, OpKind k2, bool post, OpList *out) {
    bool hit = root->kind == k1 || root->kind == k2;
    if (hit && !post) vec_push(out, root);
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next)
                if (o->nregions) collect_region_ops(o, k1, k2, post, out);
    if (hit && post) vec_push(out, root);
}

static bool has_regions(OpKind k) { return k == OP_COUNT || op_info[k].nregions > 0; }

void collect_ops(Op *root, OpKind k1, OpKind k2, bool post, OpList *out) {
    if (has_regions(k1) && has_regions(k2)) {
        collect_region_ops(root, k1, k2, post, out);
        return;
    }
    bool hit = root->kind == k1 || root->kind == k2;
    if (hit && !post) vec_push(out, root);
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next) {
                if (o->nregions) collect_ops(o, k1, k2, post, out);
                else if (o->kind == k1 || o->kind == k2) vec_push(out, o); /* (pre- or post-order alike) */
            }
    if (hit && post) vec_push(out, root);
}

Op *op_rebuild(Context *c, Op *op, Value *const *operands, int nops, Type *const *types, int nres,
               const int *keep) {
    Op *n = op_create(c, op->kind, op->loc, operands, nops, types, nres, 0);
    n->nregions = op->nregions;
    n->regions = op->nregions ? ARENA_ARRAY(c->arena, Region, op->nregions) : NULL;
    for (int r = 0; r < op->nregions; r++) {
        n->regions[r] = op->regions[r];
        n->regions[r].parent = n;
        for (Block *b = n->regions[r].first; b; b = b->next) b->parent = &n->regions[r];
        op->regions[r].first = op->regions[r].last = NULL;
    }
    op_copy_attrs(c, n, op);
    for (int i = 0; i < op->nresults; i++)
        if (keep[i] >= 0) {
            n->results[keep[i]].name = op->results[i].name;
            value_replace_all_uses(&op->results[i], &n->results[keep[i]]);
        }
    op_insert_before(op, n);
    op_erase(op);
    return n;
}
