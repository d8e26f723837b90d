/*
 * test_support_format.c - tc_vsnprintf (src/support/format.c) writes what
 * vsnprintf writes: every fast-path conversion at its extreme values, the
 * formats that must fall back (width, flags, floats), truncation into small
 * buffers with the snprintf return value, and random mixes of conversions
 * checked against libc.
 */
#include "support/support.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int failures;

/* Formats with both and compares text and return value, for every buffer
 * size from 0 to past the full length. */
static void check(const char *fmt, ...) TC_PRINTF(1, 2);
static void check(const char *fmt, ...) {
    char want[512], got[512];
    va_list ap;
    va_start(ap, fmt);
    int nw = vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    for (size_t cap = 0; cap <= (size_t)nw + 2; cap++) {
        memset(got, 'Z', sizeof got);
        va_start(ap, fmt);
        int ng = tc_vsnprintf(got, cap, fmt, ap);
        va_end(ap);
        bool ok = ng == nw && got[cap] == 'Z';
        if (cap) ok = ok && strncmp(got, want, cap - 1) == 0 && got[(size_t)nw < cap ? (size_t)nw : cap - 1] == 0;
        if (!ok) {
            fprintf(stderr, "format \"%s\" cap %zu: got %d \"%.*s\", want %d \"%s\"\n", fmt, cap, ng,
                    (int)(cap ? cap - 1 : 0), got, nw, want);
            failures++;
            return;
        }
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

int main(void) {
    check("plain text, no conversions");
    check("%d %d %d %d", 0, -1, INT_MAX, INT_MIN);
    check("%i|%u|%u", 42, 0u, UINT_MAX);
    check("%ld %lu %lld %llu", LONG_MIN, ULONG_MAX, LLONG_MIN, ULLONG_MAX);
    check("%zu %zd", (size_t)-1, (ptrdiff_t)-5);
    check("%x %X %lx %llX", 0xdeadbeefu, 0xabcu, 0xfffffffffUL, 0x0123456789ABCDEFULL);
    check("%x", 0u);
    check("%c%c%%%s", 'a', '|', "tail");
    check("%s", "");
    check("\tadd.s32 %s, %s, %d;\n", "%r12", "%r7", -4);
    check("[%s+%lld]", "%rd7", 16LL);
    check("$L__BB%d:\n", 17);
    /* fallbacks: width, flags, precision, floats, pointers */
    check("0f%08X", 0x3f800000u);
    check("0d%016llX", 0x3ff0000000000000ULL);
    check("%5d|%-5d|%+d|% d|%05d", 3, 3, 3, 3, -3);
    check("%.3s|%.*s", "abcdef", 2, "xyz");
    check("%g %f %e", 1.5, -2.25, 1e10);
    check("%p", (void *)0);
    check("%#x %#o %o", 255u, 8u, 8u);
    check("100%%");
    for (int i = 0; i < 2000; i++) {
        int64_t a = (int64_t)rng() >> (rng() % 64);
        uint64_t b = rng() >> (rng() % 64);
        int c = (int)(rng() >> 40) - (1 << 23);
        switch (i % 5) {
        case 0: check("%d, %lld, %llu;", c, (long long)a, (unsigned long long)b); break;
        case 1: check("x%llx/%llX/%u", (unsigned long long)b, (unsigned long long)a, (unsigned)c); break;
        case 2: check("%s %d %s", "mad.lo.s32", c, "%r1"); break;
        case 3: check("%ld%c%zu", (long)a, 'q', (size_t)b); break;
        default: check("%i%%%x", c, (unsigned)b); break;
        }
    }
    if (failures) {
        fprintf(stderr, "test_support_format: %d checks failed\n", failures);
        return 1;
    }
    printf("test_support_format: ok\n");
    return 0;
}
