/*
 * mma_plan.c - the mapping of a tt.dot onto mma.sync.m16n8k16 (fp16,
 * bf16) or m16n8k8 (tf32); see mma_plan.h for the fragments and the
 * layouts, drawn.
 *
 * mma_plan checks that the accumulator's Dist is the m16n8 fragment tiled
 * over warps, picks each operand's shared-memory orientation from its
 * register layout, pads the rows, and derives the lane part of the
 * ldmatrix addresses as one coefficient per thread-id bit, checked against
 * the formula for every thread.
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

/* In bytes throughout: a block's row is 16 bytes, which is 8 k (fp16) or 4
 * k (tf32) of a k-major operand; the .trans form (16-bit only) has rows of
 * k instead, 8 per block. (The warp's first row or column, mb or nb, enters
 * linearly: lane_coefs counts on the offset being a part of the lane plus
 * a part of the warp.) */
/* mma_lane_offset with the warp's first row (A) or column (B) given:
 * `first`, dist_thread_part of lane 0 in the warp. */
static int64_t lane_offset_at(const MmaPlan *pl, bool is_b, int lane, int64_t first) {
    int i = lane >> 3, r = lane & 7; /* which block of the .x4, which of its rows */
    int64_t row, col;                /* col in bytes */
    if (!is_b) {
        /* lane 0 of the warp has g = 0: its row is the warp's first, 8*w_m */
        int64_t mb = first;
        int h = i & 1, kk = i >> 1; /* blocks: (rep 2a, k lo) (2a+1, k lo) (2a, k hi) (2a+1, k hi) */
        if (!pl->a.trans) row = mb + 8 * pl->wm * h + r, col = 16 * kk;
        else row = 8 * kk + r, col = (mb + 8 * pl->wm * h) * pl->esize;
        return row * pl->a.pitch + col;
    }
    /* lane 0 has t = 0: its column is the warp's first, (8*w_n) mod N */
    int64_t nb = first;
    int cc = i >> 1, kk = i & 1; /* blocks: (n-block c, k lo) (c, k hi) (c+1, k lo) (c+1, k hi) */
    if (!pl->b.trans) row = nb + 8 * pl->wn * cc + r, col = 16 * kk;
    else row = 8 * kk + r, col = (nb + 8 * pl->wn * cc) * pl->esize;
    return row * pl->b.pitch + col;
}

int64_t mma_lane_offset(const MmaPlan *pl, bool is_b, int lane, int warp) {
    return lane_offset_at(pl, is_b, lane, dist_thread_part(&pl->dc, is_b ? 1 : 0, 0, warp));
}

int64_t mma_a_offset(const MmaPlan *pl, int mblock, int kstep) {
    const MmaOperand *o = &pl->a;
    int64_t m = (int64_t)16 * pl->wm * mblock, k = (int64_t)pl->kstep * kstep;
    return o->base + (o->trans ? k * o->pitch + m * pl->esize : m * o->pitch + k * pl->esize);
}

int64_t mma_b_offset(const MmaPlan *pl, int nblock, int kstep) {
    const MmaOperand *o = &pl->b;
    int64_t n = (int64_t)8 * pl->wn * nblock, k = (int64_t)pl->kstep * kstep;
    return o->base + (o->trans ? k * o->pitch + n * pl->esize : n * o->pitch + k * pl->esize);
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
        if (cpart) cpart[i] = swz_apply(z->bytes, c);
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
    memset(pl->a.coef, 0, sizeof pl->a.coef);
}

bool mma_plan(const Dist *dc, const Dist *da, const Dist *db, int esize, int sm, bool a_smem, MmaPlan *pl) {
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
    /* tf32 fragments hold single elements, not the accumulator's pairs, and
     * ldmatrix .trans moves 16-bit elements: 32-bit operands are always
     * stored k-major */
    a->in_regs = !a_smem && esize == 2 && a_fits_registers(dc, da);
    if (!a->in_regs) {
        a->trans = esize == 2 && da->order[0] == 0; /* runs along m: stored as K rows of M */
        a->pitch = padded_pitch((a->trans ? M : K) * esize);
        int64_t pe = a->pitch / esize;
        a->stride[0] = a->trans ? 1 : pe;
        a->stride[1] = a->trans ? pe : 1;
        a->base = 0;
        at = (a->trans ? K : M) * a->pitch;
        if (!lane_coefs(pl, false, a)) return false;
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
    b->pitch = padded_pitch((b->trans ? N : K) * esize);
    int64_t pe = b->pitch / esize;
    b->stride[0] = b->trans ? pe : 1;
    b->stride[1] = b->trans ? 1 : pe;
    b->base = (at + 15) & ~(int64_t)15;
    pl->smem_bytes = b->base + (b->trans ? K : N) * b->pitch;
    return lane_coefs(pl, true, b);
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
