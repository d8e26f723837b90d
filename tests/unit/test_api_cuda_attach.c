/*
 * test_api_cuda_attach.c - tc_cuda_attach() attaches only to a driver the
 * process has loaded already, with a current context: in a process that
 * never touched CUDA (this one, and every CI machine) it returns 0 and
 * leaves libcuda unloaded, GPU or not. (With PyTorch's context current it
 * returns 1: tests/python/test_c_first.py checks that on a GPU.)
 */
#include "tritonc.h"

#include <dlfcn.h>
#include <stdio.h>

int main(void) {
    int fails = 0;
    if (tc_cuda_attach() != 0) fprintf(stderr, "attached without a CUDA context\n"), fails++;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h) fprintf(stderr, "tc_cuda_attach loaded the driver\n"), fails++, dlclose(h);
    printf("test_api_cuda_attach: %s\n", fails ? "FAILED" : "ok");
    return fails != 0;
}
