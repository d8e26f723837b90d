/*
 * constexpr.c - compile-time values with Python's semantics.
 *
 * Triton evaluates arithmetic on constexprs in Python: `//` floors, `%`
 * takes the divisor's sign, `/` always gives a float, `**` of ints stays an
 * int unless the exponent is negative, bool is an int (True + 1 == 2), and
 * strings compare by value. These are those rules over TV's int64/double.
 *
 * Python's ints are unbounded; ours are the 64-bit ones Triton can type:
 * int64, and uint64 for [2^63, 2^64) (TV.u64). Integer arithmetic is done
 * in 128 bits, and a result outside [-2^63, 2^64) is an error rather than a
 * value silently wrapped (`1 << 100` is not 0).
 */
#include "sema/sema_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *py_binop_s(PyBinOp op) {
    static const char *const s[] = {"+", "-", "*", "@", "/", "//", "%", "**", "<<", ">>", "|", "^", "&"};
    return (unsigned)op < TC_ARRAY_LEN(s) ? s[op] : "?";
}
static const char *py_cmpop_s(PyCmpOp op) {
    static const char *const s[] = {"==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in"};
    return (unsigned)op < TC_ARRAY_LEN(s) ? s[op] : "?";
}
static const char *py_unaryop_s(PyUnaryOp op) {
    static const char *const s[] = {"-", "+", "~", "not"};
    return (unsigned)op < TC_ARRAY_LEN(s) ? s[op] : "?";
}

typedef __int128 Wide;

static Wide wide(const TV *a) { return a->u64 ? (Wide)(uint64_t)a->i : (Wide)a->i; }

static double as_f(const TV *a) {
    return a->kind == TV_FLOAT ? a->f : a->u64 ? (double)(uint64_t)a->i : (double)a->i;
}

/* An int result back in a TV: int64, or uint64 above INT64_MAX. */
static TV from_wide(Sema *S, Wide v, bool overflow) {
    if (overflow || v < (Wide)INT64_MIN || v > (Wide)UINT64_MAX)
        return sema_error(S, "integer constant out of range: Triton's integers have at most 64 bits "
                             "(int64, or uint64 up to 2**64 - 1)");
    return v > (Wide)INT64_MAX ? tv_uint64((uint64_t)v) : tv_int((int64_t)v);
}

static Wide floordiv_i(Wide a, Wide b) {
    Wide q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static Wide mod_i(Wide a, Wide b) {
    Wide r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

static double mod_f(double a, double b) {
    double r = fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

bool cx_equal(const TV *a, const TV *b) {
    if (tv_is_num(a) && tv_is_num(b)) {
        if (a->kind == TV_FLOAT || b->kind == TV_FLOAT) return as_f(a) == as_f(b);
        return wide(a) == wide(b);
    }
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TV_NONE: return true;
    case TV_STR: return strcmp(a->s, b->s) == 0;
    case TV_DTYPE: return a->ty == b->ty;
    case TV_TUPLE:
        if (a->n != b->n) return false;
        for (int i = 0; i < a->n; i++)
            if (!cx_equal(&a->elems[i], &b->elems[i])) return false;
        return true;
    default: return false;
    }
}

bool cx_truthy(const TV *a) {
    switch (a->kind) {
    case TV_INT: case TV_BOOL: return a->i != 0;
    case TV_FLOAT: return a->f != 0;
    case TV_STR: return a->s[0] != 0;
    case TV_NONE: return false;
    case TV_TUPLE: return a->n != 0;
    default: return true;
    }
}

static TV cx_compare(Sema *S, PyCmpOp op, const TV *a, const TV *b) {
    if (op == PY_CMP_EQ || op == PY_CMP_IS) return tv_bool(cx_equal(a, b));
    if (op == PY_CMP_NE || op == PY_CMP_IS_NOT) return tv_bool(!cx_equal(a, b));
    if (op == PY_CMP_IN || op == PY_CMP_NOT_IN) {
        if (b->kind != TV_TUPLE) return sema_error(S, "'in' needs a tuple of constexprs on its right");
        bool found = false;
        for (int i = 0; i < b->n && !found; i++) found = cx_equal(a, &b->elems[i]);
        return tv_bool(op == PY_CMP_IN ? found : !found);
    }
    int c;
    if (tv_is_num(a) && tv_is_num(b)) {
        if (a->kind == TV_FLOAT || b->kind == TV_FLOAT) {
            double x = as_f(a), y = as_f(b);
            if (x != x || y != y) return tv_bool(false);
            c = x < y ? -1 : x > y ? 1 : 0;
        } else {
            Wide x = wide(a), y = wide(b);
            c = x < y ? -1 : x > y ? 1 : 0;
        }
    } else if (a->kind == TV_STR && b->kind == TV_STR) {
        c = strcmp(a->s, b->s);
    } else {
        return sema_error(S, "'%s' not supported between instances of '%s' and '%s'", py_cmpop_s(op),
                          tv_kind_name(a), tv_kind_name(b));
    }
    switch (op) {
    case PY_CMP_LT: return tv_bool(c < 0);
    case PY_CMP_LE: return tv_bool(c <= 0);
    case PY_CMP_GT: return tv_bool(c > 0);
    default: return tv_bool(c >= 0);
    }
}

/* Python's int OP int for two int64s, in 64 bits when the result is one
 * too (true with *r set): the common case of the 128-bit arithmetic below,
 * without its library division (an unrolled body works out `tap // K`,
 * `tap % K` at every step). */
static bool int64_binary(PyBinOp op, int64_t x, int64_t y, int64_t *r) {
    switch (op) {
    case PY_BIN_ADD: return !__builtin_add_overflow(x, y, r);
    case PY_BIN_SUB: return !__builtin_sub_overflow(x, y, r);
    case PY_BIN_MUL: return !__builtin_mul_overflow(x, y, r);
    case PY_BIN_FLOORDIV:
    case PY_BIN_MOD: {
        if (y == 0 || (x == INT64_MIN && y == -1)) return false;
        int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) {
            q--;
            m += y;
        }
        *r = op == PY_BIN_FLOORDIV ? q : m;
        return true;
    }
    default: return false;
    }
}

TV cx_binary(Sema *S, int op, const TV *a, const TV *b) {
    if (op >= 100) return cx_compare(S, (PyCmpOp)(op - 100), a, b);
    int64_t r64;
    if (a->kind == TV_INT && b->kind == TV_INT && !a->u64 && !b->u64 && int64_binary((PyBinOp)op, a->i, b->i, &r64))
        return tv_int(r64);
    PyBinOp bop = (PyBinOp)op;
    if (a->kind == TV_STR && b->kind == TV_STR && bop == PY_BIN_ADD) {
        TV r = {.kind = TV_STR};
        r.s = arena_printf(S->arena, "%s%s", a->s, b->s);
        return r;
    }
    if (!tv_is_num(a) || !tv_is_num(b))
        return sema_error(S, "unsupported operand type(s) for %s: '%s' and '%s'", py_binop_s(bop),
                          tv_kind_name(a), tv_kind_name(b));
    bool fl = a->kind == TV_FLOAT || b->kind == TV_FLOAT;
    bool both_bool = a->kind == TV_BOOL && b->kind == TV_BOOL;
    Wide x = wide(a), y = wide(b), r;
    switch (bop) {
    case PY_BIN_ADD: return fl ? tv_float(as_f(a) + as_f(b)) : from_wide(S, x + y, false);
    case PY_BIN_SUB: return fl ? tv_float(as_f(a) - as_f(b)) : from_wide(S, x - y, false);
    case PY_BIN_MUL: {
        if (fl) return tv_float(as_f(a) * as_f(b));
        bool ovf = __builtin_mul_overflow(x, y, &r);
        return from_wide(S, r, ovf);
    }
    case PY_BIN_DIV:
        if (as_f(b) == 0) return sema_error(S, "division by zero");
        return tv_float(as_f(a) / as_f(b));
    case PY_BIN_FLOORDIV:
        if (as_f(b) == 0) return sema_error(S, fl ? "float floor division by zero" : "integer division or modulo by zero");
        return fl ? tv_float(floor(as_f(a) / as_f(b))) : from_wide(S, floordiv_i(x, y), false);
    case PY_BIN_MOD:
        if (as_f(b) == 0) return sema_error(S, fl ? "float modulo by zero" : "integer division or modulo by zero");
        return fl ? tv_float(mod_f(as_f(a), as_f(b))) : from_wide(S, mod_i(x, y), false);
    case PY_BIN_POW:
        if (!fl && y >= 0) {
            /* |x| >= 2 overflows within 128 steps; 0, 1 and -1 stay put */
            bool ovf = false;
            r = 1;
            if (x == -1) r = (y & 1) ? -1 : 1;
            else if (x == 0) r = y == 0;
            else if (x != 1)
                for (Wide i = 0; i < y && !ovf; i++) ovf = __builtin_mul_overflow(r, x, &r);
            return from_wide(S, r, ovf);
        }
        {
            /* Python's float power raises where C's returns inf or nan */
            double fx = as_f(a), fy = as_f(b), p = pow(fx, fy);
            if (fx == 0 && fy < 0) return sema_error(S, "0.0 cannot be raised to a negative power");
            if (fx < 0 && isfinite(fy) && fy != floor(fy))
                return sema_error(S, "(%g) ** %g is a complex number, which a kernel cannot hold", fx, fy);
            if (isinf(p) && isfinite(fx) && isfinite(fy)) return sema_error(S, "(34, 'Numerical result out of range')");
            return tv_float(p);
        }
    default: break;
    }
    if (fl)
        return sema_error(S, "unsupported operand type(s) for %s: '%s' and '%s'", py_binop_s(bop),
                          tv_kind_name(a), tv_kind_name(b));
    switch (bop) {
    case PY_BIN_LSHIFT:
        if (y < 0) return sema_error(S, "negative shift count");
        /* |x| < 2^64, so a shift by less than 64 fits in 128 bits */
        if (x == 0) return tv_int(0);
        return from_wide(S, y < 64 ? x * ((Wide)1 << y) : 0, y >= 64);
    case PY_BIN_RSHIFT:
        if (y < 0) return sema_error(S, "negative shift count");
        return from_wide(S, y >= 127 ? (x < 0 ? -1 : 0) : x >> y, false);
    case PY_BIN_BITAND: return both_bool ? tv_bool(x & y) : from_wide(S, x & y, false);
    case PY_BIN_BITOR: return both_bool ? tv_bool(x | y) : from_wide(S, x | y, false);
    case PY_BIN_BITXOR: return both_bool ? tv_bool(x ^ y) : from_wide(S, x ^ y, false);
    default:
        return sema_error(S, "unsupported operand type(s) for %s: '%s' and '%s'", py_binop_s(bop),
                          tv_kind_name(a), tv_kind_name(b));
    }
}

TV cx_unary(Sema *S, PyUnaryOp op, const TV *a) {
    if (op == PY_UNARY_NOT) return tv_bool(!cx_truthy(a));
    if (!tv_is_num(a))
        return sema_error(S, "bad operand type for unary %s: '%s'", py_unaryop_s(op), tv_kind_name(a));
    switch (op) {
    case PY_UNARY_NEG: return a->kind == TV_FLOAT ? tv_float(-a->f) : from_wide(S, -wide(a), false);
    case PY_UNARY_POS: return a->kind == TV_FLOAT ? *a : from_wide(S, wide(a), false);
    default:
        if (a->kind == TV_FLOAT) return sema_error(S, "bad operand type for unary ~: 'float'");
        return from_wide(S, ~wide(a), false);
    }
}

TV cx_from_value(Sema *S, const ConstexprValue *cv) {
    switch (cv->kind) {
    case CV_INT: return cv->u64 ? tv_uint64((uint64_t)cv->i) : tv_int(cv->i);
    case CV_FLOAT: return tv_float(cv->f);
    case CV_BOOL: return tv_bool(cv->i != 0);
    case CV_STR: {
        TV r = {.kind = TV_STR, .s = arena_strdup(S->arena, cv->s)};
        return r;
    }
    case CV_DTYPE: {
        const TlType *t = tl_dtype_by_name(S, cv->s);
        if (!t) return sema_error(S, "unknown dtype '%s'", cv->s);
        return tv_dtype(t);
    }
    case CV_TUPLE: {
        TV r = {.kind = TV_TUPLE, .n = (int)cv->i};
        r.elems = ARENA_ARRAY(S->arena, TV, cv->i + 1);
        for (int64_t k = 0; k < cv->i; k++) {
            r.elems[k] = cx_from_value(S, &cv->elems[k]);
            if (r.elems[k].kind == TV_ERR) return r.elems[k];
        }
        return r;
    }
    case CV_FUNC: return sema_global_jit_fn(S, cv->s);
    default: return tv_none();
    }
}

/* The digits of one base, with single '_' between them ("1_000",
 * "0x_ff"): Python's digit groups. Returns the length taken, 0 if none. */
static size_t py_digits(const char *t, size_t n, int base, bool underscore_first) {
    size_t i = 0;
    for (;;) {
        size_t j = i;
        if (j < n && t[j] == '_' && (i > 0 || underscore_first)) j++;
        int c = j < n ? (unsigned char)t[j] : 0;
        int d = isdigit(c) ? c - '0' : isalpha(c) ? tolower(c) - 'a' + 10 : 99;
        if (d >= base) return i;
        i = j + 1;
    }
}

/* A Python integer literal with an optional sign: decimal, 0x, 0o or 0b,
 * digits grouped by '_'. Returns 1 with the value in out, 0 if text is no
 * integer literal (it may be a float), -1 with *why set if it is one that
 * Python rejects or that does not fit in 64 bits: Python's ints are
 * unbounded, ours are int64 and uint64, and such a literal used to become a
 * float (strtod's 1e+20, or inf) without a word. */
static int parse_cx_int(const char *t, size_t n, ConstexprValue *out, const char **why) {
    bool neg = n > 0 && t[0] == '-';
    size_t i = n > 0 && (t[0] == '-' || t[0] == '+') ? 1 : 0;
    if (i == n || !isdigit((unsigned char)t[i])) return 0;
    int base = 10;
    bool prefix = false;
    if (t[i] == '0' && i + 1 < n && strchr("xXoObB", t[i + 1])) {
        base = strchr("xX", t[i + 1]) ? 16 : strchr("oO", t[i + 1]) ? 8 : 2;
        i += 2;
        prefix = true;
    }
    size_t len = py_digits(t + i, n - i, base, prefix);
    if (len == 0 || i + len != n) return 0; /* "1.5", "1e3", "0x1p3", "0x" ... */
    unsigned __int128 v = 0;
    bool leading_zero = false, too_big = false;
    for (size_t k = i; k < n; k++) {
        if (t[k] == '_') continue;
        int c = (unsigned char)t[k];
        int d = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
        if (base == 10 && k == i && d == 0) leading_zero = true;
        if (leading_zero && d != 0) {
            *why = "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
            return -1;
        }
        v = v * (unsigned)base + (unsigned)d;
        if (v > (unsigned __int128)UINT64_MAX + 1) too_big = true, v = (unsigned __int128)UINT64_MAX + 2;
    }
    if (too_big || (!neg && v > UINT64_MAX) || (neg && v > (unsigned __int128)INT64_MAX + 1)) {
        *why = "integer out of range: tritonc's constexpr integers have at most 64 bits "
               "(int64, or uint64 up to 2**64 - 1)";
        return -1;
    }
    out->kind = CV_INT;
    out->i = neg ? (int64_t)(0 - (uint64_t)v) : (int64_t)(uint64_t)v;
    out->u64 = !neg && v > INT64_MAX; /* [2^63, 2^64): a uint64, as Triton types it */
    return 1;
}

static bool same_word_ci(const char *t, size_t n, const char *word) {
    if (strlen(word) != n) return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t[i]) != word[i]) return false;
    return true;
}

/* A Python float literal with an optional sign ("0.5", "-1e-5", ".5",
 * "1_000.0", "1e999" is inf as in Python), or inf / nan / infinity in any
 * case, which strtod has always taken here. Hex floats are not Python's. */
static bool parse_cx_float(const char *t, size_t n, ConstexprValue *out) {
    size_t i = n > 0 && (t[0] == '-' || t[0] == '+') ? 1 : 0;
    const char *w = t + i;
    size_t wn = n - i;
    if (same_word_ci(w, wn, "inf") || same_word_ci(w, wn, "nan") || same_word_ci(w, wn, "infinity")) {
        out->kind = CV_FLOAT;
        out->f = tolower((unsigned char)w[0]) == 'n' ? NAN : t[0] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    size_t a = py_digits(w, wn, 10, false), b = 0, e = 0;
    if (a < wn && w[a] == '.') b = 1 + py_digits(w + a + 1, wn - a - 1, 10, false);
    if (a == 0 && b <= 1) return false; /* no digits */
    if (a + b < wn && (w[a + b] == 'e' || w[a + b] == 'E')) {
        size_t k = a + b + 1;
        if (k < wn && (w[k] == '+' || w[k] == '-')) k++;
        size_t d = py_digits(w + k, wn - k, 10, false);
        if (d == 0) return false;
        e = k + d - (a + b);
    }
    if (a + b + e != wn || (b == 0 && e == 0)) return false; /* (an int is parse_cx_int's) */
    char buf[512];
    size_t m = 0;
    for (size_t k = 0; k < n && m + 1 < sizeof buf; k++)
        if (t[k] != '_') buf[m++] = t[k];
    if (m + 1 >= sizeof buf) return false;
    buf[m] = 0;
    out->kind = CV_FLOAT;
    out->f = strtod(buf, NULL);
    return true;
}

/* A tuple "(a, b, ...)" or "[a, b]": the items split at the commas outside
 * brackets and quotes, each parsed by sema_parse_constexpr. */
static bool parse_cx_tuple(Arena *arena, const char *text, size_t n, ConstexprValue *out, const char **why) {
    const char *inner = text + 1;
    size_t m = n - 2, start = 0;
    /* each item takes a character and a comma: no more than m / 2 + 1 of
     * them (a fixed 64 rejected a longer tuple as no constexpr value) */
    ConstexprValue *items = ARENA_ARRAY(arena, ConstexprValue, m / 2 + 2);
    int count = 0, depth = 0;
    char quote = 0;
    for (size_t i = 0; i <= m; i++) {
        char c = i < m ? inner[i] : ',';
        if (quote) {
            if (c == quote) quote = 0;
            if (i < m) continue;
            return false;
        }
        if (c == '\'' || c == '"') quote = c;
        else if (c == '(' || c == '[') depth++;
        else if (c == ')' || c == ']') depth--;
        if (c != ',' || depth) continue;
        const char *item = inner + start;
        size_t len = i - start;
        start = i + 1;
        while (len && isspace((unsigned char)*item)) item++, len--;
        while (len && isspace((unsigned char)item[len - 1])) len--;
        if (!len) {
            if (i == m && (count > 0 || start == 1 + m || m == 0)) break; /* "(1,)" or "()" */
            return false;
        }
        if (!sema_parse_constexpr(arena, arena_strndup(arena, item, len), &items[count++], why)) return false;
    }
    if (depth) return false;
    out->kind = CV_TUPLE;
    out->i = count;
    out->elems = items;
    return true;
}

bool sema_parse_constexpr(Arena *arena, const char *text, ConstexprValue *out, const char **why) {
    const char *why_unused;
    if (!why) why = &why_unused;
    memset(out, 0, sizeof *out);
    while (isspace((unsigned char)*text)) text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1])) n--;
    if (n == 0) return false;
    if (n == 4 && !memcmp(text, "True", 4)) { out->kind = CV_BOOL; out->i = 1; return true; }
    if (n == 5 && !memcmp(text, "False", 5)) { out->kind = CV_BOOL; return true; }
    if (n == 4 && !memcmp(text, "None", 4)) { out->kind = CV_NONE; return true; }
    if (n >= 2 && ((text[0] == '(' && text[n - 1] == ')') || (text[0] == '[' && text[n - 1] == ']')))
        return parse_cx_tuple(arena, text, n, out, why);
    {
        static const struct { const char *text; double v; } special[] = {
            {"float('inf')", INFINITY}, {"-float('inf')", -INFINITY}, {"float('nan')", NAN},
            {"float(\"inf\")", INFINITY}, {"-float(\"inf\")", -INFINITY}, {"float(\"nan\")", NAN}};
        for (int k = 0; k < TC_ARRAY_LEN(special); k++)
            if (strlen(special[k].text) == n && !memcmp(special[k].text, text, n)) {
                out->kind = CV_FLOAT;
                out->f = special[k].v;
                return true;
            }
    }
    if (n >= 2 && text[0] == '@') {
        for (size_t i = 1; i < n; i++)
            if (!isalnum((unsigned char)text[i]) && text[i] != '_') return false;
        if (isdigit((unsigned char)text[1])) return false;
        out->kind = CV_FUNC;
        out->s = arena_strndup(arena, text + 1, n - 1);
        return true;
    }
    if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0]) {
        out->kind = CV_STR;
        out->s = arena_strndup(arena, text + 1, n - 2);
        return true;
    }
    int r = parse_cx_int(text, n, out, why);
    if (r != 0) return r > 0;
    if (parse_cx_float(text, n, out)) return true;
    const char *name = text;
    if (n > 3 && !memcmp(name, "tl.", 3)) name += 3;
    else if (n > 16 && !memcmp(name, "triton.language.", 16)) name += 16;
    static const char *const dtypes[] = {
        "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float8e4nv", "float8e5", "float16", "bfloat16", "float32", "float64",
        "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"};
    for (int i = 0; i < TC_ARRAY_LEN(dtypes); i++)
        if (strlen(dtypes[i]) == n - (size_t)(name - text) && !memcmp(dtypes[i], name, strlen(dtypes[i]))) {
            out->kind = CV_DTYPE;
            out->s = dtypes[i];
            return true;
        }
    if (name != text) return false;
    if (isdigit((unsigned char)text[0])) { /* "0o8", "1_", "12abc": Python's SyntaxError, not a word */
        *why = "invalid number literal";
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)text[i]) && text[i] != '_') return false;
    out->kind = CV_STR; /* a bare word: a string */
    out->s = arena_strndup(arena, text, n);
    return true;
}
