/*
 * test_sema_types.c - Triton's promotion, casts and constexpr parsing
 * through the semantic layer directly (no parser needed).
 */
#include "sema/sema_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(c)                                                                 \
    do {                                                                         \
        if (!(c)) {                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static Sema S0;
static Block *blk;

static TV arg(TlKind k) {
    const TlType *t = tl_scalar(&S0, k);
    int64_t shape = 16;
    t = tl_block(&S0, t, &shape, 1);
    return tv_tensor(block_add_arg(S0.ctx, blk, t->ir, S0.loc), t);
}

static TlKind res(PyBinOp op, TV a, TV b) {
    TV r = sem_binary(&S0, op, a, b);
    return r.kind == TV_TENSOR ? tl_sca(r.ty)->kind : TL_VOID;
}

int main(void) {
    DiagEngine de;
    diag_init(&de);
    Context *ctx = ctx_new(&de);
    S0.ctx = ctx;
    S0.de = &de;
    S0.arena = ctx->arena;
    blk = block_create(ctx);
    S0.b = builder_at_end(ctx, blk);

    /* computation_type_impl */
    CHECK(res(PY_BIN_ADD, arg(TL_I8), arg(TL_I32)) == TL_I32);
    CHECK(res(PY_BIN_ADD, arg(TL_U32), arg(TL_I32)) == TL_U32);
    CHECK(res(PY_BIN_ADD, arg(TL_U8), arg(TL_I32)) == TL_I32);
    CHECK(res(PY_BIN_ADD, arg(TL_FP16), arg(TL_BF16)) == TL_FP16);
    CHECK(res(PY_BIN_ADD, arg(TL_BF16), arg(TL_BF16)) == TL_BF16);
    CHECK(res(PY_BIN_MUL, arg(TL_FP16), tv_int(2)) == TL_FP16);
    CHECK(res(PY_BIN_DIV, arg(TL_FP16), tv_int(2)) == TL_FP32);
    CHECK(res(PY_BIN_DIV, arg(TL_I32), arg(TL_I32)) == TL_FP32);
    CHECK(res(PY_BIN_FLOORDIV, arg(TL_I32), arg(TL_I32)) == TL_I32);
    CHECK(res(PY_BIN_ADD, arg(TL_I8), tv_int(1)) == TL_I8);
    CHECK(res(PY_BIN_ADD, arg(TL_I8), tv_float(1.5)) == TL_FP32);
    CHECK(res(PY_BIN_ADD, arg(TL_FP8E4NV), arg(TL_FP8E5)) == TL_FP16);
    CHECK(res(PY_BIN_ADD, arg(TL_FP64), arg(TL_FP32)) == TL_FP64);
    CHECK(de.nerrors == 0);
    /* errors */
    CHECK(res(PY_BIN_FLOORDIV, arg(TL_I32), arg(TL_U32)) == TL_VOID);
    CHECK(de.nerrors == 1);
    CHECK(res(PY_BIN_ADD, arg(TL_U32), tv_int(-1)) == TL_VOID);
    CHECK(de.nerrors == 2);
    /* ops chosen */
    TV q = sem_binary(&S0, PY_BIN_FLOORDIV, arg(TL_U32), arg(TL_U32));
    CHECK(q.kind == TV_TENSOR && q.v->def->kind == ARITH_DIVUI);
    TV sh = sem_binary(&S0, PY_BIN_RSHIFT, arg(TL_I32), tv_int(2));
    CHECK(sh.kind == TV_TENSOR && sh.v->def->kind == ARITH_SHRSI);
    TV c = sem_compare(&S0, PY_CMP_NE, arg(TL_FP32), tv_float(0));
    int64_t pred = -1;
    CHECK(c.kind == TV_TENSOR && op_attr_int(c.v->def, "predicate", &pred) && pred == CMPF_UNE);
    TV fp8 = sem_cast(&S0, arg(TL_FP32), tl_scalar(&S0, TL_FP8E4NV), NULL);
    CHECK(fp8.kind == TV_TENSOR && fp8.v->def->kind == TT_FP_TO_FP);
    TV b = sem_cast(&S0, arg(TL_I32), tl_scalar(&S0, TL_I1), NULL);
    CHECK(b.kind == TV_TENSOR && b.v->def->kind == ARITH_CMPI);
    /* to_tensor types */
    TV big = tv_int(INT64_C(3000000000));
    CHECK(sem_to_tensor_type(&S0, &big)->kind == TL_U32);
    TV tiny = tv_float(1e-300);
    CHECK(sem_to_tensor_type(&S0, &tiny)->kind == TL_FP64);
    /* Python constexpr arithmetic */
    TV m7 = tv_int(-7), two = tv_int(2);
    CHECK(cx_binary(&S0, PY_BIN_FLOORDIV, &m7, &two).i == -4);
    CHECK(cx_binary(&S0, PY_BIN_MOD, &m7, &two).i == 1);
    CHECK(cx_binary(&S0, PY_BIN_DIV, &m7, &two).f == -3.5);
    CHECK(cx_binary(&S0, PY_BIN_POW, &two, &two).i == 4);
    /* -D values */
    ConstexprValue cv;
    CHECK(sema_parse_constexpr(S0.arena, "1024", &cv, NULL) && cv.kind == CV_INT && cv.i == 1024);
    CHECK(sema_parse_constexpr(S0.arena, "0.5", &cv, NULL) && cv.kind == CV_FLOAT && cv.f == 0.5);
    CHECK(sema_parse_constexpr(S0.arena, "True", &cv, NULL) && cv.kind == CV_BOOL && cv.i == 1);
    CHECK(sema_parse_constexpr(S0.arena, "'leaky_relu'", &cv, NULL) && cv.kind == CV_STR && !strcmp(cv.s, "leaky_relu"));
    CHECK(sema_parse_constexpr(S0.arena, "tl.float16", &cv, NULL) && cv.kind == CV_DTYPE && !strcmp(cv.s, "float16"));
    CHECK(!sema_parse_constexpr(S0.arena, "tl.nosuch", &cv, NULL));
    /* a @jit function argument: "@name" */
    CHECK(sema_parse_constexpr(S0.arena, "@relu_fn", &cv, NULL) && cv.kind == CV_FUNC && !strcmp(cv.s, "relu_fn"));
    CHECK(!sema_parse_constexpr(S0.arena, "@1x", &cv, NULL) && !sema_parse_constexpr(S0.arena, "@a.b", &cv, NULL));
    CHECK(sema_parse_constexpr(S0.arena, "(@f, 2)", &cv, NULL) && cv.kind == CV_TUPLE && cv.elems[0].kind == CV_FUNC);
    /* integers as Python writes them; past 64 bits an error, not a float */
    const char *why = NULL;
    CHECK(sema_parse_constexpr(S0.arena, "18446744073709551615", &cv, NULL) && cv.kind == CV_INT && cv.u64 &&
          (uint64_t)cv.i == UINT64_MAX);
    CHECK(sema_parse_constexpr(S0.arena, "-9223372036854775808", &cv, NULL) && cv.kind == CV_INT && !cv.u64 &&
          cv.i == INT64_MIN);
    CHECK(!sema_parse_constexpr(S0.arena, "18446744073709551616", &cv, &why) && why && strstr(why, "out of range"));
    why = NULL;
    CHECK(!sema_parse_constexpr(S0.arena, "-9223372036854775809", &cv, &why) && why && strstr(why, "out of range"));
    CHECK(!sema_parse_constexpr(S0.arena, "(1, 1" "00000000000000000000000)", &cv, NULL));
    CHECK(sema_parse_constexpr(S0.arena, "0o17", &cv, NULL) && cv.kind == CV_INT && cv.i == 15);
    CHECK(sema_parse_constexpr(S0.arena, "0b101", &cv, NULL) && cv.kind == CV_INT && cv.i == 5);
    CHECK(sema_parse_constexpr(S0.arena, "-0x_ff", &cv, NULL) && cv.kind == CV_INT && cv.i == -255);
    CHECK(sema_parse_constexpr(S0.arena, "1_000", &cv, NULL) && cv.kind == CV_INT && cv.i == 1000);
    CHECK(!sema_parse_constexpr(S0.arena, "010", &cv, NULL) && !sema_parse_constexpr(S0.arena, "1__0", &cv, NULL));
    CHECK(!sema_parse_constexpr(S0.arena, "0x1p3", &cv, NULL) && !sema_parse_constexpr(S0.arena, "12ab", &cv, NULL));
    CHECK(sema_parse_constexpr(S0.arena, "1e999", &cv, NULL) && cv.kind == CV_FLOAT && isinf(cv.f));
    CHECK(sema_parse_constexpr(S0.arena, "1_0.5e-1", &cv, NULL) && cv.kind == CV_FLOAT && cv.f == 1.05);
    CHECK(sema_parse_constexpr(S0.arena, ".5", &cv, NULL) && cv.kind == CV_FLOAT && cv.f == 0.5);
    CHECK(sema_parse_constexpr(S0.arena, "-inf", &cv, NULL) && cv.kind == CV_FLOAT && cv.f < 0 && isinf(cv.f));
    /* a tuple of more than 64 items (a fixed array of 64 rejected it) */
    {
        char buf[512];
        int len = snprintf(buf, sizeof buf, "(");
        for (int i = 0; i < 100; i++) len += snprintf(buf + len, sizeof buf - (size_t)len, "%d,", i);
        snprintf(buf + len, sizeof buf - (size_t)len, ")");
        CHECK(sema_parse_constexpr(S0.arena, buf, &cv, NULL) && cv.kind == CV_TUPLE && cv.i == 100 &&
              cv.elems[99].i == 99);
    }
    map_free(&S0.tltypes);
    ctx_free(ctx);
    diag_free(&de);
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures != 0;
}
