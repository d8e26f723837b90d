/*
 * nn.c - the nn dialect: verifiers, folders and helpers (ops in nn.def).
 *
 * Verifiers check what the emitter relies on: the attributes an op needs
 * (names, kinds, schemes, axes), the element types where they matter (the
 * weight of ternary_matmul is a TernaryTensor, pack_ternary makes uint8),
 * and that shape operands are integers. Shapes themselves were checked by
 * tri_check; dims here may be dynamic (`?`) or the rank unknown (`*`).
 *
 * Folders compute scalars the way the generated Python would (integers in
 * 64 bits, refusing to fold on overflow or a division by zero, which would
 * raise at run time; floats rounded to the result type), fold a reference
 * to a constant global into the constant, and pack or unpack constant
 * ternary tensors with the C library (support/ternary.c), so that a packed
 * literal becomes bytes at compile time in exactly the format the runtime
 * reads.
 */
#include "dialect/nn.h"

#include "dialect/dialect.h"
#include "support/ternary.h"

#include <math.h>
#include <string.h>

/* ---- helpers ---------------------------------------------------------------- */

const char *const nn_scheme_names[NN_Q_COUNT] = {"ternary", "int8", "int4", "per_channel"};
const char *const nn_state_kind_names[NN_S_COUNT] = {"ternary", "parameter", "quantized",
                                                     "buffer",  "value",     "hparam"};

NnScheme nn_scheme_lookup(const char *s) {
    for (int i = 0; s && i < NN_Q_COUNT; i++)
        if (strcmp(s, nn_scheme_names[i]) == 0) return (NnScheme)i;
    return NN_Q_COUNT;
}

NnStateKind nn_state_kind_lookup(const char *s) {
    for (int i = 0; s && i < NN_S_COUNT; i++)
        if (strcmp(s, nn_state_kind_names[i]) == 0) return (NnStateKind)i;
    return NN_S_COUNT;
}

Type *nn_trit_type(Context *c) { return ty_int(c, 2); }

Attr *nn_encoding(Context *c, NnScheme scheme) {
    switch (scheme) {
    case NN_Q_INT8:
    case NN_Q_INT4: return attr_opaque(c, "#nn.quant<affine>");
    case NN_Q_PER_CHANNEL: return attr_opaque(c, "#nn.quant<per_channel>");
    default: return NULL;
    }
}

static bool is_trit_elem(const Type *t) { return t->kind == TY_INT && t->width == 2; }

bool nn_is_ternary(const Type *t) { return t->kind == TY_TENSOR && is_trit_elem(t->elem); }

static const char *encoding_text(const Type *t) {
    return t->kind == TY_TENSOR && t->encoding && t->encoding->kind == ATTR_OPAQUE ? t->encoding->s : NULL;
}

bool nn_is_quantized(const Type *t) {
    const char *e = encoding_text(t);
    return nn_is_ternary(t) || (e && strncmp(e, "#nn.quant<", 10) == 0);
}

NnScheme nn_type_scheme(const Type *t) {
    if (nn_is_ternary(t)) return NN_Q_TERNARY;
    const char *e = encoding_text(t);
    if (e && strcmp(e, "#nn.quant<per_channel>") == 0) return NN_Q_PER_CHANNEL;
    return t->kind == TY_TENSOR && t->elem->kind == TY_INT && t->elem->width == 4 ? NN_Q_INT4 : NN_Q_INT8;
}

int64_t nn_attr_int(const Op *op, const char *name, int64_t def) {
    int64_t v;
    return op_attr_int(op, name, &v) ? v : def;
}

const char *nn_attr_str(const Op *op, const char *name, const char *def) {
    const char *s = op_attr_str(op, name);
    return s ? s : def;
}

Op *nn_top_level_of(Op *op) {
    for (Op *p = op_parent_op(op); p && p->kind != BUILTIN_MODULE; p = op_parent_op(p)) op = p;
    return op;
}

Op *nn_lookup_global(Op *module, const char *name) {
    if (!module || module->kind != BUILTIN_MODULE || !name) return NULL;
    for (Op *g = module_body(module)->first; g; g = g->next) {
        if (g->kind != NN_GLOBAL) continue;
        const char *n = op_attr_str_k(g, AN_SYM_NAME);
        if (n && strcmp(n, name) == 0) return g;
    }
    return NULL;
}

/* ---- verifiers ---------------------------------------------------------------- */

static bool need_str(Op *op, DiagEngine *de, const char *name) {
    if (op_attr_str(op, name)) return true;
    op_error(de, op, "'%s' needs a string attribute '%s'", op_name(op), name);
    return false;
}

static bool is_scalar_or_tensor(const Type *t) {
    const Type *e = ty_elem((Type *)t);
    return e->kind == TY_INT || e->kind == TY_FLOAT;
}

static bool int_scalars_from(Op *op, DiagEngine *de, int first) {
    for (int i = first; i < op->noperands; i++) {
        Type *t = op_operand(op, i)->type;
        if (t->kind != TY_INT) {
            op_error(de, op, "shape operand %d of '%s' must be an integer scalar", i, op_name(op));
            return false;
        }
    }
    return true;
}

static bool result_tensor(Op *op, DiagEngine *de) {
    if (op->nresults == 1 && ty_is_tensor(op->results[0].type)) return true;
    op_error(de, op, "'%s' must produce a tensor", op_name(op));
    return false;
}

static bool region_ends_in_yield(Op *op, DiagEngine *de, int nvalues) {
    Block *b = op->nregions == 1 ? op->regions[0].first : NULL;
    if (!b || b->next || !b->last || b->last->kind != NN_YIELD || b->last->noperands != nvalues) {
        op_error(de, op, "'%s' needs one block ending in nn.yield with %d value(s)", op_name(op), nvalues);
        return false;
    }
    return true;
}

bool verify_nn_layer(Op *op, DiagEngine *de) {
    return need_str(op, de, "sym_name") && region_ends_in_yield(op, de, 0);
}

bool verify_nn_global(Op *op, DiagEngine *de) {
    return need_str(op, de, "sym_name") && region_ends_in_yield(op, de, 1);
}

bool verify_nn_param(Op *op, DiagEngine *de) {
    if (!need_str(op, de, "name") || !need_str(op, de, "kind")) return false;
    NnStateKind k = nn_state_kind_lookup(op_attr_str(op, "kind"));
    if (k == NN_S_COUNT || k == NN_S_HPARAM) {
        op_error(de, op, "unknown state kind '%s'", op_attr_str(op, "kind"));
        return false;
    }
    if (k == NN_S_TERNARY && !nn_is_ternary(op_operand(op, 0)->type)) {
        op_error(de, op, "ternary state '%s' must be initialised with a TernaryTensor", op_attr_str(op, "name"));
        return false;
    }
    Op *parent = op_parent_op(op);
    if (!parent || parent->kind != NN_LAYER) {
        op_error(de, op, "'nn.param' must be in the constructor of an nn.layer");
        return false;
    }
    return true;
}

bool verify_nn_named(Op *op, DiagEngine *de) {
    if (!need_str(op, de, "name")) return false;
    if (op->kind == NN_SUBLAYER) return need_str(op, de, "layer");
    return true;
}

bool verify_nn_state(Op *op, DiagEngine *de) {
    if (!need_str(op, de, "name") || !need_str(op, de, "kind")) return false;
    if (nn_state_kind_lookup(op_attr_str(op, "kind")) == NN_S_COUNT) {
        op_error(de, op, "unknown state kind '%s'", op_attr_str(op, "kind"));
        return false;
    }
    return true;
}

bool verify_nn_create(Op *op, DiagEngine *de) {
    if (!result_tensor(op, de) || !int_scalars_from(op, de, 0)) return false;
    Type *t = op->results[0].type;
    if (t->rank >= 0 && t->rank != op->noperands) {
        op_error(de, op, "'%s' has %d shape operands for a tensor of rank %d", op_name(op), op->noperands,
                 t->rank);
        return false;
    }
    if (op->kind == NN_RANDOM_TERNARY ? !is_trit_elem(t->elem) : !ty_is_float(t->elem)) {
        op_error(de, op, "'%s' produces the wrong element type", op_name(op));
        return false;
    }
    return true;
}

bool verify_nn_binary(Op *op, DiagEngine *de) {
    bool any_tensor = false;
    for (int i = 0; i < 2; i++) {
        Type *t = op_operand(op, i)->type;
        if (!is_scalar_or_tensor(t)) {
            op_error(de, op, "operands of '%s' must be numbers or tensors of numbers", op_name(op));
            return false;
        }
        any_tensor |= ty_is_tensor(t);
    }
    if (any_tensor != ty_is_tensor(op->results[0].type)) {
        op_error(de, op, "'%s' must produce a tensor exactly when an operand is one", op_name(op));
        return false;
    }
    if (op->kind == NN_MATMUL && !any_tensor) {
        op_error(de, op, "'nn.matmul' needs tensors");
        return false;
    }
    if (op->kind == NN_DIV && !ty_is_float(ty_elem(op->results[0].type))) {
        op_error(de, op, "'nn.div' is true division: its result must be a float");
        return false;
    }
    return true;
}

bool verify_nn_unary(Op *op, DiagEngine *de) {
    Type *in = op_operand(op, 0)->type, *out = op->results[0].type;
    if (!is_scalar_or_tensor(in) || !is_scalar_or_tensor(out) || ty_is_tensor(in) != ty_is_tensor(out)) {
        op_error(de, op, "'%s' maps a number to a number or a tensor to a tensor", op_name(op));
        return false;
    }
    if ((op->kind == NN_MAX_POOL2D || op->kind == NN_AVG_POOL2D) && nn_attr_int(op, "kernel", 0) < 1) {
        op_error(de, op, "'%s' needs a kernel >= 1", op_name(op));
        return false;
    }
    return true;
}

bool verify_nn_linear(Op *op, DiagEngine *de) {
    Type *w = op_operand(op, 1)->type;
    if (!result_tensor(op, de)) return false;
    if (!ty_is_tensor(w) || (w->rank >= 0 && w->rank != 2)) {
        op_error(de, op, "the weight of '%s' must be a 2-D tensor [out, in]", op_name(op));
        return false;
    }
    if (op->kind == NN_TERNARY_MATMUL ? !is_trit_elem(w->elem) : !ty_is_float(w->elem)) {
        op_error(de, op, "the weight of '%s' must be %s", op_name(op),
                 op->kind == NN_TERNARY_MATMUL ? "a TernaryTensor" : "a float tensor");
        return false;
    }
    return true;
}

bool verify_nn_conv(Op *op, DiagEngine *de) {
    Type *w = op_operand(op, 1)->type;
    if (!result_tensor(op, de)) return false;
    if (nn_attr_int(op, "stride", 0) < 1 || nn_attr_int(op, "padding", -1) < 0) {
        op_error(de, op, "'%s' needs stride >= 1 and padding >= 0", op_name(op));
        return false;
    }
    if (op->kind == NN_TERNARY_CONV2D ? !nn_is_ternary(w) : !ty_is_float(ty_elem(w))) {
        op_error(de, op, "the weight of '%s' has the wrong element type", op_name(op));
        return false;
    }
    return true;
}

bool verify_nn_axis(Op *op, DiagEngine *de) {
    int64_t v;
    if (!op_attr_int_k(op, AN_AXIS, &v)) {
        op_error(de, op, "'%s' needs an integer attribute 'axis'", op_name(op));
        return false;
    }
    return result_tensor(op, de);
}

bool verify_nn_norm(Op *op, DiagEngine *de) {
    int want = 2 + (op_attr(op, "has_weight") != NULL) + (op_attr(op, "has_bias") != NULL);
    if (op->noperands != want) {
        op_error(de, op, "'%s' has %d operands, expected %d from has_weight/has_bias", op_name(op),
                 op->noperands, want);
        return false;
    }
    if (ty_is_tensor(op_operand(op, 1)->type)) {
        op_error(de, op, "eps of '%s' must be a scalar", op_name(op));
        return false;
    }
    return result_tensor(op, de);
}

bool verify_nn_reshape(Op *op, DiagEngine *de) { return result_tensor(op, de) && int_scalars_from(op, de, 1); }

bool verify_nn_transpose(Op *op, DiagEngine *de) {
    int64_t v;
    if (!op_attr_int(op, "dim0", &v) || !op_attr_int(op, "dim1", &v)) {
        op_error(de, op, "'nn.transpose' needs integer attributes 'dim0' and 'dim1'");
        return false;
    }
    return result_tensor(op, de);
}

bool verify_nn_quantize(Op *op, DiagEngine *de) {
    NnScheme s = nn_scheme_lookup(op_attr_str(op, "scheme"));
    if (s == NN_Q_COUNT) {
        op_error(de, op, "'%s' needs a scheme: ternary, int8, int4 or per_channel", op_name(op));
        return false;
    }
    if ((s == NN_Q_TERNARY) != (op->noperands == 2)) {
        op_error(de, op, "'%s' takes a threshold operand exactly for the ternary scheme", op_name(op));
        return false;
    }
    if (!result_tensor(op, de)) return false;
    Type *r = op->results[0].type;
    if (op->kind == NN_FAKE_QUANTIZE ? !ty_is_float(r->elem) : nn_type_scheme(r) != s || !nn_is_quantized(r)) {
        op_error(de, op, "the result type of '%s' does not match its scheme", op_name(op));
        return false;
    }
    return true;
}

bool verify_nn_dequantize(Op *op, DiagEngine *de) {
    if (!nn_is_quantized(op_operand(op, 0)->type)) {
        op_error(de, op, "'nn.dequantize' needs a quantized tensor");
        return false;
    }
    return result_tensor(op, de) && ty_is_float(op->results[0].type->elem);
}

bool verify_nn_pack(Op *op, DiagEngine *de) {
    Type *r = op->results[0].type;
    if (!nn_is_ternary(op_operand(op, 0)->type) || !ty_is_tensor(r) || r->elem->kind != TY_INT ||
        r->elem->width != 8) {
        op_error(de, op, "'nn.pack_ternary' maps a TernaryTensor to a tensor of uint8");
        return false;
    }
    return true;
}

bool verify_nn_unpack(Op *op, DiagEngine *de) {
    Type *in = op_operand(op, 0)->type;
    if (!ty_is_tensor(in) || in->elem->kind != TY_INT || in->elem->width != 8 ||
        !nn_is_ternary(op->results[0].type)) {
        op_error(de, op, "'nn.unpack_ternary' maps a tensor of uint8 to a TernaryTensor");
        return false;
    }
    return int_scalars_from(op, de, 1);
}

/* ---- folders ---------------------------------------------------------------------- */

/* A scalar constant as a double or an int64 (bools and ints as ints). */
static bool const_int(const Attr *a, int64_t *v) {
    if (!a || (a->kind != ATTR_INT && a->kind != ATTR_BOOL)) return false;
    *v = a->kind == ATTR_INT ? a->i : a->b;
    return true;
}

static bool const_num(const Attr *a, double *v) {
    int64_t i;
    if (a && a->kind == ATTR_FLOAT) {
        *v = a->f;
        return true;
    }
    if (const_int(a, &i)) {
        *v = (double)i;
        return true;
    }
    return false;
}

/* A float constant of type t, rounded as the type stores it. */
static Attr *make_float(Context *c, Type *t, double v) { return attr_float(c, t, float_round(v, t->fkind)); }

/* An integer constant of type t, or NULL when v does not fit its width. */
static Attr *make_int(Context *c, Type *t, int64_t v) {
    if (t->width < 64 && int_wrap(v, t->width) != v && !(t->sign == UNSIGNED && (uint64_t)v == int_wrap_u(v, t->width)))
        return NULL;
    return attr_int(c, t, v);
}

bool fold_nn_global_ref(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    (void)c, (void)cs, (void)ov;
    Op *top = nn_top_level_of(op);
    Op *g = nn_lookup_global(top ? op_parent_op(top) : NULL, op_attr_str(op, "name"));
    if (!g || !g->regions[0].first) return false;
    Op *y = g->regions[0].first->last;
    if (!y || y->kind != NN_YIELD || y->noperands != 1) return false;
    Value *v = op_operand(y, 0);
    if (!v->def || v->def->kind != ARITH_CONSTANT || v->type != op->results[0].type) return false;
    out[0] = op_attr_k(v->def, AN_VALUE);
    return out[0] != NULL;
}

/* Exact identities on tensors or scalars: x * 1, x / 1, x - 0, and x + -0.0
 * (x + 0.0 is not x for x = -0.0). Only when the result has x's type. */
static Value *arith_identity(Op *op, Attr **cs) {
    Value *x = op_operand(op, 0);
    double v;
    if (!const_num(cs[1], &v) || x->type != op->results[0].type) return NULL;
    switch (op->kind) {
    case NN_MUL:
    case NN_DIV: return v == 1.0 ? x : NULL;
    case NN_SUB: return v == 0.0 && !signbit(v) ? x : NULL;
    case NN_ADD: return v == 0.0 && (signbit(v) || !ty_is_float(ty_elem(x->type))) ? x : NULL;
    default: return NULL;
    }
}

bool fold_nn_arith(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Type *rt = op->results[0].type;
    if ((*ov = arith_identity(op, cs))) return true;
    if (ty_is_tensor(rt) || !cs[0] || !cs[1]) return false;
    if (rt->kind == TY_FLOAT) {
        double a, b, r;
        if (!const_num(cs[0], &a) || !const_num(cs[1], &b)) return false;
        if (rt->fkind == FK_F32) { /* f32 arithmetic, as the type says */
            a = (float)a, b = (float)b;
        }
        switch (op->kind) {
        case NN_ADD: r = a + b; break;
        case NN_SUB: r = a - b; break;
        case NN_MUL: r = a * b; break;
        case NN_DIV:
            if (b == 0.0) return false; /* Python raises ZeroDivisionError: keep it */
            r = a / b;
            break;
        default: return false;
        }
        out[0] = make_float(c, rt, rt->fkind == FK_F32 ? (double)(float)r : r);
        return true;
    }
    int64_t a, b, r;
    if (rt->kind != TY_INT || !const_int(cs[0], &a) || !const_int(cs[1], &b)) return false;
    bool overflow;
    switch (op->kind) {
    case NN_ADD: overflow = __builtin_add_overflow(a, b, &r); break;
    case NN_SUB: overflow = __builtin_sub_overflow(a, b, &r); break;
    case NN_MUL: overflow = __builtin_mul_overflow(a, b, &r); break;
    default: return false;
    }
    if (overflow) return false; /* Python integers do not wrap: keep the op */
    out[0] = make_int(c, rt, r);
    return out[0] != NULL;
}

static double gelu(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }
static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

bool fold_nn_unary(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    (void)ov;
    Type *rt = op->results[0].type;
    double x;
    if (ty_is_tensor(rt) || !const_num(cs[0], &x)) return false;
    if (rt->kind == TY_INT) {
        int64_t i;
        if (!const_int(cs[0], &i)) return false;
        if (op->kind == NN_NEG) {
            if (i == INT64_MIN) return false;
            out[0] = make_int(c, rt, -i);
        } else if (op->kind == NN_RELU) {
            out[0] = make_int(c, rt, i > 0 ? i : 0);
        } else {
            return false;
        }
        return out[0] != NULL;
    }
    if (rt->kind != TY_FLOAT) return false;
    double r;
    switch (op->kind) {
    case NN_NEG: r = -x; break;
    case NN_RELU: r = x > 0 ? x : 0.0; break;
    case NN_GELU: r = gelu(x); break;
    case NN_SILU: r = x * sigmoid(x); break;
    case NN_SIGMOID: r = sigmoid(x); break;
    case NN_TANH: r = tanh(x); break;
    default: return false;
    }
    out[0] = make_float(c, rt, r);
    return true;
}

bool fold_nn_cast(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Type *rt = op->results[0].type;
    Value *x = op_operand(op, 0);
    if (x->type == rt) {
        *ov = x;
        return true;
    }
    double v;
    if (ty_is_tensor(rt) || !const_num(cs[0], &v)) return false;
    if (rt->kind == TY_FLOAT) {
        out[0] = make_float(c, rt, v);
        return true;
    }
    int64_t i;
    if (rt->kind != TY_INT || !const_int(cs[0], &i)) return false; /* float -> int never converts */
    out[0] = make_int(c, rt, i);
    return out[0] != NULL;
}

bool fold_nn_transpose(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    (void)c, (void)cs, (void)out;
    Op *in = op_operand(op, 0)->def;
    if (!in || in->kind != NN_TRANSPOSE) return false;
    if (op_attr(in, "dim0") != op_attr(op, "dim0") || op_attr(in, "dim1") != op_attr(op, "dim1")) return false;
    Value *x = op_operand(in, 0);
    if (x->type != op->results[0].type) return false;
    *ov = x;
    return true;
}

/* The elements of a dense integer constant of static shape (splats expanded). */
static int64_t *dense_ints(const Attr *a, int64_t *n) {
    if (!a || a->kind != ATTR_DENSE || !a->dense.ints || !ty_is_tensor(a->type)) return NULL;
    int64_t numel = ty_numel(a->type);
    if (numel < 0 || numel > (1 << 24)) return NULL;
    int64_t *v = tc_malloc(sizeof(int64_t) * (size_t)(numel ? numel : 1));
    for (int64_t i = 0; i < numel; i++) v[i] = a->dense.ints[a->dense.nvals == 1 ? 0 : i];
    *n = numel;
    return v;
}

bool fold_nn_pack(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    (void)ov;
    Type *rt = op->results[0].type;
    int64_t n;
    if (ty_numel(rt) < 0) return false;
    int64_t *v = dense_ints(cs[0], &n);
    if (!v) return false;
    bool ok = (int64_t)tern_packed_size((size_t)n) == ty_numel(rt);
    if (ok) {
        int8_t *trits = tc_malloc((size_t)n + 1);
        uint8_t *bytes = tc_malloc(tern_packed_size((size_t)n) + 1);
        for (int64_t i = 0; i < n; i++) trits[i] = (int8_t)(v[i] < 0 ? -1 : v[i] > 0);
        tern_pack(trits, (size_t)n, bytes);
        for (int64_t i = 0; i < ty_numel(rt); i++) v[i] = bytes[i];
        out[0] = attr_dense_int(c, rt, v, ty_numel(rt));
        tc_free(trits);
        tc_free(bytes);
    }
    tc_free(v);
    return ok;
}

bool fold_nn_unpack(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    (void)ov;
    Type *rt = op->results[0].type;
    int64_t numel = ty_numel(rt), n;
    if (numel < 0) return false;
    for (int i = 1; i < op->noperands; i++)
        if (!cs[i]) return false;
    int64_t *v = dense_ints(cs[0], &n);
    if (!v) return false;
    bool ok = (int64_t)tern_packed_size((size_t)numel) == n;
    if (ok) {
        uint8_t *bytes = tc_malloc((size_t)n + 1);
        int8_t *trits = tc_malloc((size_t)numel + 1);
        int64_t *vals = tc_malloc(sizeof(int64_t) * (size_t)(numel + 1));
        for (int64_t i = 0; i < n; i++) bytes[i] = (uint8_t)v[i];
        ok = tern_unpack(bytes, (size_t)numel, trits); /* an invalid code raises at run time */
        for (int64_t i = 0; ok && i < numel; i++) vals[i] = trits[i];
        if (ok) out[0] = attr_dense_int(c, rt, vals, numel);
        tc_free(bytes);
        tc_free(trits);
        tc_free(vals);
    }
    tc_free(v);
    return ok;
}
