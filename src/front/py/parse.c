/*
 * parse.c - the Python parser: tokens -> AST.
 *
 * Recursive descent, one function per rule of Python's grammar (the rule is
 * written above each function, in the notation of Python's own grammar
 * file, simplified where tritonc builds no node for a distinction). Binary
 * operators from '|' down to '*' are parsed by precedence climbing over one
 * table; everything else follows the grammar literally, so the precedence is
 * exactly Python's:
 *
 *   lambda < if-else < or < and < not < comparisons (in, is, <, ==, ...)
 *   < | < ^ < & < << >> < + - < * / // % @ < unary + - ~ < ** < await
 *   < primary (x.a, x(...), x[...]) < atom
 *
 * Tokens come from the pull lexer through a lookahead buffer (the grammar
 * needs two tokens: `NAME =` in a call, `NAME :=`, `not in`). A function's
 * body or parameters, parsed on their own (py_func_body), are lexed in one
 * batch into the buffer first, unless the lexer has something to report
 * in them: then they are lexed as they are parsed, so that its errors and
 * the parser's come out in the same order either way.
 *
 * Lists are built on one scratch stack of pointers (p->stack) and copied to
 * the arena when complete, so a half-built list never leaks.
 *
 * Errors: the first error in a statement is reported and unwinds
 * (longjmp) to that statement's guard, which drops the statement and skips
 * to the next line (and over the indented body of a broken header), so one
 * run reports one error per bad statement and nothing cascades. Tokens the
 * lexer already complained about (PY_TOK_ERROR, or end of file after an
 * unclosed bracket or string) unwind silently. Nesting is bounded
 * (PY_MAX_NESTING) so no input can overflow the C stack.
 *
 * py_parse_lazy (what a compile uses) parses every module-level statement
 * and def header but only delimits a module-level def's body (skim_body, a
 * byte scan with the lexer's rules for strings, brackets and line joins);
 * py_func_body parses it when sema first needs the function, so a kernel in
 * a file of many pays for the functions it calls, as in Triton.
 */
#include "front/py/py.h"

#include <limits.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* PY_MAX_NESTING bounds the parser's recursion (parentheses, unary
 * operators, lambdas, conditional expressions); PY_MAX_HEIGHT bounds the
 * height of an expression tree, which left-associative chains (a+b+c...,
 * x.f().g()...) grow without recursing, so that later recursive walks of the
 * tree (the dump, sema) are safe too. */
enum { PY_MAX_NESTING = 200, PY_MAX_HEIGHT = 1000, TOKEN_BUFFER = 64 };

/* The rules for the rarer atoms (strings, displays, lambdas) stay out of
 * the expression rules that every operand passes through: inlined, their
 * frames would be set up for each one. */
#if defined(__GNUC__)
#define NOT_INLINE __attribute__((noinline))
#else
#define NOT_INLINE
#endif

typedef struct Parser {
    Arena *a;
    Interner *in;
    DiagEngine *de;
    const char *file, *src;
    size_t len;
    PyToken *toks;      /* the tokens lexed ahead (tc_malloc) */
    PyToken *cur, *end; /* the current token; one past the last lexed */
    int cap;
    size_t prev_end; /* end offset of the last consumed token other than NEWLINE/INDENT/DEDENT */
    VEC(void *) stack;
    jmp_buf *jb;
    int depth, height;
    bool lazy; /* py_parse_lazy: module-level def bodies are skimmed, not parsed */
    StrBuf sb;
    PyLexer lx; /* last: its stacks are not cleared (see py_lexer_init) */
} Parser;

/* ---- tokens ---------------------------------------------------------------- */

/* The buffer holds the tokens from the current one to the last looked at,
 * in order. A token lexed when all are consumed goes to the buffer's start;
 * when the buffer is full, the tokens not consumed move to its start (the
 * grammar looks a few tokens ahead: the buffer holds dozens). So a pointer
 * to a token is good until the next token is lexed: a rule that peeks
 * keeps token kinds or copies. After the end the lexer gives EOF for ever:
 * the parser keeps one, and steps no further. */
static NOT_INLINE void lex_more(Parser *p) {
    if (p->cur == p->end) {
        p->cur = p->end = p->toks;
    } else if (p->end == p->toks + p->cap) {
        size_t n = (size_t)(p->end - p->cur);
        if (p->cur > p->toks) {
            memmove(p->toks, p->cur, sizeof(PyToken) * n);
        } else { /* (never: the grammar looks fewer tokens ahead) */
            p->cap *= 2;
            p->toks = tc_realloc(p->toks, sizeof(PyToken) * (size_t)p->cap);
        }
        p->cur = p->toks;
        p->end = p->toks + n;
    }
    py_lexer_lex(&p->lx, p->end++);
}

/* Token k after the current one. */
static const PyToken *peek(Parser *p, unsigned k) {
    while ((size_t)(p->end - p->cur) <= k) {
        if (p->end > p->cur && p->end[-1].kind == PY_TOK_EOF) return p->end - 1;
        lex_more(p);
    }
    return p->cur + k;
}
/* The current token: asked for several times per token by the descent
 * (every precedence level looks at it), so the common case is inline. */
static inline const PyToken *tok(Parser *p) {
    if (__builtin_expect(p->cur == p->end, 0)) return peek(p, 0);
    return p->cur;
}
static inline PyTokKind kind(Parser *p) { return tok(p)->kind; }
static inline bool at(Parser *p, PyTokKind k) { return kind(p) == k; }

/* Consumes the current token. */
static inline void skip(Parser *p) {
    const PyToken *t = tok(p);
    if (t->kind != PY_TOK_NEWLINE && t->kind != PY_TOK_INDENT && t->kind != PY_TOK_DEDENT &&
        t->kind != PY_TOK_EOF)
        p->prev_end = t->off + t->len;
    if (t->kind != PY_TOK_EOF) p->cur++;
}

/* Consumes the current token and returns a copy of it (callers that only
 * step over a token use skip). */
static inline PyToken advance(Parser *p) {
    PyToken t = *tok(p);
    skip(p);
    return t;
}

static inline bool accept(Parser *p, PyTokKind k) {
    if (!at(p, k)) return false;
    skip(p);
    return true;
}

/* ---- errors ---------------------------------------------------------------- */

/* How a token is named in "saw X". */
static const char *describe(Parser *p, const PyToken *t) {
    switch (t->kind) {
    case PY_TOK_NAME:
    case PY_TOK_INT:
    case PY_TOK_FLOAT:
    case PY_TOK_IMAG: {
        int n = t->len > 32 ? 32 : (int)t->len;
        return arena_printf(p->a, "'%.*s%s'", n, p->src + t->off, t->len > 32 ? "..." : "");
    }
    case PY_TOK_STRING: return "string literal";
    case PY_TOK_NEWLINE:
    case PY_TOK_INDENT:
    case PY_TOK_DEDENT:
    case PY_TOK_EOF: return py_tok_spelling(t->kind);
    default: return arena_printf(p->a, "'%s'", py_tok_spelling(t->kind));
    }
}

/* Whether an error at t is news: the lexer already reported bad tokens and
 * what an unclosed bracket or string does to the end of the file. */
static bool reportable(Parser *p, const PyToken *t) {
    if (t->kind == PY_TOK_ERROR) return false;
    if (p->lx.eof_error && t->off >= p->len) return false;
    return true;
}

static _Noreturn void unwind(Parser *p) { longjmp(*p->jb, 1); }

static void verror_at(Parser *p, Loc loc, int span, const char *fmt, va_list ap) {
    diag_vreport(p->de, DIAG_ERROR, loc, span, fmt, ap);
}

/* Reports at token t (unless it is not news) and unwinds. */
static _Noreturn TC_PRINTF(3, 4) void error_at(Parser *p, const PyToken *t, const char *fmt, ...) {
    if (reportable(p, t)) {
        va_list ap;
        va_start(ap, fmt);
        verror_at(p, t->loc, t->len ? (int)t->len : 1, fmt, ap);
        va_end(ap);
    }
    unwind(p);
}

static int expr_span(const PyExpr *e) {
    size_t n = e->end > e->off ? e->end - e->off : 1;
    return n > 1000 ? 1000 : (int)n;
}

static _Noreturn TC_PRINTF(3, 4) void error_expr(Parser *p, const PyExpr *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verror_at(p, e->loc, expr_span(e), fmt, ap);
    va_end(ap);
    unwind(p);
}

/* "expected WHAT[ CONTEXT], saw TOKEN" */
static _Noreturn void error_expected(Parser *p, const char *what, const char *context) {
    const PyToken *t = tok(p);
    const char *hint = "";
    if (t->kind == PY_TOK_ASSIGN && what[0] == '\'' && what[1] == ':')
        hint = " (use '==' to compare)";
    error_at(p, t, "expected %s%s%s, saw %s%s", what, context ? " " : "", context ? context : "",
             describe(p, t), hint);
}

static PyToken expect(Parser *p, PyTokKind k, const char *context) {
    if (!at(p, k)) {
        const char *what = arena_printf(p->a, "'%s'", py_tok_spelling(k));
        error_expected(p, what, context);
    }
    return advance(p);
}

/* Expects the closer of bracket `open`, with a note at the opener. */
static void expect_close(Parser *p, const PyToken *open, PyTokKind closer, const char *context) {
    if (accept(p, closer)) return;
    const PyToken *t = tok(p);
    if (reportable(p, t)) {
        diag_report(p->de, DIAG_ERROR, t->loc, t->len ? (int)t->len : 1, "expected '%s'%s%s, saw %s",
                    py_tok_spelling(closer), context ? " " : "", context ? context : "",
                    describe(p, t));
        diag_report(p->de, DIAG_NOTE, open->loc, 1, "to match this '%s'", py_tok_spelling(open->kind));
        p->lx.reported_open = open->loc;
    }
    unwind(p);
}

static void enter(Parser *p) {
    p->height++;
    if (++p->depth > PY_MAX_NESTING)
        error_at(p, tok(p), "expression nested too deeply (more than %d levels)", PY_MAX_NESTING);
}
static void leave(Parser *p) { p->depth--, p->height--; }

/* One more link in a left-associative chain; the caller restores height. */
static void chain_step(Parser *p) {
    if (++p->height > PY_MAX_HEIGHT)
        error_at(p, tok(p), "expression too complex (more than %d levels deep)", PY_MAX_HEIGHT);
}

/* ---- node construction ------------------------------------------------------- */

static int mark(Parser *p) { return p->stack.len; }
static void push(Parser *p, void *x) { vec_push(&p->stack, x); }
static void **take(Parser *p, int m, int *n) {
    *n = p->stack.len - m;
    void **items = *n ? arena_dup(p->a, p->stack.data + m, sizeof(void *) * (size_t)*n) : NULL;
    p->stack.len = m;
    return items;
}
static PyExprList take_exprs(Parser *p, int m) {
    PyExprList l;
    l.items = (PyExpr **)take(p, m, &l.len);
    return l;
}
static PyBlock take_block(Parser *p, int m) {
    PyBlock b;
    b.items = (PyStmt **)take(p, m, &b.len);
    return b;
}

static PyExpr *new_expr(Parser *p, PyExprKind k, Loc loc, size_t off) {
    PyExpr *e = ARENA_NEW(p->a, PyExpr);
    e->kind = k;
    e->loc = loc;
    e->off = off;
    e->end = p->prev_end > off ? p->prev_end : off;
    return e;
}
static PyExpr *expr_at(Parser *p, PyExprKind k, const PyToken *t) { return new_expr(p, k, t->loc, t->off); }
/* A node that starts where `first` starts and ends at the last token read. */
static PyExpr *expr_from(Parser *p, PyExprKind k, const PyExpr *first) {
    return new_expr(p, k, first->loc, first->off);
}
static PyStmt *stmt_at(Parser *p, PyStmtKind k, Loc loc, size_t off) {
    PyStmt *s = ARENA_NEW(p->a, PyStmt);
    s->kind = k;
    s->loc = loc;
    s->off = off;
    return s;
}
static PyStmt *new_stmt(Parser *p, PyStmtKind k, const PyToken *t) { return stmt_at(p, k, t->loc, t->off); }
static PyStmt *finish_stmt(Parser *p, PyStmt *s) {
    s->end = p->prev_end > s->off ? p->prev_end : s->off;
    return s;
}

static bool starts_expr(PyTokKind k) {
    switch (k) {
    case PY_TOK_NAME: case PY_TOK_INT: case PY_TOK_FLOAT: case PY_TOK_IMAG: case PY_TOK_STRING:
    case PY_TOK_LPAREN: case PY_TOK_LBRACKET: case PY_TOK_LBRACE: case PY_TOK_MINUS:
    case PY_TOK_PLUS: case PY_TOK_TILDE: case PY_TOK_KW_NOT: case PY_TOK_KW_LAMBDA:
    case PY_TOK_KW_NONE: case PY_TOK_KW_TRUE: case PY_TOK_KW_FALSE: case PY_TOK_ELLIPSIS:
    case PY_TOK_STAR: case PY_TOK_KW_AWAIT: case PY_TOK_ERROR:
        return true;
    default:
        return false;
    }
}

/* ---- expressions --------------------------------------------------------------- */

static PyExpr *parse_expression(Parser *p);
static PyExpr *parse_named_expression(Parser *p);
static PyExpr *parse_star_expressions(Parser *p);
static PyExpr *parse_disjunction(Parser *p);
static PyExpr *parse_bitwise_or(Parser *p);
static PyExpr *parse_factor(Parser *p);
static PyParamList parse_params(Parser *p, PyTokKind end, bool annotations);

/* strings: STRING+   (adjacent literals are joined, as in Python) */
static NOT_INLINE PyExpr *parse_strings(Parser *p) {
    PyToken first = advance(p);
    if (!at(p, PY_TOK_STRING)) {
        PyExpr *e = expr_at(p, PY_EXPR_STR, &first);
        e->str.data = first.str;
        e->str.len = first.slen;
        e->str.flags = first.flags;
        return e;
    }
    StrBuf *sb = &p->sb;
    sb->len = 0;
    sb_putn(sb, first.str, first.slen);
    unsigned flags = first.flags;
    while (at(p, PY_TOK_STRING)) {
        PyToken t = advance(p);
        if ((t.flags & PY_STR_BYTES) != (flags & PY_STR_BYTES))
            error_at(p, &t, "cannot mix bytes and nonbytes literals");
        flags |= t.flags & (PY_STR_FSTRING | PY_STR_RAW | PY_STR_TRIPLE);
        sb_putn(sb, t.str, t.slen);
    }
    PyExpr *e = expr_at(p, PY_EXPR_STR, &first);
    e->str.data = arena_strndup(p->a, sb->data, sb->len);
    e->str.len = sb->len;
    e->str.flags = flags;
    return e;
}

/* star_target: ['*'] bitwise_or    (checked to be assignable by the caller)
 * star_targets: star_target (',' star_target)* [','] */
static PyExpr *parse_star_target(Parser *p) {
    if (at(p, PY_TOK_STAR)) {
        PyToken star = advance(p);
        PyExpr *v = parse_bitwise_or(p);
        PyExpr *e = expr_at(p, PY_EXPR_STARRED, &star);
        e->value = v;
        return e;
    }
    return parse_bitwise_or(p);
}

static PyExpr *parse_star_targets(Parser *p) {
    PyExpr *first = parse_star_target(p);
    if (!at(p, PY_TOK_COMMA)) return first;
    int m = mark(p);
    push(p, first);
    while (accept(p, PY_TOK_COMMA) && starts_expr(kind(p))) push(p, parse_star_target(p));
    PyExpr *t = expr_from(p, PY_EXPR_TUPLE, first);
    t->seq.elts = take_exprs(p, m);
    return t;
}

/* for_if_clauses: ('for' star_targets 'in' disjunction ('if' disjunction)*)+ */
static void parse_comp_for(Parser *p, PyExpr *comp) {
    int m = mark(p);
    while (at(p, PY_TOK_KW_FOR) || at(p, PY_TOK_KW_ASYNC)) {
        if (at(p, PY_TOK_KW_ASYNC)) error_at(p, tok(p), "asynchronous comprehensions are not supported by tritonc");
        skip(p);
        PyComprehension *c = ARENA_NEW(p->a, PyComprehension);
        c->target = parse_star_targets(p);
        expect(p, PY_TOK_KW_IN, "after comprehension target");
        c->iter = parse_disjunction(p);
        int mi = mark(p);
        while (accept(p, PY_TOK_KW_IF)) push(p, parse_disjunction(p));
        c->ifs = take_exprs(p, mi);
        push(p, c);
    }
    int n;
    void **gens = take(p, m, &n);
    comp->comp.gens = ARENA_ARRAY(p->a, PyComprehension, n);
    comp->comp.ngens = n;
    for (int i = 0; i < n; i++) comp->comp.gens[i] = *(PyComprehension *)gens[i];
    comp->end = p->prev_end;
}

/* star_named_expression: '*' bitwise_or | named_expression */
static PyExpr *parse_star_named_expression(Parser *p) {
    if (at(p, PY_TOK_STAR)) {
        PyToken star = advance(p);
        PyExpr *v = parse_bitwise_or(p);
        PyExpr *e = expr_at(p, PY_EXPR_STARRED, &star);
        e->value = v;
        return e;
    }
    return parse_named_expression(p);
}

/* yield_expr: 'yield' 'from' expression | 'yield' [star_expressions] */
static NOT_INLINE PyExpr *parse_yield(Parser *p) {
    PyToken y = advance(p);
    if (accept(p, PY_TOK_KW_FROM)) {
        PyExpr *v = parse_expression(p);
        PyExpr *e = expr_at(p, PY_EXPR_YIELD_FROM, &y);
        e->value = v;
        return e;
    }
    PyExpr *v = starts_expr(kind(p)) ? parse_star_expressions(p) : NULL;
    PyExpr *e = expr_at(p, PY_EXPR_YIELD, &y);
    e->value = v;
    return e;
}

/* tuple:  '(' [star_named_expression ',' [star_named_expressions]] ')'
 * group:  '(' (yield_expr | named_expression) ')'
 * genexp: '(' named_expression for_if_clauses ')' */
static NOT_INLINE PyExpr *parse_paren(Parser *p) {
    PyToken open = advance(p);
    if (accept(p, PY_TOK_RPAREN)) return expr_at(p, PY_EXPR_TUPLE, &open);
    if (at(p, PY_TOK_KW_YIELD)) {
        PyExpr *y = parse_yield(p);
        expect_close(p, &open, PY_TOK_RPAREN, NULL);
        return y;
    }
    PyExpr *first = parse_star_named_expression(p);
    if (at(p, PY_TOK_KW_FOR) && first->kind != PY_EXPR_STARRED) {
        PyExpr *g = expr_at(p, PY_EXPR_GENEXP, &open);
        g->comp.elt = first;
        parse_comp_for(p, g);
        expect_close(p, &open, PY_TOK_RPAREN, "after generator expression");
        g->end = p->prev_end;
        return g;
    }
    if (!at(p, PY_TOK_COMMA)) {
        if (first->kind == PY_EXPR_STARRED) error_expr(p, first, "cannot use starred expression here");
        expect_close(p, &open, PY_TOK_RPAREN, NULL);
        return first;
    }
    int m = mark(p);
    push(p, first);
    while (accept(p, PY_TOK_COMMA) && !at(p, PY_TOK_RPAREN)) push(p, parse_star_named_expression(p));
    expect_close(p, &open, PY_TOK_RPAREN, "after tuple element");
    PyExpr *t = expr_at(p, PY_EXPR_TUPLE, &open);
    t->seq.elts = take_exprs(p, m);
    return t;
}

/* list:     '[' [star_named_expressions] ']'
 * listcomp: '[' named_expression for_if_clauses ']' */
static NOT_INLINE PyExpr *parse_list(Parser *p) {
    PyToken open = advance(p);
    int m = mark(p);
    if (!at(p, PY_TOK_RBRACKET)) {
        PyExpr *first = parse_star_named_expression(p);
        if (at(p, PY_TOK_KW_FOR) && first->kind != PY_EXPR_STARRED) {
            PyExpr *c = expr_at(p, PY_EXPR_LISTCOMP, &open);
            c->comp.elt = first;
            parse_comp_for(p, c);
            expect_close(p, &open, PY_TOK_RBRACKET, "after list comprehension");
            c->end = p->prev_end;
            return c;
        }
        push(p, first);
        while (accept(p, PY_TOK_COMMA) && !at(p, PY_TOK_RBRACKET))
            push(p, parse_star_named_expression(p));
    }
    expect_close(p, &open, PY_TOK_RBRACKET, "after list element");
    PyExpr *l = expr_at(p, PY_EXPR_LIST, &open);
    l->seq.elts = take_exprs(p, m);
    return l;
}

/* dict:     '{' [double_starred_kvpair (',' double_starred_kvpair)* [',']] '}'
 * set:      '{' star_named_expressions '}'
 * dictcomp: '{' expression ':' expression for_if_clauses '}'
 * setcomp:  '{' named_expression for_if_clauses '}'
 * double_starred_kvpair: '**' bitwise_or | expression ':' expression */
static NOT_INLINE PyExpr *parse_brace(Parser *p) {
    PyToken open = advance(p);
    int m = mark(p);
    if (accept(p, PY_TOK_RBRACE)) {
        PyExpr *d = expr_at(p, PY_EXPR_DICT, &open);
        return d;
    }
    bool is_dict = at(p, PY_TOK_DSTAR);
    PyExpr *key = NULL, *value;
    if (is_dict) {
        skip(p);
        value = parse_bitwise_or(p);
    } else {
        key = parse_star_named_expression(p);
        if (key->kind != PY_EXPR_STARRED && accept(p, PY_TOK_COLON)) {
            is_dict = true;
            value = parse_expression(p);
        } else {
            value = key;
        }
    }
    if (at(p, PY_TOK_KW_FOR) && (!is_dict || key) && value->kind != PY_EXPR_STARRED) {
        PyExpr *c = expr_at(p, is_dict ? PY_EXPR_DICTCOMP : PY_EXPR_SETCOMP, &open);
        c->comp.elt = is_dict ? key : value;
        c->comp.value = is_dict ? value : NULL;
        parse_comp_for(p, c);
        expect_close(p, &open, PY_TOK_RBRACE, "after comprehension");
        c->end = p->prev_end;
        return c;
    }
    if (!is_dict) {
        push(p, value);
        while (accept(p, PY_TOK_COMMA) && !at(p, PY_TOK_RBRACE))
            push(p, parse_star_named_expression(p));
        expect_close(p, &open, PY_TOK_RBRACE, "after set element");
        PyExpr *s = expr_at(p, PY_EXPR_SET, &open);
        s->seq.elts = take_exprs(p, m);
        return s;
    }
    push(p, key);
    push(p, value);
    while (accept(p, PY_TOK_COMMA) && !at(p, PY_TOK_RBRACE)) {
        if (accept(p, PY_TOK_DSTAR)) {
            push(p, NULL);
            push(p, parse_bitwise_or(p));
            continue;
        }
        push(p, parse_expression(p));
        expect(p, PY_TOK_COLON, "after dictionary key");
        push(p, parse_expression(p));
    }
    expect_close(p, &open, PY_TOK_RBRACE, "after dictionary entry");
    PyExpr *d = expr_at(p, PY_EXPR_DICT, &open);
    int n;
    void **kv = take(p, m, &n);
    d->dict.len = n / 2;
    d->dict.keys = ARENA_ARRAY(p->a, PyExpr *, n / 2);
    d->dict.values = ARENA_ARRAY(p->a, PyExpr *, n / 2);
    for (int i = 0; i < n / 2; i++) {
        d->dict.keys[i] = kv[2 * i];
        d->dict.values[i] = kv[2 * i + 1];
    }
    return d;
}

/* atom: NAME | 'True' | 'False' | 'None' | '...' | strings | NUMBER
 *     | (tuple | group | genexp) | (list | listcomp)
 *     | (dict | set | dictcomp | setcomp) */
static PyExpr *parse_atom(Parser *p) {
    /* (the token stays in the lookahead ring after skip: no copy) */
    const PyToken *cur = tok(p);
    PyExpr *e;
    switch (cur->kind) {
    case PY_TOK_NAME:
        skip(p);
        e = expr_at(p, PY_EXPR_NAME, cur);
        e->name = cur->str;
        return e;
    case PY_TOK_INT:
        skip(p);
        e = expr_at(p, PY_EXPR_INT, cur);
        e->i.value = cur->ival;
        e->i.overflow = (cur->flags & PY_INT_OVERFLOW) != 0;
        return e;
    case PY_TOK_FLOAT:
    case PY_TOK_IMAG:
        skip(p);
        e = expr_at(p, cur->kind == PY_TOK_FLOAT ? PY_EXPR_FLOAT : PY_EXPR_IMAG, cur);
        e->f = cur->fval;
        return e;
    case PY_TOK_STRING: return parse_strings(p);
    case PY_TOK_KW_NONE: skip(p); return expr_at(p, PY_EXPR_NONE, cur);
    case PY_TOK_KW_TRUE: skip(p); return expr_at(p, PY_EXPR_TRUE, cur);
    case PY_TOK_KW_FALSE: skip(p); return expr_at(p, PY_EXPR_FALSE, cur);
    case PY_TOK_ELLIPSIS: skip(p); return expr_at(p, PY_EXPR_ELLIPSIS, cur);
    case PY_TOK_LPAREN: return parse_paren(p);
    case PY_TOK_LBRACKET: return parse_list(p);
    case PY_TOK_LBRACE: return parse_brace(p);
    default: error_expected(p, "expression", NULL);
    }
}

/* arguments: arg (',' arg)* [','] ')'
 * arg: '*' expression | '**' expression | NAME '=' expression
 *    | named_expression [for_if_clauses]     (a bare generator only as the sole argument)
 * Called after '('; consumes the ')'. */
static void parse_arguments(Parser *p, const PyToken *open, PyExprList *args, PyKeyword **kws,
                            int *nkws) {
    int m = mark(p);
    int nargs = 0;
    bool seen_kw = false, seen_dstar = false;
    /* positional args and keywords interleave on the stack: tag keywords by
     * pushing them after a NULL marker. */
    while (!at(p, PY_TOK_RPAREN)) {
        PyTokKind k0 = kind(p); /* (a kind, not a pointer: peek may move the tokens) */
        if (k0 == PY_TOK_DSTAR) {
            PyToken s = advance(p);
            PyKeyword *k = ARENA_NEW(p->a, PyKeyword);
            k->loc = s.loc;
            k->value = parse_expression(p);
            push(p, NULL);
            push(p, k);
            seen_dstar = true;
        } else if (k0 == PY_TOK_NAME && peek(p, 1)->kind == PY_TOK_ASSIGN) {
            PyToken name = advance(p);
            skip(p);
            PyKeyword *k = ARENA_NEW(p->a, PyKeyword);
            k->name = name.str;
            k->loc = name.loc;
            k->value = parse_expression(p);
            push(p, NULL);
            push(p, k);
            seen_kw = true;
        } else if (k0 == PY_TOK_STAR) {
            PyToken star = advance(p);
            PyExpr *v = parse_expression(p);
            PyExpr *e = expr_at(p, PY_EXPR_STARRED, &star);
            e->value = v;
            if (seen_dstar) error_expr(p, e, "iterable argument unpacking follows keyword argument unpacking");
            push(p, e);
            nargs++;
        } else {
            PyExpr *e = parse_named_expression(p);
            if (at(p, PY_TOK_KW_FOR)) {
                PyExpr *g = expr_from(p, PY_EXPR_GENEXP, e);
                g->comp.elt = e;
                parse_comp_for(p, g);
                if (mark(p) != m || !at(p, PY_TOK_RPAREN))
                    error_expr(p, g, "generator expression must be parenthesized");
                e = g;
            }
            if (at(p, PY_TOK_ASSIGN))
                error_expr(p, e, "expression cannot be a keyword argument name (only an identifier can)");
            if (seen_dstar) error_expr(p, e, "positional argument follows keyword argument unpacking");
            if (seen_kw) error_expr(p, e, "positional argument follows keyword argument");
            push(p, e);
            nargs++;
        }
        if (!accept(p, PY_TOK_COMMA)) break;
    }
    expect_close(p, open, PY_TOK_RPAREN, "after call arguments");
    int n;
    void **items = take(p, m, &n);
    args->items = nargs ? ARENA_ARRAY(p->a, PyExpr *, nargs) : NULL;
    args->len = 0;
    int nk = n - nargs;
    nk /= 2;
    *kws = nk ? ARENA_ARRAY(p->a, PyKeyword, nk) : NULL;
    *nkws = 0;
    for (int i = 0; i < n; i++) {
        if (items[i] == NULL) {
            PyKeyword *k = items[++i];
            for (int j = 0; j < *nkws && j < 64 && k->name; j++)
                if ((*kws)[j].name == k->name) {
                    diag_report(p->de, DIAG_ERROR, k->loc, (int)strlen(k->name),
                                "keyword argument repeated: %s", k->name);
                    break;
                }
            (*kws)[(*nkws)++] = *k;
        } else {
            args->items[args->len++] = items[i];
        }
    }
}

/* slice: [expression] ':' [expression] [':' [expression]] | named_expression | starred */
static PyExpr *parse_slice(Parser *p) {
    PyExpr *lower = NULL;
    if (!at(p, PY_TOK_COLON)) {
        lower = parse_star_named_expression(p);
        if (!at(p, PY_TOK_COLON)) return lower;
    }
    PyToken colon = advance(p);
    PyExpr *s = lower ? expr_from(p, PY_EXPR_SLICE, lower) : expr_at(p, PY_EXPR_SLICE, &colon);
    s->slice.lower = lower;
    if (!at(p, PY_TOK_COLON) && !at(p, PY_TOK_COMMA) && !at(p, PY_TOK_RBRACKET))
        s->slice.upper = parse_expression(p);
    if (accept(p, PY_TOK_COLON) && !at(p, PY_TOK_COMMA) && !at(p, PY_TOK_RBRACKET))
        s->slice.step = parse_expression(p);
    s->end = p->prev_end;
    return s;
}

/* slices: slice !',' | slice (',' slice)* [','] */
static PyExpr *parse_slices(Parser *p, const PyToken *open) {
    PyExpr *first = parse_slice(p);
    if (!at(p, PY_TOK_COMMA)) {
        expect_close(p, open, PY_TOK_RBRACKET, "after subscript");
        return first;
    }
    int m = mark(p);
    push(p, first);
    while (accept(p, PY_TOK_COMMA) && !at(p, PY_TOK_RBRACKET)) push(p, parse_slice(p));
    PyExpr *t = expr_from(p, PY_EXPR_TUPLE, first);
    t->seq.elts = take_exprs(p, m);
    expect_close(p, open, PY_TOK_RBRACKET, "after subscript");
    return t;
}

/* primary: atom ('.' NAME | '(' [arguments] ')' | '[' slices ']')* */
static PyExpr *parse_primary(Parser *p) {
    PyExpr *e = parse_atom(p);
    int height = p->height;
    for (;; chain_step(p)) {
        if (at(p, PY_TOK_DOT)) {
            skip(p);
            if (!at(p, PY_TOK_NAME)) error_expected(p, "attribute name", "after '.'");
            const PyToken *name = tok(p);
            skip(p);
            PyExpr *a = expr_from(p, PY_EXPR_ATTR, e);
            a->attr.value = e;
            a->attr.attr = name->str;
            a->attr.attr_loc = name->loc;
            e = a;
        } else if (at(p, PY_TOK_LPAREN)) {
            PyToken open = advance(p);
            PyExpr *c = expr_from(p, PY_EXPR_CALL, e);
            c->call.func = e;
            parse_arguments(p, &open, &c->call.args, &c->call.keywords, &c->call.nkeywords);
            c->end = p->prev_end;
            e = c;
        } else if (at(p, PY_TOK_LBRACKET)) {
            PyToken open = advance(p);
            PyExpr *s = expr_from(p, PY_EXPR_SUBSCRIPT, e);
            s->subscript.value = e;
            s->subscript.index = parse_slices(p, &open);
            s->end = p->prev_end;
            e = s;
        } else {
            p->height = height;
            return e;
        }
    }
}

/* power: ['await'] primary ['**' factor] */
static PyExpr *parse_power(Parser *p) {
    if (at(p, PY_TOK_KW_AWAIT)) error_at(p, tok(p), "'await' expressions are not supported by tritonc");
    PyExpr *base = parse_primary(p);
    if (!at(p, PY_TOK_DSTAR)) return base;
    PyToken op = advance(p);
    enter(p);
    PyExpr *exp = parse_factor(p);
    leave(p);
    PyExpr *e = expr_from(p, PY_EXPR_BINARY, base);
    e->binary.op = PY_BIN_POW;
    e->binary.op_loc = op.loc;
    e->binary.lhs = base;
    e->binary.rhs = exp;
    return e;
}

/* factor: ('+' | '-' | '~') factor | power */
static PyExpr *parse_factor(Parser *p) {
    PyTokKind k = kind(p);
    if (k != PY_TOK_PLUS && k != PY_TOK_MINUS && k != PY_TOK_TILDE) return parse_power(p);
    PyToken op = advance(p);
    enter(p);
    PyExpr *operand = parse_factor(p);
    leave(p);
    PyExpr *e = expr_at(p, PY_EXPR_UNARY, &op);
    e->unary.op = k == PY_TOK_PLUS ? PY_UNARY_POS : k == PY_TOK_MINUS ? PY_UNARY_NEG : PY_UNARY_INVERT;
    e->unary.operand = operand;
    return e;
}

/* The binary operators from '|' to '*', loosest first; all left-associative:
 *   bitwise_or:  bitwise_or '|' bitwise_xor | bitwise_xor
 *   bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and
 *   bitwise_and: bitwise_and '&' shift_expr | shift_expr
 *   shift_expr:  shift_expr ('<<' | '>>') sum | sum
 *   sum:         sum ('+' | '-') term | term
 *   term:        term ('*' | '/' | '//' | '%' | '@') factor | factor */
static int binop_prec(PyTokKind k, PyBinOp *op) {
    switch (k) {
    case PY_TOK_PIPE: *op = PY_BIN_BITOR; return 1;
    case PY_TOK_CARET: *op = PY_BIN_BITXOR; return 2;
    case PY_TOK_AMP: *op = PY_BIN_BITAND; return 3;
    case PY_TOK_LSHIFT: *op = PY_BIN_LSHIFT; return 4;
    case PY_TOK_RSHIFT: *op = PY_BIN_RSHIFT; return 4;
    case PY_TOK_PLUS: *op = PY_BIN_ADD; return 5;
    case PY_TOK_MINUS: *op = PY_BIN_SUB; return 5;
    case PY_TOK_STAR: *op = PY_BIN_MUL; return 6;
    case PY_TOK_SLASH: *op = PY_BIN_DIV; return 6;
    case PY_TOK_DSLASH: *op = PY_BIN_FLOORDIV; return 6;
    case PY_TOK_PERCENT: *op = PY_BIN_MOD; return 6;
    case PY_TOK_AT: *op = PY_BIN_MATMUL; return 6;
    default: return 0;
    }
}

static PyExpr *parse_binary(Parser *p, int min_prec);

/* The operators of precedence min_prec and up after a parsed operand. */
static PyExpr *binary_rest(Parser *p, PyExpr *lhs, int min_prec) {
    int height = p->height;
    for (;; chain_step(p)) {
        PyBinOp op;
        int prec = binop_prec(kind(p), &op);
        if (prec == 0 || prec < min_prec) {
            p->height = height;
            return lhs;
        }
        Loc op_loc = tok(p)->loc;
        skip(p);
        PyExpr *rhs = parse_binary(p, prec + 1);
        PyExpr *e = expr_from(p, PY_EXPR_BINARY, lhs);
        e->binary.op = op;
        e->binary.op_loc = op_loc;
        e->binary.lhs = lhs;
        e->binary.rhs = rhs;
        lhs = e;
    }
}

static PyExpr *parse_binary(Parser *p, int min_prec) { return binary_rest(p, parse_factor(p), min_prec); }

static PyExpr *parse_bitwise_or(Parser *p) { return parse_binary(p, 1); }

/* comparison: bitwise_or (compare_op bitwise_or)*
 * compare_op: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not' 'in' | 'is' | 'is' 'not' */
static PyExpr *comparison_rest(Parser *p, PyExpr *first) {
    int m = mark(p);
    for (;;) {
        PyCmpOp op;
        switch (kind(p)) {
        case PY_TOK_EQ: op = PY_CMP_EQ; break;
        case PY_TOK_NE: op = PY_CMP_NE; break;
        case PY_TOK_LT: op = PY_CMP_LT; break;
        case PY_TOK_LE: op = PY_CMP_LE; break;
        case PY_TOK_GT: op = PY_CMP_GT; break;
        case PY_TOK_GE: op = PY_CMP_GE; break;
        case PY_TOK_KW_IN: op = PY_CMP_IN; break;
        case PY_TOK_KW_IS: op = peek(p, 1)->kind == PY_TOK_KW_NOT ? PY_CMP_IS_NOT : PY_CMP_IS; break;
        case PY_TOK_KW_NOT:
            if (peek(p, 1)->kind != PY_TOK_KW_IN) goto done;
            op = PY_CMP_NOT_IN;
            break;
        default: goto done;
        }
        skip(p);
        if (op == PY_CMP_IS_NOT || op == PY_CMP_NOT_IN) skip(p);
        push(p, (void *)(intptr_t)op);
        push(p, parse_bitwise_or(p));
    }
done:
    if (mark(p) == m) return first;
    int n;
    void **items = take(p, m, &n);
    PyExpr *e = expr_from(p, PY_EXPR_COMPARE, first);
    e->compare.first = first;
    e->compare.n = n / 2;
    e->compare.ops = ARENA_ARRAY(p->a, PyCmpOp, n / 2);
    e->compare.rest = ARENA_ARRAY(p->a, PyExpr *, n / 2);
    for (int i = 0; i < n / 2; i++) {
        e->compare.ops[i] = (PyCmpOp)(intptr_t)items[2 * i];
        e->compare.rest[i] = items[2 * i + 1];
    }
    return e;
}

static PyExpr *parse_comparison(Parser *p) { return comparison_rest(p, parse_bitwise_or(p)); }

/* inversion: 'not' inversion | comparison */
static PyExpr *parse_inversion(Parser *p) {
    if (!at(p, PY_TOK_KW_NOT)) return parse_comparison(p);
    PyToken op = advance(p);
    enter(p);
    PyExpr *operand = parse_inversion(p);
    leave(p);
    PyExpr *e = expr_at(p, PY_EXPR_UNARY, &op);
    e->unary.op = PY_UNARY_NOT;
    e->unary.operand = operand;
    return e;
}

/* conjunction: inversion ('and' inversion)*
 * disjunction: conjunction ('or' conjunction)* */
static PyExpr *parse_boolop(Parser *p, PyBoolOp op);

/* The rest of a conjunction or disjunction after its parsed first operand. */
static PyExpr *boolop_rest(Parser *p, PyBoolOp op, PyExpr *first) {
    PyTokKind k = op == PY_BOOL_OR ? PY_TOK_KW_OR : PY_TOK_KW_AND;
    if (!at(p, k)) return first;
    int m = mark(p);
    push(p, first);
    while (accept(p, k)) push(p, op == PY_BOOL_OR ? parse_boolop(p, PY_BOOL_AND) : parse_inversion(p));
    PyExpr *e = expr_from(p, PY_EXPR_BOOL, first);
    e->boolop.op = op;
    e->boolop.values = take_exprs(p, m);
    return e;
}
static PyExpr *parse_boolop(Parser *p, PyBoolOp op) {
    return boolop_rest(p, op, op == PY_BOOL_OR ? parse_boolop(p, PY_BOOL_AND) : parse_inversion(p));
}
static PyExpr *parse_disjunction(Parser *p) { return parse_boolop(p, PY_BOOL_OR); }

/* Whether an operator at k goes on with the operand before it inside a
 * disjunction (a binary, comparison or boolean operator). */
static bool continues_disjunction(PyTokKind k) {
    PyBinOp op;
    switch (k) {
    case PY_TOK_EQ: case PY_TOK_NE: case PY_TOK_LT: case PY_TOK_LE: case PY_TOK_GT: case PY_TOK_GE:
    case PY_TOK_KW_IN: case PY_TOK_KW_IS: case PY_TOK_KW_NOT: case PY_TOK_KW_AND: case PY_TOK_KW_OR:
        return true;
    default: return binop_prec(k, &op) > 0;
    }
}

/* A disjunction that does not start with 'not': its first factor, then,
 * only if an operator follows (in most operands none does), the rest of
 * each level from the innermost out, as the descent through them would
 * have parsed it. */
static PyExpr *parse_disjunction_fast(Parser *p) {
    PyExpr *e = parse_factor(p);
    if (!continues_disjunction(kind(p))) return e;
    e = comparison_rest(p, binary_rest(p, e, 1));
    return boolop_rest(p, PY_BOOL_OR, boolop_rest(p, PY_BOOL_AND, e));
}

/* lambdef: 'lambda' [lambda_params] ':' expression */
static NOT_INLINE PyExpr *parse_lambda(Parser *p) {
    PyToken kw = advance(p);
    PyExpr *e = expr_at(p, PY_EXPR_LAMBDA, &kw);
    e->lambda.params = parse_params(p, PY_TOK_COLON, false);
    expect(p, PY_TOK_COLON, "after lambda parameters");
    e->lambda.body = parse_expression(p);
    e->end = p->prev_end;
    return e;
}

/* Tokens after which no expression goes on (no operator, call, subscript,
 * attribute or conditional can follow). */
static bool ends_expression(PyTokKind k) {
    return k == PY_TOK_COMMA || k == PY_TOK_RPAREN || k == PY_TOK_RBRACKET || k == PY_TOK_RBRACE ||
           k == PY_TOK_ASSIGN || k == PY_TOK_COLON || k == PY_TOK_NEWLINE;
}

/* NAME or NAME '.' NAME that the next token ends: the most common
 * expressions (arguments, annotations such as tl.constexpr, defaults) skip
 * the descent through every precedence level. The nodes, positions, depth
 * and height bookkeeping are those parse_atom and parse_primary make. */
static PyExpr *quick_name(Parser *p) {
    bool attr = peek(p, 1)->kind == PY_TOK_DOT;
    if (attr ? peek(p, 2)->kind != PY_TOK_NAME || !ends_expression(peek(p, 3)->kind)
             : !ends_expression(peek(p, 1)->kind))
        return NULL;
    const PyToken *cur = tok(p); /* (looked at already: no lexing moves them) */
    skip(p);
    PyExpr *e = expr_at(p, PY_EXPR_NAME, cur);
    e->name = cur->str;
    if (!attr) return e;
    int height = p->height;
    skip(p);
    const PyToken *name = tok(p);
    skip(p);
    PyExpr *a = expr_from(p, PY_EXPR_ATTR, e);
    a->attr.value = e;
    a->attr.attr = name->str;
    a->attr.attr_loc = name->loc;
    chain_step(p);
    p->height = height;
    return a;
}

/* expression: disjunction ['if' disjunction 'else' expression] | lambdef */
static PyExpr *parse_expression(Parser *p) {
    enter(p);
    PyExpr *e;
    if (at(p, PY_TOK_NAME) && (e = quick_name(p))) {
        leave(p);
        return e;
    }
    if (at(p, PY_TOK_KW_LAMBDA)) {
        e = parse_lambda(p);
    } else {
        e = at(p, PY_TOK_KW_NOT) ? parse_disjunction(p) : parse_disjunction_fast(p);
        if (accept(p, PY_TOK_KW_IF)) {
            PyExpr *cond = parse_disjunction(p);
            expect(p, PY_TOK_KW_ELSE, "in conditional expression");
            PyExpr *orelse = parse_expression(p);
            PyExpr *c = expr_from(p, PY_EXPR_IFEXP, e);
            c->ifexp.cond = cond;
            c->ifexp.then = e;
            c->ifexp.orelse = orelse;
            e = c;
        }
    }
    leave(p);
    return e;
}

/* named_expression: NAME ':=' expression | expression */
static PyExpr *parse_named_expression(Parser *p) {
    if (at(p, PY_TOK_NAME) && peek(p, 1)->kind == PY_TOK_WALRUS) {
        PyToken name = advance(p);
        skip(p);
        PyExpr *target = expr_at(p, PY_EXPR_NAME, &name);
        target->name = name.str;
        target->end = name.off + name.len;
        PyExpr *value = parse_expression(p);
        PyExpr *e = expr_at(p, PY_EXPR_NAMED, &name);
        e->named.target = target;
        e->named.value = value;
        return e;
    }
    return parse_expression(p);
}

/* star_expressions: star_expression (',' star_expression)* [',']
 * star_expression: '*' bitwise_or | expression */
static PyExpr *parse_star_expressions(Parser *p) {
    PyExpr *first;
    if (at(p, PY_TOK_STAR)) {
        PyToken star = advance(p);
        PyExpr *v = parse_bitwise_or(p);
        first = expr_at(p, PY_EXPR_STARRED, &star);
        first->value = v;
    } else {
        first = parse_expression(p);
    }
    if (!at(p, PY_TOK_COMMA)) return first;
    int m = mark(p);
    push(p, first);
    while (accept(p, PY_TOK_COMMA) && starts_expr(kind(p))) {
        if (at(p, PY_TOK_STAR)) {
            PyToken star = advance(p);
            PyExpr *v = parse_bitwise_or(p);
            PyExpr *s = expr_at(p, PY_EXPR_STARRED, &star);
            s->value = v;
            push(p, s);
        } else {
            push(p, parse_expression(p));
        }
    }
    PyExpr *t = expr_from(p, PY_EXPR_TUPLE, first);
    t->seq.elts = take_exprs(p, m);
    return t;
}

/* ---- parameters ------------------------------------------------------------------ */

/*
 * parameters: param (',' param)* [',']      (up to `end`: ')' or lambda's ':')
 * param: NAME [':' expression] ['=' expression]
 *      | '*' [NAME [':' expression]] | '**' NAME [':' expression] | '/'
 * Annotations only in a def (annotations == true).
 */
static PyParamList parse_params(Parser *p, PyTokKind end, bool annotations) {
    int m = mark(p);
    bool seen_star = false, seen_default = false, bare_star = false, seen_kwargs = false;
    bool seen_slash = false;
    const PyToken *star_tok = NULL;
    PyToken star_copy;
    uint64_t seen_names = 0;
    while (!at(p, end)) {
        if (seen_kwargs) error_at(p, tok(p), "parameters cannot follow a var-keyword parameter ('**')");
        PyParamKind k = seen_star ? PY_PARAM_KWONLY : PY_PARAM_NORMAL;
        if (at(p, PY_TOK_SLASH)) {
            PyToken s = advance(p);
            if (seen_slash) error_at(p, &s, "'/' may appear only once");
            if (seen_star) error_at(p, &s, "'/' must come before '*'");
            if (mark(p) == m) error_at(p, &s, "at least one parameter must precede '/'");
            for (int i = m; i < p->stack.len; i++) ((PyParam *)p->stack.data[i])->kind = PY_PARAM_POSONLY;
            seen_slash = true;
            if (!accept(p, PY_TOK_COMMA)) break;
            continue;
        }
        if (at(p, PY_TOK_STAR)) {
            star_copy = advance(p);
            star_tok = &star_copy;
            if (seen_star) error_at(p, star_tok, "'*' may appear only once in a parameter list");
            seen_star = true;
            if (!at(p, PY_TOK_NAME)) {
                bare_star = true;
                if (!accept(p, PY_TOK_COMMA)) break;
                continue;
            }
            k = PY_PARAM_VARARGS;
        } else if (at(p, PY_TOK_DSTAR)) {
            skip(p);
            k = PY_PARAM_KWARGS;
            seen_kwargs = true;
        }
        if (!at(p, PY_TOK_NAME)) error_expected(p, "parameter name", NULL);
        PyToken name = advance(p);
        PyParam *prm = ARENA_NEW(p->a, PyParam);
        prm->name = name.str;
        prm->loc = name.loc;
        prm->kind = k;
        if (annotations && accept(p, PY_TOK_COLON)) prm->annotation = parse_expression(p);
        if (accept(p, PY_TOK_ASSIGN)) {
            if (k == PY_PARAM_VARARGS || k == PY_PARAM_KWARGS)
                error_at(p, &name, "var-%s parameter cannot have a default value",
                         k == PY_PARAM_VARARGS ? "positional" : "keyword");
            prm->default_value = parse_expression(p);
            if (k != PY_PARAM_KWONLY) seen_default = true;
        } else if (seen_default && (k == PY_PARAM_NORMAL)) {
            error_at(p, &name, "parameter without a default follows parameter with a default");
        }
        if (k == PY_PARAM_VARARGS || k == PY_PARAM_KWONLY) bare_star = false;
        /* (names are interned: a bit per name's address, and a scan for a
         * name only where its bit was set by one before) */
        uint64_t bit = UINT64_C(1) << ((uintptr_t)prm->name >> 4 & 63);
        if (seen_names & bit)
            for (int i = m; i < p->stack.len && i < m + 256; i++)
                if (((PyParam *)p->stack.data[i])->name == prm->name)
                    error_at(p, &name, "duplicate parameter '%s' in function definition", prm->name);
        seen_names |= bit;
        push(p, prm);
        if (!accept(p, PY_TOK_COMMA)) break;
    }
    if (bare_star) error_at(p, star_tok, "named parameters must follow bare '*'");
    int n;
    void **items = take(p, m, &n);
    PyParamList l = {n ? ARENA_ARRAY(p->a, PyParam, n) : NULL, n};
    for (int i = 0; i < n; i++) l.items[i] = *(PyParam *)items[i];
    return l;
}

/* ---- statements --------------------------------------------------------------------- */

static void parse_statement(Parser *p);
static void parse_simple_stmts(Parser *p);
static void parse_guarded_statements(Parser *p, bool module);

/* Skips what is left of a bad statement: to the end of its line and over
 * the indented block that follows it (the body of a broken header), or over
 * a whole unexpected indented block. */
static void recover(Parser *p) {
    int depth = 0;
    for (;;) {
        switch (kind(p)) {
        case PY_TOK_EOF: return;
        case PY_TOK_INDENT: depth++; break;
        case PY_TOK_DEDENT:
            if (depth == 0) return;
            skip(p);
            if (--depth == 0) return;
            continue;
        case PY_TOK_NEWLINE:
            skip(p);
            if (depth == 0 && !at(p, PY_TOK_INDENT)) return;
            continue;
        default: break;
        }
        skip(p);
    }
}

/* block: NEWLINE INDENT statement+ DEDENT | simple_stmts
 * `what` names the header for "expected an indented block after ...". */
static PyBlock parse_block(Parser *p, const char *what, int header_line) {
    int m = mark(p);
    if (!at(p, PY_TOK_NEWLINE)) {
        parse_simple_stmts(p); /* a body on the header's line */
        return take_block(p, m);
    }
    skip(p);
    if (!at(p, PY_TOK_INDENT)) {
        const PyToken *t = tok(p);
        if (reportable(p, t))
            diag_report(p->de, DIAG_ERROR, t->loc, t->len ? (int)t->len : 1,
                        "expected an indented block after %s on line %d", what, header_line);
        return take_block(p, m);
    }
    skip(p);
    parse_guarded_statements(p, false);
    accept(p, PY_TOK_DEDENT);
    return take_block(p, m);
}

/* ':' block, for a compound statement's clause. */
static PyBlock parse_suite(Parser *p, const PyToken *header, const char *colon_ctx, const char *what) {
    expect(p, PY_TOK_COLON, colon_ctx);
    return parse_block(p, what, header->loc.line);
}

static const char *expr_description(const PyExpr *e) {
    switch (e->kind) {
    case PY_EXPR_CALL: return "function call";
    case PY_EXPR_INT: case PY_EXPR_FLOAT: case PY_EXPR_IMAG: case PY_EXPR_STR: return "literal";
    case PY_EXPR_NONE: return "None";
    case PY_EXPR_TRUE: return "True";
    case PY_EXPR_FALSE: return "False";
    case PY_EXPR_ELLIPSIS: return "ellipsis";
    case PY_EXPR_COMPARE: return "comparison";
    case PY_EXPR_IFEXP: return "conditional expression";
    case PY_EXPR_LAMBDA: return "lambda";
    case PY_EXPR_DICT: return "dict literal";
    case PY_EXPR_SET: return "set display";
    case PY_EXPR_LISTCOMP: return "list comprehension";
    case PY_EXPR_SETCOMP: return "set comprehension";
    case PY_EXPR_DICTCOMP: return "dict comprehension";
    case PY_EXPR_GENEXP: return "generator expression";
    case PY_EXPR_YIELD: case PY_EXPR_YIELD_FROM: return "yield expression";
    case PY_EXPR_NAMED: return "named expression";
    case PY_EXPR_BOOL: case PY_EXPR_BINARY: case PY_EXPR_UNARY: return "expression";
    default: return "expression";
    }
}

/* Checks that e can be assigned to (verb "assign to") or deleted. */
static void check_target(Parser *p, const PyExpr *e, const char *verb, bool allow_star) {
    switch (e->kind) {
    case PY_EXPR_NAME: case PY_EXPR_ATTR: case PY_EXPR_SUBSCRIPT: return;
    case PY_EXPR_TUPLE: case PY_EXPR_LIST:
        for (int i = 0; i < e->seq.elts.len; i++) check_target(p, e->seq.elts.items[i], verb, allow_star);
        return;
    case PY_EXPR_STARRED:
        if (!allow_star) error_expr(p, e, "cannot %s starred expression", verb);
        check_target(p, e->value, verb, false);
        return;
    default: error_expr(p, e, "cannot %s %s", verb, expr_description(e));
    }
}

/* dotted_name: NAME ('.' NAME)* */
static const char *parse_dotted_name(Parser *p, const char *context) {
    if (!at(p, PY_TOK_NAME)) error_expected(p, "module name", context);
    StrBuf *sb = &p->sb;
    sb->len = 0;
    PyToken t = advance(p);
    sb_puts(sb, t.str);
    while (at(p, PY_TOK_DOT)) {
        skip(p);
        if (!at(p, PY_TOK_NAME)) error_expected(p, "name", "after '.' in module name");
        t = advance(p);
        sb_putc(sb, '.');
        sb_puts(sb, t.str);
    }
    return intern_n(p->in, sb->data, sb->len);
}

static void take_aliases(Parser *p, int m, PyStmt *s) {
    int n;
    void **items = take(p, m, &n);
    s->import.names = ARENA_ARRAY(p->a, PyAlias, n);
    s->import.len = n;
    for (int i = 0; i < n; i++) s->import.names[i] = *(PyAlias *)items[i];
}

/* import_name: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])* */
static PyStmt *parse_import(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_IMPORT, &kw);
    int m = mark(p);
    do {
        PyAlias *a = ARENA_NEW(p->a, PyAlias);
        a->loc = tok(p)->loc;
        a->name = parse_dotted_name(p, "after 'import'");
        if (accept(p, PY_TOK_KW_AS)) a->asname = expect(p, PY_TOK_NAME, "after 'as'").str;
        push(p, a);
    } while (accept(p, PY_TOK_COMMA));
    take_aliases(p, m, s);
    return s;
}

/* import_from: 'from' ('.' | '...')* dotted_name 'import' import_from_targets
 *            | 'from' ('.' | '...')+ 'import' import_from_targets
 * import_from_targets: '(' names [','] ')' | names | '*'
 * names: NAME ['as' NAME] (',' NAME ['as' NAME])* */
static PyStmt *parse_from_import(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_IMPORT_FROM, &kw);
    for (;;) {
        if (accept(p, PY_TOK_DOT)) s->import.level++;
        else if (accept(p, PY_TOK_ELLIPSIS)) s->import.level += 3;
        else break;
    }
    if (s->import.level == 0 || at(p, PY_TOK_NAME)) s->import.module = parse_dotted_name(p, "after 'from'");
    expect(p, PY_TOK_KW_IMPORT, "after module name");
    int m = mark(p);
    if (at(p, PY_TOK_STAR)) {
        PyToken star = advance(p);
        PyAlias *a = ARENA_NEW(p->a, PyAlias);
        a->name = intern(p->in, "*");
        a->loc = star.loc;
        push(p, a);
    } else {
        PyToken open;
        bool paren = at(p, PY_TOK_LPAREN);
        if (paren) open = advance(p);
        do {
            if (paren && at(p, PY_TOK_RPAREN)) break;
            if (!at(p, PY_TOK_NAME)) error_expected(p, "name", "to import");
            PyToken name = advance(p);
            PyAlias *a = ARENA_NEW(p->a, PyAlias);
            a->name = name.str;
            a->loc = name.loc;
            if (accept(p, PY_TOK_KW_AS)) a->asname = expect(p, PY_TOK_NAME, "after 'as'").str;
            push(p, a);
        } while (accept(p, PY_TOK_COMMA));
        if (paren) expect_close(p, &open, PY_TOK_RPAREN, "after imported names");
    }
    take_aliases(p, m, s);
    return s;
}

/* global_stmt: 'global' NAME (',' NAME)*    nonlocal_stmt: 'nonlocal' NAME (',' NAME)* */
static PyStmt *parse_names_stmt(Parser *p, PyStmtKind k) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, k, &kw);
    int m = mark(p);
    do {
        if (!at(p, PY_TOK_NAME)) error_expected(p, "name", k == PY_STMT_GLOBAL ? "after 'global'" : "after 'nonlocal'");
        push(p, (void *)advance(p).str);
    } while (accept(p, PY_TOK_COMMA));
    s->names.names = (const char **)take(p, m, &s->names.len);
    return s;
}

/* expr_stmt: star_expressions ':' expression ['=' (yield_expr | star_expressions)]
 *          | star_expressions augassign (yield_expr | star_expressions)
 *          | (star_expressions '=')* (yield_expr | star_expressions) */
static PyStmt *parse_expr_stmt(Parser *p) {
    Loc loc = tok(p)->loc;
    size_t off = tok(p)->off;
    PyExpr *e = at(p, PY_TOK_KW_YIELD) ? parse_yield(p) : parse_star_expressions(p);
    PyTokKind k = kind(p);
    if (k == PY_TOK_COLON) {
        skip(p);
        if (e->kind != PY_EXPR_NAME && e->kind != PY_EXPR_ATTR && e->kind != PY_EXPR_SUBSCRIPT)
            error_expr(p, e, "only a single target (not %s) can be annotated",
                       e->kind == PY_EXPR_TUPLE ? "a tuple" : e->kind == PY_EXPR_LIST ? "a list" : expr_description(e));
        PyStmt *s = stmt_at(p, PY_STMT_ANNASSIGN, loc, off);
        s->ann.target = e;
        s->ann.annotation = parse_expression(p);
        if (accept(p, PY_TOK_ASSIGN))
            s->ann.value = at(p, PY_TOK_KW_YIELD) ? parse_yield(p) : parse_star_expressions(p);
        return s;
    }
    if (k >= PY_TOK_PLUS_ASSIGN && k <= PY_TOK_AMP_ASSIGN) {
        if (e->kind != PY_EXPR_NAME && e->kind != PY_EXPR_ATTR && e->kind != PY_EXPR_SUBSCRIPT)
            error_expr(p, e, "'%s' is an illegal target for augmented assignment", expr_description(e));
        skip(p);
        PyStmt *s = stmt_at(p, PY_STMT_AUGASSIGN, loc, off);
        s->aug.target = e;
        s->aug.op = (PyBinOp)(k - PY_TOK_PLUS_ASSIGN);
        s->aug.value = at(p, PY_TOK_KW_YIELD) ? parse_yield(p) : parse_star_expressions(p);
        return s;
    }
    if (k == PY_TOK_ASSIGN) {
        int m = mark(p);
        push(p, e);
        while (accept(p, PY_TOK_ASSIGN))
            push(p, at(p, PY_TOK_KW_YIELD) ? parse_yield(p) : parse_star_expressions(p));
        PyStmt *s = stmt_at(p, PY_STMT_ASSIGN, loc, off);
        s->assign.value = vec_pop(&p->stack);
        s->assign.targets = take_exprs(p, m);
        for (int i = 0; i < s->assign.targets.len; i++)
            check_target(p, s->assign.targets.items[i], "assign to", true);
        return s;
    }
    PyStmt *s = stmt_at(p, PY_STMT_EXPR, loc, off);
    s->expr.value = e;
    return s;
}

/*
 * simple_stmt: assignment | star_expressions | 'return' [star_expressions]
 *            | import_name | import_from | 'raise' [expression ['from' expression]]
 *            | 'pass' | 'del' del_targets | yield_expr | 'assert' expression [',' expression]
 *            | 'break' | 'continue' | 'global' NAME (',' NAME)* | 'nonlocal' NAME (',' NAME)*
 */
static PyStmt *parse_simple_stmt(Parser *p) {
    PyToken t = *tok(p);
    PyStmt *s;
    switch (t.kind) {
    case PY_TOK_KW_PASS: skip(p); s = new_stmt(p, PY_STMT_PASS, &t); break;
    case PY_TOK_KW_BREAK: skip(p); s = new_stmt(p, PY_STMT_BREAK, &t); break;
    case PY_TOK_KW_CONTINUE: skip(p); s = new_stmt(p, PY_STMT_CONTINUE, &t); break;
    case PY_TOK_KW_RETURN:
        skip(p);
        s = new_stmt(p, PY_STMT_RETURN, &t);
        if (starts_expr(kind(p))) s->expr.value = parse_star_expressions(p);
        break;
    case PY_TOK_KW_IMPORT: s = parse_import(p); break;
    case PY_TOK_KW_FROM: s = parse_from_import(p); break;
    case PY_TOK_KW_GLOBAL: s = parse_names_stmt(p, PY_STMT_GLOBAL); break;
    case PY_TOK_KW_NONLOCAL: s = parse_names_stmt(p, PY_STMT_NONLOCAL); break;
    case PY_TOK_KW_RAISE:
        skip(p);
        s = new_stmt(p, PY_STMT_RAISE, &t);
        if (starts_expr(kind(p))) {
            s->raise.exc = parse_expression(p);
            if (accept(p, PY_TOK_KW_FROM)) s->raise.cause = parse_expression(p);
        }
        break;
    case PY_TOK_KW_ASSERT:
        skip(p);
        s = new_stmt(p, PY_STMT_ASSERT, &t);
        s->assertion.test = parse_expression(p);
        if (accept(p, PY_TOK_COMMA)) s->assertion.msg = parse_expression(p);
        break;
    case PY_TOK_KW_DEL: {
        skip(p);
        s = new_stmt(p, PY_STMT_DEL, &t);
        int m = mark(p);
        do {
            PyExpr *e = parse_bitwise_or(p);
            check_target(p, e, "delete", false);
            push(p, e);
        } while (accept(p, PY_TOK_COMMA) && starts_expr(kind(p)));
        s->del.targets = take_exprs(p, m);
        break;
    }
    default: s = parse_expr_stmt(p); break;
    }
    return finish_stmt(p, s);
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void parse_simple_stmts(Parser *p) {
    for (;;) {
        push(p, parse_simple_stmt(p));
        if (!accept(p, PY_TOK_SEMI) || at(p, PY_TOK_NEWLINE)) break;
    }
    if (!accept(p, PY_TOK_NEWLINE)) error_expected(p, "end of line", "after statement");
}

/* decorators: ('@' named_expression NEWLINE)+ */
static PyExprList parse_decorators(Parser *p) {
    int m = mark(p);
    while (at(p, PY_TOK_AT)) {
        skip(p);
        push(p, parse_named_expression(p));
        if (!accept(p, PY_TOK_NEWLINE)) error_expected(p, "end of line", "after decorator");
    }
    return take_exprs(p, m);
}

/* What follows a def's body: where its text ends, its docstring. */
static void finish_def(Parser *p, PyFunc *f) {
    f->src_end = p->prev_end > f->src_start ? p->prev_end : f->src_start;
    if (f->body.len && f->body.items[0]->kind == PY_STMT_EXPR) {
        PyExpr *d = f->body.items[0]->expr.value;
        if (d->kind == PY_EXPR_STR && !(d->str.flags & (PY_STR_FSTRING | PY_STR_BYTES)))
            f->docstring = d->str.data;
    }
}

/* The state py_func_body or py_func_params needs to parse a skipped text
 * later. */
typedef struct PyLazyText {
    Arena *a;
    Interner *in;
    DiagEngine *de;
    PyNameCache *names; /* the module parse's, shared by every later parse of the file */
    const char *file, *src;
    size_t src_len; /* the whole text's */
    /* the body: just after the header's ':' up to the next top-level line;
     * the parameters: just after the '(' up to just after the ')' */
    size_t off, end;
    size_t line_start;      /* of the line holding off */
    int line, header_line;
    Loc open;               /* the parameters' '(' */
} PyLazyText;

/* The end of the last byte in [from, to) that is not white space or a
 * newline (else `sig`, unchanged). skim_body calls it on stretches of code
 * that hold no comment, so that is where the last token on them ends. */
static size_t content_end(const char *s, size_t from, size_t to, size_t sig) {
    size_t i = to;
    while (i > from && (s[i - 1] == ' ' || s[i - 1] == '\n' || s[i - 1] == '\t' || s[i - 1] == '\r' ||
                        s[i - 1] == '\f'))
        i--;
    return i > from ? i : sig;
}

#if defined(__SSE2__)
/* A bit per byte of the 16 at u that may be one the skims look at, by two
 * ranges and a compare: '"' to ')' (with '$', '%' and '&'), '[' to ']'
 * with bit 5 cleared (so '\\', '{', '|' and '}' too), '\n'. */
static ALWAYS_INLINE unsigned skim_bits16(const unsigned char *u) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)u);
    __m128i q = _mm_sub_epi8(x, _mm_set1_epi8('"'));
    __m128i b = _mm_sub_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xdf)), _mm_set1_epi8('['));
    __m128i quote_to_paren = _mm_cmpeq_epi8(_mm_min_epu8(q, _mm_set1_epi8(')' - '"')), q);
    __m128i brackets = _mm_cmpeq_epi8(_mm_min_epu8(b, _mm_set1_epi8(']' - '[')), b);
    __m128i nl = _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote_to_paren, brackets), nl));
}
#endif

/* What a byte is to the skims: brackets are counted, newlines may end a
 * body, the rest of the bytes they look at start a comment, a string or a
 * line join. */
enum { SKIM_OTHER, SKIM_OPEN, SKIM_CLOSE, SKIM_NEWLINE, SKIM_STOP };
static const unsigned char skim_class[256] = {
    ['\n'] = SKIM_NEWLINE, ['#'] = SKIM_STOP, ['\\'] = SKIM_STOP,  ['\''] = SKIM_STOP, ['"'] = SKIM_STOP,
    ['('] = SKIM_OPEN,     ['['] = SKIM_OPEN, ['{'] = SKIM_OPEN,   [')'] = SKIM_CLOSE, [']'] = SKIM_CLOSE,
    ['}'] = SKIM_CLOSE};

/* From pos, the first byte that may be one the skims look at ('\n', '#',
 * '\\', a quote, a bracket; skim_bits16's superset where SSE2 is there),
 * or len. */
static size_t skim_to_special(const unsigned char *u, size_t pos, size_t len) {
#if defined(__SSE2__)
    for (; pos + 16 <= len; pos += 16) {
        unsigned bits = skim_bits16(u + pos);
        if (bits) return pos + (size_t)__builtin_ctz(bits);
    }
#endif
    while (pos < len && skim_class[u[pos]] == SKIM_OTHER) pos++;
    return pos;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* skim_window by 32 bytes at a time, where the machine has AVX2 (skim_body
 * asks): the classification is most of the skim's work. */
#define SKIM_AVX2 1
__attribute__((target("avx2"))) static inline uint32_t skim_bits32_avx2(const unsigned char *u) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)u);
    __m256i q = _mm256_sub_epi8(x, _mm256_set1_epi8('"'));
    __m256i b = _mm256_sub_epi8(_mm256_and_si256(x, _mm256_set1_epi8((char)0xdf)), _mm256_set1_epi8('['));
    __m256i quote_to_paren = _mm256_cmpeq_epi8(_mm256_min_epu8(q, _mm256_set1_epi8(')' - '"')), q);
    __m256i brackets = _mm256_cmpeq_epi8(_mm256_min_epu8(b, _mm256_set1_epi8(']' - '[')), b);
    __m256i nl = _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n'));
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(quote_to_paren, brackets), nl));
}
/* (the two halves written out: as a loop, gcc kept it one, with a shift
 * by a register and the constants reloaded) */
__attribute__((target("avx2"))) static inline uint64_t skim_window_avx2(const unsigned char *u) {
    return (uint64_t)skim_bits32_avx2(u) | (uint64_t)skim_bits32_avx2(u + 32) << 32;
}
#endif

/* A bit per byte of the 64 at u that skim_body looks at: a bracket, a
 * newline, a quote, '#' or '\\', and '$', '%', '&', '|' (a superset of the
 * bytes whose skim_class is not OTHER). */
static ALWAYS_INLINE uint64_t skim_window(const unsigned char *u) {
#if defined(__SSE2__)
    return (uint64_t)skim_bits16(u) | (uint64_t)skim_bits16(u + 16) << 16 | (uint64_t)skim_bits16(u + 32) << 32 |
           (uint64_t)skim_bits16(u + 48) << 48;
#else
    uint64_t bits = 0;
    for (int i = 0; i < 64; i++)
        if (skim_class[u[i]] != SKIM_OTHER) bits |= (uint64_t)1 << i;
    return bits;
#endif
}

/* Where the string whose quote is at s[pos] ends: just after its closing
 * quote, or at the newline that ends a short string left open (the lexer
 * ends it there too); SIZE_MAX where the text ends first. *lines counts
 * the newlines inside; *open_nl is the last of them in a short string left
 * open (else SIZE_MAX). The rules are the lexer's: a backslash protects the
 * next character (a CR LF pair as one). */
static size_t skim_string(const char *s, size_t len, size_t pos, int *lines, size_t *open_nl) {
    char c = s[pos];
    bool triple = pos + 2 < len && s[pos + 1] == c && s[pos + 2] == c;
    size_t nl = SIZE_MAX;
    pos += triple ? 3 : 1;
    while (pos < len) {
        char d = s[pos];
        if (d != c && d != '\\' && d != '\n') {
            pos++;
            continue;
        }
        if (d == c && (!triple || (pos + 2 < len && s[pos + 1] == c && s[pos + 2] == c)))
            return pos + (triple ? 3 : 1);
        if (d == '\n') {
            if (!triple) { /* unterminated: the lexer ends it here too */
                *open_nl = nl;
                return pos;
            }
            ++*lines;
        } else if (d == '\\' && pos + 1 < len) {
            pos++;
            if (s[pos] == '\r' && pos + 1 < len && s[pos + 1] == '\n') pos++;
            if (s[pos] == '\n') ++*lines, nl = pos;
        }
        pos++;
    }
    return SIZE_MAX;
}

/* Where the body of a module-level def ends, found without lexing: from pos
 * (just after the header's ':') to the start of the first line that begins
 * in column 0 outside brackets, strings and line continuations, or the end
 * of the text. The rules are the lexer's: newlines are "\n" (a lone CR is
 * white space), a backslash protects the next character in every string,
 * a short string ends at its line, comments run to the end of the line.
 * *last is the end of the last character that is not white space or
 * comment (where the body's last token ends); *nlines counts the newlines
 * crossed. Returns SIZE_MAX where the scan cannot be sure of what the lexer
 * would do (an unclosed bracket or string at the end of the text, a form
 * feed or lone CR starting a line): the caller parses the body then.
 *
 * The text goes by 64-byte windows, classified at once (skim_window): the
 * brackets and newlines are stepped through by their bits, the rest of the
 * code is not looked at again, and a quote, comment or backslash is scanned
 * on its own, after which the window goes on past it (or a new one starts
 * where it ended). Where the last token ends is found when it is asked
 * for: the text since the last comment or line join is all code, so it is
 * its last byte that is not white space (content_end). */
static ALWAYS_INLINE size_t skim_body_with(const char *s, size_t len, size_t pos, size_t *last, int *nlines,
                                           bool avx2) {
    const unsigned char *u = (const unsigned char *)s;
    size_t sig = pos, from = pos; /* [from, pos) is code: no comment, no joined line */
    size_t line = pos;            /* where the line after the last newline outside strings starts */
    int depth = 0, lines = 0;
    unsigned char tail[64];
    while (pos < len) {
        uint64_t bits;
        if (pos + 64 <= len) {
#if defined(SKIM_AVX2)
            bits = avx2 ? skim_window_avx2(u + pos) : skim_window(u + pos);
#else
            bits = skim_window(u + pos);
            (void)avx2;
#endif
        } else { /* the end of the text, padded with bytes skim_window ignores */
            memset(tail, 0, sizeof tail);
            memcpy(tail, u + pos, len - pos);
            bits = skim_window(tail);
        }
        size_t next = pos + 64; /* where the next window starts */
        while (bits) {
            size_t at = pos + (size_t)__builtin_ctzll(bits), to;
            bits &= bits - 1;
            switch (skim_class[u[at]]) {
            case SKIM_OPEN: depth++; continue;
            case SKIM_CLOSE: depth -= depth > 0; continue;
            case SKIM_OTHER: continue; /* ('$', '%', '&', '|') */
            case SKIM_NEWLINE: {
                lines++;
                line = ++at; /* the next line's first byte */
                if (depth > 0 || at >= len) continue;
                unsigned char c = u[at];
                if (c == ' ') continue; /* (an indented line, most of them) */
                if (c == '\f' || (c == '\r' && (at + 1 >= len || s[at + 1] != '\n'))) return SIZE_MAX;
                if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '#') { /* column 0 */
                    *last = content_end(s, from, at, sig);
                    *nlines = lines;
                    return at;
                }
                continue;
            }
            default: break; /* a stop */
            }
            switch (s[at]) {
            case '#': { /* to the newline, which is stepped through next */
                sig = content_end(s, from, at, sig);
                const char *end = at + 1 < len ? memchr(s + at + 1, '\n', len - at - 1) : NULL;
                to = end ? (size_t)(end - s) : len;
                if (end) from = to; /* (else the comment is the text's last line: its last token) */
                break;
            }
            case '\\':
                if (at + 1 < len && s[at + 1] == '\n') {
                    to = at + 2;
                } else if (at + 2 < len && s[at + 1] == '\r' && s[at + 2] == '\n') {
                    to = at + 3;
                } else { /* (not a line join: the lexer reports it) */
                    to = at + 1;
                    break;
                }
                sig = content_end(s, from, at, sig);
                from = to;
                lines++;
                break;
            default: { /* a quote */
                size_t open_nl = SIZE_MAX;
                to = skim_string(s, len, at, &lines, &open_nl);
                if (to == SIZE_MAX) return SIZE_MAX;
                if (open_nl != SIZE_MAX) {
                    /* (a short string left open after a line join: the
                     * line-by-line rule takes none of the lines it joins,
                     * nor the line it starts on (which may be joined to
                     * the one before by other strings); only what comes
                     * before that, and after its last join) */
                    sig = content_end(s, from, line > from ? line : from, sig);
                    from = open_nl + 1;
                }
                break;
            }
            }
            if (to >= next) { /* past this window */
                next = to;
                break;
            }
            bits &= ~(uint64_t)0 << (to - pos);
        }
        pos = next;
    }
    if (depth > 0) return SIZE_MAX;
    *last = content_end(s, from, len, sig);
    *nlines = lines;
    return len;
}

static size_t skim_body_sse2(const char *s, size_t len, size_t pos, size_t *last, int *nlines) {
    return skim_body_with(s, len, pos, last, nlines, false);
}
#if defined(SKIM_AVX2)
__attribute__((target("avx2"))) static size_t skim_body_avx2(const char *s, size_t len, size_t pos, size_t *last,
                                                              int *nlines) {
    return skim_body_with(s, len, pos, last, nlines, true);
}
#endif

static size_t skim_body(const char *s, size_t len, size_t pos, size_t *last, int *nlines) {
#if defined(SKIM_AVX2)
    if (__builtin_cpu_supports("avx2")) return skim_body_avx2(s, len, pos, last, nlines);
#endif
    return skim_body_sse2(s, len, pos, last, nlines);
}

/* Where the parameter list of a def ends, found without lexing: from pos
 * (just after its '(') to just after the matching ')', by the lexer's rules
 * for brackets, strings, comments and line joins (as skim_body). *nlines
 * counts the newlines crossed and *line_start becomes the start of the line
 * the list ends on. Returns SIZE_MAX where the lexer would report an error
 * on the way (a mismatched bracket, an unterminated string, a backslash not
 * joining lines, the end of the text) or the brackets nest deeply: the
 * caller parses the list then, and reports it. */
static size_t skim_params(const char *s, size_t len, size_t pos, int *nlines, size_t *line_start) {
    char open[32]; /* the brackets open inside the list */
    int depth = 0, lines = 0;
    size_t ls = *line_start;
    while (pos < len) {
        char c = s[pos];
        switch (c) {
        case '\n':
            lines++;
            ls = ++pos;
            continue;
        case '#': {
            const char *nl = memchr(s + pos, '\n', len - pos);
            if (!nl) return SIZE_MAX;
            pos = (size_t)(nl - s);
            continue;
        }
        case '\\': /* the newline it joins is counted next */
            if (pos + 1 < len && s[pos + 1] == '\n') pos++;
            else if (pos + 2 < len && s[pos + 1] == '\r' && s[pos + 2] == '\n') pos += 2;
            else return SIZE_MAX;
            continue;
        case '(': case '[': case '{':
            if (depth == (int)sizeof open) return SIZE_MAX;
            open[depth++] = c;
            pos++;
            continue;
        case ')': case ']': case '}':
            if (depth == 0) {
                if (c != ')') return SIZE_MAX;
                *nlines = lines;
                *line_start = ls;
                return pos + 1;
            }
            if ((open[depth - 1] == '(' ? ')' : open[depth - 1] == '[' ? ']' : '}') != c) return SIZE_MAX;
            depth--;
            pos++;
            continue;
        case '\'': case '"': {
            bool triple = pos + 2 < len && s[pos + 1] == c && s[pos + 2] == c;
            pos += triple ? 3 : 1;
            for (;;) {
                if (pos >= len) return SIZE_MAX;
                char d = s[pos];
                if (d == c && (!triple || (pos + 2 < len && s[pos + 1] == c && s[pos + 2] == c))) {
                    pos += triple ? 3 : 1;
                    break;
                }
                if (d == '\\') { /* protects the next character (or CR LF) */
                    pos++;
                    if (pos + 1 < len && s[pos] == '\r' && s[pos + 1] == '\n') pos++;
                    if (pos >= len) return SIZE_MAX;
                    if (s[pos] == '\n') lines++, ls = pos + 1;
                } else if (d == '\n') {
                    if (!triple) return SIZE_MAX;
                    lines++;
                    ls = pos + 1;
                }
                pos++;
            }
            continue;
        }
        default: /* (names, commas, spaces: a run of them at once) */
            pos = skim_to_special((const unsigned char *)s, pos + 1, len);
            continue;
        }
    }
    return SIZE_MAX;
}

/* py_parse_lazy: after a module-level def's '(', records where its
 * parameters are and moves the lexer past their ')' (they stay unparsed
 * until py_func_params: a kernel's file holds many functions, and the
 * parameter lists, with their annotations and defaults, were most of what
 * a compile parsed of the ones it does not call). False where they must be
 * parsed now, as skip_body. */
static bool skip_params(Parser *p, PyFunc *f, const PyToken *open) {
    PyLexer *lx = &p->lx;
    if (p->cur != p->end || lx->nindents != 0 || lx->nbrackets != 1 || lx->pending_dedents != 0 || lx->at_eof)
        return false;
    int nlines;
    size_t line_start = lx->line_start;
    size_t end = skim_params(p->src, p->len, lx->pos, &nlines, &line_start);
    if (end == SIZE_MAX) return false;
    PyLazyText *z = ARENA_NEW(p->a, PyLazyText);
    *z = (PyLazyText){.a = p->a, .in = p->in, .de = p->de, .names = lx->names, .file = p->file, .src = p->src,
                      .src_len = p->len, .off = lx->pos, .end = end, .line_start = lx->line_start, .line = lx->line,
                      .header_line = f->loc.line, .open = open->loc};
    f->lazy_params = z;
    p->prev_end = end;
    lx->pos = end;
    lx->line += nlines;
    lx->line_start = line_start;
    lx->nbrackets = 0;
    return true;
}

/* py_parse_lazy: after a module-level def's ':', records where its body is
 * and moves the lexer past it (the body stays unparsed until py_func_body).
 * False where the body must be parsed now: a def nested in a block, tokens
 * already looked ahead, text the skim is unsure of. */
static bool skip_body(Parser *p, PyFunc *f) {
    PyLexer *lx = &p->lx;
    if (p->cur != p->end || lx->nindents != 0 || lx->nbrackets != 0 || lx->pending_dedents != 0 || lx->at_eof)
        return false;
    size_t last;
    int nlines;
    size_t end = skim_body(p->src, p->len, lx->pos, &last, &nlines);
    if (end == SIZE_MAX) return false;
    PyLazyText *z = ARENA_NEW(p->a, PyLazyText);
    *z = (PyLazyText){.a = p->a, .in = p->in, .de = p->de, .names = lx->names, .file = p->file, .src = p->src,
                      .src_len = p->len, .off = lx->pos, .end = end, .line_start = lx->line_start, .line = lx->line,
                      .header_line = f->loc.line};
    f->lazy = z;
    f->src_end = last > f->src_start ? last : f->src_start;
    if (last > p->prev_end) p->prev_end = last;
    lx->pos = lx->line_start = end;
    lx->line += nlines;
    lx->at_line_start = true;
    lx->line_has_tokens = false;
    return true;
}

static void parser_buffer_init(Parser *p, int cap) {
    p->cap = cap;
    p->toks = tc_malloc(sizeof(PyToken) * (size_t)cap);
    p->cur = p->end = p->toks;
    vec_reserve(&p->stack, 64); /* (a parameter list or a block's statements: grown from 8, moved twice) */
}

/* A lexer at the start of a skipped text (params: inside the parameters'
 * parentheses, where newlines join lines). */
static void lazy_lexer_start(Parser *p, const PyLazyText *z, bool params) {
    py_lexer_init(&p->lx, z->a, z->in, z->de, z->file, z->src, z->end);
    p->lx.names = z->names;
    p->lx.avail = z->src_len;
    p->lx.pos = z->off;
    p->lx.line = z->line;
    p->lx.line_start = z->line_start;
    p->lx.at_line_start = false;
    p->lx.line_has_tokens = true; /* the header's tokens */
    if (params) {
        p->lx.brackets[0].ch = '(';
        p->lx.brackets[0].loc = z->open;
        p->lx.nbrackets = 1;
    }
}

/* A parser for a skipped text, its tokens lexed in one batch (a tight
 * loop; the parser then only steps through them) when the lexer reports
 * nothing in them; otherwise its lexer where the text starts. */
static void lazy_parser_init(Parser *p, const PyLazyText *z, bool params) {
    memset(p, 0, offsetof(Parser, lx)); /* (the lexer clears its own fields) */
    p->a = z->a;
    p->in = z->in;
    p->de = z->de;
    p->file = z->file;
    p->src = z->src;
    p->len = z->end;
    p->prev_end = z->off;
    /* (a token per three bytes is more than code has; past 64k tokens the
     * buffer doubles as it fills, so text that is mostly a docstring or
     * comments does not take room for tokens it does not have) */
    size_t guess = (z->end - z->off) / 3 + 16;
    parser_buffer_init(p, guess < 65536 ? (int)guess : 65536);
    lazy_lexer_start(p, z, params);
    p->lx.dry = true;
    int n = 0;
    for (;;) {
        n += py_lexer_lex_batch(&p->lx, p->toks + n, p->cap - n);
        if (p->toks[n - 1].kind == PY_TOK_EOF || p->lx.failed || p->cap > INT_MAX / 2 / (int)sizeof(PyToken))
            break;
        p->cap *= 2;
        p->toks = tc_realloc(p->toks, sizeof(PyToken) * (size_t)p->cap);
    }
    p->end = p->toks + n;
    p->cur = p->toks;
    if (p->end[-1].kind != PY_TOK_EOF || p->lx.failed) { /* lexed as parsed, from the start */
        p->end = p->cur;
        py_lexer_free(&p->lx);
        lazy_lexer_start(p, z, params);
    }
    p->lx.dry = false;
}

static void lazy_parser_free(Parser *p) {
    vec_free(&p->stack);
    sb_free(&p->sb);
    tc_free(p->toks);
    py_lexer_free(&p->lx);
}

const PyParamList *py_func_params(const PyFunc *cf) {
    PyFunc *f = (PyFunc *)cf;
    PyLazyText *z = f->lazy_params;
    if (!z) return &f->params;
    f->lazy_params = NULL;
    Parser p;
    lazy_parser_init(&p, z, true);
    jmp_buf jb;
    p.jb = &jb;
    if (setjmp(jb) == 0) {
        f->params = parse_params(&p, PY_TOK_RPAREN, true);
        expect_close(&p, &(PyToken){.kind = PY_TOK_LPAREN, .loc = z->open, .len = 1}, PY_TOK_RPAREN,
                     "after parameters");
    } else {
        f->params = (PyParamList){0}; /* the error is reported */
    }
    lazy_parser_free(&p);
    return &f->params;
}

const PyBlock *py_func_body(const PyFunc *cf) {
    PyFunc *f = (PyFunc *)cf;
    PyLazyText *z = f->lazy;
    if (!z) return &f->body;
    f->lazy = NULL;
    Parser p;
    lazy_parser_init(&p, z, false);
    jmp_buf jb;
    p.jb = &jb;
    if (setjmp(jb) == 0) f->body = parse_block(&p, "function definition", z->header_line);
    else f->body = (PyBlock){0}; /* the error is reported */
    finish_def(&p, f);
    lazy_parser_free(&p);
    return &f->body;
}

/* A def's node, from its 'def' token on. */
static PyStmt *def_begin(Parser *p, const PyToken *kw, PyExprList decorators, size_t decorated_start) {
    PyStmt *s = new_stmt(p, PY_STMT_DEF, kw);
    PyFunc *f = ARENA_NEW(p->a, PyFunc);
    s->func = f;
    f->loc = kw->loc;
    f->decorators = decorators;
    f->src_start = kw->off;
    f->decorated_start = decorators.len ? decorated_start : kw->off;
    return s;
}

/* The rest of a def after the '(' of its parameters. */
static PyStmt *def_end(Parser *p, PyStmt *s, const PyToken *kw, const PyToken *open) {
    PyFunc *f = s->func;
    if (!p->lazy || !skip_params(p, f, open)) {
        f->params = parse_params(p, PY_TOK_RPAREN, true);
        expect_close(p, open, PY_TOK_RPAREN, "after parameters");
    }
    if (p->lazy && p->cur == p->end && p->lx.pos + 1 < p->len && p->src[p->lx.pos] == ':' &&
        p->src[p->lx.pos + 1] != '=') {
        /* `):` as skip_params leaves most defs: the ':' taken as the
         * lexer and expect would, without a token */
        p->prev_end = ++p->lx.pos;
    } else {
        if (accept(p, PY_TOK_ARROW)) f->returns = parse_expression(p);
        if (p->lazy) expect(p, PY_TOK_COLON, "after function signature");
    }
    s->off = f->decorated_start;
    if (p->lazy) {
        if (skip_body(p, f)) return s;
        f->body = parse_block(p, "function definition", kw->loc.line);
    } else {
        f->body = parse_suite(p, kw, "after function signature", "function definition");
    }
    finish_def(p, f);
    return s;
}

/* function_def: [decorators] 'def' NAME '(' [parameters] ')' ['->' expression] ':' block */
static PyStmt *parse_def(Parser *p, PyExprList decorators, size_t decorated_start) {
    PyToken kw = advance(p);
    PyStmt *s = def_begin(p, &kw, decorators, decorated_start);
    if (!at(p, PY_TOK_NAME)) error_expected(p, "function name", "after 'def'");
    PyToken name = advance(p);
    s->func->name = name.str;
    s->func->name_loc = name.loc;
    PyToken open = expect(p, PY_TOK_LPAREN, "after function name");
    return def_end(p, s, &kw, &open);
}

/* From s[q], past spaces. */
static size_t past_spaces(const char *s, size_t q, size_t len) {
    while (q < len && s[q] == ' ') q++;
    return q;
}

/* What an ASCII identifier is made of: 2, a byte it may start with
 * ([A-Za-z_]); 1, a digit. */
static const unsigned char ident_byte[256] = {
    ['0'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['A'] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    ['_'] = 2,
    ['a'] = 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* The end of the ASCII identifier at s[q] (q where there is none). */
static size_t ident_end(const char *s, size_t q, size_t len) {
    const unsigned char *u = (const unsigned char *)s;
    if (q >= len || ident_byte[u[q]] != 2) return q;
    for (q++; q < len && ident_byte[u[q]]; q++) {}
    return q;
}

/* py_parse_lazy, at a module-level '@' or 'def' in column 0 (the one token
 * looked at): the header of a def as most are written, read from its bytes
 * (decorators that are a name or a dotted pair alone on their lines, then
 * `def NAME(`), with the nodes the rules make and the lexer left where it
 * would be after the '('. Of a function that is only skimmed, the header's
 * tokens were most of what a compile still paid for. NULL, with nothing
 * changed, for any other text: the rules take it (and its errors). */
enum { QUICK_DECORATORS = 8 };
static PyStmt *quick_def(Parser *p) {
    PyLexer *lx = &p->lx;
    const PyToken *first = p->cur;
    if (p->end - p->cur != 1 || first->loc.col != 1 || lx->nindents != 0 || lx->nbrackets != 0 ||
        lx->pending_dedents != 0)
        return NULL;
    const char *s = p->src;
    size_t len = p->len, q = first->off;
    struct {
        size_t at, name[2], end[2];
        int parts;
    } dec[QUICK_DECORATORS];
    int ndec = 0;
    while (q < len && s[q] == '@') { /* '@' NAME ['.' NAME] NEWLINE */
        if (ndec == QUICK_DECORATORS) return NULL;
        dec[ndec].at = q;
        q = past_spaces(s, q + 1, len);
        for (int k = 0;; k++) {
            size_t e = ident_end(s, q, len);
            if (e == q) return NULL;
            dec[ndec].name[k] = q;
            dec[ndec].end[k] = e;
            dec[ndec].parts = k + 1;
            q = past_spaces(s, e, len);
            if (k == 1 || q >= len || s[q] != '.') break;
            q = past_spaces(s, q + 1, len);
        }
        if (q >= len || s[q] != '\n') return NULL;
        q++;
        ndec++;
    }
    size_t kw_at = q; /* 'def' NAME '(' */
    if (len - q < 4 || memcmp(s + q, "def ", 4) != 0) return NULL;
    size_t name_at = past_spaces(s, q + 3, len), name_end = ident_end(s, name_at, len);
    if (name_end == name_at) return NULL;
    size_t open_at = past_spaces(s, name_end, len);
    if (open_at >= len || s[open_at] != '(') return NULL;

    /* the words, as the lexer would look them up (in the text's order) */
    const char *words[2 * QUICK_DECORATORS + 1];
    int nw = 0;
    for (int i = 0; i < ndec; i++)
        for (int k = 0; k < dec[i].parts; k++)
            if (py_lexer_word(lx, s + dec[i].name[k], dec[i].end[k] - dec[i].name[k], &words[nw++]) != PY_TOK_NAME)
                return NULL;
    if (py_lexer_word(lx, s + name_at, name_end - name_at, &words[nw]) != PY_TOK_NAME) return NULL;

    /* the nodes parse_decorators (by quick_name) and parse_def make */
    int line = first->loc.line, m = mark(p);
    skip(p);
    nw = 0;
    for (int i = 0; i < ndec; i++, line++) {
        size_t bol = dec[i].at;
        p->prev_end = dec[i].end[0];
        PyExpr *e = new_expr(p, PY_EXPR_NAME, (Loc){lx->file, line, (int)(dec[i].name[0] - bol) + 1}, dec[i].name[0]);
        e->name = words[nw++];
        if (dec[i].parts == 2) {
            p->prev_end = dec[i].end[1];
            PyExpr *a = new_expr(p, PY_EXPR_ATTR, e->loc, e->off);
            a->attr.value = e;
            a->attr.attr = words[nw++];
            a->attr.attr_loc = (Loc){lx->file, line, (int)(dec[i].name[1] - bol) + 1};
            e = a;
        }
        push(p, e);
    }
    PyExprList decorators = take_exprs(p, m);
    PyToken kw = {.kind = PY_TOK_KW_DEF, .loc = {lx->file, line, 1}, .off = kw_at, .len = 3};
    p->prev_end = kw_at + 3;
    PyStmt *st = def_begin(p, &kw, decorators, first->off);
    st->func->name = words[nw];
    st->func->name_loc = (Loc){lx->file, line, (int)(name_at - kw_at) + 1};
    PyToken open = {.kind = PY_TOK_LPAREN, .loc = {lx->file, line, (int)(open_at - kw_at) + 1}, .off = open_at, .len = 1};
    p->prev_end = open_at + 1;
    lx->pos = open_at + 1;
    lx->line = line;
    lx->line_start = kw_at;
    lx->at_line_start = false;
    lx->line_has_tokens = true;
    lx->brackets[0].ch = '(';
    lx->brackets[0].loc = open.loc;
    lx->nbrackets = 1;
    return def_end(p, st, &kw, &open);
}

/* class_def: [decorators] 'class' NAME ['(' [arguments] ')'] ':' block */
static PyStmt *parse_class(Parser *p, PyExprList decorators) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_CLASS, &kw);
    PyClass *c = ARENA_NEW(p->a, PyClass);
    s->cls = c;
    c->loc = kw.loc;
    c->decorators = decorators;
    if (!at(p, PY_TOK_NAME)) error_expected(p, "class name", "after 'class'");
    c->name = advance(p).str;
    if (at(p, PY_TOK_LPAREN)) {
        PyToken open = advance(p);
        parse_arguments(p, &open, &c->bases, &c->keywords, &c->nkeywords);
    }
    c->body = parse_suite(p, &kw, "after class header", "class definition");
    return s;
}

/* if_stmt: 'if' named_expression ':' block ('elif' named_expression ':' block)*
 *          ['else' ':' block] */
static PyStmt *parse_if(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_IF, &kw), *last = s;
    s->cond.test = parse_named_expression(p);
    s->cond.body = parse_suite(p, &kw, "after 'if' condition", "'if' statement");
    while (at(p, PY_TOK_KW_ELIF)) {
        PyToken ekw = advance(p);
        PyStmt *e = new_stmt(p, PY_STMT_IF, &ekw);
        e->cond.is_elif = true;
        e->cond.test = parse_named_expression(p);
        e->cond.body = parse_suite(p, &ekw, "after 'elif' condition", "'elif' statement");
        last->cond.orelse.items = ARENA_ARRAY(p->a, PyStmt *, 1);
        last->cond.orelse.items[0] = e;
        last->cond.orelse.len = 1;
        last = e;
    }
    if (at(p, PY_TOK_KW_ELSE)) {
        PyToken ekw = advance(p);
        last->cond.orelse = parse_suite(p, &ekw, "after 'else'", "'else' clause");
    }
    /* every link of an elif chain ends where the chain ends */
    for (PyStmt *q = s;; q = q->cond.orelse.items[0]) {
        finish_stmt(p, q);
        if (q == last) break;
    }
    return s;
}

/* while_stmt: 'while' named_expression ':' block ['else' ':' block] */
static PyStmt *parse_while(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_WHILE, &kw);
    s->cond.test = parse_named_expression(p);
    s->cond.body = parse_suite(p, &kw, "after 'while' condition", "'while' statement");
    if (at(p, PY_TOK_KW_ELSE)) {
        PyToken ekw = advance(p);
        s->cond.orelse = parse_suite(p, &ekw, "after 'else'", "'else' clause");
    }
    return s;
}

/* for_stmt: 'for' star_targets 'in' star_expressions ':' block ['else' ':' block] */
static PyStmt *parse_for(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_FOR, &kw);
    s->loop.target = parse_star_targets(p);
    check_target(p, s->loop.target, "assign to", true);
    expect(p, PY_TOK_KW_IN, "after 'for' loop variable");
    s->loop.iter = parse_star_expressions(p);
    s->loop.body = parse_suite(p, &kw, "after 'for' loop header", "'for' statement");
    if (at(p, PY_TOK_KW_ELSE)) {
        PyToken ekw = advance(p);
        s->loop.orelse = parse_suite(p, &ekw, "after 'else'", "'else' clause");
    }
    return s;
}

/* with_stmt: 'with' with_item (',' with_item)* ':' block
 * with_item: expression ['as' star_target] */
static PyStmt *parse_with(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_WITH, &kw);
    int m = mark(p);
    do {
        PyWithItem *w = ARENA_NEW(p->a, PyWithItem);
        w->context = parse_expression(p);
        if (accept(p, PY_TOK_KW_AS)) {
            w->vars = parse_star_target(p);
            check_target(p, w->vars, "assign to", false);
        }
        push(p, w);
    } while (accept(p, PY_TOK_COMMA));
    int n;
    void **items = take(p, m, &n);
    s->with.items = ARENA_ARRAY(p->a, PyWithItem, n);
    s->with.len = n;
    for (int i = 0; i < n; i++) s->with.items[i] = *(PyWithItem *)items[i];
    s->with.body = parse_suite(p, &kw, "after 'with' items", "'with' statement");
    return s;
}

/* try_stmt: 'try' ':' block finally_block
 *         | 'try' ':' block except_block+ [else_block] [finally_block]
 * except_block: 'except' [expression ['as' NAME]] ':' block
 * finally_block: 'finally' ':' block */
static PyStmt *parse_try(Parser *p) {
    PyToken kw = advance(p);
    PyStmt *s = new_stmt(p, PY_STMT_TRY, &kw);
    s->try.body = parse_suite(p, &kw, "after 'try'", "'try' statement");
    int m = mark(p);
    while (at(p, PY_TOK_KW_EXCEPT)) {
        PyToken ekw = advance(p);
        if (at(p, PY_TOK_STAR)) error_at(p, tok(p), "'except*' is not supported by tritonc");
        PyHandler *h = ARENA_NEW(p->a, PyHandler);
        h->loc = ekw.loc;
        if (!at(p, PY_TOK_COLON)) {
            h->type = parse_expression(p);
            if (at(p, PY_TOK_COMMA))
                error_at(p, tok(p), "multiple exception types must be parenthesized");
            if (accept(p, PY_TOK_KW_AS)) h->name = expect(p, PY_TOK_NAME, "after 'as'").str;
        }
        h->body = parse_suite(p, &ekw, "after 'except' clause", "'except' clause");
        push(p, h);
    }
    int n;
    void **items = take(p, m, &n);
    s->try.handlers = ARENA_ARRAY(p->a, PyHandler, n);
    s->try.nhandlers = n;
    for (int i = 0; i < n; i++) s->try.handlers[i] = *(PyHandler *)items[i];
    if (n && at(p, PY_TOK_KW_ELSE)) {
        PyToken ekw = advance(p);
        s->try.orelse = parse_suite(p, &ekw, "after 'else'", "'else' clause");
    }
    if (at(p, PY_TOK_KW_FINALLY)) {
        PyToken fkw = advance(p);
        s->try.finalbody = parse_suite(p, &fkw, "after 'finally'", "'finally' clause");
    } else if (n == 0) {
        error_expected(p, "'except' or 'finally' block", NULL);
    }
    return s;
}

/* `match SUBJECT:` (a soft keyword: `match = 1` and `match(x)` are
 * expression statements): the name `match`, something after it, and a
 * logical line that ends with ':', which no expression statement does. */
static bool is_match_stmt(Parser *p) {
    const PyToken *name = tok(p);
    if (name->len != 5 || strcmp(name->str, "match")) return false;
    for (unsigned k = 1; k < 4096; k++) {
        PyTokKind t = peek(p, k)->kind;
        if (t == PY_TOK_NEWLINE || t == PY_TOK_EOF) return k > 2 && peek(p, k - 1)->kind == PY_TOK_COLON;
    }
    return false;
}

/* statement: compound_stmt | simple_stmts
 * compound_stmt: function_def | if_stmt | class_def | with_stmt | for_stmt
 *              | try_stmt | while_stmt
 * Pushes the statements it parsed (a line may hold several). */
static void parse_statement(Parser *p) {
    PyStmt *s;
    if (p->lazy && (at(p, PY_TOK_AT) || at(p, PY_TOK_KW_DEF)) && (s = quick_def(p))) {
        push(p, finish_stmt(p, s));
        return;
    }
    switch (kind(p)) {
    case PY_TOK_KW_DEF: s = parse_def(p, (PyExprList){0}, 0); break;
    case PY_TOK_KW_CLASS: s = parse_class(p, (PyExprList){0}); break;
    case PY_TOK_KW_IF: s = parse_if(p); break;
    case PY_TOK_KW_WHILE: s = parse_while(p); break;
    case PY_TOK_KW_FOR: s = parse_for(p); break;
    case PY_TOK_KW_WITH: s = parse_with(p); break;
    case PY_TOK_KW_TRY: s = parse_try(p); break;
    case PY_TOK_AT: {
        size_t start = tok(p)->off;
        PyExprList decorators = parse_decorators(p);
        if (at(p, PY_TOK_KW_DEF)) s = parse_def(p, decorators, start);
        else if (at(p, PY_TOK_KW_CLASS)) s = parse_class(p, decorators);
        else if (at(p, PY_TOK_KW_ASYNC)) error_at(p, tok(p), "'async' functions are not supported by tritonc");
        else error_expected(p, "'def' or 'class'", "after decorator");
        break;
    }
    case PY_TOK_KW_ASYNC: error_at(p, tok(p), "'async' functions and statements are not supported by tritonc");
    case PY_TOK_KW_ELSE:
    case PY_TOK_KW_ELIF:
    case PY_TOK_KW_EXCEPT:
    case PY_TOK_KW_FINALLY:
        error_at(p, tok(p), "'%s' without a matching '%s'", py_tok_spelling(kind(p)),
                 at(p, PY_TOK_KW_EXCEPT) || at(p, PY_TOK_KW_FINALLY) ? "try" : "if");
    case PY_TOK_INDENT: error_at(p, tok(p), "unexpected indent");
    case PY_TOK_NEWLINE: skip(p); return;
    default:
        if (kind(p) == PY_TOK_NAME && is_match_stmt(p))
            error_at(p, tok(p), "`match` statements are not supported by tritonc");
        parse_simple_stmts(p);
        return;
    }
    push(p, finish_stmt(p, s));
}

/* Parses the statements of a block, up to its DEDENT or the end of the
 * text (module: of the file, where a DEDENT only follows an error and is
 * skipped quietly), or until the diagnostics are full. A syntax error drops
 * its statement and skips past it: it unwinds to the one setjmp here, and
 * the loop goes on with the next statement. */
static void parse_guarded_statements(Parser *p, bool module) {
    jmp_buf jb, *outer = p->jb;
    /* (every statement starts at the block's depth and height; m, the
     * statement's stack mark, changes after the setjmp: volatile) */
    int depth = p->depth, height = p->height;
    volatile int m = mark(p);
    p->jb = &jb;
    if (setjmp(jb) != 0) {
        p->stack.len = m;
        p->depth = depth;
        p->height = height;
        recover(p);
    }
    for (;;) {
        if (module) {
            if (at(p, PY_TOK_EOF) || diag_full(p->de)) break;
            if (at(p, PY_TOK_DEDENT)) {
                skip(p);
                continue;
            }
        } else if (at(p, PY_TOK_DEDENT) || at(p, PY_TOK_EOF) || diag_full(p->de)) {
            break;
        }
        m = mark(p);
        parse_statement(p);
    }
    p->jb = outer;
}

/* The length of the valid UTF-8 sequence at s[0] (a byte >= 0x80), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!len || len > n) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) || (c == 0xf0 && s[1] < 0x90) ||
        (c == 0xf4 && s[1] > 0x8f))
        return 0; /* overlong, a surrogate, or past U+10FFFF */
    return len;
}

/* Whether one of the first two lines declares an encoding (PEP 263:
 * `# -*- coding: latin-1 -*-`) other than UTF-8. */
static bool declares_other_coding(const char *src, size_t len) {
    size_t pos = 0;
    for (int line = 0; line < 2 && pos < len; line++) {
        const char *nl = memchr(src + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - src) : len;
        size_t i = pos;
        while (i < end && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f')) i++;
        if (i < end && src[i] == '#') {
            for (size_t k = i; k + 7 <= end; k++) {
                if (memcmp(src + k, "coding", 6) || (src[k + 6] != ':' && src[k + 6] != '=')) continue;
                size_t v = k + 7;
                while (v < end && (src[v] == ' ' || src[v] == '\t')) v++;
                char name[16] = {0};
                size_t m = 0;
                while (v < end && m < sizeof name - 1 && src[v] != ' ' && src[v] != '\r' && src[v] != '\t')
                    name[m++] = (char)(src[v] >= 'A' && src[v] <= 'Z' ? src[v] + 32 : src[v]), v++;
                return strncmp(name, "utf-8", 5) && strncmp(name, "utf8", 4);
            }
        }
        if (i < end && src[i] != '#') return false; /* code before the declaration: none */
        pos = end + 1;
    }
    return false;
}

/* CPython reads a file without an encoding declaration as UTF-8 and rejects
 * one that is not (a SyntaxError before any of it runs): so does tritonc,
 * at the first bad byte, wherever it is (a comment included). */
static void check_utf8(DiagEngine *de, const char *filename, const char *src, size_t len) {
    const unsigned char *u = (const unsigned char *)src;
    size_t i = 0;
    for (;;) {
#if defined(__SSE2__)
        while (i + 64 <= len) { /* ASCII, 64 bytes at a time */
            const __m128i *q = (const __m128i *)(const void *)(u + i);
            __m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(q), _mm_loadu_si128(q + 1)),
                                       _mm_or_si128(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3)));
            if (_mm_movemask_epi8(any)) break;
            i += 64;
        }
#endif
        while (i + 8 <= len) { /* ASCII, a word at a time */
            uint64_t w;
            memcpy(&w, u + i, 8);
            if (w & UINT64_C(0x8080808080808080)) break;
            i += 8;
        }
        while (i < len && u[i] < 0x80) i++;
        if (i >= len) return;
        size_t n = utf8_seq(u + i, len - i);
        if (!n) break;
        i += n;
    }
    if (declares_other_coding(src, len)) return;
    int line = 1;
    size_t bol = 0;
    for (size_t k = 0; k < i; k++)
        if (u[k] == '\n') line++, bol = k + 1;
    diag_report(de, DIAG_ERROR, (Loc){filename, line, (int)(i - bol) + 1}, 1,
                "Non-UTF-8 code starting with '\\x%02x', but no encoding declared; see PEP 263", u[i]);
}

/* file: statement* ENDMARKER */
static PyModule *parse_module(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                              size_t len, bool lazy) {
    if (!filename) filename = "<string>";
    if (!src) src = "", len = 0;
    filename = intern(in, filename);
    diag_add_source(de, filename, src, len);
    check_utf8(de, filename, src, len);
    Parser p;
    memset(&p, 0, offsetof(Parser, lx)); /* (the lexer clears its own fields) */
    p.a = a;
    p.in = in;
    p.de = de;
    p.file = filename;
    p.src = src;
    p.len = len;
    p.lazy = lazy;
    py_lexer_init(&p.lx, a, in, de, filename, src, len);
    p.lx.names = ARENA_NEW(a, PyNameCache);
    parser_buffer_init(&p, TOKEN_BUFFER);
    PyModule *m = ARENA_NEW(a, PyModule);
    m->filename = filename;
    m->src = src;
    m->len = len;
    parse_guarded_statements(&p, true);
    m->body = take_block(&p, 0);
    vec_free(&p.stack);
    sb_free(&p.sb);
    tc_free(p.toks);
    py_lexer_free(&p.lx);
    return m;
}

PyModule *py_parse(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                   size_t len) {
    return parse_module(a, in, de, filename, src, len, false);
}

PyModule *py_parse_lazy(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                        size_t len) {
    return parse_module(a, in, de, filename, src, len, true);
}
