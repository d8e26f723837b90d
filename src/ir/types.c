/*
 * types.c - uniqued types and their textual form.
 *
 * Every type is built once per Context: a structural hash selects a chain in
 * ctx->types and an equal type is returned if present, so types compare by
 * pointer everywhere else in the compiler.
 *
 *   i1 i8 i16 i32 i64, si32, ui32       integers (signless unless marked)
 *   f8E4M3FN f8E5M2 f16 bf16 f32 f64    floats
 *   index, none
 *   !tt.ptr<f32>, !tt.ptr<f16, 3>       pointers
 *   tensor<128x64xf16>, tensor<128x!tt.ptr<f32>>, tensor<4xf32, #layout>
 *   tensor<?x64xf32>, tensor<*xf32>    dynamic dims (shape[i] = -1) and unknown
 *                                       rank (rank = -1, shape NULL); only the
 *                                       nn dialect makes these, never tt
 *   (i32, f32) -> f32                   functions
 */
#include "ir/ir.h"

#include <string.h>

typedef struct TypeNode {
    Type t; /* first: a Type * of this context is its TypeNode */
    struct TypeNode *next;
    /* ty_with_elem's last answer for this (tensor) type: the element type
     * asked for and the tensor type made (a comparison asks for the i1
     * form of its operands' type, a cast for another element type) */
    Type *with_elem, *with_elem_type;
} TypeNode;

static bool type_equal(const Type *a, const Type *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TY_INT: return a->width == b->width && a->sign == b->sign;
    case TY_FLOAT: return a->fkind == b->fkind;
    case TY_INDEX:
    case TY_NONE: return true;
    case TY_PTR: return a->elem == b->elem && a->addrspace == b->addrspace;
    case TY_TENSOR:
        return a->elem == b->elem && a->rank == b->rank && a->encoding == b->encoding &&
               (a->rank <= 0 || memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->rank) == 0);
    case TY_FUNC:
        if (a->ninputs != b->ninputs || a->nresults != b->nresults) return false;
        for (int i = 0; i < a->ninputs; i++)
            if (a->inputs[i] != b->inputs[i]) return false;
        for (int i = 0; i < a->nresults; i++)
            if (a->results[i] != b->results[i]) return false;
        return true;
    }
    return false;
}

/* One multiply per field and a full mix at the end (hash_combine's full
 * mix per field made hashing a tensor type cost more than the rest of
 * finding it). */
static uint64_t mix(uint64_t h, uint64_t v) { return ((h << 5 | h >> 59) ^ v) * 0x9e3779b97f4a7c15ULL; }

/* (ty_tensor hashes its arguments without building a Type first) */
static uint64_t tensor_hash(const int64_t *shape, int rank, const Type *elem, const Attr *encoding) {
    uint64_t h = mix((uint64_t)TY_TENSOR + 1, (uint64_t)(uintptr_t)elem);
    h = mix(h, (uint64_t)(uintptr_t)encoding);
    h = mix(h, (uint64_t)(int64_t)rank);
    for (int i = 0; i < rank; i++) h = mix(h, (uint64_t)shape[i]);
    return hash_u64(h) | 1; /* never 0: 0 is the map's empty key */
}

static uint64_t type_hash(const Type *t) {
    if (t->kind == TY_TENSOR) return tensor_hash(t->shape, t->rank, t->elem, t->encoding);
    uint64_t h = (uint64_t)t->kind + 1;
    h = mix(h, (uint64_t)t->width);
    h = mix(h, (uint64_t)t->sign);
    h = mix(h, (uint64_t)t->fkind);
    h = mix(h, (uint64_t)(uintptr_t)t->elem);
    h = mix(h, (uint64_t)t->addrspace);
    h = mix(h, (uint64_t)(uintptr_t)t->encoding);
    h = mix(h, (uint64_t)(int64_t)t->rank);
    for (int i = 0; i < t->rank; i++) h = mix(h, (uint64_t)t->shape[i]);
    for (int i = 0; i < t->ninputs; i++) h = mix(h, (uint64_t)(uintptr_t)t->inputs[i]);
    h = mix(h, 0x51);
    for (int i = 0; i < t->nresults; i++) h = mix(h, (uint64_t)(uintptr_t)t->results[i]);
    return hash_u64(h) | 1; /* never 0: 0 is the map's empty key */
}

/* proto (hashing to h, not in head's chain) made a type of c */
static Type *add_type(Context *c, const Type *proto, uint64_t h, TypeNode *head) {
    TypeNode *n = ARENA_NEW(c->arena, TypeNode);
    n->t = *proto;
    n->t.hash = h;
    if (proto->rank > 0) n->t.shape = arena_dup(c->arena, proto->shape, sizeof(int64_t) * (size_t)proto->rank);
    if (proto->ninputs)
        n->t.inputs = arena_dup(c->arena, proto->inputs, sizeof(Type *) * (size_t)proto->ninputs);
    if (proto->nresults)
        n->t.results = arena_dup(c->arena, proto->results, sizeof(Type *) * (size_t)proto->nresults);
    n->next = head;
    map_put(&c->types, h, n);
    if (proto->kind == TY_PTR && proto->elem->kind == TY_TENSOR) c->made_block_ptr_type = true;
    if (proto->kind == TY_FLOAT && proto->fkind == FK_F64) c->made_f64_type = true;
    return &n->t;
}

static Type *unique(Context *c, Type *proto) {
    uint64_t h = type_hash(proto);
    TypeNode *head = map_get(&c->types, h);
    for (TypeNode *n = head; n; n = n->next)
        if (type_equal(&n->t, proto)) return &n->t;
    return add_type(c, proto, h, head);
}

Type *ty_int_signed(Context *c, int width, IntSign sign) {
    bool kept = width >= 0 && width <= 64 && (unsigned)sign < 3;
    if (kept && c->int_types[sign][width]) return c->int_types[sign][width];
    Type *t = unique(c, &(Type){.kind = TY_INT, .width = width, .sign = sign});
    if (kept) c->int_types[sign][width] = t;
    return t;
}
Type *ty_int(Context *c, int width) { return ty_int_signed(c, width, SIGNLESS); }
/* (each comparison asks for i1 and its predicate's i64: made once, read) */
Type *ty_i1(Context *c) { return c->int_types[SIGNLESS][1] ? c->int_types[SIGNLESS][1] : ty_int(c, 1); }
Type *ty_i32(Context *c) { return c->int_types[SIGNLESS][32] ? c->int_types[SIGNLESS][32] : ty_int(c, 32); }
Type *ty_i64(Context *c) { return c->int_types[SIGNLESS][64] ? c->int_types[SIGNLESS][64] : ty_int(c, 64); }

static const int float_widths[] = {[FK_F8E4M3] = 8, [FK_F8E5M2] = 8, [FK_F16] = 16,
                                   [FK_BF16] = 16, [FK_F32] = 32, [FK_F64] = 64};
Type *ty_float(Context *c, FloatKind k) {
    if (!c->float_types[k])
        c->float_types[k] = unique(c, &(Type){.kind = TY_FLOAT, .fkind = k, .width = float_widths[k]});
    return c->float_types[k];
}
Type *ty_f32(Context *c) { return ty_float(c, FK_F32); }
Type *ty_index(Context *c) { return unique(c, &(Type){.kind = TY_INDEX, .width = 64}); }
Type *ty_none(Context *c) { return unique(c, &(Type){.kind = TY_NONE}); }
Type *ty_ptr(Context *c, Type *pointee, int addrspace) {
    return unique(c, &(Type){.kind = TY_PTR, .elem = pointee, .addrspace = addrspace, .width = 64});
}
/* (the most asked for: found by comparing the arguments with each type of
 * the chain, a Type is built only for a new one) */
Type *ty_tensor(Context *c, const int64_t *shape, int rank, Type *elem, Attr *encoding) {
    uint64_t h = tensor_hash(shape, rank, elem, encoding);
    TypeNode *head = map_get(&c->types, h);
    for (TypeNode *n = head; n; n = n->next) {
        const Type *t = &n->t;
        if (t->kind != TY_TENSOR || t->elem != elem || t->rank != rank || t->encoding != encoding) continue;
        int i = 0;
        while (i < rank && t->shape[i] == shape[i]) i++;
        if (i >= rank) return &n->t;
    }
    return add_type(c, &(Type){.kind = TY_TENSOR, .shape = shape, .rank = rank, .elem = elem, .encoding = encoding},
                    h, head);
}
Type *ty_func(Context *c, Type *const *in, int nin, Type *const *res, int nres) {
    return unique(c, &(Type){.kind = TY_FUNC, .inputs = in, .ninputs = nin, .results = res,
                             .nresults = nres});
}

Type *ty_with_elem(Context *c, Type *like, Type *elem) {
    if (like->kind != TY_TENSOR) return elem;
    if (like->elem == elem) return like;
    TypeNode *n = (TypeNode *)like;
    if (n->with_elem != elem) {
        n->with_elem_type = ty_tensor(c, like->shape, like->rank, elem, like->encoding);
        n->with_elem = elem;
    }
    return n->with_elem_type;
}

int64_t ty_numel(const Type *t) {
    int64_t n = 1;
    if (t->kind == TY_TENSOR) {
        if (t->rank < 0) return -1;
        for (int i = 0; i < t->rank; i++) {
            if (t->shape[i] < 0) return -1;
            n *= t->shape[i];
        }
    }
    return n;
}

bool ty_same_shape(const Type *a, const Type *b) {
    if ((a->kind == TY_TENSOR) != (b->kind == TY_TENSOR)) return false;
    if (a->kind != TY_TENSOR) return true;
    return a->rank == b->rank &&
           (a->rank <= 0 || memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->rank) == 0);
}

int ty_float_mantissa_bits(FloatKind k) {
    static const int m[] = {[FK_F8E4M3] = 3, [FK_F8E5M2] = 2, [FK_F16] = 10,
                            [FK_BF16] = 7, [FK_F32] = 23, [FK_F64] = 52};
    return m[k];
}

const char *ty_float_name(FloatKind k) {
    static const char *n[] = {[FK_F8E4M3] = "f8E4M3FN", [FK_F8E5M2] = "f8E5M2", [FK_F16] = "f16",
                              [FK_BF16] = "bf16", [FK_F32] = "f32", [FK_F64] = "f64"};
    return n[k];
}

void ty_print_aliased(const Type *t, StrBuf *out, AttrAliasHook *h) {
    switch (t->kind) {
    case TY_INT:
        if (t->sign != SIGNLESS) sb_putc(out, t->sign == SIGNED ? 's' : 'u');
        sb_putc(out, 'i');
        sb_put_int(out, t->width);
        return;
    case TY_FLOAT: sb_puts(out, ty_float_name(t->fkind)); return;
    case TY_INDEX: sb_puts(out, "index"); return;
    case TY_NONE: sb_puts(out, "none"); return;
    case TY_PTR:
        sb_puts(out, "!tt.ptr<");
        ty_print_aliased(t->elem, out, h);
        if (t->addrspace != 1) sb_printf(out, ", %d", t->addrspace);
        sb_putc(out, '>');
        return;
    case TY_TENSOR:
        sb_puts(out, "tensor<");
        if (t->rank < 0) sb_puts(out, "*x");
        for (int i = 0; i < t->rank; i++) {
            if (t->shape[i] < 0) {
                sb_puts(out, "?x");
                continue;
            }
            sb_put_int(out, t->shape[i]);
            sb_putc(out, 'x');
        }
        ty_print_aliased(t->elem, out, h);
        if (t->encoding) {
            sb_puts(out, ", ");
            attr_print_aliased(t->encoding, out, h);
        }
        sb_putc(out, '>');
        return;
    case TY_FUNC:
        sb_putc(out, '(');
        for (int i = 0; i < t->ninputs; i++) {
            if (i) sb_puts(out, ", ");
            ty_print_aliased(t->inputs[i], out, h);
        }
        sb_puts(out, ") -> ");
        if (t->nresults == 1 && t->results[0]->kind != TY_FUNC) {
            ty_print_aliased(t->results[0], out, h);
            return;
        }
        sb_putc(out, '(');
        for (int i = 0; i < t->nresults; i++) {
            if (i) sb_puts(out, ", ");
            ty_print_aliased(t->results[i], out, h);
        }
        sb_putc(out, ')');
        return;
    }
}

void ty_print(const Type *t, StrBuf *out) { ty_print_aliased(t, out, NULL); }
