/*
 * support.h - the small generic library every part of tritonc stands on.
 *
 * Memory policy (one rule for the whole compiler):
 *   - every heap allocation goes through tc_realloc(), which calls the
 *     replaceable allocator hook (tc_set_allocator);
 *   - compile-time objects (IR, AST, interned strings, diagnostics text) live
 *     in an Arena owned by one compilation and are freed in one call (a few
 *     freed chunks are kept for the next arena, see alloc.c);
 *   - growable arrays (Vec) and hash maps (Map) own heap memory and are freed
 *     explicitly, or allocate from an arena when given one.
 * Library code never calls exit(): errors travel back through a DiagEngine.
 */
#ifndef TC_SUPPORT_H
#define TC_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define TC_UNUSED __attribute__((unused))
#else
#define TC_PRINTF(a, b)
#define TC_UNUSED
#endif

#define TC_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* For the few hot paths whose calls cost more than their bodies (the
 * compiler's own choice is the default everywhere else). */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOT_INLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE inline
#define NOT_INLINE
#endif

/* ---- allocation ------------------------------------------------------ */

/* realloc-like hook: ptr == NULL allocates, size == 0 frees. Must not
 * return NULL for size > 0 (the default hook aborts on exhaustion). */
typedef void *(*TcAllocFn)(void *ptr, size_t size, void *ud);
void tc_set_allocator(TcAllocFn fn, void *ud);
void *tc_realloc(void *ptr, size_t size);
void *tc_malloc(size_t size);
void *tc_calloc(size_t n, size_t size);
void tc_free(void *ptr);
char *tc_strdup(const char *s);

/* ---- arena ----------------------------------------------------------- */

typedef struct Arena Arena;
/* An arena hands out memory from two rooms: `zeroed`, memory that reads as
 * zero (most objects leave fields at 0), and `raw`, memory not cleared
 * first, for objects their maker writes whole (ops, copies, strings: half
 * of a compile's arena; clearing it was a pass over cold memory). (The free
 * room of each current chunk is here so that the usual allocation, a bump
 * of `cur`, is inline: the IR makes thousands per compile. The rest is
 * alloc.c's.) */
typedef struct ArenaRoom {
    unsigned char *cur, *end; /* the current chunk's free room */
    struct ArenaChunk *head;  /* the room's chunks, the current one first */
} ArenaRoom;
struct Arena {
    ArenaRoom zeroed, raw;
    size_t reserved;
};
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc_slow(Arena *a, size_t size);     /* a new chunk (size rounded up to 16) */
void *arena_alloc_raw_slow(Arena *a, size_t size); /* likewise, for arena_alloc_raw */
/* zeroed, 16-byte aligned */
static inline void *arena_alloc(Arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if ((size_t)(a->zeroed.end - a->zeroed.cur) < size) return arena_alloc_slow(a, size);
    void *p = a->zeroed.cur;
    a->zeroed.cur += size;
    return p;
}
/* 16-byte aligned, its contents undefined: the caller writes every byte
 * it will read */
static inline void *arena_alloc_raw(Arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    if ((size_t)(a->raw.end - a->raw.cur) < size) return arena_alloc_raw_slow(a, size);
    void *p = a->raw.cur;
    a->raw.cur += size;
    return p;
}
void *arena_dup(Arena *a, const void *p, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) TC_PRINTF(2, 3);
size_t arena_bytes(const Arena *a); /* bytes reserved from the allocator */

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* ---- growable arrays ------------------------------------------------- */

/* A Vec is a struct { T *data; int len, cap; } declared with VEC(T).
 * Heap-backed; free with vec_free. */
#define VEC(T)                                                                 \
    struct {                                                                   \
        T *data;                                                               \
        int len, cap;                                                          \
    }
void vec_grow_(void **data, int *cap, int need, size_t elem);
/* The capacity test is inline: pushes are frequent, growth is rare. */
#define vec_push(v, x)                                                         \
    ((v)->len < (v)->cap ? (void)0                                             \
                         : vec_grow_((void **)&(v)->data, &(v)->cap,           \
                                     (v)->len + 1, sizeof(*(v)->data)),        \
     (v)->data[(v)->len++] = (x))
#define vec_reserve(v, n)                                                      \
    vec_grow_((void **)&(v)->data, &(v)->cap, (n), sizeof(*(v)->data))
#define vec_pop(v) ((v)->data[--(v)->len])
#define vec_last(v) ((v)->data[(v)->len - 1])
#define vec_free(v) (tc_free((v)->data), (v)->data = NULL, (v)->len = (v)->cap = 0)
#define vec_clear(v) ((v)->len = 0)

/* ---- string buffer --------------------------------------------------- */

typedef struct StrBuf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t len, cap;
} StrBuf;
/* Makes room for `extra` more bytes and the NUL (the slow path of the
 * appends below, which are inline: the IR printer appends a few bytes at a
 * time, millions of times). */
void sb_reserve(StrBuf *sb, size_t extra);
static inline void sb_putn(StrBuf *sb, const char *s, size_t n) {
    if (sb->len + n + 1 > sb->cap) sb_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}
static inline void sb_putc(StrBuf *sb, char c) {
    if (sb->len + 2 > sb->cap) sb_reserve(sb, 1);
    sb->data[sb->len++] = c;
    sb->data[sb->len] = 0;
}
static inline void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }
/* Decimal integers without printf (the printer writes many). */
void sb_put_int(StrBuf *sb, int64_t v);
void sb_put_uint(StrBuf *sb, uint64_t v);
/* Writes v in decimal to buf (>= 21 bytes), unterminated; returns the length. */
int fmt_uint(char *buf, uint64_t v);
/* vsnprintf, with a fast path for plain %d %i %u %x %X %c %s %% (length
 * modifiers l, ll, z; no flags, width or precision); format.c. */
int tc_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int tc_snprintf(char *buf, size_t cap, const char *fmt, ...) TC_PRINTF(3, 4);
void sb_printf(StrBuf *sb, const char *fmt, ...) TC_PRINTF(2, 3);
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
const char *sb_cstr(StrBuf *sb); /* "" when empty */
char *sb_take(StrBuf *sb);       /* heap string the caller frees; resets sb */
void sb_free(StrBuf *sb);

/* ---- hashing --------------------------------------------------------- */

uint64_t hash_bytes(const void *p, size_t n, uint64_t seed);
static inline uint64_t hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}
static inline uint64_t hash_combine(uint64_t h, uint64_t v) {
    return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* ---- hash map: uint64 key -> void* ----------------------------------- */

/* Open addressing, linear probing. Keys are any uint64 (pointers, interned
 * string addresses, hashes); key 0 is reserved as "empty". A key and its
 * value sit side by side (one cache line per probe); lookups are inline:
 * the passes make millions. Slot order: walk slots[0..cap) for keys != 0. */
typedef struct MapSlot {
    uint64_t key;
    void *val;
} MapSlot;
typedef struct Map {
    MapSlot *slots;
    int cap, len;
} Map;
/* A key's first slot: the top log2(cap) bits of key times 2^64/phi
 * (Fibonacci hashing: a multiply spreads pointers and hashes alike, where
 * a full mix cost twice as much per lookup). */
static inline int map_home(const Map *m, uint64_t key) {
#if defined(__GNUC__)
    int bits = __builtin_ctz((unsigned)m->cap);
#else
    int bits = 0;
    while ((1 << bits) < m->cap) bits++;
#endif
    return (int)((key * 0x9e3779b97f4a7c15ULL) >> (63 - bits) >> 1);
}
static inline void *map_get(const Map *m, uint64_t key) {
    if (!m->cap || !key) return NULL;
    int mask = m->cap - 1;
    for (int i = map_home(m, key);; i = (i + 1) & mask) {
        if (m->slots[i].key == key) return m->slots[i].val;
        if (!m->slots[i].key) return NULL;
    }
}
bool map_has(const Map *m, uint64_t key);
void map_put(Map *m, uint64_t key, void *val);
/* Room for n keys without growing (an empty map only: a known size spares
 * the rehashes of doubling from 16). */
void map_reserve(Map *m, int n);
void map_free(Map *m);
#define MAP_KEY(p) ((uint64_t)(uintptr_t)(p))

/* ---- string interning ------------------------------------------------ */

/* Interned strings are unique per Interner: equal strings, equal pointers. */
typedef struct InternFixed InternFixed;
typedef struct Interner {
    Arena *arena;
    struct InternEntry **buckets;
    int nbuckets, len;
    /* strings handed out as they are rather than copied, or NULL (set
     * after interner_init, before the first intern) */
    const InternFixed *fixed;
} Interner;
/* A set of strings with one copy for the whole process, which interners
 * that are given it hand out for those strings: the IR's well-known
 * attribute names (ir.h), found on an op by address. Filled once by
 * intern_fixed_init; the strings must live as long as the process. */
enum { INTERN_FIXED_MAX = 128 };
struct InternFixed {
    const char *const *strs;
    int n;
    uint64_t hashes[INTERN_FIXED_MAX];
    size_t lens[INTERN_FIXED_MAX];
    uint8_t slots[2 * INTERN_FIXED_MAX]; /* open addressing over index + 1 */
};
void intern_fixed_init(InternFixed *f, const char *const *strs, int n);
void interner_init(Interner *in, Arena *arena);
void interner_free(Interner *in);
const char *intern(Interner *in, const char *s);
const char *intern_n(Interner *in, const char *s, size_t n);

/* ---- files ----------------------------------------------------------- */

/* Reads a whole file into a heap buffer (NUL-terminated); NULL on failure. */
char *read_file(const char *path, size_t *len_out);
/* Writes atomically: a temporary file in the same folder (unique to the
 * process and call, so threads may race on one path), then rename. */
bool write_file_atomic(const char *path, const void *data, size_t len);
/* Creates a folder and its missing parents (`mkdir -p`). */
bool make_dirs(const char *path);

/* ---- diagnostics ----------------------------------------------------- */

typedef struct Loc {
    const char *file; /* interned or static; NULL = unknown */
    int line, col;    /* 1-based; 0 = unknown */
} Loc;

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct Diag {
    DiagLevel level;
    Loc loc;
    int span;  /* width of the caret underline, >= 1 */
    char *msg; /* arena-owned */
} Diag;

typedef struct SourceText {
    const char *name;
    const char *text;
    size_t len;
} SourceText;

/* Collects diagnostics for one run. Sources registered with
 * diag_add_source are used to print the offending line and a caret. */
typedef struct DiagEngine {
    Arena *arena;
    VEC(Diag) diags;
    VEC(SourceText) sources;
    int nerrors, nwarnings;
    int max_errors; /* stop collecting after this many errors (0 = 50) */
} DiagEngine;

void diag_init(DiagEngine *de);
void diag_free(DiagEngine *de);
/* The engine's arena for message text (made on first use). */
Arena *diag_arena(DiagEngine *de);
void diag_add_source(DiagEngine *de, const char *name, const char *text, size_t len);
void diag_report(DiagEngine *de, DiagLevel lvl, Loc loc, int span, const char *fmt, ...)
    TC_PRINTF(5, 6);
void diag_vreport(DiagEngine *de, DiagLevel lvl, Loc loc, int span, const char *fmt, va_list ap);
#define diag_error(de, loc, ...) diag_report((de), DIAG_ERROR, (loc), 1, __VA_ARGS__)
#define diag_warning(de, loc, ...) diag_report((de), DIAG_WARNING, (loc), 1, __VA_ARGS__)
#define diag_note(de, loc, ...) diag_report((de), DIAG_NOTE, (loc), 1, __VA_ARGS__)
static inline bool diag_has_errors(const DiagEngine *de) { return de->nerrors > 0; }
static inline bool diag_full(const DiagEngine *de) {
    return de->nerrors >= (de->max_errors ? de->max_errors : 50);
}
/* Renders every diagnostic in GCC/Clang form:
 *   file:line:col: error: message
 *    12 |     x = tl.load(p)
 *       |         ^~~~~~~
 */
void diag_render(const DiagEngine *de, StrBuf *out, bool color);
/* Renders one diagnostic (same format). */
void diag_render_one(const DiagEngine *de, const Diag *d, StrBuf *out, bool color);

/* ---- misc ------------------------------------------------------------ */

double now_seconds(void); /* monotonic clock */

/* TRITONC_TRACE=1: marks on the first call's path, printed at exit (trace.c) */
bool tc_trace_on(void);
void tc_trace_mark(const char *what);
#define TC_TRACE(what) \
    do { \
        if (__builtin_expect(tc_trace_on(), 0)) tc_trace_mark(what); \
    } while (0)
size_t peak_rss_bytes(void);

#endif
