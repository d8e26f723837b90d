/* placeholder; replaced by the verifier commit */
#include "dialect/dialect.h"
#include <string.h>
const char *const tt_cache_names[] = {"none", "ca", "cg", "wb", "cs", "wt", "cv", NULL};
const char *const tt_evict_names[] = {"evict_normal", "evict_first", "evict_last", NULL};
const char *const tt_rmw_names[] = {"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch", NULL};
const char *const tt_sem_names[] = {"relaxed", "acquire", "release", "acq_rel", NULL};
const char *const tt_scope_names[] = {"gpu", "cta", "sys", NULL};
const char *const tt_precision_names[] = {"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6", NULL};
const char *const tt_rounding_names[] = {"rtz", "rtne", NULL};
const char *const tt_propnan_names[] = {"none", "all", NULL};
const char *const tt_axis_names[] = {"x", "y", "z", NULL};
int enum_lookup(const char *const *names, const char *s) {
    for (int i = 0; names[i]; i++) if (strcmp(names[i], s) == 0) return i;
    return -1;
}
bool verify_module(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_constant(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_int_binary(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_float_same(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_cmp(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_select(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_int_ext(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_int_trunc(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_float_ext(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_float_trunc(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_int_to_float(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_float_to_int(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_bitcast(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_index_cast(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_for(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_if(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_while(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_yield(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_condition(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_func(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_return(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_call(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_program_id(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_make_range(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_splat(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_broadcast(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_expand_dims(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_reshape(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_trans(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_join(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_split(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_addptr(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_load(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_store(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_reduce(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_scan(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_dot(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_atomic_rmw(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_atomic_cas(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_fp_to_fp(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_int_to_ptr(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
bool verify_ptr_to_int(Op *op, DiagEngine *de) { (void)op; (void)de; return true; }
