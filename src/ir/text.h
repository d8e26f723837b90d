/*
 * text.h - what the IR printer (print.c) and parser (parse.c) share so
 * that one reads exactly what the other writes: the rules for generated
 * value names, which attributes are inherent to an op (printed in `<{...}>`
 * in generic form), string quoting and the pointee of a pointer type.
 */
#ifndef TC_IR_TEXT_H
#define TC_IR_TEXT_H

#include "ir/ir.h"

/* Names the printer makes up itself (`12`, `arg3`); such hints are ignored. */
bool ir_name_is_auto(const char *s);
/* MLIR's result name for an arith.constant: c0_i32, c1024, true, cst. */
void ir_constant_name(Op *op, char *buf, size_t size);
/* Whether `name` is one of op kind's own (inherent) attributes. */
bool ir_attr_is_inherent(OpKind kind, const char *name);
/* "text" with MLIR's escapes (\", \\, \XX). */
void ir_print_string(const char *s, StrBuf *out);
/* A name as a bare identifier when it lexes as one, quoted otherwise. */
void ir_print_attr_name(const char *s, StrBuf *out);
/* Pointee of !tt.ptr<T> (T) or of tensor<NxM x!tt.ptr<T>> (tensor<NxMxT>);
 * NULL for anything else. */
Type *ir_pointee_type(Context *c, Type *t);

/* Limits that keep hostile input from exhausting stack or memory. */
enum {
    IR_MAX_NESTING = 200,       /* regions, attributes, types, locations */
    IR_MAX_RANK = 16,
};
#define IR_MAX_NUMEL (INT64_C(1) << 40)

#endif
