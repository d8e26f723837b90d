/*
 * ptx_emit.c - one ttg kernel to PTX text (see ptx_lower.h for the model).
 *
 *   .version 8.1 / .target sm_90a / .address_size 64
 *   .extern .shared .align 16 .b8 global_smem[];   dynamic, sized per kernel
 *   .visible .entry NAME(.param ...) .reqntid 32*num_warps, 1, 1
 *   { register declarations; prologue (params, lane, warp, thread parts);
 *     body; ret; }
 *
 * The body is lowered op by op in program order. Element-wise ops apply per
 * slot; fp16/bf16 arithmetic is done in fp32 and rounded back (as Triton
 * does for bf16 on sm_80); transcendental functions are what Triton makes
 * of them: the approximate instructions for exp (ex2.approx with a log2(e)
 * scale), exp2, sqrt and rsqrt (.approx.ftz), libdevice's code for sin,
 * cos, log, log2, tanh and erf (ptx_libm.c); div.full.f32 for `/`, div.rn
 * and sqrt.rn for the precise variants. Structured control flow becomes branches: scf.for a counted
 * loop with its carried values in registers, scf.if a diamond, scf.while a
 * loop with the test in the middle.
 */
#include "target/ptx/gpu.h"
#include "target/ptx/ptx.h"
#include "target/ptx/ptx_lower.h"
#include "support/divmagic.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rc_prefix[RC_COUNT] = {"%p", "%h", "%r", "%rd", "%f", "%fd"};
static const char *const rc_decl[RC_COUNT] = {".pred", ".b16", ".b32", ".b64", ".f32", ".f64"};
static const PxText rc_mov[RC_COUNT] = {PX_LIT("mov.pred"), PX_LIT("mov.b16"), PX_LIT("mov.b32"),
                                         PX_LIT("mov.b64"),  PX_LIT("mov.f32"), PX_LIT("mov.f64")};

/* ---- emission helpers -------------------------------------------------- */

/* Inlined whatever the compiler's estimate: the few functions every new
 * instruction goes through, whose calls would cost more than their work
 * (the arguments and the caller's registers spilled around each). */
#ifdef __GNUC__
#define PX_INLINE inline __attribute__((always_inline))
#else
#define PX_INLINE inline
#endif
/* Kept out of line: a big body of a rare path, so that its caller stays
 * small enough to be inlined into its own (see lower_slots). */
#ifdef __GNUC__
#define PX_OUTLINE __attribute__((noinline))
#else
#define PX_OUTLINE
#endif

void px_emit(Px *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_putc(&p->body, '\t');
    sb_vprintf(&p->body, fmt, ap);
    sb_puts(&p->body, ";\n");
    va_end(ap);
}

void px_emit_pro(Px *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_putc(&p->pro, '\t');
    sb_vprintf(&p->pro, fmt, ap);
    sb_puts(&p->pro, ";\n");
    va_end(ap);
}

/* Copies n bytes of a short string (px_w_text: opcodes and operands are a
 * few bytes, and two overlapping fixed-size copies, plain moves, beat a
 * call to memcpy, whose entry costs more than the copy). */
static inline char *put_short(char *w, const char *s, size_t n) { return px_w_text(w, s, n); }

/* Copies a text of n bytes whose storage can be read in whole 16-byte
 * blocks (a register's name cell, an interned text: the arena rounds
 * blocks up to 16 bytes) as one or two 16-byte moves when it is short;
 * what follows overwrites the bytes past n (the buffer has 16 bytes to
 * spare). */
static inline char *put16(char *w, const char *s, size_t n) {
    if (n <= 16) {
        memcpy(w, s, 16);
    } else if (n <= 32) {
        memcpy(w, s, 16);
        memcpy(w + 16, s + 16, 16);
    } else {
        memcpy(w, s, n);
    }
    return w + n;
}

/* `\topcode d, ops...;\n` with the lengths known: one reservation, then
 * plain copies. */
static void ins_n(Px *p, const char *opcode, size_t oplen, const char *d, size_t dlen, const char *const *ops,
                  const size_t *lens, int nops) {
    StrBuf *sb = &p->body;
    size_t n = 1 + oplen + 1 + dlen + 2;
    for (int i = 0; i < nops; i++) n += 2 + lens[i];
    if (sb->len + n + 1 > sb->cap) sb_reserve(sb, n);
    char *w = sb->data + sb->len;
    *w++ = '\t';
    w = put_short(w, opcode, oplen);
    *w++ = ' ';
    w = put_short(w, d, dlen);
    for (int i = 0; i < nops; i++) {
        *w++ = ',', *w++ = ' ';
        w = put_short(w, ops[i], lens[i]);
    }
    *w++ = ';', *w++ = '\n', *w = 0;
    sb->len += n;
}

void px_ins(Px *p, const char *opcode, const char *d, const char *a, const char *b, const char *c) {
    const char *ops[3] = {a, b, c};
    size_t lens[3];
    int n = 0;
    for (; n < 3 && ops[n]; n++) lens[n] = strlen(ops[n]);
    ins_n(p, opcode, strlen(opcode), d, strlen(d), ops, lens, n);
}

/* The pieces of px_line / px_cat with their lengths (16 at most). */
typedef struct Pieces {
    int n;
    size_t total, len[16];
    const char *s[16];
} Pieces;

static void pieces_of(Pieces *ps, const char *first, va_list ap) {
    ps->n = 0, ps->total = 0;
    for (const char *s = first; s && ps->n < 16; s = va_arg(ap, const char *)) {
        size_t m = strlen(s);
        ps->s[ps->n] = s, ps->len[ps->n++] = m, ps->total += m;
    }
}

static char *put_pieces(char *w, const Pieces *ps) {
    for (int i = 0; i < ps->n; i++) w = put_short(w, ps->s[i], ps->len[i]);
    return w;
}

static void line_pieces(StrBuf *sb, const Pieces *ps) {
    size_t n = 1 + ps->total + 2;
    if (sb->len + n + 1 > sb->cap) sb_reserve(sb, n);
    char *w = sb->data + sb->len;
    *w++ = '\t';
    w = put_pieces(w, ps);
    *w++ = ';', *w++ = '\n', *w = 0;
    sb->len += n;
}

void px_line(Px *p, const char *first, ...) {
    Pieces ps;
    va_list ap;
    va_start(ap, first);
    pieces_of(&ps, first, ap);
    va_end(ap);
    line_pieces(&p->body, &ps);
}

void px_line_pro(Px *p, const char *first, ...) {
    Pieces ps;
    va_list ap;
    va_start(ap, first);
    pieces_of(&ps, first, ap);
    va_end(ap);
    line_pieces(&p->pro, &ps);
}

const char *px_cat(Px *p, const char *first, ...) {
    Pieces ps;
    va_list ap;
    va_start(ap, first);
    pieces_of(&ps, first, ap);
    va_end(ap);
    char *out = arena_alloc(p->ctx->arena, ps.total + 1);
    *put_pieces(out, &ps) = 0;
    return out;
}

void px_line_t(Px *p, const PxText *pieces, int n) {
    size_t total = 1 + 2;
    for (int i = 0; i < n; i++) total += pieces[i].n;
    StrBuf *sb = &p->body;
    if (sb->len + total + 1 > sb->cap) sb_reserve(sb, total);
    char *w = sb->data + sb->len;
    *w++ = '\t';
    for (int i = 0; i < n; i++) w = put_short(w, pieces[i].s, pieces[i].n);
    *w++ = ';', *w++ = '\n', *w = 0;
    sb->len += total;
}

PxText px_reglist(Px *p, const Slot *s, int n) {
    /* room for n names of 16 written bytes, their separators and braces */
    char *out = arena_alloc(p->ctx->arena, 18 * (size_t)n + 18), *w = out;
    *w++ = '{';
    for (int i = 0; i < n; i++) {
        if (i) *w++ = ',', *w++ = ' ';
        w = px_w_name(p, w, s[i]);
    }
    *w++ = '}', *w = 0;
    return (PxText){out, (size_t)(w - out)};
}

/* (One allocation, no memo: offsets differ slot after slot.) */
const char *px_addr(Px *p, const char *base, int64_t off, bool keep_zero) {
    size_t bl = strlen(base);
    char *out = arena_alloc(p->ctx->arena, bl + 26), *w = out; /* (`+-`, 20 digits, brackets, NUL) */
    *w++ = '[';
    w = put_short(w, base, bl);
    if (off || keep_zero) {
        *w++ = '+';
        if (off < 0) *w++ = '-';
        w += fmt_uint(w, off < 0 ? 0 - (uint64_t)off : (uint64_t)off);
    }
    *w++ = ']', *w = 0;
    return out;
}

void px_fail(Px *p, const Op *op, const char *fmt, ...) {
    if (p->failed) return;
    p->failed = true;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (op) op_error(p->de, op, "PTX lowering: %s", buf);
    else diag_error(p->de, (Loc){0}, "PTX lowering: %s", buf);
}

/* The emitter names an operand for each instruction it writes and each
 * CSE lookup, several times per instruction: names are made here once, for
 * a block of 100 registers at a time as px_reg reaches it (almost every
 * register gets named; the first block of every class is made at the
 * start, so that %r0 and the like have theirs), each a 16-byte cell ("%rd"
 * and 10 digits at most, the NUL, and in the last byte the name's length,
 * for px_rname_len) in one allocation: copies of one cell, the block's
 * number without its last two digits, and then each of 00 to 99 (0 to 99
 * in the first block). The names are the same in every kernel: the table
 * is kept from one kernel to the next of a thread (px_names), and a kernel
 * names only the registers beyond those of the largest before it. */
enum { RNAME_BLOCK = 100 };

static _Thread_local struct {
    const char **names[RC_COUNT]; /* cells from tc_malloc, kept for good */
    int named[RC_COUNT], cap[RC_COUNT];
} px_names;

void px_rname_block(Px *p, RegClass rc) {
    static const char prefix[RC_COUNT][4] = {"%p", "%h", "%r", "%rd", "%f", "%fd"}; /* rc_prefix, padded */
    static const unsigned char prefix_len[RC_COUNT] = {2, 2, 2, 3, 2, 3};
    int first = p->rnames_named[rc];
    if (first + RNAME_BLOCK > p->rnames_cap[rc]) {
        p->rnames_cap[rc] = p->rnames_cap[rc] ? 2 * p->rnames_cap[rc] : 4 * RNAME_BLOCK;
        p->rnames[rc] = tc_realloc(p->rnames[rc], (size_t)p->rnames_cap[rc] * sizeof(char *));
    }
    char *cells = tc_malloc(16 * RNAME_BLOCK); /* (outlives the kernel: see px_names) */
    const char **out = p->rnames[rc] + first;
    size_t pl = prefix_len[rc], at = pl;
    char name[16] = {0};
    memcpy(name, prefix[rc], pl);
    if (first) at += (size_t)fmt_uint(name + pl, (uint64_t)(first / RNAME_BLOCK));
    name[15] = (char)(at + 2);
    for (int tens = 0; tens < 10; tens++) {
        name[at] = (char)('0' + tens);
        for (int ones = 0; ones < 10; ones++) {
            char *cell = cells + 16 * (10 * tens + ones);
            memcpy(cell, name, 16);
            cell[at + 1] = (char)('0' + ones);
            *out++ = cell;
        }
    }
    if (!first) /* 0 to 9: one digit */
        for (int k = 0; k < 10; k++) {
            char *cell = cells + 16 * k;
            cell[at] = (char)('0' + k), cell[at + 1] = 0, cell[15] = (char)(at + 1);
        }
    p->rnames_named[rc] = first + RNAME_BLOCK;
}

int px_label(Px *p) { return ++p->nlabel; }

static uint16_t f32_to_f16_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    int32_t exp = (int32_t)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffff;
    if (exp == 0xff) return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
    int32_t e = exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        man |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static uint16_t f32_to_bf16_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fff + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* The values of f16 and bf16 bit patterns (exact in a double). */
static double f16_bits_value(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return h & 0x8000 ? -v : v;
}

static double bf16_bits_value(uint16_t h) {
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* The hex digits of v's low 32 bits, upper case: nibble k (from the low
 * end) made a digit in byte k, all eight at once. */
static uint64_t hex_digits8(uint64_t v) {
    uint64_t x = v & 0xffffffff;
    x = (x | x << 16) & 0x0000ffff0000ffffULL;
    x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
    uint64_t ten = ((x + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL; /* the bytes >= 10 */
    return x + 0x3030303030303030ULL + ten * 7;                                  /* '0'..'9', 'A'..'F' */
}

/* x's 8 bytes, the high one first. */
static inline void put_be64(char *out, uint64_t x) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    x = __builtin_bswap64(x);
    memcpy(out, &x, 8);
#else
    for (int k = 0; k < 8; k++) out[k] = (char)(x >> (56 - 8 * k));
#endif
}

/* The low `digits` (4, 8 or 16) hex digits of v, upper case. */
static void hex_fixed(char *out, uint64_t v, int digits) {
    if (digits == 16) {
        put_be64(out, hex_digits8(v >> 32));
        put_be64(out + 8, hex_digits8(v));
    } else if (digits == 8) {
        put_be64(out, hex_digits8(v));
    } else {
        char all[8];
        put_be64(all, hex_digits8(v));
        memcpy(out, all + 8 - digits, (size_t)digits);
    }
}

/* ---- CSE keys ------------------------------------------------------------ */

/* px_cse keys an instruction by its destination's class, its opcode and its
 * operands, each a PxArg: an id that is equal exactly when the texts are.
 * The key is compared as four words, and the line is formatted only when
 * it is new. A register's name given as a text is recognised by its shape;
 * any other text (an opcode, an immediate, "%tid.x") is interned. */

/* The id of a register's name, from its text: `%` + the class's prefix +
 * a number (decimal, no leading zero, below PX_REG_MAX); false for any
 * other text, which is then interned (its shape alone decides, so equal
 * texts always get the same id). */
static bool reg_text_id(const char *s, PxArg *id) {
    int rc, k;
    switch (s[1]) {
    case 'p': rc = RC_PRED, k = 2; break;
    case 'h': rc = RC_B16, k = 2; break;
    case 'r': s[2] == 'd' ? (rc = RC_B64, k = 3) : (rc = RC_B32, k = 2); break;
    case 'f': s[2] == 'd' ? (rc = RC_F64, k = 3) : (rc = RC_F32, k = 2); break;
    default: return false;
    }
    int first = k;
    uint32_t n = 0;
    for (; s[k] >= '0' && s[k] <= '9'; k++) {
        if (k - first == 7) return false; /* (PX_REG_MAX = 2^24 and above: a text) */
        n = n * 10 + (uint32_t)(s[k] - '0');
    }
    if (s[k] || k == first || (s[first] == '0' && k > first + 1) || n >= PX_REG_MAX) return false;
    *id = PX_REG_ID | (uint32_t)rc << 24 | n;
    return true;
}

/* memcmp(x, y, n) == 0, for the few bytes of a text (a word at a time, the
 * last one overlapping). */
static inline bool same_run(const char *x, const char *y, size_t n) {
    if (n >= 8) {
        uint64_t a, b;
        for (; n > 8; n -= 8, x += 8, y += 8) {
            memcpy(&a, x, 8), memcpy(&b, y, 8);
            if (a != b) return false;
        }
        memcpy(&a, x + n - 8, 8), memcpy(&b, y + n - 8, 8);
        return a == b;
    }
    if (n >= 4) {
        uint32_t a0, b0, a1, b1;
        memcpy(&a0, x, 4), memcpy(&b0, y, 4), memcpy(&a1, x + n - 4, 4), memcpy(&b1, y + n - 4, 4);
        return a0 == b0 && a1 == b1;
    }
    for (size_t j = 0; j < n; j++)
        if (x[j] != y[j]) return false;
    return true;
}

/* The id of a text that is not a register's name: its entry in the
 * kernel's table of texts (a copy in the arena), made on first sight. */
static PxArg text_intern(Px *p, const char *s, size_t n) {
    uint32_t hash = (uint32_t)hash_bytes(s, n, 0);
    if (2 * (p->texts.len + 1) > p->text_cap) {
        tc_free(p->text_tab);
        p->text_cap = p->text_cap ? 2 * p->text_cap : 256;
        p->text_tab = tc_calloc((size_t)p->text_cap, sizeof *p->text_tab);
        for (int k = 0; k < p->texts.len; k++) {
            int j = (int)(p->texts.data[k].hash & (uint32_t)(p->text_cap - 1));
            while (p->text_tab[j]) j = (j + 1) & (p->text_cap - 1);
            p->text_tab[j] = (uint32_t)k + 1;
        }
    }
    int mask = p->text_cap - 1, j = (int)(hash & (uint32_t)mask);
    for (uint32_t t; (t = p->text_tab[j]) != 0; j = (j + 1) & mask) {
        const PxTextEntry *e = &p->texts.data[t - 1];
        if (e->hash == hash && e->len == n && memcmp(e->s, s, n) == 0) return t;
    }
    vec_push(&p->texts, ((PxTextEntry){arena_strndup(p->ctx->arena, s, n), (uint32_t)n, hash}));
    p->text_tab[j] = (uint32_t)p->texts.len;
    return (uint32_t)p->texts.len;
}

static PxArg text_arg_make(Px *p, const char *s, PxTextMemo *m) {
    PxArg id = text_intern(p, s, strlen(s));
    m->s = s, m->canon = p->texts.data[id - 1].s, m->id = id, m->len = p->texts.data[id - 1].len;
    return id;
}

/* A text's id, a register's name aside. The texts are a few literals,
 * immediates and opcodes asked for over and over: a direct-mapped memo on
 * the pointer spares the interning (checked against the interned copy, as
 * a caller's buffer may hold another text by now; the interned copy itself,
 * as opc_join gives, is never written). */
static inline PxArg text_arg(Px *p, const char *s) {
    PxTextMemo *m = &p->text_memo[((uintptr_t)s * 0x9e3779b97f4a7c15ULL) >> 56];
    if (m->s == s && (s == m->canon || (same_run(s, m->canon, m->len) && s[m->len] == 0))) return m->id;
    return text_arg_make(p, s, m);
}

static PxArg opcode_arg_make(Px *p, const char *s, unsigned h) {
    PxArg id = text_intern(p, s, strlen(s));
    p->opcode_memo[h].s = s, p->opcode_memo[h].id = id;
    return id;
}

/* An opcode's id, for px_cse1/2/3: a literal or an interned text, whose
 * text never changes, so a pointer met before needs no look at its text
 * (text_arg checks it, as its callers' buffers may be rewritten). A few
 * dozen opcodes, asked for at every instruction: a direct-mapped memo. */
static inline PxArg opcode_arg(Px *p, const char *s) {
    unsigned h = (unsigned)(((uintptr_t)s * 0x9e3779b97f4a7c15ULL) >> 56);
    return p->opcode_memo[h].s == s ? p->opcode_memo[h].id : opcode_arg_make(p, s, h);
}

PxArg px_arg_text(Px *p, const char *s) {
    PxArg id;
    if (s[0] == '%' && reg_text_id(s, &id)) return id;
    return text_arg(p, s);
}

static inline Slot arg_slot(PxArg a) {
    return (Slot){.kind = SLOT_REG, .rc = (uint8_t)(a >> 24 & 7), .reg = (int)(a & (PX_REG_MAX - 1))};
}

const char *px_arg_str(Px *p, PxArg a) { return a & PX_REG_ID ? px_rname(p, arg_slot(a)) : p->texts.data[a - 1].s; }

/* An immediate's operand for the register class: 0fXXXXXXXX /
 * 0dXXXXXXXXXXXXXXXX for floats (exact bits), decimal for integers. Made
 * once per value: the same constants come back slot after slot (a
 * direct-mapped memo). */
static PxArg imm_arg_make(Px *p, Slot s, uint64_t bits, unsigned h);

/* An immediate's id: its bits looked up in a memo; formatted and interned
 * (imm_arg_make, out of line: the lookup stays a leaf) the first time. */
static inline PxArg imm_arg(Px *p, Slot s) {
    uint64_t bits;
    if (s.rc == RC_F32) {
        float f = (float)s.f;
        uint32_t b;
        memcpy(&b, &f, 4);
        bits = b;
    } else if (s.rc == RC_F64) {
        memcpy(&bits, &s.f, 8);
    } else {
        bits = (uint64_t)(s.rc == RC_B32 ? (int32_t)s.off : s.off);
        if (bits < TC_ARRAY_LEN(p->small_int) && p->small_int[bits]) return p->small_int[bits];
    }
    unsigned h = (unsigned)(hash_u64(bits ^ ((uint64_t)s.rc << 56)) & (TC_ARRAY_LEN(p->imm_memo) - 1));
    if (p->imm_memo[h].id && p->imm_memo[h].bits == bits && p->imm_memo[h].rc == s.rc) return p->imm_memo[h].id;
    return imm_arg_make(p, s, bits, h);
}

static PxArg imm_arg_make(Px *p, Slot s, uint64_t bits, unsigned h) {
    char buf[24];
    int n;
    switch (s.rc) {
    case RC_F32:
        memcpy(buf, "0f", 2);
        hex_fixed(buf + 2, bits, 8);
        n = 10;
        break;
    case RC_F64:
        memcpy(buf, "0d", 2);
        hex_fixed(buf + 2, bits, 16);
        n = 18;
        break;
    default: {
        int64_t v = (int64_t)bits;
        n = 0;
        if (v < 0) buf[n++] = '-';
        n += fmt_uint(buf + n, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
        break;
    }
    }
    PxArg id = text_intern(p, buf, (size_t)n);
    if (s.rc != RC_F32 && s.rc != RC_F64 && bits < TC_ARRAY_LEN(p->small_int)) p->small_int[bits] = id;
    p->imm_memo[h].bits = bits;
    p->imm_memo[h].rc = s.rc;
    return p->imm_memo[h].id = id;
}

static const char *imm_text(Px *p, Slot s) {
    PxArg id = imm_arg(p, s); /* (first: it may grow the table) */
    return p->texts.data[id - 1].s;
}

const char *px_int(Px *p, int64_t v) { return imm_text(p, px_imm_int(v, RC_B64)); }
PxArg px_arg_int_make(Px *p, int64_t v) { return imm_arg(p, px_imm_int(v, RC_B64)); }

/* "a.b" for two strings that outlive the emitter (literals, or joins made
 * here), as an interned text (see px_cse). Element-wise ops ask for the
 * same opcode slot after slot: each pair is joined once, then found by its
 * two pointers (open addressing; a kernel has some dozens of pairs). */
static const char *opc_join_make(Px *p, const char *a, const char *b, uint32_t ab, int i);

static inline const char *opc_join(Px *p, const char *a, const char *b) {
    uint32_t ab = (uint32_t)(((uintptr_t)a >> 3) * 0x9e3779b1u ^ ((uintptr_t)b >> 1)) * 0x9e3779b1u;
    int mask = TC_ARRAY_LEN(p->opc_memo) - 1, i = (int)(ab >> 24) & mask;
    for (; p->opc_memo[i].a; i = (i + 1) & mask)
        if (p->opc_memo[i].a == a && p->opc_memo[i].b == b) return p->opc_memo[i].s;
    return opc_join_make(p, a, b, ab, i);
}

/* opc_join's first sight of a pair (out of line: the lookup stays a leaf),
 * i its free entry. */
static const char *opc_join_make(Px *p, const char *a, const char *b, uint32_t ab, int i) {
    int mask = TC_ARRAY_LEN(p->opc_memo) - 1;
    size_t na = strlen(a), nb = strlen(b);
    char buf[64], *s = na + nb + 2 <= sizeof buf ? buf : arena_alloc(p->ctx->arena, na + nb + 2);
    memcpy(s, a, na), s[na] = '.', memcpy(s + na + 1, b, nb + 1);
    PxArg id = text_intern(p, s, na + 1 + nb);
    if (2 * ++p->opc_used > TC_ARRAY_LEN(p->opc_memo)) { /* (a full table: start over) */
        memset(p->opc_memo, 0, sizeof p->opc_memo);
        p->opc_used = 1;
        for (i = (int)(ab >> 24) & mask; p->opc_memo[i].a; i = (i + 1) & mask) {}
    }
    p->opc_memo[i].a = a, p->opc_memo[i].b = b, p->opc_memo[i].s = p->texts.data[id - 1].s;
    return p->opc_memo[i].s;
}

/* ---- CSE ----------------------------------------------------------------- */

enum { CSE_IDX_BITS = 20, CSE_IDX_MASK = (1 << CSE_IDX_BITS) - 1 };

static uint32_t cse_tag(uint32_t hash) { return (hash >> 20) << CSE_IDX_BITS; }

/* Doubles the table and places the live entries again (slots of entries
 * popped with their scopes are dropped here). */
static void cse_grow(Px *p) {
    tc_free(p->cse_tab);
    p->cse_cap = p->cse_cap ? p->cse_cap * 2 : 2048;
    p->cse_tab = tc_calloc((size_t)p->cse_cap, sizeof *p->cse_tab);
    int mask = p->cse_cap - 1;
    int live = p->cse_entries.len < CSE_IDX_MASK ? p->cse_entries.len : CSE_IDX_MASK;
    for (int k = 0; k < live; k++) {
        uint32_t hh = p->cse_entries.data[k].hash;
        int j = (int)(hh & (uint32_t)mask);
        while (p->cse_tab[j]) j = (j + 1) & mask;
        p->cse_tab[j] = cse_tag(hh) | (uint32_t)(k + 1);
    }
    p->cse_used = live;
}

/* The last key word of px_pack2's `{lo, hi}` (no operand has this id). */
enum { CSE_BRACED = 0x7fffffff };


/* The room write_ins makes: an opcode, and names of 15 bytes at most (16
 * written) with their separators; a longer text asks for its own. */
enum { INS_ROOM = 160, INS_TEXT_MAX = 32 };

/* Writes an operand's text. */
static PX_INLINE char *put_arg(Px *p, char *w, PxArg a) {
    if (a & PX_REG_ID) return px_w_name(p, w, arg_slot(a));
    const PxTextEntry *t = &p->texts.data[a - 1];
    if (t->len > INS_TEXT_MAX) {
        StrBuf *sb = &p->body;
        size_t at = (size_t)(w - sb->data);
        sb_reserve(sb, at - sb->len + t->len + INS_ROOM);
        w = sb->data + at;
    }
    return put16(w, t->s, t->len);
}

/* ", a" */
static PX_INLINE char *put_next_arg(Px *p, char *w, PxArg a) {
    w[0] = ',', w[1] = ' ';
    return put_arg(p, w + 2, a);
}

/* Writes `\topcode dst, a, b, c;\n` (`..., {a, b};\n` when c is
 * CSE_BRACED; 0 ends the operands). The opcode is copied 16 bytes at a
 * time when it is an interned text (in the arena, as the names are), else
 * (a literal) byte-exact. */
static PX_INLINE void write_ins(Px *p, const char *opc, size_t opc_len, bool interned, PxArg dst, PxArg a, PxArg b,
                                PxArg c) {
    StrBuf *sb = &p->body;
    if (sb->len + opc_len + INS_ROOM > sb->cap) sb_reserve(sb, opc_len + INS_ROOM);
    char *w = sb->data + sb->len;
    *w++ = '\t';
    w = interned ? put16(w, opc, opc_len) : px_w_text(w, opc, opc_len);
    *w++ = ' ';
    w = put_arg(p, w, dst);
    if (c == CSE_BRACED) {
        memcpy(w, ", {", 3);
        w = put_next_arg(p, put_arg(p, w + 3, a), b);
        *w++ = '}';
    } else if (a) {
        w = put_next_arg(p, w, a);
        if (b) {
            w = put_next_arg(p, w, b);
            if (c) w = put_next_arg(p, w, c);
        }
    }
    *w++ = ';', *w++ = '\n', *w = 0;
    sb->len = (size_t)(w - sb->data);
}

/* A new instruction, the registers named now (inline in each lookup: a
 * call here cost a fifth of a line's writing, saving and restoring the
 * caller's registers). */
static PX_INLINE Slot cse_new(Px *p, RegClass rc, uint64_t k01, uint64_t k23, uint32_t hash, int slot) {
    Slot d = px_reg(p, rc);
    const PxTextEntry *opc = &p->texts.data[((uint32_t)k01 >> 3) - 1];
    write_ins(p, opc->s, opc->len, true, PX_REG_ID | (uint32_t)rc << 24 | (uint32_t)d.reg, (PxArg)(k01 >> 32),
              (PxArg)k23, (PxArg)(k23 >> 32));
    CseEntry ent = {.key = {k01, k23}, .hash = hash, .reg = d.reg};
    vec_push(&p->cse_entries, ent);
    if (p->cse_entries.len <= CSE_IDX_MASK) { /* (past a million entries, no more CSE) */
        p->cse_tab[slot] = cse_tag(hash) | (uint32_t)p->cse_entries.len;
        p->cse_used++;
    }
    return d;
}

void px_ins_args(Px *p, PxText opcode, Slot d, PxArg a, PxArg b) {
    write_ins(p, opcode.s, opcode.n, false, px_arg_reg(p, d), a, a ? b : 0, 0);
}

/* Emits `opcode dst, a, b, c` (0 ends the operands: every caller passes 0
 * for the ones after a 0, and no operand's id is 0) into a fresh register,
 * or returns the register of the same instruction emitted before in this
 * scope. Slots are not removed when a scope ends: one whose entry was
 * popped, or whose tag matches by chance, fails the comparison and the
 * probe goes on. (The hot path of the emitter.) */
static PX_INLINE Slot cse(Px *p, RegClass rc, PxArg opc, PxArg a, PxArg b, PxArg c) {
    uint64_t k01 = (uint64_t)a << 32 | (opc << 3 | (uint32_t)rc), k23 = (uint64_t)c << 32 | b;
    /* (the high half of a product: every bit of the key words mixed in) */
    uint64_t x = (k23 * 0xc2b2ae3d27d4eb4fULL ^ k01) * 0x9e3779b97f4a7c15ULL;
    uint32_t hash = (uint32_t)(x >> 32), tag = cse_tag(hash);
    if (2 * (p->cse_used + 1) > p->cse_cap) cse_grow(p);
    int mask = p->cse_cap - 1, i = (int)(hash & (uint32_t)mask);
    for (uint32_t sl; (sl = p->cse_tab[i]) != 0; i = (i + 1) & mask) {
        int idx = (int)(sl & CSE_IDX_MASK);
        if ((sl & ~(uint32_t)CSE_IDX_MASK) != tag || idx > p->cse_entries.len) continue;
        const CseEntry *e = &p->cse_entries.data[idx - 1];
        if (e->key[0] == k01 && e->key[1] == k23) return (Slot){.kind = SLOT_REG, .rc = (uint8_t)rc, .reg = e->reg};
    }
    return cse_new(p, rc, k01, k23, hash, i);
}

/* (cse inlined into each: these are the emitter's most frequent calls) */
Slot px_cse1(Px *p, RegClass rc, const char *opcode, PxArg a) { return cse(p, rc, opcode_arg(p, opcode), a, 0, 0); }
Slot px_cse2(Px *p, RegClass rc, const char *opcode, PxArg a, PxArg b) {
    return cse(p, rc, opcode_arg(p, opcode), a, b, 0);
}
Slot px_cse3(Px *p, RegClass rc, const char *opcode, PxArg a, PxArg b, PxArg c) {
    return cse(p, rc, opcode_arg(p, opcode), a, b, c);
}

Slot px_pack2(Px *p, Slot lo, Slot hi) {
    return cse(p, RC_B32, opcode_arg(p, "mov.b32"), px_arg_reg(p, lo), px_arg_reg(p, hi), CSE_BRACED);
}

Slot px_cse(Px *p, RegClass rc, const char *opcode, const char *a, const char *b, const char *c) {
    PxArg ia = a ? px_arg_text(p, a) : 0, ib = a && b ? px_arg_text(p, b) : 0, ic = a && b && c ? px_arg_text(p, c) : 0;
    return cse(p, rc, text_arg(p, opcode), ia, ib, ic);
}

char *px_w_addr(Px *p, char *w, Slot base, int64_t off, bool keep_zero) {
    *w++ = '[';
    if (base.kind == SLOT_REG) {
        w = px_w_name(p, w, base);
        if (off || keep_zero) *w++ = '+';
    }
    if (base.kind == SLOT_REG ? off || keep_zero : true) {
        if (off < 0) *w++ = '-';
        w += fmt_uint(w, off < 0 ? 0 - (uint64_t)off : (uint64_t)off);
    }
    *w++ = ']';
    return w;
}

/* `\topcode ` with room for an address and n registers. */
static char *access_begin(Px *p, PxText opcode, int n) {
    char *w = px_w_begin(p, opcode.n + PX_W_ADDR + PX_W_NAME * (size_t)n);
    w = put_short(w, opcode.s, opcode.n);
    *w++ = ' ';
    return w;
}

void px_line_lists(Px *p, PxText opcode, const PxText *lists, int n) {
    size_t room = opcode.n + 16;
    for (int k = 0; k < n; k++) room += lists[k].n + 18;
    char *w = put_short(px_w_begin(p, room), opcode.s, opcode.n);
    for (int k = 0; k < n; k++) {
        *w++ = k ? ',' : ' ';
        if (k) *w++ = ' ';
        /* (px_reglist's text: in the arena, whose blocks are whole 16 bytes) */
        for (size_t b = 0; b < lists[k].n; b += 16) memcpy(w + b, lists[k].s + b, 16);
        w += lists[k].n;
    }
    px_w_end(p, w);
}

void px_unpack2(Px *p, Slot lo, Slot hi, Slot word) {
    char *w = px_w_begin(p, 3 * PX_W_NAME + 16);
    memcpy(w, "mov.b32 {", 9);
    w = px_w_name(p, w + 9, lo);
    w[0] = ',', w[1] = ' ';
    w = px_w_name(p, w + 2, hi);
    w[0] = '}', w[1] = ',', w[2] = ' ';
    px_w_end(p, px_w_name(p, w + 3, word));
}

void px_st_regs(Px *p, PxText opcode, Slot base, int64_t off, const Slot *v, int n) {
    char *w = px_w_addr(p, access_begin(p, opcode, n), base, off, true);
    *w++ = ',', *w++ = ' ';
    px_w_end(p, px_w_regs(p, w, v, n));
}

void px_ld_regs(Px *p, PxText opcode, const Slot *v, int n, Slot base, int64_t off) {
    char *w = px_w_regs(p, access_begin(p, opcode, n), v, n);
    *w++ = ',', *w++ = ' ';
    px_w_end(p, px_w_addr(p, w, base, off, true));
}

void px_scope_push(Px *p) {
    p->depth++;
    vec_push(&p->scope_marks, p->cse_entries.len);
}

void px_scope_pop(Px *p) {
    p->depth--;
    p->epoch++;
    p->cse_entries.len = vec_pop(&p->scope_marks);
    if (p->cse_preds_gone > p->cse_entries.len) p->cse_preds_gone = p->cse_entries.len;
}

Slot px_mat_make(Px *p, Slot s, const Type *elem) {
    if (s.kind == SLOT_NONE) {
        px_fail(p, NULL, "internal error: a slot the demand analysis found unread was read");
        return px_reg(p, px_rc(elem));
    }
    if (s.kind == SLOT_REG) {
        /* (a `reg + k` is mostly read by several ops, each materialising
         * it: the CSE's answer is kept while the scope lasts, and asked
         * again when another pair took its entry; not kept past the
         * CSE's last entry, when the CSE would make it again) */
        unsigned h = (unsigned)(((uint64_t)s.reg * 0x9e3779b97f4a7c15ULL ^ (uint64_t)s.off) * 0x9e3779b97f4a7c15ULL >> 59);
        if (p->mat_memo[h].epoch == p->epoch && p->mat_memo[h].reg == s.reg && p->mat_memo[h].rc == s.rc &&
            p->mat_memo[h].off == s.off)
            return p->mat_memo[h].r;
        const char *op = s.rc == RC_B64 ? "add.s64" : "add.s32";
        Slot r = px_cse2(p, s.rc, op, px_arg_reg(p, (Slot){SLOT_REG, s.rc, s.reg, {0}}), imm_arg(p, px_imm_int(s.off, s.rc)));
        p->mat_memo[h].epoch = p->cse_entries.len <= CSE_IDX_MASK ? p->epoch : 0, p->mat_memo[h].reg = s.reg, p->mat_memo[h].rc = s.rc, p->mat_memo[h].off = s.off;
        p->mat_memo[h].r = r;
        return r;
    }
    switch (s.rc) {
    case RC_PRED: {
        Slot z = px_cse(p, RC_B32, "mov.u32", "0", NULL, NULL);
        return px_cse(p, RC_PRED, s.off ? "setp.eq.s32" : "setp.ne.s32", px_rname(p, z), "0", NULL);
    }
    case RC_B16: {
        char hx[7] = "0x";
        hex_fixed(hx + 2, (uint64_t)s.off & 0xffff, 4);
        hx[6] = 0;
        return px_cse(p, RC_B16, "mov.b16", hx, NULL, NULL);
    }
    case RC_B32: return px_cse1(p, RC_B32, "mov.b32", imm_arg(p, s));
    case RC_B64: return px_cse1(p, RC_B64, "mov.b64", imm_arg(p, s));
    case RC_F32: return px_cse1(p, RC_F32, "mov.f32", imm_arg(p, s));
    default: return px_cse1(p, RC_F64, "mov.f64", imm_arg(p, s));
    }
}

const char *px_opnd_make(Px *p, Slot s, const Type *elem) {
    if (s.kind == SLOT_IMM && (s.rc == RC_B32 || s.rc == RC_B64 || s.rc == RC_F32 || s.rc == RC_F64))
        return imm_text(p, s);
    return px_rname(p, px_mat(p, s, elem));
}

PxArg px_arg_make(Px *p, Slot s, const Type *elem) {
    if (s.kind == SLOT_IMM && (s.rc == RC_B32 || s.rc == RC_B64 || s.rc == RC_F32 || s.rc == RC_F64))
        return imm_arg(p, s);
    return px_arg_reg(p, px_mat(p, s, elem));
}

/* px_arg of a float operand of class F32 or F64, a plain register or an
 * immediate (as every such slot is), the immediate's memo lookup inline:
 * the float ops of scalar code take constants op after op. */
static PX_INLINE PxArg float_arg(Px *p, Slot s, const Type *elem) {
    if (s.kind == SLOT_IMM && (s.rc == RC_F32 || s.rc == RC_F64)) return imm_arg(p, s);
    return px_arg(p, s, elem);
}

/* ---- tiles --------------------------------------------------------------- */

Tile *px_new_tile_block(Px *p, int n) {
    size_t size = sizeof(Tile) + (size_t)(n > 0 ? n : 1) * sizeof(Slot), block = size > 4096 ? size : 4096;
    p->tile_next = arena_alloc(p->ctx->arena, block);
    p->tile_end = p->tile_next + block;
    return px_new_tile(p, n);
}

PxValue *px_value_grow(Px *p, const Value *v) {
    uint32_t n = v->id + 1 > 2 * p->nvalues ? v->id + 1 : 2 * p->nvalues;
    if (n > p->values_cap) p->values = tc_realloc(p->values, n * sizeof *p->values), p->values_cap = n;
    memset(p->values + p->nvalues, 0, (n - p->nvalues) * sizeof *p->values);
    p->nvalues = n;
    return &p->values[v->id];
}

Tile *px_tile_missing(Px *p, Value *v) {
    px_fail(p, v->def, "value used before it was lowered");
    Tile *t = px_new_tile(p, v->type->kind == TY_TENSOR ? (int)ty_numel(v->type) : 1);
    for (int i = 0; i < t->n; i++) t->s[i] = px_imm_int(0, px_rc(ty_elem(v->type)));
    return t;
}

const Dist *px_dist_make(Px *p, const Type *t) {
    unsigned h = px_dist_memo_at(t);
    const Dist *cached = map_get(&p->dists, MAP_KEY(t));
    if (!cached) {
        const Layout *l = ttg_layout_of_type(p->ctx, t);
        Dist *d = ARENA_NEW(p->ctx->arena, Dist); /* (made in place: no copy) */
        if (!l || !ttg_dist(l, t->shape, t->rank, d)) return NULL;
        map_put(&p->dists, MAP_KEY(t), (void *)(cached = d));
    }
    p->dist_memo[h].t = t, p->dist_memo[h].d = cached;
    return cached;
}

bool px_dist(Px *p, const Type *t, Dist *d) {
    const Dist *cached = px_dist_of(p, t);
    if (cached) *d = *cached;
    return cached != NULL;
}

static int log2i(int64_t v) {
    int k = 0;
    while (((int64_t)1 << k) < v) k++;
    return k;
}

/* ---- known bits -------------------------------------------------------------
 *
 * A thread part (px_thread_part) has set only the bits the layout gives the
 * threads along its dimension, and a position slot is that register plus its
 * slot's constant part, on other bits (dist_const). So `position & m`,
 * `position >> s` and `position != 0` of such slots are a constant, or one
 * operation on the thread part shared by every slot, plus a constant: what
 * tl.sort's and tl.topk's directions and other tests of a position's bits
 * (`offs % 2 == 0`, `(offs >> k) & 1`) then cost. The bits a b32 register may
 * have set are kept for the thread parts and what known_bits derives. */

void px_set_maybits(Px *p, Slot r, uint64_t bits) {
    uint64_t *keep = ARENA_NEW(p->ctx->arena, uint64_t);
    *keep = bits;
    map_put(&p->maybits, (uint64_t)r.reg + 1, keep);
}

/* The bits slot a's register may have set, when known and disjoint from
 * a's constant (a non-negative 32-bit `reg + off` is then `reg | off`). */
static bool maybits_of(Px *p, Slot a, uint64_t *bits) {
    if (a.kind != SLOT_REG || a.rc != RC_B32 || a.off < 0 || a.off > INT32_MAX || !p->maybits.len) return false;
    const uint64_t *m = map_get(&p->maybits, (uint64_t)a.reg + 1);
    if (!m || (*m & (uint64_t)a.off) || *m > INT32_MAX) return false;
    *bits = *m;
    return true;
}

/* `a & b`, `a >> b` or `a != b` / `a == b` (k) of a slot a of known bits and
 * a constant b, folded; false: not of that form. */
static bool known_bits(Px *p, OpKind k, int64_t pred, Slot a, Slot b, Slot *out) {
    uint64_t m;
    if (b.kind != SLOT_IMM || !maybits_of(p, a, &m)) return false;
    Slot base = {SLOT_REG, RC_B32, a.reg, {0}};
    uint64_t off = (uint64_t)a.off;
    switch (k) {
    case ARITH_ANDI: {
        uint64_t c = (uint64_t)b.off & 0xffffffffu;
        if (!(m & c)) return (*out = px_imm_int((int64_t)(off & c), RC_B32)), true;
        Slot r = px_cse2(p, RC_B32, "and.b32", px_arg_reg(p, base), imm_arg(p, px_imm_int((int64_t)(m & c), RC_B32)));
        px_set_maybits(p, r, m & c);
        r.off = (int64_t)(off & c);
        return (*out = r), true;
    }
    case ARITH_SHRSI:
    case ARITH_SHRUI: {
        if (b.off < 0 || b.off > 31) return false;
        if (!(m >> b.off)) return (*out = px_imm_int((int64_t)(off >> b.off), RC_B32)), true;
        Slot r = px_cse2(p, RC_B32, "shr.u32", px_arg_reg(p, base), imm_arg(p, px_imm_int(b.off, RC_B32)));
        px_set_maybits(p, r, m >> b.off);
        r.off = (int64_t)(off >> b.off);
        return (*out = r), true;
    }
    case ARITH_CMPI: {
        if ((pred != CMPI_NE && pred != CMPI_EQ) || b.off != 0) return false;
        if (off || !m) return (*out = px_imm_int((off != 0) == (pred == CMPI_NE), RC_PRED)), true;
        return (*out = px_cse2(p, RC_PRED, pred == CMPI_NE ? "setp.ne.b32" : "setp.eq.b32", px_arg_reg(p, base),
                               imm_arg(p, px_imm_int(0, RC_B32)))),
               true;
    }
    default: return false;
    }
}

Slot px_thread_part(Px *p, const Dist *d, int dim) {
    uint64_t h = hash_combine(hash_combine(hash_combine(d->lane_stride[dim], d->tpw[dim]),
                                           hash_combine(d->warp_stride[dim], d->wpc[dim])),
                              hash_combine(d->spt[dim], (uint64_t)d->shape[dim])) | 1;
    Slot *cached = map_get(&p->tparts, h);
    if (cached) return *cached;
    /* ((warp / ws) % wpc * tpw + (lane / ls) % tpw) * spt, mod shape */
    Slot r = px_reg(p, RC_B32);
    const char *rn = px_rname(p, r);
    const char *ln = px_rname(p, p->lane), *wn = px_rname(p, p->warp);
    int tpw = d->tpw[dim], wpc = d->wpc[dim];
    const char *lane_pos = px_int(p, log2i(d->lane_stride[dim])), *lane_bits = px_int(p, log2i(tpw));
    const char *warp_pos = px_int(p, log2i(d->warp_stride[dim])), *warp_bits = px_int(p, log2i(wpc));
    int lpos = log2i(d->lane_stride[dim]), lbits = log2i(tpw);
    if (tpw > 1 && wpc > 1 && lpos + lbits == 5 && d->warp_stride[dim] == 1) {
        /* the top bits of the lane and the low bits of the warp: adjacent
         * bits of %tid.x (a 1-D tile over every thread: %tid.x itself) */
        px_line_pro(p, "bfe.u32 ", rn, ", ", px_rname(p, p->tid), ", ", lane_pos, ", ",
                    px_int(p, lbits + log2i(wpc)), NULL);
    } else if (tpw > 1 && wpc > 1) {
        Slot t = px_reg(p, RC_B32);
        const char *tn = px_rname(p, t);
        px_line_pro(p, "bfe.u32 ", tn, ", ", wn, ", ", warp_pos, ", ", warp_bits, NULL);
        px_line_pro(p, "bfe.u32 ", rn, ", ", ln, ", ", lane_pos, ", ", lane_bits, NULL);
        px_line_pro(p, "mad.lo.s32 ", rn, ", ", tn, ", ", px_int(p, tpw), ", ", rn, NULL);
    } else if (tpw > 1) {
        px_line_pro(p, "bfe.u32 ", rn, ", ", ln, ", ", lane_pos, ", ", lane_bits, NULL);
    } else if (wpc > 1) {
        px_line_pro(p, "bfe.u32 ", rn, ", ", wn, ", ", warp_pos, ", ", warp_bits, NULL);
    } else {
        px_line_pro(p, "mov.u32 ", rn, ", 0", NULL);
    }
    if (d->spt[dim] > 1) px_line_pro(p, "shl.b32 ", rn, ", ", rn, ", ", px_int(p, log2i(d->spt[dim])), NULL);
    if ((int64_t)d->spt[dim] * tpw * wpc > d->shape[dim]) {
        if ((d->shape[dim] & (d->shape[dim] - 1)) == 0)
            px_line_pro(p, "and.b32 ", rn, ", ", rn, ", ", px_int(p, d->shape[dim] - 1), NULL);
        else px_line_pro(p, "rem.u32 ", rn, ", ", rn, ", ", px_int(p, d->shape[dim]), NULL);
    }
    uint64_t bits = 0; /* (every thread's part: at most 1024) */
    for (int t = 0; t < d->nthreads; t++) bits |= (uint64_t)dist_thread_part(d, dim, t % 32, t / 32);
    px_set_maybits(p, r, bits);
    Slot *keep = ARENA_NEW(p->ctx->arena, Slot);
    *keep = r;
    map_put(&p->tparts, h, keep);
    return r;
}

/* Lane and warp bits that only select copies of elements. */
static void dup_masks(const Dist *d, const Layout *l, unsigned *lane_mask, unsigned *warp_mask) {
    *lane_mask = *warp_mask = 0;
    /* dims of d: lanes beyond the distinct ones */
    for (int dim = 0; dim < d->rank; dim++) {
        int nl = dist_lanes(d, dim), nw = dist_warps(d, dim);
        for (int b = log2i(nl); b < log2i(d->tpw[dim]); b++) *lane_mask |= 1u << (log2i(d->lane_stride[dim]) + b);
        for (int b = log2i(nw); b < log2i(d->wpc[dim]); b++) *warp_mask |= 1u << (log2i(d->warp_stride[dim]) + b);
    }
    /* sliced-away dims: all their lanes and warps */
    unsigned all_l = 0, all_w = 0;
    for (int dim = 0; dim < d->rank; dim++) {
        for (int b = 0; b < log2i(d->tpw[dim]); b++) all_l |= 1u << (log2i(d->lane_stride[dim]) + b);
        for (int b = 0; b < log2i(d->wpc[dim]); b++) all_w |= 1u << (log2i(d->warp_stride[dim]) + b);
    }
    (void)l;
    *lane_mask |= 31u & ~all_l;
    *warp_mask |= (unsigned)(d->nthreads / 32 - 1) & ~all_w;
}

Slot px_owner_pred(Px *p, const Dist *d) {
    unsigned lm, wm;
    dup_masks(d, NULL, &lm, &wm);
    if (!lm && !wm) return (Slot){0};
    uint64_t h = hash_combine(0x0e1, ((uint64_t)lm << 32) | wm) | 1;
    Slot *cached = map_get(&p->tparts, h);
    if (cached) return *cached;
    Slot t = px_reg(p, RC_B32), pr = px_reg(p, RC_PRED);
    unsigned tmask = lm | (wm << 5);
    px_emit_pro(p, "and.b32 %s, %s, %u", px_rname(p, t), px_rname(p, p->tid), tmask);
    px_emit_pro(p, "setp.eq.s32 %s, %s, 0", px_rname(p, pr), px_rname(p, t));
    Slot *keep = ARENA_NEW(p->ctx->arena, Slot);
    *keep = pr;
    map_put(&p->tparts, h, keep);
    return pr;
}

Slot px_scalar_owner_pred(Px *p) {
    uint64_t h = 0x5ca1a7 | 1;
    Slot *cached = map_get(&p->tparts, h);
    if (cached) return *cached;
    Slot pr = px_reg(p, RC_PRED);
    px_emit_pro(p, "setp.eq.s32 %s, %s, 0", px_rname(p, pr), px_rname(p, p->tid));
    Slot *keep = ARENA_NEW(p->ctx->arena, Slot);
    *keep = pr;
    map_put(&p->tparts, h, keep);
    return pr;
}

/* A Dist's linear indices for some strides: per slot, the constant part
 * (worked out once for the kernel), and the register part (kept while its
 * epoch lasts: px_cse's answer, which holds as long as the scope does). A
 * kernel asks for the same few, a layout conversion for its two sides' in
 * turn, every store of an mma operand for its tile's. */
typedef struct PxLinear {
    Dist d;
    int64_t strides[TTG_MAX_RANK];
    int64_t *off;
    unsigned epoch; /* of base (0: none) */
    Slot base;
    Slot tp[TTG_MAX_RANK]; /* px_thread_part's registers (prologue: good for the kernel), once asked */
    struct PxLinear *next;
} PxLinear;

static PxLinear *linear_make(Px *p, const Dist *d, const int64_t *strides);

static inline bool same_strides(const int64_t *x, const int64_t *y, int rank) {
    for (int k = 0; k < rank; k++)
        if (x[k] != y[k]) return false;
    return true;
}

/* (Found entries move to the front: a kernel asks for the same one
 * several times in a row, an operand's rows, a ring's stages.) */
static inline PxLinear *linear_of(Px *p, const Dist *d, const int64_t *strides) {
    for (PxLinear **at = &p->linears, *e; (e = *at) != NULL; at = &e->next)
        if (e->d.nslots == d->nslots && e->d.rank == d->rank && same_strides(e->strides, strides, d->rank) &&
            memcmp(&e->d, d, sizeof *d) == 0) {
            *at = e->next;
            e->next = p->linears;
            p->linears = e;
            return e;
        }
    return linear_make(p, d, strides);
}

/* A new entry, its constants made: each coordinate's, dimension by
 * dimension, then the slots in order (the fastest dimension first, as
 * dist_slot_j counts), their sum kept as the coordinates count up. */
static PxLinear *linear_make(Px *p, const Dist *d, const int64_t *strides) {
    PxLinear *e = ARENA_NEW(p->ctx->arena, PxLinear);
    e->d = *d;
    memcpy(e->strides, strides, sizeof(int64_t) * (size_t)d->rank);
    e->off = ARENA_ARRAY(p->ctx->arena, int64_t, d->nslots > 0 ? d->nslots : 1);
    e->epoch = 0;
    memset(e->tp, 0, sizeof e->tp);
    e->next = p->linears;
    p->linears = e;
    int64_t *part[TTG_MAX_RANK];
    int j[TTG_MAX_RANK] = {0};
    int64_t sum = 0;
    for (int dim = 0; dim < d->rank; dim++) {
        part[dim] = ARENA_ARRAY(p->ctx->arena, int64_t, d->per_dim[dim]);
        for (int k = 0; k < d->per_dim[dim]; k++) part[dim][k] = dist_const(d, dim, k) * strides[dim];
        sum += part[dim][0];
    }
    for (int i = 0; i < d->nslots; i++) {
        e->off[i] = sum;
        for (int k = 0; k < d->rank; k++) {
            int dim = d->order[k];
            sum -= part[dim][j[dim]];
            if (++j[dim] < d->per_dim[dim]) {
                sum += part[dim][j[dim]];
                break;
            }
            j[dim] = 0;
            sum += part[dim][0];
        }
    }
    return e;
}

/* The register part of a linear index: sum of thread_part(dim) * stride. */
static Slot linear_base(Px *p, PxLinear *e) {
    if (e->epoch == p->epoch) return e->base;
    const Dist *d = &e->d;
    const int64_t *strides = e->strides;
    Slot acc = px_imm_int(0, RC_B32);
    for (int dim = 0; dim < d->rank; dim++) {
        if (strides[dim] == 0) continue; /* a coordinate that does not count */
        if (e->tp[dim].kind == SLOT_NONE) e->tp[dim] = px_thread_part(p, d, dim);
        Slot tp = e->tp[dim];
        Slot term = strides[dim] == 1 ? tp
                    : px_cse2(p, RC_B32, "mul.lo.s32", px_arg_reg(p, tp), px_arg_int(p, strides[dim]));
        if (acc.kind == SLOT_IMM) {
            acc.kind = SLOT_REG;
            acc.reg = term.reg;
        } else {
            Slot s = px_cse2(p, RC_B32, "add.s32", px_arg_reg(p, (Slot){SLOT_REG, RC_B32, acc.reg, {0}}),
                             px_arg_reg(p, term));
            acc.reg = s.reg;
        }
    }
    e->epoch = p->epoch;
    e->base = acc;
    return acc;
}

Slot px_linear_index(Px *p, const Dist *d, int slot, const int64_t *strides) {
    PxLinear *e = linear_of(p, d, strides);
    Slot acc = linear_base(p, e);
    acc.off += e->off[slot];
    return acc;
}

const int64_t *px_linear_indices(Px *p, const Dist *d, const int64_t *strides, Slot *base) {
    return px_linear_indices_kept(p, d, strides, NULL, base);
}

const int64_t *px_linear_indices_kept(Px *p, const Dist *d, const int64_t *strides, PxLinear **kept, Slot *base) {
    PxLinear *e = kept && *kept ? *kept : linear_of(p, d, strides);
    if (kept) *kept = e;
    *base = linear_base(p, e);
    return e->off;
}

void px_barrier(Px *p) {
    /* (none right after another: nothing between them to order) */
    static const char last[] = "\tbar.sync 0;\n";
    size_t n = sizeof last - 1;
    if (p->body.len >= n && memcmp(p->body.data + p->body.len - n, last, n) == 0) return;
    char *w = px_w_begin(p, 16);
    memcpy(w, "bar.sync 0", 10);
    px_w_end(p, w + 10);
}

void px_label_at(Px *p, int label) {
    StrBuf *sb = &p->body;
    if (sb->len + 32 > sb->cap) sb_reserve(sb, 32);
    char *w = sb->data + sb->len;
    memcpy(w, "$L__BB", 6);
    w += 6;
    w += fmt_uint(w, (uint64_t)label);
    *w++ = ':', *w++ = '\n', *w = 0;
    sb->len = (size_t)(w - sb->data);
}

void px_bra(Px *p, Slot pred, bool negate, int label) {
    char *w = px_w_begin(p, PX_W_NAME + 32);
    if (pred.kind == SLOT_REG) {
        *w++ = '@';
        if (negate) *w++ = '!';
        w = px_w_regs(p, w, &pred, 1);
        memcpy(w, " bra $L__BB", 11);
        w += 11;
    } else {
        memcpy(w, "bra.uni $L__BB", 14);
        w += 14;
    }
    w += fmt_uint(w, (uint64_t)label);
    px_w_end(p, w);
}

/* ---- element-wise ------------------------------------------------------ */

static bool is_f16ish(const Type *e) { return e->kind == TY_FLOAT && e->width <= 16; }
static const char *fty(const Type *e) { return e->width == 64 ? "f64" : "f32"; }
static const char *ity(const Type *e, bool sgn) {
    int w = e->kind == TY_INT ? e->width : 64;
    if (w > 32) return sgn ? "s64" : "u64";
    return sgn ? "s32" : "u32";
}
static const char *bty(const Type *e) { return px_bits(e) > 32 ? "b64" : "b32"; }

/* Keeps i8/i16 values sign-extended in their 32-bit registers. */
static Slot renorm(Px *p, Slot s, const Type *e) {
    if (e->kind != TY_INT || e->width >= 32 || e->width == 1) return s;
    const char *op = e->width == 8 ? "cvt.s32.s8" : "cvt.s32.s16";
    return px_cse1(p, RC_B32, op, px_arg(p, s, e));
}
/* Zero-extended view of a narrow integer, for unsigned ops. */
static Slot zext_view(Px *p, Slot s, const Type *e) {
    if (e->kind != TY_INT || e->width >= 32 || e->width == 1) return s;
    return px_cse2(p, RC_B32, "and.b32", px_arg(p, s, e), px_arg_int(p, e->width == 8 ? 255 : 65535));
}

static Slot to_f32(Px *p, Slot s, const Type *e) {
    if (!is_f16ish(e)) return s;
    return px_cast(p, s, e, p->f32, false, 0);
}
static Slot from_f32(Px *p, Slot s, const Type *e) {
    if (!is_f16ish(e)) return s;
    return px_cast(p, s, p->f32, e, false, 0);
}

/* The type suffix of the 16-bit float arithmetic of e ("f16", "bf16"), or
 * NULL. Each op is rounded once to 16 bits, as Triton's own PTX does it:
 * one instruction where a round trip through f32 took three or four (the
 * results agree but for fma, which the round trip rounded twice). */
static const char *native16(const Type *e) {
    if (e->kind != TY_FLOAT) return NULL;
    if (e->fkind == FK_F16) return "f16";
    if (e->fkind == FK_BF16) return "bf16";
    return NULL;
}

static PxArg b16_const(Px *p, const char *bits) {
    return px_arg_reg(p, px_cse1(p, RC_B16, "mov.b16", px_arg_text(p, bits)));
}

/* `op.f16 d, a[, b[, c]]` on registers (16-bit float ops take no
 * immediates). sm_80's bf16 has fma, min, max, neg and abs but no add, sub
 * or mul: a + b = fma(a, 1, b), a - b = fma(b, -1, a), a * b = fma(a, b, -0)
 * (exact products and sums rounded once, the sign of a zero kept). */
static Slot native16_op(Px *p, const char *op, const char *suffix, const Slot *in, int n, const Type *e) {
    PxArg r[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) r[i] = px_arg_reg(p, px_mat(p, in[i], e));
    if (suffix[0] == 'b' && p->sm < 90 && (!strncmp(op, "add", 3) || !strncmp(op, "sub", 3) || !strncmp(op, "mul", 3))) {
        if (op[0] == 'a') return px_cse3(p, RC_B16, "fma.rn.bf16", r[0], b16_const(p, "0x3F80"), r[1]);
        if (op[0] == 's') return px_cse3(p, RC_B16, "fma.rn.bf16", r[1], b16_const(p, "0xBF80"), r[0]);
        return px_cse3(p, RC_B16, "fma.rn.bf16", r[0], r[1], b16_const(p, "0x8000"));
    }
    return px_cse3(p, RC_B16, opc_join(p, op, suffix), r[0], r[1], r[2]);
}

static Slot fbin(Px *p, const char *op, Slot a, Slot b, const Type *e) {
    if (!is_f16ish(e)) { /* f32, f64: no conversions (see fma_slot) */
        if (a.kind == SLOT_IMM && b.kind == SLOT_IMM && a.rc == RC_F32 && strcmp(op, "add") == 0)
            return px_imm_float((float)(a.f + b.f), RC_F32);
        return px_cse2(p, px_rc(e), opc_join(p, op, fty(e)), float_arg(p, a, e), float_arg(p, b, e));
    }
    const char *n16 = native16(e);
    if (n16 && (!strncmp(op, "add", 3) || !strncmp(op, "sub", 3) || !strncmp(op, "mul", 3) ||
                !strncmp(op, "max", 3) || !strncmp(op, "min", 3)))
        return native16_op(p, op, n16, (Slot[]){a, b}, 2, e);
    Type *f32 = p->f32;
    const Type *ce = is_f16ish(e) ? f32 : e;
    a = to_f32(p, a, e);
    b = to_f32(p, b, e);
    if (a.kind == SLOT_IMM && b.kind == SLOT_IMM && a.rc == RC_F32 && strcmp(op, "add") == 0)
        return from_f32(p, px_imm_float((float)(a.f + b.f), RC_F32), e);
    Slot r = px_cse2(p, px_rc(ce), opc_join(p, op, fty(ce)), px_arg(p, a, ce), px_arg(p, b, ce));
    return from_f32(p, r, e);
}

/* max / min that propagate a NaN operand (arith.maximumf / minimumf,
 * Triton's PropagateNan.ALL): PTX's .NaN form where it has one (f32, f16,
 * bf16); f64 has none, so the plain form with NaN selected back in when
 * either operand is one (as LLVM expands llvm.maximum.f64 for NVPTX). */
static Slot fmaxmin_nan(Px *p, bool is_max, Slot a, Slot b, const Type *e) {
    if (e->width != 64) return fbin(p, is_max ? "max.NaN" : "min.NaN", a, b, e);
    Slot r = fbin(p, is_max ? "max" : "min", a, b, e);
    Slot nan = px_cse2(p, RC_PRED, "setp.nan.f64", px_arg(p, a, e), px_arg(p, b, e));
    return px_cse(p, RC_F64, "selp.f64", "0d7FF8000000000000", px_rname(p, r), px_rname(p, nan));
}

static Slot fun(Px *p, const char *op, Slot a, const Type *e) {
    if (!is_f16ish(e)) return px_cse1(p, px_rc(e), opc_join(p, op, fty(e)), float_arg(p, a, e)); /* (see fma_slot) */
    Type *f32 = p->f32;
    const Type *ce = is_f16ish(e) ? f32 : e;
    a = to_f32(p, a, e);
    Slot r = px_cse1(p, px_rc(ce), opc_join(p, op, fty(ce)), px_arg(p, a, ce));
    return from_f32(p, r, e);
}

static Slot fneg(Px *p, Slot a, const Type *e) {
    if (a.kind == SLOT_IMM && !is_f16ish(e)) return px_imm_float(-a.f, a.rc);
    const char *n16 = native16(e);
    if (n16) return native16_op(p, "neg", n16, &a, 1, e);
    return fun(p, "neg", a, e);
}

/* f32 math as Triton lowers it (f16/bf16 through f32; f64 never gets here:
 * expand-f64-math rewrote it as fp64 arith before layouts): exp as ex2.approx
 * of x log2(e); exp2, sqrt and rsqrt the .approx.ftz instructions; sin, cos,
 * log, log2, tanh and erf libdevice's (ptx_libm.c). */
static Slot fmath(Px *p, OpKind k, Slot a, const Type *e) {
    Type *f32 = p->f32;
    Slot x = px_cast(p, a, e, f32, false, 0);
    Slot r;
    PxArg xa = px_arg(p, x, f32);
    switch (k) {
    case MATH_EXP: {
        Slot t = px_cse2(p, RC_F32, "mul.f32", xa, px_arg_text(p, "0f3FB8AA3B"));
        r = px_cse1(p, RC_F32, "ex2.approx.f32", px_arg_reg(p, t));
        break;
    }
    case MATH_EXP2: r = px_cse1(p, RC_F32, "ex2.approx.ftz.f32", xa); break;
    case MATH_SQRT: r = px_cse1(p, RC_F32, "sqrt.approx.ftz.f32", xa); break;
    case MATH_RSQRT: r = px_cse1(p, RC_F32, "rsqrt.approx.ftz.f32", xa); break;
    case MATH_LOG: case MATH_LOG2: case MATH_SIN: case MATH_COS: case MATH_TANH: case MATH_ERF:
        r = px_libm(p, k, px_mat(p, x, f32));
        break;
    default: r = x; break;
    }
    return px_cast(p, r, f32, e, false, 0);
}

/* libdevice's fast_* functions: the .approx instructions (CUDA's __sinf,
 * __logf, ...), for "__nv_fast_sinf" and the like, with the argument or the
 * result scaled where the instruction is base 2; false for other symbols. */
static bool fast_math(Px *p, const char *sym, Slot a, const Type *e, Slot *out) {
    static const struct { const char *name, *ins, *pre, *post; } fns[] = {
        {"sinf", "sin.approx.ftz.f32", NULL, NULL},         {"cosf", "cos.approx.ftz.f32", NULL, NULL},
        {"log2f", "lg2.approx.ftz.f32", NULL, NULL},        {"logf", "lg2.approx.ftz.f32", NULL, "0f3F317218"},
        {"expf", "ex2.approx.ftz.f32", "0f3FB8AA3B", NULL}, {"tanhf", "tanh.approx.f32", NULL, NULL},
    };
    if (strncmp(sym, "__nv_fast_", 10)) return false;
    for (int i = 0; i < TC_ARRAY_LEN(fns); i++) {
        if (strcmp(sym + 10, fns[i].name)) continue;
        Type *f32 = p->f32;
        PxArg xa = px_arg(p, px_cast(p, a, e, f32, false, 0), f32);
        if (fns[i].pre) xa = px_arg_reg(p, px_cse2(p, RC_F32, "mul.f32", xa, px_arg_text(p, fns[i].pre)));
        Slot r = px_cse1(p, RC_F32, fns[i].ins, xa);
        if (fns[i].post) r = px_cse2(p, RC_F32, "mul.f32", px_arg_reg(p, r), px_arg_text(p, fns[i].post));
        *out = px_cast(p, r, f32, e, false, 0);
        return true;
    }
    return false;
}

static const char *cmpf_op(int pred) {
    static const char *const ops[CMPF_COUNT] = {"", "eq", "gt", "ge", "lt", "le", "ne", "num",
                                                "equ", "gtu", "geu", "ltu", "leu", "neu", "nan", ""};
    return ops[pred];
}

/* The setp opcode of an integer comparison of operands of type e, whole:
 * asked for at every comparison (no join of its parts). */
static const char *cmpi_opcode(int pred, const Type *e) {
    static const char *const ops[CMPI_COUNT][2] = {
        {"setp.eq.b32", "setp.eq.b64"}, {"setp.ne.b32", "setp.ne.b64"}, {"setp.lt.s32", "setp.lt.s64"},
        {"setp.le.s32", "setp.le.s64"}, {"setp.gt.s32", "setp.gt.s64"}, {"setp.ge.s32", "setp.ge.s64"},
        {"setp.lt.u32", "setp.lt.u64"}, {"setp.le.u32", "setp.le.u64"}, {"setp.gt.u32", "setp.gt.u64"},
        {"setp.ge.u32", "setp.ge.u64"}};
    return ops[pred][e->kind != TY_INT || e->width > 32]; /* (as bty and ity: 64 bits but for narrow ints) */
}

static Slot icmp(Px *p, int pred, Slot a, Slot b, const Type *e) {
    bool uns = pred >= CMPI_ULT;
    if (e->width == 1 && (pred == CMPI_EQ || pred == CMPI_NE)) {
        /* i1 == / != : a predicate xor (not), a constant side folded */
        bool ne = pred == CMPI_NE;
        if (a.kind == SLOT_IMM && b.kind == SLOT_IMM) return px_imm_int(((a.off ^ b.off) & 1) == ne, RC_PRED);
        if (a.kind == SLOT_IMM) {
            Slot t = a;
            a = b;
            b = t;
        }
        Slot x = b.kind == SLOT_IMM ? (((b.off & 1) == ne) ? px_cse1(p, RC_PRED, "not.pred", px_arg(p, a, e)) : a)
                                    : px_cse2(p, RC_PRED, "xor.pred", px_arg(p, a, e), px_arg(p, b, e));
        if (b.kind != SLOT_IMM && !ne) x = px_cse1(p, RC_PRED, "not.pred", px_arg(p, x, e));
        return x;
    }
    if (a.kind == SLOT_IMM && b.kind == SLOT_IMM && (e->kind == TY_INT || e->kind == TY_INDEX)) {
        int w = e->kind == TY_INT ? e->width : 64;
        int64_t x = int_wrap(a.off, w), y = int_wrap(b.off, w);
        uint64_t ux = int_wrap_u(a.off, w), uy = int_wrap_u(b.off, w);
        bool r;
        switch (pred) {
        case CMPI_EQ: r = ux == uy; break;
        case CMPI_NE: r = ux != uy; break;
        case CMPI_SLT: r = x < y; break;
        case CMPI_SLE: r = x <= y; break;
        case CMPI_SGT: r = x > y; break;
        case CMPI_SGE: r = x >= y; break;
        case CMPI_ULT: r = ux < uy; break;
        case CMPI_ULE: r = ux <= uy; break;
        case CMPI_UGT: r = ux > uy; break;
        default: r = ux >= uy; break;
        }
        return px_imm_int(r, RC_PRED);
    }
    if (e->width == 1) {
        /* i1: as 0/1 integers */
        Type *i32 = p->i32;
        a = px_cast(p, a, e, i32, false, 0);
        b = px_cast(p, b, e, i32, false, 0);
        e = i32;
    }
    if (uns) {
        a = zext_view(p, a, e);
        b = zext_view(p, b, e);
    }
    return px_cse2(p, RC_PRED, cmpi_opcode(pred, e), px_arg(p, a, e), px_arg(p, b, e));
}

/* op: "and.pred", "or.pred" or "xor.pred"; a constant operand folded */
static Slot pred_logic(Px *p, const char *op, Slot a, Slot b, const Type *e) {
    if (a.kind == SLOT_IMM) {
        Slot t = a;
        a = b;
        b = t;
    }
    if (b.kind == SLOT_IMM) {
        bool one = b.off & 1;
        if (a.kind == SLOT_IMM) {
            bool x = a.off & 1;
            return px_imm_int(op[0] == 'a' ? (x && one) : op[0] == 'o' ? (x || one) : (x != one), RC_PRED);
        }
        if (op[0] == 'a') return one ? a : px_imm_int(0, RC_PRED);
        if (op[0] == 'o') return one ? px_imm_int(1, RC_PRED) : a;
        return one ? px_cse1(p, RC_PRED, "not.pred", px_arg(p, a, e)) : a;
    }
    return px_cse2(p, RC_PRED, op, px_arg(p, a, e), px_arg(p, b, e));
}

static Slot select_slot(Px *p, Slot c, Slot a, Slot b, const Type *e) {
    Type *i1 = p->i1;
    if (px_rc(e) == RC_PRED) {
        Slot t1 = pred_logic(p, "and.pred", c, a, e);
        Slot nc = px_cse1(p, RC_PRED, "not.pred", px_arg(p, c, i1));
        Slot t2 = pred_logic(p, "and.pred", nc, b, e);
        return pred_logic(p, "or.pred", t1, t2, e);
    }
    const char *op;
    switch (px_rc(e)) {
    case RC_B16: op = "selp.b16"; break;
    case RC_B64: op = "selp.b64"; break;
    case RC_F32: op = "selp.f32"; break;
    case RC_F64: op = "selp.f64"; break;
    default: op = "selp.b32"; break;
    }
    return px_cse3(p, px_rc(e), op, px_arg(p, a, e), px_arg(p, b, e), px_arg(p, c, i1));
}

/* A 64-bit division or remainder by the constant d as a multiply, the
 * sequences of divmagic.h; SLOT_NONE where they do not apply (the
 * instruction then divides). */
static Slot div_const64(Px *p, OpKind k, Slot a, int64_t d, const Type *e) {
    bool uns = k == ARITH_DIVUI || k == ARITH_REMUI, rem = k == ARITH_REMSI || k == ARITH_REMUI;
    uint64_t ad = uns || d > 0 ? (uint64_t)d : 0 - (uint64_t)d;
    if (ad > 1 && (ad & (ad - 1)) == 0 && (uns || d != INT64_MIN)) {
        /* a power of two: shifts (signed: rounded toward zero by adding
         * 2^k - 1 to a negative dividend first) */
        const char *n = px_opnd(p, a, e);
        int sh = 0;
        while ((1ull << sh) != ad) sh++;
        char shs[8], mask[24];
        tc_snprintf(shs, sizeof shs, "%d", sh);
        if (uns) {
            if (!rem) return px_cse(p, RC_B64, "shr.u64", n, shs, NULL);
            tc_snprintf(mask, sizeof mask, "%llu", (unsigned long long)(ad - 1));
            return px_cse(p, RC_B64, "and.b64", n, mask, NULL);
        }
        char rsh[8];
        tc_snprintf(rsh, sizeof rsh, "%d", 64 - sh);
        Slot sign = px_cse(p, RC_B64, "shr.s64", n, "63", NULL);
        Slot bias = px_cse(p, RC_B64, "shr.u64", px_rname(p, sign), rsh, NULL);
        Slot biased = px_cse(p, RC_B64, "add.s64", n, px_rname(p, bias), NULL);
        if (rem) { /* a - ((a + bias) & -2^k) */
            tc_snprintf(mask, sizeof mask, "%lld", (long long)(0 - ad));
            Slot down = px_cse(p, RC_B64, "and.b64", px_rname(p, biased), mask, NULL);
            return px_cse(p, RC_B64, "sub.s64", n, px_rname(p, down), NULL);
        }
        Slot q = px_cse(p, RC_B64, "shr.s64", px_rname(p, biased), shs, NULL);
        return d < 0 ? px_cse(p, RC_B64, "neg.s64", px_rname(p, q), NULL, NULL) : q;
    }
    DivMagic g;
    if (uns ? !divmagic_u64((uint64_t)d, &g) : !divmagic_s64(d, &g)) return (Slot){0};
    const char *n = px_opnd(p, a, e);
    char m[24], sh[8];
    tc_snprintf(m, sizeof m, "0x%016llxU", (unsigned long long)g.m);
    tc_snprintf(sh, sizeof sh, "%d", g.l - 1);
    Slot q;
    if (uns) {
        Slot t = px_cse(p, RC_B64, "mul.hi.u64", n, m, NULL);
        Slot half = px_cse(p, RC_B64, "shr.u64", px_rname(p, px_cse(p, RC_B64, "sub.s64", n, px_rname(p, t), NULL)),
                           "1", NULL);
        q = px_cse(p, RC_B64, "add.s64", px_rname(p, t), px_rname(p, half), NULL);
        q = px_cse(p, RC_B64, "shr.u64", px_rname(p, q), sh, NULL);
    } else {
        Slot t = px_cse(p, RC_B64, "mul.hi.s64", n, m, NULL);
        Slot s = px_cse(p, RC_B64, "add.s64", n, px_rname(p, t), NULL);
        Slot q1 = px_cse(p, RC_B64, "shr.s64", px_rname(p, s), sh, NULL);
        Slot sign = px_cse(p, RC_B64, "shr.s64", n, "63", NULL);
        q = px_cse(p, RC_B64, "sub.s64", px_rname(p, q1), px_rname(p, sign), NULL);
        if (d < 0) q = px_cse(p, RC_B64, "neg.s64", px_rname(p, q), NULL, NULL);
    }
    if (!rem) return q;
    char dt[24];
    tc_snprintf(dt, sizeof dt, "%lld", (long long)d);
    Slot qd = px_cse(p, RC_B64, "mul.lo.s64", px_rname(p, q), dt, NULL);
    return px_cse(p, RC_B64, "sub.s64", n, px_rname(p, qd), NULL);
}

/* Two's-complement arithmetic on 64 bits, as the registers do (and without
 * C's undefined behaviour on signed overflow): constant folding and the
 * constant parts of `reg + constant` slots wrap, and the emitted width
 * takes its low bits. */
static inline int64_t wadd(int64_t x, int64_t y) { return (int64_t)((uint64_t)x + (uint64_t)y); }
static inline int64_t wsub(int64_t x, int64_t y) { return (int64_t)((uint64_t)x - (uint64_t)y); }
static inline int64_t wmul(int64_t x, int64_t y) { return (int64_t)((uint64_t)x * (uint64_t)y); }

/* Integer binary ops, keeping `reg + constant` forms where they are exact. */
static Slot ibin(Px *p, OpKind k, Slot a, Slot b, const Type *e) {
    bool wide = e->kind != TY_INT || e->width >= 32;
    RegClass rc = px_rc(e);
    int w = e->kind == TY_INT ? e->width : 64;
    if (a.kind == SLOT_IMM && b.kind == SLOT_IMM) {
        int64_t x = a.off, y = b.off, r;
        uint64_t ux = int_wrap_u(x, w), uy = int_wrap_u(y, w);
        switch (k) {
        case ARITH_ADDI: r = wadd(x, y); break;
        case ARITH_SUBI: r = wsub(x, y); break;
        case ARITH_MULI: r = wmul(x, y); break;
        case ARITH_ANDI: r = x & y; break;
        case ARITH_ORI: r = x | y; break;
        case ARITH_XORI: r = x ^ y; break;
        case ARITH_DIVSI: r = y == -1 ? wsub(0, x) : y ? x / y : 0; break; /* (INT64_MIN / -1 wraps) */
        case ARITH_REMSI: r = y == -1 ? 0 : y ? x % y : 0; break;
        case ARITH_DIVUI: r = uy ? (int64_t)(ux / uy) : 0; break;
        case ARITH_REMUI: r = uy ? (int64_t)(ux % uy) : 0; break;
        case ARITH_SHLI: r = y >= 0 && y < w ? (int64_t)(ux << y) : 0; break;
        case ARITH_MAXSI: r = x > y ? x : y; break;
        case ARITH_MINSI: r = x < y ? x : y; break;
        default: goto emit;
        }
        return px_imm_int(int_wrap(r, w), rc);
    }
    if (wide && rc != RC_PRED) {
        if (k == ARITH_ADDI && b.kind == SLOT_IMM) return (a.off = wadd(a.off, b.off), a);
        if (k == ARITH_ADDI && a.kind == SLOT_IMM) return (b.off = wadd(b.off, a.off), b);
        if (k == ARITH_SUBI && b.kind == SLOT_IMM) return (a.off = wsub(a.off, b.off), a);
        if (k == ARITH_SUBI && a.kind == SLOT_IMM) {
            /* c - (r + o) = (c - r) - o */
            Slot rb = {SLOT_REG, (uint8_t)rc, b.reg, {0}};
            Slot r = px_cse2(p, rc, w > 32 ? "sub.s64" : "sub.s32", imm_arg(p, px_imm_int(a.off, rc)), px_arg_reg(p, rb));
            r.off = wsub(0, b.off);
            return r;
        }
        if (k == ARITH_ADDI || k == ARITH_SUBI) {
            Slot ra = {SLOT_REG, (uint8_t)rc, a.reg, {0}}, rb = {SLOT_REG, (uint8_t)rc, b.reg, {0}};
            Slot r = px_cse2(p, rc, k == ARITH_ADDI ? (w > 32 ? "add.s64" : "add.s32") : (w > 32 ? "sub.s64" : "sub.s32"),
                             px_arg_reg(p, ra), px_arg_reg(p, rb));
            r.off = k == ARITH_ADDI ? wadd(a.off, b.off) : wsub(a.off, b.off);
            return r;
        }
        if (k == ARITH_MULI && (a.kind == SLOT_IMM || b.kind == SLOT_IMM)) {
            Slot v = a.kind == SLOT_IMM ? b : a;
            int64_t c = a.kind == SLOT_IMM ? a.off : b.off;
            if (c == 0) return px_imm_int(0, rc);
            if (c == 1) return v;
            Slot rv = {SLOT_REG, (uint8_t)rc, v.reg, {0}};
            Slot r = px_cse2(p, rc, w > 32 ? "mul.lo.s64" : "mul.lo.s32", px_arg_reg(p, rv), imm_arg(p, px_imm_int(c, rc)));
            r.off = wmul(v.off, c);
            return r;
        }
    }
emit:;
    if (rc == RC_B64 && w == 64 && b.kind == SLOT_IMM && a.kind != SLOT_IMM &&
        (k == ARITH_DIVSI || k == ARITH_DIVUI || k == ARITH_REMSI || k == ARITH_REMUI)) {
        Slot r = div_const64(p, k, a, b.off, e);
        if (r.kind != SLOT_NONE) return r;
    }
    if (rc == RC_PRED) {
        switch (k) {
        case ARITH_ANDI: case ARITH_MINUI: case ARITH_MAXSI: return pred_logic(p, "and.pred", a, b, e);
        case ARITH_ORI: case ARITH_MAXUI: case ARITH_MINSI: return pred_logic(p, "or.pred", a, b, e);
        case ARITH_XORI: case ARITH_ADDI: case ARITH_SUBI: return pred_logic(p, "xor.pred", a, b, e);
        case ARITH_MULI: return pred_logic(p, "and.pred", a, b, e);
        default: break;
        }
    }
    /* the opcode whole, by the op, the width (32 or 64) and the signedness
     * (no join of its parts at every instruction); bitwise ops are .b32 or
     * .b64 whatever the signedness */
#define IBIN_OPS(o) {o ".s32", o ".u32", o ".s64", o ".u64"}
#define IBIN_BITS(o) {o ".b32", o ".b32", o ".b64", o ".b64"}
    enum { I_ADD, I_SUB, I_MUL, I_DIV, I_REM, I_AND, I_OR, I_XOR, I_SHL, I_SHR, I_MAX, I_MIN, I_MULHI };
    static const char *const ops[][4] = {IBIN_OPS("add"), IBIN_OPS("sub"), IBIN_OPS("mul.lo"), IBIN_OPS("div"),
                                         IBIN_OPS("rem"), IBIN_BITS("and"), IBIN_BITS("or"), IBIN_BITS("xor"),
                                         IBIN_BITS("shl"), IBIN_OPS("shr"), IBIN_OPS("max"), IBIN_OPS("min"),
                                         IBIN_OPS("mul.hi")};
#undef IBIN_OPS
#undef IBIN_BITS
    int row;
    bool uns = false, norm = false;
    switch (k) {
    case ARITH_ADDI: row = I_ADD; norm = true; break;
    case ARITH_SUBI: row = I_SUB; norm = true; break;
    case ARITH_MULI: row = I_MUL; norm = true; break;
    case ARITH_DIVSI: row = I_DIV; norm = true; break; /* (-128 / -1 wraps in an i8) */
    case ARITH_DIVUI: row = I_DIV; uns = true; break;
    case ARITH_REMSI: row = I_REM; break;
    case ARITH_REMUI: row = I_REM; uns = true; break;
    case ARITH_ANDI: row = I_AND; break;
    case ARITH_ORI: row = I_OR; break;
    case ARITH_XORI: row = I_XOR; break;
    case ARITH_SHLI: row = I_SHL; norm = true; break;
    case ARITH_SHRSI: row = I_SHR; break;
    case ARITH_SHRUI: row = I_SHR; uns = true; break;
    case ARITH_MAXSI: row = I_MAX; break;
    case ARITH_MINSI: row = I_MIN; break;
    case ARITH_MAXUI: row = I_MAX; uns = true; break;
    case ARITH_MINUI: row = I_MIN; uns = true; break;
    case TT_MULHIUI: row = I_MULHI; uns = true; break;
    default: return px_imm_int(0, rc);
    }
    const char *opc = ops[row][(w > 32) * 2 + uns]; /* (w: 64 for index, as bty and ity count it) */
    if (uns) {
        a = zext_view(p, a, e);
        b = zext_view(p, b, e);
    }
    if (k == ARITH_SHLI || k == ARITH_SHRSI || k == ARITH_SHRUI) {
        /* shift amounts are .u32 */
        Slot bs = b;
        if (rc == RC_B64) {
            if (b.kind == SLOT_IMM) bs = px_imm_int(b.off, RC_B32);
            else bs = px_cse1(p, RC_B32, "cvt.u32.u64", px_arg(p, b, e));
        }
        Slot r = px_cse2(p, rc, opc, px_arg(p, a, e), px_arg(p, bs, p->i32));
        return norm ? renorm(p, r, e) : (uns ? renorm(p, r, e) : r);
    }
    Slot r = px_cse2(p, rc, opc, px_arg(p, a, e), px_arg(p, b, e));
    return (norm || uns) ? renorm(p, r, e) : r;
}

/* ibin's add or sub of two registers or of a register and a constant,
 * its register times a constant and its product of two plain registers,
 * the forms of the arithmetic of indices and offsets (arith.addi, subi
 * and muli of 32- or 64-bit integers or index), with the CSE lookup
 * inline; false for the others (then ibin). */
static PX_INLINE bool int_arith_fast(Px *p, OpKind k, Slot a, Slot b, const Type *e, Slot *out) {
    RegClass rc = px_rc(e);
    if (rc == RC_PRED || (e->kind != TY_INDEX && e->width < 32) || a.kind != SLOT_REG) return false;
    bool w64 = rc == RC_B64;
    Slot r;
    if (b.kind == SLOT_IMM && k != ARITH_MULI) { /* (the constant folded into a's) */
        r = a;
        r.off = k == ARITH_ADDI ? wadd(a.off, b.off) : wsub(a.off, b.off);
    } else if (k == ARITH_MULI && b.kind == SLOT_IMM && (b.off == 0 || b.off == 1)) {
        r = b.off ? a : px_imm_int(0, rc);
    } else if (k == ARITH_MULI && b.kind == SLOT_REG && a.off == 0 && b.off == 0) {
        r = cse(p, rc, opcode_arg(p, w64 ? "mul.lo.s64" : "mul.lo.s32"), px_arg_reg(p, a), px_arg_reg(p, b), 0);
    } else if (b.kind == SLOT_REG && k != ARITH_MULI) {
        r = cse(p, rc, opcode_arg(p, k == ARITH_ADDI ? (w64 ? "add.s64" : "add.s32") : (w64 ? "sub.s64" : "sub.s32")),
                px_arg_reg(p, (Slot){SLOT_REG, rc, a.reg, {0}}), px_arg_reg(p, (Slot){SLOT_REG, rc, b.reg, {0}}), 0);
        r.off = k == ARITH_ADDI ? wadd(a.off, b.off) : wsub(a.off, b.off);
    } else if (k == ARITH_MULI && b.kind == SLOT_IMM && b.off != 0 && b.off != 1) {
        r = cse(p, rc, opcode_arg(p, w64 ? "mul.lo.s64" : "mul.lo.s32"), px_arg_reg(p, (Slot){SLOT_REG, rc, a.reg, {0}}),
                imm_arg(p, px_imm_int(b.off, rc)), 0);
        r.off = wmul(a.off, b.off);
    } else {
        return false;
    }
    *out = r;
    return true;
}

/* The same for one slot (scalar code), and the and, or and xor of two
 * predicate registers (a mask's terms), out of line, ibin doing the rest
 * (a smaller frame than ibin's, and no px_cse2 between). */
static PX_OUTLINE Slot int_arith_slot(Px *p, OpKind k, Slot a, Slot b, const Type *e) {
    Slot r;
    if (k == ARITH_ANDI || k == ARITH_ORI || k == ARITH_XORI) {
        if (e->kind == TY_INT && e->width == 1 && a.kind == SLOT_REG && b.kind == SLOT_REG) { /* (as ibin: pred_logic) */
            const char *o = k == ARITH_ANDI ? "and.pred" : k == ARITH_ORI ? "or.pred" : "xor.pred";
            if (!a.off && !b.off) /* (two plain registers, a mask's terms: the lookup inline) */
                return cse(p, RC_PRED, opcode_arg(p, o), px_arg_reg(p, a), px_arg_reg(p, b), 0);
            return pred_logic(p, o, a, b, e);
        }
        return ibin(p, k, a, b, e);
    }
    return int_arith_fast(p, k, a, b, e, &r) ? r : ibin(p, k, a, b, e);
}

/* fp8 without the sm_89 conversions. e5m2 is the top byte of an f16; e4m3
 * (bias 7, no infinities, 0x7F NaN) is decoded by placing its exponent and
 * mantissa in an f32 and scaling by 2^120 (exact, subnormals included). */
static Slot f8_to_f32_sw(Px *p, Slot x, FloatKind k) {
    const char *xs = px_opnd(p, x, NULL);
    Slot u = px_cse(p, RC_B32, "cvt.u32.u16", xs, NULL, NULL);
    const char *us = px_rname(p, u);
    if (k == FK_F8E5M2) {
        Slot h = px_cse(p, RC_B32, "shl.b32", us, "8", NULL);
        Slot h16 = px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, h), NULL, NULL);
        return px_cse(p, RC_F32, "cvt.f32.f16", px_rname(p, h16), NULL, NULL);
    }
    Slot m = px_cse(p, RC_B32, "and.b32", us, "127", NULL);
    Slot sh = px_cse(p, RC_B32, "shl.b32", px_rname(p, m), "20", NULL);
    Slot sg0 = px_cse(p, RC_B32, "and.b32", us, "128", NULL);
    Slot sg = px_cse(p, RC_B32, "shl.b32", px_rname(p, sg0), "24", NULL);
    Slot bits = px_cse(p, RC_B32, "or.b32", px_rname(p, sh), px_rname(p, sg), NULL);
    Slot f = px_cse(p, RC_F32, "mov.b32", px_rname(p, bits), NULL, NULL);
    Slot v = px_cse(p, RC_F32, "mul.f32", px_rname(p, f), "0f7B800000", NULL);
    Slot isnan = px_cse(p, RC_PRED, "setp.eq.s32", px_rname(p, m), "127", NULL);
    return px_cse(p, RC_F32, "selp.f32", "0f7FC00000", px_rname(p, v), px_rname(p, isnan));
}

/* f32 -> fp8, round to nearest even, saturating to the largest finite
 * value (as cvt.rn.satfinite), NaN to 0x7F. */
static Slot f32_to_f8_sw(Px *p, Slot x, FloatKind k) {
    int m = k == FK_F8E4M3 ? 3 : 2, bias = k == FK_F8E4M3 ? 7 : 15, maxcode = k == FK_F8E4M3 ? 0x7E : 0x7B;
    Slot xm = px_mat(p, x, NULL);
    Slot b = px_cse(p, RC_B32, "mov.b32", px_rname(p, xm), NULL, NULL);
    const char *bs = px_rname(p, b);
    Slot a = px_cse(p, RC_B32, "and.b32", bs, "2147483647", NULL);
    const char *as = px_rname(p, a);
    /* normal: round the f32 bits to m mantissa bits, re-bias */
    int drop = 23 - m;
    Slot lsb0 = px_cse(p, RC_B32, "shr.u32", as, px_int(p, drop), NULL);
    Slot lsb = px_cse(p, RC_B32, "and.b32", px_rname(p, lsb0), "1", NULL);
    Slot r0 = px_cse(p, RC_B32, "add.s32", as, px_int(p, (1 << (drop - 1)) - 1), NULL);
    Slot r1 = px_cse(p, RC_B32, "add.s32", px_rname(p, r0), px_rname(p, lsb), NULL);
    Slot r2 = px_cse(p, RC_B32, "shr.u32", px_rname(p, r1), px_int(p, drop), NULL);
    /* (e - 127 + bias) << m == r2 - ((127 - bias) << m) */
    Slot nc = px_cse(p, RC_B32, "sub.s32", px_rname(p, r2), px_int(p, (127 - bias) << m), NULL);
    /* subnormal: rni(|x| * 2^(m - emin)), emin = 1 - bias */
    Slot af = px_cse(p, RC_F32, "mov.b32", as, NULL, NULL);
    float sc = ldexpf(1.0f, m + bias - 1);
    uint32_t scb;
    memcpy(&scb, &sc, 4);
    Slot sf = px_cse(p, RC_F32, "mul.f32", px_rname(p, af), imm_text(p, px_imm_float(sc, RC_F32)), NULL);
    Slot sr = px_cse(p, RC_F32, "cvt.rni.f32.f32", px_rname(p, sf), NULL, NULL);
    Slot sn = px_cse(p, RC_B32, "cvt.rzi.u32.f32", px_rname(p, sr), NULL, NULL);
    uint32_t minnorm = (uint32_t)(127 + 1 - bias) << 23;
    Slot issub = px_cse(p, RC_PRED, "setp.lt.u32", as, px_int(p, minnorm), NULL);
    Slot code = px_cse(p, RC_B32, "selp.b32", px_rname(p, sn), px_rname(p, nc), px_rname(p, issub));
    Slot sat = px_cse(p, RC_B32, "min.u32", px_rname(p, code), px_int(p, maxcode), NULL);
    Slot isnan = px_cse(p, RC_PRED, "setp.gt.u32", as, "2139095040", NULL);
    Slot c2 = px_cse(p, RC_B32, "selp.b32", "127", px_rname(p, sat), px_rname(p, isnan));
    Slot sg = px_cse(p, RC_B32, "shr.u32", bs, "24", NULL);
    Slot sg2 = px_cse(p, RC_B32, "and.b32", px_rname(p, sg), "128", NULL);
    Slot res = px_cse(p, RC_B32, "or.b32", px_rname(p, c2), px_rname(p, sg2), NULL);
    return px_cse(p, RC_B16, "cvt.u16.u32", px_rname(p, res), NULL, NULL);
}

Slot px_cast(Px *p, Slot x, const Type *from, const Type *to, bool sgn, int rounding) {
    if (from == to) return x;
    RegClass rf = px_rc(from), rt = px_rc(to);
    const char *xs;
    char opc[48];
    /* int -> int */
    if ((from->kind == TY_INT || from->kind == TY_INDEX) && (to->kind == TY_INT || to->kind == TY_INDEX)) {
        int wf = from->kind == TY_INT ? from->width : 64, wt = to->kind == TY_INT ? to->width : 64;
        if (x.kind == SLOT_IMM) {
            int64_t v = sgn ? int_wrap(x.off, wf) : (int64_t)int_wrap_u(x.off, wf);
            if (wf == 1) v = sgn ? -(x.off & 1) : (x.off & 1);
            return px_imm_int(int_wrap(v, wt), rt);
        }
        if (wf == 1) {
            PxArg xa = px_arg(p, x, from);
            return px_cse3(p, rt, rt == RC_B64 ? "selp.b64" : "selp.b32", px_arg_int(p, sgn ? -1 : 1), px_arg_int(p, 0), xa);
        }
        if (wt == 1) {
            Slot b = px_cse2(p, rf, rf == RC_B64 ? "and.b64" : "and.b32", px_arg(p, x, from), px_arg_int(p, 1));
            return px_cse2(p, RC_PRED, rf == RC_B64 ? "setp.ne.b64" : "setp.ne.b32", px_arg_reg(p, b), px_arg_int(p, 0));
        }
        if (wt > 32 && wf <= 32) {
            Slot v = sgn ? x : zext_view(p, x, from);
            if (!sgn && wf < 32) return px_cse1(p, RC_B64, "cvt.u64.u32", px_arg(p, v, from));
            return px_cse1(p, RC_B64, sgn ? "cvt.s64.s32" : "cvt.u64.u32", px_arg(p, v, from));
        }
        if (wt <= 32 && wf > 32) {
            Slot r = px_cse1(p, RC_B32, "cvt.u32.u64", px_arg(p, x, from));
            return renorm(p, r, to);
        }
        if (wt > 32 && wf > 32) return x;
        /* both in 32-bit registers */
        if (wt < wf) return renorm(p, x, to);
        return sgn ? x : zext_view(p, x, from);
    }
    if (from->kind == TY_PTR || to->kind == TY_PTR) return x;
    /* float -> float */
    if (from->kind == TY_FLOAT && to->kind == TY_FLOAT) {
        if (x.kind == SLOT_IMM) {
            if (rf != RC_B16) {
                double v = x.f;
                if (rt == RC_B16)
                    return px_imm_int(to->fkind == FK_BF16 ? f32_to_bf16_bits((float)v) : f32_to_f16_bits((float)v), RC_B16);
                return px_imm_float(rt == RC_F32 ? (float)v : v, rt);
            }
            if (rt != RC_B16 && from->fkind != FK_F8E4M3 && from->fkind != FK_F8E5M2)
                return px_imm_float(from->fkind == FK_BF16 ? bf16_bits_value((uint16_t)x.off) : f16_bits_value((uint16_t)x.off), rt);
        }
        PxArg xa = px_arg(p, x, from);
        xs = px_arg_str(p, xa);
        bool f8from = from->fkind == FK_F8E4M3 || from->fkind == FK_F8E5M2;
        bool f8to = to->fkind == FK_F8E4M3 || to->fkind == FK_F8E5M2;
        if (f8from && p->sm < 89) return px_cast(p, f8_to_f32_sw(p, x, from->fkind), p->f32, to, false, rounding);
        if (f8to && p->sm < 89) {
            Slot f = px_cast(p, x, from, p->f32, false, 0);
            return f32_to_f8_sw(p, f, to->fkind);
        }
        if (f8from) {
            /* fp8 -> f16x2 (the low half is ours), then on */
            Slot w = px_cse(p, RC_B32, from->fkind == FK_F8E4M3 ? "cvt.rn.f16x2.e4m3x2" : "cvt.rn.f16x2.e5m2x2", xs, NULL, NULL);
            Slot h = px_reg(p, RC_B16), hh = px_reg(p, RC_B16);
            px_emit(p, "mov.b32 {%s, %s}, %s", px_rname(p, h), px_rname(p, hh), px_rname(p, w));
            return px_cast(p, h, ty_float(p->ctx, FK_F16), to, false, rounding);
        }
        if (f8to) {
            Slot f = px_cast(p, x, from, p->f32, false, 0);
            Slot z = px_mat(p, px_imm_float(0.0, RC_F32), p->f32);
            tc_snprintf(opc, sizeof opc, "cvt.rn.satfinite.%s.f32", to->fkind == FK_F8E4M3 ? "e4m3x2" : "e5m2x2");
            return px_cse(p, RC_B16, opc, px_rname(p, z), px_rname(p, f), NULL);
        }
        const char *fs = from->fkind == FK_BF16 ? "bf16" : from->fkind == FK_F16 ? "f16" : fty(from);
        const char *ts = to->fkind == FK_BF16 ? "bf16" : to->fkind == FK_F16 ? "f16" : fty(to);
        if (from->fkind == FK_BF16 && to->width > 16 && p->sm < 90) {
            /* bf16 -> f32: the bf16 bits are the top half of the f32 */
            Slot u = px_cse1(p, RC_B32, "cvt.u32.u16", xa);
            Slot s = px_cse2(p, RC_B32, "shl.b32", px_arg_reg(p, u), px_arg_int(p, 16));
            Slot f = px_cse1(p, RC_F32, "mov.b32", px_arg_reg(p, s));
            return to->width == 64 ? px_cse1(p, RC_F64, "cvt.f64.f32", px_arg_reg(p, f)) : f;
        }
        if (from->fkind == FK_BF16 && to->fkind == FK_F16) {
            Slot f = px_cast(p, x, from, p->f32, false, 0);
            return px_cast(p, f, p->f32, to, false, rounding);
        }
        if (from->fkind == FK_F16 && to->fkind == FK_BF16) {
            Slot f = px_cast(p, x, from, p->f32, false, 0);
            return px_cast(p, f, p->f32, to, false, rounding);
        }
        if (from->width == 64 && to->fkind == FK_BF16 && p->sm < 90) {
            /* no cvt.bf16.f64 before sm_90 (ptxas rejects it): f64 -> f32
             * rounded to odd (truncated, its last bit set when that was
             * inexact), then f32 -> bf16, which rounds once, as the direct
             * cvt does (f32 keeps 16 more bits than bf16 at every exponent) */
            Slot t = px_cse(p, RC_F32, "cvt.rz.f32.f64", xs, NULL, NULL);
            if (rounding == 1) return px_cast(p, t, p->f32, to, false, rounding);
            Slot back = px_cse(p, RC_F64, "cvt.f64.f32", px_rname(p, t), NULL, NULL);
            Slot inexact = px_cse(p, RC_PRED, "setp.neu.f64", px_rname(p, back), xs, NULL);
            Slot tb = px_cse(p, RC_B32, "mov.b32", px_rname(p, t), NULL, NULL);
            Slot sticky = px_cse(p, RC_B32, "selp.b32", "1", "0", px_rname(p, inexact));
            Slot ob = px_cse(p, RC_B32, "or.b32", px_rname(p, tb), px_rname(p, sticky), NULL);
            Slot odd = px_cse(p, RC_F32, "mov.b32", px_rname(p, ob), NULL, NULL);
            return px_cast(p, odd, p->f32, to, false, 0);
        }
        bool narrowing = to->width < from->width;
        const char *cvt = narrowing ? opc_join(p, "cvt", rounding == 1 ? "rz" : "rn") : "cvt";
        return px_cse1(p, rt, opc_join(p, opc_join(p, cvt, ts), fs), xa);
    }
    /* int -> float */
    if (to->kind == TY_FLOAT) {
        Type *i32 = p->i32;
        if (from->width == 1) return px_cast(p, px_cast(p, x, from, i32, sgn, 0), i32, to, sgn, rounding);
        if (x.kind == SLOT_IMM && rt != RC_B16) return px_imm_float(sgn ? (double)x.off : (double)int_wrap_u(x.off, from->width), rt);
        if (to->fkind == FK_BF16 || to->fkind == FK_F8E4M3 || to->fkind == FK_F8E5M2) {
            Slot f = px_cast(p, x, from, p->f32, sgn, 0);
            return px_cast(p, f, p->f32, to, false, rounding);
        }
        Slot v = sgn ? x : zext_view(p, x, from);
        const char *ts = to->fkind == FK_F16 ? "f16" : fty(to);
        return px_cse1(p, rt, opc_join(p, opc_join(p, "cvt.rn", ts), ity(from, sgn)), px_arg(p, v, from));
    }
    /* float -> int */
    if (from->kind == TY_FLOAT) {
        if (from->fkind == FK_BF16 || from->fkind == FK_F8E4M3 || from->fkind == FK_F8E5M2) {
            Slot f = px_cast(p, x, from, p->f32, false, 0);
            return px_cast(p, f, p->f32, to, sgn, rounding);
        }
        if (to->width == 1) {
            const char *o = opc_join(p, "setp.neu", from->fkind == FK_F16 ? "f32" : fty(from));
            Slot f = to_f32(p, x, from);
            return px_cse2(p, RC_PRED, o, px_arg(p, f, is_f16ish(from) ? p->f32 : from), px_arg_text(p, "0f00000000"));
        }
        const char *fs = from->fkind == FK_F16 ? "f16" : fty(from);
        Slot r = px_cse1(p, rt, opc_join(p, opc_join(p, "cvt.rzi", ity(to, sgn)), fs), px_arg(p, x, from));
        return renorm(p, r, to);
    }
    return x;
}

static Slot bitcast(Px *p, Slot x, const Type *from, const Type *to) {
    RegClass rf = px_rc(from), rt = px_rc(to);
    if (rf == rt) return x;
    PxArg xa = px_arg(p, x, from);
    if (rt == RC_B16) return px_cse1(p, RC_B16, "cvt.u16.u32", xa);
    if (rf == RC_B16) {
        Slot u = px_cse1(p, RC_B32, "cvt.u32.u16", xa);
        return renorm(p, u, to);
    }
    if (rt == RC_F32 || rt == RC_B32) return px_cse1(p, rt, "mov.b32", xa);
    return px_cse1(p, rt, "mov.b64", xa);
}

/* The math op a libdevice function computes ("__nv_tanhf" -> math.tanh),
 * for tt.extern_elementwise; OP_COUNT when we have no inline version (we
 * emit PTX directly and cannot link libdevice). */
static OpKind libdevice_math_kind(const char *symbol) {
    static const struct { const char *name; OpKind kind; } fns[] = {
        {"tanh", MATH_TANH}, {"exp", MATH_EXP},   {"exp2", MATH_EXP2}, {"log", MATH_LOG},
        {"log2", MATH_LOG2}, {"sqrt", MATH_SQRT}, {"rsqrt", MATH_RSQRT}, {"sin", MATH_SIN},
        {"cos", MATH_COS},   {"erf", MATH_ERF},   {"floor", MATH_FLOOR}, {"ceil", MATH_CEIL},
        {"fabs", MATH_ABSF}, {"fma", MATH_FMA},
    };
    if (!symbol || strncmp(symbol, "__nv_", 5) != 0) return OP_COUNT;
    const char *n = symbol + 5;
    size_t len = strlen(n);
    for (int i = 0; i < TC_ARRAY_LEN(fns); i++) {
        size_t fl = strlen(fns[i].name);
        /* "tanh" (f64) or "tanhf" (f32) */
        if (!strncmp(n, fns[i].name, fl) && (len == fl || (len == fl + 1 && n[fl] == 'f')))
            return fns[i].kind;
    }
    return OP_COUNT;
}

/* libdevice's arithmetic in a rounding mode, "__nv_{f,d}{add,mul,div,rcp,
 * sqrt}_{rn,rz,rd,ru}" and "__nv_fma{f,}_{..}", is one PTX instruction with
 * that rounding (libdevice's rd/ru are PTX's rm/rp; sub as add); "__nv_saturatef" is
 * an add of 0 with .sat (clamps to [0, 1], NaN to 0). Returns false for
 * other symbols. */
static bool rounded_arith(Px *p, const char *sym, const Slot *in, const Type *re, Slot *out);

/* libdevice's conversions to a float in a rounding mode,
 * "__nv_{int,uint,ll,ull}2{float,double}_<mode>" and
 * "__nv_double2float_<mode>": one cvt.<rn|rz|rm|rp>.<to>.<from>. Returns
 * false for other symbols. */
static bool rounded_convert(Px *p, const char *sym, const Slot *in, const Type *from, const Type *re, Slot *out) {
    static const struct { const char *prefix, *ptx_from; } convs[] = {
        {"__nv_int2float_", "s32"}, {"__nv_uint2float_", "u32"}, {"__nv_ll2float_", "s64"}, {"__nv_ull2float_", "u64"},
        {"__nv_ll2double_", "s64"}, {"__nv_ull2double_", "u64"}, {"__nv_double2float_", "f64"},
    };
    static const char *const modes[][2] = {{"rn", "rn"}, {"rz", "rz"}, {"rd", "rm"}, {"ru", "rp"}};
    for (int i = 0; i < TC_ARRAY_LEN(convs); i++) {
        size_t len = strlen(convs[i].prefix);
        if (strncmp(sym, convs[i].prefix, len)) continue;
        for (int k = 0; k < 4; k++) {
            if (strcmp(sym + len, modes[k][0])) continue;
            char opc[32];
            tc_snprintf(opc, sizeof opc, "cvt.%s.%s.%s", modes[k][1], re->width == 64 ? "f64" : "f32", convs[i].ptx_from);
            *out = px_cse(p, px_rc(re), opc, px_opnd(p, in[0], from), NULL, NULL);
            return true;
        }
    }
    return false;
}

static bool rounded_arith(Px *p, const char *sym, const Slot *in, const Type *re, Slot *out) {
    static const struct { const char *name; const char *ptx; int arity; } ops[] = {
        {"add", "add", 2}, {"sub", "sub", 2}, {"mul", "mul", 2}, {"div", "div", 2}, {"rcp", "rcp", 1}, {"sqrt", "sqrt", 1}, {"fma", "fma", 3},
    };
    static const char *const modes[][2] = {{"rn", "rn"}, {"rz", "rz"}, {"rd", "rm"}, {"ru", "rp"}};
    const char *ty = re->width == 64 ? "f64" : "f32";
    if (!strcmp(sym, "__nv_saturatef")) {
        *out = px_cse(p, RC_F32, "add.sat.f32", px_opnd(p, in[0], re), "0f00000000", NULL);
        return true;
    }
    if (strncmp(sym, "__nv_", 5)) return false;
    const char *n = sym + 5;
    for (int i = 0; i < TC_ARRAY_LEN(ops); i++) {
        size_t len = strlen(ops[i].name);
        const char *m;
        if (ops[i].arity == 3) { /* fmaf_rz (fp32), fma_rz (fp64) */
            if (strncmp(n, "fma", 3)) continue;
            m = n + 3 + (n[3] == 'f');
        } else {
            if ((n[0] != 'f' && n[0] != 'd') || strncmp(n + 1, ops[i].name, len)) continue;
            m = n + 1 + len;
        }
        if (m[0] != '_') continue;
        for (int k = 0; k < 4; k++) {
            if (strcmp(m + 1, modes[k][0])) continue;
            char opc[24];
            tc_snprintf(opc, sizeof opc, "%s.%s.%s", ops[i].ptx, modes[k][1], ty);
            const char *a[3] = {NULL, NULL, NULL};
            for (int j = 0; j < ops[i].arity; j++) a[j] = px_opnd(p, in[j], re);
            *out = px_cse(p, px_rc(re), opc, a[0], a[1], a[2]);
            return true;
        }
    }
    return false;
}

/* The integer attribute of an element-wise op (a comparison's predicate, a
 * conversion's rounding; 0 when absent), looked up once for all its
 * slots. */
static int64_t ew_attr(Px *p, Op *op, AttrName name) {
    if (p->ew_attr.op != op) {
        p->ew_attr.op = op;
        p->ew_attr.v = 0;
        op_attr_int_k(op, name, &p->ew_attr.v);
    }
    return p->ew_attr.v;
}

static Slot fma_slot(Px *p, const Slot *in, const Type *re) {
    if (!is_f16ish(re)) /* f32, f64: no conversions (and no operand to materialise: plain registers or immediates) */
        return px_cse3(p, px_rc(re), re->width == 64 ? "fma.rn.f64" : "fma.rn.f32", float_arg(p, in[0], re),
                       float_arg(p, in[1], re), float_arg(p, in[2], re));
    const char *n16 = native16(re);
    if (n16) return native16_op(p, "fma.rn", n16, in, 3, re);
    const Type *ce = is_f16ish(re) ? p->f32 : re;
    Slot a = to_f32(p, in[0], re), b = to_f32(p, in[1], re), c = to_f32(p, in[2], re);
    Slot r = px_cse3(p, px_rc(ce), ce->width == 64 ? "fma.rn.f64" : "fma.rn.f32", px_arg(p, a, ce), px_arg(p, b, ce),
                     px_arg(p, c, ce));
    return from_f32(p, r, re);
}

/* Whether the remainder op's operands are also divided (`a // b` next to
 * `a % b`): then the remainder is a - (a / b) * b on that quotient, as LLVM
 * pairs them (ptxas expands a division and a remainder by a register each
 * into a long sequence; a remainder alone stays one). */
static bool quotient_at_hand(Op *rem) {
    OpKind div = rem->kind == ARITH_REMSI ? ARITH_DIVSI : ARITH_DIVUI;
    for (Use *u = op_operand(rem, 0)->uses; u; u = u->next)
        if (u->owner->kind == div && op_operand(u->owner, 0) == op_operand(rem, 0) &&
            op_operand(u->owner, 1) == op_operand(rem, 1))
            return true;
    return false;
}

static Slot rem_by_quotient(Px *p, OpKind k, Slot a, Slot b, const Type *e) {
    bool uns = k == ARITH_REMUI;
    RegClass rc = px_rc(e);
    if (uns) {
        a = zext_view(p, a, e);
        b = zext_view(p, b, e);
    }
    PxArg as = px_arg(p, a, e), bs = px_arg(p, b, e);
    const char *t = ity(e, !uns);
    Slot q = px_cse2(p, rc, opc_join(p, "div", t), as, bs); /* (the division's own, by CSE) */
    Slot qb = px_cse2(p, rc, opc_join(p, "mul.lo", t), px_arg_reg(p, q), bs);
    Slot r = px_cse2(p, rc, opc_join(p, "sub", t), as, px_arg_reg(p, qb));
    return uns ? renorm(p, r, e) : r;
}

/* Whether op widens a tt.make_range of non-negative values (what
 * rewrite-tensor-pointer and `tl.arange(...).to(tl.int64)` make) and x is
 * one of its slots, `thread part + k`: both terms are non-negative and
 * their sum fits in 32 bits, so the widened sum is the widened thread part
 * plus k, and the 64-bit slots keep the constant offsets that later
 * address arithmetic folds into [reg + offset] (rather than a cvt and a
 * 64-bit add per element). */
static bool widens_range(Op *op, Slot x) {
    Op *d = op_operand(op, 0)->def;
    int64_t start = 0;
    return x.kind == SLOT_REG && x.off > 0 && d && d->kind == TT_MAKE_RANGE && op_attr_int_k(d, AN_START, &start) &&
           start >= 0 && ty_elem(op_result(op, 0)->type)->width == 64;
}

/* tt.addptr's offset register o (its constant aside) in bytes, as a 64-bit
 * register: px_cse's answer, memoised by o's register. */
static Slot addptr_wide_make(Px *p, Slot ro, int64_t scale, uint8_t how, PxWideMemo *m) {
    Slot wide = how == 1 ? px_cse2(p, RC_B64, "mul.lo.s64", px_arg_reg(p, ro), px_arg_int(p, scale))
                : how == 2 ? px_cse1(p, RC_B64, "cvt.s64.s32", px_arg_reg(p, ro))
                           : px_cse2(p, RC_B64, "mul.wide.s32", px_arg_reg(p, ro), px_arg_int(p, scale));
    *m = (PxWideMemo){p->epoch, ro.reg, ro.rc, how, scale, wide};
    return wide;
}

/* (The lookup inline, its first sight of a register out of line.) */
static PX_INLINE Slot addptr_wide(Px *p, Slot o, const Type *oe, int64_t scale) {
    int ow = oe->kind == TY_INT ? oe->width : 64;
    Slot ro = {SLOT_REG, o.rc, o.reg, {0}};
    if (ow > 32 && scale == 1) return ro;
    uint8_t how = ow > 32 ? 1 : scale == 1 ? 2 : 3;
    PxWideMemo *m = &p->wide_memo[(unsigned)o.reg % TC_ARRAY_LEN(p->wide_memo)];
    if (m->epoch == p->epoch && m->how == how && m->o_reg == o.reg && m->o_rc == o.rc && m->scale == scale)
        return m->wide;
    return addptr_wide_make(p, ro, scale, how, m);
}

/* What tt.addptr's slots share: the element size, the offsets' element
 * type and the add's opcode (worked out once for a tile's slots). */
typedef struct AddptrPlan {
    int64_t scale;
    const Type *oe;
    PxArg add;
} AddptrPlan;

static void addptr_plan(Px *p, Op *op, const Type *re, AddptrPlan *ap) {
    const Type *pe = re->elem;
    ap->scale = pe->kind == TY_PTR ? 8 : px_bits(pe) / 8;
    ap->oe = ty_elem(op_operand(op, 1)->type);
    ap->add = opcode_arg(p, "add.s64");
}

/* ptr + o elements: the offset's register widened to bytes, added (the
 * constants folded into the result's). */
static PX_INLINE Slot addptr_slot(Px *p, const AddptrPlan *ap, Slot ptr, Slot o) {
    if (o.kind == SLOT_IMM) return (ptr.off = wadd(ptr.off, wmul(o.off, ap->scale)), ptr);
    Slot r = addptr_wide(p, o, ap->oe, ap->scale);
    if (ptr.kind != SLOT_IMM)
        r = cse(p, RC_B64, ap->add, px_arg_reg(p, (Slot){SLOT_REG, RC_B64, ptr.reg, {0}}), px_arg_reg(p, r), 0);
    r.off = wadd(ptr.off, wmul(o.off, ap->scale));
    return r;
}

Slot px_ew(Px *p, Op *op, Slot *in, const Type *re) {
    const Type *e0 = op->noperands ? ty_elem(op_operand(op, 0)->type) : re;
    switch (op->kind) {
    /* without fp fusion, rounded explicitly: ptxas may fuse a mul and an add
     * that carry no rounding mode (as Triton with enable_fp_fusion=False) */
    case ARITH_ADDF: return fbin(p, p->fp_fusion ? "add" : "add.rn", in[0], in[1], re);
    case ARITH_SUBF: return fbin(p, p->fp_fusion ? "sub" : "sub.rn", in[0], in[1], re);
    case ARITH_MULF: return fbin(p, p->fp_fusion ? "mul" : "mul.rn", in[0], in[1], re);
    case ARITH_DIVF: return fbin(p, re->width == 32 || is_f16ish(re) ? "div.full" : "div.rn", in[0], in[1], re);
    case TT_PRECISE_DIVF: return fbin(p, "div.rn", in[0], in[1], re);
    case ARITH_MAXIMUMF: return fmaxmin_nan(p, true, in[0], in[1], re);
    case ARITH_MINIMUMF: return fmaxmin_nan(p, false, in[0], in[1], re);
    case ARITH_MAXNUMF: return fbin(p, "max", in[0], in[1], re);
    case ARITH_MINNUMF: return fbin(p, "min", in[0], in[1], re);
    case ARITH_REMF: {
        /* fmod: a - trunc(a / b) * b */
        Slot q = fbin(p, "div.rn", in[0], in[1], re);
        Slot t = fun(p, re->width == 64 ? "cvt.rzi.f64" : "cvt.rzi.f32", q, re);
        Slot m = fbin(p, "mul", t, in[1], re);
        return fbin(p, "sub", in[0], m, re);
    }
    case ARITH_NEGF: return fneg(p, in[0], re);
    case MATH_ABSF: {
        const char *n16 = native16(re);
        return n16 ? native16_op(p, "abs", n16, in, 1, re) : fun(p, "abs", in[0], re);
    }
    case MATH_FLOOR: return fun(p, re->width == 64 ? "cvt.rmi.f64" : "cvt.rmi.f32", in[0], re);
    case MATH_CEIL: return fun(p, re->width == 64 ? "cvt.rpi.f64" : "cvt.rpi.f32", in[0], re);
    case TT_PRECISE_SQRT: return fun(p, "sqrt.rn", in[0], re);
    case MATH_SQRT:
        if (re->width == 64) return fun(p, "sqrt.rn", in[0], re);
        return fmath(p, op->kind, in[0], re);
    case MATH_EXP: case MATH_EXP2: case MATH_LOG: case MATH_LOG2: case MATH_RSQRT:
    case MATH_SIN: case MATH_COS: case MATH_TANH: case MATH_ERF:
        return fmath(p, op->kind, in[0], re);
    case MATH_FMA: return fma_slot(p, in, re);
    case TT_CLAMPF: { /* PropagateNan.ALL: a NaN x, min or max gives NaN, as Triton's minimum(maximum(x, lo), hi) */
        Attr *pa = op_attr(op, "propagateNan");
        int64_t pn = 0;
        bool named = pa && (pa->kind == ATTR_STRING || pa->kind == ATTR_OPAQUE); /* (IR text: `propagateNan = all`) */
        if (pa && ((attr_as_int(pa, &pn) && pn) || (named && !strcmp(pa->s, "all"))))
            return fmaxmin_nan(p, false, fmaxmin_nan(p, true, in[0], in[1], re), in[2], re);
        Slot lo = fbin(p, "max", in[0], in[1], re);
        return fbin(p, "min", lo, in[2], re);
    }
    case MATH_ABSI: /* (|-128| wraps to -128 in an i8, as in Triton) */
        return renorm(p, px_cse1(p, px_rc(re), opc_join(p, "abs", ity(re, true)), px_arg(p, in[0], re)), re);
    case ARITH_CMPI:
        return icmp(p, (int)ew_attr(p, op, AN_PREDICATE), in[0], in[1], e0);
    case ARITH_CMPF: {
        int64_t pred = ew_attr(p, op, AN_PREDICATE);
        if (pred == CMPF_FALSE || pred == CMPF_TRUE) return px_imm_int(pred == CMPF_TRUE, RC_PRED);
        const Type *ce = is_f16ish(e0) ? p->f32 : e0;
        Slot a = to_f32(p, in[0], e0), b = to_f32(p, in[1], e0);
        const char *o = opc_join(p, opc_join(p, "setp", cmpf_op((int)pred)), fty(ce));
        return px_cse2(p, RC_PRED, o, px_arg(p, a, ce), px_arg(p, b, ce));
    }
    case ARITH_SELECT: return select_slot(p, in[0], in[1], in[2], re);
    case ARITH_EXTSI: case ARITH_EXTUI:
        if (widens_range(op, in[0])) { /* (reg + k) widened is widened(reg) + k: keeps the offsets */
            Slot base = {SLOT_REG, in[0].rc, in[0].reg, {0}};
            Slot r = px_cast(p, base, e0, re, op->kind == ARITH_EXTSI, 0);
            r.off = in[0].off;
            return r;
        }
        return px_cast(p, in[0], e0, re, op->kind == ARITH_EXTSI, 0);
    case ARITH_TRUNCI: case ARITH_INDEX_CAST:
        return px_cast(p, in[0], e0, re, true, 0);
    case ARITH_SITOFP: case ARITH_FPTOSI: return px_cast(p, in[0], e0, re, true, 0);
    case ARITH_UITOFP: case ARITH_FPTOUI: return px_cast(p, in[0], e0, re, false, 0);
    case ARITH_EXTF: case ARITH_TRUNCF: return px_cast(p, in[0], e0, re, false, 0);
    case TT_FP_TO_FP: {
        return px_cast(p, in[0], e0, re, false, ew_attr(p, op, AN_ROUNDING) == 0 ? 1 : 0);
    }
    case ARITH_BITCAST: case TT_BITCAST: return bitcast(p, in[0], e0, re);
    case TT_INT_TO_PTR: case TT_PTR_TO_INT: return px_cast(p, in[0], e0, re, false, 0);
    case TT_ADDPTR: {
        AddptrPlan ap;
        addptr_plan(p, op, re, &ap);
        return addptr_slot(p, &ap, in[0], in[1]);
    }
    case TT_EXTERN_ELEMENTWISE: {
        const char *sym = op_attr_str(op, "symbol");
        if (sym && e0->kind == TY_INT) { /* libdevice's bit counts: popc, clz, brev, ffs (ll: 64-bit) */
            bool w = e0->width == 64;
            const char *x = px_opnd(p, in[0], e0), *ty = w ? "b64" : "b32";
            char o[24];
            if (!strncmp(sym, "__nv_popc", 9) || !strncmp(sym, "__nv_clz", 8)) {
                tc_snprintf(o, sizeof o, "%s.%s", sym[5] == 'p' ? "popc" : "clz", ty);
                return px_cse(p, RC_B32, o, x, NULL, NULL);
            }
            if (!strncmp(sym, "__nv_brev", 9)) {
                tc_snprintf(o, sizeof o, "brev.%s", ty);
                return px_cse(p, w ? RC_B64 : RC_B32, o, x, NULL, NULL);
            }
            if (!strncmp(sym, "__nv_ffs", 8)) { /* 1 + the lowest set bit's position; 0 for 0 */
                Slot low = px_cse(p, w ? RC_B64 : RC_B32, w ? "neg.s64" : "neg.s32", x, NULL, NULL);
                low = px_cse(p, w ? RC_B64 : RC_B32, w ? "and.b64" : "and.b32", px_rname(p, low), x, NULL);
                Slot lz = px_cse(p, RC_B32, w ? "clz.b64" : "clz.b32", px_rname(p, low), NULL, NULL);
                return px_cse(p, RC_B32, "sub.s32", w ? "64" : "32", px_rname(p, lz), NULL);
            }
        }
        Slot rounded;
        if (sym && fast_math(p, sym, in[0], re, &rounded)) return rounded;
        if (sym && rounded_arith(p, sym, in, re, &rounded)) return rounded;
        if (sym && rounded_convert(p, sym, in, e0, re, &rounded)) return rounded;
        OpKind k = libdevice_math_kind(sym);
        if (k == MATH_TANH || k == MATH_EXP || k == MATH_EXP2 || k == MATH_LOG || k == MATH_LOG2 ||
            k == MATH_RSQRT || k == MATH_SIN || k == MATH_COS || k == MATH_ERF || (k == MATH_SQRT && re->width != 64))
            return fmath(p, k, in[0], re);
        if (k == MATH_SQRT) return fun(p, "sqrt.rn", in[0], re);
        if (k == MATH_ABSF) return fun(p, "abs", in[0], re);
        if (k == MATH_FLOOR) return fun(p, re->width == 64 ? "cvt.rmi.f64" : "cvt.rmi.f32", in[0], re);
        if (k == MATH_CEIL) return fun(p, re->width == 64 ? "cvt.rpi.f64" : "cvt.rpi.f32", in[0], re);
        px_fail(p, op, "libdevice function '%s' is not available in the PTX backend",
                op_attr_str(op, "symbol") ? op_attr_str(op, "symbol") : "?");
        return px_imm_int(0, px_rc(re));
    }
    case ARITH_REMSI: case ARITH_REMUI:
        if (in[1].kind != SLOT_IMM && quotient_at_hand(op)) return rem_by_quotient(p, op->kind, in[0], in[1], re);
        return ibin(p, op->kind, in[0], in[1], re);
    default:
        if (ty_elem(op_result(op, 0)->type)->kind == TY_INT || ty_elem(op_result(op, 0)->type)->kind == TY_INDEX)
            return ibin(p, op->kind, in[0], in[1], re);
        px_fail(p, op, "unsupported element-wise op '%s'", op_name(op));
        return px_imm_int(0, px_rc(re));
    }
}

/* ---- element-wise ops planned once ---------------------------------------- */

/* Many element-wise ops are one instruction per slot whose opcode and
 * operand types do not depend on the slot: `add.f32 d, a, b`. EwPlan holds
 * what px_ew would work out for each slot again, the opcode's id, the
 * result's class and each operand's (px_ew's slot in, element type), so
 * that a tile's slots go straight to the CSE (see ew_planned for the
 * slots that still take px_ew). */

static bool ew_plan_args(EwPlan *pl, PxArg opc, RegClass rc, int nargs, const int *src, const Type *const *elem) {
    pl->opc = opc, pl->rc = rc, pl->nargs = nargs;
    for (int k = 0; k < nargs; k++) pl->src[k] = src[k], pl->elem[k] = elem[k];
    return true;
}

/* The plan of op's slots (result elements re), false when its slots may
 * lower differently (then px_ew does each). Mirrors px_ew: fbin, fma_slot,
 * the comparisons, select_slot, the bitwise ibin cases, px_cast between
 * floats and fmath's one-instruction functions. */
static bool ew_plan(Px *p, Op *op, const Type *re, EwPlan *pl) {
    const Type *e0 = op->noperands ? ty_elem(op_operand(op, 0)->type) : re;
    static const int in01[3] = {0, 1, 2};
    const char *fop = NULL;
    switch (op->kind) {
    case ARITH_ADDF: fop = p->fp_fusion ? "add" : "add.rn"; break;
    case ARITH_SUBF: fop = p->fp_fusion ? "sub" : "sub.rn"; break;
    case ARITH_MULF: fop = p->fp_fusion ? "mul" : "mul.rn"; break;
    case ARITH_DIVF: fop = re->width == 32 || is_f16ish(re) ? "div.full" : "div.rn"; break;
    case TT_PRECISE_DIVF: fop = "div.rn"; break;
    case ARITH_MAXIMUMF: case ARITH_MINIMUMF:
        if (re->width == 64) return false; /* no max.NaN.f64: fmaxmin_nan */
        fop = op->kind == ARITH_MAXIMUMF ? "max.NaN" : "min.NaN";
        break;
    case ARITH_MAXNUMF: fop = "max"; break;
    case ARITH_MINNUMF: fop = "min"; break;
    case MATH_FMA:
        if (native16(re) || is_f16ish(re)) return false;
        return ew_plan_args(pl, text_arg(p, re->width == 64 ? "fma.rn.f64" : "fma.rn.f32"), px_rc(re), 3, in01,
                            (const Type *[]){re, re, re});
    case ARITH_CMPF: {
        int64_t pred = ew_attr(p, op, AN_PREDICATE);
        if (pred == CMPF_FALSE || pred == CMPF_TRUE || is_f16ish(e0)) return false;
        const char *o = opc_join(p, opc_join(p, "setp", cmpf_op((int)pred)), fty(e0));
        return ew_plan_args(pl, text_arg(p, o), RC_PRED, 2, in01, (const Type *[]){e0, e0});
    }
    case ARITH_CMPI: {
        int pred = (int)ew_attr(p, op, AN_PREDICATE);
        bool uns = pred >= CMPI_ULT;
        if (e0->width == 1 || (uns && e0->kind == TY_INT && e0->width < 32)) return false; /* (casts first) */
        return ew_plan_args(pl, text_arg(p, cmpi_opcode(pred, e0)), RC_PRED, 2, in01, (const Type *[]){e0, e0});
    }
    case ARITH_SELECT: {
        RegClass rc = px_rc(re);
        if (rc == RC_PRED) return false;
        const char *o = rc == RC_B16 ? "selp.b16" : rc == RC_B64 ? "selp.b64" : rc == RC_F32 ? "selp.f32"
                        : rc == RC_F64 ? "selp.f64" : "selp.b32";
        return ew_plan_args(pl, text_arg(p, o), rc, 3, (const int[]){1, 2, 0}, (const Type *[]){re, re, p->i1});
    }
    case ARITH_ANDI: case ARITH_ORI: case ARITH_XORI: {
        RegClass rc = px_rc(re);
        const char *o = op->kind == ARITH_ANDI ? "and" : op->kind == ARITH_ORI ? "or" : "xor";
        if (rc == RC_PRED) /* pred_logic */
            return ew_plan_args(pl, text_arg(p, opc_join(p, o, "pred")), RC_PRED, 2, in01, (const Type *[]){re, re});
        if (re->kind != TY_INT && re->kind != TY_INDEX) return false;
        if (re->kind == TY_INT && re->width < 32) return false;
        return ew_plan_args(pl, text_arg(p, opc_join(p, o, bty(re))), rc, 2, in01, (const Type *[]){re, re});
    }
    case ARITH_EXTF: case ARITH_TRUNCF: case TT_FP_TO_FP: {
        /* px_cast's float -> float by one cvt */
        const Type *from = e0, *to = re;
        if (from == to || from->kind != TY_FLOAT || to->kind != TY_FLOAT) return false;
        bool f8 = from->fkind == FK_F8E4M3 || from->fkind == FK_F8E5M2 || to->fkind == FK_F8E4M3 ||
                  to->fkind == FK_F8E5M2;
        if (f8 || (from->fkind == FK_BF16 && to->width > 16 && p->sm < 90) ||
            (from->fkind == FK_BF16 && to->fkind == FK_F16) || (from->fkind == FK_F16 && to->fkind == FK_BF16) ||
            (from->width == 64 && to->fkind == FK_BF16 && p->sm < 90))
            return false;
        int rounding = op->kind == TT_FP_TO_FP ? (ew_attr(p, op, AN_ROUNDING) == 0 ? 1 : 0) : 0;
        const char *fs = from->fkind == FK_BF16 ? "bf16" : from->fkind == FK_F16 ? "f16" : fty(from);
        const char *ts = to->fkind == FK_BF16 ? "bf16" : to->fkind == FK_F16 ? "f16" : fty(to);
        const char *cvt = to->width < from->width ? opc_join(p, "cvt", rounding == 1 ? "rz" : "rn") : "cvt";
        return ew_plan_args(pl, text_arg(p, opc_join(p, opc_join(p, cvt, ts), fs)), px_rc(to), 1, in01,
                            (const Type *[]){from});
    }
    case MATH_EXP2: case MATH_RSQRT: case MATH_SQRT: {
        if (re != p->f32) return false; /* (fmath converts others first; f64 sqrt is sqrt.rn) */
        const char *o = op->kind == MATH_EXP2 ? "ex2.approx.ftz.f32"
                        : op->kind == MATH_RSQRT ? "rsqrt.approx.ftz.f32" : "sqrt.approx.ftz.f32";
        return ew_plan_args(pl, text_arg(p, o), RC_F32, 1, in01, (const Type *[]){re});
    }
    default:
        return false;
    }
    /* fbin: native 16-bit ops and 16-bit floats through f32 lower per slot */
    if (is_f16ish(re)) return false;
    return ew_plan_args(pl, text_arg(p, opc_join(p, fop, fty(re))), px_rc(re), 2, in01, (const Type *[]){re, re});
}

/* Whether the operand is one px_arg takes as it is (nothing emitted). */
static inline bool plain_arg(Slot s) {
    return s.kind == SLOT_REG ? s.off == 0
                              : s.kind == SLOT_IMM && (s.rc == RC_B32 || s.rc == RC_B64 || s.rc == RC_F32 || s.rc == RC_F64);
}

/* Slot `in` by the plan, or false when px_ew must do it: an operand
 * missing, all of them immediates (px_ew folds some), or two that px_arg
 * materialises (reg+off, a 16-bit or predicate immediate: px_ew's order of
 * the two is the compiler's order of a call's arguments). */
static PX_INLINE bool ew_planned(Px *p, const EwPlan *pl, const Slot *const *src, const int *mask, int i, Slot *out) {
    PxArg a[3] = {0, 0, 0};
    bool any_reg = false;
    int made = -1; /* the operand px_arg materialises, if any */
    Slot in[3];
    for (int k = 0; k < pl->nargs; k++) {
        Slot s = in[k] = src[pl->src[k]][i & mask[pl->src[k]]];
        if (s.kind == SLOT_NONE) return false;
        any_reg |= s.kind == SLOT_REG;
        if (plain_arg(s)) {
            /* (an immediate's id is a memo's answer, no text made when it
             * was seen before; px_ew, should it take over, asks again) */
            a[k] = s.kind == SLOT_REG ? px_arg_reg(p, s) : imm_arg(p, s);
            continue;
        }
        if (made >= 0) return false;
        made = k;
    }
    if (!any_reg) return false;
    if (made >= 0) a[made] = px_arg(p, in[made], pl->elem[made]);
    *out = cse(p, pl->rc, pl->opc, a[0], a[1], a[2]);
    return true;
}

/* op's plan, NULL when it has none: made once per kind of op in a kernel
 * (ew_plan's opcode lookups cost about what a slot's instruction does, and
 * a kernel's element-wise tiles are of a few dozen kinds). (Scalars and
 * one-slot tiles take px_ew: one lookup there costs less than this one.) */
static PX_OUTLINE const EwPlan *ew_plan_make(Px *p, Op *op, const Type *re, EwPlanEntry *e, const Type *e0,
                                             int64_t attr) {
    e->re = re, e->e0 = e0, e->attr = attr, e->kind1 = (int)op->kind + 1;
    e->ok = ew_plan(p, op, re, &e->plan);
    return e->ok ? &e->plan : NULL;
}

static PX_INLINE const EwPlan *ew_plan_of(Px *p, Op *op, const Type *re) {
    /* what ew_plan reads of op besides its kind and re: its first operand's
     * element type (comparisons, conversions) and its predicate or rounding
     * (p->fp_fusion and p->sm are the kernel's) */
    const Type *e0 = op->noperands ? ty_elem(op_operand(op, 0)->type) : re;
    int64_t attr = op->kind == ARITH_CMPI || op->kind == ARITH_CMPF ? ew_attr(p, op, AN_PREDICATE)
                   : op->kind == TT_FP_TO_FP                       ? ew_attr(p, op, AN_ROUNDING)
                                                                   : 0;
    uint64_t h = ((uintptr_t)re ^ (uintptr_t)e0 >> 4 ^ (uint64_t)attr << 7 ^ (uint64_t)op->kind << 16) *
                 0x9e3779b97f4a7c15ULL;
    EwPlanEntry *e = &p->ew_plans[h >> 59];
    if (e->kind1 == (int)op->kind + 1 && e->re == re && e->e0 == e0 && e->attr == attr) return e->ok ? &e->plan : NULL;
    return ew_plan_make(p, op, re, e, e0, attr);
}

static const int ew_whole[4] = {0, 0, 0, 0}; /* (ew_planned's masks for one slot) */

/* (A reduction's combine asks for one op's slot step after step: its plan
 * is kept, a copy, as the table's entry may be taken by another.) */
Slot px_ew_planned(Px *p, Op *op, Slot *in, const Type *re) {
    if (p->ew_plan.op != op) {
        const EwPlan *pl = ew_plan_of(p, op, re);
        p->ew_plan.op = op, p->ew_plan.ok = pl != NULL;
        if (pl) p->ew_plan.plan = *pl;
    }
    Slot out;
    if (p->ew_plan.ok &&
        ew_planned(p, &p->ew_plan.plan, (const Slot *const[]){in, in + 1, in + 2, in + 3}, ew_whole, 0, &out))
        return out;
    return px_ew(p, op, in, re);
}

/* ---- ops --------------------------------------------------------------- */

static int tile_slots(Px *p, const Type *t) {
    if (t->kind != TY_TENSOR) return 1;
    const Dist *d = px_dist_of(p, t);
    return d ? d->nslots : -1;
}

/* Result i's tile, bound (inline: every op makes one, and a call cost
 * about as much as the work). */
static PX_INLINE Tile *result_tile(Px *p, Op *op, int i) {
    Value *r = op_result(op, i);
    int n = tile_slots(p, r->type);
    if (n < 0) {
        px_fail(p, op, "result has no layout");
        n = 1;
    }
    Tile *t = px_new_tile(p, n);
    px_bind(p, r, t);
    return t;
}

/* ---- fp contraction ------------------------------------------------------- */

/* `a * b + c` (and `a * b - c`, `c - a * b`) is one fma, as LLVM contracts
 * Triton's fp32 and fp64 arithmetic by default (Triton's enable_fp_fusion):
 * the operand of an addf or subf that a mulf of the same type, in the same
 * block, makes for it alone; -1 when there is none. That mulf emits nothing
 * (contracted_mul). */
static int fma_operand(const Px *p, Op *add) {
    if (!p->fp_fusion || (add->kind != ARITH_ADDF && add->kind != ARITH_SUBF)) return -1;
    const Type *e = ty_elem(op_result(add, 0)->type);
    if (e->kind != TY_FLOAT || (e->fkind != FK_F32 && e->fkind != FK_F64 && !native16(e))) return -1;
    for (int k = 0; k < 2; k++) {
        Value *v = op_operand(add, k);
        if (v->def && v->def->kind == ARITH_MULF && v->def->parent == add->parent && value_has_one_use(v) &&
            v->type == op_result(add, 0)->type)
            return k;
    }
    return -1;
}

static bool contracted_mul(const Px *p, Op *mul) {
    Value *r = op_result(mul, 0);
    if (!p->fp_fusion || mul->kind != ARITH_MULF || !value_has_one_use(r)) return false;
    Op *add = r->uses->owner;
    int k = fma_operand(p, add);
    return k >= 0 && op_operand(add, k) == r;
}

/* (out of line: the CSE lookup is inlined here, and lower_elementwise's
 * other paths stay small) */
static PX_OUTLINE void lower_fma_of(Px *p, Op *add, int k) {
    Tile *out = result_tile(p, add, 0);
    const Type *re = ty_elem(op_result(add, 0)->type);
    Op *mul = op_operand(add, k)->def;
    Tile *ins[3] = {px_tile(p, op_operand(mul, 0)), px_tile(p, op_operand(mul, 1)), px_tile(p, op_operand(add, 1 - k))};
    const uint64_t *want = px_demand(p, op_result(add, 0));
    /* a * b - c = fma(a, b, -c); c - a * b = fma(-a, b, c) (ptxas folds the neg into the fma) */
    int negate = add->kind != ARITH_SUBF ? -1 : k == 0 ? 2 : 0;
    /* f32 and f64: fma_slot's one instruction, its opcode found once */
    PxArg opc = is_f16ish(re) ? 0 : opcode_arg(p, re->width == 64 ? "fma.rn.f64" : "fma.rn.f32");
    for (int i = 0; i < out->n; i++) {
        if (!px_demanded(want, i)) continue;
        Slot in[3];
        for (int j = 0; j < 3; j++) in[j] = ins[j]->s[ins[j]->n == out->n ? i : 0];
        if (negate >= 0) {
            Slot x = in[negate];
            in[negate] = fneg(p, x, re);
        }
        out->s[i] = opc ? cse(p, px_rc(re), opc, float_arg(p, in[0], re), float_arg(p, in[1], re), float_arg(p, in[2], re))
                        : fma_slot(p, in, re);
    }
}

/* The constant every slot of v's tile holds (an immediate), if any. */
static bool tile_const(Px *p, Value *v, int64_t *c) {
    Tile *t = px_tile(p, v);
    if (!t || t->n < 1 || t->s[0].kind != SLOT_IMM) return false;
    for (int i = 1; i < t->n; i++)
        if (t->s[i].kind != SLOT_IMM || t->s[i].off != t->s[0].off) return false;
    *c = t->s[0].off;
    return true;
}

/* Python's idiom for a non-negative modulo, ((x % C) + C) % C, for C a
 * power of two (x & (C - 1), as LLVM folds it): x, or NULL. The remainder
 * and the add inside are still lowered; ptxas drops what nothing reads. */
static Value *floor_mod_pow2(Px *p, Op *op, int64_t *c) {
    const Type *e = ty_elem(op_result(op, 0)->type);
    if (op->kind != ARITH_REMSI || e->kind != TY_INT || e->width < 8 || !tile_const(p, op_operand(op, 1), c) ||
        *c < 2 || (*c & (*c - 1)) || *c > ((int64_t)1 << (e->width - 2)))
        return NULL;
    Op *add = op_operand(op, 0)->def;
    if (!add || add->kind != ARITH_ADDI) return NULL;
    for (int k = 0; k < 2; k++) {
        int64_t c2, c3;
        Op *rem = op_operand(add, k)->def;
        if (rem && rem->kind == ARITH_REMSI && tile_const(p, op_operand(add, 1 - k), &c2) && c2 == *c &&
            tile_const(p, op_operand(rem, 1), &c3) && c3 == *c)
            return op_operand(rem, 0);
    }
    return NULL;
}

/* Triton's maybeDeduplicate: where axis info says an integer result is
 * constant over aligned runs of cnst elements along the fastest dimension,
 * slots of one thread that fall in one run hold one value, computed once.
 * A thread's elements along that dimension come in runs of spt (spt_eff:
 * at most the shape) starting at multiples of spt, so with c = min(cnst,
 * spt) the slots whose j differs only below c share the value of the first
 * (`cols < N` with N % 16 == 0 is one predicate for a thread's 4 or 8
 * columns, as a vector load's mask is). rep[i] is that first slot; NULL
 * when no slot repeats another. */
typedef struct PxRuns {
    const Type *t;
    int64_t c;
    int *rep;
    struct PxRuns *next;
} PxRuns;

static int *const_runs(Px *p, Value *v, int n) {
    const Type *e = ty_elem(v->type);
    if (n < 2 || v->type->kind != TY_TENSOR || (e->kind != TY_INT && e->kind != TY_INDEX)) return NULL;
    /* (the layout first: a run of one element needs no axis info, whose
     * lookup is a miss in the cache) */
    const Dist *d = px_dist_of(p, v->type);
    if (!d || d->nslots != n) return NULL;
    int o0 = d->order[0];
    int64_t s = d->spt[o0] < d->shape[o0] ? d->spt[o0] : d->shape[o0];
    if (s < 2) return NULL;
    int64_t c = axis_info(px_axis(p), v)->cnst[o0];
    if (c > s) c = s;
    if (c < 2 || s % c) return NULL;
    /* (kept per type and run: an op's neighbours mostly have its type) */
    for (PxRuns *r = p->runs; r; r = r->next)
        if (r->t == v->type && r->c == c) return r->rep;
    /* slots count the fastest dimension first: j along it is i % per_dim */
    int *rep = arena_alloc(p->ctx->arena, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) rep[i] = i - (int)((i % d->per_dim[o0]) % s % c);
    PxRuns *r = ARENA_NEW(p->ctx->arena, PxRuns);
    *r = (PxRuns){v->type, c, rep, p->runs};
    p->runs = r;
    return rep;
}

static PX_OUTLINE void lower_slots(Px *p, Op *op, Tile *out, const Type *re, int nin);

/* lower_elementwise's ops on positions of known bits (known_bits): every
 * slot of operand 0 such a slot and operand 1 a constant; false else. */
static bool lower_known_bits(Px *p, Op *op) {
    Value *a = op_operand(op, 0), *b = op_operand(op, 1);
    const Type *ea = ty_elem(a->type);
    if (getenv("KB_OFF") || !p->maybits.len || ea->kind != TY_INT || ea->width != 32) return false;
    Tile *ta = px_tile(p, a), *tb = px_tile(p, b);
    int64_t pred = op->kind == ARITH_CMPI ? ew_attr(p, op, AN_PREDICATE) : 0;
    int n = tile_slots(p, op_result(op, 0)->type);
    if (n < 0 || (ta->n != n && ta->n != 1) || (tb->n != n && tb->n != 1)) return false;
    uint64_t bits;
    for (int i = 0; i < n; i++) /* (all of them, or none: nothing emitted yet) */
        if (tb->s[tb->n == 1 ? 0 : i].kind != SLOT_IMM || !maybits_of(p, ta->s[ta->n == 1 ? 0 : i], &bits))
            return false;
    Tile *out = result_tile(p, op, 0);
    for (int i = 0; i < n; i++)
        if (!known_bits(p, op->kind, pred, ta->s[ta->n == 1 ? 0 : i], tb->s[tb->n == 1 ? 0 : i], &out->s[i]))
            out->s[i] = px_ew(p, op, (Slot[]){ta->s[ta->n == 1 ? 0 : i], tb->s[tb->n == 1 ? 0 : i]},
                              ty_elem(op_result(op, 0)->type));
    return true;
}

static void lower_elementwise(Px *p, Op *op) {
    /* the forms lowered otherwise, each behind its op's kind (most ops are
     * of none of these kinds) */
    switch (op->kind) {
    case ARITH_ANDI:
    case ARITH_SHRSI:
    case ARITH_SHRUI:
    case ARITH_CMPI:
        if (lower_known_bits(p, op)) return;
        break;
    case ARITH_MULF:
        if (contracted_mul(p, op)) return; /* the addf it feeds makes the fma */
        break;
    case ARITH_REMSI: {
        int64_t fm;
        Value *fx = floor_mod_pow2(p, op, &fm);
        if (fx) {
            Tile *out = result_tile(p, op, 0), *x = px_tile(p, fx);
            const Type *re = ty_elem(op_result(op, 0)->type);
            const uint64_t *want = px_demand(p, op_result(op, 0));
            for (int i = 0; i < out->n; i++)
                if (px_demanded(want, i))
                    out->s[i] = ibin(p, ARITH_ANDI, x->s[x->n == out->n ? i : 0], px_imm_int(fm - 1, px_rc(re)), re);
            return;
        }
        break;
    }
    case ARITH_ADDF:
    case ARITH_SUBF: {
        int f = fma_operand(p, op);
        if (f >= 0) {
            lower_fma_of(p, op, f);
            return;
        }
        break;
    }
    default:
        break;
    }
    Tile *out = result_tile(p, op, 0);
    const Type *re = ty_elem(op_result(op, 0)->type);
    int nin = op->noperands < 4 ? op->noperands : 4;
    if (out->n == 1) { /* (scalars and one-slot tiles: most ops of scalar code; always read, as a
                        * tile of fewer than two slots has no demand) */
        Slot in[4];
        for (int k = 0; k < nin; k++) in[k] = px_tile(p, op_operand(op, k))->s[0];
        if ((op->kind == ARITH_ADDI || op->kind == ARITH_SUBI || op->kind == ARITH_MULI || op->kind == ARITH_ANDI ||
             op->kind == ARITH_ORI || op->kind == ARITH_XORI) &&
            (re->kind == TY_INT || re->kind == TY_INDEX))
            out->s[0] = int_arith_slot(p, op->kind, in[0], in[1], re);
        else
            out->s[0] = px_ew(p, op, in, re);
        return;
    }
    lower_slots(p, op, out, re, nin);
}

/* lower_slots' loops for its usual forms when no slot repeats another
 * (want: the slots read, NULL for all), each a function of its own: one
 * loop for all of them compiled into a body whose every slot paid for the
 * others' paths (their registers saved and restored around each). */
static PX_OUTLINE void slots_planned(Px *p, Op *op, Tile *out, const Type *re, const EwPlan *plan,
                                     const Slot *const *src, const int *mask, const uint64_t *want, int nin) {
    /* (two operands, each a plain register at most slots: ew_planned's
     * answer without its walk over the operands) */
    const Slot *s0 = src[plan->src[0]], *s1 = plan->nargs == 2 ? src[plan->src[1]] : NULL;
    int m0 = mask[plan->src[0]], m1 = plan->nargs == 2 ? mask[plan->src[1]] : 0;
    for (int i = 0; i < out->n; i++) {
        if (!px_demanded(want, i)) continue; /* left SLOT_NONE: nobody reads it */
        if (s1) {
            Slot a = s0[i & m0], b = s1[i & m1];
            if (a.kind == SLOT_REG && b.kind == SLOT_REG && !a.off && !b.off) {
                out->s[i] = cse(p, plan->rc, plan->opc, px_arg_reg(p, a), px_arg_reg(p, b), 0);
                continue;
            }
        }
        if (ew_planned(p, plan, src, mask, i, &out->s[i])) continue;
        Slot in[4];
        for (int k = 0; k < nin; k++) in[k] = src[k][i & mask[k]];
        out->s[i] = px_ew(p, op, in, re);
    }
}

static PX_OUTLINE void slots_addptr(Px *p, Op *op, Tile *out, const Type *re, const Slot *const *src, const int *mask,
                                    const uint64_t *want) {
    AddptrPlan ap;
    addptr_plan(p, op, re, &ap);
    for (int i = 0; i < out->n; i++)
        if (px_demanded(want, i)) out->s[i] = addptr_slot(p, &ap, src[0][i & mask[0]], src[1][i & mask[1]]);
}

/* (px_ew's case for them, without its dispatch) */
static PX_OUTLINE void slots_int_arith(Px *p, Op *op, Tile *out, const Type *re, const Slot *const *src,
                                       const int *mask, const uint64_t *want) {
    for (int i = 0; i < out->n; i++) {
        if (!px_demanded(want, i)) continue;
        Slot a = src[0][i & mask[0]], b = src[1][i & mask[1]];
        if (!int_arith_fast(p, op->kind, a, b, re, &out->s[i])) out->s[i] = ibin(p, op->kind, a, b, re);
    }
}

/* lower_elementwise's tiles of two slots or more (apart: its scalars' path
 * stays small enough to be inlined into lower_op). */
static PX_OUTLINE void lower_slots(Px *p, Op *op, Tile *out, const Type *re, int nin) {
    /* operand k's slot i is src[k][i & mask[k]] (a one-slot tile is
     * broadcast: mask 0) */
    const Slot *src[4];
    int mask[4];
    for (int k = 0; k < nin; k++) {
        const Tile *t = px_tile(p, op_operand(op, k));
        src[k] = t->s, mask[k] = t->n == out->n ? -1 : 0;
    }
    const uint64_t *want = px_demand(p, op_result(op, 0));
    int *rep = const_runs(p, op_result(op, 0), out->n);
    bool *need = NULL; /* a slot read, or the first of a run with one read */
    if (rep && want) {
        need = arena_alloc(p->ctx->arena, (size_t)out->n);
        memset(need, 0, (size_t)out->n);
        for (int i = 0; i < out->n; i++)
            if (px_demanded(want, i)) need[i] = need[rep[i]] = true;
    }
    bool int_arith = (op->kind == ARITH_ADDI || op->kind == ARITH_SUBI || op->kind == ARITH_MULI) &&
                     (re->kind == TY_INT || re->kind == TY_INDEX);
    /* (ew_plan plans neither tt.addptr nor the integer add/sub/mul, which
     * have their own paths below: not asked for them, most of the tiles of
     * index arithmetic) */
    const EwPlan *plan = op->kind != TT_ADDPTR && !int_arith ? ew_plan_of(p, op, re) : NULL;
    if (!rep) { /* (no slot repeats another: the three usual forms, each by a loop of its own) */
        if (plan) {
            slots_planned(p, op, out, re, plan, src, mask, want, nin);
            return;
        }
        if (op->kind == TT_ADDPTR) {
            slots_addptr(p, op, out, re, src, mask, want);
            return;
        }
        if (int_arith) {
            slots_int_arith(p, op, out, re, src, mask, want);
            return;
        }
    }
    AddptrPlan ap = {0};
    if (op->kind == TT_ADDPTR) addptr_plan(p, op, re, &ap);
    for (int i = 0; i < out->n; i++) {
        if (need ? !need[i] : !px_demanded(want, i)) continue; /* left SLOT_NONE: nobody reads it */
        if (rep && rep[i] != i) {
            out->s[i] = out->s[rep[i]];
            continue;
        }
        if (plan && ew_planned(p, plan, src, mask, i, &out->s[i])) continue;
        if (op->kind == TT_ADDPTR) {
            out->s[i] = addptr_slot(p, &ap, src[0][i & mask[0]], src[1][i & mask[1]]);
            continue;
        }
        if (int_arith) { /* (px_ew's case for them, without its dispatch) */
            Slot a = src[0][i & mask[0]], b = src[1][i & mask[1]];
            if (!int_arith_fast(p, op->kind, a, b, re, &out->s[i])) out->s[i] = ibin(p, op->kind, a, b, re);
            continue;
        }
        Slot in[4];
        for (int k = 0; k < nin; k++) in[k] = src[k][i & mask[k]];
        out->s[i] = px_ew(p, op, in, re);
    }
}

static void lower_constant(Px *p, Op *op) {
    Tile *out = result_tile(p, op, 0);
    Attr *a = op_attr_k(op, AN_VALUE);
    const Type *e = ty_elem(op_result(op, 0)->type);
    RegClass rc = px_rc(e);
    Slot s = px_imm_int(0, rc);
    if (!a || (a->kind == ATTR_DENSE && !attr_is_splat(a))) {
        px_fail(p, op, "non-splat tensor constants are not supported");
    } else if (e->kind == TY_FLOAT) {
        double v = 0;
        attr_as_float(a, &v);
        s = px_cast(p, px_imm_float(v, e->width == 64 ? RC_F64 : RC_F32), e->width == 64 ? e : p->f32, e, false, 0);
        if (e->width == 64) s = px_imm_float(v, RC_F64);
    } else {
        int64_t v = 0;
        attr_as_int(a, &v);
        s = px_imm_int(e->kind == TY_INT && e->width == 1 ? (v & 1) : v, rc);
    }
    for (int i = 0; i < out->n; i++) out->s[i] = s;
}

static void lower_make_range(Px *p, Op *op) {
    Tile *out = result_tile(p, op, 0);
    const Dist *d = px_dist_of(p, op_result(op, 0)->type);
    if (!d) return px_fail(p, op, "no layout");
    int64_t start = 0;
    op_attr_int_k(op, AN_START, &start);
    Slot tp = px_thread_part(p, d, 0);
    for (int i = 0; i < out->n; i++) {
        int j[TTG_MAX_RANK];
        dist_slot_j(d, i, j);
        out->s[i] = tp;
        out->s[i].off = start + dist_const(d, 0, j[0]);
    }
}

void px_broadcast_src(const Op *op, const Dist *dr, const Dist *di, int *src) {
    const Type *it = op_operand((Op *)op, 0)->type;
    int64_t axis = -1;
    if (op->kind == TT_EXPAND_DIMS) op_attr_int_k(op, AN_AXIS, &axis);
    /* the step of the source slot for a step of j along each result
     * dimension (dist_slot_of_j's multipliers): 0 along the new axis and
     * along a broadcast dimension, where the source's j stays 0 */
    int mul[TTG_MAX_RANK] = {0}, step[TTG_MAX_RANK] = {0};
    for (int k = 0, m = 1; k < di->rank; k++) {
        mul[di->order[k]] = m;
        m *= di->per_dim[di->order[k]];
    }
    for (int d = 0, k = 0; d < dr->rank; d++) {
        if (d == axis) continue;
        step[d] = op->kind == TT_BROADCAST && it->shape[d] == 1 ? 0 : mul[k];
        k++;
    }
    /* slot order, as dist_slot_j counts: the fastest dimension first */
    int j[TTG_MAX_RANK] = {0}, at = 0;
    for (int i = 0; i < dr->nslots; i++) {
        src[i] = at;
        for (int k = 0; k < dr->rank; k++) {
            int dim = dr->order[k];
            at += step[dim];
            if (++j[dim] < dr->per_dim[dim]) break;
            at -= step[dim] * j[dim];
            j[dim] = 0;
        }
    }
}

/* The maps made so far, by the op's kind, axis, result and operand types
 * (interned: equal types, equal Dists, equal maps): a kernel's broadcasts
 * are of a few shapes, each map a walk over the result's slots. */
typedef struct PxBcastMap {
    const Type *rt, *it;
    int kind;
    int64_t axis;
    const int *src;
    struct PxBcastMap *next;
} PxBcastMap;

const int *px_broadcast_src_of(Px *p, Op *op, const Dist *dr, const Dist *di) {
    PxValue *v = px_value(p, op_result(op, 0));
    if (v->bcast_src) return v->bcast_src;
    const Type *rt = op_result(op, 0)->type, *it = op_operand(op, 0)->type;
    int64_t axis = -1;
    if (op->kind == TT_EXPAND_DIMS) op_attr_int_k(op, AN_AXIS, &axis);
    PxBcastMap *m = p->bcast_maps;
    while (m && (m->rt != rt || m->it != it || m->kind != (int)op->kind || m->axis != axis)) m = m->next;
    if (!m) {
        int *src = ARENA_ARRAY(p->ctx->arena, int, dr->nslots);
        px_broadcast_src(op, dr, di, src);
        m = ARENA_NEW(p->ctx->arena, PxBcastMap);
        *m = (PxBcastMap){rt, it, (int)op->kind, axis, src, p->bcast_maps};
        p->bcast_maps = m;
    }
    return v->bcast_src = m->src;
}

/* Whether src maps each of n slots to itself. */
static bool same_slots(const int *src, int n) {
    for (int i = 0; i < n; i++)
        if (src[i] != i) return false;
    return true;
}

static void lower_broadcast(Px *p, Op *op) {
    Value *r = op_result(op, 0);
    Tile *in = px_tile(p, op_operand(op, 0));
    int n = tile_slots(p, r->type);
    /* a result whose slots are the operand's, slot for slot (one slot of a
     * scalar, an expand_dims that moves no element): the operand's tile
     * itself, no copy (a tile is not written once bound; px_relayout
     * shares tiles too) */
    if (in->n == 1 && n == 1) return px_bind(p, r, in);
    bool splat = op->kind == TT_SPLAT || in->n == 1;
    const Dist *dr = !splat && n > 0 ? px_dist_of(p, r->type) : NULL, *di = NULL;
    const int *src = dr && (di = px_dist_of(p, op_operand(op, 0)->type)) ? px_broadcast_src_of(p, op, dr, di) : NULL;
    if (src && in->n == n && same_slots(src, n)) return px_bind(p, r, in);
    Tile *out = result_tile(p, op, 0);
    if (splat) {
        for (int i = 0; i < out->n; i++) out->s[i] = in->s[0];
        return;
    }
    if (!src) return px_fail(p, op, "no layout");
    for (int i = 0; i < out->n; i++) out->s[i] = in->s[src[i]];
}

/* A NUL-terminated string constant, `.global .b8 $tc_strN[] = {...}`
 * (vprintf's formats, __assertfail's message and file); returns N. */
static int global_string(Px *p, const char *text) {
    int sid = p->nstrings++;
    size_t len = strlen(text);
    sb_printf(&p->strings, ".global .align 1 .b8 $tc_str%d[%d] = {", sid, (int)len + 1);
    for (size_t k = 0; k <= len; k++) sb_printf(&p->strings, "%s%d", k ? ", " : "", (unsigned char)text[k]);
    sb_puts(&p->strings, "};\n");
    return sid;
}

/* A generic address of string constant sid, in a fresh register. */
static const char *string_address(Px *p, int sid) {
    Slot a = px_reg(p, RC_B64);
    const char *an = px_rname(p, a);
    px_emit(p, "mov.u64 %s, $tc_str%d", an, sid);
    px_emit(p, "cvta.global.u64 %s, %s", an, an);
    return an;
}

/* tt.print (tl.device_print): one vprintf per element a thread owns, in
 * Triton's format, "pid (x, y, z) idx (i) PREFIX: value" (a scalar
 * is printed by thread 0 only, with an empty idx). vprintf takes its
 * arguments as a buffer laid out as C varargs: here a 24-byte local array,
 * pid x, y, z and the index as 32-bit ints, the value as a double or a
 * 64-bit int. */
static void lower_print(Px *p, Op *op) {
    const char *prefix = op_attr_str(op, "prefix");
    Attr *ha = op_attr(op, "hex"), *sa = op_attr(op, "isSigned");
    bool hex = ha && ((ha->kind == ATTR_BOOL && ha->b) || ha->kind == ATTR_UNIT);
    p->uses_printf = true;
    Slot pid[3];
    for (int k = 0; k < 3; k++)
        pid[k] = px_cse(p, RC_B32, "mov.u32", k == 0 ? "%ctaid.x" : k == 1 ? "%ctaid.y" : "%ctaid.z", NULL, NULL);
    Type *f64 = ty_float(p->ctx, FK_F64), *i64 = ty_int(p->ctx, 64);
    for (int i = 0; i < (op->noperands ? op->noperands : 1); i++) {
        Value *v = op->noperands ? op_operand(op, i) : NULL;
        Type *t = v ? ty_elem(v->type) : NULL;
        bool tile = v && v->type->kind == TY_TENSOR;
        bool sgn = !(sa && sa->kind == ATTR_DENSE_ARRAY && i < sa->dense.nvals && sa->dense.ints && !sa->dense.ints[i]);
        /* hex=True: Triton's 0x%0<bits/4>x, a float's bit pattern */
        int hw = t && t->kind != TY_PTR ? (t->width >= 4 ? t->width / 4 : 1) : 0;
        const char *vf = !t ? "" : t->kind == TY_PTR ? "%p" : hex ? arena_printf(p->ctx->arena, "0x%%0%dllx", hw)
                         : t->kind == TY_FLOAT ? "%f" : sgn ? "%lld" : "%llu";
        StrBuf f = {0};
        sb_printf(&f, "pid (%%d, %%d, %%d)%s%s%s", !v ? " " : tile ? " idx (%d)" : " idx ()", prefix ? prefix : "",
                  op->noperands > 1 ? arena_printf(p->ctx->arena, "(operand %d) ", i) : "");
        sb_printf(&f, "%s\n", vf);
        int sid = global_string(p, sb_cstr(&f));
        sb_free(&f);
        Dist d = {0};
        int64_t strides[TTG_MAX_RANK];
        if (tile) {
            if (!px_dist(p, v->type, &d)) return px_fail(p, op, "print without a layout");
            int64_t s = 1;
            for (int k = v->type->rank - 1; k >= 0; k--) strides[k] = s, s *= v->type->shape[k];
        }
        Tile *tv = v ? px_tile(p, v) : NULL;
        Slot own = tile ? px_owner_pred(p, &d) : px_scalar_owner_pred(p);
        int n = tile ? d.nslots : 1;
        for (int s = 0; s < n; s++) {
            int skip = px_label(p);
            if (own.kind != SLOT_NONE) px_bra(p, own, true, skip);
            for (int k = 0; k < 3; k++) px_emit(p, "st.local.u32 [__tc_printbuf+%d], %s", 4 * k, px_rname(p, pid[k]));
            if (tile) {
                Slot li = px_linear_index(p, &d, s, strides);
                px_emit(p, "st.local.u32 [__tc_printbuf+12], %s", px_opnd(p, li, p->i32));
            }
            if (t) {
                Slot x = tv->s[tv->n == n ? s : 0];
                if (t->kind == TY_FLOAT && hex) {
                    Type *it = ty_int(p->ctx, t->width);
                    Slot xi = px_cast(p, bitcast(p, x, t, it), it, i64, false, 0);
                    px_emit(p, "st.local.u64 [__tc_printbuf+16], %s", px_opnd(p, xi, i64));
                } else if (t->kind == TY_FLOAT) {
                    Slot xd = t->width == 64 ? x : px_cast(p, t->width == 32 ? x : px_cast(p, x, t, p->f32, true, 0),
                                                           p->f32, f64, true, 0);
                    px_emit(p, "st.local.f64 [__tc_printbuf+16], %s", px_opnd(p, xd, f64));
                } else if (t->kind == TY_PTR) {
                    px_emit(p, "st.local.u64 [__tc_printbuf+16], %s", px_opnd(p, x, t));
                } else {
                    Slot xi = t->kind == TY_INT && t->width == 64 ? x : px_cast(p, x, t, i64, sgn && !hex, 0);
                    px_emit(p, "st.local.u64 [__tc_printbuf+16], %s", px_opnd(p, xi, i64));
                }
            }
            const char *fa = string_address(p, sid);
            Slot ba = px_reg(p, RC_B64);
            px_emit(p, "mov.u64 %s, __tc_printbuf", px_rname(p, ba));
            px_emit(p, "cvta.local.u64 %s, %s", px_rname(p, ba), px_rname(p, ba));
            sb_printf(&p->body, "\t{\n\t.param .b64 pp0;\n\tst.param.b64 [pp0], %s;\n\t.param .b64 pp1;\n\t"
                                "st.param.b64 [pp1], %s;\n\t.param .b32 pr0;\n\tcall.uni (pr0), vprintf, (pp0, pp1);\n\t}\n",
                      fa, px_rname(p, ba));
            px_label_at(p, skip);
        }
    }
}

/* tt.assert (a debug-mode tl.device_assert or `assert`), as Triton lowers
 * it: a thread one of whose elements is false calls CUDA's
 * __assertfail(message, file, line, function, sizeof(char)), which prints
 *
 *     FILE:LINE: unknown: block: [x,y,z], thread: [x,y,z] Assertion `MESSAGE` failed.
 *
 * and stops the kernel (the launch fails). The function is "unknown", as in
 * Triton. A tile's assert ends with a barrier, so that no thread runs ahead
 * into what the assert guards (an out-of-bounds access that would trap
 * first) before the failing one has printed. */
static void lower_assert(Px *p, Op *op) {
    Value *cv = op_operand(op, 0);
    Tile *c = px_tile(p, cv);
    Type *i1 = ty_i1(p->ctx);
    Slot ok = {0};
    bool fails = false;
    for (int i = 0; i < c->n; i++) {
        if (c->s[i].kind == SLOT_IMM) {
            fails |= !c->s[i].off;
            continue;
        }
        const char *ci = px_opnd(p, c->s[i], i1);
        ok = ok.kind == SLOT_NONE ? px_mat(p, c->s[i], i1) : px_cse(p, RC_PRED, "and.pred", px_rname(p, ok), ci, NULL);
    }
    if (!fails && ok.kind == SLOT_NONE) return; /* true everywhere */
    const char *msg = op_attr_str(op, "message");
    int msg_id = global_string(p, msg ? msg : "");
    int file_id = global_string(p, op->loc.file ? op->loc.file : "unknown");
    int func_id = global_string(p, "unknown");
    p->uses_assert = true;
    int pass = px_label(p);
    if (!fails) px_bra(p, ok, false, pass);
    const char *ma = string_address(p, msg_id), *fa = string_address(p, file_id), *fn = string_address(p, func_id);
    sb_printf(&p->body,
              "\t{\n\t.param .b64 ap0;\n\tst.param.b64 [ap0], %s;\n\t.param .b64 ap1;\n\tst.param.b64 [ap1], %s;\n"
              "\t.param .b32 ap2;\n\tst.param.b32 [ap2], %d;\n\t.param .b64 ap3;\n\tst.param.b64 [ap3], %s;\n"
              "\t.param .b64 ap4;\n\tst.param.b64 [ap4], 1;\n\tcall.uni __assertfail, (ap0, ap1, ap2, ap3, ap4);\n\t}\n",
              ma, fa, op->loc.line, fn);
    px_label_at(p, pass);
    if (cv->type->kind == TY_TENSOR) px_barrier(p);
}

/* tt.elementwise_inline_asm: the PTX text once per element, in braces,
 * with $0.. the results then the arguments, as LLVM's inline asm numbers
 * them. Each operand gets a register of its constraint's class (r: b32,
 * h: b16, l: b64, f: f32, d: f64) holding the element's bits; with
 * packed_element > 1, 16-bit elements go two to an `r` register and 8-bit
 * ones four, a thread's consecutive elements together (Triton packs along
 * its layout's sizePerThread: code that moves data between the lanes of a
 * pack sees the same grouping when each thread holds whole packs). */
static RegClass asm_class(char c) {
    switch (c) {
    case 'h': return RC_B16;
    case 'l': return RC_B64;
    case 'f': return RC_F32;
    case 'd': return RC_F64;
    case 'r': return RC_B32;
    case 'b': return RC_PRED;
    default: return RC_COUNT;
    }
}

/* The bits of x (an element of type t, register class px_rc(t)) in a
 * register of class rc. */
static Slot asm_in(Px *p, Slot x, const Type *t, RegClass rc) {
    RegClass have = px_rc(t);
    if (have == RC_PRED) {
        x = px_cast(p, x, t, p->i32, false, 0);
        have = RC_B32;
        t = p->i32;
    }
    Slot r = px_mat(p, x, t);
    if (have == rc) return r;
    Slot d = px_reg(p, rc);
    static const char *const mv[] = {"", "mov.b16", "mov.b32", "mov.b64", "mov.b32", "mov.b64"};
    int wh = have == RC_B16 ? 16 : have == RC_B64 || have == RC_F64 ? 64 : 32;
    int wd = rc == RC_B16 ? 16 : rc == RC_B64 || rc == RC_F64 ? 64 : 32;
    if (wh == wd) px_emit(p, "%s %s, %s", mv[rc], px_rname(p, d), px_rname(p, r));
    else if (wh < wd) px_emit(p, "cvt.u%d.u%d %s, %s", wd, wh, px_rname(p, d), px_rname(p, r));
    else px_emit(p, "cvt.u%d.u%d %s, %s", wd, wh, px_rname(p, d), px_rname(p, r));
    return d;
}

/* An element of type t from the bits in register r of class rc. */
static Slot asm_out(Px *p, Slot r, RegClass rc, const Type *t) {
    RegClass want = px_rc(t);
    if (want == rc && rc == RC_B32 && t->kind == TY_INT && t->width < 32)
        return px_cast(p, r, p->i32, t, true, 0); /* narrow ints live normalised in 32 bits */
    if (want == rc) return r;
    if (want == RC_PRED) {
        Slot b = asm_in(p, r, rc == RC_B64 ? ty_int(p->ctx, 64) : p->i32, RC_B32);
        return px_cse(p, RC_PRED, "setp.ne.b32", px_rname(p, b), "0", NULL);
    }
    Slot d = px_reg(p, want);
    int wh = rc == RC_B16 ? 16 : rc == RC_B64 || rc == RC_F64 ? 64 : 32;
    int wd = want == RC_B16 ? 16 : want == RC_B64 || want == RC_F64 ? 64 : 32;
    if (wh == wd) px_emit(p, "mov.b%d %s, %s", wd, px_rname(p, d), px_rname(p, r));
    else px_emit(p, "cvt.u%d.u%d %s, %s", wd, wh, px_rname(p, d), px_rname(p, r));
    return d;
}

/* tt.map_elementwise: the region lowered once per element a thread holds,
 * its block arguments bound to that element of each operand. Its control
 * flow (scf.while, scf.if) branches per thread, so the elements of a warp
 * may take different paths. */
static void lower_map_elementwise(Px *p, Op *op) {
    Block *b = op->regions[0].first;
    Op *ret = b ? block_terminator(b) : NULL;
    int nres = op->nresults, nin = op->noperands;
    if (!ret || ret->noperands != nres || b->nargs != nin || nres > 8 || nin > 8)
        return px_fail(p, op, "malformed tt.map_elementwise");
    Tile *out[8], *in[8];
    for (int i = 0; i < nres; i++) out[i] = result_tile(p, op, i);
    for (int i = 0; i < nin; i++) in[i] = px_tile(p, op_operand(op, i));
    int n = out[0]->n;
    for (int s = 0; s < n && !p->failed; s++) {
        for (int i = 0; i < nin; i++) {
            Tile *t = px_new_tile(p, 1);
            t->s[0] = in[i]->s[in[i]->n == n ? s : 0];
            px_bind(p, b->args[i], t);
        }
        px_lower_block(p, b);
        for (int i = 0; i < nres; i++) out[i]->s[s] = px_tile(p, op_operand(ret, i))->s[0];
    }
}

static void lower_inline_asm(Px *p, Op *op) {
    const char *text = op_attr_str(op, "asm_string"), *cons = op_attr_str(op, "constraints");
    int64_t pack = 1;
    op_attr_int(op, "packed_element", &pack);
    int nres = op->nresults, nin = op->noperands, nops = nres + nin;
    if (!text || !cons || nops > 32) return px_fail(p, op, "inline asm without its text or with too many operands");
    if (p->sm < 90 && !strncmp(text, "griddepcontrol.", 15)) { /* no PDL before Hopper: a no-op */
        for (int i = 0; i < nres; i++) {
            Tile *t = result_tile(p, op, i);
            for (int s = 0; s < t->n; s++) t->s[s] = px_imm_int(0, px_rc(ty_elem(op_result(op, i)->type)));
        }
        return;
    }
    /* constraints, one per operand: "=r,=r,r,l" */
    RegClass cls[32];
    int k = 0;
    for (const char *c = cons; *c && k < nops;) {
        while (*c == ' ' || *c == '=' || *c == '&' || *c == '+') c++;
        cls[k] = asm_class(*c);
        if (cls[k] == RC_COUNT) return px_fail(p, op, "inline asm constraint '%c' is not supported", *c ? *c : ' ');
        k++;
        while (*c && *c != ',') c++;
        if (*c == ',') c++;
    }
    if (k != nops) return px_fail(p, op, "inline asm has %d constraints for %d operands", k, nops);
    Value *r0 = op_result(op, 0);
    Tile *out[8];
    for (int i = 0; i < nres && i < 8; i++) out[i] = result_tile(p, op, i);
    if (nres > 8) return px_fail(p, op, "inline asm with more than 8 results");
    int n = out[0]->n;
    Tile *in[32];
    const Type *te[32];
    for (int i = 0; i < nin; i++) {
        in[i] = px_tile(p, op_operand(op, i));
        te[i] = ty_elem(op_operand(op, i)->type);
    }
    if (pack > 1) {
        for (int i = 0; i < nops; i++) {
            const Type *t = i < nres ? ty_elem(op_result(op, i)->type) : te[i - nres];
            if (px_bits(t) * pack != 32 || cls[i] != RC_B32)
                return px_fail(p, op, "inline asm with pack=%lld: only 8-bit x 4 or 16-bit x 2 in `r` registers",
                               (long long)pack);
        }
    }
    /* a thread's elements go pack at a time; a last, short pack is padded
     * with zeros whose results are dropped */
    (void)r0;
    for (int s = 0; s < n; s += (int)pack) {
        Slot regs[32];
        for (int i = 0; i < nres; i++) regs[i] = px_reg(p, cls[i]);
        for (int i = 0; i < nin; i++) {
            if (pack == 1) {
                regs[nres + i] = asm_in(p, in[i]->s[in[i]->n == n ? s : 0], te[i], cls[nres + i]);
                continue;
            }
            /* pack the elements s .. s+pack-1 into one 32-bit register */
            Slot w = px_reg(p, RC_B32);
            StrBuf sb = {0};
            int bits = 32 / (int)pack;
            px_emit(p, "mov.b32 %s, 0", px_rname(p, w));
            for (int j = 0; j < pack && s + j < n; j++) {
                Slot e = in[i]->s[in[i]->n == n ? s + j : 0];
                Slot b = asm_in(p, e, te[i], RC_B32);
                px_emit(p, "bfi.b32 %s, %s, %s, %d, %d", px_rname(p, w), px_rname(p, b), px_rname(p, w), j * bits, bits);
            }
            sb_free(&sb);
            regs[nres + i] = w;
        }
        /* the text with $N replaced */
        StrBuf sb = {0};
        for (const char *c = text; *c; c++) {
            if (*c == '$' && c[1] >= '0' && c[1] <= '9') {
                int idx = 0;
                while (c[1] >= '0' && c[1] <= '9') idx = idx * 10 + (*++c - '0');
                if (idx >= nops) {
                    sb_free(&sb);
                    return px_fail(p, op, "inline asm refers to $%d of %d operands", idx, nops);
                }
                sb_puts(&sb, px_rname(p, regs[idx]));
            } else {
                sb_putc(&sb, *c);
            }
        }
        sb_printf(&p->body, "\t{\n\t%s\n\t}\n", sb_cstr(&sb));
        sb_free(&sb);
        for (int i = 0; i < nres; i++) {
            const Type *t = ty_elem(op_result(op, i)->type);
            if (pack == 1) {
                out[i]->s[s] = asm_out(p, regs[i], cls[i], t);
                continue;
            }
            int bits = 32 / (int)pack;
            for (int j = 0; j < pack && s + j < n; j++) {
                Slot b = px_reg(p, RC_B32);
                px_emit(p, "bfe.u32 %s, %s, %d, %d", px_rname(p, b), px_rname(p, regs[i]), j * bits, bits);
                out[i]->s[s + j] = asm_out(p, b, RC_B32, t);
            }
        }
    }
}

static void lower_program_id(Px *p, Op *op) {
    Tile *out = result_tile(p, op, 0);
    int64_t axis = 0;
    op_attr_int_k(op, AN_AXIS, &axis);
    static const char *const ids[2][3] = {{"%ctaid.x", "%ctaid.y", "%ctaid.z"}, {"%nctaid.x", "%nctaid.y", "%nctaid.z"}};
    const char *src = ids[op->kind != TT_GET_PROGRAM_ID][axis == 1 ? 1 : axis == 2 ? 2 : 0];
    out->s[0] = px_cse(p, RC_B32, "mov.u32", src, NULL, NULL);
}

/* The source slot of copy (a, i): a one-slot tile is broadcast. */
static Slot copy_src(Tile **to, Tile **from, int a, int i) { return from[a]->s[from[a]->n == to[a]->n ? i : 0]; }

/* copy_tiles' marks on the registers of class rc: the call's stamp (from
 * 1) plus the position of the copy that writes each; a mark below the
 * stamp is none (the stamps only grow, so that no call clears its marks). */
static int *copy_marks(Px *p, int rc) {
    int need = p->nreg[rc] + 1;
    if (need > p->copy_mark_cap[rc]) {
        int cap = p->copy_mark_cap[rc] ? p->copy_mark_cap[rc] : 256;
        while (cap < need) cap *= 2;
        p->copy_mark[rc] = tc_realloc(p->copy_mark[rc], sizeof(int) * (size_t)cap);
        memset(p->copy_mark[rc] + p->copy_mark_cap[rc], 0, sizeof(int) * (size_t)(cap - p->copy_mark_cap[rc]));
        p->copy_mark_cap[rc] = cap;
    }
    return p->copy_mark[rc];
}

/* Copies tile `from` into the registers of `to` (a parallel copy). When no
 * destination register is read by a copy other than its own, every copy
 * is written straight into its destination, `reg + off` as one add (a
 * loop-carried pointer `p += 64` becomes `add.s64 %rd7, %rd7, 128`).
 * Otherwise the sources go through temporaries first. The test marks the
 * destinations on their registers, then looks each source up (a 128x128
 * fp32 accumulator is 128 slots per thread: pairwise tests were
 * quadratic); fresh: no source can be a destination (the destinations
 * were made for the copy and no value the sources come from can hold
 * them), so there is nothing to test. */
static void copy_tiles(Px *p, Tile **to, Tile **from, const Type **elems, int n, bool fresh) {
    bool clash = false;
    if (!fresh) {
        int *marks[RC_COUNT];
        for (int rc = 0; rc < RC_COUNT; rc++) marks[rc] = copy_marks(p, rc);
        int stamp = p->copy_stamp + 1, pos = stamp;
        for (int a = 0; a < n; a++)
            for (int i = 0; i < to[a]->n; i++, pos++)
                if (to[a]->s[i].kind == SLOT_REG) marks[to[a]->s[i].rc][to[a]->s[i].reg] = pos;
        p->copy_stamp = pos;
        pos = stamp;
        for (int a = 0; a < n && !clash; a++) {
            const Slot *src = from[a]->s, *dst = to[a]->s;
            int step = from[a]->n == to[a]->n;
            for (int i = 0; i < to[a]->n && !clash; i++, pos++) {
                if (dst[i].kind == SLOT_NONE) continue; /* not carried */
                Slot s = src[i * step];
                if (s.kind != SLOT_REG) continue;
                int mark = s.reg < p->copy_mark_cap[s.rc] ? marks[s.rc][s.reg] : 0;
                clash = mark >= stamp && mark != pos;
            }
        }
    }
    if (!clash) {
        for (int a = 0; a < n; a++) {
            const Slot *src = from[a]->s, *dst = to[a]->s;
            int step = from[a]->n == to[a]->n;
            for (int i = 0; i < to[a]->n; i++) {
                Slot s = src[i * step], d = dst[i];
                if (d.kind == SLOT_NONE) continue;
                if (s.kind == SLOT_REG && s.off) {
                    Slot r = {SLOT_REG, s.rc, s.reg, {0}};
                    px_ins_args(p, s.rc == RC_B64 ? PX_LIT("add.s64") : PX_LIT("add.s32"), d, px_arg_reg(p, r),
                                imm_arg(p, px_imm_int(s.off, s.rc)));
                } else if (s.kind != SLOT_REG || s.reg != d.reg || s.rc != d.rc) {
                    px_ins_args(p, rc_mov[d.rc], d, px_arg(p, s, elems[a]), 0);
                }
            }
        }
        return;
    }
    Tile **tmp = ARENA_ARRAY(p->ctx->arena, Tile *, n + 1);
    for (int a = 0; a < n; a++) {
        tmp[a] = px_new_tile(p, to[a]->n);
        for (int i = 0; i < to[a]->n; i++) {
            if (to[a]->s[i].kind == SLOT_NONE) continue;
            Slot s = copy_src(to, from, a, i), d = to[a]->s[i];
            if (s.kind == SLOT_REG && s.off == 0 && s.reg == d.reg && s.rc == d.rc) continue; /* kind NONE: no copy */
            PxArg src = px_arg(p, s, elems[a]);
            tmp[a]->s[i] = px_reg(p, d.rc);
            px_ins_args(p, rc_mov[d.rc], tmp[a]->s[i], src, 0);
        }
    }
    for (int a = 0; a < n; a++)
        for (int i = 0; i < to[a]->n; i++)
            if (tmp[a]->s[i].kind == SLOT_REG)
                px_ins_args(p, rc_mov[to[a]->s[i].rc], to[a]->s[i], px_arg_reg(p, tmp[a]->s[i]), 0);
}

/* After a loop: the predicates made before it are not found by the CSE
 * past it. A mask read after the loop is computed again there
 * (sink_compares.c), rather than kept through the loop in one of the
 * seven predicate registers a thread has. (key[0]'s low bits: the class.)
 * The entries the last call scanned are scanned again only once a scope's
 * end has dropped them and others took their places (cse_preds_gone): a
 * kernel of many loops in a row scanned its whole table after each. */
static void cse_forget_predicates(Px *p) {
    for (int k = p->cse_preds_gone; k < p->cse_entries.len; k++)
        if ((p->cse_entries.data[k].key[0] & 7) == RC_PRED) p->cse_entries.data[k].key[0] = 0;
    p->cse_preds_gone = p->cse_entries.len;
}

/* Fresh registers for a loop-carried / branch-joined value. */
static Tile *fresh_tile(Px *p, const Type *t) {
    int n = tile_slots(p, t);
    if (n < 0) n = 1;
    Tile *r = px_new_tile(p, n);
    for (int i = 0; i < n; i++) r->s[i] = px_reg(p, px_rc(ty_elem((Type *)t)));
    return r;
}

/* A loop's iteration argument: registers for the slots that are read
 * (ptx_demand.c), SLOT_NONE for the others, which are not carried. */
static Tile *carried_tile(Px *p, const Value *arg) {
    int n = tile_slots(p, arg->type);
    if (n < 0) n = 1;
    const uint64_t *want = px_demand(p, arg);
    Tile *r = px_new_tile(p, n);
    for (int i = 0; i < n; i++)
        if (px_demanded(want, i)) r->s[i] = px_reg(p, px_rc(ty_elem(arg->type)));
    return r;
}

static void lower_for(Px *p, Op *op) {
    Block *body = op->regions[0].first;
    int n = op->noperands - 3;
    Value *iv = body->args[0];
    const Type *it = iv->type;
    bool wide = px_rc(it) == RC_B64;
    Tile *ivt = fresh_tile(p, it);
    Tile **carried = ARENA_ARRAY(p->ctx->arena, Tile *, n + 1), **inits = ARENA_ARRAY(p->ctx->arena, Tile *, n + 1);
    const Type **elems = ARENA_ARRAY(p->ctx->arena, const Type *, n + 1);
    for (int i = 0; i < n; i++) {
        carried[i] = carried_tile(p, body->args[i + 1]);
        inits[i] = px_tile(p, op_operand(op, 3 + i));
        elems[i] = ty_elem(body->args[i + 1]->type);
    }
    Tile *lb = px_tile(p, op_operand(op, 0)), *ub = px_tile(p, op_operand(op, 1)), *st = px_tile(p, op_operand(op, 2));
    copy_tiles(p, carried, inits, elems, n, true); /* (the inits are older than the loop's registers) */
    Slot ivr = ivt->s[0];
    PxArg iva = px_arg_reg(p, ivr);
    px_ins_args(p, wide ? PX_LIT("mov.b64") : PX_LIT("mov.b32"), ivr, px_arg(p, lb->s[0], it), 0);
    PxArg ubs = px_arg(p, ub->s[0], it), sts = px_arg(p, st->s[0], it);
    int head = px_label(p), exit = px_label(p);
    px_bind(p, iv, ivt);
    for (int i = 0; i < n; i++) px_bind(p, body->args[i + 1], carried[i]);
    /* rotated, as LLVM leaves Triton's loops: the bound is tested once
     * before the loop and then at the bottom, one branch per iteration */
    Slot cond = px_reg(p, RC_PRED);
    px_ins_args(p, wide ? PX_LIT("setp.ge.s64") : PX_LIT("setp.ge.s32"), cond, iva, ubs);
    px_bra(p, cond, false, exit);
    px_label_at(p, head);
    px_scope_push(p);
    p->loop_depth++;
    px_lower_block(p, body);
    Op *y = block_terminator(body);
    Tile **ys = ARENA_ARRAY(p->ctx->arena, Tile *, n + 1);
    for (int i = 0; i < n; i++) ys[i] = px_tile(p, op_operand(y, i));
    copy_tiles(p, carried, ys, elems, n, false);
    px_ins_args(p, wide ? PX_LIT("add.s64") : PX_LIT("add.s32"), ivr, iva, sts);
    px_ins_args(p, wide ? PX_LIT("setp.lt.s64") : PX_LIT("setp.lt.s32"), cond, iva, ubs);
    px_bra(p, cond, false, head);
    p->loop_depth--;
    px_scope_pop(p);
    px_label_at(p, exit);
    cse_forget_predicates(p);
    for (int i = 0; i < n; i++) px_bind(p, op_result(op, i), carried[i]);
}

static void lower_if(Px *p, Op *op) {
    int n = op->nresults;
    Tile **res = ARENA_ARRAY(p->ctx->arena, Tile *, n + 1);
    const Type **elems = ARENA_ARRAY(p->ctx->arena, const Type *, n + 1);
    for (int i = 0; i < n; i++) {
        res[i] = fresh_tile(p, op_result(op, i)->type);
        elems[i] = ty_elem(op_result(op, i)->type);
    }
    Tile *c = px_tile(p, op_operand(op, 0));
    Type *i1 = p->i1;
    Slot cn = px_mat(p, c->s[0], i1);
    int els = px_label(p), end = px_label(p);
    px_bra(p, cn, true, els);
    for (int r = 0; r < 2; r++) {
        Block *b = op->regions[r].first;
        px_scope_push(p);
        if (b) {
            px_lower_block(p, b);
            Op *y = block_terminator(b);
            Tile **ys = ARENA_ARRAY(p->ctx->arena, Tile *, n + 1);
            for (int i = 0; i < n; i++) ys[i] = px_tile(p, op_operand(y, i));
            copy_tiles(p, res, ys, elems, n, true); /* (res is bound only after the branches) */
        }
        px_scope_pop(p);
        if (r == 0) {
            px_bra(p, (Slot){0}, false, end);
            px_label_at(p, els);
        }
    }
    px_label_at(p, end);
    for (int i = 0; i < n; i++) px_bind(p, op_result(op, i), res[i]);
}

static void lower_while(Px *p, Op *op) {
    Block *before = op->regions[0].first, *after = op->regions[1].first;
    int nb = before->nargs, na = after->nargs;
    Tile **bargs = ARENA_ARRAY(p->ctx->arena, Tile *, nb + 1), **inits = ARENA_ARRAY(p->ctx->arena, Tile *, nb + 1);
    Tile **aargs = ARENA_ARRAY(p->ctx->arena, Tile *, na + 1);
    const Type **be = ARENA_ARRAY(p->ctx->arena, const Type *, nb + 1), **ae = ARENA_ARRAY(p->ctx->arena, const Type *, na + 1);
    for (int i = 0; i < nb; i++) {
        bargs[i] = fresh_tile(p, before->args[i]->type);
        inits[i] = px_tile(p, op_operand(op, i));
        be[i] = ty_elem(before->args[i]->type);
        px_bind(p, before->args[i], bargs[i]);
    }
    for (int i = 0; i < na; i++) {
        aargs[i] = fresh_tile(p, after->args[i]->type);
        ae[i] = ty_elem(after->args[i]->type);
        px_bind(p, after->args[i], aargs[i]);
    }
    copy_tiles(p, bargs, inits, be, nb, true); /* (the inits are older than the loop's registers) */
    int head = px_label(p), exit = px_label(p);
    px_label_at(p, head);
    px_scope_push(p);
    p->loop_depth++;
    px_lower_block(p, before);
    Op *cnd = block_terminator(before);
    Tile **cv = ARENA_ARRAY(p->ctx->arena, Tile *, na + 1);
    for (int i = 0; i < na; i++) cv[i] = px_tile(p, op_operand(cnd, i + 1));
    Tile *c = px_tile(p, op_operand(cnd, 0));
    Slot cs = px_mat(p, c->s[0], p->i1);
    copy_tiles(p, aargs, cv, ae, na, true); /* (the after region's arguments are not seen before) */
    px_bra(p, cs, true, exit);
    px_scope_pop(p);
    px_scope_push(p);
    px_lower_block(p, after);
    Op *y = block_terminator(after);
    Tile **ys = ARENA_ARRAY(p->ctx->arena, Tile *, nb + 1);
    for (int i = 0; i < nb; i++) ys[i] = px_tile(p, op_operand(y, i));
    copy_tiles(p, bargs, ys, be, nb, false);
    px_bra(p, (Slot){0}, false, head);
    p->loop_depth--;
    px_scope_pop(p);
    px_label_at(p, exit);
    cse_forget_predicates(p);
    for (int i = 0; i < op->nresults && i < na; i++) px_bind(p, op_result(op, i), aargs[i]);
}

static void lower_op(Px *p, Op *op) {
    if (p->failed) return;
    switch (op->kind) {
    case ARITH_CONSTANT: lower_constant(p, op); return;
    case UB_POISON: {
        Tile *t = result_tile(p, op, 0);
        for (int i = 0; i < t->n; i++) t->s[i] = px_imm_int(0, px_rc(ty_elem(op_result(op, 0)->type)));
        return;
    }
    case TT_MAKE_RANGE: lower_make_range(p, op); return;
    case TT_SPLAT:
    case TT_BROADCAST:
    case TT_EXPAND_DIMS: lower_broadcast(p, op); return;
    case TT_GET_PROGRAM_ID:
    case TT_GET_NUM_PROGRAMS: lower_program_id(p, op); return;
    case TT_LOAD: px_lower_load(p, op); return;
    case TT_STORE: px_lower_store(p, op); return;
    case TT_ATOMIC_RMW:
    case TT_ATOMIC_CAS: px_lower_atomic(p, op); return;
    case TT_REDUCE: px_lower_reduce(p, op); return;
    case TT_SCAN: px_lower_scan(p, op); return;
    case TT_RESHAPE: case TT_TRANS: case TT_JOIN: case TT_SPLIT: case TT_CAT: px_lower_shape(p, op); return;
    case TT_GATHER: px_lower_gather(p, op); return;
    case TT_HISTOGRAM: px_lower_histogram(p, op); return;
    case TTG_CONVERT_LAYOUT: px_lower_convert(p, op); return;
    case TT_DOT: px_lower_dot(p, op); return;
    case TTG_LOCAL_ALLOC:
    case TTG_LOCAL_DEALLOC:
    case TTG_ASYNC_COPY:
    case TTG_ASYNC_COMMIT:
    case TTG_ASYNC_WAIT:
    case TTG_LOCAL_STORE:
    case TTG_LOCAL_LOAD: px_lower_async(p, op); return;
    case SCF_FOR: lower_for(p, op); return;
    case SCF_IF: lower_if(p, op); return;
    case SCF_WHILE: lower_while(p, op); return;
    case GPU_BARRIER: px_barrier(p); return;
    case TT_PRINT: lower_print(p, op); return;
    case TT_MAP_ELEMENTWISE: lower_map_elementwise(p, op); return;
    case TT_ELEMENTWISE_INLINE_ASM: lower_inline_asm(p, op); return;
    case TT_ASSERT: lower_assert(p, op); return;
    case SCF_YIELD:
    case SCF_CONDITION:
    case TT_REDUCE_RETURN:
    case TT_SCAN_RETURN:
    case TT_MAP_ELEMENTWISE_RETURN:
        return; /* read by the parent */
    case TT_RETURN:
        px_emit(p, "bra.uni $L__RET");
        return;
    default:
        break;
    }
    if (op_has_flag(op, OPF_ELEMENTWISE) || op->kind == ARITH_CMPI || op->kind == ARITH_CMPF ||
        op->kind == ARITH_SELECT) {
        lower_elementwise(p, op);
        return;
    }
    px_fail(p, op, "op '%s' is not supported by the PTX backend yet", op_name(op));
}

void px_lower_block(Px *p, Block *b) {
    for (Op *op = b->first; op && !p->failed; op = op->next) lower_op(p, op);
}

/* ---- the kernel ---------------------------------------------------------- */

static const char *param_type(const Type *t) {
    switch (t->kind) {
    case TY_PTR: return ".u64";
    case TY_INDEX: return ".u64";
    case TY_INT: return t->width == 1 ? ".u8" : t->width <= 32 ? (t->width == 8 ? ".u8" : t->width == 16 ? ".u16" : ".u32") : ".u64";
    case TY_FLOAT: return t->width == 64 ? ".f64" : t->width == 32 ? ".f32" : ".b16";
    default: return ".u32";
    }
}

/* `\tld.param<ty> r, [<name>_param_<i>];\n` into the prologue, by plain
 * copies (a kernel has tens of parameters; the pieces' lengths are known). */
static void param_load(Px *p, const char *ty, Slot r, const char *name, size_t name_len, int i) {
    StrBuf *sb = &p->pro;
    size_t room = 16 + PX_W_NAME + name_len + 32;
    if (sb->len + room + 32 > sb->cap) sb_reserve(sb, room + 32);
    char *w = sb->data + sb->len;
    w = px_w_text(w, "\tld.param", 9);
    w = px_w_text(w, ty, strlen(ty));
    *w++ = ' ';
    w = px_w_name(p, w, r);
    *w++ = ',', *w++ = ' ', *w++ = '[';
    memcpy(w, name, name_len);
    w = px_w_text(w + name_len, "_param_", 7);
    w += fmt_uint(w, (uint64_t)i);
    *w++ = ']', *w++ = ';', *w++ = '\n', *w = 0;
    sb->len = (size_t)(w - sb->data);
}

static void load_params(Px *p, Op *func, const char *name) {
    Block *entry = func_entry(func);
    size_t name_len = strlen(name);
    for (int i = 0; i < entry->nargs; i++) {
        Value *a = entry->args[i];
        const Type *t = a->type;
        Tile *tl = px_new_tile(p, 1);
        RegClass rc = px_rc(t);
        if (t->kind == TY_INT && t->width == 1) {
            Slot u = px_reg(p, RC_B32);
            param_load(p, ".u8", u, name, name_len, i);
            tl->s[0] = px_reg(p, RC_PRED);
            px_line_pro(p, "setp.ne.s32 ", px_rname(p, tl->s[0]), ", ", px_rname(p, u), ", 0", NULL);
        } else {
            tl->s[0] = px_reg(p, rc);
            const char *ld = param_type(t);
            if (t->kind == TY_INT && t->width < 32) ld = t->width == 8 ? ".s8" : ".s16";
            param_load(p, ld, tl->s[0], name, name_len, i);
        }
        px_bind(p, a, tl);
    }
}

/* The emitter's largest growing tables, kept by the thread for its next
 * kernel: freed, glibc handed their memory back to the system, and
 * growing them again from nothing page-faulted on every compile (the
 * tables are zeroed again instead). */
static _Thread_local struct {
    PxValue *values;
    uint32_t values_cap;
    uint32_t *cse_tab;
    int cse_cap;
    CseEntry *entries;
    int entries_cap;
    /* copy_tiles' marks and their stamp, which only grows (see copy_marks):
     * kept with the stamp, they need no clearing from kernel to kernel */
    int *copy_mark[RC_COUNT];
    int copy_mark_cap[RC_COUNT], copy_stamp;
} px_keep;

/* (The value table: n entries, for the values made so far, zeroed.) */
static void px_tables_take(Px *p, uint32_t n) {
    if (px_keep.values_cap < n) {
        tc_free(px_keep.values);
        px_keep.values = tc_malloc(n * sizeof *px_keep.values), px_keep.values_cap = n;
    }
    memset(px_keep.values, 0, n * sizeof *px_keep.values);
    p->values = px_keep.values, p->nvalues = n, p->values_cap = px_keep.values_cap;
    if (px_keep.cse_tab) {
        memset(px_keep.cse_tab, 0, sizeof(uint32_t) * (size_t)px_keep.cse_cap);
        p->cse_tab = px_keep.cse_tab, p->cse_cap = px_keep.cse_cap;
    }
    if (px_keep.entries) p->cse_entries.data = px_keep.entries, p->cse_entries.cap = px_keep.entries_cap;
    if (px_keep.copy_stamp > INT_MAX / 2) { /* (a stamp far on: the marks cleared, counted again from 0) */
        for (int rc = 0; rc < RC_COUNT; rc++)
            if (px_keep.copy_mark[rc]) memset(px_keep.copy_mark[rc], 0, sizeof(int) * (size_t)px_keep.copy_mark_cap[rc]);
        px_keep.copy_stamp = 0;
    }
    for (int rc = 0; rc < RC_COUNT; rc++)
        p->copy_mark[rc] = px_keep.copy_mark[rc], p->copy_mark_cap[rc] = px_keep.copy_mark_cap[rc];
    p->copy_stamp = px_keep.copy_stamp;
    memset(&px_keep, 0, sizeof px_keep);
}

static void px_tables_keep(Px *p) {
    tc_free(px_keep.values), tc_free(px_keep.cse_tab), tc_free(px_keep.entries);
    px_keep.values = p->values, px_keep.values_cap = p->values_cap;
    px_keep.cse_tab = p->cse_tab, px_keep.cse_cap = p->cse_cap;
    px_keep.entries = p->cse_entries.data, px_keep.entries_cap = p->cse_entries.cap;
    for (int rc = 0; rc < RC_COUNT; rc++) {
        tc_free(px_keep.copy_mark[rc]);
        px_keep.copy_mark[rc] = p->copy_mark[rc], px_keep.copy_mark_cap[rc] = p->copy_mark_cap[rc];
    }
    px_keep.copy_stamp = p->copy_stamp;
}

bool ptx_emit(Context *c, Op *module, const char *kernel, const PtxOptions *o, StrBuf *out,
              PtxKernelInfo *info, DiagEngine *de) {
    Op *func = kernel ? module_lookup_func(module, kernel) : NULL;
    if (!func)
        for (Op *f = module_body(module)->first; f && !func; f = f->next)
            if (f->kind == TT_FUNC) func = f;
    if (!func) {
        diag_error(de, (Loc){0}, "no kernel%s%s in the module", kernel ? " named " : "", kernel ? kernel : "");
        return false;
    }
    const char *name = func_name(func);
    Px px = {.ctx = c, .de = de, .sm = o->sm ? o->sm : 90, .num_warps = o->num_warps > 0 ? o->num_warps : 4,
             .epoch = 1, .fp_fusion = gpu_fp_fusion()};
    Px *p = &px;
    int64_t nw;
    if (op_attr_int(module, "ttg.num-warps", &nw)) p->num_warps = (int)nw;
    sb_reserve(&p->body, 32 * 1024); /* (grown by doubling from here: fewer copies of a large body) */
    sb_reserve(&p->pro, 2048); /* (a kernel's prologue is some dozens of lines) */
    px_tables_take(p, ctx_value_count(c));
    map_reserve(&p->dists, 64); /* (a kernel has tens of tensor types: no rehash on the way) */
    p->f32 = ty_f32(c);
    p->i32 = ty_i32(c);
    p->i1 = ty_i1(c);
    p->func = func; /* (the demand analysis runs at its first question, see px_demand) */
    for (int rc = 0; rc < RC_COUNT; rc++) { /* the names kept from the kernels before */
        p->rnames[rc] = px_names.names[rc], p->rnames_named[rc] = px_names.named[rc];
        p->rnames_cap[rc] = px_names.cap[rc];
        if (!p->rnames_named[rc]) px_rname_block(p, (RegClass)rc);
    }
    memset(&px_names, 0, sizeof px_names);
    p->tid = px_reg(p, RC_B32);
    p->lane = px_reg(p, RC_B32);
    p->warp = px_reg(p, RC_B32);
    px_line_pro(p, "mov.u32 ", px_rname(p, p->tid), ", %tid.x", NULL);
    px_line_pro(p, "and.b32 ", px_rname(p, p->lane), ", ", px_rname(p, p->tid), ", 31", NULL);
    px_line_pro(p, "shr.u32 ", px_rname(p, p->warp), ", ", px_rname(p, p->tid), ", 5", NULL);
    load_params(p, func, name);
    px_lower_block(p, func_entry(func));
    bool ok = !p->failed;
    if (ok) {
        /* The header and prologue are written to their own buffer and put
         * in front of the body in place: the body, the bulk of the text,
         * is not copied into a second large buffer. */
        StrBuf head = {0};
        StrBuf *final = out;
        out = &head;
        int threads = 32 * p->num_warps;
        sb_puts(out, p->sm >= 90 ? "//\n// Generated by tritonc\n//\n\n.version 8.1\n.target sm_"
                                 : "//\n// Generated by tritonc\n//\n\n.version 7.4\n.target sm_");
        sb_put_int(out, p->sm);
        sb_puts(out, p->sm == 90 ? "a\n.address_size 64\n\n" : "\n.address_size 64\n\n");
        if (p->uses_printf)
            sb_puts(out, ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n");
        if (p->uses_assert)
            sb_puts(out, ".extern .func __assertfail\n(\n\t.param .b64 __assertfail_param_0,\n\t.param .b64 __assertfail_param_1,\n\t.param .b32 __assertfail_param_2,\n\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n)\n;\n");
        /* (wgmma's swizzled tiles are 1024-byte aligned from it; mma.sync's
         * swizzled rows XOR addresses from 128-byte aligned bases) */
        sb_puts(out, p->uses_wgmma    ? ".extern .shared .align 1024 .b8 global_smem[];\n"
                     : p->smem_align128 ? ".extern .shared .align 128 .b8 global_smem[];\n"
                                        : ".extern .shared .align 16 .b8 global_smem[];\n");
        if (p->strings.len) sb_puts(out, sb_cstr(&p->strings));
        sb_puts(out, "\n");
        /* (plain copies: a kernel has tens of parameters) */
        sb_puts(out, ".visible .entry ");
        sb_puts(out, name);
        sb_puts(out, "(\n");
        Block *entry = func_entry(func);
        for (int i = 0; i < entry->nargs; i++) {
            sb_puts(out, "\t.param ");
            sb_puts(out, param_type(entry->args[i]->type));
            sb_putc(out, ' ');
            sb_puts(out, name);
            sb_puts(out, "_param_");
            sb_put_int(out, i);
            sb_puts(out, i + 1 < entry->nargs ? ",\n" : "\n");
        }
        sb_puts(out, ")\n.reqntid ");
        sb_put_int(out, threads);
        sb_puts(out, ", 1, 1\n{\n");
        for (int r = 0; r < RC_COUNT; r++) {
            if (!p->nreg[r]) continue;
            sb_puts(out, "\t.reg ");
            sb_puts(out, rc_decl[r]);
            sb_putc(out, ' ');
            sb_puts(out, rc_prefix[r]);
            sb_putc(out, '<');
            sb_put_int(out, p->nreg[r] + 1);
            sb_puts(out, ">;\n");
        }
        if (p->uses_printf) sb_puts(out, "\t.local .align 8 .b8 __tc_printbuf[24];\n");
        sb_puts(out, "\n");
        sb_puts(out, sb_cstr(&p->pro));
        StrBuf *b = &p->body;
        sb_putn(b, "", 0); /* allocated and terminated, even if empty */
        sb_reserve(b, head.len);
        memmove(b->data + head.len, sb_cstr(b), b->len + 1);
        if (head.len) memcpy(b->data, head.data, head.len);
        b->len += head.len;
        sb_free(&head);
        sb_puts(b, "$L__RET:\n\tret;\n}\n");
        if (final->len == 0) {
            sb_free(final);
            *final = *b; /* the caller's buffer takes the body's */
            *b = (StrBuf){0};
        } else {
            sb_putn(final, b->data, b->len);
        }
        if (info) {
            info->smem_bytes = p->smem_size;
            info->num_warps = p->num_warps;
        }
    }
    sb_free(&p->pro);
    sb_free(&p->body);
    sb_free(&p->strings);
    for (int r = 0; r < RC_COUNT; r++) {
        px_names.names[r] = p->rnames[r], px_names.named[r] = p->rnames_named[r], px_names.cap[r] = p->rnames_cap[r];
    }
    px_tables_keep(p);
    map_free(&p->dists);
    map_free(&p->tparts);
    map_free(&p->maybits);
    vec_free(&p->scope_marks);
    vec_free(&p->texts);
    tc_free(p->text_tab);
    if (p->aa) axis_analysis_free(p->aa);
    return ok;
}

bool gpu_fp_fusion(void) {
    const char *e = getenv("TRITON_DEFAULT_FP_FUSION");
    return !(e && strcmp(e, "0") == 0);
}
