/*
 * test_support_arena.c - arenas hand out zeroed, aligned, disjoint memory,
 * also from chunks kept from a freed arena (src/support/alloc.c reuses
 * them): arenas are filled with garbage and freed, and the next ones must
 * still read zero; two live arenas never share memory; a changed allocator
 * hook gets the kept chunks freed through the old one first.
 */
#include "support/support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static bool all_zero(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* Fills an arena with `fill` in blocks of varied sizes (small ones share
 * chunks; 40 KB ones get chunks of their own), `bytes` in all. */
static void scribble(Arena *a, unsigned char fill, size_t bytes) {
    static const size_t sizes[] = {1, 7, 16, 100, 3000, 40000, 24, 9000};
    for (size_t done = 0, k = 0; done < bytes; k++) {
        size_t n = sizes[k % 8];
        unsigned char *p = arena_alloc(a, n);
        CHECK(((uintptr_t)p & 15) == 0);
        CHECK(all_zero(p, n));
        memset(p, fill, n);
        done += n;
    }
}

static void test_reuse_is_zeroed(void) {
    for (int round = 0; round < 6; round++) {
        Arena *a = arena_new();
        scribble(a, (unsigned char)(0xA0 + round), (size_t)(round + 1) * 300000);
        arena_free(a);
    }
    /* two live arenas at once, from the kept chunks: disjoint */
    Arena *x = arena_new(), *y = arena_new();
    unsigned char *px[64], *py[64];
    for (int i = 0; i < 64; i++) {
        px[i] = arena_alloc(x, 5000);
        py[i] = arena_alloc(y, 5000);
        CHECK(all_zero(px[i], 5000) && all_zero(py[i], 5000));
        memset(px[i], 1, 5000);
        memset(py[i], 2, 5000);
    }
    for (int i = 0; i < 64; i++) {
        CHECK(px[i][0] == 1 && px[i][4999] == 1);
        CHECK(py[i][0] == 2 && py[i][4999] == 2);
    }
    arena_free(x);
    arena_free(y);
}

static long hook_live;
static void *counting_alloc(void *ptr, size_t size, void *ud) {
    (void)ud;
    if (size == 0) {
        if (ptr) hook_live--;
        free(ptr);
        return NULL;
    }
    if (!ptr) hook_live++;
    void *p = realloc(ptr, size);
    if (!p) abort();
    return p;
}

static void test_allocator_switch(void) {
    /* chunks kept from the default allocator are not given to the hook */
    tc_set_allocator(counting_alloc, NULL);
    Arena *a = arena_new();
    scribble(a, 0x5A, 500000);
    arena_free(a);
    CHECK(hook_live > 0); /* kept chunks came from the hook */
    tc_set_allocator(NULL, NULL);
    CHECK(hook_live == 0); /* switching back freed them through it */
    a = arena_new();
    scribble(a, 0x33, 200000);
    arena_free(a);
}

int main(void) {
    test_reuse_is_zeroed();
    test_allocator_switch();
    test_reuse_is_zeroed();
    if (failures) {
        fprintf(stderr, "test_support_arena: %d checks failed\n", failures);
        return 1;
    }
    printf("test_support_arena: ok\n");
    return 0;
}
