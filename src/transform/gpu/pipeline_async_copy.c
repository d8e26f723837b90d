/*
 * pipeline_async_copy.c - multi-stage cp.async pipelining of the loads that
 * feed tensor-core dots in scf.for loops (`pipeline-async-copy`), on ttg IR.
 *
 * A k loop loads its tiles into registers, the dot then stores them to
 * shared memory for ldmatrix. Here each such load instead copies global
 * memory straight into a ring of S shared-memory stages (cp.async), S - 1
 * iterations ahead, and the dot reads the stage of its iteration (as
 * Triton's software pipeliner does on sm_80, num_stages = S):
 *
 *     ttg.local_alloc {size}                          // the rings
 *     for j in 0 .. S-2:                              // prologue
 *       async_copy_global_to_local(j, ptr(lb + j*step), mask & (lb + j*step < ub))
 *       async_commit_group
 *     scf.for %iv ... iter_args(..., %ahead = state(S-1), %rs = 0, %ws = S-1) {
 *       async_wait {num = S-2}                        // + bar.sync: stage rs
 *                                                     // is full, stage ws free
 *       async_copy_global_to_local(%ws, ptr(%iv + (S-1)*step), mask & guard)
 *       async_commit_group
 *       %a = ttg.local_load %rs                       // the dot's operand
 *       %d = tt.dot %a, ...
 *       scf.yield ..., next(%ahead), (%rs + 1) % S, (%ws + 1) % S
 *     }
 *     async_wait {num = 0}                            // + bar.sync
 *     ttg.local_dealloc
 *
 * The wait at the top of iteration i lets S-2 groups stay in flight (those
 * of iterations i+1 .. i+S-2), so iteration i's group is complete; its
 * barrier makes every thread's copies visible and ends every warp's reads
 * of stage (i-1) mod S, which the copy of iteration i+S-1 then overwrites.
 * Copies past the last iteration are masked off (src-size 0: nothing read)
 * but still committed, so the counts stay right.
 *
 * The addresses S-1 iterations ahead: the loop-carried values that a
 * load's pointer and mask depend on (`a_ptrs += BLOCK_K`) get copies that
 * run S-1 iterations ahead (`%ahead`), advanced by clones of their own
 * scf.yield operands; the prologue evaluates the same slices for
 * iterations 0 .. S-2 from the inits. This needs, as pipeline-dot-loads
 * does, pointer and mask computed by pure ops from the induction variable,
 * loop-carried values with such updates and values from outside the loop,
 * and a body that writes no memory.
 *
 * A load is taken when it is rank 2, its users are operands A or B of
 * tt.dots of the body that take mma.sync (mma_plan succeeds; not an A that
 * stays in registers), `other` is absent or zero, and its layout gives each
 * thread vectors of 4, 8 or 16 bytes that are contiguous in the dot's
 * shared-memory layout (mma_plan.h): element (i, j) goes to the stage at
 * (i * stride[0] + j * stride[1]) * esize (padded rows) or where the
 * swizzle puts it, exactly where the dot's own st.shared would put it.
 * The load may also reach a dot through a
 * tt.trans {order = [1, 0]} whose users are dot operands too (attention's
 * `tl.dot(q, tl.trans(k))`): then the load's element (r, c) is the
 * operand's (c, r) and goes to (c * stride[0] + r * stride[1]) * esize
 * (the copy's stride0/stride1 are the operand's swapped), its vectors
 * along the load's contiguous dimension must be contiguous there (the
 * operand's stride along it is 1), and a ttg.local_load gives the
 * transposed tile, replacing the tt.trans. A tile several dots read
 * (attention's backward: Q^T as B of K Q^T and, transposed, of dS^T Q)
 * takes one ring when every dot's plan stores it alike, in the load's
 * coordinates (the same strides, or the same swizzled layout: wgmma reads
 * a K-major B and the MN-major B of its transpose from the same bytes);
 * each dot then reads the stage through its own ttg.local_load, as Triton's
 * memdesc_trans does. Each ring stage holds one operand (its swizzled
 * rows, the copy's `swizzle` attribute, or its padded rows, the copy's
 * strides, as mma_plan.h places them, rounded up to 128 bytes; a dot that
 * wgmma runs reads B through descriptors: its ring holds B in the
 * swizzled layout of mma_plan.h, the copy's `swizzle` attribute too,
 * every stage 1024-byte aligned, and the wait
 * at the loop's top fences the copies' writes for the async proxy, as the
 * PTX memory model asks; Triton 3.6 fences only st.shared, and
 * TRITONC_RING_FENCE=0 does as it does: 1-2% faster on the H200,
 * bench/results/gpu_dots-2026-12-03b.md); S = min(num_stages, what fits in the
 * device's shared memory beside the dot's other operand); S < 2: the loop
 * is left alone. Only innermost loops.
 *
 * A loop whose dot wgmma runs (a ring read through descriptors), with a dot whose wait may
 * be deferred (mma_carried_acc: its result only yielded, the loop-carried
 * value read in the next iteration after a wgmma wait), gets one stage
 * more when that keeps as many CTAs on a multiprocessor, and
 * copies S-2 iterations ahead instead of S-1: iteration i's copies then
 * overwrite the stage of iteration i-2, so the dot of iteration i-1 may
 * still be running on the tensor cores through the top of iteration i,
 * its barrier and copies (`wgmma_deferred` on the top wait). The PTX then
 * waits for such a dot's wgmma at the start of the next one, before it
 * writes the registers of A's fragments (the previous group reads them),
 * or at an earlier dot's wait in the next iteration (attention's P x V at
 * its Q x K^T); every warpgroup has so waited for iteration i-2's before
 * the barrier of iteration i. The wait after the loop has `wgmma_wait = 0`.
 */
#include "dialect/dialect.h"
#include "target/ptx/mma_plan.h"
#include "transform/gpu/gpu_passes.h"
#include "transform/pass.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_LOADS = 8 };


typedef struct Cand {
    Op *load;
    Op *trans;          /* the tt.trans between the load and its first dot, or NULL */
    int vec;            /* elements per cp.async */
    int64_t stride[2];  /* element strides of the stored operand */
    SmemSwz swz;        /* or its swizzled layout (bytes 0: none) */
    bool proxy;         /* read by wgmma through descriptors (the async proxy) */
    int64_t stage_bytes, offset;
    int64_t dot_smem_bytes; /* the shared memory the dot's plan uses */
    Op *copy;           /* its first async copy made: the later ones copy its attributes */
} Cand;

typedef struct Pipe {
    Context *c;
    Op *loop;
    Block *body;
    Op *yield;
    AxisAnalysis *aa;
    int mode;           /* async_copy_mode(), read once per run */
    Map state;          /* loop-carried block arg -> 1, for the args the addresses need */
    VEC(Value *) args;  /* those args, in order */
    /* how many values the body has, numbered once the loads are chosen (see
     * body_index): its arguments, then the results of each op */
    int nvals;
    /* body value -> its clone for the first iteration evaluated (the
     * prologue's first), for the values that read neither the induction
     * variable nor the state: every iteration computes them alike, and
     * the CSE after the pass would merge all later clones into that one
     * (by body_index, nvals long) */
    Value **fixed;
    /* hash of a clone -> the clone (the last of that hash): a clone equal
     * to an earlier one (the slices repeat the index arithmetic that the
     * layouts rematerialised for each user) is that one, which comes
     * before it and dominates it, as the CSE after the pass would merge
     * them */
    Map clones;
} Pipe;

static inline bool in_body(const Pipe *p, const Value *v) {
    return value_parent_block(v) == p->body;
}

/* An environment: the values of one iteration, by body_index (NULL: not
 * evaluated yet). */
typedef Value **Env;

/* Numbers the body's values: argument i is i, the results of an op follow
 * those of the op before (its `mark`: 1 + the number of its first result;
 * the ops made after, which never come here, have 0). */
static void number_body(Pipe *p) {
    int k = p->body->nargs;
    for (Op *o = p->body->first; o; o = o->next) {
        o->mark = k + 1;
        k += o->nresults;
    }
    p->nvals = k;
}

/* v's number, v a value of the body as it was numbered (the slices the
 * pass evaluates hold no other: no load, nothing it makes). */
static int body_index(const Pipe *p, const Value *v) {
    return v->def ? v->def->mark - 1 + v->index : v->index;
}

/* Whether op is nested in `outer`. */
static bool nested_in(const Op *op, const Op *outer) {
    for (const Block *b = op->parent; b && b->parent; b = b->parent->parent->parent) {
        if (b->parent->parent == outer) return true;
        if (!b->parent->parent) break;
    }
    return false;
}

/* v can be evaluated for any iteration from the induction variable, the
 * loop-carried values it records in p->state (whose updates must be
 * evaluable too) and values from outside the loop. */
static bool evaluable(Pipe *p, Value *v, int depth) {
    if (!in_body(p, v) || v == p->body->args[0]) return true;
    if (depth > 64) return false;
    if (!v->def) {
        if (map_get(&p->state, MAP_KEY(v))) return true;
        map_put(&p->state, MAP_KEY(v), (void *)1);
        vec_push(&p->args, v);
        return evaluable(p, op_operand(p->yield, v->index - 1), depth + 1);
    }
    if (!pipeline_clonable(v->def)) return false;
    for (int i = 0; i < v->def->noperands; i++)
        if (!evaluable(p, op_operand(v->def, i), depth + 1)) return false;
    return true;
}

static uint64_t mix(uint64_t h, uint64_t v) { return ((h << 5 | h >> 59) ^ v) * 0x9e3779b97f4a7c15ULL; }

/* d with operands ops, before `before`: op_clone's copy (d has no
 * regions), its results the values of d's in env. */
static Op *clone_with(Pipe *p, Env env, Op *d, Value *const *ops, Op *before) {
    Type *tys_small[4] = {NULL};
    Type **tys = d->nresults <= 4 ? tys_small : tc_malloc(sizeof(Type *) * (size_t)d->nresults);
    for (int i = 0; i < d->nresults; i++) tys[i] = d->results[i].type;
    Op *c = op_create(p->c, d->kind, d->loc, ops, d->noperands, tys, d->nresults, 0);
    if (tys != tys_small) tc_free(tys);
    op_copy_attrs(p->c, c, d);
    for (int i = 0; i < d->nresults; i++) {
        c->results[i].name = d->results[i].name;
        env[body_index(p, op_result(d, i))] = op_result(c, i);
    }
    op_insert_before(before, c);
    return c;
}

/* An operand of a body op for the iteration of env. */
static Value *mapped(const Pipe *p, Env env, Value *o) {
    if (!in_body(p, o)) return o;
    Value *m = env[body_index(p, o)];
    return m ? m : o;
}

/* d cloned before `before`, its operands mapped through env (which gains
 * its results), or an equal clone made before. */
static Op *clone_once(Pipe *p, Env env, Op *d, Op *before) {
    int n = d->noperands;
    Value *ops[8];
    if (n > 8) {
        Value **big = tc_malloc(sizeof(Value *) * (size_t)n);
        for (int i = 0; i < n; i++) big[i] = mapped(p, env, op_operand(d, i));
        Op *c = clone_with(p, env, d, big, before);
        tc_free(big);
        return c;
    }
    uint64_t h = (uint64_t)d->kind + 1;
    for (int i = 0; i < n; i++) {
        ops[i] = mapped(p, env, op_operand(d, i));
        h = mix(h, MAP_KEY(ops[i]));
    }
    for (int i = 0; i < d->nattrs; i++) h = mix(h, MAP_KEY(d->attrs[i].attr));
    for (int i = 0; i < d->nresults; i++) h = mix(h, MAP_KEY(d->results[i].type));
    h = hash_u64(h) | 1;
    Op *e = map_get(&p->clones, h);
    bool same = e && e->kind == d->kind && e->noperands == n && e->nresults == d->nresults && e->nattrs == d->nattrs;
    for (int i = 0; same && i < n; i++) same = op_operand(e, i) == ops[i];
    for (int i = 0; same && i < d->nattrs; i++)
        same = e->attrs[i].name == d->attrs[i].name && e->attrs[i].attr == d->attrs[i].attr;
    for (int i = 0; same && i < d->nresults; i++) same = e->results[i].type == d->results[i].type;
    if (same) {
        for (int i = 0; i < d->nresults; i++) env[body_index(p, op_result(d, i))] = op_result(e, i);
        return e;
    }
    Op *c = clone_with(p, env, d, ops, before);
    map_put(&p->clones, h, c);
    return c;
}

/* v for an iteration whose induction variable and state `env` maps (body
 * value -> value), cloning its slice before `before`. A value the
 * iteration does not change is cloned once, for the first iteration
 * evaluated, which comes before the loop and dominates every later one
 * (p->fixed). */
static Value *eval(Pipe *p, Env env, Value *v, Op *before) {
    if (!in_body(p, v)) return v;
    int k = body_index(p, v);
    Value *r = env[k];
    if (r) return r;
    if ((r = p->fixed[k])) {
        env[k] = r; /* (clones map their operands through env) */
        return r;
    }
    Op *d = v->def;
    bool fixed = true;
    for (int i = 0; i < d->noperands; i++) {
        Value *o = op_operand(d, i);
        eval(p, env, o, before);
        fixed &= !in_body(p, o) || p->fixed[body_index(p, o)];
    }
    Op *n = clone_once(p, env, d, before);
    if (fixed)
        for (int i = 0; i < d->nresults; i++) p->fixed[body_index(p, op_result(d, i))] = op_result(n, i);
    return op_result(n, v->index);
}

static bool zero_constant(Value *v) {
    Op *d = v->def;
    if (!d || d->kind != ARITH_CONSTANT) return false;
    Attr *a = op_attr_k(d, AN_VALUE);
    if (!a || a->kind != ATTR_DENSE || a->dense.nvals != 1) return false;
    return a->dense.floats ? a->dense.floats[0] == 0.0 && !__builtin_signbit(a->dense.floats[0])
                           : a->dense.ints && a->dense.ints[0] == 0;
}

static bool type_dist(Context *c, const Type *t, Dist *d) {
    const Layout *l = ttg_layout_of_type(c, t);
    return l && ttg_dist(l, t->shape, t->rank, d);
}

/* The dot's plan when it takes mma.sync or wgmma (ptx_mma.c's conditions;
 * a_smem: A from a ring). */
static bool dot_plan(Context *c, Op *dot, int sm, int mode, bool a_smem, MmaPlan *pl) {
    Type *at = op_operand(dot, 0)->type, *bt = op_operand(dot, 1)->type, *rt = op_result(dot, 0)->type;
    if (sm < 80 || at->rank != 2 || bt->rank != 2 || rt->rank != 2) return false;
    const Type *ea = ty_elem(at), *eb = ty_elem(bt), *ec = ty_elem(rt);
    if (ea->kind != TY_FLOAT || eb->kind != TY_FLOAT || ea->fkind != eb->fkind || ec->kind != TY_FLOAT ||
        ec->fkind != FK_F32)
        return false;
    int64_t prec = TT_PREC_IEEE;
    op_attr_int_k(dot, AN_INPUT_PRECISION, &prec);
    if (ea->fkind != FK_F16 && ea->fkind != FK_BF16 && !(ea->fkind == FK_F32 && prec == TT_PREC_TF32)) return false;
    if (ea->fkind == FK_F32 && mode < 2) return false; /* tf32: see async_copy_mode */
    Dist da, db, dc;
    return type_dist(c, at, &da) && type_dist(c, bt, &db) && type_dist(c, rt, &dc) &&
           mma_plan(&dc, &da, &db, ea->width / 8, sm, a_smem, pl);
}

/* The shared memory a CTA may have (dynamic, opted in), in bytes. */
static int64_t smem_limit(int sm) { return sm >= 90 ? 227 * 1024 : 163 * 1024; }

static int pow2_floor(int64_t v) {
    int r = 1;
    while ((int64_t)r * 2 <= v) r *= 2;
    return r;
}

/* Whether op is a tt.trans {order = [1, 0]} of the body (a rank-2 tile). */
static bool plain_trans(const Pipe *p, Op *op) {
    if (op->kind != TT_TRANS || op->parent != p->body || op_result(op, 0)->type->rank != 2) return false;
    Attr *oa = op_attr_k(op, AN_ORDER);
    return oa && oa->kind == ATTR_DENSE_ARRAY && oa->dense.nvals == 2 && oa->dense.ints[0] == 1 &&
           oa->dense.ints[1] == 0;
}

static bool dot_operand_use(const Pipe *p, const Use *u) {
    Op *d = u->owner;
    return d->kind == TT_DOT && d->parent == p->body && (u == &d->operands[0] || u == &d->operands[1]);
}

/* The first use of load l's tile as operand A or B of a tt.dot of the
 * body, directly or through a tt.trans (set as *tr), when every use of the
 * tile is such a use (attention's backward reads Q^T as B of Q K^T and,
 * transposed, as B of dS^T Q: `tl.dot(k, qT)`, `tl.dot(dsT, tl.trans(qT))`),
 * else NULL: the first test of candidate, made before the trial state for
 * it (most loads fail it). */
static Use *dot_use(const Pipe *p, Op *l, Op **tr) {
    *tr = NULL;
    if (l->kind != TT_LOAD || !ty_is_tensor(op_result(l, 0)->type) || op_result(l, 0)->type->rank != 2) return NULL;
    Use *first = NULL;
    Op *first_tr = NULL;
    for (Use *u = op_result(l, 0)->uses; u; u = u->next) {
        if (dot_operand_use(p, u)) {
            if (!first) first = u;
            continue;
        }
        if (!plain_trans(p, u->owner) || !op_result(u->owner, 0)->uses) return NULL;
        for (Use *w = op_result(u->owner, 0)->uses; w; w = w->next) {
            if (!dot_operand_use(p, w)) return NULL;
            if (!first) first = w, first_tr = u->owner;
        }
    }
    *tr = first_tr;
    return first;
}

/* Where a dot's plan stores one of its operands, in the coordinates of the
 * load it comes from (swapped: through a tt.trans): the swizzled layout
 * (wgmma) or the element strides (ldmatrix), and the bytes a stage takes.
 * False: the dot does not read that operand from shared memory. */
typedef struct Placement {
    SmemSwz swz;        /* bytes 0: none */
    int64_t stride[2];
    int64_t bytes;
} Placement;

/* Whether operand `which` (0: A, 1: B) is read by the tensor cores through
 * a descriptor: wgmma's B, and A when a_desc. */
static bool operand_by_descriptor(const MmaPlan *pl, int which) {
    return which == 1 ? pl->wgmma : pl->a_desc;
}

/* The swizzled layout operand `which` is stored in, or NULL (ldmatrix's
 * padded rows): a descriptor's, or ldmatrix's swizzled rows. */
static const SmemSwz *operand_swz(const MmaPlan *pl, int which) {
    if (operand_by_descriptor(pl, which)) return which ? &pl->bswz : &pl->aswz;
    const MmaOperand *o = which ? &pl->b : &pl->a;
    return o->swz.bytes ? &o->swz : NULL;
}

static bool placement(const Pipe *p, Op *dot, int which, bool swapped, int sm, MmaPlan *pl, Placement *out) {
    if (!dot_plan(p->c, dot, sm, p->mode, which == 0, pl) || (which == 0 && pl->a.in_regs)) return false;
    const SmemSwz *swz = operand_swz(pl, which);
    const MmaOperand *o = which ? &pl->b : &pl->a;
    memset(out, 0, sizeof *out);
    for (int j = 0; j < 2; j++) {
        int d = swapped ? 1 - j : j;
        out->stride[j] = o->stride[d];
        if (!swz) continue;
        out->swz.nbits[j] = swz->nbits[d];
        for (int b = 0; b < swz->nbits[d]; b++) out->swz.bit[j][b] = swz->bit[d][b];
    }
    if (swz) {
        out->swz.bytes = swz->bytes, out->swz.nterms = swz->nterms;
        for (int t = 0; t < swz->nterms; t++) out->swz.shift[t] = swz->shift[t], out->swz.mask[t] = swz->mask[t];
    }
    out->bytes = which ? pl->smem_bytes - pl->b.base : pl->a_desc ? pl->a_bytes : pl->b.base;
    return true;
}

/* Whether two uses of a tile store it alike (one ring stage serves both). */
static bool same_placement(const Placement *x, const Placement *y) {
    if (x->swz.bytes != y->swz.bytes || x->swz.nterms != y->swz.nterms) return false;
    if (!x->swz.bytes) return x->stride[0] == y->stride[0] && x->stride[1] == y->stride[1];
    for (int t = 0; t < x->swz.nterms; t++)
        if (x->swz.shift[t] != y->swz.shift[t] || x->swz.mask[t] != y->swz.mask[t]) return false;
    for (int j = 0; j < 2; j++) {
        if (x->swz.nbits[j] != y->swz.nbits[j]) return false;
        for (int b = 0; b < x->swz.nbits[j]; b++)
            if (x->swz.bit[j][b] != y->swz.bit[j][b]) return false;
    }
    return true;
}

/* Whether the dot of use w (of the tile, or of a tt.trans of it: swapped)
 * stores the tile as `want` says; *bytes grows to its stage. */
static bool use_agrees(const Pipe *p, const Use *w, bool swapped, int sm, const Placement *want, int64_t *bytes) {
    MmaPlan pl;
    Placement got;
    Op *d = w->owner;
    if (!placement(p, d, w == &d->operands[0] ? 0 : 1, swapped, sm, &pl, &got) || !same_placement(want, &got))
        return false;
    if (got.bytes > *bytes) *bytes = got.bytes;
    return true;
}

/* Whether every other dot that reads load l's tile (directly, or through
 * a tt.trans) stores it as `first` does; *bytes: the largest stage any of
 * them needs. */
static bool uses_agree(const Pipe *p, Op *l, const Use *first, int sm, const Placement *want, int64_t *bytes) {
    *bytes = want->bytes;
    for (Use *u = op_result(l, 0)->uses; u; u = u->next) {
        if (dot_operand_use(p, u)) {
            if (u != first && !use_agrees(p, u, false, sm, want, bytes)) return false;
            continue;
        }
        for (Use *w = op_result(u->owner, 0)->uses; w; w = w->next)
            if (w != first && !use_agrees(p, w, true, sm, want, bytes)) return false;
    }
    return true;
}

/* Whether load l (in the body) can become cp.async into its dots' ring. */
static bool candidate(Pipe *p, Op *l, int sm, Cand *cd) {
    int64_t vol = 0;
    if (op_attr_int_k(l, AN_IS_VOLATILE, &vol) && vol) return false;
    Op *tr;
    Use *u = dot_use(p, l, &tr);
    if (!u) return false;
    /* through a tt.trans (`tl.dot(q, tl.trans(k))`): the ring holds the
     * transposed tile, the load's (r, c) where operand (c, r) goes */
    Op *dot = u->owner;
    int which = u == &dot->operands[0] ? 0 : 1;
    MmaPlan plan, *pl = &plan;
    Placement want;
    int64_t bytes;
    if (!placement(p, dot, which, tr != NULL, sm, pl, &want) || !uses_agree(p, l, u, sm, &want, &bytes)) return false;
    const SmemSwz *swz = operand_swz(pl, which);
    bool proxy = operand_by_descriptor(pl, which);
    if (l->noperands > 2 && !zero_constant(op_operand(l, 2))) return false;
    Value *ptr = op_operand(l, 0), *mask = l->noperands > 1 ? op_operand(l, 1) : NULL;
    Dist d;
    if (!type_dist(p->c, ptr->type, &d)) return false;
    /* (the copies' addresses: a thread's part and a slot's, in the load's
     * coordinates) */
    int64_t coef[MMA_TID_BITS];
    int tid_bits;
    if (swz && !swz_split(&d, &want.swz, coef, &tid_bits, NULL)) return false;
    const MmaOperand *o = which ? &pl->b : &pl->a;
    int f = d.order[0], es = pl->esize, of = tr ? 1 - f : f; /* of: f in the operand's dimensions */
    const AxisInfo *ai = axis_info(p->aa, ptr);
    int64_t v = d.spt[f] < d.shape[f] ? d.spt[f] : d.shape[f];
    if (ai->contig[f] < v) v = ai->contig[f];
    int64_t align = ai->div[f] / es;
    if (align < v) v = align < 1 ? 1 : align;
    if (16 / es < v) v = 16 / es;
    if (mask && ty_is_tensor(mask->type)) {
        const AxisInfo *mi = axis_info(p->aa, mask);
        if (mi->cnst[f] < v) v = mi->cnst[f];
    }
    if (swz) { /* consecutive along of: its low bits es, 2 es, 4 es, ... apart */
        int ok = 0;
        while (ok < swz->nbits[of] && swz->bit[of][ok] == es << ok) ok++;
        if ((1 << ok) < v) v = 1 << ok;
    } else if (o->stride[of] != 1) {
        v = 1;
    }
    int vec = pow2_floor(v < 1 ? 1 : v);
    if (vec * es < 4) return false;
    for (int k = 0; k < l->noperands; k++)
        if (!evaluable(p, op_operand(l, k), 0)) return false;
    int64_t round = proxy ? 1023 : 127; /* (a descriptor's stage starts at a multiple of 1024 bytes) */
    *cd = (Cand){.load = l, .trans = tr, .vec = vec, .stride = {want.stride[0], want.stride[1]},
                 .swz = swz ? *swz : (SmemSwz){0}, .proxy = proxy, .stage_bytes = (bytes + round) & ~round,
                 .dot_smem_bytes = pl->smem_bytes};
    return true;
}

/* A wgmma dot's A that the loop does not change (attention's Q), read by
 * the tensor cores from shared memory: written there once, before the
 * loop (ttg.local_store), instead of kept in registers. */
typedef struct Fixed {
    Op *dot;
    SmemSwz swz;
    int64_t bytes, offset;
} Fixed;

static int fixed_operands(Pipe *p, int sm, Fixed *out, int max) {
    int n = 0;
    for (Op *o = p->body->first; o && n < max; o = o->next) {
        if (o->kind != TT_DOT || in_body(p, op_operand(o, 0))) continue;
        MmaPlan pl;
        if (!dot_plan(p->c, o, sm, p->mode, true, &pl) || !pl.a_desc) continue;
        out[n++] = (Fixed){.dot = o, .swz = pl.aswz, .bytes = (pl.a_bytes + 1023) & ~(int64_t)1023};
    }
    return n;
}

static void set_swizzle(Context *c, Op *op, const SmemSwz *z, bool swap) {
    /* [W, then for the op's dimension 0 and 1: its bits' count and strides,
     * then mma.sync's terms: shift, mask] */
    int64_t sw[3 + 2 * SWZ_MAX_BITS + 2 * SWZ_MAX_TERMS];
    int k = 0;
    sw[k++] = z->bytes;
    for (int j = 0; j < 2; j++) {
        int d = swap ? 1 - j : j;
        sw[k++] = z->nbits[d];
        for (int e = 0; e < z->nbits[d]; e++) sw[k++] = z->bit[d][e];
    }
    for (int t = 0; t < z->nterms; t++) sw[k++] = z->shift[t], sw[k++] = z->mask[t];
    op_set_attr_k(c, op, AN_SWIZZLE, attr_dense_array(c, ty_i64(c), sw, k));
}

static void set_int(Context *c, Op *op, AttrName name, int64_t v) {
    op_set_attr_k(c, op, name, attr_int(c, ty_i64(c), v));
}

/* The loop body's one tt.dot when that dot alone reads the loop-carried
 * value its result becomes (the matmul's accumulator), else NULL: its
 * wgmma may stay in flight through the rest of the iteration. */
static Op *lone_carried_dot(Block *body) {
    Op *dot = NULL, *guard;
    for (Op *o = body->first; o; o = o->next) {
        if (o->kind != TT_DOT) continue;
        if (dot) return NULL;
        dot = o;
    }
    return dot && mma_carried_acc(dot, &guard) && guard == dot ? dot : NULL;
}

/* Whether the dot's wgmma reads A through its descriptor (from a ring or
 * the fixed operands' region): A's fragments in registers would be
 * written by the next iteration while its group still reads them. */
static bool a_by_descriptor(const Pipe *p, Op *dot, const Cand *cs, int n, const Fixed *fx, int nfx, int sm) {
    Value *a = op_operand(dot, 0);
    bool shared = false;
    for (int i = 0; i < nfx; i++) shared |= fx[i].dot == dot;
    for (int i = 0; i < n; i++)
        shared |= a->def == cs[i].load ||
                  (a->def && a->def->kind == TT_TRANS && op_operand(a->def, 0)->def == cs[i].load);
    MmaPlan pl; /* (a_desc: wgmma's only) */
    return shared && dot_plan(p->c, dot, sm, p->mode, true, &pl) && pl.a_desc;
}

static Op *plain_op(Builder *b, OpKind kind, Value *const *opnds, int n) {
    return build_op(b, kind, opnds, n, NULL, 0, 0);
}

/* What a fixed operand's store writes: A, or, when A is hoist_a_fragments'
 * conversion of a tile to the fragments' layout, that tile as it was made
 * where its layout places in the swizzled one (the conversion, a trip
 * through shared memory, is then left without users). */
static Value *fixed_source(Context *c, Value *a, const SmemSwz *z) {
    Op *d = a->def;
    if (!d || d->kind != TTG_CONVERT_LAYOUT) return a;
    Value *x = op_operand(d, 0);
    Dist dx;
    int64_t coef[MMA_TID_BITS];
    int tid_bits;
    return type_dist(c, x->type, &dx) && swz_split(&dx, z, coef, &tid_bits, NULL) ? x : a;
}

/* The fixed operands stored where `b` builds (before the loop), each dot
 * reading its own through a ttg.local_load at its offset. */
static void store_fixed(Context *c, Builder *b, Fixed *fx, int nfx) {
    Type *i32 = ty_i32(c);
    for (int i = 0; i < nfx; i++) {
        Value *zero = build_const_int(b, i32, 0), *a = op_operand(fx[i].dot, 0);
        Value *ops[2] = {zero, fixed_source(c, a, &fx[i].swz)};
        Op *st = plain_op(b, TTG_LOCAL_STORE, ops, 2);
        set_int(c, st, AN_OFFSET, fx[i].offset);
        set_int(c, st, AN_STAGE_BYTES, fx[i].bytes);
        set_swizzle(c, st, &fx[i].swz, false);
        /* the dot reads it there */
        Builder db = builder_before(c, fx[i].dot);
        Value *z = build_const_int(&db, i32, 0);
        Type *t = a->type;
        Op *ll = build_op(&db, TTG_LOCAL_LOAD, &z, 1, &t, 1, 0);
        set_int(c, ll, AN_OFFSET, fx[i].offset);
        set_int(c, ll, AN_STAGE_BYTES, fx[i].bytes);
        op_set_operand(fx[i].dot, 0, op_result(ll, 0));
    }
}

/* A loop without rings (num_stages 1, or no load the rings can take: a
 * tile two dots read, as attention's backward reads Q^T and dO) still
 * gets its fixed operands in shared memory: held in registers, as
 * hoist_a_fragments leaves them, they stay live through the whole loop
 * beside its accumulators (the backward's K and V at BLOCK_N1 128: 64
 * registers a thread, and 255 with spills in all). Stored once before the
 * loop, fenced for the async proxy and made whole by the wait's barrier;
 * the loop's dots store their other operands above them. */
static int place_fixed(Context *c, Op *loop, int sm, int mode) {
    Block *body = region_entry(&loop->regions[0]);
    if (!body || body->next) return 0;
    Pipe p = {.c = c, .loop = loop, .body = body, .mode = mode};
    Fixed fx[MAX_LOADS];
    int nfx = fixed_operands(&p, sm, fx, MAX_LOADS);
    if (!nfx) return 0;
    int64_t off = 0, scratch = 0, limit = smem_limit(sm);
    for (int i = 0; i < nfx; i++) {
        off = (off + 1023) & ~(int64_t)1023;
        fx[i].offset = off, off += fx[i].bytes;
    }
    for (Op *o = body->first; o; o = o->next) {
        MmaPlan pl;
        if (o->kind == TT_DOT && dot_plan(c, o, sm, mode, false, &pl) && pl.smem_bytes > scratch)
            scratch = pl.smem_bytes;
    }
    if (off + scratch + 2048 > limit) return 0;
    Builder pb = builder_before(c, loop);
    Op *alloc = plain_op(&pb, TTG_LOCAL_ALLOC, NULL, 0);
    set_int(c, alloc, AN_SIZE, off);
    store_fixed(c, &pb, fx, nfx);
    Op *w = plain_op(&pb, TTG_ASYNC_WAIT, NULL, 0);
    set_int(c, w, AN_NUM, 0);
    op_set_attr_k(c, w, AN_PROXY_FENCE, attr_unit(c));
    Op *after = loop->next;
    Builder eb = after ? builder_before(c, after) : builder_at_end(c, loop->parent);
    plain_op(&eb, TTG_LOCAL_DEALLOC, NULL, 0);
    return nfx;
}

/* The copies of one iteration: env gives its values, stage its stage. */
static void issue(Pipe *p, Env env, Cand *cs, int n, Value *stage, Value *guard, Op *before) {
    Builder b = builder_before(p->c, before);
    for (int i = 0; i < n; i++) {
        Op *l = cs[i].load;
        Value *ptr = eval(p, env, op_operand(l, 0), before);
        Type *mt = ty_with_elem(p->c, ptr->type, ty_i1(p->c));
        Value *mask = build_unary(&b, TT_SPLAT, guard, mt);
        if (l->noperands > 1) mask = build_binary(&b, ARITH_ANDI, eval(p, env, op_operand(l, 1), before), mask);
        Value *ops[3] = {stage, ptr, mask};
        Op *cp = plain_op(&b, TTG_ASYNC_COPY, ops, 3);
        if (cs[i].copy) {
            op_copy_attrs(p->c, cp, cs[i].copy);
            continue;
        }
        set_int(p->c, cp, AN_OFFSET, cs[i].offset);
        set_int(p->c, cp, AN_STAGE_BYTES, cs[i].stage_bytes);
        if (cs[i].swz.bytes) {
            set_swizzle(p->c, cp, &cs[i].swz, cs[i].trans != NULL);
        } else {
            set_int(p->c, cp, AN_STRIDE0, cs[i].stride[0]);
            set_int(p->c, cp, AN_STRIDE1, cs[i].stride[1]);
        }
        set_int(p->c, cp, AN_VEC, cs[i].vec);
        cs[i].copy = cp;
    }
    plain_op(&b, TTG_ASYNC_COMMIT, NULL, 0);
}

static Value *in_range(Pipe *p, Builder *b, Value *iv) {
    int pred = op_attr_k(p->loop, AN_UNSIGNED_CMP) ? CMPI_ULT : CMPI_SLT;
    return build_cmp(b, ARITH_CMPI, pred, iv, op_operand(p->loop, 1));
}

/* iv + k * step, before the builder's point. */
static Value *iv_plus(Pipe *p, Builder *b, Value *iv, int k) {
    if (!k) return iv;
    Value *step = op_operand(p->loop, 2);
    return build_binary(b, ARITH_ADDI, iv, build_binary(b, ARITH_MULI, step, build_const_int(b, step->type, k)));
}

/* (s + 1) mod S for a stage counter. */
static Value *next_stage(Builder *b, Value *s, int stages) {
    Value *n = build_binary(b, ARITH_ADDI, s, build_const_int(b, s->type, 1));
    Value *wrap = build_cmp(b, ARITH_CMPI, CMPI_EQ, n, build_const_int(b, s->type, stages));
    Value *ops[3] = {wrap, build_const_int(b, s->type, 0), n};
    Type *t = s->type;
    return op_result(build_op(b, ARITH_SELECT, ops, 3, &t, 1, 0), 0);
}

/* The ring's stage rs read as `view` (a load's tile, or a tt.trans of it)
 * is: a ttg.local_load there, before view's op, takes its uses. */
static void ring_view(Context *c, Value *view, Value *rs, const Cand *cd) {
    Builder lb = builder_before(c, view->def);
    Type *t = view->type;
    Op *ll = build_op(&lb, TTG_LOCAL_LOAD, &rs, 1, &t, 1, 0);
    set_int(c, ll, AN_OFFSET, cd->offset);
    set_int(c, ll, AN_STAGE_BYTES, cd->stage_bytes);
    op_result(ll, 0)->name = view->name;
    value_replace_all_uses(view, op_result(ll, 0));
}

/* Pipelines the loads of an innermost loop. */
static int pipeline_loop(Context *c, Op *loop, int num_stages, int num_warps, int sm, int mode, AxisAnalysis *aa) {
    Block *body;
    Op *yield, *tr;
    int ns = pipeline_loop_shape(loop, num_stages, &body, &yield);
    if (!ns) return place_fixed(c, loop, sm, mode);
    Pipe p = {.c = c, .loop = loop, .body = body, .yield = yield, .aa = aa, .mode = mode};
    Cand cs[MAX_LOADS];
    int n = 0;
    for (Op *o = body->first; o && n < MAX_LOADS; o = o->next) {
        /* (what candidate takes: no trial state for the rest) */
        if (o->kind != TT_LOAD || !dot_use(&p, o, &tr)) continue;
        Pipe trial = p; /* the state the load needs is kept only if it is taken */
        trial.state = (Map){0};
        trial.args.data = NULL, trial.args.len = trial.args.cap = 0;
        for (int i = 0; i < p.args.len; i++) {
            map_put(&trial.state, MAP_KEY(p.args.data[i]), (void *)1);
            vec_push(&trial.args, p.args.data[i]);
        }
        if (candidate(&trial, o, sm, &cs[n])) {
            n++;
            map_free(&p.state);
            vec_free(&p.args);
            p.state = trial.state, p.args = trial.args;
        } else {
            map_free(&trial.state);
            vec_free(&trial.args);
        }
    }
    /* stages: the rings, and above them the largest region a ring dot may
     * still store its other operand into, within the device's limit; the
     * loop-invariant wgmma operands beside them */
    Fixed fx[MAX_LOADS];
    int nfx = n ? fixed_operands(&p, sm, fx, MAX_LOADS) : 0;
    int64_t per_stage = 0, extra = 0, limit = smem_limit(sm);
    /* descr: a ring (or fixed operand) that wgmma reads through descriptors */
    bool descr = nfx > 0;
    for (int i = 0; i < nfx; i++) extra += fx[i].bytes;
    for (int i = 0; i < n; i++) {
        per_stage += cs[i].stage_bytes;
        descr |= cs[i].proxy;
        if (cs[i].dot_smem_bytes > extra) extra = cs[i].dot_smem_bytes;
    }
    if (descr) extra += 1024; /* (a descriptor's ring's alignment) */
    /* wgmma in flight across iterations (deferred, see the header): one
     * stage more, so that an iteration's copies overwrite the stage of the
     * dot two iterations back, not the one still being read */
    int stages = ns;
    while (n && stages >= 2 && stages * per_stage + extra + 1024 > limit) stages--;
    if (!n || stages < 2) {
        map_free(&p.state);
        vec_free(&p.args);
        return place_fixed(c, loop, sm, mode);
    }
    /* Deferred wgmma waits take a stage more: only when that keeps as
     * many CTAs on a multiprocessor (on the H200, the 128x128x64 fp16
     * matmul at 4096^3 took 1.45x Triton's time with it, one CTA a
     * multiprocessor, against 1.3x without, two; at 1024^3, 64 CTAs,
     * 1.19x against 1.23x). CTAs are bounded by shared memory and by
     * registers, those estimated as the loop's dots' accumulators per
     * thread and 64 more. Only for a loop with a dot whose wait may be
     * deferred (see mma_carried_acc). */
    int64_t acc = 0;
    bool may_defer = false;
    for (Op *o = body->first; o; o = o->next) {
        if (o->kind != TT_DOT) continue;
        acc += ty_numel(op_result(o, 0)->type); /* (a loop's dots' accumulators are live together) */
        Op *guard;
        may_defer |= mma_carried_acc(o, &guard) && guard;
    }
    int64_t threads = 32 * (int64_t)num_warps, regs = acc / threads + 64;
    int64_t by_regs = 65536 / (threads * (regs < 255 ? regs : 255)), sm_smem = limit + 1024;
    int64_t now_bytes = stages * per_stage + 2048, more_bytes = now_bytes + per_stage; /* (the rings, aligned) */
    int64_t ctas_now = sm_smem / now_bytes < by_regs ? sm_smem / now_bytes : by_regs;
    int64_t ctas_more = sm_smem / more_bytes < by_regs ? sm_smem / more_bytes : by_regs;
    bool deferred = may_defer && descr && stages == ns && (stages + 1) * per_stage + extra + 1024 <= limit &&
                    ctas_more >= ctas_now;
    /* Otherwise a loop of one wgmma dot that alone reads its carried
     * accumulator copies after it, as Triton orders it (late copies, see
     * the header): no stage more */
    int lm = wgmma_late_mode();
    Op *lone = lm && descr ? lone_carried_dot(body) : NULL;
    bool late = lone && (lm == 2 || !deferred) && a_by_descriptor(&p, lone, cs, n, fx, nfx, sm);
    if (late) deferred = false;
    if (deferred) stages++;
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
        if (cs[i].proxy) off = (off + 1023) & ~(int64_t)1023;
        cs[i].offset = off, off += stages * cs[i].stage_bytes;
    }
    for (int i = 0; i < nfx; i++) {
        off = (off + 1023) & ~(int64_t)1023;
        fx[i].offset = off, off += fx[i].bytes;
    }
    int ahead = deferred ? stages - 2 : stages - 1;
    /* (the facts no one has asked for yet are computed now, from the IR
     * the analysis was made from: the loop is rebuilt below) */
    axis_analysis_complete(aa);
    number_body(&p);
    p.fixed = tc_calloc((size_t)p.nvals, sizeof(Value *));
    /* (at most one clone of each body op's results per iteration) */
    map_reserve(&p.clones, p.nvals);

    /* prologue */
    Builder pb = builder_before(c, loop);
    Op *alloc = plain_op(&pb, TTG_LOCAL_ALLOC, NULL, 0);
    set_int(c, alloc, AN_SIZE, off);
    Type *i32 = ty_i32(c);
    store_fixed(c, &pb, fx, nfx);
    bool ring_fence = ring_fence_mode();
    if (nfx && !ring_fence) {
        /* (the fixed operands' st.shared, for the tensor cores: fenced
         * once here when the wait at the loop's top fences nothing) */
        Op *fw = plain_op(&pb, TTG_ASYNC_WAIT, NULL, 0);
        set_int(c, fw, AN_NUM, 0);
        op_set_attr_k(c, fw, AN_PROXY_FENCE, attr_unit(c));
    }
    int nargs = p.args.len;
    Value **state = tc_calloc((size_t)nargs + 1, sizeof(Value *));
    for (int k = 0; k < nargs; k++) state[k] = op_operand(loop, 3 + p.args.data[k]->index - 1);
    for (int j = 0; j < ahead; j++) {
        Env env = tc_calloc((size_t)p.nvals, sizeof(Value *));
        Value *iv = iv_plus(&p, &pb, op_operand(loop, 0), j);
        env[body_index(&p, body->args[0])] = iv;
        for (int k = 0; k < nargs; k++) env[body_index(&p, p.args.data[k])] = state[k];
        issue(&p, env, cs, n, build_const_int(&pb, i32, j), in_range(&p, &pb, iv), loop);
        for (int k = 0; k < nargs; k++)
            state[k] = eval(&p, env, op_operand(yield, p.args.data[k]->index - 1), loop);
        tc_free(env);
    }

    /* the loop: the state S-1 iterations ahead and the two stage counters
     * become loop-carried values */
    int nold = loop->noperands, nres = loop->nresults, more = nargs + 2;
    Value **opnds = tc_calloc((size_t)(nold + more), sizeof(Value *));
    Type **types = tc_calloc((size_t)(nres + more), sizeof(Type *));
    int *keep = tc_calloc((size_t)nres + 1, sizeof(int));
    for (int i = 0; i < nold; i++) opnds[i] = op_operand(loop, i);
    for (int i = 0; i < nres; i++) types[i] = op_result(loop, i)->type, keep[i] = i;
    for (int k = 0; k < nargs; k++) opnds[nold + k] = state[k], types[nres + k] = state[k]->type;
    opnds[nold + nargs] = build_const_int(&pb, i32, 0);
    opnds[nold + nargs + 1] = build_const_int(&pb, i32, ahead % stages);
    types[nres + nargs] = types[nres + nargs + 1] = i32;
    Value **aargs = tc_calloc((size_t)more, sizeof(Value *));
    for (int k = 0; k < nargs; k++) aargs[k] = block_add_arg(c, body, state[k]->type, loop->loc);
    Value *rs = block_add_arg(c, body, i32, loop->loc), *ws = block_add_arg(c, body, i32, loop->loc);

    Op *first = body->first;
    Builder bb = builder_before(c, first);
    Op *wait = plain_op(&bb, TTG_ASYNC_WAIT, NULL, 0);
    set_int(c, wait, AN_NUM, ahead - 1);
    /* a ring the tensor cores read through descriptors (wgmma's B: the
     * async proxy) sees the copies' writes after a proxy fence */
    if (descr && ring_fence) op_set_attr_k(c, wait, AN_PROXY_FENCE, attr_unit(c));
    if (deferred) op_set_attr_k(c, wait, AN_WGMMA_DEFERRED, attr_unit(c));
    Env env = tc_calloc((size_t)p.nvals, sizeof(Value *));
    Value *iv = iv_plus(&p, &bb, body->args[0], ahead);
    env[body_index(&p, body->args[0])] = iv;
    for (int k = 0; k < nargs; k++) env[body_index(&p, p.args.data[k])] = aargs[k];
    if (late) {
        /* (after the dot: its wgmma waits for the previous iteration's
         * group, then every warpgroup's wait before the barrier) */
        op_set_attr_k(c, wait, AN_WGMMA_LATE, attr_unit(c));
        Builder lb = builder_before(c, yield);
        plain_op(&lb, GPU_BARRIER, NULL, 0);
        issue(&p, env, cs, n, ws, in_range(&p, &lb, iv), yield);
    } else if (!descr && mma_late_copies()) {
        /* (mma.sync: after the dots' ldmatrix and mma, as Triton orders
         * them; the stage they overwrite, iteration i-1's, every warp has
         * read before the barrier at this iteration's top) */
        Builder lb = builder_before(c, yield);
        issue(&p, env, cs, n, ws, in_range(&p, &lb, iv), yield);
    } else {
        issue(&p, env, cs, n, ws, in_range(&p, &bb, iv), first);
    }
    for (int i = 0; i < n; i++) {
        /* the dots' operands: the load's tile, and each transpose of it */
        Value *tile = op_result(cs[i].load, 0);
        for (Use *u = tile->uses, *next; u; u = next) {
            next = u->next;
            if (u->owner->kind == TT_TRANS) ring_view(c, op_result(u->owner, 0), rs, &cs[i]);
        }
        if (tile->uses) ring_view(c, tile, rs, &cs[i]);
    }
    Builder yb = builder_before(c, yield);
    int ny = yield->noperands;
    Value **yops = tc_calloc((size_t)(ny + more), sizeof(Value *));
    for (int i = 0; i < ny; i++) yops[i] = op_operand(yield, i);
    for (int k = 0; k < nargs; k++) yops[ny + k] = eval(&p, env, op_operand(yield, p.args.data[k]->index - 1), yield);
    yops[ny + nargs] = next_stage(&yb, rs, stages);
    yops[ny + nargs + 1] = next_stage(&yb, ws, stages);
    op_set_operands(c, yield, yops, ny + more);
    for (int i = 0; i < n; i++) {
        Value *tile = op_result(cs[i].load, 0);
        while (tile->uses) op_erase(tile->uses->owner); /* (the tt.trans ops, now unused) */
        op_erase(cs[i].load);
    }
    loop = op_rebuild(c, loop, opnds, nold + more, types, nres + more, keep);

    /* epilogue */
    Op *after = loop->next;
    Builder eb = after ? builder_before(c, after) : builder_at_end(c, loop->parent);
    Op *w0 = plain_op(&eb, TTG_ASYNC_WAIT, NULL, 0);
    set_int(c, w0, AN_NUM, 0);
    if (deferred || late) set_int(c, w0, AN_WGMMA_WAIT, 0);
    plain_op(&eb, TTG_LOCAL_DEALLOC, NULL, 0);

    tc_free(env);
    map_free(&p.state);
    tc_free(p.fixed);
    map_free(&p.clones);
    vec_free(&p.args);
    tc_free(state);
    tc_free(opnds);
    tc_free(types);
    tc_free(keep);
    tc_free(aargs);
    tc_free(yops);
    return n;
}

int pipeline_async_copy(Context *c, Op *module, int num_stages, int num_warps, int sm) {
    int n = 0;
    for (Op *f = module_body(module)->first; f; f = f->next) {
        if (f->kind != TT_FUNC) continue;
        /* the innermost scf.for loops, those that no loop (scf.for or
         * scf.while) nested in them follows in the pre-order of both (a
         * loop's nested ones follow it there), in program order; pipelining
         * one changes no other's nesting */
        OpList all = {0}, loops = {0};
        collect_ops(f, SCF_FOR, SCF_WHILE, false, &all);
        bool any_for = false;
        for (int i = 0; i < all.len; i++) {
            if (all.data[i]->kind != SCF_FOR) continue;
            any_for = true;
            if (!(i + 1 < all.len && nested_in(all.data[i + 1], all.data[i]))) vec_push(&loops, all.data[i]);
        }
        vec_free(&all);
        if (any_for) {
            /* the facts of the IR before any loop is pipelined answer for
             * every loop (values made on the way read as unknown) */
            AxisAnalysis *aa = axis_analysis_get(c, f);
            int k = 0, mode = async_copy_mode();
            for (int i = 0; i < loops.len; i++)
                k += pipeline_loop(c, loops.data[i], num_stages, num_warps, sm, mode, aa);
            /* the values made here are brought in when the emitter asks,
             * after the CSE (the prologues shrink by half) */
            if (k) axis_analysis_keep_behind(c, aa);
            else axis_analysis_keep(c, aa);
            n += k;
        }
        vec_free(&loops);
    }
    return n;
}

bool pass_pipeline_async_copy(Op *module, PassContext *pc) {
    int64_t ns = 3, nw = 4;
    op_attr_int(module, "tt.num-stages", &ns);
    op_attr_int(module, "ttg.num-warps", &nw);
    int sm = 90;
    const char *t = op_attr_str(module, "ttg.target");
    if (t && strncmp(t, "cuda:", 5) == 0) sm = (int)strtol(t + 5, NULL, 10);
    pc->changes += pipeline_async_copy(pc->ctx, module, (int)ns, (int)nw, sm);
    return true;
}

/* Late copies (Triton's order) for a wgmma ring loop: 0 never
 * (TRITONC_WGMMA_LATE=0), 1 where no stage more defers the wait (the
 * default), 2 instead of that too (TRITONC_WGMMA_LATE=2). */
int wgmma_late_mode(void) {
    const char *e = getenv("TRITONC_WGMMA_LATE");
    if (e && strcmp(e, "0") == 0) return 0;
    return e && strcmp(e, "2") == 0 ? 2 : 1;
}

/* Late copies for an mma.sync ring loop (TRITONC_MMA_LATE=1): the next
 * stage's cp.async after the body's dots rather than before them. */
bool mma_late_copies(void) {
    const char *e = getenv("TRITONC_MMA_LATE");
    return e && strcmp(e, "1") == 0;
}

/* Whether the wait at a ring loop's top fences the cp.async copies' writes
 * for the tensor cores' reads through the async proxy (TRITONC_RING_FENCE=0:
 * not). */
bool ring_fence_mode(void) {
    const char *e = getenv("TRITONC_RING_FENCE");
    return !(e && strcmp(e, "0") == 0);
}

/* On unless TRITONC_ASYNC_COPY=0; TRITONC_ASYNC_COPY=1 (tests, the
 * simulator) also takes tf32 dots, which the default leaves on the register
 * path: on the H100 (2026-11-25, bench/gpu/dot_vs_triton.py) cp.async made
 * the fp16 matmul 1.07-1.46x faster (1024^3: 2.07 -> 1.42x Triton's time;
 * 4096^3 at 8 warps 2.42 -> 1.87) and attention 1.12-1.20x faster, but the
 * tf32 matmul 2048^3 1.22x slower (0.87 -> 1.07x Triton's time): fp32 tiles
 * take twice the shared memory per stage. */
int async_copy_mode(void) {
    const char *e = getenv("TRITONC_ASYNC_COPY");
    if (e && strcmp(e, "0") == 0) return 0;
    return e && strcmp(e, "1") == 0 ? 2 : 1;
}

bool async_copy_enabled(void) { return async_copy_mode() != 0; }
