/*
 * test_cpu_elementwise.c - the CPU backend on element-wise kernels: vector
 * add with a ragged masked edge, integer semantics (divsi/remsi on
 * negatives, division by zero, shifts, wrapping, mulhiui, i64), a 2-D
 * broadcast/expand_dims/trans kernel, scalar code, and tt.assert.
 * Outputs are poisoned before every launch and compared with plain C.
 */
#include "cpu_test_util.h"

/* z[i] = x[i] + y[i] for i < n, BLOCK lanes per program. */
static void build_add(TB *t, int block) {
    Type *pf = T_ptr(t, T_f32(t));
    Type *params[] = {pf, pf, pf, T_i32(t)};
    tb_func(t, "add_kernel", params, 4);
    Type *ti = T_ten1(t, block, T_i32(t)), *tp = T_ten1(t, block, pf);
    Value *pid = tb_pid(t, 0);
    Value *start = tb_bin(t, ARITH_MULI, pid, tb_ci(t, T_i32(t), block));
    Value *offs = tb_bin(t, ARITH_ADDI, tb_splat(t, start, ti), tb_range(t, 0, block));
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, offs, tb_splat(t, tb_arg(t, 3), ti));
    Value *x = tb_load(t, tb_addptr(t, tb_splat(t, tb_arg(t, 0), tp), offs), mask, NULL);
    Value *y = tb_load(t, tb_addptr(t, tb_splat(t, tb_arg(t, 1), tp), offs), mask, NULL);
    Value *z = tb_bin(t, ARITH_ADDF, x, y);
    tb_store(t, tb_addptr(t, tb_splat(t, tb_arg(t, 2), tp), offs), z, mask);
    tb_return(t);
}

static void test_vector_add(void) {
    TB t;
    tb_init(&t);
    build_add(&t, 128);
    CpuKernel *k = t_build(&t, "add_kernel");
    CHECK(k != NULL, "build");
    if (!k) return;
    int ns[] = {1000, 1024, 1, 77, 100003};
    for (int ni = 0; ni < TC_ARRAY_LEN(ns); ni++) {
        int n = ns[ni], pad = 200;
        float *x = malloc(sizeof(float) * (n + pad)), *y = malloc(sizeof(float) * (n + pad)),
              *z = malloc(sizeof(float) * (n + pad));
        for (int i = 0; i < n + pad; i++) x[i] = t_randf(), y[i] = t_randf();
        poison_f32(z, n + pad);
        for (int i = n; i < n + pad; i++) z[i] = 12345.0f; /* past the end: must stay */
        void *px = x, *py = y, *pz = z;
        int32_t nn = n;
        void *args[] = {&px, &py, &pz, &nn};
        CHECK(t_launch(&t, k, (n + 127) / 128, 1, 1, args), "launch");
        int bad = 0;
        for (int i = 0; i < n; i++) bad += z[i] != x[i] + y[i];
        for (int i = n; i < n + pad; i++) bad += z[i] != 12345.0f;
        CHECK(bad == 0, "vector add n=%d: %d wrong elements", n, bad);
        free(x), free(y), free(z);
    }
    cpu_kernel_free(k);
    tb_free(&t);
}

/* out[i] = op(a[i], b[i]) for each integer op, i32 and i64. */
typedef struct IntCase {
    OpKind k;
    const char *name;
} IntCase;

static int32_t ref_i32(OpKind k, int32_t a, int32_t b) {
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (k) {
    case ARITH_ADDI: return (int32_t)(ua + ub);
    case ARITH_SUBI: return (int32_t)(ua - ub);
    case ARITH_MULI: return (int32_t)(ua * ub);
    case ARITH_DIVSI: return b == 0 ? -1 : (a == INT32_MIN && b == -1) ? INT32_MIN : a / b;
    case ARITH_REMSI: return b == 0 ? a : b == -1 ? 0 : a % b;
    case ARITH_DIVUI: return b == 0 ? -1 : (int32_t)(ua / ub);
    case ARITH_REMUI: return b == 0 ? a : (int32_t)(ua % ub);
    case ARITH_SHLI: return ub < 32 ? (int32_t)(ua << ub) : 0;
    case ARITH_SHRUI: return ub < 32 ? (int32_t)(ua >> ub) : 0;
    case ARITH_SHRSI: return ub < 32 ? a >> ub : (a < 0 ? -1 : 0);
    case ARITH_MAXSI: return a > b ? a : b;
    case ARITH_MINUI: return ua < ub ? a : b;
    case ARITH_XORI: return a ^ b;
    case TT_MULHIUI: return (int32_t)(uint32_t)(((uint64_t)ua * ub) >> 32);
    case ARITH_FLOORDIVSI: {
        if (b == 0) return -1;
        if (b == -1) return (int32_t)(0u - ua);
        int32_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    case ARITH_CEILDIVSI: {
        if (b == 0) return -1;
        if (b == -1) return (int32_t)(0u - ua);
        int32_t q = a / b;
        return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
    }
    default: return 0;
    }
}

static void test_int_ops(void) {
    static const IntCase cases[] = {
        {ARITH_ADDI, "addi"},   {ARITH_SUBI, "subi"},   {ARITH_MULI, "muli"},   {ARITH_DIVSI, "divsi"},
        {ARITH_REMSI, "remsi"}, {ARITH_DIVUI, "divui"}, {ARITH_REMUI, "remui"}, {ARITH_SHLI, "shli"},
        {ARITH_SHRUI, "shrui"}, {ARITH_SHRSI, "shrsi"}, {ARITH_MAXSI, "maxsi"}, {ARITH_MINUI, "minui"},
        {ARITH_XORI, "xori"},   {TT_MULHIUI, "mulhiui"}, {ARITH_FLOORDIVSI, "floordivsi"},
        {ARITH_CEILDIVSI, "ceildivsi"},
    };
    enum { N = 64 };
    int32_t a[N], b[N], out[N];
    int32_t special[] = {0, 1, -1, 7, -7, 2, -2, 3, -3, INT32_MIN, INT32_MAX, 31, 32, 33, 100, -100};
    for (int i = 0; i < N; i++) {
        a[i] = i < 16 ? special[i] : (int32_t)t_rand();
        b[i] = i < 16 ? special[(i * 7) % 16] : (i % 5 == 0 ? (int32_t)(t_rand() % 40) : (int32_t)t_rand());
    }
    a[16] = -7, b[16] = 2;  /* divsi -> -3, remsi -> -1 (truncation) */
    a[17] = 7, b[17] = -2;  /* -3, 1 */
    a[18] = INT32_MIN, b[18] = -1;
    a[19] = 5, b[19] = 0;
    for (int c = 0; c < TC_ARRAY_LEN(cases); c++) {
        TB t;
        tb_init(&t);
        Type *pi = T_ptr(&t, T_i32(&t));
        Type *params[] = {pi, pi, pi};
        tb_func(&t, "int_kernel", params, 3);
        Type *ti = T_ten1(&t, N, T_i32(&t)), *tp = T_ten1(&t, N, pi);
        Value *offs = tb_range(&t, 0, N);
        Value *x = tb_load(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 0), tp), offs), NULL, NULL);
        Value *y = tb_load(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 1), tp), offs), NULL, NULL);
        (void)ti;
        Value *z = tb_bin(&t, cases[c].k, x, y);
        tb_store(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 2), tp), offs), z, NULL);
        tb_return(&t);
        CpuKernel *k = t_build(&t, "int_kernel");
        CHECK(k != NULL, "build %s", cases[c].name);
        if (k) {
            poison_bytes(out, sizeof out);
            void *pa = a, *pb = b, *po = out;
            void *args[] = {&pa, &pb, &po};
            CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
            int bad = 0;
            for (int i = 0; i < N; i++) {
                int32_t r = ref_i32(cases[c].k, a[i], b[i]);
                if (out[i] != r && bad++ < 3)
                    fprintf(stderr, "  %s(%d, %d) = %d, expected %d\n", cases[c].name, a[i], b[i], out[i], r);
            }
            CHECK(bad == 0, "%s: %d wrong", cases[c].name, bad);
            cpu_kernel_free(k);
        }
        tb_free(&t);
    }
}

/* i64 arithmetic and mulhiui on scalars: out[0] = a * b + c (i64), out[1] =
 * mulhi(a32, b32) where the scalars come in as kernel arguments. */
static void test_scalars_i64(void) {
    TB t;
    tb_init(&t);
    Type *i64 = ty_i64(t.c);
    Type *params[] = {T_ptr(&t, i64), i64, i64, i64, T_f32(&t)};
    tb_func(&t, "scalar_kernel", params, 5);
    Value *p = tb_arg(&t, 0);
    Value *r = tb_bin(&t, ARITH_ADDI, tb_bin(&t, ARITH_MULI, tb_arg(&t, 1), tb_arg(&t, 2)), tb_arg(&t, 3));
    tb_store(&t, p, r, NULL);
    Value *a32 = tb_cast(&t, ARITH_TRUNCI, tb_arg(&t, 1), T_i32(&t));
    Value *b32 = tb_cast(&t, ARITH_TRUNCI, tb_arg(&t, 2), T_i32(&t));
    Value *hi = tb_cast(&t, ARITH_EXTUI, tb_bin(&t, TT_MULHIUI, a32, b32), i64);
    tb_store(&t, tb_addptr(&t, p, tb_ci(&t, T_i32(&t), 1)), hi, NULL);
    Value *f = tb_cast(&t, ARITH_FPTOSI, tb_arg(&t, 4), i64);
    tb_store(&t, tb_addptr(&t, p, tb_ci(&t, T_i32(&t), 2)), f, NULL);
    Value *q = tb_bin(&t, ARITH_DIVSI, tb_arg(&t, 1), tb_ci(&t, i64, -3));
    tb_store(&t, tb_addptr(&t, p, tb_ci(&t, T_i32(&t), 3)), q, NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "scalar_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        int64_t out[4];
        int64_t a = 0x123456789abcLL, b = -0x7654321LL, c = INT64_MAX;
        float fx[] = {1e30f, -3.7f, NAN};
        int64_t fexp[] = {INT64_MAX, -3, 0};
        for (int i = 0; i < 3; i++) {
            poison_bytes(out, sizeof out);
            void *po = out;
            float fv = fx[i];
            void *args[] = {&po, &a, &b, &c, &fv};
            CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
            CHECK(out[0] == (int64_t)((uint64_t)a * (uint64_t)b + (uint64_t)c), "i64 mul-add wraps");
            uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
            CHECK(out[1] == (int64_t)(((uint64_t)ua * ub) >> 32), "mulhiui: %lld", (long long)out[1]);
            CHECK(out[2] == fexp[i], "fptosi saturates: %g -> %lld", fx[i], (long long)out[2]);
            CHECK(out[3] == a / -3, "i64 divsi");
        }
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* 2-D: out[m, n] = x[m] * 10 + y[n] via expand_dims + broadcast, then a
 * transposed store: outT[n, m] = out[m, n]. */
static void test_broadcast_2d(void) {
    enum { M = 16, N = 32 };
    TB t;
    tb_init(&t);
    Type *pf = T_ptr(&t, T_f32(&t));
    Type *params[] = {pf, pf, pf, pf};
    tb_func(&t, "bcast_kernel", params, 4);
    Value *rm = tb_range(&t, 0, M), *rn = tb_range(&t, 0, N);
    Value *x = tb_load(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 0), T_ten1(&t, M, pf)), rm), NULL, NULL);
    Value *y = tb_load(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 1), T_ten1(&t, N, pf)), rn), NULL, NULL);
    Type *t2 = T_ten2(&t, M, N, T_f32(&t));
    Value *xb = tb_bcast(&t, tb_expand(&t, x, 1), t2);
    Value *yb = tb_bcast(&t, tb_expand(&t, y, 0), t2);
    Value *z = tb_bin(&t, ARITH_ADDF, tb_bin(&t, ARITH_MULF, xb, tb_cf(&t, t2, 10.0)), yb);
    /* offsets m*N + n */
    Type *ti2 = T_ten2(&t, M, N, T_i32(&t)), *tp2 = T_ten2(&t, M, N, pf);
    Value *om = tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rm, 1),
                                    tb_ci(&t, T_ten2(&t, M, 1, T_i32(&t)), N)), ti2);
    Value *on = tb_bcast(&t, tb_expand(&t, rn, 0), ti2);
    Value *off = tb_bin(&t, ARITH_ADDI, om, on);
    tb_store(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 2), tp2), off), z, NULL);
    /* transposed: tt.trans of z stored at n*M + m */
    Type *t2t = T_ten2(&t, N, M, T_f32(&t));
    Op *tr = build_op(&t.b, TT_TRANS, &z, 1, &t2t, 1, 0);
    op_set_attr(t.c, tr, "order", attr_dense_array(t.c, T_i32(&t), (int64_t[]){1, 0}, 2));
    Type *ti2t = T_ten2(&t, N, M, T_i32(&t)), *tp2t = T_ten2(&t, N, M, pf);
    Value *rn2 = tb_range(&t, 0, N), *rm2 = tb_range(&t, 0, M);
    Value *o1 = tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rn2, 1), tb_ci(&t, T_ten2(&t, N, 1, T_i32(&t)), M)), ti2t);
    /* make the column offsets non-affine (x % big == x) to exercise gathers */
    Value *o2 = tb_bcast(&t, tb_expand(&t, tb_bin(&t, ARITH_REMSI, rm2, tb_ci(&t, T_ten1(&t, M, T_i32(&t)), 1000)), 0), ti2t);
    tb_store(&t, tb_addptr(&t, tb_splat(&t, tb_arg(&t, 3), tp2t), tb_bin(&t, ARITH_ADDI, o1, o2)),
             op_result(tr, 0), NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "bcast_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        float xs[M], ys[N], out[M * N], outT[N * M];
        for (int i = 0; i < M; i++) xs[i] = (float)i;
        for (int i = 0; i < N; i++) ys[i] = (float)i * 0.5f;
        poison_f32(out, M * N), poison_f32(outT, M * N);
        void *a0 = xs, *a1 = ys, *a2 = out, *a3 = outT;
        void *args[] = {&a0, &a1, &a2, &a3};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0, badT = 0;
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float r = xs[m] * 10.0f + ys[n];
                bad += out[m * N + n] != r;
                badT += outT[n * M + m] != r;
            }
        CHECK(bad == 0, "broadcast 2-D: %d wrong", bad);
        CHECK(badT == 0, "transposed store: %d wrong", badT);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* tt.assert fails for pid 3: the launch returns false, the process lives. */
static void test_assert(void) {
    TB t;
    tb_init(&t);
    Type *params[] = {T_i32(&t)};
    tb_func(&t, "assert_kernel", params, 1);
    Value *ok = tb_cmp(&t, ARITH_CMPI, CMPI_NE, tb_pid(&t, 0), tb_arg(&t, 0));
    Op *a = build_op(&t.b, TT_ASSERT, &ok, 1, NULL, 0, 0);
    op_set_attr(t.c, a, "message", attr_string(t.c, "pid must not be the bad one"));
    tb_return(&t);
    CpuKernel *k = t_build(&t, "assert_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        int32_t bad = 3;
        void *args[] = {&bad};
        int grid[3] = {8, 1, 1};
        DiagEngine de;
        diag_init(&de);
        CHECK(!cpu_kernel_launch(k, grid, args, &de), "assert must fail the launch");
        CHECK(de.nerrors == 1 && strstr(de.diags.data[0].msg, "pid (3, 0, 0)") &&
                  strstr(de.diags.data[0].msg, "bad one"),
              "assert message: %s", de.nerrors ? de.diags.data[0].msg : "(none)");
        diag_free(&de);
        bad = 100;
        CHECK(t_launch(&t, k, 8, 1, 1, args), "no assert when all hold");
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

int main(void) {
    t_private_cache();
    test_vector_add();
    test_int_ops();
    test_scalars_i64();
    test_broadcast_2d();
    test_assert();
    return t_finish("test_cpu_elementwise");
}
