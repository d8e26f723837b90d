/*
 * builtin.c - the module's verifier and the helpers every dialect's
 * verifiers share (vfy_*: a check and its diagnostic in one call).
 *
 * A module holds functions (and nothing else that defines values), each
 * with a name of its own: symbols are found by name, so a duplicate would
 * make tt.call ambiguous.
 */
#include "dialect/dialect.h"

#include <string.h>

const char *vfy_tstr(DiagEngine *de, Type *t) {
    if (!t) return "<<null type>>";
    StrBuf sb = {0};
    ty_print(t, &sb);
    const char *s = arena_strdup(diag_arena(de), sb_cstr(&sb));
    sb_free(&sb);
    return s;
}

bool vfy_type_error(DiagEngine *de, Op *op, Type *t, const char *what) {
    op_error(de, op, "%s, but got '%s'", what, vfy_tstr(de, t));
    return false;
}

bool vfy_same_shape(DiagEngine *de, Op *op, Type *a, Type *b) {
    if (ty_same_shape(a, b)) return true;
    op_error(de, op, "requires the same shape for all operands and results, got '%s' and '%s'",
             vfy_tstr(de, a), vfy_tstr(de, b));
    return false;
}

bool vfy_same_types(DiagEngine *de, Op *op) {
    Type *t = op->nresults ? op->results[0].type : op_operand(op, 0)->type;
    for (int i = 0; i < op->noperands; i++)
        if (op_operand(op, i)->type != t) {
            op_error(de, op, "requires the same type for all operands and results, got '%s' and '%s'",
                     vfy_tstr(de, t), vfy_tstr(de, op_operand(op, i)->type));
            return false;
        }
    for (int i = 1; i < op->nresults; i++)
        if (op->results[i].type != t) {
            op_error(de, op, "requires the same type for all operands and results, got '%s' and '%s'",
                     vfy_tstr(de, t), vfy_tstr(de, op->results[i].type));
            return false;
        }
    return true;
}

Op *op_parent_module(Op *op) {
    for (Op *p = op_parent_op(op); p; p = op_parent_op(p))
        if (p->kind == BUILTIN_MODULE) return p;
    return NULL;
}

bool verify_module(Op *op, DiagEngine *de) {
    Attr *n = op_attr_k(op, AN_SYM_NAME);
    if (n && n->kind != ATTR_STRING) {
        op_error(de, op, "attribute 'sym_name' must be a string");
        return false;
    }
    Block *b = op->regions[0].first;
    if (b->nargs) {
        op_error(de, op, "body must have no arguments");
        return false;
    }
    bool ok = true;
    Map seen = {0};
    for (Op *o = b->first; o; o = o->next) {
        if (o->nresults) {
            op_error(de, o, "cannot define values at module level");
            ok = false;
        }
        if (o->kind != TT_FUNC) continue;
        const char *name = op_attr_str_k(o, AN_SYM_NAME);
        if (!name) continue; /* verify_func reports it */
        /* attribute strings are interned, so the pointer is the key */
        if (map_get(&seen, MAP_KEY(name))) {
            op_error(de, o, "redefinition of symbol named '%s'", name);
            ok = false;
        }
        map_put(&seen, MAP_KEY(name), o);
    }
    map_free(&seen);
    return ok;
}
