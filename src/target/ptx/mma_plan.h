/*
 * mma_plan.h - how a tt.dot maps onto mma.sync.m16n8k16 (fp16 or bf16 in,
 * fp32 accumulate; tf32 with m16n8k8, below): which accumulator slots each instruction updates, where
 * A and B sit in shared memory, which address each lane gives ldmatrix, and
 * which registers hold A when it need not go through shared memory. Pure
 * arithmetic on Dists, no PTX: ptx_mma.c emits what the plan says, and
 * tests/unit/test_mma_plan.c runs the plan on a model of ldmatrix and
 * mma.sync for every thread to check that it computes A x B.
 *
 * The instruction (PTX ISA, "Matrix fragments for mma.m16n8k16"). Lane
 * 4g + t (g = lane >> 2 its group, t = lane & 3 its place in the group)
 * holds, two 16-bit elements consecutive in k per 32-bit register:
 *
 *   A (16 x 16, row)         B (16 x 8, col)       C, D (16 x 8, f32)
 *            k 0..7  8..15            n 0..7                n 0..7
 *   m 0..7    a0      a2       k 0..7   b0           m 0..7   c0 c1
 *   m 8..15   a1      a3       k 8..15  b1           m 8..15  c2 c3
 *
 *   a0 = A[g][2t, 2t+1]      a1 = A[g+8][2t, 2t+1]
 *   a2 = A[g][2t+8, 2t+9]    a3 = A[g+8][2t+8, 2t+9]
 *   b0 = B[2t, 2t+1][g]      b1 = B[2t+8, 2t+9][g]
 *   c0, c1 = C[g][2t], C[g][2t+1]    c2, c3 = C[g+8][2t], C[g+8][2t+1]
 *
 * The accumulator layout (ttg_mma_layout: sizePerThread [1, 2],
 * threadsPerWarp [8, 4], warpsPerCTA [Wm, Wn], order [1, 0], so warp =
 * w_m * Wn + w_n) puts lane 4g + t of warp (w_m, w_n) on
 *
 *   rows  8*w_m + g + 8*Wm*r           slot j0 = r, r < M / (8 Wm)
 *   cols  8*w_n + 8*Wn*c + 2t + e      slot j1 = 2c + e, e = 0, 1
 *
 * e.g. Wm = Wn = 1, M = 32, N = 16 (rows: which lanes' g; a cell is the
 * (r, c) repetition of the thread that holds it):
 *
 *            cols 0..7      cols 8..15
 *   rows  0..7   (0,0)          (0,1)     <- m-block 0, MMA rows 0..7
 *   rows  8..15  (1,0)          (1,1)     <- m-block 0, MMA rows 8..15
 *   rows 16..23  (2,0)          (2,1)     <- m-block 1, MMA rows 0..7
 *   rows 24..31  (3,0)          (3,1)     <- m-block 1, MMA rows 8..15
 *               n-block 0      n-block 1
 *
 * That is the C fragment of the warp's MMAs once MMA row g is read as the
 * thread's row of repetition 2a and MMA row g + 8 as that of repetition
 * 2a + 1 (m-block a), and MMA column n as column 8*w_n + 8*Wn*c + n
 * (n-block c):
 *
 *   m-block a, n-block c:   c0 = slot(2a, 2c)      c1 = slot(2a, 2c+1)
 *                           c2 = slot(2a+1, 2c)    c3 = slot(2a+1, 2c+1)
 *
 * An MMA does not care which 16 rows of A it multiplies, so A's fragment is
 * read from those same rows: MMA row g of m-block a is 8*w_m + g +
 * 16*Wm*a, row g + 8 is that plus 8*Wm. So M must be a multiple of 16*Wm
 * (an even number of row repetitions). Along n the layout may wrap (N <
 * 8*Wn): the extra warps hold copies and compute them again.
 *
 * Shared memory. Each operand is stored in the orientation its registers
 * already have, so that the stores are vectors: A as M rows of K when its
 * layout runs fastest along k ("k-major"), else as K rows of M; B as N rows
 * of K (B^T) when its layout runs fastest along k, else as K rows of N.
 * ldmatrix reads 8x8 blocks of 16-bit elements, each 8 rows of 16 bytes
 * whose addresses come from 8 lanes (lanes 8i..8i+7 for block i of an .x4),
 * and gives lane 4g + t the elements [g][2t, 2t+1] of each block, or with
 * .trans the elements [2t, 2t+1][g]. For a k-major operand a block's rows
 * are 8 of its m (n) indices and 16 bytes of k, and the plain form gives the
 * fragment; otherwise a block's rows are 8 consecutive k and its 16 bytes 8
 * consecutive m (n), and .trans gives the fragment. One ldmatrix.x4 gives
 * an m-block's a0..a3 (blocks: rows of repetition 2a, 2a+1 x k 0..7, 8..15)
 * or b0, b1 of two n-blocks (blocks: n-block c, c+1 x k 0..7, 8..15).
 *
 * Swizzled rows. Shared memory has 32 banks of 4-byte words; one phase of
 * an ldmatrix reads 8 rows of 16 bytes (a 16-byte store or cp.async
 * serves 8 lanes a phase, an 8-byte one 16, a 4-byte one 32), and a phase
 * takes as many passes as the most distinct words one bank holds. Rows of
 * L = 32, 64, 128 bytes or more (every extent a power of two) are stored
 * unpadded, one after the other, each row's 16-byte chunks permuted
 * within their 128-byte line by an XOR (swz_apply, SmemSwz's terms): the
 * rows' bits 0..2 XOR the chunk's bits in the row (L <= 128: offset bits
 * 4 .. log2(L) - 1 with bits 7.., as wgmma's swizzle; longer rows: bits
 * 4..6 with the row's bits 0..2). The 8 rows of an ldmatrix phase, 8
 * consecutive rows at one chunk, then fall in 8 different groups of 4
 * banks, and a warp's vectors along whole rows fill whole lines. Where a
 * store of the register layout still conflicts, mma_plan adds terms that
 * spare it most: the 128-byte part of a longer row into bits 4..6 (a
 * thread's vectors 128 bytes apart in a row), the rows' bits 3..5, 3..4 or
 * 3 into bits 4..6, 5..6 or 6 (a thread's run across rows: tf32's B
 * stored k-major from registers along n, lanes 8 rows apart at one
 * column); each term only takes bits from 7 up, so the XOR stays its own
 * inverse and the read's 8 rows stay apart. tests/unit/test_mma_plan.c
 * counts the conflicts: none for the reads, and for the stores the fewest
 * any order of 16-byte chunks can give (none unless lanes store single
 * elements of one column: a chunk holds 4 fp32 of k, the lanes' words
 * then share 8 banks). Rows of 16 bytes (one chunk), or of an extent not
 * a power of two, are padded instead to an odd number of 16-byte units,
 * which keeps the reads apart but not the stores (64-byte rows padded to
 * 80: a 16-byte phase's two rows overlap in the banks), as are all rows
 * with TRITONC_MMA_SWIZZLE=0 (mma_swizzle_on).
 *
 * The lane part of each ldmatrix address is linear in the thread id's bits
 * (every extent is a power of two): coef[b] is what bit b adds (before the
 * swizzle). The plan checks that sum against its formula for every
 * thread, so the PTX, which sums coef over the bits, computes exactly what
 * the test checks. Swizzled, the lane part and each k step's or block's
 * part use different bits, so swz(lane + step) = swz(lane) ^ swz(step): the
 * PTX swizzles the lane part once, in the prologue, XORs each step's
 * chunk bits (mma_step_offset's XOR part: bits 4..6, at most 8 values) into it plus the
 * stage's 128-byte aligned base, and adds the rest as the instruction's
 * offset (mma_step_offset).
 *
 * tf32 (fp32 operands, m16n8k8): the same shapes in bytes. Registers hold
 * one 32-bit element each, a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4],
 * a3 = A[g+8][t+4], b0 = B[t][g], b1 = B[t+4][g]; an 8x8 block of 16-bit
 * elements is 8 rows of 4 fp32, and plain ldmatrix gives lane 4g + t the
 * 32-bit element [g][t] of each: for k-major operands the same x4 blocks
 * (16 bytes = 4 k per row) give a0..a3 and b0, b1. .trans would split the
 * 32-bit elements, so both operands are stored k-major (transposed on the
 * way in when their registers run along m or n).
 *
 * wgmma (sm_90a, fp16 and bf16: wgmma_shape). When every warp lies along
 * m (Wm = num_warps, a multiple of 4; Wn = 1), the accumulator layout is
 * also what wgmma.mma_async.m64nNk16 gives a warpgroup: warp w of a
 * warpgroup gets the instruction's rows 16w + g and 16w + g + 8, and the
 * columns 8c + 2t + {0, 1} of every n-block c, in registers d[4c .. 4c+3]
 * ordered as an mma.sync's c0..c3. Read the instruction's rows 16w + g and
 * + 8 as the thread's rows of repetitions 2a and 2a + 1 (m-block a): A's
 * fragment, the same four registers as for mma.sync, comes from those rows
 * (ldmatrix as above, or A's own registers), so one wgmma per m-block and
 * k step (16) runs the whole width N <= 256. B is read by the tensor cores
 * from shared memory through a descriptor, in one of the layouts the PTX
 * ISA calls canonical, swizzled (SmemSwz below): stored as K rows of N
 * ("MN-major", imm-trans-b 1) when its registers run along n, else as N
 * rows of K ("K-major"), in atoms of 8 rows of W = 32, 64 or 128 bytes
 * (W: the stored rows' bytes, up to 128) whose 16-byte chunks are XORed
 * with the row's bits, 1024-byte aligned:
 *
 *   MN-major: (k, n) at (k % 8) W + (k / 8) SBO + (n % (W/es)) es + (n / (W/es)) LBO,
 *             LBO = 8 W (atoms along n), SBO = 8 N es (the next 8 k)
 *   K-major:  (k, n) at n W + (k % (W/es)) es + (k / (W/es)) N W,
 *             SBO = 8 W (the next 8 rows), LBO unused
 *
 * A K-major A from shared memory (a_desc) takes a descriptor too, its
 * rows in the instructions' order: row 16 wi + 8 h + g of the instruction
 * for m-block a of warpgroup G is the thread's row of repetition 2a + h
 * (warp 4G + wi, group g), 8 w + g + 8 Wm h + 16 Wm a; the 64 rows of each
 * (a, G) lie together, (a nWG + G) 64 W from A's base: in SmemSwz's terms,
 * m's bits g -> W 2^i, wi -> 16 W 2^i, G -> 64 W 2^i, h -> 8 W, a ->
 * 64 nWG W 2^i.
 *
 * then swz(x) = x ^ ((x >> 3) & (W - 16)) (bits 4.. ^= bits 7..). The
 * descriptor of k step ks starts at the k rows 16 ks (MN-major: 2 ks SBO;
 * K-major: the atom column and the 32-byte part of its rows). Stores into
 * this layout (cp.async or st.shared) split an address into a thread's
 * part and a slot's part, which use different bits (extents powers of
 * two): swz(L + C) = swz(L) ^ swz(C), swz(L) once per thread.
 *
 * A in registers. A chained dot's A (attention's P in P x V) may already
 * sit in the fragments: when its layout is the accumulator layout with
 * all warps along m (Wn = 1, for the result and for A), lane 4g + t holds
 * A[row][16*ks + 2t + {0, 1}] in slots (r, 4ks), (r, 4ks + 1) and
 * A[row][16*ks + 8 + 2t + {0, 1}] in slots (r, 4ks + 2), (r, 4ks + 3), rows
 * those of the result's repetitions r. Packed in pairs, those are a0..a3.
 */
#ifndef TC_MMA_PLAN_H
#define TC_MMA_PLAN_H

#include "dialect/ttg.h"

#define MMA_TID_BITS 10 /* up to 1024 threads */

/* A swizzled shared-memory layout (wgmma's, see "wgmma" above; mma.sync's
 * rows, see "Swizzled rows"): element (c0, c1) of the stored operand, in
 * the operand's dimensions, at swz_apply(z, the sum of bit[d][i] over the
 * set bits i of each c_d): every coordinate bit moves the element by its
 * own power of two. */
enum { SWZ_MAX_BITS = 12 };
enum { SWZ_MAX_TERMS = 3 };
typedef struct SmemSwz {
    int bytes;    /* W: 32, 64 or 128 (mma.sync: its rows' bytes, up to 128) */
    /* the XOR (swz_apply): nterms 0, wgmma's; else these terms (mma.sync's) */
    int nterms;
    int shift[SWZ_MAX_TERMS], mask[SWZ_MAX_TERMS];
    int nbits[2]; /* log2 of each dimension's extent */
    int64_t bit[2][SWZ_MAX_BITS];
} SmemSwz;

typedef struct MmaOperand {
    bool in_regs;   /* A only: fragments packed from its own slots, no shared memory */
    bool trans;     /* stored as rows of k (m or n contiguous): ldmatrix .trans */
    int64_t base;   /* byte offset of its region in the dot's shared memory */
    int64_t pitch;  /* bytes from one stored row to the next (padded rows) */
    /* element offset, in the stored layout, of one step along each
     * dimension of the operand's tile (A: m, k; B: k, n; padded rows) */
    int64_t stride[2];
    /* or its swizzled rows (swz.bytes 32, 64, 128; 0: padded rows): element
     * (c0, c1) at base + swz_apply(&swz, swz_linear(&swz, c0, c1)) */
    SmemSwz swz;
    /* the lane part of its ldmatrix addresses (bytes from base; swizzled:
     * before swz_apply): the sum of coef[b] over the set bits b of the
     * thread id */
    int64_t coef[MMA_TID_BITS];
} MmaOperand;


typedef struct MmaPlan {
    int64_t M, N, K;
    int wm, wn;                     /* warps along m and n */
    int mblocks, nblocks, ksteps;   /* per thread: 16-row blocks, 8-column blocks, k steps */
    int esize;                      /* bytes of an A or B element: 2, or 4 (tf32) */
    int kstep;                      /* k per instruction: 16, or 8 (tf32) */
    int tid_bits;                   /* log2 of the threads of the CTA */
    Dist dc;                        /* the accumulator's */
    MmaOperand a, b;
    int64_t smem_bytes;             /* 0 when neither operand needs shared memory */
    /* wgmma: B (at b.base, 1024-byte aligned; b.trans: MN-major) in bswz,
     * its descriptor's fixed fields in desc_hi (bits 32..63) and desc_lbo
     * (bits 16..29, encoded); A too when a_desc (K-major A from shared
     * memory: at a.base, a_bytes long, in aswz, its rows in the order of
     * the instructions' rows; else A's fragments as for mma.sync) */
    bool wgmma, a_desc;
    SmemSwz bswz, aswz;
    uint32_t desc_hi, desc_lbo, adesc_hi;
    int64_t a_bytes;
} MmaPlan;

/* Whether a dot of M x N x K with esize-byte operands (fp16, bf16) runs
 * on wgmma at target sm with num_warps warps, all along m (the layout
 * assignment then gives its accumulator Wm = num_warps, Wn = 1).
 * TRITONC_WGMMA=0 in the environment: never (mma.sync, as on sm_80). */
bool wgmma_shape(int sm, int esize, int64_t M, int64_t N, int64_t K, int num_warps);
/* swz of a byte offset from a 1024-byte aligned base (mma.sync's: from
 * its region's base). wgmma's: the 16-byte chunk bits 4 .. log2(W) - 1
 * XORed with the bits 7.. (a row's, rows of W bytes: W = 128, the row's
 * bits 0..2; 64, 1..2; 32, 2). mma.sync's: bits 4..6 (the chunk in its
 * 128-byte line) XORed with (x >> shift) & mask of each term, which takes
 * bits from 7 up. Either is a linear map over GF(2), its own inverse,
 * that moves 16-byte chunks within their 128-byte line. */
static inline int64_t swz_apply(const SmemSwz *z, int64_t x) {
    if (!z->nterms) return x ^ ((x >> 3) & (z->bytes - 16));
    int64_t r = x;
    for (int t = 0; t < z->nterms; t++) r ^= (x >> z->shift[t]) & z->mask[t];
    return r;
}
/* The bits swz_apply may change. */
static inline int64_t swz_bits(const SmemSwz *z) {
    int64_t m = z->nterms ? 0 : z->bytes - 16;
    for (int t = 0; t < z->nterms; t++) m |= z->mask[t];
    return m;
}
/* The offset of element (c0, c1) before swz (swz_apply of it: the byte). */
static inline int64_t swz_linear(const SmemSwz *s, int64_t c0, int64_t c1) {
    int64_t o = 0;
    for (int b = 0; b < s->nbits[0]; b++) o += (c0 >> b & 1) * s->bit[0][b];
    for (int b = 0; b < s->nbits[1]; b++) o += (c1 >> b & 1) * s->bit[1][b];
    return o;
}
/* Whether a tile of layout d can be written into swizzled layout z, the
 * address of each of its elements split into a thread's part and a slot's
 * part that share no bit (every extent a power of two), so that
 * swz(thread + slot) = swz(thread) ^ swz(slot): coef[b] is what bit b of
 * the thread id adds before swz; cpart (d->nslots long, or NULL) gets
 * swz_apply of each slot's part. */
bool swz_split(const Dist *d, const SmemSwz *z, int64_t coef[MMA_TID_BITS], int *tid_bits, int64_t *cpart);
/* The byte offset from B's base where k step ks's descriptor starts. */
int64_t wgmma_b_offset(const MmaPlan *pl, int kstep);
/* The same for A (a_desc) at m-block `mblock` of the warpgroup with rows
 * from 0 (add the warpgroup's part, wgmma_a_group_bytes times its index). */
int64_t wgmma_a_offset(const MmaPlan *pl, int mblock, int kstep);
int64_t wgmma_a_group_bytes(const MmaPlan *pl);

/* Whether mma.sync's operands may take swizzled rows: TRITONC_MMA_SWIZZLE=0
 * in the environment, never (padded rows, and the swizzled stores'
 * addresses all by XOR, as before the swizzled rows came: the PTX of
 * before, for timing one against the other). */
bool mma_swizzle_on(void);
/* The plan for a dot with result dc and operands da (M x K), db (K x N),
 * elements of esize bytes (2: fp16/bf16, 4: tf32), for target sm (wgmma
 * when wgmma_shape and the layout allow), A in shared memory already
 * (a_smem: a ring's stage; not its registers even where they would do); false when dc is not an accumulator layout
 * mma.sync can serve (then the dot takes the FMA path). */
bool mma_plan(const Dist *dc, const Dist *da, const Dist *db, int esize, int sm, bool a_smem, MmaPlan *pl);

/* Byte offset, from the operand's base + lane part, of the ldmatrix.x4
 * that loads A's m-block `block` at k step `kstep`, or (is_b) B's n-blocks
 * block and block + 1 (.x4; .x2: block only); swizzled, the row address
 * is (swz_apply(&swz, lane part) ^ *xor_part) + the offset (base included
 * in the offset, not in the XOR; *xor_part 0 unswizzled). */
int64_t mma_step_offset(const MmaPlan *pl, bool is_b, int block, int kstep, int64_t *xor_part);
/* The lane part of the ldmatrix address of lane `lane` of warp `warp`,
 * from its formula (coef reproduces it). */
int64_t mma_lane_offset(const MmaPlan *pl, bool is_b, int lane, int warp);
/* The byte offset of element (c0, c1) of an operand (A: m, k; B: k, n) in
 * the dot's shared memory (base included). */
int64_t mma_elem_offset(const MmaPlan *pl, bool is_b, int64_t c0, int64_t c1);
/* Elements per st.shared (or cp.async) of a tile of layout d into operand
 * is_b's region: the thread's run along d's fastest dimension where the
 * stored layout keeps it together, up to 16 bytes. */
int mma_store_vec(const MmaPlan *pl, bool is_b, const Dist *d);
/* Accumulator slot of register i (c0..c3) of the MMA of (mblock, nblock). */
int mma_acc_slot(const MmaPlan *pl, int mblock, int nblock, int i);
/* A in registers: the slots of the low (even k) and high half of register
 * i (a0..a3) of m-block `mblock` at k step `kstep`. */
void mma_a_reg_slots(const MmaPlan *pl, const Dist *da, int mblock, int kstep, int i, int *lo, int *hi);

/* A loop-carried accumulator (`acc = tl.dot(p, v, acc * alpha)` in an
 * scf.for body, the result read only by the yield): the body argument the
 * result becomes in the next iteration, when nothing after the dot in the
 * body reads that argument (its readers come before the dot, or it is the
 * dot's C); NULL otherwise. The dot may then accumulate straight into the
 * argument's registers, and the yield copies nothing.
 *
 * *guard: the first dot before every other reader of the argument (the
 * dot itself when it is the only reader; NULL when a reader comes before
 * any other dot). A wgmma dot's group may stay in flight across the back
 * edge when the guard is a wgmma dot too: its wait, before or after its
 * own group, comes before the next iteration reads the registers. */
Value *mma_carried_acc(Op *dot, Op **guard);

#endif
