/*
 * ptx_mma.c - tt.dot on tensor cores: fp16 x fp16 and bf16 x bf16 into
 * fp32 with mma.sync.aligned.m16n8k16, fp32 x fp32 rounded to tf32 (the
 * default input_precision) with m16n8k8; sm_80 and later.
 *
 * Layout assignment gives such a dot's result the m16n8 accumulator
 * layout (ttg_mma_layout); mma_plan.h draws how that layout, the
 * fragments, the shared-memory tiles and the ldmatrix addresses fit. Here:
 *
 *   1. A (unless its registers already hold the fragments) and B go to
 *      shared memory in their registers' orientation (tf32: k-major), rows
 *      swizzled (or padded; see "Swizzled rows" in mma_plan.h), as vectors
 *      of up to 16 bytes where the layout gives a thread consecutive
 *      elements:   st.shared.v4.b32 [%r9+2048], {%r1, %r2, %r3, %r4};
 *   2. bar.sync, then for each k step (16, tf32 8), fully unrolled: one
 *      ldmatrix.x4 per m-block of A and per two n-blocks of B (.trans when
 *      the operand is stored as rows of k), then one mma.sync per
 *      (m-block, n-block), accumulating in place into the thread's
 *      accumulator slots:
 *
 *        ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r7+32];
 *        ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r24, %r25, %r26, %r27}, [%r8+4352];
 *        mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
 *            {%f1, %f2, %f3, %f4}, {%r20, %r21, %r22, %r23}, {%r24, %r25}, {%f1, %f2, %f3, %f4};
 *
 * The lane part of each operand's ldmatrix address (global_smem plus the
 * plan's per-bit coefficients of %tid.x, swizzled) is computed once, in
 * the prologue; every instruction then adds an immediate, after an XOR
 * of the k step's chunk bits where the rows are swizzled:
 *
 *        xor.b32 %r128, %r111, 32;
 *        ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r129, %r130, %r131, %r132}, [%r128+0];
 *
 * On sm_90a a dot that wgmma_shape takes (fp16, bf16; every warp along m)
 * runs on wgmma.mma_async instead (emit_wgmma): B, and A when it is in
 * shared memory as rows of k, stored swizzled (store_swizzled, or their
 * cp.async rings: the addresses from swz_of) and read through descriptors,
 * fenced for the async proxy; A otherwise by its fragments as above. A
 * ring loop's dot may stay in flight until the next one (wgmma_deferred):
 *
 *        wgmma.fence.sync.aligned;
 *        wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
 *            {%f1, ..., %f64}, %rd70, %rd69, 1, 1, 1, 0, 1;
 *        ...
 *        wgmma.commit_group.sync.aligned;
 *        wgmma.wait_group.sync.aligned 0;
 */
#include "target/ptx/mma_plan.h"
#include "target/ptx/ptx_lower.h"

#include <stdio.h>
#include <string.h>

/* The mma.sync form for a dot, NULL when there is none: fp16 and bf16
 * (m16n8k16), and fp32 that may round to tf32 (m16n8k8; Triton's default
 * input_precision; "ieee" stays exact on the FMA path, "tf32x3" too). */
static const char *mma_form(Op *dot, const Type *ea, const Type *eb, const Type *ec) {
    if (ea->kind != TY_FLOAT || eb->kind != TY_FLOAT || ea->fkind != eb->fkind || ec->kind != TY_FLOAT ||
        ec->fkind != FK_F32)
        return NULL;
    if (ea->fkind == FK_F16) return "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
    if (ea->fkind == FK_BF16) return "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
    int64_t prec = TT_PREC_IEEE; /* the attribute's default */
    op_attr_int_k(dot, AN_INPUT_PRECISION, &prec);
    if (ea->fkind == FK_F32 && prec == TT_PREC_TF32)
        return "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    return NULL;
}

/* `{lo, hi}` packed into one 32-bit register (lo in the low half). */
static Slot pack2(Px *p, Slot lo, Slot hi, const Type *e) {
    Slot l = px_mat(p, lo, e), h = px_mat(p, hi, e);
    return px_pack2(p, l, h);
}

/* Writes an operand's tile to its region of shared memory: element (i, j)
 * at base + (i * stride[0] + j * stride[1]) * es bytes. A thread's run of
 * consecutive elements along its layout's fastest dimension, when that
 * dimension is the stored rows' contiguous one, goes as one vector of up to
 * 16 bytes (the run starts at a multiple of its length; rows and regions
 * are 16-byte aligned); 16-bit elements travel in pairs, one 32-bit word. */
static void store_operand(Px *p, Tile *t, const Dist *d, const Type *e, int es, const MmaPlan *pl, bool is_b) {
    static const PxText st_op[] = {PX_LIT("st.shared.b16"), PX_LIT("st.shared.b32"), PX_LIT("st.shared.v2.b32"),
                                   PX_LIT(""), PX_LIT("st.shared.v4.b32")};
    const MmaOperand *o = is_b ? &pl->b : &pl->a;
    int f = d->order[0], vec = mma_store_vec(pl, is_b, d);
    int per_word = 4 / es, nwords = vec / per_word;
    /* a vector's elements are consecutive slots (f is counted first) */
    Slot lb;
    const int64_t *loff = px_linear_indices(p, d, o->stride, &lb);
    for (int i = 0; i < d->nslots; i++) {
        if (i % d->per_dim[f] % vec) continue;
        int64_t off;
        Slot base = px_smem_at(p, px_linear_at(lb, loff, i), es, o->base, &off);
        Slot w[4];
        if (nwords == 0) {
            w[0] = px_mat(p, t->s[i], e);
            px_st_regs(p, st_op[0], base, off, w, 1);
            continue;
        }
        for (int k = 0; k < nwords; k++) {
            Slot lo = t->s[i + per_word * k];
            w[k] = es == 4 ? px_mat(p, lo, e) : pack2(p, lo, t->s[i + per_word * k + 1], e);
        }
        px_st_regs(p, st_op[nwords], base, off, w, nwords);
    }
}

/* A register of the prologue, memoised by h (0 bit set). */
static Slot *tpart_get(Px *p, uint64_t h) { return map_get(&p->tparts, h | 1); }
static void tpart_put(Px *p, uint64_t h, Slot r) {
    Slot *keep = ARENA_NEW(p->ctx->arena, Slot);
    *keep = r;
    map_put(&p->tparts, h | 1, keep);
}

/* start + the lane part of an operand's ldmatrix addresses, in the
 * prologue: the coefficients of runs of thread-id bits that scale alike
 * are applied with one bfe and one mad; then swizzled (z, start 0: of
 * the sum, swz_apply). */
static Slot coef_sum_reg(Px *p, const int64_t *coef, int tid_bits, const char *start, const SmemSwz *z) {
    uint64_t h = 0x3a11 + (uint64_t)(z ? z->bytes : 0);
    for (int t = 0; z && t < z->nterms; t++)
        h = hash_combine(hash_combine(h, (uint64_t)z->shift[t]), (uint64_t)z->mask[t]);
    for (int b = 0; b < tid_bits; b++) h = hash_combine(h, (uint64_t)coef[b]);
    Slot *cached = tpart_get(p, h);
    if (cached) return *cached;
    Slot r = px_reg(p, RC_B32), t = px_reg(p, RC_B32);
    const char *rn = px_rname(p, r), *tn = px_rname(p, t), *tid = px_rname(p, p->tid);
    px_line_pro(p, "mov.u32 ", rn, ", ", start, NULL);
    for (int b = 0; b < tid_bits;) {
        if (!coef[b]) {
            b++;
            continue;
        }
        int len = 1;
        while (b + len < tid_bits && coef[b + len] == coef[b] << len) len++;
        px_line_pro(p, "bfe.u32 ", tn, ", ", tid, ", ", px_int(p, b), ", ", px_int(p, len), NULL);
        px_line_pro(p, "mad.lo.s32 ", rn, ", ", tn, ", ", px_int(p, coef[b]), ", ", rn, NULL);
        b += len;
    }
    if (z && !z->nterms) { /* wgmma's swz: bits 4.. ^= bits 7.. */
        px_line_pro(p, "shr.u32 ", tn, ", ", rn, ", 3", NULL);
        px_line_pro(p, "and.b32 ", tn, ", ", tn, ", ", px_int(p, z->bytes - 16), NULL);
        px_line_pro(p, "xor.b32 ", rn, ", ", rn, ", ", tn, NULL);
    } else if (z) { /* mma.sync's: bits 4..6 ^= (x >> shift) & mask, each term of x */
        Slot u = px_reg(p, RC_B32);
        const char *un = px_rname(p, u);
        for (int k = 0; k < z->nterms; k++) {
            const char *dst = k ? un : tn;
            px_line_pro(p, "shr.u32 ", dst, ", ", rn, ", ", px_int(p, z->shift[k]), NULL);
            px_line_pro(p, "and.b32 ", dst, ", ", dst, ", ", px_int(p, z->mask[k]), NULL);
            if (k) px_line_pro(p, "xor.b32 ", tn, ", ", tn, ", ", un, NULL);
        }
        px_line_pro(p, "xor.b32 ", rn, ", ", rn, ", ", tn, NULL);
    }
    tpart_put(p, h, r);
    return r;
}

/* global_smem + part, in the prologue (part: a register of the prologue). */
static Slot smem_plus(Px *p, Slot part) {
    uint64_t h = hash_combine(0x1a7e, (uint64_t)part.reg);
    Slot *cached = tpart_get(p, h);
    if (cached) return *cached;
    Slot r = px_reg(p, RC_B32);
    const char *rn = px_rname(p, r);
    px_line_pro(p, "mov.u32 ", rn, ", global_smem", NULL);
    px_line_pro(p, "add.s32 ", rn, ", ", rn, ", ", px_rname(p, part), NULL);
    tpart_put(p, h, r);
    return r;
}

/* The register of an operand's ldmatrix rows, in the prologue:
 * global_smem + the lane part (padded rows), or + its swizzle (swizzled
 * rows; a step's XOR is applied to this plus a 128-byte aligned base:
 * see ld_at). */
static Slot lane_address(Px *p, const MmaPlan *pl, const MmaOperand *o) {
    if (!o->swz.bytes) return coef_sum_reg(p, o->coef, pl->tid_bits, "global_smem", NULL);
    p->smem_align128 = true;
    return smem_plus(p, coef_sum_reg(p, o->coef, pl->tid_bits, "0", &o->swz));
}

/* ---- swizzled tiles (wgmma's B) ---------------------------------------------
 *
 * Where each element of a tile of layout d goes in a SmemSwz layout: the
 * thread's part swz(L) as a register of the prologue, each slot's part
 * swz(C) as a constant, the element at their XOR from the region's base
 * (see "wgmma" in mma_plan.h). Made once per (Dist, layout). */
typedef struct PxSwz {
    const Dist *d;
    SmemSwz z;
    bool ok;
    Slot lane;
    int64_t *cpart; /* by slot */
    int64_t lbits;  /* the bits the thread's part may have: XORed, not added */
    struct PxSwz *next;
} PxSwz;

static const PxSwz *swz_of(Px *p, const Dist *d, const SmemSwz *z) {
    for (PxSwz *e = p->swz_addrs; e; e = e->next)
        if (e->d == d && !memcmp(&e->z, z, sizeof *z)) return e->ok ? e : NULL;
    PxSwz *e = ARENA_NEW(p->ctx->arena, PxSwz);
    *e = (PxSwz){.d = d, .z = *z, .next = p->swz_addrs};
    p->swz_addrs = e;
    int64_t coef[MMA_TID_BITS];
    int tid_bits;
    e->cpart = ARENA_ARRAY(p->ctx->arena, int64_t, d->nslots);
    if (!swz_split(d, z, coef, &tid_bits, e->cpart)) return NULL;
    e->lane = coef_sum_reg(p, coef, tid_bits, "0", z);
    e->lbits = swz_bits(z);
    for (int b = 0; b < tid_bits; b++) e->lbits |= coef[b];
    if (!mma_swizzle_on()) e->lbits = -1; /* (TRITONC_MMA_SWIZZLE=0: all by XOR, as before) */
    e->ok = true;
    return e;
}

/* A `swizzle` attribute's layout: [W, bits and strides of dimension 0,
 * then of 1, then mma.sync's terms as shift, mask pairs] (the verifier
 * checked the counts). */
static SmemSwz swz_decode(const Attr *a) {
    const int64_t *v = a->dense.ints;
    SmemSwz z = {.bytes = (int)v[0]};
    int k = 1;
    for (int j = 0; j < 2; j++) {
        z.nbits[j] = (int)v[k++];
        for (int b = 0; b < z.nbits[j]; b++) z.bit[j][b] = v[k++];
    }
    for (; k + 1 < a->dense.nvals && z.nterms < SWZ_MAX_TERMS; k += 2)
        z.shift[z.nterms] = (int)v[k], z.mask[z.nterms++] = (int)v[k + 1];
    return z;
}

/* base + (lane ^ cpart) + *off: the address of a slot of a swizzled tile
 * whose region starts at `base` (a register; kind NONE: global_smem). The
 * bits of cpart that neither the lane part nor the swizzle has are added,
 * in *off; the others, bits 4..6, XORed: with `base` 128-byte aligned
 * (wgmma's regions: 1024; global_smem, the rings and their stages: 128),
 * (base + lane) ^ c = base + (lane ^ c), base + lane once a block (NONE:
 * in the prologue, live through loops), each XOR at its use. (With
 * TRITONC_MMA_SWIZZLE=0, as before: lane ^ cpart in the prologue, for
 * each cpart, then base added.) */
static Slot swz_address(Px *p, Slot base, const PxSwz *sw, int slot, int64_t *off) {
    int64_t c = sw->cpart[slot] & sw->lbits;
    *off = sw->cpart[slot] & ~sw->lbits;
    Slot part = sw->lane;
    if (mma_swizzle_on()) {
        Slot r = base.kind == SLOT_NONE ? smem_plus(p, part)
                                        : px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, base), px_arg_reg(p, part));
        return c ? px_cse2(p, RC_B32, "xor.b32", px_arg_reg(p, r), px_arg_int(p, c)) : r;
    }
    if (c) {
        uint64_t h = hash_combine(hash_combine(0x5e11, (uint64_t)sw->lane.reg), (uint64_t)c);
        Slot *cached = tpart_get(p, h);
        if (cached) {
            part = *cached;
        } else {
            part = px_reg(p, RC_B32);
            px_line_pro(p, "xor.b32 ", px_rname(p, part), ", ", px_rname(p, sw->lane), ", ", px_int(p, c), NULL);
            tpart_put(p, h, part);
        }
    }
    return px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, base), px_arg_reg(p, part));
}

/* Writes a tile to a swizzled region at base + off (wgmma's: 1024-byte
 * aligned; base kind NONE: global_smem, see swz_address): as store_operand, vectors along d's fastest dimension where
 * the layout keeps them together (its unit stride there). False: no such
 * layout. */
static bool store_swizzled(Px *p, Tile *t, const Dist *d, const Type *e, int es, const SmemSwz *z, Slot base,
                           int64_t off) {
    static const PxText st_op[] = {PX_LIT("st.shared.b16"), PX_LIT("st.shared.b32"), PX_LIT("st.shared.v2.b32"),
                                   PX_LIT(""), PX_LIT("st.shared.v4.b32")};
    const PxSwz *sw = swz_of(p, d, z);
    if (!sw) return false;
    int f = d->order[0];
    int run = d->spt[f] < d->shape[f] ? d->spt[f] : (int)d->shape[f];
    int ok = 0; /* the low bits along f that keep elements together */
    while (ok < z->nbits[f] && z->bit[f][ok] == (int64_t)es << ok) ok++;
    int vec = run < 16 / es ? run : 16 / es;
    if ((1 << ok) < vec) vec = 1 << ok;
    int per_word = 4 / es, nwords = vec / per_word;
    for (int i = 0; i < d->nslots; i++) {
        if (i % d->per_dim[f] % vec) continue;
        int64_t add;
        Slot at = swz_address(p, base, sw, i, &add), w[4];
        if (nwords == 0) {
            w[0] = px_mat(p, t->s[i], e);
            px_st_regs(p, st_op[0], at, off + add, w, 1);
            continue;
        }
        for (int k = 0; k < nwords; k++) {
            Slot lo = t->s[i + per_word * k];
            w[k] = es == 4 ? px_mat(p, lo, e) : pack2(p, lo, t->s[i + per_word * k + 1], e);
        }
        px_st_regs(p, st_op[nwords], at, off + add, w, nwords);
    }
    return true;
}

/* ldmatrix of n (2 or 4) blocks into fresh registers out[0..n-1]. */
static void ldmatrix(Px *p, int n, bool trans, Slot base, int64_t off, Slot *out) {
    for (int i = 0; i < n; i++) out[i] = px_reg(p, RC_B32);
    static const PxText opc[2][2] = {
        {PX_LIT("ldmatrix.sync.aligned.m8n8.x2.shared.b16"), PX_LIT("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16")},
        {PX_LIT("ldmatrix.sync.aligned.m8n8.x4.shared.b16"), PX_LIT("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")}};
    px_ld_regs(p, opc[n == 4][trans], out, n, base, off);
}

/* The ttg.local_load that gives a dot operand from a cp.async ring, or NULL. */
static Op *ring_load(Value *v) { return v->def && v->def->kind == TTG_LOCAL_LOAD ? v->def : NULL; }

static int64_t int_attr(Op *op, AttrName name) {
    int64_t v = 0;
    op_attr_int_k(op, name, &v);
    return v;
}

/* global_smem + stage * stage_bytes + base: a stage of a ring, as a
 * register plus a constant (in *off). */
static Slot stage_address(Px *p, Slot base, Slot stage, int64_t stage_bytes, int64_t *off) {
    if (stage.kind == SLOT_IMM) {
        *off += stage.off * stage_bytes;
        return base;
    }
    Slot st = px_mat(p, stage, p->i32);
    return px_cse3(p, RC_B32, "mad.lo.s32", px_arg_reg(p, st), px_arg_int(p, stage_bytes), px_arg_reg(p, base));
}

/* The base of the stage a ring's ttg.local_load reads (or a
 * ttg.local_store writes), as a register: global_smem + the ring's offset
 * + stage * stage bytes (wgmma's descriptors start there). */
static Slot ring_region(Px *p, Op *ring) {
    int64_t off = int_attr(ring, AN_OFFSET);
    Slot gs = px_cse1(p, RC_B32, "mov.u32", px_arg_text(p, "global_smem"));
    Slot r = stage_address(p, gs, px_tile(p, op_operand(ring, 0))->s[0], int_attr(ring, AN_STAGE_BYTES), &off);
    return off ? px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, r), px_arg_int(p, off)) : r;
}

/* The plans made for the kernel's dots, by their operand and result
 * types (interned: equal types, equal Dists): a kernel's dots are mostly
 * of a few shapes, and a plan is worked out lane by lane. */
typedef struct PxMmaPlans {
    const Type *a, *b, *c;
    bool a_smem; /* A from a ring's stage */
    bool ok;
    MmaPlan plan;
    /* the slots of the fragments, as mma_acc_slot and mma_a_reg_slots give
     * them: acc[(m * nblocks + n) * 4 + i]; A's (in registers) a_lo and
     * a_hi[(ks * mblocks + m) * 4 + i] */
    int *acc, *a_lo, *a_hi;
    struct PxMmaPlans *next;
} PxMmaPlans;

static PxMmaPlans *plan_of(Px *p, const Type *at, const Type *bt, const Type *rt, const Dist *da,
                                 const Dist *db, const Dist *dc, int es, bool a_smem) {
    PxMmaPlans *e = p->mma_plans;
    while (e && (e->a != at || e->b != bt || e->c != rt || e->a_smem != a_smem)) e = e->next;
    if (!e) {
        e = ARENA_NEW(p->ctx->arena, PxMmaPlans);
        *e = (PxMmaPlans){.a = at, .b = bt, .c = rt, .a_smem = a_smem, .next = p->mma_plans};
        e->ok = mma_plan(dc, da, db, es, p->sm, a_smem, &e->plan);
        p->mma_plans = e;
        const MmaPlan *pl = &e->plan;
        if (e->ok) {
            e->acc = ARENA_ARRAY(p->ctx->arena, int, 4 * pl->mblocks * pl->nblocks);
            for (int m = 0; m < pl->mblocks; m++)
                for (int n = 0; n < pl->nblocks; n++)
                    for (int i = 0; i < 4; i++) e->acc[(m * pl->nblocks + n) * 4 + i] = mma_acc_slot(pl, m, n, i);
        }
        if (e->ok && pl->a.in_regs) {
            int na = 4 * pl->mblocks * pl->ksteps;
            e->a_lo = ARENA_ARRAY(p->ctx->arena, int, na);
            e->a_hi = ARENA_ARRAY(p->ctx->arena, int, na);
            for (int ks = 0; ks < pl->ksteps; ks++)
                for (int m = 0; m < pl->mblocks; m++)
                    for (int i = 0; i < 4; i++) {
                        int at_i = (ks * pl->mblocks + m) * 4 + i;
                        mma_a_reg_slots(pl, da, m, ks, i, &e->a_lo[at_i], &e->a_hi[at_i]);
                    }
        }
    }
    return e->ok ? e : NULL;
}

/* Where an operand's ldmatrix rows are: its lane part's register for the
 * step's XOR (lane_address), plus the step's offset, in the plan's region
 * above the rings (ring NULL) or in the stage of a ring's local_load
 * (the stage's register times its bytes added: the ring's offset stands
 * for the operand's base). */
typedef struct LdAt {
    const MmaPlan *pl;
    bool is_b;
    Op *ring;
} LdAt;

static Slot ld_at(Px *p, const LdAt *w, int block, int kstep, int64_t *off) {
    const MmaPlan *pl = w->pl;
    const MmaOperand *o = w->is_b ? &pl->b : &pl->a;
    int64_t x;
    *off = mma_step_offset(pl, w->is_b, block, kstep, &x);
    Slot r = lane_address(p, pl, o);
    if (!w->ring) {
        *off += p->smem_floor;
    } else {
        *off += int_attr(w->ring, AN_OFFSET) - o->base;
        r = stage_address(p, r, px_tile(p, op_operand(w->ring, 0))->s[0], int_attr(w->ring, AN_STAGE_BYTES), off);
    }
    /* (global_smem + the stage's start, a multiple of 128 bytes, + the
     * swizzled lane part: its XOR with x, bits 4..6, is the lane part's;
     * the offset then adds the region's start and the step's other bits) */
    return x ? px_cse2(p, RC_B32, "xor.b32", px_arg_reg(p, r), px_arg_int(p, x)) : r;
}

/* A's fragment of m-block m at k step ks into out[0..3]: ldmatrix from
 * its shared-memory tile (aw), or packed from its own registers. */
static void a_fragment(Px *p, const PxMmaPlans *plan, Tile *ta, const Type *ea, const LdAt *aw, int m, int ks,
                       Slot *out) {
    const MmaPlan *pl = &plan->plan;
    if (!pl->a.in_regs) {
        int64_t off;
        Slot at = ld_at(p, aw, m, ks, &off);
        ldmatrix(p, 4, pl->a.trans, at, off, out);
        return;
    }
    for (int i = 0; i < 4; i++) {
        int at_i = (ks * pl->mblocks + m) * 4 + i;
        out[i] = pack2(p, ta->s[plan->a_lo[at_i]], ta->s[plan->a_hi[at_i]], ea);
    }
}

/* A text in the arena, readable 16 bytes past its end (px_line_lists). */
static PxText arena_text(Px *p, const char *s) {
    size_t n = strlen(s);
    char *t = arena_alloc(p->ctx->arena, n + 17);
    memcpy(t, s, n + 1);
    return (PxText){t, n};
}

/* A descriptor's register: `mov.b64 d, {lo0 + off >> 4, hi}` (lo0 holds the
 * start address >> 4 and the LBO field; addresses below 256 KB: the
 * offset added there never carries out), as the text of its name. */
static PxText desc_at(Px *p, Slot lo0, Slot hi, int64_t off) {
    Slot lo = off ? px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, lo0), px_arg_int(p, off >> 4)) : lo0;
    const char *pair = px_cat(p, "{", px_rname(p, lo), ", ", px_rname(p, hi), "}", NULL);
    return arena_text(p, px_rname(p, px_cse(p, RC_B64, "mov.b64", pair, NULL, NULL)));
}

/* When a dot's wgmma group is waited for (see emit_wgmma). */
enum { WG_WAIT_AFTER, WG_DEFER_WAIT_FIRST, WG_DEFER, WG_WAIT_ONE };

/* lo0 of a region's descriptors (base: a register). */
static Slot desc_lo0(Px *p, Slot base, uint32_t lbo_field) {
    Slot lo0 = px_cse2(p, RC_B32, "shr.u32", px_arg_reg(p, base), px_arg_int(p, 4));
    return px_cse2(p, RC_B32, "or.b32", px_arg_reg(p, lo0), px_arg_int(p, lbo_field));
}

/* The dot's wgmma. A through its descriptor (a_desc: aregion, its
 * region's base, a register): a fence, then one wgmma.mma_async per k step
 * and m-block. A from registers: per k step, A's fragments, a fence (the
 * tensor cores read registers written since), then the step's wgmma; the
 * next step's ldmatrix runs while they do. B through the descriptor of its
 * region (bregion). One group, waited for at the end (WG_WAIT_AFTER), or
 * deferred to the next iteration: waited for before this dot's next
 * group, or by an earlier dot's wait (see wgmma_deferred). */
static void emit_wgmma(Px *p, const PxMmaPlans *plan, const Type *ea, Tile *ta, const LdAt *aw, Slot aregion,
                       Slot bregion, Tile *acc, int defer) {
    const MmaPlan *pl = &plan->plan;
    p->uses_wgmma = true;
    Slot *af = ARENA_ARRAY(p->ctx->arena, Slot, 4 * pl->mblocks);
    Slot blo = desc_lo0(p, bregion, pl->desc_lbo), bhi = px_cse1(p, RC_B32, "mov.b32", px_arg_int(p, pl->desc_hi));
    Slot alo = {0}, ahi = {0};
    if (pl->a_desc) {
        /* the warpgroup's rows: (tid >> 7) 64 W from A's base */
        if (pl->wm > 4) {
            int64_t coef[MMA_TID_BITS] = {0};
            for (int b = 7; b < pl->tid_bits; b++) coef[b] = wgmma_a_group_bytes(pl) << (b - 7);
            Slot g = coef_sum_reg(p, coef, pl->tid_bits, "0", NULL);
            aregion = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, aregion), px_arg_reg(p, g));
        }
        alo = desc_lo0(p, aregion, 1u << 16); /* (LBO unused: 1) */
        ahi = px_cse1(p, RC_B32, "mov.b32", px_arg_int(p, pl->adesc_hi));
    }
    const char *ab = pl->esize == 2 && ea->fkind == FK_BF16 ? "bf16" : "f16";
    char opc[96];
    snprintf(opc, sizeof opc, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s", (int)pl->N, ab, ab);
    /* scale-d, imm-scale-a, imm-scale-b[, imm-trans-a (A's descriptor:
     * K-major, 0)], imm-trans-b */
    const char *tails[2][2] = {{"1, 1, 1, 0", "1, 1, 1, 1"}, {"1, 1, 1, 0, 0", "1, 1, 1, 0, 1"}};
    PxText op_t = arena_text(p, opc), tail = arena_text(p, tails[pl->a_desc][pl->b.trans]);
    int nacc = 4 * pl->nblocks;
    Slot *cs = ARENA_ARRAY(p->ctx->arena, Slot, nacc);
    PxText *cl = ARENA_ARRAY(p->ctx->arena, PxText, pl->mblocks);
    for (int m = 0; m < pl->mblocks; m++) {
        for (int k = 0; k < nacc; k++) cs[k] = acc->s[plan->acc[m * nacc + k]];
        cl[m] = px_reglist(p, cs, nacc);
    }
    PxText *dl = ARENA_ARRAY(p->ctx->arena, PxText, pl->ksteps);
    PxText *dal = ARENA_ARRAY(p->ctx->arena, PxText, pl->ksteps * pl->mblocks);
    for (int ks = 0; ks < pl->ksteps; ks++) {
        dl[ks] = desc_at(p, blo, bhi, wgmma_b_offset(pl, ks));
        for (int m = 0; pl->a_desc && m < pl->mblocks; m++)
            dal[ks * pl->mblocks + m] = desc_at(p, alo, ahi, wgmma_a_offset(pl, m, ks));
    }
    /* (a deferred dot: the previous iteration's, which reads the registers
     * of A's fragments written next, and shared memory of two iterations
     * back, which the copies after the next barrier overwrite) */
    if (defer == WG_DEFER_WAIT_FIRST) px_line(p, "wgmma.wait_group.sync.aligned 0", NULL);
    if (pl->a_desc) px_line(p, "wgmma.fence.sync.aligned", NULL);
    for (int ks = 0; ks < pl->ksteps; ks++) {
        if (!pl->a_desc) {
            for (int m = 0; m < pl->mblocks; m++) a_fragment(p, plan, ta, ea, aw, m, ks, af + 4 * m);
            px_line(p, "wgmma.fence.sync.aligned", NULL);
        }
        for (int m = 0; m < pl->mblocks; m++) {
            PxText al = pl->a_desc ? dal[ks * pl->mblocks + m] : px_reglist(p, af + 4 * m, 4);
            px_line_lists(p, op_t, (const PxText[]){cl[m], al, dl[ks], tail}, 4);
        }
    }
    px_line(p, "wgmma.commit_group.sync.aligned", NULL);
    /* (late copies: the previous iteration's group; this one runs on
     * through the copies after the barrier, which overwrite that group's
     * stage. A from registers: those the next iteration writes) */
    if (defer == WG_WAIT_ONE && pl->a_desc) px_line(p, "wgmma.wait_group.sync.aligned 1", NULL);
    else if (defer == WG_WAIT_AFTER || defer == WG_WAIT_ONE) px_line(p, "wgmma.wait_group.sync.aligned 0", NULL);
}

/* Whether the dot's wgmma may stay in flight past it (pipeline-async-copy's
 * deferred waits): its loop's ring is deep enough (`wgmma_deferred` on
 * the wait at its top) and waits for it after the loop, its accumulators
 * are the registers of the loop-carried value its result becomes, only
 * the loop's yield reads the result, and the next iteration reads those
 * registers after a wgmma wait: its own dot's, before it starts, or an
 * earlier wgmma dot's, after its group (mma_carried_acc's guard). Never
 * when the dot stores an operand itself (st.shared, not a ring): the
 * next iteration's stores would overwrite what the group still reads. */
static int wgmma_deferred(Px *p, Op *dot, Tile *acc, bool stores) {
    if (stores) return WG_WAIT_AFTER;
    Block *body = dot->parent;
    Op *top = body ? body->first : NULL, *guard;
    if (top && top->kind == TTG_ASYNC_WAIT && op_attr_k(top, AN_WGMMA_LATE)) {
        Value *arg = mma_carried_acc(dot, &guard);
        return arg && acc == px_tile(p, arg) && guard == dot ? WG_WAIT_ONE : WG_WAIT_AFTER;
    }
    if (!top || top->kind != TTG_ASYNC_WAIT || !op_attr_k(top, AN_WGMMA_DEFERRED)) return WG_WAIT_AFTER;
    Value *arg = mma_carried_acc(dot, &guard);
    if (!arg || acc != px_tile(p, arg) || !guard) return WG_WAIT_AFTER;
    if (guard == dot) return WG_DEFER_WAIT_FIRST;
    /* (the guard's wait, after its own group, covered the previous
     * iteration's group of this dot too) */
    return px_value(p, op_result(guard, 0))->wgmma ? WG_DEFER : WG_WAIT_AFTER;
}

bool px_lower_dot_mma(Px *p, Op *op) {
    Value *a = op_operand(op, 0), *b = op_operand(op, 1), *r = op_result(op, 0);
    Type *at = a->type, *bt = b->type, *rt = r->type;
    if (p->sm < 80 || at->rank != 2 || bt->rank != 2 || rt->rank != 2) return false;
    const Type *ea = ty_elem(at), *eb = ty_elem(bt), *ec = ty_elem(rt);
    const char *mma = mma_form(op, ea, eb, ec);
    int es = px_bits(ea) / 8;
    const Dist *da, *db, *dc; /* (the emitter's: not copied) */
    PxMmaPlans *plan;
    if (!mma || !(da = px_dist_of(p, at)) || !(db = px_dist_of(p, bt)) || !(dc = px_dist_of(p, rt)) ||
        !(plan = plan_of(p, at, bt, rt, da, db, dc, es, ring_load(a) != NULL)))
        return false;
    MmaPlan pl = plan->plan;
    /* operands from a cp.async ring are in shared memory already */
    Op *ring_a = pl.a.in_regs ? NULL : ring_load(a), *ring_b = ring_load(b);
    bool store_a = !pl.a.in_regs && !ring_a, store_b = !ring_b;
    Tile *ta = pl.a.in_regs || store_a ? px_tile(p, a) : NULL;
    Slot aregion = {0}, bregion = {0}; /* wgmma: the operands' swizzled regions */
    if (store_a || store_b) {
        /* (wgmma: room to align B's region to 1024 bytes above the rings) */
        px_smem_begin(p, pl.smem_bytes + (pl.wgmma ? 1024 : 0));
        /* (wgmma's swizzled regions 1024-byte aligned above the rings) */
        Slot gs = pl.wgmma ? px_cse1(p, RC_B32, "mov.u32", px_arg_text(p, "global_smem")) : (Slot){0};
        int64_t floor = (p->smem_floor + 1023) & ~(int64_t)1023;
        bool fence = false;
        if (store_a && pl.a_desc) {
            aregion = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, gs), px_arg_int(p, floor + pl.a.base));
            fence = true;
            if (!store_swizzled(p, ta, da, ea, es, &pl.aswz, aregion, 0)) {
                px_fail(p, op, "wgmma operand without a swizzled layout");
                return true;
            }
        } else if (store_a && pl.a.swz.bytes) {
            p->smem_align128 = true;
            if (!store_swizzled(p, ta, da, ea, es, &pl.a.swz, (Slot){0}, p->smem_floor + pl.a.base)) {
                px_fail(p, op, "mma operand without a swizzled layout");
                return true;
            }
        } else if (store_a) {
            store_operand(p, ta, da, ea, es, &pl, false);
        }
        if (store_b && pl.wgmma) {
            bregion = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, gs), px_arg_int(p, floor + pl.b.base));
            fence = true;
            if (!store_swizzled(p, px_tile(p, b), db, eb, es, &pl.bswz, bregion, 0)) {
                px_fail(p, op, "wgmma operand without a swizzled layout");
                return true;
            }
        } else if (store_b && pl.b.swz.bytes) {
            p->smem_align128 = true;
            if (!store_swizzled(p, px_tile(p, b), db, eb, es, &pl.b.swz, (Slot){0}, p->smem_floor + pl.b.base)) {
                px_fail(p, op, "mma operand without a swizzled layout");
                return true;
            }
        } else if (store_b) {
            store_operand(p, px_tile(p, b), db, eb, es, &pl, true);
        }
        /* (the tensor cores read them through the async proxy) */
        if (fence) px_line(p, "fence.proxy.async.shared::cta", NULL);
        px_barrier(p);
    } else {
        p->smem_dirty = true;
    }
    Tile *acc = px_dot_acc(p, op, p->f32, dc->nslots);
    /* each operand's ldmatrix addresses (ld_at): from the plan's region or
     * a ring's stage */
    LdAt aw = {&plan->plan, false, ring_a}, bw = {&plan->plan, true, ring_b};
    /* (the registers of the first step first: B's lane part, A's, then
     * their stages' bases) */
    int64_t off0;
    if (!pl.wgmma) lane_address(p, &pl, &pl.b);
    if (!pl.a.in_regs && !pl.a_desc) lane_address(p, &pl, &pl.a);
    if (ring_a && pl.a_desc) aregion = ring_region(p, ring_a);
    else if (ring_a) ld_at(p, &aw, 0, 0, &off0);
    if (ring_b && pl.wgmma) bregion = ring_region(p, ring_b);
    else if (ring_b) ld_at(p, &bw, 0, 0, &off0);
    if (pl.wgmma) {
        emit_wgmma(p, plan, ea, ta, &aw, aregion, bregion, acc, wgmma_deferred(p, op, acc, store_a || store_b));
        px_value(p, r)->wgmma = true;
    } else {
        /* The operand lists of the mma lines, each made once: the
         * accumulator's for every k step, A's for every n-block, B's for
         * every m-block. */
        PxText *cl = ARENA_ARRAY(p->ctx->arena, PxText, pl.mblocks * pl.nblocks);
        for (int m = 0; m < pl.mblocks; m++)
            for (int n = 0; n < pl.nblocks; n++) {
                Slot cs[4];
                for (int i = 0; i < 4; i++) cs[i] = acc->s[plan->acc[(m * pl.nblocks + n) * 4 + i]];
                cl[m * pl.nblocks + n] = px_reglist(p, cs, 4);
            }
        Slot *af = ARENA_ARRAY(p->ctx->arena, Slot, 4 * pl.mblocks);
        Slot *bf = ARENA_ARRAY(p->ctx->arena, Slot, 2 * pl.nblocks + 2);
        PxText *al = ARENA_ARRAY(p->ctx->arena, PxText, pl.mblocks), *bl = ARENA_ARRAY(p->ctx->arena, PxText, pl.nblocks);
        PxText opc = {mma, strlen(mma)};
        for (int ks = 0; ks < pl.ksteps; ks++) {
            for (int m = 0; m < pl.mblocks; m++) {
                a_fragment(p, plan, ta, ea, &aw, m, ks, af + 4 * m);
                al[m] = px_reglist(p, af + 4 * m, 4);
            }
            for (int n = 0; n < pl.nblocks; n += 2) {
                int64_t off;
                Slot row = ld_at(p, &bw, n, ks, &off);
                ldmatrix(p, n + 1 < pl.nblocks ? 4 : 2, pl.b.trans, row, off, bf + 2 * n);
            }
            for (int n = 0; n < pl.nblocks; n++) bl[n] = px_reglist(p, bf + 2 * n, 2);
            for (int m = 0; m < pl.mblocks; m++)
                for (int n = 0; n < pl.nblocks; n++) {
                    PxText cn = cl[m * pl.nblocks + n];
                    px_line_lists(p, opc, (const PxText[]){cn, al[m], bl[n], cn}, 4);
                }
        }
    }
    Tile *out = px_new_tile(p, dc->nslots);
    memcpy(out->s, acc->s, sizeof(Slot) * (size_t)dc->nslots);
    px_bind(p, r, out);
    return true;
}

/* ---- cp.async rings ------------------------------------------------------
 *
 * pipeline-async-copy (src/transform/gpu/pipeline_async_copy.c) gives the
 * loop's dot operands rings of shared-memory stages at fixed offsets from
 * global_smem; here each op becomes:
 *
 *   ttg.local_alloc {size}     bar.sync when shared memory was used before
 *                              (or may have been: inside a loop);
 *                              the rings hold [0, size) (other users start
 *                              above it until ttg.local_dealloc)
 *   async_copy_global_to_local one cp.async per vector of the tile's
 *                              layout, to the stage's address of each
 *                              element; a mask becomes the src-size (0:
 *                              nothing read, 16 zero bytes written):
 *       selp.b32 %r31, 16, 0, %p5;
 *       cp.async.cg.shared.global [%r30+2320], [%rd12+0], 16, %r31;
 *   async_commit_group         cp.async.commit_group;
 *   async_wait {num}           cp.async.wait_group num; bar.sync 0;
 *   local_load                 nothing: the dot reads the stage (above)
 */
static void lower_async_copy(Px *p, Op *op) {
    Value *ptr = op_operand(op, 1), *mask = op->noperands > 2 ? op_operand(op, 2) : NULL;
    const Dist *d = px_dist_of(p, ptr->type);
    if (!d) return px_fail(p, op, "async copy without a layout");
    /* a swizzled ring (wgmma's operands) */
    const Attr *sa = op_attr_k(op, AN_SWIZZLE);
    const PxSwz *sw = NULL;
    if (sa) {
        SmemSwz z = swz_decode(sa);
        if (!(sw = swz_of(p, d, &z))) return px_fail(p, op, "swizzled ring of a layout it cannot place");
        p->smem_align128 = true;
    }
    Tile *pt = px_tile(p, ptr), *mt = mask ? px_tile(p, mask) : NULL;
    const Type *pe = ty_elem(ptr->type)->elem;
    int es = px_bits(pe) / 8, vec = (int)int_attr(op, AN_VEC), f = d->order[0];
    int bytes = vec * es;
    int64_t strides[2] = {int_attr(op, AN_STRIDE0), int_attr(op, AN_STRIDE1)};
    int64_t off = int_attr(op, AN_OFFSET);
    Slot gs = px_cse1(p, RC_B32, "mov.u32", px_arg_text(p, "global_smem"));
    Slot base = stage_address(p, gs, px_tile(p, op_operand(op, 0))->s[0], int_attr(op, AN_STAGE_BYTES), &off);
    PxText opc = bytes == 16 ? PX_LIT("cp.async.cg.shared.global") : PX_LIT("cp.async.ca.shared.global");
    PxArg size = px_arg_int(p, bytes);
    const char *size_s = px_arg_str(p, size);
    size_t size_n = strlen(size_s);
    int shift = es == 4 ? 2 : es == 2 ? 1 : es == 8 ? 3 : 0;
    /* a vector starts where j along f (counted first) is a multiple of vec */
    Slot lb = {0};
    const int64_t *loff = sw ? NULL : px_linear_indices(p, d, strides, &lb);
    for (int i = 0; i < d->nslots; i++) {
        if (i % d->per_dim[f] % vec) continue;
        Slot idx = sw ? (Slot){0} : px_linear_at(lb, loff, i);
        Slot dst = base;
        int64_t add = 0;
        if (sw) {
            dst = swz_address(p, base, sw, i, &add);
        } else if (idx.kind == SLOT_REG) {
            Slot ri = {SLOT_REG, RC_B32, idx.reg, {0}};
            Slot sc = shift ? px_cse2(p, RC_B32, "shl.b32", px_arg_reg(p, ri), px_arg_int(p, shift)) : ri;
            dst = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, base), px_arg_reg(p, sc));
        }
        Slot src = pt->s[pt->n == d->nslots ? i : 0];
        Slot m = mt ? mt->s[mt->n == d->nslots ? i : 0] : (Slot){0};
        bool all = !mt || (m.kind == SLOT_IMM && (m.off & 1));
        Slot srcsize = {0}; /* a register, else 0 */
        if (!all && m.kind != SLOT_IMM)
            srcsize = px_cse3(p, RC_B32, "selp.b32", size, px_arg_int(p, 0), px_arg_reg(p, m));
        /* `cp.async... [dst+off], [src+off], size[, srcsize]` */
        char *w = px_w_text(px_w_begin(p, opc.n + 2 * PX_W_ADDR + size_n + PX_W_NAME + 4), opc.s, opc.n);
        *w++ = ' ';
        w = px_w_addr(p, w, dst, off + add + idx.off * es, true);
        *w++ = ',', *w++ = ' ';
        w = px_w_addr(p, w, (Slot){SLOT_REG, RC_B64, src.reg, {0}}, src.off, true);
        *w++ = ',', *w++ = ' ';
        w = px_w_text(w, size_s, size_n);
        if (!all) {
            *w++ = ',', *w++ = ' ';
            if (srcsize.kind == SLOT_REG) w = px_w_regs(p, w, &srcsize, 1);
            else *w++ = '0';
        }
        px_w_end(p, w);
    }
}

void px_lower_async(Px *p, Op *op) {
    switch (op->kind) {
    case TTG_LOCAL_ALLOC: {
        int64_t size = int_attr(op, AN_SIZE);
        if (p->smem_floor) return px_fail(p, op, "nested cp.async rings");
        /* in a loop (a persistent kernel's tile loop), the previous
         * iteration's later users of shared memory (an epilogue's layout
         * conversion) may still be reading what the prologue's cp.async
         * overwrites: a barrier each time, as for the other allocations */
        if (p->smem_dirty || p->loop_depth > 0) px_barrier(p);
        p->smem_dirty = true;
        p->smem_floor = (int)((size + 127) & ~127);
        if (p->smem_floor > p->smem_size) p->smem_size = p->smem_floor;
        p->epoch++; /* addresses memoised below the rings are stale */
        return;
    }
    case TTG_LOCAL_DEALLOC:
        p->smem_floor = 0;
        p->epoch++;
        return;
    case TTG_ASYNC_COPY: lower_async_copy(p, op); return;
    case TTG_ASYNC_COMMIT: px_line(p, "cp.async.commit_group", NULL); return;
    case TTG_ASYNC_WAIT:
        px_line(p, "cp.async.wait_group ", px_int(p, int_attr(op, AN_NUM)), NULL);
        /* after a loop of deferred wgmma: the last dot's */
        if (op_attr_k(op, AN_WGMMA_WAIT))
            px_line(p, "wgmma.wait_group.sync.aligned ", px_int(p, int_attr(op, AN_WGMMA_WAIT)), NULL);
        /* (each thread's copies, for the tensor cores' reads through the
         * async proxy: wgmma's B) */
        if (op_attr_k(op, AN_PROXY_FENCE)) px_line(p, "fence.proxy.async.shared::cta", NULL);
        px_barrier(p);
        return;
    case TTG_LOCAL_STORE: {
        /* (once, before the loop: the wait at the loop's top fences it for
         * the async proxy and its barrier makes it whole) */
        Value *v = op_operand(op, 1);
        const Dist *d = px_dist_of(p, v->type);
        const Attr *sa = op_attr_k(op, AN_SWIZZLE);
        if (!d || !sa) return px_fail(p, op, "local_store without a layout");
        SmemSwz z = swz_decode(sa);
        const Type *e = ty_elem(v->type);
        if (!store_swizzled(p, px_tile(p, v), d, e, px_bits(e) / 8, &z, ring_region(p, op), 0))
            return px_fail(p, op, "local_store of a layout it cannot place");
        p->smem_dirty = true;
        return;
    }
    case TTG_LOCAL_LOAD:
        for (Use *u = op_result(op, 0)->uses; u; u = u->next)
            if (u->owner->kind != TT_DOT || u == &u->owner->operands[2])
                return px_fail(p, op, "a ring's tile is read by something other than a dot operand");
        return;
    default:
        return;
    }
}
