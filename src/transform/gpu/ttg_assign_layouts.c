/*
 * ttg_assign_layouts.c - tt IR to ttg IR: give every tile a layout
 * (pass `ttg-assign-layouts`).
 *
 * Triton does this in three passes (convert-triton-to-tritongpu gives every
 * tile a default layout, coalesce re-lays loads and stores, remove-layout-
 * conversions propagates and cancels the conversions). Here it is one
 * propagation, which reaches the same fixed point on the kernels we see:
 *
 *  0. tensor-core dots first: an fp16, bf16 or tf32 tt.dot into fp32 whose
 *     shape mma.sync can tile gets, as its result's layout, the m16n8
 *     accumulator layout (ttg_mma_layout; warps split as Triton's
 *     warpsPerTileV2 splits them, or all along m for a dot that wgmma
 *     runs, as warpsPerTileV3 does: wgmma_shape), so that the accumulator, its zero init
 *     and its loop-carried copies hold it before a load or store can claim
 *     them; the store after the loop then takes a conversion;
 *  1. anchors: every load, store and atomic gets its coalesced layout
 *     (coalesce.c): all loads at once (each claims its own pointer, mask
 *     and result before any spreads), then the stores and atomics. A load
 *     or store of fewer elements than the CTA has threads is no anchor (as
 *     Triton's remove-layout-conversions has it, not "expensive"): it
 *     floats, laid out like an element-wise op by its neighbours, and gets
 *     its coalesced layout only if no anchor's layout reaches it;
 *  2. each anchor's layout spreads, breadth first, to every tile related to
 *     it that has none yet: through element-wise ops and broadcasts (same
 *     layout), expand_dims and reduce (slice <-> parent), and the
 *     loop-carried values of scf.for / scf.if / scf.while (same layout; a
 *     loop's body argument decides for its group once it has a layout);
 *     `tt.dot` spreads only between its accumulator and its result,
 *     `tt.gather` between its indices and its result, `tt.histogram`
 *     between its source and mask (its counts end up blocked), `tt.join`
 *     and `tt.cat` between their two operands; index arithmetic
 *     recomputable from scalars that several tiles share passes no layout
 *     from one of them to another;
 *  3. tiles still without a layout get Triton's default one, seeded from the
 *     last op backwards so that consumers decide for their producers;
 *  4. each op's operands that disagree with what the op needs are
 *     recomputed in the needed layout when they are cheap to recompute
 *     (ranges, splats, constants and element-wise ops of those: Triton's
 *     rematerialisation), or recomputed from the narrowest tiles they are
 *     made of, which are converted where they are made, when that moves
 *     fewer elements; else they get a ttg.convert_layout, where the
 *     operand is made if that is outside a loop the op is in, shared by
 *     every later op it dominates.
 */
#include "dialect/dialect.h"
#include "target/ptx/mma_plan.h"
#include "transform/gpu/gpu_passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct SliceMemo {
    const Layout *parent;
    int axis;
    const Layout *slice;
} SliceMemo;

/* An anchor's layout by what coalesce_build makes it from. */
typedef struct AnchorMemo {
    const Type *type;
    int order[TTG_MAX_RANK], per_thread;
    const Layout *layout;
} AnchorMemo;

typedef struct RematMemo {
    const Layout *layout;
    Value *clone;
    uint32_t prev; /* 1 + index of the previous clone of the same value, or 0 */
} RematMemo;

typedef struct LState {
    Context *ctx;
    const TtgOptions *opts;
    AxisAnalysis *aa;
    const Layout **layout; /* by Value.id (the values made before the pass) */
    uint32_t nvalues;
    /* the tiles among the results and block arguments collected, and how
     * many of them have a layout: the defaults' walk stops once all have */
    uint32_t ntiles, nplaced;
    /* the layouts of the memory accesses (loads, stores, atomics), by
     * their index in `accesses` (see anchor_of); NULL: not placed yet */
    const Layout **anchor;
    VEC(Value *) work;
    VEC(Op *) dots;     /* the function's tt.dots, in program order */
    VEC(Op *) accesses; /* its memory anchors, in program order */
    /* the first op making a tensor of a rank layouts cannot describe
     * (constants, hoisted, only when no other op does), and that rank */
    Op *too_deep;
    int too_deep_rank;
    /* ttg_with_layout's answers by (type, layout) address: the pass asks
     * for a thousand, of a few dozen pairs; its layouts live in the arena
     * and never change, so unlike the context's memo (which callers'
     * short-lived layouts reach) this one needs no check by content */
    struct { Type *t; const Layout *l; Type *r; } with[256];
    /* the slices made, by axis and (unique) parent: expand_dims and reduce
     * ask for the same few again and again */
    SliceMemo slices[16];
    int nslices;
    /* the anchors' layouts (the dozens of loads and stores of a kernel
     * have a few plans between them) */
    AnchorMemo anchors[16];
    int nanchors, anchor_next;
    /* keep_layout's last answers */
    const Layout *kept[8];
    int nkept, kept_next;
    /* the clones remat made: by Value.id, 1 + index of the newest for that
     * value in `remats` (each entry links to the one made before it), 0
     * for none; remat_cap long (values made by the pass come after) */
    uint32_t *remat_of;
    uint32_t remat_cap;
    VEC(RematMemo) remats;
    VEC(Op *) chained; /* dots chained_dot found connected to one asked about */
    VEC(Op *) floats;  /* the loads and stores marked `floating` */
    /* by Value.id (the values made before the pass): can_remat's depth
     * limit for the value, plus 2 (0: not known yet; see remat_room) */
    int8_t *room;
    /* by Value.id (the values made before the pass): cut_cost's answer for
     * the last layout asked about (NULL until cut_cost is first asked) */
    struct CutMemo { const Layout *layout; int64_t cost; } *cut;
    /* by rank: how accesses of that rank break ties between equally
     * contiguous dimensions, when tie_known[rank]; see tie_orders */
    int tie_order[TTG_MAX_RANK + 1][TTG_MAX_RANK];
    bool tie_known[TTG_MAX_RANK + 1];
    /* by index in `accesses`: its layout's dimension order and the
     * elements per thread it takes along the fastest (see access_widths) */
    int (*order)[TTG_MAX_RANK];
    int *width;
} LState;

static bool is_tile(const Value *v) { return v->type->kind == TY_TENSOR; }
static const Layout *lay(LState *s, Value *v) { return v->id < s->nvalues ? s->layout[v->id] : NULL; }

/* Every layout the pass hands out is the context's unique copy: the same
 * layout reaches thousands of values, and pointer-equal layouts make the
 * comparisons and ttg_with_layout's memo cheap. */
static const Layout *keep_layout(LState *s, Layout l) {
    /* (the layouts kept last are compared first, by content: the dozens
     * of loads and stores of a kernel have a few layouts between them,
     * and finding the unique copy hashes the layout and its text) */
    for (int i = 0; i < s->nkept; i++)
        if (ttg_layout_equal(s->kept[i], &l)) return s->kept[i];
    const Layout *u = ttg_layout_unique(s->ctx, &l);
    s->kept[s->nkept < TC_ARRAY_LEN(s->kept) ? s->nkept++ : s->kept_next++ % TC_ARRAY_LEN(s->kept)] = u;
    return u;
}

/* The unique slice of l (a layout the pass keeps) along axis. */
static const Layout *slice_of(LState *s, int axis, const Layout *l) {
    for (int i = 0; i < s->nslices; i++)
        if (s->slices[i].parent == l && s->slices[i].axis == axis) return s->slices[i].slice;
    const Layout *r = keep_layout(s, ttg_slice(s->ctx, axis, l));
    if (s->nslices < TC_ARRAY_LEN(s->slices)) s->slices[s->nslices++] = (SliceMemo){l, axis, r};
    return r;
}

/* ttg_with_layout, remembered (see LState.with). */
static Type *with_layout(LState *s, Type *t, const Layout *l) {
    unsigned h = (unsigned)((MAP_KEY(t) >> 4) ^ (MAP_KEY(l) >> 6)) % TC_ARRAY_LEN(s->with);
    if (t != s->with[h].t || l != s->with[h].l) {
        s->with[h].t = t, s->with[h].l = l;
        s->with[h].r = ttg_with_layout(s->ctx, t, l);
    }
    return s->with[h].r;
}

static inline void give(LState *s, Value *v, const Layout *l) {
    /* (most calls find v placed already: that test first) */
    if (v->id >= s->nvalues || s->layout[v->id] || !l || !is_tile(v) || l->rank != v->type->rank) return;
    s->layout[v->id] = l;
    s->nplaced++;
    vec_push(&s->work, v);
}

/* Whether give(v, ...) would take a layout: derived layouts are made only
 * for values that still need one (most relations are seen again and again
 * after both ends have theirs). */
static bool wants(LState *s, Value *v) { return is_tile(v) && !lay(s, v) && v->id < s->nvalues; }

/* (a table: asked of every op the propagation relates) */
static const bool memory_anchor_kind[OP_COUNT] = {
    [TT_LOAD] = true, [TT_STORE] = true, [TT_ATOMIC_RMW] = true, [TT_ATOMIC_CAS] = true,
};

static inline bool is_memory_anchor(const Op *op) { return memory_anchor_kind[op->kind]; }

/* Ops whose tile operands and results all share one layout: the
 * element-wise ones, and these (a table: the propagation and the
 * materialisation ask it of every op they meet). */
static const bool same_layout_kind[OP_COUNT] = {
    [TT_BROADCAST] = true, [TT_SCAN] = true, [ARITH_SELECT] = true, [ARITH_CMPI] = true,
    [ARITH_CMPF] = true, [TT_ELEMENTWISE_INLINE_ASM] = true, [TT_MAP_ELEMENTWISE] = true,
};

static inline bool same_layout_op(const Op *op) {
    return op_has_flag(op, OPF_ELEMENTWISE) || same_layout_kind[op->kind];
}

static int64_t op_axis(const Op *op) {
    int64_t axis = 0;
    op_attr_int_k(op, AN_AXIS, &axis);
    return axis;
}

static Op *owner_op(Value *arg) {
    return arg->owner_block && arg->owner_block->parent ? arg->owner_block->parent->parent : NULL;
}

static int arg_index(Value *v) { return v->index; }

/* Loop-carried groups: every value in a group has one layout; the body's
 * argument, once it has one, decides for the group (a value that comes to
 * the group with another layout is then converted once, outside the loop,
 * rather than at every iteration). */
static void for_group(LState *s, Op *f, int g, const Layout *l) {
    Block *body = f->regions[0].first;
    if (g + 1 < body->nargs && lay(s, body->args[g + 1])) l = lay(s, body->args[g + 1]);
    if (3 + g < f->noperands) give(s, op_operand(f, 3 + g), l);
    if (g + 1 < body->nargs) give(s, body->args[g + 1], l);
    if (g < f->nresults) give(s, op_result(f, g), l);
    Op *y = block_terminator(body);
    if (y && g < y->noperands) give(s, op_operand(y, g), l);
}

static void if_group(LState *s, Op *f, int g, const Layout *l) {
    if (g < f->nresults) give(s, op_result(f, g), l);
    for (int r = 0; r < f->nregions; r++) {
        Block *b = f->regions[r].first;
        Op *y = b ? block_terminator(b) : NULL;
        if (y && g < y->noperands) give(s, op_operand(y, g), l);
    }
}

/* scf.while: group A = inits, before-args, after-yield operands;
 * group B = condition operands (after the flag), after-args, results. */
static void while_group(LState *s, Op *w, bool b_group, int g, const Layout *l) {
    Block *before = w->regions[0].first, *after = w->regions[1].first;
    Block *carrier = b_group ? after : before;
    if (carrier && g < carrier->nargs && lay(s, carrier->args[g])) l = lay(s, carrier->args[g]);
    if (!b_group) {
        if (g < w->noperands) give(s, op_operand(w, g), l);
        if (before && g < before->nargs) give(s, before->args[g], l);
        Op *y = after ? block_terminator(after) : NULL;
        if (y && g < y->noperands) give(s, op_operand(y, g), l);
    } else {
        Op *cnd = before ? block_terminator(before) : NULL;
        if (cnd && g + 1 < cnd->noperands) give(s, op_operand(cnd, g + 1), l);
        if (after && g < after->nargs) give(s, after->args[g], l);
        if (g < w->nresults) give(s, op_result(w, g), l);
    }
}

/* The anchor layout marking a load or store of fewer elements than the
 * CTA has threads: as Triton's remove-layout-conversions counts it (not
 * an "expensive" access), it gains nothing from a coalesced layout of its
 * own (some threads hold copies whatever the layout; the emitter's
 * ownership predicates keep one store per element), so it takes the
 * layout its neighbours give it, like an element-wise op: the 16 pixel
 * offsets a convolution loads per tap need no conversion into the layout
 * of its 2-D tiles, nor a row's 16 sums into a 1-D layout of their own
 * before their store. Atomics keep their own layouts. */
static const Layout floating;

/* An op's `mark` while the layouts spread (collect clears it): bit 0,
 * RELATED, that the op is a same-layout op or an anchor whose values all
 * took what relate gave them (it gives to all at once, and give never
 * overwrites: relating it again changes nothing); the bits above, for a
 * memory access, 1 + its index in `accesses` (set once the dots are laid
 * out: chained_dot has the marks before). */
enum { RELATED = 1, ACCESS_SHIFT = 1 };

/* Where a memory access's layout is kept (in place of a map by address:
 * the propagation asks for it at every access it relates). */
static inline const Layout **anchor_of(LState *s, const Op *op) {
    return &s->anchor[(op->mark >> ACCESS_SHIFT) - 1];
}

/* The ops relate_op leaves to relate_special (a table: relate_op asks it
 * of every op it relates). */
static const bool special_relate_kind[OP_COUNT] = {
    [TT_EXPAND_DIMS] = true, [TT_REDUCE] = true, [TT_TRANS] = true, [TT_GATHER] = true, [TT_HISTOGRAM] = true, [TT_DOT] = true,
    [TT_JOIN] = true, [TT_CAT] = true,
    [SCF_FOR] = true, [SCF_IF] = true, [SCF_WHILE] = true, [SCF_YIELD] = true, [SCF_CONDITION] = true,
};

/* relate_op for the ops that relate their values other than all alike:
 * slices, permutations, the dots' and gathers' operands, control flow. */
static NOT_INLINE void relate_special(LState *s, Op *op, Value *v) {
    const Layout *l = lay(s, v);
    bool is_result = v->def == op;
    bool is_arg = !v->def && owner_op(v) == op;
    switch (op->kind) {
    case TT_EXPAND_DIMS:
        /* (the axis read only when a layout may pass: mostly the other
         * end has one already) */
        if (is_result) {
            if (wants(s, op_operand(op, 0))) give(s, op_operand(op, 0), slice_of(s, (int)op_axis(op), l));
        } else if (l->kind == LAYOUT_SLICE && wants(s, op_result(op, 0)) && l->dim == (int)op_axis(op)) {
            give(s, op_result(op, 0), l->parent);
        }
        return;
    case TT_REDUCE: {
        int axis = (int)op_axis(op);
        const Layout *parent = NULL;
        if (is_result) {
            if (l->kind == LAYOUT_SLICE && l->dim == axis) parent = l->parent;
        } else if (!is_arg) {
            parent = l;
        }
        if (!parent) return;
        for (int i = 0; i < op->noperands; i++) give(s, op_operand(op, i), parent);
        bool want = false;
        for (int i = 0; i < op->nresults; i++) want |= wants(s, op_result(op, i));
        if (parent->rank > 1 && want) {
            const Layout *sl = slice_of(s, axis, parent);
            for (int i = 0; i < op->nresults; i++) give(s, op_result(op, i), sl);
        }
        return;
    }
    case TT_TRANS: {
        /* the result's layout is the operand's with its dimensions permuted
         * (result dimension k is operand dimension order[k]): each thread
         * keeps its elements, and the PTX moves nothing */
        Attr *oa = op_attr_k(op, AN_ORDER);
        if (!l || l->kind != LAYOUT_BLOCKED || !oa || oa->kind != ATTR_DENSE_ARRAY || oa->dense.nvals != l->rank)
            return;
        const int64_t *ord = oa->dense.ints;
        Layout t = *l;
        int inv[TTG_MAX_RANK];
        for (int k = 0; k < l->rank; k++) inv[ord[k]] = k;
        for (int k = 0; k < l->rank; k++) {
            /* to the result: dimension k from the operand's ord[k]; back: the inverse */
            int from = is_result ? inv[k] : (int)ord[k];
            t.spt[k] = l->spt[from];
            t.tpw[k] = l->tpw[from];
            t.wpc[k] = l->wpc[from];
            t.order[k] = is_result ? (int)ord[l->order[k]] : inv[l->order[k]];
        }
        if (is_result) give(s, op_operand(op, 0), keep_layout(s, t));
        else if (!is_arg) give(s, op_result(op, 0), keep_layout(s, t));
        return;
    }
    case TT_GATHER:
        /* each thread reads the source elements of the indices it holds:
         * indices and result share a layout, the source keeps its own */
        if (is_result || op_operand(op, 1) == v) {
            give(s, op_operand(op, 1), l);
            give(s, op_result(op, 0), l);
        }
        return;
    case TT_HISTOGRAM:
        /* the source and its mask share a layout; the counts (a tile of
         * another shape) take theirs from their users, or the default */
        if (!is_result && !is_arg)
            for (int i = 0; i < op->noperands; i++) give(s, op_operand(op, i), l);
        return;
    case TT_JOIN:
    case TT_CAT:
        /* the two operands are one type, layout included; the result (a
         * rank higher, or twice as long) takes its own from its users */
        if (!is_result && !is_arg)
            for (int i = 0; i < op->noperands; i++) give(s, op_operand(op, i), l);
        return;
    case TT_DOT:
        if (is_result || (!is_arg && op->noperands > 2 && op_operand(op, 2) == v)) {
            give(s, op_operand(op, 2), l);
            give(s, op_result(op, 0), l);
        }
        return;
    case SCF_FOR:
        if (is_result) for_group(s, op, v->index, l);
        else if (is_arg && arg_index(v) > 0) for_group(s, op, arg_index(v) - 1, l);
        else
            for (int i = 3; i < op->noperands; i++)
                if (op_operand(op, i) == v) for_group(s, op, i - 3, l);
        return;
    case SCF_IF:
        if (is_result) if_group(s, op, v->index, l);
        return;
    case SCF_WHILE:
        if (is_result) while_group(s, op, true, v->index, l);
        else if (is_arg) while_group(s, op, v->owner_block == op->regions[1].first, arg_index(v), l);
        else
            for (int i = 0; i < op->noperands; i++)
                if (op_operand(op, i) == v) while_group(s, op, false, i, l);
        return;
    case SCF_YIELD:
    case SCF_CONDITION: {
        Op *p = op_parent_op(op);
        if (!p) return;
        for (int i = 0; i < op->noperands; i++) {
            if (op_operand(op, i) != v) continue;
            if (p->kind == SCF_FOR) for_group(s, p, i, l);
            else if (p->kind == SCF_IF) if_group(s, p, i, l);
            else if (p->kind == SCF_WHILE && op->kind == SCF_YIELD) while_group(s, p, false, i, l);
            else if (p->kind == SCF_WHILE && i > 0) while_group(s, p, true, i - 1, l);
        }
        return;
    }
    default:
        return;
    }
}

/* relate_op for the common ops, the same-layout ones and the anchors. */
static NOT_INLINE void relate_common(LState *s, Op *op, Value *v) {
    const Layout *l;
    if (is_memory_anchor(op)) {
        l = *anchor_of(s, op);
        if (!l) return; /* not placed yet: related again once it is */
        if (l == &floating) l = lay(s, v);
    } else if (same_layout_op(op)) {
        l = lay(s, v);
    } else {
        return;
    }
    for (int i = 0; i < op->noperands; i++) give(s, op_operand(op, i), l);
    for (int i = 0; i < op->nresults; i++) give(s, op_result(op, i), l);
    /* (one without results, a store, is related again: what that gives
     * was given already) */
    if (op->nresults) op->mark |= RELATED;
}

/* Spreads v's layout to the values op relates it to (v is an operand or a
 * result of op, or an argument of one of op's blocks). */
static ALWAYS_INLINE void relate_op(LState *s, Op *op, Value *v) {
    if (special_relate_kind[op->kind]) relate_special(s, op, v);
    else relate_common(s, op, v);
}

/* relate_op, but for the common case, an op all of whose values took the
 * layout at once before (an element-wise op is reached from each of its
 * operands and its result, and the first did it all). */
static ALWAYS_INLINE void relate(LState *s, Op *op, Value *v) {
    if (!(op->mark & RELATED)) relate_op(s, op, v);
}

/* The order of a rank's accesses whose pointers are equally contiguous
 * along their fastest dimensions (a gather usually is contiguous along
 * none): that of the function's writes of that rank (stores and atomics)
 * contiguous along one dimension more than along any other, when they all
 * agree; without those, that of such loads. AxisInfo cannot tell which of
 * the tied dimensions moves through memory slowly, but the other accesses
 * can: the tiles a kernel gathers are mostly indexed like the tile it
 * writes (output pixels by rows, channels by columns, or the other way
 * round), and a gather indexed like the output reads neighbouring addresses
 * along the dimension the output is contiguous along (the pixels of a
 * convolution's input window, of a deformable convolution's samples, of a
 * pooling window); a scatter writes where the tile it scatters was read.
 * Threads running along that dimension coalesce; along the other they
 * touch a line each. A fixed rule is right for one kernel and wrong for the
 * next: Triton's (dimension order) puts the threads of an NCHW
 * convolution's [channels, pixels] input tile along the channels and those
 * of a deformable convolution's [pixels, channels] one along the pixels;
 * row-major order (coalesce_layout's when no access tells) does the
 * reverse. This is right for both. */
static void tie_orders(LState *s) {
    enum { WRITES, READS };
    int order[2][TTG_MAX_RANK + 1][TTG_MAX_RANK];
    bool known[2][TTG_MAX_RANK + 1] = {{0}}, conflict[2][TTG_MAX_RANK + 1] = {{0}};
    for (int i = 0; i < s->accesses.len; i++) {
        Op *op = s->accesses.data[i];
        if (!is_tile(op_operand(op, 0))) continue;
        Value *ptr = op_operand(op, 0);
        int rank = ptr->type->rank, o[TTG_MAX_RANK], w = op->kind == TT_LOAD ? READS : WRITES;
        if (rank < 2 || !coalesce_decided(s->aa, ptr, o)) continue;
        if (!known[w][rank]) {
            memcpy(order[w][rank], o, sizeof o[0] * (size_t)rank);
            known[w][rank] = true;
        } else if (memcmp(order[w][rank], o, sizeof o[0] * (size_t)rank) != 0) {
            conflict[w][rank] = true;
        }
    }
    for (int r = 2; r <= TTG_MAX_RANK; r++)
        for (int w = WRITES; w <= READS && !s->tie_known[r]; w++)
            if (known[w][r] && !conflict[w][r]) {
                memcpy(s->tie_order[r], order[w][r], sizeof order[w][r]);
                s->tie_known[r] = true;
            }
}

/* Union-find over values (by id): the ops' def-use graph, undirected. */
static uint32_t uf_find(uint32_t *up, uint32_t x) {
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
}
static void uf_join(uint32_t *up, uint32_t nvalues, Value *a, Value *b) {
    if (a->id >= nvalues || b->id >= nvalues) return;
    uint32_t x = uf_find(up, a->id), y = uf_find(up, b->id);
    if (x != y) up[x < y ? y : x] = x < y ? x : y;
}

/* Joins each op's operands, results and (for ops with regions) the
 * arguments of their blocks, in `b` and the blocks nested in it. */
static void join_block(LState *s, uint32_t *up, Block *b) {
    for (Op *o = b->first; o; o = o->next) {
        Value *first = o->noperands ? op_operand(o, 0) : o->nresults ? op_result(o, 0) : NULL;
        for (int k = 0; first && k < o->noperands; k++) uf_join(up, s->nvalues, first, op_operand(o, k));
        for (int k = 0; first && k < o->nresults; k++) uf_join(up, s->nvalues, first, op_result(o, k));
        for (int r = 0; r < o->nregions; r++)
            for (Block *in = o->regions[r].first; in; in = in->next) {
                for (int k = 0; first && k < in->nargs; k++) uf_join(up, s->nvalues, first, in->args[k]);
                join_block(s, up, in);
            }
    }
}

/* The elements per thread of each access's layout, as Triton's coalesce
 * gives them: its own (coalesce_plan: what the pointer's contiguity and
 * alignment allow, at most 16 bytes and the elements there are per
 * thread); a load then takes the widest of the accesses related to it
 * (through any chain of defs and uses) whose pointer tile has its shape
 * and order. A load whose address is less aligned than a neighbour's
 * (`x_ptr + pid * N + cols` beside `acc_ptr + cols`) is then laid out like
 * that neighbour, each thread reading its run of elements one at a time,
 * rather than converted to the neighbour's layout through shared memory
 * after loading. A store or atomic keeps its own: each thread's elements
 * there are written by one instruction. Unlike Triton's, a load is not
 * widened past the narrowest store or atomic among those: that would only
 * move its conversion to the store (a layer norm's backward, whose weights
 * are aligned and rows are not, would convert each of its three stores'
 * values rather than the weights once). */
static void access_widths(LState *s, Op *func) {
    int n = s->accesses.len, nw = s->opts->num_warps, tpw = s->opts->threads_per_warp;
    int (*orders)[TTG_MAX_RANK] = s->order = tc_calloc((size_t)n + 1, sizeof *s->order);
    s->width = tc_calloc((size_t)n + 1, sizeof *s->width);
    bool mixed = false;
    for (int i = 0; i < n; i++) {
        Value *ptr = op_operand(s->accesses.data[i], 0);
        int rank = ptr->type->rank;
        if (!is_tile(ptr)) continue;
        const int *prefer = s->tie_known[rank] ? s->tie_order[rank] : NULL;
        s->width[i] = coalesce_plan(s->aa, ptr, nw, tpw, prefer, orders[i]);
        for (int j = 0; j < i && !mixed; j++)
            mixed = s->width[j] && s->width[j] != s->width[i] && op_operand(s->accesses.data[j], 0)->type->rank == rank;
    }
    if (mixed) { /* (else no access changes: most kernels) */
        uint32_t *up = tc_malloc(((size_t)s->nvalues + 1) * sizeof *up);
        for (uint32_t v = 0; v < s->nvalues; v++) up[v] = v;
        for (int r = 0; r < func->nregions; r++)
            for (Block *b = func->regions[r].first; b; b = b->next) join_block(s, up, b);
        int *own = tc_malloc(((size_t)n + 1) * sizeof *own);
        memcpy(own, s->width, (size_t)n * sizeof *own);
        for (int i = 0; i < n; i++) {
            Op *op = s->accesses.data[i];
            Value *ptr = op_operand(op, 0);
            if (op->kind != TT_LOAD || !own[i] || ptr->id >= s->nvalues) continue;
            uint32_t root = uf_find(up, ptr->id);
            int widest = own[i], narrowest_write = INT32_MAX;
            for (int j = 0; j < n; j++) {
                Value *q = op_operand(s->accesses.data[j], 0);
                if (j == i || !own[j] || q->id >= s->nvalues || !ty_same_shape(q->type, ptr->type) ||
                    memcmp(orders[j], orders[i], sizeof orders[i][0] * (size_t)ptr->type->rank) != 0 ||
                    uf_find(up, q->id) != root)
                    continue;
                if (own[j] > widest) widest = own[j];
                if (s->accesses.data[j]->kind != TT_LOAD && own[j] < narrowest_write) narrowest_write = own[j];
            }
            if (widest > narrowest_write) widest = narrowest_write > own[i] ? narrowest_write : own[i];
            s->width[i] = widest;
        }
        tc_free(own);
        tc_free(up);
    }
}

/* Lays a memory op out as an anchor: its pointer tile's coalesced layout
 * (access_widths' elements per thread), given to its operands and results
 * (spread by the next propagate). */
static void place_anchor(LState *s, Op *op) {
    Value *ptr = op_operand(op, 0);
    int rank = ptr->type->rank, nw = s->opts->num_warps, tpw = s->opts->threads_per_warp;
    int at = (op->mark >> ACCESS_SHIFT) - 1, per_thread = s->width[at];
    const int *order = s->order[at];
    const Layout *a = NULL;
    for (int i = 0; i < s->nanchors && !a; i++) {
        const AnchorMemo *m = &s->anchors[i];
        if (m->type == ptr->type && m->per_thread == per_thread &&
            memcmp(m->order, order, sizeof order[0] * (size_t)rank) == 0)
            a = m->layout;
    }
    if (!a) {
        a = keep_layout(s, coalesce_build(ptr->type, order, per_thread, nw, tpw));
        AnchorMemo *m = &s->anchors[s->nanchors < TC_ARRAY_LEN(s->anchors) ? s->nanchors++
                                                                         : s->anchor_next++ % TC_ARRAY_LEN(s->anchors)];
        *m = (AnchorMemo){.type = ptr->type, .per_thread = per_thread, .layout = a};
        memcpy(m->order, order, sizeof order[0] * (size_t)rank);
    }
    *anchor_of(s, op) = a;
    for (int k = 0; k < op->nresults; k++) give(s, op_result(op, k), a);
    for (int k = 0; k < op->noperands; k++) give(s, op_operand(op, k), a);
}

/* Marks a load or store `floating` and relates it if a neighbour has a layout
 * already (it was skipped then: not placed yet). */
static void float_access(LState *s, Op *op) {
    *anchor_of(s, op) = &floating;
    vec_push(&s->floats, op);
    for (int i = 0; i < op->noperands; i++)
        if (lay(s, op_operand(op, i))) {
            relate_op(s, op, op_operand(op, i));
            return;
        }
    if (op->nresults && lay(s, op_result(op, 0))) relate_op(s, op, op_result(op, 0));
}

static inline bool cheap_op(const Op *op);
static inline int remat_room(LState *s, Value *x);

/* Control flow: loops, ifs and their terminators. */
static bool is_scf(const Op *op) {
    return op->kind == SCF_FOR || op->kind == SCF_WHILE || op->kind == SCF_IF || op->kind == SCF_YIELD ||
           op->kind == SCF_CONDITION;
}

/* A layout spreads from a value to its users, except from index
 * arithmetic that can be recomputed from scalars (ranges, splats,
 * constants and cheap ops of those) to users other than control flow:
 * that is shared by tiles that want different layouts (CSE makes
 * `tl.arange(0, 16)` one value for the rows of one tile and the columns of
 * another), and each user gets its own copy in its own layout when the ops
 * are materialised; spreading one user's layout through it to the others
 * would make them convert. (A loop's initial value still gives the loop
 * its layout: a zero accumulator is often the first that reaches it.) */
static void propagate(LState *s) {
    while (s->work.len) {
        Value *v = vec_pop(&s->work);
        if (v->def) relate(s, v->def, v);
        else if (owner_op(v)) relate(s, owner_op(v), v);
        bool shared_index = v->uses && v->uses->next && v->def && cheap_op(v->def) && remat_room(s, v) >= 0;
        for (Use *u = v->uses; u; u = u->next)
            if (!shared_index || is_scf(u->owner)) relate(s, u->owner, v);
    }
}

static inline void collect_op(LState *s, Op *op) {
    op->mark = 0; /* (not RELATED) */
    if (op->kind == TT_DOT) vec_push(&s->dots, op);
    else if (is_memory_anchor(op)) vec_push(&s->accesses, op);
    for (int k = 0; k < op->nresults; k++) {
        Type *t = op_result(op, k)->type;
        if (t->kind != TY_TENSOR) continue;
        s->ntiles++;
        if (t->rank > TTG_MAX_RANK &&
            (!s->too_deep || (s->too_deep->kind == ARITH_CONSTANT && op->kind != ARITH_CONSTANT))) {
            s->too_deep = op;
            s->too_deep_rank = t->rank;
        }
    }
}

/* root and the ops nested in it, in pre-order, as op_walk visits them (a
 * loop over each block, not a callback per op): their marks cleared, the
 * dots and accesses listed, the tiles counted */
static void collect(LState *s, Op *root) {
    collect_op(s, root);
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next) {
            for (int k = 0; k < b->nargs; k++) s->ntiles += is_tile(b->args[k]);
            for (Op *o = b->first; o; o = o->next) {
                if (o->nregions) collect(s, o);
                else collect_op(s, o);
            }
        }
}

static const Layout *default_layout(LState *s, Type *t) {
    return keep_layout(s, ttg_default_blocked(t->shape, t->rank, s->opts->num_warps, s->opts->threads_per_warp));
}

/* ---- materialisation --------------------------------------------------- */

static inline const Layout *type_layout(LState *s, Type *t) {
    /* (a tile type's decoded layout, once decoded, without the call) */
    return t->kind == TY_TENSOR && t->layout ? t->layout : ttg_layout_of_type(s->ctx, t);
}

static void set_value_layout(LState *s, Value *v, const Layout *l) {
    if (is_tile(v)) v->type = with_layout(s, v->type, l);
}

/* Rebuilds a dense constant's attribute for the result's new type. */
static void retype_constant(LState *s, Op *op) {
    Attr *a = op_attr_k(op, AN_VALUE);
    Type *t = op_result(op, 0)->type;
    if (!a || a->kind != ATTR_DENSE || a->type == t) return;
    Attr *n;
    if (a->dense.ints) n = attr_dense_int(s->ctx, t, a->dense.ints, a->dense.nvals);
    else n = attr_dense_float(s->ctx, t, a->dense.floats, a->dense.nvals);
    op_set_attr_k(s->ctx, op, AN_VALUE, n);
}

/* (a table, and inline: the propagation asks it of every value with
 * users to share) */
static const bool cheap_kind[OP_COUNT] = {
    [TT_MAKE_RANGE] = true, [TT_SPLAT] = true, [ARITH_CONSTANT] = true, [TT_BROADCAST] = true,
    [TT_EXPAND_DIMS] = true,
};

static inline bool cheap_op(const Op *op) {
    return cheap_kind[op->kind] ||
           (op_has_flag(op, OPF_PURE) && same_layout_op(op) && op->nregions == 0 && op->kind != TT_SCAN);
}

/* Can x be recomputed in another layout from scalars and cheap ops alone?
 * (Index arithmetic runs about 8 deep in a matmul: program id, tile, offsets
 * modulo M, times the stride, broadcast, plus the base pointer.) Asked at
 * `depth` below the value being required: x's cheap ops may be at most
 * 10 - depth deep. */
#define REMAT_DEPTH 10

/* The greatest depth at which x can be rematerialised (REMAT_DEPTH + 1 for
 * a scalar: any; -1: none), memoised by value: the values asked about are
 * defined by ops materialised already, whose operands do not change after
 * (the index arithmetic shares its operands: walked as a tree, the same
 * values were asked about again and again). */
static int remat_room_slow(LState *s, Value *x);

static inline int remat_room(LState *s, Value *x) {
    /* (scalars and the memo first, without a call: the propagation asks
     * about every value with users to share, and most were answered
     * before) */
    if (!is_tile(x)) return REMAT_DEPTH + 1;
    if (x->id < s->nvalues && s->room[x->id]) return s->room[x->id] - 2;
    return remat_room_slow(s, x);
}

/* remat_room for a tile not answered before */
static NOT_INLINE int remat_room_slow(LState *s, Value *x) {
    bool memo = x->id < s->nvalues;
    Op *d = x->def;
    int room = -1;
    if (d && cheap_op(d)) {
        room = REMAT_DEPTH;
        for (int i = 0; i < d->noperands && room >= 0; i++) {
            int r = remat_room(s, op_operand(d, i)) - 1;
            if (r < room) room = r;
        }
        if (room < -1) room = -1;
    }
    if (memo) s->room[x->id] = (int8_t)(room + 2);
    return room;
}

static bool can_remat(LState *s, Value *x) { return remat_room(s, x) >= 0; }

/* Is `op` in block b, or nested in an op of b? */
static bool within_block(const Op *op, const Block *b) {
    for (const Block *at = op->parent; at && at->parent;) {
        if (at == b) return true;
        const Op *owner = at->parent->parent;
        at = owner ? owner->parent : NULL;
    }
    return false;
}

/* A clone of x with layout l made earlier that dominates `before`: the
 * clones are made op by op in pre-order, each just before the op that
 * needs it, so an earlier one dominates every later op of its block and
 * the ops nested in them. (Reusing it spares the duplicate that a CSE
 * after the layouts would merge, and the CSE's work.) */
static Value *remat_made(LState *s, Value *x, const Layout *l, const Op *before) {
    for (uint32_t k = x->id < s->remat_cap ? s->remat_of[x->id] : 0; k; k = s->remats.data[k - 1].prev) {
        RematMemo *m = &s->remats.data[k - 1];
        if (m->layout == l && within_block(before, m->clone->def->parent)) return m->clone;
    }
    return NULL;
}

/* Remembers `clone` as x with layout l (a recomputation or a conversion),
 * for remat_made. */
static void remember(LState *s, Value *x, const Layout *l, Value *clone) {
    if (x->id >= s->remat_cap) { /* (a value made by the pass) */
        /* (with room for the next few: the pass makes them one by one) */
        uint32_t cap = ctx_value_count(s->ctx) + s->remat_cap / 8 + 16;
        s->remat_of = tc_realloc(s->remat_of, sizeof *s->remat_of * cap);
        memset(s->remat_of + s->remat_cap, 0, sizeof *s->remat_of * (cap - s->remat_cap));
        s->remat_cap = cap;
    }
    vec_push(&s->remats, ((RematMemo){l, clone, s->remat_of[x->id]}));
    s->remat_of[x->id] = (uint32_t)s->remats.len;
}

/* The layout operand i of x's op d must have for d's result to have l. */
static const Layout *operand_layout(LState *s, const Op *d, const Layout *l) {
    return d->kind == TT_EXPAND_DIMS ? slice_of(s, (int)op_axis(d), l) : l;
}

/* x's op cloned with layout l just before `before`, on operands given. */
static Value *clone_with(LState *s, Value *x, const Layout *l, Op *before, Value **ops, int n) {
    Op *d = x->def;
    Op *c = op_create(s->ctx, d->kind, d->loc, ops, n, (Type *[]){with_layout(s, x->type, l)}, 1, 0);
    op_copy_attrs(s->ctx, c, d);
    op_insert_before(before, c);
    if (c->kind == ARITH_CONSTANT) retype_constant(s, c);
    axis_analysis_copy(s->aa, op_result(c, 0), x);
    remember(s, x, l, op_result(c, 0));
    return op_result(c, 0);
}

/* x recomputed with layout l, just before `before` (or such a clone made
 * before that dominates it); x can_remat. */
static Value *remat(LState *s, Value *x, const Layout *l, Op *before) {
    if (!is_tile(x)) return x;
    const Layout *cur = type_layout(s, x->type);
    if (ttg_layout_equal(cur, l)) return x;
    Value *made = remat_made(s, x, l, before);
    if (made) return made;
    Op *d = x->def;
    Value *ops[8];
    int n = d->noperands < 8 ? d->noperands : 8;
    for (int i = 0; i < n; i++) ops[i] = remat(s, op_operand(d, i), operand_layout(s, d, l), before);
    return clone_with(s, x, l, before, ops, n);
}

/* ---- conversions at the narrowest point ---------------------------------
 * A tile that cannot be recomputed from scalars may still be recomputed
 * from a smaller tile it is made of: the pointers of a gather,
 * `base + cs[None, :] * HW + (yy * W + xx)[:, None]`, are a broadcast of
 * 1-D offsets that depend on loaded values. Converting the 32 offsets and
 * recomputing the cheap ops after them costs far less than converting the
 * 32 x 16 pointers, and the offsets are converted once, where they are
 * made (outside the loop that uses them), not at every use. This is
 * Triton's backward rematerialisation: the conversion moves up through
 * cheap ops to where the fewest elements cross. */

/* The block x is made in (its op's, or the one whose argument it is). */
static Block *home_block(const Value *x) { return x->def ? x->def->parent : x->owner_block; }

/* The loops (scf.for and scf.while bodies) around block b, out to block
 * `stop` (not counted) or the function. */
static int loops_around(const Block *b, const Block *stop) {
    int n = 0;
    while (b && b != stop && b->parent && b->parent->parent) {
        const Op *owner = b->parent->parent;
        n += owner->kind == SCF_FOR || owner->kind == SCF_WHILE;
        b = owner->parent;
    }
    return n;
}

/* What converting x costs: its elements (each goes through shared
 * memory) plus, for the barriers around the exchange and the addressing,
 * as much as two more elements per thread; times 8 for each loop x is made
 * in (a conversion goes where x is made, or, no loop between, just before
 * the op that needs it; trip counts are unknown, and 8 is enough to
 * prefer converting 32 offsets outside a loop to 32 inside it, or to 512
 * pointers after them). Two conversions of 16 elements then cost more
 * than one of 256. */
static int64_t conversion_cost(LState *s, const Value *x) {
    if (!is_tile(x)) return 0;
    int64_t cost = ty_numel(x->type) + 2 * 32 * s->opts->num_warps;
    for (int n = loops_around(home_block(x), NULL); n > 0; n--) cost *= 8;
    return cost;
}

/* Visits the cut search may make for one operand: index arithmetic is a
 * few dozen ops; past this the operand is converted whole. */
enum { CUT_BUDGET = 256 };

/* The least conversion_cost for x to have layout l, recomputing x
 * from its operands (`depth` ops below the tile first asked about, at most
 * REMAT_DEPTH) where that converts fewer than converting x itself. */
static int64_t cut_cost(LState *s, Value *x, const Layout *l, int depth, int *budget) {
    if (!is_tile(x) || ttg_layout_equal(type_layout(s, x->type), l)) return 0;
    if (can_remat(s, x)) return 0;
    bool memo = x->id < s->nvalues;
    /* (made on the first question: most kernels convert no tile that
     * cannot be recomputed) */
    if (!s->cut) s->cut = tc_calloc(s->nvalues + 1, sizeof *s->cut);
    if (memo && s->cut[x->id].layout == l) return s->cut[x->id].cost;
    int64_t whole = conversion_cost(s, x), cost = whole;
    Op *d = x->def;
    if (d && cheap_op(d) && d->noperands <= 8 && depth < REMAT_DEPTH && --*budget >= 0) {
        int64_t parts = 0;
        const Layout *ol = operand_layout(s, d, l);
        for (int i = 0; i < d->noperands && parts < whole; i++)
            parts += cut_cost(s, op_operand(d, i), ol, depth + 1, budget);
        if (parts < whole) cost = parts;
    }
    /* (an answer cut short by the budget is not kept) */
    if (memo && *budget >= 0) s->cut[x->id] = (struct CutMemo){l, cost};
    return cost;
}

/* x converted to layout l where it is made (after its op, or first in the
 * block whose argument it is): the conversion then serves every use. */
static Value *convert_at_def(LState *s, Value *x, const Layout *l) {
    Type *t = with_layout(s, x->type, l);
    Op *cv = op_create(s->ctx, TTG_CONVERT_LAYOUT, x->def ? x->def->loc : x->loc, &x, 1, &t, 1, 0);
    Block *home = home_block(x);
    if (x->def) op_insert_after(x->def, cv);
    else if (home->first) op_insert_before(home->first, cv);
    else block_append(home, cv);
    axis_analysis_copy(s->aa, op_result(cv, 0), x);
    remember(s, x, l, op_result(cv, 0));
    return op_result(cv, 0);
}

/* Does recomputing x's op from its operands convert fewer elements than
 * converting x? */
static bool cut_below(LState *s, Value *x, const Layout *l, int depth) {
    Op *d = x->def;
    int budget = CUT_BUDGET;
    return d && cheap_op(d) && d->noperands <= 8 && depth < REMAT_DEPTH &&
           cut_cost(s, x, l, depth, &budget) < conversion_cost(s, x);
}

static Value *remat_cut(LState *s, Value *x, const Layout *l, Op *before, int depth);

/* x's op cloned with layout l before `before`, its operands had by remat_cut. */
static Value *recompute_below(LState *s, Value *x, const Layout *l, Op *before, int depth) {
    Op *d = x->def;
    Value *ops[8];
    const Layout *ol = operand_layout(s, d, l);
    for (int i = 0; i < d->noperands; i++) ops[i] = remat_cut(s, op_operand(d, i), ol, before, depth + 1);
    return clone_with(s, x, l, before, ops, d->noperands);
}

/* x with layout l before `before`: recomputed where cut_cost found that
 * cheaper, else converted where it is made. */
static Value *remat_cut(LState *s, Value *x, const Layout *l, Op *before, int depth) {
    if (!is_tile(x) || ttg_layout_equal(type_layout(s, x->type), l)) return x;
    Value *made = remat_made(s, x, l, before);
    if (made) return made;
    if (can_remat(s, x)) return remat(s, x, l, before);
    return cut_below(s, x, l, depth) ? recompute_below(s, x, l, before, depth) : convert_at_def(s, x, l);
}

/* Erases x's op if a recomputation took its last use, and then its
 * operands' ops that are left unused (x's op is cheap: pure, no regions;
 * every op here is before the one being materialised, so the walk in
 * assign_func does not meet them again). Only ops the pass found are
 * erased: a clone or conversion it made may be handed out again by
 * remat_made. */
static void erase_if_unused(LState *s, Value *x) {
    Op *d = x->def;
    if (!d || x->uses || x->id >= s->nvalues || !cheap_op(d)) return;
    for (int i = 0; i < d->nresults; i++)
        if (op_result(d, i)->uses) return;
    Value *ops[8];
    int n = d->noperands < 8 ? d->noperands : 8;
    for (int i = 0; i < n; i++) ops[i] = op_operand(d, i);
    op_erase(d);
    for (int i = 0; i < n; i++) erase_if_unused(s, ops[i]);
}

/* Makes operand i of op, which does not have it, have layout l. */
static void require_slow(LState *s, Op *op, int i, const Layout *l) {
    Value *x = op_operand(op, i);
    if (ttg_layout_equal(type_layout(s, x->type), l)) return;
    if (x->def && x->def->noperands <= 8 && can_remat(s, x)) {
        op_set_operand(op, i, remat(s, x, l, op));
        return;
    }
    if (cut_below(s, x, l, 0)) {
        op_set_operand(op, i, recompute_below(s, x, l, op, 0));
        erase_if_unused(s, x);
        return;
    }
    /* a conversion made for an earlier op serves this one too; one that
     * would run in a loop x is defined outside of goes where x is made */
    Value *made = remat_made(s, x, l, op);
    if (made) {
        op_set_operand(op, i, made);
        return;
    }
    if (loops_around(op->parent, home_block(x)) > 0) {
        op_set_operand(op, i, convert_at_def(s, x, l));
        return;
    }
    Type *t = with_layout(s, x->type, l);
    Op *cv = op_create(s->ctx, TTG_CONVERT_LAYOUT, op->loc, &x, 1, &t, 1, 0);
    op_insert_before(op, cv);
    axis_analysis_copy(s->aa, op_result(cv, 0), x);
    remember(s, x, l, op_result(cv, 0));
    op_set_operand(op, i, op_result(cv, 0));
}

/* Makes operand i of op have layout l (most operands have it: the type's
 * own decoded layout is the unique one). */
static inline void require(LState *s, Op *op, int i, const Layout *l) {
    Value *x = op_operand(op, i);
    if (l && is_tile(x) && x->type->layout != l) require_slow(s, op, i, l);
}

static const Layout *res_layout(LState *s, Op *op, int i) {
    return i < op->nresults ? type_layout(s, op_result(op, i)->type) : NULL;
}

/* A loop-invariant A of a tensor-core dot whose warps all run along m
 * (attention's Q in Q K^T): converted once, where it is defined, to the
 * accumulator layout of those warps, its registers hold the mma.sync A
 * fragments (mma_plan.h, "A in registers"), so the loop neither stores it
 * to shared memory nor reads it back with ldmatrix at every iteration.
 * fp16/bf16 only (tf32 fragments hold single elements). */
static void hoist_a_fragments(LState *s, Op *dot) {
    Value *a = op_operand(dot, 0);
    const Layout *rl = res_layout(s, dot, 0), *al = type_layout(s, a->type);
    if (!rl || rl->kind != LAYOUT_BLOCKED || !is_tile(a) || ty_elem(a->type)->width != 16) return;
    Layout frag = ttg_mma_layout(rl->wpc[0], 1);
    if (!ttg_layout_equal(rl, &frag) || ttg_layout_equal(al, &frag)) return;
    /* defined outside the region that holds the dot (a loop body) */
    Region *at = dot->parent ? dot->parent->parent : NULL;
    Block *home = a->def ? a->def->parent : a->owner_block;
    if (!at || !home || home->parent == at || at->parent == NULL || at->parent->kind != SCF_FOR) return;
    /* (one conversion for every such dot: it sits where A is made, so it
     * dominates them all; attention's backward reads K in two loops, and
     * two copies of its fragments would hold twice the registers) */
    const Layout *fl = keep_layout(s, frag);
    Value *made = remat_made(s, a, fl, dot);
    if (made) {
        op_set_operand(dot, 0, made);
        return;
    }
    Type *t = with_layout(s, a->type, fl);
    Op *cv = op_create(s->ctx, TTG_CONVERT_LAYOUT, dot->loc, &a, 1, &t, 1, 0);
    if (a->def) op_insert_after(a->def, cv);
    else if (home->first) op_insert_before(home->first, cv);
    else block_append(home, cv);
    axis_analysis_copy(s->aa, op_result(cv, 0), a);
    remember(s, a, fl, op_result(cv, 0));
    op_set_operand(dot, 0, op_result(cv, 0));
}

static void materialise_op(LState *s, Op *op) {
    switch (op->kind) {
    case ARITH_CONSTANT:
        retype_constant(s, op);
        return;
    case TT_EXPAND_DIMS:
        require(s, op, 0, slice_of(s, (int)op_axis(op), res_layout(s, op, 0)));
        return;
    case TT_REDUCE: {
        const Layout *l = type_layout(s, op_operand(op, 0)->type);
        for (int i = 1; i < op->noperands; i++) require(s, op, i, l);
        if (l && l->rank > 1) {
            const Layout *sl = slice_of(s, (int)op_axis(op), l);
            for (int i = 0; i < op->nresults; i++) set_value_layout(s, op_result(op, i), sl);
        }
        return;
    }
    case TT_DOT:
        require(s, op, 2, res_layout(s, op, 0));
        hoist_a_fragments(s, op);
        return;
    case TT_GATHER:
        require(s, op, 1, res_layout(s, op, 0));
        return;
    case TT_JOIN:
    case TT_CAT:
        /* (operands laid out apart, by anchors of their own, meet here) */
        require(s, op, 1, type_layout(s, op_operand(op, 0)->type));
        return;
    case TT_HISTOGRAM: {
        /* the mask in the source's layout; the counts blocked, as Triton
         * has them (its users convert from there if they want another) */
        if (op->noperands > 1) require(s, op, 1, type_layout(s, op_operand(op, 0)->type));
        Value *r = op_result(op, 0);
        const Layout *rl = type_layout(s, r->type);
        if (!rl || rl->kind != LAYOUT_BLOCKED) set_value_layout(s, r, default_layout(s, r->type));
        return;
    }
    case SCF_FOR: {
        Block *body = op->regions[0].first;
        for (int g = 0; g + 1 < body->nargs; g++) {
            const Layout *l = type_layout(s, body->args[g + 1]->type);
            require(s, op, 3 + g, l);
            set_value_layout(s, op_result(op, g), l);
        }
        return;
    }
    case SCF_WHILE: {
        Block *before = op->regions[0].first, *after = op->regions[1].first;
        for (int g = 0; g < before->nargs && g < op->noperands; g++)
            require(s, op, g, type_layout(s, before->args[g]->type));
        for (int g = 0; g < after->nargs && g < op->nresults; g++)
            set_value_layout(s, op_result(op, g), type_layout(s, after->args[g]->type));
        return;
    }
    case SCF_YIELD:
    case SCF_CONDITION: {
        Op *p = op_parent_op(op);
        for (int i = 0; p && i < op->noperands; i++) {
            const Layout *l = NULL;
            if (p->kind == SCF_FOR) l = type_layout(s, p->regions[0].first->args[i + 1]->type);
            else if (p->kind == SCF_IF) l = res_layout(s, p, i);
            else if (p->kind == SCF_WHILE && op->kind == SCF_YIELD)
                l = type_layout(s, p->regions[0].first->args[i]->type);
            else if (p->kind == SCF_WHILE && i > 0)
                l = type_layout(s, p->regions[1].first->args[i - 1]->type);
            require(s, op, i, l);
        }
        return;
    }
    default:
        break;
    }
    if (is_memory_anchor(op)) {
        const Layout *a = *anchor_of(s, op);
        if (a == &floating) /* the layout of its result, or of the value it stores */
            a = op->nresults ? res_layout(s, op, 0) : type_layout(s, op_operand(op, 1)->type);
        for (int i = 0; i < op->nresults; i++) set_value_layout(s, op_result(op, i), a);
        for (int i = 0; i < op->noperands; i++) require(s, op, i, a);
        return;
    }
    if (same_layout_op(op)) {
        const Layout *l = res_layout(s, op, 0);
        for (int i = 0; i < op->noperands; i++) require(s, op, i, l);
    }
}

/* ---- tensor-core dots ---------------------------------------------------- */

static bool is_f16_or_bf16(const Type *e) {
    return e->kind == TY_FLOAT && (e->fkind == FK_F16 || e->fkind == FK_BF16);
}

typedef struct Slice {
    Region *region;
    VEC(Op *) work;
} Slice;

/* (`mark` 1: seen; the region's ops are cleared first, and after) */
static void slice_add(Slice *sl, Op *x) {
    if (!x || !x->parent || x->parent->parent != sl->region || x->mark) return;
    x->mark = 1;
    vec_push(&sl->work, x);
}

/* Is another tt.dot connected to `dot` by data flow within its region
 * (Triton's multiRootGetSlice: operands' producers backwards, results'
 * users forwards, ops of the same region only)? The other dot found is
 * connected to this one too: it is remembered (s->chained), and its own
 * question needs no search. */
static bool chained_dot(LState *s, Op *dot) {
    for (int i = 0; i < s->chained.len; i++)
        if (s->chained.data[i] == dot) return true;
    Slice sl = {.region = dot->parent ? dot->parent->parent : NULL};
    /* the search reaches only ops of the dot's region: without another
     * dot there (one dot per k loop, the usual case), none is connected */
    bool other = false;
    for (int i = 0; i < s->dots.len && !other; i++) {
        const Op *d = s->dots.data[i];
        other = d != dot && d->parent && d->parent->parent == sl.region;
    }
    if (!other) return false;
    if (sl.region)
        for (Block *b = sl.region->first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next) o->mark = 0;
    bool chained = false;
    dot->mark = 1;
    vec_push(&sl.work, dot);
    while (sl.work.len && !chained) {
        Op *op = vec_pop(&sl.work);
        chained = op != dot && op->kind == TT_DOT;
        if (chained) vec_push(&s->chained, op);
        for (int i = 0; i < op->noperands; i++) slice_add(&sl, op_operand(op, i)->def);
        for (int i = 0; i < op->nresults; i++)
            for (Use *u = op_result(op, i)->uses; u; u = u->next) slice_add(&sl, u->owner);
    }
    vec_free(&sl.work);
    /* (cleared again: the propagation reads `mark` as RELATED) */
    for (Block *b = sl.region ? sl.region->first : NULL; b; b = b->next)
        for (Op *o = b->first; o; o = o->next) o->mark = 0;
    return chained;
}

/* Warps along m and n for an M x N result, as Triton's warpsPerTileV2:
 * chained dots put every warp along the longer dimension (attention: P
 * then stays in the rows its warp computed); otherwise double the warps
 * along m while the per-warp tile (16 x 8 instructions) is no wider than
 * tall and m has 16 rows per warp to give, else along n. Along n the
 * warps may outnumber the 8-column blocks (copies); along m they may not
 * (every warp needs whole 16-row blocks). */
static void mma_warps(int64_t M, int64_t N, int nw, bool chained, int *wm, int *wn) {
    if (chained && M >= N && M >= 16 * nw) {
        *wm = nw, *wn = 1;
        return;
    }
    if (chained && M < N) {
        *wm = 1, *wn = nw;
        return;
    }
    int a = 1, b = 1;
    while (a * b < nw) {
        if (M / 16 / a >= N / (8 * b) && a < M / 16) a *= 2;
        else b *= 2;
    }
    *wm = a, *wn = b;
}

/* The accumulator layout of a dot ptx_mma.c can run on tensor cores: fp16 x
 * fp16 or bf16 x bf16 into fp32 (K a multiple of 16), or fp32 x fp32 with
 * input_precision "tf32" (K a multiple of 8); rank 2, M a multiple of 16,
 * N of 8, sm_80 or later. Other dots keep today's path (their result's
 * layout comes from the propagation; FMA in the PTX). */
static bool mma_dot_layout(LState *s, Op *dot, Layout *out) {
    const TtgOptions *o = s->opts;
    if (o->sm < 80 || o->threads_per_warp != 32 || (o->num_warps & (o->num_warps - 1))) return false;
    Type *at = op_operand(dot, 0)->type, *bt = op_operand(dot, 1)->type, *rt = op_result(dot, 0)->type;
    if (at->kind != TY_TENSOR || bt->kind != TY_TENSOR || rt->kind != TY_TENSOR || at->rank != 2 || bt->rank != 2 ||
        rt->rank != 2)
        return false;
    const Type *ea = ty_elem(at), *eb = ty_elem(bt), *er = ty_elem(rt);
    int64_t prec = TT_PREC_IEEE;
    op_attr_int_k(dot, AN_INPUT_PRECISION, &prec);
    bool tf32 = ea->kind == TY_FLOAT && ea->fkind == FK_F32 && prec == TT_PREC_TF32;
    if (!(is_f16_or_bf16(ea) || tf32) || eb->kind != TY_FLOAT || eb->fkind != ea->fkind || er->kind != TY_FLOAT ||
        er->fkind != FK_F32)
        return false;
    int64_t M = rt->shape[0], N = rt->shape[1], K = at->shape[1];
    if (K % (tf32 ? 8 : 16) || M % 16 || N % 8) return false;
    int wm, wn;
    /* wgmma (sm_90a): a warpgroup's four warps along m, every warp */
    if (!tf32 && wgmma_shape(o->sm, 2, M, N, K, o->num_warps)) wm = o->num_warps, wn = 1;
    else mma_warps(M, N, o->num_warps, chained_dot(s, dot), &wm, &wn);
    *out = ttg_mma_layout(wm, wn);
    return true;
}

/* Step 3 for op and the ops nested in it, consumers first (the reverse of
 * pre-order), until every tile has a layout: a tile without one gets the
 * default layout, which then spreads. */
static void give_defaults(LState *s, Op *op) {
    for (int r = op->nregions - 1; r >= 0; r--)
        for (Block *b = op->regions[r].last; b; b = b->prev)
            for (Op *o = b->last; o && s->nplaced < s->ntiles; o = o->prev) give_defaults(s, o);
    for (int k = 0; k < op->nresults && s->nplaced < s->ntiles; k++) {
        Value *v = op_result(op, k);
        if (is_tile(v) && !lay(s, v)) {
            give(s, v, default_layout(s, v->type));
            propagate(s);
        }
    }
    for (int r = 0; r < op->nregions && s->nplaced < s->ntiles; r++)
        for (Block *b = op->regions[r].first; b; b = b->next)
            for (int k = 0; k < b->nargs; k++)
                if (is_tile(b->args[k]) && !lay(s, b->args[k])) {
                    give(s, b->args[k], default_layout(s, b->args[k]->type));
                    propagate(s);
                }
}

/* Step 4 for the ops of block b and the ops nested in them, in pre-order
 * (b's arguments have their types). The conversions and clones made go
 * before the op being materialised (or after the definition of what they
 * convert, which is before it), so the walk meets none of them, and what
 * erase_if_unused erases it has passed. */
static void materialise(LState *s, Block *b) {
    for (Op *op = b->first; op; op = op->next) {
        for (int k = 0; k < op->nresults; k++) set_value_layout(s, op_result(op, k), lay(s, op_result(op, k)));
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].first; rb; rb = rb->next)
                for (int k = 0; k < rb->nargs; k++) set_value_layout(s, rb->args[k], lay(s, rb->args[k]));
        materialise_op(s, op);
        for (int r = 0; r < op->nregions; r++)
            for (Block *rb = op->regions[r].first; rb; rb = rb->next) materialise(s, rb);
    }
}

static void set_module_attrs(Context *c, Op *module, const TtgOptions *o) {
    op_set_attr(c, module, "ttg.num-warps", attr_i32(c, o->num_warps));
    op_set_attr(c, module, "ttg.num-ctas", attr_i32(c, 1));
    op_set_attr(c, module, "ttg.threads-per-warp", attr_i32(c, o->threads_per_warp));
    char target[32];
    snprintf(target, sizeof target, "cuda:%d", o->sm);
    op_set_attr(c, module, "ttg.target", attr_string(c, target));
}

/* Layouts describe at most TTG_MAX_RANK dimensions: a tensor of a higher
 * rank (only IR text makes one: the front end stops at 8) is reported, once
 * per function, where it is made, and the function is left as it is. */
static bool assign_func(Context *c, Op *func, const TtgOptions *o, DiagEngine *de) {
    LState s = {.ctx = c, .opts = o, .nvalues = ctx_value_count(c)};
    collect(&s, func);
    if (s.too_deep) {
        diag_error(de, s.too_deep->loc, "a tensor of rank %d: the GPU backend handles tensors of rank %d at most",
                   s.too_deep_rank, TTG_MAX_RANK);
        vec_free(&s.dots);
        vec_free(&s.accesses);
        return false;
    }
    s.layout = tc_calloc(s.nvalues + 1, sizeof *s.layout);
    s.remat_cap = s.nvalues;
    s.remat_of = tc_calloc(s.nvalues + 1, sizeof *s.remat_of);
    s.room = tc_calloc(s.nvalues + 1, sizeof *s.room);
    s.aa = axis_analyze(c, func);
    tie_orders(&s);
    access_widths(&s, func);
    /* 0: tensor-core dots (all given before any spreads: each keeps its own) */
    for (int i = 0; i < s.dots.len; i++) {
        Layout l;
        if (mma_dot_layout(&s, s.dots.data[i], &l)) give(&s, op_result(s.dots.data[i], 0), keep_layout(&s, l));
    }
    s.anchor = tc_calloc((size_t)s.accesses.len + 1, sizeof *s.anchor);
    for (int i = 0; i < s.accesses.len; i++) s.accesses.data[i]->mark = (i + 1) << ACCESS_SHIFT;
    propagate(&s);
    /* 1-2: anchors, loads first; every load's own operands before any
     * spreads (a loop-carried pointer is then laid out for the load it
     * feeds, not converted every iteration because another load's layout
     * reached it first through shared index arithmetic) */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < s.accesses.len; i++) {
            Op *op = s.accesses.data[i];
            if ((op->kind == TT_LOAD) != (pass == 0)) continue;
            Value *ptr = op_operand(op, 0);
            if (!is_tile(ptr)) continue;
            if ((op->kind == TT_LOAD || op->kind == TT_STORE) &&
                ty_numel(ptr->type) < (int64_t)o->num_warps * o->threads_per_warp) {
                float_access(&s, op);
                continue;
            }
            place_anchor(&s, op);
            if (pass == 1) propagate(&s);
        }
        propagate(&s);
    }
    /* a floating access no anchor's layout reached is laid out as an
     * anchor after all (Triton's keeps the coalesced layout it has) */
    for (int i = 0; i < s.floats.len; i++) {
        Op *op = s.floats.data[i];
        Value *ptr = op_operand(op, 0);
        if (lay(&s, ptr)) continue;
        place_anchor(&s, op);
        propagate(&s);
    }
    /* 3: defaults, consumers first (most kernels need none: every tile
     * is related to an access) */
    if (s.nplaced < s.ntiles) give_defaults(&s, func);
    /* 4: types, then conversions, op by op: what an op's conversions read
     * is its operands' types (values defined before it, or arguments of
     * blocks of ops before it) and its own */
    for (int r = 0; r < func->nregions; r++)
        for (Block *b = func->regions[r].first; b; b = b->next) {
            for (int k = 0; k < b->nargs; k++) set_value_layout(&s, b->args[k], lay(&s, b->args[k]));
            materialise(&s, b);
        }
    /* The conversions and clones made above (given their facts as they
     * were made) have the facts of what they convert or clone and changed
     * no other value's: the analysis serves the passes after (axis_info.h). */
    axis_analysis_keep(c, s.aa);
    tc_free(s.layout);
    tc_free(s.width);
    tc_free(s.order);
    tc_free(s.anchor);
    tc_free(s.remat_of);
    tc_free(s.room);
    tc_free(s.cut);
    vec_free(&s.remats);
    vec_free(&s.chained);
    vec_free(&s.floats);
    vec_free(&s.work);
    vec_free(&s.dots);
    vec_free(&s.accesses);
    return true;
}

bool ttg_assign_layouts(Context *c, Op *module, const TtgOptions *opts, DiagEngine *de) {
    TtgOptions o = *opts;
    if (o.num_warps <= 0) o.num_warps = 4;
    if (o.threads_per_warp <= 0) o.threads_per_warp = 32;
    if (o.sm <= 0) o.sm = 90;
    bool ok = true;
    for (Op *f = module_body(module)->first; f; f = f->next)
        if (f->kind == TT_FUNC) ok &= assign_func(c, f, &o, de);
    if (!ok) return false;
    set_module_attrs(c, module, &o);
    return true;
}

/* The pass as `tritonc opt -p ttg-assign-layouts` runs it: options from the
 * module's attributes when it has them (ttg.num-warps, ttg.target
 * "cuda:NN"), else 4 warps for sm_90. */
bool pass_ttg_assign_layouts(Op *module, PassContext *pc) {
    TtgOptions o = {.num_warps = 4, .threads_per_warp = 32, .sm = 90};
    int64_t v;
    if (op_attr_int(module, "ttg.num-warps", &v) && v > 0) o.num_warps = (int)v;
    const char *t = op_attr_str(module, "ttg.target");
    if (t && strncmp(t, "cuda:", 5) == 0 && atoi(t + 5) > 0) o.sm = atoi(t + 5);
    return ttg_assign_layouts(pc->ctx, module, &o, pc->de);
}
