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
        while (L->p < L->end && (is_letter(*L->p) || is_digit(*L->p) || *L->p == '$' ||
                                 *L->p == '.' || *L->p == '_' || *L->p == '-'))
            L->p++;
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
        while (L->p < L->end && (is_letter(*L->p) || is_digit(*L->p) || *L->p == '_' ||
                                 *L->p == '$' || *L->p == '.'))
            L->p++;
        return make(L, TK_AT, s, line, ls);
    default: break;
    }
    if (is_letter(c) || c == '_') {
        while (L->p < L->end && (is_letter(*L->p) || is_digit(*L->p) || *L->p == '_' ||
                                 *L->p == '$' || *L->p == '.'))
            L->p++;
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
