/*
 * cvt_plan.c - a layout conversion's swizzled shared-memory layout (see
 * cvt_plan.h for the model): each side's phase lanes, as bits of the
 * row-major index n, sorted into copies and bytes of one word (no
 * conflict), bank bits and high bits; then, for each high lane bit (those
 * of both sides first), an image among the words of a 128-byte line,
 * chosen greedily: independent of what the phases it is a lane of already
 * reach, outside the vector of either side it is a thread bit of, and
 * where possible off the bits that would make a slot's offset need an XOR
 * of the thread part (ptx_shared.c then adds a constant instead).
 */
#include "target/ptx/cvt_plan.h"

#include <stdlib.h>
#include <string.h>

bool cvt_swizzle_on(void) {
    const char *e = getenv("TRITONC_CVT_SWIZZLE");
    return !(e && strcmp(e, "0") == 0);
}

static bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int log2i(int64_t v) {
    int k = 0;
    while (((int64_t)1 << k) < v) k++;
    return k;
}

static int ctz64(int64_t v) {
    int k = 0;
    while (!((v >> k) & 1)) k++;
    return k;
}

static int popcount64(int64_t v) {
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

/* n of thread (lane, warp)'s thread part. */
static int64_t thread_n(const CvtSide *s, int lane, int warp) {
    int64_t n = 0;
    for (int dim = 0; dim < s->d->rank; dim++) n += dist_thread_part(s->d, dim, lane, warp) * s->strides[dim];
    return n;
}

/* n of slot i's constant part. */
static int64_t slot_n(const CvtSide *s, int i) {
    int j[TTG_MAX_RANK];
    dist_slot_j(s->d, i, j);
    int64_t n = 0;
    for (int dim = 0; dim < s->d->rank; dim++) n += dist_const(s->d, dim, j[dim]) * s->strides[dim];
    return n;
}

/* Every column (the n of one bit of the slot, lane or warp number) a single
 * bit of n or none, and the columns' sum the XOR of theirs: the offset is
 * then linear over GF(2) in those bits. */
static bool side_linear(const CvtSide *s, int64_t numel) {
    const Dist *d = s->d;
    if (!dist_thread_parts_linear(d) || !pow2(d->nslots) || !pow2(s->vec)) return false;
    for (int dim = 0; dim < d->rank; dim++)
        if (!pow2(d->per_dim[dim]) || !pow2(s->strides[dim]) || s->strides[dim] * d->shape[dim] > numel) return false;
    int64_t seen = 0;
    for (int b = 1; b < d->nslots; b *= 2) {
        int64_t c = slot_n(s, b);
        if (c && (!pow2(c) || (seen & c))) return false;
        seen |= c;
    }
    for (int b = 1; b < d->nthreads; b *= 2) {
        int64_t c = thread_n(s, b % 32, b / 32);
        if (c && !pow2(c)) return false;
        if (seen & c) return false; /* (a thread bit on a slot's: not a Dist's) */
    }
    /* the vector: slots 0..vec-1 are n 0..vec-1 */
    for (int b = 1; b < s->vec; b *= 2)
        if (slot_n(s, b) != b) return false;
    return true;
}

/* A basis of a space of bit vectors over GF(2), each with a leading bit
 * none of the others has. */
typedef struct Span {
    int n;
    int64_t v[64];
} Span;

static int64_t lead(int64_t v) { return (int64_t)((uint64_t)1 << (63 - __builtin_clzll((uint64_t)v))); }

/* x less the basis vectors whose leading bit it has (the basis is reduced:
 * no vector has another's leading bit): zero when x is in the span. */
static int64_t span_reduce(const Span *s, int64_t x) {
    for (int k = 0; k < s->n; k++)
        if (x & lead(s->v[k])) x ^= s->v[k];
    return x;
}

/* Adds x; false when it was in the span already. */
static bool span_add(Span *s, int64_t x) {
    x = span_reduce(s, x);
    if (!x) return false;
    for (int k = 0; k < s->n; k++)
        if (s->v[k] & lead(x)) s->v[k] ^= x;
    s->v[s->n++] = x;
    return true;
}

/* Element bits [lo, hi) as a mask (none when hi <= lo). */
static int64_t bit_range(int lo, int hi) {
    if (lo < 0) lo = 0;
    return hi > lo ? ((int64_t)1 << hi) - ((int64_t)1 << lo) : 0;
}

/* A side's banks, as cvt_plan.h sorts its phase's lanes (copies and bytes
 * of one word left out): its bank bits (element bits of byte bits
 * log2(width)..6), the span of its phase's bits among them (the lanes at
 * bank bits, then the images of its high lanes as they are chosen), its
 * high lane bits, its thread bits (lanes and warps) and its vector's. */
typedef struct Side {
    int64_t bank, h, thread, vec;
    Span span;
} Side;

static void side_sort(const CvtSide *s, int es, int64_t numel, Side *sd) {
    memset(sd, 0, sizeof *sd);
    int lg_es = log2i(es), lgw = log2i(s->vec * es);
    int pbits = lgw <= 2 ? 5 : 7 - lgw;
    sd->bank = bit_range((lgw > 2 ? lgw : 2) - lg_es, 7 - lg_es) & (numel - 1);
    sd->vec = s->vec - 1;
    for (int b = 1; b < s->d->nthreads; b *= 2) sd->thread |= thread_n(s, b % 32, b / 32);
    for (int b = 0; b < pbits; b++) {
        int64_t c = thread_n(s, 1 << b, 0);
        if (!c || ctz64(c) + lg_es < 2) continue; /* a copy, or bytes of one word */
        if (c & sd->bank) span_add(&sd->span, c);
        else sd->h |= c;
    }
}

/* Wavefronts of one warp's access: per phase, two to the number of its
 * lanes' bits whose offsets' bank bits depend on the others'. */
static int side_waves(const CvtSide *s, int es, const Side *sd, const CvtPlan *pl) {
    int lg_es = log2i(es), lgw = log2i(s->vec * es);
    int pbits = lgw <= 2 ? 5 : 7 - lgw;
    Span sp = {0};
    int dep = 0;
    for (int b = 0; b < pbits; b++) {
        int64_t c = thread_n(s, 1 << b, 0);
        if (!c || ctz64(c) + lg_es < 2) continue;
        if (!span_add(&sp, cvt_offset(pl, c) & sd->bank)) dep++;
    }
    return (1 << dep) << (5 - pbits);
}

bool cvt_plan(CvtPlan *pl, const CvtSide *src, const CvtSide *dst, int es, int64_t numel) {
    if (!pow2(numel) || !pow2(es) || es > 8 || !side_linear(src, numel) || !side_linear(dst, numel)) return false;
    const CvtSide *side[2] = {src, dst};
    int lg_es = log2i(es);
    Side sd[2];
    for (int k = 0; k < 2; k++) side_sort(side[k], es, numel, &sd[k]);
    /* the bits an image may reach: the words of a 128-byte line */
    int64_t line = bit_range(2 - lg_es, 7 - lg_es) & (numel - 1);
    CvtPlan out = {0};
    int64_t img[64] = {0};
    /* per side, the bits its thread part reaches in the line, its own and
     * its high bits' images (a slot bit's image elsewhere keeps that
     * slot's offset a constant), and its slot bits' images (which its
     * thread bits' images then avoid) */
    int64_t treach[2] = {sd[0].thread & line, sd[1].thread & line}, sreach[2] = {0, 0};
    /* the high bits both sides' phases reach first, then the others */
    int64_t both = sd[0].h & sd[1].h, any = sd[0].h | sd[1].h;
    for (int pass = 0; pass < 2; pass++) {
        int64_t todo = pass == 0 ? both : any & ~both;
        for (; todo; todo &= todo - 1) {
            int p = ctz64(todo);
            /* not into a vector of a side p is a thread bit of: its lanes
             * would need the vector's elements in different orders (a
             * slot bit's image there is a fixed order of the slot's
             * elements: relayout_put) */
            int64_t allowed = line;
            for (int k = 0; k < 2; k++)
                if ((sd[k].thread >> p) & 1) allowed &= ~sd[k].vec;
            int64_t best = 0;
            int best_score = -1, best_cost = 0;
            /* the nonzero subsets of the allowed bits: the first whose
             * bank bits are independent of the phases of both sides p is
             * a lane of (else of one); among those, the fewest bits where
             * a slot's offset then needs an XOR of its thread part, then
             * the fewest bits, then the lowest */
            for (int64_t c = allowed; c; c = (c - 1) & allowed) {
                int score = 0, cost = 0;
                for (int k = 0; k < 2; k++) {
                    if (((sd[k].h >> p) & 1) && span_reduce(&sd[k].span, c & sd[k].bank)) score++;
                    cost += popcount64(c & ((sd[k].thread >> p) & 1 ? sreach[k] : treach[k]));
                }
                if (score > best_score ||
                    (score == best_score &&
                     (cost < best_cost ||
                      (cost == best_cost && (popcount64(c) < popcount64(best) ||
                                             (popcount64(c) == popcount64(best) && c < best))))))
                    best = c, best_score = score, best_cost = cost;
            }
            if (best_score <= 0) continue; /* (no image helps) */
            img[p] = best;
            for (int k = 0; k < 2; k++) {
                if ((sd[k].h >> p) & 1) span_add(&sd[k].span, best & sd[k].bank);
                if ((sd[k].thread >> p) & 1) treach[k] |= best;
                else sreach[k] |= best;
            }
        }
    }
    /* images as terms: the pairs (source bit p, target bit t), grouped by
     * p - t */
    for (int p = 0; p < 64; p++)
        for (int64_t c = img[p]; c; c &= c - 1) {
            int t = ctz64(c), k = 0;
            while (k < out.nterms && out.shift[k] != p - t) k++;
            if (k == out.nterms) {
                if (out.nterms == CVT_MAX_TERMS) return false;
                out.shift[out.nterms++] = p - t;
            }
            out.mask[k] |= (int64_t)1 << t;
        }
    for (int k = 0; k < 2; k++) {
        const Dist *d = side[k]->d;
        out.tbits[k] = sd[k].thread;
        for (int b = 1; b < d->nthreads; b *= 2) out.tmask[k] |= cvt_offset(&out, thread_n(side[k], b % 32, b / 32));
        out.waves[k] = side_waves(side[k], es, &sd[k], &out);
    }
    *pl = out;
    return true;
}
