/*
 * loops.c - the straightforward C loops bench/cpu/vs_interpreter.py runs
 * beside the CPU backend (built with -O3 -march=native -shared, one thread,
 * no -ffast-math): vector add, softmax over rows, layer norm forward (fp16
 * in and out, fp32 statistics) - the same computations as the kernels of
 * tests/kernels/{vector_add,softmax,layer_norm}.py.
 */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

void add_f32(const float *x, const float *y, float *out, long n) {
    for (long i = 0; i < n; i++) out[i] = x[i] + y[i];
}

void softmax_f32(float *out, const float *in, long rows, long cols) {
    for (long r = 0; r < rows; r++) {
        const float *x = in + r * cols;
        float *y = out + r * cols;
        float m = -INFINITY, s = 0;
        for (long c = 0; c < cols; c++) m = fmaxf(m, x[c]);
        for (long c = 0; c < cols; c++) y[c] = expf(x[c] - m), s += y[c];
        for (long c = 0; c < cols; c++) y[c] = y[c] / s;
    }
}

static inline float h2f(uint16_t h) { return _cvtsh_ss(h); }
static inline uint16_t f2h(float f) { return (uint16_t)_cvtss_sh(f, 0); }

void layer_norm_f16(const uint16_t *X, uint16_t *Y, const uint16_t *W, const uint16_t *B, float *mean,
                    float *rstd, long M, long N, float eps) {
    for (long r = 0; r < M; r++) {
        const uint16_t *x = X + r * N;
        uint16_t *y = Y + r * N;
        float s = 0, v = 0;
        for (long c = 0; c < N; c++) s += h2f(x[c]);
        float mu = s / (float)N;
        for (long c = 0; c < N; c++) {
            float d = h2f(x[c]) - mu;
            v += d * d;
        }
        float rs = 1.0f / sqrtf(v / (float)N + eps);
        mean[r] = mu, rstd[r] = rs;
        for (long c = 0; c < N; c++) y[c] = f2h((h2f(x[c]) - mu) * rs * h2f(W[c]) + h2f(B[c]));
    }
}
