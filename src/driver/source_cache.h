/*
 * source_cache.h - the C API's source-keyed kernel cache (source_cache.c).
 *
 * tc_compile looks a kernel up by what the caller gave it (source text,
 * kernel name, signature, constexprs, device, target, warps, stages) before
 * running anything, and on a hit loads the stored binary and launch
 * metadata without the front end. See source_cache.c for the key, the
 * entry's layout and how a damaged entry is handled.
 */
#ifndef TC_DRIVER_SOURCE_CACHE_H
#define TC_DRIVER_SOURCE_CACHE_H

#include "driver/compile.h"

typedef struct SrcCacheKey {
    char *root;   /* the cache folder (heap) */
    char hex[33]; /* 128-bit key, hex */
} SrcCacheKey;

/* Computes the key of a tc_compile request. False when the source cache
 * does not apply (IR input, no kernel name, an unknown target: those go
 * through the pipeline, which reports what is wrong). */
bool srccache_key(const tc_compile_options *o, SrcCacheKey *key);
void srccache_key_free(SrcCacheKey *key);

/* Fills `c` from the entry (kernel name, parameters, the loaded kernel) and
 * returns true on a hit. A missing entry returns false; a damaged one
 * (truncated, a checksum that does not match, a binary that does not load)
 * is removed and returns false, so the caller compiles and stores anew. */
bool srccache_load(Compilation *c, const SrcCacheKey *key);

/* Stores a successful compile's binary, metadata and stage texts under the
 * key (each file written atomically; the metadata file last). Failures to
 * write are ignored: the cache is an optimisation. */
void srccache_store(const Compilation *c, const SrcCacheKey *key);

/* Reads the stage texts of an entry into c->text[] (those it holds), for
 * tc_kernel_ir on a handle served from the cache. False when the entry's
 * text file is missing or damaged. */
bool srccache_load_texts(Compilation *c, const SrcCacheKey *key);

/* Process-wide counters, for tests: hits served and entries stored. */
void srccache_counts(long *hits, long *stores);

#endif
