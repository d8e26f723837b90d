/*
 * test_cpu_runtime.c - atomics under the thread pool, and the disk cache:
 *   - a histogram with tt.atomic_rmw add (i32) over 4096 programs on 8
 *     threads, an f32 fadd total, an fp16 atomic add (CAS on the 32-bit
 *     word), atomic max, and atomic_cas as a once-flag;
 *   - the cache is reused across processes: a child process (this binary
 *     re-executed) builds the same kernel and must not run the compiler;
 *   - two children building the same kernel at once into an empty cache
 *     both succeed, leaving exactly one entry and no temporary folder.
 */
#include "cpu_test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

enum { NBINS = 64, BLOCK = 256, NPROG = 4096 };

/* hist[x[i] % NBINS] += 1; total += v[i]; htotal (f16) += 1; mx = max x */
static void build_hist(TB *t) {
    Type *i32 = T_i32(t), *f32 = T_f32(t), *f16 = T_f16(t);
    Type *pi = T_ptr(t, i32), *pf = T_ptr(t, f32), *ph = T_ptr(t, f16);
    Type *params[] = {pi, pi, pf, pf, ph, pi, pi, i32};
    tb_func(t, "hist_kernel", params, 8);
    Type *ti = T_ten1(t, BLOCK, i32);
    Value *pid = tb_pid(t, 0);
    Value *offs = tb_bin(t, ARITH_ADDI, tb_splat(t, tb_bin(t, ARITH_MULI, pid, tb_ci(t, i32, BLOCK)), ti), tb_range(t, 0, BLOCK));
    Value *mask = tb_cmp(t, ARITH_CMPI, CMPI_SLT, offs, tb_splat(t, tb_arg(t, 7), ti));
    Value *x = tb_load(t, tb_addptr(t, tb_splat(t, tb_arg(t, 0), T_ten1(t, BLOCK, pi)), offs), mask, NULL);
    Value *bin = tb_bin(t, ARITH_REMUI, x, tb_ci(t, ti, NBINS));
    Value *ones = tb_ci(t, ti, 1);
    Value *hp = tb_addptr(t, tb_splat(t, tb_arg(t, 1), T_ten1(t, BLOCK, pi)), bin);
    Value *ops[3] = {hp, ones, mask};
    Op *a = build_op(&t->b, TT_ATOMIC_RMW, ops, 3, &ti, 1, 0);
    op_set_attr(t->c, a, "atomic_rmw_op", attr_i32(t->c, TT_RMW_ADD));
    op_set_attr(t->c, a, "sem", attr_i32(t->c, TT_SEM_RELAXED));
    /* f32 total: sum the block, then one scalar fadd per program */
    Value *v = tb_load(t, tb_addptr(t, tb_splat(t, tb_arg(t, 2), T_ten1(t, BLOCK, pf)), offs), mask,
                       tb_cf(t, T_ten1(t, BLOCK, f32), 0));
    Value *s = tb_reduce(t, TT_REDUCE, v, 0, ARITH_ADDF);
    Value *o2[2] = {tb_arg(t, 3), s};
    Op *a2 = build_op(&t->b, TT_ATOMIC_RMW, o2, 2, &f32, 1, 0);
    op_set_attr(t->c, a2, "atomic_rmw_op", attr_i32(t->c, TT_RMW_FADD));
    /* fp16 add of 1.0 per program into element pid % 2 (two halves of one word) */
    Value *hptr = tb_addptr(t, tb_arg(t, 4), tb_bin(t, ARITH_REMSI, pid, tb_ci(t, i32, 2)));
    Value *o3[2] = {hptr, tb_cf(t, f16, 1.0)};
    Op *a3 = build_op(&t->b, TT_ATOMIC_RMW, o3, 2, &f16, 1, 0);
    op_set_attr(t->c, a3, "atomic_rmw_op", attr_i32(t->c, TT_RMW_FADD));
    /* signed max of x */
    Value *mx = tb_reduce(t, TT_REDUCE, tb_select(t, mask, x, tb_ci(t, ti, INT32_MIN)), 0, ARITH_MAXSI);
    Value *o4[2] = {tb_arg(t, 5), mx};
    Op *a4 = build_op(&t->b, TT_ATOMIC_RMW, o4, 2, &i32, 1, 0);
    op_set_attr(t->c, a4, "atomic_rmw_op", attr_i32(t->c, TT_RMW_MAX));
    /* cas 0 -> pid+1: exactly one program wins */
    Value *o5[3] = {tb_arg(t, 6), tb_ci(t, i32, 0), tb_bin(t, ARITH_ADDI, pid, tb_ci(t, i32, 1))};
    build_op(&t->b, TT_ATOMIC_CAS, o5, 3, &i32, 1, 0);
    tb_return(t);
}

static uint16_t h_of(float f) {
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

static void test_atomics(void) {
    TB t;
    tb_init(&t);
    build_hist(&t);
    CpuKernel *k = t_build(&t, "hist_kernel");
    CHECK(k != NULL, "build");
    if (!k) {
        tb_free(&t);
        return;
    }
    int n = NPROG * BLOCK - 77;
    int32_t *x = malloc(sizeof(int32_t) * n);
    float *v = malloc(sizeof(float) * n);
    int32_t ref[NBINS] = {0}, hist[NBINS], refmax = INT32_MIN;
    double vsum = 0;
    for (int i = 0; i < n; i++) {
        x[i] = (int32_t)t_rand();
        v[i] = (float)(t_rand() % 16); /* small integers: any order sums exactly */
        ref[(uint32_t)x[i] % NBINS]++;
        vsum += v[i];
        if (x[i] > refmax) refmax = x[i];
    }
    for (int rep = 0; rep < 3; rep++) {
        memset(hist, 0, sizeof hist);
        float total = 0;
        uint16_t halves[2] = {0, 0};
        int32_t m = INT32_MIN, flag = 0;
        void *a[] = {x, hist, v, &total, halves, &m, &flag};
        int32_t nn = n;
        void *args[] = {&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &nn};
        CHECK(t_launch(&t, k, NPROG, 1, 1, args), "launch");
        int bad = 0;
        for (int b = 0; b < NBINS; b++) bad += hist[b] != ref[b];
        CHECK(bad == 0, "histogram: %d bins wrong", bad);
        CHECK(total == (float)vsum, "f32 atomic fadd: %g vs %g", total, vsum);
        CHECK(halves[0] == h_of(NPROG / 2) && halves[1] == h_of(NPROG / 2), "f16 atomic add: %04x %04x", halves[0],
              halves[1]);
        CHECK(m == refmax, "atomic max");
        CHECK(flag >= 1 && flag <= NPROG, "atomic_cas once-flag: %d", flag);
    }
    free(x), free(v);
    cpu_kernel_free(k);
    tb_free(&t);
}

/* ---- the cache across processes ------------------------------------------------- */

static const char *self_path;

/* Child mode: build the add kernel, run it once, print "compiles=N". */
static int child_main(void) {
    TB t;
    tb_init(&t);
    build_hist(&t);
    CpuKernel *k = t_build(&t, "hist_kernel");
    if (!k) return 3;
    int n = 1000;
    int32_t *x = calloc(n, 4), hist[NBINS] = {0}, m = 0, flag = 0;
    float *v = calloc(n, 4), total = 0;
    uint16_t halves[2] = {0, 0};
    void *a[] = {x, hist, v, &total, halves, &m, &flag};
    int32_t nn = n;
    void *args[] = {&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &nn};
    bool ok = t_launch(&t, k, 4, 1, 1, args) && hist[0] == n;
    printf("compiles=%ld hits=%ld\n", cpu_stats().compiles, cpu_stats().cache_hits);
    free(x), free(v);
    cpu_kernel_free(k);
    tb_free(&t);
    return ok ? 0 : 4;
}

/* Starts `self --child` with stdout to `out`; returns its pid. */
static pid_t spawn_child(const char *out) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {(char *)self_path, "--child", NULL};
    pid_t pid = -1;
    if (posix_spawn(&pid, self_path, &fa, NULL, argv, environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

static int wait_child(pid_t pid) {
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static long read_compiles(const char *out) {
    char *s = read_file(out, NULL);
    long c = -1;
    if (s && sscanf(s, "compiles=%ld", &c) != 1) c = -1;
    tc_free(s);
    return c;
}

static void count_entries(const char *dir, int *entries, int *tmps) {
    *entries = *tmps = 0;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "cpu-", 4) == 0) ++*entries;
        if (strncmp(e->d_name, ".tmp", 4) == 0) ++*tmps;
    }
    closedir(d);
}

static void test_cache(void) {
    char out1[300], out2[300];
    snprintf(out1, sizeof out1, "%s.out1", t_cache_dir);
    snprintf(out2, sizeof out2, "%s.out2", t_cache_dir);
    /* fresh cache folder for this part */
    char dir[280];
    snprintf(dir, sizeof dir, "%s/xproc", t_cache_dir);
    setenv("TRITONC_CACHE_DIR", dir, 1);
    /* two children at once into an empty cache */
    pid_t p1 = spawn_child(out1), p2 = spawn_child(out2);
    int r1 = wait_child(p1), r2 = wait_child(p2);
    CHECK(r1 == 0 && r2 == 0, "concurrent builders succeed: %d %d", r1, r2);
    int entries, tmps;
    count_entries(dir, &entries, &tmps);
    CHECK(entries == 1 && tmps == 0, "one entry, no temporaries: %d entries, %d temporaries", entries, tmps);
    long c1 = read_compiles(out1), c2 = read_compiles(out2);
    CHECK(c1 >= 0 && c1 <= 1 && c2 >= 0 && c2 <= 1 && c1 + c2 >= 1, "compiles: %ld %ld", c1, c2);
    /* a third process reuses the entry: no compiler run */
    pid_t p3 = spawn_child(out1);
    CHECK(wait_child(p3) == 0, "third process runs");
    CHECK(read_compiles(out1) == 0, "third process reuses the cache (compiles=%ld)", read_compiles(out1));
    /* the entry holds the promised files */
    char path[600];
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, "cpu-", 4) == 0) {
            const char *files[] = {"kernel.c", "kernel.so", "meta.json"};
            for (int i = 0; i < 3; i++) {
                snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, files[i]);
                CHECK(access(path, R_OK) == 0, "entry has %s", files[i]);
            }
        }
    if (d) closedir(d);
    remove(out1), remove(out2);
    setenv("TRITONC_CACHE_DIR", t_cache_dir, 1);
}

/* A compile error comes back as a diagnostic with the compiler's output. */
static void test_compile_error(void) {
    DiagEngine de;
    diag_init(&de);
    CpuKernel *k = cpu_kernel_build_source("this is not C;", "nothing", 0, NULL, &de);
    CHECK(k == NULL, "bad source fails");
    bool note = false;
    for (int i = 0; i < de.diags.len; i++)
        if (de.diags.data[i].level == DIAG_NOTE && strstr(de.diags.data[i].msg, "error")) note = true;
    CHECK(de.nerrors == 1 && note, "error + compiler output note");
    diag_free(&de);
}

int main(int argc, char **argv) {
    self_path = argv[0];
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child_main();
    setenv("TRITONC_NUM_THREADS", "8", 0);
    t_private_cache();
    test_atomics();
    test_cache();
    test_compile_error();
    return t_finish("test_cpu_runtime");
}
