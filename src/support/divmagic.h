/*
 * divmagic.h - division of 64-bit integers by a constant as a multiply.
 *
 * ptxas turns a 32-bit division by an immediate into a multiply, but calls
 * a generic subroutine (a float reciprocal, two corrections: ~60
 * instructions) for div.s64/div.u64 by one, where LLVM, and so Triton,
 * already multiplies. These are Granlund and Montgomery's constants
 * ("Division by Invariant Integers using Multiplication", 1994: figures 4.1
 * and 5.1), for N = 64:
 *
 *   unsigned, d >= 2, l = ceil(log2 d), m = floor(2^64 (2^l - d) / d) + 1:
 *     t = mulhi_u(m, n);  q = (t + ((n - t) >> 1)) >> (l - 1)
 *
 *   signed, |d| >= 2, d != INT64_MIN, l = ceil(log2 |d|),
 *   m = floor(2^(63+l) / |d|) + 1 - 2^64 (negative, as int64):
 *     q = ((n + mulhi_s(m, n)) >> (l - 1)) - (n >> 63);  q = d < 0 ? -q : q
 *
 * (>> is logical on unsigned and arithmetic on signed values; every sum is
 * exact in 64 bits.) q truncates toward zero, as C's and PTX's division.
 */
#ifndef TC_DIVMAGIC_H
#define TC_DIVMAGIC_H

#include <stdbool.h>
#include <stdint.h>

typedef struct DivMagic {
    uint64_t m; /* the multiplier (signed: as int64's bits) */
    int l;      /* shift: the sequence shifts by l - 1 */
} DivMagic;

/* False for divisors the formulas do not take (unsigned: 0, 1; signed: 0,
 * 1, -1, INT64_MIN): divide the usual way. */
bool divmagic_u64(uint64_t d, DivMagic *out);
bool divmagic_s64(int64_t d, DivMagic *out);

#endif
