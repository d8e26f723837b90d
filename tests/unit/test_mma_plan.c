/*
 * test_mma_plan.c - runs the tensor-core dot plan (src/target/ptx/
 * mma_plan.c) on a model of the hardware, for every thread, without a GPU,
 * for fp16/bf16 (m16n8k16) and tf32 (m16n8k8).
 *
 * For each shape, warp split and operand layout: A and B (small integers,
 * so every sum is exact) are written into a model of shared memory the way
 * ptx_mma.c stores them (element (i, j) at mma_elem_offset: swizzled rows,
 * or padded ones, base + (i*stride[0] + j*stride[1]) * element size; the
 * rest poisoned, no byte written twice); every warp then runs the plan's k
 * steps: ldmatrix.x4 / .x2 (.trans) from the lane addresses the PTX computes
 * (the sum of the plan's per-bit coefficients of the thread id, swizzled
 * and XORed with the step's XOR part (mma_step_offset), plus the instruction's offset), or
 * A's fragments packed from its own slots, and
 * mma.m16n8k16 as the PTX ISA defines its fragments. Each thread's
 * accumulator slots must end up holding (A x B)[row][col] for the
 * coordinate the accumulator's Dist gives that slot, each updated once per
 * k step. Every ldmatrix address must be 16-byte aligned. Each plan runs
 * with swizzled rows and with padded ones (TRITONC_MMA_SWIZZLE=0).
 *
 * Bank conflicts. Shared memory has 32 banks of 4-byte words; a warp's
 * access is served in phases (32 lanes for accesses of up to 4 bytes, 16
 * for 8, 8 for 16; ldmatrix: one 8x8 block, 8 rows of 16 bytes, a phase),
 * and a phase takes as many wavefronts as the most distinct words any one
 * bank holds: its conflicts are the wavefronts beyond one. Counted for the
 * ldmatrix reads and for the stores that fill the operands' regions at the
 * addresses the PTX uses (st.shared of the register layout's vectors, or a
 * ring's cp.async of the same layout, vectors of mma_store_vec), per CTA
 * and k loop iteration (one dot). Every plan's reads must have none, in
 * either layout; its stores into swizzled rows no more than into padded
 * ones, and no more than any order of the 16-byte chunks could give them
 * (warp_floor: more only where lanes store single elements of one
 * column). test_conflicts asserts the counts of representative plans
 * (`test_mma_plan --table` prints them); fp16 and bf16 are one case here
 * (2-byte elements).
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

static void store_operand(Smem *sm, const MmaPlan *pl, int64_t rows, int64_t cols, bool is_b) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t byte = mma_elem_offset(pl, is_b, i, j), at = byte / sm->es;
            CHECK(byte % sm->es == 0 && at >= 0 && at < sm->n, "store out of shared memory");
            if (at >= 0 && at < sm->n) {
                CHECK(sm->v[at] == POISON, "two elements at byte %lld", (long long)byte);
                sm->v[at] = is_b ? bval(i, j) : aval(i, j);
            }
        }
}

/* ---- bank conflicts ------------------------------------------------------ */

/* The conflicts of one warp-wide access: n lanes' byte addresses (< 0: the
 * lane takes no part), `bytes` each, in phases of 32, 16 or 8 lanes. */
static int warp_conflicts(const int64_t *addr, int n, int bytes) {
    int per = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8, words = bytes < 4 ? 1 : bytes / 4, extra = 0;
    for (int ph = 0; ph < n; ph += per) {
        int64_t seen[32][128];
        int cnt[32] = {0}, most = 0;
        for (int l = ph; l < ph + per && l < n; l++) {
            if (addr[l] < 0) continue;
            for (int w = 0; w < words; w++) {
                int64_t word = addr[l] / 4 + w;
                int bank = (int)(word % 32), k = 0;
                while (k < cnt[bank] && seen[bank][k] != word) k++;
                if (k == cnt[bank]) seen[bank][cnt[bank]++] = word;
                if (cnt[bank] > most) most = cnt[bank];
            }
        }
        if (most > 1) extra += most - 1;
    }
    return extra;
}

/* The fewest conflicts any arrangement of 16-byte chunks could give the
 * same access: a word's place in its chunk stays, so the distinct words at
 * one place share that place's 8 banks. */
static int warp_floor(const int64_t *addr, int n, int bytes) {
    int per = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8, words = bytes < 4 ? 1 : bytes / 4, extra = 0;
    for (int ph = 0; ph < n; ph += per) {
        int64_t seen[4][128];
        int cnt[4] = {0}, most = 1;
        for (int l = ph; l < ph + per && l < n; l++) {
            if (addr[l] < 0) continue;
            for (int w = 0; w < words; w++) {
                int64_t word = addr[l] / 4 + w;
                int at = (int)(word % 4), k = 0;
                while (k < cnt[at] && seen[at][k] != word) k++;
                if (k == cnt[at]) seen[at][cnt[at]++] = word;
                if ((cnt[at] + 7) / 8 > most) most = (cnt[at] + 7) / 8;
            }
        }
        extra += most - 1;
    }
    return extra;
}

/* The conflicts of filling operand is_b's region from a tile of layout d
 * (the whole CTA's stores; *instrs: the warp-wide stores). */
static long store_conflicts(const MmaPlan *pl, bool is_b, const Dist *d, long *instrs, long *floor) {
    int f = d->order[0], vec = mma_store_vec(pl, is_b, d), nw = d->nthreads / 32;
    long extra = 0;
    for (int warp = 0; warp < nw; warp++)
        for (int i = 0; i < d->nslots; i++) {
            if (i % d->per_dim[f] % vec) continue;
            int64_t addr[32];
            for (int lane = 0; lane < 32; lane++) {
                int64_t c[2];
                coord(d, warp * 32 + lane, i, c);
                addr[lane] = mma_elem_offset(pl, is_b, c[0], c[1]);
            }
            extra += warp_conflicts(addr, 32, vec * pl->esize);
            *floor += warp_floor(addr, 32, vec * pl->esize);
            (*instrs)++;
        }
    return extra;
}

/* What a run counts, per CTA and iteration. */
typedef struct Counts {
    long st[2], ld[2]; /* conflicts of A's, B's stores and ldmatrix reads */
    long nst[2], nld[2]; /* warp-wide instructions */
    long floor[2];       /* the stores' fewest conflicts with any chunk order (warp_floor) */
    int nx[2];           /* distinct XORs of the ldmatrix steps */
    int padded;          /* operands in padded rows */
    int64_t smem;
} Counts;

/* ldmatrix.x(n): lane L of the warp gives the address of row L & 7 of block
 * L >> 3, 16 bytes; lane 4g + t receives bytes 4t..4t+3 of row g of each
 * block (fp16: elements 2t, 2t+1; tf32: element t), or with .trans (16-bit
 * only) the elements [2t][g], [2t+1][g]. regs[lane][block][e]: the
 * register's elements, low first (one for tf32). */
static void ldmatrix(const Smem *sm, const MmaPlan *pl, const MmaOperand *o, bool is_b, int warp, int64_t off,
                     int64_t x, int n, int regs[32][4][2], Counts *cn) {
    int rows[4][8][8]; /* [block][row][element] */
    int per_row = 16 / sm->es, per_reg = 4 / sm->es;
    int64_t addrs[32];
    for (int lane = 0; lane < 8 * n; lane++) {
        int tid = warp * 32 + lane;
        int64_t lane_part = 0;
        for (int b = 0; b < pl->tid_bits; b++)
            if (tid >> b & 1) lane_part += o->coef[b];
        CHECK(lane_part == mma_lane_offset(pl, is_b, lane, warp), "coefficients disagree with the formula");
        /* swizzled: the lane part's swizzle, the step's XOR, then its offset */
        int64_t addr = o->swz.bytes ? (swz_apply(&o->swz, lane_part) ^ x) + off : lane_part + off;
        CHECK(o->swz.bytes || !x, "an XOR on padded rows");
        CHECK(addr % 16 == 0, "ldmatrix row address %lld not 16-byte aligned", (long long)addr);
        addrs[lane] = addr;
        for (int e = 0; e < per_row; e++) {
            int64_t at = addr / sm->es + e;
            rows[lane >> 3][lane & 7][e] = at >= 0 && at < sm->n ? sm->v[at] : POISON;
        }
    }
    /* one phase a block: 8 rows of 16 bytes (cn NULL: B's reads again for
     * another m-block, which the PTX does not repeat) */
    if (cn) {
        cn->ld[is_b] += warp_conflicts(addrs, 8 * n, 16);
        cn->nld[is_b]++;
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
static Counts run(int64_t M, int64_t N, int64_t K, int wm, int wn, const Layout *la, const Layout *lb, int es) {
    int nw = wm * wn, nthreads = 32 * nw;
    int64_t sc[2] = {M, N}, sa[2] = {M, K}, sb[2] = {K, N};
    Layout lc = ttg_mma_layout(wm, wn);
    Dist dc, da, db;
    Counts cn;
    memset(&cn, 0, sizeof cn);
    if (!ttg_dist(&lc, sc, 2, &dc) || !ttg_dist(la, sa, 2, &da) || !ttg_dist(lb, sb, 2, &db)) {
        CHECK(0, "no Dist");
        return cn;
    }
    MmaPlan pl;
    if (!mma_plan(&dc, &da, &db, es, 80, false, &pl)) {
        CHECK(0, "no plan for %lldx%lldx%lld warps %dx%d", (long long)M, (long long)N, (long long)K, wm, wn);
        return cn;
    }
    cases++;
    cn.smem = pl.smem_bytes;
    cn.padded = (!pl.a.in_regs && !pl.a.swz.bytes) + !pl.b.swz.bytes;
    /* swizzled rows everywhere but rows of one 16-byte chunk (nothing to
     * swizzle, nothing padded) */
    bool a_ok = pl.a.in_regs || pl.a.swz.bytes || pl.a.pitch == 16, b_ok = pl.b.swz.bytes || pl.b.pitch == 16;
    CHECK(!mma_swizzle_on() || (a_ok && b_ok), "%lldx%lldx%lld warps %dx%d es %d: padded rows of %lld and %lld bytes",
          (long long)M, (long long)N, (long long)K, wm, wn, es, (long long)pl.a.pitch, (long long)pl.b.pitch);
    Smem sm = {.n = pl.smem_bytes / es, .es = es};
    sm.v = malloc(sizeof(int) * (size_t)(sm.n + 1));
    for (int64_t i = 0; i < sm.n; i++) sm.v[i] = POISON;
    if (!pl.a.in_regs) {
        store_operand(&sm, &pl, M, K, false);
        cn.st[0] = store_conflicts(&pl, false, &da, &cn.nst[0], &cn.floor[0]);
    }
    for (int i = 0; i < 2; i++) {
        int64_t seen[64];
        int blocks = i ? pl.nblocks : pl.mblocks;
        for (int ks = 0; ks < pl.ksteps; ks++)
            for (int blk = 0; blk < blocks; blk += i ? 2 : 1) {
                int64_t x;
                mma_step_offset(&pl, i, blk, ks, &x);
                int k = 0;
                while (k < cn.nx[i] && seen[k] != x) k++;
                if (k == cn.nx[i] && k < 64) seen[cn.nx[i]++] = x;
            }
    }
    store_operand(&sm, &pl, K, N, true);
    cn.st[1] = store_conflicts(&pl, true, &db, &cn.nst[1], &cn.floor[1]);
    long (*acc)[4096] = calloc((size_t)nthreads, sizeof *acc);
    int (*updates)[4096] = calloc((size_t)nthreads, sizeof *updates);
    CHECK(dc.nslots <= 4096, "too many slots");
    for (int warp = 0; warp < nw; warp++)
        for (int ks = 0; ks < pl.ksteps; ks++)
            for (int m = 0; m < pl.mblocks; m++) {
                int af[32][4][2];
                if (!pl.a.in_regs) {
                    int64_t x, off = mma_step_offset(&pl, false, m, ks, &x);
                    ldmatrix(&sm, &pl, &pl.a, false, warp, off, x, 4, af, &cn);
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
                    int64_t x, off = mma_step_offset(&pl, true, n, ks, &x);
                    ldmatrix(&sm, &pl, &pl.b, true, warp, off, x, cnt, bf, m ? NULL : &cn);
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
    return cn;
}

static Layout blocked(const int64_t *shape, int spt0, int spt1, int fastest, int nw) {
    int spt[2] = {spt0, spt1}, order[2] = {fastest, 1 - fastest};
    return ttg_blocked(shape, 2, spt, order, nw, 32);
}

/* Over test_all's plans: how many, how many swizzled ones whose stores
 * still conflict, and their conflicts against padded rows'. */
static long all_plans, all_left, all_padded, all_st[2], all_smem[2];

/* run, with swizzled rows and with padded rows (TRITONC_MMA_SWIZZLE=0):
 * the ldmatrix reads free of conflicts in both, the stores into swizzled
 * rows with no more conflicts than into padded rows, and as few as any
 * order of 16-byte chunks could give them (warp_floor), in no more shared
 * memory. */
static void run_all(int64_t M, int64_t N, int64_t K, int wm, int wn, const Layout *la, const Layout *lb, int es) {
    setenv("TRITONC_MMA_SWIZZLE", "0", 1);
    Counts p = run(M, N, K, wm, wn, la, lb, es);
    unsetenv("TRITONC_MMA_SWIZZLE");
    Counts c = run(M, N, K, wm, wn, la, lb, es);
    CHECK(c.ld[0] + c.ld[1] + p.ld[0] + p.ld[1] == 0, "%lldx%lldx%lld warps %dx%d es %d: ldmatrix conflicts",
          (long long)M, (long long)N, (long long)K, wm, wn, es);
    for (int i = 0; i < 2; i++) {
        CHECK(c.st[i] <= p.st[i], "%lldx%lldx%lld warps %dx%d es %d: %s's stores: %ld conflicts, padded %ld",
              (long long)M, (long long)N, (long long)K, wm, wn, es, i ? "B" : "A", c.st[i], p.st[i]);
        CHECK(c.st[i] == c.floor[i], "%lldx%lldx%lld warps %dx%d es %d: %s's stores: %ld conflicts, %ld possible",
              (long long)M, (long long)N, (long long)K, wm, wn, es, i ? "B" : "A", c.st[i], c.floor[i]);
    }
    CHECK(c.smem <= p.smem, "more shared memory swizzled");
    all_plans++;
    all_left += c.st[0] + c.st[1] > 0;
    all_padded += c.padded;
    all_st[0] += p.st[0] + p.st[1], all_st[1] += c.st[0] + c.st[1];
    all_smem[0] += p.smem, all_smem[1] += c.smem;
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
                            run_all(M, N, K, wm, wn, &a_k, &b_n, es);
                            run_all(M, N, K, wm, wn, &a_m, &b_k, es);
                            run_all(M, N, K, wm, wn, &a_1, &b_k, es);
                        }
                        if (wn == 1) {
                            /* A in the registers of a chained dot's result */
                            Layout a_acc = ttg_mma_layout(wm, 1);
                            run_all(M, N, K, wm, wn, &a_acc, &b_n, 2);
                        }
                    }
}

/* Representative plans: their conflicts per CTA and k loop iteration
 * (A's and B's stores, A's and B's ldmatrix reads) and shared memory. A
 * layout: spt along dimension 0 and 1 and the fastest dimension (blocked). */
typedef struct LSpec {
    int spt0, spt1, fastest;
} LSpec;
typedef struct Rep {
    const char *what;
    int64_t M, N, K;
    int wm, wn, es;
    LSpec a, b;
    /* expected: A's and B's stores' conflicts and the shared memory, with
     * swizzled rows, then with padded rows (TRITONC_MMA_SWIZZLE=0, as
     * before the swizzle); the ldmatrix reads have none in either */
    long st[2];
    int64_t smem;
    long pst[2];
    int64_t psmem;
} Rep;

#define AK {1, 8, 1} /* A along k, 16-byte vectors (fp16) */
#define AM {8, 1, 0} /* A along m */
#define BN {1, 8, 1} /* B along n */
#define BK {8, 1, 0} /* B along k */
#define A1 {1, 1, 1} /* A along k, one element a thread */
#define AK4 {1, 4, 1}
#define BK4 {4, 1, 0}
#define AM4 {4, 1, 0}
#define BN4 {1, 4, 1}
static const Rep reps[] = {
    {"f16 64x64x32 4w Ak Bn", 64, 64, 32, 2, 2, 2, AK, BN, {0, 0}, 8192, {32, 0}, 9728},
    {"f16 64x64x32 4w Am Bk", 64, 64, 32, 2, 2, 2, AM, BK, {0, 0}, 8192, {0, 32}, 9728},
    {"f16 64x64x32 4w A1 Bk", 64, 64, 32, 2, 2, 2, A1, BK, {0, 0}, 8192, {0, 32}, 10240},
    {"f16 128x128x32 8w Ak Bn", 128, 128, 32, 2, 4, 2, AK, BN, {0, 0}, 16384, {64, 0}, 18944},
    {"f16 128x128x32 8w Am Bk", 128, 128, 32, 2, 4, 2, AM, BK, {0, 0}, 16384, {0, 64}, 18944},
    {"f16 128x128x32 4w Ak Bn", 128, 128, 32, 2, 2, 2, AK, BN, {0, 0}, 16384, {64, 0}, 18944},
    {"f16 128x64x32 4w Ak Bn", 128, 64, 32, 4, 1, 2, AK, BN, {0, 0}, 12288, {64, 0}, 14848},
    {"f16 64x64x16 4w Ak Bn", 64, 64, 16, 2, 2, 2, AK, BN, {0, 0}, 4096, {16, 0}, 5376},
    {"f16 64x64x16 4w Am Bk", 64, 64, 16, 2, 2, 2, AM, BK, {0, 0}, 4096, {0, 16}, 5376},
    {"f16 128x128x64 8w Ak Bn", 128, 128, 64, 2, 4, 2, AK, BN, {0, 0}, 32768, {0, 0}, 35840},
    {"f16 128x128x64 8w Am Bk", 128, 128, 64, 2, 4, 2, AM, BK, {0, 0}, 32768, {0, 0}, 35840},
    {"f16 64x128x128 4w Ak Bn", 64, 128, 128, 2, 2, 2, AK, BN, {0, 0}, 49152, {0, 0}, 52224},
    {"f16 64x128x128 4w Am Bk", 64, 128, 128, 2, 2, 2, AM, BK, {0, 0}, 49152, {0, 0}, 53248},
    {"f16 32x32x32 8w Ak4 Bk4 (conv)", 32, 32, 32, 2, 4, 2, AK4, BK4, {0, 0}, 4096, {16, 16}, 5120},
    {"f16 32x32x32 8w Ak Bk (conv)", 32, 32, 32, 2, 4, 2, AK, BK, {0, 0}, 4096, {32, 32}, 5120},
    {"f16 32x16x16 4w Ak Bn", 32, 16, 16, 2, 2, 2, AK, BN, {0, 0}, 1536, {16, 16}, 2304},
    {"f16 16x8x16 1w Ak Bn", 16, 8, 16, 1, 1, 2, AK, BN, {0, 0}, 768, {4, 0}, 1024},
    {"tf32 64x64x32 4w Ak Bn", 64, 64, 32, 2, 2, 4, AK, BN, {0, 0}, 16384, {0, 448}, 18432},
    {"tf32 64x64x32 4w Am Bk", 64, 64, 32, 2, 2, 4, AM, BK, {0, 0}, 16384, {448, 0}, 18432},
    {"tf32 64x64x16 4w Ak Bn", 64, 64, 16, 2, 2, 4, AK, BN, {0, 0}, 8192, {32, 224}, 10240},
    {"tf32 64x64x8 4w Ak Bn", 64, 64, 8, 2, 2, 4, AK, BN, {0, 0}, 4096, {0, 224}, 6144},
    {"tf32 128x128x32 8w Ak Bk", 128, 128, 32, 2, 4, 4, AK, BK, {0, 0}, 32768, {0, 0}, 36864},
    {"tf32 32x32x32 8w Ak4 Bk4", 32, 32, 32, 2, 4, 4, AK4, BK4, {0, 0}, 8192, {0, 0}, 9216},
    {"tf32 128x128x32 8w Ak4 Bn4", 128, 128, 32, 2, 4, 4, AK4, BN4, {0, 384}, 32768, {0, 1920}, 36864},
    {"tf32 128x128x64 8w Ak4 Bn4", 128, 128, 64, 2, 4, 4, AK4, BN4, {0, 768}, 65536, {0, 3840}, 69632},
    {"tf32 64x64x32 4w Ak4 Bn4", 64, 64, 32, 2, 2, 4, AK4, BN4, {0, 64}, 16384, {0, 448}, 18432},
    {"tf32 64x64x16 4w Ak4 Bn4", 64, 64, 16, 2, 2, 4, AK4, BN4, {0, 32}, 8192, {32, 224}, 10240},
    {"tf32 64x64x32 4w Am4 Bk4", 64, 64, 32, 2, 2, 4, AM4, BK4, {64, 0}, 16384, {448, 0}, 18432},
};

/* The representative plans' conflicts, swizzled and padded; with --table,
 * printed (per CTA and iteration: conflicts / warp-wide instructions of A's
 * and B's stores, the fewest any order of chunks gives, of the ldmatrix
 * reads, the shared memory, the distinct XORs of A's and B's ldmatrix
 * steps). */
static void test_conflicts(bool table) {
    for (size_t i = 0; i < sizeof reps / sizeof *reps; i++) {
        const Rep *r = &reps[i];
        int nw = r->wm * r->wn;
        int64_t sa[2] = {r->M, r->K}, sb[2] = {r->K, r->N};
        Layout la = blocked(sa, r->a.spt0, r->a.spt1, r->a.fastest, nw);
        Layout lb = blocked(sb, r->b.spt0, r->b.spt1, r->b.fastest, nw);
        for (int padded = 0; padded < 2; padded++) {
            if (padded) setenv("TRITONC_MMA_SWIZZLE", "0", 1);
            Counts c = run(r->M, r->N, r->K, r->wm, r->wn, &la, &lb, r->es);
            unsetenv("TRITONC_MMA_SWIZZLE");
            const long *st = padded ? r->pst : r->st;
            CHECK(c.st[0] == st[0] && c.st[1] == st[1] && c.smem == (padded ? r->psmem : r->smem) && !c.ld[0] &&
                      !c.ld[1],
                  "%s%s: stores' conflicts %ld %ld, ldmatrix's %ld %ld, %lld bytes", r->what, padded ? " padded" : "",
                  c.st[0], c.st[1], c.ld[0], c.ld[1], (long long)c.smem);
            if (table)
                printf("%-30s %s st %5ld/%-4ld %5ld/%-4ld (fewest %ld %ld) ld %ld/%ld %ld/%ld smem %6lld xors %d %d\n",
                       r->what, padded ? "pad" : "swz", c.st[0], c.nst[0], c.st[1], c.nst[1], c.floor[0], c.floor[1],
                       c.ld[0], c.nld[0], c.ld[1], c.nld[1], (long long)c.smem, c.nx[0], c.nx[1]);
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

int main(int argc, char **argv) {
    bool table = argc > 1 && strcmp(argv[1], "--table") == 0;
    test_conflicts(table);
    test_all();
    CHECK(all_st[1] * 20 < all_st[0], "swizzled rows' stores: %ld conflicts, padded %ld", all_st[1], all_st[0]);
    if (table)
        printf("all %ld plans: store conflicts %ld padded, %ld swizzled (%ld plans with some, %ld operands left "
               "padded); shared memory %lld, %lld\n",
               all_plans, all_st[0], all_st[1], all_left, all_padded, (long long)all_smem[0], (long long)all_smem[1]);
    test_rejects();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("test_mma_plan: %d dots simulated, ok\n", cases);
    return 0;
}
