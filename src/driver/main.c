/*
 * main.c - the `tritonc` command line.
 *
 *   tritonc opt FILE [-p PIPELINE] [-o OUT] [--print-after=PASS]
 *               [--print-after-all] [--time-passes] [--mlir-print-debuginfo]
 *               [--mlir-print-op-generic] [--no-verify]
 *       reads IR text (Triton's TTIR, or any stage tritonc prints), runs the
 *       pass pipeline and prints the result: the equivalent of triton-opt.
 *
 * Every diagnostic is collected by the library and rendered here, in the
 * GCC/Clang format, to stderr; the exit status is 1 when any error occurred.
 */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRITONC_VERSION "0.1.0"

static void usage(FILE *f) {
    fputs("usage: tritonc <command> [options]\n"
          "\n"
          "commands:\n"
          "  opt FILE      parse IR text, run passes (-p a,b,c), print the result\n"
          "\n"
          "common options:\n"
          "  -o FILE       write the output to FILE instead of stdout\n"
          "  --help        this text\n"
          "  --version     the compiler's version\n",
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

/* Matches `--name=value` or `--name value`; advances *i past the value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] == 0 && *i + 1 < argc) return argv[++*i];
    return NULL;
}

static int cmd_opt(int argc, char **argv) {
    const char *input = NULL, *output = NULL;
    PrintOptions popts = {0};
    bool verify = true;
    for (int i = 0; i < argc; i++) {
        const char *v;
        if ((v = opt_value(argc, argv, &i, "-o"))) output = v;
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
    char *src = read_file(input, &len);
    if (!src) {
        fprintf(stderr, "tritonc: error: cannot read '%s'\n", input);
        return 1;
    }
    const char *fname = strcmp(input, "-") == 0 ? "<stdin>" : input;
    DiagEngine de;
    diag_init(&de);
    diag_add_source(&de, fname, src, len);
    Context *ctx = ctx_new(&de);
    int rc = 1;
    Op *m = ir_parse(ctx, fname, src, len);
    if (m && (!verify || ir_verify(m, &de))) {
        StrBuf out = {0};
        ir_print(m, &out, &popts);
        if (write_output(output, sb_cstr(&out), out.len)) rc = 0;
        else fprintf(stderr, "tritonc: error: cannot write '%s'\n", output);
        sb_free(&out);
    }
    if (flush_diags(&de)) rc = 1;
    ctx_free(ctx);
    diag_free(&de);
    tc_free(src);
    return rc;
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
    if (strcmp(cmd, "--version") == 0) {
        printf("tritonc %s\n", TRITONC_VERSION);
        return 0;
    }
    if (strcmp(cmd, "opt") == 0) return cmd_opt(argc - 2, argv + 2);
    fprintf(stderr, "tritonc: error: unknown command '%s' (see 'tritonc --help')\n", cmd);
    return 2;
}
