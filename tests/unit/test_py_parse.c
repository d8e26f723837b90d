/*
 * test_py_parse.c - the Python parser: AST dumps of many snippets
 * (precedence above all), whole tutorial-style kernel files from
 * tests/front/py/, py_find_function and the source span of a def, and a
 * linear-time check. Exits 0 when every check holds.
 *
 * Expected dumps are written in the format documented in ast.c.
 */
#include "front/py/py.h"

#include <stdio.h>
#include <string.h>

static int failures, checks;

typedef struct Ctx {
    Arena *a;
    Interner in;
    DiagEngine de;
} Ctx;

static void ctx_init(Ctx *c) {
    c->a = arena_new();
    interner_init(&c->in, c->a);
    diag_init(&c->de);
}
static void ctx_free(Ctx *c) {
    diag_free(&c->de);
    interner_free(&c->in);
    arena_free(c->a);
}

static bool no_errors(Ctx *c, int line, const char *what) {
    if (c->de.diags.len == 0) return true;
    StrBuf sb = {0};
    diag_render(&c->de, &sb, false);
    printf("test_py_parse.c:%d: unexpected diagnostics for %s:\n%s", line, what, sb_cstr(&sb));
    sb_free(&sb);
    failures++;
    return false;
}

/* The dump of the expression statement `src` (one line). */
static void check_expr_n(int line, const char *src, const char *expected) {
    checks++;
    Ctx c;
    ctx_init(&c);
    PyModule *m = py_parse(c.a, &c.in, &c.de, "t.py", src, strlen(src));
    if (no_errors(&c, line, src)) {
        StrBuf sb = {0};
        if (m->body.len != 1 || m->body.items[0]->kind != PY_STMT_EXPR) {
            py_ast_dump(m, &sb);
            printf("test_py_parse.c:%d: not one expression statement: %s\n%s", line, src, sb_cstr(&sb));
            failures++;
        } else {
            py_expr_dump(m->body.items[0]->expr.value, &sb);
            if (strcmp(sb_cstr(&sb), expected) != 0) {
                printf("test_py_parse.c:%d: %s\n  expected: %s\n  got:      %s\n", line, src, expected,
                       sb_cstr(&sb));
                failures++;
            }
        }
        sb_free(&sb);
    }
    ctx_free(&c);
}
#define CHECK_EXPR(src, expected) check_expr_n(__LINE__, src, expected)

/* The dump of a whole module, without the "(module" line and the final
 * ")\n": each statement at indentation 1. */
static void check_module_n(int line, const char *src, const char *expected) {
    checks++;
    Ctx c;
    ctx_init(&c);
    PyModule *m = py_parse(c.a, &c.in, &c.de, "t.py", src, strlen(src));
    if (no_errors(&c, line, src)) {
        StrBuf sb = {0};
        py_ast_dump(m, &sb);
        const char *got = sb_cstr(&sb);
        StrBuf want = {0};
        sb_printf(&want, "(module\n%s)\n", expected);
        if (strcmp(got, sb_cstr(&want)) != 0) {
            printf("test_py_parse.c:%d:\n---- source\n%s---- expected\n%s---- got\n%s", line, src,
                   sb_cstr(&want), got);
            failures++;
        }
        sb_free(&want);
        sb_free(&sb);
    }
    ctx_free(&c);
}
#define CHECK_MODULE(src, expected) check_module_n(__LINE__, src, expected)

static void test_precedence(void) {
    CHECK_EXPR("-a**b", "(- (** a b))");
    CHECK_EXPR("a**-b", "(** a (- b))");
    CHECK_EXPR("2**3**2", "(** 2 (** 3 2))");
    CHECK_EXPR("a < b < c", "(cmp a < b < c)");
    CHECK_EXPR("not a == b", "(not (cmp a == b))");
    CHECK_EXPR("x if c else y if d else z", "(ifexp c x (ifexp d y z))");
    CHECK_EXPR("a | b & c ^ d", "(| a (^ (& b c) d))");
    CHECK_EXPR("~x", "(~ x)");
    CHECK_EXPR("a // b % c", "(% (// a b) c)");
    CHECK_EXPR("a - b - c", "(- (- a b) c)");
    CHECK_EXPR("a + b * c - d / e", "(- (+ a (* b c)) (/ d e))");
    CHECK_EXPR("a @ b + c", "(+ (@ a b) c)");
    CHECK_EXPR("a << b + 1 >> c", "(>> (<< a (+ b 1)) c)");
    CHECK_EXPR("a & b == c", "(cmp (& a b) == c)");
    CHECK_EXPR("a or b and not c", "(or a (and b (not c)))");
    CHECK_EXPR("a and b and c or d or e", "(or (and a b c) d e)");
    CHECK_EXPR("not not a", "(not (not a))");
    CHECK_EXPR("-x.y[1](2)", "(- (call (index (. x y) 1) 2))");
    CHECK_EXPR("- - +x", "(- (- (+ x)))");
    CHECK_EXPR("a is not b is c", "(cmp a is not b is c)");
    CHECK_EXPR("a not in b in c != d", "(cmp a not in b in c != d)");
    CHECK_EXPR("a if b or c else d", "(ifexp (or b c) a d)");
    CHECK_EXPR("lambda x, y=1: x + y", "(lambda (x (y = 1)) (+ x y))");
    CHECK_EXPR("lambda: 0", "(lambda () 0)");
    CHECK_EXPR("lambda *a, **k: a", "(lambda ((star a) (dstar k)) a)");
    CHECK_EXPR("(a if b else c)(d)", "(call (ifexp b a c) d)");
    CHECK_EXPR("(x := 5) + 1", "(+ (:= x 5) 1)");
    CHECK_EXPR("a < b == c > d", "(cmp a < b == c > d)");
    CHECK_EXPR("-1 ** 2", "(- (** 1 2))");
    CHECK_EXPR("a ** b ** -c", "(** a (** b (- c)))");
}

static void test_atoms(void) {
    CHECK_EXPR("1_000", "1000");
    CHECK_EXPR("0x10 + 0o10 + 0b10", "(+ (+ 16 8) 2)");
    CHECK_EXPR("1e-5", "1e-05");
    CHECK_EXPR("1.0", "1.0");
    CHECK_EXPR("1.", "1.0");
    CHECK_EXPR(".5", "0.5");
    CHECK_EXPR("2.5j", "2.5j");
    CHECK_EXPR("1.44269504", "1.44269504");
    CHECK_EXPR("'a' \"b\" '''c'''", "\"abc\"");
    CHECK_EXPR("b'x' b'y'", "b\"xy\"");
    CHECK_EXPR("f'{a}' 'b'", "f\"{a}b\"");
    CHECK_EXPR("None, True, False, ...", "(tuple None True False ...)");
    CHECK_EXPR("()", "(tuple)");
    CHECK_EXPR("(1,)", "(tuple 1)");
    CHECK_EXPR("(1)", "1");
    CHECK_EXPR("(1, 2, *x)", "(tuple 1 2 (star x))");
    CHECK_EXPR("[]", "(list)");
    CHECK_EXPR("[1, 2,]", "(list 1 2)");
    CHECK_EXPR("{}", "(dict)");
    CHECK_EXPR("{'a': 1, **b, 'c': 2}", "(dict (\"a\" 1) (dstar b) (\"c\" 2))");
    CHECK_EXPR("{1, 2}", "(set 1 2)");
    CHECK_EXPR("{*a, b}", "(set (star a) b)");
    CHECK_EXPR("[x * 2 for x in range(10) if x if x > 2 for y in x]",
               "(listcomp (* x 2) (for x (call range 10) (if x) (if (cmp x > 2))) (for y x))");
    CHECK_EXPR("{k: v for k, v in d.items()}", "(dictcomp k v (for (tuple k v) (call (. d items))))");
    CHECK_EXPR("{x for x in s}", "(setcomp x (for x s))");
    CHECK_EXPR("(x for x in s)", "(genexp x (for x s))");
    CHECK_EXPR("sum(x for x in s)", "(call sum (genexp x (for x s)))");
    CHECK_EXPR("[x for x in a if x if not x]", "(listcomp x (for x a (if x) (if (not x))))");
}

static void test_postfix(void) {
    CHECK_EXPR("x[:, None]", "(index x (tuple (slice _ _ _) None))");
    CHECK_EXPR("x[None, :, 1:3]", "(index x (tuple None (slice _ _ _) (slice 1 3 _)))");
    CHECK_EXPR("x[::2]", "(index x (slice _ _ 2))");
    CHECK_EXPR("x[1:]", "(index x (slice 1 _ _))");
    CHECK_EXPR("x[:-1]", "(index x (slice _ (- 1) _))");
    CHECK_EXPR("x[a:b:c, ::]", "(index x (tuple (slice a b c) (slice _ _ _)))");
    CHECK_EXPR("x[1,]", "(index x (tuple 1))");
    CHECK_EXPR("x[i][j]", "(index (index x i) j)");
    CHECK_EXPR("acc.to(tl.float16)", "(call (. acc to) (. tl float16))");
    CHECK_EXPR("x.T.dtype.element_ty", "(. (. (. x T) dtype) element_ty)");
    CHECK_EXPR("f(a, b=1, *c, **d)", "(call f a (star c) (kw b 1) (dstar d))");
    CHECK_EXPR("f(*a, *b, c=1, **d, e=2)", "(call f (star a) (star b) (kw c 1) (dstar d) (kw e 2))");
    CHECK_EXPR("f(a,)", "(call f a)");
    CHECK_EXPR("f()()", "(call (call f))");
    CHECK_EXPR("tl.range(0, n, num_stages=3, loop_unroll_factor=2)",
               "(call (. tl range) 0 n (kw num_stages 3) (kw loop_unroll_factor 2))");
    CHECK_EXPR("kernel[grid](x, BLOCK=1024)", "(call (index kernel grid) x (kw BLOCK 1024))");
    CHECK_EXPR("'abc'.join(x)", "(call (. \"abc\" join) x)");
    CHECK_EXPR("f(x := 1)", "(call f (:= x 1))");
}

static void test_statements(void) {
    CHECK_MODULE("a, b = f()\n(c, d) = e\n[g, *h] = i\nx = y = 0\n",
                 "  (= (tuple a b) (call f))\n"
                 "  (= (tuple c d) e)\n"
                 "  (= (list g (star h)) i)\n"
                 "  (= x y 0)");
    CHECK_MODULE("x: tl.tensor = a\ny: int\nself.z: float = 1\n",
                 "  (ann x (. tl tensor) a)\n"
                 "  (ann y int)\n"
                 "  (ann (. self z) float 1)");
    CHECK_MODULE("a += 1\na -= 1\na *= 1\na /= 1\na //= 1\na %= 1\na **= 1\na >>= 1\na <<= 1\n"
                 "a &= 1\na |= 1\na ^= 1\na @= 1\nx[i] += 2\n",
                 "  (+= a 1)\n  (-= a 1)\n  (*= a 1)\n  (/= a 1)\n  (//= a 1)\n  (%= a 1)\n"
                 "  (**= a 1)\n  (>>= a 1)\n  (<<= a 1)\n  (&= a 1)\n  (|= a 1)\n  (^= a 1)\n"
                 "  (@= a 1)\n  (+= (index x i) 2)");
    CHECK_MODULE("import x\nimport x.y as z, w\nfrom x import a, b as c\nfrom . import d\n"
                 "from ..p.q import (e,\n  f,)\nfrom m import *\n",
                 "  (import x)\n"
                 "  (import (as x.y z) w)\n"
                 "  (from x a (as b c))\n"
                 "  (from . d)\n"
                 "  (from ..p.q e f)\n"
                 "  (from m *)");
    CHECK_MODULE("if a:\n    pass\nelif b:\n    x = 1\nelse:\n    y = 2\n",
                 "  (if a\n"
                 "    (pass)\n"
                 "  elif b\n"
                 "    (= x 1)\n"
                 "  else\n"
                 "    (= y 2))");
    CHECK_MODULE("if a:\n    pass\nelse:\n    if b:\n        pass\n",
                 "  (if a\n"
                 "    (pass)\n"
                 "  else\n"
                 "    (if b\n"
                 "      (pass)))");
    CHECK_MODULE("for i in tl.static_range(4):\n    if i: break\n    continue\nelse:\n    pass\n",
                 "  (for i (call (. tl static_range) 4)\n"
                 "    (if i\n"
                 "      (break))\n"
                 "    (continue)\n"
                 "  else\n"
                 "    (pass))");
    CHECK_MODULE("for a, b in zip(x, y): pass\nfor (c, d), e in z: pass\n",
                 "  (for (tuple a b) (call zip x y)\n    (pass))\n"
                 "  (for (tuple (tuple c d) e) z\n    (pass))");
    CHECK_MODULE("while x < 10:\n    x += 1\n", "  (while (cmp x < 10)\n    (+= x 1))");
    CHECK_MODULE("while (n := n - 1): pass\n", "  (while (:= n (- n 1))\n    (pass))");
    CHECK_MODULE("x = 1; y = 2;\n", "  (= x 1)\n  (= y 2)");
    CHECK_MODULE("del a, b[1], c.d\nglobal g, h\nassert x, 'msg'\nassert y\nraise\n"
                 "raise E('x') from e\n",
                 "  (del a (index b 1) (. c d))\n"
                 "  (global g h)\n"
                 "  (assert x \"msg\")\n"
                 "  (assert y)\n"
                 "  (raise)\n"
                 "  (raise (call E \"x\") from e)");
    CHECK_MODULE("def f(a, b: int = 2, *args, c, d=1, **kw) -> T:\n    nonlocal z\n    return a, b\n",
                 "  (def f (a (b : int = 2) (star args) (kwonly c) (kwonly d = 1) (dstar kw)) -> T\n"
                 "    (nonlocal z)\n"
                 "    (return (tuple a b)))");
    CHECK_MODULE("def g(a, /, b, *, c): return\n",
                 "  (def g ((posonly a) b (kwonly c))\n    (return))");
    CHECK_MODULE("def gen():\n    yield\n    yield 1, 2\n    x = yield y\n    yield from z\n",
                 "  (def gen ()\n"
                 "    (expr (yield))\n"
                 "    (expr (yield (tuple 1 2)))\n"
                 "    (= x (yield y))\n"
                 "    (expr (yield-from z)))");
    CHECK_MODULE("@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])\n"
                 "@triton.heuristics({'EVEN': lambda args: args['n'] % 16 == 0})\n"
                 "@jit\n"
                 "def k(X, BLOCK: tl.constexpr):\n"
                 "    pass\n",
                 "  (def k (X (BLOCK : (. tl constexpr)))\n"
                 "    (decorator (call (. triton autotune) (kw configs (list (call (. triton Config) "
                 "(dict (\"BLOCK\" 128)) (kw num_warps 4)))) (kw key (list \"n\"))))\n"
                 "    (decorator (call (. triton heuristics) (dict (\"EVEN\" (lambda (args) (cmp (% "
                 "(index args \"n\") 16) == 0))))))\n"
                 "    (decorator jit)\n"
                 "    (pass))");
    CHECK_MODULE("class A(B, metaclass=M):\n    '''doc'''\n    x = 1\n    @staticmethod\n"
                 "    def f(): pass\nclass C: pass\n",
                 "  (class A (bases B (kw metaclass M))\n"
                 "    (expr \"doc\")\n"
                 "    (= x 1)\n"
                 "    (def f ()\n"
                 "      (decorator staticmethod)\n"
                 "      (pass)))\n"
                 "  (class C\n    (pass))");
    CHECK_MODULE("with open(f) as g, lock:\n    pass\nwith a as (b, c): pass\n",
                 "  (with ((call open f) as g) lock\n    (pass))\n"
                 "  (with (a as (tuple b c))\n    (pass))");
    CHECK_MODULE("try:\n    x()\nexcept (A, B) as e:\n    raise\nexcept C:\n    pass\nexcept:\n"
                 "    pass\nelse:\n    y = 1\nfinally:\n    z = 2\ntry: pass\nfinally: pass\n",
                 "  (try\n"
                 "    (expr (call x))\n"
                 "  except (tuple A B) as e\n"
                 "    (raise)\n"
                 "  except C\n"
                 "    (pass)\n"
                 "  except\n"
                 "    (pass)\n"
                 "  else\n"
                 "    (= y 1)\n"
                 "  finally\n"
                 "    (= z 2))\n"
                 "  (try\n    (pass)\n  finally\n    (pass))");
    CHECK_MODULE("if __name__ == \"__main__\":\n    main()\n",
                 "  (if (cmp __name__ == \"__main__\")\n    (expr (call main)))");
    CHECK_MODULE("x = (1 +\n     2)\nif (a and\n        b):\n    pass\n",
                 "  (= x (+ 1 2))\n  (if (and a b)\n    (pass))");
    CHECK_MODULE("print(*args, sep='')\n", "  (expr (call print (star args) (kw sep \"\")))");
    CHECK_MODULE("x = *a, b\nreturn_ = 1\n", "  (= x (tuple (star a) b))\n  (= return_ 1)");
}

/* py_find_function and the source span of a def. */
static void test_find_function(void) {
    checks++;
    const char *src = "import triton\n\n@triton.jit\ndef add(x, y):\n    # body\n    return x + y  # tail\n\n"
                      "# trailing comment\nif True:\n    def inner(): pass\n";
    Ctx c;
    ctx_init(&c);
    PyModule *m = py_parse(c.a, &c.in, &c.de, "t.py", src, strlen(src));
    if (no_errors(&c, __LINE__, "find_function")) {
        const PyFunc *f = py_find_function(m, "add");
        const char *want = "def add(x, y):\n    # body\n    return x + y";
        if (!f || f->src_end - f->src_start != strlen(want) ||
            memcmp(src + f->src_start, want, strlen(want)) != 0 ||
            memcmp(src + f->decorated_start, "@triton.jit\ndef", 15) != 0 || f->loc.line != 4 ||
            f->loc.col != 1) {
            failures++;
            printf("test_py_parse.c: wrong span for 'add': [%d, %d)\n", f ? (int)f->src_start : -1,
                   f ? (int)f->src_end : -1);
        }
        if (!py_find_function(m, "inner") || py_find_function(m, "nope")) {
            failures++;
            printf("test_py_parse.c: py_find_function lookup failed\n");
        }
    }
    ctx_free(&c);
}

static const char *kernel_files[] = {
    "tests/front/py/vector_add.py", "tests/front/py/fused_softmax.py",
    "tests/front/py/matmul.py",     "tests/front/py/layer_norm.py",
    "tests/front/py/fused_attention.py", "tests/front/py/dropout.py",
};

/* Which jit functions each file must contain. */
static const char *kernel_names[][4] = {
    {"add_kernel", "add", NULL},
    {"softmax_kernel", "softmax", NULL},
    {"matmul_kernel", "leaky_relu", NULL},
    {"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused", NULL},
    {"_attn_fwd", "_attn_fwd_inner", "_attn_bwd_dq", NULL},
    {"_dropout", "_seeded_dropout", NULL},
};

static void test_kernel_files(void) {
    for (int i = 0; i < TC_ARRAY_LEN(kernel_files); i++) {
        checks++;
        size_t len;
        char *src = read_file(kernel_files[i], &len);
        if (!src) {
            printf("test_py_parse.c: cannot read %s (run from the repository root)\n", kernel_files[i]);
            failures++;
            continue;
        }
        Ctx c;
        ctx_init(&c);
        PyModule *m = py_parse(c.a, &c.in, &c.de, kernel_files[i], src, len);
        if (no_errors(&c, __LINE__, kernel_files[i])) {
            for (int k = 0; kernel_names[i][k]; k++) {
                const PyFunc *f = py_find_function(m, kernel_names[i][k]);
                if (!f || memcmp(src + f->src_start, "def ", 4) != 0) {
                    printf("test_py_parse.c: %s: no function %s\n", kernel_files[i], kernel_names[i][k]);
                    failures++;
                }
            }
            /* Every file has a host section. */
            const PyStmt *last = m->body.items[m->body.len - 1];
            if (last->kind != PY_STMT_IF && last->kind != PY_STMT_FOR) {
                printf("test_py_parse.c: %s: no `if __name__ == \"__main__\":` at the end\n", kernel_files[i]);
                failures++;
            }
        }
        ctx_free(&c);
        tc_free(src);
    }
}

/* py_parse_lazy delimits module-level def bodies with a skim of its own
 * (brackets, strings, continuations, comments): once every body is parsed
 * (the dump asks for each), the module must be the one py_parse builds, with
 * the same statement spans and def spans. Over corpus files and snippets
 * that probe the skim's rules. */
static void check_lazy(const char *what, const char *src, size_t len) {
    checks++;
    Ctx e, l;
    ctx_init(&e);
    ctx_init(&l);
    PyModule *me = py_parse(e.a, &e.in, &e.de, what, src, len);
    PyModule *ml = py_parse_lazy(l.a, &l.in, &l.de, what, src, len);
    StrBuf de = {0}, dl = {0};
    py_ast_dump(me, &de);
    py_ast_dump(ml, &dl);
    bool same = strcmp(sb_cstr(&de), sb_cstr(&dl)) == 0 && me->body.len == ml->body.len &&
                e.de.nerrors == 0 && l.de.nerrors == 0;
    for (int i = 0; same && i < me->body.len; i++) {
        const PyStmt *a = me->body.items[i], *b = ml->body.items[i];
        same = a->off == b->off && a->end == b->end && a->loc.line == b->loc.line;
        if (same && a->kind == PY_STMT_DEF)
            same = a->func->src_end == b->func->src_end && a->func->src_start == b->func->src_start &&
                   (a->func->docstring == NULL) == (b->func->docstring == NULL);
    }
    if (!same) {
        printf("test_py_parse.c: %s: py_parse_lazy differs from py_parse\n", what);
        failures++;
    }
    sb_free(&de);
    sb_free(&dl);
    ctx_free(&e);
    ctx_free(&l);
}

static void test_lazy_bodies(void) {
    static const char *snippets[] = {
        "def f(x): return x + 1\ny = 2\n",
        "def f(x):\n    '''doc\ndef g():\n'''\n    y = (x +\n1)  # c\n# column 0 comment\n\n    y = y \\\n+ 2\n"
        "    return y\n\n\nz = f\n",
        "def f():\n    s = 'a\\'#(' + \"b\\\"[\"\n    t = r'\\'' \n    return s\n@deco\ndef g(): pass\n",
        "def f():\n    pass\r\n\r\ndef g():\r\n    return 1\r\n",
        "def f():\n    x = [1,\n2,\n]\n    return x",
        "def f():\n\tif x:\n\t\treturn {\n'a': 1}\n    # trailing comment\n",
        "class C:\n    def m(self):\n        return 1\ndef top():\n    def inner():\n        return 2\n"
        "    return inner\n",
        "if True:\n    def f():\n        return 1\nelse:\n    pass\n",
        "def f(): pass; x = 1\ndef g() -> int:  # header comment\n    return 3   \n   \n",
        "def f():\n    \"\"\"doc\"\"\"\n    return f'{x}#' \\\n        'y'\nx = 1",
        /* lines longer than the skim's sixteen-byte steps, bytes it may stop at for nothing (| & %),
         * brackets in strings and comments, bytes >= 0x80 */
        "def long_lines(aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbb):\n"
        "    xxxxxxxxxxxxxxxx = (aaaaaaaaaaaaaaaa | bbbbbbbbbbbbbbbbbbbb) & 0x0f0f0f0f % 7  # c \xc3\xbc ( [ {\n"
        "    yyyyyyyyyyyyyyyyyyyy = {'kkkkkkkkkkkkkkkk)': [xxxxxxxxxxxxxxxx,\nxxxxxxxxxxxxxxxx], \"\xc3\xa9]\": 1}\n"
        "    return yyyyyyyyyyyyyyyyyyyy\nzzzzzzzzzzzzzzzzzzzzzzzz = long_lines\n",
    };
    for (int i = 0; i < TC_ARRAY_LEN(snippets); i++) {
        char what[32];
        snprintf(what, sizeof what, "snippet %d", i);
        check_lazy(what, snippets[i], strlen(snippets[i]));
    }
    static const char *files[] = {
        "tests/kernels/flash_attention.py", "tests/kernels/lang_features.py", "tests/kernels/lang_extras.py",
        "tests/kernels/matmul_variants.py", "tests/kernels/norms_losses.py",  "tests/kernels/rng.py",
        "tests/front/py/fused_attention.py", "tests/front/py/layer_norm.py",
    };
    for (int i = 0; i < TC_ARRAY_LEN(files); i++) {
        size_t len;
        char *src = read_file(files[i], &len);
        if (!src) {
            checks++, failures++;
            printf("test_py_parse.c: cannot read %s (run from the repository root)\n", files[i]);
            continue;
        }
        check_lazy(files[i], src, len);
        tc_free(src);
    }
}

/* Time per 100 lines over the kernel files, and linearity on a big file. */
static double parse_time(const char *src, size_t len, int reps) {
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        double t0 = now_seconds();
        for (int i = 0; i < reps; i++) {
            Ctx c;
            ctx_init(&c);
            py_parse(c.a, &c.in, &c.de, "p.py", src, len);
            ctx_free(&c);
        }
        double t = (now_seconds() - t0) / reps;
        if (t < best) best = t;
    }
    return best;
}

static void test_performance(void) {
    StrBuf all = {0};
    for (int i = 0; i < TC_ARRAY_LEN(kernel_files); i++) {
        size_t len;
        char *src = read_file(kernel_files[i], &len);
        if (src) sb_putn(&all, src, len);
        tc_free(src);
    }
    int lines = 0;
    for (size_t i = 0; i < all.len; i++) lines += all.data[i] == '\n';
    if (lines == 0) return;
    double t = parse_time(all.data, all.len, 20);
    double per100 = t / lines * 100 * 1e6;
    printf("test_py_parse: %d lines parsed in %.0f us (%.1f us per 100 lines)\n", lines, t * 1e6, per100);
    checks++;
    /* The budget is 100 us per 100 lines; allow sanitizer builds 10x. */
    if (per100 > 1000) {
        printf("test_py_parse.c: parsing is too slow: %.1f us per 100 lines\n", per100);
        failures++;
    }
    /* 16x the text must cost about 16x the time, not 256x. */
    StrBuf big = {0};
    for (int i = 0; i < 16; i++) sb_putn(&big, all.data, all.len);
    double tb = parse_time(big.data, big.len, 2);
    checks++;
    if (tb > t * 16 * 6) { /* quadratic would be 256x; loaded machines jitter */
        printf("test_py_parse.c: superlinear: x1 %.0f us, x16 %.0f us\n", t * 1e6, tb * 1e6);
        failures++;
    }
    sb_free(&big);
    sb_free(&all);
}

int main(void) {
    test_precedence();
    test_atoms();
    test_postfix();
    test_statements();
    test_find_function();
    test_kernel_files();
    test_lazy_bodies();
    test_performance();
    if (failures) {
        printf("test_py_parse: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_py_parse: %d checks passed\n", checks);
    return 0;
}
