/*
 * test_cpu_convert.c - float conversions in generated code, bit-exactly:
 *   - every one of the 65536 fp16 patterns widened to f32 and narrowed back;
 *   - f32 -> fp16 round-to-nearest-even on 2^20 random f32 patterns, every
 *     fp16 midpoint and its f32 neighbours, and specials;
 *   - every bf16 pattern round-tripping through f32, and f32 -> bf16 RNE;
 *   - every fp8 (e4m3fn, e5m2) pattern widened to f32, and f32 -> fp8 for
 *     random values, by arith.truncf and by tt.fp_to_fp: both saturate past
 *     the largest finite value, inf included, as the GPU's conversion does
 *     (PTX has only cvt.rn.satfinite from f32 to fp8).
 * Each runs twice: with the C compiler's _Float16 and with the portable
 * bit-twiddling fallback (-DTC_NO_FLOAT16). References are brute force:
 * the nearest representable value found by searching the format's values,
 * ties to the even pattern, so they share no code with the prelude.
 */
#include "cpu_test_util.h"

static const char *g_flags; /* extra C flags for the build under test */

static CpuKernel *build_conv(TB *t, Type *src, Type *dst, OpKind k) {
    Type *ps = T_ptr(t, src), *pd = T_ptr(t, dst);
    Type *params[] = {ps, pd, T_i32(t)};
    tb_func(t, "conv_kernel", params, 3);
    enum { B = 1024 };
    Value *pid = tb_pid(t, 0);
    Value *offs = tb_bin(t, ARITH_ADDI, tb_splat(t, tb_bin(t, ARITH_MULI, pid, tb_ci(t, T_i32(t), B)), T_ten1(t, B, T_i32(t))),
                         tb_range(t, 0, B));
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, offs, tb_splat(t, tb_arg(t, 2), T_ten1(t, B, T_i32(t))));
    Value *x = tb_load(t, tb_addptr(t, tb_splat(t, tb_arg(t, 0), T_ten1(t, B, ps)), offs), mask, NULL);
    Value *y = tb_cast(t, k, x, dst);
    tb_store(t, tb_addptr(t, tb_splat(t, tb_arg(t, 1), T_ten1(t, B, pd)), offs), y, mask);
    tb_return(t);
    CpuBuildOptions o = {0};
    o.extra_flags = g_flags;
    CpuKernel *kk = cpu_kernel_build(t->module, "conv_kernel", &o, &t->de);
    if (!kk) t_print_diags(&t->de);
    return kk;
}

/* Runs src[n] -> dst[n] through a fresh kernel. */
static bool convert(FloatKind sk, FloatKind dk, OpKind op, const void *src, void *dst, int n, size_t dsz) {
    TB t;
    tb_init(&t);
    CpuKernel *k = build_conv(&t, ty_float(t.c, sk), ty_float(t.c, dk), op);
    bool ok = k != NULL;
    if (k) {
        poison_bytes(dst, (size_t)n * dsz);
        void *a0 = (void *)src, *a1 = dst;
        int32_t nn = n;
        void *args[] = {&a0, &a1, &nn};
        ok = t_launch(&t, k, (n + 1023) / 1024, 1, 1, args);
        cpu_kernel_free(k);
    }
    tb_free(&t);
    return ok;
}

/* ---- references ------------------------------------------------------------- */

typedef struct Fmt {
    int E, M;
    bool fn; /* e4m3fn: no inf, only S.1111.111 is NaN */
} Fmt;
static const Fmt F16 = {5, 10, false}, BF16 = {8, 7, false}, E4M3 = {4, 3, true}, E5M2 = {5, 2, false};

static double fmt_decode(Fmt f, uint32_t b) {
    int bias = (1 << (f.E - 1)) - 1;
    uint32_t s = b >> (f.E + f.M) & 1, e = b >> f.M & ((1u << f.E) - 1), m = b & ((1u << f.M) - 1);
    double v;
    if (f.fn && e == (1u << f.E) - 1 && m == (1u << f.M) - 1) v = NAN;
    else if (!f.fn && e == (1u << f.E) - 1) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, 1 - bias - f.M);
    else v = ldexp(m + (1u << f.M), (int)e - bias - f.M);
    return s ? -v : v;
}

/* Nearest pattern by binary search over the positive finite patterns. */
static uint32_t fmt_round(Fmt f, double v, bool sat) {
    uint32_t sign = signbit(v) ? 1u << (f.E + f.M) : 0;
    uint32_t maxfin = f.fn ? (1u << (f.E + f.M)) - 2 : ((((1u << f.E) - 2) << f.M) | ((1u << f.M) - 1));
    uint32_t inf = ((1u << f.E) - 1) << f.M;
    uint32_t nan = f.fn ? (1u << (f.E + f.M)) - 1 : inf | 1u << (f.M - 1);
    if (isnan(v)) return sign | nan;
    double a = fabs(v);
    double maxv = fmt_decode(f, maxfin);
    if (a > maxv) {
        if (sat) return sign | maxfin;
        /* overflow when rounding with an unbounded exponent would pass the
         * largest finite: above the midpoint, or at it when ties-to-even
         * goes up (maxfin's mantissa odd, as in IEEE formats; e4m3fn's
         * largest finite 448 = 1.110b * 2^8 is even, so 464 rounds to 448) */
        double ulp = maxv - fmt_decode(f, maxfin - 1);
        if (isinf(a) || a > maxv + ulp / 2 || (a == maxv + ulp / 2 && (maxfin & 1)))
            return sign | (f.fn ? nan : inf);
        return sign | maxfin;
    }
    uint32_t lo = 0, hi = maxfin; /* largest pattern with value <= a */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (fmt_decode(f, mid) <= a) lo = mid;
        else hi = mid - 1;
    }
    uint32_t r = lo;
    if (lo < maxfin) {
        double dl = a - fmt_decode(f, lo), dh = fmt_decode(f, lo + 1) - a;
        if (dh < dl || (dh == dl && (lo & 1))) r = lo + 1;
    }
    return sign | r;
}

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* NaN results: any NaN of the same sign is accepted for narrowing of
 * signalling payloads; quiet NaNs must keep their top payload bits. */
static bool same_bits_or_nan(uint32_t got, uint32_t want, Fmt f) {
    if (got == want) return true;
    double g = fmt_decode(f, got), w = fmt_decode(f, want);
    return isnan(g) && isnan(w) && !signbit(g) == !signbit(w);
}

static void test_f16(void) {
    enum { N = 65536 };
    static uint16_t h[N], h2[N];
    static float f[N];
    for (int i = 0; i < N; i++) h[i] = (uint16_t)i;
    CHECK(convert(FK_F16, FK_F32, ARITH_EXTF, h, f, N, 4), "launch f16->f32");
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double r = fmt_decode(F16, (uint32_t)i);
        bool ok = isnan(r) ? isnan(f[i]) && !signbit(f[i]) == !signbit(r) : (double)f[i] == r && !signbit(f[i]) == !signbit(r);
        if (!ok && bad++ < 3) fprintf(stderr, "  f16 %04x -> %g, expected %g\n", i, f[i], r);
    }
    CHECK(bad == 0, "all fp16 -> f32: %d wrong", bad);
    CHECK(convert(FK_F32, FK_F16, ARITH_TRUNCF, f, h2, N, 2), "launch f32->f16");
    bad = 0;
    for (int i = 0; i < N; i++) {
        bool nan = ((i >> 10) & 31) == 31 && (i & 1023);
        bool ok = nan ? (h2[i] & 0x7c00) == 0x7c00 && (h2[i] & 0x3ff) && (h2[i] & 0x8000) == (i & 0x8000)
                      : h2[i] == i;
        if (!ok && bad++ < 3) fprintf(stderr, "  f16 %04x round trip -> %04x\n", i, h2[i]);
    }
    CHECK(bad == 0, "all fp16 round trips through f32: %d wrong", bad);
    /* f32 -> f16 RNE: random patterns, midpoints and their neighbours */
    enum { R = 1 << 20 };
    float *src = malloc(sizeof(float) * (R + 3 * 31744 + 16));
    uint16_t *dst = malloc(2 * (R + 3 * 31744 + 16));
    int n = 0;
    for (int i = 0; i < R; i++) {
        uint32_t u = t_rand() ^ (t_rand() << 16);
        if (i & 1) u = (u & 0x87ffffffu) | 0x30000000u; /* bias toward the fp16 range */
        src[n++] = bits_f32(u);
    }
    for (uint32_t p = 0; p < 31743; p++) {
        float mid = (float)((fmt_decode(F16, p) + fmt_decode(F16, p + 1)) / 2);
        src[n++] = mid;
        src[n++] = nextafterf(mid, 0);
        src[n++] = -nextafterf(mid, INFINITY);
    }
    float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, 65519.99f, 65520.0f, 1e-8f, -1e-8f,
                        5.9604645e-08f, 2.9802322e-08f, 2.9802326e-08f, 1e38f, bits_f32(0x7f800001u), bits_f32(0xffc01234u)};
    for (int i = 0; i < TC_ARRAY_LEN(specials); i++) src[n++] = specials[i];
    CHECK(convert(FK_F32, FK_F16, ARITH_TRUNCF, src, dst, n, 2), "launch f32->f16 (random)");
    bad = 0;
    for (int i = 0; i < n; i++) {
        uint32_t want = fmt_round(F16, src[i], false);
        if (isnan(src[i])) want = (f32_bits(src[i]) >> 16 & 0x8000) | 0x7e00 | (f32_bits(src[i]) >> 13 & 0x3ff);
        if (dst[i] != want && bad++ < 3)
            fprintf(stderr, "  f32 %a (%08x) -> f16 %04x, expected %04x\n", src[i], f32_bits(src[i]), dst[i], want);
    }
    CHECK(bad == 0, "f32 -> f16 RNE on %d values: %d wrong", n, bad);
    free(src), free(dst);
}

static void test_bf16(void) {
    enum { N = 65536 };
    static uint16_t h[N], h2[N];
    static float f[N];
    for (int i = 0; i < N; i++) h[i] = (uint16_t)i;
    CHECK(convert(FK_BF16, FK_F32, ARITH_EXTF, h, f, N, 4), "launch");
    CHECK(convert(FK_F32, FK_BF16, ARITH_TRUNCF, f, h2, N, 2), "launch");
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bool ok = f32_bits(f[i]) == (uint32_t)i << 16 || (isnan(f[i]) && ((i >> 7) & 255) == 255);
        bool nan = ((i >> 7) & 255) == 255 && (i & 127);
        ok = ok && (nan ? same_bits_or_nan(h2[i], (uint32_t)i, BF16) && (h2[i] & 0x40) : h2[i] == i);
        if (!ok && bad++ < 3) fprintf(stderr, "  bf16 %04x -> %g -> %04x\n", i, f[i], h2[i]);
    }
    CHECK(bad == 0, "all bf16 round trips through f32: %d wrong", bad);
    enum { R = 1 << 18 };
    float *src = malloc(sizeof(float) * R);
    uint16_t *dst = malloc(2 * R);
    for (int i = 0; i < R; i++) src[i] = bits_f32(t_rand() ^ (t_rand() << 16));
    CHECK(convert(FK_F32, FK_BF16, ARITH_TRUNCF, src, dst, R, 2), "launch");
    bad = 0;
    for (int i = 0; i < R; i++) {
        uint32_t want = fmt_round(BF16, src[i], false);
        bool ok = isnan(src[i]) ? same_bits_or_nan(dst[i], want, BF16) : dst[i] == want;
        if (!ok && bad++ < 3) fprintf(stderr, "  f32 %a -> bf16 %04x, expected %04x\n", src[i], dst[i], want);
    }
    CHECK(bad == 0, "f32 -> bf16 RNE: %d wrong", bad);
    free(src), free(dst);
}

static void test_fp8(FloatKind fk) {
    Fmt F = fk == FK_F8E4M3 ? E4M3 : E5M2;
    const char *nm = fk == FK_F8E4M3 ? "e4m3fn" : "e5m2";
    uint8_t b[256];
    float f[256];
    for (int i = 0; i < 256; i++) b[i] = (uint8_t)i;
    CHECK(convert(fk, FK_F32, ARITH_EXTF, b, f, 256, 4), "launch");
    int bad = 0;
    for (int i = 0; i < 256; i++) {
        double r = fmt_decode(F, (uint32_t)i);
        bool ok = isnan(r) ? isnan(f[i]) : (double)f[i] == r && !signbit(f[i]) == !signbit(r);
        if (!ok && bad++ < 3) fprintf(stderr, "  %s %02x -> %g, expected %g\n", nm, i, f[i], r);
    }
    CHECK(bad == 0, "all %s -> f32: %d wrong", nm, bad);
    enum { R = 1 << 16 };
    float *src = malloc(sizeof(float) * R);
    uint8_t *dst = malloc(R);
    for (int i = 0; i < R; i++) {
        src[i] = (float)(t_randf() * ldexp(1.0, (int)(t_rand() % 40) - 20));
        if (i < 256) src[i] = f[i];
    }
    src[300] = 1e6f, src[301] = -1e6f, src[302] = INFINITY, src[303] = NAN, src[304] = 464.0f, src[305] = 480.0f;
    for (int sat = 0; sat < 2; sat++) {
        CHECK(convert(FK_F32, fk, sat ? TT_FP_TO_FP : ARITH_TRUNCF, src, dst, R, 1), "launch");
        bad = 0;
        for (int i = 0; i < R; i++) {
            uint32_t want = fmt_round(F, src[i], true);
            bool ok = isnan(src[i]) ? isnan(fmt_decode(F, dst[i])) : dst[i] == want;
            if (!ok && bad++ < 3)
                fprintf(stderr, "  f32 %g -> %s %02x, expected %02x (%s)\n", src[i], nm, dst[i], want, sat ? "satfinite" : "truncf");
        }
        CHECK(bad == 0, "f32 -> %s %s: %d wrong", nm, sat ? "fp_to_fp (satfinite)" : "truncf", bad);
    }
    free(src), free(dst);
}

int main(void) {
    t_private_cache();
    const char *modes[] = {NULL, "-DTC_NO_FLOAT16"};
    for (int m = 0; m < 2; m++) {
        g_flags = modes[m];
        int before = t_failures;
        test_f16();
        test_bf16();
        test_fp8(FK_F8E4M3);
        test_fp8(FK_F8E5M2);
        if (t_failures != before) fprintf(stderr, "(failures above with flags: %s)\n", modes[m] ? modes[m] : "default");
    }
    return t_finish("test_cpu_convert");
}
