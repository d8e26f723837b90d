/*
 * test_cpu_math.c - the CPU backend's inline f32 exp and exp2 (the prelude's
 * tc_expf / tc_exp2f, which replace libm calls so loops vectorise), checked
 * against the C library's double-precision exp/exp2 rounded to float:
 *   - one input in every 2^11 of all 2^32 f32 bit patterns (the whole range,
 *     both signs, subnormal inputs included) plus 2^20 random inputs in the
 *     range softmax uses (-30, 0];
 *   - at most 2 ulp from the correctly rounded result where that is a normal
 *     float, at most 2 units of the smallest subnormal below it;
 *   - exactly: exp(0) = 1, exp2(k) = 2^k for integer k, +inf -> +inf,
 *     -inf -> 0, NaN -> NaN, overflow -> +inf, far underflow -> +0.
 * The kernel is `y = exp(x); z = exp2(x)` over a masked 1-D tile, run through
 * the real emitter and cc.
 */
#include "cpu_test_util.h"

#include <float.h>
#include <stdint.h>

static CpuKernel *build_exp(TB *t) {
    Type *pf = T_ptr(t, T_f32(t));
    Type *params[] = {pf, pf, pf, T_i32(t)};
    tb_func(t, "exp_kernel", params, 4);
    enum { B = 1024 };
    Type *ti = T_ten1(t, B, T_i32(t));
    Value *pid = tb_pid(t, 0);
    Value *offs = tb_bin(t, ARITH_ADDI, tb_splat(t, tb_bin(t, ARITH_MULI, pid, tb_ci(t, T_i32(t), B)), ti),
                         tb_range(t, 0, B));
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, offs, tb_splat(t, tb_arg(t, 3), ti));
    Type *tp = T_ten1(t, B, pf);
    Value *x = tb_load(t, tb_addptr(t, tb_splat(t, tb_arg(t, 0), tp), offs), mask, NULL);
    Value *y = tb_un(t, MATH_EXP, x, x->type);
    Value *z = tb_un(t, MATH_EXP2, x, x->type);
    tb_store(t, tb_addptr(t, tb_splat(t, tb_arg(t, 1), tp), offs), y, mask);
    tb_store(t, tb_addptr(t, tb_splat(t, tb_arg(t, 2), tp), offs), z, mask);
    tb_return(t);
    CpuBuildOptions o = {0};
    CpuKernel *k = cpu_kernel_build(t->module, "exp_kernel", &o, &t->de);
    if (!k) t_print_diags(&t->de);
    return k;
}

static float bits_f(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* Distance in ulp of got from the exact value, in units of the float grid
 * at the exact value (the subnormal spacing below FLT_MIN). */
static double ulp_err(float got, double exact) {
    if (isinf(got) || isinf(exact)) return isinf(got) && isinf(exact) ? 0 : 1e9;
    double a = fabs(exact) < FLT_MIN ? ldexp(1, -149) : ldexp(1, ilogb(exact) - 23);
    return fabs((double)got - exact) / a;
}

static void check_one(float x, float y, float z, double *worst_e, double *worst_2) {
    double ey = exp((double)x), ez = exp2((double)x);
    if (isnan(x)) {
        CHECK(isnan(y) && isnan(z), "exp(NaN) = %a, exp2(NaN) = %a", y, z);
        return;
    }
    /* results beyond FLT_MAX must be inf, results rounding to 0 must be 0 */
    if (ey > FLT_MAX * (1 + 0x1p-25)) CHECK(isinf(y) && y > 0, "exp(%a) = %a, want inf", x, y);
    else {
        double u = ulp_err(y, ey);
        if (u > *worst_e) *worst_e = u;
        CHECK(u <= 2.0, "exp(%a) = %a, want %a (%.2f ulp)", x, y, (float)ey, u);
    }
    if (ez > FLT_MAX * (1 + 0x1p-25)) CHECK(isinf(z) && z > 0, "exp2(%a) = %a, want inf", x, z);
    else {
        double u = ulp_err(z, ez);
        if (u > *worst_2) *worst_2 = u;
        CHECK(u <= 2.0, "exp2(%a) = %a, want %a (%.2f ulp)", x, z, (float)ez, u);
    }
    CHECK(y >= 0 && z >= 0, "exp(%a) = %a, exp2 = %a: negative", x, y, z);
}

int main(void) {
    t_private_cache();
    enum { N_SWEEP = 1 << 21, N_RAND = 1 << 20, N_SPECIAL = 64 };
    int n = N_SWEEP + N_RAND + N_SPECIAL;
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n),
          *z = malloc(sizeof(float) * (size_t)n);
    int i = 0;
    for (uint64_t b = 0; b < (1ull << 32); b += 1u << 11) x[i++] = bits_f((uint32_t)b + (uint32_t)(b >> 13));
    for (int r = 0; r < N_RAND; r++) x[i++] = -30.0f * (t_randf() * 0.5f + 0.5f);
    const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 88.72f, 88.73f, 89.0f,
                              -87.33f, -87.34f, -103.97f, -103.98f, -104.0f, -150.0f, 127.0f, 127.99f,
                              128.0f, -126.0f, -149.0f, -149.5f, -150.5f, 1e-30f, -1e-30f, 0.5f, -0.5f,
                              FLT_MAX, -FLT_MAX, FLT_MIN, 2.0f, 3.0f, 10.0f, -10.0f};
    for (size_t s = 0; s < sizeof specials / sizeof *specials; s++) x[i++] = specials[s];
    for (int k = -40; i < n; k++) x[i++] = (float)k; /* integers: exp2 exact */
    TB t;
    tb_init(&t);
    CpuKernel *k = build_exp(&t);
    CHECK(k != NULL, "the exp kernel did not build");
    if (k) {
        poison_f32(y, (size_t)n);
        poison_f32(z, (size_t)n);
        void *a0 = x, *a1 = y, *a2 = z;
        int32_t nn = n;
        void *args[] = {&a0, &a1, &a2, &nn};
        CHECK(t_launch(&t, k, (n + 1023) / 1024, 1, 1, args), "launch failed");
        double we = 0, w2 = 0;
        for (int j = 0; j < n; j++) check_one(x[j], y[j], z[j], &we, &w2);
        /* exact cases */
        for (int j = 0; j < n; j++) {
            if (x[j] == 0) CHECK(y[j] == 1.0f && z[j] == 1.0f, "exp(%a) = %a, exp2 = %a", x[j], y[j], z[j]);
            if (x[j] == -INFINITY) CHECK(y[j] == 0 && z[j] == 0, "exp(-inf) = %a, exp2 = %a", y[j], z[j]);
            if (x[j] == INFINITY) CHECK(isinf(y[j]) && isinf(z[j]), "exp(inf) = %a, exp2 = %a", y[j], z[j]);
            if (x[j] == floorf(x[j]) && fabsf(x[j]) <= 149)
                CHECK(z[j] == (float)ldexp(1, (int)x[j]), "exp2(%a) = %a, want 2^%d", x[j], z[j], (int)x[j]);
        }
        printf("exp: worst %.2f ulp, exp2: worst %.2f ulp over %d inputs\n", we, w2, n);
        cpu_kernel_free(k);
    }
    tb_free(&t);
    free(x);
    free(y);
    free(z);
    return t_finish("test_cpu_math");
}
