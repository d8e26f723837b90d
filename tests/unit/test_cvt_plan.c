/*
 * test_cvt_plan.c - the swizzled shared memory of layout conversions
 * (src/target/ptx/cvt_plan.c) on a model of the banks, for every thread,
 * without a GPU.
 *
 * For pairs of blocked layouts (Triton's builder over sizes per thread,
 * orders and warps, and mma.sync's accumulator) of 2-D and 3-D tiles and
 * elements of 1, 2, 4 and 8 bytes: each thread's elements, from
 * dist_thread_part and dist_const, go to offset(n) (n their row-major
 * index) as ptx_shared.c computes it: the thread part's offset (bits of
 * the plan's tmask only) XOR each vector head's (bits inside the vector
 * a fixed order of its elements). Checked: every element has its own
 * place in [0, numel) (a permutation); a vector's elements are
 * consecutive and aligned on both sides; and the wavefronts of each
 * warp-wide access (32 banks of 4-byte words; phases of 32 lanes for
 * accesses of up to 4 bytes, 16 for 8, 8 for 16; a phase takes as many
 * wavefronts as the most distinct words one bank holds) are what the
 * plan's algebra says, and no more than the padded rows give (each row
 * of the last dimension padded by the wider side's vector, as
 * TRITONC_CVT_SWIZZLE=0 has them). `test_cvt_plan --table` prints the
 * totals of both.
 */
#include "dialect/ttg.h"
#include "target/ptx/cvt_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, pairs;
static long conflicts[2][2], waves[2][2]; /* [padded, swizzled][stores, loads] */
static long smem[2];

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            if (failures++ < 20) {                                                            \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
                fprintf(stderr, __VA_ARGS__);                                                 \
                fputc('\n', stderr);                                                          \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* ptx_shared.c's relayout_vec for an element of es bytes that travels as
 * 16- or 32-bit words (fp16, bf16, fp32, i32): the run along the last
 * dimension, up to 16 bytes; 1 for others (es 1 and 8 here). */
static int vec_of(const Dist *d, int es) {
    int last = d->rank - 1;
    if ((es != 2 && es != 4) || d->order[0] != last) return 1;
    int run = d->spt[last] < d->shape[last] ? d->spt[last] : (int)d->shape[last];
    return run < 16 / es ? run : 16 / es;
}

static int64_t coord_n(const Dist *d, const int64_t *st, int slot, int lane, int warp) {
    int j[TTG_MAX_RANK];
    dist_slot_j(d, slot, j);
    int64_t n = 0;
    for (int k = 0; k < d->rank; k++) n += (dist_thread_part(d, k, lane, warp) + dist_const(d, k, j[k])) * st[k];
    return n;
}

/* Wavefronts of the access of warp w's lanes at byte addresses addr[32],
 * width bytes each (the simulator's rule). */
static int access_waves(const int64_t *addr, int width) {
    int per = width <= 4 ? 32 : width == 8 ? 16 : 8, words = width < 4 ? 1 : width / 4, total = 0;
    for (int ph = 0; ph < 32; ph += per) {
        int64_t seen[32][64];
        int nseen[32] = {0}, most = 0;
        for (int l = ph; l < ph + per; l++)
            for (int k = 0; k < words; k++) {
                int64_t wd = addr[l] / 4 + k;
                int b = (int)(wd % 32), dup = 0;
                for (int x = 0; x < nseen[b]; x++) dup |= seen[b][x] == wd;
                if (!dup) seen[b][nseen[b]++] = wd;
                if (nseen[b] > most) most = nseen[b];
            }
        total += most;
    }
    return total;
}

/* One side's warp-0 accesses: the sum of their wavefronts, and (with
 * `plan`) the most of any one access and the checks on the places. */
static long side_waves(const Dist *d, const int64_t *st, int es, int vec, const CvtPlan *z, int k,
                       const int64_t *pstr, int *most, const char *what) {
    long total = 0;
    *most = 0;
    int fast = d->per_dim[d->order[0]];
    for (int i = 0; i < d->nslots; i++) {
        if (i % fast % vec) continue;
        int64_t addr[32];
        for (int l = 0; l < 32; l++) {
            if (z) {
                int64_t nt = coord_n(d, st, 0, l, 0) - coord_n(d, st, 0, 0, 0);
                int64_t ns = coord_n(d, st, i, 0, 0);
                int64_t head = cvt_offset(z, nt ^ ns);
                /* the emitter's parts: thread bits within tmask, outside the vector */
                CHECK((cvt_offset(z, nt) & ~z->tmask[k]) == 0 && (cvt_offset(z, nt) & (vec - 1)) == 0,
                      "%s: thread part's offset %lld outside tmask %lld", what, (long long)cvt_offset(z, nt),
                      (long long)z->tmask[k]);
                int xv = (int)(cvt_offset(z, ns) & (vec - 1));
                for (int e = 0; e < vec; e++)
                    CHECK(cvt_offset(z, coord_n(d, st, i + e, l, 0)) == (head & ~(int64_t)(vec - 1)) + (e ^ xv),
                          "%s: slot %d element %d not in its vector's place", what, i, e);
                addr[l] = (head & ~(int64_t)(vec - 1)) * es;
            } else {
                addr[l] = coord_n(d, pstr, i, l, 0) * es;
            }
        }
        int w = access_waves(addr, vec * es);
        total += w;
        if (w > *most) *most = w;
    }
    return total;
}

static void check_pair(const Dist *a, const Dist *b, int es, const char *what) {
    int rank = a->rank, last = rank - 1;
    int64_t st[TTG_MAX_RANK], pst[TTG_MAX_RANK], numel = 1;
    for (int k = last; k >= 0; k--) {
        st[k] = numel;
        numel *= a->shape[k];
    }
    int va = vec_of(a, es), vb = vec_of(b, es), pad = va > vb ? va : vb;
    int64_t s = 1;
    for (int k = last; k >= 0; k--) {
        pst[k] = s;
        s *= a->shape[k] + (k == last ? pad : 0);
    }
    CvtSide src = {a, st, va}, dst = {b, st, vb};
    CvtPlan z;
    if (!cvt_plan(&z, &src, &dst, es, numel)) {
        CHECK(0, "%s: no plan", what);
        return;
    }
    pairs++;
    /* a permutation of [0, numel) */
    unsigned char *seen = calloc((size_t)numel, 1);
    for (int64_t n = 0; n < numel; n++) {
        int64_t o = cvt_offset(&z, n);
        CHECK(o >= 0 && o < numel && !seen[o], "%s: offset %lld of %lld taken twice or out of range", what,
              (long long)o, (long long)n);
        if (o >= 0 && o < numel) seen[o] = 1;
    }
    free(seen);
    const Dist *side[2] = {a, b};
    int vec[2] = {va, vb};
    for (int k = 0; k < 2; k++) {
        int most;
        long pw = side_waves(side[k], st, es, vec[k], NULL, k, pst, &most, what);
        long sw = side_waves(side[k], st, es, vec[k], &z, k, NULL, &most, what);
        int per = vec[k] * es <= 4 ? 1 : vec[k] * es / 4; /* phases an access */
        long accesses = 0;
        for (int i = 0, fast = side[k]->per_dim[side[k]->order[0]]; i < side[k]->nslots; i++) accesses += i % fast % vec[k] == 0;
        CHECK(most == z.waves[k], "%s side %d: the plan says %d wavefronts an access, the model %d", what, k, z.waves[k],
              most);
        CHECK(sw <= pw, "%s side %d: swizzled %ld wavefronts, padded %ld", what, k, sw, pw);
        waves[0][k] += pw;
        waves[1][k] += sw;
        conflicts[0][k] += pw - accesses * per;
        conflicts[1][k] += sw - accesses * per;
    }
    smem[0] += s * es;
    smem[1] += numel * es;
}

/* Layouts of a 2-D or 3-D shape: Triton's blocked builder over sizes per
 * thread along the fastest dimension and both orders (2-D), and mma.sync's
 * accumulator for 2-D. */
static int layouts(const int64_t *shape, int rank, int warps, Layout *out) {
    int n = 0;
    for (int o = 0; o < 2; o++)
        for (int v = 1; v <= 8; v *= 2) {
            int spt[TTG_MAX_RANK], order[TTG_MAX_RANK];
            for (int k = 0; k < rank; k++) {
                spt[k] = 1;
                order[k] = o == 0 ? rank - 1 - k : k;
            }
            spt[order[0]] = v;
            out[n++] = ttg_blocked(shape, rank, spt, order, warps, 32);
        }
    if (rank == 2)
        for (int wm = 1; wm <= warps; wm *= 2) out[n++] = ttg_mma_layout(wm, warps / wm);
    return n;
}

static void test_all(void) {
    static const int64_t shapes[][3] = {{16, 16}, {32, 32}, {64, 64}, {128, 64}, {32, 128}, {16, 256}, {64, 16},
                                        {8, 1024}, {4, 16, 16}, {2, 32, 64}, {8, 8, 32}};
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        int rank = shapes[si][2] ? 3 : 2;
        for (int warps = 4; warps <= 8; warps *= 2) {
            Layout ls[16];
            int nl = layouts(shapes[si], rank, warps, ls);
            Dist ds[16];
            for (int i = 0; i < nl; i++) ttg_dist(&ls[i], shapes[si], rank, &ds[i]);
            for (int es = 1; es <= 8; es *= 2)
                for (int i = 0; i < nl; i++)
                    for (int j = 0; j < nl; j++) {
                        if (i == j || dist_same_threads(&ds[i], &ds[j])) continue;
                        char what[96];
                        snprintf(what, sizeof what, "shape %lldx%lld%s%s warps %d es %d layouts %d -> %d",
                                 (long long)shapes[si][0], (long long)shapes[si][1], rank == 3 ? "x" : "",
                                 rank == 3 ? "..." : "", warps, es, i, j);
                        check_pair(&ds[i], &ds[j], es, what);
                    }
        }
    }
}

/* The implicit-GEMM convolution's epilogue (cvt_plan.h's example): the
 * fp16 mma accumulator of 8 warps (2 x 4) into [1, 4] x [4, 8] x [8, 1]:
 * one wavefront a phase on both sides, swz(n) = (n >> 3) & 0x18. */
static void test_conv_epilogue(void) {
    int64_t shape[2] = {32, 32}, st[2] = {32, 1};
    Layout mma = ttg_mma_layout(2, 4);
    int spt[2] = {1, 4}, order[2] = {1, 0};
    Layout blk = ttg_blocked(shape, 2, spt, order, 8, 32);
    Dist a, b;
    ttg_dist(&mma, shape, 2, &a);
    ttg_dist(&blk, shape, 2, &b);
    CvtSide src = {&a, st, 2}, dst = {&b, st, 4};
    CvtPlan z;
    CHECK(cvt_plan(&z, &src, &dst, 2, 1024), "conv epilogue: no plan");
    CHECK(z.waves[0] == 1 && z.waves[1] == 2, "conv epilogue: %d and %d wavefronts an access", z.waves[0], z.waves[1]);
    CHECK(z.nterms == 1 && z.shift[0] == 3 && z.mask[0] == 0x18, "conv epilogue: %d terms, shift %d mask %lld",
          z.nterms, z.shift[0], (long long)z.mask[0]);
}

int main(int argc, char **argv) {
    test_conv_epilogue();
    test_all();
    if (argc > 1 && strcmp(argv[1], "--table") == 0)
        printf("%d pairs: padded rows %ld + %ld conflicts (stores + loads) in %ld + %ld wavefronts, %ld bytes; "
               "swizzled %ld + %ld in %ld + %ld, %ld bytes\n",
               pairs, conflicts[0][0], conflicts[0][1], waves[0][0], waves[0][1], smem[0], conflicts[1][0],
               conflicts[1][1], waves[1][0], waves[1][1], smem[1]);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("test_cvt_plan: %d conversions modelled, ok\n", pairs);
    return 0;
}
