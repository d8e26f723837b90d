/*
 * tri_parse.c - recursive-descent parser for .tri programs.
 *
 * The token array from tri_lex is read with one token of lookahead (two to
 * tell a keyword argument `name=value` from an expression). Each parse
 * function carries its grammar rule; the whole grammar is in
 * docs/tri-language.md. Nodes are allocated in the program's arena and
 * carry the Loc of their first token.
 *
 * Errors: the first error in a statement is reported ("expected X, saw Y")
 * and the parser enters panic mode, which silences further errors until it
 * resynchronises at the end of the statement (a newline, ';' or the '}' of
 * the enclosing block; nested braces are skipped whole). So one typo gives
 * one diagnostic, and every statement gets a chance to report its own.
 * Nesting deeper than TRI_MAX_DEPTH is an error, not a stack overflow.
 */
#include "front/tri/tri.h"
#include "front/tri/tri_lex.h"

#include <stdio.h>
#include <string.h>

enum { TRI_MAX_DEPTH = 200 };

typedef struct Parser {
    Arena *arena;
    Interner *in;
    DiagEngine *de;
    const char *file;
    TriToken *toks;
    int ntoks, pos, depth;
    int nsyntax; /* syntax errors so far (including those the lexer reported) */
    bool panic;
    bool eof_reported; /* one "expected '}'" for all blocks open at the end */
} Parser;

/* ---- token helpers ------------------------------------------------------ */

/* A syntax error: silence the rest of the statement, and count it, so the
 * fn or layer it is in is marked incomplete. */
static void enter_panic(Parser *p) {
    p->panic = true;
    p->nsyntax++;
}

static TriToken *peek(Parser *p) { return &p->toks[p->pos]; }
static TriToken *peek2(Parser *p) { return &p->toks[p->pos + (p->pos + 1 < p->ntoks)]; }
static bool at(Parser *p, TriTokKind k) { return peek(p)->kind == k; }
static TriToken *advance(Parser *p) {
    TriToken *t = peek(p);
    if (t->kind != TK_EOF) p->pos++;
    return t;
}
static bool accept(Parser *p, TriTokKind k) {
    if (!at(p, k)) return false;
    advance(p);
    return true;
}
static int tok_span(const TriToken *t) { return t->len > 0 ? t->len : 1; }

static void describe(const TriToken *t, char *buf, size_t n) {
    switch (t->kind) {
    case TK_EOF:
    case TK_NEWLINE:
        snprintf(buf, n, "%s", tri_tok_kind_name(t->kind));
        break;
    default:
        snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->start);
    }
}

static void error_at(Parser *p, const TriToken *t, const char *fmt, const char *what) {
    if (p->panic) return;
    enter_panic(p);
    if (t->kind == TK_ERROR) return; /* the lexer said what is wrong there */
    char saw[64];
    describe(t, saw, sizeof saw);
    diag_report(p->de, DIAG_ERROR, t->loc, tok_span(t), fmt, what, saw);
}

/* "expected X, saw Y" at the current token. */
static void expected(Parser *p, const char *what) {
    error_at(p, peek(p), "expected %s, saw %s", what);
}

static TriToken *expect(Parser *p, TriTokKind k) {
    if (at(p, k)) return advance(p);
    expected(p, tri_tok_kind_name(k));
    return NULL;
}

static const char *tok_name(Parser *p, const TriToken *t) { return intern_n(p->in, t->start, (size_t)t->len); }

/* Skips to the end of the current statement: past a newline or ';', or up
 * to (not past) a '}' closing the enclosing block. Balanced braces inside
 * are skipped whole. */
static void sync_stmt(Parser *p) {
    int braces = 0;
    for (;;) {
        TriTokKind k = peek(p)->kind;
        if (k == TK_EOF) break;
        if (braces == 0 && (k == TK_NEWLINE || k == TK_SEMI)) {
            advance(p);
            break;
        }
        if (k == TK_RBRACE) {
            if (braces == 0) break;
            braces--;
        } else if (k == TK_LBRACE) {
            braces++;
        }
        advance(p);
    }
    p->panic = false;
}

static void skip_separators(Parser *p) {
    while (at(p, TK_NEWLINE) || at(p, TK_SEMI)) advance(p);
}

static bool at_stmt_end(Parser *p) {
    return at(p, TK_NEWLINE) || at(p, TK_SEMI) || at(p, TK_RBRACE) || at(p, TK_EOF);
}

/* Reports what follows a complete expression `e` where the statement
 * should end, in the terms of what the user probably meant: `x = ...`
 * (assignment), `x[i]` (indexing), `a b` (a missing operator). */
static void expected_stmt_end(Parser *p, const TriExpr *e) {
    if (p->panic || at_stmt_end(p)) return;
    TriToken *t = peek(p);
    if (t->kind == TK_ASSIGN && e && e->kind == TRI_EX_NAME) {
        enter_panic(p);
        diag_report(p->de, DIAG_ERROR, t->loc, 1,
                    "cannot assign to '%s': names are immutable; bind a new name with 'let'", e->u.name.name);
    } else if (t->kind == TK_LBRACKET && e) {
        enter_panic(p);
        diag_report(p->de, DIAG_ERROR, t->loc, 1,
                    "indexing with '[' is not supported; use reshape, transpose or flatten");
    } else if (t->kind == TK_LPAREN && e) {
        enter_panic(p);
        diag_report(p->de, DIAG_ERROR, t->loc, 1, "only a name can be called");
    } else {
        expected(p, "newline after statement");
    }
}

/* end = NEWLINE | ";" | (before) "}" | EOF */
static void end_stmt(Parser *p) {
    if (accept(p, TK_NEWLINE) || accept(p, TK_SEMI) || at(p, TK_RBRACE) || at(p, TK_EOF)) {
        if (p->panic) p->panic = false;
        return;
    }
    expected(p, "newline after statement");
    sync_stmt(p);
}

/* ---- node constructors ---------------------------------------------------- */

static TriExpr *new_expr(Parser *p, TriExprKind kind, const TriToken *t) {
    TriExpr *e = ARENA_NEW(p->arena, TriExpr);
    e->kind = kind;
    e->loc = t->loc;
    e->span = tok_span(t);
    e->dim.value = -1;
    return e;
}

/* The value of integer (or trit) literal t, negated when a minus stands
 * directly before it, or 0 after an error if it is too large. As in C, -9223372036854775808 is the minus of a
 * literal one past INT64_MAX, and gives INT64_MIN; that literal alone is
 * too large. (The negation is done in uint64: -INT64_MIN overflows.) */
static int64_t int_literal(Parser *p, const TriToken *t, bool negated) {
    if (t->too_large || (t->needs_minus && !negated)) {
        diag_report(p->de, DIAG_ERROR, t->loc, tok_span(t), "integer literal too large");
        return 0;
    }
    return negated ? (int64_t)(0 - (uint64_t)t->ival) : t->ival;
}

/* Stands for an expression that failed to parse (already reported): typed
 * as an error now, so the checker reports nothing more about it or about
 * what uses it ('let c = @' is one error, not also "operands of '@' must be
 * tensors, got int and int"). */
static TriExpr *error_expr(Parser *p, const TriToken *t) {
    TriExpr *e = new_expr(p, TRI_EX_INT, t);
    e->u.ival = 0;
    e->type = ARENA_NEW(p->arena, TriType);
    e->type->kind = TRI_T_ERROR;
    return e;
}

/* ---- types ----------------------------------------------------------------- */

static bool scalar_dtype(const TriToken *t, TriDType *out) {
    static const struct {
        const char *name;
        TriDType dt;
    } names[] = {{"trit", TRI_DT_TRIT},       {"int", TRI_DT_INT},         {"int4", TRI_DT_INT4},
                 {"int8", TRI_DT_INT8},       {"uint8", TRI_DT_UINT8},     {"int32", TRI_DT_INT32},
                 {"float16", TRI_DT_FLOAT16}, {"float32", TRI_DT_FLOAT32}};
    if (t->kind != TK_IDENT) return false;
    for (int i = 0; i < TC_ARRAY_LEN(names); i++)
        if ((size_t)t->len == strlen(names[i].name) && memcmp(t->start, names[i].name, (size_t)t->len) == 0) {
            *out = names[i].dt;
            return true;
        }
    return false;
}

static bool tok_is(const TriToken *t, const char *s) {
    return t->kind == TK_IDENT && (size_t)t->len == strlen(s) && memcmp(t->start, s, (size_t)t->len) == 0;
}

/* dims = [ "..." "," ] dim { "," dim } [","] | "..."
 * dim  = INT | IDENT | "?"
 * Parsed up to (not including) the closing token `close`. */
static void parse_dims(Parser *p, TriTokKind close, TriExpr ***out, int *n, bool *ellipsis) {
    VEC(TriExpr *) v = {0};
    *n = 0;
    *out = NULL;
    if (accept(p, TK_ELLIPSIS)) {
        *ellipsis = true;
        if (!accept(p, TK_COMMA)) return; /* "[...]" */
    }
    while (!at(p, close)) {
        TriToken *t = peek(p);
        if (t->kind == TK_INT) {
            TriExpr *e = new_expr(p, TRI_EX_INT, advance(p));
            e->u.ival = int_literal(p, t, false);
            /* too large (reported): unknown, not a dim of 0 that mismatches */
            vec_push(&v, t->too_large || t->needs_minus ? NULL : e);
        } else if (t->kind == TK_IDENT) {
            TriExpr *e = new_expr(p, TRI_EX_NAME, advance(p));
            e->u.name.name = tok_name(p, t);
            vec_push(&v, e);
        } else if (t->kind == TK_QUESTION) {
            advance(p);
            vec_push(&v, (TriExpr *)NULL);
        } else {
            expected(p, "a dimension (integer, name or '?')");
            break;
        }
        TriTokKind k = peek(p)->kind;
        if (!p->panic && (k == TK_PLUS || k == TK_MINUS || k == TK_STAR || k == TK_SLASH)) {
            enter_panic(p);
            diag_report(p->de, DIAG_ERROR, peek(p)->loc, 1,
                        "a dimension in a type is an integer, a name or '?', not an expression; "
                        "write '?' or a name for it");
            break;
        }
        if (!accept(p, TK_COMMA)) break;
    }
    *n = v.len;
    *out = v.len ? arena_dup(p->arena, v.data, sizeof(TriExpr *) * (size_t)v.len) : NULL;
    vec_free(&v);
}

/* scalar_dtype = "trit" | "int" | "int4" | "int8" | "uint8" | "int32" | "float16" | "float32" */
static bool parse_elem_dtype(Parser *p, TriDType *dt) {
    if (scalar_dtype(peek(p), dt)) {
        advance(p);
        return true;
    }
    expected(p, "an element type such as float32");
    return false;
}

/* type = scalar_dtype
 *      | "TernaryTensor" [ "[" dims "]" ]
 *      | "Tensor" "[" scalar_dtype [ "," "[" dims "]" ] "]"
 *      | "tensor" "<" scalar_dtype [ "," "[" dims "]" ] ">"
 *      | IDENT                                          -- a layer name */
static TriTypeExpr *parse_type(Parser *p) {
    TriToken *t = peek(p);
    TriTypeExpr *ty = ARENA_NEW(p->arena, TriTypeExpr);
    ty->loc = t->loc;
    ty->span = tok_span(t);
    if (t->kind != TK_IDENT) {
        expected(p, "a type");
        return NULL;
    }
    if (scalar_dtype(t, &ty->dtype)) {
        advance(p);
        ty->kind = TRI_TE_SCALAR;
        return ty;
    }
    if (tok_is(t, "TernaryTensor")) {
        advance(p);
        ty->kind = TRI_TE_TERNARY;
        ty->dtype = TRI_DT_TRIT;
        if (accept(p, TK_LBRACKET)) {
            ty->has_dims = true;
            parse_dims(p, TK_RBRACKET, &ty->dims, &ty->ndims, &ty->ellipsis);
            if (!expect(p, TK_RBRACKET)) return NULL;
        }
        return ty;
    }
    bool angle = tok_is(t, "tensor");
    if (angle || tok_is(t, "Tensor")) {
        advance(p);
        ty->kind = TRI_TE_TENSOR;
        TriTokKind open = angle ? TK_LT : TK_LBRACKET, close = angle ? TK_GT : TK_RBRACKET;
        if (!at(p, open)) {
            expected(p, angle ? "'<' and an element type after 'tensor' (tensor<float32>)"
                              : "'[' and an element type after 'Tensor' (Tensor[float32])");
            return NULL;
        }
        advance(p);
        if (!parse_elem_dtype(p, &ty->dtype)) return NULL;
        if (accept(p, TK_COMMA)) {
            if (!expect(p, TK_LBRACKET)) return NULL;
            ty->has_dims = true;
            parse_dims(p, TK_RBRACKET, &ty->dims, &ty->ndims, &ty->ellipsis);
            if (!expect(p, TK_RBRACKET)) return NULL;
        }
        if (!expect(p, close)) return NULL;
        return ty;
    }
    advance(p);
    ty->kind = TRI_TE_NAMED;
    ty->name = tok_name(p, t);
    /* a misspelt tensor type (Tensr[float32]): its brackets are skipped, so
     * the checker's "unknown type 'Tensr'; did you mean 'Tensor'?" is the
     * one error */
    if (at(p, TK_LBRACKET) || at(p, TK_LT)) {
        TriTokKind open = peek(p)->kind, close = open == TK_LT ? TK_GT : TK_RBRACKET;
        int depth = 0;
        ty->has_dims = true;
        do {
            if (at(p, open)) depth++;
            else if (at(p, close)) depth--;
            advance(p);
        } while (depth > 0 && !at(p, TK_EOF) && !at(p, TK_NEWLINE) && !at(p, TK_LBRACE));
    }
    return ty;
}

/* ---- expressions ----------------------------------------------------------- */

static TriExpr *parse_expr(Parser *p);

/* args = [ arg { "," arg } [","] ]      arg = [ IDENT "=" ] expr */
static void parse_args(Parser *p, TriExpr *call) {
    VEC(TriArg) v = {0};
    bool seen_kw = false;
    while (!at(p, TK_RPAREN) && !at(p, TK_EOF)) {
        TriArg a = {0};
        TriToken *t = peek(p);
        a.loc = t->loc;
        a.span = tok_span(t);
        if (t->kind == TK_IDENT && peek2(p)->kind == TK_ASSIGN) {
            a.name = tok_name(p, t);
            advance(p);
            advance(p);
            seen_kw = true;
        } else if (seen_kw && !p->panic) {
            diag_report(p->de, DIAG_ERROR, t->loc, tok_span(t), "positional argument after keyword argument");
        }
        a.value = parse_expr(p);
        vec_push(&v, a);
        if (!accept(p, TK_COMMA)) break;
    }
    call->u.call.nargs = v.len;
    call->u.call.args = v.len ? arena_dup(p->arena, v.data, sizeof(TriArg) * (size_t)v.len) : NULL;
    vec_free(&v);
}

/* Flattens the values of a ternary literal: each element is an integer or
 * trit literal (optionally negated), or a nested list of them.
 * tvals = tval { "," tval } [","]
 * tval  = ["-"] (INT | TRIT) | "[" [ tvals ] "]" */
static void parse_trit_values(Parser *p, void *vec, TriTokKind close) {
    VEC(TriExpr *) *v = vec;
    while (!at(p, close) && !at(p, TK_EOF)) {
        if (p->depth > TRI_MAX_DEPTH) {
            expected(p, "less deeply nested values");
            return;
        }
        TriToken *t = peek(p);
        if (accept(p, TK_LBRACKET)) {
            p->depth++;
            parse_trit_values(p, v, TK_RBRACKET);
            p->depth--;
            if (!expect(p, TK_RBRACKET)) return;
        } else {
            bool neg = accept(p, TK_MINUS);
            TriToken *lit = peek(p);
            if (lit->kind != TK_INT && lit->kind != TK_TRIT) {
                expected(p, "a trit value (-1, 0 or 1)");
                return;
            }
            advance(p);
            TriExpr *e = new_expr(p, lit->kind == TK_TRIT ? TRI_EX_TRIT : TRI_EX_INT, t);
            e->u.ival = int_literal(p, lit, neg);
            e->span = (int)(lit->start + lit->len - t->start);
            vec_push(v, e);
        }
        if (!accept(p, TK_COMMA)) break;
    }
}

/* ternary_lit = "TernaryTensor" "[" dims "]" "(" tvals ")" */
static TriExpr *parse_ternary_literal(Parser *p) {
    TriToken *t = advance(p);
    TriExpr *e = new_expr(p, TRI_EX_TERNARY, t);
    expect(p, TK_LBRACKET);
    parse_dims(p, TK_RBRACKET, &e->u.tern.dims, &e->u.tern.ndims, &e->u.tern.ellipsis);
    if (e->u.tern.ellipsis && !p->panic)
        diag_report(p->de, DIAG_ERROR, e->loc, e->span, "the shape of a TernaryTensor literal must be fully given");
    if (expect(p, TK_RBRACKET) && expect(p, TK_LPAREN)) {
        VEC(TriExpr *) v = {0};
        parse_trit_values(p, &v, TK_RPAREN);
        e->u.tern.nvals = v.len;
        e->u.tern.vals = v.len ? arena_dup(p->arena, v.data, sizeof(TriExpr *) * (size_t)v.len) : NULL;
        vec_free(&v);
        expect(p, TK_RPAREN);
    }
    if (p->panic) { /* a literal cut short by a syntax error: its size is not worth a second error */
        e->type = ARENA_NEW(p->arena, TriType);
        e->type->kind = TRI_T_ERROR;
    }
    return e;
}

/* primary = INT | FLOAT | TRIT
 *         | IDENT [ "(" args ")" ]
 *         | ternary_lit
 *         | "(" expr ")"
 *         | "[" [ expr { "," expr } [","] ] "]" */
static TriExpr *parse_primary(Parser *p) {
    TriToken *t = peek(p);
    TriExpr *e;
    switch (t->kind) {
    case TK_INT:
    case TK_TRIT:
        e = new_expr(p, t->kind == TK_INT ? TRI_EX_INT : TRI_EX_TRIT, advance(p));
        e->u.ival = int_literal(p, t, false);
        return e;
    case TK_FLOAT:
        e = new_expr(p, TRI_EX_FLOAT, advance(p));
        e->u.fval = t->fval;
        return e;
    case TK_IDENT:
        if (tok_is(t, "TernaryTensor") && peek2(p)->kind == TK_LBRACKET) return parse_ternary_literal(p);
        advance(p);
        if (at(p, TK_LPAREN)) {
            advance(p);
            e = new_expr(p, TRI_EX_CALL, t);
            e->u.call.callee = tok_name(p, t);
            e->u.call.builtin = TRI_B_NONE;
            parse_args(p, e);
            expect(p, TK_RPAREN);
            if (p->panic) { /* cut short by a syntax error: its arity is not worth a second error */
                e->type = ARENA_NEW(p->arena, TriType);
                e->type->kind = TRI_T_ERROR;
            }
            return e;
        }
        e = new_expr(p, TRI_EX_NAME, t);
        e->u.name.name = tok_name(p, t);
        return e;
    case TK_LPAREN: {
        advance(p);
        e = parse_expr(p);
        expect(p, TK_RPAREN);
        return e;
    }
    case TK_LBRACKET: {
        advance(p);
        e = new_expr(p, TRI_EX_LIST, t);
        VEC(TriExpr *) v = {0};
        while (!at(p, TK_RBRACKET) && !at(p, TK_EOF)) {
            vec_push(&v, parse_expr(p));
            if (!accept(p, TK_COMMA)) break;
        }
        e->u.list.n = v.len;
        e->u.list.elems = v.len ? arena_dup(p->arena, v.data, sizeof(TriExpr *) * (size_t)v.len) : NULL;
        vec_free(&v);
        expect(p, TK_RBRACKET);
        return e;
    }
    default:
        expected(p, "an expression");
        return error_expr(p, t);
    }
}

/* unary = "-" unary | primary
 * A minus directly before a number literal is folded into it, so -1 is one
 * literal (and -1t one trit literal). */
static TriExpr *parse_unary(Parser *p) {
    TriToken *t = peek(p);
    if (++p->depth > TRI_MAX_DEPTH) {
        expected(p, "a less deeply nested expression");
        p->depth--;
        return error_expr(p, t);
    }
    TriExpr *e;
    if (accept(p, TK_MINUS)) {
        TriToken *n = peek(p);
        if (n->kind == TK_INT || n->kind == TK_TRIT || n->kind == TK_FLOAT) {
            advance(p);
            e = new_expr(p, n->kind == TK_INT ? TRI_EX_INT : n->kind == TK_TRIT ? TRI_EX_TRIT : TRI_EX_FLOAT, t);
            e->span = (int)(n->start + n->len - t->start);
            if (n->kind == TK_FLOAT) e->u.fval = -n->fval;
            else e->u.ival = int_literal(p, n, true);
        } else {
            e = new_expr(p, TRI_EX_UNARY, t);
            e->u.op.op = '-';
            e->u.op.op_loc = t->loc;
            e->u.op.lhs = parse_unary(p);
        }
    } else {
        e = parse_primary(p);
    }
    p->depth--;
    return e;
}

static TriExpr *new_binary(Parser *p, TriToken *op, TriExpr *lhs, TriExpr *rhs) {
    TriExpr *e = ARENA_NEW(p->arena, TriExpr);
    e->kind = TRI_EX_BINARY;
    e->loc = lhs->loc;
    e->span = 1;
    e->dim.value = -1;
    e->u.op.op = op->start[0];
    e->u.op.op_loc = op->loc;
    e->u.op.lhs = lhs;
    e->u.op.rhs = rhs;
    return e;
}

/* After the binary operator `op`: reports `x += 1` (compound assignment)
 * and `x ** 2` (a power) as what they are, instead of "expected an
 * expression, saw '='". */
static void after_operator(Parser *p, const TriToken *op) {
    if (p->panic) return;
    TriToken *t = peek(p);
    if (t->kind == TK_ASSIGN && t->start == op->start + 1) {
        enter_panic(p);
        diag_report(p->de, DIAG_ERROR, op->loc, 2,
                    "'%c=' is not supported: names are immutable; bind a new name with 'let'", op->start[0]);
    } else if (op->kind == TK_STAR && t->kind == TK_STAR && t->start == op->start + 1) {
        enter_panic(p);
        diag_report(p->de, DIAG_ERROR, op->loc, 2, "there is no '**' operator; multiply (x * x)");
    }
}

/* mul = unary { ("*" | "/" | "@") unary } */
static TriExpr *parse_mul(Parser *p) {
    TriExpr *e = parse_unary(p);
    while (at(p, TK_STAR) || at(p, TK_SLASH) || at(p, TK_AT)) {
        TriToken *op = advance(p);
        after_operator(p, op);
        e = new_binary(p, op, e, p->panic ? error_expr(p, op) : parse_unary(p));
    }
    return e;
}

/* expr = mul { ("+" | "-") mul } */
static TriExpr *parse_expr(Parser *p) {
    TriExpr *e = parse_mul(p);
    while (at(p, TK_PLUS) || at(p, TK_MINUS)) {
        TriToken *op = advance(p);
        after_operator(p, op);
        e = new_binary(p, op, e, p->panic ? error_expr(p, op) : parse_mul(p));
    }
    return e;
}

/* ---- statements and declarations ------------------------------------------ */

static TriDecl *new_decl(Parser *p, TriDeclKind kind, const TriToken *name) {
    TriDecl *d = ARENA_NEW(p->arena, TriDecl);
    d->kind = kind;
    d->name = tok_name(p, name);
    d->loc = name->loc;
    d->span = tok_span(name);
    return d;
}

/* let_stmt = "let" IDENT [ ":" type ] "=" expr end */
static TriDecl *parse_let(Parser *p) {
    advance(p); /* let */
    TriToken *name = peek(p);
    if (name->kind != TK_IDENT) {
        expected(p, "a name after 'let'");
        sync_stmt(p);
        return NULL;
    }
    advance(p);
    TriDecl *d = new_decl(p, TRI_D_LET, name);
    if (accept(p, TK_COLON)) d->ann = parse_type(p);
    if (!p->panic && expect(p, TK_ASSIGN)) d->value = parse_expr(p);
    expected_stmt_end(p, d->value);
    if (p->panic) {
        /* a statement cut short: its value is not checked (one error per
         * statement), and the let has the annotated type, if any */
        d->value = error_expr(p, name);
        sync_stmt(p);
        return d;
    }
    end_stmt(p);
    return d;
}

/* params = [ param { "," param } [","] ]      param = IDENT ":" type */
static void parse_params(Parser *p, TriDecl *owner) {
    VEC(TriDecl *) v = {0};
    expect(p, TK_LPAREN);
    while (!p->panic && !at(p, TK_RPAREN) && !at(p, TK_EOF)) {
        TriToken *name = peek(p);
        if (name->kind != TK_IDENT) {
            expected(p, "a parameter name");
            break;
        }
        advance(p);
        TriDecl *d = new_decl(p, TRI_D_PARAM, name);
        d->parent = owner;
        if (expect(p, TK_COLON)) d->ann = parse_type(p);
        vec_push(&v, d);
        if (!accept(p, TK_COMMA)) break;
    }
    if (!p->panic) expect(p, TK_RPAREN);
    owner->nparams = v.len;
    owner->params = v.len ? arena_dup(p->arena, v.data, sizeof(TriDecl *) * (size_t)v.len) : NULL;
    vec_free(&v);
}

/* Reports a block left open at end of file, pointing at its '{'. */
static void unterminated(Parser *p, const TriToken *open) {
    if (p->panic || p->eof_reported) return;
    p->eof_reported = true;
    diag_report(p->de, DIAG_ERROR, peek(p)->loc, 1, "expected '}' before end of file");
    diag_report(p->de, DIAG_NOTE, open->loc, 1, "to match this '{'");
    enter_panic(p);
}

/* The '{' opening the body of fn or layer d, after its header; a newline
 * may stand before it (a brace on a line of its own). After a syntax error
 * in the header, the rest of the header is skipped to a '{' on its line,
 * so the body is still parsed and checked. Returns the '{', or NULL when
 * there is no body (the statement is skipped). d is marked incomplete
 * after any error, so the checker does not report what the error may have
 * hidden (a forward, a return). */
static TriToken *open_body(Parser *p, TriDecl *d) {
    if (p->panic) {
        d->incomplete = true;
        while (!at(p, TK_LBRACE) && !at(p, TK_NEWLINE) && !at(p, TK_SEMI) && !at(p, TK_RBRACE) && !at(p, TK_EOF))
            advance(p);
        if (!at(p, TK_LBRACE)) {
            sync_stmt(p);
            return NULL;
        }
        p->panic = false;
    } else if (at(p, TK_NEWLINE) && peek2(p)->kind == TK_LBRACE) {
        advance(p);
    }
    TriToken *open = peek(p);
    if (!expect(p, TK_LBRACE)) {
        d->incomplete = true;
        sync_stmt(p);
        return NULL;
    }
    return open;
}

/* `if x {`, `for i in ...`, `while`: reported as control flow, which .tri
 * does not have (these words are not keywords: `if` followed by an
 * operator or the end of the statement is an expression). */
static bool control_flow(Parser *p) {
    static const char *const words[] = {"if", "elif", "else", "for", "while", "match", "loop"};
    TriToken *t = peek(p);
    TriTokKind next = peek2(p)->kind;
    if (next == TK_NEWLINE || next == TK_SEMI || next == TK_RBRACE || next == TK_EOF || next == TK_PLUS ||
        next == TK_MINUS || next == TK_STAR || next == TK_SLASH || next == TK_AT || next == TK_ASSIGN)
        return false;
    for (int i = 0; i < TC_ARRAY_LEN(words); i++)
        if (tok_is(t, words[i])) {
            enter_panic(p);
            diag_report(p->de, DIAG_ERROR, t->loc, tok_span(t),
                        "there is no '%s' statement: .tri has no control flow (a fn is a sequence of lets "
                        "and a return)",
                        words[i]);
            return true;
        }
    return false;
}

/* stmt = let_stmt | "return" [ expr ] end | expr end */
static TriStmt *parse_stmt(Parser *p) {
    TriToken *t = peek(p);
    TriStmt *s = ARENA_NEW(p->arena, TriStmt);
    s->loc = t->loc;
    s->span = tok_span(t);
    if (t->kind == TK_LET) {
        s->kind = TRI_ST_LET;
        s->let = parse_let(p);
        return s->let ? s : NULL;
    }
    if (t->kind == TK_RETURN) {
        advance(p);
        s->kind = TRI_ST_RETURN;
        if (!at(p, TK_NEWLINE) && !at(p, TK_SEMI) && !at(p, TK_RBRACE) && !at(p, TK_EOF))
            s->expr = parse_expr(p);
    } else if (control_flow(p)) {
        sync_stmt(p);
        return NULL;
    } else if (t->kind == TK_FN || t->kind == TK_LAYER) {
        expected(p, "a statement ('fn' and 'layer' are only allowed at top level or in a layer)");
        sync_stmt(p);
        return NULL;
    } else {
        s->kind = TRI_ST_EXPR;
        s->expr = parse_expr(p);
    }
    expected_stmt_end(p, s->expr);
    if (p->panic) {
        if (s->expr) s->expr = error_expr(p, t);
        sync_stmt(p);
        return s;
    }
    end_stmt(p);
    return s;
}

/* fn_def = "fn" IDENT "(" params ")" [ "->" type ] [ NEWLINE ] "{" { stmt } "}" */
static TriDecl *parse_fn(Parser *p, TriDecl *parent) {
    advance(p); /* fn */
    TriToken *name = peek(p);
    if (name->kind != TK_IDENT) {
        expected(p, "a function name after 'fn'");
        sync_stmt(p);
        return NULL;
    }
    advance(p);
    TriDecl *d = new_decl(p, TRI_D_FN, name);
    int nsyntax = p->nsyntax;
    d->parent = parent;
    parse_params(p, d);
    if (!p->panic && accept(p, TK_ARROW)) d->ret = parse_type(p);
    TriToken *open = open_body(p, d);
    if (!open) return d;
    VEC(TriStmt *) v = {0};
    for (;;) {
        skip_separators(p);
        if (at(p, TK_RBRACE) || at(p, TK_EOF)) break;
        TriStmt *s = parse_stmt(p);
        if (s) vec_push(&v, s);
    }
    d->nbody = v.len;
    d->body = v.len ? arena_dup(p->arena, v.data, sizeof(TriStmt *) * (size_t)v.len) : NULL;
    vec_free(&v);
    if (at(p, TK_EOF)) unterminated(p, open);
    else advance(p);
    d->incomplete |= p->nsyntax > nsyntax;
    end_stmt(p);
    return d;
}

/* layer_def  = "layer" IDENT "(" params ")" [ "->" type ] [ NEWLINE ] "{" { layer_item } "}"
 * layer_item = let_stmt | fn_def */
static TriDecl *parse_layer(Parser *p) {
    advance(p); /* layer */
    TriToken *name = peek(p);
    if (name->kind != TK_IDENT) {
        expected(p, "a layer name after 'layer'");
        sync_stmt(p);
        return NULL;
    }
    advance(p);
    TriDecl *d = new_decl(p, TRI_D_LAYER, name);
    int nsyntax = p->nsyntax;
    parse_params(p, d);
    if (!p->panic && accept(p, TK_ARROW)) d->ret = parse_type(p);
    TriToken *open = open_body(p, d);
    if (!open) return d;
    VEC(TriDecl *) v = {0};
    for (;;) {
        skip_separators(p);
        if (at(p, TK_RBRACE) || at(p, TK_EOF)) break;
        TriDecl *m = NULL;
        if (at(p, TK_LET)) m = parse_let(p);
        else if (at(p, TK_FN)) m = parse_fn(p, d);
        else {
            expected(p, "'let' or 'fn' in a layer body");
            sync_stmt(p);
        }
        if (m) {
            m->parent = d;
            vec_push(&v, m);
        }
    }
    d->nmembers = v.len;
    d->members = v.len ? arena_dup(p->arena, v.data, sizeof(TriDecl *) * (size_t)v.len) : NULL;
    vec_free(&v);
    if (at(p, TK_EOF)) unterminated(p, open);
    else advance(p);
    d->incomplete |= p->nsyntax > nsyntax;
    end_stmt(p);
    return d;
}

/* "expected 'let', 'fn' or 'layer'", with what to write instead of the
 * other languages' words for them. */
static void toplevel_error(Parser *p) {
    static const char *const hints[][2] = {
        {"def", "functions are written 'fn name(params) { ... }'"},
        {"function", "functions are written 'fn name(params) { ... }'"},
        {"func", "functions are written 'fn name(params) { ... }'"},
        {"class", "a module is a 'layer'"},
        {"module", "a module is a 'layer'"},
        {"var", "names are bound with 'let'"},
        {"const", "names are bound with 'let'"},
        {"val", "names are bound with 'let'"},
        {"import", "there are no imports: the built-in functions are always available"},
        {"from", "there are no imports: the built-in functions are always available"},
    };
    TriToken *t = peek(p);
    for (int i = 0; i < TC_ARRAY_LEN(hints); i++)
        if (tok_is(t, hints[i][0])) {
            enter_panic(p);
            diag_report(p->de, DIAG_ERROR, t->loc, tok_span(t), "expected 'let', 'fn' or 'layer', saw '%s' (%s)",
                        hints[i][0], hints[i][1]);
            return;
        }
    expected(p, "'let', 'fn' or 'layer'");
}

/* program  = { toplevel } EOF
 * toplevel = let_stmt | fn_def | layer_def */
TriProgram *tri_parse(Arena *arena, Interner *interner, DiagEngine *de, const char *file,
                      const char *src, size_t len) {
    if (!file) file = "<input>";
    file = intern(interner, file);
    diag_add_source(de, file, src, len);
    Parser p = {arena, interner, de, file, NULL, 0, 0, 0, 0, false, false};
    p.toks = tri_lex(arena, de, file, src, len, &p.ntoks);
    TriProgram *prog = ARENA_NEW(arena, TriProgram);
    prog->file = file;
    prog->arena = arena;
    prog->interner = interner;
    VEC(TriDecl *) v = {0};
    for (;;) {
        skip_separators(&p);
        if (at(&p, TK_EOF)) break;
        TriDecl *d = NULL;
        if (at(&p, TK_LET)) d = parse_let(&p);
        else if (at(&p, TK_FN)) d = parse_fn(&p, NULL);
        else if (at(&p, TK_LAYER)) d = parse_layer(&p);
        else if (at(&p, TK_RBRACE)) {
            diag_report(de, DIAG_ERROR, peek(&p)->loc, 1, "unmatched '}'");
            advance(&p);
        } else {
            toplevel_error(&p);
            sync_stmt(&p);
            if (at(&p, TK_RBRACE)) advance(&p); /* a stray '}' */
        }
        if (d) vec_push(&v, d);
    }
    prog->ndecls = v.len;
    prog->decls = v.len ? arena_dup(arena, v.data, sizeof(TriDecl *) * (size_t)v.len) : NULL;
    vec_free(&v);
    return prog;
}
