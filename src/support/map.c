/*
 * map.c - hashing, the uint64 -> pointer hash map, string interning.
 *
 * The map uses open addressing with linear probing and a load factor of at
 * most 1/2; key 0 marks an empty slot (callers key by pointers or by hashes
 * forced non-zero). The interner is a chained table of arena-owned strings.
 */
#include "support.h"

#include <string.h>

/* Reads n (1..8) bytes as one little word: the first and last 4 (or 2, or
 * 1) bytes overlap for odd sizes, which covers every byte without a loop. */
static uint64_t read_tail(const unsigned char *b, size_t n) {
    uint32_t lo, hi;
    if (n >= 4) {
        memcpy(&lo, b, 4);
        memcpy(&hi, b + n - 4, 4);
        return (uint64_t)hi << 32 | lo;
    }
    return (uint64_t)b[0] << 16 | (uint64_t)b[n / 2] << 8 | b[n - 1];
}

uint64_t hash_bytes(const void *p, size_t n, uint64_t seed) {
    /* Eight bytes per multiply (names are short, source texts are long),
     * the length folded in so that the overlapping tail reads stay exact,
     * finished with the 64-bit mixer. */
    const unsigned char *b = p;
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    uint64_t h = (seed ^ 0xcbf29ce484222325ULL) + n * k;
    for (; n > 8; n -= 8, b += 8) {
        uint64_t w;
        memcpy(&w, b, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    if (n) h = (h ^ read_tail(b, n)) * k;
    return hash_u64(h);
}

static int map_slot(const Map *m, uint64_t key) {
    int mask = m->cap - 1;
    int i = map_home(m, key);
    while (m->slots[i].key && m->slots[i].key != key) i = (i + 1) & mask;
    return i;
}

bool map_has(const Map *m, uint64_t key) {
    if (!m->cap || !key) return false;
    return m->slots[map_slot(m, key)].key == key;
}

static void map_rehash(Map *m, int ncap) {
    Map n = {tc_calloc((size_t)ncap, sizeof(MapSlot)), ncap, 0};
    for (int i = 0; i < m->cap; i++)
        if (m->slots[i].key) {
            int j = map_slot(&n, m->slots[i].key);
            n.slots[j] = m->slots[i];
            n.len++;
        }
    tc_free(m->slots);
    *m = n;
}

void map_put(Map *m, uint64_t key, void *val) {
    if (!key) return;
    if (2 * (m->len + 1) > m->cap) map_rehash(m, m->cap ? m->cap * 2 : 16);
    int i = map_slot(m, key);
    if (!m->slots[i].key) {
        m->slots[i].key = key;
        m->len++;
    }
    m->slots[i].val = val;
}

void map_reserve(Map *m, int n) {
    int cap = 16;
    while (cap < 2 * n) cap *= 2;
    if (m->len == 0 && cap > m->cap) map_rehash(m, cap);
}

void map_free(Map *m) {
    tc_free(m->slots);
    memset(m, 0, sizeof *m);
}

/* ---- interning -------------------------------------------------------- */

typedef struct InternEntry {
    struct InternEntry *next;
    uint64_t hash;
    size_t len;
    const char *str; /* text, or the fixed set's copy */
    char text[];
} InternEntry;

void intern_fixed_init(InternFixed *f, const char *const *strs, int n) {
    memset(f, 0, sizeof *f);
    f->strs = strs;
    f->n = n < INTERN_FIXED_MAX ? n : INTERN_FIXED_MAX;
    for (int i = 0; i < f->n; i++) {
        f->lens[i] = strlen(strs[i]);
        f->hashes[i] = hash_bytes(strs[i], f->lens[i], 0);
        size_t j = f->hashes[i] & (2 * INTERN_FIXED_MAX - 1);
        while (f->slots[j]) j = (j + 1) & (2 * INTERN_FIXED_MAX - 1);
        f->slots[j] = (uint8_t)(i + 1);
    }
}

static const char *fixed_find(const InternFixed *f, const char *s, size_t n, uint64_t h) {
    for (size_t j = h & (2 * INTERN_FIXED_MAX - 1); f->slots[j]; j = (j + 1) & (2 * INTERN_FIXED_MAX - 1)) {
        int i = f->slots[j] - 1;
        if (f->hashes[i] == h && f->lens[i] == n && memcmp(f->strs[i], s, n) == 0) return f->strs[i];
    }
    return NULL;
}

void interner_init(Interner *in, Arena *arena) {
    memset(in, 0, sizeof *in);
    in->arena = arena;
}

void interner_free(Interner *in) {
    tc_free(in->buckets);
    memset(in, 0, sizeof *in);
}

static void intern_grow(Interner *in) {
    int nb = in->nbuckets ? in->nbuckets * 2 : 256;
    InternEntry **b = tc_calloc((size_t)nb, sizeof *b);
    for (int i = 0; i < in->nbuckets; i++)
        for (InternEntry *e = in->buckets[i], *n; e; e = n) {
            n = e->next;
            int j = (int)(e->hash & (uint64_t)(nb - 1));
            e->next = b[j];
            b[j] = e;
        }
    tc_free(in->buckets);
    in->buckets = b;
    in->nbuckets = nb;
}

const char *intern_n(Interner *in, const char *s, size_t n) {
    if (in->len >= in->nbuckets) intern_grow(in);
    uint64_t h = hash_bytes(s, n, 0);
    int j = (int)(h & (uint64_t)(in->nbuckets - 1));
    for (InternEntry *e = in->buckets[j]; e; e = e->next)
        if (e->hash == h && e->len == n && memcmp(e->str, s, n) == 0) return e->str;
    const char *fixed = in->fixed ? fixed_find(in->fixed, s, n, h) : NULL;
    InternEntry *e = arena_alloc(in->arena, sizeof(InternEntry) + (fixed ? 0 : n + 1));
    e->hash = h;
    e->len = n;
    if (fixed) {
        e->str = fixed;
    } else {
        memcpy(e->text, s, n);
        e->text[n] = 0;
        e->str = e->text;
    }
    e->next = in->buckets[j];
    in->buckets[j] = e;
    in->len++;
    return e->str;
}

const char *intern(Interner *in, const char *s) { return intern_n(in, s, strlen(s)); }
