/*
 * tri_lower.h - checked .tri AST -> nn IR (lower.c).
 *
 * Run only on a program that tri_parse and tri_check accepted without an
 * error. Builds a builtin.module in ctx's arena (layout in dialect/nn.def):
 * one nn.global per top-level let, one nn.layer (the constructor) per
 * layer, one tt.func per free fn and per layer method (named Layer.method).
 * Returns NULL, with the reason in de, for a construct lowering does not
 * support (none of the documented language is in that set).
 */
#ifndef TC_FRONT_TRI_LOWER_H
#define TC_FRONT_TRI_LOWER_H

#include "front/tri/tri.h"
#include "ir/ir.h"

Op *tri_lower(TriProgram *prog, Context *ctx, DiagEngine *de);

#endif
