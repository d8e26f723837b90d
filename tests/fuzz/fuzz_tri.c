/*
 * fuzz_tri.c - libFuzzer target for the .tri front end and pipeline: every
 * input is parsed, checked, dumped and its diagnostics rendered; then the
 * whole pipeline (tri_compile: lowering to nn IR, passes, PyTorch emission,
 * validation of the generated Python, JSON metadata) runs on it, so a
 * program the checker accepts must also lower and emit without a crash or
 * an internal error. The input is copied
 * to a buffer of exactly its size (no NUL), so any over-read is caught by
 * ASan. `make fuzz-tri FUZZ_TIME=60` runs it with tests/tri as the seed.
 */
#include "front/tri/tri.h"
#include "target/torch/torch.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *src = tc_malloc(size ? size : 1);
    if (size) memcpy(src, data, size);
    Arena *arena = arena_new();
    Interner in;
    interner_init(&in, arena);
    DiagEngine de;
    diag_init(&de);
    TriProgram *prog = tri_parse(arena, &in, &de, "fuzz.tri", src, size);
    tri_check(prog, &de);
    StrBuf sb = {0};
    tri_ast_dump(prog, &sb);
    diag_render(&de, &sb, false);
    bool checked = !diag_has_errors(&de);
    sb_free(&sb);
    diag_free(&de);
    if (checked) {
        DiagEngine cde;
        diag_init(&cde);
        TriCompileResult r;
        bool ok = tri_compile("fuzz.tri", src, size, "json", &r, &cde);
        /* a program the checker accepted must compile: anything else is a bug */
        if (!ok) __builtin_trap();
        tri_compile_result_free(&r);
        diag_free(&cde);
    }
    interner_free(&in);
    arena_free(arena);
    tc_free(src);
    return 0;
}
