/*
 * parse.c - reads the IR's text form back: what print.c writes, and the
 * .ttir files Triton 3.6 leaves in its cache, as they are.
 *
 * A recursive-descent parser over the tokens of lex.c, one function per
 * grammar rule (the rule is written above each). Ops are built as they are
 * read: operands are resolved when they are named, so a use before its
 * definition is an error ("use of undefined value '%5'"), which is what
 * single-block regions demand.
 *
 * SSA names live in one hash map keyed by interned name, each entry the
 * innermost binding with a link to the one it shadows. A region opens a
 * scope (its names are unbound when it closes, so sibling regions may
 * reuse them); an op isolated from above (tt.func) also raises a floor
 * below which outer bindings are invisible. Lookups are O(1).
 *
 * Locations: `loc(...)` after an op, a block argument or a function
 * argument sets its Loc to the innermost file location it names (through
 * name, callsite and fused locations). `#locN = loc(...)` aliases may be
 * defined before or after their uses (Triton puts most after the module),
 * so annotations are resolved when the whole text has been read. Ops
 * without an annotation get the position of their first token.
 *
 * Errors: the first one is reported to the Context's DiagEngine at the
 * offending token, and the parser unwinds with longjmp to ir_parse(), which
 * returns NULL (everything allocated so far belongs to the Context's arena
 * or to the parser's scratch arena, freed there). Nesting depth is bounded
 * (IR_MAX_NESTING) so hostile input cannot exhaust the stack.
 */
#include "dialect/dialect.h"
#include "ir/text.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An SSA name's binding: `count` consecutive results starting at `v` (or
 * one block argument), visible while `depth >= floor`. */
typedef struct Binding {
    Value *v;
    int count;
    int depth;
    struct Binding *shadowed;
    struct NameSlot *slot; /* where the name is in P->slots (kept up to date) */
} Binding;

/* Open-addressing table from a name's text to its innermost binding: one
 * probe per use, no interning (the hot path of parsing). */
typedef struct NameSlot {
    uint64_t hash;
    const char *name;
    int len;
    Binding *b;
} NameSlot;

/* A location annotation, resolved once every alias is known. */
typedef enum LocKind { LN_UNKNOWN, LN_FILE, LN_NAME, LN_CALLSITE, LN_FUSED, LN_REF } LocKind;
typedef struct LocNode {
    LocKind kind;
    Loc loc;              /* LN_FILE; for LN_REF, where the reference is */
    int span;             /* LN_REF: length of the reference, for errors */
    const char *alias;    /* LN_REF */
    struct LocNode **kids;
    int nkids;
    int state;            /* alias definitions: 0 new, 1 resolving, 2 done */
    Loc resolved;
} LocNode;

typedef struct PendingLoc {
    Loc *dst;
    LocNode *node;
} PendingLoc;

/* A block argument named before its region is parsed (function arguments,
 * scf.for's induction variable and iter_args, scf.while's). */
typedef struct PreArg {
    Token tok;
    Type *type;
    LocNode *loc;
} PreArg;

/* One `%name` or `%name:N` on the left of an op. */
typedef struct ResultName {
    Token tok;
    const char *name;
    int count;
} ResultName;

/* An element of a dense<...> literal before its type is known. */
typedef struct DenseLit {
    enum { DL_INT, DL_FLOAT, DL_BOOL, DL_HEX } kind;
    bool neg;
    uint64_t u;
    double f;
    Token tok;
} DenseLit;

/* A tensor or pointer type's text and the type it parsed to (see
 * parse_type_memo). */
typedef struct TypeMemo {
    const char *text; /* in the source */
    int len;
    Type *type;
} TypeMemo;
enum { TYPE_MEMO = 256 };

typedef struct Parser {
    Context *ctx;
    DiagEngine *de;
    const char *file; /* interned */
    Lexer lex;
    Token tok;        /* the current token */
    const char *prev_end; /* where the token before `tok` ended */
    jmp_buf fail;
    Arena *scratch;   /* bindings, location nodes: freed when parsing ends */
    int nesting;

    NameSlot *slots;  /* name text -> Binding* (see NameSlot) */
    int nslots, nused;
    VEC(Binding *) bound; /* bindings made in open scopes, innermost last */
    int depth, floor;

    Map attr_aliases; /* interned "#name" -> Attr* */
    Map type_aliases; /* interned "!name" -> Type* */
    Map loc_aliases;  /* interned "#name" -> LocNode* */
    VEC(PendingLoc) pending;

    /* scratch stacks, used with marks so nested rules can share them */
    VEC(Value *) vals;
    VEC(Type *) types;
    VEC(Attr *) attrs;
    VEC(NamedAttr) named;
    VEC(PreArg) preargs;
    VEC(ResultName) results;
    VEC(DenseLit) dense;
    VEC(int64_t) ints;
    VEC(Region) regions;
    VEC(Token) toks;          /* operand tokens, for type errors */
    VEC(LocNode *) lockids;   /* fused locations' children */

    TypeMemo type_memo[TYPE_MEMO]; /* direct-mapped by the text's hash */
} Parser;

/* ---- errors and tokens -------------------------------------------------- */

static Loc tok_loc(Parser *P, Token t) { return (Loc){P->file, t.line, t.col}; }

static _Noreturn TC_PRINTF(3, 4) void error_at(Parser *P, Token t, const char *fmt, ...) {
    if (P->de) {
        va_list ap;
        va_start(ap, fmt);
        diag_vreport(P->de, DIAG_ERROR, tok_loc(P, t), t.len > 0 ? t.len : 1, fmt, ap);
        va_end(ap);
    }
    longjmp(P->fail, 1);
}

/* The token as it reads in a message: its text, or what kind it is. */
static const char *tok_desc(Parser *P, Token t) {
    if (t.kind == TK_EOF) return "end of file";
    if (t.len > 40 || t.kind == TK_ERROR) {
        if (t.kind == TK_ERROR && t.len >= 1) {
            unsigned char c = (unsigned char)t.start[0];
            if (c >= 32 && c < 127) return arena_printf(P->scratch, "'%c'", c);
            return arena_printf(P->scratch, "'\\x%02X'", c);
        }
        return tok_kind_name(t.kind);
    }
    return arena_printf(P->scratch, "'%.*s'", t.len, t.start);
}

static void next(Parser *P) {
    P->prev_end = P->tok.start ? P->tok.start + P->tok.len : NULL; /* (no token before the first) */
    P->tok = lex_next(&P->lex);
    if (P->tok.kind == TK_ERROR) error_at(P, P->tok, "%s", P->lex.error);
}

static bool at(Parser *P, TokKind k) { return P->tok.kind == k; }

static bool at_bare(Parser *P, const char *kw) {
    return P->tok.kind == TK_BARE && (int)strlen(kw) == P->tok.len &&
           memcmp(P->tok.start, kw, (size_t)P->tok.len) == 0;
}

static bool accept(Parser *P, TokKind k) {
    if (!at(P, k)) return false;
    next(P);
    return true;
}

static bool accept_bare(Parser *P, const char *kw) {
    if (!at_bare(P, kw)) return false;
    next(P);
    return true;
}

static Token expect(Parser *P, TokKind k, const char *what) {
    Token t = P->tok;
    if (t.kind != k) error_at(P, t, "expected %s, found %s", what, tok_desc(P, t));
    next(P);
    return t;
}

static void expect_bare(Parser *P, const char *kw) {
    if (!at_bare(P, kw)) error_at(P, P->tok, "expected '%s', found %s", kw, tok_desc(P, P->tok));
    next(P);
}

/* The lexer's state right after the current token: for a one-token peek. */
static Token peek(Parser *P) {
    Lexer save = P->lex;
    Token t = lex_next(&P->lex);
    P->lex = save;
    return t;
}

static void enter(Parser *P) {
    if (++P->nesting > IR_MAX_NESTING)
        error_at(P, P->tok, "nesting too deep (more than %d levels)", IR_MAX_NESTING);
}
static void leave(Parser *P) { P->nesting--; }

static const char *intern_tok(Parser *P, Token t, int skip) {
    return intern_n(&P->ctx->strings, t.start + skip, (size_t)(t.len - skip));
}

/* The contents of a string token, escapes decoded, interned. */
static const char *string_value(Parser *P, Token t) {
    char stackbuf[256];
    size_t cap = (size_t)t.len + 1;
    char *buf = cap <= sizeof stackbuf ? stackbuf : arena_alloc(P->scratch, cap);
    size_t n = 0;
    for (int i = 1; i < t.len - 1; i++) {
        char c = t.start[i];
        if (c != '\\') {
            buf[n++] = c;
            continue;
        }
        c = t.start[++i];
        if (c == 'n') buf[n++] = '\n';
        else if (c == 't') buf[n++] = '\t';
        else if (c == '"' || c == '\\') buf[n++] = c;
        else {
            char hex[3] = {c, t.start[++i], 0};
            buf[n++] = (char)strtol(hex, NULL, 16);
        }
    }
    for (size_t i = 0; i < n; i++)
        if (buf[i] == 0) error_at(P, t, "string contains a NUL character");
    return intern_n(&P->ctx->strings, buf, n);
}

/* ---- numbers ---------------------------------------------------------------- */

/* An integer token's magnitude; out-of-range literals are errors. */
static uint64_t int_value(Parser *P, Token t) {
    uint64_t v = 0;
    if (t.len > 2 && t.start[1] == 'x') {
        if (t.len > 18) error_at(P, t, "integer literal out of range");
        for (int i = 2; i < t.len; i++) {
            char c = t.start[i];
            int d = c <= '9' ? c - '0' : (c | 32) - 'a' + 10;
            v = v * 16 + (uint64_t)d;
        }
        return v;
    }
    for (int i = 0; i < t.len; i++) {
        uint64_t d = (uint64_t)(t.start[i] - '0');
        if (v > (UINT64_MAX - d) / 10) error_at(P, t, "integer literal out of range");
        v = v * 10 + d;
    }
    return v;
}

static double float_value(Parser *P, Token t) {
    char buf[128];
    if (t.len >= (int)sizeof buf) error_at(P, t, "float literal too long");
    memcpy(buf, t.start, (size_t)t.len);
    buf[t.len] = 0;
    return strtod(buf, NULL);
}

/* A small, non-negative integer (dimensions, widths, indices). */
static int64_t small_int(Parser *P, Token t, int64_t max, const char *what) {
    uint64_t v = int_value(P, t);
    if (v > (uint64_t)max) error_at(P, t, "%s too large", what);
    return (int64_t)v;
}

/* Decodes the bits of a float of kind k (hex literals like 0xFF800000). */
static double float_from_bits(uint64_t bits, FloatKind k) {
    switch (k) {
    case FK_F64: {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    case FK_F32: {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    default: break;
    }
    int ebits, mbits, bias, w;
    bool has_inf = true;
    switch (k) {
    case FK_F16: ebits = 5, mbits = 10, w = 16; break;
    case FK_BF16: ebits = 8, mbits = 7, w = 16; break;
    case FK_F8E5M2: ebits = 5, mbits = 2, w = 8; break;
    default: ebits = 4, mbits = 3, w = 8, has_inf = false; break;
    }
    bias = (1 << (ebits - 1)) - 1;
    bool neg = (bits >> (w - 1)) & 1;
    int e = (int)((bits >> mbits) & ((1u << ebits) - 1));
    uint64_t m = bits & ((1u << mbits) - 1);
    double v;
    if (has_inf && e == (1 << ebits) - 1) v = m ? NAN : INFINITY;
    else if (!has_inf && e == (1 << ebits) - 1 && m == (1u << mbits) - 1) v = NAN;
    else if (e == 0) v = ldexp((double)m, 1 - bias - mbits);
    else v = ldexp((double)(m | (1u << mbits)), e - bias - mbits);
    return neg ? -v : v;
}

/* Whether an integer (sign, magnitude) fits an integer type of `width`,
 * read as signed or unsigned. */
static bool int_fits(bool neg, uint64_t mag, int width) {
    if (width >= 64) return !neg || mag <= (UINT64_C(1) << 63);
    if (neg) return mag <= (UINT64_C(1) << (width - 1));
    return mag <= (UINT64_C(1) << width) - 1;
}

static int64_t int_signed(bool neg, uint64_t mag) { return neg ? (int64_t)(0 - mag) : (int64_t)mag; }

/* ---- names and scopes ------------------------------------------------------- */

static bool same_name(const char *a, const char *b, int len) {
    /* names are a few characters: a loop beats a call to memcmp */
    for (int i = 0; i < len; i++)
        if (a[i] != b[i]) return false;
    return true;
}

static NameSlot *name_slot(Parser *P, const char *name, int len, uint64_t h) {
    int mask = P->nslots - 1;
    for (int i = (int)(h & (uint64_t)mask);; i = (i + 1) & mask) {
        NameSlot *sl = &P->slots[i];
        if (!sl->name || (sl->hash == h && sl->len == len && same_name(sl->name, name, len))) return sl;
    }
}

static void grow_names(Parser *P) {
    NameSlot *old = P->slots;
    int n = P->nslots;
    P->nslots = n ? n * 2 : 1024;
    P->slots = tc_calloc((size_t)P->nslots, sizeof(NameSlot));
    for (int i = 0; i < n; i++)
        if (old[i].name) *name_slot(P, old[i].name, old[i].len, old[i].hash) = old[i];
    /* the bindings still in scope point at their slots */
    for (int i = 0; i < P->bound.len; i++) {
        NameSlot *o = P->bound.data[i]->slot;
        P->bound.data[i]->slot = name_slot(P, o->name, o->len, o->hash);
    }
    tc_free(old);
}

static void push_scope(Parser *P, bool isolated, int *saved_floor, int *mark) {
    *mark = P->bound.len;
    *saved_floor = P->floor;
    P->depth++;
    if (isolated) P->floor = P->depth;
}

static void pop_scope(Parser *P, int saved_floor, int mark) {
    while (P->bound.len > mark) {
        Binding *b = vec_pop(&P->bound);
        b->slot->b = b->shadowed;
    }
    P->depth--;
    P->floor = saved_floor;
}

/* The visible binding of `%name` (token t), or NULL. */
static Binding *visible(Parser *P, Token t) {
    const char *name = t.start + 1;
    int len = t.len - 1;
    Binding *b = name_slot(P, name, len, hash_bytes(name, (size_t)len, 0))->b;
    return b && b->depth >= P->floor ? b : NULL;
}

/* Binds `%name` (token t) to count values starting at v. */
static void bind(Parser *P, Token t, Value *v, int count) {
    const char *name = t.start + 1;
    int len = t.len - 1;
    uint64_t h = hash_bytes(name, (size_t)len, 0);
    if (2 * (P->nused + 1) > P->nslots) grow_names(P);
    NameSlot *sl = name_slot(P, name, len, h);
    if (sl->b && sl->b->depth >= P->floor) error_at(P, t, "redefinition of SSA value '%.*s'", t.len, t.start);
    if (!sl->name) {
        *sl = (NameSlot){h, name, len, NULL};
        P->nused++;
    }
    Binding *b = ARENA_NEW(P->scratch, Binding);
    *b = (Binding){v, count, P->depth, sl->b, sl};
    sl->b = b;
    vec_push(&P->bound, b);
    /* the name is a hint for the printer unless it is one it makes up */
    char buf[24];
    bool numeric = len < 16;
    for (int i = 0; numeric && i < len; i++) numeric = name[i] >= '0' && name[i] <= '9';
    if (numeric) return;
    if (len < 20 && len > 3 && memcmp(name, "arg", 3) == 0) {
        memcpy(buf, name, (size_t)len);
        buf[len] = 0;
        if (ir_name_is_auto(buf)) return;
    }
    v->name = intern_n(&P->ctx->strings, name, (size_t)len);
}

/* value-use ::= `%` suffix-id (`#` digit+)? */
static Value *parse_use(Parser *P) {
    Token t = expect(P, TK_PERCENT, "SSA value");
    int index = 0;
    Token idx = P->tok;
    if (idx.kind == TK_HASH && idx.start == t.start + t.len) {
        if (idx.len < 2 || idx.start[1] < '0' || idx.start[1] > '9')
            error_at(P, idx, "expected result number after '#'");
        Token num = {TK_INT, idx.start + 1, idx.len - 1, idx.line, idx.col + 1};
        index = (int)small_int(P, num, 1 << 20, "result number");
        next(P);
    }
    Binding *b = visible(P, t);
    if (!b) error_at(P, t, "use of undefined value '%.*s'", t.len, t.start);
    if (index >= b->count)
        error_at(P, t, "result number %d out of range: '%.*s' has %d result%s", index, t.len, t.start,
                 b->count, b->count == 1 ? "" : "s");
    return b->v + index;
}

/* Checks a value against the type the text gives it. */
static void check_type(Parser *P, Token at_tok, Value *v, Type *t) {
    if (v->type == t) return;
    StrBuf a = {0}, b = {0};
    ty_print(t, &a);
    ty_print(v->type, &b);
    const char *sa = arena_strdup(P->scratch, sb_cstr(&a)), *sbb = arena_strdup(P->scratch, sb_cstr(&b));
    sb_free(&a);
    sb_free(&b);
    error_at(P, at_tok, "use of value '%.*s' expects different type than prior uses: '%s' vs '%s'",
             at_tok.len, at_tok.start, sa, sbb);
}


/* value-use-list ::= value-use (`,` value-use)*, pushed on P->vals with the
 * tokens on `toks` (for type errors). Returns how many. */
static int parse_uses(Parser *P, bool keep_tokens) {
    int n = 0;
    do {
        if (keep_tokens) vec_push(&P->toks, P->tok);
        vec_push(&P->vals, parse_use(P));
        n++;
    } while (accept(P, TK_COMMA));
    return n;
}

/* ---- types ---------------------------------------------------------------------- */

static Attr *parse_attr(Parser *P);
static Type *parse_type(Parser *P);

static bool tok_is(Token t, const char *s) {
    return (int)strlen(s) == t.len && memcmp(t.start, s, (size_t)t.len) == 0;
}

/* The builtin scalar type a bare identifier names, or NULL. */
static Type *builtin_type(Parser *P, Token t) {
    Context *c = P->ctx;
    if (t.kind != TK_BARE) return NULL;
    static const struct {
        const char *name;
        FloatKind k;
    } floats[] = {{"f16", FK_F16},     {"bf16", FK_BF16},         {"f32", FK_F32},
                  {"f64", FK_F64},     {"f8E4M3FN", FK_F8E4M3},   {"f8E5M2", FK_F8E5M2}};
    /* every name but the integers starts with one of these letters */
    char c0 = t.start[0];
    if (c0 == 'f' || c0 == 'b') {
        for (int i = 0; i < TC_ARRAY_LEN(floats); i++)
            if (tok_is(t, floats[i].name)) return ty_float(c, floats[i].k);
        return NULL;
    }
    if (c0 == 'n') return tok_is(t, "none") ? ty_none(c) : NULL;
    if (c0 == 'i' && tok_is(t, "index")) return ty_index(c);
    IntSign sign = SIGNLESS;
    int skip = 1;
    if (t.len > 2 && t.start[0] == 's' && t.start[1] == 'i') sign = SIGNED, skip = 2;
    else if (t.len > 2 && t.start[0] == 'u' && t.start[1] == 'i') sign = UNSIGNED, skip = 2;
    else if (t.start[0] != 'i') return NULL;
    if (t.len <= skip || t.len > skip + 8) return NULL;
    int w = 0;
    for (int i = skip; i < t.len; i++) {
        if (t.start[i] < '0' || t.start[i] > '9') return NULL;
        w = w * 10 + (t.start[i] - '0');
    }
    if (w < 1 || w > 64) error_at(P, t, "integer bitwidth %d is not supported (1 to 64)", w);
    return ty_int_signed(c, w, sign);
}

static bool at_type_start(Parser *P) {
    Token t = P->tok;
    if (t.kind == TK_BANG || t.kind == TK_LPAREN) return true;
    if (t.kind != TK_BARE) return false;
    return tok_is(t, "tensor") || builtin_type(P, t) != NULL;
}

/* type-list-parens ::= `(` (type (`,` type)*)? `)`; pushes on P->types. */
static int parse_type_list_parens(Parser *P) {
    int n = 0;
    expect(P, TK_LPAREN, "'('");
    if (accept(P, TK_RPAREN)) return 0;
    do {
        vec_push(&P->types, parse_type(P));
        n++;
    } while (accept(P, TK_COMMA));
    expect(P, TK_RPAREN, "')'");
    return n;
}

/* function-result-types ::= type-list-parens | non-function-type */
static int parse_result_types(Parser *P) {
    if (at(P, TK_LPAREN)) return parse_type_list_parens(P);
    vec_push(&P->types, parse_type(P));
    return 1;
}

static Type *make_func_type(Parser *P, int mark, int nin, int nres) {
    Type **in = P->types.data + mark;
    return ty_func(P->ctx, in, nin, in + nin, nres);
}

/* function-type ::= type-list-parens `->` function-result-types */
static Type *parse_function_type(Parser *P) {
    int mark = P->types.len;
    int nin = parse_type_list_parens(P);
    expect(P, TK_ARROW, "'->' in function type");
    int nres = parse_result_types(P);
    Type *t = make_func_type(P, mark, nin, nres);
    P->types.len = mark;
    return t;
}

/*
 * tensor-type ::= `tensor` `<` (`*` `x` | (dim `x`)*) type (`,` attribute)? `>`
 * dim         ::= integer | `?`
 *
 * `4x8xf32` lexes as `4` then `x8xf32`, so the dimensions are read off the
 * characters and the lexer is rewound to the element type.
 */
/* After a `?` or `*` dimension: the lexer read `x...` as one bare token;
 * step over the `x` and lex again from the element type or next dim. */
static void skip_dim_x(Parser *P) {
    next(P);
    if (P->tok.kind != TK_BARE || P->tok.start[0] != 'x')
        error_at(P, P->tok, "expected 'x' after tensor dimension");
    lex_rewind(&P->lex, P->tok.start + 1);
    next(P);
}

static Type *parse_tensor_type(Parser *P) {
    next(P); /* tensor */
    expect(P, TK_LESS, "'<' after 'tensor'");
    int64_t shape[IR_MAX_RANK];
    int rank = 0;
    int64_t numel = 1;
    if (at(P, TK_STAR)) { /* unranked: tensor<*xf32> (nn dialect) */
        skip_dim_x(P);
        rank = -1;
    }
    while (rank >= 0 && (at(P, TK_INT) || at(P, TK_QUESTION))) {
        if (at(P, TK_QUESTION)) { /* dynamic: tensor<?x4xf32> (nn dialect) */
            if (rank == IR_MAX_RANK) error_at(P, P->tok, "tensor rank exceeds %d", IR_MAX_RANK);
            shape[rank++] = -1;
            skip_dim_x(P);
            continue;
        }
        const char *p = P->tok.start, *end = P->lex.end;
        Token dtok = P->tok;
        int64_t d = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            d = d * 10 + (*p - '0');
            if (d > IR_MAX_NUMEL) error_at(P, dtok, "tensor dimension too large");
            p++;
        }
        dtok.len = (int)(p - dtok.start);
        if (p >= end || *p != 'x') error_at(P, dtok, "expected 'x' after tensor dimension");
        if (d <= 0) error_at(P, dtok, "tensor dimensions must be positive, got %lld", (long long)d);
        if (rank == IR_MAX_RANK) error_at(P, dtok, "tensor rank exceeds %d", IR_MAX_RANK);
        numel *= d;
        if (numel > IR_MAX_NUMEL) error_at(P, dtok, "tensor has too many elements");
        shape[rank++] = d;
        lex_rewind(&P->lex, p + 1);
        next(P);
    }
    if (at(P, TK_MINUS)) error_at(P, P->tok, "tensor dimensions must be positive");
    Type *elem = parse_type(P);
    if (elem->kind == TY_TENSOR || elem->kind == TY_FUNC || elem->kind == TY_NONE)
        error_at(P, P->tok, "invalid tensor element type");
    Attr *enc = NULL;
    if (accept(P, TK_COMMA)) enc = parse_attr(P);
    expect(P, TK_GREATER, "'>' to end tensor type");
    return ty_tensor(P->ctx, shape, rank, elem, enc);
}

static Type *parse_type_uncached(Parser *P);

/*
 * The same tensor and pointer types are written on most lines
 * (`: tensor<128xf32>`), and building one from its tokens (dimensions,
 * element type, uniquing) costs far more than recognising its text. So
 * the text of each such type parsed, from its first token through the
 * `>` that closes it, is remembered with the Type it gave: the same text
 * later is the same type. Types depend on nothing but their text (an
 * alias they use is defined once, before any use that parses), and only
 * types that parsed without error are remembered. Text on more than one
 * line, with strings or comments, or long enough to matter for the
 * nesting limit goes the ordinary way.
 */
static Type *parse_type_memo(Parser *P) {
    const char *s = P->tok.start, *p = s + P->tok.len, *end = P->lex.end;
    if (p >= end || *p != '<') return parse_type_uncached(P);
    int depth = 0;
    for (; p < end && p - s < 200; p++) {
        char c = *p;
        if (c == '<') depth++;
        else if (c == '>' && --depth == 0) break;
        else if (c == '\n' || c == '"' || c == '/') break;
    }
    if (p >= end || *p != '>' || depth != 0 || P->nesting + (p - s) >= IR_MAX_NESTING)
        return parse_type_uncached(P);
    int len = (int)(p + 1 - s);
    TypeMemo *m = &P->type_memo[hash_bytes(s, (size_t)len, 0) % TYPE_MEMO];
    if (m->len == len && memcmp(m->text, s, (size_t)len) == 0) {
        lex_rewind(&P->lex, s + len);
        next(P);
        return m->type;
    }
    Type *t = parse_type_uncached(P);
    if (P->prev_end == s + len) *m = (TypeMemo){s, len, t};
    return t;
}

/*
 * type ::= builtin-scalar | tensor-type | function-type
 *        | `!tt.ptr` `<` type (`,` integer)? `>` | `!` alias
 */
static Type *parse_type(Parser *P) {
    Token t = P->tok;
    if ((t.kind == TK_BARE && tok_is(t, "tensor")) || (t.kind == TK_BANG && tok_is(t, "!tt.ptr")))
        return parse_type_memo(P);
    return parse_type_uncached(P);
}

static Type *parse_type_uncached(Parser *P) {
    enter(P);
    Token t = P->tok;
    Type *ty = NULL;
    if (t.kind == TK_BARE && tok_is(t, "tensor")) {
        ty = parse_tensor_type(P);
    } else if (t.kind == TK_BARE && (ty = builtin_type(P, t))) {
        next(P);
    } else if (t.kind == TK_LPAREN) {
        ty = parse_function_type(P);
    } else if (t.kind == TK_BANG && tok_is(t, "!tt.ptr")) {
        next(P);
        expect(P, TK_LESS, "'<' after '!tt.ptr'");
        Type *pointee = parse_type(P);
        if (pointee->kind == TY_FUNC || pointee->kind == TY_NONE)
            error_at(P, t, "invalid pointee type");
        int as = 1;
        if (accept(P, TK_COMMA)) as = (int)small_int(P, expect(P, TK_INT, "address space"), 1 << 20, "address space");
        expect(P, TK_GREATER, "'>' to end pointer type");
        ty = ty_ptr(P->ctx, pointee, as);
    } else if (t.kind == TK_BANG) {
        ty = map_get(&P->type_aliases, MAP_KEY(intern_tok(P, t, 0)));
        if (!ty) error_at(P, t, "unknown type %s", tok_desc(P, t));
        next(P);
    } else {
        error_at(P, t, "expected type, found %s", tok_desc(P, t));
    }
    leave(P);
    return ty;
}

/* A pointer type in Triton's short form `<tensor<8xf16>>` (the
 * `!tt.ptr` elided, as its custom forms print it) or written in full. */
static Type *parse_ptr_type_short(Parser *P) {
    if (!accept(P, TK_LESS)) return parse_type(P);
    Token t = P->tok;
    Type *pointee = parse_type(P);
    if (pointee->kind == TY_FUNC || pointee->kind == TY_NONE) error_at(P, t, "invalid pointee type");
    int as = 1;
    if (accept(P, TK_COMMA)) as = (int)small_int(P, expect(P, TK_INT, "address space"), 1 << 20, "address space");
    expect(P, TK_GREATER, "'>' to end pointer type");
    return ty_ptr(P->ctx, pointee, as);
}

/* `: type` */
static Type *parse_colon_type(Parser *P) {
    expect(P, TK_COLON, "':'");
    return parse_type(P);
}

/* ---- attributes ----------------------------------------------------------------- */

/* The text of a dialect attribute `#d.name<...>` or `overflow<...>`: from
 * `start` through the `>` that balances the first `<`. */
static const char *balanced_text(Parser *P, Token start_tok) {
    const char *p = P->lex.p, *end = P->lex.end;
    /* the current token is '<'; the lexer is just past it. Brackets must
     * pair up by kind, so the text reads back the same way. */
    char open[IR_MAX_NESTING + 1];
    int depth = 0;
    open[depth++] = '<';
    while (p < end && depth > 0) {
        char c = *p;
        if (c == '"') {
            for (p++; p < end && *p != '"' && *p != '\n'; p++)
                if (*p == '\\') p++;
            if (p >= end || *p != '"') error_at(P, start_tok, "unterminated string in attribute");
        } else if (c == '-' && p + 1 < end && p[1] == '>') {
            p++;
        } else if (c == '<' || c == '(' || c == '[' || c == '{') {
            if (depth > IR_MAX_NESTING) error_at(P, start_tok, "nesting too deep");
            open[depth++] = c;
        } else if (c == '>' || c == ')' || c == ']' || c == '}') {
            char want = open[depth - 1] == '<' ? '>' : open[depth - 1] == '(' ? ')' : open[depth - 1] == '[' ? ']' : '}';
            if (c != want) error_at(P, start_tok, "mismatched '%c' in attribute (expected '%c')", c, want);
            depth--;
        } else if (c == '\n' || c == 0) {
            error_at(P, start_tok, "unterminated '<' in attribute");
        }
        p++;
    }
    if (depth) error_at(P, start_tok, "unterminated '<' in attribute");
    const char *s = intern_n(&P->ctx->strings, start_tok.start, (size_t)(p - start_tok.start));
    lex_rewind(&P->lex, p);
    next(P);
    return s;
}

/* A dialect attribute's text with the attribute aliases it refers to
 * (`#ttg.slice<{dim = 1, parent = #blocked}>`) replaced by their text, so
 * that it is the same attribute as when written in full (the printer
 * writes layouts through aliases). `#name<` is an attribute of its own,
 * and an undefined name is left as it is. */
static bool alias_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.' || c == '-';
}

static const char *expand_aliases(Parser *P, const char *s) {
    if (!strchr(s + 1, '#')) return s;
    StrBuf sb = {0};
    size_t done = 0;
    bool changed = false;
    for (size_t i = 1; s[i]; i++) {
        if (s[i] == '"') {
            for (i++; s[i] && s[i] != '"'; i++)
                if (s[i] == '\\' && s[i + 1]) i++;
            if (!s[i]) break;
            continue;
        }
        if (s[i] != '#') continue;
        size_t e = i + 1;
        while (alias_char(s[e])) e++;
        if (e == i + 1 || s[e] == '<') continue;
        Attr *a = map_get(&P->attr_aliases, MAP_KEY(intern_n(&P->ctx->strings, s + i, e - i)));
        if (!a) continue;
        sb_putn(&sb, s + done, i - done);
        attr_print(a, &sb);
        done = e;
        i = e - 1;
        changed = true;
    }
    if (!changed) return s;
    sb_puts(&sb, s + done);
    const char *r = intern_n(&P->ctx->strings, sb.data, sb.len);
    sb_free(&sb);
    return r;
}

/* dense-literal ::= `[` (dense-literal (`,` dense-literal)*)? `]` | scalar
 * Collects elements on P->dense; returns the nesting depth seen. */
static int parse_dense_elems(Parser *P, int depth) {
    enter(P);
    int d = depth;
    if (accept(P, TK_LSQUARE)) {
        if (!at(P, TK_RSQUARE)) {
            do {
                int sub = parse_dense_elems(P, depth + 1);
                if (sub > d) d = sub;
            } while (accept(P, TK_COMMA));
        } else {
            d = depth + 1;
        }
        expect(P, TK_RSQUARE, "']' in dense literal");
        leave(P);
        return d;
    }
    DenseLit l = {0};
    l.tok = P->tok;
    l.neg = accept(P, TK_MINUS);
    Token t = P->tok;
    if (t.kind == TK_INT) {
        l.kind = t.len > 2 && t.start[1] == 'x' ? DL_HEX : DL_INT;
        l.u = int_value(P, t);
    } else if (t.kind == TK_FLOAT) {
        l.kind = DL_FLOAT;
        l.f = float_value(P, t);
    } else if (!l.neg && (tok_is(t, "true") || tok_is(t, "false"))) {
        l.kind = DL_BOOL;
        l.u = tok_is(t, "true");
    } else {
        error_at(P, t, "expected dense element literal, found %s", tok_desc(P, t));
    }
    next(P);
    vec_push(&P->dense, l);
    leave(P);
    return depth;
}

/* dense-attr ::= `dense` `<` dense-literal `>` `:` tensor-type */
static Attr *parse_dense(Parser *P) {
    Token kw = P->tok;
    next(P);
    expect(P, TK_LESS, "'<' after 'dense'");
    int mark = P->dense.len;
    if (at(P, TK_STRING)) error_at(P, P->tok, "hex dense literals are not supported");
    int depth = at(P, TK_GREATER) ? 1 : parse_dense_elems(P, 0);
    expect(P, TK_GREATER, "'>' to end dense literal");
    Token tt = P->tok;
    Type *t = parse_colon_type(P);
    if (t->kind != TY_TENSOR) error_at(P, tt, "dense attribute requires a tensor type");
    Type *e = t->elem;
    int64_t n = P->dense.len - mark, numel = ty_numel(t);
    if (!(n == 1 && depth == 0) && (n != numel || depth != t->rank))
        error_at(P, kw, "dense literal has %lld element%s in %d dimension%s, type has %lld in %d",
                 (long long)n, n == 1 ? "" : "s", depth, depth == 1 ? "" : "s", (long long)numel, t->rank);
    Attr *a;
    if (e->kind == TY_FLOAT) {
        double *v = ARENA_ARRAY(P->scratch, double, n ? n : 1);
        for (int64_t i = 0; i < n; i++) {
            DenseLit *l = &P->dense.data[mark + i];
            if (l->kind == DL_BOOL) error_at(P, l->tok, "expected float literal");
            double x = l->kind == DL_FLOAT ? l->f : l->kind == DL_HEX ? float_from_bits(l->u, e->fkind) : (double)l->u;
            v[i] = l->neg ? -x : x;
        }
        a = attr_dense_float(P->ctx, t, v, n);
    } else if (e->kind == TY_INT || e->kind == TY_INDEX) {
        int64_t *v = ARENA_ARRAY(P->scratch, int64_t, n ? n : 1);
        int w = e->kind == TY_INDEX ? 64 : e->width;
        for (int64_t i = 0; i < n; i++) {
            DenseLit *l = &P->dense.data[mark + i];
            if (l->kind == DL_FLOAT) error_at(P, l->tok, "expected integer literal");
            if (l->kind == DL_BOOL && w != 1) error_at(P, l->tok, "expected integer literal");
            if (!int_fits(l->neg, l->u, w)) error_at(P, l->tok, "integer literal out of range for '%s'", w == 64 ? "i64" : "element type");
            v[i] = int_signed(l->neg, l->u);
        }
        a = attr_dense_int(P->ctx, t, v, n);
    } else {
        error_at(P, tt, "dense attribute requires an integer or float element type");
    }
    P->dense.len = mark;
    return a;
}

/* dense-array ::= `array` `<` int-type (`:` integer (`,` integer)*)? `>` */
static Attr *parse_dense_array(Parser *P) {
    next(P);
    expect(P, TK_LESS, "'<' after 'array'");
    Token tt = P->tok;
    Type *e = parse_type(P);
    if (e->kind != TY_INT) error_at(P, tt, "array<...> requires an integer element type");
    int mark = P->ints.len;
    if (accept(P, TK_COLON)) {
        do {
            Token s = P->tok;
            bool neg = accept(P, TK_MINUS);
            Token t = expect(P, TK_INT, "integer");
            uint64_t u = int_value(P, t);
            if (!int_fits(neg, u, e->width)) error_at(P, s, "integer literal out of range");
            vec_push(&P->ints, e->width == 1 ? (int64_t)(u & 1) : int_wrap(int_signed(neg, u), e->width));
        } while (accept(P, TK_COMMA));
    }
    expect(P, TK_GREATER, "'>' to end array");
    Attr *a = attr_dense_array(P->ctx, e, P->ints.data + mark, P->ints.len - mark);
    P->ints.len = mark;
    return a;
}

/* number-attr ::= `-`? (integer | float) (`:` type)? */
static Attr *parse_number_attr(Parser *P) {
    Token s = P->tok;
    bool neg = accept(P, TK_MINUS);
    Token t = P->tok;
    bool is_float = t.kind == TK_FLOAT;
    if (t.kind != TK_INT && !is_float) error_at(P, t, "expected number, found %s", tok_desc(P, t));
    uint64_t u = is_float ? 0 : int_value(P, t);
    double f = is_float ? float_value(P, t) : 0;
    next(P);
    Type *ty = NULL;
    Token tt = P->tok;
    if (accept(P, TK_COLON)) ty = parse_type(P);
    if (!ty) ty = is_float ? ty_float(P->ctx, FK_F64) : ty_i64(P->ctx);
    if (ty->kind == TY_FLOAT) {
        bool hex = !is_float && t.len > 2 && t.start[1] == 'x';
        double v = is_float ? f : hex ? float_from_bits(u, ty->fkind) : (double)u;
        return attr_float(P->ctx, ty, neg ? -v : v);
    }
    if (is_float) error_at(P, tt, "float literal requires a float type");
    if (ty->kind != TY_INT && ty->kind != TY_INDEX) error_at(P, tt, "integer literal requires an integer type");
    int w = ty->kind == TY_INDEX ? 64 : ty->width;
    if (!int_fits(neg, u, w)) error_at(P, s, "integer constant out of range for type");
    if (w == 1 && neg) error_at(P, s, "integer constant out of range for type");
    return attr_int(P->ctx, ty, int_signed(neg, u));
}

/* attr-dict ::= `{` (attr-entry (`,` attr-entry)*)? `}`
 * attr-entry ::= (bare-id | string) (`=` attribute)?
 * Pushes entries on P->named; returns how many. Duplicate names are errors. */
static int parse_dict_entries(Parser *P) {
    int mark = P->named.len;
    expect(P, TK_LBRACE, "'{'");
    if (!at(P, TK_RBRACE)) {
        do {
            Token nt = P->tok;
            const char *name;
            if (nt.kind == TK_BARE) name = intern_tok(P, nt, 0);
            else if (nt.kind == TK_STRING) name = string_value(P, nt);
            else error_at(P, nt, "expected attribute name, found %s", tok_desc(P, nt));
            next(P);
            for (int i = mark; i < P->named.len; i++)
                if (P->named.data[i].name == name) error_at(P, nt, "duplicate key '%s' in dictionary attribute", name);
            Attr *a = accept(P, TK_EQUAL) ? parse_attr(P) : attr_unit(P->ctx);
            vec_push(&P->named, ((NamedAttr){name, a}));
        } while (accept(P, TK_COMMA));
    }
    expect(P, TK_RBRACE, "'}' to end attribute dictionary");
    return P->named.len - mark;
}

static Attr *parse_dict_attr(Parser *P) {
    int mark = P->named.len;
    int n = parse_dict_entries(P);
    Attr *a = attr_dict(P->ctx, P->named.data + mark, n);
    P->named.len = mark;
    return a;
}

/*
 * attribute ::= `unit` | `true` | `false` | number-attr | string | symbol
 *             | `[` (attribute (`,` attribute)*)? `]` | attr-dict
 *             | dense-attr | dense-array | type | `#` alias | `#` dialect `<` ... `>`
 */
static Attr *parse_attr(Parser *P) {
    enter(P);
    Context *c = P->ctx;
    Token t = P->tok;
    Attr *a = NULL;
    switch (t.kind) {
    case TK_INT:
    case TK_FLOAT:
    case TK_MINUS: a = parse_number_attr(P); break;
    case TK_STRING:
        a = attr_string(c, string_value(P, t));
        next(P);
        break;
    case TK_AT:
        a = attr_symref(c, t.start[1] == '"' ? string_value(P, (Token){TK_STRING, t.start + 1, t.len - 1, t.line, t.col})
                                             : intern_tok(P, t, 1));
        next(P);
        break;
    case TK_LSQUARE: {
        next(P);
        int mark = P->attrs.len;
        if (!at(P, TK_RSQUARE))
            do vec_push(&P->attrs, parse_attr(P));
            while (accept(P, TK_COMMA));
        expect(P, TK_RSQUARE, "']' to end array attribute");
        a = attr_array(c, P->attrs.data + mark, P->attrs.len - mark);
        P->attrs.len = mark;
        break;
    }
    case TK_LBRACE: a = parse_dict_attr(P); break;
    case TK_HASH: {
        next(P);
        if (at(P, TK_LESS) && P->tok.start == t.start + t.len) {
            a = attr_opaque(c, expand_aliases(P, balanced_text(P, t)));
        } else {
            a = map_get(&P->attr_aliases, MAP_KEY(intern_tok(P, t, 0)));
            if (!a) error_at(P, t, "undefined attribute alias %s", tok_desc(P, t));
        }
        break;
    }
    case TK_BARE:
        if (tok_is(t, "true") || tok_is(t, "false")) {
            a = attr_bool(c, tok_is(t, "true"));
            next(P);
        } else if (tok_is(t, "unit")) {
            a = attr_unit(c);
            next(P);
        } else if (tok_is(t, "dense")) {
            a = parse_dense(P);
        } else if (tok_is(t, "array")) {
            a = parse_dense_array(P);
        } else if ((tok_is(t, "affine_map") || tok_is(t, "affine_set")) && peek(P).kind == TK_LESS) {
            next(P);
            a = attr_opaque(c, balanced_text(P, t));
        } else if (at_type_start(P)) {
            a = attr_type(c, parse_type(P));
        } else {
            error_at(P, t, "expected attribute value, found %s", tok_desc(P, t));
        }
        break;
    case TK_BANG:
    case TK_LPAREN: a = attr_type(c, parse_type(P)); break;
    default: error_at(P, t, "expected attribute value, found %s", tok_desc(P, t));
    }
    leave(P);
    return a;
}

/* An optional attr-dict, its entries left on P->named from the returned
 * mark; apply_attrs() moves them onto the op once it exists. */
static int push_attr_dict(Parser *P) {
    int mark = P->named.len;
    if (at(P, TK_LBRACE)) parse_dict_entries(P);
    return mark;
}

static void apply_attrs(Parser *P, Op *op, int mark) {
    for (int i = mark; i < P->named.len; i++) op_set_attr(P->ctx, op, P->named.data[i].name, P->named.data[i].attr);
    P->named.len = mark;
}

/* Parses an optional attr-dict into op's attributes. */
static void parse_op_attr_dict(Parser *P, Op *op) {
    if (!at(P, TK_LBRACE)) return;
    int mark = P->named.len;
    Token start = P->tok;
    int n = parse_dict_entries(P);
    for (int i = 0; i < n; i++) {
        NamedAttr *e = &P->named.data[mark + i];
        if (op_attr(op, e->name)) error_at(P, start, "attribute '%s' given twice", e->name);
        op_set_attr(P->ctx, op, e->name, e->attr);
    }
    P->named.len = mark;
}

/* ---- locations -------------------------------------------------------------------- */

static LocNode *new_loc(Parser *P, LocKind k) {
    LocNode *n = ARENA_NEW(P->scratch, LocNode);
    n->kind = k;
    return n;
}

/*
 * loc-inner ::= `unknown` | `#` alias
 *             | string `:` integer `:` integer (`to` integer? `:` integer)?
 *             | string (`(` loc-inner `)`)?
 *             | `callsite` `(` loc-inner `at` loc-inner `)`
 *             | `fused` (`<` attribute `>`)? `[` loc-inner (`,` loc-inner)* `]`
 */
static LocNode *parse_loc_inner(Parser *P) {
    enter(P);
    Token t = P->tok;
    LocNode *n;
    if (t.kind == TK_HASH) {
        n = new_loc(P, LN_REF);
        n->alias = intern_tok(P, t, 0);
        n->loc = tok_loc(P, t);
        n->span = t.len;
        next(P);
    } else if (t.kind == TK_STRING) {
        const char *s = string_value(P, t);
        next(P);
        if (accept(P, TK_COLON)) {
            n = new_loc(P, LN_FILE);
            n->loc.file = s;
            n->loc.line = (int)small_int(P, expect(P, TK_INT, "line number"), INT32_MAX, "line number");
            expect(P, TK_COLON, "':'");
            n->loc.col = (int)small_int(P, expect(P, TK_INT, "column number"), INT32_MAX, "column number");
            if (accept_bare(P, "to")) { /* a range: keep its start */
                if (at(P, TK_INT)) next(P);
                expect(P, TK_COLON, "':'");
                expect(P, TK_INT, "column number");
            }
        } else {
            n = new_loc(P, LN_NAME);
            if (accept(P, TK_LPAREN)) {
                n->kids = ARENA_ARRAY(P->scratch, LocNode *, 1);
                n->kids[0] = parse_loc_inner(P);
                n->nkids = 1;
                expect(P, TK_RPAREN, "')'");
            }
        }
    } else if (accept_bare(P, "unknown")) {
        n = new_loc(P, LN_UNKNOWN);
    } else if (accept_bare(P, "callsite")) {
        n = new_loc(P, LN_CALLSITE);
        n->kids = ARENA_ARRAY(P->scratch, LocNode *, 2);
        n->nkids = 2;
        expect(P, TK_LPAREN, "'('");
        n->kids[0] = parse_loc_inner(P);
        expect_bare(P, "at");
        n->kids[1] = parse_loc_inner(P);
        expect(P, TK_RPAREN, "')'");
    } else if (accept_bare(P, "fused")) {
        n = new_loc(P, LN_FUSED);
        if (accept(P, TK_LESS)) {
            parse_attr(P);
            expect(P, TK_GREATER, "'>'");
        }
        expect(P, TK_LSQUARE, "'['");
        int kmark = P->lockids.len;
        if (!at(P, TK_RSQUARE)) {
            do {
                LocNode *k = parse_loc_inner(P);
                vec_push(&P->lockids, k);
            } while (accept(P, TK_COMMA));
        }
        expect(P, TK_RSQUARE, "']'");
        n->nkids = P->lockids.len - kmark;
        n->kids = n->nkids ? arena_dup(P->scratch, P->lockids.data + kmark, sizeof(LocNode *) * (size_t)n->nkids) : NULL;
        P->lockids.len = kmark;
    } else {
        error_at(P, t, "expected location, found %s", tok_desc(P, t));
    }
    leave(P);
    return n;
}

/* location ::= `loc` `(` loc-inner `)` */
static LocNode *parse_location(Parser *P) {
    expect_bare(P, "loc");
    expect(P, TK_LPAREN, "'(' after 'loc'");
    LocNode *n = parse_loc_inner(P);
    expect(P, TK_RPAREN, "')' to end location");
    return n;
}

static bool at_location(Parser *P) { return at_bare(P, "loc") && peek(P).kind == TK_LPAREN; }

/* Sets *dst from an optional trailing location, now or once aliases are known. */
static void parse_opt_location(Parser *P, Loc *dst) {
    if (!at_location(P)) return;
    LocNode *n = parse_location(P);
    if (n->kind == LN_FILE) *dst = n->loc;
    else if (n->kind == LN_UNKNOWN) *dst = (Loc){0};
    else vec_push(&P->pending, ((PendingLoc){dst, n}));
}

static bool resolve_loc(Parser *P, LocNode *n, int depth, Loc *out) {
    if (depth > 1000) {
        if (P->de) diag_error(P->de, n->loc, "location aliases nest too deeply");
        longjmp(P->fail, 1);
    }
    switch (n->kind) {
    case LN_UNKNOWN: return false;
    case LN_FILE: *out = n->loc; return true;
    case LN_NAME: return n->nkids && resolve_loc(P, n->kids[0], depth + 1, out);
    case LN_CALLSITE:
    case LN_FUSED:
        for (int i = 0; i < n->nkids; i++)
            if (resolve_loc(P, n->kids[i], depth + 1, out)) return true;
        return false;
    case LN_REF: {
        LocNode *def = map_get(&P->loc_aliases, MAP_KEY(n->alias));
        if (!def) {
            if (P->de) diag_report(P->de, DIAG_ERROR, n->loc, n->span, "undefined location alias '%s'", n->alias);
            longjmp(P->fail, 1);
        }
        if (def->state == 1) {
            if (P->de) diag_report(P->de, DIAG_ERROR, n->loc, n->span, "location alias '%s' refers to itself", n->alias);
            longjmp(P->fail, 1);
        }
        if (def->state == 0) {
            def->state = 1;
            Loc l = {0};
            if (!resolve_loc(P, def->kids[0], depth + 1, &l)) l = (Loc){0};
            def->resolved = l;
            def->state = 2;
        }
        *out = def->resolved;
        return out->file != NULL;
    }
    }
    return false;
}

/* ---- ops --------------------------------------------------------------------------- */

static void parse_region(Parser *P, Region *r, int prearg_mark, int nprearg, bool isolated, bool need_entry);
static void parse_op(Parser *P, Block *b);

/* A detached op of `kind` at `loc` with operands from P->vals[mark..]. */
static Op *new_op(Parser *P, OpKind kind, Loc loc, int vmark, Type *const *res, int nres) {
    Op *op = op_create(P->ctx, kind, loc, P->vals.data + vmark, P->vals.len - vmark, res, nres,
                       op_info[kind].nregions);
    P->vals.len = vmark;
    return op;
}

/* One of `names` (n of them, or NULL-terminated when n < 0): its index. */
static int enum_keyword_n(Parser *P, const char *const *names, int n, const char *what) {
    Token t = P->tok;
    if (t.kind != TK_BARE) error_at(P, t, "expected %s, found %s", what, tok_desc(P, t));
    for (int i = 0; n < 0 ? names[i] != NULL : i < n; i++)
        if (tok_is(t, names[i])) {
            next(P);
            return i;
        }
    error_at(P, t, "unknown %s %s", what, tok_desc(P, t));
}

static int enum_keyword(Parser *P, const char *const *names, const char *what) {
    return enum_keyword_n(P, names, -1, what);
}

static void set_enum(Parser *P, Op *op, const char *attr, int v) {
    op_set_attr(P->ctx, op, attr, attr_i32(P->ctx, v));
}

/* `(` type-list `)` `->` result-types, checked against operands
 * P->vals[vmark..] (tokens in toks); pushes result types on P->types. */
static int parse_functional_type_for(Parser *P, int vmark, Token *toks, int *nres_out) {
    Token at_tok = P->tok;
    int tmark = P->types.len;
    int nin = parse_type_list_parens(P);
    int nops = P->vals.len - vmark;
    if (nin != nops)
        error_at(P, at_tok, "%d operand type%s given for %d operand%s", nin, nin == 1 ? "" : "s", nops,
                 nops == 1 ? "" : "s");
    for (int i = 0; i < nin; i++) check_type(P, toks[i], P->vals.data[vmark + i], P->types.data[tmark + i]);
    P->types.len = tmark;
    expect(P, TK_ARROW, "'->'");
    *nres_out = parse_result_types(P);
    return tmark;
}

/* Whether the tokens ahead are the result names of the next op
 * (`%a, %b:2 =`) rather than operands: terminators' operand lists are
 * optional, and the next line may start with a definition. */
static bool at_result_names(Parser *P) {
    if (!at(P, TK_PERCENT)) return false;
    Lexer save = P->lex;
    Token t = P->tok;
    bool yes = false;
    for (;;) {
        t = lex_next(&P->lex); /* after %name */
        if (t.kind == TK_COLON) {
            if (lex_next(&P->lex).kind != TK_INT) break;
            t = lex_next(&P->lex);
        }
        if (t.kind == TK_EQUAL) yes = true;
        if (t.kind != TK_COMMA || lex_next(&P->lex).kind != TK_PERCENT) break;
    }
    P->lex = save;
    return yes;
}

/* Implicit `scf.yield` for scf.for/scf.if bodies that end without one. */
static void ensure_yield(Parser *P, Region *r, Loc loc) {
    for (Block *b = r->first; b; b = b->next)
        if (!b->last || !op_has_flag(b->last, OPF_TERMINATOR))
            block_append(b, op_create(P->ctx, SCF_YIELD, loc, NULL, 0, NULL, 0, 0));
}


/*
 * The custom forms, one per format family or op; each mirrors print.c.
 * Returns the op, not yet placed in a block. `name` is the op-name token.
 */
static Op *parse_custom(Parser *P, OpKind kind, Token name, Loc loc) {
    Context *c = P->ctx;
    const OpInfo *in = &op_info[kind];
    int vmark = P->vals.len;
    int kmark = P->toks.len;
    Op *op = NULL;
    Type *t1, *t2;
    switch (in->format) {
    /* %r = op %a, %b (overflow<..>)? (fastmath<..>)? attr-dict : type */
    case FMT_SAME: {
        parse_uses(P, true);
        const char *flag_attr[2] = {NULL, NULL};
        const char *flag_text[2] = {NULL, NULL};
        for (int i = 0; i < 2; i++) {
            bool ov = at_bare(P, "overflow"), fm = at_bare(P, "fastmath");
            if (!ov && !fm) break;
            next(P);
            if (!at(P, TK_LESS)) error_at(P, P->tok, "expected '<'");
            const char *txt = balanced_text(P, P->tok); /* "<nsw>" */
            flag_attr[i] = ov ? "overflowFlags" : "fastmath";
            flag_text[i] = arena_printf(P->scratch, "#arith.%s%s", ov ? "overflow" : "fastmath", txt);
        }
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        for (int i = 0; i < 2; i++)
            if (flag_attr[i]) op_set_attr(c, op, flag_attr[i], attr_opaque(c, flag_text[i]));
        break;
    }
    /* %r = op %a attr-dict : T1 to T2  |  %r = op %a (kw)* attr-dict (, rounding = k)? : T1 -> T2 */
    case FMT_CAST:
    case FMT_CONVERT: {
        Token vt = P->tok;
        vec_push(&P->vals, parse_use(P));
        bool unit_kw[2] = {false, false};
        if (kind == TT_RESHAPE) {
            if (accept_bare(P, "allow_reorder")) unit_kw[0] = true;
            if (accept_bare(P, "efficient_layout")) unit_kw[1] = true;
        }
        int amark = push_attr_dict(P);
        int rounding = -1;
        if (kind == TT_FP_TO_FP && accept(P, TK_COMMA)) {
            expect_bare(P, "rounding");
            expect(P, TK_EQUAL, "'='");
            rounding = enum_keyword(P, tt_rounding_names, "rounding mode");
        }
        t1 = parse_colon_type(P);
        if (in->format == FMT_CAST) expect_bare(P, "to");
        else expect(P, TK_ARROW, "'->'");
        t2 = parse_type(P);
        check_type(P, vt, P->vals.data[vmark], t1);
        op = new_op(P, kind, loc, vmark, &t2, 1);
        apply_attrs(P, op, amark);
        if (unit_kw[0]) op_set_attr(c, op, "allow_reorder", attr_unit(c));
        if (unit_kw[1]) op_set_attr(c, op, "efficient_layout", attr_unit(c));
        if (rounding >= 0) set_enum(P, op, "rounding", rounding);
        break;
    }
    /* %r = arith.cmpi pred, %a, %b attr-dict : T */
    case FMT_CMP: {
        int pred = kind == ARITH_CMPI ? enum_keyword_n(P, cmpi_pred_names, CMPI_COUNT, "predicate")
                                      : enum_keyword_n(P, cmpf_pred_names, CMPF_COUNT, "predicate");
        expect(P, TK_COMMA, "','");
        vec_push(&P->vals, parse_use(P));
        expect(P, TK_COMMA, "','");
        vec_push(&P->vals, parse_use(P));
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        t2 = ty_with_elem(c, t1, ty_i1(c));
        op = new_op(P, kind, loc, vmark, &t2, 1);
        apply_attrs(P, op, amark);
        op_set_attr_k(c, op, AN_PREDICATE, attr_int(c, ty_i64(c), pred));
        break;
    }
    /* %r = arith.constant attr-dict attribute */
    case FMT_CONSTANT: {
        int amark = push_attr_dict(P);
        Token vt = P->tok;
        Attr *v = parse_attr(P);
        if (v->kind == ATTR_BOOL) v = attr_int(c, ty_i1(c), v->b);
        if (!v->type || (v->kind != ATTR_INT && v->kind != ATTR_FLOAT && v->kind != ATTR_DENSE))
            error_at(P, vt, "'arith.constant' expects an integer, float or dense value");
        t1 = v->type;
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        op_set_attr_k(c, op, AN_VALUE, v);
        break;
    }
    /* %r = arith.select %c, %a, %b attr-dict : (Tc ,)? T */
    case FMT_SELECT: {
        parse_uses(P, true);
        if (P->vals.len - vmark != 3) error_at(P, name, "'arith.select' expects 3 operands");
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        if (accept(P, TK_COMMA)) {
            check_type(P, P->toks.data[kmark + 0], P->vals.data[vmark], t1);
            t1 = parse_type(P);
        }
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        break;
    }
    default: break;
    }
    if (op) {
        P->toks.len = kmark;
        return op;
    }

    switch (kind) {
    /* module ::= `module` symbol? (`attributes` attr-dict)? region */
    case BUILTIN_MODULE: {
        op = op_create(c, kind, loc, NULL, 0, NULL, 0, 1);
        if (at(P, TK_AT)) {
            Token s = P->tok;
            op_set_attr_k(c, op, AN_SYM_NAME, attr_string(c, intern_tok(P, s, 1)));
            next(P);
        }
        if (accept_bare(P, "attributes")) parse_op_attr_dict(P, op);
        /* the module's block already exists; parse its body into it */
        parse_region(P, &op->regions[0], P->preargs.len, 0, true, true);
        break;
    }
    /*
     * func ::= `tt.func` visibility? symbol `(` args `)` (`->` results)?
     *          (`attributes` attr-dict)? region?
     * args ::= (%name `:` type attr-dict? location? | type attr-dict?) list
     * results ::= type | `(` (type attr-dict?) list `)`
     */
    case TT_FUNC: {
        Attr *vis = NULL;
        if (at(P, TK_BARE)) {
            vis = attr_string(c, intern_tok(P, P->tok, 0));
            next(P);
        }
        Token sym = expect(P, TK_AT, "function name");
        const char *fname = sym.start[1] == '"' ? string_value(P, (Token){TK_STRING, sym.start + 1, sym.len - 1, sym.line, sym.col})
                                                : intern_tok(P, sym, 1);
        int pmark = P->preargs.len, amark = P->attrs.len, tmark = P->types.len;
        bool named = at(P, TK_LPAREN) && peek(P).kind == TK_PERCENT, any_arg_attr = false;
        expect(P, TK_LPAREN, "'(' for function arguments");
        if (!at(P, TK_RPAREN)) {
            do {
                PreArg a = {0};
                if (named) {
                    a.tok = expect(P, TK_PERCENT, "argument name");
                    expect(P, TK_COLON, "':'");
                }
                a.type = parse_type(P);
                Attr *d = at(P, TK_LBRACE) ? parse_dict_attr(P) : attr_dict(c, NULL, 0);
                any_arg_attr |= d->dict.n > 0;
                vec_push(&P->attrs, d);
                if (named && at_location(P)) a.loc = parse_location(P);
                vec_push(&P->preargs, a);
                vec_push(&P->types, a.type);
            } while (accept(P, TK_COMMA));
        }
        expect(P, TK_RPAREN, "')' to end function arguments");
        int nin = P->preargs.len - pmark, nres = 0, ramark = P->attrs.len;
        bool any_res_attr = false;
        if (accept(P, TK_ARROW)) {
            if (accept(P, TK_LPAREN)) {
                if (!at(P, TK_RPAREN)) {
                    do {
                        vec_push(&P->types, parse_type(P));
                        Attr *d = at(P, TK_LBRACE) ? parse_dict_attr(P) : attr_dict(c, NULL, 0);
                        any_res_attr |= d->dict.n > 0;
                        vec_push(&P->attrs, d);
                        nres++;
                    } while (accept(P, TK_COMMA));
                }
                expect(P, TK_RPAREN, "')' to end function results");
            } else {
                vec_push(&P->types, parse_type(P));
                vec_push(&P->attrs, attr_dict(c, NULL, 0));
                nres = 1;
            }
        }
        Type *ft = make_func_type(P, tmark, nin, nres);
        op = op_create(c, kind, loc, NULL, 0, NULL, 0, 1);
        op_set_attr_k(c, op, AN_SYM_NAME, attr_string(c, fname));
        op_set_attr_k(c, op, AN_FUNCTION_TYPE, attr_type(c, ft));
        if (vis) op_set_attr_k(c, op, AN_SYM_VISIBILITY, vis);
        if (any_arg_attr) op_set_attr_k(c, op, AN_ARG_ATTRS, attr_array(c, P->attrs.data + amark, nin));
        if (any_res_attr) op_set_attr_k(c, op, AN_RES_ATTRS, attr_array(c, P->attrs.data + ramark, nres));
        P->attrs.len = amark;
        P->types.len = tmark;
        if (accept_bare(P, "attributes")) {
            Token at_tok = P->tok;
            int nmark = P->named.len;
            int n = parse_dict_entries(P);
            for (int i = 0; i < n; i++) {
                NamedAttr *e = &P->named.data[nmark + i];
                if (op_attr(op, e->name)) error_at(P, at_tok, "attribute '%s' given twice", e->name);
                op_set_attr(c, op, e->name, e->attr);
            }
            P->named.len = nmark;
        }
        if (at(P, TK_LBRACE)) {
            if (!named && nin) error_at(P, P->tok, "function body requires named arguments");
            parse_region(P, &op->regions[0], pmark, nin, true, true);
        }
        P->preargs.len = pmark;
        break;
    }
    /* tt.return / scf.yield ::= name attr-dict (operands `:` types)? */
    case TT_RETURN:
    case SCF_YIELD:
    /* tt.reduce.return ::= name operands attr-dict `:` types */
    case TT_REDUCE_RETURN:
    case TT_SCAN_RETURN:
    case TT_MAP_ELEMENTWISE_RETURN:
    /* scf.condition ::= name `(` %c `)` attr-dict (operands `:` types)? */
    case SCF_CONDITION: {
        int amark = P->named.len;
        int first = 0;
        if (kind == SCF_CONDITION) {
            expect(P, TK_LPAREN, "'('");
            vec_push(&P->vals, parse_use(P));
            expect(P, TK_RPAREN, "')'");
            first = 1;
        }
        bool ret_like = kind != TT_REDUCE_RETURN && kind != TT_SCAN_RETURN && kind != TT_MAP_ELEMENTWISE_RETURN;
        if (ret_like) push_attr_dict(P);
        if ((at(P, TK_PERCENT) && !at_result_names(P)) || !ret_like) {
            if (first) vec_push(&P->toks, name);
            parse_uses(P, true);
            if (!ret_like) push_attr_dict(P);
            expect(P, TK_COLON, "':'");
            int n = P->vals.len - vmark - first;
            for (int i = 0; i < n; i++) {
                if (i) expect(P, TK_COMMA, "','");
                Type *t = parse_type(P);
                check_type(P, P->toks.data[kmark + first + i], P->vals.data[vmark + first + i], t);
            }
        }
        op = new_op(P, kind, loc, vmark, NULL, 0);
        apply_attrs(P, op, amark);
        break;
    }
    /* tt.call ::= name symbol `(` operands? `)` attr-dict `:` function-type */
    case TT_CALL: {
        Token sym = expect(P, TK_AT, "callee");
        const char *callee = sym.start[1] == '"' ? string_value(P, (Token){TK_STRING, sym.start + 1, sym.len - 1, sym.line, sym.col})
                                                 : intern_tok(P, sym, 1);
        expect(P, TK_LPAREN, "'('");
        if (!at(P, TK_RPAREN)) parse_uses(P, true);
        expect(P, TK_RPAREN, "')'");
        int amark = push_attr_dict(P);
        expect(P, TK_COLON, "':'");
        int nres;
        int tmark = parse_functional_type_for(P, vmark, P->toks.data + kmark, &nres);
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, nres);
        P->types.len = tmark;
        apply_attrs(P, op, amark);
        op_set_attr_k(c, op, AN_CALLEE, attr_symref(c, callee));
        break;
    }
    /* tt.get_program_id ::= name axis attr-dict `:` type */
    case TT_GET_PROGRAM_ID:
    case TT_GET_NUM_PROGRAMS: {
        int axis = enum_keyword(P, tt_axis_names, "program dimension");
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        set_enum(P, op, "axis", axis);
        break;
    }
    /* tt.make_range / ub.poison ::= name attr-dict `:` type;  gpu.barrier ::= name attr-dict */
    case TT_MAKE_RANGE:
    case UB_POISON:
    case GPU_BARRIER: {
        int amark = push_attr_dict(P);
        if (kind != GPU_BARRIER) {
            t1 = parse_colon_type(P);
            op = new_op(P, kind, loc, vmark, &t1, 1);
        } else {
            op = new_op(P, kind, loc, vmark, NULL, 0);
        }
        apply_attrs(P, op, amark);
        break;
    }
    /* tt.join / tt.cat ::= name %a, %b attr-dict `:` T -> R;  tt.split ::= name %x ... (2 results) */
    case TT_JOIN:
    case TT_CAT:
    case TT_SPLIT: {
        parse_uses(P, true);
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        expect(P, TK_ARROW, "'->'");
        t2 = parse_type(P);
        for (int i = 0; i < P->vals.len - vmark; i++) check_type(P, P->toks.data[kmark + i], P->vals.data[vmark + i], t1);
        Type *rs[2] = {t2, t2};
        op = new_op(P, kind, loc, vmark, rs, kind == TT_SPLIT ? 2 : 1);
        apply_attrs(P, op, amark);
        break;
    }
    /* tt.gather ::= name %src `[` %idx `]` attr-dict `:` `(` S `,` I `)` `->` R */
    case TT_GATHER: {
        vec_push(&P->toks, P->tok);
        vec_push(&P->vals, parse_use(P));
        expect(P, TK_LSQUARE, "'['");
        vec_push(&P->toks, P->tok);
        vec_push(&P->vals, parse_use(P));
        expect(P, TK_RSQUARE, "']'");
        int amark = push_attr_dict(P);
        expect(P, TK_COLON, "':'");
        int nres;
        int tmark = parse_functional_type_for(P, vmark, P->toks.data + kmark, &nres);
        if (nres != 1) error_at(P, name, "'tt.gather' has one result");
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, nres);
        P->types.len = tmark;
        apply_attrs(P, op, amark);
        break;
    }
    /* tt.histogram ::= name %src (`,` %mask)? attr-dict `:` S `->` R (the mask is i1 of S's shape) */
    case TT_HISTOGRAM: {
        parse_uses(P, true);
        int n = P->vals.len - vmark;
        if (n < 1 || n > 2) error_at(P, name, "'tt.histogram' expects 1 or 2 operands, got %d", n);
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        expect(P, TK_ARROW, "'->'");
        t2 = parse_type(P);
        check_type(P, P->toks.data[kmark], P->vals.data[vmark], t1);
        if (n > 1) check_type(P, P->toks.data[kmark + 1], P->vals.data[vmark + 1], ty_with_elem(c, t1, ty_i1(c)));
        op = new_op(P, kind, loc, vmark, &t2, 1);
        apply_attrs(P, op, amark);
        break;
    }
    /* tt.addptr ::= name %p, %o attr-dict `:` R `,` To */
    case TT_ADDPTR: {
        parse_uses(P, true);
        if (P->vals.len - vmark != 2) error_at(P, name, "'tt.addptr' expects 2 operands");
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        expect(P, TK_COMMA, "','");
        t2 = parse_type(P);
        check_type(P, P->toks.data[kmark + 0], P->vals.data[vmark], t1);
        check_type(P, P->toks.data[kmark + 1], P->vals.data[vmark + 1], t2);
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        break;
    }
    /*
     * tt.make_tensor_ptr ::= name %base `,` `[` uses `]` `,` `[` uses `]` `,` `[` uses `]`
     *                        attr-dict `:` short-ptr-type
     * tt.advance ::= name %ptr `,` `[` uses `]` attr-dict `:` short-ptr-type
     */
    case TT_MAKE_TENSOR_PTR:
    case TT_ADVANCE: {
        Token pt = P->tok;
        vec_push(&P->vals, parse_use(P));
        int groups = kind == TT_ADVANCE ? 1 : 3, n0 = -1;
        for (int g = 0; g < groups; g++) {
            expect(P, TK_COMMA, "','");
            Token lt = expect(P, TK_LSQUARE, "'['");
            int n = at(P, TK_RSQUARE) ? 0 : parse_uses(P, false);
            expect(P, TK_RSQUARE, "']'");
            if (n0 >= 0 && n != n0) error_at(P, lt, "expected %d operands in this list, like the first, got %d", n0, n);
            n0 = n;
        }
        int amark = push_attr_dict(P);
        expect(P, TK_COLON, "':'");
        t1 = parse_ptr_type_short(P);
        if (kind == TT_ADVANCE) check_type(P, pt, P->vals.data[vmark], t1);
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        break;
    }
    /*
     * tt.load ::= name %p (`,` %mask (`,` %other)?)? load-opts attr-dict `:` ptr-type
     * tt.store ::= name %p `,` %v (`,` %mask)? load-opts attr-dict `:` ptr-type
     * load-opts ::= (`cacheModifier` `=` kw | `evictionPolicy` `=` kw)*
     */
    case TT_LOAD:
    case TT_STORE: {
        parse_uses(P, true);
        int n = P->vals.len - vmark;
        if (n < in->nopmin || n > in->nopmax)
            error_at(P, name, "'%s' expects %d to %d operands, got %d", in->name, in->nopmin, in->nopmax, n);
        int cache = -1, evict = -1;
        for (;;) {
            if (accept_bare(P, "cacheModifier")) {
                expect(P, TK_EQUAL, "'='");
                cache = enum_keyword(P, tt_cache_names, "cache modifier");
            } else if (accept_bare(P, "evictionPolicy")) {
                expect(P, TK_EQUAL, "'='");
                evict = enum_keyword(P, tt_evict_names, "eviction policy");
            } else {
                break;
            }
        }
        int amark = push_attr_dict(P);
        Token tt = P->tok;
        t1 = parse_colon_type(P);
        check_type(P, P->toks.data[kmark + 0], P->vals.data[vmark], t1);
        Type *pointee = ir_pointee_type(c, t1);
        if (!pointee) error_at(P, tt, "'%s' expects a pointer or a tensor of pointers", in->name);
        Type *mask = ty_with_elem(c, t1, ty_i1(c));
        if (kind == TT_LOAD) {
            if (n > 1) check_type(P, P->toks.data[kmark + 1], P->vals.data[vmark + 1], mask);
            if (n > 2) check_type(P, P->toks.data[kmark + 2], P->vals.data[vmark + 2], pointee);
            op = new_op(P, kind, loc, vmark, &pointee, 1);
        } else {
            check_type(P, P->toks.data[kmark + 1], P->vals.data[vmark + 1], pointee);
            if (n > 2) check_type(P, P->toks.data[kmark + 2], P->vals.data[vmark + 2], mask);
            op = new_op(P, kind, loc, vmark, NULL, 0);
        }
        apply_attrs(P, op, amark);
        if (cache >= 0) set_enum(P, op, "cache", cache);
        if (evict >= 0) set_enum(P, op, "evict", evict);
        break;
    }
    /* tt.dot ::= name %a `,` %b `,` %c (`,` `inputPrecision` `=` kw)? attr-dict `:` Ta `*` Tb `->` Td */
    case TT_DOT: {
        for (int i = 0; i < 3; i++) {
            if (i) expect(P, TK_COMMA, "','");
            vec_push(&P->toks, P->tok);
            vec_push(&P->vals, parse_use(P));
        }
        int prec = -1;
        if (accept(P, TK_COMMA)) {
            expect_bare(P, "inputPrecision");
            expect(P, TK_EQUAL, "'='");
            prec = enum_keyword(P, tt_precision_names, "input precision");
        }
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        expect(P, TK_STAR, "'*'");
        t2 = parse_type(P);
        expect(P, TK_ARROW, "'->'");
        Type *t3 = parse_type(P);
        check_type(P, P->toks.data[kmark + 0], P->vals.data[vmark], t1);
        check_type(P, P->toks.data[kmark + 1], P->vals.data[vmark + 1], t2);
        check_type(P, P->toks.data[kmark + 2], P->vals.data[vmark + 2], t3);
        op = new_op(P, kind, loc, vmark, &t3, 1);
        apply_attrs(P, op, amark);
        if (prec >= 0) set_enum(P, op, "inputPrecision", prec);
        break;
    }
    /* tt.atomic_rmw ::= name rmw `,` sem `,` scope `,` operands attr-dict `:` function-type
     * tt.atomic_cas ::= name sem `,` scope `,` operands attr-dict `:` function-type */
    case TT_ATOMIC_RMW:
    case TT_ATOMIC_CAS: {
        int rmw = -1;
        if (kind == TT_ATOMIC_RMW) {
            rmw = enum_keyword(P, tt_rmw_names, "atomic operation");
            expect(P, TK_COMMA, "','");
        }
        int sem = enum_keyword(P, tt_sem_names, "memory semantic");
        expect(P, TK_COMMA, "','");
        int scope = enum_keyword(P, tt_scope_names, "memory scope");
        expect(P, TK_COMMA, "','");
        parse_uses(P, true);
        int amark = push_attr_dict(P);
        expect(P, TK_COLON, "':'");
        int nres;
        int tmark = parse_functional_type_for(P, vmark, P->toks.data + kmark, &nres);
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, nres);
        P->types.len = tmark;
        apply_attrs(P, op, amark);
        if (rmw >= 0) set_enum(P, op, "atomic_rmw_op", rmw);
        set_enum(P, op, "sem", sem);
        set_enum(P, op, "scope", scope);
        break;
    }
    /* tt.clampf ::= name %x `,` %min `,` %max `,` `propagateNan` `=` kw attr-dict `:` type */
    case TT_CLAMPF: {
        for (int i = 0; i < 3; i++) {
            vec_push(&P->vals, parse_use(P));
            expect(P, TK_COMMA, "','");
        }
        expect_bare(P, "propagateNan");
        expect(P, TK_EQUAL, "'='");
        int pn = enum_keyword(P, tt_propnan_names, "propagateNan value");
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        op = new_op(P, kind, loc, vmark, &t1, 1);
        apply_attrs(P, op, amark);
        set_enum(P, op, "propagateNan", pn);
        break;
    }
    /* tt.assert ::= name %cond `,` string attr-dict `:` type */
    case TT_ASSERT: {
        Token vt = P->tok;
        vec_push(&P->vals, parse_use(P));
        expect(P, TK_COMMA, "','");
        Token s = expect(P, TK_STRING, "message string");
        int amark = push_attr_dict(P);
        t1 = parse_colon_type(P);
        check_type(P, vt, P->vals.data[vmark], t1);
        op = new_op(P, kind, loc, vmark, NULL, 0);
        apply_attrs(P, op, amark);
        op_set_attr(c, op, "message", attr_string(c, string_value(P, s)));
        break;
    }
    /* tt.print ::= name string attr-dict (`:` operands `:` types)? */
    case TT_PRINT: {
        Token s = expect(P, TK_STRING, "prefix string");
        int amark = push_attr_dict(P);
        if (accept(P, TK_COLON)) {
            parse_uses(P, true);
            expect(P, TK_COLON, "':'");
            for (int i = 0; i < P->vals.len - vmark; i++) {
                if (i) expect(P, TK_COMMA, "','");
                check_type(P, P->toks.data[kmark + i], P->vals.data[vmark + i], parse_type(P));
            }
        }
        op = new_op(P, kind, loc, vmark, NULL, 0);
        apply_attrs(P, op, amark);
        op_set_attr(c, op, "prefix", attr_string(c, string_value(P, s)));
        break;
    }
    /* tt.extern_elementwise ::= name operands attr-dict `:` function-type */
    case TT_EXTERN_ELEMENTWISE: {
        parse_uses(P, true);
        int amark = push_attr_dict(P);
        expect(P, TK_COLON, "':'");
        int nres;
        int tmark = parse_functional_type_for(P, vmark, P->toks.data + kmark, &nres);
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, nres);
        P->types.len = tmark;
        apply_attrs(P, op, amark);
        break;
    }
    /*
     * scf.for ::= `scf.for` %iv `=` %lb `to` %ub `step` %step
     *             (`iter_args` `(` (%arg `=` %init) list `)` `->` `(` types `)`)?
     *             (`:` type)? region attr-dict
     */
    case SCF_FOR: {
        int pmark = P->preargs.len;
        PreArg iv = {0};
        iv.tok = expect(P, TK_PERCENT, "induction variable");
        expect(P, TK_EQUAL, "'='");
        Token bt[3];
        bt[0] = P->tok;
        vec_push(&P->vals, parse_use(P));
        expect_bare(P, "to");
        bt[1] = P->tok;
        vec_push(&P->vals, parse_use(P));
        expect_bare(P, "step");
        bt[2] = P->tok;
        vec_push(&P->vals, parse_use(P));
        vec_push(&P->preargs, iv);
        int niter = 0, tmark = P->types.len;
        if (accept_bare(P, "iter_args")) {
            expect(P, TK_LPAREN, "'('");
            do {
                PreArg a = {0};
                a.tok = expect(P, TK_PERCENT, "iter_arg name");
                expect(P, TK_EQUAL, "'='");
                vec_push(&P->toks, P->tok);
                vec_push(&P->vals, parse_use(P));
                vec_push(&P->preargs, a);
                niter++;
            } while (accept(P, TK_COMMA));
            expect(P, TK_RPAREN, "')'");
            expect(P, TK_ARROW, "'->'");
            Token rt = P->tok;
            int n = parse_type_list_parens(P);
            if (n != niter) error_at(P, rt, "%d result types given for %d iter_args", n, niter);
        }
        Type *ivt = accept(P, TK_COLON) ? parse_type(P) : ty_index(c);
        for (int i = 0; i < 3; i++) check_type(P, bt[i], P->vals.data[vmark + i], ivt);
        P->preargs.data[pmark].type = ivt;
        for (int i = 0; i < niter; i++) {
            Type *t = P->types.data[tmark + i];
            check_type(P, P->toks.data[kmark + i], P->vals.data[vmark + 3 + i], t);
            P->preargs.data[pmark + 1 + i].type = t;
        }
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, niter);
        P->types.len = tmark;
        parse_region(P, &op->regions[0], pmark, 1 + niter, false, true);
        P->preargs.len = pmark;
        if (niter == 0) ensure_yield(P, &op->regions[0], loc);
        parse_op_attr_dict(P, op);
        break;
    }
    /* scf.if ::= `scf.if` %cond (`->` `(` types `)`)? region (`else` region)? attr-dict */
    case SCF_IF: {
        vec_push(&P->vals, parse_use(P));
        int tmark = P->types.len, nres = 0;
        if (accept(P, TK_ARROW)) nres = parse_type_list_parens(P);
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, nres);
        P->types.len = tmark;
        parse_region(P, &op->regions[0], P->preargs.len, 0, false, true);
        if (nres == 0) ensure_yield(P, &op->regions[0], loc);
        if (accept_bare(P, "else")) {
            parse_region(P, &op->regions[1], P->preargs.len, 0, false, true);
            if (nres == 0) ensure_yield(P, &op->regions[1], loc);
        }
        parse_op_attr_dict(P, op);
        break;
    }
    /*
     * scf.while ::= `scf.while` (`(` (%arg `=` %init) list `)`)? `:` function-type
     *               region `do` region (`attributes` attr-dict)?
     */
    case SCF_WHILE: {
        int pmark = P->preargs.len, n = 0;
        if (accept(P, TK_LPAREN)) {
            do {
                PreArg a = {0};
                a.tok = expect(P, TK_PERCENT, "argument name");
                expect(P, TK_EQUAL, "'='");
                vec_push(&P->toks, P->tok);
                vec_push(&P->vals, parse_use(P));
                vec_push(&P->preargs, a);
                n++;
            } while (accept(P, TK_COMMA));
            expect(P, TK_RPAREN, "')'");
        }
        expect(P, TK_COLON, "':'");
        int nres;
        int tmark = parse_functional_type_for(P, vmark, P->toks.data + kmark, &nres);
        for (int i = 0; i < n; i++) P->preargs.data[pmark + i].type = P->vals.data[vmark + i]->type;
        op = new_op(P, kind, loc, vmark, P->types.data + tmark, nres);
        P->types.len = tmark;
        parse_region(P, &op->regions[0], pmark, n, false, true);
        P->preargs.len = pmark;
        expect_bare(P, "do");
        parse_region(P, &op->regions[1], pmark, 0, false, true);
        if (accept_bare(P, "attributes")) parse_op_attr_dict(P, op);
        break;
    }
    default:
        error_at(P, name, "'%s' has no custom form; write it in generic form (\"%s\"(...) ...)",
                 in->name, in->name);
    }
    P->toks.len = kmark;
    return op;
}

/*
 * generic-op ::= string `(` value-use-list? `)` (`<` attr-dict `>`)?
 *                (`(` region (`,` region)* `)`)? attr-dict? `:` function-type
 */
static Op *parse_generic(Parser *P, Token name_tok, Loc loc) {
    const char *name = string_value(P, name_tok);
    OpKind kind = op_kind_lookup(name);
    if (kind == OP_COUNT) error_at(P, name_tok, "unknown operation '%s'", name);
    next(P);
    int vmark = P->vals.len;
    int kmark = P->toks.len;
    expect(P, TK_LPAREN, "'(' for operands");
    if (!at(P, TK_RPAREN)) parse_uses(P, true);
    expect(P, TK_RPAREN, "')' to end operands");
    if (at(P, TK_LSQUARE)) error_at(P, P->tok, "successor blocks are not supported");
    int amark = P->named.len;
    if (accept(P, TK_LESS)) {
        if (!at(P, TK_LBRACE)) error_at(P, P->tok, "expected '{' for properties");
        parse_dict_entries(P);
        expect(P, TK_GREATER, "'>' to end properties");
    }
    int rmark = P->regions.len;
    if (at(P, TK_LPAREN) && peek(P).kind == TK_LBRACE) {
        next(P);
        do {
            /* parsed into a scratch Region, moved into the op below */
            Region r = {0};
            parse_region(P, &r, P->preargs.len, 0, op_info[kind].flags & OPF_ISOLATED, false);
            vec_push(&P->regions, r);
        } while (accept(P, TK_COMMA));
        expect(P, TK_RPAREN, "')' to end regions");
    }
    if (at(P, TK_LBRACE)) {
        int dmark = P->named.len;
        Token dt = P->tok;
        parse_dict_entries(P);
        for (int i = dmark; i < P->named.len; i++)
            for (int j = amark; j < dmark; j++)
                if (P->named.data[i].name == P->named.data[j].name)
                    error_at(P, dt, "attribute '%s' given twice", P->named.data[i].name);
    }
    expect(P, TK_COLON, "':' before the op's type");
    int nres;
    int tmark = parse_functional_type_for(P, vmark, P->toks.data + kmark, &nres);
    int nreg = P->regions.len - rmark;
    Op *op = op_create(P->ctx, kind, loc, P->vals.data + vmark, P->vals.len - vmark,
                       P->types.data + tmark, nres, nreg);
    P->vals.len = vmark;
    P->types.len = tmark;
    for (int i = 0; i < nreg; i++) {
        Region *dst = &op->regions[i], *src = &P->regions.data[rmark + i];
        dst->first = src->first;
        dst->last = src->last;
        for (Block *b = dst->first; b; b = b->next) b->parent = dst;
    }
    P->regions.len = rmark;
    apply_attrs(P, op, amark);
    /* MLIR's `true` is an i1 integer; the custom form reads it that way too */
    Attr *v = kind == ARITH_CONSTANT ? op_attr_k(op, AN_VALUE) : NULL;
    if (v && v->kind == ATTR_BOOL) op_set_attr_k(P->ctx, op, AN_VALUE, attr_int(P->ctx, ty_i1(P->ctx), v->b));
    P->toks.len = kmark;
    return op;
}

/* Drops result names that are exactly the ones the printer makes up
 * (c0_i32, cst, outLHS), so such names follow the IR rather than the old
 * text. Suffixed names (cst_3) stay: that keeps print(parse(print(m)))
 * stable. */
static void drop_generated_names(Op *op) {
    for (int i = 0; i < op->nresults; i++) {
        char buf[96];
        const char *a = op->results[i].name ? ir_auto_result_name(op, i, buf, sizeof buf) : NULL;
        if (a && strcmp(op->results[i].name, a) == 0) op->results[i].name = NULL;
    }
}

/*
 * op ::= (result (`,` result)* `=`)? (generic-op | custom-op) location?
 * result ::= `%` suffix-id (`:` integer)?
 */
static void parse_op(Parser *P, Block *b) {
    enter(P);
    Token first = P->tok;
    Loc loc = tok_loc(P, first);
    int rmark = P->results.len, nres = 0;
    if (at(P, TK_PERCENT)) {
        do {
            ResultName r = {P->tok, NULL, 1};
            next(P);
            if (accept(P, TK_COLON)) r.count = (int)small_int(P, expect(P, TK_INT, "result count"), 1 << 16, "result count");
            if (r.count < 1) error_at(P, r.tok, "result count must be positive");
            vec_push(&P->results, r);
            nres += r.count;
        } while (accept(P, TK_COMMA));
        expect(P, TK_EQUAL, "'=' after result names");
    }
    Token nt = P->tok;
    Op *op;
    if (nt.kind == TK_STRING) {
        op = parse_generic(P, nt, loc);
    } else if (nt.kind == TK_BARE) {
        OpKind kind = op_kind_lookup_n(nt.start, (size_t)nt.len);
        if (kind == OP_COUNT && tok_is(nt, "module")) kind = BUILTIN_MODULE;
        if (kind == OP_COUNT) error_at(P, nt, "unknown operation '%.*s'", nt.len < 79 ? nt.len : 79, nt.start);
        next(P);
        op = parse_custom(P, kind, nt, loc);
    } else {
        error_at(P, nt, "expected operation name, found %s", tok_desc(P, nt));
    }
    /* results may go unnamed (as in MLIR), but names must cover them all */
    if (P->results.len > rmark && nres != op->nresults)
        error_at(P, first, "operation defines %d result%s but was provided %d to bind", op->nresults,
                 op->nresults == 1 ? "" : "s", nres);
    parse_opt_location(P, &op->loc);
    block_append(b, op);
    int idx = 0;
    for (int i = rmark; i < P->results.len; i++) {
        ResultName *r = &P->results.data[i];
        bind(P, r->tok, &op->results[idx], r->count);
        idx += r->count;
    }
    P->results.len = rmark;
    drop_generated_names(op);
    leave(P);
}

/* block-label ::= `^` suffix-id (`(` (%name `:` type location?) list `)`)? `:` */
static Block *parse_block_label(Parser *P, Region *r) {
    expect(P, TK_CARET, "block label");
    Block *b = block_create(P->ctx);
    region_push_block(r, b);
    if (accept(P, TK_LPAREN)) {
        if (!at(P, TK_RPAREN)) {
            do {
                Token nt = expect(P, TK_PERCENT, "block argument name");
                expect(P, TK_COLON, "':'");
                Type *t = parse_type(P);
                Value *v = block_add_arg(P->ctx, b, t, tok_loc(P, nt));
                parse_opt_location(P, &v->loc);
                bind(P, nt, v, 1);
            } while (accept(P, TK_COMMA));
        }
        expect(P, TK_RPAREN, "')' to end block arguments");
    }
    expect(P, TK_COLON, "':' after block label");
    return b;
}

/*
 * region ::= `{` (ops | block-label ops) (block-label ops)* `}`
 *
 * The entry block's arguments are either given (preargs, named in the op's
 * custom form) or written in its label. An empty generic region `{}` has no
 * block; custom regions always get their entry block (need_entry).
 */
static void parse_region(Parser *P, Region *r, int pmark, int nprearg, bool isolated, bool need_entry) {
    enter(P);
    Token open = expect(P, TK_LBRACE, "'{' to begin region");
    int saved_floor, mark;
    push_scope(P, isolated, &saved_floor, &mark);
    Block *b = NULL;
    if (!at(P, TK_CARET) && (need_entry || nprearg || !at(P, TK_RBRACE))) {
        b = block_create(P->ctx);
        region_push_block(r, b);
        for (int i = 0; i < nprearg; i++) {
            PreArg *a = &P->preargs.data[pmark + i];
            Value *v = block_add_arg(P->ctx, b, a->type, tok_loc(P, a->tok));
            if (a->loc) {
                LocNode *n = a->loc;
                if (n->kind == LN_FILE) v->loc = n->loc;
                else if (n->kind == LN_UNKNOWN) v->loc = (Loc){0};
                else vec_push(&P->pending, ((PendingLoc){&v->loc, n}));
            }
            if (a->tok.kind == TK_PERCENT) bind(P, a->tok, v, 1);
        }
    } else if (at(P, TK_CARET) && nprearg) {
        error_at(P, P->tok, "invalid block name in region with named arguments");
    }
    for (;;) {
        if (at(P, TK_RBRACE)) break;
        if (at(P, TK_EOF)) error_at(P, open, "unterminated region: expected '}' before end of file");
        if (at(P, TK_CARET)) {
            b = parse_block_label(P, r);
            continue;
        }
        parse_op(P, b);
    }
    next(P);
    pop_scope(P, saved_floor, mark);
    leave(P);
}

/* ---- the whole text ------------------------------------------------------------------ */

/*
 * alias-def ::= `#` id `=` (location | attribute) | `!` id `=` type
 * text ::= (alias-def | op)*
 *
 * Top-level ops go into an implicit module; when the text is exactly one
 * `module`, that module is the result.
 */
static Op *parse_top(Parser *P) {
    Op *implicit = module_create(P->ctx, (Loc){P->file, 1, 1});
    next(P);
    while (!at(P, TK_EOF)) {
        Token t = P->tok;
        if ((t.kind == TK_HASH || t.kind == TK_BANG) && peek(P).kind == TK_EQUAL) {
            const char *name = intern_tok(P, t, 0);
            next(P);
            next(P);
            if (t.kind == TK_BANG) {
                if (map_get(&P->type_aliases, MAP_KEY(name))) error_at(P, t, "redefinition of type alias '%s'", name);
                map_put(&P->type_aliases, MAP_KEY(name), parse_type(P));
            } else if (at_location(P)) {
                if (map_get(&P->loc_aliases, MAP_KEY(name))) error_at(P, t, "redefinition of location alias '%s'", name);
                LocNode *def = new_loc(P, LN_NAME);
                def->kids = ARENA_ARRAY(P->scratch, LocNode *, 1);
                def->kids[0] = parse_location(P);
                def->nkids = 1;
                map_put(&P->loc_aliases, MAP_KEY(name), def);
            } else {
                if (map_get(&P->attr_aliases, MAP_KEY(name))) error_at(P, t, "redefinition of attribute alias '%s'", name);
                map_put(&P->attr_aliases, MAP_KEY(name), parse_attr(P));
            }
            continue;
        }
        parse_op(P, module_body(implicit));
    }
    Block *body = module_body(implicit);
    Op *result = implicit;
    if (body->first && body->first == body->last && body->first->kind == BUILTIN_MODULE) {
        result = body->first;
        op_unlink(result);
    }
    for (int i = 0; i < P->pending.len; i++) {
        Loc l = {0};
        if (!resolve_loc(P, P->pending.data[i].node, 0, &l)) l = (Loc){0};
        *P->pending.data[i].dst = l;
    }
    return result;
}

Op *ir_parse(Context *c, const char *filename, const char *src, size_t len) {
    Parser *P = tc_calloc(1, sizeof(Parser));
    P->ctx = c;
    P->de = c->diag;
    P->file = ctx_intern(c, filename ? filename : "<input>");
    P->scratch = arena_new();
    /* scratch stacks are never NULL, so `data + mark` is always defined */
    vec_reserve(&P->vals, 16);
    vec_reserve(&P->types, 16);
    vec_reserve(&P->attrs, 16);
    vec_reserve(&P->named, 16);
    vec_reserve(&P->preargs, 16);
    vec_reserve(&P->results, 16);
    vec_reserve(&P->dense, 16);
    vec_reserve(&P->ints, 16);
    vec_reserve(&P->regions, 4);
    vec_reserve(&P->toks, 16);
    vec_reserve(&P->lockids, 4);
    grow_names(P);
    lex_init(&P->lex, src, len);
    if (P->de) diag_add_source(P->de, P->file, src, len);
    Op *result = NULL;
    if (setjmp(P->fail) == 0) result = parse_top(P);
    tc_free(P->slots);
    map_free(&P->attr_aliases);
    map_free(&P->type_aliases);
    map_free(&P->loc_aliases);
    vec_free(&P->bound);
    vec_free(&P->pending);
    vec_free(&P->vals);
    vec_free(&P->types);
    vec_free(&P->attrs);
    vec_free(&P->named);
    vec_free(&P->preargs);
    vec_free(&P->results);
    vec_free(&P->dense);
    vec_free(&P->ints);
    vec_free(&P->regions);
    vec_free(&P->toks);
    vec_free(&P->lockids);
    arena_free(P->scratch);
    tc_free(P);
    return result;
}
