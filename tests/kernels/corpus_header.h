/*
 * corpus_header.h - the header of a kernel corpus file (README.md here), read
 * from C: the `# KERNEL:` blocks with their SIGNATURE and CONSTEXPR lines, and
 * a CONSTEXPR line split into tc_constexpr pairs. For the C programs that
 * compile the whole corpus: tests/unit/test_stage_texts.c and
 * tools/pgo_train.c (the profile-guided build's training run).
 */
#ifndef TC_CORPUS_HEADER_H
#define TC_CORPUS_HEADER_H

#include "tritonc.h"

#include <stdio.h>
#include <string.h>

typedef struct CorpusBlock {
    char kernel[128], signature[1024], constexprs[2048];
} CorpusBlock;

/* The blocks of the header of a corpus file's text `src` (the leading run
 * of `#` lines and blank lines), at most max of them; returns the count. */
static inline int corpus_blocks(const char *src, CorpusBlock *out, int max) {
    int n = 0;
    for (const char *line = src; *line;) {
        const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
        const char *p = line;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p < end && *line != '#') break;
        int w = (int)(end - line);
        while (w > 0 && (line[w - 1] == ' ' || line[w - 1] == '\r')) w--;
        char val[128];
        if (sscanf(line, "# KERNEL: %127s", val) == 1) {
            if (n == max) break;
            memset(&out[n], 0, sizeof out[n]);
            snprintf(out[n++].kernel, sizeof out->kernel, "%s", val);
        } else if (n && !strncmp(line, "# SIGNATURE: ", 13) && w >= 13) {
            snprintf(out[n - 1].signature, sizeof out->signature, "%.*s", w - 13, line + 13);
        } else if (n && !strncmp(line, "# CONSTEXPR:", 12) && w >= 12) {
            const char *v = line + 12;
            while (*v == ' ' && v < line + w) v++;
            snprintf(out[n - 1].constexprs, sizeof out->constexprs, "%.*s", (int)(line + w - v), v);
        }
        line = nl ? nl + 1 : end;
    }
    return n;
}

/* Splits "A=1, B='x,y', C=(1, 2)" at top-level commas into cx (at most
 * max); returns the count. The text is cut in place. */
static inline int corpus_constexprs(char *text, tc_constexpr *cx, int max) {
    int n = 0, depth = 0;
    char quote = 0, *start = text;
    for (char *p = text;; p++) {
        char ch = *p;
        if (quote) {
            if (ch == quote) quote = 0;
            if (ch) continue;
        }
        if (ch == '"' || ch == '\'') quote = ch;
        else if (ch == '(' || ch == '[' || ch == '{') depth++;
        else if (ch == ')' || ch == ']' || ch == '}') depth--;
        if ((ch == ',' && depth == 0) || ch == 0) {
            *p = 0;
            while (*start == ' ') start++;
            char *eq = strchr(start, '=');
            if (eq && n < max) {
                *eq = 0;
                char *end = eq;
                while (end > start && end[-1] == ' ') *--end = 0;
                char *v = eq + 1;
                while (*v == ' ') v++;
                cx[n++] = (tc_constexpr){start, v};
            }
            start = p + 1;
            if (ch == 0) break;
        }
    }
    return n;
}

#endif
