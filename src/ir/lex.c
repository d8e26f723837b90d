/*
 * lex.c - tokens of the IR's text form (MLIR's lexical grammar, the part of
 * it that Triton's dumps use).
 *
 *   bare-id     ::= (letter | '_') (letter | digit | [_$.])*
 *   suffix-id   ::= digit+ | (letter | [$._-]) (letter | digit | [$._-])*
 *   %suffix-id  ^suffix-id  #suffix-id  !suffix-id  @bare-id  @"string"
 *   integer     ::= digit+ | '0x' hex-digit+
 *   float       ::= digit+ '.' digit* ([eE] [-+]? digit+)?
 *   string      ::= '"' (char | '\' ["\\nt] | '\' hex hex)* '"'
 *   comment     ::= '//' to end of line
 *
 * The input is a (pointer, length) pair, not a C string: embedded NULs are
 * just bad characters, and nothing reads past the end.
 */
#include "ir/text.h"

void lex_init(Lexer *L, const char *src, size_t len) {
    L->p = src;
    L->end = src + len;
    L->line_start = src;
    L->line = 1;
    L->error = NULL;
}

void lex_rewind(Lexer *L, const char *p) { L->p = p; }

static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Character classes for the identifier loops (the lexer's hot path). */
enum { C_BARE = 1, C_SUFFIX = 2 }; /* bare-id continuation, suffix-id continuation */
static const unsigned char char_class[256] = {
    ['0'] = 3, ['1'] = 3, ['2'] = 3, ['3'] = 3, ['4'] = 3, ['5'] = 3, ['6'] = 3, ['7'] = 3, ['8'] = 3, ['9'] = 3,
    ['_'] = 3, ['$'] = 3, ['.'] = 3, ['-'] = C_SUFFIX,
    ['a'] = 3, ['b'] = 3, ['c'] = 3, ['d'] = 3, ['e'] = 3, ['f'] = 3, ['g'] = 3, ['h'] = 3, ['i'] = 3,
    ['j'] = 3, ['k'] = 3, ['l'] = 3, ['m'] = 3, ['n'] = 3, ['o'] = 3, ['p'] = 3, ['q'] = 3, ['r'] = 3,
    ['s'] = 3, ['t'] = 3, ['u'] = 3, ['v'] = 3, ['w'] = 3, ['x'] = 3, ['y'] = 3, ['z'] = 3,
    ['A'] = 3, ['B'] = 3, ['C'] = 3, ['D'] = 3, ['E'] = 3, ['F'] = 3, ['G'] = 3, ['H'] = 3, ['I'] = 3,
    ['J'] = 3, ['K'] = 3, ['L'] = 3, ['M'] = 3, ['N'] = 3, ['O'] = 3, ['P'] = 3, ['Q'] = 3, ['R'] = 3,
    ['S'] = 3, ['T'] = 3, ['U'] = 3, ['V'] = 3, ['W'] = 3, ['X'] = 3, ['Y'] = 3, ['Z'] = 3,
};
static bool cls(char c, int k) { return (char_class[(unsigned char)c] & k) != 0; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static Token make(Lexer *L, TokKind k, const char *start, int line, const char *ls) {
    return (Token){k, start, (int)(L->p - start), line, (int)(start - ls) + 1};
}

static Token lex_error(Lexer *L, const char *start, int line, const char *ls, const char *msg) {
    L->error = msg;
    if (L->p == start && L->p < L->end) L->p++;
    return make(L, TK_ERROR, start, line, ls);
}

/* The scanning loops below work on a local cursor `p` and store it back
 * in L->p once per token: through L->p, every character read (a char
 * lvalue may alias anything) would force a reload and a store of the
 * cursor. */
Token lex_next(Lexer *L) {
    const char *p = L->p, *end = L->end;
    /* skip whitespace and comments */
    for (;;) {
        if (p >= end) break;
        char c = *p;
        if (c == ' ') {
            p++;
        } else if (c == '\n') {
            p++;
            L->line++;
            L->line_start = p;
        } else if (c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
        } else if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n') p++;
        } else {
            break;
        }
    }
    const char *s = p, *ls = L->line_start;
    int line = L->line;
    L->p = p;
    if (p >= end) return make(L, TK_EOF, s, line, ls);
    char c = *p++;
    TokKind k;
    switch (c) {
    case '(': k = TK_LPAREN; break;
    case ')': k = TK_RPAREN; break;
    case '{': k = TK_LBRACE; break;
    case '}': k = TK_RBRACE; break;
    case '[': k = TK_LSQUARE; break;
    case ']': k = TK_RSQUARE; break;
    case '<': k = TK_LESS; break;
    case '>': k = TK_GREATER; break;
    case ',': k = TK_COMMA; break;
    case ':': k = TK_COLON; break;
    case '=': k = TK_EQUAL; break;
    case '*': k = TK_STAR; break;
    case '+': k = TK_PLUS; break;
    case '?': k = TK_QUESTION; break;
    case '-':
        k = TK_MINUS;
        if (p < end && *p == '>') {
            p++;
            k = TK_ARROW;
        }
        break;
    case '"':
        while (p < end && *p != '"') {
            if (*p == '\n') {
                L->p = p;
                return lex_error(L, s, line, ls, "expected '\"' in string literal");
            }
            if (*p == '\\') {
                p++;
                if (p >= end) break;
                if (is_hex(*p) && p + 1 < end && is_hex(p[1])) {
                    p++;
                } else if (*p != '"' && *p != '\\' && *p != 'n' && *p != 't') {
                    L->p = p;
                    return lex_error(L, s, line, ls, "unknown escape in string literal");
                }
            }
            p++;
        }
        L->p = p;
        if (p >= end) return lex_error(L, s, line, ls, "unterminated string literal");
        p++;
        k = TK_STRING;
        break;
    case '%':
    case '^':
    case '#':
    case '!':
        k = c == '%' ? TK_PERCENT : c == '^' ? TK_CARET : c == '#' ? TK_HASH : TK_BANG;
        if (p < end && is_digit(*p)) {
            while (p < end && is_digit(*p)) p++;
            break;
        }
        if (p >= end || !(is_letter(*p) || *p == '$' || *p == '.' || *p == '_' || *p == '-')) {
            L->p = p;
            return lex_error(L, s, line, ls, "invalid identifier after sigil");
        }
        while (p < end && cls(*p, C_SUFFIX)) p++;
        break;
    case '@':
        if (p < end && *p == '"') {
            Lexer save = *L;
            L->p = p;
            Token str = lex_next(L);
            if (str.kind != TK_STRING) {
                *L = save;
                L->p = p;
                return lex_error(L, s, line, ls, "invalid symbol name");
            }
            return make(L, TK_AT, s, line, ls);
        }
        if (p >= end || !(is_letter(*p) || *p == '_')) {
            L->p = p;
            return lex_error(L, s, line, ls, "invalid symbol name");
        }
        while (p < end && cls(*p, C_BARE)) p++;
        k = TK_AT;
        break;
    default:
        if (is_letter(c) || c == '_') {
            while (p < end && cls(*p, C_BARE)) p++;
            k = TK_BARE;
            break;
        }
        if (!is_digit(c)) {
            L->p = p;
            return lex_error(L, s, line, ls, "unexpected character");
        }
        k = TK_INT;
        if (c == '0' && p < end && *p == 'x') {
            p++;
            if (p >= end || !is_hex(*p)) {
                L->p = p;
                return lex_error(L, s, line, ls, "expected hex digits after '0x'");
            }
            while (p < end && is_hex(*p)) p++;
            break;
        }
        while (p < end && is_digit(*p)) p++;
        if (p >= end || *p != '.') break;
        p++;
        while (p < end && is_digit(*p)) p++;
        if (p < end && (*p == 'e' || *p == 'E')) {
            const char *e = p++;
            if (p < end && (*p == '-' || *p == '+')) p++;
            if (p >= end || !is_digit(*p)) p = e; /* not an exponent after all */
            else
                while (p < end && is_digit(*p)) p++;
        }
        k = TK_FLOAT;
        break;
    }
    L->p = p;
    return make(L, k, s, line, ls);
}

const char *tok_kind_name(TokKind k) {
    static const char *const names[] = {
        [TK_EOF] = "end of file", [TK_ERROR] = "invalid token", [TK_BARE] = "identifier",
        [TK_PERCENT] = "SSA value", [TK_CARET] = "block name", [TK_AT] = "symbol",
        [TK_HASH] = "'#' identifier", [TK_BANG] = "'!' identifier", [TK_INT] = "integer",
        [TK_FLOAT] = "float", [TK_STRING] = "string", [TK_LPAREN] = "'('", [TK_RPAREN] = "')'",
        [TK_LBRACE] = "'{'", [TK_RBRACE] = "'}'", [TK_LSQUARE] = "'['", [TK_RSQUARE] = "']'",
        [TK_LESS] = "'<'", [TK_GREATER] = "'>'", [TK_COMMA] = "','", [TK_COLON] = "':'",
        [TK_EQUAL] = "'='", [TK_ARROW] = "'->'", [TK_STAR] = "'*'", [TK_MINUS] = "'-'",
        [TK_PLUS] = "'+'", [TK_QUESTION] = "'?'",
    };
    return names[k];
}
