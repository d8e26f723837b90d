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
 *      padded, as vectors of up to 16 bytes where the layout gives a thread
 *      consecutive elements:   st.shared.v4.b32 [%r9+2320], {%r1, %r2, %r3, %r4};
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
 * plan's per-bit coefficients of %tid.x) is computed once, in the
 * prologue; every instruction then adds an immediate.
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
    op_attr_int(dot, "inputPrecision", &prec);
    if (ea->fkind == FK_F32 && prec == TT_PREC_TF32)
        return "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    return NULL;
}

/* `{lo, hi}` packed into one 32-bit register (lo in the low half). */
static Slot pack2(Px *p, Slot lo, Slot hi, const Type *e) {
    const char *v = px_cat(p, "{", px_rname(p, px_mat(p, lo, e)), ", ", px_rname(p, px_mat(p, hi, e)), "}", NULL);
    return px_cse(p, RC_B32, "mov.b32", v, NULL, NULL);
}

/* Writes an operand's tile to its region of shared memory: element (i, j)
 * at base + (i * stride[0] + j * stride[1]) * es bytes. A thread's run of
 * consecutive elements along its layout's fastest dimension, when that
 * dimension is the stored rows' contiguous one, goes as one vector of up to
 * 16 bytes (the run starts at a multiple of its length; rows and regions
 * are 16-byte aligned); 16-bit elements travel in pairs, one 32-bit word. */
static void store_operand(Px *p, Tile *t, const Dist *d, const Type *e, int es, const MmaOperand *o) {
    int f = d->order[0];
    int run = d->spt[f] < d->shape[f] ? d->spt[f] : (int)d->shape[f];
    int vec = o->stride[f] == 1 ? (run < 16 / es ? run : 16 / es) : 1;
    int per_word = 4 / es, nwords = vec / per_word;
    for (int i = 0; i < d->nslots; i++) {
        int j[TTG_MAX_RANK];
        dist_slot_j(d, i, j);
        if (j[f] % vec) continue;
        const char *addr = px_smem_addr(p, px_linear_index(p, d, i, o->stride), es, o->base);
        if (nwords == 0) {
            px_line(p, "st.shared.b16 ", addr, ", ", px_rname(p, px_mat(p, t->s[i], e)), NULL);
            continue;
        }
        const char *w[4];
        for (int k = 0; k < nwords; k++) {
            int jl[TTG_MAX_RANK], jh[TTG_MAX_RANK];
            memcpy(jl, j, sizeof j);
            memcpy(jh, j, sizeof j);
            jl[f] += per_word * k;
            jh[f] += per_word * k + 1;
            Slot lo = t->s[dist_slot_of_j(d, jl)];
            w[k] = px_rname(p, es == 4 ? px_mat(p, lo, e) : pack2(p, lo, t->s[dist_slot_of_j(d, jh)], e));
        }
        if (nwords == 1) px_line(p, "st.shared.b32 ", addr, ", ", w[0], NULL);
        else if (nwords == 2) px_line(p, "st.shared.v2.b32 ", addr, ", {", w[0], ", ", w[1], "}", NULL);
        else px_line(p, "st.shared.v4.b32 ", addr, ", {", w[0], ", ", w[1], ", ", w[2], ", ", w[3], "}", NULL);
    }
}

/* global_smem + the lane part of an operand's ldmatrix addresses, in the
 * prologue: the coefficients of runs of thread-id bits that scale alike
 * are applied with one bfe and one mad. */
static Slot lane_address(Px *p, const MmaPlan *pl, const MmaOperand *o) {
    uint64_t h = 0x3a11;
    for (int b = 0; b < pl->tid_bits; b++) h = hash_combine(h, (uint64_t)o->coef[b]);
    h |= 1;
    Slot *cached = map_get(&p->tparts, h);
    if (cached) return *cached;
    Slot r = px_reg(p, RC_B32), t = px_reg(p, RC_B32);
    const char *rn = px_rname(p, r), *tn = px_rname(p, t), *tid = px_rname(p, p->tid);
    px_emit_pro(p, "mov.u32 %s, global_smem", rn);
    for (int b = 0; b < pl->tid_bits;) {
        if (!o->coef[b]) {
            b++;
            continue;
        }
        int len = 1;
        while (b + len < pl->tid_bits && o->coef[b + len] == o->coef[b] << len) len++;
        px_emit_pro(p, "bfe.u32 %s, %s, %d, %d", tn, tid, b, len);
        px_emit_pro(p, "mad.lo.s32 %s, %s, %lld, %s", rn, tn, (long long)o->coef[b], rn);
        b += len;
    }
    Slot *keep = ARENA_NEW(p->ctx->arena, Slot);
    *keep = r;
    map_put(&p->tparts, h, keep);
    return r;
}

static const char *regs4(Px *p, const Slot *s) {
    return px_cat(p, "{", px_rname(p, s[0]), ", ", px_rname(p, s[1]), ", ", px_rname(p, s[2]), ", ",
                  px_rname(p, s[3]), "}", NULL);
}

/* ldmatrix of n (2 or 4) blocks into fresh registers out[0..n-1]. */
static void ldmatrix(Px *p, int n, bool trans, Slot base, int64_t off, Slot *out) {
    for (int i = 0; i < n; i++) out[i] = px_reg(p, RC_B32);
    const char *dst = n == 4 ? regs4(p, out) : px_cat(p, "{", px_rname(p, out[0]), ", ", px_rname(p, out[1]), "}", NULL);
    static const char *const opc[2][2] = {
        {"ldmatrix.sync.aligned.m8n8.x2.shared.b16 ", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 "},
        {"ldmatrix.sync.aligned.m8n8.x4.shared.b16 ", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "}};
    px_line(p, opc[n == 4][trans], dst, ", ", px_addr(p, px_rname(p, base), off, true), NULL);
}

bool px_lower_dot_mma(Px *p, Op *op) {
    Value *a = op_operand(op, 0), *b = op_operand(op, 1), *c = op_operand(op, 2), *r = op_result(op, 0);
    Type *at = a->type, *bt = b->type, *rt = r->type;
    if (p->sm < 80 || at->rank != 2 || bt->rank != 2 || rt->rank != 2) return false;
    const Type *ea = ty_elem(at), *eb = ty_elem(bt), *ec = ty_elem(rt);
    const char *mma = mma_form(op, ea, eb, ec);
    int es = px_bits(ea) / 8;
    Dist da, db, dc;
    MmaPlan pl;
    if (!mma || !px_dist(p, at, &da) || !px_dist(p, bt, &db) || !px_dist(p, rt, &dc) ||
        !mma_plan(&dc, &da, &db, es, &pl))
        return false;
    Tile *ta = px_tile(p, a), *tb = px_tile(p, b);
    px_smem_begin(p, pl.smem_bytes);
    if (!pl.a.in_regs) store_operand(p, ta, &da, ea, es, &pl.a);
    store_operand(p, tb, &db, eb, es, &pl.b);
    px_barrier(p);
    Tile *acc = px_dot_acc(p, c, p->f32, dc.nslots);
    Slot abase = pl.a.in_regs ? (Slot){0} : lane_address(p, &pl, &pl.a), bbase = lane_address(p, &pl, &pl.b);
    Slot *af = ARENA_ARRAY(p->ctx->arena, Slot, 4 * pl.mblocks);
    Slot *bf = ARENA_ARRAY(p->ctx->arena, Slot, 2 * pl.nblocks + 2);
    for (int ks = 0; ks < pl.ksteps; ks++) {
        for (int m = 0; m < pl.mblocks; m++) {
            if (!pl.a.in_regs) {
                ldmatrix(p, 4, pl.a.trans, abase, mma_a_offset(&pl, m, ks), af + 4 * m);
                continue;
            }
            for (int i = 0; i < 4; i++) {
                int lo, hi;
                mma_a_reg_slots(&pl, &da, m, ks, i, &lo, &hi);
                af[4 * m + i] = pack2(p, ta->s[lo], ta->s[hi], ea);
            }
        }
        for (int n = 0; n < pl.nblocks; n += 2)
            ldmatrix(p, n + 1 < pl.nblocks ? 4 : 2, pl.b.trans, bbase, mma_b_offset(&pl, n, ks), bf + 2 * n);
        for (int m = 0; m < pl.mblocks; m++)
            for (int n = 0; n < pl.nblocks; n++) {
                Slot cs[4];
                for (int i = 0; i < 4; i++) cs[i] = acc->s[mma_acc_slot(&pl, m, n, i)];
                const char *cn = regs4(p, cs);
                px_line(p, mma, " ", cn, ", ", regs4(p, af + 4 * m), ", {", px_rname(p, bf[2 * n]), ", ",
                        px_rname(p, bf[2 * n + 1]), "}, ", cn, NULL);
            }
    }
    Tile *out = px_new_tile(p, dc.nslots);
    memcpy(out->s, acc->s, sizeof(Slot) * (size_t)dc.nslots);
    px_bind(p, r, out);
    return true;
}
