/*
 * nn.h - helpers over the nn dialect (nn.def) shared by the .tri lowering,
 * the nn passes and the PyTorch emitter.
 */
#ifndef TC_DIALECT_NN_H
#define TC_DIALECT_NN_H

#include "ir/ir.h"

/* Quantization schemes: the `scheme` attribute of nn.quantize and
 * nn.fake_quantize, and the encodings of quantized tensor types. */
typedef enum NnScheme { NN_Q_TERNARY, NN_Q_INT8, NN_Q_INT4, NN_Q_PER_CHANNEL, NN_Q_COUNT } NnScheme;
extern const char *const nn_scheme_names[NN_Q_COUNT]; /* "ternary", "int8", ... */
NnScheme nn_scheme_lookup(const char *s);            /* NN_Q_COUNT if unknown */

/* The kinds of module state (`kind` of nn.param and nn.state). */
typedef enum NnStateKind {
    NN_S_TERNARY,   /* a TernaryTensor: 2-bit packed buffer + scale, latent float weight */
    NN_S_PARAMETER, /* a float tensor: nn.Parameter */
    NN_S_QUANTIZED, /* an int8/int4/per-channel tensor: buffers (values, scale, zero point) */
    NN_S_BUFFER,    /* another tensor (uint8, int8, ...): a buffer */
    NN_S_VALUE,     /* a scalar: a plain attribute */
    NN_S_HPARAM,    /* a layer parameter (nn.state only) */
    NN_S_COUNT
} NnStateKind;
extern const char *const nn_state_kind_names[NN_S_COUNT]; /* "ternary", "parameter", ... */
NnStateKind nn_state_kind_lookup(const char *s);         /* NN_S_COUNT if unknown */

/* The element type of trits, and encodings of quantized tensors. */
Type *nn_trit_type(Context *c);                /* i2 */
Attr *nn_encoding(Context *c, NnScheme scheme); /* #nn.quant<affine> / #nn.quant<per_channel>; NULL for ternary */
/* A TernaryTensor (tensor of i2). */
bool nn_is_ternary(const Type *t);
/* A value that carries quantization parameters at run time: a TernaryTensor
 * or a tensor with an #nn.quant<...> encoding. */
bool nn_is_quantized(const Type *t);
/* The scheme of a quantized type (ternary, int8, int4 or per_channel). */
NnScheme nn_type_scheme(const Type *t);

/* Attribute readers with defaults. */
int64_t nn_attr_int(const Op *op, const char *name, int64_t def);
const char *nn_attr_str(const Op *op, const char *name, const char *def);

/* The op's enclosing top-level op (a tt.func, nn.layer or nn.global). */
Op *nn_top_level_of(Op *op);
/* The nn.global named `name` in module, or NULL. */
Op *nn_lookup_global(Op *module, const char *name);

#endif
