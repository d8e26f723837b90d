/*
 * tt.c - Triton's tile ops: the names of their enumerations (stored as i32
 * indices into these tables, printed as keywords) and their verifiers.
 *
 * Shapes are checked the way Triton's own verifiers do: a load returns the
 * pointee of its pointer (element-wise over tensors), masks are i1 of the
 * same shape, broadcast changes only size-1 dimensions, expand_dims adds one,
 * dot multiplies [M,K] by [K,N] into [M,N], a reduction's combiner takes two
 * arguments per operand and returns one per operand.
 */
#include "dialect/dialect.h"

#include <string.h>

const char *const tt_cache_names[] = {"none", "ca", "cg", "wb", "cs", "wt", "cv", NULL};
const char *const tt_evict_names[] = {"evict_normal", "evict_first", "evict_last", NULL};
const char *const tt_rmw_names[] = {"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch", NULL};
const char *const tt_sem_names[] = {"relaxed", "acquire", "release", "acq_rel", NULL};
const char *const tt_scope_names[] = {"gpu", "cta", "sys", NULL};
const char *const tt_precision_names[] = {"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6", NULL};
const char *const tt_rounding_names[] = {"rtz", "rtne", NULL};
const char *const tt_propnan_names[] = {"none", "all", NULL};
const char *const tt_axis_names[] = {"x", "y", "z", NULL};

int enum_lookup(const char *const *names, const char *s) {
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static Type *opnd(Op *op, int i) { return op_operand(op, i)->type; }
static Type *res(Op *op) { return op->results[0].type; }

static int table_len(const char *const *names) {
    int n = 0;
    while (names[n]) n++;
    return n;
}

/* An i32 enumeration attribute within its table; `required` or absent. */
static bool vfy_enum(DiagEngine *de, Op *op, const char *name, const char *const *names, bool required) {
    Attr *a = op_attr(op, name);
    if (!a) {
        if (!required) return true;
        op_error(de, op, "requires attribute '%s'", name);
        return false;
    }
    if (a->kind != ATTR_INT || a->i < 0 || a->i >= table_len(names)) {
        op_error(de, op, "attribute '%s' must be one of the %d values of its enumeration", name, table_len(names));
        return false;
    }
    return true;
}

static bool vfy_int_attr(DiagEngine *de, Op *op, const char *name, int64_t *out) {
    Attr *a = op_attr(op, name);
    if (!a || a->kind != ATTR_INT) {
        op_error(de, op, "requires integer attribute '%s'", name);
        return false;
    }
    *out = a->i;
    return true;
}

static bool is_tensor(const Type *t) { return t->kind == TY_TENSOR; }

/* tensor<...xi1> with t's shape (or i1 for a scalar t). */
static bool is_mask_for(Type *m, Type *t) { return ty_is_i1_like(m) && ty_same_shape(m, t); }

/* t with its elements replaced by their pointees; NULL if not pointer-like.
 * Compared structurally, as no Context is at hand. */
static bool is_pointee(Type *v, Type *p) {
    if (p->kind == TY_PTR) return v == p->elem;
    if (p->kind == TY_TENSOR && p->elem->kind == TY_PTR)
        return v->kind == TY_TENSOR && v->elem == p->elem->elem && ty_same_shape(v, p) && v->encoding == p->encoding;
    return false;
}

bool verify_func(Op *op, DiagEngine *de) {
    Attr *n = op_attr_k(op, AN_SYM_NAME), *ft = op_attr_k(op, AN_FUNCTION_TYPE);
    if (!n || n->kind != ATTR_STRING) {
        op_error(de, op, "requires string attribute 'sym_name'");
        return false;
    }
    if (!ft || ft->kind != ATTR_TYPE || ft->ty->kind != TY_FUNC) {
        op_error(de, op, "requires attribute 'function_type' holding a function type");
        return false;
    }
    Attr *vis = op_attr_k(op, AN_SYM_VISIBILITY);
    if (vis && (vis->kind != ATTR_STRING || (strcmp(vis->s, "public") && strcmp(vis->s, "private") && strcmp(vis->s, "nested")))) {
        op_error(de, op, "visibility must be 'public', 'private' or 'nested'");
        return false;
    }
    Type *t = ft->ty;
    const char *attrs[2] = {"arg_attrs", "res_attrs"};
    int counts[2] = {t->ninputs, t->nresults};
    for (int k = 0; k < 2; k++) {
        Attr *a = op_attr(op, attrs[k]);
        if (!a) continue;
        bool ok = a->kind == ATTR_ARRAY && a->arr.n == counts[k];
        for (int i = 0; ok && i < a->arr.n; i++) ok = a->arr.elems[i]->kind == ATTR_DICT;
        if (!ok) {
            op_error(de, op, "'%s' must be an array of %d dictionaries", attrs[k], counts[k]);
            return false;
        }
    }
    if (op_parent_op(op) && op_parent_op(op)->kind != BUILTIN_MODULE) {
        op_error(de, op, "expects parent op 'builtin.module'");
        return false;
    }
    Block *b = op->regions[0].first;
    if (!b) return true; /* a declaration */
    if (b->nargs != t->ninputs) {
        op_error(de, op, "entry block has %d arguments but the function type has %d inputs", b->nargs, t->ninputs);
        return false;
    }
    for (int i = 0; i < b->nargs; i++)
        if (b->args[i]->type != t->inputs[i]) {
            op_error(de, op, "type of entry block argument #%d ('%s') must match the type of the corresponding "
                     "argument in the function signature ('%s')", i, vfy_tstr(de, b->args[i]->type),
                     vfy_tstr(de, t->inputs[i]));
            return false;
        }
    return true;
}

bool verify_return(Op *op, DiagEngine *de) {
    Op *f = op_parent_op(op);
    while (f && f->kind != TT_FUNC) f = op_parent_op(f);
    if (!f || op_parent_op(op) != f) {
        op_error(de, op, "expects parent op 'tt.func'");
        return false;
    }
    Type *t = func_type(f);
    if (!t) return true; /* verify_func reports it */
    if (op->noperands != t->nresults) {
        op_error(de, op, "has %d operands, but enclosing function (@%s) returns %d", op->noperands, func_name(f),
                 t->nresults);
        return false;
    }
    for (int i = 0; i < op->noperands; i++)
        if (opnd(op, i) != t->results[i]) {
            op_error(de, op, "type of return operand %d ('%s') doesn't match function result type ('%s') in function @%s",
                     i, vfy_tstr(de, opnd(op, i)), vfy_tstr(de, t->results[i]), func_name(f));
            return false;
        }
    return true;
}

bool verify_call(Op *op, DiagEngine *de) {
    Attr *c = op_attr_k(op, AN_CALLEE);
    if (!c || c->kind != ATTR_SYMREF) {
        op_error(de, op, "requires a 'callee' symbol reference attribute");
        return false;
    }
    Op *m = op_parent_module(op);
    Op *f = m ? module_lookup_func(m, c->s) : NULL;
    if (!f) {
        op_error(de, op, "'@%s' does not reference a valid function", c->s);
        return false;
    }
    Type *t = func_type(f);
    if (!t) return true;
    if (op->noperands != t->ninputs) {
        op_error(de, op, "incorrect number of operands for callee: %d given, @%s takes %d", op->noperands, c->s,
                 t->ninputs);
        return false;
    }
    for (int i = 0; i < op->noperands; i++)
        if (opnd(op, i) != t->inputs[i]) {
            op_error(de, op, "operand type mismatch: expected operand type '%s', but provided '%s' for operand number %d",
                     vfy_tstr(de, t->inputs[i]), vfy_tstr(de, opnd(op, i)), i);
            return false;
        }
    if (op->nresults != t->nresults) {
        op_error(de, op, "incorrect number of results for callee: %d, @%s returns %d", op->nresults, c->s, t->nresults);
        return false;
    }
    for (int i = 0; i < op->nresults; i++)
        if (op->results[i].type != t->results[i]) {
            op_error(de, op, "result type mismatch at index %d: expected '%s', but got '%s'", i,
                     vfy_tstr(de, t->results[i]), vfy_tstr(de, op->results[i].type));
            return false;
        }
    return true;
}

bool verify_program_id(Op *op, DiagEngine *de) {
    if (!vfy_enum(de, op, "axis", tt_axis_names, true)) return false;
    Type *r = res(op);
    return vfy_type(de, op, r, r->kind == TY_INT && r->width == 32, "result must be i32");
}

bool verify_make_range(Op *op, DiagEngine *de) {
    int64_t start, end;
    if (!vfy_int_attr(de, op, "start", &start) || !vfy_int_attr(de, op, "end", &end)) return false;
    Type *r = res(op);
    if (!vfy_type(de, op, r, is_tensor(r) && r->rank == 1 && r->elem->kind == TY_INT && r->elem->width == 32,
                  "result must be a 1-D tensor of i32"))
        return false;
    if (end <= start) {
        op_error(de, op, "end must be greater than start");
        return false;
    }
    if (r->shape[0] != end - start) {
        op_error(de, op, "number of elements in returned tensor, %lld, must match size of range [%lld, %lld), %lld",
                 (long long)r->shape[0], (long long)start, (long long)end, (long long)(end - start));
        return false;
    }
    return true;
}

bool verify_splat(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, r, is_tensor(r), "result must be a tensor")) return false;
    if (!vfy_type(de, op, s, !is_tensor(s), "operand must be a scalar")) return false;
    if (s != r->elem) {
        op_error(de, op, "operand type '%s' must match the result's element type '%s'", vfy_tstr(de, s),
                 vfy_tstr(de, r->elem));
        return false;
    }
    return true;
}

bool verify_broadcast(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, s, is_tensor(s), "operand must be a tensor") ||
        !vfy_type(de, op, r, is_tensor(r), "result must be a tensor"))
        return false;
    if (s->elem != r->elem || s->rank != r->rank) {
        op_error(de, op, "requires the same element type and rank, got '%s' and '%s'", vfy_tstr(de, s), vfy_tstr(de, r));
        return false;
    }
    for (int i = 0; i < s->rank; i++)
        if (s->shape[i] != r->shape[i] && s->shape[i] != 1) {
            op_error(de, op, "Different dimensions at index %d between source and result.  Broadcast requires the "
                     "source dimension to be 1.", i);
            return false;
        }
    return true;
}

bool verify_expand_dims(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    int64_t axis;
    if (!vfy_int_attr(de, op, "axis", &axis)) return false;
    if (!vfy_type(de, op, s, is_tensor(s), "operand must be a tensor") ||
        !vfy_type(de, op, r, is_tensor(r), "result must be a tensor"))
        return false;
    if (axis < 0 || axis > s->rank) {
        op_error(de, op, "axis %lld out of range for a tensor of rank %d", (long long)axis, s->rank);
        return false;
    }
    bool ok = r->rank == s->rank + 1 && r->elem == s->elem && r->shape[axis] == 1;
    for (int i = 0, j = 0; ok && i < r->rank; i++) {
        if (i == axis) continue;
        ok = r->shape[i] == s->shape[j++];
    }
    if (!ok) {
        op_error(de, op, "result type '%s' must be '%s' with a 1 inserted at axis %lld", vfy_tstr(de, r), vfy_tstr(de, s),
                 (long long)axis);
        return false;
    }
    return true;
}

bool verify_reshape(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, s, is_tensor(s), "operand must be a tensor") ||
        !vfy_type(de, op, r, is_tensor(r), "result must be a tensor"))
        return false;
    if (s->elem != r->elem || ty_numel(s) != ty_numel(r)) {
        op_error(de, op, "number of src and dst elements of reshape must be the same, got '%s' and '%s'",
                 vfy_tstr(de, s), vfy_tstr(de, r));
        return false;
    }
    return true;
}

bool verify_trans(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    Attr *o = op_attr_k(op, AN_ORDER);
    if (!vfy_type(de, op, s, is_tensor(s), "operand must be a tensor") ||
        !vfy_type(de, op, r, is_tensor(r), "result must be a tensor"))
        return false;
    if (!o || o->kind != ATTR_DENSE_ARRAY || o->dense.nvals != s->rank) {
        op_error(de, op, "requires an 'order' array with one entry per dimension (%d)", s->rank);
        return false;
    }
    bool seen[16] = {false};
    bool ok = r->rank == s->rank && r->elem == s->elem && s->rank <= 16;
    for (int i = 0; ok && i < s->rank; i++) {
        int64_t d = o->dense.ints[i];
        ok = d >= 0 && d < s->rank && !seen[d] && r->shape[i] == s->shape[d];
        if (ok) seen[d] = true;
    }
    if (!ok) {
        op_error(de, op, "'order' must be a permutation of the operand's dimensions and the result '%s' the permuted '%s'",
                 vfy_tstr(de, r), vfy_tstr(de, s));
        return false;
    }
    return true;
}

bool verify_join(Op *op, DiagEngine *de) {
    Type *a = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, a, is_tensor(a), "operands must be tensors")) return false;
    if (opnd(op, 1) != a) {
        op_error(de, op, "requires both operands to have one type, got '%s' and '%s'", vfy_tstr(de, a),
                 vfy_tstr(de, opnd(op, 1)));
        return false;
    }
    bool ok = is_tensor(r) && r->rank == a->rank + 1 && r->elem == a->elem && r->shape[a->rank] == 2 &&
              memcmp(r->shape, a->shape, sizeof(int64_t) * (size_t)a->rank) == 0;
    if (!ok) {
        op_error(de, op, "result must be the operand type with a trailing dimension of 2, got '%s'", vfy_tstr(de, r));
        return false;
    }
    return true;
}

bool verify_split(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, s, is_tensor(s) && s->rank >= 1 && s->shape[s->rank - 1] == 2,
                  "operand must be a tensor whose last dimension is 2"))
        return false;
    bool ok = op->results[1].type == r && is_tensor(r) && r->rank == s->rank - 1 && r->elem == s->elem &&
              memcmp(r->shape, s->shape, sizeof(int64_t) * (size_t)r->rank) == 0;
    if (!ok) {
        op_error(de, op, "results must both be the operand type without its last dimension");
        return false;
    }
    return true;
}

/* tt.gather %src[%idx] {axis}: the result has the index's shape and the
 * source's element type; every dimension but `axis` of the index is at most
 * the source's (Triton's GatherOp rules). */
bool verify_gather(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *ix = opnd(op, 1), *r = res(op);
    int64_t axis;
    if (!vfy_int_attr(de, op, "axis", &axis)) return false;
    if (!vfy_type(de, op, s, is_tensor(s), "source must be a tensor") ||
        !vfy_type(de, op, ix, is_tensor(ix) && ix->elem->kind == TY_INT, "indices must be a tensor of integers"))
        return false;
    if (ix->rank != s->rank || axis < 0 || axis >= s->rank) {
        op_error(de, op, "indices '%s' must have the rank of the source '%s', and axis %lld must be one of its "
                 "dimensions", vfy_tstr(de, ix), vfy_tstr(de, s), (long long)axis);
        return false;
    }
    for (int d = 0; d < s->rank; d++)
        if (d != axis && ix->shape[d] > s->shape[d]) {
            op_error(de, op, "indices dimension %d (%lld) is larger than the source's (%lld)", d,
                     (long long)ix->shape[d], (long long)s->shape[d]);
            return false;
        }
    if (!is_tensor(r) || r->elem != s->elem || !ty_same_shape(r, ix)) {
        op_error(de, op, "result type '%s' must have the shape of the indices and the source's element type",
                 vfy_tstr(de, r));
        return false;
    }
    return true;
}

/* tt.histogram %src (, %mask)? : S -> R: S a 1-D tensor of integers, the
 * mask i1 of S's shape, R a 1-D tensor of integers (its length the number
 * of bins; Triton's HistogramOp). */
bool verify_histogram(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, s, is_tensor(s) && s->rank == 1 && s->elem->kind == TY_INT,
                  "source must be a 1-D tensor of integers"))
        return false;
    if (op->noperands > 1) {
        Type *m = opnd(op, 1);
        if (!vfy_type(de, op, m, is_tensor(m) && m->elem->kind == TY_INT && m->elem->width == 1 &&
                      ty_same_shape(m, s), "mask must be a tensor of i1 of the source's shape"))
            return false;
    }
    if (!is_tensor(r) || r->rank != 1 || r->elem->kind != TY_INT) {
        op_error(de, op, "result type '%s' must be a 1-D tensor of integers", vfy_tstr(de, r));
        return false;
    }
    return true;
}

bool verify_addptr(Op *op, DiagEngine *de) {
    Type *p = opnd(op, 0), *o = opnd(op, 1), *r = res(op);
    if (!vfy_type(de, op, p, ty_is_ptr_like(p), "operand #0 must be a pointer or a tensor of pointers")) return false;
    if (!vfy_type(de, op, o, ty_is_int_like(o), "operand #1 must be an integer or a tensor of integers")) return false;
    if (!vfy_same_shape(de, op, p, o)) return false;
    if (r != p) {
        op_error(de, op, "result type '%s' must match the pointer type '%s'", vfy_tstr(de, r), vfy_tstr(de, p));
        return false;
    }
    return true;
}

bool verify_make_tensor_ptr(Op *op, DiagEngine *de) {
    Type *base = opnd(op, 0), *r = res(op);
    if ((op->noperands - 1) % 3 != 0) {
        op_error(de, op, "expects equally many shape, stride and offset operands");
        return false;
    }
    int n = (op->noperands - 1) / 3;
    if (!vfy_type(de, op, base, base->kind == TY_PTR && base->elem->kind != TY_TENSOR, "base must be a scalar pointer"))
        return false;
    if (!vfy_type(de, op, r, r->kind == TY_PTR && is_tensor(r->elem) && r->elem->rank == n &&
                                 r->elem->elem == base->elem,
                  "result must be a pointer to a tensor of the base's element type, one dimension per offset"))
        return false;
    for (int i = 0; i < 3 * n; i++) {
        Type *t = opnd(op, 1 + i);
        int w = i < 2 * n ? 64 : 32;
        if (!(t->kind == TY_INT && t->width == w)) {
            op_error(de, op, "%s must be i%d, got '%s'", i < n ? "shape" : i < 2 * n ? "strides" : "offsets", w,
                     vfy_tstr(de, t));
            return false;
        }
    }
    return true;
}

bool verify_advance(Op *op, DiagEngine *de) {
    Type *p = opnd(op, 0);
    if (!vfy_type(de, op, p, p->kind == TY_PTR && is_tensor(p->elem), "operand must be a pointer to a tensor"))
        return false;
    if (res(op) != p) {
        op_error(de, op, "result type must match the pointer type '%s'", vfy_tstr(de, p));
        return false;
    }
    if (op->noperands - 1 != p->elem->rank) {
        op_error(de, op, "expects %d offsets, got %d", p->elem->rank, op->noperands - 1);
        return false;
    }
    for (int i = 1; i < op->noperands; i++)
        if (!(opnd(op, i)->kind == TY_INT && opnd(op, i)->width == 32)) {
            op_error(de, op, "offsets must be i32, got '%s'", vfy_tstr(de, opnd(op, i)));
            return false;
        }
    return true;
}

/* pointer, value (pointee), mask: shared by load, store and atomics */
static bool check_ptr_value_mask(Op *op, DiagEngine *de, Type *p, Type *v, Type *m, const char *vwhat) {
    if (!vfy_type(de, op, p, ty_is_ptr_like(p) || (p->kind == TY_PTR && is_tensor(p->elem)),
                  "pointer operand must be a pointer or a tensor of pointers"))
        return false;
    if (!is_pointee(v, p)) {
        op_error(de, op, "%s type '%s' must be the pointee type of '%s'", vwhat, vfy_tstr(de, v), vfy_tstr(de, p));
        return false;
    }
    if (m && !is_mask_for(m, p->kind == TY_PTR && is_tensor(p->elem) ? p->elem : p)) {
        op_error(de, op, "mask type '%s' must be i1 with the shape of '%s'", vfy_tstr(de, m), vfy_tstr(de, p));
        return false;
    }
    return true;
}

bool verify_load(Op *op, DiagEngine *de) {
    if (!vfy_enum(de, op, "cache", tt_cache_names, false) || !vfy_enum(de, op, "evict", tt_evict_names, false))
        return false;
    if (!check_ptr_value_mask(op, de, opnd(op, 0), res(op), op->noperands > 1 ? opnd(op, 1) : NULL, "result"))
        return false;
    if (op->noperands > 2 && opnd(op, 2) != res(op)) {
        op_error(de, op, "'other' type '%s' must match the result type '%s'", vfy_tstr(de, opnd(op, 2)),
                 vfy_tstr(de, res(op)));
        return false;
    }
    return true;
}

bool verify_store(Op *op, DiagEngine *de) {
    if (!vfy_enum(de, op, "cache", tt_cache_names, false) || !vfy_enum(de, op, "evict", tt_evict_names, false))
        return false;
    return check_ptr_value_mask(op, de, opnd(op, 0), opnd(op, 1), op->noperands > 2 ? opnd(op, 2) : NULL, "value");
}

/* tt.reduce / tt.scan: operands of one shape, a combiner taking two
 * elements per operand and returning one per operand. */
static bool verify_combiner(Op *op, DiagEngine *de, bool scan) {
    int64_t axis;
    if (!vfy_int_attr(de, op, "axis", &axis)) return false;
    int n = op->noperands;
    Type *t0 = opnd(op, 0);
    for (int i = 0; i < n; i++) {
        Type *t = opnd(op, i);
        if (!vfy_type(de, op, t, is_tensor(t), "operands must be tensors")) return false;
        if (!ty_same_shape(t, t0)) {
            op_error(de, op, "requires all operands to have the same shape");
            return false;
        }
    }
    if (axis < 0 || axis >= t0->rank) {
        op_error(de, op, "axis %lld out of range for a tensor of rank %d", (long long)axis, t0->rank);
        return false;
    }
    if (op->nresults != n) {
        op_error(de, op, "expects %d results, one per operand, got %d", n, op->nresults);
        return false;
    }
    Block *b = op->regions[0].first;
    if (b->nargs != 2 * n) {
        op_error(de, op, "combine region must have %d arguments (two per operand), found %d", 2 * n, b->nargs);
        return false;
    }
    for (int i = 0; i < n; i++) {
        Type *e = opnd(op, i)->elem;
        if (b->args[i]->type != e || b->args[n + i]->type != e) {
            op_error(de, op, "combine region arguments #%d and #%d must have the element type '%s' of operand #%d", i,
                     n + i, vfy_tstr(de, e), i);
            return false;
        }
        Type *r = op->results[i].type, *src = opnd(op, i);
        bool ok;
        if (scan) {
            ok = r == src;
        } else if (src->rank == 1) {
            ok = r == e;
        } else {
            ok = is_tensor(r) && r->rank == src->rank - 1 && r->elem == e;
            for (int d = 0, j = 0; ok && d < src->rank; d++) {
                if (d == axis) continue;
                ok = r->shape[j++] == src->shape[d];
            }
        }
        if (!ok) {
            op_error(de, op, "result #%d type '%s' does not match operand '%s' %s axis %lld", i, vfy_tstr(de, r),
                     vfy_tstr(de, src), scan ? "scanned along" : "reduced along", (long long)axis);
            return false;
        }
    }
    Op *term = b->last;
    if (term && term->kind == (scan ? TT_SCAN_RETURN : TT_REDUCE_RETURN)) {
        if (term->noperands != n) {
            op_error(de, term, "must return %d value%s, one per operand of the enclosing '%s', got %d", n,
                     n == 1 ? "" : "s", op_name(op), term->noperands);
            return false;
        }
        for (int i = 0; i < n; i++)
            if (opnd(term, i) != opnd(op, i)->elem) {
                op_error(de, term, "operand #%d has type '%s' but the combiner's element type is '%s'", i,
                         vfy_tstr(de, opnd(term, i)), vfy_tstr(de, opnd(op, i)->elem));
                return false;
            }
    }
    if (scan) {
        Attr *r = op_attr_k(op, AN_REVERSE);
        if (!r || r->kind != ATTR_BOOL) {
            op_error(de, op, "requires bool attribute 'reverse'");
            return false;
        }
    }
    return true;
}

bool verify_reduce(Op *op, DiagEngine *de) { return verify_combiner(op, de, false); }
bool verify_scan(Op *op, DiagEngine *de) { return verify_combiner(op, de, true); }

bool verify_dot(Op *op, DiagEngine *de) {
    Type *a = opnd(op, 0), *b = opnd(op, 1), *c = opnd(op, 2), *d = res(op);
    if (!vfy_enum(de, op, "inputPrecision", tt_precision_names, false)) return false;
    for (int i = 0; i < 3; i++) {
        Type *t = opnd(op, i);
        if (!vfy_type(de, op, t, is_tensor(t) && (t->rank == 2 || t->rank == 3) &&
                                     (ty_is_float_like(t) || ty_is_int_like(t)),
                      "operands must be 2-D or 3-D tensors of numbers"))
            return false;
    }
    if (d != c) {
        op_error(de, op, "result type '%s' must match the accumulator type '%s'", vfy_tstr(de, d), vfy_tstr(de, c));
        return false;
    }
    if (a->rank != b->rank || a->rank != c->rank) {
        op_error(de, op, "operands must have one rank");
        return false;
    }
    int r = a->rank;
    int64_t M = a->shape[r - 2], K = a->shape[r - 1], K2 = b->shape[r - 2], N = b->shape[r - 1];
    if (K != K2) {
        op_error(de, op, "the K dimensions of '%s' and '%s' differ (%lld vs %lld)", vfy_tstr(de, a), vfy_tstr(de, b),
                 (long long)K, (long long)K2);
        return false;
    }
    if (c->shape[r - 2] != M || c->shape[r - 1] != N || (r == 3 && (a->shape[0] != b->shape[0] || a->shape[0] != c->shape[0]))) {
        op_error(de, op, "accumulator '%s' must have shape [%s%lld, %lld]", vfy_tstr(de, c), r == 3 ? "B, " : "",
                 (long long)M, (long long)N);
        return false;
    }
    if (a->elem != b->elem && !(a->elem->kind == TY_FLOAT && a->elem->width == 8 && b->elem->kind == TY_FLOAT &&
                                b->elem->width == 8)) {
        op_error(de, op, "operands 'a' and 'b' must have one element type, got '%s' and '%s'", vfy_tstr(de, a->elem),
                 vfy_tstr(de, b->elem));
        return false;
    }
    return true;
}

bool verify_atomic_rmw(Op *op, DiagEngine *de) {
    if (!vfy_enum(de, op, "atomic_rmw_op", tt_rmw_names, true) || !vfy_enum(de, op, "sem", tt_sem_names, true) ||
        !vfy_enum(de, op, "scope", tt_scope_names, true))
        return false;
    if (!check_ptr_value_mask(op, de, opnd(op, 0), opnd(op, 1), op->noperands > 2 ? opnd(op, 2) : NULL, "value"))
        return false;
    if (res(op) != opnd(op, 1)) {
        op_error(de, op, "result type '%s' must match the value type '%s'", vfy_tstr(de, res(op)), vfy_tstr(de, opnd(op, 1)));
        return false;
    }
    return true;
}

bool verify_atomic_cas(Op *op, DiagEngine *de) {
    if (!vfy_enum(de, op, "sem", tt_sem_names, true) || !vfy_enum(de, op, "scope", tt_scope_names, true)) return false;
    if (!check_ptr_value_mask(op, de, opnd(op, 0), opnd(op, 1), NULL, "compare value")) return false;
    if (opnd(op, 2) != opnd(op, 1) || res(op) != opnd(op, 1)) {
        op_error(de, op, "compare value, new value and result must have one type");
        return false;
    }
    return true;
}

bool verify_fp_to_fp(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    if (!vfy_type(de, op, s, ty_is_float_like(s), "operand must be floating-point-like") ||
        !vfy_type(de, op, r, ty_is_float_like(r), "result must be floating-point-like") ||
        !vfy_same_shape(de, op, s, r) || !vfy_enum(de, op, "rounding", tt_rounding_names, false))
        return false;
    if (ty_elem(r)->width < ty_elem(s)->width && !op_attr_k(op, AN_ROUNDING)) {
        op_error(de, op, "rounding mode is required for FP downcast");
        return false;
    }
    return true;
}

bool verify_int_to_ptr(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    Type *e = ty_elem(s);
    return vfy_type(de, op, s, e->kind == TY_INT && e->width == 64, "operand must be i64 or a tensor of i64") &&
           vfy_type(de, op, r, ty_is_ptr_like(r), "result must be a pointer or a tensor of pointers") &&
           vfy_same_shape(de, op, s, r);
}

bool verify_ptr_to_int(Op *op, DiagEngine *de) {
    Type *s = opnd(op, 0), *r = res(op);
    Type *e = ty_elem(r);
    return vfy_type(de, op, s, ty_is_ptr_like(s), "operand must be a pointer or a tensor of pointers") &&
           vfy_type(de, op, r, e->kind == TY_INT && e->width == 64, "result must be i64 or a tensor of i64") &&
           vfy_same_shape(de, op, s, r);
}
