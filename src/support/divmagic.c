/*
 * divmagic.c - the multipliers of divmagic.h.
 */
#include "support/divmagic.h"

static int ceil_log2(uint64_t d) {
    int l = 0;
    while (l < 64 && ((uint64_t)1 << l) < d) l++;
    return l; /* 64 for d > 2^63 */
}

bool divmagic_u64(uint64_t d, DivMagic *out) {
    if (d < 2) return false;
    int l = ceil_log2(d);
    unsigned __int128 two_l = (unsigned __int128)1 << l;
    out->m = (uint64_t)(((two_l - d) << 64) / d + 1);
    out->l = l;
    return true;
}

bool divmagic_s64(int64_t d, DivMagic *out) {
    if (d == 0 || d == 1 || d == -1 || d == INT64_MIN) return false;
    uint64_t ad = d < 0 ? (uint64_t)(-d) : (uint64_t)d;
    int l = ceil_log2(ad);
    unsigned __int128 m = ((unsigned __int128)1 << (63 + l)) / ad + 1;
    out->m = (uint64_t)(m - ((unsigned __int128)1 << 64)); /* wraps to the negative int64 */
    out->l = l;
    return true;
}
