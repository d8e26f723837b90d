/*
 * mma_plan.c - the mapping of a tt.dot onto mma.sync.m16n8k16 (fp16,
 * bf16) or m16n8k8 (tf32); see mma_plan.h for the fragments and the
 * layouts, drawn.
 *
 * mma_plan checks that the accumulator's Dist is the m16n8 fragment tiled
 * over warps, picks each operand's shared-memory orientation from its
 * register layout, swizzles (or pads) the rows, and derives the lane part
 * of the ldmatrix addresses as one coefficient per thread-id bit, checked
 * against the formula for every thread.
 */
#include "target/ptx/mma_plan.h"

#include <stdlib.h>
#include <string.h>

static int log2_exact(int64_t v) {
    int k = 0;
    while (((int64_t)1 << k) < v) k++;
    return ((int64_t)1 << k) == v ? k : -1;
}

/* Row pitch in bytes for rows of `bytes`: a multiple of 16 bytes and an odd
 * number of 16-byte units, so that 8 consecutive rows start in 8 different
 * groups of 4 banks (conflict-free ldmatrix phases). */
static int64_t padded_pitch(int64_t bytes) {
    int64_t units = (bytes + 15) / 16;
    return (units | 1) * 16;
}

/* Dist fields that make dc the tiled m16n8 accumulator fragment. */
static bool is_acc_fragment(const Dist *d) {
    return d->rank == 2 && d->spt[0] == 1 && d->spt[1] == 2 && d->tpw[0] == 8 && d->tpw[1] == 4 &&
           d->order[0] == 1 && d->lane_stride[0] == 4 && d->lane_stride[1] == 1;
}

/* A's registers already hold its fragments (see "A in registers" in
 * mma_plan.h): da is the accumulator fragment with all warps along m and
 * the result's row split. */
static bool a_fits_registers(const Dist *dc, const Dist *da) {
    return is_acc_fragment(da) && dc->wpc[1] == 1 && da->wpc[1] == 1 && da->wpc[0] == dc->wpc[0] &&
           da->warp_stride[0] == dc->warp_stride[0] && da->shape[0] == dc->shape[0] &&
           da->per_dim[0] == dc->per_dim[0];
}

/* The byte offset from the operand's base of element (c0, c1) (A: m, k; B:
 * k, n) before the swizzle: padded rows, or swz_linear. */
static int64_t linear_offset(const MmaPlan *pl, const MmaOperand *o, int64_t c0, int64_t c1) {
    return o->swz.bytes ? swz_linear(&o->swz, c0, c1) : (c0 * o->stride[0] + c1 * o->stride[1]) * pl->esize;
}

/* The element that starts the 16-byte row lane `lane` gives ldmatrix
 * (A: m, k; B: k, n), with the warp's first row (A) or column (B) given:
 * `first`, dist_thread_part of lane 0 in the warp. A block's row is 8 k
 * (fp16) or 4 k (tf32) of a k-major operand; the .trans form (16-bit
 * only) has rows of k instead, 8 per block. (The warp's first row or
 * column, mb or nb, enters linearly: lane_coefs counts on the offset being
 * a part of the lane plus a part of the warp.) */
static void lane_coord_at(const MmaPlan *pl, bool is_b, int lane, int64_t first, int64_t *c) {
    int i = lane >> 3, r = lane & 7; /* which block of the .x4, which of its rows */
    int64_t row_k = 16 / pl->esize;  /* k in a 16-byte row */
    if (!is_b) {
        /* lane 0 of the warp has g = 0: its row is the warp's first, 8*w_m */
        int64_t mb = first;
        int h = i & 1, kk = i >> 1; /* blocks: (rep 2a, k lo) (2a+1, k lo) (2a, k hi) (2a+1, k hi) */
        if (!pl->a.trans) c[0] = mb + 8 * pl->wm * h + r, c[1] = row_k * kk;
        else c[0] = mb + 8 * pl->wm * h, c[1] = 8 * kk + r;
        return;
    }
    /* lane 0 has t = 0: its column is the warp's first, (8*w_n) mod N */
    int64_t nb = first;
    int cc = i >> 1, kk = i & 1; /* blocks: (n-block c, k lo) (c, k hi) (c+1, k lo) (c+1, k hi) */
    if (!pl->b.trans) c[0] = row_k * kk, c[1] = nb + 8 * pl->wn * cc + r;
    else c[0] = 8 * kk + r, c[1] = nb + 8 * pl->wn * cc;
}

/* mma_lane_offset with the warp's first row (A) or column (B) given. */
static int64_t lane_offset_at(const MmaPlan *pl, bool is_b, int lane, int64_t first) {
    int64_t c[2];
    lane_coord_at(pl, is_b, lane, first, c);
    return linear_offset(pl, is_b ? &pl->b : &pl->a, c[0], c[1]);
}

int64_t mma_lane_offset(const MmaPlan *pl, bool is_b, int lane, int warp) {
    return lane_offset_at(pl, is_b, lane, dist_thread_part(&pl->dc, is_b ? 1 : 0, 0, warp));
}

/* The first element of A's m-block mblock at k step kstep (the lane part
 * adds to it), or of B's n-block nblock. */
static void step_coord(const MmaPlan *pl, bool is_b, int block, int kstep, int64_t *c) {
    int64_t k = (int64_t)pl->kstep * kstep;
    if (!is_b) c[0] = (int64_t)16 * pl->wm * block, c[1] = k;
    else c[0] = k, c[1] = (int64_t)8 * pl->wn * block;
}

/* A step's offset from the operand's base as the ldmatrix takes it: the
 * part XORed with the swizzled lane part (*x; the swizzle's chunk bits)
 * and the part added (*add: bits neither the lane part nor its swizzle
 * has; the lane part and the step's are apart, checked by steps_apart). */
static void step_parts(const MmaPlan *pl, bool is_b, int block, int kstep, int64_t *x, int64_t *add) {
    const MmaOperand *o = is_b ? &pl->b : &pl->a;
    int64_t c[2];
    step_coord(pl, is_b, block, kstep, c);
    int64_t lin = linear_offset(pl, o, c[0], c[1]);
    if (!o->swz.bytes) {
        *x = 0, *add = lin;
        return;
    }
    int64_t s = swz_apply(&o->swz, lin), xm = swz_bits(&o->swz);
    *x = s & xm, *add = s & ~xm;
}

int64_t mma_step_offset(const MmaPlan *pl, bool is_b, int block, int kstep, int64_t *xor_part) {
    int64_t add;
    step_parts(pl, is_b, block, kstep, xor_part, &add);
    return (is_b ? pl->b.base : pl->a.base) + add;
}

int64_t mma_elem_offset(const MmaPlan *pl, bool is_b, int64_t c0, int64_t c1) {
    const MmaOperand *o = is_b ? &pl->b : &pl->a;
    int64_t lin = linear_offset(pl, o, c0, c1);
    return o->base + (o->swz.bytes ? swz_apply(&o->swz, lin) : lin);
}

int mma_store_vec(const MmaPlan *pl, bool is_b, const Dist *d) {
    const MmaOperand *o = is_b ? &pl->b : &pl->a;
    int f = d->order[0], max = 16 / pl->esize;
    int run = d->spt[f] < d->shape[f] ? d->spt[f] : (int)d->shape[f];
    if (run > max) run = max;
    if (!o->swz.bytes) return o->stride[f] == 1 ? run : 1;
    int ok = 0; /* the low bits along f that keep elements together */
    while (ok < o->swz.nbits[f] && o->swz.bit[f][ok] == (int64_t)pl->esize << ok) ok++;
    return run < (1 << ok) ? run : 1 << ok;
}

int mma_acc_slot(const MmaPlan *pl, int mblock, int nblock, int i) {
    int j[2] = {2 * mblock + (i >> 1), 2 * nblock + (i & 1)};
    return dist_slot_of_j(&pl->dc, j);
}

void mma_a_reg_slots(const MmaPlan *pl, const Dist *da, int mblock, int kstep, int i, int *lo, int *hi) {
    (void)pl;
    /* a0: rep 2a, cols 16ks + 2t; a1: rep 2a+1; a2, a3: cols 16ks + 8 + 2t */
    int j[2] = {2 * mblock + (i & 1), 4 * kstep + 2 * (i >> 1)};
    *lo = dist_slot_of_j(da, j);
    j[1]++;
    *hi = dist_slot_of_j(da, j);
}

/* The sum of coef[b] over the set bits b of v, bits from `first` on. */
static int64_t coef_sum(const MmaOperand *o, int v, int first) {
    int64_t sum = 0;
    for (int b = 0; v >> b; b++)
        if (v >> b & 1) sum += o->coef[first + b];
    return sum;
}

/* coef[b] = the offset of thread 1 << b; then every thread's sum of coefs
 * must be its offset (true for power-of-two extents, checked anyway).
 * mma_lane_offset is a sum of a part of the lane and a part of the warp
 * (the warp's first row or column enters linearly), and the lane bits'
 * coefs are apart from the warp bits', so checking the lanes of warp 0 and
 * lane 0 of the warps checks every thread (32 + warps offsets, not 32 *
 * warps). */
static bool lane_coefs(MmaPlan *pl, bool is_b, MmaOperand *o) {
    int nwarps = 1 << (pl->tid_bits - 5);
    int64_t first = dist_thread_part(&pl->dc, is_b ? 1 : 0, 0, 0); /* warp 0's, for its lanes */
    memset(o->coef, 0, sizeof o->coef);
    if (lane_offset_at(pl, is_b, 0, first) != 0) return false;
    for (int b = 0; b < pl->tid_bits; b++)
        o->coef[b] = b < 5 ? lane_offset_at(pl, is_b, 1 << b, first) : mma_lane_offset(pl, is_b, 0, 1 << (b - 5));
    for (int lane = 0; lane < 32; lane++)
        if (coef_sum(o, lane, 0) != lane_offset_at(pl, is_b, lane, first)) return false;
    for (int warp = 0; warp < nwarps; warp++)
        if (coef_sum(o, warp, 5) != mma_lane_offset(pl, is_b, 0, warp)) return false;
    return true;
}

bool wgmma_shape(int sm, int esize, int64_t M, int64_t N, int64_t K, int num_warps) {
    if (sm < 90 || esize != 2 || num_warps % 4 || M % (16 * num_warps) || N % 16 || N > 256 || K % 16) return false;
    const char *e = getenv("TRITONC_WGMMA");
    return !(e && strcmp(e, "0") == 0);
}

/* Bits [first, first + n) of dimension d at stride, 2 stride, 4 stride, ... */
static void swz_field(SmemSwz *s, int d, int first, int n, int64_t stride) {
    for (int i = 0; i < n; i++) s->bit[d][first + i] = stride << i;
}

static int ilog2(int64_t v) {
    int k = 0;
    while (((int64_t)1 << (k + 1)) <= v) k++;
    return k;
}

bool swz_split(const Dist *d, const SmemSwz *z, int64_t coef[MMA_TID_BITS], int *tid_bits, int64_t *cpart) {
    int tb = 0;
    while ((1 << tb) < d->nthreads) tb++;
    if (d->rank != 2 || tb > MMA_TID_BITS || (1 << tb) != d->nthreads) return false;
    int64_t lmask = 0;
    for (int b = 0; b < tb; b++) {
        int t = 1 << b;
        coef[b] = swz_linear(z, dist_thread_part(d, 0, t & 31, t >> 5), dist_thread_part(d, 1, t & 31, t >> 5));
        if (coef[b] & lmask) return false;
        lmask |= coef[b];
    }
    /* every thread's part the sum of its bits': true of a Dist whose thread
     * parts are linear in the thread id (swz_linear adds the weights of the
     * bits they move, distinct bits to distinct places); another is checked
     * thread by thread (for 128 to 1024 threads per tile and layout, that
     * check was most of the swizzled stores' cost) */
    if (!dist_thread_parts_linear(d))
        for (int t = 0; t < d->nthreads; t++) {
            int64_t sum = 0;
            for (int b = 0; b < tb; b++) sum += t >> b & 1 ? coef[b] : 0;
            if (sum != swz_linear(z, dist_thread_part(d, 0, t & 31, t >> 5), dist_thread_part(d, 1, t & 31, t >> 5)))
                return false;
        }
    for (int i = 0; i < d->nslots; i++) {
        int j[2];
        dist_slot_j(d, i, j);
        int64_t c = swz_linear(z, dist_const(d, 0, j[0]), dist_const(d, 1, j[1]));
        if (c & lmask) return false;
        if (cpart) cpart[i] = swz_apply(z, c);
    }
    *tid_bits = tb;
    return true;
}

int64_t wgmma_b_offset(const MmaPlan *pl, int kstep) { return swz_linear(&pl->bswz, 16 * (int64_t)kstep, 0); }

int64_t wgmma_a_group_bytes(const MmaPlan *pl) { return 64 * (int64_t)pl->aswz.bytes; }

int64_t wgmma_a_offset(const MmaPlan *pl, int mblock, int kstep) {
    /* m-block a's rows start at 16 Wm a (h = 0, warp 0, g = 0) */
    return swz_linear(&pl->aswz, 16 * (int64_t)pl->wm * mblock, 16 * (int64_t)kstep);
}

/* The descriptor's fields above the start address: (bits 32..63) SBO >> 4
 * and the swizzle mode of a W-byte layout */
static uint32_t desc_hi(int w, int64_t sbo) {
    uint32_t mode = w == 128 ? 1 : w == 64 ? 2 : 3;
    return (uint32_t)(sbo >> 4) | mode << 30;
}

/* B's swizzled layout, region and descriptor fields (see "wgmma" in
 * mma_plan.h); b.trans and b.base are set. */
static void wgmma_b(MmaPlan *pl) {
    SmemSwz *s = &pl->bswz;
    int64_t es = pl->esize, N = pl->N, K = pl->K, row = (pl->b.trans ? N : K) * es;
    int w = row >= 128 ? 128 : (int)row, per = ilog2(w / es);
    memset(s, 0, sizeof *s);
    s->bytes = w;
    s->nbits[0] = ilog2(K), s->nbits[1] = ilog2(N);
    int64_t lbo = 16, sbo;
    if (pl->b.trans) { /* MN-major: K rows of N */
        sbo = 8 * N * es, lbo = 8 * w;
        swz_field(s, 0, 0, 3, w);
        swz_field(s, 0, 3, s->nbits[0] - 3, sbo);
        swz_field(s, 1, 0, per, es);
        swz_field(s, 1, per, s->nbits[1] - per, lbo);
    } else { /* K-major: N rows of K */
        sbo = 8 * w;
        swz_field(s, 0, 0, per, es);
        swz_field(s, 0, per, s->nbits[0] - per, N * w);
        swz_field(s, 1, 0, s->nbits[1], w);
    }
    pl->desc_lbo = (uint32_t)(lbo >> 4) << 16;
    pl->desc_hi = desc_hi(w, sbo);
    pl->b.pitch = 0;
    memset(pl->b.coef, 0, sizeof pl->b.coef);
}

/* A's (a_desc: K-major, M rows of K in the instructions' row order; see
 * mma_plan.h). */
static void wgmma_a(MmaPlan *pl) {
    SmemSwz *s = &pl->aswz;
    int64_t es = pl->esize, M = pl->M, K = pl->K;
    int w = K * es >= 128 ? 128 : (int)(K * es), per = ilog2(w / es), lw = ilog2(pl->wm);
    int64_t nwg = pl->wm / 4;
    memset(s, 0, sizeof *s);
    s->bytes = w;
    s->nbits[0] = ilog2(M), s->nbits[1] = ilog2(K);
    swz_field(s, 0, 0, 3, w);                      /* g */
    swz_field(s, 0, 3, 2, 16 * (int64_t)w);        /* wi */
    swz_field(s, 0, 5, lw - 2, 64 * (int64_t)w);   /* G */
    swz_field(s, 0, 3 + lw, 1, 8 * (int64_t)w);    /* h */
    swz_field(s, 0, 4 + lw, s->nbits[0] - 4 - lw, 64 * nwg * w); /* a */
    swz_field(s, 1, 0, per, es);
    swz_field(s, 1, per, s->nbits[1] - per, M * w);
    pl->adesc_hi = desc_hi(w, 8 * (int64_t)w);
    pl->a_bytes = M * K * es;
    pl->a.pitch = 0;
    memset(&pl->a.swz, 0, sizeof pl->a.swz);
    memset(pl->a.coef, 0, sizeof pl->a.coef);
}

bool mma_swizzle_on(void) {
    const char *e = getenv("TRITONC_MMA_SWIZZLE");
    return !(e && strcmp(e, "0") == 0);
}

/* Whether no k step's or block's part of an operand's ldmatrix addresses
 * shares a bit with a lane part (before the swizzle): then lane + step =
 * lane ^ step, and the swizzle of the sum is the XOR of theirs. */
static bool steps_apart(const MmaPlan *pl, bool is_b) {
    const MmaOperand *o = is_b ? &pl->b : &pl->a;
    int64_t lmask = 0;
    for (int b = 0; b < pl->tid_bits; b++) lmask |= o->coef[b];
    /* (B's ldmatrix.x4 reads n-blocks in pairs: the even ones start) */
    int blocks = is_b ? pl->nblocks : pl->mblocks, by = is_b ? 2 : 1;
    for (int k = 0; k < pl->ksteps; k++)
        for (int i = 0; i < blocks; i += by) {
            int64_t c[2];
            step_coord(pl, is_b, i, k, c);
            if (linear_offset(pl, o, c[0], c[1]) & lmask) return false;
        }
    return true;
}

/* The bank conflicts of one warp-wide access to shared memory (32 banks of
 * 4-byte words): 32 lanes' byte addresses, `bytes` each, served in phases
 * of 32 lanes (up to 4 bytes), 16 (8 bytes) or 8 (16 bytes), each taking
 * as many wavefronts as the most distinct words one bank holds; the
 * conflicts are the wavefronts beyond one a phase. */
static int warp_conflicts(const int64_t *addr, int bytes) {
    int per = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8, words = bytes < 4 ? 1 : bytes / 4, extra = 0;
    for (int ph = 0; ph < 32; ph += per) {
        int64_t seen[32][32]; /* (at most 32 distinct words a bank in a phase) */
        int cnt[32] = {0}, most = 0;
        for (int l = ph; l < ph + per; l++)
            for (int w = 0; w < words; w++) {
                int64_t word = addr[l] / 4 + w;
                int bank = (int)(word & 31), k = 0;
                while (k < cnt[bank] && seen[bank][k] != word) k++;
                if (k == cnt[bank]) seen[bank][cnt[bank]++] = word;
                if (cnt[bank] > most) most = cnt[bank];
            }
        extra += most - 1;
    }
    return extra;
}

/* The stores of a tile of layout d into operand is_b's region
 * (store_operand's and the rings' vectors, mma_store_vec): how many
 * (warp-wide), their bytes a lane, and the coordinates of warp 0's first
 * store's lanes. Each store's addresses are the first's plus one constant
 * (padded rows: the thread parts and the slot parts add up) or XORed with
 * one (swizzled rows: they are apart, swz_split), and so are their banks:
 * every store has the first's conflicts. */
typedef struct Stores {
    long n;
    int bytes;
    int64_t c[32][2];
} Stores;

static void first_stores(const MmaPlan *pl, bool is_b, const Dist *d, Stores *st) {
    int f = d->order[0], vec = mma_store_vec(pl, is_b, d);
    st->n = 0;
    for (int i = 0; i < d->nslots; i++) st->n += i % d->per_dim[f] % vec == 0;
    st->n *= d->nthreads / 32;
    st->bytes = vec * pl->esize;
    for (int lane = 0; lane < 32; lane++)
        for (int k = 0; k < 2; k++) st->c[lane][k] = dist_thread_part(d, k, lane, 0) + dist_const(d, k, 0);
}

/* The conflicts of all the stores (first_stores). */
static long store_conflicts(const MmaPlan *pl, bool is_b, const Stores *st) {
    int64_t addr[32];
    for (int lane = 0; lane < 32; lane++) addr[lane] = mma_elem_offset(pl, is_b, st->c[lane][0], st->c[lane][1]);
    return warp_conflicts(addr, st->bytes) * st->n;
}

/* Operand is_b's layout in shared memory (its trans set): swizzled rows
 * (swizzle; false when they do not apply; *conflicts: its stores' from
 * registers of layout d), else padded rows; its lane coefficients (not
 * for padded rows when conflicts is NULL). Stored
 * as R rows of C elements (A: M rows of K, or with trans K rows of M; B: N
 * rows of K, or with trans K rows of N), rows of L = C es bytes, one after
 * the other. Swizzled ("Swizzled rows" in mma_plan.h): unpadded, the
 * 16-byte chunks moved within their 128-byte line by an XOR with the
 * rows' bits, and more bits where that spares d's stores conflicts. Only
 * for power-of-two R and C and L of 32 bytes or more (16: one chunk,
 * nothing to swizzle; its padded rows are unpadded), and when d's stores
 * split into a thread's part and a slot's (swz_split) and the ldmatrix
 * steps are apart from the lanes. */
static bool operand_layout(MmaPlan *pl, bool is_b, const Dist *d, bool swizzle, long *conflicts) {
    MmaOperand *o = is_b ? &pl->b : &pl->a;
    int es = pl->esize;
    /* rd: the operand's dimension along the stored rows' index */
    int rd = is_b ? (o->trans ? 0 : 1) : (o->trans ? 1 : 0), cd = 1 - rd;
    int64_t ext[2] = {is_b ? pl->K : pl->M, is_b ? pl->N : pl->K};
    int64_t rows = ext[rd], cols = ext[cd], L = cols * es;
    int lr = log2_exact(rows), lc = log2_exact(cols);
    memset(&o->swz, 0, sizeof o->swz);
    o->pitch = 0, o->stride[0] = o->stride[1] = 0;
    if (swizzle) {
        if (lr < 0 || lc < 0 || L < 32 || lr > SWZ_MAX_BITS || lc > SWZ_MAX_BITS) return false;
        SmemSwz *z = &o->swz;
        int ll = ilog2(L);
        z->bytes = L >= 128 ? 128 : (int)L;
        z->nbits[rd] = lr, z->nbits[cd] = lc;
        swz_field(z, cd, 0, lc, es);
        swz_field(z, rd, 0, lr, L);
        /* the rows' bits 0..2 into the chunk's bits in the row */
        z->nterms = 1;
        z->shift[0] = L <= 128 ? 3 : ll - 4;
        z->mask[0] = L <= 128 ? (int)L - 16 : 0x70;
        int64_t coef[MMA_TID_BITS];
        int tb;
        if (!swz_split(d, z, coef, &tb, NULL) || !lane_coefs(pl, is_b, o) || !steps_apart(pl, is_b)) {
            memset(&o->swz, 0, sizeof o->swz);
            return false;
        }
        /* Where the stores still conflict, the terms that spare them most
         * (ties: the fewest, each makes more of the ldmatrix steps' XORs
         * differ): the 128-byte part of a longer row into the chunk's bits
         * (a thread's vectors along a row of 256 bytes or more: lanes 128
         * bytes apart), and the rows' bits 3..5, 3..4 or 3 into the chunk's
         * bits 4..6, 5..6 or 6 (a thread's run along the rows: lanes 8 rows
         * apart store to the same column), or both. */
        int parts = L / 128 > 8 ? 8 : (int)(L / 128);
        const int extra[4][2] = {{0, 0}, {ll - 1, 0x70}, {ll - 2, 0x60}, {ll - 3, 0x40}};
        Stores st;
        first_stores(pl, is_b, d, &st);
        int64_t lin[32], addr[32]; /* (the lanes' offsets before the swizzle) */
        for (int lane = 0; lane < 32; lane++) lin[lane] = swz_linear(z, st.c[lane][0], st.c[lane][1]);
        for (int lane = 0; lane < 32; lane++) addr[lane] = o->base + swz_apply(z, lin[lane]);
        long best = warp_conflicts(addr, st.bytes) * st.n;
        int best_long = 0, best_rows = 0;
        for (int nt = 1; nt <= 2 && best; nt++)
            for (int lg = 0; lg < 2; lg++)
                for (int rw = 0; rw < 4; rw++) {
                    if (lg + (rw > 0) != nt || (lg && parts < 2)) continue;
                    z->nterms = 1;
                    if (lg) z->shift[z->nterms] = 3, z->mask[z->nterms++] = (parts - 1) << 4;
                    if (rw) z->shift[z->nterms] = extra[rw][0], z->mask[z->nterms++] = extra[rw][1];
                    for (int lane = 0; lane < 32; lane++) addr[lane] = swz_apply(z, lin[lane]);
                    long n = warp_conflicts(addr, st.bytes) * st.n;
                    if (n < best) best = n, best_long = lg, best_rows = rw;
                }
        z->nterms = 1;
        if (best_long) z->shift[z->nterms] = 3, z->mask[z->nterms++] = (parts - 1) << 4;
        if (best_rows) z->shift[z->nterms] = extra[best_rows][0], z->mask[z->nterms++] = extra[best_rows][1];
        *conflicts = best;
        return true;
    }
    o->pitch = padded_pitch(L);
    o->stride[rd] = o->pitch / es;
    o->stride[cd] = 1;
    return !conflicts || lane_coefs(pl, is_b, o);
}

/* Swizzled rows where they apply (swizzle) and their stores have no more
 * conflicts than padded rows' would (ties: swizzled, smaller), else
 * padded rows. */
static bool choose_layout(MmaPlan *pl, bool is_b, const Dist *d, bool swizzle) {
    MmaOperand *o = is_b ? &pl->b : &pl->a;
    long n;
    if (!swizzle || !operand_layout(pl, is_b, d, true, &n)) return operand_layout(pl, is_b, d, false, &n);
    if (!n) return true;
    MmaOperand sw = *o;
    if (operand_layout(pl, is_b, d, false, NULL)) {
        Stores st;
        first_stores(pl, is_b, d, &st);
        if (store_conflicts(pl, is_b, &st) < n) return lane_coefs(pl, is_b, o);
    }
    *o = sw;
    return true;
}

static bool plan(const Dist *dc, const Dist *da, const Dist *db, int esize, int sm, bool a_smem, MmaPlan *pl);

static bool same_dist(const Dist *a, const Dist *b) {
    if (a->rank != b->rank || a->nslots != b->nslots || a->nthreads != b->nthreads) return false;
    for (int k = 0; k < a->rank; k++)
        if (a->shape[k] != b->shape[k] || a->spt[k] != b->spt[k] || a->tpw[k] != b->tpw[k] || a->wpc[k] != b->wpc[k] ||
            a->lane_stride[k] != b->lane_stride[k] || a->warp_stride[k] != b->warp_stride[k] ||
            a->reps[k] != b->reps[k] || a->tile[k] != b->tile[k] || a->per_dim[k] != b->per_dim[k] ||
            a->order[k] != b->order[k])
            return false;
    return true;
}

/* The last plans made, by their inputs and the switches they read (a dot's
 * plan is asked for by pipeline-async-copy, for each of its operands'
 * loads, and by the emitter). */
enum { PLAN_MEMO = 4 };
typedef struct PlanMemo {
    bool used, ok, a_smem;
    int esize, sm, env;
    Dist dc, da, db;
    MmaPlan pl;
} PlanMemo;
static _Thread_local PlanMemo plan_memo[PLAN_MEMO];
static _Thread_local int plan_memo_next;

bool mma_plan(const Dist *dc, const Dist *da, const Dist *db, int esize, int sm, bool a_smem, MmaPlan *pl) {
    const char *w = getenv("TRITONC_WGMMA");
    int env = mma_swizzle_on() | (w && strcmp(w, "0") == 0) << 1 | (getenv("TRITONC_WGMMA_RS") != NULL) << 2;
    /* (a_smem matters only to an A that could stay in registers) */
    if (esize != 2 || da->rank != 2 || !is_acc_fragment(dc) || !a_fits_registers(dc, da)) a_smem = false;
    for (int i = 0; i < PLAN_MEMO; i++) {
        PlanMemo *m = &plan_memo[i];
        if (m->used && m->esize == esize && m->sm == sm && m->a_smem == a_smem && m->env == env &&
            same_dist(&m->dc, dc) && same_dist(&m->da, da) && same_dist(&m->db, db)) {
            *pl = m->pl;
            return m->ok;
        }
    }
    PlanMemo *m = &plan_memo[plan_memo_next];
    plan_memo_next = (plan_memo_next + 1) % PLAN_MEMO;
    m->ok = plan(dc, da, db, esize, sm, a_smem, pl);
    m->used = true, m->esize = esize, m->sm = sm, m->a_smem = a_smem, m->env = env;
    m->dc = *dc, m->da = *da, m->db = *db, m->pl = *pl;
    return m->ok;
}

static bool plan(const Dist *dc, const Dist *da, const Dist *db, int esize, int sm, bool a_smem, MmaPlan *pl) {
    memset(pl, 0, sizeof *pl);
    if ((esize != 2 && esize != 4) || da->rank != 2 || db->rank != 2 || !is_acc_fragment(dc)) return false;
    int64_t M = dc->shape[0], N = dc->shape[1], K = da->shape[1];
    int wm = dc->wpc[0], wn = dc->wpc[1];
    pl->kstep = 32 / esize; /* m16n8k16 (fp16, bf16), m16n8k8 (tf32): 32 bytes of k */
    if (da->shape[0] != M || db->shape[0] != K || db->shape[1] != N) return false;
    if (K % pl->kstep || M % (16 * wm) || N % 8) return false;
    if (N >= 8 * wn ? N % (8 * wn) : (8 * wn) % N) return false;
    pl->tid_bits = log2_exact(dc->nthreads);
    if (pl->tid_bits < 5 || pl->tid_bits > MMA_TID_BITS) return false;
    pl->M = M, pl->N = N, pl->K = K, pl->wm = wm, pl->wn = wn, pl->esize = esize;
    pl->dc = *dc;
    pl->mblocks = (int)(M / (16 * wm));
    pl->nblocks = dc->per_dim[1] / 2;
    pl->ksteps = (int)(K / pl->kstep);
    if (dc->per_dim[0] != 2 * pl->mblocks || dc->per_dim[1] != 2 * pl->nblocks) return false;

    int64_t at = 0;
    MmaOperand *a = &pl->a, *b = &pl->b;
    bool swizzle = mma_swizzle_on();
    /* tf32 fragments hold single elements, not the accumulator's pairs, and
     * ldmatrix .trans moves 16-bit elements: 32-bit operands are always
     * stored k-major */
    a->in_regs = !a_smem && esize == 2 && a_fits_registers(dc, da);
    if (!a->in_regs) {
        a->trans = esize == 2 && da->order[0] == 0; /* runs along m: stored as K rows of M */
        a->base = 0;
        if (!choose_layout(pl, false, da, swizzle)) return false;
        at = a->swz.bytes ? M * K * esize : (a->trans ? K : M) * a->pitch;
    }
    b->trans = esize == 2 && db->order[0] == 1; /* runs along n: stored as K rows of N */
    if (wn == 1 && wm == dc->nthreads / 32 && wgmma_shape(sm, esize, M, N, K, wm)) {
        pl->wgmma = true;
        /* A through a descriptor when it comes from shared memory as rows of k */
        if (!a->in_regs && !a->trans && !getenv("TRITONC_WGMMA_RS")) {
            pl->a_desc = true;
            wgmma_a(pl);
            at = pl->a_bytes;
        }
        b->base = (at + 1023) & ~(int64_t)1023;
        pl->smem_bytes = b->base + K * N * esize;
        wgmma_b(pl);
        return true;
    }
    b->base = (at + 15) & ~(int64_t)15;
    if (!choose_layout(pl, true, db, swizzle)) return false;
    pl->smem_bytes = b->base + (b->swz.bytes ? K * N * esize : (b->trans ? K : N) * b->pitch);
    return true;
}

Value *mma_carried_acc(Op *dot, Op **guard) {
    *guard = NULL;
    Block *body = dot->parent;
    Op *loop = body && body->parent ? body->parent->parent : NULL;
    Use *u = op_result(dot, 0)->uses;
    if (!loop || loop->kind != SCF_FOR || !u || u->next || u->owner != body->last || u->owner->kind != SCF_YIELD)
        return NULL;
    int j = (int)(u - u->owner->operands);
    if (j + 1 >= body->nargs) return NULL;
    Value *arg = body->args[j + 1];
    if (arg->type != op_result(dot, 0)->type) return NULL;
    /* order numbers of the body's ops; the first dot other than this one */
    int n = 0, dot_at = -1;
    Op *first = NULL;
    for (Op *o = body->first; o; o = o->next, n++) {
        o->mark = n;
        if (o == dot) dot_at = n;
        else if (o->kind == TT_DOT && !first) first = o;
    }
    bool others = false, before_first = false;
    for (Use *a = arg->uses; a; a = a->next) {
        if (a->owner == dot && a - dot->operands == 2) continue; /* C itself: read as the dot starts */
        Op *at = op_ancestor_in(body, a->owner);
        if (!at || at->mark >= dot_at) return NULL; /* read after the dot: its registers are not free */
        others = true;
        before_first |= !first || at->mark <= first->mark; /* a reader before any other dot */
    }
    *guard = !others ? dot : before_first ? NULL : first;
    return arg;
}
