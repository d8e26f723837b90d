/*
 * tri_ast.c - printing of .tri types and the AST dump, and the built-in
 * function table.
 *
 * The dump is an S-expression per declaration, indented by nesting, with
 * the checker's type after ':' on each expression once tri_check has run:
 *
 *   (let scale: float32 (float 0.5 : float32))
 *   (layer TernaryMLP (in_features: int) (hidden: int) -> Tensor[float32]
 *     (let W1: TernaryTensor (call random_ternary (list ...) : TernaryTensor[hidden, in_features]))
 *     (fn forward (x: Tensor[float32]) -> Tensor[float32]
 *       (return ...)))
 *
 * Types print in source syntax: float32, TernaryTensor[out, in],
 * Tensor[float32, [?, 64]] (dims: constant, symbol or '?'), Tensor[int8]
 * when the rank is unknown; quantization shows as {affine} etc.
 */
#include "front/tri/tri.h"

#include <string.h>

static const char *const dtype_names[] = {
    [TRI_DT_TRIT] = "trit",   [TRI_DT_INT4] = "int4",       [TRI_DT_UINT8] = "uint8",
    [TRI_DT_INT8] = "int8",   [TRI_DT_INT32] = "int32",     [TRI_DT_INT] = "int",
    [TRI_DT_FLOAT16] = "float16", [TRI_DT_FLOAT32] = "float32",
};

const char *tri_dtype_name(TriDType dt) { return dtype_names[dt]; }
bool tri_dtype_is_float(TriDType dt) { return dt == TRI_DT_FLOAT16 || dt == TRI_DT_FLOAT32; }

static const char *const builtin_names[] = {
#define TRI_BUILTIN(id, name, params, nreq, summary) name,
#include "front/tri/tri_builtins.def"
#undef TRI_BUILTIN
};

const char *tri_builtin_name(TriBuiltin b) { return b >= 0 && b < TRI_B_COUNT ? builtin_names[b] : "?"; }

TriBuiltin tri_builtin_lookup(const char *name, size_t len) {
    for (int i = 0; i < TRI_B_COUNT; i++)
        if (strlen(builtin_names[i]) == len && memcmp(builtin_names[i], name, len) == 0)
            return (TriBuiltin)i;
    return TRI_B_NONE;
}

static void print_dim(const TriDim *d, StrBuf *out) {
    if (d->sym) sb_puts(out, d->sym);
    else if (d->value >= 0) sb_printf(out, "%lld", (long long)d->value);
    else sb_putc(out, '?');
}

static void print_dims(const TriDim *dims, int n, bool ellipsis, StrBuf *out) {
    if (ellipsis) sb_puts(out, n ? "..., " : "...");
    for (int i = 0; i < n; i++) {
        if (i) sb_puts(out, ", ");
        print_dim(&dims[i], out);
    }
}

void tri_type_print(const TriType *t, StrBuf *out) {
    if (!t) {
        sb_puts(out, "<none>");
        return;
    }
    switch (t->kind) {
    case TRI_T_ERROR: sb_puts(out, "<error>"); break;
    case TRI_T_VOID: sb_puts(out, "void"); break;
    case TRI_T_SCALAR: sb_puts(out, tri_dtype_name(t->dtype)); break;
    case TRI_T_LAYER: sb_puts(out, t->layer ? t->layer->name : "<layer>"); break;
    case TRI_T_LIST:
        sb_printf(out, "List[%s, %d]", tri_dtype_name(t->dtype), t->rank);
        break;
    case TRI_T_TENSOR:
        if (t->dtype == TRI_DT_TRIT) {
            sb_puts(out, "TernaryTensor");
            if (!t->ellipsis || t->rank) {
                sb_putc(out, '[');
                print_dims(t->dims, t->rank, t->ellipsis, out);
                sb_putc(out, ']');
            }
        } else {
            sb_printf(out, "Tensor[%s", tri_dtype_name(t->dtype));
            if (!t->ellipsis || t->rank) {
                sb_puts(out, ", [");
                print_dims(t->dims, t->rank, t->ellipsis, out);
                sb_putc(out, ']');
            }
            sb_putc(out, ']');
        }
        break;
    }
}

static void print_quant(const TriType *t, StrBuf *out) {
    if (!t || t->kind != TRI_T_TENSOR) return;
    switch (t->quant) {
    case TRI_Q_NONE: break;
    case TRI_Q_TERNARY: sb_puts(out, "{scaled}"); break;
    case TRI_Q_AFFINE: sb_puts(out, "{affine}"); break;
    case TRI_Q_PER_CHANNEL: sb_printf(out, "{per_channel axis=%d}", t->quant_axis); break;
    }
}

static void dump_expr(const TriExpr *e, StrBuf *out);

static void dump_dim_exprs(TriExpr *const *dims, int n, bool ellipsis, StrBuf *out) {
    if (ellipsis) sb_puts(out, n ? "..., " : "...");
    for (int i = 0; i < n; i++) {
        if (i) sb_puts(out, ", ");
        if (!dims[i]) sb_putc(out, '?');
        else if (dims[i]->kind == TRI_EX_INT) sb_printf(out, "%lld", (long long)dims[i]->u.ival);
        else if (dims[i]->kind == TRI_EX_NAME) sb_puts(out, dims[i]->u.name.name);
        else dump_expr(dims[i], out);
    }
}

static void dump_type_expr(const TriTypeExpr *t, StrBuf *out) {
    if (!t) {
        sb_puts(out, "<bad type>");
        return;
    }
    switch (t->kind) {
    case TRI_TE_SCALAR: sb_puts(out, tri_dtype_name(t->dtype)); break;
    case TRI_TE_NAMED: sb_puts(out, t->name); break;
    case TRI_TE_TERNARY:
        sb_puts(out, "TernaryTensor");
        if (t->has_dims) {
            sb_putc(out, '[');
            dump_dim_exprs(t->dims, t->ndims, t->ellipsis, out);
            sb_putc(out, ']');
        }
        break;
    case TRI_TE_TENSOR:
        sb_printf(out, "Tensor[%s", tri_dtype_name(t->dtype));
        if (t->has_dims) {
            sb_puts(out, ", [");
            dump_dim_exprs(t->dims, t->ndims, t->ellipsis, out);
            sb_putc(out, ']');
        }
        sb_putc(out, ']');
        break;
    }
}

static void dump_expr(const TriExpr *e, StrBuf *out) {
    if (!e) {
        sb_puts(out, "<null>");
        return;
    }
    sb_putc(out, '(');
    switch (e->kind) {
    case TRI_EX_INT: sb_printf(out, "int %lld", (long long)e->u.ival); break;
    case TRI_EX_TRIT: sb_printf(out, "trit %lld", (long long)e->u.ival); break;
    case TRI_EX_FLOAT: sb_printf(out, "float %.9g", e->u.fval); break;
    case TRI_EX_NAME: sb_printf(out, "name %s", e->u.name.name); break;
    case TRI_EX_LIST:
        sb_puts(out, "list");
        for (int i = 0; i < e->u.list.n; i++) {
            sb_putc(out, ' ');
            dump_expr(e->u.list.elems[i], out);
        }
        break;
    case TRI_EX_TERNARY:
        sb_puts(out, "ternary [");
        dump_dim_exprs(e->u.tern.dims, e->u.tern.ndims, false, out);
        sb_putc(out, ']');
        for (int i = 0; i < e->u.tern.nvals; i++)
            sb_printf(out, " %lld", (long long)e->u.tern.vals[i]->u.ival);
        break;
    case TRI_EX_UNARY:
        sb_puts(out, "neg ");
        dump_expr(e->u.op.lhs, out);
        break;
    case TRI_EX_BINARY:
        sb_printf(out, "%c ", e->u.op.op);
        dump_expr(e->u.op.lhs, out);
        sb_putc(out, ' ');
        dump_expr(e->u.op.rhs, out);
        break;
    case TRI_EX_CALL:
        sb_printf(out, "call %s", e->u.call.callee);
        for (int i = 0; i < e->u.call.nargs; i++) {
            sb_putc(out, ' ');
            if (e->u.call.args[i].name) sb_printf(out, "%s=", e->u.call.args[i].name);
            dump_expr(e->u.call.args[i].value, out);
        }
        break;
    }
    if (e->type) {
        sb_puts(out, " : ");
        tri_type_print(e->type, out);
        print_quant(e->type, out);
    }
    sb_putc(out, ')');
}

static void indent(StrBuf *out, int depth) {
    for (int i = 0; i < depth; i++) sb_puts(out, "  ");
}

static void dump_signature(const TriDecl *d, StrBuf *out) {
    for (int i = 0; i < d->nparams; i++) {
        sb_printf(out, " (%s: ", d->params[i]->name);
        dump_type_expr(d->params[i]->ann, out);
        sb_putc(out, ')');
    }
    if (d->ret) {
        sb_puts(out, " -> ");
        dump_type_expr(d->ret, out);
    }
}

static void dump_decl(const TriDecl *d, StrBuf *out, int depth) {
    indent(out, depth);
    switch (d->kind) {
    case TRI_D_LET:
    case TRI_D_PARAM:
        sb_printf(out, "(let %s", d->name);
        if (d->ann) {
            sb_puts(out, ": ");
            dump_type_expr(d->ann, out);
        }
        sb_putc(out, ' ');
        dump_expr(d->value, out);
        sb_putc(out, ')');
        break;
    case TRI_D_FN:
        sb_printf(out, "(fn %s", d->name);
        dump_signature(d, out);
        for (int i = 0; i < d->nbody; i++) {
            const TriStmt *s = d->body[i];
            sb_putc(out, '\n');
            if (s->kind == TRI_ST_LET) {
                dump_decl(s->let, out, depth + 1);
                continue;
            }
            indent(out, depth + 1);
            sb_puts(out, s->kind == TRI_ST_RETURN ? "(return" : "(expr");
            if (s->expr) {
                sb_putc(out, ' ');
                dump_expr(s->expr, out);
            }
            sb_putc(out, ')');
        }
        sb_putc(out, ')');
        break;
    case TRI_D_LAYER:
        sb_printf(out, "(layer %s", d->name);
        dump_signature(d, out);
        for (int i = 0; i < d->nmembers; i++) {
            sb_putc(out, '\n');
            dump_decl(d->members[i], out, depth + 1);
        }
        sb_putc(out, ')');
        break;
    }
}

void tri_ast_dump(const TriProgram *prog, StrBuf *out) {
    for (int i = 0; i < prog->ndecls; i++) {
        dump_decl(prog->decls[i], out, 0);
        sb_putc(out, '\n');
    }
}
