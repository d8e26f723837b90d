/*
 * alloc.c - the one allocator hook, arenas, growable arrays, string buffers.
 *
 * An arena is two lists of chunks, its rooms (support.h): allocation bumps
 * a pointer, freeing releases every chunk at once. Large requests get a
 * chunk of their own so a 1 MB tensor constant does not waste the rest of a
 * small chunk. Freed chunks of the standard size are kept (a few,
 * process-wide) for the next arena: a JIT compiles kernel after kernel, and
 * faulting fresh zeroed pages in from the OS for every compilation cost
 * about a tenth of a PTX compile. A kept chunk is cleared (as far as it was
 * written) when the zeroed room takes it, not when the raw room does.
 */
#include "support.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ptr, size_t size, void *ud) {
    (void)ud;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, size);
    if (!p) {
        fputs("tritonc: out of memory\n", stderr);
        abort();
    }
    return p;
}

static TcAllocFn g_alloc = default_alloc;
static void *g_alloc_ud;

static void chunk_cache_flush(void);

void tc_set_allocator(TcAllocFn fn, void *ud) {
    chunk_cache_flush(); /* its chunks came from the old allocator */
    g_alloc = fn ? fn : default_alloc;
    g_alloc_ud = fn ? ud : NULL;
}

void *tc_realloc(void *ptr, size_t size) { return g_alloc(ptr, size, g_alloc_ud); }
void *tc_malloc(size_t size) { return g_alloc(NULL, size ? size : 1, g_alloc_ud); }
void *tc_calloc(size_t n, size_t size) {
    void *p = tc_malloc(n * size);
    memset(p, 0, n * size);
    return p;
}
void tc_free(void *ptr) {
    if (ptr) g_alloc(ptr, 0, g_alloc_ud);
}
char *tc_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    return memcpy(tc_malloc(n), s, n);
}

/* ---- arena ------------------------------------------------------------ */

/* `used` of a room's current chunk is kept as room->cur instead (see
 * sync_used). In a chunk, the bytes from `used` on are zero. */
typedef struct ArenaChunk {
    struct ArenaChunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} Chunk;

/* An arena's first chunk in a room is small: many arenas stay small (a
 * kernel served from the source-keyed cache keeps a few strings in its
 * Compilation's), and a fresh 64 KB chunk costs its 16 pages' faults on
 * first touch. */
enum { ARENA_CHUNK = 64 * 1024, ARENA_FIRST = 4000, CHUNK_CACHE_MAX = 32 };

/* Free standard chunks, dirty up to their `used` (the rest is still zero).
 * A spin lock: arenas are made and freed per compilation, rarely at once
 * in two threads, and the critical sections are a few instructions. */
static struct {
    atomic_flag lock;
    Chunk *head;
    int n;
} chunk_cache = {ATOMIC_FLAG_INIT, NULL, 0};

static void cache_lock(void) {
    while (atomic_flag_test_and_set_explicit(&chunk_cache.lock, memory_order_acquire)) {
    }
}
static void cache_unlock(void) { atomic_flag_clear_explicit(&chunk_cache.lock, memory_order_release); }

/* A standard chunk, from the cache or new; zeroed when `zero` (a chunk for
 * the raw room keeps its dirty bytes, and its `used` says how many). */
static Chunk *chunk_take(bool zero) {
    cache_lock();
    Chunk *c = chunk_cache.head;
    if (c) {
        chunk_cache.head = c->next;
        chunk_cache.n--;
    }
    cache_unlock();
    if (!c) {
        c = zero ? tc_calloc(1, sizeof(Chunk) + ARENA_CHUNK) : tc_malloc(sizeof(Chunk) + ARENA_CHUNK);
        c->size = ARENA_CHUNK;
        c->used = zero ? 0 : ARENA_CHUNK;
    } else if (zero) {
        memset(c->data, 0, c->used);
        c->used = 0;
    }
    c->next = NULL;
    return c;
}

/* Keeps a standard chunk for chunk_take, or frees it when the cache is full. */
static void chunk_give(Chunk *c) {
    if (c->size == ARENA_CHUNK) {
        cache_lock();
        bool keep = chunk_cache.n < CHUNK_CACHE_MAX;
        if (keep) {
            c->next = chunk_cache.head;
            chunk_cache.head = c;
            chunk_cache.n++;
        }
        cache_unlock();
        if (keep) return;
    }
    tc_free(c);
}

static void chunk_cache_flush(void) {
    cache_lock();
    Chunk *c = chunk_cache.head;
    chunk_cache.head = NULL;
    chunk_cache.n = 0;
    cache_unlock();
    for (Chunk *n; c; c = n) {
        n = c->next;
        tc_free(c);
    }
}

Arena *arena_new(void) {
    /* (room for nothing until the first chunk: a 0-byte request still
     * gets a pointer that is not NULL) */
    static _Alignas(16) unsigned char none[16];
    Arena *a = tc_calloc(1, sizeof(Arena));
    a->zeroed.cur = a->zeroed.end = a->raw.cur = a->raw.end = none;
    return a;
}

/* Writes the bump pointer of r's current chunk back to its `used` (a raw
 * chunk may be dirty further on, from an arena before). */
static void sync_used(ArenaRoom *r) {
    if (!r->head) return;
    size_t used = (size_t)(r->cur - r->head->data);
    if (used > r->head->used) r->head->used = used;
}

static void room_free(ArenaRoom *r) {
    sync_used(r);
    for (Chunk *c = r->head, *n; c; c = n) {
        n = c->next;
        chunk_give(c);
    }
}

void arena_free(Arena *a) {
    if (!a) return;
    room_free(&a->zeroed);
    room_free(&a->raw);
    tc_free(a);
}

/* Takes the next chunk of room r for `size` bytes (rounded up to 16),
 * zeroed when `zero`. */
static void *room_alloc_slow(Arena *a, ArenaRoom *r, size_t size, bool zero) {
    Chunk *c = r->head;
    sync_used(r);
    size_t cap = size > ARENA_CHUNK / 4 ? size : !c && size <= ARENA_FIRST ? ARENA_FIRST : ARENA_CHUNK;
    Chunk *n;
    if (cap == ARENA_CHUNK) {
        n = chunk_take(zero);
    } else {
        n = zero ? tc_calloc(1, sizeof(Chunk) + cap) : tc_malloc(sizeof(Chunk) + cap);
        n->size = cap;
        n->used = zero ? 0 : cap;
    }
    a->reserved += sizeof(Chunk) + cap;
    if (c && size > ARENA_CHUNK / 4) {
        /* big block: keep the current chunk at the head for small ones */
        n->next = c->next;
        c->next = n;
        n->used = size > n->used ? size : n->used;
        return n->data;
    }
    n->next = c;
    r->head = n;
    r->cur = n->data + size;
    r->end = n->data + n->size;
    return n->data;
}

/* Chunks of the zeroed room are zero past `used` and memory is never
 * handed out twice, so an allocation is zero without a memset of its own
 * (the IR makes millions of small ones). arena_alloc (support.h) bumps
 * `cur` through the current chunk; this takes the next one. */
void *arena_alloc_slow(Arena *a, size_t size) { return room_alloc_slow(a, &a->zeroed, size, true); }

void *arena_alloc_raw_slow(Arena *a, size_t size) { return room_alloc_slow(a, &a->raw, size, false); }

void *arena_dup(Arena *a, const void *p, size_t size) {
    void *q = arena_alloc_raw(a, size);
    if (size) memcpy(q, p, size);
    return q;
}
char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *q = arena_alloc_raw(a, n + 1);
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}
char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    /* one pass into a small buffer for the usual short string */
    char small[128];
    int n = tc_vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    char *s;
    if (n < (int)sizeof small) {
        s = arena_dup(a, small, (size_t)n + 1);
    } else {
        s = arena_alloc_raw(a, (size_t)n + 1);
        tc_vsnprintf(s, (size_t)n + 1, fmt, ap2);
    }
    va_end(ap2);
    return s;
}

size_t arena_bytes(const Arena *a) { return a->reserved; }

/* ---- vectors ---------------------------------------------------------- */

void vec_grow_(void **data, int *cap, int need, size_t elem) {
    if (need <= *cap) return;
    int ncap = *cap ? *cap * 2 : 8;
    while (ncap < need) ncap *= 2;
    *data = tc_realloc(*data, (size_t)ncap * elem);
    *cap = ncap;
}

/* ---- string buffers --------------------------------------------------- */

void sb_reserve(StrBuf *sb, size_t extra) {
    if (sb->len + extra + 1 <= sb->cap) return;
    size_t ncap = sb->cap ? sb->cap * 2 : 256;
    while (ncap < sb->len + extra + 1) ncap *= 2;
    sb->data = tc_realloc(sb->data, ncap);
    sb->cap = ncap;
}

/* Two digits per division, written from the end (IR printing and PTX
 * register names write millions of small numbers). */
int fmt_uint(char *buf, uint64_t v) {
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    /* the digit count by comparisons for the usual small numbers */
    int n = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : 6;
    for (uint64_t t = v / 1000000; t; t /= 10) n++;
    char *w = buf + n;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--w = pairs[d + 1];
        *--w = pairs[d];
    }
    if (v >= 10) {
        *--w = pairs[v * 2 + 1];
        *--w = pairs[v * 2];
    } else {
        *--w = (char)('0' + v);
    }
    return n;
}

void sb_put_uint(StrBuf *sb, uint64_t v) {
    char buf[20];
    sb_putn(sb, buf, (size_t)fmt_uint(buf, v));
}

void sb_put_int(StrBuf *sb, int64_t v) {
    if (v < 0) sb_putc(sb, '-');
    /* 0 - (uint64_t)v is |v| also for INT64_MIN */
    sb_put_uint(sb, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

/* Formats straight into the buffer; a second pass only when the text did
 * not fit in the room there was. */
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    sb_reserve(sb, 128);
    size_t room = sb->cap - sb->len;
    int n = tc_vsnprintf(sb->data + sb->len, room, fmt, ap);
    if (n < 0) n = 0; /* an encoding error: nothing appended */
    if ((size_t)n >= room) {
        sb_reserve(sb, (size_t)n);
        tc_vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
    }
    sb->len += (size_t)n;
    sb->data[sb->len] = 0;
    va_end(ap2);
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *sb_cstr(StrBuf *sb) { return sb->data ? sb->data : ""; }

char *sb_take(StrBuf *sb) {
    char *s = sb->data ? sb->data : tc_strdup("");
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void sb_free(StrBuf *sb) {
    tc_free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}
