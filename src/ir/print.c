/*
 * print.c - the IR as text, in the form Triton 3.6 writes its TTIR dumps.
 *
 * Printing is two walks over the op. The first names every value the way
 * MLIR's AsmPrinter does, so our dumps and Triton's read side by side:
 *
 *   - each op isolated from above (tt.func) starts its own numbering:
 *     results %0, %1, ..., block arguments %arg0, %arg1, ...;
 *   - a region numbers all of its own values first; each nested region then
 *     continues from where its parent region ended (so the body of a loop
 *     has higher numbers than the ops after the loop, and the two regions of
 *     an scf.if may reuse the same numbers);
 *   - arith.constant results get MLIR's names (%c0_i32, %c1024_i32, %c0,
 *     %true, %false, %cst); a Value's `name` hint (from the parser or a
 *     front end) is used when present; a name already visible in the
 *     enclosing scope gets a `_N` suffix (one counter per base name).
 *
 * The second walk prints each op in its custom form (one printer per
 * OpFormat family, and one per FMT_CUSTOM op), or in MLIR's generic form
 *
 *   %r = "d.op"(%a, %b) <{inherent attrs}> ({ regions }) {attrs} : (A, B) -> R
 *
 * when options ask for it, when the table says FMT_GENERIC, or when the op
 * does not fit its custom form exactly (wrong counts, operand types the
 * custom form cannot express, missing attributes). That rule is what makes
 * print(parse(print(m))) == print(m) hold for any op, valid or not.
 *
 * With debug_info, each op and block argument gets `loc(#locN)`; the
 * aliases `#locN = loc("file":line:col)` follow the module, numbered in
 * order of first use as in Triton's cache files.
 *
 * Layouts are written once, as Triton's TritonGPU dialect asks MLIR to
 * (its getAlias): `#blocked = #ttg.blocked<{...}>` above the module, and
 * `#blocked` in every type that has it, also inside a layout that is not
 * aliased itself (`#ttg.slice<{dim = 1, parent = #blocked1}>`). Aliases of
 * one kind are numbered in order of first use (#blocked, #blocked1, ...)
 * and listed sorted by name, as MLIR does. The full text repeated in every
 * tensor type made TTGIR 8-17x longer than the IR it describes. The parser
 * reads aliases back inside dialect attributes (ir/parse.c).
 */
#include "dialect/dialect.h"
#include "ir/text.h"

#include <stdio.h>
#include <string.h>

typedef struct UndoEntry {
    const char *name;
    void *old;
} UndoEntry;

typedef struct LocEntry {
    Loc loc;
} LocEntry;

/* The printed text of a uniqued type or attribute. */
typedef struct TextSlot {
    const void *key;
    const char *text; /* interned in Printer.strs */
    size_t len;
} TextSlot;

/* A value's name as printed, '%' included: made once when the value is
 * named, copied at its definition and at every use. */
typedef struct ValueName {
    size_t len;
    char text[];
} ValueName;

/* A layout alias: the aliased attribute's text, the alias's name (`base`
 * and a number, 0 printing none). */
typedef struct AliasEntry {
    const char *text;
    size_t len;
    const char *base;
    int num;
} AliasEntry;

/* Direct-mapped caches of printed types and attributes: an op prints
 * the same few types over and over, and a slot lookup is cheaper than a
 * hash map probe. A collision just prints the text again. */
enum { TEXT_CACHE = 256 };

/* A uniqued object's slot in a text cache: the address scrambled (its low
 * bits alone collide: types and attributes are laid out at fixed strides). */
static unsigned text_slot(const void *key) {
    return (unsigned)((MAP_KEY(key) * 0x9e3779b97f4a7c15ULL) >> 56) % TEXT_CACHE;
}

typedef struct Printer {
    StrBuf *out;
    bool debug, generic;
    Arena *arena;
    Interner strs;         /* printed names */
    VEC(const ValueName *) names; /* by Value.id (NULL: none) */
    Map bound;             /* interned name -> (depth + 1) of its visible binding */
    VEC(UndoEntry) undo;   /* bindings to restore when a scope ends */
    int depth, floor;      /* scope depth; names bound below floor are invisible */
    VEC(LocEntry) locs;    /* location aliases in order of first use */
    Map loc_index;         /* hash(loc) -> chain head index + 1 (see loc_id) */
    VEC(int) loc_next;
    TextSlot type_text[TEXT_CACHE];
    TextSlot attr_text[TEXT_CACHE];
    TextSlot layout_text[TEXT_CACHE]; /* a layout's aliased text */
    AttrAliasHook alias_hook; /* NULL print: layouts written in full */
    VEC(AliasEntry) aliases;  /* in order of first use */
} Printer;

/* ---- naming ------------------------------------------------------------ */

/* Names are found by the value's id rather than through a Value* -> name
 * hash map (one lookup per use printed); the table grows to the largest id
 * named, zero-filled. */
/* Names v `%` + name[0, len). */
static void set_value_name(Printer *P, Value *v, const char *name, size_t len) {
    if ((int)v->id >= P->names.len) {
        int n = P->names.len;
        vec_reserve(&P->names, (int)v->id + 1);
        memset(P->names.data + n, 0, sizeof(const ValueName *) * (size_t)(P->names.cap - n));
        P->names.len = P->names.cap;
    }
    ValueName *vn = arena_alloc(P->arena, sizeof(ValueName) + len + 2);
    vn->len = len + 1;
    vn->text[0] = '%';
    memcpy(vn->text + 1, name, len); /* (zeroed arena memory ends it) */
    P->names.data[v->id] = vn;
}

static const ValueName *value_name(const Printer *P, const Value *v) {
    return (int)v->id < P->names.len ? P->names.data[v->id] : NULL;
}

/* MLIR's naming context: copied into each nested region, so sibling
 * regions start from the same numbers. */
typedef struct Counters {
    int value, arg, conflict;
} Counters;

static bool name_visible(Printer *P, const char *name) {
    uintptr_t d = (uintptr_t)map_get(&P->bound, MAP_KEY(name));
    return d && (int)d - 1 >= P->floor;
}

static void bind_name(Printer *P, const char *name) {
    UndoEntry u = {name, map_get(&P->bound, MAP_KEY(name))};
    vec_push(&P->undo, u);
    map_put(&P->bound, MAP_KEY(name), (void *)(uintptr_t)(P->depth + 1));
}

/* True for names the printer generates itself (%12, %arg3): hints of that
 * shape are ignored, here and in the parser, so numbering stays dense. */
bool ir_name_is_auto(const char *s) {
    if (strncmp(s, "arg", 3) == 0) s += 3;
    if (!*s) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

static bool is_id_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '.' || c == '-';
}

/* MLIR's name for an arith.constant result: c<value>_<type>, c<value> for
 * index, true/false for i1, cst otherwise. Writes into buf, truncated to
 * `size` as snprintf would. Built by hand: the parser and the printer ask
 * for it once per constant. */
void ir_constant_name(Op *op, char *buf, size_t size) {
    Attr *v = op_attr_k(op, AN_VALUE);
    Type *t = op->nresults ? op->results[0].type : NULL;
    char tmp[64];
    int n = 0;
    if (!v || !t || v->kind != ATTR_INT || !v->type || !(t->kind == TY_INT || t->kind == TY_INDEX)) {
        memcpy(tmp, "cst", 3), n = 3;
    } else if (t->kind == TY_INT && t->width == 1) {
        n = v->i ? 4 : 5;
        memcpy(tmp, v->i ? "true" : "false", (size_t)n);
    } else {
        tmp[n++] = 'c';
        if (v->i < 0) tmp[n++] = '-';
        n += fmt_uint(tmp + n, v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i);
        if (t->kind == TY_INT) {
            tmp[n++] = '_';
            if (t->sign != SIGNLESS) tmp[n++] = t->sign == SIGNED ? 's' : 'u';
            tmp[n++] = 'i';
            n += fmt_uint(tmp + n, (uint64_t)t->width);
        }
    }
    if (!size) return;
    size_t m = (size_t)n < size - 1 ? (size_t)n : size - 1;
    memcpy(buf, tmp, m);
    buf[m] = 0;
}

/* The name MLIR's getAsmResultNames gives result i of op, or NULL:
 * constants (c0_i32, cst, true) and tt.split (outLHS, outRHS). */
const char *ir_auto_result_name(Op *op, int i, char *buf, size_t size) {
    if (op->kind == ARITH_CONSTANT && i == 0) {
        ir_constant_name(op, buf, size);
        return buf;
    }
    if (op->kind == TT_SPLIT && op->nresults == 2) return i == 0 ? "outLHS" : "outRHS";
    return NULL;
}

/* Whether result i starts a group of its own (`%a, %b = ...`): result 0
 * always, later ones when they have a name of their own. */
static bool starts_group(Op *op, int i) {
    if (i == 0) return true;
    char buf[8];
    const char *h = op->results[i].name;
    return (h && *h && !ir_name_is_auto(h)) || ir_auto_result_name(op, i, buf, sizeof buf);
}

/* base itself when no visible binding uses it, else base_N with N from
 * the context's conflict counter, as MLIR's uniqueValueName does. */
static const char *unique_name(Printer *P, const char *base, Counters *c) {
    const char *b = intern(&P->strs, base);
    if (!name_visible(P, b)) return b;
    char buf[600];
    size_t n = strlen(b);
    if (n > sizeof buf - 24) n = sizeof buf - 24;
    memcpy(buf, b, n);
    buf[n] = '_';
    for (;;) {
        /* base_N without printf: every constant after the first (%cst_0,
         * %c0_i32_1, ...) comes here */
        size_t m = n + 1 + (size_t)fmt_uint(buf + n + 1, (uint64_t)c->conflict++);
        const char *cand = intern_n(&P->strs, buf, m);
        if (!name_visible(P, cand)) return cand;
    }
}

/* Names v from its hint (sanitised as MLIR does: other characters as hex)
 * or, lacking one, from `fallback` (a constant's name) or the next number.
 * Entry block arguments take an %argN number even when named. */
static void name_value(Printer *P, Value *v, const char *fallback, bool entry_arg, Counters *c) {
    char buf[520];
    const char *hint = v->name;
    int argno = entry_arg ? c->arg++ : -1;
    if (hint && *hint && !ir_name_is_auto(hint)) {
        size_t n = 0;
        if (hint[0] >= '0' && hint[0] <= '9') buf[n++] = '_';
        for (const char *s = hint; *s && n < sizeof buf - 3; s++) {
            if (is_id_char(*s)) buf[n++] = *s;
            else if (*s == ' ') buf[n++] = '_';
            else n += (size_t)snprintf(buf + n, 3, "%X", (unsigned char)*s);
        }
        buf[n] = 0;
        fallback = buf;
    }
    if (fallback) {
        const char *u = unique_name(P, fallback, c);
        bind_name(P, u);
        set_value_name(P, v, u, strlen(u));
    } else {
        char num[24];
        size_t n = 0;
        if (entry_arg) memcpy(num, "arg", 3), n = 3;
        n += (size_t)fmt_uint(num + n, (uint64_t)(entry_arg ? argno : c->value++));
        set_value_name(P, v, num, n);
    }
}

static void name_region(Printer *P, Region *r, Counters c);

static void name_results(Printer *P, Op *o, Counters *c) {
    for (int i = 0; i < o->nresults; i++) {
        if (!starts_group(o, i)) continue;
        char cbuf[96];
        name_value(P, &o->results[i], ir_auto_result_name(o, i, cbuf, sizeof cbuf), false, c);
    }
}

static void name_op_regions(Printer *P, Op *op, Counters c) {
    for (int i = 0; i < op->nregions; i++) {
        if (op_has_flag(op, OPF_ISOLATED)) {
            int saved = P->floor;
            P->floor = P->depth + 1;
            name_region(P, &op->regions[i], (Counters){0, 0, 0});
            P->floor = saved;
        } else {
            name_region(P, &op->regions[i], c);
        }
    }
}

static void name_region(Printer *P, Region *r, Counters c) {
    P->depth++;
    int mark = P->undo.len;
    for (Block *b = r->first; b; b = b->next) {
        for (int i = 0; i < b->nargs; i++) name_value(P, b->args[i], NULL, b == r->first, &c);
        for (Op *o = b->first; o; o = o->next) {
            op_prefetch(o, OP_PREFETCH_DIST);
            name_results(P, o, &c);
        }
    }
    for (Block *b = r->first; b; b = b->next)
        for (Op *o = b->first; o; o = o->next) name_op_regions(P, o, c);
    while (P->undo.len > mark) {
        UndoEntry u = vec_pop(&P->undo);
        map_put(&P->bound, MAP_KEY(u.name), u.old);
    }
    P->depth--;
}

/* ---- small pieces ---------------------------------------------------------- */

static void put_indent(Printer *P, int n) {
    static const char spaces[] = "                                ";
    for (; n > 32; n -= 32) sb_putn(P->out, spaces, 32);
    sb_putn(P->out, spaces, (size_t)n);
}

static void print_value(Printer *P, Value *v) {
    if (!v) {
        sb_puts(P->out, "%<<NULL VALUE>>");
        return;
    }
    /* a result prints as its group's name, with #k in a group of several */
    Value *key = v;
    int k = 0, size = 1;
    if (v->def) {
        Op *d = v->def;
        int g = v->index;
        while (g > 0 && !value_name(P, &d->results[g])) g--;
        int e = v->index + 1;
        while (e < d->nresults && !value_name(P, &d->results[e])) e++;
        key = &d->results[g];
        k = v->index - g;
        size = e - g;
    }
    const ValueName *n = value_name(P, key);
    if (!n) {
        sb_puts(P->out, "%<<UNKNOWN SSA VALUE>>");
        return;
    }
    sb_putn(P->out, n->text, n->len);
    if (size > 1) {
        sb_putc(P->out, '#');
        sb_put_int(P->out, k);
    }
}

/* ---- layout aliases ------------------------------------------------------ */

/* The dialect attributes written through an alias, and the alias's name. */
static const struct {
    const char *prefix;
    size_t len;
    const char *base;
} alias_kinds[] = {
    {"#ttg.blocked<", 13, "blocked"},
    {"#ttg.nvidia_mma<", 16, "mma"},
    {"#ttg.nvmma_shared<", 18, "shared"},
    {"#ttg.swizzled_shared<", 21, "shared"},
    {"#ttg.linear<", 12, "linear"},
};

/* The alias of the attribute text s[0, len) of kind k: found, or made. */
static const AliasEntry *alias_of(Printer *P, const char *s, size_t len, int k) {
    int num = 0;
    for (int i = 0; i < P->aliases.len; i++) {
        const AliasEntry *e = &P->aliases.data[i];
        if (e->base != alias_kinds[k].base) continue;
        if (e->len == len && memcmp(e->text, s, len) == 0) return e;
        num++;
    }
    vec_push(&P->aliases, ((AliasEntry){arena_strndup(P->arena, s, len), len, alias_kinds[k].base, num}));
    return &P->aliases.data[P->aliases.len - 1];
}

static void put_alias_name(StrBuf *out, const AliasEntry *e) {
    sb_putc(out, '#');
    sb_puts(out, e->base);
    if (e->num) sb_put_int(out, e->num);
}

/* The end of the attribute that starts at s with `#dialect.name<`: just
 * past its matching '>' (layout texts hold no strings or arrows). */
static size_t attr_text_end(const char *s, size_t open) {
    int depth = 0;
    size_t i = open;
    for (; s[i]; i++) {
        if (s[i] == '<') depth++;
        else if (s[i] == '>' && --depth == 0) return i + 1;
    }
    return i;
}

/* AttrAliasHook.print: an opaque attribute's text with every aliased
 * attribute in it, itself included, replaced by its alias. */
static bool print_aliased_attr(AttrAliasHook *h, const Attr *a, StrBuf *out) {
    Printer *P = (Printer *)((char *)h - offsetof(Printer, alias_hook));
    const char *s = a->s;
    TextSlot *sl = &P->layout_text[text_slot(a)];
    if (sl->key == a) {
        sb_putn(out, sl->text, sl->len);
        return true;
    }
    if (!strstr(s, "#ttg.")) return false;
    /* written here, then kept for the next type with this layout (the
     * aliases it names are fixed once made) */
    StrBuf sb = {0};
    size_t done = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] != '#') continue;
        for (int k = 0; k < (int)TC_ARRAY_LEN(alias_kinds); k++) {
            if (strncmp(s + i, alias_kinds[k].prefix, alias_kinds[k].len) != 0) continue;
            size_t end = attr_text_end(s, i + alias_kinds[k].len - 1);
            sb_putn(&sb, s + done, i - done);
            put_alias_name(&sb, alias_of(P, s + i, end - i, k));
            done = end;
            i = end - 1;
            break;
        }
    }
    sb_puts(&sb, s + done);
    *sl = (TextSlot){a, intern_n(&P->strs, sb.data, sb.len), sb.len};
    sb_putn(out, sb.data, sb.len);
    sb_free(&sb);
    return true;
}

/* Inserts `#name = text` lines at `at` in the output, sorted by name. */
static void print_alias_defs(Printer *P, size_t at) {
    if (P->aliases.len == 0) return;
    StrBuf defs = {0};
    for (int k = 0; k < (int)TC_ARRAY_LEN(alias_kinds); k++) {
        const char *base = alias_kinds[k].base;
        bool seen = false; /* kinds sharing a name are listed with the first */
        for (int j = 0; j < k; j++) seen |= alias_kinds[j].base == base;
        if (seen) continue;
        for (int i = 0; i < P->aliases.len; i++) {
            const AliasEntry *e = &P->aliases.data[i];
            if (e->base != base) continue;
            put_alias_name(&defs, e);
            sb_puts(&defs, " = ");
            sb_putn(&defs, e->text, e->len);
            sb_putc(&defs, '\n');
        }
    }
    StrBuf *o = P->out;
    sb_reserve(o, defs.len);
    memmove(o->data + at + defs.len, o->data + at, o->len - at + 1);
    memcpy(o->data + at, defs.data, defs.len);
    o->len += defs.len;
    sb_free(&defs);
}

static void print_type(Printer *P, Type *t) {
    if (!t) {
        sb_puts(P->out, "<<NULL TYPE>>");
        return;
    }
    TextSlot *sl = &P->type_text[text_slot(t)];
    if (sl->key != t) {
        StrBuf sb = {0};
        ty_print_aliased(t, &sb, P->alias_hook.print ? &P->alias_hook : NULL);
        *sl = (TextSlot){t, intern_n(&P->strs, sb_cstr(&sb), sb.len), sb.len};
        sb_free(&sb);
    }
    sb_putn(P->out, sl->text, sl->len);
}

/* attr_print through a cache like print_type's (attributes are uniqued
 * too, and a float constant's text takes an exact decimal conversion). */
static void print_attr(Printer *P, const Attr *a) {
    TextSlot *sl = &P->attr_text[text_slot(a)];
    if (sl->key != a) {
        StrBuf sb = {0};
        attr_print_aliased(a, &sb, P->alias_hook.print ? &P->alias_hook : NULL);
        *sl = (TextSlot){a, intern_n(&P->strs, sb_cstr(&sb), sb.len), sb.len};
        sb_free(&sb);
    }
    sb_putn(P->out, sl->text, sl->len);
}

/* A pointer type the way Triton's custom forms write !tt.ptr results:
 * `<tensor<64x64xf16>>`, the dialect prefix elided. */
static void print_short_ptr_type(Printer *P, Type *t) {
    StrBuf sb = {0};
    ty_print_aliased(t, &sb, P->alias_hook.print ? &P->alias_hook : NULL);
    const char *s = sb_cstr(&sb);
    sb_puts(P->out, strncmp(s, "!tt.ptr", 7) == 0 ? s + 7 : s);
    sb_free(&sb);
}

static void print_value_list(Printer *P, Op *op, int from, int to) {
    for (int i = from; i < to; i++) {
        if (i > from) sb_puts(P->out, ", ");
        print_value(P, op_operand(op, i));
    }
}

static void print_operand_types(Printer *P, Op *op, int from, int to) {
    for (int i = from; i < to; i++) {
        if (i > from) sb_puts(P->out, ", ");
        Value *v = op_operand(op, i);
        print_type(P, v ? v->type : NULL);
    }
}

static void print_result_types(Printer *P, Op *op) {
    for (int i = 0; i < op->nresults; i++) {
        if (i) sb_puts(P->out, ", ");
        print_type(P, op->results[i].type);
    }
}

/* `(A, B) -> R`, `-> (R1, R2)`, `-> ()` as MLIR's functional-type. */
static void print_functional_type(Printer *P, Op *op, int from) {
    sb_putc(P->out, '(');
    print_operand_types(P, op, from, op->noperands);
    sb_puts(P->out, ") -> ");
    if (op->nresults == 1 && op->results[0].type && op->results[0].type->kind != TY_FUNC) {
        print_type(P, op->results[0].type);
        return;
    }
    sb_putc(P->out, '(');
    print_result_types(P, op);
    sb_putc(P->out, ')');
}

static bool is_bare_id(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
    for (; *s; s++)
        if (!is_id_char(*s) || *s == '-') return false;
    return true;
}

void ir_print_string(const char *s, StrBuf *out) {
    sb_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') sb_printf(out, "\\%c", *p);
        else if (*p < 32 || *p >= 127) sb_printf(out, "\\%02X", *p);
        else sb_putc(out, (char)*p);
    }
    sb_putc(out, '"');
}

/* An attribute name: bare when it lexes as one, quoted otherwise. */
void ir_print_attr_name(const char *s, StrBuf *out) {
    if (is_bare_id(s)) sb_puts(out, s);
    else ir_print_string(s, out);
}

static void print_symbol(Printer *P, const char *s) {
    sb_putc(P->out, '@');
    if (is_bare_id(s)) sb_puts(P->out, s);
    else ir_print_string(s, P->out);
}

/* Prints ` {a = 1, b}` with the op's attributes, skipping `skip` (a
 * NULL-terminated list) and, when `inherent` is 0/1, keeping only the
 * attributes whose inherent-ness matches. Prints nothing when empty. */
static void print_attrs_filtered(Printer *P, const NamedAttr *attrs, int n, const char *const *skip,
                                 int inherent, OpKind kind, bool leading_space, const char *open,
                                 const char *close) {
    bool any = false;
    for (int i = 0; i < n; i++) {
        const char *name = attrs[i].name;
        bool skipped = false;
        for (const char *const *s = skip; s && *s; s++)
            if (strcmp(*s, name) == 0) skipped = true;
        if (skipped) continue;
        if (inherent >= 0 && ir_attr_is_inherent(kind, name) != (inherent == 1)) continue;
        sb_puts(P->out, any ? ", " : leading_space ? " " : "");
        if (!any) sb_puts(P->out, open);
        any = true;
        ir_print_attr_name(name, P->out);
        if (attrs[i].attr->kind != ATTR_UNIT) {
            sb_puts(P->out, " = ");
            print_attr(P, attrs[i].attr);
        }
    }
    if (any) sb_puts(P->out, close);
}

static void print_attr_dict(Printer *P, Op *op, const char *const *skip) {
    print_attrs_filtered(P, op->attrs, op->nattrs, skip, -1, op->kind, true, "{", "}");
}

/* ---- locations ------------------------------------------------------------- */

static uint64_t loc_hash(Loc l) {
    uint64_t h = hash_bytes(l.file, strlen(l.file), 17);
    return hash_combine(hash_combine(h, (uint64_t)l.line), (uint64_t)l.col) | 1;
}

static int loc_id(Printer *P, Loc l) {
    uint64_t h = loc_hash(l);
    int i = (int)(uintptr_t)map_get(&P->loc_index, h) - 1;
    for (; i >= 0; i = P->loc_next.data[i]) {
        Loc *o = &P->locs.data[i].loc;
        if (o->line == l.line && o->col == l.col && strcmp(o->file, l.file) == 0) return i;
    }
    int id = P->locs.len;
    vec_push(&P->locs, ((LocEntry){l}));
    vec_push(&P->loc_next, (int)(uintptr_t)map_get(&P->loc_index, h) - 1);
    map_put(&P->loc_index, h, (void *)(uintptr_t)(id + 1));
    return id;
}

static void print_loc_alias_name(Printer *P, int id) {
    if (id == 0) sb_puts(P->out, "#loc");
    else sb_printf(P->out, "#loc%d", id);
}

static void print_loc(Printer *P, Loc l) {
    if (!P->debug) return;
    sb_puts(P->out, " loc(");
    if (!l.file) sb_puts(P->out, "unknown");
    else print_loc_alias_name(P, loc_id(P, l));
    sb_putc(P->out, ')');
}

static void print_loc_aliases(Printer *P) {
    for (int i = 0; i < P->locs.len; i++) {
        Loc l = P->locs.data[i].loc;
        print_loc_alias_name(P, i);
        sb_puts(P->out, " = loc(");
        ir_print_string(l.file, P->out);
        sb_printf(P->out, ":%d:%d)\n", l.line, l.col);
    }
}

/* ---- ops ------------------------------------------------------------------- */

static void print_op(Printer *P, Op *op, int indent);

static void print_block_args(Printer *P, Block *b) {
    for (int i = 0; i < b->nargs; i++) {
        if (i) sb_puts(P->out, ", ");
        print_value(P, b->args[i]);
        sb_puts(P->out, ": ");
        print_type(P, b->args[i]->type);
        print_loc(P, b->args[i]->loc);
    }
}

static bool is_empty_yield(Op *o) {
    return o && o->kind == SCF_YIELD && o->noperands == 0 && o->nattrs == 0;
}

/* `{` newline, blocks, `}` (indent = the owning op's). With print_entry_args
 * the entry block's label is printed when it has arguments (or no ops, so
 * that an empty block reads back as a block rather than an empty region). */
static void print_region(Printer *P, Region *r, int indent, bool print_entry_args,
                         bool print_terminators) {
    sb_puts(P->out, "{\n");
    int bbn = 0;
    for (Block *b = r->first; b; b = b->next, bbn++) {
        bool label = b != r->first || (print_entry_args && (b->nargs > 0 || !b->first));
        if (label) {
            put_indent(P, indent);
            sb_printf(P->out, "^bb%d", bbn);
            if (b->nargs) {
                sb_putc(P->out, '(');
                print_block_args(P, b);
                sb_putc(P->out, ')');
            }
            /* no op here branches, so only the entry block is reachable */
            sb_puts(P->out, b != r->first ? ":  // no predecessors\n" : ":\n");
        }
        for (Op *o = b->first; o; o = o->next) {
            op_prefetch(o, OP_PREFETCH_DIST);
            if (!print_terminators && o == b->last && is_empty_yield(o)) break;
            print_op(P, o, indent + 2);
        }
    }
    put_indent(P, indent);
    sb_putc(P->out, '}');
}

static void print_generic(Printer *P, Op *op, int indent) {
    ir_print_string(op_name(op), P->out);
    sb_putc(P->out, '(');
    print_value_list(P, op, 0, op->noperands);
    sb_putc(P->out, ')');
    print_attrs_filtered(P, op->attrs, op->nattrs, NULL, 1, op->kind, true, "<{", "}>");
    if (op->nregions) {
        sb_puts(P->out, " (");
        for (int i = 0; i < op->nregions; i++) {
            if (i) sb_puts(P->out, ", ");
            print_region(P, &op->regions[i], indent, true, true);
        }
        sb_putc(P->out, ')');
    }
    print_attrs_filtered(P, op->attrs, op->nattrs, NULL, 0, op->kind, true, "{", "}");
    sb_puts(P->out, " : ");
    print_functional_type(P, op, 0);
}

/* ---- which attributes are inherent (printed in `<{...}>` generically) ---- */

static const char *const *inherent_names(OpKind k) {
    static const char *const constant[] = {"value", NULL};
    static const char *const cmp[] = {"predicate", "fastmath", NULL};
    static const char *const flags[] = {"overflowFlags", "fastmath", NULL};
    static const char *const func[] = {"sym_name", "function_type", "sym_visibility", "arg_attrs",
                                       "res_attrs", NULL};
    static const char *const module[] = {"sym_name", "sym_visibility", NULL};
    static const char *const call[] = {"callee", "arg_attrs", "res_attrs", NULL};
    static const char *const axis[] = {"axis", NULL};
    static const char *const range[] = {"start", "end", NULL};
    static const char *const scan[] = {"axis", "reverse", NULL};
    static const char *const trans[] = {"order", NULL};
    static const char *const reshape[] = {"allow_reorder", "efficient_layout", NULL};
    static const char *const gather[] = {"axis", "efficient_layout", NULL};
    static const char *const load[] = {"cache", "evict", "isVolatile", "boundaryCheck", "padding",
                                       NULL};
    static const char *const store[] = {"cache", "evict", "boundaryCheck", NULL};
    static const char *const dot[] = {"inputPrecision", "maxNumImpreciseAcc", NULL};
    static const char *const rmw[] = {"atomic_rmw_op", "sem", "scope", NULL};
    static const char *const cas[] = {"sem", "scope", NULL};
    static const char *const fp[] = {"rounding", NULL};
    static const char *const clamp[] = {"propagateNan", NULL};
    static const char *const assert_[] = {"message", NULL};
    static const char *const print[] = {"prefix", "hex", "isSigned", NULL};
    static const char *const ext[] = {"libname", "libpath", "symbol", "pure", NULL};
    switch (k) {
    case ARITH_CONSTANT: return constant;
    case ARITH_CMPI: return cmp;
    case ARITH_CMPF: return cmp;
    case TT_FUNC: return func;
    case BUILTIN_MODULE: return module;
    case TT_CALL: return call;
    case TT_GET_PROGRAM_ID:
    case TT_GET_NUM_PROGRAMS:
    case TT_EXPAND_DIMS:
    case TT_REDUCE: return axis;
    case TT_MAKE_RANGE: return range;
    case TT_SCAN: return scan;
    case TT_TRANS: return trans;
    case TT_RESHAPE: return reshape;
    case TT_GATHER: return gather;
    case TT_LOAD: return load;
    case TT_STORE: return store;
    case TT_DOT: return dot;
    case TT_ATOMIC_RMW: return rmw;
    case TT_ATOMIC_CAS: return cas;
    case TT_FP_TO_FP: return fp;
    case TT_CLAMPF: return clamp;
    case TT_ASSERT: return assert_;
    case TT_PRINT: return print;
    case TT_EXTERN_ELEMENTWISE: return ext;
    default: return op_info[k].format == FMT_SAME && k < MATH_EXP ? flags : NULL;
    }
}

bool ir_attr_is_inherent(OpKind kind, const char *name) {
    const char *const *l = inherent_names(kind);
    for (; l && *l; l++)
        if (strcmp(*l, name) == 0) return true;
    return false;
}

/* ---- custom forms ---------------------------------------------------------- */

/* An enum attribute printable as a keyword: an INT within its table. */
static const char *enum_keyword(Op *op, const char *attr, const char *const *names) {
    Attr *a = op_attr(op, attr);
    if (!a || a->kind != ATTR_INT) return NULL;
    int n = 0;
    while (names[n]) n++;
    return a->i >= 0 && a->i < n ? names[a->i] : NULL;
}

static Type *operand_type(Op *op, int i) {
    Value *v = i < op->noperands ? op_operand(op, i) : NULL;
    return v ? v->type : NULL;
}

static Type *result_type(Op *op, int i) { return i < op->nresults ? op->results[i].type : NULL; }

static bool counts_ok(Op *op) {
    const OpInfo *in = op_info_of(op);
    if (op->noperands < in->nopmin || (in->nopmax >= 0 && op->noperands > in->nopmax)) return false;
    if (in->nres >= 0 && op->nresults != in->nres) return false;
    if (op->nregions != in->nregions) return false;
    for (int i = 0; i < op->noperands; i++)
        if (!op_operand(op, i) || !op_operand(op, i)->type) return false;
    for (int i = 0; i < op->nresults; i++)
        if (!op->results[i].type) return false;
    return true;
}

static bool all_operands_typed(Op *op, int from, Type *t) {
    for (int i = from; i < op->noperands; i++)
        if (operand_type(op, i) != t) return false;
    return true;
}

/* A region with exactly one block whose argument types are `types` (or
 * any, when types is NULL and n < 0). */
static bool single_block(Region *r, int nargs) {
    return r->first && r->first == r->last && (nargs < 0 || r->first->nargs == nargs);
}

static bool str_attr(Op *op, const char *name) {
    Attr *a = op_attr(op, name);
    return a && a->kind == ATTR_STRING;
}

/* Pointee of a pointer-like type, elementwise over tensors. */
Type *ir_pointee_type(Context *c, Type *t) {
    if (!t) return NULL;
    if (t->kind == TY_PTR) return t->elem;
    if (t->kind == TY_TENSOR && t->elem->kind == TY_PTR) return ty_with_elem(c, t, t->elem->elem);
    return NULL;
}

/* The uniqued i1 type with t's shape, found without a Context: only when
 * the mask value already has it, which is all the printer needs. */
static bool is_i1_shape_of(Type *m, Type *like) {
    if (!m || !like) return false;
    Type *e = ty_elem(m);
    return e->kind == TY_INT && e->width == 1 && e->sign == SIGNLESS && ty_same_shape(m, like) &&
           (m->kind != TY_TENSOR || m->encoding == like->encoding);
}

/* pointee equality without a Context (types are uniqued, compare parts) */
static bool is_pointee_of(Type *v, Type *ptr) {
    if (!v || !ptr) return false;
    if (ptr->kind == TY_PTR) return v == ptr->elem;
    if (ptr->kind == TY_TENSOR && ptr->elem->kind == TY_PTR)
        return v->kind == TY_TENSOR && v->elem == ptr->elem->elem && ty_same_shape(v, ptr) &&
               v->encoding == ptr->encoding;
    return false;
}

static bool func_fits(Op *op) {
    Attr *ft = op_attr_k(op, AN_FUNCTION_TYPE);
    if (!ft || ft->kind != ATTR_TYPE || ft->ty->kind != TY_FUNC || !str_attr(op, "sym_name"))
        return false;
    Attr *vis = op_attr_k(op, AN_SYM_VISIBILITY);
    if (vis && (vis->kind != ATTR_STRING || !is_bare_id(vis->s))) return false;
    Type *t = ft->ty;
    Attr *aa = op_attr_k(op, AN_ARG_ATTRS), *ra = op_attr_k(op, AN_RES_ATTRS);
    if (aa && (aa->kind != ATTR_ARRAY || aa->arr.n != t->ninputs)) return false;
    if (ra && (ra->kind != ATTR_ARRAY || ra->arr.n != t->nresults)) return false;
    for (int i = 0; aa && i < aa->arr.n; i++)
        if (aa->arr.elems[i]->kind != ATTR_DICT) return false;
    for (int i = 0; ra && i < ra->arr.n; i++)
        if (ra->arr.elems[i]->kind != ATTR_DICT) return false;
    Region *r = &op->regions[0];
    if (!r->first) return true;
    Block *b = r->first;
    if (b->nargs != t->ninputs) return false;
    for (int i = 0; i < b->nargs; i++)
        if (b->args[i]->type != t->inputs[i]) return false;
    return true;
}

/* Whether op can be printed in its custom form and read back unchanged. */
static bool fits_custom(Op *op) {
    const OpInfo *in = op_info_of(op);
    if (in->format == FMT_GENERIC || !counts_ok(op)) return false;
    Type *r0 = result_type(op, 0), *t0 = operand_type(op, 0);
    switch (in->format) {
    case FMT_SAME: return op->noperands > 0 && all_operands_typed(op, 0, r0);
    case FMT_CAST:
    case FMT_CONVERT:
        if (op->kind == TT_FP_TO_FP && op_attr_k(op, AN_ROUNDING) &&
            !enum_keyword(op, "rounding", tt_rounding_names))
            return false;
        return true;
    case FMT_CMP: {
        const char *const *names = op->kind == ARITH_CMPI ? cmpi_pred_names : cmpf_pred_names;
        int n = op->kind == ARITH_CMPI ? CMPI_COUNT : CMPF_COUNT;
        Attr *p = op_attr_k(op, AN_PREDICATE);
        (void)names;
        return p && p->kind == ATTR_INT && p->i >= 0 && p->i < n && operand_type(op, 1) == t0 &&
               is_i1_shape_of(r0, t0);
    }
    case FMT_CONSTANT: {
        Attr *v = op_attr_k(op, AN_VALUE);
        return v && v->type == r0 &&
               (v->kind == ATTR_INT || v->kind == ATTR_FLOAT || v->kind == ATTR_DENSE);
    }
    case FMT_SELECT: return operand_type(op, 1) == r0 && operand_type(op, 2) == r0;
    default: break;
    }
    switch (op->kind) {
    case BUILTIN_MODULE: {
        Attr *n = op_attr_k(op, AN_SYM_NAME);
        return single_block(&op->regions[0], 0) && (!n || n->kind == ATTR_STRING);
    }
    case TT_FUNC: return func_fits(op);
    case TT_CALL: {
        Attr *c = op_attr_k(op, AN_CALLEE);
        return c && c->kind == ATTR_SYMREF;
    }
    case TT_GET_PROGRAM_ID:
    case TT_GET_NUM_PROGRAMS: return enum_keyword(op, "axis", tt_axis_names) != NULL;
    case TT_JOIN:
    case TT_CAT: return operand_type(op, 1) == t0;
    case TT_SPLIT: return result_type(op, 1) == r0;
    case TT_GATHER: return true;
    case TT_HISTOGRAM: return op->noperands < 2 || is_i1_shape_of(operand_type(op, 1), t0);
    case TT_ADDPTR: return r0 == t0;
    case TT_MAKE_TENSOR_PTR: return (op->noperands - 1) % 3 == 0 && r0->kind == TY_PTR;
    case TT_ADVANCE: return r0 == t0 && r0->kind == TY_PTR;
    case TT_LOAD:
        return is_pointee_of(r0, t0) &&
               (op->noperands < 2 || is_i1_shape_of(operand_type(op, 1), t0)) &&
               (op->noperands < 3 || operand_type(op, 2) == r0);
    case TT_STORE:
        return is_pointee_of(operand_type(op, 1), t0) &&
               (op->noperands < 3 || is_i1_shape_of(operand_type(op, 2), t0));
    case TT_DOT:
        if (op_attr_k(op, AN_INPUT_PRECISION) && !enum_keyword(op, "inputPrecision", tt_precision_names))
            return false;
        return operand_type(op, 2) == r0;
    case TT_ATOMIC_RMW:
        return enum_keyword(op, "atomic_rmw_op", tt_rmw_names) &&
               enum_keyword(op, "sem", tt_sem_names) && enum_keyword(op, "scope", tt_scope_names);
    case TT_ATOMIC_CAS:
        return enum_keyword(op, "sem", tt_sem_names) && enum_keyword(op, "scope", tt_scope_names);
    case TT_CLAMPF:
        return enum_keyword(op, "propagateNan", tt_propnan_names) && all_operands_typed(op, 0, r0);
    case TT_ASSERT: return str_attr(op, "message");
    case TT_PRINT: return str_attr(op, "prefix");
    case SCF_FOR: {
        int niter = op->noperands - 3;
        Region *r = &op->regions[0];
        if (op->nresults != niter || !single_block(r, 1 + niter)) return false;
        Block *b = r->first;
        Type *iv = b->args[0]->type;
        if (operand_type(op, 1) != t0 || operand_type(op, 2) != t0 || iv != t0) return false;
        for (int i = 0; i < niter; i++)
            if (b->args[1 + i]->type != operand_type(op, 3 + i) ||
                result_type(op, i) != operand_type(op, 3 + i))
                return false;
        return true;
    }
    case SCF_IF:
        return single_block(&op->regions[0], 0) &&
               (!op->regions[1].first || single_block(&op->regions[1], 0)) &&
               (op->nresults == 0 || op->regions[1].first);
    case SCF_WHILE: {
        Region *before = &op->regions[0], *after = &op->regions[1];
        if (!single_block(before, op->noperands) || !after->first) return false;
        for (int i = 0; i < op->noperands; i++)
            if (before->first->args[i]->type != operand_type(op, i)) return false;
        return true;
    }
    case SCF_CONDITION: return t0 != NULL;
    case UB_POISON:
    case GPU_BARRIER:
    case TT_MAKE_RANGE:
    case TT_RETURN:
    case SCF_YIELD:
    case TT_REDUCE_RETURN:
    case TT_SCAN_RETURN:
    case TT_MAP_ELEMENTWISE_RETURN:
    case TT_EXTERN_ELEMENTWISE: return true;
    default: return false;
    }
}

static void print_custom(Printer *P, Op *op, int indent) {
    StrBuf *o = P->out;
    const OpInfo *in = op_info_of(op);
    sb_puts(o, op->kind == BUILTIN_MODULE ? "module" : in->name);
    switch (in->format) {
    case FMT_SAME: {
        /* overflow<nsw> / fastmath<fast> keywords; other values stay in the dict */
        static const char *const flags[] = {"overflowFlags", "overflow", "fastmath", "fastmath"};
        const char *skip[3] = {NULL, NULL, NULL};
        int ns = 0;
        sb_putc(o, ' ');
        print_value_list(P, op, 0, op->noperands);
        for (int i = 0; i < 4; i += 2) {
            /* stored as MLIR writes them generically: #arith.overflow<nsw> */
            Attr *f = op_attr(op, flags[i]);
            const char *pre = i == 0 ? "#arith.overflow<" : "#arith.fastmath<";
            if (f && f->kind == ATTR_OPAQUE && strncmp(f->s, pre, strlen(pre)) == 0) {
                sb_printf(o, " %s", f->s + 7);
                skip[ns++] = flags[i];
            }
        }
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_type(P, result_type(op, 0));
        return;
    }
    case FMT_CAST:
    case FMT_CONVERT: {
        static const char *const skip_fp[] = {"rounding", NULL};
        static const char *const skip_reshape[] = {"allow_reorder", "efficient_layout", NULL};
        const char *const *skip = NULL;
        sb_putc(o, ' ');
        print_value(P, op_operand(op, 0));
        if (op->kind == TT_RESHAPE) {
            /* unit keywords; a non-unit value stays in the attr-dict */
            const char *ks[3] = {NULL, NULL, NULL};
            int nk = 0;
            for (int i = 0; i < 2; i++) {
                Attr *a = op_attr(op, skip_reshape[i]);
                if (a && a->kind == ATTR_UNIT) {
                    sb_printf(o, " %s", skip_reshape[i]);
                    ks[nk++] = skip_reshape[i];
                }
            }
            print_attr_dict(P, op, ks);
        } else {
            const char *rk = op->kind == TT_FP_TO_FP ? enum_keyword(op, "rounding", tt_rounding_names) : NULL;
            if (rk) skip = skip_fp;
            print_attr_dict(P, op, skip);
            if (rk) sb_printf(o, ", rounding = %s", rk);
        }
        sb_puts(o, " : ");
        print_type(P, operand_type(op, 0));
        sb_puts(o, in->format == FMT_CAST ? " to " : " -> ");
        print_type(P, result_type(op, 0));
        return;
    }
    case FMT_CMP: {
        static const char *const skip[] = {"predicate", NULL};
        Attr *p = op_attr_k(op, AN_PREDICATE);
        sb_printf(o, " %s, ", (op->kind == ARITH_CMPI ? cmpi_pred_names : cmpf_pred_names)[p->i]);
        print_value_list(P, op, 0, 2);
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_type(P, operand_type(op, 0));
        return;
    }
    case FMT_CONSTANT: {
        static const char *const skip[] = {"value", NULL};
        print_attr_dict(P, op, skip);
        sb_putc(o, ' ');
        print_attr(P, op_attr_k(op, AN_VALUE));
        return;
    }
    case FMT_SELECT: {
        sb_putc(o, ' ');
        print_value_list(P, op, 0, 3);
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        Type *c = operand_type(op, 0);
        if (!(c->kind == TY_INT && c->width == 1 && c->sign == SIGNLESS)) {
            print_type(P, c);
            sb_puts(o, ", ");
        }
        print_type(P, result_type(op, 0));
        return;
    }
    default: break;
    }

    switch (op->kind) {
    case BUILTIN_MODULE: {
        static const char *const skip[] = {"sym_name", NULL};
        Attr *n = op_attr_k(op, AN_SYM_NAME);
        if (n) {
            sb_putc(o, ' ');
            print_symbol(P, n->s);
        }
        if (op->nattrs > (n ? 1 : 0)) {
            sb_puts(o, " attributes");
            print_attr_dict(P, op, skip);
        }
        sb_putc(o, ' ');
        print_region(P, &op->regions[0], indent, false, true);
        return;
    }
    case TT_FUNC: {
        static const char *const skip[] = {"sym_name", "function_type", "sym_visibility",
                                           "arg_attrs", "res_attrs", NULL};
        Type *t = op_attr_k(op, AN_FUNCTION_TYPE)->ty;
        Attr *vis = op_attr_k(op, AN_SYM_VISIBILITY);
        Attr *aa = op_attr_k(op, AN_ARG_ATTRS), *ra = op_attr_k(op, AN_RES_ATTRS);
        Block *entry = op->regions[0].first;
        sb_putc(o, ' ');
        if (vis) sb_printf(o, "%s ", vis->s);
        print_symbol(P, op_attr_str_k(op, AN_SYM_NAME));
        sb_putc(o, '(');
        for (int i = 0; i < t->ninputs; i++) {
            if (i) sb_puts(o, ", ");
            if (entry) {
                print_value(P, entry->args[i]);
                sb_puts(o, ": ");
            }
            print_type(P, t->inputs[i]);
            if (aa) {
                Attr *d = aa->arr.elems[i];
                print_attrs_filtered(P, d->dict.entries, d->dict.n, NULL, -1, op->kind, true, "{", "}");
            }
            if (entry) print_loc(P, entry->args[i]->loc);
        }
        sb_putc(o, ')');
        if (t->nresults) {
            sb_puts(o, " -> ");
            bool paren = t->nresults > 1 || t->results[0]->kind == TY_FUNC ||
                         (ra && ra->arr.elems[0]->dict.n > 0);
            if (paren) sb_putc(o, '(');
            for (int i = 0; i < t->nresults; i++) {
                if (i) sb_puts(o, ", ");
                print_type(P, t->results[i]);
                if (ra) {
                    Attr *d = ra->arr.elems[i];
                    print_attrs_filtered(P, d->dict.entries, d->dict.n, NULL, -1, op->kind, true, "{", "}");
                }
            }
            if (paren) sb_putc(o, ')');
        }
        bool any = false;
        for (int i = 0; i < op->nattrs; i++) {
            bool s = false;
            for (const char *const *k = skip; *k; k++) s |= strcmp(*k, op->attrs[i].name) == 0;
            any |= !s;
        }
        if (any) {
            sb_puts(o, " attributes");
            print_attr_dict(P, op, skip);
        }
        if (entry) {
            sb_putc(o, ' ');
            print_region(P, &op->regions[0], indent, false, true);
        }
        return;
    }
    case TT_RETURN:
    case SCF_YIELD:
        print_attr_dict(P, op, NULL);
        if (op->noperands) {
            sb_putc(o, ' ');
            print_value_list(P, op, 0, op->noperands);
            sb_puts(o, " : ");
            print_operand_types(P, op, 0, op->noperands);
        }
        return;
    case TT_REDUCE_RETURN:
    case TT_SCAN_RETURN:
    case TT_MAP_ELEMENTWISE_RETURN:
        sb_putc(o, ' ');
        print_value_list(P, op, 0, op->noperands);
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_operand_types(P, op, 0, op->noperands);
        return;
    case SCF_CONDITION:
        sb_putc(o, '(');
        print_value(P, op_operand(op, 0));
        sb_putc(o, ')');
        print_attr_dict(P, op, NULL);
        if (op->noperands > 1) {
            sb_putc(o, ' ');
            print_value_list(P, op, 1, op->noperands);
            sb_puts(o, " : ");
            print_operand_types(P, op, 1, op->noperands);
        }
        return;
    case TT_CALL: {
        static const char *const skip[] = {"callee", NULL};
        sb_putc(o, ' ');
        print_symbol(P, op_attr_k(op, AN_CALLEE)->s);
        sb_putc(o, '(');
        print_value_list(P, op, 0, op->noperands);
        sb_putc(o, ')');
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_functional_type(P, op, 0);
        return;
    }
    case TT_GET_PROGRAM_ID:
    case TT_GET_NUM_PROGRAMS: {
        static const char *const skip[] = {"axis", NULL};
        sb_printf(o, " %s", enum_keyword(op, "axis", tt_axis_names));
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_type(P, result_type(op, 0));
        return;
    }
    case TT_MAKE_RANGE:
    case UB_POISON:
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_type(P, result_type(op, 0));
        return;
    case GPU_BARRIER: print_attr_dict(P, op, NULL); return;
    case TT_JOIN:
    case TT_CAT:
    case TT_SPLIT:
    case TT_HISTOGRAM: /* tt.histogram %src (, %mask)? attr-dict : S -> R */
        sb_putc(o, ' ');
        print_value_list(P, op, 0, op->noperands);
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_type(P, operand_type(op, 0));
        sb_puts(o, " -> ");
        print_type(P, result_type(op, 0));
        return;
    case TT_GATHER: /* tt.gather %src[%idx] attr-dict : (S, I) -> R, as Triton prints it */
        sb_putc(o, ' ');
        print_value(P, op_operand(op, 0));
        sb_putc(o, '[');
        print_value(P, op_operand(op, 1));
        sb_putc(o, ']');
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_functional_type(P, op, 0);
        return;
    case TT_ADDPTR:
        sb_putc(o, ' ');
        print_value_list(P, op, 0, 2);
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_type(P, result_type(op, 0));
        sb_puts(o, ", ");
        print_type(P, operand_type(op, 1));
        return;
    case TT_MAKE_TENSOR_PTR:
    case TT_ADVANCE: {
        /* %base, [shape], [strides], [offsets]  |  %ptr, [offsets] */
        int groups = op->kind == TT_ADVANCE ? 1 : 3;
        int n = (op->noperands - 1) / groups;
        sb_putc(o, ' ');
        print_value(P, op_operand(op, 0));
        for (int g = 0; g < groups; g++) {
            sb_puts(o, ", [");
            print_value_list(P, op, 1 + g * n, 1 + (g + 1) * n);
            sb_putc(o, ']');
        }
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_short_ptr_type(P, result_type(op, 0));
        return;
    }
    case TT_LOAD:
    case TT_STORE: {
        const char *skip[3] = {NULL, NULL, NULL};
        int ns = 0;
        sb_putc(o, ' ');
        print_value_list(P, op, 0, op->noperands);
        const char *c = enum_keyword(op, "cache", tt_cache_names);
        const char *e = enum_keyword(op, "evict", tt_evict_names);
        if (c) {
            skip[ns++] = "cache";
            if (op_attr_k(op, AN_CACHE)->i != TT_CACHE_NONE) sb_printf(o, " cacheModifier = %s", c);
        }
        if (e) {
            skip[ns++] = "evict";
            if (op_attr_k(op, AN_EVICT)->i != TT_EVICT_NORMAL) sb_printf(o, " evictionPolicy = %s", e);
        }
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_type(P, operand_type(op, 0));
        return;
    }
    case TT_DOT: {
        static const char *const skip[] = {"inputPrecision", NULL};
        const char *p = enum_keyword(op, "inputPrecision", tt_precision_names);
        sb_putc(o, ' ');
        print_value_list(P, op, 0, 3);
        if (p && op_attr_k(op, AN_INPUT_PRECISION)->i != TT_PREC_IEEE)
            sb_printf(o, ", inputPrecision = %s", p);
        print_attr_dict(P, op, p ? skip : NULL);
        sb_puts(o, " : ");
        print_type(P, operand_type(op, 0));
        sb_puts(o, " * ");
        print_type(P, operand_type(op, 1));
        sb_puts(o, " -> ");
        print_type(P, result_type(op, 0));
        return;
    }
    case TT_ATOMIC_RMW:
    case TT_ATOMIC_CAS: {
        static const char *const skip[] = {"atomic_rmw_op", "sem", "scope", NULL};
        sb_putc(o, ' ');
        if (op->kind == TT_ATOMIC_RMW) sb_printf(o, "%s, ", enum_keyword(op, "atomic_rmw_op", tt_rmw_names));
        sb_printf(o, "%s, %s, ", enum_keyword(op, "sem", tt_sem_names),
                  enum_keyword(op, "scope", tt_scope_names));
        print_value_list(P, op, 0, op->noperands);
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_functional_type(P, op, 0);
        return;
    }
    case TT_CLAMPF: {
        static const char *const skip[] = {"propagateNan", NULL};
        sb_putc(o, ' ');
        print_value_list(P, op, 0, 3);
        sb_printf(o, ", propagateNan = %s", enum_keyword(op, "propagateNan", tt_propnan_names));
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_type(P, result_type(op, 0));
        return;
    }
    case TT_ASSERT: {
        static const char *const skip[] = {"message", NULL};
        sb_putc(o, ' ');
        print_value(P, op_operand(op, 0));
        sb_puts(o, ", ");
        ir_print_string(op_attr_str(op, "message"), o);
        print_attr_dict(P, op, skip);
        sb_puts(o, " : ");
        print_type(P, operand_type(op, 0));
        return;
    }
    case TT_PRINT: {
        static const char *const skip[] = {"prefix", NULL};
        sb_putc(o, ' ');
        ir_print_string(op_attr_str(op, "prefix"), o);
        print_attr_dict(P, op, skip);
        if (op->noperands) {
            sb_puts(o, " : ");
            print_value_list(P, op, 0, op->noperands);
            sb_puts(o, " : ");
            print_operand_types(P, op, 0, op->noperands);
        }
        return;
    }
    case TT_EXTERN_ELEMENTWISE:
        sb_putc(o, ' ');
        print_value_list(P, op, 0, op->noperands);
        print_attr_dict(P, op, NULL);
        sb_puts(o, " : ");
        print_functional_type(P, op, 0);
        return;
    case SCF_FOR: {
        Block *b = op->regions[0].first;
        int niter = op->noperands - 3;
        sb_putc(o, ' ');
        print_value(P, b->args[0]);
        sb_puts(o, " = ");
        print_value(P, op_operand(op, 0));
        sb_puts(o, " to ");
        print_value(P, op_operand(op, 1));
        sb_puts(o, " step ");
        print_value(P, op_operand(op, 2));
        if (niter) {
            sb_puts(o, " iter_args(");
            for (int i = 0; i < niter; i++) {
                if (i) sb_puts(o, ", ");
                print_value(P, b->args[1 + i]);
                sb_puts(o, " = ");
                print_value(P, op_operand(op, 3 + i));
            }
            sb_puts(o, ") -> (");
            print_result_types(P, op);
            sb_putc(o, ')');
        }
        sb_putc(o, ' ');
        Type *iv = b->args[0]->type;
        if (iv->kind != TY_INDEX) {
            sb_puts(o, " : ");
            print_type(P, iv);
            sb_putc(o, ' ');
        }
        print_region(P, &op->regions[0], indent, false, niter > 0);
        print_attr_dict(P, op, NULL);
        return;
    }
    case SCF_IF:
        sb_putc(o, ' ');
        print_value(P, op_operand(op, 0));
        if (op->nresults) {
            sb_puts(o, " -> (");
            print_result_types(P, op);
            sb_putc(o, ')');
        }
        sb_putc(o, ' ');
        print_region(P, &op->regions[0], indent, false, op->nresults > 0);
        if (op->regions[1].first) {
            sb_puts(o, " else ");
            print_region(P, &op->regions[1], indent, false, op->nresults > 0);
        }
        print_attr_dict(P, op, NULL);
        return;
    case SCF_WHILE: {
        Block *b = op->regions[0].first;
        sb_putc(o, ' ');
        if (op->noperands) {
            sb_putc(o, '(');
            for (int i = 0; i < op->noperands; i++) {
                if (i) sb_puts(o, ", ");
                print_value(P, b->args[i]);
                sb_puts(o, " = ");
                print_value(P, op_operand(op, i));
            }
            sb_puts(o, ") ");
        }
        sb_puts(o, ": ");
        print_functional_type(P, op, 0);
        sb_putc(o, ' ');
        print_region(P, &op->regions[0], indent, false, true);
        sb_puts(o, " do ");
        print_region(P, &op->regions[1], indent, true, true);
        if (op->nattrs) {
            sb_puts(o, " attributes");
            print_attr_dict(P, op, NULL);
        }
        return;
    }
    default:
        /* unreachable: fits_custom() admits only the ops handled above */
        return;
    }
}

static void print_op(Printer *P, Op *op, int indent) {
    put_indent(P, indent);
    if (op->nresults) {
        /* the definition: %name, %name:N for a group of N, groups by commas */
        for (int g = 0; g < op->nresults;) {
            int e = g + 1;
            while (e < op->nresults && !value_name(P, &op->results[e])) e++;
            const ValueName *n = value_name(P, &op->results[g]);
            if (g) sb_puts(P->out, ", ");
            if (n) sb_putn(P->out, n->text, n->len);
            else sb_puts(P->out, "%<<UNNAMED>>");
            if (e - g > 1) {
                sb_putc(P->out, ':');
                sb_put_int(P->out, e - g);
            }
            g = e;
        }
        sb_puts(P->out, " = ");
    }
    if (P->generic || !fits_custom(op)) print_generic(P, op, indent);
    else print_custom(P, op, indent);
    print_loc(P, op->loc);
    sb_putc(P->out, '\n');
}

void ir_print(Op *op, StrBuf *out, const PrintOptions *opts) {
    Printer P = {0};
    P.out = out;
    P.debug = opts && opts->debug_info;
    P.generic = opts && opts->generic;
    P.arena = arena_new();
    P.alias_hook.print = print_aliased_attr;
    interner_init(&P.strs, P.arena);
    Counters c = {0, 0, 0};
    name_results(&P, op, &c);
    name_op_regions(&P, op, c);
    size_t start = out->len;
    print_op(&P, op, 0);
    print_alias_defs(&P, start);
    if (P.debug) print_loc_aliases(&P);
    sb_cstr(out);
    vec_free(&P.aliases);
    vec_free(&P.names);
    map_free(&P.bound);
    map_free(&P.loc_index);
    vec_free(&P.undo);
    vec_free(&P.locs);
    vec_free(&P.loc_next);
    interner_free(&P.strs);
    arena_free(P.arena);
}
