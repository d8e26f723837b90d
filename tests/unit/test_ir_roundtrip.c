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
#include <time.h>

char *strdup(const char *s);

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

/* Constants' names, name hints and their uniquing (one conflict counter,
 * as MLIR), entry-block arguments numbered even when named, multi-result
 * ops. */
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
              "    %cst_1 = arith.constant dense<0.000000e+00> : tensor<4xf32>\n"
              "    %offs = arith.addi %c0_i32, %c0_i32_0 : i32\n"
              "    %offs_2 = arith.addi %offs, %c0_i32 : i32\n"
              "    %0 = arith.addi %offs_2, %c0_i32 : i32\n"
              "    %1:2 = scf.for %arg1 = %c0_i32 to %offs step %c0_i32_0 iter_args(%arg2 = %cst, "
              "%arg3 = %cst) -> (f32, f32)  : i32 {\n"
              "      %3 = arith.addf %arg2, %arg3 : f32\n"
              "      %cst_3 = arith.constant 1.500000e+00 : f32\n"
              "      scf.yield %3, %cst_3 : f32, f32\n"
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

/* ---- text round trips ------------------------------------------------------ */

/* Parses text (which must verify), prints it, and checks that printing the
 * parse of that print gives the same text; also for the generic form and
 * with debug info. Returns the first print (caller frees). */
static char *roundtrip(const char *file, int line, const char *text) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = ir_parse(c, "rt.ttir", text, strlen(text));
    ncheck++;
    if (!m || !ir_verify(m, &de)) {
        StrBuf sb = {0};
        diag_render(&de, &sb, false);
        fprintf(stderr, "%s:%d: text does not parse or verify:\n%s", file, line, sb_cstr(&sb));
        sb_free(&sb);
        nfail++;
        ctx_free(c);
        diag_free(&de);
        return strdup("");
    }
    char *first = print_op_text(m, false, false);
    for (int mode = 0; mode < 3; mode++) {
        char *t = print_op_text(m, mode == 1, mode == 2);
        Context *c2 = ctx_new(&de);
        Op *m2 = ir_parse(c2, "rt2.ttir", t, strlen(t));
        CHECK(m2 != NULL);
        if (m2) {
            CHECK(ir_verify(m2, &de));
            char *t2 = print_op_text(m2, mode == 1, false);
            check_str(file, line, t2, mode == 2 ? first : t);
            free(t2);
        }
        free(t);
        ctx_free(c2);
    }
    ctx_free(c);
    diag_free(&de);
    return first;
}
#define ROUNDTRIP(text) roundtrip(__FILE__, __LINE__, (text))

static void test_text_roundtrips(void) {
    /* the builder's add kernel, through text */
    free(ROUNDTRIP(add_kernel_text));
    char *s = ROUNDTRIP(add_kernel_text);
    CHECK_STR(s, add_kernel_text);
    free(s);
    /* names, regions, multi-results, locations */
    static const char names[] =
        "#loc = loc(\"k.py\":3:0)\n"
        "tt.func @f(%x_ptr: !tt.ptr<f32> loc(\"x_ptr\"(#loc)), %n: i32) -> f32 {\n"
        "  %c0_i32 = arith.constant 0 : i32\n"
        "  %c1_i32 = arith.constant 1 : i32\n"
        "  %cst = arith.constant 0.000000e+00 : f32\n"
        "  %acc:2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%a = %cst, %b = %cst) -> (f32, f32)  : i32 {\n"
        "    %v = tt.load %x_ptr : !tt.ptr<f32> loc(#loc1)\n"
        "    %s = arith.addf %a, %v : f32\n"
        "    %c = arith.cmpf ogt, %s, %b : f32\n"
        "    %m = scf.if %c -> (f32) {\n"
        "      scf.yield %s : f32\n"
        "    } else {\n"
        "      scf.yield %b : f32\n"
        "    }\n"
        "    scf.yield %s, %m : f32, f32\n"
        "  }\n"
        "  %r = arith.addf %acc#0, %acc#1 : f32\n"
        "  tt.return %r : f32\n"
        "}\n"
        "#loc1 = loc(callsite(\"k.py\":7:12 at #loc))\n";
    s = ROUNDTRIP(names);
    CHECK_CONTAINS(s, "%acc:2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%a = %cst, %b = %cst)");
    CHECK_CONTAINS(s, "%r = arith.addf %acc#0, %acc#1 : f32");
    free(s);
}

/* Builds a module, then lets `breakit` damage it; the verifier must
 * report `want` (a substring), at the op's location when it has one. */
typedef void (*BreakFn)(Context *c, Op *m);

static void expect_verify_error(const char *file, int line, BreakFn breakit, const char *want) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = build_add_kernel(c);
    ncheck++;
    if (!ir_verify(m, &de)) {
        nfail++;
        fprintf(stderr, "%s:%d: the unbroken module does not verify\n", file, line);
    }
    breakit(c, m);
    bool ok = ir_verify(m, &de);
    StrBuf sb = {0};
    diag_render(&de, &sb, false);
    ncheck++;
    if (ok || !strstr(sb_cstr(&sb), want)) {
        nfail++;
        fprintf(stderr, "%s:%d: expected a verifier error containing\n  %s\ngot:\n%s\n", file, line, want,
                ok ? "(verified)" : sb_cstr(&sb));
    }
    /* printing broken IR must not crash, and reads back */
    char *t = print_op_text(m, true, false);
    Context *c2 = ctx_new(&de);
    Op *m2 = ir_parse(c2, "broken.ttir", t, strlen(t));
    (void)m2;
    free(t);
    ctx_free(c2);
    sb_free(&sb);
    ctx_free(c);
    diag_free(&de);
}
#define EXPECT_VERIFY_ERROR(fn, want) expect_verify_error(__FILE__, __LINE__, fn, want)

static Op *nth_op(Op *m, int n) {
    Op *o = func_entry(module_body(m)->first)->first;
    while (n-- > 0 && o) o = o->next;
    return o;
}

static void break_order(Context *c, Op *m) {
    /* %1 = arith.muli %0, %c1024_i32 moved above %0's definition */
    (void)c;
    Op *mul = nth_op(m, 2), *pid = nth_op(m, 1);
    op_move_before(mul, pid);
}
static void break_terminator(Context *c, Op *m) {
    (void)c;
    op_erase(func_entry(module_body(m)->first)->last);
}
static void break_mid_terminator(Context *c, Op *m) {
    Op *ret = op_create(c, TT_RETURN, (Loc){"x.py", 2, 3}, NULL, 0, NULL, 0, 0);
    op_insert_before(nth_op(m, 3), ret);
}
static void break_types(Context *c, Op *m) {
    /* arith.muli %0, (an i64 constant) : i32 */
    Builder b = builder_before(c, nth_op(m, 2));
    Value *w = build_const_int(&b, ty_i64(c), 3);
    op_set_operand(nth_op(m, 3), 1, w);
}
static void break_count(Context *c, Op *m) {
    Op *mul = nth_op(m, 2);
    Value *one = op_operand(mul, 0);
    op_set_operands(c, mul, &one, 1);
}
static void break_isolation(Context *c, Op *m) {
    /* a second function using the first one's %0 */
    Op *f = make_func(c, m, "other", NULL, 0, NULL, 0, NULL);
    Builder b = builder_at_end(c, func_entry(f));
    Value *pid = op_result(nth_op(m, 1), 0);
    build_binary(&b, ARITH_ADDI, pid, pid);
    build_op(&b, TT_RETURN, NULL, 0, NULL, 0, 0);
}
static void break_sibling(Context *c, Op *m) {
    /* scf.if: the else branch uses a value of the then branch */
    Type *i32 = ty_i32(c);
    Op *f = module_body(m)->first;
    Builder b = builder_before(c, func_entry(f)->last);
    Value *t = build_const_int(&b, ty_i1(c), 1);
    Op *iff = build_op(&b, SCF_IF, &t, 1, &i32, 1, 2);
    Block *then = block_create(c), *els = block_create(c);
    region_push_block(&iff->regions[0], then);
    region_push_block(&iff->regions[1], els);
    Builder bt = builder_at_end(c, then);
    Value *x = build_const_int(&bt, i32, 1);
    build_op(&bt, SCF_YIELD, &x, 1, NULL, 0, 0);
    Builder be = builder_at_end(c, els);
    build_op(&be, SCF_YIELD, &x, 1, NULL, 0, 0);
}
static void break_load(Context *c, Op *m) {
    /* a load whose result is not the pointee type */
    Op *f = module_body(m)->first;
    Builder b = builder_before(c, func_entry(f)->last);
    Value *p = func_entry(f)->args[0];
    Type *i32 = ty_i32(c);
    build_op(&b, TT_LOAD, &p, 1, &i32, 1, 0);
}
static void break_for(Context *c, Op *m) {
    /* scf.for whose iter_arg is f32 but yields an i32 */
    Op *f = module_body(m)->first;
    Builder b = builder_before(c, func_entry(f)->last);
    Value *n = func_entry(f)->args[3];
    Value *x = build_const_float(&b, ty_f32(c), 1.0);
    Value *ops[4] = {n, n, n, x};
    Type *f32 = ty_f32(c);
    Op *loop = build_op(&b, SCF_FOR, ops, 4, &f32, 1, 1);
    Block *body = block_create(c);
    region_push_block(&loop->regions[0], body);
    Value *iv = block_add_arg(c, body, ty_i32(c), (Loc){0});
    block_add_arg(c, body, f32, (Loc){0});
    Builder bb = builder_at_end(c, body);
    build_op(&bb, SCF_YIELD, &iv, 1, NULL, 0, 0);
}
static void break_self_use(Context *c, Op *m) {
    /* an op using its own result */
    (void)c;
    Op *add = nth_op(m, 5);
    op_set_operand(add, 0, op_result(add, 0));
}

static void test_verifier(void) {
    EXPECT_VERIFY_ERROR(break_order, "'arith.muli' op operand #0 does not dominate this use");
    EXPECT_VERIFY_ERROR(break_terminator, "'tt.func' op missing terminator: region #0 must end with 'tt.return'");
    EXPECT_VERIFY_ERROR(break_mid_terminator, "x.py:2:3: error: 'tt.return' op must be the last operation in the parent block");
    EXPECT_VERIFY_ERROR(break_types, "'arith.muli' op requires the same type for all operands and results, got 'i32' and 'i64'");
    EXPECT_VERIFY_ERROR(break_count, "'arith.muli' op expected 2 operands, but found 1");
    EXPECT_VERIFY_ERROR(break_isolation, "'arith.addi' op using value defined outside the region");
    EXPECT_VERIFY_ERROR(break_sibling, "'scf.yield' op operand #0 does not dominate this use");
    EXPECT_VERIFY_ERROR(break_load, "'tt.load' op result type 'i32' must be the pointee type of '!tt.ptr<f32>'");
    EXPECT_VERIFY_ERROR(break_for, "'scf.yield' op operand #0 has type 'i32' but the enclosing 'scf.for' expects 'f32'");
    EXPECT_VERIFY_ERROR(break_self_use, "'arith.addi' op operand #0 does not dominate this use");
}

/* Parse errors: one diagnostic, at the right place, NULL result. */
static void test_parse_errors(void) {
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"tt.func @f() {\n  %0 = tt.lod : i32\n}", "e.ttir:2:8: error: unknown operation 'tt.lod'"},
        {"tt.func @f() {\n  tt.return %5 : i32\n}", "e.ttir:2:13: error: use of undefined value '%5'"},
        {"tt.func @f() {", "e.ttir:1:14: error: unterminated region"},
        {"%", "e.ttir:1:1: error: invalid identifier after sigil"},
        {"tt.func @f() { %0 = arith.constant 1 : i999 }", "integer bitwidth 999 is not supported"},
        {"\"", "e.ttir:1:1: error: unterminated string literal"},
        {"tt.func @f() { %0 = arith.constant dense<[1, 2]> : tensor<3xi32> }", "dense literal has 2 elements"},
        {"#a = loc(#b)\n#b = loc(#a)\ntt.func @f() { tt.return loc(#a) }", "refers to itself"},
    };
    for (int i = 0; i < TC_ARRAY_LEN(cases); i++) {
        DiagEngine de;
        diag_init(&de);
        Context *c = ctx_new(&de);
        Op *m = ir_parse(c, "e.ttir", cases[i].text, strlen(cases[i].text));
        CHECK(m == NULL);
        CHECK(de.nerrors == 1);
        StrBuf sb = {0};
        diag_render(&de, &sb, false);
        CHECK_CONTAINS(sb_cstr(&sb), cases[i].want);
        sb_free(&sb);
        ctx_free(c);
        diag_free(&de);
    }
}

/* Parse -> verify -> print of a straight-line module of about 1.25 * n ops;
 * the best of three runs, in seconds. */
/* The thread's CPU time: unlike the wall clock, not stretched while other
 * processes have the CPU (CI runs tests two at a time on two cores). */
static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double time_module(int n) {
    StrBuf src = {0};
    sb_puts(&src, "tt.func @big(%a: tensor<128xi32>, %p: tensor<128x!tt.ptr<f32>>) {\n");
    sb_puts(&src, "  %v0 = arith.addi %a, %a : tensor<128xi32>\n");
    for (int i = 1; i < n; i++) {
        sb_printf(&src, "  %%v%d = arith.addi %%v%d, %%a : tensor<128xi32>\n", i, i - 1);
        if (i % 4 == 0) sb_printf(&src, "  %%q%d = tt.addptr %%p, %%v%d : tensor<128x!tt.ptr<f32>>, tensor<128xi32>\n", i, i);
    }
    sb_puts(&src, "  tt.return\n}\n");
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        DiagEngine de;
        diag_init(&de);
        Context *c = ctx_new(&de);
        double t0 = cpu_seconds();
        Op *m = ir_parse(c, "big.ttir", src.data, src.len);
        bool ok = m && ir_verify(m, &de);
        StrBuf out = {0};
        if (m) ir_print(m, &out, NULL);
        double t = cpu_seconds() - t0;
        CHECK(ok);
        if (t < best) best = t;
        sb_free(&out);
        ctx_free(c);
        diag_free(&de);
    }
    sb_free(&src);
    return best;
}

/* Parse -> verify -> print is linear. Checked as a ratio of CPU times, not
 * a rate, so a loaded machine or a sanitizer build does not fail it: four
 * times the ops must take well under the 16x a quadratic step would (linear
 * is 4x, and about 6x here once the larger module outgrows the caches). The
 * sizes are timed in turns, so a burst of load (caches shared with other
 * processes) falls on both. */
static void test_throughput(void) {
    int n = 12500;
    double t1 = 1e30, t4 = 1e30;
    for (int round = 0; round < 2; round++) {
        double a = time_module(n), b = time_module(4 * n);
        if (a < t1) t1 = a;
        if (b < t4) t4 = b;
    }
    int nops = 4 * n + n + 1;
    printf("throughput: %d ops in %.1f ms (%.2f M ops/s); %d ops in %.1f ms; ratio %.1f\n", nops,
           t4 * 1e3, nops / t4 / 1e6, n + n / 4 + 1, t1 * 1e3, t4 / t1);
    CHECK(t4 / t1 < 11.0);
}

int main(void) {
    test_print_add_kernel();
    test_print_names();
    test_print_locs();
    test_text_roundtrips();
    test_verifier();
    test_parse_errors();
    test_throughput();
    printf("test_ir_roundtrip: %d checks, %d failed\n", ncheck, nfail);
    return nfail ? 1 : 0;
}
