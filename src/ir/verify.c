/* verify.c - placeholder until the verifier commit */
#include "dialect/dialect.h"
bool ir_verify(Op *root, DiagEngine *de) { (void)root; (void)de; return true; }
void op_error(DiagEngine *de, const Op *op, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(de, DIAG_ERROR, op->loc, 1, fmt, ap);
    va_end(ap);
}
