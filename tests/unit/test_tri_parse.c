/*
 * test_tri_parse.c - tests of the .tri front end (lexer, parser, checker).
 *
 *   1. AST dumps of small programs, parsed only and then checked (the
 *      checked dump shows the type of every expression);
 *   2. full diagnostics with source line and caret for a few errors;
 *   3. every .tri program in tests/tri parses and checks with no diagnostic;
 *   4. every .tri file in tests/tri/errors produces exactly the diagnostics
 *      its "# expect: line:col: level: message" comments list, in order;
 *   5. every prefix of every test program goes through without a crash
 *      (the parser and checker must survive any input);
 *   6. throughput of parse + check, printed (the pipeline targets
 *      >= 10,000 programs/s, so the front end must be far cheaper).
 * Runs from the repository root (the test driver's working directory).
 */
#include "front/tri/tri.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        checks++;                                                              \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

typedef struct Run {
    Arena *arena;
    Interner in;
    DiagEngine de;
    TriProgram *prog;
    StrBuf dump, diags;
    bool ok;
} Run;

static void run_src(Run *r, const char *file, const char *src, size_t len, bool check) {
    memset(r, 0, sizeof *r);
    r->arena = arena_new();
    interner_init(&r->in, r->arena);
    diag_init(&r->de);
    r->prog = tri_parse(r->arena, &r->in, &r->de, file, src, len);
    r->ok = !diag_has_errors(&r->de);
    if (check) r->ok = tri_check(r->prog, &r->de) && r->ok;
    tri_ast_dump(r->prog, &r->dump);
    diag_render(&r->de, &r->diags, false);
}

static void run_free(Run *r) {
    sb_free(&r->dump);
    sb_free(&r->diags);
    diag_free(&r->de);
    interner_free(&r->in);
    arena_free(r->arena);
}

/* ---- 1. dumps ------------------------------------------------------------ */

static const struct {
    const char *src, *parsed, *checked;
} dump_cases[] = {
    {"let scale: float32 = 0.5\n", "(let scale: float32 (float 0.5))\n",
     "(let scale: float32 (float 0.5 : float32))\n"},
    {"let t: trit = -1\nlet u = 1t # a trit literal\n", "(let t: trit (int -1))\n(let u (trit 1))\n",
     "(let t: trit (int -1 : int))\n(let u (trit 1 : trit))\n"},
    {"let a = 1 + 2 * 3 - -4\n", "(let a (- (+ (int 1) (* (int 2) (int 3))) (int -4)))\n", NULL},
    {"let n = 4\nlet s = [n * 2, n]\n", NULL,
     "(let n (int 4 : int))\n(let s (list (* (name n : int) (int 2 : int) : int) (name n : int) : List[int, 2]))\n"},
    {"let W = TernaryTensor[2, 2]([[1, 0], [-1, 1t]])\n",
     "(let W (ternary [2, 2] 1 0 -1 1))\n",
     "(let W (ternary [2, 2] 1 0 -1 1 : TernaryTensor[2, 2]))\n"},
    {"fn f(x: tensor<float32, [b, 8]>, w: TernaryTensor[4, 8]) -> Tensor[float32, [b, 4]] {\n"
     "    return ternary_matmul(x, w)\n}\n",
     "(fn f (x: Tensor[float32, [b, 8]]) (w: TernaryTensor[4, 8]) -> Tensor[float32, [b, 4]]\n"
     "  (return (call ternary_matmul (name x) (name w))))\n",
     "(fn f (x: Tensor[float32, [b, 8]]) (w: TernaryTensor[4, 8]) -> Tensor[float32, [b, 4]]\n"
     "  (return (call ternary_matmul (name x : Tensor[float32, [b, 8]]) (name w : TernaryTensor[4, 8]) : "
     "Tensor[float32, [b, 4]])))\n"},
    {"fn g(a: Tensor[float32, [2, 3]], b: Tensor[float32, [3, 5]]) { return a @ b / 2 }\n", NULL,
     "(fn g (a: Tensor[float32, [2, 3]]) (b: Tensor[float32, [3, 5]])\n"
     "  (return (/ (@ (name a : Tensor[float32, [2, 3]]) (name b : Tensor[float32, [3, 5]]) : Tensor[float32, [2, 5]]) "
     "(int 2 : int) : Tensor[float32, [2, 5]])))\n"},
    {"fn q(x: Tensor[float32, [..., 16]]) { return quantize_ternary(x, threshold=0.05) }\n",
     "(fn q (x: Tensor[float32, [..., 16]])\n  (return (call quantize_ternary (name x) threshold=(float 0.05))))\n",
     "(fn q (x: Tensor[float32, [..., 16]])\n  (return (call quantize_ternary (name x : Tensor[float32, [..., 16]]) "
     "threshold=(float 0.05 : float32) : TernaryTensor[..., 16]{scaled})))\n"},
    {"layer L(n: int) {\n  let W = random_ternary([n, n]); let b = zeros([n])\n"
     "  fn forward(x: Tensor[float32]) { return add_bias(ternary_matmul(x, W), b) }\n}\n",
     "(layer L (n: int)\n  (let W (call random_ternary (list (name n) (name n))))\n  (let b (call zeros (list (name n))))\n"
     "  (fn forward (x: Tensor[float32])\n    (return (call add_bias (call ternary_matmul (name x) (name W)) (name b)))))\n",
     NULL},
    {"fn p(w: TernaryTensor[3, 5]) { return unpack_ternary(pack_ternary(w), [3, 5]) }\n", NULL,
     "(fn p (w: TernaryTensor[3, 5])\n  (return (call unpack_ternary (call pack_ternary (name w : TernaryTensor[3, 5]) : "
     "Tensor[uint8, [4]]) (list (int 3 : int) (int 5 : int) : List[int, 2]) : TernaryTensor[3, 5])))\n"},
};

static void test_dumps(void) {
    for (int i = 0; i < TC_ARRAY_LEN(dump_cases); i++) {
        const char *src = dump_cases[i].src;
        for (int pass = 0; pass < 2; pass++) {
            const char *want = pass ? dump_cases[i].checked : dump_cases[i].parsed;
            if (!want) continue;
            Run r;
            run_src(&r, "dump.tri", src, strlen(src), pass == 1);
            CHECK(r.ok, "case %d: unexpected diagnostics:\n%s", i, sb_cstr(&r.diags));
            CHECK(strcmp(sb_cstr(&r.dump), want) == 0, "case %d (%s):\n--- got\n%s--- want\n%s", i,
                  pass ? "checked" : "parsed", sb_cstr(&r.dump), want);
            run_free(&r);
        }
    }
}

/* ---- 2. rendered diagnostics ------------------------------------------------ */

static const struct {
    const char *src, *want;
} render_cases[] = {
    {"let t: trit = 2\n",
     "e.tri:1:15: error: trit value must be -1, 0 or 1, got 2\n"
     "    1 | let t: trit = 2\n"
     "      |               ^\n"},
    {"fn f(a: Tensor[float32, [4, 8]], b: Tensor[float32, [3, 5]]) {\n    return a @ b\n}\n",
     "e.tri:2:14: error: inner dimensions of '@' do not match: the left operand is Tensor[float32, [4, 8]] "
     "and the right is Tensor[float32, [3, 5]] (8 vs 3)\n"
     "    2 |     return a @ b\n"
     "      |              ^\n"},
    {"let scale = 2.0\nfn f(x: Tensor[float32]) { return x * scael }\n",
     "e.tri:2:39: error: undefined name 'scael'; did you mean 'scale'?\n"
     "    2 | fn f(x: Tensor[float32]) { return x * scael }\n"
     "      |                                       ^~~~~\n"},
    {"fn f(x: Tensor[float32]) { return ternary_matmul(x) }\n",
     "e.tri:1:35: error: too few arguments to 'ternary_matmul': expected 2, got 1\n"
     "    1 | fn f(x: Tensor[float32]) { return ternary_matmul(x) }\n"
     "      |                                   ^~~~~~~~~~~~~~\n"},
    {"layer L() {\n  fn forward(x: int) {\n",
     "e.tri:2:23: error: expected '}' before end of file\n"
     "    2 |   fn forward(x: int) {\n"
     "      |                       ^\n"
     "e.tri:2:22: note: to match this '{'\n"
     "    2 |   fn forward(x: int) {\n"
     "      |                      ^\n"},
    {"let x: flaot32 = 1.0\n",
     "e.tri:1:8: error: unknown type 'flaot32'; did you mean 'float32'?\n"
     "    1 | let x: flaot32 = 1.0\n"
     "      |        ^~~~~~~\n"},
};

static void test_render(void) {
    for (int i = 0; i < TC_ARRAY_LEN(render_cases); i++) {
        Run r;
        run_src(&r, "e.tri", render_cases[i].src, strlen(render_cases[i].src), true);
        CHECK(!r.ok, "case %d should fail", i);
        CHECK(strcmp(sb_cstr(&r.diags), render_cases[i].want) == 0, "render case %d:\n--- got\n%s--- want\n%s", i,
              sb_cstr(&r.diags), render_cases[i].want);
        run_free(&r);
    }
}

/* ---- 3-5. files ---------------------------------------------------------------- */

typedef VEC(char *) Names;

static Names list_tri(const char *dir) {
    Names v = {0};
    DIR *d = opendir(dir);
    if (!d) return v;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        size_t n = strlen(ent->d_name);
        if (n > 4 && strcmp(ent->d_name + n - 4, ".tri") == 0) {
            char *p = tc_malloc(strlen(dir) + n + 2);
            sprintf(p, "%s/%s", dir, ent->d_name);
            vec_push(&v, p);
        }
    }
    closedir(d);
    return v;
}

static void free_names(Names *v) {
    for (int i = 0; i < v->len; i++) tc_free(v->data[i]);
    vec_free(v);
}

static void test_clean_programs(Names *files) {
    CHECK(files->len >= 4, "expected the example programs in tests/tri, found %d", files->len);
    for (int i = 0; i < files->len; i++) {
        size_t len;
        char *src = read_file(files->data[i], &len);
        CHECK(src != NULL, "cannot read %s", files->data[i]);
        if (!src) continue;
        Run r;
        run_src(&r, files->data[i], src, len, true);
        CHECK(r.ok && r.de.diags.len == 0, "%s should check clean:\n%s", files->data[i], sb_cstr(&r.diags));
        run_free(&r);
        tc_free(src);
    }
}

/* The "# expect: " lines of src, each prefixed with the file name. */
static void expected_diags(const char *file, const char *src, StrBuf *out) {
    const char *key = "# expect: ";
    for (const char *p = strstr(src, key); p; p = strstr(p, key)) {
        p += strlen(key);
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        sb_printf(out, "%s:%.*s\n", file, (int)(e - p), p);
    }
}

/* The header line of each rendered diagnostic. */
static void actual_diags(const Run *r, StrBuf *out) {
    for (int i = 0; i < r->de.diags.len; i++) {
        const Diag *d = &r->de.diags.data[i];
        static const char *lv[] = {"error", "warning", "note"};
        sb_printf(out, "%s:%d:%d: %s: %s\n", d->loc.file, d->loc.line, d->loc.col, lv[d->level], d->msg);
    }
}

static void test_error_programs(Names *files) {
    CHECK(files->len >= 10, "expected error cases in tests/tri/errors, found %d", files->len);
    for (int i = 0; i < files->len; i++) {
        size_t len;
        char *src = read_file(files->data[i], &len);
        if (!src) continue;
        Run r;
        run_src(&r, files->data[i], src, len, true);
        StrBuf want = {0}, got = {0};
        expected_diags(files->data[i], src, &want);
        actual_diags(&r, &got);
        CHECK(!r.ok, "%s should fail", files->data[i]);
        CHECK(want.len > 0, "%s has no '# expect:' lines", files->data[i]);
        CHECK(strcmp(sb_cstr(&want), sb_cstr(&got)) == 0, "%s:\n--- got\n%s--- want\n%s", files->data[i],
              sb_cstr(&got), sb_cstr(&want));
        /* every diagnostic renders with its source line and caret */
        CHECK(strstr(sb_cstr(&r.diags), "^") != NULL, "%s: no caret rendered", files->data[i]);
        sb_free(&want);
        sb_free(&got);
        run_free(&r);
        tc_free(src);
    }
}

static void test_prefixes(Names *files) {
    for (int i = 0; i < files->len; i++) {
        size_t len;
        char *src = read_file(files->data[i], &len);
        if (!src) continue;
        for (size_t n = 0; n <= len; n++) {
            /* a heap copy of exactly n bytes, so ASan catches any over-read */
            char *copy = tc_malloc(n ? n : 1);
            memcpy(copy, src, n);
            Run r;
            run_src(&r, "prefix.tri", copy, n, true);
            run_free(&r);
            tc_free(copy);
        }
        tc_free(src);
    }
    checks++;
}

static void test_garbage(void) {
    static const char *const inputs[] = {
        "", "\n\n", "}", "{{{{", "((((((", "let", "let x", "let x =", "let x: = 1", "fn", "fn f(",
        "fn f(x", "fn f(x:", "fn f(x: int", "fn f(x: int) ->", "layer", "layer L(", "layer L() {", "layer L() { let",
        "let a = TernaryTensor[", "let a = TernaryTensor[2](", "let a = TernaryTensor[2](1, [", "let a = f(x=",
        "let a = f(x=1, 2)", "let t: Tensor[", "let t: tensor<float32, [", "let t: Tensor[float32, [..., ?]] = 1",
        "let a = 99999999999999999999", "let a = 1e999", "let a = 1.5t", "let a = 12abc", "\x01\x02\xff",
        "let a = -------------------1", "let x = [[[[1]]]]", "let x = ...", "fn f() { return }\nlet y = f()",
        "layer L(n: int) { let W = random_ternary([n, n]) fn forward(x: Tensor[float32]) { return W } }",
        "let x = reshape(ones([2, 3]), [-1, -1])", "let y = transpose(ones([3]))", "let z = flatten(ones([2, 3]), axis=-5)",
    };
    for (int i = 0; i < TC_ARRAY_LEN(inputs); i++) {
        Run r;
        run_src(&r, "g.tri", inputs[i], strlen(inputs[i]), true);
        run_free(&r);
    }
    /* deep nesting is an error, not a stack overflow */
    size_t n = 100000;
    char *deep = tc_malloc(n + 16);
    strcpy(deep, "let a = ");
    memset(deep + 8, '(', n);
    deep[8 + n] = 0;
    Run r;
    run_src(&r, "deep.tri", deep, strlen(deep), true);
    CHECK(!r.ok, "deep nesting must be rejected");
    run_free(&r);
    memset(deep + 8, '-', n);
    run_src(&r, "deep.tri", deep, strlen(deep), true);
    CHECK(!r.ok, "deep unary nesting must be rejected");
    run_free(&r);
    tc_free(deep);
    checks++;
}

/* ---- 6. throughput ---------------------------------------------------------------- */

static void test_throughput(void) {
    size_t len;
    char *src = read_file("tests/tri/transformer.tri", &len);
    if (!src) return;
    int iters = 2000;
    double t0 = now_seconds();
    for (int i = 0; i < iters; i++) {
        Run r;
        memset(&r, 0, sizeof r);
        r.arena = arena_new();
        interner_init(&r.in, r.arena);
        diag_init(&r.de);
        r.prog = tri_parse(r.arena, &r.in, &r.de, "t.tri", src, len);
        tri_check(r.prog, &r.de);
        diag_free(&r.de);
        interner_free(&r.in);
        arena_free(r.arena);
    }
    double dt = now_seconds() - t0;
    printf("test_tri_parse: parse+check of transformer.tri: %.0f programs/s (%.1f us each)\n", iters / dt,
           dt / iters * 1e6);
    tc_free(src);
}

int main(void) {
    test_dumps();
    test_render();
    Names clean = list_tri("tests/tri"), errors = list_tri("tests/tri/errors");
    test_clean_programs(&clean);
    test_error_programs(&errors);
    test_prefixes(&clean);
    test_prefixes(&errors);
    test_garbage();
    test_throughput();
    free_names(&clean);
    free_names(&errors);
    if (failures) {
        fprintf(stderr, "test_tri_parse: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    printf("test_tri_parse: %d checks ok\n", checks);
    return 0;
}
