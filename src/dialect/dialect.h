/*
 * dialect.h - the verifiers and folders named in the op tables (ops.def).
 * Each is defined in its dialect's file: builtin.c, arith.c, scf.c, tt.c;
 * folders in fold.c.
 */
#ifndef TC_DIALECT_H
#define TC_DIALECT_H

#include "ir/ir.h"

#define VERIFIER(name) bool name(Op *op, DiagEngine *de);
#define FOLDER(name) bool name(Context *c, Op *op, Attr **operand_consts, Attr **out, Value **out_value);

/* builtin.c */
VERIFIER(verify_module)
/* arith.c (also used by math and tt rows) */
VERIFIER(verify_constant)
VERIFIER(verify_int_binary)
VERIFIER(verify_float_same)
VERIFIER(verify_cmp)
VERIFIER(verify_select)
VERIFIER(verify_int_ext)
VERIFIER(verify_int_trunc)
VERIFIER(verify_float_ext)
VERIFIER(verify_float_trunc)
VERIFIER(verify_int_to_float)
VERIFIER(verify_float_to_int)
VERIFIER(verify_bitcast)
VERIFIER(verify_index_cast)
/* scf.c */
VERIFIER(verify_for)
VERIFIER(verify_if)
VERIFIER(verify_while)
VERIFIER(verify_yield)
VERIFIER(verify_condition)
/* tt.c */
VERIFIER(verify_func)
VERIFIER(verify_return)
VERIFIER(verify_call)
VERIFIER(verify_program_id)
VERIFIER(verify_make_range)
VERIFIER(verify_splat)
VERIFIER(verify_broadcast)
VERIFIER(verify_expand_dims)
VERIFIER(verify_reshape)
VERIFIER(verify_trans)
VERIFIER(verify_join)
VERIFIER(verify_split)
VERIFIER(verify_gather)
VERIFIER(verify_histogram)
VERIFIER(verify_addptr)
VERIFIER(verify_make_tensor_ptr)
VERIFIER(verify_advance)
VERIFIER(verify_load)
VERIFIER(verify_store)
VERIFIER(verify_reduce)
VERIFIER(verify_scan)
VERIFIER(verify_dot)
VERIFIER(verify_atomic_rmw)
VERIFIER(verify_atomic_cas)
VERIFIER(verify_fp_to_fp)
VERIFIER(verify_int_to_ptr)
VERIFIER(verify_ptr_to_int)
/* ttg.c */
VERIFIER(verify_convert_layout)
VERIFIER(verify_async_copy)
VERIFIER(verify_local_load)
VERIFIER(verify_local_store)

/* fold.c: the `fold` column (see fold.c for the exact semantics) */
FOLDER(fold_int_arith)   /* addi..minui, tt.mulhiui: wraparound, identities */
FOLDER(fold_float_arith) /* addf..minnumf, tt.precise_divf: IEEE, type precision */
FOLDER(fold_negf)
FOLDER(fold_math_unary)  /* absf, absi, floor, ceil, sqrt */
FOLDER(fold_cmp)         /* cmpi, cmpf */
FOLDER(fold_select)
FOLDER(fold_cast)        /* ext/trunc/fp<->int/bitcast/index_cast */
FOLDER(fold_splat_like)  /* tt.splat/broadcast/expand_dims/reshape of splats */
FOLDER(fold_addptr)

/* nn.c: the nn dialect (.tri programs) */
VERIFIER(verify_nn_layer)
VERIFIER(verify_nn_global)
VERIFIER(verify_nn_param)
VERIFIER(verify_nn_named)
VERIFIER(verify_nn_state)
VERIFIER(verify_nn_create)
VERIFIER(verify_nn_binary)
VERIFIER(verify_nn_unary)
VERIFIER(verify_nn_linear)
VERIFIER(verify_nn_conv)
VERIFIER(verify_nn_axis)
VERIFIER(verify_nn_norm)
VERIFIER(verify_nn_reshape)
VERIFIER(verify_nn_transpose)
VERIFIER(verify_nn_quantize)
VERIFIER(verify_nn_dequantize)
VERIFIER(verify_nn_pack)
VERIFIER(verify_nn_unpack)
FOLDER(fold_nn_global_ref) /* a constant global's value */
FOLDER(fold_nn_arith)      /* scalar add/sub/mul/div; x * 1, x / 1, x - 0 */
FOLDER(fold_nn_unary)      /* scalar neg/relu/gelu/silu/sigmoid/tanh */
FOLDER(fold_nn_cast)
FOLDER(fold_nn_transpose)  /* transpose(transpose(x)) of the same axes */
FOLDER(fold_nn_pack)       /* constant trits -> constant bytes (tern_pack) */
FOLDER(fold_nn_unpack)     /* constant bytes -> constant trits (tern_unpack) */

#undef VERIFIER
#undef FOLDER

/* Shared checks used by the verifiers; each reports at op and returns false
 * on failure. (The checks that pass are inline: the verifier runs them on
 * every op; the reports are not.) */
/* "'op' op <what>, but got 'T'" (returns false). */
bool vfy_type_error(DiagEngine *de, Op *op, Type *t, const char *what);
/* "'op' op <what>, but got 'T'" unless ok. */
static inline bool vfy_type(DiagEngine *de, Op *op, Type *t, bool ok, const char *what) {
    return ok || vfy_type_error(de, op, t, what);
}
/* a and b have the same shape (both scalars, or tensors of equal dims). */
bool vfy_same_shape(DiagEngine *de, Op *op, Type *a, Type *b);
/* Every operand and result has one type ("requires the same type ..."). */
bool vfy_same_types(DiagEngine *de, Op *op);
/* A type as text, for messages (lives in the DiagEngine's arena). */
const char *vfy_tstr(DiagEngine *de, Type *t);
/* Element-kind predicates over scalars and tensors. */
static inline bool ty_is_int_like(const Type *t) { /* iN, index, or tensors of them */
    const Type *e = t->kind == TY_TENSOR ? t->elem : t;
    return e->kind == TY_INT || e->kind == TY_INDEX;
}
static inline bool ty_is_float_like(const Type *t) {
    const Type *e = t->kind == TY_TENSOR ? t->elem : t;
    return e->kind == TY_FLOAT;
}
static inline bool ty_is_ptr_like(const Type *t) { /* !tt.ptr or tensor of !tt.ptr */
    const Type *e = t->kind == TY_TENSOR ? t->elem : t;
    return e->kind == TY_PTR;
}
static inline bool ty_is_i1_like(const Type *t) {
    const Type *e = t->kind == TY_TENSOR ? t->elem : t;
    return e->kind == TY_INT && e->width == 1;
}
/* An op's enclosing module, or NULL. */
Op *op_parent_module(Op *op);

/* Enumerations with textual names (tt attributes printed as keywords),
 * each table NULL-terminated; attributes hold the 0-based index as i32. */
extern const char *const tt_cache_names[];      /* none, ca, cg, wb, cs, wt, cv */
extern const char *const tt_evict_names[];      /* evict_normal, evict_first, evict_last */
extern const char *const tt_rmw_names[];        /* and, or, xor, add, fadd, max, min, umax, umin, exch */
extern const char *const tt_sem_names[];        /* relaxed, acquire, release, acq_rel */
extern const char *const tt_scope_names[];      /* gpu, cta, sys */
extern const char *const tt_precision_names[];  /* tf32, tf32x3, ieee, bf16x3, bf16x6 */
extern const char *const tt_rounding_names[];   /* rtz, rtne */
extern const char *const tt_propnan_names[];    /* none, all */
extern const char *const tt_axis_names[];       /* x, y, z */
int enum_lookup(const char *const *names, const char *s); /* -1 if absent */

enum { TT_RMW_AND, TT_RMW_OR, TT_RMW_XOR, TT_RMW_ADD, TT_RMW_FADD, TT_RMW_MAX, TT_RMW_MIN,
       TT_RMW_UMAX, TT_RMW_UMIN, TT_RMW_XCHG };
enum { TT_CACHE_NONE, TT_CACHE_CA, TT_CACHE_CG, TT_CACHE_WB, TT_CACHE_CS, TT_CACHE_WT, TT_CACHE_CV };
enum { TT_EVICT_NORMAL, TT_EVICT_FIRST, TT_EVICT_LAST };
enum { TT_SEM_RELAXED, TT_SEM_ACQUIRE, TT_SEM_RELEASE, TT_SEM_ACQ_REL };
enum { TT_SCOPE_GPU, TT_SCOPE_CTA, TT_SCOPE_SYS };
enum { TT_PREC_TF32, TT_PREC_TF32X3, TT_PREC_IEEE, TT_PREC_BF16X3, TT_PREC_BF16X6 };

#endif
