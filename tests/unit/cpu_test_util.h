/*
 * cpu_test_util.h - what the CPU backend's unit tests share: a terse way to
 * build tt IR with the Builder API (until every test can parse text),
 * checks that count failures, buffers poisoned before each launch, and a
 * private cache folder per test process.
 *
 * Only included by tests/unit/test_cpu_*.c (one translation unit each).
 */
#ifndef TC_TEST_CPU_UTIL_H
#define TC_TEST_CPU_UTIL_H

#define _XOPEN_SOURCE 700
#include "dialect/dialect.h"
#include "target/cpu/cpu.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The op tables name verifiers that live on another branch until it is
 * merged; weak stand-ins let these tests link either way (they are not
 * called: the tests build valid IR and do not run ir_verify). */
#define WEAK_VERIFIER(name) \
    __attribute__((weak)) bool name(Op *op, DiagEngine *de) { (void)op, (void)de; return true; }
WEAK_VERIFIER(verify_module) WEAK_VERIFIER(verify_constant) WEAK_VERIFIER(verify_int_binary)
WEAK_VERIFIER(verify_float_same) WEAK_VERIFIER(verify_cmp) WEAK_VERIFIER(verify_select)
WEAK_VERIFIER(verify_int_ext) WEAK_VERIFIER(verify_int_trunc) WEAK_VERIFIER(verify_float_ext)
WEAK_VERIFIER(verify_float_trunc) WEAK_VERIFIER(verify_int_to_float) WEAK_VERIFIER(verify_float_to_int)
WEAK_VERIFIER(verify_bitcast) WEAK_VERIFIER(verify_index_cast) WEAK_VERIFIER(verify_for)
WEAK_VERIFIER(verify_if) WEAK_VERIFIER(verify_while) WEAK_VERIFIER(verify_yield)
WEAK_VERIFIER(verify_condition) WEAK_VERIFIER(verify_func) WEAK_VERIFIER(verify_return)
WEAK_VERIFIER(verify_call) WEAK_VERIFIER(verify_program_id) WEAK_VERIFIER(verify_make_range)
WEAK_VERIFIER(verify_splat) WEAK_VERIFIER(verify_broadcast) WEAK_VERIFIER(verify_expand_dims)
WEAK_VERIFIER(verify_reshape) WEAK_VERIFIER(verify_trans) WEAK_VERIFIER(verify_join)
WEAK_VERIFIER(verify_split) WEAK_VERIFIER(verify_addptr) WEAK_VERIFIER(verify_load)
WEAK_VERIFIER(verify_store) WEAK_VERIFIER(verify_reduce) WEAK_VERIFIER(verify_scan)
WEAK_VERIFIER(verify_dot) WEAK_VERIFIER(verify_atomic_rmw) WEAK_VERIFIER(verify_atomic_cas)
WEAK_VERIFIER(verify_fp_to_fp) WEAK_VERIFIER(verify_int_to_ptr) WEAK_VERIFIER(verify_ptr_to_int)

/* ---- checks ---------------------------------------------------------------- */

static int t_failures, t_checks;
#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        t_checks++;                                                              \
        if (!(cond)) {                                                           \
            t_failures++;                                                        \
            if (t_failures <= 30) {                                              \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                    \
                fputc('\n', stderr);                                             \
            }                                                                    \
        }                                                                        \
    } while (0)

static TC_UNUSED int t_finish(const char *name) {
    printf("%s: %d checks, %d failed\n", name, t_checks, t_failures);
    return t_failures ? 1 : 0;
}

/* ---- a private cache folder ------------------------------------------------- */

static char t_cache_dir[256];
static TC_UNUSED int t_rm_cb(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}
static TC_UNUSED void t_rm_cache(void) {
    if (t_cache_dir[0]) nftw(t_cache_dir, t_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}
static TC_UNUSED void t_rm_tree(const char *dir) { nftw(dir, t_rm_cb, 16, FTW_DEPTH | FTW_PHYS); }
/* Points TRITONC_CACHE_DIR at a fresh temporary folder removed at exit. */
static TC_UNUSED void t_private_cache(void) {
    snprintf(t_cache_dir, sizeof t_cache_dir, "/tmp/tritonc-test-cache-XXXXXX");
    if (!mkdtemp(t_cache_dir)) {
        perror("mkdtemp");
        exit(2);
    }
    setenv("TRITONC_CACHE_DIR", t_cache_dir, 1);
    atexit(t_rm_cache);
}

/* ---- building IR ----------------------------------------------------------------- */

typedef struct TB {
    Context *c;
    DiagEngine de;
    Op *module, *func;
    Builder b;
} TB;

static TC_UNUSED Type *T_f32(TB *t) { return ty_f32(t->c); }
static TC_UNUSED Type *T_f16(TB *t) { return ty_float(t->c, FK_F16); }
static TC_UNUSED Type *T_i32(TB *t) { return ty_i32(t->c); }
static TC_UNUSED Type *T_i1(TB *t) { return ty_i1(t->c); }
static TC_UNUSED Type *T_ptr(TB *t, Type *e) { return ty_ptr(t->c, e, 1); }
static TC_UNUSED Type *T_ten1(TB *t, int64_t n, Type *e) { return ty_tensor(t->c, (int64_t[]){n}, 1, e, NULL); }
static TC_UNUSED Type *T_ten2(TB *t, int64_t m, int64_t n, Type *e) {
    return ty_tensor(t->c, (int64_t[]){m, n}, 2, e, NULL);
}

static TC_UNUSED void tb_init(TB *t) {
    memset(t, 0, sizeof *t);
    diag_init(&t->de);
    t->c = ctx_new(&t->de);
    t->module = module_create(t->c, (Loc){0});
}

/* Starts a public tt.func `name(params)`; the builder is at its entry. */
static TC_UNUSED void tb_func(TB *t, const char *name, Type *const *params, int n) {
    Type *ft = ty_func(t->c, params, n, NULL, 0);
    Op *f = op_create(t->c, TT_FUNC, (Loc){0}, NULL, 0, NULL, 0, 1);
    op_set_attr(t->c, f, "sym_name", attr_string(t->c, name));
    op_set_attr(t->c, f, "function_type", attr_type(t->c, ft));
    Block *b = block_create(t->c);
    region_push_block(&f->regions[0], b);
    for (int i = 0; i < n; i++) block_add_arg(t->c, b, params[i], (Loc){0});
    block_append(module_body(t->module), f);
    t->func = f;
    t->b = builder_at_end(t->c, b);
}
static TC_UNUSED Value *tb_arg(TB *t, int i) { return func_entry(t->func)->args[i]; }
static TC_UNUSED void tb_return(TB *t) { build_op(&t->b, TT_RETURN, NULL, 0, NULL, 0, 0); }

static TC_UNUSED Value *tb_ci(TB *t, Type *ty, int64_t v) { return build_const_int(&t->b, ty, v); }
static TC_UNUSED Value *tb_cf(TB *t, Type *ty, double v) { return build_const_float(&t->b, ty, v); }

static TC_UNUSED Value *tb_pid(TB *t, int axis) {
    Type *i32 = T_i32(t);
    Op *op = build_op(&t->b, TT_GET_PROGRAM_ID, NULL, 0, &i32, 1, 0);
    op_set_attr(t->c, op, "axis", attr_i32(t->c, axis));
    return op_result(op, 0);
}
static TC_UNUSED Value *tb_range(TB *t, int start, int end) {
    Type *ty = T_ten1(t, end - start, T_i32(t));
    Op *op = build_op(&t->b, TT_MAKE_RANGE, NULL, 0, &ty, 1, 0);
    op_set_attr(t->c, op, "start", attr_i32(t->c, start));
    op_set_attr(t->c, op, "end", attr_i32(t->c, end));
    return op_result(op, 0);
}
static TC_UNUSED Value *tb_un(TB *t, OpKind k, Value *x, Type *rt) { return build_unary(&t->b, k, x, rt); }
static TC_UNUSED Value *tb_splat(TB *t, Value *s, Type *ten) { return tb_un(t, TT_SPLAT, s, ten); }
static TC_UNUSED Value *tb_bin(TB *t, OpKind k, Value *a, Value *b) { return build_binary(&t->b, k, a, b); }
static TC_UNUSED Value *tb_cmp(TB *t, OpKind k, int pred, Value *a, Value *b) { return build_cmp(&t->b, k, pred, a, b); }
static TC_UNUSED Value *tb_select(TB *t, Value *c, Value *a, Value *b) {
    Value *ops[3] = {c, a, b};
    return op_result(build_op(&t->b, ARITH_SELECT, ops, 3, &a->type, 1, 0), 0);
}
/* A cast-like op: result shaped like x with element type `elem`. */
static TC_UNUSED Value *tb_cast(TB *t, OpKind k, Value *x, Type *elem) {
    return tb_un(t, k, x, ty_with_elem(t->c, x->type, elem));
}
static TC_UNUSED Value *tb_addptr(TB *t, Value *p, Value *off) {
    Value *ops[2] = {p, off};
    Type *rt = p->type;
    if (off->type->kind == TY_TENSOR && p->type->kind != TY_TENSOR) rt = ty_with_elem(t->c, off->type, p->type);
    return op_result(build_op(&t->b, TT_ADDPTR, ops, 2, &rt, 1, 0), 0);
}
static TC_UNUSED Value *tb_load(TB *t, Value *p, Value *mask, Value *other) {
    Value *ops[3] = {p, mask, other};
    int n = other ? 3 : mask ? 2 : 1;
    Type *rt = ty_with_elem(t->c, p->type, ty_elem(p->type)->elem);
    return op_result(build_op(&t->b, TT_LOAD, ops, n, &rt, 1, 0), 0);
}
static TC_UNUSED void tb_store(TB *t, Value *p, Value *v, Value *mask) {
    Value *ops[3] = {p, v, mask};
    build_op(&t->b, TT_STORE, ops, mask ? 3 : 2, NULL, 0, 0);
}
static TC_UNUSED Value *tb_expand(TB *t, Value *v, int axis) {
    int64_t shape[8];
    int r = v->type->rank;
    for (int d = 0, k = 0; d <= r; d++) shape[d] = d == axis ? 1 : v->type->shape[k++];
    Type *rt = ty_tensor(t->c, shape, r + 1, v->type->elem, NULL);
    Op *op = build_op(&t->b, TT_EXPAND_DIMS, &v, 1, &rt, 1, 0);
    op_set_attr(t->c, op, "axis", attr_i32(t->c, axis));
    return op_result(op, 0);
}
static TC_UNUSED Value *tb_bcast(TB *t, Value *v, Type *rt) { return tb_un(t, TT_BROADCAST, v, rt); }

/* tt.reduce / tt.scan with a one-op combiner `k` over n operands (for n > 1
 * the caller fills the combiner: see tb_reduce_region). */
static TC_UNUSED Op *tb_reduce_n(TB *t, OpKind which, Value *const *vals, int n, int axis, Block **body_out) {
    Type *rts[8];
    for (int j = 0; j < n; j++) {
        Type *vt = vals[j]->type;
        if (which == TT_SCAN) rts[j] = vt;
        else if (vt->rank == 1) rts[j] = vt->elem;
        else {
            int64_t shape[8];
            for (int d = 0, k = 0; d < vt->rank; d++)
                if (d != axis) shape[k++] = vt->shape[d];
            rts[j] = ty_tensor(t->c, shape, vt->rank - 1, vt->elem, NULL);
        }
    }
    Op *op = build_op(&t->b, which, vals, n, rts, n, 1);
    op_set_attr(t->c, op, "axis", attr_i32(t->c, axis));
    Block *body = block_create(t->c);
    region_push_block(&op->regions[0], body);
    for (int r = 0; r < 2; r++)
        for (int j = 0; j < n; j++) block_add_arg(t->c, body, vals[j]->type->elem, (Loc){0});
    *body_out = body;
    return op;
}
static TC_UNUSED Value *tb_reduce(TB *t, OpKind which, Value *v, int axis, OpKind k) {
    Block *body;
    Op *op = tb_reduce_n(t, which, &v, 1, axis, &body);
    Builder save = t->b;
    t->b = builder_at_end(t->c, body);
    Value *r = tb_bin(t, k, body->args[0], body->args[1]);
    build_op(&t->b, which == TT_SCAN ? TT_SCAN_RETURN : TT_REDUCE_RETURN, &r, 1, NULL, 0, 0);
    t->b = save;
    return op_result(op, 0);
}

/* scf.for lb..ub step, iter args inits; the builder moves into the body.
 * Finish with tb_for_end(t, op, yields). */
static TC_UNUSED Op *tb_for(TB *t, Value *lb, Value *ub, Value *step, Value *const *inits, int n, Builder *saved) {
    Value *ops[16] = {lb, ub, step};
    Type *rts[16];
    for (int i = 0; i < n; i++) ops[3 + i] = inits[i], rts[i] = inits[i]->type;
    Op *op = build_op(&t->b, SCF_FOR, ops, 3 + n, rts, n, 1);
    Block *body = block_create(t->c);
    region_push_block(&op->regions[0], body);
    block_add_arg(t->c, body, lb->type, (Loc){0});
    for (int i = 0; i < n; i++) block_add_arg(t->c, body, inits[i]->type, (Loc){0});
    *saved = t->b;
    t->b = builder_at_end(t->c, body);
    return op;
}
static TC_UNUSED void tb_yield_end(TB *t, Value *const *yields, int n, Builder *saved) {
    build_op(&t->b, SCF_YIELD, yields, n, NULL, 0, 0);
    t->b = *saved;
}

static TC_UNUSED void tb_free(TB *t) {
    ctx_free(t->c);
    diag_free(&t->de);
}

static TC_UNUSED void t_print_diags(DiagEngine *de) {
    StrBuf sb = {0};
    diag_render(de, &sb, false);
    fputs(sb_cstr(&sb), stderr);
    sb_free(&sb);
}

/* Builds the module's kernel `name`; on failure prints the diagnostics. */
static TC_UNUSED CpuKernel *t_build(TB *t, const char *name) {
    CpuKernel *k = cpu_kernel_build(t->module, name, NULL, &t->de);
    if (!k) {
        t_print_diags(&t->de);
        StrBuf src = {0};
        cpu_emit_c(t->module, NULL, &src, &t->de);
        if (getenv("TC_TEST_DUMP")) fputs(sb_cstr(&src), stderr);
        sb_free(&src);
    } else if (getenv("TC_TEST_DUMP")) {
        fputs(cpu_kernel_c_source(k), stderr);
    }
    return k;
}

static TC_UNUSED bool t_launch(TB *t, CpuKernel *k, int gx, int gy, int gz, void *const *args) {
    int grid[3] = {gx, gy, gz};
    bool ok = cpu_kernel_launch(k, grid, args, &t->de);
    if (!ok) t_print_diags(&t->de);
    return ok;
}

/* Poison: NaN floats / 0xAB bytes in outputs before each launch. */
static TC_UNUSED void poison_f32(float *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = NAN;
}
static TC_UNUSED void poison_bytes(void *p, size_t n) { memset(p, 0xAB, n); }

/* Deterministic pseudo-random data. */
static uint64_t t_rng = 0x9E3779B97F4A7C15ULL;
static TC_UNUSED uint32_t t_rand(void) {
    t_rng ^= t_rng << 13, t_rng ^= t_rng >> 7, t_rng ^= t_rng << 17;
    return (uint32_t)(t_rng >> 16);
}
static TC_UNUSED float t_randf(void) { return (float)((t_rand() & 0xffffff) / 16777216.0 * 2.0 - 1.0); }

/* Reference fp16 <-> f32, written independently of the prelude: widening
 * by exact arithmetic, narrowing by exhaustive rounding of the exact value. */
static TC_UNUSED double ref_h2d(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -24);
    else v = ldexp(m + 1024, e - 25);
    return s ? -v : v;
}

#endif
