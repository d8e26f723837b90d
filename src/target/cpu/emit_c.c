/*
 * emit_c.c - tt IR -> C source, one C function per program instance.
 *
 * Every SSA value gets a C name from the value numbering (func arguments
 * `argN`, everything else `vN`, plus the IR's name hint when it has one) and
 * one of three run-time shapes, chosen while emitting in program order:
 *
 *   SCALAR  a C scalar variable (or literal) for a non-tensor value;
 *   EXPR    a tensor whose element at index (i0, i1, ...) is the C
 *           expression  base + i0*s0 + i1*s1 + ...  with constant strides:
 *           splats and constants (all strides 0), tt.make_range, and the
 *           integer/pointer arithmetic over them that Triton kernels use to
 *           form offsets (`pid * BLOCK + arange`, `ptr + offs`). Nothing is
 *           stored; a load or store through such a pointer tile is a plain
 *           contiguous (or strided) loop the C compiler vectorises;
 *   VIEW    a strided view of a C array: element = name[off + i0*s0 + ...].
 *           Results of element-wise ops are fresh contiguous arrays;
 *           tt.expand_dims, tt.broadcast, tt.trans, tt.reshape (of a
 *           contiguous tile) and tt.split only change the strides, so they
 *           copy nothing.
 *
 * Tensor loads, element-wise ops and the store or reduction that ends a
 * chain of them are fused: one loop nest over the shape (a single flat loop
 * when every tile is contiguous or uniform) computes each element in scalar
 * temporaries, and only values used outside the chain are written to arrays
 * (see "element-wise fusion" below for the grouping rules, the memory-order
 * rules and the O(1) all-true mask test that picks an unmasked fast path).
 * Element types are stored as their bit patterns where C lacks them
 * (f16/bf16: uint16_t, fp8: uint8_t, i1: uint8_t holding 0/1); arithmetic
 * on those happens in float and is rounded back after every op, as Triton
 * does on the GPU. Integer arithmetic is done in unsigned C types (wrapping,
 * no UB); shifts past the width give 0 (or the sign) as PTX does; division
 * by zero is defined (x/0 = -1, x%0 = x; see the prelude).
 *
 * tt.reduce / tt.scan inline their combiner region into the loop body. A
 * reduction along the last axis keeps `lanes` partial results (element k
 * goes to lane k % lanes) combined in a tree at the end: the order a GPU
 * uses and one the C compiler can vectorise. tt.dot is a k-blocked m-k-n
 * loop nest accumulating in fp32 (fp16/bf16/fp8 inputs converted first).
 * scf ops become C control flow with iter_args in local variables/arrays.
 */
#include "target/cpu/cpu_internal.h"
#include "dialect/dialect.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXR 8 /* highest tensor rank lowered */
#define FUSE_MAX 256 /* most ops in one fused loop */

typedef enum VKind { VK_SCALAR, VK_EXPR, VK_VIEW } VKind;

typedef struct VInfo {
    VKind kind;
    const char *name;  /* SCALAR: C expression; EXPR: base; VIEW: array */
    int rank;
    int64_t shape[MAXR];
    int64_t st[MAXR];  /* EXPR/VIEW: strides in elements */
    int64_t off;       /* VIEW: element offset */
    bool isconst;      /* SCALAR/uniform EXPR whose value is the integer cval */
    int64_t cval;
} VInfo;

typedef struct Emitter {
    StrBuf *out;
    DiagEngine *de;
    Arena *arena;
    Map vals;          /* Value* -> VInfo* */
    Map names;         /* Value* -> const char* */
    int nextval, nextarg, nexttmp;
    int indent;
    bool failed;
    int lanes;
    bool comments;
    int64_t frame_bytes; /* arrays declared by the current function */
    Map frames;        /* Op* (an emitted function) -> its FuncFrame */
    Op *module;
    Op *func;          /* function being emitted */
    bool is_kernel;
    /* the open fusion group (see "element-wise fusion" below) */
    Op *gops[FUSE_MAX];
    int ngops;
    Type *gshape;      /* the shape every op of the group iterates over */
    Map gmember;       /* Op* -> non-NULL while the op is in the open group */
    Map gtemp;         /* Value* -> its C temporary inside the fused loop body */
    Map gmat;          /* Value* -> the array it is materialised into */
    Value *proven[64]; /* masks the fast path's condition proves all-true */
    int nproven;
} Emitter;

/* ---- small utilities ------------------------------------------------------ */

static const char *fmt(Emitter *e, const char *f, ...) TC_PRINTF(2, 3);
static const char *fmt(Emitter *e, const char *f, ...) {
    StrBuf sb = {0};
    va_list ap;
    va_start(ap, f);
    sb_vprintf(&sb, f, ap);
    va_end(ap);
    char *s = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    return s;
}

static void line(Emitter *e, const char *f, ...) TC_PRINTF(2, 3);
static void line(Emitter *e, const char *f, ...) {
    for (int i = 0; i < e->indent; i++) sb_puts(e->out, "    ");
    va_list ap;
    va_start(ap, f);
    sb_vprintf(e->out, f, ap);
    va_end(ap);
    sb_putc(e->out, '\n');
}

static void fail(Emitter *e, Op *op, const char *f, ...) TC_PRINTF(3, 4);
static void fail(Emitter *e, Op *op, const char *f, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    diag_error(e->de, op ? op->loc : (Loc){0}, "C backend: %s%s%s%s", buf, op ? " ('" : "",
               op ? op_name(op) : "", op ? "')" : "");
    e->failed = true;
}

static void comment_op(Emitter *e, Op *op) {
    if (e->comments) line(e, "/* %s */", op_name(op));
}

static void sanitize(const char *s, StrBuf *out) {
    for (; *s; s++) sb_putc(out, isalnum((unsigned char)*s) ? *s : '_');
}

void cpu_entry_symbol(const char *kernel_name, char *buf, size_t cap) {
    StrBuf sb = {0};
    sb_puts(&sb, CPU_ENTRY_PREFIX);
    sanitize(kernel_name, &sb);
    snprintf(buf, cap, "%s", sb_cstr(&sb));
    sb_free(&sb);
}

static const char *c_string(Emitter *e, const char *s) {
    StrBuf sb = {0};
    sb_putc(&sb, '"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') sb_printf(&sb, "\\%c", c);
        else if (c == '\n') sb_puts(&sb, "\\n");
        else if (c < 32 || c >= 127) sb_printf(&sb, "\\%03o", c);
        else sb_putc(&sb, (char)c);
    }
    sb_putc(&sb, '"');
    const char *r = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

/* ---- types ---------------------------------------------------------------- */

static bool is_lowfloat(const Type *t) {
    return t->kind == TY_FLOAT && t->fkind != FK_F32 && t->fkind != FK_F64;
}

static int int_width(const Type *t) { return t->kind == TY_INDEX ? 64 : t->width; }

static const char *ctype(Emitter *e, Type *t);

static const char *ctype_ptr(Emitter *e, Type *t) { return fmt(e, "%s *", ctype(e, t->elem)); }

/* The C storage type of a scalar (or tensor element) type. */
static const char *ctype(Emitter *e, Type *t) {
    t = ty_elem(t);
    switch (t->kind) {
    case TY_INT:
        switch (t->width) {
        case 1: return "uint8_t";
        case 8: return "int8_t";
        case 16: return "int16_t";
        case 32: return "int32_t";
        case 64: return "int64_t";
        }
        fail(e, NULL, "integer type i%d is not supported", t->width);
        return "int";
    case TY_INDEX: return "int64_t";
    case TY_FLOAT:
        switch (t->fkind) {
        case FK_F32: return "float";
        case FK_F64: return "double";
        case FK_F16:
        case FK_BF16: return "uint16_t";
        default: return "uint8_t";
        }
    case TY_PTR: return ctype_ptr(e, t);
    default: fail(e, NULL, "type kind %d has no C form", (int)t->kind); return "int";
    }
}

/* "const T" for a value that never changes ("T *const" for pointers). */
static const char *cdecl_const(Emitter *e, Type *t) {
    t = ty_elem(t);
    return t->kind == TY_PTR ? fmt(e, "%sconst", ctype(e, t)) : fmt(e, "const %s", ctype(e, t));
}

/* Unsigned type of the same width (ints), and the type unsigned arithmetic
 * is done in (at least 32 bits, so promotions never make it signed). */
static const char *utype(int w) {
    return w <= 8 ? "uint8_t" : w <= 16 ? "uint16_t" : w <= 32 ? "uint32_t" : "uint64_t";
}
static const char *uctype(int w) { return w <= 32 ? "uint32_t" : "uint64_t"; }

/* Storage -> compute (float/double) and back, for floats. */
static const char *to_c(Emitter *e, const char *x, Type *t) {
    t = ty_elem(t);
    if (t->kind != TY_FLOAT) return x;
    switch (t->fkind) {
    case FK_F16: return fmt(e, "tc_h2f(%s)", x);
    case FK_BF16: return fmt(e, "tc_bf2f(%s)", x);
    case FK_F8E4M3: return fmt(e, "tc_e4m3_to_f(%s)", x);
    case FK_F8E5M2: return fmt(e, "tc_e5m2_to_f(%s)", x);
    default: return x;
    }
}
static const char *from_c(Emitter *e, const char *x, Type *t) {
    t = ty_elem(t);
    if (t->kind != TY_FLOAT) return x;
    switch (t->fkind) {
    case FK_F16: return fmt(e, "tc_f2h(%s)", x);
    case FK_BF16: return fmt(e, "tc_f2bf(%s)", x);
    case FK_F8E4M3: return fmt(e, "tc_d2e4m3(%s)", x);
    case FK_F8E5M2: return fmt(e, "tc_d2e5m2(%s)", x);
    default: return x;
    }
}
/* From a double-typed expression (exact source) to storage, one rounding. */
static const char *from_d(Emitter *e, const char *x, Type *t) {
    t = ty_elem(t);
    switch (t->fkind) {
    case FK_F16: return fmt(e, "tc_d2h(%s)", x);
    case FK_BF16: return fmt(e, "tc_d2bf(%s)", x);
    case FK_F8E4M3: return fmt(e, "tc_d2e4m3(%s)", x);
    case FK_F8E5M2: return fmt(e, "tc_d2e5m2(%s)", x);
    case FK_F32: return fmt(e, "(float)(%s)", x);
    default: return fmt(e, "(double)(%s)", x);
    }
}
static bool is_f64(Type *t) { t = ty_elem(t); return t->kind == TY_FLOAT && t->fkind == FK_F64; }

/* Encodes a double into a small float format (see tc_d2small in the
 * prelude; the same algorithm, for constants). */
static uint32_t encode_small(double d, int E, int M, bool fnuz) {
    uint32_t s = signbit(d) ? 1u << (E + M) : 0;
    int bias = (1 << (E - 1)) - 1;
    uint32_t maxfin = fnuz ? ((1u << (E + M)) - 2u) : ((((1u << E) - 2u) << M) | ((1u << M) - 1u));
    uint32_t nan = fnuz ? ((1u << (E + M)) - 1u) : (((1u << E) - 1u) << M | (1u << (M - 1)));
    uint32_t inf = fnuz ? nan : (((1u << E) - 1u) << M);
    if (isnan(d)) return s | nan;
    double a = fabs(d);
    if (a == 0) return s;
    if (isinf(a)) return s | inf;
    int ex;
    frexp(a, &ex);
    ex -= 1;
    if (ex < 1 - bias) ex = 1 - bias;
    uint64_t q = (uint64_t)nearbyint(ldexp(a, M - ex));
    if (q >= (2ull << M)) { q >>= 1; ex++; }
    uint32_t bits = q < (1ull << M) ? (uint32_t)q
                                    : (uint32_t)((uint64_t)(ex + bias) << M) | (uint32_t)(q & ((1ull << M) - 1));
    if (bits > maxfin) return s | inf;
    return s | bits;
}

static const char *float_literal(Emitter *e, double v, Type *t) {
    t = ty_elem(t);
    switch (t->fkind) {
    case FK_F16: return fmt(e, "(uint16_t)0x%04x", encode_small(v, 5, 10, false));
    case FK_BF16: return fmt(e, "(uint16_t)0x%04x", encode_small(v, 8, 7, false));
    case FK_F8E4M3: return fmt(e, "(uint8_t)0x%02x", encode_small(v, 4, 3, true));
    case FK_F8E5M2: return fmt(e, "(uint8_t)0x%02x", encode_small(v, 5, 2, false));
    default: break;
    }
    bool f32 = t->fkind == FK_F32;
    /* (a NaN keeps its sign: float("-nan") has the sign bit set) */
    if (isnan(v)) return signbit(v) ? (f32 ? "(-NAN)" : "(-(double)NAN)") : (f32 ? "NAN" : "(double)NAN");
    if (isinf(v)) return v > 0 ? (f32 ? "INFINITY" : "(double)INFINITY")
                               : (f32 ? "(-INFINITY)" : "(-(double)INFINITY)");
    return f32 ? fmt(e, "%af", (double)(float)v) : fmt(e, "%a", v);
}

static const char *int_literal(Emitter *e, int64_t v, Type *t) {
    t = ty_elem(t);
    int w = int_width(t);
    if (w == 1) return (v & 1) ? "(uint8_t)1" : "(uint8_t)0";
    v = int_wrap(v, w);
    if (v == INT64_MIN) return "INT64_MIN";
    if (w == 64) return fmt(e, "(int64_t)%" PRId64 "LL", v);
    return fmt(e, "(%s)%" PRId64, ctype(e, t), v);
}

/* ---- values ---------------------------------------------------------------- */

static const char *vname(Emitter *e, Value *v) {
    const char *n = map_get(&e->names, MAP_KEY(v));
    if (n) return n;
    StrBuf sb = {0};
    bool farg = !v->def && v->owner_block && v->owner_block->parent &&
                v->owner_block->parent->parent == e->func;
    if (farg) sb_printf(&sb, "arg%d", e->nextarg++);
    else sb_printf(&sb, "v%d", e->nextval++);
    if (v->name && (isalpha((unsigned char)v->name[0]) || v->name[0] == '_')) {
        sb_putc(&sb, '_');
        sanitize(v->name, &sb);
    }
    n = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    map_put(&e->names, MAP_KEY(v), (void *)n);
    return n;
}

static VInfo *vi(Emitter *e, Value *v) {
    VInfo *i = map_get(&e->vals, MAP_KEY(v));
    if (!i) {
        fail(e, v->def, "value used before it was lowered");
        i = ARENA_NEW(e->arena, VInfo);
        i->kind = VK_SCALAR;
        i->name = "0";
    }
    return i;
}

static VInfo *bind(Emitter *e, Value *v, VInfo info) {
    VInfo *i = ARENA_NEW(e->arena, VInfo);
    *i = info;
    map_put(&e->vals, MAP_KEY(v), i);
    return i;
}

static VInfo mk_scalar(const char *name) { return (VInfo){.kind = VK_SCALAR, .name = name}; }

static void shape_of(Type *t, VInfo *v) {
    v->rank = t->kind == TY_TENSOR ? t->rank : 0;
    for (int d = 0; d < v->rank; d++) v->shape[d] = t->shape[d];
}

static VInfo mk_uniform(Type *t, const char *name) {
    VInfo v = {.kind = VK_EXPR, .name = name};
    shape_of(t, &v);
    return v;
}

static void rowmajor(const int64_t *shape, int rank, int64_t *st) {
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        st[d] = s;
        s *= shape[d];
    }
}

static VInfo mk_array(Type *t, const char *name) {
    VInfo v = {.kind = VK_VIEW, .name = name};
    shape_of(t, &v);
    rowmajor(v.shape, v.rank, v.st);
    return v;
}

static int64_t numel(const VInfo *v) {
    int64_t n = 1;
    for (int d = 0; d < v->rank; d++) n *= v->shape[d];
    return n;
}

static bool is_uniform(const VInfo *v) {
    if (v->kind == VK_SCALAR) return true;
    if (v->kind == VK_VIEW) return false;
    for (int d = 0; d < v->rank; d++)
        if (v->st[d] && v->shape[d] > 1) return false;
    return true;
}

/* Strides equal c * row-major strides (ignoring size-1 dims)? Sets *c. */
static bool flat_compatible(const VInfo *v, int64_t *c) {
    if (is_uniform(v)) {
        *c = 0;
        return true;
    }
    int64_t rm[MAXR];
    rowmajor(v->shape, v->rank, rm);
    bool have = false;
    int64_t k = 0;
    for (int d = 0; d < v->rank; d++) {
        if (v->shape[d] <= 1) continue;
        if (!have) {
            if (v->st[d] % rm[d]) return false;
            k = v->st[d] / rm[d];
            have = true;
        }
        if (v->st[d] != k * rm[d]) return false;
    }
    *c = k;
    return true;
}

static bool is_contig(const VInfo *v) {
    int64_t c;
    return v->kind == VK_VIEW && flat_compatible(v, &c) && (c == 1 || numel(v) == 1);
}

/* Sum i_d * s_d as C text ("" when zero). */
static const char *index_sum(Emitter *e, const VInfo *v, const char *const *idx) {
    StrBuf sb = {0};
    for (int d = 0; d < v->rank; d++) {
        if (v->st[d] == 0 || v->shape[d] == 1) continue;
        if (sb.len) sb_puts(&sb, " + ");
        if (v->st[d] == 1) sb_puts(&sb, idx[d]);
        else sb_printf(&sb, "%s*%" PRId64, idx[d], v->st[d]);
    }
    const char *r = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

/* The element of v at per-dim indices idx (C expressions), as C text of the
 * value's storage type `t` (element type). */
static const char *elem_at(Emitter *e, const VInfo *v, Type *t, const char *const *idx) {
    if (v->kind == VK_SCALAR || is_uniform(v)) return v->name;
    const char *sum = index_sum(e, v, idx);
    if (v->kind == VK_VIEW) {
        if (!v->off) return fmt(e, "%s[%s]", v->name, *sum ? sum : "0");
        return fmt(e, "%s[%" PRId64 "%s%s]", v->name, v->off, *sum ? " + " : "", sum);
    }
    t = ty_elem(t);
    if (t->kind == TY_PTR) return fmt(e, "(%s + (%s))", v->name, sum);
    int w = int_width(t);
    return fmt(e, "(%s)((%s)%s + (%s)(%s))", ctype(e, t), uctype(w), v->name, uctype(w), sum);
}

/* ---- loop nests over a shape --------------------------------------------- */

typedef struct Loop {
    bool flat;
    int rank;
    int64_t shape[MAXR];
    const char *idx[MAXR];
    int64_t n;
} Loop;

static const char *const loop_vars[MAXR] = {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7"};

/* Opens a loop nest over `shape`; flat when every view in `vs` allows it. */
static void loop_open(Emitter *e, Loop *L, const VInfo *shape, VInfo *const *vs, int nv) {
    L->rank = shape->rank;
    L->n = 1;
    for (int d = 0; d < L->rank; d++) {
        L->shape[d] = shape->shape[d];
        L->n *= shape->shape[d];
    }
    L->flat = true;
    for (int i = 0; i < nv; i++) {
        int64_t c;
        if (vs[i] && !flat_compatible(vs[i], &c)) L->flat = false;
    }
    if (L->rank <= 1) L->flat = true;
    if (L->flat) {
        line(e, "for (int64_t i = 0; i < %" PRId64 "; i++) {", L->n);
        e->indent++;
        return;
    }
    for (int d = 0; d < L->rank; d++) {
        L->idx[d] = loop_vars[d];
        line(e, "for (int64_t %s = 0; %s < %" PRId64 "; %s++)%s", loop_vars[d], loop_vars[d],
             L->shape[d], loop_vars[d], d == L->rank - 1 ? " {" : "");
        e->indent++;
    }
}

static void loop_close(Emitter *e, Loop *L) {
    int n = L->flat ? 1 : L->rank;
    e->indent -= n;
    line(e, "}");
}

/* Flat row-major index of the current element. */
static const char *loop_dst(Emitter *e, Loop *L) {
    if (L->flat) return "i";
    VInfo v = {.kind = VK_VIEW, .rank = L->rank};
    memcpy(v.shape, L->shape, sizeof v.shape);
    rowmajor(v.shape, v.rank, v.st);
    const char *s = index_sum(e, &v, L->idx);
    return *s ? s : "0";
}

static const char *loop_elem(Emitter *e, Loop *L, const VInfo *v, Type *t) {
    if (v->kind == VK_SCALAR || is_uniform(v)) return v->name;
    if (!L->flat) return elem_at(e, v, t, L->idx);
    int64_t c = 0;
    flat_compatible(v, &c);
    const char *ix = c == 1 ? "i" : fmt(e, "i*%" PRId64, c);
    if (v->kind == VK_VIEW)
        return v->off ? fmt(e, "%s[%" PRId64 " + %s]", v->name, v->off, ix) : fmt(e, "%s[%s]", v->name, ix);
    t = ty_elem(t);
    if (t->kind == TY_PTR) return fmt(e, "(%s + %s)", v->name, ix);
    int w = int_width(t);
    return fmt(e, "(%s)((%s)%s + (%s)(%s))", ctype(e, t), uctype(w), v->name, uctype(w), ix);
}

/* Declares a fresh contiguous array for a tensor of type t. */
static const char *decl_array(Emitter *e, Type *t, const char *name) {
    int64_t n = ty_numel(t);
    const char *ct = ctype(e, t);
    line(e, "%s %s[%" PRId64 "] __attribute__((aligned(64)));", ct, name, n);
    e->frame_bytes += n * (ty_elem(t)->kind == TY_PTR ? 8 : (int64_t)(ty_elem(t)->width + 7) / 8);
    return name;
}

static const char *fresh(Emitter *e, const char *base) {
    return fmt(e, "%s_%d", base, e->nexttmp++);
}

/* A contiguous copy of v (type t) unless it already is one. */
static VInfo contig(Emitter *e, const VInfo *v, Type *t) {
    if (t->kind != TY_TENSOR || is_contig(v)) return *v;
    const char *name = decl_array(e, t, fresh(e, "tmp"));
    Loop L;
    VInfo *vs[1] = {(VInfo *)v};
    loop_open(e, &L, v, vs, 1);
    line(e, "%s[%s] = %s;", name, loop_dst(e, &L), loop_elem(e, &L, v, t));
    loop_close(e, &L);
    return mk_array(t, name);
}

/* Copies src into existing storage dst (a scalar variable or contiguous
 * array of type t). */
static void copy_into(Emitter *e, const VInfo *dst, const VInfo *src, Type *t) {
    if (t->kind != TY_TENSOR) {
        if (strcmp(dst->name, src->name)) line(e, "%s = %s;", dst->name, src->name);
        return;
    }
    if (src->kind == VK_VIEW && !strcmp(src->name, dst->name) && src->off == dst->off &&
        is_contig(src))
        return;
    Loop L;
    VInfo *vs[1] = {(VInfo *)src};
    loop_open(e, &L, dst, vs, 1);
    line(e, "%s[%s] = %s;", dst->name, loop_dst(e, &L), loop_elem(e, &L, src, t));
    loop_close(e, &L);
}

/* ---- element-wise op semantics ---------------------------------------------------- */

static const char *cmpi_expr(Emitter *e, int pred, const char *a, const char *b, Type *t) {
    int w = int_width(t);
    const char *u = utype(w);
    const char *sa = a, *sb = b;
    if (w == 1) {
        sa = fmt(e, "(-(int)%s)", a);
        sb = fmt(e, "(-(int)%s)", b);
    }
    if (t->kind == TY_PTR) u = "uintptr_t";
    switch (pred) {
    case CMPI_EQ: return fmt(e, "(%s == %s)", a, b);
    case CMPI_NE: return fmt(e, "(%s != %s)", a, b);
    case CMPI_SLT: return fmt(e, "(%s < %s)", sa, sb);
    case CMPI_SLE: return fmt(e, "(%s <= %s)", sa, sb);
    case CMPI_SGT: return fmt(e, "(%s > %s)", sa, sb);
    case CMPI_SGE: return fmt(e, "(%s >= %s)", sa, sb);
    case CMPI_ULT: return fmt(e, "((%s)%s < (%s)%s)", u, a, u, b);
    case CMPI_ULE: return fmt(e, "((%s)%s <= (%s)%s)", u, a, u, b);
    case CMPI_UGT: return fmt(e, "((%s)%s > (%s)%s)", u, a, u, b);
    case CMPI_UGE: return fmt(e, "((%s)%s >= (%s)%s)", u, a, u, b);
    }
    return "0";
}

static const char *cmpf_expr(Emitter *e, int pred, const char *a, const char *b) {
    switch (pred) {
    case CMPF_FALSE: return "0";
    case CMPF_OEQ: return fmt(e, "(%s == %s)", a, b);
    case CMPF_OGT: return fmt(e, "(%s > %s)", a, b);
    case CMPF_OGE: return fmt(e, "(%s >= %s)", a, b);
    case CMPF_OLT: return fmt(e, "(%s < %s)", a, b);
    case CMPF_OLE: return fmt(e, "(%s <= %s)", a, b);
    case CMPF_ONE: return fmt(e, "(%s < %s || %s > %s)", a, b, a, b);
    case CMPF_ORD: return fmt(e, "(%s == %s && %s == %s)", a, a, b, b);
    case CMPF_UEQ: return fmt(e, "!(%s < %s || %s > %s)", a, b, a, b);
    case CMPF_UGT: return fmt(e, "!(%s <= %s)", a, b);
    case CMPF_UGE: return fmt(e, "!(%s < %s)", a, b);
    case CMPF_ULT: return fmt(e, "!(%s >= %s)", a, b);
    case CMPF_ULE: return fmt(e, "!(%s > %s)", a, b);
    case CMPF_UNE: return fmt(e, "(%s != %s)", a, b);
    case CMPF_UNO: return fmt(e, "(%s != %s || %s != %s)", a, a, b, b);
    case CMPF_TRUE: return "1";
    }
    return "0";
}

static const char *int_bin(Emitter *e, const char *op, const char *a, const char *b, Type *t) {
    int w = int_width(t);
    const char *u = utype(w), *uc = uctype(w);
    if (w == 1) return fmt(e, "(uint8_t)((%s %s %s) & 1u)", a, op, b);
    if (!strcmp(u, uc)) return fmt(e, "(%s)((%s)%s %s (%s)%s)", ctype(e, t), u, a, op, u, b);
    return fmt(e, "(%s)((%s)(%s)%s %s (%s)(%s)%s)", ctype(e, t), uc, u, a, op, uc, u, b);
}

static const char *libm(Emitter *e, const char *fn, Type *t, const char *a) {
    return is_f64(t) ? fmt(e, "%s(%s)", fn, a) : fmt(e, "%sf(%s)", fn, a);
}

/* A float cast between float types (src storage expr x). */
static const char *float_cast(Emitter *e, const char *x, Type *src, Type *dst, bool rtz,
                              bool satfinite) {
    src = ty_elem(src);
    dst = ty_elem(dst);
    if (src == dst) return x;
    if (src->width < dst->width || (src->width == dst->width && src->fkind == FK_F8E4M3) ||
        (src->fkind == FK_F8E5M2 && dst->fkind == FK_F16)) {
        /* widening (exact); fp8 -> f16/bf16 and e4m3 -> e5m2 go through f32 */
        const char *f = to_c(e, x, src);
        if (dst->fkind == FK_F64) return fmt(e, "(double)%s", f);
        if (dst->fkind == FK_F32) return f;
        if (dst->fkind == FK_F16 && src->kind == TY_FLOAT && src->width == 8) return fmt(e, "tc_f2h(%s)", f);
        return from_d(e, fmt(e, "(double)%s", f), dst);
    }
    /* narrowing: one rounding from the exact source value */
    const char *d = src->fkind == FK_F64 ? x : fmt(e, "(double)%s", to_c(e, x, src));
    if (!rtz && !satfinite) {
        if (src->fkind == FK_F32 && dst->fkind == FK_F16) return fmt(e, "tc_f2h(%s)", x);
        if (src->fkind == FK_F32 && dst->fkind == FK_BF16) return fmt(e, "tc_f2bf(%s)", x);
        return from_d(e, d, dst);
    }
    int E = 8, M = 23, fnuz = 0;
    switch (dst->fkind) {
    case FK_F16: E = 5, M = 10; break;
    case FK_BF16: E = 8, M = 7; break;
    case FK_F8E4M3: E = 4, M = 3, fnuz = 1; break;
    case FK_F8E5M2: E = 5, M = 2; break;
    case FK_F32: return rtz ? fmt(e, "tc_bits_f32((uint32_t)tc_d2small(%s, 8, 23, 0, %d, 1))", d, satfinite)
                            : fmt(e, "(float)%s", d);
    default: break;
    }
    return fmt(e, "(%s)tc_d2small(%s, %d, %d, %d, %d, %d)", ctype(e, dst), d, E, M, fnuz, satfinite, rtz);
}

static int64_t attr_enum(Op *op, const char *name, const char *const *names, int n, int64_t dflt) {
    Attr *a = op_attr(op, name);
    if (!a) return dflt;
    int64_t v;
    if (attr_as_int(a, &v)) return v;
    if (a->kind == ATTR_STRING || a->kind == ATTR_OPAQUE)
        for (int i = 0; i < n; i++)
            if (strcmp(a->s, names[i]) == 0) return i;
    return dflt;
}

/* The C expression computing one result element of an element-wise op from
 * its operands' element expressions `a`. NULL when the op is not one. */
static const char *ew_expr(Emitter *e, Op *op, const char *const *a) {
    Type *t = op->noperands ? ty_elem(op_operand(op, 0)->type) : NULL;
    Type *rt = op->nresults ? ty_elem(op_result(op, 0)->type) : NULL;
    int w = t ? int_width(t) : 0;
    const char *F = rt && is_f64(rt) ? "double" : "float";
    (void)F;
#define FA(i) to_c(e, a[i], t)
#define FBIN(o) from_c(e, fmt(e, "(%s %s %s)", FA(0), o, FA(1)), rt)
    switch (op->kind) {
    case ARITH_ADDI: return int_bin(e, "+", a[0], a[1], t);
    case ARITH_SUBI: return int_bin(e, "-", a[0], a[1], t);
    case ARITH_MULI: return int_bin(e, "*", a[0], a[1], t);
    case ARITH_ANDI: return int_bin(e, "&", a[0], a[1], t);
    case ARITH_ORI: return int_bin(e, "|", a[0], a[1], t);
    case ARITH_XORI: return int_bin(e, "^", a[0], a[1], t);
    case ARITH_DIVSI:
    case ARITH_REMSI:
    case ARITH_DIVUI:
    case ARITH_REMUI:
    case ARITH_FLOORDIVSI:
    case ARITH_CEILDIVSI: {
        if (w == 1) {
            /* i1: only 1/1 is defined; x / 0 follows the wider rule */
            if (op->kind == ARITH_DIVSI || op->kind == ARITH_DIVUI || op->kind == ARITH_FLOORDIVSI ||
                op->kind == ARITH_CEILDIVSI)
                return fmt(e, "(uint8_t)(%s ? %s : 1u)", a[1], a[0]);
            return fmt(e, "(uint8_t)(%s ? 0u : %s)", a[1], a[0]);
        }
        const char *fn = op->kind == ARITH_DIVSI ? "divs" : op->kind == ARITH_REMSI ? "rems"
                       : op->kind == ARITH_DIVUI ? "divu" : op->kind == ARITH_REMUI ? "remu"
                       : op->kind == ARITH_FLOORDIVSI ? "floordivs" : "ceildivs";
        bool uns = op->kind == ARITH_DIVUI || op->kind == ARITH_REMUI;
        if (uns) return fmt(e, "(%s)tc_%s%d((%s)%s, (%s)%s)", ctype(e, t), fn, w, utype(w), a[0], utype(w), a[1]);
        return fmt(e, "tc_%s%d(%s, %s)", fn, w, a[0], a[1]);
    }
    case ARITH_SHLI:
        return fmt(e, "((%s)%s < %du ? (%s)((%s)(%s)%s << (%s)%s) : (%s)0)", uctype(w), a[1], w, ctype(e, t),
                   uctype(w), utype(w), a[0], utype(w), a[1], ctype(e, t));
    case ARITH_SHRUI:
        return fmt(e, "((%s)%s < %du ? (%s)((%s)(%s)%s >> (%s)%s) : (%s)0)", uctype(w), a[1], w, ctype(e, t),
                   uctype(w), utype(w), a[0], utype(w), a[1], ctype(e, t));
    case ARITH_SHRSI:
        if (w == 1) return a[0];
        return fmt(e, "(%s)(%s >> ((%s)%s < %du ? (%s)%s : %du))", ctype(e, t), a[0], utype(w), a[1], w,
                   utype(w), a[1], w - 1);
    case ARITH_MAXSI:
    case ARITH_MINSI: {
        const char *sa = a[0], *sb = a[1];
        if (w == 1) sa = fmt(e, "(-(int)%s)", a[0]), sb = fmt(e, "(-(int)%s)", a[1]);
        return fmt(e, "(%s %s %s ? %s : %s)", sa, op->kind == ARITH_MAXSI ? ">" : "<", sb, a[0], a[1]);
    }
    case ARITH_MAXUI:
    case ARITH_MINUI:
        return fmt(e, "((%s)%s %s (%s)%s ? %s : %s)", utype(w), a[0], op->kind == ARITH_MAXUI ? ">" : "<",
                   utype(w), a[1], a[0], a[1]);
    case TT_MULHIUI:
        if (w == 32) return fmt(e, "(int32_t)tc_mulhi32((uint32_t)%s, (uint32_t)%s)", a[0], a[1]);
        if (w == 64) return fmt(e, "(int64_t)tc_mulhi64((uint64_t)%s, (uint64_t)%s)", a[0], a[1]);
        return fmt(e, "(%s)(((uint32_t)(%s)%s * (uint32_t)(%s)%s) >> %d)", ctype(e, t), utype(w), a[0],
                   utype(w), a[1], w);
    case MATH_ABSI:
        return fmt(e, "(%s)(%s < 0 ? 0u - (%s)(%s)%s : (%s)(%s)%s)", ctype(e, t), a[0], uctype(w), utype(w),
                   a[0], uctype(w), utype(w), a[0]);
    case ARITH_ADDF: return FBIN("+");
    case ARITH_SUBF: return FBIN("-");
    case ARITH_MULF: return FBIN("*");
    case ARITH_DIVF:
    case TT_PRECISE_DIVF: return FBIN("/");
    case ARITH_REMF: return from_c(e, is_f64(t) ? fmt(e, "fmod(%s, %s)", FA(0), FA(1)) : fmt(e, "fmodf(%s, %s)", FA(0), FA(1)), rt);
    case ARITH_NEGF:
        if (is_lowfloat(t)) return fmt(e, "(%s)(%s ^ 0x%x)", ctype(e, t), a[0], 1u << (t->width - 1));
        return fmt(e, "(-%s)", a[0]);
    case MATH_ABSF:
        if (is_lowfloat(t)) return fmt(e, "(%s)(%s & 0x%x)", ctype(e, t), a[0], (1u << (t->width - 1)) - 1);
        return libm(e, "fabs", t, a[0]);
    case ARITH_MAXIMUMF:
    case ARITH_MINIMUMF:
        return from_c(e, fmt(e, "tc_%s%s(%s, %s)", is_f64(t) ? "d" : "f",
                             op->kind == ARITH_MAXIMUMF ? "maximum" : "minimum", FA(0), FA(1)), rt);
    case ARITH_MAXNUMF:
    case ARITH_MINNUMF:
        return from_c(e, fmt(e, "tc_%s%s(%s, %s)", is_f64(t) ? "d" : "f",
                             op->kind == ARITH_MAXNUMF ? "maxnum" : "minnum", FA(0), FA(1)), rt);
    case ARITH_CMPI: {
        int64_t p = 0;
        op_attr_int(op, "predicate", &p);
        return fmt(e, "(uint8_t)%s", cmpi_expr(e, (int)p, a[0], a[1], t));
    }
    case ARITH_CMPF: {
        int64_t p = 0;
        op_attr_int(op, "predicate", &p);
        return fmt(e, "(uint8_t)%s", cmpf_expr(e, (int)p, FA(0), FA(1)));
    }
    case ARITH_SELECT: return fmt(e, "(%s ? %s : %s)", a[0], a[1], a[2]);
    case ARITH_EXTSI:
        if (w == 1) return fmt(e, "(%s)(-(int)%s)", ctype(e, rt), a[0]);
        return fmt(e, "(%s)%s", ctype(e, rt), a[0]);
    case ARITH_EXTUI: return fmt(e, "(%s)(%s)%s", ctype(e, rt), utype(w), a[0]);
    case ARITH_TRUNCI:
    case ARITH_INDEX_CAST:
        if (int_width(rt) == 1) return fmt(e, "(uint8_t)(%s & 1)", a[0]);
        if (op->kind == ARITH_INDEX_CAST && w == 1) return fmt(e, "(%s)(-(int)%s)", ctype(e, rt), a[0]);
        return fmt(e, "(%s)(%s)%s", ctype(e, rt), utype(int_width(rt)), a[0]);
    case ARITH_SITOFP:
    case ARITH_UITOFP: {
        const char *x = op->kind == ARITH_UITOFP ? fmt(e, "(%s)%s", utype(w), a[0])
                      : w == 1 ? fmt(e, "(-(int)%s)", a[0]) : a[0];
        if (rt->fkind == FK_F32) return fmt(e, "(float)%s", x);
        if (rt->fkind == FK_F64) return fmt(e, "(double)%s", x);
        return from_d(e, fmt(e, "(double)%s", x), rt);
    }
    case ARITH_FPTOSI:
    case ARITH_FPTOUI: {
        int rw = int_width(rt);
        const char *d = fmt(e, "(double)%s", FA(0));
        if (rw == 1) return fmt(e, "(uint8_t)(tc_f2s32(%s) & 1)", d);
        if (op->kind == ARITH_FPTOSI) return fmt(e, "tc_f2s%d(%s)", rw, d);
        return fmt(e, "(%s)tc_f2u%d(%s)", ctype(e, rt), rw, d);
    }
    case ARITH_EXTF:
    case ARITH_TRUNCF: return float_cast(e, a[0], t, rt, false, false);
    case TT_FP_TO_FP: {
        int64_t rnd = attr_enum(op, "rounding", (const char *const[]){"rtz", "rtne"}, 2, 1);
        bool narrowing = rt->width < t->width || (rt->width == t->width && rt->fkind == FK_F8E4M3);
        return float_cast(e, a[0], t, rt, narrowing && rnd == 0, narrowing && rt->width == 8);
    }
    case ARITH_BITCAST:
    case TT_BITCAST: {
        if (rt->kind == TY_PTR) return fmt(e, "(%s)%s", ctype(e, rt), a[0]);
        if (t->kind == TY_FLOAT && t->fkind == FK_F32) return fmt(e, "(%s)tc_f32_bits(%s)", ctype(e, rt), a[0]);
        if (t->kind == TY_FLOAT && t->fkind == FK_F64) return fmt(e, "(%s)tc_f64_bits(%s)", ctype(e, rt), a[0]);
        if (rt->kind == TY_FLOAT && rt->fkind == FK_F32) return fmt(e, "tc_bits_f32((uint32_t)%s)", a[0]);
        if (rt->kind == TY_FLOAT && rt->fkind == FK_F64) return fmt(e, "tc_bits_f64((uint64_t)%s)", a[0]);
        return fmt(e, "(%s)%s", ctype(e, rt), a[0]);
    }
    case TT_INT_TO_PTR: return fmt(e, "(%s)(uintptr_t)%s", ctype(e, rt), a[0]);
    case TT_PTR_TO_INT: return fmt(e, "(%s)(uintptr_t)%s", ctype(e, rt), a[0]);
    case TT_ADDPTR: return fmt(e, "(%s + (int64_t)%s)", a[0], a[1]);
    /* f32 exp/exp2 inline (the prelude's tc_expf: vectorisable, <= 2 ulp) */
    case MATH_EXP:
        return from_c(e, is_f64(t) ? libm(e, "exp", t, FA(0)) : fmt(e, "tc_expf(%s)", FA(0)), rt);
    case MATH_EXP2:
        return from_c(e, is_f64(t) ? libm(e, "exp2", t, FA(0)) : fmt(e, "tc_exp2f(%s)", FA(0)), rt);
    case MATH_LOG: return from_c(e, libm(e, "log", t, FA(0)), rt);
    case MATH_LOG2: return from_c(e, libm(e, "log2", t, FA(0)), rt);
    case MATH_SQRT:
    case TT_PRECISE_SQRT: return from_c(e, libm(e, "sqrt", t, FA(0)), rt);
    case MATH_RSQRT:
        return from_c(e, is_f64(t) ? fmt(e, "(1.0 / sqrt(%s))", FA(0)) : fmt(e, "(1.0f / sqrtf(%s))", FA(0)), rt);
    case MATH_SIN: return from_c(e, libm(e, "sin", t, FA(0)), rt);
    case MATH_COS: return from_c(e, libm(e, "cos", t, FA(0)), rt);
    case MATH_TANH: return from_c(e, libm(e, "tanh", t, FA(0)), rt);
    case MATH_FLOOR: return from_c(e, libm(e, "floor", t, FA(0)), rt);
    case MATH_CEIL: return from_c(e, libm(e, "ceil", t, FA(0)), rt);
    case MATH_ERF: return from_c(e, libm(e, "erf", t, FA(0)), rt);
    case MATH_FMA:
        return from_c(e, fmt(e, "%s(%s, %s, %s)", is_f64(t) ? "fma" : "fmaf", FA(0), FA(1), FA(2)), rt);
    case TT_CLAMPF: {
        int64_t prop = attr_enum(op, "propagateNan", (const char *const[]){"none", "all"}, 2, 0);
        const char *sfx = is_f64(t) ? "d" : "f";
        /* PropagateNan.ALL: a NaN x, min or max gives NaN (Triton's minimum(maximum(x, lo), hi)) */
        const char *c = fmt(e, "tc_%s%s(tc_%s%s(%s, %s), %s)", sfx, prop ? "minimum" : "minnum", sfx,
                            prop ? "maximum" : "maxnum", FA(0), FA(1), FA(2));
        return from_c(e, c, rt);
    }
    case TT_EXTERN_ELEMENTWISE: {
        const char *sym = op_attr_str(op, "symbol");
        if (!sym) return NULL;
        if (strncmp(sym, "__nv_", 5) == 0) sym += 5;
        if (strncmp(sym, "fast_", 5) == 0) sym += 5; /* libdevice's fast_sinf: sinf */
        StrBuf sb = {0};
        sb_printf(&sb, "%s(", sym);
        for (int i = 0; i < op->noperands; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", to_c(e, a[i], op_operand(op, i)->type));
        sb_putc(&sb, ')');
        const char *r = from_c(e, arena_strdup(e->arena, sb_cstr(&sb)), rt);
        sb_free(&sb);
        return r;
    }
    default: return NULL;
    }
#undef FA
#undef FBIN
}

/* ---- region emission ---------------------------------------------------------------- */

static void emit_block(Emitter *e, Block *b);
static void emit_op(Emitter *e, Op *op);
static void fuse_op(Emitter *e, Op *op);
static void fuse_flush(Emitter *e);

/* Storage for the results of a control-flow op (or iter args): a scalar
 * variable or a contiguous array each. */
static VInfo decl_storage(Emitter *e, Value *v, const char *name) {
    Type *t = v->type;
    if (t->kind == TY_TENSOR) {
        decl_array(e, t, name);
        return mk_array(t, name);
    }
    line(e, "%s %s;", ctype(e, t), name);
    return mk_scalar(name);
}

/* Copies `n` values into storage, safe when some sources are the storage
 * itself in another position (a rotation of iter_args) or the storage
 * they go to seen through a view that moves elements (a loop-carried tile
 * yielded transposed, flipped, reshaped and transposed: a copy in place
 * would read elements it has overwritten). */
static void assign_all(Emitter *e, VInfo *dst, Value *const *src, Type *const *types, int n) {
    VInfo srcv[64];
    if (n > 64) {
        fail(e, NULL, "more than 64 loop-carried values");
        return;
    }
    for (int i = 0; i < n; i++) srcv[i] = *vi(e, src[i]);
    /* snapshot sources that alias another destination, or their own
     * other than element for element */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (srcv[i].kind == VK_EXPR || strcmp(srcv[i].name, dst[j].name)) continue;
            if (j == i && (srcv[i].kind != VK_VIEW || (!srcv[i].off && is_contig(&srcv[i])))) continue;
            const char *tmp = fresh(e, "rot");
            if (types[i]->kind == TY_TENSOR) {
                decl_array(e, types[i], tmp);
                VInfo tv = mk_array(types[i], tmp);
                copy_into(e, &tv, &srcv[i], types[i]);
                srcv[i] = tv;
            } else {
                line(e, "%s %s = %s;", ctype(e, types[i]), tmp, srcv[i].name);
                srcv[i] = mk_scalar(tmp);
            }
            break;
        }
    }
    for (int i = 0; i < n; i++) copy_into(e, &dst[i], &srcv[i], types[i]);
}

static Type **value_types(Emitter *e, Value *const *vs, int n) {
    Type **ts = ARENA_ARRAY(e->arena, Type *, n ? n : 1);
    for (int i = 0; i < n; i++) ts[i] = vs[i]->type;
    return ts;
}

static Value **operand_values(Emitter *e, Op *op, int from) {
    int n = op->noperands - from;
    Value **vs = ARENA_ARRAY(e->arena, Value *, n > 0 ? n : 1);
    for (int i = 0; i < n; i++) vs[i] = op_operand(op, from + i);
    return vs;
}

static void emit_for(Emitter *e, Op *op) {
    Block *body = region_entry(&op->regions[0]);
    int n = op->nresults;
    comment_op(e, op);
    VInfo *st = ARENA_ARRAY(e->arena, VInfo, n ? n : 1);
    for (int i = 0; i < n; i++) {
        st[i] = decl_storage(e, op_result(op, i), vname(e, op_result(op, i)));
        bind(e, op_result(op, i), st[i]);
    }
    assign_all(e, st, operand_values(e, op, 3), value_types(e, operand_values(e, op, 3), n), n);
    Value *iv = body->args[0];
    const char *ivn = vname(e, iv);
    const char *it = ctype(e, iv->type);
    line(e, "for (%s %s = %s; %s < %s; %s = (%s)(%s + %s)) {", it, ivn, vi(e, op_operand(op, 0))->name, ivn,
         vi(e, op_operand(op, 1))->name, ivn, it, ivn, vi(e, op_operand(op, 2))->name);
    e->indent++;
    bind(e, iv, mk_scalar(ivn));
    for (int i = 0; i < n; i++) bind(e, body->args[1 + i], st[i]);
    emit_block(e, body);
    Op *y = block_terminator(body);
    if (y && y->kind == SCF_YIELD && y->noperands == n)
        assign_all(e, st, operand_values(e, y, 0), value_types(e, operand_values(e, y, 0), n), n);
    e->indent--;
    line(e, "}");
}

static void emit_if(Emitter *e, Op *op) {
    int n = op->nresults;
    comment_op(e, op);
    VInfo *st = ARENA_ARRAY(e->arena, VInfo, n ? n : 1);
    for (int i = 0; i < n; i++) {
        st[i] = decl_storage(e, op_result(op, i), vname(e, op_result(op, i)));
        bind(e, op_result(op, i), st[i]);
    }
    line(e, "if (%s) {", vi(e, op_operand(op, 0))->name);
    for (int r = 0; r < 2; r++) {
        Block *b = region_entry(&op->regions[r]);
        if (r == 1) {
            if (!b || (!b->first && !n)) break;
            line(e, "} else {");
        }
        e->indent++;
        if (b) {
            emit_block(e, b);
            Op *y = block_terminator(b);
            if (y && y->kind == SCF_YIELD && y->noperands == n)
                assign_all(e, st, operand_values(e, y, 0), value_types(e, operand_values(e, y, 0), n), n);
        }
        e->indent--;
    }
    line(e, "}");
}

static void emit_while(Emitter *e, Op *op) {
    Block *before = region_entry(&op->regions[0]), *after = region_entry(&op->regions[1]);
    comment_op(e, op);
    int nb = before->nargs, nr = op->nresults;
    VInfo *bs = ARENA_ARRAY(e->arena, VInfo, nb ? nb : 1);
    VInfo *rs = ARENA_ARRAY(e->arena, VInfo, nr ? nr : 1);
    for (int i = 0; i < nb; i++) {
        bs[i] = decl_storage(e, before->args[i], vname(e, before->args[i]));
        bind(e, before->args[i], bs[i]);
    }
    for (int i = 0; i < nr; i++) {
        rs[i] = decl_storage(e, op_result(op, i), vname(e, op_result(op, i)));
        bind(e, op_result(op, i), rs[i]);
        if (after && i < after->nargs) bind(e, after->args[i], rs[i]);
    }
    assign_all(e, bs, operand_values(e, op, 0), value_types(e, operand_values(e, op, 0), nb), nb);
    line(e, "for (;;) {");
    e->indent++;
    emit_block(e, before);
    Op *c = block_terminator(before);
    if (!c || c->kind != SCF_CONDITION) {
        fail(e, op, "before region must end in scf.condition");
        return;
    }
    const char *cond = fresh(e, "cond");
    line(e, "uint8_t %s = %s;", cond, vi(e, op_operand(c, 0))->name);
    assign_all(e, rs, operand_values(e, c, 1), value_types(e, operand_values(e, c, 1), nr), nr);
    line(e, "if (!%s) break;", cond);
    if (after) {
        emit_block(e, after);
        Op *y = block_terminator(after);
        if (y && y->kind == SCF_YIELD && y->noperands == nb)
            assign_all(e, bs, operand_values(e, y, 0), value_types(e, operand_values(e, y, 0), nb), nb);
    }
    e->indent--;
    line(e, "}");
}

/* Inlines a combiner region: block args bound to `lhs` then `rhs`
 * expressions, the terminator's operands assigned to `outs`. */
static void emit_combine(Emitter *e, Block *body, int n, const char *const *lhs, const char *const *rhs,
                         const char *const *outs) {
    line(e, "{");
    e->indent++;
    for (int j = 0; j < n; j++) {
        bind(e, body->args[j], mk_scalar(lhs[j]));
        bind(e, body->args[n + j], mk_scalar(rhs[j]));
    }
    Op *term = block_terminator(body);
    for (Op *o = body->first; o && !e->failed; o = o->next)
        if (o != term) emit_op(e, o);
    if (!term || term->noperands != n) {
        fail(e, body->parent ? body->parent->parent : NULL, "combiner must return %d values", n);
    } else if (n == 1) {
        line(e, "%s = %s;", outs[0], vi(e, op_operand(term, 0))->name);
    } else {
        for (int j = 0; j < n; j++)
            line(e, "%s c%d = %s;", ctype(e, body->args[j]->type), j, vi(e, op_operand(term, j))->name);
        for (int j = 0; j < n; j++) line(e, "%s = c%d;", outs[j], j);
    }
    e->indent--;
    line(e, "}");
}

/* The end of a lane-split reduction: the nl partial results in lane[j][0..nl)
 * folded pairwise (a tree), then lane[j][0] written to res[j], or to
 * res[j][at] when `at` is given. lhs/outs already name lane[j][l]; rhs is
 * scratch. */
static void fold_lanes(Emitter *e, Block *body, int n, const char *const *lane, int nl, const char *const *lhs,
                       const char **rhs, const char *const *outs, const char *const *res, const char *at) {
    line(e, "for (int w = %d; w > 0; w >>= 1)", nl / 2);
    line(e, "    for (int l = 0; l < w; l++)");
    e->indent += 2;
    for (int j = 0; j < n; j++) rhs[j] = fmt(e, "%s[l + w]", lane[j]);
    emit_combine(e, body, n, lhs, rhs, outs);
    e->indent -= 2;
    for (int j = 0; j < n; j++) line(e, "%s%s = %s[0];", res[j], at ? fmt(e, "[%s]", at) : "", lane[j]);
}

/* Loops over every dim of `v` except `axis` (outer dims first, then inner
 * dims); indices named i<d>. Returns the number of loops opened. */
static int open_dims(Emitter *e, const VInfo *v, int axis, bool inner) {
    int n = 0;
    for (int d = 0; d < v->rank; d++) {
        if (d == axis || (inner ? d < axis : d > axis)) continue;
        line(e, "for (int64_t %s = 0; %s < %" PRId64 "; %s++) {", loop_vars[d], loop_vars[d], v->shape[d],
             loop_vars[d]);
        e->indent++;
        n++;
    }
    return n;
}
static void close_n(Emitter *e, int n) {
    while (n-- > 0) {
        e->indent--;
        line(e, "}");
    }
}

/* Index (C text) of the element at loop vars with dim `axis` = kexpr, in a
 * contiguous array of shape `v` minus `axis` (drop) or of shape `v` (keep). */
static const char *axis_index(Emitter *e, const VInfo *v, int axis, const char *kexpr, bool drop) {
    VInfo r = {.kind = VK_VIEW};
    const char *idx[MAXR];
    for (int d = 0; d < v->rank; d++) {
        if (drop && d == axis) continue;
        r.shape[r.rank] = v->shape[d];
        idx[r.rank++] = d == axis ? kexpr : loop_vars[d];
    }
    rowmajor(r.shape, r.rank, r.st);
    const char *s = index_sum(e, &r, idx);
    return *s ? s : "0";
}

static const char *elem_axis(Emitter *e, const VInfo *v, Type *t, int axis, const char *kexpr) {
    const char *idx[MAXR];
    for (int d = 0; d < v->rank; d++) idx[d] = d == axis ? kexpr : loop_vars[d];
    return elem_at(e, v, t, idx);
}

static void emit_reduce(Emitter *e, Op *op) {
    int n = op->noperands;
    int64_t axis = 0;
    op_attr_int(op, "axis", &axis);
    Block *body = region_entry(&op->regions[0]);
    comment_op(e, op);
    VInfo in[16] = {0};
    Type *et[16] = {0};
    if (n < 1 || n > 16) {
        fail(e, op, "more than 16 operands");
        return;
    }
    for (int j = 0; j < n; j++) {
        in[j] = *vi(e, op_operand(op, j));
        et[j] = ty_elem(op_operand(op, j)->type);
    }
    int A = (int)axis;
    int64_t K = in[0].shape[A];
    bool scalar_res = op_result(op, 0)->type->kind != TY_TENSOR;
    const char *res[16] = {0};
    for (int j = 0; j < n; j++) {
        Value *r = op_result(op, j);
        VInfo s = decl_storage(e, r, vname(e, r));
        bind(e, r, s);
        res[j] = s.name;
    }
    bool inner = false;
    for (int d = A + 1; d < in[0].rank; d++)
        if (in[0].shape[d] > 1) inner = true;
    int L = e->lanes;
    const char *lhs[16] = {0}, *rhs[16] = {0}, *outs[16] = {0};
    int nouter = open_dims(e, &in[0], A, false);
    if (!inner && L > 1 && K % L == 0 && K >= 2 * L) {
        /* lanes: element k accumulates into lane k % L, then a tree */
        const char *lane[16];
        for (int j = 0; j < n; j++) {
            lane[j] = fresh(e, "lane");
            line(e, "%s %s[%d];", ctype(e, et[j]), lane[j], L);
        }
        line(e, "for (int l = 0; l < %d; l++) {", L);
        e->indent++;
        for (int j = 0; j < n; j++) line(e, "%s[l] = %s;", lane[j], elem_axis(e, &in[j], et[j], A, "l"));
        e->indent--;
        line(e, "}");
        line(e, "for (int64_t k = %d; k < %" PRId64 "; k += %d)", L, K, L);
        line(e, "    for (int l = 0; l < %d; l++)", L);
        e->indent += 2;
        for (int j = 0; j < n; j++) {
            lhs[j] = fmt(e, "%s[l]", lane[j]);
            rhs[j] = elem_axis(e, &in[j], et[j], A, "(k + l)");
            outs[j] = lhs[j];
        }
        emit_combine(e, body, n, lhs, rhs, outs);
        e->indent -= 2;
        fold_lanes(e, body, n, lane, L, lhs, rhs, outs, res,
                   scalar_res ? NULL : axis_index(e, &in[0], A, "0", true));
    } else {
        for (int j = 0; j < n; j++)
            outs[j] = scalar_res ? res[j] : fmt(e, "%s[%s]", res[j], axis_index(e, &in[0], A, "0", true));
        int ni = open_dims(e, &in[0], A, true);
        for (int j = 0; j < n; j++) line(e, "%s = %s;", outs[j], elem_axis(e, &in[j], et[j], A, "0"));
        close_n(e, ni);
        line(e, "for (int64_t k = 1; k < %" PRId64 "; k++) {", K);
        e->indent++;
        ni = open_dims(e, &in[0], A, true);
        for (int j = 0; j < n; j++) {
            lhs[j] = outs[j];
            rhs[j] = elem_axis(e, &in[j], et[j], A, "k");
        }
        emit_combine(e, body, n, lhs, rhs, outs);
        close_n(e, ni);
        e->indent--;
        line(e, "}");
    }
    close_n(e, nouter);
}

static void emit_scan(Emitter *e, Op *op) {
    int n = op->noperands;
    int64_t axis = 0, rev = 0;
    op_attr_int(op, "axis", &axis);
    Attr *ra = op_attr(op, "reverse");
    if (ra) rev = ra->kind == ATTR_BOOL ? ra->b : (attr_as_int(ra, &rev) ? rev : 1);
    Block *body = region_entry(&op->regions[0]);
    comment_op(e, op);
    if (n < 1 || n > 16) {
        fail(e, op, "needs 1 to 16 operands");
        return;
    }
    VInfo in[16] = {0};
    Type *et[16] = {0};
    const char *res[16] = {0}, *lhs[16] = {0}, *rhs[16] = {0}, *outs[16] = {0};
    for (int j = 0; j < n; j++) {
        in[j] = *vi(e, op_operand(op, j));
        et[j] = ty_elem(op_operand(op, j)->type);
        Value *r = op_result(op, j);
        VInfo s = decl_storage(e, r, vname(e, r));
        bind(e, r, s);
        res[j] = s.name;
    }
    int A = (int)axis;
    int64_t K = in[0].shape[A];
    int nouter = open_dims(e, &in[0], A, false);
    const char *k0 = rev ? fmt(e, "%" PRId64, K - 1) : "0";
    int ni = open_dims(e, &in[0], A, true);
    for (int j = 0; j < n; j++)
        line(e, "%s[%s] = %s;", res[j], axis_index(e, &in[0], A, k0, false), elem_axis(e, &in[j], et[j], A, k0));
    close_n(e, ni);
    line(e, "for (int64_t kk = 1; kk < %" PRId64 "; kk++) {", K);
    e->indent++;
    line(e, "int64_t k = %s, kp = %s;", rev ? fmt(e, "%" PRId64 " - kk", K - 1) : "kk", rev ? "k + 1" : "k - 1");
    ni = open_dims(e, &in[0], A, true);
    for (int j = 0; j < n; j++) {
        lhs[j] = fmt(e, "%s[%s]", res[j], axis_index(e, &in[0], A, "kp", false));
        rhs[j] = elem_axis(e, &in[j], et[j], A, "k");
        outs[j] = fmt(e, "%s[%s]", res[j], axis_index(e, &in[0], A, "k", false));
    }
    emit_combine(e, body, n, lhs, rhs, outs);
    close_n(e, ni);
    e->indent--;
    line(e, "}");
    close_n(e, nouter);
}

/* tt.dot: D = A x B + C, batched when rank 3. */
static void emit_dot(Emitter *e, Op *op) {
    comment_op(e, op);
    Value *va = op_operand(op, 0), *vb = op_operand(op, 1), *vc = op_operand(op, 2), *vd = op_result(op, 0);
    VInfo a = *vi(e, va), b = *vi(e, vb), c = *vi(e, vc);
    int r = a.rank;
    if (r != 2 && r != 3) {
        fail(e, op, "tt.dot of rank %d", r);
        return;
    }
    int64_t B = r == 3 ? a.shape[0] : 1, M = a.shape[r - 2], K = a.shape[r - 1], N = b.shape[r - 1];
    Type *ta = ty_elem(va->type), *tb = ty_elem(vb->type), *tdd = ty_elem(vd->type);
    bool isint = ta->kind == TY_INT;
    const char *acc = isint ? "int32_t" : "float";
    if (isint && int_width(tdd) == 64) acc = "int64_t";
    if (!isint && is_f64(tdd)) acc = "double";
    /* operands converted to the accumulator type, contiguous */
    const char *A_ = fresh(e, "dotA"), *B_ = fresh(e, "dotB"), *D_ = vname(e, vd);
    Type *tdacc = NULL;
    (void)tdacc;
    line(e, "%s %s[%" PRId64 "] __attribute__((aligned(64)));", acc, A_, B * M * K);
    line(e, "%s %s[%" PRId64 "] __attribute__((aligned(64)));", acc, B_, B * K * N);
    line(e, "%s %s_acc[%" PRId64 "] __attribute__((aligned(64)));", acc, D_, B * M * N);
    e->frame_bytes += (B * M * K + B * K * N + B * M * N) * 8;
    Loop L;
    VInfo *vs[1];
    vs[0] = &a;
    loop_open(e, &L, &a, vs, 1);
    line(e, "%s[%s] = (%s)%s;", A_, loop_dst(e, &L), acc, to_c(e, loop_elem(e, &L, &a, ta), ta));
    loop_close(e, &L);
    vs[0] = &b;
    loop_open(e, &L, &b, vs, 1);
    line(e, "%s[%s] = (%s)%s;", B_, loop_dst(e, &L), acc, to_c(e, loop_elem(e, &L, &b, tb), tb));
    loop_close(e, &L);
    vs[0] = &c;
    loop_open(e, &L, &c, vs, 1);
    line(e, "%s_acc[%s] = (%s)%s;", D_, loop_dst(e, &L), acc, to_c(e, loop_elem(e, &L, &c, vc->type), vc->type));
    loop_close(e, &L);
    const int64_t KB = 32;
    const char *madd;
    if (isint) madd = fmt(e, "(%s)((uint%s_t)d[n] + (uint%s_t)(av * bk[n]))", acc, acc[3] == '6' ? "64" : "32",
                          acc[3] == '6' ? "64" : "32");
    else if (!strcmp(acc, "double")) madd = "fma(av, bk[n], d[n])";
    else madd = "TC_FMAF(av, bk[n], d[n])";
    line(e, "for (int64_t b = 0; b < %" PRId64 "; b++)", B);
    line(e, "for (int64_t kb = 0; kb < %" PRId64 "; kb += %" PRId64 ")", K, KB);
    line(e, "for (int64_t m = 0; m < %" PRId64 "; m++) {", M);
    e->indent++;
    line(e, "%s *restrict d = %s_acc + (b * %" PRId64 " + m) * %" PRId64 ";", acc, D_, M, N);
    line(e, "for (int64_t k = kb; k < kb + %" PRId64 " && k < %" PRId64 "; k++) {", KB, K);
    e->indent++;
    line(e, "const %s av = %s[(b * %" PRId64 " + m) * %" PRId64 " + k];", acc, A_, M, K);
    line(e, "const %s *restrict bk = %s + (b * %" PRId64 " + k) * %" PRId64 ";", acc, B_, K, N);
    line(e, "for (int64_t n = 0; n < %" PRId64 "; n++) d[n] = %s;", N, madd);
    e->indent--;
    line(e, "}");
    e->indent--;
    line(e, "}");
    const char *accname = fmt(e, "%s_acc", D_);
    if (!strcmp(ctype(e, tdd), acc)) {
        bind(e, vd, mk_array(vd->type, accname));
        return;
    }
    decl_array(e, vd->type, D_);
    line(e, "for (int64_t i = 0; i < %" PRId64 "; i++) %s[i] = %s;", B * M * N, D_,
         isint ? fmt(e, "(%s)%s[i]", ctype(e, tdd), accname) : from_c(e, fmt(e, "%s[i]", accname), tdd));
    bind(e, vd, mk_array(vd->type, D_));
}

static const char *mem_order(Op *op) {
    int64_t sem = attr_enum(op, "sem", (const char *const[]){"relaxed", "acquire", "release", "acq_rel"}, 4,
                            TT_SEM_ACQ_REL);
    switch (sem) {
    case TT_SEM_RELAXED: return "__ATOMIC_RELAXED";
    case TT_SEM_ACQUIRE: return "__ATOMIC_ACQUIRE";
    case TT_SEM_RELEASE: return "__ATOMIC_RELEASE";
    default: return "__ATOMIC_ACQ_REL";
    }
}

static const char *atomic_expr(Emitter *e, Op *op, const char *p, const char *v, Type *t) {
    const char *mo = mem_order(op);
    int64_t rmw = attr_enum(op, "atomic_rmw_op",
                            (const char *const[]){"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin",
                                                  "exch"},
                            10, TT_RMW_ADD);
    if (t->kind == TY_FLOAT) {
        static const char *const bitwise[] = {
            [TT_RMW_AND] = "__atomic_fetch_and", [TT_RMW_OR] = "__atomic_fetch_or",
            [TT_RMW_XOR] = "__atomic_fetch_xor", [TT_RMW_XCHG] = "__atomic_exchange_n"};
        if ((rmw == TT_RMW_AND || rmw == TT_RMW_OR || rmw == TT_RMW_XOR || rmw == TT_RMW_XCHG) &&
            (t->fkind == FK_F32 || t->fkind == FK_F64)) {
            /* on the bit pattern, as PTX's atom.{and,or,xor,exch}.b32 */
            int w = t->fkind == FK_F32 ? 32 : 64;
            return fmt(e, "tc_bits_f%d(%s((uint%d_t *)%s, tc_f%d_bits(%s), %s))", w, bitwise[rmw], w, p, w, v, mo);
        }
        int fop = rmw == TT_RMW_MAX ? 1 : rmw == TT_RMW_MIN ? 2 : 0;
        if (rmw == TT_RMW_XCHG) return fmt(e, "__atomic_exchange_n(%s, %s, %s)", p, v, mo);
        if (t->fkind == FK_F32) return fmt(e, "tc_atomic_f32(%s, %s, %d, %s)", p, v, fop, mo);
        if (t->fkind == FK_F64) return fmt(e, "tc_atomic_f64(%s, %s, %d, %s)", p, v, fop, mo);
        if (t->fkind == FK_F16 || t->fkind == FK_BF16)
            return fmt(e, "tc_atomic_half(%s, %s, %d, %d, %s)", p, v, fop, t->fkind == FK_BF16, mo);
        fail(e, op, "fp8 atomics are not supported");
        return "0";
    }
    int w = int_width(t);
    switch (rmw) {
    case TT_RMW_AND: return fmt(e, "__atomic_fetch_and(%s, %s, %s)", p, v, mo);
    case TT_RMW_OR: return fmt(e, "__atomic_fetch_or(%s, %s, %s)", p, v, mo);
    case TT_RMW_XOR: return fmt(e, "__atomic_fetch_xor(%s, %s, %s)", p, v, mo);
    case TT_RMW_ADD:
    case TT_RMW_FADD:
        return fmt(e, "(%s)__atomic_fetch_add((%s *)%s, (%s)%s, %s)", ctype(e, t), utype(w), p, utype(w), v, mo);
    case TT_RMW_MAX: return fmt(e, "tc_atomic_max_s%d(%s, %s, %s)", w, p, v, mo);
    case TT_RMW_MIN: return fmt(e, "tc_atomic_min_s%d(%s, %s, %s)", w, p, v, mo);
    case TT_RMW_UMAX: return fmt(e, "(%s)tc_atomic_max_u%d((%s *)%s, (%s)%s, %s)", ctype(e, t), w, utype(w), p, utype(w), v, mo);
    case TT_RMW_UMIN: return fmt(e, "(%s)tc_atomic_min_u%d((%s *)%s, (%s)%s, %s)", ctype(e, t), w, utype(w), p, utype(w), v, mo);
    case TT_RMW_XCHG: return fmt(e, "__atomic_exchange_n(%s, %s, %s)", p, v, mo);
    }
    fail(e, op, "unknown atomic_rmw_op %" PRId64, rmw);
    return "0";
}

/* A load under a mask: through a volatile-qualified pointer, so the C
 * compiler cannot turn `m ? *p : other` into an unconditional load. GCC 12's
 * loop if-conversion did exactly that to a fused masked reduction at -O3
 * (lanes past the mask were read and summed); a masked load must never touch
 * memory outside its mask. Loads the mask does not guard (the fast paths)
 * stay plain and vectorise. */
static const char *masked_ld(Emitter *e, const char *ptr, bool is_i1) {
    const char *ld = fmt(e, "*(const volatile __typeof__(*%s) *)%s", ptr, ptr);
    return is_i1 ? fmt(e, "(uint8_t)(%s != 0)", ld) : ld;
}

/* Emits `stmt(elements)` for each element of a loop over the result shape. */
static void emit_load(Emitter *e, Op *op) {
    comment_op(e, op);
    Value *res = op_result(op, 0);
    Type *t = ty_elem(res->type);
    bool is_i1 = t->kind == TY_INT && t->width == 1;
    VInfo p = *vi(e, op_operand(op, 0));
    VInfo *m = op->noperands > 1 ? vi(e, op_operand(op, 1)) : NULL;
    VInfo *o = op->noperands > 2 ? vi(e, op_operand(op, 2)) : NULL;
    const char *zero = t->kind == TY_PTR ? "0" : fmt(e, "(%s)0", ctype(e, t));
    const char *name = vname(e, res);
    if (res->type->kind != TY_TENSOR) {
        const char *ld = is_i1 ? fmt(e, "(uint8_t)(*%s != 0)", p.name) : fmt(e, "*%s", p.name);
        if (m) line(e, "%s %s = %s ? %s : %s;", ctype(e, t), name, m->name, masked_ld(e, p.name, is_i1), o ? o->name : zero);
        else line(e, "%s %s = %s;", ctype(e, t), name, ld);
        bind(e, res, mk_scalar(name));
        return;
    }
    decl_array(e, res->type, name);
    VInfo r = mk_array(res->type, name);
    int64_t c = 0;
    bool contiguous = p.kind == VK_EXPR && flat_compatible(&p, &c) && c == 1;
    VInfo *vs[3] = {&p, m, o};
    Loop L;
#define LOAD_EXPR(ptr) (is_i1 ? fmt(e, "(uint8_t)(*%s != 0)", ptr) : fmt(e, "*%s", ptr))
    if (contiguous) {
        /* a contiguous tile: a plain copy when no lane is masked off */
        const char *all = NULL;
        if (m && is_uniform(m)) all = m->name;
        else if (m) {
            all = fresh(e, "all");
            line(e, "uint8_t %s = 1;", all);
            VInfo *mv[1] = {m};
            loop_open(e, &L, &r, mv, 1);
            line(e, "%s &= %s;", all, loop_elem(e, &L, m, op_operand(op, 1)->type));
            loop_close(e, &L);
        }
        if (all) line(e, "if (%s) {", all), e->indent++;
        line(e, "for (int64_t i = 0; i < %" PRId64 "; i++) %s[i] = %s;", numel(&r), name,
             is_i1 ? fmt(e, "(uint8_t)(%s[i] != 0)", p.name) : fmt(e, "%s[i]", p.name));
        if (all) {
            e->indent--;
            line(e, "} else {");
            e->indent++;
            loop_open(e, &L, &r, vs, 3);
            const char *pe = loop_elem(e, &L, &p, op_operand(op, 0)->type);
            line(e, "%s[%s] = %s ? %s : %s;", name, loop_dst(e, &L), loop_elem(e, &L, m, op_operand(op, 1)->type),
                 masked_ld(e, pe, is_i1), o ? loop_elem(e, &L, o, res->type) : zero);
            loop_close(e, &L);
            e->indent--;
            line(e, "}");
        }
    } else {
        loop_open(e, &L, &r, vs, 3);
        const char *pe = loop_elem(e, &L, &p, op_operand(op, 0)->type);
        if (m)
            line(e, "%s[%s] = %s ? %s : %s;", name, loop_dst(e, &L), loop_elem(e, &L, m, op_operand(op, 1)->type),
                 masked_ld(e, pe, is_i1), o ? loop_elem(e, &L, o, res->type) : zero);
        else line(e, "%s[%s] = %s;", name, loop_dst(e, &L), LOAD_EXPR(pe));
        loop_close(e, &L);
    }
#undef LOAD_EXPR
    bind(e, res, r);
}

static void emit_store(Emitter *e, Op *op) {
    comment_op(e, op);
    Value *pv = op_operand(op, 0), *vv = op_operand(op, 1);
    VInfo p = *vi(e, pv), v = *vi(e, vv);
    VInfo *m = op->noperands > 2 ? vi(e, op_operand(op, 2)) : NULL;
    if (pv->type->kind != TY_TENSOR) {
        if (m) line(e, "if (%s) *%s = %s;", m->name, p.name, v.name);
        else line(e, "*%s = %s;", p.name, v.name);
        return;
    }
    VInfo shape = mk_array(pv->type, "");
    int64_t c = 0;
    bool contiguous = p.kind == VK_EXPR && flat_compatible(&p, &c) && c == 1;
    Loop L;
    VInfo *vs[3] = {&p, &v, m};
    if (contiguous) {
        const char *all = NULL;
        if (m && is_uniform(m)) all = m->name;
        else if (m) {
            all = fresh(e, "all");
            line(e, "uint8_t %s = 1;", all);
            VInfo *mv[1] = {m};
            loop_open(e, &L, &shape, mv, 1);
            line(e, "%s &= %s;", all, loop_elem(e, &L, m, op_operand(op, 2)->type));
            loop_close(e, &L);
        }
        if (all) line(e, "if (%s) {", all), e->indent++;
        VInfo *vv2[2] = {&p, &v};
        loop_open(e, &L, &shape, vv2, 2);
        line(e, "%s[%s] = %s;", p.name, loop_dst(e, &L), loop_elem(e, &L, &v, vv->type));
        loop_close(e, &L);
        if (all && !is_uniform(m)) {
            e->indent--;
            line(e, "} else {");
            e->indent++;
            loop_open(e, &L, &shape, vs, 3);
            line(e, "if (%s) %s[%s] = %s;", loop_elem(e, &L, m, op_operand(op, 2)->type), p.name, loop_dst(e, &L),
                 loop_elem(e, &L, &v, vv->type));
            loop_close(e, &L);
        }
        if (all) e->indent--, line(e, "}");
        return;
    }
    loop_open(e, &L, &shape, vs, 3);
    const char *pe = loop_elem(e, &L, &p, pv->type);
    if (m) line(e, "if (%s) *%s = %s;", loop_elem(e, &L, m, op_operand(op, 2)->type), pe, loop_elem(e, &L, &v, vv->type));
    else line(e, "*%s = %s;", pe, loop_elem(e, &L, &v, vv->type));
    loop_close(e, &L);
}

static void emit_atomic(Emitter *e, Op *op) {
    comment_op(e, op);
    Value *res = op_result(op, 0);
    Type *t = ty_elem(res->type);
    bool cas = op->kind == TT_ATOMIC_CAS;
    VInfo p = *vi(e, op_operand(op, 0));
    VInfo v1 = *vi(e, op_operand(op, 1));
    VInfo *v2 = cas ? vi(e, op_operand(op, 2)) : NULL;
    VInfo *m = !cas && op->noperands > 2 ? vi(e, op_operand(op, 2)) : NULL;
    const char *name = vname(e, res);
    const char *mo = mem_order(op);
    bool tensor = res->type->kind == TY_TENSOR;
    Loop L;
    const char *pe, *ae, *be = NULL, *me = NULL, *dst;
    if (tensor) {
        decl_array(e, res->type, name);
        VInfo r = mk_array(res->type, name);
        VInfo *vs[4] = {&p, &v1, v2, m};
        loop_open(e, &L, &r, vs, 4);
        pe = loop_elem(e, &L, &p, op_operand(op, 0)->type);
        ae = loop_elem(e, &L, &v1, op_operand(op, 1)->type);
        if (v2) be = loop_elem(e, &L, v2, op_operand(op, 2)->type);
        if (m) me = loop_elem(e, &L, m, op_operand(op, 2)->type);
        dst = fmt(e, "%s[%s]", name, loop_dst(e, &L));
        bind(e, res, r);
    } else {
        line(e, "%s %s;", ctype(e, t), name);
        pe = p.name, ae = v1.name, be = v2 ? v2->name : NULL, me = m ? m->name : NULL;
        dst = name;
        bind(e, res, mk_scalar(name));
    }
    if (cas) {
        /* compare-and-swap on the bit pattern (floats included) */
        int w = t->kind == TY_PTR ? 64 : t->width;
        const char *u = utype(w);
        /* the operands may be expressions (a fused element-wise chain): named first, so that they have an address */
        line(e, "{ %s cmp_ = %s, val_ = %s; %s exp_ = 0, des_ = 0; memcpy(&exp_, &cmp_, %d); memcpy(&des_, &val_, %d);",
             ctype(e, t), ae, be, u, w / 8, w / 8);
        line(e, "  __atomic_compare_exchange_n((%s *)%s, &exp_, des_, 0, %s, __ATOMIC_RELAXED == %s ? __ATOMIC_RELAXED : __ATOMIC_ACQUIRE);",
             u, pe, mo, mo);
        line(e, "  memcpy(&%s, &exp_, %d); }", dst, w / 8);
    } else {
        const char *ex = atomic_expr(e, op, pe, ae, t);
        if (me) line(e, "%s = %s ? %s : 0;", dst, me, ex);
        else line(e, "%s = %s;", dst, ex);
    }
    if (tensor) loop_close(e, &L);
}

static void emit_print(Emitter *e, Op *op) {
    comment_op(e, op);
    const char *prefix = op_attr_str(op, "prefix");
    Attr *ha = op_attr(op, "hex");
    bool hex = ha && ((ha->kind == ATTR_BOOL && ha->b) || ha->kind == ATTR_UNIT);
    Attr *sa = op_attr(op, "isSigned");
    line(e, "flockfile(stderr);");
    if (!op->noperands)
        line(e, "fprintf(stderr, \"pid (%%d, %%d, %%d) %%s\\n\", P->pid[0], P->pid[1], P->pid[2], %s);",
             c_string(e, prefix ? prefix : ""));
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        VInfo vv = *vi(e, v);
        Type *t = ty_elem(v->type);
        const char *f, *x;
        const char *ev = "x_";
        int bits = t->kind == TY_FLOAT ? t->width : t->kind == TY_PTR ? 64 : int_width(t);
        /* hex=True: Triton's 0x%0<bits/4>x, a float's bit pattern (h_, copied from x_ below) */
        if (hex && t->kind != TY_PTR) f = fmt(e, "0x%%0%dllx", bits >= 4 ? bits / 4 : 1), x = "h_";
        else if (t->kind == TY_FLOAT) f = "%f", x = fmt(e, "(double)%s", to_c(e, ev, t));
        else if (t->kind == TY_PTR) f = "%p", x = fmt(e, "(void *)%s", ev);
        else if (sa && sa->kind == ATTR_DENSE_ARRAY && i < sa->dense.nvals && sa->dense.ints && !sa->dense.ints[i] &&
                 bits > 1)
            /* an unsigned integer (isSigned 0): its value, as Triton's %u */
            f = "%llu", x = fmt(e, "(unsigned long long)(%s)%s", utype(bits), ev);
        else f = "%lld", x = fmt(e, "(long long)%s", ev);
        const char *mask = bits < 64 && t->kind != TY_FLOAT ? fmt(e, " h_ &= 0x%llxull;", (1ull << bits) - 1) : "";
        const char *hcopy =
            hex && t->kind != TY_PTR ? fmt(e, " unsigned long long h_ = 0; memcpy(&h_, &x_, sizeof x_);%s", mask) : "";
        const char *pre = c_string(e, prefix ? prefix : "");
        /* Triton's format: the prefix (" x: ", normalised by the front end)
         * ends in ": " already */
        const char *opnd = op->noperands > 1 ? fmt(e, "(operand %d) ", i) : "";
        if (v->type->kind != TY_TENSOR) {
            line(e, "{ %s x_ = %s;%s fprintf(stderr, \"pid (%%d, %%d, %%d) idx ()%%s%s%s\\n\", P->pid[0], P->pid[1], P->pid[2], %s, %s); }",
                 ctype(e, t), vv.name, hcopy, opnd, f, pre, x);
            continue;
        }
        Loop L;
        VInfo shape = mk_array(v->type, "");
        loop_open(e, &L, &shape, NULL, 0);
        line(e, "%s x_ = %s;%s", ctype(e, t), loop_elem(e, &L, &vv, v->type), hcopy);
        line(e, "fprintf(stderr, \"pid (%%d, %%d, %%d) idx (%%lld)%%s%s%s\\n\", P->pid[0], P->pid[1], P->pid[2], (long long)(%s), %s, %s);",
             opnd, f, loop_dst(e, &L), pre, x);
        loop_close(e, &L);
    }
    line(e, "funlockfile(stderr);");
}

static void emit_assert(Emitter *e, Op *op) {
    comment_op(e, op);
    Value *c = op_operand(op, 0);
    VInfo cv = *vi(e, c);
    const char *msg = op_attr_str(op, "message");
    const char *m = c_string(e, msg ? msg : "assertion");
    if (c->type->kind != TY_TENSOR) {
        line(e, "if (!%s) return tc_fail(P, %s, 0);", cv.name, m);
        return;
    }
    Loop L;
    VInfo shape = mk_array(c->type, "");
    VInfo *vs[1] = {&cv};
    loop_open(e, &L, &shape, vs, 1);
    line(e, "if (!%s) return tc_fail(P, %s, (long)(%s));", loop_elem(e, &L, &cv, c->type), m, loop_dst(e, &L));
    loop_close(e, &L);
}

static void emit_call(Emitter *e, Op *op) {
    comment_op(e, op);
    Attr *ca = op_attr(op, "callee");
    const char *callee = ca && (ca->kind == ATTR_SYMREF || ca->kind == ATTR_STRING) ? ca->s : NULL;
    if (!callee) {
        fail(e, op, "call without a callee");
        return;
    }
    StrBuf sb = {0};
    sb_puts(&sb, "tc_fn_");
    sanitize(callee, &sb);
    sb_puts(&sb, "(P");
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        VInfo a = contig(e, vi(e, v), v->type);
        if (v->type->kind == TY_TENSOR)
            sb_printf(&sb, ", %s%s", a.name, a.off ? fmt(e, " + %" PRId64, a.off) : "");
        else sb_printf(&sb, ", %s", a.name);
    }
    for (int i = 0; i < op->nresults; i++) {
        Value *r = op_result(op, i);
        VInfo s = decl_storage(e, r, vname(e, r));
        bind(e, r, s);
        sb_printf(&sb, ", %s%s", r->type->kind == TY_TENSOR ? "" : "&", s.name);
    }
    sb_putc(&sb, ')');
    line(e, "if (%s) return 1;", sb_cstr(&sb));
    sb_free(&sb);
}

static void emit_return(Emitter *e, Op *op) {
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        VInfo s = *vi(e, v);
        if (v->type->kind == TY_TENSOR) {
            VInfo d = mk_array(v->type, fmt(e, "out%d", i));
            copy_into(e, &d, &s, v->type);
        } else {
            line(e, "*out%d = %s;", i, s.name);
        }
    }
    line(e, "return 0;");
}

/* Affine forms for integer/pointer tensors: addi/subi/muli/addptr over EXPRs. */
static bool try_affine(Emitter *e, Op *op) {
    Value *res = op_result(op, 0);
    if (res->type->kind != TY_TENSOR || op->noperands != 2) return false;
    VInfo *a = vi(e, op_operand(op, 0)), *b = vi(e, op_operand(op, 1));
    if (a->kind != VK_EXPR || b->kind != VK_EXPR) return false;
    if (is_uniform(a) && is_uniform(b)) return false; /* plain scalar op */
    VInfo r = {.kind = VK_EXPR};
    shape_of(res->type, &r);
    Type *t = ty_elem(res->type);
    const char *name = vname(e, res);
    switch (op->kind) {
    case ARITH_ADDI:
    case ARITH_SUBI:
        if (int_width(t) < 32) return false;
        for (int d = 0; d < r.rank; d++) r.st[d] = op->kind == ARITH_ADDI ? a->st[d] + b->st[d] : a->st[d] - b->st[d];
        line(e, "const %s %s = %s; /* %s, affine */", ctype(e, t), name,
             int_bin(e, op->kind == ARITH_ADDI ? "+" : "-", a->name, b->name, t), op_name(op));
        break;
    case ARITH_MULI: {
        VInfo *u = is_uniform(a) ? a : is_uniform(b) ? b : NULL;
        VInfo *x = u == a ? b : a;
        if (!u || !u->isconst || int_width(t) < 32 || u->cval > (1 << 20) || u->cval < -(1 << 20)) return false;
        for (int d = 0; d < r.rank; d++) r.st[d] = x->st[d] * u->cval;
        line(e, "const %s %s = %s; /* %s, affine */", ctype(e, t), name, int_bin(e, "*", a->name, b->name, t),
             op_name(op));
        break;
    }
    case TT_ADDPTR:
        /* the pointer may vary too (an addptr of an addptr): strides add up */
        for (int d = 0; d < r.rank; d++) r.st[d] = a->st[d] + b->st[d];
        line(e, "%s const %s = %s + (int64_t)%s; /* tt.addptr, affine */", ctype(e, t), name, a->name, b->name);
        break;
    default: return false;
    }
    r.name = name;
    bind(e, res, r);
    return true;
}

static void emit_constant(Emitter *e, Op *op) {
    Value *res = op_result(op, 0);
    Attr *a = op_attr(op, "value");
    Type *t = ty_elem(res->type);
    const char *name = vname(e, res);
    if (!a) {
        fail(e, op, "constant without a value");
        return;
    }
    int64_t iv = 0;
    double fv = 0;
    bool isf = t->kind == TY_FLOAT;
    if (a->kind == ATTR_DENSE && a->dense.nvals > 1) {
        /* a non-splat dense tensor: a static table */
        int64_t n = a->dense.nvals;
        StrBuf sb = {0};
        for (int64_t i = 0; i < n; i++) {
            const char *lit = isf ? float_literal(e, a->dense.floats[i], t) : int_literal(e, a->dense.ints[i], t);
            sb_printf(&sb, "%s%s", i ? ", " : "", lit);
        }
        line(e, "static const %s %s[%" PRId64 "] = {%s};", ctype(e, t), name, n, sb_cstr(&sb));
        sb_free(&sb);
        bind(e, res, mk_array(res->type, name));
        return;
    }
    const char *lit;
    bool isconst = false;
    if (isf) {
        if (!attr_as_float(a, &fv)) fail(e, op, "bad float constant");
        lit = float_literal(e, fv, t);
    } else {
        if (!attr_as_int(a, &iv)) {
            if (a->kind == ATTR_BOOL) iv = a->b;
            else if (a->kind == ATTR_DENSE && a->dense.nvals == 1 && a->dense.ints) iv = a->dense.ints[0];
            else fail(e, op, "bad integer constant");
        }
        lit = int_literal(e, iv, t);
        isconst = true;
    }
    line(e, "%s %s = %s;", cdecl_const(e, t), name, lit);
    VInfo v = res->type->kind == TY_TENSOR ? mk_uniform(res->type, name) : mk_scalar(name);
    v.isconst = isconst;
    v.cval = int_wrap(iv, int_width(t) > 1 ? int_width(t) : 64);
    bind(e, res, v);
}

/* View ops: new strides over the same storage (EXPR or VIEW). */
static bool emit_view_op(Emitter *e, Op *op) {
    Value *src = op_operand(op, 0), *res = op_result(op, 0);
    VInfo s = *vi(e, src);
    VInfo r = s;
    Type *rt = res->type;
    switch (op->kind) {
    case TT_EXPAND_DIMS: {
        int64_t axis = 0;
        op_attr_int(op, "axis", &axis);
        if (s.kind == VK_SCALAR) return false;
        r.rank = s.rank + 1;
        for (int d = 0, k = 0; d < r.rank; d++) {
            if (d == axis) {
                r.shape[d] = 1;
                r.st[d] = 0;
            } else {
                r.shape[d] = s.shape[k];
                r.st[d] = s.st[k++];
            }
        }
        break;
    }
    case TT_BROADCAST:
        if (s.kind == VK_SCALAR) {
            r = mk_uniform(rt, s.name);
            r.isconst = s.isconst, r.cval = s.cval;
            break;
        }
        for (int d = 0; d < rt->rank; d++) {
            if (s.shape[d] == 1 && rt->shape[d] != 1) r.st[d] = 0;
            r.shape[d] = rt->shape[d];
        }
        break;
    case TT_TRANS: {
        Attr *o = op_attr(op, "order");
        if (!o || o->kind != ATTR_DENSE_ARRAY || o->dense.nvals != s.rank) return false;
        for (int d = 0; d < s.rank; d++) {
            r.shape[d] = s.shape[o->dense.ints[d]];
            r.st[d] = s.st[o->dense.ints[d]];
        }
        break;
    }
    case TT_RESHAPE: {
        int64_t c = 0;
        if (s.kind == VK_SCALAR || !flat_compatible(&s, &c)) {
            s = contig(e, &s, src->type);
            c = 1;
        }
        r = s;
        shape_of(rt, &r);
        rowmajor(r.shape, r.rank, r.st);
        for (int d = 0; d < r.rank; d++) r.st[d] *= c;
        break;
    }
    case TT_SPLIT: {
        if (s.kind != VK_VIEW) s = contig(e, &s, src->type);
        VInfo lo = s;
        lo.rank = s.rank - 1;
        VInfo hi = lo;
        hi.off += s.st[s.rank - 1];
        comment_op(e, op);
        bind(e, op_result(op, 0), lo);
        bind(e, op_result(op, 1), hi);
        return true;
    }
    default: return false;
    }
    if (e->comments) line(e, "/* %s: %s is a view */", op_name(op), vname(e, res));
    bind(e, res, r);
    return true;
}

/* tt.gather: out[c] = src[c with its axis coordinate replaced by idx[c]],
 * a loop nest over the result; src read as an array (an expression tile is
 * copied to one first). */
/* tt.map_elementwise: one loop over the elements; in its body the region's
 * block arguments are the operands' elements, its ops are emitted on those
 * scalars (control flow included), and the terminator's operands are
 * stored to the results. */
static void emit_map_elementwise(Emitter *e, Op *op) {
    comment_op(e, op);
    Block *body = region_entry(&op->regions[0]);
    Op *term = body ? block_terminator(body) : NULL;
    int n = op->noperands, nres = op->nresults;
    if (!term || term->noperands != nres || body->nargs != n || n < 1 || n > 8 || nres < 1 || nres > 8) {
        fail(e, op, "malformed tt.map_elementwise");
        return;
    }
    VInfo ins[8] = {0}, res[8] = {0};
    VInfo *vs[8] = {0};
    for (int i = 0; i < n; i++) {
        ins[i] = *vi(e, op_operand(op, i));
        vs[i] = &ins[i];
    }
    for (int r = 0; r < nres; r++) {
        Value *v = op_result(op, r);
        res[r] = mk_array(v->type, decl_array(e, v->type, vname(e, v)));
    }
    Loop L;
    loop_open(e, &L, &res[0], vs, n);
    for (int i = 0; i < n; i++) bind(e, body->args[i], mk_scalar(loop_elem(e, &L, &ins[i], op_operand(op, i)->type)));
    for (Op *o = body->first; o && !e->failed; o = o->next)
        if (o != term) emit_op(e, o);
    const char *at = loop_dst(e, &L);
    for (int r = 0; r < nres; r++) line(e, "%s[%s] = %s;", res[r].name, at, vi(e, op_operand(term, r))->name);
    loop_close(e, &L);
    for (int r = 0; r < nres; r++) bind(e, op_result(op, r), res[r]);
}

static void emit_gather(Emitter *e, Op *op) {
    Value *src = op_operand(op, 0), *idx = op_operand(op, 1), *res = op_result(op, 0);
    int64_t axis = 0;
    op_attr_int(op, "axis", &axis);
    VInfo s = *vi(e, src);
    if (s.kind != VK_VIEW) s = contig(e, &s, src->type);
    VInfo ix = *vi(e, idx);
    const char *name = vname(e, res);
    comment_op(e, op);
    decl_array(e, res->type, name);
    VInfo r = mk_array(res->type, name);
    if (r.rank > MAXR || axis < 0 || axis >= r.rank) {
        fail(e, op, "cannot lower this gather");
        return;
    }
    for (int d = 0; d < r.rank; d++) {
        line(e, "for (int64_t %s = 0; %s < %" PRId64 "; %s++)%s", loop_vars[d], loop_vars[d], r.shape[d],
             loop_vars[d], d == r.rank - 1 ? " {" : "");
        e->indent++;
    }
    const char *at[MAXR];
    memcpy(at, loop_vars, sizeof at);
    at[axis] = fmt(e, "(int64_t)%s", elem_at(e, &ix, idx->type, loop_vars));
    const char *dst = index_sum(e, &r, loop_vars);
    line(e, "%s[%s] = %s;", name, *dst ? dst : "0", elem_at(e, &s, src->type, at));
    e->indent -= r.rank;
    line(e, "}");
    bind(e, res, r);
}

/* tt.histogram: a count per bin, zeroed, then one pass over the source,
 * counting the values in 0..bins-1 (as signed integers) where the mask holds. */
static void emit_histogram(Emitter *e, Op *op) {
    Value *src = op_operand(op, 0), *mask = op->noperands > 1 ? op_operand(op, 1) : NULL, *res = op_result(op, 0);
    VInfo s = *vi(e, src);
    VInfo m = mask ? *vi(e, mask) : (VInfo){0};
    const char *name = vname(e, res);
    comment_op(e, op);
    decl_array(e, res->type, name);
    VInfo r = mk_array(res->type, name);
    int64_t bins = res->type->shape[0];
    line(e, "for (int64_t i0 = 0; i0 < %" PRId64 "; i0++) %s[i0] = 0;", bins, name);
    line(e, "for (int64_t i0 = 0; i0 < %" PRId64 "; i0++) {", src->type->shape[0]);
    e->indent++;
    if (mask) line(e, "if (!%s) continue;", elem_at(e, &m, mask->type, loop_vars));
    const char *v = fresh(e, "hv");
    line(e, "int64_t %s = (int64_t)%s;", v, elem_at(e, &s, src->type, loop_vars));
    line(e, "if (%s >= 0 && %s < %" PRId64 ") %s[%s]++;", v, v, bins, name, v);
    e->indent--;
    line(e, "}");
    bind(e, res, r);
}

/* An arith.select reads both of its value operands, as Triton's does. Its
 * C `c ? x[..] : y[..]` would read one array element conditionally, and
 * GCC 12's outer-loop vectoriser (-O3 -mavx2) turns such a read inside a
 * deep loop nest over a broadcast condition into masked loads it gets
 * wrong (a [2]*7 hypercube compare-and-swap as Triton's bitonic sort
 * writes it returned stale elements). Element reads of views and arrays
 * are always in bounds, so they are taken into temporaries first. */
static void select_operands_unconditional(Emitter *e, Op *op, const char **a) {
    if (op->kind != ARITH_SELECT) return;
    for (int i = 1; i < 3; i++) {
        if (!strchr(a[i], '[')) continue;
        const char *t = fresh(e, "sel");
        line(e, "%s %s = %s;", cdecl_const(e, ty_elem(op_operand(op, i)->type)), t, a[i]);
        a[i] = t;
    }
}

static void emit_elementwise(Emitter *e, Op *op) {
    Value *res = op_result(op, 0);
    VInfo *ops[8];
    const char *a[8] = {0};
    int n = op->noperands;
    if (n > 8) {
        fail(e, op, "too many operands");
        return;
    }
    bool uniform = true;
    for (int i = 0; i < n; i++) {
        ops[i] = vi(e, op_operand(op, i));
        if (!is_uniform(ops[i])) uniform = false;
    }
    const char *name = vname(e, res);
    Type *rt = ty_elem(res->type);
    if (res->type->kind != TY_TENSOR || uniform) {
        for (int i = 0; i < n; i++) a[i] = ops[i]->name;
        const char *x = ew_expr(e, op, a);
        if (!x) {
            fail(e, op, "op is not supported");
            return;
        }
        if (e->comments && res->type->kind == TY_TENSOR) line(e, "/* %s (uniform) */", op_name(op));
        line(e, "%s %s = %s;", cdecl_const(e, rt), name, x);
        bind(e, res, res->type->kind == TY_TENSOR ? mk_uniform(res->type, name) : mk_scalar(name));
        return;
    }
    comment_op(e, op);
    decl_array(e, res->type, name);
    VInfo r = mk_array(res->type, name);
    Loop L;
    loop_open(e, &L, &r, ops, n);
    for (int i = 0; i < n; i++) a[i] = loop_elem(e, &L, ops[i], op_operand(op, i)->type);
    select_operands_unconditional(e, op, a);
    const char *x = ew_expr(e, op, a);
    if (!x) {
        fail(e, op, "op is not supported");
        return;
    }
    line(e, "%s[%s] = %s;", name, loop_dst(e, &L), x);
    loop_close(e, &L);
    bind(e, res, r);
}

/* ---- element-wise fusion -----------------------------------------------------------
 *
 * Emitting every tensor op as its own loop over its own array streams a
 * chain like `(x - mean) * rstd * w + b` through memory once per op. Instead
 * the ops of a block are walked in order (fuse_op) and collected into an
 * open *group*: tensor loads and element-wise ops over one shape, ended by
 * at most one sink (a tensor store or a reduction over that shape). When the
 * group closes (fuse_flush) it becomes ONE loop whose body computes each
 * element in scalar C temporaries, in program order; a value goes to an
 * array only when something outside the group uses it (another shape, a
 * view op, a tt.dot, a yield, a second group). A reduction over the chain
 * runs its lane loops with the chain inlined in the body.
 *
 * What closes the group, so that memory effects keep their order: a sink;
 * an op of another shape; any op that is not pure (a store or atomic of its
 * own, a call, control flow, a print) or that uses a group value without
 * joining. Pure scalar ops (the offsets and splats of the next tile) are
 * emitted on the spot: they only declare C constants from values that exist
 * already. Loads in the group all run before the group's store in program
 * order; fused, a load of element i+1 runs after the store of element i, so
 * the store joins the loop only when its addresses provably miss every load
 * of the group (the same address per element, or disjoint address ranges,
 * checked at run time in O(1)); otherwise the values are kept in an array
 * and stored by a second loop.
 *
 * Masks: a mask that is an i32 affine offset compared with a uniform bound
 * (`pid*B + arange(0, B) < n`), an `and` of such, or a uniform i1 is
 * all-true for the whole tile when one O(1) inequality on the tile's first
 * and last offsets holds (with no i32 wrap-around). Such a group is emitted
 * twice: a fast path where those masks are the constant 1 (plain loads and
 * stores the C compiler vectorises) taken when the inequalities hold, and
 * the exact masked loop otherwise (masked-off lanes read `other` and touch
 * no memory).
 */

static bool same_shape(Type *a, Type *b) {
    if (a->kind != TY_TENSOR || b->kind != TY_TENSOR || a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d]) return false;
    return true;
}

static bool in_group(Emitter *e, Op *op) { return op && map_has(&e->gmember, MAP_KEY(op)); }
static bool is_gval(Emitter *e, Value *v) { return v->def && in_group(e, v->def); }

/* Does op, or an op nested in its regions, use a value of the open group? */
static bool uses_group(Emitter *e, Op *op) {
    for (int i = 0; i < op->noperands; i++)
        if (is_gval(e, op_operand(op, i))) return true;
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next)
                if (uses_group(e, o)) return true;
    return false;
}

/* An op that may be emitted while a group is open: no memory writes, no
 * control flow. (A scalar load only reads, like the group's loads.) */
static bool fuse_harmless(Op *op) {
    if (op->nregions || op_has_flag(op, OPF_TERMINATOR)) return false;
    if (op->kind == TT_LOAD) return op_result(op, 0)->type->kind != TY_TENSOR;
    return op_has_flag(op, OPF_PURE);
}

typedef enum FuseRole { FR_NONE, FR_EW, FR_LOAD, FR_SINK } FuseRole;

static bool reduce_fusible(Emitter *e, Op *op) {
    int n = op->noperands;
    if (n < 1 || n > 16 || op->nresults != n) return false;
    Type *t = op_operand(op, 0)->type;
    if (t->kind != TY_TENSOR || t->rank > MAXR) return false;
    int64_t axis = 0;
    op_attr_int(op, "axis", &axis);
    if (axis < 0 || axis >= t->rank) return false;
    for (int d = (int)axis + 1; d < t->rank; d++)
        if (t->shape[d] > 1) return false; /* inner dims: emit_reduce's loop order */
    Block *body = region_entry(&op->regions[0]);
    if (!body || body->nargs != 2 * n) return false;
    for (Op *o = body->first; o; o = o->next)
        if (uses_group(e, o)) return false;
    return true;
}

static FuseRole fuse_role(Emitter *e, Op *op) {
    switch (op->kind) {
    case TT_LOAD: return op_result(op, 0)->type->kind == TY_TENSOR ? FR_LOAD : FR_NONE;
    case TT_STORE: return op_operand(op, 0)->type->kind == TY_TENSOR ? FR_SINK : FR_NONE;
    case TT_REDUCE: return reduce_fusible(e, op) ? FR_SINK : FR_NONE;
    case ARITH_CONSTANT:
    case UB_POISON:
    case TT_SPLAT:
    case TT_MAKE_RANGE:
    case TT_EXPAND_DIMS:
    case TT_BROADCAST:
    case TT_TRANS:
    case TT_RESHAPE:
    case TT_SPLIT:
    case TT_JOIN:
    case TT_CAT:
    case TT_GATHER:
    case TT_HISTOGRAM:
    case TT_ATOMIC_RMW:
    case TT_ATOMIC_CAS:
    case TT_SCAN:
    case TT_MAP_ELEMENTWISE:
    case TT_DOT:
    case TT_CALL: return FR_NONE;
    default: break;
    }
    if (op->nresults != 1 || op->nregions || op->noperands > 8 ||
        !(op_has_flag(op, OPF_ELEMENTWISE) || op->kind == ARITH_SELECT))
        return FR_NONE;
    Type *rt = op_result(op, 0)->type;
    if (rt->kind != TY_TENSOR || rt->rank > MAXR) return FR_NONE;
    /* all operands uniform: emit_elementwise's one scalar statement */
    bool varies = false;
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        if (is_gval(e, v)) {
            varies = true;
            continue;
        }
        VInfo *info = map_get(&e->vals, MAP_KEY(v));
        if (!info) return FR_NONE;
        if (!is_uniform(info)) varies = true;
    }
    if (!varies) return FR_NONE;
    const char *probe[8] = {"a", "a", "a", "a", "a", "a", "a", "a"};
    return ew_expr(e, op, probe) ? FR_EW : FR_NONE;
}

static int64_t elem_bytes(Type *t) { return t->kind == TY_PTR ? 8 : (t->width + 7) / 8; }

/* A bitcast between pointer tiles whose pointees have one size keeps an
 * affine tile affine (the same strides over the cast base). */
static bool try_affine_ptr_cast(Emitter *e, Op *op) {
    Value *src = op_operand(op, 0), *res = op_result(op, 0);
    if (src->type->kind != TY_TENSOR || res->type->kind != TY_TENSOR) return false;
    Type *st = ty_elem(src->type), *rt = ty_elem(res->type);
    if (st->kind != TY_PTR || rt->kind != TY_PTR || elem_bytes(st->elem) != elem_bytes(rt->elem)) return false;
    VInfo *s = map_get(&e->vals, MAP_KEY(src));
    if (!s || s->kind != VK_EXPR) return false;
    const char *name = vname(e, res);
    line(e, "%s const %s = (%s)%s; /* %s, affine */", ctype(e, rt), name, ctype(e, rt), s->name, op_name(op));
    VInfo r = *s;
    r.name = name;
    bind(e, res, r);
    return true;
}

/* The walker: each op of a block joins the open group, closes it, or is
 * emitted on its own. */
static void fuse_op(Emitter *e, Op *op) {
    if ((op->kind == ARITH_ADDI || op->kind == ARITH_SUBI || op->kind == ARITH_MULI || op->kind == TT_ADDPTR) &&
        !uses_group(e, op) && try_affine(e, op))
        return;
    if (op->kind == TT_BITCAST && try_affine_ptr_cast(e, op)) return;
    FuseRole role = fuse_role(e, op);
    if (role == FR_NONE) {
        if (e->ngops && (uses_group(e, op) || !fuse_harmless(op))) fuse_flush(e);
        emit_op(e, op);
        return;
    }
    Type *shape = role == FR_SINK ? op_operand(op, 0)->type : op_result(op, 0)->type;
    if (e->ngops && (!same_shape(shape, e->gshape) || e->ngops == FUSE_MAX)) fuse_flush(e);
    e->gops[e->ngops++] = op;
    map_put(&e->gmember, MAP_KEY(op), op);
    e->gshape = shape;
    if (role == FR_SINK) fuse_flush(e);
}

/* ---- the fast path's O(1) conditions ---- */

static bool is_proven(Emitter *e, Value *v) {
    for (int i = 0; i < e->nproven; i++)
        if (e->proven[i] == v) return true;
    return false;
}

static void affine_span(const VInfo *v, int64_t *neg, int64_t *pos) {
    *neg = *pos = 0;
    for (int d = 0; d < v->rank; d++) {
        int64_t s = v->st[d] * (v->shape[d] - 1);
        if (s < 0) *neg += s;
        else *pos += s;
    }
}

/* `x cmp u` with x an i32 affine tile and u uniform: all-true iff the
 * extreme offset satisfies it, given no offset wraps around. */
static const char *cmp_all_true(Emitter *e, Op *d) {
    int64_t p = 0;
    op_attr_int(d, "predicate", &p);
    VInfo *a = map_get(&e->vals, MAP_KEY(op_operand(d, 0))), *b = map_get(&e->vals, MAP_KEY(op_operand(d, 1)));
    Type *t = ty_elem(op_operand(d, 0)->type);
    if (!a || !b || t->kind != TY_INT || t->width != 32) return NULL;
    if (is_uniform(a) && b->kind == VK_EXPR && !is_uniform(b)) {
        VInfo *x = a;
        a = b, b = x;
        p = p == CMPI_SLT ? CMPI_SGT : p == CMPI_SLE ? CMPI_SGE : p == CMPI_SGT ? CMPI_SLT
          : p == CMPI_SGE ? CMPI_SLE : -1;
    }
    if (a->kind != VK_EXPR || is_uniform(a) || !is_uniform(b)) return NULL;
    int64_t neg, pos;
    affine_span(a, &neg, &pos);
    const char *lo = fmt(e, "((int64_t)%s + %" PRId64 ")", a->name, neg);
    const char *hi = fmt(e, "((int64_t)%s + %" PRId64 ")", a->name, pos);
    const char *u = fmt(e, "(int64_t)%s", b->name);
    const char *nowrap = fmt(e, "%s >= INT32_MIN && %s <= INT32_MAX", lo, hi);
    switch (p) {
    case CMPI_SLT: return fmt(e, "(%s && %s < %s)", nowrap, hi, u);
    case CMPI_SLE: return fmt(e, "(%s && %s <= %s)", nowrap, hi, u);
    case CMPI_SGT: return fmt(e, "(%s && %s > %s)", nowrap, lo, u);
    case CMPI_SGE: return fmt(e, "(%s && %s >= %s)", nowrap, lo, u);
    default: return NULL;
    }
}

/* A C condition, O(1), under which mask m is all-true; NULL when none is
 * known. Records m (and the masks it is made of) as proven. */
static const char *mask_all_true(Emitter *e, Value *m, int depth) {
    if (depth > 8 || e->nproven >= 64) return NULL;
    VInfo *b = map_get(&e->vals, MAP_KEY(m));
    const char *c = NULL;
    if (b && is_uniform(b)) c = fmt(e, "%s", b->name);
    else if (m->def) {
        Op *d = m->def;
        switch (d->kind) {
        case ARITH_ANDI: {
            const char *x = mask_all_true(e, op_operand(d, 0), depth + 1);
            const char *y = x ? mask_all_true(e, op_operand(d, 1), depth + 1) : NULL;
            if (x && y) c = fmt(e, "(%s && %s)", x, y);
            break;
        }
        case TT_BROADCAST:
        case TT_EXPAND_DIMS: c = mask_all_true(e, op_operand(d, 0), depth + 1); break;
        case ARITH_CMPI: c = cmp_all_true(e, d); break;
        default: break;
        }
    }
    if (c && e->nproven < 64) e->proven[e->nproven++] = m;
    return c;
}

/* Byte address of element offset k of an affine pointer tile, as an integer. */
static const char *ptr_at(Emitter *e, const VInfo *p, int64_t k) {
    if (!k) return fmt(e, "(uintptr_t)%s", p->name);
    return fmt(e, "((uintptr_t)%s + (uintptr_t)((int64_t)%" PRId64 " * (int64_t)sizeof(*%s)))", p->name, k, p->name);
}

/* The store through s and the load through l never touch the same byte. */
static const char *disjoint(Emitter *e, const VInfo *s, const VInfo *l) {
    int64_t sn, sp, ln, lp;
    affine_span(s, &sn, &sp);
    affine_span(l, &ln, &lp);
    return fmt(e, "(%s <= %s || %s <= %s)", ptr_at(e, s, sp + 1), ptr_at(e, l, ln), ptr_at(e, l, lp + 1),
               ptr_at(e, s, sn));
}

static bool same_address(const VInfo *a, const VInfo *b) {
    if (strcmp(a->name, b->name) || a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->st[d] != b->st[d] && a->shape[d] > 1) return false;
    return true;
}

/* ---- emission ---- */

typedef struct FuseCtx {
    Op *store, *red;
    bool split;           /* this path stores through a second loop */
    bool fast;            /* this path takes proven masks as all-true */
    Value *sv[3];         /* the split store's pointer, value and mask (group values) */
    const char *sva[3];   /* ... and their arrays */
    const char *res[16];  /* the reduction's result storage */
} FuseCtx;

/* The element of v at the loop's current index inside the body. */
static const char *gelem(Emitter *e, Loop *L, Value *v, bool fast) {
    if (fast && is_proven(e, v)) return "(uint8_t)1";
    if (is_gval(e, v)) {
        const char *t = map_get(&e->gtemp, MAP_KEY(v));
        if (t) return t;
    }
    return loop_elem(e, L, vi(e, v), v->type);
}

/* When v's only use is the yield of the scf.for around it and the carried
 * value it replaces is read by this group alone, v can be written straight
 * into the loop-carried array (the yield's copy then vanishes). Each body
 * reads element i of it before writing element i. */
static const char *inplace_target(Emitter *e, Value *v) {
    Use *u = v->uses;
    if (!u || u->next) return NULL;
    Op *y = u->owner;
    if (y->kind != SCF_YIELD || y->parent != v->def->parent || !y->parent->parent) return NULL;
    Op *f = y->parent->parent->parent;
    if (!f || f->kind != SCF_FOR) return NULL;
    int j = (int)(u - y->operands);
    Block *body = y->parent;
    if (j < 0 || 1 + j >= body->nargs) return NULL;
    Value *arg = body->args[1 + j];
    if (arg->type != v->type) return NULL;
    for (Use *w = arg->uses; w; w = w->next)
        if (!in_group(e, w->owner)) return NULL;
    VInfo *s = map_get(&e->vals, MAP_KEY(arg));
    if (!s || s->kind != VK_VIEW || s->off || !is_contig(s)) return NULL;
    return s->name;
}

static void fuse_body(Emitter *e, Loop *L, FuseCtx *c) {
    for (int k = 0; k < e->ngops && !e->failed; k++) {
        Op *op = e->gops[k];
        if (op == c->red) continue;
        if (op == c->store) {
            if (c->split) continue;
            Value *m = op->noperands > 2 ? op_operand(op, 2) : NULL;
            const char *p = gelem(e, L, op_operand(op, 0), false);
            const char *v = gelem(e, L, op_operand(op, 1), c->fast);
            if (m && !(c->fast && is_proven(e, m))) line(e, "if (%s) *%s = %s;", gelem(e, L, m, c->fast), p, v);
            else line(e, "*%s = %s;", p, v);
            continue;
        }
        Value *r = op_result(op, 0);
        Type *rt = ty_elem(r->type);
        const char *x;
        if (op->kind == TT_LOAD) {
            bool is_i1 = rt->kind == TY_INT && rt->width == 1;
            const char *p = gelem(e, L, op_operand(op, 0), false);
            const char *ld = is_i1 ? fmt(e, "(uint8_t)(*%s != 0)", p) : fmt(e, "*%s", p);
            Value *m = op->noperands > 1 ? op_operand(op, 1) : NULL;
            if (m && !(c->fast && is_proven(e, m))) {
                const char *o = op->noperands > 2 ? gelem(e, L, op_operand(op, 2), c->fast)
                              : rt->kind == TY_PTR ? "0" : fmt(e, "(%s)0", ctype(e, rt));
                x = fmt(e, "%s ? %s : %s", gelem(e, L, m, c->fast), masked_ld(e, p, is_i1), o);
            } else {
                x = ld;
            }
        } else {
            const char *a[8];
            for (int i = 0; i < op->noperands; i++) a[i] = gelem(e, L, op_operand(op, i), c->fast);
            select_operands_unconditional(e, op, a);
            x = ew_expr(e, op, a);
            if (!x) {
                fail(e, op, "op is not supported");
                return;
            }
        }
        const char *t = fmt(e, "e%s", vname(e, r));
        line(e, "%s %s = %s;", cdecl_const(e, rt), t, x);
        map_put(&e->gtemp, MAP_KEY(r), (void *)t);
    }
    /* values used outside the group, after the whole body has read its inputs */
    for (int k = 0; k < e->ngops; k++) {
        Op *op = e->gops[k];
        if (op == c->red || op == c->store) continue;
        Value *r = op_result(op, 0);
        const char *arr = map_get(&e->gmat, MAP_KEY(r));
        if (arr) line(e, "%s[%s] = %s;", arr, loop_dst(e, L), gelem(e, L, r, false));
    }
    if (c->split)
        for (int i = 0; i < 3; i++)
            if (c->sv[i] && !map_get(&e->gmat, MAP_KEY(c->sv[i])))
                line(e, "%s[%s] = %s;", c->sva[i], loop_dst(e, L), gelem(e, L, c->sv[i], false));
}

/* The reduction's loops with the group's body inlined: the same lanes and
 * tree as emit_reduce, element k of the axis computed where it is read. */
static void fuse_reduce_loops(Emitter *e, FuseCtx *c) {
    Op *op = c->red;
    int n = op->noperands;
    int64_t axis = 0;
    op_attr_int(op, "axis", &axis);
    int A = (int)axis;
    VInfo shp = mk_array(e->gshape, "");
    int64_t K = shp.shape[A];
    Block *body = region_entry(&op->regions[0]);
    bool scalar_res = op_result(op, 0)->type->kind != TY_TENSOR;
    const char *lhs[16] = {0}, *rhs[16] = {0}, *outs[16] = {0};
    int nouter = open_dims(e, &shp, A, false);
    Loop L = {.flat = false, .rank = shp.rank, .n = numel(&shp)};
    for (int d = 0; d < shp.rank; d++) {
        L.shape[d] = shp.shape[d];
        L.idx[d] = d < A ? loop_vars[d] : "0";
    }
    int NL = e->lanes;
    if (NL > 1 && K % NL == 0 && K >= 2 * NL) {
        const char *lane[16];
        for (int j = 0; j < n; j++) {
            lane[j] = fresh(e, "lane");
            line(e, "%s %s[%d];", ctype(e, op_operand(op, j)->type), lane[j], NL);
        }
        line(e, "for (int l = 0; l < %d; l++) {", NL);
        e->indent++;
        L.idx[A] = "l";
        fuse_body(e, &L, c);
        for (int j = 0; j < n; j++) line(e, "%s[l] = %s;", lane[j], gelem(e, &L, op_operand(op, j), c->fast));
        e->indent--;
        line(e, "}");
        line(e, "for (int64_t k = %d; k < %" PRId64 "; k += %d)", NL, K, NL);
        line(e, "    for (int l = 0; l < %d; l++) {", NL);
        e->indent += 2;
        L.idx[A] = "(k + l)";
        fuse_body(e, &L, c);
        for (int j = 0; j < n; j++) {
            lhs[j] = outs[j] = fmt(e, "%s[l]", lane[j]);
            rhs[j] = gelem(e, &L, op_operand(op, j), c->fast);
        }
        emit_combine(e, body, n, lhs, rhs, outs);
        e->indent -= 2;
        line(e, "    }");
        fold_lanes(e, body, n, lane, NL, lhs, rhs, outs, c->res,
                   scalar_res ? NULL : axis_index(e, &shp, A, "0", true));
    } else {
        for (int j = 0; j < n; j++)
            outs[j] = scalar_res ? c->res[j] : fmt(e, "%s[%s]", c->res[j], axis_index(e, &shp, A, "0", true));
        line(e, "{");
        e->indent++;
        L.idx[A] = "0";
        fuse_body(e, &L, c);
        for (int j = 0; j < n; j++) line(e, "%s = %s;", outs[j], gelem(e, &L, op_operand(op, j), c->fast));
        e->indent--;
        line(e, "}");
        line(e, "for (int64_t k = 1; k < %" PRId64 "; k++) {", K);
        e->indent++;
        L.idx[A] = "k";
        fuse_body(e, &L, c);
        for (int j = 0; j < n; j++) {
            lhs[j] = outs[j];
            rhs[j] = gelem(e, &L, op_operand(op, j), c->fast);
        }
        emit_combine(e, body, n, lhs, rhs, outs);
        e->indent--;
        line(e, "}");
    }
    close_n(e, nouter);
}

static void fuse_path(Emitter *e, FuseCtx *c) {
    /* a split store's operands, in arrays local to this path */
    for (int i = 0; c->split && i < 3; i++) {
        if (!c->sv[i]) continue;
        c->sva[i] = map_get(&e->gmat, MAP_KEY(c->sv[i]));
        if (!c->sva[i]) c->sva[i] = decl_array(e, c->sv[i]->type, fresh(e, "st"));
    }
    if (c->red) {
        fuse_reduce_loops(e, c);
    } else {
        /* the loop is flat when every tile read or written allows it */
        VInfo *vs[FUSE_MAX * 8]; /* a group op has at most 8 operands */
        int nv = 0;
        for (int k = 0; k < e->ngops; k++)
            for (int i = 0; i < e->gops[k]->noperands && nv < FUSE_MAX * 8; i++) {
                Value *v = op_operand(e->gops[k], i);
                if (!is_gval(e, v) && v->type->kind == TY_TENSOR) vs[nv++] = vi(e, v);
            }
        VInfo shp = mk_array(e->gshape, "");
        Loop L;
        loop_open(e, &L, &shp, vs, nv);
        fuse_body(e, &L, c);
        loop_close(e, &L);
    }
    if (c->split) {
        for (int i = 0; i < 3; i++)
            if (c->sv[i]) bind(e, c->sv[i], mk_array(c->sv[i]->type, c->sva[i]));
        emit_store(e, c->store);
    }
}

static void fuse_reset(Emitter *e) {
    e->ngops = 0;
    e->nproven = 0;
    map_free(&e->gmember);
    map_free(&e->gtemp);
    map_free(&e->gmat);
}

/* Closes the open group: decides what is materialised, the fast path's
 * condition and whether the store needs its own loop, then emits. */
static void fuse_flush(Emitter *e) {
    if (!e->ngops || e->failed) {
        fuse_reset(e);
        return;
    }
    FuseCtx c = {0};
    Op *sink = e->gops[e->ngops - 1];
    if (sink->kind == TT_STORE) c.store = sink;
    if (sink->kind == TT_REDUCE) c.red = sink;
    if (e->comments) {
        StrBuf sb = {0};
        for (int k = 0; k < e->ngops; k++) sb_printf(&sb, "%s%s", k ? ", " : "", op_name(e->gops[k]));
        line(e, "/* fused: %s */", sb_cstr(&sb));
        sb_free(&sb);
    }
    /* arrays for values used outside the group */
    for (int k = 0; k < e->ngops; k++) {
        Op *op = e->gops[k];
        if (op == c.red || op == c.store) continue;
        Value *r = op_result(op, 0);
        bool outside = false;
        for (Use *u = r->uses; u && !outside; u = u->next)
            if (!in_group(e, u->owner)) outside = true;
        if (!outside) continue;
        const char *arr = inplace_target(e, r);
        if (!arr) arr = decl_array(e, r->type, vname(e, r));
        map_put(&e->gmat, MAP_KEY(r), (void *)arr);
    }
    if (c.red)
        for (int j = 0; j < c.red->nresults; j++) {
            Value *r = op_result(c.red, j);
            VInfo s = decl_storage(e, r, vname(e, r));
            bind(e, r, s);
            c.res[j] = s.name;
        }
    /* the fast path: masks proven all-true, and the store clear of the loads */
    StrBuf cond = {0};
    e->nproven = 0;
    for (int k = 0; k < e->ngops; k++) {
        Op *op = e->gops[k];
        int mi = op->kind == TT_LOAD ? 1 : op->kind == TT_STORE ? 2 : -1;
        if (mi < 0 || op->noperands <= mi || is_proven(e, op_operand(op, mi))) continue;
        const char *mc = mask_all_true(e, op_operand(op, mi), 0);
        if (mc) sb_printf(&cond, "%s%s", cond.len ? " && " : "", mc);
    }
    bool split_always = false, split_exact = false;
    if (c.store) {
        VInfo *sp = is_gval(e, op_operand(c.store, 0)) ? NULL : vi(e, op_operand(c.store, 0));
        for (int k = 0; k < e->ngops - 1; k++) {
            Op *op = e->gops[k];
            if (op->kind != TT_LOAD) continue;
            VInfo *lp = is_gval(e, op_operand(op, 0)) ? NULL : vi(e, op_operand(op, 0));
            if (!sp || !lp || sp->kind != VK_EXPR || lp->kind != VK_EXPR) {
                split_always = true;
                continue;
            }
            if (same_address(sp, lp)) continue;
            sb_printf(&cond, "%s%s", cond.len ? " && " : "", disjoint(e, sp, lp));
            split_exact = true;
        }
        if (split_always || split_exact)
            for (int i = 0; i < 3; i++) {
                Value *v = c.store->noperands > i ? op_operand(c.store, i) : NULL;
                if (v && is_gval(e, v)) c.sv[i] = v;
            }
    }
    if (cond.len) {
        line(e, "if (%s) {", sb_cstr(&cond));
        e->indent++;
        c.fast = true;
        c.split = split_always;
        fuse_path(e, &c);
        e->indent--;
        line(e, "} else {");
        e->indent++;
    }
    c.fast = false;
    c.split = split_always || split_exact;
    fuse_path(e, &c);
    if (cond.len) {
        e->indent--;
        line(e, "}");
    }
    sb_free(&cond);
    for (int k = 0; k < e->ngops; k++) {
        Op *op = e->gops[k];
        if (op == c.red || op == c.store) continue;
        Value *r = op_result(op, 0);
        const char *arr = map_get(&e->gmat, MAP_KEY(r));
        if (arr) bind(e, r, mk_array(r->type, arr));
    }
    fuse_reset(e);
}

static void emit_op(Emitter *e, Op *op) {
    if (e->failed) return;
    switch (op->kind) {
    case ARITH_CONSTANT: emit_constant(e, op); return;
    case UB_POISON: {
        Value *res = op_result(op, 0);
        const char *name = vname(e, res);
        line(e, "%s %s = 0; /* ub.poison */", cdecl_const(e, res->type), name);
        bind(e, res, res->type->kind == TY_TENSOR ? mk_uniform(res->type, name) : mk_scalar(name));
        return;
    }
    case GPU_BARRIER:
        if (e->comments) line(e, "/* gpu.barrier: one program runs on one thread, nothing to wait for */");
        return;
    case TT_GET_PROGRAM_ID:
    case TT_GET_NUM_PROGRAMS: {
        int64_t axis = 0;
        op_attr_int(op, "axis", &axis);
        if (axis < 0 || axis > 2) axis = 0;
        const char *name = vname(e, op_result(op, 0));
        line(e, "const int32_t %s = P->%s[%d]; /* %s */", name, op->kind == TT_GET_PROGRAM_ID ? "pid" : "npid",
             (int)axis, op_name(op));
        bind(e, op_result(op, 0), mk_scalar(name));
        return;
    }
    case TT_MAKE_RANGE: {
        int64_t start = 0;
        op_attr_int(op, "start", &start);
        Value *res = op_result(op, 0);
        const char *name = vname(e, res);
        line(e, "const int32_t %s = %" PRId64 "; /* tt.make_range base: element i is %s + i */", name, start, name);
        VInfo v = mk_uniform(res->type, name);
        v.st[0] = 1;
        bind(e, res, v);
        return;
    }
    case TT_SPLAT: {
        VInfo *s = vi(e, op_operand(op, 0));
        VInfo v = mk_uniform(op_result(op, 0)->type, s->name);
        v.isconst = s->isconst, v.cval = s->cval;
        if (e->comments) line(e, "/* tt.splat: %s is %s everywhere */", vname(e, op_result(op, 0)), s->name);
        bind(e, op_result(op, 0), v);
        return;
    }
    case TT_EXPAND_DIMS:
    case TT_BROADCAST:
    case TT_TRANS:
    case TT_RESHAPE:
    case TT_SPLIT:
        if (!emit_view_op(e, op)) fail(e, op, "cannot lower this view op");
        return;
    case TT_JOIN:
    case TT_CAT: {
        Value *res = op_result(op, 0);
        const char *name = vname(e, res);
        comment_op(e, op);
        decl_array(e, res->type, name);
        VInfo r = mk_array(res->type, name);
        for (int k = 0; k < 2; k++) {
            Value *v = op_operand(op, k);
            VInfo s = *vi(e, v);
            Loop L;
            VInfo *vs[1] = {&s};
            VInfo shape = mk_array(v->type, "");
            loop_open(e, &L, &shape, vs, 1);
            const char *dst = op->kind == TT_JOIN ? fmt(e, "(%s)*2 + %d", loop_dst(e, &L), k)
                                                  : fmt(e, "%s + %" PRId64, loop_dst(e, &L), k * ty_numel(v->type));
            line(e, "%s[%s] = %s;", name, dst, loop_elem(e, &L, &s, v->type));
            loop_close(e, &L);
        }
        bind(e, res, r);
        return;
    }
    case ARITH_ADDI:
    case ARITH_SUBI:
    case ARITH_MULI:
    case TT_ADDPTR:
        if (try_affine(e, op)) return;
        emit_elementwise(e, op);
        return;
    case TT_LOAD: emit_load(e, op); return;
    case TT_STORE: emit_store(e, op); return;
    case TT_MAP_ELEMENTWISE: emit_map_elementwise(e, op); return;
    case TT_GATHER: emit_gather(e, op); return;
    case TT_HISTOGRAM: emit_histogram(e, op); return;
    case TT_ATOMIC_RMW:
    case TT_ATOMIC_CAS: emit_atomic(e, op); return;
    case TT_REDUCE: emit_reduce(e, op); return;
    case TT_SCAN: emit_scan(e, op); return;
    case TT_DOT: emit_dot(e, op); return;
    case SCF_FOR: emit_for(e, op); return;
    case SCF_IF: emit_if(e, op); return;
    case SCF_WHILE: emit_while(e, op); return;
    case SCF_YIELD:
    case SCF_CONDITION:
    case TT_REDUCE_RETURN:
    case TT_SCAN_RETURN:
    case TT_MAP_ELEMENTWISE_RETURN: return; /* handled by the parent */
    case TT_PRINT: emit_print(e, op); return;
    case TT_ASSERT: emit_assert(e, op); return;
    case TT_ELEMENTWISE_INLINE_ASM: {
        /* griddepcontrol (gdc_wait, gdc_launch_dependents) orders dependent
         * launches, which run in order here: nothing to do */
        const char *text = op_attr_str(op, "asm_string");
        if (text && !strncmp(text, "griddepcontrol.", 15) && !op->noperands && op->nresults == 1 &&
            op_result(op, 0)->type->kind != TY_TENSOR) {
            Value *res = op_result(op, 0);
            const char *name = vname(e, res);
            line(e, "%s %s = 0; /* %s */", cdecl_const(e, res->type), name, "griddepcontrol");
            bind(e, res, mk_scalar(name));
            return;
        }
        fail(e, op, "tl.inline_asm_elementwise holds PTX, which runs on NVIDIA GPUs only");
        return;
    }
    case TT_CALL: emit_call(e, op); return;
    case TT_RETURN: emit_return(e, op); return;
    default:
        if (op->nresults == 1 && (op_has_flag(op, OPF_ELEMENTWISE) || op->kind == ARITH_SELECT)) {
            emit_elementwise(e, op);
            return;
        }
        fail(e, op, "op is not supported");
    }
}

static void emit_block(Emitter *e, Block *b) {
    for (Op *o = b->first; o && !e->failed; o = o->next) fuse_op(e, o);
    fuse_flush(e);
}

/* ---- functions ------------------------------------------------------------ */

static bool func_is_kernel(Op *f) {
    const char *vis = op_attr_str(f, "sym_visibility");
    return !vis || strcmp(vis, "private") != 0;
}

static const char *func_cname(Emitter *e, Op *f) {
    StrBuf sb = {0};
    sb_puts(&sb, func_is_kernel(f) ? "tc_kernel_" : "tc_fn_");
    sanitize(func_name(f), &sb);
    const char *r = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

/* "static int NAME(const TcProgram *P, T a0, ..., T *out0, ...)" */
static void func_signature(Emitter *e, Op *f, StrBuf *sb) {
    Block *entry = func_entry(f);
    Type *ft = func_type(f);
    sb_printf(sb, "static int %s(const TcProgram *P", func_cname(e, f));
    for (int i = 0; entry && i < entry->nargs; i++) {
        Value *a = entry->args[i];
        const char *n = vname(e, a);
        if (a->type->kind == TY_TENSOR) sb_printf(sb, ", const %s *%s", ctype(e, a->type), n);
        else sb_printf(sb, ", %s %s", ctype(e, a->type), n);
    }
    for (int i = 0; ft && i < ft->nresults; i++)
        sb_printf(sb, ", %s *out%d", ctype(e, ft->results[i]), i);
    sb_putc(sb, ')');
}

static void begin_func(Emitter *e, Op *f) {
    map_free(&e->vals);
    map_free(&e->names);
    e->nextval = e->nextarg = e->nexttmp = 0;
    e->func = f;
    e->frame_bytes = 0;
    e->is_kernel = func_is_kernel(f);
}

/* What a function's body declares on the stack (Emitter.frames). */
typedef struct FuncFrame {
    int64_t own;     /* its arrays' bytes */
    bool entry_done; /* a kernel: its entry is written */
} FuncFrame;

static int64_t func_stack(Emitter *e, Op *f, int depth);
static void emit_entry(Emitter *e, Op *f);

static void emit_func(Emitter *e, Op *f) {
    begin_func(e, f);
    Block *entry = func_entry(f);
    if (!entry) return;
    StrBuf sig = {0};
    func_signature(e, f, &sig);
    line(e, "%s {", sb_cstr(&sig));
    sb_free(&sig);
    e->indent++;
    Attr *argattrs = op_attr(f, "arg_attrs");
    for (int i = 0; i < entry->nargs; i++) {
        Value *a = entry->args[i];
        VInfo v = a->type->kind == TY_TENSOR ? mk_array(a->type, vname(e, a)) : mk_scalar(vname(e, a));
        bind(e, a, v);
        /* pointers the front end proved 16-byte aligned */
        if (a->type->kind == TY_PTR && argattrs && argattrs->kind == ATTR_ARRAY && i < argattrs->arr.n) {
            int64_t div = 0;
            Attr *d = attr_dict_get(argattrs->arr.elems[i], "tt.divisibility");
            if (d && attr_as_int(d, &div) && div >= 16 && (div & (div - 1)) == 0)
                line(e, "%s = __builtin_assume_aligned(%s, %" PRId64 ");", v.name, v.name, div);
        }
    }
    emit_block(e, entry);
    if (!entry->last || entry->last->kind != TT_RETURN) line(e, "return 0;");
    e->indent--;
    line(e, "}");
    sb_putc(e->out, '\n');
    FuncFrame *fr = ARENA_NEW(e->arena, FuncFrame);
    fr->own = e->frame_bytes;
    fr->entry_done = false;
    map_put(&e->frames, MAP_KEY(f), fr);
    /* a kernel's entry follows its body unless it calls a function whose
     * body (and so whose frame) comes later: then it comes at the end */
    if (e->is_kernel && func_stack(e, f, 0) >= 0) emit_entry(e, f);
}

/* The stack a call of f takes: its own arrays and, below them, those of the
 * deepest chain of functions it calls (a noinline helper keeps its tiles in
 * a frame of its own); -1 while one of them is not emitted yet. Triton has
 * no recursion; the depth bounds a cycle. */
typedef struct CallScan {
    Emitter *e;
    int depth;
    int64_t deepest;
} CallScan;

static void callee_stack(Op *op, void *ud) {
    CallScan *s = ud;
    if (op->kind != TT_CALL) return;
    Attr *ca = op_attr(op, "callee");
    const char *callee = ca && (ca->kind == ATTR_SYMREF || ca->kind == ATTR_STRING) ? ca->s : NULL;
    Op *g = callee ? module_lookup_func(s->e->module, callee) : NULL;
    if (!g || s->deepest < 0) return;
    int64_t b = func_stack(s->e, g, s->depth + 1);
    if (b < 0 || b > s->deepest) s->deepest = b;
}

static int64_t func_stack(Emitter *e, Op *f, int depth) {
    FuncFrame *fr = map_get(&e->frames, MAP_KEY(f));
    if (!fr) return -1;
    if (depth > 64) return fr->own;
    CallScan s = {e, depth, 0};
    op_walk(f, callee_stack, &s, false);
    return s.deepest < 0 ? -1 : fr->own + s.deepest;
}

/* A kernel's exported metadata ({nparams, the stack its tiles take}, which
 * the runtime sizes threads by) and its entry, which unpacks the arguments
 * and runs programs [begin, end). After every body: the stack counts the
 * functions the kernel calls. */
static void emit_entry(Emitter *e, Op *f) {
    FuncFrame *fr = map_get(&e->frames, MAP_KEY(f));
    Block *entry = func_entry(f);
    if (!fr || fr->entry_done || !entry || !func_is_kernel(f)) return;
    fr->entry_done = true;
    int64_t stack = func_stack(e, f, 0);
    StrBuf sb = {0};
    sanitize(func_name(f), &sb);
    const char *nm = arena_strdup(e->arena, sb_cstr(&sb));
    sb_free(&sb);
    line(e, "TC_EXPORT const int64_t " CPU_META_PREFIX "%s[2] = {%d, %" PRId64 "};", nm, entry->nargs,
         stack < 0 ? fr->own : stack);
    line(e, "TC_EXPORT int " CPU_ENTRY_PREFIX "%s(void *const *args, const int32_t grid[3], int64_t begin, int64_t end, char *err, size_t errcap) {",
         nm);
    e->indent++;
    StrBuf call = {0};
    sb_printf(&call, "%s(&P", func_cname(e, f));
    for (int i = 0; i < entry->nargs; i++) {
        Value *a = entry->args[i];
        const char *ct = ctype(e, a->type);
        line(e, "%s const a%d = *(%s const *)args[%d];", ct, i, ct, i);
        sb_printf(&call, ", a%d", i);
    }
    sb_putc(&call, ')');
    line(e, "TcProgram P = {{0, 0, 0}, {grid[0], grid[1], grid[2]}, err, errcap};");
    line(e, "const int64_t gxy = (int64_t)grid[0] * grid[1];");
    line(e, "for (int64_t l = begin; l < end; l++) {");
    e->indent++;
    line(e, "P.pid[0] = (int32_t)(l %% grid[0]);");
    line(e, "P.pid[1] = (int32_t)((l / grid[0]) %% grid[1]);");
    line(e, "P.pid[2] = (int32_t)(l / gxy);");
    line(e, "if (%s) return 1;", sb_cstr(&call));
    e->indent--;
    line(e, "}");
    line(e, "return 0;");
    e->indent--;
    line(e, "}");
    sb_putc(e->out, '\n');
    sb_free(&call);
}

bool cpu_emit_c(Op *module, const CpuEmitOptions *opts, StrBuf *out, DiagEngine *de) {
    Emitter e = {.out = out, .de = de, .arena = arena_new()};
    e.lanes = opts && opts->reduce_lanes > 0 ? opts->reduce_lanes : 16;
    if (e.lanes & (e.lanes - 1)) e.lanes = 16;
    e.comments = !(opts && opts->no_comments);
    sb_puts(out, "/* generated by tritonc (CPU backend) */\n");
    sb_puts(out, cpu_c_prelude);
    sb_puts(out, "#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)\n#define TC_FMAF(a, b, c) fmaf(a, b, c)\n"
                 "#else\n#define TC_FMAF(a, b, c) ((a) * (b) + (c))\n#endif\n\n");
    Block *body = module->kind == BUILTIN_MODULE ? module_body(module) : NULL;
    if (!body) {
        fail(&e, module, "expected a builtin.module");
    } else {
        /* prototypes first: calls may go either way */
        for (Op *f = body->first; f; f = f->next) {
            if (f->kind != TT_FUNC || !func_entry(f)) continue;
            begin_func(&e, f);
            StrBuf sig = {0};
            func_signature(&e, f, &sig);
            line(&e, "%s;", sb_cstr(&sig));
            sb_free(&sig);
        }
        sb_putc(e.out, '\n');
        e.module = module;
        for (Op *f = body->first; f && !e.failed; f = f->next)
            if (f->kind == TT_FUNC) emit_func(&e, f);
        for (Op *f = body->first; f && !e.failed; f = f->next)
            if (f->kind == TT_FUNC) emit_entry(&e, f);
    }
    fuse_reset(&e);
    map_free(&e.vals);
    map_free(&e.names);
    map_free(&e.frames);
    arena_free(e.arena);
    return !e.failed;
}
