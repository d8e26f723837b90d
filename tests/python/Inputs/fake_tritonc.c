/*
 * fake_tritonc.c - a stand-in for libtritonc.so with the same C API
 * (include/tritonc.h), for testing and timing the Python binding on its own.
 *
 * tc_compile does not compile: it records the options it was given and
 * answers them back as the kernel's "ttir" text, so a test can check the
 * signature string and constexprs the binding wrote. A source line holding
 * `FAKE_ERROR` fails the compile with a diagnostic pointing at that token.
 * tc_launch records the grid and the 8 bytes each argument points at
 * (fake_last_launch reads them back); for a kernel named `add_kernel` with
 * signature "*fp32,*fp32,*fp32,i32" and constexpr BLOCK it really adds, so
 * a launch can be checked against numpy and timed with the real work of a
 * tiny kernel.
 *
 * Built by the tests (cc -shared -fPIC -Iinclude); not part of the library.
 */
#include "tritonc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tc_kernel {
    char *name, *ir;
    int nparams;
    char **types;
    long block;
    int is_add;
};

struct tc_error {
    char *rendered, *file, *msg;
    int line, col;
};

static char *dup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    memcpy(d, s, n);
    return d;
}

tc_compile_options tc_compile_options_default(void) {
    tc_compile_options o;
    memset(&o, 0, sizeof o);
    o.num_warps = 4;
    o.num_stages = 3;
    return o;
}

static tc_error *make_error(const char *file, int line, int col, const char *msg) {
    tc_error *e = calloc(1, sizeof *e);
    e->file = file ? dup(file) : NULL;
    e->msg = dup(msg);
    e->line = line;
    e->col = col;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s:%d:%d: error: %s\n", file ? file : "<unknown>", line, col, msg);
    e->rendered = dup(buf);
    return e;
}

int tc_compile(const tc_compile_options *o, tc_kernel **out, tc_error **err) {
    *out = NULL;
    if (err) *err = NULL;
    const char *bad = strstr(o->source, "FAKE_ERROR");
    if (bad) {
        int line = 1, col = 1;
        for (const char *p = o->source; p < bad; p++) {
            if (*p == '\n') line++, col = 1;
            else col++;
        }
        if (err) *err = make_error(o->filename, line, col, "name 'FAKE_ERROR' is not defined");
        return 1;
    }
    if (o->device != TC_DEVICE_CPU) {
        if (err) *err = make_error(NULL, 0, 0, "the CUDA backend is not available in this build");
        return 1;
    }
    tc_kernel *k = calloc(1, sizeof *k);
    k->name = dup(o->kernel);
    size_t cap = 4096 + strlen(o->signature);
    for (int i = 0; i < o->num_constexprs; i++)
        cap += strlen(o->constexprs[i].name) + strlen(o->constexprs[i].value) + 4;
    k->ir = malloc(cap);
    int n = snprintf(k->ir, cap, "kernel: %s\nsignature: %s\nnum_warps: %d\nnum_stages: %d\n"
                     "constexprs:", o->kernel, o->signature, o->num_warps, o->num_stages);
    for (int i = 0; i < o->num_constexprs; i++) {
        n += snprintf(k->ir + n, cap - (size_t)n, " %s=%s", o->constexprs[i].name,
                      o->constexprs[i].value);
        if (strcmp(o->constexprs[i].name, "BLOCK") == 0) k->block = atol(o->constexprs[i].value);
    }
    snprintf(k->ir + n, cap - (size_t)n, "\n");
    /* runtime parameter types: the signature with hints dropped */
    k->types = calloc(strlen(o->signature) + 1, sizeof(char *));
    char *sig = dup(o->signature), *save = NULL;
    for (char *t = strtok_r(sig, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(t, ':');
        if (colon) *colon = 0;
        k->types[k->nparams++] = dup(t);
    }
    free(sig);
    k->is_add = strcmp(o->kernel, "add_kernel") == 0 && k->nparams == 4 && k->block > 0 &&
                strcmp(k->types[0], "*fp32") == 0 && strcmp(k->types[3], "i32") == 0;
    *out = k;
    return 0;
}

const char *tc_kernel_ir(const tc_kernel *k, const char *stage) {
    return strcmp(stage, "ttir") == 0 || strcmp(stage, "c") == 0 ? k->ir : NULL;
}
const char *tc_kernel_name(const tc_kernel *k) { return k->name; }
int tc_kernel_num_params(const tc_kernel *k) { return k->nparams; }
const char *tc_kernel_param_type(const tc_kernel *k, int i) {
    return i >= 0 && i < k->nparams ? k->types[i] : NULL;
}

static int last_grid[3], last_nargs;
static unsigned long long last_slots[64];
static long launches;

int tc_launch(tc_kernel *k, const int grid[3], void *const *args, int nargs, void *stream,
              tc_error **err) {
    (void)stream;
    if (err) *err = NULL;
    if (nargs != k->nparams) {
        if (err) *err = make_error(NULL, 0, 0, "wrong number of arguments");
        return 1;
    }
    memcpy(last_grid, grid, sizeof last_grid);
    last_nargs = nargs;
    for (int i = 0; i < nargs && i < 64; i++) memcpy(&last_slots[i], args[i], 8);
    launches++;
    if (k->is_add) {
        float *x = *(float *const *)args[0], *y = *(float *const *)args[1];
        float *o = *(float *const *)args[2];
        int n = *(const int *)args[3];
        for (long pid = 0; pid < grid[0]; pid++)
            for (long i = pid * k->block; i < (pid + 1) * k->block && i < n; i++) o[i] = x[i] + y[i];
    }
    return 0;
}

/* The last launch: its grid, argument count and each argument's 8 bytes. */
long fake_last_launch(int *grid, unsigned long long *slots, int *nargs) {
    memcpy(grid, last_grid, sizeof last_grid);
    memcpy(slots, last_slots, sizeof(unsigned long long) * (size_t)last_nargs);
    *nargs = last_nargs;
    return launches;
}

void tc_kernel_free(tc_kernel *k) {
    if (!k) return;
    for (int i = 0; i < k->nparams; i++) free(k->types[i]);
    free(k->types);
    free(k->name);
    free(k->ir);
    free(k);
}

const char *tc_error_message(const tc_error *e) { return e ? e->rendered : ""; }
int tc_error_count(const tc_error *e) { return e ? 1 : 0; }
void tc_error_get(const tc_error *e, int i, const char **file, int *line, int *col,
                  const char **severity, const char **message) {
    (void)i;
    if (file) *file = e->file;
    if (line) *line = e->line;
    if (col) *col = e->col;
    if (severity) *severity = "error";
    if (message) *message = e->msg;
}
void tc_error_free(tc_error *e) {
    if (!e) return;
    free(e->rendered);
    free(e->file);
    free(e->msg);
    free(e);
}
const char *tc_version(void) { return "fake"; }
