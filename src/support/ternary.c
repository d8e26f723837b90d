/*
 * ternary.c - 2-bit ternary packing and the ternary/int8/int4/per-channel
 * quantizers (the layout is drawn in ternary.h).
 *
 * Packing works a byte at a time: four values are encoded as (v + 1), which
 * maps -1, 0, +1 to the codes 0, 1, 2, and shifted into place with the first
 * value in bits 7..6. The tail byte starts as TERN_ZERO_BYTE so unused slots
 * hold the zero code. Unpacking is the inverse and rejects code 3.
 *
 * The quantizers are single-pass reductions (max, min, sum) followed by one
 * mapping pass; they are the reference the generated PyTorch code matches.
 */
#include "support/ternary.h"

#include <math.h>

size_t tern_packed_size(size_t n) { return n / 4 + (n % 4 != 0); }

static inline unsigned tern_code(int8_t v) {
    return v < 0 ? TERN_CODE_NEG : v > 0 ? TERN_CODE_POS : TERN_CODE_ZERO;
}

void tern_pack(const int8_t *vals, size_t n, uint8_t *out) {
    size_t full = n / 4, i = 0;
    for (size_t b = 0; b < full; b++, i += 4)
        out[b] = (uint8_t)(tern_code(vals[i]) << 6 | tern_code(vals[i + 1]) << 4 |
                           tern_code(vals[i + 2]) << 2 | tern_code(vals[i + 3]));
    if (i < n) {
        unsigned byte = TERN_ZERO_BYTE;
        for (int slot = 0; i < n; i++, slot++) {
            int shift = 6 - 2 * slot;
            byte = (byte & ~(3u << shift)) | tern_code(vals[i]) << shift;
        }
        out[full] = (uint8_t)byte;
    }
}

bool tern_unpack(const uint8_t *in, size_t n, int8_t *out) {
    for (size_t i = 0; i < n; i++) {
        unsigned code = (unsigned)in[i / 4] >> (6 - 2 * (i % 4)) & 3u;
        if (code == TERN_CODE_BAD) return false;
        out[i] = (int8_t)((int)code - 1);
    }
    return true;
}

void tern_quantize(const float *x, size_t n, float threshold_ratio, int8_t *out, float *scale_out) {
    float ratio = threshold_ratio;
    if (!(ratio >= 0.0f)) ratio = TERN_DEFAULT_THRESHOLD; /* negative or NaN */
    if (ratio > 1.0f) ratio = 1.0f;
    float maxabs = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        if (a > maxabs) maxabs = a; /* NaN compares false: skipped */
    }
    float threshold = ratio * maxabs;
    double kept_sum = 0.0;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        if (a > threshold && maxabs > 0.0f) {
            out[i] = x[i] < 0 ? -1 : 1;
            kept_sum += a;
            kept++;
        } else {
            out[i] = 0;
        }
    }
    if (scale_out) *scale_out = kept ? (float)(kept_sum / (double)kept) : 0.0f;
}

/* min and max of x, widened to include 0; NaNs are skipped. */
static void range_with_zero(const float *x, size_t n, float *lo, float *hi) {
    float mn = 0.0f, mx = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    *lo = mn;
    *hi = mx;
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Affine parameters for the integer range [qmin, qmax]. */
static void affine_params(float lo, float hi, int qmin, int qmax, float *scale, int32_t *zp) {
    float s = (hi - lo) / (float)(qmax - qmin);
    if (!(s > 0.0f) || !isfinite(s)) {
        *scale = 1.0f;
        *zp = 0 >= qmin && 0 <= qmax ? 0 : qmin;
        return;
    }
    *scale = s;
    *zp = (int32_t)clampf(roundf((float)qmin - lo / s), (float)qmin, (float)qmax);
}

static int quant_one(float v, float scale, int32_t zp, int qmin, int qmax) {
    if (v != v) v = 0.0f;
    float q = roundf(v / scale) + (float)zp;
    return (int)clampf(q, (float)qmin, (float)qmax);
}

void tern_quantize_int8(const float *x, size_t n, int8_t *out, float *scale, int32_t *zero_point) {
    float lo, hi, s;
    int32_t zp;
    range_with_zero(x, n, &lo, &hi);
    affine_params(lo, hi, -128, 127, &s, &zp);
    for (size_t i = 0; i < n; i++) out[i] = (int8_t)quant_one(x[i], s, zp, -128, 127);
    if (scale) *scale = s;
    if (zero_point) *zero_point = zp;
}

void tern_dequantize_int8(const int8_t *q, size_t n, float scale, int32_t zero_point, float *out) {
    for (size_t i = 0; i < n; i++) out[i] = (float)((int32_t)q[i] - zero_point) * scale;
}

void tern_quantize_int4(const float *x, size_t n, uint8_t *out, float *scale, int32_t *zero_point) {
    float lo, hi, s;
    int32_t zp;
    range_with_zero(x, n, &lo, &hi);
    affine_params(lo, hi, 0, 15, &s, &zp);
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)quant_one(x[i], s, zp, 0, 15);
    if (scale) *scale = s;
    if (zero_point) *zero_point = zp;
}

void tern_dequantize_int4(const uint8_t *q, size_t n, float scale, int32_t zero_point, float *out) {
    for (size_t i = 0; i < n; i++) out[i] = (float)((int32_t)q[i] - zero_point) * scale;
}

/*
 * A row-major tensor seen along `axis` is [outer, channels, inner]: element
 * (o, c, i) lives at (o * channels + c) * inner + i. Each channel is visited
 * as `outer` runs of `inner` contiguous elements.
 */
bool tern_quantize_per_channel(const float *x, const size_t *shape, int rank, int axis,
                               int8_t *out, float *scale, int32_t *zero_point) {
    if (rank < 1) return false;
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return false;
    size_t outer = 1, inner = 1, channels = shape[axis];
    for (int d = 0; d < axis; d++) outer *= shape[d];
    for (int d = axis + 1; d < rank; d++) inner *= shape[d];
    for (size_t c = 0; c < channels; c++) {
        float lo = 0.0f, hi = 0.0f;
        for (size_t o = 0; o < outer; o++) {
            float l, h;
            range_with_zero(x + (o * channels + c) * inner, inner, &l, &h);
            if (l < lo) lo = l;
            if (h > hi) hi = h;
        }
        float s;
        int32_t zp;
        affine_params(lo, hi, -128, 127, &s, &zp);
        for (size_t o = 0; o < outer; o++) {
            size_t base = (o * channels + c) * inner;
            for (size_t i = 0; i < inner; i++)
                out[base + i] = (int8_t)quant_one(x[base + i], s, zp, -128, 127);
        }
        scale[c] = s;
        zero_point[c] = zp;
    }
    return true;
}
