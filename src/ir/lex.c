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

Token lex_next(Lexer *L) {
    /* skip whitespace and comments */
    for (;;) {
        if (L->p >= L->end) break;
        char c = *L->p;
        if (c == '\n') {
            L->p++;
            L->line++;
            L->line_start = L->p;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L->p++;
        } else if (c == '/' && L->p + 1 < L->end && L->p[1] == '/') {
            while (L->p < L->end && *L->p != '\n') L->p++;
        } else {
            break;
        }
    }
    const char *s = L->p, *ls = L->line_start;
    int line = L->line;
    if (L->p >= L->end) return make(L, TK_EOF, s, line, ls);
    char c = *L->p++;
    switch (c) {
    case '(': return make(L, TK_LPAREN, s, line, ls);
    case ')': return make(L, TK_RPAREN, s, line, ls);
    case '{': return make(L, TK_LBRACE, s, line, ls);
    case '}': return make(L, TK_RBRACE, s, line, ls);
    case '[': return make(L, TK_LSQUARE, s, line, ls);
    case ']': return make(L, TK_RSQUARE, s, line, ls);
    case '<': return make(L, TK_LESS, s, line, ls);
    case '>': return make(L, TK_GREATER, s, line, ls);
    case ',': return make(L, TK_COMMA, s, line, ls);
    case ':': return make(L, TK_COLON, s, line, ls);
    case '=': return make(L, TK_EQUAL, s, line, ls);
    case '*': return make(L, TK_STAR, s, line, ls);
    case '+': return make(L, TK_PLUS, s, line, ls);
    case '?': return make(L, TK_QUESTION, s, line, ls);
    case '-':
        if (L->p < L->end && *L->p == '>') {
            L->p++;
            return make(L, TK_ARROW, s, line, ls);
        }
        return make(L, TK_MINUS, s, line, ls);
    case '"':
        while (L->p < L->end && *L->p != '"') {
            if (*L->p == '\n') return lex_error(L, s, line, ls, "expected '\"' in string literal");
            if (*L->p == '\\') {
                L->p++;
                if (L->p >= L->end) break;
                if (is_hex(*L->p) && L->p + 1 < L->end && is_hex(L->p[1])) L->p++;
                else if (*L->p != '"' && *L->p != '\\' && *L->p != 'n' && *L->p != 't')
                    return lex_error(L, s, line, ls, "unknown escape in string literal");
            }
            L->p++;
        }
        if (L->p >= L->end) return lex_error(L, s, line, ls, "unterminated string literal");
        L->p++;
        return make(L, TK_STRING, s, line, ls);
    case '%':
    case '^':
    case '#':
    case '!': {
        TokKind k = c == '%' ? TK_PERCENT : c == '^' ? TK_CARET : c == '#' ? TK_HASH : TK_BANG;
        if (L->p < L->end && is_digit(*L->p)) {
            while (L->p < L->end && is_digit(*L->p)) L->p++;
            return make(L, k, s, line, ls);
        }
        if (L->p >= L->end || !(is_letter(*L->p) || *L->p == '$' || *L->p == '.' || *L->p == '_' ||
                                *L->p == '-'))
            return lex_error(L, s, line, ls, "invalid identifier after sigil");
        while (L->p < L->end && cls(*L->p, C_SUFFIX)) L->p++;
        return make(L, k, s, line, ls);
    }
    case '@':
        if (L->p < L->end && *L->p == '"') {
            Lexer save = *L;
            Token str = lex_next(L);
            if (str.kind != TK_STRING) {
                *L = save;
                return lex_error(L, s, line, ls, "invalid symbol name");
            }
            return make(L, TK_AT, s, line, ls);
        }
        if (L->p >= L->end || !(is_letter(*L->p) || *L->p == '_'))
            return lex_error(L, s, line, ls, "invalid symbol name");
        while (L->p < L->end && cls(*L->p, C_BARE)) L->p++;
        return make(L, TK_AT, s, line, ls);
    default: break;
    }
    if (is_letter(c) || c == '_') {
        while (L->p < L->end && cls(*L->p, C_BARE)) L->p++;
        return make(L, TK_BARE, s, line, ls);
    }
    if (is_digit(c)) {
        if (c == '0' && L->p < L->end && *L->p == 'x') {
            L->p++;
            if (L->p >= L->end || !is_hex(*L->p)) return lex_error(L, s, line, ls, "expected hex digits after '0x'");
            while (L->p < L->end && is_hex(*L->p)) L->p++;
            return make(L, TK_INT, s, line, ls);
        }
        while (L->p < L->end && is_digit(*L->p)) L->p++;
        if (L->p >= L->end || *L->p != '.') return make(L, TK_INT, s, line, ls);
        L->p++;
        while (L->p < L->end && is_digit(*L->p)) L->p++;
        if (L->p < L->end && (*L->p == 'e' || *L->p == 'E')) {
            const char *e = L->p++;
            if (L->p < L->end && (*L->p == '-' || *L->p == '+')) L->p++;
            if (L->p >= L->end || !is_digit(*L->p)) L->p = e; /* not an exponent after all */
            else
                while (L->p < L->end && is_digit(*L->p)) L->p++;
        }
        return make(L, TK_FLOAT, s, line, ls);
    }
    return lex_error(L, s, line, ls, "unexpected character");
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
