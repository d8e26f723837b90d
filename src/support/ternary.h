/*
 * ternary.h - the canonical 2-bit ternary packing and the quantizers.
 *
 * There is ONE packed ternary format in tritonc; the C library, the
 * generated PyTorch code (pack_ternary/unpack_ternary) and the Triton
 * kernels all read and write exactly this layout:
 *
 *   code:   -1 -> 0b00     0 -> 0b01     +1 -> 0b10     0b11 is invalid
 *
 *   values  v0  v1  v2  v3 | v4  v5  v6  v7 | ... | v(n-1) pad pad pad
 *           \____ byte 0 __/ \____ byte 1 __/       \__ last byte __/
 *
 *   one byte:  bit  7 6   5 4   3 2   1 0
 *                  [v0 ] [v1 ] [v2 ] [v3 ]     first value in the HIGH bits
 *
 *   e.g. [-1, 0, 1, 0] -> 00 01 10 01 = 0x19
 *        [1]           -> 10 01 01 01 = 0x95   (padded with 01, i.e. zero)
 *
 * n values take tern_packed_size(n) = ceil(n / 4) bytes; the padding codes
 * are zeros, so a padded tail never changes a dot product.
 */
#ifndef TC_TERNARY_H
#define TC_TERNARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TERN_CODE_NEG = 0x0, TERN_CODE_ZERO = 0x1, TERN_CODE_POS = 0x2, TERN_CODE_BAD = 0x3 };
#define TERN_ZERO_BYTE 0x55 /* four zeros: 01 01 01 01 */
#define TERN_DEFAULT_THRESHOLD 0.3f

size_t tern_packed_size(size_t n);
/* vals[i] must be -1, 0 or +1 (other values are treated by sign: <0 -> -1,
 * >0 -> +1, so the output is always a valid stream). */
void tern_pack(const int8_t *vals, size_t n, uint8_t *out);
/* Decodes n values; false (and out unspecified past the error) when a code
 * among the first n is the invalid 0b11. Padding codes are not inspected. */
bool tern_unpack(const uint8_t *in, size_t n, int8_t *out);

/* Ternary quantization (the TWN rule):
 *   threshold = threshold_ratio * max_i |x_i|
 *   out_i     = sign(x_i) if |x_i| > threshold, else 0
 *   scale     = mean of |x_i| over the kept (non-zero) entries; 0 if none kept
 * so x ~ scale * out. A ratio that is negative or NaN means the default 0.3;
 * ratios above 1 are clamped to 1 (which keeps nothing). NaN inputs become 0.
 * scale_out may be NULL. */
void tern_quantize(const float *x, size_t n, float threshold_ratio, int8_t *out, float *scale_out);

/* Affine (asymmetric) int8: the range [min, max] is first widened to hold 0
 * (so 0.0 is exact), then
 *   scale = (max - min) / 255,  zero_point = round(-128 - min / scale)
 *   q     = clamp(round(x / scale) + zero_point, -128, 127)
 *   x    ~ (q - zero_point) * scale
 * A degenerate range (all zeros) gives scale 1, zero_point 0. */
void tern_quantize_int8(const float *x, size_t n, int8_t *out, float *scale, int32_t *zero_point);
void tern_dequantize_int8(const int8_t *q, size_t n, float scale, int32_t zero_point, float *out);

/* Affine unsigned int4, one value 0..15 per byte of out:
 *   scale = (max - min) / 15,  zero_point = round(-min / scale) in [0, 15]
 *   q     = clamp(round(x / scale) + zero_point, 0, 15)
 * with the same widening to include 0 and the same degenerate rule. */
void tern_quantize_int4(const float *x, size_t n, uint8_t *out, float *scale, int32_t *zero_point);
void tern_dequantize_int4(const uint8_t *q, size_t n, float scale, int32_t zero_point, float *out);

/* Per-channel affine int8 along `axis` of a row-major tensor of the given
 * shape: channel c (0 <= c < shape[axis]) gets its own scale[c] and
 * zero_point[c], computed as tern_quantize_int8 does over that channel's
 * elements. False when axis is out of range (negative axes count from the
 * end, as in Python) or rank < 1. */
bool tern_quantize_per_channel(const float *x, const size_t *shape, int rank, int axis,
                               int8_t *out, float *scale, int32_t *zero_point);

#endif
