/*
 * test_ternary_pack.c - checks the canonical 2-bit ternary format and the
 * quantizers in src/support/ternary.c: the documented 0x19 example, tail
 * padding with the zero code, a pack -> unpack property test over random
 * lengths 0..1000, rejection of the invalid code 0b11, and quantizer edge
 * cases (all zeros, constant input, NaN, per-channel axes).
 */
#include "support/ternary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

static void test_examples(void) {
    int8_t v[4] = {-1, 0, 1, 0};
    uint8_t out[1];
    tern_pack(v, 4, out);
    CHECK(out[0] == 0x19);

    int8_t one[1] = {1};
    tern_pack(one, 1, out);
    CHECK(out[0] == 0x95); /* 10 01 01 01 */

    int8_t five[5] = {1, 1, 1, 1, -1};
    uint8_t o2[2];
    tern_pack(five, 5, o2);
    CHECK(o2[0] == 0xAA);
    CHECK(o2[1] == 0x15); /* 00 01 01 01 */

    CHECK(tern_packed_size(0) == 0);
    CHECK(tern_packed_size(1) == 1);
    CHECK(tern_packed_size(4) == 1);
    CHECK(tern_packed_size(5) == 2);
    CHECK(tern_packed_size(1000) == 250);

    int8_t back[5];
    CHECK(tern_unpack(o2, 5, back));
    CHECK(memcmp(back, five, 5) == 0);
}

static void test_reject_bad_code(void) {
    int8_t out[4];
    uint8_t bad[1] = {0x1B}; /* 00 01 10 11 */
    CHECK(!tern_unpack(bad, 4, out));
    CHECK(tern_unpack(bad, 3, out)); /* the bad code is past n */
    CHECK(out[0] == -1 && out[1] == 0 && out[2] == 1);
    uint8_t bad0[1] = {0xC0};
    CHECK(!tern_unpack(bad0, 1, out));
}

static void test_roundtrip_property(void) {
    static int8_t vals[1000], back[1000];
    static uint8_t packed[250];
    for (int iter = 0; iter < 2000; iter++) {
        size_t n = rng() % 1001;
        for (size_t i = 0; i < n; i++) vals[i] = (int8_t)((int)(rng() % 3) - 1);
        memset(packed, 0xFF, sizeof packed);
        tern_pack(vals, n, packed);
        CHECK(tern_unpack(packed, n, back));
        CHECK(n == 0 || memcmp(vals, back, n) == 0);
        /* bytes past the packed size are untouched */
        if (tern_packed_size(n) < sizeof packed) CHECK(packed[tern_packed_size(n)] == 0xFF);
        /* padding slots hold the zero code */
        if (n % 4) {
            unsigned last = packed[n / 4];
            for (size_t slot = n % 4; slot < 4; slot++)
                CHECK((last >> (6 - 2 * slot) & 3u) == 1u);
        }
    }
}

static void test_quantize_ternary(void) {
    float zeros[8] = {0};
    int8_t q[8];
    float scale = -1;
    tern_quantize(zeros, 8, 0.3f, q, &scale);
    for (int i = 0; i < 8; i++) CHECK(q[i] == 0);
    CHECK(scale == 0.0f);

    float c[6] = {2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f};
    tern_quantize(c, 6, 0.3f, q, &scale);
    for (int i = 0; i < 6; i++) CHECK(q[i] == 1);
    CHECK(scale == 2.5f);

    float x[6] = {1.0f, -0.2f, 0.35f, -0.9f, 0.0f, 0.25f};
    tern_quantize(x, 6, 0.3f, q, &scale); /* threshold 0.3 */
    int8_t want[6] = {1, 0, 1, -1, 0, 0};
    CHECK(memcmp(q, want, 6) == 0);
    CHECK(fabsf(scale - (1.0f + 0.35f + 0.9f) / 3) < 1e-6f);

    tern_quantize(x, 6, NAN, q, NULL); /* NaN ratio means the default */
    CHECK(memcmp(q, want, 6) == 0);
    tern_quantize(x, 6, 0.0f, q, NULL);
    CHECK(q[4] == 0 && q[1] == -1 && q[5] == 1);

    float withnan[3] = {NAN, -4.0f, 1.0f};
    tern_quantize(withnan, 3, 0.3f, q, &scale);
    CHECK(q[0] == 0 && q[1] == -1 && q[2] == 0);
    CHECK(scale == 4.0f);
    tern_quantize(NULL, 0, 0.3f, NULL, &scale);
    CHECK(scale == 0.0f);
}

static void test_quantize_int(void) {
    float zeros[4] = {0};
    int8_t q[8];
    float scale;
    int32_t zp;
    tern_quantize_int8(zeros, 4, q, &scale, &zp);
    CHECK(scale == 1.0f && zp == 0);
    for (int i = 0; i < 4; i++) CHECK(q[i] == 0);

    float c[4] = {3.0f, 3.0f, 3.0f, 3.0f};
    tern_quantize_int8(c, 4, q, &scale, &zp);
    CHECK(fabsf(scale - 3.0f / 255) < 1e-7f);
    CHECK(zp == -128);
    float back[8];
    tern_dequantize_int8(q, 4, scale, zp, back);
    for (int i = 0; i < 4; i++) CHECK(fabsf(back[i] - 3.0f) <= scale);

    float x[8] = {-1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f, 2.0f, 3.0f};
    tern_quantize_int8(x, 8, q, &scale, &zp);
    CHECK(fabsf(scale - 4.0f / 255) < 1e-7f);
    tern_dequantize_int8(q, 8, scale, zp, back);
    for (int i = 0; i < 8; i++) CHECK(fabsf(back[i] - x[i]) <= scale * 0.5f + 1e-6f);
    CHECK(back[2] == 0.0f); /* zero is exact */

    uint8_t q4[8];
    tern_quantize_int4(x, 8, q4, &scale, &zp);
    CHECK(fabsf(scale - 4.0f / 15) < 1e-6f);
    CHECK(zp >= 0 && zp <= 15);
    tern_dequantize_int4(q4, 8, scale, zp, back);
    for (int i = 0; i < 8; i++) CHECK(q4[i] <= 15 && fabsf(back[i] - x[i]) <= scale * 0.5f + 1e-6f);
    tern_quantize_int4(zeros, 4, q4, &scale, &zp);
    CHECK(scale == 1.0f && zp == 0 && q4[0] == 0);
}

static void test_per_channel(void) {
    /* shape [2, 3]: rows are channels along axis 0, columns along axis 1 */
    float x[6] = {1, 2, 3, -10, 0, 10};
    size_t shape[2] = {2, 3};
    int8_t q[6];
    float s[3];
    int32_t zp[3];
    CHECK(tern_quantize_per_channel(x, shape, 2, 0, q, s, zp));
    CHECK(fabsf(s[0] - 3.0f / 255) < 1e-7f);
    CHECK(fabsf(s[1] - 20.0f / 255) < 1e-7f);
    float back[3];
    tern_dequantize_int8(q, 3, s[0], zp[0], back);
    for (int i = 0; i < 3; i++) CHECK(fabsf(back[i] - x[i]) <= s[0]);
    CHECK(tern_quantize_per_channel(x, shape, 2, -1, q, s, zp)); /* axis 1 */
    CHECK(fabsf(s[0] - 11.0f / 255) < 1e-7f);
    CHECK(fabsf(s[1] - 2.0f / 255) < 1e-7f);
    CHECK(fabsf(s[2] - 10.0f / 255) < 1e-7f);
    CHECK(!tern_quantize_per_channel(x, shape, 2, 2, q, s, zp));
    CHECK(!tern_quantize_per_channel(x, shape, 2, -3, q, s, zp));
    CHECK(!tern_quantize_per_channel(x, shape, 0, 0, q, s, zp));
}

int main(void) {
    test_examples();
    test_reject_bad_code();
    test_roundtrip_property();
    test_quantize_ternary();
    test_quantize_int();
    test_per_channel();
    if (failures) {
        fprintf(stderr, "test_ternary_pack: %d checks failed\n", failures);
        return 1;
    }
    printf("test_ternary_pack: ok\n");
    return 0;
}
