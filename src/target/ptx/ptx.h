/*
 * ptx.h - ttg IR to PTX text.
 *
 * ptx_emit() lowers one kernel (a tt.func of a module that went through
 * ttg-assign-layouts) to a PTX module of one `.entry`, for sm_80 or sm_90a.
 */
#ifndef TC_PTX_H
#define TC_PTX_H

#include "ir/ir.h"

typedef struct PtxOptions {
    int sm;        /* 80, 90 (90 emits sm_90a) */
    int num_warps; /* threads per CTA = 32 * num_warps */
} PtxOptions;

typedef struct PtxKernelInfo {
    int smem_bytes; /* dynamic shared memory the launch must give */
    int num_warps;
} PtxKernelInfo;

bool ptx_emit(Context *c, Op *module, const char *kernel, const PtxOptions *o, StrBuf *out,
              PtxKernelInfo *info, DiagEngine *de);

#endif
