/*
 * nn_quant_fusion.c - quantization fusion on the nn dialect (`nn-quant-fusion`).
 *
 * Two rewrites, both exact (the numbers the program computes do not change):
 *
 *  1. dequantize(quantize(x))  ->  fake_quantize(x)
 *     A quantize whose result is immediately dequantized never needs its
 *     integer codes: the pair collapses into one nn.fake_quantize with the
 *     quantize's scheme, threshold and axis, which computes the same float
 *     values in one step (runtime fake_quantize: the reference quantizer
 *     followed by the reference dequantizer, so the rounding is kept). The
 *     quantize stays if something else still uses it.
 *
 *  2. quantize_ternary(dequantize(q), threshold < 1)  ->  q
 *     for a ternary q with a finite, non-negative scale s (made by
 *     quantize_ternary, random_ternary, a literal, unpack_ternary or a
 *     ternary weight of the layer). dequantize(q) holds only ±s and 0, so
 *     max|x| = s and any threshold ratio below 1 keeps exactly the non-zero
 *     entries, with their signs, and their mean magnitude is s again: the
 *     result is q itself. (A ratio >= 1 keeps nothing; it is not rewritten.)
 *
 * Why not fold the pair to x: quantization is the program's intent (a
 * quantization-aware forward pass), so dropping the rounding would change
 * the model. The fused op's backward is the straight-through estimator.
 *
 * One walk collects the candidates; rewrite 2 runs first, so that in
 * dequantize(quantize_ternary(dequantize(quantize_ternary(x)))) the inner
 * round trip disappears before the outer pair is fused. Each rewrite is local. Counts go to the stats
 * given by the .tri pipeline (torch/compile.c) and to pc->changes.
 */
#include "dialect/nn.h"
#include "transform/nn_passes.h"

#include <math.h>

typedef struct Fusion {
    Context *c;
    VEC(Op *) dequants;
    VEC(Op *) requants;
} Fusion;

static void collect(Op *op, void *ud) {
    Fusion *f = ud;
    if (op->kind == NN_DEQUANTIZE) vec_push(&f->dequants, op);
    if (op->kind == NN_QUANTIZE) vec_push(&f->requants, op);
}

/* Producers of a TernaryTensor whose scale is finite and >= 0. */
static bool ternary_scale_is_sane(Value *q) {
    Op *d = q->def;
    if (!d || !nn_is_ternary(q->type)) return false;
    switch (d->kind) {
    case NN_QUANTIZE:
    case NN_RANDOM_TERNARY:
    case ARITH_CONSTANT:
    case NN_UNPACK_TERNARY:
    case NN_STATE: return true;
    default: return false;
    }
}

static bool threshold_below_one(Value *t) {
    Attr *a = t->def && t->def->kind == ARITH_CONSTANT ? op_attr_k(t->def, AN_VALUE) : NULL;
    double v;
    if (!a || !attr_as_float(a, &v)) return false;
    return isnan(v) || v < 1.0; /* NaN and negative ratios mean the default 0.3 */
}

bool nn_quant_fusion_run(Op *module, PassContext *pc, NnFusionStats *stats) {
    Fusion f = {.c = pc->ctx};
    op_walk(module, collect, &f, false);
    int fused = 0, requant = 0;
    for (int i = 0; i < f.requants.len; i++) {
        Op *q = f.requants.data[i];
        const char *scheme = op_attr_str(q, "scheme");
        if (nn_scheme_lookup(scheme) != NN_Q_TERNARY || q->noperands != 2) continue;
        Op *dq = op_operand(q, 0)->def;
        if (!dq || dq->kind != NN_DEQUANTIZE) continue;
        Value *orig = op_operand(dq, 0);
        if (orig->type != q->results[0].type || !ternary_scale_is_sane(orig) ||
            !threshold_below_one(op_operand(q, 1)))
            continue;
        value_replace_all_uses(&q->results[0], orig);
        op_erase(q);
        if (!value_has_uses(&dq->results[0])) op_erase(dq);
        requant++;
    }
    for (int i = 0; i < f.dequants.len; i++) {
        Op *dq = f.dequants.data[i];
        if (!dq->parent) continue; /* erased by the first rewrite */
        Op *q = op_operand(dq, 0)->def;
        if (!q || q->kind != NN_QUANTIZE) continue;
        Value *ops[2];
        for (int j = 0; j < q->noperands; j++) ops[j] = op_operand(q, j);
        Type *t = dq->results[0].type;
        Op *fq = op_create(pc->ctx, NN_FAKE_QUANTIZE, dq->loc, ops, q->noperands, &t, 1, 0);
        for (int j = 0; j < q->nattrs; j++) op_set_attr(pc->ctx, fq, q->attrs[j].name, q->attrs[j].attr);
        op_insert_before(dq, fq);
        fq->results[0].name = dq->results[0].name;
        value_replace_all_uses(&dq->results[0], &fq->results[0]);
        op_erase(dq);
        if (!value_has_uses(&q->results[0])) op_erase(q);
        fused++;
    }
    vec_free(&f.dequants);
    vec_free(&f.requants);
    if (stats) {
        stats->fused_pairs += fused;
        stats->requantize_of_dequantize += requant;
    }
    pc->changes += fused + requant;
    return true;
}

bool pass_nn_quant_fusion(Op *module, PassContext *pc) { return nn_quant_fusion_run(module, pc, NULL); }
