/*
 * nn_passes.h - passes over the nn dialect (registered in pass.c).
 */
#ifndef TC_TRANSFORM_NN_PASSES_H
#define TC_TRANSFORM_NN_PASSES_H

#include "transform/pass.h"

/* What nn-quant-fusion rewrote (nn_quant_fusion.c). */
typedef struct NnFusionStats {
    int fused_pairs;              /* dequantize(quantize(x)) -> fake_quantize(x) */
    int requantize_of_dequantize; /* quantize_ternary(dequantize(q)) -> q */
} NnFusionStats;

bool nn_quant_fusion_run(Op *module, PassContext *pc, NnFusionStats *stats);

#endif
