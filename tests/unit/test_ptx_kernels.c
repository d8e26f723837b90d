/*
 * test_ptx_kernels.c - the anchor kernels through ttg-assign-layouts and
 * the PTX emitter, for sm_80 and sm_90a, assembled by ptxas when it is
 * installed (CI has it): no errors, no warnings. Also checks the layouts and
 * instructions that make them fast (16-byte accesses, warp shuffles).
 *
 * TC_DUMP_PTX=DIR writes every PTX file there.
 */
#include "ptx_stubs.h"
#include "ptx_kernels.h"
#include "dialect/ttg.h"
#include "target/ptx/ptx.h"
#include "transform/gpu/gpu_passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)

static const char *ptxas_path(void) {
    static const char *cands[] = {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"};
    for (int i = 0; i < 2; i++)
        if (access(cands[i], X_OK) == 0) return cands[i];
    return NULL;
}

typedef Op *(*BuildFn)(Context *c);
static Op *b_add(Context *c) { return pk_add(c, 1024); }
static Op *b_softmax(Context *c) { return pk_softmax(c, 4096); }
static Op *b_softmax_small(Context *c) { return pk_softmax(c, 128); }
static Op *b_layernorm(Context *c) { return pk_layernorm(c, 1024); }
static Op *b_matmul(Context *c) { return pk_matmul(c, 32, 32, 16); }
static Op *b_atomic(Context *c) { return pk_atomic_sum(c, 256); }

typedef struct Case {
    const char *name;
    BuildFn build;
    int num_warps;
    const char *must[4]; /* substrings the sm_90 PTX must contain */
} Case;

static const Case cases[] = {
    {"add", b_add, 4, {"ld.global.v4.f32", "st.global.v4.f32", NULL}},
    {"softmax", b_softmax, 8, {"ld.global.v4.f32", "shfl.sync.bfly.b32", "ex2.approx.f32", "div.full.f32"}},
    {"softmax_small", b_softmax_small, 4, {"shfl.sync.bfly.b32", NULL}},
    {"layernorm", b_layernorm, 8, {"ld.global.v2.b32", "st.global.v2.b32", "cvt.rn.f16.f32", "sqrt.approx.ftz.f32"}},
    {"matmul", b_matmul, 4, {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "ldmatrix.sync.aligned", NULL}},
    {"atomic_sum", b_atomic, 4, {"atom.acq_rel.gpu.global.add.f32", NULL}},
};

static char *emit(const Case *k, int sm, PtxKernelInfo *info) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = k->build(c);
    TtgOptions to = {.num_warps = k->num_warps, .threads_per_warp = 32, .sm = sm};
    CHECK(ttg_assign_layouts(c, m, &to, &de), "%s: layouts", k->name);
    StrBuf out = {0};
    PtxOptions po = {.sm = sm, .num_warps = k->num_warps};
    bool ok = ptx_emit(c, m, NULL, &po, &out, info, &de);
    if (!ok) {
        StrBuf sb = {0};
        diag_render(&de, &sb, false);
        fprintf(stderr, "%s (sm_%d): %s\n", k->name, sm, sb_cstr(&sb));
        sb_free(&sb);
    }
    CHECK(ok, "%s: ptx_emit sm_%d", k->name, sm);
    char *text = ok ? sb_take(&out) : NULL;
    sb_free(&out);
    ctx_free(c);
    diag_free(&de);
    return text;
}

static void assemble(const char *ptxas, const char *name, int sm, const char *ptx) {
    char dir[] = "/tmp/tc_ptxXXXXXX";
    if (!mkdtemp(dir)) return;
    char src[256], bin[256], log[256], cmd[1024];
    snprintf(src, sizeof src, "%s/%s.ptx", dir, name);
    snprintf(bin, sizeof bin, "%s/%s.cubin", dir, name);
    snprintf(log, sizeof log, "%s/log", dir);
    FILE *f = fopen(src, "w");
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -arch=sm_%d%s %s -o %s > %s 2>&1", ptxas, sm, sm == 90 ? "a" : "", src, bin, log);
    int rc = system(cmd);
    size_t n = 0;
    char *msg = read_file(log, &n);
    CHECK(rc == 0, "%s sm_%d: ptxas failed:\n%s", name, sm, msg ? msg : "");
    CHECK(rc != 0 || n == 0, "%s sm_%d: ptxas warned:\n%s", name, sm, msg ? msg : "");
    tc_free(msg);
    remove(src);
    remove(bin);
    remove(log);
    rmdir(dir);
}

static void test_layouts(void) {
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    Op *m = pk_add(c, 1024);
    TtgOptions to = {.num_warps = 4, .threads_per_warp = 32, .sm = 90};
    ttg_assign_layouts(c, m, &to, &de);
    Op *f = module_lookup_func(m, "add_kernel");
    int loads = 0;
    for (Op *op = func_entry(f)->first; op; op = op->next) {
        if (op->kind != TT_LOAD) continue;
        loads++;
        const Layout *l = ttg_layout_of_type(c, op_result(op, 0)->type);
        CHECK(l && l->kind == LAYOUT_BLOCKED && l->spt[0] == 4 && l->tpw[0] == 32 && l->wpc[0] == 4,
              "add: load layout should be sizePerThread [4]");
        StrBuf sb = {0};
        ttg_layout_print(l, &sb);
        CHECK(strcmp(sb_cstr(&sb), "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>") == 0,
              "layout text: %s", sb_cstr(&sb));
        const Layout *back = ttg_layout(c, attr_opaque(c, sb_cstr(&sb)));
        CHECK(back && ttg_layout_equal(back, l), "layout text round trip");
        sb_free(&sb);
    }
    CHECK(loads == 2, "two loads");
    ctx_free(c);

    /* 2-D: slice layouts survive a round trip and give the parent's threads */
    c = ctx_new(&de);
    int64_t shape[2] = {64, 64};
    int spt[2] = {1, 8}, order[2] = {1, 0};
    Layout b = ttg_blocked(shape, 2, spt, order, 4, 32);
    CHECK(b.tpw[1] == 8 && b.tpw[0] == 4 && b.wpc[0] == 4, "2-D blocked: %d %d %d", b.tpw[0], b.tpw[1], b.wpc[0]);
    Layout s = ttg_slice(c, 1, &b);
    Attr *sa = ttg_layout_attr(c, &s);
    const Layout *sb2 = ttg_layout(c, sa);
    CHECK(sb2 && sb2->kind == LAYOUT_SLICE && sb2->dim == 1 && sb2->rank == 1, "slice round trip: %s", sa->s);
    Dist d;
    CHECK(ttg_dist(sb2, shape, 1, &d) && d.nslots == 4 && d.lane_stride[0] == 8, "slice dist");
    ctx_free(c);
    diag_free(&de);
}

int main(void) {
    test_layouts();
    const char *ptxas = ptxas_path();
    const char *dump = getenv("TC_DUMP_PTX");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int sm = 80; sm <= 90; sm += 10) {
            PtxKernelInfo info = {0};
            char *ptx = emit(&cases[i], sm, &info);
            if (!ptx) continue;
            if (sm == 90)
                for (int k = 0; k < 4 && cases[i].must[k]; k++)
                    CHECK(strstr(ptx, cases[i].must[k]), "%s: PTX lacks '%s'", cases[i].name, cases[i].must[k]);
            if (dump) {
                char path[512];
                snprintf(path, sizeof path, "%s/%s_sm%d.ptx", dump, cases[i].name, sm);
                write_file_atomic(path, ptx, strlen(ptx));
            }
            if (ptxas) assemble(ptxas, cases[i].name, sm, ptx);
            free(ptx);
        }
    }
    if (!ptxas) fprintf(stderr, "note: ptxas not found; PTX not assembled\n");
    if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
