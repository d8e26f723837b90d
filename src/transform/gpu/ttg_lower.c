/*
 * ttg_lower.c - tt IR to the ttg IR the PTX emitter takes, in one place for
 * every caller (tc_compile's texts, gpu_kernel_build, the tests):
 *
 *   1. ttg-assign-layouts: a layout for every tile;
 *   2. expand-libdevice and expand-f64-math: the math PTX has no
 *      instruction for (fp32 pow, log1p, ...; every fp64 transcendental)
 *      rewritten as arith/math ops, then cse and dce, which the expansions'
 *      repeated constants and shared parts (erf and erfc of one value) need;
 *   3. pipeline-async-copy: cp.async rings for the loads feeding dots (when
 *      enabled), then cse and dce again;
 *   4. sink-compares: the masks read after a loop computed again there, so
 *      that no predicate lives through a loop (last: cse would merge them).
 *
 * The expansions come after the layouts, not before, although they work
 * on tt IR too: they are element-wise, so every op they make takes the
 * layout of the value it expands (their types are the operand's, layout
 * included), and the layout pass then walks the kernel as written rather
 * than the expansion, which can be ten times larger (an fp64 erfinv is
 * hundreds of ops).
 */
#include "transform/gpu/gpu_passes.h"

/* Whether an op under root (root included) is a candidate of either
 * expansion. */
static bool has_expansion_candidate(Op *root) {
    if (expand_libdevice_candidate(root) || expand_f64_math_candidate(root)) return true;
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next) {
                if (o->nregions ? has_expansion_candidate(o)
                                : expand_libdevice_candidate(o) || expand_f64_math_candidate(o))
                    return true;
            }
    return false;
}

/* Whether an scf.for is nested under root. */
static bool has_for(Op *root) {
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next)
                if (o->kind == SCF_FOR || (o->nregions && has_for(o))) return true;
    return false;
}

bool ttg_lower(Context *c, Op *module, const TtgOptions *opts, DiagEngine *de) {
    if (!ttg_assign_layouts(c, module, opts, de)) return false;
    PassContext pc = {.ctx = c, .de = de};
    /* (one walk finds whether either expansion has anything to do: most
     * kernels have no fp64 math and no libdevice call, and a context that
     * never made an f64 type, an arith.remf or a tt.extern_elementwise
     * needs no walk to know it) */
    bool loops = true;
    bool maybe = c->made_f64_type || ctx_made_kind(c, ARITH_REMF) || ctx_made_kind(c, TT_EXTERN_ELEMENTWISE);
    if (maybe && has_expansion_candidate(module)) {
        /* (asked before the expansions, which make no loops but may make
         * thousands of ops for pipeline-async-copy to look through) */
        loops = has_for(module);
        if (!pass_expand_libdevice(module, &pc) || !pass_expand_f64_math(module, &pc)) return false;
    }
    if (pc.changes > 0 && !pass_pipeline_run(module, "cse,dce", &pc, NULL)) return false;
    if (loops && async_copy_enabled() && pipeline_async_copy(c, module, opts->num_stages, opts->num_warps, opts->sm) > 0 &&
        !pass_pipeline_run(module, "cse,dce", &pc, NULL))
        return false;
    return !loops || pass_sink_compares(module, &pc);
}
