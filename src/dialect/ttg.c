/*
 * ttg.c - TritonGPU layouts: text form, builders, and their Dist (a layout
 * applied to a shape), plus the verifier of ttg.convert_layout. See ttg.h for
 * the layout model.
 *
 * Text is Triton's: `#ttg.blocked<{sizePerThread = [4], threadsPerWarp =
 * [32], warpsPerCTA = [4], order = [0]}>` and `#ttg.slice<{dim = 0, parent =
 * ...}>`. Fields Triton may add that a single-CTA layout does not need
 * (CTAsPerCGA, CTASplitNum, CTAOrder) are accepted and ignored.
 */
#include "dialect/dialect.h"
#include "dialect/ttg.h"

#include <stdlib.h>
#include <string.h>

/* ---- text ---------------------------------------------------------------- */

static void print_ints(StrBuf *out, const char *name, const int *v, int n) {
    sb_puts(out, name);
    sb_puts(out, " = [");
    for (int i = 0; i < n; i++) {
        if (i) sb_puts(out, ", ");
        sb_put_int(out, v[i]);
    }
    sb_putc(out, ']');
}

void ttg_layout_print(const Layout *l, StrBuf *out) {
    if (l->kind == LAYOUT_SLICE) {
        sb_puts(out, "#ttg.slice<{dim = ");
        sb_put_int(out, l->dim);
        sb_puts(out, ", parent = ");
        ttg_layout_print(l->parent, out);
        sb_puts(out, "}>");
        return;
    }
    sb_puts(out, "#ttg.blocked<{");
    print_ints(out, "sizePerThread", l->spt, l->rank);
    sb_puts(out, ", ");
    print_ints(out, "threadsPerWarp", l->tpw, l->rank);
    sb_puts(out, ", ");
    print_ints(out, "warpsPerCTA", l->wpc, l->rank);
    sb_puts(out, ", ");
    print_ints(out, "order", l->order, l->rank);
    sb_puts(out, "}>");
}

/* Over the fields ttg_layout_equal compares (two per word and dimension):
 * one multiply per word, a full mix at the end. */
static uint64_t layout_mix(uint64_t h, uint64_t v) { return ((h << 5 | h >> 59) ^ v) * 0x9e3779b97f4a7c15ULL; }

static uint64_t layout_hash_raw(const Layout *l) {
    uint64_t h = layout_mix((uint64_t)l->kind + 1, (uint64_t)l->rank);
    if (l->kind == LAYOUT_SLICE) return layout_mix(layout_mix(h, (uint64_t)l->dim), layout_hash_raw(l->parent));
    for (int k = 0; k < l->rank && k < TTG_MAX_RANK; k++) {
        h = layout_mix(h, (uint64_t)(uint32_t)l->spt[k] << 32 | (uint32_t)l->tpw[k]);
        h = layout_mix(h, (uint64_t)(uint32_t)l->wpc[k] << 32 | (uint32_t)l->order[k]);
    }
    return h;
}

static uint64_t layout_hash(const Layout *l) { return hash_u64(layout_hash_raw(l)); }

static bool valid_rank(int rank) { return rank >= 1 && rank <= TTG_MAX_RANK; }

/* What ttg_layout's parse of l's text gives, made from l, or NULL where the
 * parse would fail; in c's arena. */
static Attr *layout_attr_by_hash(Context *c, const Layout *l);
static const Layout *layout_copy(Context *c, const Layout *l) {
    Layout *n = ARENA_NEW(c->arena, Layout);
    n->kind = l->kind;
    if (l->kind == LAYOUT_SLICE) {
        /* the parent is the context's unique one: layout assignment gives
         * a slice's parent to the values an expand_dims or a reduce makes,
         * and then compares and finds types by the address */
        const Layout *p = l->parent ? ttg_layout(c, layout_attr_by_hash(c, l->parent)) : NULL;
        if (!p || p->rank < 2 || l->dim < 0 || l->dim >= p->rank) return NULL;
        n->dim = l->dim;
        n->parent = p;
        n->rank = p->rank - 1;
        return n;
    }
    if (l->kind != LAYOUT_BLOCKED || !valid_rank(l->rank)) return NULL;
    n->rank = l->rank;
    for (int k = 0; k < l->rank; k++) {
        n->spt[k] = l->spt[k];
        n->tpw[k] = l->tpw[k];
        n->wpc[k] = l->wpc[k];
        n->order[k] = l->order[k];
    }
    return n;
}

/* The text is made and interned once per distinct layout and context
 * (layout assignment asks for the attribute of every tensor type it makes):
 * found by the layout's hash. The decoded layout ttg_layout keeps for the
 * text is then made from l rather than parsed back from the text. */
static Attr *layout_attr_by_hash(Context *c, const Layout *l) {
    uint64_t h = layout_hash(l) | 1;
    Attr *a = map_get(&c->layout_attrs, h);
    if (!a || !ttg_layout_equal(ttg_layout(c, a), l)) {
        StrBuf sb = {0};
        ttg_layout_print(l, &sb);
        a = attr_opaque(c, sb_cstr(&sb));
        sb_free(&sb);
        map_put(&c->layout_attrs, h, a);
        const Layout *decoded;
        if (!map_get(&c->layouts, MAP_KEY(a->s)) && (decoded = layout_copy(c, l)))
            map_put(&c->layouts, MAP_KEY(a->s), (void *)decoded);
    }
    return a;
}

Attr *ttg_layout_attr(Context *c, const Layout *l) {
    if (!l) return NULL;
    /* by address first (layout assignment keeps its layouts), checked by
     * content; then by hash */
    unsigned slot = (unsigned)(MAP_KEY(l) >> 4) % TC_ARRAY_LEN(c->layout_attr_memo);
    if (c->layout_attr_memo[slot].l == l && ttg_layout_equal(ttg_layout(c, c->layout_attr_memo[slot].a), l))
        return c->layout_attr_memo[slot].a;
    Attr *a = layout_attr_by_hash(c, l);
    c->layout_attr_memo[slot].l = l;
    c->layout_attr_memo[slot].a = a;
    return a;
}

typedef struct LParse {
    const char *p;
    Context *c;
    bool ok;
} LParse;

static void lp_ws(LParse *s) {
    while (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r') s->p++;
}
static bool lp_eat(LParse *s, const char *tok) {
    lp_ws(s);
    size_t n = strlen(tok);
    if (strncmp(s->p, tok, n) != 0) return false;
    s->p += n;
    return true;
}
static void lp_expect(LParse *s, const char *tok) {
    if (!lp_eat(s, tok)) s->ok = false;
}
static int lp_int(LParse *s) {
    lp_ws(s);
    char *end;
    long v = strtol(s->p, &end, 10);
    if (end == s->p) s->ok = false;
    s->p = end;
    return (int)v;
}
static int lp_ints(LParse *s, int *v) {
    int n = 0;
    lp_expect(s, "[");
    if (lp_eat(s, "]")) return 0;
    do {
        int x = lp_int(s);
        if (n < TTG_MAX_RANK) v[n] = x;
        n++;
    } while (s->ok && lp_eat(s, ","));
    lp_expect(s, "]");
    return n > TTG_MAX_RANK ? (s->ok = false, 0) : n;
}
/* Skips one value: a bracketed group or a token up to `,` or `}`. */
static void lp_skip_value(LParse *s) {
    int depth = 0;
    lp_ws(s);
    for (; *s->p; s->p++) {
        char ch = *s->p;
        if (ch == '[' || ch == '{' || ch == '<') depth++;
        else if (ch == ']' || ch == '}' || ch == '>') {
            if (depth == 0) return;
            depth--;
        } else if (ch == ',' && depth == 0) return;
    }
}

static Layout *lp_layout(LParse *s) {
    Layout *l = ARENA_NEW(s->c->arena, Layout);
    if (lp_eat(s, "#ttg.slice<{")) {
        l->kind = LAYOUT_SLICE;
        do {
            if (lp_eat(s, "dim")) {
                lp_expect(s, "=");
                l->dim = lp_int(s);
            } else if (lp_eat(s, "parent")) {
                lp_expect(s, "=");
                l->parent = lp_layout(s);
            } else {
                s->ok = false;
            }
        } while (s->ok && lp_eat(s, ","));
        lp_expect(s, "}>");
        if (!l->parent || l->parent->rank < 2 || l->dim < 0 || l->dim >= l->parent->rank) s->ok = false;
        else l->rank = l->parent->rank - 1;
        return l;
    }
    if (!lp_eat(s, "#ttg.blocked<{")) {
        s->ok = false;
        return l;
    }
    l->kind = LAYOUT_BLOCKED;
    int n[4] = {-1, -1, -1, -1};
    do {
        lp_ws(s);
        if (lp_eat(s, "sizePerThread")) { lp_expect(s, "="); n[0] = lp_ints(s, l->spt); }
        else if (lp_eat(s, "threadsPerWarp")) { lp_expect(s, "="); n[1] = lp_ints(s, l->tpw); }
        else if (lp_eat(s, "warpsPerCTA")) { lp_expect(s, "="); n[2] = lp_ints(s, l->wpc); }
        else if (lp_eat(s, "order")) { lp_expect(s, "="); n[3] = lp_ints(s, l->order); }
        else {
            while (*s->p && *s->p != '=' && *s->p != '}') s->p++;
            lp_expect(s, "=");
            lp_skip_value(s);
        }
    } while (s->ok && lp_eat(s, ","));
    lp_expect(s, "}>");
    l->rank = n[0];
    if (n[0] < 1 || n[1] != n[0] || n[2] != n[0] || n[3] != n[0]) s->ok = false;
    return l;
}

/* Parsed once per context: the text is interned, so its address is the
 * key (the PTX emitter asks for the layout of every tensor it touches; a
 * text found there needs no check of its prefix). */
const Layout *ttg_layout(Context *c, const Attr *a) {
    if (!a || a->kind != ATTR_OPAQUE) return NULL;
    const Layout *cached = map_get(&c->layouts, MAP_KEY(a->s));
    if (cached) return cached;
    if (strncmp(a->s, "#ttg.", 5) != 0) return NULL;
    LParse s = {a->s, c, true};
    Layout *l = lp_layout(&s);
    if (!s.ok) return NULL;
    map_put(&c->layouts, MAP_KEY(a->s), l);
    return l;
}

const Layout *ttg_layout_unique(Context *c, const Layout *l) {
    /* (by hash: callers pass layouts they just made, whose addresses say
     * nothing) */
    const Layout *u = ttg_layout(c, layout_attr_by_hash(c, l));
    return u ? u : arena_dup(c->arena, l, sizeof *l);
}

const Layout *ttg_layout_of_type(Context *c, const Type *t) {
    if (!t || t->kind != TY_TENSOR) return NULL;
    if (t->layout) return t->layout;
    const Layout *l = ttg_layout(c, t->encoding);
    ((Type *)t)->layout = l; /* logically const: the type's own encoding, decoded */
    return l;
}

bool ttg_layout_equal(const Layout *a, const Layout *b) {
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind || a->rank != b->rank) return false;
    if (a->kind == LAYOUT_SLICE) return a->dim == b->dim && ttg_layout_equal(a->parent, b->parent);
    /* (a loop, not four calls to memcmp: ranks are 1 to 4) */
    for (int k = 0; k < a->rank && k < TTG_MAX_RANK; k++)
        if (a->spt[k] != b->spt[k] || a->tpw[k] != b->tpw[k] || a->wpc[k] != b->wpc[k] || a->order[k] != b->order[k])
            return false;
    return true;
}

/* A memo by (type, layout) address finds the earlier answer; the layout
 * is then compared by content with the answer's (cheap: its attribute's
 * parse is cached), so a caller's short-lived Layout is fine. */
Type *ttg_with_layout(Context *c, Type *t, const Layout *l) {
    if (t->kind != TY_TENSOR) return t;
    unsigned h = (unsigned)(hash_combine(MAP_KEY(t), MAP_KEY(l)) % TC_ARRAY_LEN(c->with_layout_memo));
    if (c->with_layout_memo[h].t == t && c->with_layout_memo[h].l == l && c->with_layout_memo[h].r &&
        ttg_layout_equal(ttg_layout_of_type(c, c->with_layout_memo[h].r), l))
        return c->with_layout_memo[h].r;
    Type *r = ty_tensor(c, t->shape, t->rank, t->elem, ttg_layout_attr(c, l));
    c->with_layout_memo[h].t = t;
    c->with_layout_memo[h].l = l;
    c->with_layout_memo[h].r = r;
    return r;
}

/* ---- builders ------------------------------------------------------------- */

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

Layout ttg_blocked(const int64_t *shape, int rank, const int *spt, const int *order,
                   int num_warps, int threads_per_warp) {
    Layout l = {.kind = LAYOUT_BLOCKED, .rank = rank};
    int lanes = threads_per_warp, warps = num_warps, threads = num_warps * threads_per_warp;
    int prev_lanes = 1, prev_warps = 1;
    for (int d = 0; d < rank; d++) {
        l.spt[d] = spt[d];
        l.order[d] = order[d];
    }
    for (int k = 0; k < rank - 1; k++) {
        int i = order[k];
        int64_t cover = shape[i] / spt[i];
        int per_cta = clampi(threads, 1, cover > 1 ? (int)(cover > (1 << 30) ? (1 << 30) : cover) : 1);
        l.tpw[i] = clampi(per_cta, 1, lanes);
        l.wpc[i] = clampi(per_cta / l.tpw[i], 1, warps);
        warps /= l.wpc[i];
        lanes /= l.tpw[i];
        threads /= per_cta;
        prev_lanes *= l.tpw[i];
        prev_warps *= l.wpc[i];
    }
    l.tpw[order[rank - 1]] = threads_per_warp / prev_lanes;
    l.wpc[order[rank - 1]] = num_warps / prev_warps;
    return l;
}

Layout ttg_default_blocked(const int64_t *shape, int rank, int num_warps, int threads_per_warp) {
    int spt[TTG_MAX_RANK], order[TTG_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        spt[d] = 1;
        order[d] = rank - 1 - d;
    }
    return ttg_blocked(shape, rank, spt, order, num_warps, threads_per_warp);
}

Layout ttg_mma_layout(int warps_m, int warps_n) {
    return (Layout){.kind = LAYOUT_BLOCKED, .rank = 2, .spt = {1, 2}, .tpw = {8, 4}, .wpc = {warps_m, warps_n},
                    .order = {1, 0}};
}

Layout ttg_slice(Context *c, int dim, const Layout *parent) {
    Layout *p = arena_dup(c->arena, parent, sizeof(Layout));
    return (Layout){.kind = LAYOUT_SLICE, .rank = parent->rank - 1, .dim = dim, .parent = p};
}

/* ---- Dist -------------------------------------------------------------- */

/* The blocked layout's per-dimension description, before slicing. */
typedef struct Flat {
    int rank;
    int spt[TTG_MAX_RANK], tpw[TTG_MAX_RANK], wpc[TTG_MAX_RANK];
    int lane_stride[TTG_MAX_RANK], warp_stride[TTG_MAX_RANK], order[TTG_MAX_RANK];
    int nthreads;
} Flat;

static bool flatten(const Layout *l, Flat *f) {
    if (l->kind == LAYOUT_BLOCKED) {
        f->rank = l->rank;
        int ls = 1, ws = 1;
        for (int k = 0; k < l->rank; k++) {
            int d = l->order[k];
            if (d < 0 || d >= l->rank) return false;
            f->spt[d] = l->spt[d];
            f->tpw[d] = l->tpw[d];
            f->wpc[d] = l->wpc[d];
            f->lane_stride[d] = ls;
            f->warp_stride[d] = ws;
            f->order[k] = d;
            ls *= l->tpw[d];
            ws *= l->wpc[d];
        }
        f->nthreads = ls * ws;
        return true;
    }
    Flat p;
    if (!l->parent || !flatten(l->parent, &p)) return false;
    f->rank = p.rank - 1;
    f->nthreads = p.nthreads;
    for (int d = 0, o = 0; d < p.rank; d++) {
        if (d == l->dim) continue;
        f->spt[o] = p.spt[d];
        f->tpw[o] = p.tpw[d];
        f->wpc[o] = p.wpc[d];
        f->lane_stride[o] = p.lane_stride[d];
        f->warp_stride[o] = p.warp_stride[d];
        o++;
    }
    for (int k = 0, o = 0; k < p.rank; k++) {
        int d = p.order[k];
        if (d == l->dim) continue;
        f->order[o++] = d > l->dim ? d - 1 : d;
    }
    return true;
}

bool ttg_dist(const Layout *l, const int64_t *shape, int rank, Dist *out) {
    Flat f;
    memset(out, 0, sizeof *out);
    if (!l || !flatten(l, &f) || f.rank != rank) return false;
    out->rank = rank;
    out->nslots = 1;
    out->nthreads = f.nthreads;
    for (int d = 0; d < rank; d++) {
        out->shape[d] = shape[d];
        out->spt[d] = f.spt[d];
        out->tpw[d] = f.tpw[d];
        out->wpc[d] = f.wpc[d];
        out->lane_stride[d] = f.lane_stride[d];
        out->warp_stride[d] = f.warp_stride[d];
        out->order[d] = f.order[d];
        out->tile[d] = f.spt[d] * f.tpw[d] * f.wpc[d];
        out->reps[d] = shape[d] > out->tile[d] ? (int)(shape[d] / out->tile[d]) : 1;
        int spt_eff = f.spt[d] < shape[d] ? f.spt[d] : (int)shape[d];
        out->per_dim[d] = spt_eff * out->reps[d];
        out->nslots *= out->per_dim[d];
    }
    return true;
}

/* A thread's register index along a dimension counts its distinct elements:
 * j = rep * spt + k, with spt cut to the shape when a thread's block is
 * larger than the tensor (its extra elements would only repeat). */
static int spt_eff(const Dist *d, int dim) {
    return d->spt[dim] < d->shape[dim] ? d->spt[dim] : (int)d->shape[dim];
}

void dist_slot_j(const Dist *d, int slot, int *j) {
    for (int k = 0; k < d->rank; k++) {
        int dim = d->order[k];
        j[dim] = slot % d->per_dim[dim];
        slot /= d->per_dim[dim];
    }
}

int dist_slot_of_j(const Dist *d, const int *j) {
    int slot = 0, mul = 1;
    for (int k = 0; k < d->rank; k++) {
        int dim = d->order[k];
        slot += j[dim] * mul;
        mul *= d->per_dim[dim];
    }
    return slot;
}

int64_t dist_const(const Dist *d, int dim, int j) {
    int s = spt_eff(d, dim);
    return ((int64_t)(j / s) * d->tile[dim] + j % s) % d->shape[dim];
}

int dist_lanes(const Dist *d, int dim) {
    int64_t cover = (d->shape[dim] + d->spt[dim] - 1) / d->spt[dim];
    return cover < d->tpw[dim] ? (int)cover : d->tpw[dim];
}

int dist_warps(const Dist *d, int dim) {
    int64_t per_warp = (int64_t)d->spt[dim] * d->tpw[dim];
    int64_t cover = (d->shape[dim] + per_warp - 1) / per_warp;
    return cover < d->wpc[dim] ? (int)cover : d->wpc[dim];
}

int64_t dist_thread_part(const Dist *d, int dim, int lane, int warp) {
    int64_t l = (lane / d->lane_stride[dim]) % d->tpw[dim];
    int64_t w = (warp / d->warp_stride[dim]) % d->wpc[dim];
    return ((w * d->tpw[dim] + l) * d->spt[dim]) % d->shape[dim];
}

int dist_j_of_const(const Dist *d, int dim, int64_t c) {
    /* dist_const never wraps: below a tile, j < spt_eff <= shape; above,
     * the last element, (reps - 1) * tile + spt - 1, is below reps * tile
     * <= shape. So it is one-to-one, and this is its inverse. */
    int s = spt_eff(d, dim);
    if (c < 0 || c % d->tile[dim] >= s) return -1;
    int64_t j = c / d->tile[dim] * s + c % d->tile[dim];
    return j < d->per_dim[dim] ? (int)j : -1;
}

static bool pow2_i(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* (thread_part is then shifts and masks of the lane and warp numbers:
 * (lane / lane_stride) % tpw and (warp / warp_stride) % wpc pick runs of
 * bits, which the product by tpw and spt and the remainder by shape move
 * and cut) */
bool dist_thread_parts_linear(const Dist *d) {
    if (!pow2_i(d->nthreads)) return false;
    for (int k = 0; k < d->rank; k++)
        if (!pow2_i(d->shape[k]) || !pow2_i(d->spt[k]) || !pow2_i(d->tpw[k]) || !pow2_i(d->wpc[k]) ||
            !pow2_i(d->lane_stride[k]) || !pow2_i(d->warp_stride[k]))
            return false;
    return true;
}

static bool same_thread_part(const Dist *a, const Dist *b, int t) {
    for (int d = 0; d < a->rank; d++)
        if (dist_thread_part(a, d, t % 32, t / 32) != dist_thread_part(b, d, t % 32, t / 32)) return false;
    return true;
}

/* The same constants, as sets (dist_const is one-to-one, and the counts are
 * equal); then the same thread parts for every thread of the CTA. When all
 * of both Dists' counts are powers of two, both thread parts are linear
 * over GF(2) in the thread id (dist_thread_parts_linear), and agreeing on
 * the basis threads 1, 2, 4, ... (thread 0 gives 0 in both) they agree on
 * all; else every thread is checked (at most 1024). */
bool dist_same_threads(const Dist *a, const Dist *b) {
    if (a->rank != b->rank || a->nslots != b->nslots || a->nthreads != b->nthreads) return false;
    for (int d = 0; d < a->rank; d++) {
        if (a->shape[d] != b->shape[d] || a->per_dim[d] != b->per_dim[d]) return false;
        for (int j = 0; j < a->per_dim[d]; j++)
            if (dist_j_of_const(b, d, dist_const(a, d, j)) < 0) return false;
    }
    if (dist_thread_parts_linear(a) && dist_thread_parts_linear(b)) {
        for (int t = 1; t < a->nthreads; t *= 2)
            if (!same_thread_part(a, b, t)) return false;
        return true;
    }
    for (int t = 0; t < a->nthreads; t++)
        if (!same_thread_part(a, b, t)) return false;
    return true;
}

/* ---- verifier ------------------------------------------------------------- */

bool verify_convert_layout(Op *op, DiagEngine *de) {
    Type *a = op_operand(op, 0)->type, *r = op_result(op, 0)->type;
    if (a->kind != TY_TENSOR || r->kind != TY_TENSOR || a->elem != r->elem || !ty_same_shape(a, r)) {
        op_error(de, op, "'ttg.convert_layout' needs tensors of one shape and element type");
        return false;
    }
    return true;
}

/* The integer attributes an op of the shared-memory rings must carry. */
static bool has_int_attrs(Op *op, DiagEngine *de, const char *const *names, int n) {
    for (int i = 0; i < n; i++) {
        int64_t v;
        if (!op_attr_int(op, names[i], &v)) {
            op_error(de, op, "'%s' needs an integer attribute '%s'", op_name(op), names[i]);
            return false;
        }
    }
    return true;
}

static bool is_stage(const Value *v) { return v->type->kind == TY_INT && v->type->width == 32; }

/* A `swizzle` attribute: [bytes, bits of dimension 0, their strides, bits
 * of dimension 1, their strides, then up to 3 terms (mma.sync's rows): a
 * shift and a mask of bits 4..6 each, see swz_apply in
 * target/ptx/mma_plan.h]. */
static bool swizzle_ok(Op *op, DiagEngine *de, const Attr *sw) {
    bool ok = sw->kind == ATTR_DENSE_ARRAY && sw->dense.ints && sw->dense.nvals >= 3;
    if (ok) {
        const int64_t *v = sw->dense.ints;
        int64_t n = sw->dense.nvals, n0 = v[1];
        ok = n0 >= 0 && n0 <= 12 && 2 + n0 < n && v[2 + n0] >= 0 && v[2 + n0] <= 12;
        int64_t terms = ok ? n - (3 + n0 + v[2 + n0]) : -1;
        ok = ok && terms >= 0 && terms <= 6 && terms % 2 == 0;
        /* (each term takes bits from 7 up: the XOR stays its own inverse) */
        for (int64_t k = n - terms; ok && k < n; k += 2) {
            int64_t m = v[k + 1], low = m & 0x10 ? 4 : m & 0x20 ? 5 : 6;
            ok = m > 0 && !(m & ~0x70) && v[k] < 32 && low + v[k] >= 7;
        }
    }
    if (!ok)
        op_error(de, op, "needs 'swizzle' as [bytes, bits of dimension 0, their strides, bits of dimension 1, their "
                         "strides (at most 12 bits each), then at most 3 pairs of a shift and a mask of bits 4..6]");
    return ok;
}

/* The stage's layout: element strides (stride0, stride1: padded rows), or
 * `swizzle`, a swizzled layout, wgmma's or mma.sync's ([W, then for
 * dimension 0 and 1 the count of its coordinate bits and each one's byte
 * stride, then mma.sync's XOR terms], as target/ptx/mma_plan.h's
 * SmemSwz). */
bool verify_async_copy(Op *op, DiagEngine *de) {
    static const char *const attrs[] = {"offset", "stage_bytes", "vec", "stride0", "stride1"};
    Type *pt = op_operand(op, 1)->type;
    if (!is_stage(op_operand(op, 0)) || pt->kind != TY_TENSOR || pt->rank != 2 || ty_elem(pt)->kind != TY_PTR ||
        (op->noperands > 2 && !ty_same_shape(op_operand(op, 2)->type, pt))) {
        op_error(de, op, "'ttg.async_copy_global_to_local' needs an i32 stage, a 2-d tensor of pointers and an optional mask of its shape");
        return false;
    }
    const Attr *sw = op_attr_k(op, AN_SWIZZLE);
    if (sw && !swizzle_ok(op, de, sw)) return false;
    return has_int_attrs(op, de, attrs, sw ? 3 : 5);
}

bool verify_local_store(Op *op, DiagEngine *de) {
    static const char *const attrs[] = {"offset", "stage_bytes"};
    Type *t = op_operand(op, 1)->type;
    const Attr *sw = op_attr_k(op, AN_SWIZZLE);
    if (!is_stage(op_operand(op, 0)) || t->kind != TY_TENSOR || t->rank != 2 || !sw) {
        op_error(de, op, "needs an i32 stage, a 2-d tensor and a 'swizzle' layout");
        return false;
    }
    return swizzle_ok(op, de, sw) && has_int_attrs(op, de, attrs, 2);
}

bool verify_local_load(Op *op, DiagEngine *de) {
    static const char *const attrs[] = {"offset", "stage_bytes"};
    if (!is_stage(op_operand(op, 0)) || op_result(op, 0)->type->kind != TY_TENSOR) {
        op_error(de, op, "'ttg.local_load' needs an i32 stage and a tensor result");
        return false;
    }
    return has_int_attrs(op, de, attrs, 2);
}
