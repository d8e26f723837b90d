/*
 * test_cpu_scf_dot.c - control flow and tt.dot on the CPU: an scf.for
 * accumulation loop with a tensor iter_arg and rotated scalar iter_args,
 * scf.while (Collatz steps), scf.if with results, and tt.dot 32x32x32 in
 * fp32 and fp16 (fp32 accumulation) inside a K loop, as a matmul kernel
 * does. Tolerances: fp32 dot 1e-5 relative to sum |a||b|; fp16 inputs are
 * exact in fp32, so the same bound holds before the final fp16 rounding,
 * after which 1 fp16 ulp (2^-10 relative) is allowed.
 */
#include "cpu_test_util.h"

static Value *splat_ptr(TB *t, Value *p, Value *like) {
    return tb_splat(t, p, ty_with_elem(t->c, like->type, p->type));
}

/* acc[64] = sum over i < n of x[i*64 + :]; also fib by rotating two scalar
 * iter_args (a, b) -> (b, a + b); out_scalar[0] = a after n steps. */
static void test_for(void) {
    enum { B = 64 };
    TB t;
    tb_init(&t);
    Type *pf = T_ptr(&t, T_f32(&t)), *pi = T_ptr(&t, T_i32(&t)), *i32 = T_i32(&t);
    Type *params[] = {pf, pf, pi, i32};
    tb_func(&t, "for_kernel", params, 4);
    Type *tf = T_ten1(&t, B, T_f32(&t));
    Value *r = tb_range(&t, 0, B);
    Value *inits[3] = {tb_cf(&t, tf, 0.0), tb_ci(&t, i32, 0), tb_ci(&t, i32, 1)};
    Builder saved;
    Op *loop = tb_for(&t, tb_ci(&t, i32, 0), tb_arg(&t, 3), tb_ci(&t, i32, 1), inits, 3, &saved);
    Block *body = region_entry(&loop->regions[0]);
    Value *iv = body->args[0];
    Value *base = tb_addptr(&t, tb_arg(&t, 0), tb_bin(&t, ARITH_MULI, iv, tb_ci(&t, i32, B)));
    Value *x = tb_load(&t, tb_addptr(&t, splat_ptr(&t, base, r), r), NULL, NULL);
    Value *acc = tb_bin(&t, ARITH_ADDF, body->args[1], x);
    Value *sum = tb_bin(&t, ARITH_ADDI, body->args[2], body->args[3]);
    Value *ys[3] = {acc, body->args[3], sum};
    tb_yield_end(&t, ys, 3, &saved);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 1), r), r), op_result(loop, 0), NULL);
    tb_store(&t, tb_arg(&t, 2), op_result(loop, 1), NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "for_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        int n = 20;
        float *xs = malloc(sizeof(float) * n * B), acc_[B];
        for (int i = 0; i < n * B; i++) xs[i] = t_randf();
        int32_t fib = -1;
        poison_f32(acc_, B);
        void *a0 = xs, *a1 = acc_, *a2 = &fib;
        int32_t nn = n;
        void *args[] = {&a0, &a1, &a2, &nn};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0;
        for (int j = 0; j < B; j++) {
            float s = 0; /* same order as the loop: exact match expected */
            for (int i = 0; i < n; i++) s += xs[i * B + j];
            bad += acc_[j] != s;
        }
        CHECK(bad == 0, "scf.for tensor accumulation: %d wrong", bad);
        CHECK(fib == 6765, "rotated iter_args (fib 20): %d", fib);
        nn = 0;
        CHECK(t_launch(&t, k, 1, 1, 1, args) && acc_[0] == 0 && fib == 0, "zero-trip loop");
        free(xs);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* out[pid] = number of Collatz steps from x[pid] (scf.while), and
 * out2[pid] = x odd ? 3x+1 : x/2 (scf.if with a result). */
static void test_while_if(void) {
    TB t;
    tb_init(&t);
    Type *pi = T_ptr(&t, T_i32(&t)), *i32 = T_i32(&t);
    Type *params[] = {pi, pi, pi};
    tb_func(&t, "while_kernel", params, 3);
    Value *pid = tb_pid(&t, 0);
    Value *x0 = tb_load(&t, tb_addptr(&t, tb_arg(&t, 0), pid), NULL, NULL);
    Value *one = tb_ci(&t, i32, 1), *zero = tb_ci(&t, i32, 0), *two = tb_ci(&t, i32, 2), *three = tb_ci(&t, i32, 3);
    Value *inits[2] = {x0, zero};
    Type *rts[2] = {i32, i32};
    Op *w = build_op(&t.b, SCF_WHILE, inits, 2, rts, 2, 2);
    Block *before = block_create(t.c), *after = block_create(t.c);
    region_push_block(&w->regions[0], before);
    region_push_block(&w->regions[1], after);
    Value *bx = block_add_arg(t.c, before, i32, (Loc){0}), *bn = block_add_arg(t.c, before, i32, (Loc){0});
    Value *ax = block_add_arg(t.c, after, i32, (Loc){0}), *an = block_add_arg(t.c, after, i32, (Loc){0});
    Builder save = t.b;
    t.b = builder_at_end(t.c, before);
    Value *cond = tb_cmp(&t, ARITH_CMPI, CMPI_NE, bx, one);
    Value *cops[3] = {cond, bx, bn};
    build_op(&t.b, SCF_CONDITION, cops, 3, NULL, 0, 0);
    t.b = builder_at_end(t.c, after);
    /* next = x odd ? 3x+1 : x/2, via scf.if */
    Value *odd = tb_cmp(&t, ARITH_CMPI, CMPI_NE, tb_bin(&t, ARITH_REMSI, ax, two), zero);
    Op *ifop = build_op(&t.b, SCF_IF, &odd, 1, &i32, 1, 2);
    Block *thn = block_create(t.c), *els = block_create(t.c);
    region_push_block(&ifop->regions[0], thn);
    region_push_block(&ifop->regions[1], els);
    Builder save2 = t.b;
    t.b = builder_at_end(t.c, thn);
    Value *tv = tb_bin(&t, ARITH_ADDI, tb_bin(&t, ARITH_MULI, ax, three), one);
    build_op(&t.b, SCF_YIELD, &tv, 1, NULL, 0, 0);
    t.b = builder_at_end(t.c, els);
    Value *ev = tb_bin(&t, ARITH_DIVSI, ax, two);
    build_op(&t.b, SCF_YIELD, &ev, 1, NULL, 0, 0);
    t.b = save2;
    Value *ys[2] = {op_result(ifop, 0), tb_bin(&t, ARITH_ADDI, an, one)};
    build_op(&t.b, SCF_YIELD, ys, 2, NULL, 0, 0);
    t.b = save;
    tb_store(&t, tb_addptr(&t, tb_arg(&t, 1), pid), op_result(w, 1), NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "while_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        enum { N = 100 };
        int32_t xs[N], out[N], unused[N];
        for (int i = 0; i < N; i++) xs[i] = i + 1;
        poison_bytes(out, sizeof out);
        void *a0 = xs, *a1 = out, *a2 = unused;
        void *args[] = {&a0, &a1, &a2};
        CHECK(t_launch(&t, k, N, 1, 1, args), "launch");
        int bad = 0;
        for (int i = 0; i < N; i++) {
            int64_t x = xs[i], steps = 0;
            while (x != 1) x = x % 2 ? 3 * x + 1 : x / 2, steps++;
            bad += out[i] != steps;
        }
        CHECK(bad == 0, "collatz via scf.while/scf.if: %d wrong", bad);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* C[M,N] = A[M,K] @ B[K,N] with a K loop of BK-wide tiles, elem type et. */
static void test_dot(FloatKind fk) {
    enum { M = 32, N = 32, K = 64, BK = 32 };
    TB t;
    tb_init(&t);
    Type *et = ty_float(t.c, fk), *f32 = T_f32(&t), *i32 = T_i32(&t);
    Type *pe = T_ptr(&t, et), *pf = T_ptr(&t, f32);
    Type *params[] = {pe, pe, pf};
    tb_func(&t, "matmul_kernel", params, 3);
    Value *rm = tb_range(&t, 0, M), *rn = tb_range(&t, 0, N), *rk = tb_range(&t, 0, BK);
    Type *tmk = T_ten2(&t, M, BK, i32), *tkn = T_ten2(&t, BK, N, i32), *tmn = T_ten2(&t, M, N, i32);
    /* a offsets m*K + k, b offsets k*N + n */
    Value *aoff = tb_bin(&t, ARITH_ADDI, tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rm, 1), tb_ci(&t, T_ten2(&t, M, 1, i32), K)), tmk),
                         tb_bcast(&t, tb_expand(&t, rk, 0), tmk));
    Value *boff = tb_bin(&t, ARITH_ADDI, tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rk, 1), tb_ci(&t, T_ten2(&t, BK, 1, i32), N)), tkn),
                         tb_bcast(&t, tb_expand(&t, rn, 0), tkn));
    Value *aptr = tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 0), aoff), aoff);
    Value *bptr = tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 1), boff), boff);
    Type *tacc = T_ten2(&t, M, N, f32);
    Value *inits[3] = {tb_cf(&t, tacc, 0.0), aptr, bptr};
    Builder saved;
    Op *loop = tb_for(&t, tb_ci(&t, i32, 0), tb_ci(&t, i32, K / BK), tb_ci(&t, i32, 1), inits, 3, &saved);
    Block *body = region_entry(&loop->regions[0]);
    Value *a = tb_load(&t, body->args[2], NULL, NULL), *b = tb_load(&t, body->args[3], NULL, NULL);
    Value *dops[3] = {a, b, body->args[1]};
    Op *dot = build_op(&t.b, TT_DOT, dops, 3, &tacc, 1, 0);
    op_set_attr(t.c, dot, "inputPrecision", attr_i32(t.c, TT_PREC_IEEE));
    Value *na = tb_addptr(&t, body->args[2], tb_ci(&t, tmk, BK));
    Value *nb = tb_addptr(&t, body->args[3], tb_ci(&t, tkn, BK * N));
    Value *ys[3] = {op_result(dot, 0), na, nb};
    tb_yield_end(&t, ys, 3, &saved);
    Value *coff = tb_bin(&t, ARITH_ADDI, tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rm, 1), tb_ci(&t, T_ten2(&t, M, 1, i32), N)), tmn),
                         tb_bcast(&t, tb_expand(&t, rn, 0), tmn));
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 2), coff), coff), op_result(loop, 0), NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "matmul_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        static float af[M * K], bf[K * N], c[M * N];
        static uint16_t ah[M * K], bh[K * N];
        for (int i = 0; i < M * K; i++) {
            float v = t_randf();
            ah[i] = fk == FK_F16 ? (uint16_t)0 : 0;
            if (fk == FK_F16) { /* a value exactly representable in fp16 */
                v = roundf(v * 1024) / 1024;
                _Float16 h = (_Float16)v;
                memcpy(&ah[i], &h, 2);
            }
            af[i] = v;
        }
        for (int i = 0; i < K * N; i++) {
            float v = t_randf();
            if (fk == FK_F16) {
                v = roundf(v * 1024) / 1024;
                _Float16 h = (_Float16)v;
                memcpy(&bh[i], &h, 2);
            }
            bf[i] = v;
        }
        poison_f32(c, M * N);
        void *a0 = fk == FK_F16 ? (void *)ah : (void *)af, *a1 = fk == FK_F16 ? (void *)bh : (void *)bf, *a2 = c;
        void *args[] = {&a0, &a1, &a2};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0;
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                double s = 0, mag = 0;
                for (int kk = 0; kk < K; kk++) s += (double)af[m * K + kk] * bf[kk * N + n], mag += fabs(af[m * K + kk] * bf[kk * N + n]);
                bad += !(fabs(c[m * N + n] - s) <= 1e-5 * (1 + mag));
            }
        CHECK(bad == 0, "dot %s: %d wrong", fk == FK_F16 ? "f16" : "f32", bad);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* tt.call of a private helper taking and returning a tensor and a scalar:
 * twice(x, s) = (x * 2, s + 1); also a tt.print of a scalar (to stderr). */
static void test_call(void) {
    enum { N = 16 };
    TB t;
    tb_init(&t);
    Type *f32 = T_f32(&t), *i32 = T_i32(&t), *tf = T_ten1(&t, N, f32);
    Type *hin[] = {tf, i32}, *hout[] = {tf, i32};
    Type *hft = ty_func(t.c, hin, 2, hout, 2);
    Op *h = op_create(t.c, TT_FUNC, (Loc){0}, NULL, 0, NULL, 0, 1);
    op_set_attr(t.c, h, "sym_name", attr_string(t.c, "twice"));
    op_set_attr(t.c, h, "sym_visibility", attr_string(t.c, "private"));
    op_set_attr(t.c, h, "function_type", attr_type(t.c, hft));
    Block *hb = block_create(t.c);
    region_push_block(&h->regions[0], hb);
    Value *hx = block_add_arg(t.c, hb, tf, (Loc){0}), *hs = block_add_arg(t.c, hb, i32, (Loc){0});
    block_append(module_body(t.module), h);
    Builder hbld = builder_at_end(t.c, hb);
    Value *two = build_const_float(&hbld, tf, 2.0);
    Value *one = build_const_int(&hbld, i32, 1);
    Value *rets[2] = {build_binary(&hbld, ARITH_MULF, hx, two), build_binary(&hbld, ARITH_ADDI, hs, one)};
    build_op(&hbld, TT_RETURN, rets, 2, NULL, 0, 0);
    Type *pf = T_ptr(&t, f32), *pi = T_ptr(&t, i32);
    Type *params[] = {pf, pf, pi};
    tb_func(&t, "call_kernel", params, 3);
    Value *r = tb_range(&t, 0, N);
    Value *x = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 0), r), r), NULL, NULL);
    Value *cargs[2] = {x, tb_pid(&t, 0)};
    Type *crt[2] = {tf, i32};
    Op *call = build_op(&t.b, TT_CALL, cargs, 2, crt, 2, 0);
    op_set_attr(t.c, call, "callee", attr_symref(t.c, "twice"));
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 1), r), r), op_result(call, 0), NULL);
    tb_store(&t, tb_arg(&t, 2), op_result(call, 1), NULL);
    Value *pv = op_result(call, 1);
    Op *pr = build_op(&t.b, TT_PRINT, &pv, 1, NULL, 0, 0);
    op_set_attr(t.c, pr, "prefix", attr_string(t.c, " s="));
    tb_return(&t);
    CpuKernel *k = t_build(&t, "call_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        float xs[N], ys[N];
        int32_t s = -5;
        for (int i = 0; i < N; i++) xs[i] = (float)i;
        poison_f32(ys, N);
        void *a0 = xs, *a1 = ys, *a2 = &s;
        void *args[] = {&a0, &a1, &a2};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0;
        for (int i = 0; i < N; i++) bad += ys[i] != 2.0f * i;
        CHECK(bad == 0 && s == 1, "tt.call results: %d wrong, s = %d", bad, s);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

int main(void) {
    t_private_cache();
    test_for();
    test_while_if();
    test_dot(FK_F32);
    test_dot(FK_F16);
    test_call();
    return t_finish("test_cpu_scf_dot");
}
