/*
 * tri_lex.h - tokens of the .tri language (internal to the front end).
 */
#ifndef TC_TRI_LEX_H
#define TC_TRI_LEX_H

#include "support/support.h"

typedef enum TriTokKind {
    TK_EOF,
    TK_NEWLINE,
    TK_IDENT,
    TK_INT,
    TK_FLOAT,
    TK_TRIT, /* an integer with the suffix t: 1t, 0t */
    TK_LET,
    TK_LAYER,
    TK_FN,
    TK_RETURN,
    TK_LPAREN,
    TK_RPAREN,
    TK_LBRACKET,
    TK_RBRACKET,
    TK_LBRACE,
    TK_RBRACE,
    TK_COMMA,
    TK_COLON,
    TK_SEMI,
    TK_ASSIGN,
    TK_ARROW,
    TK_PLUS,
    TK_MINUS,
    TK_STAR,
    TK_SLASH,
    TK_AT,
    TK_LT,
    TK_GT,
    TK_QUESTION,
    TK_ELLIPSIS,
    TK_ERROR, /* characters the lexer reported (a string, a stray '%'): the
               * parser skips the statement without a second error */
} TriTokKind;

typedef struct TriToken {
    TriTokKind kind;
    Loc loc;
    const char *start; /* into the source */
    int len;
    int64_t ival;
    double fval;
    /* TK_INT past INT64_MAX, reported by the parser (int_literal) in
     * source order: 9223372036854775808 (2^63) needs_minus, ival INT64_MIN,
     * the value only a minus directly before it gives (alone it is too
     * large); a larger one is too_large, ival 0 */
    bool needs_minus, too_large;
} TriToken;

/* Tokenises src[0..len) into an arena array ending with TK_EOF; reports
 * lexical errors to de and skips the offending characters. */
TriToken *tri_lex(Arena *arena, DiagEngine *de, const char *file, const char *src, size_t len,
                  int *ntoks);
const char *tri_tok_kind_name(TriTokKind k);

#endif
