/*
 * axis_info.h - what is known about the integer (and pointer) tiles of a
 * function, per dimension, as Triton's AxisInfo analysis knows it:
 *
 *   contiguity[d]  runs of this length along d increase by one;
 *   divisibility[d] the first element of each run is a multiple of this
 *                  power of two (in bytes for pointers);
 *   constancy[d]   runs of this length along d hold one value.
 *
 * Scalars are described as rank-1 tiles of one element. The layout pass
 * reads contiguity and divisibility to choose 16-byte accesses; the PTX
 * lowering reads them (and the mask's constancy) to vectorise loads and
 * stores.
 */
#ifndef TC_AXIS_INFO_H
#define TC_AXIS_INFO_H

#include "dialect/ttg.h"

typedef struct AxisInfo {
    int rank;
    int64_t contig[TTG_MAX_RANK], div[TTG_MAX_RANK], cnst[TTG_MAX_RANK];
    bool known;    /* value is a compile-time constant (splat) */
    int64_t value;
} AxisInfo;

typedef struct AxisAnalysis AxisAnalysis;

/* Analyses every value of `func` (a tt.func); lives in c's arena. */
AxisAnalysis *axis_analyze(Context *c, Op *func);
/* Never NULL: unknown values get the most conservative info. */
const AxisInfo *axis_info(AxisAnalysis *a, Value *v);
void axis_analysis_free(AxisAnalysis *a);
void axis_info_print(const AxisInfo *ai, StrBuf *out);

#endif
