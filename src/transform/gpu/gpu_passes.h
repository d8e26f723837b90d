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
    int num_stages;        /* cp.async stages of dot k loops (ttg_lower) */
} TtgOptions;

/* ttg_lower.c: tt IR -> the ttg IR ptx_emit takes: layouts, the math
 * expansions, cp.async pipelining (each followed by cse and dce where it
 * changed something). */
bool ttg_lower(Context *c, Op *module, const TtgOptions *opts, DiagEngine *de);

/* coalesce.c: the layout one access through `ptr` should use: threads run
 * along its most contiguous dimension first; dimensions it is equally
 * contiguous along (a gather: along none) in the order `prefer` gives, or
 * without one in row-major order (last dimension first). */
Layout coalesce_layout(AxisAnalysis *aa, Value *ptr, int num_warps, int threads_per_warp, const int *prefer);
/* coalesce_layout in two steps, for callers that remember layouts by what
 * they are built from (most accesses of a kernel share a few): the plan,
 * the dimensions' order (rank long) and the elements per thread along the
 * first, which it returns; and the layout of a tile of type t built from
 * it. */
int coalesce_plan(AxisAnalysis *aa, Value *ptr, int num_warps, int threads_per_warp, const int *prefer, int *order);
Layout coalesce_build(const Type *t, const int *order, int per_thread, int num_warps, int threads_per_warp);
/* Whether one dimension of `ptr` is more contiguous than every other; its
 * dims by contiguity in `order` (rank long) either way. */
bool coalesce_decided(AxisAnalysis *aa, Value *ptr, int *order);

/* ttg_assign_layouts.c */
bool ttg_assign_layouts(Context *c, Op *module, const TtgOptions *opts, DiagEngine *de);
/* The registered pass "ttg-assign-layouts" (options from module attributes). */
bool pass_ttg_assign_layouts(Op *module, PassContext *pc);

/* pipeline_async_copy.c: the loads feeding mma.sync dots in innermost
 * scf.for loops copied by cp.async into rings of shared-memory stages,
 * num_stages - 1 iterations ahead (ttg IR; sm_80 and later); returns how
 * many loads it took. */
int pipeline_async_copy(Context *c, Op *module, int num_stages, int num_warps, int sm);
/* The registered pass "pipeline-async-copy" (tt.num-stages and ttg.target
 * from module attributes; defaults 3 and sm_90). */
bool pass_pipeline_async_copy(Op *module, PassContext *pc);
/* cp.async pipelining: on by default for fp16/bf16 dots (mode 1);
 * TRITONC_ASYNC_COPY=0 in the environment turns it off (0),
 * TRITONC_ASYNC_COPY=1 takes tf32 dots too (2). */
int async_copy_mode(void);
int wgmma_late_mode(void);
bool ring_fence_mode(void);
bool mma_late_copies(void);
bool async_copy_enabled(void);

#endif
