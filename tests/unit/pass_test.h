/*
 * pass_test.h - a small harness for the pass unit tests: CHECK, and
 * builders for functions, loops and calls through the Builder API.
 *
 * IR is verified after each pass (verify_each), as `tritonc opt` does.
 */
#include "dialect/dialect.h"
#include "transform/pass.h"

#include <math.h>
#include <stdio.h>
#include <string.h>



static int failures, checks;
#define CHECK(cond)                                                              \
    do {                                                                         \
        checks++;                                                                \
        if (!(cond)) {                                                           \
            failures++;                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

TC_UNUSED static int test_report(const char *name) {
    printf("%s: %d checks, %d failed\n", name, checks, failures);
    return failures ? 1 : 0;
}

/* A tt.func with the given argument types; *b is set to build at its end. */
TC_UNUSED static Op *make_func(Context *c, Op *module, const char *name, Type *const *args, int nargs,
                     Type *const *res, int nres, bool private_, Builder *b) {
    Op *f = op_create(c, TT_FUNC, (Loc){0}, NULL, 0, NULL, 0, 1);
    op_set_attr(c, f, "sym_name", attr_string(c, name));
    op_set_attr(c, f, "function_type", attr_type(c, ty_func(c, args, nargs, res, nres)));
    if (private_) op_set_attr(c, f, "sym_visibility", attr_string(c, "private"));
    Block *e = block_create(c);
    region_push_block(&f->regions[0], e);
    for (int i = 0; i < nargs; i++) block_add_arg(c, e, args[i], (Loc){0});
    block_append(module_body(module), f);
    *b = builder_at_end(c, e);
    return f;
}

TC_UNUSED static Op *build_return(Builder *b, Value *const *vals, int n) {
    return build_op(b, TT_RETURN, vals, n, NULL, 0, 0);
}

/* scf.for lb to ub step st with inits; *body builds inside (before nothing:
 * the caller adds the scf.yield). */
TC_UNUSED static Op *build_for(Builder *b, Value *lb, Value *ub, Value *st, Value *const *inits, int n, Builder *body) {
    Value *ops[16] = {lb, ub, st};
    Type *tys[16] = {0};
    for (int i = 0; i < n; i++) ops[3 + i] = inits[i], tys[i] = inits[i]->type;
    Op *f = build_op(b, SCF_FOR, ops, 3 + n, tys, n, 1);
    Block *blk = block_create(b->ctx);
    region_push_block(&f->regions[0], blk);
    block_add_arg(b->ctx, blk, lb->type, (Loc){0});
    for (int i = 0; i < n; i++) block_add_arg(b->ctx, blk, inits[i]->type, (Loc){0});
    *body = builder_at_end(b->ctx, blk);
    return f;
}

TC_UNUSED static Op *build_call(Builder *b, const char *callee, Value *const *args, int n, Type *const *res, int nres) {
    Op *call = build_op(b, TT_CALL, args, n, res, nres, 0);
    op_set_attr(b->ctx, call, "callee", attr_symref(b->ctx, callee));
    return call;
}

typedef struct KindCount { OpKind kind; int n; } KindCount;
TC_UNUSED static void count_cb(Op *op, void *ud) {
    KindCount *k = ud;
    if (op->kind == k->kind) k->n++;
}
TC_UNUSED static int count_kind(Op *root, OpKind kind) {
    KindCount k = {kind, 0};
    op_walk(root, count_cb, &k, false);
    return k.n;
}

TC_UNUSED static bool run_pass(Context *c, Op *m, const char *pipeline) {
    DiagEngine *de = c->diag;
    PassContext pc = {.ctx = c, .de = de};
    PassOptions o = {.verify_each = true};
    return pass_pipeline_run(m, pipeline, &pc, &o);
}
