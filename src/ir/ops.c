/*
 * ops.c - the op table: every row of dialect/ops.def as an OpInfo.
 */
#include "dialect/dialect.h"

const OpInfo op_info[OP_COUNT] = {
#define OP(kind, name, fmt, nopmin, nopmax, nres, nreg, flags, verify, fold) \
    [kind] = {name, fmt, nopmin, nopmax, nres, nreg, flags, verify, fold},
#include "dialect/ops.def"
#undef OP
};
