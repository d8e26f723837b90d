/*
 * ir_pipeline.c - throughput of the tt-IR middle end: parse -> verify ->
 * canonicalize,cse,dce,licm -> print, on generated modules of a chosen size.
 *
 * The input is many small Triton-style kernels (program id, make_range,
 * masked loads and stores through tt.addptr, a loop with an accumulator,
 * loop-invariant and redundant expressions, constant arithmetic and dead
 * values), built with the Builder API and printed to text once; only the
 * work on the text is timed. Each size runs in its own process (see
 * run_ir_pipeline.sh) so peak RSS belongs to that size alone; it includes
 * building the input text.
 *
 *   cc -std=c11 -D_GNU_SOURCE -O2 -Isrc -o build/bench_ir_pipeline \
 *      bench/ir_pipeline.c build/libtritonc.a -lm -ldl -lpthread
 *   build/bench_ir_pipeline OPS [REPEATS]
 *
 * Built with -DBENCH_NO_PARSER (before the parser and verifier exist), it
 * times only canonicalize,cse,dce,licm and print, on a freshly built module
 * per repeat; the parse and verify columns then read 0.
 *
 * Prints one Markdown table row:
 *   | ops | kernels | parse | verify | passes | print | total | ops/s | peak RSS |
 */
#include "transform/pass.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef BENCH_NO_PARSER
bool ir_verify(Op *root, DiagEngine *de) { return true; }
#endif

static Type *f32, *i32, *idx, *pf32, *ti32, *tf32, *tptr;

static void gen_kernel(Context *c, Op *m, int id, int chain) {
    char name[32];
    snprintf(name, sizeof name, "kernel_%d", id);
    Type *args[3] = {pf32, pf32, i32};
    Op *f = op_create(c, TT_FUNC, (Loc){0}, NULL, 0, NULL, 0, 1);
    op_set_attr(c, f, "sym_name", attr_string(c, name));
    op_set_attr(c, f, "function_type", attr_type(c, ty_func(c, args, 3, NULL, 0)));
    Block *e = block_create(c);
    region_push_block(&f->regions[0], e);
    for (int i = 0; i < 3; i++) block_add_arg(c, e, args[i], (Loc){0});
    block_append(module_body(m), f);
    Builder b = builder_at_end(c, e);
    Value *x = e->args[0], *y = e->args[1], *n = e->args[2];

    Op *pid_op = build_op(&b, TT_GET_PROGRAM_ID, NULL, 0, &i32, 1, 0);
    op_set_attr(c, pid_op, "axis", attr_int(c, i32, 0));
    Value *c128 = build_const_int(&b, i32, 128);
    Value *off = build_binary(&b, ARITH_MULI, op_result(pid_op, 0), c128);
    Op *range = build_op(&b, TT_MAKE_RANGE, NULL, 0, &ti32, 1, 0);
    op_set_attr(c, range, "start", attr_int(c, i32, 0));
    op_set_attr(c, range, "end", attr_int(c, i32, 128));
    Value *offs = build_unary(&b, TT_SPLAT, off, ti32);
    Value *iv = build_binary(&b, ARITH_ADDI, offs, op_result(range, 0));
    Value *ns = build_unary(&b, TT_SPLAT, n, ti32);
    Value *mask = build_cmp(&b, ARITH_CMPI, CMPI_SLT, iv, ns);
    Value *pb = build_unary(&b, TT_SPLAT, x, tptr);
    Value *pp[2] = {pb, iv};
    Value *ptrs = op_result(build_op(&b, TT_ADDPTR, pp, 2, &tptr, 1, 0), 0);
    Value *lm[2] = {ptrs, mask};
    Value *v = op_result(build_op(&b, TT_LOAD, lm, 2, &tf32, 1, 0), 0);
    Value *two = build_const_float(&b, tf32, 2.0), *zero = build_const_float(&b, tf32, 0.0);

    /* for i in 0..16: acc += v*2 + v*2 (invariant, redundant) */
    Value *lb = build_const_int(&b, idx, 0), *ub = build_const_int(&b, idx, 16), *st = build_const_int(&b, idx, 1);
    Value *fops[4] = {lb, ub, st, zero};
    Op *loop = build_op(&b, SCF_FOR, fops, 4, &tf32, 1, 1);
    Block *body = block_create(c);
    region_push_block(&loop->regions[0], body);
    block_add_arg(c, body, idx, (Loc){0});
    Value *acc = block_add_arg(c, body, tf32, (Loc){0});
    Builder lbld = builder_at_end(c, body);
    Value *inv1 = build_binary(&lbld, ARITH_MULF, v, two);
    Value *inv2 = build_binary(&lbld, ARITH_MULF, v, two);
    Value *k = build_binary(&lbld, ARITH_MULI, c128, c128); /* folds */
    Value *ks = build_unary(&lbld, ARITH_SITOFP, k, f32);
    Value *kt = build_unary(&lbld, TT_SPLAT, ks, tf32);
    Value *s = build_binary(&lbld, ARITH_ADDF, inv1, inv2);
    s = build_binary(&lbld, ARITH_ADDF, s, kt);
    Value *t = build_binary(&lbld, ARITH_ADDF, acc, s);
    build_op(&lbld, SCF_YIELD, &t, 1, NULL, 0, 0);

    /* an arithmetic chain with a redundant twin at every step */
    Value *cur = op_result(loop, 0);
    for (int j = 0; j < chain; j++) {
        Value *a1 = build_binary(&b, ARITH_ADDF, cur, v);
        Value *a2 = build_binary(&b, ARITH_ADDF, v, cur); /* commutative twin */
        Value *mu = build_binary(&b, ARITH_MULF, a1, a2);
        Value *z = build_binary(&b, ARITH_ADDF, mu, zero); /* kept: x + 0.0 */
        Value *one = build_const_int(&b, i32, j);
        build_binary(&b, ARITH_ADDI, one, c128); /* dead */
        cur = build_binary(&b, ARITH_MAXNUMF, z, a1);
    }
    Value *qb = build_unary(&b, TT_SPLAT, y, tptr);
    Value *qq[2] = {qb, iv};
    Value *qptrs = op_result(build_op(&b, TT_ADDPTR, qq, 2, &tptr, 1, 0), 0);
    Value *sv[3] = {qptrs, cur, mask};
    build_op(&b, TT_STORE, sv, 3, NULL, 0, 0);
    build_op(&b, TT_RETURN, NULL, 0, NULL, 0, 0);
}

static int64_t count_ops(Op *m);

/* A module of about `target` ops: kernels of `chain` chain steps. */
static Op *build_module(Context *g, long target, int chain, int *nkernels) {
    f32 = ty_f32(g), i32 = ty_i32(g), idx = ty_index(g), pf32 = ty_ptr(g, f32, 1);
    int64_t shape[1] = {128};
    ti32 = ty_tensor(g, shape, 1, i32, NULL);
    tf32 = ty_tensor(g, shape, 1, f32, NULL);
    tptr = ty_tensor(g, shape, 1, pf32, NULL);
    Op *gm = module_create(g, (Loc){0});
    gen_kernel(g, gm, 0, chain);
    int64_t per = count_ops(gm); /* ops per kernel */
    int kernels = (int)((target + per / 2) / per);
    if (kernels < 1) kernels = 1;
    for (int i = 1; i < kernels; i++) gen_kernel(g, gm, i, chain);
    *nkernels = kernels;
    return gm;
}

static int64_t count_ops(Op *m) {
    int64_t n = 0;
    for (Op *f = module_body(m)->first; f; f = f->next) {
        VEC(Op *) stack = {0};
        vec_push(&stack, f);
        while (stack.len) {
            Op *o = vec_pop(&stack);
            n++;
            for (int r = 0; r < o->nregions; r++)
                for (Block *bl = o->regions[r].first; bl; bl = bl->next)
                    for (Op *p = bl->first; p; p = p->next) vec_push(&stack, p);
        }
        vec_free(&stack);
    }
    return n;
}

int main(int argc, char **argv) {
    long target = argc > 1 ? atol(argv[1]) : 10000;
    int repeats = argc > 2 ? atoi(argv[2]) : 3;
    const int chain = 12;

    /* build the input text */
    DiagEngine de;
    diag_init(&de);
    Context *g = ctx_new(&de);
    int kernels;
    Op *gm = build_module(g, target, chain, &kernels);
    int64_t nops = count_ops(gm) + 1;
    StrBuf text = {0};
    ir_print(gm, &text, NULL);
    ctx_free(g);

    double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
    size_t out_len = 0;
    for (int rep = 0; rep < repeats; rep++) {
        DiagEngine d;
        diag_init(&d);
        Context *c = ctx_new(&d);
#ifdef BENCH_NO_PARSER
        int k;
        Op *m = build_module(c, target, chain, &k);
        double t0 = now_seconds(), t1 = t0;
#else
        double t0 = now_seconds();
        Op *m = ir_parse(c, "bench.ttir", text.data, text.len);
        double t1 = now_seconds();
#endif
        bool ok = m && ir_verify(m, &d);
        double t2 = now_seconds();
        PassContext pc = {.ctx = c, .de = &d};
        PassOptions po = {0};
        ok = ok && pass_pipeline_run(m, "canonicalize,cse,dce,licm", &pc, &po);
        double t3 = now_seconds();
        StrBuf out = {0};
        if (ok) ir_print(m, &out, NULL);
        double t4 = now_seconds();
        if (!ok) {
            StrBuf e = {0};
            diag_render(&d, &e, false);
            fprintf(stderr, "bench: pipeline failed\n%s", sb_cstr(&e));
            return 1;
        }
        double ph[5] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0};
        if (ph[4] < best[4])
            for (int i = 0; i < 5; i++) best[i] = ph[i];
        out_len = out.len;
        sb_free(&out);
        ctx_free(c);
        diag_free(&d);
    }
    printf("| %lld | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f M | %.1f MiB |\n", (long long)nops, kernels,
           best[0] * 1e3, best[1] * 1e3, best[2] * 1e3, best[3] * 1e3, best[4] * 1e3, nops / best[4] / 1e6,
           peak_rss_bytes() / 1048576.0);
    fprintf(stderr, "input %zu bytes, output %zu bytes\n", text.len, out_len);
    sb_free(&text);
    diag_free(&de);
    return 0;
}
