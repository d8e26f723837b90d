/*
 * api.c - the public C API (include/tritonc.h) over the pipeline driver.
 *
 * A tc_kernel is a Compilation kept alive after compile_run: its IR texts,
 * parameter types and the loaded backend kernel. tc_compile first asks the
 * source-keyed cache (source_cache.c): on a hit the Compilation holds only
 * what a launch needs (parameters, the loaded kernel), and the stage texts
 * are read from the entry on the first tc_kernel_ir. A compile keeps only
 * the texts the cache stores (TTGIR and PTX on CUDA, C on the CPU); any
 * other stage's text is made on demand by running the pipeline again, from
 * the copy of the request the handle keeps. A tc_error is a snapshot of a
 * DiagEngine: every diagnostic's parts plus the rendered text.
 */
#include "tritonc.h"

#include "driver/compile.h"
#include "driver/source_cache.h"
#include "front/py/py.h"
#include "target/cpu/cpu.h"
#include "target/ptx/gpu.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct tc_kernel {
    Compilation c;
    tc_compile_options req; /* the request, its strings in req_block */
    char *req_block;
    bool from_cache;        /* served by the source-keyed cache */
    bool texts_read;        /* from_cache: the entry's stage texts were read */
    unsigned remade;        /* STAGE_BITs of the texts tried again */
    SrcCacheKey key;        /* from_cache: where they are */
    pthread_mutex_t lock;   /* guards the lazy texts */
    char *messages;         /* tc_kernel_messages, made on first use */
};

typedef struct ErrorItem {
    char *file, *severity, *message;
    int line, col;
} ErrorItem;

struct tc_error {
    char *rendered;
    ErrorItem *items;
    int n;
};

static tc_error *error_from(const DiagEngine *de) {
    tc_error *e = tc_calloc(1, sizeof *e);
    StrBuf sb = {0};
    diag_render(de, &sb, false);
    e->rendered = sb_take(&sb);
    e->n = de->diags.len;
    e->items = tc_calloc((size_t)(e->n ? e->n : 1), sizeof(ErrorItem));
    static const char *sev[] = {"error", "warning", "note"};
    for (int i = 0; i < e->n; i++) {
        const Diag *d = &de->diags.data[i];
        e->items[i] = (ErrorItem){d->loc.file ? tc_strdup(d->loc.file) : NULL,
                                  tc_strdup(sev[d->level]), tc_strdup(d->msg), d->loc.line,
                                  d->loc.col};
    }
    return e;
}

static tc_error *error_msg(const char *msg) {
    DiagEngine de;
    diag_init(&de);
    diag_error(&de, ((Loc){0}), "%s", msg);
    tc_error *e = error_from(&de);
    diag_free(&de);
    return e;
}

tc_compile_options tc_compile_options_default(void) {
    return (tc_compile_options){.device = TC_DEVICE_CPU, .num_warps = 4, .num_stages = 3};
}

/* A copy of the request, for texts made on demand (remake_text): its
 * strings in one block (k->req_block), copied without zeroing. */
static void keep_request(tc_kernel *k, const tc_compile_options *o) {
    size_t srclen = o->source_len ? o->source_len : strlen(o->source);
    const char *strs[4] = {o->filename, o->kernel, o->signature, o->target};
    size_t size = srclen + 1 + sizeof(tc_constexpr) * (size_t)o->num_constexprs;
    for (int i = 0; i < 4; i++) size += strs[i] ? strlen(strs[i]) + 1 : 0;
    for (int i = 0; i < o->num_constexprs; i++)
        size += strlen(o->constexprs[i].name) + strlen(o->constexprs[i].value) + 2;
    char *block = tc_malloc(size);
    tc_constexpr *cx = (tc_constexpr *)block; /* first: aligned as malloc's result */
    char *p = block + sizeof(tc_constexpr) * (size_t)o->num_constexprs;
#define KEEP(dst, s, n) (dst = memcpy(p, s, n), p[n] = 0, p += (n) + 1)
    k->req = *o;
    k->req.source_len = srclen;
    KEEP(k->req.source, o->source, srclen);
    const char **dsts[4] = {&k->req.filename, &k->req.kernel, &k->req.signature, &k->req.target};
    for (int i = 0; i < 4; i++)
        if (strs[i]) KEEP(*dsts[i], strs[i], strlen(strs[i]));
    for (int i = 0; i < o->num_constexprs; i++) {
        KEEP(cx[i].name, o->constexprs[i].name, strlen(o->constexprs[i].name));
        KEEP(cx[i].value, o->constexprs[i].value, strlen(o->constexprs[i].value));
    }
#undef KEEP
    k->req.constexprs = cx;
    k->req.cache_dir = NULL; /* a remake stops before the backend's cache */
    k->req_block = block;
}

int tc_compile(const tc_compile_options *opts, tc_kernel **out, tc_error **err) {
    if (out) *out = NULL;
    if (err) *err = NULL;
    if (!opts || !opts->source || !out) {
        if (err) *err = error_msg("tc_compile: options, source and out are required");
        return 1;
    }
    TC_TRACE("tc_compile");
    tc_kernel *k = tc_calloc(1, sizeof *k);
    compilation_init(&k->c);
    pthread_mutex_init(&k->lock, NULL);
    keep_request(k, opts);
    bool cached = srccache_key(opts, &k->key);
    TC_TRACE("tc_compile: the source cache's key");
    if (cached) {
        k->c.device = opts->device;
        k->c.kernel = intern(&k->c.strings, opts->kernel);
        if (srccache_load(&k->c, &k->key)) {
            k->from_cache = true;
            TC_TRACE("tc_compile: a source cache hit");
            *out = k;
            return 0;
        }
    }
    /* the texts the cache stores; the TTGIR is printed while ptxas runs */
    CompileRequest req = {.opts = *opts, .stop_after = STAGE_LOADED,
                          .keep_texts = opts->device == TC_DEVICE_CUDA ? STAGE_BIT(STAGE_TTGIR) : 0};
    if (!compile_run(&k->c, &req)) {
        if (err) *err = error_from(&k->c.de);
        tc_kernel_free(k);
        return 1;
    }
    if (cached) srccache_store(&k->c, &k->key);
    srccache_key_free(&k->key);
    *out = k;
    return 0;
}

/* The text of a stage the compile did not keep (or the cache entry lacks),
 * made by running the pipeline again up to that stage; NULL for a stage the
 * kernel's device does not have. */
static char *remake_text(const tc_kernel *k, Stage s) {
    bool cpu = k->req.device == TC_DEVICE_CPU;
    if (s == STAGE_LOADED || (s == STAGE_C && !cpu) || ((s == STAGE_TTGIR || s == STAGE_PTX) && cpu))
        return NULL;
    Compilation c;
    compilation_init(&c);
    CompileRequest req = {.opts = k->req, .stop_after = s};
    char *text = NULL;
    if (compile_run(&c, &req)) {
        text = c.text[s];
        c.text[s] = NULL;
    }
    compilation_free(&c);
    return text;
}

const char *tc_kernel_ir(const tc_kernel *k, const char *stage) {
    Stage s = stage_lookup(stage);
    if (s >= STAGE_COUNT) return NULL;
    /* logically const: the texts were there all along, in the entry or
     * the request */
    tc_kernel *m = (tc_kernel *)k;
    pthread_mutex_lock(&m->lock);
    if (k->from_cache && !m->texts_read) {
        srccache_load_texts(&m->c, &m->key);
        m->texts_read = true;
    }
    if (!m->c.text[s] && !(m->remade & STAGE_BIT(s))) {
        m->remade |= STAGE_BIT(s);
        m->c.text[s] = remake_text(k, s);
    }
    const char *text = m->c.text[s];
    pthread_mutex_unlock(&m->lock);
    return text;
}

int tc_kernel_from_cache(const tc_kernel *k) { return k && k->from_cache; }

void tc_cache_counts(long *hits, long *stores) { srccache_counts(hits, stores); }

const char *tc_kernel_name(const tc_kernel *k) { return k->c.kernel; }
const void *tc_kernel_binary(const tc_kernel *k, size_t *size) {
    size_t n = 0;
    const void *bin = k->c.gpu ? gpu_kernel_cubin(k->c.gpu, &n) : NULL;
    if (size) *size = bin ? n : 0;
    return bin;
}
int tc_kernel_num_params(const tc_kernel *k) { return k->c.nparams; }
const char *tc_kernel_param_type(const tc_kernel *k, int i) {
    return i >= 0 && i < k->c.nparams ? k->c.param_types[i] : NULL;
}

const char *tc_kernel_messages(const tc_kernel *k) {
    tc_kernel *m = (tc_kernel *)k; /* logically const: made once from the compile's diagnostics */
    pthread_mutex_lock(&m->lock);
    if (!m->messages) {
        StrBuf sb = {0};
        for (int i = 0; i < k->c.de.diags.len; i++) {
            const Diag *d = &k->c.de.diags.data[i];
            if (d->level != DIAG_ERROR) sb_printf(&sb, "%s\n", d->msg);
        }
        sb_putn(&sb, "", 0);
        m->messages = sb_take(&sb);
    }
    pthread_mutex_unlock(&m->lock);
    return m->messages;
}

int tc_kernel_attribute(const tc_kernel *k, const char *name) {
    const GpuKernel *g = k->c.gpu;
    if (!strcmp(name, "shared")) return g ? gpu_kernel_shared_bytes(g) : 0;
    if (!strcmp(name, "num_regs")) return g ? gpu_kernel_num_regs(g) : 0;
    if (!strcmp(name, "local_bytes")) return g ? gpu_kernel_local_bytes(g) : 0;
    return -1;
}

int tc_launch(tc_kernel *k, const int grid[3], void *const *args, int nargs, void *stream,
              tc_error **err) {
    if (err) *err = NULL;
    if (nargs != k->c.nparams) {
        if (err) {
            char msg[160];
            snprintf(msg, sizeof msg, "kernel '%s' takes %d arguments, %d given", k->c.kernel,
                     k->c.nparams, nargs);
            *err = error_msg(msg);
        }
        return 1;
    }
    if (grid[0] <= 0 || grid[1] <= 0 || grid[2] <= 0) return 0; /* an empty grid runs nothing */
    /* leave out the arguments the kernel was specialised on (":1") */
    void *small[32];
    void **kargs = nargs <= 32 ? small : tc_malloc(sizeof(void *) * (size_t)nargs);
    int n = 0;
    for (int i = 0; i < nargs; i++)
        if (!k->c.param_skip[i]) kargs[n++] = args[i];
    DiagEngine de;
    diag_init(&de);
    bool ok = false;
    if (k->c.cpu) ok = cpu_kernel_launch(k->c.cpu, grid, kargs, &de);
    else if (k->c.gpu) ok = gpu_kernel_launch(k->c.gpu, grid, kargs, stream, &de);
    else diag_error(&de, ((Loc){0}), "kernel '%s' was not loaded for a device", k->c.kernel);
    if (!ok && err) *err = error_from(&de);
    diag_free(&de);
    if (kargs != small) tc_free(kargs);
    return ok ? 0 : 1;
}

void tc_kernel_free(tc_kernel *k) {
    if (!k) return;
    compilation_free(&k->c);
    srccache_key_free(&k->key);
    tc_free(k->req_block);
    tc_free(k->messages);
    pthread_mutex_destroy(&k->lock);
    tc_free(k);
}

const char *tc_error_message(const tc_error *e) { return e ? e->rendered : ""; }
int tc_error_count(const tc_error *e) { return e ? e->n : 0; }

void tc_error_get(const tc_error *e, int i, const char **file, int *line, int *col,
                  const char **severity, const char **message) {
    const ErrorItem *it = e && i >= 0 && i < e->n ? &e->items[i] : NULL;
    if (file) *file = it ? it->file : NULL;
    if (line) *line = it ? it->line : 0;
    if (col) *col = it ? it->col : 0;
    if (severity) *severity = it ? it->severity : NULL;
    if (message) *message = it ? it->message : NULL;
}

void tc_error_free(tc_error *e) {
    if (!e) return;
    for (int i = 0; i < e->n; i++) {
        tc_free(e->items[i].file);
        tc_free(e->items[i].severity);
        tc_free(e->items[i].message);
    }
    tc_free(e->items);
    tc_free(e->rendered);
    tc_free(e);
}

const char *tc_version(void) { return TRITONC_VERSION_STRING; }

int tc_cuda_attach(void) { return gpu_attach_if_current() ? 1 : 0; }

/* Assignment targets bind the names they are made of: a, (a, b), [a, *b]. */
static void target_names(const PyExpr *t, StrBuf *sb) {
    switch (t->kind) {
    case PY_EXPR_NAME:
        sb_printf(sb, "%s\n", t->name);
        return;
    case PY_EXPR_TUPLE:
    case PY_EXPR_LIST:
        for (int i = 0; i < t->seq.elts.len; i++) target_names(t->seq.elts.items[i], sb);
        return;
    case PY_EXPR_STARRED:
        target_names(t->value, sb);
        return;
    default: /* attributes and subscripts bind nothing new */
        return;
    }
}

/* The names block b's statements bind, one a line; with `nested`, also
 * those its `if`s and `try`s bind, at any depth (defs and classes are left
 * out there: the binding finds a def under an `if` by its own reading). */
static void block_names(const PyBlock *b, bool nested, StrBuf *sb) {
    for (int i = 0; i < b->len; i++) {
        const PyStmt *st = b->items[i];
        switch (st->kind) {
        case PY_STMT_DEF:
            if (!nested) sb_printf(sb, "%s\n", st->func->name);
            break;
        case PY_STMT_CLASS:
            if (!nested) sb_printf(sb, "%s\n", st->cls->name);
            break;
        case PY_STMT_IMPORT:
        case PY_STMT_IMPORT_FROM:
            for (int k = 0; k < st->import.len; k++) {
                const PyAlias *al = &st->import.names[k];
                if (al->asname) sb_printf(sb, "%s\n", al->asname);
                else if (st->kind == PY_STMT_IMPORT_FROM) {
                    if (strcmp(al->name, "*") != 0) sb_printf(sb, "%s\n", al->name);
                } else {
                    sb_printf(sb, "%.*s\n", (int)strcspn(al->name, "."), al->name);
                }
            }
            break;
        case PY_STMT_ASSIGN:
            for (int k = 0; k < st->assign.targets.len; k++) target_names(st->assign.targets.items[k], sb);
            break;
        case PY_STMT_ANNASSIGN: target_names(st->ann.target, sb); break;
        case PY_STMT_AUGASSIGN:
            if (nested) target_names(st->aug.target, sb);
            break;
        case PY_STMT_IF:
            if (nested) {
                block_names(&st->cond.body, true, sb);
                block_names(&st->cond.orelse, true, sb);
            }
            break;
        case PY_STMT_TRY:
            if (nested) {
                block_names(&st->try.body, true, sb);
                for (int k = 0; k < st->try.nhandlers; k++) block_names(&st->try.handlers[k].body, true, sb);
                block_names(&st->try.orelse, true, sb);
                block_names(&st->try.finalbody, true, sb);
            }
            break;
        default: break;
        }
    }
}

/* Whether `name` is a line of the newline-separated list. */
static bool in_lines(const char *list, const char *name, size_t len) {
    for (const char *p = list; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && !memcmp(p, name, len)) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* The names the module's top level binds for good: those its statements
 * bind, less any that an `if` or a `try` of the module binds too (which
 * value Python gave the name, the front end cannot always tell: the
 * binding supplies the run-time value). */
size_t tc_source_globals(const char *source, size_t len, char *out, size_t cap) {
    Arena *a = arena_new();
    Interner in;
    interner_init(&in, a);
    DiagEngine de;
    diag_init(&de);
    PyModule *m = py_parse(a, &in, &de, "<source>", source, len);
    StrBuf top = {0}, cond = {0}, sb = {0};
    block_names(&m->body, false, &top);
    for (int i = 0; i < m->body.len; i++) {
        const PyStmt *st = m->body.items[i];
        if (st->kind == PY_STMT_IF || st->kind == PY_STMT_TRY) {
            PyBlock one = {.items = (PyStmt **)&m->body.items[i], .len = 1};
            block_names(&one, true, &cond);
        }
    }
    const char *tops = sb_cstr(&top), *conds = sb_cstr(&cond);
    for (const char *p = tops; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = (size_t)(e - p);
        if (!in_lines(conds, p, n)) sb_printf(&sb, "%.*s\n", (int)n, p);
        p = e + 1;
    }
    sb_free(&top);
    sb_free(&cond);
    size_t n = sb.len;
    if (out && cap > 0) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(out, sb_cstr(&sb), k);
        out[k] = 0;
    }
    sb_free(&sb);
    diag_free(&de);
    interner_free(&in);
    arena_free(a);
    return n;
}
