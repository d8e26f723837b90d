/*
 * emit.c - nn IR -> PyTorch source.
 *
 * One pass over the module, top-level op by top-level op:
 *
 *   nn.global @g   -> `g = <value>` at module level (in dependency order;
 *                     globals that call a fn come after the fns)
 *   tt.func @f     -> `def f(...):`
 *   nn.layer @L    -> `class L(TernaryModule):` with `__init__` (the
 *   tt.func @L.m      constructor region) and one method per tt.func @L.m
 *
 * Inside a body each op becomes an expression; an expression is either
 * inlined into its one user or bound to a local by a statement. A value is
 * inlined when it has one use in the same block, carries no name from the
 * source (a `let` keeps its name as a local), and, when the op has an
 * effect (random numbers, calls), no other effect lies between it and its
 * user, so the order of effects is the program's. Constants, global and
 * cheap state reads (`self.b1`) are always inlined. Expressions carry a
 * Python precedence so parentheses appear exactly where needed.
 *
 * Layout (PEP 8): 4-space indents, lines of at most 99 columns, two blank
 * lines around top-level definitions and one between methods. A statement
 * longer than the limit first spills its longest inlined operand into a
 * temporary (recursively); what is still too long is wrapped at the commas
 * of its first bracket with a hanging indent. Long literal tensors become
 * module-level lists. Imports are collected while emitting and written
 * first, sorted and grouped (standard library, torch, the runtime module),
 * so only what the code uses is imported.
 *
 * Run-time representation: a TernaryTensor or another quantized tensor is a
 * runtime QTensor (codes, scale, zero point); other tensors are
 * torch.Tensor; scalars are Python numbers. A ternary weight of a layer is
 * registered with register_ternary (latent parameter, packed uint8 buffer,
 * scale) and read with self.ternary_weight(name), which ternarizes the
 * latent weight through the STE in training mode and unpacks the buffer in
 * eval mode (runtime module, TernaryModule).
 */
#include "target/torch/torch.h"

#include "dialect/nn.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_COLS = 99, BIG_LITERAL = 48 };
enum { PREC_ADD = 60, PREC_MUL = 70, PREC_UNARY = 80, PREC_ATOM = 100 };

/* ---- imports ------------------------------------------------------------------ */

enum { IMP_MATH = 1, IMP_TORCH = 2, IMP_F = 4, IMP_NN = 8 };

/* The runtime's exports, in the order the import line lists them. */
#define RT_NAMES(X)                                                                      \
    X(QTENSOR, "QTensor") X(MODULE, "TernaryModule") X(DEQUANTIZE, "dequantize")           \
    X(FAKE_QUANTIZE, "fake_quantize") X(LAYER_NORM, "layer_norm") X(PACK, "pack_ternary")  \
    X(QUANT_INT4, "quantize_int4") X(QUANT_INT8, "quantize_int8")                          \
    X(QUANT_PC, "quantize_per_channel") X(QUANT_TERNARY, "quantize_ternary")               \
    X(RANDOM_TERNARY, "random_ternary") X(RMS_NORM, "rms_norm") X(SCALAR_OP, "scalar_op")  \
    X(TERNARY, "ternary") X(TERNARY_CONV2D, "ternary_conv2d")                              \
    X(TERNARY_LINEAR, "ternary_linear") X(TERNARY_MAP, "ternary_map")                      \
    X(UNPACK, "unpack_ternary")
enum {
#define X(id, name) RT_##id,
    RT_NAMES(X)
#undef X
        RT_COUNT
};
static const char *const rt_names[RT_COUNT] = {
#define X(id, name) name,
    RT_NAMES(X)
#undef X
};

/* Names the generated code relies on: never used for a program's names.
 * Sorted (strcmp order): looked up by binary search. */
static const char *const py_reserved[] = {
    "F", "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "float", "for", "from",
    "global", "if", "import", "in", "int", "is", "lambda", "math", "max", "nn", "nonlocal", "not",
    "or", "pass", "print", "raise", "return", "self", "super", "torch", "try", "while", "with",
    "yield",
};

/* nn.Module (and TernaryModule) attributes a state or method name must not
 * replace. Sorted (strcmp order). */
static const char *const module_attrs[] = {
    "add_module", "apply", "bfloat16", "buffers", "call_super_init", "children", "cpu", "cuda",
    "double", "dump_patches", "eval", "extra_repr", "float", "forward", "freeze", "get_buffer",
    "get_extra_state", "get_parameter", "get_submodule", "half", "ipu", "load_state_dict",
    "modules", "named_buffers", "named_children", "named_modules", "named_parameters",
    "parameters", "quantized", "register_backward_hook", "register_buffer",
    "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_load_state_dict_post_hook", "register_module",
    "register_parameter", "register_quantized", "register_ternary", "requires_grad_",
    "set_extra_state", "share_memory", "state_dict", "ternary_weight", "to", "to_empty", "train",
    "training", "type", "xpu", "zero_grad",
};

static int cmp_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Whether s is in the sorted list of n names. */
static bool in_sorted(const char *const *list, size_t n, const char *s) {
    return bsearch(&s, list, n, sizeof *list, cmp_name) != NULL;
}

#define IS_RESERVED(s) in_sorted(py_reserved, sizeof py_reserved / sizeof *py_reserved, (s))
#define IS_MODULE_ATTR(s) in_sorted(module_attrs, sizeof module_attrs / sizeof *module_attrs, (s))
#define IS_RUNTIME_NAME(s) in_sorted(rt_names, RT_COUNT, (s))

/* ---- emitter state ------------------------------------------------------------ */

typedef struct FnMeta {
    const char *name, *kind; /* "function" or "class" */
    char *params, *methods;  /* JSON strings, comma-separated; methods for classes */
} FnMeta;

typedef struct ValInfo {
    const char *name;  /* a local, parameter or global name once bound */
    bool inline_expr;  /* rendered into its user */
} ValInfo;

typedef struct Emitter {
    Context *c;
    Arena *arena;
    DiagEngine *de;
    Op *module;
    const char *source;
    unsigned imports;
    bool rt_used[RT_COUNT];
    Map gnames;        /* interned IR symbol -> Python global name */
    Map taken_globals; /* interned Python name -> non-NULL */
    Map lattrs;        /* the layer being written: interned .tri name -> attribute */
    StrBuf consts;     /* module-level literal lists */
    int nconsts;
    VEC(struct FnMeta) meta; /* what was defined, for the JSON metadata */
    bool failed;
} Emitter;

/* One Python function body being written. */
typedef struct Fn {
    Map info;          /* Value* -> ValInfo* */
    Map taken;         /* interned Python name -> non-NULL: locals in use */
    StrBuf *out;
    int indent;
    const char *temp_prefix;
    int ntemps;
    Op *layer;         /* the nn.layer of a method or constructor */
    bool ctor;
    const char *global; /* the global being initialised (module level) */
} Fn;

static void use_rt(Emitter *E, int id) { E->rt_used[id] = true; }

static const char *intern_s(Emitter *E, const char *s) { return ctx_intern(E->c, s); }

static void emit_error(Emitter *E, Op *op, const char *msg) {
    if (!E->failed) op_error(E->de, op, "cannot emit PyTorch for '%s': %s", op_name(op), msg);
    E->failed = true;
}

/* ---- names -------------------------------------------------------------------- */

/* A Python identifier for `want`, not reserved, not in `taken` (nor in the
 * module's globals when `avoid_globals`); recorded as taken. */
static const char *unique_name(Emitter *E, Map *taken, const char *want, bool avoid_globals) {
    char buf[160];
    size_t n = 0;
    for (const char *p = want; *p && n < sizeof buf - 16; p++)
        buf[n++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
    if (n == 0 || isdigit((unsigned char)buf[0])) {
        memmove(buf + 1, buf, n);
        buf[0] = '_';
        n++;
    }
    buf[n] = 0;
    if (IS_RESERVED(buf) || IS_RUNTIME_NAME(buf)) {
        buf[n++] = '_';
        buf[n] = 0;
    }
    size_t base = n;
    for (int k = 1;; k++) {
        const char *s = intern_s(E, buf);
        if (!map_get(taken, MAP_KEY(s)) && !(avoid_globals && map_get(&E->taken_globals, MAP_KEY(s)))) {
            map_put(taken, MAP_KEY(s), (void *)s);
            return s;
        }
        snprintf(buf + base, sizeof buf - base, "_%d", k);
    }
}

/* The attribute under which a layer stores state or a method `name`: the
 * one plan_layer_attrs chose for the layer being written. */
static const char *attr_name(Emitter *E, const char *name) {
    const char *a = map_get(&E->lattrs, MAP_KEY(intern_s(E, name)));
    if (a) return a;
    if (!IS_MODULE_ATTR(name) && !IS_RESERVED(name) && name[0] != '_') return name;
    return arena_printf(E->arena, "%s_", name);
}

/* Chooses the attributes of one name of a layer: `name` itself, with a '_'
 * appended while it or one of the attributes the runtime derives from it
 * (a ternary weight W is W_packed, W_scale and W_latent; a quantized tensor
 * Q is Q_values, Q_scale and Q_zero_point) is taken, reserved, an nn.Module
 * attribute, or starts with '_' (nn.Module's private attributes). */
static void plan_attr(Emitter *E, Map *taken, const char *name, int kind) {
    static const char *const suffixes[][3] = {{"_packed", "_scale", "_latent"},
                                              {"_values", "_scale", "_zero_point"}};
    const char *tname = intern_s(E, name);
    if (map_get(&E->lattrs, MAP_KEY(tname))) return;
    const char *cand = tname;
    if (IS_MODULE_ATTR(cand) || IS_RESERVED(cand) || cand[0] == '_') cand = arena_printf(E->arena, "%s_", cand);
    for (;;) {
        const char *names[4] = {intern_s(E, cand), NULL, NULL, NULL};
        for (int i = 0; kind >= 0 && i < 3; i++)
            names[i + 1] = intern_s(E, arena_printf(E->arena, "%s%s", cand, suffixes[kind][i]));
        bool clash = false;
        for (int i = 0; i < 4 && names[i]; i++) clash |= map_get(taken, MAP_KEY(names[i])) != NULL;
        if (!clash) {
            for (int i = 0; i < 4 && names[i]; i++) map_put(taken, MAP_KEY(names[i]), (void *)names[i]);
            map_put(&E->lattrs, MAP_KEY(tname), (void *)names[0]);
            return;
        }
        cand = arena_printf(E->arena, "%s_", cand);
    }
}

/* Plans every attribute of `layer` (its parameters, state, sub-layers and
 * methods) so that no two of them, nor the runtime's derived buffers, share
 * a name: a .tri layer may call its members W and W_scale. */
static void plan_layer_attrs(Emitter *E, Op *layer) {
    Map taken = {0};
    map_free(&E->lattrs);
    memset(&E->lattrs, 0, sizeof E->lattrs);
    const char *fwd = intern_s(E, "forward");
    map_put(&taken, MAP_KEY(fwd), (void *)fwd);
    map_put(&E->lattrs, MAP_KEY(fwd), (void *)fwd);
    Block *b = layer->regions[0].first;
    for (int i = 0; i < b->nargs; i++)
        if (b->args[i]->name) plan_attr(E, &taken, b->args[i]->name, -1);
    for (Op *op = b->first; op; op = op->next) {
        if (op->kind != NN_PARAM && op->kind != NN_SUBLAYER) continue;
        const char *k = op->kind == NN_PARAM ? op_attr_str(op, "kind") : NULL;
        NnStateKind sk = k ? nn_state_kind_lookup(k) : NN_S_COUNT;
        plan_attr(E, &taken, op_attr_str(op, "name"), sk == NN_S_TERNARY ? 0 : sk == NN_S_QUANTIZED ? 1 : -1);
    }
    for (Op *f = module_body(E->module)->first; f; f = f->next) {
        const char *owner = f->kind == TT_FUNC ? op_attr_str(f, "layer") : NULL;
        if (owner && strcmp(owner, op_attr_str(layer, "sym_name")) == 0)
            plan_attr(E, &taken, op_attr_str(f, "method"), -1);
    }
    map_free(&taken);
}

static const char *global_name(Emitter *E, const char *sym) {
    const char *g = map_get(&E->gnames, MAP_KEY(intern_s(E, sym)));
    return g ? g : sym;
}

static ValInfo *info_of(Fn *F, Value *v) { return map_get(&F->info, MAP_KEY(v)); }

/* ---- literals ------------------------------------------------------------------ */

/* The shortest decimal that reads back as v in the type's precision. */
static void fmt_float(Emitter *E, double v, FloatKind fk, StrBuf *out, int *prec) {
    *prec = v < 0 || signbit(v) ? PREC_UNARY : PREC_ATOM;
    if (isnan(v)) {
        E->imports |= IMP_MATH;
        sb_puts(out, "math.nan");
        *prec = PREC_ATOM;
        return;
    }
    if (isinf(v)) {
        E->imports |= IMP_MATH;
        sb_puts(out, v < 0 ? "-math.inf" : "math.inf");
        return;
    }
    char buf[40];
    bool single = fk != FK_F64;
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, v);
        double back = strtod(buf, NULL);
        if (single ? (float)back == (float)v : back == v) break;
    }
    sb_puts(out, buf);
    if (!strpbrk(buf, ".eni")) sb_puts(out, ".0");
}

static const char *torch_dtype(Type *elem) {
    if (elem->kind == TY_FLOAT) return elem->fkind == FK_F16 ? "torch.float16" : elem->fkind == FK_F64 ? "torch.float64" : "torch.float32";
    if (elem->sign == UNSIGNED && elem->width <= 8) return "torch.uint8";
    if (elem->width <= 8) return "torch.int8";
    if (elem->width <= 16) return "torch.int16";
    if (elem->width <= 32) return "torch.int32";
    return "torch.int64";
}

static void fmt_scalar_attr(Emitter *E, Attr *a, Type *t, StrBuf *out, int *prec) {
    if (a->kind == ATTR_FLOAT) {
        fmt_float(E, a->f, t && t->kind == TY_FLOAT ? t->fkind : FK_F64, out, prec);
        return;
    }
    int64_t v = a->kind == ATTR_BOOL ? a->b : a->i;
    if (t && t->kind == TY_FLOAT) {
        fmt_float(E, (double)v, t->fkind, out, prec);
        return;
    }
    if (t && t->kind == TY_INT && t->sign == UNSIGNED) v = (int64_t)int_wrap_u(v, t->width);
    sb_printf(out, "%lld", (long long)v);
    *prec = v < 0 ? PREC_UNARY : PREC_ATOM;
}

static void fmt_dims(StrBuf *out, const Type *t) {
    for (int i = 0; i < t->rank; i++) sb_printf(out, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
}

/* A dense constant: torch.tensor(list, dtype).reshape(dims), ternary-wrapped
 * for trits; long lists become a module-level constant. */
static void fmt_dense(Emitter *E, Attr *a, StrBuf *out) {
    Type *t = a->type;
    int64_t n = ty_numel(t);
    bool trit = nn_is_ternary(t);
    E->imports |= IMP_TORCH;
    if (trit) {
        use_rt(E, RT_TERNARY);
        sb_puts(out, "ternary(");
    }
    if (a->dense.nvals == 1 && n != 1) {
        int prec;
        sb_puts(out, "torch.full((");
        fmt_dims(out, t);
        sb_puts(out, t->rank == 1 ? ",), " : "), ");
        if (a->dense.floats) fmt_float(E, a->dense.floats[0], t->elem->fkind, out, &prec);
        else if (t->elem->sign == UNSIGNED) sb_printf(out, "%llu", (unsigned long long)int_wrap_u(a->dense.ints[0], t->elem->width));
        else sb_printf(out, "%lld", (long long)a->dense.ints[0]);
        sb_printf(out, ", dtype=%s)", torch_dtype(t->elem));
    } else {
        StrBuf list = {0};
        sb_putc(&list, '[');
        for (int64_t i = 0; i < n; i++) {
            int prec;
            if (i) sb_puts(&list, ", ");
            if (a->dense.floats) fmt_float(E, a->dense.floats[i], t->elem->fkind, &list, &prec);
            else if (t->elem->sign == UNSIGNED) sb_printf(&list, "%llu", (unsigned long long)int_wrap_u(a->dense.ints[i], t->elem->width));
            else sb_printf(&list, "%lld", (long long)a->dense.ints[i]);
        }
        sb_putc(&list, ']');
        sb_puts(out, "torch.tensor(");
        if (list.len > BIG_LITERAL) {
            sb_printf(&E->consts, "_CONST_%d = %s\n", E->nconsts, sb_cstr(&list));
            sb_printf(out, "_CONST_%d", E->nconsts++);
        } else {
            sb_puts(out, sb_cstr(&list));
        }
        sb_free(&list);
        sb_printf(out, ", dtype=%s)", torch_dtype(t->elem));
        if (t->rank != 1) {
            sb_puts(out, ".reshape(");
            if (t->rank == 0) sb_puts(out, "()");
            fmt_dims(out, t);
            sb_putc(out, ')');
        }
    }
    if (trit) sb_putc(out, ')');
}

/* ---- expressions ---------------------------------------------------------------- */

static int render_value(Emitter *E, Fn *F, Value *v, StrBuf *out);

/* v rendered with parentheses when its precedence is below min_prec. */
static void operand(Emitter *E, Fn *F, Value *v, int min_prec, StrBuf *out) {
    StrBuf tmp = {0};
    int p = render_value(E, F, v, &tmp);
    if (p < min_prec) sb_printf(out, "(%s)", sb_cstr(&tmp));
    else sb_puts(out, sb_cstr(&tmp));
    sb_free(&tmp);
}

/* An operand of arithmetic: the codes of a quantized tensor. int4 codes
 * (0..15) are held in uint8 at run time; they are read as int8, the torch
 * type of int4, so that `q - 3` does not wrap around 0 and `q + q8` stays
 * int8 (torch promotes uint8 with int8 to int16). */
static void arith_operand(Emitter *E, Fn *F, Value *v, int min_prec, StrBuf *out) {
    if (nn_is_quantized(v->type)) {
        operand(E, F, v, PREC_ATOM, out);
        sb_puts(out, ".values");
        if (nn_type_scheme(v->type) == NN_Q_INT4) {
            E->imports |= IMP_TORCH;
            sb_puts(out, ".to(torch.int8)");
        }
    } else {
        operand(E, F, v, min_prec, out);
    }
}

/* The start of a shape op or relu applied to x: "ternary_map(FN, x" for a
 * TernaryTensor (a QTensor at run time: FN maps its trits and the scale is
 * kept), else "FN(x" (a quantized tensor's codes). The caller appends the
 * other arguments and the ')'. */
static void tensor_fn_open(Emitter *E, Fn *F, Value *x, const char *fn, StrBuf *out) {
    E->imports |= IMP_TORCH;
    if (nn_is_ternary(x->type)) {
        use_rt(E, RT_TERNARY_MAP);
        sb_printf(out, "ternary_map(%s, ", fn);
        operand(E, F, x, 0, out);
    } else {
        sb_printf(out, "%s(", fn);
        arith_operand(E, F, x, 0, out);
    }
}

/* A float tensor operand of an op whose result has the float element type
 * `elem`: cast when its own differs. torch promotes float16 with float32 to
 * float32 (or refuses, in F.linear and F.conv2d), where the language keeps
 * the input's type (add_bias, matmul, the norms of a float16 x). */
static void float_operand(Emitter *E, Fn *F, Value *v, Type *elem, int min_prec, StrBuf *out) {
    if (ty_is_tensor(v->type) && !nn_is_quantized(v->type) && ty_is_float(ty_elem(v->type)) && elem &&
        ty_is_float(elem) && ty_elem(v->type) != elem) {
        E->imports |= IMP_TORCH;
        operand(E, F, v, PREC_ATOM, out);
        sb_printf(out, ".to(%s)", torch_dtype(elem));
        return;
    }
    operand(E, F, v, min_prec, out);
}

static void args(Emitter *E, Fn *F, Op *op, int from, int to, StrBuf *out) {
    for (int i = from; i < to; i++) {
        if (i > from) sb_puts(out, ", ");
        operand(E, F, op_operand(op, i), 0, out);
    }
}

/* A shape from operands [from, noperands): "(a, b)" or "(a,)". */
static void shape_tuple(Emitter *E, Fn *F, Op *op, int from, StrBuf *out) {
    sb_putc(out, '(');
    args(E, F, op, from, op->noperands, out);
    if (op->noperands - from == 1) sb_putc(out, ',');
    sb_putc(out, ')');
}

static bool is_scalar(Value *v) { return !ty_is_tensor(v->type); }

/* The callee of a tt.call. */
static Op *callee_of(Emitter *E, Op *call) {
    const char *name = op_attr_str(call, "callee");
    return name ? module_lookup_func(E->module, name) : NULL;
}

static int render_activation(Emitter *E, Fn *F, Op *op, const char *tensor_fn, int imp, StrBuf *out) {
    Value *x = op_operand(op, 0);
    E->imports |= imp;
    if (is_scalar(x)) {
        use_rt(E, RT_SCALAR_OP);
        E->imports |= IMP_TORCH;
        sb_printf(out, "scalar_op(%s, ", tensor_fn);
        operand(E, F, x, 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    }
    sb_printf(out, "%s(", tensor_fn);
    arith_operand(E, F, x, ty_is_float(ty_elem(x->type)) ? 0 : PREC_ATOM, out);
    if (!ty_is_float(ty_elem(x->type))) sb_puts(out, ".float()");
    sb_putc(out, ')');
    return PREC_ATOM;
}

/* Renders the expression computing op's (single) result; returns its precedence. */
static int render_op(Emitter *E, Fn *F, Op *op, StrBuf *out) {
    Value *x = op->noperands ? op_operand(op, 0) : NULL;
    Type *rt = op->nresults ? op->results[0].type : NULL;
    switch (op->kind) {
    case ARITH_CONSTANT: {
        Attr *a = op_attr(op, "value");
        int prec = PREC_ATOM;
        if (a && a->kind == ATTR_DENSE) fmt_dense(E, a, out);
        else if (a) fmt_scalar_attr(E, a, rt, out, &prec);
        return prec;
    }
    case NN_GLOBAL_REF: sb_puts(out, global_name(E, op_attr_str(op, "name"))); return PREC_ATOM;
    case NN_STATE: {
        const char *name = op_attr_str(op, "name");
        switch (nn_state_kind_lookup(op_attr_str(op, "kind"))) {
        case NN_S_TERNARY: sb_printf(out, "self.ternary_weight(\"%s\")", attr_name(E, name)); break;
        case NN_S_QUANTIZED: sb_printf(out, "self.quantized(\"%s\")", attr_name(E, name)); break;
        default: sb_printf(out, "self.%s", attr_name(E, name)); break;
        }
        return PREC_ATOM;
    }
    case NN_CALL_LAYER:
        sb_printf(out, "self.%s(", attr_name(E, op_attr_str(op, "name")));
        args(E, F, op, 0, op->noperands, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case TT_CALL: {
        Op *f = callee_of(E, op);
        const char *method = f ? op_attr_str(f, "method") : NULL;
        if (method) sb_printf(out, "self.%s(", attr_name(E, method));
        else sb_printf(out, "%s(", global_name(E, op_attr_str(op, "callee")));
        args(E, F, op, 0, op->noperands, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    }
    case NN_RANDOM_TERNARY:
        use_rt(E, RT_RANDOM_TERNARY);
        sb_puts(out, "random_ternary(");
        shape_tuple(E, F, op, 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_RANDN:
    case NN_ZEROS:
    case NN_ONES:
        E->imports |= IMP_TORCH;
        sb_printf(out, "torch.%s(", op->kind == NN_RANDN ? "randn" : op->kind == NN_ZEROS ? "zeros" : "ones");
        if (op->noperands == 0) sb_puts(out, "()");
        args(E, F, op, 0, op->noperands, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_ADD:
    case NN_SUB:
    case NN_MUL:
    case NN_DIV:
    case NN_MATMUL: {
        static const char *const sym[] = {[NN_ADD] = "+", [NN_SUB] = "-", [NN_MUL] = "*", [NN_DIV] = "/",
                                          [NN_MATMUL] = "@"};
        int prec = op->kind == NN_ADD || op->kind == NN_SUB ? PREC_ADD : PREC_MUL;
        bool wrap = nn_is_ternary(rt);
        if (wrap) {
            use_rt(E, RT_TERNARY);
            sb_puts(out, "ternary(");
        }
        /* torch.matmul does not promote: an operand of another element
         * type (trits, int8 with float32, float16 with float32) is cast to
         * the result's. The trits of a ternary weight are floats in
         * training mode (the STE's output) and int8 in eval mode, so they
         * are cast to a result type other than float32 in the other ops
         * too: W + W is int8 (a trit counts as int8) and W * h of a
         * float16 h is float16 in both modes. */
        for (int i = 0; i < 2; i++) {
            Value *v = op_operand(op, i);
            /* torch promotes uint8 with int8 to int16, where the language
             * gives int8: an unsigned operand is cast to the result's type */
            bool cast = !wrap && ty_is_tensor(v->type) && ty_is_tensor(rt) &&
                        (op->kind == NN_MATMUL
                             ? nn_is_quantized(v->type) || ty_elem(v->type) != ty_elem(rt)
                             : nn_is_ternary(v->type) ? !(ty_is_float(ty_elem(rt)) && ty_elem(rt)->fkind == FK_F32)
                                                      : ty_elem(v->type)->kind == TY_INT &&
                                                            ty_elem(v->type)->sign == UNSIGNED &&
                                                            ty_elem(v->type) != ty_elem(rt));
            if (i) sb_printf(out, " %s ", sym[op->kind]);
            if (cast) {
                E->imports |= IMP_TORCH;
                arith_operand(E, F, v, PREC_ATOM, out);
                sb_printf(out, ".to(%s)", torch_dtype(ty_elem(rt)));
            } else if (ty_is_tensor(rt) && !wrap && !nn_is_quantized(v->type)) {
                float_operand(E, F, v, ty_elem(rt), i ? prec + 1 : prec, out);
            } else {
                arith_operand(E, F, v, i ? prec + 1 : prec, out);
            }
        }
        if (wrap) sb_putc(out, ')');
        return wrap ? PREC_ATOM : prec;
    }
    case NN_NEG:
        /* a TernaryTensor stays one (QTensor negation keeps the scale); the
         * other quantized tensors negate their codes, as arithmetic reads
         * them (the checker types -q as the codes' integer type) */
        sb_putc(out, '-');
        if (nn_is_quantized(x->type) && !nn_is_ternary(x->type)) arith_operand(E, F, x, PREC_UNARY, out);
        else operand(E, F, x, PREC_UNARY, out);
        return PREC_UNARY;
    case NN_CAST:
        if (ty_is_tensor(rt)) {
            if (ty_elem(rt) == ty_elem(x->type)) return render_value(E, F, x, out);
            E->imports |= IMP_TORCH;
            operand(E, F, x, PREC_ATOM, out);
            sb_printf(out, ".to(%s)", torch_dtype(ty_elem(rt)));
            return PREC_ATOM;
        }
        if (ty_is_float(rt) == ty_is_float(x->type)) return render_value(E, F, x, out);
        sb_puts(out, ty_is_float(rt) ? "float(" : "int(");
        operand(E, F, x, 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_LINEAR:
        E->imports |= IMP_F;
        sb_puts(out, "F.linear(");
        operand(E, F, x, 0, out);
        sb_puts(out, ", ");
        float_operand(E, F, op_operand(op, 1), ty_elem(rt), 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_TERNARY_MATMUL:
        use_rt(E, RT_TERNARY_LINEAR);
        sb_puts(out, "ternary_linear(");
        args(E, F, op, 0, 2, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_CONV2D:
    case NN_TERNARY_CONV2D: {
        if (op->kind == NN_CONV2D) {
            E->imports |= IMP_F;
            sb_puts(out, "F.conv2d(");
        } else {
            use_rt(E, RT_TERNARY_CONV2D);
            sb_puts(out, "ternary_conv2d(");
        }
        operand(E, F, x, 0, out);
        sb_puts(out, ", ");
        float_operand(E, F, op_operand(op, 1), ty_elem(rt), 0, out);
        int64_t s = nn_attr_int(op, "stride", 1), p = nn_attr_int(op, "padding", 0);
        if (s != 1) sb_printf(out, ", stride=%lld", (long long)s);
        if (p != 0) sb_printf(out, ", padding=%lld", (long long)p);
        sb_putc(out, ')');
        return PREC_ATOM;
    }
    case NN_RELU:
        if (is_scalar(x)) {
            sb_puts(out, "max(");
            operand(E, F, x, 0, out);
            sb_puts(out, ty_is_float(rt) ? ", 0.0)" : ", 0)");
            return PREC_ATOM;
        }
        tensor_fn_open(E, F, x, "torch.relu", out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_GELU: return render_activation(E, F, op, "F.gelu", IMP_F, out);
    case NN_SILU: return render_activation(E, F, op, "F.silu", IMP_F, out);
    case NN_SIGMOID: return render_activation(E, F, op, "torch.sigmoid", IMP_TORCH, out);
    case NN_TANH: return render_activation(E, F, op, "torch.tanh", IMP_TORCH, out);
    case NN_SOFTMAX:
        E->imports |= IMP_TORCH;
        sb_puts(out, "torch.softmax(");
        operand(E, F, x, 0, out);
        sb_printf(out, ", dim=%lld)", (long long)nn_attr_int(op, "axis", -1));
        return PREC_ATOM;
    case NN_LAYER_NORM:
    case NN_RMS_NORM: {
        bool ln = op->kind == NN_LAYER_NORM, w = op_attr(op, "has_weight"), b = op_attr(op, "has_bias");
        use_rt(E, ln ? RT_LAYER_NORM : RT_RMS_NORM);
        sb_puts(out, ln ? "layer_norm(" : "rms_norm(");
        operand(E, F, x, 0, out);
        int next = 2;
        sb_puts(out, ", ");
        if (w) float_operand(E, F, op_operand(op, next++), ty_elem(rt), 0, out);
        else sb_puts(out, "None");
        if (ln) {
            sb_puts(out, ", ");
            if (b) float_operand(E, F, op_operand(op, next++), ty_elem(rt), 0, out);
            else sb_puts(out, "None");
        }
        sb_puts(out, ", ");
        operand(E, F, op_operand(op, 1), 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    }
    case NN_MAX_POOL2D:
    case NN_AVG_POOL2D:
        E->imports |= IMP_F;
        sb_puts(out, op->kind == NN_MAX_POOL2D ? "F.max_pool2d(" : "F.avg_pool2d(");
        operand(E, F, x, 0, out);
        sb_printf(out, ", %lld)", (long long)nn_attr_int(op, "kernel", 2));
        return PREC_ATOM;
    case NN_FLATTEN:
        tensor_fn_open(E, F, x, "torch.flatten", out);
        sb_printf(out, ", %lld)", (long long)nn_attr_int(op, "axis", 1));
        return PREC_ATOM;
    case NN_RESHAPE:
        tensor_fn_open(E, F, x, "torch.reshape", out);
        sb_puts(out, ", ");
        shape_tuple(E, F, op, 1, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_TRANSPOSE:
        tensor_fn_open(E, F, x, "torch.transpose", out);
        sb_printf(out, ", %lld, %lld)", (long long)nn_attr_int(op, "dim0", -2), (long long)nn_attr_int(op, "dim1", -1));
        return PREC_ATOM;
    case NN_QUANTIZE: {
        NnScheme s = nn_scheme_lookup(op_attr_str(op, "scheme"));
        static const int fns[] = {[NN_Q_TERNARY] = RT_QUANT_TERNARY, [NN_Q_INT8] = RT_QUANT_INT8,
                                  [NN_Q_INT4] = RT_QUANT_INT4, [NN_Q_PER_CHANNEL] = RT_QUANT_PC};
        if (s == NN_Q_COUNT) break;
        use_rt(E, fns[s]);
        sb_printf(out, "%s(", rt_names[fns[s]]);
        args(E, F, op, 0, op->noperands, out);
        if (s == NN_Q_PER_CHANNEL) sb_printf(out, ", %lld", (long long)nn_attr_int(op, "axis", 0));
        sb_putc(out, ')');
        return PREC_ATOM;
    }
    case NN_FAKE_QUANTIZE: {
        NnScheme s = nn_scheme_lookup(op_attr_str(op, "scheme"));
        if (s == NN_Q_COUNT) break;
        use_rt(E, RT_FAKE_QUANTIZE);
        sb_puts(out, "fake_quantize(");
        operand(E, F, x, 0, out);
        sb_printf(out, ", \"%s\"", nn_scheme_names[s]);
        if (s == NN_Q_TERNARY) {
            sb_puts(out, ", ");
            operand(E, F, op_operand(op, 1), 0, out);
        }
        if (s == NN_Q_PER_CHANNEL) sb_printf(out, ", axis=%lld", (long long)nn_attr_int(op, "axis", 0));
        sb_putc(out, ')');
        return PREC_ATOM;
    }
    case NN_DEQUANTIZE:
        use_rt(E, RT_DEQUANTIZE);
        sb_puts(out, "dequantize(");
        operand(E, F, x, 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_PACK_TERNARY:
        use_rt(E, RT_PACK);
        sb_puts(out, "pack_ternary(");
        operand(E, F, x, 0, out);
        sb_putc(out, ')');
        return PREC_ATOM;
    case NN_UNPACK_TERNARY:
        use_rt(E, RT_TERNARY);
        use_rt(E, RT_UNPACK);
        sb_puts(out, "ternary(unpack_ternary(");
        operand(E, F, x, 0, out);
        sb_puts(out, ", ");
        shape_tuple(E, F, op, 1, out);
        sb_puts(out, "))");
        return PREC_ATOM;
    default: break;
    }
    emit_error(E, op, "no Python form for this op");
    sb_puts(out, "None");
    return PREC_ATOM;
}

static int render_value(Emitter *E, Fn *F, Value *v, StrBuf *out) {
    ValInfo *vi = info_of(F, v);
    if (vi && vi->name) {
        sb_puts(out, vi->name);
        return PREC_ATOM;
    }
    if (v->def && (!vi || vi->inline_expr)) return render_op(E, F, v->def, out);
    emit_error(E, v->def ? v->def : F->layer, "a value used before it is defined");
    sb_puts(out, "None");
    return PREC_ATOM;
}

/* ---- statements ------------------------------------------------------------------ */

static void indent(Fn *F, StrBuf *out) {
    for (int i = 0; i < F->indent; i++) sb_putc(out, ' ');
}

/* Writes `line` (no newline) indented by `ind`, wrapping what exceeds the
 * limit at the commas of its first bracket, with a hanging indent. */
static void write_wrapped(StrBuf *out, int ind, const char *line) {
    size_t len = strlen(line);
    const char *open = NULL;
    if ((size_t)ind + len > MAX_COLS) open = strpbrk(line, "([");
    const char *close = NULL;
    if (open) { /* the matching bracket */
        int depth = 0;
        bool str = false;
        for (const char *p = open; *p; p++) {
            if (*p == '"') str = !str;
            if (str) continue;
            if (*p == '(' || *p == '[') depth++;
            if (*p == ')' || *p == ']') {
                if (--depth == 0) {
                    close = p;
                    break;
                }
            }
        }
    }
    if (!open || !close || close == open + 1) {
        for (int i = 0; i < ind; i++) sb_putc(out, ' ');
        sb_puts(out, line);
        sb_putc(out, '\n');
        return;
    }
    for (int i = 0; i < ind; i++) sb_putc(out, ' ');
    sb_putn(out, line, (size_t)(open - line) + 1);
    sb_putc(out, '\n');
    /* split the inside at depth-1 commas */
    int col = 0, depth = 0;
    bool str = false;
    const char *item = open + 1;
    for (const char *p = open + 1; p <= close; p++) {
        if (p < close && *p == '"') str = !str;
        if (p < close && !str) {
            if (*p == '(' || *p == '[') depth++;
            if (*p == ')' || *p == ']') depth--;
        }
        if (p == close || (!str && depth == 0 && *p == ',')) {
            const char *end = p == close ? p : p + 1; /* keep the comma */
            while (*item == ' ') item++;
            size_t n = (size_t)(end - item);
            size_t tail = p == close ? strlen(close) : 0;
            if (col > 0 && col + 1 + (int)n + (int)tail > MAX_COLS) {
                sb_putc(out, '\n');
                col = 0;
            }
            if (col == 0) {
                for (int i = 0; i < ind + 4; i++) sb_putc(out, ' ');
                col = ind + 4;
            } else {
                sb_putc(out, ' ');
                col++;
            }
            sb_putn(out, item, n);
            col += (int)n;
            item = end;
        }
    }
    sb_puts(out, close);
    sb_putc(out, '\n');
}

typedef enum StmtKind { ST_ASSIGN, ST_EXPR, ST_RETURN, ST_PARAM, ST_SUBLAYER, ST_GLOBAL } StmtKind;

static void bind_value(Emitter *E, Fn *F, Value *v);

/* The text of the statement for op (without indent). */
static void stmt_text(Emitter *E, Fn *F, StmtKind kind, Op *op, const char *lhs, StrBuf *out) {
    switch (kind) {
    case ST_ASSIGN:
        sb_printf(out, "%s = ", lhs);
        render_op(E, F, op, out);
        return;
    case ST_EXPR: render_op(E, F, op, out); return;
    case ST_RETURN:
        sb_puts(out, "return");
        if (op->noperands) {
            sb_putc(out, ' ');
            operand(E, F, op_operand(op, 0), 0, out);
        }
        return;
    case ST_GLOBAL:
        sb_printf(out, "%s = ", lhs);
        operand(E, F, op_operand(op, 0), 0, out);
        return;
    case ST_SUBLAYER:
        sb_printf(out, "self.%s = %s(", attr_name(E, op_attr_str(op, "name")),
                  global_name(E, op_attr_str(op, "layer")));
        args(E, F, op, 0, op->noperands, out);
        sb_putc(out, ')');
        return;
    case ST_PARAM: {
        const char *name = attr_name(E, op_attr_str(op, "name"));
        Value *v = op_operand(op, 0);
        /* a Parameter or buffer must own its storage: copy a value that
         * another state entry, a global or a view may share */
        bool fresh = v->def != NULL;
        for (Use *u = v->uses; u && fresh; u = u->next)
            if (u->owner != op && (u->owner->kind == NN_PARAM || u->owner->kind == NN_YIELD)) fresh = false;
        if (fresh) switch (v->def->kind) {
            case NN_GLOBAL_REF:
            case NN_CAST:
            case NN_RESHAPE:
            case NN_FLATTEN:
            case NN_TRANSPOSE:
            case TT_CALL: fresh = false; break;
            default: break;
            }
        switch (nn_state_kind_lookup(op_attr_str(op, "kind"))) {
        case NN_S_TERNARY:
            sb_printf(out, "self.register_ternary(\"%s\", ", name);
            operand(E, F, v, 0, out);
            sb_putc(out, ')');
            return;
        case NN_S_QUANTIZED:
            sb_printf(out, "self.register_quantized(\"%s\", ", name);
            operand(E, F, v, 0, out);
            sb_putc(out, ')');
            return;
        case NN_S_PARAMETER:
            E->imports |= IMP_NN;
            sb_printf(out, "self.%s = nn.Parameter(", name);
            operand(E, F, v, fresh ? 0 : PREC_ATOM, out);
            sb_puts(out, fresh ? ")" : ".clone())");
            return;
        case NN_S_BUFFER:
            sb_printf(out, "self.register_buffer(\"%s\", ", name);
            operand(E, F, v, fresh ? 0 : PREC_ATOM, out);
            sb_puts(out, fresh ? ")" : ".clone())");
            return;
        default:
            sb_printf(out, "self.%s = ", name);
            operand(E, F, v, 0, out);
            return;
        }
    }
    }
}

/* The deferred operand of op whose rendering is longest (NULL if none). */
static Value *longest_inline_operand(Emitter *E, Fn *F, Op *op) {
    Value *best = NULL;
    size_t best_len = 0;
    for (int i = 0; i < op->noperands; i++) {
        Value *v = op_operand(op, i);
        ValInfo *vi = info_of(F, v);
        if (!vi || vi->name || !vi->inline_expr || !v->def || v->def->kind == ARITH_CONSTANT) continue;
        StrBuf t = {0};
        render_op(E, F, v->def, &t);
        if (t.len > best_len) best_len = t.len, best = v;
        sb_free(&t);
    }
    return best;
}

/* Writes one statement, first spilling inlined operands while the line is
 * too long. */
static void write_stmt(Emitter *E, Fn *F, StmtKind kind, Op *op, const char *lhs) {
    StrBuf line = {0};
    for (;;) {
        line.len = 0;
        if (line.data) line.data[0] = 0;
        stmt_text(E, F, kind, op, lhs, &line);
        if (F->indent + (int)line.len <= MAX_COLS) break;
        Value *v = longest_inline_operand(E, F, op);
        if (!v) break;
        bind_value(E, F, v);
    }
    write_wrapped(F->out, F->indent, sb_cstr(&line));
    sb_free(&line);
}

/* A local name for v from its hint (a let's name; state reads in lower
 * case) or a fresh temporary. */
static const char *local_name(Emitter *E, Fn *F, Value *v) {
    if (v->name) {
        const char *want = v->name;
        if (v->def && v->def->kind == NN_STATE) {
            char *low = arena_strdup(E->arena, want);
            for (char *p = low; *p; p++) *p = (char)tolower((unsigned char)*p);
            want = low;
        }
        if (F->global) want = arena_printf(E->arena, "_%s_%s", F->global, want);
        return unique_name(E, &F->taken, want, true);
    }
    const char *want = arena_printf(E->arena, "%s%d", F->temp_prefix, F->ntemps++);
    return unique_name(E, &F->taken, want, true);
}

/* Emits `name = <v's op>` now and refers to v by that name from here on. */
static void bind_value(Emitter *E, Fn *F, Value *v) {
    ValInfo *vi = info_of(F, v);
    const char *name = local_name(E, F, v);
    write_stmt(E, F, ST_ASSIGN, v->def, name);
    vi->name = name;
    vi->inline_expr = false;
}

/* ---- deciding what to inline ---------------------------------------------------------- */

static bool always_inline(Op *op) {
    switch (op->kind) {
    case ARITH_CONSTANT:
    case NN_GLOBAL_REF: return true;
    case NN_STATE: {
        NnStateKind k = nn_state_kind_lookup(op_attr_str(op, "kind"));
        return k != NN_S_TERNARY && k != NN_S_QUANTIZED;
    }
    case NN_CAST: return ty_is_tensor(op->results[0].type) && ty_elem(op->results[0].type) == ty_elem(op_operand(op, 0)->type);
    default: return false;
    }
}

/* Whether the one user of op's result can take it inline: same block, and
 * no effect between them when op has one. */
static bool inlinable(Fn *F, Op *op) {
    Value *v = &op->results[0];
    if (!v->uses || v->uses->next) return false;
    Op *user = v->uses->owner;
    if (user->parent != op->parent) return false;
    if (v->name) {
        /* a let keeps its name, except as the initial value of its own
         * state entry or global */
        const char *n = NULL;
        if (user->kind == NN_PARAM || user->kind == NN_SUBLAYER) n = op_attr_str(user, "name");
        if (user->kind == NN_YIELD && F->global) n = F->global;
        if (!n || strcmp(n, v->name) != 0) return false;
    }
    if (!op_has_flag(op, OPF_PURE)) {
        for (Op *o = op->next; o && o != user; o = o->next)
            if (!op_has_flag(o, OPF_PURE)) return false;
    }
    return true;
}

static void plan_block(Emitter *E, Fn *F, Block *b) {
    for (Op *op = b->first; op; op = op->next) {
        for (int i = 0; i < op->nresults; i++) {
            ValInfo *vi = ARENA_NEW(E->arena, ValInfo);
            vi->inline_expr = op->nresults == 1 && (always_inline(op) || inlinable(F, op));
            map_put(&F->info, MAP_KEY(&op->results[i]), vi);
        }
    }
}

/* Emits the ops of block b (a function, constructor or global body). */
static void emit_block(Emitter *E, Fn *F, Block *b) {
    size_t start = F->out->len;
    plan_block(E, F, b);
    for (Op *op = b->first; op && !E->failed; op = op->next) {
        if (op->nresults == 1) {
            ValInfo *vi = info_of(F, &op->results[0]);
            if (vi->inline_expr) continue;
            if (!op->results[0].uses) {
                if (!op_has_flag(op, OPF_PURE)) write_stmt(E, F, ST_EXPR, op, NULL);
                continue;
            }
            bind_value(E, F, &op->results[0]);
            continue;
        }
        if (op->nresults > 1) {
            emit_error(E, op, "ops with several results are not supported");
            return;
        }
        switch (op->kind) {
        case TT_RETURN:
            if (op->noperands || op->next) write_stmt(E, F, ST_RETURN, op, NULL);
            break;
        case NN_YIELD:
            if (F->global && op->noperands) write_stmt(E, F, ST_GLOBAL, op, F->global);
            break;
        case NN_PARAM: write_stmt(E, F, ST_PARAM, op, NULL); break;
        case NN_SUBLAYER: write_stmt(E, F, ST_SUBLAYER, op, NULL); break;
        default: write_stmt(E, F, ST_EXPR, op, NULL); break;
        }
    }
    if (F->out->len == start && !F->global) {
        indent(F, F->out);
        sb_puts(F->out, "pass\n");
    }
}

static void fn_init(Emitter *E, Fn *F, StrBuf *out, int ind) {
    (void)E;
    memset(F, 0, sizeof *F);
    F->out = out;
    F->indent = ind;
    F->temp_prefix = "t";
}

static void fn_free(Fn *F) {
    map_free(&F->info);
    map_free(&F->taken);
}

/* Binds block arguments to parameter names; writes "a, b" to sig. */
static void bind_params(Emitter *E, Fn *F, Block *b, StrBuf *sig, StrBuf *json) {
    for (int i = 0; i < b->nargs; i++) {
        Value *a = b->args[i];
        const char *name = unique_name(E, &F->taken, a->name ? a->name : "arg", true);
        ValInfo *vi = ARENA_NEW(E->arena, ValInfo);
        vi->name = name;
        map_put(&F->info, MAP_KEY(a), vi);
        sb_printf(sig, ", %s", name);
        if (json) sb_printf(json, "%s\"%s\"", i ? ", " : "", name);
    }
}

/* ---- top level -------------------------------------------------------------------------- */

/* The file name without its folders (generated code names no paths). */
static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void add_meta(Emitter *E, const char *name, const char *kind, StrBuf *params, StrBuf *methods) {
    FnMeta m = {name, kind, tc_strdup(sb_cstr(params)), methods ? tc_strdup(sb_cstr(methods)) : NULL};
    vec_push(&E->meta, m);
}

/* [{"name": ..., "kind": ..., "line": ..., "params": [...]}, ...] with the
 * line of each definition in the final code. */
static void write_meta(Emitter *E, const char *code, StrBuf *json) {
    sb_putc(json, '[');
    for (int i = 0; i < E->meta.len; i++) {
        FnMeta *m = &E->meta.data[i];
        char pat[256];
        snprintf(pat, sizeof pat, "\n%s %s(", strcmp(m->kind, "class") == 0 ? "class" : "def", m->name);
        const char *at = strstr(code, pat);
        int line = 0;
        if (at) {
            line = 2;
            for (const char *q = code; q < at; q++) line += *q == '\n';
        }
        sb_printf(json, "%s{\"name\": \"%s\", \"kind\": \"%s\", \"line\": %d, \"params\": [%s]", i ? ", " : "",
                  m->name, m->kind, line, m->params);
        if (m->methods) sb_printf(json, ", \"methods\": [%s]", m->methods);
        sb_putc(json, '}');
    }
    sb_putc(json, ']');
}

static void emit_fn(Emitter *E, Op *f, StrBuf *out) {
    Fn F;
    fn_init(E, &F, out, 4);
    StrBuf sig = {0}, params = {0};
    Block *b = func_entry(f);
    bind_params(E, &F, b, &sig, &params);
    const char *name = global_name(E, func_name(f));
    add_meta(E, name, "function", &params, NULL);
    sb_printf(out, "def %s(%s):\n", name, sig.len ? sb_cstr(&sig) + 2 : "");
    if (f->loc.file) sb_printf(out, "    \"\"\"fn %s, %s:%d.\"\"\"\n", func_name(f), base_name(f->loc.file), f->loc.line);
    emit_block(E, &F, b);
    fn_free(&F);
    sb_free(&sig);
    sb_free(&params);
}

static void emit_method(Emitter *E, Op *f, StrBuf *out, StrBuf *methods) {
    Fn F;
    fn_init(E, &F, out, 8);
    map_put(&F.taken, MAP_KEY(intern_s(E, "self")), (void *)"self");
    StrBuf sig = {0};
    Block *b = func_entry(f);
    bind_params(E, &F, b, &sig, NULL);
    const char *m = op_attr_str(f, "method");
    const char *py = strcmp(m, "forward") == 0 ? m : attr_name(E, m);
    sb_printf(methods, "%s\"%s\"", methods->len ? ", " : "", py);
    sb_printf(out, "\n    def %s(self%s):\n", py, sb_cstr(&sig));
    emit_block(E, &F, b);
    fn_free(&F);
    sb_free(&sig);
}

static void emit_layer(Emitter *E, Op *layer, StrBuf *out) {
    const char *name = global_name(E, op_attr_str(layer, "sym_name"));
    Block *b = layer->regions[0].first;
    Fn F;
    plan_layer_attrs(E, layer);
    fn_init(E, &F, out, 8);
    F.layer = layer;
    F.ctor = true;
    map_put(&F.taken, MAP_KEY(intern_s(E, "self")), (void *)"self");
    StrBuf sig = {0}, params = {0}, methods = {0};
    bind_params(E, &F, b, &sig, &params);
    use_rt(E, RT_MODULE);
    sb_printf(out, "class %s(TernaryModule):\n", name);
    sb_printf(out, "    \"\"\"Layer %s(%s)", op_attr_str(layer, "sym_name"), sig.len ? sb_cstr(&sig) + 2 : "");
    if (layer->loc.file) sb_printf(out, ", %s:%d", base_name(layer->loc.file), layer->loc.line);
    sb_puts(out, ".\"\"\"\n\n");
    sb_printf(out, "    def __init__(self%s):\n", sb_cstr(&sig));
    sb_puts(out, "        super().__init__()\n");
    for (int i = 0; i < b->nargs; i++) {
        const char *p = info_of(&F, b->args[i])->name;
        sb_printf(out, "        self.%s = %s\n", attr_name(E, b->args[i]->name ? b->args[i]->name : p), p);
    }
    emit_block(E, &F, b);
    fn_free(&F);
    for (Op *f = module_body(E->module)->first; f; f = f->next) {
        const char *owner = f->kind == TT_FUNC ? op_attr_str(f, "layer") : NULL;
        if (owner && strcmp(owner, op_attr_str(layer, "sym_name")) == 0) emit_method(E, f, out, &methods);
    }
    add_meta(E, name, "class", &params, &methods);
    sb_free(&sig);
    sb_free(&params);
    sb_free(&methods);
}

static void emit_global(Emitter *E, Op *g, StrBuf *out) {
    Fn F;
    fn_init(E, &F, out, 0);
    F.global = global_name(E, op_attr_str(g, "sym_name"));
    F.temp_prefix = arena_printf(E->arena, "_%s_t", F.global);
    emit_block(E, &F, g->regions[0].first);
    fn_free(&F);
}

/* Globals in dependency order (a global after those it reads). */
typedef VEC(Op *) OpList;

static void refs_walk(Op *op, void *ud) {
    if (op->kind == NN_GLOBAL_REF || op->kind == TT_CALL) vec_push((OpList *)ud, op);
}

static void order_global(Emitter *E, Op *g, Map *state, OpList *order) {
    uintptr_t st = (uintptr_t)map_get(state, MAP_KEY(g));
    if (st) return; /* 1 = in progress (a cycle the checker rejects), 2 = done */
    map_put(state, MAP_KEY(g), (void *)1);
    OpList refs = {0};
    op_walk(g, refs_walk, &refs, false);
    for (int i = 0; i < refs.len; i++) {
        if (refs.data[i]->kind != NN_GLOBAL_REF) continue;
        Op *dep = nn_lookup_global(E->module, op_attr_str(refs.data[i], "name"));
        if (dep) order_global(E, dep, state, order);
    }
    vec_free(&refs);
    map_put(state, MAP_KEY(g), (void *)2);
    vec_push(order, g);
}

/* Whether global g (or one it reads) calls a fn: then it must follow the fns. */
static bool global_calls(Emitter *E, Op *g, Map *memo, int depth) {
    uintptr_t m = (uintptr_t)map_get(memo, MAP_KEY(g));
    if (m) return m == 2;
    if (depth > 64) return true;
    OpList refs = {0};
    op_walk(g, refs_walk, &refs, false);
    bool calls = false;
    for (int i = 0; i < refs.len && !calls; i++) {
        if (refs.data[i]->kind == TT_CALL) calls = true;
        else {
            Op *dep = nn_lookup_global(E->module, op_attr_str(refs.data[i], "name"));
            calls = dep && global_calls(E, dep, memo, depth + 1);
        }
    }
    vec_free(&refs);
    map_put(memo, MAP_KEY(g), (void *)(uintptr_t)(calls ? 2 : 1));
    return calls;
}

/* Section separator: two blank lines between top-level definitions. */
static void separate(StrBuf *out) {
    if (out->len) sb_puts(out, "\n\n");
}

static void write_imports(Emitter *E, StrBuf *out, StrBuf *json) {
    int n = 0;
#define IMPORT(line)                                                                \
    do {                                                                            \
        sb_puts(out, line "\n");                                                    \
        if (json) sb_printf(json, "%s\"%s\"", n ? ", " : "", line);                 \
        n++;                                                                        \
    } while (0)
    if (E->imports & IMP_MATH) {
        IMPORT("import math");
        sb_putc(out, '\n');
    }
    if (E->imports & IMP_TORCH) IMPORT("import torch");
    if (E->imports & IMP_F) IMPORT("import torch.nn.functional as F");
    if (E->imports & IMP_NN) IMPORT("from torch import nn");
#undef IMPORT
    if (E->imports & (IMP_TORCH | IMP_F | IMP_NN)) sb_putc(out, '\n');
    StrBuf line = {0};
    sb_puts(&line, "from " TRI_TORCH_RUNTIME_MODULE " import ");
    int nrt = 0;
    for (int i = 0; i < RT_COUNT; i++)
        if (E->rt_used[i]) sb_printf(&line, "%s%s", nrt++ ? ", " : "", rt_names[i]);
    if (nrt) {
        if (line.len > MAX_COLS) { /* parenthesised, wrapped */
            StrBuf p = {0};
            sb_puts(&p, "from " TRI_TORCH_RUNTIME_MODULE " import (");
            sb_puts(&p, sb_cstr(&line) + strlen("from " TRI_TORCH_RUNTIME_MODULE " import "));
            sb_putc(&p, ')');
            write_wrapped(out, 0, sb_cstr(&p));
            sb_free(&p);
        } else {
            sb_printf(out, "%s\n", sb_cstr(&line));
        }
        if (json) sb_printf(json, "%s\"%s\"", n ? ", " : "", sb_cstr(&line));
    }
    sb_free(&line);
}

char *tri_emit_torch(Context *c, Op *module, const char *source, TorchEmitInfo *info, DiagEngine *de) {
    Emitter E = {.module = module, .de = de, .source = source};
    E.c = c;
    E.arena = c->arena;
    /* global Python names for every symbol */
    Block *body = module_body(module);
    for (Op *op = body->first; op; op = op->next) {
        const char *sym = op_attr_str(op, "sym_name");
        if (!sym || (op->kind == TT_FUNC && op_attr_str(op, "layer"))) continue;
        const char *py = unique_name(&E, &E.taken_globals, sym, false);
        map_put(&E.gnames, MAP_KEY(intern_s(&E, sym)), (void *)py);
    }
    StrBuf early = {0}, fns = {0}, late = {0}, classes = {0};
    /* globals: dependency order; after the fns when they call one */
    OpList order = {0};
    Map state = {0}, memo = {0};
    for (Op *op = body->first; op; op = op->next)
        if (op->kind == NN_GLOBAL) order_global(&E, op, &state, &order);
    for (int i = 0; i < order.len && !E.failed; i++)
        emit_global(&E, order.data[i], global_calls(&E, order.data[i], &memo, 0) ? &late : &early);
    for (Op *op = body->first; op && !E.failed; op = op->next) {
        if (op->kind == TT_FUNC && !op_attr_str(op, "layer")) {
            separate(&fns);
            emit_fn(&E, op, &fns);
        } else if (op->kind == NN_LAYER) {
            separate(&classes);
            emit_layer(&E, op, &classes);
        }
    }
    vec_free(&order);
    map_free(&state);
    map_free(&memo);
    char *result = NULL;
    if (!E.failed) {
        StrBuf out = {0}, imports = {0};
        const char *base = source ? strrchr(source, '/') : NULL;
        base = base ? base + 1 : source ? source : "a .tri program";
        sb_printf(&out, "\"\"\"PyTorch modules generated by tritonc from %s; do not edit.\n\n", base);
        sb_puts(&out, "Ternary weights are stored 2-bit packed (see " TRI_TORCH_RUNTIME_FILE ").\n\"\"\"\n");
        write_imports(&E, &imports, info ? &info->imports : NULL);
        if (imports.len) sb_printf(&out, "%s", sb_cstr(&imports));
        /* sections, two blank lines apart; long literal lists wrapped */
        StrBuf *sections[] = {&E.consts, &early, &fns, &late, &classes};
        for (int i = 0; i < 5; i++) {
            if (!sections[i]->len) continue;
            sb_puts(&out, "\n\n");
            if (sections[i] != &E.consts) {
                sb_puts(&out, sb_cstr(sections[i]));
                continue;
            }
            char *text = sb_take(&E.consts);
            for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
                nl = strchr(line, '\n');
                if (nl) *nl = 0;
                write_wrapped(&out, 0, line);
            }
            tc_free(text);
        }
        result = sb_take(&out);
        sb_free(&imports);
        if (info) write_meta(&E, result, &info->functions);
    }
    for (int i = 0; i < E.meta.len; i++) {
        tc_free(E.meta.data[i].params);
        tc_free(E.meta.data[i].methods);
    }
    vec_free(&E.meta);
    sb_free(&early);
    sb_free(&fns);
    sb_free(&late);
    sb_free(&classes);
    sb_free(&E.consts);
    map_free(&E.gnames);
    map_free(&E.taken_globals);
    map_free(&E.lattrs);
    return result;
}
