/*
 * ast.c - helpers over the Python AST: operator spellings, the S-expression
 * dump (`tritonc compile --emit ast`, and what the parser tests compare
 * against), and py_find_function.
 *
 * The dump writes one statement per line, children indented by two spaces,
 * Lisp-style (closing parentheses at the end of the last line):
 *
 *   (module
 *     (import os (as triton.language tl))                   import os, triton.language as tl
 *     (def add (x_ptr (BLOCK : (. tl constexpr)) (n = 1))   a def and its params
 *       (decorator (. triton jit))
 *       (= pid (call (. tl program_id) (kw axis 0))))       a = b
 *     (if (cmp __name__ == "__main__")
 *       (pass)
 *     elif x                                                an elif chain, flat
 *       (pass)
 *     else
 *       (pass)))
 *
 * Expressions: names and numbers bare, strings quoted ("..", b"..", f".."),
 * (op a b) for binary and (op a) for unary operators, (cmp a < b <= c),
 * (and a b), (ifexp COND THEN ELSE), (. value attr), (call f args
 * (kw name value) (dstar kw)), (index value idx), (slice lo hi step) with _
 * for a missing part, (tuple ..), (list ..), (set ..), (dict (k v)
 * (dstar m)), (listcomp elt (for target iter (if c))), (star x),
 * (lambda (params ..) body), (yield x), (yield-from x), (:= name value).
 * Parameters: x, (x : T), (x = d), (x : T = d), and with a kind first:
 * (star args), (dstar kw), (kwonly x ...), (posonly x ...).
 */
#include "front/py/py.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *py_binop_str(PyBinOp op) {
    static const char *s[] = {"+", "-", "*", "@", "/", "//", "%", "**", "<<", ">>", "|", "^", "&"};
    return (unsigned)op < (unsigned)TC_ARRAY_LEN(s) ? s[op] : "?";
}
const char *py_unaryop_str(PyUnaryOp op) {
    static const char *s[] = {"-", "+", "~", "not"};
    return (unsigned)op < (unsigned)TC_ARRAY_LEN(s) ? s[op] : "?";
}
const char *py_cmpop_str(PyCmpOp op) {
    static const char *s[] = {"==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"};
    return (unsigned)op < (unsigned)TC_ARRAY_LEN(s) ? s[op] : "?";
}

/* ---- expressions ------------------------------------------------------------ */

/* The shortest text that reads back as the same double, Python-style
 * (always with a '.' or an exponent). */
static void dump_double(double v, StrBuf *out) {
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    sb_puts(out, buf);
    if (!strpbrk(buf, ".eEni")) sb_puts(out, ".0");
}

static void dump_string(const PyExpr *e, StrBuf *out) {
    if (e->str.flags & PY_STR_BYTES) sb_putc(out, 'b');
    if (e->str.flags & PY_STR_FSTRING) sb_putc(out, 'f');
    sb_putc(out, '"');
    for (size_t i = 0; i < e->str.len; i++) {
        unsigned char c = (unsigned char)e->str.data[i];
        switch (c) {
        case '"': sb_puts(out, "\\\""); break;
        case '\\': sb_puts(out, "\\\\"); break;
        case '\n': sb_puts(out, "\\n"); break;
        case '\t': sb_puts(out, "\\t"); break;
        case '\r': sb_puts(out, "\\r"); break;
        default:
            if (c < 0x20 || c >= 0x7f) sb_printf(out, "\\x%02x", c);
            else sb_putc(out, (char)c);
        }
    }
    sb_putc(out, '"');
}

static void dump_expr_or_blank(const PyExpr *e, StrBuf *out) {
    if (e) py_expr_dump(e, out);
    else sb_putc(out, '_');
}

static void dump_params(const PyParamList *ps, StrBuf *out) {
    sb_putc(out, '(');
    for (int i = 0; i < ps->len; i++) {
        const PyParam *p = &ps->items[i];
        if (i) sb_putc(out, ' ');
        static const char *kinds[] = {"posonly", NULL, "star", "kwonly", "dstar"};
        const char *k = kinds[p->kind];
        if (!k && !p->annotation && !p->default_value) {
            sb_puts(out, p->name);
            continue;
        }
        sb_putc(out, '(');
        if (k) sb_printf(out, "%s ", k);
        sb_puts(out, p->name);
        if (p->annotation) {
            sb_puts(out, " : ");
            py_expr_dump(p->annotation, out);
        }
        if (p->default_value) {
            sb_puts(out, " = ");
            py_expr_dump(p->default_value, out);
        }
        sb_putc(out, ')');
    }
    sb_putc(out, ')');
}

static void dump_list(const PyExprList *l, StrBuf *out) {
    for (int i = 0; i < l->len; i++) {
        sb_putc(out, ' ');
        py_expr_dump(l->items[i], out);
    }
}

static void dump_keywords(const PyKeyword *kws, int n, StrBuf *out) {
    for (int i = 0; i < n; i++) {
        if (kws[i].name) sb_printf(out, " (kw %s ", kws[i].name);
        else sb_puts(out, " (dstar ");
        py_expr_dump(kws[i].value, out);
        sb_putc(out, ')');
    }
}

void py_expr_dump(const PyExpr *e, StrBuf *out) {
    if (!e) {
        sb_puts(out, "<null>");
        return;
    }
    switch (e->kind) {
    case PY_EXPR_NAME: sb_puts(out, e->name); return;
    case PY_EXPR_INT:
        if (e->i.overflow) sb_puts(out, "<int-overflow>");
        else sb_printf(out, "%llu", (unsigned long long)e->i.value);
        return;
    case PY_EXPR_FLOAT: dump_double(e->f, out); return;
    case PY_EXPR_IMAG: dump_double(e->f, out); sb_putc(out, 'j'); return;
    case PY_EXPR_STR: dump_string(e, out); return;
    case PY_EXPR_NONE: sb_puts(out, "None"); return;
    case PY_EXPR_TRUE: sb_puts(out, "True"); return;
    case PY_EXPR_FALSE: sb_puts(out, "False"); return;
    case PY_EXPR_ELLIPSIS: sb_puts(out, "..."); return;
    case PY_EXPR_UNARY:
        sb_printf(out, "(%s ", py_unaryop_str(e->unary.op));
        py_expr_dump(e->unary.operand, out);
        break;
    case PY_EXPR_BINARY:
        sb_printf(out, "(%s ", py_binop_str(e->binary.op));
        py_expr_dump(e->binary.lhs, out);
        sb_putc(out, ' ');
        py_expr_dump(e->binary.rhs, out);
        break;
    case PY_EXPR_BOOL:
        sb_puts(out, e->boolop.op == PY_BOOL_AND ? "(and" : "(or");
        dump_list(&e->boolop.values, out);
        break;
    case PY_EXPR_COMPARE:
        sb_puts(out, "(cmp ");
        py_expr_dump(e->compare.first, out);
        for (int i = 0; i < e->compare.n; i++) {
            sb_printf(out, " %s ", py_cmpop_str(e->compare.ops[i]));
            py_expr_dump(e->compare.rest[i], out);
        }
        break;
    case PY_EXPR_IFEXP:
        sb_puts(out, "(ifexp ");
        py_expr_dump(e->ifexp.cond, out);
        sb_putc(out, ' ');
        py_expr_dump(e->ifexp.then, out);
        sb_putc(out, ' ');
        py_expr_dump(e->ifexp.orelse, out);
        break;
    case PY_EXPR_LAMBDA:
        sb_puts(out, "(lambda ");
        dump_params(&e->lambda.params, out);
        sb_putc(out, ' ');
        py_expr_dump(e->lambda.body, out);
        break;
    case PY_EXPR_CALL:
        sb_puts(out, "(call ");
        py_expr_dump(e->call.func, out);
        dump_list(&e->call.args, out);
        dump_keywords(e->call.keywords, e->call.nkeywords, out);
        break;
    case PY_EXPR_ATTR:
        sb_puts(out, "(. ");
        py_expr_dump(e->attr.value, out);
        sb_printf(out, " %s", e->attr.attr);
        break;
    case PY_EXPR_SUBSCRIPT:
        sb_puts(out, "(index ");
        py_expr_dump(e->subscript.value, out);
        sb_putc(out, ' ');
        py_expr_dump(e->subscript.index, out);
        break;
    case PY_EXPR_SLICE:
        sb_puts(out, "(slice ");
        dump_expr_or_blank(e->slice.lower, out);
        sb_putc(out, ' ');
        dump_expr_or_blank(e->slice.upper, out);
        sb_putc(out, ' ');
        dump_expr_or_blank(e->slice.step, out);
        break;
    case PY_EXPR_TUPLE:
    case PY_EXPR_LIST:
    case PY_EXPR_SET:
        sb_puts(out, e->kind == PY_EXPR_TUPLE ? "(tuple" : e->kind == PY_EXPR_LIST ? "(list" : "(set");
        dump_list(&e->seq.elts, out);
        break;
    case PY_EXPR_DICT:
        sb_puts(out, "(dict");
        for (int i = 0; i < e->dict.len; i++) {
            if (e->dict.keys[i]) {
                sb_puts(out, " (");
                py_expr_dump(e->dict.keys[i], out);
                sb_putc(out, ' ');
            } else {
                sb_puts(out, " (dstar ");
            }
            py_expr_dump(e->dict.values[i], out);
            sb_putc(out, ')');
        }
        break;
    case PY_EXPR_LISTCOMP:
    case PY_EXPR_SETCOMP:
    case PY_EXPR_DICTCOMP:
    case PY_EXPR_GENEXP: {
        static const char *names[] = {"(listcomp ", "(setcomp ", "(dictcomp ", "(genexp "};
        sb_puts(out, names[e->kind - PY_EXPR_LISTCOMP]);
        py_expr_dump(e->comp.elt, out);
        if (e->kind == PY_EXPR_DICTCOMP) {
            sb_putc(out, ' ');
            py_expr_dump(e->comp.value, out);
        }
        for (int i = 0; i < e->comp.ngens; i++) {
            const PyComprehension *c = &e->comp.gens[i];
            sb_puts(out, " (for ");
            py_expr_dump(c->target, out);
            sb_putc(out, ' ');
            py_expr_dump(c->iter, out);
            for (int j = 0; j < c->ifs.len; j++) {
                sb_puts(out, " (if ");
                py_expr_dump(c->ifs.items[j], out);
                sb_putc(out, ')');
            }
            sb_putc(out, ')');
        }
        break;
    }
    case PY_EXPR_STARRED:
        sb_puts(out, "(star ");
        py_expr_dump(e->value, out);
        break;
    case PY_EXPR_YIELD:
        sb_puts(out, "(yield");
        if (e->value) {
            sb_putc(out, ' ');
            py_expr_dump(e->value, out);
        }
        break;
    case PY_EXPR_YIELD_FROM:
        sb_puts(out, "(yield-from ");
        py_expr_dump(e->value, out);
        break;
    case PY_EXPR_NAMED:
        sb_puts(out, "(:= ");
        py_expr_dump(e->named.target, out);
        sb_putc(out, ' ');
        py_expr_dump(e->named.value, out);
        break;
    }
    sb_putc(out, ')');
}

/* ---- statements ------------------------------------------------------------- */

static void indent_to(int indent, StrBuf *out) {
    for (int i = 0; i < indent; i++) sb_puts(out, "  ");
}

static void dump_block(const PyBlock *b, int indent, StrBuf *out) {
    for (int i = 0; i < b->len; i++) {
        sb_putc(out, '\n');
        py_stmt_dump(b->items[i], indent, out);
    }
}

/* A clause keyword (else, finally, except ...) at the statement's level. */
static void dump_clause(const char *kw, const PyBlock *b, int indent, StrBuf *out) {
    sb_putc(out, '\n');
    indent_to(indent, out);
    sb_puts(out, kw);
    dump_block(b, indent + 1, out);
}

static void dump_alias(const PyAlias *a, StrBuf *out) {
    if (a->asname) sb_printf(out, " (as %s %s)", a->name, a->asname);
    else sb_printf(out, " %s", a->name);
}

void py_stmt_dump(const PyStmt *s, int indent, StrBuf *out) {
    indent_to(indent, out);
    switch (s->kind) {
    case PY_STMT_EXPR:
        sb_puts(out, "(expr ");
        py_expr_dump(s->expr.value, out);
        break;
    case PY_STMT_ASSIGN:
        sb_puts(out, "(=");
        dump_list(&s->assign.targets, out);
        sb_putc(out, ' ');
        py_expr_dump(s->assign.value, out);
        break;
    case PY_STMT_AUGASSIGN:
        sb_printf(out, "(%s= ", py_binop_str(s->aug.op));
        py_expr_dump(s->aug.target, out);
        sb_putc(out, ' ');
        py_expr_dump(s->aug.value, out);
        break;
    case PY_STMT_ANNASSIGN:
        sb_puts(out, "(ann ");
        py_expr_dump(s->ann.target, out);
        sb_putc(out, ' ');
        py_expr_dump(s->ann.annotation, out);
        if (s->ann.value) {
            sb_putc(out, ' ');
            py_expr_dump(s->ann.value, out);
        }
        break;
    case PY_STMT_IF:
    case PY_STMT_WHILE:
        sb_puts(out, s->kind == PY_STMT_IF ? "(if " : "(while ");
        py_expr_dump(s->cond.test, out);
        dump_block(&s->cond.body, indent + 1, out);
        /* An elif chain is dumped flat (iteratively), as it is written, so
         * its dump stays linear in its length. */
        while (s->kind == PY_STMT_IF && s->cond.orelse.len == 1 &&
               s->cond.orelse.items[0]->cond.is_elif) {
            s = s->cond.orelse.items[0];
            sb_putc(out, '\n');
            indent_to(indent, out);
            sb_puts(out, "elif ");
            py_expr_dump(s->cond.test, out);
            dump_block(&s->cond.body, indent + 1, out);
        }
        if (s->cond.orelse.len) dump_clause("else", &s->cond.orelse, indent, out);
        break;
    case PY_STMT_FOR:
        sb_puts(out, "(for ");
        py_expr_dump(s->loop.target, out);
        sb_putc(out, ' ');
        py_expr_dump(s->loop.iter, out);
        dump_block(&s->loop.body, indent + 1, out);
        if (s->loop.orelse.len) dump_clause("else", &s->loop.orelse, indent, out);
        break;
    case PY_STMT_RETURN:
        sb_puts(out, "(return");
        if (s->expr.value) {
            sb_putc(out, ' ');
            py_expr_dump(s->expr.value, out);
        }
        break;
    case PY_STMT_PASS: sb_puts(out, "(pass"); break;
    case PY_STMT_BREAK: sb_puts(out, "(break"); break;
    case PY_STMT_CONTINUE: sb_puts(out, "(continue"); break;
    case PY_STMT_DEF: {
        const PyFunc *f = s->func;
        sb_printf(out, "(def %s ", f->name);
        dump_params(py_func_params(f), out);
        if (f->returns) {
            sb_puts(out, " -> ");
            py_expr_dump(f->returns, out);
        }
        for (int i = 0; i < f->decorators.len; i++) {
            sb_putc(out, '\n');
            indent_to(indent + 1, out);
            sb_puts(out, "(decorator ");
            py_expr_dump(f->decorators.items[i], out);
            sb_putc(out, ')');
        }
        dump_block(py_func_body(f), indent + 1, out);
        break;
    }
    case PY_STMT_CLASS: {
        const PyClass *c = s->cls;
        sb_printf(out, "(class %s", c->name);
        if (c->bases.len || c->nkeywords) {
            sb_puts(out, " (bases");
            dump_list(&c->bases, out);
            dump_keywords(c->keywords, c->nkeywords, out);
            sb_putc(out, ')');
        }
        for (int i = 0; i < c->decorators.len; i++) {
            sb_putc(out, '\n');
            indent_to(indent + 1, out);
            sb_puts(out, "(decorator ");
            py_expr_dump(c->decorators.items[i], out);
            sb_putc(out, ')');
        }
        dump_block(&c->body, indent + 1, out);
        break;
    }
    case PY_STMT_IMPORT:
        sb_puts(out, "(import");
        for (int i = 0; i < s->import.len; i++) dump_alias(&s->import.names[i], out);
        break;
    case PY_STMT_IMPORT_FROM:
        sb_puts(out, "(from ");
        for (int i = 0; i < s->import.level; i++) sb_putc(out, '.');
        if (s->import.module) sb_puts(out, s->import.module);
        for (int i = 0; i < s->import.len; i++) dump_alias(&s->import.names[i], out);
        break;
    case PY_STMT_GLOBAL:
    case PY_STMT_NONLOCAL:
        sb_puts(out, s->kind == PY_STMT_GLOBAL ? "(global" : "(nonlocal");
        for (int i = 0; i < s->names.len; i++) sb_printf(out, " %s", s->names.names[i]);
        break;
    case PY_STMT_DEL:
        sb_puts(out, "(del");
        dump_list(&s->del.targets, out);
        break;
    case PY_STMT_RAISE:
        sb_puts(out, "(raise");
        if (s->raise.exc) {
            sb_putc(out, ' ');
            py_expr_dump(s->raise.exc, out);
        }
        if (s->raise.cause) {
            sb_puts(out, " from ");
            py_expr_dump(s->raise.cause, out);
        }
        break;
    case PY_STMT_ASSERT:
        sb_puts(out, "(assert ");
        py_expr_dump(s->assertion.test, out);
        if (s->assertion.msg) {
            sb_putc(out, ' ');
            py_expr_dump(s->assertion.msg, out);
        }
        break;
    case PY_STMT_WITH:
        sb_puts(out, "(with");
        for (int i = 0; i < s->with.len; i++) {
            sb_putc(out, ' ');
            if (s->with.items[i].vars) {
                sb_putc(out, '(');
                py_expr_dump(s->with.items[i].context, out);
                sb_puts(out, " as ");
                py_expr_dump(s->with.items[i].vars, out);
                sb_putc(out, ')');
            } else {
                py_expr_dump(s->with.items[i].context, out);
            }
        }
        dump_block(&s->with.body, indent + 1, out);
        break;
    case PY_STMT_TRY:
        sb_puts(out, "(try");
        dump_block(&s->try.body, indent + 1, out);
        for (int i = 0; i < s->try.nhandlers; i++) {
            const PyHandler *h = &s->try.handlers[i];
            StrBuf kw = {0};
            sb_puts(&kw, "except");
            if (h->type) {
                sb_putc(&kw, ' ');
                py_expr_dump(h->type, &kw);
            }
            if (h->name) sb_printf(&kw, " as %s", h->name);
            dump_clause(sb_cstr(&kw), &h->body, indent, out);
            sb_free(&kw);
        }
        if (s->try.orelse.len) dump_clause("else", &s->try.orelse, indent, out);
        if (s->try.finalbody.len) dump_clause("finally", &s->try.finalbody, indent, out);
        break;
    }
    sb_putc(out, ')');
}

void py_ast_dump(const PyModule *m, StrBuf *out) {
    sb_puts(out, "(module");
    dump_block(&m->body, 1, out);
    sb_puts(out, ")\n");
}

/* ---- lookup ---------------------------------------------------------------- */

static const PyFunc *find_in_block(const PyBlock *b, const char *name, int depth) {
    if (depth > 64) return NULL;
    for (int i = 0; i < b->len; i++) {
        const PyStmt *s = b->items[i];
        const PyFunc *f = NULL;
        switch (s->kind) {
        case PY_STMT_DEF:
            if (strcmp(s->func->name, name) == 0) return s->func;
            break;
        case PY_STMT_IF:
            if (!(f = find_in_block(&s->cond.body, name, depth + 1)))
                f = find_in_block(&s->cond.orelse, name, depth + 1);
            break;
        case PY_STMT_WITH: f = find_in_block(&s->with.body, name, depth + 1); break;
        case PY_STMT_TRY:
            f = find_in_block(&s->try.body, name, depth + 1);
            for (int h = 0; !f && h < s->try.nhandlers; h++)
                f = find_in_block(&s->try.handlers[h].body, name, depth + 1);
            if (!f) f = find_in_block(&s->try.orelse, name, depth + 1);
            if (!f) f = find_in_block(&s->try.finalbody, name, depth + 1);
            break;
        default: break;
        }
        if (f) return f;
    }
    return NULL;
}

const PyFunc *py_find_function(const PyModule *m, const char *name) {
    if (!m || !name) return NULL;
    return find_in_block(&m->body, name, 0);
}
