/*
 * cuda_runtime.c - the CUDA driver API through dlopen("libcuda.so.1").
 *
 * Only the handful of entry points tritonc needs are declared here, as
 * function pointers resolved once (pthread_once); nothing links against
 * CUDA, and a machine without a GPU simply reports gpu_available() false.
 * Kernels run in the device's primary context, made current on the calling
 * thread when it has none, so tritonc shares PyTorch's context.
 */
#include "target/ptx/cuda_runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

CudaApi cuda;
static pthread_once_t cuda_once = PTHREAD_ONCE_INIT;
static bool cuda_ok;
static int cuda_sm;
static CUcontext primary_ctx;

#define LOAD(field, sym)                                   \
    do {                                                   \
        *(void **)&cuda.field = dlsym(h, sym);             \
        if (!cuda.field) return;                           \
    } while (0)

static void cuda_load(void) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    LOAD(cuInit, "cuInit");
    LOAD(cuDeviceGet, "cuDeviceGet");
    LOAD(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    LOAD(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    LOAD(cuCtxGetCurrent, "cuCtxGetCurrent");
    LOAD(cuCtxSetCurrent, "cuCtxSetCurrent");
    LOAD(cuCtxGetDevice, "cuCtxGetDevice");
    LOAD(cuModuleLoadData, "cuModuleLoadData");
    LOAD(cuModuleUnload, "cuModuleUnload");
    LOAD(cuModuleGetFunction, "cuModuleGetFunction");
    LOAD(cuFuncSetAttribute, "cuFuncSetAttribute");
    LOAD(cuFuncGetAttribute, "cuFuncGetAttribute");
    LOAD(cuLaunchKernel, "cuLaunchKernel");
    LOAD(cuGetErrorName, "cuGetErrorName");
    LOAD(cuGetErrorString, "cuGetErrorString");
    LOAD(cuLinkCreate, "cuLinkCreate_v2");
    LOAD(cuLinkAddData, "cuLinkAddData_v2");
    LOAD(cuLinkComplete, "cuLinkComplete");
    LOAD(cuLinkDestroy, "cuLinkDestroy");
    if (cuda.cuInit(0) != 0) return;
    CUcontext cur = NULL;
    CUdevice dev = 0;
    if (cuda.cuCtxGetCurrent(&cur) == 0 && cur) {
        if (cuda.cuCtxGetDevice(&dev) != 0) return;
    } else {
        if (cuda.cuDeviceGet(&dev, 0) != 0) return;
    }
    int major = 0, minor = 0;
    cuda.cuDeviceGetAttribute(&major, 75, dev);
    cuda.cuDeviceGetAttribute(&minor, 76, dev);
    cuda_sm = major * 10 + minor;
    if (cuda.cuDevicePrimaryCtxRetain(&primary_ctx, dev) != 0) return;
    cuda_ok = true;
}

bool cuda_init(void) {
    pthread_once(&cuda_once, cuda_load);
    return cuda_ok;
}

bool gpu_available(void) { return cuda_init(); }

bool gpu_attach_if_current(void) {
    /* RTLD_NOLOAD: only a driver somebody (PyTorch) has loaded already */
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!h) return false;
    CUresult (*get_current)(CUcontext *);
    *(void **)&get_current = dlsym(h, "cuCtxGetCurrent");
    CUcontext cur = NULL; /* (before cuInit: CUDA_ERROR_NOT_INITIALIZED, no context) */
    bool live = get_current && get_current(&cur) == 0 && cur;
    dlclose(h);
    return live && cuda_init();
}
int gpu_device_sm(void) { return cuda_init() ? cuda_sm : 0; }

bool cuda_ensure_context(void) {
    if (!cuda_init()) return false;
    CUcontext cur = NULL;
    if (cuda.cuCtxGetCurrent(&cur) == 0 && cur) return true;
    return cuda.cuCtxSetCurrent(primary_ctx) == 0;
}

bool cuda_adopt_primary(void) {
    CUcontext cur = NULL;
    if (!cuda_init() || (cuda.cuCtxGetCurrent(&cur) == 0 && cur)) return false;
    return cuda.cuCtxSetCurrent(primary_ctx) == 0;
}

bool cuda_check(int rc, const char *what, const char *kernel, DiagEngine *de) {
    if (rc == 0) return true;
    const char *name = "CUDA_ERROR_UNKNOWN", *msg = "";
    if (cuda.cuGetErrorName) cuda.cuGetErrorName(rc, &name);
    if (cuda.cuGetErrorString) cuda.cuGetErrorString(rc, &msg);
    diag_error(de, (Loc){0}, "kernel '%s': %s failed: %s (%s)", kernel ? kernel : "?", what, name, msg ? msg : "");
    return false;
}
