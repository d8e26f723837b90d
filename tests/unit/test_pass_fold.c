/*
 * test_pass_fold.c - canonicalize's constant folding, checked for exact
 * integer and IEEE semantics on IR built with the Builder API.
 */
#include "pass_test.h"

static DiagEngine de;
static Context *c;

/* Builds `return OP(const a, const b)` (b may be NULL for unary ops, and a
 * NULL attr stands for a function argument of type t), canonicalizes, and
 * returns the constant returned, or NULL when the op did not fold. */
static Attr *fold_op(OpKind k, Type *t, Type *rt, Attr *a, Attr *b, int64_t pred) {
    Op *m = module_create(c, (Loc){0});
    Builder bd;
    Op *f = make_func(c, m, "f", &t, 1, &rt, 1, false, &bd);
    Value *x = a ? build_constant(&bd, a) : func_entry(f)->args[0];
    Value *ops[2] = {x, NULL};
    int n = 1;
    if (b) ops[n++] = build_constant(&bd, b);
    Op *op = build_op(&bd, k, ops, n, &rt, 1, 0);
    if (pred >= 0) op_set_attr(c, op, "predicate", attr_int(c, ty_i64(c), pred));
    Value *r = op_result(op, 0);
    build_return(&bd, &r, 1);
    CHECK(run_pass(c, m, "canonicalize"));
    Value *ret = op_operand(block_terminator(func_entry(f)), 0);
    return value_const(ret);
}

static Attr *bin(OpKind k, Type *t, int64_t a, int64_t b) {
    return fold_op(k, t, t, attr_int(c, t, a), attr_int(c, t, b), -1);
}
static Attr *fbin(OpKind k, Type *t, double a, double b) {
    return fold_op(k, t, t, attr_float(c, t, a), attr_float(c, t, b), -1);
}
static Attr *cmpi(int pred, Type *t, int64_t a, int64_t b) {
    return fold_op(ARITH_CMPI, t, ty_i1(c), attr_int(c, t, a), attr_int(c, t, b), pred);
}
static Attr *cmpf(int pred, Type *t, double a, double b) {
    return fold_op(ARITH_CMPF, t, ty_i1(c), attr_float(c, t, a), attr_float(c, t, b), pred);
}
static bool is_int(Attr *a, int64_t v) { int64_t x; return a && attr_as_int(a, &x) && x == v; }
static bool is_float(Attr *a, double v) {
    double x;
    if (!a || !attr_as_float(a, &x)) return false;
    if (isnan(v)) return isnan(x); /* any NaN; its sign is the hardware's */
    return x == v && signbit(x) == signbit(v);
}

/* `return OP(%arg, const b)`: true when the result is the argument itself. */
static bool folds_to_arg(OpKind k, Type *t, Attr *b) {
    Op *m = module_create(c, (Loc){0});
    Builder bd;
    Op *f = make_func(c, m, "f", &t, 1, &t, 1, false, &bd);
    Value *x = func_entry(f)->args[0];
    Value *r = build_binary(&bd, k, x, b ? build_constant(&bd, b) : x);
    build_return(&bd, &r, 1);
    CHECK(run_pass(c, m, "canonicalize"));
    return op_operand(block_terminator(func_entry(f)), 0) == x;
}

int main(void) {
    diag_init(&de);
    c = ctx_new(&de);
    Type *i8 = ty_int(c, 8), *i32 = ty_i32(c), *i64 = ty_i64(c), *i1 = ty_i1(c);
    Type *f16 = ty_float(c, FK_F16), *f32 = ty_f32(c), *bf16 = ty_float(c, FK_BF16);

    /* integers wrap at the type's width */
    CHECK(is_int(bin(ARITH_ADDI, i8, 100, 100), -56));
    CHECK(is_int(bin(ARITH_MULI, i8, 16, 16), 0));
    CHECK(is_int(bin(ARITH_SUBI, i32, INT32_MIN, 1), INT32_MAX));
    CHECK(is_int(bin(ARITH_ADDI, i64, INT64_MAX, 1), INT64_MIN));
    /* signed division truncates toward zero; remainder takes the dividend's sign */
    CHECK(is_int(bin(ARITH_DIVSI, i32, -7, 2), -3));
    CHECK(is_int(bin(ARITH_REMSI, i32, -7, 2), -1));
    CHECK(is_int(bin(ARITH_FLOORDIVSI, i32, -7, 2), -4));
    CHECK(is_int(bin(ARITH_CEILDIVSI, i32, 7, 2), 4));
    CHECK(is_int(bin(ARITH_CEILDIVSI, i32, -7, 2), -3));
    /* unsigned views of i8 -7 = 249 */
    CHECK(is_int(bin(ARITH_DIVUI, i8, -7, 2), 124));
    CHECK(is_int(bin(ARITH_REMUI, i8, -7, 2), 1));
    CHECK(is_int(bin(ARITH_SHRUI, i8, -128, 7), 1));
    CHECK(is_int(bin(ARITH_SHRSI, i8, -128, 7), -1));
    CHECK(is_int(bin(ARITH_MAXUI, i8, -1, 1), -1));
    CHECK(is_int(bin(ARITH_MAXSI, i8, -1, 1), 1));
    /* undefined: not folded */
    CHECK(bin(ARITH_DIVSI, i32, 1, 0) == NULL);
    CHECK(bin(ARITH_DIVUI, i32, 1, 0) == NULL);
    CHECK(bin(ARITH_REMSI, i32, 1, 0) == NULL);
    CHECK(bin(ARITH_DIVSI, i32, INT32_MIN, -1) == NULL);
    CHECK(bin(ARITH_DIVSI, i64, INT64_MIN, -1) == NULL);
    CHECK(bin(ARITH_SHLI, i8, 1, 8) == NULL);
    CHECK(is_int(bin(ARITH_SHLI, i8, 1, 7), -128));
    /* comparisons: signed vs unsigned */
    CHECK(is_int(cmpi(CMPI_ULT, i8, -1, 1), 0));
    CHECK(is_int(cmpi(CMPI_SLT, i8, -1, 1), 1));
    CHECK(is_int(cmpi(CMPI_UGT, i32, -1, 0), 1));
    CHECK(is_int(cmpi(CMPI_EQ, i8, 255, -1), 1)); /* same bits */
    /* floats in the type's precision */
    CHECK(is_float(fbin(ARITH_DIVF, f16, 1, 3), 0.333251953125));
    CHECK(is_float(fbin(ARITH_DIVF, bf16, 1, 3), 0.333984375));
    CHECK(is_float(fbin(ARITH_DIVF, f32, 1, 3), (double)(1.0f / 3.0f)));
    CHECK(is_float(fbin(ARITH_ADDF, f32, (double)0.1f, (double)0.2f), (double)(0.1f + 0.2f)));
    CHECK(is_float(fbin(ARITH_ADDF, f16, 65504, 65504), INFINITY));
    CHECK(is_float(fbin(ARITH_DIVF, f32, 1, 0), INFINITY));
    CHECK(is_float(fbin(ARITH_DIVF, f32, 0, 0), NAN));
    CHECK(is_float(fbin(ARITH_ADDF, f32, -0.0, -0.0), -0.0));
    CHECK(is_float(fbin(ARITH_ADDF, f32, -0.0, 0.0), 0.0));
    CHECK(is_float(fbin(ARITH_MAXIMUMF, f32, NAN, 1), NAN));
    CHECK(is_float(fbin(ARITH_MAXNUMF, f32, NAN, 1), 1));
    CHECK(is_float(fbin(ARITH_MINIMUMF, f32, 0.0, -0.0), -0.0));
    /* NaN compares */
    CHECK(is_int(cmpf(CMPF_OEQ, f32, NAN, NAN), 0));
    CHECK(is_int(cmpf(CMPF_UNE, f32, NAN, NAN), 1));
    CHECK(is_int(cmpf(CMPF_UNO, f32, NAN, 1), 1));
    CHECK(is_int(cmpf(CMPF_OLT, f32, 1, 2), 1));
    CHECK(is_int(cmpf(CMPF_ULT, f32, 2, NAN), 1));
    /* identities, -0.0 respected */
    CHECK(!folds_to_arg(ARITH_ADDF, f32, attr_float(c, f32, 0.0)));
    CHECK(folds_to_arg(ARITH_ADDF, f32, attr_float(c, f32, -0.0)));
    CHECK(folds_to_arg(ARITH_SUBF, f32, attr_float(c, f32, 0.0)));
    CHECK(!folds_to_arg(ARITH_SUBF, f32, attr_float(c, f32, -0.0)));
    CHECK(folds_to_arg(ARITH_MULF, f32, attr_float(c, f32, 1.0)));
    CHECK(!folds_to_arg(ARITH_MULF, f32, attr_float(c, f32, 0.0)));
    CHECK(folds_to_arg(ARITH_ADDI, i32, attr_int(c, i32, 0)));
    CHECK(folds_to_arg(ARITH_MULI, i32, attr_int(c, i32, 1)));
    CHECK(folds_to_arg(ARITH_ANDI, i32, attr_int(c, i32, -1)));
    CHECK(folds_to_arg(ARITH_ANDI, i1, attr_int(c, i1, 1)));
    CHECK(folds_to_arg(ARITH_ORI, i32, attr_int(c, i32, 0)));
    CHECK(folds_to_arg(ARITH_ANDI, i32, NULL)); /* x & x */
    CHECK(folds_to_arg(ARITH_MAXSI, i32, NULL));
    CHECK(!folds_to_arg(ARITH_DIVSI, i32, NULL)); /* x / x is not 1 when x = 0 */
    CHECK(is_int(fold_op(ARITH_MULI, i32, i32, NULL, attr_int(c, i32, 0), -1), 0));
    CHECK(is_int(fold_op(ARITH_ORI, i8, i8, NULL, attr_int(c, i8, -1), -1), -1));
    /* casts */
    CHECK(is_int(fold_op(ARITH_EXTSI, i1, i32, attr_int(c, i1, 1), NULL, -1), -1));
    CHECK(is_int(fold_op(ARITH_EXTUI, i1, i32, attr_int(c, i1, 1), NULL, -1), 1));
    CHECK(is_int(fold_op(ARITH_EXTUI, i8, i32, attr_int(c, i8, -1), NULL, -1), 255));
    CHECK(is_int(fold_op(ARITH_TRUNCI, i32, i8, attr_int(c, i32, 300), NULL, -1), 44));
    CHECK(is_float(fold_op(ARITH_SITOFP, i64, f32, attr_int(c, i64, (1LL << 53) + 1), NULL, -1), 9007199254740992.0));
    CHECK(is_float(fold_op(ARITH_SITOFP, i64, f32, attr_int(c, i64, (1LL << 24) + 1), NULL, -1), 16777216.0));
    CHECK(is_float(fold_op(ARITH_SITOFP, i64, f32, attr_int(c, i64, (1LL << 24) + 3), NULL, -1), 16777220.0));
    CHECK(is_float(fold_op(ARITH_UITOFP, i8, f32, attr_int(c, i8, -1), NULL, -1), 255.0));
    CHECK(is_float(fold_op(ARITH_TRUNCF, f32, f16, attr_float(c, f32, 1.0 / 3.0), NULL, -1), 0.333251953125));
    CHECK(is_int(fold_op(ARITH_FPTOSI, f32, i32, attr_float(c, f32, -2.75), NULL, -1), -2));
    CHECK(fold_op(ARITH_FPTOSI, f32, i32, attr_float(c, f32, 1e10), NULL, -1) == NULL);
    CHECK(fold_op(ARITH_FPTOUI, f32, i32, attr_float(c, f32, -1.0), NULL, -1) == NULL);
    CHECK(fold_op(ARITH_FPTOSI, f32, i32, attr_float(c, f32, NAN), NULL, -1) == NULL);
    CHECK(is_float(fold_op(ARITH_NEGF, f32, f32, attr_float(c, f32, 0.0), NULL, -1), -0.0));
    CHECK(is_float(fold_op(MATH_SQRT, f32, f32, attr_float(c, f32, 2.0), NULL, -1), (double)sqrtf(2.0f)));

    /* splat tensors */
    int64_t shape[1] = {4};
    Type *t4 = ty_tensor(c, shape, 1, i32, NULL);
    Attr *s3 = attr_dense_splat(c, t4, attr_int(c, i32, 3)), *s4 = attr_dense_splat(c, t4, attr_int(c, i32, 4));
    Attr *r = fold_op(ARITH_ADDI, t4, t4, s3, s4, -1);
    CHECK(r && r->kind == ATTR_DENSE && r->dense.nvals == 1 && r->dense.ints[0] == 7);
    int64_t vals[4] = {1, 2, 3, 4};
    Attr *d = attr_dense_int(c, t4, vals, 4);
    r = fold_op(ARITH_MULI, t4, t4, d, s3, -1);
    CHECK(r && r->dense.nvals == 4 && r->dense.ints[3] == 12);
    r = fold_op(TT_SPLAT, i32, t4, attr_int(c, i32, 5), NULL, -1);
    CHECK(r && r->kind == ATTR_DENSE && r->type == t4 && r->dense.ints[0] == 5);
    r = fold_op(ARITH_DIVSI, t4, t4, s3, attr_dense_int(c, t4, (int64_t[]){1, 1, 0, 1}, 4), -1);
    CHECK(r == NULL);
    Type *b4 = ty_tensor(c, shape, 1, i1, NULL);
    r = fold_op(ARITH_CMPI, t4, b4, d, s3, CMPI_SGE);
    CHECK(r && r->type == b4 && r->dense.nvals == 4 && r->dense.ints[0] == 0 && r->dense.ints[2] == 1);

    ctx_free(c);
    diag_free(&de);
    return test_report("test_pass_fold");
}
