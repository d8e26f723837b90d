/*
 * axis_info.c - contiguity, divisibility and constancy of integer and
 * pointer tiles (see axis_info.h), after Triton's lib/Analysis/AxisInfo.cpp.
 *
 * Every value's info is computed from its operands' with the rules below
 * (all quantities are powers of two, so the meet of two facts is their
 * gcd), when it is first asked for (see "facts on demand"): what a forward
 * walk in program order would give it. Where no rule applies the answer is the
 * conservative one (runs of 1, divisible by 1). The values an scf.for
 * carries get the meet of their initial and their yielded values' facts,
 * found as Triton's dataflow finds it: start from the initial values', walk
 * the body, meet with what it yields, and walk again until nothing changes
 * (`ptrs += BLOCK_K * stride` keeps its contiguity, and the loads through
 * it their 16-byte vectors); scf.while's stay conservative. Hints from
 * `tl.multiple_of` / `tl.max_contiguous` / `tl.constancy` (attributes
 * tt.divisibility / tt.contiguity / tt.constancy on the defining op) and
 * from `tt.divisibility` on function arguments raise what was computed.
 */
#include "transform/gpu/axis_info.h"

#include <string.h>

#if defined(__GNUC__)
#define NOT_INLINE __attribute__((noinline))
#else
#define NOT_INLINE
#endif

#define MAX_DIV ((int64_t)1 << 30)

/* A value's facts (NULL: not seen yet), when they last changed, and, for
 * the result of an op the rules visit, when they were computed: an op none
 * of whose operands changed since is not visited again (the rules read
 * nothing else that changes), which spares the loop fixed point's later
 * rounds most of the body. In ticks of AxisAnalysis.clock (0: never; a
 * loop's induction variable, whose facts no op computes, has 1 once the
 * loop is solved: see walk_for). The
 * facts are replaced, never written in place: axis_analysis_copy gives a
 * value another's. */
typedef struct Slot {
    const AxisInfo *info;
    uint32_t changed, computed;
} Slot;

struct AxisAnalysis {
    Context *ctx;
    Op *func;
    Slot *slots; /* by Value.id, ncap long */
    uint32_t ncap;
    uint32_t clock; /* counts the changes of facts (see Slot) */
    uint32_t current; /* the context's value count when the analysis was
                         last brought up to date (see axis_analysis_get) */
    uint32_t limit;   /* the values older than this (those there were when
                         the analysis was made) get their facts when first
                         asked for (see demand); 0 once every value has its */
    struct Pending *pending; /* demand's stack, npending of cap long */
    int npending, cap;
    bool behind;      /* kept with axis_analysis_keep_behind: the values made
                         since are brought in when it is next asked for */
    AxisInfo *scratch; /* where visit computes facts (see commit_info) */
};

/* on magnitudes as unsigned (|INT64_MIN| is 2^63), clamped to INT64_MAX */
static inline int64_t gcd64(int64_t a, int64_t b) {
    /* (the facts are powers of two but for a few contiguities: then the
     * gcd is the smaller, m. No bit of either below m's lowest one means
     * that m, one of them, is a power of two dividing both) */
    int64_t m = a < b ? a : b;
    if (m > 0 && ((a | b) & (m - 1)) == 0) return m;
    uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)x;
}
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t pow2_div(int64_t v) {
    if (v == 0) return MAX_DIV;
    uint64_t u = (uint64_t)v, p = u & (0 - u); /* the lowest set bit (2^63 for INT64_MIN) */
    return p > (uint64_t)MAX_DIV ? MAX_DIV : (int64_t)p;
}

static int info_rank(const Type *t) { return t->kind == TY_TENSOR ? t->rank : 1; }
static int64_t dim_size(const Type *t, int d) { return t->kind == TY_TENSOR ? t->shape[d] : 1; }

/* (filled in place, up to the rank: the facts are 216 bytes, and visit
 * makes one for every integer value; what lies past the rank nothing
 * reads) */
static inline void set_conservative(AxisInfo *ai, const Type *t) {
    ai->rank = info_rank(t);
    ai->known = false;
    ai->value = 0;
    for (int d = 0; d < ai->rank && d < TTG_MAX_RANK; d++) ai->contig[d] = ai->div[d] = ai->cnst[d] = 1;
}

static inline AxisInfo conservative(const Type *t) {
    AxisInfo ai;
    set_conservative(&ai, t);
    return ai;
}

static void set_constant(AxisInfo *ai, const Type *t, int64_t v) {
    ai->known = true;
    ai->value = v;
    for (int d = 0; d < ai->rank; d++) {
        ai->contig[d] = 1;
        ai->div[d] = pow2_div(v);
        ai->cnst[d] = dim_size(t, d);
    }
}

/* v's place in the table, which grows to take values made since it was
 * sized (ids are dense: room for every value there is now, and at least
 * twice the old room). */
static void grow_slots(AxisAnalysis *a) {
    uint32_t n = ctx_value_count(a->ctx);
    if (n < 2 * a->ncap) n = 2 * a->ncap;
    Slot *t = ARENA_ARRAY(a->ctx->arena, Slot, n);
    memcpy(t, a->slots, sizeof *t * a->ncap);
    a->slots = t;
    a->ncap = n;
}

static inline Slot *info_slot(AxisAnalysis *a, const Value *v) {
    if (v->id >= a->ncap) grow_slots(a);
    return &a->slots[v->id];
}

/* Memory for facts, not cleared: they are written up to their rank, and
 * nothing reads past it (224 bytes, of which a rank-2 fact uses 72). */
static inline AxisInfo *new_info(AxisAnalysis *a) {
    return arena_alloc_raw(a->ctx->arena, sizeof(AxisInfo));
}

/* (made conservative on first sight) */
static NOT_INLINE const AxisInfo *first_sight(AxisAnalysis *a, Value *v) {
    Slot *slot = info_slot(a, v);
    AxisInfo *n = new_info(a);
    set_conservative(n, v->type);
    slot->info = n;
    return n;
}

static inline bool has_info(const AxisAnalysis *a, const Value *v) {
    return v->id < a->ncap && a->slots[v->id].info;
}

static const AxisInfo *first_ask(AxisAnalysis *a, Value *v);

/* axis_info, for the rules: most values asked about have their facts */
static inline const AxisInfo *info_of(AxisAnalysis *a, Value *v) {
    if (v->id < a->ncap && a->slots[v->id].info) return a->slots[v->id].info;
    return first_ask(a, v);
}

const AxisInfo *axis_info(AxisAnalysis *a, Value *v) { return info_of(a, v); }

/* (new facts, in new memory: see Slot) */
static void set_info(AxisAnalysis *a, Value *v, const AxisInfo *ai) {
    Slot *slot = info_slot(a, v);
    if (slot->info && axis_info_equal(slot->info, ai)) return;
    AxisInfo *n = new_info(a);
    *n = *ai;
    slot->info = n;
    slot->changed = ++a->clock;
}

static int elem_bytes(const Type *t) {
    Type *e = ty_elem((Type *)t);
    if (e->kind == TY_PTR) e = e->elem;
    if (e->kind == TY_PTR) return 8;
    int w = e->width ? e->width : 64;
    return w < 8 ? 1 : w / 8;
}

/* Reads an integer hint: `16 : i32`, `dense<16> : tensor<2xi32>`, or an
 * array, per dimension. */
static bool hint_values(const Attr *h, int rank, int64_t *out) {
    if (!h) return false;
    int64_t v;
    if (attr_as_int(h, &v)) {
        for (int d = 0; d < rank; d++) out[d] = v;
        return true;
    }
    if ((h->kind == ATTR_DENSE || h->kind == ATTR_DENSE_ARRAY) && h->dense.ints) {
        for (int d = 0; d < rank; d++) out[d] = h->dense.ints[d < h->dense.nvals ? d : h->dense.nvals - 1];
        return true;
    }
    if (h->kind == ATTR_ARRAY && h->arr.n > 0) {
        for (int d = 0; d < rank; d++)
            if (!attr_as_int(h->arr.elems[d < h->arr.n ? d : h->arr.n - 1], &out[d])) return false;
        return true;
    }
    return false;
}

/* tt.divisibility, tt.contiguity and tt.constancy raise what was computed
 * (found in one pass over the op's attributes, by address: most ops have
 * none). */
static void apply_hints(const Op *op, AxisInfo *ai) {
    for (int i = 0; i < op->nattrs; i++) {
        const char *n = op->attrs[i].name;
        int64_t *facts = n == attr_names[AN_TT_DIVISIBILITY]  ? ai->div
                         : n == attr_names[AN_TT_CONTIGUITY] ? ai->contig
                         : n == attr_names[AN_TT_CONSTANCY]  ? ai->cnst
                                                             : NULL;
        int64_t h[TTG_MAX_RANK];
        if (facts && hint_values(op->attrs[i].attr, ai->rank, h))
            for (int d = 0; d < ai->rank; d++) facts[d] = max64(facts[d], h[d]);
    }
}

static void func_args(AxisAnalysis *a, Op *func) {
    Block *entry = func_entry(func);
    Attr *arg_attrs = op_attr_k(func, AN_ARG_ATTRS);
    for (int i = 0; i < entry->nargs; i++) {
        Value *v = entry->args[i];
        AxisInfo ai = conservative(v->type);
        if (arg_attrs && arg_attrs->kind == ATTR_ARRAY && i < arg_attrs->arr.n) {
            Attr *d = arg_attrs->arr.elems[i];
            int64_t div;
            if (d && d->kind == ATTR_DICT && attr_as_int(attr_dict_get(d, "tt.divisibility"), &div))
                ai.div[0] = div;
        }
        set_info(a, v, &ai);
    }
}

/* Gives v the facts ai (shared, not copied: see Slot). */
static void share_info(AxisAnalysis *a, Value *v, const AxisInfo *ai) {
    Slot *slot = info_slot(a, v);
    if (slot->info == ai || (slot->info && axis_info_equal(slot->info, ai))) return;
    slot->info = ai;
    slot->changed = ++a->clock;
}

static bool has_hints(const Op *op) {
    for (int i = 0; i < op->nattrs; i++) {
        const char *n = op->attrs[i].name;
        if (n == attr_names[AN_TT_DIVISIBILITY] || n == attr_names[AN_TT_CONTIGUITY] ||
            n == attr_names[AN_TT_CONSTANCY])
            return true;
    }
    return false;
}

/* Whether visit's final clamping leaves facts x of a value of type t as
 * they are. */
static bool clamped(const AxisInfo *x, const Type *t) {
    for (int d = 0; d < x->rank; d++)
        if (x->contig[d] < 1 || x->cnst[d] < 1 || x->div[d] < 1 || x->contig[d] > dim_size(t, d) ||
            x->cnst[d] > dim_size(t, d))
            return false;
    return true;
}

/* Gives v the facts *ai, computed in a->scratch: kept as they are if they
 * are new (the scratch is then v's), not copied. */
static void commit_info(AxisAnalysis *a, Value *v, AxisInfo *ai) {
    Slot *slot = info_slot(a, v);
    if (slot->info && axis_info_equal(slot->info, ai)) return;
    slot->info = ai;
    slot->changed = ++a->clock;
    a->scratch = NULL;
}

static bool is_ordering_pred(int64_t p) {
    return p != CMPI_EQ && p != CMPI_NE;
}

/* The facts of scf.for f's induction variable. */
static NOT_INLINE void visit_iv(AxisAnalysis *a, Op *f) {
    Block *body = f->regions[0].first;
    const AxisInfo *lb = info_of(a, op_operand(f, 0)), *st = info_of(a, op_operand(f, 2));
    AxisInfo iv = conservative(body->args[0]->type);
    iv.div[0] = gcd64(lb->div[0], st->div[0]);
    set_info(a, body->args[0], &iv);
}

/* The facts of op's result, from its operands': op has one integer, index
 * or pointer result (has_facts, which the callers ask). */
static void visit(AxisAnalysis *a, Op *op) {
    Value *r = op_result(op, 0);
    Type *t = r->type;
    const AxisInfo *x = op->noperands > 0 ? info_of(a, op_operand(op, 0)) : NULL;
    switch (op->kind) {
    case TTG_CONVERT_LAYOUT:
    case ARITH_EXTSI:
    case ARITH_EXTUI:
    case ARITH_TRUNCI:
    case ARITH_INDEX_CAST:
    case TT_BITCAST:
        /* the operand's facts, which the rules below would copy, clamp
         * (to the same shape) and leave as they are without hints */
        if (x->rank == info_rank(t) && !has_hints(op) && clamped(x, t)) {
            share_info(a, r, x);
            info_slot(a, r)->computed = a->clock;
            return;
        }
        break;
    default:
        break;
    }
    /* (the operands' facts first: asking for them may compute them, in
     * the scratch) */
    const AxisInfo *y = op->noperands > 1 ? info_of(a, op_operand(op, 1)) : NULL;
    const AxisInfo *z = op->kind == ARITH_SELECT && op->noperands > 2 ? info_of(a, op_operand(op, 2)) : NULL;
    /* (computed in place, in memory the facts keep if they are new: see
     * commit_info) */
    if (!a->scratch) a->scratch = new_info(a);
    AxisInfo *ai = a->scratch;
    set_conservative(ai, t);
    int rank = ai->rank;
    static const int64_t scalar_shape[1] = {1};
    const int64_t *shape = t->kind == TY_TENSOR ? t->shape : scalar_shape; /* (shape[d]) */
    int64_t c;
    switch (op->kind) {
    case ARITH_CONSTANT: {
        Attr *v = op_attr_k(op, AN_VALUE);
        if (v && attr_is_splat(v) && attr_as_int(v, &c)) set_constant(ai, t, c);
        break;
    }
    case TT_MAKE_RANGE: {
        int64_t start = 0, end = 0;
        op_attr_int_k(op, AN_START, &start);
        op_attr_int_k(op, AN_END, &end);
        ai->contig[0] = end - start;
        ai->div[0] = pow2_div(start);
        ai->cnst[0] = 1;
        break;
    }
    case TT_SPLAT:
        for (int d = 0; d < rank; d++) {
            ai->div[d] = x->div[0];
            ai->cnst[d] = shape[d];
            ai->contig[d] = 1;
        }
        ai->known = x->known;
        ai->value = x->value;
        break;
    case TT_BROADCAST: {
        Type *xt = op_operand(op, 0)->type;
        for (int d = 0; d < rank; d++) {
            bool bcast = dim_size(xt, d) == 1 && shape[d] != 1;
            ai->div[d] = x->div[d < x->rank ? d : 0];
            ai->contig[d] = bcast ? 1 : x->contig[d];
            ai->cnst[d] = bcast ? shape[d] : x->cnst[d];
        }
        ai->known = x->known;
        ai->value = x->value;
        break;
    }
    case TT_EXPAND_DIMS: {
        int64_t axis = 0;
        op_attr_int_k(op, AN_AXIS, &axis);
        /* Along the new axis each element is its own run: what divides
         * every element, not a run's first (a contiguous dim's divisibility
         * describes only its runs' starts: [32, 33, ...] divides by 1) */
        int64_t every = x->known ? pow2_div(x->value) : MAX_DIV;
        for (int d = 0; d < x->rank && !x->known; d++) every = gcd64(every, x->contig[d] > 1 ? 1 : x->div[d]);
        for (int d = 0, s = 0; d < rank; d++) {
            if (d == axis) {
                ai->contig[d] = 1;
                ai->cnst[d] = 1;
                ai->div[d] = every;
            } else {
                ai->contig[d] = x->contig[s];
                ai->cnst[d] = x->cnst[s];
                ai->div[d] = x->div[s];
                s++;
            }
        }
        ai->known = x->known;
        ai->value = x->value;
        break;
    }
    case TTG_CONVERT_LAYOUT:
    case ARITH_EXTSI:
    case ARITH_EXTUI:
    case ARITH_TRUNCI:
    case ARITH_INDEX_CAST:
    case TT_BITCAST:
        if (x->rank == rank) *ai = *x;
        break;
    case ARITH_ADDI:
    case ARITH_SUBI:
    case TT_ADDPTR: {
        int64_t scale = op->kind == TT_ADDPTR ? elem_bytes(t) : 1;
        for (int d = 0; d < rank; d++) {
            if (op->kind == ARITH_SUBI) ai->contig[d] = gcd64(x->contig[d], y->cnst[d]);
            else ai->contig[d] = max64(gcd64(x->contig[d], y->cnst[d]), gcd64(x->cnst[d], y->contig[d]));
            ai->div[d] = gcd64(x->div[d], min64(MAX_DIV, y->div[d] * scale));
            ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
        }
        if (x->known && y->known) {
            ai->known = true;
            ai->value = op->kind == ARITH_SUBI ? x->value - y->value : x->value + y->value * scale;
        }
        break;
    }
    case ARITH_MULI:
        for (int d = 0; d < rank; d++) {
            /* a contiguous run's divisibility is its first element's: times
             * anything but 1, the other elements ([4, 5, 6, 7] * 2) are
             * not that divisible, and the product is no longer a run */
            bool x_one = x->known && x->value == 1, y_one = y->known && y->value == 1;
            int64_t dx = x->contig[d] > 1 && !y_one ? 1 : x->div[d];
            int64_t dy = y->contig[d] > 1 && !x_one ? 1 : y->div[d];
            ai->div[d] = min64(MAX_DIV, dx * dy);
            ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
            if (y->known && y->value == 1) ai->contig[d] = x->contig[d];
            if (x->known && x->value == 1) ai->contig[d] = y->contig[d];
        }
        if (x->known && y->known) ai->known = true, ai->value = x->value * y->value;
        break;
    case ARITH_DIVSI:
    case ARITH_DIVUI:
        for (int d = 0; d < rank; d++) {
            ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
            if (y->known && y->value > 0) {
                /* a run of n consecutive values starting at a multiple of
                 * the divisor c maps to runs of c equal quotients */
                if (x->contig[d] > 1) ai->cnst[d] = max64(ai->cnst[d], gcd64(x->contig[d], y->div[d]));
                if (x->div[d] % y->value == 0 && (y->value & (y->value - 1)) == 0)
                    ai->div[d] = x->div[d] / y->value;
                if (y->value == 1) ai->contig[d] = x->contig[d];
            } else if (x->contig[d] > 1 && y->div[d] > 1) {
                /* a divisor known only to be a multiple of m, the same along
                 * the run (`offs_k // C`, C:16): runs of consecutive values
                 * that start at multiples of m give runs of m equal quotients */
                int64_t run = min64(gcd64(x->contig[d], gcd64(x->div[d], y->div[d])), y->cnst[d]);
                ai->cnst[d] = max64(ai->cnst[d], run);
            }
        }
        break;
    case ARITH_REMSI:
    case ARITH_REMUI:
        for (int d = 0; d < rank; d++) {
            ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
            if (y->known && y->value > 0) {
                ai->contig[d] = gcd64(x->contig[d], y->div[d]);
                ai->div[d] = gcd64(x->div[d], y->div[d]);
            } else if (y->div[d] > 1) {
                /* the same for a divisor known to be a multiple of m, constant
                 * along the run (`offs_k % C`, C:16): the remainders of a run
                 * that starts at a multiple of m wrap only at multiples of m */
                ai->contig[d] = min64(gcd64(x->contig[d], gcd64(x->div[d], y->div[d])), y->cnst[d]);
                ai->div[d] = gcd64(x->div[d], y->div[d]);
            }
        }
        break;
    case ARITH_SHLI:
        for (int d = 0; d < rank; d++) {
            ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
            if (y->known && y->value >= 0 && y->value < 30) /* x * 2^c, as ARITH_MULI */
                ai->div[d] = min64(MAX_DIV, (x->contig[d] > 1 && y->value ? 1 : x->div[d]) << y->value);
            if (y->known && y->value == 0) ai->contig[d] = x->contig[d];
        }
        break;
    case ARITH_SHRSI:
    case ARITH_SHRUI:
    case ARITH_ANDI:
    case ARITH_ORI:
    case ARITH_XORI:
    case ARITH_MAXSI:
    case ARITH_MINSI:
    case ARITH_MAXUI:
    case ARITH_MINUI:
    case TT_MULHIUI:
        for (int d = 0; d < rank; d++) ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
        break;
    case ARITH_CMPI:
    case ARITH_CMPF: {
        int64_t pred = 0;
        op_attr_int_k(op, AN_PREDICATE, &pred);
        for (int d = 0; d < rank; d++) {
            ai->cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
            if (op->kind == ARITH_CMPI && is_ordering_pred(pred)) {
                /* x contiguous in aligned runs, y constant over them */
                if (y->cnst[d] == shape[d] && x->contig[d] > 1)
                    ai->cnst[d] = max64(ai->cnst[d], gcd64(gcd64(x->contig[d], x->div[d]), y->div[d]));
                if (x->cnst[d] == shape[d] && y->contig[d] > 1)
                    ai->cnst[d] = max64(ai->cnst[d], gcd64(gcd64(y->contig[d], y->div[d]), x->div[d]));
            }
        }
        break;
    }
    case ARITH_SELECT: {
        for (int d = 0; d < rank; d++) {
            int64_t cd = x->rank == rank ? x->cnst[d] : shape[d];
            ai->cnst[d] = gcd64(cd, gcd64(y->cnst[d], z->cnst[d]));
            ai->div[d] = gcd64(y->div[d], z->div[d]);
            ai->contig[d] = gcd64(cd, min64(y->contig[d], z->contig[d]));
        }
        break;
    }
    default:
        break;
    }
    for (int d = 0; d < rank; d++) {
        int64_t n = shape[d], cg = ai->contig[d] < 1 ? 1 : ai->contig[d], k = ai->cnst[d] < 1 ? 1 : ai->cnst[d];
        ai->contig[d] = min64(cg, n);
        ai->cnst[d] = min64(k, n);
        if (ai->div[d] < 1) ai->div[d] = 1;
    }
    apply_hints(op, ai);
    commit_info(a, r, ai);
    info_slot(a, r)->computed = a->clock;
}

/* Whether op's result may get other facts than it has: never computed, or
 * an operand's changed since. */
static inline bool stale(AxisAnalysis *a, const Op *op) {
    uint32_t at = info_slot(a, &op->results[0])->computed;
    if (!at) return true;
    for (int i = 0; i < op->noperands; i++)
        if (info_slot(a, op->operands[i].value)->changed > at) return true;
    return false;
}

/* ---- the walk, with scf.for's fixed point ---------------------------------- */

static AxisInfo meet(const AxisInfo *x, const AxisInfo *y) {
    AxisInfo m = *x;
    for (int d = 0; d < m.rank; d++) {
        m.contig[d] = gcd64(x->contig[d], y->contig[d]);
        m.div[d] = gcd64(x->div[d], y->div[d]);
        m.cnst[d] = gcd64(x->cnst[d], y->cnst[d]);
    }
    m.known = x->known && y->known && x->value == y->value;
    if (!m.known) m.value = 0;
    return m;
}

bool axis_info_equal(const AxisInfo *x, const AxisInfo *y) {
    if (x->rank != y->rank || x->known != y->known || x->value != y->value) return false;
    /* (a loop, not three calls to memcmp: ranks are 1 to 4) */
    for (int d = 0; d < x->rank && d < TTG_MAX_RANK; d++)
        if (x->contig[d] != y->contig[d] || x->div[d] != y->div[d] || x->cnst[d] != y->cnst[d]) return false;
    return true;
}

static void walk_block(AxisAnalysis *a, Block *b);

/* A loop walked whole (walk_for) is marked in its induction variable's
 * `computed`, which no rule reads (it is stale's, for op results). */
static Value *loop_iv(Op *f) { return f->regions[0].first->args[0]; }
static bool solved(AxisAnalysis *a, Op *f) { return info_slot(a, loop_iv(f))->computed != 0; }
static void mark_solved(AxisAnalysis *a, Op *f) { info_slot(a, loop_iv(f))->computed = 1; }

/* Rounds of the loop-carried fixed point before giving up on it (each
 * round only lowers powers of two, so two or three are the most seen). */
#define FOR_ROUNDS 6

static void walk_for(AxisAnalysis *a, Op *f) {
    visit_iv(a, f);
    Block *body = f->regions[0].first;
    Op *y = block_terminator(body);
    int n = f->noperands - 3;
    if (!y || y->noperands < n || body->nargs < n + 1) {
        walk_block(a, body);
        mark_solved(a, f);
        return;
    }
    for (int i = 0; i < n; i++) set_info(a, body->args[i + 1], info_of(a, op_operand(f, 3 + i)));
    for (int round = 0;; round++) {
        walk_block(a, body);
        bool changed = false;
        for (int i = 0; i < n; i++) {
            Value *arg = body->args[i + 1];
            AxisInfo m = meet(info_of(a, arg), info_of(a, op_operand(y, i)));
            if (!axis_info_equal(&m, info_of(a, arg))) {
                set_info(a, arg, &m);
                changed = true;
            }
        }
        if (!changed) break;
        if (round == FOR_ROUNDS) {
            for (int i = 0; i < n; i++) {
                AxisInfo c = conservative(body->args[i + 1]->type);
                set_info(a, body->args[i + 1], &c);
            }
            walk_block(a, body);
            break;
        }
    }
    for (int i = 0; i < n && i < f->nresults; i++) set_info(a, op_result(f, i), info_of(a, body->args[i + 1]));
    mark_solved(a, f);
}

/* Whether visit can give op's result facts: one integer, index or pointer
 * result (visit's own first test, asked here for the many float ops
 * without a call). */
static inline bool has_facts_type(Type *t) {
    TypeKind k = ty_elem(t)->kind;
    return k == TY_INT || k == TY_PTR || k == TY_INDEX;
}

static inline bool has_facts(const Op *op) { return op->nresults == 1 && has_facts_type(op->results[0].type); }

static void walk_block(AxisAnalysis *a, Block *b) {
    for (Op *op = b->first; op; op = op->next) {
        if (op->kind == SCF_FOR) {
            walk_for(a, op);
            continue;
        }
        if (has_facts(op) && stale(a, op)) visit(a, op);
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].first; rb; rb = rb->next) walk_block(a, rb);
    }
}

/* ---- facts on demand ---------------------------------------------------------
 *
 * Most values' facts are never read: a mask is asked about only where its
 * load or store is vectorised, and the values it is made of not at all. So
 * the facts of the values there are when the analysis is made are computed
 * when first asked for, with those of the values they are computed from
 * (the closure of the operands the rules read), each once: what the walk
 * in program order would give them, for the facts of an op's result depend
 * on its operands' only. A loop's induction variable needs only the bounds;
 * the carried values, and the loop's results, need the whole loop's fixed
 * point (walk_for, once: the loop is then `solved`).
 *
 * That holds while the IR they are computed from has the facts the IR the
 * analysis was made from had, which is what keeping an analysis asks of the
 * edits (axis_info.h) but for pipeline-async-copy's rebuilding of loops:
 * before it, axis_analysis_complete computes every fact there is left. */

typedef struct Pending {
    Op *op;
    int next;
} Pending;

static NOT_INLINE void grow_pending(AxisAnalysis *a) {
    int cap = a->cap ? 2 * a->cap : 64;
    Pending *p = ARENA_ARRAY(a->ctx->arena, Pending, cap);
    if (a->npending) memcpy(p, a->pending, sizeof *p * (size_t)a->npending);
    a->pending = p;
    a->cap = cap;
}

/* Whether v's facts are computed by visiting its defining op; if not,
 * gives v its facts: a loop's induction variable those of its bounds, its
 * carried values and results those of its fixed point, the rest (other
 * block arguments, the function's have theirs, and the results of the
 * other ops of several results: tt.split's halves, an scf.if's) the
 * conservative ones. */
static NOT_INLINE bool by_visit_slow(AxisAnalysis *a, Value *v) {
    Op *d = v->def, *f = d && d->kind == SCF_FOR ? d : NULL;
    if (!d) {
        Block *b = v->owner_block;
        f = b && b->parent ? b->parent->parent : NULL;
        if (f && (f->kind != SCF_FOR || b != f->regions[0].first)) f = NULL;
    }
    if (f && !d && v->index == 0) visit_iv(a, f);
    else if (f && has_facts_type(v->type) && !solved(a, f)) walk_for(a, f);
    if (!has_info(a, v)) first_sight(a, v);
    return false;
}

static inline bool by_visit(AxisAnalysis *a, Value *v) {
    Op *d = v->def;
    return (d && d->kind != SCF_FOR && has_facts(d)) || by_visit_slow(a, v);
}

/* Gives v (made before the analysis, without facts) its facts, and the
 * values they are computed from theirs: depth first, with a stack of the
 * ops waiting for an operand rather than recursion (def chains run to
 * thousands of ops). Each op on the stack waits for its operand `next - 1`;
 * none is there twice (an op waits only for ops before it). */
static void demand(AxisAnalysis *a, Value *v) {
    if (!by_visit(a, v)) return;
    int base = a->npending;
    if (a->npending == a->cap) grow_pending(a);
    a->pending[a->npending++] = (Pending){v->def, 0};
    while (a->npending > base) {
        int top = a->npending - 1, i = a->pending[top].next;
        Op *d = a->pending[top].op, *wait = NULL;
        /* the operands the rules read (visit asks for any other itself) */
        int n = d->noperands < 3 ? d->noperands : 3;
        while (i < n) {
            Value *w = d->operands[i++].value;
            if (has_info(a, w)) continue;
            if (w->id >= a->limit) first_sight(a, w);
            else if (by_visit(a, w)) {
                wait = w->def;
                break;
            }
        }
        if (wait) {
            /* (by index: solving a loop asks for facts, which may move
             * the stack) */
            a->pending[top].next = i;
            if (a->npending == a->cap) grow_pending(a);
            a->pending[a->npending++] = (Pending){wait, 0};
            continue;
        }
        a->npending--;
        visit(a, d);
    }
}

static NOT_INLINE const AxisInfo *first_ask(AxisAnalysis *a, Value *v) {
    if (v->id < a->limit) {
        demand(a, v);
        return a->slots[v->id].info;
    }
    return first_sight(a, v);
}

/* The walk in program order of what demand has not computed yet: the
 * facts it computed outside the loops it did not solve are final (only a
 * loop's fixed point changes facts), and the loops it solved are done. */
static void complete_block(AxisAnalysis *a, Block *b) {
    for (Op *op = b->first; op; op = op->next) {
        if (op->kind == SCF_FOR) {
            if (!solved(a, op)) walk_for(a, op);
            continue;
        }
        if (has_facts(op) && !info_slot(a, &op->results[0])->computed) visit(a, op);
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].first; rb; rb = rb->next) complete_block(a, rb);
    }
}

void axis_analysis_complete(AxisAnalysis *a) {
    if (!a->limit) return;
    Op *func = a->func;
    for (int r = 0; r < func->nregions; r++)
        for (Block *b = func->regions[r].first; b; b = b->next) complete_block(a, b);
    a->limit = 0;
}

AxisAnalysis *axis_analyze(Context *c, Op *func) {
    AxisAnalysis *a = ARENA_NEW(c->arena, AxisAnalysis);
    a->ctx = c;
    a->func = func;
    /* (room for the values the passes after it make and bring in, the
     * layouts' conversions and clones: an eighth more than there are
     * spares copying the table when the first is made) */
    a->current = ctx_value_count(c);
    a->ncap = a->current + a->current / 8 + 16;
    a->slots = ARENA_ARRAY(c->arena, Slot, a->ncap);
    a->limit = a->current;
    if (func->kind == TT_FUNC) func_args(a, func);
    return a;
}

void axis_analysis_free(AxisAnalysis *a) { (void)a; }

/* ---- keeping one analysis ------------------------------------------------ */

AxisAnalysis *axis_analysis_get(Context *c, Op *func) {
    AxisAnalysis *k = c->axis;
    if (k && k->func == func && k->current == ctx_value_count(c)) return k;
    if (k && k->behind) {
        if (axis_analysis_update(k, func)) {
            k->behind = false;
            return k;
        }
        c->axis = NULL; /* (half brought up to date) */
    }
    return axis_analyze(c, func);
}

void axis_analysis_keep(Context *c, AxisAnalysis *a) {
    a->current = ctx_value_count(c);
    a->behind = false;
    c->axis = a;
}

void axis_analysis_keep_behind(Context *c, AxisAnalysis *a) {
    a->behind = true;
    c->axis = a;
}

void axis_analysis_drop(Context *c) { c->axis = NULL; }

void axis_analysis_add_op(AxisAnalysis *a, Op *op) {
    if (op->kind == SCF_FOR) visit_iv(a, op);
    else if (has_facts(op)) visit(a, op);
}

/* ---- bringing an analysis up to date ------------------------------------- */

static bool is_new(const AxisAnalysis *a, const Value *v) { return v->id >= a->current; }

/* Whether op, or anything in its regions, holds a value made since a was
 * last brought up to date. */
static bool holds_new(const AxisAnalysis *a, Op *op) {
    for (int i = 0; i < op->nresults; i++)
        if (is_new(a, &op->results[i])) return true;
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next) {
            for (int i = 0; i < b->nargs; i++)
                if (is_new(a, b->args[i])) return true;
            for (Op *o = b->first; o; o = o->next)
                if (holds_new(a, o)) return true;
        }
    return false;
}

/* A loop that holds new values, walked again as axis_analyze walks it;
 * false if the facts of one of its older carried values (which its results
 * have, and the values after it read) changed. */
static bool update_for(AxisAnalysis *a, Op *f) {
    Block *body = f->regions[0].first;
    AxisInfo *was = tc_malloc(sizeof *was * (size_t)(body->nargs + 1));
    for (int i = 0; i < body->nargs; i++) was[i] = *info_of(a, body->args[i]);
    walk_for(a, f);
    bool same = true;
    for (int i = 0; i < body->nargs && same; i++)
        same = is_new(a, body->args[i]) || axis_info_equal(&was[i], info_of(a, body->args[i]));
    tc_free(was);
    return same;
}

static bool update_block(AxisAnalysis *a, Block *b) {
    for (Op *op = b->first; op; op = op->next) {
        if (op->kind == SCF_FOR) {
            if (holds_new(a, op) && !update_for(a, op)) return false;
            continue;
        }
        if (has_facts(op) && is_new(a, &op->results[0])) visit(a, op);
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].first; rb; rb = rb->next)
                if (!update_block(a, rb)) return false;
    }
    return true;
}

bool axis_analysis_update(AxisAnalysis *a, Op *func) {
    if (func != a->func) return false;
    for (int r = 0; r < func->nregions; r++)
        for (Block *b = func->regions[r].first; b; b = b->next)
            if (!update_block(a, b)) return false;
    a->current = ctx_value_count(a->ctx);
    return true;
}

void axis_analysis_copy(AxisAnalysis *a, Value *to, Value *from) {
    /* (values without facts, as visit leaves them: unset, conservative when asked) */
    TypeKind k = ty_elem(to->type)->kind;
    if (k == TY_INT || k == TY_PTR || k == TY_INDEX) {
        const AxisInfo *f = info_of(a, from);
        Slot *slot = info_slot(a, to);
        slot->info = f; /* (shared: set_info replaces, never writes) */
        slot->changed = ++a->clock;
    }
}

void axis_info_print(const AxisInfo *ai, StrBuf *out) {
    const int64_t *v[3] = {ai->contig, ai->div, ai->cnst};
    const char *names[3] = {"contiguity", "divisibility", "constancy"};
    for (int k = 0; k < 3; k++) {
        sb_printf(out, "%s%s = [", k ? ", " : "", names[k]);
        for (int d = 0; d < ai->rank; d++) sb_printf(out, d ? ", %lld" : "%lld", (long long)v[k][d]);
        sb_putc(out, ']');
    }
    if (ai->known) sb_printf(out, ", constant_value = %lld", (long long)ai->value);
}
