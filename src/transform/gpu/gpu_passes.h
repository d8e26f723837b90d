/*
 * gpu_passes.h - the passes that take tt IR to ttg IR (tiles with layouts).
 *
 *   ttg-assign-layouts   coalesced layouts for loads and stores, propagated
 *                        to the values they reach, slice layouts for
 *                        reductions, ttg.convert_layout where two meet
 *                        (cheap producers rematerialised instead), and the
 *                        module attributes ttg.num-warps,
 *                        ttg.threads-per-warp and ttg.target.
 */
#ifndef TC_GPU_PASSES_H
#define TC_GPU_PASSES_H

#include "transform/gpu/axis_info.h"
#include "transform/pass.h"

typedef struct TtgOptions {
    int num_warps;         /* default 4 */
    int threads_per_warp;  /* 32 */
    int sm;                /* 80, 90 */
} TtgOptions;

/* coalesce.c: the layout one access through `ptr` should use. */
Layout coalesce_layout(AxisAnalysis *aa, Value *ptr, int num_warps, int threads_per_warp);

/* ttg_assign_layouts.c */
bool ttg_assign_layouts(Context *c, Op *module, const TtgOptions *opts, DiagEngine *de);
/* The registered pass "ttg-assign-layouts" (options from module attributes). */
bool pass_ttg_assign_layouts(Op *module, PassContext *pc);

#endif
