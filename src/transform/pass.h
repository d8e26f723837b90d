/*
 * pass.h - the pass manager: one registry of passes, named pipelines, and
 * the loop that runs a pipeline with verification, IR dumps and timing.
 *
 * A pass is a function over a whole module (`builtin.module`) that edits it
 * in place and returns false on a hard error (reported to pc->de). Every
 * pass has a kebab-case name, a one-line summary and a file of its own in
 * src/transform/; the table in pass.c is the only list of them, so the CLI,
 * the help text and the pipeline parser all read the same rows.
 *
 * A pipeline is a comma-separated list of pass names and named pipelines
 * ("canonicalize,cse,dce" or "default"); it is checked as a whole before
 * anything runs, so a typo never leaves a half-transformed module.
 */
#ifndef TC_TRANSFORM_PASS_H
#define TC_TRANSFORM_PASS_H

#include "ir/ir.h"

typedef struct PassContext {
    Context *ctx;
    DiagEngine *de;
    int changes; /* stats: rewrites made by the passes run so far */
    /* The last idempotent pass that ran (see PassInfo.idempotent) and
     * `changes` just after it: while nothing has changed since, running it
     * again would change nothing, and the pass manager skips it. */
    const struct PassInfo *fixed;
    int fixed_at;
    /* Of `changes`, those canonicalize cannot act on, as the passes making
     * them count them (cse, dce, licm; see canonicalize_unmoved_by_*): when
     * every change since canonicalize last ran is such, its fixed point
     * stands and it is skipped again. */
    int unseen;
    /* `changes` when a pass last found the module free of the dead code
     * dce removes (cse does, as it walks every op), and whether one has:
     * while nothing has changed since, dce would change nothing, and the
     * pass manager skips it. */
    bool dead_free;
    int dead_free_at;
} PassContext;

typedef bool (*PassFn)(Op *module, PassContext *pc); /* false on a hard error */

typedef struct PassInfo {
    const char *name;    /* kebab-case, as written in a pipeline: "cse" */
    const char *summary; /* one line for --help */
    PassFn run;
    const char *title;   /* as IR dumps and timing reports name it: "CSE" */
    /* the context's kept axis analysis stays true after it (see
     * transform/gpu/axis_info.h); after any other pass it is dropped */
    bool keeps_axis_info;
    /* its output is its own fixed point (a second run changes nothing): the
     * pass manager skips it when no pass has changed the module since it
     * last ran (with verify_each it runs, and a change is an error) */
    bool idempotent;
} PassInfo;

const PassInfo *pass_lookup(const char *name); /* NULL if unknown */
int pass_count(void);
const PassInfo *pass_at(int i);

/* Named pipelines ("default"), listed in the same registry file. */
typedef struct PipelineInfo {
    const char *name;
    const char *summary;
    const char *passes; /* comma-separated pass or pipeline names */
} PipelineInfo;
const PipelineInfo *pipeline_lookup(const char *name);
int pipeline_count(void);
const PipelineInfo *pipeline_at(int i);

typedef struct PassOptions {
    bool verify_each;        /* run ir_verify after every pass */
    const char *print_after; /* comma-separated pass names to dump after */
    bool print_after_all;
    bool time_passes;
    StrBuf *dump;            /* where IR dumps go (none when NULL) */
    StrBuf *timing;          /* where the --time-passes report goes */
    const PrintOptions *print; /* how dumps print (NULL: defaults) */
} PassOptions;

/* Runs `pipeline` over module. Unknown names, failing passes and (with
 * verify_each) invalid IR are reported to pc->de; returns false on any. */
bool pass_pipeline_run(Op *module, const char *pipeline, PassContext *pc, const PassOptions *opts);

/* ---- the passes (one file each) ----------------------------------------- */

bool pass_canonicalize(Op *module, PassContext *pc); /* canonicalize.c */
bool pass_cse(Op *module, PassContext *pc);          /* cse.c */
bool pass_dce(Op *module, PassContext *pc);          /* dce.c */
bool pass_licm(Op *module, PassContext *pc);         /* licm.c */
bool pass_sink_compares(Op *module, PassContext *pc); /* sink_compares.c */
bool pass_loop_unroll(Op *module, PassContext *pc);  /* loop_unroll.c */
bool pass_expand_libdevice(Op *module, PassContext *pc); /* expand_libdevice.c */
bool pass_expand_f64_math(Op *module, PassContext *pc); /* expand_f64_math.c */
bool pass_inline(Op *module, PassContext *pc);       /* inline.c */
bool pass_inline_all(Op *module, PassContext *pc);   /* inline.c: noinline callees too */
bool pass_rewrite_tensor_pointer(Op *module, PassContext *pc); /* rewrite_tensor_pointer.c */
bool pass_nn_quant_fusion(Op *module, PassContext *pc); /* nn_quant_fusion.c */
/* The first, cheap test of each expansion pass (on the op's kind and
 * types): ops failing it are left as they are, so a module without one
 * that passes needs neither walk (ttg_lower asks). Inline: asked of every
 * op. */
static inline bool expand_libdevice_candidate(const Op *op) {
    return op->kind == ARITH_REMF || (op->kind == TT_EXTERN_ELEMENTWISE && op->noperands >= 1 && op->noperands <= 2);
}
static inline bool expand_f64_math_candidate(const Op *op) {
    if (op->nresults != 1 || op->noperands != 1) return false;
    Type *t = op->results[0].type;
    const Type *e = ty_elem(t);
    return e->kind == TY_FLOAT && e->fkind == FK_F64 && op->operands[0].value->type == t;
}
/* pipeline_dot_loads.c: prefetches the loads feeding tt.dot in scf.for
 * loops one iteration ahead (num_stages <= 1: off; a loop's tt.num_stages
 * overrides it); returns how many loads. The pass reads num_stages from the
 * module's tt.num-stages attribute (default 3). */
int pipeline_dot_loads(Context *c, Op *module, int num_stages, int num_warps);
/* what its slices (and pipeline-async-copy's) may clone: pure, no regions,
 * not a terminator or a dot; and whether an op writes memory or calls out,
 * at any depth */
bool pipeline_clonable(const Op *op);
bool pipeline_writes_memory(Op *op);
/* the loops both take (see pipeline_dot_loads.c): their num_stages, or 0 */
int pipeline_loop_shape(Op *loop, int num_stages, Block **body, Op **yield);
bool pass_pipeline_dot_loads(Op *module, PassContext *pc);

/* ---- helpers shared by the passes (pass.c) ------------------------------ */

/* Whether canonicalize could act on the module after these changes to its
 * fixed point (every other op as it left them); the passes count the
 * changes for which it could not as PassContext.unseen. Its patterns and
 * folders read an op's kind, attributes, types, operands (which of them
 * are one value), their definitions (two deep), whether values are used
 * (dead ops), whether a tt.dot's result has one use (the dot's add), and
 * positions only in that pattern (dot and add in one block) and for
 * constants (which sit at the top of their function, where no pass moves
 * them):
 *  - replacing op's results by those of prev, an op computing the same
 *    (cse), then erasing op: unseen unless some user of a result also
 *    uses prev's (other than an scf.for, when op is not a constant), or
 *    op is a dot, or an operand of op is a dot's result
 *    (which loses a use) or is used by op alone (its definition may die);
 *  - erasing a dead op (dce: the dead ops it leaves are none): unseen
 *    unless it (or an op in it) used a dot's result;
 *  - dropping a use of v otherwise (dce rebuilding a loop without a
 *    carried value nothing reads, whose init and yielded value lose one):
 *    unseen unless v is a dot's result;
 *  - moving a pure op out of a loop (licm): unseen unless it is a dot or
 *    an add of a dot's result. */
bool canonicalize_unmoved_by_merge(Op *op, Op *prev);
/* Whether canonicalize's fixed point stands (the last idempotent pass to
 * run was canonicalize, and nothing has changed since): a pass starting
 * then counts its unseen changes while all of them are such; otherwise the
 * pass manager reads none of its count (pass.c, run_pass), which it may
 * then leave uncounted. */
bool canonicalize_fixed_point_stands(const PassContext *pc);
bool canonicalize_unmoved_by_erase(Op *dead);
/* (inline: licm asks it of every op it moves, and only an add may look
 * further) */
bool canonicalize_unmoved_by_hoisted_add(Op *add);
static inline bool canonicalize_unmoved_by_hoist(Op *op) {
    if (op->kind == TT_DOT) return false;
    return (op->kind != ARITH_ADDF && op->kind != ARITH_ADDI) || canonicalize_unmoved_by_hoisted_add(op);
}
bool canonicalize_unmoved_by_unuse(const Value *v);

/* True when erasing op (if its results were unused) cannot change what the
 * program does: a pure non-terminator, a non-volatile read (tt.load), or
 * an scf.for / scf.if / tt.reduce / tt.scan whose nested ops are all such.
 * scf.while is kept (it may not terminate), and so are calls. */
bool op_is_removable(Op *op);
/* op_is_removable and none of its results has a use. (These two are
 * inline: canonicalize and dce ask them of every op, and most ops have a
 * used result or no constant operand.) */
static inline bool op_is_trivially_dead(Op *op) {
    if (op->nresults == 1) return !op->results[0].uses && op_is_removable(op); /* (most ops) */
    for (int i = 0; i < op->nresults; i++)
        if (op->results[i].uses) return false;
    return op_is_removable(op);
}
/* The constant value of v when an arith.constant defines it, else NULL. */
static inline Attr *value_const(Value *v) {
    Op *d = v->def;
    return d && d->kind == ARITH_CONSTANT ? op_attr_k(d, AN_VALUE) : NULL;
}
/* tt.func visibility: `tt.func private @f` (sym_visibility = "private"). */
bool func_is_private(const Op *func);
/* Erases private functions that no call reaches, transitively (dce.c);
 * returns how many went. */
int erase_uncalled_private_funcs(Context *c, Op *module);
/* The callee's name of a tt.call (its `callee` attribute). */
const char *call_callee(const Op *call);
/* The ops of kind k1 or k2 (OP_COUNT: no second kind) nested under root,
 * root included, appended to out in the order op_walk visits them (pre- or
 * post-order). The passes that look for loops or calls ask for them so: a
 * loop over each block rather than a callback per op. */
typedef VEC(Op *) OpList;
void collect_ops(Op *root, OpKind k1, OpKind k2, bool post, OpList *out);
/* Replaces `op` by a new op of the same kind and attributes with new
 * operands and result types, moving its regions over; result i of the old
 * op is replaced by result keep[i] of the new one (or must be unused when
 * keep[i] < 0). Returns the new op; the old one is erased. */
Op *op_rebuild(Context *c, Op *op, Value *const *operands, int nops, Type *const *types, int nres,
               const int *keep);

#endif
