/*
 * test_cpu_fusion.c - kernels that exercise the CPU backend's element-wise
 * fusion (emit_c.c: one loop per chain of loads, element-wise ops and a
 * store or reduction; an O(1) all-true mask test choosing an unmasked fast
 * path), compiled from Python source through the C API, run on the CPU and
 * checked element by element against references computed here in double:
 *
 *   chain     a chain over a ragged last tile (masked lanes read `other`),
 *             one value used by a store and by two reductions;
 *   carried   tiles carried across scf.for iterations, the old value read
 *             in the same loop that computes the new one;
 *   tile2d    a 2-D mask (rows & cols), a reduction along the last axis
 *             over a chain, then a second chain over its input;
 *   shift     a store that overlaps the group's load at another index
 *             (x[i+1] = 2 x[i]): every load must still see the old values;
 *   inplace   a store to the very addresses it loaded (x[i] = x[i]^2 + 1);
 *   window    a mask `lo <= offs & offs < hi`: whole tiles, partial tiles
 *             and empty ones.
 *
 * Each runs at sizes that are and are not a multiple of the block, so both
 * the fast path and the exact masked path run. Outputs are poisoned first;
 * lanes past n must stay untouched.
 */
#include "tritonc.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

#define EXPECT(cond, ...) \
    do { if (!(cond)) { fails++; if (fails < 20) fprintf(stderr, __VA_ARGS__), fputc('\n', stderr); } } while (0)

static tc_kernel *compile(const char *src, const char *kernel, const char *sig, const tc_constexpr *cx, int ncx) {
    tc_compile_options o = tc_compile_options_default();
    o.source = src, o.filename = "fusion.py", o.kernel = kernel, o.signature = sig;
    o.constexprs = cx, o.num_constexprs = ncx;
    tc_kernel *k = NULL;
    tc_error *err = NULL;
    if (tc_compile(&o, &k, &err) != 0) {
        fprintf(stderr, "%s: %s\n", kernel, tc_error_message(err));
        tc_error_free(err);
        fails++;
    }
    return k;
}

static void run(tc_kernel *k, int g0, void **args, int n) {
    int grid[3] = {g0, 1, 1};
    tc_error *err = NULL;
    if (k && tc_launch(k, grid, args, n, NULL, &err) != 0) {
        fprintf(stderr, "%s\n", tc_error_message(err));
        tc_error_free(err);
        fails++;
    }
}

static bool close_to(double got, double want, double rtol) {
    return fabs(got - want) <= rtol * (1.0 + fabs(want));
}

static float frand(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xffff) / 65536.0f * 4.0f - 2.0f;
}

static const char SRC[] =
    "import triton\nimport triton.language as tl\n"
    "@triton.jit\n"
    "def chain(x_ptr, y_ptr, out_ptr, stats_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    ok = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=ok, other=1.0)\n"
    "    y = tl.load(y_ptr + offs, mask=ok, other=-2.0)\n"
    "    t = x * y + 0.5\n"
    "    u = tl.where(ok, tl.exp(t * 0.25), 0.0)\n"
    "    tl.store(out_ptr + offs, t - u, mask=ok)\n"
    "    tl.store(stats_ptr + pid, tl.sum(u, axis=0) + tl.max(t, axis=0))\n"
    "\n"
    "@triton.jit\n"
    "def carried(x_ptr, out_ptr, fin_ptr, n, BLOCK: tl.constexpr):\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
    "    prev = tl.zeros([BLOCK], dtype=tl.float32)\n"
    "    for start in range(0, n, BLOCK):\n"
    "        offs = start + cols\n"
    "        ok = offs < n\n"
    "        x = tl.load(x_ptr + offs, mask=ok, other=0.0)\n"
    "        new = acc * 0.5 + x - prev\n"
    "        tl.store(out_ptr + offs, acc + prev, mask=ok)\n"
    "        prev = x * 2.0\n"
    "        acc = new\n"
    "    tl.store(fin_ptr + cols, acc + prev)\n"
    "\n"
    "@triton.jit\n"
    "def tile2d(x_ptr, out_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):\n"
    "    rm = tl.program_id(0) * BM + tl.arange(0, BM)\n"
    "    rn = tl.arange(0, BN)\n"
    "    ok = (rm[:, None] < M) & (rn[None, :] < N)\n"
    "    x = tl.load(x_ptr + rm[:, None] * stride + rn[None, :], mask=ok, other=0.0)\n"
    "    y = tl.sqrt(x * x + 1.0)\n"
    "    s = tl.sum(y, axis=1)\n"
    "    tl.store(out_ptr + rm[:, None] * stride + rn[None, :], y / s[:, None], mask=ok)\n"
    "\n"
    "@triton.jit\n"
    "def shift(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
    "    tl.store(x_ptr + offs + 1, x * 2.0, mask=offs < n)\n"
    "\n"
    "@triton.jit\n"
    "def inplace(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    p = x_ptr + offs\n"
    "    x = tl.load(p, mask=offs < n)\n"
    "    tl.store(p, x * x + 1.0, mask=offs < n)\n"
    "\n"
    "@triton.jit\n"
    "def window(x_ptr, y_ptr, lo, hi, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    ok = (lo <= offs) & (offs < hi)\n"
    "    x = tl.load(x_ptr + offs, mask=ok, other=-1.0)\n"
    "    tl.store(y_ptr + offs, tl.where(ok, x * 3.0, 7.0) + x)\n";

#define POISON 12345.0f

static void test_chain(void) {
    enum { B = 256 };
    tc_constexpr cx[] = {{"BLOCK", "256"}};
    tc_kernel *k = compile(SRC, "chain", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32", cx, 1);
    const int sizes[] = {1, 255, 256, 1000, 1024};
    for (int si = 0; si < 5; si++) {
        int n = sizes[si], g = (n + B - 1) / B;
        float *x = malloc(sizeof(float) * g * B), *y = malloc(sizeof(float) * g * B);
        float *out = malloc(sizeof(float) * (g * B + 1)), *st = malloc(sizeof(float) * g);
        unsigned s = 7u + (unsigned)n;
        for (int i = 0; i < g * B; i++) x[i] = frand(&s), y[i] = frand(&s), out[i] = POISON;
        out[g * B] = POISON;
        for (int i = 0; i < g; i++) st[i] = POISON;
        void *px = x, *py = y, *po = out, *ps = st;
        int32_t nn = n;
        void *args[] = {&px, &py, &po, &ps, &nn};
        run(k, g, args, 5);
        for (int p = 0; p < g; p++) {
            double sum = 0, mx = -INFINITY;
            for (int l = 0; l < B; l++) {
                int i = p * B + l;
                bool ok = i < n;
                double xv = ok ? x[i] : 1.0, yv = ok ? y[i] : -2.0;
                double t = (double)(float)(xv * yv) + 0.5;
                double u = ok ? exp(t * 0.25) : 0.0;
                sum += u;
                mx = t > mx ? t : mx;
                if (ok) EXPECT(close_to(out[i], t - u, 1e-5), "chain n=%d: out[%d] = %g, want %g", n, i, out[i], t - u);
                else EXPECT(out[i] == POISON, "chain n=%d: out[%d] (masked) written: %g", n, i, out[i]);
            }
            EXPECT(close_to(st[p], sum + mx, 1e-5), "chain n=%d: stats[%d] = %g, want %g", n, p, st[p], sum + mx);
        }
        EXPECT(out[g * B] == POISON, "chain n=%d: wrote past the grid", n);
        free(x), free(y), free(out), free(st);
    }
    tc_kernel_free(k);
}

static void test_carried(void) {
    enum { B = 64 };
    tc_constexpr cx[] = {{"BLOCK", "64"}};
    tc_kernel *k = compile(SRC, "carried", "*fp32:16,*fp32:16,*fp32:16,i32", cx, 1);
    const int sizes[] = {64, 100, 256, 300};
    for (int si = 0; si < 4; si++) {
        int n = sizes[si], g = (n + B - 1) / B;
        float *x = malloc(sizeof(float) * n), *out = malloc(sizeof(float) * (n + 1)), fin[B];
        unsigned s = 99u + (unsigned)n;
        for (int i = 0; i < n; i++) x[i] = frand(&s), out[i] = POISON;
        out[n] = POISON;
        void *px = x, *po = out, *pf = fin;
        int32_t nn = n;
        void *args[] = {&px, &po, &pf, &nn};
        run(k, 1, args, 4);
        double acc[B] = {0}, prev[B] = {0};
        for (int t = 0; t < g; t++)
            for (int l = 0; l < B; l++) {
                int i = t * B + l;
                double xv = i < n ? x[i] : 0.0;
                double nw = (double)(float)(acc[l] * 0.5 + xv) - prev[l];
                if (i < n) EXPECT(close_to(out[i], acc[l] + prev[l], 1e-5), "carried n=%d: out[%d] = %g, want %g", n, i, out[i], acc[l] + prev[l]);
                prev[l] = xv * 2.0;
                acc[l] = (float)nw;
            }
        for (int l = 0; l < B; l++)
            EXPECT(close_to(fin[l], acc[l] + prev[l], 1e-5), "carried n=%d: fin[%d] = %g, want %g", n, l, fin[l], acc[l] + prev[l]);
        EXPECT(out[n] == POISON, "carried n=%d: wrote past n", n);
        free(x), free(out);
    }
    tc_kernel_free(k);
}

static void test_tile2d(void) {
    enum { BM = 4, BN = 32, STRIDE = 40 };
    tc_constexpr cx[] = {{"BM", "4"}, {"BN", "32"}};
    tc_kernel *k = compile(SRC, "tile2d", "*fp32:16,*fp32:16,i32,i32,i32", cx, 2);
    const int ms[] = {4, 7, 8}, ns[] = {32, 20, 1};
    for (int c = 0; c < 3; c++) {
        int M = ms[c], N = ns[c], g = (M + BM - 1) / BM, rows = g * BM;
        float *x = malloc(sizeof(float) * rows * STRIDE), *out = malloc(sizeof(float) * rows * STRIDE);
        unsigned s = 5u + (unsigned)c;
        for (int i = 0; i < rows * STRIDE; i++) x[i] = frand(&s), out[i] = POISON;
        void *px = x, *po = out;
        int32_t m = M, nn = N, st = STRIDE;
        void *args[] = {&px, &po, &m, &nn, &st};
        run(k, g, args, 5);
        for (int r = 0; r < rows; r++) {
            double sum = 0;
            for (int j = 0; j < BN; j++) {
                double xv = r < M && j < N ? x[r * STRIDE + j] : 0.0;
                sum += sqrt(xv * xv + 1.0);
            }
            for (int j = 0; j < STRIDE; j++) {
                float got = out[r * STRIDE + j];
                if (r < M && j < N) {
                    double xv = x[r * STRIDE + j], want = sqrt(xv * xv + 1.0) / sum;
                    EXPECT(close_to(got, want, 1e-5), "tile2d %dx%d: out[%d][%d] = %g, want %g", M, N, r, j, got, want);
                } else {
                    EXPECT(got == POISON, "tile2d %dx%d: out[%d][%d] (masked) written: %g", M, N, r, j, got);
                }
            }
        }
        free(x), free(out);
    }
    tc_kernel_free(k);
}

static void test_shift(void) {
    tc_constexpr cx[] = {{"BLOCK", "128"}};
    tc_kernel *k = compile(SRC, "shift", "*fp32:16,i32", cx, 1);
    const int sizes[] = {128, 100};
    for (int si = 0; si < 2; si++) {
        int n = sizes[si];
        float x[130], old[130];
        for (int i = 0; i < 130; i++) x[i] = old[i] = (float)(i + 1);
        void *px = x;
        int32_t nn = n;
        void *args[] = {&px, &nn};
        run(k, 1, args, 2);
        EXPECT(x[0] == old[0], "shift n=%d: x[0] = %g, want %g", n, x[0], old[0]);
        for (int i = 0; i < n; i++)
            EXPECT(x[i + 1] == 2 * old[i], "shift n=%d: x[%d] = %g, want %g", n, i + 1, x[i + 1], 2 * old[i]);
        for (int i = n + 1; i < 130; i++) EXPECT(x[i] == old[i], "shift n=%d: x[%d] changed", n, i);
    }
    tc_kernel_free(k);
}

static void test_inplace(void) {
    tc_constexpr cx[] = {{"BLOCK", "128"}};
    tc_kernel *k = compile(SRC, "inplace", "*fp32:16,i32", cx, 1);
    const int sizes[] = {256, 200};
    for (int si = 0; si < 2; si++) {
        int n = sizes[si];
        float x[257], old[257];
        unsigned s = 3u;
        for (int i = 0; i < 257; i++) x[i] = old[i] = frand(&s);
        void *px = x;
        int32_t nn = n;
        void *args[] = {&px, &nn};
        run(k, 2, args, 2);
        for (int i = 0; i < 257; i++) {
            float want = i < n ? old[i] * old[i] + 1.0f : old[i];
            EXPECT(x[i] == want, "inplace n=%d: x[%d] = %g, want %g", n, i, x[i], want);
        }
    }
    tc_kernel_free(k);
}

/* A mask from two comparisons, the bound on the left of one: tiles wholly
 * inside [lo, hi) take the fast path, the others the masked one; the store
 * is unmasked, so masked-off lanes must show `other`. */
static void test_window(void) {
    enum { B = 64, G = 4 };
    tc_constexpr cx[] = {{"BLOCK", "64"}};
    tc_kernel *k = compile(SRC, "window", "*fp32:16,*fp32:16,i32,i32", cx, 1);
    const int los[] = {0, 5, 64, 300}, his[] = {256, 200, 128, 0};
    for (int c = 0; c < 4; c++) {
        float x[G * B], y[G * B];
        unsigned s = 11u + (unsigned)c;
        for (int i = 0; i < G * B; i++) x[i] = frand(&s), y[i] = POISON;
        void *px = x, *py = y;
        int32_t lo = los[c], hi = his[c];
        void *args[] = {&px, &py, &lo, &hi};
        run(k, G, args, 4);
        for (int i = 0; i < G * B; i++) {
            bool ok = lo <= i && i < hi;
            float xv = ok ? x[i] : -1.0f, want = (ok ? xv * 3.0f : 7.0f) + xv;
            EXPECT(y[i] == want, "window [%d, %d): y[%d] = %g, want %g", lo, hi, i, y[i], want);
        }
    }
    tc_kernel_free(k);
}

int main(void) {
    test_chain();
    test_carried();
    test_tile2d();
    test_shift();
    test_inplace();
    test_window();
    printf("test_cpu_fusion: %s\n", fails ? "FAILED" : "ok");
    return fails != 0;
}
