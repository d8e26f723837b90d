/*
 * text.h - what the IR printer (print.c) and parser (parse.c) share so
 * that one reads exactly what the other writes: the rules for generated
 * value names, which attributes are inherent to an op (printed in `<{...}>`
 * in generic form), string quoting and the pointee of a pointer type.
 */
#ifndef TC_IR_TEXT_H
#define TC_IR_TEXT_H

#include "ir/ir.h"

/* Names the printer makes up itself (`12`, `arg3`); such hints are ignored. */
bool ir_name_is_auto(const char *s);
/* MLIR's result name for an arith.constant: c0_i32, c1024, true, cst. */
void ir_constant_name(Op *op, char *buf, size_t size);
/* The name MLIR gives result i of op (c0_i32 for constants, outLHS and
 * outRHS for tt.split), or NULL. buf holds it when it must be built. */
const char *ir_auto_result_name(Op *op, int i, char *buf, size_t size);
/* Whether `name` is one of op kind's own (inherent) attributes. */
bool ir_attr_is_inherent(OpKind kind, const char *name);
/* "text" with MLIR's escapes (\", \\, \XX). */
void ir_print_string(const char *s, StrBuf *out);
/* A name as a bare identifier when it lexes as one, quoted otherwise. */
void ir_print_attr_name(const char *s, StrBuf *out);
/* Pointee of !tt.ptr<T> (T) or of tensor<NxM x!tt.ptr<T>> (tensor<NxMxT>);
 * NULL for anything else. */
Type *ir_pointee_type(Context *c, Type *t);

/* Limits that keep hostile input from exhausting stack or memory. */
enum {
    IR_MAX_NESTING = 200,       /* regions, attributes, types, locations */
    IR_MAX_RANK = 16,
};
#define IR_MAX_NUMEL (INT64_C(1) << 40)

#endif

/* ---- the lexer (lex.c) ---------------------------------------------------- */

typedef enum TokKind {
    TK_EOF,
    TK_ERROR,   /* text is the offending input; Lexer.error says why */
    TK_BARE,    /* arith.addi, tensor, x, loc, f32 */
    TK_PERCENT, /* %name, %12 */
    TK_CARET,   /* ^bb0 */
    TK_AT,      /* @name, @"quoted" */
    TK_HASH,    /* #loc3, #ttg.blocked, #1 (after a value: a result number) */
    TK_BANG,    /* !tt.ptr */
    TK_INT,     /* 42, 0x7F800000 (unsigned; '-' is its own token) */
    TK_FLOAT,   /* 1.5, 1.000000e+00, 9.99999974E-6 */
    TK_STRING,  /* "text" (start/len include the quotes) */
    TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_LSQUARE, TK_RSQUARE,
    TK_LESS, TK_GREATER, TK_COMMA, TK_COLON, TK_EQUAL, TK_ARROW, TK_STAR,
    TK_MINUS, TK_PLUS, TK_QUESTION,
} TokKind;

typedef struct Token {
    TokKind kind;
    const char *start;
    int len;
    int line, col;
} Token;

typedef struct Lexer {
    const char *p, *end;
    const char *line_start;
    int line;
    const char *error; /* message for the last TK_ERROR */
} Lexer;

void lex_init(Lexer *L, const char *src, size_t len);
Token lex_next(Lexer *L);
/* Moves the lexer back to `p`, a point on the current line (used to split
 * `4x8xf32` inside tensor<...> into its dimensions). */
void lex_rewind(Lexer *L, const char *p);
const char *tok_kind_name(TokKind k);
