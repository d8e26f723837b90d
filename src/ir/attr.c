/*
 * attr.c - uniqued attributes, their textual form, and exact numeric helpers.
 *
 * Attributes are immutable and built once per Context (like types), so two
 * ops with equal attributes hold equal pointers; CSE relies on that.
 *
 * Floats print the way MLIR prints them: `1.000000e+00` when six digits
 * round-trip exactly, the shortest exact decimal otherwise, and the type's
 * bit pattern in hex (`0xFF800000`) for infinities and NaNs.
 */
#include "ir/ir.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct AttrNode {
    Attr a;
    struct AttrNode *next;
} AttrNode;

/* A dense attribute of one value (a splat: most constants are) and its
 * value's bits. */
static bool dense_single(const Attr *a, uint64_t *bits) {
    if ((a->kind != ATTR_DENSE && a->kind != ATTR_DENSE_ARRAY) || a->dense.nvals != 1) return false;
    if (a->dense.ints) *bits = (uint64_t)a->dense.ints[0];
    else if (a->dense.floats) memcpy(bits, a->dense.floats, sizeof *bits);
    else return false;
    return true;
}

static bool attr_equal(const Attr *x, const Attr *y) {
    if (x->kind != y->kind || x->type != y->type) return false;
    switch (x->kind) {
    case ATTR_UNIT: return true;
    case ATTR_BOOL: return x->b == y->b;
    case ATTR_INT: return x->i == y->i;
    case ATTR_FLOAT: return memcmp(&x->f, &y->f, sizeof(double)) == 0;
    case ATTR_STRING:
    case ATTR_SYMREF:
    case ATTR_OPAQUE: return x->s == y->s; /* interned */
    case ATTR_TYPE: return x->ty == y->ty;
    case ATTR_ARRAY:
        if (x->arr.n != y->arr.n) return false;
        for (int i = 0; i < x->arr.n; i++)
            if (x->arr.elems[i] != y->arr.elems[i]) return false;
        return true;
    case ATTR_DICT:
        if (x->dict.n != y->dict.n) return false;
        for (int i = 0; i < x->dict.n; i++)
            if (x->dict.entries[i].name != y->dict.entries[i].name ||
                x->dict.entries[i].attr != y->dict.entries[i].attr)
                return false;
        return true;
    case ATTR_DENSE:
    case ATTR_DENSE_ARRAY:
        if (x->dense.nvals != y->dense.nvals) return false;
        if ((x->dense.ints == NULL) != (y->dense.ints == NULL)) return false;
        if (x->dense.nvals == 1) {
            uint64_t bx, by;
            return dense_single(x, &bx) && dense_single(y, &by) && bx == by;
        }
        if (x->dense.ints)
            return memcmp(x->dense.ints, y->dense.ints, sizeof(int64_t) * (size_t)x->dense.nvals) == 0;
        return memcmp(x->dense.floats, y->dense.floats, sizeof(double) * (size_t)x->dense.nvals) == 0;
    }
    return false;
}

/* The bits of an integer or float attribute's value (a float's bit
 * pattern: attr_equal compares floats bit for bit). */
static uint64_t scalar_bits(const Attr *a) {
    uint64_t b;
    if (a->kind == ATTR_FLOAT) memcpy(&b, &a->f, sizeof b);
    else b = (uint64_t)a->i;
    return b;
}

/* The hash of an integer or float attribute: one mix (the sema and the
 * passes make them by the thousand). */
static inline uint64_t scalar_hash(uint64_t tag, const Type *t, uint64_t bits) {
    return hash_u64(((uint64_t)(uintptr_t)t * 0x9e3779b97f4a7c15ULL + tag) ^ bits) | 1;
}

static uint64_t attr_hash(const Attr *a) {
    if (a->kind == ATTR_INT || a->kind == ATTR_FLOAT) return scalar_hash(a->kind, a->type, scalar_bits(a));
    uint64_t bits;
    if (dense_single(a, &bits)) /* (tagged apart from the scalars, ints from floats) */
        return scalar_hash(((uint64_t)a->kind << 1 | (a->dense.ints == NULL)) + 64, a->type, bits);
    uint64_t h = hash_combine(hash_u64((uint64_t)a->kind + 7), (uint64_t)(uintptr_t)a->type);
    switch (a->kind) {
    case ATTR_UNIT: break;
    case ATTR_BOOL: h = hash_combine(h, a->b); break;
    case ATTR_INT:
    case ATTR_FLOAT: break;
    case ATTR_STRING:
    case ATTR_SYMREF:
    case ATTR_OPAQUE: h = hash_combine(h, (uint64_t)(uintptr_t)a->s); break;
    case ATTR_TYPE: h = hash_combine(h, (uint64_t)(uintptr_t)a->ty); break;
    case ATTR_ARRAY:
        for (int i = 0; i < a->arr.n; i++) h = hash_combine(h, (uint64_t)(uintptr_t)a->arr.elems[i]);
        break;
    case ATTR_DICT:
        for (int i = 0; i < a->dict.n; i++) {
            h = hash_combine(h, (uint64_t)(uintptr_t)a->dict.entries[i].name);
            h = hash_combine(h, (uint64_t)(uintptr_t)a->dict.entries[i].attr);
        }
        break;
    case ATTR_DENSE:
    case ATTR_DENSE_ARRAY:
        h = hash_combine(h, (uint64_t)a->dense.nvals);
        if (a->dense.ints)
            h = hash_combine(h, hash_bytes(a->dense.ints, sizeof(int64_t) * (size_t)a->dense.nvals, 1));
        else if (a->dense.floats)
            h = hash_combine(h, hash_bytes(a->dense.floats, sizeof(double) * (size_t)a->dense.nvals, 2));
        break;
    }
    return h | 1;
}

/* A new attribute equal to proto, of hash h, at the head of its chain. */
static Attr *insert(Context *c, const Attr *proto, uint64_t h, AttrNode *head) {
    AttrNode *n = ARENA_NEW(c->arena, AttrNode);
    n->a = *proto;
    n->a.hash = h;
    Attr *a = &n->a;
    switch (a->kind) {
    case ATTR_ARRAY:
        a->arr.elems = arena_dup(c->arena, proto->arr.elems, sizeof(Attr *) * (size_t)proto->arr.n);
        break;
    case ATTR_DICT:
        a->dict.entries =
            arena_dup(c->arena, proto->dict.entries, sizeof(NamedAttr) * (size_t)proto->dict.n);
        break;
    case ATTR_DENSE:
    case ATTR_DENSE_ARRAY:
        if (a->dense.ints)
            a->dense.ints = arena_dup(c->arena, proto->dense.ints, sizeof(int64_t) * (size_t)proto->dense.nvals);
        if (a->dense.floats)
            a->dense.floats =
                arena_dup(c->arena, proto->dense.floats, sizeof(double) * (size_t)proto->dense.nvals);
        break;
    default: break;
    }
    n->next = head;
    map_put(&c->attrs, h, n);
    return a;
}

static Attr *unique(Context *c, const Attr *proto) {
    uint64_t h = attr_hash(proto);
    AttrNode *head = map_get(&c->attrs, h);
    for (AttrNode *n = head; n; n = n->next)
        if (attr_equal(&n->a, proto)) return &n->a;
    return insert(c, proto, h, head);
}

/* unique for an integer or float attribute, whose value is `bits`. */
static Attr *unique_scalar(Context *c, AttrKind kind, Type *t, uint64_t bits) {
    uint64_t h = scalar_hash(kind, t, bits);
    AttrNode *head = map_get(&c->attrs, h);
    for (AttrNode *n = head; n; n = n->next)
        if (n->a.kind == kind && n->a.type == t && scalar_bits(&n->a) == bits) return &n->a;
    Attr proto = {.kind = kind, .type = t};
    if (kind == ATTR_FLOAT) memcpy(&proto.f, &bits, sizeof bits);
    else proto.i = (int64_t)bits;
    return insert(c, &proto, h, head);
}

/* unique for a dense splat of type t, its one value `bits` (an integer's,
 * or a float's bit pattern): the attribute unique would give (the same hash
 * and test), without a prototype, the generic compare and a separate copy
 * of the value. The passes make these by the thousand (every constant of a
 * tensor formula). */
static Attr *unique_splat(Context *c, Type *t, uint64_t bits, bool is_float) {
    uint64_t h = scalar_hash(((uint64_t)ATTR_DENSE << 1 | is_float) + 64, t, bits);
    AttrNode *head = map_get(&c->attrs, h);
    for (AttrNode *n = head; n; n = n->next) {
        uint64_t nb;
        if (n->a.kind == ATTR_DENSE && n->a.type == t && (n->a.dense.ints == NULL) == is_float &&
            dense_single(&n->a, &nb) && nb == bits)
            return &n->a;
    }
    struct SplatNode {
        AttrNode node;
        union {
            int64_t i;
            double f;
        } value;
    } *sn = ARENA_NEW(c->arena, struct SplatNode);
    Attr *a = &sn->node.a;
    a->kind = ATTR_DENSE;
    a->type = t;
    a->dense.nvals = 1;
    if (is_float) {
        memcpy(&sn->value.f, &bits, sizeof bits);
        a->dense.floats = &sn->value.f;
    } else {
        sn->value.i = (int64_t)bits;
        a->dense.ints = &sn->value.i;
    }
    a->hash = h;
    sn->node.next = head;
    map_put(&c->attrs, h, &sn->node);
    return a;
}

Attr *attr_unit(Context *c) { return unique(c, &(Attr){.kind = ATTR_UNIT}); }
Attr *attr_bool(Context *c, bool v) { return unique(c, &(Attr){.kind = ATTR_BOOL, .b = v}); }
Attr *attr_int(Context *c, Type *t, int64_t v) {
    if (t && t->kind == TY_INT) v = t->width == 1 ? (v & 1) : int_wrap(v, t->width);
    return unique_scalar(c, ATTR_INT, t, (uint64_t)v);
}
Attr *attr_i32(Context *c, int64_t v) { return attr_int(c, ty_i32(c), v); }
Attr *attr_float(Context *c, Type *t, double v) {
    if (t && t->kind == TY_FLOAT) v = float_round(v, t->fkind);
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return unique_scalar(c, ATTR_FLOAT, t, bits);
}
Attr *attr_string(Context *c, const char *s) {
    return unique(c, &(Attr){.kind = ATTR_STRING, .s = ctx_intern(c, s)});
}
Attr *attr_type(Context *c, Type *t) { return unique(c, &(Attr){.kind = ATTR_TYPE, .ty = t}); }
Attr *attr_array(Context *c, Attr *const *elems, int n) {
    return unique(c, &(Attr){.kind = ATTR_ARRAY, .arr = {elems, n}});
}
static int cmp_named(const void *a, const void *b) {
    return strcmp(((const NamedAttr *)a)->name, ((const NamedAttr *)b)->name);
}
Attr *attr_dict(Context *c, const NamedAttr *entries, int n) {
    NamedAttr *tmp = tc_malloc(sizeof(NamedAttr) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) tmp[i] = (NamedAttr){ctx_intern(c, entries[i].name), entries[i].attr};
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_named);
    Attr *a = unique(c, &(Attr){.kind = ATTR_DICT, .dict = {tmp, n}});
    tc_free(tmp);
    return a;
}
Attr *attr_dense_int(Context *c, Type *t, const int64_t *vals, int64_t n) {
    Type *e = ty_elem(t);
    if (n == 1) {
        int64_t v = e->kind == TY_INT ? (e->width == 1 ? (vals[0] & 1) : int_wrap(vals[0], e->width)) : vals[0];
        return unique_splat(c, t, (uint64_t)v, false);
    }
    int64_t small[8]; /* splats: no heap copy */
    int64_t *tmp = n <= 8 ? small : tc_malloc(sizeof(int64_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        tmp[i] = e->kind == TY_INT ? (e->width == 1 ? (vals[i] & 1) : int_wrap(vals[i], e->width)) : vals[i];
    Attr *a = unique(c, &(Attr){.kind = ATTR_DENSE, .type = t, .dense = {.ints = tmp, .nvals = n}});
    if (tmp != small) tc_free(tmp);
    return a;
}
Attr *attr_dense_float(Context *c, Type *t, const double *vals, int64_t n) {
    Type *e = ty_elem(t);
    if (n == 1) {
        double v = e->kind == TY_FLOAT ? float_round(vals[0], e->fkind) : vals[0];
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        return unique_splat(c, t, bits, true);
    }
    double small[8];
    double *tmp = n <= 8 ? small : tc_malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) tmp[i] = e->kind == TY_FLOAT ? float_round(vals[i], e->fkind) : vals[i];
    Attr *a = unique(c, &(Attr){.kind = ATTR_DENSE, .type = t, .dense = {.floats = tmp, .nvals = n}});
    if (tmp != small) tc_free(tmp);
    return a;
}
Attr *attr_dense_splat(Context *c, Type *tensor_ty, Attr *scalar) {
    if (scalar->kind == ATTR_FLOAT) return attr_dense_float(c, tensor_ty, &scalar->f, 1);
    int64_t v = scalar->kind == ATTR_BOOL ? scalar->b : scalar->i;
    return attr_dense_int(c, tensor_ty, &v, 1);
}
Attr *attr_dense_array(Context *c, Type *elem, const int64_t *vals, int64_t n) {
    return unique(c, &(Attr){.kind = ATTR_DENSE_ARRAY, .type = elem,
                             .dense = {.ints = n ? vals : (const int64_t[]){0}, .nvals = n}});
}
Attr *attr_symref(Context *c, const char *name) {
    return unique(c, &(Attr){.kind = ATTR_SYMREF, .s = ctx_intern(c, name)});
}
Attr *attr_opaque(Context *c, const char *text) {
    return unique(c, &(Attr){.kind = ATTR_OPAQUE, .s = ctx_intern(c, text)});
}

Attr *attr_dict_get(const Attr *dict, const char *name) {
    if (!dict || dict->kind != ATTR_DICT) return NULL;
    for (int i = 0; i < dict->dict.n; i++)
        if (strcmp(dict->dict.entries[i].name, name) == 0) return dict->dict.entries[i].attr;
    return NULL;
}

bool attr_is_splat(const Attr *a) {
    return a->kind == ATTR_INT || a->kind == ATTR_FLOAT || a->kind == ATTR_BOOL ||
           (a->kind == ATTR_DENSE && a->dense.nvals == 1);
}

bool attr_as_int(const Attr *a, int64_t *out) {
    if (!a) return false;
    if (a->kind == ATTR_INT) *out = a->i;
    else if (a->kind == ATTR_BOOL) *out = a->b;
    else if (a->kind == ATTR_DENSE && a->dense.nvals == 1 && a->dense.ints) *out = a->dense.ints[0];
    else return false;
    return true;
}

bool attr_as_float(const Attr *a, double *out) {
    if (!a) return false;
    if (a->kind == ATTR_FLOAT) *out = a->f;
    else if (a->kind == ATTR_DENSE && a->dense.nvals == 1 && a->dense.floats) *out = a->dense.floats[0];
    else return false;
    return true;
}

/* ---- exact numerics ----------------------------------------------------- */

int64_t int_wrap(int64_t v, int width) {
    if (width >= 64) return v;
    uint64_t m = (1ULL << width) - 1, u = (uint64_t)v & m;
    if (u >> (width - 1)) u |= ~m;
    return (int64_t)u;
}

uint64_t int_wrap_u(int64_t v, int width) {
    if (width >= 64) return (uint64_t)v;
    return (uint64_t)v & ((1ULL << width) - 1);
}

/* Rounds v to the nearest value representable with `mbits` explicit
 * mantissa bits and exponent range [emin, emax] (of the normalised
 * significand in [1,2)), ties to even, with gradual underflow. Values past
 * the largest finite `maxval` become inf (or NaN for formats without inf,
 * as f8E4M3FN does: there the largest finite is 448). */
static double round_to_format(double v, int mbits, int emin, double maxval, bool has_inf) {
    if (isnan(v) || isinf(v) || v == 0) return (isinf(v) && !has_inf) ? NAN : v;
    int e;
    frexp(v, &e); /* v = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;  /* v = g * 2^exp, g in [1, 2) */
    if (exp < emin) exp = emin;
    double scale = ldexp(1.0, mbits - exp);
    double r = nearbyint(v * scale) / scale; /* default rounding mode: to nearest even */
    if (fabs(r) > maxval) {
        /* beyond the largest finite: rounds to inf when at least halfway to
         * the next binade step, as IEEE does */
        double step = ldexp(1.0, (int)floor(log2(maxval)) - mbits);
        double limit = maxval + step / 2;
        /* At exactly `limit` the tie goes to the even neighbour: past the
         * largest finite of an IEEE format (odd mantissa) that is inf; in
         * f8E4M3FN the largest finite, 448 = 1.110b * 2^8, is the even one. */
        if (fabs(v) > limit || (fabs(v) == limit && has_inf))
            return has_inf ? copysign(INFINITY, v) : NAN;
        return copysign(maxval, v);
    }
    return r;
}

double float_round(double v, FloatKind k) {
    switch (k) {
    case FK_F64: return v;
    case FK_F32: return (double)(float)v;
    case FK_F16: return round_to_format(v, 10, -14, 65504.0, true);
    case FK_BF16: return round_to_format(v, 7, -126, 3.3895313892515355e38, true);
    case FK_F8E5M2: return round_to_format(v, 2, -14, 57344.0, true);
    case FK_F8E4M3: return round_to_format(v, 3, -6, 448.0, false);
    }
    return v;
}

/* ---- printing ----------------------------------------------------------- */

static uint64_t float_bits(double v, FloatKind k) {
    switch (k) {
    case FK_F64: {
        uint64_t u;
        memcpy(&u, &v, 8);
        return u;
    }
    case FK_F32: {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    default: {
        int ebits = k == FK_F16 || k == FK_F8E5M2 ? 5 : k == FK_BF16 ? 8 : 4;
        int mbits = ty_float_mantissa_bits(k), w = 1 + ebits + mbits, bias = (1 << (ebits - 1)) - 1;
        uint64_t sign = signbit(v) ? 1ULL << (w - 1) : 0, emax = (1u << ebits) - 1;
        if (isnan(v)) {
            if (k == FK_F8E4M3) return sign | 0x7F;
            return sign | (emax << mbits) | (1ULL << (mbits - 1));
        }
        if (isinf(v)) return sign | (emax << mbits);
        v = fabs(v);
        if (v == 0) return sign;
        int e2;
        frexp(v, &e2);
        int E = e2 - 1;
        if (E < 1 - bias) return sign | (uint64_t)ldexp(v, bias - 1 + mbits); /* subnormal */
        uint64_t m = (uint64_t)ldexp(ldexp(v, -E) - 1, mbits);
        return sign | ((uint64_t)(E + bias) << mbits) | m;
    }
    }
}

/* A little unsigned bignum for exact decimal conversion (at most
 * 2^1076 or 2^53 * 5^1074, i.e. under 2600 bits). */
typedef struct Big {
    uint32_t d[96];
    int n; /* limbs in use; 0 means zero */
} Big;

static void big_trim(Big *b) {
    while (b->n && !b->d[b->n - 1]) b->n--;
}

static void big_set(Big *b, uint64_t v) {
    b->d[0] = (uint32_t)v;
    b->d[1] = (uint32_t)(v >> 32);
    b->n = 2;
    big_trim(b);
}

static void big_mul_small(Big *b, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t x = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)x;
        carry = x >> 32;
    }
    if (carry) b->d[b->n++] = (uint32_t)carry;
}

/* b *= 5^e */
static void big_mul_pow5(Big *b, int e) {
    static const uint32_t pow5[14] = {1,      5,       25,       125,       625,        3125,      15625,
                                      78125,  390625,  1953125,  9765625,   48828125,   244140625, 1220703125};
    for (; e > 0; e -= 13) big_mul_small(b, pow5[e >= 13 ? 13 : e]);
}

static void big_shl(Big *b, int bits) {
    int words = bits / 32, r = bits % 32;
    for (int i = b->n - 1; i >= 0; i--) b->d[i + words] = b->d[i];
    for (int i = 0; i < words; i++) b->d[i] = 0;
    b->n += words;
    if (r) {
        uint32_t carry = 0;
        for (int i = 0; i < b->n; i++) {
            uint32_t x = b->d[i];
            b->d[i] = (x << r) | carry;
            carry = x >> (32 - r);
        }
        if (carry) b->d[b->n++] = carry;
    }
}

static void big_shr(Big *b, int bits) {
    int words = bits / 32, r = bits % 32;
    if (words >= b->n) {
        b->n = 0;
        return;
    }
    for (int i = 0; i + words < b->n; i++) b->d[i] = b->d[i + words];
    b->n -= words;
    if (r) {
        for (int i = 0; i < b->n; i++) b->d[i] = (b->d[i] >> r) | (i + 1 < b->n ? b->d[i + 1] << (32 - r) : 0);
    }
    big_trim(b);
}

/* b /= m, returning the remainder */
static uint32_t big_divmod(Big *b, uint32_t m) {
    uint64_t rem = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t x = (rem << 32) | b->d[i];
        b->d[i] = (uint32_t)(x / m);
        rem = x % m;
    }
    big_trim(b);
    return (uint32_t)rem;
}

static int big_bits(const Big *b) {
    if (!b->n) return 0;
    int bits = 32 * (b->n - 1);
    for (uint32_t top = b->d[b->n - 1]; top; top >>= 1) bits++;
    return bits;
}

/*
 * Floats print as LLVM's APFloat::toString (IEEEFloat::toString) prints
 * them, which MLIR prints float attributes with. It writes |v| = sig * 2^e
 * as an integer b times a power of ten (b = sig * 5^-e when e < 0), drops
 * the low decimal digits of b that the requested precision cannot need
 * (AdjustToPrecision: a count of them from b's bit count), rounds what is
 * left to the number of significant digits asked for and lays it out.
 *
 * float_print asks for two precisions of one value (6 digits, then the
 * shortest that round-trips), so the digits are made once, for the smaller
 * of the two counts dropped, and each layout drops the rest of its own.
 */
typedef struct Decimal {
    /* the kept digits of b, least significant first (at most about 20:
     * what is kept of b has about as many bits as the larger precision
     * needs, 57 for f64) */
    char d[48];
    int n;         /* 0: the value is zero */
    int exp;       /* b = digits * 10^dropped, |v| = b * 10^exp */
    int dropped;
    int bits;      /* b's bit count */
} Decimal;

/* The digits AdjustToPrecision drops from a `bits`-bit integer for
 * format_precision significant digits (196/59 is slightly over log2(10)). */
static int apfloat_discard(int bits, int format_precision) {
    int required = (format_precision * 196 + 58) / 59;
    return bits > required ? (bits - required) * 59 / 196 : 0;
}

/* The bit count of sig * 5^n (sig odd, below 2^53, n > 0): from its
 * base-2 logarithm unless that is within 1e-9 of an integer (the double
 * computing it is off by less than 1e-12: log2 of sig within an ulp,
 * n * log2(5) under 2600), else from the product itself. */
static int pow5_product_bits(uint64_t sig, int n) {
    double l = log2((double)sig) + n * 2.321928094887362347870319;
    double frac = l - floor(l);
    if (frac > 1e-9 && frac < 1 - 1e-9) return (int)l + 1;
    Big b;
    big_set(&b, sig);
    big_mul_pow5(&b, n);
    return big_bits(&b);
}

/* The digits of |v| (finite) for format precisions fp1 and fp2 (nonzero). */
static void apfloat_digits(double v, int fp1, int fp2, Decimal *q) {
    q->n = q->exp = q->dropped = q->bits = 0;
    if (v == 0) return;
    int e2;
    double f = frexp(fabs(v), &e2);
    uint64_t sig = (uint64_t)ldexp(f, 53);
    int exp = e2 - 53;
    while (!(sig & 1)) sig >>= 1, exp++;
    /* b = sig * 2^exp, or sig * 5^-exp when exp < 0: its bit count
     * decides how many digits to drop, and most of them need not be made */
    q->bits = exp < 0 ? pow5_product_bits(sig, -exp) : 64 - __builtin_clzll(sig) + exp;
    q->exp = exp > 0 ? 0 : exp;
    int d1 = apfloat_discard(q->bits, fp1), d2 = apfloat_discard(q->bits, fp2), k = d1 < d2 ? d1 : d2;
    q->dropped = k;
    Big b;
    big_set(&b, sig);
    if (exp < 0 && -exp >= k) {
        /* b / 10^k = sig * 5^(-exp - k) / 2^k: a far smaller product and a
         * shift instead of k digits of long division (2^-1074 has 751
         * digits, nearly all of them dropped) */
        big_mul_pow5(&b, -exp - k);
        big_shr(&b, k);
    } else {
        if (exp > 0) big_shl(&b, exp);
        else big_mul_pow5(&b, -exp);
        for (; k >= 9; k -= 9) big_divmod(&b, 1000000000u);
        for (; k > 0; k--) big_divmod(&b, 10);
    }
    /* nine digits per division, the last group without its leading zeros */
    while (b.n) {
        uint32_t r = big_divmod(&b, 1000000000u);
        for (int i = 0; i < 9 && (b.n || r) && q->n < (int)sizeof q->d; i++, r /= 10)
            q->d[q->n++] = (char)('0' + r % 10);
    }
}

/* An exponent as APFloat writes it: `+5`, or `+05` (at least two digits). */
static char *put_exponent(char *o, int e, bool two_digits) {
    *o++ = e < 0 ? '-' : '+';
    unsigned u = e < 0 ? 0u - (unsigned)e : (unsigned)e;
    if (two_digits && u < 10) *o++ = '0';
    o += fmt_uint(o, u);
    *o = 0;
    return o;
}

/*
 * APFloat::toString's text for the digits q of a value (negative: neg) of
 * a format with `prec_bits` bits of precision (24 for f32):
 * format_precision is the number of significant digits (0: enough to
 * round trip), max_padding the zeros allowed before switching to
 * scientific notation, truncate_zero as in LLVM. Writes to buf (>= 64
 * bytes).
 */
static void apfloat_layout(const Decimal *q, bool neg, int prec_bits, int format_precision, int max_padding,
                           bool truncate_zero, char *buf) {
    char *o = buf;
    if (neg) *o++ = '-';
    if (format_precision == 0) format_precision = 2 + prec_bits * 59 / 196;
    if (q->n == 0) {
        if (max_padding == 0) {
            if (!truncate_zero) {
                memcpy(o, "0.0", 3), o += 3;
                for (int i = 1; i < format_precision; i++) *o++ = '0';
                memcpy(o, "e+00", 5);
            } else {
                memcpy(o, "0.0E+0", 7);
            }
        } else {
            memcpy(o, "0", 2);
        }
        return;
    }
    /* this precision's own discard, then the trailing zeros */
    int drop = apfloat_discard(q->bits, format_precision);
    int first = drop - q->dropped, exp = q->exp + drop;
    while (first < q->n && q->d[first] == '0') first++, exp++;
    char digits[sizeof q->d];
    int nd = q->n - first;
    memcpy(digits, q->d + first, (size_t)nd);
    if (nd > format_precision) {
        /* round half up at the first digit beyond the precision */
        int cut = nd - format_precision;
        if (digits[cut - 1] < '5') {
            while (cut < nd && digits[cut] == '0') cut++;
        } else {
            while (cut < nd && digits[cut] == '9') cut++;
            if (cut < nd) digits[cut]++;
        }
        exp += cut;
        memmove(digits, digits + cut, (size_t)(nd - cut));
        nd -= cut;
        if (nd == 0) digits[nd++] = '1';
    }
    bool scientific;
    if (max_padding == 0) {
        scientific = true;
    } else if (exp >= 0) {
        scientific = exp > max_padding || nd + exp > format_precision;
    } else {
        int msd = exp + nd - 1;
        scientific = msd < 0 && -msd > max_padding;
    }
    if (scientific) {
        exp += nd - 1;
        *o++ = digits[nd - 1];
        *o++ = '.';
        if (nd == 1 && truncate_zero) *o++ = '0';
        else
            for (int i = nd - 2; i >= 0; i--) *o++ = digits[i];
        if (!truncate_zero && format_precision > nd - 1)
            for (int i = 0; i <= format_precision - nd; i++) *o++ = '0';
        *o++ = truncate_zero ? 'E' : 'e';
        put_exponent(o, exp, !truncate_zero);
        return;
    }
    if (exp >= 0) {
        for (int i = nd - 1; i >= 0; i--) *o++ = digits[i];
        for (int i = 0; i < exp; i++) *o++ = '0';
        *o = 0;
        return;
    }
    int unit = -exp;
    if (unit < nd) {
        for (int i = nd - 1; i >= unit; i--) *o++ = digits[i];
        *o++ = '.';
        for (int i = unit - 1; i >= 0; i--) *o++ = digits[i];
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = nd; i < unit; i++) *o++ = '0';
        for (int i = nd - 1; i >= 0; i--) *o++ = digits[i];
    }
    *o = 0;
}

/* strtod(s, NULL) for the exponent form apfloat_layout writes
 * ([-]d.dddddde±XX). When the digits fit in a double exactly (15 of
 * them) and so does the power of ten (10^22 at most), one IEEE
 * multiplication or division rounds the exact decimal correctly, as
 * strtod does (Clinger's fast path); other texts go to strtod. */
static double exponent_form_value(const char *s) {
#if FLT_EVAL_METHOD == 0 /* (double operations round to double) */
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s + (*s == '-');
    uint64_t m = 0;
    int digits = 0, after_point = 0;
    for (bool point = false;; p++) {
        if (*p == '.' && !point) {
            point = true;
        } else if (*p >= '0' && *p <= '9') {
            m = m * 10 + (uint64_t)(*p - '0');
            digits++;
            after_point += point;
        } else {
            break;
        }
    }
    if (*p == 'e' && (p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9' && digits <= 15) {
        int e = 0;
        for (const char *q = p + 2; *q >= '0' && *q <= '9' && e < 1000; q++) e = e * 10 + (*q - '0');
        e = (p[1] == '-' ? -e : e) - after_point;
        if (e >= -22 && e <= 22) {
            double d = e < 0 ? (double)m / pow10[-e] : (double)m * pow10[e];
            return *s == '-' ? -d : d;
        }
    }
#endif
    return strtod(s, NULL);
}

void float_print(double v, Type *t, StrBuf *out) {
    FloatKind k = t && t->kind == TY_FLOAT ? t->fkind : FK_F64;
    int w = t && t->kind == TY_FLOAT ? t->width : 64;
    if (!isnan(v) && !isinf(v)) {
        /* as MLIR: 6 digits in exponent form when that reads back exactly,
         * else APFloat's shortest round-trip form when it has a '.' */
        char buf[64];
        int p = ty_float_mantissa_bits(k) + 1;
        Decimal q;
        apfloat_digits(v, 6, 2 + p * 59 / 196, &q);
        apfloat_layout(&q, signbit(v), p, 6, 0, false, buf);
        if (float_round(exponent_form_value(buf), k) == v) {
            sb_puts(out, buf);
            return;
        }
        apfloat_layout(&q, signbit(v), p, 0, 3, true, buf);
        if (strchr(buf, '.')) {
            sb_puts(out, buf);
            return;
        }
    }
    sb_printf(out, "0x%0*llX", w / 4, (unsigned long long)float_bits(v, k));
}

static void print_string(const char *s, StrBuf *out) {
    sb_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') sb_printf(out, "\\%c", *p);
        else if (*p == '\n') sb_puts(out, "\\0A");
        else if (*p < 32 || *p >= 127) sb_printf(out, "\\%02X", *p);
        else sb_putc(out, (char)*p);
    }
    sb_putc(out, '"');
}

/* A name (dictionary key, symbol) bare when it lexes as an identifier,
 * quoted otherwise: "ttg.num-warps", @"triton.language.cdiv(1,)". */
static void print_name(const char *s, StrBuf *out) {
    bool bare = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_';
    for (const char *p = s; bare && *p; p++)
        bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
               *p == '$' || *p == '.';
    if (bare) sb_puts(out, s);
    else print_string(s, out);
}

static void print_dense_elem(const Attr *a, int64_t i, StrBuf *out) {
    Type *e = ty_elem(a->type);
    if (a->dense.floats) float_print(a->dense.floats[i], e, out);
    else if (e->kind == TY_INT && e->width == 1) sb_puts(out, a->dense.ints[i] ? "true" : "false");
    else if (e->kind == TY_INT && e->sign == UNSIGNED)
        sb_put_uint(out, int_wrap_u(a->dense.ints[i], e->width));
    else sb_put_int(out, a->dense.ints[i]);
}

static void print_dense_dim(const Attr *a, int dim, int64_t *idx, StrBuf *out) {
    const Type *t = a->type;
    if (dim == t->rank) {
        print_dense_elem(a, (*idx)++, out);
        return;
    }
    sb_putc(out, '[');
    for (int64_t i = 0; i < t->shape[dim]; i++) {
        if (i) sb_puts(out, ", ");
        print_dense_dim(a, dim + 1, idx, out);
    }
    sb_putc(out, ']');
}

void attr_print_aliased(const Attr *a, StrBuf *out, AttrAliasHook *h) {
    if (h && a->kind == ATTR_OPAQUE && h->print(h, a, out)) return;
    switch (a->kind) {
    case ATTR_UNIT: sb_puts(out, "unit"); return;
    case ATTR_BOOL: sb_puts(out, a->b ? "true" : "false"); return;
    case ATTR_INT:
        if (a->type && a->type->kind == TY_INT && a->type->width == 1) {
            sb_puts(out, a->i ? "true" : "false");
            return;
        }
        sb_put_int(out, a->i);
        if (a->type) {
            sb_puts(out, " : ");
            ty_print_aliased(a->type, out, h);
        }
        return;
    case ATTR_FLOAT:
        float_print(a->f, a->type, out);
        if (a->type) {
            sb_puts(out, " : ");
            ty_print_aliased(a->type, out, h);
        }
        return;
    case ATTR_STRING: print_string(a->s, out); return;
    case ATTR_TYPE: ty_print_aliased(a->ty, out, h); return;
    case ATTR_SYMREF:
        sb_putc(out, '@');
        print_name(a->s, out);
        return;
    case ATTR_OPAQUE: sb_puts(out, a->s); return;
    case ATTR_ARRAY:
        sb_putc(out, '[');
        for (int i = 0; i < a->arr.n; i++) {
            if (i) sb_puts(out, ", ");
            attr_print_aliased(a->arr.elems[i], out, h);
        }
        sb_putc(out, ']');
        return;
    case ATTR_DICT:
        sb_putc(out, '{');
        for (int i = 0; i < a->dict.n; i++) {
            if (i) sb_puts(out, ", ");
            print_name(a->dict.entries[i].name, out);
            if (a->dict.entries[i].attr->kind != ATTR_UNIT) {
                sb_puts(out, " = ");
                attr_print_aliased(a->dict.entries[i].attr, out, h);
            }
        }
        sb_putc(out, '}');
        return;
    case ATTR_DENSE:
        sb_puts(out, "dense<");
        if (a->dense.nvals == 1) {
            print_dense_elem(a, 0, out);
        } else {
            int64_t idx = 0;
            print_dense_dim(a, 0, &idx, out);
        }
        sb_puts(out, "> : ");
        ty_print_aliased(a->type, out, h);
        return;
    case ATTR_DENSE_ARRAY:
        sb_puts(out, "array<");
        ty_print_aliased(a->type, out, h);
        for (int64_t i = 0; i < a->dense.nvals; i++)
            sb_printf(out, "%s %lld", i ? "," : ":", (long long)a->dense.ints[i]);
        sb_putc(out, '>');
        return;
    }
}

void attr_print(const Attr *a, StrBuf *out) { attr_print_aliased(a, out, NULL); }
