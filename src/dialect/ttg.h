/*
 * ttg.h - TritonGPU layouts: which thread of a CTA holds which element of a
 * tile.
 *
 * A layout is the `encoding` of a tensor type. It is stored as an opaque
 * attribute whose text is the layout's canonical Triton spelling,
 *
 *   #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8],
 *                 warpsPerCTA = [4, 1], order = [1, 0]}>
 *   #ttg.slice<{dim = 1, parent = #ttg.blocked<{...}>}>
 *
 * so that types stay uniqued (equal layouts, equal Attr pointers, equal
 * types), the generic attribute printer and parser round-trip them, and
 * ir.h needs no new attribute kind. ttg_layout() decodes that text into the
 * structured Layout below; ttg_layout_attr() is its inverse.
 *
 * A Dist is what the PTX lowering works with: a layout applied to one shape.
 * For every dimension d of the tensor it says how many consecutive elements
 * a thread holds (spt), how lanes and warps are spread (tpw, wpc, and the
 * strides that pick a lane's or warp's coordinate out of its id), and how
 * often the CTA tile repeats (reps). A thread holds `nslots` elements
 * ("slots"); slot s has per-dimension register indices j[d] with
 * order[0] the fastest, and element coordinate
 *
 *     coord[d] = (thread_part[d] mod shape[d]) + const_part(d, j[d])
 *     thread_part[d] = (warp_d * tpw[d] + lane_d) * spt[d]
 *     const_part(d, j) = ((j / spt) * tile[d] + j % spt) mod shape[d]
 *
 * A slice layout is its parent's Dist with the sliced dimension removed:
 * the threads that differ only along that dimension hold the same elements.
 */
#ifndef TC_TTG_H
#define TC_TTG_H

#include "ir/ir.h"

#define TTG_MAX_RANK 8

typedef enum LayoutKind { LAYOUT_BLOCKED, LAYOUT_SLICE } LayoutKind;

typedef struct Layout {
    LayoutKind kind;
    int rank; /* rank of the tensors it applies to */
    /* blocked */
    int spt[TTG_MAX_RANK], tpw[TTG_MAX_RANK], wpc[TTG_MAX_RANK], order[TTG_MAX_RANK];
    /* slice */
    int dim;
    const struct Layout *parent;
} Layout;

/* Decodes a layout attribute (NULL for NULL or non-layout attributes). The
 * result lives in c's arena. */
const Layout *ttg_layout(Context *c, const Attr *a);
const Layout *ttg_layout_of_type(Context *c, const Type *t);
Attr *ttg_layout_attr(Context *c, const Layout *l);
/* The context's one copy of l (what ttg_layout gives for its attribute):
 * equal layouts, equal pointers, so ttg_layout_equal and the memos keyed by
 * address answer at once. */
const Layout *ttg_layout_unique(Context *c, const Layout *l);
void ttg_layout_print(const Layout *l, StrBuf *out);
bool ttg_layout_equal(const Layout *a, const Layout *b);

/* Layout builders, as Triton's BlockedEncodingAttr::get: lanes and warps go
 * to the dimensions in `order` (fastest first) until the shape is covered,
 * the rest to the slowest dimension. */
Layout ttg_blocked(const int64_t *shape, int rank, const int *spt, const int *order,
                   int num_warps, int threads_per_warp);
/* Triton's default layout (one element per thread per repetition). */
Layout ttg_default_blocked(const int64_t *shape, int rank, int num_warps, int threads_per_warp);
Layout ttg_slice(Context *c, int dim, const Layout *parent);
/* The blocked layout that is mma.sync's m16n8 accumulator fragment, tiled
 * over warps_m x warps_n warps (target/ptx/mma_plan.h draws it):
 * sizePerThread [1, 2], threadsPerWarp [8, 4], order [1, 0]. A thread
 * (lane = 4g + t) holds rows 8*w_m + g + 8*warps_m*r and the column pairs
 * 8*w_n + 8*warps_n*c + 2t + {0, 1}. */
Layout ttg_mma_layout(int warps_m, int warps_n);
/* The tensor type `t` with layout l (NULL: no layout). */
Type *ttg_with_layout(Context *c, Type *t, const Layout *l);

/* ---- a layout applied to a shape ---------------------------------------- */

typedef struct Dist {
    int rank;
    int64_t shape[TTG_MAX_RANK];
    int spt[TTG_MAX_RANK], tpw[TTG_MAX_RANK], wpc[TTG_MAX_RANK];
    int lane_stride[TTG_MAX_RANK], warp_stride[TTG_MAX_RANK];
    int reps[TTG_MAX_RANK], tile[TTG_MAX_RANK], per_dim[TTG_MAX_RANK];
    int order[TTG_MAX_RANK]; /* fastest first */
    int nslots;
    int nthreads; /* threads of the CTA (lanes are tid % 32, warps tid / 32) */
} Dist;

bool ttg_dist(const Layout *l, const int64_t *shape, int rank, Dist *out);
void dist_slot_j(const Dist *d, int slot, int *j);        /* j[rank] of a slot */
int dist_slot_of_j(const Dist *d, const int *j);
int64_t dist_const(const Dist *d, int dim, int j);        /* const_part */
/* The j along dim whose dist_const is c (it is one-to-one); -1: none. */
int dist_j_of_const(const Dist *d, int dim, int64_t c);
/* Distinct lanes / warps along dim (the rest hold copies). */
int dist_lanes(const Dist *d, int dim);
int dist_warps(const Dist *d, int dim);
/* thread_part(dim) of the thread (lane, warp), already reduced mod shape. */
int64_t dist_thread_part(const Dist *d, int dim, int lane, int warp);
/* Every count of d a power of two: each thread_part is then some of the
 * thread id's bits moved to other places, distinct ones to distinct places
 * (linear over GF(2) in the id), so what it is for threads 1, 2, 4, ...
 * gives it for every thread. */
bool dist_thread_parts_linear(const Dist *d);
/* True when the two Dists put every element in the same thread (maybe in
 * another slot): a conversion between them needs no data movement. */
bool dist_same_threads(const Dist *a, const Dist *b);

#endif
