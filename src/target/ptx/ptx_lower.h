/*
 * ptx_lower.h - internals shared by the ttg -> PTX lowering files:
 *   ptx_emit.c    the kernel, registers, scalar and element-wise ops,
 *                 control flow;
 *   ptx_memory.c  global loads, stores and atomics;
 *   ptx_shared.c  what goes through shared memory: reductions, scans,
 *                 layout conversions and the FMA tt.dot;
 *   ptx_mma.c     tt.dot on tensor cores (mma.sync, planned by mma_plan.c);
 *   ptx_demand.c  which slots of each tile are read (run first: the
 *                 slots nobody reads are not computed, SLOT_NONE).
 *
 * A tile is held per thread as `Tile`: one Slot per element the thread owns
 * (Dist order, see dialect/ttg.h); a scalar is a Tile of one Slot, held by
 * every thread. A Slot is a virtual register plus a constant (`reg + off`,
 * integers and pointers only) or an immediate. Keeping the constant apart
 * is what makes the PTX compact: `pid * 1024 + arange(0, 1024)` is one
 * register per thread with a different constant per slot, and the address
 * of slot k of a 16-byte access becomes `[%rd7+16]`.
 *
 * Registers are virtual (%r<N>, %rd<N>, %f<N>, ...), declared at the end;
 * ptxas allocates. Instructions with equal text are emitted once per scope
 * (a small CSE keyed by the opcode and operand texts); a scope is a region of
 * scf.for / scf.if / scf.while, and what was emitted inside it is forgotten
 * on leaving it. Per-thread invariants (lane and warp coordinates) go to a
 * prologue that dominates everything.
 */
#ifndef TC_PTX_LOWER_H
#define TC_PTX_LOWER_H

#include "dialect/dialect.h"
#include "dialect/ttg.h"
#include "transform/gpu/axis_info.h"

typedef enum RegClass { RC_PRED, RC_B16, RC_B32, RC_B64, RC_F32, RC_F64, RC_COUNT } RegClass;
enum { SLOT_NONE, SLOT_REG, SLOT_IMM };

/* 16 bytes, so that functions return it in registers (a larger struct
 * comes back through memory and its first read stalls on the stores). */
typedef struct Slot {
    uint8_t kind, rc;
    int reg;
    union {
        int64_t off; /* REG: added constant; IMM: integer value, or the bits of an f16/bf16 (RC_B16) */
        double f;    /* IMM of class F32 or F64 */
    };
} Slot;

typedef struct Tile {
    int n;
    Slot *s;
} Tile;

/* An operand of px_cse, as the id that keys it: two operands have equal
 * ids exactly when their texts are equal (see px_cse). A plain register is
 * its class and number with the top bit set (named only when the
 * instruction is new); any other text (an immediate, a literal such as
 * "%tid.x") is its number in the kernel's table of texts, from 1. */
typedef uint32_t PxArg;
#define PX_REG_ID (1u << 31)
enum { PX_REG_MAX = 1 << 24 };

/* A px_cse key: the destination's class and the opcode, then up to three
 * operands (0: none), each text as its id (see px_cse). */
typedef struct CseEntry {
    uint64_t key[2]; /* the words two by two, the first in the low half */
    uint32_t hash; /* of the key; its low bits place it in the table */
    int reg;       /* the destination */
} CseEntry;

/* A text interned for CSE keys (a copy in the arena), and a memo entry
 * from a caller's pointer to it. */
typedef struct PxTextEntry {
    const char *s;
    uint32_t len, hash;
} PxTextEntry;
typedef struct PxTextMemo {
    const char *s, *canon;
    uint32_t id, len;
} PxTextMemo;

/* An element-wise op whose slots are one instruction each, planned once
 * (see ew_plan in ptx_emit.c): the opcode's id, the result's class, and
 * each operand's slot in px_ew's `in` and element type. */
typedef struct EwPlan {
    PxArg opc;
    RegClass rc;
    int nargs;
    int src[3];
    const Type *elem[3];
} EwPlan;

/* A kernel's plans (see ew_plan_of in ptx_emit.c), by what ew_plan reads
 * of an op: its kind, its result's and first operand's element types and
 * its predicate or rounding (0 for the other kinds). ok: the plan is made
 * (false: such ops take px_ew). */
typedef struct EwPlanEntry {
    const Type *re, *e0;
    int64_t attr;
    int kind1; /* the kind + 1 (0: empty) */
    bool ok;
    EwPlan plan;
} EwPlanEntry;

/* What the emitter knows of one value: its Tile once lowered, and the
 * slots of it that are read when not all (ptx_demand.c). */
/* A set of a tile's slots, a bit each (see ptx_demand.c); full: every
 * slot, whatever the bits say. */
typedef struct Bits {
    int n;
    bool full;
    uint64_t w[];
} Bits;

typedef struct PxValue {
    Tile *tile;
    Bits *demand;
    const int *bcast_src; /* a tt.broadcast / tt.expand_dims result's, see px_broadcast_src_of */
    unsigned known_mark;  /* see known_demand in ptx_demand.c */
    bool part;            /* may be read in part, see mark_part in ptx_demand.c */
    bool wgmma;           /* a tt.dot's result that wgmma computed (see wgmma_deferred) */
    uint8_t may;          /* 0, PART_MAY, PART_FULL or PART_BUSY: see may_part there */
} PxValue;
enum { PART_MAY = 1, PART_FULL, PART_BUSY };

/* tt.addptr's offset register widened to bytes (see px_ew), by the offset
 * register: the pointer tiles of a kernel mostly share a few offset
 * tiles, slot after slot the same registers with other constants. */
typedef struct PxWideMemo {
    unsigned epoch;
    int o_reg;
    uint8_t o_rc, how; /* how: 1 mul.lo.s64, 2 cvt.s64.s32, 3 mul.wide.s32 (0: empty) */
    int64_t scale;
    Slot wide;
} PxWideMemo;


typedef struct Px {
    Context *ctx;
    DiagEngine *de;
    int sm, num_warps;
    bool fp_fusion; /* a * b + c as one fma (gpu_fp_fusion) */
    StrBuf pro, body;
    int nreg[RC_COUNT];
    /* register names, made a block at a time as the registers are (see
     * px_rname_block): rnames_named[rc] of them, from %r0 on */
    const char **rnames[RC_COUNT];
    int rnames_named[RC_COUNT], rnames_cap[RC_COUNT];
    int nlabel;
    int *copy_mark[RC_COUNT]; /* per register, for copy_tiles */
    int copy_mark_cap[RC_COUNT], copy_stamp;
    PxValue *values;     /* by Value.id (dense: an array, not a map) */
    uint32_t nvalues, values_cap; /* entries zeroed; allocated */
    Map dists;           /* tensor Type* -> its Dist (see px_dist) */
    struct { const Type *t; const Dist *d; } dist_memo[128]; /* see px_dist_of */
    /* CSE: open addressing from an instruction's hash to 1 + its index in
     * cse_entries, 4 bytes a slot (12 bits of the hash as a tag, 20 of
     * index: the table is probed once per instruction and must stay in
     * cache) */
    uint32_t *cse_tab;
    int cse_cap, cse_used;
    VEC(CseEntry) cse_entries;
    VEC(int) scope_marks;
    /* the entries below this index hold no predicate (see
     * cse_forget_predicates): the loops' ends scan only those after it */
    int cse_preds_gone;
    /* the texts of CSE keys, interned: open addressing to 1 + the index in
     * texts, and a direct-mapped memo by pointer (see text_arg) */
    VEC(PxTextEntry) texts;
    uint32_t *text_tab;
    int text_cap;
    PxTextMemo text_memo[256];
    /* px_cse1/2/3's opcodes by pointer (see opcode_arg) */
    struct { const char *s; PxArg id; } opcode_memo[256];
    int depth;           /* region nesting */
    int loop_depth;
    Slot tid, lane, warp;
    Map tparts;          /* hash of a thread-part recipe -> Slot* */
    Map maybits;         /* a b32 register's number + 1 -> uint64_t*: the bits it may have set (known_bits) */
    int smem_size;       /* bytes of dynamic shared memory */
    /* bytes at offset 0 held by cp.async rings (between ttg.local_alloc and
     * ttg.local_dealloc): every other user starts above them */
    int smem_floor;
    bool smem_dirty;     /* a shared-memory user ran before: barrier first */
    bool uses_printf, uses_assert;
    bool demand_done; /* px_demand_analyze has run (see px_demand) */
    bool demand_all;  /* it looks at every value, see mark_part in ptx_demand.c */
    unsigned known_mark; /* the current walk's mark, see known_demand in ptx_demand.c */
    StrBuf strings;      /* .global string constants (tt.print's formats) */
    int nstrings;
    Op *func;
    AxisAnalysis *aa; /* made at the first question (px_axis) */
    Bits *demand_scratch; /* see uses_demand_n: room for demand_scratch_words words */
    int demand_scratch_words;
    char *tile_next, *tile_end; /* see px_new_tile */
    Type *f32, *i32, *i1; /* made once: ty_f32() interns on every call */
    /* Memos of address registers asked for slot after slot (the answer
     * of px_cse for each but the first); an entry is good while its epoch
     * is current, and the epoch moves on when a scope is left. */
    unsigned epoch;
    struct PxLinear *linears; /* see px_linear_index */
    struct { unsigned epoch; int index_reg, esize; Slot addr; } smem_memo[2]; /* the newer first, see smem_at */
    struct { unsigned epoch; Slot reg; } smem_base_memo; /* see smem_base */
    PxWideMemo wide_memo[16]; /* direct-mapped by the offset register, see addptr_wide */
    /* `reg + off` materialised (px_mat_make): px_cse's answer, by the
     * register and the constant, direct-mapped */
    struct { unsigned epoch; int reg; uint8_t rc; int64_t off; Slot r; } mat_memo[32];
    struct PxMmaPlans *mma_plans; /* see plan_of in ptx_mma.c */
    struct PxSwz *swz_addrs;      /* see swz_of in ptx_mma.c */
    bool uses_wgmma;              /* (global_smem then 1024-byte aligned) */
    bool smem_align128;           /* (else 128-byte aligned: mma.sync's swizzled rows) */
    struct PxBcastMap *bcast_maps; /* see px_broadcast_src_of */
    struct PxConvert *converts;    /* see px_relayout */
    struct PxRuns *runs;           /* see const_runs in ptx_emit.c */
    struct PxAccessOpc *access_opcs; /* see access_opcode in ptx_memory.c */
    struct { const char *a, *b, *s; } opc_memo[256]; /* see opc_join */
    int opc_used;
    struct { uint64_t bits; int rc; PxArg id; } imm_memo[512]; /* see imm_arg */
    PxArg small_int[256]; /* the ids of the integers 0..255 (0: not yet), see px_arg_int */
    struct { const Op *op; int64_t v; } ew_attr; /* see ew_attr */
    EwPlanEntry ew_plans[32]; /* direct-mapped, see ew_plan_of */
    struct { const Op *op; bool ok; EwPlan plan; } ew_plan; /* the last op's, see px_ew_planned */
    /* a reduction's or scan's combine region, when it is one element-wise op
     * of its arguments (one: that op; from_x[i]: its operand i is the
     * second argument), see combine_one_op in ptx_shared.c */
    struct { const Op *op; Op *one; bool from_x[2]; const Type *re; } combine_memo;
    bool failed;
} Px;

/* ptx_emit.c: emission helpers */
void px_emit(Px *p, const char *fmt, ...) TC_PRINTF(2, 3);
void px_emit_pro(Px *p, const char *fmt, ...) TC_PRINTF(2, 3);
/* Appends `opcode d[, a[, b[, c]]];` to the body by plain copies: the
 * shape of most instructions, in the hot loops (NULL ends the operands). */
void px_ins(Px *p, const char *opcode, const char *d, const char *a, const char *b, const char *c);
/* Appends `\t`, the pieces (NULL ends them) and `;\n`: the lines px_ins
 * cannot shape (a predicate in front, braces), without a format string. */
void px_line(Px *p, const char *first, ...);
/* The same, to the prologue. */
void px_line_pro(Px *p, const char *first, ...);
/* The pieces (NULL ends them) joined, in the arena: operand texts such as
 * `[%rd5+16]` or `@%p3 `, made slot after slot. */
const char *px_cat(Px *p, const char *first, ...);
/* A text with its length: operand lists made once and written many times
 * (an mma's accumulator list goes into the line twice, at every k step). */
typedef struct PxText {
    const char *s;
    size_t n;
} PxText;
#define PX_LIT(str) ((PxText){str, sizeof str - 1})
/* px_ins with the operands as PxArgs (below; b 0: none): no texts
 * measured. */
void px_ins_args(Px *p, PxText opcode, Slot d, PxArg a, PxArg b);
/* px_line of pieces whose lengths are known: plain copies. */
void px_line_t(Px *p, const PxText *pieces, int n);
/* Writing a line by parts, for the shapes the helpers here do not cover:
 * px_w_begin makes room for `room` bytes (a register's name counted as
 * PX_W_NAME: the 16 bytes a name's copy writes and a separator, an address
 * as PX_W_ADDR) and writes the tab; each part returns the position after
 * it; px_w_end writes `;\n`. */
enum { PX_W_NAME = 18, PX_W_ADDR = 48 };
static inline char *px_w_begin(Px *p, size_t room) {
    StrBuf *sb = &p->body;
    if (sb->len + room + 32 > sb->cap) sb_reserve(sb, room + 32);
    char *w = sb->data + sb->len;
    *w++ = '\t';
    return w;
}
static inline void px_w_end(Px *p, char *w) {
    *w++ = ';', *w++ = '\n', *w = 0;
    p->body.len = (size_t)(w - p->body.data);
}
/* Copies n bytes (a few: two overlapping word moves, no call; up to 64,
 * the long opcodes such as ldmatrix's and mma's, in overlapping 16-byte
 * moves). */
static inline char *px_w_text(char *w, const char *s, size_t n) {
    if (n >= 8 && n <= 16) {
        memcpy(w, s, 8);
        memcpy(w + n - 8, s + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        memcpy(w, s, 4);
        memcpy(w + n - 4, s + n - 4, 4);
    } else if (n > 16 && n <= 32) {
        memcpy(w, s, 16);
        memcpy(w + n - 16, s + n - 16, 16);
    } else if (n > 32 && n <= 64) {
        memcpy(w, s, 16);
        memcpy(w + 16, s + 16, 16);
        memcpy(w + n - 32, s + n - 32, 16);
        memcpy(w + n - 16, s + n - 16, 16);
    } else if (n > 64) {
        memcpy(w, s, n);
    } else if (n) {
        w[0] = s[0];
        w[n / 2] = s[n / 2];
        w[n - 1] = s[n - 1];
    }
    return w + n;
}

/* `[base+off]` (base a register, its offset ignored; `[base]` for 0 unless
 * keep_zero, `+-k` for a negative k) or `[off]` (base not a register). */
char *px_w_addr(Px *p, char *w, Slot base, int64_t off, bool keep_zero);
/* `opcode [base+off], v` and `opcode v, [base+off]`, v one register or
 * `{v0, v1, ...}` (n <= 8; plain registers, base too; `+0` written). */
void px_st_regs(Px *p, PxText opcode, Slot base, int64_t off, const Slot *v, int n);
void px_ld_regs(Px *p, PxText opcode, const Slot *v, int n, Slot base, int64_t off);
/* `opcode L0, L1, ...`, the lists px_reglist's texts (made once, written
 * many times: an mma's operand lists). */
void px_line_lists(Px *p, PxText opcode, const PxText *lists, int n);
/* `mov.b32 {lo, hi}, word`: a 32-bit register's two 16-bit halves into
 * lo and hi (plain registers). */
void px_unpack2(Px *p, Slot lo, Slot hi, Slot word);
/* `{r0, r1, ...}`: the names of n (at most 8) plain registers, in the
 * arena. */
PxText px_reglist(Px *p, const Slot *s, int n);
/* An integer's decimal text (memoised with the immediates). */
const char *px_int(Px *p, int64_t v);
/* `[base+off]`; `[base]` when off is 0 and !keep_zero. */
const char *px_addr(Px *p, const char *base, int64_t off, bool keep_zero);
void px_fail(Px *p, const Op *op, const char *fmt, ...) TC_PRINTF(3, 4);
/* Names the next block of registers of class rc (see px_rname). */
void px_rname_block(Px *p, RegClass rc);
/* A fresh virtual register (inline: a Slot returned through memory from a
 * call is read back at once, and stalls), its name made with its block's. */
static inline Slot px_reg(Px *p, RegClass rc) {
    int r = ++p->nreg[rc];
    if (r >= p->rnames_named[rc]) px_rname_block(p, rc);
    return (Slot){.kind = SLOT_REG, .rc = (uint8_t)rc, .reg = r};
}
/* Register name; s must be a plain register (made by px_reg, or %r0 of its
 * class). Names are made once per register and shared by every use: the
 * lookup is one load, as every operand of every line asks for one. */
static inline const char *px_rname(Px *p, Slot s) { return p->rnames[s.rc][s.reg]; }
/* Its length, kept in the name's cell (see px_rname_block). */
static inline size_t px_rname_len(Px *p, Slot s) { return (unsigned char)px_rname(p, s)[15]; }
/* Writes s's name (its offset ignored): the cell's 16 bytes, the length
 * on (what follows overwrites the rest; px_w_begin's room counts
 * PX_W_NAME a name). */
static inline char *px_w_name(Px *p, char *w, Slot s) {
    const char *name = p->rnames[s.rc][s.reg];
    memcpy(w, name, 16);
    return w + (unsigned char)name[15];
}
/* `r`, or `{r0, r1, ...}` when n > 1 (plain registers). */
static inline char *px_w_regs(Px *p, char *w, const Slot *r, int n) {
    if (n > 1) *w++ = '{';
    for (int k = 0; k < n; k++) {
        if (k) *w++ = ',', *w++ = ' ';
        w = px_w_name(p, w, r[k]);
    }
    if (n > 1) *w++ = '}';
    return w;
}
/* The register class of an element type (asked slot after slot: inline). */
static inline RegClass px_rc(const Type *e) {
    switch (e->kind) {
    case TY_INT:
        if (e->width == 1) return RC_PRED;
        return e->width > 32 ? RC_B64 : RC_B32;
    case TY_INDEX:
    case TY_PTR:
        return RC_B64;
    case TY_FLOAT:
        if (e->width == 64) return RC_F64;
        if (e->width == 32) return RC_F32;
        return RC_B16;
    default:
        return RC_B32;
    }
}
/* Storage bits (i1: 8). */
static inline int px_bits(const Type *e) {
    if (e->kind == TY_PTR || e->kind == TY_INDEX) return 64;
    return e->width < 8 ? 8 : e->width;
}
static inline Slot px_imm_int(int64_t v, RegClass rc) { return (Slot){.kind = SLOT_IMM, .rc = (uint8_t)rc, .off = v}; }
static inline Slot px_imm_float(double v, RegClass rc) { return (Slot){.kind = SLOT_IMM, .rc = (uint8_t)rc, .f = v}; }
/* A plain register holding s (inline for the usual plain register: every
 * operand of every instruction comes through here). */
Slot px_mat_make(Px *p, Slot s, const Type *elem);
static inline Slot px_mat(Px *p, Slot s, const Type *elem) {
    return s.kind == SLOT_REG && s.off == 0 ? s : px_mat_make(p, s, elem);
}
/* Operand text: a register (materialising reg+off) or an immediate. */
const char *px_opnd_make(Px *p, Slot s, const Type *elem);
static inline const char *px_opnd(Px *p, Slot s, const Type *elem) {
    return s.kind == SLOT_REG && s.off == 0 ? px_rname(p, s) : px_opnd_make(p, s, elem);
}
/* A text's operand (a register's name given as a text is recognised). */
PxArg px_arg_text(Px *p, const char *s);
/* A plain register (a class's PX_REG_MAX-th register and those after it
 * are keyed by their names). */
static inline PxArg px_arg_reg(Px *p, Slot s) {
    if (s.reg < PX_REG_MAX) return PX_REG_ID | (uint32_t)s.rc << 24 | (uint32_t)s.reg;
    return px_arg_text(p, px_rname(p, s));
}
/* px_opnd's operand as a PxArg: a register (materialising reg+off) or an
 * immediate. */
PxArg px_arg_make(Px *p, Slot s, const Type *elem);
static inline PxArg px_arg(Px *p, Slot s, const Type *elem) {
    return s.kind == SLOT_REG && s.off == 0 ? px_arg_reg(p, s) : px_arg_make(p, s, elem);
}
/* An integer immediate's operand (its decimal text); a small one's id is
 * kept in a table (shifts, scales and masks: asked slot after slot). */
PxArg px_arg_int_make(Px *p, int64_t v);
static inline PxArg px_arg_int(Px *p, int64_t v) {
    PxArg id = (uint64_t)v < TC_ARRAY_LEN(p->small_int) ? p->small_int[v] : 0;
    return id ? id : px_arg_int_make(p, v);
}
/* An operand's text. */
const char *px_arg_str(Px *p, PxArg a);
/* Emits `opcode dst, a[, b[, c]]` once per scope (0: no operand, from the
 * first); returns dst. The opcode is a literal or an interned text (as
 * opc_join gives): its text never changes, so it is keyed by its pointer. */
Slot px_cse1(Px *p, RegClass rc, const char *opcode, PxArg a);
Slot px_cse2(Px *p, RegClass rc, const char *opcode, PxArg a, PxArg b);
Slot px_cse3(Px *p, RegClass rc, const char *opcode, PxArg a, PxArg b, PxArg c);
/* The same with the operands as texts (NULL ends them). */
Slot px_cse(Px *p, RegClass rc, const char *opcode, const char *a, const char *b, const char *c);
/* `mov.b32 dst, {lo, hi}` (two 16-bit registers packed) once per scope. */
Slot px_pack2(Px *p, Slot lo, Slot hi);
int px_label(Px *p);
/* A tile of n slots, SLOT_NONE: one allocation, the slots after the Tile,
 * from a block of the arena (zeroed) cut by the emitter: one per result of
 * every op, and the arena's call costs more than the cut. */
Tile *px_new_tile_block(Px *p, int n);
static inline Tile *px_new_tile(Px *p, int n) {
    size_t size = sizeof(Tile) + (size_t)(n > 0 ? n : 1) * sizeof(Slot);
    if ((size_t)(p->tile_end - p->tile_next) < size) return px_new_tile_block(p, n);
    Tile *t = (Tile *)p->tile_next;
    p->tile_next += size;
    t->n = n;
    t->s = (Slot *)(t + 1);
    return t;
}
bool px_dist(Px *p, const Type *t, Dist *d);
/* The same, without the copy (NULL when t has no layout): computed once
 * per (interned) type; every op asks for its operands', mostly the same
 * few types in a row (a direct-mapped memo in front of the map). */
const Dist *px_dist_make(Px *p, const Type *t);
/* The memo's entry for t (the high bits of a product: types are made
 * apart by multiples of their size, and their low address bits collide). */
static inline unsigned px_dist_memo_at(const Type *t) { return (unsigned)(((uintptr_t)t * 0x9e3779b97f4a7c15ULL) >> 57); }
static inline const Dist *px_dist_of(Px *p, const Type *t) {
    unsigned h = px_dist_memo_at(t);
    return p->dist_memo[h].t == t ? p->dist_memo[h].d : px_dist_make(p, t);
}
/* thread_part(dim) of a Dist, as a register (prologue). */
Slot px_thread_part(Px *p, const Dist *d, int dim);
/* A predicate true in the one thread that owns each element (duplicates of
 * a layout off); NONE when every thread owns its elements. */
Slot px_owner_pred(Px *p, const Dist *d);
Slot px_scalar_owner_pred(Px *p);
/* Element-wise op on one slot of each operand. */
Slot px_ew(Px *p, Op *op, Slot *in, const Type *res_elem);
/* The same, by op's plan when it has one (made at its first slot and
 * kept: for an op asked slot after slot). */
Slot px_ew_planned(Px *p, Op *op, Slot *in, const Type *res_elem);
Slot px_cast(Px *p, Slot x, const Type *from, const Type *to, bool is_signed_int, int rounding);
/* ptx_libm.c: libdevice's fp32 sin, cos, log, log2, tanh or erf of a
 * register x (f32), as Triton links them */
Slot px_libm(Px *p, OpKind k, Slot x);
void px_barrier(Px *p);
/* `$L__BBn:` */
void px_label_at(Px *p, int label);
/* `@pred bra $L__BBn` (`@!pred` when negate), `bra.uni $L__BBn` when pred
 * is not a register. */
void px_bra(Px *p, Slot pred, bool negate, int label);
/* A block of ops; Tile results bound. */
void px_lower_block(Px *p, Block *b);
void px_scope_push(Px *p);
void px_scope_pop(Px *p);
/* Linear index (element units) of a slot's coordinate, row-major over the
 * tile's shape: a register plus a constant in `off`. The register is the
 * same for every slot of a Dist, and both parts are kept (p->linears: a
 * layout conversion asks for its two sides' in turn, and the loop body's
 * conversions for the same few). */
Slot px_linear_index(Px *p, const Dist *d, int slot, const int64_t *strides);
/* The same for every slot at once: slot i's is *base (the register, as
 * px_linear_index's first call makes it) plus the constant off[i] of the
 * array returned (the kernel's: read only). */
const int64_t *px_linear_indices(Px *p, const Dist *d, const int64_t *strides, Slot *base);
/* The same through *kept (NULL: not kept): the table's entry for d and
 * strides, looked up at the first call and kept by the caller for the next
 * (a layout conversion's two sides, asked again at every conversion between
 * the same two types: the lookup compares whole Dists). */
const int64_t *px_linear_indices_kept(Px *p, const Dist *d, const int64_t *strides, struct PxLinear **kept,
                                      Slot *base);
/* Slot i's index from px_linear_indices' answer. */
static inline Slot px_linear_at(Slot base, const int64_t *off, int i) {
    base.off += off[i];
    return base;
}

/* The ops lower_elementwise lowers, slot i of the result from slot i of
 * each operand (ops with their own lowering have no OPF_ELEMENTWISE). */
static inline bool px_is_slotwise(const Op *op) { return op_has_flag(op, OPF_ELEMENTWISE); }

/* The source slot of each of the dr->nslots slots of a tt.broadcast or
 * tt.expand_dims result (di: the source's Dist). */
void px_broadcast_src(const Op *op, const Dist *dr, const Dist *di, int *src);
/* The same, made once per op (asked by the demand analysis and then the
 * lowering), in the arena. */
const int *px_broadcast_src_of(Px *p, Op *op, const Dist *dr, const Dist *di);

/* The entry of v (made before the emitter ran, as every value is: one
 * past the table's end grows it). */
PxValue *px_value_grow(Px *p, const Value *v);
static inline PxValue *px_value(Px *p, const Value *v) {
    return v->id < p->nvalues ? &p->values[v->id] : px_value_grow(p, v);
}
static inline void px_bind(Px *p, Value *v, Tile *t) { px_value(p, v)->tile = t; }
/* v's tile (zeros and a failure when v was not lowered yet). */
Tile *px_tile_missing(Px *p, Value *v);
static inline Tile *px_tile(Px *p, Value *v) {
    Tile *t = px_value(p, v)->tile;
    return t ? t : px_tile_missing(p, v);
}

/* The kernel's axis analysis, made at its first question: a kernel of one
 * element per thread asks none (its accesses are of one element), and the
 * analysis is a walk over all of it. */
static inline AxisAnalysis *px_axis(Px *p) {
    if (!p->aa) p->aa = axis_analysis_get(p->ctx, p->func);
    return p->aa;
}

/* ptx_demand.c: fills the values' demand */
void px_demand_analyze(Px *p, Op *func);
/* px_demand's first question of a value of two slots or more runs the
 * analysis (a tile of one slot has no demand: a kernel of one element per
 * thread needs no walk). */
void px_demand_first(Px *p, const Value *v);
/* The slots of v that are read, a bit each; NULL when all are. */
static inline const uint64_t *px_demand(Px *p, const Value *v) {
    if (!p->demand_done) px_demand_first(p, v);
    const Bits *b = px_value(p, v)->demand;
    return b && !b->full ? b->w : NULL;
}
static inline bool px_demanded(const uint64_t *bits, int slot) {
    return !bits || (bits[slot / 64] >> (slot % 64) & 1);
}

/* ptx_memory.c */
/* Elements per access of a tile access through ptr (with mask), in the
 * layout d of ptr, of elements e. */
int px_access_vec(Px *p, Value *ptr, Value *mask, const Dist *d, const Type *e);
void px_lower_load(Px *p, Op *op);
void px_lower_store(Px *p, Op *op);
void px_lower_atomic(Px *p, Op *op);

/* ptx_shared.c */
void px_lower_reduce(Px *p, Op *op);
void px_lower_scan(Px *p, Op *op);
void px_lower_convert(Px *p, Op *op);
void px_lower_shape(Px *p, Op *op); /* reshape, trans, join, split, cat */
void px_lower_gather(Px *p, Op *op);
void px_lower_histogram(Px *p, Op *op);
void px_lower_dot(Px *p, Op *op);
/* Claims `bytes` of shared memory from offset 0 for the next user (a
 * barrier first when an earlier user, or this one's previous iteration,
 * may still read it). */
void px_smem_begin(Px *p, int64_t bytes);
/* `[global_smem + index * esize + extra]` for an index `reg + off`. */
const char *px_smem_addr(Px *p, Slot index, int esize, int64_t extra);
/* The same as a register and a constant (in *off). */
Slot px_smem_at(Px *p, Slot index, int esize, int64_t extra, int64_t *off);
/* A dot's accumulator registers, holding C converted to acc_t: C's own
 * registers when a loop-carried C is used only by this dot (`acc =
 * tl.dot(a, b, acc)`), those of the loop-carried value the result becomes
 * (`acc = tl.dot(p, v, acc * alpha)`, see mma_carried_acc), else fresh
 * copies. */
Tile *px_dot_acc(Px *p, Op *dot, const Type *acc_t, int nslots);

/* ptx_mma.c: false when the dot is not one for mma.sync (nothing emitted) */
bool px_lower_dot_mma(Px *p, Op *op);
/* ptx_mma.c: the ttg ops of the cp.async rings (ttg.local_alloc, ...) */
void px_lower_async(Px *p, Op *op);
/* Tile x (layout of type `from`) re-laid out as type `to`, through shared
 * memory when the threads differ. */
Tile *px_relayout(Px *p, Tile *x, const Type *from, const Type *to);

#endif
