/*
 * test_ir_roundtrip.c - the IR's text form: the printer's output for
 * modules built with the Builder API, print -> parse -> print identity for
 * those and for text modules, and the verifier on hand-broken IR.
 *
 * Exits 0 when every check holds; each failure prints the file:line of the
 * check and, for text comparisons, both texts.
 */
#include "dialect/dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nfail, ncheck;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        ncheck++;                                                                      \
        if (!(cond)) {                                                                 \
            nfail++;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
        }                                                                              \
    } while (0)

#define CHECK_STR(got, want) check_str(__FILE__, __LINE__, (got), (want))
static void check_str(const char *file, int line, const char *got, const char *want) {
    ncheck++;
    if (strcmp(got, want) == 0) return;
    nfail++;
    fprintf(stderr, "%s:%d: text differs\n--- want\n%s--- got\n%s---\n", file, line, want, got);
}

#define CHECK_CONTAINS(hay, needle) check_contains(__FILE__, __LINE__, (hay), (needle))
static void check_contains(const char *file, int line, const char *hay, const char *needle) {
    ncheck++;
    if (strstr(hay, needle)) return;
    nfail++;
    fprintf(stderr, "%s:%d: expected to find\n  %s\nin\n%s\n", file, line, needle, hay);
}

/* ---- helpers ---------------------------------------------------------------- */

static char *print_op_text(Op *op, bool debug, bool generic) {
    StrBuf sb = {0};
    PrintOptions o = {debug, generic};
    ir_print(op, &sb, &o);
    return sb_take(&sb);
}

static Op *make_func(Context *c, Op *module, const char *name, Type **in, int nin, Type **res,
                     int nres, const char *vis) {
    Op *f = op_create(c, TT_FUNC, (Loc){0}, NULL, 0, NULL, 0, 1);
    op_set_attr(c, f, "sym_name", attr_string(c, name));
    op_set_attr(c, f, "function_type", attr_type(c, ty_func(c, in, nin, res, nres)));
    if (vis) op_set_attr(c, f, "sym_visibility", attr_string(c, vis));
    Block *b = block_create(c);
    region_push_block(&f->regions[0], b);
    for (int i = 0; i < nin; i++) block_add_arg(c, b, in[i], (Loc){0});
    block_append(module_body(module), f);
    return f;
}

static Type *tensor1(Context *c, int64_t n, Type *e) { return ty_tensor(c, &n, 1, e, NULL); }

/* The vector-add kernel of Triton's first tutorial, op for op. */
static Op *build_add_kernel(Context *c) {
    Op *m = module_create(c, (Loc){0});
    Type *pf = ty_ptr(c, ty_f32(c), 1), *i32 = ty_i32(c);
    Type *in[4] = {pf, pf, pf, i32};
    Op *f = make_func(c, m, "add_kernel", in, 4, NULL, 0, "public");
    NamedAttr div = {"tt.divisibility", attr_i32(c, 16)};
    Attr *d16 = attr_dict(c, &div, 1);
    Attr *args[4] = {d16, d16, d16, d16};
    op_set_attr(c, f, "arg_attrs", attr_array(c, args, 4));
    op_set_attr(c, f, "noinline", attr_bool(c, false));
    Block *e = func_entry(f);
    Builder b = builder_at_end(c, e);
    Value *c1024 = build_const_int(&b, i32, 1024);
    Op *pid = build_op(&b, TT_GET_PROGRAM_ID, NULL, 0, &i32, 1, 0);
    op_set_attr(c, pid, "axis", attr_i32(c, 0));
    Value *start = build_binary(&b, ARITH_MULI, op_result(pid, 0), c1024);
    Type *ti = tensor1(c, 1024, i32), *tf = tensor1(c, 1024, ty_f32(c));
    Type *tp = tensor1(c, 1024, pf), *tb = tensor1(c, 1024, ty_i1(c));
    Op *range = build_op(&b, TT_MAKE_RANGE, NULL, 0, &ti, 1, 0);
    op_set_attr(c, range, "start", attr_i32(c, 0));
    op_set_attr(c, range, "end", attr_i32(c, 1024));
    Value *sp = build_unary(&b, TT_SPLAT, start, ti);
    Value *offs = build_binary(&b, ARITH_ADDI, sp, op_result(range, 0));
    Value *n = build_unary(&b, TT_SPLAT, e->args[3], ti);
    Value *mask = build_cmp(&b, ARITH_CMPI, CMPI_SLT, offs, n);
    Value *ptrs[3];
    for (int i = 0; i < 3; i++) {
        Value *base = build_unary(&b, TT_SPLAT, e->args[i], tp);
        Value *ops[2] = {base, offs};
        ptrs[i] = op_result(build_op(&b, TT_ADDPTR, ops, 2, &tp, 1, 0), 0);
    }
    Value *lx[2] = {ptrs[0], mask}, *ly[2] = {ptrs[1], mask};
    Value *x = op_result(build_op(&b, TT_LOAD, lx, 2, &tf, 1, 0), 0);
    Op *ldy = build_op(&b, TT_LOAD, ly, 2, &tf, 1, 0);
    op_set_attr(c, ldy, "cache", attr_i32(c, TT_CACHE_CA));
    op_set_attr(c, ldy, "evict", attr_i32(c, TT_EVICT_LAST));
    Value *sum = build_binary(&b, ARITH_ADDF, x, op_result(ldy, 0));
    Value *st[3] = {ptrs[2], sum, mask};
    build_op(&b, TT_STORE, st, 3, NULL, 0, 0);
    build_op(&b, TT_RETURN, NULL, 0, NULL, 0, 0);
    (void)tb;
    return m;
}

static const char add_kernel_text[] =
    "module {\n"
    "  tt.func public @add_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: "
    "!tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, "
    "%arg3: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {\n"
    "    %c1024_i32 = arith.constant 1024 : i32\n"
    "    %0 = tt.get_program_id x : i32\n"
    "    %1 = arith.muli %0, %c1024_i32 : i32\n"
    "    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>\n"
    "    %3 = tt.splat %1 : i32 -> tensor<1024xi32>\n"
    "    %4 = arith.addi %3, %2 : tensor<1024xi32>\n"
    "    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>\n"
    "    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>\n"
    "    %7 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>\n"
    "    %8 = tt.addptr %7, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>\n"
    "    %9 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>\n"
    "    %10 = tt.addptr %9, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>\n"
    "    %11 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>\n"
    "    %12 = tt.addptr %11, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>\n"
    "    %13 = tt.load %8, %6 : tensor<1024x!tt.ptr<f32>>\n"
    "    %14 = tt.load %10, %6 cacheModifier = ca evictionPolicy = evict_last : "
    "tensor<1024x!tt.ptr<f32>>\n"
    "    %15 = arith.addf %13, %14 : tensor<1024xf32>\n"
    "    tt.store %12, %15, %6 : tensor<1024x!tt.ptr<f32>>\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static void test_print_add_kernel(void) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = build_add_kernel(c);
    char *s = print_op_text(m, false, false);
    CHECK_STR(s, add_kernel_text);
    free(s);
    /* generic form of a few ops */
    s = print_op_text(m, false, true);
    CHECK_CONTAINS(s, "\"builtin.module\"() ({\n");
    CHECK_CONTAINS(s, "%c1024_i32 = \"arith.constant\"() <{value = 1024 : i32}> : () -> i32\n");
    CHECK_CONTAINS(s, "%6 = \"arith.cmpi\"(%4, %5) <{predicate = 2 : i64}> : (tensor<1024xi32>, "
                      "tensor<1024xi32>) -> tensor<1024xi1>\n");
    CHECK_CONTAINS(s, "\"tt.return\"() : () -> ()\n");
    free(s);
    ctx_free(c);
    diag_free(&de);
}

/* Constants' names, name hints and their uniquing, multi-result ops. */
static void test_print_names(void) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = module_create(c, (Loc){0});
    Type *i32 = ty_i32(c), *f32 = ty_f32(c);
    Type *in[1] = {i32};
    Op *f = make_func(c, m, "names", in, 1, &f32, 1, NULL);
    func_entry(f)->args[0]->name = ctx_intern(c, "n");
    Builder b = builder_at_end(c, func_entry(f));
    Value *c0 = build_const_int(&b, i32, 0);
    Value *c0b = build_const_int(&b, i32, 0);
    Value *cm1 = build_const_int(&b, ty_i64(c), -1);
    Value *ci = build_const_int(&b, ty_index(c), 7);
    Value *t = build_const_int(&b, ty_i1(c), 1);
    Value *fl = build_const_int(&b, ty_i1(c), 0);
    Value *cf = build_const_float(&b, f32, 1.5);
    Value *cf2 = build_const_float(&b, tensor1(c, 4, f32), 0.0);
    Value *x = build_binary(&b, ARITH_ADDI, c0, c0b);
    x->name = ctx_intern(c, "offs");
    Value *y = build_binary(&b, ARITH_ADDI, x, c0);
    y->name = ctx_intern(c, "offs");
    Value *z = build_binary(&b, ARITH_ADDI, y, c0);
    z->name = ctx_intern(c, "12"); /* numeric hints are ignored */
    (void)cm1, (void)ci, (void)t, (void)fl, (void)cf2;
    /* an scf.for with two iter_args: a two-result op */
    Value *ops[5] = {c0, x, c0b, cf, cf};
    Type *rt[2] = {f32, f32};
    Op *loop = build_op(&b, SCF_FOR, ops, 5, rt, 2, 1);
    Block *body = block_create(c);
    region_push_block(&loop->regions[0], body);
    block_add_arg(c, body, i32, (Loc){0});
    Value *a1 = block_add_arg(c, body, f32, (Loc){0});
    Value *a2 = block_add_arg(c, body, f32, (Loc){0});
    Builder bb = builder_at_end(c, body);
    Value *s = build_binary(&bb, ARITH_ADDF, a1, a2);
    Value *cin = build_const_float(&bb, f32, 1.5);
    Value *ys[2] = {s, cin};
    build_op(&bb, SCF_YIELD, ys, 2, NULL, 0, 0);
    Value *after = build_binary(&b, ARITH_ADDF, op_result(loop, 0), op_result(loop, 1));
    build_op(&b, TT_RETURN, &after, 1, NULL, 0, 0);
    char *txt = print_op_text(m, false, false);
    CHECK_STR(txt,
              "module {\n"
              "  tt.func @names(%n: i32) -> f32 {\n"
              "    %c0_i32 = arith.constant 0 : i32\n"
              "    %c0_i32_0 = arith.constant 0 : i32\n"
              "    %c-1_i64 = arith.constant -1 : i64\n"
              "    %c7 = arith.constant 7 : index\n"
              "    %true = arith.constant true\n"
              "    %false = arith.constant false\n"
              "    %cst = arith.constant 1.500000e+00 : f32\n"
              "    %cst_0 = arith.constant dense<0.000000e+00> : tensor<4xf32>\n"
              "    %offs = arith.addi %c0_i32, %c0_i32_0 : i32\n"
              "    %offs_0 = arith.addi %offs, %c0_i32 : i32\n"
              "    %0 = arith.addi %offs_0, %c0_i32 : i32\n"
              "    %1:2 = scf.for %arg0 = %c0_i32 to %offs step %c0_i32_0 iter_args(%arg1 = %cst, "
              "%arg2 = %cst) -> (f32, f32)  : i32 {\n"
              "      %3 = arith.addf %arg1, %arg2 : f32\n"
              "      %cst_1 = arith.constant 1.500000e+00 : f32\n"
              "      scf.yield %3, %cst_1 : f32, f32\n"
              "    }\n"
              "    %2 = arith.addf %1#0, %1#1 : f32\n"
              "    tt.return %2 : f32\n"
              "  }\n"
              "}\n");
    free(txt);
    ctx_free(c);
    diag_free(&de);
}

/* Locations: aliases numbered in order of first use, printed at the end. */
static void test_print_locs(void) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = module_create(c, (Loc){"k.py", 1, 0});
    Op *f = make_func(c, m, "f", NULL, 0, NULL, 0, NULL);
    f->loc = (Loc){"k.py", 3, 0};
    Builder b = builder_at_end(c, func_entry(f));
    b.loc = (Loc){"k.py", 4, 7};
    build_const_int(&b, ty_i32(c), 3);
    b.loc = (Loc){0};
    build_op(&b, TT_RETURN, NULL, 0, NULL, 0, 0);
    char *txt = print_op_text(m, true, false);
    CHECK_STR(txt, "module {\n"
                   "  tt.func @f() {\n"
                   "    %c3_i32 = arith.constant 3 : i32 loc(#loc)\n"
                   "    tt.return loc(unknown)\n"
                   "  } loc(#loc1)\n"
                   "} loc(#loc2)\n"
                   "#loc = loc(\"k.py\":4:7)\n"
                   "#loc1 = loc(\"k.py\":3:0)\n"
                   "#loc2 = loc(\"k.py\":1:0)\n");
    free(txt);
    ctx_free(c);
    diag_free(&de);
}

int main(void) {
    test_print_add_kernel();
    test_print_names();
    test_print_locs();
    printf("test_ir_roundtrip: %d checks, %d failed\n", ncheck, nfail);
    return nfail ? 1 : 0;
}
