/*
 * test_pass_core.c - the pass manager, dce, cse, licm, inline and
 * canonicalize's control-flow rewrites, on IR built with the Builder API.
 */
#include "pass_test.h"

static DiagEngine de;
static Context *c;
static Type *i32, *f32, *pf32, *idx;

static Value *load(Builder *b, Value *p) {
    return build_unary(b, TT_LOAD, p, f32);
}
static void store(Builder *b, Value *p, Value *v) {
    Value *ops[2] = {p, v};
    build_op(b, TT_STORE, ops, 2, NULL, 0, 0);
}

static void test_registry(void) {
    static const char *const expected[] = {"canonicalize", "cse", "dce", "licm", "inline",
                                           "nn-quant-fusion", "ttg-assign-layouts"};
    for (int i = 0; i < TC_ARRAY_LEN(expected); i++) CHECK(pass_lookup(expected[i]) != NULL);
    CHECK(pass_lookup("cse") && strcmp(pass_lookup("cse")->title, "CSE") == 0);
    CHECK(pass_lookup("nope") == NULL);
    CHECK(pipeline_lookup("default") != NULL);
    for (int i = 0; i < pass_count(); i++) CHECK(pass_at(i)->summary && pass_at(i)->run);
    Op *m = module_create(c, (Loc){0});
    int before = de.nerrors;
    CHECK(!run_pass(c, m, "cse,bogus"));
    CHECK(de.nerrors == before + 1);
    CHECK(run_pass(c, m, "default"));
    /* dumps and timing */
    StrBuf dump = {0}, timing = {0};
    PassContext pc = {.ctx = c, .de = &de};
    PassOptions o = {.print_after = "cse", .time_passes = true, .dump = &dump, .timing = &timing};
    CHECK(pass_pipeline_run(m, "canonicalize,cse,dce", &pc, &o));
    CHECK(strstr(sb_cstr(&dump), "// -----// IR Dump After CSE (cse) //----- //") != NULL);
    CHECK(strstr(sb_cstr(&dump), "Canonicalizer") == NULL);
    CHECK(strstr(sb_cstr(&timing), "Execution time report") && strstr(sb_cstr(&timing), "Total"));
    sb_free(&dump);
    sb_free(&timing);
}

static void test_dce(void) {
    Op *m = module_create(c, (Loc){0});
    Builder b, pb;
    Type *args[2] = {pf32, i32};
    Op *f = make_func(c, m, "k", args, 2, NULL, 0, false, &b);
    Value *p = func_entry(f)->args[0], *x = func_entry(f)->args[1];
    Value *a = build_binary(&b, ARITH_ADDI, x, x);
    build_binary(&b, ARITH_MULI, a, a); /* dead chain */
    Value *v = load(&b, p);
    store(&b, p, v);
    /* loop with a dead iter_arg (1) and a live one (0) */
    Value *lb = build_const_int(&b, idx, 0), *ub = build_const_int(&b, idx, 8), *st = build_const_int(&b, idx, 1);
    Value *inits[2] = {v, x};
    Builder body;
    Op *loop = build_for(&b, lb, ub, st, inits, 2, &body);
    Block *lbody = region_entry(&loop->regions[0]);
    Value *acc = build_binary(&body, ARITH_ADDF, lbody->args[1], lbody->args[1]);
    Value *dead = build_binary(&body, ARITH_ADDI, x, x); /* iter_arg 1 is never read */
    Value *ys[2] = {acc, dead};
    build_op(&body, SCF_YIELD, ys, 2, NULL, 0, 0);
    store(&b, p, op_result(loop, 0));
    build_return(&b, NULL, 0);
    /* private functions: one called, one not, one called only by the uncalled one */
    make_func(c, m, "used", NULL, 0, NULL, 0, true, &pb);
    build_return(&pb, NULL, 0);
    make_func(c, m, "leaf", NULL, 0, NULL, 0, true, &pb);
    build_return(&pb, NULL, 0);
    make_func(c, m, "unused", NULL, 0, NULL, 0, true, &pb);
    build_call(&pb, "leaf", NULL, 0, NULL, 0);
    build_return(&pb, NULL, 0);
    Builder kb = builder_before(c, block_terminator(func_entry(f)));
    build_call(&kb, "used", NULL, 0, NULL, 0);

    CHECK(run_pass(c, m, "dce"));
    CHECK(count_kind(f, ARITH_MULI) == 0);
    CHECK(count_kind(f, ARITH_ADDI) == 0); /* x+x fed only the dead chain; the loop's too */
    CHECK(count_kind(f, TT_STORE) == 2);
    CHECK(count_kind(f, TT_LOAD) == 1);
    Op *nloop = NULL;
    for (Op *o = func_entry(f)->first; o; o = o->next)
        if (o->kind == SCF_FOR) nloop = o;
    CHECK(nloop && nloop->nresults == 1 && nloop->noperands == 4);
    CHECK(nloop && region_entry(&nloop->regions[0])->nargs == 2);
    CHECK(module_lookup_func(m, "used") != NULL);
    CHECK(module_lookup_func(m, "unused") == NULL);
    CHECK(module_lookup_func(m, "leaf") == NULL);
}

static void test_cse(void) {
    Op *m = module_create(c, (Loc){0});
    Builder b;
    Type *args[3] = {pf32, i32, i32};
    Op *f = make_func(c, m, "k", args, 3, NULL, 0, false, &b);
    Value *p = func_entry(f)->args[0], *x = func_entry(f)->args[1], *y = func_entry(f)->args[2];
    Value *a1 = build_binary(&b, ARITH_ADDI, x, y);
    Value *a2 = build_binary(&b, ARITH_ADDI, y, x); /* commutative: same */
    Value *s1 = build_binary(&b, ARITH_SUBI, x, y);
    Value *s2 = build_binary(&b, ARITH_SUBI, y, x); /* not commutative: different */
    Value *l1 = load(&b, p), *l2 = load(&b, p);    /* loads never merge */
    Value *k1 = build_const_int(&b, i32, 7), *k2 = build_const_int(&b, i32, 7);
    Value *c1 = build_cmp(&b, ARITH_CMPI, CMPI_SLT, x, y), *c2 = build_cmp(&b, ARITH_CMPI, CMPI_SGT, x, y);
    /* scf.if: an outer value is reused inside; an inner one is not reused after */
    Value *cond = c1;
    Op *iff = build_op(&b, SCF_IF, &cond, 1, NULL, 0, 2);
    Block *then = block_create(c);
    region_push_block(&iff->regions[0], then);
    Builder tb = builder_at_end(c, then);
    Value *in1 = build_binary(&tb, ARITH_ADDI, x, y);   /* same as a1: reuses it */
    Value *in2 = build_binary(&tb, ARITH_MULI, x, y);   /* first of its kind */
    Value *sv = build_binary(&tb, ARITH_ADDI, in1, in2);
    Value *sf = build_unary(&tb, ARITH_SITOFP, sv, f32);
    store(&tb, p, sf);
    build_op(&tb, SCF_YIELD, NULL, 0, NULL, 0, 0);
    Value *out2 = build_binary(&b, ARITH_MULI, x, y); /* inner one doesn't dominate */
    Value *vals[] = {a1, a2, s1, s2, k1, k2, c2, out2};
    for (int i = 0; i < TC_ARRAY_LEN(vals); i++) store(&b, p, build_unary(&b, ARITH_SITOFP, vals[i], f32));
    store(&b, p, l1);
    store(&b, p, l2);
    build_return(&b, NULL, 0);

    CHECK(run_pass(c, m, "cse"));
    CHECK(count_kind(f, ARITH_ADDI) == 2);  /* a1 and the one in the if (in1 went) */
    CHECK(count_kind(f, ARITH_SUBI) == 2);
    CHECK(count_kind(f, TT_LOAD) == 2);
    CHECK(count_kind(f, ARITH_CONSTANT) == 1);
    CHECK(count_kind(f, ARITH_CMPI) == 2);  /* different predicates */
    CHECK(count_kind(f, ARITH_MULI) == 2);  /* inner and outer kept */
    CHECK(count_kind(f, ARITH_SITOFP) == 9 - 2); /* (a1,a2) and (k1,k2) pairs merged */
}

static void test_licm(void) {
    Op *m = module_create(c, (Loc){0});
    Builder b, body;
    Type *args[3] = {pf32, i32, i32};
    Op *f = make_func(c, m, "k", args, 3, NULL, 0, false, &b);
    Value *p = func_entry(f)->args[0], *x = func_entry(f)->args[1], *y = func_entry(f)->args[2];
    Value *lb = build_const_int(&b, i32, 0), *ub = build_const_int(&b, i32, 8), *st = build_const_int(&b, i32, 1);
    Value *four = build_const_int(&b, i32, 4), *zero = build_const_int(&b, i32, 0);
    Op *loop = build_for(&b, lb, ub, st, NULL, 0, &body);
    Value *iv = region_entry(&loop->regions[0])->args[0];
    Value *inv1 = build_binary(&body, ARITH_MULI, x, y);      /* invariant */
    Value *inv2 = build_binary(&body, ARITH_ADDI, inv1, x);   /* chain: invariant */
    Value *var = build_binary(&body, ARITH_ADDI, inv2, iv);   /* variant */
    Value *d1 = build_binary(&body, ARITH_DIVSI, x, y);       /* divisor may be 0 */
    Value *d2 = build_binary(&body, ARITH_DIVSI, x, four);    /* safe */
    Value *d3 = build_binary(&body, ARITH_REMUI, x, zero);    /* by zero: stays */
    Value *l = load(&body, p);                                 /* never hoisted */
    Value *sum = build_binary(&body, ARITH_ADDI, var, d1);
    sum = build_binary(&body, ARITH_ADDI, sum, d2);
    sum = build_binary(&body, ARITH_ADDI, sum, d3);
    Value *fs = build_unary(&body, ARITH_SITOFP, sum, f32);
    store(&body, p, build_binary(&body, ARITH_ADDF, fs, l));
    build_op(&body, SCF_YIELD, NULL, 0, NULL, 0, 0);
    build_return(&b, NULL, 0);

    CHECK(run_pass(c, m, "licm"));
    Block *lbody = region_entry(&loop->regions[0]);
    CHECK(inv1->def->parent == func_entry(f));
    CHECK(inv2->def->parent == func_entry(f));
    CHECK(d2->def->parent == func_entry(f));
    CHECK(var->def->parent == lbody);
    CHECK(d1->def->parent == lbody);
    CHECK(d3->def->parent == lbody);
    CHECK(l->def->parent == lbody);
    CHECK(count_kind(loop, TT_STORE) == 1);
    /* hoisted in order, before the loop */
    CHECK(inv1->def->next == inv2->def && inv2->def->next == d2->def && d2->def->next == loop);
}

static void test_inline(void) {
    Op *m = module_create(c, (Loc){0});
    Builder b, hb, gb;
    /* private @pair(x) -> (x+1, x*2); public kernel calls it and uses both */
    Type *res2[2] = {i32, i32};
    Op *pair = make_func(c, m, "pair", &i32, 1, res2, 2, true, &hb);
    Value *hx = func_entry(pair)->args[0];
    Value *one = build_const_int(&hb, i32, 1), *two = build_const_int(&hb, i32, 2);
    Value *rets[2] = {build_binary(&hb, ARITH_ADDI, hx, one), build_binary(&hb, ARITH_MULI, hx, two)};
    build_return(&hb, rets, 2);
    /* private @outer(x) calls @pair: nested call, inlined bottom-up */
    Op *outer = make_func(c, m, "outer", &i32, 1, &i32, 1, true, &gb);
    Op *inner_call = build_call(&gb, "pair", func_entry(outer)->args, 1, res2, 2);
    Value *s = build_binary(&gb, ARITH_SUBI, op_result(inner_call, 0), op_result(inner_call, 1));
    build_return(&gb, &s, 1);
    Type *args[2] = {pf32, i32};
    Op *k = make_func(c, m, "kernel", args, 2, NULL, 0, false, &b);
    Value *x = func_entry(k)->args[1];
    Op *call = build_call(&b, "outer", &x, 1, &i32, 1);
    store(&b, func_entry(k)->args[0], build_unary(&b, ARITH_SITOFP, op_result(call, 0), f32));
    build_return(&b, NULL, 0);

    CHECK(run_pass(c, m, "inline"));
    CHECK(count_kind(k, TT_CALL) == 0);
    CHECK(count_kind(k, ARITH_ADDI) == 1 && count_kind(k, ARITH_MULI) == 1 && count_kind(k, ARITH_SUBI) == 1);
    CHECK(module_lookup_func(m, "pair") == NULL && module_lookup_func(m, "outer") == NULL);
    /* the store reads (x+1)-(x*2) of the kernel's own argument */
    Op *sub = NULL;
    for (Op *o = func_entry(k)->first; o; o = o->next)
        if (o->kind == ARITH_SUBI) sub = o;
    CHECK(sub && op_operand(sub, 0)->def->kind == ARITH_ADDI && op_operand(op_operand(sub, 0)->def, 0) == x);

    /* recursion is an error at the call */
    Op *m2 = module_create(c, (Loc){0});
    Op *r = make_func(c, m2, "rec", &i32, 1, &i32, 1, true, &hb);
    Op *rc = build_call(&hb, "rec", func_entry(r)->args, 1, &i32, 1);
    Value *rv = op_result(rc, 0);
    build_return(&hb, &rv, 1);
    Op *k2 = make_func(c, m2, "kernel", &i32, 1, &i32, 1, false, &b);
    Op *kc = build_call(&b, "rec", func_entry(k2)->args, 1, &i32, 1);
    build_return(&b, (Value *[]){op_result(kc, 0)}, 1);
    int before = de.nerrors;
    CHECK(!run_pass(c, m2, "inline"));
    CHECK(de.nerrors == before + 1);
    CHECK(strstr(de.diags.data[de.diags.len - 1].msg, "recursive call to 'rec'") != NULL);
}

static void test_canonicalize_cf(void) {
    Op *m = module_create(c, (Loc){0});
    Builder b, body;
    Type *args[2] = {pf32, i32};
    Op *f = make_func(c, m, "k", args, 2, &i32, 1, false, &b);
    Value *x = func_entry(f)->args[1];
    /* scf.if (1 < 2) -> then branch inlined */
    Value *one = build_const_int(&b, i32, 1), *two = build_const_int(&b, i32, 2);
    Value *cond = build_cmp(&b, ARITH_CMPI, CMPI_SLT, one, two);
    Op *iff = build_op(&b, SCF_IF, &cond, 1, &i32, 1, 2);
    Block *tb_ = block_create(c), *eb_ = block_create(c);
    region_push_block(&iff->regions[0], tb_);
    region_push_block(&iff->regions[1], eb_);
    Builder tb = builder_at_end(c, tb_), eb = builder_at_end(c, eb_);
    Value *tv = build_binary(&tb, ARITH_MULI, x, x);
    build_op(&tb, SCF_YIELD, &tv, 1, NULL, 0, 0);
    Value *ev = build_binary(&eb, ARITH_SUBI, x, one);
    build_op(&eb, SCF_YIELD, &ev, 1, NULL, 0, 0);
    /* scf.for 5 to 5: zero trips, result = init */
    Value *five = build_const_int(&b, idx, 5), *st = build_const_int(&b, idx, 1);
    Value *init = op_result(iff, 0);
    Op *loop = build_for(&b, five, five, st, &init, 1, &body);
    Value *nv = build_binary(&body, ARITH_ADDI, region_entry(&loop->regions[0])->args[1], x);
    build_op(&body, SCF_YIELD, &nv, 1, NULL, 0, 0);
    /* 3 + x -> x + 3 (constant on the right), then CSE'd with x + 3 */
    Value *three = build_const_int(&b, i32, 3);
    Value *a1 = build_binary(&b, ARITH_ADDI, three, op_result(loop, 0));
    Value *a2 = build_binary(&b, ARITH_ADDI, op_result(loop, 0), three);
    Value *r = build_binary(&b, ARITH_XORI, a1, a2);
    build_return(&b, &r, 1);

    CHECK(run_pass(c, m, "canonicalize,cse,canonicalize"));
    CHECK(count_kind(f, SCF_IF) == 0 && count_kind(f, SCF_FOR) == 0);
    CHECK(count_kind(f, ARITH_SUBI) == 0 && count_kind(f, ARITH_CMPI) == 0);
    /* a1 ^ a2 with a1 == a2 after cse -> 0 */
    Value *ret = op_operand(block_terminator(func_entry(f)), 0);
    int64_t v = -1;
    CHECK(value_const(ret) && attr_as_int(value_const(ret), &v) && v == 0);
    /* constants sit at the top of the function */
    CHECK(func_entry(f)->first->kind == ARITH_CONSTANT);
}

int main(void) {
    diag_init(&de);
    c = ctx_new(&de);
    i32 = ty_i32(c);
    f32 = ty_f32(c);
    pf32 = ty_ptr(c, f32, 1);
    idx = ty_index(c);
    test_registry();
    test_dce();
    test_cse();
    test_licm();
    test_inline();
    test_canonicalize_cf();
    ctx_free(c);
    diag_free(&de);
    return test_report("test_pass_core");
}
