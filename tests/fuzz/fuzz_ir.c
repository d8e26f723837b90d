/*
 * fuzz_ir.c - libFuzzer target for the IR text: parse, verify and print any
 * input, never crashing or hanging. For inputs that verify, the text forms
 * must agree: print(parse(print(m))) == print(m) for the custom form and
 * with debug info, and the generic form must read back to the same module.
 * A disagreement aborts, so the fuzzer reports it like a crash.
 *
 *   make fuzz-ir FUZZ_TIME=60     (seed corpus: tests/ir)
 */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *print_text(Op *m, bool debug, bool generic) {
    StrBuf sb = {0};
    PrintOptions o = {debug, generic};
    ir_print(m, &sb, &o);
    return sb_take(&sb);
}

/* Parses text again and returns its print (custom form, `debug` locs). */
static char *reprint(const char *text, bool debug) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = ir_parse(c, "reprint", text, strlen(text));
    char *out = NULL;
    if (m) out = print_text(m, debug, false);
    else {
        StrBuf sb = {0};
        diag_render(&de, &sb, false);
        fprintf(stderr, "printed text does not parse:\n%s\n--- text\n%s\n", sb_cstr(&sb), text);
        sb_free(&sb);
    }
    ctx_free(c);
    diag_free(&de);
    return out;
}

static void expect_same(const char *what, const char *a, const char *b) {
    if (b && strcmp(a, b) == 0) return;
    fprintf(stderr, "%s: texts differ\n--- first\n%s\n--- second\n%s\n", what, a, b ? b : "(none)");
    abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = ir_parse(c, "fuzz.ttir", (const char *)data, size);
    if (m) {
        bool ok = ir_verify(m, &de);
        char *text = print_text(m, false, false);
        char *debug = print_text(m, true, false);
        char *generic = print_text(m, false, true);
        if (ok) {
            char *t;
            expect_same("custom round trip", text, t = reprint(text, false));
            free(t);
            expect_same("debug-info round trip", debug, t = reprint(debug, true));
            free(t);
            expect_same("generic form", text, t = reprint(generic, false));
            free(t);
        }
        free(text);
        free(debug);
        free(generic);
    }
    StrBuf sb = {0};
    diag_render(&de, &sb, false);
    sb_free(&sb);
    ctx_free(c);
    diag_free(&de);
    return 0;
}
