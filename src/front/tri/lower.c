/*
 * lower.c - checked .tri AST -> nn IR.
 *
 * One walk over the program, reading the types the checker left on every
 * expression. Each top-level declaration becomes one top-level op:
 *
 *   let x = e                 nn.global @x ({ ...e...; nn.yield %e })
 *   fn f(a: T) -> R { ... }   tt.func @f(%a: T) -> R { ...; tt.return }
 *   layer L(p: int) {         nn.layer @L ({ ^bb0(%p: i64):
 *       let W = e                 ...e...; nn.param %e {name = "W", kind = ...}
 *       let s = M(...)            nn.sublayer %args {name = "s", layer = @M}
 *       fn m(x) { ... }           nn.yield })
 *   }                         tt.func @L.m(%x) {layer = "L", method = "m"}
 *
 * Names resolve through the checker's `ref`: a fn's params and lets live in
 * the environment (decl -> Value); a layer's params and lets are block
 * values in its constructor and nn.state reads in its methods; a
 * top-level let is an nn.global_ref. Every use makes a fresh read, so the
 * IR has duplicates that CSE merges and references to constant globals
 * that canonicalize folds: lowering stays simple and the passes have work.
 *
 * Lists ([hidden, 64]) are not values: they are shapes, lowered to one i64
 * operand per element where a built-in takes a shape (a let holding a list
 * is expanded at each use). Scalars convert where the checker converted
 * them (an int into a float32 let) with nn.cast; call arguments and return
 * values are cast to the callee's exact signature types, as a verifier of
 * tt.call would require (a no-op between tensor types of one element type).
 */
#include "front/tri/tri_lower.h"

#include "dialect/nn.h"
#include "support/ternary.h"

#include <string.h>

typedef struct Lower {
    Context *c;
    DiagEngine *de;
    TriProgram *prog;
    Op *module;
    Builder b;
    Map env;            /* TriDecl* -> Value*: params and lets in scope */
    Map toplevel;       /* TriDecl* -> non-NULL for top-level lets */
    TriDecl *layer;     /* the layer of the method or constructor being lowered */
    bool ctor;          /* lowering a layer's constructor */
    bool failed;
} Lower;

/* ---- types ------------------------------------------------------------- */

static Type *dtype_type(Lower *L, TriDType dt) {
    Context *c = L->c;
    switch (dt) {
    case TRI_DT_TRIT: return nn_trit_type(c);
    case TRI_DT_INT4: return ty_int(c, 4);
    case TRI_DT_UINT8: return ty_int_signed(c, 8, UNSIGNED);
    case TRI_DT_INT8: return ty_int(c, 8);
    case TRI_DT_INT32: return ty_i32(c);
    case TRI_DT_INT: return ty_i64(c);
    case TRI_DT_FLOAT16: return ty_float(c, FK_F16);
    case TRI_DT_FLOAT32: return ty_f32(c);
    }
    return ty_f32(c);
}

/* The IR type of a value of .tri type t, or NULL for lists, layers, void. */
static Type *lower_type(Lower *L, const TriType *t) {
    if (!t) return NULL;
    switch (t->kind) {
    case TRI_T_SCALAR: return dtype_type(L, t->dtype);
    case TRI_T_TENSOR: {
        int64_t shape[64];
        int rank = t->ellipsis || t->rank > 64 ? -1 : t->rank;
        for (int i = 0; i < rank; i++)
            shape[i] = !t->dims[i].sym && t->dims[i].value >= 0 ? t->dims[i].value : -1;
        Attr *enc = NULL;
        if (t->quant == TRI_Q_AFFINE)
            enc = nn_encoding(L->c, t->dtype == TRI_DT_INT4 ? NN_Q_INT4 : NN_Q_INT8);
        else if (t->quant == TRI_Q_PER_CHANNEL)
            enc = nn_encoding(L->c, NN_Q_PER_CHANNEL);
        return ty_tensor(L->c, shape, rank, dtype_type(L, t->dtype), enc);
    }
    default: return NULL;
    }
}

static void fail(Lower *L, Loc loc, const char *what) {
    if (!L->failed) diag_error(L->de, loc, "cannot lower %s to the nn dialect", what);
    L->failed = true;
}

/* ---- building ----------------------------------------------------------- */

static Op *emit(Lower *L, Loc loc, OpKind k, Value *const *ops, int n, Type *res) {
    L->b.loc = loc;
    return build_op(&L->b, k, ops, n, res ? &res : NULL, res ? 1 : 0, 0);
}

static Value *emit1(Lower *L, Loc loc, OpKind k, Value *const *ops, int n, Type *res) {
    return op_result(emit(L, loc, k, ops, n, res), 0);
}

static void set_str(Lower *L, Op *op, const char *name, const char *s) {
    op_set_attr(L->c, op, name, attr_string(L->c, s));
}

static void set_int(Lower *L, Op *op, const char *name, int64_t v) {
    op_set_attr(L->c, op, name, attr_int(L->c, ty_i64(L->c), v));
}

static Value *const_int(Lower *L, Loc loc, Type *t, int64_t v) {
    L->b.loc = loc;
    return build_constant(&L->b, attr_int(L->c, t, v));
}

static Value *const_f32(Lower *L, Loc loc, double v) {
    L->b.loc = loc;
    return build_constant(&L->b, attr_float(L->c, ty_f32(L->c), float_round(v, FK_F32)));
}

/* v converted to type t: scalars with nn.cast when the types differ,
 * tensors only where `exact` (call arguments and results). */
static Value *coerce(Lower *L, Loc loc, Value *v, Type *t, bool exact) {
    if (!v || !t || v->type == t) return v;
    if (ty_is_tensor(v->type) != ty_is_tensor(t)) return v;
    if (ty_is_tensor(t) && !exact && ty_elem(v->type) == ty_elem(t)) return v;
    return emit1(L, loc, NN_CAST, &v, 1, t);
}

static void name_value(Lower *L, Value *v, const char *name) {
    if (v && !v->name && !(v->def && v->def->kind == ARITH_CONSTANT)) v->name = ctx_intern(L->c, name);
}

/* ---- constants of the AST ------------------------------------------------- */

/* A constant integer argument, as tri_check's const_int_arg reads it. */
static int64_t const_arg(TriExpr *a, int64_t def) {
    if (!a) return def;
    if (a->kind == TRI_EX_INT) return a->u.ival;
    if (!a->dim.sym && a->dim.value >= 0) return a->dim.value;
    return def;
}

static bool is_toplevel_let(Lower *L, TriDecl *d) { return map_get(&L->toplevel, MAP_KEY(d)) != NULL; }

/* ---- expressions ----------------------------------------------------------- */

static Value *lower_expr(Lower *L, TriExpr *e);

typedef VEC(Value *) Values;

/* A shape argument: one i64 operand per element of a list (or of the list a
 * let holds), or the one int given for a 1-D shape. */
static void lower_shape(Lower *L, TriExpr *a, Values *out) {
    if (a->kind == TRI_EX_NAME && a->u.name.ref && a->u.name.ref->kind == TRI_D_LET &&
        a->type->kind == TRI_T_LIST && a->u.name.ref->value) {
        lower_shape(L, a->u.name.ref->value, out);
        return;
    }
    if (a->kind == TRI_EX_LIST) {
        for (int i = 0; i < a->u.list.n; i++) {
            TriExpr *x = a->u.list.elems[i];
            vec_push(out, coerce(L, x->loc, lower_expr(L, x), ty_i64(L->c), false));
        }
        return;
    }
    if (a->type->kind == TRI_T_LIST) {
        fail(L, a->loc, "a list that is not written out");
        return;
    }
    vec_push(out, coerce(L, a->loc, lower_expr(L, a), ty_i64(L->c), false));
}

static NnStateKind state_kind(const TriType *t) {
    if (t->kind == TRI_T_SCALAR) return NN_S_VALUE;
    if (t->dtype == TRI_DT_TRIT) return NN_S_TERNARY;
    if (t->quant == TRI_Q_AFFINE || t->quant == TRI_Q_PER_CHANNEL) return NN_S_QUANTIZED;
    if (tri_dtype_is_float(t->dtype)) return NN_S_PARAMETER;
    return NN_S_BUFFER;
}

/* A read of layer state (a member let or a layer parameter) in a method. */
static Value *state_read(Lower *L, TriExpr *e, TriDecl *d) {
    Type *t = lower_type(L, d->type);
    if (!t) {
        fail(L, e->loc, "a use of this layer member as a value");
        return NULL;
    }
    Op *op = emit(L, e->loc, NN_STATE, NULL, 0, t);
    set_str(L, op, "name", d->name);
    set_str(L, op, "kind", nn_state_kind_names[d->kind == TRI_D_PARAM ? NN_S_HPARAM : state_kind(d->type)]);
    op->results[0].name = ctx_intern(L->c, d->name);
    return op_result(op, 0);
}

static Value *lower_name(Lower *L, TriExpr *e) {
    TriDecl *d = e->u.name.ref;
    Value *v = d ? map_get(&L->env, MAP_KEY(d)) : NULL;
    if (v) return v;
    if (!d) {
        fail(L, e->loc, "an unresolved name");
        return NULL;
    }
    if (d->parent && d->parent->kind == TRI_D_LAYER && (d->kind == TRI_D_LET || d->kind == TRI_D_PARAM) &&
        !L->ctor)
        return state_read(L, e, d);
    if (d->kind == TRI_D_LET && is_toplevel_let(L, d)) {
        Type *t = lower_type(L, d->type);
        if (!t) {
            fail(L, e->loc, "a use of this constant as a value");
            return NULL;
        }
        Op *op = emit(L, e->loc, NN_GLOBAL_REF, NULL, 0, t);
        op_set_attr(L->c, op, "name", attr_symref(L->c, d->name));
        op->results[0].name = ctx_intern(L->c, d->name);
        return op_result(op, 0);
    }
    fail(L, e->loc, "this name");
    return NULL;
}

static Value *binary(Lower *L, TriExpr *e) {
    Value *ops[2] = {lower_expr(L, e->u.op.lhs), lower_expr(L, e->u.op.rhs)};
    if (!ops[0] || !ops[1]) return NULL;
    OpKind k;
    switch (e->u.op.op) {
    case '+': k = NN_ADD; break;
    case '-': k = NN_SUB; break;
    case '*': k = NN_MUL; break;
    case '/': k = NN_DIV; break;
    default: k = NN_MATMUL; break;
    }
    return emit1(L, e->u.op.op_loc.line ? e->u.op.op_loc : e->loc, k, ops, 2, lower_type(L, e->type));
}

static Value *ternary_literal(Lower *L, TriExpr *e) {
    Type *t = lower_type(L, e->type);
    if (!t || ty_numel(t) < 0 || ty_numel(t) != e->u.tern.nvals) {
        fail(L, e->loc, "this TernaryTensor literal");
        return NULL;
    }
    int64_t *vals = ARENA_ARRAY(L->c->arena, int64_t, e->u.tern.nvals + 1);
    for (int i = 0; i < e->u.tern.nvals; i++) vals[i] = e->u.tern.trits[i];
    L->b.loc = e->loc;
    return build_constant(&L->b, attr_dense_int(L->c, t, vals, e->u.tern.nvals));
}

/* Arguments of a user fn call, cast to the callee's parameter types. */
static Value *call_fn(Lower *L, TriExpr *e, const char *symbol) {
    TriDecl *fn = e->u.call.decl;
    Values args = {0};
    for (int i = 0; i < e->u.call.nbound && i < fn->nparams; i++) {
        TriExpr *a = e->u.call.bound[i];
        Value *v = a ? lower_expr(L, a) : NULL;
        if (!v) {
            vec_free(&args);
            if (!L->failed) fail(L, e->loc, "this call");
            return NULL;
        }
        vec_push(&args, coerce(L, a->loc, v, lower_type(L, fn->params[i]->type), true));
    }
    Type *rt = lower_type(L, fn->type);
    Op *op = emit(L, e->loc, TT_CALL, args.data, args.len, rt);
    op_set_attr(L->c, op, "callee", attr_symref(L->c, symbol));
    vec_free(&args);
    return rt ? op_result(op, 0) : NULL;
}

static Value *call_sublayer(Lower *L, TriExpr *e) {
    Values args = {0};
    for (int i = 0; i < e->u.call.nbound; i++) {
        TriExpr *a = e->u.call.bound[i];
        Value *v = a ? lower_expr(L, a) : NULL;
        if (!v) {
            vec_free(&args);
            if (!L->failed) fail(L, e->loc, "this call");
            return NULL;
        }
        vec_push(&args, v);
    }
    Type *rt = lower_type(L, e->type);
    Op *op = emit(L, e->loc, NN_CALL_LAYER, args.data, args.len, rt);
    set_str(L, op, "name", e->u.call.decl->name);
    vec_free(&args);
    return rt ? op_result(op, 0) : NULL;
}

static Value *builtin(Lower *L, TriExpr *e) {
    TriExpr **a = e->u.call.bound;
    int na = e->u.call.nbound;
    Type *rt = lower_type(L, e->type);
    Loc loc = e->loc;
    Value *x = na > 0 && a[0] && a[0]->type->kind != TRI_T_LIST ? lower_expr(L, a[0]) : NULL;
    Values ops = {0};
    Value *r = NULL;
    Op *op;
    switch (e->u.call.builtin) {
    case TRI_B_RANDOM_TERNARY:
    case TRI_B_ZEROS:
    case TRI_B_ONES:
    case TRI_B_RANDN: {
        static const OpKind kinds[] = {[TRI_B_RANDOM_TERNARY] = NN_RANDOM_TERNARY, [TRI_B_ZEROS] = NN_ZEROS,
                                       [TRI_B_ONES] = NN_ONES, [TRI_B_RANDN] = NN_RANDN};
        if (x) vec_push(&ops, coerce(L, loc, x, ty_i64(L->c), false));
        else lower_shape(L, a[0], &ops);
        r = emit1(L, loc, kinds[e->u.call.builtin], ops.data, ops.len, rt);
        break;
    }
    case TRI_B_TERNARY_MATMUL:
    case TRI_B_MATMUL:
    case TRI_B_ADD_BIAS: {
        Value *pair[2] = {x, lower_expr(L, a[1])};
        OpKind k = e->u.call.builtin == TRI_B_TERNARY_MATMUL ? NN_TERNARY_MATMUL
                   : e->u.call.builtin == TRI_B_MATMUL      ? NN_LINEAR
                                                             : NN_ADD;
        if (pair[0] && pair[1]) r = emit1(L, loc, k, pair, 2, rt);
        break;
    }
    case TRI_B_CONV2D: {
        Value *pair[2] = {x, lower_expr(L, a[1])};
        if (!pair[0] || !pair[1]) break;
        op = emit(L, loc, nn_is_ternary(pair[1]->type) ? NN_TERNARY_CONV2D : NN_CONV2D, pair, 2, rt);
        set_int(L, op, "stride", const_arg(na > 2 ? a[2] : NULL, 1));
        set_int(L, op, "padding", const_arg(na > 3 ? a[3] : NULL, 0));
        r = op_result(op, 0);
        break;
    }
    case TRI_B_RELU: r = x ? emit1(L, loc, NN_RELU, &x, 1, rt) : NULL; break;
    case TRI_B_GELU: r = x ? emit1(L, loc, NN_GELU, &x, 1, rt) : NULL; break;
    case TRI_B_SILU: r = x ? emit1(L, loc, NN_SILU, &x, 1, rt) : NULL; break;
    case TRI_B_SIGMOID: r = x ? emit1(L, loc, NN_SIGMOID, &x, 1, rt) : NULL; break;
    case TRI_B_TANH: r = x ? emit1(L, loc, NN_TANH, &x, 1, rt) : NULL; break;
    case TRI_B_SOFTMAX:
    case TRI_B_FLATTEN: {
        if (!x) break;
        bool sm = e->u.call.builtin == TRI_B_SOFTMAX;
        op = emit(L, loc, sm ? NN_SOFTMAX : NN_FLATTEN, &x, 1, rt);
        set_int(L, op, "axis", const_arg(na > 1 ? a[1] : NULL, sm ? -1 : 1));
        r = op_result(op, 0);
        break;
    }
    case TRI_B_LAYER_NORM:
    case TRI_B_RMS_NORM: {
        if (!x) break;
        bool ln = e->u.call.builtin == TRI_B_LAYER_NORM;
        TriExpr *eps = ln ? (na > 3 ? a[3] : NULL) : (na > 2 ? a[2] : NULL);
        vec_push(&ops, x);
        vec_push(&ops, eps ? coerce(L, eps->loc, lower_expr(L, eps), ty_f32(L->c), false)
                           : const_f32(L, loc, ln ? 1e-5 : 1e-6));
        bool w = na > 1 && a[1], bias = ln && na > 2 && a[2];
        if (w) vec_push(&ops, lower_expr(L, a[1]));
        if (bias) vec_push(&ops, lower_expr(L, a[2]));
        for (int i = 0; i < ops.len; i++)
            if (!ops.data[i]) goto done;
        op = emit(L, loc, ln ? NN_LAYER_NORM : NN_RMS_NORM, ops.data, ops.len, rt);
        if (w) op_set_attr(L->c, op, "has_weight", attr_unit(L->c));
        if (bias) op_set_attr(L->c, op, "has_bias", attr_unit(L->c));
        r = op_result(op, 0);
        break;
    }
    case TRI_B_MAX_POOL2D:
    case TRI_B_AVG_POOL2D:
        if (!x) break;
        op = emit(L, loc, e->u.call.builtin == TRI_B_MAX_POOL2D ? NN_MAX_POOL2D : NN_AVG_POOL2D, &x, 1, rt);
        set_int(L, op, "kernel", const_arg(na > 1 ? a[1] : NULL, 2));
        r = op_result(op, 0);
        break;
    case TRI_B_RESHAPE:
    case TRI_B_UNPACK_TERNARY:
        if (!x) break;
        vec_push(&ops, x);
        lower_shape(L, a[1], &ops);
        r = emit1(L, loc, e->u.call.builtin == TRI_B_RESHAPE ? NN_RESHAPE : NN_UNPACK_TERNARY, ops.data, ops.len,
                  rt);
        break;
    case TRI_B_TRANSPOSE:
        if (!x) break;
        op = emit(L, loc, NN_TRANSPOSE, &x, 1, rt);
        set_int(L, op, "dim0", const_arg(na > 1 ? a[1] : NULL, -2));
        set_int(L, op, "dim1", const_arg(na > 2 ? a[2] : NULL, -1));
        r = op_result(op, 0);
        break;
    case TRI_B_QUANTIZE_TERNARY:
    case TRI_B_QUANTIZE_INT8:
    case TRI_B_QUANTIZE_INT4:
    case TRI_B_QUANTIZE_PER_CHANNEL: {
        if (!x) break;
        NnScheme s = e->u.call.builtin == TRI_B_QUANTIZE_TERNARY ? NN_Q_TERNARY
                     : e->u.call.builtin == TRI_B_QUANTIZE_INT8  ? NN_Q_INT8
                     : e->u.call.builtin == TRI_B_QUANTIZE_INT4  ? NN_Q_INT4
                                                                  : NN_Q_PER_CHANNEL;
        vec_push(&ops, x);
        if (s == NN_Q_TERNARY) {
            TriExpr *th = na > 1 ? a[1] : NULL;
            vec_push(&ops, th ? coerce(L, th->loc, lower_expr(L, th), ty_f32(L->c), false)
                              : const_f32(L, loc, TERN_DEFAULT_THRESHOLD));
            if (!ops.data[1]) break;
        }
        op = emit(L, loc, NN_QUANTIZE, ops.data, ops.len, rt);
        set_str(L, op, "scheme", nn_scheme_names[s]);
        if (s == NN_Q_PER_CHANNEL) set_int(L, op, "axis", const_arg(na > 1 ? a[1] : NULL, 0));
        r = op_result(op, 0);
        break;
    }
    case TRI_B_DEQUANTIZE: r = x ? emit1(L, loc, NN_DEQUANTIZE, &x, 1, rt) : NULL; break;
    case TRI_B_PACK_TERNARY: r = x ? emit1(L, loc, NN_PACK_TERNARY, &x, 1, rt) : NULL; break;
    default: fail(L, loc, "this built-in call"); break;
    }
done:
    vec_free(&ops);
    if (!r && !L->failed) fail(L, loc, "this built-in call");
    return r;
}

static Value *lower_call(Lower *L, TriExpr *e) {
    switch (e->u.call.kind) {
    case TRI_CALL_BUILTIN: return builtin(L, e);
    case TRI_CALL_FN: return call_fn(L, e, e->u.call.decl->name);
    case TRI_CALL_METHOD:
        return call_fn(L, e, arena_printf(L->c->arena, "%s.%s", e->u.call.decl->parent->name, e->u.call.decl->name));
    case TRI_CALL_SUBLAYER: return call_sublayer(L, e);
    default: fail(L, e->loc, "a layer instance outside a layer's 'let'"); return NULL;
    }
}

static Value *lower_expr(Lower *L, TriExpr *e) {
    if (L->failed) return NULL;
    switch (e->kind) {
    case TRI_EX_INT: {
        Type *t = lower_type(L, e->type);
        if (t && ty_is_float(t)) return const_f32(L, e->loc, (double)e->u.ival);
        return const_int(L, e->loc, t ? t : ty_i64(L->c), e->u.ival);
    }
    case TRI_EX_FLOAT: {
        Type *t = lower_type(L, e->type);
        L->b.loc = e->loc;
        if (!t || !ty_is_float(t)) t = ty_f32(L->c);
        return build_constant(&L->b, attr_float(L->c, t, float_round(e->u.fval, t->fkind)));
    }
    case TRI_EX_TRIT: return const_int(L, e->loc, nn_trit_type(L->c), e->u.ival);
    case TRI_EX_NAME: return lower_name(L, e);
    case TRI_EX_TERNARY: return ternary_literal(L, e);
    case TRI_EX_UNARY: {
        Value *x = lower_expr(L, e->u.op.lhs);
        return x ? emit1(L, e->loc, NN_NEG, &x, 1, lower_type(L, e->type)) : NULL;
    }
    case TRI_EX_BINARY: return binary(L, e);
    case TRI_EX_CALL: return lower_call(L, e);
    case TRI_EX_LIST: fail(L, e->loc, "a list used as a value (lists are shapes)"); return NULL;
    }
    return NULL;
}

/* ---- declarations -------------------------------------------------------------- */

/* The let `d` in a fn body or a global: its value, cast to its declared
 * type and named after it. */
static Value *lower_let(Lower *L, TriDecl *d) {
    if (d->type && d->type->kind == TRI_T_LIST) return NULL; /* expanded at its uses */
    Value *v = lower_expr(L, d->value);
    v = coerce(L, d->loc, v, lower_type(L, d->type), false);
    if (v) {
        name_value(L, v, d->name);
        map_put(&L->env, MAP_KEY(d), v);
    }
    return v;
}

static void reset_env(Lower *L) {
    map_free(&L->env);
    memset(&L->env, 0, sizeof L->env);
}

static void lower_global(Lower *L, TriDecl *d) {
    if (!d->type || d->type->kind == TRI_T_LIST) return;
    Op *g = op_create(L->c, NN_GLOBAL, d->loc, NULL, 0, NULL, 0, 1);
    op_set_attr(L->c, g, "sym_name", attr_string(L->c, d->name));
    op_set_attr(L->c, g, "type", attr_type(L->c, lower_type(L, d->type)));
    block_append(module_body(L->module), g);
    Block *b = block_create(L->c);
    region_push_block(&g->regions[0], b);
    L->b = builder_at_end(L->c, b);
    reset_env(L);
    L->layer = NULL, L->ctor = false;
    Value *v = lower_let(L, d);
    if (v) emit(L, d->loc, NN_YIELD, &v, 1, NULL);
}

/* tt.func @symbol for fn d (a free fn, or a method of L->layer). */
static void lower_fn(Lower *L, TriDecl *d, const char *symbol) {
    Type *params[64], *res = lower_type(L, d->type);
    if (d->nparams > 64) {
        fail(L, d->loc, "a fn with more than 64 parameters");
        return;
    }
    for (int i = 0; i < d->nparams; i++) {
        params[i] = lower_type(L, d->params[i]->type);
        if (!params[i]) {
            fail(L, d->params[i]->loc, "a parameter of this type");
            return;
        }
    }
    Op *f = op_create(L->c, TT_FUNC, d->loc, NULL, 0, NULL, 0, 1);
    op_set_attr(L->c, f, "sym_name", attr_string(L->c, symbol));
    op_set_attr(L->c, f, "function_type", attr_type(L->c, ty_func(L->c, params, d->nparams, &res, res ? 1 : 0)));
    if (L->layer) {
        set_str(L, f, "layer", L->layer->name);
        set_str(L, f, "method", d->name);
    }
    block_append(module_body(L->module), f);
    Block *b = block_create(L->c);
    region_push_block(&f->regions[0], b);
    reset_env(L);
    for (int i = 0; i < d->nparams; i++) {
        Value *a = block_add_arg(L->c, b, params[i], d->params[i]->loc);
        a->name = ctx_intern(L->c, d->params[i]->name);
        map_put(&L->env, MAP_KEY(d->params[i]), a);
    }
    L->b = builder_at_end(L->c, b);
    L->ctor = false;
    bool returned = false;
    for (int i = 0; i < d->nbody && !returned && !L->failed; i++) {
        TriStmt *s = d->body[i];
        switch (s->kind) {
        case TRI_ST_LET: lower_let(L, s->let); break;
        case TRI_ST_EXPR: lower_expr(L, s->expr); break;
        case TRI_ST_RETURN: {
            Value *v = s->expr ? lower_expr(L, s->expr) : NULL;
            v = coerce(L, s->loc, v, res, true);
            emit(L, s->loc, TT_RETURN, &v, v && res ? 1 : 0, NULL);
            returned = true;
            break;
        }
        }
    }
    if (!returned && !L->failed) {
        if (res) fail(L, d->loc, "a fn that ends without returning its value");
        else emit(L, d->loc, TT_RETURN, NULL, 0, NULL);
    }
}

static void lower_layer(Lower *L, TriDecl *d) {
    Op *lay = op_create(L->c, NN_LAYER, d->loc, NULL, 0, NULL, 0, 1);
    op_set_attr(L->c, lay, "sym_name", attr_string(L->c, d->name));
    Attr *names[64];
    if (d->nparams > 64) {
        fail(L, d->loc, "a layer with more than 64 parameters");
        return;
    }
    for (int i = 0; i < d->nparams; i++) names[i] = attr_string(L->c, d->params[i]->name);
    op_set_attr(L->c, lay, "hparams", attr_array(L->c, names, d->nparams));
    block_append(module_body(L->module), lay);
    Block *b = block_create(L->c);
    region_push_block(&lay->regions[0], b);
    reset_env(L);
    L->layer = d, L->ctor = true;
    L->b = builder_at_end(L->c, b);
    for (int i = 0; i < d->nparams; i++) {
        Type *t = lower_type(L, d->params[i]->type);
        if (!t) {
            fail(L, d->params[i]->loc, "a layer parameter of this type");
            return;
        }
        Value *a = block_add_arg(L->c, b, t, d->params[i]->loc);
        a->name = ctx_intern(L->c, d->params[i]->name);
        map_put(&L->env, MAP_KEY(d->params[i]), a);
    }
    for (int i = 0; i < d->nmembers && !L->failed; i++) {
        TriDecl *m = d->members[i];
        if (m->kind != TRI_D_LET || !m->type || m->type->kind == TRI_T_LIST) continue;
        TriExpr *e = m->value;
        if (e->kind == TRI_EX_CALL && e->u.call.kind == TRI_CALL_LAYER_NEW) {
            Values args = {0};
            for (int j = 0; j < e->u.call.nbound; j++) {
                TriExpr *ae = e->u.call.bound[j];
                Value *v = ae ? lower_expr(L, ae) : NULL;
                if (v) vec_push(&args, coerce(L, ae->loc, v, lower_type(L, e->u.call.decl->params[j]->type), true));
            }
            Op *op = emit(L, m->loc, NN_SUBLAYER, args.data, args.len, NULL);
            set_str(L, op, "name", m->name);
            op_set_attr(L->c, op, "layer", attr_symref(L->c, e->u.call.decl->name));
            vec_free(&args);
            continue;
        }
        Value *v = lower_let(L, m);
        if (!v) continue;
        Op *op = emit(L, m->loc, NN_PARAM, &v, 1, NULL);
        set_str(L, op, "name", m->name);
        set_str(L, op, "kind", nn_state_kind_names[state_kind(m->type)]);
    }
    if (L->failed) return;
    emit(L, d->loc, NN_YIELD, NULL, 0, NULL);
    for (int i = 0; i < d->nmembers && !L->failed; i++) {
        TriDecl *m = d->members[i];
        if (m->kind == TRI_D_FN) lower_fn(L, m, arena_printf(L->c->arena, "%s.%s", d->name, m->name));
    }
    L->layer = NULL;
}

Op *tri_lower(TriProgram *prog, Context *ctx, DiagEngine *de) {
    Lower L = {.c = ctx, .de = de, .prog = prog};
    L.module = module_create(ctx, (Loc){prog->file, 1, 1});
    for (int i = 0; i < prog->ndecls; i++)
        if (prog->decls[i]->kind == TRI_D_LET) map_put(&L.toplevel, MAP_KEY(prog->decls[i]), prog->decls[i]);
    for (int i = 0; i < prog->ndecls && !L.failed; i++) {
        TriDecl *d = prog->decls[i];
        switch (d->kind) {
        case TRI_D_LET: lower_global(&L, d); break;
        case TRI_D_FN: L.layer = NULL, lower_fn(&L, d, d->name); break;
        case TRI_D_LAYER: lower_layer(&L, d); break;
        default: break;
        }
    }
    map_free(&L.env);
    map_free(&L.toplevel);
    return L.failed ? NULL : L.module;
}
