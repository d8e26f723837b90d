/*
 * rewrite_tensor_pointer.c - lower block pointers (`rewrite-tensor-pointer`),
 * as Triton's RewriteTensorPointer pass does.
 *
 * A block pointer (!tt.ptr<tensor<...>>) is made by tt.make_tensor_ptr
 * from a scalar base pointer, an i64 shape and stride per dimension and an
 * i32 offset per dimension. The pass tracks, for every block-pointer value,
 * that base, shape, strides and the offsets widened to i64, and rewrites:
 *
 *   - tt.make_tensor_ptr: into arith.extsi of each offset (recorded, erased);
 *   - tt.advance: offset_i + extsi(delta_i) (recorded, erased);
 *   - tt.load / tt.store on a block pointer: into a tensor of pointers
 *     base + sum_i (offset_i + arange(0, n_i)) * stride_i (an i64 offset per
 *     dimension, expanded to the block's rank and broadcast), a mask
 *     0 <= offset_i + arange_i < shape_i for each boundary-checked dimension,
 *     and for loads `other` = 0 or NaN from the padding attribute;
 *   - scf.for: block pointers among the iter_args become their offsets
 *     (one i64 iter_arg per dimension), and so do the operands of the body's
 *     scf.yield and the loop's results.
 *
 * Ops are built in the order Triton builds them, so canonicalize, cse and
 * dce afterwards give the same IR as Triton's make_ttir. Block pointers
 * carried through scf.if or scf.while are reported as unsupported.
 */
#include "transform/pass.h"
#include "dialect/dialect.h"

#include <math.h>

typedef struct PtrInfo {
    Value *base;
    int rank;
    Value *shape[8], *strides[8], *offsets[8];
    const int64_t *tshape;
    Value *cache[8]; /* getExpandedOffsetWithRange, per dimension */
} PtrInfo;

typedef struct RW {
    Context *ctx;
    DiagEngine *de;
    Map info; /* Value* -> PtrInfo* */
    VEC(Op *) erase;
    bool ok;
    int changes;
} RW;

static bool is_tensor_ptr(const Type *t) { return t->kind == TY_PTR && t->elem->kind == TY_TENSOR; }

static PtrInfo *info_copy(RW *rw, const PtrInfo *src) {
    PtrInfo *p = ARENA_NEW(rw->ctx->arena, PtrInfo);
    *p = *src;
    for (int i = 0; i < 8; i++) p->cache[i] = NULL;
    return p;
}

static PtrInfo *info_of(RW *rw, Op *op, Value *v) {
    PtrInfo *p = map_get(&rw->info, MAP_KEY(v));
    if (!p && rw->ok) {
        op_error(rw->de, op, "rewrite-tensor-pointer: cannot trace this block pointer to a tt.make_tensor_ptr");
        rw->ok = false;
    }
    return p;
}

static Type *tensor_of(RW *rw, const int64_t *shape, int rank, Type *elem) {
    return ty_tensor(rw->ctx, shape, rank, elem, NULL);
}

static Value *splat(Builder *b, Value *x, Type *t) { return build_unary(b, TT_SPLAT, x, t); }

static Value *expanded_offset(RW *rw, Builder *b, PtrInfo *p, int i) {
    if (p->cache[i]) return p->cache[i];
    Context *c = rw->ctx;
    int64_t n = p->tshape[i];
    Type *row64 = tensor_of(rw, &n, 1, ty_i64(c)), *row32 = tensor_of(rw, &n, 1, ty_i32(c));
    Value *so = splat(b, p->offsets[i], row64);
    Op *mr = build_op(b, TT_MAKE_RANGE, NULL, 0, &row32, 1, 0);
    op_set_attr_k(c, mr, AN_START, attr_i32(c, 0));
    op_set_attr_k(c, mr, AN_END, attr_i32(c, n));
    Value *r64 = build_unary(b, ARITH_EXTSI, op_result(mr, 0), row64);
    Value *x = build_binary(b, ARITH_ADDI, so, r64);
    for (int j = 0; j < p->rank; j++) {
        if (j == i) continue;
        Type *t = x->type;
        int64_t sh[8];
        int k = 0;
        for (int d = 0; d <= t->rank; d++) sh[d] = d == j ? 1 : t->shape[k++];
        Value *e = build_unary(b, TT_EXPAND_DIMS, x, tensor_of(rw, sh, t->rank + 1, ty_i64(c)));
        op_set_attr_k(c, e->def, AN_AXIS, attr_i32(c, j));
        x = e;
    }
    return p->cache[i] = x;
}

static Value *gen_ptr(RW *rw, Builder *b, PtrInfo *p) {
    Type *elt = p->base->type;
    Type *pt = tensor_of(rw, p->tshape, p->rank, elt), *it = tensor_of(rw, p->tshape, p->rank, ty_i64(rw->ctx));
    Value *ptr = splat(b, p->base, pt);
    for (int i = 0; i < p->rank; i++) {
        Value *o = expanded_offset(rw, b, p, i);
        Value *s = splat(b, p->strides[i], o->type);
        Value *m = build_binary(b, ARITH_MULI, o, s);
        Value *bc = build_unary(b, TT_BROADCAST, m, it);
        Value *ops[2] = {ptr, bc};
        ptr = op_result(build_op(b, TT_ADDPTR, ops, 2, &pt, 1, 0), 0);
    }
    return ptr;
}

static Value *gen_mask(RW *rw, Builder *b, PtrInfo *p, Op *op) {
    Attr *bc = op_attr_k(op, AN_BOUNDARY_CHECK);
    if (!bc || bc->kind != ATTR_DENSE_ARRAY || bc->dense.nvals == 0) return NULL;
    Context *c = rw->ctx;
    Type *mt = tensor_of(rw, p->tshape, p->rank, ty_i1(c));
    Value *mask = NULL;
    for (int64_t k = 0; k < bc->dense.nvals; k++) {
        int i = (int)bc->dense.ints[k];
        if (i < 0 || i >= p->rank) continue;
        Value *o = expanded_offset(rw, b, p, i);
        Value *lo = splat(b, build_const_int(b, ty_i64(c), 0), o->type);
        Value *cl = build_cmp(b, ARITH_CMPI, CMPI_SGE, o, lo);
        Value *hi = splat(b, p->shape[i], o->type);
        Value *cu = build_cmp(b, ARITH_CMPI, CMPI_SLT, o, hi);
        Value *a = build_binary(b, ARITH_ANDI, cl, cu);
        Value *br = build_unary(b, TT_BROADCAST, a, mt);
        mask = mask ? build_binary(b, ARITH_ANDI, mask, br) : br;
    }
    return mask;
}

static Value *gen_other(RW *rw, Builder *b, PtrInfo *p, Op *op) {
    int64_t pad;
    if (!op_attr_int_k(op, AN_PADDING, &pad)) return NULL;
    Type *elt = p->base->type->elem;
    Value *k;
    if (elt->kind == TY_INT) k = build_const_int(b, elt, 0);
    else k = build_const_float(b, elt, pad == 2 ? NAN : 0.0);
    return splat(b, k, tensor_of(rw, p->tshape, p->rank, elt));
}

static void copy_attr(Context *c, Op *to, Op *from, const char *name) {
    Attr *a = op_attr(from, name);
    if (a) op_set_attr(c, to, name, a);
}

static void rewrite_load_store(RW *rw, Op *op) {
    PtrInfo *p0 = info_of(rw, op, op_operand(op, 0));
    if (!p0) return;
    PtrInfo *p = info_copy(rw, p0);
    Builder b = builder_before(rw->ctx, op);
    Value *ptr = gen_ptr(rw, &b, p);
    Value *mask = gen_mask(rw, &b, p, op);
    Value *ops[3];
    int n = 0;
    ops[n++] = ptr;
    Op *nop;
    if (op->kind == TT_LOAD) {
        Value *other = gen_other(rw, &b, p, op);
        if (mask) {
            ops[n++] = mask;
            if (other) ops[n++] = other; /* other without a mask changes nothing */
        }
        Type *rt = op_result(op, 0)->type;
        nop = build_op(&b, TT_LOAD, ops, n, &rt, 1, 0);
        copy_attr(rw->ctx, nop, op, "isVolatile");
        value_replace_all_uses(op_result(op, 0), op_result(nop, 0));
    } else {
        ops[n++] = op_operand(op, 1);
        if (mask) ops[n++] = mask;
        nop = build_op(&b, TT_STORE, ops, n, NULL, 0, 0);
    }
    copy_attr(rw->ctx, nop, op, "cache");
    copy_attr(rw->ctx, nop, op, "evict");
    vec_push(&rw->erase, op);
    rw->changes++;
}

static void rewrite_make(RW *rw, Op *op) {
    Context *c = rw->ctx;
    PtrInfo *p = ARENA_NEW(c->arena, PtrInfo);
    Type *tt = op_result(op, 0)->type->elem;
    p->base = op_operand(op, 0);
    p->rank = (op->noperands - 1) / 3;
    p->tshape = tt->shape;
    if (p->rank > 8) {
        op_error(rw->de, op, "rewrite-tensor-pointer: at most 8 dimensions");
        rw->ok = false;
        return;
    }
    Builder b = builder_before(c, op);
    for (int i = 0; i < p->rank; i++) {
        p->shape[i] = op_operand(op, 1 + i);
        p->strides[i] = op_operand(op, 1 + p->rank + i);
    }
    for (int i = 0; i < p->rank; i++)
        p->offsets[i] = build_unary(&b, ARITH_EXTSI, op_operand(op, 1 + 2 * p->rank + i), ty_i64(c));
    map_put(&rw->info, MAP_KEY(op_result(op, 0)), p);
    vec_push(&rw->erase, op);
    rw->changes++;
}

static void rewrite_advance(RW *rw, Op *op) {
    PtrInfo *p0 = info_of(rw, op, op_operand(op, 0));
    if (!p0) return;
    PtrInfo *p = info_copy(rw, p0);
    Builder b = builder_before(rw->ctx, op);
    for (int i = 0; i < p->rank && i + 1 < op->noperands; i++) {
        Value *d = build_unary(&b, ARITH_EXTSI, op_operand(op, 1 + i), ty_i64(rw->ctx));
        p->offsets[i] = build_binary(&b, ARITH_ADDI, p->offsets[i], d);
    }
    map_put(&rw->info, MAP_KEY(op_result(op, 0)), p);
    vec_push(&rw->erase, op);
    rw->changes++;
}

/* Appends v, or its offsets when v is a block pointer. */
static void expand_values(RW *rw, Op *op, Value *v, Value **out, int *n) {
    if (is_tensor_ptr(v->type)) {
        PtrInfo *p = info_of(rw, op, v);
        if (!p) return;
        for (int i = 0; i < p->rank; i++) out[(*n)++] = p->offsets[i];
    } else {
        out[(*n)++] = v;
    }
}

static bool has_tensor_ptr_operand(Op *op) {
    for (int i = 0; i < op->noperands; i++)
        if (is_tensor_ptr(op_operand(op, i)->type)) return true;
    return false;
}

static void rewrite_block(RW *rw, Block *blk);

static void rewrite_for(RW *rw, Op *op) {
    Context *c = rw->ctx;
    int nold = op->noperands - 3, cap = 3 + 8 * (nold + 1);
    Value **ops = ARENA_ARRAY(c->arena, Value *, cap);
    int n = 0;
    for (int i = 0; i < op->noperands; i++) expand_values(rw, op, op_operand(op, i), ops, &n);
    if (!rw->ok) return;
    Type **rts = ARENA_ARRAY(c->arena, Type *, n);
    for (int i = 3; i < n; i++) rts[i - 3] = ops[i]->type;
    Builder b = builder_before(c, op);
    Op *nf = build_op(&b, SCF_FOR, ops, n, rts, n - 3, 1);
    for (int i = 0; i < op->nattrs; i++) op_set_attr(c, nf, op->attrs[i].name, op->attrs[i].attr);
    Block *ob = region_entry(&op->regions[0]), *nb = block_create(c);
    region_push_block(&nf->regions[0], nb);
    Value *iv = block_add_arg(c, nb, ob->args[0]->type, ob->args[0]->loc);
    iv->name = ob->args[0]->name;
    value_replace_all_uses(ob->args[0], iv);
    for (int i = 0, k = 0; i < nold; i++) {
        Value *oa = ob->args[1 + i], *init = op_operand(op, 3 + i);
        if (is_tensor_ptr(oa->type)) {
            PtrInfo *p = info_copy(rw, info_of(rw, op, init));
            for (int j = 0; j < p->rank; j++) {
                p->offsets[j] = block_add_arg(c, nb, ty_i64(c), oa->loc);
                p->offsets[j]->name = oa->name;
            }
            map_put(&rw->info, MAP_KEY(oa), p);
            k += p->rank;
        } else {
            Value *na = block_add_arg(c, nb, oa->type, oa->loc);
            na->name = oa->name;
            value_replace_all_uses(oa, na);
            k++;
        }
    }
    while (ob->first) {
        Op *x = ob->first;
        op_unlink(x);
        block_append(nb, x);
    }
    for (int i = 0, k = 0; i < nold; i++) {
        Value *r = op_result(op, i), *init = op_operand(op, 3 + i);
        if (is_tensor_ptr(r->type)) {
            PtrInfo *p = info_copy(rw, info_of(rw, op, init));
            for (int j = 0; j < p->rank; j++) p->offsets[j] = op_result(nf, k + j);
            map_put(&rw->info, MAP_KEY(r), p);
            k += p->rank;
        } else {
            value_replace_all_uses(r, op_result(nf, k));
            k++;
        }
    }
    vec_push(&rw->erase, op);
    rw->changes++;
    rewrite_block(rw, nb);
}

static void rewrite_yield(RW *rw, Op *op) {
    Op *parent = op_parent_op(op);
    if (!parent || parent->kind != SCF_FOR) {
        op_error(rw->de, op, "rewrite-tensor-pointer: block pointers through '%s' are not supported",
                 parent ? op_name(parent) : "?");
        rw->ok = false;
        return;
    }
    Value **ops = ARENA_ARRAY(rw->ctx->arena, Value *, 8 * (op->noperands + 1));
    int n = 0;
    for (int i = 0; i < op->noperands; i++) expand_values(rw, op, op_operand(op, i), ops, &n);
    if (!rw->ok) return;
    Builder b = builder_before(rw->ctx, op);
    build_op(&b, SCF_YIELD, ops, n, NULL, 0, 0);
    vec_push(&rw->erase, op);
}

static void rewrite_op(RW *rw, Op *op) {
    switch (op->kind) {
    case TT_MAKE_TENSOR_PTR: rewrite_make(rw, op); return;
    case TT_ADVANCE: rewrite_advance(rw, op); return;
    case TT_LOAD:
    case TT_STORE:
        if (is_tensor_ptr(op_operand(op, 0)->type)) rewrite_load_store(rw, op);
        return;
    case SCF_FOR:
        for (int i = 3; i < op->noperands; i++)
            if (is_tensor_ptr(op_operand(op, i)->type)) {
                rewrite_for(rw, op);
                return;
            }
        break;
    case SCF_YIELD:
        if (has_tensor_ptr_operand(op)) rewrite_yield(rw, op);
        return;
    default:
        break;
    }
    for (int i = 0; i < op->nresults; i++)
        if (is_tensor_ptr(op_result(op, i)->type) && op->kind != TT_FUNC) {
            op_error(rw->de, op, "rewrite-tensor-pointer: block pointers produced by '%s' are not supported",
                     op_name(op));
            rw->ok = false;
            return;
        }
    for (int r = 0; r < op->nregions; r++)
        for (Block *blk = op->regions[r].first; blk; blk = blk->next) rewrite_block(rw, blk);
}

static void rewrite_block(RW *rw, Block *blk) {
    for (Op *op = blk->first, *next; op && rw->ok; op = next) {
        next = op->next;
        rewrite_op(rw, op);
    }
}

static bool module_has_tensor_ptr(Op *module) {
    for (Op *f = module_body(module)->first; f; f = f->next) {
        if (f->kind != TT_FUNC) continue;
        Type *ft = func_type(f);
        for (int i = 0; i < ft->ninputs; i++)
            if (is_tensor_ptr(ft->inputs[i])) return true;
    }
    return false;
}

/* Whether an op in b (or nested in one) has a block-pointer result. With
 * none, and none among the functions' arguments, no value is a block
 * pointer (a block argument of a loop takes its type from an init), and
 * the rewrite would leave every op as it is: a context that made the type
 * may hold no such value, and this look costs a third of the rewrite's
 * walk. */
static bool block_makes_tensor_ptr(Block *b) {
    for (Op *op = b->first; op; op = op->next) {
        for (int i = 0; i < op->nresults; i++)
            if (is_tensor_ptr(op->results[i].type)) return true;
        for (int r = 0; r < op->nregions; r++)
            for (Block *ib = op->regions[r].first; ib; ib = ib->next)
                if (block_makes_tensor_ptr(ib)) return true;
    }
    return false;
}

bool pass_rewrite_tensor_pointer(Op *module, PassContext *pc) {
    /* (most kernels make no block pointer type, so no value is one, and
     * the pass knows it has nothing to do without a walk over the ops) */
    if (!pc->ctx->made_block_ptr_type) return true;
    RW rw = {.ctx = pc->ctx, .de = pc->de, .ok = true};
    if (module_has_tensor_ptr(module)) {
        diag_report(pc->de, DIAG_ERROR, (Loc){0}, 0, "rewrite-tensor-pointer: block pointers as function arguments are not supported");
        return false;
    }
    if (!block_makes_tensor_ptr(module_body(module))) return true;
    for (Op *f = module_body(module)->first; f && rw.ok; f = f->next)
        if (f->kind == TT_FUNC)
            for (Block *blk = f->regions[0].first; blk; blk = blk->next) rewrite_block(&rw, blk);
    if (rw.ok)
        for (int i = rw.erase.len - 1; i >= 0; i--) op_erase(rw.erase.data[i]);
    vec_free(&rw.erase);
    map_free(&rw.info);
    pc->changes += rw.changes;
    return rw.ok;
}
