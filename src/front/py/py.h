/*
 * py.h - the Python-subset front end: lexer, parser and AST dumper.
 *
 * tritonc reads whole Triton kernel files: the @triton.jit functions that it
 * compiles, and the ordinary host Python around them (imports, autotune
 * configs, `if __name__ == "__main__":` blocks with torch code), which it
 * parses and keeps but never executes. The front end accepts the Python 3
 * statement and expression grammar except for async/await and `match`, and
 * reports errors through a DiagEngine (file:line:col, caret under the token),
 * recovering at the next line so one run reports several.
 *
 *   lex.c    source bytes -> tokens (INDENT/DEDENT, implicit line joining)
 *   parse.c  tokens -> AST (recursive descent, one function per grammar rule)
 *   ast.c    AST helpers: the S-expression dump, py_find_function
 */
#ifndef TC_FRONT_PY_PY_H
#define TC_FRONT_PY_PY_H

#include "front/py/ast.h"

/* ---- tokens ------------------------------------------------------------ */

/* X(name, spelling) for every token kind. Punctuators and keywords are
 * spelled as in the source; the others by what they are. */
#define PY_TOKEN_KINDS(X)                                                      \
    X(EOF, "end of file") X(NEWLINE, "NEWLINE") X(INDENT, "INDENT")            \
    X(DEDENT, "DEDENT") X(NAME, "identifier") X(INT, "integer literal")        \
    X(FLOAT, "float literal") X(IMAG, "imaginary literal")                     \
    X(STRING, "string literal") X(ERROR, "invalid token")                      \
    /* punctuators */                                                          \
    X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]")            \
    X(LBRACE, "{") X(RBRACE, "}") X(COMMA, ",") X(COLON, ":") X(SEMI, ";")     \
    X(DOT, ".") X(ELLIPSIS, "...") X(ARROW, "->") X(AT, "@") X(ASSIGN, "=")    \
    X(WALRUS, ":=") X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/")      \
    X(DSLASH, "//") X(PERCENT, "%") X(DSTAR, "**") X(LSHIFT, "<<")             \
    X(RSHIFT, ">>") X(AMP, "&") X(PIPE, "|") X(CARET, "^") X(TILDE, "~")       \
    X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=") X(EQ, "==") X(NE, "!=")      \
    /* augmented assignments, in PyBinOp order */                              \
    X(PLUS_ASSIGN, "+=") X(MINUS_ASSIGN, "-=") X(STAR_ASSIGN, "*=")            \
    X(AT_ASSIGN, "@=") X(SLASH_ASSIGN, "/=") X(DSLASH_ASSIGN, "//=")           \
    X(PERCENT_ASSIGN, "%=") X(DSTAR_ASSIGN, "**=") X(LSHIFT_ASSIGN, "<<=")     \
    X(RSHIFT_ASSIGN, ">>=") X(PIPE_ASSIGN, "|=") X(CARET_ASSIGN, "^=")         \
    X(AMP_ASSIGN, "&=")                                                        \
    /* keywords */                                                             \
    X(KW_FALSE, "False") X(KW_NONE, "None") X(KW_TRUE, "True")                 \
    X(KW_AND, "and") X(KW_AS, "as") X(KW_ASSERT, "assert")                     \
    X(KW_ASYNC, "async") X(KW_AWAIT, "await") X(KW_BREAK, "break")             \
    X(KW_CLASS, "class") X(KW_CONTINUE, "continue") X(KW_DEF, "def")           \
    X(KW_DEL, "del") X(KW_ELIF, "elif") X(KW_ELSE, "else")                     \
    X(KW_EXCEPT, "except") X(KW_FINALLY, "finally") X(KW_FOR, "for")           \
    X(KW_FROM, "from") X(KW_GLOBAL, "global") X(KW_IF, "if")                   \
    X(KW_IMPORT, "import") X(KW_IN, "in") X(KW_IS, "is")                       \
    X(KW_LAMBDA, "lambda") X(KW_NONLOCAL, "nonlocal") X(KW_NOT, "not")         \
    X(KW_OR, "or") X(KW_PASS, "pass") X(KW_RAISE, "raise")                     \
    X(KW_RETURN, "return") X(KW_TRY, "try") X(KW_WHILE, "while")               \
    X(KW_WITH, "with") X(KW_YIELD, "yield")

typedef enum PyTokKind {
#define X(name, spelling) PY_TOK_##name,
    PY_TOKEN_KINDS(X)
#undef X
    PY_TOK_COUNT
} PyTokKind;

#define PY_TOK_FIRST_KEYWORD PY_TOK_KW_FALSE

/* PY_TOK_INT flags */
enum { PY_INT_OVERFLOW = 1 };

/* (56 bytes: the parser steps through arrays of them and copies a few;
 * the fields of one kind share a union, read only for that kind) */
typedef struct PyToken {
    PyTokKind kind;
    unsigned flags;  /* STRING: PY_STR_*; INT: PY_INT_OVERFLOW */
    Loc loc;         /* first character; col counts bytes, 1-based */
    size_t off, len; /* byte range in the source */
    union {
        const char *str; /* NAME: interned; STRING: decoded bytes (arena, NUL-terminated) */
        uint64_t ival;   /* INT */
        double fval;     /* FLOAT, IMAG */
    };
    size_t slen;     /* STRING: number of decoded bytes */
} PyToken;

/* "(" / "def" / "identifier" ... */
const char *py_tok_spelling(PyTokKind k);
/* "PLUS", "KW_DEF", ... (for token dumps in tests) */
const char *py_tok_name(PyTokKind k);

/* The words a lexer has met, by their bytes: names (interned) and keywords
 * (their token kind). Most words of a function repeat (`tl`, `if`, its
 * locals), and a hit here is a few word compares where the keyword table
 * and the interner would look at the word again. Lexers may share one
 * (py_parse_lazy's, for the whole file, since they share the interner). */
enum { PY_NAME_CACHE_BITS = 10, PY_NAME_CACHE = 1 << PY_NAME_CACHE_BITS };
typedef struct PyNameEntry {
    uint64_t head, tail; /* bytes 0-7 and 8-15, zero-padded (a word over 16 bytes: its first and last 8) */
    const char *str;     /* NAME: interned; a keyword: NULL */
    uint32_t len;        /* 0: empty */
    uint32_t kind;       /* PY_TOK_NAME or the keyword's PyTokKind */
} PyNameEntry;
typedef struct PyNameCache {
    PyNameEntry e[PY_NAME_CACHE];
} PyNameCache;

/* The lexer is a pull state machine; py_parse drives one. Its fields are
 * private (they are here so that it can live on the caller's stack). */
enum { PY_MAX_INDENT = 100, PY_MAX_BRACKETS = 200 };
typedef struct PyLexer {
    Arena *arena;
    Interner *in;
    DiagEngine *de;
    PyNameCache *names; /* made at the first name unless given */
    const char *file, *src;
    size_t len, pos, line_start;
    size_t avail; /* bytes readable at src: len, or more where the text lexed is
                     part of a larger one (a function body in its file), for
                     the name scan's 16-byte loads */
    int line;
    int nindents;
    int pending_dedents;
    bool at_line_start, line_has_tokens, at_eof;
    int nbrackets;
    bool eof_error;    /* an error was reported that the parser must not repeat at EOF */
    Loc reported_open; /* an open bracket the parser already reported as unclosed */
    bool dry;          /* report nothing: an error only sets `failed` (a caller lexing ahead) */
    bool failed;
    StrBuf scratch;
    /* stacks, valid up to nindents / nbrackets (not cleared by py_lexer_init) */
    int indents[PY_MAX_INDENT + 1], alt_indents[PY_MAX_INDENT + 1];
    struct {
        char ch;
        Loc loc;
    } brackets[PY_MAX_BRACKETS];
} PyLexer;

void py_lexer_init(PyLexer *lx, Arena *a, Interner *in, DiagEngine *de, const char *filename,
                   const char *src, size_t len);
/* The next token, into *t (after EOF, EOF forever). */
void py_lexer_lex(PyLexer *lx, PyToken *t);
PyToken py_lexer_next(PyLexer *lx); /* the same, returned */
/* Up to n tokens into out, stopping after an EOF or, in a dry run, an
 * error; returns how many it wrote. */
int py_lexer_lex_batch(PyLexer *lx, PyToken *out, int n);
void py_lexer_free(PyLexer *lx);
/* What the n bytes at s (an ASCII identifier) lex as: PY_TOK_NAME, with the
 * interned name in *str, or a keyword's kind; the word goes through the
 * lexer's name cache as if it had lexed it (for a parser that reads a few
 * tokens' bytes itself). */
PyTokKind py_lexer_word(PyLexer *lx, const char *s, size_t n, const char **str);

/* Lexes a whole text; returns an arena array ending with a PY_TOK_EOF token
 * (counted in *ntokens). Errors go to de. */
PyToken *py_lex(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                size_t len, int *ntokens);

/* ---- parsing ----------------------------------------------------------- */

/* Parses a whole file. Never returns NULL: on errors (reported to de) the
 * module holds the statements that parsed. The source is not copied; keep
 * it alive as long as the AST. Registers the source with de for carets. */
PyModule *py_parse(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                   size_t len);

/* As py_parse, but the parameter lists and bodies of module-level `def`s
 * are only delimited (a scan for the matching ')', for the next line in
 * column 0, outside brackets and strings), not parsed: py_func_params and
 * py_func_body parse them when they are first asked for, so a compile
 * parses the functions it uses and not the rest of the file. Syntax errors
 * in them are reported when they are parsed, i.e. never for a function
 * nothing uses (as Triton, which parses only the functions it compiles).
 * The interner, arena and diagnostics must outlive those later parses. */
PyModule *py_parse_lazy(Arena *a, Interner *in, DiagEngine *de, const char *filename, const char *src,
                        size_t len);

/* The parameters and the body of f, parsed now if py_parse_lazy left them
 * (errors go to the DiagEngine given to py_parse_lazy; the parameters are
 * then none, the body empty). */
const PyParamList *py_func_params(const PyFunc *f);
const PyBlock *py_func_body(const PyFunc *f);

/* ---- AST helpers ------------------------------------------------------- */

/* An indented S-expression dump of the module (see ast.c for the format);
 * what `tritonc compile --emit ast` prints. */
void py_ast_dump(const PyModule *m, StrBuf *out);
void py_expr_dump(const PyExpr *e, StrBuf *out);
void py_stmt_dump(const PyStmt *s, int indent, StrBuf *out);

/* The `def` named `name` at module level (also inside module-level if/try/
 * with blocks); NULL if none. */
const PyFunc *py_find_function(const PyModule *m, const char *name);

#endif
