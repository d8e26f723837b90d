/*
 * main.c - the `tritonc` command line.
 *
 *   tritonc compile FILE [--kernel NAME] [--signature SIG] [-D NAME=VALUE]...
 *                   [--emit ast|ttir-raw|ttir|c|ttgir|ptx] [-p PIPELINE]
 *                   [--target cpu|cuda:80|cuda:90] [--num-warps N]
 *                   [--num-stages N] [--debug] [-o OUT] [--time]
 *       compiles a Triton kernel file (Python syntax) or IR text (.ttir) and
 *       prints the chosen stage.
 *   tritonc opt FILE [-p PIPELINE] [-o OUT] [--print-after=PASS]
 *               [--print-after-all] [--time-passes] [--mlir-print-debuginfo]
 *               [--mlir-print-op-generic] [--no-verify]
 *       reads IR text, runs a pass pipeline and prints the result: the
 *       equivalent of triton-opt.
 *   tritonc passes
 *       lists every pass and named pipeline.
 *
 * Every diagnostic is collected by the library and rendered here, in the
 * GCC/Clang format, to stderr; the exit status is 1 when any error occurred
 * and 2 for a usage error.
 */
#include "driver/compile.h"
#include "sema/sema.h"
#include "target/torch/torch.h"
#include "transform/pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f) {
    fputs("usage: tritonc <command> [options]\n"
          "\n"
          "commands:\n"
          "  compile FILE  compile a kernel (.py) or IR (.ttir) and print a stage,\n"
          "                or a .tri program to a PyTorch module (--emit torch|nnir|json|ast)\n"
          "      --kernel NAME         the @triton.jit function to compile\n"
          "      --signature SIG       runtime parameter types: '*fp32:16,*fp32:16,i32'\n"
          "      -D NAME=VALUE         a tl.constexpr value (repeatable)\n"
          "      --emit STAGE          ast, ttir-raw, ttir (default), c, ttgir, ptx\n"
          "      -p PIPELINE           passes after the front end (default: 'default')\n"
          "      --target T            cpu (default), cuda:80, cuda:90\n"
          "      --num-warps N, --num-stages N\n"
          "      --debug               keep tl.device_assert / assert (Triton's debug mode)\n"
          "      --keep-layouts        TTGIR in, PTX out with its layouts as written (no layout pass)\n"
          "      --time                print each stage's time to stderr\n"
          "  opt FILE      parse IR text, run passes (-p a,b,c), print the result\n"
          "      --print-after=PASS, --print-after-all, --time-passes,\n"
          "      --mlir-print-debuginfo, --mlir-print-op-generic, --no-verify\n"
          "  passes        list the passes and named pipelines\n"
          "\n"
          "common options:\n"
          "  -o FILE       write the output to FILE instead of stdout\n"
          "  --help, --version\n",
          f);
}

/* Renders collected diagnostics to stderr; returns the number of errors. */
static int flush_diags(DiagEngine *de) {
    StrBuf sb = {0};
    diag_render(de, &sb, isatty(2) && !getenv("NO_COLOR"));
    fputs(sb_cstr(&sb), stderr);
    sb_free(&sb);
    return de->nerrors;
}

static bool write_output(const char *path, const char *text, size_t len) {
    if (!path || strcmp(path, "-") == 0) return fwrite(text, 1, len, stdout) == len;
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return (fclose(f) == 0) && ok;
}

/* Matches `NAME=value` or `NAME value` (also `-DX=1` for one-letter -D);
 * advances *i past a separate value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] == 0) {
        if (*i + 1 < argc) return argv[++*i];
        fprintf(stderr, "tritonc: error: option '%s' needs a value\n", name);
        exit(2);
    }
    if (n == 2) return argv[*i] + n; /* -DNAME=VALUE, -ofile */
    return NULL;
}

static int parse_int_opt(const char *name, const char *v) {
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n <= 0 || n > 1024) {
        fprintf(stderr, "tritonc: error: invalid value '%s' for %s\n", v, name);
        exit(2);
    }
    return (int)n;
}

static char *read_input(const char *input, size_t *len) {
    char *src = read_file(input, len);
    if (!src) fprintf(stderr, "tritonc: error: cannot read '%s'\n", input);
    return src;
}

/* `tritonc compile model.tri [-o model.py] [--emit torch|nnir|json|ast]`:
 * a .tri program becomes a PyTorch module; with -o, the runtime module it
 * imports (pack/unpack, quantizers, the STE) is written beside it. */
static int compile_tri(const char *input, const char *output, const char *emit, const char *pipeline) {
    if (!emit) emit = "torch";
    if (strcmp(emit, "torch") && strcmp(emit, "nnir") && strcmp(emit, "json") && strcmp(emit, "ast")) {
        fprintf(stderr, "tritonc: error: unknown --emit '%s' for a .tri program (torch, nnir, json, ast)\n",
                emit);
        return 2;
    }
    size_t len;
    char *src = read_input(input, &len);
    if (!src) return 1;
    DiagEngine de;
    diag_init(&de);
    TriCompileResult r = {0};
    const char *fname = strcmp(input, "-") == 0 ? "<stdin>" : input;
    int rc = 1;
    if (tri_compile_with(fname, src, len, emit, pipeline, &r, &de)) {
        const char *text = !strcmp(emit, "torch") ? r.code
                           : !strcmp(emit, "nnir") ? r.nnir
                           : !strcmp(emit, "json") ? r.json : r.ast;
        rc = write_output(output, text, strlen(text)) ? 0 : 1;
        if (rc == 0 && !strcmp(emit, "torch") && output && strcmp(output, "-")) {
            /* the runtime module goes into the output's folder */
            const char *slash = strrchr(output, '/');
            StrBuf path = {0};
            if (slash) sb_putn(&path, output, (size_t)(slash - output + 1));
            sb_puts(&path, TRI_TORCH_RUNTIME_FILE);
            if (!write_file_atomic(sb_cstr(&path), r.runtime, strlen(r.runtime))) rc = 1;
            sb_free(&path);
        }
        if (rc) fprintf(stderr, "tritonc: error: cannot write '%s'\n", output);
    }
    if (flush_diags(&de)) rc = 1;
    tri_compile_result_free(&r);
    diag_free(&de);
    tc_free(src);
    return rc;
}

static int cmd_compile(int argc, char **argv) {
    const char *input = NULL, *output = NULL, *emit = NULL;
    CompileRequest req = {.opts = tc_compile_options_default(), .verify_each = true};
    VEC(tc_constexpr) cx = {0};
    bool timing = false;
    for (int i = 0; i < argc; i++) {
        const char *v;
        if ((v = opt_value(argc, argv, &i, "-o"))) output = v;
        else if ((v = opt_value(argc, argv, &i, "--kernel"))) req.opts.kernel = v;
        else if ((v = opt_value(argc, argv, &i, "--signature"))) req.opts.signature = v;
        else if ((v = opt_value(argc, argv, &i, "--emit"))) emit = v;
        else if ((v = opt_value(argc, argv, &i, "-p"))) req.pipeline = v;
        else if ((v = opt_value(argc, argv, &i, "--target"))) req.opts.target = v;
        else if ((v = opt_value(argc, argv, &i, "--num-warps")))
            req.opts.num_warps = parse_int_opt("--num-warps", v);
        else if ((v = opt_value(argc, argv, &i, "--num-stages")))
            req.opts.num_stages = parse_int_opt("--num-stages", v);
        else if (strcmp(argv[i], "--debug") == 0)
            req.opts.debug = 1;
        else if (strcmp(argv[i], "--keep-layouts") == 0)
            req.keep_layouts = true;
        else if ((v = opt_value(argc, argv, &i, "-D"))) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v) {
                fprintf(stderr, "tritonc: error: -D expects NAME=VALUE, got '%s'\n", v);
                return 2;
            }
            /* checked here too, so that the error names the option */
            Arena *scratch = arena_new();
            ConstexprValue cv;
            const char *why = NULL;
            bool ok = sema_parse_constexpr(scratch, eq + 1, &cv, &why);
            arena_free(scratch);
            if (!ok) {
                fprintf(stderr, "tritonc: error: -D %s: %s\n", v,
                        why ? why : "not a constexpr value (an int, float, bool, None, 'string', tuple or tl dtype)");
                return 2;
            }
            vec_push(&cx, ((tc_constexpr){strndup(v, (size_t)(eq - v)), eq + 1}));
        } else if (strcmp(argv[i], "--time") == 0) timing = true;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "tritonc: error: unknown option '%s' for 'compile'\n", argv[i]);
            return 2;
        } else if (!input) input = argv[i];
        else {
            fprintf(stderr, "tritonc: error: more than one input file ('%s', '%s')\n", input, argv[i]);
            return 2;
        }
    }
    if (!input) {
        fputs("tritonc: error: no input file\n", stderr);
        return 2;
    }
    size_t ilen = strlen(input);
    if (ilen > 4 && strcmp(input + ilen - 4, ".tri") == 0) {
        int rc = compile_tri(input, output, emit, req.pipeline);
        for (int i = 0; i < cx.len; i++) free((char *)cx.data[i].name);
        vec_free(&cx);
        return rc;
    }
    if (!emit) emit = "ttir";
    Stage stage = stage_lookup(emit);
    if (stage >= STAGE_LOADED) {
        fprintf(stderr, "tritonc: error: unknown --emit stage '%s' (ast, ttir-raw, ttir, c, ttgir, ptx)\n",
                emit);
        return 2;
    }
    if (req.opts.target && strncmp(req.opts.target, "cuda", 4) == 0) req.opts.device = TC_DEVICE_CUDA;
    else if (req.opts.target && strcmp(req.opts.target, "cpu") != 0) {
        fprintf(stderr, "tritonc: error: unknown target '%s' (cpu, cuda:80, cuda:90)\n", req.opts.target);
        return 2;
    }
    if ((stage == STAGE_TTGIR || stage == STAGE_PTX) && req.opts.device != TC_DEVICE_CUDA) {
        req.opts.device = TC_DEVICE_CUDA;
        if (!req.opts.target) req.opts.target = "cuda:90";
    }
    size_t len;
    char *src = read_input(input, &len);
    if (!src) return 1;
    req.opts.source = src;
    req.opts.source_len = len;
    req.opts.filename = strcmp(input, "-") == 0 ? "<stdin>" : input;
    req.opts.constexprs = cx.data;
    req.opts.num_constexprs = cx.len;
    req.stop_after = stage;

    Compilation c;
    compilation_init(&c);
    int rc = 1;
    if (compile_run(&c, &req) && c.text[stage]) {
        rc = write_output(output, c.text[stage], strlen(c.text[stage])) ? 0 : 1;
        if (rc) fprintf(stderr, "tritonc: error: cannot write '%s'\n", output);
    }
    if (timing)
        for (int s = 0; s < STAGE_COUNT; s++)
            if (c.seconds[s] > 0) fprintf(stderr, "%-9s %8.3f ms\n", stage_names[s], c.seconds[s] * 1e3);
    if (flush_diags(&c.de)) rc = 1;
    compilation_free(&c);
    for (int i = 0; i < cx.len; i++) free((char *)cx.data[i].name);
    vec_free(&cx);
    tc_free(src);
    return rc;
}

static int cmd_opt(int argc, char **argv) {
    const char *input = NULL, *output = NULL, *pipeline = NULL, *print_after = NULL;
    PrintOptions popts = {0};
    bool verify = true, print_all = false, time_passes = false;
    for (int i = 0; i < argc; i++) {
        const char *v;
        if ((v = opt_value(argc, argv, &i, "-o"))) output = v;
        else if ((v = opt_value(argc, argv, &i, "-p"))) pipeline = v;
        else if ((v = opt_value(argc, argv, &i, "--print-after"))) print_after = v;
        else if (strcmp(argv[i], "--print-after-all") == 0) print_all = true;
        else if (strcmp(argv[i], "--time-passes") == 0) time_passes = true;
        else if (strcmp(argv[i], "--mlir-print-debuginfo") == 0) popts.debug_info = true;
        else if (strcmp(argv[i], "--mlir-print-op-generic") == 0) popts.generic = true;
        else if (strcmp(argv[i], "--no-verify") == 0) verify = false;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "tritonc: error: unknown option '%s' for 'opt'\n", argv[i]);
            return 2;
        } else if (!input) input = argv[i];
        else {
            fprintf(stderr, "tritonc: error: more than one input file ('%s', '%s')\n", input, argv[i]);
            return 2;
        }
    }
    if (!input) input = "-";
    size_t len;
    char *src = read_input(input, &len);
    if (!src) return 1;
    const char *fname = strcmp(input, "-") == 0 ? "<stdin>" : input;
    DiagEngine de;
    diag_init(&de);
    diag_add_source(&de, fname, src, len);
    Context *ctx = ctx_new(&de);
    int rc = 1;
    Op *m = ir_parse(ctx, fname, src, len);
    StrBuf dump = {0}, timing = {0}, out = {0};
    bool ok = m && (!verify || ir_verify(m, &de));
    if (ok && pipeline && *pipeline) {
        PassContext pc = {.ctx = ctx, .de = &de};
        PassOptions po = {.verify_each = verify, .print_after = print_after,
                          .print_after_all = print_all, .time_passes = time_passes,
                          .dump = &dump, .timing = &timing, .print = &popts};
        ok = pass_pipeline_run(m, pipeline, &pc, &po);
        fputs(sb_cstr(&dump), stderr);
    }
    if (ok) {
        ir_print(m, &out, &popts);
        if (write_output(output, sb_cstr(&out), out.len)) rc = 0;
        else fprintf(stderr, "tritonc: error: cannot write '%s'\n", output);
    }
    fputs(sb_cstr(&timing), stderr);
    if (flush_diags(&de)) rc = 1;
    sb_free(&dump);
    sb_free(&timing);
    sb_free(&out);
    ctx_free(ctx);
    diag_free(&de);
    tc_free(src);
    return rc;
}

static int cmd_passes(void) {
    puts("passes:");
    for (int i = 0; i < pass_count(); i++)
        printf("  %-22s %s\n", pass_at(i)->name, pass_at(i)->summary);
    puts("pipelines:");
    for (int i = 0; i < pipeline_count(); i++)
        printf("  %-22s %s (%s)\n", pipeline_at(i)->name, pipeline_at(i)->summary,
               pipeline_at(i)->passes);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    /* `tritonc compile --help`: the options are common to every command */
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    if (strcmp(cmd, "--version") == 0) {
        printf("tritonc %s\n", tc_version());
        return 0;
    }
    if (strcmp(cmd, "compile") == 0) return cmd_compile(argc - 2, argv + 2);
    if (strcmp(cmd, "opt") == 0) return cmd_opt(argc - 2, argv + 2);
    if (strcmp(cmd, "passes") == 0) return cmd_passes();
    fprintf(stderr, "tritonc: error: unknown command '%s' (see 'tritonc --help')\n", cmd);
    return 2;
}
