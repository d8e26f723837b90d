/*
 * diag.c - the diagnostics engine.
 *
 * Diagnostics are collected, never printed by the library on its own; the
 * caller renders them (diag_render) in the format GCC and Clang use, so
 * editors can jump to them:
 *
 *   kernel.py:12:17: error: expected ')', saw 'NEWLINE'
 *      12 |     x = tl.load(p
 *         |                 ^
 */
#include "support.h"

#include <string.h>

void diag_init(DiagEngine *de) {
    memset(de, 0, sizeof *de); /* the arena comes with the first report: an
                                  engine that stays empty (a launch) costs nothing */
}

Arena *diag_arena(DiagEngine *de) {
    if (!de->arena) de->arena = arena_new();
    return de->arena;
}

void diag_free(DiagEngine *de) {
    vec_free(&de->diags);
    vec_free(&de->sources);
    arena_free(de->arena);
    memset(de, 0, sizeof *de);
}

void diag_add_source(DiagEngine *de, const char *name, const char *text, size_t len) {
    if (!name) return;
    for (int i = 0; i < de->sources.len; i++)
        if (strcmp(de->sources.data[i].name, name) == 0) {
            de->sources.data[i].text = text;
            de->sources.data[i].len = len;
            return;
        }
    SourceText s = {arena_strdup(diag_arena(de), name), text, len};
    vec_push(&de->sources, s);
}

void diag_vreport(DiagEngine *de, DiagLevel lvl, Loc loc, int span, const char *fmt, va_list ap) {
    if (lvl == DIAG_ERROR && diag_full(de)) return;
    StrBuf sb = {0};
    sb_vprintf(&sb, fmt, ap);
    Diag d = {lvl, loc, span > 0 ? span : 1, arena_strdup(diag_arena(de), sb_cstr(&sb))};
    if (d.loc.file) d.loc.file = arena_strdup(diag_arena(de), d.loc.file);
    sb_free(&sb);
    vec_push(&de->diags, d);
    if (lvl == DIAG_ERROR) de->nerrors++;
    if (lvl == DIAG_WARNING) de->nwarnings++;
}

void diag_report(DiagEngine *de, DiagLevel lvl, Loc loc, int span, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(de, lvl, loc, span, fmt, ap);
    va_end(ap);
}

static const SourceText *find_source(const DiagEngine *de, const char *name) {
    if (!name) return NULL;
    for (int i = 0; i < de->sources.len; i++)
        if (strcmp(de->sources.data[i].name, name) == 0) return &de->sources.data[i];
    return NULL;
}

/* Finds line `line` (1-based) of src; returns its start and sets *len. */
static const char *source_line(const SourceText *src, int line, size_t *len) {
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n') l++;
    if (p >= end && line > 1) return NULL;
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r') e++;
    *len = (size_t)(e - p);
    return p;
}

/* The terminal width of s[0..n) (UTF-8): a continuation byte adds
 * nothing, an East Asian wide character 2, anything else 1. Columns in
 * locations count bytes, as Clang's do; the caret is placed by width, so
 * it stands under the token after non-ASCII text. */
static int display_width(const char *s, size_t n) {
    int w = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xc0) == 0x80) continue;
        uint32_t cp = c;
        if (c >= 0xe0 && c < 0xf0 && i + 2 < n) cp = (uint32_t)(c & 0x0f) << 12 | (uint32_t)(s[i + 1] & 0x3f) << 6 | (s[i + 2] & 0x3f);
        else if (c >= 0xf0 && i + 3 < n) cp = 0x10000;
        bool wide = (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
                    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
                    (cp >= 0xffe0 && cp <= 0xffe6) || cp >= 0x10000;
        w += wide ? 2 : 1;
    }
    return w;
}

void diag_render_one(const DiagEngine *de, const Diag *d, StrBuf *out, bool color) {
    static const char *names[] = {"error", "warning", "note"};
    static const char *colors[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};
    if (color) sb_puts(out, "\033[1m");
    if (d->loc.file) {
        sb_puts(out, d->loc.file);
        if (d->loc.line > 0) {
            sb_printf(out, ":%d", d->loc.line);
            if (d->loc.col > 0) sb_printf(out, ":%d", d->loc.col);
        }
        sb_puts(out, ": ");
    } else {
        sb_puts(out, "tritonc: ");
    }
    if (color) sb_puts(out, colors[d->level]);
    sb_printf(out, "%s: ", names[d->level]);
    if (color) sb_puts(out, "\033[0m\033[1m");
    sb_puts(out, d->msg);
    if (color) sb_puts(out, "\033[0m");
    sb_putc(out, '\n');

    const SourceText *src = find_source(de, d->loc.file);
    size_t len = 0;
    const char *line = src && d->loc.line > 0 ? source_line(src, d->loc.line, &len) : NULL;
    if (!line) return;
    sb_printf(out, "%5d | ", d->loc.line);
    for (size_t i = 0; i < len; i++) sb_putc(out, line[i] == '\t' ? ' ' : line[i]);
    sb_puts(out, "\n      | ");
    int col = d->loc.col > 0 ? d->loc.col : 1;
    size_t before = (size_t)col - 1 < len ? (size_t)col - 1 : len;
    for (int i = display_width(line, before); i > 0; i--) sb_putc(out, ' ');
    if (color) sb_puts(out, "\033[1;32m");
    sb_putc(out, '^');
    int span = d->span;
    if (col - 1 + span > (int)len) span = (int)len - (col - 1);
    if (span > 0) span = display_width(line + before, (size_t)span);
    for (int i = 1; i < span; i++) sb_putc(out, '~');
    if (color) sb_puts(out, "\033[0m");
    sb_putc(out, '\n');
}

void diag_render(const DiagEngine *de, StrBuf *out, bool color) {
    for (int i = 0; i < de->diags.len; i++) diag_render_one(de, &de->diags.data[i], out, color);
}
