/*
 * cuda_runtime.h - the few CUDA driver API entry points tritonc uses,
 * declared here (no cuda.h at build time) and resolved with dlopen.
 */
#ifndef TC_CUDA_RUNTIME_H
#define TC_CUDA_RUNTIME_H

#include "support/support.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUlinkState_st *CUlinkState;

typedef struct CudaApi {
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxGetDevice)(CUdevice *);
    CUresult (*cuModuleLoadData)(CUmodule *, const void *);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
    CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, CUstream, void **, void **);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuLinkCreate)(unsigned, int *, void **, CUlinkState *);
    CUresult (*cuLinkAddData)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **);
    CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *);
    CUresult (*cuLinkDestroy)(CUlinkState);
} CudaApi;

extern CudaApi cuda;

enum {
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_JIT_INPUT_PTX = 1,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
};

bool cuda_init(void);
bool cuda_ensure_context(void);
/* Makes the primary context current when the calling thread has none: true
 * when it did (a failed call is then worth trying again). */
bool cuda_adopt_primary(void);
/* Reports a failed call as "kernel 'K': WHAT failed: NAME (message)". */
bool cuda_check(int rc, const char *what, const char *kernel, DiagEngine *de);

#endif
