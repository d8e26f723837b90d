/*
 * harness.h - what the kernel suite (tests/unit/test_kernels_cpu.c) needs to
 * run the Triton kernels of tests/kernels/ on the CPU and check them against
 * references computed another way (plain C, double precision):
 *
 *   - dtypes and floating-point formats of our own (decode, round to nearest
 *     even or toward zero, encode), independent of the CPU backend's prelude;
 *   - buffers with guard zones on both sides; outputs are poisoned (NaN for
 *     floats, 0xAB bytes for integers) before each launch, inputs are
 *     snapshotted and must come back unchanged, guards must stay intact;
 *   - checks with the tolerances stated below, a seeded generator (the seed
 *     is printed with every failure), Philox 4x32-10 as Triton's tl.rand has it.
 *
 * Tolerances (|got - ref| <= bound, ref computed in double or long double):
 *   fp32: 1e-5 * |ref| + 1e-6
 *   fp16: 1e-3 * |ref| + 1 ulp of fp16 at |ref|
 *   bf16: 1e-2 * |ref| + 1 ulp of bf16 at |ref|
 *   fp64: 1e-12 * |ref| + 1e-300
 *   integers, bit patterns, Philox streams: exact
 * A check may add an absolute term where the kernel's own arithmetic is
 * looser than one rounding (fp32 sums and dot products: a multiple of the sum
 * of the magnitudes of the terms); each such place says why.
 */
#ifndef TC_KERNELS_HARNESS_H
#define TC_KERNELS_HARNESS_H

#include "tritonc.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dtypes ------------------------------------------------------------- */

enum { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, F8E4, F8E5, NDT };
static const struct {
    const char *name, *tl;
    int size, is_float, is_signed;
} DT[NDT] = {
    {"i1", "tl.int1", 1, 0, 0},      {"i8", "tl.int8", 1, 0, 1},
    {"i16", "tl.int16", 2, 0, 1},    {"i32", "tl.int32", 4, 0, 1},
    {"i64", "tl.int64", 8, 0, 1},    {"u8", "tl.uint8", 1, 0, 0},
    {"u16", "tl.uint16", 2, 0, 0},   {"u32", "tl.uint32", 4, 0, 0},
    {"u64", "tl.uint64", 8, 0, 0},   {"fp16", "tl.float16", 2, 1, 1},
    {"bf16", "tl.bfloat16", 2, 1, 1}, {"fp32", "tl.float32", 4, 1, 1},
    {"fp64", "tl.float64", 8, 1, 1}, {"fp8e4nv", "tl.float8e4nv", 1, 1, 1},
    {"fp8e5", "tl.float8e5", 1, 1, 1},
};

/* ---- floating-point formats, from first principles ---------------------- */

typedef struct {
    int ebits, mbits, bias;
    bool fn; /* e4m3fn: no infinities, S.1111.111 is the only NaN */
} Fmt;
static const Fmt FMT_F16 = {5, 10, 15, false}, FMT_BF16 = {8, 7, 127, false},
                 FMT_F32 = {8, 23, 127, false}, FMT_F64 = {11, 52, 1023, false},
                 FMT_E4 = {4, 3, 7, true}, FMT_E5 = {5, 2, 15, false};

static inline const Fmt *fmt_of(int dt) {
    switch (dt) {
    case F16: return &FMT_F16;
    case BF16: return &FMT_BF16;
    case F32: return &FMT_F32;
    case F64: return &FMT_F64;
    case F8E4: return &FMT_E4;
    case F8E5: return &FMT_E5;
    default: return NULL;
    }
}
static inline int fmt_emin(const Fmt *f) { return 1 - f->bias; }
static inline int fmt_emax(const Fmt *f) { return (1 << f->ebits) - 2 - f->bias + (f->fn ? 1 : 0); }
static inline long double fmt_max(const Fmt *f) {
    /* e4m3fn: 1.110 * 2^8 = 448 (1.111 at the top exponent is NaN) */
    long double m = f->fn ? 2.0L - ldexpl(1, 1 - f->mbits) : 2.0L - ldexpl(1, -f->mbits);
    return ldexpl(m, fmt_emax(f));
}

static inline long double fmt_decode(uint64_t bits, const Fmt *f) {
    int w = 1 + f->ebits + f->mbits;
    uint64_t sign = (bits >> (w - 1)) & 1, e = (bits >> f->mbits) & ((1ull << f->ebits) - 1),
             m = bits & ((1ull << f->mbits) - 1);
    long double v;
    uint64_t emask = (1ull << f->ebits) - 1;
    if (f->fn && e == emask && m == (1ull << f->mbits) - 1) v = NAN;
    else if (!f->fn && e == emask) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexpl((long double)m, fmt_emin(f) - f->mbits);
    else v = ldexpl((long double)(m | (1ull << f->mbits)), (int)e - f->bias - f->mbits);
    return sign ? -v : v;
}

/* x rounded to the format (nearest even, or toward zero when rtz), as a
 * value. Overflow: rtne gives inf (NaN for e4m3fn, which has no inf), rtz the
 * largest finite value. Exact for any long double input. */
static inline long double fmt_round(long double x, const Fmt *f, bool rtz) {
    if (x == 0 || isnan(x) || isinf(x)) return (f->fn && isinf(x)) ? NAN : x;
    int e;
    frexpl(x, &e);
    int lead = e - 1;
    if (lead < fmt_emin(f)) lead = fmt_emin(f);
    long double q = ldexpl(x, f->mbits - lead);
    q = rtz ? truncl(q) : nearbyintl(q);
    long double r = ldexpl(q, lead - f->mbits);
    if (fabsl(r) > fmt_max(f)) {
        if (rtz) return copysignl(fmt_max(f), x);
        return f->fn ? NAN : copysignl(INFINITY, x);
    }
    return r;
}

/* The bits of v, which must be representable (NaN: the canonical quiet one). */
static inline uint64_t fmt_encode(long double v, const Fmt *f) {
    int w = 1 + f->ebits + f->mbits;
    uint64_t emask = (1ull << f->ebits) - 1;
    if (isnan(v)) return f->fn ? (emask << f->mbits) | ((1ull << f->mbits) - 1)
                               : (emask << f->mbits) | (1ull << (f->mbits - 1));
    uint64_t sign = signbit(v) ? 1ull << (w - 1) : 0;
    long double a = fabsl(v);
    if (isinf(a)) return sign | (emask << f->mbits);
    if (a == 0) return sign;
    int e;
    frexpl(a, &e);
    int lead = e - 1;
    if (lead < fmt_emin(f)) return sign | (uint64_t)ldexpl(a, f->mbits - fmt_emin(f));
    uint64_t m = (uint64_t)ldexpl(a, f->mbits - lead) - (1ull << f->mbits);
    return sign | ((uint64_t)(lead + f->bias) << f->mbits) | m;
}

/* One unit in the last place of the format at |x| (subnormal spacing below). */
static inline double fmt_ulp(double x, const Fmt *f) {
    int e;
    frexp(x, &e);
    int lead = x == 0 ? fmt_emin(f) : e - 1;
    if (lead < fmt_emin(f)) lead = fmt_emin(f);
    return ldexp(1.0, lead - f->mbits);
}

/* ---- element access ----------------------------------------------------- */

static inline uint64_t load_bits(int dt, const void *p, size_t i) {
    const unsigned char *b = (const unsigned char *)p + i * (size_t)DT[dt].size;
    switch (DT[dt].size) {
    case 1: return b[0];
    case 2: { uint16_t v; memcpy(&v, b, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, b, 4); return v; }
    default: { uint64_t v; memcpy(&v, b, 8); return v; }
    }
}
static inline void store_bits(int dt, void *p, size_t i, uint64_t v) {
    unsigned char *b = (unsigned char *)p + i * (size_t)DT[dt].size;
    switch (DT[dt].size) {
    case 1: b[0] = (unsigned char)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(b, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(b, &x, 4); break; }
    default: memcpy(b, &v, 8);
    }
}
/* Integers: the value, sign-extended for signed types (i1 reads its byte). */
static inline int64_t get_i(int dt, const void *p, size_t i) {
    uint64_t b = load_bits(dt, p, i);
    int s = DT[dt].size * 8;
    if (DT[dt].is_signed && s < 64 && (b >> (s - 1)) & 1) b |= ~0ull << s;
    return (int64_t)b;
}
static inline long double get_f(int dt, const void *p, size_t i) {
    if (DT[dt].is_float) return fmt_decode(load_bits(dt, p, i), fmt_of(dt));
    if (DT[dt].is_signed) return (long double)get_i(dt, p, i);
    return (long double)load_bits(dt, p, i);
}
/* Stores v rounded to nearest even (floats) or wrapped (integers). */
static inline void set_f(int dt, void *p, size_t i, long double v) {
    if (DT[dt].is_float) store_bits(dt, p, i, fmt_encode(fmt_round(v, fmt_of(dt), false), fmt_of(dt)));
    else store_bits(dt, p, i, (uint64_t)(int64_t)v);
}

/* ---- random numbers (splitmix64) ---------------------------------------- */

static uint64_t rng_state;
static inline uint64_t rng_u64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline double rng_unif(double lo, double hi) {
    return lo + (hi - lo) * ((double)(rng_u64() >> 11) * 0x1p-53);
}
static inline int64_t rng_int(int64_t lo, int64_t hi) { /* [lo, hi] */
    return lo + (int64_t)(rng_u64() % (uint64_t)(hi - lo + 1));
}

/* ---- Philox 4x32-10 as in triton/language/random.py --------------------- */

static inline void philox4x32(uint64_t seed, uint32_t c[4]) {
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++) {
        uint32_t c0 = c[0], c2 = c[2];
        c[0] = (uint32_t)(((uint64_t)0xCD9E8D57u * c2) >> 32) ^ c[1] ^ k0;
        c[2] = (uint32_t)(((uint64_t)0xD2511F53u * c0) >> 32) ^ c[3] ^ k1;
        c[1] = 0xCD9E8D57u * c2;
        c[3] = 0xD2511F53u * c0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}
/* uint_to_uniform_float for 32 bits: int32 bitcast, negatives folded, times
 * 4.6566127342e-10 in fp32. */
static inline float philox_uniform(uint32_t u) {
    int32_t x = (int32_t)u;
    if (x < 0) x = -(x + 1);
    return (float)x * 4.6566127342e-10f;
}

/* ---- buffers with guard zones -------------------------------------------- */

#define GUARD_BYTES 256
#define GUARD_BYTE 0xC5
enum { B_IN, B_OUT, B_ACC };
typedef struct {
    unsigned char *raw, *copy;
    void *p;
    size_t n, bytes;
    int dt, kind;
    const char *name;
} Buf;
#define MAX_BUFS 64
static Buf h_bufs[MAX_BUFS];
static int h_nbufs;

static inline uint64_t poison_bits(int dt) {
    switch (dt) {
    case F16: return 0x7eabu;
    case BF16: return 0x7fcbu;
    case F32: return 0x7fc0ababu;
    case F64: return 0x7ff8ababababababull;
    case F8E4: return 0x7fu;
    case F8E5: return 0x7fu;
    default: return 0xababababababababull;
    }
}
static inline void poison(Buf *b) {
    for (size_t i = 0; i < b->n; i++) store_bits(b->dt, b->p, i, poison_bits(b->dt));
}
/* kind: B_IN (filled by the caller, must not change), B_OUT (poisoned),
 * B_ACC (initialised by the caller, the kernel accumulates into it). */
static inline void *buf_new(const char *name, int dt, size_t n, int kind) {
    if (h_nbufs == MAX_BUFS) abort();
    Buf *b = &h_bufs[h_nbufs++];
    memset(b, 0, sizeof *b);
    b->name = name, b->dt = dt, b->n = n, b->kind = kind;
    b->bytes = n * (size_t)DT[dt].size;
    /* the interior starts 64-byte aligned (the kernels assume :16) */
    b->raw = aligned_alloc(64, (b->bytes + 2 * GUARD_BYTES + 63) / 64 * 64);
    memset(b->raw, GUARD_BYTE, b->bytes + 2 * GUARD_BYTES);
    b->p = b->raw + GUARD_BYTES;
    if (kind == B_OUT) poison(b);
    else memset(b->p, 0, b->bytes);
    return b->p;
}
static inline Buf *buf_of(const void *p) {
    for (int i = 0; i < h_nbufs; i++)
        if (h_bufs[i].p == p) return &h_bufs[i];
    abort();
}
/* Element i of an output still holds the poison (was not written). */
static inline bool untouched(const void *p, size_t i) {
    Buf *b = buf_of(p);
    return load_bits(b->dt, b->p, i) == (poison_bits(b->dt) & (DT[b->dt].size == 8 ? ~0ull : (1ull << (8 * DT[b->dt].size)) - 1));
}
static inline void bufs_snapshot(void) {
    for (int i = 0; i < h_nbufs; i++) {
        Buf *b = &h_bufs[i];
        if (b->kind != B_IN) continue;
        free(b->copy);
        b->copy = malloc(b->bytes + 1);
        memcpy(b->copy, b->p, b->bytes);
    }
}
static inline void bufs_free(void) {
    for (int i = 0; i < h_nbufs; i++) free(h_bufs[i].raw), free(h_bufs[i].copy);
    h_nbufs = 0;
}

/* ---- checking ------------------------------------------------------------ */

static struct {
    const char *kernel, *spec;
    char label[160];
    uint64_t seed;
    int fails, checks, total_fails;
} H;

static inline void h_fail(const char *fmt, ...) {
    H.fails++;
    if (H.fails > 8) return;
    va_list ap;
    va_start(ap, fmt);
    printf("    FAIL %s [%s] seed=%llu: ", H.kernel, H.label, (unsigned long long)H.seed);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static inline double tol_of(int dt, double ref) {
    double a = fabs(ref);
    switch (dt) {
    case F32: return 1e-5 * a + 1e-6;
    case F16: return 1e-3 * a + fmt_ulp(a, &FMT_F16);
    case BF16: return 1e-2 * a + fmt_ulp(a, &FMT_BF16);
    case F64: return 1e-12 * a + 1e-300;
    default: return 0;
    }
}
/* Float output element i of buffer p against ref, within tol_of(dt) + extra. */
static inline void check_f(const void *p, size_t i, double ref, double extra) {
    Buf *b = buf_of(p);
    long double got = get_f(b->dt, p, i);
    H.checks++;
    if (isnan(ref) ? !isnan(got) : !(fabsl(got - ref) <= tol_of(b->dt, ref) + extra))
        h_fail("%s[%zu] = %.9Lg, expected %.9g (tol %.3g)%s", b->name, i, got, ref,
               tol_of(b->dt, ref) + extra, untouched(p, i) ? " (never written)" : "");
}
/* Integer / bit-exact output element i. */
static inline void check_i(const void *p, size_t i, int64_t ref) {
    Buf *b = buf_of(p);
    int64_t got = DT[b->dt].is_float ? (int64_t)load_bits(b->dt, p, i) : get_i(b->dt, p, i);
    H.checks++;
    if (got != ref)
        h_fail("%s[%zu] = %lld (0x%llx), expected %lld (0x%llx)%s", b->name, i, (long long)got,
               (unsigned long long)got, (long long)ref, (unsigned long long)ref,
               untouched(p, i) ? " (never written)" : "");
}
/* Element i of an output must not have been written (padding, masked lanes). */
static inline void check_untouched(const void *p, size_t i) {
    H.checks++;
    if (!untouched(p, i)) h_fail("%s[%zu] was written (padding / masked off)", buf_of(p)->name, i);
}
/* Guards intact, inputs unchanged. */
static inline void bufs_check(void) {
    for (int i = 0; i < h_nbufs; i++) {
        Buf *b = &h_bufs[i];
        for (size_t j = 0; j < GUARD_BYTES; j++) {
            if (b->raw[j] != GUARD_BYTE) {
                h_fail("%s: guard zone before the buffer written (byte -%zu)", b->name, GUARD_BYTES - j);
                break;
            }
            if (b->raw[GUARD_BYTES + b->bytes + j] != GUARD_BYTE) {
                h_fail("%s: guard zone after the buffer written (byte +%zu)", b->name, j);
                break;
            }
        }
        if (b->kind == B_IN && b->copy && memcmp(b->copy, b->p, b->bytes) != 0)
            h_fail("input %s was modified", b->name);
    }
}

#endif
