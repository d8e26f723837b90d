/*
 * tltype.c - Triton's dtypes (language/core.py): scalars int1..uint64,
 * fp8e4nv, fp8e5, fp16, bf16, fp32, fp64; pointer_type; block_type; and
 * fp8e4b15, fp8e4b8, fp8e5b16 as dtype values only (no tensors of them).
 *
 * The IR is signless (i32 serves int32 and uint32), so the front end keeps
 * its own types: every runtime value carries a TlType next to its IR Value.
 * TlTypes are interned per compilation (a hash map of chains in the Sema),
 * so they compare by pointer, and each caches its IR Type.
 */
#include "sema/sema_int.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;  /* Triton's dtype name */
    const char *attr;  /* tl.<attr> */
    const char *sig;   /* signature spelling */
    int bits;
} scalar_info[TL_NSCALAR] = {
    [TL_VOID] = {"void", "void", "void", 0},
    [TL_I1] = {"int1", "int1", "i1", 1},
    [TL_I8] = {"int8", "int8", "i8", 8},
    [TL_I16] = {"int16", "int16", "i16", 16},
    [TL_I32] = {"int32", "int32", "i32", 32},
    [TL_I64] = {"int64", "int64", "i64", 64},
    [TL_U8] = {"uint8", "uint8", "u8", 8},
    [TL_U16] = {"uint16", "uint16", "u16", 16},
    [TL_U32] = {"uint32", "uint32", "u32", 32},
    [TL_U64] = {"uint64", "uint64", "u64", 64},
    [TL_FP8E4NV] = {"fp8e4nv", "float8e4nv", "fp8e4nv", 8},
    [TL_FP8E5] = {"fp8e5", "float8e5", "fp8e5", 8},
    [TL_FP8E4B15] = {"fp8e4b15", "float8e4b15", "", 8}, /* (no signature spelling: no IR type) */
    [TL_FP8E4B8] = {"fp8e4b8", "float8e4b8", "", 8},
    [TL_FP8E5B16] = {"fp8e5b16", "float8e5b16", "", 8},
    [TL_FP16] = {"fp16", "float16", "fp16", 16},
    [TL_BF16] = {"bf16", "bfloat16", "bf16", 16},
    [TL_FP32] = {"fp32", "float32", "fp32", 32},
    [TL_FP64] = {"fp64", "float64", "fp64", 64},
};

const char *tl_scalar_name(TlKind k) { return k < TL_NSCALAR ? scalar_info[k].name : "?"; }
const char *tl_scalar_attr(TlKind k) { return k < TL_NSCALAR ? scalar_info[k].attr : "?"; }

static Type *scalar_ir(Context *c, TlKind k) {
    switch (k) {
    case TL_VOID: return ty_none(c);
    case TL_I1: return ty_i1(c);
    case TL_I8: case TL_U8: return ty_int(c, 8);
    case TL_I16: case TL_U16: return ty_int(c, 16);
    case TL_I32: case TL_U32: return ty_int(c, 32);
    case TL_I64: case TL_U64: return ty_int(c, 64);
    case TL_FP8E4NV: return ty_float(c, FK_F8E4M3);
    case TL_FP8E5: return ty_float(c, FK_F8E5M2);
    case TL_FP16: return ty_float(c, FK_F16);
    case TL_BF16: return ty_float(c, FK_BF16);
    case TL_FP32: return ty_float(c, FK_F32);
    case TL_FP64: return ty_float(c, FK_F64);
    default: return NULL;
    }
}

const TlType *tl_scalar_make(Sema *S, TlKind k) {
    TlType *t = ARENA_NEW(S->arena, TlType);
    t->kind = k;
    t->ir = scalar_ir(S->ctx, k);
    S->scalars[k] = t;
    return t;
}

/* A multiply per word and one final mix: sema asks for a block type at
 * every splat, broadcast and cast, nearly always one it has made. */
static uint64_t type_hash(TlKind k, const TlType *elem, const int64_t *shape, int rank) {
    const uint64_t m = 0x9e3779b97f4a7c15ULL;
    uint64_t h = ((uint64_t)k + (uint64_t)(uintptr_t)elem * m) * m;
    for (int i = 0; i < rank; i++) h = (h ^ (uint64_t)shape[i]) * m;
    return hash_u64(h) | 1;
}

static bool same_shape(const int64_t *a, const int64_t *b, int rank) {
    for (int i = 0; i < rank; i++)
        if (a[i] != b[i]) return false;
    return true;
}

static const TlType *tl_intern_c(Sema *S, TlKind k, const TlType *elem, const int64_t *shape, int rank, bool cst) {
    uint64_t h = type_hash(k, elem, shape, rank) ^ (cst ? 2 : 0);
    TlType *head = map_get(&S->tltypes, h);
    for (TlType *t = head; t; t = t->next)
        if (t->kind == k && t->elem == elem && t->rank == rank && t->cst == cst && same_shape(t->shape, shape, rank))
            return t;
    TlType *t = ARENA_NEW(S->arena, TlType);
    t->kind = k;
    t->cst = cst;
    t->elem = elem;
    t->rank = rank;
    t->shape = rank ? arena_dup(S->arena, shape, sizeof(int64_t) * (size_t)rank) : NULL;
    if (!elem->ir) t->ir = NULL; /* of an fp8 format with no IR type: never made into a value */
    else if (k == TL_PTR) t->ir = ty_ptr(S->ctx, elem->ir, 1);
    else t->ir = ty_tensor(S->ctx, shape, rank, elem->ir, NULL);
    t->next = head;
    map_put(&S->tltypes, h, t);
    return t;
}

static const TlType *tl_intern(Sema *S, TlKind k, const TlType *elem, const int64_t *shape, int rank) {
    return tl_intern_c(S, k, elem, shape, rank, false);
}

const TlType *tl_ptr(Sema *S, const TlType *pointee) { return tl_intern(S, TL_PTR, pointee, NULL, 0); }
const TlType *tl_ptr_const(Sema *S, const TlType *pointee) { return tl_intern_c(S, TL_PTR, pointee, NULL, 0, true); }

/* (Sema asks for the same few block types at every splat and broadcast: the
 * last one of a slot is compared before the types are hashed. Only types
 * within the element limit are kept, so that one over it is reported the
 * first time it is made where diagnostics are on.) */
const TlType *tl_block(Sema *S, const TlType *elem, const int64_t *shape, int rank) {
    if (rank == 0) return elem;
    const TlType *sca = tl_sca(elem);
    uint64_t key = ((uint64_t)(uintptr_t)sca ^ (uint64_t)shape[0] << 20 ^ (uint64_t)shape[rank - 1] << 40 ^
                    (uint64_t)rank << 60) * 0x9e3779b97f4a7c15ULL;
    _Static_assert(TC_ARRAY_LEN(S->block_memo) == 128, "the slot is the key's top 7 bits");
    uint64_t slot = key >> 57;
    const TlType *m = S->block_memo[slot];
    if (m && m->elem == sca && m->rank == rank && same_shape(m->shape, shape, rank)) return m;
    int64_t numel = 1;
    for (int i = 0; i < rank && numel <= TL_MAX_NUMEL; i++)
        numel = shape[i] > TL_MAX_NUMEL ? shape[i] : numel * (shape[i] > 0 ? shape[i] : 1);
    /* Triton's block_type checks each dimension (validate_block_shape). Its
     * test, (d & (d - 1)) == 0, lets 0 through to a backend that cannot lay
     * out an empty tensor; here 0 is no power of 2 either, and neither is -4. */
    int bad_dim = -1;
    for (int i = 0; i < rank && bad_dim < 0; i++)
        if (shape[i] <= 0 || (shape[i] & (shape[i] - 1)) != 0) bad_dim = i;
    if (bad_dim >= 0 && !S->numel_reported && !S->quiet) {
        S->numel_reported = true;
        char buf[160];
        int len = 0;
        for (int i = 0; i < rank && len < 120; i++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%lld", i ? ", " : "", (long long)shape[i]);
        sema_error(S, "Shape element %d must be a power of 2, got shape [%s]", bad_dim, buf);
    }
    if (numel > TL_MAX_NUMEL && !S->numel_reported && !S->quiet) {
        /* reported once, where the tensor is made; the compile then fails */
        S->numel_reported = true;
        sema_error(S, "numel (%lld) exceeds triton maximum tensor numel (%lld)", (long long)numel,
                   (long long)TL_MAX_NUMEL);
    }
    const TlType *t = tl_intern(S, TL_BLOCK, sca, shape, rank);
    if (numel <= TL_MAX_NUMEL && bad_dim < 0) S->block_memo[slot] = t;
    return t;
}

const TlType *tl_with_elem(Sema *S, const TlType *like, const TlType *elem) {
    if (!tl_is_block(like)) return elem;
    const TlType *sca = tl_sca(elem);
    if (like->elem == sca) return like;
    for (int i = 0; i < 2; i++)
        if (like->with_elem[i] && like->with_elem[i]->elem == sca) return like->with_elem[i];
    const TlType *t = tl_block(S, elem, like->shape, like->rank);
    TlType *memo = (TlType *)like; /* (every TlType is the arena's, made in tl_intern) */
    memo->with_elem[1] = memo->with_elem[0];
    memo->with_elem[0] = t;
    return t;
}

const TlType *tl_expand_dims(Sema *S, const TlType *t, int axis) {
    if (axis < 2 && t->expanded[axis]) return t->expanded[axis];
    int64_t shape[TL_MAX_RANK + 1] = {0};
    for (int i = 0, j = 0; i <= t->rank; i++) shape[i] = i == axis ? 1 : t->shape[j++];
    const TlType *e = tl_block(S, t->elem, shape, t->rank + 1);
    if (axis < 2) ((TlType *)t)->expanded[axis] = e;
    return e;
}

int tl_bitwidth(const TlType *t) {
    t = tl_sca(t);
    return t->kind == TL_PTR ? 64 : scalar_info[t->kind].bits;
}

int tl_mantissa(const TlType *t) {
    switch (tl_sca(t)->kind) {
    case TL_FP8E4NV: case TL_FP8E4B15: case TL_FP8E4B8: return 3;
    case TL_FP8E5: case TL_FP8E5B16: return 2;
    case TL_FP16: return 10;
    case TL_BF16: return 7;
    case TL_FP32: return 23;
    case TL_FP64: return 52;
    default: return 0;
    }
}

int tl_exponent_bias(const TlType *t) {
    switch (tl_sca(t)->kind) {
    case TL_FP8E4NV: return 7;
    case TL_FP8E4B8: return 8;
    case TL_FP8E4B15: case TL_FP8E5: case TL_FP16: return 15;
    case TL_FP8E5B16: return 16;
    case TL_BF16: case TL_FP32: return 127;
    case TL_FP64: return 1023;
    default: return -1;
    }
}

bool tl_dtype_usable(Sema *S, const TlType *t) {
    while (t->kind == TL_PTR || t->kind == TL_BLOCK) t = t->elem;
    if (t->kind == TL_FP8E4B15) {
        sema_error(S, "fp8e4b15 (tl.float8e4b15) is not supported by tritonc yet; use tl.float8e4nv or tl.float8e5");
        return false;
    }
    if (t->kind == TL_FP8E4B8 || t->kind == TL_FP8E5B16) { /* Triton's message on NVIDIA GPUs */
        sema_error(S, "type %s not supported in this architecture. The supported fp8 dtypes are "
                      "('fp8e4b15', 'fp8e4nv', 'fp8e5')", scalar_info[t->kind].name);
        return false;
    }
    return true;
}

const TlType *tl_int_type(Sema *S, int bits, bool is_signed) {
    switch (bits) {
    case 1: return tl_scalar(S, TL_I1);
    case 8: return tl_scalar(S, is_signed ? TL_I8 : TL_U8);
    case 16: return tl_scalar(S, is_signed ? TL_I16 : TL_U16);
    case 32: return tl_scalar(S, is_signed ? TL_I32 : TL_U32);
    default: return tl_scalar(S, is_signed ? TL_I64 : TL_U64);
    }
}

int64_t tl_numel(const TlType *t) {
    int64_t n = 1;
    if (tl_is_block(t))
        for (int i = 0; i < t->rank; i++) n *= t->shape[i];
    return n;
}

void tl_str(const TlType *t, StrBuf *out) {
    if (t->kind == TL_PTR) {
        sb_puts(out, t->cst ? "const_pointer<" : "pointer<");
        tl_str(t->elem, out);
        sb_putc(out, '>');
    } else if (t->kind == TL_BLOCK) {
        sb_puts(out, "<[");
        for (int i = 0; i < t->rank; i++) sb_printf(out, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
        sb_puts(out, "], ");
        tl_str(t->elem, out);
        sb_putc(out, '>');
    } else {
        sb_puts(out, scalar_info[t->kind].name);
    }
}

const char *tl_cstr(Sema *S, const TlType *t) {
    StrBuf sb = {0};
    tl_str(t, &sb);
    const char *r = arena_strdup(S->arena, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

/* Whether the string word is s[0, n). */
static bool spelled(const char *word, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (word[i] != s[i] || !word[i]) return false;
    return word[n] == 0;
}

const TlType *tl_parse_sig(Sema *S, const char *s, size_t n) {
    if (n > 0 && s[0] == '*') {
        size_t k = 1;
        if (n > 1 && s[1] == 'k') k = 2; /* const pointer: treated as a pointer */
        const TlType *e = tl_parse_sig(S, s + k, n - k);
        return e ? tl_ptr(S, e) : NULL;
    }
    static const struct { const char *s; TlKind k; } extra[] = {
        {"B", TL_I1}, {"u1", TL_I1}, {"fp8e4", TL_FP8E4NV}, {"f32", TL_FP32}, {"f16", TL_FP16},
        {"f64", TL_FP64}, {"bool", TL_I1},
    };
    if (!n) return NULL;
    for (int k = 0; k < TL_NSCALAR; k++)
        if (k != TL_VOID && spelled(scalar_info[k].sig, s, n)) return tl_scalar(S, (TlKind)k);
    for (int k = 0; k < TC_ARRAY_LEN(extra); k++)
        if (spelled(extra[k].s, s, n)) return tl_scalar(S, extra[k].k);
    return NULL;
}

const TlType *tl_dtype_by_name(Sema *S, const char *name) {
    for (int k = 0; k < TL_NSCALAR; k++) {
        const char *a = scalar_info[k].attr, *n = scalar_info[k].name;
        if ((a[0] == name[0] && strcmp(a, name) == 0) || (n[0] == name[0] && strcmp(n, name) == 0))
            return tl_scalar(S, (TlKind)k);
    }
    if (strcmp(name, "bool") == 0) return tl_scalar(S, TL_I1);
    if (strcmp(name, "float") == 0) return tl_scalar(S, TL_FP32);
    if (strcmp(name, "double") == 0) return tl_scalar(S, TL_FP64);
    if (strcmp(name, "half") == 0) return tl_scalar(S, TL_FP16);
    return NULL;
}

static void mangle(const TlType *t, StrBuf *out) {
    if (t->kind == TL_PTR) {
        if (t->cst) sb_putc(out, 'k'); /* (Triton's mangling of a const pointer) */
        sb_putc(out, 'P');
        mangle(t->elem, out);
    } else if (t->kind == TL_BLOCK) {
        mangle(t->elem, out);
        sb_putc(out, 'S');
        for (int i = 0; i < t->rank; i++) {
            if (i) sb_putc(out, '_');
            sb_put_int(out, t->shape[i]);
        }
        sb_putc(out, 'S');
    } else if (t->kind == TL_VOID) {
        sb_putc(out, 'V');
    } else if (tl_is_int(t)) {
        sb_putc(out, tl_is_signed(t) ? 'i' : 'u');
        sb_put_int(out, scalar_info[t->kind].bits);
    } else {
        sb_puts(out, scalar_info[t->kind].name);
    }
}

/* (Every call of a @jit helper mangles its arguments' types, the same few
 * again and again: a type keeps its text.) */
void tl_mangle(const TlType *t, StrBuf *out) {
    if (t->mangled_len) {
        sb_putn(out, t->mangled, t->mangled_len);
        return;
    }
    size_t start = out->len;
    mangle(t, out);
    size_t n = out->len - start;
    if (n < sizeof t->mangled) {
        TlType *m = (TlType *)t; /* (interned types are the compile's: the text is a cache, not part of the type) */
        memcpy(m->mangled, out->data + start, n);
        m->mangled_len = (uint8_t)n;
    }
}
