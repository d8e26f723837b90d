/*
 * tri.h - the public interface of the .tri front end.
 *
 * A .tri program (the ternary neural-network language, docs/tri-language.md)
 * goes through three calls:
 *
 *   TriProgram *p = tri_parse(arena, interner, diags, "model.tri", src, len);
 *   bool ok = tri_check(p, diags);     // annotates every TriExpr with a TriType
 *   tri_ast_dump(p, &sb);              // S-expression text, types included
 *
 * All nodes live in the caller's Arena; names are interned in the caller's
 * Interner (equal names, equal pointers). Errors are collected in the
 * DiagEngine (tri_parse registers the source so carets render); nothing is
 * printed and nothing exits. tri_parse always returns a program, possibly
 * partial, and tri_check may be run on it to collect more errors; lowering
 * should only run when neither reported an error.
 */
#ifndef TC_TRI_H
#define TC_TRI_H

#include "front/tri/tri_ast.h"

TriProgram *tri_parse(Arena *arena, Interner *interner, DiagEngine *de, const char *file,
                      const char *src, size_t len);
bool tri_check(TriProgram *prog, DiagEngine *de);
void tri_ast_dump(const TriProgram *prog, StrBuf *out);

/* Type helpers shared with lowering. */
void tri_type_print(const TriType *t, StrBuf *out);
const char *tri_dtype_name(TriDType dt);
bool tri_dtype_is_float(TriDType dt);
/* The built-in function table (tri_builtins.def). */
const char *tri_builtin_name(TriBuiltin b);
TriBuiltin tri_builtin_lookup(const char *name, size_t len); /* TRI_B_NONE if absent */

#endif
