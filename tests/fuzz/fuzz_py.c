/*
 * fuzz_py.c - libFuzzer target for the Python front end.
 *
 * Lexes and parses arbitrary bytes (embedded NULs, truncated UTF-8, deep
 * nesting), then dumps the AST and renders the diagnostics, so every path
 * that reads the tree or the source is exercised. Any crash, sanitizer
 * report, hang or leak is a bug. The input is copied into a buffer of
 * exactly its size, so ASan catches a read one byte past the end.
 */
#include "front/py/py.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *src = tc_malloc(size ? size : 1);
    if (size) memcpy(src, data, size);
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);

    int n;
    PyToken *toks = py_lex(a, &in, &de, "fuzz.py", src, size, &n);
    if (n < 1 || toks[n - 1].kind != PY_TOK_EOF) __builtin_trap();

    DiagEngine de2;
    diag_init(&de2);
    PyModule *m = py_parse(a, &in, &de2, "fuzz.py", src, size);
    StrBuf sb = {0};
    py_ast_dump(m, &sb);
    diag_render(&de2, &sb, false);
    for (int i = 0; i < m->body.len; i++)
        if (m->body.items[i]->kind == PY_STMT_DEF) {
            const PyFunc *f = m->body.items[i]->func;
            if (f->src_start > f->src_end || f->src_end > size) __builtin_trap();
            if (py_find_function(m, f->name) == NULL) __builtin_trap();
        }
    sb_free(&sb);
    diag_free(&de2);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
    tc_free(src);
    return 0;
}
