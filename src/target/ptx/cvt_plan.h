/*
 * cvt_plan.h - where a layout conversion through shared memory puts each
 * element, so that neither the threads' stores (the source layout's) nor
 * their loads (the destination's) conflict in the banks. Pure arithmetic
 * on Dists, no PTX: ptx_shared.c emits what the plan says, and
 * tests/unit/test_cvt_plan.c counts the banks each warp's accesses touch.
 *
 * An element's place is its row-major index n (both sides count the same
 * n: a conversion's and a reshape's tiles are row-major in the same
 * order). With every count of both Dists a power of two, n is the XOR of
 * one bit per bit of the register (slot), lane and warp numbers (a Dist's
 * coordinates are bit fields of them: dist_thread_parts_linear), so which
 * bits of n a warp's lanes vary says which banks they reach. Shared memory
 * holds element n at
 *
 *     offset(n) = n ^ swz(n),   swz(n) = XOR of (n >> shift[k]) & mask[k]
 *
 * swz moves bits of n that lie above a 128-byte line (byte bits 7 and up,
 * "high") into the bank bits below it (bytes 4 * 32 = 128), so it is
 * invertible (the high bits stay) and needs no padding. Banks are 4-byte
 * words: a warp's access is served in phases (all 32 lanes for accesses of
 * up to 4 bytes, 16 for 8 bytes, 8 for 16), a phase at one wavefront when
 * no two of its lanes reach different words of one bank. With an offset
 * linear in n, that holds when the phase's lanes' bits of n, mapped to the
 * bank bits (byte bits log2(width)..6: each lane's own vector covers the
 * bits below), are independent: a lane bit of n already among the bank
 * bits counts as itself, a high one as its swz image. The plan picks, for
 * each high bit of n that is a lane bit in a phase of either side, an
 * image among the word bits of the line, its bank bits independent of what that side's phase already
 * reaches (bits lanes of both sides share first; Gaussian elimination over
 * GF(2) on at most five bits). An image stays out of the vector of a side
 * whose thread bit (lane or warp) it is the image of, so both sides keep
 * their vectors: the image of a side's slot bit inside its vector only
 * puts that slot's elements in another fixed order. Where the vectors
 * leave a phase fewer bank bits than it has lanes (a side's lanes walk
 * down a column of the other's 16-byte vectors), it keeps the fewest
 * wavefronts the rest allow.
 *
 * E.g. the fp16 32x32 tile of an 8-warp implicit-GEMM convolution, the mma
 * accumulator (rows g + 8*w_m + 16*r, column pairs 2t + 8*w_n) into
 * sizePerThread [1, 4], threadsPerWarp [4, 8], warpsPerCTA [8, 1]:
 * n = 32 row + col, element bit k at byte bit k + 1. The stores (one
 * 32-bit pair a lane, 32-lane phase) reach n bits 1, 2 (t) and 5, 6, 7 (g):
 * 6 and 7 are high, their images bits 3 and 4; the loads (8 bytes, 16-lane
 * phases) reach bits 2..5, all bank bits. swz(n) = (n >> 3) & 0x18: both
 * sides at one wavefront a phase (padded rows of 72 bytes had two on
 * either side), 2 KiB instead of 2.25.
 *
 * A Dist with a count that is not a power of two, or TRITONC_CVT_SWIZZLE=0,
 * takes padded rows instead (ptx_shared.c: each row of the last dimension
 * padded by the wider side's vector).
 */
#ifndef TC_CVT_PLAN_H
#define TC_CVT_PLAN_H

#include "dialect/ttg.h"

#include <stdbool.h>
#include <stdint.h>

#define CVT_MAX_TERMS 16

/* One side of a conversion: its Dist, the strides that give each
 * coordinate's row-major index n, its vector (elements a thread moves at
 * once, consecutive in n). */
typedef struct CvtSide {
    const Dist *d;
    const int64_t *strides;
    int vec;
} CvtSide;

typedef struct CvtPlan {
    int nterms;
    int shift[CVT_MAX_TERMS];
    int64_t mask[CVT_MAX_TERMS];
    /* per side: the bits of n its thread part (lanes and warps) may set,
     * and of offset(thread part) (after the swizzle) */
    int64_t tbits[2], tmask[2];
    /* per side: the wavefronts of one warp's access, a phase at a time, as
     * the plan's algebra counts them (1: none conflict) */
    int waves[2];
} CvtPlan;

/* Whether TRITONC_CVT_SWIZZLE allows swizzled conversions (not "0"). */
bool cvt_swizzle_on(void);
/* The plan for src -> dst with elements of es bytes (1, 2, 4 or 8) and
 * numel elements; false (pl untouched) when a Dist is not linear in the
 * thread id and slot bits, or numel is not a power of two. */
bool cvt_plan(CvtPlan *pl, const CvtSide *src, const CvtSide *dst, int es, int64_t numel);

static inline int64_t cvt_swz(const CvtPlan *pl, int64_t n) {
    int64_t s = 0;
    for (int k = 0; k < pl->nterms; k++) s ^= (n >> pl->shift[k]) & pl->mask[k];
    return s;
}
static inline int64_t cvt_offset(const CvtPlan *pl, int64_t n) { return n ^ cvt_swz(pl, n); }

#endif
