/*
 * test_divmagic.c - divmagic's multipliers, run through the exact sequence
 * the PTX lowering emits (ptx_emit.c: div_const64), against C's division on
 * edge values and random ones, for divisors of every size and sign.
 */
#include "support/divmagic.h"

#include <inttypes.h>
#include <stdio.h>

static int failures;

static uint64_t mulhi_u(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static int64_t mulhi_s(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }

static uint64_t seq_u(uint64_t n, const DivMagic *g) {
    uint64_t t = mulhi_u(g->m, n);
    return (t + ((n - t) >> 1)) >> (g->l - 1);
}

static int64_t seq_s(int64_t n, int64_t d, const DivMagic *g) {
    int64_t t = (int64_t)((uint64_t)n + (uint64_t)mulhi_s((int64_t)g->m, n));
    int64_t q = (t >> (g->l - 1)) - (n >> 63);
    return d < 0 ? -q : q;
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void check_u(uint64_t d) {
    DivMagic g;
    if (!divmagic_u64(d, &g)) {
        if (d >= 2) {
            printf("FAIL: no unsigned magic for %" PRIu64 "\n", d);
            failures++;
        }
        return;
    }
    uint64_t edge[] = {0, 1, d - 1, d, d + 1, 2 * d - 1, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX / 2,
                       UINT64_MAX / 2 + 1, UINT64_MAX - d, (uint64_t)INT64_MAX};
    for (int i = 0; i < (int)(sizeof edge / sizeof edge[0]) + 4000; i++) {
        uint64_t n = i < (int)(sizeof edge / sizeof edge[0]) ? edge[i] : next() >> (next() % 64);
        if (seq_u(n, &g) != n / d) {
            printf("FAIL: %" PRIu64 " / %" PRIu64 " = %" PRIu64 ", sequence %" PRIu64 "\n", n, d, n / d, seq_u(n, &g));
            if (++failures > 20) return;
        }
    }
}

static void check_s(int64_t d) {
    DivMagic g;
    if (!divmagic_s64(d, &g)) {
        if (d != 0 && d != 1 && d != -1 && d != INT64_MIN) {
            printf("FAIL: no signed magic for %" PRId64 "\n", d);
            failures++;
        }
        return;
    }
    /* (d - 1, d + 1 wrap at the ends: computed unsigned) */
    int64_t edge[] = {0, 1, -1, d, -d, (int64_t)((uint64_t)d - 1), (int64_t)((uint64_t)d + 1), INT64_MAX, INT64_MIN,
                      INT64_MIN + 1, INT64_MAX - 1, 7, -7};
    for (int i = 0; i < (int)(sizeof edge / sizeof edge[0]) + 4000; i++) {
        int64_t n = i < (int)(sizeof edge / sizeof edge[0]) ? edge[i] : (int64_t)(next() >> (next() % 64)) * (next() & 1 ? 1 : -1);
        if (n == INT64_MIN && d == -1) continue;
        if (seq_s(n, d, &g) != n / d) {
            printf("FAIL: %" PRId64 " / %" PRId64 " = %" PRId64 ", sequence %" PRId64 "\n", n, d, n / d, seq_s(n, d, &g));
            if (++failures > 20) return;
        }
    }
}

int main(void) {
    int64_t ds[] = {2, 3, 4, 5, 6, 7, 9, 10, 12, 16, 25, 60, 100, 125, 641, 1000, 1024, 4097, 65535, 65536,
                    1000000007, (int64_t)1 << 31, ((int64_t)1 << 32) + 1, (int64_t)1 << 40, INT64_MAX / 3,
                    INT64_MAX - 1, INT64_MAX, ((int64_t)1 << 62) + 1};
    for (int i = 0; i < (int)(sizeof ds / sizeof ds[0]); i++) {
        check_u((uint64_t)ds[i]);
        check_s(ds[i]);
        check_s(-ds[i]);
    }
    check_u((uint64_t)1 << 63);
    check_u(((uint64_t)1 << 63) + 1);
    check_u(UINT64_MAX);
    check_u(UINT64_MAX - 1);
    check_s(INT64_MIN + 1);
    for (int i = 0; i < 300; i++) {
        uint64_t d = next() >> (next() % 63);
        check_u(d);
        check_s((int64_t)d);
        check_s(-(int64_t)(d >> 1));
    }
    DivMagic g;
    if (divmagic_u64(1, &g) || divmagic_s64(-1, &g) || divmagic_s64(INT64_MIN, &g) || divmagic_s64(0, &g)) {
        printf("FAIL: a divisor the formulas do not take was given a multiplier\n");
        failures++;
    }
    printf("divmagic: %d failures\n", failures);
    return failures != 0;
}
