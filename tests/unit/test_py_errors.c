/*
 * test_py_errors.c - the diagnostics of the Python front end.
 *
 * Each case parses a bad input as "t.py" and compares the header lines of
 * the rendered diagnostics ("line:col: error: message", the "t.py:" prefix
 * dropped, one per line) with the expected text: exact messages, exact
 * positions, and no more errors than expected (recovery must not cascade).
 * One case checks a whole rendering, caret included. Exits 0 when every
 * check holds.
 */
#include "front/py/py.h"

#include <stdio.h>
#include <string.h>

static int failures, checks;

static char *render(const char *src, size_t len, bool headers_only) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    py_parse(a, &in, &de, "t.py", src, len);
    StrBuf all = {0}, out = {0};
    diag_render(&de, &all, false);
    if (headers_only) {
        const char *p = sb_cstr(&all);
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            if (strncmp(p, "t.py:", 5) == 0) {
                sb_putn(&out, p + 5, n - 5);
                sb_putc(&out, '\n');
            }
            p += n + (nl ? 1 : 0);
        }
    } else {
        sb_puts(&out, sb_cstr(&all));
    }
    sb_free(&all);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
    return sb_take(&out);
}

/* The diagnostics of src parsed whole (py_parse) and lazily, with every
 * function's parameters and body parsed afterwards (py_parse_lazy, then
 * py_func_params and py_func_body, which lex a body in one batch unless the
 * lexer has an error to report in it): the same, in the same order, for a
 * file whose only statements are defs. */
static char *render_lazy(const char *src, size_t len) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    PyModule *m = py_parse_lazy(a, &in, &de, "t.py", src, len);
    for (int i = 0; i < m->body.len; i++)
        if (m->body.items[i]->kind == PY_STMT_DEF) {
            py_func_params(m->body.items[i]->func);
            py_func_body(m->body.items[i]->func);
        }
    StrBuf all = {0};
    diag_render(&de, &all, false);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
    return sb_take(&all);
}

static void check_lazy(int line, const char *src) {
    checks++;
    char *whole = render(src, strlen(src), false), *lazy = render_lazy(src, strlen(src));
    if (strcmp(whole, lazy) != 0) {
        failures++;
        printf("test_py_errors.c:%d:\n---- source\n%.300s\n---- py_parse\n%s---- lazily\n%s", line, src, whole,
               lazy);
    }
    tc_free(whole);
    tc_free(lazy);
}
#define CHECK_LAZY_SAME(src) check_lazy(__LINE__, src)

static void check_n(int line, const char *src, size_t len, const char *expected, bool headers_only) {
    checks++;
    char *got = render(src, len, headers_only);
    if (strcmp(got, expected) != 0) {
        failures++;
        printf("test_py_errors.c:%d:\n---- source\n%.300s\n---- expected\n%s---- got\n%s", line, src,
               expected, got);
    }
    tc_free(got);
}
#define CHECK_ERRORS(src, expected) check_n(__LINE__, src, strlen(src), expected, true)

int main(void) {
    /* strings */
    CHECK_ERRORS("x = 'abc\ny = 1\n", "1:5: error: unterminated string literal\n");
    CHECK_ERRORS("x = \"\"\"abc\n\ny = 1\n", "1:5: error: unterminated triple-quoted string literal\n");
    CHECK_ERRORS("f('abc)\n", "1:3: error: unterminated string literal\n"
                              "1:2: error: '(' was never closed\n");
    CHECK_ERRORS("x = '\\xZZ'\n", "1:6: error: truncated \\x escape sequence\n");
    CHECK_ERRORS("x = 'a' b'b'\n", "1:9: error: cannot mix bytes and nonbytes literals\n");
    /* brackets */
    CHECK_ERRORS("f(a, b\n", "1:2: error: '(' was never closed\n");
    CHECK_ERRORS("x = a)\n", "1:6: error: unmatched ')'\n");
    CHECK_ERRORS("x = a]\ny = b}\n", "1:6: error: unmatched ']'\n2:6: error: unmatched '}'\n");
    CHECK_ERRORS("f(a, b]\n", "1:7: error: closing parenthesis ']' does not match opening parenthesis '('\n"
                              "1:2: note: opening '(' is here\n");
    CHECK_ERRORS("x = [1, 2\ny = 3\n", "2:1: error: expected ']' after list element, saw 'y'\n"
                                       "1:5: note: to match this '['\n");
    CHECK_ERRORS("x = tl.load(p\nmask = 1\n", "2:1: error: expected ')' after call arguments, saw 'mask'\n"
                                             "1:12: note: to match this '('\n");
    /* indentation */
    CHECK_ERRORS("if x:\n        a\n    b\n", "3:5: error: unindent does not match any outer indentation level\n");
    CHECK_ERRORS("if x:\n\ta\n        b\n", "3:9: error: inconsistent use of tabs and spaces in indentation\n");
    CHECK_ERRORS("if x:\n        a\n\tb\n", "3:2: error: inconsistent use of tabs and spaces in indentation\n");
    CHECK_ERRORS("  x = 1\ny = 2\n", "1:3: error: unexpected indent\n");
    CHECK_ERRORS("x = 1\n    y = 2\n    z = 3\nw = )\n", "2:5: error: unexpected indent\n4:5: error: unmatched ')'\n");
    CHECK_ERRORS("if x:\ny = 1\n", "2:1: error: expected an indented block after 'if' statement on line 1\n");
    CHECK_ERRORS("def f():\n\n# c\n", "4:1: error: expected an indented block after function definition on line 1\n");
    /* compound statement headers */
    CHECK_ERRORS("def f(x)\n    return x\n", "1:9: error: expected ':' after function signature, saw NEWLINE\n");
    CHECK_ERRORS("if x\n    y = 1\nz = )\n", "1:5: error: expected ':' after 'if' condition, saw NEWLINE\n"
                                           "3:5: error: unmatched ')'\n");
    CHECK_ERRORS("if x = 1:\n    pass\n", "1:6: error: expected ':' after 'if' condition, saw '=' (use '==' to compare)\n");
    CHECK_ERRORS("while x\n    pass\n", "1:8: error: expected ':' after 'while' condition, saw NEWLINE\n");
    CHECK_ERRORS("for x y in z: pass\n", "1:7: error: expected 'in' after 'for' loop variable, saw 'y'\n");
    CHECK_ERRORS("for i in range(3)\n    pass\n", "1:18: error: expected ':' after 'for' loop header, saw NEWLINE\n");
    CHECK_ERRORS("class A\n    pass\n", "1:8: error: expected ':' after class header, saw NEWLINE\n");
    CHECK_ERRORS("try:\n    pass\nx = 1\n", "3:1: error: expected 'except' or 'finally' block, saw 'x'\n");
    CHECK_ERRORS("else:\n    pass\n", "1:1: error: 'else' without a matching 'if'\n");
    CHECK_ERRORS("@triton.jit\nx = 1\n", "2:1: error: expected 'def' or 'class' after decorator, saw 'x'\n");
    CHECK_ERRORS("def 1(): pass\n", "1:5: error: expected function name after 'def', saw '1'\n");
    /* numbers */
    CHECK_ERRORS("x = 0x\n", "1:5: error: invalid hexadecimal literal\n");
    CHECK_ERRORS("x = 0xfg\n", "1:5: error: invalid hexadecimal literal\n");
    CHECK_ERRORS("x = 0b102\n", "1:9: error: invalid digit '2' in binary literal\n");
    CHECK_ERRORS("x = 0o8\n", "1:7: error: invalid digit '8' in octal literal\n");
    CHECK_ERRORS("x = 012\n", "1:5: error: leading zeros in decimal integer literals are not permitted; "
                              "use an 0o prefix for octal integers\n");
    CHECK_ERRORS("x = 1__0 + 1_\n", "1:5: error: invalid decimal literal\n1:12: error: invalid decimal literal\n");
    CHECK_ERRORS("x = 1abc\n", "1:5: error: invalid decimal literal\n");
    /* characters */
    CHECK_ERRORS("x = $\n", "1:5: error: unexpected character '$'\n");
    CHECK_ERRORS("x = a ? b\n", "1:7: error: unexpected character '?'\n");
    CHECK_ERRORS("x = caf\xc3\xa9\n", "1:5: error: invalid non-ASCII character in identifier "
                                      "(tritonc accepts ASCII identifiers only)\n");
    CHECK_ERRORS("x = \\ y\n", "1:5: error: unexpected character after line continuation character\n");
    CHECK_ERRORS("x = 1 + \\", "1:9: error: unexpected end of file after line continuation character\n");
    check_n(__LINE__, "x = 1\0\ny = 2\n", 12, "1:6: error: unexpected character '\\x00'\n", true);
    /* expressions and statements */
    CHECK_ERRORS("x = 1 2\n", "1:7: error: expected end of line after statement, saw '2'\n");
    CHECK_ERRORS("print \"hello\"\n", "1:7: error: expected end of line after statement, saw string literal\n");
    CHECK_ERRORS("x = 1 if 2 else\n", "1:16: error: expected expression, saw NEWLINE\n");
    CHECK_ERRORS("x = a if b\n", "1:11: error: expected 'else' in conditional expression, saw NEWLINE\n");
    CHECK_ERRORS("x = {1: 2, 3}\n", "1:13: error: expected ':' after dictionary key, saw '}'\n");
    CHECK_ERRORS("f(a=1, b)\n", "1:8: error: positional argument follows keyword argument\n");
    CHECK_ERRORS("f(**a, b)\n", "1:8: error: positional argument follows keyword argument unpacking\n");
    CHECK_ERRORS("f(a=1, a=2)\n", "1:8: error: keyword argument repeated: a\n");
    CHECK_ERRORS("f(x for x in y, 1)\n", "1:3: error: generator expression must be parenthesized\n");
    CHECK_ERRORS("a + 1 = 2\n", "1:1: error: cannot assign to expression\n");
    CHECK_ERRORS("f() = 1\n", "1:1: error: cannot assign to function call\n");
    CHECK_ERRORS("(a, 1) = 2\n", "1:5: error: cannot assign to literal\n");
    CHECK_ERRORS("None = 1\n", "1:1: error: cannot assign to None\n");
    CHECK_ERRORS("a, b += 1\n", "1:1: error: 'expression' is an illegal target for augmented assignment\n");
    CHECK_ERRORS("a, b: int\n", "1:1: error: only a single target (not a tuple) can be annotated\n");
    CHECK_ERRORS("del f()\n", "1:5: error: cannot delete function call\n");
    CHECK_ERRORS("for f() in x: pass\n", "1:5: error: cannot assign to function call\n");
    CHECK_ERRORS("def f(a=1, b): pass\n", "1:12: error: parameter without a default follows parameter with a default\n");
    CHECK_ERRORS("def f(a, a): pass\n", "1:10: error: duplicate parameter 'a' in function definition\n");
    CHECK_ERRORS("def f(*, a=1, *b): pass\n", "1:15: error: '*' may appear only once in a parameter list\n");
    CHECK_ERRORS("def f(*): pass\n", "1:7: error: named parameters must follow bare '*'\n");
    CHECK_ERRORS("def f(**k, a): pass\n", "1:12: error: parameters cannot follow a var-keyword parameter ('**')\n");
    CHECK_ERRORS("async def f(): pass\n", "1:1: error: 'async' functions and statements are not supported by tritonc\n");
    CHECK_ERRORS("x = await y\n", "1:5: error: 'await' expressions are not supported by tritonc\n");
    CHECK_ERRORS("import\n", "1:7: error: expected module name after 'import', saw NEWLINE\n");
    CHECK_ERRORS("from x import\n", "1:14: error: expected name to import, saw NEWLINE\n");
    CHECK_ERRORS("x = a.\n", "1:7: error: expected attribute name after '.', saw NEWLINE\n");
    CHECK_ERRORS("try:\n    pass\nexcept A, B:\n    pass\n", "3:9: error: multiple exception types must be parenthesized\n");
    /* several errors in one file, one per bad statement, no cascades */
    CHECK_ERRORS("import triton\n"
                 "@triton.jit\n"
                 "def k(x, BLOCK: tl.constexpr)\n"
                 "    pid = tl.program_id(0\n"
                 "    return pid\n"
                 "def ok():\n"
                 "    a = 1 +\n"
                 "    b = 0x\n"
                 "    return a b\n"
                 "if __name__ == '__main__'\n"
                 "    k[(1,)](x)\n",
                 "3:30: error: expected ':' after function signature, saw NEWLINE\n"
                 "8:9: error: invalid hexadecimal literal\n" /* lexed while skipping */
                 "4:24: error: '(' was never closed\n");
    CHECK_ERRORS("def ok():\n"
                 "    a = 1 +\n"
                 "    b = 0x\n"
                 "    return a b\n"
                 "    c = 2\n"
                 "if __name__ == '__main__'\n"
                 "    k[(1,)](x)\n",
                 "2:12: error: expected expression, saw NEWLINE\n"
                 "3:9: error: invalid hexadecimal literal\n"
                 "4:14: error: expected end of line after statement, saw 'b'\n"
                 "6:26: error: expected ':' after 'if' condition, saw NEWLINE\n");
    /* nesting is bounded: no stack overflow, one error */
    {
        StrBuf b = {0};
        for (int i = 0; i < 5000; i++) sb_puts(&b, "a**");
        sb_puts(&b, "a\n");
        check_n(__LINE__, b.data, b.len, "1:601: error: expression nested too deeply (more than 200 levels)\n", true);
        b.len = 0;
        for (int i = 0; i < 300; i++) sb_putc(&b, '(');
        for (int i = 0; i < 300; i++) sb_putc(&b, ')');
        sb_putc(&b, '\n');
        check_n(__LINE__, b.data, b.len, "1:201: error: too many nested parentheses (more than 200)\n", true);
        b.len = 0;
        sb_puts(&b, "x = a");
        for (int i = 0; i < 5000; i++) sb_puts(&b, ".b");
        sb_putc(&b, '\n');
        check_n(__LINE__, b.data, b.len, "1:2006: error: expression too complex (more than 1000 levels deep)\n", true);
        b.len = 0;
        sb_puts(&b, "if a:\n  pass\n");
        for (int i = 0; i < 20000; i++) sb_puts(&b, "elif b:\n  pass\n");
        sb_puts(&b, "x = $\n");
        check_n(__LINE__, b.data, b.len, "40003:5: error: unexpected character '$'\n", true);
        sb_free(&b);
    }
    /* a whole rendering, with the caret */
    check_n(__LINE__, "if x > 0\n    y = 1\n", 19,
            "t.py:1:9: error: expected ':' after 'if' condition, saw NEWLINE\n"
            "    1 | if x > 0\n"
            "      |         ^\n",
            false);
    check_n(__LINE__, "y = f(a,\n      b]\n", 18,
            "t.py:2:8: error: closing parenthesis ']' does not match opening parenthesis '('\n"
            "    2 |       b]\n"
            "      |        ^\n"
            "t.py:1:6: note: opening '(' is here\n"
            "    1 | y = f(a,\n"
            "      |      ^\n",
            false);

    /* a body lexed in one batch, or as it is parsed when the lexer has
     * errors in it: the messages and their order do not change */
    CHECK_LAZY_SAME("def f(x, y):\n    a = x +\n    b = 0x\n    return a b\n");
    CHECK_LAZY_SAME("def f(x, y):\n    a = (x +\n    return a\n");
    CHECK_LAZY_SAME("def f(x):\n    a = x $ 1\n    b = 'abc\n    return a b\n");
    CHECK_LAZY_SAME("def f(x):\n    a = f(x]\n    return a +\n");
    CHECK_LAZY_SAME("def f(x, y=g(1, 2), *, z: 'T' = 3):\n    return x if y else z\n");
    CHECK_LAZY_SAME("def f(x, y=0x):\n    return x\n");
    CHECK_LAZY_SAME("def f(x, y=):\n    return x $\n");
    CHECK_LAZY_SAME("def f(a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8, i=9, j=10, k=11, l=12, m=13, n=14, o=15, "
                    "p=16, q=17, r=18, s=19, t=20, u=21, v=22):\n"
                    "    return g(a=a, b=b, c=c, d=d, e=e, f=f, g=g, h=h, i=i, j=j, k=k, l=l, m=m, n=n, o=o, p=p, "
                    "q=q, r=r, s=s, t=t, u=u, v=v, w=)\n");
    CHECK_LAZY_SAME("def f(x):\n  if x:\n        y = 1\n      z = 2\n  return y\n");

    if (failures) {
        printf("test_py_errors: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_py_errors: %d checks passed\n", checks);
    return 0;
}
