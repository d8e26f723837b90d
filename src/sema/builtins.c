/*
 * builtins.c - the tl.* builtins: one table row per builtin (name, the
 * namespaces it lives in, its Python parameter list, its implementation),
 * a binder that matches a call's positional and keyword arguments to the
 * parameter list (with Python's error messages), and the implementations,
 * which follow core.py, standard.py, math.py and random.py.
 *
 * Parameter lists read like Python's: "pointer,mask=,other=" -- a trailing
 * '=' marks an optional parameter, "*dims" collects the remaining positional
 * arguments into a tuple.
 */
#include "sema/sema_int.h"
#include "support/erfcc.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define A(i) (&a->v[i])
#define GIVEN(i) (a->given[i] && a->v[i].kind != TV_NONE)

static TV err_type(Sema *S, const char *fn, const char *what, const TV *v) {
    return sema_error(S, "%s() expects %s, got %s", fn, what, tv_kind_name(v));
}

static bool need_tensor(Sema *S, CallArgs *a, int i, TV *out) {
    TV v = a->v[i];
    if (v.kind == TV_ERR) return false;
    if (tv_is_num(&v)) v = sem_to_tensor(S, &v);
    if (v.kind != TV_TENSOR) {
        err_type(S, a->bi->name, "a tensor", &a->v[i]);
        return false;
    }
    *out = v;
    return true;
}

static bool need_int(Sema *S, CallArgs *a, int i, int64_t *out) {
    TV v = a->v[i];
    if (v.u64) { /* (its bits as an int64 were a negative number) */
        sema_error(S, "%s(): argument %d (%llu) is out of range: it must fit in int64", a->bi->name, i + 1,
                   (unsigned long long)v.i);
        return false;
    }
    if (v.kind == TV_INT || v.kind == TV_BOOL) {
        *out = v.i;
        return true;
    }
    if (v.kind != TV_ERR) sema_error(S, "%s(): argument %d must be a constexpr int, got %s", a->bi->name, i + 1, tv_kind_name(&v));
    return false;
}

/* Points the report at argument i when it was written. */
static void at_arg(Sema *S, CallArgs *a, int i) {
    if (a->node[i]) {
        S->loc = a->node[i]->loc;
        S->span_node = a->node[i];
    }
}

/* Dimension k of a shape, a constexpr int, into *out. One of 2**63 or more
 * (a uint64 constexpr) has no int64 form: read as one it was a negative
 * dimension ("must be a power of 2, got shape [-9223372036854775808]").
 * Triton's validate_block_shape takes it as the Python int it is: a power
 * of 2 there is too large for a tensor, any other is not a power of 2;
 * either is reported at the argument `arg`. */
static bool shape_dim(Sema *S, CallArgs *a, int arg, const TV *d, int k, int64_t *out) {
    if (!d->u64) {
        *out = d->i;
        return true;
    }
    uint64_t u = (uint64_t)d->i;
    at_arg(S, a, arg);
    if (u & (u - 1))
        sema_error(S, "Shape element %d must be a power of 2, got %llu", k, (unsigned long long)u);
    else
        sema_error(S, "Shape element %d (%llu) is too large: numel exceeds triton maximum tensor numel (%lld)", k,
                   (unsigned long long)u, (long long)TL_MAX_NUMEL);
    return false;
}

/* A shape from argument i, a tuple or list of ints (or a single int); its
 * dimensions checked by shape_dim when dims, else ints as they are (one
 * past int64 as INT64_MAX, out of any range the caller checks). */
static int need_int_list(Sema *S, CallArgs *a, int i, int64_t *shape, bool dims) {
    const TV *v = A(i);
    if (tv_is_int(v)) {
        if (dims) return shape_dim(S, a, i, v, 0, shape) ? 1 : -1;
        shape[0] = v->u64 ? INT64_MAX : v->i;
        return 1;
    }
    if (v->kind != TV_TUPLE || v->n > TL_MAX_RANK) {
        if (v->kind != TV_ERR) sema_error(S, "%s(): shape must be a tuple of constexpr ints", a->bi->name);
        return -1;
    }
    for (int k = 0; k < v->n; k++) {
        if (!tv_is_int(&v->elems[k])) {
            sema_error(S, "%s(): shape must be a tuple of constexpr ints", a->bi->name);
            return -1;
        }
        if (!dims) shape[k] = v->elems[k].u64 ? INT64_MAX : v->elems[k].i;
        else if (!shape_dim(S, a, i, &v->elems[k], k, &shape[k])) return -1;
    }
    return v->n;
}

static int need_shape(Sema *S, CallArgs *a, int i, int64_t *shape) { return need_int_list(S, a, i, shape, true); }

/* Varargs that may also be given as one tuple: f(x, 1, 0) or f(x, (1, 0)). */
static const TV *unpack_var(const TV *v, int *n) {
    if (v->n == 1 && v->elems[0].kind == TV_TUPLE) {
        *n = v->elems[0].n;
        return v->elems[0].elems;
    }
    *n = v->n;
    return v->elems;
}

/* Parameter i's name in a builtin's parameter list, into buf. */
static const char *param_name(const Builtin *bi, int i, char *buf, size_t size) {
    const char *p = bi->params;
    for (; i > 0 && p; i--) {
        p = strchr(p, ',');
        if (p) p++;
    }
    size_t n = p ? strcspn(p, ",=") : 0;
    if (!n || n >= size) return "argument";
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

/* A tl.dtype argument. A string naming one ("float32", "fp16") is not one:
 * Triton 3.6 fails on it (str has no to_ir / scalar), so it is an error here
 * too, at the argument, that says what to write. */
static const TlType *need_dtype(Sema *S, CallArgs *a, int i) {
    if (a->v[i].kind == TV_DTYPE) return tl_dtype_usable(S, a->v[i].ty) ? a->v[i].ty : NULL;
    if (a->v[i].kind == TV_ERR) return NULL;
    at_arg(S, a, i);
    const TlType *named = a->v[i].kind == TV_STR ? tl_dtype_by_name(S, a->v[i].s) : NULL;
    char buf[48];
    if (named)
        sema_error(S, "%s(): %s must be a tl.dtype, not the string '%s' (write tl.%s)", a->bi->name,
                   param_name(a->bi, i, buf, sizeof buf), a->v[i].s, tl_scalar_attr(tl_sca(named)->kind));
    else
        sema_error(S, "%s(): expected a dtype, got %s", a->bi->name, tv_kind_name(&a->v[i]));
    return NULL;
}

static bool str_arg(Sema *S, CallArgs *a, int i, const char **out) {
    if (!a->given[i] || a->v[i].kind == TV_NONE) {
        *out = "";
        return true;
    }
    if (a->v[i].kind == TV_STR) {
        *out = a->v[i].s;
        return true;
    }
    if (a->v[i].kind != TV_ERR) {
        char buf[48];
        at_arg(S, a, i);
        sema_error(S, "%s(): %s must be a string, got %s", a->bi->name, param_name(a->bi, i, buf, sizeof buf),
                   tv_kind_name(&a->v[i]));
    }
    return false;
}

/* ---- programming model ------------------------------------------------------- */

static TV bi_program_id(Sema *S, CallArgs *a) {
    int64_t axis;
    if (!need_int(S, a, 0, &axis)) return tv_err();
    if (axis < 0 || axis > 2)
        return sema_error(S, "%s axis must be 0, 1, or 2 but got %lld", a->bi->name, (long long)axis);
    const TlType *t = tl_scalar(S, TL_I32);
    Type *irt = t->ir;
    Op *op = sem_op(S, a->bi->arg ? TT_GET_NUM_PROGRAMS : TT_GET_PROGRAM_ID, NULL, 0, &irt, 1, 0);
    op_set_attr_k(S->ctx, op, AN_AXIS, sema_attr_i32(S, axis));
    return tv_tensor(op_result(op, 0), t);
}

static TV bi_arange(Sema *S, CallArgs *a) {
    for (int i = 0; i < 2; i++)
        if (tv_is_int(A(i)) && !A(i)->u64 && A(i)->i < 0) {
            at_arg(S, a, i);
            return sema_error(S, "arange must fit in int32: its %s (%lld) is negative", i ? "end" : "start",
                              (long long)A(i)->i);
        }
    return sem_arange(S, A(0), A(1));
}

static TV bi_full(Sema *S, CallArgs *a) {
    int64_t shape[TL_MAX_RANK];
    int r = need_shape(S, a, 0, shape);
    const TlType *dt = need_dtype(S, a, 2);
    if (r < 0 || !dt) return tv_err();
    return sem_full(S, shape, r, A(1), dt);
}

static TV bi_zeros(Sema *S, CallArgs *a) {
    int64_t shape[TL_MAX_RANK];
    int r = need_shape(S, a, 0, shape);
    const TlType *dt = need_dtype(S, a, 1);
    if (r < 0 || !dt) return tv_err();
    TV z = tv_int(0);
    return sem_full(S, shape, r, &z, dt);
}

static TV bi_zeros_like(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    TV z = tv_int(0);
    const TlType *t = x.ty;
    return sem_full(S, tl_is_block(t) ? t->shape : NULL, tl_is_block(t) ? t->rank : 0, &z, tl_sca(t));
}

/* ---- memory -------------------------------------------------------------------- */

static int cache_index(Sema *S, const char *s, bool is_load) {
    if (!*s) return TT_CACHE_NONE;
    static const struct { const char *s; int v; bool load, store; } m[] = {
        {".ca", TT_CACHE_CA, true, false}, {".cg", TT_CACHE_CG, true, true}, {".cv", TT_CACHE_CV, true, false},
        {".wb", TT_CACHE_WB, false, true}, {".cs", TT_CACHE_CS, false, true}, {".wt", TT_CACHE_WT, false, true}};
    for (int i = 0; i < TC_ARRAY_LEN(m); i++)
        if (!strcmp(m[i].s, s) && (is_load ? m[i].load : m[i].store)) return m[i].v;
    sema_error(S, "Cache modifier %s not supported", s);
    return -1;
}

static int evict_index(Sema *S, const char *s) {
    if (!*s || !strcmp(s, "evict_normal")) return TT_EVICT_NORMAL;
    if (!strcmp(s, "evict_last")) return TT_EVICT_LAST;
    if (!strcmp(s, "evict_first")) return TT_EVICT_FIRST;
    sema_error(S, "Eviction policy %s not supported", s);
    return -1;
}

static void boundary_note(Sema *S, CallArgs *a, int i) {
    if (a->given[i] && !(a->v[i].kind == TV_TUPLE && a->v[i].n == 0) && a->v[i].kind != TV_NONE)
        sema_error(S, "`padding_option` or `boundary_check` argument is not supported for loading a tensor of "
                      "pointers or loading a scalar. Because the compiler does not know the boundary; please use "
                      "block pointers (defined by `make_block_ptr`) instead");
}


/* ---- block pointers (make_block_ptr, advance; load/store on them) ------------------ */

static bool is_block_ptr(const TV *p) {
    return p->kind == TV_TENSOR && tl_is_ptr(p->ty) && tl_is_block(p->ty->elem);
}

/* _convert_elem_to_ir_value: constexpr ints become i64 (or i32) constants,
 * scalar int tensors are cast to i64 (offsets must already be i32). */
static Value *bp_elem(Sema *S, const TV *e, bool i64, const char *what) {
    if (e->kind == TV_INT) {
        if (!i64 && (e->i < -2147483648LL || e->i > 2147483647LL)) {
            sema_error(S, "Block pointers only support 32 bit `offsets/block_shape`");
            return NULL;
        }
        return sem_const_int(S, tl_scalar(S, i64 ? TL_I64 : TL_I32), e->i);
    }
    if (e->kind == TV_TENSOR && !tl_is_block(e->ty) && tl_is_int(e->ty)) {
        if (i64) {
            if (tl_bitwidth(e->ty) == 64) return e->v;
            TV c = sem_cast(S, *e, tl_int_type(S, 64, tl_is_signed(e->ty)), NULL);
            return c.kind == TV_ERR ? NULL : c.v;
        }
        if (tl_bitwidth(e->ty) != 32) {
            sema_error(S, "Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or use regular indexing for 64 bit support");
            return NULL;
        }
        return e->v;
    }
    if (e->kind != TV_ERR) sema_error(S, "make_block_ptr(): %s must be ints or scalar int tensors, got %s", what, tv_kind_name(e));
    return NULL;
}

static int bp_list(Sema *S, const TV *v, bool i64, const char *what, Value **out) {
    const TV *el = v;
    int n = 1;
    if (v->kind == TV_TUPLE) {
        el = v->elems;
        n = v->n;
    }
    if (n > TL_MAX_RANK) {
        sema_error(S, "make_block_ptr(): too many dimensions");
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!(out[i] = bp_elem(S, &el[i], i64, what))) return -1;
    return n;
}

static TV bi_make_block_ptr(Sema *S, CallArgs *a) {
    TV base = a->v[0];
    for (int i = 0; i < 6; i++)
        if (a->v[i].kind == TV_ERR) return tv_err();
    if (base.kind != TV_TENSOR || tl_is_block(base.ty) || !tl_is_ptr(base.ty) || tl_is_block(base.ty->elem))
        return sema_error(S, "Expected `base` to be a pointer type (but not a block pointer type or others)");
    const TlType *elt = base.ty->elem;
    if (tl_is_bool(elt)) {
        elt = tl_scalar(S, TL_I8);
        base = sem_cast(S, base, tl_ptr(S, elt), NULL);
    }
    Value *ops[1 + 3 * TL_MAX_RANK];
    ops[0] = base.v;
    int ns = bp_list(S, A(1), true, "shape", ops + 1);
    if (ns < 0) return tv_err();
    int nst = bp_list(S, A(2), true, "strides", ops + 1 + ns);
    if (nst < 0) return tv_err();
    int no = nst == ns ? bp_list(S, A(3), false, "offsets", ops + 1 + 2 * ns) : -1;
    if (no < 0 && nst == ns) return tv_err();
    int64_t bs[TL_MAX_RANK];
    int nb = need_shape(S, a, 4, bs);
    if (nb < 0) return tv_err();
    for (int i = 0; i < nb; i++)
        if (bs[i] <= 0 || (bs[i] & (bs[i] - 1)))
            return sema_error(S, "Expected `block_shape` to be a power of 2, but got %lld", (long long)bs[i]);
    int64_t ord[TL_MAX_RANK];
    int nord = need_int_list(S, a, 5, ord, false);
    if (nord < 0) return tv_err();
    if (ns != nst || ns != no || ns != nb || ns != nord)
        return sema_error(S, "Expected shape/strides/offsets/block_shape/order to have the same length");
    bool seen[TL_MAX_RANK] = {0};
    for (int i = 0; i < nord; i++) {
        if (ord[i] < 0 || ord[i] >= nord || seen[ord[i]])
            return sema_error(S, "Expected a permutation of (0, 1, ..., len(order)-1) in order");
        seen[ord[i]] = true;
    }
    const TlType *rt = tl_ptr(S, tl_block(S, elt, bs, nb));
    Type *irt = rt->ir;
    Op *op = sem_op(S, TT_MAKE_TENSOR_PTR, ops, 1 + 3 * ns, &irt, 1, 0);
    op_set_attr_k(S->ctx, op, AN_ORDER, attr_dense_array(S->ctx, ty_i32(S->ctx), ord, nord));
    return tv_tensor(op_result(op, 0), rt);
}

static TV bi_advance(Sema *S, CallArgs *a) {
    TV base = a->v[0];
    if (base.kind == TV_ERR || a->v[1].kind == TV_ERR) return tv_err();
    if (!is_block_ptr(&base)) return sema_error(S, "advance(): expected a block pointer, got %s", base.kind == TV_TENSOR ? tl_cstr(S, base.ty) : tv_kind_name(&base));
    Value *ops[1 + TL_MAX_RANK];
    ops[0] = base.v;
    int n = bp_list(S, A(1), false, "offsets", ops + 1);
    if (n < 0) return tv_err();
    if (n != base.ty->elem->rank)
        /* (a descriptor's load and store come here too: their name) */
        return sema_error(S, "%s(): expected %d offsets, got %d", a->bi->name, base.ty->elem->rank, n);
    Type *irt = base.ty->ir;
    Op *op = sem_op(S, TT_ADVANCE, ops, 1 + n, &irt, 1, 0);
    return tv_tensor(op_result(op, 0), base.ty);
}

/* ---- tensor descriptors ------------------------------------------------------------- */

static TV bi_load(Sema *S, CallArgs *a);
static TV bi_store(Sema *S, CallArgs *a);

/* Arguments for calling another builtin's implementation: all absent.
 * (Filled in place: a CallArgs is kilobytes, not to be cleared and then
 * returned by copy.) */
static void forward_args(const CallArgs *a, CallArgs *b) {
    b->bi = a->bi;
    b->call = a->call;
    memset(b->given, 0, sizeof b->given);
    memset(b->node, 0, sizeof b->node);
    for (int i = 0; i < MAX_CALL_ARGS; i++) b->v[i] = tv_none();
}

/* tl.make_tensor_descriptor(base, shape, strides, block_shape,
 * padding_option="zero"): Triton 3.6's device-side descriptor, a TMA
 * descriptor on Hopper. We make it a block pointer at offsets 0 (order: the
 * last dimension fastest, the one TMA's unit stride allows);
 * desc.load(offsets) advances a copy and loads it with every dimension
 * bounds-checked and out-of-bounds elements zero (or NaN), desc.store
 * stores the in-bounds part: TMA's semantics, lowered by
 * rewrite-tensor-pointer like any block pointer. Triton's checks on the
 * arguments are kept so a kernel Triton rejects is rejected here too. */
static TV bi_make_tensor_descriptor(Sema *S, CallArgs *a) {
    for (int i = 0; i < 4; i++)
        if (a->v[i].kind == TV_ERR) return tv_err();
    TV base = a->v[0];
    if (base.kind != TV_TENSOR || tl_is_block(base.ty) || !tl_is_ptr(base.ty) || tl_is_block(base.ty->elem))
        return sema_error(S, "make_tensor_descriptor(): `base` must be a pointer to a scalar type");
    int ndim = a->v[1].kind == TV_TUPLE ? a->v[1].n : 1;
    if (ndim < 1 || ndim > 5) return sema_error(S, "Expected 1 <= ndim <= 5 but got %d dimensions", ndim);
    if ((a->v[2].kind == TV_TUPLE ? a->v[2].n : 1) != ndim)
        return sema_error(S, "Expected %d strides but got %d", ndim, a->v[2].kind == TV_TUPLE ? a->v[2].n : 1);
    if ((a->v[3].kind == TV_TUPLE ? a->v[3].n : 1) != ndim)
        return sema_error(S, "Expected block_shape to have %d dimensions but got %d", ndim,
                          a->v[3].kind == TV_TUPLE ? a->v[3].n : 1);
    const TV *last_bs = a->v[3].kind == TV_TUPLE ? &a->v[3].elems[ndim - 1] : &a->v[3];
    const TV *last_st = a->v[2].kind == TV_TUPLE ? &a->v[2].elems[ndim - 1] : &a->v[2];
    int elem_size = tl_bitwidth(base.ty->elem) / 8;
    if (last_bs->kind == TV_INT && last_bs->i * elem_size < 16)
        return sema_error(S, "Descriptor block shape must have at least 16 bytes in the last dimension, but got "
                             "%lld * %d = %lld bytes", (long long)last_bs->i, elem_size,
                          (long long)(last_bs->i * elem_size));
    if (last_st->kind == TV_INT && last_st->i != 1)
        return sema_error(S, "Tensor descriptor last dim must be 1 but got %lld", (long long)last_st->i);
    const char *pad;
    if (!str_arg(S, a, 4, &pad)) return tv_err();
    if (*pad && strcmp(pad, "zero") && strcmp(pad, "nan"))
        return sema_error(S, "padding_option must be \"zero\" or \"nan\", got \"%s\"", pad);
    CallArgs b;
    forward_args(a, &b);
    TV zeros = {.kind = TV_TUPLE, .n = ndim}, order = {.kind = TV_TUPLE, .n = ndim};
    zeros.elems = ARENA_ARRAY(S->arena, TV, ndim);
    order.elems = ARENA_ARRAY(S->arena, TV, ndim);
    for (int i = 0; i < ndim; i++) {
        zeros.elems[i] = tv_int(0);
        order.elems[i] = tv_int(ndim - 1 - i);
    }
    TV args[6] = {base, a->v[1], a->v[2], zeros, a->v[3], order};
    for (int i = 0; i < 6; i++) {
        b.v[i] = args[i];
        b.given[i] = true;
        b.node[i] = a->node[i < 3 ? i : i == 4 ? 3 : 0];
    }
    TV d = bi_make_block_ptr(S, &b);
    if (d.kind == TV_TENSOR) d.is_desc = !strcmp(pad, "nan") ? 2 : 1; /* the padding for loads */
    return d;
}

/* A host-side tensor descriptor parameter (`tensordesc<fp16[64,64]>` in
 * the signature; triton.tools.tensor_descriptor.TensorDescriptor in
 * Python): the kernel receives a pointer to 1 + 2*rank int64 values that the
 * launcher wrote, {base address, shape[rank], strides[rank]}, and reads them
 * once at entry into the descriptor tl.make_tensor_descriptor would make.
 *
 * What TensorDescriptor guarantees (it asserts it, as TMA requires) is told
 * to the axis analysis as hints, so that its loads and stores are as wide as
 * a pointer argument's: the last stride is 1 (a constant here), the base is
 * 16-byte aligned and every other stride a multiple of 16 bytes. With `:16`
 * the last dimension's size is a multiple of 16 too, so the bounds check
 * along it is constant over 16 elements. */
static void hint_divisibility(Sema *S, TV v, int64_t div) {
    if (v.kind == TV_TENSOR && v.v->def) {
        int64_t shape = 1;
        Type *t = ty_tensor(S->ctx, &shape, 1, ty_i32(S->ctx), NULL);
        op_set_attr_k(S->ctx, v.v->def, AN_TT_DIVISIBILITY, attr_dense_int(S->ctx, t, &div, 1));
    }
}

TV sem_host_descriptor(Sema *S, TV meta, const HostDesc *hd) {
    static const Builtin desc_bi = {"make_tensor_descriptor", BI_TL, "", bi_make_tensor_descriptor, 0};
    int rank = hd->rank;
    int64_t esize = tl_bitwidth(hd->elem) / 8, stride_div = esize > 0 && esize < 16 ? 16 / esize : 1;
    CallArgs a = {.bi = &desc_bi};
    for (int i = 0; i < MAX_CALL_ARGS; i++) a.v[i] = tv_none();
    TV fields[1 + 2 * TL_MAX_RANK];
    for (int k = 0; k < 1 + 2 * rank; k++) {
        if (k == 2 * rank) { /* the last stride */
            fields[k] = tv_int(1);
            continue;
        }
        TV p = k ? sem_binary(S, PY_BIN_ADD, meta, tv_int(k)) : meta;
        if (p.kind == TV_ERR) return p;
        Type *irt = tl_scalar(S, TL_I64)->ir;
        Op *op = sem_op(S, TT_LOAD, &p.v, 1, &irt, 1, 0);
        op_set_attr_k(S->ctx, op, AN_CACHE, sema_attr_i32(S, TT_CACHE_NONE));
        op_set_attr_k(S->ctx, op, AN_EVICT, sema_attr_i32(S, TT_EVICT_NORMAL));
        fields[k] = tv_tensor(op_result(op, 0), tl_scalar(S, TL_I64));
        if (k > rank) hint_divisibility(S, fields[k], stride_div);
        if (k >= 1 && k <= rank) fields[k] = sem_cast(S, fields[k], tl_scalar(S, TL_I32), NULL);
        if (k == rank && hd->last_div16) hint_divisibility(S, fields[k], 16);
    }
    TV base = sem_cast(S, fields[0], tl_ptr(S, hd->elem), NULL);
    hint_divisibility(S, base, 16);
    TV shape = {.kind = TV_TUPLE, .n = rank}, strides = {.kind = TV_TUPLE, .n = rank},
       bs = {.kind = TV_TUPLE, .n = rank};
    shape.elems = ARENA_ARRAY(S->arena, TV, rank);
    strides.elems = ARENA_ARRAY(S->arena, TV, rank);
    bs.elems = ARENA_ARRAY(S->arena, TV, rank);
    for (int i = 0; i < rank; i++) {
        shape.elems[i] = fields[1 + i];
        strides.elems[i] = fields[1 + rank + i];
        bs.elems[i] = tv_int(hd->block[i]);
    }
    TV args[5] = {base, shape, strides, bs, {.kind = TV_STR, .s = hd->nan_pad ? "nan" : "zero"}};
    for (int i = 0; i < 5; i++) {
        a.v[i] = args[i];
        a.given[i] = true;
    }
    return bi_make_tensor_descriptor(S, &a);
}

/* What desc.load and desc.store share: the block pointer advanced to the
 * offsets (a->v[1]) in *ptr, and the tuple (0, 1, ..., rank-1) in *dims, so
 * every dimension is bounds-checked. False on an error. */
static bool desc_at(Sema *S, CallArgs *a, const char *what, TV *ptr, TV *dims) {
    TV d = a->v[0];
    if (!is_block_ptr(&d)) {
        sema_error(S, "%s(): expected a tensor descriptor", what);
        return false;
    }
    CallArgs b;
    forward_args(a, &b);
    b.v[0] = d;
    b.v[1] = a->v[1];
    b.given[0] = b.given[1] = true;
    b.node[1] = a->node[1];
    *ptr = bi_advance(S, &b);
    if (ptr->kind == TV_ERR) return false;
    int r = d.ty->elem->rank;
    *dims = (TV){.kind = TV_TUPLE, .n = r};
    dims->elems = ARENA_ARRAY(S->arena, TV, r);
    for (int i = 0; i < r; i++) dims->elems[i] = tv_int(i);
    return true;
}

/* desc.load(offsets) / tl.load_tensor_descriptor(desc, offsets). */
static TV bi_desc_load(Sema *S, CallArgs *a) {
    if (a->v[0].kind == TV_ERR || a->v[1].kind == TV_ERR) return tv_err();
    TV p, dims;
    if (!desc_at(S, a, "load", &p, &dims)) return tv_err();
    CallArgs l;
    forward_args(a, &l);
    l.v[0] = p;
    l.v[3] = dims;
    l.v[4] = (TV){.kind = TV_STR, .s = a->v[0].is_desc == 2 ? "nan" : "zero"};
    l.given[0] = l.given[3] = l.given[4] = true;
    return bi_load(S, &l);
}

/* desc.store(offsets, value) / tl.store_tensor_descriptor(desc, offsets, value). */
static TV bi_desc_store(Sema *S, CallArgs *a) {
    if (a->v[0].kind == TV_ERR || a->v[1].kind == TV_ERR || a->v[2].kind == TV_ERR) return tv_err();
    TV p, dims;
    if (!desc_at(S, a, "store", &p, &dims)) return tv_err();
    CallArgs st;
    forward_args(a, &st);
    st.v[0] = p;
    st.v[1] = a->v[2];
    st.v[3] = dims;
    st.given[0] = st.given[1] = st.given[3] = true;
    st.node[1] = a->node[2];
    return bi_store(S, &st);
}

static TV bi_atomic(Sema *S, CallArgs *a);

/* desc.atomic_add / atomic_min / atomic_max / atomic_and / atomic_or /
 * atomic_xor(offsets, value): Triton's tt.descriptor_reduce (a TMA
 * reduction), here an atomic read-modify-write per element of the block at
 * `offsets`, masked to the tensor's bounds (what TMA leaves alone). The
 * addresses come from the tt.make_tensor_ptr that made the descriptor and
 * the tt.advance ops since: base + sum_d (offset_d + i_d) * stride_d. */
static TV bi_desc_atomic(Sema *S, CallArgs *a) {
    if (a->v[0].kind == TV_ERR || a->v[1].kind == TV_ERR || a->v[2].kind == TV_ERR) return tv_err();
    TV p, dims;
    if (!desc_at(S, a, a->bi->name, &p, &dims)) return tv_err();
    const TlType *blk = p.ty->elem, *elt = blk->elem, *i32 = tl_scalar(S, TL_I32), *i64 = tl_scalar(S, TL_I64);
    int r = blk->rank;
    TV off[TL_MAX_RANK];
    for (int d = 0; d < r; d++) off[d] = tv_int(0);
    Op *def = p.v->def;
    for (; def && def->kind == TT_ADVANCE; def = op_operand(def, 0)->def)
        for (int d = 0; d < r; d++) off[d] = sem_binary(S, PY_BIN_ADD, off[d], tv_tensor(op_operand(def, 1 + d), i32));
    if (!def || def->kind != TT_MAKE_TENSOR_PTR)
        return sema_error(S, "tensor_descriptor.%s(): tritonc needs the descriptor made in this function (by "
                             "tl.make_tensor_descriptor or a TensorDescriptor argument)", a->bi->name);
    TV ptr = tv_tensor(op_operand(def, 0), tl_ptr(S, elt)), mask = tv_bool(true);
    int64_t one[TL_MAX_RANK];
    for (int d = 0; d < r; d++) {
        TV lo = tv_int(0), hi = tv_int(blk->shape[d]);
        TV i = sem_binary(S, PY_BIN_ADD, sem_arange(S, &lo, &hi),
                          sem_binary(S, PY_BIN_ADD, tv_tensor(op_operand(def, 1 + 2 * r + d), i32), off[d]));
        for (int k = 0; k < r; k++) one[k] = k == d ? blk->shape[d] : 1;
        i = sem_cast(S, sem_reshape(S, i, one, r, false), i64, NULL);
        TV in = sem_logical(S, true, sem_compare(S, PY_CMP_GE, i, tv_int(0)),
                            sem_compare(S, PY_CMP_LT, i, tv_tensor(op_operand(def, 1 + d), i64)));
        ptr = sem_binary(S, PY_BIN_ADD, ptr, sem_binary(S, PY_BIN_MUL, i, tv_tensor(op_operand(def, 1 + r + d), i64)));
        mask = d ? sem_logical(S, true, mask, in) : in;
        if (ptr.kind == TV_ERR || mask.kind == TV_ERR) return tv_err();
    }
    CallArgs at;
    forward_args(a, &at);
    at.bi = builtin_lookup(BI_TL, a->bi->name);
    at.v[0] = ptr;
    at.v[1] = a->v[2];
    at.v[2] = mask;
    at.given[0] = at.given[1] = at.given[2] = true;
    at.node[1] = a->node[2];
    return bi_atomic(S, &at);
}

/* desc.gather / desc.scatter: Blackwell's TMA gather and scatter. */
static TV bi_desc_unsupported(Sema *S, CallArgs *a) {
    return sema_error(S, "tensor_descriptor.%s() (TMA gather/scatter, Blackwell) is not supported by tritonc yet",
                      a->bi->name);
}

/* _canonicalize_boundary_check: sorted, deduplicated dims; n = 0 if none. */
static int bp_boundary(Sema *S, CallArgs *a, int i, int rank, int64_t *dims) {
    if (!a->given[i] || a->v[i].kind == TV_NONE) return 0;
    const TV *v = A(i), *el = v;
    int n = 1;
    if (v->kind == TV_TUPLE) {
        el = v->elems;
        n = v->n;
    }
    bool on[TL_MAX_RANK] = {0};
    for (int k = 0; k < n; k++) {
        if (!tv_is_int(&el[k]) || el[k].i < 0 || el[k].i >= rank) {
            sema_error(S, "boundary_check must be a tuple of dimensions in [0, %d)", rank);
            return -1;
        }
        on[el[k].i] = true;
    }
    int m = 0;
    for (int d = 0; d < rank; d++)
        if (on[d]) dims[m++] = d;
    return m;
}

static TV load_block_ptr(Sema *S, CallArgs *a, TV ptr, const char *pad, int cache, int evict) {
    if (GIVEN(1) || GIVEN(2))
        return sema_error(S, "`mask` and `other` arguments cannot be specified for loading block pointers");
    const TlType *dst = ptr.ty->elem, *elt = dst->elem;
    int padding = 0;
    if (*pad) {
        if (!strcmp(pad, "zero")) padding = 1;
        else if (!strcmp(pad, "nan")) padding = 2;
        else return sema_error(S, "Padding option %s not supported", pad);
    }
    if (padding == 2 && tl_is_int(elt))
        return sema_error(S, "Padding option `nan` is not supported for integer block pointers");
    int64_t dims[TL_MAX_RANK];
    int nb = bp_boundary(S, a, 3, dst->rank, dims);
    if (nb < 0) return tv_err();
    Type *irt = dst->ir;
    Op *op = sem_op(S, TT_LOAD, &ptr.v, 1, &irt, 1, 0);
    if (nb) op_set_attr_k(S->ctx, op, AN_BOUNDARY_CHECK, attr_dense_array(S->ctx, ty_i32(S->ctx), dims, nb));
    if (padding) op_set_attr_k(S->ctx, op, AN_PADDING, sema_attr_i32(S, padding));
    op_set_attr_k(S->ctx, op, AN_CACHE, sema_attr_i32(S, cache));
    op_set_attr_k(S->ctx, op, AN_EVICT, sema_attr_i32(S, evict));
    if (a->given[7] && cx_truthy(A(7))) op_set_attr_k(S->ctx, op, AN_IS_VOLATILE, attr_bool(S->ctx, true));
    return tv_tensor(op_result(op, 0), dst);
}

static TV store_block_ptr(Sema *S, CallArgs *a, TV ptr, TV val, int cache, int evict) {
    if (GIVEN(2)) return sema_error(S, "`mask` and `other` arguments cannot be specified for loading block pointers");
    const TlType *bt = ptr.ty->elem;
    bool literal = val.kind != TV_TENSOR; /* (a number: converted, as a constant is) */
    val = sem_to_tensor(S, &val);
    if (val.kind == TV_ERR) return val;
    /* Triton asserts the element types agree (a descriptor's verifier too):
     * an int32 block stored through an fp32 block pointer was converted,
     * silently, where Triton asks for the .to() */
    if (!literal && tl_sca(val.ty) != bt->elem && !(tl_is_bool(bt->elem) && tl_is_bool(tl_sca(val.ty)))) {
        at_arg(S, a, 1);
        return sema_error(S, "Block element type(%s) and value element type(%s) mismatch", tl_cstr(S, bt->elem),
                          tl_cstr(S, tl_sca(val.ty)));
    }
    if (!tl_is_block(val.ty)) val = sem_splat(S, val, bt->shape, bt->rank);
    if (val.kind == TV_ERR) return val;
    bool same = val.ty->rank == bt->rank;
    for (int i = 0; same && i < bt->rank; i++) same = val.ty->shape[i] == bt->shape[i];
    if (!same)
        return sema_error(S, "Block shape(%s) and value shape(%s) mismatch", tl_cstr(S, bt), tl_cstr(S, val.ty));
    int64_t dims[TL_MAX_RANK];
    int nb = bp_boundary(S, a, 3, bt->rank, dims);
    if (nb < 0) return tv_err();
    val = sem_cast(S, val, bt->elem, NULL);
    if (val.kind == TV_ERR) return val;
    Value *ops[2] = {ptr.v, val.v};
    Op *op = sem_op(S, TT_STORE, ops, 2, NULL, 0, 0);
    if (nb) op_set_attr_k(S->ctx, op, AN_BOUNDARY_CHECK, attr_dense_array(S->ctx, ty_i32(S->ctx), dims, nb));
    op_set_attr_k(S->ctx, op, AN_CACHE, sema_attr_i32(S, cache));
    op_set_attr_k(S->ctx, op, AN_EVICT, sema_attr_i32(S, evict));
    return tv_none();
}

static TV bi_load(Sema *S, CallArgs *a) {
    TV ptr = a->v[0];
    if (ptr.kind == TV_ERR) return ptr;
    if (is_block_ptr(&ptr)) {
        const char *cm, *ev, *pad;
        if (!str_arg(S, a, 5, &cm) || !str_arg(S, a, 6, &ev) || !str_arg(S, a, 4, &pad)) return tv_err();
        int cache = cache_index(S, cm, true), evict = evict_index(S, ev);
        if (cache < 0 || evict < 0) return tv_err();
        return load_block_ptr(S, a, ptr, pad, cache, evict);
    }
    if (ptr.kind != TV_TENSOR || !tl_is_ptr(tl_sca(ptr.ty)))
        return sema_error(S, "Unsupported ptr type %s in `tl.load`", ptr.kind == TV_TENSOR ? tl_cstr(S, ptr.ty) : tv_kind_name(&ptr));
    const char *cm, *ev, *pad;
    if (!str_arg(S, a, 5, &cm) || !str_arg(S, a, 6, &ev) || !str_arg(S, a, 4, &pad)) return tv_err();
    int cache = cache_index(S, cm, true), evict = evict_index(S, ev);
    if (cache < 0 || evict < 0) return tv_err();
    boundary_note(S, a, 3);
    if (*pad) return sema_error(S, "`padding_option` is not supported for loading a tensor of pointers");
    TV mask = a->v[1], other = a->v[2];
    /* (mask=None, other=None are the defaults, as in Triton) */
    bool has_mask = GIVEN(1) && mask.kind != TV_NONE, has_other = GIVEN(2) && other.kind != TV_NONE;
    if (!has_mask && has_other) return sema_error(S, "`other` cannot be provided without `mask`");
    if (has_mask) {
        mask = sem_to_tensor(S, &mask);
        if (mask.kind == TV_ERR) return mask;
    }
    if (has_other) {
        other = sem_to_tensor(S, &other); /* a number or a tensor; anything else is an error here */
        if (other.kind == TV_ERR) return other;
    }
    if (!tl_is_block(ptr.ty)) {
        if (has_mask && tl_is_block(mask.ty))
            return sema_error(S, "Mask argument cannot be block type if pointer argument is not a block");
        if (has_other && other.kind == TV_TENSOR && tl_is_block(other.ty))
            return sema_error(S, "Other argument cannot be block type if pointer argument is not a block");
    } else {
        if (has_mask && !sem_broadcast_pair(S, &ptr, &mask)) return tv_err();
        if (has_other && !sem_broadcast_pair(S, &ptr, &other)) return tv_err();
    }
    /* (as tl.store says; Triton builds a tt.load its verifier rejects) */
    if (has_mask && !tl_is_bool(tl_sca(mask.ty))) {
        at_arg(S, a, 1);
        return sema_error(S, "Mask must have boolean scalar type, got %s", tl_cstr(S, tl_sca(mask.ty)));
    }
    const TlType *elt = tl_sca(ptr.ty)->elem;
    bool is_bool = tl_is_bool(elt);
    if (is_bool) {
        elt = tl_scalar(S, TL_I8);
        ptr = sem_cast(S, ptr, tl_ptr(S, elt), NULL);
    }
    if (has_other) other = sem_cast(S, other, elt, NULL);
    const TlType *dt = tl_with_elem(S, ptr.ty, elt);
    Value *ops[3] = {ptr.v, has_mask ? mask.v : NULL, has_other ? other.v : NULL};
    Type *irt = dt->ir;
    Op *op = sem_op(S, TT_LOAD, ops, 1 + has_mask + has_other, &irt, 1, 0);
    op_set_attr_k(S->ctx, op, AN_CACHE, sema_attr_i32(S, cache));
    op_set_attr_k(S->ctx, op, AN_EVICT, sema_attr_i32(S, evict));
    if (a->given[7] && cx_truthy(A(7))) op_set_attr_k(S->ctx, op, AN_IS_VOLATILE, attr_bool(S->ctx, true));
    TV r = tv_tensor(op_result(op, 0), dt);
    if (is_bool) r = sem_cast(S, r, tl_scalar(S, TL_I1), NULL);
    return r;
}

static TV bi_store(Sema *S, CallArgs *a) {
    TV ptr = a->v[0], val = a->v[1], mask = a->v[2];
    if (ptr.kind == TV_ERR || val.kind == TV_ERR || mask.kind == TV_ERR) return tv_err();
    if (is_block_ptr(&ptr)) {
        const char *bcm, *bev;
        if (!str_arg(S, a, 4, &bcm) || !str_arg(S, a, 5, &bev)) return tv_err();
        int bcache = cache_index(S, bcm, false), bevict = evict_index(S, bev);
        if (bcache < 0 || bevict < 0) return tv_err();
        return store_block_ptr(S, a, ptr, val, bcache, bevict);
    }
    if (ptr.kind != TV_TENSOR || !tl_is_ptr(tl_sca(ptr.ty)))
        return sema_error(S, "Unsupported ptr type %s in `tl.store`", ptr.kind == TV_TENSOR ? tl_cstr(S, ptr.ty) : tv_kind_name(&ptr));
    if (tl_sca(ptr.ty)->cst) return sema_error(S, "Cannot store to a constant pointer");
    const char *cm, *ev;
    if (!str_arg(S, a, 4, &cm) || !str_arg(S, a, 5, &ev)) return tv_err();
    int cache = cache_index(S, cm, false), evict = evict_index(S, ev);
    if (cache < 0 || evict < 0) return tv_err();
    if (a->given[3] && !(a->v[3].kind == TV_TUPLE && a->v[3].n == 0) && a->v[3].kind != TV_NONE)
        return sema_error(S, "`boundary_check` argument is not supported for storing a tensor of pointers or "
                             "storing a scalar. Because the compiler does not know the boundary; please use block "
                             "pointers (defined by `make_block_ptr`) instead");
    bool has_mask = GIVEN(2);
    val = sem_to_tensor(S, &val);
    if (has_mask) mask = sem_to_tensor(S, &mask);
    if (val.kind == TV_ERR || mask.kind == TV_ERR) return tv_err();
    if (!tl_is_block(ptr.ty)) {
        if (tl_is_block(val.ty)) return sema_error(S, "Value argument cannot be block type if pointer argument is not a block");
        if (has_mask && tl_is_block(mask.ty))
            return sema_error(S, "Mask argument cannot be block type if pointer argument is not a block");
    } else {
        const TlType *pshape = ptr.ty;
        if (!sem_broadcast_pair(S, &ptr, &val)) return tv_err();
        if (has_mask && (!sem_broadcast_pair(S, &ptr, &mask) || !sem_broadcast_pair(S, &ptr, &val))) return tv_err();
        if (ptr.ty != pshape)
            return sema_error(S, "Expected pointer argument to have shape %s but got %s", tl_cstr(S, ptr.ty), tl_cstr(S, pshape));
    }
    const TlType *elt = tl_sca(ptr.ty)->elem;
    if (tl_is_bool(elt)) {
        elt = tl_scalar(S, TL_I8);
        ptr = sem_cast(S, ptr, tl_ptr(S, elt), NULL);
    }
    val = sem_cast(S, val, elt, NULL);
    if (val.kind == TV_ERR) return val;
    if (has_mask && !tl_is_bool(tl_sca(mask.ty))) return sema_error(S, "Mask must have boolean scalar type");
    Value *ops[3] = {ptr.v, val.v, has_mask ? mask.v : NULL};
    Op *op = sem_op(S, TT_STORE, ops, 2 + has_mask, NULL, 0, 0);
    op_set_attr_k(S->ctx, op, AN_CACHE, sema_attr_i32(S, cache));
    op_set_attr_k(S->ctx, op, AN_EVICT, sema_attr_i32(S, evict));
    return tv_none();
}

/* ---- atomics ----------------------------------------------------------------------- */

static int sem_index(Sema *S, const TV *v) {
    if (v->kind == TV_NONE || (v->kind == TV_STR && !*v->s)) return TT_SEM_ACQ_REL;
    int i = v->kind == TV_STR ? enum_lookup(tt_sem_names, v->s) : -1;
    if (i < 0) sema_error(S, "Memory semantic %s not supported", v->kind == TV_STR ? v->s : "?");
    return i;
}

static int scope_index(Sema *S, const TV *v) {
    if (v->kind == TV_NONE || (v->kind == TV_STR && !*v->s)) return TT_SCOPE_GPU;
    int i = v->kind == TV_STR ? enum_lookup(tt_scope_names, v->s) : -1;
    if (i < 0) sema_error(S, "Memory scope %s not supported", v->kind == TV_STR ? v->s : "?");
    return i;
}

static Value *rmw(Sema *S, int kind, TV ptr, TV val, TV mask, int sem, int scope) {
    Value *ops[3] = {ptr.v, val.v, mask.v};
    Type *t = val.ty->ir;
    Op *op = sem_op(S, TT_ATOMIC_RMW, ops, 3, &t, 1, 0);
    op_set_attr(S->ctx, op, "atomic_rmw_op", sema_attr_i32(S, kind));
    op_set_attr(S->ctx, op, "sem", sema_attr_i32(S, sem));
    op_set_attr(S->ctx, op, "scope", sema_attr_i32(S, scope));
    return op_result(op, 0);
}

static TV bi_atomic(Sema *S, CallArgs *a) {
    const char *opn = a->bi->name + 7; /* after "atomic_" */
    TV ptr = a->v[0], val = a->v[1], mask = a->v[2];
    if (ptr.kind == TV_ERR || val.kind == TV_ERR || mask.kind == TV_ERR) return tv_err();
    if (ptr.kind != TV_TENSOR || !tl_is_ptr(tl_sca(ptr.ty)))
        return sema_error(S, "Pointer argument of store instruction is %s",
                          ptr.kind == TV_TENSOR ? tl_cstr(S, ptr.ty) : tv_kind_name(&ptr));
    if (tl_sca(ptr.ty)->cst) return sema_error(S, "Cannot store to a constant pointer");
    int sem = sem_index(S, A(3)), scope = scope_index(S, A(4));
    if (sem < 0 || scope < 0) return tv_err();
    const TlType *elt = tl_sca(ptr.ty)->elem;
    if ((elt->kind == TL_FP16 || elt->kind == TL_BF16) && strcmp(opn, "add"))
        return sema_error(S, "atomic_%s does not support %s", opn, tl_cstr(S, elt));
    if (elt->kind == TL_I16 || elt->kind == TL_U16 || tl_bitwidth(elt) < 16)
        return sema_error(S, "atomic_%s does not support %s", opn, tl_cstr(S, elt));
    val = sem_to_tensor(S, &val);
    if (GIVEN(2)) mask = sem_to_tensor(S, &mask); /* mask=True is a constexpr */
    if (val.kind == TV_ERR || mask.kind == TV_ERR) return tv_err();
    if (tl_is_block(ptr.ty)) {
        if (GIVEN(2)) mask = sem_broadcast_to(S, mask, ptr.ty->shape, ptr.ty->rank);
        val = sem_broadcast_to(S, val, ptr.ty->shape, ptr.ty->rank);
    } else if (tl_is_block(val.ty) || (GIVEN(2) && tl_is_block(mask.ty))) {
        /* (as tl.store says, at the argument; it was the IR verifier's words, at the call) */
        bool v = tl_is_block(val.ty);
        at_arg(S, a, v ? 1 : 2);
        return sema_error(S, "%s argument cannot be block type if pointer argument is not a block", v ? "Value" : "Mask");
    }
    val = sem_cast(S, val, elt, NULL);
    if (val.kind == TV_ERR || mask.kind == TV_ERR) return tv_err();
    /* (as tl.load and tl.store say, at the mask: it was the IR verifier's
     * "'tt.atomic_rmw' op mask type 'f32' must be i1", at the call) */
    if (GIVEN(2) && !tl_is_bool(tl_sca(mask.ty))) {
        at_arg(S, a, 2);
        return sema_error(S, "Mask must have boolean scalar type, got %s", tl_cstr(S, tl_sca(mask.ty)));
    }
    if (!GIVEN(2)) {
        const TlType *mt = tl_scalar(S, TL_I1);
        mask = tv_tensor(sem_const_int(S, mt, 1), mt);
        if (tl_is_block(ptr.ty)) mask = sem_splat(S, mask, ptr.ty->shape, ptr.ty->rank);
    }
    const TlType *s = tl_sca(val.ty);
    int kind;
    if (!strcmp(opn, "add")) kind = tl_is_float(s) ? TT_RMW_FADD : TT_RMW_ADD;
    else if (!strcmp(opn, "and")) kind = TT_RMW_AND;
    else if (!strcmp(opn, "or")) kind = TT_RMW_OR;
    else if (!strcmp(opn, "xor")) kind = TT_RMW_XOR;
    else if (!strcmp(opn, "xchg")) kind = TT_RMW_XCHG;
    else {
        bool is_max = !strcmp(opn, "max");
        if (tl_is_int(s)) {
            kind = tl_is_signed(s) ? (is_max ? TT_RMW_MAX : TT_RMW_MIN) : (is_max ? TT_RMW_UMAX : TT_RMW_UMIN);
        } else {
            /* floats: signed max over the non-negative, unsigned min over the negative (semantic.py) */
            if (s->kind != TL_FP32 && s->kind != TL_FP64)
                return sema_error(S, "atomic_%s not supported for dtype %s", opn, tl_cstr(S, s));
            int w = tl_bitwidth(s);
            const TlType *it = tl_int_type(S, w, true), *ut = tl_int_type(S, w, false);
            TV iv = sem_bitcast(S, val, it), ip = sem_bitcast(S, ptr, tl_ptr(S, it));
            TV uv = sem_bitcast(S, val, ut), up = sem_bitcast(S, ptr, tl_ptr(S, ut));
            TV sh = sem_binary(S, PY_BIN_RSHIFT, sem_bitcast(S, val, ut), tv_int(w - 1));
            TV neg = sem_cast(S, sh, tl_scalar(S, TL_I1), NULL);
            TV pos = sem_not(S, neg);
            Value *pr = rmw(S, is_max ? TT_RMW_MAX : TT_RMW_MIN, ip, iv, sem_binary(S, PY_BIN_BITAND, mask, pos), sem, scope);
            Value *nr = rmw(S, is_max ? TT_RMW_UMIN : TT_RMW_UMAX, up, uv, sem_binary(S, PY_BIN_BITAND, mask, neg), sem, scope);
            TV r = sem_where(S, pos, tv_tensor(pr, iv.ty), tv_tensor(nr, uv.ty));
            return sem_bitcast(S, r, s);
        }
    }
    return tv_tensor(rmw(S, kind, ptr, val, mask, sem, scope), val.ty);
}

static TV bi_atomic_cas(Sema *S, CallArgs *a) {
    TV ptr = a->v[0], c = a->v[1], val = a->v[2];
    if (ptr.kind == TV_ERR || c.kind == TV_ERR || val.kind == TV_ERR) return tv_err();
    if (ptr.kind != TV_TENSOR || !tl_is_ptr(tl_sca(ptr.ty)))
        return sema_error(S, "atomic_cas needs a pointer, got %s",
                          ptr.kind == TV_TENSOR ? tl_cstr(S, ptr.ty) : tv_kind_name(&ptr));
    if (tl_sca(ptr.ty)->cst) return sema_error(S, "Cannot store to a constant pointer");
    int sem = sem_index(S, A(3)), scope = scope_index(S, A(4));
    if (sem < 0 || scope < 0) return tv_err();
    const TlType *elt = tl_sca(ptr.ty)->elem;
    int w = tl_bitwidth(elt);
    if (w != 16 && w != 32 && w != 64) return sema_error(S, "atomic_cas only supports elements with width {16, 32, 64}");
    c = sem_cast(S, sem_to_tensor(S, &c), elt, NULL);
    val = sem_cast(S, sem_to_tensor(S, &val), elt, NULL);
    if (c.kind == TV_ERR || val.kind == TV_ERR) return tv_err();
    if (tl_is_block(ptr.ty)) {
        c = sem_broadcast_to(S, c, ptr.ty->shape, ptr.ty->rank);
        val = sem_broadcast_to(S, val, ptr.ty->shape, ptr.ty->rank);
    } else if (tl_is_block(c.ty) || tl_is_block(val.ty)) {
        at_arg(S, a, tl_is_block(c.ty) ? 1 : 2);
        return sema_error(S, "%s argument cannot be block type if pointer argument is not a block",
                          tl_is_block(c.ty) ? "Compare" : "Value");
    }
    if (c.kind == TV_ERR || val.kind == TV_ERR) return tv_err();
    Value *ops[3] = {ptr.v, c.v, val.v};
    Type *t = val.ty->ir;
    Op *op = sem_op(S, TT_ATOMIC_CAS, ops, 3, &t, 1, 0);
    op_set_attr(S->ctx, op, "sem", sema_attr_i32(S, sem));
    op_set_attr(S->ctx, op, "scope", sema_attr_i32(S, scope));
    return tv_tensor(op_result(op, 0), val.ty);
}

/* ---- math ------------------------------------------------------------------------ */

static bool check_fp(Sema *S, const char *fn, TV x, bool allow_fp16) {
    const TlType *s = tl_sca(x.ty);
    if (s->kind == TL_FP32 || s->kind == TL_FP64 || (allow_fp16 && tl_is_float(s))) return true;
    sema_error(S, "%s: Expected dtype ['fp32', 'fp64'] but got %s", fn, tl_cstr(S, s));
    return false;
}

static TV bi_math1(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    OpKind k = (OpKind)a->bi->arg;
    if (!check_fp(S, a->bi->name, x, k == MATH_EXP2 ? false : false)) return tv_err();
    return tv_tensor(sem_ir(S, k, x.ty, x.v, NULL), x.ty);
}

static TV bi_abs(Sema *S, CallArgs *a) {
    TV x = a->v[0];
    if (x.kind == TV_ERR) return x;
    if (tv_is_num(&x)) {
        if (x.kind == TV_FLOAT) return tv_float(fabs(x.f));
        /* (a uint64 stays as it is; abs(-2**63) is 2**63, a uint64: it was
         * -2**63, the negation overflowing) */
        if (x.kind == TV_INT && x.u64) return x;
        return x.i < 0 ? tv_uint64((uint64_t)0 - (uint64_t)x.i) : tv_int(x.i);
    }
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    const TlType *s = tl_sca(x.ty);
    if (tl_is_fp8(s)) { /* clear the sign bit */
        TV m = sem_binary(S, PY_BIN_BITAND, sem_bitcast(S, x, tl_scalar(S, TL_I8)), tv_int(0x7f));
        return sem_bitcast(S, m, s);
    }
    if (tl_is_float(s)) return tv_tensor(sem_ir(S, MATH_ABSF, x.ty, x.v, NULL), x.ty);
    if (tl_is_signed(s)) return tv_tensor(sem_ir(S, MATH_ABSI, x.ty, x.v, NULL), x.ty);
    if (tl_is_unsigned(s)) return x;
    return sema_error(S, "Unexpected dtype %s", tl_cstr(S, s));
}

static TV bi_sqrt_rn(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (tl_sca(x.ty)->kind != TL_FP32) return sema_error(S, "sqrt_rn: Expected dtype ['fp32'] but got %s", tl_cstr(S, tl_sca(x.ty)));
    return tv_tensor(sem_ir(S, TT_PRECISE_SQRT, x.ty, x.v, NULL), x.ty);
}

static TV bi_div_rn(Sema *S, CallArgs *a) {
    TV x = a->v[0], y = a->v[1];
    if (!sem_binary_check(S, &x, &y, false, false, true, false)) return tv_err();
    if (tl_sca(x.ty)->kind != TL_FP32) return sema_error(S, "div_rn: Expected dtype ['fp32'] but got %s", tl_cstr(S, tl_sca(x.ty)));
    return tv_tensor(sem_ir(S, TT_PRECISE_DIVF, x.ty, x.v, y.v), x.ty);
}

static TV bi_fdiv(Sema *S, CallArgs *a) {
    TV x = sem_to_tensor(S, A(0)), y = sem_to_tensor(S, A(1));
    return sem_fdiv(S, x, y, a->given[2] && cx_truthy(A(2)));
}

static TV bi_fma(Sema *S, CallArgs *a) {
    TV x = a->v[0], y = a->v[1], z = a->v[2];
    if (!sem_binary_check(S, &x, &y, false, false, true, false)) return tv_err();
    if (!sem_binary_check(S, &z, &x, false, false, true, false)) return tv_err();
    if (!sem_binary_check(S, &z, &y, false, false, true, false)) return tv_err();
    const TlType *fs = tl_sca(x.ty); /* math.fma: any float but fp8 (Triton checks no dtype; MLIR needs a float) */
    if (!tl_is_float(fs) || tl_is_fp8(fs))
        return sema_error(S, "fma: Expected dtype ['fp16', 'bf16', 'fp32', 'fp64'] but got %s", tl_cstr(S, fs));
    Value *ops[3] = {x.v, y.v, z.v};
    Type *t = x.ty->ir;
    return tv_tensor(op_result(sem_op(S, MATH_FMA, ops, 3, &t, 1, 0), 0), x.ty);
}

static TV bi_umulhi(Sema *S, CallArgs *a) {
    TV x = sem_to_tensor(S, A(0)), y = sem_to_tensor(S, A(1));
    if (!sem_binary_check(S, &x, &y, false, false, true, false)) return tv_err();
    if (!tl_is_int(tl_sca(x.ty))) return sema_error(S, "umulhi: Expected an integer dtype but got %s", tl_cstr(S, tl_sca(x.ty)));
    return tv_tensor(sem_ir(S, TT_MULHIUI, x.ty, x.v, y.v), x.ty);
}

static TV do_reduce(Sema *S, TV *in, int n, const TV *axis_v, bool keep_dims, int cb, bool tie_left, const TV *fn);
/* The combines of reductions and scans (build_combine). CB_FIRST keeps the
 * left operand: Triton's _take_first, which turns a one-element tensor into
 * a scalar. */
enum { CB_ADD, CB_MUL, CB_MAX, CB_MIN, CB_XOR, CB_OR, CB_ARGMAX, CB_ARGMIN, CB_FIRST, CB_JIT };

/* x.item(): the value of a one-element tensor, as a scalar */
static TV bi_item(Sema *S, CallArgs *a) {
    TV x = a->v[0];
    if (x.kind != TV_TENSOR || !tl_is_block(x.ty)) return x;
    if (tl_numel(x.ty) != 1)
        return sema_error(S, "item(): the tensor has %lld elements, not 1", (long long)tl_numel(x.ty));
    TV none = tv_none();
    return do_reduce(S, &x, 1, &none, false, CB_FIRST, false, NULL);
}

/* x.logical_and(y) / x.logical_or(y): what Python's `and` / `or` on tensors do */
static TV bi_logical(Sema *S, CallArgs *a) { return sem_logical(S, a->bi->arg != 0, a->v[0], a->v[1]); }

/* tl.condition(cond, disable_licm=False): a while loop's condition, marked
 * for Triton's backends; here the condition itself (LICM changes no result) */
static TV bi_condition(Sema *S, CallArgs *a) {
    (void)S;
    return a->v[0];
}

/* tl.add / sub / mul (x, y, sanitize_overflow): the operators' semantics */
static TV bi_arith(Sema *S, CallArgs *a) { return sem_binary(S, a->bi->arg, a->v[0], a->v[1]); }

/* PropagateNan from argument i: tl.PropagateNan.NONE (0, also when not
 * given) or ALL (0xffff), into *all. Triton passes it to create_clampf as
 * its enum, and minimum/maximum of floats compare it with both members:
 * any other value (True, 1, a value past 32 bits that the i32 attribute
 * truncated) is an error at the argument, where it was taken as ALL. */
static bool need_propagate_nan(Sema *S, CallArgs *a, int i, bool *all) {
    *all = false;
    if (!GIVEN(i)) return true;
    const TV *v = A(i);
    if (v->kind == TV_ERR) return false;
    if (v->kind == TV_INT && !v->u64 && (v->i == 0 || v->i == 0xffff)) {
        *all = v->i != 0;
        return true;
    }
    StrBuf b = {0};
    tv_str(S, v, &b);
    at_arg(S, a, i);
    sema_error(S, "%s(): propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got %s", a->bi->name,
               sb_cstr(&b));
    sb_free(&b);
    return false;
}

static bool float_operand(const TV *v) {
    return v->kind == TV_FLOAT || (v->kind == TV_TENSOR && tl_is_float(tl_sca(v->ty)));
}

static TV bi_minmax(Sema *S, CallArgs *a) {
    bool nan_all = false;
    /* (on ints Triton reads no propagate_nan: any value is taken) */
    if ((float_operand(A(0)) || float_operand(A(1))) && !need_propagate_nan(S, a, 2, &nan_all)) return tv_err();
    return sem_minmax(S, a->bi->arg != 0, a->v[0], a->v[1], nan_all);
}

static TV bi_clamp(Sema *S, CallArgs *a) {
    TV x = a->v[0], lo = a->v[1], hi = a->v[2];
    if (!sem_binary_check(S, &lo, &hi, false, false, true, false)) return tv_err();
    if (!sem_binary_check(S, &x, &lo, false, false, true, false)) return tv_err();
    if (!sem_binary_check(S, &x, &hi, false, false, true, false)) return tv_err();
    if (!tl_is_float(tl_sca(x.ty)))
        return sema_error(S, "Unexpected dtype %s. Only floating point clamp is supported", tl_cstr(S, tl_sca(x.ty)));
    bool nan_all;
    if (!need_propagate_nan(S, a, 3, &nan_all)) return tv_err();
    Value *ops[3] = {x.v, lo.v, hi.v};
    Type *t = x.ty->ir;
    Op *op = sem_op(S, TT_CLAMPF, ops, 3, &t, 1, 0);
    op_set_attr(S->ctx, op, "propagateNan", sema_attr_i32(S, nan_all ? 1 : 0));
    return tv_tensor(op_result(op, 0), x.ty);
}

static TV bi_where(Sema *S, CallArgs *a) { return sem_where(S, a->v[0], a->v[1], a->v[2]); }

static TV bi_sigmoid(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (!check_fp(S, "exp", x, false)) return tv_err();
    TV nx = sem_minus(S, x);
    TV e = tv_tensor(sem_ir(S, MATH_EXP, nx.ty, nx.v, NULL), nx.ty);
    return sem_binary(S, PY_BIN_DIV, tv_int(1), sem_binary(S, PY_BIN_ADD, tv_int(1), e));
}

static TV bi_cdiv(Sema *S, CallArgs *a) {
    TV x = a->v[0], d = a->v[1];
    if (x.kind == TV_ERR || d.kind == TV_ERR) return tv_err();
    if (!tv_is_num(&x) || !tv_is_num(&d)) {
        TV t = sem_binary(S, PY_BIN_ADD, x, d);
        t = sem_binary(S, PY_BIN_SUB, t, tv_int(1));
        return sem_binary(S, PY_BIN_FLOORDIV, t, d);
    }
    TV one = tv_int(1), t = cx_binary(S, PY_BIN_ADD, &x, &d);
    t = cx_binary(S, PY_BIN_SUB, &t, &one);
    return cx_binary(S, PY_BIN_FLOORDIV, &t, &d);
}

/* a OP b with Python's rules on constexprs, Triton's on tensors. */
static TV arith(Sema *S, PyBinOp op, TV a, TV b) {
    if (a.kind == TV_ERR || b.kind == TV_ERR) return tv_err();
    if (tv_is_num(&a) && tv_is_num(&b)) return cx_binary(S, op, &a, &b);
    return sem_binary(S, op, a, b);
}

/* tl.swizzle2d(i, j, size_i, size_j, size_g): Triton's standard.py, which
 * maps a row-major index to one grouped by size_g rows (the GROUP_M
 * ordering of the matmul tutorial); returns (new_i, new_j). */
static TV bi_swizzle2d(Sema *S, CallArgs *a) {
    TV i = a->v[0], j = a->v[1], size_i = a->v[2], size_j = a->v[3], size_g = a->v[4];
    TV ij = arith(S, PY_BIN_ADD, arith(S, PY_BIN_MUL, i, size_j), j);
    TV size_gj = arith(S, PY_BIN_MUL, size_g, size_j);
    TV group_id = arith(S, PY_BIN_FLOORDIV, ij, size_gj);
    TV off_i = arith(S, PY_BIN_MUL, group_id, size_g);
    TV rows = arith(S, PY_BIN_SUB, size_i, off_i);
    if (rows.kind == TV_ERR || size_g.kind == TV_ERR) return tv_err();
    TV g;
    if (tv_is_num(&rows) && tv_is_num(&size_g)) {
        TV lt = cx_binary(S, 100 + PY_CMP_LT, &rows, &size_g);
        g = cx_truthy(&lt) ? rows : size_g;
    } else {
        g = sem_minmax(S, false, rows, size_g, false);
    }
    ij = arith(S, PY_BIN_MOD, ij, size_gj);
    TV new_i = arith(S, PY_BIN_ADD, off_i, arith(S, PY_BIN_MOD, ij, g));
    TV new_j = arith(S, PY_BIN_FLOORDIV, ij, g);
    if (new_i.kind == TV_ERR || new_j.kind == TV_ERR) return tv_err();
    TV r = {.kind = TV_TUPLE, .n = 2};
    r.elems = ARENA_ARRAY(S->arena, TV, 2);
    r.elems[0] = new_i;
    r.elems[1] = new_j;
    return r;
}

/* ---- reductions and scans -------------------------------------------------------- */

/* Builds the combiner region: block with 2n scalar args, ending in ret_kind. */
static bool build_combine(Sema *S, Op *op, const TV *inputs, int n, int cb, bool tie_left, const TV *fn,
                          OpKind ret_kind) {
    Block *blk = block_create(S->ctx);
    region_push_block(&op->regions[0], blk);
    TV args[2 * 8];
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < n; i++) {
            const TlType *st = tl_sca(inputs[i].ty);
            args[h * n + i] = tv_tensor(block_add_arg(S->ctx, blk, st->ir, S->loc), st);
        }
    Builder saved = S->b;
    S->b = builder_at_end(S->ctx, blk);
    TV res[8];
    int nres = n;
    switch (cb) {
    case CB_ADD: res[0] = sem_binary(S, PY_BIN_ADD, args[0], args[1]); break;
    case CB_MUL: res[0] = sem_binary(S, PY_BIN_MUL, args[0], args[1]); break;
    case CB_XOR: res[0] = sem_binary(S, PY_BIN_BITXOR, args[0], args[1]); break;
    case CB_OR: res[0] = sem_binary(S, PY_BIN_BITOR, args[0], args[1]); break;
    case CB_MAX: res[0] = sem_minmax(S, true, args[0], args[1], false); break;
    case CB_MIN: res[0] = sem_minmax(S, false, args[0], args[1], false); break;
    case CB_FIRST: res[0] = args[0]; break;
    case CB_ARGMAX:
    case CB_ARGMIN: {
        TV v1 = args[0], i1 = args[1], v2 = args[2], i2 = args[3];
        TV better = sem_compare(S, cb == CB_ARGMAX ? PY_CMP_GT : PY_CMP_LT, v1, v2);
        if (tie_left) {
            TV tie = sem_logical(S, true, sem_compare(S, PY_CMP_EQ, v1, v2), sem_compare(S, PY_CMP_LT, i1, i2));
            better = sem_logical(S, false, better, tie);
        }
        res[0] = sem_where(S, better, v1, v2);
        res[1] = sem_where(S, better, i1, i2);
        break;
    }
    default: {
        TV r = cg_call_jit(S, fn, args, 2 * n, NULL, NULL, 0, true);
        if (r.kind == TV_TUPLE) {
            nres = r.n;
            for (int i = 0; i < r.n && i < 8; i++) res[i] = r.elems[i];
        } else {
            nres = 1;
            res[0] = r;
        }
        if (r.kind == TV_ERR) nres = -1;
        break;
    }
    }
    bool ok = nres == n;
    Value *vals[8];
    for (int i = 0; ok && i < n; i++) {
        if (res[i].kind == TV_ERR) ok = false;
        else if (cb == CB_JIT && res[i].kind == TV_TENSOR &&
                 (tl_is_float(tl_sca(res[i].ty)) != tl_is_float(tl_sca(inputs[i].ty)) ||
                  tl_is_ptr(tl_sca(res[i].ty)) != tl_is_ptr(tl_sca(inputs[i].ty)))) {
            /* A @jit combine function's result of another kind was cast back
             * to the input's (a float sum through .to(tl.int32) truncated
             * each partial sum, silently); Triton's verifier rejects it.
             * A float of another width is still cast back: tl.maximum of
             * two bf16 is an fp32 (Triton promotes it), which Triton's
             * verifier rejects too, but scans over bf16 use it. */
            sema_error(S, "type mismatch on combine operation: the combine function's result %d is %s, but the "
                          "input's element type is %s", i, tl_cstr(S, tl_sca(res[i].ty)), tl_cstr(S, tl_sca(inputs[i].ty)));
            nres = -1;
            ok = false;
        } else {
            res[i] = sem_cast(S, sem_to_tensor(S, &res[i]), tl_sca(inputs[i].ty), NULL);
            ok = res[i].kind == TV_TENSOR;
            if (ok) vals[i] = res[i].v;
        }
    }
    if (!ok && nres >= 0 && nres != n)
        sema_error(S, "the combine function returns %d values but %d were expected", nres, n);
    if (ok) {
        S->b.loc = S->loc;
        build_op(&S->b, ret_kind, vals, n, NULL, 0, 0);
    }
    S->b = saved;
    return ok;
}

static TV do_reduce(Sema *S, TV *in, int n, const TV *axis_v, bool keep_dims, int cb, bool tie_left, const TV *fn);

TV sem_unsplat(Sema *S, TV x) {
    /* the one element of a block: a reduction that keeps its first value */
    TV none = tv_none();
    return do_reduce(S, &x, 1, &none, false, CB_FIRST, false, NULL);
}

static int wrap_axis(Sema *S, int64_t axis, int rank) {
    if (axis < -rank || axis >= rank) {
        sema_error(S, "axis %lld is out of bounds for a tensor of rank %d", (long long)axis, rank);
        return -1;
    }
    return (int)(axis < 0 ? axis + rank : axis);
}

/* wrap_axis of a constexpr int (one of 2**63 or more is out of bounds as
 * the number it is, not as the negative int64 of its bits) */
static int wrap_axis_tv(Sema *S, const TV *axis, int rank) {
    if (!axis->u64) return wrap_axis(S, axis->i, rank);
    sema_error(S, "axis %llu is out of bounds for a tensor of rank %d", (unsigned long long)axis->i, rank);
    return -1;
}

/* reduce(inputs, axis (or none), combine); returns a tuple when n > 1. */
static TV do_reduce(Sema *S, TV *in, int n, const TV *axis_v, bool keep_dims, int cb, bool tie_left, const TV *fn) {
    for (int i = 0; i < n; i++)
        if (in[i].kind != TV_TENSOR) return tv_err();
    int orig_rank = tl_is_block(in[0].ty) ? in[0].ty->rank : 0;
    int axis;
    if (axis_v->kind == TV_NONE) {
        for (int i = 0; i < n; i++) {
            int64_t ne = tl_numel(in[i].ty);
            in[i] = sem_reshape(S, in[i], &ne, 1, true);
        }
        axis = 0;
    } else if (tv_is_int(axis_v)) {
        if (!tl_is_block(in[0].ty)) return sema_error(S, "cannot reduce a scalar");
        axis = wrap_axis_tv(S, axis_v, in[0].ty->rank);
        if (axis < 0) return tv_err();
    } else {
        return sema_error(S, "reduction axis must be a constexpr int or None");
    }
    const TlType *t0 = in[0].ty;
    for (int i = 1; i < n; i++)
        if (in[i].ty->rank != t0->rank || memcmp(in[i].ty->shape, t0->shape, sizeof(int64_t) * (size_t)t0->rank))
            return sema_error(S, "all reduction inputs must have the same shape");
    int64_t shape[TL_MAX_RANK];
    int r = 0;
    for (int i = 0; i < t0->rank; i++)
        if (i != axis) shape[r++] = t0->shape[i];
    Value *ops[8] = {0};
    Type *rts[8] = {0};
    const TlType *tls[8];
    for (int i = 0; i < n; i++) {
        ops[i] = in[i].v;
        tls[i] = tl_block(S, tl_sca(in[i].ty), shape, r);
        rts[i] = tls[i]->ir;
    }
    Op *op = sem_op(S, TT_REDUCE, ops, n, rts, n, 1);
    op_set_attr_k(S->ctx, op, AN_AXIS, sema_attr_i32(S, axis));
    if (!build_combine(S, op, in, n, cb, tie_left, fn, TT_REDUCE_RETURN)) return tv_err();
    TV res[8];
    for (int i = 0; i < n; i++) {
        res[i] = tv_tensor(op_result(op, i), tls[i]);
        if (keep_dims) {
            if (axis_v->kind == TV_NONE)
                for (int d = 0; d < orig_rank; d++) res[i] = sem_expand_dims(S, res[i], d);
            else
                res[i] = sem_expand_dims(S, res[i], axis);
        }
    }
    if (n == 1) return res[0];
    TV t = {.kind = TV_TUPLE, .n = n};
    t.elems = ARENA_ARRAY(S->arena, TV, n);
    memcpy(t.elems, res, sizeof(TV) * (size_t)n);
    return t;
}

static TV promote_sum(Sema *S, CallArgs *a, TV x, int dtype_arg) {
    if (GIVEN(dtype_arg)) { /* (anything but a dtype is an error: dtype="float64" was ignored) */
        const TlType *dt = need_dtype(S, a, dtype_arg);
        return dt ? sem_cast(S, x, dt, NULL) : tv_err();
    }
    const TlType *s = tl_sca(x.ty);
    if (tl_is_int(s) && tl_bitwidth(s) < 32) return sem_cast(S, x, tl_int_type(S, 32, tl_is_signed(s)), NULL);
    return x;
}

static TV bi_sum(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    x = promote_sum(S, a, x, 3);
    if (x.kind == TV_ERR) return x;
    return do_reduce(S, &x, 1, A(1), a->given[2] && cx_truthy(A(2)), CB_ADD, false, NULL);
}

/* tl.histogram(x, num_bins, mask=None): counts of each value 0..num_bins-1
 * in a 1-D integer tensor, where the mask (broadcast to x's shape) holds,
 * as int32; values outside 0..num_bins-1 are not counted. Triton's
 * tt.histogram (each backend counts in place: an [N, bins] one-hot tile
 * would reach the tensor size limit long before N and bins do). The IR's
 * integers have no sign, and the backends read a narrow source as signed:
 * an unsigned one narrower than 32 bits is zero-extended here first, so a
 * uint8 200 counts in bin 200 of 256 (as Triton's bit-by-bit count on the
 * GPU and its interpreter's numpy count it; it fell out as -56). */
static TV bi_histogram(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (!tl_is_block(x.ty) || x.ty->rank != 1)
        return sema_error(S, "histogram only supports 1D input, got %s", tl_cstr(S, x.ty));
    if (!tl_is_int(tl_sca(x.ty)))
        return sema_error(S, "histogram only supports integer input, got %s", tl_cstr(S, x.ty));
    if (!tv_is_int(A(1)) || a->v[1].i <= 0 || (a->v[1].i & (a->v[1].i - 1)))
        return sema_error(S, "histogram(): num_bins must be a constexpr power of 2");
    int64_t bins = a->v[1].i;
    const TlType *xs = tl_sca(x.ty);
    if (tl_is_unsigned(xs) && !tl_is_bool(xs) && tl_bitwidth(xs) < 32) {
        x = sem_cast(S, x, tl_scalar(S, TL_U32), NULL);
        if (x.kind == TV_ERR) return x;
    }
    Value *ops[2] = {x.v, NULL};
    int nops = 1;
    TV m = a->v[2];
    if (GIVEN(2) && m.kind != TV_NONE) {
        m = sem_to_tensor(S, &m);
        if (m.kind == TV_ERR) return m;
        m = sem_broadcast_to(S, m, x.ty->shape, 1);
        if (m.kind == TV_ERR) return m;
        if (!tl_is_bool(tl_sca(m.ty)))
            return sema_error(S, "Mask must have boolean scalar type, got %s", tl_cstr(S, tl_sca(m.ty)));
        ops[nops++] = m.v;
    }
    const TlType *rt = tl_block(S, tl_scalar(S, TL_I32), &bins, 1);
    if (!rt) return tv_err();
    Type *irt = rt->ir;
    Op *op = sem_op(S, TT_HISTOGRAM, ops, nops, &irt, 1, 0);
    return tv_tensor(op_result(op, 0), rt);
}

/* tt.gather src[idx] along `axis`: the result has idx's shape. */
static TV gather_op(Sema *S, TV src, TV idx, int axis) {
    const TlType *t = tl_block(S, src.ty->elem, idx.ty->shape, idx.ty->rank);
    Value *v = sem_ir(S, TT_GATHER, t, src.v, idx.v);
    op_set_attr_k(S->ctx, v->def, AN_AXIS, sema_attr_i32(S, axis));
    return tv_tensor(v, t);
}

/* tl.gather(src, index, axis): out[..i..] = src[..index[..i..] on axis..],
 * Triton's tt.gather (each backend reads src through memory: linear in the
 * tile, where a one-hot select and sum would be quadratic). */
static TV bi_gather(Sema *S, CallArgs *a) {
    TV src, idx;
    if (!need_tensor(S, a, 0, &src) || !need_tensor(S, a, 1, &idx)) return tv_err();
    if (!tl_is_block(src.ty) || !tl_is_block(idx.ty) || src.ty->rank != idx.ty->rank || !tl_is_int(tl_sca(idx.ty)))
        return sema_error(S, "gather(): src and index must be tensors of the same rank, index of integers; got %s "
                             "and %s", tl_cstr(S, src.ty), tl_cstr(S, idx.ty));
    int r = src.ty->rank;
    if (!tv_is_int(A(2))) return sema_error(S, "gather(): axis must be a constexpr int");
    int axis = wrap_axis_tv(S, A(2), r);
    if (axis < 0) return tv_err();
    for (int d = 0; d < r; d++)
        if (d != axis && src.ty->shape[d] != idx.ty->shape[d])
            return sema_error(S, "gather(): index dim %d must match the corresponding source dim (%lld vs %lld)", d,
                              (long long)idx.ty->shape[d], (long long)src.ty->shape[d]);
    return gather_op(S, src, idx, axis);
}

/* xor_sum and reduce_or (arg: the combine), integers only */
static TV bi_int_reduce(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (!tl_is_int(tl_sca(x.ty))) return sema_error(S, "%s only supported for integers", a->bi->name);
    return do_reduce(S, &x, 1, A(1), a->given[2] && cx_truthy(A(2)), a->bi->arg, false, NULL);
}

static TV with_indices(Sema *S, TV x, const TV *axis_v, bool keep_dims, int cb, bool tie_left) {
    int rank = tl_is_block(x.ty) ? x.ty->rank : 0;
    int axis = 0;
    if (axis_v->kind == TV_NONE) {
        int64_t ne = tl_numel(x.ty);
        x = sem_reshape(S, x, &ne, 1, true);
        rank = 1;
    } else {
        if (!tv_is_int(axis_v)) return sema_error(S, "axis must be a constexpr int");
        axis = wrap_axis_tv(S, axis_v, rank);
        if (axis < 0) return tv_err();
    }
    TV lo = tv_int(0), hi = tv_int(x.ty->shape[axis]);
    TV idx = sem_arange(S, &lo, &hi);
    for (int d = 0; d < rank; d++)
        if (d != axis) idx = sem_expand_dims(S, idx, d);
    idx = sem_broadcast_to(S, idx, x.ty->shape, rank);
    TV in[2] = {x, idx};
    TV ax = axis_v->kind == TV_NONE ? tv_int(0) : tv_int(axis);
    TV r = do_reduce(S, in, 2, &ax, keep_dims, cb, tie_left, NULL);
    return r;
}

static TV bi_maxmin(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    bool is_max = a->bi->arg != 0;
    bool keep = a->given[4] && cx_truthy(A(4));
    if (tl_sca(x.ty)->kind == TL_BF16) x = sem_cast(S, x, tl_scalar(S, TL_FP32), NULL);
    if (a->given[2] && cx_truthy(A(2))) {
        bool tie = !a->given[3] || cx_truthy(A(3));
        return with_indices(S, x, A(1), keep, is_max ? CB_ARGMAX : CB_ARGMIN, tie);
    }
    const TlType *s = tl_sca(x.ty);
    if (tl_bitwidth(s) < 32) x = sem_cast(S, x, tl_is_float(s) ? tl_scalar(S, TL_FP32) : tl_scalar(S, TL_I32), NULL);
    return do_reduce(S, &x, 1, A(1), keep, is_max ? CB_MAX : CB_MIN, false, NULL);
}

static TV bi_argmaxmin(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (tl_sca(x.ty)->kind == TL_BF16) x = sem_cast(S, x, tl_scalar(S, TL_FP32), NULL);
    bool tie = !a->given[2] || cx_truthy(A(2));
    TV r = with_indices(S, x, A(1), a->given[3] && cx_truthy(A(3)), a->bi->arg ? CB_ARGMAX : CB_ARGMIN, tie);
    return r.kind == TV_TUPLE ? r.elems[1] : r;
}

/* reduce()/associative_scan() given a tuple return a tuple, a 1-tuple too
 * (Triton wraps a lone tensor and indexes [0] only then): `x, = tl.reduce((x,),
 * ...)`. The many-input results are tuples already. */
static TV tuple_of_one(Sema *S, TV r) {
    if (r.kind != TV_TENSOR) return r;
    TV t = {.kind = TV_TUPLE, .n = 1};
    t.elems = ARENA_ARRAY(S->arena, TV, 1);
    t.elems[0] = r;
    return t;
}

/* The inputs of reduce()/associative_scan(): one tensor or a tuple of up to
 * 8. Returns the count, or 0 after reporting an error. */
static int combine_inputs(Sema *S, TV v, const char *what, TV in[8]) {
    int n = 1;
    if (v.kind == TV_TUPLE) {
        n = v.n;
        if (n > 8) {
            sema_error(S, "%s(): at most 8 inputs", what);
            return 0;
        }
        for (int i = 0; i < n; i++) in[i] = v.elems[i];
    } else {
        in[0] = v;
    }
    for (int i = 0; i < n; i++)
        if (in[i].kind != TV_TENSOR) {
            err_type(S, what, "tensors", &in[i]);
            return 0;
        }
    return n;
}

static TV bi_reduce(Sema *S, CallArgs *a) {
    TV fn = a->v[2];
    if (fn.kind != TV_JITFN) return sema_error(S, "reduce(): combine_fn must be a @triton.jit function");
    TV in[8];
    int n = combine_inputs(S, a->v[0], "reduce", in);
    if (!n) return tv_err();
    TV r = do_reduce(S, in, n, A(1), a->given[3] && cx_truthy(A(3)), CB_JIT, false, &fn);
    return a->v[0].kind == TV_TUPLE ? tuple_of_one(S, r) : r;
}

static TV do_scan(Sema *S, TV *in, int n, int64_t axis, bool reverse, int cb, const TV *fn) {
    if (!tl_is_block(in[0].ty)) return sema_error(S, "cannot scan a scalar");
    int ax = wrap_axis(S, axis, in[0].ty->rank);
    if (ax < 0) return tv_err();
    Value *ops[8] = {0};
    Type *rts[8] = {0};
    for (int i = 0; i < n; i++) {
        ops[i] = in[i].v;
        rts[i] = in[i].ty->ir;
    }
    Op *op = sem_op(S, TT_SCAN, ops, n, rts, n, 1);
    op_set_attr_k(S->ctx, op, AN_AXIS, sema_attr_i32(S, ax));
    op_set_attr_k(S->ctx, op, AN_REVERSE, attr_bool(S->ctx, reverse));
    if (!build_combine(S, op, in, n, cb, false, fn, TT_SCAN_RETURN)) return tv_err();
    if (n == 1) return tv_tensor(op_result(op, 0), in[0].ty);
    TV t = {.kind = TV_TUPLE, .n = n};
    t.elems = ARENA_ARRAY(S->arena, TV, n);
    for (int i = 0; i < n; i++) t.elems[i] = tv_tensor(op_result(op, i), in[i].ty);
    return t;
}

static TV bi_cumsum(Sema *S, CallArgs *a) {
    TV x;
    int64_t axis = 0;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (a->given[1] && !need_int(S, a, 1, &axis)) return tv_err();
    /* standard.py: both scan bf16 in fp32 (_promote_bfloat16_to_float32);
     * cumsum then widens small ints as sum does (_pick_sum_dtype), cumprod
     * keeps the type */
    if (tl_sca(x.ty)->kind == TL_BF16) x = sem_cast(S, x, tl_scalar(S, TL_FP32), NULL);
    if (!a->bi->arg || GIVEN(3)) x = promote_sum(S, a, x, 3);
    if (x.kind == TV_ERR) return x;
    return do_scan(S, &x, 1, axis, a->given[2] && cx_truthy(A(2)), a->bi->arg ? CB_MUL : CB_ADD, NULL);
}

static TV bi_assoc_scan(Sema *S, CallArgs *a) {
    TV fn = a->v[2];
    int64_t axis;
    if (!need_int(S, a, 1, &axis)) return tv_err();
    if (fn.kind != TV_JITFN) return sema_error(S, "associative_scan(): combine_fn must be a @triton.jit function");
    TV in[8];
    int n = combine_inputs(S, a->v[0], "associative_scan", in);
    if (!n) return tv_err();
    TV r = do_scan(S, in, n, axis, a->given[3] && cx_truthy(A(3)), CB_JIT, &fn);
    return a->v[0].kind == TV_TUPLE ? tuple_of_one(S, r) : r;
}

static TV bi_softmax(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    TV dim = a->given[1] && a->v[1].kind != TV_NONE ? a->v[1] : tv_int(0);
    TV mx = x;
    if (tl_sca(mx.ty)->kind == TL_BF16) mx = sem_cast(S, mx, tl_scalar(S, TL_FP32), NULL);
    if (tl_bitwidth(tl_sca(mx.ty)) < 32) mx = sem_cast(S, mx, tl_scalar(S, TL_FP32), NULL);
    TV m = do_reduce(S, &mx, 1, &dim, true, CB_MAX, false, NULL);
    TV z = sem_binary(S, PY_BIN_SUB, x, m);
    if (z.kind == TV_ERR || !check_fp(S, "exp", z, false)) return tv_err();
    TV num = tv_tensor(sem_ir(S, MATH_EXP, z.ty, z.v, NULL), z.ty);
    TV den = do_reduce(S, &num, 1, &dim, true, CB_ADD, false, NULL);
    return sem_fdiv(S, num, den, a->given[3] && cx_truthy(A(3)));
}

/* ---- linear algebra --------------------------------------------------------------- */

static TV bi_dot(Sema *S, CallArgs *a) {
    TV x = a->v[0], y = a->v[1], acc = a->v[2];
    if (x.kind == TV_ERR || y.kind == TV_ERR || acc.kind == TV_ERR) return tv_err();
    if (x.kind != TV_TENSOR || y.kind != TV_TENSOR || !tl_is_block(x.ty) || !tl_is_block(y.ty))
        return sema_error(S, "dot() needs two block tensors");
    if (GIVEN(3) && GIVEN(4)) return sema_error(S, "Only one of input_precision and allow_tf32 can be specified");
    const char *prec = "tf32";
    if (GIVEN(3)) {
        if (a->v[3].kind != TV_STR) return sema_error(S, "input_precision must be a string");
        prec = a->v[3].s;
    } else if (GIVEN(4) && !cx_truthy(A(4))) {
        prec = "ieee";
    }
    /* Triton 3.6's CUDA options allow the five, compared lowercased. The
     * bf16x3/bf16x6 splits, like tf32x3, are at least fp32-exact: every
     * backend computes them on the exact fp32 path. */
    char low[16];
    size_t pn = strlen(prec);
    for (size_t i = 0; i < pn && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)prec[i]);
    low[pn < sizeof low ? pn : sizeof low - 1] = 0;
    int pi = pn < sizeof low ? enum_lookup(tt_precision_names, low) : -1;
    if (pi < 0)
        return sema_error(S, "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got %s",
                          prec);
    const TlType *xs = tl_sca(x.ty), *ys = tl_sca(y.ty);
    if (!(tl_is_fp8(xs) && tl_is_fp8(ys))) {
        static const TlKind ok[] = {TL_I8, TL_U8, TL_FP16, TL_BF16, TL_FP32, TL_FP64};
        bool xo = false, yo = false;
        for (int i = 0; i < TC_ARRAY_LEN(ok); i++) {
            xo |= xs->kind == ok[i];
            yo |= ys->kind == ok[i];
        }
        if (!xo) return sema_error(S, "Unsupported lhs dtype %s", tl_cstr(S, xs));
        if (!yo) return sema_error(S, "Unsupported rhs dtype %s", tl_cstr(S, ys));
        if (xs != ys) return sema_error(S, "Both operands must be same dtype. Got %s and %s", tl_cstr(S, xs), tl_cstr(S, ys));
    }
    int lr = x.ty->rank, rr = y.ty->rank;
    if (!((lr == 2 && rr == 2) || (lr == 3 && rr == 3)))
        return sema_error(S, "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)", tl_cstr(S, x.ty), tl_cstr(S, y.ty));
    int64_t M = x.ty->shape[lr - 2], K = x.ty->shape[lr - 1], K2 = y.ty->shape[rr - 2], N = y.ty->shape[rr - 1];
    if (lr == 3 && x.ty->shape[0] != y.ty->shape[0]) /* (it was the IR verifier's word on the accumulator) */
        return sema_error(S, "dot(): the batch dimensions differ: lhs %s and rhs %s", tl_cstr(S, x.ty), tl_cstr(S, y.ty));
    if (K != K2)
        return sema_error(S, "First input shape (%s) and second input shape %s are not compatible for matmul (second "
                             "index of first shape (%lld) must be equal to first index of second shape (%lld)",
                          tl_cstr(S, x.ty), tl_cstr(S, y.ty), (long long)K, (long long)K2);
    /* Triton 3.6's NVIDIA minimum (min_dot_size): any M and N (small ones
     * run padded on tensor cores there; here those off mma's m16n8 tiles
     * take the FMA path), K of 16, 32 for 8-bit operands */
    int64_t minK = tl_bitwidth(xs) == 8 ? 32 : 16;
    if (K < minK) return sema_error(S, "Input shapes should have M >= 1, N >= 1 and K >= %lld", (long long)minK);
    const TlType *out = tl_scalar(S, TL_FP32);
    if (GIVEN(6) && !(out = need_dtype(S, a, 6))) return tv_err();
    const TlType *rs;
    if (tl_is_int(xs)) {
        if (xs->kind != TL_I8) return sema_error(S, "only int8 supported!");
        rs = tl_scalar(S, TL_I32);
    } else if (out->kind == TL_BF16) {
        return sema_error(S, "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with "
                             "`.to(tl.bfloat16)`");
    } else if (xs->kind == TL_FP32 || xs->kind == TL_BF16) {
        rs = tl_scalar(S, TL_FP32);
    } else if (xs->kind == TL_FP64) {
        rs = tl_scalar(S, TL_FP64);
    } else {
        /* fp16 and fp8 operands accumulate in fp32 or fp16 (Triton makes
         * an fp32 zero of any other out_dtype, which its IR rejects) */
        if (out->kind != TL_FP16 && out->kind != TL_FP32)
            return sema_error(S, "dot(): out_dtype must be float32 or float16 for %s operands, got %s", tl_cstr(S, xs),
                              tl_cstr(S, out));
        rs = out;
    }
    int64_t shape[3];
    int r = 0;
    if (lr == 3) shape[r++] = x.ty->shape[0];
    shape[r++] = M;
    shape[r++] = N;
    const TlType *rt = tl_block(S, rs, shape, r);
    if (!GIVEN(2)) {
        TV z = tl_is_int(rs) ? tv_tensor(sem_const_int(S, rs, 0), rs) : tv_tensor(sem_const_float(S, rs, 0), rs);
        acc = sem_splat(S, z, shape, r);
    } else {
        if (acc.kind != TV_TENSOR || acc.ty != rt)
            return sema_error(S, "dot(): acc must have type %s, got %s", tl_cstr(S, rt),
                              acc.kind == TV_TENSOR ? tl_cstr(S, acc.ty) : tv_kind_name(&acc));
    }
    int64_t imprecise = 0;
    if (GIVEN(5) && !need_int(S, a, 5, &imprecise)) return tv_err();
    if (GIVEN(5) && tl_is_fp8(xs) && imprecise > K)
        return sema_error(S, "max_num_imprecise_acc (%lld) must be <= K (%lld)", (long long)imprecise, (long long)K);
    Value *ops[3] = {x.v, y.v, acc.v};
    Type *t = rt->ir;
    Op *op = sem_op(S, TT_DOT, ops, 3, &t, 1, 0);
    op_set_attr_k(S->ctx, op, AN_INPUT_PRECISION, sema_attr_i32(S, pi));
    /* 0 is the attribute's default: Triton's printer leaves it out */
    if (imprecise) op_set_attr_k(S->ctx, op, AN_MAX_NUM_IMPRECISE_ACC, sema_attr_i32(S, imprecise));
    return tv_tensor(op_result(op, 0), rt);
}

/* ---- shapes ---------------------------------------------------------------------- */

static TV bi_trans(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    int n;
    const TV *d = unpack_var(A(1), &n);
    int perm[TL_MAX_RANK];
    if (n == 0) {
        if (!tl_is_block(x.ty) || x.ty->rank != 2)
            return sema_error(S, "trans() with no dims needs a 2D tensor; pass the dims");
        perm[0] = 1;
        perm[1] = 0;
        n = 2;
    } else {
        if (n > TL_MAX_RANK) return sema_error(S, "too many dims");
        for (int i = 0; i < n; i++) {
            if (!tv_is_int(&d[i])) return sema_error(S, "%s(): dims must be constexpr ints", a->bi->name);
            /* (one past int range was truncated: (2**32, 2**32 + 1) was (0, 1)) */
            perm[i] = !d[i].u64 && d[i].i >= 0 && d[i].i < TL_MAX_RANK ? (int)d[i].i : -1;
        }
    }
    return sem_permute(S, x, perm, n);
}

static TV bi_reshape(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    int n;
    const TV *d = unpack_var(A(1), &n);
    int64_t shape[TL_MAX_RANK];
    if (n > TL_MAX_RANK) return sema_error(S, "too many dims");
    for (int i = 0; i < n; i++) {
        if (!tv_is_int(&d[i])) return sema_error(S, "%s(): shape must be constexpr ints", a->bi->name);
        if (!shape_dim(S, a, 1, &d[i], i, &shape[i])) return tv_err();
    }
    bool reorder = a->bi->arg == 1 || (a->given[2] && cx_truthy(A(2)));
    return sem_reshape(S, x, shape, n, reorder);
}

/* tl.ravel(x, can_reorder=False): the elements in x's row-major order
 * unless the caller lets them move (Triton 3's default; Triton 2's ravel
 * was a view, which may reorder: that was taken here, and a GPU layout
 * then stored a permuted tensor's elements out of order). */
static TV bi_ravel(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    int64_t n = tl_numel(x.ty);
    return sem_reshape(S, x, &n, 1, a->given[1] && cx_truthy(A(1)));
}

static TV bi_expand_dims(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (tv_is_int(A(1))) return sem_expand_dims(S, x, a->v[1].u64 ? INT64_MAX : a->v[1].i);
    if (a->v[1].kind != TV_TUPLE) return sema_error(S, "expand_dims(): axis must be a constexpr int or tuple");
    int n = a->v[1].n, rank = (tl_is_block(x.ty) ? x.ty->rank : 0) + n;
    if (rank > TL_MAX_RANK) return sema_error(S, "tensor rank above %d is not supported", TL_MAX_RANK);
    int axes[TL_MAX_RANK];
    for (int i = 0; i < n; i++) {
        if (!tv_is_int(&a->v[1].elems[i])) return sema_error(S, "expand_dims(): axis must be constexpr ints");
        int64_t ax = a->v[1].elems[i].u64 ? INT64_MAX : a->v[1].elems[i].i;
        /* Triton normalises against the result's rank, then checks */
        if (ax < -rank || ax >= rank)
            return sema_error(S, "invalid axis %lld. Expected %d <= axis < %d", (long long)ax, -rank, rank);
        axes[i] = (int)(ax < 0 ? ax + rank : ax);
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (axes[i] == axes[j]) {
                StrBuf sb = {0};
                for (int k = 0; k < n; k++) sb_printf(&sb, "%s%d", k ? ", " : "", axes[k]);
                TV e = sema_error(S, "expand_dims received duplicate axes, normalized axes = [%s]", sb_cstr(&sb));
                sb_free(&sb);
                return e;
            }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (axes[j] < axes[i]) {
                int t = axes[i];
                axes[i] = axes[j];
                axes[j] = t;
            }
    for (int i = 0; i < n; i++) x = sem_expand_dims(S, x, axes[i]);
    return x;
}

static TV bi_broadcast_to(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    int n;
    const TV *d = unpack_var(A(1), &n);
    int64_t shape[TL_MAX_RANK];
    if (n > TL_MAX_RANK) return sema_error(S, "too many dims");
    for (int i = 0; i < n; i++) {
        if (!tv_is_int(&d[i])) return sema_error(S, "broadcast_to(): shape must be constexpr ints");
        if (!shape_dim(S, a, 1, &d[i], i, &shape[i])) return tv_err();
    }
    return sem_broadcast_to(S, x, shape, n);
}

static TV bi_broadcast(Sema *S, CallArgs *a) {
    TV x = sem_to_tensor(S, A(0)), y = sem_to_tensor(S, A(1));
    if (x.kind == TV_ERR || y.kind == TV_ERR || !sem_broadcast_pair(S, &x, &y)) return tv_err();
    TV t = {.kind = TV_TUPLE, .n = 2};
    t.elems = ARENA_ARRAY(S->arena, TV, 2);
    t.elems[0] = x;
    t.elems[1] = y;
    return t;
}

static TV join(Sema *S, TV x, TV y) {
    if (!sem_broadcast_pair(S, &x, &y)) return tv_err();
    if (x.ty != y.ty) return sema_error(S, "join(): both inputs must have the same type");
    bool was_scalar = !tl_is_block(x.ty);
    if (was_scalar) {
        x = sem_expand_dims(S, x, 0);
        y = sem_expand_dims(S, y, 0);
    }
    int64_t shape[TL_MAX_RANK + 1];
    int r = x.ty->rank;
    memcpy(shape, x.ty->shape, sizeof(int64_t) * (size_t)r);
    shape[r] = 2;
    const TlType *t = tl_block(S, x.ty->elem, shape, r + 1);
    TV res = tv_tensor(sem_ir(S, TT_JOIN, t, x.v, y.v), t);
    if (was_scalar) {
        int64_t two = 2;
        res = sem_reshape(S, res, &two, 1, false);
    }
    return res;
}

static TV bi_join(Sema *S, CallArgs *a) {
    TV x, y;
    if (!need_tensor(S, a, 0, &x) || !need_tensor(S, a, 1, &y)) return tv_err();
    return join(S, x, y);
}

static TV bi_interleave(Sema *S, CallArgs *a) {
    TV x, y;
    if (!need_tensor(S, a, 0, &x) || !need_tensor(S, a, 1, &y)) return tv_err();
    TV c = join(S, x, y);
    if (c.kind == TV_ERR || c.ty->rank == 1) return c;
    int64_t shape[TL_MAX_RANK];
    int r = c.ty->rank - 1;
    memcpy(shape, c.ty->shape, sizeof(int64_t) * (size_t)r);
    shape[r - 1] *= 2;
    return sem_reshape(S, c, shape, r, false);
}

static TV bi_split(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (!tl_is_block(x.ty) || x.ty->shape[x.ty->rank - 1] != 2)
        return sema_error(S, "split() needs a tensor whose last dimension is 2, got %s", tl_cstr(S, x.ty));
    /* a [2] tensor splits into two scalars, as in Triton: split it as [1, 2],
     * then reduce each [1] half to its one element */
    bool was_rank_1 = x.ty->rank == 1;
    if (was_rank_1) x = sem_expand_dims(S, x, 0);
    const TlType *t = tl_block(S, x.ty->elem, x.ty->shape, x.ty->rank - 1);
    Type *rts[2] = {t->ir, t->ir};
    Op *op = sem_op(S, TT_SPLIT, &x.v, 1, rts, 2, 0);
    TV r = {.kind = TV_TUPLE, .n = 2};
    r.elems = ARENA_ARRAY(S->arena, TV, 2);
    TV none = {.kind = TV_NONE};
    for (int i = 0; i < 2; i++) {
        r.elems[i] = tv_tensor(op_result(op, i), t);
        if (was_rank_1) r.elems[i] = do_reduce(S, &r.elems[i], 1, &none, false, CB_FIRST, false, NULL);
        if (r.elems[i].kind == TV_ERR) return tv_err();
    }
    return r;
}

/* tl.cat(a, b, can_reorder): tt.cat of two 1-D tensors of one type. Triton
 * only implements the reordering form (the result is a permutation of the
 * concatenation), so it asks for can_reorder=True; ours keeps the order. */
static TV bi_cat(Sema *S, CallArgs *a) {
    TV x, y;
    if (!need_tensor(S, a, 0, &x) || !need_tensor(S, a, 1, &y)) return tv_err();
    if (!GIVEN(2) || !cx_truthy(A(2)))
        return sema_error(S, "current implementation of `cat` always may reorder elements: pass can_reorder=True");
    if (!tl_is_block(x.ty) || x.ty->rank != 1 || x.ty != y.ty)
        return sema_error(S, "cat() needs two 1-D tensors of the same type, got %s and %s", tl_cstr(S, x.ty),
                          tl_cstr(S, y.ty));
    int64_t n = x.ty->shape[0] * 2;
    const TlType *t = tl_block(S, x.ty->elem, &n, 1);
    return tv_tensor(sem_ir(S, TT_CAT, t, x.v, y.v), t);
}

/* Positions 0..n-1 along dimension `dim` of shape[], broadcast to it. */
static TV positions(Sema *S, const int64_t *shape, int rank, int dim) {
    TV lo = tv_int(0), hi = tv_int(shape[dim]);
    TV pos = sem_arange(S, &lo, &hi);
    for (int d = 0; d < dim; d++) pos = sem_expand_dims(S, pos, 0);
    for (int d = dim + 1; d < rank; d++) pos = sem_expand_dims(S, pos, d);
    return sem_broadcast_to(S, pos, shape, rank);
}

/* tl.flip(x, dim=None): reverses dimension `dim` (the last by default, as
 * Triton's standard.py), whose size must be a power of 2: a tt.gather of
 * position n-1-i. (Triton views the dimension as [2] * log2(n) and xors.) */
static TV bi_flip(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    if (!tl_is_block(x.ty)) return sema_error(S, "flip() needs a tensor, got %s", tl_cstr(S, x.ty));
    int r = x.ty->rank, dim = r - 1;
    if (GIVEN(1)) {
        if (!tv_is_int(A(1))) return sema_error(S, "flip(): dim must be a constexpr int");
        dim = wrap_axis_tv(S, A(1), r);
        if (dim < 0) return tv_err();
    }
    int64_t n = x.ty->shape[dim];
    if (n & (n - 1)) return sema_error(S, "flip(): the size of dimension %d (%lld) is not a power of 2", dim, (long long)n);
    if (n == 1) return x;
    TV rev = sem_binary(S, PY_BIN_SUB, tv_int(n - 1), positions(S, x.ty->shape, r, dim));
    if (rev.kind == TV_ERR) return rev;
    return gather_op(S, x, rev, dim);
}

/* tl.sort(x, dim=None, descending=False) along the last dimension (the only
 * one Triton sorts), by Triton 3.6's bitonic network (standard.py's
 * sort_impl), so that ties, -0.0 and NaN come out as Triton's do: for
 * n = 2^L, merge stages 1..L; stage s runs compare-exchanges at strides
 * 2^(s-1), ..., 1 with the direction `flip` of each element's block, bit s
 * of its position (all `descending` at the last stage). A compare-exchange
 * is one tt.gather of every element's partner (position ^ stride); each
 * element decides alone, from its own view of the pair:
 *     x = (x > partner) != (flip ^ is_right) ? partner : x
 * which is a swap of two ordered values, but where neither is greater (a
 * NaN, or -0.0 beside 0.0) exactly one side takes the other's value: the
 * pair comes out as two copies of one of them, as on Triton.
 * L(L+1)/2 steps of n/2 compare-exchanges each: O(n log^2 n).
 * bitonic_merge_stage runs one stage: `order` 0 ascending, 1 descending, 2
 * alternating by bit `stage` of the position. tl.bitonic_merge runs the
 * last stage alone; tl.topk the first log2(k) and then halving ones. */
static TV bitonic_merge_stage(Sema *S, TV x, int stage, int order) {
    int r = x.ty->rank;
    TV pos = positions(S, x.ty->shape, r, r - 1);
    if (pos.kind == TV_ERR) return pos;
    TV flip = tv_int(0);
    if (order == 2) {
        TV bit = sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, pos, tv_int(stage)), tv_int(1));
        flip = sem_compare(S, PY_CMP_NE, bit, tv_int(0));
    }
    for (int k = stage - 1; k >= 0; k--) {
        TV partner = gather_op(S, x, sem_binary(S, PY_BIN_BITXOR, pos, tv_int((int64_t)1 << k)), r - 1);
        TV bit = sem_binary(S, PY_BIN_BITAND, pos, tv_int((int64_t)1 << k));
        TV dir = sem_compare(S, PY_CMP_NE, bit, tv_int(0)); /* the right one of its pair */
        if (order == 2) dir = sem_binary(S, PY_BIN_BITXOR, dir, flip);
        else if (order == 1) dir = sem_not(S, dir);
        TV swap = sem_compare(S, PY_CMP_NE, sem_compare(S, PY_CMP_GT, x, partner), dir);
        x = sem_where(S, swap, partner, x);
        if (x.kind == TV_ERR) return x;
    }
    return x;
}

static int log2_of(int64_t n) {
    int L = 0;
    while (((int64_t)1 << L) < n) L++;
    return L;
}

static TV sort_last(Sema *S, TV x, bool desc) {
    int L = log2_of(x.ty->shape[x.ty->rank - 1]);
    for (int stage = 1; stage <= L && x.kind != TV_ERR; stage++) x = bitonic_merge_stage(S, x, stage, stage < L ? 2 : desc);
    return x;
}

/* The checks tl.sort and tl.topk share: a tensor, sorted along its last
 * dimension, of a power-of-2 size. */
static bool sortable(Sema *S, CallArgs *a, const char *what, int dim_arg, TV *x) {
    if (!need_tensor(S, a, 0, x)) return false;
    if (!tl_is_block(x->ty)) {
        sema_error(S, "%s() needs a tensor, got %s", what, tl_cstr(S, x->ty));
        return false;
    }
    int r = x->ty->rank;
    if (GIVEN(dim_arg) && (!tv_is_int(A(dim_arg)) || wrap_axis_tv(S, A(dim_arg), r) != r - 1)) {
        sema_error(S, "%s(): only the last dimension is currently supported", what);
        return false;
    }
    int64_t n = x->ty->shape[r - 1];
    if (n & (n - 1)) {
        sema_error(S, "%s(): the size of the last dimension (%lld) is not a power of 2", what, (long long)n);
        return false;
    }
    return true;
}

static TV bi_sort(Sema *S, CallArgs *a) {
    TV x;
    if (!sortable(S, a, "sort", 1, &x)) return tv_err();
    return sort_last(S, x, GIVEN(2) && cx_truthy(A(2)));
}

/* tl.bitonic_merge(x, dim=None, descending=False): the last stage of the
 * bitonic network over the last dimension, which sorts a bitonic sequence. */
static TV bi_bitonic_merge(Sema *S, CallArgs *a) {
    TV x;
    if (!sortable(S, a, "bitonic_merge", 1, &x)) return tv_err();
    return bitonic_merge_stage(S, x, log2_of(x.ty->shape[x.ty->rank - 1]), GIVEN(2) && cx_truthy(A(2)));
}

/* tl.topk(x, k, dim=None, descending=True): the k largest (smallest) values
 * along the last dimension, largest (smallest) first, as standard.py's
 * sort_impl finds them: the first log2(k) stages of the sort, then, until
 * k are left, halve the dimension with tl.max (tl.min) of the pairs
 * k apart (so a NaN loses to a number, and values narrower than 32 bits
 * come out as fp32 or int32, as tl.max makes them) and merge again. With
 * k = n it is tl.sort. */
static TV bi_topk(Sema *S, CallArgs *a) {
    TV x;
    if (!sortable(S, a, "topk", 2, &x)) return tv_err();
    int r = x.ty->rank;
    int64_t n = x.ty->shape[r - 1];
    if (!tv_is_int(A(1))) return sema_error(S, "topk(): k must be a constexpr int");
    int64_t k = a->v[1].i;
    if (k < 1 || k > n || (k & (k - 1)))
        return sema_error(S, "topk(): k (%lld) must be a power of 2 no larger than the last dimension (%lld)", (long long)k,
                          (long long)n);
    bool desc = !GIVEN(3) || cx_truthy(A(3));
    int log_n = log2_of(n), log_k = log2_of(k);
    for (int i = 1; i <= log_k && x.kind != TV_ERR; i++) x = bitonic_merge_stage(S, x, i, i < log_n ? 2 : desc);
    for (int i = log_k + 1; i <= log_n && x.kind != TV_ERR; i++) {
        if (r + 2 > TL_MAX_RANK) return sema_error(S, "topk(): a tensor of rank %d is too large", r);
        const TlType *s = tl_sca(x.ty);
        if (tl_bitwidth(s) < 32) x = sem_cast(S, x, tl_is_float(s) ? tl_scalar(S, TL_FP32) : tl_scalar(S, TL_I32), NULL);
        int64_t shape[TL_MAX_RANK];
        memcpy(shape, x.ty->shape, sizeof(int64_t) * (size_t)r);
        int64_t m = shape[r - 1];
        shape[r - 1] = m / (2 * k), shape[r] = 2, shape[r + 1] = k;
        x = sem_reshape(S, x, shape, r + 2, false);
        if (x.kind == TV_ERR) return x;
        TV axis = tv_int(r);
        x = do_reduce(S, &x, 1, &axis, false, desc ? CB_MAX : CB_MIN, false, NULL);
        if (x.kind == TV_ERR) return x;
        shape[r - 1] = m / 2;
        x = sem_reshape(S, x, shape, r, false);
        if (x.kind == TV_ERR) return x;
        x = bitonic_merge_stage(S, x, log_k, i < log_n ? 2 : desc);
    }
    return x;
}

/* ---- casts ----------------------------------------------------------------------- */

static TV bi_cast(Sema *S, CallArgs *a) {
    TV x = a->v[0];
    const TlType *dt = need_dtype(S, a, 1);
    if (x.kind == TV_ERR || !dt) return tv_err();
    x = sem_to_tensor(S, &x);
    const char *rnd = NULL;
    if (GIVEN(2)) {
        if (a->v[2].kind != TV_STR) return sema_error(S, "fp_downcast_rounding must be a string");
        rnd = a->v[2].s;
    }
    if (a->given[3] && cx_truthy(A(3))) {
        if (rnd) return sema_error(S, "fp_downcast_rounding cannot be used with bitcast=True");
        return sem_bitcast(S, x, dt);
    }
    return sem_cast(S, x, dt, rnd);
}

static TV bi_hint(Sema *S, CallArgs *a) {
    TV x;
    if (!need_tensor(S, a, 0, &x)) return tv_err();
    int64_t vals[TL_MAX_RANK];
    int n = 0;
    if (tv_is_int(A(1))) vals[n++] = a->v[1].i;
    else if (a->v[1].kind == TV_TUPLE && a->v[1].n <= TL_MAX_RANK) {
        for (int i = 0; i < a->v[1].n; i++) {
            if (!tv_is_int(&a->v[1].elems[i])) return sema_error(S, "%s(): values must be constexpr ints", a->bi->name);
            vals[n++] = a->v[1].elems[i].i;
        }
    } else {
        return sema_error(S, "%s(): values must be constexpr ints", a->bi->name);
    }
    int rank = tl_is_block(x.ty) ? x.ty->rank : 0;
    int want = a->bi->arg == 0 ? (rank > 1 ? rank : 1) : rank;
    if (n != want)
        return sema_error(S, "Shape of input to %s does not match the length of values", a->bi->name);
    /* the attribute holds int32s, as Triton's make_attr takes them (a value
     * past them was truncated: multiple_of(x, 2**40) became divisibility 0) */
    for (int i = 0; i < n; i++) {
        const TV *v = tv_is_int(A(1)) ? A(1) : &A(1)->elems[i];
        if (v->u64)
            return sema_error(S, "%s(): values must fit in int32, got %llu", a->bi->name,
                              (unsigned long long)(uint64_t)v->i);
        if (v->i < INT32_MIN || v->i > INT32_MAX)
            return sema_error(S, "%s(): values must fit in int32, got %lld", a->bi->name, (long long)v->i);
    }
    static const char *const names[] = {"tt.divisibility", "tt.contiguity", "tt.constancy"};
    if (x.v->def) {
        int64_t shape = n;
        Type *t = ty_tensor(S->ctx, &shape, 1, ty_i32(S->ctx), NULL);
        op_set_attr(S->ctx, x.v->def, names[a->bi->arg], attr_dense_int(S->ctx, t, vals, n));
    }
    return x;
}

/* ---- debugging ---------------------------------------------------------------------- */

static TV bi_static_assert(Sema *S, CallArgs *a) {
    TV c = a->v[0];
    if (c.kind == TV_ERR) return c;
    if (!tv_is_const(&c))
        return sema_error(S, "Assertion condition could not be determined at compile-time. Make sure that it depends "
                             "only on `constexpr` values");
    if (!cx_truthy(&c)) {
        StrBuf sb = {0};
        if (a->given[1]) tv_str(S, A(1), &sb);
        sema_error(S, "static_assert failed%s%s", sb.len ? ": " : "", sb_cstr(&sb));
        sb_free(&sb);
        return tv_err();
    }
    return tv_none();
}

static TV bi_static_print(Sema *S, CallArgs *a) {
    StrBuf sb = {0};
    int n;
    const TV *v = unpack_var(A(0), &n);
    for (int i = 0; i < n; i++) {
        if (i) sb_putc(&sb, ' ');
        tv_str(S, &v[i], &sb);
    }
    if (!S->quiet) diag_report(S->de, DIAG_NOTE, S->loc, 1, "static_print: %s", sb_cstr(&sb));
    sb_free(&sb);
    return tv_none();
}

static TV bi_device_print(Sema *S, CallArgs *a) {
    const char *prefix;
    if (a->v[0].kind != TV_STR) return sema_error(S, "device_print(): the prefix must be a string");
    prefix = a->v[0].s;
    int n = a->v[1].n;
    VEC(Value *) ops = {0};
    int64_t sg[32];
    if (n > 32) return sema_error(S, "too many arguments to device_print");
    for (int i = 0; i < n; i++) {
        TV v = a->v[1].elems[i];
        if (v.kind == TV_ERR) return v;
        v = sem_to_tensor(S, &v);
        if (v.kind == TV_ERR) return v;
        vec_push(&ops, v.v);
        sg[i] = tl_is_signed(tl_sca(v.ty));
    }
    /* prefix normalisation as semantic.device_print */
    StrBuf p = {0};
    sb_puts(&p, prefix);
    if (n && (p.len == 0 || p.data[p.len - 1] != ' ')) sb_putc(&p, ' ');
    if (n && !(p.len >= 2 && p.data[p.len - 2] == ':' && p.data[p.len - 1] == ' ')) {
        p.data[p.len - 1] = 0;
        p.len--;
        sb_puts(&p, ": ");
    }
    const char *pre = sb_cstr(&p);
    const char *final = (p.len > 2 && pre[0] != ' ') ? arena_printf(S->arena, " %s", pre) : arena_strdup(S->arena, pre);
    sb_free(&p);
    Op *op = sem_op(S, TT_PRINT, ops.data, ops.len, NULL, 0, 0);
    op_set_attr(S->ctx, op, "prefix", attr_string(S->ctx, final));
    op_set_attr(S->ctx, op, "hex", attr_bool(S->ctx, a->given[2] && cx_truthy(A(2))));
    op_set_attr(S->ctx, op, "isSigned", attr_dense_array(S->ctx, ty_i32(S->ctx), sg, n));
    vec_free(&ops);
    return tv_none();
}

static TV bi_py_print(Sema *S, CallArgs *a) {
    /* print(...) in a kernel is Triton's device_print: a leading string is
     * the prefix (`print("x", x)`); without one the prefix is empty */
    TV args[2];
    args[0] = (TV){.kind = TV_STR, .s = ""};
    args[1] = a->v[0];
    if (a->v[0].kind == TV_TUPLE && a->v[0].n > 0 && a->v[0].elems[0].kind == TV_STR) {
        args[0] = a->v[0].elems[0];
        args[1].elems = a->v[0].elems + 1;
        args[1].n = a->v[0].n - 1;
    }
    CallArgs b = *a;
    b.v[0] = args[0];
    b.v[1] = args[1];
    b.given[0] = b.given[1] = true;
    b.given[2] = false;
    return bi_device_print(S, &b);
}

/* tl.device_assert(cond, msg="", mask=None) and the `assert` statement:
 * dropped unless the kernel is compiled in debug mode (Triton's debug=True /
 * TRITON_DEBUG=1); then a tt.assert of cond (or not mask), which the CPU
 * backend checks per element and reports as a launch error. */
TV sema_device_assert(Sema *S, TV cond, const TV *msg, const TV *mask) {
    if (cond.kind == TV_ERR || (msg && msg->kind == TV_ERR) || (mask && mask->kind == TV_ERR)) return tv_err();
    if (msg && msg->kind != TV_STR && msg->kind != TV_NONE)
        return sema_error(S, "device_assert(): the message must be a string, got %s", tv_kind_name(msg));
    if (!S->debug || (tv_is_num(&cond) && cx_truthy(&cond))) return tv_none();
    cond = sem_to_tensor(S, &cond);
    if (cond.kind != TV_TENSOR) return sema_error(S, "device_assert(): the condition must be a tensor or a number");
    if (!tl_is_bool(tl_sca(cond.ty))) cond = sem_compare(S, PY_CMP_NE, cond, tv_int(0));
    if (mask && mask->kind != TV_NONE) {
        TV m = sem_to_tensor(S, mask);
        cond = sem_binary(S, PY_BIN_BITOR, cond, sem_not(S, m));
    }
    if (cond.kind == TV_ERR) return cond;
    Op *op = sem_op(S, TT_ASSERT, &cond.v, 1, NULL, 0, 0);
    op_set_attr(S->ctx, op, "message", attr_string(S->ctx, msg && msg->kind == TV_STR ? msg->s : ""));
    return tv_none();
}

static TV bi_device_assert(Sema *S, CallArgs *a) {
    return sema_device_assert(S, a->v[0], GIVEN(1) ? A(1) : NULL, GIVEN(2) ? A(2) : NULL);
}

/* tl.assume(cond): an optimisation hint (llvm.assume in Triton). The
 * condition is evaluated for its errors and dropped: no pass here uses it. */
static TV bi_assume(Sema *S, CallArgs *a) {
    TV c = a->v[0];
    if (c.kind == TV_ERR) return c;
    if (c.kind == TV_TENSOR && tl_is_block(c.ty)) return sema_error(S, "assume() needs a scalar condition");
    return tv_none();
}

/* tl.map_elementwise(scalar_fn, *args, pack=1): the @jit function applied
 * to each element of the arguments broadcast together, as Triton's
 * tt.map_elementwise: a region whose block arguments are one element of
 * each argument, the function inlined there on scalars (its control flow
 * runs per element), ending in tt.map_elementwise.return of its results; a
 * tuple of results gives a tuple of tensors. Without a tensor argument it
 * is the call itself. */
static TV bi_map_elementwise(Sema *S, CallArgs *a) {
    TV fn = a->v[0];
    if (fn.kind == TV_ERR) return fn;
    if (fn.kind != TV_JITFN) return sema_error(S, "map_elementwise(): scalar_fn must be a @triton.jit function");
    if (GIVEN(2) && (A(2)->kind != TV_INT || A(2)->i != 1))
        return sema_error(S, "tl.map_elementwise(): pack > 1 is not supported by tritonc yet");
    int n = A(1)->n;
    if (n < 1 || n > 8) return sema_error(S, "map_elementwise() takes 1 to 8 tensors, got %d", n);
    TV xs[8];
    bool any_block = false;
    for (int i = 0; i < n; i++) {
        xs[i] = A(1)->elems[i];
        if (xs[i].kind == TV_ERR) return xs[i];
        xs[i] = sem_to_tensor(S, &xs[i]);
        if (xs[i].kind == TV_ERR) return xs[i];
        any_block |= tl_is_block(xs[i].ty);
    }
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!sem_broadcast_pair(S, &xs[j], &xs[i])) return tv_err();
    if (!any_block) return cg_call_jit(S, &fn, xs, n, NULL, NULL, 0, true);
    Block *blk = block_create(S->ctx);
    TV bargs[8];
    for (int i = 0; i < n; i++) {
        const TlType *st = tl_sca(xs[i].ty);
        bargs[i] = tv_tensor(block_add_arg(S->ctx, blk, st->ir, S->loc), st);
    }
    Builder saved = S->b;
    S->b = builder_at_end(S->ctx, blk);
    TV r = cg_call_jit(S, &fn, bargs, n, NULL, NULL, 0, true);
    int nres = r.kind == TV_TUPLE ? r.n : 1;
    TV res[8];
    Value *vals[8];
    bool ok = r.kind != TV_ERR && nres >= 1 && nres <= 8;
    for (int i = 0; ok && i < nres; i++) {
        res[i] = r.kind == TV_TUPLE ? r.elems[i] : r;
        res[i] = sem_to_tensor(S, &res[i]);
        ok = res[i].kind == TV_TENSOR && !tl_is_block(res[i].ty);
        if (!ok && res[i].kind != TV_ERR) sema_error(S, "map_elementwise(): scalar_fn must return scalars");
        if (ok) vals[i] = res[i].v;
    }
    if (ok) {
        S->b.loc = S->loc;
        build_op(&S->b, TT_MAP_ELEMENTWISE_RETURN, vals, nres, NULL, 0, 0);
    }
    S->b = saved;
    if (!ok) return tv_err();
    const TlType *shape = xs[0].ty, *tls[8];
    Value *ops[8];
    Type *rts[8];
    for (int i = 0; i < n; i++) ops[i] = xs[i].v;
    for (int i = 0; i < nres; i++) {
        tls[i] = tl_block(S, tl_sca(res[i].ty), shape->shape, shape->rank);
        rts[i] = tls[i]->ir;
    }
    Op *op = sem_op(S, TT_MAP_ELEMENTWISE, ops, n, rts, nres, 1);
    region_push_block(&op->regions[0], blk);
    if (r.kind != TV_TUPLE) return tv_tensor(op_result(op, 0), tls[0]);
    TV t = {.kind = TV_TUPLE, .n = nres};
    t.elems = ARENA_ARRAY(S->arena, TV, nres);
    for (int i = 0; i < nres; i++) t.elems[i] = tv_tensor(op_result(op, i), tls[i]);
    return t;
}

/* An operand of tl.dot_scaled in fp32: fp8 (e4m3, e5m2: uint8 bits or the
 * fp8 dtype) converted, fp4 (e2m1: two to a uint8, the first element in the
 * low nibble, packed along K or, k_pack false, along M/N) decoded from its
 * sign, 2-bit exponent and 1-bit mantissa and unpacked, bf16/fp16 widened.
 * `is_rhs`: x is [K, N] (or its packed form), else [M, K]. */
static TV mx_decode(Sema *S, TV x, const char *fmt, bool is_rhs, bool k_pack) {
    const TlType *f32 = tl_scalar(S, TL_FP32), *u8 = tl_scalar(S, TL_U8);
    TlKind k = tl_sca(x.ty)->kind;
    bool bits8 = k == TL_U8 || k == TL_I8;
    if (!strcmp(fmt, "bf16") || !strcmp(fmt, "fp16")) {
        if (k != (fmt[0] == 'b' ? TL_BF16 : TL_FP16))
            return sema_error(S, "dot_scaled: a %s operand must be a %s tensor, got %s", fmt, fmt, tl_cstr(S, x.ty));
        return sem_cast(S, x, f32, NULL);
    }
    if (!strcmp(fmt, "e4m3") || !strcmp(fmt, "e5m2")) {
        const TlType *f8 = tl_scalar(S, fmt[1] == '4' ? TL_FP8E4NV : TL_FP8E5);
        if (bits8) x = sem_bitcast(S, sem_bitcast(S, x, u8), f8);
        else if (tl_sca(x.ty) != f8)
            return sema_error(S, "dot_scaled: a %s operand must be uint8 or %s, got %s", fmt, tl_cstr(S, f8),
                              tl_cstr(S, x.ty));
        return sem_cast(S, x, f32, NULL);
    }
    if (strcmp(fmt, "e2m1"))
        return sema_error(S, "dot_scaled: unknown format '%s' (e2m1, e4m3, e5m2, bf16, fp16)", fmt);
    if (!bits8) return sema_error(S, "dot_scaled: e2m1 operands are packed two to a uint8, got %s", tl_cstr(S, x.ty));
    x = sem_bitcast(S, x, u8);
    TV half[2];
    for (int h = 0; h < 2; h++) {
        TV nib = sem_binary(S, PY_BIN_BITAND, h ? sem_binary(S, PY_BIN_RSHIFT, x, tv_int(4)) : x, tv_int(15));
        nib = sem_cast(S, nib, tl_scalar(S, TL_I32), NULL);
        TV e = sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, nib, tv_int(1)), tv_int(3));
        TV m = sem_cast(S, sem_binary(S, PY_BIN_BITAND, nib, tv_int(1)), f32, NULL);
        /* e = 0: m / 2 (0 or 0.5); else (1 + m / 2) 2^(e - 1) */
        TV p2 = sem_where(S, sem_compare(S, PY_CMP_EQ, e, tv_int(1)), tv_float(1.0),
                          sem_where(S, sem_compare(S, PY_CMP_EQ, e, tv_int(2)), tv_float(2.0), tv_float(4.0)));
        TV norm = sem_binary(S, PY_BIN_MUL, sem_binary(S, PY_BIN_ADD, sem_binary(S, PY_BIN_MUL, m, tv_float(0.5)),
                                                       tv_float(1.0)), p2);
        TV v = sem_where(S, sem_compare(S, PY_CMP_EQ, e, tv_int(0)), sem_binary(S, PY_BIN_MUL, m, tv_float(0.5)), norm);
        TV neg = sem_compare(S, PY_CMP_NE, sem_binary(S, PY_BIN_BITAND, nib, tv_int(8)), tv_int(0));
        half[h] = sem_where(S, neg, sem_minus(S, v), v);
    }
    TV j = join(S, half[0], half[1]); /* [R, C, 2] */
    if (j.kind == TV_ERR) return j;
    int64_t R = x.ty->shape[0], C = x.ty->shape[1];
    /* the packed dimension: K (columns of lhs, rows of rhs) with k_pack,
     * else M (rows of lhs) or N (columns of rhs) */
    bool rows = is_rhs == k_pack;
    if (!rows) return sem_reshape(S, j, (int64_t[]){R, 2 * C}, 2, false);
    int perm[3] = {0, 2, 1};
    return sem_reshape(S, sem_permute(S, j, perm, 3), (int64_t[]){2 * R, C}, 2, false);
}

/* x (fp32, [M, K] or, is_rhs, [K, N]) times its scales ([M, K/B] or
 * [N, K/B]): uint8 e8m0 scales, 2^(s - 127) (255 NaN), each on B = 32
 * elements along K (the mx formats), or float8e4nv scales, each on B = 16
 * (nvfp4), as Triton tells the two apart by the scale's dtype. */
static TV mx_scale(Sema *S, TV x, TV sc, bool is_rhs) {
    if (sc.kind == TV_NONE) return x;
    TlKind sk = sc.kind == TV_TENSOR ? tl_sca(sc.ty)->kind : TL_FP32;
    bool e8m0 = sk == TL_U8 || sk == TL_I8;
    if (sc.kind != TV_TENSOR || !tl_is_block(sc.ty) || sc.ty->rank != 2 || (!e8m0 && sk != TL_FP8E4NV))
        return sema_error(S, "dot_scaled: a scale must be a 2D tensor of uint8 (e8m0, one per 32 elements) or "
                             "float8e4nv (nvfp4, one per 16)");
    int64_t MN = x.ty->shape[is_rhs ? 1 : 0], K = x.ty->shape[is_rhs ? 0 : 1], B = e8m0 ? 32 : 16;
    if (sc.ty->shape[0] != MN || sc.ty->shape[1] * B != K)
        return sema_error(S, "dot_scaled: the scale's shape must be [%lld, %lld] (one per %lld elements along K), got %s",
                          (long long)MN, (long long)(K / B), (long long)B, tl_cstr(S, sc.ty));
    const TlType *i32 = tl_scalar(S, TL_I32), *f32 = tl_scalar(S, TL_FP32);
    TV f;
    if (e8m0) {
        TV s = sem_cast(S, sem_bitcast(S, sc, tl_scalar(S, TL_U8)), i32, NULL);
        f = sem_bitcast(S, sem_binary(S, PY_BIN_LSHIFT, s, tv_int(23)), f32);
        f = sem_where(S, sem_compare(S, PY_CMP_EQ, s, tv_int(0)), tv_float(0x1p-127), f);
        f = sem_where(S, sem_compare(S, PY_CMP_EQ, s, tv_int(255)), tv_float(NAN), f);
    } else {
        f = sem_cast(S, sc, f32, NULL);
    }
    TV b = sem_broadcast_to(S, sem_expand_dims(S, f, 2), (int64_t[]){MN, K / B, B}, 3);
    b = sem_reshape(S, b, (int64_t[]){MN, K}, 2, false);
    if (is_rhs) b = sem_permute(S, b, (int[]){1, 0}, 2);
    return sem_binary(S, PY_BIN_MUL, x, b);
}

/* tl.dot_scaled: the microscaled operands decoded and scaled, then a tl.dot
 * in bf16 (fp16 when an operand's format is fp16), as Triton emulates it on
 * GPUs without block-scaled tensor cores (the H100 among them); every
 * e2m1/e4m3/e5m2 value times a power of two is exact there, and so is an
 * e2m1 value times an e4m3 scale (nvfp4: at most 5 significant bits). */
static TV bi_dot_scaled(Sema *S, CallArgs *a) {
    TV lhs = a->v[0], rhs = a->v[3];
    if (lhs.kind == TV_ERR || rhs.kind == TV_ERR) return tv_err();
    if (a->v[2].kind != TV_STR || a->v[5].kind != TV_STR)
        return sema_error(S, "dot_scaled: lhs_format and rhs_format must be constexpr strings");
    if (lhs.kind != TV_TENSOR || rhs.kind != TV_TENSOR || !tl_is_block(lhs.ty) || !tl_is_block(rhs.ty) ||
        lhs.ty->rank != 2 || rhs.ty->rank != 2)
        return sema_error(S, "dot_scaled: lhs and rhs must be 2D tensors");
    bool lk = !GIVEN(8) || cx_truthy(A(8)), rk = !GIVEN(9) || cx_truthy(A(9));
    const char *lf = a->v[2].s, *rf = a->v[5].s;
    TV x = mx_decode(S, lhs, lf, false, lk), y = mx_decode(S, rhs, rf, true, rk);
    if (x.kind == TV_ERR || y.kind == TV_ERR) return tv_err();
    if (x.ty->shape[1] != y.ty->shape[0])
        return sema_error(S, "dot_scaled: lhs is %s and rhs %s after unpacking: their K differ", tl_cstr(S, x.ty),
                          tl_cstr(S, y.ty));
    x = mx_scale(S, x, a->v[1], false);
    y = mx_scale(S, y, a->v[4], true);
    if (x.kind == TV_ERR || y.kind == TV_ERR) return tv_err();
    const TlType *ct = tl_scalar(S, !strcmp(lf, "fp16") || !strcmp(rf, "fp16") ? TL_FP16 : TL_BF16);
    CallArgs d = {.bi = a->bi};
    for (int i = 0; i < MAX_CALL_ARGS; i++) d.v[i] = tv_none();
    d.v[0] = sem_cast(S, x, ct, NULL), d.given[0] = true;
    d.v[1] = sem_cast(S, y, ct, NULL), d.given[1] = true;
    if (GIVEN(6)) d.v[2] = a->v[6], d.given[2] = true;
    if (GIVEN(10)) d.v[6] = a->v[10], d.given[6] = true;
    return bi_dot(S, &d);
}

/* tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
 * the arguments broadcast to one shape, one result per dtype (a tuple of
 * dtypes gives a tuple), as Triton's semantic.inline_asm_elementwise. The
 * PTX backend splices the text per element; the CPU backend rejects it. */
static TV bi_inline_asm(Sema *S, CallArgs *a) {
    for (int i = 0; i < 6; i++)
        if (a->v[i].kind == TV_ERR) return tv_err();
    if (a->v[0].kind != TV_STR || a->v[1].kind != TV_STR)
        return sema_error(S, "inline_asm_elementwise(): asm and constraints must be constexpr strings");
    int nargs;
    const TV *args = a->v[2].kind == TV_TUPLE ? a->v[2].elems : &a->v[2];
    nargs = a->v[2].kind == TV_TUPLE ? a->v[2].n : a->v[2].kind == TV_NONE ? 0 : 1;
    if (nargs > 16) return sema_error(S, "inline_asm_elementwise(): too many arguments");
    TV in[16];
    for (int i = 0; i < nargs; i++) {
        in[i] = sem_to_tensor(S, &args[i]);
        if (in[i].kind != TV_TENSOR) return sema_error(S, "inline_asm_elementwise(): arguments must be tensors");
    }
    /* broadcast every argument to the common shape */
    for (int i = 1; i < nargs; i++)
        if (!sem_broadcast_pair(S, &in[0], &in[i])) return tv_err();
    for (int i = 1; i < nargs; i++)
        if (!sem_broadcast_pair(S, &in[0], &in[i])) return tv_err();
    int ndt = a->v[3].kind == TV_TUPLE ? a->v[3].n : 1;
    const TV *dts = a->v[3].kind == TV_TUPLE ? a->v[3].elems : &a->v[3];
    if (ndt < 1 || ndt > 8) return sema_error(S, "inline_asm_elementwise(): expected 1 to 8 result dtypes");
    const TlType *rt[8];
    Type *irt[8];
    for (int i = 0; i < ndt; i++) {
        if (dts[i].kind != TV_DTYPE || tl_is_block(dts[i].ty) || tl_is_ptr(dts[i].ty))
            return sema_error(S, "inline_asm_elementwise(): dtype must be a scalar dtype or a tuple of them");
        if (!tl_dtype_usable(S, dts[i].ty)) return tv_err();
        rt[i] = nargs ? tl_with_elem(S, in[0].ty, dts[i].ty) : dts[i].ty;
        irt[i] = rt[i]->ir;
    }
    int64_t pack = 1;
    if (a->given[5] && a->v[5].kind != TV_NONE) {
        /* (an i32 attribute: 2**32 + 1 was 1) */
        if (a->v[5].kind != TV_INT || a->v[5].u64 || a->v[5].i < 1 || a->v[5].i > INT32_MAX) {
            at_arg(S, a, 5);
            return sema_error(S, "inline_asm_elementwise(): pack must be a positive int32");
        }
        pack = a->v[5].i;
    }
    if (nargs && tl_is_block(in[0].ty) && tl_numel(in[0].ty) % pack)
        return sema_error(S, "inline_asm_elementwise(): the number of elements must be a multiple of pack (%lld)",
                          (long long)pack);
    Value *ops[16];
    for (int i = 0; i < nargs; i++) ops[i] = in[i].v;
    Op *op = sem_op(S, TT_ELEMENTWISE_INLINE_ASM, ops, nargs, irt, ndt, 0);
    op_set_attr(S->ctx, op, "asm_string", attr_string(S->ctx, a->v[0].s));
    op_set_attr(S->ctx, op, "constraints", attr_string(S->ctx, a->v[1].s));
    op_set_attr(S->ctx, op, "packed_element", sema_attr_i32(S, pack));
    op_set_attr(S->ctx, op, "pure", attr_bool(S->ctx, cx_truthy(&a->v[4])));
    if (ndt == 1) return tv_tensor(op_result(op, 0), rt[0]);
    TV *r = ARENA_ARRAY(S->arena, TV, ndt);
    for (int i = 0; i < ndt; i++) r[i] = tv_tensor(op_result(op, i), rt[i]);
    return (TV){.kind = TV_TUPLE, .elems = r, .n = ndt};
}

static TV bi_barrier(Sema *S, CallArgs *a) {
    (void)a;
    sem_op(S, GPU_BARRIER, NULL, 0, NULL, 0, 0);
    return tv_none();
}

/* tl.extra.cuda.gdc_wait() / gdc_launch_dependents(): programmatic
 * dependent launch, Hopper's griddepcontrol instructions, as the inline asm
 * Triton makes of them. Without a PDL launch both are no-ops, which is what
 * the CPU backend (launches run in order) and sm_80 make of them. */
static TV bi_gdc(Sema *S, CallArgs *a) {
    Type *t = tl_scalar(S, TL_I32)->ir;
    Op *op = sem_op(S, TT_ELEMENTWISE_INLINE_ASM, NULL, 0, &t, 1, 0);
    op_set_attr(S->ctx, op, "asm_string",
                attr_string(S->ctx, a->bi->arg ? "griddepcontrol.launch_dependents; // dummy $0"
                                               : "griddepcontrol.wait; // dummy $0"));
    op_set_attr(S->ctx, op, "constraints", attr_string(S->ctx, "=r"));
    op_set_attr(S->ctx, op, "packed_element", sema_attr_i32(S, 1));
    op_set_attr(S->ctx, op, "pure", attr_bool(S->ctx, false));
    return tv_none();
}

/* tl.extra.cuda.num_warps() / num_threads(): constexprs of the launch
 * options, as in Triton; globaltimer() / smid(): the special registers, as
 * the inline asm Triton makes of them (GPU only, like all inline asm). */
static TV bi_cuda_counts(Sema *S, CallArgs *a) {
    return tv_int(a->bi->arg ? S->num_warps * 32 : S->num_warps);
}

static TV bi_cuda_sreg(Sema *S, CallArgs *a) {
    bool timer = a->bi->arg == 0;
    Type *t = tl_scalar(S, timer ? TL_I64 : TL_I32)->ir;
    Op *op = sem_op(S, TT_ELEMENTWISE_INLINE_ASM, NULL, 0, &t, 1, 0);
    op_set_attr(S->ctx, op, "asm_string", attr_string(S->ctx, timer ? "mov.u64 $0, %globaltimer;" : "mov.u32 $0, %smid;"));
    op_set_attr(S->ctx, op, "constraints", attr_string(S->ctx, timer ? "=l" : "=r"));
    op_set_attr(S->ctx, op, "packed_element", sema_attr_i32(S, 1));
    op_set_attr(S->ctx, op, "pure", attr_bool(S->ctx, !timer));
    return tv_tensor(op_result(op, 0), tl_scalar(S, timer ? TL_I64 : TL_I32));
}

/* extra.cuda's fp8e4b15 conversions: named, as tl.float8e4b15 is, rather than missing */
static TV bi_cuda_unsupported(Sema *S, CallArgs *a) {
    return sema_error(S, "triton.language.extra.cuda.%s (fp8e4b15 conversions) is not supported by tritonc yet",
                      a->bi->name);
}

static const Builtin cuda_fns[] = {
    {"convert_custom_float8", 0, "*args", bi_cuda_unsupported, 0},
    {"convert_custom_float8_sm70", 0, "*args", bi_cuda_unsupported, 0},
    {"convert_custom_float8_sm80", 0, "*args", bi_cuda_unsupported, 0},
    {"gdc_wait", 0, "", bi_gdc, 0},
    {"gdc_launch_dependents", 0, "", bi_gdc, 1},
    {"num_warps", 0, "", bi_cuda_counts, 0},
    {"num_threads", 0, "", bi_cuda_counts, 1},
    {"globaltimer", 0, "", bi_cuda_sreg, 0},
    {"smid", 0, "", bi_cuda_sreg, 1},
};

/* ---- random: Philox 4x32-10, exactly random.py ----------------------------------------- */

/* Philox 4x32 constants, and Philox 4x64's for 64-bit counters (random.py
 * picks them by c0's dtype) */
#define PHILOX_KEY_A INT64_C(0x9E3779B9)
#define PHILOX_KEY_B INT64_C(0xBB67AE85)
#define PHILOX_ROUND_A INT64_C(0xD2511F53)
#define PHILOX_ROUND_B INT64_C(0xCD9E8D57)
#define PHILOX64_KEY_A UINT64_C(0x9E3779B97F4A7C15)
#define PHILOX64_KEY_B UINT64_C(0xBB67AE8584CAA73B)
#define PHILOX64_ROUND_A UINT64_C(0xD2E7470EE14C6C93)
#define PHILOX64_ROUND_B UINT64_C(0xCA5A826395121157)

static TV umulhi(Sema *S, TV x, TV y) {
    x = sem_to_tensor(S, &x);
    y = sem_to_tensor(S, &y);
    if (!sem_binary_check(S, &x, &y, false, false, true, false)) return tv_err();
    return tv_tensor(sem_ir(S, TT_MULHIUI, x.ty, x.v, y.v), x.ty);
}

/* philox_impl(c0, c1, c2, c3, k0, k1, n_rounds) */
static bool philox_impl(Sema *S, TV c[4], TV k0, TV k1, int64_t n_rounds, TV out[4]) {
    c[0] = sem_to_tensor(S, &c[0]);
    if (c[0].kind == TV_ERR) return false;
    bool wide = tl_bitwidth(c[0].ty) == 64;
    TV A = wide ? tv_uint64(PHILOX64_ROUND_A) : tv_int(PHILOX_ROUND_A);
    TV B = wide ? tv_uint64(PHILOX64_ROUND_B) : tv_int(PHILOX_ROUND_B);
    TV KA = wide ? tv_uint64(PHILOX64_KEY_A) : tv_int(PHILOX_KEY_A);
    TV KB = wide ? tv_uint64(PHILOX64_KEY_B) : tv_int(PHILOX_KEY_B);
    for (int64_t r = 0; r < n_rounds; r++) {
        TV c0 = c[0], c2 = c[2];
        c[0] = sem_binary(S, PY_BIN_BITXOR, sem_binary(S, PY_BIN_BITXOR, umulhi(S, B, c2), c[1]), k0);
        c[2] = sem_binary(S, PY_BIN_BITXOR, sem_binary(S, PY_BIN_BITXOR, umulhi(S, A, c0), c[3]), k1);
        c[1] = sem_binary(S, PY_BIN_MUL, B, c2);
        c[3] = sem_binary(S, PY_BIN_MUL, A, c0);
        k0 = sem_binary(S, PY_BIN_ADD, k0, KA);
        k1 = sem_binary(S, PY_BIN_ADD, k1, KB);
    }
    for (int i = 0; i < 4; i++) {
        if (c[i].kind == TV_ERR) return false;
        out[i] = c[i];
    }
    return true;
}

/* philox(seed, c0, c1, c2, c3, n_rounds): the counters as uint32 or uint64
 * (by c0's width), keyed by the seed's two halves (32-bit) or by the seed */
static bool philox(Sema *S, TV seed, const TV cin[4], int64_t n_rounds, TV out[4]) {
    TV c[4];
    for (int i = 0; i < 4; i++) {
        c[i] = sem_to_tensor(S, &cin[i]);
        if (c[i].kind == TV_ERR) return false;
    }
    seed = sem_to_tensor(S, &seed);
    if (seed.kind == TV_ERR) return false;
    if (!tl_is_int(tl_sca(seed.ty))) {
        sema_error(S, "the seed of tl.rand must be an integer");
        return false;
    }
    seed = sem_cast(S, seed, tl_scalar(S, TL_U64), NULL);
    const TlType *it;
    TV hi, lo;
    if (tl_bitwidth(c[0].ty) == 32) {
        it = tl_scalar(S, TL_U32);
        hi = sem_cast(S, sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, seed, tv_int(32)), tv_int(0xffffffff)), it, NULL);
        lo = sem_cast(S, sem_binary(S, PY_BIN_BITAND, seed, tv_int(0xffffffff)), it, NULL);
    } else if (tl_bitwidth(c[0].ty) == 64) {
        it = tl_scalar(S, TL_U64);
        TV zero = tv_int(0);
        int64_t one = 1;
        hi = sem_full(S, &one, 1, &zero, it);
        lo = seed;
    } else {
        sema_error(S, "bitwidth not supported in philox");
        return false;
    }
    for (int i = 0; i < 4; i++) c[i] = sem_bitcast(S, c[i], it);
    return philox_impl(S, c, lo, hi, n_rounds, out);
}

/* randint4x(seed, offset): philox(seed, offset, 0, 0, 0) */
static bool randint4x(Sema *S, TV seed, TV offset, int64_t n_rounds, TV out[4]) {
    offset = sem_to_tensor(S, &offset);
    if (offset.kind == TV_ERR) return false;
    TV z = sem_binary(S, PY_BIN_MUL, offset, tv_int(0));
    TV c[4] = {offset, z, z, z};
    return philox(S, seed, c, n_rounds, out);
}

static TV uint_to_uniform_float(Sema *S, TV x) {
    x = sem_to_tensor(S, &x);
    if (x.kind == TV_ERR) return x;
    if (!tl_is_int(tl_sca(x.ty))) return sema_error(S, "uint_to_uniform_float(): expected an integer tensor");
    double scale;
    if (tl_bitwidth(x.ty) == 32) {
        x = sem_bitcast(S, x, tl_scalar(S, TL_I32));
        scale = 4.6566127342e-10;
    } else if (tl_bitwidth(x.ty) == 64) {
        x = sem_bitcast(S, x, tl_scalar(S, TL_I64));
        scale = 1.0842020432385337e-19;
    } else {
        return sema_error(S, "uint_to_uniform_float(): expected 32 or 64 bits, got %d", tl_bitwidth(x.ty));
    }
    TV neg = sem_compare(S, PY_CMP_LT, x, tv_int(0));
    TV mx = sem_binary(S, PY_BIN_SUB, sem_minus(S, x), tv_int(1));
    x = sem_where(S, neg, mx, x);
    return sem_binary(S, PY_BIN_MUL, x, tv_float(scale));
}

/* pair_uniform_to_normal(u1, u2): Box-Muller, (r cos th, r sin th) */
static void pair_uniform_to_normal(Sema *S, TV u1, TV u2, TV out[2]) {
    u1 = sem_minmax(S, true, tv_float(1.0e-7), u1, false);
    TV th = sem_binary(S, PY_BIN_MUL, tv_float(6.283185307179586), u2);
    TV m = sem_binary(S, PY_BIN_MUL, tv_float(-2.0), tv_tensor(sem_ir(S, MATH_LOG, u1.ty, u1.v, NULL), u1.ty));
    TV r = tv_tensor(sem_ir(S, MATH_SQRT, m.ty, m.v, NULL), m.ty);
    out[0] = sem_binary(S, PY_BIN_MUL, r, tv_tensor(sem_ir(S, MATH_COS, th.ty, th.v, NULL), th.ty));
    out[1] = sem_binary(S, PY_BIN_MUL, r, tv_tensor(sem_ir(S, MATH_SIN, th.ty, th.v, NULL), th.ty));
}

/* a tuple of n elements, to be filled in */
static TV tuple_of(Sema *S, int n) {
    TV t = {.kind = TV_TUPLE, .n = n};
    t.elems = ARENA_ARRAY(S->arena, TV, n > 0 ? n : 1);
    return t;
}

/* the tuple (v[0], ..., v[n-1]), or an error if one is */
static TV tuple_from(Sema *S, const TV *v, int n) {
    for (int i = 0; i < n; i++)
        if (v[i].kind == TV_ERR) return tv_err();
    TV t = tuple_of(S, n);
    memcpy(t.elems, v, sizeof(TV) * (size_t)n);
    return t;
}

/* rand, randint, randint4x, randn, rand4x, randn4x (seed, offset, n_rounds) */
static TV bi_random(Sema *S, CallArgs *a) {
    int64_t rounds = 10;
    if (a->given[2] && !need_int(S, a, 2, &rounds)) return tv_err();
    if (a->v[0].kind == TV_ERR || a->v[1].kind == TV_ERR) return tv_err();
    TV c[4];
    if (!randint4x(S, a->v[0], a->v[1], rounds, c)) return tv_err();
    TV u[4], n[4];
    switch (a->bi->arg) {
    case 0: return uint_to_uniform_float(S, c[0]); /* rand */
    case 1: return c[0];                           /* randint */
    case 2: return tuple_from(S, c, 4);              /* randint4x */
    case 3:                                        /* randn */
        pair_uniform_to_normal(S, uint_to_uniform_float(S, c[0]), uint_to_uniform_float(S, c[1]), n);
        return n[0];
    case 4: /* rand4x */
        for (int i = 0; i < 4; i++) u[i] = uint_to_uniform_float(S, c[i]);
        return tuple_from(S, u, 4);
    default: /* randn4x */
        for (int i = 0; i < 4; i++) u[i] = uint_to_uniform_float(S, c[i]);
        pair_uniform_to_normal(S, u[0], u[1], n);
        pair_uniform_to_normal(S, u[2], u[3], n + 2);
        return tuple_from(S, n, 4);
    }
}

/* philox(seed, c0, c1, c2, c3, n_rounds=10) and
 * philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=10) */
static TV bi_philox(Sema *S, CallArgs *a) {
    int impl = a->bi->arg;
    int64_t rounds = 10;
    int ri = impl ? 6 : 5;
    if (a->given[ri] && !need_int(S, a, ri, &rounds)) return tv_err();
    for (int i = 0; i < ri; i++)
        if (a->v[i].kind == TV_ERR) return tv_err();
    TV out[4];
    if (!impl) {
        if (!philox(S, a->v[0], a->v + 1, rounds, out)) return tv_err();
    } else {
        TV c[4];
        for (int i = 0; i < 4; i++) c[i] = sem_to_tensor(S, &a->v[i]);
        if (!philox_impl(S, c, a->v[4], a->v[5], rounds, out)) return tv_err();
    }
    return tuple_from(S, out, 4);
}

static TV bi_uint_to_uniform_float(Sema *S, CallArgs *a) { return uint_to_uniform_float(S, a->v[0]); }

static TV bi_pair_uniform_to_normal(Sema *S, CallArgs *a) {
    TV n[2];
    TV u1 = sem_to_tensor(S, &a->v[0]), u2 = sem_to_tensor(S, &a->v[1]);
    if (u1.kind == TV_ERR || u2.kind == TV_ERR) return tv_err();
    pair_uniform_to_normal(S, u1, u2, n);
    return tuple_from(S, n, 2);
}

/* ---- Python builtins and constexpr helpers --------------------------------------------- */

static TV bi_pointer_type(Sema *S, CallArgs *a) {
    const TlType *t = need_dtype(S, a, 0);
    if (!t) return tv_err();
    return tv_dtype(tl_ptr(S, t));
}

static TV bi_constexpr(Sema *S, CallArgs *a) {
    (void)S;
    return a->v[0];
}

static TV bi_range_call(Sema *S, CallArgs *a) {
    (void)a;
    return sema_error(S, "range() can only be used as the iterable of a `for` loop");
}

static TV bi_py_minmax(Sema *S, CallArgs *a) {
    int n;
    const TV *v = unpack_var(A(0), &n);
    if (n == 0) return sema_error(S, "%s expected at least 1 argument, got 0", a->bi->name);
    bool is_max = a->bi->arg != 0;
    bool all_cx = true;
    for (int i = 0; i < n; i++) all_cx &= tv_is_num(&v[i]);
    TV r = v[0];
    for (int i = 1; i < n; i++) {
        if (r.kind == TV_ERR || v[i].kind == TV_ERR) return tv_err();
        if (all_cx) {
            TV c = cx_binary(S, 100 + (is_max ? PY_CMP_GT : PY_CMP_LT), &v[i], &r);
            if (cx_truthy(&c)) r = v[i];
        } else {
            r = sem_minmax(S, is_max, r, v[i], false);
        }
    }
    return r;
}

static TV bi_len(Sema *S, CallArgs *a) {
    TV v = a->v[0];
    if (v.kind == TV_TUPLE) return tv_int(v.n);
    if (v.kind == TV_STR) return tv_int((int64_t)strlen(v.s));
    if (v.kind == TV_ERR) return v;
    return sema_error(S, "object of type '%s' has no len()", tv_kind_name(&v));
}

/* enumerate(t, start=0) and zip(t, u, ...) over tuples, for `for i, x in
 * enumerate(t):` and comprehensions, which unroll over tuples: the pairs
 * are made at compile time, as a tuple of tuples. */

static TV bi_enumerate(Sema *S, CallArgs *a) {
    TV t = a->v[0];
    if (t.kind == TV_ERR) return t;
    if (t.kind != TV_TUPLE) return sema_error(S, "enumerate() over %s: only tuples can be iterated in a kernel", tv_kind_name(&t));
    int64_t start = 0;
    if (GIVEN(1)) {
        if (A(1)->kind != TV_INT) return sema_error(S, "enumerate()'s start must be a constexpr integer");
        start = A(1)->i;
    }
    TV r = tuple_of(S, t.n);
    for (int i = 0; i < t.n; i++) {
        r.elems[i] = tuple_of(S, 2);
        r.elems[i].elems[0] = tv_int(start + i);
        r.elems[i].elems[1] = t.elems[i];
    }
    return r;
}

static TV bi_zip(Sema *S, CallArgs *a) {
    const TV *ts = A(0)->elems;
    int k = A(0)->n, n = INT32_MAX;
    for (int j = 0; j < k; j++) {
        if (ts[j].kind == TV_ERR) return ts[j];
        if (ts[j].kind != TV_TUPLE) return sema_error(S, "zip() over %s: only tuples can be iterated in a kernel", tv_kind_name(&ts[j]));
        if (ts[j].n < n) n = ts[j].n;
    }
    if (k == 0) n = 0;
    TV r = tuple_of(S, n);
    for (int i = 0; i < n; i++) {
        r.elems[i] = tuple_of(S, k);
        for (int j = 0; j < k; j++) r.elems[i].elems[j] = ts[j].elems[i];
    }
    return r;
}

/* tl.tuple(iterable): the tuple itself (Triton's tl.tuple wraps a Python
 * tuple or list; here both are already tuples). */
static TV bi_tl_tuple(Sema *S, CallArgs *a) {
    if (!a->given[0]) return tuple_of(S, 0);
    TV t = a->v[0];
    if (t.kind == TV_ERR || t.kind == TV_TUPLE) return t;
    return sema_error(S, "tl.tuple() takes a tuple or a list, got %s", tv_kind_name(&t));
}

/* tuple(t) and list(t) in a @triton.constexpr_function (plain Python
 * there, an error in a kernel, as in Triton): a tuple (what a list, a
 * comprehension or a generator expression evaluates to) as it is. */
static TV bi_py_tuple(Sema *S, CallArgs *a) {
    if (!a->given[0]) return tuple_of(S, 0);
    TV t = a->v[0];
    if (t.kind == TV_ERR || t.kind == TV_TUPLE) return t;
    return sema_error(S, "%s() of %s in a @triton.constexpr_function: tritonc iterates tuples, lists, "
                         "comprehensions and generator expressions", a->bi->name, tv_kind_name(&t));
}

static TV bi_getattr(Sema *S, CallArgs *a) {
    return cg_getattr(S, a->v[0], a->v[1], a->bi->arg == 0 && a->given[2] ? A(2) : NULL, a->bi->arg == 1);
}

/* isinstance(obj, cls or tuple of classes), as Triton evaluates it: the
 * object's constexpr wrapper is taken off first, so a constexpr 3 is an
 * int and nothing is a tl.constexpr; tl.tensor, tl.tensor_descriptor and
 * tl.dtype are the runtime classes. */
static int is_instance(Sema *S, const TV *obj, const TV *cls) {
    if (cls->kind == TV_TUPLE) {
        for (int i = 0; i < cls->n; i++) {
            int r = is_instance(S, obj, &cls->elems[i]);
            if (r != 0) return r;
        }
        return 0;
    }
    if (cls->kind == TV_BUILTIN && (cls->bi->where & BI_PY)) {
        if (!strcmp(cls->bi->name, "int")) return obj->kind == TV_INT || obj->kind == TV_BOOL;
        if (!strcmp(cls->bi->name, "float")) return obj->kind == TV_FLOAT;
        if (!strcmp(cls->bi->name, "bool")) return obj->kind == TV_BOOL;
    }
    if (cls->kind == TV_BUILTIN && !strcmp(cls->bi->name, "constexpr")) return 0;
    if (cls->kind == TV_BUILTIN && !strcmp(cls->bi->name, "pointer_type"))
        return obj->kind == TV_DTYPE && tl_is_ptr(obj->ty);
    if (cls->kind == TV_MODULE) {
        bool bptr = obj->kind == TV_TENSOR && tl_is_ptr(obj->ty) && tl_is_block(obj->ty->elem);
        if (cls->i == MOD_CLS_TENSOR) return obj->kind == TV_TENSOR && !obj->is_desc;
        if (cls->i == MOD_CLS_DESC) return bptr && obj->is_desc;
        if (cls->i == MOD_CLS_DTYPE) return obj->kind == TV_DTYPE;
    }
    sema_error(S, "isinstance(): unsupported class %s (int, float, bool, tl.tensor, tl.tensor_descriptor, "
                  "tl.dtype, tl.constexpr, or a tuple of them)", tv_kind_name(cls));
    return -1;
}

static TV bi_isinstance(Sema *S, CallArgs *a) {
    if (a->v[0].kind == TV_ERR || a->v[1].kind == TV_ERR) return tv_err();
    int r = is_instance(S, &a->v[0], &a->v[1]);
    return r < 0 ? tv_err() : tv_bool(r == 1);
}

/* The int an integral double f is, as Python makes it (int(x),
 * math.floor(x)): NaN and the infinities raise; an integer past 64 bits is
 * out of Triton's range (they were C's undefined conversion:
 * int(float('nan')) gave -2**63, math.ceil(1e30) anything). */
static TV int_of_integral(Sema *S, double f, const char *what) {
    if (isnan(f)) return sema_error(S, "cannot convert float NaN to integer");
    if (isinf(f)) return sema_error(S, "cannot convert float infinity to integer");
    if (f < -9223372036854775808.0 || f >= 18446744073709551616.0)
        return sema_error(S, "integer constant out of range: %s has more than 64 bits (Triton's integers are int64, "
                             "or uint64 up to 2**64 - 1)", what);
    return f >= 9223372036854775808.0 ? tv_uint64((uint64_t)f) : tv_int((int64_t)f);
}

static TV bi_int(Sema *S, CallArgs *a) {
    TV v = a->v[0];
    if (v.kind == TV_INT) return v; /* (a uint64 stays one: it was made negative) */
    if (v.kind == TV_BOOL) return tv_int(v.i);
    if (v.kind == TV_FLOAT) {
        char what[48];
        snprintf(what, sizeof what, "int(%g)", v.f);
        return int_of_integral(S, trunc(v.f), what);
    }
    if (v.kind == TV_ERR) return v;
    return sema_error(S, "int() argument must be a constexpr number, not '%s'", tv_kind_name(&v));
}

static TV bi_float(Sema *S, CallArgs *a) {
    TV v = a->v[0];
    if (v.kind == TV_INT || v.kind == TV_BOOL) return tv_float(v.u64 ? (double)(uint64_t)v.i : (double)v.i);
    if (v.kind == TV_FLOAT) return v;
    if (v.kind == TV_STR) {
        /* Python's float(str): surrounding blanks, a sign, inf/infinity/nan
         * in any case, or a decimal number (underscores between digits) */
        const char *p = v.s;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') p++;
        size_t n = strlen(p);
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == '\r' ||
                     p[n - 1] == '\f' || p[n - 1] == '\v'))
            n--;
        double sign = 1.0;
        const char *q = p;
        if (n && (*q == '+' || *q == '-')) sign = *q++ == '-' ? -1.0 : 1.0;
        size_t m = n - (size_t)(q - p);
        char word[9] = {0};
        if (m <= 8) {
            for (size_t k = 0; k < m; k++) word[k] = (char)(q[k] >= 'A' && q[k] <= 'Z' ? q[k] + 32 : q[k]);
            if (!strcmp(word, "inf") || !strcmp(word, "infinity")) return tv_float(sign * INFINITY);
            if (!strcmp(word, "nan")) return tv_float(copysign(NAN, sign));
        }
        char buf[128];
        size_t len = 0;
        bool ok = m > 0 && n < sizeof buf;
        for (size_t k = 0; ok && k < n; k++) {
            char ch = p[k];
            if (ch == '_') {
                /* only between two digits, as Python allows */
                ok = k > 0 && k + 1 < n && p[k - 1] >= '0' && p[k - 1] <= '9' && p[k + 1] >= '0' && p[k + 1] <= '9';
                continue;
            }
            if (!((ch >= '0' && ch <= '9') || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-')) ok = false;
            buf[len++] = ch;
        }
        if (ok) {
            buf[len] = 0;
            char *end = NULL;
            double d = strtod(buf, &end);
            if (end && end != buf && !*end) return tv_float(d);
        }
        return sema_error(S, "could not convert string to float: '%s'", v.s);
    }
    if (v.kind == TV_ERR) return v;
    return sema_error(S, "float() argument must be a constexpr number or string, not '%s'", tv_kind_name(&v));
}

static TV bi_bool(Sema *S, CallArgs *a) {
    (void)S;
    return tv_bool(cx_truthy(A(0)));
}

/* triton.next_power_of_2(n): 0 for n <= 0 and 1 for n = 1, as Triton's
 * (n - 1 with its bits smeared right, plus one) and the binding's (Python
 * tritonc.next_power_of_2); 2**63 (a uint64) for n in (2**62, 2**63];
 * past that the answer has more than 64 bits. (Doubling a power of 2 up to
 * n overflowed there and looped forever.) */
static TV bi_next_pow2(Sema *S, CallArgs *a) {
    const TV *v = A(0);
    if (!tv_is_int(v)) {
        int64_t unused;
        need_int(S, a, 0, &unused); /* (the report) */
        return tv_err();
    }
    if (!v->u64 && v->i <= 1) return tv_int(v->i == 1);
    uint64_t n = (uint64_t)v->i;
    if (n > UINT64_C(1) << 63)
        return sema_error(S, "integer constant out of range: next_power_of_2(%llu) has more than 64 bits (Triton's "
                             "integers are int64, or uint64 up to 2**64 - 1)", (unsigned long long)n);
    uint64_t p = 1;
    while (p < n) p <<= 1;
    return tv_uint64(p);
}

/* Python's math module on constexpr numbers (`math.sqrt(HEAD_DIM)`,
 * `math.log2(math.e)`): Triton's code generator calls such a function in
 * Python with the constexprs' values, so it runs at compile time and needs
 * numbers; a tensor argument is an error, as math.sqrt(tensor) is in Triton.
 * arg: the function, by index in the switch below. */
enum { PM_SQRT, PM_EXP, PM_LOG, PM_LOG2, PM_LOG10, PM_SIN, PM_COS, PM_TAN, PM_ATAN, PM_TANH, PM_ERF,
       PM_FABS, PM_CEIL, PM_FLOOR, PM_TRUNC, PM_POW, PM_ATAN2, PM_ISQRT, PM_GCD, PM_ISINF, PM_ISNAN, PM_FACTORIAL };

/* |v| of a constexpr int, in uint64 (where -2**63's fits) */
static uint64_t cx_magnitude(const TV *v) {
    return v->u64 || v->i >= 0 ? (uint64_t)v->i : 0 - (uint64_t)v->i;
}

static TV bi_pymath(Sema *S, CallArgs *a) {
    double x[2] = {0, 0};
    int nargs = strchr(a->bi->params, ',') ? 2 : 1;
    for (int i = 0; i < nargs; i++) {
        TV v = a->v[i];
        if (v.kind == TV_ERR) return v;
        if (!tv_is_num(&v))
            return sema_error(S, "math.%s() runs at compile time: its argument must be a constexpr number, not '%s'",
                              a->bi->name, tv_kind_name(&v));
        x[i] = v.kind == TV_FLOAT ? v.f : v.u64 ? (double)(uint64_t)v.i : (double)v.i;
    }
    switch (a->bi->arg) {
    case PM_SQRT:
    case PM_LOG:
    case PM_LOG2:
    case PM_LOG10:
        if (x[0] < 0 || (x[0] == 0 && a->bi->arg != PM_SQRT)) return sema_error(S, "math domain error");
        break;
    case PM_ISQRT:
    case PM_GCD:
    case PM_FACTORIAL:
        for (int i = 0; i < nargs; i++)
            if (a->v[i].kind == TV_FLOAT) return sema_error(S, "math.%s() needs integers", a->bi->name);
        break;
    default: break;
    }
    switch (a->bi->arg) {
    case PM_SQRT: return tv_float(sqrt(x[0]));
    case PM_EXP: return tv_float(exp(x[0]));
    case PM_LOG: return tv_float(log(x[0]));
    case PM_LOG2: return tv_float(log2(x[0]));
    case PM_LOG10: return tv_float(log10(x[0]));
    case PM_SIN: return tv_float(sin(x[0]));
    case PM_COS: return tv_float(cos(x[0]));
    case PM_TAN: return tv_float(tan(x[0]));
    case PM_ATAN: return tv_float(atan(x[0]));
    case PM_TANH: return tv_float(tanh(x[0]));
    case PM_ERF: return tv_float(erf(x[0]));
    case PM_FABS: return tv_float(fabs(x[0]));
    /* (an int is itself, a uint64 kept; a float past 64 bits an error) */
    case PM_CEIL:
    case PM_FLOOR:
    case PM_TRUNC: {
        if (a->v[0].kind == TV_INT) return a->v[0];
        if (a->v[0].kind == TV_BOOL) return tv_int(a->v[0].i);
        double r = a->bi->arg == PM_CEIL ? ceil(x[0]) : a->bi->arg == PM_FLOOR ? floor(x[0]) : trunc(x[0]);
        char what[48];
        snprintf(what, sizeof what, "math.%s(%g)", a->bi->name, x[0]);
        return int_of_integral(S, r, what);
    }
    case PM_POW: return tv_float(pow(x[0], x[1]));
    case PM_ATAN2: return tv_float(atan2(x[0], x[1]));
    /* in uint64: a uint64 argument is no negative number, and the
     * magnitude of -2**63 is one (math.gcd(-2**63, 0) == 2**63) */
    case PM_ISQRT: {
        if (!a->v[0].u64 && a->v[0].i < 0) return sema_error(S, "isqrt() argument must be nonnegative");
        uint64_t n = (uint64_t)a->v[0].i, r = (uint64_t)sqrt((double)n);
        while (r && r > n / r) r--;
        while (r + 1 <= n / (r + 1)) r++;
        return tv_int((int64_t)r);
    }
    case PM_GCD: {
        uint64_t p = cx_magnitude(&a->v[0]), q = cx_magnitude(&a->v[1]);
        while (q) {
            uint64_t t = p % q;
            p = q;
            q = t;
        }
        return tv_uint64(p);
    }
    case PM_FACTORIAL: { /* exact in int64 up to 20! (Python's are unbounded) */
        if (!a->v[0].u64 && a->v[0].i < 0) return sema_error(S, "factorial() not defined for negative values");
        if (a->v[0].u64 || a->v[0].i > 20)
            return sema_error(S, "math.factorial(%llu) does not fit in 64 bits, the largest integer tritonc's "
                                 "constexprs hold", (unsigned long long)a->v[0].i);
        int64_t f = 1;
        for (int64_t i = 2; i <= a->v[0].i; i++) f *= i;
        return tv_int(f);
    }
    case PM_ISINF: return tv_bool(isinf(x[0]));
    case PM_ISNAN: return tv_bool(isnan(x[0]));
    }
    return tv_err();
}

/* triton.language.target_info's constexpr functions, on the target this
 * compile is for (KernelSpec.target_sm): the CPU is neither CUDA nor HIP. */
static TV bi_target_info(Sema *S, CallArgs *a) {
    switch (a->bi->arg) {
    case 0: return tv_bool(S->target_sm > 0); /* is_cuda */
    case 1: {                                  /* cuda_capability_geq(major, minor=0) */
        int64_t major, minor = 0;
        if (!need_int(S, a, 0, &major) || (a->given[1] && !need_int(S, a, 1, &minor))) return tv_err();
        return tv_bool(S->target_sm > 0 && S->target_sm >= major * 10 + minor);
    }
    case 2: return tv_bool(false); /* is_hip, is_hip_cdna3, is_hip_cdna4 */
    default:
        return sema_error(S, "target_info.current_target() (a GPUTarget object) is not supported in kernels by tritonc");
    }
}

static const Builtin target_info_fns[] = {
    {"is_cuda", 0, "", bi_target_info, 0},      {"cuda_capability_geq", 0, "major,minor=", bi_target_info, 1},
    {"is_hip", 0, "", bi_target_info, 2},       {"is_hip_cdna3", 0, "", bi_target_info, 2},
    {"is_hip_cdna4", 0, "", bi_target_info, 2}, {"current_target", 0, "", bi_target_info, 3},
};

static const Builtin pymath_fns[] = {
    {"sqrt", 0, "x", bi_pymath, PM_SQRT},     {"exp", 0, "x", bi_pymath, PM_EXP},
    {"log", 0, "x", bi_pymath, PM_LOG},       {"log2", 0, "x", bi_pymath, PM_LOG2},
    {"log10", 0, "x", bi_pymath, PM_LOG10},   {"sin", 0, "x", bi_pymath, PM_SIN},
    {"cos", 0, "x", bi_pymath, PM_COS},       {"tan", 0, "x", bi_pymath, PM_TAN},
    {"atan", 0, "x", bi_pymath, PM_ATAN},     {"tanh", 0, "x", bi_pymath, PM_TANH},
    {"erf", 0, "x", bi_pymath, PM_ERF},       {"fabs", 0, "x", bi_pymath, PM_FABS},
    {"ceil", 0, "x", bi_pymath, PM_CEIL},     {"floor", 0, "x", bi_pymath, PM_FLOOR},
    {"trunc", 0, "x", bi_pymath, PM_TRUNC},   {"pow", 0, "x,y", bi_pymath, PM_POW},
    {"atan2", 0, "y,x", bi_pymath, PM_ATAN2}, {"isqrt", 0, "n", bi_pymath, PM_ISQRT},
    {"gcd", 0, "a,b", bi_pymath, PM_GCD},     {"isinf", 0, "x", bi_pymath, PM_ISINF},
    {"isnan", 0, "x", bi_pymath, PM_ISNAN},   {"factorial", 0, "n", bi_pymath, PM_FACTORIAL},
};

/* Python's methods of a constexpr int or float (what @constexpr_function
 * bodies use): int.bit_length(), float.is_integer(). */
static TV bi_number_method(Sema *S, CallArgs *a) {
    const char *n = a->bi->name;
    TV x = a->v[0];
    if (!strcmp(n, "bit_length")) {
        if (x.kind != TV_INT && x.kind != TV_BOOL) return sema_error(S, "bit_length() is an int method");
        uint64_t m = x.i < 0 ? (uint64_t)0 - (uint64_t)x.i : (uint64_t)x.i;
        int b = 0;
        while (m) b++, m >>= 1;
        return tv_int(b);
    }
    if (x.kind != TV_FLOAT) return sema_error(S, "is_integer() is a float method");
    return tv_bool(isfinite(x.f) && x.f == floor(x.f));
}

static TV bi_dtype_pred(Sema *S, CallArgs *a) {
    const TlType *t = a->v[0].ty;
    const char *n = a->bi->name;
    if (a->v[0].kind != TV_DTYPE) return sema_error(S, "%s() is a dtype method", n);
    if (!strcmp(n, "is_block")) return tv_bool(tl_is_block(t));
    if (!strcmp(n, "is_const") || !strcmp(n, "is_tuple")) return tv_bool(false);
    if (!strcmp(n, "is_standard_floating")) return tv_bool(tl_is_float(t) && !tl_is_fp8(t));
    if (!strcmp(n, "get_int_max_value") || !strcmp(n, "get_int_min_value")) {
        if (!tl_is_int(t)) return sema_error(S, "%s() needs an integer dtype, got %s", n, tl_cstr(S, t));
        int w = tl_bitwidth(t);
        bool mx = n[9] == 'a';
        if (tl_is_signed(t)) return mx ? tv_int(w == 64 ? INT64_MAX : (int64_t)((1ULL << (w - 1)) - 1))
                                       : tv_int(w == 64 ? INT64_MIN : -(int64_t)(1ULL << (w - 1)));
        if (!mx) return tv_int(0);
        return tv_uint64(w == 64 ? UINT64_MAX : (1ULL << w) - 1);
    }
    if (!strcmp(n, "get_block_shapes")) {
        if (!tl_is_block(t)) return sema_error(S, "'dtype' object has no attribute 'get_block_shapes'");
        TV r = {.kind = TV_TUPLE, .n = t->rank};
        r.elems = ARENA_ARRAY(S->arena, TV, t->rank + 1);
        for (int i = 0; i < t->rank; i++) r.elems[i] = tv_int(t->shape[i]);
        return r;
    }
    if (!strcmp(n, "is_floating")) return tv_bool(tl_is_float(t));
    if (!strcmp(n, "is_int")) return tv_bool(tl_is_int(t));
    if (!strcmp(n, "is_int_signed")) return tv_bool(tl_is_signed(t));
    if (!strcmp(n, "is_int_unsigned")) return tv_bool(tl_is_unsigned(t));
    if (!strcmp(n, "is_ptr")) return tv_bool(tl_is_ptr(t));
    if (!strcmp(n, "is_fp8")) return tv_bool(tl_is_fp8(t));
    if (!strcmp(n, "is_bool")) return tv_bool(tl_is_bool(t));
    return tv_bool(!strcmp(n + 3, tl_scalar_name(t->kind)));
}

/* ---- libdevice: tt.extern_elementwise -------------------------------------------------- */

/* triton.language.extra.(cuda.)libdevice.NAME(x[, y]): Triton's
 * core.extern_elementwise with the table {(fp32,...): "__nv_NAMEf", (fp64,...):
 * "__nv_NAME"}, pure: the arguments are broadcast together, and their dtype
 * tuple must be one of the table's. The CPU backend calls the C library's
 * function of the symbol without `__nv_` (its prelude defines the few C
 * lacks). LD_INT marks the classifications (isnan, isinf, signbit): an int32
 * result and a "d" suffix for fp64 ("__nv_isnand"); LD_F32/LD_F64 the
 * functions libdevice has for one width only. */
enum { LD_ARITY = 3, LD_INT = 4, LD_F32 = 8, LD_F64 = 16 };

/* A libdevice call's first n arguments as tensors in x, broadcast together
 * when `broadcast`; false on an error (reported). */
static bool libdevice_operands(Sema *S, const CallArgs *a, int n, bool broadcast, TV *x) {
    for (int i = 0; i < n; i++) {
        x[i] = a->v[i];
        if (x[i].kind == TV_ERR) return false;
        x[i] = sem_to_tensor(S, &x[i]);
        if (x[i].kind == TV_ERR) return false;
    }
    for (int i = 1; broadcast && i < n; i++)
        for (int j = 0; j < i; j++)
            if (!sem_broadcast_pair(S, &x[j], &x[i])) return false;
    return true;
}

/* tt.extern_elementwise calling libdevice's `sym` on ops, of result type rt */
static TV extern_call(Sema *S, const char *sym, Value *const *ops, int n, const TlType *rt) {
    Type *t = rt->ir;
    Op *op = sem_op(S, TT_EXTERN_ELEMENTWISE, ops, n, &t, 1, 0);
    /* (the attributes every call has, uniqued once per compile) */
    if (!S->extern_attrs[0]) {
        S->extern_attrs[0] = attr_string(S->ctx, "");
        S->extern_attrs[1] = attr_bool(S->ctx, true);
    }
    op_set_attr_k(S->ctx, op, AN_LIBNAME, S->extern_attrs[0]);
    op_set_attr_k(S->ctx, op, AN_LIBPATH, S->extern_attrs[0]);
    op_set_attr_k(S->ctx, op, AN_PURE, S->extern_attrs[1]);
    op_set_attr_k(S->ctx, op, AN_SYMBOL, attr_string(S->ctx, sym));
    return tv_tensor(op_result(op, 0), rt);
}

/* buf = "__nv_" name suffix1 suffix2, cut to n - 1 bytes (snprintf's
 * formatting cost a thousand instructions a call). */
static void libdevice_symbol(char *buf, size_t n, const char *name, const char *s1, const char *s2) {
    const char *parts[4] = {"__nv_", name, s1, s2};
    size_t k = 0;
    for (int i = 0; i < 4; i++)
        for (const char *c = parts[i]; *c && k + 1 < n; c++) buf[k++] = *c;
    buf[k] = 0;
}

static TV bi_libdevice(Sema *S, CallArgs *a) {
    int n = a->bi->arg & LD_ARITY;
    TV x[2] = {tv_none(), tv_none()};
    if (!libdevice_operands(S, a, n, false, x)) return tv_err();
    /* Two arguments whose dtypes are not a row of the table are promoted
     * together first (Triton's arithmetic check): atan2(x, 1) is fp32's.
     * pow has the row (fp, int32): "__nv_powif" / "__nv_powi". */
    bool powi = false;
    if (n == 2) {
        const TlType *e0 = tl_sca(x[0].ty), *e1 = tl_sca(x[1].ty);
        bool fp = e0->kind == TL_FP32 || e0->kind == TL_FP64;
        powi = fp && e1->kind == TL_I32 && !strcmp(a->bi->name, "pow");
        if ((fp && e0 == e1) || powi) {
            if (!sem_broadcast_pair(S, &x[0], &x[1])) return tv_err();
        } else if (!sem_binary_check(S, &x[0], &x[1], false, false, true, false)) {
            return tv_err();
        }
    }
    const TlType *e = tl_sca(x[0].ty);
    int flags = a->bi->arg;
    bool ok = (e->kind == TL_FP32 && !(flags & LD_F64)) || (e->kind == TL_FP64 && !(flags & LD_F32));
    for (int i = 1; i < n; i++) ok = ok && (tl_sca(x[i].ty) == e || powi);
    if (!ok) {
        StrBuf got = {0};
        for (int i = 0; i < n; i++) sb_printf(&got, "%s'%s'", i ? ", " : "", tl_cstr(S, tl_sca(x[i].ty)));
        /* (the table's rows: finitef has only fp32's, isfinited only fp64's) */
        const char *f32 = n == 1 ? "('fp32',)" : "('fp32', 'fp32')", *f64 = n == 1 ? "('fp64',)" : "('fp64', 'fp64')";
        TV r = sema_error(S, "input arg type does not match. Expect one of [%s%s%s], got (%s%s)",
                          flags & LD_F64 ? "" : f32, flags & (LD_F32 | LD_F64) ? "" : ", ", flags & LD_F32 ? "" : f64,
                          sb_cstr(&got), n == 1 ? "," : "");
        sb_free(&got);
        return r;
    }
    char sym[64];
    if (flags & (LD_F32 | LD_F64)) libdevice_symbol(sym, sizeof sym, a->bi->name, "", "");
    else libdevice_symbol(sym, sizeof sym, a->bi->name, powi ? "i" : "",
                          e->kind == TL_FP32 ? "f" : (flags & LD_INT) ? "d" : "");
    Value *ops[2] = {x[0].v, n == 2 ? x[1].v : NULL};
    const TlType *rt = x[0].ty;
    if (flags & LD_INT)
        rt = tl_is_block(rt) ? tl_block(S, tl_scalar(S, TL_I32), rt->shape, rt->rank) : tl_scalar(S, TL_I32);
    return extern_call(S, sym, ops, n, rt);
}

static TV libdevice_call(Sema *S, const char *name, TV x, TV y);

/* libdevice's conversions to a float in a stated rounding mode,
 * int2float_rz, ll2double_ru, double2float_rd, ...: the one operand of the
 * prefix's type, as tt.extern_elementwise "__nv_<name>". One PTX cvt with
 * that rounding each; the CPU prelude converts under fesetround. */
static TV bi_libdevice_to_float(Sema *S, CallArgs *a) {
    static const struct { const char *prefix; TlKind from, to; } convs[] = {
        {"int2float_", TL_I32, TL_FP32},   {"uint2float_", TL_U32, TL_FP32},   {"ll2float_", TL_I64, TL_FP32},
        {"ull2float_", TL_U64, TL_FP32},   {"ll2double_", TL_I64, TL_FP64},    {"ull2double_", TL_U64, TL_FP64},
        {"double2float_", TL_FP64, TL_FP32},
    };
    const char *n = a->bi->name;
    TV x = a->v[0];
    if (x.kind == TV_ERR) return x;
    x = sem_to_tensor(S, &x);
    if (x.kind == TV_ERR) return x;
    for (int i = 0; i < TC_ARRAY_LEN(convs); i++) {
        if (strncmp(n, convs[i].prefix, strlen(convs[i].prefix))) continue;
        if (tl_sca(x.ty)->kind != convs[i].from)
            return sema_error(S, "%s() takes %s, got '%s'", n, tl_scalar_name(convs[i].from), tl_cstr(S, tl_sca(x.ty)));
        const TlType *rt = tl_with_elem(S, x.ty, tl_scalar(S, convs[i].to));
        return extern_call(S, arena_printf(S->arena, "__nv_%s", n), &x.v, 1, rt);
    }
    return sema_error(S, "libdevice.%s is not supported", n);
}

/* libdevice's arithmetic in a stated rounding mode, add/sub/mul/div/rcp/
 * sqrt/fma _rn, _rz, _rd, _ru, and saturatef (clamp to [0, 1], NaN to 0): the
 * operands broadcast together and of one type, fp32 or fp64 (saturatef:
 * fp32), as tt.extern_elementwise "__nv_fadd_rz" / "__nv_dadd_rz" (fma:
 * "__nv_fmaf_rz" / "__nv_fma_rz"). One PTX instruction each; the CPU
 * prelude computes them under fesetround. arg = the arity. */
static TV bi_libdevice_rounded(Sema *S, CallArgs *a) {
    const char *n = a->bi->name;
    int arity = a->bi->arg;
    TV x[3];
    if (!libdevice_operands(S, a, arity, true, x)) return tv_err();
    const TlType *e = tl_sca(x[0].ty);
    bool sat = !strcmp(n, "saturatef");
    bool ok = e->kind == TL_FP32 || (e->kind == TL_FP64 && !sat);
    for (int i = 1; i < arity; i++) ok = ok && tl_sca(x[i].ty) == e;
    if (!ok) {
        StrBuf got = {0};
        for (int i = 0; i < arity; i++) sb_printf(&got, "%s'%s'", i ? ", " : "", tl_cstr(S, tl_sca(x[i].ty)));
        TV r = sema_error(S, "%s(): input arg type does not match. Expect %s operands of one type, got (%s)", n,
                          sat ? "fp32" : "fp32 or fp64", sb_cstr(&got));
        sb_free(&got);
        return r;
    }
    bool f32 = e->kind == TL_FP32;
    const char *sym = sat                      ? "__nv_saturatef"
                      : !strncmp(n, "fma_", 4) ? arena_printf(S->arena, "__nv_fma%s_%s", f32 ? "f" : "", n + 4)
                                               : arena_printf(S->arena, "__nv_%c%s", f32 ? 'f' : 'd', n);
    Value *ops[3] = {x[0].v, arity > 1 ? x[1].v : NULL, arity > 2 ? x[2].v : NULL};
    return extern_call(S, sym, ops, arity, x[0].ty);
}

/* The integer functions of libdevice, as tt.extern_elementwise: popc, clz
 * and ffs count bits (int32 results), brev reverses them; the `ll` forms
 * take int64. The CPU backend has C twins (prelude.c), the PTX backend
 * the instructions. */
static TV bi_libdevice_int(Sema *S, CallArgs *a) {
    TV x = a->v[0];
    if (x.kind == TV_ERR) return x;
    x = sem_to_tensor(S, &x);
    if (x.kind == TV_ERR) return x;
    const char *n = a->bi->name;
    size_t len = strlen(n);
    bool ll = len > 2 && !strcmp(n + len - 2, "ll");
    const TlType *e = tl_sca(x.ty);
    if (!tl_is_int(e) || tl_bitwidth(e) != (ll ? 64 : 32))
        return sema_error(S, "%s() takes %s, got '%s'", n, ll ? "int64" : "int32", tl_cstr(S, e));
    bool same = !strncmp(n, "brev", 4);
    const TlType *rt = tl_with_elem(S, x.ty, same ? e : tl_scalar(S, TL_I32));
    return extern_call(S, arena_printf(S->arena, "__nv_%s", n), &x.v, 1, rt);
}

/* libdevice functions that are other operations under another name: the
 * fast_* approximations (the same ops: the GPU's exp, log, sin, ... are
 * approximate already), conversions that round to an integer (llrint is
 * rint, then to int64) and the bit views (float_as_int). */
static TV bi_libdevice_alias(Sema *S, CallArgs *a) {
    const char *n = a->bi->name;
    TV x = a->v[0], y = a->v[1];
    if (x.kind == TV_ERR || y.kind == TV_ERR) return tv_err();
    x = sem_to_tensor(S, &x);
    if (x.kind == TV_ERR) return x;
    /* ld: the precise function taken for it; NULL: a call of its own
     * ("__nv_fast_sinf": an .approx instruction on the GPU, sinf on the CPU) */
    static const struct { const char *name, *ld; } fast[] = {
        {"fast_expf", NULL},   {"fast_logf", NULL},       {"fast_log2f", NULL},     {"fast_sinf", NULL},
        {"fast_cosf", NULL},   {"fast_tanhf", NULL},      {"fast_tanf", "tan"},     {"fast_exp10f", "exp10"},
        {"fast_log10f", "log10"}, {"fast_powf", "pow"},
    };
    for (int i = 0; i < TC_ARRAY_LEN(fast); i++) {
        if (strcmp(fast[i].name, n)) continue;
        if (tl_sca(x.ty)->kind != TL_FP32)
            return sema_error(S, "%s() takes fp32, got '%s'", n, tl_cstr(S, tl_sca(x.ty)));
        if (fast[i].ld) return libdevice_call(S, fast[i].ld, x, y);
        return extern_call(S, arena_printf(S->arena, "__nv_%s", n), &x.v, 1, x.ty);
    }
    if (!strcmp(n, "fast_dividef")) {
        y = sem_to_tensor(S, &y);
        return sem_fdiv(S, x, y, false);
    }
    const TlType *e = tl_sca(x.ty);
    if (!strcmp(n, "float_as_int") || !strcmp(n, "int_as_float") || !strcmp(n, "double_as_longlong") ||
        !strcmp(n, "longlong_as_double")) {
        TlKind from = n[0] == 'f' ? TL_FP32 : n[0] == 'i' ? TL_I32 : n[0] == 'd' ? TL_FP64 : TL_I64;
        TlKind to = n[0] == 'f' ? TL_I32 : n[0] == 'i' ? TL_FP32 : n[0] == 'd' ? TL_I64 : TL_FP64;
        if (tl_bitwidth(e) != tl_bitwidth(tl_scalar(S, from)) || tl_is_float(e) != tl_is_float(tl_scalar(S, from)))
            return sema_error(S, "%s() takes %s, got '%s'", n, tl_scalar_name(from), tl_cstr(S, e));
        return sem_bitcast(S, x, tl_scalar(S, to));
    }
    /* float -> int with a rounding: {name, the rounding function (NULL: toward zero), the result} */
    static const struct { const char *name, *round; TlKind to; } conv[] = {
        {"llrint", "rint", TL_I64},        {"lrint", "rint", TL_I64},          {"llround", "round", TL_I64},
        {"lround", "round", TL_I64},       {"float2int_rn", "rint", TL_I32},   {"float2int_rz", NULL, TL_I32},
        {"float2int_rd", "floor", TL_I32}, {"float2int_ru", "ceil", TL_I32},   {"float2uint_rn", "rint", TL_U32},
        {"float2uint_rz", NULL, TL_U32},   {"double2int_rn", "rint", TL_I32},  {"double2ll_rn", "rint", TL_I64},
        {"float2ll_rn", "rint", TL_I64},   {"float2ll_rz", NULL, TL_I64},      {"float2uint_rd", "floor", TL_U32},
        {"float2uint_ru", "ceil", TL_U32}, {"float2ll_rd", "floor", TL_I64},   {"float2ll_ru", "ceil", TL_I64},
        {"float2ull_rn", "rint", TL_U64},  {"float2ull_rz", NULL, TL_U64},     {"float2ull_rd", "floor", TL_U64},
        {"float2ull_ru", "ceil", TL_U64},  {"double2int_rz", NULL, TL_I32},    {"double2int_rd", "floor", TL_I32},
        {"double2int_ru", "ceil", TL_I32}, {"double2uint_rn", "rint", TL_U32}, {"double2uint_rz", NULL, TL_U32},
        {"double2uint_rd", "floor", TL_U32}, {"double2uint_ru", "ceil", TL_U32}, {"double2ll_rz", NULL, TL_I64},
        {"double2ll_rd", "floor", TL_I64}, {"double2ll_ru", "ceil", TL_I64},   {"double2ull_rn", "rint", TL_U64},
        {"double2ull_rz", NULL, TL_U64},   {"double2ull_rd", "floor", TL_U64}, {"double2ull_ru", "ceil", TL_U64},
    };
    for (int i = 0; i < TC_ARRAY_LEN(conv); i++) {
        if (strcmp(conv[i].name, n)) continue;
        if (!tl_is_float(e) || tl_bitwidth(e) < 32)
            return sema_error(S, "%s() takes fp32 or fp64, got '%s'", n, tl_cstr(S, e));
        TV r = conv[i].round ? libdevice_call(S, conv[i].round, x, tv_none()) : x;
        return sem_cast(S, r, tl_scalar(S, conv[i].to), NULL);
    }
    return sema_error(S, "libdevice.%s is not supported", n);
}

/* sqrt(sum of squares) of n fp values, scaled by the largest magnitude so
 * that no square overflows or underflows (C's hypot, in 3 or 4 dimensions):
 * 0 when all are 0, inf when one is inf (even with a NaN), NaN otherwise
 * for a NaN. */
static TV norm_n(Sema *S, const TV *x, int n) {
    TV m = tv_none(), inf = tv_bool(false), nan = tv_bool(false);
    TV ax[4];
    for (int i = 0; i < n; i++) {
        ax[i] = tv_tensor(sem_ir(S, MATH_ABSF, x[i].ty, x[i].v, NULL), x[i].ty);
        m = i ? sem_minmax(S, true, m, ax[i], false) : ax[i];
        inf = sem_binary(S, PY_BIN_BITOR, inf, sem_compare(S, PY_CMP_EQ, ax[i], tv_float(INFINITY)));
        nan = sem_binary(S, PY_BIN_BITOR, nan, sem_compare(S, PY_CMP_NE, x[i], x[i]));
    }
    TV safe = sem_where(S, sem_compare(S, PY_CMP_EQ, m, tv_float(0.0)), tv_float(1.0), m);
    TV sum = tv_float(0.0);
    for (int i = 0; i < n; i++) {
        TV q = sem_fdiv(S, ax[i], safe, true);
        sum = sem_binary(S, PY_BIN_ADD, sum, sem_binary(S, PY_BIN_MUL, q, q));
    }
    TV r = sem_binary(S, PY_BIN_MUL, m, tv_tensor(sem_ir(S, TT_PRECISE_SQRT, sum.ty, sum.v, NULL), sum.ty));
    r = sem_where(S, nan, tv_float(NAN), r);
    return sem_where(S, inf, tv_float(INFINITY), r);
}

/* x - 2 rint(x / 2): exact, in [-1, 1], and sin(pi x), cos(pi x) are its. */
static TV pi_reduce(Sema *S, TV x) {
    TV rq = libdevice_call(S, "rint", sem_binary(S, PY_BIN_MUL, x, tv_float(0.5)), tv_none());
    return sem_binary(S, PY_BIN_SUB, x, sem_binary(S, PY_BIN_MUL, rq, tv_float(2.0))); /* exact, in [-1, 1] */
}

/* sin(pi w) (want_cos false) or cos(pi w) for 0 <= w <= 1/4. fp32: Taylor
 * polynomials in w with pi folded into the coefficients (to w^11 and w^10:
 * truncation below 2e-9 relative), no sin.approx / cos.approx, whose error
 * is absolute; fp64: math.sin / math.cos of pi w (the product's rounding is
 * the only error beyond theirs). */
static TV pi_trig_small(Sema *S, TV w, bool want_cos) {
    if (tl_sca(w.ty)->kind == TL_FP32) {
        double c[6];
        double pk = want_cos ? 1.0 : M_PI, fact = 1.0; /* pi^k / k!, k = 0 or 1 */
        for (int i = 0, k = want_cos ? 0 : 1; i < 6; i++, k += 2) {
            c[i] = (i % 2 ? -pk : pk) / fact;
            pk *= M_PI * M_PI;
            fact *= (double)(k + 1) * (k + 2);
        }
        TV w2 = sem_binary(S, PY_BIN_MUL, w, w);
        TV poly = tv_float(c[5]);
        for (int i = 4; i >= 0; i--) poly = sem_binary(S, PY_BIN_ADD, sem_binary(S, PY_BIN_MUL, poly, w2), tv_float(c[i]));
        return want_cos ? poly : sem_binary(S, PY_BIN_MUL, poly, w);
    }
    TV ang = sem_binary(S, PY_BIN_MUL, w, tv_float(M_PI));
    return tv_tensor(sem_ir(S, want_cos ? MATH_COS : MATH_SIN, ang.ty, ang.v, NULL), ang.ty);
}

/* sin(pi x) (want_cos false) or cos(pi x), to an ulp or two: r = x - 2 rint(x / 2)
 * in [-1, 1] (exact); |r| folded into b in [0, 1/2] by the symmetry about 1/2
 * (1 - |r| is exact there), and b above 1/4 by the complement 1/2 - b (exact
 * too), so that the polynomial or math function only sees [0, 1/4]: no
 * cancellation near the zeros (sin(pi x) at x = 0.999 keeps its digits).
 * sinpi is exactly +-0 at the integers (x * 0: its sign), cospi +0 at the
 * half-integers; NaN and +-inf give NaN. */
static TV sincospi_(Sema *S, TV x, bool want_cos) {
    TV r = pi_reduce(S, x);
    TV a = tv_tensor(sem_ir(S, MATH_ABSF, r.ty, r.v, NULL), r.ty);
    TV half = sem_compare(S, PY_CMP_GT, a, tv_float(0.5));
    TV b = sem_where(S, half, sem_binary(S, PY_BIN_SUB, tv_float(1.0), a), a);
    TV low = sem_compare(S, PY_CMP_LE, b, tv_float(0.25));
    TV c = sem_binary(S, PY_BIN_SUB, tv_float(0.5), b);
    TV v = sem_where(S, low, pi_trig_small(S, b, want_cos), pi_trig_small(S, c, !want_cos));
    if (want_cos) return sem_where(S, half, sem_minus(S, v), v); /* cos(pi (1 - b)) = -cos(pi b) */
    v = sem_where(S, sem_compare(S, PY_CMP_LT, r, tv_float(0.0)), sem_minus(S, v), v); /* odd */
    TV whole = sem_compare(S, PY_CMP_EQ, tv_tensor(sem_ir(S, MATH_FLOOR, x.ty, x.v, NULL), x.ty), x);
    return sem_where(S, whole, sem_binary(S, PY_BIN_MUL, x, tv_float(0.0)), v);
}

static TV sinpi_(Sema *S, TV x) { return sincospi_(S, x, false); }

static TV log_(Sema *S, TV x) { return tv_tensor(sem_ir(S, MATH_LOG, x.ty, x.v, NULL), x.ty); }

/* Short names for the arithmetic of the compositions below. */
static TV add_(Sema *S, TV a, TV b) { return sem_binary(S, PY_BIN_ADD, a, b); }
static TV sub_(Sema *S, TV a, TV b) { return sem_binary(S, PY_BIN_SUB, a, b); }
static TV mul_(Sema *S, TV a, TV b) { return sem_binary(S, PY_BIN_MUL, a, b); }
static TV abs_(Sema *S, TV x) { return tv_tensor(sem_ir(S, MATH_ABSF, x.ty, x.v, NULL), x.ty); }
static TV lt_(Sema *S, TV a, TV b) { return sem_compare(S, PY_CMP_LT, a, b); }
static TV eq_(Sema *S, TV a, TV b) { return sem_compare(S, PY_CMP_EQ, a, b); }
static TV isnan_(Sema *S, TV x) { return sem_compare(S, PY_CMP_NE, x, x); }
/* v as a scalar of like's dtype, rounded once (sem_cast of a Python float
 * goes through fp32 first, as Triton's to_tensor does) */
static TV fconst_(Sema *S, double v, TV like) { return sem_scalar_constant(S, &(TV){.kind = TV_FLOAT, .f = v}, tl_sca(like.ty)); }

/* The unbiased binary exponent of a finite non-zero x (C's ilogb), as an
 * int of x's width: the exponent field, of x scaled into the normal range
 * first when it is subnormal. */
static TV exponent_(Sema *S, TV x, bool f64) {
    const TlType *it = tl_scalar(S, f64 ? TL_I64 : TL_I32);
    int mant = f64 ? 52 : 23, bias = f64 ? 1023 : 127, shift = f64 ? 64 : 32;
    TV ax = abs_(S, x);
    TV sub = lt_(S, ax, tv_float(f64 ? 0x1p-1022 : 0x1p-126));
    TV xs = sem_where(S, sub, mul_(S, ax, tv_float(f64 ? 0x1p64 : 0x1p32)), ax);
    TV e = sub_(S, sem_binary(S, PY_BIN_RSHIFT, sem_bitcast(S, xs, it), tv_int(mant)), tv_int(bias));
    return sem_where(S, sub, sub_(S, e, tv_int(shift)), e);
}

static TV erfcx_(Sema *S, TV x);

/* erfinv of a = |x| in [0, 1], given c = 1 - a computed without
 * cancellation by the caller (erfcinv's argument itself). With
 * w = -log((1 - a)(1 + a)):
 *   - w <= 16 (1 - a above ~1e-7): Giles' single-precision approximation
 *     ("Approximating the erfinv function", 2010), a polynomial in
 *     w - 2.5 below 5 and in sqrt(w) - 3 above;
 *   - beyond (erfcinv's and fp64's far tails), the asymptotic
 *     z^2 = L - log(sqrt(pi L)), L = -log(c), from erfc(z) ~
 *     exp(-z^2) / (z sqrt(pi)).
 * Then Halley steps (cubic: the tail's start is good to ~1e-3, Giles' to
 * ~1e-7): on erf(z) = a below a = 1/2, on erfc(z) = c above, the step's
 * (erfc(z) - c) / erfc'(z) as (c / erfc(z) - 1) exp(z^2 + log erfc(z))
 * sqrt(pi) / 2, that is (c / erfc(z) - 1) erfcx(z) sqrt(pi) / 2, so that
 * nothing underflows however small c is: two everywhere in fp64, one in the
 * fp32 tail.
 * a = 1: +inf; a > 1 or NaN: NaN. */
static TV erfinv_core_(Sema *S, TV a, TV c, bool f64) {
    static const double lo[9] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                                 -0.00125372503, -0.00417768164, 0.246640727,     1.50140941};
    static const double hi[9] = {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                                 -0.0076224613,   0.00943887047,  1.00167406,    2.83297682};
    TV csafe = sem_where(S, sem_compare(S, PY_CMP_GT, c, tv_float(0.0)), c, tv_float(0.5));
    TV w = mul_(S, log_(S, mul_(S, csafe, add_(S, a, tv_float(1.0)))), tv_float(-1.0));
    TV central = lt_(S, w, tv_float(5.0)), tail = sem_compare(S, PY_CMP_GT, w, tv_float(16.0));
    /* each branch sees an argument in its range (what it would make of
     * another is selected away, but keep NaN and inf out of it) */
    TV wl = sub_(S, sem_where(S, central, w, tv_float(2.5)), tv_float(2.5));
    TV ws = sem_where(S, central, tv_float(16.0), sem_minmax(S, false, w, tv_float(16.0), false));
    TV wh = sub_(S, tv_tensor(sem_ir(S, TT_PRECISE_SQRT, ws.ty, ws.v, NULL), ws.ty), tv_float(3.0));
    TV pl = fconst_(S, lo[0], a), ph = fconst_(S, hi[0], a);
    for (int i = 1; i < 9; i++) {
        pl = add_(S, mul_(S, pl, wl), tv_float(lo[i]));
        ph = add_(S, mul_(S, ph, wh), tv_float(hi[i]));
    }
    TV z = mul_(S, sem_where(S, central, pl, ph), a);
    TV lc = log_(S, csafe); /* -L */
    TV big = sem_where(S, tail, mul_(S, lc, tv_float(-1.0)), tv_float(20.0));
    TV z2 = sub_(S, big, log_(S, tv_tensor(sem_ir(S, TT_PRECISE_SQRT, big.ty, mul_(S, big, tv_float(M_PI)).v, NULL),
                                           big.ty)));
    z = sem_where(S, tail, tv_tensor(sem_ir(S, TT_PRECISE_SQRT, z2.ty, z2.v, NULL), z2.ty), z);
    TV upper = f64 ? sem_compare(S, PY_CMP_GE, a, tv_float(0.5)) : tv_none(); /* (fp64 only: which form) */
    for (int it = 0; it < (f64 ? 2 : 1); it++) {
        /* Halley: z - u / (1 + z u), u = f / f' (f'' / f' = -2z for both) */
        TV ec = libdevice_call(S, "erfc", z, tv_none());
        TV ecs = sem_where(S, sem_compare(S, PY_CMP_GT, ec, tv_float(0.0)), ec, tv_float(f64 ? 1e-300 : 1e-38));
        /* erfc(z) / (2 exp(-z^2) / sqrt(pi)) = erfcx(z) sqrt(pi) / 2: fp64 has
         * erfcx itself (sharing erfc's polynomial); fp32 takes it as
         * exp(z^2 + log erfc z), which cannot overflow */
        TV ex = f64 ? erfcx_(S, z)
                    : tv_tensor(sem_ir(S, MATH_EXP, z.ty, add_(S, mul_(S, z, z), log_(S, ecs)).v, NULL), z.ty);
        TV ratio = mul_(S, ex, tv_float(0.88622692545275801));
        TV u = mul_(S, sub_(S, sem_fdiv(S, c, ecs, true), tv_float(1.0)), ratio); /* (erfc(z) - c) / -erfc'(z) */
        if (f64) {
            TV d = mul_(S, tv_float(1.1283791670955126), /* erf'(z) = 2 exp(-z^2) / sqrt(pi) */
                        tv_tensor(sem_ir(S, MATH_EXP, z.ty, mul_(S, z, mul_(S, z, tv_float(-1.0))).v, NULL), z.ty));
            TV ul = sem_fdiv(S, sub_(S, libdevice_call(S, "erf", z, tv_none()), a), d, true);
            u = sem_where(S, upper, u, ul);
        }
        TV zn = sub_(S, z, sem_fdiv(S, u, add_(S, mul_(S, z, u), tv_float(1.0)), true));
        z = f64 ? zn : sem_where(S, tail, zn, z);
    }
    TV inf = fconst_(S, INFINITY, a);
    z = sem_where(S, eq_(S, c, tv_float(0.0)), inf, z);
    TV bad = sem_binary(S, PY_BIN_BITOR, sem_compare(S, PY_CMP_GT, a, tv_float(1.0)), isnan_(S, a));
    return sem_where(S, bad, fconst_(S, NAN, a), z);
}

/* exp(x^2) erfc(x): fp32 from Numerical Recipes' erfcc (below); fp64
 * libdevice's __nv_erfcx (Shepherd and Laframboise's Q(t) / (1 + 2x): see
 * expand_f64_math.c). Below about -26.6 the result overflows to inf, as the
 * function does. */
static TV erfcx_(Sema *S, TV x) {
    if (tl_sca(x.ty)->kind == TL_FP32) {
        /* fp32: Numerical Recipes' erfc z = t exp(-z^2 + P(t)) (support/erfcc.h),
         * so erfcx z = t exp(P(t)) for z = |x|
         * >= 0, and 2 exp(x^2) - that below 0 */
        TV z = abs_(S, x);
        TV t = sem_fdiv(S, fconst_(S, 1.0, x), add_(S, mul_(S, z, tv_float(0.5)), tv_float(1.0)), true);
        TV p = fconst_(S, ERFCC_P[0], x);
        for (int i = 1; i < ERFCC_TERMS; i++) p = add_(S, mul_(S, p, t), tv_float(ERFCC_P[i]));
        TV pos = mul_(S, t, tv_tensor(sem_ir(S, MATH_EXP, p.ty, p.v, NULL), p.ty));
        TV x2 = mul_(S, x, x);
        TV neg = sub_(S, mul_(S, tv_tensor(sem_ir(S, MATH_EXP, x2.ty, x2.v, NULL), x2.ty), tv_float(2.0)), pos);
        TV r = sem_where(S, lt_(S, x, tv_float(0.0)), neg, pos);
        return sem_where(S, isnan_(S, x), x, r);
    }
    /* fp64: libdevice's own function, computed directly (not as the
     * product, whose e^(x^2) loses x^2's rounding, ~1e-13 near 26) by
     * expand-f64-math on the GPU and the CPU prelude's erfcx */
    return extern_call(S, "__nv_erfcx", &x.v, 1, x.ty);
}

/* lgamma (want_gamma false) or tgamma of x: the Lanczos approximation
 * (g = 7, 9 terms) for x >= 1/2,
 *   log G(z + 1) = log(sqrt(2 pi)) + (z + 1/2) log t - t + log A(z),  t = z + 7.5,
 * and the reflection G(x) G(1 - x) = pi / sin(pi x) below; tgamma computes
 * G(x) directly (below). Poles (0 and the negative integers):
 * lgamma +inf, tgamma +-inf at zeros and NaN at the negative integers. */
static TV gamma_(Sema *S, TV x, bool want_gamma) {
    static const double p[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                                771.32342877765313,   -176.61502916214059,   12.507343278686905,
                                -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
    TV refl = sem_compare(S, PY_CMP_LT, x, tv_float(0.5));
    TV y = sem_where(S, refl, sem_binary(S, PY_BIN_SUB, tv_float(1.0), x), x); /* >= 1/2 */
    TV z = sem_binary(S, PY_BIN_SUB, y, tv_float(1.0));
    TV a = sem_binary(S, PY_BIN_ADD, sem_binary(S, PY_BIN_MUL, x, tv_float(0.0)), tv_float(p[0]));
    for (int i = 1; i < 9; i++)
        a = sem_binary(S, PY_BIN_ADD, a,
                       sem_fdiv(S, sem_scalar_constant(S, &(TV){.kind = TV_FLOAT, .f = p[i]}, tl_sca(x.ty)),
                                sem_binary(S, PY_BIN_ADD, z, tv_float(i)), true));
    TV t = sem_binary(S, PY_BIN_ADD, z, tv_float(7.5));
    TV lg = sem_binary(S, PY_BIN_ADD, tv_float(0.91893853320467274), /* log(sqrt(2 pi)) */
                       sem_binary(S, PY_BIN_SUB, sem_binary(S, PY_BIN_MUL, sem_binary(S, PY_BIN_ADD, z, tv_float(0.5)),
                                                            log_(S, t)),
                                  t));
    lg = sem_binary(S, PY_BIN_ADD, lg, log_(S, a)); /* log G(y) */
    TV sp = sinpi_(S, x);
    TV asp = tv_tensor(sem_ir(S, MATH_ABSF, sp.ty, sp.v, NULL), sp.ty);
    TV inf = sem_cast(S, tv_float(INFINITY), tl_sca(x.ty), NULL);
    TV pole = sem_binary(S, PY_BIN_BITAND, refl, sem_compare(S, PY_CMP_EQ, asp, tv_float(0.0)));
    /* below 1/2: log|G(x)| = log(pi / |sin(pi x)|) - log G(1 - x) */
    TV lrefl = sem_binary(S, PY_BIN_SUB, sem_binary(S, PY_BIN_SUB, tv_float(1.1447298858494002), log_(S, asp)), lg);
    TV lgx = sem_where(S, refl, lrefl, lg);
    TV isinf = sem_compare(S, PY_CMP_EQ, tv_tensor(sem_ir(S, MATH_ABSF, x.ty, x.v, NULL), x.ty), inf);
    if (!want_gamma) {
        lgx = sem_where(S, pole, inf, lgx);
        return sem_where(S, isinf, inf, lgx);
    }
    /* G(y) itself, not exp of its logarithm (whose rounding, up to ~700
     * ulps of lg, an exponential multiplies into G's relative error). From
     * 8 on, Stirling's series (10 terms: truncation below 1e-17),
     *   G(y) = sqrt(2 pi) y^(y - 1/2) e^-y e^S(y),  S(y) = sum c_k / y^(2k - 1),
     * y^(y - 1/2) as two halves pw (pw e^-y) so that no factor overflows
     * before the result does (y - 1/2 and its half are exact); below 8 the
     * Lanczos sum above (its error grows with y: 1e-13 at 170), as
     *   G(y) = sqrt(2 pi) A(z) t^(z + 1/2) e^-t,
     * t = z + 7.5 rounded, its rounding error err (two-sum) restored as the
     * factor (1 + (z + 1/2) err / t). Below 1/2: G(x) = pi / (sin(pi x) G(1 - x)). */
    static const double st[10] = {1.0 / 12,  -1.0 / 360,        1.0 / 1260,  -1.0 / 1680,       1.0 / 1188,
                                  -691.0 / 360360, 1.0 / 156, -3617.0 / 122400, 43867.0 / 244188, -174611.0 / 125400};
    TV big = sem_compare(S, PY_CMP_GE, y, tv_float(8.0));
    TV ys = sem_where(S, big, y, tv_float(8.0)); /* (each branch sees its own range) */
    TV yl = sem_where(S, big, tv_float(1.0), y);
    TV iy = sem_fdiv(S, fconst_(S, 1.0, x), ys, true), w = mul_(S, iy, iy);
    TV ser = fconst_(S, st[9], x);
    for (int i = 8; i >= 0; i--) ser = add_(S, mul_(S, ser, w), tv_float(st[i]));
    ser = mul_(S, ser, iy);
    TV pws = libdevice_call(S, "pow", ys, mul_(S, sub_(S, ys, tv_float(0.5)), tv_float(0.5)));
    TV nys = sem_minus(S, ys);
    TV eys = tv_tensor(sem_ir(S, MATH_EXP, nys.ty, nys.v, NULL), nys.ty);
    TV gs = mul_(S, mul_(S, tv_float(2.5066282746310002), tv_tensor(sem_ir(S, MATH_EXP, ser.ty, ser.v, NULL), ser.ty)),
                 mul_(S, pws, mul_(S, pws, eys)));
    gs = sem_where(S, sem_compare(S, PY_CMP_GT, ys, tv_float(172.0)), inf, gs); /* (pw inf, e^-y 0) */
    TV zl = sub_(S, yl, tv_float(1.0));
    TV al = fconst_(S, p[0], x);
    for (int i = 1; i < 9; i++) al = add_(S, al, sem_fdiv(S, fconst_(S, p[i], x), add_(S, zl, tv_float(i)), true));
    TV tl_ = add_(S, zl, tv_float(7.5));
    TV e = add_(S, zl, tv_float(0.5));
    TV bv = sub_(S, tl_, zl);
    TV err = add_(S, sub_(S, zl, sub_(S, tl_, bv)), sub_(S, tv_float(7.5), bv));
    TV pw = libdevice_call(S, "pow", tl_, mul_(S, e, tv_float(0.5)));
    TV nt = sem_minus(S, tl_);
    TV et = tv_tensor(sem_ir(S, MATH_EXP, nt.ty, nt.v, NULL), nt.ty);
    TV gl = mul_(S, mul_(S, tv_float(2.5066282746310002), al), mul_(S, pw, mul_(S, pw, et))); /* sqrt(2 pi) */
    gl = mul_(S, gl, add_(S, tv_float(1.0), sem_fdiv(S, mul_(S, e, err), tl_, true)));
    TV gy = sem_where(S, big, gs, gl);
    TV g = sem_where(S, refl, sem_fdiv(S, fconst_(S, M_PI, x), sem_binary(S, PY_BIN_MUL, sp, gy), true), gy);
    /* exact factorials at the integers 1 .. 23 (their products round once) */
    double fact = 1.0;
    for (int i = 1; i <= 23; i++) {
        g = sem_where(S, eq_(S, x, tv_float(i)), fconst_(S, fact, x), g);
        fact *= i;
    }
    /* poles: +-0 -> +-inf, negative integers -> NaN; +inf -> +inf, -inf -> NaN */
    TV zero = sem_compare(S, PY_CMP_EQ, x, tv_float(0.0));
    TV signed_inf = sem_fdiv(S, sem_cast(S, tv_float(1.0), tl_sca(x.ty), NULL), x, true); /* 1 / +-0 */
    g = sem_where(S, pole, sem_where(S, zero, signed_inf, tv_float(NAN)), g);
    g = sem_where(S, isinf, sem_where(S, sem_compare(S, PY_CMP_GT, x, tv_float(0.0)), inf, tv_float(NAN)), g);
    return g;
}

/* x 2^k for an int32 k, as C's ldexp: four exact powers of two built from
 * exponent bits, 2^(k/4) three times and 2^(k - 3(k/4)) (k clamped first to
 * what can move any finite x to overflow or to zero: each part then stays
 * within the normal exponents), so that subnormal results and overflow come
 * out right. */
static TV ldexp_(Sema *S, TV x, TV k, bool f64) {
    int bias = f64 ? 1023 : 127, mant = f64 ? 52 : 23, lim = f64 ? 2100 : 378;
    const TlType *it = tl_scalar(S, f64 ? TL_I64 : TL_I32), *ft = tl_scalar(S, f64 ? TL_FP64 : TL_FP32);
    k = sem_cast(S, sem_minmax(S, false, sem_minmax(S, true, k, tv_int(-lim), false), tv_int(lim), false), it, NULL);
    TV q = sem_binary(S, PY_BIN_RSHIFT, k, tv_int(2));
    TV rest = sem_binary(S, PY_BIN_SUB, k, sem_binary(S, PY_BIN_MUL, q, tv_int(3)));
    TV pq = sem_bitcast(S, sem_binary(S, PY_BIN_LSHIFT, sem_binary(S, PY_BIN_ADD, q, tv_int(bias)), tv_int(mant)), ft);
    TV pr = sem_bitcast(S, sem_binary(S, PY_BIN_LSHIFT, sem_binary(S, PY_BIN_ADD, rest, tv_int(bias)), tv_int(mant)), ft);
    TV r = x;
    for (int i = 0; i < 3; i++) r = sem_binary(S, PY_BIN_MUL, r, pq);
    return sem_binary(S, PY_BIN_MUL, r, pr);
}

/* libdevice functions that are exact compositions of tl operations, so that
 * both backends have them, on the dtypes of Triton's table for each:
 *   abs (i32, i64, fp32, fp64)   fma (fp32, fp64)   fdim: x > y ? x - y : +0
 *   uint_as_float, float_as_uint: bit views (u32 <-> fp32; the view is int32)
 *   hadd, rhadd (i32, u32): (a + b) >> 1, (a + b + 1) >> 1 without overflow,
 *       as (a & b) + ((a ^ b) >> 1) and (a | b) - ((a ^ b) >> 1)
 *   mulhi (i32, u32, i64, u64): the high half of the double-width product
 *   mul24 (i32, u32): the low 32 bits of the product of the low 24 bits
 *   sad (i32 or u32, and u32): |a - b| + c in 32-bit unsigned arithmetic
 *   int2double_rn, uint2double_rn: exact; hiloint2double, double2loint,
 *       double2hiint: an fp64 from / to its two 32-bit halves
 *   nextafter (fp32, fp64): the neighbour of x toward y, on the bits
 * and compositions of other libdevice functions (fp32, fp64):
 *   rsqrt_rn: 1 / sqrt_rn(x) (two correct roundings)   rcbrt: 1 / cbrt(x)
 *   rhypot: 1 / hypot(x, y)   norm3d, norm4d: scaled sqrt of the sum of
 *   squares (norm_n); rnorm3d, rnorm4d: their reciprocals
 *   sinpi, cospi: sin / cos of pi r, r = x - 2 round(x / 2) in [-1, 1]
 *       (exact zeros at the integers for sinpi, at the half-integers for cospi)
 *   ldexp, scalbn (fp, int32): x 2^k from exponent bits (ldexp_)
 *   normcdf: erfc(-x / sqrt(2)) / 2
 * arg = the arity. */
static TV bi_libdevice_compose(Sema *S, CallArgs *a) {
    const char *n = a->bi->name;
    int arity = a->bi->arg;
    TV x[4];
    if (!libdevice_operands(S, a, arity, true, x)) return tv_err();
    TlKind k[4] = {TL_I1, TL_I1, TL_I1, TL_I1};
    for (int i = 0; i < arity; i++) k[i] = tl_sca(x[i].ty)->kind;
    bool same = true;
    for (int i = 1; i < arity; i++) same &= k[i] == k[0];
    bool fp = k[0] == TL_FP32 || k[0] == TL_FP64, i32u32 = k[0] == TL_I32 || k[0] == TL_U32;
    const TlType *i32 = tl_scalar(S, TL_I32), *u32 = tl_scalar(S, TL_U32), *i64 = tl_scalar(S, TL_I64);
    const char *want = NULL;
    TV r = tv_err();
    if (!strcmp(n, "abs")) {
        if (!(k[0] == TL_I32 || k[0] == TL_I64 || fp)) want = "int32, int64, fp32 or fp64";
        else r = tv_tensor(sem_ir(S, fp ? MATH_ABSF : MATH_ABSI, x[0].ty, x[0].v, NULL), x[0].ty);
    } else if (!strcmp(n, "fma")) {
        if (!fp || !same) want = "three fp32 or three fp64";
        else {
            Value *ops[3] = {x[0].v, x[1].v, x[2].v};
            Type *t = x[0].ty->ir;
            r = tv_tensor(op_result(sem_op(S, MATH_FMA, ops, 3, &t, 1, 0), 0), x[0].ty);
        }
    } else if (!strcmp(n, "fdim")) {
        if (!fp || !same) want = "two fp32 or two fp64";
        else {
            TV nan = sem_binary(S, PY_BIN_BITOR, sem_compare(S, PY_CMP_NE, x[0], x[0]), sem_compare(S, PY_CMP_NE, x[1], x[1]));
            TV d = sem_where(S, sem_compare(S, PY_CMP_GT, x[0], x[1]), sem_binary(S, PY_BIN_SUB, x[0], x[1]), tv_float(0.0));
            r = sem_where(S, nan, sem_binary(S, PY_BIN_ADD, x[0], x[1]), d);
        }
    } else if (!strcmp(n, "uint_as_float")) {
        if (k[0] != TL_U32) want = "uint32";
        else r = sem_bitcast(S, x[0], tl_scalar(S, TL_FP32));
    } else if (!strcmp(n, "float_as_uint")) {
        if (k[0] != TL_FP32) want = "fp32";
        else r = sem_bitcast(S, x[0], i32);
    } else if (!strcmp(n, "hadd") || !strcmp(n, "rhadd")) {
        if (!i32u32 || !same) want = "two int32 or two uint32";
        else {
            TV half = sem_binary(S, PY_BIN_RSHIFT, sem_binary(S, PY_BIN_BITXOR, x[0], x[1]), tv_int(1));
            r = n[0] == 'h' ? sem_binary(S, PY_BIN_ADD, sem_binary(S, PY_BIN_BITAND, x[0], x[1]), half)
                            : sem_binary(S, PY_BIN_SUB, sem_binary(S, PY_BIN_BITOR, x[0], x[1]), half);
        }
    } else if (!strcmp(n, "mulhi")) {
        if (!(i32u32 || k[0] == TL_I64 || k[0] == TL_U64) || !same) want = "two int32, uint32, int64 or uint64";
        else if (k[0] == TL_U32 || k[0] == TL_U64) r = tv_tensor(sem_ir(S, TT_MULHIUI, x[0].ty, x[0].v, x[1].v), x[0].ty);
        else if (k[0] == TL_I64) {
            /* __nv_mul64hi from the unsigned high half of the same bits:
             * hi_s(a, b) = hi_u(a, b) - (a < 0 ? b : 0) - (b < 0 ? a : 0) */
            TV hu = tv_tensor(sem_ir(S, TT_MULHIUI, x[0].ty, x[0].v, x[1].v), x[0].ty);
            TV ta = sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, x[0], tv_int(63)), x[1]);
            TV tb = sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, x[1], tv_int(63)), x[0]);
            r = sem_binary(S, PY_BIN_SUB, sem_binary(S, PY_BIN_SUB, hu, ta), tb);
        } else {
            TV p = sem_binary(S, PY_BIN_MUL, sem_cast(S, x[0], i64, NULL), sem_cast(S, x[1], i64, NULL));
            r = sem_cast(S, sem_binary(S, PY_BIN_RSHIFT, p, tv_int(32)), i32, NULL);
        }
    } else if (!strcmp(n, "mul24")) {
        if (!i32u32 || !same) want = "two int32 or two uint32";
        else if (k[0] == TL_U32)
            r = sem_binary(S, PY_BIN_MUL, sem_binary(S, PY_BIN_BITAND, x[0], tv_int(0xffffff)),
                           sem_binary(S, PY_BIN_BITAND, x[1], tv_int(0xffffff)));
        else
            r = sem_binary(S, PY_BIN_MUL, sem_binary(S, PY_BIN_RSHIFT, sem_binary(S, PY_BIN_LSHIFT, x[0], tv_int(8)), tv_int(8)),
                           sem_binary(S, PY_BIN_RSHIFT, sem_binary(S, PY_BIN_LSHIFT, x[1], tv_int(8)), tv_int(8)));
    } else if (!strcmp(n, "sad")) {
        if (!i32u32 || k[1] != k[0] || k[2] != TL_U32) want = "(int32, int32, uint32) or (uint32, uint32, uint32)";
        else {
            TV ua = sem_bitcast(S, x[0], u32), ub = sem_bitcast(S, x[1], u32);
            TV d = sem_where(S, sem_compare(S, PY_CMP_GT, x[0], x[1]), sem_binary(S, PY_BIN_SUB, ua, ub),
                             sem_binary(S, PY_BIN_SUB, ub, ua));
            r = sem_bitcast(S, sem_binary(S, PY_BIN_ADD, d, x[2]), tl_scalar(S, k[0]));
        }
    } else if (!strcmp(n, "int2double_rn") || !strcmp(n, "uint2double_rn")) {
        if (k[0] != (n[0] == 'u' ? TL_U32 : TL_I32)) want = n[0] == 'u' ? "uint32" : "int32";
        else r = sem_cast(S, x[0], tl_scalar(S, TL_FP64), NULL);
    } else if (!strcmp(n, "hiloint2double")) {
        if (k[0] != TL_I32 || k[1] != TL_I32) want = "two int32";
        else {
            TV hi = sem_binary(S, PY_BIN_LSHIFT, sem_cast(S, x[0], i64, NULL), tv_int(32));
            TV lo = sem_cast(S, sem_bitcast(S, x[1], u32), i64, NULL);
            r = sem_bitcast(S, sem_binary(S, PY_BIN_BITOR, hi, lo), tl_scalar(S, TL_FP64));
        }
    } else if (!strcmp(n, "double2loint") || !strcmp(n, "double2hiint")) {
        if (k[0] != TL_FP64) want = "fp64";
        else {
            TV bits = sem_bitcast(S, x[0], i64);
            if (n[7] == 'h') bits = sem_binary(S, PY_BIN_RSHIFT, bits, tv_int(32));
            r = sem_cast(S, bits, i32, NULL);
        }
    } else if (!strcmp(n, "nextafter")) {
        if (!fp || !same) want = "two fp32 or two fp64";
        else {
            bool f32 = k[0] == TL_FP32;
            const TlType *it = f32 ? i32 : i64;
            TV up = sem_compare(S, PY_CMP_EQ, sem_compare(S, PY_CMP_GT, x[1], x[0]),
                                sem_compare(S, PY_CMP_GT, x[0], tv_float(0.0)));
            TV step = sem_where(S, up, tv_int(1), tv_int(-1));
            TV next = sem_bitcast(S, sem_binary(S, PY_BIN_ADD, sem_bitcast(S, x[0], it), sem_cast(S, step, it, NULL)),
                                  tl_scalar(S, k[0]));
            double tiny = f32 ? 1.401298464324817e-45 : 4.9406564584124654e-324; /* the least subnormal */
            TV from_zero = sem_where(S, sem_compare(S, PY_CMP_GT, x[1], tv_float(0.0)), tv_float(tiny), tv_float(-tiny));
            r = sem_where(S, sem_compare(S, PY_CMP_EQ, x[0], tv_float(0.0)), sem_cast(S, from_zero, tl_scalar(S, k[0]), NULL), next);
            r = sem_where(S, sem_compare(S, PY_CMP_EQ, x[0], x[1]), x[1], r);
            TV nan = sem_binary(S, PY_BIN_BITOR, sem_compare(S, PY_CMP_NE, x[0], x[0]), sem_compare(S, PY_CMP_NE, x[1], x[1]));
            r = sem_where(S, nan, sem_binary(S, PY_BIN_ADD, x[0], x[1]), r);
        }
    } else if (!strcmp(n, "rsqrt_rn") || !strcmp(n, "rcbrt") || !strcmp(n, "rhypot") || !strcmp(n, "norm3d") ||
               !strcmp(n, "rnorm3d") || !strcmp(n, "norm4d") || !strcmp(n, "rnorm4d")) {
        if (!fp || !same) want = arity == 1 ? "fp32 or fp64" : "fp32 or fp64 arguments of one dtype";
        else {
            const char *base = n[0] == 'r' && strcmp(n, "rsqrt_rn") ? n + 1 : n;
            TV v;
            if (!strcmp(n, "rsqrt_rn")) v = tv_tensor(sem_ir(S, TT_PRECISE_SQRT, x[0].ty, x[0].v, NULL), x[0].ty);
            else if (!strcmp(base, "cbrt")) v = libdevice_call(S, "cbrt", x[0], tv_none());
            else if (!strcmp(base, "hypot")) v = libdevice_call(S, "hypot", x[0], x[1]);
            else v = norm_n(S, x, arity);
            r = base == n && strcmp(n, "rsqrt_rn") ? v : sem_fdiv(S, sem_cast(S, tv_float(1.0), tl_sca(x[0].ty), NULL), v, true);
        }
    } else if (!strcmp(n, "sinpi") || !strcmp(n, "cospi")) {
        if (!fp) want = "fp32 or fp64";
        else {
            r = sincospi_(S, x[0], n[0] == 'c');
        }
    } else if (!strcmp(n, "ldexp") || !strcmp(n, "scalbn")) {
        if (!fp || k[1] != TL_I32) want = "(fp32 or fp64, int32)";
        else {
            TV v = x[0];
            if (!sem_broadcast_pair(S, &v, &x[1])) return tv_err();
            r = ldexp_(S, v, x[1], k[0] == TL_FP64);
            /* zeros, infinities and NaN are their own results */
            TV keep = sem_binary(S, PY_BIN_BITOR, sem_compare(S, PY_CMP_EQ, v, tv_float(0.0)),
                                 sem_compare(S, PY_CMP_NE, sem_binary(S, PY_BIN_SUB, v, v), tv_float(0.0)));
            r = sem_where(S, keep, v, r);
        }
    } else if (!strcmp(n, "lgamma") || !strcmp(n, "tgamma")) {
        if (!fp) want = "fp32 or fp64";
        else if (k[0] == TL_FP32) /* in fp64 (fp32's Lanczos sum cancels; lgamma's zeros at 1 and 2), rounded once */
            r = sem_cast(S, gamma_(S, sem_cast(S, x[0], tl_scalar(S, TL_FP64), NULL), n[0] == 't'), tl_scalar(S, TL_FP32),
                         NULL);
        else r = gamma_(S, x[0], n[0] == 't');
    } else if (!strcmp(n, "logb") || !strcmp(n, "ilogb")) {
        if (!fp) want = "fp32 or fp64";
        else {
            bool f64 = k[0] == TL_FP64;
            TV e = exponent_(S, x[0], f64);
            TV zero = eq_(S, x[0], tv_float(0.0));
            TV inf = eq_(S, abs_(S, x[0]), tv_float(INFINITY));
            if (n[0] == 'l') {
                r = sem_cast(S, e, tl_sca(x[0].ty), NULL);
                r = sem_where(S, zero, fconst_(S, -INFINITY, x[0]), r);
                r = sem_where(S, inf, fconst_(S, INFINITY, x[0]), r);
                r = sem_where(S, isnan_(S, x[0]), x[0], r);
            } else { /* CUDA's (and glibc's): INT_MIN for 0 and NaN, INT_MAX for inf */
                r = sem_cast(S, e, i32, NULL);
                TV imin = sem_cast(S, tv_int(INT32_MIN), i32, NULL);
                r = sem_where(S, sem_binary(S, PY_BIN_BITOR, zero, isnan_(S, x[0])), imin, r);
                r = sem_where(S, inf, sem_cast(S, tv_int(INT32_MAX), i32, NULL), r);
            }
        }
    } else if (!strcmp(n, "remainder")) {
        /* IEEE remainder: x - n y, n the integer nearest x / y (ties to
         * even), from fmod's x - trunc(x / y) y by one step of |y| when
         * that is nearer */
        if (!fp || !same) want = "two fp32 or two fp64";
        else {
            TV f = libdevice_call(S, "fmod", x[0], x[1]);
            TV ay = abs_(S, x[1]), twice = mul_(S, abs_(S, f), tv_float(2.0));
            TV q = libdevice_call(S, "rint", sem_fdiv(S, sub_(S, x[0], f), x[1], true), tv_none());
            /* q is an integer: odd when q / 2 is not (exact; past 2^53 every q is even) */
            TV hq = mul_(S, q, tv_float(0.5));
            TV odd = sem_compare(S, PY_CMP_NE, libdevice_call(S, "floor", hq, tv_none()), hq);
            TV over = sem_binary(S, PY_BIN_BITOR, sem_compare(S, PY_CMP_GT, twice, ay),
                                 sem_binary(S, PY_BIN_BITAND, eq_(S, twice, ay), odd));
            r = sem_where(S, over, sub_(S, f, libdevice_call(S, "copysign", ay, f)), f);
        }
    } else if (!strcmp(n, "erfinv")) {
        if (!fp) want = "fp32 or fp64";
        else {
            TV ax = abs_(S, x[0]);
            r = libdevice_call(S, "copysign", erfinv_core_(S, ax, sub_(S, tv_float(1.0), ax), k[0] == TL_FP64), x[0]);
        }
    } else if (!strcmp(n, "erfcinv") || !strcmp(n, "normcdfinv")) {
        /* erfcinv(y) = erfinv(1 - y), with 1 - |1 - y| = y (y <= 1) or
         * 2 - y (exact) handed over: the tail near y = 0 keeps its digits;
         * normcdfinv(p) = -sqrt(2) erfcinv(2 p) */
        if (!fp) want = "fp32 or fp64";
        else {
            TV y = n[0] == 'n' ? mul_(S, x[0], tv_float(2.0)) : x[0];
            TV le1 = sem_compare(S, PY_CMP_LE, y, tv_float(1.0));
            TV ay = abs_(S, sub_(S, tv_float(1.0), y));
            TV c = sem_where(S, le1, y, sub_(S, tv_float(2.0), y));
            TV z = erfinv_core_(S, ay, c, k[0] == TL_FP64);
            r = sem_where(S, le1, z, mul_(S, z, tv_float(-1.0)));
            r = sem_where(S, lt_(S, y, tv_float(0.0)), fconst_(S, NAN, y), r);
            if (n[0] == 'n') r = mul_(S, r, tv_float(-M_SQRT2));
        }
    } else if (!strcmp(n, "byte_perm")) {
        /* byte i of the result: byte (s >> 4i) & 7 of the 8 bytes y:x */
        if (!i32u32 || !same) want = "three int32 or three uint32";
        else {
            const TlType *u64 = tl_scalar(S, TL_U64);
            TV xy = sem_binary(S, PY_BIN_BITOR, sem_cast(S, sem_bitcast(S, x[0], u32), u64, NULL),
                               sem_binary(S, PY_BIN_LSHIFT, sem_cast(S, sem_bitcast(S, x[1], u32), u64, NULL), tv_int(32)));
            TV sel = sem_cast(S, sem_bitcast(S, x[2], u32), u64, NULL);
            TV acc = tv_none();
            for (int b = 0; b < 4; b++) {
                TV nib = sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, sel, tv_int(4 * b)), tv_int(7));
                TV byte = sem_binary(S, PY_BIN_BITAND, sem_binary(S, PY_BIN_RSHIFT, xy, mul_(S, nib, tv_int(8))), tv_int(255));
                byte = sem_binary(S, PY_BIN_LSHIFT, byte, tv_int(8 * b));
                acc = b ? sem_binary(S, PY_BIN_BITOR, acc, byte) : byte;
            }
            r = sem_bitcast(S, sem_cast(S, acc, u32, NULL), tl_sca(x[0].ty));
        }
    } else if (!strcmp(n, "erfcx")) {
        if (!fp) want = "fp32 or fp64";
        else r = erfcx_(S, x[0]);
    } else if (!strcmp(n, "j0") || !strcmp(n, "j1") || !strcmp(n, "y0") || !strcmp(n, "y1") ||
               !strncmp(n, "cyl_bessel_i", 12)) {
        if (!fp) want = "fp32 or fp64";
        else r = sema_bessel(S, n, x[0]); /* (bessel.c) */
    } else if (!strcmp(n, "normcdf")) {
        if (!fp) want = "fp32 or fp64";
        else {
            /* erfc(t) / 2 for t = -x / sqrt(2), t split into th + tl (th the
             * rounded product, tl its error by fma plus 1/sqrt(2)'s own) and
             * erfc(th + tl) = erfc(th) - tl 2/sqrt(pi) e^-th^2: th's rounding
             * alone costs ~t^2 ulps of erfc's result in the far left tail. */
            bool f64 = k[0] == TL_FP64;
            double chi = f64 ? M_SQRT1_2 : (double)(float)M_SQRT1_2;
            double clo = f64 ? -4.8336466567264567e-17 : 0.70710678118654752440 - (double)(float)M_SQRT1_2;
            TV nx = sem_minus(S, x[0]);
            TV th = mul_(S, nx, tv_float(chi));
            TV tc = tv_float(chi), nth = sem_minus(S, th);
            if (!sem_binary_check(S, &tc, &nx, false, false, true, false)) return tv_err();
            Value *ops[3] = {nx.v, tc.v, nth.v};
            Type *ft = nx.ty->ir;
            TV fe = tv_tensor(op_result(sem_op(S, MATH_FMA, ops, 3, &ft, 1, 0), 0), nx.ty);
            TV tlo = add_(S, fe, mul_(S, nx, tv_float(clo)));
            tlo = sem_where(S, isnan_(S, tlo), tv_float(0.0), tlo); /* (x = +-inf: inf - inf) */
            TV th2 = sem_minus(S, mul_(S, th, th));
            TV dec = tv_tensor(sem_ir(S, MATH_EXP, th2.ty, th2.v, NULL), th2.ty);
            TV ec = sub_(S, libdevice_call(S, "erfc", th, tv_none()), mul_(S, mul_(S, tlo, tv_float(M_2_SQRTPI)), dec));
            r = mul_(S, ec, tv_float(0.5));
        }
    } else {
        return sema_error(S, "libdevice.%s is not supported", n);
    }
    if (want) {
        StrBuf got = {0};
        for (int i = 0; i < arity; i++) sb_printf(&got, "%s'%s'", i ? ", " : "", tl_cstr(S, tl_sca(x[i].ty)));
        TV e = sema_error(S, "%s() takes %s, got (%s)", n, want, sb_cstr(&got));
        sb_free(&got);
        return e;
    }
    return r;
}

/* The libdevice functions with the regular naming (and a C library twin for
 * the CPU backend); arg = the arity. */
static const Builtin libdevice_fns[] = {
#define LD1(nm) {nm, BI_LIBDEVICE, "arg0", bi_libdevice, 1}
#define LD2(nm) {nm, BI_LIBDEVICE, "arg0,arg1", bi_libdevice, 2}
    LD1("tanh"),  LD1("exp"),   LD1("exp2"),  LD1("expm1"), LD1("log"),   LD1("log2"),  LD1("log10"),
    LD1("log1p"), LD1("sqrt"),  LD1("cbrt"),  LD1("sin"),   LD1("cos"),   LD1("tan"),   LD1("asin"),
    LD1("acos"),  LD1("atan"),  LD1("sinh"),  LD1("cosh"),  LD1("asinh"), LD1("acosh"), LD1("atanh"),
    LD1("erf"),   LD1("erfc"),  LD1("floor"), LD1("ceil"),  LD1("trunc"), LD1("round"), LD1("fabs"),
    LD2("pow"),   LD2("atan2"), LD2("fmod"),  LD2("hypot"), LD2("fmin"),  LD2("fmax"),  LD2("copysign"),
    LD1("rint"),  LD1("nearbyint"), LD1("rsqrt"), LD1("exp10"),
    {"isnan", BI_LIBDEVICE, "arg0", bi_libdevice, 1 | LD_INT},
    {"isinf", BI_LIBDEVICE, "arg0", bi_libdevice, 1 | LD_INT},
    {"signbit", BI_LIBDEVICE, "arg0", bi_libdevice, 1 | LD_INT},
    {"finitef", BI_LIBDEVICE, "arg0", bi_libdevice, 1 | LD_INT | LD_F32},
    {"isfinited", BI_LIBDEVICE, "arg0", bi_libdevice, 1 | LD_INT | LD_F64},
#define LDI(nm) {nm, BI_LIBDEVICE, "arg0", bi_libdevice_int, 0}
    LDI("popc"), LDI("popcll"), LDI("clz"), LDI("clzll"), LDI("brev"), LDI("brevll"), LDI("ffs"), LDI("ffsll"),
#define LDA(nm) {nm, BI_LIBDEVICE, "arg0,arg1=", bi_libdevice_alias, 0}
    LDA("fast_expf"), LDA("fast_logf"), LDA("fast_log2f"), LDA("fast_log10f"), LDA("fast_exp10f"),
    LDA("fast_sinf"), LDA("fast_cosf"), LDA("fast_tanf"), LDA("fast_tanhf"), LDA("fast_powf"),
    LDA("fast_dividef"),
    LDA("float_as_int"), LDA("int_as_float"), LDA("double_as_longlong"), LDA("longlong_as_double"),
    LDA("llrint"), LDA("lrint"), LDA("llround"), LDA("lround"), LDA("float2int_rn"), LDA("float2int_rz"),
    LDA("float2int_rd"), LDA("float2int_ru"), LDA("float2uint_rn"), LDA("float2uint_rz"), LDA("double2int_rn"),
    LDA("double2ll_rn"), LDA("float2ll_rn"), LDA("float2ll_rz"), LDA("float2uint_rd"), LDA("float2uint_ru"),
    LDA("float2ll_rd"), LDA("float2ll_ru"), LDA("float2ull_rn"), LDA("float2ull_rz"), LDA("float2ull_rd"),
    LDA("float2ull_ru"), LDA("double2int_rz"), LDA("double2int_rd"), LDA("double2int_ru"), LDA("double2uint_rn"),
    LDA("double2uint_rz"), LDA("double2uint_rd"), LDA("double2uint_ru"), LDA("double2ll_rz"), LDA("double2ll_rd"),
    LDA("double2ll_ru"), LDA("double2ull_rn"), LDA("double2ull_rz"), LDA("double2ull_rd"), LDA("double2ull_ru"),
#define LDR(nm, ps, n) {nm "_rn", BI_LIBDEVICE, ps, bi_libdevice_rounded, n}, {nm "_rz", BI_LIBDEVICE, ps, bi_libdevice_rounded, n}, \
                       {nm "_rd", BI_LIBDEVICE, ps, bi_libdevice_rounded, n}, {nm "_ru", BI_LIBDEVICE, ps, bi_libdevice_rounded, n}
    LDR("add", "arg0,arg1", 2), LDR("sub", "arg0,arg1", 2), LDR("mul", "arg0,arg1", 2), LDR("div", "arg0,arg1", 2), LDR("rcp", "arg0", 1),
    LDR("sqrt", "arg0", 1), LDR("fma", "arg0,arg1,arg2", 3), {"saturatef", BI_LIBDEVICE, "arg0", bi_libdevice_rounded, 1},
#define LDC(nm, ps, n) {nm, BI_LIBDEVICE, ps, bi_libdevice_compose, n}
    LDC("abs", "arg0", 1), LDC("fma", "arg0,arg1,arg2", 3), LDC("fdim", "arg0,arg1", 2),
    LDC("uint_as_float", "arg0", 1), LDC("float_as_uint", "arg0", 1), LDC("hadd", "arg0,arg1", 2),
    LDC("rhadd", "arg0,arg1", 2), LDC("mulhi", "arg0,arg1", 2), LDC("mul24", "arg0,arg1", 2),
    LDC("sad", "arg0,arg1,arg2", 3), LDC("int2double_rn", "arg0", 1), LDC("uint2double_rn", "arg0", 1),
    LDC("hiloint2double", "arg0,arg1", 2), LDC("double2loint", "arg0", 1), LDC("double2hiint", "arg0", 1),
    LDC("nextafter", "arg0,arg1", 2), LDC("rsqrt_rn", "arg0", 1), LDC("rcbrt", "arg0", 1),
    LDC("rhypot", "arg0,arg1", 2), LDC("norm3d", "arg0,arg1,arg2", 3), LDC("rnorm3d", "arg0,arg1,arg2", 3),
    LDC("norm4d", "arg0,arg1,arg2,arg3", 4), LDC("rnorm4d", "arg0,arg1,arg2,arg3", 4), LDC("sinpi", "arg0", 1),
    LDC("cospi", "arg0", 1), LDC("ldexp", "arg0,arg1", 2), LDC("scalbn", "arg0,arg1", 2), LDC("normcdf", "arg0", 1),
    LDC("lgamma", "arg0", 1), LDC("tgamma", "arg0", 1), LDC("logb", "arg0", 1), LDC("ilogb", "arg0", 1),
    LDC("remainder", "arg0,arg1", 2), LDC("erfinv", "arg0", 1), LDC("erfcinv", "arg0", 1),
    LDC("j0", "arg0", 1), LDC("j1", "arg0", 1), LDC("y0", "arg0", 1), LDC("y1", "arg0", 1),
    LDC("cyl_bessel_i0", "arg0", 1), LDC("cyl_bessel_i1", "arg0", 1),
    LDC("normcdfinv", "arg0", 1), LDC("erfcx", "arg0", 1), LDC("byte_perm", "arg0,arg1,arg2", 3),
#undef LDC
#define LDF(nm) {nm "_rn", BI_LIBDEVICE, "arg0", bi_libdevice_to_float, 0}, {nm "_rz", BI_LIBDEVICE, "arg0", bi_libdevice_to_float, 0}, \
                {nm "_rd", BI_LIBDEVICE, "arg0", bi_libdevice_to_float, 0}, {nm "_ru", BI_LIBDEVICE, "arg0", bi_libdevice_to_float, 0}
    LDF("int2float"), LDF("uint2float"), LDF("ll2float"), LDF("ull2float"), LDF("ll2double"), LDF("ull2double"),
    LDF("double2float"),
#undef LDF
#undef LDR
#undef LDI
#undef LDA
#undef LD1
#undef LD2
};

/* Names to rows of a Builtin table: open addressing over the names' hashes,
 * each slot a row + 1 (0 empty), every row of a name in a slot of its own,
 * built once per process. libdevice_fns and builtins each have one: every
 * `tl.X`, method and libdevice call looks a name up (a strcmp scan of ~200
 * libdevice rows per call was measurable in compile time). */
typedef struct BuiltinIndex {
    const Builtin *rows;
    int nrows;
    int16_t *slots;
    unsigned mask; /* slots - 1, a power of two minus one */
} BuiltinIndex;

static unsigned index_hash(const BuiltinIndex *ix, const char *name) {
    return (unsigned)hash_bytes(name, strlen(name), 0) & ix->mask;
}

static void index_build(BuiltinIndex *ix) {
    for (int i = 0; i < ix->nrows; i++) {
        unsigned h = index_hash(ix, ix->rows[i].name);
        while (ix->slots[h]) h = (h + 1) & ix->mask;
        ix->slots[h] = (int16_t)(i + 1);
    }
}

/* The first row (in table order) named `name` in one of the namespaces `where`, or NULL. */
static const Builtin *index_lookup(const BuiltinIndex *ix, unsigned where, const char *name) {
    const Builtin *best = NULL;
    for (unsigned h = index_hash(ix, name); ix->slots[h]; h = (h + 1) & ix->mask) {
        const Builtin *b = &ix->rows[ix->slots[h] - 1];
        if ((b->where & where) && !strcmp(b->name, name) && (!best || b < best)) best = b;
    }
    return best;
}

enum { LIBDEVICE_SLOTS = 512 };
_Static_assert(TC_ARRAY_LEN(libdevice_fns) < LIBDEVICE_SLOTS / 2, "libdevice index too small");
static int16_t libdevice_slots[LIBDEVICE_SLOTS];
static BuiltinIndex libdevice_ix = {libdevice_fns, TC_ARRAY_LEN(libdevice_fns), libdevice_slots, LIBDEVICE_SLOTS - 1};
static pthread_once_t libdevice_once = PTHREAD_ONCE_INIT;
static void libdevice_index(void) { index_build(&libdevice_ix); }

/* The first row (in table order) of libdevice_fns named `name`, or NULL. */
static const Builtin *libdevice_lookup(const char *name) {
    pthread_once(&libdevice_once, libdevice_index);
    return index_lookup(&libdevice_ix, BI_LIBDEVICE, name);
}

/* The functions of Triton's libdevice module (extra/cuda/libdevice.py) that
 * tritonc does not implement: named, they get "not supported yet" rather
 * than "no attribute". */
static const char *const libdevice_missing[] = {
    "rcp64h", "yn", "jn",
};

bool sema_libdevice_missing(const char *name) {
    for (int i = 0; i < TC_ARRAY_LEN(libdevice_missing); i++)
        if (!strcmp(libdevice_missing[i], name)) return true;
    return false;
}

/* libdevice.NAME(x[, y]) from C: the table's function on tensors. */
static TV libdevice_call(Sema *S, const char *name, TV x, TV y) {
    const Builtin *bi = libdevice_lookup(name);
    if (bi) {
        CallArgs a = {.bi = bi};
        for (int k = 0; k < MAX_CALL_ARGS; k++) a.v[k] = tv_none();
        a.v[0] = x;
        a.v[1] = y;
        a.given[0] = true;
        a.given[1] = y.kind != TV_NONE;
        return bi->fn(S, &a);
    }
    return sema_error(S, "libdevice.%s is not supported", name);
}

/* ---- the table ------------------------------------------------------------------------- */

#define TL (BI_TL)
#define TLM (BI_TL | BI_METHOD)
#define MATH (BI_TL | BI_MATH | BI_METHOD | BI_LIBDEVICE)
#define MM (BI_MATH | BI_LIBDEVICE)

static const Builtin builtins[] = {
    {"program_id", TL, "axis", bi_program_id, 0},
    {"num_programs", TL, "axis", bi_program_id, 1},
    {"arange", TL, "start,end", bi_arange, 0},
    {"full", TL, "shape,value,dtype", bi_full, 0},
    {"zeros", TL, "shape,dtype", bi_zeros, 0},
    {"zeros_like", TLM, "input", bi_zeros_like, 0},
    {"load", TL, "pointer,mask=,other=,boundary_check=,padding_option=,cache_modifier=,eviction_policy=,volatile=",
     bi_load, 0},
    {"store", TLM, "pointer,value,mask=,boundary_check=,cache_modifier=,eviction_policy=", bi_store, 0},
    {"make_block_ptr", TL, "base,shape,strides,offsets,block_shape,order", bi_make_block_ptr, 0},
    {"advance", TLM, "base,offsets", bi_advance, 0},
    {"atomic_add", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_max", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_min", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_and", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_or", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_xor", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_xchg", TLM, "pointer,val,mask=,sem=,scope=", bi_atomic, 0},
    {"atomic_cas", TLM, "pointer,cmp,val,sem=,scope=", bi_atomic_cas, 0},
    {"exp", MATH, "x", bi_math1, MATH_EXP},
    {"exp2", MATH, "x", bi_math1, MATH_EXP2},
    {"log", MATH, "x", bi_math1, MATH_LOG},
    {"log2", MATH, "x", bi_math1, MATH_LOG2},
    {"sqrt", MATH, "x", bi_math1, MATH_SQRT},
    {"rsqrt", MATH, "x", bi_math1, MATH_RSQRT},
    {"sin", MATH, "x", bi_math1, MATH_SIN},
    {"cos", MATH, "x", bi_math1, MATH_COS},
    {"erf", MATH, "x", bi_math1, MATH_ERF},
    {"floor", MATH, "x", bi_math1, MATH_FLOOR},
    {"ceil", MATH, "x", bi_math1, MATH_CEIL},
    {"tanh", MM, "x", bi_math1, MATH_TANH},
    {"abs", MATH | BI_PY, "x", bi_abs, 0},
    {"fabs", MM, "x", bi_abs, 0},
    {"sqrt_rn", MATH, "x", bi_sqrt_rn, 0},
    {"div_rn", MATH, "x,y", bi_div_rn, 0},
    {"fdiv", MATH, "x,y,ieee_rounding=", bi_fdiv, 0},
    {"add", TL, "x,y,sanitize_overflow=", bi_arith, PY_BIN_ADD},
    {"sub", TL, "x,y,sanitize_overflow=", bi_arith, PY_BIN_SUB},
    {"mul", TL, "x,y,sanitize_overflow=", bi_arith, PY_BIN_MUL},
    {"fma", MATH, "x,y,z", bi_fma, 0},
    {"umulhi", MATH, "x,y", bi_umulhi, 0},
    {"minimum", TLM | BI_MATH, "x,y,propagate_nan=", bi_minmax, 0},
    {"maximum", TLM | BI_MATH, "x,y,propagate_nan=", bi_minmax, 1},
    {"clamp", TLM, "x,min,max,propagate_nan=", bi_clamp, 0},
    {"where", TL, "condition,x,y", bi_where, 0},
    {"sigmoid", TLM, "x", bi_sigmoid, 0},
    {"softmax", TLM, "x,dim=,keep_dims=,ieee_rounding=", bi_softmax, 0},
    {"cdiv", TL | BI_TRITON | BI_MATH | BI_METHOD, "x,div", bi_cdiv, 0},
    {"logical_and", BI_METHOD, "self,other", bi_logical, 1},
    {"item", BI_METHOD, "self", bi_item, 0},
    {"logical_or", BI_METHOD, "self,other", bi_logical, 0},
    {"condition", TL, "arg,disable_licm=", bi_condition, 0},
    {"sum", TLM, "input,axis=,keep_dims=,dtype=", bi_sum, 0},
    {"xor_sum", TLM, "input,axis=,keep_dims=", bi_int_reduce, CB_XOR},
    {"reduce_or", TLM, "input,axis,keep_dims=", bi_int_reduce, CB_OR},
    {"max", TLM, "input,axis=,return_indices=,return_indices_tie_break_left=,keep_dims=", bi_maxmin, 1},
    {"min", TLM, "input,axis=,return_indices=,return_indices_tie_break_left=,keep_dims=", bi_maxmin, 0},
    {"argmax", TLM, "input,axis,tie_break_left=,keep_dims=", bi_argmaxmin, 1},
    {"argmin", TLM, "input,axis,tie_break_left=,keep_dims=", bi_argmaxmin, 0},
    {"reduce", TLM, "input,axis,combine_fn,keep_dims=", bi_reduce, 0},
    {"cumsum", TLM, "input,axis=,reverse=,dtype=", bi_cumsum, 0},
    {"cumprod", TLM, "input,axis=,reverse=,dtype=", bi_cumsum, 1},
    {"associative_scan", TLM, "input,axis,combine_fn,reverse=", bi_assoc_scan, 0},
    {"dot", TLM, "input,other,acc=,input_precision=,allow_tf32=,max_num_imprecise_acc=,out_dtype=", bi_dot, 0},
    {"trans", TLM, "input,*dims", bi_trans, 0},
    {"permute", TLM, "input,*dims", bi_trans, 1},
    {"reshape", TLM, "input,*shape,can_reorder=", bi_reshape, 0},
    {"view", TLM, "input,*shape", bi_reshape, 1},
    {"ravel", TLM, "x,can_reorder=", bi_ravel, 0},
    {"expand_dims", TLM, "input,axis", bi_expand_dims, 0},
    {"broadcast_to", TLM, "input,*shape", bi_broadcast_to, 0},
    {"broadcast", TLM, "input,other", bi_broadcast, 0},
    {"join", TLM, "a,b", bi_join, 0},
    {"split", TLM, "a", bi_split, 0},
    {"interleave", TLM, "a,b", bi_interleave, 0},
    {"cast", TLM, "input,dtype,fp_downcast_rounding=,bitcast=", bi_cast, 0},
    {"to", BI_METHOD, "input,dtype,fp_downcast_rounding=,bitcast=", bi_cast, 0},
    {"multiple_of", TL, "input,values", bi_hint, 0},
    {"max_contiguous", TL, "input,values", bi_hint, 1},
    {"max_constancy", TL, "input,values", bi_hint, 2},
    {"static_assert", TL, "cond,msg=", bi_static_assert, 0},
    {"static_print", TL, "*values", bi_static_print, 0},
    {"device_print", TL, "prefix,*args,hex=", bi_device_print, 0},
    {"device_assert", TL, "cond,msg=,mask=", bi_device_assert, 0},
    {"debug_barrier", TL, "", bi_barrier, 0},
    {"assume", TL, "cond", bi_assume, 0},
    {"make_tensor_descriptor", TL, "base,shape,strides,block_shape,padding_option=", bi_make_tensor_descriptor, 0},
    {"load_tensor_descriptor", TL, "desc,offsets", bi_desc_load, 0},
    {"store_tensor_descriptor", TL, "desc,offsets,value", bi_desc_store, 0},
    {"load", BI_DESC, "desc,offsets", bi_desc_load, 0},
    {"store", BI_DESC, "desc,offsets,value", bi_desc_store, 0},
    {"atomic_add", BI_DESC, "desc,offsets,value", bi_desc_atomic, 0},
    {"atomic_min", BI_DESC, "desc,offsets,value", bi_desc_atomic, 0},
    {"atomic_max", BI_DESC, "desc,offsets,value", bi_desc_atomic, 0},
    {"atomic_and", BI_DESC, "desc,offsets,value", bi_desc_atomic, 0},
    {"atomic_or", BI_DESC, "desc,offsets,value", bi_desc_atomic, 0},
    {"atomic_xor", BI_DESC, "desc,offsets,value", bi_desc_atomic, 0},
    {"gather", BI_DESC, "desc,*args", bi_desc_unsupported, 0},
    {"scatter", BI_DESC, "desc,*args", bi_desc_unsupported, 0},
    {"swizzle2d", TL, "i,j,size_i,size_j,size_g", bi_swizzle2d, 0},
    {"flip", TLM, "x,dim=", bi_flip, 0},
    {"sort", TLM, "x,dim=,descending=", bi_sort, 0},
    {"topk", TLM, "x,k,dim=,descending=", bi_topk, 0},
    {"bitonic_merge", TL, "x,dim=,descending=", bi_bitonic_merge, 0},
    {"cat", TL, "input,other,can_reorder=", bi_cat, 0},
    {"gather", TLM, "src,index,axis", bi_gather, 0},
    {"histogram", TLM, "input,num_bins,mask=", bi_histogram, 0},
    {"inline_asm_elementwise", TL, "asm,constraints,args,dtype,is_pure,pack", bi_inline_asm, 0},
    {"map_elementwise", TL, "scalar_fn,*args,pack=", bi_map_elementwise, 0},
    {"dot_scaled", TL, "lhs,lhs_scale,lhs_format,rhs,rhs_scale,rhs_format,acc=,fast_math=,lhs_k_pack=,rhs_k_pack=,out_dtype=", bi_dot_scaled, 0},
    {"rand", TL, "seed,offset,n_rounds=", bi_random, 0},
    {"randint", TL, "seed,offset,n_rounds=", bi_random, 1},
    {"randint4x", TL, "seed,offset,n_rounds=", bi_random, 2},
    {"randn", TL, "seed,offset,n_rounds=", bi_random, 3},
    {"rand4x", TL, "seed,offsets,n_rounds=", bi_random, 4},
    {"randn4x", TL, "seed,offset,n_rounds=", bi_random, 5},
    {"philox", TL, "seed,c0,c1,c2,c3,n_rounds=", bi_philox, 0},
    {"philox_impl", TL, "c0,c1,c2,c3,k0,k1,n_rounds=", bi_philox, 1},
    {"uint_to_uniform_float", TL, "x", bi_uint_to_uniform_float, 0},
    {"pair_uniform_to_normal", TL, "u1,u2", bi_pair_uniform_to_normal, 0},
    {"constexpr", TL, "value", bi_constexpr, 0},
    {"pointer_type", TL, "element_ty,address_space=,const=", bi_pointer_type, 0},
    {"to_tensor", TL, "x", bi_constexpr, 0},
    {"range", TL,
     "arg1,arg2=,step=,num_stages=,loop_unroll_factor=,disallow_acc_multi_buffer=,flatten=,warp_specialize=,disable_licm=",
     bi_range_call, 1},
    {"static_range", TL, "arg1,arg2=,step=", bi_range_call, 0},
    {"range", BI_PY, "*args", bi_range_call, 0},
    {"min", BI_PY, "*args", bi_py_minmax, 0},
    {"max", BI_PY, "*args", bi_py_minmax, 1},
    {"len", BI_PY, "obj", bi_len, 0},
    {"enumerate", BI_PY, "iterable,start=", bi_enumerate, 0},
    {"zip", BI_PY, "*iterables", bi_zip, 0},
    {"tuple", TL, "args=", bi_tl_tuple, 0},
    {"tuple", BI_PYCX, "iterable=", bi_py_tuple, 0},
    {"list", BI_PYCX, "iterable=", bi_py_tuple, 0},
    {"getattr", BI_PY, "obj,name,default=", bi_getattr, 0},
    {"hasattr", BI_PY, "obj,name", bi_getattr, 1},
    {"isinstance", BI_PY, "obj,classinfo", bi_isinstance, 0},
    {"int", BI_PY, "x", bi_int, 0},
    {"float", BI_PY, "x", bi_float, 0},
    {"bool", BI_PY, "x", bi_bool, 0},
    {"print", BI_PY, "*args", bi_py_print, 0},
    {"next_power_of_2", BI_TRITON, "n", bi_next_pow2, 0},
    {"bit_length", BI_METHOD, "self", bi_number_method, 0},
    {"is_integer", BI_METHOD, "self", bi_number_method, 0},
    {"is_floating", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int_signed", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int_unsigned", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_ptr", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp8", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_bool", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp16", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_bf16", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp32", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp64", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp8e4nv", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp8e5", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp8e4b15", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp8e4b8", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_fp8e5b16", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int1", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int8", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int16", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int32", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_int64", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_uint8", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_uint16", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_uint32", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_uint64", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_standard_floating", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_block", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_const", BI_METHOD, "self", bi_dtype_pred, 0},
    {"is_tuple", BI_METHOD, "self", bi_dtype_pred, 0},
    {"get_int_max_value", BI_METHOD, "self", bi_dtype_pred, 0},
    {"get_int_min_value", BI_METHOD, "self", bi_dtype_pred, 0},
    {"get_block_shapes", BI_METHOD, "self", bi_dtype_pred, 0},
};

enum { BUILTIN_SLOTS = 1024 };
_Static_assert(TC_ARRAY_LEN(builtins) < BUILTIN_SLOTS / 2, "builtin index too small");
static int16_t builtin_slots[BUILTIN_SLOTS];
static BuiltinIndex builtin_ix = {builtins, TC_ARRAY_LEN(builtins), builtin_slots, BUILTIN_SLOTS - 1};
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static void builtin_index(void) { index_build(&builtin_ix); }

/* The first row (in table order) of `name` found in namespace `where`. */
const char *builtin_suggest(unsigned where, const char *name) {
    const char *best = NULL;
    int bestd = 99;
    for (int i = 0; i < TC_ARRAY_LEN(builtins); i++)
        if ((builtins[i].where & where) && builtins[i].name[0] != '_') sema_suggest(name, builtins[i].name, &best, &bestd);
    return best;
}

const Builtin *builtin_lookup(unsigned where, const char *name) {
    pthread_once(&builtin_once, builtin_index);
    return index_lookup(&builtin_ix, where, name);
}

static TV module_attr(Sema *S, int mod, const char *name, bool *found) {
    *found = true;
    switch (mod) {
    case MOD_TRITON:
        if (!strcmp(name, "language")) return (TV){.kind = TV_MODULE, .i = MOD_TL};
        break;
    case MOD_TL:
    case MOD_TL_CORE:
        if (!strcmp(name, "math")) return (TV){.kind = TV_MODULE, .i = MOD_TL_MATH};
        if (!strcmp(name, "extra")) return (TV){.kind = TV_MODULE, .i = MOD_TL_EXTRA};
        if (!strcmp(name, "libdevice")) return (TV){.kind = TV_MODULE, .i = MOD_LIBDEVICE}; /* Triton 2.0's tl.libdevice */
        if (!strcmp(name, "core")) return (TV){.kind = TV_MODULE, .i = MOD_TL_CORE};
        if (!strcmp(name, "target_info")) return (TV){.kind = TV_MODULE, .i = MOD_TL_TARGET};
        if (!strcmp(name, "random")) return (TV){.kind = TV_MODULE, .i = MOD_TL_RANDOM};
        {
            const TlType *t = tl_dtype_by_name(S, name);
            if (t && strcmp(name, "float") && strcmp(name, "double") && strcmp(name, "half") && strcmp(name, "bool"))
                return tv_dtype(t);
        }
        if (!strcmp(name, "pi32_t")) return tv_dtype(tl_ptr(S, tl_scalar(S, TL_I32)));
        if (!strcmp(name, "TRITON_MAX_TENSOR_NUMEL")) return tv_int(TL_MAX_NUMEL);
        if (!strcmp(name, "PropagateNan")) return (TV){.kind = TV_MODULE, .i = MOD_COUNT};
        if (!strcmp(name, "tensor")) return (TV){.kind = TV_MODULE, .i = MOD_CLS_TENSOR};
        if (!strcmp(name, "tensor_descriptor")) return (TV){.kind = TV_MODULE, .i = MOD_CLS_DESC};
        if (!strcmp(name, "dtype")) return (TV){.kind = TV_MODULE, .i = MOD_CLS_DTYPE};
        break;
    case MOD_TL_EXTRA:
        if (!strcmp(name, "cuda")) return (TV){.kind = TV_MODULE, .i = MOD_TL_CUDA};
        if (!strcmp(name, "libdevice")) return (TV){.kind = TV_MODULE, .i = MOD_LIBDEVICE};
        break;
    case MOD_TL_CUDA:
        if (!strcmp(name, "libdevice")) return (TV){.kind = TV_MODULE, .i = MOD_LIBDEVICE};
        for (int i = 0; i < TC_ARRAY_LEN(cuda_fns); i++)
            if (!strcmp(cuda_fns[i].name, name)) return (TV){.kind = TV_BUILTIN, .bi = &cuda_fns[i]};
        break;
    case MOD_PYMATH:
        if (!strcmp(name, "pi")) return tv_float(M_PI);
        if (!strcmp(name, "e")) return tv_float(M_E);
        if (!strcmp(name, "tau")) return tv_float(2 * M_PI);
        if (!strcmp(name, "inf")) return tv_float(INFINITY);
        if (!strcmp(name, "nan")) return tv_float(NAN);
        for (int i = 0; i < TC_ARRAY_LEN(pymath_fns); i++)
            if (!strcmp(pymath_fns[i].name, name)) return (TV){.kind = TV_BUILTIN, .bi = &pymath_fns[i]};
        break;
    case MOD_TL_TARGET:
        for (int i = 0; i < TC_ARRAY_LEN(target_info_fns); i++)
            if (!strcmp(target_info_fns[i].name, name)) return (TV){.kind = TV_BUILTIN, .bi = &target_info_fns[i]};
        break;
    case MOD_TL_RANDOM: {
        /* triton.language.random: the Philox generator's names, which
         * triton.language also exports (tl.random.randint is tl.randint) */
        static const char *const random_names[] = {"philox", "philox_impl", "rand", "rand4x", "randint", "randint4x",
                                                   "randn", "randn4x", "pair_uniform_to_normal",
                                                   "uint_to_uniform_float"};
        if (!strcmp(name, "N_ROUNDS_DEFAULT")) return tv_int(10);
        for (int i = 0; i < TC_ARRAY_LEN(random_names); i++)
            if (!strcmp(random_names[i], name)) return (TV){.kind = TV_BUILTIN, .bi = builtin_lookup(BI_TL, name)};
        break;
    }
    case MOD_COUNT: /* tl.PropagateNan */
        if (!strcmp(name, "NONE")) return tv_int(0);
        if (!strcmp(name, "ALL")) return tv_int(0xffff);
        break;
    default: break;
    }
    unsigned where = mod == MOD_TL || mod == MOD_TL_CORE ? BI_TL
                     : mod == MOD_TL_MATH                ? BI_MATH
                     : mod == MOD_LIBDEVICE              ? BI_LIBDEVICE
                     : mod == MOD_TRITON                 ? BI_TRITON
                                                         : 0;
    const Builtin *bi = mod == MOD_LIBDEVICE ? libdevice_lookup(name) : NULL;
    if (bi) return (TV){.kind = TV_BUILTIN, .bi = bi};
    bi = where ? builtin_lookup(where, name) : NULL;
    if (bi) return (TV){.kind = TV_BUILTIN, .bi = bi};
    if (mod == MOD_TL_MATH) {
        /* Triton 2's tl.math was libdevice (tl.math.pow, tl.math.log1p,
         * tl.math.max): code written for it still finds those names */
        if (!strcmp(name, "max") || !strcmp(name, "min"))
            return (TV){.kind = TV_BUILTIN, .bi = builtin_lookup(BI_TL, name[1] == 'a' ? "maximum" : "minimum")};
        if ((bi = builtin_lookup(BI_TL, name)) && (!strcmp(name, "sigmoid") || !strcmp(name, "clamp") ||
                                                    !strcmp(name, "softmax")))
            return (TV){.kind = TV_BUILTIN, .bi = bi};
        if ((bi = libdevice_lookup(name))) return (TV){.kind = TV_BUILTIN, .bi = bi};
    }
    *found = false;
    return tv_err();
}

/* module_attr's answers, kept per thread from one compile to the next:
 * what a name of a module is depends only on the tables here, and kernels
 * ask for the same few (tl.load, tl.float32, tl.arange) in every compile,
 * where the first lookup of each went through a chain of string compares.
 * A dtype is kept as its scalar kind (its TlType belongs to the compile);
 * names longer than the slot's are not kept. */
enum { MOD_MEMO_BITS = 6, MOD_MEMO_NAME = 40 };
typedef struct ModAttrMemo {
    uint64_t hash; /* 0: empty */
    int mod;
    int dtype;     /* a dtype's TlKind + 1, or -1 for pi32_t (a pointer); 0: v as it is */
    bool found;
    TV v;
    char name[MOD_MEMO_NAME];
} ModAttrMemo;
static _Thread_local ModAttrMemo mod_attr_memo[1 << MOD_MEMO_BITS];

TV builtin_module_attr(Sema *S, int mod, const char *name, bool *found) {
    size_t n = strlen(name);
    uint64_t h = (hash_bytes(name, n, (uint64_t)mod) | 1);
    ModAttrMemo *m = &mod_attr_memo[h >> (64 - MOD_MEMO_BITS)];
    if (m->hash == h && m->mod == mod && !strcmp(m->name, name)) {
        *found = m->found;
        if (m->dtype > 0) return tv_dtype(tl_scalar(S, (TlKind)(m->dtype - 1)));
        if (m->dtype < 0) return tv_dtype(tl_ptr(S, tl_scalar(S, TL_I32)));
        return m->v;
    }
    TV v = module_attr(S, mod, name, found);
    int dtype = 0;
    if (v.kind == TV_DTYPE && v.ty->kind < TL_NSCALAR) dtype = (int)v.ty->kind + 1;
    else if (v.kind == TV_DTYPE && tl_is_ptr(v.ty) && v.ty->elem->kind == TL_I32) dtype = -1;
    else if (v.kind == TV_DTYPE) dtype = INT_MIN; /* (none such: not kept) */
    if (n < MOD_MEMO_NAME && dtype != INT_MIN) {
        m->hash = h;
        m->mod = mod;
        m->found = *found;
        m->v = v;
        m->dtype = dtype;
        memcpy(m->name, name, n + 1);
    }
    return v;
}

/* ---- binding ---------------------------------------------------------------------------- */

typedef struct Param {
    const char *name; /* in the spec, len bytes */
    int len;
    bool optional, varargs;
    const char *interned; /* the name as a keyword argument spelled it (interned), once one did */
} Param;

/* A builtin's parameters: its spec ("input,dtype,fp_downcast_rounding=,*args")
 * split, the names left in it. */
typedef struct Params {
    int n;
    int var;    /* the *args parameter's index, or -1 */
    int nfixed; /* the parameters before it (all of them without one) */
    int nreq;   /* those of them that are not optional */
    uint32_t required; /* a bit per parameter that is not optional */
    Param p[MAX_CALL_ARGS];
} Params;

static void split_params(const char *spec, Params *out) {
    out->n = 0;
    for (const char *s = spec; *s;) {
        Param p = {.varargs = *s == '*'};
        if (p.varargs) s++;
        p.name = s;
        while (*s && *s != ',') s++;
        p.len = (int)(s - p.name);
        if (p.len && p.name[p.len - 1] == '=') {
            p.optional = true;
            p.len--;
        }
        if (out->n < MAX_CALL_ARGS) out->p[out->n++] = p;
        if (*s) s++;
    }
    out->var = -1;
    for (int i = 0; i < out->n; i++)
        if (out->p[i].varargs) out->var = i;
    out->nfixed = out->var >= 0 ? out->var : out->n;
    out->nreq = 0;
    for (int i = 0; i < out->nfixed; i++)
        if (!out->p[i].optional) out->nreq++;
    out->required = 0;
    for (int i = 0; i < out->n; i++)
        if (!out->p[i].optional) out->required |= UINT32_C(1) << i;
}

/* bi's parameters, split at its first call in the compile. */
static Params *params_of(Sema *S, const Builtin *bi) {
    Params *ps = map_get(&S->bi_params, MAP_KEY(bi));
    if (!ps) {
        ps = ARENA_NEW(S->arena, Params);
        split_params(bi->params, ps);
        map_put(&S->bi_params, MAP_KEY(bi), ps);
    }
    return ps;
}

/* The parameter (not *args) a keyword argument names, or -1. Keyword
 * names are the parser's, interned: a parameter keeps the first keyword
 * that named it, and later ones are compared by address; the text of the
 * spec is compared only the first time (a kernel passes mask=, other=,
 * dtype= ... at every call). */
static int keyword_index(Params *ps, const char *name) {
    for (int i = 0; i < ps->n; i++)
        if (ps->p[i].interned == name && !ps->p[i].varargs) return i;
    for (int i = 0; i < ps->n; i++) {
        Param *p = &ps->p[i];
        if (!p->interned && !p->varargs && !strncmp(p->name, name, (size_t)p->len) && name[p->len] == 0) {
            p->interned = name;
            return i;
        }
    }
    return -1;
}

static const char *display_name(const Builtin *bi, char *buf, size_t n) {
    if (bi->where & BI_TL) snprintf(buf, n, "tl.%s", bi->name);
    else if (bi->where & BI_MATH) snprintf(buf, n, "tl.math.%s", bi->name);
    else snprintf(buf, n, "%s", bi->name);
    return buf;
}

TV builtin_call(Sema *S, const Builtin *bi, const TV *recv, const PyExpr *call) {
    Params *params = params_of(S, bi);
    const Param *ps = params->p;
    int np = params->n;
    /* v[i] is set for every parameter below (tv_none if absent), so only
     * the flags and nodes start cleared: a CallArgs is kilobytes */
    CallArgs a;
    a.bi = bi;
    a.call = call;
    memset(a.given, 0, sizeof a.given);
    memset(a.node, 0, sizeof a.node);
    char dn[64]; /* the name in messages, made only for one (no snprintf per call) */
    int pos = 0, var = params->var, nfixed = params->nfixed, nreq = params->nreq;
    uint32_t given = 0; /* a.given as bits (for the parameters not given, below) */
    bool bad = false;
    VEC(TV) extra = {0};
    if (recv) {
        a.v[0] = *recv;
        a.given[0] = true;
        given = 1;
        pos = 1;
    }
    int npos = call->call.args.len + (recv ? 1 : 0);
    for (int i = 0; i < call->call.args.len; i++) {
        const PyExpr *ae = call->call.args.items[i];
        TV v;
        if (ae->kind == PY_EXPR_STARRED) {
            v = cg_expr(S, ae->value);
            if (v.kind != TV_TUPLE && v.kind != TV_ERR) {
                S->loc = ae->loc;
                v = sema_error(S, "only tuples can be unpacked with *");
            }
            if (v.kind == TV_TUPLE) {
                for (int k = 0; k < v.n; k++) {
                    if (pos < nfixed) {
                        a.v[pos] = v.elems[k];
                        given |= UINT32_C(1) << pos;
                        a.given[pos++] = true;
                    } else if (var >= 0) vec_push(&extra, v.elems[k]);
                    else pos++;
                }
                npos += v.n - 1;
                continue;
            }
        } else {
            v = cg_expr(S, ae);
        }
        bad |= v.kind == TV_ERR;
        if (pos < nfixed) {
            a.v[pos] = v;
            a.node[pos] = ae;
            a.given[pos] = true;
            given |= UINT32_C(1) << pos;
            pos++;
        } else if (var >= 0) {
            /* a varargs parameter given one argument (reshape(x, (4, 2)),
             * taken as the tuple it is by unpack_var) points there */
            a.node[var] = extra.len ? NULL : ae;
            vec_push(&extra, v);
        } else {
            pos++;
        }
    }
    S->loc = call->loc;
    int call_span = call->end > call->off && call->end - call->off < 200 ? (int)(call->end - call->off) : 1;
    S->span = call_span;
    S->span_node = NULL;
    if (var < 0 && npos > nfixed) {
        if (nreq == nfixed)
            sema_error(S, "%s() takes %d positional argument%s but %d %s given", display_name(bi, dn, sizeof dn),
                       nfixed, nfixed == 1 ? "" : "s",
                       npos, npos == 1 ? "was" : "were");
        else
            sema_error(S, "%s() takes from %d to %d positional arguments but %d were given",
                       display_name(bi, dn, sizeof dn), nreq, nfixed, npos);
        vec_free(&extra);
        return tv_err();
    }
    for (int k = 0; k < call->call.nkeywords; k++) {
        const PyKeyword *kw = &call->call.keywords[k];
        TV v = cg_expr(S, kw->value);
        bad |= v.kind == TV_ERR;
        int j = kw->name ? keyword_index(params, kw->name) : -1;
        if (j < 0 || a.given[j]) { /* (the keyword's place, for the report) */
            S->loc = kw->loc;
            S->span = kw->name ? (int)strlen(kw->name) : 2;
            S->span_node = NULL;
        }
        if (j < 0) {
            sema_error(S, "%s() got an unexpected keyword argument '%s'", display_name(bi, dn, sizeof dn),
                       kw->name ? kw->name : "**");
            bad = true;
        } else if (a.given[j]) {
            sema_error(S, "%s() got multiple values for argument '%s'", display_name(bi, dn, sizeof dn), kw->name);
            bad = true;
        } else {
            a.v[j] = v;
            a.node[j] = kw->value;
            a.given[j] = true;
            given |= UINT32_C(1) << j;
        }
    }
    S->loc = call->loc;
    S->span = call_span;
    S->span_node = NULL;
    if (var >= 0) {
        TV t = {.kind = TV_TUPLE, .n = extra.len};
        t.elems = ARENA_ARRAY(S->arena, TV, extra.len + 1);
        if (extra.len) memcpy(t.elems, extra.data, sizeof(TV) * (size_t)extra.len);
        a.v[var] = t;
        a.given[var] = true;
        given |= UINT32_C(1) << var;
    }
    vec_free(&extra);
    /* the parameters not given: None, or (the first, when all else was
     * well) the error of a required one; by bits, as a call passes a few
     * of a builtin's parameters (tl.load has eight) */
    uint32_t missing = (np < 32 ? (UINT32_C(1) << np) - 1 : UINT32_MAX) & ~given;
    if (!bad && (missing & params->required)) {
        int i = __builtin_ctz(missing & params->required);
        sema_error(S, "%s() missing required argument '%.*s'", display_name(bi, dn, sizeof dn), ps[i].len,
                   ps[i].name);
        bad = true;
    }
    for (; missing; missing &= missing - 1) a.v[__builtin_ctz(missing)] = tv_none();
    if (bad) return tv_err();
    return bi->fn(S, &a);
}
