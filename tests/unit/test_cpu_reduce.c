/*
 * test_cpu_reduce.c - tt.reduce and tt.scan on the CPU: row softmax (max
 * and sum reductions, masked ragged rows), a 2-D reduction along each axis,
 * an argmax-style reduction with two operands and a tie-breaking combiner,
 * and cumulative sums (forward, reverse, 2-D along axis 0).
 *
 * Tolerances: fp32 results against double references with |err| <=
 * 1e-5 * (1 + |ref|) (sums of up to 1024 terms in a different order);
 * integer and index results exactly.
 */
#include "cpu_test_util.h"

static Value *splat_ptr(TB *t, Value *p, Value *like) {
    return tb_splat(t, p, ty_with_elem(t->c, like->type, p->type));
}

/* softmax over rows of length n (<= BLOCK), one row per program. */
static void test_softmax(void) {
    enum { BLOCK = 1024 };
    TB t;
    tb_init(&t);
    Type *pf = T_ptr(&t, T_f32(&t)), *f32 = T_f32(&t), *i32 = T_i32(&t);
    Type *params[] = {pf, pf, i32, i32};
    tb_func(&t, "softmax_kernel", params, 4);
    Type *tf = T_ten1(&t, BLOCK, f32), *ti = T_ten1(&t, BLOCK, i32);
    Value *row = tb_pid(&t, 0);
    Value *rowoff = tb_bin(&t, ARITH_MULI, row, tb_arg(&t, 2));
    Value *cols = tb_range(&t, 0, BLOCK);
    Value *mask = tb_cmp(&t, ARITH_CMPI, CMPI_SLT, cols, tb_splat(&t, tb_arg(&t, 3), ti));
    Value *inrow = tb_addptr(&t, tb_arg(&t, 0), rowoff);
    Value *x = tb_load(&t, tb_addptr(&t, splat_ptr(&t, inrow, cols), cols), mask, tb_cf(&t, tf, -INFINITY));
    Value *m = tb_reduce(&t, TT_REDUCE, x, 0, ARITH_MAXIMUMF);
    Value *z = tb_bin(&t, ARITH_SUBF, x, tb_splat(&t, m, tf));
    Value *num = tb_un(&t, MATH_EXP, z, tf);
    Value *den = tb_reduce(&t, TT_REDUCE, num, 0, ARITH_ADDF);
    Value *out = tb_bin(&t, ARITH_DIVF, num, tb_splat(&t, den, tf));
    Value *outrow = tb_addptr(&t, tb_arg(&t, 1), rowoff);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, outrow, cols), cols), out, mask);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "softmax_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        int rows = 37, ns[] = {1000, 1024, 3};
        for (int c = 0; c < 3; c++) {
            int n = ns[c], stride = 1031;
            float *in = malloc(sizeof(float) * rows * stride), *o = malloc(sizeof(float) * rows * stride);
            for (int i = 0; i < rows * stride; i++) in[i] = t_randf() * 8;
            poison_f32(o, (size_t)rows * stride);
            void *pi = in, *po = o;
            int32_t st = stride, nn = n;
            void *args[] = {&pi, &po, &st, &nn};
            CHECK(t_launch(&t, k, rows, 1, 1, args), "launch");
            int bad = 0;
            for (int r = 0; r < rows; r++) {
                double mx = -INFINITY, s = 0;
                for (int i = 0; i < n; i++) mx = fmax(mx, in[r * stride + i]);
                for (int i = 0; i < n; i++) s += exp(in[r * stride + i] - mx);
                for (int i = 0; i < n; i++) {
                    double ref = exp(in[r * stride + i] - mx) / s;
                    if (!(fabs(o[r * stride + i] - ref) <= 1e-5 * (1 + fabs(ref)))) bad++;
                }
                for (int i = n; i < stride; i++) bad += !isnan(o[r * stride + i]); /* untouched */
            }
            CHECK(bad == 0, "softmax n=%d: %d wrong", n, bad);
            free(in), free(o);
        }
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* x[M, N] (row-major) -> colsum[N] (axis 0), rowmax[M] (axis 1, i32). */
static void test_reduce_2d(void) {
    enum { M = 8, N = 48 };
    TB t;
    tb_init(&t);
    Type *pf = T_ptr(&t, T_f32(&t)), *pi = T_ptr(&t, T_i32(&t)), *i32 = T_i32(&t);
    Type *params[] = {pf, pf, pf, pi, pi};
    tb_func(&t, "reduce2d_kernel", params, 5);
    Value *rm = tb_range(&t, 0, M), *rn = tb_range(&t, 0, N);
    Type *ti2 = T_ten2(&t, M, N, i32);
    Value *off = tb_bin(&t, ARITH_ADDI,
                        tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rm, 1), tb_ci(&t, T_ten2(&t, M, 1, i32), N)), ti2),
                        tb_bcast(&t, tb_expand(&t, rn, 0), ti2));
    Value *vx = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 0), off), off), NULL, NULL);
    Value *vcs = tb_reduce(&t, TT_REDUCE, vx, 0, ARITH_ADDF);  /* [N] */
    Value *vrs = tb_reduce(&t, TT_REDUCE, vx, 1, ARITH_ADDF);  /* [M] */
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 1), rn), rn), vcs, NULL);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 2), rm), rm), vrs, NULL);
    Value *vxi = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 3), off), off), NULL, NULL);
    Value *vmx = tb_reduce(&t, TT_REDUCE, vxi, 1, ARITH_MAXSI);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 4), rm), rm), vmx, NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "reduce2d_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        float x[M * N], cs[N], rs[M];
        int32_t xi[M * N], mx[M];
        for (int i = 0; i < M * N; i++) x[i] = t_randf(), xi[i] = (int32_t)t_rand();
        poison_f32(cs, N), poison_f32(rs, M), poison_bytes(mx, sizeof mx);
        void *a0 = x, *a1 = cs, *a2 = rs, *a3 = xi, *a4 = mx;
        void *args[] = {&a0, &a1, &a2, &a3, &a4};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0;
        for (int n = 0; n < N; n++) {
            double s = 0;
            for (int m = 0; m < M; m++) s += x[m * N + n];
            bad += !(fabs(cs[n] - s) <= 1e-5 * (1 + fabs(s)));
        }
        CHECK(bad == 0, "sum over axis 0: %d wrong", bad);
        bad = 0;
        for (int m = 0; m < M; m++) {
            double s = 0;
            int32_t best = INT32_MIN;
            for (int n = 0; n < N; n++) s += x[m * N + n], best = xi[m * N + n] > best ? xi[m * N + n] : best;
            bad += !(fabs(rs[m] - s) <= 1e-5 * (1 + fabs(s)));
            bad += mx[m] != best;
        }
        CHECK(bad == 0, "sum/max over axis 1: %d wrong", bad);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* argmax along `axis` of a [R, C] tile: reduce (value, index) with the
 * tie-breaking combiner Triton's tl.argmax uses (first index wins). */
static void test_argmax(int axis) {
    enum { R = 4, C = 96 };
    TB t;
    tb_init(&t);
    Type *pf = T_ptr(&t, T_f32(&t)), *pi = T_ptr(&t, T_i32(&t)), *i32 = T_i32(&t), *f32 = T_f32(&t);
    Type *params[] = {pf, pi, pf};
    tb_func(&t, "argmax_kernel", params, 3);
    Value *rr = tb_range(&t, 0, R), *rc = tb_range(&t, 0, C);
    Type *ti2 = T_ten2(&t, R, C, i32);
    Value *rr2 = tb_bcast(&t, tb_expand(&t, rr, 1), ti2), *rc2 = tb_bcast(&t, tb_expand(&t, rc, 0), ti2);
    Value *off = tb_bin(&t, ARITH_ADDI, tb_bin(&t, ARITH_MULI, rr2, tb_ci(&t, ti2, C)), rc2);
    Value *vx = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 0), off), off), NULL, NULL);
    Value *idx = axis == 1 ? rc2 : rr2;
    Value *vals[2] = {vx, idx};
    Block *body;
    Op *red = tb_reduce_n(&t, TT_REDUCE, vals, 2, axis, &body);
    Builder save = t.b;
    t.b = builder_at_end(t.c, body);
    Value *av = body->args[0], *ai = body->args[1], *bv = body->args[2], *vbi = body->args[3];
    Value *gt = tb_cmp(&t, ARITH_CMPF, CMPF_OGT, av, bv);
    Value *eq = tb_cmp(&t, ARITH_CMPF, CMPF_OEQ, av, bv);
    Value *lt = tb_cmp(&t, ARITH_CMPI, CMPI_SLT, ai, vbi);
    Value *take = tb_bin(&t, ARITH_ORI, gt, tb_bin(&t, ARITH_ANDI, eq, lt));
    Value *rets[2] = {tb_select(&t, take, av, bv), tb_select(&t, take, ai, vbi)};
    build_op(&t.b, TT_REDUCE_RETURN, rets, 2, NULL, 0, 0);
    t.b = save;
    (void)f32;
    int L = axis == 1 ? R : C;
    Value *rl = tb_range(&t, 0, L);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 1), rl), rl), op_result(red, 1), NULL);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 2), rl), rl), op_result(red, 0), NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "argmax_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        float x[R * C], best[C];
        int32_t arg[C];
        for (int i = 0; i < R * C; i++) x[i] = (float)(t_rand() % 7); /* many ties */
        poison_f32(best, C), poison_bytes(arg, sizeof arg);
        void *a0 = x, *a1 = arg, *a2 = best;
        void *args[] = {&a0, &a1, &a2};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0;
        for (int l = 0; l < L; l++) {
            int bi = -1;
            float bvv = -INFINITY;
            for (int j = 0; j < (axis == 1 ? C : R); j++) {
                float v = axis == 1 ? x[l * C + j] : x[j * C + l];
                if (v > bvv) bvv = v, bi = j;
            }
            bad += arg[l] != bi || best[l] != bvv;
        }
        CHECK(bad == 0, "argmax axis %d: %d wrong", axis, bad);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

/* cumsum of i32[N] forward, f32[N] reverse, and f32[8, 16] along axis 0. */
static void test_scan(void) {
    enum { N = 200, R = 8, C = 16 };
    TB t;
    tb_init(&t);
    Type *pf = T_ptr(&t, T_f32(&t)), *pi = T_ptr(&t, T_i32(&t)), *i32 = T_i32(&t);
    Type *params[] = {pi, pi, pf, pf, pf, pf};
    tb_func(&t, "scan_kernel", params, 6);
    Value *r = tb_range(&t, 0, 256);
    Value *mask = tb_cmp(&t, ARITH_CMPI, CMPI_SLT, r, tb_ci(&t, T_ten1(&t, 256, i32), N));
    Value *x = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 0), r), r), mask, tb_ci(&t, T_ten1(&t, 256, i32), 0));
    Value *cs = tb_reduce(&t, TT_SCAN, x, 0, ARITH_ADDI);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 1), r), r), cs, mask);
    Value *xf = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 2), r), r), mask, tb_cf(&t, T_ten1(&t, 256, T_f32(&t)), 0));
    Value *rcs = tb_reduce(&t, TT_SCAN, xf, 0, ARITH_ADDF);
    op_set_attr(t.c, rcs->def, "reverse", attr_bool(t.c, true));
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 3), r), r), rcs, mask);
    Type *ti2 = T_ten2(&t, R, C, i32);
    Value *rr = tb_range(&t, 0, R), *rc = tb_range(&t, 0, C);
    Value *off = tb_bin(&t, ARITH_ADDI,
                        tb_bcast(&t, tb_bin(&t, ARITH_MULI, tb_expand(&t, rr, 1), tb_ci(&t, T_ten2(&t, R, 1, i32), C)), ti2),
                        tb_bcast(&t, tb_expand(&t, rc, 0), ti2));
    Value *vx2 = tb_load(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 4), off), off), NULL, NULL);
    Value *c2 = tb_reduce(&t, TT_SCAN, vx2, 0, ARITH_ADDF);
    tb_store(&t, tb_addptr(&t, splat_ptr(&t, tb_arg(&t, 5), off), off), c2, NULL);
    tb_return(&t);
    CpuKernel *k = t_build(&t, "scan_kernel");
    CHECK(k != NULL, "build");
    if (k) {
        int32_t xi[N], oi[N];
        float xf_[N], of[N], x2[R * C], o2[R * C];
        for (int i = 0; i < N; i++) xi[i] = (int32_t)t_rand(), xf_[i] = t_randf();
        for (int i = 0; i < R * C; i++) x2[i] = t_randf();
        poison_bytes(oi, sizeof oi), poison_f32(of, N), poison_f32(o2, R * C);
        void *a[] = {xi, oi, xf_, of, x2, o2};
        void *args[] = {&a[0], &a[1], &a[2], &a[3], &a[4], &a[5]};
        CHECK(t_launch(&t, k, 1, 1, 1, args), "launch");
        int bad = 0;
        uint32_t s = 0;
        for (int i = 0; i < N; i++) s += (uint32_t)xi[i], bad += oi[i] != (int32_t)s;
        CHECK(bad == 0, "i32 cumsum (wrapping): %d wrong", bad);
        bad = 0;
        double d = 0;
        for (int i = N - 1; i >= 0; i--) d += xf_[i], bad += !(fabs(of[i] - d) <= 1e-5 * (1 + fabs(d)));
        CHECK(bad == 0, "reverse f32 cumsum: %d wrong", bad);
        bad = 0;
        for (int c = 0; c < C; c++) {
            double acc = 0;
            for (int rr_ = 0; rr_ < R; rr_++) {
                acc += x2[rr_ * C + c];
                bad += !(fabs(o2[rr_ * C + c] - acc) <= 1e-5 * (1 + fabs(acc)));
            }
        }
        CHECK(bad == 0, "2-D cumsum along axis 0: %d wrong", bad);
        cpu_kernel_free(k);
    }
    tb_free(&t);
}

int main(void) {
    t_private_cache();
    test_softmax();
    test_reduce_2d();
    test_argmax(1);
    test_argmax(0);
    test_scan();
    return t_finish("test_cpu_reduce");
}
