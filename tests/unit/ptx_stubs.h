/* Weak stand-ins for the IR verifiers and op_error until the IR text and
 * dialect files land on this branch; a real definition always wins. */
#include "dialect/dialect.h"
#include <stdio.h>
__attribute__((weak)) bool verify_addptr(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_atomic_cas(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_atomic_rmw(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_bitcast(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_broadcast(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_call(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_cmp(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_condition(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_constant(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_dot(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_expand_dims(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_float_ext(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_float_same(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_float_to_int(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_float_trunc(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_for(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_fp_to_fp(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_func(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_if(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_index_cast(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_int_binary(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_int_ext(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_int_to_float(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_int_to_ptr(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_int_trunc(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_join(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_load(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_make_range(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_module(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_program_id(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_ptr_to_int(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_reduce(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_reshape(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_return(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_scan(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_select(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_splat(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_split(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_store(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_trans(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_while(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) bool verify_yield(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
__attribute__((weak)) void op_error(DiagEngine *de, const Op *op, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(de, DIAG_ERROR, op ? op->loc : (Loc){0}, 1, fmt, ap);
    va_end(ap);
}
