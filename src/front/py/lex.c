/*
 * lex.c - the Python tokenizer: source bytes -> PyToken.
 *
 * A pull lexer (py_lexer_next) with Python's layout rules, following
 * CPython's tokenizer:
 *
 *   - At the start of each logical line outside brackets, the indentation is
 *     measured twice, with tabs to the next multiple of 8 and with tabs as
 *     one column. The first decides INDENT/DEDENT against a stack of open
 *     levels; if the two disagree about the order of two levels the file
 *     mixes tabs and spaces ambiguously, which is an error (TabError).
 *   - Blank and comment-only lines produce nothing; a line's NEWLINE comes
 *     after its last token.
 *   - Inside (), [] and {} newlines and indentation are ignored (implicit
 *     line joining); a bracket stack matches closers to openers, so an
 *     unmatched or mismatched closer is reported where it is, with a note at
 *     the opener, and an unclosed opener is reported at end of file.
 *   - A backslash before the end of a line joins the next line.
 *   - At end of file: NEWLINE if the last line had tokens, one DEDENT per
 *     open level, then EOF forever.
 *
 * Every error is reported to the DiagEngine and lexing goes on: a bad token
 * becomes PY_TOK_ERROR (the parser stays silent about those, the lexer
 * already spoke), a bad number still yields a number, an unterminated
 * string yields the string up to the end of the line (or file).
 *
 * The lexer reads only within [src, src + len): embedded NULs are ordinary
 * (invalid) characters, and bytes >= 0x80 are fine inside strings and
 * comments; identifiers are ASCII only.
 */
#include "front/py/py.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* lex_token stays out of py_lexer_lex: inlined, its registers and stack
 * would be saved and restored on every token. punctuator, a jump table,
 * goes into the token loop (left to itself, the compiler calls it). */
#if defined(__GNUC__)
#define NOT_INLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NOT_INLINE
#define ALWAYS_INLINE inline
#endif

static const char *tok_spellings[] = {
#define X(name, spelling) spelling,
    PY_TOKEN_KINDS(X)
#undef X
};
static const char *tok_names[] = {
#define X(name, spelling) #name,
    PY_TOKEN_KINDS(X)
#undef X
};

const char *py_tok_spelling(PyTokKind k) {
    return (unsigned)k < PY_TOK_COUNT ? tok_spellings[k] : "?";
}
const char *py_tok_name(PyTokKind k) { return (unsigned)k < PY_TOK_COUNT ? tok_names[k] : "?"; }

/* ---- character access ---------------------------------------------------- */

/* The byte at pos + k, or -1 past the end. */
static int peekc(const PyLexer *lx, size_t k) {
    size_t p = lx->pos + k;
    return p < lx->len ? (unsigned char)lx->src[p] : -1;
}

static Loc loc_at(const PyLexer *lx, size_t off) {
    return (Loc){lx->file, lx->line, (int)(off - lx->line_start) + 1};
}
static Loc cur_loc(const PyLexer *lx) { return loc_at(lx, lx->pos); }

/* Consumes a newline at pos ("\n" or "\r\n") and starts a new line. */
static void eat_newline(PyLexer *lx) {
    if (peekc(lx, 0) == '\r') lx->pos++;
    if (peekc(lx, 0) == '\n') lx->pos++;
    lx->line++;
    lx->line_start = lx->pos;
}
static bool at_newline(const PyLexer *lx) {
    int c = peekc(lx, 0);
    return c == '\n' || (c == '\r' && peekc(lx, 1) == '\n');
}

static bool is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

/* Skips a comment: to the end of the line (memchr, the hot loop of files
 * that are half comments), leaving pos on the newline. */
static void skip_comment(PyLexer *lx) {
    const char *nl = memchr(lx->src + lx->pos, '\n', lx->len - lx->pos);
    size_t end = nl ? (size_t)(nl - lx->src) : lx->len;
    if (nl && end > lx->pos && lx->src[end - 1] == '\r') end--;
    lx->pos = end;
}

/* [A-Za-z0-9_]: what an ASCII identifier is made of, a row per 16 bytes */
static const bool ident_char[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x20 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, /* 0x30 0-9 */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x40 A-O */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, /* 0x50 P-Z _ */
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x60 a-o */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, /* 0x70 p-z */
};

/* Scans [A-Za-z0-9_] and bytes >= 0x80 from pos; returns false if any
 * byte was non-ASCII. */
static bool scan_ident(PyLexer *lx) {
    const unsigned char *p = (const unsigned char *)lx->src + lx->pos;
    const unsigned char *end = (const unsigned char *)lx->src + lx->len;
    bool ascii = true;
    for (; p < end; p++) {
        unsigned c = *p;
        if ((c | 32) - 'a' < 26 || c - '0' < 10 || c == '_') continue;
        if (c < 0x80) break;
        ascii = false;
    }
    lx->pos = (size_t)(p - (const unsigned char *)lx->src);
    return ascii;
}
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static int hex_val(int c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

/* An error, or in a dry run (PyLexer.dry) the note that there was one. */
#define lex_report(lx, level, loc, span, ...)                                  \
    do {                                                                       \
        if ((lx)->dry) (lx)->failed = true;                                    \
        else diag_report((lx)->de, (level), (loc), (span), __VA_ARGS__);       \
    } while (0)
#define lex_error(lx, loc, span, ...) lex_report((lx), DIAG_ERROR, (loc), (span), __VA_ARGS__)

/* Describes byte c for a message: 'x' or '\xNN'. */
static const char *describe_char(PyLexer *lx, int c) {
    if (c >= 0x20 && c < 0x7f) return arena_printf(lx->arena, "'%c'", c);
    return arena_printf(lx->arena, "'\\x%02x'", c);
}

void py_lexer_init(PyLexer *lx, Arena *a, Interner *in, DiagEngine *de, const char *filename,
                   const char *src, size_t len) {
    /* the fields, not the stacks after them (kilobytes, each entry written
     * before it is read) */
    memset(lx, 0, offsetof(PyLexer, indents));
    lx->indents[0] = lx->alt_indents[0] = 0;
    lx->arena = a;
    lx->in = in;
    lx->de = de;
    lx->file = filename;
    lx->src = src ? src : "";
    lx->len = lx->avail = src ? len : 0;
    lx->line = 1;
    lx->at_line_start = true;
    /* A UTF-8 byte order mark is not part of the text. */
    if (lx->len >= 3 && memcmp(lx->src, "\xef\xbb\xbf", 3) == 0) lx->pos = lx->line_start = 3;
}

void py_lexer_free(PyLexer *lx) { sb_free(&lx->scratch); }

static PyToken make_tok(PyLexer *lx, PyTokKind kind, size_t start) {
    PyToken t = {0};
    t.kind = kind;
    t.loc = loc_at(lx, start);
    t.off = start;
    t.len = lx->pos - start;
    return t;
}

/* ---- indentation ----------------------------------------------------------- */

/* A TabError, or indentation past the limit, ends the text, as it ends
 * CPython's tokenizer: the levels after it mean nothing, and the INDENT or
 * DEDENT it would have made only brings an "unexpected indent" (or
 * "expected an indented block") after it, on each line that follows. What
 * the parser says of the end of the text is not news (eof_error). */
static bool layout_error(PyLexer *lx, Loc loc, const char *msg) {
    lex_error(lx, loc, 1, "%s", msg);
    lx->pos = lx->len;
    lx->eof_error = true;
    return false;
}

static bool tab_error(PyLexer *lx, Loc loc) {
    return layout_error(lx, loc, "inconsistent use of tabs and spaces in indentation");
}

/* At the start of a logical line: skips blank and comment-only lines, then
 * compares the indentation of the next real line with the open levels.
 * Returns true (and sets *out) when an INDENT or DEDENT is due. */
static bool lex_indentation(PyLexer *lx, PyToken *out) {
    for (;;) {
        /* lines that hold only a comment after spaces (a file's header, a
         * block's commentary) at once: their layout is nothing */
        for (const char *s = lx->src;;) {
            size_t q = lx->pos;
            while (q < lx->len && s[q] == ' ') q++;
            const char *nl = q < lx->len && s[q] == '#' ? memchr(s + q, '\n', lx->len - q) : NULL;
            if (!nl) break; /* (the last line, unended: as any other) */
            lx->pos = lx->line_start = (size_t)(nl - s) + 1;
            lx->line++;
        }
        int col = 0, alt = 0;
        size_t p = lx->pos;
        for (; p < lx->len; p++) {
            char c = lx->src[p];
            if (c == ' ') col++, alt++;
            else if (c == '\t') col = (col / 8 + 1) * 8, alt++;
            else if (c == '\f') col = alt = 0;
            else break;
        }
        lx->pos = p;
        int c = peekc(lx, 0);
        if (c == '#') {
            skip_comment(lx);
            c = peekc(lx, 0);
        }
        if (c == -1) return false; /* end of file: the caller emits the DEDENTs */
        if (at_newline(lx)) {      /* blank line */
            eat_newline(lx);
            continue;
        }
        if (c == '\r') { /* a lone CR counts as white space */
            lx->pos++;
            continue;
        }
        lx->at_line_start = false;
        int top = lx->indents[lx->nindents], alt_top = lx->alt_indents[lx->nindents];
        Loc loc = cur_loc(lx);
        if (col == top) {
            if (alt != alt_top)
                return tab_error(lx, loc);
            return false;
        }
        if (col > top) {
            if (alt <= alt_top)
                return tab_error(lx, loc);
            if (lx->nindents >= PY_MAX_INDENT) return layout_error(lx, loc, "too many levels of indentation");
            lx->nindents++;
            lx->indents[lx->nindents] = col;
            lx->alt_indents[lx->nindents] = alt;
            *out = make_tok(lx, PY_TOK_INDENT, lx->pos);
            return true;
        }
        int n = 0;
        while (lx->nindents > 0 && col < lx->indents[lx->nindents]) lx->nindents--, n++;
        if (col != lx->indents[lx->nindents]) {
            /* Recover as if the line were at the enclosing level. */
            lex_error(lx, loc, 1, "unindent does not match any outer indentation level");
        } else if (alt != lx->alt_indents[lx->nindents]) {
            lx->nindents += n; /* the end of the text closes them */
            return tab_error(lx, loc);
        }
        lx->pending_dedents = n - 1;
        *out = make_tok(lx, PY_TOK_DEDENT, lx->pos);
        return true;
    }
}

/* ---- numbers --------------------------------------------------------------- */

/* Scans digits accepted by `ok` with single '_' separators between them.
 * Returns false if a separator is misplaced (leading, doubled, trailing). */
static bool scan_digits(PyLexer *lx, bool (*ok)(int), bool allow_leading_underscore) {
    bool good = true, prev_digit = allow_leading_underscore;
    for (;;) {
        int c = peekc(lx, 0);
        if (ok(c)) {
            prev_digit = true;
        } else if (c == '_') {
            if (!prev_digit) good = false;
            prev_digit = false;
        } else {
            break;
        }
        lx->pos++;
    }
    if (!prev_digit) good = false;
    return good;
}

static bool is_any_digit(int c) { return is_digit(c); }
static bool is_hex_digit(int c) { return is_hex(c); }
static bool is_oct_digit(int c) { return c >= '0' && c <= '7'; }
static bool is_bin_digit(int c) { return c == '0' || c == '1'; }

/* Accumulates the digits of [start, end) in `base`, skipping '_'. */
static uint64_t int_value(const char *s, size_t n, int base, bool *overflow) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '_') continue;
        uint64_t d = (uint64_t)hex_val((unsigned char)s[i]);
        if (v > (UINT64_MAX - d) / (uint64_t)base) *overflow = true;
        v = v * (uint64_t)base + d;
    }
    return v;
}

/*
 * number: '0' ('x'|'X') ['_'] hexdigit (['_'] hexdigit)*      (and o, b)
 *       | digits ['.' [digits]] [exponent] ['j'|'J']
 *       | '.' digits [exponent] ['j'|'J']
 * exponent: ('e'|'E') ['+'|'-'] digits
 */
static PyToken lex_number(PyLexer *lx) {
    size_t start = lx->pos;
    int c0 = peekc(lx, 0), c1 = peekc(lx, 1) | 32;
    if (c0 == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
        int base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
        const char *what = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
        bool (*ok)(int) = base == 16 ? is_hex_digit : base == 8 ? is_oct_digit : is_bin_digit;
        lx->pos += 2;
        size_t digits = lx->pos;
        bool good = scan_digits(lx, ok, true) && lx->pos > digits;
        int c = peekc(lx, 0);
        bool reported = false;
        if (base != 16 && is_digit(c) && (good || lx->pos == digits)) {
            lex_error(lx, cur_loc(lx), 1, "invalid digit '%c' in %s literal", c, what);
            good = false;
            reported = true;
        } else if (good && is_ident_char(c)) {
            good = false;
        }
        if (!good) {
            while (is_ident_char(peekc(lx, 0))) lx->pos++;
            if (!reported)
                lex_error(lx, loc_at(lx, start), (int)(lx->pos - start), "invalid %s literal", what);
            PyToken t = make_tok(lx, PY_TOK_INT, start);
            return t;
        }
        PyToken t = make_tok(lx, PY_TOK_INT, start);
        bool ovf = false;
        t.ival = int_value(lx->src + digits, lx->pos - digits, base, &ovf);
        t.flags = ovf ? PY_INT_OVERFLOW : 0;
        return t;
    }

    bool good = true, is_float = false;
    if (c0 != '.') good = scan_digits(lx, is_any_digit, false);
    size_t int_end = lx->pos;
    if (peekc(lx, 0) == '.') {
        is_float = true;
        lx->pos++;
        if (is_digit(peekc(lx, 0))) good &= scan_digits(lx, is_any_digit, false);
        else if (peekc(lx, 0) == '_') good = false, scan_digits(lx, is_any_digit, false);
    }
    int c = peekc(lx, 0);
    if ((c | 32) == 'e') {
        int d = peekc(lx, 1);
        size_t k = (d == '+' || d == '-') ? 2 : 1;
        if (is_digit(peekc(lx, k))) {
            is_float = true;
            lx->pos += k;
            good &= scan_digits(lx, is_any_digit, false);
        }
    }
    PyTokKind kind = is_float ? PY_TOK_FLOAT : PY_TOK_INT;
    if ((peekc(lx, 0) | 32) == 'j') {
        kind = PY_TOK_IMAG;
        lx->pos++;
    }
    if (is_ident_char(peekc(lx, 0))) {
        good = false;
        while (is_ident_char(peekc(lx, 0))) lx->pos++;
    }
    PyToken t = make_tok(lx, kind, start);
    if (!good) {
        lex_error(lx, t.loc, (int)t.len, "invalid decimal literal");
        return t;
    }
    if (kind == PY_TOK_INT) {
        /* "0", "00", "0_0" are fine; "012" is not. */
        if (lx->src[start] == '0') {
            for (size_t i = start; i < int_end; i++)
                if (lx->src[i] != '0' && lx->src[i] != '_') {
                    lex_error(lx, t.loc, (int)t.len,
                              "leading zeros in decimal integer literals are not permitted; "
                              "use an 0o prefix for octal integers");
                    return t;
                }
        }
        bool ovf = false;
        t.ival = int_value(lx->src + start, int_end - start, 10, &ovf);
        t.flags = ovf ? PY_INT_OVERFLOW : 0;
        return t;
    }
    /* strtod on a copy without '_' and without the 'j'. */
    StrBuf *sb = &lx->scratch;
    sb->len = 0;
    size_t end = lx->pos - (kind == PY_TOK_IMAG ? 1 : 0);
    for (size_t i = start; i < end; i++)
        if (lx->src[i] != '_') sb_putc(sb, lx->src[i]);
    if (sb->len == 0) sb_putc(sb, '0');
    t.fval = strtod(sb->data, NULL);
    return t;
}

/* ---- strings --------------------------------------------------------------- */

static void put_utf8(StrBuf *sb, uint32_t cp) {
    if (cp < 0x80) {
        sb_putc(sb, (char)cp);
    } else if (cp < 0x800) {
        sb_putc(sb, (char)(0xc0 | (cp >> 6)));
        sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        sb_putc(sb, (char)(0xe0 | (cp >> 12)));
        sb_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
        sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
    } else {
        sb_putc(sb, (char)(0xf0 | (cp >> 18)));
        sb_putc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
        sb_putc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
        sb_putc(sb, (char)(0x80 | (cp & 0x3f)));
    }
}

/* Decodes one escape sequence; pos is just after the backslash. */
static void lex_escape(PyLexer *lx, StrBuf *sb, unsigned flags, size_t bs) {
    int c = peekc(lx, 0);
    if (c == -1) return;
    if (at_newline(lx)) { /* backslash-newline: line continuation inside the string */
        eat_newline(lx);
        return;
    }
    lx->pos++;
    switch (c) {
    case '\\': sb_putc(sb, '\\'); return;
    case '\'': sb_putc(sb, '\''); return;
    case '"': sb_putc(sb, '"'); return;
    case 'a': sb_putc(sb, '\a'); return;
    case 'b': sb_putc(sb, '\b'); return;
    case 'f': sb_putc(sb, '\f'); return;
    case 'n': sb_putc(sb, '\n'); return;
    case 'r': sb_putc(sb, '\r'); return;
    case 't': sb_putc(sb, '\t'); return;
    case 'v': sb_putc(sb, '\v'); return;
    case 'x': case 'u': case 'U': {
        int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        if (c != 'x' && (flags & PY_STR_BYTES)) break; /* \u in bytes is literal */
        uint32_t v = 0;
        for (int i = 0; i < n; i++) {
            int d = peekc(lx, 0);
            if (!is_hex(d)) {
                lex_error(lx, loc_at(lx, bs), (int)(lx->pos - bs), "truncated \\%c escape sequence", c);
                return;
            }
            v = v * 16 + (uint32_t)hex_val(d);
            lx->pos++;
        }
        if (c == 'x' && (flags & PY_STR_BYTES)) sb_putc(sb, (char)v);
        else if (v > 0x10ffff)
            lex_error(lx, loc_at(lx, bs), (int)(lx->pos - bs), "escape sequence out of range");
        else
            put_utf8(sb, v);
        return;
    }
    default:
        if (c >= '0' && c <= '7') {
            uint32_t v = (uint32_t)(c - '0');
            for (int i = 0; i < 2 && is_oct_digit(peekc(lx, 0)); i++)
                v = v * 8 + (uint32_t)(peekc(lx, 0) - '0'), lx->pos++;
            if (flags & PY_STR_BYTES) sb_putc(sb, (char)(v & 0xff));
            else put_utf8(sb, v);
            return;
        }
        break;
    }
    /* Unknown escapes (\d, \N{...}) are kept as written, as Python does. */
    sb_putc(sb, '\\');
    sb_putc(sb, (char)c);
}

/*
 * string: [prefix] (short_string | long_string)
 * prefix: r | u | b | f | br | rb | fr | rf   (any case)
 * Quotes are ' or ", single or tripled; a short string ends at its line.
 * f-strings are not decoded: their text is kept as written for sema.
 */
static PyToken lex_string(PyLexer *lx, size_t start, unsigned flags) {
    char q = lx->src[lx->pos];
    bool triple = peekc(lx, 1) == q && peekc(lx, 2) == q;
    if (triple) flags |= PY_STR_TRIPLE;
    lx->pos += triple ? 3 : 1;
    int start_line = lx->line;
    size_t start_line_off = lx->line_start;
    StrBuf *sb = &lx->scratch;
    sb->len = 0;
    bool closed = false;
    bool decode = !(flags & (PY_STR_RAW | PY_STR_FSTRING));
    for (;;) {
        int c = peekc(lx, 0);
        if (c == -1) break;
        if (c == q && (!triple || (peekc(lx, 1) == q && peekc(lx, 2) == q))) {
            lx->pos += triple ? 3 : 1;
            closed = true;
            break;
        }
        if (at_newline(lx)) {
            if (!triple) break;
            sb_putc(sb, '\n');
            eat_newline(lx);
            continue;
        }
        if (c == '\\') {
            size_t bs = lx->pos++;
            if (decode) {
                lex_escape(lx, sb, flags, bs);
            } else { /* raw: the backslash stays, and protects the next character */
                sb_putc(sb, '\\');
                if (peekc(lx, 0) == -1) continue;
                if (at_newline(lx)) {
                    sb_putc(sb, '\n');
                    eat_newline(lx);
                } else {
                    sb_putc(sb, (char)peekc(lx, 0));
                    lx->pos++;
                }
            }
            continue;
        }
        sb_putc(sb, (char)c);
        lx->pos++;
    }
    PyToken t = {0};
    t.kind = PY_TOK_STRING;
    t.loc = (Loc){lx->file, start_line, (int)(start - start_line_off) + 1};
    t.off = start;
    t.len = lx->pos - start;
    t.flags = flags;
    t.str = arena_strndup(lx->arena, sb->data ? sb->data : "", sb->len);
    t.slen = sb->len;
    if (!closed) {
        lex_error(lx, t.loc, 1, triple ? "unterminated triple-quoted string literal"
                                       : "unterminated string literal");
        if (peekc(lx, 0) == -1) lx->eof_error = true;
    }
    return t;
}

/* Returns the PY_STR_* flags of a string prefix, or -1 if s is not one. */
static int string_prefix(const char *s, size_t n) {
    if (n == 0 || n > 2) return -1;
    unsigned flags = 0;
    int seen_u = 0;
    for (size_t i = 0; i < n; i++) {
        switch (s[i] | 32) {
        case 'r': if (flags & PY_STR_RAW) return -1; flags |= PY_STR_RAW; break;
        case 'b': if (flags & (PY_STR_BYTES | PY_STR_FSTRING)) return -1; flags |= PY_STR_BYTES; break;
        case 'f': if (flags & (PY_STR_BYTES | PY_STR_FSTRING)) return -1; flags |= PY_STR_FSTRING; break;
        case 'u': seen_u++; break;
        default: return -1;
        }
    }
    if (seen_u && n > 1) return -1;
    return (int)flags;
}

/* ---- names ------------------------------------------------------------------- */

static PyTokKind keyword_kind(const char *s, size_t n);

/* The key of the word [s, s + n) in the lexer's word cache: a word of 16
 * bytes or fewer is all in it (head: bytes 0-7, tail: 8-15, zero past n),
 * a longer one by its first and last 8 and is compared in full besides;
 * and its entry. */
typedef struct WordKey {
    uint64_t head, tail;
    PyNameEntry *e;
} WordKey;

static ALWAYS_INLINE PyNameEntry *word_entry(PyNameCache *names, uint64_t head, uint64_t tail, size_t n) {
    uint64_t h = (head ^ (tail + n) * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;
    return &names->e[h >> (64 - PY_NAME_CACHE_BITS)];
}

static WordKey word_key(PyNameCache *names, const char *s, size_t n) {
    WordKey k;
    if (n <= 16) {
        unsigned char b[16] = {0};
        memcpy(b, s, n);
        memcpy(&k.head, b, 8);
        memcpy(&k.tail, b + 8, 8);
    } else {
        memcpy(&k.head, s, 8);
        memcpy(&k.tail, s + n - 8, 8);
    }
    k.e = word_entry(names, k.head, k.tail, n);
    return k;
}

static ALWAYS_INLINE bool word_hit(const PyNameEntry *e, uint64_t head, uint64_t tail, const char *s, size_t n) {
    return e->len == n && e->head == head && e->tail == tail && (n <= 16 || memcmp(e->str + 8, s + 8, n - 16) == 0);
}

/* A word the cache does not hold: its entry e, filled with the word and its
 * kind (a keyword's, or NAME with its interned text). (The key is passed by
 * value, not as a WordKey: the token loop then keeps it in registers.) */
static NOT_INLINE const PyNameEntry *word_miss(PyLexer *lx, PyNameEntry *e, uint64_t head, uint64_t tail,
                                               const char *s, size_t n) {
    PyTokKind kind = keyword_kind(s, n); /* (keywords are short: a word over 16 bytes is a name) */
    e->head = head;
    e->tail = tail;
    e->len = (uint32_t)n; /* (a word of 4 GB or more never matches again) */
    e->kind = (uint32_t)kind;
    e->str = kind == PY_TOK_NAME ? intern_n(lx->in, s, n) : NULL;
    return e;
}

/* The kind of the word [s, s + n): a keyword's, or NAME with *str its
 * interned text. */
static PyTokKind word_kind(PyLexer *lx, const char *s, size_t n, const char **str) {
    if (!lx->names) lx->names = ARENA_NEW(lx->arena, PyNameCache);
    WordKey k = word_key(lx->names, s, n);
    const PyNameEntry *e = word_hit(k.e, k.head, k.tail, s, n) ? k.e : word_miss(lx, k.e, k.head, k.tail, s, n);
    *str = e->str;
    return (PyTokKind)e->kind;
}

PyTokKind py_lexer_word(PyLexer *lx, const char *s, size_t n, const char **str) { return word_kind(lx, s, n, str); }

static PyTokKind keyword_kind(const char *s, size_t n) {
    /* A switch on the first letter, then a length check and memcmp: a few
     * byte compares per name. */
#define KW(str, k) if (n == sizeof(str) - 1 && memcmp(s, str, n) == 0) return k;
    switch (s[0]) {
    case 'F': KW("False", PY_TOK_KW_FALSE) break;
    case 'N': KW("None", PY_TOK_KW_NONE) break;
    case 'T': KW("True", PY_TOK_KW_TRUE) break;
    case 'a': KW("and", PY_TOK_KW_AND) KW("as", PY_TOK_KW_AS) KW("assert", PY_TOK_KW_ASSERT) KW("async", PY_TOK_KW_ASYNC) KW("await", PY_TOK_KW_AWAIT) break;
    case 'b': KW("break", PY_TOK_KW_BREAK) break;
    case 'c': KW("class", PY_TOK_KW_CLASS) KW("continue", PY_TOK_KW_CONTINUE) break;
    case 'd': KW("def", PY_TOK_KW_DEF) KW("del", PY_TOK_KW_DEL) break;
    case 'e': KW("elif", PY_TOK_KW_ELIF) KW("else", PY_TOK_KW_ELSE) KW("except", PY_TOK_KW_EXCEPT) break;
    case 'f': KW("finally", PY_TOK_KW_FINALLY) KW("for", PY_TOK_KW_FOR) KW("from", PY_TOK_KW_FROM) break;
    case 'g': KW("global", PY_TOK_KW_GLOBAL) break;
    case 'i': KW("if", PY_TOK_KW_IF) KW("import", PY_TOK_KW_IMPORT) KW("in", PY_TOK_KW_IN) KW("is", PY_TOK_KW_IS) break;
    case 'l': KW("lambda", PY_TOK_KW_LAMBDA) break;
    case 'n': KW("nonlocal", PY_TOK_KW_NONLOCAL) KW("not", PY_TOK_KW_NOT) break;
    case 'o': KW("or", PY_TOK_KW_OR) break;
    case 'p': KW("pass", PY_TOK_KW_PASS) break;
    case 'r': KW("raise", PY_TOK_KW_RAISE) KW("return", PY_TOK_KW_RETURN) break;
    case 't': KW("try", PY_TOK_KW_TRY) break;
    case 'w': KW("while", PY_TOK_KW_WHILE) KW("with", PY_TOK_KW_WITH) break;
    case 'y': KW("yield", PY_TOK_KW_YIELD) break;
    default: break;
    }
#undef KW
    return PY_TOK_NAME;
}

/* ---- punctuators ----------------------------------------------------------- */

/* Longest match at u[p] (of len bytes): returns the kind and sets *n to its
 * length, or returns PY_TOK_ERROR if the byte does not start a punctuator. */
static ALWAYS_INLINE PyTokKind punctuator(const unsigned char *u, size_t p, size_t len, int *n) {
    /* (the bytes after the first are read only by the cases that look at
     * them: most punctuators are one byte) */
#define AT(k) (p + (k) < len ? u[p + (k)] : -1)
    int c = AT(0);
    *n = 1;
#define TWO(ch, k2) if (AT(1) == ch) { *n = 2; return k2; }
#define THREE(ch2, ch3, k3) if (AT(1) == ch2 && AT(2) == ch3) { *n = 3; return k3; }
    switch (c) {
    case '(': return PY_TOK_LPAREN;
    case ')': return PY_TOK_RPAREN;
    case '[': return PY_TOK_LBRACKET;
    case ']': return PY_TOK_RBRACKET;
    case '{': return PY_TOK_LBRACE;
    case '}': return PY_TOK_RBRACE;
    case ',': return PY_TOK_COMMA;
    case ';': return PY_TOK_SEMI;
    case '~': return PY_TOK_TILDE;
    case '.': THREE('.', '.', PY_TOK_ELLIPSIS) return PY_TOK_DOT;
    case ':': TWO('=', PY_TOK_WALRUS) return PY_TOK_COLON;
    case '=': TWO('=', PY_TOK_EQ) return PY_TOK_ASSIGN;
    case '!': TWO('=', PY_TOK_NE) return PY_TOK_ERROR;
    case '+': TWO('=', PY_TOK_PLUS_ASSIGN) return PY_TOK_PLUS;
    case '-': TWO('=', PY_TOK_MINUS_ASSIGN) TWO('>', PY_TOK_ARROW) return PY_TOK_MINUS;
    case '*': THREE('*', '=', PY_TOK_DSTAR_ASSIGN) TWO('*', PY_TOK_DSTAR) TWO('=', PY_TOK_STAR_ASSIGN)
        return PY_TOK_STAR;
    case '/': THREE('/', '=', PY_TOK_DSLASH_ASSIGN) TWO('/', PY_TOK_DSLASH) TWO('=', PY_TOK_SLASH_ASSIGN)
        return PY_TOK_SLASH;
    case '%': TWO('=', PY_TOK_PERCENT_ASSIGN) return PY_TOK_PERCENT;
    case '@': TWO('=', PY_TOK_AT_ASSIGN) return PY_TOK_AT;
    case '&': TWO('=', PY_TOK_AMP_ASSIGN) return PY_TOK_AMP;
    case '|': TWO('=', PY_TOK_PIPE_ASSIGN) return PY_TOK_PIPE;
    case '^': TWO('=', PY_TOK_CARET_ASSIGN) return PY_TOK_CARET;
    case '<': THREE('<', '=', PY_TOK_LSHIFT_ASSIGN) TWO('<', PY_TOK_LSHIFT) TWO('=', PY_TOK_LE)
        return PY_TOK_LT;
    case '>': THREE('>', '=', PY_TOK_RSHIFT_ASSIGN) TWO('>', PY_TOK_RSHIFT) TWO('=', PY_TOK_GE)
        return PY_TOK_GT;
    default: return PY_TOK_ERROR;
    }
#undef TWO
#undef THREE
#undef AT
}

static char closer_of(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

/* Tracks brackets; returns the kind to emit for a closer (an unmatched
 * closer becomes ERROR, a mismatched one closes the open bracket). */
static PyTokKind lex_bracket(PyLexer *lx, PyToken *t) {
    char c = lx->src[t->off];
    if (c == '(' || c == '[' || c == '{') {
        if (lx->nbrackets >= PY_MAX_BRACKETS) {
            /* Counted, not stored: the closers still balance. Said once. */
            if (lx->nbrackets++ == PY_MAX_BRACKETS)
                lex_error(lx, t->loc, 1, "too many nested parentheses (more than %d)", PY_MAX_BRACKETS);
            return PY_TOK_ERROR;
        }
        lx->brackets[lx->nbrackets].ch = c;
        lx->brackets[lx->nbrackets].loc = t->loc;
        lx->nbrackets++;
        return t->kind;
    }
    if (lx->nbrackets == 0) {
        lex_error(lx, t->loc, 1, "unmatched '%c'", c);
        return PY_TOK_ERROR;
    }
    if (lx->nbrackets > PY_MAX_BRACKETS) {
        lx->nbrackets--;
        return PY_TOK_ERROR;
    }
    char open = lx->brackets[--lx->nbrackets].ch;
    if (closer_of(open) != c) {
        lex_error(lx, t->loc, 1, "closing parenthesis '%c' does not match opening parenthesis '%c'",
                  c, open);
        lex_report(lx, DIAG_NOTE, lx->brackets[lx->nbrackets].loc, 1, "opening '%c' is here",
                    open);
        return open == '(' ? PY_TOK_RPAREN : open == '[' ? PY_TOK_RBRACKET : PY_TOK_RBRACE;
    }
    return t->kind;
}

/* ---- the token loop ---------------------------------------------------------- */

/* A token of `kind` over [start, pos) on the current line. */
static void set_tok(const PyLexer *lx, PyToken *t, PyTokKind kind, size_t start) {
    *t = (PyToken){.kind = kind, .loc = loc_at(lx, start), .off = start, .len = lx->pos - start};
}

/* A name or keyword from start: c, its first byte, starts an identifier or
 * is >= 0x80 (an error). A string prefix (r'...', f"...") is a string. */
static void lex_name(PyLexer *lx, PyToken *t, size_t start, int c) {
    /* [A-Za-z0-9_]* by the table; a byte >= 0x80 takes the scan that
     * reports it */
    const unsigned char *u = (const unsigned char *)lx->src;
    size_t pos = start + 1;
    while (pos < lx->len && ident_char[u[pos]]) pos++;
    lx->pos = pos;
    bool ascii = c < 0x80 && (pos == lx->len || u[pos] < 0x80);
    if (!ascii) {
        lx->pos = start;
        ascii = scan_ident(lx);
    }
    size_t n = lx->pos - start;
    int q = peekc(lx, 0);
    if (ascii && n <= 2 && (q == '\'' || q == '"')) {
        int flags = string_prefix(lx->src + start, n);
        if (flags >= 0) {
            *t = lex_string(lx, start, (unsigned)flags);
            return;
        }
    }
    set_tok(lx, t, PY_TOK_NAME, start);
    if (!ascii) {
        t->kind = PY_TOK_ERROR;
        lex_error(lx, t->loc, (int)n,
                  "invalid non-ASCII character in identifier (tritonc accepts ASCII identifiers only)");
        return;
    }
    const char *str;
    t->kind = word_kind(lx, lx->src + start, n, &str);
    t->str = str;
}

/* ---- runs of bytes ----------------------------------------------------------- */

#if defined(__SSE2__)
/* How many of the 16 bytes of v are [A-Za-z0-9_] before the first that is
 * not (16: all). */
static ALWAYS_INLINE unsigned ident_run16(__m128i v) {
    /* lo <= x < lo + n as one signed compare, with lo moved to -128 */
    __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    __m128i alpha = _mm_cmplt_epi8(_mm_add_epi8(lower, _mm_set1_epi8((char)(0x80 - 'a'))),
                                   _mm_set1_epi8((char)(-128 + 26)));
    __m128i digit = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - '0'))),
                                   _mm_set1_epi8((char)(-128 + 10)));
    __m128i under = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(alpha, digit), under));
    return (unsigned)__builtin_ctz(~m);
}

/* How many of the 16 bytes at u (all readable) are spaces before the first
 * that is not (16: all). */
static ALWAYS_INLINE unsigned space_run16(const unsigned char *u) {
    __m128i v = _mm_loadu_si128((const __m128i *)u);
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
    return (unsigned)__builtin_ctz(~m);
}
#endif

#if defined(__SSE2__)
/* 16 bytes of ones then 16 of zeros: at 16 - n, the mask of a word's n bytes */
static const unsigned char word_mask[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};
#endif

/* The end of the word that starts at u[start] (an identifier's first byte):
 * the first byte after it that is not [A-Za-z0-9_], or len. */
static ALWAYS_INLINE size_t word_end(const unsigned char *u, size_t start, size_t len) {
    size_t end = start + 1;
    while (end < len && ident_char[u[end]]) end++;
    return end;
}

/* What the byte after a word makes of it: 1, not ASCII (an error); 2, a
 * quote (a string's prefix, if the word is one: two bytes or fewer). */
static const unsigned char word_after[256] = {
    ['\''] = 2, ['"'] = 2,
#define ROW 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
    [0x80] = ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW,
#undef ROW
};

/* The first byte at or after pos that is not a space, or len. */
static ALWAYS_INLINE size_t skip_spaces(const unsigned char *u, size_t pos, size_t len, size_t avail) {
#if defined(__SSE2__)
    if (pos + 16 <= avail) {
        size_t p = pos + space_run16(u + pos);
        if (p >= len) return len;
        if (p < pos + 16) return p;
        pos = p;
    }
#endif
    while (pos < len && u[pos] == ' ') pos++;
    return pos;
}

/* Every token: layout (INDENT, DEDENT, NEWLINE, end of file), comments,
 * line joins, numbers, strings, errors; py_lexer_lex takes the common ones
 * first. */
static NOT_INLINE void lex_token(PyLexer *lx, PyToken *t) {
    if (lx->pending_dedents > 0) {
        lx->pending_dedents--;
        set_tok(lx, t, PY_TOK_DEDENT, lx->pos);
        return;
    }
    int c;
    for (;;) {
        if (lx->at_line_start && lx->nbrackets == 0) {
            lx->at_line_start = false;
            if (lex_indentation(lx, t)) return;
        }
        /* blanks: the run of them at once */
        size_t pos = skip_spaces((const unsigned char *)lx->src, lx->pos, lx->len, lx->avail);
        while (pos < lx->len && (lx->src[pos] == ' ' || lx->src[pos] == '\t' || lx->src[pos] == '\f')) pos++;
        lx->pos = pos;
        c = peekc(lx, 0);
        if (c >= 0 && ident_char[c]) break; /* a name, a keyword, a number: the common case */
        /* white space, comments, continuations */
        if (c == '\r' && !at_newline(lx)) {
            lx->pos++;
            continue;
        }
        if (c == '#') {
            skip_comment(lx);
            continue;
        }
        if (c == '\\') {
            size_t bs = lx->pos++;
            if (at_newline(lx)) {
                eat_newline(lx);
                continue;
            }
            if (peekc(lx, 0) == -1) {
                lex_error(lx, loc_at(lx, bs), 1,
                          "unexpected end of file after line continuation character");
                lx->eof_error = true;
                continue;
            }
            set_tok(lx, t, PY_TOK_ERROR, bs);
            lx->line_has_tokens = true;
            lex_error(lx, t->loc, 1, "unexpected character after line continuation character");
            return;
        }
        if (at_newline(lx)) {
            size_t start = lx->pos;
            Loc loc = cur_loc(lx);
            eat_newline(lx);
            if (lx->nbrackets > 0) continue;
            lx->at_line_start = true;
            if (!lx->line_has_tokens) continue;
            lx->line_has_tokens = false;
            *t = (PyToken){.kind = PY_TOK_NEWLINE, .loc = loc, .off = start, .len = 1};
            return;
        }
        if (c == -1) {
            if (lx->nbrackets > 0) {
                /* Unless the parser already said "expected ')'" with a note
                 * at one of the open brackets. */
                bool told = false;
                if (lx->nbrackets > PY_MAX_BRACKETS) lx->nbrackets = PY_MAX_BRACKETS;
                for (int i = 0; i < lx->nbrackets; i++)
                    if (lx->brackets[i].loc.line == lx->reported_open.line &&
                        lx->brackets[i].loc.col == lx->reported_open.col)
                        told = true;
                int i = 0; /* the outermost: where the trouble started */
                if (!told)
                    lex_error(lx, lx->brackets[i].loc, 1, "'%c' was never closed", lx->brackets[i].ch);
                lx->nbrackets = 0;
                lx->eof_error = true;
            }
            if (lx->line_has_tokens) {
                lx->line_has_tokens = false;
                set_tok(lx, t, PY_TOK_NEWLINE, lx->pos);
                return;
            }
            lx->at_eof = true;
            if (lx->nindents > 0) {
                lx->nindents--;
                set_tok(lx, t, PY_TOK_DEDENT, lx->pos);
                return;
            }
            set_tok(lx, t, PY_TOK_EOF, lx->pos);
            return;
        }
        break;
    }

    lx->line_has_tokens = true;
    size_t start = lx->pos;

    if (is_ident_start(c) || c >= 0x80) {
        lex_name(lx, t, start, c);
        return;
    }
    if (is_digit(c) || (c == '.' && is_digit(peekc(lx, 1)))) {
        *t = lex_number(lx);
        return;
    }
    if (c == '\'' || c == '"') {
        *t = lex_string(lx, start, 0);
        return;
    }

    int n;
    PyTokKind k = punctuator((const unsigned char *)lx->src, lx->pos, lx->len, &n);
    if (k != PY_TOK_ERROR) {
        lx->pos += (size_t)n;
        set_tok(lx, t, k, start);
        if (k >= PY_TOK_LPAREN && k <= PY_TOK_RBRACE) t->kind = lex_bracket(lx, t);
        return;
    }
    lx->pos++;
    set_tok(lx, t, PY_TOK_ERROR, start);
    lex_error(lx, t->loc, 1, "unexpected character %s", describe_char(lx, c));
}

/*
 * The token loop. Most tokens are a name, a punctuator or a small decimal
 * integer after a space or none, inside a line (or on a line joined inside
 * brackets), and most lines end plainly and start with a name at the
 * indentation of the line before: those tokens are made here, with the
 * lexer's position and line kept in registers, and skip the layout's
 * checks. The rest (and every token after a DEDENT) take lex_token, with
 * the state written back around it. A name ends in a word the cache holds
 * or in word_miss; one that turns out to be a string's prefix (r'', f"") or
 * to hold non-ASCII bytes goes to lex_token too, which takes it from the
 * start again.
 */
static ALWAYS_INLINE int lex_loop(PyLexer *lx, PyToken *out, int n) {
    if (!lx->names) lx->names = ARENA_NEW(lx->arena, PyNameCache);
    PyNameCache *names = lx->names;
    const unsigned char *u = (const unsigned char *)lx->src;
    const size_t len = lx->len, avail = lx->avail;
    const char *file = lx->file;
    size_t pos = lx->pos;
    int line = lx->line;
    bool at_line_start = lx->at_line_start, line_has_tokens = lx->line_has_tokens;
    PyToken *t = out, *const end_out = out + n; /* (by pointer: no index kept beside it) */
    for (; t < end_out; t++) {
        if (lx->pending_dedents > 0) goto slow;
        size_t p;
        if (at_line_start && lx->nbrackets == 0) {
            /* a line indented with as many spaces as the open level (no
             * INDENT or DEDENT due, no tabs to check) and starting with a
             * name; any other goes by lex_indentation */
            int level = lx->indents[lx->nindents];
            p = skip_spaces(u, pos, len, avail);
            if (p - pos != (size_t)level || lx->alt_indents[lx->nindents] != level || p >= len ||
                !is_ident_start(u[p]))
                goto slow;
        } else {
            if (pos >= len) goto slow;
            p = u[pos] == ' ' ? skip_spaces(u, pos + 1, len, avail) : pos;
            if (p >= len) goto slow;
            int c = u[p];
            if (!is_ident_start(c)) {
                if (c == '\n' && lx->nbrackets > 0) { /* lines joined inside brackets: no token */
                    do {
                        line++;
                        pos = lx->line_start = p + 1;
                        p = skip_spaces(u, pos, len, avail);
                    } while (p < len && u[p] == '\n');
                    if (p >= len) goto slow;
                    c = u[p];
                    if (!is_ident_start(c)) goto slow;
                    goto word;
                }
                if (c == '\n' && line_has_tokens) { /* the end of a logical line */
                    t->kind = PY_TOK_NEWLINE;
                    t->flags = 0;
                    t->loc = (Loc){file, line, (int)(p - lx->line_start) + 1};
                    t->off = p;
                    t->len = 1;
                    pos = lx->line_start = p + 1;
                    line++;
                    at_line_start = true;
                    line_has_tokens = false;
                    continue;
                }
                if (is_digit(c)) {
                    /* a decimal integer as most are written: no '_', no
                     * leading zero, 18 digits at most (no overflow), and
                     * ended by a byte that goes on no number (else
                     * lex_number takes it, and its errors) */
                    size_t q = p + 1;
                    uint64_t v = (uint64_t)(c - '0');
                    while (q < len && q - p < 19 && is_digit(u[q])) v = v * 10 + (uint64_t)(u[q++] - '0');
                    if ((c == '0' && q > p + 1) || q - p == 19 ||
                        (q < len && (ident_char[u[q]] || u[q] == '.' || u[q] >= 0x80)))
                        goto slow;
                    t->kind = PY_TOK_INT;
                    t->flags = 0;
                    t->loc = (Loc){file, line, (int)(p - lx->line_start) + 1};
                    t->off = p;
                    t->len = q - p;
                    t->ival = v;
                    pos = q;
                    line_has_tokens = true;
                    continue;
                }
                int np;
                PyTokKind k = punctuator(u, p, len, &np);
                if (k == PY_TOK_ERROR || (c == '.' && p + 1 < len && is_digit(u[p + 1]))) goto slow;
                t->kind = k;
                t->flags = 0;
                t->loc = (Loc){file, line, (int)(p - lx->line_start) + 1};
                t->off = p;
                t->len = (size_t)np;
                pos = p + (size_t)np;
                line_has_tokens = true;
                if (k >= PY_TOK_LPAREN && k <= PY_TOK_RBRACE) {
                    int nb = lx->nbrackets;
                    if ((k - PY_TOK_LPAREN) % 2 == 0 && nb < PY_MAX_BRACKETS) { /* an opener */
                        lx->brackets[nb].ch = (char)c;
                        lx->brackets[nb].loc = t->loc;
                        lx->nbrackets = nb + 1;
                    } else if ((k - PY_TOK_LPAREN) % 2 == 1 && nb > 0 && nb <= PY_MAX_BRACKETS &&
                               closer_of(lx->brackets[nb - 1].ch) == c) {
                        lx->nbrackets = nb - 1;
                    } else { /* too deep, unmatched or mismatched */
                        lx->pos = pos;
                        t->kind = lex_bracket(lx, t);
                        if (lx->failed) {
                            t++;
                            break;
                        }
                    }
                }
                continue;
            }
        }
        /* a word at p: within the next 16 bytes (all of it in the key), or
         * longer, or near the end of what may be read */
        size_t end, wn;
        uint64_t head, tail;
        bool keyed;
    word:
        keyed = false;
#if defined(__SSE2__)
        if (p + 16 <= avail) {
            __m128i v = _mm_loadu_si128((const __m128i *)(u + p));
            wn = ident_run16(v);
            end = p + wn;
            if (wn < 16 && end <= len) {
                __m128i key = _mm_and_si128(v, _mm_loadu_si128((const __m128i *)(word_mask + 16 - wn)));
                head = (uint64_t)_mm_cvtsi128_si64(key);
                tail = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(key, key));
                keyed = true;
            }
        }
#endif
        if (!keyed) {
            end = word_end(u, p, len);
            wn = end - p;
            WordKey k = word_key(names, (const char *)u + p, wn);
            head = k.head;
            tail = k.tail;
        }
        if (end < len && word_after[u[end]] && (word_after[u[end]] == 1 || wn <= 2)) goto slow;
        const char *w = (const char *)u + p;
        const PyNameEntry *e = word_entry(names, head, tail, wn);
        if (!word_hit(e, head, tail, w, wn)) e = word_miss(lx, (PyNameEntry *)e, head, tail, w, wn);
        t->kind = (PyTokKind)e->kind;
        t->flags = 0;
        t->loc = (Loc){file, line, (int)(p - lx->line_start) + 1};
        t->off = p;
        t->len = wn;
        t->str = e->str;
        pos = end;
        at_line_start = false;
        line_has_tokens = true;
        continue;
    slow:
        lx->pos = pos;
        lx->line = line;
        lx->at_line_start = at_line_start;
        lx->line_has_tokens = line_has_tokens;
        lex_token(lx, t);
        pos = lx->pos;
        line = lx->line;
        at_line_start = lx->at_line_start;
        line_has_tokens = lx->line_has_tokens;
        if (t->kind == PY_TOK_EOF || lx->failed) {
            t++;
            break;
        }
    }
    lx->pos = pos;
    lx->line = line;
    lx->at_line_start = at_line_start;
    lx->line_has_tokens = line_has_tokens;
    return (int)(t - out);
}

void py_lexer_lex(PyLexer *lx, PyToken *t) { lex_loop(lx, t, 1); }

int py_lexer_lex_batch(PyLexer *lx, PyToken *out, int n) { return lex_loop(lx, out, n); }

PyToken py_lexer_next(PyLexer *lx) {
    PyToken t;
    py_lexer_lex(lx, &t);
    return t;
}

PyToken *py_lex(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                size_t len, int *ntokens) {
    PyLexer lx;
    py_lexer_init(&lx, a, in, de, filename, src, len);
    VEC(PyToken) toks = {0};
    for (;;) {
        PyToken t = py_lexer_next(&lx);
        vec_push(&toks, t);
        if (t.kind == PY_TOK_EOF) break;
    }
    PyToken *out = arena_dup(a, toks.data, sizeof(PyToken) * (size_t)toks.len);
    *ntokens = toks.len;
    vec_free(&toks);
    py_lexer_free(&lx);
    return out;
}
