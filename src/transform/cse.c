/*
 * cse.c - common subexpression elimination (`cse`).
 *
 * Two pure ops compute the same value when they have the same kind, the
 * same operands (for a commutative op, in either order), the same
 * attributes and the same result types; the later one can then use the
 * earlier one's results if the earlier one dominates it. In this IR's
 * structured control flow, an op dominates everything after it in its
 * block and everything nested in the regions of ops after it, so a
 * preorder walk with a scoped hash table is exact: entering a block opens
 * a scope, leaving it closes it, and a lookup sees the ops of the enclosing
 * blocks only (a value from an outer block is reused inside a region, never
 * the other way). Each tt.func starts from an empty table (isolated).
 *
 * Only pure ops without regions take part: loads, stores, atomics, calls
 * and anything with a memory effect are never merged, and ops with regions
 * (scf.*, tt.reduce) are skipped, which MLIR also does for non-identical
 * regions. Attributes and types are uniqued, so comparing them is comparing
 * pointers.
 *
 * The table is an array of entries chained per bucket; a scope is the entry
 * count at its start, and closing it pops entries (each was pushed at the
 * head of its bucket, so popping in reverse order restores the heads). Each
 * op is hashed and compared O(operands + attributes) times: O(ops) overall.
 *
 * An op that is the only user of one of its operands is neither looked up
 * nor entered (most are: x * y + z is two of them), for no op before it
 * equals it (that op would use the operand too), and none after it can
 * unless the operand gains users, which only a merge into the op that
 * defines it gives (every other user exists already and would make two).
 * So the ops left out are kept, in scope, beside the table, and a merge
 * into a value whose one user is such an op enters that op then ("late"):
 * from the merge on, the table answers as it would have with every op in
 * it. (A late entry can sit above the scope of a nested block: closing
 * that scope enters it again.)
 */
#include "transform/pass.h"

#include <string.h>

/* (the hashing and the probe are inlined into the walk over the ops, not
 * called per op: a merge calls them too) */

typedef struct Entry {
    Op *op;
    uint64_t hash; /* (its low bits are the bucket) */
    int next;   /* next entry in the bucket, -1 at the end */
    bool late;  /* entered by enter_late: closing a scope reads the op's
                   mark only for these (the others' ops are not loaded) */
} Entry;

typedef struct Table {
    VEC(Entry) entries;
    int *heads; /* bucket -> first entry, -1 when empty */
    int nbuckets;
    /* the ops left out of the table (see above), in order: a scope is also
     * their count at its start; each one's `mark` is `skip` while it is in
     * scope (0 once out), `late` once a merge has entered it */
    VEC(Op *) skipped;
    int skip_mark, late_mark;
    int nlate; /* the late entries made */
    VEC(Entry) reenter; /* (table_pop_to's) */
    /* the merges are checked for canonicalize's fixed point (pass.h):
     * while it stood when the pass began and every merge so far kept it
     * (shared with the tables of isolated regions) */
    bool *count_unseen;
    /* some op seen may be dead code for dce (see may_be_dead; the outer
     * table gets an isolated region's answer when it is done) */
    bool may_be_dead;
} Table;

/* One multiply per field and a full mix at the end (the fields are
 * pointers and a kind; a full mix per field was most of the hashing). */
static inline uint64_t mix(uint64_t h, uint64_t v) { return ((h << 5 | h >> 59) ^ v) * 0x9e3779b97f4a7c15ULL; }

/* The operands of a commutative binary op hash as the same pair in either
 * order: their sum and xor do not depend on it. */
static ALWAYS_INLINE uint64_t op_hash(const Op *op, unsigned flags) {
    uint64_t h = (uint64_t)op->kind + 1;
    const Use *u = op->operands;
    int n = op->noperands;
    if (n == 2 && (flags & OPF_COMMUTATIVE)) {
        uint64_t a = MAP_KEY(u[0].value), b = MAP_KEY(u[1].value);
        h = mix(mix(h, a + b), a ^ b);
    } else if (n == 1) { /* (most ops have one or two operands and one result: no loop for those) */
        h = mix(h, MAP_KEY(u[0].value));
    } else if (n == 2) {
        h = mix(mix(h, MAP_KEY(u[0].value)), MAP_KEY(u[1].value));
    } else {
        for (int i = 0; i < n; i++) h = mix(h, MAP_KEY(u[i].value));
    }
    for (int i = 0; i < op->nattrs; i++) h = mix(h, MAP_KEY(op->attrs[i].attr));
    if (op->nresults == 1) h = mix(h, MAP_KEY(op->results[0].type)); /* (most ops) */
    else
        for (int i = 0; i < op->nresults; i++) h = mix(h, MAP_KEY(op->results[i].type));
    /* (the last multiply mixed every field into the high bits; the bucket
     * is the low ones) */
    return h ^ h >> 29;
}

/* (x and y have the same hash, so most often they are equal; inline in
 * the probe, which gcc kept calling) */
static ALWAYS_INLINE bool op_equal(const Op *x, const Op *y) {
    if (x->kind != y->kind || x->noperands != y->noperands || x->nresults != y->nresults ||
        x->nattrs != y->nattrs)
        return false;
    int n = x->noperands;
    const Use *a = x->operands, *b = y->operands;
    if (n == 2 && op_has_flag(x, OPF_COMMUTATIVE)) {
        if (!((a[0].value == b[0].value && a[1].value == b[1].value) ||
              (a[0].value == b[1].value && a[1].value == b[0].value)))
            return false;
    } else {
        for (int i = 0; i < n; i++)
            if (a[i].value != b[i].value) return false;
    }
    for (int i = 0; i < x->nattrs; i++)
        if (x->attrs[i].name != y->attrs[i].name || x->attrs[i].attr != y->attrs[i].attr) return false;
    for (int i = 0; i < x->nresults; i++)
        if (x->results[i].type != y->results[i].type) return false;
    return true;
}

/* Whether dce might remove op or prune its results: a result that nothing
 * uses (dce's scf.for and scf.while pruning included), or no results and
 * removable. (Merging an op never leaves another one dead: the op it is
 * merged into uses the same operands. So the dead code after cse is the
 * dead code before it that this finds, and dce after cse has work only if
 * this held for some op.) */
static bool may_be_dead_slow(Op *op) {
    int unused = 0;
    for (int i = 0; i < op->nresults; i++) unused += !op->results[i].uses;
    if (op->kind == SCF_FOR && unused && unused < op->nresults) {
        /* a loop in use (attention's, whose pointers' last values nothing
         * reads) loses result i only when its body uses argument i + 1
         * at most as operand i of its scf.yield */
        Block *body = region_entry(&op->regions[0]);
        Op *yield = body ? block_terminator(body) : NULL;
        for (int i = 0; i < op->nresults; i++) {
            if (op->results[i].uses) continue;
            if (!yield || i + 1 >= body->nargs) return true;
            bool only_yield = true;
            for (Use *u = body->args[i + 1]->uses; u && only_yield; u = u->next)
                only_yield = u->owner == yield && (int)(u - yield->operands) == i;
            if (only_yield) return true;
        }
        return false;
    }
    if (unused) return true;
    return op->nresults == 0 && !op_has_flag(op, OPF_TERMINATOR) && (op->nregions || op_is_removable(op));
}

/* (most ops: one result, which something uses) */
static inline bool may_be_dead(Op *op) {
    return op->nresults == 1 && op->results[0].uses ? false : may_be_dead_slow(op);
}

/* Whether op is the only user of its first or second operand (see above;
 * the later ones are not asked about: the test is on every op). */
static inline bool only_use(const Use *u) {
    /* (the first and last of its value's uses, read off the use itself: no
     * load of the value, which lies in another op, often out of cache) */
    return u->value && !u->next && u->pprev == &u->value->uses;
}
static inline bool sole_user(const Op *op) {
    const Use *u = op->operands;
    return (op->noperands > 0 && only_use(&u[0])) || (op->noperands > 1 && only_use(&u[1]));
}

/* The kinds whose ops take part: pure, not terminators, without regions
 * and with results, as the op table's columns say (a byte per kind, read
 * for every op; the counts are checked on the op too, as they may vary) */
static const bool cse_kind[OP_COUNT] = {
#define OP(kind, name, fmt, nopmin, nopmax, nres, nreg, flags, verify, fold) \
    [kind] = ((flags) & (OPF_PURE | OPF_TERMINATOR)) == OPF_PURE && (nreg) == 0 && (nres) != 0,
#include "dialect/ops.def"
#undef OP
};

static inline bool cse_candidate(const Op *op) {
    return cse_kind[op->kind] && op->nregions == 0 && op->nresults > 0;
}

/* Room for at least `want` entries (a power of two of buckets). */
static void table_grow_to(Table *t, int want) {
    int n = t->nbuckets ? t->nbuckets * 2 : 1024;
    while (n < want && n < (1 << 24)) n *= 2;
    vec_reserve(&t->entries, n); /* (room for as many entries as buckets) */
    tc_free(t->heads);
    t->heads = tc_malloc(sizeof(int) * (size_t)n);
    t->nbuckets = n;
    memset(t->heads, 0xff, sizeof(int) * (size_t)n); /* (all -1) */
    /* relink in push order so each bucket's head is its newest entry */
    for (int i = 0; i < t->entries.len; i++) {
        Entry *e = &t->entries.data[i];
        int b = (int)(e->hash & (uint64_t)(n - 1));
        e->next = t->heads[b];
        t->heads[b] = i;
    }
}

static void table_grow(Table *t) { table_grow_to(t, 0); }

/* The op equal to op in t, if any; else op is pushed (one probe of its
 * bucket for both). */
static ALWAYS_INLINE Op *table_find_or_push(Table *t, Op *op, uint64_t h, bool late) {
    if (t->entries.len + 1 > t->nbuckets) table_grow(t);
    int b = (int)(h & (uint64_t)(t->nbuckets - 1));
    Entry *es = t->entries.data;
    for (int i = t->heads[b]; i >= 0; i = es[i].next)
        if (es[i].hash == h && op_equal(es[i].op, op)) return es[i].op;
    /* (room for as many entries as buckets: see table_grow_to) */
    es[t->entries.len] = (Entry){op, h, t->heads[b], late};
    t->heads[b] = t->entries.len++;
    return NULL;
}

/* A merge is about to give v the users of an equal value: v's one user,
 * if it is an op left out of the table and still in scope, goes in. */
static NOT_INLINE void enter_late(Table *t, Op *user) {
    user->mark = t->late_mark;
    t->nlate++;
    table_find_or_push(t, user, op_hash(user, op_info[user->kind].flags), true); /* (nothing equals it) */
}

static inline void gains_users(Table *t, Value *v) {
    Use *u = v->uses;
    if (u && !u->next && u->owner->mark == t->skip_mark) enter_late(t, u->owner);
}

/* Closes the scopes above `len` entries and `skipped` ops left out; the
 * late entries among those popped whose ops are in scope go in again. */
static NOT_INLINE void table_pop_late(Table *t, int len, int skipped) {
    t->reenter.len = 0;
    while (t->entries.len > len) {
        Entry e = vec_pop(&t->entries);
        t->heads[e.hash & (uint64_t)(t->nbuckets - 1)] = e.next;
        if (e.late && e.op->mark == t->late_mark) vec_push(&t->reenter, e);
    }
    while (t->skipped.len > skipped) vec_pop(&t->skipped)->mark = 0;
    for (int i = t->reenter.len - 1; i >= 0; i--)
        if (t->reenter.data[i].op->mark == t->late_mark)
            table_find_or_push(t, t->reenter.data[i].op, t->reenter.data[i].hash, true);
}

static inline void table_pop_to(Table *t, int len, int skipped) {
    if (t->nlate) {
        table_pop_late(t, len, skipped);
        return;
    }
    uint64_t mask = (uint64_t)(t->nbuckets - 1);
    while (t->entries.len > len) {
        Entry e = vec_pop(&t->entries);
        t->heads[e.hash & mask] = e.next;
    }
    while (t->skipped.len > skipped) vec_pop(&t->skipped)->mark = 0;
}

/* Empties t: entry by entry, or, when there are many, all buckets at once
 * (a function's outermost scope holds most of its ops); the ops left out
 * leave its scope. */
static void table_clear(Table *t) {
    /* (the ops left out first: then no late entry goes in again) */
    while (t->skipped.len) vec_pop(&t->skipped)->mark = 0;
    if (t->entries.len > t->nbuckets / 16) {
        memset(t->heads, 0xff, sizeof(int) * (size_t)t->nbuckets);
        t->entries.len = 0;
    } else {
        table_pop_to(t, 0, 0);
    }
}

static void table_free(Table *t) {
    vec_free(&t->entries);
    tc_free(t->heads);
    vec_free(&t->skipped);
    vec_free(&t->reenter);
}

/* CSE of block b in a new scope of t, closed at the end unless b is the
 * outermost block of t (`outer`): its owner empties the table. */
static void cse_block(Table *t, Block *b, PassContext *pc, bool outer) {
    int scope = t->entries.len, skipped = t->skipped.len;
    for (Op *op = b->first, *next; op; op = next) {
        next = op->next;
        op_prefetch(op, OP_PREFETCH_DIST);
        if (cse_candidate(op)) {
            Op *prev;
            if (sole_user(op)) {
                op->mark = t->skip_mark;
                vec_push(&t->skipped, op);
                prev = NULL;
            } else {
                uint64_t h = op_hash(op, op_info[op->kind].flags);
                prev = table_find_or_push(t, op, h, false);
            }
            if (prev) {
                if (*t->count_unseen) {
                    bool unseen = canonicalize_unmoved_by_merge(op, prev);
                    pc->unseen += unseen;
                    *t->count_unseen = unseen;
                }
                for (int i = 0; i < op->nresults; i++) {
                    gains_users(t, &prev->results[i]);
                    value_replace_all_uses(&op->results[i], &prev->results[i]);
                }
                op_erase(op);
                pc->changes++;
                continue;
            }
        }
        if (!t->may_be_dead && may_be_dead(op)) t->may_be_dead = true;
        for (int r = 0; r < op->nregions; r++) {
            if (op_has_flag(op, OPF_ISOLATED)) {
                Table inner = {.count_unseen = t->count_unseen, .may_be_dead = t->may_be_dead,
                               .skip_mark = t->skip_mark, .late_mark = t->late_mark};
                for (Block *ib = op->regions[r].first; ib; ib = ib->next) {
                    table_clear(&inner);
                    cse_block(&inner, ib, pc, true);
                }
                table_clear(&inner); /* (its ops left out leave scope) */
                t->may_be_dead = inner.may_be_dead;
                table_free(&inner);
                continue;
            }
            for (Block *ib = op->regions[r].first; ib; ib = ib->next) cse_block(t, ib, pc, false);
        }
    }
    if (!outer) table_pop_to(t, scope, skipped);
}

bool pass_cse(Op *module, PassContext *pc) {
    /* the marks of this run: other passes leave marks below 2^30 (block
     * numbers, counts) or negative ones (canonicalize) */
    static _Atomic unsigned runs;
    int mark = (int)(0x40000000u | ((++runs << 1) & 0x3ffffffeu));
    bool count_unseen = canonicalize_fixed_point_stands(pc);
    Table t = {.count_unseen = &count_unseen, .skip_mark = mark,
               .late_mark = mark + 1};
    /* sized for a quarter of the values there are: the ops that are the
     * only user of an operand stay out of the table (most of them), and a
     * kernel's table holds about a fifth of its values (deform_conv2d's,
     * 439 of 2311), so its buckets (cleared, then probed at random) stay
     * few and in cache; the expanded fp64 math, whose values are mostly
     * pure ops' results, grows it once or twice (from all the values, as
     * this did, it never did) */
    table_grow_to(&t, (int)(ctx_value_count(pc->ctx) / 4));
    vec_reserve(&t.skipped, t.nbuckets / 2);
    for (Op *f = module_body(module)->first; f; f = f->next)
        for (int r = 0; r < f->nregions; r++)
            for (Block *b = f->regions[r].first; b; b = b->next) {
                table_clear(&t);
                cse_block(&t, b, pc, true);
            }
    bool may_be_dead = t.may_be_dead;
    table_free(&t);
    /* (dce also erases private functions that no call reaches) */
    for (Op *f = module_body(module)->first; f && !may_be_dead; f = f->next)
        may_be_dead = f->kind == TT_FUNC && func_is_private(f);
    pc->dead_free = !may_be_dead;
    pc->dead_free_at = pc->changes;
    return true;
}
