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
 *
 * What is not .tri is reported once, in words a user of Python or C
 * recognises ("string literals are not supported", "comments start with
 * '#'", "write 0.5"), and becomes one TK_ERROR token, on which the parser
 * skips the statement without reporting it again. Source is UTF-8: a
 * byte-order mark at the start is skipped; a non-ASCII letter inside a name
 * makes the name one (reported) identifier, so its uses are not reported as
 * well; a no-break space is reported and read as a space; any other
 * non-ASCII character is reported once by its code point.
 */
#include "front/tri/tri_lex.h"

#include <math.h>
#include <stdio.h>
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
    [TK_ERROR] = "invalid token",
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
    struct Reported {
        const char *start;
        int len;
    } reported[64]; /* non-ASCII names reported */
    int nreported;
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
    bool bare_dot = false; /* 1. : reported, and read as 1.0 */
    if (q + 1 < lx->end && *q == '.' && is_digit(q[1])) {
        is_float = true;
        q++;
        while (q < lx->end && is_digit(*q)) q++;
    } else if (q < lx->end && *q == '.' && !(q + 1 < lx->end && (q[1] == '.' || is_ident_start(q[1])))) {
        is_float = bare_dot = true;
        q++;
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
    if (bare_dot)
        diag_report(lx->de, DIAG_ERROR, t->loc, len, "a float literal needs a digit after '.': write %.*s0", len, s);
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

/* Decodes the UTF-8 sequence at p (before end) into *cp; returns its length
 * in bytes, 1 for a byte that does not start a valid sequence (*cp = -1). */
static int utf8_decode(const char *p, const char *end, int32_t *cp) {
    unsigned char c = (unsigned char)*p;
    int n = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf8) n = 0;
    *cp = -1;
    if (n == 0 || end - p < n) return 1;
    int32_t v = c & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        unsigned char b = (unsigned char)p[i];
        if ((b & 0xc0) != 0x80) return 1;
        v = v << 6 | (b & 0x3f);
    }
    if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
        return 1;
    *cp = v;
    return n;
}

/* Letters of the common non-Latin-script alphabets and accented Latin:
 * a name written with them is an identifier (reported: names are ASCII). */
static bool is_unicode_letter(int32_t cp) {
    return (cp >= 0xc0 && cp <= 0x24f && cp != 0xd7 && cp != 0xf7) || (cp >= 0x370 && cp <= 0x52f && cp != 0x37e) ||
           (cp >= 0x3040 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7af);
}

static bool is_unicode_space(int32_t cp) {
    return cp == 0xa0 || (cp >= 0x2000 && cp <= 0x200b) || cp == 0x202f || cp == 0x3000;
}

/* The end of the identifier starting at p, taking non-ASCII letters in;
 * *ascii is false when it holds any. */
static const char *ident_end(const char *p, const char *end, bool *ascii) {
    *ascii = true;
    while (p < end) {
        if (is_ident_char(*p)) {
            p++;
            continue;
        }
        int32_t cp;
        int n = (unsigned char)*p >= 0x80 ? utf8_decode(p, end, &cp) : 0;
        if (n == 0 || !is_unicode_letter(cp)) break;
        *ascii = false;
        p += n;
    }
    return p;
}

/* Is the non-ASCII name s[0..n) reported already? Each is reported at its
 * first use only (the first 64 names; later ones at every use). */
static bool already_reported(Lexer *lx, const char *s, int n) {
    for (int i = 0; i < lx->nreported; i++)
        if (lx->reported[i].len == n && memcmp(lx->reported[i].start, s, (size_t)n) == 0) return true;
    if (lx->nreported < TC_ARRAY_LEN(lx->reported)) lx->reported[lx->nreported++] = (struct Reported){s, n};
    return false;
}

/* Reports what a user of another language might write at p (a string, a
 * C comment, '%', ...) and returns its length: the span of one TK_ERROR. */
static int lex_foreign(Lexer *lx, const char *s) {
    char c = *s;
    Loc at = lex_loc(lx, s);
    if (c == '"' || c == '\'') {
        const char *q = s + 1;
        while (q < lx->end && *q != c && *q != '\n') q += (*q == '\\' && q + 1 < lx->end && q[1] != '\n') ? 2 : 1;
        int n = (int)(q - s) + (q < lx->end && *q == c);
        diag_report(lx->de, DIAG_ERROR, at, n, "string literals are not supported");
        return n;
    }
    if (c == '/' && s + 1 < lx->end && (s[1] == '/' || s[1] == '*')) {
        diag_report(lx->de, DIAG_ERROR, at, 2, "'%.2s' does not start a comment: comments start with '#'", s);
        return 2;
    }
    if (c == '.') {
        if (s > lx->line_start && (is_ident_char(s[-1]) || s[-1] == ')' || s[-1] == ']') && s + 1 < lx->end &&
            is_ident_start(s[1])) {
            bool ascii;
            int n = 1 + (int)(ident_end(s + 1, lx->end, &ascii) - (s + 1));
            diag_report(lx->de, DIAG_ERROR, at, n,
                        "there is no member access with '.'; call a built-in instead (transpose(x), not x.T)");
            return n;
        }
        diag_report(lx->de, DIAG_ERROR, at, 1, "unexpected character '.'");
        return 1;
    }
    if (c == '=' && s + 1 < lx->end && s[1] == '=') {
        diag_report(lx->de, DIAG_ERROR, at, 2, "comparisons ('==') are not supported");
        return 2;
    }
    if (c == '!' && s + 1 < lx->end && s[1] == '=') {
        diag_report(lx->de, DIAG_ERROR, at, 2, "comparisons ('!=') are not supported");
        return 2;
    }
    if ((unsigned char)c >= 0x80) {
        int32_t cp;
        int n = utf8_decode(s, lx->end, &cp);
        if (cp < 0) diag_report(lx->de, DIAG_ERROR, at, 1, "invalid UTF-8 byte 0x%02x", (unsigned char)c);
        else if (cp == 0x2192)
            diag_report(lx->de, DIAG_ERROR, at, 1, "unexpected character '%.*s' (U+2192); write '->'", n, s);
        else diag_report(lx->de, DIAG_ERROR, at, 1, "unexpected character '%.*s' (U+%04X)", n, s, (unsigned)cp);
        return n;
    }
    if (c >= 0x20 && c < 0x7f) {
        const char *what = c == '%' ? " (there is no '%' operator)" : "";
        diag_report(lx->de, DIAG_ERROR, at, 1, "unexpected character '%c'%s", c, what);
    } else {
        diag_report(lx->de, DIAG_ERROR, at, 1, "unexpected byte 0x%02x", (unsigned char)c);
    }
    return 1;
}

TriToken *tri_lex(Arena *arena, DiagEngine *de, const char *file, const char *src, size_t len,
                  int *ntoks) {
    Lexer lx = {arena, de, file, src, src + len, src, src, 1, 0, {0}, {{0}}, 0};
    const char *last_end = src; /* end of the last real token, for the EOF loc */
    int last_line = 1;
    const char *last_line_start = src;
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) lx.p += 3; /* a UTF-8 byte-order mark */
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
        int32_t cp = -1;
        int cplen = (unsigned char)c >= 0x80 ? utf8_decode(lx.p, lx.end, &cp) : 0;
        if (cplen && is_unicode_space(cp)) {
            diag_report(de, DIAG_ERROR, lex_loc(&lx, s), 1,
                        "unexpected character U+%04X (a Unicode space); use an ordinary space", (unsigned)cp);
            lx.p += cplen;
            continue;
        }
        if (is_ident_start(c) || (cplen && is_unicode_letter(cp))) {
            bool ascii;
            lx.p = ident_end(lx.p, lx.end, &ascii);
            int n = (int)(lx.p - s);
            if (!ascii && !already_reported(&lx, s, n))
                diag_report(de, DIAG_ERROR, lex_loc(&lx, s), n,
                            "name '%.*s' is not ASCII: names are letters A-Z and a-z, digits and '_'", n, s);
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
                bool after_number = lx.toks.len && vec_last(&lx.toks).start + vec_last(&lx.toks).len == s &&
                                    (vec_last(&lx.toks).kind == TK_INT || vec_last(&lx.toks).kind == TK_FLOAT);
                if (!after_number && lx.p + 1 < lx.end && is_digit(lx.p[1])) {
                    /* .5: reported, and read as 0.5 so nothing else is */
                    lx.p++;
                    lex_number(&lx);
                    TriToken *t = &vec_last(&lx.toks);
                    diag_report(de, DIAG_ERROR, lex_loc(&lx, s), t->len + 1,
                                "a float literal needs a digit before '.': write 0%.*s", t->len + 1, s);
                    if (t->kind != TK_FLOAT) {
                        char buf[64];
                        snprintf(buf, sizeof buf, "0.%.*s", t->len > 60 ? 60 : t->len, t->start);
                        t->kind = TK_FLOAT;
                        t->fval = strtod(buf, NULL);
                    }
                    t->start = s, t->len++, t->loc = lex_loc(&lx, s);
                    goto next;
                }
                k = TK_ERROR, n = lex_foreign(&lx, s);
                break;
            default:
                k = TK_ERROR, n = lex_foreign(&lx, s);
                break;
            }
            /* '/' '/' and '=' '=' are errors; '/' and '=' alone are tokens */
            if (k == TK_SLASH && lx.p + 1 < lx.end && (lx.p[1] == '/' || lx.p[1] == '*'))
                k = TK_ERROR, n = lex_foreign(&lx, s);
            if (k == TK_ASSIGN && lx.p + 1 < lx.end && lx.p[1] == '=') k = TK_ERROR, n = lex_foreign(&lx, s);
            lx.p += n;
            push(&lx, k, s, n);
        }
    next:
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
