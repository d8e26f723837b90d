/*
 * fold.c - the folders named in the op tables' `fold` column.
 *
 * A folder looks at one op and the constant values of its operands (NULL
 * where an operand is not a constant) and says what the op's result is: a
 * constant (an Attr of the result's type) or an existing value. It never
 * edits the IR; canonicalize materialises constants and replaces uses.
 *
 * Semantics are exact, as a target would compute them:
 *
 *  - integers wrap at the type's width (values are stored sign-extended to
 *    64 bits; int_wrap / int_wrap_u give the signed and unsigned views);
 *    divisions and remainders by zero and INT_MIN / -1 are not folded (they
 *    are undefined: the op stays), nor are shifts by the width or more;
 *  - floats are computed in the type's precision: `float` arithmetic for
 *    f32, `double` for f64, and for f16, bf16 and f8 `double` followed by
 *    one rounding (float_round), which is exact because a double holds the
 *    exact sum, product or quotient of two such values to more than 2p+2
 *    bits. NaN and infinities propagate; -0.0 is kept distinct, so x + 0.0
 *    is not x (x = -0.0 gives +0.0) while x + -0.0 and x - 0.0 are.
 *
 * Constants may be scalars, splat tensors (`dense<1> : tensor<4xi32>`) or
 * full dense tensors; element-wise ops fold element by element and a result
 * whose elements are all equal is stored as a splat.
 */
#include "dialect/dialect.h"

#include <math.h>
#include <string.h>

/* ---- reading and building constants ----------------------------------------- */

static int64_t nvals(const Attr *a) { return a->kind == ATTR_DENSE ? a->dense.nvals : 1; }

static bool is_float_attr(const Attr *a) {
    return a->kind == ATTR_FLOAT || (a->kind == ATTR_DENSE && a->dense.floats);
}

static int64_t ival(const Attr *a, int64_t i) {
    switch (a->kind) {
    case ATTR_INT: return a->i;
    case ATTR_BOOL: return a->b;
    case ATTR_DENSE: return a->dense.ints ? a->dense.ints[a->dense.nvals == 1 ? 0 : i] : 0;
    default: return 0;
    }
}

static double fval(const Attr *a, int64_t i) {
    if (a->kind == ATTR_FLOAT) return a->f;
    if (a->kind == ATTR_DENSE && a->dense.floats) return a->dense.floats[a->dense.nvals == 1 ? 0 : i];
    return 0;
}

/* Bit width of an integer-like type (index is 64 bits). */
static int int_width(const Type *t) {
    t = ty_elem((Type *)t);
    return t->kind == TY_INT ? t->width : 64;
}

static Attr *make_ints(Context *c, Type *t, int64_t *v, int64_t n) {
    if (t->kind != TY_TENSOR) return attr_int(c, t, v[0]);
    bool splat = true;
    for (int64_t i = 1; i < n && splat; i++) splat = v[i] == v[0];
    return attr_dense_int(c, t, v, splat ? 1 : n);
}

static Attr *make_floats(Context *c, Type *t, double *v, int64_t n) {
    if (t->kind != TY_TENSOR) return attr_float(c, t, v[0]);
    bool splat = true;
    for (int64_t i = 1; i < n && splat; i++) splat = memcmp(&v[i], &v[0], sizeof(double)) == 0;
    return attr_dense_float(c, t, v, splat ? 1 : n);
}

static Attr *int_splat(Context *c, Type *t, int64_t v) { return make_ints(c, t, &v, 1); }

/* The single value of a splat (or scalar) integer constant. */
static bool splat_int(const Attr *a, int64_t *v) {
    if (!a || is_float_attr(a) || nvals(a) != 1) return false;
    *v = ival(a, 0);
    return true;
}

static bool splat_float(const Attr *a, double *v) {
    if (!a || !is_float_attr(a) || nvals(a) != 1) return false;
    *v = fval(a, 0);
    return true;
}

/* Number of elements of an element-wise result over operands a (and b). */
static int64_t result_count(const Attr *a, const Attr *b) {
    int64_t na = nvals(a), nb = b ? nvals(b) : 1;
    if (na != 1 && nb != 1 && na != nb) return -1;
    return na > nb ? na : nb;
}

static int64_t int_min(int w) { return w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1)); }

/* ---- integer arithmetic --------------------------------------------------------- */

/* One element of an integer binary op at width w; false when undefined. */
static bool eval_int(OpKind k, int64_t a, int64_t b, int w, int64_t *r) {
    int64_t sa = int_wrap(a, w), sb = int_wrap(b, w);
    uint64_t ua = int_wrap_u(a, w), ub = int_wrap_u(b, w);
    switch (k) {
    case ARITH_ADDI: *r = (int64_t)(ua + ub); return true;
    case ARITH_SUBI: *r = (int64_t)(ua - ub); return true;
    case ARITH_MULI: *r = (int64_t)(ua * ub); return true;
    case ARITH_DIVSI:
    case ARITH_REMSI:
    case ARITH_CEILDIVSI:
    case ARITH_FLOORDIVSI: {
        if (sb == 0 || (sb == -1 && sa == int_min(w))) return false;
        int64_t q = sa / sb, m = sa % sb; /* C truncates toward zero */
        if (k == ARITH_REMSI) *r = m;
        else if (k == ARITH_CEILDIVSI) *r = q + (m != 0 && ((sa < 0) == (sb < 0)));
        else if (k == ARITH_FLOORDIVSI) *r = q - (m != 0 && ((sa < 0) != (sb < 0)));
        else *r = q;
        return true;
    }
    case ARITH_DIVUI:
    case ARITH_REMUI:
        if (ub == 0) return false;
        *r = (int64_t)(k == ARITH_DIVUI ? ua / ub : ua % ub);
        return true;
    case ARITH_ANDI: *r = (int64_t)(ua & ub); return true;
    case ARITH_ORI: *r = (int64_t)(ua | ub); return true;
    case ARITH_XORI: *r = (int64_t)(ua ^ ub); return true;
    case ARITH_SHLI:
    case ARITH_SHRSI:
    case ARITH_SHRUI:
        if (ub >= (uint64_t)w) return false; /* poison */
        if (k == ARITH_SHLI) *r = (int64_t)(ua << ub);
        else if (k == ARITH_SHRUI) *r = (int64_t)(ua >> ub);
        else *r = sa >> ub; /* arithmetic shift (GCC/Clang semantics) */
        return true;
    case ARITH_MAXSI: *r = sa > sb ? sa : sb; return true;
    case ARITH_MINSI: *r = sa < sb ? sa : sb; return true;
    case ARITH_MAXUI: *r = (int64_t)(ua > ub ? ua : ub); return true;
    case ARITH_MINUI: *r = (int64_t)(ua < ub ? ua : ub); return true;
    case TT_MULHIUI:
        *r = (int64_t)(uint64_t)(((unsigned __int128)ua * ub) >> w);
        return true;
    default: return false;
    }
}

/* Folds with one constant operand (the right one: canonicalize moves
 * constants there) or equal operands. */
static bool int_identity(Context *c, Op *op, Value *x, Value *y, Attr *cy, Attr **out, Value **ov) {
    Type *t = op->results[0].type;
    int w = int_width(t);
    int64_t v;
    if (splat_int(cy, &v)) {
        int64_t sv = int_wrap(v, w);
        switch (op->kind) {
        case ARITH_ADDI:
        case ARITH_SUBI:
        case ARITH_ORI:
        case ARITH_XORI:
        case ARITH_SHLI:
        case ARITH_SHRSI:
        case ARITH_SHRUI:
        case ARITH_MAXUI:
            if (v == 0) return *ov = x, true;
            break;
        case ARITH_MULI:
            if (sv == 1 || (w == 1 && v)) return *ov = x, true;
            if (v == 0) return out[0] = int_splat(c, t, 0), true;
            break;
        case ARITH_DIVSI:
        case ARITH_DIVUI:
        case ARITH_CEILDIVSI:
        case ARITH_FLOORDIVSI:
            if (w > 1 && sv == 1) return *ov = x, true;
            break;
        case ARITH_REMSI:
        case ARITH_REMUI:
            if (w > 1 && sv == 1) return out[0] = int_splat(c, t, 0), true;
            break;
        case ARITH_ANDI:
            if (sv == -1) return *ov = x, true;
            if (v == 0) return out[0] = int_splat(c, t, 0), true;
            break;
        case ARITH_MINUI:
            if (v == 0) return out[0] = int_splat(c, t, 0), true;
            break;
        default: break;
        }
        if (op->kind == ARITH_ORI && sv == -1) return out[0] = int_splat(c, t, -1), true;
    }
    if (x == y) {
        switch (op->kind) {
        case ARITH_SUBI:
        case ARITH_XORI: return out[0] = int_splat(c, t, 0), true;
        case ARITH_ANDI:
        case ARITH_ORI:
        case ARITH_MAXSI:
        case ARITH_MINSI:
        case ARITH_MAXUI:
        case ARITH_MINUI: return *ov = x, true;
        default: break;
        }
    }
    return false;
}

/* (the folds themselves: out of line, so that the common exit below needs
 * no stack frame) */
static NOT_INLINE bool fold_int_arith_at(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Type *t = op->results[0].type;
    Attr *a = cs[0], *b = cs[1];
    if (a && b && !is_float_attr(a) && !is_float_attr(b)) {
        int64_t n = result_count(a, b);
        if (n < 0) return false;
        int64_t *r = tc_malloc(sizeof(int64_t) * (size_t)n);
        bool ok = true;
        for (int64_t i = 0; i < n && ok; i++) ok = eval_int(op->kind, ival(a, i), ival(b, i), int_width(t), &r[i]);
        if (ok) out[0] = make_ints(c, t, r, n);
        tc_free(r);
        return ok;
    }
    return int_identity(c, op, op_operand(op, 0), op_operand(op, 1), b, out, ov);
}

bool fold_int_arith(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    /* (most ops asked: no constant on the right and two operands, where
     * nothing folds) */
    if (!cs[1] && op_operand(op, 0) != op_operand(op, 1)) return false;
    return fold_int_arith_at(c, op, cs, out, ov);
}

/* ---- float arithmetic ------------------------------------------------------------- */

static double fmax_ieee(double a, double b, bool propagate_nan, bool is_max) {
    if (isnan(a) || isnan(b)) {
        if (propagate_nan) return NAN;
        return isnan(a) ? b : a;
    }
    if (a == 0 && b == 0) /* -0 < +0 */
        return is_max ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

static double eval_float(OpKind k, double a, double b, FloatKind fk) {
    if (fk == FK_F32) {
        float x = (float)a, y = (float)b;
        switch (k) {
        case ARITH_ADDF: return (double)(x + y);
        case ARITH_SUBF: return (double)(x - y);
        case ARITH_MULF: return (double)(x * y);
        case ARITH_DIVF:
        case TT_PRECISE_DIVF: return (double)(x / y);
        case ARITH_REMF: return (double)fmodf(x, y);
        default: break;
        }
    } else {
        switch (k) {
        case ARITH_ADDF: return a + b;
        case ARITH_SUBF: return a - b;
        case ARITH_MULF: return a * b;
        case ARITH_DIVF:
        case TT_PRECISE_DIVF: return a / b;
        case ARITH_REMF: return fmod(a, b);
        default: break;
        }
    }
    switch (k) {
    case ARITH_MAXIMUMF: return fmax_ieee(a, b, true, true);
    case ARITH_MINIMUMF: return fmax_ieee(a, b, true, false);
    case ARITH_MAXNUMF: return fmax_ieee(a, b, false, true);
    case ARITH_MINNUMF: return fmax_ieee(a, b, false, false);
    default: return NAN;
    }
}

bool fold_float_arith(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Attr *a = cs[0], *b = cs[1];
    if (!b) return false; /* (every fold below reads a constant on the right) */
    Type *t = op->results[0].type;
    FloatKind fk = ty_elem(t)->fkind;
    if (a && b && is_float_attr(a) && is_float_attr(b)) {
        int64_t n = result_count(a, b);
        if (n < 0) return false;
        double *r = tc_malloc(sizeof(double) * (size_t)n);
        for (int64_t i = 0; i < n; i++) r[i] = eval_float(op->kind, fval(a, i), fval(b, i), fk);
        out[0] = make_floats(c, t, r, n); /* rounds f16/bf16/f8 once */
        tc_free(r);
        return true;
    }
    double v;
    if (!splat_float(b, &v)) return false;
    Value *x = op_operand(op, 0);
    switch (op->kind) {
    case ARITH_ADDF: /* x + -0.0 == x for every x; x + 0.0 is not (-0.0 + 0.0 = +0.0) */
        if (v == 0 && signbit(v)) return *ov = x, true;
        break;
    case ARITH_SUBF: /* x - +0.0 == x for every x */
        if (v == 0 && !signbit(v)) return *ov = x, true;
        break;
    case ARITH_MULF:
    case ARITH_DIVF:
        if (v == 1.0) return *ov = x, true;
        break;
    default: break;
    }
    return false;
}

bool fold_negf(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Attr *a = cs[0];
    if (!a || !is_float_attr(a)) return false;
    int64_t n = nvals(a);
    double *r = tc_malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) r[i] = -fval(a, i);
    out[0] = make_floats(c, op->results[0].type, r, n);
    tc_free(r);
    return true;
}

/* math.absf, floor, ceil, sqrt (correctly rounded in every precision) and
 * math.absi; transcendental functions are not folded (libm results vary). */
bool fold_math_unary(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Attr *a = cs[0];
    Type *t = op->results[0].type;
    if (!a) return false;
    int64_t n = nvals(a);
    if (op->kind == MATH_ABSI) {
        if (is_float_attr(a)) return false;
        int w = int_width(t);
        int64_t *r = tc_malloc(sizeof(int64_t) * (size_t)n);
        for (int64_t i = 0; i < n; i++) {
            int64_t s = int_wrap(ival(a, i), w);
            r[i] = s < 0 ? (int64_t)(0 - (uint64_t)s) : s; /* |INT_MIN| wraps to INT_MIN */
        }
        out[0] = make_ints(c, t, r, n);
        tc_free(r);
        return true;
    }
    if (!is_float_attr(a)) return false;
    FloatKind fk = ty_elem(t)->fkind;
    double *r = tc_malloc(sizeof(double) * (size_t)n);
    bool ok = true;
    for (int64_t i = 0; i < n && ok; i++) {
        double x = fval(a, i);
        switch (op->kind) {
        case MATH_ABSF: r[i] = fabs(x); break;
        case MATH_FLOOR: r[i] = floor(x); break;
        case MATH_CEIL: r[i] = ceil(x); break;
        case MATH_SQRT:
        case TT_PRECISE_SQRT: r[i] = fk == FK_F32 ? (double)sqrtf((float)x) : sqrt(x); break;
        default: ok = false;
        }
    }
    if (ok) out[0] = make_floats(c, t, r, n);
    tc_free(r);
    return ok;
}

/* ---- comparisons and select ------------------------------------------------------- */

static bool eval_cmpi(int pred, int64_t a, int64_t b, int w) {
    int64_t sa = int_wrap(a, w), sb = int_wrap(b, w);
    uint64_t ua = int_wrap_u(a, w), ub = int_wrap_u(b, w);
    switch (pred) {
    case CMPI_EQ: return ua == ub;
    case CMPI_NE: return ua != ub;
    case CMPI_SLT: return sa < sb;
    case CMPI_SLE: return sa <= sb;
    case CMPI_SGT: return sa > sb;
    case CMPI_SGE: return sa >= sb;
    case CMPI_ULT: return ua < ub;
    case CMPI_ULE: return ua <= ub;
    case CMPI_UGT: return ua > ub;
    case CMPI_UGE: return ua >= ub;
    }
    return false;
}

static bool eval_cmpf(int pred, double a, double b) {
    bool uno = isnan(a) || isnan(b);
    switch (pred) {
    case CMPF_FALSE: return false;
    case CMPF_OEQ: return !uno && a == b;
    case CMPF_OGT: return !uno && a > b;
    case CMPF_OGE: return !uno && a >= b;
    case CMPF_OLT: return !uno && a < b;
    case CMPF_OLE: return !uno && a <= b;
    case CMPF_ONE: return !uno && a != b;
    case CMPF_ORD: return !uno;
    case CMPF_UEQ: return uno || a == b;
    case CMPF_UGT: return uno || a > b;
    case CMPF_UGE: return uno || a >= b;
    case CMPF_ULT: return uno || a < b;
    case CMPF_ULE: return uno || a <= b;
    case CMPF_UNE: return uno || a != b;
    case CMPF_UNO: return uno;
    case CMPF_TRUE: return true;
    }
    return false;
}

bool fold_cmp(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Type *t = op->results[0].type;
    bool is_f = op->kind == ARITH_CMPF;
    /* (most comparisons asked: of two values, not both constants, where
     * only a float's `false` and `true` predicates fold) */
    if (!is_f && !(cs[0] && cs[1]) && op_operand(op, 0) != op_operand(op, 1)) return false;
    int64_t pred;
    if (!op_attr_int_k(op, AN_PREDICATE, &pred)) return false;
    if (is_f && (pred == CMPF_FALSE || pred == CMPF_TRUE))
        return out[0] = int_splat(c, t, pred == CMPF_TRUE), true;
    Attr *a = cs[0], *b = cs[1];
    if (a && b && is_float_attr(a) == is_f && is_float_attr(b) == is_f) {
        int64_t n = result_count(a, b);
        if (n < 0) return false;
        int w = int_width(op_operand(op, 0)->type);
        int64_t *r = tc_malloc(sizeof(int64_t) * (size_t)n);
        for (int64_t i = 0; i < n; i++)
            r[i] = is_f ? eval_cmpf((int)pred, fval(a, i), fval(b, i))
                        : eval_cmpi((int)pred, ival(a, i), ival(b, i), w);
        out[0] = make_ints(c, t, r, n);
        tc_free(r);
        return true;
    }
    /* x cmp x: decided for integers; for floats x may be NaN */
    if (!is_f && op_operand(op, 0) == op_operand(op, 1)) {
        bool eq = pred == CMPI_EQ || pred == CMPI_SLE || pred == CMPI_SGE || pred == CMPI_ULE ||
                  pred == CMPI_UGE;
        return out[0] = int_splat(c, t, eq), true;
    }
    return false;
}

bool fold_select(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Value *x = op_operand(op, 1), *y = op_operand(op, 2);
    int64_t cond;
    if (splat_int(cs[0], &cond)) return *ov = cond ? x : y, true;
    if (x == y) return *ov = x, true;
    /* select %c, true, false -> %c (same type) */
    int64_t tv, fv;
    Type *t = op->results[0].type;
    if (op_operand(op, 0)->type == t && int_width(t) == 1 && splat_int(cs[1], &tv) &&
        splat_int(cs[2], &fv) && tv && !fv)
        return *ov = op_operand(op, 0), true;
    return false;
}

/* ---- casts ----------------------------------------------------------------------- */

/* An integer (its magnitude and sign) rounded to a float kind exactly as a
 * conversion instruction does (round to nearest even), even past 2^53. */
static double int_to_float(uint64_t mag, bool neg, FloatKind fk) {
    int p = ty_float_mantissa_bits(fk) + 1; /* significand bits */
    int len = 64 - (mag ? __builtin_clzll(mag) : 64);
    if (len > p) { /* round the integer itself to p significant bits */
        int drop = len - p;
        uint64_t keep = mag >> drop, rem = mag & ((1ULL << drop) - 1), half = 1ULL << (drop - 1);
        if (rem > half || (rem == half && (keep & 1))) keep++;
        double d = ldexp((double)keep, drop);
        return float_round(neg ? -d : d, fk);
    }
    double d = (double)mag; /* exact: len <= p <= 53 */
    return float_round(neg ? -d : d, fk);
}

bool fold_cast(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Value *x = op_operand(op, 0);
    Type *t = op->results[0].type, *st = x->type;
    if (st == t && (op->kind == ARITH_BITCAST || op->kind == ARITH_INDEX_CAST))
        return *ov = x, true;
    /* trunci (ext x) -> x when x already has the result type */
    if (op->kind == ARITH_TRUNCI && x->def &&
        (x->def->kind == ARITH_EXTSI || x->def->kind == ARITH_EXTUI) && op_operand(x->def, 0)->type == t)
        return *ov = op_operand(x->def, 0), true;
    if (op->kind == ARITH_TRUNCF && x->def && x->def->kind == ARITH_EXTF && op_operand(x->def, 0)->type == t)
        return *ov = op_operand(x->def, 0), true;
    if (op->kind == ARITH_BITCAST && x->def && x->def->kind == ARITH_BITCAST && op_operand(x->def, 0)->type == t)
        return *ov = op_operand(x->def, 0), true;
    Attr *a = cs[0];
    if (!a) return false;
    int64_t n = nvals(a);
    int sw = int_width(st), dw = int_width(t);
    FloatKind dk = ty_elem(t)->fkind;
    bool to_float = ty_is_float(ty_elem(t));
    if (to_float != (op->kind == ARITH_EXTF || op->kind == ARITH_TRUNCF || op->kind == ARITH_SITOFP ||
                     op->kind == ARITH_UITOFP))
        return false;
    int64_t *ri = to_float ? NULL : tc_malloc(sizeof(int64_t) * (size_t)n);
    double *rf = to_float ? tc_malloc(sizeof(double) * (size_t)n) : NULL;
    bool ok = true;
    for (int64_t i = 0; i < n && ok; i++) {
        switch (op->kind) {
        case ARITH_EXTSI:
        case ARITH_INDEX_CAST: ri[i] = int_wrap(ival(a, i), sw); break; /* trunc: attr_int wraps */
        case ARITH_EXTUI: ri[i] = (int64_t)int_wrap_u(ival(a, i), sw); break;
        case ARITH_TRUNCI: ri[i] = ival(a, i); break;
        case ARITH_EXTF:
        case ARITH_TRUNCF: rf[i] = fval(a, i); break; /* one rounding, by make_floats */
        case ARITH_SITOFP: {
            int64_t s = int_wrap(ival(a, i), sw);
            rf[i] = int_to_float(s < 0 ? 0 - (uint64_t)s : (uint64_t)s, s < 0, dk);
            break;
        }
        case ARITH_UITOFP: rf[i] = int_to_float(int_wrap_u(ival(a, i), sw), false, dk); break;
        case ARITH_FPTOSI:
        case ARITH_FPTOUI: {
            double v = trunc(fval(a, i));
            bool is_s = op->kind == ARITH_FPTOSI;
            double lo = is_s ? -ldexp(1, dw - 1) : 0, hi = is_s ? ldexp(1, dw - 1) : ldexp(1, dw);
            if (isnan(v) || v < lo || v >= hi) {
                ok = false; /* out of range: poison, leave it */
                break;
            }
            ri[i] = is_s ? (int64_t)v : (int64_t)(uint64_t)v;
            break;
        }
        default: ok = false;
        }
    }
    if (ok) out[0] = to_float ? make_floats(c, t, rf, n) : make_ints(c, t, ri, n);
    tc_free(ri);
    tc_free(rf);
    return ok;
}

/* ---- tt -------------------------------------------------------------------------- */

/* tt.splat / tt.broadcast / tt.expand_dims / tt.reshape of a splat constant
 * is a splat constant of the result type; a no-op broadcast is its input. */
bool fold_splat_like(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    Type *t = op->results[0].type;
    Value *x = op_operand(op, 0);
    if (x->type == t && op->kind != TT_SPLAT) return *ov = x, true;
    Attr *a = cs[0];
    if (!a || nvals(a) != 1 || a->kind == ATTR_BOOL) return false;
    if (is_float_attr(a)) {
        double v = fval(a, 0);
        out[0] = attr_dense_float(c, t, &v, 1);
    } else {
        int64_t v = ival(a, 0);
        out[0] = attr_dense_int(c, t, &v, 1);
    }
    return true;
}

bool fold_addptr(Context *c, Op *op, Attr **cs, Attr **out, Value **ov) {
    int64_t v;
    if (splat_int(cs[1], &v) && v == 0 && op_operand(op, 0)->type == op->results[0].type)
        return *ov = op_operand(op, 0), true;
    return false;
}
