/*
 * test_dist_same_threads.c - dist_same_threads (src/dialect/ttg.c) against
 * its definition, dist_j_of_const against dist_const, and what
 * dist_thread_parts_linear promises.
 *
 * dist_same_threads checks only the basis threads 1, 2, 4, ... when every
 * count of both Dists is a power of two (the thread parts are then linear
 * over GF(2) in the thread id). Here every pair of a few hundred blocked
 * layouts and their slices, over power-of-two shapes and a few others, is
 * compared with the plain definition: the same constants as sets, and the
 * same thread part for every thread of the CTA.
 */
#include "dialect/ttg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, cases;

/* What dist_thread_parts_linear promises of d (swz_of in ptx_mma.c sums
 * the basis threads' weights on it): every thread's part along each
 * dimension is the bits of the basis threads' parts for its own bits, and
 * those of distinct bits are distinct. */
static bool parts_from_basis(const Dist *d) {
    for (int dim = 0; dim < d->rank; dim++) {
        int64_t seen = 0;
        for (int t = 1; t < d->nthreads; t *= 2) {
            int64_t b = dist_thread_part(d, dim, t % 32, t / 32);
            if (b & seen) return false;
            seen |= b;
        }
        for (int t = 0; t < d->nthreads; t++) {
            int64_t sum = 0;
            for (int b = 1; b < d->nthreads; b *= 2)
                if (t & b) sum |= dist_thread_part(d, dim, b % 32, b / 32);
            if (dist_thread_part(d, dim, t % 32, t / 32) != sum) return false;
        }
    }
    return true;
}

static bool reference_same(const Dist *a, const Dist *b) {
    if (a->rank != b->rank || a->nslots != b->nslots || a->nthreads != b->nthreads) return false;
    for (int d = 0; d < a->rank; d++) {
        if (a->shape[d] != b->shape[d] || a->per_dim[d] != b->per_dim[d]) return false;
        for (int j = 0; j < a->per_dim[d]; j++) {
            bool found = false;
            for (int k = 0; k < b->per_dim[d] && !found; k++) found = dist_const(a, d, j) == dist_const(b, d, k);
            if (!found) return false;
        }
    }
    for (int t = 0; t < a->nthreads; t++)
        for (int d = 0; d < a->rank; d++)
            if (dist_thread_part(a, d, t % 32, t / 32) != dist_thread_part(b, d, t % 32, t / 32)) return false;
    return true;
}

enum { MAXD = 2048 };
static Dist dists[MAXD];
static int ndists;

static void add(const Layout *l, const int64_t *shape, int rank) {
    Dist d;
    if (ndists < MAXD && ttg_dist(l, shape, rank, &d)) dists[ndists++] = d;
}

int main(void) {
    static const int tpws[][2] = {{1, 32}, {2, 16}, {4, 8}, {8, 4}, {16, 2}, {32, 1}};
    static const int wpcs[][2] = {{1, 4}, {2, 2}, {4, 1}};
    static const int spts[][2] = {{1, 1}, {1, 2}, {2, 1}, {1, 4}, {4, 1}, {2, 2}, {1, 8}};
    static const int64_t shapes[][2] = {{16, 16}, {32, 64}, {64, 32}, {128, 8}, {8, 128}, {2, 4}, {24, 16}, {16, 48}};
    static const int orders[][2] = {{1, 0}, {0, 1}};
    Layout parents[512];
    int np = 0;
    for (size_t a = 0; a < sizeof tpws / sizeof *tpws; a++)
        for (size_t b = 0; b < sizeof wpcs / sizeof *wpcs; b++)
            for (size_t c = 0; c < sizeof spts / sizeof *spts; c++)
                for (size_t o = 0; o < 2; o++)
                    parents[np++] = (Layout){.kind = LAYOUT_BLOCKED,
                                             .rank = 2,
                                             .spt = {spts[c][0], spts[c][1]},
                                             .tpw = {tpws[a][0], tpws[a][1]},
                                             .wpc = {wpcs[b][0], wpcs[b][1]},
                                             .order = {orders[o][0], orders[o][1]}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        int first = ndists;
        for (int k = 0; k < np; k++) add(&parents[k], shapes[s], 2);
        for (int i = first; i < ndists; i++) {
            cases++;
            if (dist_thread_parts_linear(&dists[i]) && !parts_from_basis(&dists[i]) && failures++ < 20)
                fprintf(stderr, "shape %lldx%lld: Dist %d is linear but its parts are not its basis threads'\n",
                        (long long)shapes[s][0], (long long)shapes[s][1], i);
        }
        /* every pair of one shape (others differ at once) */
        for (int i = first; i < ndists; i++)
            for (int j = first; j < ndists; j++) {
                cases++;
                if (dist_same_threads(&dists[i], &dists[j]) != reference_same(&dists[i], &dists[j]) &&
                    failures++ < 20)
                    fprintf(stderr, "shape %lldx%lld: Dists %d and %d disagree\n", (long long)shapes[s][0],
                            (long long)shapes[s][1], i, j);
            }
        /* the slices of one dimension (a slice layout's Dist) */
        for (int dim = 0; dim < 2; dim++) {
            int64_t shape1[1] = {shapes[s][1 - dim]};
            int sfirst = ndists;
            for (int k = 0; k < np; k++) {
                Layout sl = {.kind = LAYOUT_SLICE, .rank = 1, .dim = dim, .parent = &parents[k]};
                add(&sl, shape1, 1);
            }
            for (int i = sfirst; i < ndists; i++)
                for (int j = sfirst; j < ndists; j++) {
                    cases++;
                    if (dist_same_threads(&dists[i], &dists[j]) != reference_same(&dists[i], &dists[j]) &&
                        failures++ < 20)
                        fprintf(stderr, "slice %d of shape %lldx%lld: Dists %d and %d disagree\n", dim,
                                (long long)shapes[s][0], (long long)shapes[s][1], i, j);
                }
            ndists = sfirst;
        }
        ndists = first;
    }
    /* dist_j_of_const inverts dist_const, and finds nothing elsewhere */
    for (int k = 0; k < np; k++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            Dist d;
            if (!ttg_dist(&parents[k], shapes[s], 2, &d)) continue;
            for (int dim = 0; dim < 2; dim++) {
                int hits = 0;
                for (int64_t c = 0; c < d.shape[dim]; c++) {
                    int j = dist_j_of_const(&d, dim, c);
                    cases++;
                    if (j >= 0) hits++;
                    if (j >= 0 && dist_const(&d, dim, j) != c && failures++ < 20)
                        fprintf(stderr, "dist_j_of_const(%lld) = %d, whose constant differs\n", (long long)c, j);
                }
                if (hits != d.per_dim[dim] && failures++ < 20)
                    fprintf(stderr, "dist_j_of_const found %d of %d constants\n", hits, d.per_dim[dim]);
            }
        }
    printf("%d cases, %d failures\n", cases, failures);
    return failures ? 1 : 0;
}
