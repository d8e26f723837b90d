/*
 * ptx_memory.c - global memory: tt.load, tt.store, tt.atomic_rmw,
 * tt.atomic_cas.
 *
 * A thread's slots along the layout's fastest dimension are consecutive
 * elements; they are moved `vec` at a time, where vec is the largest power
 * of two that the layout's per-thread run, the pointer's contiguity and
 * alignment (axis info), the mask's constancy and 16 bytes all allow. The
 * access is then one `ld.global.v4.b32` (or v2, or scalar) under the mask's
 * predicate, its address `[base+offset]` from the first slot of the vector:
 *
 *     mov.f32 %f1, 0f00000000;            (the `other` value, masked loads)
 *     @%p1 ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5+16];
 *
 * fp16/bf16 travel packed two to a 32-bit word (mov.b32 {%h1, %h2}, %r1),
 * 8-bit types four to a word. Stores and atomics are issued only by the
 * thread that owns each element (layouts can give one element to several
 * threads); a scalar atomic's result is broadcast through shared memory.
 */
#include "target/ptx/ptx_lower.h"

#include <stdio.h>
#include <string.h>

static int pow2_floor(int64_t v) {
    int r = 1;
    while ((int64_t)r * 2 <= v) r *= 2;
    return r;
}

int px_access_vec(Px *p, Value *ptr, Value *mask, const Dist *d, const Type *e) {
    if (ptr->type->kind != TY_TENSOR) return 1;
    int o0 = d->order[0];
    int ebits = px_bits(e);
    if (e->kind == TY_INT && e->width == 1) return 1;
    int64_t run = d->spt[o0] < d->shape[o0] ? d->spt[o0] : d->shape[o0];
    if (run <= 1) return 1; /* (one element at a time whatever the axis info) */
    const AxisInfo *ai = axis_info(px_axis(p), ptr);
    int64_t v = run;
    if (ai->contig[o0] < v) v = ai->contig[o0];
    int64_t align = ai->div[o0] * 8 / ebits;
    if (align < v) v = align < 1 ? 1 : align;
    if (128 / ebits < v) v = 128 / ebits;
    if (mask && mask->type->kind == TY_TENSOR) {
        const AxisInfo *mi = axis_info(px_axis(p), mask);
        if (mi->cnst[o0] < v) v = mi->cnst[o0];
    }
    int vec = pow2_floor(v < 1 ? 1 : v);
    if (vec * ebits < 32 && vec > 1) vec = 1; /* sub-word vectors: one at a time */
    return vec;
}

/* An access's opcode, head + qualifier + vector + "." + type, made once
 * per kernel (its accesses have a few: a list, found by the pieces'
 * pointers, all literals). */
typedef struct PxAccessOpc {
    const char *head, *q, *vec, *ty;
    PxText text;
    struct PxAccessOpc *next;
} PxAccessOpc;

static PxText access_opcode(Px *p, const char *head, const char *q, const char *vec, const char *ty) {
    for (const PxAccessOpc *a = p->access_opcs; a; a = a->next)
        if (a->head == head && a->q == q && a->vec == vec && a->ty == ty) return a->text;
    const char *s = px_cat(p, head, q, vec, ".", ty, NULL);
    PxAccessOpc *a = ARENA_NEW(p->ctx->arena, PxAccessOpc);
    *a = (PxAccessOpc){head, q, vec, ty, {s, strlen(s)}, p->access_opcs};
    p->access_opcs = a;
    return a->text;
}

/* `[@pred ]opcode regs, [ptr]` (a load), `[@pred ]opcode [ptr], regs` (a
 * store): regs one register or a vector's; ptr a pointer slot (`reg + off`
 * or an address). */
static void global_access(Px *p, Slot pred, PxText opc, const Slot *regs, int n, Slot ptr, bool store) {
    char *w = px_w_begin(p, PX_W_NAME + opc.n + PX_W_ADDR + PX_W_NAME * (size_t)n);
    if (pred.kind == SLOT_REG) {
        *w++ = '@';
        w = px_w_regs(p, w, &pred, 1);
        *w++ = ' ';
    }
    w = px_w_text(w, opc.s, opc.n);
    *w++ = ' ';
    if (store) {
        w = px_w_addr(p, w, ptr, ptr.off, false);
        *w++ = ',', *w++ = ' ';
        w = px_w_regs(p, w, regs, n);
    } else {
        w = px_w_regs(p, w, regs, n);
        *w++ = ',', *w++ = ' ';
        w = px_w_addr(p, w, ptr, ptr.off, false);
    }
    px_w_end(p, w);
}

/* A masked load of one register whose `other` is a short text (an
 * immediate's, o): `mov r, o;` and `@pred opcode r, [ptr]` written at
 * once, the two lines of most masked loads. */
static void masked_load1(Px *p, PxText mov, Slot r, const PxTextEntry *o, Slot pred, PxText opc, Slot ptr) {
    char *w = px_w_begin(p, mov.n + o->len + opc.n + 3 * PX_W_NAME + PX_W_ADDR + 8);
    w = px_w_text(w, mov.s, mov.n);
    *w++ = ' ';
    w = px_w_name(p, w, r);
    *w++ = ',', *w++ = ' ';
    w = px_w_text(w, o->s, o->len);
    *w++ = ';', *w++ = '\n', *w++ = '\t', *w++ = '@';
    w = px_w_name(p, w, pred);
    *w++ = ' ';
    w = px_w_text(w, opc.s, opc.n);
    *w++ = ' ';
    w = px_w_name(p, w, r);
    *w++ = ',', *w++ = ' ';
    w = px_w_addr(p, w, ptr, ptr.off, false);
    px_w_end(p, w);
}

static const char *addr_text(Px *p, Slot ptr, const Type *pt) {
    if (ptr.kind == SLOT_IMM) return px_cat(p, "[", px_int(p, ptr.off), "]", NULL);
    return px_addr(p, px_rname(p, (Slot){SLOT_REG, RC_B64, ptr.reg, {0}}), ptr.off, false);
}

/* `%r1` or `{%r1, %r2, ...}`: a vector access's registers. */
static const char *reg_list(Px *p, const char *const *names, int n) {
    if (n == 1) return names[0];
    size_t len = 2 + 2 * (size_t)(n - 1);
    for (int k = 0; k < n; k++) len += strlen(names[k]);
    char *out = arena_alloc(p->ctx->arena, len + 1), *w = out;
    *w++ = '{';
    for (int k = 0; k < n; k++) {
        if (k) *w++ = ',', *w++ = ' ';
        size_t m = strlen(names[k]);
        memcpy(w, names[k], m);
        w += m;
    }
    *w++ = '}', *w = 0;
    return out;
}

static const char *load_qual(const Op *op) {
    int64_t cache = 0, evict = 0, vol = 0;
    op_attr_int_k(op, AN_CACHE, &cache);
    op_attr_int_k(op, AN_EVICT, &evict);
    Attr *va = op_attr_k(op, AN_IS_VOLATILE);
    if (va && (va->kind == ATTR_UNIT || (va->kind == ATTR_BOOL && va->b))) vol = 1;
    if (vol) return ".volatile";
    if (evict == TT_EVICT_LAST) return ".L1::evict_last";
    if (evict == TT_EVICT_FIRST) return ".L1::evict_first";
    switch (cache) {
    case TT_CACHE_CA: return ".ca";
    case TT_CACHE_CG: return ".cg";
    case TT_CACHE_CS: return ".cs";
    case TT_CACHE_CV: return ".cv";
    default: return "";
    }
}

static const char *store_qual(const Op *op) {
    int64_t cache = 0, evict = 0;
    op_attr_int_k(op, AN_CACHE, &cache);
    op_attr_int_k(op, AN_EVICT, &evict);
    if (evict == TT_EVICT_LAST) return ".L1::evict_last";
    if (evict == TT_EVICT_FIRST) return ".L1::evict_first";
    switch (cache) {
    case TT_CACHE_WB: return ".wb";
    case TT_CACHE_CG: return ".cg";
    case TT_CACHE_CS: return ".cs";
    case TT_CACHE_WT: return ".wt";
    default: return "";
    }
}

static const char *vec_prefix(int n) { return n == 4 ? ".v4" : n == 2 ? ".v2" : ""; }

/* Slots of one vector: those with j[o0] = j0[o0] + k, which are the
 * consecutive slots from the head (o0, the fastest dimension, is counted
 * first: a step of j along it is a step of the slot). */
static void vec_slots(const Dist *d, int slot, int vec, int *out) {
    (void)d;
    for (int k = 0; k < vec; k++) out[k] = slot + k;
}

/* Whether the slot starts a vector: its j along o0 (the slot modulo the
 * dimension's count, o0 being counted first) a multiple of vec. */
static bool is_vec_head(const Dist *d, int slot, int vec) { return slot % d->per_dim[d->order[0]] % vec == 0; }

/* The operand of a masked word's `other` (slot i of ot; zero when there
 * is no `other`): mostly an immediate, a splat constant, and then the last
 * one's operand is kept (an immediate's operand is a memo's answer, but
 * px_arg asks it out of line). */
typedef struct OtherMemo {
    RegClass rc;
    const Type *e;
    Slot last_imm;
    PxArg last_arg;
} OtherMemo;

static PxArg other_arg(Px *p, OtherMemo *m, const Tile *ot, int i) {
    RegClass rc = m->rc;
    Slot o = !ot ? (rc == RC_F32 || rc == RC_F64 ? px_imm_float(0.0, rc) : px_imm_int(0, rc)) : ot->s[i];
    if (o.kind != SLOT_IMM) return px_arg(p, o, m->e);
    if (m->last_arg && o.rc == m->last_imm.rc && o.off == m->last_imm.off) /* (off: the value's bits) */
        return m->last_arg;
    m->last_imm = o;
    return m->last_arg = px_arg(p, o, m->e);
}

void px_lower_load(Px *p, Op *op) {
    Value *ptr = op_operand(op, 0);
    Value *mask = op->noperands > 1 ? op_operand(op, 1) : NULL;
    Value *other = op->noperands > 2 ? op_operand(op, 2) : NULL;
    Value *res = op_result(op, 0);
    const Type *e = ty_elem(res->type);
    Tile *pt = px_tile(p, ptr), *mt = mask ? px_tile(p, mask) : NULL, *ot = other ? px_tile(p, other) : NULL;
    bool tile = res->type->kind == TY_TENSOR;
    const Dist *d = tile ? px_dist_of(p, res->type) : NULL;
    if (tile && !d) return px_fail(p, op, "load without a layout");
    int n = tile ? d->nslots : 1;
    Tile *out = px_new_tile(p, n);
    px_bind(p, res, out);
    int vec = tile ? px_access_vec(p, ptr, mask, d, e) : 1;
    int ebits = px_bits(e);
    RegClass rc = px_rc(e);
    Type *i1 = p->i1;
    const char *q = load_qual(op);
    bool is_bool = e->kind == TY_INT && e->width == 1;
    PxText opc = {0}; /* made at the first access: the same for all */
    /* a masked word's `other` goes into its register first: the move's
     * opcode is the same for all, and so mostly is the operand (other_arg) */
    PxText mov = rc == RC_F32 ? PX_LIT("mov.f32") : rc == RC_F64 ? PX_LIT("mov.f64")
                 : rc == RC_B64 ? PX_LIT("mov.b64") : PX_LIT("mov.b32");
    OtherMemo om = {.rc = rc, .e = e};
    if (vec == 1 && ebits >= 32 && !is_bool) {
        /* one register a slot, the loop below in its one case (most loads
         * of tiles whose threads hold no runs, and scalars) */
        for (int i = 0; i < n; i++) {
            Slot m = mt ? mt->s[mt->n == n ? i : 0] : (Slot){0};
            if (mt && m.kind == SLOT_IMM && !(m.off & 1)) { /* never loaded */
                out->s[i] = ot ? ot->s[ot->n == n ? i : 0] : px_imm_int(0, rc);
                continue;
            }
            Slot pred = mt && m.kind != SLOT_IMM ? px_mat(p, m, i1) : (Slot){0};
            Slot at = pt->s[pt->n == n ? i : 0];
            Slot r = out->s[i] = px_reg(p, rc);
            if (!opc.s) {
                const char *ty = rc == RC_F32 ? "f32" : rc == RC_F64 ? "f64" : ebits == 64 ? "b64" : "b32";
                opc = access_opcode(p, "ld.global", q, "", ty);
            }
            if (pred.kind != SLOT_REG) {
                global_access(p, pred, opc, &r, 1, at, false);
                continue;
            }
            PxArg oa = other_arg(p, &om, ot, ot && ot->n == n ? i : 0);
            if (!(oa & PX_REG_ID) && p->texts.data[oa - 1].len <= 32) {
                masked_load1(p, mov, r, &p->texts.data[oa - 1], pred, opc, at);
            } else {
                px_ins_args(p, mov, r, oa, 0);
                global_access(p, pred, opc, &r, 1, at, false);
            }
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        if (tile && vec > 1 && !is_vec_head(d, i, vec)) continue;
        int idx[16];
        if (tile) vec_slots(d, i, vec, idx);
        else idx[0] = 0;
        Slot m = mt ? mt->s[mt->n == n ? i : 0] : (Slot){0};
        if (mt && m.kind == SLOT_IMM && !(m.off & 1)) {
            /* never loaded */
            for (int k = 0; k < vec; k++)
                out->s[idx[k]] = ot ? ot->s[ot->n == n ? idx[k] : 0] : px_imm_int(0, rc);
            continue;
        }
        Slot pred = {0};
        if (mt && m.kind != SLOT_IMM) pred = px_mat(p, m, i1);
        bool masked = pred.kind == SLOT_REG;
        Slot at = pt->s[pt->n == n ? i : 0];
        if (is_bool || (ebits < 32 && vec == 1)) {
            /* one sub-word element */
            Slot r = px_reg(p, ebits == 16 && rc == RC_B16 ? RC_B16 : RC_B32);
            if (masked) {
                Slot o = ot ? ot->s[ot->n == n ? i : 0] : px_imm_int(0, rc);
                if (is_bool) o = px_cast(p, o, i1, p->i32, false, 0);
                if (o.rc == RC_B16 && r.rc == RC_B32) /* an fp8 `other`, held in 16 bits */
                    px_ins_args(p, PX_LIT("cvt.u32.u16"), r, px_arg(p, o, e), 0);
                else
                    px_ins_args(p, r.rc == RC_B16 ? PX_LIT("mov.b16") : PX_LIT("mov.b32"), r,
                                px_arg(p, o, is_bool ? p->i32 : e), 0);
            }
            if (!opc.s) {
                const char *ty = ebits == 16 ? (rc == RC_B16 ? "b16" : "s16") : (e->kind == TY_INT && !is_bool ? "s8" : "u8");
                opc = access_opcode(p, "ld.global", q, "", ty);
            }
            global_access(p, pred, opc, &r, 1, at, false);
            if (is_bool) r = px_cse(p, RC_PRED, "setp.ne.s32", px_rname(p, r), "0", NULL);
            else if (rc == RC_B16 && ebits == 8) r = px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, r), NULL, NULL);
            out->s[idx[0]] = r;
            continue;
        }
        if (ebits >= 32) {
            /* load straight into the slots' registers */
            if (!opc.s) {
                const char *ty = rc == RC_F32 ? "f32" : rc == RC_F64 ? "f64" : ebits == 64 ? "b64" : "b32";
                opc = access_opcode(p, "ld.global", q, vec_prefix(vec), ty);
            }
            Slot regs[16];
            for (int k = 0; k < vec; k++) {
                Slot r = px_reg(p, rc);
                if (masked) {
                    PxArg oa = other_arg(p, &om, ot, ot && ot->n == n ? idx[k] : 0);
                    px_ins_args(p, mov, r, oa, 0);
                }
                out->s[idx[k]] = r;
                regs[k] = r;
            }
            global_access(p, pred, opc, regs, vec, at, false);
            continue;
        }
        /* packed sub-word elements: words of 32 bits */
        int per_word = 32 / ebits, nwords = vec / per_word;
        Slot words[4];
        for (int w = 0; w < nwords; w++) {
            words[w] = px_reg(p, RC_B32);
            if (masked) {
                /* pack `other` (immediates only for 8-bit types) */
                if (ebits == 16) {
                    Slot lo = ot ? ot->s[ot->n == n ? idx[w * 2] : 0] : px_imm_int(0, RC_B16);
                    Slot hi = ot ? ot->s[ot->n == n ? idx[w * 2 + 1] : 0] : px_imm_int(0, RC_B16);
                    if (lo.kind == SLOT_IMM && hi.kind == SLOT_IMM)
                        px_ins_args(p, PX_LIT("mov.b32"), words[w], px_arg_int(p, (lo.off & 0xffff) | ((hi.off & 0xffff) << 16)), 0);
                    else
                        px_emit(p, "mov.b32 %s, {%s, %s}", px_rname(p, words[w]), px_opnd(p, lo, e), px_opnd(p, hi, e));
                } else {
                    uint32_t wv = 0;
                    for (int k = 0; k < per_word; k++) {
                        Slot o = ot ? ot->s[ot->n == n ? idx[w * per_word + k] : 0] : px_imm_int(0, rc);
                        if (o.kind != SLOT_IMM) px_fail(p, op, "non-constant `other` for an 8-bit load");
                        wv |= (uint32_t)(o.off & 0xff) << (8 * k);
                    }
                    px_ins_args(p, PX_LIT("mov.b32"), words[w], px_arg_int(p, wv), 0);
                }
            }
        }
        if (!opc.s) opc = access_opcode(p, "ld.global", q, vec_prefix(nwords), "b32");
        global_access(p, pred, opc, words, nwords, at, false);
        for (int w = 0; w < nwords; w++) {
            const char *wn = px_rname(p, words[w]);
            if (ebits == 16) {
                Slot lo = px_reg(p, RC_B16), hi = px_reg(p, RC_B16);
                px_unpack2(p, lo, hi, words[w]);
                if (rc == RC_B16) {
                    out->s[idx[w * 2]] = lo;
                    out->s[idx[w * 2 + 1]] = hi;
                } else { /* i16 in 32-bit registers */
                    out->s[idx[w * 2]] = px_cse(p, RC_B32, "cvt.s32.s16", px_rname(p, lo), NULL, NULL);
                    out->s[idx[w * 2 + 1]] = px_cse(p, RC_B32, "cvt.s32.s16", px_rname(p, hi), NULL, NULL);
                }
            } else {
                for (int k = 0; k < 4; k++) {
                    const char *pos = px_int(p, 8 * k);
                    if (rc == RC_B16) {
                        Slot b = px_cse(p, RC_B32, "bfe.u32", wn, pos, "8");
                        out->s[idx[w * 4 + k]] = px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, b), NULL, NULL);
                    } else {
                        out->s[idx[w * 4 + k]] = px_cse(p, RC_B32, "bfe.s32", wn, pos, "8");
                    }
                }
            }
        }
    }
}

/* The predicate of an access: mask and ownership; NONE when always. */
static Slot access_pred(Px *p, Slot m, bool has_mask, Slot owner) {
    Type *i1 = p->i1;
    if (has_mask && m.kind == SLOT_IMM && !(m.off & 1)) return px_imm_int(0, RC_PRED);
    bool mreg = has_mask && m.kind != SLOT_IMM;
    if (mreg && owner.kind == SLOT_REG)
        return px_cse(p, RC_PRED, "and.pred", px_opnd(p, m, i1), px_rname(p, owner), NULL);
    if (mreg) return px_mat(p, m, i1);
    return owner;
}

void px_lower_store(Px *p, Op *op) {
    Value *ptr = op_operand(op, 0), *val = op_operand(op, 1);
    Value *mask = op->noperands > 2 ? op_operand(op, 2) : NULL;
    const Type *e = ty_elem(val->type);
    Tile *pt = px_tile(p, ptr), *vt = px_tile(p, val), *mt = mask ? px_tile(p, mask) : NULL;
    bool tile = ptr->type->kind == TY_TENSOR;
    const Dist *d = tile ? px_dist_of(p, ptr->type) : NULL;
    if (tile && !d) return px_fail(p, op, "store without a layout");
    int n = tile ? d->nslots : 1;
    int vec = tile ? px_access_vec(p, ptr, mask, d, e) : 1;
    Slot owner = tile ? px_owner_pred(p, d) : px_scalar_owner_pred(p);
    int ebits = px_bits(e);
    RegClass rc = px_rc(e);
    const char *q = store_qual(op);
    bool is_bool = e->kind == TY_INT && e->width == 1;
    PxText opc = {0}; /* made at the first access: the same for all */
    for (int i = 0; i < n; i++) {
        if (tile && !is_vec_head(d, i, vec)) continue;
        int idx[16];
        if (tile) vec_slots(d, i, vec, idx);
        else idx[0] = 0;
        Slot pr = access_pred(p, mt ? mt->s[mt->n == n ? i : 0] : (Slot){0}, mt != NULL, owner);
        if (pr.kind == SLOT_IMM) continue; /* masked off */
        Slot at = pt->s[pt->n == n ? i : 0];
        if (is_bool || (ebits < 32 && vec == 1)) {
            Slot v = vt->s[vt->n == n ? i : 0];
            if (is_bool) v = px_cast(p, v, e, p->i32, false, 0);
            const char *ty = ebits == 16 ? "b16" : "b8";
            if (rc == RC_B16 && ebits == 8) v = px_cse(p, RC_B32, "cvt.u32.u16", px_opnd(p, v, e), NULL, NULL);
            const Type *ve = (rc == RC_B16 && ebits == 16) ? e : p->i32;
            if (rc == RC_B32 && ebits == 16) ty = "b16";
            Slot r = px_mat(p, v, ve);
            if (!opc.s) opc = access_opcode(p, "st.global", q, "", ty);
            global_access(p, pr, opc, &r, 1, at, true);
            continue;
        }
        Slot regs[16];
        int nwords;
        if (ebits >= 32) {
            nwords = vec;
            for (int k = 0; k < vec; k++) regs[k] = px_mat(p, vt->s[vt->n == n ? idx[k] : 0], e);
        } else {
            int per_word = 32 / ebits;
            nwords = vec / per_word;
            for (int w = 0; w < nwords; w++) {
                Slot word;
                if (ebits == 16) {
                    Slot lo = vt->s[vt->n == n ? idx[w * 2] : 0], hi = vt->s[vt->n == n ? idx[w * 2 + 1] : 0];
                    if (rc != RC_B16) { /* i16 in 32-bit registers */
                        lo = px_cse(p, RC_B16, "cvt.u16.u32", px_opnd(p, lo, p->i32), NULL, NULL);
                        hi = px_cse(p, RC_B16, "cvt.u16.u32", px_opnd(p, hi, p->i32), NULL, NULL);
                    }
                    Slot l = px_mat(p, lo, e), h = px_mat(p, hi, e);
                    word = px_pack2(p, l, h);
                } else {
                    word = (Slot){0};
                    for (int k = 0; k < 4; k++) {
                        Slot b = vt->s[vt->n == n ? idx[w * 4 + k] : 0];
                        if (rc == RC_B16) b = px_cse(p, RC_B32, "cvt.u32.u16", px_opnd(p, b, e), NULL, NULL);
                        const char *bs = px_opnd(p, b, p->i32);
                        if (k == 0) word = px_cse(p, RC_B32, "and.b32", bs, "255", NULL);
                        else {
                            Slot r = px_reg(p, RC_B32);
                            px_emit(p, "bfi.b32 %s, %s, %s, %d, 8", px_rname(p, r), bs, px_rname(p, word), 8 * k);
                            word = r;
                        }
                    }
                }
                regs[w] = word;
            }
        }
        if (!opc.s) {
            const char *ty = ebits >= 32 ? (rc == RC_F32 ? "f32" : rc == RC_F64 ? "f64" : ebits == 64 ? "b64" : "b32") : "b32";
            opc = access_opcode(p, "st.global", q, vec_prefix(nwords), ty);
        }
        global_access(p, pr, opc, regs, nwords, at, true);
    }
}

static const char *const sem_text[] = {"relaxed", "acquire", "release", "acq_rel"};
static const char *const scope_text[] = {"gpu", "cta", "sys"};

/* A bf16 atomic add before sm_90, which has no atom.add.bf16: a
 * compare-and-swap loop on the 16-bit word (atom.cas.b16 is sm_70), the
 * sum rounded once, as atom.add.noftz.bf16 rounds it, by an fma with 1.0
 * (fma.rn.bf16 is sm_80). r is the old value, 0 where pr is false:
 *
 *         @!%p1 bra $L__BB2;
 *         ld.global.b16 %h1, [addr];           (a first guess; cas corrects it)
 *     $L__BB1:
 *         fma.rn.bf16 %h2, %h1, %one, %v;
 *         atom.acq_rel.gpu.global.cas.b16 %h3, [addr], %h1, %h2;
 *         setp.ne.b16 %p2, %h3, %h1;
 *         mov.b16 %h1, %h3;
 *         @%p2 bra $L__BB1;
 *     $L__BB2:
 */
static void bf16_add_cas_loop(Px *p, Slot pr, Slot r, const char *addr, const char *v, const char *sem,
                              const char *scope) {
    int retry = px_label(p), done = px_label(p);
    const char *rn = px_rname(p, r);
    Slot one = px_cse(p, RC_B16, "mov.b16", "0x3F80", NULL, NULL); /* before the branch: CSE may reuse it */
    if (pr.kind == SLOT_REG) px_emit(p, "@!%s bra $L__BB%d", px_rname(p, pr), done);
    Slot sum = px_reg(p, RC_B16), cur = px_reg(p, RC_B16), again = px_reg(p, RC_PRED);
    px_emit(p, "ld.global.b16 %s, %s", rn, addr);
    sb_printf(&p->body, "$L__BB%d:\n", retry);
    px_emit(p, "fma.rn.bf16 %s, %s, %s, %s", px_rname(p, sum), rn, px_rname(p, one), v);
    px_emit(p, "atom.%s.%s.global.cas.b16 %s, %s, %s, %s", sem, scope, px_rname(p, cur), addr, rn, px_rname(p, sum));
    px_emit(p, "setp.ne.b16 %s, %s, %s", px_rname(p, again), px_rname(p, cur), rn);
    px_emit(p, "mov.b16 %s, %s", rn, px_rname(p, cur));
    px_emit(p, "@%s bra $L__BB%d", px_rname(p, again), retry);
    sb_printf(&p->body, "$L__BB%d:\n", done);
}

/* One vector of a float atomic add on sm_90 (atom.add.v4.f32, .noftz.v8.f16
 * / .bf16: PTX 8.1): the slots of the vector starting at slot i; their old
 * values (0 where masked off) go to out. */
static void atomic_fadd_vector(Px *p, const Dist *d, int i, int vec, Tile *pt, Tile *vt, Tile *mt, Tile *out,
                               Slot owner, const Type *e, const Type *ptr_type, const char *sem, const char *scope) {
    int n = d->nslots, ebits = px_bits(e);
    RegClass rc = px_rc(e);
    int idx[16];
    vec_slots(d, i, vec, idx);
    Slot pr = access_pred(p, mt ? mt->s[mt->n == n ? i : 0] : (Slot){0}, mt != NULL, owner);
    const char *dn[16], *vn[16];
    for (int k = 0; k < vec; k++) {
        Slot r = px_reg(p, rc);
        px_emit(p, "mov.%s %s, %s", rc == RC_F32 ? "f32" : "b16", px_rname(p, r), rc == RC_F32 ? "0f00000000" : "0");
        out->s[idx[k]] = r;
        dn[k] = px_rname(p, r);
        vn[k] = px_rname(p, px_mat(p, vt->s[vt->n == n ? idx[k] : 0], e));
    }
    if (pr.kind == SLOT_IMM) return; /* masked off */
    const char *pred = pr.kind == SLOT_REG ? px_cat(p, "@", px_rname(p, pr), " ", NULL) : "";
    const char *addr = addr_text(p, pt->s[pt->n == n ? i : 0], ptr_type);
    px_emit(p, "%satom.%s.%s.global.add%s.v%d.%s %s, %s, %s", pred, sem, scope, ebits == 16 ? ".noftz" : "", vec,
            ebits == 32 ? "f32" : e->fkind == FK_BF16 ? "bf16" : "f16", reg_list(p, dn, vec), addr,
            reg_list(p, vn, vec));
}

void px_lower_atomic(Px *p, Op *op) {
    bool cas = op->kind == TT_ATOMIC_CAS;
    Value *ptr = op_operand(op, 0);
    Value *val = op_operand(op, cas ? 2 : 1);
    Value *cmp = cas ? op_operand(op, 1) : NULL;
    Value *mask = !cas && op->noperands > 2 ? op_operand(op, 2) : NULL;
    Value *res = op_result(op, 0);
    const Type *e = ty_elem(val->type);
    Tile *pt = px_tile(p, ptr), *vt = px_tile(p, val), *ct = cmp ? px_tile(p, cmp) : NULL;
    Tile *mt = mask ? px_tile(p, mask) : NULL;
    Dist d = {0};
    bool tile = ptr->type->kind == TY_TENSOR;
    if (tile && !px_dist(p, ptr->type, &d)) return px_fail(p, op, "atomic without a layout");
    int n = tile ? d.nslots : 1;
    Tile *out = px_new_tile(p, n);
    px_bind(p, res, out);
    Slot owner = tile ? px_owner_pred(p, &d) : px_scalar_owner_pred(p);
    int64_t rmw = TT_RMW_ADD, sem = TT_SEM_ACQ_REL, scope = TT_SCOPE_GPU;
    op_attr_int(op, "atomic_rmw_op", &rmw);
    op_attr_int(op, "sem", &sem);
    op_attr_int(op, "scope", &scope);
    if (sem < 0 || sem > 3) sem = TT_SEM_ACQ_REL;
    if (scope < 0 || scope > 2) scope = TT_SCOPE_GPU;
    int ebits = px_bits(e);
    RegClass rc = px_rc(e);
    bool isf = e->kind == TY_FLOAT;
    const char *opn;
    char tyb[16];
    if (cas) {
        opn = "cas";
        tc_snprintf(tyb, sizeof tyb, "b%d", ebits);
    } else {
        switch (rmw) {
        case TT_RMW_AND: opn = "and"; tc_snprintf(tyb, sizeof tyb, "b%d", ebits); break;
        case TT_RMW_OR: opn = "or"; tc_snprintf(tyb, sizeof tyb, "b%d", ebits); break;
        case TT_RMW_XOR: opn = "xor"; tc_snprintf(tyb, sizeof tyb, "b%d", ebits); break;
        case TT_RMW_XCHG: opn = "exch"; tc_snprintf(tyb, sizeof tyb, "b%d", ebits); break;
        case TT_RMW_MAX: opn = "max"; tc_snprintf(tyb, sizeof tyb, "%s%d", isf ? "f" : "s", ebits); break;
        case TT_RMW_MIN: opn = "min"; tc_snprintf(tyb, sizeof tyb, "%s%d", isf ? "f" : "s", ebits); break;
        case TT_RMW_UMAX: opn = "max"; tc_snprintf(tyb, sizeof tyb, "u%d", ebits); break;
        case TT_RMW_UMIN: opn = "min"; tc_snprintf(tyb, sizeof tyb, "u%d", ebits); break;
        default:
            opn = "add";
            if (isf && ebits == 16) tc_snprintf(tyb, sizeof tyb, "noftz.%s", e->fkind == FK_BF16 ? "bf16" : "f16");
            else tc_snprintf(tyb, sizeof tyb, "%s%d", isf ? "f" : "u", ebits);
            break;
        }
    }
    /* bf16 atom.add needs sm_90; i16 (atomic_cas only) lives in 32-bit
     * registers but atom.cas.b16 takes 16-bit ones */
    bool bf16_add_loop = !cas && rmw == TT_RMW_FADD && e->kind == TY_FLOAT && e->fkind == FK_BF16 && p->sm < 90;
    bool narrow_int = e->kind == TY_INT && ebits == 16;
    /* sm_90 adds floats a vector at a time (atom.add.v4.f32, .noftz.v8.f16/
     * bf16: PTX 8.1), as Triton does: a quarter of the atomic instructions */
    int vec = tile && !cas && rmw == TT_RMW_FADD && isf && (ebits == 32 || ebits == 16) && p->sm >= 90
                  ? px_access_vec(p, ptr, mask, &d, e)
                  : 1;
    for (int i = 0; i < n; i++) {
        if (vec > 1) {
            if (is_vec_head(&d, i, vec)) atomic_fadd_vector(p, &d, i, vec, pt, vt, mt, out, owner, e, ptr->type,
                                                            sem_text[sem], scope_text[scope]);
            continue;
        }
        Slot pr = access_pred(p, mt ? mt->s[mt->n == n ? i : 0] : (Slot){0}, mt != NULL, owner);
        Slot r = px_reg(p, rc);
        px_ins(p, rc == RC_F32 ? "mov.f32" : rc == RC_F64 ? "mov.f64" : rc == RC_B16 ? "mov.b16" : rc == RC_B64 ? "mov.b64" : "mov.b32",
               px_rname(p, r), rc == RC_F32 ? "0f00000000" : rc == RC_F64 ? "0d0000000000000000" : "0", NULL, NULL);
        out->s[i] = r;
        if (pr.kind == SLOT_IMM) continue;
        const char *pred = pr.kind == SLOT_REG ? arena_printf(p->ctx->arena, "@%s ", px_rname(p, pr)) : "";
        const char *addr = addr_text(p, pt->s[pt->n == n ? i : 0], ptr->type);
        const char *v = px_rname(p, px_mat(p, vt->s[vt->n == n ? i : 0], e));
        if (bf16_add_loop) {
            bf16_add_cas_loop(p, pr, r, addr, v, sem_text[sem], scope_text[scope]);
        } else if (cas && narrow_int) {
            Slot c16 = px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, px_mat(p, ct->s[ct->n == n ? i : 0], e)), NULL, NULL);
            Slot v16 = px_cse(p, RC_B16, "cvt.u16.u32", v, NULL, NULL), r16 = px_reg(p, RC_B16);
            px_emit(p, "mov.b16 %s, 0", px_rname(p, r16));
            px_emit(p, "%satom.%s.%s.global.cas.b16 %s, %s, %s, %s", pred, sem_text[sem], scope_text[scope],
                    px_rname(p, r16), addr, px_rname(p, c16), px_rname(p, v16));
            px_emit(p, "cvt.s32.s16 %s, %s", px_rname(p, r), px_rname(p, r16));
        } else if (cas) {
            px_emit(p, "%satom.%s.%s.global.cas.%s %s, %s, %s, %s", pred, sem_text[sem], scope_text[scope], tyb,
                    px_rname(p, r), addr, px_rname(p, px_mat(p, ct->s[ct->n == n ? i : 0], e)), v);
        } else {
            px_emit(p, "%satom.%s.%s.global.%s.%s %s, %s, %s", pred, sem_text[sem], scope_text[scope], opn, tyb,
                    px_rname(p, r), addr, v);
        }
    }
    if (tile && owner.kind == SLOT_REG && value_has_uses(res)) {
        /* threads holding copies of an element did not run its atomic: the
         * owner's old value goes to them through shared memory */
        int64_t strides[TTG_MAX_RANK], sz = 1;
        for (int k = ptr->type->rank - 1; k >= 0; k--) {
            strides[k] = sz;
            sz *= ptr->type->shape[k];
        }
        int eb = ebits / 8;
        if (p->smem_dirty || p->loop_depth > 0) px_barrier(p);
        p->smem_dirty = true;
        if (p->smem_size < sz * eb) p->smem_size = (int)((sz * eb + 15) & ~15);
        const char *ty = ebits == 64 ? "b64" : ebits == 16 ? "b16" : "b32";
        Slot base = px_cse(p, RC_B32, "mov.u32", "global_smem", NULL, NULL);
        const char **addrs = ARENA_ARRAY(p->ctx->arena, const char *, n);
        for (int i = 0; i < n; i++) {
            Slot idx = px_linear_index(p, &d, i, strides);
            Slot a = base;
            if (idx.kind == SLOT_REG) {
                Slot sc = px_cse(p, RC_B32, "mul.lo.s32", px_rname(p, (Slot){SLOT_REG, RC_B32, idx.reg, {0}}),
                                 px_int(p, eb), NULL);
                a = px_cse(p, RC_B32, "add.s32", px_rname(p, base), px_rname(p, sc), NULL);
            }
            addrs[i] = arena_printf(p->ctx->arena, "[%s+%lld]", px_rname(p, a), (long long)(idx.off * eb));
            px_emit(p, "@%s st.shared.%s %s, %s", px_rname(p, owner), ty, addrs[i], px_rname(p, out->s[i]));
        }
        px_barrier(p);
        for (int i = 0; i < n; i++) {
            Slot r = px_reg(p, rc);
            px_emit(p, "ld.shared.%s %s, %s", ty, px_rname(p, r), addrs[i]);
            out->s[i] = r;
        }
    }
    if (!tile && value_has_uses(res)) {
        /* the owner's old value, to every thread */
        if (p->smem_dirty || p->loop_depth > 0) px_barrier(p);
        p->smem_dirty = true;
        if (p->smem_size < 8) p->smem_size = 8;
        const char *ty = ebits == 64 ? "b64" : ebits == 16 ? "b16" : "b32";
        px_emit(p, "@%s st.shared.%s [global_smem], %s", px_rname(p, owner), ty, px_rname(p, out->s[0]));
        px_barrier(p);
        Slot r = px_reg(p, rc);
        px_emit(p, "ld.shared.%s %s, [global_smem]", ty, px_rname(p, r));
        out->s[0] = r;
    }
}
