/*
 * op.c - creating, linking, editing and walking ops, blocks and regions.
 *
 * Operands are Use records threaded on their value's use list (a doubly
 * linked list through `pprev`), so setting an operand and replacing all
 * uses are O(1) per use. Named attributes are kept sorted by name (they are
 * few; insertion sort) so printing is deterministic.
 */
#include "ir/ir.h"

#include <pthread.h>
#include <string.h>

/* (op_fill and the block links are inlined into build_op: see there) */

const char *const cmpi_pred_names[CMPI_COUNT] = {"eq",  "ne",  "slt", "sle", "sgt",
                                                 "sge", "ult", "ule", "ugt", "uge"};
const char *const cmpf_pred_names[CMPF_COUNT] = {
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq",   "ugt", "uge", "ult", "ule", "une", "uno", "true"};

const char *const attr_names[AN_COUNT] = {
#define ATTR_NAME(id, text) [AN_##id] = text,
#include "ir/attr_names.def"
#undef ATTR_NAME
};

static InternFixed attr_name_set;
static void build_attr_name_set(void) { intern_fixed_init(&attr_name_set, attr_names, AN_COUNT); }

Context *ctx_new(DiagEngine *de) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_attr_name_set);
    _Static_assert((int)AN_COUNT <= (int)INTERN_FIXED_MAX, "attr_names fits an InternFixed");
    Arena *a = arena_new();
    Context *c = ARENA_NEW(a, Context);
    c->arena = a;
    interner_init(&c->strings, a);
    c->strings.fixed = &attr_name_set;
    /* (a kernel's compile makes a hundred or two types and as many
     * attributes: sized for that, the tables are not rehashed on the way) */
    map_reserve(&c->types, 200);
    map_reserve(&c->attrs, 200);
    c->diag = de;
    return c;
}

void ctx_free(Context *c) {
    if (!c) return;
    interner_free(&c->strings);
    map_free(&c->types);
    map_free(&c->attrs);
    map_free(&c->layouts);
    map_free(&c->layout_attrs);
    arena_free(c->arena); /* frees c itself */
}

const char *ctx_intern(Context *c, const char *s) {
    unsigned slot = (unsigned)((MAP_KEY(s) * 0x9e3779b97f4a7c15ULL) >> 58);
    _Static_assert(TC_ARRAY_LEN(c->intern_memo) == 64, "slot is 6 bits");
    if (c->intern_memo[slot].s == s && strcmp(c->intern_memo[slot].interned, s) == 0)
        return c->intern_memo[slot].interned;
    const char *r = intern(&c->strings, s);
    c->intern_memo[slot].s = s;
    c->intern_memo[slot].interned = r;
    return r;
}

/* ---- uses ----------------------------------------------------------------- */

static void use_link(Use *u, Value *v) {
    u->value = v;
    if (!v) return;
    u->next = v->uses;
    if (v->uses) v->uses->pprev = &u->next;
    u->pprev = &v->uses;
    v->uses = u;
}

static void use_unlink(Use *u) {
    if (!u->value) return;
    *u->pprev = u->next;
    if (u->next) u->next->pprev = u->pprev;
    u->value = NULL;
    u->next = NULL;
    u->pprev = NULL;
}

void op_set_operand(Op *op, int i, Value *v) {
    use_unlink(&op->operands[i]);
    use_link(&op->operands[i], v);
}

void op_set_operands(Context *c, Op *op, Value *const *vals, int n) {
    for (int i = 0; i < op->noperands; i++) use_unlink(&op->operands[i]);
    if (n > op->noperands) op->operands = ARENA_ARRAY(c->arena, Use, n);
    op->noperands = n;
    for (int i = 0; i < n; i++) {
        op->operands[i] = (Use){.owner = op};
        use_link(&op->operands[i], vals[i]);
    }
}

bool value_has_one_use(const Value *v) { return v->uses && !v->uses->next; }

void value_replace_all_uses(Value *from, Value *to) {
    if (from == to) return;
    /* each use in turn moves to the front of to's list (so they end up
     * there in reverse), as unlinking and linking them one by one would */
    Use *u = from->uses;
    from->uses = NULL;
    while (u) {
        Use *next = u->next;
        u->next = NULL;
        u->pprev = NULL;
        use_link(u, to);
        u = next;
    }
}

/* ---- ops -------------------------------------------------------------------- */

/* The bytes of an op with these counts: the op, its operands, results and
 * regions in one allocation (the sizes of all four are multiples of 8, so
 * each part stays aligned), rounded up as arena_alloc rounds. */
static ALWAYS_INLINE size_t op_size(int nopnds, int nres, int nregions) {
    _Static_assert(sizeof(Op) % 8 == 0 && sizeof(Use) % 8 == 0 && sizeof(Value) % 8 == 0 &&
                       sizeof(Region) % 8 == 0,
                   "op_fill packs these back to back");
    size_t size = sizeof(Op) + sizeof(Use) * (size_t)nopnds + sizeof(Value) * (size_t)nres +
                  sizeof(Region) * (size_t)nregions;
    return (size + 15) & ~(size_t)15;
}

/* Makes the op in mem (op_size bytes of raw arena memory: every field of
 * the op, its uses, results and regions is written here, so that no one
 * has to clear the memory first). */
static ALWAYS_INLINE Op *op_fill(Context *c, char *mem, OpKind kind, Loc loc, Value *const *operands, int nopnds,
                                 Type *const *result_types, int nres, int nregions) {
    Op *op = (Op *)mem;
    mem += sizeof(Op);
    /* (field by field: gcc clears a whole struct literal with `rep stos`,
     * slow to start for 104 bytes) */
    op->kind = kind;
    op->noperands = nopnds;
    op->nresults = nres;
    op->nregions = nregions;
    op->parent = NULL;
    op->prev = op->next = NULL;
    op->operands = NULL;
    op->results = NULL;
    op->attrs = NULL;
    op->nattrs = op->capattrs = 0;
    op->regions = NULL;
    op->loc = loc;
    op->mark = 0;
    ctx_note_kind(c, kind);
    if (nopnds) {
        Use *u = (Use *)mem;
        op->operands = u;
        for (int i = 0; i < nopnds; i++, u++) {
            Value *v = operands[i];
            u->value = v;
            if (v) {
                Use *head = v->uses;
                u->next = head;
                if (head) head->pprev = &u->next;
                u->pprev = &v->uses;
                v->uses = u;
            } else {
                u->next = NULL;
                u->pprev = NULL;
            }
            u->owner = op; /* (apart from u->value: gcc pairs the two into a costlier vector store) */
        }
        mem = (char *)u;
    }
    if (nres) {
        Value *r = (Value *)mem;
        op->results = r;
        uint32_t id = c->nvalues;
        if (nres == 1) /* (most ops: no loop) */
            *r = (Value){.type = result_types[0], .def = op, .id = id};
        else
            for (int i = 0; i < nres; i++)
                r[i] = (Value){.type = result_types[i], .def = op, .index = i, .id = id + (uint32_t)i};
        c->nvalues = id + (uint32_t)nres;
        mem = (char *)(r + nres);
    }
    if (nregions) {
        Region *r = (Region *)mem;
        op->regions = r;
        for (int i = 0; i < nregions; i++) r[i] = (Region){.parent = op};
    }
    return op;
}

/* (build_op and op_create make the op in the arena's current chunk with no
 * call on the way: around a call, what lives across it is saved and moved
 * about, which cost a tenth of making an op. The rare op that does not fit
 * there takes these, which get a new chunk first.) */
static NOT_INLINE Op *op_create_slow(Context *c, OpKind kind, Loc loc, Value *const *operands, int nopnds,
                                     Type *const *result_types, int nres, int nregions) {
    char *mem = arena_alloc_raw_slow(c->arena, op_size(nopnds, nres, nregions));
    return op_fill(c, mem, kind, loc, operands, nopnds, result_types, nres, nregions);
}

Op *op_create(Context *c, OpKind kind, Loc loc, Value *const *operands, int nopnds,
              Type *const *result_types, int nres, int nregions) {
    Arena *a = c->arena;
    size_t size = op_size(nopnds, nres, nregions);
    if (__builtin_expect((size_t)(a->raw.end - a->raw.cur) < size, 0))
        return op_create_slow(c, kind, loc, operands, nopnds, result_types, nres, nregions);
    char *mem = (char *)a->raw.cur;
    a->raw.cur += size;
    return op_fill(c, mem, kind, loc, operands, nopnds, result_types, nres, nregions);
}

/* (The first byte decides most comparisons without a call to strcmp:
 * passes ask ops for their attributes all the time.) */
static int attr_index(const Op *op, const char *name) {
    for (int i = 0; i < op->nattrs; i++) {
        const char *n = op->attrs[i].name;
        if (n == name || (n[0] == name[0] && strcmp(n, name) == 0)) return i;
    }
    return -1;
}

/* (name interned in op's context: the op's names are such strings) */
static void set_attr_interned(Context *c, Op *op, const char *iname, int i, Attr *a) {
    if (i >= 0) {
        if (a) {
            op->attrs[i].attr = a;
        } else {
            memmove(&op->attrs[i], &op->attrs[i + 1], sizeof(NamedAttr) * (size_t)(op->nattrs - i - 1));
            op->nattrs--;
        }
        return;
    }
    if (!a) return;
    if (!op->capattrs) { /* the first (a constant's value, a comparison's predicate): room for a second */
        op->attrs = ARENA_ARRAY(c->arena, NamedAttr, 2);
        op->attrs[0] = (NamedAttr){iname, a};
        op->nattrs = 1;
        op->capattrs = 2;
        return;
    }
    if (op->nattrs == op->capattrs) {
        int ncap = op->capattrs ? op->capattrs * 2 : 4;
        NamedAttr *n = ARENA_ARRAY(c->arena, NamedAttr, ncap);
        if (op->nattrs) memcpy(n, op->attrs, sizeof(NamedAttr) * (size_t)op->nattrs);
        op->attrs = n;
        op->capattrs = ncap;
    }
    int j = op->nattrs;
    /* (the first bytes decide most: no call to strcmp then) */
    while (j > 0 && (op->attrs[j - 1].name[0] != iname[0]
                         ? (unsigned char)op->attrs[j - 1].name[0] > (unsigned char)iname[0]
                         : strcmp(op->attrs[j - 1].name, iname) > 0)) {
        op->attrs[j] = op->attrs[j - 1];
        j--;
    }
    op->attrs[j] = (NamedAttr){iname, a};
    op->nattrs++;
}

void op_set_attr(Context *c, Op *op, const char *name, Attr *a) {
    int i = attr_index(op, name);
    if (i < 0 && !a) return;
    set_attr_interned(c, op, i >= 0 ? op->attrs[i].name : ctx_intern(c, name), i, a);
}

static int attr_index_k(const Op *op, AttrName name) {
    const char *n = attr_names[name];
    for (int i = 0; i < op->nattrs; i++)
        if (op->attrs[i].name == n) return i;
    return -1;
}

void op_set_attr_k(Context *c, Op *op, AttrName name, Attr *a) {
    set_attr_interned(c, op, attr_names[name], attr_index_k(op, name), a);
}

bool op_attr_int_k(const Op *op, AttrName name, int64_t *out) { return attr_as_int(op_attr_k(op, name), out); }

const char *op_attr_str_k(const Op *op, AttrName name) {
    Attr *a = op_attr_k(op, name);
    return a && (a->kind == ATTR_STRING || a->kind == ATTR_SYMREF) ? a->s : NULL;
}

void op_copy_attrs(Context *c, Op *to, const Op *from) {
    if (!from->nattrs) return;
    to->attrs = arena_dup(c->arena, from->attrs, sizeof(NamedAttr) * (size_t)from->nattrs);
    to->nattrs = to->capattrs = from->nattrs;
}

Attr *op_attr(const Op *op, const char *name) {
    int i = attr_index(op, name);
    return i >= 0 ? op->attrs[i].attr : NULL;
}

bool op_attr_int(const Op *op, const char *name, int64_t *out) {
    return attr_as_int(op_attr(op, name), out);
}

const char *op_attr_str(const Op *op, const char *name) {
    Attr *a = op_attr(op, name);
    return a && (a->kind == ATTR_STRING || a->kind == ATTR_SYMREF) ? a->s : NULL;
}

/* ---- blocks and regions --------------------------------------------------- */

Block *block_create(Context *c) { return ARENA_NEW(c->arena, Block); }

Value *block_add_arg(Context *c, Block *b, Type *t, Loc loc) {
    if (b->nargs == b->capargs) {
        int ncap = b->capargs ? b->capargs * 2 : 4;
        Value **n = ARENA_ARRAY(c->arena, Value *, ncap);
        if (b->nargs) memcpy(n, b->args, sizeof(Value *) * (size_t)b->nargs);
        b->args = n;
        b->capargs = ncap;
    }
    Value *v = ARENA_NEW(c->arena, Value);
    v->type = t;
    v->owner_block = b;
    v->index = b->nargs;
    v->id = c->nvalues++;
    v->loc = loc;
    b->args[b->nargs++] = v;
    return v;
}

void block_erase_arg(Block *b, int i) {
    memmove(&b->args[i], &b->args[i + 1], sizeof(Value *) * (size_t)(b->nargs - i - 1));
    b->nargs--;
    for (int j = i; j < b->nargs; j++) b->args[j]->index = j;
}

void region_push_block(Region *r, Block *b) {
    b->parent = r;
    b->prev = r->last;
    b->next = NULL;
    if (r->last) r->last->next = b;
    else r->first = b;
    r->last = b;
}

/* (inlined into build_op) */
static ALWAYS_INLINE void link_last(Block *b, Op *op) {
    op->parent = b;
    op->prev = b->last;
    op->next = NULL;
    if (b->last) b->last->next = op;
    else b->first = op;
    b->last = op;
}

static ALWAYS_INLINE void link_before(Op *anchor, Op *op) {
    Block *b = anchor->parent;
    op->parent = b;
    op->next = anchor;
    op->prev = anchor->prev;
    if (anchor->prev) anchor->prev->next = op;
    else b->first = op;
    anchor->prev = op;
}

void block_append(Block *b, Op *op) { link_last(b, op); }

void op_insert_before(Op *anchor, Op *op) { link_before(anchor, op); }

void op_insert_after(Op *anchor, Op *op) {
    if (anchor->next) op_insert_before(anchor->next, op);
    else block_append(anchor->parent, op);
}

void op_unlink(Op *op) {
    Block *b = op->parent;
    if (!b) return;
    if (op->prev) op->prev->next = op->next;
    else b->first = op->next;
    if (op->next) op->next->prev = op->prev;
    else b->last = op->prev;
    op->prev = op->next = NULL;
    op->parent = NULL;
}

static void drop_operands(Op *op, void *ud) {
    (void)ud;
    for (int i = 0; i < op->noperands; i++) use_unlink(&op->operands[i]);
}

void op_erase(Op *op) {
    /* (most erased ops have no regions: no walk) */
    if (op->nregions) op_walk(op, drop_operands, NULL, true);
    else drop_operands(op, NULL);
    op_unlink(op);
}

void op_move_before(Op *op, Op *anchor) {
    op_unlink(op);
    op_insert_before(anchor, op);
}

Op *op_parent_op(const Op *op) {
    return op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
}

Op *op_ancestor_in(const Block *b, Op *op) {
    while (op && op->parent != b) op = op_parent_op(op);
    return op;
}

bool op_is_ancestor(const Op *anc, const Op *op) {
    for (; op; op = op_parent_op(op))
        if (op == anc) return true;
    return false;
}

/* ---- walking ------------------------------------------------------------------ */

void op_walk(Op *root, OpWalkFn fn, void *ud, bool post) {
    if (!post) fn(root, ud);
    for (int r = 0; r < root->nregions; r++)
        for (Block *b = root->regions[r].first; b; b = b->next)
            for (Op *o = b->first, *next; o; o = next) {
                next = o->next;
                op_prefetch(o, OP_PREFETCH_DIST);
                /* (most ops hold no regions: called here, not recursed into) */
                if (o->nregions) op_walk(o, fn, ud, post);
                else fn(o, ud);
            }
    if (post) fn(root, ud);
}

/* ---- cloning -------------------------------------------------------------------- */

static Value *remap(Map *map, Value *v) {
    Value *n = map_get(map, MAP_KEY(v));
    return n ? n : v;
}

Op *op_clone(Context *c, Op *op, Map *map) {
    Value *ops_small[8];
    Type *tys_small[8];
    Value **ops = op->noperands <= 8 ? ops_small : tc_malloc(sizeof(Value *) * (size_t)op->noperands);
    Type **tys = op->nresults <= 8 ? tys_small : tc_malloc(sizeof(Type *) * (size_t)op->nresults);
    for (int i = 0; i < op->noperands; i++) ops[i] = remap(map, op_operand(op, i));
    for (int i = 0; i < op->nresults; i++) tys[i] = op->results[i].type;
    Op *n = op_create(c, op->kind, op->loc, ops, op->noperands, tys, op->nresults, op->nregions);
    if (ops != ops_small) tc_free(ops);
    if (tys != tys_small) tc_free(tys);
    op_copy_attrs(c, n, op);
    for (int i = 0; i < op->nresults; i++) {
        n->results[i].name = op->results[i].name;
        map_put(map, MAP_KEY(&op->results[i]), &n->results[i]);
    }
    for (int r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next) {
            Block *nb = block_create(c);
            region_push_block(&n->regions[r], nb);
            for (int i = 0; i < b->nargs; i++) {
                Value *a = block_add_arg(c, nb, b->args[i]->type, b->args[i]->loc);
                a->name = b->args[i]->name;
                map_put(map, MAP_KEY(b->args[i]), a);
            }
        }
    /* bodies after all blocks exist, so branches between blocks could map */
    for (int r = 0; r < op->nregions; r++) {
        Block *nb = n->regions[r].first;
        for (Block *b = op->regions[r].first; b; b = b->next, nb = nb->next)
            for (Op *o = b->first; o; o = o->next) block_append(nb, op_clone(c, o, map));
    }
    return n;
}

/* ---- building ---------------------------------------------------------------------- */

static NOT_INLINE Op *build_op_slow(Builder *b, OpKind kind, Value *const *operands, int nopnds,
                                    Type *const *result_types, int nres, int nregions) {
    Op *op = op_create_slow(b->ctx, kind, b->loc, operands, nopnds, result_types, nres, nregions);
    if (b->before) link_before(b->before, op);
    else if (b->block) link_last(b->block, op);
    return op;
}

Op *build_op(Builder *b, OpKind kind, Value *const *operands, int nopnds,
             Type *const *result_types, int nres, int nregions) {
    Context *c = b->ctx;
    Arena *a = c->arena;
    size_t size = op_size(nopnds, nres, nregions);
    if (__builtin_expect((size_t)(a->raw.end - a->raw.cur) < size, 0))
        return build_op_slow(b, kind, operands, nopnds, result_types, nres, nregions);
    char *mem = (char *)a->raw.cur;
    a->raw.cur += size;
    Op *op = op_fill(c, mem, kind, b->loc, operands, nopnds, result_types, nres, nregions);
    if (b->before) link_before(b->before, op);
    else if (b->block) link_last(b->block, op);
    return op;
}

/* build_op for an op of one result and no region, with nopnds operands:
 * most ops made are such (a constant, a splat, a binary op), and with the
 * counts constants where this is inlined, op_fill's loops and size
 * arithmetic fold away, a third of the work of making one. */
static ALWAYS_INLINE Value *build_one(Builder *b, OpKind kind, Value *const *operands, int nopnds, Type *t) {
    Context *c = b->ctx;
    Arena *a = c->arena;
    size_t size = op_size(nopnds, 1, 0);
    if (__builtin_expect((size_t)(a->raw.end - a->raw.cur) < size, 0))
        return op_result(build_op_slow(b, kind, operands, nopnds, &t, 1, 0), 0);
    char *mem = (char *)a->raw.cur;
    a->raw.cur += size;
    Op *op = op_fill(c, mem, kind, b->loc, operands, nopnds, &t, 1, 0);
    if (b->before) link_before(b->before, op);
    else if (b->block) link_last(b->block, op);
    return op_result(op, 0);
}

Value *build_unary(Builder *b, OpKind kind, Value *x, Type *result) { return build_one(b, kind, &x, 1, result); }

Value *build_binary(Builder *b, OpKind kind, Value *x, Value *y) {
    Value *ops[2] = {x, y};
    return build_one(b, kind, ops, 2, x->type);
}

Value *build_binary_to(Builder *b, OpKind kind, Value *x, Value *y, Type *result) {
    Value *ops[2] = {x, y};
    return build_one(b, kind, ops, 2, result);
}

Value *build_cmp(Builder *b, OpKind kind, int predicate, Value *x, Value *y) {
    Value *ops[2] = {x, y};
    Context *c = b->ctx;
    Op *op = build_one(b, kind, ops, 2, ty_with_elem(c, x->type, ty_i1(c)))->def;
    bool memo = (unsigned)predicate < TC_ARRAY_LEN(c->cmp_predicates);
    Attr *pred = memo ? c->cmp_predicates[predicate] : NULL;
    if (!pred) {
        pred = attr_int(c, ty_i64(c), predicate);
        if (memo) c->cmp_predicates[predicate] = pred;
    }
    op_set_attr_k(c, op, AN_PREDICATE, pred);
    return op_result(op, 0);
}

Value *build_constant(Builder *b, Attr *value) {
    Value *v = build_one(b, ARITH_CONSTANT, NULL, 0, value->type);
    op_set_attr_k(b->ctx, v->def, AN_VALUE, value);
    return v;
}

/* (A splat is made straight from the value: the dense attribute rounds
 * or wraps it to the element type as the scalar one would.) */
Value *build_const_int(Builder *b, Type *t, int64_t v) {
    if (t->kind == TY_TENSOR) return build_constant(b, attr_dense_int(b->ctx, t, &v, 1));
    return build_constant(b, attr_int(b->ctx, t, v));
}

Value *build_const_float(Builder *b, Type *t, double v) {
    if (t->kind == TY_TENSOR) return build_constant(b, attr_dense_float(b->ctx, t, &v, 1));
    return build_constant(b, attr_float(b->ctx, t, v));
}

/* ---- modules and functions --------------------------------------------------------- */

Op *module_create(Context *c, Loc loc) {
    Op *m = op_create(c, BUILTIN_MODULE, loc, NULL, 0, NULL, 0, 1);
    region_push_block(&m->regions[0], block_create(c));
    return m;
}

Op *module_lookup_func(Op *module, const char *name) {
    for (Op *o = module_body(module)->first; o; o = o->next)
        if (o->kind == TT_FUNC && strcmp(func_name(o), name) == 0) return o;
    return NULL;
}

const char *func_name(const Op *func) {
    const char *s = op_attr_str_k(func, AN_SYM_NAME);
    return s ? s : "";
}

Type *func_type(const Op *func) {
    Attr *a = op_attr_k(func, AN_FUNCTION_TYPE);
    return a && a->kind == ATTR_TYPE ? a->ty : NULL;
}

/* Op name -> kind: open addressing over kind + 1 (0 = empty), probed
 * from the name's hash and confirmed by length and text; built once. */
enum { KIND_SLOTS = 1024 };
_Static_assert(OP_COUNT < KIND_SLOTS / 2 && OP_COUNT < 65535, "kind_slots is at most half full");
static uint16_t kind_slots[KIND_SLOTS];
static size_t kind_len[OP_COUNT];

static void build_kind_index(void) {
    for (int k = 0; k < OP_COUNT; k++) {
        kind_len[k] = strlen(op_info[k].name);
        size_t i = hash_bytes(op_info[k].name, kind_len[k], 0) & (KIND_SLOTS - 1);
        while (kind_slots[i]) i = (i + 1) & (KIND_SLOTS - 1);
        kind_slots[i] = (uint16_t)(k + 1);
    }
}

OpKind op_kind_lookup_n(const char *name, size_t len) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_kind_index);
    for (size_t i = hash_bytes(name, len, 0) & (KIND_SLOTS - 1); kind_slots[i]; i = (i + 1) & (KIND_SLOTS - 1)) {
        int k = kind_slots[i] - 1;
        if (kind_len[k] == len && memcmp(op_info[k].name, name, len) == 0) return (OpKind)k;
    }
    return OP_COUNT;
}

OpKind op_kind_lookup(const char *name) { return op_kind_lookup_n(name, strlen(name)); }
