/*
 * coalesce.c - the blocked layout of one load or store, after Triton's
 * lib/Dialect/TritonGPU/Transforms/Coalesce.cpp.
 *
 * The dimension along which the pointer tile is most contiguous becomes the
 * fastest (order[0]); each thread takes as many consecutive elements along
 * it as the contiguity and the pointer's alignment allow, capped at 16 bytes
 * (4 x fp32, 8 x fp16) and at the elements per thread there are; lanes and
 * warps are then spread in that order (ttg_blocked). Consecutive lanes thus
 * touch consecutive 16-byte chunks: the warp's access is coalesced.
 */
#include "transform/gpu/gpu_passes.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Dims by contiguity, most contiguous first. Ties follow `prefer` (an
 * order of the same rank), or without one the row-major order, last
 * dimension fastest: the strides of a row-major tensor grow from the last
 * dimension to the first. (Triton's argSort, a stable sort of 0, 1, ...,
 * runs ties in dimension order: a [2, M, N] tile contiguous along N only
 * has its threads next along M there, and along the 2 planes here.) */
static void order_dims(const AxisInfo *ai, int rank, const int *prefer, int *order) {
    for (int k = 0; k < rank; k++) order[k] = prefer ? prefer[k] : rank - 1 - k;
    for (int k = 1; k < rank; k++)
        for (int m = k; m > 0 && ai->contig[order[m]] > ai->contig[order[m - 1]]; m--) {
            int tmp = order[m];
            order[m] = order[m - 1];
            order[m - 1] = tmp;
        }
}

bool coalesce_decided(AxisAnalysis *aa, Value *ptr, int *order) {
    const AxisInfo *ai = axis_info(aa, ptr);
    int rank = ptr->type->rank;
    order_dims(ai, rank, NULL, order);
    return rank < 2 || ai->contig[order[0]] > ai->contig[order[1]];
}

int coalesce_plan(AxisAnalysis *aa, Value *ptr, int num_warps, int threads_per_warp, const int *prefer, int *order) {
    Type *t = ptr->type;
    const AxisInfo *ai = axis_info(aa, ptr);
    order_dims(ai, t->rank, prefer, order);
    Type *pointee = ty_elem(t)->elem;
    int elem_bits = pointee->kind == TY_PTR ? 64 : (pointee->width < 8 ? 8 : pointee->width);
    int64_t numel = ty_numel(t), threads = (int64_t)num_warps * threads_per_warp;
    int d0 = order[0];
    int64_t align = ai->div[d0] * 8 / elem_bits;
    if (align < 1) align = 1;
    int64_t per_thread = min64(align, ai->contig[d0]);
    per_thread = min64(per_thread, 128 / elem_bits);
    per_thread = min64(per_thread, numel / threads > 1 ? numel / threads : 1);
    return per_thread < 1 ? 1 : (int)per_thread;
}

Layout coalesce_build(const Type *t, const int *order, int per_thread, int num_warps, int threads_per_warp) {
    int spt[TTG_MAX_RANK];
    for (int d = 0; d < t->rank; d++) spt[d] = 1;
    spt[order[0]] = per_thread;
    return ttg_blocked(t->shape, t->rank, spt, order, num_warps, threads_per_warp);
}

Layout coalesce_layout(AxisAnalysis *aa, Value *ptr, int num_warps, int threads_per_warp, const int *prefer) {
    int order[TTG_MAX_RANK];
    int per_thread = coalesce_plan(aa, ptr, num_warps, threads_per_warp, prefer, order);
    return coalesce_build(ptr->type, order, per_thread, num_warps, threads_per_warp);
}
