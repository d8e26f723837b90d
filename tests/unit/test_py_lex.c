/*
 * test_py_lex.c - token streams of the Python lexer for tricky inputs.
 *
 * Each case lexes a text and compares a one-line rendering of its tokens
 * (kind names, with the value of names, numbers and strings in parentheses)
 * against the expected string. Exits 0 when every check holds.
 */
#include "front/py/py.h"

#include <stdio.h>
#include <string.h>

static int failures, checks;

/* Renders the tokens of src; also the rendered diagnostics, if any. */
static char *lex_render(const char *src, size_t len, char **diags) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    int n;
    PyToken *t = py_lex(a, &in, &de, "t.py", src, len, &n);
    StrBuf sb = {0};
    for (int i = 0; i < n; i++) {
        if (i) sb_putc(&sb, ' ');
        sb_puts(&sb, py_tok_name(t[i].kind));
        switch (t[i].kind) {
        case PY_TOK_NAME: sb_printf(&sb, "(%s)", t[i].str); break;
        case PY_TOK_INT:
            if (t[i].flags & PY_INT_OVERFLOW) sb_puts(&sb, "(overflow)");
            else sb_printf(&sb, "(%llu)", (unsigned long long)t[i].ival);
            break;
        case PY_TOK_FLOAT:
        case PY_TOK_IMAG: sb_printf(&sb, "(%g)", t[i].fval); break;
        case PY_TOK_STRING:
            sb_putc(&sb, '(');
            if (t[i].flags & PY_STR_RAW) sb_putc(&sb, 'r');
            if (t[i].flags & PY_STR_BYTES) sb_putc(&sb, 'b');
            if (t[i].flags & PY_STR_FSTRING) sb_putc(&sb, 'f');
            sb_putc(&sb, '"');
            for (size_t j = 0; j < t[i].slen; j++) {
                unsigned char c = (unsigned char)t[i].str[j];
                if (c == '\n') sb_puts(&sb, "\\n");
                else if (c == '\t') sb_puts(&sb, "\\t");
                else if (c < 0x20 || c >= 0x7f) sb_printf(&sb, "\\x%02x", c);
                else sb_putc(&sb, (char)c);
            }
            sb_puts(&sb, "\")");
            break;
        default: break;
        }
    }
    StrBuf d = {0};
    diag_add_source(&de, "t.py", src, len);
    diag_render(&de, &d, false);
    *diags = sb_take(&d);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
    return sb_take(&sb);
}

static void check_tokens_n(int line, const char *src, size_t len, const char *expected) {
    checks++;
    char *diags;
    char *got = lex_render(src, len, &diags);
    if (strcmp(got, expected) != 0 || diags[0]) {
        failures++;
        printf("test_py_lex.c:%d: token mismatch\n  input:    \"%s\"\n  expected: %s\n  got:      %s\n%s",
               line, src, expected, got, diags);
    }
    tc_free(got);
    tc_free(diags);
}
#define CHECK_TOKENS(src, expected) check_tokens_n(__LINE__, src, strlen(src), expected)

/* Checks the first token's location. */
static void check_locs(void) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    const char *src = "def f(x):\n    return x  # c\n\n  \t\ny = '''a\nb''' + 1\n";
    int n;
    PyToken *t = py_lex(a, &in, &de, "t.py", src, strlen(src), &n);
    struct {
        int i;
        PyTokKind k;
        int line, col, len;
    } want[] = {
        {0, PY_TOK_KW_DEF, 1, 1, 3},  {1, PY_TOK_NAME, 1, 5, 1},    {6, PY_TOK_NEWLINE, 1, 10, 1},
        {7, PY_TOK_INDENT, 2, 5, 0},  {8, PY_TOK_KW_RETURN, 2, 5, 6}, {9, PY_TOK_NAME, 2, 12, 1},
        {11, PY_TOK_DEDENT, 5, 1, 0}, {12, PY_TOK_NAME, 5, 1, 1},   {14, PY_TOK_STRING, 5, 5, 9},
        {15, PY_TOK_PLUS, 6, 6, 1},   {16, PY_TOK_INT, 6, 8, 1},
    };
    for (int i = 0; i < TC_ARRAY_LEN(want); i++) {
        checks++;
        const PyToken *k = &t[want[i].i];
        if (want[i].i >= n || k->kind != want[i].k || k->loc.line != want[i].line ||
            k->loc.col != want[i].col || (int)k->len != want[i].len) {
            failures++;
            printf("test_py_lex.c: token %d: expected %s at %d:%d len %d, got %s at %d:%d len %d\n",
                   want[i].i, py_tok_name(want[i].k), want[i].line, want[i].col, want[i].len,
                   py_tok_name(k->kind), k->loc.line, k->loc.col, (int)k->len);
        }
    }
    checks++;
    if (de.diags.len) failures++, printf("test_py_lex.c: unexpected diagnostics in check_locs\n");
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
}

int main(void) {
    /* INDENT / DEDENT */
    CHECK_TOKENS("if x:\n    y\n    if z:\n        w\nv\n",
                 "KW_IF NAME(x) COLON NEWLINE INDENT NAME(y) NEWLINE KW_IF NAME(z) COLON NEWLINE "
                 "INDENT NAME(w) NEWLINE DEDENT DEDENT NAME(v) NEWLINE EOF");
    CHECK_TOKENS("if a:\n  if b:\n    c\n  d\n",
                 "KW_IF NAME(a) COLON NEWLINE INDENT KW_IF NAME(b) COLON NEWLINE INDENT NAME(c) "
                 "NEWLINE DEDENT NAME(d) NEWLINE DEDENT EOF");
    /* no final newline; DEDENTs at EOF */
    CHECK_TOKENS("if x:\n  y", "KW_IF NAME(x) COLON NEWLINE INDENT NAME(y) NEWLINE DEDENT EOF");
    CHECK_TOKENS("", "EOF");
    CHECK_TOKENS("\n\n   \n# only a comment\n", "EOF");
    CHECK_TOKENS("x", "NAME(x) NEWLINE EOF");
    /* blank lines and comments at any indentation inside a block */
    CHECK_TOKENS("def f():\n    a\n\n# c\n        # d\n    b\n",
                 "KW_DEF NAME(f) LPAREN RPAREN COLON NEWLINE INDENT NAME(a) NEWLINE NAME(b) "
                 "NEWLINE DEDENT EOF");
    /* tabs: the 8-column rule, used consistently */
    CHECK_TOKENS("if x:\n\ty\n\tz\n", "KW_IF NAME(x) COLON NEWLINE INDENT NAME(y) NEWLINE NAME(z) NEWLINE DEDENT EOF");
    /* CRLF and form feed */
    CHECK_TOKENS("a = 1\r\nif a:\r\n  b\r\n", "NAME(a) ASSIGN INT(1) NEWLINE KW_IF NAME(a) COLON NEWLINE INDENT NAME(b) NEWLINE DEDENT EOF");
    /* implicit line joining inside brackets: no NEWLINE, no INDENT */
    CHECK_TOKENS("f(a,\n        b,\n  c)\nd\n",
                 "NAME(f) LPAREN NAME(a) COMMA NAME(b) COMMA NAME(c) RPAREN NEWLINE NAME(d) NEWLINE EOF");
    CHECK_TOKENS("x = [\n  1,  # one\n\n  2]\n",
                 "NAME(x) ASSIGN LBRACKET INT(1) COMMA INT(2) RBRACKET NEWLINE EOF");
    /* backslash continuation */
    CHECK_TOKENS("x = 1 + \\\n      2\ny\n", "NAME(x) ASSIGN INT(1) PLUS INT(2) NEWLINE NAME(y) NEWLINE EOF");
    /* numbers */
    CHECK_TOKENS("0x_ff 0XAB 0o17 0b1010 1_000 0 00 0_0 18446744073709551615 18446744073709551616",
                 "INT(255) INT(171) INT(15) INT(10) INT(1000) INT(0) INT(0) INT(0) "
                 "INT(18446744073709551615) INT(overflow) NEWLINE EOF");
    CHECK_TOKENS("1e-5 .5 1. 1_000.0 1E+3 3.14e2 2j 1.5J 0.0",
                 "FLOAT(1e-05) FLOAT(0.5) FLOAT(1) FLOAT(1000) FLOAT(1000) FLOAT(314) IMAG(2) "
                 "IMAG(1.5) FLOAT(0) NEWLINE EOF");
    CHECK_TOKENS("x[1:.5] a.b 1 .x",
                 "NAME(x) LBRACKET INT(1) COLON FLOAT(0.5) RBRACKET NAME(a) DOT NAME(b) INT(1) "
                 "DOT NAME(x) NEWLINE EOF");
    /* strings */
    CHECK_TOKENS("'a' \"b\" 'it''s' \"q\\\"q\"",
                 "STRING(\"a\") STRING(\"b\") STRING(\"it\") STRING(\"s\") STRING(\"q\"q\") NEWLINE EOF");
    CHECK_TOKENS("'''doc\nstring''' \"\"\"x\"y\"\"\"",
                 "STRING(\"doc\\nstring\") STRING(\"x\"y\") NEWLINE EOF");
    CHECK_TOKENS("'\\t\\n\\\\\\x41\\101\\u00e9' r'\\n\\'' b'\\xff' f'{x}\\n' Rb'\\d' u'u' BR'x'",
                 "STRING(\"\\t\\n\\AA\\xc3\\xa9\") STRING(r\"\\n\\'\") STRING(b\"\\xff\") "
                 "STRING(f\"{x}\\n\") STRING(rb\"\\d\") STRING(\"u\") STRING(rb\"x\") NEWLINE EOF");
    CHECK_TOKENS("'a\\\nb'", "STRING(\"ab\") NEWLINE EOF");
    CHECK_TOKENS("'h\xc3\xa9' # caf\xc3\xa9\n", "STRING(\"h\\xc3\\xa9\") NEWLINE EOF");
    /* a name that merely starts like a prefix */
    CHECK_TOKENS("rb bf fr'x'", "NAME(rb) NAME(bf) STRING(rf\"x\") NEWLINE EOF");
    /* operators, longest match */
    CHECK_TOKENS("** // @ -> := ... . < <= << <<= > >= >> >>= == != = ~ ^ | & % / * - + ; :",
                 "DSTAR DSLASH AT ARROW WALRUS ELLIPSIS DOT LT LE LSHIFT LSHIFT_ASSIGN GT GE "
                 "RSHIFT RSHIFT_ASSIGN EQ NE ASSIGN TILDE CARET PIPE AMP PERCENT SLASH STAR MINUS "
                 "PLUS SEMI COLON NEWLINE EOF");
    CHECK_TOKENS("+= -= *= /= //= %= **= >>= <<= &= |= ^= @=",
                 "PLUS_ASSIGN MINUS_ASSIGN STAR_ASSIGN SLASH_ASSIGN DSLASH_ASSIGN PERCENT_ASSIGN "
                 "DSTAR_ASSIGN RSHIFT_ASSIGN LSHIFT_ASSIGN AMP_ASSIGN PIPE_ASSIGN CARET_ASSIGN "
                 "AT_ASSIGN NEWLINE EOF");
    CHECK_TOKENS("x**-y a//=b", "NAME(x) DSTAR MINUS NAME(y) NAME(a) DSLASH_ASSIGN NAME(b) NEWLINE EOF");
    /* keywords (and names that contain them) */
    CHECK_TOKENS("False None True and as assert async await break class continue def del elif "
                 "else except finally for from global if import in is lambda nonlocal not or pass "
                 "raise return try while with yield",
                 "KW_FALSE KW_NONE KW_TRUE KW_AND KW_AS KW_ASSERT KW_ASYNC KW_AWAIT KW_BREAK "
                 "KW_CLASS KW_CONTINUE KW_DEF KW_DEL KW_ELIF KW_ELSE KW_EXCEPT KW_FINALLY KW_FOR "
                 "KW_FROM KW_GLOBAL KW_IF KW_IMPORT KW_IN KW_IS KW_LAMBDA KW_NONLOCAL KW_NOT KW_OR "
                 "KW_PASS KW_RAISE KW_RETURN KW_TRY KW_WHILE KW_WITH KW_YIELD NEWLINE EOF");
    CHECK_TOKENS("iff define _if None_ tl.constexpr match",
                 "NAME(iff) NAME(define) NAME(_if) NAME(None_) NAME(tl) DOT NAME(constexpr) NAME(match) NEWLINE EOF");
    /* a UTF-8 byte order mark is skipped */
    CHECK_TOKENS("\xef\xbb\xbfx = 1\n", "NAME(x) ASSIGN INT(1) NEWLINE EOF");
    /* embedded NUL inside a string is data */
    check_tokens_n(__LINE__, "'a\0b'\n", 6, "STRING(\"a\\x00b\") NEWLINE EOF");
    check_locs();

    if (failures) {
        printf("test_py_lex: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_py_lex: %d checks passed\n", checks);
    return 0;
}
