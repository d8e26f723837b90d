/*
 * test_tri_torch.c - the .tri pipeline: nn dialect, passes, PyTorch emitter.
 *
 *   1. the runtime module's text equals src/target/torch/tritonc_tri_runtime.py
 *      and parses with tritonc's Python parser;
 *   2. every program in tests/tri compiles to torch, nnir and json; the code
 *      follows the layout rules (lines <= 99 columns, no tabs or trailing
 *      blanks, two blank lines before top-level definitions, every import
 *      used); the nn IR re-parses and prints the same; every nn op passes
 *      its verifier before and after the passes;
 *   3. every program in tests/tri/errors fails with the diagnostics its
 *      "# expect:" lines list;
 *   4. each pass does its rewrite on a small program (constant folding,
 *      DCE, CSE, both quantization fusions) and says so in the JSON report;
 *   5. with python3 and torch installed: the example modules, an
 *      unoptimised build of each, and the runtime are written to a temporary
 *      folder; tests/tri/test_tri_models.py checks them numerically
 *      (reference from the packed buffers, training through the STE,
 *      state_dict) and tests/tri/test_pack_agreement.py checks that C and
 *      Python pack, unpack and quantize bit for bit, in both directions.
 * Runs from the repository root (the test driver's working directory).
 */
#include "front/tri/tri_lower.h"
#include "dialect/nn.h"
#include "front/py/py.h"
#include "support/ternary.h"
#include "target/torch/torch.h"
#include "transform/pass.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        checks++;                                                                        \
        if (!(cond)) {                                                                   \
            failures++;                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
        }                                                                                \
    } while (0)

static const char *const examples[] = {"mlp", "convnet", "quant", "transformer"};

typedef struct Out {
    TriCompileResult r;
    DiagEngine de;
    StrBuf diags;
    bool ok;
} Out;

static void compile_src(Out *o, const char *file, const char *src, const char *emit, const char *pipeline) {
    memset(o, 0, sizeof *o);
    diag_init(&o->de);
    o->ok = tri_compile_with(file, src, strlen(src), emit, pipeline, &o->r, &o->de);
    diag_render(&o->de, &o->diags, false);
}

static void out_free(Out *o) {
    tri_compile_result_free(&o->r);
    diag_free(&o->de);
    sb_free(&o->diags);
}

static char *read_text(const char *path) {
    size_t len;
    char *s = read_file(path, &len);
    CHECK(s != NULL, "cannot read %s", path);
    return s;
}

/* ---- 1. runtime -------------------------------------------------------------- */

static bool python_parses(const char *name, const char *code, StrBuf *why) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    py_parse(a, &in, &de, name, code, strlen(code));
    bool ok = !diag_has_errors(&de);
    diag_render(&de, why, false);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
    return ok;
}

static void test_runtime(void) {
    char *file = read_text("src/target/torch/tritonc_tri_runtime.py");
    if (!file) return;
    CHECK(strcmp(file, tri_torch_runtime()) == 0,
          "runtime.c is stale: run python3 scripts/embed_tri_runtime.py");
    StrBuf why = {0};
    CHECK(python_parses(TRI_TORCH_RUNTIME_FILE, tri_torch_runtime(), &why), "%s", sb_cstr(&why));
    sb_free(&why);
    tc_free(file);
}

/* ---- 2. examples ----------------------------------------------------------------- */

/* The layout rules the emitter promises (a subset of PEP 8 that matters). */
static void check_layout(const char *name, const char *code) {
    int lineno = 0, blanks = 0;
    for (const char *line = code; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        lineno++;
        CHECK(len <= 99, "%s:%d: line of %zu columns", name, lineno, len);
        CHECK(!memchr(line, '\t', len), "%s:%d: tab", name, lineno);
        CHECK(len == 0 || line[len - 1] != ' ', "%s:%d: trailing blank", name, lineno);
        CHECK(len < 4 || !memmem(line, len, "TODO", 4), "%s:%d: TODO", name, lineno);
        if ((len > 4 && strncmp(line, "def ", 4) == 0) || (len > 6 && strncmp(line, "class ", 6) == 0))
            CHECK(blanks == 2, "%s:%d: %d blank lines before a top-level definition", name, lineno, blanks);
        if (len > 8 && strncmp(line, "    def ", 8) == 0)
            CHECK(blanks == 1, "%s:%d: %d blank lines before a method", name, lineno, blanks);
        blanks = len == 0 ? blanks + 1 : 0;
        CHECK(blanks <= 2, "%s:%d: more than two blank lines", name, lineno);
        if (!nl) {
            CHECK(false, "%s: no newline at the end", name);
            break;
        }
        line = nl + 1;
    }
    CHECK(blanks == 0, "%s: blank lines at the end", name);
    /* every imported name is used after the imports */
    const char *imp = strstr(code, "from " TRI_TORCH_RUNTIME_MODULE " import ");
    if (imp) {
        const char *names = imp + strlen("from " TRI_TORCH_RUNTIME_MODULE " import ");
        const char *end = strstr(names, ")\n");
        const char *eol = strchr(names, '\n');
        if (*names != '(' || !end) end = eol;
        const char *rest = end;
        char buf[64];
        for (const char *p = names; p < end;) {
            while (p < end && (*p == ' ' || *p == ',' || *p == '(' || *p == '\n')) p++;
            size_t n = 0;
            while (p < end && n < sizeof buf - 1 && *p != ',' && *p != ' ' && *p != '\n' && *p != ')')
                buf[n++] = *p++;
            buf[n] = 0;
            if (n) CHECK(strstr(rest, buf) != NULL, "%s: imports %s but never uses it", name, buf);
        }
    }
    if (strstr(code, "import torch.nn.functional as F"))
        CHECK(strstr(code, "F.") != NULL, "%s: imports F without using it", name);
    if (strstr(code, "from torch import nn\n"))
        CHECK(strstr(code, "nn.Parameter") != NULL, "%s: imports nn without using it", name);
}

typedef struct VerifyWalk {
    DiagEngine *de;
    int nn_ops, bad;
} VerifyWalk;

static void verify_nn_op(Op *op, void *ud) {
    VerifyWalk *w = ud;
    if (strncmp(op_name(op), "nn.", 3) != 0) return;
    w->nn_ops++;
    OpVerifyFn fn = op_info_of(op)->verify;
    if (fn && !fn(op, w->de)) w->bad++;
}

/* Lowers the program and runs every nn op's verifier before and after the
 * default pipeline; the IR must re-parse and print the same. */
static void check_ir(const char *name, const char *src) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    TriProgram *p = tri_parse(a, &in, &de, name, src, strlen(src));
    bool ok = !diag_has_errors(&de) && tri_check(p, &de);
    Context *c = ctx_new(&de);
    Op *m = ok ? tri_lower(p, c, &de) : NULL;
    CHECK(m != NULL, "%s: lowering failed", name);
    if (m) {
        VerifyWalk w = {&de, 0, 0};
        op_walk(m, verify_nn_op, &w, false);
        PassContext pc = {.ctx = c, .de = &de};
        CHECK(pass_pipeline_run(m, "tri", &pc, NULL), "%s: pipeline failed", name);
        op_walk(m, verify_nn_op, &w, false);
        StrBuf sb = {0};
        diag_render(&de, &sb, false);
        CHECK(w.bad == 0 && w.nn_ops > 0, "%s: %d of %d nn ops fail their verifier:\n%s", name, w.bad, w.nn_ops,
              sb_cstr(&sb));
        sb_free(&sb);
        StrBuf text = {0}, again = {0};
        ir_print(m, &text, &(PrintOptions){0});
        Context *c2 = ctx_new(&de);
        Op *m2 = ir_parse(c2, name, sb_cstr(&text), text.len);
        CHECK(m2 != NULL, "%s: the nn IR does not re-parse", name);
        if (m2) {
            ir_print(m2, &again, &(PrintOptions){0});
            CHECK(strcmp(sb_cstr(&text), sb_cstr(&again)) == 0, "%s: nn IR round trip differs:\n%s\n---\n%s", name,
                  sb_cstr(&text), sb_cstr(&again));
        }
        sb_free(&text);
        sb_free(&again);
        ctx_free(c2);
    }
    ctx_free(c);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
}

static void test_examples(void) {
    for (int i = 0; i < TC_ARRAY_LEN(examples); i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/tri/%s.tri", examples[i]);
        char *src = read_text(path);
        if (!src) continue;
        const char *emits[] = {"torch", "nnir", "json", "ast"};
        for (int e = 0; e < 4; e++) {
            Out o;
            compile_src(&o, path, src, emits[e], NULL);
            CHECK(o.ok, "%s --emit %s failed:\n%s", path, emits[e], sb_cstr(&o.diags));
            if (!o.ok) {
                out_free(&o);
                continue;
            }
            if (e == 0) {
                CHECK(o.r.code && o.r.runtime == tri_torch_runtime(), "%s: no code", path);
                if (o.r.code) check_layout(path, o.r.code);
                CHECK(o.r.memory_bytes > 0, "%s: no memory figure", path);
            }
            if (e == 1) CHECK(o.r.nnir && strstr(o.r.nnir, "nn.layer"), "%s: no nn IR", path);
            if (e == 2) {
                const char *keys[] = {"\"code\": ", "\"ir\": ", "\"optimizations_applied\": [", "\"imports\": [",
                                      "\"functions\": [", "\"pass\": \"nn-quant-fusion\""};
                for (int k = 0; k < TC_ARRAY_LEN(keys); k++)
                    CHECK(o.r.json && strstr(o.r.json, keys[k]), "%s: json lacks %s", path, keys[k]);
            }
            if (e == 3) CHECK(o.r.ast && strstr(o.r.ast, "(layer "), "%s: no AST dump", path);
            out_free(&o);
        }
        check_ir(path, src);
        tc_free(src);
    }
}

/* ---- 3. errors ----------------------------------------------------------------------- */

static void test_errors(void) {
    DIR *d = opendir("tests/tri/errors");
    CHECK(d != NULL, "no tests/tri/errors");
    if (!d) return;
    struct dirent *ent;
    int n = 0;
    while ((ent = readdir(d))) {
        size_t len = strlen(ent->d_name);
        if (len < 5 || strcmp(ent->d_name + len - 4, ".tri") != 0) continue;
        char path[512];
        snprintf(path, sizeof path, "tests/tri/errors/%s", ent->d_name);
        char *src = read_text(path);
        if (!src) continue;
        Out o;
        compile_src(&o, path, src, "torch", NULL);
        CHECK(!o.ok && o.de.nerrors > 0 && !o.r.code, "%s compiled", path);
        for (const char *p = strstr(src, "# expect: "); p; p = strstr(p + 1, "# expect: ")) {
            const char *s = p + strlen("# expect: "), *e = strchr(s, '\n');
            char want[512];
            snprintf(want, sizeof want, "%.*s", (int)(e ? e - s : (long)strlen(s)), s);
            CHECK(strstr(sb_cstr(&o.diags), want), "%s: missing diagnostic '%s' in:\n%s", path, want,
                  sb_cstr(&o.diags));
        }
        out_free(&o);
        tc_free(src);
        n++;
    }
    closedir(d);
    CHECK(n >= 10, "only %d error programs", n);
}

/* ---- 4. passes ------------------------------------------------------------------------- */

static bool has(const char *text, const char *what) { return text && strstr(text, what) != NULL; }

static int count(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, what)); p++) n++;
    return n;
}

static void test_passes(void) {
    Out o;
    /* constant folding: a constant global read in a method, arithmetic on
     * scalars, a packed literal (folded with the C packer) */
    compile_src(&o, "fold.tri",
                "let half: float32 = 0.25 * 2.0\n"
                "let n = 3 * 4 + 1\n"
                "let p = pack_ternary(TernaryTensor[5](1, -1, 0, 1, 1))\n"
                "fn f(x: Tensor[float32]) -> Tensor[float32] { return x * half + n }\n",
                "json", NULL);
    CHECK(o.ok, "fold: %s", sb_cstr(&o.diags));
    CHECK(has(o.r.nnir, "arith.constant 5.000000e-01 : f32") && !has(o.r.nnir, "nn.global_ref"),
          "fold: the global was not folded:\n%s", o.r.nnir);
    CHECK(has(o.r.nnir, "arith.constant 13 : i64"), "fold: 3 * 4 + 1:\n%s", o.r.nnir);
    /* [1,-1,0,1] -> 10 00 01 10 = 0x86 = 134; [1] -> 10 01 01 01 = 0x95 = 149 */
    CHECK(has(o.r.nnir, "dense<[134, 149]> : tensor<2xui8>"), "fold: packed literal:\n%s", o.r.nnir);
    CHECK(has(o.r.code, "return x * 0.5 + 13"), "fold: code:\n%s", o.r.code);
    CHECK(has(o.r.json, "\"pass\": \"canonicalize\", \"description\": \"constant folding\", \"rewrites\": ") &&
              !has(o.r.json, "\"description\": \"constant folding\", \"rewrites\": 0,"),
          "fold: report:\n%s", o.r.json);
    out_free(&o);

    /* DCE and CSE: an unused let, a weight read twice, relu(relu(x)),
     * -(-x) and transpose(transpose(x)) */
    compile_src(&o, "dce_cse.tri",
                "layer L(n: int) {\n"
                "    let W = random_ternary([n, n])\n"
                "    fn forward(x: Tensor[float32, [b, n]]) -> Tensor[float32, [b, n]] {\n"
                "        let unused = gelu(x)\n"
                "        let y = relu(relu(ternary_matmul(x, W) + ternary_matmul(x, W)))\n"
                "        return transpose(transpose(-(-y)))\n"
                "    }\n"
                "}\n",
                "json", NULL);
    CHECK(o.ok, "dce/cse: %s", sb_cstr(&o.diags));
    CHECK(!has(o.r.nnir, "nn.gelu"), "dce: the unused let stayed:\n%s", o.r.nnir);
    CHECK(count(o.r.nnir, "\"nn.state\"") == 1 && count(o.r.nnir, "\"nn.ternary_matmul\"") == 1,
          "cse: duplicates stayed:\n%s", o.r.nnir);
    CHECK(count(o.r.nnir, "\"nn.relu\"") == 1 && !has(o.r.nnir, "nn.neg") && !has(o.r.nnir, "nn.transpose"),
          "canonicalize: idempotent/involutions stayed:\n%s", o.r.nnir);
    CHECK(has(o.r.json, "\"ops_removed\": {\"nn.gelu\": 1}"), "dce: report:\n%s", o.r.json);
    out_free(&o);

    /* quantization fusion */
    compile_src(&o, "fusion.tri",
                "fn f(x: Tensor[float32]) -> Tensor[float32] {\n"
                "    let a = dequantize(quantize_int8(x))\n"
                "    let b = dequantize(quantize_per_channel(x, axis=1))\n"
                "    let t = quantize_ternary(x, threshold=0.1)\n"
                "    let u = quantize_ternary(dequantize(t))\n"
                "    return a + b + dequantize(u)\n"
                "}\n",
                "json", NULL);
    CHECK(o.ok, "fusion: %s", sb_cstr(&o.diags));
    CHECK(count(o.r.nnir, "\"nn.fake_quantize\"") == 3 && !has(o.r.nnir, "\"nn.dequantize\"") &&
              count(o.r.nnir, "\"nn.quantize\"") == 0,
          "fusion: pairs stayed:\n%s", o.r.nnir);
    CHECK(has(o.r.json, "\"dequantize(quantize(x)) -> fake_quantize(x)\": 3") &&
              has(o.r.json, "\"quantize_ternary(dequantize(q)) -> q\": 1"),
          "fusion: report:\n%s", o.r.json);
    CHECK(has(o.r.code, "fake_quantize(x, \"per_channel\", axis=1)") &&
              has(o.r.code, "fake_quantize(x, \"ternary\", 0.1)"),
          "fusion: code:\n%s", o.r.code);
    out_free(&o);

    /* no passes: the same program keeps its pairs */
    compile_src(&o, "fusion.tri", "fn f(x: Tensor[float32]) { return dequantize(quantize_int4(x)) }\n", "nnir", "");
    CHECK(o.ok && has(o.r.nnir, "\"nn.dequantize\"") && !has(o.r.nnir, "fake_quantize"), "no passes:\n%s",
          o.r.nnir);
    out_free(&o);

    /* names the generated code must not shadow or replace */
    compile_src(&o, "names.tri",
                "let torch = 2\nlet self = 3\n"
                "layer lambda(train: int) {\n"
                "    let eval = zeros([train])\n"
                "    fn forward(x: Tensor[float32]) { let nn = x * torch; return nn + eval + self }\n"
                "}\n",
                "torch", NULL);
    CHECK(o.ok, "names: %s", sb_cstr(&o.diags));
    CHECK(has(o.r.code, "class lambda_(TernaryModule)") && has(o.r.code, "self.eval_ = nn.Parameter") &&
              has(o.r.code, "self.train_ = train"),
          "names:\n%s", o.r.code);
    out_free(&o);
}

/* ---- 5. python ------------------------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void json_ints(FILE *f, const char *key, const int64_t *v, size_t n) {
    fprintf(f, "\"%s\": [", key);
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)v[i]);
    fputc(']', f);
}

/* Random floats with the awkward cases mixed in. */
static float awkward(int mode) {
    float r = (float)((double)(rnd() % 2000001) / 1000000.0 - 1.0);
    switch (mode) {
    case 0: return r * 3.0f;
    case 1: return (float)((int)(rnd() % 21) - 10) * 0.5f; /* ties */
    case 2: return 0.0f;
    case 3: {
        int k = (int)(rnd() % 12);
        return k == 0 ? NAN : k == 1 ? INFINITY : k == 2 ? -INFINITY : k == 3 ? -0.0f : k == 4 ? 1e-40f : r;
    }
    default: return r * 3e38f;
    }
}

/* c_cases.json: what the C library computes, for the Python side to match. */
static void write_c_cases(const char *path) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs("{\"pack\": [", f);
    int64_t tv[4200], bv[1100];
    int8_t trits[4200];
    uint8_t bytes[1100];
    size_t lens[270];
    int nl = 0;
    for (size_t n = 0; n <= 260; n++) lens[nl++] = n;
    lens[nl++] = 1023;
    lens[nl++] = 4097;
    for (int c = 0; c < nl; c++) {
        size_t n = lens[c];
        for (size_t i = 0; i < n; i++) trits[i] = (int8_t)((int)(rnd() % 3) - 1), tv[i] = trits[i];
        tern_pack(trits, n, bytes);
        for (size_t i = 0; i < tern_packed_size(n); i++) bv[i] = bytes[i];
        fputs(c ? ", {" : "{", f);
        json_ints(f, "trits", tv, n);
        fputs(", ", f);
        json_ints(f, "bytes", bv, tern_packed_size(n));
        fputc('}', f);
    }
    fputs("], \"bad\": [", f);
    for (int c = 0; c < 20; c++) {
        size_t n = 1 + rnd() % 40;
        for (size_t i = 0; i < n; i++) trits[i] = (int8_t)((int)(rnd() % 3) - 1);
        tern_pack(trits, n, bytes);
        size_t at = rnd() % n;
        bytes[at / 4] |= (uint8_t)(3u << (6 - 2 * (at % 4)));
        int8_t tmp[64];
        CHECK(!tern_unpack(bytes, n, tmp), "C accepted code 0b11");
        for (size_t i = 0; i < tern_packed_size(n); i++) bv[i] = bytes[i];
        fprintf(f, "%s{\"n\": %zu, ", c ? ", " : "", n);
        json_ints(f, "bytes", bv, tern_packed_size(n));
        fputc('}', f);
    }
    fputs("], \"quant\": [", f);
    for (int c = 0; c < 60; c++) {
        size_t shape[3] = {1 + rnd() % 5, 1 + rnd() % 6, 1 + rnd() % 4};
        int rank = 1 + (int)(rnd() % 3);
        if (c < 2) shape[0] = 0, rank = 1; /* empty */
        size_t n = 1;
        for (int d = 0; d < rank; d++) n *= shape[d];
        float x[128], ratio = c % 5 == 0 ? 0.05f : c % 7 == 0 ? 0.0f : 0.3f;
        int mode = c % 5;
        for (size_t i = 0; i < n; i++) x[i] = awkward(mode);
        int8_t t[128], q8[128], pc[128];
        uint8_t q4[128];
        float s, s8, s4, deq8[128], deq4[128], spc[8];
        int32_t z8, z4, zpc[8];
        int axis = (int)(rnd() % (unsigned)rank);
        tern_quantize(x, n, ratio, t, &s);
        tern_quantize_int8(x, n, q8, &s8, &z8);
        tern_quantize_int4(x, n, q4, &s4, &z4);
        tern_dequantize_int8(q8, n, s8, z8, deq8);
        tern_dequantize_int4(q4, n, s4, z4, deq4);
        CHECK(tern_quantize_per_channel(x, shape, rank, axis, pc, spc, zpc), "per-channel failed");
        int64_t v[128];
        fputs(c ? ", {" : "{", f);
        for (size_t i = 0; i < n; i++) v[i] = bits_of(x[i]);
        json_ints(f, "x", v, n);
        fputs(", ", f);
        for (int d = 0; d < rank; d++) v[d] = (int64_t)shape[d];
        json_ints(f, "shape", v, (size_t)rank);
        fprintf(f, ", \"ratio\": %u, \"ternary\": {", bits_of(ratio));
        for (size_t i = 0; i < n; i++) v[i] = t[i];
        json_ints(f, "values", v, n);
        fprintf(f, ", \"scale\": %u}, \"int8\": {", bits_of(s));
        for (size_t i = 0; i < n; i++) v[i] = q8[i];
        json_ints(f, "values", v, n);
        for (size_t i = 0; i < n; i++) v[i] = bits_of(deq8[i]);
        fputs(", ", f);
        json_ints(f, "deq", v, n);
        fprintf(f, ", \"scale\": %u, \"zp\": %d}, \"int4\": {", bits_of(s8), z8);
        for (size_t i = 0; i < n; i++) v[i] = q4[i];
        json_ints(f, "values", v, n);
        for (size_t i = 0; i < n; i++) v[i] = bits_of(deq4[i]);
        fputs(", ", f);
        json_ints(f, "deq", v, n);
        fprintf(f, ", \"scale\": %u, \"zp\": %d}, \"per_channel\": {\"axis\": %d, ", bits_of(s4), z4, axis);
        for (size_t i = 0; i < n; i++) v[i] = pc[i];
        json_ints(f, "values", v, n);
        fputs(", ", f);
        for (size_t i = 0; i < shape[axis]; i++) v[i] = bits_of(spc[i]);
        json_ints(f, "scale", v, shape[axis]);
        fputs(", ", f);
        for (size_t i = 0; i < shape[axis]; i++) v[i] = zpc[i];
        json_ints(f, "zp", v, shape[axis]);
        fputs("}}", f);
    }
    fputs("]}\n", f);
    fclose(f);
}

/* py_cases.txt: trits and the Python runtime's packing; C must agree. */
static void check_py_cases(const char *path) {
    char *text = read_text(path);
    if (!text) return;
    char *p = text;
    long ncases = strtol(p, &p, 10);
    int checked = 0;
    int8_t *trits = tc_malloc(8192), *back = tc_malloc(8192);
    uint8_t *bytes = tc_malloc(4096), *mine = tc_malloc(4096);
    for (long c = 0; c < ncases; c++) {
        long n = strtol(p, &p, 10);
        CHECK(n >= 0 && n <= 8192, "bad case length %ld", n);
        if (n < 0 || n > 8192) break;
        for (long i = 0; i < n; i++) trits[i] = (int8_t)strtol(p, &p, 10);
        long nb = strtol(p, &p, 10);
        CHECK(nb == (long)tern_packed_size((size_t)n), "python packed %ld trits into %ld bytes", n, nb);
        for (long i = 0; i < nb && i < 4096; i++) bytes[i] = (uint8_t)strtol(p, &p, 10);
        tern_pack(trits, (size_t)n, mine);
        CHECK(memcmp(mine, bytes, (size_t)nb) == 0, "C and Python pack %ld trits differently", n);
        CHECK(tern_unpack(bytes, (size_t)n, back) && memcmp(back, trits, (size_t)n) == 0,
              "C unpacks Python's %ld trits differently", n);
        checked++;
    }
    CHECK(checked == ncases && checked > 260, "only %d python cases", checked);
    tc_free(trits);
    tc_free(back);
    tc_free(bytes);
    tc_free(mine);
    tc_free(text);
}

static bool write_text(const char *path, const char *text) {
    bool ok = write_file_atomic(path, text, strlen(text));
    CHECK(ok, "cannot write %s", path);
    return ok;
}

static void test_python(void) {
    if (system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") != 0) {
        printf("test_tri_torch: python3 with torch not found; Python checks skipped\n");
        return;
    }
    char dir[256];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tritonc-tri-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp failed");
    char path[1024], cmd[2048];
    snprintf(path, sizeof path, "%s/%s", dir, TRI_TORCH_RUNTIME_FILE);
    write_text(path, tri_torch_runtime());
    for (int i = 0; i < TC_ARRAY_LEN(examples); i++) {
        char src_path[256];
        snprintf(src_path, sizeof src_path, "tests/tri/%s.tri", examples[i]);
        char *src = read_text(src_path);
        if (!src) continue;
        for (int opt = 0; opt < 2; opt++) {
            Out o;
            compile_src(&o, src_path, src, "json", opt ? NULL : "");
            CHECK(o.ok, "%s: %s", src_path, sb_cstr(&o.diags));
            snprintf(path, sizeof path, "%s/%s%s.py", dir, examples[i], opt ? "" : "_noopt");
            if (o.ok) write_text(path, o.r.code);
            snprintf(path, sizeof path, "%s/%s%s.json", dir, examples[i], opt ? "" : "_noopt");
            if (o.ok) write_text(path, o.r.json);
            out_free(&o);
        }
        tc_free(src);
    }
    snprintf(path, sizeof path, "%s/c_cases.json", dir);
    write_c_cases(path);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/tri/test_tri_models.py %s", dir);
    CHECK(system(cmd) == 0, "%s failed", cmd);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/tri/test_pack_agreement.py %s", dir);
    CHECK(system(cmd) == 0, "%s failed", cmd);
    snprintf(path, sizeof path, "%s/py_cases.txt", dir);
    check_py_cases(path);
    if (!failures) {
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    } else {
        fprintf(stderr, "test_tri_torch: files kept in %s\n", dir);
    }
}

int main(void) {
    test_runtime();
    test_examples();
    test_errors();
    test_passes();
    test_python();
    printf("test_tri_torch: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
