/*
 * semantic.c - Triton's semantic layer (language/semantic.py) over the IR
 * Builder: implicit promotion, broadcasting, casts, and the element-wise,
 * shape and comparison op builders.
 *
 * Promotion follows computation_type_impl exactly: a Python number of a
 * kind (bool < int < float) no higher than the tensor's does not take part;
 * fp64 > fp32 > fp16 > bf16 (bf16 only when both are); `/` and `%` on
 * 16-bit floats compute in fp32; two different fp8 give fp16; integers use
 * the C rule (wider wins, unsigned wins at equal or greater width).
 * Broadcasting follows numpy: leading 1s are added to the lower rank (with
 * tt.expand_dims), then size-1 dimensions stretch (tt.broadcast).
 */
#include "sema/sema_int.h"

#include <math.h>
#include <string.h>

/* ---- building ---------------------------------------------------------- */

Op *sem_op(Sema *S, OpKind k, Value *const *ops, int nops, Type *const *res, int nres, int nreg) {
    S->b.loc = S->loc;
    return build_op(&S->b, k, ops, nops, res, nres, nreg);
}

Value *sem_ir(Sema *S, OpKind k, const TlType *res, Value *a, Value *b) {
    S->b.loc = S->loc;
    return b ? build_binary_to(&S->b, k, a, b, res->ir) : build_unary(&S->b, k, a, res->ir);
}

Attr *sema_attr_i32(Sema *S, int64_t v) {
    /* (the slot by a multiply: by v % 16, the axis 0 and a tl.arange's
     * bounds 0, 16, 32 ... took one slot from each other) */
    _Static_assert(TC_ARRAY_LEN(S->i32_attrs) == 16, "the slot is 4 bits");
    struct I32Attr *m = &S->i32_attrs[((uint64_t)v * 0x9e3779b97f4a7c15ULL) >> 60];
    if (!m->attr || m->v != v) {
        m->v = v;
        m->attr = attr_i32(S->ctx, v);
    }
    return m->attr;
}

/* The value attribute of a scalar constant of IR type t with the value's
 * bits, remembered: sema makes the same few constants (0, 1, a splatted
 * Python number) again and again, and attributes are unique anyway. */
static struct ConstAttr *const_attr_slot(Sema *S, const Type *t, uint64_t bits) {
    uint64_t h = (bits ^ (uint64_t)(uintptr_t)t) * 0x9e3779b97f4a7c15ULL;
    _Static_assert(TC_ARRAY_LEN(S->const_attrs) == 64, "the slot is 6 bits");
    return &S->const_attrs[h >> 58];
}

/* Whether what sema made so far in block b dominates what it makes next:
 * b is the block being built, or one that holds it through the loops it
 * is in. (Sema appends to the block it builds, and makes an scf.for or
 * scf.while before its body, so the ops of an enclosing block made so far
 * stand before the loop. The blocks of an scf.if are built before their
 * op and are not linked yet: the walk stops there, as at a function.) */
static bool sema_dominates(Sema *S, const Block *b) {
    for (const Block *cur = S->b.block; cur; ) {
        if (cur == b) return true;
        const Op *p = cur->parent ? cur->parent->parent : NULL;
        if (!p || (p->kind != SCF_FOR && p->kind != SCF_WHILE)) return false;
        cur = p->parent;
    }
    return false;
}

/* The constant `a` (of its type): the one made last of it when that
 * dominates the new use (sema_dominates), else a new one. Sema makes a
 * constant at every use of a Python number (`x + 1`, `other=0.0`), and in
 * a body unrolled by tl.static_range the same ones again at every step;
 * canonicalize would hoist them all to the top of the function and merge
 * each into the first of its value, which is where this one stands. */
static Value *sem_constant(Sema *S, Attr *a) {
    Op *k = map_get(&S->const_ops, MAP_KEY(a));
    /* (nattrs: not one a hint, tl.multiple_of, was put on since) */
    if (k && k->nattrs == 1 && k->parent && sema_dominates(S, k->parent)) return op_result(k, 0);
    S->b.loc = S->loc;
    Value *v = build_constant(&S->b, a);
    map_put(&S->const_ops, MAP_KEY(a), v->def);
    return v;
}

/* The value attribute of the constant v of type t (scalar or block). (A
 * scalar one is remembered by the value as given, before it is wrapped or
 * rounded to the type: a hit costs no conversion.) */
static Attr *const_int_attr(Sema *S, const TlType *t, int64_t v) {
    if (t->ir->kind != TY_INT) {
        v = int_wrap(v, tl_bitwidth(t));
        return attr_dense_int(S->ctx, t->ir, &v, 1);
    }
    struct ConstAttr *m = const_attr_slot(S, t->ir, (uint64_t)v);
    if (!m->attr || m->type != t->ir || m->bits != (uint64_t)v) {
        m->type = t->ir;
        m->bits = (uint64_t)v;
        m->attr = attr_int(S->ctx, t->ir, int_wrap(v, tl_bitwidth(t)));
    }
    return m->attr;
}

static Attr *const_float_attr(Sema *S, const TlType *t, double v) {
    if (t->ir->kind != TY_FLOAT) {
        v = float_round(v, tl_sca(t)->ir->fkind);
        return attr_dense_float(S->ctx, t->ir, &v, 1);
    }
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    struct ConstAttr *m = const_attr_slot(S, t->ir, bits);
    if (!m->attr || m->type != t->ir || m->bits != bits) {
        m->type = t->ir;
        m->bits = bits;
        m->attr = attr_float(S->ctx, t->ir, float_round(v, t->ir->fkind));
    }
    return m->attr;
}

Value *sem_const_int(Sema *S, const TlType *t, int64_t v) { return sem_constant(S, const_int_attr(S, t, v)); }

Value *sem_const_float(Sema *S, const TlType *t, double v) { return sem_constant(S, const_float_attr(S, t, v)); }

/* The pure binary op k (a comparison of predicate `pred`, else -1) of a
 * and b, of type t: one made before among a's latest users when it
 * dominates the new use (as shape_op), else a new one. The inner steps of
 * nested tl.static_ranges compute the outer step's masks and offsets again
 * (`(dd >= 0) & (dd < D)`, `H * W` at every (kh, kw)), and CSE would merge
 * the copies. (Integer add, sub and mul too: canonicalize then merges
 * constants into the outer op of a shared chain and keeps the inner one
 * for its other users, which costs a kernel a scalar op here and saves one
 * there, against a fifth of the ops of an unrolled convolution built and
 * erased again.) */
static Value *pure_binary(Sema *S, OpKind k, Type *t, int pred, Value *a, Value *b) {
    int n = 0;
    /* (b read nowhere yet, as a value just made is: no op to find, and no
     * walk of a's uses, which a mask read at every step has many of) */
    for (Use *u = b->uses ? a->uses : NULL; u && n < 8; u = u->next, n++) {
        Op *m = u->owner;
        if (m->kind != k || u != &m->operands[0] || m->operands[1].value != b || m->nattrs != (pred >= 0) ||
            (pred < 0 && m->results[0].type != t) || !m->parent || !sema_dominates(S, m->parent))
            continue;
        int64_t mp;
        if (pred < 0 || (op_attr_int_k(m, AN_PREDICATE, &mp) && mp == pred)) return op_result(m, 0);
    }
    S->b.loc = S->loc;
    return pred >= 0 ? build_cmp(&S->b, k, pred, a, b) : build_binary_to(&S->b, k, a, b, t);
}

static Value *cmp(Sema *S, OpKind k, int pred, Value *a, Value *b) { return pure_binary(S, k, NULL, pred, a, b); }

/* The pure binary op k of a and b of result type t (see pure_binary). */
static Value *binary(Sema *S, OpKind k, const TlType *t, Value *a, Value *b) {
    return pure_binary(S, k, t->ir, -1, a, b);
}

static TV ty_err(Sema *S, const char *what, const TlType *t) {
    return sema_error(S, "%s (got %s)", what, tl_cstr(S, t));
}

/* ---- scalars ----------------------------------------------------------- */

const TlType *sem_to_tensor_type(Sema *S, const TV *x) {
    switch (x->kind) {
    case TV_BOOL: return tl_scalar(S, TL_I1);
    case TV_INT:
        if (x->u64) return tl_scalar(S, TL_U64);
        if (x->i >= -(INT64_C(1) << 31) && x->i < (INT64_C(1) << 31)) return tl_scalar(S, TL_I32);
        if (x->i >= (INT64_C(1) << 31) && x->i < (INT64_C(1) << 32)) return tl_scalar(S, TL_U32);
        return tl_scalar(S, TL_I64);
    case TV_FLOAT: {
        double a = fabs(x->f);
        if (isinf(a) || a == 0.0 || a != a || (a >= ldexp(1, -126) && a <= (2 - ldexp(1, -23)) * ldexp(1, 127)))
            return tl_scalar(S, TL_FP32);
        return tl_scalar(S, TL_FP64);
    }
    default: return NULL;
    }
}

/* The value attribute of the Python number x as a scalar of type t, or
 * NULL when t is not a number's type. */
static Attr *number_attr(Sema *S, const TV *x, const TlType *t) {
    if (tl_is_float(t))
        return const_float_attr(S, t, x->kind == TV_FLOAT ? x->f : x->u64 ? (double)(uint64_t)x->i : (double)x->i);
    if (tl_is_int(t)) {
        /* (a float here is truncated as C would, but NaN, the infinities and
         * values past int64 are not left to C's undefined conversion) */
        double f = x->f;
        int64_t iv = x->kind != TV_FLOAT ? x->i
                     : f != f            ? 0
                     : f >= 0x1p63       ? INT64_MAX
                     : f < -0x1p63       ? INT64_MIN
                                         : (int64_t)f;
        if (tl_is_bool(t)) iv = iv != 0;
        return const_int_attr(S, t, iv);
    }
    return NULL;
}

TV sem_scalar_constant(Sema *S, const TV *x, const TlType *dtype) {
    const TlType *t = tl_sca(dtype);
    Attr *a = number_attr(S, x, t);
    if (!a) return sema_error(S, "cannot make a constant of type %s", tl_cstr(S, t));
    return tv_tensor(sem_constant(S, a), t);
}

TV sem_number_to_tensor(Sema *S, const TV *x) {
    if (x->kind == TV_TENSOR || x->kind == TV_ERR) return *x;
    const TlType *t = sem_to_tensor_type(S, x);
    if (!t) return sema_error(S, "cannot convert %s to tensor", tv_kind_name(x));
    return sem_scalar_constant(S, x, t);
}

/* ---- shapes ------------------------------------------------------------ */

/* The value attribute of the constant of value attribute a reshaped to the
 * block type t, or NULL when a is not of one value. (Remembered by value and
 * type, as const_attr_slot: the same few are asked for again and again.) */
static Attr *splat_attr(Sema *S, Attr *a, const TlType *t) {
    uint64_t h = ((uint64_t)(uintptr_t)a ^ (uint64_t)(uintptr_t)t->ir * 31) * 0x9e3779b97f4a7c15ULL;
    _Static_assert(TC_ARRAY_LEN(S->splat_attrs) == 128, "the slot is 7 bits");
    struct SplatAttr *m = &S->splat_attrs[h >> 57];
    if (m->scalar == a && m->type == t->ir) return m->attr;
    Attr *r;
    if (a->kind == ATTR_INT) r = attr_dense_int(S->ctx, t->ir, &a->i, 1);
    else if (a->kind == ATTR_FLOAT) r = attr_dense_float(S->ctx, t->ir, &a->f, 1);
    else if (a->kind != ATTR_DENSE || a->dense.nvals != 1) return NULL;
    else if (a->dense.floats) r = attr_dense_float(S->ctx, t->ir, a->dense.floats, 1);
    else if (a->dense.ints) r = attr_dense_int(S->ctx, t->ir, a->dense.ints, 1);
    else return NULL;
    *m = (struct SplatAttr){a, t->ir, r};
    return r;
}

/* The number of scalar value attribute `a` (of type rt) splatted beside the
 * block `other` (sem_binary_check_slow). */
static TV splat_number(Sema *S, Attr *a, const TlType *rt, const TV *other) {
    if (other->kind == TV_TENSOR && other->ty->elem == rt) {
        Attr *r = splat_attr(S, a, other->ty);
        if (r) return tv_tensor(sem_constant(S, r), other->ty);
    }
    return tv_tensor(sem_constant(S, a), rt); /* (the other is poison: an error was reported) */
}

/* x reshaped (splat, broadcast, expand_dims) to the block type t when x is
 * a constant of one value, as the splat constant canonicalize would fold
 * the shape op to; NULL when x is not such a constant. Sema splats a
 * Python number at nearly every use (`x + 1`, `mask, other=0.0`), and the
 * constant is reused within the block like a scalar one. (A bool is left
 * to the shape op: canonicalize does not fold one either. A constant
 * carrying a hint, tl.multiple_of, stays an operand.) */
static Value *const_reshaped(Sema *S, Value *x, const TlType *t) {
    Op *d = x->def;
    if (!d || d->kind != ARITH_CONSTANT || d->nattrs != 1) return NULL;
    Attr *r = splat_attr(S, op_attr_k(d, AN_VALUE), t);
    return r ? sem_constant(S, r) : NULL;
}

/* The shape op k (tt.splat, tt.broadcast, tt.expand_dims of `axis`, else
 * -1) of x to type t: one made before among x's latest users when it
 * dominates the new use (as sem_constant reuses a constant), else a new
 * one. Broadcasting splats and expands an operand at each use
 * (`x[:, None] * w` at every tap of a tl.static_range), and CSE would
 * merge the copies. (The search reads the use list, newest first, a few
 * entries deep: a value read everywhere, a program id, is not walked in
 * full; and nothing keyed by address, so what is reused does not depend
 * on where things were allocated. nattrs: not one a hint was put on since; a hint
 * put on it later holds of the one value all its users read, as for a
 * reused constant.) */
static Value *shape_op(Sema *S, OpKind k, const TlType *t, Value *x, int axis) {
    Value *c = const_reshaped(S, x, t);
    if (c) return c;
    Attr *ax = axis >= 0 ? sema_attr_i32(S, axis) : NULL;
    int n = 0;
    for (Use *u = x->uses; u && n < 8; u = u->next, n++) {
        Op *m = u->owner;
        if (m->kind == k && m->results[0].type == t->ir && m->nattrs == (ax != NULL) &&
            (!ax || op_attr_k(m, AN_AXIS) == ax) && m->parent && sema_dominates(S, m->parent))
            return op_result(m, 0);
    }
    Value *v = sem_ir(S, k, t, x, NULL);
    if (ax) op_set_attr_k(S->ctx, v->def, AN_AXIS, ax);
    return v;
}

TV sem_splat(Sema *S, TV x, const int64_t *shape, int rank) {
    if (x.kind == TV_ERR || rank == 0) return x;
    const TlType *t = tl_block(S, x.ty, shape, rank);
    return tv_tensor(shape_op(S, TT_SPLAT, t, x.v, -1), t);
}

TV sem_expand_dims(Sema *S, TV x, int64_t axis) {
    if (x.kind == TV_ERR) return x;
    int rank = tl_is_block(x.ty) ? x.ty->rank : 0;
    int64_t given = axis; /* (64 bits: 2**40 was taken for 0) */
    if (axis < 0) axis += rank + 1;
    if (axis < 0 || axis > rank)
        return sema_error(S, "invalid axis %lld. Expected %d <= axis < %d", (long long)given, -(rank + 1), rank + 1);
    if (rank >= TL_MAX_RANK) return sema_error(S, "tensor rank above %d is not supported", TL_MAX_RANK);
    if (!tl_is_block(x.ty)) return sem_splat(S, x, (const int64_t[]){1}, 1);
    const TlType *t = tl_expand_dims(S, x.ty, axis);
    return tv_tensor(shape_op(S, TT_EXPAND_DIMS, t, x.v, axis), t);
}

static TV broadcast_op(Sema *S, TV x, const int64_t *shape, int rank) {
    const TlType *t = tl_block(S, x.ty->elem, shape, rank);
    return tv_tensor(shape_op(S, TT_BROADCAST, t, x.v, -1), t);
}

static void shape_str(const int64_t *shape, int rank, StrBuf *sb) {
    sb_putc(sb, '[');
    for (int i = 0; i < rank; i++) sb_printf(sb, "%s%lld", i ? ", " : "", (long long)shape[i]);
    sb_putc(sb, ']');
}

TV sem_broadcast_to(Sema *S, TV x, const int64_t *shape, int rank) {
    if (x.kind == TV_ERR) return x;
    if (!tl_is_block(x.ty)) return sem_splat(S, x, shape, rank);
    const int64_t *src = x.ty->shape;
    StrBuf a = {0}, b = {0};
    shape_str(src, x.ty->rank, &a);
    shape_str(shape, rank, &b);
    TV r = x;
    if (x.ty->rank != rank) {
        r = sema_error(S, "Cannot broadcast, rank mismatch: %s, %s", sb_cstr(&a), sb_cstr(&b));
    } else if (memcmp(src, shape, sizeof(int64_t) * (size_t)rank) != 0) {
        for (int i = 0; i < rank; i++)
            if (shape[i] != src[i] && src[i] != 1) {
                r = sema_error(S,
                               "Cannot broadcast, the expanded size of the tensor (%lld) must match the "
                               "existing size (%lld) at non-singleton dimension %d: %s, %s",
                               (long long)shape[i], (long long)src[i], i, sb_cstr(&a), sb_cstr(&b));
                break;
            }
        if (r.kind != TV_ERR) r = broadcast_op(S, x, shape, rank);
    }
    sb_free(&a);
    sb_free(&b);
    return r;
}

/* The scalar x splatted to the shape of the block type `like`: that type
 * itself when its element is x's (the operands of most binary ops agree
 * after promotion), else the one tl_with_elem keeps with it (an offset
 * added to a block of pointers), without looking the shape up again. */
static TV splat_like(Sema *S, TV x, const TlType *like) {
    const TlType *t = tl_with_elem(S, like, x.ty);
    return tv_tensor(shape_op(S, TT_SPLAT, t, x.v, -1), t);
}

/* Whether tl_block raises no error for the shape: within Triton's element
 * limit, every dimension a power of 2. */
static bool shape_ok(const int64_t *shape, int rank) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)) != 0 || shape[i] > TL_MAX_NUMEL) return false;
        n *= shape[i];
        if (n > TL_MAX_NUMEL) return false;
    }
    return true;
}

bool sem_broadcast_pair_slow(Sema *S, TV *a, TV *b) {
    if (a->kind == TV_ERR || b->kind == TV_ERR) return false; /* already reported */
    bool ab = tl_is_block(a->ty), bb = tl_is_block(b->ty);
    if (ab && !bb) {
        *b = splat_like(S, *b, a->ty);
    } else if (!ab && bb) {
        *a = splat_like(S, *a, b->ty);
    } else if (ab && bb) {
        const TlType *at = a->ty, *bt = b->ty;
        if (at == bt) return true; /* (interned: one type, one shape) */
        if (at->rank == bt->rank) { /* the common case: one shape already */
            int i = 0;
            while (i < at->rank && at->shape[i] == bt->shape[i]) i++;
            if (i == at->rank) return true;
            /* the pair broadcast last time (`x[:, None] + y[None, :]` at
             * every step of a tl.static_range): the types it made, without
             * the shapes compared and looked up again */
            if (at->bcast_other == bt && bt->bcast_other == at) {
                if (at->bcast != at) *a = tv_tensor(shape_op(S, TT_BROADCAST, at->bcast, a->v, -1), at->bcast);
                if (bt->bcast != bt) *b = tv_tensor(shape_op(S, TT_BROADCAST, bt->bcast, b->v, -1), bt->bcast);
                return true;
            }
        }
        while (a->ty->rank < b->ty->rank) *a = sem_expand_dims(S, *a, 0);
        while (b->ty->rank < a->ty->rank) *b = sem_expand_dims(S, *b, 0);
        int rank = a->ty->rank;
        int64_t shape[TL_MAX_RANK];
        for (int i = 0; i < rank; i++) {
            int64_t l = a->ty->shape[i], r = b->ty->shape[i];
            if (l == 1) shape[i] = r;
            else if (r == 1 || r == l) shape[i] = l;
            else {
                sema_error(S, "Cannot make_shape_compatible: incompatible dimensions at index %d: %lld and %lld", i,
                           (long long)l, (long long)r);
                *a = *b = tv_err();
                return false;
            }
        }
        if (memcmp(a->ty->shape, shape, sizeof(int64_t) * (size_t)rank)) *a = broadcast_op(S, *a, shape, rank);
        if (memcmp(b->ty->shape, shape, sizeof(int64_t) * (size_t)rank)) *b = broadcast_op(S, *b, shape, rank);
        /* (remembered only for a shape tl_block keeps, one it raises no
         * error about: one over the limit is reported where it is made) */
        if (at->rank == bt->rank && a->kind == TV_TENSOR && b->kind == TV_TENSOR && shape_ok(shape, rank)) {
            /* (every TlType is the arena's) */
            ((TlType *)at)->bcast_other = bt;
            ((TlType *)at)->bcast = a->ty;
            ((TlType *)bt)->bcast_other = at;
            ((TlType *)bt)->bcast = b->ty;
        }
    }
    return true;
}

TV sem_reshape(Sema *S, TV x, const int64_t *shape, int rank, bool can_reorder) {
    if (x.kind == TV_ERR) return x;
    int64_t n = 1;
    bool pow2 = true;
    for (int i = 0; i < rank; i++) {
        n *= shape[i];
        if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)) != 0) pow2 = false;
    }
    if (tl_numel(x.ty) != n) {
        /* Triton checks the new shape (validate_block_shape) before the count */
        if (!pow2 && !S->numel_reported) tl_block(S, tl_sca(x.ty), shape, rank); /* (reports it) */
        else sema_error(S, "reshape() cannot change total number of elements in tensor");
        return tv_err();
    }
    const TlType *t = tl_block(S, tl_sca(x.ty), shape, rank);
    if (!tl_is_block(x.ty)) return sem_splat(S, x, shape, rank);
    if (rank == 0) return sem_unsplat(S, x); /* tl.reshape(x, []): the one element */
    Value *v = sem_ir(S, TT_RESHAPE, t, x.v, NULL);
    if (can_reorder) op_set_attr(S->ctx, v->def, "allow_reorder", attr_unit(S->ctx));
    return tv_tensor(v, t);
}

TV sem_permute(Sema *S, TV x, const int *perm, int rank) {
    if (x.kind == TV_ERR) return x;
    if (!tl_is_block(x.ty) || x.ty->rank != rank)
        return sema_error(S, "permute dims must have the same length as input shape");
    int64_t shape[TL_MAX_RANK], order[TL_MAX_RANK];
    bool seen[TL_MAX_RANK] = {0};
    for (int i = 0; i < rank; i++) {
        if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
            return sema_error(S, "permute dims must be a permutation of 0, 1, ..., n-1");
        seen[perm[i]] = true;
        shape[i] = x.ty->shape[perm[i]];
        order[i] = perm[i];
    }
    const TlType *t = tl_block(S, x.ty->elem, shape, rank);
    Value *v = sem_ir(S, TT_TRANS, t, x.v, NULL);
    op_set_attr_k(S->ctx, v->def, AN_ORDER, attr_dense_array(S->ctx, ty_i32(S->ctx), order, rank));
    return tv_tensor(v, t);
}

/* ---- casts --------------------------------------------------------------- */

static TV not_equal_zero(Sema *S, TV x) {
    const TlType *e = tl_sca(x.ty);
    Value *z = tl_is_float(e) ? sem_const_float(S, x.ty, 0) : sem_const_int(S, x.ty, 0);
    const TlType *rt = tl_with_elem(S, x.ty, tl_scalar(S, TL_I1));
    Value *r = tl_is_float(e) ? cmp(S, ARITH_CMPF, CMPF_UNE, x.v, z) : cmp(S, ARITH_CMPI, CMPI_NE, x.v, z);
    return tv_tensor(r, rt);
}

TV sem_bitcast(Sema *S, TV x, const TlType *dst) {
    if (x.kind == TV_ERR) return x;
    if (!tl_dtype_usable(S, dst)) return tv_err();
    const TlType *src = x.ty, *ds = tl_sca(dst);
    const TlType *dt = tl_with_elem(S, src, ds);
    if (dt == src) return x;
    if (tl_is_ptr(tl_sca(src)) || tl_is_ptr(ds)) return sem_cast(S, x, ds, NULL);
    int sb = tl_bitwidth(src), db = tl_bitwidth(ds);
    if (sb != db) return sema_error(S, "Cannot bitcast data-type of size %d to data-type of size %d", sb, db);
    /* also between types with one IR type (int32 -> uint32): Triton emits
     * tt.bitcast i32 -> i32 there, and nothing folds it */
    return tv_tensor(sem_ir(S, TT_BITCAST, dt, x.v, NULL), dt);
}

TV sem_cast_slow(Sema *S, TV x, const TlType *dst, const char *rounding) {
    if (x.kind == TV_ERR) return x;
    if (!tl_dtype_usable(S, dst)) return tv_err();
    if (x.kind != TV_TENSOR) x = sem_to_tensor(S, &x);
    if (x.kind == TV_ERR) return x;
    const TlType *s = tl_sca(x.ty), *d = tl_sca(dst);
    if (s == d) return x;
    const TlType *dt = tl_with_elem(S, x.ty, d);
    int rnd = -1; /* index into tt_rounding_names */
    bool custom_rounding = false;
    if (rounding) {
        rnd = enum_lookup(tt_rounding_names, rounding);
        if (rnd < 0)
            return sema_error(S, "Invalid rounding mode: %s. Supported rounding modes are 'rtne' and 'rtz'.", rounding);
    }
    if (tl_is_float(d) && tl_is_float(s) && tl_bitwidth(d) < tl_bitwidth(s)) {
        if (rnd < 0) rnd = enum_lookup(tt_rounding_names, "rtne");
        else if (strcmp(rounding, "rtne") != 0) custom_rounding = true;
    } else if (rounding) {
        return sema_error(S,
                          "fp_downcast_rounding should be set only for truncating fp conversions. Source scalar "
                          "type is %s and destination type is %s",
                          tl_scalar_name(s->kind), tl_scalar_name(d->kind));
    }
    if ((tl_is_fp8(s) && tl_is_float(d)) || (tl_is_float(s) && tl_is_fp8(d)) || custom_rounding) {
        Value *v = sem_ir(S, TT_FP_TO_FP, dt, x.v, NULL);
        if (tl_bitwidth(d) < tl_bitwidth(s)) op_set_attr_k(S->ctx, v->def, AN_ROUNDING, sema_attr_i32(S, rnd));
        return tv_tensor(v, dt);
    }
    /* fp16/bf16 to anything but fp32 (fp64, ints) goes through fp32 */
    if ((s->kind == TL_FP16 || s->kind == TL_BF16) && d->kind != TL_FP32)
        return sem_cast(S, sem_cast(S, x, tl_scalar(S, TL_FP32), NULL), d, NULL);
    if (tl_is_float(s) && tl_is_float(d))
        return tv_tensor(sem_ir(S, tl_bitwidth(s) > tl_bitwidth(d) ? ARITH_TRUNCF : ARITH_EXTF, dt, x.v, NULL), dt);
    if (tl_is_int(s) && tl_is_int(d)) {
        if (tl_is_bool(d)) return not_equal_zero(S, x);
        int sw = tl_bitwidth(s), dw = tl_bitwidth(d);
        if (sw == dw) return tv_tensor(x.v, dt);
        OpKind k = sw > dw ? ARITH_TRUNCI : (tl_is_signed(s) && !tl_is_bool(s)) ? ARITH_EXTSI : ARITH_EXTUI;
        return tv_tensor(sem_ir(S, k, dt, x.v, NULL), dt);
    }
    if (tl_is_float(s) && tl_is_int(d)) {
        if (tl_is_bool(d)) return not_equal_zero(S, x);
        return tv_tensor(sem_ir(S, tl_is_signed(d) ? ARITH_FPTOSI : ARITH_FPTOUI, dt, x.v, NULL), dt);
    }
    if (tl_is_int(s) && tl_is_float(d)) {
        OpKind k = (tl_is_bool(s) || !tl_is_signed(s)) ? ARITH_UITOFP : ARITH_SITOFP;
        return tv_tensor(sem_ir(S, k, dt, x.v, NULL), dt);
    }
    if (tl_is_ptr(s) && tl_is_int(d)) {
        if (tl_bitwidth(d) == 64) return tv_tensor(sem_ir(S, TT_PTR_TO_INT, dt, x.v, NULL), dt);
        if (tl_is_bool(d)) return not_equal_zero(S, sem_cast(S, x, tl_scalar(S, TL_I64), NULL));
    }
    if (tl_is_int(s) && tl_is_ptr(d)) return tv_tensor(sem_ir(S, TT_INT_TO_PTR, dt, x.v, NULL), dt);
    if (tl_is_ptr(s) && tl_is_ptr(d)) return tv_tensor(sem_ir(S, TT_BITCAST, dt, x.v, NULL), dt);
    return sema_error(S, "cannot cast %s to %s", tl_cstr(S, x.ty), tl_cstr(S, d));
}

/* ---- promotion ----------------------------------------------------------- */

const TlType *sem_integer_promote(Sema *S, const TlType *a, const TlType *b) {
    if (a == b) return a; /* (the common case, without the widths) */
    int ar = tl_bitwidth(a), br = tl_bitwidth(b);
    bool au = tl_is_unsigned(a), bu = tl_is_unsigned(b);
    if (au == bu) return ar > br ? a : b;
    if (au) return ar >= br ? a : b;
    return br >= ar ? b : a;
}

static const TlType *computation_type(Sema *S, const TlType *a, bool a_scalar, const TlType *b, bool b_scalar,
                                      bool div_or_mod) {
    if (a_scalar != b_scalar) {
        const TlType *sc = a_scalar ? a : b, *te = a_scalar ? b : a;
        if (tl_kind_rank(sc) <= tl_kind_rank(te)) {
            if (div_or_mod && (te->kind == TL_FP16 || te->kind == TL_BF16)) return tl_scalar(S, TL_FP32);
            return te;
        }
    }
    if (a->kind == TL_FP64 || b->kind == TL_FP64) return tl_scalar(S, TL_FP64);
    if (a->kind == TL_FP32 || b->kind == TL_FP32) return tl_scalar(S, TL_FP32);
    if (a->kind == TL_FP16 || b->kind == TL_FP16) return tl_scalar(S, div_or_mod ? TL_FP32 : TL_FP16);
    if (a->kind == TL_BF16 && b->kind == TL_BF16) return tl_scalar(S, div_or_mod ? TL_FP32 : TL_BF16);
    if (a->kind == TL_BF16 || b->kind == TL_BF16) return tl_scalar(S, TL_FP32);
    if (tl_is_fp8(a) && tl_is_fp8(b)) return a == b ? a : tl_scalar(S, TL_FP16);
    if (!tl_is_int(a) || !tl_is_int(b)) {
        sema_error(S, "unexpected type %s and %s", tl_cstr(S, a), tl_cstr(S, b));
        return NULL;
    }
    if (div_or_mod && tl_is_unsigned(a) != tl_is_unsigned(b)) {
        sema_error(S,
                   "Cannot use /, //, or %% with %s and %s because they have different signedness; this is "
                   "unlikely to result in a useful answer. Cast them to the same signedness.",
                   tl_cstr(S, a), tl_cstr(S, b));
        return NULL;
    }
    return sem_integer_promote(S, a, b);
}

static bool check_ptr(Sema *S, const TlType *a, const TlType *b, bool allow_ptr_a) {
    if (!tl_is_ptr(a)) return true;
    if (!allow_ptr_a || (tl_is_ptr(b) && a != b) || tl_is_float(b)) {
        sema_error(S, "invalid operands of type %s and %s", tl_cstr(S, a), tl_cstr(S, b));
        return false;
    }
    return true;
}

static bool int_in_range(const TlType *t, const TV *v) {
    if (v->kind == TV_FLOAT) return true;
    int w = tl_bitwidth(t);
    if (v->u64) return w >= 64 && tl_is_unsigned(t);
    if (w >= 64) return !tl_is_unsigned(t) || v->i >= 0;
    if (tl_is_unsigned(t)) return v->i >= 0 && v->i < (INT64_C(1) << w);
    return v->i >= -(INT64_C(1) << (w - 1)) && v->i < (INT64_C(1) << (w - 1));
}

static bool scalar_range_error(Sema *S, const TV *v, const TlType *t) {
    StrBuf sb = {0};
    tv_str(S, v, &sb);
    sema_error(S, "Scalar %s is out of range for type %s", sb_cstr(&sb), tl_cstr(S, t));
    sb_free(&sb);
    return false;
}

bool sem_binary_check_slow(Sema *S, TV *a, TV *b, bool allow_lhs_ptr, bool allow_rhs_ptr, bool arith_check,
                           bool div_or_mod) {
    if (a->kind == TV_TENSOR && b->kind == TV_TENSOR) {
        /* the common case first: two tensors of one element type that is
         * not a pointer are of the computation type already (but for `/`
         * and `%` of 16-bit floats, computed in fp32) */
        const TlType *e = tl_sca(a->ty), *f = tl_sca(b->ty);
        if (e == f && !tl_is_ptr(e) && !(div_or_mod && (e->kind == TL_FP16 || e->kind == TL_BF16)))
            return sem_broadcast_pair(S, a, b);
        /* a pointer and an integer offset, where a pointer may be (what
         * check_ptr below lets through: only broadcast) */
        if ((tl_is_ptr(e) && allow_lhs_ptr && tl_is_int(f)) || (tl_is_ptr(f) && allow_rhs_ptr && tl_is_int(e)))
            return sem_broadcast_pair(S, a, b);
    }
    if (arith_check && (a->kind == TV_TENSOR) != (b->kind == TV_TENSOR)) {
        /* a tensor of numbers beside a Python int or float of a kind no
         * higher than its elements' (`m >= 0`, `x + 1`, `1.0 - w`, most
         * numbers of a kernel; bool is lower than int): computed in the
         * tensor's element type, the number splatted to a block, as below
         * (and where the number does not fit the type, below, which says
         * so) */
        TV *t = a->kind == TV_TENSOR ? a : b, *x = t == a ? b : a;
        const TlType *e = tl_sca(t->ty);
        bool fits = false;
        if (!(div_or_mod && (e->kind == TL_FP16 || e->kind == TL_BF16))) {
            if (x->kind == TV_FLOAT) fits = tl_is_float(e);
            else if (x->kind == TV_INT && !x->u64 && x->i >= -(INT64_C(1) << 31) && x->i < (INT64_C(1) << 31))
                fits = tl_is_float(e) || (tl_is_int(e) && !tl_is_bool(e) && !(tl_is_unsigned(e) && x->i < 0) &&
                                          int_in_range(e, x));
        }
        if (fits) {
            Attr *n = number_attr(S, x, e);
            if (!tl_is_block(t->ty)) { /* beside a scalar: the scalar constant */
                *x = tv_tensor(sem_constant(S, n), e);
                return true;
            }
            sem_constant(S, n); /* (where the value's constant first stands: see below) */
            *x = splat_number(S, n, e, t);
            return true;
        }
    }
    if (a->kind == TV_ERR || b->kind == TV_ERR) return false;
    bool a_sc = tv_is_num(a), b_sc = tv_is_num(b);
    const TlType *at = a_sc ? sem_to_tensor_type(S, a) : a->kind == TV_TENSOR ? tl_sca(a->ty) : NULL;
    const TlType *bt = b_sc ? sem_to_tensor_type(S, b) : b->kind == TV_TENSOR ? tl_sca(b->ty) : NULL;
    if (!at || !bt) {
        sema_error(S, "invalid operands of type %s and %s", tv_kind_name(a), tv_kind_name(b));
        return false;
    }
    /* (pointers are checked out of line: most operands are numbers) */
    bool ptrs = tl_is_ptr(at) || tl_is_ptr(bt);
    if (ptrs && (!check_ptr(S, at, bt, allow_lhs_ptr) || !check_ptr(S, bt, at, allow_rhs_ptr))) return false;
    if (arith_check && !ptrs) {
        const TlType *rt = computation_type(S, at, a_sc, bt, b_sc, div_or_mod);
        if (!rt) return false;
        bool a_neg = a_sc && a->kind != TV_FLOAT && !a->u64 && a->i < 0;
        bool b_neg = b_sc && b->kind != TV_FLOAT && !b->u64 && b->i < 0;
        if (tl_is_unsigned(rt) && (a_neg || b_neg)) {
            sema_error(S, "Cannot perform a binary operation between an unsigned tensor and a negative scalar. "
                          "Perform a explicit cast on one of them.");
            return false;
        }
        if (tl_is_int(rt)) {
            if (a_sc && !int_in_range(rt, a)) return scalar_range_error(S, a, rt);
            if (b_sc && !int_in_range(rt, b)) return scalar_range_error(S, b, rt);
        }
        /* (a tensor already of the computation type stays as it is: no
         * copies through sem_cast) */
        /* A number beside a block becomes the splat constant broadcasting
         * would make of its scalar constant (const_reshaped), at once, with
         * no shape op looked for. The scalar constant is made all the same,
         * though only the splat is read: it fixes where the constant of
         * that value first stands in the function, which canonicalize
         * keeps, and later uses of the value take it. */
        Attr *a_num = a_sc && b->kind == TV_TENSOR && tl_is_block(b->ty) ? number_attr(S, a, rt) : NULL;
        Attr *b_num = b_sc && a->kind == TV_TENSOR && tl_is_block(a->ty) ? number_attr(S, b, rt) : NULL;
        if (a_num) sem_constant(S, a_num);
        else if (a_sc) *a = sem_scalar_constant(S, a, rt);
        else if (tl_sca(a->ty) != rt) *a = sem_cast(S, *a, rt, NULL);
        if (b_num) sem_constant(S, b_num);
        else if (b_sc) *b = sem_scalar_constant(S, b, rt);
        else if (tl_sca(b->ty) != rt) *b = sem_cast(S, *b, rt, NULL);
        if (a_num) *a = splat_number(S, a_num, rt, b);
        if (b_num) *b = splat_number(S, b_num, rt, a);
    } else {
        if (a_sc) *a = sem_to_tensor(S, a);
        if (b_sc) *b = sem_to_tensor(S, b);
    }
    if (a->kind == TV_ERR || b->kind == TV_ERR) return false;
    return sem_broadcast_pair(S, a, b);
}

/* ---- arithmetic ------------------------------------------------------------ */

/* (add and bitwise work on sem_binary's copies of the operands, in place:
 * no further copies by value) */
static TV add(Sema *S, TV *pa, TV *pb) {
    if (!sem_binary_check(S, pa, pb, true, true, true, false)) return tv_err();
    const TV *a = pa, *b = pb;
    const TlType *as = tl_sca(a->ty), *bs = tl_sca(b->ty);
    if (tl_is_ptr(as) && tl_is_ptr(bs)) return sema_error(S, "cannot add pointers together");
    if (tl_is_ptr(bs) && !tl_is_ptr(as)) {
        a = pb;
        b = pa;
        as = tl_sca(a->ty);
        bs = tl_sca(b->ty);
    }
    if (tl_is_ptr(as) && as->elem && tl_is_block(as->elem))
        /* (it reached rewrite-tensor-pointer as a tt.addptr of a block
         * pointer, and that pass's words) */
        return sema_error(S, "a block pointer (%s) cannot be offset with + or -: use tl.advance(ptr, offsets)",
                          tl_cstr(S, as));
    if (tl_is_ptr(as)) {
        Value *off = b->v;
        if (tl_is_unsigned(bs) && tl_bitwidth(bs) < 64)
            off = sem_ir(S, ARITH_EXTUI, tl_with_elem(S, b->ty, tl_scalar(S, TL_I64)), b->v, NULL);
        return tv_tensor(binary(S, TT_ADDPTR, a->ty, a->v, off), a->ty);
    }
    if (tl_is_float(as)) return tv_tensor(binary(S, ARITH_ADDF, a->ty, a->v, b->v), a->ty);
    if (tl_is_int(as)) return tv_tensor(binary(S, ARITH_ADDI, a->ty, a->v, b->v), a->ty);
    return ty_err(S, "unexpected type", as);
}

TV sem_minus(Sema *S, TV x) {
    if (x.kind == TV_ERR) return x;
    const TlType *s = tl_sca(x.ty);
    if (tl_is_ptr(s)) return sema_error(S, "wrong type argument to unary minus (%s)", tl_cstr(S, s));
    TV zero = tl_is_float(s) ? tv_tensor(sem_const_float(S, s, 0), s) : tv_tensor(sem_const_int(S, s, 0), s);
    return sem_binary(S, PY_BIN_SUB, zero, x);
}

TV sem_invert(Sema *S, TV x) {
    if (x.kind == TV_ERR) return x;
    const TlType *s = tl_sca(x.ty);
    if (tl_is_ptr(s) || tl_is_float(s)) return sema_error(S, "wrong type argument to unary invert (%s)", tl_cstr(S, s));
    TV ones = tv_tensor(sem_const_int(S, s, -1), s);
    return sem_binary(S, PY_BIN_BITXOR, x, ones);
}

TV sem_not(Sema *S, TV x) {
    if (x.kind == TV_ERR) return x;
    if (!tl_is_bool(tl_sca(x.ty))) x = sem_bitcast(S, x, tl_scalar(S, TL_I1));
    return sem_invert(S, x);
}

TV sem_logical(Sema *S, bool is_and, TV a, TV b) {
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    a = sem_to_tensor(S, &a);
    b = sem_to_tensor(S, &b);
    if (!tl_is_bool(tl_sca(a.ty))) a = sem_bitcast(S, a, tl_scalar(S, TL_I1));
    if (!tl_is_bool(tl_sca(b.ty))) b = sem_bitcast(S, b, tl_scalar(S, TL_I1));
    return sem_binary(S, is_and ? PY_BIN_BITAND : PY_BIN_BITOR, a, b);
}

static TV bitwise(Sema *S, OpKind k, TV *a, TV *b) {
    if (!sem_binary_check(S, a, b, false, false, true, false)) return tv_err();
    const TlType *as = tl_sca(a->ty), *bs = tl_sca(b->ty);
    if (!tl_is_int(as) || !tl_is_int(bs))
        return sema_error(S, "invalid operands of type %s and %s", tl_cstr(S, as), tl_cstr(S, bs));
    /* (the operands mostly have the computation type already: no copies
     * through sem_cast then) */
    const TlType *rt = sem_integer_promote(S, as, bs);
    if (as != rt) *a = sem_cast(S, *a, rt, NULL);
    if (bs != rt) *b = sem_cast(S, *b, rt, NULL);
    return tv_tensor(binary(S, k, a->ty, a->v, b->v), a->ty);
}

TV sem_fdiv(Sema *S, TV a, TV b, bool ieee) {
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    a = sem_to_tensor(S, &a); /* Python numbers too (tl.fdiv(1.0, x)) */
    b = sem_to_tensor(S, &b);
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    if (!tl_is_float(tl_sca(a.ty)) || !tl_is_float(tl_sca(b.ty)))
        return sema_error(S, "both operands of fdiv must have floating scalar type");
    if (!sem_binary_check(S, &a, &b, false, false, false, true)) return tv_err();
    if (tl_sca(a.ty) != tl_sca(b.ty))
        return sema_error(S, "fdiv's operands must have the same dtype, got %s and %s", tl_cstr(S, tl_sca(a.ty)),
                          tl_cstr(S, tl_sca(b.ty)));
    return tv_tensor(sem_ir(S, ieee ? TT_PRECISE_DIVF : ARITH_DIVF, a.ty, a.v, b.v), a.ty);
}

TV sem_binary_in_place(Sema *S, PyBinOp op, TV *a, TV *b) {
    if (a->kind == TV_TENSOR && b->kind == TV_TENSOR && a->ty == b->ty) {
        /* two tensors of one type, of numbers (most operators of a
         * kernel, after broadcasting): +, -, * and &, |, ^ of integers
         * need no promotion, cast or broadcast, and are made at once, as
         * the cases below would make them */
        const TlType *e = tl_sca(a->ty);
        bool fl = tl_is_float(e);
        int k = -1;
        if (fl || tl_is_int(e)) {
            switch (op) {
            case PY_BIN_ADD: k = fl ? ARITH_ADDF : ARITH_ADDI; break;
            case PY_BIN_SUB: k = fl ? ARITH_SUBF : ARITH_SUBI; break;
            case PY_BIN_MUL: k = fl ? ARITH_MULF : ARITH_MULI; break;
            case PY_BIN_BITAND: k = fl ? -1 : ARITH_ANDI; break;
            case PY_BIN_BITOR: k = fl ? -1 : ARITH_ORI; break;
            case PY_BIN_BITXOR: k = fl ? -1 : ARITH_XORI; break;
            default: break;
            }
        }
        if (k >= 0) return tv_tensor(binary(S, (OpKind)k, a->ty, a->v, b->v), a->ty);
    }
    if (a->kind == TV_ERR || b->kind == TV_ERR) return tv_err();
    switch (op) {
    case PY_BIN_ADD: return add(S, a, b);
    case PY_BIN_SUB: {
        if (!sem_binary_check(S, a, b, true, false, true, false)) return tv_err();
        const TlType *s = tl_sca(a->ty);
        if (tl_is_ptr(s)) {
            *b = sem_minus(S, *b);
            return add(S, a, b);
        }
        if (tl_is_float(s)) return tv_tensor(binary(S, ARITH_SUBF, a->ty, a->v, b->v), a->ty);
        return tv_tensor(binary(S, ARITH_SUBI, a->ty, a->v, b->v), a->ty);
    }
    case PY_BIN_MUL: {
        if (!sem_binary_check(S, a, b, false, false, true, false)) return tv_err();
        const TlType *s = tl_sca(a->ty);
        if (tl_is_float(s)) return tv_tensor(binary(S, ARITH_MULF, a->ty, a->v, b->v), a->ty);
        return tv_tensor(binary(S, ARITH_MULI, a->ty, a->v, b->v), a->ty);
    }
    case PY_BIN_DIV: {
        if (!sem_binary_check(S, a, b, false, false, true, true)) return tv_err();
        const TlType *as = tl_sca(a->ty), *bs = tl_sca(b->ty);
        if (tl_is_float(as) && tl_is_int(bs)) *b = sem_cast(S, *b, as, NULL);
        else if (tl_is_int(as) && tl_is_float(bs)) *a = sem_cast(S, *a, bs, NULL);
        else if (tl_is_int(as) && tl_is_int(bs)) {
            *a = sem_cast(S, *a, tl_scalar(S, TL_FP32), NULL);
            *b = sem_cast(S, *b, tl_scalar(S, TL_FP32), NULL);
        } else if (tl_mantissa(as) > tl_mantissa(bs)) *b = sem_cast(S, *b, as, NULL);
        else *a = sem_cast(S, *a, bs, NULL);
        if (a->kind == TV_ERR || b->kind == TV_ERR) return tv_err();
        return tv_tensor(binary(S, ARITH_DIVF, a->ty, a->v, b->v), a->ty);
    }
    case PY_BIN_FLOORDIV: {
        if (!sem_binary_check(S, a, b, false, false, true, true)) return tv_err();
        const TlType *as = tl_sca(a->ty), *bs = tl_sca(b->ty);
        if (!tl_is_int(as) || !tl_is_int(bs)) return ty_err(S, "unexpected type for //", as);
        const TlType *rt = sem_integer_promote(S, as, bs);
        *a = sem_cast(S, *a, rt, NULL);
        *b = sem_cast(S, *b, rt, NULL);
        return tv_tensor(binary(S, tl_is_signed(rt) ? ARITH_DIVSI : ARITH_DIVUI, a->ty, a->v, b->v), a->ty);
    }
    case PY_BIN_MOD: {
        if (!sem_binary_check(S, a, b, false, false, true, true)) return tv_err();
        const TlType *as = tl_sca(a->ty), *bs = tl_sca(b->ty);
        if (tl_is_float(as)) return tv_tensor(binary(S, ARITH_REMF, a->ty, a->v, b->v), a->ty);
        if (tl_is_unsigned(as) != tl_is_unsigned(bs))
            return sema_error(S, "Cannot mod %s by %s because they have different signedness; this is unlikely to "
                                 "result in a useful answer. Cast them to the same signedness.",
                              tl_cstr(S, as), tl_cstr(S, bs));
        return tv_tensor(binary(S, tl_is_signed(as) ? ARITH_REMSI : ARITH_REMUI, a->ty, a->v, b->v), a->ty);
    }
    case PY_BIN_BITAND: return bitwise(S, ARITH_ANDI, a, b);
    case PY_BIN_BITOR: return bitwise(S, ARITH_ORI, a, b);
    case PY_BIN_BITXOR: return bitwise(S, ARITH_XORI, a, b);
    case PY_BIN_LSHIFT: return bitwise(S, ARITH_SHLI, a, b);
    case PY_BIN_RSHIFT: {
        const TlType *lt = a->kind == TV_TENSOR ? tl_sca(a->ty) : NULL;
        return bitwise(S, lt && tl_is_signed(lt) ? ARITH_SHRSI : ARITH_SHRUI, a, b);
    }
    case PY_BIN_POW:
        /* Triton's tensor has no __pow__; say what to write instead */
        return sema_error(S, "operator '**' is not supported on tensors; use libdevice.pow(x, y) "
                             "(triton.language.extra) or repeated multiplication");
    default:
        return sema_error(S, "operator '%s' is not supported on tensors", py_binop_str(op));
    }
}

TV sem_binary(Sema *S, PyBinOp op, TV a, TV b) { return sem_binary_in_place(S, op, &a, &b); }

TV sem_compare_in_place(Sema *S, PyCmpOp op, TV *a, TV *b) {
    if (!sem_binary_check(S, a, b, false, false, true, false)) return tv_err();
    const TlType *s = tl_sca(a->ty);
    const TlType *rt = tl_with_elem(S, a->ty, tl_scalar(S, TL_I1));
    if (tl_is_float(s)) {
        static const int fp[] = {[PY_CMP_EQ] = CMPF_OEQ, [PY_CMP_NE] = CMPF_UNE, [PY_CMP_LT] = CMPF_OLT,
                                 [PY_CMP_LE] = CMPF_OLE, [PY_CMP_GT] = CMPF_OGT, [PY_CMP_GE] = CMPF_OGE};
        return tv_tensor(cmp(S, ARITH_CMPF, fp[op], a->v, b->v), rt);
    }
    if (tl_is_int(s)) {
        bool u = tl_is_unsigned(s);
        int p;
        switch (op) {
        case PY_CMP_EQ: p = CMPI_EQ; break;
        case PY_CMP_NE: p = CMPI_NE; break;
        case PY_CMP_LT: p = u ? CMPI_ULT : CMPI_SLT; break;
        case PY_CMP_LE: p = u ? CMPI_ULE : CMPI_SLE; break;
        case PY_CMP_GT: p = u ? CMPI_UGT : CMPI_SGT; break;
        default: p = u ? CMPI_UGE : CMPI_SGE; break;
        }
        return tv_tensor(cmp(S, ARITH_CMPI, p, a->v, b->v), rt);
    }
    return ty_err(S, "unexpected type for comparison", s);
}

TV sem_compare(Sema *S, PyCmpOp op, TV a, TV b) { return sem_compare_in_place(S, op, &a, &b); }

TV sem_minmax(Sema *S, bool is_max, TV a, TV b, bool nan_all) {
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    a = sem_to_tensor(S, &a);
    b = sem_to_tensor(S, &b);
    if (tl_sca(a.ty)->kind == TL_BF16) a = sem_cast(S, a, tl_scalar(S, TL_FP32), NULL);
    if (tl_sca(b.ty)->kind == TL_BF16) b = sem_cast(S, b, tl_scalar(S, TL_FP32), NULL);
    if (!sem_binary_check(S, &a, &b, false, false, true, false)) return tv_err();
    const TlType *s = tl_sca(a.ty);
    OpKind k;
    if (tl_is_float(s)) k = is_max ? (nan_all ? ARITH_MAXIMUMF : ARITH_MAXNUMF) : (nan_all ? ARITH_MINIMUMF : ARITH_MINNUMF);
    else if (tl_is_signed(s)) k = is_max ? ARITH_MAXSI : ARITH_MINSI;
    else if (tl_is_unsigned(s)) k = is_max ? ARITH_MAXUI : ARITH_MINUI;
    else return ty_err(S, "Unexpected dtype", s);
    return tv_tensor(sem_ir(S, k, a.ty, a.v, b.v), a.ty);
}

TV sem_where(Sema *S, TV c, TV x, TV y) {
    if (c.kind == TV_ERR || x.kind == TV_ERR || y.kind == TV_ERR) return tv_err();
    c = sem_to_tensor(S, &c);
    c = sem_cast(S, c, tl_scalar(S, TL_I1), NULL);
    if (!sem_binary_check(S, &x, &y, true, true, true, false)) return tv_err();
    if (tl_is_block(c.ty)) {
        if (!sem_broadcast_pair(S, &c, &x) || !sem_broadcast_pair(S, &x, &y)) return tv_err();
        if (!sem_broadcast_pair(S, &c, &x)) return tv_err();
    } else {
        TV dummy = x;
        if (!sem_broadcast_pair(S, &c, &dummy)) return tv_err();
    }
    Value *ops[3] = {c.v, x.v, y.v};
    Type *t = x.ty->ir;
    return tv_tensor(op_result(sem_op(S, ARITH_SELECT, ops, 3, &t, 1, 0), 0), x.ty);
}

TV sem_arange(Sema *S, const TV *start, const TV *end) {
    if (!tv_is_int(start) || !tv_is_int(end)) /* (True is 1, as in Python) */
        return sema_error(S, "arange's arguments must be of type tl.constexpr");
    int64_t s = start->i, e = end->i;
    /* Both bounds become i32 attributes: one past INT32_MAX (2**31 passes
     * Triton's `start >> 32` test) wrapped to a negative bound and gave a
     * silently wrong range. A negative bound fails that test in Triton
     * (-4 >> 32 is -1); tl.arange reports it at the argument (bi_arange). */
    if (s < 0 || s > INT32_MAX || e < 0 || e > INT32_MAX || start->u64 || end->u64) {
        StrBuf a = {0}, b = {0}; /* (a uint64 bound as one, not as its negative bit pattern) */
        tv_str(S, start, &a);
        tv_str(S, end, &b);
        sema_error(S, "arange must fit in int32: got arange(%s, %s)", sb_cstr(&a), sb_cstr(&b));
        sb_free(&a);
        sb_free(&b);
        return tv_err();
    }
    if (e <= s) return sema_error(S, "arange's end argument must be greater than the start argument");
    int64_t r = e - s;
    if ((r & (r - 1)) != 0) return sema_error(S, "arange's range must be a power of 2");
    const TlType *t = tl_block(S, tl_scalar(S, TL_I32), &r, 1);
    Type *irt = t->ir;
    Op *op = sem_op(S, TT_MAKE_RANGE, NULL, 0, &irt, 1, 0);
    op_set_attr_k(S->ctx, op, AN_START, sema_attr_i32(S, s));
    op_set_attr_k(S->ctx, op, AN_END, sema_attr_i32(S, e));
    return tv_tensor(op_result(op, 0), t);
}

TV sem_full(Sema *S, const int64_t *shape, int rank, const TV *value, const TlType *dtype) {
    TV v;
    if (value->kind == TV_TENSOR) {
        if (tl_numel(value->ty) != 1) return sema_error(S, "full() only accepts a size-1 tensor as its value");
        v = sem_cast(S, *value, dtype, NULL);
    } else if (tv_is_num(value)) {
        /* Triton's builder takes an int for an integer dtype (get_int32(1.5)
         * is a TypeError); a float value other than 0 was truncated, NaN
         * made 0 */
        const TlType *e = tl_sca(dtype);
        if (value->kind == TV_FLOAT && tl_is_int(e) && !tl_is_bool(e) && value->f != 0) {
            StrBuf vs = {0};
            tv_str(S, value, &vs);
            TV r = sema_error(S, "full(): the value %s is a float, and %s is an integer dtype: pass an int (or a float "
                                 "dtype, or cast the tensor)",
                              sb_cstr(&vs), tl_cstr(S, e));
            sb_free(&vs);
            return r;
        }
        v = sem_scalar_constant(S, value, dtype);
    } else {
        return sema_error(S, "full() value must be a number or a scalar tensor");
    }
    return sem_splat(S, v, shape, rank);
}
