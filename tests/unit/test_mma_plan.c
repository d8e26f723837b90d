/*
 * test_mma_plan.c - runs the tensor-core dot plan (src/target/ptx/
 * mma_plan.c) on a model of the hardware, for every thread, without a GPU,
 * for fp16/bf16 (m16n8k16) and tf32 (m16n8k8).
 *
 * For each shape, warp split and operand layout: A and B (small integers,
 * so every sum is exact) are written into a model of shared memory the way
 * ptx_mma.c stores them (element (i, j) at base + (i*stride[0] +
 * j*stride[1]) * element size, padding poisoned); every warp then runs the plan's k
 * steps: ldmatrix.x4 / .x2 (.trans) from the lane addresses the PTX computes
 * (the sum of the plan's per-bit coefficients of the thread id, plus the
 * instruction's offset), or A's fragments packed from its own slots, and
 * mma.m16n8k16 as the PTX ISA defines its fragments. Each thread's
 * accumulator slots must end up holding (A x B)[row][col] for the
 * coordinate the accumulator's Dist gives that slot, each updated once per
 * k step. Every ldmatrix address must be 16-byte aligned and every phase
 * (8 rows) of it free of bank conflicts.
 */
#include "dialect/ttg.h"
#include "target/ptx/mma_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, cases;
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            if (failures++ < 20) {                                             \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                  \
                fputc('\n', stderr);                                           \
            }                                                                  \
        }                                                                      \
    } while (0)

#define POISON 30000 /* what padding holds: any read of it spoils a sum */

static int aval(int64_t i, int64_t k) { return (int)((i * 7 + k * 3 + 1) % 7) - 3; }
static int bval(int64_t k, int64_t j) { return (int)((k * 5 + j * 11 + 2) % 9) - 4; }

/* The coordinate of slot s of thread tid (ttg.h's formula). */
static void coord(const Dist *d, int tid, int s, int64_t *c) {
    int j[TTG_MAX_RANK];
    dist_slot_j(d, s, j);
    for (int dim = 0; dim < d->rank; dim++)
        c[dim] = dist_thread_part(d, dim, tid % 32, tid / 32) + dist_const(d, dim, j[dim]);
}

/* Shared memory as elements of esize bytes (2: fp16, 4: tf32); a value is
 * an element's index into it. */
typedef struct Smem {
    int *v;
    int64_t n; /* elements */
    int es;
} Smem;

static void store_operand(Smem *sm, const MmaOperand *o, int64_t rows, int64_t cols, bool is_b) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t at = o->base / sm->es + i * o->stride[0] + j * o->stride[1];
            CHECK(at >= 0 && at < sm->n, "store out of shared memory");
            if (at >= 0 && at < sm->n) sm->v[at] = is_b ? bval(i, j) : aval(i, j);
        }
}

/* ldmatrix.x(n): lane L of the warp gives the address of row L & 7 of block
 * L >> 3, 16 bytes; lane 4g + t receives bytes 4t..4t+3 of row g of each
 * block (fp16: elements 2t, 2t+1; tf32: element t), or with .trans (16-bit
 * only) the elements [2t][g], [2t+1][g]. regs[lane][block][e]: the
 * register's elements, low first (one for tf32). */
static void ldmatrix(const Smem *sm, const MmaPlan *pl, const MmaOperand *o, bool is_b, int warp, int64_t off, int n,
                     int regs[32][4][2]) {
    int rows[4][8][8]; /* [block][row][element] */
    int per_row = 16 / sm->es, per_reg = 4 / sm->es;
    for (int lane = 0; lane < 8 * n; lane++) {
        int tid = warp * 32 + lane;
        int64_t lane_part = 0;
        for (int b = 0; b < pl->tid_bits; b++)
            if (tid >> b & 1) lane_part += o->coef[b];
        CHECK(lane_part == mma_lane_offset(pl, is_b, lane, warp), "coefficients disagree with the formula");
        int64_t addr = lane_part + off;
        CHECK(addr % 16 == 0, "ldmatrix row address %lld not 16-byte aligned", (long long)addr);
        for (int e = 0; e < per_row; e++) {
            int64_t at = addr / sm->es + e;
            rows[lane >> 3][lane & 7][e] = at >= 0 && at < sm->n ? sm->v[at] : POISON;
        }
    }
    for (int blk = 0; blk < n; blk++) {
        /* one phase reads 8 rows of 16 bytes: 8 different groups of 4 banks */
        unsigned groups = 0;
        for (int r = 0; r < 8; r++) {
            int lane = 8 * blk + r, tid = warp * 32 + lane;
            int64_t addr = off;
            for (int b = 0; b < pl->tid_bits; b++)
                if (tid >> b & 1) addr += o->coef[b];
            groups |= 1u << ((addr / 16) % 8);
        }
        CHECK(groups == 0xff, "bank conflict in an ldmatrix phase");
    }
    CHECK(!o->trans || sm->es == 2, ".trans on 32-bit elements");
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int blk = 0; blk < n; blk++)
            for (int h = 0; h < per_reg; h++)
                regs[lane][blk][h] = o->trans ? rows[blk][2 * t + h][g] : rows[blk][g][per_reg * t + h];
    }
}

/* mma.m16n8k16 (fp16) or m16n8k8 (tf32) from the fragments (PTX ISA):
 * d[lane][0..3] += A x B. */
static void mma(int es, int a[32][4][2], int b[32][2][2], long d[32][4]) {
    int A[16][16], B[16][8], K = es == 2 ? 16 : 8;
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        if (es == 4) {
            /* a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4], a3 = A[g+8][t+4];
             * b0 = B[t][g], b1 = B[t+4][g] */
            A[g][t] = a[lane][0][0];
            A[g + 8][t] = a[lane][1][0];
            A[g][t + 4] = a[lane][2][0];
            A[g + 8][t + 4] = a[lane][3][0];
            B[t][g] = b[lane][0][0];
            B[t + 4][g] = b[lane][1][0];
            continue;
        }
        for (int h = 0; h < 2; h++) {
            A[g][2 * t + h] = a[lane][0][h];
            A[g + 8][2 * t + h] = a[lane][1][h];
            A[g][2 * t + 8 + h] = a[lane][2][h];
            A[g + 8][2 * t + 8 + h] = a[lane][3][h];
            B[2 * t + h][g] = b[lane][0][h];
            B[2 * t + 8 + h][g] = b[lane][1][h];
        }
    }
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < 4; i++) {
            int row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
            long s = 0;
            for (int k = 0; k < K; k++) s += (long)A[row][k] * B[k][col];
            d[lane][i] += s;
        }
    }
}

/* One dot: result layout (wm, wn), A's and B's register layouts, elements
 * of es bytes. */
static void run(int64_t M, int64_t N, int64_t K, int wm, int wn, const Layout *la, const Layout *lb, int es) {
    int nw = wm * wn, nthreads = 32 * nw;
    int64_t sc[2] = {M, N}, sa[2] = {M, K}, sb[2] = {K, N};
    Layout lc = ttg_mma_layout(wm, wn);
    Dist dc, da, db;
    if (!ttg_dist(&lc, sc, 2, &dc) || !ttg_dist(la, sa, 2, &da) || !ttg_dist(lb, sb, 2, &db)) {
        CHECK(0, "no Dist");
        return;
    }
    MmaPlan pl;
    if (!mma_plan(&dc, &da, &db, es, 80, false, &pl)) {
        CHECK(0, "no plan for %lldx%lldx%lld warps %dx%d", (long long)M, (long long)N, (long long)K, wm, wn);
        return;
    }
    cases++;
    Smem sm = {.n = pl.smem_bytes / es, .es = es};
    sm.v = malloc(sizeof(int) * (size_t)(sm.n + 1));
    for (int64_t i = 0; i < sm.n; i++) sm.v[i] = POISON;
    if (!pl.a.in_regs) store_operand(&sm, &pl.a, M, K, false);
    store_operand(&sm, &pl.b, K, N, true);
    long (*acc)[4096] = calloc((size_t)nthreads, sizeof *acc);
    int (*updates)[4096] = calloc((size_t)nthreads, sizeof *updates);
    CHECK(dc.nslots <= 4096, "too many slots");
    for (int warp = 0; warp < nw; warp++)
        for (int ks = 0; ks < pl.ksteps; ks++)
            for (int m = 0; m < pl.mblocks; m++) {
                int af[32][4][2];
                if (!pl.a.in_regs) {
                    ldmatrix(&sm, &pl, &pl.a, false, warp, mma_a_offset(&pl, m, ks), 4, af);
                } else {
                    for (int lane = 0; lane < 32; lane++)
                        for (int i = 0; i < 4; i++) {
                            int lo, hi;
                            int64_t c[2];
                            mma_a_reg_slots(&pl, &da, m, ks, i, &lo, &hi);
                            coord(&da, warp * 32 + lane, lo, c);
                            af[lane][i][0] = aval(c[0], c[1]);
                            coord(&da, warp * 32 + lane, hi, c);
                            af[lane][i][1] = aval(c[0], c[1]);
                        }
                }
                for (int n = 0; n < pl.nblocks; n += 2) {
                    int bf[32][4][2];
                    int cnt = n + 1 < pl.nblocks ? 4 : 2;
                    ldmatrix(&sm, &pl, &pl.b, true, warp, mma_b_offset(&pl, n, ks), cnt, bf);
                    for (int q = 0; q < cnt / 2; q++) {
                        int b2[32][2][2];
                        long d[32][4] = {{0}};
                        for (int lane = 0; lane < 32; lane++) memcpy(b2[lane], bf[lane][2 * q], sizeof b2[lane]);
                        mma(es, af, b2, d);
                        for (int lane = 0; lane < 32; lane++)
                            for (int i = 0; i < 4; i++) {
                                int s = mma_acc_slot(&pl, m, n + q, i);
                                acc[warp * 32 + lane][s] += d[lane][i];
                                updates[warp * 32 + lane][s]++;
                            }
                    }
                }
            }
    for (int tid = 0; tid < nthreads; tid++)
        for (int s = 0; s < dc.nslots; s++) {
            int64_t c[2];
            coord(&dc, tid, s, c);
            long want = 0;
            for (int64_t k = 0; k < K; k++) want += (long)aval(c[0], k) * bval(k, c[1]);
            CHECK(updates[tid][s] == pl.ksteps, "slot %d of thread %d updated %d times", s, tid, updates[tid][s]);
            CHECK(acc[tid][s] == want,
                  "%s %lldx%lldx%lld warps %dx%d%s%s%s: thread %d slot %d (%lld, %lld): %ld, want %ld",
                  es == 4 ? "tf32" : "f16", (long long)M, (long long)N, (long long)K, wm, wn,
                  pl.a.in_regs ? " A-regs" : "", pl.a.trans ? " A-trans" : "", pl.b.trans ? " B-trans" : "", tid, s,
                  (long long)c[0], (long long)c[1], acc[tid][s], want);
        }
    free(sm.v);
    free(acc);
    free(updates);
}

static Layout blocked(const int64_t *shape, int spt0, int spt1, int fastest, int nw) {
    int spt[2] = {spt0, spt1}, order[2] = {fastest, 1 - fastest};
    return ttg_blocked(shape, 2, spt, order, nw, 32);
}

static void test_all(void) {
    static const int64_t Ms[] = {16, 32, 64, 128}, Ns[] = {8, 16, 32, 64, 128}, Ks[] = {16, 32, 64};
    for (int nw = 1; nw <= 8; nw *= 2)
        for (int wm = 1; wm <= nw; wm *= 2)
            for (size_t mi = 0; mi < 4; mi++)
                for (size_t ni = 0; ni < 5; ni++)
                    for (size_t ki = 0; ki < 3; ki++) {
                        int wn = nw / wm;
                        int64_t M = Ms[mi], N = Ns[ni], K = Ks[ki];
                        if (M % (16 * wm)) continue;
                        int64_t sa[2] = {M, K}, sb[2] = {K, N};
                        /* A along k (8-wide vectors) or along m; B along n or k */
                        Layout a_k = blocked(sa, 1, 8, 1, nw), a_m = blocked(sa, 8, 1, 0, nw);
                        Layout b_n = blocked(sb, 1, 8, 1, nw), b_k = blocked(sb, 8, 1, 0, nw);
                        Layout a_1 = blocked(sa, 1, 1, 1, nw);
                        for (int es = 2; es <= 4; es += 2) {
                            run(M, N, K, wm, wn, &a_k, &b_n, es);
                            run(M, N, K, wm, wn, &a_m, &b_k, es);
                            run(M, N, K, wm, wn, &a_1, &b_k, es);
                        }
                        if (wn == 1) {
                            /* A in the registers of a chained dot's result */
                            Layout a_acc = ttg_mma_layout(wm, 1);
                            run(M, N, K, wm, wn, &a_acc, &b_n, 2);
                        }
                    }
}

static void test_rejects(void) {
    /* 16 rows cannot feed 2 warps along m (each needs whole 16-row blocks) */
    Layout lc = ttg_mma_layout(2, 1);
    int64_t sc[2] = {16, 32}, sa[2] = {16, 32}, sb[2] = {32, 32};
    Layout la = blocked(sa, 1, 8, 1, 2), lb = blocked(sb, 1, 8, 1, 2);
    Dist dc, da, db;
    MmaPlan pl;
    CHECK(ttg_dist(&lc, sc, 2, &dc) && ttg_dist(&la, sa, 2, &da) && ttg_dist(&lb, sb, 2, &db), "dists");
    CHECK(!mma_plan(&dc, &da, &db, 2, 80, false, &pl), "16 rows on 2 warps along m accepted");
    /* a result layout that is not the accumulator fragment */
    Layout other = blocked(sc, 1, 4, 1, 2);
    CHECK(ttg_dist(&other, sc, 2, &dc), "dist");
    CHECK(!mma_plan(&dc, &da, &db, 2, 80, false, &pl), "non-fragment layout accepted");
}

int main(void) {
    test_all();
    test_rejects();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("test_mma_plan: %d dots simulated, ok\n", cases);
    return 0;
}
