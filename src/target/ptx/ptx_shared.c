/*
 * ptx_shared.c - everything that crosses threads: tt.reduce, layout
 * conversions, tt.scan, the shape ops (reshape, trans, join, split, cat),
 * tt.gather, tt.histogram and the FMA tt.dot.
 *
 * Shared memory is the kernel's dynamic `global_smem`; every user starts at
 * offset 0 and the kernel asks for the largest. A user that is not the
 * first (or that sits in a loop) starts with `bar.sync 0`, so the readers of
 * the previous user are done before it writes.
 *
 * Reduction along `axis` (Triton's three steps):
 *   1. in each thread, its slots along the axis are combined in order;
 *   2. across the lanes along the axis: `shfl.sync.bfly.b32` with lane
 *      offsets lane_stride * {n/2, ..., 1}, n the distinct lanes (copies of
 *      a layout are left out, so a sum never counts an element twice);
 *      a combine that does not commute to the bit then takes the group's
 *      first lane's result in every lane (`shfl.sync.idx`);
 *   3. across the warps along the axis, when there are several: each warp
 *      writes its partial to smem[out_index * W + warp] (from its first lane
 *      along the axis), bar.sync, and every thread combines the W partials
 *      in order.
 * The combine region is lowered inline on the scalars at each step.
 *
 * Layout conversion: a permutation of slots when both layouts put every
 * element in the same thread; otherwise each thread writes its elements to
 * shared memory and reads back the ones the new layout gives it, a vector
 * of up to 16 bytes at a time where a layout gives a thread consecutive
 * elements of a row. The tile is row-major with its 128-byte lines'
 * words XOR-swizzled so that neither side's accesses conflict in the banks
 * (cvt_plan.h), or, where a count is not a power of two (or with
 * TRITONC_CVT_SWIZZLE=0), row-major with each row padded.
 *
 * tt.dot (FMA, for what tensor cores do not take: see ptx_mma.c): A and B
 * go to shared memory, then a loop over k in which each thread loads
 * A[m][k] for its distinct rows and B[k][n] for its distinct columns and
 * updates its C slots with fma.
 */
#include "target/ptx/cvt_plan.h"
#include "target/ptx/mma_plan.h"
#include "target/ptx/ptx_lower.h"

#include <stdio.h>
#include <string.h>

static int log2i(int64_t v) {
    int k = 0;
    while (((int64_t)1 << k) < v) k++;
    return k;
}

/* Where users start: global_smem, or above the live cp.async rings (the
 * epoch moves on when they come or go). px_cse's answer, kept. */
static Slot smem_base(Px *p) {
    if (p->smem_base_memo.epoch == p->epoch) return p->smem_base_memo.reg;
    Slot b = px_cse1(p, RC_B32, "mov.u32", px_arg_text(p, "global_smem"));
    if (p->smem_floor) b = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, b), px_arg_int(p, p->smem_floor));
    p->smem_base_memo.epoch = p->epoch;
    p->smem_base_memo.reg = b;
    return b;
}

/* Claims `bytes` of shared memory from offset 0 (above the live rings) for
 * the next user. */
static void smem_begin(Px *p, int64_t bytes) {
    if (p->smem_dirty || p->loop_depth > 0) px_barrier(p);
    p->smem_dirty = true;
    bytes += p->smem_floor;
    if (bytes > p->smem_size) p->smem_size = (int)((bytes + 15) & ~15);
}

void px_smem_begin(Px *p, int64_t bytes) { smem_begin(p, bytes); }

static int elem_bytes(const Type *e) { return px_bits(e) / 8; }

static const char *st_type(const Type *e) {
    int b = px_bits(e);
    return b == 8 ? "b8" : b == 16 ? "b16" : b == 64 ? "b64" : "b32";
}

/* `st.shared.bN [base+off], v` (i1 as a byte). */
static void st_shared_at(Px *p, Slot base, int64_t off, Slot v, const Type *e) {
    static const PxText st_op[] = {PX_LIT("st.shared.b8"), PX_LIT("st.shared.b16"), PX_LIT("st.shared.b32"),
                                   PX_LIT("st.shared.b64")};
    if (e->kind == TY_INT && e->width == 1) {
        v = px_cast(p, v, e, p->i32, false, 0);
        e = p->i32;
        Slot r = px_mat(p, v, e);
        px_st_regs(p, st_op[0], base, off, &r, 1);
        return;
    }
    int b = px_bits(e);
    Slot r = px_mat(p, v, e);
    px_st_regs(p, st_op[b == 8 ? 0 : b == 16 ? 1 : b == 64 ? 3 : 2], base, off, &r, 1);
}

/* `ld.shared.xN r, [base+off]` into a fresh register (i1 as a byte, tested). */
static Slot ld_shared_at(Px *p, Slot base, int64_t off, const Type *e) {
    if (e->kind == TY_INT && e->width == 1) {
        Slot r = px_reg(p, RC_B32);
        px_ld_regs(p, PX_LIT("ld.shared.u8"), &r, 1, base, off);
        return px_cse2(p, RC_PRED, "setp.ne.s32", px_arg_reg(p, r), px_arg_int(p, 0));
    }
    Slot r = px_reg(p, px_rc(e));
    PxText op;
    if (e->kind == TY_INT && e->width == 8) op = PX_LIT("ld.shared.s8");
    else if (e->kind == TY_INT && e->width == 16) op = PX_LIT("ld.shared.s16");
    else {
        int b = px_bits(e);
        op = b == 8 ? PX_LIT("ld.shared.b8") : b == 16 ? PX_LIT("ld.shared.b16") : b == 64 ? PX_LIT("ld.shared.b64")
                                                                                 : PX_LIT("ld.shared.b32");
    }
    px_ld_regs(p, op, &r, 1, base, off);
    return r;
}

/* base + index * esize + extra for an index `reg + off`: a register
 * (global_smem or above the rings, plus the scaled index register) and a
 * constant, in *off. */
static Slot smem_at_make(Px *p, Slot index, int esize);

static inline Slot smem_at(Px *p, Slot index, int esize, int64_t extra, int64_t *off) {
    *off = index.off * esize + extra;
    if (index.kind == SLOT_IMM) return smem_base(p);
    for (int k = 0; k < 2; k++)
        if (p->smem_memo[k].epoch == p->epoch && p->smem_memo[k].index_reg == index.reg &&
            p->smem_memo[k].esize == esize)
            return p->smem_memo[k].addr;
    return smem_at_make(p, index, esize);
}

/* smem_at's register for a new index register (slot after slot shares it:
 * px_cse's answer, kept; out of line, smem_at's lookup stays a leaf). Two
 * are kept, the older replaced: a layout conversion's two sides take
 * turns, conversion after conversion. */
static Slot smem_at_make(Px *p, Slot index, int esize) {
    Slot base = smem_base(p);
    Slot ri = {SLOT_REG, RC_B32, index.reg, {0}};
    Slot sc = esize == 1 ? ri : px_cse2(p, RC_B32, "shl.b32", px_arg_reg(p, ri), px_arg_int(p, log2i(esize)));
    Slot a = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, base), px_arg_reg(p, sc));
    p->smem_memo[1] = p->smem_memo[0];
    p->smem_memo[0].epoch = p->epoch;
    p->smem_memo[0].index_reg = index.reg;
    p->smem_memo[0].esize = esize;
    p->smem_memo[0].addr = a;
    return a;
}

/* The same as a text, `[base+off]`. */
static const char *smem_addr(Px *p, Slot index, int esize, int64_t extra) {
    int64_t off;
    Slot a = smem_at(p, index, esize, extra, &off);
    return px_addr(p, px_rname(p, a), off, true);
}

static void st_shared(Px *p, const char *addr, Slot v, const Type *e) {
    if (e->kind == TY_INT && e->width == 1) {
        v = px_cast(p, v, e, p->i32, false, 0);
        e = p->i32;
        px_ins(p, "st.shared.b8", addr, px_rname(p, px_mat(p, v, e)), NULL, NULL);
        return;
    }
    static const char *const st_op[] = {"st.shared.b8", "st.shared.b16", "st.shared.b32", "st.shared.b64"};
    int b = px_bits(e);
    px_ins(p, st_op[b == 8 ? 0 : b == 16 ? 1 : b == 64 ? 3 : 2], addr, px_rname(p, px_mat(p, v, e)), NULL, NULL);
}

static Slot ld_shared(Px *p, const char *addr, const Type *e) {
    if (e->kind == TY_INT && e->width == 1) {
        Slot r = px_reg(p, RC_B32);
        px_ins(p, "ld.shared.u8", px_rname(p, r), addr, NULL, NULL);
        return px_cse(p, RC_PRED, "setp.ne.s32", px_rname(p, r), "0", NULL);
    }
    RegClass rc = px_rc(e);
    Slot r = px_reg(p, rc);
    const char *op;
    if (e->kind == TY_INT && e->width == 8) op = "ld.shared.s8";
    else if (e->kind == TY_INT && e->width == 16) op = "ld.shared.s16";
    else {
        int b = px_bits(e);
        op = b == 8 ? "ld.shared.b8" : b == 16 ? "ld.shared.b16" : b == 64 ? "ld.shared.b64" : "ld.shared.b32";
    }
    px_ins(p, op, px_rname(p, r), addr, NULL, NULL);
    return r;
}

const char *px_smem_addr(Px *p, Slot index, int esize, int64_t extra) { return smem_addr(p, index, esize, extra); }
Slot px_smem_at(Px *p, Slot index, int esize, int64_t extra, int64_t *off) {
    return smem_at(p, index, esize, extra, off);
}

static bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static void row_major(const Type *t, int64_t *strides) {
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; d--) {
        strides[d] = s;
        s *= t->shape[d];
    }
}

/* ---- layout conversion --------------------------------------------------- */

/* Elements a thread moves at once through row-major shared memory: its run
 * along the last dimension, when that is its layout's fastest, up to 16
 * bytes; only 16- and 32-bit floats and 32-bit integers (16-bit elements
 * travel in pairs, one word). The run starts at a multiple of its length
 * and rows are whole multiples of it, so the vector is aligned. */
static int relayout_vec(const Dist *d, const Type *e) {
    bool ok = (e->kind == TY_FLOAT && (e->width == 16 || e->width == 32)) || (e->kind == TY_INT && e->width == 32);
    int last = d->rank - 1;
    if (!ok || d->order[0] != last) return 1;
    int run = d->spt[last] < d->shape[last] ? d->spt[last] : (int)d->shape[last];
    int max = 128 / e->width;
    return run < max ? run : max;
}

/* The vector head after slot i (a head): vec further along a run of `fast`
 * slots, or the next run's first. */
static inline int next_head(int i, int fast, int vec) {
    int j = i % fast + vec;
    return j < fast ? i + vec : i - i % fast + fast;
}

/* A side's thread part in shared memory, lb ^ swz(lb) (cvt_plan.h), for
 * the plan's side k (NULL: lb, plain strides): the terms that reach bits
 * lb may have, one shift, mask and XOR each. */
static Slot swz_base(Px *p, Slot lb, const CvtPlan *z, int k) {
    if (!z || lb.kind != SLOT_REG) return lb;
    Slot acc = lb;
    PxArg a = px_arg_reg(p, lb);
    for (int t = 0; t < z->nterms; t++) {
        if (!((z->mask[t] << z->shift[t]) & z->tbits[k])) continue;
        Slot sh = px_cse2(p, RC_B32, "shr.u32", a, px_arg_int(p, z->shift[t]));
        Slot m = px_cse2(p, RC_B32, "and.b32", px_arg_reg(p, sh), px_arg_int(p, z->mask[t]));
        acc = px_cse2(p, RC_B32, "xor.b32", px_arg_reg(p, acc), px_arg_reg(p, m));
    }
    return acc;
}

/* The address of vector head i, a register and a constant (*off): on the
 * plain strides, of its index lb + loff[i]; swizzled, of offset(thread
 * part) ^ offset(loff[i]) (lb: the first, swz_base): the bits the thread
 * part may have by an XOR of the register, one per pattern (px_cse's),
 * the others in the constant. The patterns are bits of a 128-byte line
 * (cvt_plan.h), so the XOR goes on the address itself, from a 128-byte
 * aligned base. A head's offset may have bits inside its vector (vec
 * elements; the image of a slot bit there): its element k is then at
 * place k ^ *xv. */
static inline Slot swz_at(Px *p, Slot lb, const int64_t *loff, int i, const CvtPlan *z, int k, int es, int vec,
                          int *xv, int64_t *off) {
    *xv = 0;
    if (!z) return smem_at(p, px_linear_at(lb, loff, i), es, 0, off);
    int64_t c = cvt_offset(z, loff[i]);
    *xv = (int)(c & (vec - 1));
    c &= ~(int64_t)(vec - 1);
    if (lb.kind != SLOT_REG) return smem_at(p, px_imm_int(c, RC_B32), es, 0, off);
    int64_t x = c & z->tmask[k];
    Slot a = smem_at(p, lb, es, (c & ~z->tmask[k]) * es, off);
    if (x) {
        p->smem_align128 = true;
        a = px_cse2(p, RC_B32, "xor.b32", px_arg_reg(p, a), px_arg_int(p, x * es));
    }
    return a;
}

/* Writes (reads) tile t's slots at their row-major indices, vec at a time.
 * A vector's elements are consecutive slots: its dimension (the last) is
 * the layout's fastest, counted first (relayout_vec), and a vector starts
 * where j along it is a multiple of vec. kept: the indices' entry, as
 * px_linear_indices_kept keeps it (NULL: looked up). z: the swizzle and
 * this side's number in it, 0 the stores' (NULL: the strides as they are). */
static void relayout_put(Px *p, Tile *t, const Dist *d, const int64_t *strides, const Type *e,
                         struct PxLinear **kept, const CvtPlan *z) {
    static const PxText st_op[] = {PX_LIT(""), PX_LIT("st.shared.b32"), PX_LIT("st.shared.v2.b32"), PX_LIT(""),
                                   PX_LIT("st.shared.v4.b32")};
    int es = elem_bytes(e), vec = relayout_vec(d, e), nwords = vec * es / 4, fast = d->per_dim[d->rank - 1];
    Slot lb;
    const int64_t *loff = px_linear_indices_kept(p, d, strides, kept, &lb);
    lb = swz_base(p, lb, z, 0);
    for (int i = 0; i < d->nslots; i = next_head(i, fast, vec)) {
        int64_t off;
        int xv;
        Slot base = swz_at(p, lb, loff, i, z, 0, es, vec, &xv, &off);
        if (vec == 1) {
            st_shared_at(p, base, off, t->s[i], e);
            continue;
        }
        Slot w[4];
        for (int k = 0; k < nwords; k++) {
            if (es == 2) {
                Slot lo = px_mat(p, t->s[i + ((2 * k) ^ xv)], e), hi = px_mat(p, t->s[i + ((2 * k + 1) ^ xv)], e);
                w[k] = px_pack2(p, lo, hi);
            } else {
                w[k] = px_mat(p, t->s[i + (k ^ xv)], e);
            }
        }
        px_st_regs(p, st_op[nwords], base, off, w, nwords);
    }
}

static Tile *relayout_get(Px *p, const Dist *d, const int64_t *strides, const Type *e, struct PxLinear **kept,
                          const CvtPlan *z) {
    static const PxText ld_op[] = {PX_LIT(""), PX_LIT("ld.shared.b32"), PX_LIT("ld.shared.v2.b32"), PX_LIT(""),
                                   PX_LIT("ld.shared.v4.b32")};
    Tile *t = px_new_tile(p, d->nslots);
    int es = elem_bytes(e), vec = relayout_vec(d, e), nwords = vec * es / 4, fast = d->per_dim[d->rank - 1];
    Slot lb;
    const int64_t *loff = px_linear_indices_kept(p, d, strides, kept, &lb);
    lb = swz_base(p, lb, z, 1);
    for (int i = 0; i < d->nslots; i = next_head(i, fast, vec)) {
        int64_t off;
        int xv;
        Slot base = swz_at(p, lb, loff, i, z, 1, es, vec, &xv, &off);
        if (vec == 1) {
            t->s[i] = ld_shared_at(p, base, off, e);
            continue;
        }
        Slot words[4];
        for (int k = 0; k < nwords; k++) words[k] = px_reg(p, es == 2 ? RC_B32 : px_rc(e));
        px_ld_regs(p, ld_op[nwords], words, nwords, base, off);
        for (int k = 0; k < nwords; k++) {
            if (es == 4) {
                t->s[i + (k ^ xv)] = words[k];
                continue;
            }
            Slot lo = px_reg(p, RC_B16), hi = px_reg(p, RC_B16);
            px_unpack2(p, lo, hi, words[k]);
            t->s[i + ((2 * k) ^ xv)] = lo;
            t->s[i + ((2 * k + 1) ^ xv)] = hi;
        }
    }
    return t;
}

/* The swizzle of a conversion from ds (strides ss) to dd (sd) in shared
 * memory (cvt_plan.h), of numel elements e; false: none (a count that is
 * not a power of two, or TRITONC_CVT_SWIZZLE=0). */
static bool relayout_swizzle(CvtPlan *z, const Dist *ds, const int64_t *ss, const Dist *dd, const int64_t *sd,
                             const Type *e, int64_t numel) {
    if (!cvt_swizzle_on()) return false;
    CvtSide src = {ds, ss, relayout_vec(ds, e)}, dst = {dd, sd, relayout_vec(dd, e)};
    return cvt_plan(z, &src, &dst, elem_bytes(e), numel);
}

/* Row-major strides for a conversion's shared memory, each row of the last
 * dimension padded by the wider of the two sides' vectors (Triton's padded
 * scratch layout): without it a side whose lanes walk across rows (a
 * transposed order, or fewer elements per lane along the row than the other
 * side) finds every row at the same banks, 4- to 32-way conflicts; with it
 * consecutive rows start that many elements further round the banks. The
 * pad keeps each row aligned for either side's vector. Returns the elements
 * the layout spans. */
static int64_t relayout_strides(const Type *t, const Dist *ds, const Dist *dd, const Type *e, int64_t *strides) {
    int last = t->rank - 1, vs = relayout_vec(ds, e), vd = relayout_vec(dd, e);
    int64_t s = 1;
    for (int d = last; d >= 0; d--) {
        strides[d] = s;
        s *= t->shape[d] + (d == last && last > 0 ? (vs > vd ? vs : vd) : 0);
    }
    return s;
}

/* When ds and dd put every element in the same thread: the slot of ds
 * that holds each slot of dd's element (a permutation, in the arena);
 * else NULL. */
static const int *same_thread_slots(Px *p, const Dist *ds, const Dist *dd) {
    if (!dist_same_threads(ds, dd)) return NULL;
    int *src = ARENA_ARRAY(p->ctx->arena, int, dd->nslots > 0 ? dd->nslots : 1);
    for (int i = 0; i < dd->nslots; i++) {
        int j[TTG_MAX_RANK], js[TTG_MAX_RANK];
        dist_slot_j(dd, i, j);
        for (int d = 0; d < dd->rank; d++) js[d] = dist_j_of_const(ds, d, dist_const(dd, d, j[d]));
        src[i] = dist_slot_of_j(ds, js);
    }
    return src;
}

/* The conversions of a kernel, by their two types (interned: equal types,
 * equal Dists): whether the threads agree, and the permutation when they
 * do, worked out once per pair (a loop's conversions come back); the two
 * sides' linear index entries, kept at the first conversion through
 * shared memory (see px_linear_indices_kept). */
typedef struct PxConvert {
    const Type *from, *to;
    const int *perm;
    struct PxLinear *put, *get;
    int8_t swizzled; /* -1: not yet asked; 0: padded rows; 1: plan */
    CvtPlan plan;
    struct PxConvert *next;
} PxConvert;

/* Tile x of type `from` (elements laid out by ds) laid out by dd instead,
 * given what same_thread_slots said of ds and dd (perm: the slots moved;
 * NULL: through shared memory, swizzled or padded, see relayout_swizzle);
 * c: the conversion's entry, if it has one (the plan kept there). */
static Tile *relayout_by(Px *p, Tile *x, const Type *from, const Dist *ds, const Dist *dd, const int *perm,
                         PxConvert *c) {
    Tile *out = px_new_tile(p, dd->nslots);
    const Type *e = ty_elem((Type *)from);
    if (perm) {
        for (int i = 0; i < dd->nslots; i++) out->s[i] = x->s[perm[i]];
        return out;
    }
    int64_t strides[TTG_MAX_RANK], numel = ty_numel((Type *)from);
    CvtPlan own, *z = c ? &c->plan : &own;
    row_major(from, strides);
    bool swz = c && c->swizzled >= 0 ? c->swizzled : relayout_swizzle(z, ds, strides, dd, strides, e, numel);
    if (c) c->swizzled = swz;
    if (!swz) numel = relayout_strides(from, ds, dd, e, strides);
    smem_begin(p, numel * elem_bytes(e));
    relayout_put(p, x, ds, strides, e, c ? &c->put : NULL, swz ? z : NULL);
    px_barrier(p);
    return relayout_get(p, dd, strides, e, c ? &c->get : NULL, swz ? z : NULL);
}

static Tile *relayout_dists(Px *p, Tile *x, const Type *from, const Dist *ds, const Dist *dd) {
    return relayout_by(p, x, from, ds, dd, same_thread_slots(p, ds, dd), NULL);
}

Tile *px_relayout(Px *p, Tile *x, const Type *from, const Type *to) {
    const Dist *ds = px_dist_of(p, from), *dd = px_dist_of(p, to);
    if (!ds || !dd) {
        px_fail(p, NULL, "layout conversion without layouts");
        return x;
    }
    PxConvert *c = p->converts;
    while (c && (c->from != from || c->to != to)) c = c->next;
    if (!c) {
        c = ARENA_NEW(p->ctx->arena, PxConvert);
        *c = (PxConvert){.from = from, .to = to, .perm = same_thread_slots(p, ds, dd), .swizzled = -1,
                         .next = p->converts};
        p->converts = c;
    }
    return relayout_by(p, x, from, ds, dd, c->perm, c);
}

/* The Dist d of a tt.trans result (its dimension k is the operand's ord[k])
 * seen in the operand's dimensions: every per-dimension field moved back to
 * the operand's dimension. Its slots count as d's do (the same j in the same
 * order), so a tile laid out by it is the result's tile as it stands. */
static Dist dist_unpermuted(const Dist *d, const int64_t *ord) {
    Dist u = *d;
    for (int k = 0; k < d->rank; k++) {
        int x = (int)ord[k];
        u.shape[x] = d->shape[k];
        u.spt[x] = d->spt[k];
        u.tpw[x] = d->tpw[k];
        u.wpc[x] = d->wpc[k];
        u.lane_stride[x] = d->lane_stride[k];
        u.warp_stride[x] = d->warp_stride[k];
        u.reps[x] = d->reps[k];
        u.tile[x] = d->tile[k];
        u.per_dim[x] = d->per_dim[k];
        u.order[k] = (int)ord[d->order[k]];
    }
    return u;
}

void px_lower_convert(Px *p, Op *op) {
    Value *x = op_operand(op, 0), *r = op_result(op, 0);
    px_bind(p, r, px_relayout(p, px_tile(p, x), x->type, r->type));
}

/* ---- reduction ----------------------------------------------------------- */

/* Lowers the combine region of op on scalars: out[k] = combine(acc, x). */
/* The common combine region, one element-wise op of the two arguments
 * whose result is returned (max, add, ...): lowered on the slots directly,
 * without binding a tile to each argument (a reduction combines hundreds
 * of times). */
static bool combine_one_op(Px *p, Op *op, Block *b, int k, const Slot *acc, const Slot *x, Slot *out) {
    if (p->combine_memo.op != op) { /* (the region's form, worked out once per op) */
        p->combine_memo.op = op;
        p->combine_memo.one = NULL;
        Op *o = b->first, *ret = o ? o->next : NULL;
        if (k != 1 || !ret || ret->next || !px_is_slotwise(o) || o->noperands != 2 || o->nresults != 1 ||
            ret->noperands != 1 || op_operand(ret, 0) != op_result(o, 0))
            return false;
        for (int i = 0; i < 2; i++) {
            Value *v = op_operand(o, i);
            if (v == b->args[0]) p->combine_memo.from_x[i] = false;
            else if (v == b->args[1]) p->combine_memo.from_x[i] = true;
            else return false;
        }
        p->combine_memo.one = o;
        p->combine_memo.re = ty_elem(op_result(o, 0)->type);
    }
    Op *o = p->combine_memo.one;
    if (!o) return false;
    Slot in[2];
    for (int i = 0; i < 2; i++) in[i] = p->combine_memo.from_x[i] ? x[0] : acc[0];
    out[0] = px_ew_planned(p, o, in, p->combine_memo.re);
    return true;
}

static void combine(Px *p, Op *op, int k, Slot *acc, Slot *x, Slot *out) {
    Block *b = op->regions[0].first;
    if (combine_one_op(p, op, b, k, acc, x, out)) return;
    for (int i = 0; i < k; i++) {
        Tile *ta = px_new_tile(p, 1), *tx = px_new_tile(p, 1);
        ta->s[0] = acc[i];
        tx->s[0] = x[i];
        px_bind(p, b->args[i], ta);
        px_bind(p, b->args[k + i], tx);
    }
    px_lower_block(p, b);
    Op *ret = block_terminator(b);
    for (int i = 0; i < k; i++) out[i] = px_tile(p, op_operand(ret, i))->s[0];
}

/* shfl.sync.MODE of v (any register class) from lane operand `b`: "bfly"
 * with a lane xor, "idx" with a source lane (register or immediate). */
/* `shfl.sync.MODE.b32 d, a, b, 31, -1` (op: the opcode and a space). */
static void shfl_line(Px *p, PxText op, Slot d, Slot a, const char *b) {
    size_t bn = strlen(b);
    char *w = px_w_text(px_w_begin(p, op.n + 2 * PX_W_NAME + bn + 16), op.s, op.n);
    w = px_w_name(p, w, d);
    w[0] = ',', w[1] = ' ';
    w = px_w_name(p, w + 2, a);
    w[0] = ',', w[1] = ' ';
    w = px_w_text(w + 2, b, bn);
    memcpy(w, ", 31, -1", 8);
    px_w_end(p, w + 8);
}

static Slot shfl_lanes(Px *p, const char *mode, Slot v, const Type *e, const char *b) {
    RegClass rc = px_rc(e);
    PxText op = mode[0] == 'b' ? PX_LIT("shfl.sync.bfly.b32 ") : PX_LIT("shfl.sync.idx.b32 ");
    if (rc == RC_B32 || rc == RC_F32) {
        Slot r = px_reg(p, rc);
        shfl_line(p, op, r, px_mat(p, v, e), b);
        return r;
    }
    if (rc == RC_B16) {
        Slot u = px_cse(p, RC_B32, "cvt.u32.u16", px_rname(p, px_mat(p, v, e)), NULL, NULL);
        Slot r = px_reg(p, RC_B32);
        shfl_line(p, op, r, u, b);
        return px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, r), NULL, NULL);
    }
    if (rc == RC_PRED) {
        Slot u = px_cse(p, RC_B32, "selp.u32", "1", "0", px_rname(p, px_mat(p, v, e)));
        Slot r = px_reg(p, RC_B32);
        shfl_line(p, op, r, u, b);
        return px_cse(p, RC_PRED, "setp.ne.s32", px_rname(p, r), "0", NULL);
    }
    Slot lo = px_reg(p, RC_B32), hi = px_reg(p, RC_B32), lo2 = px_reg(p, RC_B32), hi2 = px_reg(p, RC_B32);
    px_emit(p, "mov.b64 {%s, %s}, %s", px_rname(p, lo), px_rname(p, hi), px_rname(p, px_mat(p, v, e)));
    shfl_line(p, op, lo2, lo, b);
    shfl_line(p, op, hi2, hi, b);
    Slot r = px_reg(p, rc);
    px_emit(p, "mov.b64 %s, {%s, %s}", px_rname(p, r), px_rname(p, lo2), px_rname(p, hi2));
    return r;
}

static Slot shfl_bfly(Px *p, Slot v, const Type *e, int xor) { return shfl_lanes(p, "bfly", v, e, px_int(p, xor)); }

#define MAXK 4

static void st_shared_if(Px *p, Slot pr, const char *addr, Slot v, const Type *e);

/* Whether the combine region is one commutative op of its two arguments
 * (add, max, and, ...): combine(a, b) and combine(b, a) agree to the bit. */
static bool combine_commutes(Op *op) {
    Block *b = op->regions[0].first;
    Op *o = b->first, *ret = o ? o->next : NULL;
    return op->noperands == 1 && ret && !ret->next && o->noperands == 2 && o->nresults == 1 &&
           op_has_flag(o, OPF_COMMUTATIVE) && ret->noperands == 1 && op_operand(ret, 0) == op_result(o, 0) &&
           ((op_operand(o, 0) == b->args[0] && op_operand(o, 1) == b->args[1]) ||
            (op_operand(o, 0) == b->args[1] && op_operand(o, 1) == b->args[0]));
}

void px_lower_reduce(Px *p, Op *op) {
    int k = op->noperands;
    if (k > MAXK) return px_fail(p, op, "reductions of more than %d tiles", MAXK);
    int64_t axis = 0;
    op_attr_int_k(op, AN_AXIS, &axis);
    Value *x0 = op_operand(op, 0);
    Dist d;
    if (!px_dist(p, x0->type, &d)) return px_fail(p, op, "reduce operand without a layout");
    Tile *in[MAXK];
    const Type *et[MAXK];
    for (int i = 0; i < k; i++) {
        in[i] = px_tile(p, op_operand(op, i));
        et[i] = ty_elem(op_operand(op, i)->type);
    }
    bool scalar = op_result(op, 0)->type->kind != TY_TENSOR;
    Dist dr = {0};
    if (!scalar && !px_dist(p, op_result(op, 0)->type, &dr)) return px_fail(p, op, "reduce result without a layout");
    int nres = scalar ? 1 : dr.nslots;
    Slot(*acc)[MAXK] = arena_alloc(p->ctx->arena, sizeof(Slot[MAXK]) * (size_t)nres);
    bool *have = arena_alloc(p->ctx->arena, (size_t)nres);
    /* 1: in-thread, in slot order along the axis: the slots sorted by
     * their j along it (slot order kept within one j), each with its
     * result slot. The coordinates count up slot after slot (the fastest
     * dimension first, as dist_slot_j counts), and a step of j[dd] steps
     * the result slot by mul[dd], dist_slot_of_j's multiplier of the
     * result's dimension (0 along the axis). */
    int nja = d.per_dim[axis];
    int *r_of = ARENA_ARRAY(p->ctx->arena, int, 3 * (size_t)d.nslots + 2 * ((size_t)nja + 1));
    int *ja_of = r_of + d.nslots, *by_ja = ja_of + d.nslots;
    int *ja_at = by_ja + d.nslots, *fill = ja_at + nja + 1; /* ja_at[ja]: where ja's slots start in by_ja */
    int mul[TTG_MAX_RANK] = {0}, j[TTG_MAX_RANK] = {0}, rs = 0;
    if (!scalar)
        for (int kk = 0, m = 1; kk < dr.rank; kk++) {
            int o = dr.order[kk];
            mul[o < axis ? o : o + 1] = m;
            m *= dr.per_dim[o];
        }
    memset(ja_at, 0, sizeof(int) * ((size_t)nja + 1));
    for (int i = 0; i < d.nslots; i++) {
        r_of[i] = rs;
        ja_of[i] = j[axis];
        ja_at[j[axis] + 1]++;
        for (int kk = 0; kk < d.rank; kk++) {
            int dim = d.order[kk];
            rs += mul[dim];
            if (++j[dim] < d.per_dim[dim]) break;
            rs -= mul[dim] * j[dim];
            j[dim] = 0;
        }
    }
    for (int ja = 0; ja < nja; ja++) ja_at[ja + 1] += ja_at[ja];
    memcpy(fill, ja_at, sizeof(int) * ((size_t)nja + 1));
    for (int i = 0; i < d.nslots; i++) by_ja[fill[ja_of[i]]++] = i;
    for (int ja = 0; ja < nja; ja++)
        for (int at = ja_at[ja]; at < ja_at[ja + 1]; at++) {
            int i = by_ja[at];
            int r = r_of[i];
            Slot xs[MAXK];
            for (int q = 0; q < k; q++) xs[q] = in[q]->s[i];
            if (!have[r]) {
                memcpy(acc[r], xs, sizeof xs);
                have[r] = true;
            } else {
                Slot o[MAXK];
                combine(p, op, k, acc[r], xs, o);
                memcpy(acc[r], o, sizeof o);
            }
        }
    /* 2: across lanes, each lane combining its value with its partner's.
     * Unless the combine commutes to the bit, the lanes along the axis end
     * with different results (argmin with tie_break_left=False, a Welford
     * in floats: the order of the elements differs from lane to lane), and
     * copies of one element of the result would disagree: then the group's
     * first lane hands its result to the others (one shfl.idx per value;
     * Triton leaves the order of a reduction unspecified). */
    int nl = dist_lanes(&d, (int)axis);
    for (int m = nl / 2; m >= 1; m /= 2) {
        int xor = m * d.lane_stride[axis];
        for (int r = 0; r < nres; r++) {
            Slot xs[MAXK], o[MAXK];
            for (int q = 0; q < k; q++) xs[q] = shfl_bfly(p, acc[r][q], et[q], xor);
            combine(p, op, k, acc[r], xs, o);
            memcpy(acc[r], o, sizeof o);
        }
    }
    if (nl > 1 && !combine_commutes(op)) {
        int64_t group = (int64_t)(nl - 1) * d.lane_stride[axis];
        const char *src = px_rname(p, px_cse(p, RC_B32, "and.b32", px_rname(p, p->lane), px_int(p, ~group & 31), NULL));
        for (int r = 0; r < nres; r++)
            for (int q = 0; q < k; q++) acc[r][q] = shfl_lanes(p, "idx", acc[r][q], et[q], src);
    }
    /* 3: across warps */
    int nw = dist_warps(&d, (int)axis);
    if (nw > 1) {
        int64_t nelem = scalar ? 1 : ty_numel(op_result(op, 0)->type);
        int64_t offs[MAXK], total = 0;
        for (int q = 0; q < k; q++) {
            offs[q] = total;
            total += ((nelem * nw * elem_bytes(et[q])) + 15) & ~15;
        }
        smem_begin(p, total);
        Slot wa = px_cse(p, RC_B32, "bfe.u32", px_rname(p, p->warp),
                         px_int(p, log2i(d.warp_stride[axis])),
                         px_int(p, log2i(nw)));
        int64_t rstrides[TTG_MAX_RANK];
        if (!scalar) row_major(op_result(op, 0)->type, rstrides);
        /* only the first lane along the axis writes its warp's partial (the
         * lanes along the axis hold one value after step 2: one store is
         * enough, as Triton stores from lane 0) */
        Slot first = {0};
        if (nl > 1)
            first = px_cse(p, RC_PRED, "setp.eq.u32",
                           px_rname(p, px_cse(p, RC_B32, "and.b32", px_rname(p, p->lane),
                                              px_int(p, (int64_t)(nl - 1) * d.lane_stride[axis]), NULL)),
                           "0", NULL);
        /* index = wa * nelem + lin: the result's element fastest, so that the
         * lanes of a warp, which hold neighbouring elements, touch
         * neighbouring words (lin * nw + wa put them nw words apart: nw-way
         * bank conflicts) */
        Slot wn = pow2(nelem) ? px_cse(p, RC_B32, "shl.b32", px_rname(p, wa), px_int(p, log2i(nelem)), NULL)
                              : px_cse(p, RC_B32, "mul.lo.s32", px_rname(p, wa), px_int(p, nelem), NULL);
        Slot *lin = ARENA_ARRAY(p->ctx->arena, Slot, nres);
        for (int r = 0; r < nres; r++) {
            lin[r] = scalar ? px_imm_int(0, RC_B32) : px_linear_index(p, &dr, r, rstrides);
            Slot idx = wn;
            if (lin[r].kind != SLOT_IMM)
                idx = px_cse(p, RC_B32, "add.s32", px_rname(p, (Slot){SLOT_REG, RC_B32, lin[r].reg, {0}}),
                             px_rname(p, wn), NULL);
            idx.off = lin[r].off;
            for (int q = 0; q < k; q++)
                st_shared_if(p, first, smem_addr(p, idx, elem_bytes(et[q]), offs[q]), acc[r][q], et[q]);
        }
        px_barrier(p);
        for (int r = 0; r < nres; r++) {
            for (int w = 0; w < nw; w++) {
                Slot idx = lin[r];
                idx.off += w * nelem;
                Slot xs[MAXK];
                for (int q = 0; q < k; q++) xs[q] = ld_shared(p, smem_addr(p, idx, elem_bytes(et[q]), offs[q]), et[q]);
                if (w == 0) memcpy(acc[r], xs, sizeof xs);
                else {
                    Slot o[MAXK];
                    combine(p, op, k, acc[r], xs, o);
                    memcpy(acc[r], o, sizeof o);
                }
            }
        }
    }
    for (int q = 0; q < k; q++) {
        Tile *t = px_new_tile(p, nres);
        for (int r = 0; r < nres; r++) t->s[r] = acc[r][q];
        px_bind(p, op_result(op, q), t);
    }
}

/* ---- scan ----------------------------------------------------------------- */

/*
 * tt.scan along `axis`, in the steps Triton takes (ScanOpToLLVM.cpp). Along
 * the axis, the element a thread holds in slot j[axis] = r * S + k is at
 *
 *     pos = r * tile + (w * tpw + l) * S + k
 *
 * with k < S its run (spt), l < L and w < W the lane's and the warp's index
 * along the axis (the distinct ones: further lanes and warps hold copies
 * and compute the same values), r < R the repetition of the layout
 * ("chunk"). Scan order is pos order, or its reverse when reverse=True,
 * which is then a forward scan of the reversed sequence (as the CPU
 * backend defines it: out[i] = combine(out[i + 1], x[i])). Below, "before"
 * means earlier in scan order, and a combine is always combine(before,
 * after): the region need not be commutative.
 *
 *   1. in-thread: each chunk's S elements, one after the other;
 *   2. across lanes: Kogge-Stone on each chunk's last value, shfl.sync.up
 *      (.down when reversed) by i lanes for i = 1, 2, 4, ... < L, kept in
 *      the lanes whose index along the axis is at least i (copies of the
 *      layout are whole groups of L lanes, so the source is in the group);
 *      then the thread's other elements take the inclusive value of the
 *      lane before (one more shuffle); the first lane keeps its own;
 *   3. across chunks and warps: with one warp along the axis, chunk after
 *      chunk takes the running total from the last lane (shfl.sync.idx of
 *      the previous chunk's last element), without shared memory; with W > 1,
 *      the last lane of each warp writes its chunk totals to shared memory,
 *      smem[(r * W + w) * M + row] (row: the coordinate off the axis, row
 *      major, M of them), one bar.sync, and each thread combines, in scan
 *      order, the totals before its own (chunk, warp) and applies them to its
 *      elements. The row is the fastest index so that the lanes of a warp,
 *      which hold neighbouring rows, touch neighbouring words: with the row
 *      outermost, lanes R * W words apart fell into the same banks (16-way
 *      conflicts on a 32x64 axis-0 cumsum, 1.3x slower than Triton).
 *
 * A layout whose extent, spt, tpw or wpc along the axis is not a power of
 * two takes Hillis-Steele through shared memory instead (scan_smem).
 */

typedef struct ScanPlan {
    Op *op;
    int k;                 /* operands */
    const Type *et[MAXK];
    bool rev;
    int S, R, L, W;        /* run, chunks, lanes and warps along the axis */
    int per_row;           /* S * R: a thread's elements of one row */
    int nrows;             /* a thread's rows */
    int *slot;             /* slot[row * per_row + j]: the slot of j[axis] = j */
    Slot (*cur)[MAXK];     /* per slot, the operands' values */
} ScanPlan;

/* The values of a row's v-th element in scan order. */
static Slot *scan_at(const ScanPlan *s, int row, int v) {
    int j = s->rev ? s->per_row - 1 - v : v;
    return s->cur[s->slot[row * s->per_row + j]];
}

/* pr ? a : b (a where pr is NONE). */
static Slot scan_sel(Px *p, Slot pr, Slot a, Slot b, const Type *e) {
    if (pr.kind == SLOT_NONE) return a;
    RegClass rc = px_rc(e);
    const char *an = px_rname(p, px_mat(p, a, e)), *bn = px_rname(p, px_mat(p, b, e));
    Slot r = px_reg(p, rc);
    if (rc == RC_PRED) {
        px_emit(p, "mov.pred %s, %s", px_rname(p, r), bn);
        px_emit(p, "@%s mov.pred %s, %s", px_rname(p, pr), px_rname(p, r), an);
        return r;
    }
    static const char *const sel[RC_COUNT] = {"", "selp.b16", "selp.b32", "selp.b64", "selp.f32", "selp.f64"};
    px_emit(p, "%s %s, %s, %s, %s", sel[rc], px_rname(p, r), an, bn, px_rname(p, pr));
    return r;
}

/* x = combine(a, x) where pr holds (everywhere when pr is NONE). */
static void scan_apply(Px *p, const ScanPlan *s, Slot pr, const Slot *a, Slot *x) {
    Slot acc[MAXK], o[MAXK];
    memcpy(acc, a, sizeof acc);
    combine(p, s->op, s->k, acc, x, o);
    for (int q = 0; q < s->k; q++) x[q] = scan_sel(p, pr, o[q], x[q], s->et[q]);
}

static void shfl32(Px *p, const char *mode, Slot d, Slot a, const char *b, const char *c) {
    px_emit(p, "shfl.sync.%s.b32 %s, %s, %s, %s, -1", mode, px_rname(p, d), px_rname(p, a), b, c);
}

/* shfl.sync.MODE of a value of any element type: 16-bit values and
 * predicates widened to 32 bits, 64-bit ones in two halves. b is the lane
 * or the lane offset, c the clamp operand. */
static Slot scan_shfl(Px *p, const char *mode, Slot v, const Type *e, const char *b, const char *c) {
    RegClass rc = px_rc(e);
    Slot vm = px_mat(p, v, e);
    const char *vn = px_rname(p, vm);
    if (rc == RC_B32 || rc == RC_F32) {
        Slot r = px_reg(p, rc);
        shfl32(p, mode, r, vm, b, c);
        return r;
    }
    if (rc == RC_B16 || rc == RC_PRED) {
        Slot u = rc == RC_B16 ? px_cse(p, RC_B32, "cvt.u32.u16", vn, NULL, NULL)
                              : px_cse(p, RC_B32, "selp.u32", "1", "0", vn);
        Slot r = px_reg(p, RC_B32);
        shfl32(p, mode, r, u, b, c);
        return rc == RC_B16 ? px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, r), NULL, NULL)
                            : px_cse(p, RC_PRED, "setp.ne.s32", px_rname(p, r), "0", NULL);
    }
    Slot lo = px_reg(p, RC_B32), hi = px_reg(p, RC_B32), lo2 = px_reg(p, RC_B32), hi2 = px_reg(p, RC_B32);
    px_emit(p, "mov.b64 {%s, %s}, %s", px_rname(p, lo), px_rname(p, hi), vn);
    shfl32(p, mode, lo2, lo, b, c);
    shfl32(p, mode, hi2, hi, b, c);
    Slot r = px_reg(p, rc);
    px_emit(p, "mov.b64 %s, {%s, %s}", px_rname(p, r), px_rname(p, lo2), px_rname(p, hi2));
    return r;
}

/* st.shared where pr holds (everywhere when pr is NONE). */
static void st_shared_if(Px *p, Slot pr, const char *addr, Slot v, const Type *e) {
    if (pr.kind == SLOT_NONE) return st_shared(p, addr, v, e);
    int b = px_bits(e);
    if (e->kind == TY_INT && e->width == 1) {
        v = px_cast(p, v, e, p->i32, false, 0);
        e = p->i32;
    }
    const char *opc = b == 8 ? "st.shared.b8 " : b == 16 ? "st.shared.b16 " : b == 64 ? "st.shared.b64 " : "st.shared.b32 ";
    px_line(p, "@", px_rname(p, pr), " ", opc, addr, ", ", px_rname(p, px_mat(p, v, e)), NULL);
}

static Slot cmp_u32(Px *p, const char *cmp, Slot a, int64_t v) {
    return px_cse(p, RC_PRED, cmp, px_rname(p, a), px_int(p, v), NULL);
}

/* Steps 1 and 2: each chunk of each row scanned across the warp's lanes. */
static void scan_warp(Px *p, const ScanPlan *s, Slot la, int lane_stride) {
    for (int row = 0; row < s->nrows; row++)
        for (int r = 0; r < s->R; r++) {
            int v0 = r * s->S, last = v0 + s->S - 1;
            for (int v = v0 + 1; v <= last; v++) scan_apply(p, s, (Slot){0}, scan_at(s, row, v - 1), scan_at(s, row, v));
            if (s->L == 1) continue;
            const char *mode = s->rev ? "down" : "up", *clamp = s->rev ? "31" : "0";
            Slot *t = scan_at(s, row, last), y[MAXK];
            for (int i = 1; i < s->L; i *= 2) {
                /* the lane i before along the axis exists */
                Slot pr = s->rev ? cmp_u32(p, "setp.lt.u32", la, s->L - i) : cmp_u32(p, "setp.ge.u32", la, i);
                for (int q = 0; q < s->k; q++) y[q] = scan_shfl(p, mode, t[q], s->et[q], px_int(p, (int64_t)i * lane_stride), clamp);
                scan_apply(p, s, pr, y, t);
            }
            if (s->S == 1) continue;
            /* t is the inclusive value here; the lane before's is the
             * exclusive prefix of the other elements */
            Slot pr = s->rev ? cmp_u32(p, "setp.lt.u32", la, s->L - 1) : cmp_u32(p, "setp.ge.u32", la, 1);
            for (int q = 0; q < s->k; q++) y[q] = scan_shfl(p, mode, t[q], s->et[q], px_int(p, lane_stride), clamp);
            for (int v = v0; v < last; v++) scan_apply(p, s, pr, y, scan_at(s, row, v));
        }
}

/* Step 3 with one warp along the axis: chunk r + 1 is combined with the
 * last element of chunk r, read from the last lane along the axis. */
static void scan_chunks_in_warp(Px *p, const ScanPlan *s, int lane_stride) {
    const char *src = NULL;
    if (s->L > 1) {
        int sh = log2i(lane_stride);
        unsigned mask = (unsigned)(s->L - 1) << sh;
        Slot t = px_cse(p, RC_B32, "and.b32", px_rname(p, p->lane), px_int(p, (int64_t)(~mask & 31u)), NULL);
        if (!s->rev) t = px_cse(p, RC_B32, "or.b32", px_rname(p, t), px_int(p, (int64_t)mask), NULL);
        src = px_rname(p, t);
    }
    for (int row = 0; row < s->nrows; row++)
        for (int r = 1; r < s->R; r++) {
            Slot carry[MAXK], *prev = scan_at(s, row, r * s->S - 1);
            for (int q = 0; q < s->k; q++) carry[q] = src ? scan_shfl(p, "idx", prev[q], s->et[q], src, "31") : prev[q];
            for (int v = r * s->S; v < (r + 1) * s->S; v++) scan_apply(p, s, (Slot){0}, carry, scan_at(s, row, v));
        }
}

/* Step 3 with W > 1 warps along the axis, through shared memory. */
static void scan_across_warps(Px *p, const ScanPlan *s, const Dist *d, int axis, Slot la) {
    int R = s->R, W = s->W;
    Slot wa = px_cse(p, RC_B32, "bfe.u32", px_rname(p, p->warp), px_int(p, log2i(d->warp_stride[axis])), px_int(p, log2i(W)));
    /* smem index of (row, chunk r, warp w): (r * W + w) * M + row */
    int64_t rs[TTG_MAX_RANK], M = 1;
    for (int dim = d->rank - 1; dim >= 0; dim--) {
        rs[dim] = dim == axis ? 0 : M;
        if (dim != axis) M *= d->shape[dim];
    }
    int64_t offs[MAXK], total = 0;
    for (int q = 0; q < s->k; q++) {
        offs[q] = total;
        total += (M * R * W * elem_bytes(s->et[q]) + 15) & ~15;
    }
    /* this thread's warp's place: w * M */
    Slot wm = pow2(M) ? px_cse(p, RC_B32, "shl.b32", px_rname(p, wa), px_int(p, log2i(M)), NULL)
                      : px_cse(p, RC_B32, "mul.lo.s32", px_rname(p, wa), px_int(p, M), NULL);
    smem_begin(p, total);
    /* the last lane along the axis writes its warp's chunk totals */
    Slot last = s->L == 1 ? (Slot){0} : cmp_u32(p, "setp.eq.u32", la, s->rev ? 0 : s->L - 1);
    Slot *base = ARENA_ARRAY(p->ctx->arena, Slot, s->nrows);
    for (int row = 0; row < s->nrows; row++) {
        base[row] = px_linear_index(p, d, s->slot[row * s->per_row], rs);
        Slot idx = wm;
        idx.off = base[row].off;
        if (base[row].kind == SLOT_REG) {
            idx = px_cse(p, RC_B32, "add.s32", px_rname(p, (Slot){SLOT_REG, RC_B32, base[row].reg, {0}}), px_rname(p, wm), NULL);
            idx.off = base[row].off;
        }
        for (int r = 0; r < R; r++) {
            int64_t pr = s->rev ? R - 1 - r : r;
            Slot *t = scan_at(s, row, r * s->S + s->S - 1);
            for (int q = 0; q < s->k; q++) {
                const char *addr = smem_addr(p, idx, elem_bytes(s->et[q]), offs[q] + pr * W * M * elem_bytes(s->et[q]));
                st_shared_if(p, last, addr, t[q], s->et[q]);
            }
        }
    }
    px_barrier(p);
    /* per row, in scan order: `all` the totals so far, `pre` the ones
     * before this thread's warp in the current chunk */
    int w_first = s->rev ? W - 1 : 0;
    Slot not_first = cmp_u32(p, "setp.ne.u32", wa, w_first);
    for (int row = 0; row < s->nrows; row++) {
        Slot all[MAXK], pre[MAXK];
        bool have_all = false;
        for (int r = 0; r < R; r++) {
            int64_t pr = s->rev ? R - 1 - r : r;
            bool have_pre = false;
            for (int w = 0; w < W; w++) {
                int64_t pw = s->rev ? W - 1 - w : w;
                if (have_all) {
                    Slot here = have_pre ? cmp_u32(p, "setp.eq.u32", wa, pw) : (Slot){0};
                    for (int q = 0; q < s->k; q++) pre[q] = scan_sel(p, here, all[q], pre[q], s->et[q]);
                    have_pre = true;
                }
                if (r == R - 1 && w == W - 1) break; /* the total of everything is not needed */
                Slot tot[MAXK];
                for (int q = 0; q < s->k; q++) {
                    int es = elem_bytes(s->et[q]);
                    Slot idx = base[row];
                    idx.off += (pr * W + pw) * M;
                    tot[q] = ld_shared(p, smem_addr(p, idx, es, offs[q]), s->et[q]);
                }
                if (have_all) scan_apply(p, s, (Slot){0}, all, tot);
                memcpy(all, tot, sizeof all);
                have_all = true;
            }
            /* the first warp of the first chunk has nothing before it */
            for (int v = r * s->S; v < (r + 1) * s->S; v++)
                scan_apply(p, s, r == 0 ? not_first : (Slot){0}, pre, scan_at(s, row, v));
        }
    }
}

/* Whether the scan takes the shuffles (else Hillis-Steele). */
static bool scan_by_shuffles(const Dist *d, int axis) {
    return pow2(d->shape[axis]) && pow2(d->spt[axis]) && pow2(d->tpw[axis]) && pow2(d->wpc[axis]);
}

static void scan_shuffled(Px *p, Op *op, int k, const Type **et, bool rev, const Dist *d, int axis, Slot (*cur)[MAXK]) {
    ScanPlan s = {.op = op, .k = k, .rev = rev, .cur = cur};
    memcpy(s.et, et, sizeof(const Type *) * (size_t)k);
    s.R = d->reps[axis];
    s.S = d->per_dim[axis] / s.R;
    s.L = dist_lanes(d, axis);
    s.W = dist_warps(d, axis);
    s.per_row = d->per_dim[axis];
    s.nrows = d->nslots / s.per_row;
    s.slot = ARENA_ARRAY(p->ctx->arena, int, d->nslots);
    for (int i = 0, row = 0; i < d->nslots; i++) {
        int j[TTG_MAX_RANK];
        dist_slot_j(d, i, j);
        if (j[axis] != 0) continue;
        for (int ja = 0; ja < s.per_row; ja++) {
            j[axis] = ja;
            s.slot[row * s.per_row + ja] = dist_slot_of_j(d, j);
        }
        row++;
    }
    int ls = d->lane_stride[axis];
    Slot la = {0};
    if (s.L > 1) la = px_cse(p, RC_B32, "bfe.u32", px_rname(p, p->lane), px_int(p, log2i(ls)), px_int(p, log2i(s.L)));
    scan_warp(p, &s, la, ls);
    if (s.W > 1) scan_across_warps(p, &s, d, axis, la);
    else if (s.R > 1) scan_chunks_in_warp(p, &s, ls);
}

/* Hillis-Steele in shared memory (layouts the shuffles do not take): every
 * operand goes to smem row-major; then for d = 1, 2, 4, ... < n (n the
 * extent along the axis) each thread reads, for each of its elements at
 * position i >= d, the element at i - d (i + d when reversed), combines
 * (earlier element first) and writes the result back after a barrier. The
 * values stay in registers; threads holding copies of an element compute
 * and write the same value. */
static void scan_smem(Px *p, Op *op, int k, const Type **et, bool rev, const Dist *d, int axis, Slot (*cur)[MAXK]) {
    Value *x0 = op_operand(op, 0);
    int64_t n = x0->type->shape[axis];
    int64_t offs[MAXK], total = 0;
    int64_t numel = ty_numel(x0->type);
    for (int q = 0; q < k; q++) {
        offs[q] = total;
        total += (numel * elem_bytes(et[q]) + 15) & ~15;
    }
    int64_t strides[TTG_MAX_RANK];
    row_major(x0->type, strides);
    smem_begin(p, total);
    Slot *lin = ARENA_ARRAY(p->ctx->arena, Slot, d->nslots);
    Slot *pos = ARENA_ARRAY(p->ctx->arena, Slot, d->nslots);
    Slot tpa = px_thread_part(p, d, axis);
    for (int i = 0; i < d->nslots; i++) {
        int j[TTG_MAX_RANK];
        dist_slot_j(d, i, j);
        lin[i] = px_linear_index(p, d, i, strides);
        pos[i] = tpa;
        pos[i].off = dist_const(d, axis, j[axis]);
    }
    for (int i = 0; i < d->nslots; i++)
        for (int q = 0; q < k; q++)
            st_shared(p, smem_addr(p, lin[i], elem_bytes(et[q]), offs[q]), cur[i][q], et[q]);
    Type *i32 = p->i32;
    for (int64_t dd = 1; dd < n; dd *= 2) {
        px_barrier(p);
        Slot(*nxt)[MAXK] = arena_alloc(p->ctx->arena, sizeof(Slot[MAXK]) * (size_t)d->nslots);
        for (int i = 0; i < d->nslots; i++) {
            /* has a partner: pos >= dd (pos + dd < n when reversed) */
            Slot pr;
            const char *ps = px_opnd(p, pos[i], i32);
            if (!rev) pr = px_cse(p, RC_PRED, "setp.ge.s32", ps, px_int(p, dd), NULL);
            else pr = px_cse(p, RC_PRED, "setp.lt.s32", ps, px_int(p, (n - dd)), NULL);
            Slot nb[MAXK];
            int64_t delta = (rev ? dd : -dd) * strides[axis];
            for (int q = 0; q < k; q++) {
                Slot idx = lin[i];
                idx.off += delta;
                const char *addr = smem_addr(p, idx, elem_bytes(et[q]), offs[q]);
                const Type *e = et[q];
                if (e->kind == TY_INT && e->width == 1) {
                    Slot r = px_reg(p, RC_B32);
                    px_emit(p, "mov.u32 %s, 0", px_rname(p, r));
                    px_emit(p, "@%s ld.shared.u8 %s, %s", px_rname(p, pr), px_rname(p, r), addr);
                    nb[q] = px_cse(p, RC_PRED, "setp.ne.s32", px_rname(p, r), "0", NULL);
                } else {
                    const char *ty = st_type(e);
                    if (e->kind == TY_INT && e->width == 8) ty = "s8";
                    else if (e->kind == TY_INT && e->width == 16) ty = "s16";
                    Slot r = px_reg(p, px_rc(e));
                    /* defined on every path (ptxas warns otherwise) */
                    px_emit(p, "mov.b%d %s, 0", px_rc(e) == RC_B64 || px_rc(e) == RC_F64 ? 64 : px_rc(e) == RC_B16 ? 16 : 32,
                            px_rname(p, r));
                    px_emit(p, "@%s ld.shared.%s %s, %s", px_rname(p, pr), ty, px_rname(p, r), addr);
                    nb[q] = r;
                }
            }
            Slot o[MAXK];
            combine(p, op, k, nb, cur[i], o);
            for (int q = 0; q < k; q++) nxt[i][q] = scan_sel(p, pr, o[q], cur[i][q], et[q]);
        }
        for (int i = 0; i < d->nslots; i++) memcpy(cur[i], nxt[i], sizeof nxt[i]);
        if (dd * 2 < n) {
            px_barrier(p);
            for (int i = 0; i < d->nslots; i++)
                for (int q = 0; q < k; q++)
                    st_shared(p, smem_addr(p, lin[i], elem_bytes(et[q]), offs[q]), cur[i][q], et[q]);
        }
    }
}

void px_lower_scan(Px *p, Op *op) {
    int k = op->noperands;
    if (k > MAXK) return px_fail(p, op, "scans of more than %d tiles", MAXK);
    int64_t axis = 0, rev = 0;
    op_attr_int_k(op, AN_AXIS, &axis);
    Attr *ra = op_attr_k(op, AN_REVERSE);
    if (ra && ra->kind == ATTR_BOOL) rev = ra->b;
    else if (ra && ra->kind == ATTR_UNIT) rev = 1;
    else op_attr_int_k(op, AN_REVERSE, &rev);
    Value *x0 = op_operand(op, 0);
    Dist d;
    if (!px_dist(p, x0->type, &d)) return px_fail(p, op, "scan operand without a layout");
    if (axis < 0 || axis >= d.rank) return px_fail(p, op, "scan axis out of range");
    const Type *et[MAXK];
    Slot(*cur)[MAXK] = arena_alloc(p->ctx->arena, sizeof(Slot[MAXK]) * (size_t)d.nslots);
    for (int q = 0; q < k; q++) {
        Tile *in = px_tile(p, op_operand(op, q));
        et[q] = ty_elem(op_operand(op, q)->type);
        for (int i = 0; i < d.nslots; i++) cur[i][q] = in->s[i];
    }
    if (x0->type->shape[axis] > 1) {
        if (scan_by_shuffles(&d, (int)axis)) scan_shuffled(p, op, k, et, rev, &d, (int)axis, cur);
        else scan_smem(p, op, k, et, rev, &d, (int)axis, cur);
    }
    for (int q = 0; q < k; q++) {
        Tile *t = px_new_tile(p, d.nslots);
        for (int i = 0; i < d.nslots; i++) t->s[i] = cur[i][q];
        px_bind(p, op_result(op, q), t);
    }
}

/* ---- shape ops: reshape, trans, join, split, cat ------------------------- */

/* Writes tile x (Dist d) to smem: element with coordinate c goes to index
 * off + sum c[dim] * strides[dim]. */
static void smem_put(Px *p, Tile *x, const Dist *d, const int64_t *strides, int64_t off, const Type *e) {
    for (int i = 0; i < d->nslots; i++) {
        Slot idx = px_linear_index(p, d, i, strides);
        idx.off += off;
        st_shared(p, smem_addr(p, idx, elem_bytes(e), 0), x->s[i], e);
    }
}

static Tile *smem_get(Px *p, const Dist *d, const int64_t *strides, int64_t off, const Type *e) {
    Tile *t = px_new_tile(p, d->nslots);
    for (int i = 0; i < d->nslots; i++) {
        Slot idx = px_linear_index(p, d, i, strides);
        idx.off += off;
        t->s[i] = ld_shared(p, smem_addr(p, idx, elem_bytes(e), 0), e);
    }
    return t;
}

/* d without its last dimension, when every thread holds the whole of that
 * dimension (a tt.join's result, a tt.split's operand, as Triton lays them
 * out): the elements (c..., k) of one thread are its elements c... of the
 * smaller Dist, for every k. */
static bool dist_drop_last(const Dist *d, Dist *out) {
    int last = d->rank - 1;
    if (last < 1 || d->per_dim[last] != d->shape[last]) return false;
    for (int j = 0; j < d->per_dim[last]; j++)
        if (dist_const(d, last, j) != j) return false;
    for (int t = 0; t < d->nthreads; t++)
        if (dist_thread_part(d, last, t % 32, t / 32) != 0) return false;
    *out = *d;
    out->rank = last;
    int n = 0;
    for (int k = 0; k < d->rank; k++)
        if (d->order[k] != last) out->order[n++] = d->order[k];
    out->nslots = d->nslots / d->per_dim[last];
    return true;
}

static bool no_copies(const Dist *d, const Type *t) { return (int64_t)d->nslots * d->nthreads == ty_numel(t); }

void px_lower_shape(Px *p, Op *op) {
    Value *x = op_operand(op, 0);
    Type *xt = x->type, *rt = op_result(op, 0)->type;
    const Type *e = ty_elem(xt);
    Dist dx, dr;
    if (!px_dist(p, xt, &dx) || !px_dist(p, rt, &dr)) return px_fail(p, op, "shape op without layouts");
    Tile *tx = px_tile(p, x);
    int64_t sx[TTG_MAX_RANK], sr[TTG_MAX_RANK];
    row_major(xt, sx);
    row_major(rt, sr);
    switch (op->kind) {
    case TT_RESHAPE: {
        if (op_attr(op, "allow_reorder") && dx.nslots == dr.nslots && no_copies(&dx, xt) && no_copies(&dr, rt)) {
            /* any order will do: the elements stay where they are */
            px_bind(p, op_result(op, 0), tx);
            return;
        }
        /* row-major in both shapes (swizzled: cvt_plan.h), a run of each
         * thread's elements at once */
        CvtPlan z;
        bool swz = relayout_swizzle(&z, &dx, sx, &dr, sr, e, ty_numel(xt));
        smem_begin(p, ty_numel(xt) * elem_bytes(e));
        relayout_put(p, tx, &dx, sx, e, NULL, swz ? &z : NULL);
        px_barrier(p);
        px_bind(p, op_result(op, 0), relayout_get(p, &dr, sr, e, NULL, swz ? &z : NULL));
        return;
    }
    case TT_TRANS: {
        Attr *oa = op_attr_k(op, AN_ORDER);
        int64_t ord[TTG_MAX_RANK];
        for (int i = 0; i < rt->rank; i++) ord[i] = i;
        if (!oa || oa->kind != ATTR_DENSE_ARRAY || oa->dense.nvals != rt->rank)
            return px_fail(p, op, "tt.trans without an order");
        for (int i = 0; i < rt->rank; i++) ord[i] = oa->dense.ints[i];
        /* a layout conversion of the operand to the result's layout seen in
         * the operand's dimensions: no data moves where each thread keeps its
         * elements (the slots are permuted), else vectors through shared
         * memory */
        Dist du = dist_unpermuted(&dr, ord);
        px_bind(p, op_result(op, 0), relayout_dists(p, tx, xt, &dx, &du));
        return;
    }
    case TT_JOIN: {
        Value *y = op_operand(op, 1);
        Dist dy, d0;
        if (!px_dist(p, y->type, &dy)) return px_fail(p, op, "shape op without layouts");
        if (dist_drop_last(&dr, &d0) && dist_same_threads(&dx, &d0) && dist_same_threads(&dy, &d0)) {
            /* each thread holds both halves of its elements: no data moves */
            Tile *h[2] = {relayout_dists(p, tx, xt, &dx, &d0), relayout_dists(p, px_tile(p, y), y->type, &dy, &d0)};
            Tile *t = px_new_tile(p, dr.nslots);
            for (int i = 0; i < dr.nslots; i++) {
                int j[TTG_MAX_RANK];
                dist_slot_j(&dr, i, j);
                t->s[i] = h[j[dr.rank - 1]]->s[dist_slot_of_j(&d0, j)];
            }
            px_bind(p, op_result(op, 0), t);
            return;
        }
        smem_begin(p, ty_numel(rt) * elem_bytes(e));
        smem_put(p, tx, &dx, sr, 0, e);
        smem_put(p, px_tile(p, y), &dy, sr, 1, e);
        px_barrier(p);
        px_bind(p, op_result(op, 0), smem_get(p, &dr, sr, 0, e));
        return;
    }
    case TT_SPLIT: {
        Dist d0;
        if (dist_drop_last(&dx, &d0) && dist_same_threads(&d0, &dr)) {
            /* each thread holds both halves of its elements: no data moves */
            Tile *h[2] = {px_new_tile(p, d0.nslots), px_new_tile(p, d0.nslots)};
            for (int i = 0; i < dx.nslots; i++) {
                int j[TTG_MAX_RANK];
                dist_slot_j(&dx, i, j);
                h[j[dx.rank - 1]]->s[dist_slot_of_j(&d0, j)] = tx->s[i];
            }
            for (int k = 0; k < 2; k++) px_bind(p, op_result(op, k), relayout_dists(p, h[k], rt, &d0, &dr));
            return;
        }
        smem_begin(p, ty_numel(xt) * elem_bytes(e));
        smem_put(p, tx, &dx, sx, 0, e);
        px_barrier(p);
        px_bind(p, op_result(op, 0), smem_get(p, &dr, sx, 0, e));
        px_bind(p, op_result(op, 1), smem_get(p, &dr, sx, 1, e));
        return;
    }
    case TT_CAT: {
        Value *y = op_operand(op, 1);
        Dist dy;
        if (!px_dist(p, y->type, &dy)) return px_fail(p, op, "shape op without layouts");
        int64_t sy[TTG_MAX_RANK];
        row_major(y->type, sy);
        smem_begin(p, ty_numel(rt) * elem_bytes(e));
        smem_put(p, tx, &dx, sx, 0, e);
        smem_put(p, px_tile(p, y), &dy, sy, ty_numel(xt), e);
        px_barrier(p);
        px_bind(p, op_result(op, 0), smem_get(p, &dr, sr, 0, e));
        return;
    }
    default: px_fail(p, op, "unexpected shape op");
    }
}

/* ---- tt.gather -------------------------------------------------------------- */

/* The source goes to shared memory row-major; then each thread reads, for
 * each index it holds, the source element at that index's coordinate with
 * the gather axis replaced by the index's value. (Triton lowers tt.gather
 * with warp shuffles when the axis stays within a warp; this is its general
 * path.) The indices are laid out as the result (ttg-assign-layouts does
 * that; IR read back may not). */
/* ---- a gather of partners: x[i ^ c] along the axis ------------------------- */

/* The integer a splat constant of v holds (arith.constant dense<c>, or a
 * tt.splat of a scalar arith.constant). */
static bool splat_int(Value *v, int64_t *c) {
    Op *d = v->def;
    if (d && d->kind == TT_SPLAT) d = op_operand(d, 0)->def;
    if (!d || d->kind != ARITH_CONSTANT) return false;
    Attr *a = op_attr_k(d, AN_VALUE);
    return a && (a->kind != ATTR_DENSE || attr_is_splat(a)) && attr_as_int(a, c);
}

/* Whether v holds each element's own position along `axis`: a
 * tt.make_range from 0, through expand_dims, broadcast and layout
 * conversions (what tl.arange broadcast to a shape is). */
static bool axis_position(Value *v, int axis) {
    for (;;) {
        Op *d = v->def;
        if (!d) return false;
        switch (d->kind) {
        case TTG_CONVERT_LAYOUT:
        case TT_BROADCAST: v = op_operand(d, 0); continue;
        case TT_EXPAND_DIMS: {
            int64_t a = 0;
            op_attr_int_k(d, AN_AXIS, &a);
            if (a == axis) return false; /* the new dimension: size 1 */
            if (a < axis) axis--;
            v = op_operand(d, 0);
            continue;
        }
        case TT_MAKE_RANGE: {
            int64_t start = -1;
            return axis == 0 && op_attr_int_k(d, AN_START, &start) && start == 0;
        }
        default: return false;
        }
    }
}

/* The c of an index that is `position ^ c` along the axis (tl.sort's,
 * tl.topk's partners), or `(n - 1) - position` with n the axis's size, a
 * power of 2 (tl.flip's: position ^ (n - 1)); 0 when it is neither. The
 * index's broadcast dimensions must be the full ones (the position's
 * operand shape is checked by the verifier along the chain). */
static int64_t xor_of_index(Value *idx, int axis, int64_t n) {
    Op *d = idx->def;
    int64_t c = 0;
    if (!d || (n & (n - 1)) != 0) return 0;
    if (d->kind == ARITH_XORI) {
        for (int k = 0; k < 2; k++)
            if (splat_int(op_operand(d, k), &c) && axis_position(op_operand(d, 1 - k), axis))
                return c > 0 && c < n ? c : 0;
    } else if (d->kind == ARITH_SUBI) {
        if (splat_int(op_operand(d, 0), &c) && c == n - 1 && axis_position(op_operand(d, 1), axis)) return c;
    }
    return 0;
}

/* x[i ^ c] along the axis without shared memory where the layout allows:
 * each element's position along the axis is its slot's constant part plus
 * its thread's part, on disjoint bits (powers of two throughout), so the
 * partner of every element is at the slot whose constant part is flipped by
 * c's register bits, in the thread whose part is flipped by c's thread
 * bits. When those thread bits are lane bits only (the partner is in the
 * same warp, at the same coordinates along the other dimensions), every
 * slot takes its partner slot's value from lane ^ m by `shfl.sync.bfly`, or
 * from its own thread when m is 0. false: not so (the caller goes through
 * shared memory). */
static bool gather_xor(Px *p, Op *op, int axis, int64_t c) {
    Value *src = op_operand(op, 0), *res = op_result(op, 0);
    const Dist *dp = px_dist_of(p, res->type);
    if (!dp || !dist_thread_parts_linear(dp)) return false;
    Dist d = *dp;
    if (d.shape[axis] != src->type->shape[axis]) return false;
    int64_t regbits = 0, thrbits = 0;
    for (int j = 0; j < d.per_dim[axis]; j++) regbits |= dist_const(&d, axis, j);
    int lane_of_bit[64] = {0}; /* a lane mask that flips this bit of the axis's thread part alone */
    for (int b = 0; b < 5; b++) {
        int64_t v = dist_thread_part(&d, axis, 1 << b, 0);
        bool alone = v && (v & (v - 1)) == 0;
        for (int k = 0; k < d.rank && alone; k++)
            if (k != axis && dist_thread_part(&d, k, 1 << b, 0) != 0) alone = false;
        if (alone) lane_of_bit[__builtin_ctzll((unsigned long long)v)] |= 1 << b;
        thrbits |= v;
    }
    for (int w = 1; w < d.nthreads / 32; w <<= 1) thrbits |= dist_thread_part(&d, axis, 0, w);
    if (regbits & thrbits) return false;
    int64_t creg = c & regbits, cthr = c & ~regbits;
    int mask = 0;
    for (int b = 0; b < 63; b++) {
        if (!(cthr >> b & 1)) continue;
        if (!lane_of_bit[b]) return false; /* another warp's, or no thread's */
        mask |= lane_of_bit[b] & -lane_of_bit[b];
    }
    Tile *ts = px_tile(p, src);
    if (!ttg_layout_equal(ttg_layout_of_type(p->ctx, src->type), ttg_layout_of_type(p->ctx, res->type)))
        ts = px_relayout(p, ts, src->type, res->type);
    const Type *e = ty_elem(res->type);
    Tile *out = px_new_tile(p, d.nslots);
    for (int i = 0; i < d.nslots; i++) {
        int j[TTG_MAX_RANK];
        dist_slot_j(&d, i, j);
        j[axis] = dist_j_of_const(&d, axis, dist_const(&d, axis, j[axis]) ^ creg);
        if (j[axis] < 0) return px_fail(p, op, "tt.gather: no slot for a partner"), true;
        Slot v = ts->s[dist_slot_of_j(&d, j)];
        out->s[i] = mask ? shfl_bfly(p, v, e, mask) : v;
    }
    px_bind(p, res, out);
    return true;
}

void px_lower_gather(Px *p, Op *op) {
    Value *src = op_operand(op, 0), *idx = op_operand(op, 1), *res = op_result(op, 0);
    int64_t axis = 0;
    op_attr_int_k(op, AN_AXIS, &axis);
    Type *st = src->type, *it = idx->type, *rt = res->type;
    const Type *e = ty_elem(st), *ie = ty_elem(it);
    Dist ds, dr;
    if (!px_dist(p, st, &ds) || !px_dist(p, rt, &dr)) return px_fail(p, op, "tt.gather without layouts");
    if (axis < 0 || axis >= st->rank) return px_fail(p, op, "tt.gather axis out of range");
    int64_t c = st->shape[axis] == rt->shape[axis] ? xor_of_index(idx, (int)axis, rt->shape[axis]) : 0;
    if (c && gather_xor(p, op, (int)axis, c)) return;
    Tile *ti = px_tile(p, idx);
    const Layout *rl = ttg_layout_of_type(p->ctx, rt);
    if (!ttg_layout_equal(ttg_layout_of_type(p->ctx, it), rl)) ti = px_relayout(p, ti, it, ttg_with_layout(p->ctx, it, rl));
    /* src strides; the result's coordinate along the axis does not count */
    int64_t sx[TTG_MAX_RANK], sr[TTG_MAX_RANK];
    row_major(st, sx);
    memcpy(sr, sx, sizeof sr);
    sr[axis] = 0;
    int es = elem_bytes(e);
    smem_begin(p, ty_numel(st) * es);
    smem_put(p, px_tile(p, src), &ds, sx, 0, e);
    px_barrier(p);
    Tile *out = px_new_tile(p, dr.nslots);
    const char *stride = px_int(p, sx[axis]);
    for (int i = 0; i < dr.nslots; i++) {
        Slot at = px_linear_index(p, &dr, i, sr); /* reg + off, or an immediate */
        Slot k = ie->kind == TY_INT && ie->width == 32 ? ti->s[i] : px_cast(p, ti->s[i], ie, p->i32, true, 0);
        if (k.kind == SLOT_IMM) {
            at.off += k.off * sx[axis];
        } else {
            const char *kr = px_rname(p, (Slot){SLOT_REG, RC_B32, k.reg, {0}});
            Slot t;
            if (at.kind == SLOT_IMM) {
                t = sx[axis] == 1 ? (Slot){SLOT_REG, RC_B32, k.reg, {0}} : px_cse(p, RC_B32, "mul.lo.s32", kr, stride, NULL);
            } else {
                const char *br = px_rname(p, (Slot){SLOT_REG, RC_B32, at.reg, {0}});
                t = sx[axis] == 1 ? px_cse(p, RC_B32, "add.s32", kr, br, NULL)
                                  : px_cse(p, RC_B32, "mad.lo.s32", kr, stride, br);
            }
            t.off = at.off + k.off * sx[axis];
            at = t;
        }
        out->s[i] = ld_shared(p, smem_addr(p, at, es, 0), e);
    }
    px_bind(p, res, out);
}

/* ---- tt.histogram --------------------------------------------------------- */

/* a and b (predicates, SLOT_NONE: always) */
static Slot pred_and(Px *p, Slot a, Slot b) {
    if (a.kind == SLOT_NONE) return b;
    if (b.kind == SLOT_NONE) return a;
    return px_cse(p, RC_PRED, "and.pred", px_rname(p, a), px_rname(p, b), NULL);
}

/* tt.histogram: the CTA's threads zero `bins` 32-bit counters in shared
 * memory, bar.sync, each thread adds 1 (red.shared.add.u32) to the counter
 * of each element it holds whose value is in 0..bins-1 (unsigned compare:
 * negative values fall out) and whose mask holds (copies of an element in
 * other threads left out: px_owner_pred), bar.sync, and each thread reads
 * the counters of the result elements it holds. (Triton counts within each
 * warp with ballots first; this is the plain form, exact for any layout.) */
void px_lower_histogram(Px *p, Op *op) {
    Value *src = op_operand(op, 0), *mask = op->noperands > 1 ? op_operand(op, 1) : NULL, *res = op_result(op, 0);
    Type *st = src->type, *rt = res->type;
    const Type *e = ty_elem(st);
    Dist ds, dr;
    if (!px_dist(p, st, &ds) || !px_dist(p, rt, &dr)) return px_fail(p, op, "tt.histogram without layouts");
    if (e->kind != TY_INT || ty_elem(rt) != p->i32 || rt->rank != 1)
        return px_fail(p, op, "tt.histogram of other than integers into i32");
    int64_t bins = rt->shape[0];
    Tile *ts = px_tile(p, src), *tm = NULL;
    if (mask) {
        tm = px_tile(p, mask);
        const Layout *sl = ttg_layout_of_type(p->ctx, st);
        if (!ttg_layout_equal(ttg_layout_of_type(p->ctx, mask->type), sl))
            tm = px_relayout(p, tm, mask->type, ttg_with_layout(p->ctx, mask->type, sl));
    }
    /* zero the counters: thread t those at t, t + T, ... */
    smem_begin(p, bins * 4);
    int64_t nt = ds.nthreads;
    Slot zp = {0};
    if (bins < nt) zp = px_cse(p, RC_PRED, "setp.lt.u32", px_rname(p, p->tid), px_int(p, bins), NULL);
    for (int64_t k = 0; k < bins; k += nt) {
        int64_t off;
        Slot a = smem_at(p, p->tid, 4, k * 4, &off);
        const char *addr = px_addr(p, px_rname(p, a), off, true);
        if (zp.kind == SLOT_NONE) px_emit(p, "st.shared.b32 %s, 0", addr);
        else px_emit(p, "@%s st.shared.b32 %s, 0", px_rname(p, zp), addr);
    }
    px_barrier(p);
    /* count */
    Slot owner = px_owner_pred(p, &ds);
    bool is_bool = e->width == 1;
    for (int i = 0; i < ds.nslots; i++) {
        Slot pr = owner;
        if (tm) {
            Slot m = tm->s[tm->n == ds.nslots ? i : 0];
            if (m.kind == SLOT_IMM) {
                if (!(m.off & 1)) continue; /* masked off */
            } else {
                pr = pred_and(p, pr, px_mat(p, m, p->i1));
            }
        }
        Slot v = ts->s[ts->n == ds.nslots ? i : 0];
        int64_t off;
        Slot a;
        if (v.kind == SLOT_IMM) {
            int64_t x = is_bool ? (v.off & 1) : v.off;
            if (x < 0 || x >= bins) continue;
            a = smem_at(p, v, 4, 0, &off);
        } else {
            Slot x;
            if (e->width == 64) {
                Slot in = px_cse(p, RC_PRED, "setp.lt.u64", px_opnd(p, v, e), px_int(p, bins), NULL);
                pr = pred_and(p, pr, in);
                x = px_mat(p, px_cast(p, v, e, p->i32, true, 0), p->i32);
            } else {
                x = px_mat(p, e == p->i32 ? v : px_cast(p, v, e, p->i32, !is_bool, 0), p->i32);
                if (!is_bool || bins < 2) {
                    Slot in = px_cse(p, RC_PRED, "setp.lt.u32", px_rname(p, x), px_int(p, bins), NULL);
                    pr = pred_and(p, pr, in);
                }
            }
            a = smem_at(p, x, 4, 0, &off);
        }
        const char *addr = px_addr(p, px_rname(p, a), off, true);
        if (pr.kind == SLOT_NONE) px_emit(p, "red.shared.add.u32 %s, 1", addr);
        else px_emit(p, "@%s red.shared.add.u32 %s, 1", px_rname(p, pr), addr);
    }
    px_barrier(p);
    /* read the counts the result's layout gives this thread */
    Tile *out = px_new_tile(p, dr.nslots);
    int64_t unit[TTG_MAX_RANK] = {1};
    for (int i = 0; i < dr.nslots; i++)
        out->s[i] = ld_shared(p, smem_addr(p, px_linear_index(p, &dr, i, unit), 4, 0), p->i32);
    px_bind(p, res, out);
}

/* ---- tt.dot with FMA ------------------------------------------------------ */

/* True when the dot may accumulate into C's registers: C is an argument
 * of an scf.for body (its registers are the loop's own, fresh, see
 * lower_for), this dot is its only use, it needs no conversion, and its
 * slots are distinct plain registers. */
static bool dot_acc_in_place(Px *p, Value *c, Tile *tc, const Type *ec, const Type *acc_t) {
    if (c->def || !c->owner_block || !c->owner_block->parent || !c->owner_block->parent->parent ||
        c->owner_block->parent->parent->kind != SCF_FOR || c->index == 0 || ec != acc_t || !value_has_one_use(c))
        return false;
    /* distinct plain registers of the class (a mark per register number) */
    RegClass rc = px_rc(acc_t);
    uint8_t *seen = arena_alloc(p->ctx->arena, (size_t)p->nreg[rc] + 1);
    memset(seen, 0, (size_t)p->nreg[rc] + 1);
    for (int i = 0; i < tc->n; i++) {
        Slot s = tc->s[i];
        if (s.kind != SLOT_REG || s.off != 0 || s.rc != rc || s.reg > p->nreg[rc] || seen[s.reg]) return false;
        seen[s.reg] = 1;
    }
    return true;
}

/* The registers of the loop-carried value a dot's result becomes
 * (mma_carried_acc: the yield copies nothing then): distinct plain
 * registers of the accumulation type, every slot carried, none of them
 * read by C's slot of another index (cv: C's slots, made). NULL when
 * there are none such. */
static Tile *carried_acc(Px *p, Op *dot, const Slot *cv, const Type *acc_t, int nslots) {
    Op *guard;
    Value *arg = mma_carried_acc(dot, &guard);
    if (!arg || ty_elem(arg->type) != acc_t) return NULL;
    Tile *t = px_tile(p, arg);
    RegClass rc = px_rc(acc_t);
    if (t->n != nslots) return NULL;
    int *at = arena_alloc(p->ctx->arena, sizeof(int) * ((size_t)p->nreg[rc] + 1));
    memset(at, 0, sizeof(int) * ((size_t)p->nreg[rc] + 1));
    for (int i = 0; i < nslots; i++) {
        Slot s = t->s[i];
        if (s.kind != SLOT_REG || s.off != 0 || s.rc != rc || s.reg > p->nreg[rc] || at[s.reg]) return NULL;
        at[s.reg] = i + 1;
    }
    for (int i = 0; i < nslots; i++)
        if (cv[i].kind == SLOT_REG && cv[i].rc == rc && cv[i].reg <= p->nreg[rc] && at[cv[i].reg] &&
            at[cv[i].reg] != i + 1)
            return NULL;
    return t;
}

/* Accumulators: C's own registers when C is a loop-carried accumulator
 * used only here (`acc = tl.dot(a, b, acc)`), which saves a copy in and a
 * copy back per element and iteration; else C, converted to the
 * accumulation type, copied into the registers of the loop-carried value
 * the result becomes (`acc = tl.dot(p, v, acc * alpha)`: no copy back,
 * see carried_acc), or into fresh ones. */
Tile *px_dot_acc(Px *p, Op *dot, const Type *acc_t, int nslots) {
    Value *c = op_operand(dot, 2);
    Tile *tc = px_tile(p, c);
    const Type *ec = ty_elem(c->type);
    if (dot_acc_in_place(p, c, tc, ec, acc_t)) return tc;
    RegClass arc = px_rc(acc_t);
    Slot *cv = ARENA_ARRAY(p->ctx->arena, Slot, nslots);
    for (int i = 0; i < nslots; i++) cv[i] = px_cast(p, tc->s[i], ec, acc_t, true, 0);
    Tile *acc = carried_acc(p, dot, cv, acc_t, nslots);
    if (!acc) {
        acc = px_new_tile(p, nslots);
        for (int i = 0; i < nslots; i++) acc->s[i] = px_reg(p, arc);
    }
    PxText mv = arc == RC_F32 ? PX_LIT("mov.f32") : arc == RC_F64 ? PX_LIT("mov.f64") : PX_LIT("mov.b32");
    for (int i = 0; i < nslots; i++) {
        if (cv[i].kind == SLOT_REG && cv[i].off == 0 && cv[i].rc == arc && cv[i].reg == acc->s[i].reg) continue;
        px_ins_args(p, mv, acc->s[i], px_arg(p, cv[i], acc_t), 0);
    }
    return acc;
}

void px_lower_dot(Px *p, Op *op) {
    if (px_lower_dot_mma(p, op)) return;
    Value *a = op_operand(op, 0), *b = op_operand(op, 1), *r = op_result(op, 0);
    Type *at = a->type, *bt = b->type, *ct = r->type;
    /* rank 3: a batch of independent products, [NB, M, K] x [NB, K, N] */
    if ((at->rank != 2 && at->rank != 3) || bt->rank != at->rank) return px_fail(p, op, "tt.dot of rank other than 2 or 3");
    int bd = at->rank - 2; /* the batch dimension's count: 0 or 1 */
    int64_t M = at->shape[bd], K = at->shape[bd + 1], N = bt->shape[bd + 1], NB = bd ? at->shape[0] : 1;
    const Type *ea = ty_elem(at), *eb = ty_elem(bt), *ec = ty_elem(ct);
    bool isint = ec->kind == TY_INT;
    Type *acc_t = isint ? p->i32 : p->f32;
    if (!isint && ec->width == 64) acc_t = (Type *)ec;
    Dist da, db, dc;
    if (!px_dist(p, at, &da) || !px_dist(p, bt, &db) || !px_dist(p, ct, &dc)) return px_fail(p, op, "dot without layouts");
    int sa = elem_bytes(ea), sb = elem_bytes(eb);
    int64_t a_bytes = (NB * M * K * sa + 15) & ~15;
    smem_begin(p, a_bytes + NB * K * N * sb);
    Tile *ta = px_tile(p, a), *tb = px_tile(p, b);
    int64_t sta[TTG_MAX_RANK], stb[TTG_MAX_RANK];
    row_major(at, sta);
    row_major(bt, stb);
    for (int i = 0; i < da.nslots; i++) st_shared(p, smem_addr(p, px_linear_index(p, &da, i, sta), sa, 0), ta->s[i], ea);
    for (int i = 0; i < db.nslots; i++) st_shared(p, smem_addr(p, px_linear_index(p, &db, i, stb), sb, a_bytes), tb->s[i], eb);
    px_barrier(p);
    RegClass arc = px_rc(acc_t);
    /* accumulators: C's own registers when it is a loop-carried accumulator
     * used only here, else fresh ones (px_dot_acc) */
    Tile *acc = px_dot_acc(p, op, acc_t, dc.nslots);
    /* row and column pointers: pa = smem + (tp_b * M * K + tp_m * K) * sa,
     * pb = smem + A + (tp_b * K * N + tp_n) * sb */
    Slot base = smem_base(p);
    Slot tpm = px_thread_part(p, &dc, bd), tpn = px_thread_part(p, &dc, bd + 1);
    Slot pa = px_reg(p, RC_B32), pb = px_reg(p, RC_B32), kk = px_reg(p, RC_B32);
    px_emit(p, "mad.lo.s32 %s, %s, %lld, %s", px_rname(p, pa), px_rname(p, tpm), (long long)(K * sa), px_rname(p, base));
    px_emit(p, "mad.lo.s32 %s, %s, %d, %s", px_rname(p, pb), px_rname(p, tpn), sb, px_rname(p, base));
    px_emit(p, "add.s32 %s, %s, %lld", px_rname(p, pb), px_rname(p, pb), (long long)a_bytes);
    if (bd) {
        Slot tpb = px_thread_part(p, &dc, 0);
        px_emit(p, "mad.lo.s32 %s, %s, %lld, %s", px_rname(p, pa), px_rname(p, tpb), (long long)(M * K * sa), px_rname(p, pa));
        px_emit(p, "mad.lo.s32 %s, %s, %lld, %s", px_rname(p, pb), px_rname(p, tpb), (long long)(K * N * sb), px_rname(p, pb));
    }
    px_emit(p, "mov.u32 %s, 0", px_rname(p, kk));
    int head = px_label(p);
    sb_printf(&p->body, "$L__BB%d:\n", head);
    px_scope_push(p);
    /* a thread's rows of A and columns of B at this k, per batch entry (a
     * layout chosen for the store may give a thread a whole column: 128 x 1) */
    int nb = bd ? dc.per_dim[0] : 1, nm = dc.per_dim[bd], nn = dc.per_dim[bd + 1];
    Slot *av = ARENA_ARRAY(p->ctx->arena, Slot, nb * nm), *bv = ARENA_ARRAY(p->ctx->arena, Slot, nb * nn);
    for (int jb = 0; jb < nb; jb++) {
        int64_t boff = bd ? dist_const(&dc, 0, jb) : 0;
        for (int jm = 0; jm < nm; jm++) {
            int64_t off = (boff * M * K + dist_const(&dc, bd, jm) * K) * sa;
            Slot v = ld_shared(p, px_addr(p, px_rname(p, pa), off, true), ea);
            av[jb * nm + jm] = px_cast(p, v, ea, acc_t, true, 0);
        }
        for (int jn = 0; jn < nn; jn++) {
            int64_t off = (boff * K * N + dist_const(&dc, bd + 1, jn)) * sb;
            Slot v = ld_shared(p, px_addr(p, px_rname(p, pb), off, true), eb);
            bv[jb * nn + jn] = px_cast(p, v, eb, acc_t, true, 0);
        }
    }
    const char *fma = arc == RC_F32 ? "fma.rn.f32" : arc == RC_F64 ? "fma.rn.f64" : "mad.lo.s32";
    for (int i = 0; i < dc.nslots; i++) {
        int j[TTG_MAX_RANK];
        dist_slot_j(&dc, i, j);
        int jb = bd ? j[0] : 0;
        const char *an = px_opnd(p, av[jb * nm + j[bd]], acc_t), *bn = px_opnd(p, bv[jb * nn + j[bd + 1]], acc_t);
        const char *cn = px_rname(p, acc->s[i]);
        px_ins(p, fma, cn, an, bn, cn);
    }
    px_scope_pop(p);
    Slot cond = px_reg(p, RC_PRED);
    px_emit(p, "add.s32 %s, %s, %d", px_rname(p, pa), px_rname(p, pa), sa);
    px_emit(p, "add.s32 %s, %s, %lld", px_rname(p, pb), px_rname(p, pb), (long long)(N * sb));
    px_emit(p, "add.s32 %s, %s, 1", px_rname(p, kk), px_rname(p, kk));
    px_emit(p, "setp.lt.s32 %s, %s, %lld", px_rname(p, cond), px_rname(p, kk), (long long)K);
    px_emit(p, "@%s bra $L__BB%d", px_rname(p, cond), head);
    Tile *out = px_new_tile(p, dc.nslots);
    for (int i = 0; i < dc.nslots; i++) out->s[i] = px_cast(p, acc->s[i], acc_t, ec, true, 0);
    px_bind(p, r, out);
}
