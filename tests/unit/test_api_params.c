/*
 * test_api_params.c - the runtime parameters of a compiled kernel (what
 * tc_launch takes): one per SIGNATURE entry, except `constexpr` entries,
 * which the specialisation removes (softmax_2d_kernel's unit strides).
 */
#include "tritonc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SRC[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, y_ptr, n, stride_x, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    v = tl.load(x_ptr + offs * stride_x, mask=offs < n)\n"
    "    tl.store(y_ptr + offs, v, mask=offs < n)\n";

int main(void) {
    tc_compile_options o = tc_compile_options_default();
    o.source = SRC, o.filename = "k.py", o.kernel = "k";
    o.signature = "*fp32:16,*fp32:16,i32,constexpr";
    tc_constexpr cx[] = {{"stride_x", "1"}, {"BLOCK", "64"}};
    o.constexprs = cx, o.num_constexprs = 2;
    tc_kernel *k;
    tc_error *err;
    if (tc_compile(&o, &k, &err) != 0) {
        fprintf(stderr, "%s\n", tc_error_message(err));
        return 1;
    }
    int fails = 0, n = tc_kernel_num_params(k);
    if (n != 3) fprintf(stderr, "num_params = %d, expected 3\n", n), fails++;
    const char *want[] = {"*fp32", "*fp32", "i32"};
    for (int i = 0; i < 3 && i < n; i++)
        if (strcmp(tc_kernel_param_type(k, i), want[i]) != 0)
            fprintf(stderr, "param %d: %s, expected %s\n", i, tc_kernel_param_type(k, i), want[i]), fails++;
    float x[64], y[64];
    for (int i = 0; i < 64; i++) x[i] = (float)i, y[i] = -1;
    float *xp = x, *yp = y;
    int len = 10, grid[3] = {1, 1, 1};
    void *args[] = {&xp, &yp, &len};
    if (tc_launch(k, grid, args, 3, NULL, &err) != 0) fprintf(stderr, "%s\n", tc_error_message(err)), fails++;
    for (int i = 0; i < 64; i++)
        if (y[i] != (i < 10 ? (float)i : -1.0f)) fprintf(stderr, "y[%d] = %g\n", i, y[i]), fails++;
    tc_kernel_free(k);
    printf("test_api_params: %s\n", fails ? "FAILED" : "ok");
    return fails != 0;
}
