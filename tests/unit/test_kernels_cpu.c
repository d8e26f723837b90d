/*
 * test_kernels_cpu.c - the kernel suite: every kernel specialisation of
 * the files of tests/kernels/ compiled through the C API (tc_compile: front end,
 * passes, CPU backend) from its Python source, launched on the CPU
 * (tc_launch) at two or three sizes, ragged ones included, and checked
 * element by element against a reference written here in plain C (double
 * precision for floats; tolerances in tests/kernels/harness.h and at each
 * check that widens them). Outputs are poisoned before each launch and every
 * logical element is checked, so an unwritten one fails; padding between rows
 * must stay poisoned; guard zones around every buffer must stay intact and
 * inputs unchanged.
 *
 * A kernel whose tt IR has a dot is run a second time from its IR with the
 * loads feeding the dot prefetched (pipeline-dot-loads, which the GPU
 * backend runs; here with no register budget, so every loop it can
 * pipeline is), checked against the same reference.
 *
 * Run from the repository root (tests/run.py does). Arguments: substrings of
 * kernel names to run only those. TC_TEST_SEED=N reproduces a run (the seed
 * is printed at the start and with each failure).
 */
#include "../kernels/harness.h"
#include "transform/pass.h"

#include <time.h>

#define CDIV(a, b) (((a) + (b) - 1) / (b))
#define ROUND16(a) (CDIV(a, 16) * 16)

static tc_kernel *K;
static uint64_t base_seed;
static void *tmps[64];
static int ntmps;

/* Scratch memory freed at end(). */
static void *tmp(size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    tmps[ntmps++] = p;
    return p;
}
/* A buffer's elements as doubles (the reference reads these). */
static double *dv(const void *p) {
    Buf *b = buf_of(p);
    double *d = tmp(sizeof(double) * b->n);
    for (size_t i = 0; i < b->n; i++) d[i] = (double)get_f(b->dt, p, i);
    return d;
}
/* Fills an input with uniform values in [lo, hi), rounded to its dtype. */
static void fill(void *p, double lo, double hi) {
    Buf *b = buf_of(p);
    for (size_t i = 0; i < b->n; i++) set_f(b->dt, p, i, rng_unif(lo, hi));
}

static uint64_t hash_str(const char *s, uint64_t h) {
    while (*s) h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
    return h;
}
static void begin(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(H.label, sizeof H.label, fmt, ap);
    va_end(ap);
    H.fails = 0, H.checks = 0;
    H.seed = hash_str(H.label, hash_str(H.spec, base_seed * 0x9E3779B97F4A7C15ull + 1));
    rng_state = H.seed;
}
static void end(void) {
    bufs_check();
    bufs_free();
    for (int i = 0; i < ntmps; i++) free(tmps[i]);
    ntmps = 0;
    printf("%s %-28s %-40s [%s] %d checks\n", H.fails ? "FAIL" : "ok  ", H.kernel, H.spec,
           H.label, H.checks);
    fflush(stdout);
    if (H.fails) H.total_fails++;
}
static void launch(int g0, int g1, int g2, void **args, int n) {
    bufs_snapshot();
    tc_error *err = NULL;
    int grid[3] = {g0, g1, g2};
    if (tc_launch(K, grid, args, n, NULL, &err) != 0) {
        h_fail("tc_launch: %s", err ? tc_error_message(err) : "?");
        tc_error_free(err);
    }
}
#define LAUNCH(g0, g1, g2, ...)                                      \
    do {                                                             \
        void *a_[] = {__VA_ARGS__};                                  \
        launch(g0, g1, g2, a_, (int)(sizeof a_ / sizeof a_[0]));     \
    } while (0)

/* Sum-of-magnitudes widening for fp32 reductions (tree or sequential sums of
 * up to a few thousand terms: |error| <= n * 2^-24 * sum|terms|, and for the
 * tree orders used here log2(n) * 2^-24 * ...; 4e-6 covers both up to 64
 * terms sequentially and 2^20 terms as a tree). */
#define SUM_TOL 4e-6

/* ======================= vector_add.py ==================================== */

static void t_add_f32(int arg) {
    int sizes[] = {1, 1000, 4113};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        float *x = buf_new("x", F32, n, B_IN), *y = buf_new("y", F32, n, B_IN), *o = buf_new("out", F32, n, B_OUT);
        fill(x, -100, 100), fill(y, -100, 100);
        LAUNCH(CDIV(n, 1024), 1, 1, &x, &y, &o, &n);
        for (int i = 0; i < n; i++) check_f(o, i, (double)x[i] + y[i], 0);
        end();
    }
}
static void t_add_f16(int arg) {
    int sizes[] = {16, 2048, 5008}; /* n is i32:16 */
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        void *x = buf_new("x", F16, n, B_IN), *y = buf_new("y", F16, n, B_IN), *o = buf_new("out", F16, n, B_OUT);
        fill(x, -100, 100), fill(y, -100, 100);
        double *X = dv(x), *Y = dv(y);
        LAUNCH(CDIV(n, 2048), 1, 1, &x, &y, &o, &n);
        for (int i = 0; i < n; i++) check_f(o, i, X[i] + Y[i], 0);
        end();
    }
}
static void t_axpy(int arg) {
    int sizes[] = {1, 512, 1500};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        float *x = buf_new("x", F32, n, B_IN), *y = buf_new("y", F32, n, B_IN), *o = buf_new("out", F32, n, B_OUT);
        fill(x, -10, 10), fill(y, -10, 10);
        float alpha = (float)rng_unif(-3, 3);
        LAUNCH(CDIV(n, 512), 1, 1, &x, &y, &o, &alpha, &n);
        /* two roundings (product, sum): + 1e-6 |alpha x| */
        for (int i = 0; i < n; i++) check_f(o, i, (double)alpha * x[i] + y[i], 1e-6 * fabs((double)alpha * x[i]));
        end();
    }
}

/* ======================= softmax.py ======================================= */

static void t_softmax(int arg) {
    int R[] = {3, 7, 140}, C[] = {1, 781, 1024};
    for (int s = 0; s < 3; s++) {
        int rows = R[s], cols = C[s], ins = ROUND16(cols) + 16 * (s == 1), outs = ROUND16(cols);
        begin("%dx%d stride %d/%d", rows, cols, ins, outs);
        float *in = buf_new("in", F32, (size_t)rows * ins, B_IN), *out = buf_new("out", F32, (size_t)rows * outs, B_OUT);
        fill(in, -8, 8);
        LAUNCH(rows < 132 ? rows : 132, 1, 1, &out, &in, &ins, &outs, &rows, &cols);
        for (int r = 0; r < rows; r++) {
            double m = -INFINITY, sum = 0;
            for (int c = 0; c < cols; c++) m = fmax(m, in[r * ins + c]);
            for (int c = 0; c < cols; c++) sum += exp(in[r * ins + c] - m);
            for (int c = 0; c < cols; c++) check_f(out, (size_t)r * outs + c, exp(in[r * ins + c] - m) / sum, 0);
            for (int c = cols; c < outs; c++) check_untouched(out, (size_t)r * outs + c);
        }
        end();
    }
}
/* softmax_rows.py: one row per program (arg unused) */
static void t_softmax_rows(int arg) {
    int R[] = {1, 9, 64}, C[] = {1, 700, 1024};
    for (int s = 0; s < 3; s++) {
        int rows = R[s], cols = C[s], ins = ROUND16(cols), outs = ROUND16(cols) + 16;
        begin("%dx%d", rows, cols);
        float *in = buf_new("in", F32, (size_t)rows * ins, B_IN), *out = buf_new("out", F32, (size_t)rows * outs, B_OUT);
        fill(in, -8, 8);
        LAUNCH(rows, 1, 1, &out, &in, &ins, &outs, &cols);
        for (int r = 0; r < rows; r++) {
            double m = -INFINITY, sum = 0;
            for (int c = 0; c < cols; c++) m = fmax(m, in[r * ins + c]);
            for (int c = 0; c < cols; c++) sum += exp(in[r * ins + c] - m);
            for (int c = 0; c < cols; c++) check_f(out, (size_t)r * outs + c, exp(in[r * ins + c] - m) / sum, 0);
            for (int c = cols; c < outs; c++) check_untouched(out, (size_t)r * outs + c);
        }
        end();
    }
}
static void t_softmax_2d(int arg) {
    int Ms[] = {1, 37, 64}, Ns[] = {1, 200, 256};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], sx = ROUND16(N), sy = ROUND16(N) + 16;
        begin("%dx%d", M, N);
        void *x = buf_new("x", F16, (size_t)M * sx, B_IN), *y = buf_new("y", F16, (size_t)M * sy, B_OUT);
        fill(x, -6, 6);
        double *X = dv(x);
        LAUNCH(CDIV(M, 16), 1, 1, &x, &y, &M, &N, &sx, &sy);
        for (int r = 0; r < M; r++) {
            double m = -INFINITY, sum = 0;
            for (int c = 0; c < N; c++) m = fmax(m, X[r * sx + c]);
            for (int c = 0; c < N; c++) sum += exp(X[r * sx + c] - m);
            for (int c = 0; c < N; c++) check_f(y, (size_t)r * sy + c, exp(X[r * sx + c] - m) / sum, 0);
            for (int c = N; c < sy; c++) check_untouched(y, (size_t)r * sy + c);
        }
        end();
    }
}

/* ======================= layer_norm.py, rms_norm.py ======================= */

static void t_layer_norm_fwd(int arg) {
    int Ms[] = {3, 5, 4}, Ns[] = {100, 1024, 2500};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], st = ROUND16(N) + 16 * (s != 1);
        float eps = 1e-5f;
        begin("%dx%d", M, N);
        void *X = buf_new("X", F16, (size_t)M * st, B_IN), *Y = buf_new("Y", F16, (size_t)M * st, B_OUT);
        void *W = buf_new("W", F16, N, B_IN), *B = buf_new("B", F16, N, B_IN);
        float *mean = buf_new("Mean", F32, M, B_OUT), *rstd = buf_new("Rstd", F32, M, B_OUT);
        fill(X, -3, 5), fill(W, 0.5, 1.5), fill(B, -1, 1);
        double *x = dv(X), *w = dv(W), *b = dv(B);
        LAUNCH(M, 1, 1, &X, &Y, &W, &B, &mean, &rstd, &st, &N, &eps);
        for (int r = 0; r < M; r++) {
            double mu = 0, var = 0, sabs = 0;
            for (int c = 0; c < N; c++) mu += x[r * st + c], sabs += fabs(x[r * st + c]);
            mu /= N;
            for (int c = 0; c < N; c++) var += (x[r * st + c] - mu) * (x[r * st + c] - mu);
            var /= N;
            double rs = 1 / sqrt(var + (double)eps);
            check_f(mean, r, mu, SUM_TOL * sabs / N);
            check_f(rstd, r, rs, 1e-5 * rs);
            for (int c = 0; c < N; c++)
                /* fp32 statistics: + 1e-5 |xhat w| (rstd's own error) */
                check_f(Y, (size_t)r * st + c, (x[r * st + c] - mu) * rs * w[c] + b[c],
                        1e-5 * fabs((x[r * st + c] - mu) * rs * w[c]) + 1e-5);
            for (int c = N; c < st; c++) check_untouched(Y, (size_t)r * st + c);
        }
        end();
    }
}
static void t_layer_norm_bwd(int arg) {
    int Ms[] = {3, 17, 8}, Ns[] = {50, 1000, 1024};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], st = ROUND16(N) + 16 * (s == 0);
        begin("%dx%d", M, N);
        void *DX = buf_new("DX", F16, (size_t)M * st, B_OUT), *DY = buf_new("DY", F16, (size_t)M * st, B_IN);
        void *X = buf_new("X", F16, (size_t)M * st, B_IN), *W = buf_new("W", F16, N, B_IN);
        float *mean = buf_new("Mean", F32, M, B_IN), *rstd = buf_new("Rstd", F32, M, B_IN);
        float *dw = buf_new("DW", F32, N, B_ACC), *db = buf_new("DB", F32, N, B_ACC);
        fill(DY, -1, 1), fill(X, -2, 2), fill(W, 0.5, 1.5);
        double *dy = dv(DY), *x = dv(X), *w = dv(W);
        for (int r = 0; r < M; r++) {
            double mu = 0, var = 0;
            for (int c = 0; c < N; c++) mu += x[r * st + c];
            mu /= N;
            for (int c = 0; c < N; c++) var += (x[r * st + c] - mu) * (x[r * st + c] - mu);
            mean[r] = (float)mu, rstd[r] = (float)(1 / sqrt(var / N + 1e-5));
        }
        LAUNCH(M, 1, 1, &DX, &DY, &X, &W, &mean, &rstd, &dw, &db, &st, &N);
        double *rdw = tmp(sizeof(double) * N), *rdb = tmp(sizeof(double) * N), *adw = tmp(sizeof(double) * N),
               *adb = tmp(sizeof(double) * N);
        for (int r = 0; r < M; r++) {
            double c1 = 0, c2 = 0, sa = 0;
            for (int c = 0; c < N; c++) {
                double xh = (x[r * st + c] - mean[r]) * rstd[r], wdy = w[c] * dy[r * st + c];
                c1 += xh * wdy, c2 += wdy, sa += fabs(xh * wdy) + fabs(wdy);
            }
            c1 /= N, c2 /= N;
            for (int c = 0; c < N; c++) {
                double xh = (x[r * st + c] - mean[r]) * rstd[r], wdy = w[c] * dy[r * st + c];
                check_f(DX, (size_t)r * st + c, (wdy - (xh * c1 + c2)) * rstd[r],
                        (SUM_TOL * sa / N * (fabs(xh) + 1) + 1e-6 * fabs(wdy)) * rstd[r]);
                rdw[c] += dy[r * st + c] * xh, adw[c] += fabs(dy[r * st + c] * xh);
                rdb[c] += dy[r * st + c], adb[c] += fabs(dy[r * st + c]);
            }
            for (int c = N; c < st; c++) check_untouched(DX, (size_t)r * st + c);
        }
        /* accumulated by fp32 atomics in program order: + SUM_TOL sum|terms| */
        for (int c = 0; c < N; c++) check_f(dw, c, rdw[c], SUM_TOL * adw[c]), check_f(db, c, rdb[c], SUM_TOL * adb[c]);
        end();
    }
}
static void t_rms_norm(int arg) {
    int Ms[] = {2, 5, 3}, Ns[] = {10, 512, 1300};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], sx = ROUND16(N), sy = ROUND16(N) + 32;
        float eps = 1e-6f;
        begin("%dx%d", M, N);
        void *X = buf_new("X", F16, (size_t)M * sx, B_IN), *Y = buf_new("Y", F16, (size_t)M * sy, B_OUT);
        void *W = buf_new("W", F16, N, B_IN);
        fill(X, -2, 2), fill(W, 0.5, 1.5);
        double *x = dv(X), *w = dv(W);
        LAUNCH(M, 1, 1, &X, &Y, &W, &sx, &sy, &N, &eps);
        for (int r = 0; r < M; r++) {
            double ss = 0;
            for (int c = 0; c < N; c++) ss += x[r * sx + c] * x[r * sx + c];
            double inv = 1 / sqrt(ss / N + (double)eps);
            for (int c = 0; c < N; c++) {
                double ref = x[r * sx + c] * inv * w[c];
                check_f(Y, (size_t)r * sy + c, ref, 1e-5 * fabs(ref));
            }
            for (int c = N; c < sy; c++) check_untouched(Y, (size_t)r * sy + c);
        }
        end();
    }
}

/* ======================= matmul.py, grouped_gemm.py ======================== */

static double leaky(double v, bool on) { return on && v < 0 ? 0.01 * v : v; }

/* C = act(A B) checked at every element; the dot accumulates in fp32:
 * + 1e-5 sum_k |a b| (K <= 160 terms, error <= K 2^-24 sum|ab|). */
static void check_gemm(void *c, int M, int N, int Kd, const double *a, int sam, int sak, const double *b,
                       int sbk, int sbn, int scm, bool act) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0, mag = 0;
            for (int k = 0; k < Kd; k++) {
                double p = a[(size_t)i * sam + (size_t)k * sak] * b[(size_t)k * sbk + (size_t)j * sbn];
                acc += p, mag += fabs(p);
            }
            check_f(c, (size_t)i * scm + j, leaky(acc, act), 1e-5 * mag);
        }
}
static void t_matmul_f16(int arg) {
    int Ms[] = {16, 200, 1100}, Ns[] = {16, 136, 300}, Ks[] = {16, 96, 80};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], Kd = Ks[s], sam = Kd, sbk = ROUND16(N) + 16 * (s == 1), scm = ROUND16(N) + 16;
        begin("%dx%dx%d", M, N, Kd);
        void *a = buf_new("a", F16, (size_t)M * sam, B_IN), *b = buf_new("b", F16, (size_t)Kd * sbk, B_IN);
        void *c = buf_new("c", F16, (size_t)M * scm, B_OUT);
        fill(a, -1, 1), fill(b, -1, 1);
        double *A = dv(a), *B = dv(b);
        LAUNCH(CDIV(M, 128) * CDIV(N, 128), 1, 1, &a, &b, &c, &M, &N, &Kd, &sam, &sbk, &scm);
        check_gemm(c, M, N, Kd, A, sam, 1, B, sbk, 1, scm, true);
        for (int i = 0; i < M; i++)
            for (int j = N; j < scm; j++) check_untouched(c, (size_t)i * scm + j);
        end();
    }
}
static void t_matmul_f32(int arg) {
    /* K = 0: the k loop runs zero times (C = 0); K = 100: a ragged last
     * BLOCK_K (32) step, as for 33 */
    int Ms[] = {1, 65, 130, 40, 70}, Ns[] = {1, 70, 200, 24, 66}, Ks[] = {1, 33, 64, 0, 100};
    for (int s = 0; s < 5; s++) {
        int M = Ms[s], N = Ns[s], Kd = Ks[s];
        /* size 2 reads B transposed (stride_bk 1, stride_bn K) */
        int sam = Kd, sak = 1, sbk = s == 1 ? 1 : N, sbn = s == 1 ? Kd : 1, scm = N + 3, scn = 1;
        begin("%dx%dx%d%s", M, N, Kd, s == 1 ? " B^T" : "");
        size_t ka = Kd ? (size_t)Kd : 1; /* a K = 0 run still passes real buffers */
        float *a = buf_new("a", F32, (size_t)M * ka, B_IN), *b = buf_new("b", F32, ka * N, B_IN);
        float *c = buf_new("c", F32, (size_t)M * scm, B_OUT);
        fill(a, -1, 1), fill(b, -1, 1);
        double *A = dv(a), *B = dv(b);
        LAUNCH(CDIV(M, 64) * CDIV(N, 64), 1, 1, &a, &b, &c, &M, &N, &Kd, &sam, &sak, &sbk, &sbn, &scm, &scn);
        check_gemm(c, M, N, Kd, A, sam, sak, B, sbk, sbn, scm, false);
        for (int i = 0; i < M; i++)
            for (int j = N; j < scm; j++) check_untouched(c, (size_t)i * scm + j);
        end();
    }
}
static void t_grouped_gemm(int arg) {
    static const int sets[2][3][3] = {{{64, 64, 32}, {100, 70, 50}, {17, 130, 200}},
                                      {{640, 1024, 16}, {3, 5, 7}, {0, 0, 0}}};
    for (int s = 0; s < 2; s++) {
        int G = s == 0 ? 3 : 2;
        begin("%d groups%s", G, s ? ", > NUM_SM tiles" : "");
        int64_t *aa = buf_new("a_addrs", I64, G, B_IN), *ba = buf_new("b_addrs", I64, G, B_IN),
                *ca = buf_new("c_addrs", I64, G, B_IN);
        int32_t *sz = buf_new("sizes", I32, 3 * G, B_IN), *ld = buf_new("lds", I32, 3 * G, B_IN);
        void *A[3], *B[3], *C[3];
        for (int g = 0; g < G; g++) {
            int m = sets[s][g][0], n = sets[s][g][1], k = sets[s][g][2];
            A[g] = buf_new("A", F16, (size_t)m * k, B_IN), B[g] = buf_new("B", F16, (size_t)k * n, B_IN);
            C[g] = buf_new("C", F16, (size_t)m * n, B_OUT);
            fill(A[g], -1, 1), fill(B[g], -1, 1);
            aa[g] = (int64_t)(intptr_t)A[g], ba[g] = (int64_t)(intptr_t)B[g], ca[g] = (int64_t)(intptr_t)C[g];
            sz[3 * g] = m, sz[3 * g + 1] = n, sz[3 * g + 2] = k;
            ld[3 * g] = k, ld[3 * g + 1] = n, ld[3 * g + 2] = n;
        }
        LAUNCH(132, 1, 1, &aa, &ba, &ca, &sz, &ld, &G);
        for (int g = 0; g < G; g++)
            check_gemm(C[g], sz[3 * g], sz[3 * g + 1], sz[3 * g + 2], dv(A[g]), sz[3 * g + 2], 1, dv(B[g]),
                       sz[3 * g + 1], 1, sz[3 * g + 1], false);
        end();
    }
}

/* ======================= attention.py ====================================== */

static void t_attention(int causal) {
    int BM = causal ? 64 : 128;
    int BHs[] = {2, 3}, Ns[] = {causal ? 64 : 128, causal ? 192 : 256};
    for (int s = 0; s < 2; s++) {
        int BH = BHs[s], N = Ns[s], D = 64, sbh = N * D, sn = D;
        float scale = 0.125f;
        begin("BH=%d N_CTX=%d", BH, N);
        size_t tot = (size_t)BH * N * D;
        void *q = buf_new("Q", F16, tot, B_IN), *k = buf_new("K", F16, tot, B_IN), *v = buf_new("V", F16, tot, B_IN);
        void *o = buf_new("Out", F16, tot, B_OUT);
        fill(q, -1, 1), fill(k, -1, 1), fill(v, -1, 1);
        double *Q = dv(q), *Kk = dv(k), *V = dv(v), *p = tmp(sizeof(double) * N);
        LAUNCH(CDIV(N, BM), BH, 1, &q, &k, &v, &o, &scale, &sbh, &sn, &N);
        for (int bh = 0; bh < BH; bh++)
            for (int m = 0; m < N; m++) {
                const double *qm = Q + (size_t)bh * sbh + (size_t)m * sn;
                int hi = causal ? m + 1 : N;
                double mx = -INFINITY, l = 0;
                for (int n = 0; n < hi; n++) {
                    const double *kn = Kk + (size_t)bh * sbh + (size_t)n * sn;
                    double d = 0;
                    for (int j = 0; j < D; j++) d += qm[j] * kn[j];
                    p[n] = d * scale, mx = fmax(mx, p[n]);
                }
                for (int n = 0; n < hi; n++) p[n] = exp(p[n] - mx), l += p[n];
                for (int j = 0; j < D; j++) {
                    double acc = 0;
                    for (int n = 0; n < hi; n++) acc += p[n] * V[(size_t)bh * sbh + (size_t)n * sn + j];
                    /* P is rounded to fp16 before P.V (as in Triton): 2^-11 sum p|v| <= 5e-4 for |v| <= 1 */
                    check_f(o, (size_t)bh * sbh + (size_t)m * sn + j, acc / l, 1e-3);
                }
            }
        end();
    }
}

/* ======================= reductions.py ===================================== */

static void t_reduce_2d(int arg) {
    int Ms[] = {1, 32, 19}, Ns[] = {1, 64, 45};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], st = ROUND16(N) + 16 * (s == 2);
        begin("%dx%d", M, N);
        float *x = buf_new("x", F32, (size_t)M * st, B_IN), *rs = buf_new("row_sum", F32, M, B_OUT),
              *cm = buf_new("col_max", F32, N, B_OUT), *rm = buf_new("row_min", F32, M, B_OUT),
              *tot = buf_new("total", F32, 1, B_OUT);
        fill(x, -10, 10);
        LAUNCH(1, 1, 1, &x, &rs, &cm, &rm, &tot, &M, &N, &st);
        double all = 0, alla = 0;
        for (int r = 0; r < M; r++) {
            double sum = 0, sa = 0, mn = INFINITY;
            for (int c = 0; c < N; c++) sum += x[r * st + c], sa += fabs(x[r * st + c]), mn = fmin(mn, x[r * st + c]);
            check_f(rs, r, sum, SUM_TOL * sa);
            check_f(rm, r, mn, 0);
            all += sum, alla += sa;
        }
        for (int c = 0; c < N; c++) {
            double mx = -INFINITY;
            for (int r = 0; r < M; r++) mx = fmax(mx, x[r * st + c]);
            check_f(cm, c, mx, 0);
        }
        check_f(tot, 0, all, SUM_TOL * alla);
        end();
    }
}
static void t_argmax(int arg) {
    int Ms[] = {1, 40, 16}, Ns[] = {1, 100, 128};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], st = ROUND16(N) + 16, grid = CDIV(M, 16);
        begin("%dx%d", M, N);
        float *x = buf_new("x", F32, (size_t)M * st, B_IN);
        int32_t *amax = buf_new("max_idx", I32, M, B_OUT), *amin = buf_new("min_idx", I32, M, B_OUT),
                *cidx = buf_new("col_idx", I32, (size_t)grid * 128, B_OUT);
        float *mval = buf_new("max_val", F32, M, B_OUT);
        /* quantised values: ties on purpose */
        for (int i = 0; i < M * st; i++) x[i] = (float)floor(rng_unif(-8, 8));
        LAUNCH(grid, 1, 1, &x, &amax, &amin, &mval, &cidx, &M, &N, &st);
        for (int r = 0; r < M; r++) {
            int imax = 0, imin = 0;
            for (int c = 1; c < N; c++) {
                if (x[r * st + c] > x[r * st + imax]) imax = c;
                if (x[r * st + c] < x[r * st + imin]) imin = c;
            }
            check_i(amax, r, imax); /* tie_break_left: the first maximum */
            check_f(mval, r, x[r * st + imax], 0);
            /* tie_break_left=False leaves the choice among minima open */
            int got = amin[r];
            H.checks++;
            if (got < 0 || got >= N || x[r * st + got] != x[r * st + imin])
                h_fail("min_idx[%d] = %d is not a minimum (min %g at %d)", r, got, x[r * st + imin], imin);
        }
        for (int p = 0; p < grid; p++)
            for (int c = 0; c < 128; c++) {
                int best = 0;
                double bv = -INFINITY;
                for (int i = 0; i < 16; i++) {
                    int r = p * 16 + i;
                    double v = r < M && c < N ? x[r * st + c] : -INFINITY;
                    if (v > bv) bv = v, best = i;
                }
                check_i(cidx, (size_t)p * 128 + c, best);
            }
        end();
    }
}
static void t_welford(int arg) {
    int Ms[] = {2, 5, 3}, Ns[] = {1, 200, 256};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], st = ROUND16(N);
        begin("%dx%d", M, N);
        float *x = buf_new("x", F32, (size_t)M * st, B_IN), *mean = buf_new("mean", F32, M, B_OUT),
              *var = buf_new("var", F32, M, B_OUT);
        fill(x, -2, 3);
        LAUNCH(M, 1, 1, &x, &mean, &var, &N, &st);
        for (int r = 0; r < M; r++) {
            double mu = 0, v = 0;
            for (int c = 0; c < N; c++) mu += x[r * st + c];
            mu /= N;
            for (int c = 0; c < N; c++) v += (x[r * st + c] - mu) * (x[r * st + c] - mu);
            v /= N;
            /* fp32 Welford merges: + SUM_TOL times the second moment's scale */
            check_f(mean, r, mu, SUM_TOL * (fabs(mu) + sqrt(v)));
            check_f(var, r, v, SUM_TOL * (v + mu * mu));
        }
        end();
    }
}

/* ======================= scans.py ========================================== */

static void t_scan(int arg) {
    int Ms[] = {1, 5, 8}, Ns[] = {1, 50, 64};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], st = ROUND16(N) + 16 * (s == 1);
        size_t tot = (size_t)M * st;
        begin("%dx%d", M, N);
        float *x = buf_new("x", F32, tot, B_IN), *cs = buf_new("csum", F32, tot, B_OUT),
              *rv = buf_new("rev", F32, tot, B_OUT), *cp = buf_new("cprod", F32, tot, B_OUT);
        int32_t *cnt = buf_new("count", I32, tot, B_OUT);
        fill(x, 0.7, 1.4);
        LAUNCH(1, 1, 1, &x, &cs, &rv, &cp, &cnt, &M, &N, &st);
        for (int r = 0; r < M; r++) {
            double sum = 0, prod = 1;
            for (int c = 0; c < N; c++) {
                size_t i = (size_t)r * st + c;
                sum += x[i], prod *= x[i];
                check_f(cs, i, sum, SUM_TOL * sum);
                check_f(cp, i, prod, 64 * 0x1p-24 * prod);
                check_i(cnt, i, c + 1);
                double rsum = 0;
                for (int r2 = r; r2 < M; r2++) rsum += x[(size_t)r2 * st + c];
                check_f(rv, i, rsum, SUM_TOL * rsum);
            }
            for (int c = N; c < st; c++) {
                size_t i = (size_t)r * st + c;
                check_untouched(cs, i), check_untouched(rv, i), check_untouched(cp, i), check_untouched(cnt, i);
            }
        }
        end();
    }
}
static void t_linrec(int arg) {
    int Rs[] = {1, 3, 2}, Ts[] = {1, 300, 512};
    for (int s = 0; s < 3; s++) {
        int R = Rs[s], T = Ts[s], st = ROUND16(T) + 16 * (s == 1);
        begin("%d rows, T=%d", R, T);
        float *a = buf_new("a", F32, (size_t)R * st, B_IN), *b = buf_new("b", F32, (size_t)R * st, B_IN),
              *h = buf_new("h", F32, (size_t)R * st, B_OUT);
        fill(a, 0.5, 1.0), fill(b, -1, 1);
        LAUNCH(R, 1, 1, &a, &b, &h, &T, &st);
        for (int r = 0; r < R; r++) {
            double hv = 0, mag = 0;
            for (int t = 0; t < T; t++) {
                size_t i = (size_t)r * st + t;
                hv = a[i] * hv + b[i], mag = a[i] * mag + fabs(b[i]);
                /* a tree of fp32 compositions: + SUM_TOL times sum |b| weighted */
                check_f(h, i, hv, SUM_TOL * mag * 4);
            }
            for (int t = T; t < st; t++) check_untouched(h, (size_t)r * st + t);
        }
        end();
    }
}

/* ======================= atomics.py ======================================== */

static void t_histogram(int arg) {
    int sizes[] = {1, 1000, 5000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d, twice", n);
        int32_t *x = buf_new("x", I32, n, B_IN), *hist = buf_new("hist", I32, 64, B_ACC);
        for (int i = 0; i < n; i++) x[i] = (int32_t)(i % 3 ? rng_int(-200, 200) : (int64_t)(uint32_t)rng_u64() - 2147483648LL);
        LAUNCH(CDIV(n, 1024), 1, 1, &x, &hist, &n);
        LAUNCH(CDIV(n, 1024), 1, 1, &x, &hist, &n);
        int64_t ref[64] = {0};
        for (int i = 0; i < n; i++) ref[((x[i] % 64) + 64) % 64] += 2;
        for (int b = 0; b < 64; b++) check_i(hist, b, ref[b]);
        end();
    }
}
static void t_atomic_minmax(int arg) {
    int sizes[] = {1, 700, 3000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        float *x = buf_new("x", F32, n, B_IN), *fmx = buf_new("fmax", F32, 1, B_ACC), *fmn = buf_new("fmin", F32, 1, B_ACC);
        int32_t *imax = buf_new("imax", I32, 32, B_ACC);
        fill(x, -1000, 1000);
        for (int i = 0; i < 32; i++) imax[i] = INT32_MIN;
        fmx[0] = -INFINITY, fmn[0] = INFINITY;
        LAUNCH(CDIV(n, 512), 1, 1, &x, &imax, &fmx, &fmn, &n);
        int64_t ri[32];
        double mx = -INFINITY, mn = INFINITY;
        for (int i = 0; i < 32; i++) ri[i] = INT32_MIN;
        for (int i = 0; i < n; i++) {
            int64_t t = (int64_t)trunc(x[i]);
            if (t > ri[i % 32]) ri[i % 32] = t;
            mx = fmax(mx, x[i]), mn = fmin(mn, x[i]);
        }
        for (int i = 0; i < 32; i++) check_i(imax, i, ri[i]);
        check_f(fmx, 0, mx, 0), check_f(fmn, 0, mn, 0);
        end();
    }
}
static void t_spin_lock(int arg) {
    int Rs[] = {1, 40, 9}, Ns[] = {1, 200, 256};
    for (int s = 0; s < 3; s++) {
        int R = Rs[s], N = Ns[s];
        begin("%d rows of %d", R, N);
        float *x = buf_new("x", F32, (size_t)R * N, B_IN), *acc = buf_new("acc", F32, N, B_OUT);
        int32_t *lock = buf_new("lock", I32, 1, B_ACC), *count = buf_new("count", I32, 1, B_ACC);
        /* small integers: the sum is exact in any program order */
        for (int i = 0; i < R * N; i++) x[i] = (float)rng_int(-64, 64);
        LAUNCH(R, 1, 1, &x, &acc, &lock, &count, &N);
        for (int c = 0; c < N; c++) {
            double sum = 0;
            for (int r = 0; r < R; r++) sum += x[r * N + c];
            check_f(acc, c, sum, 0);
        }
        check_i(count, 0, R), check_i(lock, 0, 0);
        end();
    }
}

/* ======================= casts.py, cast_matrix.py ========================== */

static void t_cast(int arg) {
    int sizes[] = {1, 256, 1000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        float *x = buf_new("x", F32, n, B_IN), *back = buf_new("back", F32, n, B_OUT);
        void *f16 = buf_new("f16", F16, n, B_OUT), *bf = buf_new("bf16", BF16, n, B_OUT);
        int32_t *i32 = buf_new("i32", I32, n, B_OUT);
        uint32_t *bits = buf_new("bits", U32, n, B_OUT);
        int8_t *i8 = buf_new("i8", I8, n, B_OUT);
        double *f64 = buf_new("f64", F64, n, B_OUT);
        /* in (-1, 255): every cast here (to uint8 too) is defined */
        for (int i = 0; i < n; i++) {
            double v = rng_unif(-0.99, 254.99);
            if (i % 4 == 1) v = floor(v) + 0.5;                       /* bf16 ties above 128 */
            if (i % 4 == 2) v = ldexp(floor(rng_unif(1, 2048)) + 0.5, -10); /* fp16 ties */
            x[i] = (float)v;
        }
        LAUNCH(CDIV(n, 256), 1, 1, &x, &f16, &bf, &i32, &bits, &i8, &f64, &back, &n);
        for (int i = 0; i < n; i++) {
            long double xv = x[i];
            long double h = fmt_round(xv, &FMT_F16, false), hz = fmt_round(xv, &FMT_F16, true),
                        b = fmt_round(xv, &FMT_BF16, false);
            int64_t iv = (int64_t)truncl(xv), sm = (int8_t)(uint8_t)iv, u = (uint8_t)iv;
            uint32_t xb;
            memcpy(&xb, &x[i], 4);
            check_i(f16, i, (int64_t)fmt_encode(h, &FMT_F16));
            check_i(bf, i, (int64_t)fmt_encode(b, &FMT_BF16));
            check_i(i32, i, iv);
            check_i(bits, i, xb);
            check_i(i8, i, sm);
            check_f(f64, i, (double)x[i] * 3.0, 0);
            double w = (float)(x[i] * 3.0);
            double terms[] = {(double)xv, (double)h, (double)hz, (double)b, (double)sm, (double)u, (double)sm, w};
            double ref = 0, mag = 0;
            for (int t = 0; t < 8; t++) ref += terms[t], mag += fabs(terms[t]);
            check_f(back, i, ref, 1e-6 * mag);
        }
        end();
    }
}
static void t_fp8(int arg) {
    int sizes[] = {1, 512, 1300};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        void *x = buf_new("x", F16, n, B_IN), *e4 = buf_new("e4m3", F8E4, n, B_OUT), *e5 = buf_new("e5m2", F8E5, n, B_OUT);
        uint8_t *e4b = buf_new("e4m3_bits", U8, n, B_OUT);
        void *out = buf_new("out", F16, n, B_OUT);
        for (int i = 0; i < n; i++) {
            double v = i % 3 == 0 ? rng_unif(-440, 440) : i % 3 == 1 ? rng_unif(-4, 4) : rng_unif(-0.02, 0.02);
            set_f(F16, x, i, v);
        }
        double *X = dv(x);
        LAUNCH(CDIV(n, 512), 1, 1, &x, &e4, &e5, &e4b, &out, &n);
        for (int i = 0; i < n; i++) {
            long double a = fmt_round(X[i], &FMT_E4, false), b = fmt_round(X[i], &FMT_E5, false);
            check_i(e4, i, (int64_t)fmt_encode(a, &FMT_E4));
            check_i(e5, i, (int64_t)fmt_encode(b, &FMT_E5));
            check_i(e4b, i, (int64_t)fmt_encode(a, &FMT_E4));
            check_f(out, i, (double)(a + b), 0);
        }
        end();
    }
}

/* cast_matrix.py: arg is the source dtype. */
static const int CM_DST[15] = {I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, F8E4, F8E5};
static void t_cast_matrix(int src) {
    int sizes[] = {1, 333};
    for (int s = 0; s < 2; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        void *x = buf_new("x", src, n, B_IN);
        void *o[15];
        static char names[15][16];
        for (int d = 0; d < 15; d++) {
            snprintf(names[d], sizeof names[d], "to_%s", DT[CM_DST[d]].name);
            o[d] = buf_new(names[d], CM_DST[d], n, B_OUT);
        }
        static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 127.0, -127.0, -128.0,
                                          1.00048828125 /* 1 + 2^-11: fp16 tie */, 1.001953125 /* 1 + 2^-9 */,
                                          1.00390625 /* 1 + 2^-8: bf16 tie */, 1.0625 /* e4m3 tie */,
                                          1.125 /* e5m2 tie */, 0.0009765625, -0.00048828125, 3e-5, 100.3,
                                          NAN, INFINITY, -INFINITY};
        int nspec = (int)(sizeof specials / sizeof specials[0]);
        for (int i = 0; i < n; i++) {
            if (src == I1) store_bits(I1, x, i, rng_u64() & 1);
            else if (!DT[src].is_float) {
                uint64_t bits = rng_u64();
                int64_t v = i % 3 == 0 ? (int64_t)bits : DT[src].is_signed ? rng_int(-130, 130) : rng_int(0, 300);
                if (i < 4) v = (int64_t[]){0, -1, 1, 127}[i];
                store_bits(src, x, i, (uint64_t)v);
            } else {
                long double v;
                if (i < nspec) v = specials[i];
                else if (src == F8E4 || src == F8E5) {
                    do v = fmt_decode(rng_u64() & 0xff, fmt_of(src));
                    while (isnan(v) || isinf(v) || fabsl(v) >= 127);
                } else v = i % 2 ? rng_unif(-127.9, 127.9) : rng_unif(-2, 2);
                long double r = fmt_round(v, fmt_of(src), false);
                if ((src == F8E4 && isinf(v)) || (!isnan(v) && r != v)) v = 0.25; /* not representable */
                store_bits(src, x, i, fmt_encode(v, fmt_of(src)));
            }
        }
        void *args[17] = {&x};
        for (int d = 0; d < 15; d++) args[1 + d] = &o[d];
        args[16] = &n;
        launch(CDIV(n, 128), 1, 1, args, 17);
        for (int i = 0; i < n; i++) {
            long double v = get_f(src, x, i);
            bool fin = !isnan(v) && !isinf(v);
            for (int d = 0; d < 15; d++) {
                int dt = CM_DST[d];
                if (dt == I1) {
                    check_i(o[d], i, v != 0);
                } else if (!DT[dt].is_float) {
                    int bitsz = DT[dt].size * 8;
                    if (DT[src].is_float) {
                        if (!fin) continue; /* undefined */
                        long double t = truncl(v);
                        long double lo = DT[dt].is_signed ? -ldexpl(1, bitsz - 1) : 0,
                                    hi = DT[dt].is_signed ? ldexpl(1, bitsz - 1) - 1 : ldexpl(1, bitsz) - 1;
                        if (t < lo || t > hi) continue; /* undefined */
                        check_i(o[d], i, (int64_t)t);
                    } else {
                        /* integer to integer: two's complement wrap of the (extended) source */
                        uint64_t raw = src == I1 ? load_bits(I1, x, i) : (uint64_t)get_i(src, x, i);
                        if (src != I1 && !DT[src].is_signed) raw = load_bits(src, x, i);
                        uint64_t m = bitsz == 64 ? ~0ull : (1ull << bitsz) - 1;
                        uint64_t w = raw & m;
                        int64_t ref = (int64_t)w;
                        if (DT[dt].is_signed && bitsz < 64 && (w >> (bitsz - 1)) & 1) ref = (int64_t)(w | ~m);
                        check_i(o[d], i, ref);
                    }
                } else {
                    const Fmt *f = fmt_of(dt);
                    long double exact = src == I1 ? (long double)load_bits(I1, x, i)
                                        : DT[src].is_float || DT[src].is_signed ? v
                                                                                : (long double)load_bits(src, x, i);
                    long double r = fmt_round(exact, f, false);
                    bool fp8 = dt == F8E4 || dt == F8E5;
                    if (fp8 && src != dt && DT[src].is_float && !isnan(exact) && (isinf(exact) || isnan(r) || isinf(r)))
                        r = copysignl(fmt_max(f), exact); /* tt.fp_to_fp saturates (PTX .satfinite) */
                    else if (fp8 && (isnan(r) || isinf(r)) && !isnan(exact))
                        continue; /* int -> fp8 past the range (arith.sitofp): left open */
                    if (DT[src].is_float || fabsl(exact) < 1 << 11) {
                        /* float -> float and small ints: one correct rounding */
                        if (isnan(r)) check_f(o[d], i, NAN, 0);
                        else check_i(o[d], i, (int64_t)fmt_encode(r, f));
                    } else {
                        /* wide integers -> narrow floats: Triton itself converts via fp32,
                         * which may round twice: within 1 ulp of the destination */
                        double got = (double)get_f(dt, o[d], i);
                        H.checks++;
                        if (!(fabsl(got - r) <= fmt_ulp((double)r, f) || (isinf(r) && got == (double)r)))
                            h_fail("%s[%d] = %.9g, expected %.9Lg (from %.20Lg)", names[d], i, got, r, exact);
                    }
                }
            }
        }
        end();
    }
}

/* ======================= control_flow.py =================================== */

static void t_newton(int arg) {
    int sizes[] = {1, 256, 700};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s], grid = CDIV(n, 256);
        float tol = 1e-4f;
        begin("n=%d", n);
        float *x = buf_new("x", F32, n, B_IN), *y = buf_new("y", F32, n, B_OUT);
        int32_t *it = buf_new("iters", I32, grid, B_OUT);
        fill(x, 0, 1000);
        for (int i = 0; i < n; i += 17) x[i] = (float)rng_unif(0, 1e-3);
        LAUNCH(grid, 1, 1, &x, &y, &it, &n, &tol);
        /* the iteration in fp32, lane by lane (bit-exact), and sqrt in double */
        for (int p = 0; p < grid; p++) {
            float xv[256], yv[256];
            for (int l = 0; l < 256; l++) {
                int i = p * 256 + l;
                xv[l] = fmaxf(i < n ? x[i] : 1.0f, 1e-6f);
                yv[l] = xv[l] > 1.0f ? xv[l] * 0.5f : 1.0f;
            }
            float err = tol + 1.0f;
            int iters = 0;
            while (err > tol && iters < 32) {
                err = -INFINITY;
                for (int l = 0; l < 256; l++) {
                    float yn = 0.5f * (yv[l] + xv[l] / yv[l]);
                    err = fmaxf(err, fabsf(yn - yv[l]));
                    yv[l] = yn;
                }
                iters++;
            }
            check_i(it, p, iters);
            for (int l = 0; l < 256 && p * 256 + l < n; l++) {
                int i = p * 256 + l;
                uint32_t yb;
                memcpy(&yb, &yv[l], 4);
                check_i(y, i, yb);
                check_f(y, i, sqrt(fmax(x[i], 1e-6)), 1e-4 / sqrt(fmax(x[i], 1e-6)));
            }
        }
        end();
    }
}
static void t_poly(int arg) {
    int sizes[] = {1, 128, 300, 77};
    for (int s = 0; s < 4; s++) {
        int n = sizes[s], mode = s == 3 ? 7 : s;
        begin("n=%d mode=%d", n, mode);
        float *x = buf_new("x", F32, n, B_IN), *coef = buf_new("coef", F32, 5, B_IN), *o = buf_new("out", F32, n, B_OUT);
        fill(x, -2, 2), fill(coef, -1, 1);
        LAUNCH(CDIV(n, 128), 1, 1, &x, &coef, &o, &n, &mode);
        for (int i = 0; i < n; i++) {
            double acc = 0, mag = 0;
            for (int k = 4; k >= 0; k--) acc = acc * x[i] + coef[k], mag = mag * fabs(x[i]) + fabs(coef[k]);
            double out = mode == 0 ? acc : mode == 1 ? fabs(acc) : -acc;
            check_f(o, i, out * 2 + 7, 2 * 6e-7 * 5 * mag);
        }
        end();
    }
}

/* ======================= int_arith.py ====================================== */

static void t_divmod(int arg) {
    int sizes[] = {1, 256, 777};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        int32_t *a = buf_new("a", I32, n, B_IN), *b = buf_new("b", I32, n, B_IN), *q = buf_new("q", I32, n, B_OUT),
                *r = buf_new("r", I32, n, B_OUT);
        int64_t *q64 = buf_new("q64", I64, n, B_OUT);
        uint32_t *uq = buf_new("uq", U32, n, B_OUT);
        for (int i = 0; i < n; i++) {
            a[i] = i % 2 ? (int32_t)rng_int(-1000, 1000) : (int32_t)(uint32_t)rng_u64();
            do b[i] = i % 3 ? (int32_t)rng_int(-50, 50) : (int32_t)(uint32_t)rng_u64();
            while (b[i] == 0 || (b[i] == -1 && a[i] == INT32_MIN));
        }
        LAUNCH(CDIV(n, 256), 1, 1, &a, &b, &q, &r, &q64, &uq, &n);
        for (int i = 0; i < n; i++) {
            /* C semantics (arith.divsi / remsi): truncation toward zero */
            check_i(q, i, a[i] / b[i]);
            check_i(r, i, a[i] % b[i]);
            int64_t A = a[i];
            check_i(q64, i, (A * 3 - 7) / -4 + A % -5 + (A + 2) / 3);
            uint32_t u = (uint32_t)a[i];
            check_i(uq, i, (uint32_t)(u / 3 + u % 7));
        }
        end();
    }
}
static void t_bitops(int arg) {
    int sizes[] = {1, 128, 333};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s], grid = CDIV(n, 128);
        begin("n=%d", n);
        uint32_t *a = buf_new("a", U32, n, B_IN), *b = buf_new("b", U32, n, B_IN), *hi = buf_new("hi", U32, n, B_OUT),
                 *mix = buf_new("mix", U32, n, B_OUT), *xs = buf_new("xs", U32, grid, B_OUT);
        int32_t *sg = buf_new("signed", I32, n, B_OUT);
        for (int i = 0; i < n; i++) a[i] = (uint32_t)rng_u64(), b[i] = (uint32_t)rng_u64();
        if (n > 2) a[1] = 0x80000000u, b[2] = 0x80000000u;
        LAUNCH(grid, 1, 1, &a, &b, &hi, &mix, &xs, &sg, &n);
        for (int i = 0; i < n; i++) {
            check_i(hi, i, (uint32_t)(((uint64_t)a[i] * b[i]) >> 32));
            check_i(mix, i, (uint32_t)(((a[i] ^ b[i]) | ((a[i] & 0xFF) << 3) | (b[i] >> 5)) + ~a[i]));
            int32_t si = (int32_t)a[i], ti = (int32_t)b[i];
            uint32_t sh = (uint32_t)(si >> 3), ab = si < 0 ? 0u - (uint32_t)si : (uint32_t)si;
            uint32_t mn = (uint32_t)(si < ti ? si : ti), mx = (uint32_t)(si < ti ? ti : si);
            check_i(sg, i, (int32_t)(sh + ab + mn - mx));
        }
        for (int p = 0; p < grid; p++) {
            uint32_t x = 0;
            for (int i = p * 128; i < n && i < p * 128 + 128; i++) x ^= a[i];
            check_i(xs, p, x);
        }
        end();
    }
}

/* ======================= math_ops.py ======================================= */

static void t_math(int arg) {
    int sizes[] = {1, 256, 1000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        float lo = -0.5f, hi = 0.75f;
        begin("n=%d", n);
        float *x = buf_new("x", F32, n, B_IN), *y = buf_new("y", F32, n, B_IN), *o = buf_new("out", F32, n, B_OUT);
        fill(x, -2, 2), fill(y, -2, 2);
        LAUNCH(CDIV(n, 256), 1, 1, &x, &y, &o, &n, &lo, &hi);
        for (int i = 0; i < n; i++) {
            double X = x[i], Y = y[i];
            double a = X > Y ? X : Y, b = fmin(X, Y) + fmax(X, Y), c = fmin(fmax(X, lo), hi);
            double t[] = {a, b, c,
                          fabs(X), 1 / (1 + exp(-Y)), erf(X),
                          sqrt(fabs(X)), 1 / sqrt(fabs(Y) + 1), log(fabs(X) + 1),
                          sin(X) * cos(Y), X * Y + a,
                          exp2(X * 0.5), log2(fabs(Y) + 2), exp(-X * X), 1 / sqrt(Y * Y + 1),
                          floor(X), ceil(Y), X / (Y + 3), sqrt(fabs(Y)), a * b + c};
            double ref = 0, mag = 0;
            for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) ref += t[k], mag += fabs(t[k]);
            /* 20 terms, each within a few fp32 ulps (sigmoid, erf, ... in fp32) */
            check_f(o, i, ref, 4e-6 * mag);
        }
        end();
    }
}
static void t_gelu(int arg) {
    int sizes[] = {1, 1024, 3000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        void *x = buf_new("x", F16, n, B_IN), *o = buf_new("out", F16, n, B_OUT);
        fill(x, -5, 5);
        double *X = dv(x);
        LAUNCH(CDIV(n, 1024), 1, 1, &x, &o, &n);
        for (int i = 0; i < n; i++) {
            double v = X[i], ref = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
            check_f(o, i, ref, 1e-6 * fabs(v)); /* fp32 tanh before the rounding */
        }
        end();
    }
}

/* ======================= memory.py ========================================= */

static void t_load_mod(int arg) {
    int sizes[] = {1, 128, 300}, flags[] = {1, 0, 3};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d flag=%d", n, flags[s]);
        float *src = buf_new("src", F32, n, B_IN), *dst = buf_new("dst", F32, n, B_OUT);
        int32_t *flag = buf_new("flag", I32, 1, B_IN);
        flag[0] = flags[s];
        fill(src, -10, 10);
        LAUNCH(CDIV(n, 128), 1, 1, &src, &dst, &flag, &n);
        for (int i = 0; i < n; i++) check_f(dst, i, flags[s] > 0 ? 2.0 * src[i] + 0.5 : 0.5, 0);
        end();
    }
}

/* out[m, j] = sum over column blocks c of a[m, c * 64 + j] (fp32), through
 * block pointers: a's columns past N (filled with garbage here) must read as
 * zero (boundary_check=(0, 1), padding "zero"), rows past M are neither read
 * nor written (the store checks dimension 0), out's padding columns stay. */
static void t_block_ptr(int arg) {
    int Ms[] = {1, 70, 64}, Ns[] = {1, 100, 256};
    for (int s = 0; s < 3; s++) {
        int M = Ms[s], N = Ns[s], sam = ROUND16(N) + 16, som = 64 + 16 * (s != 2);
        begin("%dx%d", M, N);
        void *a = buf_new("a", F16, (size_t)M * sam, B_IN);
        float *o = buf_new("out", F32, (size_t)M * som, B_OUT);
        fill(a, -4, 4);
        double *A = dv(a);
        LAUNCH(CDIV(M, 64), 1, 1, &a, &o, &M, &N, &sam, &som);
        for (int m = 0; m < M; m++) {
            for (int j = 0; j < 64; j++) {
                float acc = 0;
                for (int c = j; c < N; c += 64) acc += (float)A[(size_t)m * sam + c];
                check_f(o, (size_t)m * som + j, acc, 0);
            }
            for (int j = 64; j < som; j++) check_untouched(o, (size_t)m * som + j);
        }
        end();
    }
}

/* ======================= rng.py ============================================ */

static void t_dropout(int arg) {
    int sizes[] = {1, 1024, 3000};
    float ps[] = {0.3f, 0.5f, 0.0f};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s], seed = (int)rng_int(0, 1 << 30);
        float p = ps[s];
        begin("n=%d p=%g", n, p);
        seed = (int)rng_int(0, 1 << 30);
        float *x = buf_new("x", F32, n, B_IN), *o = buf_new("out", F32, n, B_OUT);
        fill(x, -5, 5);
        LAUNCH(CDIV(n, 1024), 1, 1, &x, &o, &n, &p, &seed);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            uint32_t c[4] = {(uint32_t)i, 0, 0, 0};
            philox4x32((uint64_t)(int64_t)seed, c);
            float u = philox_uniform(c[0]), ref = u > p ? x[i] / (1.0f - p) : 0.0f;
            uint32_t rb;
            memcpy(&rb, &ref, 4);
            check_i(o, i, rb); /* bit-exact */
            kept += u > p;
        }
        if (n >= 1024) { /* and the stream looks uniform */
            H.checks++;
            if (fabs((double)kept / n - (1 - p)) > 0.06) h_fail("kept %d of %d at p=%g", kept, n, p);
        }
        end();
    }
}
static void t_random_fill(int arg) {
    int sizes[] = {1, 256, 1000};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        begin("n=%d", n);
        int64_t seed = (int64_t)(rng_u64() >> 1);
        float *z = buf_new("normal", F32, n, B_OUT);
        uint32_t *bits = buf_new("bits", U32, n, B_OUT);
        int32_t *dice = buf_new("dice", I32, n, B_OUT);
        LAUNCH(CDIV(n, 256), 1, 1, &z, &bits, &dice, &n, &seed);
        for (int i = 0; i < n; i++) {
            uint32_t c[4] = {(uint32_t)i, 0, 0, 0};
            philox4x32((uint64_t)seed, c);
            check_i(bits, i, c[0]);
            check_i(dice, i, (c[0] ^ c[1] ^ c[2] ^ c[3]) % 6 + 1);
            float u1 = fmaxf(1.0e-7f, philox_uniform(c[0])), u2 = philox_uniform(c[1]);
            float th = (float)6.283185307179586 * u2; /* the fp32 product, as the kernel forms it */
            double r = sqrt(-2.0 * log((double)u1));
            /* fp32 log, sqrt, cos: + 2e-6 r */
            check_f(z, i, r * cos((double)th), 2e-6 * r);
        }
        end();
    }
}

/* ======================= shapes.py ========================================= */

static void t_shapes(int arg) {
    for (int s = 0; s < 2; s++) {
        begin("16x32 #%d", s + 1);
        float *x = buf_new("x", F32, 512, B_IN), *t = buf_new("t", F32, 512, B_OUT), *r = buf_new("r", F32, 512, B_OUT),
              *j = buf_new("j", F32, 1024, B_OUT), *sp = buf_new("s", F32, 512, B_OUT);
        fill(x, -4, 4);
        LAUNCH(1, 1, 1, &x, &t, &r, &j, &sp);
        for (int m = 0; m < 16; m++) {
            double rs = 0, ra = 0;
            for (int n = 0; n < 32; n++) rs += x[m * 32 + n], ra += fabs(x[m * 32 + n]);
            for (int n = 0; n < 32; n++) {
                check_f(t, n * 16 + m, x[m * 32 + n], 0);
                check_f(j, m * 32 + n, x[m * 32 + n], 0);
                check_f(j, 512 + m * 32 + n, 2.0 * x[m * 32 + n], 0);
                check_f(sp, m * 32 + n, 3.0 * x[m * 32 + n] - rs, SUM_TOL * (ra + 3 * fabs(x[m * 32 + n])));
            }
        }
        for (int k = 0; k < 512; k++) check_f(r, k, x[k], 0);
        end();
    }
}

/* ======================= lang_extras.py =================================== */

static int cmp_f32(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* tl.flip (both axes), tl.sort (both orders; Triton's bitonic network),
 * tl.gather (both axes) and tl.cat against plain loops and qsort. Rows of
 * small integers (many ties), of random floats and of descending values:
 * a wrong or missing compare-exchange leaves some row out of order.
 * arg = ROWS * 1000 + COLS (ROWS >= 2: the tl.cat reads two rows). */
static void t_shuffle(int arg) {
    int R = arg / 1000, C = arg % 1000, size = R * C;
    for (int s = 0; s < 3; s++) {
        begin("%dx%d #%d", R, C, s + 1);
        float *x = buf_new("x", F32, (size_t)size, B_IN), *o = buf_new("out", F32, (size_t)(6 * size + 2 * C), B_OUT);
        int32_t *idx = buf_new("idx", I32, (size_t)size, B_IN);
        for (int i = 0; i < size; i++) {
            x[i] = s == 0 ? (float)rng_int(-3, 3) : s == 1 ? (float)rng_unif(-100, 100) : (float)(size - i);
            idx[i] = (int32_t)rng_int(0, 999);
        }
        LAUNCH(1, 1, 1, &x, &idx, &o);
        float *row = tmp(sizeof(float) * (size_t)C);
        for (int r = 0; r < R; r++) {
            memcpy(row, x + r * C, sizeof(float) * (size_t)C);
            qsort(row, (size_t)C, sizeof(float), cmp_f32);
            for (int c = 0; c < C; c++) {
                int k = r * C + c;
                check_f(o, (size_t)k, x[r * C + C - 1 - c], 0);
                check_f(o, (size_t)(size + k), x[(R - 1 - r) * C + c], 0);
                check_f(o, (size_t)(2 * size + k), row[c], 0);
                check_f(o, (size_t)(3 * size + k), row[C - 1 - c], 0);
                check_f(o, (size_t)(4 * size + k), x[r * C + idx[k] % C], 0);
                check_f(o, (size_t)(5 * size + k), x[(idx[k] % R) * C + c], 0);
            }
        }
        for (int k = 0; k < 2 * C; k++) check_f(o, (size_t)(6 * size + k), x[k], 0);
        end();
    }
}

/* ======================= the table ========================================= */

#define CM_SIG(src) "*" src ":16,*i1:16,*i8:16,*i16:16,*i32:16,*i64:16,*u8:16,*u16:16,*u32:16,*u64:16," \
                    "*fp16:16,*bf16:16,*fp32:16,*fp64:16,*fp8e4nv:16,*fp8e5:16,i32"
#define CM_ROW(src, dt) {"cast_matrix.py", "cast_matrix_kernel", CM_SIG(src), "BLOCK=128", t_cast_matrix, dt}

static const struct Row {
    const char *file, *kernel, *sig, *cx;
    void (*run)(int);
    int arg;
} ROWS[] = {
    {"vector_add.py", "add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32", "BLOCK=1024", t_add_f32, 0},
    {"vector_add.py", "add_kernel", "*fp16:16,*fp16:16,*fp16:16,i32:16", "BLOCK=2048", t_add_f16, 0},
    {"vector_add.py", "axpy_kernel", "*fp32:16,*fp32:16,*fp32:16,fp32,i32", "BLOCK=512", t_axpy, 0},
    {"softmax.py", "softmax_kernel", "*fp32:16,*fp32:16,i32:16,i32:16,i32,i32", "BLOCK_SIZE=1024, NUM_STAGES=2", t_softmax, 0},
    {"softmax.py", "softmax_2d_kernel", "*fp16:16,*fp16:16,i32,i32,i32:16,constexpr,i32:16,constexpr",
     "stride_xn=1, stride_yn=1, BLOCK_M=16, BLOCK_N=256", t_softmax_2d, 0},
    {"softmax_rows.py", "softmax_row_kernel", "*fp32:16,*fp32:16,i32:16,i32:16,i32", "BLOCK_SIZE=1024", t_softmax_rows, 0},
    {"layer_norm.py", "layer_norm_fwd_kernel", "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32:16,i32,fp32",
     "BLOCK_N=1024", t_layer_norm_fwd, 0},
    {"layer_norm.py", "layer_norm_bwd_kernel",
     "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32", "BLOCK_N=1024",
     t_layer_norm_bwd, 0},
    {"rms_norm.py", "rms_norm_kernel", "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32,fp32", "BLOCK_N=512", t_rms_norm, 0},
    {"matmul.py", "matmul_kernel",
     "*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32:16,constexpr,i32:16,constexpr,i32:16,constexpr",
     "stride_ak=1, stride_bn=1, stride_cn=1, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, ACTIVATION=\"leaky_relu\"",
     t_matmul_f16, 0},
    {"matmul.py", "matmul_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32",
     "BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=4, ACTIVATION=\"\"", t_matmul_f32, 0},
    {"grouped_gemm.py", "grouped_matmul_kernel", "*i64:16,*i64:16,*i64:16,*i32:16,*i32:16,i32",
     "NUM_SM=132, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32", t_grouped_gemm, 0},
    {"attention.py", "attn_fwd_kernel", "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16",
     "HEAD_DIM=64, BLOCK_M=64, BLOCK_N=64, CAUSAL=True", t_attention, 1},
    {"attention.py", "attn_fwd_kernel", "*fp16:16,*fp16:16,*fp16:16,*fp16:16,fp32,i32:16,i32:16,i32:16",
     "HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, CAUSAL=False", t_attention, 0},
    {"reductions.py", "reduce_2d_kernel", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16",
     "BLOCK_M=32, BLOCK_N=64", t_reduce_2d, 0},
    {"reductions.py", "argmax_argmin_kernel", "*fp32:16,*i32:16,*i32:16,*fp32:16,*i32:16,i32,i32,i32:16",
     "BLOCK_M=16, BLOCK_N=128", t_argmax, 0},
    {"reductions.py", "welford_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32:16", "BLOCK_N=256", t_welford, 0},
    {"scans.py", "scan_kernel", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32,i32:16", "BLOCK_M=8, BLOCK_N=64",
     t_scan, 0},
    {"scans.py", "linear_recurrence_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32:16", "BLOCK_T=512", t_linrec, 0},
    {"atomics.py", "histogram_kernel", "*i32:16,*i32:16,i32", "NUM_BINS=64, BLOCK=1024", t_histogram, 0},
    {"atomics.py", "atomic_minmax_kernel", "*fp32:16,*i32:16,*fp32:16,*fp32:16,i32", "BLOCK=512", t_atomic_minmax, 0},
    {"atomics.py", "spin_lock_accumulate_kernel", "*fp32:16,*fp32:16,*i32:16,*i32:16,i32", "BLOCK=256", t_spin_lock, 0},
    {"casts.py", "cast_kernel", "*fp32:16,*fp16:16,*bf16:16,*i32:16,*u32:16,*i8:16,*fp64:16,*fp32:16,i32", "BLOCK=256",
     t_cast, 0},
    {"casts.py", "fp8_roundtrip_kernel", "*fp16:16,*fp8e4nv:16,*fp8e5:16,*u8:16,*fp16:16,i32", "BLOCK=512", t_fp8, 0},
    CM_ROW("i1", I1), CM_ROW("i8", I8), CM_ROW("i16", I16), CM_ROW("i32", I32), CM_ROW("i64", I64),
    CM_ROW("u8", U8), CM_ROW("u16", U16), CM_ROW("u32", U32), CM_ROW("u64", U64), CM_ROW("fp16", F16),
    CM_ROW("bf16", BF16), CM_ROW("fp32", F32), CM_ROW("fp64", F64), CM_ROW("fp8e4nv", F8E4), CM_ROW("fp8e5", F8E5),
    {"control_flow.py", "newton_sqrt_kernel", "*fp32:16,*fp32:16,*i32:16,i32,fp32", "MAX_ITERS=32, BLOCK=256", t_newton, 0},
    {"control_flow.py", "poly_branch_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,i32", "DEGREE=4, BLOCK=128", t_poly, 0},
    {"int_arith.py", "int_divmod_kernel", "*i32:16,*i32:16,*i32:16,*i32:16,*i64:16,*u32:16,i32", "BLOCK=256", t_divmod, 0},
    {"int_arith.py", "bit_ops_kernel", "*u32:16,*u32:16,*u32:16,*u32:16,*u32:16,*i32:16,i32", "BLOCK=128", t_bitops, 0},
    {"math_ops.py", "elementwise_math_kernel", "*fp32:16,*fp32:16,*fp32:16,i32,fp32,fp32", "BLOCK=256", t_math, 0},
    {"math_ops.py", "gelu_tanh_kernel", "*fp16:16,*fp16:16,i32", "BLOCK=1024", t_gelu, 0},
    {"memory.py", "load_modifiers_kernel", "*fp32:16,*fp32:16,*i32:16,i32", "", t_load_mod, 0},
    {"rng.py", "dropout_kernel", "*fp32:16,*fp32:16,i32,fp32,i32", "BLOCK=1024", t_dropout, 0},
    {"rng.py", "random_fill_kernel", "*fp32:16,*u32:16,*i32:16,i32,i64", "BLOCK=256", t_random_fill, 0},
    {"shapes.py", "shape_ops_kernel", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16", "BLOCK_M=16, BLOCK_N=32", t_shapes, 0},
    {"memory.py", "block_ptr_kernel", "*fp16:16,*fp32:16,i32,i32,i32:16,constexpr,i32:16,constexpr",
     "stride_an=1, stride_on=1, BLOCK_M=64, BLOCK_N=64", t_block_ptr, 0},
#define SHUFFLE_ROW(R, C) {"lang_extras.py", "shuffle_kernel", "*fp32:16,*i32:16,*fp32:16", "ROWS=" #R ", COLS=" #C, \
                           t_shuffle, R * 1000 + C}
    SHUFFLE_ROW(4, 32), SHUFFLE_ROW(2, 256), SHUFFLE_ROW(16, 8), SHUFFLE_ROW(2, 2), SHUFFLE_ROW(8, 64),
};

/* ttir with pipeline-dot-loads,cse,dce applied; NULL when nothing changed. */
static char *pipelined_ttir(const char *ttir) {
    if (!ttir || !strstr(ttir, "tt.dot")) return NULL;
    DiagEngine de;
    diag_init(&de);
    Context *c = ctx_new(&de);
    char *out = NULL;
    Op *m = ir_parse(c, "kernel.ttir", ttir, strlen(ttir));
    PassContext pc = {.ctx = c, .de = &de};
    if (m && pipeline_dot_loads(c, m, 3, 1024) > 0 && pass_pipeline_run(m, "cse,dce", &pc, NULL) &&
        ir_verify(m, &de)) {
        StrBuf sb = {0};
        PrintOptions po = {0};
        ir_print(m, &sb, &po);
        out = sb_take(&sb);
    }
    if (diag_has_errors(&de)) printf("FAIL pipelining the IR: %d errors\n", de.nerrors);
    ctx_free(c);
    diag_free(&de);
    return out;
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    s[n] = 0;
    fclose(f);
    return s;
}

int main(int argc, char **argv) {
    const char *e = getenv("TC_TEST_SEED");
    base_seed = e && *e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL);
    printf("kernel suite: TC_TEST_SEED=%llu\n", (unsigned long long)base_seed);
    int nrows = (int)(sizeof ROWS / sizeof ROWS[0]), compile_fails = 0, ran = 0;
    for (int i = 0; i < nrows; i++) {
        const struct Row *r = &ROWS[i];
        if (argc > 1) {
            bool want = false;
            for (int a = 1; a < argc; a++) want |= strstr(r->kernel, argv[a]) || strstr(r->file, argv[a]);
            if (!want) continue;
        }
        char path[256], cxbuf[512];
        snprintf(path, sizeof path, "tests/kernels/%s", r->file);
        char *src = slurp(path);
        if (!src) {
            printf("FAIL cannot read %s (run from the repository root)\n", path);
            return 1;
        }
        /* "A=1, B=2" -> constexpr pairs */
        tc_constexpr cx[16];
        int ncx = 0;
        snprintf(cxbuf, sizeof cxbuf, "%s", r->cx);
        for (char *tok = strtok(cxbuf, ","); tok; tok = strtok(NULL, ",")) {
            while (*tok == ' ') tok++;
            char *eq = strchr(tok, '=');
            if (!eq) continue;
            *eq = 0;
            cx[ncx].name = tok, cx[ncx].value = eq + 1, ncx++;
        }
        tc_compile_options o = tc_compile_options_default();
        o.source = src, o.filename = path, o.kernel = r->kernel, o.signature = r->sig;
        o.constexprs = cx, o.num_constexprs = ncx;
        tc_error *err = NULL;
        H.kernel = r->kernel, H.spec = r->sig;
        K = NULL;
        if (tc_compile(&o, &K, &err) != 0) {
            printf("FAIL %-28s %-40s does not compile:\n%s\n", r->kernel, r->sig, err ? tc_error_message(err) : "?");
            tc_error_free(err);
            compile_fails++;
            free(src);
            continue;
        }
        r->run(r->arg);
        ran++;
        char *piped = pipelined_ttir(tc_kernel_ir(K, "ttir"));
        tc_kernel_free(K);
        if (piped) {
            tc_compile_options po = o;
            po.source = piped, po.source_len = 0, po.filename = "pipelined.ttir";
            char spec[600];
            snprintf(spec, sizeof spec, "%s (pipelined)", r->sig);
            H.spec = spec;
            K = NULL;
            if (tc_compile(&po, &K, &err) != 0) {
                printf("FAIL %-28s %-40s pipelined IR does not compile:\n%s\n", r->kernel, r->sig,
                       err ? tc_error_message(err) : "?");
                tc_error_free(err);
                compile_fails++;
            } else {
                r->run(r->arg);
                ran++;
                tc_kernel_free(K);
            }
            H.spec = r->sig;
            tc_free(piped);
        }
        free(src);
    }
    printf("kernel suite: %d specialisations run, %d runs failed, %d did not compile (TC_TEST_SEED=%llu)\n", ran,
           H.total_fails, compile_fails, (unsigned long long)base_seed);
    return H.total_fails || compile_fails ? 1 : 0;
}
