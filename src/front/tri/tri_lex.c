/*
 * tri_lex.c - the .tri lexer.
 *
 * One left-to-right pass over the bytes produces the whole token array.
 * Newlines end statements, as in Python: a NEWLINE token is emitted at the
 * end of a line only when no '(' or '[' is open (so calls and lists may span
 * lines) and never twice in a row. '#' starts a comment to the end of the
 * line. Numbers are decimal: 12, 0.5, 1e-3, 2.5e+4; an integer followed by
 * 't' is a trit literal (1t). Keywords are let, layer, fn and return; type
 * names (float32, Tensor, ...) are identifiers the parser recognises.
 */
#include "front/tri/tri_lex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
    [TK_EOF] = "end of file", [TK_NEWLINE] = "newline", [TK_IDENT] = "identifier",
    [TK_INT] = "integer",     [TK_FLOAT] = "float",     [TK_TRIT] = "trit literal",
    [TK_LET] = "'let'",       [TK_LAYER] = "'layer'",   [TK_FN] = "'fn'",
    [TK_RETURN] = "'return'", [TK_LPAREN] = "'('",      [TK_RPAREN] = "')'",
    [TK_LBRACKET] = "'['",    [TK_RBRACKET] = "']'",    [TK_LBRACE] = "'{'",
    [TK_RBRACE] = "'}'",      [TK_COMMA] = "','",       [TK_COLON] = "':'",
    [TK_SEMI] = "';'",        [TK_ASSIGN] = "'='",      [TK_ARROW] = "'->'",
    [TK_PLUS] = "'+'",        [TK_MINUS] = "'-'",       [TK_STAR] = "'*'",
    [TK_SLASH] = "'/'",       [TK_AT] = "'@'",          [TK_LT] = "'<'",
    [TK_GT] = "'>'",          [TK_QUESTION] = "'?'",    [TK_ELLIPSIS] = "'...'",
};

const char *tri_tok_kind_name(TriTokKind k) { return kind_names[k]; }

static bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

typedef struct Lexer {
    Arena *arena;
    DiagEngine *de;
    const char *file, *src, *end, *p, *line_start;
    int line, depth;
    VEC(TriToken) toks;
} Lexer;

static Loc lex_loc(const Lexer *lx, const char *at) {
    return (Loc){lx->file, lx->line, (int)(at - lx->line_start) + 1};
}

static void push(Lexer *lx, TriTokKind kind, const char *start, int len) {
    TriToken t = {kind, lex_loc(lx, start), start, len, 0, 0.0, false, false};
    vec_push(&lx->toks, t);
}

static bool last_is_newline_or_empty(const Lexer *lx) {
    return lx->toks.len == 0 || vec_last(&lx->toks).kind == TK_NEWLINE;
}

/* number = digits [ "." digits ] [ ("e"|"E") ["+"|"-"] digits ] [ "t" ] */
static void lex_number(Lexer *lx) {
    const char *s = lx->p, *q = s;
    bool is_float = false;
    while (q < lx->end && is_digit(*q)) q++;
    if (q + 1 < lx->end && *q == '.' && is_digit(q[1])) {
        is_float = true;
        q++;
        while (q < lx->end && is_digit(*q)) q++;
    }
    if (q < lx->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < lx->end && (*e == '+' || *e == '-')) e++;
        if (e < lx->end && is_digit(*e)) {
            is_float = true;
            q = e;
            while (q < lx->end && is_digit(*q)) q++;
        }
    }
    bool trit = !is_float && q < lx->end && *q == 't' && !(q + 1 < lx->end && is_ident_char(q[1]));
    int len = (int)(q - s);
    const char *tok_end = q + trit;
    if (tok_end < lx->end && is_ident_char(*tok_end)) {
        const char *b = tok_end;
        while (b < lx->end && is_ident_char(*b)) b++;
        diag_report(lx->de, DIAG_ERROR, lex_loc(lx, s), (int)(b - s),
                    "invalid suffix '%.*s' on number", (int)(b - tok_end), tok_end);
        tok_end = b;
    }
    push(lx, is_float ? TK_FLOAT : trit ? TK_TRIT : TK_INT, s, (int)(tok_end - s));
    TriToken *t = &vec_last(&lx->toks);
    if (is_float) {
        char buf[128];
        if (len >= (int)sizeof buf) {
            diag_report(lx->de, DIAG_ERROR, t->loc, len, "float literal too long");
            t->fval = 0.0;
        } else {
            memcpy(buf, s, (size_t)len);
            buf[len] = 0;
            t->fval = strtod(buf, NULL);
            /* float32 is the widest float type: a literal that rounds to
             * its infinity (from FLT_MAX + half an ulp: 1e39, or 1e999,
             * past a double's range too) was taken as infinity */
            if (!(fabs(t->fval) < 0x1.ffffffp127)) {
                diag_report(lx->de, DIAG_ERROR, t->loc, len,
                            "float literal out of range: float32 holds magnitudes up to 3.4028235e+38");
                t->fval = 0.0;
            }
        }
    } else {
        /* in uint64, to 2^63: the magnitude of INT64_MIN, which C (and
         * here the parser) reads as the minus of that literal */
        const uint64_t limit = (uint64_t)INT64_MAX + 1;
        uint64_t v = 0;
        for (const char *d = s; d < s + len && !t->too_large; d++) {
            if (v > (limit - (uint64_t)(*d - '0')) / 10) t->too_large = true;
            else v = v * 10 + (uint64_t)(*d - '0');
        }
        t->needs_minus = !t->too_large && v == limit;
        t->ival = t->too_large ? 0 : t->needs_minus ? INT64_MIN : (int64_t)v;
    }
    lx->p = tok_end;
}

TriToken *tri_lex(Arena *arena, DiagEngine *de, const char *file, const char *src, size_t len,
                  int *ntoks) {
    Lexer lx = {arena, de, file, src, src + len, src, src, 1, 0, {0}};
    const char *last_end = src; /* end of the last real token, for the EOF loc */
    int last_line = 1;
    const char *last_line_start = src;
    while (lx.p < lx.end) {
        char c = *lx.p;
        if (c == '\n') {
            if (lx.depth == 0 && !last_is_newline_or_empty(&lx)) push(&lx, TK_NEWLINE, lx.p, 1);
            lx.p++;
            lx.line++;
            lx.line_start = lx.p;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx.p++;
            continue;
        }
        if (c == '#') {
            while (lx.p < lx.end && *lx.p != '\n') lx.p++;
            continue;
        }
        const char *s = lx.p;
        if (is_ident_start(c)) {
            while (lx.p < lx.end && is_ident_char(*lx.p)) lx.p++;
            int n = (int)(lx.p - s);
            TriTokKind k = TK_IDENT;
            if (n == 3 && memcmp(s, "let", 3) == 0) k = TK_LET;
            else if (n == 5 && memcmp(s, "layer", 5) == 0) k = TK_LAYER;
            else if (n == 2 && memcmp(s, "fn", 2) == 0) k = TK_FN;
            else if (n == 6 && memcmp(s, "return", 6) == 0) k = TK_RETURN;
            push(&lx, k, s, n);
        } else if (is_digit(c)) {
            lex_number(&lx);
        } else {
            TriTokKind k;
            int n = 1;
            switch (c) {
            case '(': k = TK_LPAREN; lx.depth++; break;
            case '[': k = TK_LBRACKET; lx.depth++; break;
            case ')': k = TK_RPAREN; lx.depth -= lx.depth > 0; break;
            case ']': k = TK_RBRACKET; lx.depth -= lx.depth > 0; break;
            /* a brace ends any unbalanced bracket: blocks stay line-based */
            case '{': k = TK_LBRACE; lx.depth = 0; break;
            case '}': k = TK_RBRACE; lx.depth = 0; break;
            case ',': k = TK_COMMA; break;
            case ':': k = TK_COLON; break;
            case ';': k = TK_SEMI; break;
            case '=': k = TK_ASSIGN; break;
            case '+': k = TK_PLUS; break;
            case '-':
                if (lx.p + 1 < lx.end && lx.p[1] == '>') k = TK_ARROW, n = 2;
                else k = TK_MINUS;
                break;
            case '*': k = TK_STAR; break;
            case '/': k = TK_SLASH; break;
            case '@': k = TK_AT; break;
            case '<': k = TK_LT; break;
            case '>': k = TK_GT; break;
            case '?': k = TK_QUESTION; break;
            case '.':
                if (lx.p + 2 < lx.end && lx.p[1] == '.' && lx.p[2] == '.') {
                    k = TK_ELLIPSIS, n = 3;
                    break;
                }
                diag_report(de, DIAG_ERROR, lex_loc(&lx, s), 1, "unexpected character '.'");
                lx.p++;
                continue;
            default:
                if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
                    diag_report(de, DIAG_ERROR, lex_loc(&lx, s), 1, "unexpected character '%c'", c);
                else
                    diag_report(de, DIAG_ERROR, lex_loc(&lx, s), 1,
                                "unexpected byte 0x%02x", (unsigned char)c);
                lx.p++;
                continue;
            }
            lx.p += n;
            push(&lx, k, s, n);
        }
        last_end = lx.p;
        last_line = lx.line;
        last_line_start = lx.line_start;
    }
    /* The end of the file ends the last statement, unless a '(' or '[' is
     * still open: then the parser sees the end of the file itself
     * ("expected ')', saw end of file" after the last token). */
    if (!last_is_newline_or_empty(&lx) && lx.depth == 0) push(&lx, TK_NEWLINE, lx.p, 0);
    TriToken eof = {TK_EOF, {file, last_line, (int)(last_end - last_line_start) + 1}, lx.end, 0, 0, 0, false, false};
    vec_push(&lx.toks, eof);
    *ntoks = lx.toks.len;
    TriToken *out = arena_dup(arena, lx.toks.data, sizeof(TriToken) * (size_t)lx.toks.len);
    vec_free(&lx.toks);
    return out;
}
